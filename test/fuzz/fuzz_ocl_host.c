/* fuzz_ocl_host - the GPU image host functions on arbitrary types and
   dims: tl_ocl_image_shape, tl_ocl_image_fits, tl_ocl_pack_host and
   tl_ocl_unpack_host, built with TL_OCL_HOST_ONLY (no OpenCL needed).
   The reference is DESIGN.md's table, element to pixel (x, y) and lane,
   written here per type. Properties: the status is the one the rules
   give (bad type, ndims or dim: TL_INVALID_ARGUMENTS; M > 1:
   TL_UNSUPPORTED); on error no output is written. On success the shape
   is the table's; every element lands on its own lane inside the image;
   pack writes exactly those lanes and zeros elsewhere; unpack reads them
   back into every element, and pack then unpack is the identity. Buffers
   and images are exactly as large as the tensor and the image, so ASan
   sees any stray access. */
#define TENSORLAYOUT_IMPLEMENTATION
#define TL_OCL_HOST_ONLY
#include "tensorlayout_ocl.h"
#include "fuzz_common.h"

#define OC_MAX_FLOATS 65536   /* image floats walked per input */

static tl_dim q4(tl_dim v) { return v / 4 + (v % 4 != 0); }   /* no v + 3: v may be INT64_MAX */

static int is_nchw(int type)
{
    return type == TL_OCL_IN_OUT_CHANNEL_NCHW || type == TL_OCL_IN_OUT_HEIGHT_NCHW ||
           type == TL_OCL_IN_OUT_WIDTH_NCHW;
}

/* The image layout an activation type uses (the _NCHW ones share it). */
static int base_type(int type)
{
    if (type == TL_OCL_IN_OUT_CHANNEL_NCHW) return TL_OCL_IN_OUT_CHANNEL;
    if (type == TL_OCL_IN_OUT_HEIGHT_NCHW) return TL_OCL_IN_OUT_HEIGHT;
    if (type == TL_OCL_IN_OUT_WIDTH_NCHW) return TL_OCL_IN_OUT_WIDTH;
    return type;
}

/* The table. i holds the element's coordinates in the buffer's own dim
   order (NHWC, NCHW, OIHW, MIHW or W); x, y, lane are filled, and the
   image size goes to *w, *h. */
static void table(int type, const tl_dim *dm, const tl_dim *i,
                  tl_dim *w, tl_dim *h, tl_dim *x, tl_dim *y, int *lane)
{
    tl_dim N, C, H, W, n, c, hh, ww, O, I;
    int t = base_type(type);
    if (type == TL_OCL_ARGUMENT) {
        *w = q4(dm[0]); *h = 1; *x = i[0] / 4; *y = 0; *lane = (int)(i[0] % 4);
        return;
    }
    if (t <= TL_OCL_IN_OUT_WIDTH) {
        N = dm[0]; n = i[0];
        if (is_nchw(type)) { C = dm[1]; H = dm[2]; W = dm[3]; c = i[1]; hh = i[2]; ww = i[3]; }
        else               { H = dm[1]; W = dm[2]; C = dm[3]; hh = i[1]; ww = i[2]; c = i[3]; }
        if (t == TL_OCL_IN_OUT_CHANNEL) {
            *w = q4(C) * W; *h = N * H;
            *x = (c / 4) * W + ww; *y = n * H + hh; *lane = (int)(c % 4);
        } else if (t == TL_OCL_IN_OUT_HEIGHT) {
            *w = W * C; *h = N * q4(H);
            *x = c * W + ww; *y = n * q4(H) + hh / 4; *lane = (int)(hh % 4);
        } else {
            *w = q4(W) * C; *h = N * H;
            *x = c * q4(W) + ww / 4; *y = n * H + hh; *lane = (int)(ww % 4);
        }
        return;
    }
    O = dm[0]; I = dm[1]; H = dm[2]; W = dm[3];   /* M for depthwise is O */
    switch (t) {
    case TL_OCL_CONV2D_FILTER:
        *w = I; *h = q4(O) * H * W;
        *x = i[1]; *y = (i[0] / 4) * H * W + i[2] * W + i[3]; *lane = (int)(i[0] % 4);
        break;
    case TL_OCL_DW_CONV2D_FILTER:
        *w = H * W * O; *h = q4(I);
        *x = i[2] * W + i[3]; *y = i[1] / 4; *lane = (int)(i[1] % 4);
        break;
    case TL_OCL_WEIGHT_HEIGHT:
        *w = I * H * W; *h = q4(O);
        *x = (i[2] * W + i[3]) * I + i[1]; *y = i[0] / 4; *lane = (int)(i[0] % 4);
        break;
    default:   /* WEIGHT_WIDTH */
        *w = q4(I) * H * W; *h = O;
        *x = (i[2] * W + i[3]) * q4(I) + i[1] / 4; *y = i[0]; *lane = (int)(i[1] % 4);
        break;
    }
}

