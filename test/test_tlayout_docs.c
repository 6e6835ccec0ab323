/* The numbers docs/memory-descriptors.md and docs/format-tags.md quote,
   checked against the library, so the docs cannot drift from the code.
   Each block names the section it backs. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"

#include <string.h>

static void check_strides(const tl_memory_desc *md, const tl_dim *want)
{
    int d;
    for (d = 0; d < md->ndims; ++d) CHECK_EQ(md->blocking.strides[d], want[d]);
}

static int tag_is(const tl_memory_desc *md, const char *want)
{
    char tag[64];
    return tl_md_to_tag(md, tag, sizeof tag) == TL_OK && strcmp(tag, want) == 0;
}

/* "The model", tl_md_init_by_tag, tl_md_nelems, tl_md_offset, index_of */
static void test_nChw16c(void)
{
    tl_dim dims[4] = {2, 17, 5, 5}, idx[4] = {1, 16, 0, 3}, back[4];
    tl_dim strides[4] = {800, 400, 80, 16};
    tl_memory_desc md;
    int pad = -1;
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "nChw16c"), TL_OK);
    CHECK_EQ(md.padded_dims[1], 32);
    check_strides(&md, strides);
    CHECK_EQ(md.blocking.inner_nblks, 1);
    CHECK_EQ(md.blocking.inner_blks[0], 16);
    CHECK_EQ(md.blocking.inner_idxs[0], 1);
    CHECK_EQ(tl_md_size(&md), 6400);
    CHECK_EQ(tl_md_nelems(&md, 0), 850);
    CHECK_EQ(tl_md_nelems(&md, 1), 1600);
    CHECK_EQ(tl_md_offset(&md, idx), 1248);
    CHECK_EQ(tl_md_index_of(&md, 1249, back, &pad), 1);
    CHECK(back[0] == 1 && back[1] == 17 && back[2] == 0 && back[3] == 3 && pad == 1);
    CHECK(tag_is(&md, "aBcd16b"));
}

/* tl_md_init_by_strides, tl_md_size (leading dimension), tl_md_validate */
static void test_strides(void)
{
    tl_dim dims[2] = {3, 4}, ld8[2] = {8, 1}, colmaj[2] = {1, 3}, bad[2] = {2, 1};
    tl_dim d4[4] = {2, 17, 5, 5};
    tl_memory_desc md;
    char why[128];
    CHECK_EQ(tl_md_init_by_strides(&md, 2, dims, TL_F32, ld8), TL_OK);
    CHECK_EQ(tl_md_size(&md), 3 * 8 * 4);
    CHECK_EQ(tl_md_init_by_strides(&md, 2, dims, TL_F32, colmaj), TL_OK);
    CHECK(tl_md_matches_tag(&md, "ba", NULL));
    CHECK_EQ(tl_md_init_by_strides(&md, 2, dims, TL_F32, bad), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_md_init_by_tag(&md, 4, d4, TL_F32, "nChw16c"), TL_OK);
    md.blocking.strides[0] = 3;
    CHECK(tl_md_validate(&md, why, sizeof why) != TL_OK);
    CHECK(strcmp(why, "strides overlap (a stride is smaller than the span inside it)") == 0);
}

/* tl_md_size with compensation: C + 4N */
static void test_compensation(void)
{
    tl_dim d3[3] = {5, 7, 9};
    tl_memory_desc md;
    CHECK_EQ(tl_md_init_by_tag(&md, 3, d3, TL_S8, "abc"), TL_OK);
    CHECK_EQ(tl_md_size(&md), 315);
    md.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
    md.extra.compensation_mask = 1;
    CHECK_EQ(tl_md_size(&md), 316 + 4 * 5);
}

/* tl_md_matches_tag with -1 wildcards */
static void test_matches(void)
{
    tl_dim dims[4] = {2, 17, 5, 5}, nhwc[4] = {425, 1, 85, 17};
    tl_dim any_but_c1[4] = {-1, 1, -1, -1}, c2[4] = {-1, 2, -1, -1};
    tl_memory_desc md;
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "nhwc"), TL_OK);
    check_strides(&md, nhwc);
    CHECK_EQ(tl_md_matches_tag(&md, "nhwc", NULL), 1);
    CHECK_EQ(tl_md_matches_tag(&md, "nchw", NULL), 0);
    CHECK_EQ(tl_md_matches_tag(&md, "nhwc", any_but_c1), 1);
    CHECK_EQ(tl_md_matches_tag(&md, "nhwc", c2), 0);
}

/* tl_md_to_tag and the alias table of format-tags.md */
static void test_canonical(void)
{
    static const struct { int ndims; const char *tag, *canon; } rows[] = {
        {4, "nchw", "abcd"}, {4, "nhwc", "acdb"}, {4, "nChw16c", "aBcd16b"},
        {4, "nChw8c", "aBcd8b"}, {4, "NChw16n16c", "ABcd16a16b"}, {4, "hwio", "cdba"},
        {4, "OIhw16i16o", "ABcd16b16a"}, {4, "OIhw4i16o4i", "ABcd4b16a4b"},
        {5, "gOIhw16i16o", "aBCde16c16b"}, {3, "tnc", "abc"}, {3, "ntc", "bac"},
        {2, "tn", "ab"}, {2, "nt", "ba"}, {4, "ldnc", "abcd"}, {5, "ldigo", "abcde"},
        {5, "ldgoi", "abdec"}, {4, "ldio", "abcd"}, {4, "ldoi", "abdc"}, {4, "ldgo", "abcd"},
        {1, "x", "a"}, {2, "nc", "ab"}, {2, "cn", "ba"}, {2, "oi", "ab"}, {2, "io", "ba"}
    };
    tl_dim dims[5] = {32, 32, 3, 3, 3};
    size_t k;
    for (k = 0; k < sizeof rows / sizeof *rows; ++k) {
        tl_memory_desc md;
        CHECK_MSG(tl_md_init_by_tag(&md, rows[k].ndims, dims, TL_F32, rows[k].tag) == TL_OK,
                  "%s", rows[k].tag);
        CHECK_MSG(tag_is(&md, rows[k].canon), "%s is not %s", rows[k].tag, rows[k].canon);
    }
}

