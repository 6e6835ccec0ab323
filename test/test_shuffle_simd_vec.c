/* The SIMD side of test_shuffle_simd: tensorlayout_simd.h, private to this
   file (TENSORLAYOUT_STATIC), behind one exported wrapper. */
#define TENSORLAYOUT_STATIC
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_simd.h"

tl_status shuffle_simd_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                           tl_dim g, tl_direction dir, int *vectorized);

/* *vectorized says whether a SIMD kernel moved the data, so the test can
   tell a vector path from the scalar fallback. */
tl_status shuffle_simd_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                           tl_dim g, tl_direction dir, int *vectorized)
{
    return tl__shuffle_impl(md, src, dst, axis, g, dir, vectorized);
}
