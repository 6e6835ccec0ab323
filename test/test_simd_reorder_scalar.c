/* The scalar engine for test_simd_reorder (reorders) and
   test_shuffle_simd.c (shuffles, linked into the same program): the whole
   library is compiled here a second time, static and without vector
   kernels. */
#define TL_SIMD_FORCE_SCALAR
#define TENSORLAYOUT_STATIC
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_simd.h"

tl_status test_scalar_reorder(const tl_memory_desc *src_md, const void *src,
                              const tl_memory_desc *dst_md, void *dst,
                              const tl_reorder_attr *attr);

tl_status test_scalar_reorder(const tl_memory_desc *src_md, const void *src,
                              const tl_memory_desc *dst_md, void *dst,
                              const tl_reorder_attr *attr)
{
    return tl_reorder(src_md, src, dst_md, dst, attr);
}

tl_status shuffle_scalar_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                             tl_dim g, tl_direction dir, int *vectorized);

/* *vectorized must come back 0: TL_SIMD_FORCE_SCALAR pins the core. */
tl_status shuffle_scalar_run(const tl_memory_desc *md, const void *src, void *dst, int axis,
                             tl_dim g, tl_direction dir, int *vectorized)
{
    return tl__shuffle_impl(md, src, dst, axis, g, dir, vectorized);
}
