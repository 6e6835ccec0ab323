/* test_bad_input - every tl_md_* function against malformed input.
   Part 1 is a table per function: each bad input must return an error
   (the specific status where one is meaningful) and leave every output
   byte for byte as it was (outputs are pre-filled with 0xA5 and compared).
   Part 2 feeds a few thousand random strings over the tag alphabet:
   every accepted one must validate and keep all its offsets inside its
   size, pairwise distinct and equal to a naive formula; every refused one
   must leave the output untouched. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <string.h>
#include <stdlib.h>
#include <limits.h>

#define ANY_STATUS (-1)     /* any error will do */

static const tl_dim dims12[TL_MAX_NDIMS] = { 2, 17, 5, 3, 2, 3, 2, 2, 3, 2, 2, 3 };

static void fill(void *p, size_t n) { memset(p, 0xA5, n); }

static int is_filled(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; ++i) if (b[i] != 0xA5) return 0;
    return 1;
}

/* st must be an error (== want unless ANY_STATUS) and out untouched. */
#define CHECK_REFUSED(st, want, out, label) do { \
    tl_status st_ = (st); \
    CHECK_MSG(st_ != TL_OK && ((want) == ANY_STATUS || (int)st_ == (int)(want)), \
              "%s: got %s", (label), tl_status_str(st_)); \
    CHECK_MSG(is_filled((out), sizeof *(out)), "%s: output written", (label)); \
} while (0)

/* ---- part 1: tables --------------------------------------------------- */

static const struct { const char *tag; int ndims; int want; } bad_tags[] = {
    { "", 1, TL_INVALID_ARGUMENTS },
    { "abcc", 4, TL_INVALID_ARGUMENTS },               /* repeated letter */
    { "aAbc", 4, TL_INVALID_ARGUMENTS },               /* repeated, either case */
    { "aBcd", 4, TL_INVALID_ARGUMENTS },               /* upper case, no block */
    { "Abcd", 4, TL_INVALID_ARGUMENTS },
    { "nChw", 4, TL_INVALID_ARGUMENTS },
    { "aBcd0b", 4, TL_INVALID_ARGUMENTS },             /* block of 0 */
    { "aBcd016b", 4, TL_INVALID_ARGUMENTS },           /* leading zero */
    { "aBcd16c", 4, TL_INVALID_ARGUMENTS },            /* block on unblocked dim */
    { "aBcd16b16c", 4, TL_INVALID_ARGUMENTS },
    { "abcd16", 4, TL_INVALID_ARGUMENTS },             /* size without letter */
    { "aBcd16b16", 4, TL_INVALID_ARGUMENTS },
    { "aBcd16B", 4, TL_INVALID_ARGUMENTS },            /* block letter upper case */
    { "aBcd16e", 4, TL_INVALID_ARGUMENTS },            /* block letter not a dim */
    { "aBcd-16b", 4, TL_INVALID_ARGUMENTS },
    { "aBcd99999999999999999999b", 4, TL_INVALID_ARGUMENTS }, /* digits overflow */
    { "aBcd18446744073709551632b", 4, TL_INVALID_ARGUMENTS }, /* 2^64 + 16 */
    { "abce", 4, TL_INVALID_ARGUMENTS },               /* letter past ndims */
    { "abcm", 4, TL_INVALID_ARGUMENTS },
    { "abcde", 4, TL_INVALID_ARGUMENTS },              /* length != ndims */
    { "abc", 4, TL_INVALID_ARGUMENTS },
    { "nchw", 3, TL_INVALID_ARGUMENTS },
    { "nChw16c", 5, TL_INVALID_ARGUMENTS },
    { "nchwio", 6, TL_INVALID_ARGUMENTS },             /* two families mixed */
    { "ncx", 3, TL_INVALID_ARGUMENTS },
    { "tnco", 4, TL_INVALID_ARGUMENTS },
    { "goihwn", 6, TL_INVALID_ARGUMENTS },
    { "xy", 2, TL_INVALID_ARGUMENTS },
    { "any ", 4, TL_INVALID_ARGUMENTS },               /* not quite `any` */
    { " any", 4, TL_INVALID_ARGUMENTS },
    { "ANY", 3, TL_INVALID_ARGUMENTS },
    { "Any", 3, TL_INVALID_ARGUMENTS },
    { "ab c", 4, TL_INVALID_ARGUMENTS },
    { "a\tbc", 4, TL_INVALID_ARGUMENTS },
    { "ab\x80" "c", 4, TL_INVALID_ARGUMENTS },         /* non-ASCII byte */
    { "ab_c", 4, TL_INVALID_ARGUMENTS },
    { "16b", 1, TL_INVALID_ARGUMENTS },                /* no letters at all */
    { "aB16b16b16b16b16b16b16b16b16b16b16b16b16b", 2, TL_INVALID_ARGUMENTS }, /* 13 blocks */
    { "abcdefghijklm", 13, TL_INVALID_ARGUMENTS },     /* ndims 13 */
    { "abcdefghijkl", 11, TL_INVALID_ARGUMENTS },
    { "a", 0, TL_INVALID_ARGUMENTS },
    { "a", -1, TL_INVALID_ARGUMENTS }
};

