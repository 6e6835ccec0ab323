/* tensorlayout: tensors <-> OpenCL 2-D RGBA images (MACE's layouts).

   One set of kernels serves all buffer types. The host (tensorlayout_ocl.h,
   tl__ocl_map_init) reduces each type to the same description:
     - texel x splits into x / div_x and x % div_x, y into y / div_y and
       y % div_y: four coordinates c0..c3;
     - one of them, `blocked`, counts groups of four along a tensor dim of
       `extent` elements: lane k holds element 4*c[blocked] + k, and lanes
       at or past `extent` are zero;
     - the buffer offset of lane k is buf_off + sum c[j]*stride[j] (the
       blocked coordinate has stride 0) + (4*c[blocked] + k) * lane_stride.
   The table that fills these numbers is in docs/gpu-images.md.

   Arithmetic is plain int: the host refuses tensors whose last element
   (offset included) does not fit, so no product here can overflow, and
   mul24/mad24 (defined only for operands that fit in 24 bits) are never
   used.

   Half buffers use vload_half/vstore_half, which are core OpenCL C and do
   not need cl_khr_fp16, so there is no fp16 pragma: the program builds, and
   f16 buffers work, on every device with image support. vstore_half rounds
   to nearest even, as tl_f32_to_f16 on the host does.

   The global size may be padded past the image (to a work-group multiple):
   every kernel compares its id with the true width and height first. */

__constant sampler_t tl_sampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;

/* Buffer offset of lane k of a texel, or -1 past the end of the blocked
   dim. `first` is the blocked dim's index of lane 0. */
int tl_lane(int base, int first, int k, int extent, int lane_stride)
{
    return first + k < extent ? base + (first + k) * lane_stride : -1;
}

/* Buffer offsets of the four lanes of texel (x, y); -1 marks a lane that
   holds no element. */
int4 tl_lanes(int x, int y, int buf_off, int div_x, int div_y, int4 stride,
              int blocked, int extent, int lane_stride)
{
    int c0 = x / div_x, c1 = x % div_x, c2 = y / div_y, c3 = y % div_y;
    int cb = blocked == 0 ? c0 : blocked == 1 ? c1 : blocked == 2 ? c2 : c3;
    int base = buf_off + c0 * stride.s0 + c1 * stride.s1 + c2 * stride.s2 +
               c3 * stride.s3;
    int first = 4 * cb;
    return (int4)(tl_lane(base, first, 0, extent, lane_stride),
                  tl_lane(base, first, 1, extent, lane_stride),
                  tl_lane(base, first, 2, extent, lane_stride),
                  tl_lane(base, first, 3, extent, lane_stride));
}

float tl_load_f32(__global const float *buf, int i)
{
    return i < 0 ? 0.0f : buf[i];
}

float tl_load_f16(__global const half *buf, int i)
{
    return i < 0 ? 0.0f : vload_half((size_t)i, buf);
}

void tl_store_f32(float v, __global float *buf, int i)
{
    if (i >= 0) buf[i] = v;
}

void tl_store_f16(float v, __global half *buf, int i)
{
    if (i >= 0) vstore_half(v, (size_t)i, buf);
}

/* v rounded to the nearest half (ties to even), as a float. The spec lets
   a write to a CL_HALF_FLOAT image round to nearest even or toward zero;
   a value that is already a half is stored exactly either way, so every
   device stores the bits that tl_f32_to_f16 gives on the host. Plain
   float code, since a `half` variable needs cl_khr_fp16. */
float tl_round_to_half(float v)
{
    float a = fabs(v), step;
    if (isnan(v)) return v;
    if (a >= 65520.0f) return copysign(INFINITY, v);   /* rounds past 65504 */
    /* halfs near a are 2^(e-10) apart; 2^-24 below 2^-14 (subnormals) */
    step = ldexp(1.0f, max(ilogb(a), -14) - 10);
    return copysign(rint(a / step) * step, v);
}

float4 tl_round_to_half4(float4 v)
{
    return (float4)(tl_round_to_half(v.s0), tl_round_to_half(v.s1),
                    tl_round_to_half(v.s2), tl_round_to_half(v.s3));
}

/* The four lanes of a texel from the buffer (o: tl_lanes), padding 0. */
float4 tl_gather_f32(__global const float *buf, int4 o)
{
    return (float4)(tl_load_f32(buf, o.s0), tl_load_f32(buf, o.s1),
                    tl_load_f32(buf, o.s2), tl_load_f32(buf, o.s3));
}

float4 tl_gather_f16(__global const half *buf, int4 o)
{
    return (float4)(tl_load_f16(buf, o.s0), tl_load_f16(buf, o.s1),
                    tl_load_f16(buf, o.s2), tl_load_f16(buf, o.s3));
}

