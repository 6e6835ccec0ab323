/* tl_reorder against the naive reference of test_reorder_util.h, bit for
   bit over the whole destination buffer (so padding written as zero and
   bytes outside the described elements, such as a view's parent, left
   alone are checked too): random layout pairs (tags with tails and
   double blocks, gapped strides, views, permuted descriptors) x every
   data-type pair x random attributes. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include "test_reorder_util.h"

#ifndef RT_PAIRS
#define RT_PAIRS 80
#endif

static void random_dims(int *ndims, tl_dim *dims)
{
    tl_dim total = 1;
    int d;
    *ndims = (int)tl_test_range(1, 5);
    for (d = 0; d < *ndims; ++d) {
        dims[d] = tl_test_range(1, total > 200 ? 2 : 9);
        total *= dims[d];
    }
}

/* Which plan shapes the random problems reached: each must occur. */
static long seen_by_index, seen_tails, seen_no_tails, seen_mode[3];

static void note_plan(const rt_layout *sl, const rt_layout *dl, const tl_reorder_attr *attr)
{
    tl_reorder_plan plan;
    if (tl_reorder_plan_init(&plan, &sl->md, &dl->md, attr) != TL_OK) return;
    seen_by_index += plan.src_by_index;
    seen_tails += plan.has_tails;
    seen_no_tails += !plan.has_tails;
    ++seen_mode[plan.mode];
}

static int run_one(const rt_layout *sl, const rt_layout *dl, const tl_reorder_attr *attr)
{
    char *src = (char *)malloc(sl->bytes), *dst = (char *)malloc(dl->bytes);
    char *exp = (char *)malloc(dl->bytes), what[512];
    tl_status st;
    int ok = 1;
    rt_fill(&sl->md, src, sl->bytes);
    rt_fill(&dl->md, dst, dl->bytes);
    memcpy(exp, dst, dl->bytes);
    rt_ref_reorder(&sl->md, src, &dl->md, exp, attr);
    st = tl_reorder(&sl->md, src, &dl->md, dst, attr);
    rt_describe(&sl->md, sl, &dl->md, dl, attr, what);
    note_plan(sl, dl, attr);
    CHECK_MSG(st == TL_OK, "%s: %s", what, tl_status_str(st));
    if (st == TL_OK && memcmp(exp, dst, dl->bytes) != 0) {
        size_t i;
        for (i = 0; i < dl->bytes && exp[i] == dst[i]; ++i) {}
        CHECK_MSG(0, "%s: byte %lu differs (%02x, expected %02x)", what, (unsigned long)i,
                  (unsigned)(unsigned char)dst[i], (unsigned)(unsigned char)exp[i]);
        ok = 0;
    }
    free(src); free(dst); free(exp);
    return ok;
}

int main(void)
{
    static float scales[4096];
    int pair, si, di, fails = 0;
    for (pair = 0; pair < tl_test_cases(RT_PAIRS) && fails < 10; ++pair) {
        tl_dim dims[TL_MAX_NDIMS];
        int ndims;
        random_dims(&ndims, dims);
        for (si = 0; si < RT_NDTS; ++si)
            for (di = 0; di < RT_NDTS; ++di) {
                rt_layout sl, dl;
                tl_reorder_attr attr;
                rt_random_layout(&sl, ndims, dims, rt_dts[si]);
                rt_random_layout(&dl, ndims, dims, rt_dts[di]);
                if (tl_test_range(0, 7) == 0) {
                    dl.md.extra.flags |= TL_MD_EXTRA_SCALE_ADJUST;
                    dl.md.extra.scale_adjust = tl_test_range(0, 1) ? 0.5f : 0.3f;
                }
                rt_random_attr(&attr, &dl.md, scales);
                attr.nthreads = (int)tl_test_range(0, 1);
                if (!run_one(&sl, &dl, &attr)) ++fails;
            }
    }
    CHECK(seen_by_index > 0 && seen_tails > 0 && seen_no_tails > 0);
    CHECK(seen_mode[TL_REORDER_MODE_CONVERT] > 0 && seen_mode[TL_REORDER_MODE_COPY] > 0 &&
          seen_mode[TL_REORDER_MODE_WIDEN] > 0);
    return tl_test_result("reorder_ref");
}
