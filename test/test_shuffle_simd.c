/* SIMD kernels against the scalar core, bit for bit, in one program: the
   two sides are the translation units of test_simd_reorder (its vector
   build exports shuffle_simd_run, its scalar one shuffle_scalar_run), so
   each of that test's builds (AVX-512, AVX2, SSE2, SIMDe's portable path,
   streaming stores) runs these cases too without compiling the library
   again. Cases aim at the zip/unzip kernels
   (channels-last, nChw8c/16c-like blocks, views, tails) and at layouts
   they must leave to the core; each case also says whether a kernel
   should have run, and the test checks that it did. */
#define _DEFAULT_SOURCE     /* tl_test_fenced: MAP_ANONYMOUS under -std=c99 */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include "test_shuffle_cases.h"

tl_status shuffle_simd_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                           tl_dim g, tl_direction dir, int *vectorized);
tl_status shuffle_scalar_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                             tl_dim g, tl_direction dir, int *vectorized);

int shuffle_simd_has_lines(tl_dim es);

static int small_pow2(tl_dim n) { return n == 2 || n == 4 || n == 8 || n == 16; }

static long lines_ran;   /* comparisons the block lines should have made */

/* The block lines' rule (docs/shuffle.md, "How it runs"), on AVX-512
   (AVX2: 4- and 8-byte elements):
   the axis is the one inner block, blk * es divides 64 (a vector holds
   64 / (blk * es) pixels, which must then lie side by side: the other
   dim with the smallest stride, if any has two positions, has stride
   blk), and the dst blocks draw on at most 128 source blocks in all
   (dst channel c reads (c % Q) G + c / Q, the seed's formula). */
static int lines_take(const tl_memory_desc *md, int axis, tl_dim G)
{
    const tl_blocking_desc *bd = &md->blocking;
    tl_dim C = md->dims[axis], Q = C / G, es = (tl_dim)tl_dt_size(md->data_type);
    tl_dim blk = bd->inner_blks[0], inner = -1, nblocks, b, c, nsrc = 0;
    int d;
    if (!shuffle_simd_has_lines(es) || bd->inner_nblks != 1 || bd->inner_idxs[0] != axis ||
        md->padded_offsets[axis] != 0 || (es != 2 && es != 4 && es != 8) ||
        blk * es > 64 || 64 % (blk * es) != 0)
        return 0;
    for (d = 0; d < md->ndims; ++d)
        if (d != axis && md->dims[d] > 1 && (inner < 0 || bd->strides[d] < inner))
            inner = bd->strides[d];
    if (blk * es < 64 && inner >= 0 && inner != blk) return 0;
    nblocks = md->padded_dims[axis] / blk;
    for (b = 0; b < nblocks; ++b) {
        tl_dim seen[64];
        int n = 0, i;
        for (c = b * blk; c < (b + 1) * blk && c < C; ++c) {
            tl_dim sb = ((c % Q) * G + c / Q) / blk;
            for (i = 0; i < n && seen[i] != sb; ++i) {}
            if (i == n) seen[n++] = sb;
        }
        nsrc += n;
    }
    return nblocks <= 128 && nsrc <= 128;
}

/* When a kernel applies (docs/shuffle.md, "How it runs"): the block
   lines take the plan (above); else the axis is innermost
   with stride 1, or is the only inner block and that block holds a whole
   16-byte vector; and G or C/G is 2, 4, 8 or 16 with the other at least
   one vector long. Other plain layouts without a contiguous run go
   through the reorder kernels (counted as vectorized too). */
static int expect_vectorized(const tl_memory_desc *md, int axis, tl_dim g, tl_direction dir)
{
    const tl_blocking_desc *bd = &md->blocking;
    tl_dim C = md->dims[axis], G = dir == TL_FORWARD ? g : C / g, Q = C / G;
    tl_dim V = 16 / (tl_dim)tl_dt_size(md->data_type);
    int plain = bd->inner_nblks == 0 && bd->strides[axis] == 1;
    int blocked = bd->inner_nblks == 1 && bd->inner_idxs[0] == axis && bd->inner_blks[0] >= V;
    int d, runs = 0;
    if (G == 1 || G == C) return 0;
    if (lines_take(md, axis, G)) return 1;
    if (md->padded_offsets[axis] == 0 && (plain || blocked) &&
        ((small_pow2(G) && Q >= V) || (small_pow2(Q) && G >= V)))
        return 1;
    /* else a plain layout whose channels go one by one (no other dim
       runs contiguously) is shuffled as a reorder of two views */
    for (d = 0; d < md->ndims; ++d)
        runs |= d != axis && bd->strides[d] == 1 && md->dims[d] > 1;
    return bd->inner_nblks == 0 && !runs;
}