static void test_bad_tags(void)
{
    size_t i;
    for (i = 0; i < sizeof bad_tags / sizeof *bad_tags; ++i) {
        tl_memory_desc md;
        char label[80];
        snprintf(label, sizeof label, "tag \"%s\" ndims %d", bad_tags[i].tag, bad_tags[i].ndims);
        fill(&md, sizeof md);
        CHECK_REFUSED(tl_md_init_by_tag(&md, bad_tags[i].ndims, dims12, TL_F32, bad_tags[i].tag),
                      bad_tags[i].want, &md, label);
    }
}

/* Calls both inits with the same ndims/dims/dt (strides NULL or given). */
static void check_inits_refuse(int ndims, const tl_dim *dims, tl_data_type dt,
                               const char *tag, const tl_dim *strides, int want,
                               const char *label)
{
    tl_memory_desc md;
    fill(&md, sizeof md);
    if (tag) CHECK_REFUSED(tl_md_init_by_tag(&md, ndims, dims, dt, tag), want, &md, label);
    CHECK_REFUSED(tl_md_init_by_strides(&md, ndims, dims, dt, strides), want, &md, label);
}

static void test_bad_shapes(void)
{
    static const int bad_ndims[] = { 0, -1, 13, 100, INT_MIN, INT_MAX };
    const tl_dim neg1[4] = { 2, -1, 3, 3 }, negmin[2] = { INT64_MIN, 1 };
    const tl_dim big[2] = { INT64_MAX, 2 }, big_c[4] = { 1, INT64_MAX - 3, 1, 1 };
    const tl_dim d22[2] = { 2, 2 }, d24[2] = { 2, 4 }, d234[3] = { 2, 3, 4 };
    const tl_dim s_same[2] = { 1, 1 }, s_short[2] = { 3, 1 }, s_neg[2] = { -2, 1 };
    const tl_dim s_zero[2] = { 2, 0 }, s_min[2] = { INT64_MIN, 1 };
    const tl_dim s_inner[3] = { 12, 1, 2 };  /* dim 2's stride 2 < 3 * dim 1's 1 */
    size_t i;
    for (i = 0; i < sizeof bad_ndims / sizeof *bad_ndims; ++i)
        check_inits_refuse(bad_ndims[i], dims12, TL_F32, "abcd", NULL,
                           TL_INVALID_ARGUMENTS, "bad ndims");
    check_inits_refuse(4, neg1, TL_F32, "nchw", NULL, TL_INVALID_ARGUMENTS, "negative dim");
    check_inits_refuse(2, negmin, TL_F32, "ab", NULL, TL_INVALID_ARGUMENTS, "INT64_MIN dim");
    check_inits_refuse(4, dims12, TL_DT_UNDEF, "nchw", NULL, TL_INVALID_ARGUMENTS, "dt undef");
    check_inits_refuse(4, dims12, (tl_data_type)99, "nchw", NULL, TL_INVALID_ARGUMENTS, "dt 99");
    check_inits_refuse(4, dims12, (tl_data_type)-1, "nchw", NULL, TL_INVALID_ARGUMENTS, "dt -1");
    check_inits_refuse(4, NULL, TL_F32, "nchw", NULL, TL_INVALID_ARGUMENTS, "dims NULL");
    check_inits_refuse(2, big, TL_F32, "ab", NULL, TL_OVERFLOW, "dims product overflows");
    check_inits_refuse(2, big, TL_U8, "ab", NULL, TL_OVERFLOW, "dims product overflows (u8)");
    {   /* only the tag pads: the same dims are fine as plain strides */
        tl_memory_desc md;
        fill(&md, sizeof md);
        CHECK_REFUSED(tl_md_init_by_tag(&md, 4, big_c, TL_U8, "aBcd16b"), TL_OVERFLOW, &md,
                      "padded dim overflows");
    }
    check_inits_refuse(2, d22, TL_F32, NULL, s_same, TL_INVALID_ARGUMENTS, "equal strides");
    check_inits_refuse(2, d24, TL_F32, NULL, s_short, TL_INVALID_ARGUMENTS, "overlapping strides");
    check_inits_refuse(3, d234, TL_F32, NULL, s_inner, TL_INVALID_ARGUMENTS, "interleaved strides");
    check_inits_refuse(2, d22, TL_F32, NULL, s_neg, TL_INVALID_ARGUMENTS, "negative stride");
    check_inits_refuse(2, d22, TL_F32, NULL, s_zero, TL_INVALID_ARGUMENTS, "zero stride");
    check_inits_refuse(2, d22, TL_F32, NULL, s_min, TL_INVALID_ARGUMENTS, "INT64_MIN stride");
    {
        tl_memory_desc md;
        fill(&md, sizeof md);
        CHECK(tl_md_init_by_tag(NULL, 4, dims12, TL_F32, "nchw") == TL_INVALID_ARGUMENTS);
        CHECK(tl_md_init_by_strides(NULL, 4, dims12, TL_F32, NULL) == TL_INVALID_ARGUMENTS);
        CHECK_REFUSED(tl_md_init_by_tag(&md, 4, dims12, TL_F32, NULL), TL_INVALID_ARGUMENTS,
                      &md, "tag NULL");
    }
}

