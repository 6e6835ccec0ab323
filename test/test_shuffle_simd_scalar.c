/* The scalar side of test_shuffle_simd: the same header with
   TL_SIMD_FORCE_SCALAR, private to this file, behind one wrapper. */
#define TL_SIMD_FORCE_SCALAR
#define TENSORLAYOUT_STATIC
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_simd.h"

tl_status shuffle_scalar_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                             tl_dim g, tl_direction dir, int *vectorized);

/* *vectorized must come back 0: TL_SIMD_FORCE_SCALAR pins the core. */
tl_status shuffle_scalar_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                             tl_dim g, tl_direction dir, int *vectorized)
{
    return tl__shuffle_impl(md, src, dst, axis, g, dir, vectorized);
}