/* format-tags.md: "What is rejected", and the index walk of OIhw4i16o4i */
static void test_rejected(void)
{
    static const char *const bad[] = {
        "nChw16", "nChw0c", "nChw16x", "nchW16c", "NChw16c", "aBcd16c", "abcc", "ncHw", ""
    };
    tl_dim dims[4] = {2, 17, 5, 5}, w[4] = {32, 32, 3, 3}, idx[4] = {17, 6, 0, 0};
    tl_dim o, i;
    tl_memory_desc md;
    size_t k;
    for (k = 0; k < sizeof bad / sizeof *bad; ++k)
        CHECK_MSG(tl_md_init_by_tag(&md, 4, dims, TL_F32, bad[k]) == TL_INVALID_ARGUMENTS,
                  "'%s' accepted", bad[k]);
    CHECK_EQ(tl_md_init_by_tag(&md, 3, dims, TL_F32, "nchw"), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "nChw16c16c"), TL_OK);
    CHECK_EQ(md.padded_dims[1], 256);
    CHECK_EQ(tl_md_init_by_tag(&md, 4, w, TL_F32, "OIhw4i16o4i"), TL_OK);
    CHECK_EQ(tl_md_offset(&md, idx), 4678);
    /* the walk: within a tile, i%4 fastest, then o%16, then (i/4)%4 */
    for (o = 0; o < 16; ++o)
        for (i = 0; i < 16; ++i) {
            tl_dim at[4];
            at[0] = o; at[1] = i; at[2] = 0; at[3] = 0;
            CHECK_EQ(tl_md_offset(&md, at), (i / 4) * 64 + o * 4 + i % 4);
        }
}

/* tl_md_submemory, tl_md_permute_axes, tl_md_reshape */
static void test_views(void)
{
    tl_dim d4[4] = {1, 16, 4, 4}, vd[4] = {1, 8, 2, 2}, at[4] = {0, 8, 1, 1};
    tl_dim bad_at[4] = {0, 4, 0, 0}, a[4] = {2, 17, 5, 5}, d3[3] = {2, 17, 25};
    tl_dim d5[5] = {2, 17, 1, 5, 5}, d2[2] = {34, 25}, pst[4] = {425, 5, 1, 25};
    tl_dim rst[3] = {425, 25, 1};
    int perm[4] = {0, 3, 1, 2};
    tl_memory_desc parent, view, nchw, out, blocked;
    CHECK_EQ(tl_md_init_by_tag(&parent, 4, d4, TL_F32, "nChw8c"), TL_OK);
    CHECK_EQ(tl_md_submemory(&view, &parent, vd, at), TL_OK);
    CHECK_EQ(view.offset0, 128 + 32 + 8);
    CHECK_EQ(tl_md_submemory(&view, &parent, vd, bad_at), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_md_init_by_tag(&nchw, 4, a, TL_F32, "nchw"), TL_OK);
    CHECK_EQ(tl_md_permute_axes(&out, &nchw, perm), TL_OK);
    CHECK(out.dims[0] == 2 && out.dims[1] == 5 && out.dims[2] == 5 && out.dims[3] == 17);
    check_strides(&out, pst);
    CHECK(tag_is(&out, "adbc"));
    CHECK_EQ(tl_md_reshape(&out, &nchw, 3, d3), TL_OK);
    check_strides(&out, rst);
    CHECK_EQ(tl_md_init_by_tag(&blocked, 4, a, TL_F32, "nChw16c"), TL_OK);
    CHECK_EQ(tl_md_reshape(&out, &blocked, 5, d5), TL_OK);
    CHECK(tag_is(&out, "aBcde16b"));
    CHECK_EQ(tl_md_reshape(&out, &blocked, 2, d2), TL_UNSUPPORTED);
}

/* "Data types": the conversions quoted */
static void test_dtypes(void)
{
    CHECK_EQ(tl_f32_to_f16(1.0f / 3), 0x3555);
    CHECK(tl_f16_to_f32(0x3555) == 0.33325195f);
    CHECK_EQ(tl_f32_to_bf16(1.0f / 3), 0x3eab);
    CHECK(tl_bf16_to_f32(0x3eab) == 0.333984375f);
    CHECK_EQ(tl_f32_to_f16(70000.0f), 0x7c00);
    CHECK_EQ(tl_f32_to_f16(65504.0f), 0x7bff);
    CHECK_EQ(tl_dt_size(TL_BF16), 2);
    CHECK(strcmp(tl_dt_name(TL_S8), "s8") == 0);
    CHECK_EQ(tl_dt_from_name("f64"), TL_F64);
    CHECK_EQ(tl_dt_from_name(NULL), TL_DT_UNDEF);
}

int main(void)
{
    test_nChw16c();
    test_strides();
    test_compensation();
    test_matches();
    test_canonical();
    test_rejected();
    test_views();
    test_dtypes();
    return tl_test_result("test_tlayout_docs");
}