/* A valid descriptor spoiled by one edit, and the status validate gives. */
typedef struct { const char *what; int want; } spoil_row;

static const spoil_row spoils[] = {
    { "zero-initialised", TL_INVALID_ARGUMENTS },
    { "ndims 0", TL_INVALID_ARGUMENTS },
    { "ndims 13", TL_INVALID_ARGUMENTS },
    { "data_type undef", TL_INVALID_ARGUMENTS },
    { "format_kind any", TL_INVALID_ARGUMENTS },
    { "format_kind 7", TL_INVALID_ARGUMENTS },
    { "negative dim", TL_INVALID_ARGUMENTS },
    { "padded_dims below dims", TL_INVALID_ARGUMENTS },
    { "padded_dims not a block multiple", TL_INVALID_ARGUMENTS },
    { "negative padded_offsets", TL_INVALID_ARGUMENTS },
    { "padded_offsets past padding", TL_INVALID_ARGUMENTS },
    { "negative offset0", TL_INVALID_ARGUMENTS },
    { "offset0 overflows size", TL_OVERFLOW },
    { "negative stride", TL_INVALID_ARGUMENTS },
    { "overlapping strides", TL_INVALID_ARGUMENTS },
    { "stride inside inner block", TL_INVALID_ARGUMENTS },
    { "huge stride", TL_OVERFLOW },
    { "inner_nblks -1", TL_INVALID_ARGUMENTS },
    { "inner_nblks 13", TL_INVALID_ARGUMENTS },
    { "inner_blks 0", TL_INVALID_ARGUMENTS },
    { "inner_idxs out of range", TL_INVALID_ARGUMENTS },
    { "inner_idxs negative", TL_INVALID_ARGUMENTS },
    { "unknown extra flag", TL_INVALID_ARGUMENTS },
    { "compensation on f32", TL_INVALID_ARGUMENTS },
    { "compensation mask past ndims", TL_INVALID_ARGUMENTS },
    { "compensation mask negative", TL_INVALID_ARGUMENTS }
};

/* nChw16c, 2x17x5x3 (C padded to 32), then spoils[i] applied. */
static void spoil(tl_memory_desc *md, size_t i)
{
    const tl_dim d4[4] = { 2, 17, 5, 3 };
    tl_status st = tl_md_init_by_tag(md, 4, d4, TL_F32, "nChw16c");
    TL_ASSERT(st == TL_OK);
    (void)st;
    switch (i) {
    case 0: memset(md, 0, sizeof *md); break;
    case 1: md->ndims = 0; break;
    case 2: md->ndims = 13; break;
    case 3: md->data_type = TL_DT_UNDEF; break;
    case 4: md->format_kind = TL_FORMAT_KIND_ANY; break;
    case 5: md->format_kind = (tl_format_kind)7; break;
    case 6: md->dims[2] = -5; break;
    case 7: md->padded_dims[2] = 4; break;
    case 8: md->padded_dims[1] = 33; break;
    case 9: md->padded_offsets[1] = -1; break;
    case 10: md->padded_offsets[1] = 16; break;
    case 11: md->offset0 = -1; break;
    case 12: md->offset0 = INT64_MAX - 10; break;
    case 13: md->blocking.strides[3] = -16; break;
    case 14: md->blocking.strides[2] = md->blocking.strides[3]; break;
    case 15: md->blocking.strides[3] = 8; break;
    case 16: md->blocking.strides[0] = INT64_MAX / 2; break;
    case 17: md->blocking.inner_nblks = -1; break;
    case 18: md->blocking.inner_nblks = 13; break;
    case 19: md->blocking.inner_blks[0] = 0; break;
    case 20: md->blocking.inner_idxs[0] = 4; break;
    case 21: md->blocking.inner_idxs[0] = -1; break;
    case 22: md->extra.flags = 8; break;
    case 23: md->extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8; break;
    case 24: md->data_type = TL_S8; md->extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
             md->extra.compensation_mask = 1 << 4; break;
    default: md->data_type = TL_S8; md->extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
             md->extra.compensation_mask = -1; break;
    }
}

