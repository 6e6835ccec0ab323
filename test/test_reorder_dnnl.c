/* tl_reorder against oneDNN 2.6 itself: the same random problems (layout
   pairs, data types, output scales, zero points, sum) through both, where
   oneDNN creates the primitive. Compared bit for bit: the values in
   logical order, and the whole destination buffer as laid out (padding
   and bytes outside the view included). Also: s8s8 compensation where
   DESIGN.md says we agree (no zero points, no beta), and problems oneDNN
   refuses that we must refuse too. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include "test_reorder_util.h"
#include "dnnl_util.h"

#ifndef RT_PROBLEMS
#define RT_PROBLEMS 600
#endif

static long n_compared, n_refused, n_comp;

/* "Normal-range" data: no NaN, no -0.0 (oneDNN is inconsistent there). */
static void fill_normal(const tl_memory_desc *md, void *buf, size_t bytes, int big_ints)
{
    tl_dim idx[TL_MAX_NDIMS] = {0};
    size_t sz = tl_dt_size(md->data_type), i;
    int d;
    for (i = 0; i < bytes; ++i) ((unsigned char *)buf)[i] = (unsigned char)tl_test_rand();
    for (;;) {
        char *p = (char *)buf + (size_t)tl_md_offset(md, idx) * sz;
        float f = (float)tl_test_range(-3000, 3000) / 8.0f;
        int32_t v = (int32_t)tl_test_range(-300, 300);
        if (tl_test_range(0, 9) == 0) f = (float)tl_test_range(-200, 200) + 0.5f;
        if (tl_test_range(0, 19) == 0) f = tl_test_range(0, 1) ? 60000.f : -60000.f;
        if (f == 0) f = 1;
        if (big_ints && md->data_type == TL_S32 && tl_test_range(0, 9) == 0)
            v = (int32_t)tl_test_range(INT32_MIN, INT32_MAX);
        if (md->data_type == TL_S8) v = (int32_t)tl_test_range(-128, 127);
        if (md->data_type == TL_U8) v = (int32_t)tl_test_range(0, 255);
        rt_put(md->data_type, p, f, v);
        for (d = md->ndims - 1; d >= 0; --d) {
            if (++idx[d] < md->dims[d]) break;
            idx[d] = 0;
        }
        if (d < 0) break;
    }
}

static tl_dim scale_count(const tl_memory_desc *md, int mask)
{
    tl_dim n = 1;
    int d;
    for (d = 0; d < md->ndims; ++d) if (mask & (1 << d)) n *= md->dims[d];
    return n;
}

typedef struct {
    const char *ours;
    char *theirs;
    const char *what;
    int beta, bad;
} cmp_ctx;

/* Known, documented differences are folded into oneDNN's copy: -0.0
   against +0.0 (oneDNN's simple reorder adds +0, and its jit reorder
   writes padding as scale * 0, -0.0 for a negative scale), and padding
   under a sum post-op (oneDNN 2.6 leaves it alone there). Our padding is
   checked to be +0 bytes instead, as DESIGN.md asks. */
static void cmp_one(const tl_memory_desc *md, const tl_dim *idx, int pad, void *vctx)
{
    cmp_ctx *c = (cmp_ctx *)vctx;
    size_t sz = tl_dt_size(md->data_type), off = (size_t)tl_md_offset(md, idx) * sz, k;
    double a = rt_get(md->data_type, c->ours + off), b = rt_get(md->data_type, c->theirs + off);
    if (pad) {
        for (k = 0; k < sz; ++k) CHECK(c->ours[off + k] == 0);
        if (c->beta || b == 0) memcpy(c->theirs + off, c->ours + off, sz);
        return;
    }
    if (a == 0 && b == 0) memcpy(c->theirs + off, c->ours + off, sz);
    if (!c->bad && memcmp(c->ours + off, c->theirs + off, sz) != 0) {
        CHECK_MSG(0, "%s: value at element offset %lu: %.9g, oneDNN %.9g", c->what,
                  (unsigned long)(off / sz), a, b);
        c->bad = 1;
    }
}

