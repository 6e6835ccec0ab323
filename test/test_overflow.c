/* test_overflow - one test per computation in the descriptor core that
   could overflow int64: tag block digits, block products, padded-dim
   rounding, stride products, size in bytes, extents with large strides,
   offset0 + span, compensation bytes, offsets of hostile indices,
   reshape and submemory arithmetic. Each expects TL_OVERFLOW (or another
   error where the input is refused earlier), an untouched output, and
   no undefined behaviour: CI runs this under UBSan, which turns a
   wrapped signed multiply into a failure. Boundary cases that just fit
   are accepted, so the checks are not simply "refuse anything big". */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <string.h>

#define P2(k) ((tl_dim)1 << (k))

static tl_memory_desc sentinel(void)
{
    tl_memory_desc md;
    memset(&md, 0xA5, sizeof md);
    return md;
}

static int untouched(const tl_memory_desc *md)
{
    tl_memory_desc s = sentinel();
    return memcmp(md, &s, sizeof s) == 0;
}

static void expect_tag(int ndims, const tl_dim *dims, tl_data_type dt, const char *tag,
                       tl_status want)
{
    tl_memory_desc md = sentinel();
    tl_status st = tl_md_init_by_tag(&md, ndims, dims, dt, tag);
    CHECK_MSG(st == want, "%s: got %s, want %s", tag, tl_status_str(st), tl_status_str(want));
    if (want != TL_OK) CHECK_MSG(untouched(&md), "%s: output written", tag);
}

static void expect_strides(int ndims, const tl_dim *dims, tl_data_type dt,
                           const tl_dim *strides, tl_status want, const char *what)
{
    tl_memory_desc md = sentinel();
    tl_status st = tl_md_init_by_strides(&md, ndims, dims, dt, strides);
    CHECK_MSG(st == want, "%s: got %s, want %s", what, tl_status_str(st), tl_status_str(want));
    if (want != TL_OK) CHECK_MSG(untouched(&md), "%s: output written", what);
}

/* tl__tag_parse: a block size with more digits than int64 holds. */
static void test_tag_digits(void)
{
    const tl_dim d[4] = { 1, 1, 1, 1 };
    expect_tag(4, d, TL_U8, "aBcd9223372036854775808b", TL_INVALID_ARGUMENTS);   /* 2^63 */
    expect_tag(4, d, TL_U8, "aBcd99999999999999999999b", TL_INVALID_ARGUMENTS);
    /* the parser stops a little below INT64_MAX (it checks before the
       last digit); 2^62 parses, and padding 1 up to it fits for u8 only */
    expect_tag(4, d, TL_U8, "aBcd9223372036854775807b", TL_INVALID_ARGUMENTS);
    expect_tag(4, d, TL_U8, "aBcd4611686018427387904b", TL_OK);
    expect_tag(4, d, TL_F32, "aBcd4611686018427387904b", TL_OVERFLOW);
}

/* tl__md_fill_from_tag: the product of all inner blocks, and of one
   dim's blocks, each past int64. */
static void test_block_products(void)
{
    const tl_dim d[4] = { 1, 1, 1, 1 };
    expect_tag(4, d, TL_U8, "ABcd4294967296a4294967296b", TL_OVERFLOW);
    expect_tag(4, d, TL_U8, "aBcd4294967296b4294967296b", TL_OVERFLOW);
    expect_tag(4, d, TL_U8, "aBcd4294967296b1073741824b", TL_OK);   /* 2^62 fits */
}

/* tl__round_up_overflows: dims rounded up to the block. */
static void test_padded_rounding(void)
{
    const tl_dim near[4] = { 1, INT64_MAX - 3, 1, 1 }, fits[4] = { 1, INT64_MAX - 15, 1, 1 };
    tl_memory_desc md;
    expect_tag(4, near, TL_U8, "aBcd16b", TL_OVERFLOW);      /* rounds past INT64_MAX */
    expect_tag(4, fits, TL_U8, "aBcd16b", TL_OK);            /* already a multiple */
    CHECK(tl_md_init_by_tag(&md, 4, fits, TL_U8, "aBcd16b") == TL_OK);
    CHECK(md.padded_dims[1] == INT64_MAX - 15);
    CHECK(tl_md_size(&md) == (size_t)(INT64_MAX - 15));
}

