/* SIMD reorder kernels against the scalar engine, bit for bit.
   This file holds the vector build of the library (static), the other
   file (test_simd_reorder_scalar.c) the scalar one. Every case runs both
   on the same input, which ends at an unreadable page (a load past it
   crashes), and compares the whole destination buffer, guard bytes
   around it included. Inputs hold NaN, infinities, huge values and
   exact .5 ties; layouts cover plain permutations, blocked tags, views
   and unaligned pointers; attrs cover scales (one and per dim), zero
   points, beta and scale_adjust. The tail sweep runs every length 1..64
   of the dim the kernels vectorise. Each case also records whether the
   SIMD kernel took the plan, and the test fails if the kernels were
   never used where they should be (a test of scalar against scalar
   would pass trivially). */
#define _DEFAULT_SOURCE     /* tl_test_fenced: MAP_ANONYMOUS under -std=c99 */
#define TENSORLAYOUT_STATIC
#define TENSORLAYOUT_IMPLEMENTATION
/* streaming (non-temporal) stores from 1 KiB of dst on, instead of 64 MiB,
   so that the small tensors here take that path too */
#define TL__SR_STREAM_MIN 1024
/* --isa=avx512 / --isa=avx2 / --isa=sse2 cap the variants the kernels
   may pick, so that this one build checks each of them (meson runs it
   four times) */
static int isa_cap = 3;
#define TL__SR_ISA_CAP isa_cap
#include "tensorlayout_simd.h"
#include "tl_test.h"

#include <stdlib.h>
#include <string.h>

tl_status test_scalar_reorder(const tl_memory_desc *src_md, const void *src,
                              const tl_memory_desc *dst_md, void *dst,
                              const tl_reorder_attr *attr);
int shuffle_simd_tests(void);   /* test_shuffle_simd.c */
tl_status shuffle_simd_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                           tl_dim g, tl_direction dir, int *vectorized);

/* test_shuffle_simd.c's vector side: *vectorized says whether a SIMD
   kernel moved the data, so it can tell a vector path from the core */
tl_status shuffle_simd_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                           tl_dim g, tl_direction dir, int *vectorized)
{
    return tl__shuffle_impl(md, src, dst, axis, g, dir, vectorized);
}

int shuffle_simd_has_lines(tl_dim es);

/* whether this build and CPU have the shuffle's block lines for es-byte
   elements (AVX-512; AVX2 for 4 and 8 bytes) */
int shuffle_simd_has_lines(tl_dim es)
{
#if TL__SR_AVX2
    return tl__sr_avx512() || (tl__sr_avx2() && es != 2);
#else
    (void)es;
    return 0;
#endif
}

#define GUARD 64

static long cases_run, cases_simd;
static long cases_perm, cases_perm_fast;   /* blocks staged in source order */
static long cases_onepass;  /* of those, transposed and zipped in one pass */
static long cases_zipsrc;   /* of those, zipped straight from an f32 source (AVX2 too) */

/* Set: fill gives f32 only ordinary values (eighths within +-250, ties
   and saturation among them), which kernels that check a group of
   values for the hard ones then take by their fast way. */
static int tame_floats;

/* Random bytes, or (for float types) a value from a list of hard ones. */
static void fill(unsigned char *p, size_t bytes, tl_data_type dt)
{
    static const float hard[] = { 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 127.5f, -128.5f, 255.5f,
                                  126.5f, 1e10f, -1e10f, 2147483520.f, 3e9f, -0.f, 0.f,
                                  65504.f, 1e-40f };
    size_t i, es = tl_dt_size(dt);
    for (i = 0; i + es <= bytes; i += es) {
        uint64_t r = tl_test_rand();
        if (dt == TL_F32 && tame_floats) {
            float f = (float)((int)((r >> 16) % 4001) - 2000) / 8.f;
            memcpy(p + i, &f, 4);
        } else if (dt == TL_F32 && r % 4 == 0) {
            float f;
            uint32_t u;
            switch ((r >> 8) % 4) {
            case 0: u = 0x7fc00000u | (uint32_t)(r >> 40 & 0xffff); memcpy(&f, &u, 4); break;
            case 1: f = (r >> 20) & 1 ? 1.f / 0.f : -1.f / 0.f; break;
            default: f = hard[(r >> 24) % (sizeof hard / sizeof hard[0])]; break;
            }
            memcpy(p + i, &f, 4);
        } else if (dt == TL_F32 && r % 4 == 1) {
            float f = (float)((int)((r >> 16) % 2001) - 1000) / 4.f;   /* ties */
            memcpy(p + i, &f, 4);
        } else if ((dt == TL_BF16 || dt == TL_F16) && r % 2 == 0) {
            float f = (float)((int)((r >> 16) % 2001) - 1000) / 4.f;
            uint16_t h = dt == TL_BF16 ? tl_f32_to_bf16(f) : tl_f32_to_f16(f);
            memcpy(p + i, &h, 2);
        } else {
            size_t k;
            for (k = 0; k < es; ++k) p[i + k] = (unsigned char)(r >> (8 * k));
        }
    }
    for (; i < bytes; ++i) p[i] = (unsigned char)tl_test_rand();
}

/* p rounded up to a multiple of 64 (p has 64 bytes to spare). */
static unsigned char *aligned64(unsigned char *p)
{
    return p ? p + (64 - (uintptr_t)p % 64) % 64 : NULL;
}

/* Runs one reorder with both engines; mis = misalignment in bytes of the
   dst buffers. src ends at an unreadable page (tl_test_fenced), so a load
   past its end crashes; its alignment is whatever that leaves (no kernel
   looks at it). Compares status and every byte of the dst buffer +
   guards. */
/* Whether the SIMD kernel for plans without tails took the plan. */
static int on_kernel(const tl_reorder_plan *p)
{
    return p->kernel == tl__simd_reorder_kernel || p->kernel == tl__simd_reorder_chunked_kernel;
}

/* Whether plan p (with tails) goes by tiles or runs that take the tails
   in their walk, on the kernel for plans without tails. */
static int takes_tails(const tl_reorder_plan *p)
{
    tl__sr_shape sh;
    tl__sr_pick_shape(p, &sh);
    return sh.tail >= 0 && p->kernel == tl__simd_reorder_kernel;
}

static void compare(const tl_memory_desc *s, const tl_memory_desc *d,
                    const tl_reorder_attr *a, int mis, const char *what)
{
    size_t sb = tl_md_size(s), db = tl_md_size(d), slen = 0;
    void *sbase = NULL;
    unsigned char *src = sb ? tl_test_fenced(sb, &sbase, &slen) : NULL;
    unsigned char *d10 = (unsigned char *)malloc(db + 2 * GUARD + 64);
    unsigned char *d20 = (unsigned char *)malloc(db + 2 * GUARD + 64);
    /* mis = 0: dst starts on a cache line (streaming 16 x 16 blocks) */
    unsigned char *d1 = aligned64(d10), *d2 = aligned64(d20);
    tl_reorder_plan plan;
    tl_status st1, st2;
    if (!src || !d10 || !d20 || sb == 0 || db == 0) {
        CHECK_MSG(sb && db, "%s: empty descriptor", what);
        tl_test_fenced_free(sbase, slen); free(d10); free(d20);
        return;
    }
    fill(src, sb, s->data_type);
    fill(d1, db + 2 * GUARD, d->data_type);
    memcpy(d2, d1, db + 2 * GUARD);
    ++cases_run;
    if (tl_reorder_plan_init(&plan, s, d, a) == TL_OK && on_kernel(&plan)) {
        tl__sr_shape sh;
        tl__sr_perm pm;
        ++cases_simd;
        tl__sr_pick_shape(&plan, &sh);
        if (tl__sr_perm_pick(&plan, &sh, &pm, 0, plan.loops[0].size)) {
            ++cases_perm;
            cases_perm_fast += pm.fast;
            {   /* the ways the kernel's call will move the blocks */
                static uint16_t off[TL__SR_PBLOCK];
                static size_t rows[TL__SR_ROWS];
                tl__sr_perm_prepare(&plan, &pm, off, rows);
                cases_onepass += pm.onepass != NULL;
                cases_zipsrc += pm.nq > 0 || pm.noct > 0 || pm.npair > 0;
            }
        }
    }
    st1 = tl_reorder(s, src, d, d1 + GUARD - mis, a);
    st2 = test_scalar_reorder(s, src, d, d2 + GUARD - mis, a);
    CHECK_MSG(st1 == st2, "%s: status %s vs scalar %s", what, tl_status_str(st1), tl_status_str(st2));
    if (memcmp(d1, d2, db + 2 * GUARD) != 0) {
        size_t i;
        for (i = 0; i < db + 2 * GUARD && d1[i] == d2[i]; ++i) {}
        CHECK_MSG(0, "%s: byte %ld from dst differs (simd %02x, scalar %02x)", what,
                  (long)i - (GUARD - mis), d1[i], d2[i]);
    }
    tl_test_fenced_free(sbase, slen); free(d10); free(d20);
}

/* An abstract tag for ndims dims in the order perm (outermost first),
   with dim bdim blocked by blk (0: plain). */
static void make_tag(char *tag, int ndims, const int *perm, int bdim, int blk)
{
    int i, k = 0;
    for (i = 0; i < ndims; ++i)
        tag[k++] = (char)((perm[i] == bdim && blk ? 'A' : 'a') + perm[i]);
    if (blk) k += sprintf(tag + k, "%d%c", blk, 'a' + bdim);
    tag[k] = '\0';
}

