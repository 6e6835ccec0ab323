/* tensorlayout_ocl.h - v0.1 - tensors in OpenCL 2-D RGBA images (MACE layouts)
   C99 and C++. License: MIT, see the end of tensorlayout.h.

   In exactly ONE .c or .cpp file, before the include:
       #define TENSORLAYOUT_IMPLEMENTATION
   Include tensorlayout_simd.h, if you use it, before this header (this one
   includes tensorlayout.h, which must learn about the SIMD kernels first).
   Link with the OpenCL ICD loader (-lOpenCL); needs OpenCL 1.2 headers.

   Options (define before the include that creates the implementation;
   TL_OCL_HOST_ONLY before every include):
       TL_OCL_HOST_ONLY      only the host functions (image shapes, the CPU
                             pack/unpack reference, tl_ocl_image_fits): no
                             <CL/cl.h>, no OpenCL library, no device
       CL_TARGET_OPENCL_VERSION   default 120 (the API this file uses)
       and those of tensorlayout.h: TENSORLAYOUT_STATIC, TL_ASSERT,
       TL_MALLOC(sz,ctx) / TL_FREE(p,ctx)

   Quick start (must compile; a test copies it):
       tl_dim dims[4] = {1, 5, 7, 6};                   // NHWC
       tl_ocl_program *prog = NULL;
       cl_mem img = NULL;
       tl_status st = tl_ocl_program_create(&prog, ctx, dev, NULL);
       if (!st) st = tl_ocl_image_create(&img, ctx, TL_OCL_IN_OUT_CHANNEL,
                                         4, dims, CL_HALF_FLOAT);
       if (!st) st = tl_ocl_buffer_to_image(prog, queue, TL_OCL_IN_OUT_CHANNEL,
                                            4, dims, TL_F32, buf, img);
       if (st) fprintf(stderr, "tl: %s\n", tl_status_str(st));

   The mapping of every buffer type (docs/gpu-images.md has pictures),
   with q(v) = ceil(v/4) and lane = the RGBA channel of the texel:

     type              dims  image [width, height]  x, y, lane
     IN_OUT_CHANNEL    NHWC  [q(C)*W, N*H]    (c/4)*W+w, n*H+h, c%4
     IN_OUT_HEIGHT     NHWC  [W*C, N*q(H)]    c*W+w, n*q(H)+h/4, h%4
     IN_OUT_WIDTH      NHWC  [q(W)*C, N*H]    c*q(W)+w/4, n*H+h, w%4
     CONV2D_FILTER     OIHW  [I, q(O)*H*W]    i, (o/4)*H*W+h*W+w, o%4
     DW_CONV2D_FILTER  MIHW  [H*W*M, q(I)]    h*W+w, i/4, i%4 (M must be 1)
     ARGUMENT          W     [q(W), 1]        w/4, 0, w%4
     WEIGHT_HEIGHT     OIHW  [I*H*W, q(O)]    (h*W+w)*I+i, o/4, o%4
     WEIGHT_WIDTH      OIHW  [q(I)*H*W, O]    (h*W+w)*q(I)+i/4, o, i%4
     IN_OUT_*_NCHW     NCHW  the image of the IN_OUT_* type, from an NCHW
                             buffer (beyond MACE)

   Lanes past the tensor's end are zero in the image and never written to
   the buffer. Every dim must be >= 1 (an image cannot be empty). Besides
   2-D images, every call takes a 1-D image buffer holding the same texels
   row after row (tl_ocl_image1d_create; beyond MACE, for tensors wider
   than a 2-D image may be).

   Threads: every function is reentrant. A tl_ocl_program may be used from
   several threads at once: each call makes its own cl_kernel.

   Reference: docs/gpu-images.md
*/
#ifndef TENSORLAYOUT_OCL_H
#define TENSORLAYOUT_OCL_H

#include "tensorlayout.h"

#ifndef TL_OCL_HOST_ONLY
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#if defined(__APPLE__)
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* How a tensor is laid out in the image; see the table above. The first
   eight are MACE's and keep its order (IN_OUT_CHANNEL, its default, is 0). */
typedef enum {
    TL_OCL_IN_OUT_CHANNEL,      /* NHWC, channels in lanes */
    TL_OCL_IN_OUT_HEIGHT,       /* NHWC, rows in lanes (Winograd, MatMul) */
    TL_OCL_IN_OUT_WIDTH,        /* NHWC, columns in lanes */
    TL_OCL_CONV2D_FILTER,       /* OIHW, output channels in lanes */
    TL_OCL_DW_CONV2D_FILTER,    /* MIHW with M = 1, input channels in lanes */
    TL_OCL_ARGUMENT,            /* W (bias, scale), four per texel */
    TL_OCL_WEIGHT_HEIGHT,       /* OIHW, output channels in lanes */
    TL_OCL_WEIGHT_WIDTH,        /* OIHW, input channels in lanes */
    TL_OCL_IN_OUT_CHANNEL_NCHW, /* NCHW buffer, IN_OUT_CHANNEL image */
    TL_OCL_IN_OUT_HEIGHT_NCHW,  /* NCHW buffer, IN_OUT_HEIGHT image */
    TL_OCL_IN_OUT_WIDTH_NCHW,   /* NCHW buffer, IN_OUT_WIDTH image */
    TL_OCL_BUFFER_TYPE_COUNT
} tl_ocl_buffer_type;

/* "IN_OUT_CHANNEL", ..., "IN_OUT_WIDTH_NCHW"; "unknown" otherwise. */
TL_API const char *tl_ocl_buffer_type_name(tl_ocl_buffer_type type);

/* The image size, in texels, of a tensor of `type` with dims (4 dims, or
   1 for ARGUMENT; each >= 1). TL_INVALID_ARGUMENTS for a wrong ndims, a dim
   < 1 or a NULL pointer; TL_UNSUPPORTED for a depthwise multiplier M > 1;
   TL_OVERFLOW when a size does not fit in int64 or size_t. *width and
   *height are written only on success. */
TL_API tl_status tl_ocl_image_shape(tl_ocl_buffer_type type, int ndims,
                                    const tl_dim *dims, size_t *width,
                                    size_t *height);

/* TL_OK when the image of (type, dims) is at most max_width x max_height
   texels (a device's CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT), TL_DEVICE_LIMIT
   when it is larger, else the errors of tl_ocl_image_shape. Host only. */
TL_API tl_status tl_ocl_image_fits(tl_ocl_buffer_type type, int ndims,
                                   const tl_dim *dims, size_t max_width,
                                   size_t max_height);

/* The CPU reference. pack: `buffer` holds the tensor's elements densely in
   the type's dims order; `image` receives width*height RGBA texels, row
   by row, four floats each, padding lanes 0. unpack: the inverse, writing
   every element of `buffer` and reading no padding lane. Errors as
   tl_ocl_image_shape (NULL pointers: TL_INVALID_ARGUMENTS); nothing is
   written on error. */
TL_API tl_status tl_ocl_pack_host(tl_ocl_buffer_type type, int ndims,
                                  const tl_dim *dims, const float *buffer,
                                  float *image);
TL_API tl_status tl_ocl_unpack_host(tl_ocl_buffer_type type, int ndims,
                                    const tl_dim *dims, const float *image,
                                    float *buffer);