/* Dense strides: the running product over the dims. */
static void test_stride_products(void)
{
    const tl_dim d2[2] = { P2(32), P2(32) };
    const tl_dim d3[3] = { P2(31), P2(31), 2 }, d3_fits[3] = { P2(31), P2(31), 1 };
    expect_tag(2, d2, TL_U8, "ab", TL_OVERFLOW);
    expect_tag(2, d2, TL_U8, "ba", TL_OVERFLOW);
    expect_strides(2, d2, TL_U8, NULL, TL_OVERFLOW, "dense strides 2^32 x 2^32");
    expect_tag(3, d3, TL_U8, "abc", TL_OVERFLOW);             /* 2^63 elements */
    expect_tag(3, d3, TL_U8, "cab", TL_OVERFLOW);
    expect_strides(3, d3, TL_U8, NULL, TL_OVERFLOW, "dense strides 2^63 elements");
    expect_tag(3, d3_fits, TL_U8, "abc", TL_OK);              /* 2^62 */
    expect_strides(3, d3_fits, TL_U8, NULL, TL_OK, "dense strides 2^62 elements");
}

/* The element count times the element size. */
static void test_size_bytes(void)
{
    const tl_dim d1[1] = { P2(61) };
    tl_memory_desc md;
    CHECK(tl_md_init_by_tag(&md, 1, d1, TL_S8, "a") == TL_OK);
    CHECK(tl_md_size(&md) == (size_t)P2(61));
    CHECK(tl_md_init_by_tag(&md, 1, d1, TL_F16, "a") == TL_OK);
    CHECK(tl_md_size(&md) == (size_t)P2(62));
    expect_tag(1, d1, TL_F32, "a", TL_OVERFLOW);              /* 2^63 bytes */
    expect_tag(1, d1, TL_F64, "a", TL_OVERFLOW);
    expect_strides(1, d1, TL_F32, NULL, TL_OVERFLOW, "f32 2^61 elements");
}

/* tl__extent_overflows: (dims - 1) * stride summed over the dims. */
static void test_extent(void)
{
    const tl_dim d3[1] = { 3 }, d2[1] = { 2 }, d1[1] = { 1 };
    const tl_dim s_half[1] = { INT64_MAX / 2 }, s_p62[1] = { P2(62) }, s_max[1] = { INT64_MAX };
    tl_memory_desc md;
    expect_strides(1, d3, TL_U8, s_half, TL_OK, "extent exactly INT64_MAX");
    CHECK(tl_md_init_by_strides(&md, 1, d3, TL_U8, s_half) == TL_OK);
    CHECK(tl_md_size(&md) == (size_t)INT64_MAX);
    expect_strides(1, d3, TL_S8, s_p62, TL_OVERFLOW, "(3 - 1) * 2^62");
    expect_strides(1, d2, TL_U8, s_max, TL_OVERFLOW, "1 + INT64_MAX");
    expect_strides(1, d3, TL_F32, s_half, TL_OVERFLOW, "extent fits, bytes do not");
    expect_strides(1, d1, TL_F64, s_max, TL_OK, "a size-1 dim's stride is never used");
    /* regression: the size counts the full outer stride, 6 * S here, whose
       bytes do not fit in f32 although the last element's, (1 + 5 * S) * 4,
       do; the init accepted what validate then refused */
    {
        const tl_dim d6[1] = { 6 }, s[1] = { 3 * P2(57) };
        expect_strides(1, d6, TL_F32, s, TL_OVERFLOW, "6 * 3 * 2^57 f32");
        CHECK(tl_md_init_by_strides(&md, 1, d6, TL_U8, s) == TL_OK);
        CHECK(tl_md_size(&md) == (size_t)(6 * s[0]));
    }
}

/* tl__strides_overlap: stride * dims of the inner dim. When it overflows
   the outer stride cannot cover it, so the strides really do overlap. */
static void test_overlap_product(void)
{
    const tl_dim d[2] = { 2, P2(61) }, s[2] = { P2(62), 4 };
    expect_strides(2, d, TL_U8, s, TL_INVALID_ARGUMENTS, "4 * 2^61 overlap test");
}

