/* tlb_loop.c - the bare loop of tlbench.h: the yardstick for the call
   overhead of small reorders (issue 5 asks for at most 2x of it). */
#include "tlbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TLB_LOOP_DIMS 4

struct tlb_loop {
    tl_dim dims[TLB_LOOP_DIMS];
    tl_dim *soff[TLB_LOOP_DIMS], *doff[TLB_LOOP_DIMS];   /* elements */
    tl_data_type ddt;
    float scale;
};

/* Offsets of every index of dim d, the other indices at 0: a layout's
   offset is the sum of such terms, one per dim (offset0 in dim 0's). */
static tl_dim *tlb_loop_table(const tl_memory_desc *md, int d)
{
    tl_dim idx[TLB_LOOP_DIMS] = { 0, 0, 0, 0 }, base = 0, i;
    tl_dim *t = (tl_dim *)malloc((size_t)md->dims[d] * sizeof *t);
    if (!t) return NULL;
    if (d != 0) base = tl_md_offset(md, idx);
    for (i = 0; i < md->dims[d]; ++i) {
        idx[d] = i;
        t[i] = tl_md_offset(md, idx) - base;
    }
    return t;
}

tlb_loop *tlb_loop_create(const tl_memory_desc *src_md, const tl_memory_desc *dst_md,
                          const tl_reorder_attr *attr)
{
    tlb_loop *l;
    int d, ok = 1;
    if (src_md->ndims != TLB_LOOP_DIMS || dst_md->ndims != TLB_LOOP_DIMS ||
        src_md->data_type != TL_F32 ||
        (dst_md->data_type != TL_F32 && dst_md->data_type != TL_S8 && dst_md->data_type != TL_U8) ||
        tl_md_size(src_md) + tl_md_size(dst_md) > TLB_LOOP_MAX_BYTES)
        return NULL;
    if (dst_md->extra.flags != 0 ||
        (attr && (attr->scale_mask != 0 || attr->beta != 0 || attr->src_zero_point != 0 ||
                  attr->dst_zero_point != 0)))
        return NULL;
    l = (tlb_loop *)calloc(1, sizeof *l);
    if (!l) return NULL;
    l->ddt = dst_md->data_type;
    l->scale = attr && attr->scales ? attr->scales[0] : 1.f;
    for (d = 0; d < TLB_LOOP_DIMS; ++d) {
        l->dims[d] = src_md->dims[d];
        l->soff[d] = tlb_loop_table(src_md, d);
        l->doff[d] = tlb_loop_table(dst_md, d);
        ok = ok && l->soff[d] && l->doff[d];
    }
    if (!ok) {
        tlb_loop_destroy(l);
        return NULL;
    }
    return l;
}

tlb_loop *tlb_loop_create_shuffle(const tl_memory_desc *md, int axis, tl_dim group_size,
                                  tl_direction dir)
{
    tlb_loop *l;
    tl_dim C, G, q, c;
    if (md->data_type != TL_F32 || axis < 0 || axis >= md->ndims) return NULL;
    C = md->dims[axis];
    if (group_size < 1 || C % group_size != 0) return NULL;
    l = tlb_loop_create(md, md, NULL);
    if (!l) return NULL;
    G = dir == TL_FORWARD ? group_size : C / group_size;
    q = C / G;
    /* doff[axis] still holds every channel's offset */
    for (c = 0; c < C; ++c) l->soff[axis][c] = l->doff[axis][(c % q) * G + c / q];
    return l;
}

static float tlb_loop_clamp(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

void tlb_loop_execute(const tlb_loop *l, const void *src, void *dst)
{
    const float *s = (const float *)src;
    tl_dim a, b, c, e;
    for (a = 0; a < l->dims[0]; ++a)
        for (b = 0; b < l->dims[1]; ++b)
            for (c = 0; c < l->dims[2]; ++c) {
                tl_dim so = l->soff[0][a] + l->soff[1][b] + l->soff[2][c];
                tl_dim dof = l->doff[0][a] + l->doff[1][b] + l->doff[2][c];
                const tl_dim *st = l->soff[3], *dt = l->doff[3];
                switch (l->ddt) {
                case TL_F32:
                    for (e = 0; e < l->dims[3]; ++e) ((float *)dst)[dof + dt[e]] = s[so + st[e]];
                    break;
                case TL_S8:
                    for (e = 0; e < l->dims[3]; ++e)
                        ((signed char *)dst)[dof + dt[e]] =
                            (signed char)lrintf(tlb_loop_clamp(s[so + st[e]] * l->scale, -128.f, 127.f));
                    break;
                default:
                    for (e = 0; e < l->dims[3]; ++e)
                        ((unsigned char *)dst)[dof + dt[e]] =
                            (unsigned char)lrintf(tlb_loop_clamp(s[so + st[e]] * l->scale, 0.f, 255.f));
                    break;
                }
            }
}

void tlb_loop_destroy(tlb_loop *l)
{
    int d;
    if (!l) return;
    for (d = 0; d < TLB_LOOP_DIMS; ++d) {
        free(l->soff[d]);
        free(l->doff[d]);
    }
    free(l);
}
