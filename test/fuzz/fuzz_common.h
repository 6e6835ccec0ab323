/* fuzz_common.h - shared pieces of the tensorlayout fuzz targets: a byte
   reader, generators that turn bytes into dims, tags and strides, an
   independent offset formula, and the property checks every accepted or
   rejected descriptor must pass. Each target includes it after defining
   TENSORLAYOUT_IMPLEMENTATION and tensorlayout.h. A failed property prints
   what broke and aborts, which libFuzzer reports as a crash. */
#ifndef TL_FUZZ_COMMON_H
#define TL_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "tensorlayout.h"

#if defined(__GNUC__) || defined(__clang__)
#define FZ_UNUSED __attribute__((unused))
#else
#define FZ_UNUSED
#endif

#ifdef __cplusplus
extern "C"
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "%s:%d: fuzz property failed: %s\n", __FILE__, __LINE__, #cond); \
    abort(); } } while (0)

#define FZ_MAX_LEAF 4096    /* tensors up to this many padded elements are
                               walked exhaustively */

/* ---- reading the input ------------------------------------------------ */

/* Bytes first; once they run out, a xorshift seeded from the input keeps
   the run deterministic without making every later choice 0. */
typedef struct {
    const uint8_t *p;
    size_t n;
    uint64_t rng;
} fz_reader;

FZ_UNUSED static void fz_init(fz_reader *r, const uint8_t *data, size_t size)
{
    size_t i;
    r->p = data;
    r->n = size;
    r->rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)size;
    for (i = 0; i < size; ++i) r->rng = (r->rng ^ data[i]) * 0x100000001b3ull;
    if (!r->rng) r->rng = 1;
}

FZ_UNUSED static unsigned fz_byte(fz_reader *r)
{
    uint64_t x;
    if (r->n) { --r->n; return *r->p++; }
    x = r->rng;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    r->rng = x;
    return (unsigned)(x >> 56);
}

FZ_UNUSED static uint64_t fz_u64(fz_reader *r)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < 8; ++i) v = v << 8 | fz_byte(r);
    return v;
}

/* Uniform-ish in [0, n) for n > 0. */
FZ_UNUSED static tl_dim fz_below(fz_reader *r, tl_dim n)
{
    return (tl_dim)(fz_u64(r) % (uint64_t)n);
}

/* A dim, stride or offset as a hostile caller would pass it: mostly small,
   sometimes a power of two, near INT64_MAX, negative or raw. */
FZ_UNUSED static tl_dim fz_any_dim(fz_reader *r)
{
    unsigned sel = fz_byte(r), v = fz_byte(r);
    switch (sel % 10) {
    case 0: case 1: case 2: case 3: return (tl_dim)(v % 9);
    case 4: return (tl_dim)(v % 70);
    case 5: return (tl_dim)((uint64_t)1 << (v % 63));
    case 6: return INT64_MAX - (tl_dim)(v % 4);
    case 7: return -1 - (tl_dim)(v % 3);
    case 8: return INT64_MIN + (tl_dim)(v % 2);
    default: return (tl_dim)fz_u64(r);
    }
}

/* A dim for descriptors we mean to walk: small, occasionally 0 or big. */
FZ_UNUSED static tl_dim fz_small_dim(fz_reader *r)
{
    unsigned v = fz_byte(r);
    if (v < 200) return (tl_dim)(1 + v % 6);
    if (v < 215) return (tl_dim)(v % 20);
    if (v < 230) return 1;
    if (v < 240) return 0;
    return (tl_dim)((uint64_t)1 << (v % 40));
}

/* ---- generating descriptors ------------------------------------------ */

static const char *const fz_named_tags[] = {
    "a", "x", "ab", "ba", "nc", "cn", "oi", "io", "tnc", "ntc", "abc", "acb",
    "nchw", "nhwc", "chwn", "ncdhw", "ndhwc", "oihw", "hwio", "goihw",
    "ldnc", "ldigo", "ldgoi", "nChw16c", "nChw8c", "nCdhw4c", "NChw16n16c",
    "OIhw16i16o", "OIhw4i16o4i", "gOIhw16i16o", "Ohwi32o", "OhwI32o",
    "ABcd16b16a", "ABcd4b16a4b", "aBCde2c8b4c", "aBcd16b", "Abcd8a",
    "ABc16a16b", "BAc16a16b", "aBCdef2c8b16c2b", "gIOhw2i8o16i2o",
    "abcdefghijkl", "lkjihgfedcba", "aBcdefghijkL4l2b", "any"
};
#define FZ_NAMED_TAGS ((int)(sizeof fz_named_tags / sizeof *fz_named_tags))

