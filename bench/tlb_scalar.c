/* tlb_scalar.c - the scalar engine as the reference for --mode=C. The
   whole library is compiled here a second time, static and without the
   vector kernels, so both engines live in one process. */
#ifndef TL_SIMD_FORCE_SCALAR
#define TL_SIMD_FORCE_SCALAR
#endif
#define TENSORLAYOUT_STATIC
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_simd.h"

#include "tlbench.h"

tl_status tlb_scalar_reorder(const tl_memory_desc *src_md, const void *src,
                             const tl_memory_desc *dst_md, void *dst,
                             const tl_reorder_attr *attr)
{
    return tl_reorder(src_md, src, dst_md, dst, attr);
}

tl_status tlb_scalar_shuffle(const tl_memory_desc *md, const void *src,
                             void *dst, int axis, tl_dim group_size,
                             tl_direction dir)
{
    return tl_shuffle(md, src, dst, axis, group_size, dir);
}
