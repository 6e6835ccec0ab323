/* tl_shuffle against a naive reference written from the seed's definition
   (test_shuffle_cases.h), on random layouts, views, axes, groups and data
   types; forward then backward is the identity; backward(G) is
   forward(C/G); padding is zeroed on every call; bit patterns (NaN
   payloads, -0.0) survive; bad input writes nothing. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include "test_shuffle_cases.h"

/* The whole buffer is compared: bytes outside the view stay as they were. */
static void check_random_case(int iter)
{
    tl_memory_desc md;
    char desc[96];
    tl_data_type dt = shuffle_dts[tl_test_range(0, SHUFFLE_NDTS - 1)];
    int axis;
    tl_dim g;
    tl_direction dir = tl_test_range(0, 1) ? TL_BACKWARD : TL_FORWARD;
    size_t size;
    unsigned char *src, *dst, *ref;
    random_md(&md, dt, desc);
    axis = (int)tl_test_range(0, md.ndims - 1);
    g = random_divisor(md.dims[axis]);
    size = tl_md_size(&md);
    src = (unsigned char *)malloc(size);
    dst = (unsigned char *)malloc(size);
    ref = (unsigned char *)malloc(size);
    fill_random(src, size);
    fill_random(dst, size);
    memcpy(ref, dst, size);
    ref_shuffle(&md, src, ref, axis, g, dir);
    CHECK_EQ(tl_shuffle(&md, src, dst, axis, g, dir), TL_OK);
    CHECK_MSG(memcmp(dst, ref, size) == 0, "case %d: %s %s axis %d C %lld G %lld %s", iter,
              desc, tl_dt_name(dt), axis, (long long)md.dims[axis], (long long)g,
              dir == TL_FORWARD ? "fwd" : "bwd");
    free(src);
    free(dst);
    free(ref);
}

/* Forward then backward restores every element; backward(G) writes the
   same bytes as forward(C/G). */
static void check_round_trip(int iter)
{
    tl_memory_desc md;
    char desc[96];
    tl_data_type dt = shuffle_dts[tl_test_range(0, SHUFFLE_NDTS - 1)];
    int axis, same = 1;
    tl_dim g, idx[TL_MAX_NDIMS] = {0}, c;
    size_t size, es = tl_dt_size(dt);
    unsigned char *src, *mid, *back, *fwd_q;
    random_md(&md, dt, desc);
    axis = (int)tl_test_range(0, md.ndims - 1);
    c = md.dims[axis];
    g = random_divisor(c);
    size = tl_md_size(&md);
    src = (unsigned char *)malloc(size);
    mid = (unsigned char *)calloc(size, 1);
    back = (unsigned char *)calloc(size, 1);
    fwd_q = (unsigned char *)calloc(size, 1);
    fill_random(src, size);
    CHECK_EQ(tl_shuffle(&md, src, mid, axis, g, TL_FORWARD), TL_OK);
    CHECK_EQ(tl_shuffle(&md, mid, back, axis, g, TL_BACKWARD), TL_OK);
    do {    /* every real element is back in place */
        tl_dim off = tl_md_offset(&md, idx) * (tl_dim)es;
        if (memcmp(back + off, src + off, es) != 0) same = 0;
    } while (tl__next_index(md.ndims, md.dims, idx));
    CHECK_MSG(same, "case %d: %s axis %d G %lld: backward(forward) differs", iter, desc,
              axis, (long long)g);
    CHECK_EQ(tl_shuffle(&md, src, mid, axis, g, TL_BACKWARD), TL_OK);
    CHECK_EQ(tl_shuffle(&md, src, fwd_q, axis, c / g, TL_FORWARD), TL_OK);
    CHECK_MSG(memcmp(mid, fwd_q, size) == 0, "case %d: %s: backward(G) != forward(C/G)",
              iter, desc);
    free(src);
    free(mid);
    free(back);
    free(fwd_q);
}