/* Values in logical order, then the whole buffer. */
static void compare_dst(const tl_memory_desc *md, const char *ours, char *theirs,
                        size_t bytes, const char *what, int beta)
{
    cmp_ctx c;
    c.ours = ours; c.theirs = theirs; c.what = what; c.beta = beta; c.bad = 0;
    rt_for_each(md, cmp_one, &c);
    if (!c.bad && memcmp(ours, theirs, bytes) != 0) {
        size_t i;
        for (i = 0; i < bytes && ours[i] == theirs[i]; ++i) {}
        CHECK_MSG(0, "%s: buffers differ at byte %lu of %lu (%02x, oneDNN %02x)", what,
                  (unsigned long)i, (unsigned long)bytes, (unsigned)(unsigned char)ours[i],
                  (unsigned)(unsigned char)theirs[i]);
    }
}

static const tl_data_type dnnl_dts[] = { TL_F32, TL_F16, TL_BF16, TL_S32, TL_S8, TL_U8 };

static void random_problem(int with_zero_points)
{
    static float scales[4096];
    tl_dim dims[TL_MAX_NDIMS], total = 1;
    int ndims = (int)tl_test_range(1, 5), d;
    rt_layout sl, dl;
    tl_reorder_attr a;
    dnnl_primitive_t prim;
    char *src, *ours, *theirs, what[512];
    tl_status st;
    for (d = 0; d < ndims; ++d) { dims[d] = tl_test_range(1, total > 100 ? 2 : 9); total *= dims[d]; }
    rt_random_layout(&sl, ndims, dims, dnnl_dts[tl_test_range(0, 5)]);
    rt_random_layout(&dl, ndims, dims, dnnl_dts[tl_test_range(0, 5)]);
    rt_random_attr(&a, &dl.md, scales);
    if (a.scale_mask) {       /* oneDNN reads a mask as the run of dims
                                 between its lowest and highest bits */
        int lo = (int)tl_test_range(0, ndims - 1), hi = (int)tl_test_range(lo, ndims - 1);
        a.scale_mask = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1);
    }
    /* Zero points only where oneDNN 2.6 applies them consistently: its
       jit reorder drops them for strided or view destinations, and its
       reference reorder adds dst_zero_point before the sum. */
    if (!with_zero_points) a.src_zero_point = a.dst_zero_point = 0;
    else if (a.beta != 0 || strncmp(dl.what, "tag", 3) != 0) return;
    prim = dnnl_util_reorder_make(&sl.md, &dl.md, &a, scale_count(&dl.md, a.scale_mask));
    rt_describe(&sl.md, &sl, &dl.md, &dl, &a, what);
    sprintf(what + strlen(what), " [%s]", dnnl_util_impl);
    if (!prim) { ++n_refused; return; }
    if (getenv("RT_DEBUG")) {
        int k;
        fprintf(stderr, "%s\n", what);
        for (k = 0; k < 2; ++k) {
            const tl_memory_desc *m = k ? &dl.md : &sl.md;
            int q;
            fprintf(stderr, "  off0 %lld nblks %d:", (long long)m->offset0, m->blocking.inner_nblks);
            for (q = 0; q < m->blocking.inner_nblks; ++q)
                fprintf(stderr, " %lld%c", (long long)m->blocking.inner_blks[q], (char)('a' + m->blocking.inner_idxs[q]));
            fprintf(stderr, " |");
            for (q = 0; q < m->ndims; ++q)
                fprintf(stderr, " %lld/%lld s%lld", (long long)m->dims[q], (long long)m->padded_dims[q],
                       (long long)m->blocking.strides[q]);
            fprintf(stderr, "\n");
        }
    }
    src = (char *)malloc(sl.bytes);
    ours = (char *)malloc(dl.bytes);
    theirs = (char *)malloc(dl.bytes);
    /* with zero points oneDNN's jit does s32 -> s32 in integers */
    fill_normal(&sl.md, src, sl.bytes, !with_zero_points);
    fill_normal(&dl.md, ours, dl.bytes, !with_zero_points);
    memcpy(theirs, ours, dl.bytes);
    st = tl_reorder(&sl.md, src, &dl.md, ours, &a);
    CHECK_MSG(st == TL_OK, "%s: %s", what, tl_status_str(st));
    dnnl_util_reorder_run(prim, &sl.md, src, &dl.md, theirs);
    /* oneDNN's reference reorder rounds s32 -> s32 copies through f32,
       its jit reorder copies them exactly, as we do */
    if (sl.md.data_type == TL_S32 && dl.md.data_type == TL_S32 && !a.scales && a.beta == 0 &&
        strcmp(dnnl_util_impl, "simple:any") == 0)
        memcpy(theirs, ours, dl.bytes);
    compare_dst(&dl.md, ours, theirs, dl.bytes, what, a.beta != 0);
    ++n_compared;
    dnnl_primitive_destroy(prim);
    free(src); free(ours); free(theirs);
}

