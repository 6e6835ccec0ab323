/* Tag -> blocking expansion. Every tag name seed 003 lists is checked
   against the abstract tag the seed names for it, and every abstract tag
   against strides computed here independently (dense, innermost letter
   fastest). Blocked and multi-level blocked tags are checked against
   strides worked out by hand. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <string.h>

/* From seed 003's "an alias for" lines. giodhw: the seed's text says
   abcdef, but its letters (and oneDNN 2.6's header) give acbdef. The RNN
   tags have no alias line; their abstract form follows the dim order the
   seed spells out for each. */
static const char *const seed_tags[][2] = {
    {"a", "a"}, {"ab", "ab"}, {"ba", "ba"}, {"abc", "abc"}, {"acb", "acb"},
    {"bac", "bac"}, {"bca", "bca"}, {"cba", "cba"}, {"abcd", "abcd"},
    {"abdc", "abdc"}, {"acdb", "acdb"}, {"bacd", "bacd"}, {"bcda", "bcda"},
    {"cdba", "cdba"}, {"dcab", "dcab"}, {"abcde", "abcde"}, {"abdec", "abdec"},
    {"acbde", "acbde"}, {"acdeb", "acdeb"}, {"bacde", "bacde"}, {"bcdea", "bcdea"},
    {"cdeba", "cdeba"}, {"decab", "decab"}, {"abcdef", "abcdef"},
    {"acbdef", "acbdef"}, {"defcab", "defcab"},
    {"x", "a"}, {"nc", "ab"}, {"cn", "ba"}, {"tn", "ab"}, {"nt", "ba"},
    {"ncw", "abc"}, {"nwc", "acb"}, {"nchw", "abcd"}, {"nhwc", "acdb"},
    {"chwn", "bcda"}, {"ncdhw", "abcde"}, {"ndhwc", "acdeb"}, {"oi", "ab"},
    {"io", "ba"}, {"oiw", "abc"}, {"owi", "acb"}, {"wio", "cba"}, {"iwo", "bca"},
    {"oihw", "abcd"}, {"hwio", "cdba"}, {"ohwi", "acdb"}, {"ihwo", "bcda"},
    {"iohw", "bacd"}, {"oidhw", "abcde"}, {"dhwio", "cdeba"}, {"odhwi", "acdeb"},
    {"iodhw", "bacde"}, {"idhwo", "bcdea"}, {"goiw", "abcd"}, {"wigo", "dcab"},
    {"goihw", "abcde"}, {"hwigo", "decab"}, {"giohw", "acbde"},
    {"goidhw", "abcdef"}, {"giodhw", "acbdef"}, {"dhwigo", "defcab"},
    {"tnc", "abc"}, {"ntc", "bac"}, {"ldnc", "abcd"}, {"ldigo", "abcde"},
    {"ldgoi", "abdec"}, {"ldio", "abcd"}, {"ldoi", "abdc"}, {"ldgo", "abcd"},
};

/* Dense strides of an abstract plain tag, computed the obvious way. */
static void plain_strides(const char *tag, const tl_dim *dims, tl_dim *strides)
{
    int n = (int)strlen(tag), k;
    tl_dim s = 1;
    for (k = n - 1; k >= 0; --k) {
        strides[tag[k] - 'a'] = s;
        s *= dims[tag[k] - 'a'];
    }
}

