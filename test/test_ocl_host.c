/* The host half of tensorlayout_ocl.h without OpenCL: image shapes, the
   CPU pack/unpack reference against the table in test_ocl_ref.h, and the
   refusals, with outputs untouched on error. */
#define TL_OCL_HOST_ONLY
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_ocl.h"
#include "tl_test.h"
#include "test_ocl_ref.h"
#include <stdint.h>

#define GUARD 16
static const float guard_value = 12345.0f;

/* One shape: shape, pack against the table, unpack back, guard zones. */
static void check_shape(tl_ocl_buffer_type t, const tl_dim *d)
{
    tl_dim w, h, n = ref_nelems(t, d), i;
    size_t sw = 0, sh = 0, nimg;
    float *buf, *img, *want, *back;
    const char *name = tl_ocl_buffer_type_name(t);
    ref_shape(t, d, &w, &h);
    CHECK_EQ(tl_ocl_image_shape(t, ref_ndims(t), d, &sw, &sh), TL_OK);
    CHECK_MSG((tl_dim)sw == w && (tl_dim)sh == h, "%s: shape %zux%zu, want %lldx%lld",
              name, sw, sh, (long long)w, (long long)h);
    nimg = (size_t)(w * h * 4);
    buf = (float *)malloc((size_t)n * sizeof(float));
    img = (float *)malloc((nimg + GUARD) * sizeof(float));
    want = (float *)malloc(nimg * sizeof(float));
    back = (float *)malloc(((size_t)n + GUARD) * sizeof(float));
    if (!buf || !img || !want || !back) { CHECK(!"out of memory"); goto done; }
    for (i = 0; i < n; ++i) buf[i] = ref_value(i);
    for (i = 0; i < (tl_dim)nimg + GUARD; ++i) img[i] = guard_value;
    CHECK_MSG(ref_pack(t, d, buf, want), "%s: the table is not a layout", name);
    CHECK_EQ(tl_ocl_pack_host(t, ref_ndims(t), d, buf, img), TL_OK);
    for (i = 0; i < (tl_dim)nimg; ++i)
        CHECK_MSG(memcmp(&img[i], &want[i], sizeof(float)) == 0,
                  "%s %lldx%lldx%lldx%lld: texel %lld lane %lld is %g, want %g", name,
                  (long long)d[0], (long long)d[1], (long long)d[2], (long long)d[3],
                  (long long)(i / 4), (long long)(i % 4), img[i], want[i]);
    for (i = 0; i < GUARD; ++i) CHECK(img[nimg + i] == guard_value);

    /* unpack must ignore padding lanes: fill them with junk first */
    for (i = 0; i < (tl_dim)nimg; ++i)
        if (want[i] == 0.0f) img[i] = -777.0f;
    for (i = 0; i < n + GUARD; ++i) back[i] = guard_value;
    CHECK_EQ(tl_ocl_unpack_host(t, ref_ndims(t), d, img, back), TL_OK);
    CHECK_MSG(memcmp(back, buf, (size_t)n * sizeof(float)) == 0,
              "%s: unpack(pack(x)) != x", name);
    for (i = 0; i < GUARD; ++i) CHECK(back[n + i] == guard_value);
done:
    free(buf); free(img); free(want); free(back);
}

