/* The scalar reorder engine for test_simd_reorder: the whole library is
   compiled here a second time, static and without vector kernels. */
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