/* The embedded .cl sources of kernels/, one string per source line,
   *nlines of them (nlines may be NULL). Static storage; ready for
   clCreateProgramWithSource. */
TL_API const char *const *tl_ocl_kernel_source(size_t *nlines);

#ifndef TL_OCL_HOST_ONLY

/* The built kernels for one device. Opaque; owned by the library. */
typedef struct tl_ocl_program tl_ocl_program;

/* Builds the embedded kernels for dev in ctx (build_options may be NULL)
   and stores a new program in *out (released with tl_ocl_program_release).
   TL_UNSUPPORTED when dev has no image support, TL_DEVICE_ERROR when an
   OpenCL call (the build included) fails, TL_OUT_OF_MEMORY; *out is
   written only on success. The build log is the OpenCL one: build the
   tl_ocl_kernel_source() lines yourself to read it. */
TL_API tl_status tl_ocl_program_create(tl_ocl_program **out, cl_context ctx,
                                       cl_device_id dev,
                                       const char *build_options);
/* Frees p and its cl_program; NULL is fine. */
TL_API void tl_ocl_program_release(tl_ocl_program *p);

/* Like tl_ocl_image_fits, with dev's limits. TL_UNSUPPORTED when dev has
   no image support, TL_DEVICE_ERROR when the query fails. */
TL_API tl_status tl_ocl_image_fits_device(cl_device_id dev,
                                          tl_ocl_buffer_type type, int ndims,
                                          const tl_dim *dims);

/* Creates a 2-D CL_RGBA image of the shape of (type, dims), with channel
   type CL_FLOAT or CL_HALF_FLOAT and flags CL_MEM_READ_WRITE. The caller
   releases *out. TL_DEVICE_LIMIT when a device of ctx cannot hold it,
   TL_UNSUPPORTED for another channel type or a device without images,
   TL_DEVICE_ERROR when an OpenCL call fails. */
TL_API tl_status tl_ocl_image_create(cl_mem *out, cl_context ctx,
                                     tl_ocl_buffer_type type, int ndims,
                                     const tl_dim *dims,
                                     cl_channel_type channel_type);

/* The same for a 1-D image buffer (CL_MEM_OBJECT_IMAGE1D_BUFFER, OpenCL
   1.2) over a new buffer: the 2-D image's texels, row after row, so texel
   (x, y) is texel y*width + x. Its limit is the device's
   CL_DEVICE_IMAGE_MAX_BUFFER_SIZE (often far above the 2-D width), so long
   tensors (biases, big fully-connected weights) fit. Beyond MACE. */
TL_API tl_status tl_ocl_image1d_create(cl_mem *out, cl_context ctx,
                                       tl_ocl_buffer_type type, int ndims,
                                       const tl_dim *dims,
                                       cl_channel_type channel_type);

typedef struct {                   /* zero-initialised = defaults */
    size_t buffer_offset;          /* elements before element 0 in the
                                      buffer; 0: the tensor starts it */
    size_t local_size[2];          /* work-group size; [0] == 0: the runtime
                                      picks. The global size is rounded up to
                                      a multiple; extra work-items do nothing */
    cl_uint num_events_in_wait_list;   /* 0: wait for nothing */
    const cl_event *event_wait_list;   /* NULL when the count is 0 */
    cl_event *event;               /* NULL: none; else the kernel's event,
                                      released by the caller */
} tl_ocl_enqueue_attr;

/* Enqueues the copy of a tensor between a buffer and an image on q (whose
   device must be the program's). buffer_dt is TL_F32 or TL_F16 (IEEE
   half bits; needs no cl_khr_fp16); the image must be a 2-D CL_RGBA image
   of exactly tl_ocl_image_shape's size, or a 1-D image buffer of
   width*height texels (tl_ocl_image1d_create), channel type CL_FLOAT or
   CL_HALF_FLOAT (read from the image). buffer_to_image writes every texel,
   padding lanes as 0; image_to_buffer writes exactly the tensor's
   elements. The calls return once the kernel is enqueued.
   Errors (nothing enqueued): TL_INVALID_ARGUMENTS (NULL, wrong ndims, dim
   < 1, a queue of another device, a read-only destination),
   TL_UNSUPPORTED (multiplier M > 1, buffer_dt not f32/f16, image not RGBA
   float/half, a 1-D image where OpenCL C 1.2 is missing), TL_OVERFLOW,
   TL_DEVICE_LIMIT (image larger than the device allows, or offsets past
   INT_MAX), TL_SHAPE_MISMATCH (image size), TL_BUFFER_TOO_SMALL
   (CL_MEM_SIZE below (buffer_offset + elements) * element size),
   TL_DEVICE_ERROR (an OpenCL call failed). attr may be NULL. */
TL_API tl_status tl_ocl_buffer_to_image(tl_ocl_program *p, cl_command_queue q,
                                        tl_ocl_buffer_type type, int ndims,
                                        const tl_dim *dims,
                                        tl_data_type buffer_dt, cl_mem buffer,
                                        cl_mem image);
TL_API tl_status tl_ocl_image_to_buffer(tl_ocl_program *p, cl_command_queue q,
                                        tl_ocl_buffer_type type, int ndims,
                                        const tl_dim *dims,
                                        tl_data_type buffer_dt, cl_mem image,
                                        cl_mem buffer);
TL_API tl_status tl_ocl_buffer_to_image_ex(tl_ocl_program *p,
                                           cl_command_queue q,
                                           tl_ocl_buffer_type type, int ndims,
                                           const tl_dim *dims,
                                           tl_data_type buffer_dt,
                                           cl_mem buffer, cl_mem image,
                                           const tl_ocl_enqueue_attr *attr);
TL_API tl_status tl_ocl_image_to_buffer_ex(tl_ocl_program *p,
                                           cl_command_queue q,
                                           tl_ocl_buffer_type type, int ndims,
                                           const tl_dim *dims,
                                           tl_data_type buffer_dt,
                                           cl_mem image, cl_mem buffer,
                                           const tl_ocl_enqueue_attr *attr);

#endif /* TL_OCL_HOST_ONLY */

#ifdef __cplusplus
}
#endif
#endif /* TENSORLAYOUT_OCL_H */

/* ---- implementation below; stop here if you only want the API ---- */
#ifdef TENSORLAYOUT_IMPLEMENTATION
#ifndef TL__OCL_IMPLEMENTATION_DONE
#define TL__OCL_IMPLEMENTATION_DONE

#include <limits.h>
#include <string.h>

/* ---- the mapping ----------------------------------------------------- */

/* Every type reduces to one description, interpreted identically by the
   CPU reference below and by the kernels in kernels/image.cl:
   texel x splits into c0 = x / div_x, c1 = x % div_x, y into
   c2 = y / div_y, c3 = y % div_y; c[blocked] counts groups of four along a
   dim of `extent` elements (lane k: element 4*c[blocked] + k, zero past
   extent); the buffer offset is sum c[j]*stride[j] (stride[blocked] = 0)
   plus (4*c[blocked] + k) * lane_stride. */
typedef struct {
    tl_dim width, height;     /* image, texels */
    tl_dim div_x, div_y;
    tl_dim stride[4];         /* elements, per coordinate c0..c3 */
    int    blocked;           /* 0..3 */
    tl_dim extent;            /* elements along the blocked dim */
    tl_dim lane_stride;       /* elements between neighbouring lanes */
    tl_dim nelems;            /* tensor elements */
} tl__ocl_map;

