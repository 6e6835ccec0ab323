/* Every header with the implementation, as strict C99 (-pedantic via
   warning_level=3), in the first of two translation units: the second
   (multi_tu_b.c) sees only the declarations, and the program links
   without duplicate symbols. Also runs the header's Quick start snippet. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_simd.h"
#include "tensorlayout_ocl.h"
#include "tensorlayout.h" /* a second include is harmless */
#include "tl_test.h"
#include <stdlib.h>

size_t multi_tu_size_of_nhwc(tl_dim n, tl_dim c, tl_dim h, tl_dim w);

int main(void)
{
    tl_dim dims[4] = {2, 3, 4, 5};
    tl_memory_desc src, dst;
    tl_status st = tl_md_init_by_tag(&src, 4, dims, TL_F32, "nchw");
    if (!st) st = tl_md_init_by_tag(&dst, 4, dims, TL_F32, "nChw16c");
    CHECK_EQ(st, TL_OK);
    CHECK_EQ(tl_md_size(&dst), 2 * 16 * 4 * 5 * 4);
    CHECK_EQ(multi_tu_size_of_nhwc(1, 3, 4, 5), 60 * 4);
    return tl_test_result("compile_c99");
}
