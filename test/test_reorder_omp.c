/* Built with OpenMP: problems big enough for tl_reorder to use threads
   give the same bytes for every nthreads (1, 2, 3, 4, 0 = default), equal
   to the naive reference, compensation included. Compiled twice: the
   core alone, and with tensorlayout_simd.h (-DTEST_REORDER_OMP_SIMD),
   whose kernels must take the threads' parts of loops[0] too. */
#define TENSORLAYOUT_IMPLEMENTATION
#ifdef TEST_REORDER_OMP_SIMD
#include "tensorlayout_simd.h"
#else
#include "tensorlayout.h"
#endif
#include "tl_test.h"
#include "test_reorder_util.h"

static const tl_dim activations[4] = { 37, 45, 7, 9 };

/* scaled: per-channel scales and beta 0.5, else a plain copy or
   conversion */
static void same_for_all_threads(const tl_dim *dims, const char *stag, const char *dtag,
                                 tl_data_type st, tl_data_type dt, int comp_mask, int scaled)
{
    static const int counts[] = { 1, 2, 3, 4, 0 };
    tl_memory_desc s, d, plain;
    tl_reorder_attr a;
    float scales[64];
    char *src, *first, *out, *exp;
    size_t ssz, dsz;
    int i;
    CHECK(tl_md_init_by_tag(&s, 4, dims, st, stag) == TL_OK);
    CHECK(tl_md_init_by_tag(&d, 4, dims, dt, dtag) == TL_OK);
    plain = d;
    if (comp_mask >= 0) {
        d.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
        d.extra.compensation_mask = comp_mask;
    }
    for (i = 0; i < 64; ++i) scales[i] = 0.5f + 0.125f * (float)(i % 5);
    memset(&a, 0, sizeof a);
    if (scaled) {
        a.scale_mask = 1 << 1;
        a.scales = scales;
        a.beta = 0.5f;
    }
    ssz = tl_md_size(&s);
    dsz = tl_md_size(&d);
    src = (char *)malloc(ssz);
    first = (char *)malloc(dsz);
    out = (char *)malloc(dsz);
    exp = (char *)malloc(dsz);
    rt_fill(&s, src, ssz);
    rt_fill(&d, first, dsz);
    memcpy(exp, first, dsz);
    rt_ref_reorder(&s, src, &plain, exp, &a);
    for (i = 0; i < 5; ++i) {
        memcpy(out, first, dsz);
        a.nthreads = counts[i];
        CHECK(tl_reorder(&s, src, &d, out, &a) == TL_OK);
        CHECK_MSG(memcmp(out, exp, tl_md_size(&plain)) == 0, "%s -> %s, %d threads", stag, dtag,
                  counts[i]);
        if (i == 0) memcpy(exp, out, dsz);        /* later counts: the whole buffer */
        else CHECK_MSG(memcmp(out, exp, dsz) == 0, "%s -> %s: %d threads differ from 1",
                       stag, dtag, counts[i]);
    }
    free(src); free(first); free(out); free(exp);
}

/* One plan, executed by several threads at once into their own buffers. */
static void shared_plan(void)
{
    tl_dim dims[4] = { 4, 19, 6, 7 };
    tl_memory_desc s, d;
    tl_reorder_plan plan;
    float *src;
    char *out[6];
    size_t dsz;
    int i, t, bad = 0;
    CHECK(tl_md_init_by_tag(&s, 4, dims, TL_F32, "nhwc") == TL_OK);
    CHECK(tl_md_init_by_tag(&d, 4, dims, TL_F16, "nChw16c") == TL_OK);
    CHECK(tl_reorder_plan_init(&plan, &s, &d, NULL) == TL_OK);
    dsz = tl_md_size(&d);
    src = (float *)malloc(tl_md_size(&s));
    for (i = 0; i < 4 * 19 * 6 * 7; ++i) src[i] = (float)i * 0.25f;
    for (t = 0; t < 6; ++t) { out[t] = (char *)malloc(dsz); memset(out[t], t, dsz); }
#pragma omp parallel for
    for (t = 0; t < 6; ++t)
        if (tl_reorder_plan_execute(&plan, src, out[t]) != TL_OK) bad = 1;
    CHECK(!bad);
    for (t = 1; t < 6; ++t) CHECK(memcmp(out[0], out[t], dsz) == 0);
    for (t = 0; t < 6; ++t) free(out[t]);
    free(src);
}

/* s -> d with attr a on 3 threads, dst between two guards of 4 KiB:
   dst and guards equal to the naive reference's, or a failure naming
   what. */
static void guarded_on_three_threads(const tl_memory_desc *s, const tl_memory_desc *d, tl_reorder_attr a,
                                     const char *what)
{
    const size_t guard = 4096, ssz = tl_md_size(s), dsz = tl_md_size(d);
    char *src = (char *)malloc(ssz), *out = (char *)malloc(dsz + 2 * guard), *exp = (char *)malloc(dsz + 2 * guard);
    rt_fill(s, src, ssz);
    memset(exp, 0x5a, dsz + 2 * guard);
    memcpy(out, exp, dsz + 2 * guard);
    rt_ref_reorder(s, src, d, exp + guard, &a);
    a.nthreads = 3;
    CHECK(tl_reorder(s, src, d, out + guard, &a) == TL_OK);
    CHECK_MSG(memcmp(out, exp, dsz + 2 * guard) == 0, "%s on 3 threads: dst or its guards differ", what);
    free(src); free(out); free(exp);
}

