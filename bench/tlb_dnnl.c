/* tlb_dnnl.c - oneDNN 2.6 reorder and shuffle primitives for tlbench.
   Our descriptor mirrors oneDNN's blocked memory descriptor field by
   field, so every layout we can describe is handed over as is, with no
   table of format tags. */
#include "tlbench.h"

#include "dnnl_md.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tlb_dnnl {
    dnnl_engine_t eng;
    dnnl_stream_t strm;
    dnnl_primitive_t prim;
    dnnl_memory_t mem_src, mem_dst;
    int arg_src, arg_dst;
};

int tlb_dnnl_available(void) { return 1; }

static void tlb__why(char *why, size_t len, const char *what, dnnl_status_t st)
{
    if (why && len) snprintf(why, len, "oneDNN: %s (status %d)", what, (int)st);
}



static tlb_dnnl *tlb__new(char *why, size_t len)
{
    dnnl_status_t st;
    tlb_dnnl *p = (tlb_dnnl *)calloc(1, sizeof *p);
    if (!p) { tlb__why(why, len, "out of memory", dnnl_out_of_memory); return NULL; }
    st = dnnl_engine_create(&p->eng, dnnl_cpu, 0);
    if (st == dnnl_success) st = dnnl_stream_create(&p->strm, p->eng, dnnl_stream_default_flags);
    if (st != dnnl_success) {
        tlb__why(why, len, "no CPU engine", st);
        tlb_dnnl_destroy(p);
        return NULL;
    }
    return p;
}

/* Creates the primitive from pd and binds the two buffers. */
static tlb_dnnl *tlb__finish(tlb_dnnl *p, dnnl_primitive_desc_t pd,
                             const dnnl_memory_desc_t *src_md, void *src,
                             const dnnl_memory_desc_t *dst_md, void *dst,
                             char *why, size_t len)
{
    dnnl_status_t st = dnnl_primitive_create(&p->prim, pd);
    dnnl_primitive_desc_destroy(pd);
    if (st == dnnl_success) st = dnnl_memory_create(&p->mem_src, src_md, p->eng, src);
    if (st == dnnl_success) st = dnnl_memory_create(&p->mem_dst, dst_md, p->eng, dst);
    if (st != dnnl_success) {
        tlb__why(why, len, "primitive or memory creation failed", st);
        tlb_dnnl_destroy(p);
        return NULL;
    }
    return p;
}

/* Our attr as oneDNN 2.6 attributes: scales become output scales, beta a
   sum post-op, zero points per argument. */
static dnnl_status_t tlb__attr(dnnl_primitive_attr_t *out,
                               const tl_memory_desc *src_md,
                               const tl_reorder_attr *a)
{
    dnnl_status_t st = dnnl_primitive_attr_create(out);
    dnnl_post_ops_t po = NULL;
    if (st != dnnl_success || !a) return st;
    if (a->scales) {
        dnnl_dim_t count = 1;
        int d;
        for (d = 0; d < src_md->ndims; ++d)
            if (a->scale_mask & (1 << d)) count *= src_md->dims[d];
        st = dnnl_primitive_attr_set_output_scales(*out, count, a->scale_mask, a->scales);
    }
    if (st == dnnl_success && a->beta != 0.f) {
        st = dnnl_post_ops_create(&po);
        if (st == dnnl_success) st = dnnl_post_ops_append_sum(po, a->beta);
        if (st == dnnl_success) st = dnnl_primitive_attr_set_post_ops(*out, po);
        if (po) dnnl_post_ops_destroy(po);
    }
    if (st == dnnl_success && a->src_zero_point != 0)
        st = dnnl_primitive_attr_set_zero_points(*out, DNNL_ARG_SRC, 1, 0, &a->src_zero_point);
    if (st == dnnl_success && a->dst_zero_point != 0)
        st = dnnl_primitive_attr_set_zero_points(*out, DNNL_ARG_DST, 1, 0, &a->dst_zero_point);
    return st;
}