static void random_perm(int *perm, int n)
{
    int i;
    for (i = 0; i < n; ++i) perm[i] = i;
    for (i = n - 1; i > 0; --i) {
        int j = (int)tl_test_range(0, i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

static const tl_data_type dts[] = { TL_F32, TL_S32, TL_S8, TL_U8, TL_BF16, TL_F16 };

/* A random attr for dims; scales points into store (>= 4096 floats). */
static void random_attr(tl_reorder_attr *a, int ndims, const tl_dim *dims, float *store)
{
    tl_dim n = 1, j;
    int d;
    memset(a, 0, sizeof *a);
    a->nthreads = (int)tl_test_range(1, 3);   /* > 1 also splits loops (tl__sr_balance) */
    switch (tl_test_range(0, 5)) {
    case 0: return;                                     /* plain copy */
    case 1: a->scales = store; store[0] = 0.5f; break;  /* one scale */
    case 2: a->scales = store; store[0] = 1.f; a->beta = 0.5f; break;
    default:
        for (d = 0; d < ndims; ++d)
            if (tl_test_range(0, 2) == 0 && n * dims[d] <= 4096) { a->scale_mask |= 1 << d; n *= dims[d]; }
        for (j = 0; j < n; ++j) store[j] = (float)tl_test_range(-64, 64) / 16.f;
        a->scales = store;
        if (tl_test_range(0, 2) == 0) a->beta = (float)tl_test_range(-8, 8) / 4.f;
        if (tl_test_range(0, 3) == 0) a->src_zero_point = (int32_t)tl_test_range(-5, 5);
        if (tl_test_range(0, 3) == 0) a->dst_zero_point = (int32_t)tl_test_range(-5, 5);
        break;
    }
}

/* Random layouts, data types and attrs on small tensors. */
static void random_matrix(int count)
{
    static float scales[4096];
    int c;
    for (c = 0; c < count; ++c) {
        tl_memory_desc s, d;
        tl_dim dims[5] = {1, 1, 1, 1, 1};   /* the message prints three */
        int perm_s[5], perm_d[5], ndims = (int)tl_test_range(2, 5), i, blk_s = 0, blk_d = 0;
        int blks[] = { 4, 8, 16 };
        char ts[32], td[32], what[160];
        tl_reorder_attr a;
        for (i = 0; i < ndims; ++i) dims[i] = tl_test_range(1, ndims > 3 ? 9 : 40);
        random_perm(perm_s, ndims);
        random_perm(perm_d, ndims);
        if (tl_test_range(0, 2) == 0) blk_s = blks[tl_test_range(0, 2)];
        if (tl_test_range(0, 2) == 0) blk_d = blks[tl_test_range(0, 2)];
        if (tl_test_range(0, 1)) dims[1] = (blk_s > blk_d ? blk_s : 16) * tl_test_range(1, 3);
        make_tag(ts, ndims, perm_s, 1, blk_s);
        make_tag(td, ndims, perm_d, 1, blk_d);
        if (tl_md_init_by_tag(&s, ndims, dims, dts[tl_test_range(0, 5)], ts) ||
            tl_md_init_by_tag(&d, ndims, dims, dts[tl_test_range(0, 5)], td)) {
            CHECK_MSG(0, "tags %s %s refused", ts, td);
            continue;
        }
        if (tl_test_range(0, 4) == 0) {
            d.extra.flags = TL_MD_EXTRA_SCALE_ADJUST;
            d.extra.scale_adjust = 0.75f;
        }
        random_attr(&a, ndims, dims, scales);
        snprintf(what, sizeof what, "random %s:%s -> %s:%s dims %ldx%ldx%ld.. mask %d beta %g",
                tl_dt_name(s.data_type), ts, tl_dt_name(d.data_type), td, (long)dims[0],
                (long)dims[1], (long)dims[2], a.scale_mask, (double)a.beta);
        compare(&s, &d, &a, (int)tl_test_range(0, 3), what);
    }
}

/* Views: both sides cut out of larger parents (strided rows, offset0). */
static void views(int count)
{
    int c;
    for (c = 0; c < count; ++c) {
        tl_memory_desc ps, pd, s, d;
        tl_dim pdims[4] = { 3, 32, 7, 21 }, dims[4], off_s[4], off_d[4];
        int i;
        char what[96];
        tl_reorder_attr a;
        float scale = 0.25f;
        for (i = 0; i < 4; ++i) {
            dims[i] = tl_test_range(1, pdims[i]);
            off_s[i] = tl_test_range(0, pdims[i] - dims[i]);
            off_d[i] = tl_test_range(0, pdims[i] - dims[i]);
        }
        dims[1] = 16;
        off_s[1] = off_d[1] = 16 * tl_test_range(0, 1);
        memset(&a, 0, sizeof a);
        if (c % 2) { a.scales = &scale; a.beta = -1.f; }
        if (tl_md_init_by_tag(&ps, 4, pdims, c % 3 ? TL_F32 : TL_BF16, c % 2 ? "nchw" : "nhwc") ||
            tl_md_init_by_tag(&pd, 4, pdims, c % 4 ? TL_F32 : TL_S8, c % 2 ? "nChw16c" : "nchw") ||
            tl_md_submemory(&s, &ps, dims, off_s) || tl_md_submemory(&d, &pd, dims, off_d)) {
            CHECK_MSG(0, "view %d refused", c);
            continue;
        }
        snprintf(what, sizeof what, "view %d: %ldx%ldx%ldx%ld", c, (long)dims[0], (long)dims[1],
                (long)dims[2], (long)dims[3]);
        compare(&s, &d, &a, c % 4, what);
    }
}

/* Every length 1..64 of the vectorised dim, for the standard shapes. */
static void tail_sweep(void)
{
    static const struct { const char *st, *dt; tl_data_type sdt, ddt; int vdim, scaled; } k[] = {
        { "nchw", "nhwc", TL_F32, TL_F32, 1, 0 },     /* tile: L = c */
        { "nchw", "nhwc", TL_F32, TL_F32, 3, 0 },     /* tile: M = w */
        { "nhwc", "nchw", TL_F32, TL_F32, 3, 0 },
        { "nhwc", "nchw", TL_U8, TL_U8, 3, 0 },       /* narrow or 16x16 bytes */
        { "nhwc", "nchw", TL_U8, TL_U8, 1, 0 },
        { "nchw", "nChw16c", TL_F32, TL_F32, 3, 0 },
        { "nChw16c", "nchw", TL_F32, TL_F32, 3, 0 },
        { "nchw", "nChw16c", TL_BF16, TL_BF16, 3, 0 },
        { "nhwc", "nhwc", TL_F32, TL_S8, 3, 1 },      /* run with a scale */
        { "nhwc", "nhwc", TL_F32, TL_U8, 1, 1 },
        { "nchw", "nchw", TL_S8, TL_F32, 3, 1 },
        { "nchw", "nchw", TL_F32, TL_BF16, 3, 1 },
        { "nchw", "nchw", TL_BF16, TL_S32, 3, 1 },
        { "nchw", "nhwc", TL_F32, TL_S8, 1, 1 },      /* converting tile */
        { "nchw", "nhwc", TL_S32, TL_F32, 3, 1 },
        { "oihw", "OIhw4i16o4i", TL_F32, TL_S8, 3, 2 }, /* blocks */
        { "nchw", "nchw", TL_F32, TL_F16, 3, 1 },     /* f16: AVX2 only */
        { "nchw", "nhwc", TL_F16, TL_F32, 1, 0 },
        { "nhwc", "nChw16c", TL_F16, TL_S8, 3, 1 }
    };
    static float scales[64];
    size_t i;
    tl_dim n, j;
    for (j = 0; j < 64; ++j) scales[j] = (float)(j % 7 + 1) / 8.f;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i) {
        for (n = 1; n <= 64; ++n) {
            tl_dim dims[4] = { 2, 16, 3, 5 };
            tl_memory_desc s, d;
            tl_reorder_attr a;
            char what[128];
            long before = cases_simd;
            if (k[i].scaled == 2) dims[0] = 16;
            dims[k[i].vdim] = k[i].vdim == 1 ? 16 * ((n + 15) / 16) : n;
            if (k[i].vdim == 1 && strchr(k[i].st, '1') == NULL && strchr(k[i].dt, '1') == NULL)
                dims[1] = n;
            memset(&a, 0, sizeof a);
            a.nthreads = (int)(n % 3) + 1;
            if (k[i].scaled) {
                a.scales = scales;
                a.scale_mask = k[i].scaled == 2 ? 1 : 2;
                if (n % 3 == 0) a.beta = 0.5f;
            }
            if (tl_md_init_by_tag(&s, 4, dims, k[i].sdt, k[i].st) ||
                tl_md_init_by_tag(&d, 4, dims, k[i].ddt, k[i].dt)) {
                CHECK_MSG(0, "tail %s->%s refused", k[i].st, k[i].dt);
                continue;
            }
            snprintf(what, sizeof what, "tail %s:%s -> %s:%s n=%ld", tl_dt_name(k[i].sdt), k[i].st,
                    tl_dt_name(k[i].ddt), k[i].dt, (long)n);
            compare(&s, &d, &a, (int)(n % 4), what);
            if ((k[i].sdt != TL_F16 && k[i].ddt != TL_F16) || tl__sr_avx2())
                CHECK_MSG(cases_simd == before + 1, "%s: the SIMD kernel did not take the plan", what);
        }
    }
}

static int takes_shape(const tl_memory_desc *s, const tl_memory_desc *d, const tl_reorder_attr *a, int shape);
static int takes_lone(const tl_memory_desc *s, const tl_memory_desc *d, const tl_reorder_attr *a);
static int converts_side(const tl_memory_desc *s, const tl_memory_desc *d, const tl_reorder_attr *a);
static void weight_scales(float *scales, size_t n);
static void check_block_size(const tl_memory_desc *s, const tl_memory_desc *d, const tl_reorder_attr *a,
                             const char *what);

/* Weight layouts, whose blocks are staged in source order: converted
   run by run, then transposed and zipped (fast) or picked through a table.
   Kernels 1x1 to 7x7, O and I odd multiples of the blocks, groups, scales
   per O, common or per I (which the path refuses), zero points, beta and
   scale_adjust, several threads, views of larger parents (offset0 != 0,
   strides of the parent) on either side. Each case states the path it
   must take: 2 fast, 1 table, 0 any. */
static void weights(void)
{
    static const struct {
        tl_data_type sdt, ddt;
        const char *st, *dt;
        int oblk, iblk;
        int path, path1x1;  /* with a scale per O and beta == 0; for 1x1 */
    } k[] = {
        { TL_F32, TL_S8, "oihw", "OIhw4i16o4i", 16, 16, 2, 2 },
        { TL_F32, TL_S8, "oihw", "OIhw16i16o", 16, 16, 2, 2 },
        { TL_F32, TL_S8, "goihw", "gOIhw4i16o4i", 16, 16, 2, 2 },
        { TL_F32, TL_U8, "oihw", "OIhw16o16i", 16, 16, 2, 0 },   /* zip of 16 rows */
        { TL_F32, TL_S8, "oihw", "IOhw16o16i", 16, 16, 2, 0 },   /* 1x1: runs of 16 */
        { TL_F32, TL_BF16, "oihw", "OIhw8i16o2i", 16, 16, 2, 2 },
        /* rows of 4 and 8 bytes; 1x1: runs gathered where a step holds
           256 values or more (tl__sr_gathers_long), blocks elsewhere */
        { TL_F32, TL_S8, "oihw", "OIhw4o4i", 4, 16, 2, 0 },
        { TL_F32, TL_S8, "oihw", "OIhw2i8o4i", 8, 16, 2, 0 },
        { TL_S8, TL_S8, "oihw", "OIhw4i16o4i", 16, 16, 2, 2 },
        { TL_S8, TL_F32, "oihw", "OIhw16i16o", 16, 16, 2, 0 },   /* 1x1: a converting tile */
        { TL_BF16, TL_S8, "oihw", "OIhw4i16o4i", 16, 16, 2, 2 },
        { TL_F32, TL_S32, "oihw", "OIhw4i16o4i", 16, 16, 2, 2 },
        { TL_F32, TL_BF16, "oihw", "OIhw16o16i", 16, 16, 2, 0 },  /* 16 rows of bf16 */
        { TL_S8, TL_F32, "oihw", "OIhw8o8i", 8, 16, 2, 0 },       /* 8 rows of f32 */
        /* f32 rows copied whole: transposed straight from the source, scaled
           on the way (16 and 8 wide), or through S without T */
        { TL_F32, TL_F32, "oihw", "OIhw16i16o", 16, 16, 2, 0 },
        { TL_F32, TL_F32, "oihw", "OIhw8i8o", 8, 8, 2, 0 },
        { TL_S32, TL_F32, "oihw", "OIhw16i16o", 16, 16, 2, 0 }
    };
    static float scales[3 * 48 * 48];
    size_t i;
    int v;
    for (v = 0; v < 3 * 48 * 48; ++v) scales[v] = (float)(v % 9 + 1) / 4.f;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (v = 0; v < 8; ++v) {
            int g = k[i].st[0] == 'g', nd = 4 + g, want;
            tl_dim hw = v == 7 ? 1 : 1 + 2 * (v % 4), off[5] = { 0, 0, 0, 0, 0 };
            tl_dim dims[5], pdims[5];
            tl_memory_desc s, d, ps, pd;
            tl_reorder_attr a;
            char what[160];
            long perm = cases_perm, fast = cases_perm_fast;
            tl_dim mo, mi;
            dims[0] = 2;
            mo = tl_test_range(1, 3);
            mi = tl_test_range(1, 3);
            dims[g] = k[i].oblk * mo;
            dims[g + 1] = k[i].iblk * mi;
            dims[g + 2] = hw;
            dims[g + 3] = v == 5 ? 2 * hw : hw;
            memcpy(pdims, dims, sizeof dims);
            want = dims[g + 2] * dims[g + 3] == 1 ? k[i].path1x1 : k[i].path;
            /* blocks of more than 16 KiB (f32 5x5, bf16 7x7) are gathered */
            if (k[i].oblk * k[i].iblk * dims[g + 2] * dims[g + 3] * (tl_dim)tl_dt_size(k[i].ddt) > 16384)
                want = 0;
            memset(&a, 0, sizeof a);
            a.nthreads = v % 3 + 1;
            a.scales = scales;
            a.scale_mask = 1 << g;
            switch (v) {
            case 1:                                                      /* common */
                a.scale_mask = 0;
                /* one I block: o and i of 16o16i merge into one loop, and
                   the plan is a plain transpose (hw x oi) */
                if (mi == 1 && strstr(k[i].dt, "16o16i")) want = 0;
                break;
            case 2: a.src_zero_point = 3; a.dst_zero_point = -2; break;
            case 3: a.beta = 0.5f; break;    /* old dst through the permute backwards */
            case 4: a.scale_mask |= 1 << (g + 1); want = 0; break;       /* scales along a run */
            case 6: pdims[g] += k[i].oblk; off[g] = k[i].oblk; break;     /* views */
            case 7: pdims[g + 1] += k[i].iblk; off[g + 1] = k[i].iblk; break;
            default: break;
            }
            if (k[i].sdt == k[i].ddt && v == 1) {                         /* a plain copy */
                a.scales = NULL;
                if (tl_dt_size(k[i].sdt) == 4) want = 0;                  /* merged tiles */
            }
            if (tl_md_init_by_tag(&ps, nd, pdims, k[i].sdt, k[i].st) ||
                tl_md_init_by_tag(&pd, nd, pdims, k[i].ddt, k[i].dt) ||
                tl_md_submemory(&s, &ps, dims, off) ||
                tl_md_submemory(&d, &pd, dims, off)) {
                CHECK_MSG(0, "weights %s -> %s refused", k[i].st, k[i].dt);
                continue;
            }
            if (v == 6 && tl_md_init_by_tag(&d, nd, dims, k[i].ddt, k[i].dt)) continue;  /* src alone a view */
            if (v == 5 && tl_test_range(0, 1)) {
                d.extra.flags = TL_MD_EXTRA_SCALE_ADJUST;
                d.extra.scale_adjust = 0.5f;
            }
            snprintf(what, sizeof what, "weights %s:%s -> %s:%s %ldx%ldx%ldx%ld case %d", tl_dt_name(k[i].sdt),
                    k[i].st, tl_dt_name(k[i].ddt), k[i].dt, (long)dims[g], (long)dims[g + 1],
                    (long)dims[g + 2], (long)dims[g + 3], v);
            compare(&s, &d, &a, v % 4, what);
            /* 3x3 f32 blocks of 4o4i, 16o16i into 8 or 16 bits: AVX-512's
               quads4 (quads4_convert checks which) */
            if (takes_shape(&s, &d, &a, TL__SR_QUADS4)) want = 0;
            /* f32 into 8 and 16 bits with one scale or one per o: merged
               tiles (scaled_side_tiles checks which) */
            if (converts_side(&s, &d, &a)) want = 0;
            /* ... and 1x1 weights whose L is one block of 16 o (lone_tiles, depthwise_tiles) */
            if (takes_lone(&s, &d, &a)) want = 0;
            /* with more than one block of O or I inside a staged block the
               vector permute may give way to the table (three blocks are no
               power of two; bf16 OIhw16o16i with two O blocks) */
            if (want)
                CHECK_MSG(cases_perm == perm + 1 &&
                              (mo > 1 || mi > 1 || cases_perm_fast - fast == (want == 2)),
                          "%s: staged blocks %ld (vector permute %ld), expected path %d", what,
                          cases_perm - perm, cases_perm_fast - fast, want);
            if (v == 4) CHECK_MSG(cases_perm == perm, "%s: scales vary inside a run", what);
        }
}

/* Weights to 4i16o4i (8-bit) and 8i16o2i (16-bit), whose blocks are
   transposed and zipped in one pass (AVX-512): filters of 6 to 49 taps
   (16-bit: to 25, as blocks hold 16 KiB), runs of neighbouring groups
   16 long and shorter, copies (8-bit: 16-bit ones keep their transpose
   from the source; compared all the same) and
   conversions with every kind of arithmetic, groups, views, threads and
   a dst off the cache line. f32 -> 8 bits with 9 taps or fewer (1x1
   too) is zipped straight from the source instead (through sets of
   packed rows, never onepass's S): quads of one window and of several
   (3x3, 2x3), and OIhw16o4i's runs of 3 I blocks of 4 (108 columns:
   the packed sets' last vector partial, loaded masked). On AVX2
   machines, f32 -> 8 bits with runs
   of 8 taps or more goes straight from the source too, 8 groups at a
   time and lone ones in pairs (3x3: 1 lone tap a run, 5x5 and 7x7: 3
   and 6 octs a run), and so does 1x1, whose pairs are each one load.
   Two O blocks each: a tensor of one block is one dense source run,
   which the staged blocks split elsewhere when its taps fill a vector. */
static void onepass_blocks(void)
{
    static const struct {
        tl_data_type sdt, ddt;
        const char *st, *dt;
        tl_dim dims[5];
        int nd;
        int zipsrc;     /* f32 -> 8 bits with taps 9 or fewer: no S */
        int octs;       /* the same without AVX-512: runs of 8 taps or more */
    } k[] = {
        { TL_S8, TL_S8, "oihw", "OIhw4i16o4i", { 32, 48, 3, 3 }, 4, 0, 0 },
        { TL_U8, TL_U8, "oihw", "OIhw4i16o4i", { 32, 32, 7, 7 }, 4, 0, 0 },
        { TL_F32, TL_S8, "oihw", "OIhw4i16o4i", { 32, 32, 5, 5 }, 4, 0, 1 },
        { TL_F32, TL_S8, "oihw", "OIhw4i16o4i", { 32, 16, 7, 7 }, 4, 0, 1 },
        { TL_F32, TL_U8, "oihw", "OIhw4i16o4i", { 48, 16, 2, 3 }, 4, 1, 0 },
        { TL_F32, TL_S8, "goihw", "gOIhw4i16o4i", { 2, 16, 32, 3, 3 }, 5, 1, 1 },
        { TL_F32, TL_U8, "oihw", "OIhw4i16o4i", { 32, 48, 3, 3 }, 4, 1, 1 },
        { TL_F32, TL_S8, "oihw", "OIhw4i16o4i", { 48, 64, 1, 1 }, 4, 1, 1 },
        { TL_F32, TL_U8, "oihw", "OIhw4i16o4i", { 32, 32, 1, 1 }, 4, 1, 1 },
        { TL_F32, TL_S8, "oihw", "OIhw16o4i", { 32, 12, 3, 3 }, 4, 1, 0 },
        { TL_F32, TL_S8, "oihw", "OIhw4i16o4i", { 256, 128, 3, 3 }, 4, 1, 1 },   /* blocks of 16 KiB */
        { TL_BF16, TL_S8, "hwio", "OIhw4i16o4i", { 16, 16, 3, 3 }, 4, 0, 0 },
        { TL_S8, TL_S8, "oidhw", "OIdhw4i16o4i", { 32, 16, 2, 3, 3 }, 5, 0, 0 },
        { TL_BF16, TL_BF16, "oihw", "OIhw8i16o2i", { 32, 32, 3, 3 }, 4, 0, 0 },
        { TL_F32, TL_BF16, "oihw", "OIhw8i16o2i", { 32, 16, 5, 5 }, 4, 0, 0 },
        { TL_F32, TL_BF16, "goihw", "gOIhw8i16o2i", { 2, 16, 32, 2, 3 }, 5, 0, 0 },
        { TL_F16, TL_F16, "oihw", "OIhw8i16o2i", { 48, 16, 5, 5 }, 4, 0, 0 }
    };
    static float scales[256];   /* per O: the largest O above */
    size_t i;
    int v;
    for (v = 0; v < 256; ++v) scales[v] = (float)(v % 5 + 1) / 4.f;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (v = 0; v < 4; ++v) {
            tl_memory_desc s, d, ps;
            tl_reorder_attr a;
            tl_dim pdims[5], off[5] = { 0, 0, 0, 0, 0 };
            int copy = k[i].sdt == k[i].ddt;
            long onepass = cases_onepass, zipsrc = cases_zipsrc;
            char what[128];
            memset(&a, 0, sizeof a);
            a.nthreads = 1 + v % 2;
            if (!copy) {
                a.scales = scales;
                a.scale_mask = v == 2 ? 0 : 1 << (k[i].nd - 4);     /* common, per O */
                if (v == 3) a.src_zero_point = 2, a.dst_zero_point = -3;
            }
            memcpy(pdims, k[i].dims, sizeof pdims);
            if (v == 1) pdims[k[i].nd - 3] += 4, off[k[i].nd - 3] = 4;   /* a source view */
            if (tl_md_init_by_tag(&ps, k[i].nd, pdims, k[i].sdt, k[i].st) ||
                tl_md_submemory(&s, &ps, k[i].dims, off) ||
                tl_md_init_by_tag(&d, k[i].nd, k[i].dims, k[i].ddt, k[i].dt)) {
                CHECK(!"onepass_blocks: tags refused");
                continue;
            }
            if (v == 2 && !copy) {
                d.extra.flags = TL_MD_EXTRA_SCALE_ADJUST;
                d.extra.scale_adjust = 0.5f;
            }
            snprintf(what, sizeof what, "onepass %s:%s -> %s:%s case %d", tl_dt_name(k[i].sdt), k[i].st,
                    tl_dt_name(k[i].ddt), k[i].dt, v);
            compare(&s, &d, &a, v % 2 ? 3 : 0, what);
            if (tl__sr_avx512() && (k[i].sdt == TL_F32 || (copy && tl_dt_size(k[i].sdt) == 1)) &&
                k[i].dims[k[i].nd - 1] * k[i].dims[k[i].nd - 2] > 1 && !k[i].zipsrc)
                CHECK_MSG(cases_onepass == onepass + 1, "%s: not zipped in one pass", what);
            if (tl__sr_avx2()) {
                int want = tl__sr_avx512() ? k[i].zipsrc : k[i].octs;
                CHECK_MSG(cases_zipsrc == zipsrc + want, "%s: %s from the source", what,
                          want ? "not zipped" : "zipped");
            }
            if (k[i].zipsrc) check_block_size(&s, &d, &a, what);
        }
}

/* The staged block that the kernel would take in one call for an f32 ->
   8-bit plan s -> d whose groups come from the source (3x3 kernels and
   smaller): at most a sixteenth of a small plan (under 16 blocks of
   TL__SR_PBLOCK values), down to a quarter of TL__SR_PBLOCK, else more
   than that quarter. */
static void check_block_size(const tl_memory_desc *s, const tl_memory_desc *d, const tl_reorder_attr *a,
                             const char *what)
{
    tl_reorder_plan plan;
    tl__sr_shape sh;
    tl__sr_perm pm;
    tl_dim values, quarter = TL__SR_PBLOCK / 4;
    if (tl_reorder_plan_init(&plan, s, d, a) != TL_OK || !on_kernel(&plan)) return;
    tl__sr_pick_shape(&plan, &sh);
    if (!tl__sr_perm_pick(&plan, &sh, &pm, 0, plan.loops[0].size)) return;
    values = pm.nR * pm.nX * pm.nC;
    if (plan.nelems / 16 < TL__SR_PBLOCK)
        CHECK_MSG(values <= (plan.nelems / 16 > quarter ? plan.nelems / 16 : quarter),
                  "%s: a block of %ld values (%ld in all)", what, (long)values, (long)plan.nelems);
    else
        CHECK_MSG(values > quarter && values <= TL__SR_PBLOCK, "%s: a block of %ld values (%ld in all)", what,
                  (long)values, (long)plan.nelems);
}

/* Short outer loops with several threads: the plan's loops are split so
   that threads can share them (3 channels of a frame, nhwc -> nchw). */
static void balanced(void)
{
    static const char *const tags[][2] = { { "nhwc", "nchw" }, { "nchw", "nhwc" }, { "nhwc", "nhwc" } };
    int t, nt;
    for (t = 0; t < 3; ++t)
        for (nt = 2; nt <= 4; nt *= 2) {
            tl_dim dims[4] = { 1, 3, 64, 128 };
            tl_memory_desc s, d;
            tl_reorder_plan plan;
            tl_reorder_attr a;
            char what[96];
            memset(&a, 0, sizeof a);
            a.nthreads = nt;
            if (tl_md_init_by_tag(&s, 4, dims, TL_U8, tags[t][0]) ||
                tl_md_init_by_tag(&d, 4, dims, t == 2 ? TL_F32 : TL_U8, tags[t][1])) {
                CHECK(!"balanced: tags refused");
                continue;
            }
            snprintf(what, sizeof what, "balanced %s -> %s, %d threads", tags[t][0], tags[t][1], nt);
            CHECK(tl_reorder_plan_init(&plan, &s, &d, &a) == TL_OK);
            CHECK_MSG(plan.loops[0].size >= 8 * nt, "%s: loops[0] has %ld iterations", what,
                      (long)plan.loops[0].size);
            compare(&s, &d, &a, nt % 2, what);
        }
}

/* Threads cut loops[0] anywhere. Where blocks staged in source order
   take loops[0] (24 channels of a frame, converted), the kernel cuts
   each range again at the blocks' chunks. The ranges that 2 to 4
   threads get, together, against the scalar engine; then odd ranges
   alone, each of which must write its own pixels and nothing else
   (threads write side by side). */
static void chunked(void)
{
    static const tl_data_type t[] = { TL_BF16, TL_S8, TL_F16 };
    static const tl_dim cut[][2] = { { 0, 1 }, { 1, 7 }, { 7, 300 }, { 300, 9001 },
                                     { 9001, 17000 }, { 17000, 23995 }, { 23990, 24000 } };
    size_t i;
    int nt;
    for (i = 0; i < sizeof t / sizeof t[0]; ++i)
        for (nt = 1; nt <= 4; ++nt) {
            tl_dim dims[4] = { 1, 24, 120, 200 }, n0, j;
            tl_memory_desc s, d;
            tl_reorder_plan plan;
            tl_reorder_attr a;
            size_t sb, db, px;
            unsigned char *src, *d1, *d2, *d3;
            char what[96];
            memset(&a, 0, sizeof a);
            a.nthreads = nt > 1 ? nt : 2;
            if (tl_md_init_by_tag(&s, 4, dims, TL_F32, "nchw") ||
                tl_md_init_by_tag(&d, 4, dims, t[i], "nhwc") ||
                tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK) {
                CHECK(!"chunked: plan refused");
                continue;
            }
            if (nt > 1) snprintf(what, sizeof what, "chunked f32 -> %s, %d threads", tl_dt_name(t[i]), nt);
            else snprintf(what, sizeof what, "chunked f32 -> %s, odd ranges", tl_dt_name(t[i]));
            CHECK_MSG(t[i] != TL_BF16 || plan.kernel == tl__simd_reorder_chunked_kernel,
                      "%s: not on the chunked kernel", what);
            /* loops[0] runs over pixels, each a dense dst row */
            px = (size_t)plan.loops[0].dst_stride * tl_dt_size(t[i]);
            CHECK_MSG(px * (size_t)plan.loops[0].size == tl_md_size(&d), "%s: loops[0] is not the pixels",
                      what);
            sb = tl_md_size(&s);
            db = tl_md_size(&d);
            src = (unsigned char *)malloc(sb);
            d1 = (unsigned char *)malloc(db + 2 * GUARD);
            d2 = (unsigned char *)malloc(db + 2 * GUARD);
            d3 = (unsigned char *)malloc(db + 2 * GUARD);
            if (!src || !d1 || !d2 || !d3) {
                CHECK(!"chunked: out of memory");
                free(src); free(d1); free(d2); free(d3);
                return;
            }
            fill(src, sb, TL_F32);
            fill(d1, db + 2 * GUARD, t[i]);
            memcpy(d2, d1, db + 2 * GUARD);
            memcpy(d3, d1, db + 2 * GUARD);
            CHECK(test_scalar_reorder(&s, src, &d, d2 + GUARD, &a) == TL_OK);
            n0 = plan.loops[0].size;
            if (nt > 1) {   /* as tl__reorder_run cuts loops[0] */
                for (j = 0; j < nt; ++j) {
                    tl_dim q = n0 / nt, r = n0 % nt, b = q * j + (j < r ? j : r);
                    plan.kernel(&plan, src, d1 + GUARD, b, b + q + (j < r ? 1 : 0));
                }
                CHECK_MSG(memcmp(d1, d2, db + 2 * GUARD) == 0, "%s: differs from the scalar engine",
                          what);
            } else {
                for (j = 0; j < (tl_dim)(sizeof cut / sizeof cut[0]); ++j) {
                    size_t lo = GUARD + (size_t)cut[j][0] * px, hi = GUARD + (size_t)cut[j][1] * px;
                    memcpy(d1, d3, db + 2 * GUARD);
                    plan.kernel(&plan, src, d1 + GUARD, cut[j][0], cut[j][1]);
                    CHECK_MSG(memcmp(d1, d3, lo) == 0 && memcmp(d1 + lo, d2 + lo, hi - lo) == 0 &&
                              memcmp(d1 + hi, d3 + hi, db + 2 * GUARD - hi) == 0,
                              "%s: pixels %ld..%ld: not those pixels' values alone", what,
                              (long)cut[j][0], (long)cut[j][1]);
                }
            }
            free(src); free(d1); free(d2); free(d3);
        }
}

/* The shape the SIMD kernel takes for the plan s -> d in *sh; 0 when
   the kernel does not take the plan at all. */
static int plan_shape(const tl_memory_desc *s, const tl_memory_desc *d,
                      const tl_reorder_attr *a, tl__sr_shape *sh)
{
    tl_reorder_plan plan;
    if (tl_reorder_plan_init(&plan, s, d, a) != TL_OK || !on_kernel(&plan))
        return 0;
    tl__sr_pick_shape(&plan, sh);
    return 1;
}

/* Whether the SIMD kernel takes the plan s -> d in the given shape. */
static int takes_shape(const tl_memory_desc *s, const tl_memory_desc *d,
                       const tl_reorder_attr *a, int shape)
{
    tl__sr_shape sh;
    return plan_shape(s, d, a, &sh) && sh.shape == shape;
}

/* Whether the SIMD kernel takes the plan s -> d as lone converting
   tiles: AVX-512's (tl__sr_lone_fits), or a run of them a step, which
   AVX2 transposes straight into dst (tl__sr_direct_walks). */
static int takes_lone(const tl_memory_desc *s, const tl_memory_desc *d, const tl_reorder_attr *a)
{
    tl__sr_shape sh;
    return plan_shape(s, d, a, &sh) && sh.shape == TL__SR_TILE_CONVERT && (sh.lone || sh.next >= 0);
}

/* An image in two layouts: planes (nchw) and pixels (nhwc) that are a
   view of pad more channels, from channel `at` (gaps between pixels
   when pad > 0). 0 on success. */
static int image_mds(tl_data_type dt, const tl_dim *dims, tl_dim pad, tl_dim at,
                     tl_memory_desc *planes, tl_memory_desc *pixels)
{
    tl_dim pdims[4], off[4] = { 0, 0, 0, 0 };
    tl_memory_desc parent;
    memcpy(pdims, dims, sizeof pdims);
    pdims[1] += pad;
    off[1] = at;
    return tl_md_init_by_tag(planes, 4, dims, dt, "nchw") ||
           tl_md_init_by_tag(&parent, 4, pdims, dt, "nhwc") ||
           tl_md_submemory(pixels, &parent, dims, off);
}

/* A few channels into channel blocks (a network's input image into
   nChw16c), copied or converted (some scaled, some with a scale a
   channel or a zero point, each channel count some without): the data
   and the padding of each pixel's block are written in one pass where
   the block is 4 bytes or more (tl__sr_pads_fused; conversions through
   the stage's widening or, into s8, u8 and bf16, tl__sr8_pixels);
   every width leaves a different number of pixels after the last
   4-pixel block, and the padding is compared with the rest of dst.
   Rows of 8 to 32 pixels too, whose 8-bit -> f32 tiles the byte and
   direct tiles would take (they wrote no padding: u8 -> f32 nChw4c
   with 3 channels and 8 pixels left channel 3 as it was). */
static void padded_images(void)
{
    static const char *tags[4] = { "nChw16c", "nChw8c", "nChw4c", "nChw32c" };
    static const tl_data_type t[][2] = { { TL_F32, TL_F32 }, { TL_BF16, TL_BF16 }, { TL_U8, TL_U8 },
                                         { TL_S8, TL_S8 }, { TL_F32, TL_S8 }, { TL_F32, TL_U8 },
                                         { TL_F32, TL_BF16 }, { TL_U8, TL_F32 }, { TL_BF16, TL_F32 },
                                         { TL_U8, TL_S8 }, { TL_S8, TL_U8 } };
    static const float two = 2.f, per_c[9] = { 2.f, 0.5f, 3.f, -1.f, 4.f, 0.25f, 1.5f, -2.f, 8.f };
    int c, w, k, row;
    size_t j;
    for (row = 0; row < 2; ++row)
    for (k = 0; k < 4; ++k)
        for (j = 0; j < sizeof t / sizeof t[0]; ++j)
            for (c = 1; c <= 9; ++c)
                for (w = row ? 8 : 1; w <= (row ? 32 : 23); w += row ? 8 : 2) {
                    tl_dim dims[4] = { 1, 0, 0, 0 };
                    dims[2] = row ? 1 : 3;
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    char what[96];
                    dims[0] = w % 4 == 1 ? 2 : 1;
                    dims[1] = c;
                    dims[3] = w;
                    memset(&a, 0, sizeof a);
                    a.nthreads = w % 3 == 0 ? 2 : 1;
                    /* widths 7, 15 and 23 of every channel count unscaled */
                    if (t[j][0] != t[j][1] && c % 2 == 0 && w % 8 != 7) a.scales = &two;
                    if (t[j][0] != t[j][1] && c % 4 == 3 && w % 8 != 7) {    /* one scale a channel */
                        a.scales = per_c;
                        a.scale_mask = 2;
                    }
                    if (t[j][0] != t[j][1] && (c + w) % 3 == 0) a.dst_zero_point = 3;
                    CHECK_EQ(tl_md_init_by_tag(&s, 4, dims, t[j][0], "nchw"), TL_OK);
                    CHECK_EQ(tl_md_init_by_tag(&d, 4, dims, t[j][1], tags[k]), TL_OK);
                    snprintf(what, sizeof what, "padded image %s -> %s %s c=%d h=%ld w=%d%s%s",
                             tl_dt_name(t[j][0]), tl_dt_name(t[j][1]), tags[k], c, (long)dims[2], w,
                             a.scales ? " scaled" : "", a.dst_zero_point ? " zero point" : "");
                    compare(&s, &d, &a, (c + w) % 4, what);
                }
}

/* Whether the SIMD kernel takes s -> d as merged tiles, a step walking
   a run of them along another loop (the input blocks of OIhw16i16o). */
static int walks_merged(const tl_memory_desc *s, const tl_memory_desc *d, const tl_reorder_attr *a)
{
    tl__sr_shape sh;
    return plan_shape(s, d, a, &sh) && sh.shape == TL__SR_TILE_ROWS && sh.K2 >= 0;
}

/* Weights to blocked layouts with small filters: with AVX2, the taps and
   the input channels of a block become one tile with a table of dst rows
   (TL__SR_TILE_ROWS); every filter size, 2-D to 3-D, groups, odd I.
   2-byte ones (bf16, f16) merge with AVX-512 only, where dst rows are
   16 values or more in 16s (OIhw16i16o, not OIhw8i8o). Of 48 inputs,
   each step must walk the 3 input blocks' tiles (6 of 8i8o);
   conversions of those take scales per O and per I too. */
static void merged_tiles(void)
{
    static const struct { const char *st, *dt; int nd; } k[] = {
        { "oihw", "OIhw16i16o", 4 }, { "oihw", "OIhw8i8o", 4 }, { "oidhw", "OIdhw16i16o", 5 },
        { "goihw", "gOIhw16i16o", 5 }, { "oihw", "OIhw16o16i", 4 }, { "ihwo", "OIhw16i16o", 4 }
    };
    static const tl_data_type dts[][2] = { { TL_F32, TL_F32 }, { TL_BF16, TL_BF16 }, { TL_F16, TL_F16 },
                                           { TL_F32, TL_BF16 }, { TL_F32, TL_S8 }, { TL_F32, TL_U8 } };
    static float scales[64];
    size_t i, t;
    int f, m, merged = 0, quads = 0, merged2 = 0, mergedc = 0, walked = 0;
    weight_scales(scales, sizeof scales / sizeof scales[0]);
    for (t = 0; t < sizeof dts / sizeof dts[0]; ++t)
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (f = 1; f <= 8; ++f) {
            tl_dim dims[5];
            tl_memory_desc s, d;
            char what[96];
            int g = strchr(k[i].st, 'g') != NULL, n = 0;
            if (g) dims[n++] = 2;
            dims[n++] = 32;
            dims[n++] = f % 2 ? 16 : 48;
            for (; n < k[i].nd; ++n) dims[n] = n % 2 ? f : (f + 1) / 2;
            if (tl_md_init_by_tag(&s, k[i].nd, dims, dts[t][0], k[i].st) ||
                tl_md_init_by_tag(&d, k[i].nd, dims, dts[t][1], k[i].dt)) {
                CHECK_MSG(0, "merged %s -> %s refused", k[i].st, k[i].dt);
                continue;
            }
            snprintf(what, sizeof what, "merged %s %s -> %s %s taps %d", tl_dt_name(dts[t][0]), k[i].st,
                     tl_dt_name(dts[t][1]), k[i].dt, f);
            compare(&s, &d, NULL, f % 4, what);
            if (f % 2 == 0 && takes_shape(&s, &d, NULL, TL__SR_TILE_ROWS)) {
                CHECK_MSG(walks_merged(&s, &d, NULL), "%s: a step took one merged tile", what);
                ++walked;
            }
            if (dts[t][0] != dts[t][1]) {
                mergedc += takes_shape(&s, &d, NULL, TL__SR_TILE_ROWS);
                for (m = 1; m <= 2 && f % 2 == 0; ++m) {
                    tl_reorder_attr a;
                    char scaled[128];
                    memset(&a, 0, sizeof a);
                    a.scales = scales;
                    a.scale_mask = m << g;
                    a.nthreads = m;
                    snprintf(scaled, sizeof scaled, "%s, scales per %s", what, m == 1 ? "o" : "i");
                    compare(&s, &d, &a, f % 4, scaled);
                }
                continue;
            }
            if (dts[t][0] != TL_F32) {
                merged2 += takes_shape(&s, &d, NULL, TL__SR_TILE_ROWS);
                continue;
            }
            merged += takes_shape(&s, &d, NULL, TL__SR_TILE_ROWS);
            quads += takes_shape(&s, &d, NULL, TL__SR_QUADS4);
        }
    /* AVX2 without AVX-512 copies 8i8o and 16o16i of 4 taps or more by quads4 */
    if (tl__sr_avx2()) CHECK_MSG(merged + quads >= 20, "only %d plans took merged tiles, %d quads4", merged, quads);
    printf("merged tiles: %d f32 plans, %d of 2-byte values, %d converted, %d walked\n", merged, merged2, mergedc,
           walked);
    if (tl__sr_avx2()) CHECK_MSG(walked >= 4, "only %d plans walked their merged tiles", walked);
    if (tl__sr_avx512()) CHECK_MSG(merged2 >= 30, "only %d 2-byte plans took merged tiles", merged2);
    else CHECK_MSG(merged2 == 0, "%d 2-byte plans took merged tiles without AVX-512", merged2);
    if (tl__sr_avx512()) CHECK_MSG(mergedc >= 45, "only %d converting plans took merged tiles", mergedc);
    else CHECK_MSG(mergedc == 0, "%d converting plans took merged tiles without AVX-512", mergedc);
}

/* The same over loops[0] for bf16, with AVX-512 only where the taps'
   tiles would not go side by side (O of 256: one tile of 64 inputs,
   three of 86, 86 and 84 for 256), not with O of 64 or 32. */
static void merged_tiles_chunked2(void)
{
    static const tl_dim dims[][4] = { { 256, 64, 3, 3 }, { 256, 256, 3, 3 }, { 64, 64, 3, 3 }, { 32, 256, 3, 3 } };
    size_t c;
    for (c = 0; c < sizeof dims / sizeof dims[0]; ++c) {
        tl_memory_desc s, d;
        tl_reorder_attr a;
        tl__sr_shape sh;
        char what[96];
        int rows;
        memset(&a, 0, sizeof a);
        a.nthreads = 1;
        if (tl_md_init_by_tag(&s, 4, dims[c], TL_BF16, "oihw") || tl_md_init_by_tag(&d, 4, dims[c], TL_BF16, "hwio")) {
            CHECK_MSG(0, "bf16 chunked merge refused");
            continue;
        }
        snprintf(what, sizeof what, "merged chunks bf16 oihw -> hwio %ldx%ldx3x3", (long)dims[c][0], (long)dims[c][1]);
        compare(&s, &d, &a, (int)c, what);
        rows = plan_shape(&s, &d, &a, &sh) && sh.shape == TL__SR_TILE_ROWS;
        CHECK_MSG(rows == (tl__sr_avx512() && dims[c][0] == 256), "%s: merged %d", what, rows);
        if (rows) CHECK_MSG(sh.M == 0 && sh.chunk == (dims[c][1] == 64 ? 64 : 86), "%s: chunk %ld", what, (long)sh.chunk);
    }
}

/* Merged tiles past TL__SR_ROWS rows and over loops[0]: oihw -> hwio,
   the taps M (loops[0]) and the inputs K one tile, K cut into equal
   chunks where more than TL__SR_ROWS / taps (I of 120 over 9 taps: two
   of 60; 256: 86, 86 and a last of 84; 50 over 25 taps: two of 25), L
   the outputs in 16s; L not in 16s (40 outputs) or of 16 keeps the
   tiles of the taps alone. With two threads the plan cuts I into blocks for them,
   which merge as merged_tiles' do (compared, shape not asserted); with
   per-O scales (t 3: two threads) too, and outputs of 128, whose taps'
   tiles lie not side by side: once I is cut, f32 into f32 scaled along
   L merges with M past loops[0] (tl__sr_merge_kernel). */
static void merged_tiles_chunked(void)
{
    static const tl_dim O[] = { 32, 48, 40, 16 }, I[] = { 120, 256, 50, 16 };
    static const int F[] = { 3, 5, 2 };
    static float scales[128];
    size_t o, i, f;
    int t, merged = 0, scaled = 0;
    for (o = 0; o < 128; ++o) scales[o] = 0.25f * (float)(o % 7 + 1);
    for (o = 0; o < sizeof O / sizeof O[0]; ++o)
        for (i = 0; i < sizeof I / sizeof I[0]; ++i)
            for (f = 0; f < sizeof F / sizeof F[0]; ++f)
                for (t = 1; t <= 3; ++t) {
                    tl_dim dims[4], taps = (tl_dim)F[f] * F[f];
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    tl__sr_shape sh;
                    char what[96];
                    int rows;
                    tl_dim tiles;
                    dims[0] = O[o];
                    dims[1] = I[i];
                    dims[2] = dims[3] = F[f];
                    memset(&a, 0, sizeof a);
                    a.nthreads = t == 3 ? 2 : t;
                    if (t == 3) {
                        a.scales = scales;
                        a.scale_mask = 1;
                    }
                    if (tl_md_init_by_tag(&s, 4, dims, TL_F32, "oihw") ||
                        tl_md_init_by_tag(&d, 4, dims, TL_F32, "hwio")) {
                        CHECK_MSG(0, "chunked merge refused");
                        continue;
                    }
                    snprintf(what, sizeof what, "merged chunks oihw -> hwio %ldx%ldx%dx%d thr %d%s", (long)O[o],
                             (long)I[i], F[f], F[f], t == 3 ? 2 : t, t == 3 ? " per-O scales" : "");
                    compare(&s, &d, &a, (int)(i + f) % 4, what);
                    rows = plan_shape(&s, &d, &a, &sh) && sh.shape == TL__SR_TILE_ROWS;
                    tiles = (I[i] + TL__SR_ROWS / taps - 1) / (TL__SR_ROWS / taps);
                    if (tl__sr_avx2() && t == 1) {      /* two threads: the plan cuts I for them */
                        CHECK_MSG(rows == (O[o] % 16 == 0 && O[o] >= 32), "%s: merged %d", what, rows);
                        if (rows) CHECK_MSG(sh.M == 0 && sh.chunk * taps <= TL__SR_ROWS &&
                                            (I[i] + sh.chunk - 1) / sh.chunk == tiles,
                                            "%s: chunk %ld", what, (long)sh.chunk);
                    }
                    merged += rows && t == 1 && tiles > 1;
                    scaled += rows && t == 3 && sh.M != 0;
                }
    for (i = 0; i < 3; ++i) {      /* outputs of 128: tiles not side by side (K2 -1), cut I merges */
        tl_dim dims[4] = { 128, 64 * (tl_dim)i + 128, 3, 3 };
        tl_memory_desc s, d;
        tl_reorder_attr a;
        tl__sr_shape sh;
        char what[96];
        memset(&a, 0, sizeof a);
        a.nthreads = 2;
        a.scales = scales;
        a.scale_mask = 1;
        if (tl_md_init_by_tag(&s, 4, dims, TL_F32, "oihw") || tl_md_init_by_tag(&d, 4, dims, TL_F32, "hwio")) {
            CHECK_MSG(0, "chunked merge refused");
            continue;
        }
        snprintf(what, sizeof what, "merged chunks oihw -> hwio %ldx%ldx%ldx%ld thr 2 per-O scales", (long)dims[0],
                 (long)dims[1], (long)dims[2], (long)dims[3]);
        compare(&s, &d, &a, (int)i * 4, what);
        scaled += plan_shape(&s, &d, &a, &sh) && sh.shape == TL__SR_TILE_ROWS && sh.M != 0;
    }
    printf("merged chunks: %d plans in more than one tile, %d scaled past loops[0]\n", merged, scaled);
    if (tl__sr_avx2()) CHECK_MSG(merged >= 10, "only %d plans merged in chunks", merged);
    if (tl__sr_avx512()) CHECK_MSG(scaled == 3, "only %d scaled plans merged past loops[0]", scaled);
    merged_tiles_chunked2();
}

/* Copies of 4-byte weights blocked B x B over the taps of a kernel
   (TL__SR_QUADS4 in AVX2's form, tl__sr_q4_wide): oihw -> OIhw4i4o,
   OIhw4o4i, OIhw8i8o, OIhw8o8i, OIhw16o16i, with groups too, every
   kernel of 1x1 to 3x4 (taps 1 to 12, taken from 4 on, OIhw16i16o too:
   its source is "far" past TL__SR_STREAM_MIN, 1 KiB here; blocks of 16
   over more than 9 taps not with AVX-512), f32 and s32, O of one block
   (no loop of blocks inside a step), two or two and 3 (a tail: boxes,
   whose partial blocks are not taken), dst on cache lines (streamed:
   TL__SR_STREAM_MIN is 1 KiB here) or not, one or two threads;
   compare's source ends at an unreadable page. */
static void quads4(void)
{
    static const struct { const char *st, *dt; int nd, B; } k[] = {
        { "oihw", "OIhw4i4o", 4, 4 }, { "oihw", "OIhw4o4i", 4, 4 }, { "goihw", "gOIhw4i4o", 5, 4 },
        { "goihw", "gOIhw4o4i", 5, 4 }, { "oihw", "OIhw8i8o", 4, 8 }, { "oihw", "OIhw8o8i", 4, 8 },
        { "goihw", "gOIhw8i8o", 5, 8 }, { "oihw", "OIhw16o16i", 4, 16 }, { "oihw", "OIhw16i16o", 4, 16 }
    };
    size_t i;
    int o, kh, kw, taken = 0;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (o = 0; o < 3; ++o)
            for (kh = 1; kh <= 3; ++kh)
                for (kw = 1; kw <= 4; ++kw) {
                    tl_dim dims[5];
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    tl_data_type t = (kh + kw) % 2 ? TL_S32 : TL_F32;
                    char what[96];
                    int n = 0, got, want;
                    if (k[i].st[0] == 'g') dims[n++] = 2;
                    dims[n++] = k[i].B * (o + 1) + (o == 2 ? 3 - k[i].B : 0);
                    dims[n++] = k[i].B * (kw % 3 + 2);      /* I of one block merges OIhw4o4i's o and i */
                    dims[n++] = kh;
                    dims[n++] = kw;
                    memset(&a, 0, sizeof a);
                    a.nthreads = kh * kw % 3 == 0 ? 2 : 1;
                    if (tl_md_init_by_tag(&s, k[i].nd, dims, t, k[i].st) ||
                        tl_md_init_by_tag(&d, k[i].nd, dims, t, k[i].dt)) {
                        CHECK_MSG(0, "quads4 %s -> %s refused", k[i].st, k[i].dt);
                        continue;
                    }
                    snprintf(what, sizeof what, "quads4 %s %s -> %s O %ld %dx%d", tl_dt_name(t), k[i].st,
                             k[i].dt, (long)dims[n - 4], kh, kw);
                    compare(&s, &d, &a, (kh + kw + o) % 2 * 4, what);
                    if (o == 2) continue;       /* boxes: checked above */
                    got = takes_shape(&s, &d, NULL, TL__SR_QUADS4);
                    want = tl__sr_avx2() && kh * kw >= 4 && (kh * kw <= 9 || k[i].B < 16 || !tl__sr_avx512());
                    CHECK_MSG(got == want, "%s: quads4 %d, expected %d", what, got, want);
                    taken += got;
                }
    if (tl__sr_avx2())
        CHECK_MSG(taken == (tl__sr_avx512() ? 122 : 126), "%d plans took quads4, expected %d", taken,
                  tl__sr_avx512() ? 122 : 126);
    for (o = 0; o < 4; ++o) {       /* the blocks' loop is loops[0], which two threads share */
        static const tl_dim gdims[2][5] = { { 32, 8, 8, 3, 3 }, { 64, 8, 3, 3, 0 } };
        tl_memory_desc s, d;
        tl_reorder_attr a;
        tl__sr_shape sh;
        char what[96];
        int g = o < 2, nd = g ? 5 : 4;
        const char *dt = o % 2 ? "OIhw4i4o" : "OIhw4o4i";
        char gdt[16];
        snprintf(gdt, sizeof gdt, "%s%s", g ? "g" : "", dt);
        memset(&a, 0, sizeof a);
        memset(&sh, 0, sizeof sh);
        a.nthreads = 2;
        if (tl_md_init_by_tag(&s, nd, gdims[!g], TL_F32, g ? "goihw" : "oihw") ||
            tl_md_init_by_tag(&d, nd, gdims[!g], TL_F32, gdt)) {
            CHECK_MSG(0, "quads4 %s refused", gdt);
            continue;
        }
        snprintf(what, sizeof what, "quads4 %s, blocks along loops[0]", gdt);
        compare(&s, &d, &a, 0, what);
        if (tl__sr_avx2())
            CHECK_MSG(plan_shape(&s, &d, NULL, &sh) && sh.shape == TL__SR_QUADS4 && sh.K2 == 0,
                      "%s: shape %d, K2 %d", what, sh.shape, sh.K2);
    }
    for (i = 0; i < sizeof k / sizeof k[0]; ++i) {     /* 3x3 from a view: rows further apart */
        tl_dim dims[5], pdims[5], off[5] = { 0, 0, 0, 0, 0 };
        tl_memory_desc ps, s, d;
        char what[96];
        int n = k[i].st[0] == 'g', j;
        if (n) dims[0] = 2;
        dims[n] = 2 * k[i].B;
        dims[n + 1] = 2 * k[i].B;
        dims[n + 2] = dims[n + 3] = 3;
        for (j = 0; j < k[i].nd; ++j) pdims[j] = dims[j] + (j == n ? 3 : j == n + 1 ? 5 : 0);
        off[n] = 1;
        off[n + 1] = 2;
        if (tl_md_init_by_tag(&ps, k[i].nd, pdims, TL_F32, k[i].st) || tl_md_submemory(&s, &ps, dims, off) ||
            tl_md_init_by_tag(&d, k[i].nd, dims, TL_F32, k[i].dt)) {
            CHECK_MSG(0, "quads4 view %s -> %s refused", k[i].st, k[i].dt);
            continue;
        }
        snprintf(what, sizeof what, "quads4 view %s -> %s", k[i].st, k[i].dt);
        compare(&s, &d, NULL, 0, what);
        CHECK_MSG(takes_shape(&s, &d, NULL, TL__SR_QUADS4) == tl__sr_avx2(), "%s: quads4 not as expected", what);
    }
}

/* Kernels for quads4_convert and quads4_words: taps 1 to 9, the last
   group of 4 holding 1 to 4 of them. */
static const int khw[9][2] = { { 1, 1 }, { 2, 2 }, { 1, 5 }, { 2, 3 }, { 3, 2 }, { 1, 7 }, { 2, 4 }, { 3, 3 },
                               { 1, 3 } };

/* Scales for the weights tests: positive, 7 of them in turn. */
static void weight_scales(float *scales, size_t n)
{
    size_t e;
    for (e = 0; e < n; ++e) scales[e] = 0.25f + 0.375f * (float)(e % 7);
}

/* Weights converted from f32 as AVX-512's quads4 copies them
   (tl__sr_quads4_converts): the layouts above into s8, u8, bf16 and
   scaled f32, with no scale, one, one per o (fixed along the inputs'
   blocks, which a step walks), one per i (the step walks the outputs'
   blocks or one block), zero points (into s8 with a scale_adjust), and
   beta (which reads dst: never taken); kernels of 1 to 9 taps (taken
   from 4; the last group of 4 holds 1 to 4), O of one to three blocks,
   I of two or three, one or two threads. The random source holds NaN,
   infinities and values past every 8-bit range. */
static void quads4_convert(void)
{
    static const struct { const char *st, *dt; int nd, B; } k[] = {
        { "oihw", "OIhw4i4o", 4, 4 }, { "oihw", "OIhw4o4i", 4, 4 }, { "goihw", "gOIhw4i4o", 5, 4 },
        { "oihw", "OIhw8i8o", 4, 8 }, { "oihw", "OIhw8o8i", 4, 8 }, { "oihw", "OIhw16o16i", 4, 16 }
    };
    static const tl_data_type dts[4] = { TL_S8, TL_U8, TL_BF16, TL_F32 };
    static float scales[3 * 16 * 2];
    size_t i;
    int u, j, taken = 0;
    weight_scales(scales, sizeof scales / sizeof scales[0]);
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (u = 0; u < 20; ++u)
            for (j = 0; j < 9; ++j) {
                int kh = khw[j][0], kw = khw[j][1];
                tl_dim dims[5];
                tl_memory_desc s, d;
                tl_reorder_attr a;
                tl_data_type t = dts[u % 4];
                int attr = u / 4, g = k[i].st[0] == 'g', n = 0, got, want;
                char what[128];
                if (g) dims[n++] = 2;
                dims[n++] = k[i].B * (1 + (u + kh) % 3);
                dims[n++] = k[i].B * (2 + (u + kw) % 2);     /* one block would merge 4o4i's o and i */
                dims[n++] = kh;
                dims[n++] = kw;
                memset(&a, 0, sizeof a);
                a.nthreads = 1 + (kh + kw + u) % 2;
                if (attr == 1) a.scales = scales;                       /* one */
                if (attr == 2 || attr == 3) {                           /* per o; per i */
                    a.scales = scales;
                    a.scale_mask = 1 << (g + (attr == 3));
                }
                if (attr == 4 && t == TL_F32) a.beta = 0.5f;
                else if (attr == 4) { a.src_zero_point = 3; a.dst_zero_point = -5; a.scales = scales; }
                if (t == TL_F32 && !a.scales && a.beta == 0) a.scales = scales;    /* else a copy */
                if (tl_md_init_by_tag(&s, k[i].nd, dims, TL_F32, k[i].st) ||
                    tl_md_init_by_tag(&d, k[i].nd, dims, t, k[i].dt)) {
                    CHECK_MSG(0, "quads4 convert %s -> %s refused", k[i].st, k[i].dt);
                    continue;
                }
                if (attr == 4 && t == TL_S8) {          /* and the dst's own scale */
                    d.extra.flags = TL_MD_EXTRA_SCALE_ADJUST;
                    d.extra.scale_adjust = 0.5f;
                }
                snprintf(what, sizeof what, "quads4 convert f32 -> %s %s -> %s %ldx%ld %dx%d attr %d",
                         tl_dt_name(t), k[i].st, k[i].dt, (long)dims[g], (long)dims[g + 1], kh, kw, attr);
                compare(&s, &d, &a, (kh + u) % 2 * 4, what);
                got = takes_shape(&s, &d, &a, TL__SR_QUADS4);
                want = tl__sr_avx512() && kh * kw >= 4 && a.beta == 0;
                CHECK_MSG(got == want, "%s: quads4 %d, expected %d", what, got, want);
                taken += got;
            }
    printf("quads4 convert: %d plans\n", taken);
    if (tl__sr_avx512()) CHECK_MSG(taken >= 400, "only %d plans converted by quads4", taken);
}

/* 2-byte weights copied by AVX-512's quads4, widened to 32-bit lanes
   as they load (tl__sr_q4_blocks_ok): bf16 and f16, the layouts of
   quads4 with kernels of 1 to 9 taps (the last group of 4 holding 1 to
   4), O of one or two blocks or a tail (boxes), I of two or three
   blocks, views, one or two threads; taken for B = 4 only, in cache,
   and for B = 8 and 16 from TL__SR_PF_ROWS_MIN (4 MiB) of source, which
   three larger ones reach. */
static void quads4_words(void)
{
    static const struct { const char *st, *dt; int nd, B; } k[] = {
        { "oihw", "OIhw4i4o", 4, 4 }, { "oihw", "OIhw4o4i", 4, 4 }, { "goihw", "gOIhw4i4o", 5, 4 },
        { "oihw", "OIhw8i8o", 4, 8 }, { "oihw", "OIhw8o8i", 4, 8 }, { "oihw", "OIhw16o16i", 4, 16 }
    };
    static const tl_dim big[3][4] = { { 512, 464, 3, 3 }, { 464, 512, 3, 3 }, { 512, 480, 3, 3 } };
    size_t i;
    int o, j, taken = 0;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (o = 0; o < 6; ++o)
            for (j = 0; j < 9; ++j) {
                tl_dim dims[5], pdims[5], off[5] = { 0, 0, 0, 0, 0 };
                tl_memory_desc ps, s, d;
                tl_reorder_attr a;
                tl_data_type t = (o + j) % 2 ? TL_BF16 : TL_F16;
                int g = k[i].st[0] == 'g', n = 0, tail = o % 3 == 2, view = o >= 3, got, want, e;
                char what[128];
                if (g) dims[n++] = 2;
                dims[n++] = k[i].B * (1 + o % 3) + (tail ? 3 - k[i].B : 0);
                dims[n++] = k[i].B * (2 + j % 2);       /* one block would merge 4o4i's o and i */
                dims[n++] = khw[j][0];
                dims[n++] = khw[j][1];
                for (e = 0; e < k[i].nd; ++e) pdims[e] = dims[e] + (view && e == g + 1 ? 5 : 0);
                off[g + 1] = view ? 2 : 0;
                memset(&a, 0, sizeof a);
                a.nthreads = 1 + j % 2;
                if (tl_md_init_by_tag(&ps, k[i].nd, pdims, t, k[i].st) || tl_md_submemory(&s, &ps, dims, off) ||
                    tl_md_init_by_tag(&d, k[i].nd, dims, t, k[i].dt)) {
                    CHECK_MSG(0, "quads4 words %s -> %s refused", k[i].st, k[i].dt);
                    continue;
                }
                snprintf(what, sizeof what, "quads4 words %s %s -> %s O %ld I %ld %ldx%ld%s", tl_dt_name(t),
                         k[i].st, k[i].dt, (long)dims[g], (long)dims[g + 1], (long)dims[n - 2], (long)dims[n - 1],
                         view ? " view" : "");
                compare(&s, &d, &a, j % 2 * 2, what);
                if (tail) continue;                     /* boxes: compared only */
                got = takes_shape(&s, &d, &a, TL__SR_QUADS4);
                want = tl__sr_avx512() && k[i].B == 4 && khw[j][0] * khw[j][1] >= 4;
                CHECK_MSG(got == want, "%s: quads4 %d, expected %d", what, got, want);
                taken += got;
            }
    for (i = 3; i < sizeof k / sizeof k[0]; ++i) {      /* 8i8o, 8o8i, 16o16i beyond 4 MiB */
        tl_memory_desc s, d;
        char what[96];
        if (tl_md_init_by_tag(&s, 4, big[i - 3], TL_BF16, k[i].st) ||
            tl_md_init_by_tag(&d, 4, big[i - 3], TL_BF16, k[i].dt)) {
            CHECK_MSG(0, "quads4 words %s refused", k[i].dt);
            continue;
        }
        snprintf(what, sizeof what, "quads4 words bf16 %s -> %s %ldx%ldx3x3", k[i].st, k[i].dt,
                 (long)big[i - 3][0], (long)big[i - 3][1]);
        compare(&s, &d, NULL, 0, what);
        CHECK_MSG(takes_shape(&s, &d, NULL, TL__SR_QUADS4) == tl__sr_avx512(), "%s: quads4 not as expected", what);
    }
    printf("quads4 words: %d plans\n", taken);
    if (tl__sr_avx512()) CHECK_MSG(taken >= 60, "only %d 2-byte plans copied by quads4", taken);
}

/* Weights in columns of 4 inputs (tl__sr_quads4_cols: OIhw4i16o4i and
   kin) by AVX-512's quads4: copies of f32, s32, bf16 and f16; f32 into
   bf16 and scaled f32 (one scale, per o, per i), taken; into s8 and u8
   (the zipped blocks' work) and with beta, compared only (AVX2 without
   AVX-512 takes the 4-byte copies alone, in its own form); kernels of 1
   to 9 taps (taken from 4), O of one to three blocks or a tail (boxes),
   I of one to three blocks (two at least of 4, which would merge 16o4i's
   o and i), views, one or two threads. */
static void quads4_cols(void)
{
    static const struct { const char *st, *dt; int nd; tl_dim bo, bi; } k[] = {
        { "oihw", "OIhw4i16o4i", 4, 16, 16 }, { "oihw", "OIhw2i8o4i", 4, 8, 8 },
        { "oihw", "OIhw16o4i", 4, 16, 4 },    { "oihw", "OIhw4i4o4i", 4, 4, 16 },
        { "oihw", "OIhw8i8o4i", 4, 8, 32 },   { "goihw", "gOIhw4i16o4i", 5, 16, 16 }
    };
    static const tl_data_type sdt[8] = { TL_F32, TL_S32, TL_BF16, TL_F16, TL_F32, TL_F32, TL_F32, TL_F32 };
    static const tl_data_type ddt[8] = { TL_F32, TL_S32, TL_BF16, TL_F16, TL_BF16, TL_F32, TL_S8, TL_U8 };
    static float scales[3 * 96];
    size_t i, e;
    int u, j, taken = 0;
    weight_scales(scales, sizeof scales / sizeof scales[0]);
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (u = 0; u < 24; ++u)
            for (j = 0; j < 9; ++j) {
                tl_dim dims[5], pdims[5], off[5] = { 0, 0, 0, 0, 0 };
                tl_memory_desc ps, s, d;
                tl_reorder_attr a;
                int g = k[i].st[0] == 'g', n = 0, tail = (u + j) % 5 == 4, view = u % 3 == 1, attr = u / 8, got, want;
                tl_data_type t = sdt[u % 8], w = ddt[u % 8];
                char what[160];
                if (g) dims[n++] = 2;
                dims[n++] = k[i].bo * (1 + (u + j) % 3) + (tail ? 3 : 0);
                dims[n++] = k[i].bi * (1 + (u / 3 + j) % 3 + (k[i].bi == 4));    /* one block of 4 merges o and i */
                dims[n++] = khw[j][0];
                dims[n++] = khw[j][1];
                for (e = 0; e < (size_t)k[i].nd; ++e) pdims[e] = dims[e] + (view && (int)e == g + 1 ? 5 : 0);
                off[g + 1] = view ? 2 : 0;
                memset(&a, 0, sizeof a);
                a.nthreads = 1 + j % 2;
                if (t == TL_F32 && t != w) a.scales = scales;     /* 1 each: a conversion all the same */
                if (t == TL_F32 && attr > 0) {                  /* one; per o, per i; beta */
                    a.scales = scales;
                    a.scale_mask = attr == 1 ? 0 : 1 << (g + (j % 2));
                    if (attr == 2 && u % 8 < 4) a.beta = 0.5f;
                }
                if (tl_md_init_by_tag(&ps, k[i].nd, pdims, t, k[i].st) || tl_md_submemory(&s, &ps, dims, off) ||
                    tl_md_init_by_tag(&d, k[i].nd, dims, w, k[i].dt)) {
                    CHECK_MSG(0, "quads4 cols %s -> %s refused", k[i].st, k[i].dt);
                    continue;
                }
                snprintf(what, sizeof what, "quads4 cols %s -> %s %s -> %s O %ld I %ld %ldx%ld attr %d%s",
                         tl_dt_name(t), tl_dt_name(w), k[i].st, k[i].dt, (long)dims[g], (long)dims[g + 1],
                         (long)dims[n - 2], (long)dims[n - 1], attr, view ? " view" : "");
                compare(&s, &d, &a, (j + u) % 2 * 4, what);
                if (tail) continue;                     /* boxes: compared only */
                got = takes_shape(&s, &d, &a, TL__SR_QUADS4);
                want = khw[j][0] * khw[j][1] >= 4 &&
                       (tl__sr_avx512() ? tl_dt_size(w) > 1 && a.beta == 0
                                        : tl__sr_avx2() && t == w && tl_dt_size(t) == 4 && !a.scales);
                CHECK_MSG(got == want, "%s: quads4 %d, expected %d", what, got, want);
                taken += got;
            }
    printf("quads4 cols: %d plans\n", taken);
    if (tl__sr_avx512()) CHECK_MSG(taken >= 300, "only %d column plans by quads4", taken);
}

/* AVX2's quads4 over more taps than AVX-512's form takes: 5x5 to 9x9
   and 3-D kernels, taken up to TL__SR_QUADS_TAPS (64) taps without
   AVX-512; f32 and s32, O with a tail (boxes) or not, groups, dst on
   cache lines (streamed) or not, one or two threads. */
static void quads4_taps(void)
{
    static const struct { const char *st, *dt; int nd, B; tl_dim taps[3]; } k[] = {
        { "oihw", "OIhw8o8i", 4, 8, { 5, 5, 0 } }, { "oihw", "OIhw4i4o", 4, 4, { 7, 7, 0 } },
        { "oidhw", "OIdhw8i8o", 5, 8, { 3, 3, 3 } }, { "goihw", "gOIhw16o16i", 5, 16, { 5, 5, 0 } },
        { "oihw", "OIhw4o4i", 4, 4, { 8, 8, 0 } }, { "oihw", "OIhw4o4i", 4, 4, { 9, 9, 0 } },
        { "oihw", "OIhw8i8o", 4, 8, { 1, 13, 0 } }, { "oidhw", "OIdhw4o4i", 5, 4, { 4, 4, 4 } }
    };
    size_t i;
    int o;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (o = 0; o < 2; ++o) {
            tl_dim dims[6], taps = 1;
            tl_memory_desc s, d;
            tl_reorder_attr a;
            tl_data_type t = o ? TL_S32 : TL_F32;
            char what[96];
            int n = 0, j, want;
            if (k[i].st[0] == 'g') dims[n++] = 3;
            dims[n++] = 2 * k[i].B + (o ? 3 : 0);
            dims[n++] = 3 * k[i].B;
            for (j = 0; n < k[i].nd; ++j, ++n) taps *= dims[n] = k[i].taps[j];
            memset(&a, 0, sizeof a);
            a.nthreads = 1 + (int)i % 2;
            if (tl_md_init_by_tag(&s, k[i].nd, dims, t, k[i].st) || tl_md_init_by_tag(&d, k[i].nd, dims, t, k[i].dt)) {
                CHECK_MSG(0, "quads4 taps %s -> %s refused", k[i].st, k[i].dt);
                continue;
            }
            snprintf(what, sizeof what, "quads4 %s %s -> %s %ld taps O %ld", tl_dt_name(t), k[i].st, k[i].dt,
                     (long)taps, (long)dims[k[i].st[0] == 'g']);
            compare(&s, &d, &a, (int)i % 2 * 4, what);
            if (o) continue;        /* boxes */
            want = tl__sr_avx2() && taps <= (tl__sr_avx512() && k[i].B == 16 ? 9 : 64);
            CHECK_MSG(takes_shape(&s, &d, NULL, TL__SR_QUADS4) == want, "%s: quads4 not %d", what, want);
        }
}

/* quads4 back from the blocks to rows of taps (AVX2's form, with AVX-512 too):
   OIhw4i4o, OIhw4o4i, OIhw8i8o, OIhw8o8i, OIhw16o16i, OIhw16i16o,
   gOIhw4o4i and OIdhw8i8o -> their plain layouts, kernels of 1 to 81
   taps (taken from 4 to 64), f32 and s32, O with a tail (boxes) or
   not, dst a view (rows further apart) or whole, one or two threads;
   compare's source ends at an unreadable page. */
static void quads4_back(void)
{
    static const struct { const char *st, *dt; int nd, B; } k[] = {
        { "OIhw4i4o", "oihw", 4, 4 }, { "OIhw4o4i", "oihw", 4, 4 }, { "OIhw8i8o", "oihw", 4, 8 },
        { "OIhw8o8i", "oihw", 4, 8 }, { "OIhw16o16i", "oihw", 4, 16 }, { "OIhw16i16o", "oihw", 4, 16 },
        { "gOIhw4o4i", "goihw", 5, 4 }, { "OIdhw8i8o", "oidhw", 5, 8 }
    };
    static const tl_dim taps[][3] = { { 1, 1, 1 }, { 1, 1, 3 }, { 1, 2, 2 }, { 1, 3, 3 }, { 1, 1, 13 },
                                      { 1, 5, 5 }, { 1, 8, 8 }, { 1, 9, 9 }, { 3, 3, 3 } };   /* d, h, w */
    size_t i, f;
    int o, taken = 0;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (f = 0; f < sizeof taps / sizeof taps[0]; ++f)
            for (o = 0; o < 2; ++o) {
                tl_dim dims[6], pdims[6], off[6] = { 0 }, nt = 1;
                tl_memory_desc s, pd, d;
                tl_reorder_attr a;
                tl_data_type t = (f + o) % 2 ? TL_S32 : TL_F32;
                char what[96];
                int g = k[i].st[0] == 'g', n = 0, j, view = (int)(f + i) % 3 == 0, want;
                if (g) dims[n++] = 3;
                dims[n++] = 2 * k[i].B + (o ? 3 : 0);
                dims[n++] = 3 * k[i].B;
                for (j = 3 - (k[i].nd - 2 - g); n < k[i].nd; ++j, ++n) nt *= dims[n] = taps[f][j];
                for (j = 0; j < k[i].nd; ++j) pdims[j] = dims[j] + (view && j == g + 1 ? 2 : 0);
                off[g + 1] = view;
                memset(&a, 0, sizeof a);
                a.nthreads = 1 + (int)(f + i) % 2;
                if (tl_md_init_by_tag(&s, k[i].nd, dims, t, k[i].st) ||
                    tl_md_init_by_tag(&pd, k[i].nd, pdims, t, k[i].dt) || tl_md_submemory(&d, &pd, dims, off)) {
                    CHECK_MSG(0, "quads4 back %s -> %s refused", k[i].st, k[i].dt);
                    continue;
                }
                snprintf(what, sizeof what, "quads4 back %s %s -> %s %ld taps O %ld%s", tl_dt_name(t), k[i].st,
                         k[i].dt, (long)nt, (long)dims[g], view ? " view" : "");
                compare(&s, &d, &a, (int)(f + i) % 2 * 4, what);
                if (o) continue;    /* boxes */
                /* 16i16o's taps in dst rows under 64 bytes go by rows from
                   columns (rows_from_columns) */
                if (k[i].B == 16 && strstr(k[i].st, "16i16o") && nt * 4 < 64 && nt * 16 >= TL__SR_COLS_MIN) {
                    CHECK_MSG(takes_shape(&s, &d, NULL, TL__SR_COLUMNS), "%s: not rows from columns", what);
                    continue;
                }
                /* 4 taps of blocks whose inputs lie together (8o8i, 16o16i)
                   are dst's dwords of four rows (dwords_of_four_rows) */
                if (nt == 4 && k[i].B >= 8 && k[i].st[strlen(k[i].st) - 1] == 'i') {
                    CHECK_MSG(takes_shape(&s, &d, NULL, TL__SR_DWORDS) == tl__sr_avx2(), "%s: dwords not %d", what,
                              tl__sr_avx2());
                    continue;
                }
                want = tl__sr_avx2() && nt >= 4 && nt <= 64;
                CHECK_MSG(takes_shape(&s, &d, NULL, TL__SR_QUADS4) == want, "%s: quads4 not %d", what, want);
                taken += want;      /* checked just above */
            }
    if (tl__sr_avx2()) CHECK_MSG(taken == 42, "%d plans took quads4 back, expected 42", taken);
    for (o = 0; o < 2; ++o) {       /* 2-byte blocks go back another way: the form moves 4-byte lanes */
        static const tl_dim dims[4] = { 8, 12, 3, 3 };
        tl_memory_desc s, d;
        tl_data_type t = o ? TL_BF16 : TL_F16;
        if (tl_md_init_by_tag(&s, 4, dims, t, "OIhw4i4o") || tl_md_init_by_tag(&d, 4, dims, t, "oihw")) {
            CHECK_MSG(0, "quads4 back %s refused", tl_dt_name(t));
            continue;
        }
        compare(&s, &d, NULL, 0, o ? "quads4 back bf16" : "quads4 back f16");
        CHECK_MSG(!takes_shape(&s, &d, NULL, TL__SR_QUADS4), "quads4 back took 2-byte values");
    }
}

/* Rows from columns (TL__SR_COLUMNS): blocked weights back to plain
   ones (16i16o, hwio, Ohwi16o, groups, 3-D; 4i16o4i and 8i16o2i, whose
   pieces of 16 o are 4 or 2 values apart) and plain ones into blocks
   over 16 taps, in every element size, copied or converted (per-O and
   common scales, per-I ones, which keep the columns out), O in 16s and
   with a tail (boxes), one or two threads (hwio's o is loops[0], which
   the threads split), dst a view of a larger parent or not, each
   compared with the scalar core bit for bit. The plans this shape is
   for (O in 16s, the taps of 3x3 or 2x2 kernels, 4-byte values or
   narrower, no per-I scales) must take it, but hwio's conversions where
   AVX-512 converts tiles side by side. */
static void rows_from_columns(void)
{
    static const struct { const char *st, *dt; int nd, back; } k[] = {
        { "OIhw16i16o", "oihw", 4, 1 }, { "Ohwi16o", "oihw", 4, 1 }, { "hwio", "oihw", 4, 1 },
        { "gOIhw16i16o", "goihw", 5, 1 }, { "OIdhw16i16o", "oidhw", 5, 1 },
        { "OIhw4i16o4i", "oihw", 4, 1 }, { "OIhw8i16o2i", "oihw", 4, 1 }, { "gOIhw4i16o4i", "goihw", 5, 1 },
        { "oihw", "OIhw16i16o", 4, 0 }, { "oihw", "OIhw8i16o2i", 4, 0 }, { "oihw", "OIhw4i16o4i", 4, 0 }
    };
    static const struct { tl_data_type s, d; int scale; } t[] = {
        { TL_F32, TL_F32, 0 }, { TL_S8, TL_S8, 0 }, { TL_BF16, TL_BF16, 0 }, { TL_S8, TL_F32, 1 },
        { TL_F32, TL_S8, 1 }, { TL_F32, TL_F32, 2 }, { TL_U8, TL_F32, 0 }, { TL_F32, TL_BF16, 1 },
        { TL_F32, TL_S8, 3 }
    };
    static const tl_dim taps[][3] = { { 1, 1, 1 }, { 1, 2, 2 }, { 1, 3, 3 }, { 1, 1, 5 }, { 2, 2, 2 },
                                      { 1, 4, 4 }, { 1, 5, 5 } };   /* d, h, w */
    static float scales[64 * 48];
    size_t i, j, f;
    int o, taken = 0;
    for (j = 0; j < sizeof scales / sizeof scales[0]; ++j) scales[j] = (float)(j % 11 + 1) / 8.f;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (j = 0; j < sizeof t / sizeof t[0]; ++j)
            for (f = 0; f < sizeof taps / sizeof taps[0]; ++f)
                for (o = 0; o < 2; ++o) {
                    tl_dim dims[6], pdims[6], off[6] = { 0 }, nt = 1;
                    tl_memory_desc s, d, pd;
                    tl_reorder_attr a;
                    char what[128];
                    int g = k[i].st[0] == 'g' || k[i].dt[0] == 'g', n = 0, m;
                    int view = k[i].back && (int)(i + j + f) % 3 == 0;   /* blocked views refuse the offset */
                    size_t vs = tl_dt_size(t[j].s) > tl_dt_size(t[j].d) ? tl_dt_size(t[j].s) : tl_dt_size(t[j].d);
                    if (g) dims[n++] = 2;
                    dims[n++] = 32 + (o ? 3 : 0);
                    dims[n++] = 48;
                    for (m = 3 - (k[i].nd - 2 - g); n < k[i].nd; ++m, ++n) nt *= dims[n] = taps[f][m];
                    if (k[i].nd - g == 4 && taps[f][0] != 1) continue;
                    for (m = 0; m < k[i].nd; ++m) pdims[m] = dims[m] + (view && m == g + 1 ? 3 : 0);
                    off[g + 1] = view;
                    memset(&a, 0, sizeof a);
                    a.nthreads = 1 + (int)(f + j) % 2;
                    if (t[j].scale) {
                        a.scales = scales;
                        a.scale_mask = t[j].scale == 2 ? 0 : t[j].scale == 1 ? 1 << g : 1 << (g + 1);
                    }
                    if (tl_md_init_by_tag(&s, k[i].nd, dims, t[j].s, k[i].st) ||
                        tl_md_init_by_tag(&pd, k[i].nd, pdims, t[j].d, k[i].dt) || tl_md_submemory(&d, &pd, dims, off)) {
                        CHECK_MSG(0, "rows from columns %s -> %s refused", k[i].st, k[i].dt);
                        continue;
                    }
                    snprintf(what, sizeof what, "rows from columns %s -> %s %s -> %s O %ld, %ld taps, scales %d%s",
                             tl_dt_name(t[j].s), tl_dt_name(t[j].d), k[i].st, k[i].dt, (long)dims[g], (long)nt,
                             t[j].scale, view ? ", view" : "");
                    compare(&s, &d, &a, (int)(i + f) % 2 * 4, what);
                    if (o || t[j].scale == 3 || (k[i].back ? nt != 4 && nt != 9 : nt != 16) || nt * vs >= 64)
                        continue;
                    /* with AVX-512 hwio's long o converts in tiles side by side */
                    if (tl__sr_avx512() && strcmp(k[i].st, "hwio") == 0 && (t[j].s != t[j].d || t[j].scale)) {
                        CHECK_MSG(converts_side(&s, &d, &a), "%s: not converted side by side", what);
                        continue;
                    }
                    CHECK_MSG(takes_shape(&s, &d, &a, TL__SR_COLUMNS), "%s: not rows from columns", what);
                    ++taken;
                }
    printf("rows from columns: %d plans\n", taken);
    CHECK_MSG(taken >= 80, "only %d plans went by rows from columns", taken);
}

/* Dwords of four rows (tl__sr_dwords_pick): weights whose outputs
   lie together in src (hwio, ihwo, io, ghwio -> 4i16o4i blocks) and
   channels into nChw4c, from f32 into s8, u8 and f32 (no scale, one,
   one along X: per o, or per pixel of nchw's merged planes) and 8-bit
   and 32-bit copies; taken in AVX2 where X holds 8s (the 8o of 2i8o4i; AVX-512
   takes 16s), compared only with a scale per input (along L), beta, a
   zero point, s8 -> u8, O, I or channels with tails (boxes), X not in
   8s (5x5 planes); source views, one or two threads. */
static void dwords_of_four_rows(void)
{
    static const struct { const char *st, *dt; int nd, x, l; } k[] = {   /* dims along X, along L */
        { "hwio", "OIhw4i16o4i", 4, 0, 1 }, { "ihwo", "OIhw4i16o4i", 4, 0, 1 },
        { "io", "OI4i16o4i", 2, 0, 1 },     { "ghwio", "gOIhw4i16o4i", 5, 1, 2 },
        { "nchw", "nChw4c", 4, 2, 1 },      { "hwio", "OIhw2i8o4i", 4, 0, 1 }
    };
    static const struct { tl_data_type s, d; } t[] = { { TL_F32, TL_S8 }, { TL_F32, TL_U8 }, { TL_S8, TL_S8 },
                                                       { TL_U8, TL_U8 }, { TL_S8, TL_U8 }, { TL_F32, TL_F32 },
                                                       { TL_S32, TL_S32 } };
    static float scales[4096];
    size_t i, j;
    int u, taken = 0;
    weight_scales(scales, sizeof scales / sizeof scales[0]);
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (j = 0; j < sizeof t / sizeof t[0]; ++j)
            for (u = 0; u < 12; ++u) {
                tl_dim dims[5], pdims[5], off[5] = { 0, 0, 0, 0, 0 };
                tl_memory_desc ps, s, d;
                tl_reorder_attr a;
                int g = k[i].st[0] == 'g', attr = u % 6, tail = u == 5 || u == 11, view = u % 4 == 1, n, e;
                int planes = k[i].dt[0] == 'n', want;
                char what[160];
                if (t[j].s != TL_F32 && attr > 0 && attr < 4) continue;  /* scales: conversions from f32 */
                if (g) dims[0] = 2;
                if (planes) {
                    dims[0] = 2;
                    dims[1] = 8 + (tail ? 2 : 0);
                    dims[2] = u % 3 == 2 ? 5 : 4;
                    dims[3] = u % 3 == 2 ? 5 : 8 + 8 * (u % 2);
                } else {
                    dims[g] = 16 * (1 + u % 3) + (tail ? 3 : 0);
                    dims[g + 1] = 16 * (1 + u % 2) + (u == 11 ? 2 : 0);
                    for (n = g + 2; n < k[i].nd; ++n) dims[n] = (tl_dim)(1 + (u + n) % 3);
                }
                for (e = 0; e < k[i].nd; ++e) pdims[e] = dims[e] + (view && e == k[i].x ? 16 : 0);
                off[k[i].x] = view ? 3 : 0;
                memset(&a, 0, sizeof a);
                a.nthreads = 1 + u % 2;
                switch (attr) {
                case 1: a.scales = scales; break;                                   /* one */
                case 2: a.scales = scales; a.scale_mask = planes ? 12 : 1 << k[i].x; break;  /* along X */
                case 3: a.scales = scales; a.scale_mask = 1 << k[i].l; break;       /* along L */
                case 4: a.beta = t[j].s == TL_F32 ? 0.5f : 0.f; a.dst_zero_point = t[j].s == TL_F32 ? 0 : 3; break;
                default: break;
                }
                if (tl_md_init_by_tag(&ps, k[i].nd, pdims, t[j].s, k[i].st) || tl_md_submemory(&s, &ps, dims, off) ||
                    tl_md_init_by_tag(&d, k[i].nd, dims, t[j].d, k[i].dt)) {
                    CHECK_MSG(0, "dwords %s -> %s refused", k[i].st, k[i].dt);
                    continue;
                }
                snprintf(what, sizeof what, "dwords %s -> %s %s -> %s dims %ldx%ldx%ld attr %d%s", tl_dt_name(t[j].s),
                         tl_dt_name(t[j].d), k[i].st, k[i].dt, (long)dims[0], (long)dims[1], (long)dims[2], attr,
                         view ? " view" : "");
                compare(&s, &d, &a, u % 2 * 4, what);
                want = tl__sr_avx2() && !tail && attr != 3 && attr != 4 && (t[j].s == TL_F32 || t[j].s == t[j].d) &&
                       (!planes || dims[2] * dims[3] % 8 == 0);
                CHECK_MSG(takes_shape(&s, &d, &a, TL__SR_DWORDS) == want, "%s: dwords %d, expected %d", what, !want,
                          want);
                taken += want;
            }
    printf("dwords of four rows: %d plans\n", taken);
    if (tl__sr_avx2()) CHECK_MSG(taken >= 130, "only %d plans by dwords of four rows", taken);
}

/* Small copied tiles in runs (tl__sr_tiles_next): channel blocks back
   to planes (nChw16c, nChw8c, nChw4c -> nchw) over planes of 3x3 to
   14x14 in s8, bf16 and f32, a run of tiles a step where a tile is
   small and the channels have no tail (20 channels: compared only); the
   column of blocks that ends each tile over the last one (49, 25, 9
   pixels), and 1- and 2-byte blocks paired along L where M is one block
   (s8 nChw16c, bf16 nChw8c); one or two threads, dst on a line or off. */
static void tiles_in_runs(void)
{
    static const char *const tags[] = { "nChw16c", "nChw8c", "nChw4c" };
    static const tl_dim planes[][2] = { { 7, 7 }, { 5, 5 }, { 14, 14 }, { 3, 3 }, { 4, 8 } };
    static const tl_data_type t[] = { TL_S8, TL_BF16, TL_F32 };
    size_t i, j, k;
    int c, runs = 0;
    for (i = 0; i < sizeof tags / sizeof tags[0]; ++i)
        for (j = 0; j < sizeof planes / sizeof planes[0]; ++j)
            for (k = 0; k < sizeof t / sizeof t[0]; ++k)
                for (c = 0; c < 2; ++c) {
                    tl_dim dims[4] = { 3, c ? 20 : 32, planes[j][0], planes[j][1] };
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    tl__sr_shape sh;
                    char what[128];
                    int small = dims[2] * dims[3] * (tl_dim)tl_dt_size(t[k]) * (i == 0 ? 16 : i == 1 ? 8 : 4) <= 4096;
                    memset(&a, 0, sizeof a);
                    a.nthreads = 1 + (int)(j + k) % 2;
                    if (tl_md_init_by_tag(&s, 4, dims, t[k], tags[i]) || tl_md_init_by_tag(&d, 4, dims, t[k], "nchw")) {
                        CHECK_MSG(0, "tiles in runs %s refused", tags[i]);
                        continue;
                    }
                    snprintf(what, sizeof what, "tiles in runs %s %s -> nchw 3x%ldx%ldx%ld", tl_dt_name(t[k]), tags[i],
                             (long)dims[1], (long)dims[2], (long)dims[3]);
                    compare(&s, &d, &a, (int)(j % 2) * 4, what);
                    if (c || !small || !plan_shape(&s, &d, &a, &sh) || sh.shape != TL__SR_TILE_COPY) continue;
                    CHECK_MSG(sh.K2 >= 0, "%s: tile by tile", what);
                    runs += sh.K2 >= 0;
                }
    printf("tiles in runs: %d plans\n", runs);
    CHECK_MSG(runs >= 20, "only %d plans of small tiles in runs", runs);
}

/* Copies of short runs whose steps would be small (TL__SR_COPY_STEP):
   blocked weights into wider blocks walk the loops outside K2 inside a
   step too (K3: the taps and the half blocks; every 3x3 plan here), in
   every element size, 3x3 and 1x1 kernels, with groups, 3-D, O and I
   with tails (boxes), one or two threads, against the scalar engine. */
static void copy_loops(void)
{
    static const struct { const char *st, *dt; int nd; } k[] = {
        { "OIhw8i8o", "OIhw16i16o", 4 }, { "OIhw4i4o", "OIhw16i16o", 4 }, { "OIhw4i4o", "OIhw8i8o", 4 },
        { "gOIhw8i8o", "gOIhw16i16o", 5 }, { "OIdhw8i8o", "OIdhw16i16o", 5 }
    };
    static const tl_data_type t[] = { TL_F32, TL_BF16, TL_S8 };
    size_t i, j;
    int f, tail, walked = 0;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (j = 0; j < sizeof t / sizeof t[0]; ++j)
            for (f = 1; f <= 3; f += 2)
                for (tail = 0; tail <= 1; ++tail) {
                    tl_dim dims[5];
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    tl__sr_shape sh;
                    char what[96];
                    int n = 0, m;
                    if (k[i].st[0] == 'g') dims[n++] = 2;
                    dims[n++] = 32 + 5 * tail;
                    dims[n++] = 48 - 3 * tail;
                    for (m = n; m < k[i].nd; ++m) dims[m] = m == n && k[i].nd - n == 3 ? 2 : f;
                    memset(&a, 0, sizeof a);
                    a.nthreads = 1 + (int)(j + i) % 2;
                    if (tl_md_init_by_tag(&s, k[i].nd, dims, t[j], k[i].st) ||
                        tl_md_init_by_tag(&d, k[i].nd, dims, t[j], k[i].dt)) {
                        CHECK_MSG(0, "copy loops %s -> %s refused", k[i].st, k[i].dt);
                        continue;
                    }
                    snprintf(what, sizeof what, "copy loops %s %s -> %s %dx%d tail %d", tl_dt_name(t[j]),
                             k[i].st, k[i].dt, f, f, tail);
                    compare(&s, &d, &a, (f + tail) % 2 * 4, what);
                    if (tail || !plan_shape(&s, &d, NULL, &sh)) continue;
                    /* 1x1: the loop outside K2 is loops[0], the threads' */
                    CHECK_MSG(f == 1 || (sh.shape == TL__SR_RUN && sh.K3 >= 1 && sh.K3 < sh.K2),
                              "%s: K3 %d, K2 %d", what, sh.K3, sh.K2);
                    walked += sh.K3 >= 0;
                }
    printf("copy loops: %d plans walk loops outside K2\n", walked);
}

/* f32 -> f32 plans that only scale, transposed straight into dst with
   each transposed vector scaled:
   - weights whose 16 (8) o values go to dst as whole rows, a scale per O
     or one for all: staged blocks (AVX-512 for 16, AVX2 for 8);
   - activations into channel blocks or channels last, a scale per
     channel or one for all: where M (the pixels) and L (the channels)
     hold whole 8 x 8 blocks, AVX2 converting tiles (tl__sr_tile_direct)
     in slices of M (40 x 40 pixels of 64 bytes make two), streamed where
     dst is on cache lines (from 1 KiB here) and L in 16s (not 24
     channels); 25 pixels, beta and a zero point keep the staging tile,
     and on AVX2 CPUs these plans must be converting tiles.
   Every case also with two threads and a dst off the cache line. */
static void scaled_f32(void)
{
    static const struct { const char *st, *dt; tl_dim dims[4]; int mask, nv, shape; } k[] = {
        { "oihw", "OIhw16i16o", { 32, 48, 3, 3 }, 1, 4, -1 },
        { "oihw", "OIhw16i16o", { 64, 16, 5, 5 }, 1, 4, -1 },
        { "oihw", "OIhw8i8o", { 24, 16, 3, 3 }, 1, 4, -1 },
        { "oihw", "OIhw8i8o", { 8, 32, 2, 3 }, 1, 4, -1 },
        { "nchw", "nChw16c", { 2, 32, 5, 8 }, 2, 6, TL__SR_TILE_CONVERT },
        { "nchw", "nChw16c", { 1, 16, 40, 40 }, 2, 6, TL__SR_TILE_CONVERT },
        { "nchw", "nhwc", { 2, 24, 4, 6 }, 2, 6, TL__SR_TILE_CONVERT },
        { "nchw", "nhwc", { 2, 32, 4, 6 }, 2, 6, TL__SR_TILE_CONVERT },
        { "nchw", "nChw16c", { 1, 16, 5, 5 }, 2, 6, TL__SR_TILE_CONVERT }
    };
    static float scales[64];
    size_t i;
    int v;
    for (v = 0; v < 64; ++v) scales[v] = (float)(v % 7 + 1) / 8.f;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (v = 0; v < k[i].nv; ++v) {
            tl_memory_desc s, d;
            tl_reorder_attr a;
            char what[128];
            memset(&a, 0, sizeof a);
            a.scales = scales;
            a.scale_mask = v % 2 ? k[i].mask : 0;   /* per O or per channel, common */
            a.nthreads = 1 + v / 2 % 2;
            if (v == 4) a.beta = 0.5f;
            if (v == 5) a.dst_zero_point = 3;
            if (tl_md_init_by_tag(&s, 4, k[i].dims, TL_F32, k[i].st) ||
                tl_md_init_by_tag(&d, 4, k[i].dims, TL_F32, k[i].dt)) {
                CHECK_MSG(0, "f32 %s -> %s refused", k[i].st, k[i].dt);
                continue;
            }
            snprintf(what, sizeof what, "f32 %s -> %s mask %d beta %g zp %d threads %d", k[i].st, k[i].dt,
                    a.scale_mask, (double)a.beta, (int)a.dst_zero_point, a.nthreads);
            if (k[i].shape >= 0 && tl__sr_avx2())
                CHECK_MSG(takes_shape(&s, &d, &a, k[i].shape), "%s: not in shape %d", what, k[i].shape);
            compare(&s, &d, &a, v % 3 * 4, what);
        }
}

/* Whether plan s -> d takes converting tiles straight into dst, not
   blocks staged in source order: from f32 (tl__sr_tile_direct), or,
   where bytes, from s8 or u8 (tl__sr_tile_bytes, AVX2 only). */
static int straight_tile(const tl_memory_desc *s, const tl_memory_desc *d, const tl_reorder_attr *a, int bytes)
{
    tl_reorder_plan plan;
    tl__sr_shape sh;
    tl__sr_perm pm;
    int ok;
    if (tl_reorder_plan_init(&plan, s, d, a) != TL_OK || !on_kernel(&plan)) return 0;
    tl__sr_pick_shape(&plan, &sh);
    if (sh.shape != TL__SR_TILE_CONVERT) return 0;
#if TL__SR_AVX2
    ok = bytes ? tl__sr_tile_bytes_ok(&plan, sh.M) : tl__sr_tile_direct_ok(&plan, sh.M);
#else
    ok = !bytes && tl__sr_tile_direct_ok(&plan, sh.M);
#endif
    return ok && !tl__sr_perm_pick(&plan, &sh, &pm, 0, plan.loops[0].size);
}

/* Variant v (0-5) of the tile tests' attributes: no scale, one, one per
   channel (mask 2, from `scales`) at one thread, then at two; v 4 adds
   beta, v 5 a dst zero point. */
static void tile_attr(tl_reorder_attr *a, const float *scales, int v)
{
    memset(a, 0, sizeof *a);
    a->scales = v % 3 ? scales : NULL;
    a->scale_mask = v % 3 == 2 ? 2 : 0;
    a->nthreads = 1 + v / 3;
    if (v == 4) a->beta = 0.5f;
    if (v == 5) a->dst_zero_point = 3;
}

/* f32 activations into channel blocks or channels last, converted to
   8-bit, s32, bf16 or f16 as AVX2's converting tiles store them
   (tl__sr_tile_direct: L in 16s, or 8 into nChw8c, 2 pixels a run; M
   in 8s, its last rows staged where L is 16 or less (81 pixels, 70;
   32 channels keep the blocks); from an M of 64, never the
   blocks staged in source order, which plans into nhwc took before),
   with no scale, one, or one per channel; L of 24 and M of 25 keep the
   staging tile or the blocks, as do beta and a zero point. Dense dst
   rows of 16 values stream (from 1 KiB here); two threads and a dst off
   the cache line too. */
static void direct_tiles(void)
{
    static const struct { const char *dt; tl_dim dims[4]; int direct; } k[] = {
        { "nChw16c", { 2, 32, 5, 8 }, 0 },      /* M of 40: either way */
        { "nChw16c", { 1, 16, 40, 40 }, 1 }, { "nhwc", { 2, 32, 8, 10 }, 1 },
        { "nhwc", { 2, 24, 4, 6 }, 0 }, { "nChw16c", { 1, 16, 5, 5 }, 0 },
        { "nChw8c", { 2, 16, 8, 8 }, 1 }, { "nChw8c", { 1, 24, 10, 8 }, 1 }, { "nChw8c", { 2, 16, 14, 14 }, 1 },
        { "nChw16c", { 1, 32, 9, 9 }, 1 }, { "nhwc", { 2, 16, 7, 10 }, 1 }, { "nhwc", { 1, 32, 9, 9 }, 0 }
    };
    static const tl_data_type t[] = { TL_S8, TL_U8, TL_S32, TL_BF16, TL_F16 };
    static float scales[64];
    size_t i, j;
    int v;
    for (v = 0; v < 64; ++v) scales[v] = (float)(v % 7 + 1) / 8.f + (v % 3 ? 100.f : 0.f);
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (j = 0; j < sizeof t / sizeof t[0]; ++j)
            for (v = 0; v < 6; ++v) {
                tl_memory_desc s, d;
                tl_reorder_attr a;
                char what[192];
                tile_attr(&a, scales, v);
                if (t[j] == TL_BF16 || t[j] == TL_F16) a.dst_zero_point = 0;   /* integers only */
                if (tl_md_init_by_tag(&s, 4, k[i].dims, TL_F32, "nchw") ||
                    tl_md_init_by_tag(&d, 4, k[i].dims, t[j], k[i].dt)) {
                    CHECK_MSG(0, "f32 nchw -> %s refused", k[i].dt);
                    continue;
                }
                snprintf(what, sizeof what, "f32 -> %s nchw -> %s %ldx%ldx%ldx%ld scales %d mask %d beta %g zp %d thr %d",
                        tl_dt_name(t[j]), k[i].dt, (long)k[i].dims[0], (long)k[i].dims[1], (long)k[i].dims[2],
                        (long)k[i].dims[3], a.scales != NULL, a.scale_mask, (double)a.beta,
                        (int)a.dst_zero_point, a.nthreads);
                if (tl__sr_avx2() && v < 4 && k[i].direct)    /* straight into dst, not staged blocks */
                    CHECK_MSG(straight_tile(&s, &d, &a, 0), "%s: not a direct tile", what);
                compare(&s, &d, &a, v % 2 * 4, what);
            }
}

/* s8 and u8 planes into f32 blocks of 4, 8 and 16 channels, as AVX2's
   byte tiles move them (tl__sr_tile_bytes: 32 pixels a step, 16 for
   nChw16c, the last ones through stack copies): planes of 1 to 1600
   pixels, whole steps and not, no scale, one, or one per channel (read
   from exactly as many floats as channels), one and two threads, dst on
   a line and off it; blocks with padding (12, 20 and 6 channels) on
   whatever path takes them. From 64 pixels without padding the plans
   must take the byte tiles; beta and a zero point keep the converter.
   dst streams from 1 KiB here (TL__SR_STREAM_MIN) where it starts on
   16 bytes. The same blocks back into planes (tl__sr8_unblock_tile: 16
   pixels a step, the last ones through stack copies of a source that
   ends at a guard page), on the byte tiles from 64 pixels likewise. */
static void byte_tiles(void)
{
    static const char *const tags[] = { "nChw4c", "nChw8c", "nChw16c" };
    static const tl_dim planes[][2] = { { 1, 1 }, { 2, 8 }, { 4, 8 }, { 3, 11 }, { 5, 7 },
                                        { 8, 8 }, { 14, 14 }, { 1, 47 }, { 40, 40 }, { 1, 17 } };
    static const tl_dim padded[] = { 6, 12, 20 };
    static const tl_data_type t[] = { TL_S8, TL_U8 };
    size_t i, j, k, c;
    tl_dim e;
    int v, back, taken = 0;
    for (back = 0; back < 2; ++back)
        for (i = 0; i < sizeof tags / sizeof tags[0]; ++i)
            for (j = 0; j < sizeof planes / sizeof planes[0]; ++j)
                for (c = 0; c < 2; ++c)
                    for (k = 0; k < sizeof t / sizeof t[0]; ++k)
                        for (v = 0; v < 6; ++v) {
                            tl_dim dims[4];
                            tl_memory_desc s, d;
                            tl_reorder_attr a;
                            float *scales;
                            char what[192];
                            dims[0] = 2;
                            dims[1] = c ? padded[i] : 32;
                            dims[2] = planes[j][0];
                            dims[3] = planes[j][1];
                            scales = (float *)malloc((size_t)dims[1] * sizeof *scales);
                            if (!scales) {
                                CHECK_MSG(0, "no memory for %ld scales", (long)dims[1]);
                                return;
                            }
                            for (e = 0; e < dims[1]; ++e) scales[e] = (float)(e % 5 + 1) / 4.f + (e % 2 ? 64.f : 0.f);
                            tile_attr(&a, scales, v);
                            if (tl_md_init_by_tag(&s, 4, dims, t[k], back ? tags[i] : "nchw") ||
                                tl_md_init_by_tag(&d, 4, dims, TL_F32, back ? "nchw" : tags[i])) {
                                CHECK_MSG(0, "%s nchw <-> %s refused", tl_dt_name(t[k]), tags[i]);
                                free(scales);
                                continue;
                            }
                            snprintf(what, sizeof what,
                                     "byte tiles %s -> f32 %s -> %s %ldx%ldx%ldx%ld scales %d mask %d beta %g zp %d thr %d",
                                     tl_dt_name(t[k]), back ? tags[i] : "nchw", back ? "nchw" : tags[i], (long)dims[0],
                                     (long)dims[1], (long)dims[2],
                                     (long)dims[3], a.scales != NULL, a.scale_mask, (double)a.beta,
                                     (int)a.dst_zero_point, a.nthreads);
                            if (tl__sr_avx2() && !c && dims[2] * dims[3] >= 64)
                                CHECK_MSG(straight_tile(&s, &d, &a, 1) == (v < 4), "%s: byte tile %d", what, v < 4);
                            taken += straight_tile(&s, &d, &a, 1);
                            compare(&s, &d, &a, v % 2 * 4, what);
                            free(scales);
                        }
    printf("byte tiles: %d plans\n", taken);
}

/* s8, u8 and bf16 pixels into f32 blocks of 4 (nhwc -> nChw4c) and
   blocks of 4 into f32 pixels (nChw4c -> nhwc), and f32 into s8, u8
   and bf16 both ways, as AVX2's steps for units of 4 values move them
   (tl__sr8_units4_tile: dst-dense units by 8 source-dense ones a step,
   or by a pixel's 4 or 2 from nChw16c or nChw8c and nhwc's 16 or 8
   channels; the last units and pixels in a step overlapping the one
   before).
   Into blocks: 8 blocks or more, and a step's pixels (8 narrowing into
   bytes, 4 otherwise), take them where there is no beta or zero point
   (no scale, one, one per channel; 160 channels scale their 40 blocks
   32 at a time, then 8; 52 channels end in a step of blocks 5 to 12,
   with their own scales); 24 and 20 channels (6 and 5 blocks) and fewer
   pixels the other paths. Into pixels: planes of 8 pixels or more
   (14x14: 24 steps of 8 and one of the last 8), a step's blocks, no
   scale or one (per channel, the scales would vary along the blocks,
   dst-dense). 1 to 196 pixels, one and two threads (which split one
   image's blocks or pixels, into counts not in 8s), dst on a line and
   off it (streamed from 1 KiB here where 16-byte aligned). The f32
   sources hold NaN, infinities and values past every bound (fill), and
   then only ordinary values (tame_floats), which s8 narrows without its
   NaN mask; the bf16 sources hold signalling NaNs, which widen
   unquieted where there is no scale. */
static void units_of_4(void)
{
    static const tl_dim channels[] = { 32, 64, 24, 20, 96, 160, 52, 16, 8 };
    static const char *const tags[][2] = { { "nhwc", "nChw4c" }, { "nChw4c", "nhwc" }, { "nChw8c", "nChw4c" },
                                           { "nChw16c", "nChw4c" } };
    static const tl_dim planes[][2] = { { 1, 1 }, { 1, 2 }, { 1, 3 }, { 2, 2 }, { 1, 5 }, { 2, 3 }, { 1, 7 },
                                        { 3, 3 }, { 5, 7 }, { 1, 47 }, { 14, 14 }, { 2, 4 }, { 4, 10 } };
    static const tl_data_type t[] = { TL_S8, TL_U8, TL_BF16 };
    static float scales[160];
    size_t i, j, k;
    int v, x, narrow, taken = 0;
    for (v = 0; v < 160; ++v) scales[v] = (float)(v % 5 + 1) / 4.f + (v % 2 ? 64.f : 0.f);
    for (narrow = 0; narrow < 2; ++narrow)
        for (x = 0; x < 4; ++x)     /* tags[x]; from nChw8c and nChw16c, whole blocks only */
            for (i = 0; i < sizeof channels / sizeof channels[0]; ++i)
                for (j = 0; j < sizeof planes / sizeof planes[0]; ++j)
                    for (k = 0; k < sizeof t / sizeof t[0]; ++k)
                        for (v = 0; v < 6; ++v) {
                            tl_dim dims[4], hw = planes[j][0] * planes[j][1];
                            tl_data_type sdt = narrow ? TL_F32 : t[k], ddt = narrow ? t[k] : TL_F32;
                            tl_memory_desc s, d;
                            tl_reorder_attr a;
                            tl__sr_shape sh;
                            char what[160];
                            int units, expect, step;
                            tl_dim su, dp;  /* the source-dense units, the dst-dense ones */
                            if (x >= 2 && channels[i] % (x == 2 ? 8 : 16)) continue;
                            dims[0] = 1 + (tl_dim)(j % 2);  /* one image: two threads split its loops */
                            dims[1] = channels[i];
                            dims[2] = planes[j][0];
                            dims[3] = planes[j][1];
                            tile_attr(&a, scales, v);
                            if (tl_md_init_by_tag(&s, 4, dims, sdt, tags[x][0]) ||
                                tl_md_init_by_tag(&d, 4, dims, ddt, tags[x][1])) {
                                CHECK_MSG(0, "%s -> %s %s -> %s refused", tl_dt_name(sdt), tl_dt_name(ddt), tags[x][0],
                                          tags[x][1]);
                                continue;
                            }
                            snprintf(what, sizeof what, "units of 4 %s -> %s %s -> %s %ldx%ldx%ldx%ld scales %d mask %d beta %g zp %d thr %d",
                                     tl_dt_name(sdt), tl_dt_name(ddt), tags[x][0], tags[x][1],
                                     (long)dims[0], (long)dims[1], (long)dims[2], (long)dims[3], a.scales != NULL,
                                     a.scale_mask, (double)a.beta, (int)a.dst_zero_point, a.nthreads);
                            units = plan_shape(&s, &d, &a, &sh) && sh.shape == TL__SR_RUN && sh.units4;
                            step = narrow && t[k] != TL_BF16 ? 8 : 4;     /* a step's pixels */
                            su = x == 0 ? dims[1] / 4 : x == 1 ? hw : x == 2 ? 2 : 4;
                            dp = x == 1 ? dims[1] / 4 : hw;
                            expect = v < 4 && dp >= step && (x != 1 || v % 3 != 2) &&
                                     (su >= 8 || su == 4 || su == 2);
                            if (tl__sr_avx2() && hw > 1) CHECK_MSG(units == expect, "%s: units %d", what, units);
                            taken += units;
                            compare(&s, &d, &a, v % 2 * 4, what);
                            tame_floats = narrow;
                            compare(&s, &d, &a, v % 2 * 4, what);
                            tame_floats = 0;
                        }
    /* blocks of 4 into channels last padded to 16 (boxes), streamed,
       pixels not in 4s: the last step overlaps the one before and
       started off 16 bytes (f32 -> s8 8x40x11 faulted) */
    for (v = 0; v < 6; ++v) {
        tl_dim dims[3] = { 8, 40, 11 + 2 * v };
        tl_memory_desc s, d;
        char what[96];
        tl_data_type w = v % 3 == 0 ? TL_S8 : v % 3 == 1 ? TL_U8 : TL_BF16;
        if (tl_md_init_by_tag(&s, 3, dims, TL_F32, "aBc4b") || tl_md_init_by_tag(&d, 3, dims, w, "acB16b")) {
            CHECK(!"units of 4: aBc4b -> acB16b refused");
            continue;
        }
        snprintf(what, sizeof what, "units of 4 f32 -> %s aBc4b -> acB16b 8x40x%ld", tl_dt_name(w), (long)dims[2]);
        compare(&s, &d, NULL, 0, what);
    }
    printf("units of 4: %d plans\n", taken);
}

/* The block side of the wide tile that a copying plan s -> d copies its
   small tiles in (tl__sr_tiles_side); 0: none. */
static int side_by_side(const tl_memory_desc *s, const tl_memory_desc *d)
{
    tl_reorder_plan plan;
    tl__sr_shape sh;
    tl__sr_runs rs = tl__sr_one_run;
    if (!plan_shape(s, d, NULL, &sh) || sh.shape != TL__SR_TILE_COPY || sh.K2 < 0 ||
        tl_reorder_plan_init(&plan, s, d, NULL) != TL_OK)
        return 0;
    rs.count = plan.loops[sh.K2].size;
    rs.d = (size_t)plan.loops[sh.K2].dst_stride * tl_dt_size(s->data_type);
    return tl__sr_tiles_side((int)tl_dt_size(s->data_type), plan.loops[plan.nloops - 1].size, plan.loops[sh.M].size, rs);
}

typedef struct { const char *st, *dt; int nd, blk; } side_case;

/* One side_tiles case: c's layouts in type t, a filter of f taps a side,
   O with a tail of 3 or not; returns its plan's tl__sr_tiles_side, or
   -1 where it copies by quads4 instead. */
static int side_tile(const side_case *c, tl_data_type t, int f, int tail)
{
    tl_dim dims[5];
    tl_memory_desc s, d;
    char what[96];
    int n = 0;
    if (c->st[0] == 'g') dims[n++] = 2;
    dims[n++] = 2 * c->blk + 3 * tail;
    dims[n++] = c->blk * (f % 2 ? 2 : 3);
    for (; n < c->nd; ++n) dims[n] = c->st[2] == 'd' && n == 2 ? (f + 1) / 2 : f;
    if (tl_md_init_by_tag(&s, c->nd, dims, t, c->st) || tl_md_init_by_tag(&d, c->nd, dims, t, c->dt)) {
        CHECK_MSG(0, "side tiles %s -> %s refused", c->st, c->dt);
        return 0;
    }
    snprintf(what, sizeof what, "side tiles %s %s -> %s taps %d tail %d", tl_dt_name(t), c->st, c->dt, f, tail);
    compare(&s, &d, NULL, f % 4, what);
    return takes_shape(&s, &d, NULL, TL__SR_QUADS4) ? -1 : side_by_side(&s, &d);
}

/* Small weight tiles side by side in dst (the 9 x 16 of one o in
   OIhw16o16i): the L rows of a step's tiles form one wide tile, 16 rows
   to a block with AVX-512 (tl__sr16_tiles4), 8 with AVX2
   (tl__sr8_tiles4); for bf16 32 rows of 8 values with AVX-512
   (tl__sr16_tiles2), 16 with AVX2 (tl__sr8_tiles2), else SSE2's 8 x 8
   (tl__sr_tiles2), and twice those rows of 16 for s8 (tl__sr16_tiles1,
   tl__sr8_tiles1, tl__sr_tiles1), each ISA run taking its own; blocks of 6 against
   the same reference (their tiles' rows, like 9 or 25 taps, put a
   block's rows at offsets that change from block to block). Every filter from 1x1 to
   7x7 (M of 1 to 49, past one block of 16), L of 4, 8 and 16, O with a
   tail of 3 (steps of three tiles of 4 or 8 rows: blocks of fewer than
   16 rows, whose extra columns would land on padding), groups and
   3-D, dst aligned (streamed: TL__SR_STREAM_MIN is 1 KiB here) or not;
   the last block of the tensor loads through buffers (compare's src
   ends at an unreadable page). */
static void side_tiles(void)
{
    static const side_case k[] = {
        { "oihw", "OIhw16o16i", 4, 16 }, { "oihw", "IOhw16o16i", 4, 16 },
        { "oihw", "OIhw8o8i", 4, 8 }, { "oihw", "OIhw4o4i", 4, 4 },
        { "goihw", "gOIhw16o16i", 5, 16 }, { "oidhw", "OIdhw8o8i", 5, 8 },
        { "oihw", "OIhw16i16o", 4, 16 }, { "oihw", "OIhw6o6i", 4, 6 }
    };
    size_t i;
    int f, tail, side = 0, side2 = 0, quads = 0, by[33] = { 0 }, by1[65] = { 0 };
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (f = 1; f <= 7; ++f)
            for (tail = 0; tail <= 1; ++tail) {
                int s4 = side_tile(&k[i], TL_F32, f, tail), s2 = side_tile(&k[i], TL_BF16, f, tail);
                side += !tail && s4 > 0;
                quads += !tail && s4 < 0;
                side2 += !tail && s2 > 0;
                if (s2 > 0) ++by[s2];
                s2 = side_tile(&k[i], TL_S8, f, tail);
                if (s2 > 0) ++by1[s2];
            }
    printf("side tiles bf16: blocks of 32 rows %d, 16 %d, 8 %d\n", by[32], by[16], by[8]);
    /* f32 OIhw16o16i, OIhw8o8i and OIhw4o4i from 2x2 to 7x7 go by AVX2's
       quads4 (tl__sr_q4_wide), AVX-512 or not, but blocks of 16 over more
       than 9 taps with AVX-512 */
    if (tl__sr_avx2())
        CHECK_MSG(side + quads >= 30 && side >= (tl__sr_avx512() ? 8 : 2), "only %d plans took side-by-side tiles, %d quads4", side, quads);
    /* (bf16 oihw -> OIhw16i16o from 4x4 kernels goes by rows from columns) */
    CHECK_MSG(side2 >= 28, "only %d bf16 plans took side-by-side tiles", side2);
    CHECK_MSG(by[tl__sr_avx512() ? 32 : tl__sr_avx2() ? 16 : 8] >= 24, "bf16 side tiles: too few in the widest blocks");
    printf("side tiles s8: blocks of 64 rows %d, 32 %d, 16 %d\n", by1[64], by1[32], by1[16]);
    CHECK_MSG(by1[tl__sr_avx512() ? 64 : tl__sr_avx2() ? 32 : 16] >= 10, "s8 side tiles: too few in the widest blocks");
}

/* hwio -> oihw: tiles of f x f taps by O, side by side in dst along i,
   one wide tile of rows that wrap from tile to tile (TL__SR_TILES_BODY)
   also where a tile is large (more than TL__SR_SMALL_TILE bytes), its
   taps fewer than TL__SR_SIDE_ROWS and not in 8s (small bf16 tiles only
   where taps and 8 divide one another, bf16 2x2's rows of 8 bytes too,
   too short for a transpose of their own: tl__sr_tile_widens); others
   tile by tile.
   f32 and bf16, O past one block of 16 (35) and well past it, I of 3
   and 20 (the last block of rows partial) and 16 (whole: its loads
   reach the end of the source, and one row past it had the block's
   reach been its first block's). */
static void side_tiles_wide(void)
{
    static const tl_dim O[] = { 35, 130, 300 }, I[] = { 3, 16, 20 };
    static const int F[] = { 2, 3, 5, 7 };
    size_t o, i, f;
    int t, taken = 0;
    for (t = 0; t < 2; ++t)
        for (o = 0; o < sizeof O / sizeof O[0]; ++o)
            for (i = 0; i < sizeof I / sizeof I[0]; ++i)
                for (f = 0; f < sizeof F / sizeof F[0]; ++f) {
                    tl_data_type dt = t ? TL_BF16 : TL_F32;
                    tl_dim dims[4], taps = (tl_dim)F[f] * F[f];
                    tl_memory_desc s, d;
                    char what[96];
                    int side, small, expect;
                    dims[0] = O[o];
                    dims[1] = I[i];
                    dims[2] = dims[3] = F[f];
                    if (tl_md_init_by_tag(&s, 4, dims, dt, "hwio") || tl_md_init_by_tag(&d, 4, dims, dt, "oihw")) {
                        CHECK_MSG(0, "wide side tiles %s refused", tl_dt_name(dt));
                        continue;
                    }
                    snprintf(what, sizeof what, "wide side tiles %s hwio -> oihw %ldx%ldx%dx%d", tl_dt_name(dt),
                             (long)O[o], (long)I[i], F[f], F[f]);
                    compare(&s, &d, NULL, (int)f % 2 * 4, what);
                    side = side_by_side(&s, &d);
                    small = O[o] * taps * (tl_dim)tl_dt_size(dt) <= TL__SR_SMALL_TILE;
                    expect = small ? t == 0 || taps % 8 == 0 || 8 % taps == 0     /* small bf16: 8s */
                                   : taps % 8 != 0 && taps < TL__SR_SIDE_ROWS;
                    if (tl__sr_avx2()) CHECK_MSG((side > 0) == expect, "%s: side %d, expected %d", what, side, expect);
                    taken += side > 0;
                }
    printf("wide side tiles: %d plans\n", taken);
}

/* Weights of bf16, f16, s8 and u8 into f32, and of f32 into bf16, s8
   and u8, whose converting tiles lie side by side in dst (hwio -> oihw,
   Ohwi16o, OIhw16i16o <-> oihw): one wide tile of 16 x 16 f32 blocks,
   each value widened as it loads or each dst row rounded (and
   saturated) as it leaves
   (tl__sr16_tiles_convert), its last blocks and short ones through the
   core's conversion; a scale rides along (scaled_side_tiles has more),
   with a zero point or beta the plans keep the staged tiles. O of two blocks and past them, in 16s or not; I of
   3, 16 and 20 (a last block of rows partial or whole), 1 to 5 taps a side; fill's NaNs and
   infinities among the values. */
static void converted_side_tiles(void)
{
    static const char *const tags[][2] = { { "hwio", "oihw" }, { "oihw", "hwio" }, { "oihw", "Ohwi16o" },
                                           { "OIhw16i16o", "oihw" }, { "oihw", "OIhw8i8o" } };
    static const tl_data_type types[][2] = { { TL_BF16, TL_F32 }, { TL_F16, TL_F32 }, { TL_S8, TL_F32 },
                                             { TL_U8, TL_F32 }, { TL_F32, TL_BF16 }, { TL_F32, TL_S8 },
                                             { TL_F32, TL_U8 } };
    static const tl_dim O[] = { 32, 35, 130 }, I[] = { 3, 16, 20 };
    static const int F[] = { 1, 2, 3, 5 };
    static const float half = 0.5f;
    size_t k, t, o, i, f;
    int n = 0, taken = 0;
    for (k = 0; k < sizeof tags / sizeof tags[0]; ++k)
        for (t = 0; t < sizeof types / sizeof types[0]; ++t)
            for (o = 0; o < sizeof O / sizeof O[0]; ++o)
                for (i = 0; i < sizeof I / sizeof I[0]; ++i)
                    for (f = 0; f < sizeof F / sizeof F[0]; ++f, ++n) {
                        tl_dim dims[4];
                        tl_memory_desc s, d;
                        tl_reorder_attr a;
                        tl__sr_shape sh;
                        char what[128];
                        int plain = n % 4 != 3, more;
                        dims[0] = O[o];
                        dims[1] = I[i];
                        dims[2] = dims[3] = F[f];
                        memset(&a, 0, sizeof a);
                        a.nthreads = n % 2 + 1;
                        if (!plain) {   /* 1 of 4: something besides the conversion */
                            if (n % 3 == 0) a.scales = &half;
                            else if (n % 3 == 1) a.beta = 0.5f;
                            else a.src_zero_point = 3;
                        }
                        if (tl_md_init_by_tag(&s, 4, dims, types[t][0], tags[k][0]) ||
                            tl_md_init_by_tag(&d, 4, dims, types[t][1], tags[k][1])) {
                            CHECK_MSG(0, "converted side tiles %s refused", tl_dt_name(types[t][0]));
                            continue;
                        }
                        snprintf(what, sizeof what, "converted side tiles %s %s -> %s %s %ldx%ldx%dx%d%s",
                                 tl_dt_name(types[t][0]), tags[k][0], tl_dt_name(types[t][1]), tags[k][1],
                                 (long)O[o], (long)I[i], F[f], F[f], plain ? "" : " (scaled, beta or zero point)");
                        compare(&s, &d, &a, n % 3 * 4, what);
                        more = a.beta != 0 || a.src_zero_point != 0;
                        if (plan_shape(&s, &d, &a, &sh) &&
                            ((sh.shape == TL__SR_TILE_CONVERT && sh.K2 >= 0) || sh.shape == TL__SR_TILE_ROWS)) {
                            CHECK_MSG(!more, "%s: converted side by side with more to do", what);
                            ++taken;
                        }
                    }
    printf("converted side tiles: %d of %d plans\n", taken, n);
    CHECK_MSG(!tl__sr_avx512() || taken >= 280, "only %d plans converted their side tiles", taken);
    CHECK_MSG(tl__sr_avx512() || taken == 0, "%d plans converted their side tiles without AVX-512", taken);
}

/* Whether the plan s -> d converts (or scales) its tiles side by side
   or merged (tl__sr16_tiles_convert, tl__sr16_rows_convert). */
static int converts_side(const tl_memory_desc *s, const tl_memory_desc *d, const tl_reorder_attr *a)
{
    tl__sr_shape sh;
    return plan_shape(s, d, a, &sh) &&
           ((sh.shape == TL__SR_TILE_CONVERT && sh.K2 >= 0) ||
            (sh.shape == TL__SR_TILE_ROWS && (s->data_type != d->data_type || a->scales)));
}

/* Quantized weights' scales on the converting tiles that lie side by
   side or merge (tl__sr_tsc): f32 into s8, u8, bf16 and f32, and s8,
   u8, bf16 into f32, between oihw and Ohwi8o, Ohwi16o, hwio and
   OIhw16i16o both ways, with one scale, one per o, per i, per o and i,
   per tap (the scales along the tiles' rows, along their columns, or
   along both, which keeps the staged tiles: compared only), compared
   bit for bit; O of 16, 24 and 48, I of 3, 16 and 20, kernels of 1, 3
   and 5 taps a side. A plan with one scale, or one per o, converts its
   tiles side by side wherever its unscaled twin does. */
static void scaled_side_tiles(void)
{
    static const char *const tags[][2] = { { "oihw", "Ohwi8o" },     { "oihw", "Ohwi16o" }, { "oihw", "hwio" },
                                           { "oihw", "OIhw16i16o" }, { "Ohwi8o", "oihw" },  { "Ohwi16o", "oihw" },
                                           { "hwio", "oihw" },       { "OIhw16i16o", "oihw" } };
    static const tl_data_type types[][2] = { { TL_F32, TL_S8 },  { TL_F32, TL_U8 }, { TL_F32, TL_BF16 },
                                             { TL_F32, TL_F32 }, { TL_S8, TL_F32 }, { TL_U8, TL_F32 },
                                             { TL_BF16, TL_F32 } };
    static const int masks[] = { 0, 1, 2, 3, 12 };
    static const tl_dim O[] = { 16, 24, 48 }, I[] = { 3, 16, 20 };
    static const int F[] = { 1, 3, 5 };
    static float scales[48 * 20];
    size_t k, t, m, f;
    int n = 0, taken = 0;
    weight_scales(scales, sizeof scales / sizeof scales[0]);
    for (k = 0; k < sizeof tags / sizeof tags[0]; ++k)
        for (t = 0; t < sizeof types / sizeof types[0]; ++t)
            for (m = 0; m < sizeof masks / sizeof masks[0]; ++m)
                for (f = 0; f < sizeof F / sizeof F[0]; ++f, ++n) {
                    tl_dim dims[4];
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    char what[160];
                    int got;
                    dims[0] = O[n % 3];
                    dims[1] = I[n / 3 % 3];
                    dims[2] = dims[3] = F[f];
                    memset(&a, 0, sizeof a);
                    a.nthreads = n % 2 + 1;
                    a.scales = scales;
                    a.scale_mask = masks[m];
                    if (tl_md_init_by_tag(&s, 4, dims, types[t][0], tags[k][0]) ||
                        tl_md_init_by_tag(&d, 4, dims, types[t][1], tags[k][1])) {
                        CHECK_MSG(0, "scaled side tiles %s -> %s refused", tags[k][0], tags[k][1]);
                        continue;
                    }
                    snprintf(what, sizeof what, "scaled side tiles %s %s -> %s %s %ldx%ldx%ldx%ld mask %d",
                             tl_dt_name(types[t][0]), tags[k][0], tl_dt_name(types[t][1]), tags[k][1], (long)dims[0],
                             (long)dims[1], (long)dims[2], (long)dims[3], masks[m]);
                    compare(&s, &d, &a, n % 3 * 4, what);
                    got = converts_side(&s, &d, &a);
                    taken += got;
                    if (masks[m] <= 1) {
                        tl_reorder_attr b = a;
                        b.scales = NULL;
                        b.scale_mask = 0;
                        if (types[t][0] == TL_F32 && types[t][1] == TL_F32) b.scales = scales; /* else a copy */
                        CHECK_MSG(got == converts_side(&s, &d, &b), "%s: side by side %d, unscaled %d", what, got,
                                  !got);
                    }
                }
    printf("scaled side tiles: %d of %d plans\n", taken, n);
    CHECK_MSG(!tl__sr_avx512() || taken >= 300, "only %d scaled plans converted their side tiles", taken);
}

/* 32-bit transposes in AVX-512's 16 x 16 blocks: M with a band of 8
   rows and gathered rows after the last whole block, short M (wide
   strips), and dst rows of whole cache lines, which stream from 1 KiB
   here (TL__SR_STREAM_MIN), as do AVX2's pairs of 8 x 8 blocks where L
   is in 16s; misaligned copies of each take the narrower blocks. */
static void wide_blocks(void)
{
    static const struct { const char *st, *dt; tl_dim dims[4]; tl_dim nm, nl; } k[] = {
        { "nchw", "nChw16c", { 2, 32, 5, 7 }, 35, 16 },    /* 2 blocks, 3 gathered rows */
        { "nchw", "nChw16c", { 1, 16, 4, 6 }, 24, 16 },    /* a band of 8 */
        { "nChw16c", "nchw", { 2, 32, 4, 8 }, 16, 32 },
        { "nChw16c", "nchw", { 2, 32, 6, 6 }, 16, 36 },    /* L not whole blocks: 8 x 8 */
        { "nchw", "nhwc", { 2, 32, 5, 8 }, 40, 32 },
        { "nchw", "nhwc", { 2, 24, 5, 8 }, 40, 24 },
        { "nhwc", "nchw", { 2, 32, 8, 10 }, 32, 80 },      /* wide strips */
        { "nhwc", "nchw", { 1, 64, 16, 17 }, 64, 272 }
    };
    size_t i;
    int mis;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i) {
        tl_memory_desc s, d;
        char what[96];
        int got, want = tl__sr_avx512() && k[i].nm >= 16 && k[i].nl % 16 == 0 ? 16 : tl__sr_avx2() ? 8 : 0;
        if (tl_md_init_by_tag(&s, 4, k[i].dims, TL_F32, k[i].st) ||
            tl_md_init_by_tag(&d, 4, k[i].dims, TL_F32, k[i].dt)) {
            CHECK_MSG(0, "wide %s -> %s refused", k[i].st, k[i].dt);
            continue;
        }
        got = tl__sr_wide((char *)(uintptr_t)64, 64, k[i].nm, k[i].nl, 0);
        CHECK_MSG(got == want, "wide %s -> %s: blocks of %d, expected %d", k[i].st, k[i].dt, got, want);
        /* streaming: 16 x 16 blocks or AVX2's pairs on whole lines only, else SSE2's */
        CHECK(tl__sr_wide((char *)(uintptr_t)64, 64, k[i].nm, k[i].nl, 1) ==
              (want == 16 || (want == 8 && k[i].nl % 16 == 0) ? want : 0));
        CHECK(tl__sr_wide((char *)(uintptr_t)80, 64, k[i].nm, k[i].nl, 1) == 0);
        for (mis = 0; mis <= 4; mis += 4) {
            snprintf(what, sizeof what, "wide %s -> %s %ldx%ldx%ldx%ld mis %d", k[i].st, k[i].dt, (long)k[i].dims[0],
                    (long)k[i].dims[1], (long)k[i].dims[2], (long)k[i].dims[3], mis);
            compare(&s, &d, NULL, mis, what);
        }
    }
}

/* Transposes of 1- and 2-byte elements: AVX2's pairs of blocks along M
   (an odd number of blocks, then a border of rows), streaming (from 1
   KiB of dst here) by whole lines where dst rows start on them (nchw
   rows of 64, 128 and 320 bytes; wide strips of a short M) or in the
   blocks' own order where dst rows shorter than a line follow one
   another (nChw16c, nChw8c), and plain stores where dst is misaligned. */
static void narrow_blocks(void)
{
    static const struct { const char *st, *dt; tl_dim dims[4]; } k[] = {
        { "nhwc", "nchw", { 2, 48, 4, 16 } },   /* M of 3 s8 blocks, 6 bf16 ones */
        { "nhwc", "nchw", { 1, 40, 8, 20 } },   /* M with a border; 160-value rows */
        { "nhwc", "nchw", { 2, 24, 2, 16 } },   /* L 32: one s8 line, two bf16 ones */
        { "nchw", "nhwc", { 2, 72, 7, 9 } },    /* M 63, L 72 */
        { "nChw16c", "nchw", { 2, 32, 8, 8 } },
        { "nChw16c", "nchw", { 1, 16, 10, 32 } },
        { "nchw", "nChw16c", { 2, 32, 9, 7 } },
        { "nchw", "nChw8c", { 2, 16, 5, 13 } }
    };
    static const tl_data_type t[] = { TL_S8, TL_BF16 };
    size_t i, j;
    int mis;
    /* the rows on lines, or short and dense with B of them filling lines */
    CHECK(tl__sr_stream_narrow(1, (char *)(uintptr_t)64, 128, 16, 0));
    CHECK(tl__sr_stream_narrow(2, (char *)(uintptr_t)64, 64, 32, 128));
    CHECK(!tl__sr_stream_narrow(2, (char *)(uintptr_t)80, 64, 32, 0));
    CHECK(!tl__sr_stream_narrow(1, (char *)(uintptr_t)64, 80, 16, 0));
    CHECK(tl__sr_stream_narrow(2, (char *)(uintptr_t)16, 32, 16, 0));      /* bf16 nChw16c */
    CHECK(tl__sr_stream_narrow(1, (char *)(uintptr_t)16, 16, 16, 0));      /* s8 nChw16c */
    CHECK(!tl__sr_stream_narrow(2, (char *)(uintptr_t)16, 48, 16, 0));     /* rows not dense */
    CHECK(!tl__sr_stream_narrow(2, (char *)(uintptr_t)8, 32, 16, 0));
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (j = 0; j < sizeof t / sizeof t[0]; ++j) {
            tl_memory_desc s, d;
            char what[160];
            if (tl_md_init_by_tag(&s, 4, k[i].dims, t[j], k[i].st) ||
                tl_md_init_by_tag(&d, 4, k[i].dims, t[j], k[i].dt)) {
                CHECK_MSG(0, "narrow %s -> %s refused", k[i].st, k[i].dt);
                continue;
            }
            for (mis = 0; mis <= 8; mis += 8) {
                snprintf(what, sizeof what, "narrow %s %s -> %s %ldx%ldx%ldx%ld mis %d", tl_dt_name(t[j]), k[i].st,
                        k[i].dt, (long)k[i].dims[0], (long)k[i].dims[1], (long)k[i].dims[2],
                        (long)k[i].dims[3], mis);
                compare(&s, &d, NULL, mis, what);
            }
        }
}

/* Converting runs that gather a dst line from source blocks 4 KiB or
   more apart (nChw8c -> nhwc, 16 x 16 pixels: 8 KiB of f32) store
   plainly where the data type changes; the same-type scaled ones, and
   runs gathered from nearby (nhwc -> nChw16c), stream. Values against
   the scalar engine. */
static void gathered_runs_plain(void)
{
    static const struct { tl_data_type st, dt; const char *stag, *dtag; int stream; } k[] = {
        { TL_F32, TL_BF16, "nChw8c", "nhwc", 0 }, { TL_BF16, TL_F32, "nChw16c", "nhwc", 0 },
        { TL_F32, TL_S8, "nChw16c", "nhwc", 0 }, { TL_F32, TL_F32, "nChw8c", "nhwc", 1 },
        { TL_F32, TL_BF16, "nhwc", "nChw16c", 1 },
    };
    static const tl_dim dims[4] = { 2, 32, 16, 16 };
    static const float scale = 0.5f;
    size_t i;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i) {
        tl_memory_desc s, d;
        tl_reorder_attr a;
        tl_reorder_plan plan;
        tl__sr_shape sh;
        char what[96];
        memset(&a, 0, sizeof a);
        a.scales = &scale;
        if (tl_md_init_by_tag(&s, 4, dims, k[i].st, k[i].stag) || tl_md_init_by_tag(&d, 4, dims, k[i].dt, k[i].dtag) ||
            tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK || !on_kernel(&plan)) {
            CHECK_MSG(0, "gathered runs %zu refused", i);
            continue;
        }
        snprintf(what, sizeof what, "gathered runs %s %s -> %s %s", tl_dt_name(k[i].st), k[i].stag,
                 tl_dt_name(k[i].dt), k[i].dtag);
        tl__sr_pick_shape(&plan, &sh);
        CHECK_MSG(sh.shape == TL__SR_RUN && sh.stream == k[i].stream, "%s: shape %d stream %d", what, sh.shape,
                  sh.stream);
        compare(&s, &d, &a, 0, what);
    }
}

