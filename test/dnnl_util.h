/* dnnl_util.h - shared by the tests that compare with oneDNN 2.6: our
   descriptors and attributes translated to oneDNN's C API, one reorder
   primitive made and run. Include after tensorlayout.h and tl_test.h, in
   one .c file per program (the engine and stream are file statics). */
#ifndef TEST_DNNL_UTIL_H
#define TEST_DNNL_UTIL_H
#include "dnnl_md.h"

static dnnl_engine_t dnnl_util_engine;
static dnnl_stream_t dnnl_util_stream;
/* the implementation oneDNN picked for the last primitive made */
static const char *dnnl_util_impl = "";

/* 0 when oneDNN has a CPU engine; the caller then skips (77). */
TL_TEST_UNUSED static int dnnl_util_init(void)
{
    if (dnnl_engine_create(&dnnl_util_engine, dnnl_cpu, 0) != dnnl_success) return 1;
    return dnnl_stream_create(&dnnl_util_stream, dnnl_util_engine,
                              dnnl_stream_default_flags) != dnnl_success;
}

TL_TEST_UNUSED static void dnnl_util_done(void)
{
    dnnl_stream_destroy(dnnl_util_stream);
    dnnl_engine_destroy(dnnl_util_engine);
}



/* oneDNN's byte size of md (with its own, larger, extra area). */
TL_TEST_UNUSED static size_t dnnl_util_size(const tl_memory_desc *md)
{
    dnnl_memory_desc_t d;
    (void)tl_dnnl_md(md, &d);
    return dnnl_memory_desc_get_size(&d);
}

/* A oneDNN reorder primitive for the problem, or NULL if it refuses.
   Our scales become output scales (nscales of them, 2.6 has no others),
   beta a sum post-op. */
TL_TEST_UNUSED static dnnl_primitive_t dnnl_util_reorder_make(const tl_memory_desc *s,
                                                              const tl_memory_desc *d,
                                                              const tl_reorder_attr *a,
                                                              tl_dim nscales)
{
    dnnl_memory_desc_t ds, dd;
    dnnl_primitive_attr_t attr;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_post_ops_t ops;
    (void)tl_dnnl_md(s, &ds);
    (void)tl_dnnl_md(d, &dd);
    dnnl_util_impl = "";
    dnnl_primitive_attr_create(&attr);
    if (a->scales) dnnl_primitive_attr_set_output_scales(attr, nscales, a->scale_mask, a->scales);
    if (a->src_zero_point)
        dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_SRC, 1, 0, &a->src_zero_point);
    if (a->dst_zero_point)
        dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_DST, 1, 0, &a->dst_zero_point);
    if (a->beta != 0) {
        dnnl_post_ops_create(&ops);
        dnnl_post_ops_append_sum(ops, a->beta);
        dnnl_primitive_attr_set_post_ops(attr, ops);
        dnnl_post_ops_destroy(ops);
    }
    if (dnnl_reorder_primitive_desc_create(&pd, &ds, dnnl_util_engine, &dd, dnnl_util_engine,
                                           attr) == dnnl_success) {
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &dnnl_util_impl);
        if (dnnl_primitive_create(&prim, pd) != dnnl_success) prim = NULL;
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_primitive_attr_destroy(attr);
    return prim;
}

TL_TEST_UNUSED static void dnnl_util_reorder_run(dnnl_primitive_t prim, const tl_memory_desc *s,
                                                 void *src, const tl_memory_desc *d, void *dst)
{
    dnnl_memory_desc_t ds, dd;
    dnnl_memory_t ms, md;
    dnnl_exec_arg_t args[2];
    (void)tl_dnnl_md(s, &ds);
    (void)tl_dnnl_md(d, &dd);
    dnnl_memory_create(&ms, &ds, dnnl_util_engine, src);
    dnnl_memory_create(&md, &dd, dnnl_util_engine, dst);
    args[0].arg = DNNL_ARG_FROM; args[0].memory = ms;
    args[1].arg = DNNL_ARG_TO; args[1].memory = md;
    CHECK(dnnl_primitive_execute(prim, dnnl_util_stream, 2, args) == dnnl_success);
    dnnl_stream_wait(dnnl_util_stream);
    dnnl_memory_destroy(ms);
    dnnl_memory_destroy(md);
}

#endif