/* The status the rules give, and the element count when it is TL_OK. */
static tl_status expected(int type, int ndims, const tl_dim *dims, tl_dim *nelems)
{
    const tl_dim zero[4] = {0, 0, 0, 0};
    int d, lane;
    tl_dim n = 1, w, h, x, y;
    if (type < 0 || type >= TL_OCL_BUFFER_TYPE_COUNT ||
        ndims != (type == TL_OCL_ARGUMENT ? 1 : 4)) return TL_INVALID_ARGUMENTS;
    for (d = 0; d < ndims; ++d) if (dims[d] < 1) return TL_INVALID_ARGUMENTS;
    for (d = 0; d < ndims; ++d) {
        if (n > INT64_MAX / dims[d]) return TL_OVERFLOW;
        n *= dims[d];
    }
    if (type == TL_OCL_DW_CONV2D_FILTER && dims[0] != 1) return TL_UNSUPPORTED;
    /* width and height are products of some dims (q(v) <= v), so they fit
       once the count does; the image's floats, w * h * 4, may not */
    table(type, dims, zero, &w, &h, &x, &y, &lane);
    if (w > INT64_MAX / h || w * h > INT64_MAX / 4 ||
        (uint64_t)(w * h * 4) > (uint64_t)(SIZE_MAX / sizeof(float)))
        return TL_OVERFLOW;
    *nelems = n;
    return TL_OK;
}

