/* Two translation units, one implementation: no duplicate symbols. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_simd.h"
#include "tensorlayout_ocl.h"
#include "tensorlayout.h" /* a second include is harmless */
#include "tl_test.h"

size_t multi_tu_size_of_nhwc(tl_dim n, tl_dim c, tl_dim h, tl_dim w);

int main(void)
{
    CHECK_EQ(multi_tu_size_of_nhwc(1, 3, 4, 5), 60 * 4);
    return tl_test_result("multi_tu");
}