/* tl_md_validate: offset0 + span, then times the element size. */
static void test_offset0_span(void)
{
    const tl_dim d[1] = { 4 };
    tl_dim idx[1] = { 3 };
    tl_memory_desc md, f32;
    CHECK(tl_md_init_by_strides(&md, 1, d, TL_U8, NULL) == TL_OK);
    f32 = md;
    f32.data_type = TL_F32;
    md.offset0 = INT64_MAX - 4;                     /* last byte at INT64_MAX - 1 */
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OK);
    CHECK(tl_md_size(&md) == (size_t)INT64_MAX);
    CHECK(tl_md_offset(&md, idx) == INT64_MAX - 1);
    md.offset0 = INT64_MAX - 3;
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OVERFLOW);
    CHECK(tl_md_size(&md) == 0);
    CHECK(tl_md_offset(&md, idx) == -1);
    f32.offset0 = INT64_MAX / 4;                    /* elements fit, bytes do not */
    CHECK(tl_md_validate(&f32, NULL, 0) == TL_OVERFLOW);
    CHECK(tl_md_size(&f32) == 0);
}

/* tl_md_size / validate with s8s8 compensation: data rounded up to 4,
   then 4 bytes per value (regression: the rounding was an unchecked +3). */
static void test_compensation_bytes(void)
{
    const tl_dim big[1] = { INT64_MAX - 1 }, p62[1] = { P2(62) }, p60[1] = { P2(60) };
    tl_memory_desc md;
    CHECK(tl_md_init_by_strides(&md, 1, big, TL_S8, NULL) == TL_OK);
    md.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;  /* mask 0: one value */
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OVERFLOW);
    CHECK(tl_md_size(&md) == 0);
    CHECK(tl_md_init_by_strides(&md, 1, p62, TL_S8, NULL) == TL_OK);
    md.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
    md.extra.compensation_mask = 1;                  /* 2^62 + 4 * 2^62 */
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OVERFLOW);
    CHECK(tl_md_size(&md) == 0);
    CHECK(tl_md_init_by_strides(&md, 1, p60, TL_S8, NULL) == TL_OK);
    md.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
    md.extra.compensation_mask = 1;                  /* 2^60 + 4 * 2^60 fits */
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OK);
    CHECK(tl_md_size(&md) == (size_t)(P2(60) + 4 * P2(60)));
}

/* tl_md_offset: idx + padded_offsets with a hostile idx (regression). */
static void test_offset_index(void)
{
    const tl_dim d[2] = { 3, 17 };
    tl_dim idx[2];
    static const tl_dim hostile[] = { INT64_MAX, INT64_MAX - 1, INT64_MIN, -1 };
    tl_memory_desc md;
    size_t k;
    CHECK(tl_md_init_by_tag(&md, 2, d, TL_F32, "aB16b") == TL_OK);
    md.padded_offsets[1] = 5;                       /* 17 + 5 <= 32 */
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OK);
    for (k = 0; k < sizeof hostile / sizeof *hostile; ++k) {
        idx[0] = 1; idx[1] = hostile[k];
        CHECK(tl_md_offset(&md, idx) == -1);
        idx[0] = hostile[k]; idx[1] = 1;
        CHECK(tl_md_offset(&md, idx) == -1);
    }
    idx[0] = 2; idx[1] = 26;                        /* padded position 31 */
    CHECK(tl_md_offset(&md, idx) == 2 * 32 + 16 + 15);
    idx[1] = 27;
    CHECK(tl_md_offset(&md, idx) == -1);
    CHECK(tl_md_index_of(&md, INT64_MAX, idx, NULL) == 0);
    CHECK(tl_md_index_of(&md, INT64_MIN, idx, NULL) == 0);
}

/* tl_md_nelems and empty tensors whose other dims are huge: the product
   must not be formed before the zero is seen (regression: it depended on
   the dim order), and validation must not depend on the order either. */