/* The lanes of a texel into the buffer; padding lanes go nowhere. */
void tl_scatter_f32(float4 v, __global float *buf, int4 o)
{
    tl_store_f32(v.s0, buf, o.s0);
    tl_store_f32(v.s1, buf, o.s1);
    tl_store_f32(v.s2, buf, o.s2);
    tl_store_f32(v.s3, buf, o.s3);
}

void tl_scatter_f16(float4 v, __global half *buf, int4 o)
{
    tl_store_f16(v.s0, buf, o.s0);
    tl_store_f16(v.s1, buf, o.s1);
    tl_store_f16(v.s2, buf, o.s2);
    tl_store_f16(v.s3, buf, o.s3);
}

/* Every kernel takes the image size and the map after its two memory
   objects, in this order (the host sets them by position), then whether
   the image is CL_HALF_FLOAT (passed in, because PoCL 3.1 lacks
   get_image_channel_data_type for 1-D image buffers). */
#define TL_MAP_PARAMS int width, int height, int buf_off, int div_x, \
    int div_y, int4 stride, int blocked, int extent, int lane_stride, \
    int half_image
#define TL_MAP_ARGS buf_off, div_x, div_y, stride, blocked, extent, lane_stride

/* 2-D images: one work-item per texel (x, y). */

__kernel void tl_buffer_to_image_f32(__global const float *buf,
                                     __write_only image2d_t img, TL_MAP_PARAMS)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    float4 v;
    if (x >= width || y >= height) return;
    v = tl_gather_f32(buf, tl_lanes(x, y, TL_MAP_ARGS));
    if (half_image) v = tl_round_to_half4(v);
    write_imagef(img, (int2)(x, y), v);
}

__kernel void tl_buffer_to_image_f16(__global const half *buf,
                                     __write_only image2d_t img, TL_MAP_PARAMS)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= width || y >= height) return;
    write_imagef(img, (int2)(x, y),   /* halfs already: no rounding */
                 tl_gather_f16(buf, tl_lanes(x, y, TL_MAP_ARGS)));
}

__kernel void tl_image_to_buffer_f32(__global float *buf,
                                     __read_only image2d_t img, TL_MAP_PARAMS)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= width || y >= height) return;
    tl_scatter_f32(read_imagef(img, tl_sampler, (int2)(x, y)), buf,
                   tl_lanes(x, y, TL_MAP_ARGS));
}

__kernel void tl_image_to_buffer_f16(__global half *buf,
                                     __read_only image2d_t img, TL_MAP_PARAMS)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= width || y >= height) return;
    tl_scatter_f16(read_imagef(img, tl_sampler, (int2)(x, y)), buf,
                   tl_lanes(x, y, TL_MAP_ARGS));
}

/* 1-D image buffers (OpenCL C 1.2): the same texels, the 2-D image's rows
   one after another, so texel t is (t % width, t / width). One work-item
   per texel. On an OpenCL C 1.1 compiler these kernels are left out and
   the host reports TL_UNSUPPORTED for 1-D images. */
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 120

__kernel void tl_buffer_to_image1d_f32(__global const float *buf,
                                       __write_only image1d_buffer_t img,
                                       TL_MAP_PARAMS)
{
    int t = (int)get_global_id(0);
    float4 v;
    if (t >= width * height) return;
    v = tl_gather_f32(buf, tl_lanes(t % width, t / width, TL_MAP_ARGS));
    if (half_image) v = tl_round_to_half4(v);
    write_imagef(img, t, v);
}

__kernel void tl_buffer_to_image1d_f16(__global const half *buf,
                                       __write_only image1d_buffer_t img,
                                       TL_MAP_PARAMS)
{
    int t = (int)get_global_id(0);
    if (t >= width * height) return;
    write_imagef(img, t,   /* halfs already: no rounding */
                 tl_gather_f16(buf, tl_lanes(t % width, t / width, TL_MAP_ARGS)));
}

__kernel void tl_image1d_to_buffer_f32(__global float *buf,
                                       __read_only image1d_buffer_t img,
                                       TL_MAP_PARAMS)
{
    int t = (int)get_global_id(0);
    if (t >= width * height) return;
    tl_scatter_f32(read_imagef(img, t), buf,
                   tl_lanes(t % width, t / width, TL_MAP_ARGS));
}

__kernel void tl_image1d_to_buffer_f16(__global half *buf,
                                       __read_only image1d_buffer_t img,
                                       TL_MAP_PARAMS)
{
    int t = (int)get_global_id(0);
    if (t >= width * height) return;
    tl_scatter_f16(read_imagef(img, t), buf,
                   tl_lanes(t % width, t / width, TL_MAP_ARGS));
}

#endif
