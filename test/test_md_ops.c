/* Descriptor operations: matches/to_tag round trips, submemory, permute,
   reshape and equality. Views are checked element by element: a view's
   offset of idx must equal the parent's offset of the matching index. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <string.h>

static void init(tl_memory_desc *md, int nd, const tl_dim *dims, const char *tag)
{
    tl_status st = tl_md_init_by_tag(md, nd, dims, TL_F32, tag);
    CHECK_MSG(st == TL_OK, "init %s: %s", tag, tl_status_str(st));
}

static void check_to_tag(void)
{
    static const char *const tags[] = {
        "abcd", "acdb", "aBcd16b", "ABcd16b16a", "ABcd4b16a4b", "Acdb32a",
        "aBCde2c8b4c", "cdba", "BAcd16a16b", "aBcd4b4b"
    };
    tl_dim dims[5] = {3, 17, 5, 2, 3};
    size_t i;
    for (i = 0; i < sizeof tags / sizeof *tags; ++i) {
        tl_memory_desc md, back;
        char buf[64];
        int nd = 0;
        while (tags[i][nd] && !(tags[i][nd] >= '0' && tags[i][nd] <= '9')) ++nd;
        init(&md, nd, dims, tags[i]);
        CHECK(tl_md_matches_tag(&md, tags[i], NULL));
        CHECK_EQ(tl_md_to_tag(&md, buf, sizeof buf), TL_OK);
        CHECK_MSG(strcmp(buf, tags[i]) == 0, "%s -> %s", tags[i], buf);
        init(&back, nd, dims, buf);
        CHECK(tl_md_equal(&md, &back));
        CHECK_EQ(tl_md_to_tag(&md, buf, strlen(tags[i])), TL_BUFFER_TOO_SMALL);
    }
    {   /* aliases come back in abstract spelling; matching ignores names */
        tl_memory_desc md;
        char buf[32];
        tl_dim d4[4] = {2, 3, 4, 5};
        init(&md, 4, d4, "nhwc");
        CHECK_EQ(tl_md_to_tag(&md, buf, sizeof buf), TL_OK);
        CHECK(strcmp(buf, "acdb") == 0);
        CHECK(tl_md_matches_tag(&md, "nhwc", NULL));
        CHECK(!tl_md_matches_tag(&md, "nchw", NULL));
        CHECK(!tl_md_matches_tag(&md, "nChw8c", NULL));
    }
    {   /* a strided view has no tag */
        tl_memory_desc md;
        tl_dim d2[2] = {3, 4}, s2[2] = {5, 1};
        char buf[32] = "untouched";
        CHECK_EQ(tl_md_init_by_strides(&md, 2, d2, TL_F32, s2), TL_OK);
        CHECK_EQ(tl_md_to_tag(&md, buf, sizeof buf), TL_UNSUPPORTED);
        CHECK(strcmp(buf, "untouched") == 0);
        CHECK(!tl_md_matches_tag(&md, "ab", NULL));
        CHECK(tl_md_matches_tag(&md, "ab", s2));
    }
}

/* RFC section 3: nChw8c where only Chw8c is dense and n may be strided. */
static void check_matches_wildcards(void)
{
    tl_dim dims[4] = {2, 16, 3, 5}, want[4], strides[4];
    tl_memory_desc md;
    init(&md, 4, dims, "nChw8c");
    md.blocking.strides[0] = 1000;             /* a padded batch stride */
    CHECK(!tl_md_matches_tag(&md, "nChw8c", NULL));
    want[0] = -1; want[1] = 3 * 5 * 8; want[2] = 5 * 8; want[3] = 8;
    CHECK(tl_md_matches_tag(&md, "nChw8c", want));
    strides[0] = 1000; strides[1] = -1; strides[2] = -1; strides[3] = 8;
    CHECK(tl_md_matches_tag(&md, "nChw8c", strides));
    strides[3] = 16;
    CHECK(!tl_md_matches_tag(&md, "nChw8c", strides));
    CHECK(!tl_md_matches_tag(&md, "nChw16c", want));
}