/* NCHW sources give the image of the same tensor held as NHWC. */
static void check_nchw_equals_nhwc(const tl_dim *nchw)
{
    tl_dim nhwc[4], n = nchw[0] * nchw[1] * nchw[2] * nchw[3];
    tl_dim a, b, c, e;
    float *src = (float *)malloc((size_t)n * sizeof(float));
    float *tr = (float *)malloc((size_t)n * sizeof(float));
    float *i1 = (float *)calloc((size_t)(n + 16) * 16, sizeof(float));
    float *i2 = (float *)calloc((size_t)(n + 16) * 16, sizeof(float));
    int k;
    nhwc[0] = nchw[0]; nhwc[1] = nchw[2]; nhwc[2] = nchw[3]; nhwc[3] = nchw[1];
    if (!src || !tr || !i1 || !i2) { CHECK(!"out of memory"); goto done; }
    for (a = 0; a < n; ++a) src[a] = ref_value(a);
    for (a = 0; a < nchw[0]; ++a)
        for (b = 0; b < nchw[1]; ++b)
            for (c = 0; c < nchw[2]; ++c)
                for (e = 0; e < nchw[3]; ++e)
                    tr[((a * nchw[2] + c) * nchw[3] + e) * nchw[1] + b] =
                        src[((a * nchw[1] + b) * nchw[2] + c) * nchw[3] + e];
    for (k = 0; k < 3; ++k) {
        size_t w = 0, h = 0;
        tl_ocl_buffer_type t = (tl_ocl_buffer_type)(TL_OCL_IN_OUT_CHANNEL + k);
        tl_ocl_buffer_type tn = (tl_ocl_buffer_type)(TL_OCL_IN_OUT_CHANNEL_NCHW + k);
        CHECK_EQ(tl_ocl_image_shape(t, 4, nhwc, &w, &h), TL_OK);
        CHECK_EQ(tl_ocl_pack_host(t, 4, nhwc, tr, i1), TL_OK);
        CHECK_EQ(tl_ocl_pack_host(tn, 4, nchw, src, i2), TL_OK);
        CHECK_MSG(memcmp(i1, i2, w * h * 4 * sizeof(float)) == 0,
                  "%s differs from %s", tl_ocl_buffer_type_name(tn),
                  tl_ocl_buffer_type_name(t));
    }
done:
    free(src); free(tr); free(i1); free(i2);
}

/* A refusal writes nothing: every output keeps its pattern. */
static void check_refused(tl_ocl_buffer_type t, int ndims, const tl_dim *d,
                          tl_status want)
{
    float in[64], out[64];
    size_t w = 111, h = 222;
    int k;
    for (k = 0; k < 64; ++k) { in[k] = (float)k; out[k] = guard_value; }
    CHECK_EQ(tl_ocl_image_shape(t, ndims, d, &w, &h), want);
    CHECK(w == 111 && h == 222);
    CHECK_EQ(tl_ocl_pack_host(t, ndims, d, in, out), want);
    CHECK_EQ(tl_ocl_unpack_host(t, ndims, d, in, out), want);
    CHECK_EQ(tl_ocl_image_fits(t, ndims, d, 1000, 1000), want);
    for (k = 0; k < 64; ++k) CHECK(out[k] == guard_value);
}

static void check_refusals(void)
{
    tl_dim dw2[4] = {2, 3, 3, 3}, neg[4] = {1, -3, 2, 2}, zero[4] = {1, 0, 2, 2};
    tl_dim big[4] = {INT64_MAX / 2, 4, 1, 1}, huge[4] = {1 << 30, 1 << 30, 1 << 30, 8};
    tl_dim ok[4] = {1, 2, 3, 4}, arg_neg[1] = {-1};
    tl_dim wide_c[4] = {1, 1, (tl_dim)1 << 62, 1};   /* 4 floats a texel overflow */
    float in[64], out[64];
    size_t w = 7, h = 7;
    int t, k;
    check_refused(TL_OCL_DW_CONV2D_FILTER, 4, dw2, TL_UNSUPPORTED);
    check_refused(TL_OCL_IN_OUT_CHANNEL, 4, neg, TL_INVALID_ARGUMENTS);
    check_refused(TL_OCL_ARGUMENT, 1, arg_neg, TL_INVALID_ARGUMENTS);
    check_refused(TL_OCL_WEIGHT_WIDTH, 4, zero, TL_INVALID_ARGUMENTS);
    check_refused(TL_OCL_CONV2D_FILTER, 4, big, TL_OVERFLOW);
    check_refused(TL_OCL_IN_OUT_HEIGHT, 4, huge, TL_OVERFLOW);
    check_refused(TL_OCL_IN_OUT_CHANNEL, 4, wide_c, TL_OVERFLOW);
    check_refused(TL_OCL_IN_OUT_CHANNEL, 3, ok, TL_INVALID_ARGUMENTS);
    check_refused(TL_OCL_ARGUMENT, 4, ok, TL_INVALID_ARGUMENTS);
    check_refused(TL_OCL_IN_OUT_CHANNEL, 4, NULL, TL_INVALID_ARGUMENTS);
    check_refused((tl_ocl_buffer_type)-1, 4, ok, TL_INVALID_ARGUMENTS);
    check_refused(TL_OCL_BUFFER_TYPE_COUNT, 4, ok, TL_INVALID_ARGUMENTS);
    for (t = 0; t < TL_OCL_BUFFER_TYPE_COUNT; ++t) {
        tl_ocl_buffer_type ty = (tl_ocl_buffer_type)t;
        int nd = ref_ndims(ty);
        for (k = 0; k < 64; ++k) { in[k] = 1.0f; out[k] = guard_value; }
        CHECK_EQ(tl_ocl_pack_host(ty, nd, ok, NULL, out), TL_INVALID_ARGUMENTS);
        CHECK_EQ(tl_ocl_pack_host(ty, nd, ok, in, NULL), TL_INVALID_ARGUMENTS);
        CHECK_EQ(tl_ocl_unpack_host(ty, nd, ok, NULL, out), TL_INVALID_ARGUMENTS);
        CHECK_EQ(tl_ocl_unpack_host(ty, nd, ok, in, NULL), TL_INVALID_ARGUMENTS);
        CHECK_EQ(tl_ocl_image_shape(ty, nd, ok, NULL, &h), TL_INVALID_ARGUMENTS);
        CHECK_EQ(tl_ocl_image_shape(ty, nd, ok, &w, NULL), TL_INVALID_ARGUMENTS);
        for (k = 0; k < 64; ++k) CHECK(out[k] == guard_value);
    }
    CHECK(w == 7 && h == 7);
}

