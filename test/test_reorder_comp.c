/* s8s8 compensation: after the data (at C = data size rounded up to 4)
   come N int32, N = product of padded dims over the mask, laid out like
   the destination restricted to the masked dims; each is -128 times the
   sum of the stored s8 values mapping to it, padding slots 0. The
   expected layout is built here from the destination's tag with the
   unmasked letters struck out, and the stored values come from the naive
   reference, so nothing is shared with the library's planner. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include "test_reorder_util.h"

/* "ABcd4b16a4b" restricted to mask: the masked letters, renamed to
   a, b, ... in dim order ("AB4b16a4b" for mask 3, "A16a" for mask 1). */
static int restrict_tag(const char *tag, int mask, char *out)
{
    int rename[26], n = 0, k = 0, i;
    for (i = 0; i < 26; ++i) rename[i] = (mask >> i) & 1 ? n++ : -1;
    for (i = 0; tag[i]; ++i) {
        char c = tag[i];
        int up = c >= 'A' && c <= 'Z', d = (up ? c - 'A' : c - 'a');
        if (c >= '0' && c <= '9') {
            int j = i;
            while (tag[j] >= '0' && tag[j] <= '9') ++j;
            if (rename[tag[j] - 'a'] >= 0) { memcpy(out + k, tag + i, (size_t)(j - i)); k += j - i; }
            i = j - 1;
            continue;
        }
        if (rename[d] >= 0) out[k++] = (char)((up ? 'A' : 'a') + rename[d]);
    }
    out[k] = '\0';
    return n;
}

typedef struct {
    const tl_memory_desc *comp_md;
    const char *stored;
    int32_t *want;
    int mask;
} comp_ctx;

static void comp_one(const tl_memory_desc *md, const tl_dim *idx, int pad, void *vctx)
{
    comp_ctx *c = (comp_ctx *)vctx;
    tl_dim cidx[TL_MAX_NDIMS];
    int d, n = 0;
    uint32_t v;
    if (pad) return;
    for (d = 0; d < md->ndims; ++d) if ((c->mask >> d) & 1) cidx[n++] = idx[d];
    v = (uint32_t)c->want[n ? tl_md_offset(c->comp_md, cidx) : 0];
    v += (uint32_t)(-128 * (int32_t)(int8_t)c->stored[tl_md_offset(md, idx)]);
    c->want[n ? tl_md_offset(c->comp_md, cidx) : 0] = (int32_t)v;
}

static void check(const char *stag, const char *dtag, int ndims, const tl_dim *dims, int mask,
                  const tl_reorder_attr *attr, float adjust)
{
    tl_memory_desc s, d, plain, cm;
    char abstract[64], rtag[64], what[200];
    tl_dim cdims[TL_MAX_NDIMS], n = 1;
    size_t ssz, dsz, c;
    char *src, *dst, *exp;
    int32_t *want;
    comp_ctx cc;
    int k, nc = 0;
    CHECK(tl_md_init_by_tag(&s, ndims, dims, TL_F32, stag) == TL_OK);
    CHECK(tl_md_init_by_tag(&d, ndims, dims, TL_S8, dtag) == TL_OK);
    CHECK(tl_md_to_tag(&d, abstract, sizeof abstract) == TL_OK);
    plain = d;
    d.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
    d.extra.compensation_mask = mask;
    if (adjust != 1.0f) { d.extra.flags |= TL_MD_EXTRA_SCALE_ADJUST; d.extra.scale_adjust = adjust; }
    plain.extra = d.extra;
    plain.extra.flags &= ~(uint64_t)TL_MD_EXTRA_COMPENSATION_S8S8;
    for (k = 0; k < ndims; ++k)
        if ((mask >> k) & 1) { cdims[nc++] = dims[k]; n *= d.padded_dims[k]; }
    if (restrict_tag(abstract, mask, rtag) > 0)
        CHECK(tl_md_init_by_tag(&cm, nc, cdims, TL_S32, rtag) == TL_OK);
    sprintf(what, "%s -> %s (%s) mask %d comp layout %s", stag, dtag, abstract, mask, nc ? rtag : "-");
    c = (tl_md_size(&plain) + 3) / 4 * 4;
    CHECK_MSG(tl_md_size(&d) == c + 4 * (size_t)n, "%s: size", what);
    ssz = tl_md_size(&s);
    dsz = tl_md_size(&d);
    src = (char *)malloc(ssz);
    dst = (char *)malloc(dsz);
    exp = (char *)malloc(dsz);
    want = (int32_t *)calloc((size_t)n, 4);
    rt_fill(&s, src, ssz);
    rt_fill(&d, dst, dsz);                   /* old comp values are garbage */
    memcpy(exp, dst, dsz);
    rt_ref_reorder(&s, src, &plain, exp, attr);
    CHECK_MSG(tl_reorder(&s, src, &d, dst, attr) == TL_OK, "%s", what);
    CHECK_MSG(memcmp(dst, exp, tl_md_size(&plain)) == 0, "%s: data", what);
    cc.comp_md = &cm; cc.stored = dst; cc.want = want; cc.mask = mask;
    rt_for_each(&d, comp_one, &cc);
    CHECK_MSG(memcmp(dst + c, want, 4 * (size_t)n) == 0, "%s: compensation", what);
    free(src); free(dst); free(exp); free(want);
}

int main(void)
{
    static const tl_dim w4[] = { 20, 9, 3, 2 }, w5[] = { 2, 20, 9, 3, 2 };
    static const tl_dim dw[] = { 20, 1, 1, 3, 3 }, w2[] = { 33, 70 };
    float scales[64];
    tl_reorder_attr a;
    int i, nt;
    for (i = 0; i < 64; ++i) scales[i] = 0.25f * (float)(i % 7 + 1);
    for (nt = 0; nt < 2; ++nt) {
        memset(&a, 0, sizeof a);
        a.nthreads = nt;
        check("oihw", "OIhw4i16o4i", 4, w4, 1, &a, 1.0f);
        check("oihw", "OIhw4i16o4i", 4, w4, 0, &a, 1.0f);
        check("oihw", "OIhw16i16o4i", 4, w4, 2, &a, 0.5f);
        check("oihw", "hwio", 4, w4, 1, &a, 1.0f);
        check("oihw", "hwio", 4, w4, 5, &a, 1.0f);
        check("goihw", "gOIhw4i16o4i", 5, w5, 3, &a, 1.0f);
        check("goihw", "Goihw16g", 5, dw, 3, &a, 1.0f);
        check("goihw", "Goihw16g", 5, dw, 1, &a, 1.0f);
        check("oi", "IO16o4i", 2, w2, 3, &a, 1.0f);
        /* computed from the stored values whatever the attributes */
        a.scale_mask = 1;
        a.scales = scales;
        a.beta = 0.5f;
        a.src_zero_point = 3;
        a.dst_zero_point = -2;
        check("oihw", "OIhw4i16o4i", 4, w4, 1, &a, 0.5f);
        check("goihw", "gOIhw4i16o4i", 5, w5, 2, &a, 1.0f);
    }
    check("oihw", "OIhw4i16o4i", 4, w4, 1, NULL, 1.0f);
    return tl_test_result("reorder_comp");
}