static tl_dim tl__ocl_q(tl_dim v) { return v / 4 + (v % 4 != 0); }

/* One row of the table in docs/gpu-images.md. */
static void tl__ocl_map_set(tl__ocl_map *m, tl_dim width, tl_dim height,
                            tl_dim div_x, tl_dim div_y,
                            tl_dim s0, tl_dim s1, tl_dim s2, tl_dim s3,
                            int blocked, tl_dim extent, tl_dim lane_stride)
{
    m->width = width; m->height = height;
    m->div_x = div_x; m->div_y = div_y;
    m->stride[0] = s0; m->stride[1] = s1; m->stride[2] = s2; m->stride[3] = s3;
    m->blocked = blocked; m->extent = extent; m->lane_stride = lane_stride;
}

/* Activations: d holds the logical n, c, h, w; s their buffer strides
   (NHWC or NCHW). */
static void tl__ocl_map_activation(tl__ocl_map *m, tl_ocl_buffer_type type,
                                   const tl_dim *d, const tl_dim *s)
{
    tl_dim n = d[0], c = d[1], h = d[2], w = d[3];
    switch (type) {
    case TL_OCL_IN_OUT_CHANNEL: case TL_OCL_IN_OUT_CHANNEL_NCHW:
        /* x = (c/4)*W + w, y = n*H + h, lane c%4 */
        tl__ocl_map_set(m, tl__ocl_q(c) * w, n * h, w, h,
                        0, s[3], s[0], s[2], 0, c, s[1]);
        break;
    case TL_OCL_IN_OUT_HEIGHT: case TL_OCL_IN_OUT_HEIGHT_NCHW:
        /* x = c*W + w, y = n*q(H) + h/4, lane h%4 */
        tl__ocl_map_set(m, w * c, n * tl__ocl_q(h), w, tl__ocl_q(h),
                        s[1], s[3], s[0], 0, 3, h, s[2]);
        break;
    default: /* TL_OCL_IN_OUT_WIDTH(_NCHW): x = c*q(W) + w/4, y = n*H + h */
        tl__ocl_map_set(m, tl__ocl_q(w) * c, n * h, tl__ocl_q(w), h,
                        s[1], 0, s[0], s[2], 1, w, s[3]);
        break;
    }
}

/* Filters: d holds O, I, H, W (M, I, H, W for depthwise, M = 1); the
   buffer is dense in that order, so h*W + w is one coordinate of stride 1
   and i has stride H*W. */
static void tl__ocl_map_filter(tl__ocl_map *m, tl_ocl_buffer_type type,
                               const tl_dim *d)
{
    tl_dim o = d[0], i = d[1], hw = d[2] * d[3];
    switch (type) {
    case TL_OCL_CONV2D_FILTER:      /* x = i, y = (o/4)*H*W + h*W + w */
        tl__ocl_map_set(m, i, tl__ocl_q(o) * hw, i, hw,
                        0, hw, 0, 1, 2, o, i * hw);
        break;
    case TL_OCL_DW_CONV2D_FILTER:   /* x = h*W + w, y = i/4 */
        tl__ocl_map_set(m, hw, tl__ocl_q(i), hw, tl__ocl_q(i),
                        0, 1, 0, 0, 3, i, hw);
        break;
    case TL_OCL_WEIGHT_HEIGHT:      /* x = (h*W + w)*I + i, y = o/4 */
        tl__ocl_map_set(m, hw * i, tl__ocl_q(o), i, tl__ocl_q(o),
                        1, hw, 0, 0, 3, o, i * hw);
        break;
    default:   /* TL_OCL_WEIGHT_WIDTH: x = (h*W + w)*q(I) + i/4, y = o */
        tl__ocl_map_set(m, hw * tl__ocl_q(i), o, tl__ocl_q(i), o,
                        1, 0, 0, i * hw, 1, i, hw);
        break;
    }
}

static int tl__ocl_is_activation(tl_ocl_buffer_type type)
{
    return type <= TL_OCL_IN_OUT_WIDTH || type >= TL_OCL_IN_OUT_CHANNEL_NCHW;
}

/* Checks type and dims and fills *m. Once the element count fits, so does
   every product of some of the dims, and since q(v) <= v so do the image
   width and height; only width*height*4 (floats of the CPU image) can
   overflow beyond that. */
static tl_status tl__ocl_map_init(tl__ocl_map *m, tl_ocl_buffer_type type,
                                  int ndims, const tl_dim *dims)
{
    int d;
    tl_dim n = 1, texels, floats;
    if (!dims || (int)type < 0 || type >= TL_OCL_BUFFER_TYPE_COUNT ||
        ndims != (type == TL_OCL_ARGUMENT ? 1 : 4))
        return TL_INVALID_ARGUMENTS;
    for (d = 0; d < ndims; ++d)
        if (dims[d] < 1) return TL_INVALID_ARGUMENTS;
    for (d = 0; d < ndims; ++d)
        if (tl__mul_overflows(n, dims[d], &n)) return TL_OVERFLOW;
    if (type == TL_OCL_DW_CONV2D_FILTER && dims[0] != 1)
        return TL_UNSUPPORTED;   /* the layout has room for M = 1 only */

    m->nelems = n;
    if (type == TL_OCL_ARGUMENT) {   /* x = w/4, y = 0, lane w%4 */
        tl__ocl_map_set(m, tl__ocl_q(n), 1, tl__ocl_q(n), 1,
                        0, 0, 0, 0, 1, n, 1);
    } else if (tl__ocl_is_activation(type)) {
        tl_dim nchw[4], s[4];   /* logical n, c, h, w and their strides */
        int nhwc = type <= TL_OCL_IN_OUT_WIDTH;
        nchw[0] = dims[0];
        nchw[1] = nhwc ? dims[3] : dims[1];
        nchw[2] = nhwc ? dims[1] : dims[2];
        nchw[3] = nhwc ? dims[2] : dims[3];
        s[0] = n / nchw[0];
        s[1] = nhwc ? 1 : nchw[2] * nchw[3];
        s[2] = nhwc ? nchw[3] * nchw[1] : nchw[3];
        s[3] = nhwc ? nchw[1] : 1;
        tl__ocl_map_activation(m, type, nchw, s);
    } else {
        tl__ocl_map_filter(m, type, dims);
    }
    if (tl__mul_overflows(m->width, m->height, &texels) ||
        tl__mul_overflows(texels, 4, &floats) ||
        (uint64_t)floats > (uint64_t)(SIZE_MAX / sizeof(float)))
        return TL_OVERFLOW;
    return TL_OK;
}

/* Buffer offsets of the lanes of texel (x, y); -1 for a padding lane.
   The same arithmetic as tl_lanes in kernels/image.cl. */
static void tl__ocl_lanes(const tl__ocl_map *m, tl_dim x, tl_dim y,
                          tl_dim off[4])
{
    tl_dim c[4], base = 0, first;
    int j, k;
    c[0] = x / m->div_x; c[1] = x % m->div_x;
    c[2] = y / m->div_y; c[3] = y % m->div_y;
    for (j = 0; j < 4; ++j) base += c[j] * m->stride[j];
    first = 4 * c[m->blocked];
    for (k = 0; k < 4; ++k)
        off[k] = first + k < m->extent ? base + (first + k) * m->lane_stride : -1;
}