static void test_empty_huge(void)
{
    const tl_dim d3[3] = { P2(40), 0, P2(40) }, s3[3] = { P2(40), 1, 1 };
    const tl_dim any3[3] = { P2(32), P2(32), P2(32) };
    const tl_dim d2[2] = { 0, 3 }, s2[2] = { 1, P2(62) };
    const tl_dim vdims[2] = { 0, 1 }, voffs[2] = { 0, 2 };
    const int swap[2] = { 1, 0 };
    tl_memory_desc md, out;
    CHECK(tl_md_init_by_strides(&md, 3, d3, TL_F32, s3) == TL_OK);
    CHECK(tl_md_nelems(&md, 0) == 0 && tl_md_nelems(&md, 1) == 0);
    CHECK(tl_md_size(&md) == 0);
    CHECK(tl_md_init_by_tag(&md, 3, any3, TL_F32, "any") == TL_OK);
    CHECK(tl_md_nelems(&md, 0) == -1);              /* 2^96: an error, no UB */
    /* empty, with a stride that would overflow were the tensor not empty */
    CHECK(tl_md_init_by_strides(&md, 2, d2, TL_U8, s2) == TL_OK);
    CHECK(tl_md_permute_axes(&out, &md, swap) == TL_OK);
    CHECK(tl_md_validate(&out, NULL, 0) == TL_OK);
    /* an empty view past the end of it: offset0 must not be computed
       from index 2 times 2^62 (regression) */
    CHECK(tl_md_submemory(&out, &md, vdims, voffs) == TL_OK);
    CHECK(out.offset0 == 0 && tl_md_size(&out) == 0);
}

/* tl_md_reshape: the new element count, the merge test stride * dim, the
   split strides, and the stride given to an inserted size-1 dim. */
static void test_reshape(void)
{
    const tl_dim d4[1] = { 4 }, d2[1] = { 2 }, d22[2] = { 2, 2 };
    const tl_dim s_split[1] = { P2(61) }, s_ins[1] = { P2(62) }, s_merge[2] = { 1, P2(62) };
    const tl_dim r_ovf[3] = { P2(32), P2(32), 0 }, r_ovf2[3] = { P2(32), P2(32), P2(32) };
    const tl_dim r4[1] = { 4 }, r12[2] = { 1, 2 };
    tl_dim i1[1], i2[2];
    tl_memory_desc md, out = sentinel();
    CHECK(tl_md_init_by_strides(&md, 1, d4, TL_F32, NULL) == TL_OK);
    CHECK(tl_md_reshape(&out, &md, 3, r_ovf) != TL_OK && untouched(&out));
    CHECK(tl_md_reshape(&out, &md, 3, r_ovf2) != TL_OK && untouched(&out));
    /* merge: 2^62 * 2 is not representable, the dims are not mergeable */
    CHECK(tl_md_init_by_strides(&md, 2, d22, TL_U8, s_merge) == TL_OK);
    CHECK(tl_md_reshape(&out, &md, 1, r4) == TL_UNSUPPORTED && untouched(&out));
    /* split 4 (stride 2^61) into 2x2: strides 2^62, 2^61; the old code
       went on to 2^63 */
    CHECK(tl_md_init_by_strides(&md, 1, d4, TL_U8, s_split) == TL_OK);
    CHECK(tl_md_reshape(&out, &md, 2, d22) == TL_OK);
    CHECK(out.blocking.strides[0] == P2(62) && out.blocking.strides[1] == P2(61));
    i1[0] = 3; i2[0] = 1; i2[1] = 1;
    CHECK(tl_md_offset(&out, i2) == tl_md_offset(&md, i1) && tl_md_offset(&md, i1) == 3 * P2(61));
    /* insert a size-1 dim in front of a dim of stride 2^62: its dense
       stride 2^63 does not fit, any stride addresses it */
    CHECK(tl_md_init_by_strides(&md, 1, d2, TL_U8, s_ins) == TL_OK);
    out = sentinel();
    CHECK(tl_md_reshape(&out, &md, 2, r12) == TL_OK);
    CHECK(tl_md_validate(&out, NULL, 0) == TL_OK);
    i1[0] = 1; i2[0] = 0; i2[1] = 1;
    CHECK(tl_md_offset(&out, i2) == P2(62) && tl_md_offset(&md, i1) == P2(62));
}