/* Problems shaped like benchdnn's reorder inputs: named activation and
   weight tags with tails, every data-type pair, each with one of: no
   attr, a common scale, per-channel scales, a sum with a scale. Bigger
   than the random ones, so oneDNN picks its blocked jit kernels. */
typedef struct { int ndims; tl_dim dims[5]; const char *src, *dst; int oc_mask; } named_case;

static const named_case named[] = {
    { 4, { 2, 17, 5, 3 }, "nchw", "nChw16c", 2 }, { 4, { 2, 17, 5, 3 }, "nChw16c", "nchw", 2 },
    { 4, { 3, 32, 4, 4 }, "nhwc", "nChw8c", 2 }, { 4, { 3, 32, 4, 4 }, "nChw8c", "nChw16c", 2 },
    { 4, { 2, 17, 5, 3 }, "nchw", "nhwc", 2 }, { 4, { 2, 17, 5, 3 }, "nhwc", "nchw", 2 },
    { 4, { 17, 3, 5, 3 }, "NChw16n16c", "nchw", 2 }, { 4, { 2, 17, 5, 3 }, "chwn", "nChw16c", 2 },
    { 4, { 17, 13, 3, 3 }, "oihw", "OIhw16i16o", 1 }, { 4, { 17, 13, 3, 3 }, "oihw", "OIhw16o16i", 1 },
    { 4, { 17, 13, 3, 3 }, "oihw", "OIhw4i16o4i", 1 }, { 4, { 17, 13, 3, 3 }, "hwio", "OIhw8i8o", 1 },
    { 4, { 32, 32, 1, 1 }, "OIhw16i16o", "oihw", 1 }, { 4, { 17, 13, 3, 3 }, "oihw", "Ohwi16o", 1 },
    { 4, { 17, 13, 3, 3 }, "oihw", "OIhw8i16o2i", 1 }, { 4, { 17, 13, 3, 3 }, "ihwo", "oihw", 1 },
    { 5, { 2, 16, 9, 3, 3 }, "goihw", "gOIhw16i16o", 3 }, { 5, { 2, 16, 9, 3, 3 }, "goihw", "gOIhw4i16o4i", 3 },
    { 5, { 20, 1, 1, 3, 3 }, "goihw", "Goihw16g", 3 }, { 5, { 2, 16, 9, 3, 3 }, "gOIhw16i16o", "goihw", 3 },
    { 3, { 5, 17, 7 }, "ncw", "nCw16c", 2 }, { 3, { 5, 17, 7 }, "nwc", "ncw", 2 },
    { 2, { 17, 33 }, "nc", "cn", 2 }, { 2, { 17, 33 }, "io", "oi", 1 },
};

static void named_problem(const named_case *nc, tl_data_type st, tl_data_type dt, int kind)
{
    static float scales[4096];
    tl_memory_desc s, d;
    tl_reorder_attr a;
    dnnl_primitive_t prim;
    char *src, *ours, *theirs, what[200];
    size_t ssz, dsz;
    tl_dim n = 1, i;
    int k;
    CHECK(tl_md_init_by_tag(&s, nc->ndims, nc->dims, st, nc->src) == TL_OK);
    CHECK(tl_md_init_by_tag(&d, nc->ndims, nc->dims, dt, nc->dst) == TL_OK);
    memset(&a, 0, sizeof a);
    for (i = 0; i < 4096; ++i) scales[i] = (float)(1 << (i % 5)) * 0.125f * (i % 3 ? 1.0f : 1.5f);
    if (kind >= 1) a.scales = scales;
    if (kind == 2) {
        a.scale_mask = nc->oc_mask;
        for (k = 0; k < nc->ndims; ++k) if (nc->oc_mask & (1 << k)) n *= nc->dims[k];
    }
    if (kind == 3) a.beta = 0.5f;
    sprintf(what, "%s %s -> %s %s attr %d", tl_dt_name(st), nc->src, tl_dt_name(dt), nc->dst, kind);
    prim = dnnl_util_reorder_make(&s, &d, &a, n);
    if (!prim) { ++n_refused; return; }
    sprintf(what + strlen(what), " [%s]", dnnl_util_impl);
    ssz = tl_md_size(&s);
    dsz = tl_md_size(&d);
    src = (char *)malloc(ssz); ours = (char *)malloc(dsz); theirs = (char *)malloc(dsz);
    fill_normal(&s, src, ssz, 1);
    fill_normal(&d, ours, dsz, 1);
    memcpy(theirs, ours, dsz);
    CHECK_MSG(tl_reorder(&s, src, &d, ours, &a) == TL_OK, "%s", what);
    dnnl_util_reorder_run(prim, &s, src, &d, theirs);
    if (st == TL_S32 && dt == TL_S32 && kind == 0 && strcmp(dnnl_util_impl, "simple:any") == 0)
        memcpy(theirs, ours, dsz);
    compare_dst(&d, ours, theirs, dsz, what, a.beta != 0);
    ++n_compared;
    dnnl_primitive_destroy(prim);
    free(src); free(ours); free(theirs);
}

