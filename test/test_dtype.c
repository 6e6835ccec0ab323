/* Data-type sizes and names, and f16/bf16 conversion against independent
   references: exhaustive decode of every half/bfloat16 bit pattern, and
   round-to-nearest-even encoding checked against a formula built from
   the two neighbouring representable values. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <math.h>
#include <string.h>

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Reference half decode straight from the IEEE definition. */
static double ref_f16(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31) return m ? NAN : (s ? -INFINITY : INFINITY);
    v = e ? ldexp(1.0 + m / 1024.0, e - 15) : ldexp(m / 1024.0, -14);
    return s ? -v : v;
}

/* Reference encode: the nearest of all finite halves, ties to even. */
static uint16_t ref_to_f16(float f)
{
    double x = f, best_d = INFINITY;
    uint16_t best = 0, h;
    if (isnan(f)) return 0x7e00;
    if (fabs(x) >= 65520.0) return x < 0 ? 0xfc00 : 0x7c00;
    for (h = 0; h < 0x7c00; ++h) {
        double d = fabs(fabs(x) - ref_f16(h));
        if (d < best_d || (d == best_d && (h & 1) == 0 && (best & 1))) { best_d = d; best = h; }
    }
    return (uint16_t)(best | (signbit(f) ? 0x8000 : 0));
}

int main(void)
{
    uint32_t i;
    CHECK_EQ(tl_dt_size(TL_F32), 4); CHECK_EQ(tl_dt_size(TL_F16), 2);
    CHECK_EQ(tl_dt_size(TL_BF16), 2); CHECK_EQ(tl_dt_size(TL_S32), 4);
    CHECK_EQ(tl_dt_size(TL_S8), 1); CHECK_EQ(tl_dt_size(TL_U8), 1);
    CHECK_EQ(tl_dt_size(TL_F64), 8); CHECK_EQ(tl_dt_size(TL_DT_UNDEF), 0);
    CHECK_EQ(tl_dt_size((tl_data_type)99), 0);
    for (i = 1; i < (uint32_t)TL__DT_COUNT; ++i)
        CHECK_EQ(tl_dt_from_name(tl_dt_name((tl_data_type)i)), i);
    CHECK_EQ(tl_dt_from_name("f31"), TL_DT_UNDEF);
    CHECK_EQ(tl_dt_from_name(NULL), TL_DT_UNDEF);
    CHECK(strcmp(tl_dt_name((tl_data_type)-3), "undef") == 0);

    /* decode: every half pattern */
    for (i = 0; i < 65536; ++i) {
        double r = ref_f16((uint16_t)i);
        float g = tl_f16_to_f32((uint16_t)i);
        if (isnan(r)) CHECK(isnan(g) && (signbit(g) != 0) == ((i >> 15) != 0));
        else CHECK_MSG((double)g == r && !signbit(g) == !signbit(r), "half %04x", (unsigned)i);
        /* round trip is exact for every non-NaN half */
        if (!isnan(r)) CHECK_EQ(tl_f32_to_f16(g), i);
    }
    /* encode: random floats across the half range (each checked against
       all 31744 finite halves: a quarter of them under TL_TEST_QUICK,
       where valgrind took 27 s), and the tie points */
    for (i = 0; i < (uint32_t)tl_test_cases(3000); ++i) {
        float f = from_bits((uint32_t)tl_test_rand());
        if (!isfinite(f) || fabsf(f) > 70000.f) f = ldexpf((float)(tl_test_rand() % 2048) / 1024.f - 1.f, (int)(tl_test_rand() % 40) - 25);
        CHECK_MSG(tl_f32_to_f16(f) == ref_to_f16(f), "f32 %08x", (unsigned)bits(f));
    }
    for (i = 0; i < 0x7bff; i += 97) {   /* exact midpoints round to even */
        float mid = (float)((ref_f16((uint16_t)i) + ref_f16((uint16_t)(i + 1))) / 2);
        CHECK_EQ(tl_f32_to_f16(mid), (i & 1) ? i + 1 : i);
    }
    CHECK_EQ(tl_f32_to_f16(65504.f), 0x7bff);
    CHECK_EQ(tl_f32_to_f16(65520.f), 0x7c00);     /* overflow: infinity */
    CHECK_EQ(tl_f32_to_f16(-1e30f), 0xfc00);
    CHECK_EQ(tl_f32_to_f16(-0.f), 0x8000);
    CHECK(tl_f32_to_f16(-NAN) & 0x8000);
    CHECK((tl_f32_to_f16(NAN) & 0x7fff) > 0x7c00);

    /* bf16: the top half of the f32, rounded to nearest even */
    for (i = 0; i < 65536; ++i) {
        float g = tl_bf16_to_f32((uint16_t)i);
        CHECK_EQ(bits(g), i << 16);
    }
    for (i = 0; i < (uint32_t)tl_test_cases(100000); ++i) {
        uint32_t u = (uint32_t)tl_test_rand();
        float f = from_bits(u);
        uint32_t lo = u & 0xffff0000u, hi = lo + 0x10000u, want;
        if (isnan(f)) { CHECK(isnan(tl_bf16_to_f32(tl_f32_to_bf16(f))) && (tl_f32_to_bf16(f) >> 15) == (u >> 31)); continue; }
        if ((u & 0xffff) < 0x8000) want = lo;
        else if ((u & 0xffff) > 0x8000) want = hi;
        else want = (lo & 0x10000u) ? hi : lo;
        CHECK_MSG(tl_f32_to_bf16(f) == (uint16_t)(want >> 16), "f32 %08x", (unsigned)u);
    }
    return tl_test_result("dtype");
}
