/* The benchdnn reorder corpus of test_reorder_benchdnn.c (every problem
   compared with oneDNN 2.6), run again with the SIMD kernels in the
   implementation: the vector paths meet oneDNN on the same 10k problems
   as the scalar engine, with the same accepted differences. */
/* static: the compiler drops the kernels this program never calls */
#define TENSORLAYOUT_STATIC
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_simd.h"
#include "test_reorder_benchdnn.c"
