/* Built with OpenMP: tl_shuffle on 1, 2, 3 and 4 threads (omp_set_num_threads,
   which tl_shuffle reads through omp_get_max_threads) against the naive
   reference of test_shuffle_cases.h, over the whole buffer: padding zero,
   bytes outside md untouched. Compiled twice: the core alone, and with
   tensorlayout_simd.h (-DTEST_SHUFFLE_OMP_SIMD), whose kernels must run
   on the threads' parts of the plan too. Sizes sit above the threshold
   where threads start, so each case also checks that they do. */
/* static: the compiler drops the kernels this program never calls */
#define TENSORLAYOUT_STATIC
#define TENSORLAYOUT_IMPLEMENTATION
#ifdef TEST_SHUFFLE_OMP_SIMD
#include "tensorlayout_simd.h"
#else
#include "tensorlayout.h"
#endif
#include <omp.h>
#include "tl_test.h"
#include "test_shuffle_cases.h"

#define GUARD 64   /* bytes after the tensor that nothing may write */

static const int thread_counts[] = {1, 2, 3, 4};
#define NCOUNTS ((int)(sizeof thread_counts / sizeof *thread_counts))

typedef struct {
    int runs, vectorized, split_run, split_loop;   /* over all cases */
} tally;

/* The plan tl_shuffle makes, asked how it would share the work among
   nt threads: the test's proof that the comparisons ran threaded. */
static int planned_threads(const tl_memory_desc *md, const void *src, void *dst, int axis,
                           tl_dim g, tl_direction dir, int nt, tl__shuffle_split *how)
{
    tl__shuffle_plan p;
    int empty;
    CHECK_EQ(tl__shuffle_plan_init(&p, md, src, dst, axis, g, dir, &empty), TL_OK);
    CHECK_EQ(empty, 0);
    return tl__shuffle_threads(&p, nt, how);
}

/* md lies in a buffer of `size` bytes (a view's parent, or md itself). */
static void check_case(const tl_memory_desc *md, size_t size, int axis, tl_dim g,
                       tl_direction dir, const char *what, tally *t)
{
    size_t n = size + GUARD;
    unsigned char *src = (unsigned char *)malloc(n), *first = (unsigned char *)malloc(n);
    unsigned char *want = (unsigned char *)malloc(n), *out = (unsigned char *)malloc(n);
    int i;
    fill_random(src, n);
    fill_random(first, n);
    memcpy(want, first, n);
    ref_shuffle(md, src, want, axis, g, dir);
    for (i = 0; i < NCOUNTS; ++i) {
        int nt = thread_counts[i], vec = -1, used;
        tl__shuffle_split how;
        omp_set_num_threads(nt);
        CHECK_EQ(omp_get_max_threads(), nt);
        used = planned_threads(md, src, out, axis, g, dir, nt, &how);
        /* every case is big enough to share, at least between two */
        CHECK_MSG(nt == 1 ? used == 1 : used >= 2, "%s %s g %lld: %d threads for %d", what,
                  tl_dt_name(md->data_type), (long long)g, used, nt);
        if (used > 1 && how == TL__SHUFFLE_SPLIT_RUN) ++t->split_run;
        else if (used > 1) ++t->split_loop;
        memcpy(out, first, n);
        CHECK_EQ(tl__shuffle_impl(md, src, out, axis, g, dir, &vec), TL_OK);
        t->vectorized += vec;
        ++t->runs;
        CHECK_MSG(memcmp(out, want, n) == 0, "%s %s C %lld g %lld %s, %d threads: wrong bytes",
                  what, tl_dt_name(md->data_type), (long long)md->dims[axis], (long long)g,
                  dir == TL_FORWARD ? "fwd" : "bwd", nt);
    }
    free(src);
    free(first);
    free(want);
    free(out);
}

/* Plain and blocked tags; C is no multiple of 8 or 16 (padding), N = 1
   (nchw: one run per channel, so the run is what gets shared) and N > 1
   (N = 3: loops[0] shares unevenly among 2 or 4). Every data type goes
   both ways over the shapes and tags (a reference per element through
   tl_md_offset is slow under valgrind, so not every combination runs).
   Group sizes: 2 and C/2 (the SIMD unzip and zip) and one the kernels
   leave to the core. */
static void tag_cases(tally *t)
{
    static const char *tags[] = {"nchw", "nhwc", "nChw8c", "nChw16c"};
    static const tl_dim shapes[3][4] = {{1, 116, 32, 32}, {3, 100, 16, 18}, {8, 60, 12, 14}};
    static const tl_dim odd_group[3] = {29, 5, 15};
    static const tl_data_type dts[] = {TL_F32, TL_U8, TL_BF16};
    int s, k, d;
    for (s = 0; s < 3; ++s)
        for (k = 0; k < 4; ++k)
            for (d = 0; d < 3; ++d) {
                tl_memory_desc md;
                tl_dim C = shapes[s][1], groups[3];
                tl_direction dir = (s + k + d) % 2 ? TL_BACKWARD : TL_FORWARD;
                char what[64];
                groups[0] = 2;
                groups[1] = C / 2;
                groups[2] = odd_group[s];
                CHECK_EQ(tl_md_init_by_tag(&md, 4, shapes[s], dts[d], tags[k]), TL_OK);
                sprintf(what, "%s %lldx%lldx%lldx%lld", tags[k], (long long)shapes[s][0],
                        (long long)C, (long long)shapes[s][2], (long long)shapes[s][3]);
                check_case(&md, tl_md_size(&md), 1, groups[(s + k + 2 * d) % 3], dir, what, t);
            }
}

