/* DLPack interop: tl_md_from_dlpack / tl_md_to_dlpack against DLPack's
   own addressing rule (data + byte_offset + sum(idx * stride) * size),
   every type in both directions, and bad input leaving outputs alone.
   dlpack.h is included first, as users must. */
#include <dlpack/dlpack.h>
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"

#include <string.h>

static DLTensor make_tensor(int ndim, int64_t *shape, int64_t *strides, uint8_t code,
                            uint8_t bits, uint64_t byte_offset)
{
    DLTensor t;
    memset(&t, 0, sizeof t);
    t.ndim = ndim;
    t.shape = shape;
    t.strides = strides;
    t.dtype.code = code;
    t.dtype.bits = bits;
    t.dtype.lanes = 1;
    t.byte_offset = byte_offset;
    t.device.device_type = kDLCPU;
    return t;
}

/* DLPack's rule, written out: the byte address of idx relative to data. */
static int64_t dlpack_byte_addr(const DLTensor *t, const int64_t *idx)
{
    int64_t off = 0, stride = 1;
    int d;
    for (d = t->ndim - 1; d >= 0; --d) {
        off += idx[d] * (t->strides ? t->strides[d] : stride);
        stride *= t->shape[d];
    }
    return (int64_t)t->byte_offset + off * (t->dtype.bits / 8);
}

/* Every index of t: tl_md_offset * size agrees with DLPack's address. */
static void check_addressing(const DLTensor *t)
{
    tl_memory_desc md;
    int64_t idx[TL_MAX_NDIMS] = {0};
    int d, more = 1;
    CHECK_EQ(tl_md_from_dlpack(&md, t), TL_OK);
    while (more) {
        CHECK_EQ(tl_md_offset(&md, idx) * (int64_t)tl_dt_size(md.data_type),
                 dlpack_byte_addr(t, idx));
        for (d = t->ndim - 1, more = 0; d >= 0 && !more; --d) {
            if (++idx[d] < t->shape[d]) more = 1;
            else idx[d] = 0;
        }
    }
}

static void test_from(void)
{
    int64_t shape[4] = {2, 3, 4, 5}, tstrides[2] = {1, 7}, shape2[2] = {7, 3};
    int64_t gap[4] = {200, 50, 10, 1}, odd1[3] = {5, -9, 1}, shape3[3] = {4, 1, 5};
    tl_memory_desc md, ref;
    DLTensor t = make_tensor(4, shape, NULL, kDLFloat, 32, 0);

    /* NULL strides: compact row-major, the same as tag abcd */
    CHECK_EQ(tl_md_from_dlpack(&md, &t), TL_OK);
    CHECK_EQ(tl_md_init_by_tag(&ref, 4, shape, TL_F32, "abcd"), TL_OK);
    CHECK(tl_md_equal(&md, &ref));
    check_addressing(&t);

    /* a column-major (transposed) matrix is tag ba */
    t = make_tensor(2, shape2, tstrides, kDLFloat, 32, 0);
    CHECK_EQ(tl_md_from_dlpack(&md, &t), TL_OK);
    CHECK(tl_md_matches_tag(&md, "ba", NULL));
    check_addressing(&t);

    /* gaps and a byte offset: offset0 counts elements */
    t = make_tensor(4, shape, gap, kDLFloat, 16, 6);
    CHECK_EQ(tl_md_from_dlpack(&md, &t), TL_OK);
    CHECK_EQ(md.data_type, TL_F16);
    CHECK_EQ(md.offset0, 3);
    check_addressing(&t);

    /* a negative stride on a size-1 dim is harmless */
    t = make_tensor(3, shape3, odd1, kDLInt, 8, 5);
    CHECK_EQ(tl_md_from_dlpack(&md, &t), TL_OK);
    CHECK_EQ(md.offset0, 5);
    check_addressing(&t);
}

static void test_types(void)
{
    static const struct { tl_data_type dt; uint8_t code, bits; } types[] = {
        { TL_F32, kDLFloat, 32 }, { TL_F16, kDLFloat, 16 }, { TL_BF16, kDLBfloat, 16 },
        { TL_F64, kDLFloat, 64 }, { TL_S32, kDLInt, 32 }, { TL_S8, kDLInt, 8 },
        { TL_U8, kDLUInt, 8 }
    };
    int64_t shape[3] = {3, 1, 4}, sh[3], st[3];
    size_t k;
    for (k = 0; k < sizeof types / sizeof *types; ++k) {
        tl_memory_desc md, back;
        DLTensor t = make_tensor(3, shape, NULL, types[k].code, types[k].bits, 0), out;
        CHECK_EQ(tl_md_from_dlpack(&md, &t), TL_OK);
        CHECK_EQ(md.data_type, types[k].dt);
        memset(&out, 0, sizeof out);
        CHECK_EQ(tl_md_to_dlpack(&md, &out, sh, st), TL_OK);
        CHECK_EQ(out.dtype.code, types[k].code);
        CHECK_EQ(out.dtype.bits, types[k].bits);
        CHECK_EQ(out.dtype.lanes, 1);
        CHECK_EQ(tl_md_from_dlpack(&back, &out), TL_OK);
        CHECK(tl_md_equal(&md, &back));
    }
}