/* ---- host API -------------------------------------------------------- */

TL_API const char *tl_ocl_buffer_type_name(tl_ocl_buffer_type type)
{
    static const char *const names[TL_OCL_BUFFER_TYPE_COUNT] = {
        "IN_OUT_CHANNEL", "IN_OUT_HEIGHT", "IN_OUT_WIDTH", "CONV2D_FILTER",
        "DW_CONV2D_FILTER", "ARGUMENT", "WEIGHT_HEIGHT", "WEIGHT_WIDTH",
        "IN_OUT_CHANNEL_NCHW", "IN_OUT_HEIGHT_NCHW", "IN_OUT_WIDTH_NCHW"
    };
    if ((int)type < 0 || type >= TL_OCL_BUFFER_TYPE_COUNT) return "unknown";
    return names[type];
}

TL_API tl_status tl_ocl_image_shape(tl_ocl_buffer_type type, int ndims,
                                    const tl_dim *dims, size_t *width,
                                    size_t *height)
{
    tl__ocl_map m;
    tl_status st;
    if (!width || !height) return TL_INVALID_ARGUMENTS;
    st = tl__ocl_map_init(&m, type, ndims, dims);
    if (st) return st;
    *width = (size_t)m.width;
    *height = (size_t)m.height;
    return TL_OK;
}

TL_API tl_status tl_ocl_image_fits(tl_ocl_buffer_type type, int ndims,
                                   const tl_dim *dims, size_t max_width,
                                   size_t max_height)
{
    tl__ocl_map m;
    tl_status st = tl__ocl_map_init(&m, type, ndims, dims);
    if (st) return st;
    if ((uint64_t)m.width > (uint64_t)max_width ||
        (uint64_t)m.height > (uint64_t)max_height)
        return TL_DEVICE_LIMIT;
    return TL_OK;
}

/* Walks every texel of the image; to_image picks the direction. Lanes
   with no element (off < 0) become 0 in the image and are skipped on the
   way back, so the buffer is never touched past its end. */
static tl_status tl__ocl_host_copy(tl_ocl_buffer_type type, int ndims,
                                   const tl_dim *dims, float *buffer,
                                   float *image, int to_image)
{
    tl__ocl_map m;
    tl_dim x, y, off[4];
    int k;
    tl_status st = tl__ocl_map_init(&m, type, ndims, dims);
    if (st) return st;
    if (!buffer || !image) return TL_INVALID_ARGUMENTS;
    for (y = 0; y < m.height; ++y) {
        for (x = 0; x < m.width; ++x) {
            float *texel = image + (size_t)(y * m.width + x) * 4;
            tl__ocl_lanes(&m, x, y, off);
            for (k = 0; k < 4; ++k) {
                if (to_image) texel[k] = off[k] < 0 ? 0.0f : buffer[off[k]];
                else if (off[k] >= 0) buffer[off[k]] = texel[k];
            }
        }
    }
    return TL_OK;
}

/* The casts drop const only for the shared walker, which writes solely
   through the side that to_image names. */
TL_API tl_status tl_ocl_pack_host(tl_ocl_buffer_type type, int ndims,
                                  const tl_dim *dims, const float *buffer,
                                  float *image)
{
    return tl__ocl_host_copy(type, ndims, dims, (float *)(uintptr_t)buffer, image, 1);
}

TL_API tl_status tl_ocl_unpack_host(tl_ocl_buffer_type type, int ndims,
                                    const tl_dim *dims, const float *image,
                                    float *buffer)
{
    return tl__ocl_host_copy(type, ndims, dims, buffer, (float *)(uintptr_t)image, 0);
}

