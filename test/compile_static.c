/* TENSORLAYOUT_STATIC: every function static, unused ones do not warn.
   Also the one build with TL_SIMD_NO_AVX512 (the SIMD tests cap the
   variants at run time instead). */
#define TENSORLAYOUT_STATIC
#define TL_SIMD_NO_AVX512
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_simd.h"
#include "tensorlayout_ocl.h"
#include "tl_test.h"

int main(void)
{
    tl_dim dims[2] = {3, 5};
    tl_memory_desc md;
    if (tl_md_init_by_tag(&md, 2, dims, TL_S8, "ba") == TL_OK) {
        CHECK_EQ(md.blocking.strides[0], 1);
        CHECK_EQ(md.blocking.strides[1], 3);
    } else {
        CHECK(!"tl_md_init_by_tag failed");
    }
    return tl_test_result("compile_static");
}