/* Channels-last: the axis has stride 1, the other dims random strides
   (with gaps) outside it. */
static void channels_last_md(tl_memory_desc *md, int ndims, int axis, const tl_dim *dims,
                             tl_data_type dt)
{
    tl_dim strides[TL_MAX_NDIMS], s = dims[axis] + tl_test_range(0, 2) * tl_test_range(0, 3);
    int order[TL_MAX_NDIMS], n = 0, i;
    for (i = 0; i < ndims; ++i) if (i != axis) order[n++] = i;
    for (i = n - 1; i > 0; --i) {
        int j = (int)tl_test_range(0, i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    strides[axis] = 1;
    for (i = n - 1; i >= 0; --i) {
        strides[order[i]] = s;
        s = s * dims[order[i]] + tl_test_range(0, 1) * tl_test_range(0, 5);
    }
    CHECK_EQ(tl_md_init_by_strides(md, ndims, dims, dt, strides), TL_OK);
}

/* The axis is the one blocked dim (block 4, 8 or 16), outer order random. */
static void blocked_md(tl_memory_desc *md, int ndims, int axis, const tl_dim *dims,
                       tl_data_type dt)
{
    static const int blks[3] = {4, 8, 16};
    int order[TL_MAX_NDIMS], i, n = 0;
    char tag[32];
    for (i = 0; i < ndims; ++i) order[i] = i;
    for (i = ndims - 1; i > 0; --i) {
        int j = (int)tl_test_range(0, i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (i = 0; i < ndims; ++i)
        tag[n++] = (char)((order[i] == axis ? 'A' : 'a') + order[i]);
    sprintf(tag + n, "%d%c", blks[tl_test_range(0, 2)], 'a' + axis);
    CHECK_EQ(tl_md_init_by_tag(md, ndims, dims, dt, tag), TL_OK);
}

/* One comparison; returns whether the SIMD side used a kernel. */
/* dst buffers start 64 bytes aligned (lines stream there) or a few
   elements past that. */
static unsigned char *shifted(unsigned char *raw, size_t shift)
{
    return raw + (64 - (uintptr_t)raw % 64) % 64 + shift;
}

static int compare(const tl_memory_desc *md, int axis, tl_dim g, tl_direction dir,
                   const char *what)
{
    size_t size = tl_md_size(md), es = tl_dt_size(md->data_type), slen = 0;
    size_t shift = tl_test_range(0, 1) ? 0 : es * (size_t)tl_test_range(1, 3);
    unsigned char *raw[2], *src, *a, *b;
    void *sbase = NULL;
    int vec = -1, scalar_vec = -1, want = expect_vectorized(md, axis, g, dir), i;
    tl_dim C = md->dims[axis];
    for (i = 0; i < 2; ++i) raw[i] = (unsigned char *)malloc(size + 64 + shift);
    /* src ends at an unreadable page: a load past its end crashes */
    src = tl_test_fenced(size, &sbase, &slen);
    a = shifted(raw[0], shift);
    b = shifted(raw[1], shift);
    lines_ran += want && lines_take(md, axis, dir == TL_FORWARD ? g : C / g);
    fill_random(src, size);
    fill_random(a, size);
    memcpy(b, a, size);
    CHECK_EQ(shuffle_simd_run(md, src, a, axis, g, dir, &vec), TL_OK);
    CHECK_EQ(shuffle_scalar_run(md, src, b, axis, g, dir, &scalar_vec), TL_OK);
    CHECK_EQ(scalar_vec, 0);
    CHECK_MSG(vec == want, "%s: vectorized %d, expected %d", what, vec, want);
    CHECK_MSG(memcmp(a, b, size) == 0, "%s %s axis %d C %lld g %lld %s: SIMD != scalar", what,
              tl_dt_name(md->data_type), axis, (long long)md->dims[axis], (long long)g,
              dir == TL_FORWARD ? "fwd" : "bwd");
    for (i = 0; i < 2; ++i) free(raw[i]);
    tl_test_fenced_free(sbase, slen);
    return vec;
}

/* C = small * other with small in {2,4,8,16}: the kernel's G (unzip) or
   C/G (zip), reached through either direction. */
static int kernel_case(int blocked, int unzip, int view)
{
    tl_dim dims[TL_MAX_NDIMS], small = (tl_dim)1 << tl_test_range(1, 4), other, C, G, g;
    tl_data_type dt = shuffle_dts[tl_test_range(0, SHUFFLE_NDTS - 1)];
    int ndims = (int)tl_test_range(2, 4), axis = (int)tl_test_range(0, ndims - 1), d;
    tl_direction dir = tl_test_range(0, 1) ? TL_BACKWARD : TL_FORWARD;
    tl_memory_desc md, parent;
    char what[64];
    other = tl_test_range(1, 40);
    C = small * other;
    G = unzip ? small : other;
    g = dir == TL_FORWARD ? G : C / G;
    for (d = 0; d < ndims; ++d) dims[d] = tl_test_range(1, 4);
    dims[axis] = C;
    if (blocked) blocked_md(&parent, ndims, axis, dims, dt);
    else channels_last_md(&parent, ndims, axis, dims, dt);
    md = parent;
    if (view && !random_view(&md, &parent)) md = parent;
    if (md.dims[axis] != C) {      /* a view of part of the channels */
        C = md.dims[axis];
        g = random_divisor(C);
    }
    sprintf(what, "%s %s%s", blocked ? "blocked" : "channels-last", unzip ? "unzip" : "zip",
            view ? " view" : "");
    return compare(&md, axis, g, dir, what);
}

/* Anything at all: the kernels must decline or agree. */
static void general_case(void)
{
    tl_memory_desc md;
    char desc[96];
    tl_data_type dt = shuffle_dts[tl_test_range(0, SHUFFLE_NDTS - 1)];
    int axis;
    random_md(&md, dt, desc);
    axis = (int)tl_test_range(0, md.ndims - 1);
    compare(&md, axis, random_divisor(md.dims[axis]), tl_test_range(0, 1) ? TL_BACKWARD
                                                                      : TL_FORWARD, desc);
}

/* Many pixels per row (h*w up to 1600): blocked rows are cut into tiles
   (TL__SHUF_TILE_BYTES), and a row may end inside a tile or a group of
   chunks; channel counts with tails and padded blocks. */
static void wide_case(void)
{
    static const char *tags[4] = {"nChw4c", "nChw8c", "nChw16c", "nhwc"};
    tl_dim small = (tl_dim)1 << tl_test_range(1, 4), other = tl_test_range(1, 12);
    tl_dim dims[4], C = small * other;
    tl_data_type dt = shuffle_dts[tl_test_range(0, SHUFFLE_NDTS - 1)];
    tl_direction dir = tl_test_range(0, 1) ? TL_BACKWARD : TL_FORWARD;
    tl_dim G = tl_test_range(0, 1) ? small : other;
    tl_memory_desc md;
    dims[0] = tl_test_range(1, 2);
    dims[1] = C;
    dims[2] = tl_test_range(1, 40);
    dims[3] = tl_test_range(20, 40);
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, dt, tags[tl_test_range(0, 3)]), TL_OK);
    compare(&md, 1, dir == TL_FORWARD ? G : C / G, dir, "wide");
}

/* Planes of nchw: the core copies each channel's plane, in the order of
   the side that is not interleaved, in chunks of 256 channels, streaming
   the stores (in the build with TL__SHUF_STREAM_MIN=1); views start
   planes off any alignment. */
static void planes_case(void)
{
    tl_dim dims[4], g;
    tl_data_type dt = shuffle_dts[tl_test_range(0, SHUFFLE_NDTS - 1)];
    tl_direction dir = tl_test_range(0, 1) ? TL_BACKWARD : TL_FORWARD;
    tl_memory_desc md, parent;
    dims[0] = tl_test_range(1, 2);
    dims[1] = tl_test_range(1, 8) * tl_test_range(1, 70);
    dims[2] = tl_test_range(1, 6);
    dims[3] = tl_test_range(1, 40);
    CHECK_EQ(tl_md_init_by_tag(&parent, 4, dims, dt, "nchw"), TL_OK);
    md = parent;
    if (tl_test_range(0, 1) && !random_view(&md, &parent)) md = parent;
    g = random_divisor(md.dims[1]);
    compare(&md, 1, g, dir, "planes");
}

/* The block lines: any group size, blocks of 4 to 32 in any outer
   order (64 / (blk * es) pixels a vector when they lie side by side),
   rows shorter than a vector, ending inside one, or cut into tiles,
   padded last blocks, views. */
static void lines_case(void)
{
    static const char *blks[4] = {"4", "8", "16", "32"};
    tl_dim dims[4], C;
    tl_data_type dt = shuffle_dts[tl_test_range(0, SHUFFLE_NDTS - 1)];
    tl_direction dir = tl_test_range(0, 1) ? TL_BACKWARD : TL_FORWARD;
    tl_memory_desc md, parent;
    char tag[16];
    int order = (int)tl_test_range(0, 2);
    dims[0] = tl_test_range(1, 3);
    dims[1] = C = tl_test_range(2, 300);
    dims[2] = tl_test_range(1, 9);
    dims[3] = tl_test_range(1, 150);
    sprintf(tag, "%s%sc", order == 0 ? "nChw" : order == 1 ? "nhwC" : "Cnhw",
            blks[tl_test_range(0, 3)]);
    CHECK_EQ(tl_md_init_by_tag(&parent, 4, dims, dt, tag), TL_OK);
    md = parent;
    if (tl_test_range(0, 3) == 0 && !random_view(&md, &parent)) md = parent;
    compare(&md, 1, random_divisor(md.dims[1]), dir, "lines");
}

/* ShuffleNet v2's shapes: 116 channels in two groups, nhwc and nChw16c
   (116 = 7 blocks of 16 + 4: vectors cross blocks and the last is padded). */
static void shufflenet_cases(void)
{
    static const char *tags[2] = {"nhwc", "nChw16c"};
    tl_dim dims[4] = {2, 116, 3, 5};
    int t, dt, dir;
    for (t = 0; t < 2; ++t)
        for (dt = 0; dt < SHUFFLE_NDTS; ++dt)
            for (dir = 0; dir < 2; ++dir) {
                tl_memory_desc md;
                CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, shuffle_dts[dt], tags[t]), TL_OK);
                compare(&md, 1, 58, (tl_direction)dir, tags[t]);
                compare(&md, 1, 2, (tl_direction)dir, tags[t]);
            }
}