/* ---- BEGIN generated kernel sources ---- */
// GENERATED from kernels/*.cl by tools/embed_cl.py. DO NOT EDIT.
// Regenerate: meson compile -C build embed-cl
static const char *const tl__ocl_source_lines[] = {
    /* kernels/image.cl */
    "/* tensorlayout: tensors <-> OpenCL 2-D RGBA images (MACE's layouts).\n",
    "\n",
    "   One set of kernels serves all buffer types. The host (tensorlayout_ocl.h,\n",
    "   tl__ocl_map_init) reduces each type to the same description:\n",
    "     - texel x splits into x / div_x and x % div_x, y into y / div_y and\n",
    "       y % div_y: four coordinates c0..c3;\n",
    "     - one of them, `blocked`, counts groups of four along a tensor dim of\n",
    "       `extent` elements: lane k holds element 4*c[blocked] + k, and lanes\n",
    "       at or past `extent` are zero;\n",
    "     - the buffer offset of lane k is buf_off + sum c[j]*stride[j] (the\n",
    "       blocked coordinate has stride 0) + (4*c[blocked] + k) * lane_stride.\n",
    "   The table that fills these numbers is in docs/gpu-images.md.\n",
    "\n",
    "   Arithmetic is plain int: the host refuses tensors whose last element\n",
    "   (offset included) does not fit, so no product here can overflow, and\n",
    "   mul24/mad24 (defined only for operands that fit in 24 bits) are never\n",
    "   used.\n",
    "\n",
    "   Half buffers use vload_half/vstore_half, which are core OpenCL C and do\n",
    "   not need cl_khr_fp16, so there is no fp16 pragma: the program builds, and\n",
    "   f16 buffers work, on every device with image support. vstore_half rounds\n",
    "   to nearest even, as tl_f32_to_f16 on the host does.\n",
    "\n",
    "   The global size may be padded past the image (to a work-group multiple):\n",
    "   every kernel compares its id with the true width and height first. */\n",
    "\n",
    "__constant sampler_t tl_sampler =\n",
    "    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;\n",
    "\n",
    "/* Buffer offset of lane k of a texel, or -1 past the end of the blocked\n",
    "   dim. `first` is the blocked dim's index of lane 0. */\n",
    "int tl_lane(int base, int first, int k, int extent, int lane_stride)\n",
    "{\n",
    "    return first + k < extent ? base + (first + k) * lane_stride : -1;\n",
    "}\n",
    "\n",
    "/* Buffer offsets of the four lanes of texel (x, y); -1 marks a lane that\n",
    "   holds no element. */\n",
    "int4 tl_lanes(int x, int y, int buf_off, int div_x, int div_y, int4 stride,\n",
    "              int blocked, int extent, int lane_stride)\n",
    "{\n",
    "    int c0 = x / div_x, c1 = x % div_x, c2 = y / div_y, c3 = y % div_y;\n",
    "    int cb = blocked == 0 ? c0 : blocked == 1 ? c1 : blocked == 2 ? c2 : c3;\n",
    "    int base = buf_off + c0 * stride.s0 + c1 * stride.s1 + c2 * stride.s2 +\n",
    "               c3 * stride.s3;\n",
    "    int first = 4 * cb;\n",
    "    return (int4)(tl_lane(base, first, 0, extent, lane_stride),\n",
    "                  tl_lane(base, first, 1, extent, lane_stride),\n",
    "                  tl_lane(base, first, 2, extent, lane_stride),\n",
    "                  tl_lane(base, first, 3, extent, lane_stride));\n",
    "}\n",
    "\n",
    "float tl_load_f32(__global const float *buf, int i)\n",
    "{\n",
    "    return i < 0 ? 0.0f : buf[i];\n",
    "}\n",
    "\n",
    "float tl_load_f16(__global const half *buf, int i)\n",
    "{\n",
    "    return i < 0 ? 0.0f : vload_half((size_t)i, buf);\n",
    "}\n",
    "\n",
    "void tl_store_f32(float v, __global float *buf, int i)\n",
    "{\n",
    "    if (i >= 0) buf[i] = v;\n",
    "}\n",
    "\n",
    "void tl_store_f16(float v, __global half *buf, int i)\n",
    "{\n",
    "    if (i >= 0) vstore_half(v, (size_t)i, buf);\n",
    "}\n",
    "\n",
    "/* v rounded to the nearest half (ties to even), as a float. The spec lets\n",
    "   a write to a CL_HALF_FLOAT image round to nearest even or toward zero;\n",
    "   a value that is already a half is stored exactly either way, so every\n",
    "   device stores the bits that tl_f32_to_f16 gives on the host. Plain\n",
    "   float code, since a `half` variable needs cl_khr_fp16. */\n",
    "float tl_round_to_half(float v)\n",
    "{\n",
    "    float a = fabs(v), step;\n",
    "    if (isnan(v)) return v;\n",
    "    if (a >= 65520.0f) return copysign(INFINITY, v);   /* rounds past 65504 */\n",
    "    /* halfs near a are 2^(e-10) apart; 2^-24 below 2^-14 (subnormals) */\n",
    "    step = ldexp(1.0f, max(ilogb(a), -14) - 10);\n",
    "    return copysign(rint(a / step) * step, v);\n",
    "}\n",
    "\n",
    "float4 tl_round_to_half4(float4 v)\n",
    "{\n",
    "    return (float4)(tl_round_to_half(v.s0), tl_round_to_half(v.s1),\n",
    "                    tl_round_to_half(v.s2), tl_round_to_half(v.s3));\n",
    "}\n",
    "\n",
    "/* The four lanes of a texel from the buffer (o: tl_lanes), padding 0. */\n",
    "float4 tl_gather_f32(__global const float *buf, int4 o)\n",
    "{\n",
    "    return (float4)(tl_load_f32(buf, o.s0), tl_load_f32(buf, o.s1),\n",
    "                    tl_load_f32(buf, o.s2), tl_load_f32(buf, o.s3));\n",
    "}\n",
    "\n",
    "float4 tl_gather_f16(__global const half *buf, int4 o)\n",
    "{\n",
    "    return (float4)(tl_load_f16(buf, o.s0), tl_load_f16(buf, o.s1),\n",
    "                    tl_load_f16(buf, o.s2), tl_load_f16(buf, o.s3));\n",
    "}\n",
    "\n",
    "/* The lanes of a texel into the buffer; padding lanes go nowhere. */\n",
    "void tl_scatter_f32(float4 v, __global float *buf, int4 o)\n",
    "{\n",
    "    tl_store_f32(v.s0, buf, o.s0);\n",
    "    tl_store_f32(v.s1, buf, o.s1);\n",
    "    tl_store_f32(v.s2, buf, o.s2);\n",
    "    tl_store_f32(v.s3, buf, o.s3);\n",
    "}\n",
    "\n",
    "void tl_scatter_f16(float4 v, __global half *buf, int4 o)\n",
    "{\n",
    "    tl_store_f16(v.s0, buf, o.s0);\n",
    "    tl_store_f16(v.s1, buf, o.s1);\n",
    "    tl_store_f16(v.s2, buf, o.s2);\n",
    "    tl_store_f16(v.s3, buf, o.s3);\n",
    "}\n",
    "\n",
    "/* Every kernel takes the image size and the map after its two memory\n",
    "   objects, in this order (the host sets them by position), then whether\n",
    "   the image is CL_HALF_FLOAT (passed in, because PoCL 3.1 lacks\n",
    "   get_image_channel_data_type for 1-D image buffers). */\n",
    "#define TL_MAP_PARAMS int width, int height, int buf_off, int div_x, \\\n",
    "    int div_y, int4 stride, int blocked, int extent, int lane_stride, \\\n",
    "    int half_image\n",
    "#define TL_MAP_ARGS buf_off, div_x, div_y, stride, blocked, extent, lane_stride\n",
    "\n",
    "/* 2-D images: one work-item per texel (x, y). */\n",
    "\n",
    "__kernel void tl_buffer_to_image_f32(__global const float *buf,\n",
    "                                     __write_only image2d_t img, TL_MAP_PARAMS)\n",
    "{\n",
    "    int x = (int)get_global_id(0), y = (int)get_global_id(1);\n",
    "    float4 v;\n",
    "    if (x >= width || y >= height) return;\n",
    "    v = tl_gather_f32(buf, tl_lanes(x, y, TL_MAP_ARGS));\n",
    "    if (half_image) v = tl_round_to_half4(v);\n",
    "    write_imagef(img, (int2)(x, y), v);\n",
    "}\n",
    "\n",
    "__kernel void tl_buffer_to_image_f16(__global const half *buf,\n",
    "                                     __write_only image2d_t img, TL_MAP_PARAMS)\n",
    "{\n",
    "    int x = (int)get_global_id(0), y = (int)get_global_id(1);\n",
    "    if (x >= width || y >= height) return;\n",
    "    write_imagef(img, (int2)(x, y),   /* halfs already: no rounding */\n",
    "                 tl_gather_f16(buf, tl_lanes(x, y, TL_MAP_ARGS)));\n",
    "}\n",
    "\n",
    "__kernel void tl_image_to_buffer_f32(__global float *buf,\n",
    "                                     __read_only image2d_t img, TL_MAP_PARAMS)\n",
    "{\n",
    "    int x = (int)get_global_id(0), y = (int)get_global_id(1);\n",
    "    if (x >= width || y >= height) return;\n",
    "    tl_scatter_f32(read_imagef(img, tl_sampler, (int2)(x, y)), buf,\n",
    "                   tl_lanes(x, y, TL_MAP_ARGS));\n",
    "}\n",
    "\n",
    "__kernel void tl_image_to_buffer_f16(__global half *buf,\n",
    "                                     __read_only image2d_t img, TL_MAP_PARAMS)\n",
    "{\n",
    "    int x = (int)get_global_id(0), y = (int)get_global_id(1);\n",
    "    if (x >= width || y >= height) return;\n",
    "    tl_scatter_f16(read_imagef(img, tl_sampler, (int2)(x, y)), buf,\n",
    "                   tl_lanes(x, y, TL_MAP_ARGS));\n",
    "}\n",
    "\n",
    "/* 1-D image buffers (OpenCL C 1.2): the same texels, the 2-D image's rows\n",
    "   one after another, so texel t is (t % width, t / width). One work-item\n",
    "   per texel. On an OpenCL C 1.1 compiler these kernels are left out and\n",
    "   the host reports TL_UNSUPPORTED for 1-D images. */\n",
    "#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 120\n",
    "\n",
    "__kernel void tl_buffer_to_image1d_f32(__global const float *buf,\n",
    "                                       __write_only image1d_buffer_t img,\n",
    "                                       TL_MAP_PARAMS)\n",
    "{\n",
    "    int t = (int)get_global_id(0);\n",
    "    float4 v;\n",
    "    if (t >= width * height) return;\n",
    "    v = tl_gather_f32(buf, tl_lanes(t % width, t / width, TL_MAP_ARGS));\n",
    "    if (half_image) v = tl_round_to_half4(v);\n",
    "    write_imagef(img, t, v);\n",
    "}\n",
    "\n",
    "__kernel void tl_buffer_to_image1d_f16(__global const half *buf,\n",
    "                                       __write_only image1d_buffer_t img,\n",
    "                                       TL_MAP_PARAMS)\n",
    "{\n",
    "    int t = (int)get_global_id(0);\n",
    "    if (t >= width * height) return;\n",
    "    write_imagef(img, t,   /* halfs already: no rounding */\n",
    "                 tl_gather_f16(buf, tl_lanes(t % width, t / width, TL_MAP_ARGS)));\n",
    "}\n",
    "\n",
    "__kernel void tl_image1d_to_buffer_f32(__global float *buf,\n",
    "                                       __read_only image1d_buffer_t img,\n",
    "                                       TL_MAP_PARAMS)\n",
    "{\n",
    "    int t = (int)get_global_id(0);\n",
    "    if (t >= width * height) return;\n",
    "    tl_scatter_f32(read_imagef(img, t), buf,\n",
    "                   tl_lanes(t % width, t / width, TL_MAP_ARGS));\n",
    "}\n",
    "\n",
    "__kernel void tl_image1d_to_buffer_f16(__global half *buf,\n",
    "                                       __read_only image1d_buffer_t img,\n",
    "                                       TL_MAP_PARAMS)\n",
    "{\n",
    "    int t = (int)get_global_id(0);\n",
    "    if (t >= width * height) return;\n",
    "    tl_scatter_f16(read_imagef(img, t), buf,\n",
    "                   tl_lanes(t % width, t / width, TL_MAP_ARGS));\n",
    "}\n",
    "\n",
    "#endif\n",
};
/* ---- END generated kernel sources ---- */

