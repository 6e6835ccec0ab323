/* test_ocl_ref.h - an independent reference for the OpenCL image layouts:
   DESIGN.md's mapping table written out type by type, element to texel,
   with none of the library's machinery (its single div/stride map). */
#ifndef TEST_OCL_REF_H
#define TEST_OCL_REF_H
#include "tensorlayout_ocl.h"
#include "tl_test.h"
#include <stdlib.h>
#include <string.h>

TL_TEST_UNUSED static tl_dim ref_q(tl_dim v) { return (v + 3) / 4; }

/* The image [width, height] column of the table. */
TL_TEST_UNUSED static void ref_shape(tl_ocl_buffer_type t, const tl_dim *d, tl_dim *w,
                      tl_dim *h)
{
    tl_dim N = d[0], C = d[3], H = d[1], W = d[2];   /* NHWC */
    tl_dim O = d[0], I = d[1], KH = d[2], KW = d[3]; /* OIHW / MIHW */
    if (t >= TL_OCL_IN_OUT_CHANNEL_NCHW) {           /* NCHW */
        C = d[1]; H = d[2]; W = d[3];
        t = (tl_ocl_buffer_type)(t - TL_OCL_IN_OUT_CHANNEL_NCHW);
    }
    switch (t) {
    case TL_OCL_IN_OUT_CHANNEL:   *w = ref_q(C) * W; *h = N * H; break;
    case TL_OCL_IN_OUT_HEIGHT:    *w = W * C; *h = N * ref_q(H); break;
    case TL_OCL_IN_OUT_WIDTH:     *w = ref_q(W) * C; *h = N * H; break;
    case TL_OCL_CONV2D_FILTER:    *w = I; *h = ref_q(O) * KH * KW; break;
    case TL_OCL_DW_CONV2D_FILTER: *w = KH * KW * O; *h = ref_q(I); break;
    case TL_OCL_ARGUMENT:         *w = ref_q(d[0]); *h = 1; break;
    case TL_OCL_WEIGHT_HEIGHT:    *w = I * KH * KW; *h = ref_q(O); break;
    default:                      *w = ref_q(I) * KH * KW; *h = O; break;
    }
}

/* The x, y, lane columns: where the element with coordinates e (in the
   type's own dims order) lives. */
TL_TEST_UNUSED static void ref_place(tl_ocl_buffer_type t, const tl_dim *d, const tl_dim *e,
                      tl_dim *x, tl_dim *y, int *lane)
{
    tl_dim n = e[0], h = e[1], w = e[2], c = e[3];
    tl_dim H = d[1], W = d[2];
    tl_dim o = e[0], i = e[1], kh = e[2], kw = e[3], KW = d[3], HW = d[2] * d[3];
    if (t >= TL_OCL_IN_OUT_CHANNEL_NCHW) {   /* NCHW coordinates */
        c = e[1]; h = e[2]; w = e[3]; H = d[2]; W = d[3];
        t = (tl_ocl_buffer_type)(t - TL_OCL_IN_OUT_CHANNEL_NCHW);
    }
    switch (t) {
    case TL_OCL_IN_OUT_CHANNEL:
        *x = (c / 4) * W + w; *y = n * H + h; *lane = (int)(c % 4); break;
    case TL_OCL_IN_OUT_HEIGHT:
        *x = c * W + w; *y = n * ref_q(H) + h / 4; *lane = (int)(h % 4); break;
    case TL_OCL_IN_OUT_WIDTH:
        *x = c * ref_q(W) + w / 4; *y = n * H + h; *lane = (int)(w % 4); break;
    case TL_OCL_CONV2D_FILTER:
        *x = i; *y = (o / 4) * HW + kh * KW + kw; *lane = (int)(o % 4); break;
    case TL_OCL_DW_CONV2D_FILTER:   /* m = e[0] = 0 */
        *x = kh * KW + kw; *y = i / 4; *lane = (int)(i % 4); break;
    case TL_OCL_ARGUMENT:
        *x = e[0] / 4; *y = 0; *lane = (int)(e[0] % 4); break;
    case TL_OCL_WEIGHT_HEIGHT:
        *x = (kh * KW + kw) * d[1] + i; *y = o / 4; *lane = (int)(o % 4); break;
    default: /* WEIGHT_WIDTH */
        *x = (kh * KW + kw) * ref_q(d[1]) + i / 4; *y = o; *lane = (int)(i % 4);
        break;
    }
}

