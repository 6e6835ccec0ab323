/* tensorlayout_ocl.h on a real OpenCL device (PoCL in CI): every buffer
   type x shapes x float and half images x f32 and f16 buffers x both
   directions, compared texel by texel with the CPU reference (itself
   checked against the table in test_ocl_host.c); guard zones; padded
   global sizes; refusals that leave memory untouched.
   Exit 77 (meson: SKIP) only when there is no OpenCL platform at all. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_ocl.h"
#include "tl_test.h"
#include "test_ocl_ref.h"
#include <stdio.h>

#define GUARD 64                   /* elements after (and before) a tensor */
static const float junk = 3000.0f; /* pre-fill: a write shows as a change;
                                      exact in half, unlike any test value */

static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;
static tl_ocl_program *prog;

/* ---- small OpenCL helpers; any failure is a test failure -------------- */

static size_t elem_size(tl_data_type dt) { return dt == TL_F16 ? 2 : 4; }

/* Stores float v at element i of a raw f32 or f16 array. */
static void put(void *raw, tl_data_type dt, size_t i, float v)
{
    if (dt == TL_F16) ((uint16_t *)raw)[i] = tl_f32_to_f16(v);
    else ((float *)raw)[i] = v;
}

static float get(const void *raw, tl_data_type dt, size_t i)
{
    if (dt == TL_F16) return tl_f16_to_f32(((const uint16_t *)raw)[i]);
    return ((const float *)raw)[i];
}

static cl_mem make_buffer(size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                              (void *)init, &err);
    CHECK_EQ(err, CL_SUCCESS);
    return m;
}

static void read_buffer(cl_mem m, size_t bytes, void *out)
{
    CHECK_EQ(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, out, 0, NULL, NULL),
             CL_SUCCESS);
}

/* w x h texels; a 1-D image buffer holds the same texels as one row of
   w*h, so callers pass (w*h, 1) for it. */
static void image_io(cl_mem img, size_t w, size_t h, void *texels, int write)
{
    size_t origin[3] = {0, 0, 0}, region[3];
    region[0] = w; region[1] = h; region[2] = 1;
    if (write)
        CHECK_EQ(clEnqueueWriteImage(queue, img, CL_TRUE, origin, region, 0, 0,
                                     texels, 0, NULL, NULL), CL_SUCCESS);
    else
        CHECK_EQ(clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0,
                                    texels, 0, NULL, NULL), CL_SUCCESS);
}

/* Image texels as floats, whatever the channel type. */
static void image_get(cl_mem img, cl_channel_type ct, size_t w, size_t h,
                      float *out)
{
    size_t i, n = w * h * 4;
    tl_data_type dt = ct == CL_HALF_FLOAT ? TL_F16 : TL_F32;
    void *raw = malloc(n * elem_size(dt));
    if (!raw) { CHECK(!"out of memory"); return; }
    image_io(img, w, h, raw, 0);
    for (i = 0; i < n; ++i) out[i] = get(raw, dt, i);
    free(raw);
}

static void image_put(cl_mem img, cl_channel_type ct, size_t w, size_t h,
                      const float *in)
{
    size_t i, n = w * h * 4;
    tl_data_type dt = ct == CL_HALF_FLOAT ? TL_F16 : TL_F32;
    void *raw = malloc(n * elem_size(dt));
    if (!raw) { CHECK(!"out of memory"); return; }
    for (i = 0; i < n; ++i) put(raw, dt, i, in[i]);
    image_io(img, w, h, raw, 1);
    free(raw);
}

/* ---- one case: both directions ---------------------------------------- */

typedef struct {
    tl_ocl_buffer_type type;
    const tl_dim *dims;
    cl_channel_type ct;
    tl_data_type dt;
    size_t offset;             /* elements before the tensor in the buffer */
    size_t local[2];           /* {0,0}: runtime's choice */
    int image1d;               /* a 1-D image buffer instead of a 2-D image */
} ocl_case;