static void named_problems(void)
{
    int c, si, di;
    long before = n_compared;
    for (c = 0; c < (int)(sizeof named / sizeof named[0]); ++c)
        for (si = 0; si < 6; ++si)
            for (di = 0; di < 6; ++di)
                named_problem(&named[c], dnnl_dts[si], dnnl_dts[di], (c + si + di) % 4);
    printf("named problems compared: %ld of %d\n", n_compared - before,
           (int)(sizeof named / sizeof named[0]) * 36);
    CHECK(n_compared - before > (long)(sizeof named / sizeof named[0]) * 20);
}

/* s8s8 weights with compensation, no zero points, no beta: values, the
   data bytes and the N int32 after them at C (DESIGN.md's layout). */
static void comp_case(const char *stag, const char *dtag, int ndims, const tl_dim *dims,
                      int mask, int per_oc_scales, float adjust)
{
    static float scales[4096];
    tl_memory_desc s, d;
    tl_reorder_attr a;
    dnnl_primitive_t prim;
    char *src, *ours, *theirs, what[160];
    size_t ssz, dsz, dnnl_size, c;
    tl_dim n = 1, i;
    int k;
    CHECK(tl_md_init_by_tag(&s, ndims, dims, TL_F32, stag) == TL_OK);
    CHECK(tl_md_init_by_tag(&d, ndims, dims, TL_S8, dtag) == TL_OK);
    d.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
    d.extra.compensation_mask = mask;
    if (adjust != 1.0f) {
        d.extra.flags |= TL_MD_EXTRA_SCALE_ADJUST;
        d.extra.scale_adjust = adjust;
    }
    memset(&a, 0, sizeof a);
    if (per_oc_scales) {
        a.scale_mask = mask;
        for (k = 0; k < ndims; ++k) if (mask & (1 << k)) n *= dims[k];
        for (i = 0; i < n; ++i) scales[i] = (float)(i % 5 + 1) * 0.75f;
        a.scales = scales;
    }
    sprintf(what, "comp %s -> %s mask %d scales %d adjust %g", stag, dtag, mask, per_oc_scales,
            (double)adjust);
    prim = dnnl_util_reorder_make(&s, &d, &a, n);
    if (!prim) { printf("oneDNN refuses %s\n", what); return; }
    ++n_comp;
    ssz = tl_md_size(&s);
    dsz = tl_md_size(&d);
    dnnl_size = dnnl_util_size(&d);
    d.extra.flags &= ~(uint64_t)TL_MD_EXTRA_COMPENSATION_S8S8;
    c = (tl_md_size(&d) + 3) / 4 * 4;
    d.extra.flags |= TL_MD_EXTRA_COMPENSATION_S8S8;
    src = (char *)malloc(ssz);
    ours = (char *)malloc(dnnl_size > dsz ? dnnl_size : dsz);
    theirs = (char *)malloc(dnnl_size > dsz ? dnnl_size : dsz);
    fill_normal(&s, src, ssz, 0);
    memset(ours, 0x5a, dnnl_size > dsz ? dnnl_size : dsz);
    memset(theirs, 0x5a, dnnl_size > dsz ? dnnl_size : dsz);
    CHECK_MSG(tl_reorder(&s, src, &d, ours, &a) == TL_OK, "%s", what);
    dnnl_util_reorder_run(prim, &s, src, &d, theirs);
    compare_dst(&d, ours, theirs, c, what, 0);
    CHECK_MSG(memcmp(ours + c, theirs + c, dsz - c) == 0, "%s: compensation differs", what);
    dnnl_primitive_destroy(prim);
    free(src); free(ours); free(theirs);
}

