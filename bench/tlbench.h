/* tlbench.h - the pieces of tlbench that live in their own files.

   tlbench.c      the driver: benchdnn-style options, batches, timing
   tlb_scalar.c   the scalar engine, compiled a second time with
                  TL_SIMD_FORCE_SCALAR + TENSORLAYOUT_STATIC (the reference
                  for --mode=C)
   tlb_dnnl.c     oneDNN 2.6 primitives (tlb_dnnl_none.c when not built)
   tlb_loop.c     the bare loop that small reorders are also timed against */
#ifndef TLBENCH_H
#define TLBENCH_H

#include "tensorlayout.h"

/* The scalar engine of tlb_scalar.c, same contracts as tl_reorder and
   tl_shuffle. */
tl_status tlb_scalar_reorder(const tl_memory_desc *src_md, const void *src,
                             const tl_memory_desc *dst_md, void *dst,
                             const tl_reorder_attr *attr);
tl_status tlb_scalar_shuffle(const tl_memory_desc *md, const void *src,
                             void *dst, int axis, tl_dim group_size,
                             tl_direction dir);

/* A oneDNN primitive bound to one pair of buffers. */
typedef struct tlb_dnnl tlb_dnnl;

/* 1 when this build has oneDNN. */
int tlb_dnnl_available(void);

/* NULL when oneDNN is absent or refuses the problem; why (may be NULL)
   then says which. The buffers stay the caller's. */
tlb_dnnl *tlb_dnnl_reorder_create(const tl_memory_desc *src_md, void *src,
                                  const tl_memory_desc *dst_md, void *dst,
                                  const tl_reorder_attr *attr,
                                  char *why, size_t len);
tlb_dnnl *tlb_dnnl_shuffle_create(const tl_memory_desc *md, void *src,
                                  void *dst, int axis, tl_dim group_size,
                                  tl_direction dir, char *why, size_t len);
/* 0 on success. */
int tlb_dnnl_execute(tlb_dnnl *p);
void tlb_dnnl_destroy(tlb_dnnl *p);

/* The loop a user would write by hand instead of calling a library: four
   nested loops over the logical dims, each dim's offsets looked up in a
   table made once. Covers small (<= TLB_LOOP_MAX_BYTES) 4-D reorders
   between f32 and f32, s8 or u8 with at most a common scale; NULL
   otherwise. It measures call overhead, so it does not handle NaN. */
#define TLB_LOOP_MAX_BYTES (1 << 20)
typedef struct tlb_loop tlb_loop;
tlb_loop *tlb_loop_create(const tl_memory_desc *src_md, const tl_memory_desc *dst_md,
                          const tl_reorder_attr *attr);
/* The same loop for a channel shuffle of md (the seed's definition: dst
   channel c reads source channel (c % (C/G)) G + c / (C/G)): the axis's
   source offsets are those of the channels read. f32 only. */
tlb_loop *tlb_loop_create_shuffle(const tl_memory_desc *md, int axis, tl_dim group_size,
                                  tl_direction dir);
void tlb_loop_execute(const tlb_loop *l, const void *src, void *dst);
void tlb_loop_destroy(tlb_loop *l);

#endif