/* Conversions stream their stores (from 1 KiB of dst here) where beta is
   0 and every store is 16-byte aligned: contiguous runs (nchw -> nchw,
   with a tail of 16 values and less) and the rows of converting tiles
   (nhwc -> nchw, nChw16c <-> nchw), in runs side by side or of whole
   lines; not bytes widened to f32 in channel blocks (nChw8c <-> nhwc).
   Each type into f32 and back, dst on a line, 16-byte aligned
   and neither, and with beta (never streamed), against the scalar
   engine; TL_TEST_QUICK (the sanitizer and valgrind passes): dst on a
   line only. */
static void streamed_conversions(void)
{
    static const tl_data_type t[] = { TL_S8, TL_U8, TL_BF16, TL_F16, TL_S32 };
    static const tl_dim sizes[][4] = { { 2, 16, 8, 8 }, { 2, 7, 11, 13 }, { 3, 32, 4, 20 } };   /* dst >= 1 KiB */
    static const char *tags[][2] = { { "nchw", "nchw" }, { "nhwc", "nchw" }, { "nChw16c", "nchw" },
                                     { "nchw", "nChw16c" }, { "nChw8c", "nhwc" }, { "nhwc", "nChw8c" } };
    tl__sr_runs rs = tl__sr_one_run, outer = tl__sr_one_run, one = tl__sr_one_run;
    size_t i, j, g, k;
    /* on lines, 16-byte aligned only (streamed in halves), unaligned */
    static const int mis_of[] = { 0, 16, 4 };
    int m, dir, streamed[2] = { 0, 0 }, nmis = tl_test_cases(4) < 4 ? 1 : 3;
    CHECK(tl__sr_convert_streams(1, (char *)(uintptr_t)16, 100, rs, one));
    CHECK(!tl__sr_convert_streams(1, (char *)(uintptr_t)24, 100, rs, one));
    rs.count = 4;
    rs.d = 64;      /* runs side by side */
    CHECK(tl__sr_convert_streams(1, (char *)(uintptr_t)16, 64, rs, one));
    rs.d = 24;      /* side by side, but the next run starts off 16 bytes */
    CHECK(!tl__sr_convert_streams(1, (char *)(uintptr_t)64, 24, rs, one));
    rs.d = 256;     /* runs of whole lines, apart */
    CHECK(tl__sr_convert_streams(1, (char *)(uintptr_t)64, 128, rs, one));
    CHECK(!tl__sr_convert_streams(1, (char *)(uintptr_t)16, 128, rs, one));
    CHECK(!tl__sr_convert_streams(1, (char *)(uintptr_t)64, 96, rs, one));
    CHECK(!tl__sr_convert_streams(0, (char *)(uintptr_t)64, 128, rs, one));
    /* walks of runs side by side (4 x 32 bytes), outer.count of them:
       following one another, on whole lines apart, or apart off lines */
    rs.d = 32;
    outer.count = 3;
    outer.d = 128;
    CHECK(tl__sr_convert_streams(1, (char *)(uintptr_t)16, 32, rs, outer));
    outer.d = 192;
    CHECK(tl__sr_convert_streams(1, (char *)(uintptr_t)64, 32, rs, outer));
    CHECK(!tl__sr_convert_streams(1, (char *)(uintptr_t)16, 32, rs, outer));
    outer.d = 144;
    CHECK(!tl__sr_convert_streams(1, (char *)(uintptr_t)64, 32, rs, outer));
    /* single runs one after another, 24 bytes: the second starts off 16 */
    rs.count = 1;
    outer.d = 24;
    CHECK(!tl__sr_convert_streams(1, (char *)(uintptr_t)64, 24, rs, outer));
    outer.d = 32;
    CHECK(tl__sr_convert_streams(1, (char *)(uintptr_t)64, 32, rs, outer));
    for (i = 0; i < sizeof t / sizeof t[0]; ++i)
        for (j = 0; j < sizeof sizes / sizeof sizes[0]; ++j)
            for (g = 0; g < sizeof tags / sizeof tags[0]; ++g)
                for (dir = 0; dir < 2; ++dir)
                    for (k = 0; k < 2; ++k) {
                        tl_memory_desc s, d;
                        tl_reorder_attr a;
                        tl_reorder_plan plan;
                        tl__sr_shape sh;
                        char what[128];
                        memset(&a, 0, sizeof a);
                        a.beta = k ? 0.5f : 0.f;
                        if (tl_md_init_by_tag(&s, 4, sizes[j], dir ? t[i] : TL_F32, tags[g][0]) ||
                            tl_md_init_by_tag(&d, 4, sizes[j], dir ? TL_F32 : t[i], tags[g][1]) ||
                            tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK) {
                            CHECK_MSG(0, "streamed conversions %s refused", tl_dt_name(t[i]));
                            continue;
                        }
                        if (on_kernel(&plan)) {
                            tl__sr_pick_shape(&plan, &sh);
                            /* bytes widened in runs of 16 or fewer (channel blocks) store plainly,
                               where dst is four times the source (7 channels of nChw8c are not) */
                            int blocks = dir && tl_dt_size(t[i]) == 1 && sh.shape == TL__SR_RUN &&
                                         plan.loops[plan.nloops - 1].size <= 16 &&
                                         plan.dst_hi - plan.dst_lo >= 4 * (plan.src_hi - plan.src_lo);
                            if (sh.shape == TL__SR_RUN || sh.shape == TL__SR_TILE_CONVERT) {
                                CHECK_MSG(sh.stream == (!k && !blocks), "streamed conversions %s %s -> %s: stream %d with beta %g",
                                          tl_dt_name(t[i]), tags[g][0], tags[g][1], sh.stream, (double)a.beta);
                                streamed[sh.shape == TL__SR_TILE_CONVERT] += sh.stream;
                            }
                        }
                        for (m = 0; m < nmis; ++m) {
                            snprintf(what, sizeof what, "streamed conversions %s %s -> %s %s %ldx%ldx%ldx%ld beta %g mis %d",
                                    tl_dt_name(s.data_type), tags[g][0], tl_dt_name(d.data_type), tags[g][1],
                                    (long)sizes[j][0], (long)sizes[j][1], (long)sizes[j][2], (long)sizes[j][3],
                                    (double)a.beta, mis_of[m]);
                            compare(&s, &d, &a, mis_of[m], what);
                        }
                    }
    CHECK_MSG(streamed[0] >= 20 && streamed[1] >= 20, "streamed %d runs and %d tiles", streamed[0], streamed[1]);
    gathered_runs_plain();
}