static void case_name(const ocl_case *c, char *s, size_t len)
{
    snprintf(s, len, "%s dims %lld,%lld,%lld,%lld %s%s image %s buffer off %zu local %zux%zu",
             tl_ocl_buffer_type_name(c->type), (long long)c->dims[0],
             (long long)(c->type == TL_OCL_ARGUMENT ? 0 : c->dims[1]),
             (long long)(c->type == TL_OCL_ARGUMENT ? 0 : c->dims[2]),
             (long long)(c->type == TL_OCL_ARGUMENT ? 0 : c->dims[3]),
             c->ct == CL_FLOAT ? "float" : "half", c->image1d ? " 1-D" : "",
             tl_dt_name(c->dt), c->offset,
             c->local[0], c->local[1]);
}

static void run_case(const ocl_case *c)
{
    int nd = ref_ndims(c->type);
    size_t w = 0, h = 0, i, n = (size_t)ref_nelems(c->type, c->dims);
    size_t nbuf = c->offset + n + GUARD, ntex;
    float *vals = NULL, *want = NULL, *got = NULL;
    void *raw = NULL;
    cl_mem buf = NULL, img = NULL;
    tl_ocl_enqueue_attr attr;
    char name[200];
    case_name(c, name, sizeof name);
    memset(&attr, 0, sizeof attr);
    attr.buffer_offset = c->offset;
    attr.local_size[0] = c->local[0];
    attr.local_size[1] = c->local[1];

    CHECK_EQ(tl_ocl_image_shape(c->type, nd, c->dims, &w, &h), TL_OK);
    ntex = w * h * 4;
    if (c->image1d) { w *= h; h = 1; }   /* same texels, one row */
    vals = (float *)malloc(n * sizeof(float));
    want = (float *)malloc(ntex * sizeof(float));
    got = (float *)malloc(ntex * sizeof(float));
    raw = malloc(nbuf * 4);
    if (!vals || !want || !got || !raw) { CHECK(!"out of memory"); goto done; }
    for (i = 0; i < n; ++i) vals[i] = ref_value((tl_dim)i);
    CHECK_EQ(tl_ocl_pack_host(c->type, nd, c->dims, vals, want), TL_OK);

    /* buffer -> image, onto an image full of junk */
    for (i = 0; i < nbuf; ++i)
        put(raw, c->dt, i, i >= c->offset && i < c->offset + n ? vals[i - c->offset] : junk);
    buf = make_buffer(nbuf * elem_size(c->dt), raw);
    if (c->image1d)
        CHECK_EQ(tl_ocl_image1d_create(&img, ctx, c->type, nd, c->dims, c->ct), TL_OK);
    else
        CHECK_EQ(tl_ocl_image_create(&img, ctx, c->type, nd, c->dims, c->ct), TL_OK);
    if (!buf || !img) goto done;
    for (i = 0; i < ntex; ++i) got[i] = junk;
    image_put(img, c->ct, w, h, got);
    CHECK_MSG(tl_ocl_buffer_to_image_ex(prog, queue, c->type, nd, c->dims, c->dt,
                                        buf, img, &attr) == TL_OK, "%s", name);
    image_get(img, c->ct, w, h, got);
    for (i = 0; i < ntex; ++i)
        CHECK_MSG(memcmp(&got[i], &want[i], sizeof(float)) == 0,
                  "%s: to image: texel (%zu, %zu) lane %zu is %g, want %g", name,
                  i / 4 % w, i / 4 / w, i % 4, got[i], want[i]);

    /* image -> buffer: padding lanes hold junk that must not come back;
       the buffer around the tensor holds junk that must stay */
    for (i = 0; i < ntex; ++i) got[i] = want[i] == 0.0f ? -junk : want[i];
    image_put(img, c->ct, w, h, got);
    for (i = 0; i < nbuf; ++i) put(raw, c->dt, i, junk);
    CHECK_EQ(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, nbuf * elem_size(c->dt), raw,
                                  0, NULL, NULL), CL_SUCCESS);
    CHECK_MSG(tl_ocl_image_to_buffer_ex(prog, queue, c->type, nd, c->dims, c->dt,
                                        img, buf, &attr) == TL_OK, "%s", name);
    read_buffer(buf, nbuf * elem_size(c->dt), raw);
    for (i = 0; i < nbuf; ++i) {
        float v = get(raw, c->dt, i);
        float e = i >= c->offset && i < c->offset + n ? vals[i - c->offset] : junk;
        CHECK_MSG(memcmp(&v, &e, sizeof v) == 0, "%s: to buffer: element %zu is %g, want %g%s",
                  name, i, v, e, i < c->offset + n ? "" : " (guard zone)");
    }
