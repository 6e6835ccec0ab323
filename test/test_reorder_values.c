/* Hand-worked values for the rules of docs/reorder.md: the seed's
   saturation examples, half-to-even rounding, the f32 clamp of s32 at
   2147483520, NaN -> 0 and +/-inf saturating for integers, -0.0 kept for
   float destinations, f16 overflow to infinity, exact identity copies,
   f64 out of float range, beta and scale_adjust. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <math.h>
#include <string.h>

/* Reorders n values of type st (1-D, "a") into type dt with attr. */
static void convert(tl_data_type st, const void *in, tl_data_type dt, void *out, int n,
                    const tl_reorder_attr *attr, float adjust)
{
    tl_dim dims[1];
    tl_memory_desc s, d;
    dims[0] = n;
    CHECK(tl_md_init_by_tag(&s, 1, dims, st, "a") == TL_OK);
    CHECK(tl_md_init_by_tag(&d, 1, dims, dt, "a") == TL_OK);
    if (adjust != 1.0f) { d.extra.flags = TL_MD_EXTRA_SCALE_ADJUST; d.extra.scale_adjust = adjust; }
    CHECK(tl_reorder(&s, in, &d, out, attr) == TL_OK);
}

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

int main(void)
{
    float f[14] = { 1024.f, -1024.f, 2.5f, 3.5f, -2.5f, -0.5f, 0, 0, 0, 126.6f, -124.f,
                    254.5f, 255.5f, -0.0f };
    int8_t s8[14];
    uint8_t u8[14];
    int32_t s32[4];
    uint16_t h[4];
    tl_reorder_attr a;
    f[6] = NAN; f[7] = INFINITY; f[8] = -INFINITY;
    memset(&a, 0, sizeof a);

    convert(TL_F32, f, TL_S8, s8, 14, NULL, 1.0f);
    CHECK_EQ(s8[0], 127); CHECK_EQ(s8[1], -128);            /* seed: 1024 -> 127 */
    CHECK_EQ(s8[2], 2); CHECK_EQ(s8[3], 4); CHECK_EQ(s8[4], -2); CHECK_EQ(s8[5], 0);
    CHECK_EQ(s8[6], 0); CHECK_EQ(s8[7], 127); CHECK_EQ(s8[8], -128); CHECK_EQ(s8[9], 127);
    convert(TL_F32, f, TL_U8, u8, 14, NULL, 1.0f);
    CHECK_EQ(u8[10], 0);                                    /* seed: -124 -> 0 */
    CHECK_EQ(u8[11], 254); CHECK_EQ(u8[12], 255); CHECK_EQ(u8[6], 0); CHECK_EQ(u8[7], 255);

    {   /* s32: the clamp happens in f32 */
        float big[4] = { 3e9f, -3e9f, 2147483520.f, 0 };
        big[3] = INFINITY;
        convert(TL_F32, big, TL_S32, s32, 4, NULL, 1.0f);
        CHECK_EQ(s32[0], 2147483520); CHECK_EQ(s32[1], INT32_MIN);
        CHECK_EQ(s32[2], 2147483520); CHECK_EQ(s32[3], 2147483520);
    }
    {   /* identity s32 -> s32 and s32 -> f64 are exact; a scale is not */
        int32_t in[2] = { 2147483647, -2147483647 - 1 }, out[2];
        double w[2];
        float two = 2.0f;
        convert(TL_S32, in, TL_S32, out, 2, NULL, 1.0f);
        CHECK_EQ(out[0], 2147483647); CHECK_EQ(out[1], INT32_MIN);
        convert(TL_S32, in, TL_F64, w, 2, NULL, 1.0f);
        CHECK(w[0] == 2147483647.0 && w[1] == -2147483648.0);
        a.scales = &two;
        convert(TL_S32, in, TL_S32, out, 2, &a, 1.0f);
        CHECK_EQ(out[0], 2147483520); CHECK_EQ(out[1], INT32_MIN);
        a.scales = NULL;
    }
    {   /* floats: -0.0 kept, f16 overflow to infinity */
        float in[4] = { -0.0f, 70000.f, 65504.f, -1e6f }, out[4];
        float half = 0.5f;
        convert(TL_F32, in, TL_F16, h, 4, NULL, 1.0f);
        CHECK_EQ(h[0], 0x8000); CHECK_EQ(h[1], 0x7c00); CHECK_EQ(h[2], 0x7bff); CHECK_EQ(h[3], 0xfc00);
        convert(TL_F32, in, TL_BF16, h, 4, NULL, 1.0f);
        CHECK_EQ(h[0], 0x8000);
        a.scales = &half;
        convert(TL_F32, in, TL_F32, out, 4, &a, 1.0f);
        CHECK_EQ(bits(out[0]), 0x80000000u);
        CHECK(out[1] == 35000.f);
        a.scales = NULL;
    }
    {   /* f64 beyond float range becomes infinity, then saturates */
        double in[3] = { 1e300, -1e300, 0 };
        float out[3];
        in[2] = NAN;
        convert(TL_F64, in, TL_F32, out, 3, NULL, 1.0f);
        CHECK(isinf(out[0]) && out[0] > 0 && isinf(out[1]) && out[1] < 0 && isnan(out[2]));
        convert(TL_F64, in, TL_S8, s8, 3, NULL, 1.0f);
        CHECK_EQ(s8[0], 127); CHECK_EQ(s8[1], -128); CHECK_EQ(s8[2], 0);
    }
    {   /* beta reads the stored value; dst_zero_point comes after it */
        float in[2] = { 50.f, -3.f };
        int8_t out[2] = { 100, 10 };
        a.beta = 1.0f;
        a.dst_zero_point = 2;
        convert(TL_F32, in, TL_S8, out, 2, &a, 1.0f);
        CHECK_EQ(out[0], 127); CHECK_EQ(out[1], 9);
        memset(&a, 0, sizeof a);
    }
    {   /* scale_adjust last, before rounding: 5 * 0.5 = 2.5 -> 2 */
        float in[2] = { 5.f, 7.f };
        convert(TL_F32, in, TL_S8, s8, 2, NULL, 0.5f);
        CHECK_EQ(s8[0], 2); CHECK_EQ(s8[1], 4);
    }
    return tl_test_result("reorder_values");
}