/* tl_md_submemory: dims + offsets. */
static void test_submemory(void)
{
    const tl_dim d2[2] = { 4, 5 }, big_off[2] = { 0, INT64_MAX }, one[2] = { 1, 1 };
    const tl_dim big_dim[2] = { 1, INT64_MAX }, off1[2] = { 1, 1 }, zero[2] = { 0, 0 };
    const tl_dim hd[2] = { 2, 1 }, hs[2] = { 1, INT64_MAX }, vd[2] = { 2, 0 }, vo[2] = { 0, 1 };
    tl_memory_desc md, out = sentinel();
    CHECK(tl_md_init_by_strides(&md, 2, d2, TL_F32, NULL) == TL_OK);
    CHECK(tl_md_submemory(&out, &md, one, big_off) == TL_INVALID_ARGUMENTS && untouched(&out));
    CHECK(tl_md_submemory(&out, &md, big_dim, off1) == TL_INVALID_ARGUMENTS && untouched(&out));
    CHECK(tl_md_submemory(&out, &md, big_dim, zero) == TL_INVALID_ARGUMENTS && untouched(&out));
    /* a size-1 dim with stride INT64_MAX; the empty view starting one past
       it must not compute 1 * INT64_MAX + 1 */
    CHECK(tl_md_init_by_strides(&md, 2, hd, TL_U8, hs) == TL_OK);
    CHECK(tl_md_submemory(&out, &md, vd, vo) == TL_OK);
    CHECK(tl_md_validate(&out, NULL, 0) == TL_OK && tl_md_size(&out) == 0);
}

/* tl_md_validate on hand-made blocking: block products past int64, and
   dims + padded_offsets past int64. */
static void test_validate_blocking(void)
{
    const tl_dim d[2] = { 1, 1 };
    tl_memory_desc md, base;
    CHECK(tl_md_init_by_tag(&base, 2, d, TL_U8, "AB2a2b") == TL_OK);
    md = base;
    md.blocking.inner_blks[0] = md.blocking.inner_blks[1] = P2(32);
    md.padded_dims[0] = md.padded_dims[1] = P2(32);
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OVERFLOW);
    md = base;
    md.blocking.inner_idxs[1] = 0;                   /* both blocks on dim 0 */
    md.blocking.inner_blks[0] = md.blocking.inner_blks[1] = P2(32);
    CHECK(tl_md_validate(&md, NULL, 0) == TL_OVERFLOW);
    md = base;
    md.dims[0] = INT64_MAX;
    md.padded_offsets[0] = 1;
    CHECK(tl_md_validate(&md, NULL, 0) == TL_INVALID_ARGUMENTS);
    CHECK(tl_md_size(&md) == 0 && tl_md_nelems(&md, 1) == -1);
}

/* tl__tag_write: a 19-digit block size, written back and measured. */
static void test_to_tag_digits(void)
{
    const tl_dim d[2] = { 1, 1 };
    const char *tag = "aB4611686018427387904b";            /* 2^62 */
    char buf[40], small[40];
    tl_memory_desc md;
    CHECK(tl_md_init_by_tag(&md, 2, d, TL_U8, tag) == TL_OK);
    CHECK(tl_md_to_tag(&md, buf, sizeof buf) == TL_OK && strcmp(buf, tag) == 0);
    memset(small, 0x5a, sizeof small);
    CHECK(tl_md_to_tag(&md, small, strlen(tag)) == TL_BUFFER_TOO_SMALL);
    CHECK(small[0] == 0x5a && small[strlen(tag)] == 0x5a);
    CHECK(tl_md_to_tag(&md, buf, strlen(tag) + 1) == TL_OK);
    CHECK(tl_md_matches_tag(&md, "aB99999999999999999999b", NULL) == 0);
}

int main(void)
{
    test_tag_digits();
    test_block_products();
    test_padded_rounding();
    test_stride_products();
    test_size_bytes();
    test_extent();
    test_overlap_product();
    test_offset0_span();
    test_compensation_bytes();
    test_offset_index();
    test_empty_huge();
    test_reshape();
    test_submemory();
    test_validate_blocking();
    test_to_tag_digits();
    return tl_test_result("overflow");
}