done:
    if (buf) clReleaseMemObject(buf);
    if (img) clReleaseMemObject(img);
    free(vals); free(want); free(got); free(raw);
}

static void check_all_types(void)
{
    /* Explicit work-group sizes, each rounding most global sizes up. Not
       {0, 0}: PoCL then compiles a kernel variant per global size, which
       costs seconds here (check_local_sizes covers the runtime's choice). */
    static const size_t locals[][2] = {{4, 4}, {7, 3}};
    static const cl_channel_type cts[2] = {CL_FLOAT, CL_HALF_FLOAT};
    static const tl_data_type dts[2] = {TL_F32, TL_F16};
    int t, s, a, b, count = 0;
    tl_dim d[4];
    for (t = 0; t < TL_OCL_BUFFER_TYPE_COUNT; ++t)
        for (s = 0; ref_dims((tl_ocl_buffer_type)t, s, d); ++s)
            for (a = 0; a < 4; ++a)
                for (b = 0; b < 2; ++b) {
                    ocl_case c;   /* a: float, half, then both as 1-D */
                    c.type = (tl_ocl_buffer_type)t;
                    c.dims = d;
                    c.ct = cts[a % 2];
                    c.image1d = a >= 2;
                    c.dt = dts[b];
                    c.offset = (size_t)(count % 3) * 5;
                    c.local[0] = locals[(count + count / 4) % 2][0];
                    c.local[1] = locals[(count + count / 4) % 2][1];
                    run_case(&c);
                    ++count;
                }
}

/* Padded global sizes change nothing: one shape under several work-group
   sizes, images compared with each other bit for bit. */
static void check_local_sizes(void)
{
    static const size_t locals[][2] = {{0, 0}, {1, 1}, {5, 2}, {8, 8}, {3, 7}};
    static const tl_dim dims[4] = {3, 7, 5, 6};   /* IN_OUT_HEIGHT: 30 x 6 */
    size_t w = 0, h = 0, i, k;
    float vals[630], first[720], img_out[720];
    cl_mem buf, img = NULL;
    for (i = 0; i < 630; ++i) vals[i] = ref_value((tl_dim)i);
    CHECK_EQ(tl_ocl_image_shape(TL_OCL_IN_OUT_HEIGHT, 4, dims, &w, &h), TL_OK);
    CHECK(w * h * 4 == 720);
    buf = make_buffer(sizeof vals, vals);
    CHECK_EQ(tl_ocl_image_create(&img, ctx, TL_OCL_IN_OUT_HEIGHT, 4, dims, CL_FLOAT), TL_OK);
    if (!buf || !img) return;
    for (k = 0; k < sizeof locals / sizeof locals[0]; ++k) {
        tl_ocl_enqueue_attr attr;
        memset(&attr, 0, sizeof attr);
        attr.local_size[0] = locals[k][0];
        attr.local_size[1] = locals[k][1];
        for (i = 0; i < 720; ++i) img_out[i] = junk;
        image_put(img, CL_FLOAT, w, h, img_out);
        CHECK_EQ(tl_ocl_buffer_to_image_ex(prog, queue, TL_OCL_IN_OUT_HEIGHT, 4, dims,
                                           TL_F32, buf, img, &attr), TL_OK);
        image_get(img, CL_FLOAT, w, h, k == 0 ? first : img_out);
        if (k > 0) CHECK_MSG(memcmp(first, img_out, sizeof first) == 0,
                             "local %zux%zu differs", locals[k][0], locals[k][1]);
    }
    CHECK_EQ(tl_ocl_pack_host(TL_OCL_IN_OUT_HEIGHT, 4, dims, vals, img_out), TL_OK);
    CHECK(memcmp(first, img_out, sizeof first) == 0);
    clReleaseMemObject(buf);
    clReleaseMemObject(img);
}

/* f32 values that are not halfs, into half images (2-D and 1-D): stored
   as tl_f32_to_f16 rounds them (nearest, ties to even), on any device. */