static void check_seed_tags(void)
{
    static const tl_dim dims[6] = {2, 3, 5, 7, 11, 13};
    size_t i;
    for (i = 0; i < sizeof seed_tags / sizeof *seed_tags; ++i) {
        const char *name = seed_tags[i][0], *abstract = seed_tags[i][1];
        int nd = (int)strlen(abstract), d;
        tl_dim strides[6];
        tl_memory_desc md;
        CHECK_MSG(tl_md_init_by_tag(&md, nd, dims, TL_F32, name) == TL_OK, "%s", name);
        plain_strides(abstract, dims, strides);
        CHECK_EQ(md.ndims, nd);
        CHECK_EQ(md.blocking.inner_nblks, 0);
        CHECK_EQ(md.format_kind, TL_FORMAT_KIND_BLOCKED);
        for (d = 0; d < nd; ++d) {
            CHECK_EQ(md.padded_dims[d], dims[d]);
            CHECK_MSG(md.blocking.strides[d] == strides[d], "%s dim %d", name, d);
        }
        CHECK_EQ(tl_md_size(&md), 4 * md.blocking.strides[abstract[0] - 'a'] * dims[abstract[0] - 'a']);
        CHECK(tl_md_matches_tag(&md, abstract, NULL));
    }
}

typedef struct {
    const char *tag;
    int ndims;
    tl_dim dims[6], padded[6], strides[6];
    int nblks;
    tl_dim blks[4], idxs[4];
} blocked_case;

/* Worked out by hand: padded dims round up to the product of a dim's
   blocks; inner blocks span their product; outer strides are dense. */
static const blocked_case blocked_cases[] = {
    {"nChw16c", 4, {2, 17, 5, 5}, {2, 32, 5, 5}, {800, 400, 80, 16}, 1, {16}, {1}},
    {"aBcd16b", 4, {2, 17, 5, 5}, {2, 32, 5, 5}, {800, 400, 80, 16}, 1, {16}, {1}},
    {"nChw8c", 4, {1, 3, 2, 2}, {1, 8, 2, 2}, {32, 32, 16, 8}, 1, {8}, {1}},
    {"NChw16n16c", 4, {17, 3, 1, 2}, {32, 16, 1, 2}, {512, 512, 512, 256}, 2, {16, 16}, {0, 1}},
    /* O=17 -> 32, I=5 -> 16; block 4i16o4i spans 256 */
    {"OIhw4i16o4i", 4, {17, 5, 3, 3}, {32, 16, 3, 3}, {2304, 2304, 768, 256}, 3, {4, 16, 4}, {1, 0, 1}},
    {"ABcd4b16a4b", 4, {17, 5, 3, 3}, {32, 16, 3, 3}, {2304, 2304, 768, 256}, 3, {4, 16, 4}, {1, 0, 1}},
    /* g=2, O=19 -> 24 (block 8b), I=3 -> 8 (blocks 2c and 4c) */
    {"aBCde2c8b4c", 5, {2, 19, 3, 3, 3}, {2, 24, 8, 3, 3}, {1728, 576, 576, 192, 64}, 3, {2, 8, 4}, {2, 1, 2}},
    {"gOIhw16i16o", 5, {2, 17, 3, 1, 1}, {2, 32, 16, 1, 1}, {512, 256, 256, 256, 256}, 2, {16, 16}, {2, 1}},
    {"Goihw8g", 5, {3, 2, 2, 1, 1}, {8, 2, 2, 1, 1}, {32, 16, 8, 8, 8}, 1, {8}, {0}},
    {"Acb4a", 3, {5, 3, 2}, {8, 3, 2}, {24, 4, 12}, 1, {4}, {0}},
};

static void check_blocked(void)
{
    size_t i;
    for (i = 0; i < sizeof blocked_cases / sizeof *blocked_cases; ++i) {
        const blocked_case *c = &blocked_cases[i];
        tl_memory_desc md;
        int d, b;
        tl_dim size = 4;
        if (tl_md_init_by_tag(&md, c->ndims, c->dims, TL_F32, c->tag) != TL_OK) {
            CHECK_MSG(0, "%s refused", c->tag);
            continue;
        }
        for (d = 0; d < c->ndims; ++d) {
            CHECK_MSG(md.padded_dims[d] == c->padded[d], "%s padded %d", c->tag, d);
            CHECK_MSG(md.blocking.strides[d] == c->strides[d], "%s stride %d: %lld", c->tag, d,
                      (long long)md.blocking.strides[d]);
            size *= c->padded[d];
        }
        CHECK_EQ(md.blocking.inner_nblks, c->nblks);
        for (b = 0; b < c->nblks; ++b) {
            CHECK_EQ(md.blocking.inner_blks[b], c->blks[b]);
            CHECK_EQ(md.blocking.inner_idxs[b], c->idxs[b]);
        }
        CHECK_MSG((tl_dim)tl_md_size(&md) == size, "%s size", c->tag);
    }
}