static void test_to(void)
{
    tl_dim dims[4] = {2, 6, 5, 4}, vdims[4] = {1, 3, 2, 4}, offs[4] = {1, 2, 3, 0};
    tl_memory_desc md, view, back;
    int64_t shape[4], strides[4];
    DLTensor t;
    int d;

    /* nhwc: strides of the plain layout, shape = dims */
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "nhwc"), TL_OK);
    memset(&t, 0, sizeof t);
    CHECK_EQ(tl_md_to_dlpack(&md, &t, shape, strides), TL_OK);
    CHECK_EQ(t.ndim, 4);
    CHECK(t.shape == shape && t.strides == strides && t.data == NULL);
    for (d = 0; d < 4; ++d) CHECK_EQ(shape[d], dims[d]);
    CHECK_EQ(strides[0], 5 * 4 * 6);
    CHECK_EQ(strides[1], 1);
    CHECK_EQ(strides[2], 4 * 6);
    CHECK_EQ(strides[3], 6);
    CHECK_EQ(t.byte_offset, 0);

    /* a view: byte_offset carries offset0 */
    CHECK_EQ(tl_md_submemory(&view, &md, vdims, offs), TL_OK);
    CHECK_EQ(tl_md_to_dlpack(&view, &t, shape, strides), TL_OK);
    CHECK_EQ(t.byte_offset, 4 * (1 * 120 + 2 * 1 + 3 * 24));
    CHECK_EQ(tl_md_from_dlpack(&back, &t), TL_OK);
    CHECK(tl_md_equal(&view, &back));
    check_addressing(&t);
}

static void test_bad(void)
{
    int64_t shape[4] = {2, 3, 4, 5}, neg[4] = {2, -3, 4, 5}, overlap[4] = {60, 20, 5, 2};
    int64_t negstride[4] = {60, 20, -5, 1}, shape13[13], sh[4], st[4];
    tl_dim dims[4] = {2, 17, 3, 3};
    tl_memory_desc md, blocked, before;
    DLTensor t, saved;
    int i;
    struct { DLTensor t; tl_status want; } cases[12];
    int n = 0;
    for (i = 0; i < 13; ++i) shape13[i] = 1;
    cases[n].t = make_tensor(4, shape, NULL, kDLFloat, 32, 0);
    cases[n].t.dtype.lanes = 4; cases[n++].want = TL_UNSUPPORTED;
    cases[n].t = make_tensor(4, shape, NULL, kDLComplex, 64, 0); cases[n++].want = TL_UNSUPPORTED;
    cases[n].t = make_tensor(4, shape, NULL, kDLFloat, 12, 0); cases[n++].want = TL_UNSUPPORTED;
    cases[n].t = make_tensor(4, shape, NULL, kDLInt, 64, 0); cases[n++].want = TL_UNSUPPORTED;
    cases[n].t = make_tensor(4, shape, NULL, kDLFloat, 32, 3); cases[n++].want = TL_INVALID_ARGUMENTS;
    cases[n].t = make_tensor(0, shape, NULL, kDLFloat, 32, 0); cases[n++].want = TL_UNSUPPORTED;
    cases[n].t = make_tensor(-1, shape, NULL, kDLFloat, 32, 0); cases[n++].want = TL_INVALID_ARGUMENTS;
    cases[n].t = make_tensor(13, shape13, NULL, kDLFloat, 32, 0); cases[n++].want = TL_UNSUPPORTED;
    cases[n].t = make_tensor(4, NULL, NULL, kDLFloat, 32, 0); cases[n++].want = TL_INVALID_ARGUMENTS;
    cases[n].t = make_tensor(4, neg, NULL, kDLFloat, 32, 0); cases[n++].want = TL_INVALID_ARGUMENTS;
    cases[n].t = make_tensor(4, shape, overlap, kDLFloat, 32, 0); cases[n++].want = TL_INVALID_ARGUMENTS;
    cases[n].t = make_tensor(4, shape, negstride, kDLFloat, 32, 0); cases[n++].want = TL_UNSUPPORTED;
    for (i = 0; i < n; ++i) {
        memset(&md, 0xab, sizeof md);
        before = md;
        CHECK_MSG(tl_md_from_dlpack(&md, &cases[i].t) == cases[i].want, "case %d", i);
        CHECK_MSG(memcmp(&md, &before, sizeof md) == 0, "case %d wrote md", i);
    }
    t = make_tensor(4, shape, NULL, kDLFloat, 32, UINT64_MAX - 3);
    CHECK(tl_md_from_dlpack(&md, &t) != TL_OK);
    CHECK_EQ(tl_md_from_dlpack(NULL, &t), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_md_from_dlpack(&md, NULL), TL_INVALID_ARGUMENTS);

    /* blocked layouts do not export, and nothing is written */
    CHECK_EQ(tl_md_init_by_tag(&blocked, 4, dims, TL_F32, "nChw16c"), TL_OK);
    memset(&t, 0x5a, sizeof t);
    memset(sh, 0x5a, sizeof sh);
    memset(st, 0x5a, sizeof st);
    saved = t;
    CHECK_EQ(tl_md_to_dlpack(&blocked, &t, sh, st), TL_UNSUPPORTED);
    CHECK(memcmp(&t, &saved, sizeof t) == 0);
    for (i = 0; i < 4; ++i) CHECK(sh[i] == st[i] && sh[i] == 0x5a5a5a5a5a5a5a5aLL);
    CHECK_EQ(tl_md_to_dlpack(&blocked, &t, NULL, st), TL_INVALID_ARGUMENTS);
    memset(&md, 0, sizeof md);
    CHECK_EQ(tl_md_to_dlpack(&md, &t, sh, st), TL_INVALID_ARGUMENTS);
    CHECK(memcmp(&t, &saved, sizeof t) == 0);
}

int main(void)
{
    test_from();
    test_types();
    test_to();
    test_bad();
    return tl_test_result("test_dlpack");
}