static void check_half_rounding(void)
{
    enum { N = 1024 };
    static const float edge[] = {
        65504.0f, 65519.0f, 65520.0f, -65520.0f, 1e6f, -0.0f, 0.0f,
        5.96e-8f, 2.9e-8f, 3.0e-8f, 6.1e-5f, 6.097e-5f, 1.0009765625f,
        1.00048828125f, 1.00146484375f, -2049.0f, 2051.0f, 1e-30f
    };
    float vals[N];
    uint16_t bits[N];
    tl_dim d[1] = {N};
    int i, one_d;
    tl_test_rng_state = 12345;
    for (i = 0; i < N; ++i) {
        uint32_t u = (uint32_t)tl_test_rand();
        float f;
        memcpy(&f, &u, sizeof f);
        /* random bit patterns over the half range and below, no NaN/inf */
        vals[i] = f != f || f > 1e5f || f < -1e5f ? (float)(i % 7) * 0.3f : f;
    }
    for (i = 0; i < (int)(sizeof edge / sizeof edge[0]); ++i) vals[i] = edge[i];
    for (one_d = 0; one_d < 2; ++one_d) {
        cl_mem buf = make_buffer(sizeof vals, vals), img = NULL;
        tl_status st = one_d ? tl_ocl_image1d_create(&img, ctx, TL_OCL_ARGUMENT, 1, d,
                                                     CL_HALF_FLOAT)
                             : tl_ocl_image_create(&img, ctx, TL_OCL_ARGUMENT, 1, d,
                                                   CL_HALF_FLOAT);
        CHECK_EQ(st, TL_OK);
        if (!buf || !img) return;
        CHECK_EQ(tl_ocl_buffer_to_image(prog, queue, TL_OCL_ARGUMENT, 1, d, TL_F32, buf,
                                        img), TL_OK);
        image_io(img, N / 4, 1, bits, 0);
        for (i = 0; i < N; ++i)
            CHECK_MSG(bits[i] == tl_f32_to_f16(vals[i]),
                      "%s: %.9g stored as 0x%04x, want 0x%04x", one_d ? "1-D" : "2-D",
                      vals[i], bits[i], tl_f32_to_f16(vals[i]));
        clReleaseMemObject(buf);
        clReleaseMemObject(img);
    }
}

/* ---- refusals: an error status and no byte of either object changed --- */

static void fill_junk(cl_mem buf, size_t nbuf, cl_mem img, size_t w, size_t h)
{
    float *tmp = (float *)malloc((nbuf > w * h * 4 ? nbuf : w * h * 4) * sizeof(float));
    size_t i;
    if (!tmp) return;
    for (i = 0; i < nbuf || i < w * h * 4; ++i) tmp[i] = junk;
    CHECK_EQ(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, nbuf * 4, tmp, 0, NULL, NULL),
             CL_SUCCESS);
    image_put(img, CL_FLOAT, w, h, tmp);
    free(tmp);
}

/* Both directions refuse with `want`; then buf (nbuf floats) and the
   float image img (w x h) still hold nothing but junk. */
static void expect_refusal(const char *what, tl_ocl_buffer_type t, int nd,
                           const tl_dim *d, tl_data_type dt, cl_mem buf,
                           size_t nbuf, cl_mem img, size_t w, size_t h,
                           const tl_ocl_enqueue_attr *attr, tl_status want)
{
    float *tmp = (float *)malloc((nbuf > w * h * 4 ? nbuf : w * h * 4) * sizeof(float));
    size_t i;
    tl_status st;
    if (!tmp) { CHECK(!"out of memory"); return; }
    fill_junk(buf, nbuf, img, w, h);
    st = tl_ocl_buffer_to_image_ex(prog, queue, t, nd, d, dt, buf, img, attr);
    CHECK_MSG(st == want, "%s: to image gave %s, want %s", what, tl_status_str(st),
              tl_status_str(want));
    st = tl_ocl_image_to_buffer_ex(prog, queue, t, nd, d, dt, img, buf, attr);
    CHECK_MSG(st == want, "%s: to buffer gave %s, want %s", what, tl_status_str(st),
              tl_status_str(want));
    CHECK_EQ(clFinish(queue), CL_SUCCESS);
    read_buffer(buf, nbuf * 4, tmp);
    for (i = 0; i < nbuf; ++i) CHECK_MSG(tmp[i] == junk, "%s: buffer written", what);
    image_get(img, CL_FLOAT, w, h, tmp);
    for (i = 0; i < w * h * 4; ++i) CHECK_MSG(tmp[i] == junk, "%s: image written", what);
    free(tmp);
}

