/* tlb_dnnl_none.c - tlbench built without oneDNN: every problem reports
   "no oneDNN" and the oneDNN columns stay empty. */
#include "tlbench.h"

#include <stdio.h>

int tlb_dnnl_available(void) { return 0; }

static tlb_dnnl *tlb__absent(char *why, size_t len)
{
    if (why && len) snprintf(why, len, "built without oneDNN (libdnnl-dev)");
    return NULL;
}

tlb_dnnl *tlb_dnnl_reorder_create(const tl_memory_desc *src_md, void *src,
                                  const tl_memory_desc *dst_md, void *dst,
                                  const tl_reorder_attr *attr,
                                  char *why, size_t len)
{
    (void)src_md; (void)src; (void)dst_md; (void)dst; (void)attr;
    return tlb__absent(why, len);
}

tlb_dnnl *tlb_dnnl_shuffle_create(const tl_memory_desc *md, void *src,
                                  void *dst, int axis, tl_dim group_size,
                                  tl_direction dir, char *why, size_t len)
{
    (void)md; (void)src; (void)dst; (void)axis; (void)group_size; (void)dir;
    return tlb__absent(why, len);
}

int tlb_dnnl_execute(tlb_dnnl *p) { (void)p; return 1; }
void tlb_dnnl_destroy(tlb_dnnl *p) { (void)p; }