static void check_pack_unpack(fz_reader *r, int type, int ndims, const tl_dim *dims,
                              tl_dim nelems, tl_dim w, tl_dim h)
{
    size_t nf = (size_t)(w * h * 4), k;
    float *buf = (float *)malloc((size_t)nelems * sizeof(float));
    float *img = (float *)malloc(nf * sizeof(float));
    float *want = (float *)calloc(nf, sizeof(float));
    float *back = (float *)malloc((size_t)nelems * sizeof(float));
    unsigned char *hit = (unsigned char *)calloc(nf, 1);
    tl_dim e, i[4] = {0, 0, 0, 0}, ww, hh, x, y;
    int lane, d;
    FZ_CHECK(buf && img && want && back && hit);
    for (e = 0; e < nelems; ++e)
        buf[e] = (float)((int)fz_byte(r) - 128) + (float)e * 0.001f;
    /* walk the elements in buffer order (row-major over the type's dims) */
    for (e = 0; e < nelems; ++e) {
        size_t at;
        table(type, dims, i, &ww, &hh, &x, &y, &lane);
        FZ_CHECK(x >= 0 && x < w && y >= 0 && y < h);
        at = (size_t)((y * w + x) * 4 + lane);
        FZ_CHECK(!hit[at]);                 /* one element per lane */
        hit[at] = 1;
        want[at] = buf[e];
        for (d = ndims - 1; d >= 0; --d) {
            if (++i[d] < dims[d]) break;
            i[d] = 0;
        }
    }
    for (k = 0; k < nf; ++k) img[k] = -7.5f;
    FZ_CHECK(tl_ocl_pack_host((tl_ocl_buffer_type)type, ndims, dims, buf, img) == TL_OK);
    FZ_CHECK(memcmp(img, want, nf * sizeof(float)) == 0);   /* padding lanes 0 */
    for (e = 0; e < nelems; ++e) back[e] = -9.25f;
    FZ_CHECK(tl_ocl_unpack_host((tl_ocl_buffer_type)type, ndims, dims, img, back) == TL_OK);
    FZ_CHECK(memcmp(back, buf, (size_t)nelems * sizeof(float)) == 0);
    /* unpack reads no padding lane: poison them, the result is the same */
    for (k = 0; k < nf; ++k) if (!hit[k]) img[k] = 1e30f;
    for (e = 0; e < nelems; ++e) back[e] = -9.25f;
    FZ_CHECK(tl_ocl_unpack_host((tl_ocl_buffer_type)type, ndims, dims, img, back) == TL_OK);
    FZ_CHECK(memcmp(back, buf, (size_t)nelems * sizeof(float)) == 0);
    free(buf); free(img); free(want); free(back); free(hit);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r;
    tl_dim dims[5], nelems = 0, w = 0, h = 0, x, y;
    tl_dim zero[4] = {0, 0, 0, 0};
    size_t width = 0xA5A5, height = 0x5A5A, maxw, maxh;
    float sentinel[8], probe[8];
    int type, ndims, d, lane;
    unsigned sel;
    tl_status st, want;

    fz_init(&r, data, size);
    type = (int)(fz_byte(&r) % (TL_OCL_BUFFER_TYPE_COUNT + 2)) - 1;   /* -1..COUNT */
    sel = fz_byte(&r);
    ndims = type == TL_OCL_ARGUMENT ? 1 : 4;
    if (sel < 12) ndims = (int)(fz_byte(&r) % 7) - 1;
    for (d = 0; d < 5; ++d) {
        unsigned v = fz_byte(&r);
        dims[d] = v < 200 ? (tl_dim)(1 + v % 9) : v < 240 ? (tl_dim)(1 + v % 70) : fz_any_dim(&r);
    }
    if (type == TL_OCL_DW_CONV2D_FILTER && fz_byte(&r) < 200) dims[0] = 1;
    want = expected(type, ndims, dims, &nelems);

    st = tl_ocl_image_shape((tl_ocl_buffer_type)type, ndims, dims, &width, &height);
    FZ_CHECK(st == want);
    FZ_CHECK(tl_ocl_image_shape((tl_ocl_buffer_type)type, ndims, dims, NULL, &height) ==
             TL_INVALID_ARGUMENTS);
    maxw = (size_t)fz_u64(&r) % 4096;
    maxh = (size_t)fz_u64(&r) % 4096;
    if (st != TL_OK) {
        FZ_CHECK(width == 0xA5A5 && height == 0x5A5A);
        FZ_CHECK(tl_ocl_image_fits((tl_ocl_buffer_type)type, ndims, dims, maxw, maxh) == want);
        /* pack/unpack refuse the same way and write nothing */
        for (d = 0; d < 8; ++d) sentinel[d] = probe[d] = (float)d;
        FZ_CHECK(tl_ocl_pack_host((tl_ocl_buffer_type)type, ndims, dims, sentinel, probe) == want);
        FZ_CHECK(tl_ocl_unpack_host((tl_ocl_buffer_type)type, ndims, dims, sentinel, probe) == want);
        for (d = 0; d < 8; ++d) FZ_CHECK(probe[d] == (float)d);
        return 0;
    }
    table(type, dims, zero, &w, &h, &x, &y, &lane);
    FZ_CHECK((tl_dim)width == w && (tl_dim)height == h);
    FZ_CHECK(tl_ocl_image_fits((tl_ocl_buffer_type)type, ndims, dims, maxw, maxh) ==
             ((tl_dim)maxw >= w && (tl_dim)maxh >= h ? TL_OK : TL_DEVICE_LIMIT));
    FZ_CHECK(tl_ocl_pack_host((tl_ocl_buffer_type)type, ndims, dims, NULL, probe) ==
             TL_INVALID_ARGUMENTS);
    FZ_CHECK(tl_ocl_unpack_host((tl_ocl_buffer_type)type, ndims, dims, probe, NULL) ==
             TL_INVALID_ARGUMENTS);
    if (w <= OC_MAX_FLOATS / 4 / h && nelems <= OC_MAX_FLOATS)
        check_pack_unpack(&r, type, ndims, dims, nelems, w, h);
    return 0;
}