/* Copies whose runs are contiguous on both sides but short (abcd ->
   acbd: runs of d; nhwc <-> nChw16c): a step copies all runs of the loop
   outside them, and of the loop outside that one when it is short, by
   16-byte vectors with an overlapping last one. Every run length of 1 to
   40 values (every remainder mod 16 bytes past the first vector), for
   each element size, misaligned too. */
/* Runs of fewer than 8 values against the scalar engine: an nChw4c or
   nChw2c block's channels (tl__sr_join_runs: same layout, per-channel
   scales repeating every 4 or 2 values) and runs gathered in dst's
   order (tl__sr_convert_short: nChw4c into nChw8c, nChw16c and nhwc,
   into nChw4c from nChw8c, nChw16c and nhwc), in 4, 8 and 16 bytes of src;
   pixel counts whose values are not in 16s (25, 17) and one of several
   chunks (256 pixels), under one scale, per-channel scales,
   per-channel scales with beta and zero points, and none (the plans
   that left slow staged blocks for these paths, tl__sr_short_fits). */
static void gathered_runs(void)
{
    static const tl_data_type pairs[][2] = { { TL_F32, TL_S8 }, { TL_F32, TL_BF16 }, { TL_BF16, TL_F32 },
                                             { TL_S8, TL_F32 }, { TL_F32, TL_U8 }, { TL_F16, TL_F32 } };
    static const char *tags[][2] = { { "nChw4c", "nChw4c" }, { "nChw2c", "nChw2c" },
                                     { "nChw4c", "nChw16c" }, { "nChw4c", "nhwc" },
                                     { "nChw16c", "nChw4c" }, { "nChw8c", "nChw4c" },
                                     { "nhwc", "nChw4c" }, { "OIhw4i4o", "OIhw16i16o" },
                                     { "ohwi", "OIhw4o4i" }, { "oihw", "OIhw4i16o4i" },
                                     { "nChw4c", "nChw8c" } };
    static const tl_dim sizes[][4] = { { 2, 32, 5, 5 }, { 3, 16, 17, 1 }, { 1, 16, 16, 16 },
                                       { 16, 32, 3, 3 }, { 64, 64, 1, 1 } };
    static float store[64];
    size_t i, j, k;
    int m;
    for (i = 0; i < 64; ++i) store[i] = (float)((int)i % 9 - 4) / 8.f + 0.25f;
    for (i = 0; i < sizeof pairs / sizeof pairs[0]; ++i)
        for (j = 0; j < sizeof tags / sizeof tags[0]; ++j)
            for (k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
                for (m = 0; m < 4; ++m) {
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    char what[128];
                    memset(&a, 0, sizeof a);
                    a.scales = m == 3 ? NULL : store;
                    a.scale_mask = m == 0 ? 0 : 2;
                    if (m == 2) {
                        a.beta = 0.5f;
                        a.src_zero_point = 3;
                        a.dst_zero_point = -2;
                    }
                    if (tl_md_init_by_tag(&s, 4, sizes[k], pairs[i][0], tags[j][0]) ||
                        tl_md_init_by_tag(&d, 4, sizes[k], pairs[i][1], tags[j][1])) {
                        CHECK_MSG(0, "%s -> %s refused", tags[j][0], tags[j][1]);
                        continue;
                    }
                    snprintf(what, sizeof what, "gathered runs %s -> %s, %s -> %s, %ldx%ld, attr %d",
                             tags[j][0], tags[j][1], tl_dt_name(pairs[i][0]), tl_dt_name(pairs[i][1]),
                             (long)sizes[k][1], (long)(sizes[k][2] * sizes[k][3]), m);
                    compare(&s, &d, &a, (int)(k % 2) * 4, what);
                }
}

static void short_runs(void)
{
    static const tl_data_type t[] = { TL_S8, TL_BF16, TL_F32, TL_F64 };
    size_t i;
    tl_dim n;
    for (i = 0; i < sizeof t / sizeof t[0]; ++i)
        for (n = 1; n <= 40; ++n) {
            tl_dim dims[4] = { 2, 5, 3, 0 };
            tl_memory_desc s, d;
            tl_reorder_plan plan;
            tl__sr_shape sh;
            char what[96];
            size_t bytes = (size_t)n * tl_dt_size(t[i]);
            dims[3] = n;
            if (tl_md_init_by_tag(&s, 4, dims, t[i], "abcd") ||
                tl_md_init_by_tag(&d, 4, dims, t[i], "acbd")) {
                CHECK_MSG(0, "short runs of %ld refused", (long)n);
                continue;
            }
            snprintf(what, sizeof what, "short runs %s x %ld", tl_dt_name(t[i]), (long)n);
            compare(&s, &d, NULL, (int)(n % 3), what);
            if (tl_reorder_plan_init(&plan, &s, &d, NULL) == TL_OK && on_kernel(&plan)) {
                tl__sr_pick_shape(&plan, &sh);
                CHECK_MSG(sh.shape != TL__SR_RUN || bytes < 16 || (sh.K >= 0 && sh.K2 >= 0),
                          "%s: the runs went one by one", what);
            }
        }
}

/* Runs of 8 back to back in dst that convert in pairs as runs of 16
   (TL__SR_EACH_PAIR): nChw8c -> nChw8c, and nhwc -> nhwc with 8
   channels (the pairs' halves neighbour in src too); nhwc -> nChw8c (8
   channels of two pixels); nChw8c -> nhwc (two blocks, scales that
   continue); nChw8c -> nChw16c (the pairs along the pixels) - per
   channel, with one scale, none, or a zero point (one run at a time);
   odd and even pixel and block counts (the last run of an odd count
   alone), 8 to 48 channels (nChw16c's second block: scales from 16
   on), padded channels, dst on a cache line (streamed:
   TL__SR_STREAM_MIN is 1 KiB here) or 4 bytes off. */
static void paired_runs(void)
{
    static const struct { tl_data_type s, d; } t[] = {
        { TL_F32, TL_S8 }, { TL_F32, TL_U8 }, { TL_F32, TL_F32 }, { TL_S8, TL_F32 },
        { TL_F32, TL_BF16 }, { TL_BF16, TL_F32 }, { TL_F32, TL_S32 }, { TL_U8, TL_F32 }
    };
    static const struct { const char *s, *d; int c8; } tags[] = {
        { "nChw8c", "nChw8c", 0 }, { "nhwc", "nhwc", 1 }, { "nhwc", "nChw8c", 0 },
        { "nChw8c", "nhwc", 0 }, { "nChw8c", "nChw16c", 0 }
    };
    static const tl_dim hw[][2] = { { 1, 1 }, { 1, 3 }, { 2, 2 }, { 7, 7 }, { 3, 5 }, { 16, 9 } };
    size_t i, j, g;
    int v, nrun = 0, n = 0;
    for (g = 0; g < sizeof tags / sizeof tags[0]; ++g)
        for (i = 0; i < sizeof t / sizeof t[0]; ++i)
            for (j = 0; j < sizeof hw / sizeof hw[0]; ++j)
                for (v = 0; v < 8; ++v) {
                    tl_dim dims[4] = { 2, 0, 0, 0 };
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    tl__sr_shape sh;
                    char what[160];
                    float *scales;      /* exactly as many as the plan may read */
                    tl_dim c, ns;
                    dims[1] = tags[g].c8 ? 8 : 8 * (tl_dim)(1 + j) - (v == 6 ? 3 : 0);
                    dims[2] = hw[j][0];
                    dims[3] = hw[j][1];
                    memset(&a, 0, sizeof a);
                    a.scale_mask = v % 4 == 1 ? 0 : 2;      /* common, else per channel */
                    ns = a.scale_mask ? dims[1] : 1;
                    scales = malloc((size_t)ns * sizeof *scales);
                    if (!scales) {
                        CHECK_MSG(0, "paired runs: out of memory");
                        continue;
                    }
                    for (c = 0; c < ns; ++c)
                        scales[c] = (float)(c % 5 + 1) / 4.f + (c % 2 ? 60.f : 0.f);
                    a.scales = v % 4 == 0 ? NULL : scales;
                    if (v == 4 && t[i].d != TL_BF16 && t[i].d != TL_F32) a.dst_zero_point = 2;
                    if (tl_md_init_by_tag(&s, 4, dims, t[i].s, tags[g].s) ||
                        tl_md_init_by_tag(&d, 4, dims, t[i].d, tags[g].d)) {
                        CHECK_MSG(0, "paired runs %s -> %s refused", tags[g].s, tags[g].d);
                        free(scales);
                        continue;
                    }
                    snprintf(what, sizeof what, "paired runs %s -> %s %s -> %s 2x%ldx%ldx%ld scales %d mask %d zp %d",
                             tl_dt_name(t[i].s), tl_dt_name(t[i].d), tags[g].s, tags[g].d, (long)dims[1],
                             (long)dims[2], (long)dims[3], a.scales != NULL, a.scale_mask, (int)a.dst_zero_point);
                    compare(&s, &d, &a, v / 4 * 4, what);
                    ++n;
                    if (plan_shape(&s, &d, &a, &sh) && sh.shape == TL__SR_RUN) ++nrun;
                    free(scales);
                }
    /* most of them run as runs of 8 (the rest: copies that merge, and
       tiles) */
    CHECK_MSG(2 * nrun > n, "paired runs: %d of %d plans of runs", nrun, n);
}

/* Runs that join (tl__sr_joins): the pixels of nChw2c, nChw4c, nChw8c
   and nChw16c into the same layout, each pixel's channels a run whose
   scales (per channel) keep the plan from merging the pixels, converted
   as one run a channel block with scales that repeat every 16 values;
   1 to 40 blocks (more than TL__SR_JOIN_RUNS: the patterns in two
   calls), 1 to 196 pixels (runs of 16 values and tails of 4, 8 or 12
   values), per-channel scales with and without beta and zero points
   (the last values gathered where beta reads dst), one scale, and dst
   on a cache line (streamed) or 4 bytes off. The per-channel plans with
   more than one pixel must join, a step for each image. */
static void joined_runs(void)
{
    static const struct { tl_data_type s, d; } t[] = {
        { TL_F32, TL_S8 }, { TL_F32, TL_U8 }, { TL_F32, TL_F32 }, { TL_F32, TL_BF16 },
        { TL_S8, TL_F32 }, { TL_BF16, TL_F32 }, { TL_F32, TL_S32 }
    };
    static const struct { const char *tag; tl_dim blk; } tags[] = {
        { "nChw2c", 2 }, { "nChw4c", 4 }, { "nChw8c", 8 }, { "nChw16c", 16 }
    };
    static const tl_dim hw[][2] = { { 1, 1 }, { 1, 3 }, { 7, 7 }, { 14, 14 }, { 5, 3 } };
    static const tl_dim blocks[] = { 1, 3, 40 };
    size_t i, g, j, b;
    int v, joined = 0, per_channel = 0;
    for (g = 0; g < sizeof tags / sizeof tags[0]; ++g)
        for (i = 0; i < sizeof t / sizeof t[0]; ++i)
            for (j = 0; j < sizeof hw / sizeof hw[0]; ++j)
                for (b = 0; b < sizeof blocks / sizeof blocks[0]; ++b)
                    for (v = 0; v < 4; ++v) {
                        tl_dim dims[4] = { 2, 0, 0, 0 }, c;
                        tl_memory_desc s, d;
                        tl_reorder_attr a;
                        tl__sr_shape sh;
                        tl_reorder_plan plan;
                        float scales[40 * 16];
                        char what[160];
                        if (blocks[b] == 40 && hw[j][0] * hw[j][1] > 49) continue;
                        dims[1] = tags[g].blk * blocks[b];
                        dims[2] = hw[j][0];
                        dims[3] = hw[j][1];
                        for (c = 0; c < dims[1]; ++c) scales[c] = (float)(c % 7 + 1) / 4.f + (float)(c % 3) * 20.f;
                        memset(&a, 0, sizeof a);
                        a.scales = scales;
                        a.scale_mask = v == 3 ? 0 : 2;
                        if (v == 1) {
                            a.beta = 0.5f;
                            a.src_zero_point = t[i].s == TL_S8 ? 3 : 0;
                            a.dst_zero_point = t[i].d == TL_S8 || t[i].d == TL_U8 ? -2 : 0;
                        }
                        if (v == 2 && (t[i].d == TL_S8 || t[i].d == TL_U8)) a.dst_zero_point = 5;
                        if (tl_md_init_by_tag(&s, 4, dims, t[i].s, tags[g].tag) ||
                            tl_md_init_by_tag(&d, 4, dims, t[i].d, tags[g].tag)) {
                            CHECK_MSG(0, "joined runs %s refused", tags[g].tag);
                            continue;
                        }
                        snprintf(what, sizeof what, "joined runs %s %s -> %s 2x%ldx%ldx%ld attr %d",
                                 tags[g].tag, tl_dt_name(t[i].s), tl_dt_name(t[i].d), (long)dims[1],
                                 (long)dims[2], (long)dims[3], v);
                        compare(&s, &d, &a, v % 2 * 4, what);
                        if (a.scale_mask == 0 || dims[2] * dims[3] == 1 ||
                            tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK || !on_kernel(&plan))
                            continue;
                        ++per_channel;
                        tl__sr_pick_shape(&plan, &sh);
                        if (sh.shape == TL__SR_RUN && sh.K >= 0 && tl__sr_plan_joins(&plan, sh.K) &&
                            (blocks[b] == 1 || sh.K2 >= 0))
                            ++joined;
                        else
                            CHECK_MSG(0, "%s: the runs did not join in one step an image", what);
                    }
    CHECK_MSG(per_channel > 0 && joined == per_channel, "joined runs: %d of %d per-channel plans joined",
              joined, per_channel);
}

/* Converting plans that must go as tiles, never as staged blocks,
   against the scalar engine:
   - dst rows of fewer than 16 values (the 3 or 5 channels of nhwc,
     nChw4c, nChw8c) over a long pixel loop (81 pixels: one chunk, not in
     16s): converted before their transpose, or the wide way for 8 values
     under one scale; one scale, per-channel scales and a zero point.
     With beta they must take another shape (the conversion would come
     before dst is read);
   - pixel loops whose size has no divisor that fills a staged block (19
     x 19 and 23 x 23 pixels of 116 channels), which would cut them into
     runs of 19 and 23 values. */
static void converting_tiles(void)
{
    static const struct {
        tl_data_type dt; const char *tag; tl_dim c, hw; int mask; float beta;
    } k[] = {
        { TL_S8, "nhwc", 3, 9, 0, 0 },      { TL_BF16, "nhwc", 5, 9, -1, 0 },
        { TL_U8, "nChw4c", 8, 9, 2, 0 },    { TL_F32, "nChw4c", 8, 9, 2, 0 },
        { TL_S8, "nChw8c", 16, 9, 0, 0 },   { TL_S8, "nChw8c", 16, 9, 2, 0 },
        { TL_BF16, "nChw4c", 4, 9, -1, 0 }, { TL_S8, "nhwc", 3, 9, 2, 0.5f },
        { TL_F32, "nChw4c", 8, 9, 2, 0.5f },
        { TL_S8, "nhwc", 116, 19, 0, 0 },   { TL_S8, "nhwc", 116, 23, 0, 0 },
        { TL_U8, "nhwc", 116, 19, 0, 0 },   { TL_U8, "nhwc", 116, 23, 0, 0 },
        { TL_BF16, "nhwc", 116, 19, 0, 0 }, { TL_BF16, "nhwc", 116, 23, 0, 0 },
    };
    static float scales[116];
    size_t i;
    for (i = 0; i < 116; ++i) scales[i] = 0.25f + 0.125f * (float)(i % 16);
    for (i = 0; i < sizeof k / sizeof k[0]; ++i) {
        tl_dim dims[4] = { 0, 0, 0, 0 };
        tl_memory_desc s, d;
        tl_reorder_attr a;
        tl_reorder_plan plan;
        tl__sr_shape sh;
        long simd = cases_simd, perm = cases_perm;
        char what[128];
        dims[0] = k[i].c > 16 ? 1 : 2;
        dims[1] = k[i].c;
        dims[2] = dims[3] = k[i].hw;
        memset(&a, 0, sizeof a);
        if (k[i].mask >= 0) {
            a.scales = scales;
            a.scale_mask = k[i].mask;
        }
        a.beta = k[i].beta;
        a.dst_zero_point = k[i].dt == TL_U8 && k[i].c <= 16 ? 7 : 0;
        if (tl_md_init_by_tag(&s, 4, dims, TL_F32, "nchw") ||
            tl_md_init_by_tag(&d, 4, dims, k[i].dt, k[i].tag) ||
            tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK) {
            CHECK_MSG(0, "converting tiles refused");
            continue;
        }
        snprintf(what, sizeof what, "converting tiles f32 -> %s %s, %ld channels, %ldx%ld, mask %d, beta %g",
                tl_dt_name(k[i].dt), k[i].tag, (long)k[i].c, (long)k[i].hw, (long)k[i].hw, k[i].mask,
                (double)k[i].beta);
        compare(&s, &d, &a, 0, what);
        tl__sr_pick_shape(&plan, &sh);
        CHECK_MSG(cases_simd == simd + 1 && (k[i].beta != 0 || cases_perm == perm),
                  "%s: on the kernel %ld, staged blocks %ld", what, cases_simd - simd, cases_perm - perm);
        CHECK_MSG((sh.shape == TL__SR_TILE_CONVERT) == (k[i].beta == 0), "%s: shape %d", what, sh.shape);
    }
}

/* Blocks of 4 channels or inputs into plain layouts (nChw4c -> nchw,
   OIhw4i4o -> oihw) that convert: over more than 16 pixels or taps they
   must go as converting tiles, never as staged blocks, 4-byte sources
   in 4 x 4 blocks, 2- and 1-byte ones by the narrow transpose
   (tl__sr_stage_tile: AVX2's byte planes for bytes; 4277 pixels: more
   than a stage holds of them, 4096 bytes or 2048 words); over 16 or
   fewer they keep the blocks, save per-channel scales (tiles before
   too). Pixel counts leave every remainder of a band's 8 columns; 6
   channels end in a partial block (tails). One scale, and per-channel
   ones. */
static void blocks_of_four(void)
{
    static const struct { tl_data_type sdt, ddt; } t[] = {
        { TL_F32, TL_BF16 }, { TL_F32, TL_S8 }, { TL_S32, TL_F32 }, { TL_F32, TL_F32 },
        { TL_BF16, TL_F32 }, { TL_F16, TL_F32 }, { TL_BF16, TL_S8 }, { TL_F16, TL_BF16 },
        { TL_S8, TL_F32 }, { TL_U8, TL_F32 }, { TL_S8, TL_S8 }, { TL_U8, TL_BF16 },
    };
    static const struct { const char *st, *dt; tl_dim c, h, w; } k[] = {
        { "nChw4c", "nchw", 8, 3, 7 },  { "nChw4c", "nchw", 8, 5, 5 },  { "nChw4c", "nchw", 4, 4, 7 },
        { "nChw4c", "nchw", 12, 2, 9 }, { "nChw4c", "nchw", 8, 6, 5 },  { "nChw4c", "nchw", 8, 3, 11 },
        { "nChw4c", "nchw", 8, 1, 23 }, { "nChw4c", "nchw", 8, 7, 7 },  { "nChw4c", "nchw", 8, 4, 4 },
        { "nChw4c", "nchw", 6, 5, 5 },  { "OIhw4i4o", "oihw", 24, 1, 1 }, { "OIhw4i4o", "oihw", 8, 3, 3 },
        { "OIhw4i4o", "oihw", 16, 1, 1 }, { "nChw4c", "nchw", 8, 47, 91 },
    };
    static float scales[64];
    size_t i, j;
    int m, tiles = 0;
    for (i = 0; i < 64; ++i) scales[i] = 0.25f + 0.125f * (float)(i % 16);
    for (i = 0; i < sizeof t / sizeof t[0]; ++i)
        for (j = 0; j < sizeof k / sizeof k[0]; ++j)
            for (m = -1; m <= 1; ++m) {
                tl_dim dims[4] = { 0, 0, 0, 0 };
                int weights = k[j].st[0] == 'O';
                tl_memory_desc s, d;
                tl_reorder_attr a;
                tl_reorder_plan plan;
                tl__sr_shape sh;
                long perm = cases_perm;
                char what[128];
                if (m < 0 && t[i].sdt == t[i].ddt) continue;     /* a plain copy */
                dims[0] = weights ? 40 : 2;
                dims[1] = k[j].c;
                dims[2] = k[j].h;
                dims[3] = k[j].w;
                memset(&a, 0, sizeof a);
                if (m >= 0) {
                    a.scales = scales;
                    a.scale_mask = m ? 1 << (weights ? 0 : 1) : 0;
                }
                if (tl_md_init_by_tag(&s, 4, dims, t[i].sdt, k[j].st) ||
                    tl_md_init_by_tag(&d, 4, dims, t[i].ddt, k[j].dt) ||
                    tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK) {
                    CHECK_MSG(0, "blocks of four refused");
                    continue;
                }
                snprintf(what, sizeof what, "blocks of four %s -> %s %s -> %s %ldx%ldx%ldx%ld, scales %d",
                         tl_dt_name(t[i].sdt), tl_dt_name(t[i].ddt), k[j].st, k[j].dt, (long)dims[0],
                         (long)dims[1], (long)dims[2], (long)dims[3], m);
                compare(&s, &d, &a, (int)(j % 4) * 4, what);
                if (plan.has_tails || !on_kernel(&plan)) continue;
                tl__sr_pick_shape(&plan, &sh);
                /* L: the pixels, the taps, or the inputs of a 1x1 kernel;
                   per-channel scales over a short L never took blocks */
                if (plan.loops[plan.nloops - 1].size > 16)
                    CHECK_MSG(sh.shape == TL__SR_TILE_CONVERT && cases_perm == perm,
                              "%s: shape %d, staged blocks %ld", what, sh.shape, cases_perm - perm);
                else if (m < 1)
                    CHECK_MSG(cases_perm > perm, "%s: not in staged blocks", what);
                tiles += sh.shape == TL__SR_TILE_CONVERT;
            }
    printf("blocks of four: %d plans as converting tiles\n", tiles);
}

/* Runs of 8 or 16 f32 values side by side in dst, converted to bf16, s8
   or u8 (tl__sr16_side_runs on AVX-512): pieces from one loop or from
   groups that span two outer iterations (nChw8c -> nChw16c, whose odd
   pixel counts leave a remainder to the other loops), no scales, one,
   one per channel, one per channel and row (scales of a run h apart:
   not taken), zero points, beta (not taken: it reads dst), pieces
   that share a vector out of dst's order (nChw8c's neighbouring pixels)
   or in it. Enough plans must fit (arithmetic, the same on any
   machine); their bytes are compared on whatever path takes them. */
/* Whether a whole step of plan p (TL__SR_RUN, as tl__sr_convert_nest
   has it) fits tl__sr16_side_runs in groups of np pieces: 0 no, 1 yes,
   2 with pieces paired out of dst's order; *side: its walk, its stores
   streamed (nt) or not. */
static int side_walk(const tl_reorder_plan *p, int np, int nt, tl__sr_side *side)
{
    tl_dim lo[TL_REORDER_MAX_LOOPS] = { 0 }, hi[TL_REORDER_MAX_LOOPS];
    tl__sr_scales sc = tl__sr_no_scales;
    tl__sr_runs rs, outer = tl__sr_one_run;
    tl__sr_shape sh;
    int l, L = p->nloops - 1;
    tl__sr_pick_shape(p, &sh);
    if (sh.shape != TL__SR_RUN || sh.K < 0) return 0;
    for (l = 0; l < p->nloops; ++l) hi[l] = p->loops[l].size;
    sc.sc = p->scales;
    sc.sstep = p->loops[L].scale_stride;
    rs = tl__sr_loop_runs(p, sh.K, lo, hi);
    rs.nt = nt;
    if (sh.K2 >= 0) outer = tl__sr_loop_runs(p, sh.K2, lo, hi);
    if (!tl__sr_side_fits(p, sc, p->loops[L].size, rs, outer, tl__sr_plain(p, sc, rs)) ||
        tl__sr_side_init(side, p->loops[L].size, np, sc.sstep, rs, outer) == 0)
        return 0;
    return side->idx == (const void *)&side->perm ? 2 : 1;
}

static int side_step(const tl_reorder_plan *p, int np)
{
    tl__sr_side side;
    return side_walk(p, np, 0, &side);
}

static void side_runs(void)
{
    static const tl_data_type t[] = { TL_BF16, TL_S8, TL_U8 };
    static const char *tags[][2] = { { "nChw8c", "nChw16c" }, { "nhwc", "nChw8c" }, { "nChw16c", "nChw8c" },
                                     { "nChw8c", "nhwc" },    { "nChw16c", "nhwc" }, { "nhwc", "nChw16c" } };
    static const tl_dim sizes[][4] = { { 2, 32, 3, 5 }, { 1, 16, 2, 2 }, { 3, 48, 1, 7 }, { 2, 64, 4, 4 } };
    static const tl_dim wdims[4] = { 16, 16, 3, 4 };
    static float scales[4096];
    size_t i, n;
    int fits = 0, moved = 0;
    for (i = 0; i < 4096; ++i) scales[i] = 0.5f + 0.25f * (float)(i % 7);
    /* n: the dst type, the tags, the size and the attr (6 of them) */
    for (n = 0; n < 3 * 6 * 4 * 6; ++n) {
        size_t ti = n / 144, g = n / 24 % 6, j = n / 6 % 4;
        int m = (int)(n % 6) - 1, fit;
        tl_memory_desc s, d;
        tl_reorder_attr a;
        tl_reorder_plan plan;
        char what[128];
        memset(&a, 0, sizeof a);
        if (m == 0 || m == 1 || m == 4) {   /* 4: channels and rows, scales h apart */
            a.scales = scales;
            a.scale_mask = m == 1 ? 2 : m == 4 ? 6 : 0;
        }
        if (m == 2) a.dst_zero_point = t[ti] == TL_S8 ? -3 : 7;
        if (m == 3) a.beta = 0.5f;
        if (tl_md_init_by_tag(&s, 4, sizes[j], TL_F32, tags[g][0]) ||
            tl_md_init_by_tag(&d, 4, sizes[j], t[ti], tags[g][1]) ||
            tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK) {
            CHECK_MSG(0, "side runs %s refused", tl_dt_name(t[ti]));
            continue;
        }
        snprintf(what, sizeof what, "side runs f32 -> %s %s -> %s %ldx%ldx%ldx%ld attr %d", tl_dt_name(t[ti]),
                 tags[g][0], tags[g][1], (long)sizes[j][0], (long)sizes[j][1], (long)sizes[j][2],
                 (long)sizes[j][3], m);
        compare(&s, &d, &a, (int)(j % 2) * 4, what);
        fit = on_kernel(&plan) && !plan.has_tails ? side_step(&plan, t[ti] == TL_BF16 ? 4 : 8) : 0;
        CHECK_MSG(!fit || m != 3, "%s: side runs with beta", what);
        fits += fit > 0;
        moved += fit == 2;
    }
    /* converting tiles stage rows of 16 a values whose scales (mask 3:
       a and b) lie 16 apart: never one for all */
    for (i = 0; i < sizeof t / sizeof t[0]; ++i) {
        tl_memory_desc s, d;
        tl_reorder_attr a;
        memset(&a, 0, sizeof a);
        a.scales = scales;
        a.scale_mask = 3;
        if (tl_md_init_by_tag(&s, 4, wdims, TL_F32, "abcd") || tl_md_init_by_tag(&d, 4, wdims, t[i], "Abcd16a")) {
            CHECK_MSG(0, "side runs: Abcd16a refused");
            continue;
        }
        compare(&s, &d, &a, 0, "side runs f32 -> Abcd16a, scales over a and b");
    }
    printf("side runs: %d plans fit, %d of them with pieces paired out of dst's order\n", fits, moved);
    CHECK_MSG(fits >= 150 && moved >= 20, "side runs: only %d plans fit, %d paired", fits, moved);
}

/* Side-by-side runs walked in source order (tl__sr_side_init): f32 ->
   bf16, s8 and scaled u8 from nhwc (ndhwc, nChw16c) into channel blocks
   of 8 or 16, planes of 1 to 81 pixels (64 and more: the blocks taken
   into a step for it, tl__sr_side_src_order) with a remainder of runs,
   1 to 128 blocks (a row of 4 KiB), no scales, one per channel, zero
   points, one or two threads, dst on a line (streamed from 1 KiB,
   TL__SR_STREAM_MIN here) or 4 bytes off. Each plan's whole step must
   fit the walk, in source order where a group's runs come from one
   block (else groups span blocks, or there is one), streamed too where
   it has at most TL__SR_SIDE_STREAMS blocks or rows of 4 KiB. */
static void side_runs_src_order(void)
{
    static const tl_data_type t[] = { TL_BF16, TL_S8, TL_U8 };
    static const char *tags[][2] = { { "nhwc", "nChw8c" }, { "nhwc", "nChw16c" }, { "nChw16c", "nChw8c" },
                                     { "ndhwc", "nCdhw8c" } };
    static const tl_dim sizes[][5] = { { 1, 16, 1, 5, 1 }, { 2, 24, 9, 9, 1 }, { 1, 96, 8, 9, 1 },
                                       { 1, 1024, 1, 6, 1 }, { 2, 64, 5, 13, 1 }, { 1, 160, 3, 3, 2 } };
    static float scales[1024];
    size_t i, n;
    int fits = 0, src_first = 0, dst_first = 0;
    for (i = 0; i < 1024; ++i) scales[i] = 0.25f + 0.125f * (float)(i % 11);
    /* n: the dst type, the tags, the size and the attr (4 of them) */
    for (n = 0; n < 3 * 4 * 6 * 4; ++n) {
        size_t ti = n / 96, g = n / 24 % 4, j = n / 4 % 6;
        int m = (int)(n % 4), five = g == 3, mis = (int)(n % 3 == 1) * 4, np = t[ti] == TL_BF16 ? 4 : 8, whole, fit;
        tl_dim dims[5];
        tl_memory_desc s, d;
        tl_reorder_attr a;
        tl_reorder_plan plan;
        tl__sr_side side;
        char what[160];
        memcpy(dims, sizes[j], sizeof dims);
        if (!five) dims[3] *= dims[4];
        memset(&a, 0, sizeof a);
        a.nthreads = m == 3 ? 2 : 1;
        if (m == 1 || t[ti] == TL_U8) {
            a.scales = scales;
            a.scale_mask = m == 1 ? 2 : 0;
        }
        if (m == 2) a.dst_zero_point = t[ti] == TL_S8 ? -5 : 9;
        if (tl_md_init_by_tag(&s, five ? 5 : 4, dims, TL_F32, tags[g][0]) ||
            tl_md_init_by_tag(&d, five ? 5 : 4, dims, t[ti], tags[g][1]) ||
            tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK) {
            CHECK_MSG(0, "side runs in source order %s refused", tl_dt_name(t[ti]));
            continue;
        }
        snprintf(what, sizeof what, "side runs in source order f32 -> %s %s -> %s %ldx%ldx%ldx%ld%s attr %d dst +%d",
                 tl_dt_name(t[ti]), tags[g][0], tags[g][1], (long)dims[0], (long)dims[1], (long)dims[2],
                 (long)dims[3], five ? "x.." : "", m, mis);
        compare(&s, &d, &a, mis, what);
        if (!on_kernel(&plan) || plan.has_tails) continue;
        /* a group's runs all from one block, and more than one block */
        whole = dims[2] * dims[3] * (five ? dims[4] : 1) >= np / (g == 1 ? 2 : 1) && (g != 1 || dims[1] > 16);
        fit = side_walk(&plan, np, 0, &side);
        CHECK_MSG(fit ? (side.nb > 1) == whole : !whole, "%s: %s source order", what, whole ? "not in" : "in");
        if (!fit) continue;
        if (whole && side_walk(&plan, np, 1, &side)) {
            int want = side.no <= TL__SR_SIDE_STREAMS || dims[1] * 4 % 4096 == 0 ? side.no : 1;
            CHECK_MSG(side.nb == want, "%s: streamed, %ld of %ld blocks a pass", what, (long)side.nb, (long)side.no);
            src_first += side.nb > 1;
            dst_first += side.nb == 1;
        }
        ++fits;
    }
    printf("side runs in source order: %d plans fit, streamed %d in source order, %d in dst's\n", fits, src_first,
           dst_first);
    CHECK_MSG(fits >= 200 && src_first >= 100 && dst_first >= 20, "side runs in source order: %d plans fit (%d, %d)",
              fits, src_first, dst_first);
}

/* Plan p of a converted_steps case (st -> dt, tags tag, 4-D dims, attr
   a), its bytes compared with the scalar engine's (dst mis bytes off);
   what names it. 0 where refused (a failed check). */
static int converted_step(tl_data_type st, tl_data_type dt, const char *const *tag, const tl_dim *dims,
                          const tl_reorder_attr *a, int mis, const char *extra, tl_reorder_plan *p, char *what,
                          size_t wn)
{
    tl_memory_desc s, d;
    snprintf(what, wn, "converted steps %s -> %s %s -> %s %ldx%ldx%ldx%ld%s", tl_dt_name(st), tl_dt_name(dt), tag[0],
             tag[1], (long)dims[0], (long)dims[1], (long)dims[2], (long)dims[3], extra);
    if (tl_md_init_by_tag(&s, 4, dims, st, tag[0]) || tl_md_init_by_tag(&d, 4, dims, dt, tag[1]) ||
        tl_reorder_plan_init(p, &s, &d, a) != TL_OK) {
        CHECK_MSG(0, "%s refused", what);
        return 0;
    }
    compare(&s, &d, a, mis, what);
    return 1;
}

/* Converting steps of runs that walk the loop outside K2 too (K3:
   tl__sr_convert_loops, tl__sr_convert_nest): nChw8c <-> nChw16c, whose
   steps (a 16-channel block's H x W pixels, 64 source bytes each from
   f32) take it where they move at most TL__SR_TILE_STEP bytes, into
   bf16, s8, u8 and f32, the walk side by side for all of a step's
   blocks in one setup where it fits; no scales, one, per channel, per
   row (one scale a row of runs, its index moving with K3: h), per
   image, zero points; one to three threads (loops[0] in the step, cut
   in ranges). And widening plans whose pixel loop (K) moves few bytes a
   block take the blocks' loop into the step (K2, tl__sr_runs_small).
   Every plan's bytes equal the scalar engine's. */
static void converted_steps(void)
{
    static const tl_data_type t[] = { TL_BF16, TL_S8, TL_U8, TL_F32 };
    static const char *tags[][2] = { { "nChw8c", "nChw16c" }, { "nChw16c", "nChw8c" } };
    static const tl_dim sizes[][4] = { { 2, 32, 3, 5 }, { 1, 64, 4, 6 }, { 3, 48, 7, 7 }, { 1, 32, 33, 32 } };
    static float scales[4096];
    size_t i, n;
    int walks = 0;
    for (i = 0; i < 4096; ++i) scales[i] = 0.25f + 0.125f * (float)(i % 13);
    /* n: the dst type, the tags, the size, the attr (6) and the threads (3) */
    for (n = 0; n < 4 * 2 * 4 * 6 * 3; ++n) {
        size_t ti = n / 144, g = n / 72 % 2, j = n / 18 % 4;
        int m = (int)(n / 3 % 6), nt = (int)(n % 3) + 1, want;
        tl_reorder_attr a;
        tl_reorder_plan plan;
        tl__sr_shape sh;
        char what[160], extra[32];
        memset(&a, 0, sizeof a);
        a.nthreads = nt;
        if (m >= 1 && m <= 4) {
            a.scales = scales;
            a.scale_mask = m == 1 ? 0 : m == 2 ? 2 : m == 3 ? 4 : 1;
        }
        if (m == 5) a.dst_zero_point = t[ti] == TL_U8 ? 9 : -4;
        snprintf(extra, sizeof extra, " attr %d, %d threads", m, nt);
        if (!converted_step(TL_F32, t[ti], tags[g], sizes[j], &a, (int)(n % 4 == 1) * 4, extra, &plan, what,
                            sizeof what))
            continue;
        if (!on_kernel(&plan) || plan.has_tails || t[ti] == TL_F32) continue;
        tl__sr_pick_shape(&plan, &sh);
        if (sh.shape != TL__SR_RUN || sh.K2 < 1) continue;
        want = (m == 3 ? 1 : sizes[j][2]) * sizes[j][3] * 64 <= TL__SR_TILE_STEP;  /* a row's scale: a row a step */
        CHECK_MSG((sh.K3 == sh.K2 - 1) == want, "%s: K3 %d, K2 %d, the step's loop outside %s", what, sh.K3, sh.K2,
                  want ? "left out" : "taken");
        walks += sh.K3 >= 0;
    }
    /* widened into f32 (s8, u8, bf16 nhwc or nChw16c -> nChw8c or
       nChw16c): a pixel loop of at most TL__SR_SMALL_RUNS source bytes a
       block brings the blocks' loop into the step (K2) */
    for (n = 0; n < 3 * 3 * 4 * 2; ++n) {
        static const tl_data_type st[] = { TL_S8, TL_U8, TL_BF16 };
        static const char *wtags[][2] = { { "nhwc", "nChw8c" }, { "nChw16c", "nChw8c" }, { "nhwc", "nChw16c" } };
        static const tl_dim wsizes[][4] = { { 2, 64, 10, 10 }, { 1, 32, 33, 32 }, { 1, 32, 64, 64 }, { 3, 48, 7, 7 } };
        size_t ti = n / 24, g = n / 8 % 3, j = n / 2 % 4;
        int nt = (int)(n % 2) + 1, want;
        tl_dim blk = g == 2 ? 16 : 8;
        tl_reorder_attr a;
        tl_reorder_plan plan;
        tl__sr_shape sh;
        char what[160];
        memset(&a, 0, sizeof a);
        a.nthreads = nt;
        if (!converted_step(st[ti], TL_F32, wtags[g], wsizes[j], &a, (int)(n % 3 == 1) * 4,
                            nt > 1 ? ", 2 threads" : "", &plan, what, sizeof what))
            continue;
        if (!on_kernel(&plan) || plan.has_tails || nt > 1) continue;  /* threads may cut the pixels */
        tl__sr_pick_shape(&plan, &sh);
        if (sh.shape != TL__SR_RUN || sh.K < 1 || plan.loops[sh.K].size < 64) continue;
        want = wsizes[j][2] * wsizes[j][3] * blk * (tl_dim)tl_dt_size(st[ti]) <= TL__SR_SMALL_RUNS;
        CHECK_MSG((sh.K2 == sh.K - 1) == want, "%s: K2 %d, K %d, the blocks' loop %s", what, sh.K2, sh.K,
                  want ? "left out" : "taken");
        walks += want;
    }
    printf("converted steps: %d plans walk the loop outside K2 or K\n", walks);
    CHECK_MSG(walks >= 110, "converted steps: only %d plans walk the loop outside K2 or K", walks);
}

/* Conversions between two types other than f32 (s8, u8, s32, bf16,
   f16 into one another: tl__sr16_convert_any with AVX-512, AVX2's and
   SSE2's shared loops without): dense runs with a masked last vector
   (2x19x5x7, streamed where dst starts on a line), a run per channel
   with its own scale (convert_runs' runs of 77, no last values
   gathered), nhwc -> nChw16c (runs of 16), nChw8c -> nhwc (runs of 8 in
   pairs, three a pixel: one left alone); no scales, one, per channel,
   per channel with beta and both zero points. The scales are exactly as
   many as the plan reads (allocated: the sanitizers see a read past
   them, as a vector of scales for a masked last vector made). */
static void other_pairs(void)
{
    static const tl_data_type t[] = { TL_S8, TL_U8, TL_S32, TL_BF16, TL_F16 };
    static const char *tags[][2] = { { "nchw", "nchw" }, { "nchw", "nchw" }, { "nhwc", "nChw16c" },
                                     { "nChw8c", "nhwc" } };
    static const tl_dim sizes[][4] = { { 2, 19, 5, 7 }, { 3, 5, 7, 11 }, { 2, 32, 3, 5 }, { 2, 24, 3, 5 } };
    float *scales = (float *)malloc(32 * sizeof(float));
    size_t n;
    if (!scales) {
        CHECK_MSG(0, "other pairs: no memory");
        return;
    }
    for (n = 0; n < 32; ++n) scales[n] = 0.25f + 0.375f * (float)(n % 7);
    /* n: the source type, the dst type, the shape, the attr (4) and mis */
    for (n = 0; n < 5 * 5 * 4 * 4 * 2; ++n) {
        size_t si = n / 160, di = n / 32 % 5, j = n / 8 % 4;
        int m = (int)(n / 2 % 4), mis = (int)(n % 2) * 4;
        tl_memory_desc s, d;
        tl_reorder_attr a;
        char what[160];
        memset(&a, 0, sizeof a);
        if (m >= 1 || j == 1) a.scales = scales + (m == 1 && j != 1 ? 31 : 32 - sizes[j][1]);  /* the last ones */
        if (m >= 2 || j == 1) a.scale_mask = 2;
        if (m == 3) {
            a.beta = -0.5f;
            a.src_zero_point = 3;
            a.dst_zero_point = -2;
        }
        snprintf(what, sizeof what, "other pairs %s -> %s %s -> %s %ldx%ldx%ldx%ld attr %d mis %d", tl_dt_name(t[si]),
                 tl_dt_name(t[di]), tags[j][0], tags[j][1], (long)sizes[j][0], (long)sizes[j][1], (long)sizes[j][2],
                 (long)sizes[j][3], m, mis);
        if (tl_md_init_by_tag(&s, 4, sizes[j], t[si], tags[j][0]) ||
            tl_md_init_by_tag(&d, 4, sizes[j], t[di], tags[j][1])) {
            CHECK_MSG(0, "%s refused", what);
            continue;
        }
        compare(&s, &d, &a, mis, what);
    }
    free(scales);
}

/* Copying tiles whose dst rows are narrower than a vector (nchw -> nhwc
   with 1 to 15 channels of bytes, 1 to 7 of 16-bit, 1 to 3 of 32-bit
   values): dense rows (overlapping whole-vector stores), a view of
   fewer channels inside a wider nhwc parent (exact stores), every tail
   length of w, several threads. */
static void narrow_rows(void)
{
    static const tl_data_type t[] = { TL_U8, TL_BF16, TL_F32 };
    size_t i;
    int c, w, view, taken = 0;
    for (i = 0; i < sizeof t / sizeof t[0]; ++i)
        for (c = 1; c * (int)tl_dt_size(t[i]) < 16; ++c)
            for (w = 1; w <= 40; w += c + 2)
                for (view = 0; view < 2; ++view) {
                    tl_dim dims[4] = { 2, 0, 3, 0 };
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    char what[96];
                    dims[1] = c;
                    dims[3] = w;
                    memset(&a, 0, sizeof a);
                    a.nthreads = w % 3 + 1;
                    if (image_mds(t[i], dims, view * 5, view * 2, &s, &d)) {
                        CHECK_MSG(0, "narrow rows c=%d w=%d refused", c, w);
                        continue;
                    }
                    snprintf(what, sizeof what, "narrow rows %s c=%d w=%d view %d", tl_dt_name(t[i]), c, w, view);
                    compare(&s, &d, &a, (c + w) % 4, what);
                    taken += takes_shape(&s, &d, &a, TL__SR_TILE_COPY);
                }
    CHECK_MSG(taken >= 100, "only %d narrow-row plans took the copying tile", taken);
}

/* Images of 1 to 5 channels split into planes (nhwc -> nchw) and merged
   back (nchw -> nhwc): dense pixels of 2 to 4 byte channels take the
   byte shuffles 32 pixels at a time, and f32 planes merged into bf16
   pixels take the word permutes with the conversion on the way
   (tl__sr16_planes_words; fill's NaNs, ties and denormals among the
   values) unless scaled per channel; the rest (widths that leave tails,
   views whose pixels have gaps, 1 or 5 channels) the transposes,
   converted through a stage.
   Every width from 1 to 100 on a row, so each tail length after the
   32-pixel blocks is met. */
static void image_planes(void)
{
    static const tl_data_type t[] = { TL_U8, TL_S8 };
    static const int shapes[3] = { TL__SR_NARROW, TL__SR_TILE_COPY, TL__SR_TILE_CONVERT };
    static const float scales[5] = { 0.5f, -2.f, 3.f, 0.25f, -1.f };
    int c, w, view, k, taken[3] = { 0, 0, 0 };
    for (k = 0; k < 3; ++k)     /* split bytes, merge bytes, merge f32 into bf16 */
        for (c = 1; c <= 5; ++c)
            for (w = 1; w <= 100; ++w)
                for (view = 0; view < 2; ++view) {
                    tl_dim dims[4] = { 1, 0, 0, 0 };
                    tl_memory_desc pixels, planes, pixels_to, planes_to;
                    const tl_memory_desc *from = &pixels, *to = &planes_to;
                    tl_reorder_attr a;
                    tl_data_type dt = k == 2 ? TL_F32 : t[(c + w) % 2];
                    char what[96];
                    dims[1] = c;
                    dims[2] = w % 3 + 1;
                    dims[3] = w;
                    memset(&a, 0, sizeof a);
                    a.nthreads = w % 2 + 1;
                    if (k == 2 && w % 4 == 1) {     /* scaled: through the stage */
                        a.scales = scales;
                        a.scale_mask = 2;
                    }
                    if (image_mds(dt, dims, view * 2, view, &planes, &pixels) ||
                        image_mds(k == 2 ? TL_BF16 : dt, dims, view * 2, view, &planes_to, &pixels_to)) {
                        CHECK_MSG(0, "planes c=%d w=%d refused", c, w);
                        continue;
                    }
                    if (k > 0) {
                        from = &planes;
                        to = &pixels_to;
                    }
                    snprintf(what, sizeof what, "planes %s %s -> %s c=%d w=%d view %d", k ? "merge" : "split",
                             tl_dt_name(dt), tl_dt_name(to->data_type), c, w, view);
                    compare(from, to, &a, (c + w) % 4, what);
                    taken[k] += takes_shape(from, to, &a, shapes[k]);
                }
    printf("planes: %d split, %d merged, %d merged into bf16 as tiles\n", taken[0], taken[1], taken[2]);
    CHECK_MSG(taken[0] + taken[1] >= 1000 && taken[2] >= 500, "planes: only %d, %d and %d plans took the tiles",
              taken[0], taken[1], taken[2]);
}

/* Plans with tails (blocks that do not divide a dim, on either side):
   cut into boxes of data, padding and points outside dst. Channels and
   weights of every size around the blocks, conversions with scales per
   channel and beta, several threads, views; each plan must take the
   tails kernel (the box cut is bounded for all of these). */
static void tails_boxes(void)
{
    static const struct { const char *st, *dt; tl_data_type sdt, ddt; int nd, scaled; } k[] = {
        { "nchw", "nChw16c", TL_F32, TL_F32, 4, 0 },
        { "nChw16c", "nchw", TL_F32, TL_F32, 4, 0 },
        { "nhwc", "nChw8c", TL_U8, TL_U8, 4, 0 },
        { "nChw8c", "nChw16c", TL_BF16, TL_BF16, 4, 0 },
        { "nchw", "nChw16c", TL_F32, TL_S8, 4, 1 },
        { "nChw16c", "nhwc", TL_S8, TL_F32, 4, 1 },
        { "oihw", "OIhw16i16o", TL_F32, TL_F32, 4, 0 },
        { "OIhw16i16o", "oihw", TL_F32, TL_F32, 4, 0 },
        { "oihw", "OIhw4i16o4i", TL_F32, TL_S8, 4, 1 },
        { "goihw", "gOIhw8i16o2i", TL_F32, TL_BF16, 5, 0 },
        { "ncdhw", "nCdhw16c", TL_S32, TL_F32, 5, 1 }
    };
    static float scales[64];
    size_t i;
    int c, taken = 0, runs = 0, walks = 0;
    for (c = 0; c < 64; ++c) scales[c] = (float)(c % 5 + 1) / 4.f;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (c = 1; c <= 40; c += 5) {
            tl_dim dims[5];
            tl_memory_desc s, d;
            tl_reorder_attr a;
            tl_reorder_plan plan;
            char what[128];
            int n = 0, g = k[i].st[0] == 'g';
            if (g) dims[n++] = 2;
            dims[n++] = k[i].st[0] == 'o' || g ? c + 2 : 3;     /* o, or n */
            dims[n++] = c;                                      /* i, or c */
            for (; n < k[i].nd; ++n) dims[n] = n % 2 ? 3 : 5;
            memset(&a, 0, sizeof a);
            a.nthreads = c % 3 + 1;
            if (k[i].scaled) {
                a.scales = scales;
                a.scale_mask = 1 << (g ? 1 : 1);
                if (c % 2) a.beta = 0.5f;
            }
            if (tl_md_init_by_tag(&s, k[i].nd, dims, k[i].sdt, k[i].st) ||
                tl_md_init_by_tag(&d, k[i].nd, dims, k[i].ddt, k[i].dt)) {
                CHECK_MSG(0, "tails %s -> %s refused", k[i].st, k[i].dt);
                continue;
            }
            snprintf(what, sizeof what, "tails %s:%s -> %s:%s c=%d", tl_dt_name(k[i].sdt), k[i].st,
                    tl_dt_name(k[i].ddt), k[i].dt, c);
            compare(&s, &d, &a, c % 4, what);
            if (tl_reorder_plan_init(&plan, &s, &d, &a) == TL_OK && plan.has_tails) {
                int tail = takes_tails(&plan);
                ++runs;
                taken += plan.kernel == tl__simd_reorder_tails_kernel;
                walks += tail;
                CHECK_MSG(plan.kernel == (tail ? tl__simd_reorder_kernel : tl__simd_reorder_tails_kernel),
                          "%s: not on the tails kernel", what);
            }
        }
    CHECK_MSG(runs >= 70, "only %d plans had tails", runs);
    printf("tails: %d plans with tails, %d on the tails kernel, %d in the walk\n", runs, taken, walks);
}

/* A dst of tag with dims that is not tight: blocked, padded one block
   (blk) past its last; plain, a view of 5 more channels. 0: refused. */
static int wider_dst(tl_memory_desc *md, int nd, const tl_dim *dims, tl_data_type dt, const char *tag,
                     int blk)
{
    tl_dim wide[5], off[5] = { 0, 0, 0, 0, 0 };
    int blocked = tag[1] == 'C';
    memcpy(wide, dims, (size_t)nd * sizeof *wide);
    wide[1] = blocked ? (dims[1] + blk - 1) / blk * blk + blk : dims[1] + 5;
    if (tl_md_init_by_tag(md, nd, wide, dt, tag) != TL_OK) return 0;
    if (!blocked) return tl_md_submemory(md, md, dims, off) == TL_OK;
    md->dims[1] = dims[1];      /* padded_dims keep the extra block */
    return 1;
}

/* Tiles and runs that take the tails in their walk (tl__sr_takes_tails):
   every tail length of 4-, 8- and 16-blocks, from and to nchw, from
   nhwc, copies of three types and conversions (scales and a zero point,
   whose padding must stay 0; beta), in planes that need one and two
   staging slices, dst views and dst padded past the last block (whole
   blocks of zeros), on one and two threads. Blocks of 16 bytes or more
   (16 values to convert) must take the walk, never the boxes; the dst
   buffer starts as noise, so padding left unwritten shows. */
static void tails_in_walk(void)
{
    enum { COPY3, S8F32, F32S8, U8BETA };     /* COPY3: f32, bf16 and u8 copies */
    static const struct { const char *st, *dt; int nd, blk, kind; } k[] = {
        { "nchw", "nChw16c", 4, 16, COPY3 }, { "nchw", "nChw8c", 4, 8, COPY3 },
        { "nchw", "nChw4c", 4, 4, COPY3 }, { "nChw16c", "nchw", 4, 16, COPY3 },
        { "nChw8c", "nchw", 4, 8, COPY3 }, { "ncdhw", "nCdhw16c", 5, 16, COPY3 },
        { "nhwc", "nChw16c", 4, 16, COPY3 }, { "nhwc", "nChw8c", 4, 8, COPY3 },
        { "nhwc", "nChw16c", 4, 16, S8F32 }, { "nhwc", "nChw16c", 4, 16, F32S8 },
        { "nhwc", "nChw16c", 4, 16, U8BETA }
    };
    static const tl_data_type t[] = { TL_F32, TL_BF16, TL_U8 };
    static float scales[64];
    size_t i, j;
    int c, runs = 0, walks = 0;
    for (c = 0; c < 64; ++c) scales[c] = (float)(c % 7 + 1) / 8.f;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (j = 0; j < (k[i].kind == COPY3 ? sizeof t / sizeof t[0] : 1); ++j)
            for (c = k[i].blk + 1; c <= 2 * k[i].blk + 3; ++c) {
                int nd = k[i].nd, big = c % 3 == 0, v, want;
                tl_data_type sdt = k[i].kind == COPY3 ? t[j] : k[i].kind == S8F32 ? TL_S8
                                 : k[i].kind == F32S8 ? TL_F32 : TL_U8;
                tl_data_type ddt = k[i].kind == COPY3 ? t[j] : k[i].kind == F32S8 ? TL_S8 : TL_F32;
                tl_dim dims[5] = { 2, c, big ? 17 : 7, big ? 19 : 7, 3 };
                tl_memory_desc s, dv[2];    /* dst: tight; padded further or a view */
                tl_reorder_attr a;
                tl_reorder_plan plan;
                char what[128];
                memset(&a, 0, sizeof a);
                a.nthreads = c % 2 + 1;
                if (k[i].kind == F32S8) {
                    a.scales = scales;
                    a.scale_mask = 1 << 1;
                    a.dst_zero_point = 5;
                }
                if (k[i].kind == U8BETA) a.beta = 0.5f;
                if (tl_md_init_by_tag(&s, nd, dims, sdt, k[i].st) ||
                    tl_md_init_by_tag(&dv[0], nd, dims, ddt, k[i].dt) ||
                    !wider_dst(&dv[1], nd, dims, ddt, k[i].dt, k[i].blk)) {
                    CHECK_MSG(0, "tails in the walk %s -> %s refused", k[i].st, k[i].dt);
                    continue;
                }
                /* copies: dst rows of a vector or more; conversions: blocks of 16 */
                want = k[i].kind == COPY3 ? k[i].blk * (int)tl_dt_size(sdt) >= 16 : k[i].blk == 16;
                for (v = 0; v < 2; ++v) {
                    int walk;
                    snprintf(what, sizeof what, "tails in the walk %s %s -> %s %s c=%d%s", tl_dt_name(sdt),
                             k[i].st, tl_dt_name(ddt), k[i].dt, c, v ? " (dst view or padded)" : "");
                    compare(&s, &dv[v], &a, c % 4 * 4, what);
                    if (tl_reorder_plan_init(&plan, &s, &dv[v], &a) != TL_OK || !plan.has_tails) continue;
                    walk = takes_tails(&plan);
                    ++runs;
                    walks += walk;
                    CHECK_MSG(walk == want, "%s: in the walk %d", what, walk);
                }
            }
    CHECK_MSG(walks >= 300, "only %d of %d plans took their tails in the walk", walks, runs);
    printf("tails in the walk: %d plans with tails, %d took them in the walk\n", runs, walks);
}

/* Plan p's kernel over loops[0] cut at every point, as threads cut it,
   against the scalar engine: a range must write all of its own points
   and none of another's (a range that stops short of the last block
   must not pad the block it ends on). */
static void cut_everywhere(const tl_reorder_plan *plan, const tl_memory_desc *s, const tl_memory_desc *d,
                           const tl_reorder_attr *a, const char *what)
{
    size_t sb = tl_md_size(s), db = tl_md_size(d);
    unsigned char *src = (unsigned char *)malloc(sb), *d1 = (unsigned char *)malloc(db),
                  *d2 = (unsigned char *)malloc(db);
    tl_dim j, n0 = plan->loops[0].size;
    if (src && d1 && d2) {
        fill(src, sb, s->data_type);
        memset(d2, 0x5a, db);
        CHECK(test_scalar_reorder(s, src, d, d2, a) == TL_OK);
        for (j = 0; j <= n0; ++j) {
            memset(d1, 0x5a, db);
            plan->kernel(plan, src, d1, 0, j);
            plan->kernel(plan, src, d1, j, n0);
            CHECK_MSG(memcmp(d1, d2, db) == 0, "%s: loops[0] cut at %ld of %ld differs", what, (long)j, (long)n0);
        }
    }
    free(src); free(d1); free(d2);
}

/* Copied runs of whole lines in source order (tl__sr_runs_src_order):
   nhwc -> nChw16c and nChw32c (channel counts with and without a tail,
   the tail's last block padded in the same walk: tl__sr_copy_runs_src_n),
   nChw16c -> nhwc; planes of 7x7 (several images a step) and 19x19, dst
   tight or padded past its last block (the walk then leaves those plans
   to the boxes), streamed (dst aligned; TL__SR_STREAM_MIN is 1 KiB
   here). Each plan must take the order exactly where the rule says, and
   equal the scalar engine. Then loops[0] cut at every point,
   as threads cut it: a range that stops short of the last block must
   not pad the block it ends on. */
static void src_order_plan(const char *st, const char *dt, tl_dim n, tl_dim c, tl_dim hw, int wider, int nt)
{
    tl_dim dims[4] = { n, c, hw, hw };
    int blk = dt[4] == '3' || st[4] == '3' ? 32 : 16;
    tl_memory_desc s, d;
    tl_reorder_attr a;
    tl_reorder_plan plan;
    tl__sr_shape sh;
    char what[128];
    int want, tail;
    memset(&a, 0, sizeof a);
    a.nthreads = nt;
    if (tl_md_init_by_tag(&s, 4, dims, TL_F32, st) ||
        (wider ? !wider_dst(&d, 4, dims, TL_F32, dt, blk) : tl_md_init_by_tag(&d, 4, dims, TL_F32, dt) != TL_OK) ||
        tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK) {
        CHECK_MSG(0, "source order %s -> %s refused", st, dt);
        return;
    }
    snprintf(what, sizeof what, "source order %s -> %s %ldx%ldx%ldx%ld%s", st, dt, (long)n, (long)c, (long)hw,
             (long)hw, wider ? " (dst padded further)" : "");
    compare(&s, &d, &a, 0, what);
    tl__sr_pick_shape(&plan, &sh);
    tail = c % blk != 0;
    /* from nhwc: two blocks or more, none of them padding alone (dst
       padded further goes the old way); into nhwc: 256 channels lie
       1 KiB apart in dst, which only a few pixels from beyond the
       caches (all sources here, TL__SR_STREAM_MIN) may take */
    want = strcmp(st, "nhwc") == 0 ? c > blk && !wider : c * 4 % 1024 != 0 || hw * hw <= TL__SR_SRC_ORDER_GROUPS;
    CHECK_MSG(sh.shape == TL__SR_RUN && sh.src_order == want, "%s: source order %d, shape %d", what,
              sh.src_order, sh.shape);
    CHECK_MSG(!want || (size_t)sh.tail_last == (tail ? (size_t)(c % blk) * 4 : 0), "%s: last block's data %ld bytes",
              what, (long)sh.tail_last);
    if (want && plan.kernel == tl__simd_reorder_kernel && n == 1) cut_everywhere(&plan, &s, &d, &a, what);
}

static void runs_in_src_order(void)
{
    static const tl_dim chans[] = { 32, 48, 100, 17, 33, 112, 256, 70 };
    size_t i;
    int w;
    for (i = 0; i < sizeof chans / sizeof chans[0]; ++i)
        for (w = 0; w < 2; ++w) {
            src_order_plan("nhwc", "nChw16c", 3, chans[i], 7, w, 1);
            src_order_plan("nhwc", "nChw16c", 2, chans[i], 19, w, 2);
            src_order_plan("nhwc", "nChw16c", 1, chans[i], 5, w, 2);
            src_order_plan("nhwc", "nChw32c", 2, chans[i], 7, w, 1);
            if (chans[i] % 16 == 0 && !w) {
                src_order_plan("nChw16c", "nhwc", 3, chans[i], 7, 0, 1);
                src_order_plan("nChw16c", "nhwc", 1, chans[i], 5, 0, 2);
            }
        }
}

/* Copied runs of 32 bytes in source order, two pixels' runs a 64-byte
   store (tl__sr16_copy_pairs_src): f32 nhwc -> nChw8c, bf16 and f16
   nhwc -> nChw16c, s8 nhwc -> nChw32c, f32 nChw16c -> nChw8c; planes
   with an odd pixel count (the last run alone), one pixel (no pair),
   64 pixels (blocks 2 KiB apart in dst: source order only from beyond
   the caches, all sources here, TL__SR_STREAM_MIN, and 32 blocks at
   most), channels in whole blocks or with a tail (the old walk), dst
   on a line (streamed) or 4 bytes off, one or two threads, and loops[0]
   cut at every point. Plans take the pairs exactly where AVX-512 runs
   and the rule says. */
static void pairs_in_src_order(void)
{
    static const struct { tl_data_type t; const char *st, *dt; } cases[] = {
        { TL_F32, "nhwc", "nChw8c" }, { TL_BF16, "nhwc", "nChw16c" }, { TL_F16, "nhwc", "nChw16c" },
        { TL_S8, "nhwc", "nChw32c" }, { TL_F32, "nChw16c", "nChw8c" } };
    static const tl_dim planes[][2] = { { 7, 7 }, { 4, 4 }, { 1, 1 }, { 5, 3 }, { 8, 8 } };
    size_t i, j;
    int k, pairs = 0;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (j = 0; j < sizeof planes / sizeof planes[0]; ++j)
            for (k = 0; k < 4; ++k) {
                int blk = 32 / (int)tl_dt_size(cases[i].t), tail = k == 3 && cases[i].st[1] == 'h', want;
                tl_dim dims[4] = { k == 1 ? 1 : 2, (tl_dim)blk * (k == 2 ? 40 : 3) + (tail ? 3 : 0), planes[j][0],
                                   planes[j][1] };
                tl_memory_desc s, d;
                tl_reorder_attr a;
                tl_reorder_plan plan;
                tl__sr_shape sh;
                char what[128];
                memset(&a, 0, sizeof a);
                a.nthreads = k % 2 + 1;
                if (cases[i].st[1] != 'h') dims[1] = 16 * (dims[1] / 16 + 1);   /* whole source blocks */
                if (tl_md_init_by_tag(&s, 4, dims, cases[i].t, cases[i].st) ||
                    tl_md_init_by_tag(&d, 4, dims, cases[i].t, cases[i].dt) ||
                    tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK) {
                    CHECK_MSG(0, "pairs in source order %s -> %s refused", cases[i].st, cases[i].dt);
                    continue;
                }
                snprintf(what, sizeof what, "pairs in source order %s %s -> %s %ldx%ldx%ldx%ld", tl_dt_name(cases[i].t),
                         cases[i].st, cases[i].dt, (long)dims[0], (long)dims[1], (long)dims[2], (long)dims[3]);
                compare(&s, &d, &a, (int)(j % 2) * 4, what);
                if (!on_kernel(&plan)) continue;
                tl__sr_pick_shape(&plan, &sh);
                /* the blocks' dst stride a multiple of 1 KiB: at most 32 of
                   them (from nChw16c: the 2 halves of each block) */
                want = tl__sr_avx512() && !tail && planes[j][0] * planes[j][1] >= 2 &&
                       (planes[j][0] * planes[j][1] * 32 % 1024 != 0 ||
                        (cases[i].st[1] == 'h' ? dims[1] / blk : 2) <= TL__SR_SRC_ORDER_GROUPS);
                CHECK_MSG(sh.shape == TL__SR_RUN && sh.src_order == want, "%s: source order %d, shape %d", what,
                          sh.src_order, sh.shape);
                pairs += want;
                if (want && dims[0] == 1) cut_everywhere(&plan, &s, &d, &a, what);
            }
    if (tl__sr_avx512()) CHECK_MSG(pairs >= 50, "only %d plans copied pairs in source order", pairs);
    printf("pairs in source order: %d plans\n", pairs);
}

/* A dim of one block, partial (an image's 1 to blk - 1 channels from
   nhwc into nChw4c to nChw32c): every run of the walk is that block, its
   data and padding stored in one pass (tl__sr_copy_runs_padded: 32-byte
   stores in AVX2, whose pieces read past a pixel's data where the
   source goes on, not past its end); copies of three types and u8 ->
   f32, dst tight (taken in the walk, tl__sr_takes_tails) or padded past
   the block (left to the boxes), dst aligned or not. */
static void one_block_runs(void)
{
    static const char *const tags[] = { "nChw4c", "nChw8c", "nChw16c", "nChw32c" };
    static const tl_data_type t[][2] = { { TL_F32, TL_F32 }, { TL_BF16, TL_BF16 }, { TL_U8, TL_U8 },
                                         { TL_U8, TL_F32 }, { TL_S8, TL_F32 }, { TL_F32, TL_BF16 },
                                         { TL_F32, TL_U8 }, { TL_BF16, TL_F32 }, { TL_F16, TL_F32 },
                                         { TL_F32, TL_F16 }, { TL_F32, TL_S32 } };
    /* converted: none, one negative scale with zero points (the padding's
       values would turn -0 or nonzero), per-channel scales, beta */
    static const char *const attrs[] = { "", " scale -2.5, zero points", " per-channel scales", " beta" };
    static const float scales[32] = { -2.5f, 0.5f, 3.f, -1.f, 2.f, 0.25f, 1.5f, -4.f, 1.f, 2.f, 3.f, 4.f,
                                      5.f, 6.f, 7.f, 8.f, 9.f, 10.f, 11.f, 12.f, 13.f, 14.f, 15.f, 16.f,
                                      17.f, 18.f, 19.f, 20.f, 21.f, 22.f, 23.f, 24.f };
    size_t i, j;
    int c, w, k, runs = 0;
    for (i = 0; i < sizeof tags / sizeof tags[0]; ++i)
        for (j = 0; j < sizeof t / sizeof t[0]; ++j)
            for (c = 1; c < 4 << i; c += (int)i + 1)
                for (w = 0; w < 2; ++w)
                    for (k = 0; k < (t[j][0] == t[j][1] ? 1 : 4); ++k) {
                        tl_dim dims[4] = { 2, c, 7, 5 + c % 3 };
                        tl_memory_desc s, d;
                        tl_reorder_attr a;
                        tl_reorder_plan plan;
                        tl__sr_shape sh;
                        char what[160];
                        memset(&a, 0, sizeof a);
                        a.nthreads = 1;
                        if (k == 1 || k == 2) a.scales = scales;
                        if (k == 1) {
                            a.src_zero_point = t[j][0] == TL_U8 || t[j][0] == TL_S8 ? 3 : 0;
                            a.dst_zero_point = t[j][1] == TL_U8 ? 7 : 0;
                        }
                        if (k == 2) a.scale_mask = 2;
                        if (k == 3) a.beta = 0.5f;
                        if (tl_md_init_by_tag(&s, 4, dims, t[j][0], "nhwc") ||
                            (w ? !wider_dst(&d, 4, dims, t[j][1], tags[i], 4 << i)
                               : tl_md_init_by_tag(&d, 4, dims, t[j][1], tags[i]) != TL_OK) ||
                            tl_reorder_plan_init(&plan, &s, &d, &a) != TL_OK) {
                            CHECK_MSG(0, "one block nhwc -> %s refused", tags[i]);
                            continue;
                        }
                        snprintf(what, sizeof what, "one block %s nhwc -> %s %s c=%d%s%s", tl_dt_name(t[j][0]),
                                 tl_dt_name(t[j][1]), tags[i], c, w ? " (dst padded further)" : "", attrs[k]);
                        compare(&s, &d, &a, c % 2 * 4, what);
                        tl__sr_pick_shape(&plan, &sh);
                        if (on_kernel(&plan) && sh.tail == plan.nloops - 1) {
                            ++runs;
                            CHECK_MSG(!w && takes_tails(&plan), "%s: the block's runs in the walk", what);
                        }
                    }
    CHECK_MSG(runs >= 50, "only %d plans took the block's runs in the walk", runs);
    printf("one block: %d plans took their runs in the walk\n", runs);
}

/* Copied runs along the blocks of a dim with tails into a dst that holds
   none of that dim's padding (tl__sr_last_run): nChw4c to nChw32c ->
   nhwc and nCdhw16c -> ndhwc, copies of three types, every tail length
   of 8- and 16-blocks and some of 4- and 32-blocks, one to three blocks,
   dst tight or a view of more channels (from channel 0 to 3), misaligned
   by 4 bytes or not (streamed from 1 KiB here), one or two threads, then
   loops[0] cut at every point. The last run copies only its data: the channels past it
   are the next pixel's. Blocks of 32 bytes or more whose last one holds
   data in 16s of bytes must take the walk. */
static void last_runs(void)
{
    static const struct { const char *st, *dt; int nd, blk; } k[] = {
        { "nChw16c", "nhwc", 4, 16 }, { "nChw8c", "nhwc", 4, 8 }, { "nChw4c", "nhwc", 4, 4 },
        { "nChw32c", "nhwc", 4, 32 }, { "nCdhw16c", "ndhwc", 5, 16 }
    };
    static const tl_data_type t[] = { TL_F32, TL_BF16, TL_U8 };
    size_t i, j;
    int c, v, runs = 0, walks = 0;
    for (i = 0; i < sizeof k / sizeof k[0]; ++i)
        for (j = 0; j < sizeof t / sizeof t[0]; ++j)
            for (c = 1; c < 3 * k[i].blk; c += k[i].blk % 16 == 0 ? 1 : 3)
                for (v = 0; v < 2; ++v) {
                    tl_dim dims[5] = { 2, c, 5 + c % 4, 3 + c % 3, 2 }, wide[5], off[5] = { 0, 0, 0, 0, 0 };
                    tl_memory_desc s, d;
                    tl_reorder_attr a;
                    tl_reorder_plan plan;
                    char what[128];
                    int es = (int)tl_dt_size(t[j]), walk;
                    int want = k[i].blk * es >= 32 && c > k[i].blk && c % k[i].blk != 0 && c % k[i].blk * es % 16 == 0;
                    memcpy(wide, dims, sizeof wide);
                    wide[1] = c + 3;
                    off[1] = c % 4;     /* the view's channels start off a vector, or not */
                    memset(&a, 0, sizeof a);
                    a.nthreads = c % 2 + 1;
                    if (tl_md_init_by_tag(&s, k[i].nd, dims, t[j], k[i].st) ||
                        tl_md_init_by_tag(&d, k[i].nd, v ? wide : dims, t[j], k[i].dt) ||
                        (v && tl_md_submemory(&d, &d, dims, off)) || tl_reorder_plan_init(&plan, &s, &d, &a)) {
                        CHECK_MSG(0, "last runs %s -> %s refused", k[i].st, k[i].dt);
                        continue;
                    }
                    snprintf(what, sizeof what, "last runs %s %s -> %s c=%d%s", tl_dt_name(t[j]), k[i].st,
                             k[i].dt, c, v ? " (dst view)" : "");
                    compare(&s, &d, &a, c % 2 * 4, what);
                    walk = takes_tails(&plan);
                    runs += want;
                    walks += want && walk;
                    CHECK_MSG(!want || walk, "%s: not in the walk", what);
                    if (walk) cut_everywhere(&plan, &s, &d, &a, what);
                }
    CHECK_MSG(runs >= 60, "only %d plans of the kind", runs);
    printf("last runs: %d plans took their last block's data in the walk\n", walks);
}

/* Converting tiles whose L is one 16-block and that have no tiles beside
   them (tl__sr_lone_fits: nchw -> nChw16c, ncdhw -> nCdhw16c) as one wide
   tile of tl__sr16_tiles_convert: planes of 1 to 40 pixels and a few
   larger (the last block's columns past the plane ride along; the
   tensor's last blocks meet the end of the fenced source), the types it
   takes and some it leaves (s8, f16 sources), no scale, one (negative),
   per channel (along L) or per image (along loops[0]), beta and zero
   points (left), one or two threads, dst misaligned or not, or a view
   of 16 channels more (the bytes past each image's last block are not
   the next tile's, which would write over a tile's stray stores). With
   AVX-512, the plans of the kinds it takes whose tiles are
   TL__SR_TILE_CONVERT of more than 4 pixels with none beside them must
   take it; no others may. */
static void lone_tiles(void)
{
    static const tl_data_type t[][2] = { { TL_F32, TL_BF16 }, { TL_F32, TL_S8 }, { TL_F32, TL_U8 },
                                         { TL_BF16, TL_F32 }, { TL_F32, TL_F32 }, { TL_S8, TL_F32 },
                                         { TL_F16, TL_F32 } };
    static const char *const attrs[] = { "", " scale -2.5", " per-channel scales", " per-image scales", " beta",
                                         " zero points" };
    static const tl_dim planes[][2] = { { 1, 1 }, { 1, 3 }, { 2, 2 }, { 3, 3 }, { 1, 7 }, { 2, 5 }, { 4, 4 },
                                        { 3, 6 }, { 1, 17 }, { 5, 5 }, { 3, 9 }, { 4, 8 }, { 5, 7 }, { 6, 6 },
                                        { 7, 7 }, { 5, 8 }, { 8, 8 }, { 14, 14 }, { 3, 29 } };
    static float scales[64];
    size_t i, j;
    int k, lone = 0;
    for (i = 0; i < 64; ++i) scales[i] = i == 0 ? -2.5f : 0.25f * (float)(i % 9 + 1);
    for (i = 0; i < sizeof planes / sizeof planes[0]; ++i)
        for (j = 0; j < sizeof t / sizeof t[0]; ++j)
            for (k = 0; k < 6; ++k) {
                int five = i % 4 == 3, n = five ? 5 : 4, view = (int)(i + j + (size_t)k) % 3 == 0, kind, got;
                tl_dim dims[5] = { 2, 32 + 16 * (tl_dim)(i % 2), planes[i][0], planes[i][1], 2 }, wide[5];
                tl_dim off[5] = { 0, 0, 0, 0, 0 };
                tl_memory_desc s, d;
                tl_reorder_attr a;
                tl__sr_shape sh;
                char what[160];
                if (t[j][0] == t[j][1] && k == 0) continue;     /* a copy */
                memset(&a, 0, sizeof a);
                a.nthreads = (int)(i % 2) + 1;
                if (k >= 1 && k <= 3) a.scales = scales;
                if (k == 2) a.scale_mask = 2;
                if (k == 3) a.scale_mask = 1;
                if (k == 4) a.beta = 0.5f;
                if (k == 5) {
                    a.src_zero_point = t[j][0] == TL_S8 ? 3 : 0;
                    a.dst_zero_point = t[j][1] == TL_U8 || t[j][1] == TL_S8 ? 7 : 0;
                    a.scales = scales + 1;
                }
                memcpy(wide, dims, sizeof wide);
                wide[1] += 16;
                if (tl_md_init_by_tag(&s, n, dims, t[j][0], five ? "ncdhw" : "nchw") ||
                    tl_md_init_by_tag(&d, n, view ? wide : dims, t[j][1], five ? "nCdhw16c" : "nChw16c") ||
                    (view && tl_md_submemory(&d, &d, dims, off))) {
                    CHECK_MSG(0, "lone tiles %s refused", five ? "ncdhw" : "nchw");
                    continue;
                }
                snprintf(what, sizeof what, "lone tiles %s -> %s %s %ldx%ldx%ldx%ld%s%s%s", tl_dt_name(t[j][0]),
                         tl_dt_name(t[j][1]), five ? "nCdhw16c" : "nChw16c", (long)dims[0], (long)dims[1],
                         (long)dims[2], (long)dims[3], five ? "x2" : "", attrs[k], view ? " (dst view)" : "");
                compare(&s, &d, &a, (int)(i + j) % 3 * 4, what);
                if (!plan_shape(&s, &d, &a, &sh)) continue;
                kind = tl__sr_avx512() && j < 5 && k != 4 && !a.src_zero_point && !a.dst_zero_point &&
                       sh.shape == TL__SR_TILE_CONVERT && sh.K2 < 0 && planes[i][0] * planes[i][1] * (five ? 2 : 1) > 4;
                got = sh.shape == TL__SR_TILE_CONVERT && sh.lone;
                CHECK_MSG(got == kind, "%s: lone %d, shape %d", what, got, sh.shape);
                lone += got;
            }
    if (tl__sr_avx512()) CHECK_MSG(lone >= 300, "only %d plans took lone tiles", lone);
    printf("lone tiles: %d plans\n", lone);
}

/* Depthwise weights, goihw -> Goihw16g (MobileNet's 3x3 per-group
   filters): one lone tile of 16 groups by the taps each, the tiles one
   after another in src and dst, walked in one step (sh.next) with each
   tile's scales; the last tile's rows end at the source's end, so its
   block loads only its taps (masked). Unscaled, one scale, a scale per
   group (mask 3: g and o), on one and two threads; 40 groups end in a
   partial block (the tails kernel's boxes, not walked). */
static void depthwise_tiles(void)
{
    static const tl_data_type u[] = { TL_F32, TL_S8, TL_U8, TL_BF16 };
    static const tl_dim kern[][2] = { { 3, 3 }, { 5, 5 }, { 2, 3 }, { 1, 7 }, { 2, 4 } };
    static const tl_dim groups[] = { 16, 40, 48, 64, 80, 20 };
    static const char *const tags[] = { "Goihw16g", "Goihw8g" };
    float *scales = (float *)malloc(80 * sizeof(float));
    size_t n;
    int walked = 0, direct = 0;
    if (!scales) {
        CHECK_MSG(0, "depthwise tiles: no memory");
        return;
    }
    for (n = 0; n < 80; ++n) scales[n] = n % 5 == 0 ? -1.5f : 0.125f * (float)(n % 11 + 1);
    /* n: the blocks, the dst type, the kernel, the groups, the attr (3) */
    for (n = 0; n < 2 * 4 * 5 * 6 * 3; ++n) {
        size_t ti = n / 360, ui = n / 90 % 4, ki = n / 18 % 5, gi = n / 3 % 6;
        int m = (int)(n % 3);
        tl_dim dims[5] = { groups[gi], 1, 1, kern[ki][0], kern[ki][1] };
        tl_memory_desc s, d;
        tl_reorder_attr a;
        tl__sr_shape sh;
        char what[160];
        if (u[ui] == TL_F32 && m == 0) continue;    /* a copy */
        memset(&a, 0, sizeof a);
        a.nthreads = (int)(n % 2) + 1;
        if (m >= 1) a.scales = scales + (m == 1 ? 79 : 0);
        if (m == 2) a.scale_mask = 3;
        snprintf(what, sizeof what, "depthwise tiles f32 -> %s goihw -> %s %ldx1x1x%ldx%ld attr %d, %d threads",
                 tl_dt_name(u[ui]), tags[ti], (long)dims[0], (long)dims[3], (long)dims[4], m, a.nthreads);
        if (tl_md_init_by_tag(&s, 5, dims, TL_F32, "goihw") || tl_md_init_by_tag(&d, 5, dims, u[ui], tags[ti])) {
            CHECK_MSG(0, "%s refused", what);
            continue;
        }
        compare(&s, &d, &a, (int)(n % 2) * 4, what);
        if (plan_shape(&s, &d, &a, &sh) && sh.shape == TL__SR_TILE_CONVERT && sh.next >= 0) {
            if (sh.lone) ++walked;
            else ++direct;
        }
    }
    free(scales);
    printf("depthwise tiles: %d plans walk their wide tiles in a step, %d their direct ones\n", walked, direct);
    if (tl__sr_avx512()) CHECK_MSG(walked >= 100, "depthwise tiles: only %d plans walk their wide tiles", walked);
    if (tl__sr_avx2()) CHECK_MSG(direct >= 100, "depthwise tiles: only %d plans walk their direct tiles", direct);
}

/* Copied runs of whole lines whose neighbours in the source lie in a
   loop further out (tl__sr_lines_inside): that loop moved next outside
   the runs' rows, which are cut into blocks where the two together
   would read more than TL__SR_LINES_WHOLE bytes. Weights from hwio and
   io (rows whole and cut) in runs of 128, 64, 32, 16 and 8 bytes,
   channels-last images of 4 and 1 KiB pixels into nChw16c and nChw8c,
   one or two threads, dst on a line or 4 bytes off, against the scalar
   engine; the plans must show the loop moved exactly where the rule
   takes them (not for small sources, nor for rows under 1 KiB, nor with
   tails). */
static void lines_inside(void)
{
    static const struct {
        tl_data_type t, u;
        const char *st, *dt;
        int nd, moved;
        tl_dim dims[4];
        int scaled;     /* per-output scales (dim 0) */
    } cases[] = {
        { TL_F32, TL_F32, "hwio", "OIhw16i16o", 4, 1, { 256, 256, 3, 3 }, 0 },
        { TL_F32, TL_F32, "io", "OI16i16o", 2, 1, { 1024, 1024 }, 0 },
        { TL_F32, TL_F32, "io", "OI16i16o", 2, 1, { 1024, 528 }, 0 },
        { TL_F32, TL_F32, "nhwc", "nChw16c", 4, 1, { 1, 1024, 28, 28 }, 0 },
        { TL_F64, TL_F64, "hwio", "OIhw16i16o", 4, 1, { 128, 128, 3, 3 }, 0 },
        { TL_F32, TL_F32, "hwio", "OIhw8i8o", 4, 1, { 256, 256, 3, 3 }, 0 },
        { TL_BF16, TL_BF16, "hwio", "OIhw16i16o", 4, 1, { 512, 512, 1, 1 }, 0 },
        { TL_S8, TL_S8, "io", "OI8i8o", 2, 1, { 1024, 1024 }, 0 },
        { TL_S8, TL_S8, "nhwc", "nChw8c", 4, 1, { 1, 1024, 28, 28 }, 0 },
        { TL_BF16, TL_BF16, "hwio", "OIhw16i16o", 4, 0, { 256, 256, 3, 3 }, 0 },
        { TL_F32, TL_F32, "hwio", "OIhw16i16o", 4, 0, { 64, 64, 3, 3 }, 0 },
        { TL_F32, TL_F32, "nhwc", "nChw16c", 4, 0, { 8, 64, 56, 56 }, 0 },
        { TL_F32, TL_F32, "nhwc", "nChw16c", 4, 0, { 1, 256, 56, 56 }, 0 },
        { TL_F32, TL_F32, "hwio", "OIhw16i16o", 4, 0, { 264, 256, 3, 3 }, 0 },
        { TL_F32, TL_S8, "hwio", "OIhw16i16o", 4, 1, { 256, 256, 3, 3 }, 1 },
        { TL_F32, TL_BF16, "io", "OI16i16o", 2, 1, { 1024, 1024 }, 0 },
        { TL_S8, TL_F32, "nhwc", "nChw16c", 4, 1, { 1, 1024, 28, 28 }, 0 },
        { TL_BF16, TL_F32, "hwio", "OIhw16i16o", 4, 1, { 512, 512, 1, 1 }, 1 },
    };
    float *scales = (float *)malloc(1024 * sizeof(float));
    size_t i;
    int nt;
    if (!scales) {
        CHECK_MSG(0, "lines inside: no memory");
        return;
    }
    for (i = 0; i < 1024; ++i) scales[i] = i % 7 == 0 ? -0.75f : 0.125f * (float)(i % 13 + 1);
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (nt = 1; nt <= 2; ++nt) {
            tl_memory_desc s, d;
            tl_reorder_attr a;
            tl_reorder_plan plan;
            const tl_reorder_loop *lp;
            char what[160];
            int n, moved;
            memset(&a, 0, sizeof a);
            a.nthreads = nt;
            if (cases[i].scaled) {
                a.scales = scales;
                a.scale_mask = 1;
            }
            snprintf(what, sizeof what, "lines inside %s -> %s %s -> %s %ldx%ld..., %s%d threads",
                     tl_dt_name(cases[i].t), tl_dt_name(cases[i].u), cases[i].st, cases[i].dt, (long)cases[i].dims[0],
                     (long)cases[i].dims[1], cases[i].scaled ? "per-O scales, " : "", nt);
            if (tl_md_init_by_tag(&s, cases[i].nd, cases[i].dims, cases[i].t, cases[i].st) ||
                tl_md_init_by_tag(&d, cases[i].nd, cases[i].dims, cases[i].u, cases[i].dt) ||
                tl_reorder_plan_init(&plan, &s, &d, &a)) {
                CHECK_MSG(0, "%s refused", what);
                continue;
            }
            compare(&s, &d, &a, (nt - 1) * 4, what);
            lp = plan.loops;
            n = plan.nloops;
            moved = n >= 3 && lp[n - 3].src_stride == lp[n - 1].size &&
                    (size_t)(lp[n - 3].size * lp[n - 2].size * lp[n - 1].size) * tl_dt_size(cases[i].t) <=
                        TL__SR_LINES_BLOCK;
            CHECK_MSG(moved == cases[i].moved, "%s: the source's neighbours %s", what,
                      moved ? "moved inside" : "left outside");
        }
    free(scales);
}

/* Transposes whose dst rows lie 1 KiB or more apart go in strips of a
   quarter row (tl__sr_strip_of): whole lines and blocks each, the last
   strip of every tile shorter (a strip of 196 columns once read past
   the blocks); streamed tiles of a short M keep 256 bytes. Bit for bit
   against the scalar engine, dst aligned and not, on one and two
   threads; the largest case streams. */
static void wide_strips(void)
{
    static const struct {
        tl_data_type t;
        const char *st, *dt;
        int nd;
        tl_dim dims[4];
        tl_dim strip;   /* bytes */
    } cases[] = {
        { TL_F32, "nhwc", "nchw", 4, { 2, 17, 28, 28 }, 768 },
        { TL_F32, "nchw", "nhwc", 4, { 1, 300, 8, 40 }, 256 },
        { TL_BF16, "nchw", "nhwc", 4, { 1, 600, 24, 24 }, 256 },
        { TL_U8, "nchw", "nhwc", 4, { 1, 1100, 40, 30 }, 256 },
        { TL_F32, "ab", "ba", 2, { 1030, 70 }, 1024 },
        { TL_F32, "nchw", "nhwc", 4, { 1, 1030, 50, 45 }, 1024 },
    };
    static const char row0[64];
    size_t i, n = tl_test_cases(6) < 6 ? 5 : 6;   /* the streamed 8.9 MB case in full runs */
    int nt;
    for (i = 0; i < n; ++i)
        for (nt = 1; nt <= 2; ++nt) {
            tl_memory_desc s, d;
            tl_reorder_attr a;
            tl_reorder_plan plan;
            tl__sr_shape sh;
            char what[160];
            size_t es = tl_dt_size(cases[i].t), db;
            tl_dim strip;
            const tl_reorder_loop *L, *M;
            memset(&a, 0, sizeof a);
            a.nthreads = nt;
            snprintf(what, sizeof what, "wide strips %s %s -> %s %ldx%ld..., %d threads", tl_dt_name(cases[i].t),
                     cases[i].st, cases[i].dt, (long)cases[i].dims[0], (long)cases[i].dims[1], nt);
            if (tl_md_init_by_tag(&s, cases[i].nd, cases[i].dims, cases[i].t, cases[i].st) ||
                tl_md_init_by_tag(&d, cases[i].nd, cases[i].dims, cases[i].t, cases[i].dt) ||
                tl_reorder_plan_init(&plan, &s, &d, &a) || !on_kernel(&plan)) {
                CHECK_MSG(0, "%s refused", what);
                continue;
            }
            tl__sr_pick_shape(&plan, &sh);
            CHECK_MSG(sh.shape == TL__SR_TILE_COPY, "%s: shape %d, not tiles", what, sh.shape);
            if (sh.shape != TL__SR_TILE_COPY) continue;
            L = &plan.loops[plan.nloops - 1];
            M = &plan.loops[sh.M];
            db = (size_t)M->dst_stride * es;
            strip = tl__sr_strip_of((int)es, 0, row0, db, M->size, L->size, 0, tl__sr_one_run);
            CHECK_MSG((size_t)strip * es == (size_t)cases[i].strip && L->size % strip != 0,
                      "%s: strips of %ld bytes, L %ld", what, (long)strip * (long)es, (long)L->size);
            if ((size_t)M->size * es <= TL__SR_SHORT_M)
                CHECK_MSG(tl__sr_strip_of((int)es, 0, row0, db, M->size, L->size, 1, tl__sr_one_run) * (tl_dim)es ==
                              TL__SR_STRIP_SHORT,
                          "%s: streamed short tiles in strips of other than %d bytes", what, TL__SR_STRIP_SHORT);
            compare(&s, &d, &a, 0, what);
            compare(&s, &d, &a, 4 * (nt - 1) + (int)es, what);
        }
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        if (argc == 2 && strcmp(argv[1], "--isa=avx512") == 0) isa_cap = 2;
        else if (argc == 2 && strcmp(argv[1], "--isa=avx2") == 0) isa_cap = 1;
        else if (argc == 2 && strcmp(argv[1], "--isa=sse2") == 0) isa_cap = 0;
        else {
            fprintf(stderr, "usage: %s [--isa=avx512|--isa=avx2|--isa=sse2]\n", argv[0]);
            return 2;
        }
    }
    tails_boxes();
    tails_in_walk();
    runs_in_src_order();
    pairs_in_src_order();
    last_runs();
    lone_tiles();
    depthwise_tiles();
    lines_inside();
    wide_strips();
    one_block_runs();
    narrow_rows();
    image_planes();
    padded_images();
    short_runs();
    paired_runs();
    joined_runs();
    gathered_runs();
    converting_tiles();
    blocks_of_four();
    side_runs();
    side_runs_src_order();
    converted_steps();
    other_pairs();
    wide_blocks();
    narrow_blocks();
    streamed_conversions();
    side_tiles();
    side_tiles_wide();
    converted_side_tiles();
    scaled_side_tiles();
    merged_tiles();
    merged_tiles_chunked();
    quads4();
    quads4_convert();
    quads4_words();
    quads4_cols();
    quads4_taps();
    quads4_back();
    rows_from_columns();
    dwords_of_four_rows();
    tiles_in_runs();
    copy_loops();
    balanced();
    chunked();
    weights();
    scaled_f32();
    direct_tiles();
    byte_tiles();
    units_of_4();
    onepass_blocks();
    tail_sweep();
    views((int)tl_test_cases(200));
    random_matrix((int)tl_test_cases(3000));
    CHECK_MSG(cases_simd * 3 > cases_run, "SIMD kernels took only %ld of %ld plans",
              cases_simd, cases_run);
    printf("simd_reorder: %ld cases, %ld on the SIMD kernel, %ld with staged blocks (%ld fast, "
           "%ld zipped in one pass, %ld from the source), AVX2 variants %s, AVX-512 %s\n",
           cases_run, cases_simd, cases_perm, cases_perm_fast, cases_onepass, cases_zipsrc,
           tl__sr_avx2() ? "used" : "not used", tl__sr_avx512() ? "used" : "not used");
    if (shuffle_simd_tests() != 0) return 1;
    return tl_test_result("simd_reorder");
}