/* Views: rows of an nchw parent (offset0 > 0, the rest of the parent
   untouched) and a channel range of an nhwc parent (gaps between pixels).
   Then the axis is not the padded dim: the copy fills the channel padding
   with src's bytes, and the zeroing, shared between the same threads,
   must come after every thread's copy. */
static void view_and_axis_cases(tally *t)
{
    tl_dim pdims[4] = {1, 116, 40, 40}, vdims[4] = {1, 116, 32, 40}, at[4] = {0, 0, 4, 0};
    tl_dim cdims[4] = {2, 128, 20, 24}, cpart[4] = {2, 96, 20, 24}, cat[4] = {0, 8, 0, 0};
    tl_dim hdims[4] = {2, 100, 24, 20};
    tl_memory_desc parent, view, md;
    int dir;
    for (dir = 0; dir < 2; ++dir) {
        CHECK_EQ(tl_md_init_by_tag(&parent, 4, pdims, TL_F32, "nchw"), TL_OK);
        CHECK_EQ(tl_md_submemory(&view, &parent, vdims, at), TL_OK);
        check_case(&view, tl_md_size(&parent), 1, 4, (tl_direction)dir, "nchw row view", t);
        CHECK_EQ(tl_md_init_by_tag(&parent, 4, cdims, TL_BF16, "nhwc"), TL_OK);
        CHECK_EQ(tl_md_submemory(&view, &parent, cpart, cat), TL_OK);
        check_case(&view, tl_md_size(&parent), 1, 2, (tl_direction)dir, "nhwc channel view", t);
        CHECK_EQ(tl_md_init_by_tag(&md, 4, hdims, TL_U8, "nChw16c"), TL_OK);
        check_case(&md, tl_md_size(&md), 2, 4, (tl_direction)dir, "nChw16c along h", t);
        CHECK_EQ(tl_md_init_by_tag(&md, 4, hdims, TL_F32, "nChw8c"), TL_OK);
        check_case(&md, tl_md_size(&md), 3, 5, (tl_direction)dir, "nChw8c along w", t);
    }
}

/* Small tensors stay on the calling thread; bad arguments still write
   nothing while threads are allowed. */
static void small_and_bad(void)
{
    tl_dim small[4] = {1, 16, 8, 8}, big[4] = {2, 116, 28, 28};
    tl_memory_desc md;
    tl__shuffle_split how;
    unsigned char *src, *dst, *keep;
    size_t n;
    omp_set_num_threads(4);
    CHECK_EQ(tl_md_init_by_tag(&md, 4, small, TL_F32, "nchw"), TL_OK);
    n = tl_md_size(&md);
    src = (unsigned char *)malloc(n);
    dst = (unsigned char *)malloc(n);
    CHECK_EQ(planned_threads(&md, src, dst, 1, 2, TL_FORWARD, 4, &how), 1);
    free(src);
    free(dst);

    CHECK_EQ(tl_md_init_by_tag(&md, 4, big, TL_F32, "nChw16c"), TL_OK);
    n = tl_md_size(&md);
    src = (unsigned char *)malloc(2 * n);
    dst = (unsigned char *)malloc(n);
    keep = (unsigned char *)malloc(2 * n);
    fill_random(src, 2 * n);
    fill_random(dst, n);
    memcpy(keep, dst, n);
    CHECK_EQ(tl_shuffle(&md, src, dst, 1, 3, TL_FORWARD), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_shuffle(&md, src, dst, 4, 2, TL_FORWARD), TL_INVALID_ARGUMENTS);
    CHECK(memcmp(dst, keep, n) == 0);
    memcpy(keep, src, 2 * n);
    CHECK_EQ(tl_shuffle(&md, src, src + n / 2, 1, 2, TL_FORWARD), TL_OVERLAP);
    CHECK(memcmp(src, keep, 2 * n) == 0);
    free(src);
    free(dst);
    free(keep);
}

int main(void)
{
    tally t;
    memset(&t, 0, sizeof t);
    tag_cases(&t);
    view_and_axis_cases(&t);
    small_and_bad();
    printf("%d shuffles: %d on SIMD kernels; threads shared loops[0] %d times, the run %d\n",
           t.runs, t.vectorized, t.split_loop, t.split_run);
    /* both ways of sharing ran, so both were compared */
    CHECK_MSG(t.split_run > 10 && t.split_loop > 50, "run splits %d, loop splits %d",
              t.split_run, t.split_loop);
#ifdef TEST_SHUFFLE_OMP_SIMD
    CHECK_MSG(t.vectorized > 50, "SIMD kernels ran %d times of %d", t.vectorized, t.runs);
    return tl_test_result("shuffle_omp_simd");
#else
    CHECK_EQ(t.vectorized, 0);
    return tl_test_result("shuffle_omp");
#endif
}