/* 1-D image buffers: their own size check and device limit. */
static void check_refusals_1d(cl_mem buf, const tl_dim *too_wide_2d)
{
    tl_dim nhwc[4] = {1, 3, 5, 6};           /* 30 texels */
    tl_dim other[4] = {1, 3, 5, 9};          /* 45 texels */
    tl_dim huge[1];
    size_t maxbuf = 0;
    cl_mem img = NULL, big = NULL;
    float tmp[120];
    int i;
    CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof maxbuf, &maxbuf,
                             NULL), CL_SUCCESS);
    huge[0] = (tl_dim)maxbuf * 4 + 1;
    CHECK_EQ(tl_ocl_image1d_create(&img, ctx, TL_OCL_IN_OUT_CHANNEL, 4, nhwc, CL_FLOAT), TL_OK);
    if (!img) return;
    for (i = 0; i < 120; ++i) tmp[i] = junk;
    image_put(img, CL_FLOAT, 30, 1, tmp);
    CHECK_EQ(tl_ocl_buffer_to_image(prog, queue, TL_OCL_IN_OUT_CHANNEL, 4, other, TL_F32,
                                    buf, img), TL_SHAPE_MISMATCH);
    CHECK_EQ(tl_ocl_buffer_to_image(prog, queue, TL_OCL_ARGUMENT, 1, huge, TL_F32,
                                    buf, img), TL_DEVICE_LIMIT);
    CHECK_EQ(tl_ocl_image1d_create(&big, ctx, TL_OCL_ARGUMENT, 1, huge, CL_FLOAT),
             TL_DEVICE_LIMIT);
    CHECK(big == NULL);
    /* too wide for a 2-D image is fine in one row when the device allows it */
    if (maxbuf >= (size_t)(too_wide_2d[0] / 4 + 1) && maxbuf <= ((size_t)1 << 26)) {
        CHECK_EQ(tl_ocl_image1d_create(&big, ctx, TL_OCL_ARGUMENT, 1, too_wide_2d,
                                       CL_HALF_FLOAT), TL_OK);
        if (big) clReleaseMemObject(big);
    }
    clFinish(queue);
    image_get(img, CL_FLOAT, 30, 1, tmp);
    for (i = 0; i < 120; ++i) CHECK_MSG(tmp[i] == junk, "1-D refusal wrote the image");
    clReleaseMemObject(img);
}