static void compensation(void)
{
    static const tl_dim w4[] = { 20, 9, 3, 2 }, w5[] = { 2, 20, 9, 3, 2 }, dw[] = { 20, 1, 1, 3, 3 };
    static const tl_dim w2[] = { 33, 70 };
    comp_case("oihw", "OIhw4i16o4i", 4, w4, 1, 0, 1.0f);
    comp_case("oihw", "OIhw4i16o4i", 4, w4, 1, 1, 1.0f);
    comp_case("oihw", "OIhw4i16o4i", 4, w4, 1, 1, 0.5f);
    comp_case("oihw", "OIhw16i16o4i", 4, w4, 1, 1, 1.0f);
    comp_case("oihw", "hwio", 4, w4, 1, 1, 1.0f);
    comp_case("goihw", "gOIhw4i16o4i", 5, w5, 3, 1, 1.0f);
    comp_case("goihw", "gOIhw4i16o4i", 5, w5, 3, 0, 0.5f);
    comp_case("goihw", "Goihw16g", 5, dw, 3, 1, 1.0f);
    comp_case("goihw", "hwigo", 5, w5, 3, 1, 1.0f);
    comp_case("oi", "io", 2, w2, 2, 0, 1.0f);
    CHECK(n_comp >= 4);
}

/* Problems oneDNN refuses that we must refuse too. */
static void refusals(void)
{
    tl_dim dims[4] = { 16, 8, 3, 3 }, other[4] = { 16, 8, 3, 4 };
    tl_memory_desc s, d, any;
    tl_reorder_attr a;
    float buf_s[16 * 8 * 12], buf_d[16 * 8 * 12 + 64];
    CHECK(tl_md_init_by_tag(&s, 4, dims, TL_S8, "OIhw4i16o4i") == TL_OK);
    CHECK(tl_md_init_by_tag(&d, 4, dims, TL_F32, "oihw") == TL_OK);
    memset(&a, 0, sizeof a);
    s.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
    s.extra.compensation_mask = 1;
    /* a compensated src: oneDNN 2.6 accepts this pair and reads the s8
       values as they are; DESIGN.md refuses it (the data is not the
       tensor any more once scale_adjust or comp applies), so no check
       against oneDNN here */
    CHECK_EQ(tl_reorder(&s, buf_s, &d, buf_d, NULL), TL_UNSUPPORTED);
    CHECK(tl_md_init_by_tag(&s, 4, dims, TL_F32, "oihw") == TL_OK);
    CHECK(tl_md_init_by_tag(&d, 4, other, TL_F32, "oihw") == TL_OK);
    CHECK(dnnl_util_reorder_make(&s, &d, &a, 1) == NULL);            /* dims differ */
    CHECK_EQ(tl_reorder(&s, buf_s, &d, buf_d, NULL), TL_SHAPE_MISMATCH);
    CHECK(tl_md_init_by_tag(&any, 4, dims, TL_F32, "any") == TL_OK);
    CHECK(dnnl_util_reorder_make(&s, &any, &a, 1) == NULL);          /* any */
    CHECK_EQ(tl_reorder(&s, buf_s, &any, buf_d, NULL), TL_INVALID_ARGUMENTS);
}

int main(void)
{
    int i;
    if (dnnl_util_init()) return 77;
    /* oneDNN zeroes only the padding that blocks need; padded_dims set
       larger by hand are ours alone (written as zero, see reorder_ref) */
    rt_raw_tight = 1;
    for (i = 0; i < RT_PROBLEMS; ++i) random_problem(0);
    for (i = 0; i < RT_PROBLEMS; ++i) random_problem(1);
    named_problems();
    compensation();
    refusals();
    printf("compared %ld problems, oneDNN refused %ld, compensation %ld\n",
           n_compared, n_refused, n_comp);
    CHECK(n_compared > RT_PROBLEMS / 4);
    dnnl_util_done();
    return tl_test_result("reorder_dnnl");
}