/* Every index of the view against the parent's index + offsets. */
static void check_view_offsets(const tl_memory_desc *sub, const tl_memory_desc *parent,
                               const tl_dim *off)
{
    tl_dim idx[TL_MAX_NDIMS] = {0}, pidx[TL_MAX_NDIMS];
    int d, bad = 0;
    for (;;) {
        for (d = 0; d < sub->ndims; ++d) pidx[d] = idx[d] + off[d];
        if (tl_md_offset(sub, idx) != tl_md_offset(parent, pidx)) ++bad;
        for (d = sub->ndims - 1; d >= 0; --d) { if (++idx[d] < sub->dims[d]) break; idx[d] = 0; }
        if (d < 0) break;
    }
    CHECK_EQ(bad, 0);
}

static void check_submemory(void)
{
    tl_dim pdims[4] = {4, 40, 6, 5};
    static const char *const tags[] = {"nchw", "nhwc", "nChw8c", "NChw2n8c", "chwn"};
    size_t i;
    for (i = 0; i < sizeof tags / sizeof *tags; ++i) {
        tl_memory_desc parent, sub, nested;
        tl_dim sd[4] = {2, 16, 3, 2}, so[4] = {2, 8, 1, 3}, nd[4] = {2, 8, 1, 1}, no[4] = {0, 8, 2, 1};
        tl_dim tot[4];
        int d;
        init(&parent, 4, pdims, tags[i]);
        CHECK_EQ(tl_md_submemory(&sub, &parent, sd, so), TL_OK);
        check_view_offsets(&sub, &parent, so);
        CHECK_EQ(tl_md_validate(&sub, NULL, 0), TL_OK);
        CHECK((tl_dim)tl_md_size(&sub) <= (tl_dim)tl_md_size(&parent));
        /* a view of a view */
        CHECK_EQ(tl_md_submemory(&nested, &sub, nd, no), TL_OK);
        for (d = 0; d < 4; ++d) tot[d] = so[d] + no[d];
        check_view_offsets(&nested, &parent, tot);
    }
    {   /* blocked dims: offsets must be block-aligned, dims too unless at the end */
        tl_memory_desc parent, sub;
        tl_dim d1[4] = {1, 8, 1, 1}, o1[4] = {0, 4, 0, 0}, d2[4] = {1, 4, 1, 1};
        tl_dim o2[4] = {0, 32, 0, 0}, d3[4] = {1, 8, 6, 5}, tail[4] = {1, 41, 1, 1};
        init(&parent, 4, pdims, "nChw8c");
        CHECK_EQ(tl_md_submemory(&sub, &parent, d1, o1), TL_INVALID_ARGUMENTS);
        CHECK_EQ(tl_md_submemory(&sub, &parent, d2, o1 /* 4: unaligned */), TL_INVALID_ARGUMENTS);
        o1[1] = 0;
        CHECK_EQ(tl_md_submemory(&sub, &parent, d2, o1), TL_INVALID_ARGUMENTS); /* ends inside a block */
        CHECK_EQ(tl_md_submemory(&sub, &parent, d3, o2), TL_OK);               /* reaches the end */
        check_view_offsets(&sub, &parent, o2);
        CHECK_EQ(tl_md_submemory(&sub, &parent, tail, o1), TL_INVALID_ARGUMENTS); /* past dims */
    }
}

static void check_permute(void)
{
    tl_dim dims[4] = {2, 3, 4, 5};
    int perm[4] = {0, 3, 1, 2}, bad[4] = {0, 1, 1, 2};
    tl_memory_desc in, out, blk, blk_out;
    tl_dim idx[4] = {0}, oidx[4];
    int d, mism = 0;
    init(&in, 4, dims, "nchw");
    CHECK_EQ(tl_md_permute_axes(&out, &in, perm), TL_OK);
    CHECK_EQ(out.dims[3], 3);
    CHECK(tl_md_matches_tag(&out, "adbc", NULL));
    init(&blk, 4, dims, "nChw8c");
    CHECK_EQ(tl_md_permute_axes(&blk_out, &blk, perm), TL_OK);
    CHECK(tl_md_matches_tag(&blk_out, "aDbc8d", NULL));
    for (;;) {
        for (d = 0; d < 4; ++d) oidx[perm[d]] = idx[d];
        if (tl_md_offset(&blk_out, oidx) != tl_md_offset(&blk, idx)) ++mism;
        for (d = 3; d >= 0; --d) { if (++idx[d] < blk.padded_dims[d]) break; idx[d] = 0; }
        if (d < 0) break;
    }
    CHECK_EQ(mism, 0);
    memset(&out, 0xA5, sizeof out);
    memcpy(&blk_out, &out, sizeof out);
    CHECK_EQ(tl_md_permute_axes(&out, &in, bad), TL_INVALID_ARGUMENTS);
    CHECK(memcmp(&out, &blk_out, sizeof out) == 0);
}