static void check_refusals(void)
{
    tl_dim nhwc[4] = {1, 3, 5, 6};            /* IN_OUT_CHANNEL: 10 x 3 */
    tl_dim other[4] = {1, 3, 5, 9};          /* 15 x 3: wrong size */
    tl_dim dw2[4] = {2, 3, 2, 5};            /* multiplier 2 */
    tl_dim neg[4] = {1, -3, 5, 6};
    tl_dim wide[1];                          /* ARGUMENT one texel too wide */
    tl_dim tall[4];                          /* IN_OUT_CHANNEL one row too tall */
    size_t maxw = 0, maxh = 0, w = 10, h = 3;
    cl_mem buf, img = NULL, img_r = NULL, img_u8 = NULL, small;
    cl_image_format fmt;
    cl_image_desc desc;
    cl_int err;
    tl_ocl_enqueue_attr attr;
    float zeros[90] = {0};
    memset(&attr, 0, sizeof attr);

    CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof maxw, &maxw, NULL),
             CL_SUCCESS);
    CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof maxh, &maxh, NULL),
             CL_SUCCESS);
    wide[0] = (tl_dim)maxw * 4 + 1;
    tall[0] = 1; tall[1] = (tl_dim)maxh + 1; tall[2] = 1; tall[3] = 4;

    buf = make_buffer(sizeof zeros, zeros);
    CHECK_EQ(tl_ocl_image_create(&img, ctx, TL_OCL_IN_OUT_CHANNEL, 4, nhwc, CL_FLOAT), TL_OK);
    if (!buf || !img) return;

    /* the good call works, so the refusals below are about their one flaw */
    fill_junk(buf, 90, img, w, h);
    CHECK_EQ(tl_ocl_buffer_to_image(prog, queue, TL_OCL_IN_OUT_CHANNEL, 4, nhwc, TL_F32,
                                    buf, img), TL_OK);
    CHECK_EQ(tl_ocl_image_to_buffer(prog, queue, TL_OCL_IN_OUT_CHANNEL, 4, nhwc, TL_F32,
                                    img, buf), TL_OK);

    expect_refusal("multiplier 2", TL_OCL_DW_CONV2D_FILTER, 4, dw2, TL_F32, buf, 90, img,
                   w, h, NULL, TL_UNSUPPORTED);
    expect_refusal("negative dim", TL_OCL_IN_OUT_CHANNEL, 4, neg, TL_F32, buf, 90, img,
                   w, h, NULL, TL_INVALID_ARGUMENTS);
    expect_refusal("wider than the device", TL_OCL_ARGUMENT, 1, wide, TL_F32, buf, 90,
                   img, w, h, NULL, TL_DEVICE_LIMIT);
    expect_refusal("taller than the device", TL_OCL_IN_OUT_CHANNEL, 4, tall, TL_F32, buf,
                   90, img, w, h, NULL, TL_DEVICE_LIMIT);
    expect_refusal("image of another size", TL_OCL_IN_OUT_CHANNEL, 4, other, TL_F32, buf,
                   90, img, w, h, NULL, TL_SHAPE_MISMATCH);
    expect_refusal("wrong ndims", TL_OCL_IN_OUT_CHANNEL, 3, nhwc, TL_F32, buf, 90, img,
                   w, h, NULL, TL_INVALID_ARGUMENTS);
    expect_refusal("bf16 buffer", TL_OCL_IN_OUT_CHANNEL, 4, nhwc, TL_BF16, buf, 90, img,
                   w, h, NULL, TL_UNSUPPORTED);
    attr.buffer_offset = 1;   /* 90 + 1 floats > the buffer */
    expect_refusal("buffer too small", TL_OCL_IN_OUT_CHANNEL, 4, nhwc, TL_F32, buf, 90,
                   img, w, h, &attr, TL_BUFFER_TOO_SMALL);
    attr.buffer_offset = (size_t)1 << 31;
    expect_refusal("offset past INT_MAX", TL_OCL_IN_OUT_CHANNEL, 4, nhwc, TL_F32, buf, 90,
                   img, w, h, &attr, TL_DEVICE_LIMIT);
    CHECK_EQ(tl_ocl_image_fits_device(dev, TL_OCL_ARGUMENT, 1, wide), TL_DEVICE_LIMIT);
    CHECK_EQ(tl_ocl_image_fits_device(dev, TL_OCL_IN_OUT_CHANNEL, 4, tall), TL_DEVICE_LIMIT);
    CHECK_EQ(tl_ocl_image_fits_device(dev, TL_OCL_IN_OUT_CHANNEL, 4, nhwc), TL_OK);

    /* images of the right size but the wrong format */
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = w;
    desc.image_height = h;
    fmt.image_channel_order = CL_R;
    fmt.image_channel_data_type = CL_FLOAT;
    img_r = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    fmt.image_channel_order = CL_RGBA;
    fmt.image_channel_data_type = CL_UNORM_INT8;
    img_u8 = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
    CHECK_EQ(err, CL_SUCCESS);
    if (img_r)
        CHECK_EQ(tl_ocl_buffer_to_image(prog, queue, TL_OCL_IN_OUT_CHANNEL, 4, nhwc,
                                        TL_F32, buf, img_r), TL_UNSUPPORTED);
    if (img_u8)
        CHECK_EQ(tl_ocl_image_to_buffer(prog, queue, TL_OCL_IN_OUT_CHANNEL, 4, nhwc,
                                        TL_F32, img_u8, buf), TL_UNSUPPORTED);
    /* a buffer where the image belongs, and the other way round */
    CHECK_EQ(tl_ocl_buffer_to_image(prog, queue, TL_OCL_IN_OUT_CHANNEL, 4, nhwc, TL_F32,
                                    buf, buf), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_ocl_image_to_buffer(prog, queue, TL_OCL_IN_OUT_CHANNEL, 4, nhwc, TL_F32,
                                    img, img), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_ocl_image_create(&small, ctx, TL_OCL_ARGUMENT, 1, wide, CL_FLOAT),
             TL_DEVICE_LIMIT);
    CHECK_EQ(tl_ocl_image_create(&small, ctx, TL_OCL_IN_OUT_CHANNEL, 4, nhwc,
                                 CL_UNORM_INT8), TL_UNSUPPORTED);
    CHECK_EQ(tl_ocl_buffer_to_image(NULL, queue, TL_OCL_IN_OUT_CHANNEL, 4, nhwc, TL_F32,
                                    buf, img), TL_INVALID_ARGUMENTS);
    check_refusals_1d(buf, wide);
    if (img_r) clReleaseMemObject(img_r);
    if (img_u8) clReleaseMemObject(img_u8);
    clReleaseMemObject(buf);
    clReleaseMemObject(img);
}