/* Every function refuses md and writes nothing. */
static void check_md_refused(const tl_memory_desc *md, const char *label)
{
    tl_dim idx[TL_MAX_NDIMS] = {0}, dims[TL_MAX_NDIMS], back[TL_MAX_NDIMS];
    int perm[TL_MAX_NDIMS], d, n = md->ndims >= 1 && md->ndims <= TL_MAX_NDIMS ? md->ndims : 4;
    int pad;
    char buf[64];
    tl_memory_desc out;
    for (d = 0; d < TL_MAX_NDIMS; ++d) { dims[d] = d < n ? md->dims[d] : 1; perm[d] = d; }
    CHECK_MSG(tl_md_size(md) == 0, "%s: size", label);
    CHECK_MSG(tl_md_offset(md, idx) == -1, "%s: offset", label);
    fill(back, sizeof back);
    pad = 0x5a5a;
    CHECK_MSG(tl_md_index_of(md, 0, back, &pad) == -1, "%s: index_of", label);
    CHECK_MSG(is_filled(back, sizeof back) && pad == 0x5a5a, "%s: index_of wrote", label);
    CHECK_MSG(tl_md_matches_tag(md, "nChw16c", NULL) == 0, "%s: matches", label);
    fill(buf, sizeof buf);
    CHECK_REFUSED(tl_md_to_tag(md, buf, sizeof buf), TL_INVALID_ARGUMENTS, &buf, label);
    fill(&out, sizeof out);
    CHECK_REFUSED(tl_md_submemory(&out, md, dims, idx), ANY_STATUS, &out, label);
    CHECK_REFUSED(tl_md_reshape(&out, md, n, dims), ANY_STATUS, &out, label);
    if (md->format_kind != TL_FORMAT_KIND_ANY) {   /* `any` may be permuted */
        CHECK_MSG(tl_md_nelems(md, 1) == -1, "%s: nelems", label);
        CHECK_REFUSED(tl_md_permute_axes(&out, md, perm), TL_INVALID_ARGUMENTS, &out, label);
    }
}

static void test_bad_descriptors(void)
{
    size_t i;
    for (i = 0; i < sizeof spoils / sizeof *spoils; ++i) {
        tl_memory_desc md;
        char why[128];
        spoil(&md, i);
        why[0] = '\0';
        CHECK_MSG((int)tl_md_validate(&md, why, sizeof why) == spoils[i].want,
                  "%s: validate says %s", spoils[i].what,
                  tl_status_str(tl_md_validate(&md, NULL, 0)));
        CHECK_MSG(strlen(why) > 3, "%s: no reason given", spoils[i].what);
        check_md_refused(&md, spoils[i].what);
    }
}

static void test_null_pointers(void)
{
    tl_memory_desc md, out;
    tl_dim idx[4] = {0}, d4[4] = { 2, 16, 3, 3 };
    int perm[4] = { 0, 1, 2, 3 };
    char buf[32], why[8];
    CHECK(tl_md_init_by_tag(&md, 4, d4, TL_F32, "nChw16c") == TL_OK);
    CHECK(tl_md_validate(NULL, NULL, 0) == TL_INVALID_ARGUMENTS);
    fill(why, sizeof why);
    CHECK(tl_md_validate(NULL, why, 0) == TL_INVALID_ARGUMENTS);  /* len 0: no write */
    CHECK(is_filled(why, sizeof why));
    CHECK(tl_md_validate(NULL, why, sizeof why) == TL_INVALID_ARGUMENTS);
    CHECK(strlen(why) == sizeof why - 1);                         /* cut, terminated */
    CHECK(tl_md_size(NULL) == 0);
    CHECK(tl_md_nelems(NULL, 0) == -1);
    CHECK(tl_md_offset(NULL, idx) == -1);
    CHECK(tl_md_offset(&md, NULL) == -1);
    CHECK(tl_md_index_of(NULL, 0, idx, NULL) == -1);
    CHECK(tl_md_index_of(&md, 0, NULL, NULL) == -1);
    CHECK(tl_md_matches_tag(NULL, "nChw16c", NULL) == 0);
    CHECK(tl_md_matches_tag(&md, NULL, NULL) == 0);
    CHECK(tl_md_equal(NULL, &md) == 0);
    CHECK(tl_md_equal(&md, NULL) == 0);
    fill(buf, sizeof buf);
    CHECK_REFUSED(tl_md_to_tag(NULL, buf, sizeof buf), TL_INVALID_ARGUMENTS, &buf, "to_tag md NULL");
    CHECK(tl_md_to_tag(&md, NULL, 64) == TL_INVALID_ARGUMENTS);
    fill(&out, sizeof out);
    CHECK(tl_md_submemory(NULL, &md, d4, idx) == TL_INVALID_ARGUMENTS);
    CHECK_REFUSED(tl_md_submemory(&out, NULL, d4, idx), TL_INVALID_ARGUMENTS, &out, "sub parent NULL");
    CHECK_REFUSED(tl_md_submemory(&out, &md, NULL, idx), TL_INVALID_ARGUMENTS, &out, "sub dims NULL");
    CHECK_REFUSED(tl_md_submemory(&out, &md, d4, NULL), TL_INVALID_ARGUMENTS, &out, "sub offsets NULL");
    CHECK(tl_md_permute_axes(NULL, &md, perm) == TL_INVALID_ARGUMENTS);
    CHECK_REFUSED(tl_md_permute_axes(&out, NULL, perm), TL_INVALID_ARGUMENTS, &out, "permute in NULL");
    CHECK_REFUSED(tl_md_permute_axes(&out, &md, NULL), TL_INVALID_ARGUMENTS, &out, "permute perm NULL");
    CHECK(tl_md_reshape(NULL, &md, 4, d4) == TL_INVALID_ARGUMENTS);
    CHECK_REFUSED(tl_md_reshape(&out, NULL, 4, d4), TL_INVALID_ARGUMENTS, &out, "reshape in NULL");
    CHECK_REFUSED(tl_md_reshape(&out, &md, 4, NULL), TL_INVALID_ARGUMENTS, &out, "reshape dims NULL");
}