/* tl_ocl_image_fits: exactly at the limit fits, one texel more does not. */
static void check_fits(void)
{
    tl_dim wv, hv;
    int t;
    for (t = 0; t < TL_OCL_BUFFER_TYPE_COUNT; ++t) {
        tl_ocl_buffer_type ty = (tl_ocl_buffer_type)t;
        tl_dim dd[4];
        ref_dims(ty, 1, dd);
        ref_shape(ty, dd, &wv, &hv);
        CHECK_EQ(tl_ocl_image_fits(ty, ref_ndims(ty), dd, (size_t)wv, (size_t)hv), TL_OK);
        CHECK_EQ(tl_ocl_image_fits(ty, ref_ndims(ty), dd, (size_t)wv - 1, (size_t)hv),
                 TL_DEVICE_LIMIT);
        CHECK_EQ(tl_ocl_image_fits(ty, ref_ndims(ty), dd, (size_t)wv, (size_t)hv - 1),
                 TL_DEVICE_LIMIT);
    }
}

/* The embedded source is the kernels' text, one line per literal. */
static void check_source(void)
{
    size_t n = 0, i;
    int kernels = 0, fp16_pragma = 0, mul24 = 0;
    const char *const *lines = tl_ocl_kernel_source(&n);
    CHECK(n > 10);
    CHECK(tl_ocl_kernel_source(NULL) == lines);
    for (i = 0; i < n; ++i) {
        size_t len = strlen(lines[i]);
        CHECK(len > 0 && lines[i][len - 1] == '\n');
        kernels += strstr(lines[i], "__kernel void tl_") != NULL;
        fp16_pragma += strstr(lines[i], "#pragma OPENCL EXTENSION cl_khr_fp16") != NULL;
        mul24 += strstr(lines[i], "mul24(") != NULL || strstr(lines[i], "mad24(") != NULL;
    }
    CHECK_EQ(kernels, 8);   /* 2-D and 1-D images, both ways, f32 and f16 */
    CHECK_EQ(fp16_pragma, 0);   /* half buffers use vload_half: core CL */
    CHECK_EQ(mul24, 0);
}

int main(void)
{
    int t, s;
    tl_dim d[4];
    static const tl_dim nchw[][4] = {{1, 1, 1, 1}, {2, 5, 3, 7}, {1, 9, 6, 2}};
    for (t = 0; t < TL_OCL_BUFFER_TYPE_COUNT; ++t)
        for (s = 0; ref_dims((tl_ocl_buffer_type)t, s, d); ++s)
            check_shape((tl_ocl_buffer_type)t, d);
    for (s = 0; s < 3; ++s) check_nchw_equals_nhwc(nchw[s]);
    check_refusals();
    check_fits();
    check_source();
    CHECK(strcmp(tl_ocl_buffer_type_name(TL_OCL_WEIGHT_WIDTH), "WEIGHT_WIDTH") == 0);
    CHECK(strcmp(tl_ocl_buffer_type_name(TL_OCL_BUFFER_TYPE_COUNT), "unknown") == 0);
    return tl_test_result("ocl_host");
}