/* C = 6, the drawing in docs/shuffle.md: channel values are their index. */
static void check_small_example(void)
{
    static const tl_dim want_g2[6] = {0, 2, 4, 1, 3, 5};
    static const tl_dim want_g3[6] = {0, 3, 1, 4, 2, 5};
    tl_dim dims[4] = {1, 6, 2, 1};
    const char *tags[3] = {"nchw", "nhwc", "nChw4c"};
    int t, c, hw;
    for (t = 0; t < 3; ++t) {
        tl_memory_desc md;
        float src[16], d2[16], d3[16], back[16];
        CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, tags[t]), TL_OK);
        for (c = 0; c < 6; ++c)
            for (hw = 0; hw < 2; ++hw) {
                tl_dim idx[4] = {0, 0, 0, 0};
                idx[1] = c;
                idx[2] = hw;
                src[tl_md_offset(&md, idx)] = (float)(c * 10 + hw);
            }
        CHECK_EQ(tl_shuffle(&md, src, d2, 1, 2, TL_FORWARD), TL_OK);
        CHECK_EQ(tl_shuffle(&md, src, d3, 1, 3, TL_FORWARD), TL_OK);
        CHECK_EQ(tl_shuffle(&md, d2, back, 1, 2, TL_BACKWARD), TL_OK);
        for (c = 0; c < 6; ++c)
            for (hw = 0; hw < 2; ++hw) {
                tl_dim idx[4] = {0, 0, 0, 0};
                tl_dim off;
                idx[1] = c;
                idx[2] = hw;
                off = tl_md_offset(&md, idx);
                CHECK_EQ(d2[off], want_g2[c] * 10 + hw);
                CHECK_EQ(d3[off], want_g3[c] * 10 + hw);
                CHECK_EQ(back[off], c * 10 + hw);
            }
    }
}

/* The layouts the issue names, axis 1 and every other axis, each group. */
static void check_named_layouts(void)
{
    static const struct { int ndims; tl_dim dims[5]; const char *tag; } cases[] = {
        {4, {2, 12, 3, 5, 0}, "nchw"},     {4, {2, 12, 3, 5, 0}, "nhwc"},
        {5, {2, 8, 2, 3, 2}, "ncdhw"},     {5, {2, 8, 2, 3, 2}, "ndhwc"},
        {2, {3, 24, 0, 0, 0}, "nc"},       {3, {2, 10, 7, 0, 0}, "nwc"},
        {4, {2, 20, 3, 3, 0}, "nChw8c"},   {4, {2, 20, 3, 3, 0}, "nChw16c"},
        {4, {2, 36, 2, 3, 0}, "nChw16c"},  {5, {1, 12, 2, 2, 3}, "nCdhw8c"},
        {4, {3, 16, 2, 2, 0}, "NChw16n16c"},
        /* more channels than the core's offset chunk (256) */
        {4, {1, 300, 1, 2, 0}, "nchw"},
    };
    int i, axis, dt;
    for (i = 0; i < (int)(sizeof cases / sizeof *cases); ++i)
        for (dt = 0; dt < SHUFFLE_NDTS; ++dt)
            for (axis = 0; axis < cases[i].ndims; ++axis) {
                tl_memory_desc md;
                tl_dim c = cases[i].dims[axis], g;
                size_t size;
                unsigned char *src, *dst, *ref;
                CHECK_EQ(tl_md_init_by_tag(&md, cases[i].ndims, cases[i].dims, shuffle_dts[dt],
                                           cases[i].tag), TL_OK);
                size = tl_md_size(&md);
                src = (unsigned char *)malloc(size);
                dst = (unsigned char *)malloc(size);
                ref = (unsigned char *)malloc(size);
                for (g = 1; g <= c; ++g) {
                    int dir;
                    if (c % g) continue;
                    for (dir = 0; dir < 2; ++dir) {
                        fill_random(src, size);
                        fill_random(dst, size);
                        memcpy(ref, dst, size);
                        ref_shuffle(&md, src, ref, axis, g, (tl_direction)dir);
                        CHECK_EQ(tl_shuffle(&md, src, dst, axis, g, (tl_direction)dir), TL_OK);
                        CHECK_MSG(memcmp(dst, ref, size) == 0, "%s %s axis %d G %lld dir %d",
                                  cases[i].tag, tl_dt_name(shuffle_dts[dt]), axis,
                                  (long long)g, dir);
                    }
                }
                free(src);
                free(dst);
                free(ref);
            }
}

/* Padding of a blocked dst is zero after every call, whatever dst held. */
static void check_padding_zeroed(void)
{
    tl_dim dims[4] = {2, 20, 2, 3}, idx[4] = {0, 0, 0, 0}, padded[4];
    tl_memory_desc md;
    float *src, *dst;
    size_t size;
    int call, d, zero = 1, npad = 0;
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "nChw16c"), TL_OK);
    size = tl_md_size(&md);
    src = (float *)malloc(size);
    dst = (float *)malloc(size);
    fill_random((unsigned char *)src, size);
    for (d = 0; d < 4; ++d) padded[d] = md.padded_dims[d];
    for (call = 0; call < 2; ++call) {
        memset(dst, 0xab, size);
        CHECK_EQ(tl_shuffle(&md, src, dst, 1, 4, TL_FORWARD), TL_OK);
        do {
            uint32_t bits;
            if (idx[1] < 20) continue;
            memcpy(&bits, &dst[tl_md_offset(&md, idx)], 4);
            if (bits != 0) zero = 0;
            ++npad;
        } while (tl__next_index(4, padded, idx));
    }
    CHECK(zero);
    CHECK_EQ(npad, 2 * 2 * 12 * 2 * 3);
    free(src);
    free(dst);
}