/* Every element: out index (row-major unravel of the linear index) must
   have the same offset as the input's. */
static void check_reshape_case(const char *tag, int nd, const tl_dim *dims, int ond,
                               const tl_dim *odims, tl_status want)
{
    tl_memory_desc in, out;
    tl_dim n, k;
    int d, bad = 0;
    init(&in, nd, dims, tag);
    CHECK_MSG(tl_md_reshape(&out, &in, ond, odims) == want, "reshape %s", tag);
    if (want != TL_OK) return;
    n = tl_md_nelems(&in, 0);
    for (k = 0; k < n; ++k) {
        tl_dim a[TL_MAX_NDIMS], b[TL_MAX_NDIMS], r = k;
        for (d = nd - 1; d >= 0; --d) { a[d] = r % dims[d]; r /= dims[d]; }
        r = k;
        for (d = ond - 1; d >= 0; --d) { b[d] = r % odims[d]; r /= odims[d]; }
        if (tl_md_offset(&in, a) != tl_md_offset(&out, b)) ++bad;
    }
    CHECK_MSG(bad == 0, "reshape %s: %d offsets differ", tag, bad);
    CHECK_EQ(tl_md_size(&out), tl_md_size(&in));
}

static void check_reshape(void)
{
    tl_dim d3[3] = {2, 3, 4}, d2a[2] = {6, 4}, d2b[2] = {2, 12}, d1[1] = {24};
    tl_dim d4[4] = {2, 1, 3, 4}, d6[6] = {1, 2, 3, 1, 4, 1}, d3b[3] = {4, 3, 2};
    tl_dim a4[4] = {2, 17, 3, 3}, a5[5] = {2, 17, 1, 3, 3}, a3[3] = {2, 17, 9};
    tl_dim a3b[3] = {34, 3, 3}, c4[4] = {2, 1, 3, 3}, c3[3] = {2, 3, 3}, bad2[2] = {5, 5};
    check_reshape_case("abc", 3, d3, 2, d2a, TL_OK);
    check_reshape_case("abc", 3, d3, 2, d2b, TL_OK);
    check_reshape_case("abc", 3, d3, 1, d1, TL_OK);
    check_reshape_case("abc", 3, d3, 4, d4, TL_OK);
    check_reshape_case("abc", 3, d3, 6, d6, TL_OK);
    check_reshape_case("acb", 3, d3, 1, d1, TL_UNSUPPORTED);   /* needs a copy */
    check_reshape_case("abc", 3, d3, 3, d3b, TL_OK);           /* merge all, split */
    check_reshape_case("acb", 3, d3, 3, d3b, TL_UNSUPPORTED);
    check_reshape_case("acb", 3, d3, 4, d4, TL_OK);
    check_reshape_case("nChw16c", 4, a4, 5, a5, TL_OK);
    check_reshape_case("nChw16c", 4, a4, 3, a3, TL_OK);        /* h, w merge */
    check_reshape_case("nChw16c", 4, a4, 3, a3b, TL_UNSUPPORTED); /* blocked c */
    check_reshape_case("nChw16c", 4, c4, 3, c3, TL_UNSUPPORTED);  /* padded 1-dim */
    check_reshape_case("abc", 3, d3, 2, bad2, TL_SHAPE_MISMATCH);
}

static void check_equal(void)
{
    tl_dim dims[4] = {2, 3, 4, 5};
    tl_memory_desc a, b;
    init(&a, 4, dims, "nchw");
    init(&b, 4, dims, "abcd");
    CHECK(tl_md_equal(&a, &b));
    b.offset0 = 1;
    CHECK(!tl_md_equal(&a, &b));
    init(&b, 4, dims, "nhwc");
    CHECK(!tl_md_equal(&a, &b));
    init(&b, 4, dims, "nchw");
    b.data_type = TL_S8;
    CHECK(!tl_md_equal(&a, &b));
    CHECK(!tl_md_equal(&a, NULL));
}

int main(void)
{
    check_to_tag();
    check_matches_wildcards();
    check_submemory();
    check_permute();
    check_reshape();
    check_equal();
    return tl_test_result("md_ops");
}
