/* The second translation unit sees only the declarations. */
#include "tensorlayout_simd.h"
#include "tensorlayout_ocl.h"

size_t multi_tu_size_of_nhwc(tl_dim n, tl_dim c, tl_dim h, tl_dim w);

size_t multi_tu_size_of_nhwc(tl_dim n, tl_dim c, tl_dim h, tl_dim w)
{
    tl_dim dims[4];
    tl_memory_desc md;
    dims[0] = n; dims[1] = c; dims[2] = h; dims[3] = w;
    if (tl_md_init_by_tag(&md, 4, dims, TL_F32, "nhwc") != TL_OK) return 0;
    return tl_md_size(&md);
}