/* Bit patterns an arithmetic copy would change: signalling NaN with a
   payload, negative NaN, -0.0, in every floating type. */
static void check_bit_patterns(void)
{
    static const struct { tl_data_type dt; uint64_t bits[4]; } cases[] = {
        {TL_F32, {0x7fa00001u, 0xffc12345u, 0x80000000u, 0x00000001u}},
        {TL_BF16, {0x7f81u, 0xffc1u, 0x8000u, 0x0001u}},
        {TL_F16, {0x7d01u, 0xfe03u, 0x8000u, 0x0001u}},
        {TL_F64, {0x7ff0000000000001ull, 0xfff8000000000abcull, 0x8000000000000000ull, 1}},
    };
    tl_dim dims[2] = {3, 4};
    int i, n, k;
    for (i = 0; i < 4; ++i) {
        tl_memory_desc md;
        unsigned char src[8 * 12], dst[8 * 12];
        size_t es = tl_dt_size(cases[i].dt);
        CHECK_EQ(tl_md_init_by_tag(&md, 2, dims, cases[i].dt, "nc"), TL_OK);
        for (n = 0; n < 3; ++n)
            for (k = 0; k < 4; ++k)
                memcpy(src + (size_t)(n * 4 + k) * es, &cases[i].bits[k], es);
        CHECK_EQ(tl_shuffle(&md, src, dst, 1, 2, TL_FORWARD), TL_OK);
        for (n = 0; n < 3; ++n) {       /* channels 0 1 2 3 -> 0 2 1 3 */
            CHECK(memcmp(dst + (size_t)(n * 4 + 1) * es, &cases[i].bits[2], es) == 0);
            CHECK(memcmp(dst + (size_t)(n * 4 + 2) * es, &cases[i].bits[1], es) == 0);
            CHECK(memcmp(dst + (size_t)(n * 4 + 0) * es, &cases[i].bits[0], es) == 0);
        }
    }
}

/* Every refused call returns an error and leaves dst as it was. */
static void check_bad_input(void)
{
    tl_dim dims[4] = {2, 6, 3, 3};
    tl_dim edims[4] = {2, 0, 3, 3};
    tl_memory_desc md, any, bad, comp, empty;
    unsigned char buf[4096], keep[4096];
    unsigned char *src = buf, *dst = buf + 1024;
    size_t size;
    struct {
        const char *what;
        const tl_memory_desc *md;
        const void *src;
        void *dst;
        int axis;
        tl_dim g;
        int dir;
    } rows[18];
    int i, n = 0;
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "nchw"), TL_OK);
    CHECK_EQ(tl_md_init_by_tag(&any, 4, dims, TL_F32, "any"), TL_OK);
    CHECK_EQ(tl_md_init_by_tag(&empty, 4, edims, TL_F32, "nchw"), TL_OK);
    size = tl_md_size(&md);
    CHECK(size <= 1024);
    bad = md;
    bad.ndims = 0;
    comp = md;
    comp.data_type = TL_S8;
    comp.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
#define ROW(w, m, s, d, a, gg, dr) do { rows[n].what = w; rows[n].md = m; rows[n].src = s; \
    rows[n].dst = d; rows[n].axis = a; rows[n].g = gg; rows[n].dir = dr; ++n; } while (0)
    ROW("md NULL", NULL, src, dst, 1, 2, 0);
    ROW("md format any", &any, src, dst, 1, 2, 0);
    ROW("md ndims 0", &bad, src, dst, 1, 2, 0);
    ROW("md with compensation", &comp, src, dst, 1, 2, 0);
    ROW("src NULL", &md, NULL, dst, 1, 2, 0);
    ROW("dst NULL", &md, src, NULL, 1, 2, 0);
    ROW("axis -1", &md, src, dst, -1, 2, 0);
    ROW("axis ndims", &md, src, dst, 4, 1, 0);
    ROW("group 0", &md, src, dst, 1, 0, 0);
    ROW("group -2", &md, src, dst, 1, -2, 0);
    ROW("group 4 does not divide 6", &md, src, dst, 1, 4, 0);
    ROW("group 12 > C", &md, src, dst, 1, 12, 0);
    ROW("group 2 does not divide 3 (axis 2)", &md, src, dst, 2, 2, 1);
    ROW("direction 2", &md, src, dst, 1, 2, 2);
    ROW("empty axis", &empty, src, dst, 1, 1, 0);
    ROW("src == dst", &md, src, src, 1, 2, 0);
    ROW("dst one element after src", &md, src, src + 4, 1, 2, 0);
    ROW("src inside dst's end", &md, dst + size - 1, dst, 1, 3, 1);
