/* dnnl_util.h - shared by the tests that compare with oneDNN 2.6: our
   descriptors and attributes translated to oneDNN's C API, one reorder
   primitive made and run. Include after tensorlayout.h and tl_test.h, in
   one .c file per program (the engine and stream are file statics). */
#ifndef TEST_DNNL_UTIL_H
#define TEST_DNNL_UTIL_H
#include <dnnl.h>
#include <string.h>

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

TL_TEST_UNUSED static dnnl_data_type_t dnnl_util_dt(tl_data_type dt)
{
    switch (dt) {
    case TL_F32: return dnnl_f32;
    case TL_F16: return dnnl_f16;
    case TL_BF16: return dnnl_bf16;
    case TL_S32: return dnnl_s32;
    case TL_S8: return dnnl_s8;
    case TL_U8: return dnnl_u8;
    default: return dnnl_data_type_undef;
    }
}

/* Field by field: the two blocking models are the same (seed 002). */
TL_TEST_UNUSED static void dnnl_util_md(const tl_memory_desc *md, dnnl_memory_desc_t *out)
{
    int d, b;
    memset(out, 0, sizeof *out);
    out->ndims = md->ndims;
    out->data_type = dnnl_util_dt(md->data_type);
    out->offset0 = md->offset0;
    out->format_kind = md->format_kind == TL_FORMAT_KIND_ANY ? dnnl_format_kind_any : dnnl_blocked;
    for (d = 0; d < md->ndims; ++d) {
        out->dims[d] = md->dims[d];
        out->padded_dims[d] = md->padded_dims[d];
        out->padded_offsets[d] = md->padded_offsets[d];
        out->format_desc.blocking.strides[d] = md->blocking.strides[d];
    }
    out->format_desc.blocking.inner_nblks = md->blocking.inner_nblks;
    for (b = 0; b < md->blocking.inner_nblks; ++b) {
        out->format_desc.blocking.inner_blks[b] = md->blocking.inner_blks[b];
        out->format_desc.blocking.inner_idxs[b] = md->blocking.inner_idxs[b];
    }
    if (md->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) {
        out->extra.flags |= dnnl_memory_extra_flag_compensation_conv_s8s8;
        out->extra.compensation_mask = md->extra.compensation_mask;
    }
    if (md->extra.flags & TL_MD_EXTRA_SCALE_ADJUST) {
        out->extra.flags |= dnnl_memory_extra_flag_scale_adjust;
        out->extra.scale_adjust = md->extra.scale_adjust;
    }
}

/* oneDNN's byte size of md (with its own, larger, extra area). */
TL_TEST_UNUSED static size_t dnnl_util_size(const tl_memory_desc *md)
{
    dnnl_memory_desc_t d;
    dnnl_util_md(md, &d);
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
    dnnl_util_md(s, &ds);
    dnnl_util_md(d, &dd);
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
    dnnl_util_md(s, &ds);
    dnnl_util_md(d, &dd);
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