TL_TEST_UNUSED static int ref_ndims(tl_ocl_buffer_type t) { return t == TL_OCL_ARGUMENT ? 1 : 4; }

TL_TEST_UNUSED static tl_dim ref_nelems(tl_ocl_buffer_type t, const tl_dim *d)
{
    tl_dim n = 1;
    int k;
    for (k = 0; k < ref_ndims(t); ++k) n *= d[k];
    return n;
}

/* Packs `buf` (dense, the type's dims order) into `img` (w*h*4 floats,
   zeroed first). Returns 0 if two elements land on one lane or a lane
   falls outside the image: the table would not be a layout. */
TL_TEST_UNUSED static int ref_pack(tl_ocl_buffer_type t, const tl_dim *d, const float *buf,
                    float *img)
{
    tl_dim w, h, n = ref_nelems(t, d), idx, e[4], x, y;
    int k, lane, nd = ref_ndims(t), ok = 1;
    unsigned char *used;
    ref_shape(t, d, &w, &h);
    used = (unsigned char *)calloc((size_t)(w * h * 4), 1);
    memset(img, 0, (size_t)(w * h * 4) * sizeof(float));
    for (idx = 0; idx < n && used; ++idx) {
        tl_dim rest = idx;
        for (k = nd - 1; k >= 0; --k) { e[k] = rest % d[k]; rest /= d[k]; }
        ref_place(t, d, e, &x, &y, &lane);
        if (x < 0 || x >= w || y < 0 || y >= h || used[(y * w + x) * 4 + lane]) {
            ok = 0;
            continue;
        }
        used[(y * w + x) * 4 + lane] = 1;
        img[(y * w + x) * 4 + lane] = buf[idx];
    }
    free(used);
    return ok && used != NULL;
}

/* Test values: exact in half precision (so float and half images agree
   whatever rounding a device uses), distinct, some negative. */
TL_TEST_UNUSED static float ref_value(tl_dim i)
{
    float v = (float)(i % 2000 + 1) * 0.5f;
    return i % 3 == 0 ? -v : v;
}

/* Shapes with dims that are not multiples of 4, and 1x1x1x1. DW filters
   use the first dim as M, so it is forced to 1 there. */
static const tl_dim ref_shapes[][4] = {
    {1, 1, 1, 1}, {2, 3, 5, 7}, {1, 5, 6, 9}, {3, 2, 7, 1}, {2, 6, 1, 5},
    {5, 9, 3, 2}, {1, 4, 8, 3}
};
#define REF_NSHAPES ((int)(sizeof ref_shapes / sizeof ref_shapes[0]))
static const tl_dim ref_arg_lengths[] = {1, 3, 4, 5, 9, 13};
#define REF_NARGS ((int)(sizeof ref_arg_lengths / sizeof ref_arg_lengths[0]))

/* Shape s of type t into d (the ARGUMENT shapes come from their own list). */
TL_TEST_UNUSED static int ref_dims(tl_ocl_buffer_type t, int s, tl_dim *d)
{
    int k;
    if (t == TL_OCL_ARGUMENT) {
        if (s >= REF_NARGS) return 0;
        d[0] = ref_arg_lengths[s];
        return 1;
    }
    if (s >= REF_NSHAPES) return 0;
    for (k = 0; k < 4; ++k) d[k] = ref_shapes[s][k];
    if (t == TL_OCL_DW_CONV2D_FILTER) d[0] = 1;
    return 1;
}
#endif