/* Letters before the first digit: the number of dims a tag describes. */
FZ_UNUSED static int fz_tag_ndims(const char *tag)
{
    int n = 0;
    if (strcmp(tag, "any") == 0) return -1;
    while (tag[n] && !(tag[n] >= '0' && tag[n] <= '9')) ++n;
    return n;
}

/* A well-formed abstract tag: a permutation of the first ndims letters,
   then 0-3 blocks on random dims, blocked letters upper case. */
FZ_UNUSED static void fz_make_abstract_tag(fz_reader *r, int ndims, char *tag)
{
    static const int sizes[] = { 2, 3, 4, 8, 16, 1, 5, 32 };
    int order[TL_MAX_NDIMS], blocked[TL_MAX_NDIMS], i, nblks, n = 0;
    int bdim[3], bsize[3];
    for (i = 0; i < ndims; ++i) { order[i] = i; blocked[i] = 0; }
    for (i = ndims - 1; i > 0; --i) {
        int j = (int)(fz_byte(r) % (unsigned)(i + 1)), t = order[i];
        order[i] = order[j]; order[j] = t;
    }
    nblks = (int)(fz_byte(r) % 4);
    for (i = 0; i < nblks; ++i) {
        bdim[i] = (int)(fz_byte(r) % (unsigned)ndims);
        bsize[i] = sizes[fz_byte(r) % 8];
        blocked[bdim[i]] = 1;
    }
    for (i = 0; i < ndims; ++i)
        tag[n++] = (char)((blocked[order[i]] ? 'A' : 'a') + order[i]);
    for (i = 0; i < nblks; ++i)
        n += sprintf(tag + n, "%d%c", bsize[i], 'a' + bdim[i]);
    tag[n] = '\0';
}

/* Non-overlapping strides for dims: a random dim order, dense with random
   gaps; size-1 dims sometimes get a wild stride (it is never used). The
   arithmetic is unsigned so hostile dims wrap instead of being UB; the
   library must then refuse the result. */
FZ_UNUSED static void fz_make_strides(fz_reader *r, int ndims, const tl_dim *dims,
                                      tl_dim *strides)
{
    int order[TL_MAX_NDIMS], i;
    uint64_t s = 1;
    for (i = 0; i < ndims; ++i) order[i] = i;
    for (i = ndims - 1; i > 0; --i) {
        int j = (int)(fz_byte(r) % (unsigned)(i + 1)), t = order[i];
        order[i] = order[j]; order[j] = t;
    }
    for (i = ndims - 1; i >= 0; --i) {
        int d = order[i];
        unsigned g = fz_byte(r);
        if (g >= 192) s += g % 7;                 /* a gap */
        strides[d] = (tl_dim)(s & (uint64_t)INT64_MAX);
        if (dims[d] == 1 && g % 16 == 0) strides[d] = fz_any_dim(r);
        s *= (uint64_t)(dims[d] > 0 ? dims[d] : 1);
    }
}

/* ---- independent reference ------------------------------------------- */

/* The offset of idx, computed outermost block first (the library walks
   innermost first): the outer part is position / (the dim's whole block)
   times the stride; the inner part reads each block's digit of the
   position as a mixed-radix number. */