static void test_bad_offsets(void)
{
    tl_memory_desc md;
    const tl_dim d4[4] = { 2, 17, 5, 3 }, d0[2] = { 3, 0 };
    tl_dim idx[4] = { 1, 31, 4, 2 }, back[4];
    int d;
    CHECK(tl_md_init_by_tag(&md, 4, d4, TL_F32, "nChw16c") == TL_OK);
    CHECK(tl_md_offset(&md, idx) >= 0);         /* last padded index is fine */
    for (d = 0; d < 4; ++d) {
        static const tl_dim bad[] = { -1, INT64_MIN, INT64_MAX, INT64_MAX - 1 };
        tl_dim keep = idx[d];
        size_t k;
        for (k = 0; k < sizeof bad / sizeof *bad; ++k) {
            idx[d] = bad[k];
            CHECK_MSG(tl_md_offset(&md, idx) == -1, "dim %d index %lld", d, (long long)bad[k]);
        }
        idx[d] = md.padded_dims[d];
        CHECK(tl_md_offset(&md, idx) == -1);
        idx[d] = keep;
    }
    /* the regression the fuzzer found: idx + padded_offsets overflowed */
    md.padded_offsets[2] = 1;
    md.padded_dims[2] = 6;
    md.blocking.strides[1] = 6 * 3 * 16;
    md.blocking.strides[0] = 2 * 6 * 3 * 16;
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OK);
    idx[2] = INT64_MAX;
    CHECK(tl_md_offset(&md, idx) == -1);
    idx[2] = 5;
    CHECK(tl_md_offset(&md, idx) == -1);
    idx[2] = 4;
    CHECK(tl_md_offset(&md, idx) >= 0);
    /* a zero dim: no element, no offset, size 0, even with padding */
    CHECK(tl_md_init_by_tag(&md, 2, d0, TL_F32, "Ab4a") == TL_OK);
    md.padded_dims[1] = 2;
    md.blocking.strides[0] = 2;
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OK);
    CHECK(tl_md_size(&md) == 0);
    idx[0] = idx[1] = 0;
    CHECK(tl_md_offset(&md, idx) == -1);
    CHECK(tl_md_index_of(&md, 0, back, NULL) == 0);
}

