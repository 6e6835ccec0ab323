/* tensorlayout_ocl.h - v0.1 - OpenCL image layouts (MACE-style)
   Skeleton: the GPU image API lands with its own issue. */
#ifndef TENSORLAYOUT_OCL_H
#define TENSORLAYOUT_OCL_H
#include "tensorlayout.h"
#endif /* TENSORLAYOUT_OCL_H */