/* The header's quick start, compiled and run as written there. */
static int quick_start(cl_mem buf)
{
    cl_context ctx_ = ctx;
    cl_device_id dev_ = dev;
    cl_command_queue queue_ = queue;
#define ctx ctx_
#define dev dev_
#define queue queue_
    tl_dim dims[4] = {1, 5, 7, 6};                   /* NHWC */
    tl_ocl_program *prog = NULL;
    cl_mem img = NULL;
    tl_status st = tl_ocl_program_create(&prog, ctx, dev, NULL);
    if (!st) st = tl_ocl_image_create(&img, ctx, TL_OCL_IN_OUT_CHANNEL,
                                      4, dims, CL_HALF_FLOAT);
    if (!st) st = tl_ocl_buffer_to_image(prog, queue, TL_OCL_IN_OUT_CHANNEL,
                                         4, dims, TL_F32, buf, img);
    if (st) fprintf(stderr, "tl: %s\n", tl_status_str(st));
#undef ctx
#undef dev
#undef queue
    if (img) clReleaseMemObject(img);
    clFinish(queue);
    tl_ocl_program_release(prog);
    return st == TL_OK;
}

/* The first device with image support, on any platform. */
static int pick_device(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0, p;
    for (p = 0; clGetPlatformIDs(8, plats, &np) == CL_SUCCESS && p < np && p < 8; ++p) {
        cl_device_id devs[8];
        cl_uint nd = 0, k;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 8, devs, &nd) != CL_SUCCESS)
            continue;
        for (k = 0; k < nd && k < 8; ++k) {
            cl_bool images = CL_FALSE;
            clGetDeviceInfo(devs[k], CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
            if (images) { dev = devs[k]; return 1; }
        }
    }
    return 0;
}

int main(void)
{
    cl_uint np = 0;
    cl_int err;
    float data[210] = {0};
    cl_mem qs;
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) {
        printf("ocl: no OpenCL platform, skipped\n");
        return 77;
    }
    if (!pick_device()) {
        fprintf(stderr, "ocl: platforms exist but no device with image support\n");
        return 1;
    }
    {   /* which device the log's results are from */
        char name[256] = "?";
        clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
        printf("ocl: device %s\n", name);
    }
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err != CL_SUCCESS) { fprintf(stderr, "clCreateContext: %d\n", err); return 1; }
    queue = clCreateCommandQueue(ctx, dev, 0, &err);
    if (err != CL_SUCCESS) { fprintf(stderr, "clCreateCommandQueue: %d\n", err); return 1; }
    /* built once: PoCL compiles kernels slowly */
    if (tl_ocl_program_create(&prog, ctx, dev, NULL) != TL_OK) {
        fprintf(stderr, "tl_ocl_program_create failed\n");
        return 1;
    }
    check_all_types();
    check_local_sizes();
    check_half_rounding();
    check_refusals();
    qs = make_buffer(sizeof data, data);
    if (qs) {
        CHECK(quick_start(qs));
        clReleaseMemObject(qs);
    }
    tl_ocl_program_release(prog);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return tl_test_result("ocl");
}