static void test_bad_views(void)
{
    tl_memory_desc md, plain, comp, out;
    const tl_dim d4[4] = { 2, 32, 5, 3 }, d2[2] = { 4, 6 };
    const tl_dim sub_ok[4] = { 1, 16, 5, 3 }, off_ok[4] = { 1, 16, 0, 0 };
    const tl_dim sub_big[4] = { 2, 32, 5, 4 }, off0[4] = { 0, 0, 0, 0 };
    const tl_dim off_neg[4] = { 0, 0, -1, 0 }, sub_neg[4] = { 2, 32, -1, 3 };
    const tl_dim off_max[4] = { 0, 0, INT64_MAX, 0 }, sub_one[4] = { 2, 32, 1, 3 };
    const tl_dim off_c8[4] = { 0, 8, 0, 0 }, sub_c24[4] = { 2, 24, 5, 3 };
    const tl_dim sub_c8[4] = { 2, 8, 5, 3 }, sub_c16[4] = { 2, 16, 5, 3 };
    static const int perms[][4] = {
        { 0, 0, 2, 3 }, { 0, 1, 2, 4 }, { -1, 0, 1, 2 }, { 3, 2, 1, 1 }, { INT_MAX, 0, 1, 2 }
    };
    const tl_dim r_mis[3] = { 2, 32, 16 }, r_neg[4] = { 2, -32, 5, -3 };
    const tl_dim r_blk[3] = { 64, 5, 3 }, r_ovf[4] = { INT64_MAX, INT64_MAX, 0, 1 };
    const tl_dim r_13[13] = { 2, 32, 5, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    const tl_dim r_t[2] = { 6, 4 };
    size_t i;
    CHECK(tl_md_init_by_tag(&md, 4, d4, TL_F32, "nChw16c") == TL_OK);
    CHECK(tl_md_init_by_tag(&plain, 2, d2, TL_F32, "ba") == TL_OK);
    comp = md;
    comp.data_type = TL_S8;
    comp.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
    comp.extra.compensation_mask = 2;
    CHECK(tl_md_validate(&comp, NULL, 0) == TL_OK);
    fill(&out, sizeof out);
    CHECK(tl_md_submemory(&out, &md, sub_ok, off_ok) == TL_OK);     /* the table's control */
    fill(&out, sizeof out);
    CHECK_REFUSED(tl_md_submemory(&out, &md, sub_big, off0), TL_INVALID_ARGUMENTS, &out, "sub past end");
    CHECK_REFUSED(tl_md_submemory(&out, &md, sub_ok, sub_ok), TL_INVALID_ARGUMENTS, &out, "sub offset past end");
    CHECK_REFUSED(tl_md_submemory(&out, &md, sub_ok, off_neg), TL_INVALID_ARGUMENTS, &out, "sub negative offset");
    CHECK_REFUSED(tl_md_submemory(&out, &md, sub_neg, off0), TL_INVALID_ARGUMENTS, &out, "sub negative dim");
    CHECK_REFUSED(tl_md_submemory(&out, &md, sub_one, off_max), TL_INVALID_ARGUMENTS, &out, "sub offset overflow");
    CHECK_REFUSED(tl_md_submemory(&out, &md, sub_c24, off_c8), TL_INVALID_ARGUMENTS, &out, "sub unaligned blocked offset");
    CHECK_REFUSED(tl_md_submemory(&out, &md, sub_c8, off0), TL_INVALID_ARGUMENTS, &out, "sub ends inside a block");
    CHECK_REFUSED(tl_md_submemory(&out, &comp, sub_c16, off0), TL_UNSUPPORTED, &out, "sub with compensation");
    {   /* regression: alignment is of the padded position offsets +
           padded_offsets, not of offsets alone */
        const tl_dim c29[4] = { 2, 29, 5, 3 }, at13[4] = { 0, 13, 0, 0 }, at16[4] = { 0, 16, 0, 0 };
        const tl_dim v16[4] = { 2, 16, 5, 3 }, v13[4] = { 2, 13, 5, 3 };
        tl_dim vi[4] = { 1, 2, 4, 2 }, pi[4] = { 1, 15, 4, 2 };
        tl_memory_desc po;
        CHECK(tl_md_init_by_tag(&po, 4, c29, TL_F32, "nChw16c") == TL_OK);
        po.padded_offsets[1] = 3;                     /* 29 + 3 = 32 */
        CHECK(tl_md_validate(&po, NULL, 0) == TL_OK);
        fill(&out, sizeof out);
        CHECK_REFUSED(tl_md_submemory(&out, &po, v13, at16), TL_INVALID_ARGUMENTS, &out,
                      "sub at padded position 19");
        CHECK(tl_md_submemory(&out, &po, v16, at13) == TL_OK);   /* position 16 */
        CHECK(tl_md_validate(&out, NULL, 0) == TL_OK);
        CHECK(tl_md_offset(&out, vi) == tl_md_offset(&po, pi));
        fill(&out, sizeof out);
    }
    for (i = 0; i < sizeof perms / sizeof *perms; ++i)
        CHECK_REFUSED(tl_md_permute_axes(&out, &md, perms[i]), TL_INVALID_ARGUMENTS, &out, "bad perm");
    CHECK_REFUSED(tl_md_reshape(&out, &md, 3, r_mis), TL_SHAPE_MISMATCH, &out, "reshape count differs");
    CHECK_REFUSED(tl_md_reshape(&out, &md, 2, d4), TL_SHAPE_MISMATCH, &out, "reshape fewer dims");
    CHECK_REFUSED(tl_md_reshape(&out, &md, 4, r_neg), TL_INVALID_ARGUMENTS, &out, "reshape negative dims");
    CHECK_REFUSED(tl_md_reshape(&out, &md, 0, d4), TL_INVALID_ARGUMENTS, &out, "reshape ndims 0");
    CHECK_REFUSED(tl_md_reshape(&out, &md, -3, d4), TL_INVALID_ARGUMENTS, &out, "reshape ndims -3");
    CHECK_REFUSED(tl_md_reshape(&out, &md, 13, r_13), TL_INVALID_ARGUMENTS, &out, "reshape ndims 13");
    CHECK_REFUSED(tl_md_reshape(&out, &md, 4, r_ovf), ANY_STATUS, &out, "reshape product overflows");
    CHECK_REFUSED(tl_md_reshape(&out, &md, 3, r_blk), TL_UNSUPPORTED, &out, "reshape merges a blocked dim");
    CHECK_REFUSED(tl_md_reshape(&out, &plain, 2, r_t), TL_UNSUPPORTED, &out, "reshape needs a copy");
    CHECK_REFUSED(tl_md_reshape(&out, &comp, 4, d4), TL_UNSUPPORTED, &out, "reshape with compensation");
}

static void test_bad_to_tag(void)
{
    tl_memory_desc md;
    const tl_dim d4[4] = { 2, 17, 5, 3 }, d2[2] = { 2, 3 }, s_gap[2] = { 4, 1 };
    char buf[16];
    size_t len;
    CHECK(tl_md_init_by_tag(&md, 4, d4, TL_F32, "nChw16c") == TL_OK);
    for (len = 0; len < 8; ++len) {                   /* "aBcd16b" needs 8 */
        fill(buf, sizeof buf);
        CHECK_REFUSED(tl_md_to_tag(&md, buf, len), TL_BUFFER_TOO_SMALL, &buf, "to_tag small buffer");
    }
    CHECK(tl_md_to_tag(&md, buf, 8) == TL_OK && strcmp(buf, "aBcd16b") == 0);
    CHECK(tl_md_init_by_strides(&md, 2, d2, TL_F32, s_gap) == TL_OK);
    fill(buf, sizeof buf);
    CHECK_REFUSED(tl_md_to_tag(&md, buf, sizeof buf), TL_UNSUPPORTED, &buf, "to_tag with a gap");
    /* matches_tag: malformed tags never match */
    CHECK(tl_md_init_by_tag(&md, 4, d4, TL_F32, "nChw16c") == TL_OK);
    CHECK(tl_md_matches_tag(&md, "nChw16c", NULL) == 1);
    CHECK(tl_md_matches_tag(&md, "aBcd", NULL) == 0);
    CHECK(tl_md_matches_tag(&md, "aBcd0b", NULL) == 0);
    CHECK(tl_md_matches_tag(&md, "any", NULL) == 0);
    CHECK(tl_md_matches_tag(&md, "", NULL) == 0);
}

/* ---- part 2: random strings over the tag alphabet -------------------- */

/* Offset by the definition: outer index times stride plus the inner
   blocks read as a mixed-radix number, outermost block first. */
static tl_dim naive_offset(const tl_memory_desc *md, const tl_dim *idx)
{
    tl_dim whole[TL_MAX_NDIMS], off = md->offset0, inner = 0;
    int d, b, c;
    for (d = 0; d < md->ndims; ++d) whole[d] = 1;
    for (b = 0; b < md->blocking.inner_nblks; ++b)
        whole[md->blocking.inner_idxs[b]] *= md->blocking.inner_blks[b];
    for (d = 0; d < md->ndims; ++d) off += idx[d] / whole[d] * md->blocking.strides[d];
    for (b = 0; b < md->blocking.inner_nblks; ++b) {
        tl_dim below = 1, i = md->blocking.inner_idxs[b];
        for (c = b + 1; c < md->blocking.inner_nblks; ++c)
            if (md->blocking.inner_idxs[c] == i) below *= md->blocking.inner_blks[c];
        inner = inner * md->blocking.inner_blks[b] + idx[i] / below % md->blocking.inner_blks[b];
    }
    return off + inner;
}

static int cmp_dim(const void *a, const void *b)
{
    tl_dim x = *(const tl_dim *)a, y = *(const tl_dim *)b;
    return (x > y) - (x < y);
}

/* Every padded index of a small accepted descriptor (or 64 random ones of
   a big one): inside the size, as the naive formula says, all distinct. */
static void check_offsets_inside(const tl_memory_desc *md, const char *tag)
{
    static tl_dim offs[4096];
    tl_dim idx[TL_MAX_NDIMS] = {0}, total = 1, n = 0, elems;
    size_t size = tl_md_size(md);
    int d, walk = 1;
    for (d = 0; d < md->ndims; ++d) {
        if (md->dims[d] == 0) { CHECK_MSG(size == 0, "%s: empty tensor with a size", tag); return; }
        if (md->padded_dims[d] > 4096 || total * md->padded_dims[d] > 4096) walk = 0;
        else total *= md->padded_dims[d];
    }
    elems = (tl_dim)(size / tl_dt_size(md->data_type));
    for (;;) {
        tl_dim off = tl_md_offset(md, idx);
        CHECK_MSG(off >= 0 && off < elems && off == naive_offset(md, idx),
                  "%s: offset %lld of %lld elements", tag, (long long)off, (long long)elems);
        if (!walk) {
            if (++n == 64) return;
            for (d = 0; d < md->ndims; ++d)
                idx[d] = (tl_dim)(tl_test_rand() % (uint64_t)md->padded_dims[d]);
            continue;
        }
        offs[n++] = off;
        for (d = md->ndims - 1; d >= 0; --d) {
            if (++idx[d] < md->padded_dims[d]) break;
            idx[d] = 0;
        }
        if (d < 0) break;
    }
    CHECK(n == total);
    qsort(offs, (size_t)n, sizeof *offs, cmp_dim);
    for (d = 1; d < n; ++d) CHECK_MSG(offs[d - 1] != offs[d], "%s: two indices share an offset", tag);
}

/* Mostly grammar-shaped: a permutation of the first letters or of a
   family's letters, some upper case, then size+letter blocks; a few
   strings are noise over the same alphabet. Returns the ndims to ask for:
   usually the letter count, sometimes off by one. */
static int random_tag(char *tag, size_t cap)
{
    static const char *const families[] = { "ncdhw", "goidhw", "tnc", "ldnc", "ldigo", "x" };
    static const char alphabet[] = "abcdefghijklmnoxyzABCDEFGHIJKLNOXY0123456789 ";
    static const char *const sizes[] = { "2", "4", "8", "16", "3", "1", "0",
                                         "99999999999999999999", "064" };
    char outer[TL_MAX_NDIMS + 1];
    size_t n = 0, k, len;
    int nletters, i, nblks;
    if (tl_test_rand() % 10 == 0) {                          /* noise */
        len = (size_t)tl_test_range(0, 20);
        for (k = 0; k < len && n + 1 < cap; ++k)
            tag[n++] = alphabet[tl_test_rand() % (sizeof alphabet - 1)];
        tag[n] = '\0';
        return (int)tl_test_range(1, 12);
    }
    if (tl_test_rand() % 3 == 0) {                           /* a family */
        const char *f = families[tl_test_rand() % 6];
        for (i = 0; f[i]; ++i) if (i == 0 || tl_test_rand() % 4) outer[n++] = f[i];
    } else {
        len = (size_t)tl_test_range(1, 12);
        for (n = 0; n < len; ++n) outer[n] = (char)('a' + n);
    }
    nletters = (int)n;
    for (i = nletters - 1; i > 0; --i) {                     /* shuffle */
        int j = (int)tl_test_range(0, i);
        char t = outer[i]; outer[i] = outer[j]; outer[j] = t;
    }
    if (tl_test_rand() % 16 == 0) outer[tl_test_rand() % (uint64_t)nletters] = 'm';
    nblks = (int)tl_test_range(0, 3);
    memcpy(tag, outer, (size_t)nletters);
    n = (size_t)nletters;
    for (k = 0; k < (size_t)nblks; ++k) {
        int at = (int)tl_test_range(0, nletters - 1);
        const char *sz = sizes[tl_test_rand() % 16 < 12 ? tl_test_rand() % 4 : tl_test_rand() % 9];
        if (n + strlen(sz) + 2 >= cap) break;
        if (tl_test_rand() % 8) tag[at] = (char)(outer[at] - 'a' + 'A');   /* usually agree */
        memcpy(tag + n, sz, strlen(sz));
        n += strlen(sz);
        tag[n++] = outer[at];
    }
    if (tl_test_rand() % 16 == 0) tag[tl_test_rand() % (uint64_t)nletters] ^= 0x20;
    tag[n] = '\0';
    return tl_test_rand() % 8 ? nletters : nletters + (int)tl_test_range(-1, 1);
}

static void test_random_tags(void)
{
    static const tl_data_type dts[] = { TL_F32, TL_F16, TL_S8, TL_F64 };
    int i, accepted = 0, refused = 0;
    for (i = 0; i < 4000; ++i) {
        tl_memory_desc md;
        tl_dim dims[TL_MAX_NDIMS];
        char tag[64];
        int ndims = random_tag(tag, sizeof tag), d;
        tl_data_type dt = dts[tl_test_rand() % 4];
        tl_status st;
        for (d = 0; d < TL_MAX_NDIMS; ++d)
            dims[d] = tl_test_rand() % 16 == 0 ? 0 : tl_test_range(1, 5);
        fill(&md, sizeof md);
        st = tl_md_init_by_tag(&md, ndims, dims, dt, tag);
        if (st != TL_OK) {
            ++refused;
            CHECK_MSG(is_filled(&md, sizeof md), "\"%s\" refused but written", tag);
            continue;
        }
        ++accepted;
        CHECK_MSG(tl_md_validate(&md, NULL, 0) == TL_OK, "\"%s\" accepted, not valid", tag);
        CHECK_MSG(tl_md_matches_tag(&md, tag, NULL) == 1, "\"%s\" does not match itself", tag);
        check_offsets_inside(&md, tag);
    }
    printf("random tags: %d accepted, %d refused\n", accepted, refused);
    CHECK(accepted > 400 && refused > 400);    /* both sides really exercised */
}

int main(void)
{
    test_bad_tags();
    test_bad_shapes();
    test_bad_descriptors();
    test_null_pointers();
    test_bad_offsets();
    test_bad_views();
    test_bad_to_tag();
    test_random_tags();
    return tl_test_result("bad_input");
}