/* Weights copied on 3 threads between every two of these layouts: the
   SIMD shapes walk some loops whole in a step, and must not take
   loops[0] for one where the threads cut it (the quads wrote outside dst
   for hwio -> OIhw16o16i with 256 outputs, whose rows are then B * B
   values). 64 inputs and 2x2 taps keep each case at the threads' least
   work; dst lies between two guards of 4 KiB. A quarter of the pairs
   under TL_TEST_QUICK. */
static void weights_every_pair(void)
{
    static const char *tags[] = { "oihw", "hwio", "ihwo", "iohw", "Ohwi16o", "OIhw16i16o", "OIhw16o16i",
                                  "IOhw16o16i", "OIhw8i8o", "OIhw8o8i", "OIhw4i4o", "OIhw4o4i", "OIhw4i16o4i",
                                  "OIhw2i8o4i" };
    static const tl_dim dims[4] = { 256, 64, 2, 2 };
    const long n = (long)(sizeof tags / sizeof tags[0]);
    long k, step = n * n / tl_test_cases(n * n);
    for (k = 0; k < n * n; k += step) {
        tl_memory_desc s, d;
        tl_reorder_attr a;
        char what[96];
        if (k / n == k % n) continue;
        CHECK(tl_md_init_by_tag(&s, 4, dims, TL_F32, tags[k / n]) == TL_OK);
        CHECK(tl_md_init_by_tag(&d, 4, dims, TL_F32, tags[k % n]) == TL_OK);
        memset(&a, 0, sizeof a);
        snprintf(what, sizeof what, "%s -> %s", tags[k / n], tags[k % n]);
        guarded_on_three_threads(&s, &d, a, what);
    }
}

/* Activations converted on 3 threads between every two of 7 layouts
   (blocks of 16, 8 and 4 channels among them), f32 copies, f32 -> s8
   with per-channel scales, u8 -> f32: dst between 4 KiB guards, equal
   to the naive reference (a quarter of the pairs under TL_TEST_QUICK). */
static void activations_every_pair(void)
{
    static const char *tags[] = { "nchw", "nhwc", "chwn", "ncwh", "nChw16c", "nChw8c", "nChw4c" };
    static const struct { tl_data_type s, d; int scaled; } t[] = {
        { TL_F32, TL_F32, 0 }, { TL_F32, TL_S8, 1 }, { TL_U8, TL_F32, 0 }
    };
    static const tl_dim dims[4] = { 4, 48, 19, 19 };
    const long n = (long)(sizeof tags / sizeof tags[0]), nt = (long)(sizeof t / sizeof t[0]);
    long k, step = n * n * nt / tl_test_cases(n * n * nt);
    float scales[48];
    for (k = 0; k < 48; ++k) scales[k] = 0.25f + 0.125f * (float)(k % 7);
    for (k = 0; k < n * n * nt; k += step) {
        long pair = k / nt, c = k % nt;
        tl_memory_desc s, d;
        tl_reorder_attr a;
        char what[96];
        if (pair / n == pair % n) continue;
        CHECK(tl_md_init_by_tag(&s, 4, dims, t[c].s, tags[pair / n]) == TL_OK);
        CHECK(tl_md_init_by_tag(&d, 4, dims, t[c].d, tags[pair % n]) == TL_OK);
        memset(&a, 0, sizeof a);
        a.scales = t[c].scaled ? scales : NULL;
        a.scale_mask = t[c].scaled ? 1 << 1 : 0;
        snprintf(what, sizeof what, "%s %s -> %s %s", tl_dt_name(t[c].s), tags[pair / n], tl_dt_name(t[c].d),
                 tags[pair % n]);
        guarded_on_three_threads(&s, &d, a, what);
    }
}

int main(void)
{
    shared_plan();
    same_for_all_threads(activations, "nchw", "nChw16c", TL_F32, TL_BF16, -1, 1);
    same_for_all_threads(activations, "nhwc", "nChw8c", TL_U8, TL_F32, -1, 1);
    same_for_all_threads(activations, "acdb", "ABcd4b16a4b", TL_F16, TL_S8, 1, 1);
    same_for_all_threads(activations, "abcd", "aBcd3b", TL_S32, TL_S8, 3, 1);
    {   /* weights copied: threads split the taps (loops[0], I of 113 not
           cut for them), or blocks of I; the SIMD kernel merges taps and
           inputs into one tile only where it gets all the taps */
        static const tl_dim taps_split[4] = { 80, 113, 3, 3 }, inputs_cut[4] = { 64, 256, 3, 3 };
        same_for_all_threads(taps_split, "oihw", "hwio", TL_F32, TL_F32, -1, 0);
        same_for_all_threads(inputs_cut, "oihw", "hwio", TL_F32, TL_F32, -1, 0);
        same_for_all_threads(taps_split, "oihw", "OIhw16i16o", TL_F32, TL_F32, -1, 0);
    }
    {   /* blocks back to taps by the quads, which walk their lanes' loops
           whole: from hwio with 256 o's those are the O blocks, dst's
           outermost loop, which the threads cut (it wrote outside dst) */
        static const tl_dim lanes_outer[4] = { 256, 256, 3, 3 };
        same_for_all_threads(lanes_outer, "hwio", "OIhw16o16i", TL_F32, TL_F32, -1, 0);
    }
    weights_every_pair();
    activations_every_pair();
    return tl_test_result("reorder_omp");
}