int shuffle_simd_tests(void);

/* called by test_simd_reorder's main; the result of the checks made here */
int shuffle_simd_tests(void)
{
    int kinds[2][2] = {{0, 0}, {0, 0}}, i, blocked, unzip;
    for (i = 0; i < 1600; ++i) {
        blocked = i % 2;
        unzip = (i / 2) % 2;
        kinds[blocked][unzip] += kernel_case(blocked, unzip, (i / 4) % 3 == 0);
    }
    for (i = 0; i < 1000; ++i) general_case();
    for (i = 0; i < 60; ++i) wide_case();
    for (i = 0; i < 200; ++i) planes_case();
    for (i = 0; i < 600; ++i) lines_case();
    shufflenet_cases();
    /* each kernel ran on many cases, so the comparisons above meant something */
    for (blocked = 0; blocked < 2; ++blocked)
        for (unzip = 0; unzip < 2; ++unzip)
            CHECK_MSG(kinds[blocked][unzip] > 100, "kernel blocked=%d unzip=%d ran %d times",
                      blocked, unzip, kinds[blocked][unzip]);
    /* AVX2 leaves the 2-byte types (2 of the 7) to the zips */
    CHECK_MSG(!shuffle_simd_has_lines(4) || lines_ran > (shuffle_simd_has_lines(2) ? 300 : 200),
              "block lines ran %ld times", lines_ran);
    return tl_test_result("shuffle_simd");
}