TL_API const char *const *tl_ocl_kernel_source(size_t *nlines)
{
    if (nlines)
        *nlines = sizeof tl__ocl_source_lines / sizeof tl__ocl_source_lines[0];
    return tl__ocl_source_lines;
}

/* ---- device API ------------------------------------------------------ */
#ifndef TL_OCL_HOST_ONLY

/* What a device can hold, in texels. */
typedef struct {
    size_t max_width, max_height;   /* CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT */
    size_t max_buffer;              /* CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: 1-D
                                       image buffers; 0 before OpenCL 1.2 */
} tl__ocl_limits;

struct tl_ocl_program {
    cl_program     program;
    cl_device_id   device;
    tl__ocl_limits limits;
};

/* TL_UNSUPPORTED for a device without images. */
static tl_status tl__ocl_device_limits(cl_device_id dev, tl__ocl_limits *lim)
{
    cl_bool images = CL_FALSE;
    if (!dev) return TL_INVALID_ARGUMENTS;
    if (clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images,
                        NULL) != CL_SUCCESS)
        return TL_DEVICE_ERROR;
    if (!images) return TL_UNSUPPORTED;
    if (clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof lim->max_width,
                        &lim->max_width, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof lim->max_height,
                        &lim->max_height, NULL) != CL_SUCCESS)
        return TL_DEVICE_ERROR;
    if (clGetDeviceInfo(dev, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof lim->max_buffer,
                        &lim->max_buffer, NULL) != CL_SUCCESS)
        lim->max_buffer = 0;   /* an OpenCL 1.1 device: no 1-D image buffers */
    return TL_OK;
}

/* TL_DEVICE_LIMIT when the map's image exceeds lim: a 2-D image, or a 1-D
   image buffer holding the same texels (image1d != 0). */
static tl_status tl__ocl_limits_check(const tl__ocl_limits *lim,
                                      const tl__ocl_map *m, int image1d)
{
    if (image1d)
        return (uint64_t)(m->width * m->height) > (uint64_t)lim->max_buffer
                   ? TL_DEVICE_LIMIT : TL_OK;
    if ((uint64_t)m->width > (uint64_t)lim->max_width ||
        (uint64_t)m->height > (uint64_t)lim->max_height)
        return TL_DEVICE_LIMIT;
    return TL_OK;
}

TL_API tl_status tl_ocl_program_create(tl_ocl_program **out, cl_context ctx,
                                       cl_device_id dev,
                                       const char *build_options)
{
    tl_ocl_program *p;
    tl__ocl_limits lim;
    cl_program prog;
    cl_int err;
    size_t nlines;
    const char *const *lines = tl_ocl_kernel_source(&nlines);
    tl_status st;
    if (!out || !ctx) return TL_INVALID_ARGUMENTS;
    st = tl__ocl_device_limits(dev, &lim);
    if (st) return st;
    /* clCreateProgramWithSource takes `const char **` although it only
       reads the strings; the cast drops a const it never writes through. */
    prog = clCreateProgramWithSource(ctx, (cl_uint)nlines, (const char **)lines,
                                     NULL, &err);
    if (err != CL_SUCCESS || !prog) return TL_DEVICE_ERROR;
    if (clBuildProgram(prog, 1, &dev, build_options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(prog);
        return TL_DEVICE_ERROR;
    }
    p = (tl_ocl_program *)TL_MALLOC(sizeof *p, NULL);
    if (!p) {
        clReleaseProgram(prog);
        return TL_OUT_OF_MEMORY;
    }
    p->program = prog;
    p->device = dev;
    p->limits = lim;
    *out = p;
    return TL_OK;
}

TL_API void tl_ocl_program_release(tl_ocl_program *p)
{
    if (!p) return;
    clReleaseProgram(p->program);
    TL_FREE(p, NULL);
}

TL_API tl_status tl_ocl_image_fits_device(cl_device_id dev,
                                          tl_ocl_buffer_type type, int ndims,
                                          const tl_dim *dims)
{
    tl__ocl_limits lim;
    tl__ocl_map m;
    tl_status st = tl__ocl_map_init(&m, type, ndims, dims);
    if (st) return st;
    st = tl__ocl_device_limits(dev, &lim);
    if (st) return st;
    return tl__ocl_limits_check(&lim, &m, 0);
}

/* TL_DEVICE_LIMIT unless every device of ctx can hold the map's image:
   runtimes disagree on the error code for an oversized image. */
static tl_status tl__ocl_context_fits(cl_context ctx, const tl__ocl_map *m,
                                      int image1d)
{
    cl_uint ndev = 0, k;
    cl_device_id *devs;
    tl__ocl_limits lim;
    tl_status st = TL_OK;
    if (clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof ndev, &ndev, NULL)
            != CL_SUCCESS || ndev == 0)
        return TL_DEVICE_ERROR;
    devs = (cl_device_id *)TL_MALLOC(ndev * sizeof *devs, NULL);
    if (!devs) return TL_OUT_OF_MEMORY;
    if (clGetContextInfo(ctx, CL_CONTEXT_DEVICES, ndev * sizeof *devs, devs, NULL)
            != CL_SUCCESS)
        st = TL_DEVICE_ERROR;
    for (k = 0; k < ndev && !st; ++k) {
        st = tl__ocl_device_limits(devs[k], &lim);
        if (!st) st = tl__ocl_limits_check(&lim, m, image1d);
    }
    TL_FREE(devs, NULL);
    return st;
}

