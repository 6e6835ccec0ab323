/* tl_test.h - tiny checks for the tensorlayout tests. Each failed check
   prints file:line and the expression; main returns tl_test_result(). */
#ifndef TL_TEST_H
#define TL_TEST_H
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TL_TEST_UNUSED __attribute__((unused))
#else
#define TL_TEST_UNUSED
#endif

TL_TEST_UNUSED static int tl_test_failures = 0;
TL_TEST_UNUSED static long tl_test_checks = 0;

#define CHECK(cond) do { ++tl_test_checks; if (!(cond)) { ++tl_test_failures; \
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ(a, b) do { long long tl_a_ = (long long)(a), tl_b_ = (long long)(b); \
    ++tl_test_checks; if (tl_a_ != tl_b_) { ++tl_test_failures; \
    fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", \
            __FILE__, __LINE__, #a, tl_a_, #b, tl_b_); } } while (0)
#define CHECK_MSG(cond, ...) do { ++tl_test_checks; if (!(cond)) { ++tl_test_failures; \
    fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

/* Deterministic xorshift so failures reproduce. */
TL_TEST_UNUSED static uint64_t tl_test_rng_state = 0x9e3779b97f4a7c15ull;
TL_TEST_UNUSED static uint64_t tl_test_rand(void)
{
    uint64_t x = tl_test_rng_state;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    return tl_test_rng_state = x;
}
TL_TEST_UNUSED static int64_t tl_test_range(int64_t lo, int64_t hi) /* inclusive */
{
    return lo + (int64_t)(tl_test_rand() % (uint64_t)(hi - lo + 1));
}

/* How many of a sweep's n random cases to run: a quarter under
   TL_TEST_QUICK=1, which .ci/run sets for the sanitizer and valgrind
   passes (every case there runs 10 to 30 times slower, and what they look
   for, bad memory accesses, does not need every random draw); all
   otherwise. Exhaustive sweeps (every f16 value) do not use it. */
TL_TEST_UNUSED static long tl_test_cases(long n)
{
    const char *q = getenv("TL_TEST_QUICK");
    return q && *q && *q != '0' ? (n + 3) / 4 : n;
}

/* n bytes whose last one is followed by an unreadable page, so that a
   load past the end of a source buffer crashes the test in any build
   (AddressSanitizer let a 64-byte AVX-512 load 28 bytes past a buffer
   go unreported). Needs mmap's MAP_ANONYMOUS: a file that wants the
   fence defines _DEFAULT_SOURCE before its first include; elsewhere
   this is plain malloc. *base and *len are for tl_test_fenced_free. */
TL_TEST_UNUSED static unsigned char *tl_test_fenced(size_t n, void **base, size_t *len)
{
#if defined(__unix__) && defined(MAP_ANONYMOUS)
    size_t ps = (size_t)sysconf(_SC_PAGESIZE), body = (n + ps - 1) / ps * ps;
    unsigned char *p = (unsigned char *)mmap(NULL, body + ps, PROT_READ | PROT_WRITE,
                                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == (unsigned char *)MAP_FAILED) return NULL;
    *base = p;
    *len = body + ps;
    if (mprotect(p + body, ps, PROT_NONE) != 0) {
        munmap(p, *len);
        return NULL;
    }
    return p + body - n;
#else
    *base = malloc(n);
    *len = 0;
    return (unsigned char *)*base;
#endif
}

TL_TEST_UNUSED static void tl_test_fenced_free(void *base, size_t len)
{
#if defined(__unix__) && defined(MAP_ANONYMOUS)
    if (base) munmap(base, len);
#else
    (void)len;
    free(base);
#endif
}

TL_TEST_UNUSED static int tl_test_result(const char *name)
{
    if (tl_test_checks == 0) {
        fprintf(stderr, "%s: no checks ran\n", name);
        return 1;
    }
    printf("%s: %ld checks, %d failed\n", name, tl_test_checks, tl_test_failures);
    return tl_test_failures ? 1 : 0;
}

#ifdef TENSORLAYOUT_H
/* The references' element offset of the logical index idx in a valid
   md, written apart from tl_md_offset (which test_offset checks against
   a walk of memory): the outer part of each dim's position times its
   stride, then the inner blocks as the digits of one row-major index.
   tl_md_offset validates the whole descriptor at every call, which
   took three quarters of the references' time (and of CI's valgrind
   pass: shuffle_omp_simd spent 88% of 9 billion instructions there). */
TL_TEST_UNUSED static tl_dim tl_test_offset(const tl_memory_desc *md, const tl_dim *idx)
{
    const tl_blocking_desc *bd = &md->blocking;
    tl_dim pos[TL_MAX_NDIMS], span[TL_MAX_NDIMS], off = md->offset0, inner = 0;
    int d, b;
    for (d = 0; d < TL_MAX_NDIMS; ++d)  /* all of them: -O3 cannot see inner_idxs < ndims */
        span[d] = 1;            /* elements one step of the dim's inner blocks covers */
    for (d = 0; d < md->ndims; ++d) pos[d] = idx[d] + md->padded_offsets[d];
    for (b = 0; b < bd->inner_nblks; ++b) span[bd->inner_idxs[b]] *= bd->inner_blks[b];
    for (d = 0; d < md->ndims; ++d) off += pos[d] / span[d] * bd->strides[d];
    for (b = 0; b < bd->inner_nblks; ++b) {
        int i = (int)bd->inner_idxs[b];
        span[i] /= bd->inner_blks[b];           /* what the blocks inside this one cover */
        inner = inner * bd->inner_blks[b] + pos[i] / span[i] % bd->inner_blks[b];
    }
    return off + inner;
}
#endif
#endif
