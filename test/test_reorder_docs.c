/* The examples of docs/reorder.md, run, with the numbers the page states. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <stdlib.h>
#include <string.h>

static void quantise_example(void)
{
    tl_dim dims[4] = { 1, 3, 224, 224 };
    float scales[3] = { 40.f, 38.5f, 41.25f };
    tl_memory_desc src_md, dst_md;
    tl_reorder_attr a;
    float *src = (float *)calloc(3 * 224 * 224, sizeof(float));
    unsigned char *dst = (unsigned char *)malloc(3 * 224 * 224);
    memset(&a, 0, sizeof a);
    CHECK(tl_md_init_by_tag(&src_md, 4, dims, TL_F32, "nchw") == TL_OK);
    CHECK(tl_md_init_by_tag(&dst_md, 4, dims, TL_U8, "nhwc") == TL_OK);
    a.scale_mask = 1 << 1;
    a.scales = scales;
    a.dst_zero_point = 128;
    src[1 * 224 * 224 + 5] = 1.3f;           /* c = 1, h = 0, w = 5 */
    src[0] = -5.0f;                          /* c = 0 */
    CHECK(tl_reorder(&src_md, src, &dst_md, dst, &a) == TL_OK);
    CHECK_EQ(dst[5 * 3 + 1], 178);
    CHECK_EQ(dst[0], 0);
    CHECK_EQ(dst[2], 128);                   /* 0.0 -> the zero point */
    free(src); free(dst);
}

static void weights_example(void)
{
    tl_dim dims[4] = { 20, 9, 3, 3 }, o, k;
    tl_memory_desc src_md, dst_md;
    tl_reorder_attr a;
    float scales[20], *src = (float *)malloc(20 * 9 * 9 * sizeof(float));
    signed char *dst;
    int32_t comp[32];
    size_t bytes;
    memset(&a, 0, sizeof a);
    for (o = 0; o < 20; ++o) scales[o] = 1.0f + (float)o;
    for (k = 0; k < 20 * 81; ++k) src[k] = (float)(k % 7) - 3.0f;
    CHECK(tl_md_init_by_tag(&src_md, 4, dims, TL_F32, "oihw") == TL_OK);
    CHECK(tl_md_init_by_tag(&dst_md, 4, dims, TL_S8, "OIhw4i16o4i") == TL_OK);
    dst_md.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
    dst_md.extra.compensation_mask = 1 << 0;
    bytes = tl_md_size(&dst_md);
    CHECK_EQ(bytes, 32 * 16 * 9 + 4 * 32);
    dst = (signed char *)malloc(bytes);
    a.scale_mask = 1 << 0;
    a.scales = scales;
    CHECK(tl_reorder(&src_md, src, &dst_md, dst, &a) == TL_OK);
    memcpy(comp, dst + 32 * 16 * 9, sizeof comp);
    for (o = 0; o < 32; ++o) {
        int32_t sum = 0;
        tl_dim idx[4];
        if (o < 20)
            for (idx[1] = 0; idx[1] < 9; ++idx[1])
                for (idx[2] = 0; idx[2] < 3; ++idx[2])
                    for (idx[3] = 0; idx[3] < 3; ++idx[3]) {
                        idx[0] = o;
                        sum += dst[tl_md_offset(&dst_md, idx)];
                    }
        CHECK_EQ(comp[o], -128 * sum);
    }
    free(src); free(dst);
}

int main(void)
{
    quantise_example();
    weights_example();
    return tl_test_result("reorder_docs");
}