/* Both image creators: checks, then a CL_RGBA image of the map's texels,
   2-D or a 1-D image buffer over a new buffer. */
static tl_status tl__ocl_image_create(cl_mem *out, cl_context ctx,
                                      tl_ocl_buffer_type type, int ndims,
                                      const tl_dim *dims,
                                      cl_channel_type channel_type, int image1d)
{
    cl_image_format fmt;
    cl_image_desc desc;
    cl_mem img, store = NULL;
    cl_int err;
    tl__ocl_map m;
    tl_status st;
    size_t texel_bytes = channel_type == CL_HALF_FLOAT ? 8 : 16;
    if (!out || !ctx) return TL_INVALID_ARGUMENTS;
    st = tl__ocl_map_init(&m, type, ndims, dims);
    if (st) return st;
    if (channel_type != CL_FLOAT && channel_type != CL_HALF_FLOAT)
        return TL_UNSUPPORTED;
    st = tl__ocl_context_fits(ctx, &m, image1d);
    if (st) return st;
    fmt.image_channel_order = CL_RGBA;
    fmt.image_channel_data_type = channel_type;
    memset(&desc, 0, sizeof desc);
    if (image1d) {
        /* fits the device's max buffer size, so the bytes fit in size_t */
        desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
        desc.image_width = (size_t)(m.width * m.height);
        store = clCreateBuffer(ctx, CL_MEM_READ_WRITE, desc.image_width * texel_bytes,
                               NULL, &err);
        if (err != CL_SUCCESS || !store) return TL_DEVICE_ERROR;
        desc.buffer = store;
    } else {
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = (size_t)m.width;
        desc.image_height = (size_t)m.height;
    }
    img = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
    if (store) clReleaseMemObject(store);   /* the image keeps its own reference */
    if (err == CL_INVALID_IMAGE_SIZE) return TL_DEVICE_LIMIT;
    if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED) return TL_UNSUPPORTED;
    if (err != CL_SUCCESS || !img) return TL_DEVICE_ERROR;
    *out = img;
    return TL_OK;
}

TL_API tl_status tl_ocl_image_create(cl_mem *out, cl_context ctx,
                                     tl_ocl_buffer_type type, int ndims,
                                     const tl_dim *dims,
                                     cl_channel_type channel_type)
{
    return tl__ocl_image_create(out, ctx, type, ndims, dims, channel_type, 0);
}

TL_API tl_status tl_ocl_image1d_create(cl_mem *out, cl_context ctx,
                                       tl_ocl_buffer_type type, int ndims,
                                       const tl_dim *dims,
                                       cl_channel_type channel_type)
{
    return tl__ocl_image_create(out, ctx, type, ndims, dims, channel_type, 1);
}

/* `mem` is a memory object of `kind` the kernel may access (`writes`: as
   destination). */
static tl_status tl__ocl_check_mem(cl_mem mem, cl_mem_object_type kind,
                                   int writes)
{
    cl_mem_object_type k;
    cl_mem_flags flags;
    if (clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof k, &k, NULL) != CL_SUCCESS ||
        clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL) != CL_SUCCESS)
        return TL_DEVICE_ERROR;
    if (k != kind) return TL_INVALID_ARGUMENTS;
    if (flags & (writes ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY))
        return TL_INVALID_ARGUMENTS;
    return TL_OK;
}

/* Sets *image1d from the image's kind (2-D or 1-D image buffer) and
   *half from its channel type, and checks its format: CL_RGBA, float or
   half. */
static tl_status tl__ocl_image_kind(cl_mem image, int writes, int *image1d,
                                    int *half)
{
    cl_mem_object_type kind;
    cl_image_format fmt;
    if (clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof kind, &kind, NULL) != CL_SUCCESS)
        return TL_DEVICE_ERROR;
    if (kind != CL_MEM_OBJECT_IMAGE2D && kind != CL_MEM_OBJECT_IMAGE1D_BUFFER)
        return TL_INVALID_ARGUMENTS;
    *image1d = kind == CL_MEM_OBJECT_IMAGE1D_BUFFER;
    if (tl__ocl_check_mem(image, kind, writes) != TL_OK) return TL_INVALID_ARGUMENTS;
    if (clGetImageInfo(image, CL_IMAGE_FORMAT, sizeof fmt, &fmt, NULL) != CL_SUCCESS)
        return TL_DEVICE_ERROR;
    if (fmt.image_channel_order != CL_RGBA ||
        (fmt.image_channel_data_type != CL_FLOAT &&
         fmt.image_channel_data_type != CL_HALF_FLOAT))
        return TL_UNSUPPORTED;
    *half = fmt.image_channel_data_type == CL_HALF_FLOAT;
    return TL_OK;
}

/* The image holds exactly the map's texels (width x height, or all of
   them in one row for a 1-D image buffer). */
static tl_status tl__ocl_check_image_size(cl_mem image, const tl__ocl_map *m,
                                          int image1d)
{
    size_t w, h = 1;
    if (clGetImageInfo(image, CL_IMAGE_WIDTH, sizeof w, &w, NULL) != CL_SUCCESS ||
        (!image1d &&
         clGetImageInfo(image, CL_IMAGE_HEIGHT, sizeof h, &h, NULL) != CL_SUCCESS))
        return TL_DEVICE_ERROR;
    if (image1d ? (uint64_t)w != (uint64_t)(m->width * m->height)
                : ((uint64_t)w != (uint64_t)m->width || (uint64_t)h != (uint64_t)m->height))
        return TL_SHAPE_MISMATCH;
    return TL_OK;
}

/* `buffer` holds offset + nelems elements. */
static tl_status tl__ocl_check_buffer(cl_mem buffer, const tl__ocl_map *m,
                                      tl_dim offset, size_t elem_size,
                                      int writes)
{
    size_t bytes;
    tl_status st = tl__ocl_check_mem(buffer, CL_MEM_OBJECT_BUFFER, writes);
    if (st) return st;
    if (clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) != CL_SUCCESS)
        return TL_DEVICE_ERROR;
    /* offset + nelems <= INT_MAX was checked, so this cannot overflow */
    if ((uint64_t)bytes < (uint64_t)((offset + m->nelems) * (tl_dim)elem_size))
        return TL_BUFFER_TOO_SMALL;
    return TL_OK;
}

/* n rounded up to a multiple of local (0: n itself). */
static size_t tl__ocl_round_up(tl_dim n, size_t local)
{
    size_t g = (size_t)n;
    return local ? (g + local - 1) / local * local : g;
}

/* The arguments every kernel takes, in kernels/image.cl's order:
   buffer, image, then TL_MAP_PARAMS (ending with half_image). */