/* Aliases resolve by letter family, so blocked aliases need no table. */
static void check_aliases(void)
{
    static const char *const pairs[][2] = {
        {"nChw16c", "aBcd16b"}, {"NChw16n16c", "ABcd16a16b"}, {"nCdhw8c", "aBcde8b"},
        {"OIhw16i16o", "ABcd16b16a"}, {"gOIhw16i16o", "aBCde16c16b"},
        {"hwio", "cdba"}, {"IOhw16o16i", "BAcd16a16b"}, {"Ohwi16o", "Acdb16a"},
        {"ldgOi32o", "abdEc32e"}, {"ldOi32o", "abDc32d"}, {"hwioG16g", "decbA16a"},
        {"NCw16n16c", "ABc16a16b"}, {"gIOw16o16i", "aCBd16b16c"},
    };
    static const tl_dim dims[6] = {3, 17, 19, 5, 6, 7};
    size_t i;
    for (i = 0; i < sizeof pairs / sizeof *pairs; ++i) {
        tl_memory_desc a, b;
        int nd = 0;
        while (pairs[i][1][nd] && !(pairs[i][1][nd] >= '0' && pairs[i][1][nd] <= '9')) ++nd;
        CHECK_MSG(tl_md_init_by_tag(&a, nd, dims, TL_U8, pairs[i][0]) == TL_OK &&
                  tl_md_init_by_tag(&b, nd, dims, TL_U8, pairs[i][1]) == TL_OK &&
                  tl_md_equal(&a, &b), "%s vs %s", pairs[i][0], pairs[i][1]);
    }
}

static void check_any_and_zero(void)
{
    tl_dim dims[4] = {2, 0, 3, 3};
    tl_memory_desc md;
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "any"), TL_OK);
    CHECK_EQ(md.format_kind, TL_FORMAT_KIND_ANY);
    CHECK_EQ(tl_md_size(&md), 0);
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "nChw16c"), TL_OK);
    CHECK_EQ(tl_md_size(&md), 0);        /* a zero dim: empty tensor */
    CHECK_EQ(tl_md_nelems(&md, 0), 0);
    CHECK_EQ(tl_md_init_by_strides(&md, 4, dims, TL_F32, NULL), TL_OK);
    CHECK_EQ(tl_md_size(&md), 0);
}

/* Twelve dims, the grammar's limit, abstract and blocked. */
static void check_twelve(void)
{
    tl_dim dims[12] = {2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 3, 2};
    tl_memory_desc md;
    CHECK_EQ(tl_md_init_by_tag(&md, 12, dims, TL_F32, "abcdefghijkl"), TL_OK);
    CHECK_EQ(tl_md_size(&md), 4 * 2 * 2 * 2 * 2 * 2 * 3 * 2);
    CHECK_EQ(tl_md_init_by_tag(&md, 12, dims, TL_F32, "abcdefghijKl4k"), TL_OK);
    CHECK_EQ(md.padded_dims[10], 4);
    CHECK_EQ(md.blocking.strides[11], 4);
    CHECK_EQ(md.blocking.strides[10], 8);
    CHECK(tl_md_init_by_tag(&md, 12, dims, TL_F32, "abcdefghijklm") != TL_OK);
}

int main(void)
{
    check_seed_tags();
    check_blocked();
    check_aliases();
    check_any_and_zero();
    check_twelve();
    return tl_test_result("format_tag");
}
