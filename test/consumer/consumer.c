/* A user of tensorlayout: one file, the implementation included once. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"

#include <stdio.h>

int main(void)
{
    tl_dim dims[4] = {2, 17, 5, 5}, idx[4] = {1, 16, 0, 3};
    tl_memory_desc md;
    char tag[64];
    tl_status st = tl_md_init_by_tag(&md, 4, dims, TL_F32, "nChw16c");
    if (!st) st = tl_md_to_tag(&md, tag, sizeof tag);
    if (st) {
        fprintf(stderr, "consumer: %s\n", tl_status_str(st));
        return 1;
    }
    printf("consumer: %s size %zu offset %lld\n", tag, tl_md_size(&md),
           (long long)tl_md_offset(&md, idx));
    return 0;
}