static cl_int tl__ocl_set_args(cl_kernel k, cl_mem buffer, cl_mem image,
                               const tl__ocl_map *m, tl_dim offset, int half)
{
    cl_int err = CL_SUCCESS, v[9];
    cl_int4 stride;
    cl_uint j;
    v[0] = (cl_int)m->width;  v[1] = (cl_int)m->height; v[2] = (cl_int)offset;
    v[3] = (cl_int)m->div_x;  v[4] = (cl_int)m->div_y;
    v[5] = (cl_int)m->blocked; v[6] = (cl_int)m->extent;
    v[7] = (cl_int)m->lane_stride; v[8] = half;
    for (j = 0; j < 4; ++j) stride.s[j] = (cl_int)m->stride[j];
    err |= clSetKernelArg(k, 0, sizeof(cl_mem), &buffer);
    err |= clSetKernelArg(k, 1, sizeof(cl_mem), &image);
    for (j = 0; j < 5; ++j) err |= clSetKernelArg(k, 2 + j, sizeof(cl_int), &v[j]);
    err |= clSetKernelArg(k, 7, sizeof stride, &stride);
    for (j = 0; j < 4; ++j) err |= clSetKernelArg(k, 8 + j, sizeof(cl_int), &v[5 + j]);
    return err;
}

/* Everything both directions share: every check, then one enqueue. */
static tl_status tl__ocl_enqueue(tl_ocl_program *p, cl_command_queue q,
                                 tl_ocl_buffer_type type, int ndims,
                                 const tl_dim *dims, tl_data_type buffer_dt,
                                 cl_mem buffer, cl_mem image, int to_image,
                                 const tl_ocl_enqueue_attr *attr)
{
    static const tl_ocl_enqueue_attr defaults = { 0, { 0, 0 }, 0, NULL, NULL };
    /* [1-D image][to image][f16 buffer] */
    static const char *const names[2][2][2] = {
        { { "tl_image_to_buffer_f32", "tl_image_to_buffer_f16" },
          { "tl_buffer_to_image_f32", "tl_buffer_to_image_f16" } },
        { { "tl_image1d_to_buffer_f32", "tl_image1d_to_buffer_f16" },
          { "tl_buffer_to_image1d_f32", "tl_buffer_to_image1d_f16" } }
    };
    tl__ocl_map m;
    cl_device_id qdev;
    cl_kernel kernel;
    cl_int err = CL_SUCCESS;
    size_t local[2], global[2];
    tl_dim offset, last;
    int image1d = 0, half = 0;
    tl_status st;

    if (!attr) attr = &defaults;
    if (!p || !q || !buffer || !image) return TL_INVALID_ARGUMENTS;
    if (buffer_dt != TL_F32 && buffer_dt != TL_F16) return TL_UNSUPPORTED;
    if ((attr->num_events_in_wait_list != 0) != (attr->event_wait_list != NULL))
        return TL_INVALID_ARGUMENTS;
    st = tl__ocl_map_init(&m, type, ndims, dims);
    if (!st) st = tl__ocl_image_kind(image, to_image, &image1d, &half);
    if (!st) st = tl__ocl_limits_check(&p->limits, &m, image1d);
    if (st) return st;

    /* local[0] == 0: the runtime picks the work-group size */
    local[0] = attr->local_size[0];
    local[1] = local[0] && attr->local_size[1] && !image1d ? attr->local_size[1] : 1;
    /* The kernels index in int: the last element and every work-item id of
       the rounded-up global size must fit (a 1-D image's texel count too;
       it is within the device's limit, which was checked above). */
    if (attr->buffer_offset > (size_t)INT_MAX || local[0] > (size_t)INT_MAX ||
        local[1] > (size_t)INT_MAX)
        return TL_DEVICE_LIMIT;
    offset = (tl_dim)attr->buffer_offset;
    if (tl__add_overflows(offset, m.nelems, &last) || last > INT_MAX ||
        m.width > INT_MAX - (tl_dim)local[0] || m.height > INT_MAX - (tl_dim)local[1] ||
        (image1d && m.width * m.height > INT_MAX - (tl_dim)local[0]))
        return TL_DEVICE_LIMIT;

    if (clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL) != CL_SUCCESS)
        return TL_DEVICE_ERROR;
    if (qdev != p->device) return TL_INVALID_ARGUMENTS;
    st = tl__ocl_check_image_size(image, &m, image1d);
    if (!st) st = tl__ocl_check_buffer(buffer, &m, offset, tl_dt_size(buffer_dt),
                                       !to_image);
    if (st) return st;

    /* A kernel per call keeps a program usable from several threads:
       clSetKernelArg on a shared cl_kernel would race. */
    kernel = clCreateKernel(p->program, names[image1d][to_image][buffer_dt == TL_F16],
                            &err);
    if (err == CL_INVALID_KERNEL_NAME) return TL_UNSUPPORTED;   /* OpenCL C 1.1 */
    if (err != CL_SUCCESS || !kernel) return TL_DEVICE_ERROR;
    err = tl__ocl_set_args(kernel, buffer, image, &m, offset, half);
    if (image1d) {
        global[0] = tl__ocl_round_up(m.width * m.height, local[0]);
        global[1] = 1;
    } else {
        global[0] = tl__ocl_round_up(m.width, local[0]);
        global[1] = tl__ocl_round_up(m.height, local[0] ? local[1] : 0);
    }
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q, kernel, image1d ? 1 : 2, NULL, global,
                                     local[0] ? local : NULL,
                                     attr->num_events_in_wait_list,
                                     attr->event_wait_list, attr->event);
    clReleaseKernel(kernel);   /* the queue holds it until it has run */
    return err == CL_SUCCESS ? TL_OK : TL_DEVICE_ERROR;
}

TL_API tl_status tl_ocl_buffer_to_image_ex(tl_ocl_program *p,
                                           cl_command_queue q,
                                           tl_ocl_buffer_type type, int ndims,
                                           const tl_dim *dims,
                                           tl_data_type buffer_dt,
                                           cl_mem buffer, cl_mem image,
                                           const tl_ocl_enqueue_attr *attr)
{
    return tl__ocl_enqueue(p, q, type, ndims, dims, buffer_dt, buffer, image,
                           1, attr);
}

TL_API tl_status tl_ocl_image_to_buffer_ex(tl_ocl_program *p,
                                           cl_command_queue q,
                                           tl_ocl_buffer_type type, int ndims,
                                           const tl_dim *dims,
                                           tl_data_type buffer_dt,
                                           cl_mem image, cl_mem buffer,
                                           const tl_ocl_enqueue_attr *attr)
{
    return tl__ocl_enqueue(p, q, type, ndims, dims, buffer_dt, buffer, image,
                           0, attr);
}

TL_API tl_status tl_ocl_buffer_to_image(tl_ocl_program *p, cl_command_queue q,
                                        tl_ocl_buffer_type type, int ndims,
                                        const tl_dim *dims,
                                        tl_data_type buffer_dt, cl_mem buffer,
                                        cl_mem image)
{
    return tl__ocl_enqueue(p, q, type, ndims, dims, buffer_dt, buffer, image,
                           1, NULL);
}

TL_API tl_status tl_ocl_image_to_buffer(tl_ocl_program *p, cl_command_queue q,
                                        tl_ocl_buffer_type type, int ndims,
                                        const tl_dim *dims,
                                        tl_data_type buffer_dt, cl_mem image,
                                        cl_mem buffer)
{
    return tl__ocl_enqueue(p, q, type, ndims, dims, buffer_dt, buffer, image,
                           0, NULL);
}

#endif /* TL_OCL_HOST_ONLY */
#endif /* TL__OCL_IMPLEMENTATION_DONE */
#endif /* TENSORLAYOUT_IMPLEMENTATION */

/* License: MIT, the same text as at the end of tensorlayout.h. */