tlb_dnnl *tlb_dnnl_reorder_create(const tl_memory_desc *src_md, void *src,
                                  const tl_memory_desc *dst_md, void *dst,
                                  const tl_reorder_attr *attr,
                                  char *why, size_t len)
{
    dnnl_memory_desc_t s, d;
    dnnl_primitive_attr_t a = NULL;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_status_t st;
    tlb_dnnl *p = tlb__new(why, len);
    if (!p) return NULL;
    (void)tl_dnnl_md(src_md, &s);
    (void)tl_dnnl_md(dst_md, &d);
    st = tlb__attr(&a, src_md, attr);
    if (st == dnnl_success)
        st = dnnl_reorder_primitive_desc_create(&pd, &s, p->eng, &d, p->eng, a);
    if (a) dnnl_primitive_attr_destroy(a);
    if (st != dnnl_success) {
        tlb__why(why, len, "reorder not supported", st);
        tlb_dnnl_destroy(p);
        return NULL;
    }
    p->arg_src = DNNL_ARG_FROM;
    p->arg_dst = DNNL_ARG_TO;
    return tlb__finish(p, pd, &s, src, &d, dst, why, len);
}

tlb_dnnl *tlb_dnnl_shuffle_create(const tl_memory_desc *md, void *src,
                                  void *dst, int axis, tl_dim group_size,
                                  tl_direction dir, char *why, size_t len)
{
    dnnl_memory_desc_t m;
    dnnl_shuffle_desc_t fwd, bwd;
    dnnl_primitive_desc_t fwd_pd = NULL, pd = NULL;
    dnnl_status_t st;
    tlb_dnnl *p = tlb__new(why, len);
    if (!p) return NULL;
    (void)tl_dnnl_md(md, &m);
    st = dnnl_shuffle_forward_desc_init(&fwd, dnnl_forward_training, &m, axis, group_size);
    if (st == dnnl_success)
        st = dnnl_primitive_desc_create(&fwd_pd, &fwd, NULL, p->eng, NULL);
    if (st == dnnl_success && dir == TL_BACKWARD) {
        st = dnnl_shuffle_backward_desc_init(&bwd, &m, axis, group_size);
        if (st == dnnl_success)
            st = dnnl_primitive_desc_create(&pd, &bwd, NULL, p->eng, fwd_pd);
        dnnl_primitive_desc_destroy(fwd_pd);
    } else {
        pd = fwd_pd;
    }
    if (st != dnnl_success) {
        tlb__why(why, len, "shuffle not supported", st);
        tlb_dnnl_destroy(p);
        return NULL;
    }
    p->arg_src = dir == TL_BACKWARD ? DNNL_ARG_DIFF_DST : DNNL_ARG_SRC;
    p->arg_dst = dir == TL_BACKWARD ? DNNL_ARG_DIFF_SRC : DNNL_ARG_DST;
    return tlb__finish(p, pd, &m, src, &m, dst, why, len);
}

int tlb_dnnl_execute(tlb_dnnl *p)
{
    dnnl_exec_arg_t args[2];
    args[0].arg = p->arg_src;
    args[0].memory = p->mem_src;
    args[1].arg = p->arg_dst;
    args[1].memory = p->mem_dst;
    if (dnnl_primitive_execute(p->prim, p->strm, 2, args) != dnnl_success) return 1;
    return dnnl_stream_wait(p->strm) != dnnl_success;
}

void tlb_dnnl_destroy(tlb_dnnl *p)
{
    if (!p) return;
    if (p->mem_src) dnnl_memory_destroy(p->mem_src);
    if (p->mem_dst) dnnl_memory_destroy(p->mem_dst);
    if (p->prim) dnnl_primitive_destroy(p->prim);
    if (p->strm) dnnl_stream_destroy(p->strm);
    if (p->eng) dnnl_engine_destroy(p->eng);
    free(p);
}