#undef ROW
    for (i = 0; i < n; ++i) {
        tl_status st;
        fill_random(buf, sizeof buf);
        memcpy(keep, buf, sizeof buf);
        st = tl_shuffle(rows[i].md, rows[i].src, rows[i].dst, rows[i].axis, rows[i].g,
                        (tl_direction)rows[i].dir);
        CHECK_MSG(st != TL_OK, "%s: accepted", rows[i].what);
        CHECK_MSG(memcmp(buf, keep, sizeof buf) == 0, "%s: wrote to memory", rows[i].what);
    }
    /* the exact codes a caller may switch on */
    CHECK_EQ(tl_shuffle(&md, src, src, 1, 2, TL_FORWARD), TL_OVERLAP);
    CHECK_EQ(tl_shuffle(&md, src, dst, 1, 4, TL_FORWARD), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_shuffle(&md, src, dst, 7, 1, TL_FORWARD), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_shuffle(&comp, src, dst, 1, 2, TL_FORWARD), TL_UNSUPPORTED);
    /* buffers that touch but do not overlap are fine */
    CHECK_EQ(tl_shuffle(&md, src, src + size, 1, 2, TL_FORWARD), TL_OK);
}

/* A view's offset0 moves its range: two views of one parent at distinct
   pointers may share no byte even though the pointers are close. */
static void check_view_ranges(void)
{
    tl_dim dims[4] = {1, 8, 4, 4}, vdims[4] = {1, 8, 2, 4}, offs[4] = {0, 0, 2, 0};
    tl_memory_desc parent, view;
    float buf[2 * 128];
    size_t vsize;
    CHECK_EQ(tl_md_init_by_tag(&parent, 4, dims, TL_F32, "nchw"), TL_OK);
    CHECK_EQ(tl_md_submemory(&view, &parent, vdims, offs), TL_OK);
    vsize = tl_md_size(&view);
    /* the view's elements start at offset0, so dst may begin right where
       src's last element ends minus offset0 */
    CHECK_EQ(tl_shuffle(&view, buf, (char *)buf + vsize - (size_t)view.offset0 * 4, 1, 2,
                        TL_FORWARD), TL_OK);
    CHECK_EQ(tl_shuffle(&view, buf, (char *)buf + vsize - (size_t)view.offset0 * 4 - 4, 1, 2,
                        TL_FORWARD), TL_OVERLAP);
}

/* padded_offsets: the rows before and after the real ones are padding
   too, zeroed; real elements move as the reference says. Offsets are
   written out by hand (dense nchw of 1x4x5x3, h starting at row 1). */
static void check_padded_offsets(void)
{
    tl_dim dims[4] = {1, 4, 5, 3};
    tl_memory_desc md;
    float src[60], dst[60];
    int c, h, w, i, ok = 1;
    CHECK_EQ(tl_md_init_by_strides(&md, 4, dims, TL_F32, NULL), TL_OK);
    md.dims[2] = 3;
    md.padded_offsets[2] = 1;
    CHECK_EQ(tl_md_validate(&md, NULL, 0), TL_OK);
    for (i = 0; i < 60; ++i) {
        src[i] = (float)i;
        dst[i] = -1.f;
    }
    CHECK_EQ(tl_shuffle(&md, src, dst, 1, 2, TL_FORWARD), TL_OK);
    for (c = 0; c < 4; ++c)           /* channels 0 1 2 3 read 0 2 1 3 */
        for (h = 0; h < 5; ++h)
            for (w = 0; w < 3; ++w) {
                int sc = c == 1 ? 2 : c == 2 ? 1 : c, off = c * 15 + h * 3 + w;
                float want = h >= 1 && h <= 3 ? (float)(sc * 15 + h * 3 + w) : 0.f;
                if (dst[off] != want) ok = 0;
            }
    CHECK(ok);
}

/* An empty tensor is a valid no-op. */
static void check_empty(void)
{
    tl_dim dims[3] = {0, 6, 2};
    tl_memory_desc md;
    unsigned char byte = 0x5a;
    CHECK_EQ(tl_md_init_by_tag(&md, 3, dims, TL_F32, "abc"), TL_OK);
    CHECK_EQ(tl_shuffle(&md, &byte, &byte + 1, 1, 3, TL_FORWARD), TL_OK);
    CHECK_EQ(byte, 0x5a);
}

int main(void)
{
    int i;
    check_small_example();
    check_named_layouts();
    check_padding_zeroed();
    check_bit_patterns();
    check_bad_input();
    check_view_ranges();
    check_empty();
    check_padded_offsets();
    for (i = 0; i < 3000; ++i) check_random_case(i);
    for (i = 0; i < 1000; ++i) check_round_trip(i);
    return tl_test_result("shuffle");
}