FZ_UNUSED static tl_dim fz_ref_offset(const tl_memory_desc *md, const tl_dim *idx)
{
    tl_dim pos[TL_MAX_NDIMS], whole[TL_MAX_NDIMS], off = md->offset0, inner = 0;
    int d, b, c;
    const tl_blocking_desc *bk = &md->blocking;
    for (d = 0; d < TL_MAX_NDIMS; ++d) whole[d] = 1;   /* all: -O3 cannot see idxs < ndims */
    for (d = 0; d < md->ndims; ++d) pos[d] = idx[d] + md->padded_offsets[d];
    for (b = 0; b < bk->inner_nblks; ++b) whole[bk->inner_idxs[b]] *= bk->inner_blks[b];
    for (d = 0; d < md->ndims; ++d) off += pos[d] / whole[d] * bk->strides[d];
    for (b = 0; b < bk->inner_nblks; ++b) {
        tl_dim below = 1;
        for (c = b + 1; c < bk->inner_nblks; ++c)
            if (bk->inner_idxs[c] == bk->inner_idxs[b]) below *= bk->inner_blks[c];
        inner = inner * bk->inner_blks[b] + pos[bk->inner_idxs[b]] / below % bk->inner_blks[b];
    }
    return off + inner;
}

/* Index range of dim d that tl_md_offset accepts. */
FZ_UNUSED static tl_dim fz_range(const tl_memory_desc *md, int d)
{
    return md->padded_dims[d] - md->padded_offsets[d];
}

/* 1 for a logical element, 0 for a padding slot. */
FZ_UNUSED static int fz_is_data(const tl_memory_desc *md, const tl_dim *idx)
{
    int k;
    for (k = 0; k < md->ndims; ++k)
        if (idx[k] >= md->dims[k]) return 0;
    return 1;
}

/* Steps idx row-major over the padded dims; 0 after the last index. */
FZ_UNUSED static int fz_next_padded(const tl_memory_desc *md, tl_dim *idx)
{
    int k;
    for (k = md->ndims - 1; k >= 0; --k) {
        if (++idx[k] < md->padded_dims[k]) return 1;
        idx[k] = 0;
    }
    return 0;
}

FZ_UNUSED static int fz_has_zero_dim(const tl_memory_desc *md)
{
    int d;
    for (d = 0; d < md->ndims; ++d) if (md->dims[d] == 0) return 1;
    return 0;
}

/* The offset of idx is inside the buffer and agrees with the reference. */
FZ_UNUSED static tl_dim fz_check_offset(const tl_memory_desc *md, const tl_dim *idx,
                                        size_t size)
{
    tl_dim off = tl_md_offset(md, idx);
    size_t esz = tl_dt_size(md->data_type);
    FZ_CHECK(off >= 0);
    FZ_CHECK((uint64_t)off < (uint64_t)(size / esz));
    FZ_CHECK(off == fz_ref_offset(md, idx));
    return off;
}

/* Padded elements of md when it has at most `limit`, else -1. */
FZ_UNUSED static tl_dim fz_small_count(const tl_memory_desc *md, tl_dim limit)
{
    tl_dim n = 1;
    int d;
    for (d = 0; d < md->ndims; ++d) {
        tl_dim r = fz_range(md, d);
        if (r == 0) return 0;
        if (r > limit || n > limit / r) return -1;
        n *= r;
    }
    return n;
}

FZ_UNUSED static int fz_cmp_dim(const void *a, const void *b)
{
    tl_dim x = *(const tl_dim *)a, y = *(const tl_dim *)b;
    return (x > y) - (x < y);
}

/* Walks every padded index of an accepted descriptor with at most limit
   (<= FZ_MAX_LEAF) of them: offsets inside the size, equal to the
   reference, and pairwise distinct (the layout does not overlap, padding
   slots included). */
FZ_UNUSED static void fz_check_all_offsets(const tl_memory_desc *md, size_t size,
                                           tl_dim limit)
{
    static tl_dim offs[FZ_MAX_LEAF];
    tl_dim idx[TL_MAX_NDIMS] = {0}, n = fz_small_count(md, limit), k = 0;
    int d;
    if (n <= 0 || fz_has_zero_dim(md)) return;
    do {
        offs[k++] = fz_check_offset(md, idx, size);
        for (d = md->ndims - 1; d >= 0; --d) {
            if (++idx[d] < fz_range(md, d)) break;
            idx[d] = 0;
        }
    } while (d >= 0);
    FZ_CHECK(k == n);
    qsort(offs, (size_t)n, sizeof *offs, fz_cmp_dim);
    for (k = 1; k < n; ++k) FZ_CHECK(offs[k - 1] != offs[k]);
}

#endif
