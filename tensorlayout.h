/* tensorlayout.h - v0.1 - tensor memory descriptors, format tags, reorders
   C99 and C++. License: MIT, see end of file.

   In exactly ONE .c or .cpp file, before the include:
       #define TENSORLAYOUT_IMPLEMENTATION

   Options (define before the include that creates the implementation):
       TENSORLAYOUT_STATIC   make every function static (private to that file)
       TL_ASSERT(x)          your assert (default: assert from <assert.h>)
       TL_MALLOC(sz,ctx) / TL_FREE(p,ctx)   define both or neither

   Quick start (must compile; a test copies it):
       tl_memory_desc src, dst;
       tl_status st = tl_md_init_by_tag(&src, 4, dims, TL_F32, "nchw");
       if (!st) st = tl_md_init_by_tag(&dst, 4, dims, TL_F32, "nChw16c");
       if (!st) st = tl_reorder(&src, src_ptr, &dst, dst_ptr, NULL);
       if (st) fprintf(stderr, "tl: %s\n", tl_status_str(st));

   Threads: every function is reentrant; concurrent calls are safe as long
   as their outputs do not overlap, and any number of threads may read one
   const tl_memory_desc. There is no global mutable state.

   Reference (docs/ has the long form, with pictures):
       docs/memory-descriptors.md   tl_memory_desc, sizes, offsets, views
       docs/format-tags.md          the tag grammar, worked examples
       docs/reorder.md              tl_reorder and its attributes
       docs/shuffle.md              tl_shuffle
       docs/gpu-images.md           tensorlayout_ocl.h
*/
#ifndef TENSORLAYOUT_H
#define TENSORLAYOUT_H

#include <stddef.h>
#include <stdint.h>

#ifndef TL_API
#ifdef TENSORLAYOUT_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define TL_API static __attribute__((unused))
#else
#define TL_API static
#endif
#else
#define TL_API extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status codes ---------------------------------------------------- */

/* One list makes both the enum and the strings, so they cannot drift. */
#define TL__STATUS_LIST(X) \
    X(OK,                "ok") \
    X(INVALID_ARGUMENTS, "invalid argument") \
    X(UNSUPPORTED,       "combination not supported") \
    X(SHAPE_MISMATCH,    "src and dst dims differ") \
    X(OVERFLOW,          "size or offset does not fit in int64") \
    X(OVERLAP,           "src and dst memory overlap") \
    X(BUFFER_TOO_SMALL,  "output buffer too small") \
    X(OUT_OF_MEMORY,     "TL_MALLOC returned NULL") \
    X(DEVICE_LIMIT,      "exceeds a device limit") \
    X(DEVICE_ERROR,      "an OpenCL call failed")

#define TL__STATUS_ENUM(name, text) TL_##name,
typedef enum { TL__STATUS_LIST(TL__STATUS_ENUM) TL__STATUS_COUNT } tl_status;
#undef TL__STATUS_ENUM

/* A fixed English sentence for s; never NULL ("unknown tl_status"). */
TL_API const char *tl_status_str(tl_status s);

/* ---- data types ------------------------------------------------------ */

#define TL_MAX_NDIMS 12
typedef int64_t tl_dim;   /* dims, strides and offsets: elements, not bytes */

typedef enum {
    TL_DT_UNDEF = 0,
    TL_F32, TL_F16, TL_BF16, TL_S32, TL_S8, TL_U8, TL_F64,
    TL__DT_COUNT
} tl_data_type;

/* Bytes per element; 0 for TL_DT_UNDEF or an unknown value. */
TL_API size_t tl_dt_size(tl_data_type dt);
/* "f32", "f16", "bf16", "s32", "s8", "u8", "f64"; "undef" otherwise. */
TL_API const char *tl_dt_name(tl_data_type dt);
/* The inverse of tl_dt_name; TL_DT_UNDEF for an unknown name or NULL. */
TL_API tl_data_type tl_dt_from_name(const char *name);

/* IEEE half and bfloat16 stored as raw bits. f32 -> f16/bf16 round to
   nearest even; a NaN stays a NaN with its sign; f16 overflow gives inf. */
TL_API uint16_t tl_f32_to_f16(float f);
TL_API float    tl_f16_to_f32(uint16_t h);
TL_API uint16_t tl_f32_to_bf16(float f);
TL_API float    tl_bf16_to_f32(uint16_t b);

/* ---- memory descriptors ---------------------------------------------- */

typedef enum {
    TL_FORMAT_KIND_UNDEF = 0,
    TL_FORMAT_KIND_ANY,       /* placeholder: no size, not executable */
    TL_FORMAT_KIND_BLOCKED    /* strides + dense inner blocks */
} tl_format_kind;

typedef struct {
    tl_dim strides[TL_MAX_NDIMS];    /* of the outer ("major") dims, in
                                        elements; one per logical dim */
    int    inner_nblks;              /* 0: plain strided layout */
    tl_dim inner_blks[TL_MAX_NDIMS]; /* outermost inner block first */
    tl_dim inner_idxs[TL_MAX_NDIMS]; /* logical dim of each inner block */
} tl_blocking_desc;

#define TL_MD_EXTRA_NONE              0u
#define TL_MD_EXTRA_COMPENSATION_S8S8 1u   /* int32 per compensation slice,
                                              stored after the data */
#define TL_MD_EXTRA_SCALE_ADJUST      2u   /* values scaled by scale_adjust */
typedef struct {
    uint64_t flags;              /* TL_MD_EXTRA_*; 0 = none */
    int      compensation_mask;  /* bit d: compensation varies along dim d */
    float    scale_adjust;       /* read only when TL_MD_EXTRA_SCALE_ADJUST */
} tl_md_extra;

/* A tensor in memory. Zero-initialised means "undefined". Make one with
   tl_md_init_by_tag or tl_md_init_by_strides rather than by hand; if you
   do fill it yourself, tl_md_validate says what is wrong with it. */
typedef struct {
    int            ndims;                       /* 1..TL_MAX_NDIMS */
    tl_dim         dims[TL_MAX_NDIMS];          /* logical, outermost first */
    tl_data_type   data_type;
    tl_dim         padded_dims[TL_MAX_NDIMS];   /* >= dims: block multiples */
    tl_dim         padded_offsets[TL_MAX_NDIMS];/* where dims start inside
                                                   padded_dims; usually 0 */
    tl_dim         offset0;                     /* elements from the buffer
                                                   start to element 0 */
    tl_format_kind format_kind;
    tl_blocking_desc blocking;
    tl_md_extra    extra;           /* flags, compensation mask, scale_adjust */
} tl_memory_desc;

/* Fills *md from a format tag ("nchw", "nChw16c", "OIhw4i16o4i", "aBcd16b",
   "any"; grammar in docs/format-tags.md). dims: ndims values >= 0, no
   padding. On error *md is left byte-for-byte untouched. */
TL_API tl_status tl_md_init_by_tag(tl_memory_desc *md, int ndims,
                                   const tl_dim *dims, tl_data_type dt,
                                   const char *tag);

/* Fills *md as a plain strided layout. strides in elements, one per dim,
   non-negative and non-overlapping (docs/memory-descriptors.md); NULL
   means dense row-major. On error *md is untouched. */
TL_API tl_status tl_md_init_by_strides(tl_memory_desc *md, int ndims,
                                       const tl_dim *dims, tl_data_type dt,
                                       const tl_dim *strides);

/* Checks every field of md. Returns TL_OK or an error, and writes one
   sentence naming the field into why (may be NULL; always terminated). */
TL_API tl_status tl_md_validate(const tl_memory_desc *md, char *why,
                                size_t len);

/* Bytes a buffer needs: from its start (offset0 included) to the end of
   the last element, padding and extra data (compensation) included.
   0 for an invalid descriptor, `any`, or a tensor with a zero dim. */
TL_API size_t tl_md_size(const tl_memory_desc *md);

/* Number of elements: with_padding != 0 counts padded_dims, else dims.
   -1 for an invalid descriptor. */
TL_API tl_dim tl_md_nelems(const tl_memory_desc *md, int with_padding);

/* Element offset from the buffer start (offset0 included) of the logical
   index idx, 0 <= idx[d] < padded_dims[d]. -1 if md is invalid or idx is
   out of range. */
TL_API tl_dim tl_md_offset(const tl_memory_desc *md, const tl_dim *idx);

/* The inverse of tl_md_offset for a dense-enough descriptor: finds the
   logical index stored at element offset `off`. Returns 1 and fills idx
   when an element (or padding slot, then *is_padding = 1) lives there,
   0 when no element maps to `off`, -1 for bad input. Walks the tensor:
   for inspection tools, not for inner loops. is_padding may be NULL. */
TL_API int tl_md_index_of(const tl_memory_desc *md, tl_dim off, tl_dim *idx,
                          int *is_padding);

/* 1 if md has the layout of tag for its own dims and data type. strides
   NULL: the tag's dense strides must match; else strides[d] must match
   where it is not -1. Strides of unpadded size-1 dims are not compared.
   0 otherwise (also for bad input). */
TL_API int tl_md_matches_tag(const tl_memory_desc *md, const char *tag,
                             const tl_dim *strides);

/* The canonical abstract tag ("aBcd16b") of a dense blocked descriptor,
   NUL-terminated into buf. TL_UNSUPPORTED when no tag gives md's strides,
   TL_BUFFER_TOO_SMALL when len is too small; buf untouched on error. */
TL_API tl_status tl_md_to_tag(const tl_memory_desc *md, char *buf,
                              size_t len);

/* A view of part of parent: dims + offsets <= parent dims. On a blocked
   dim the offset must be a multiple of the block, and so must dims unless
   the view reaches the parent's end. The view inherits strides and blocks;
   offset0 absorbs the offsets. */
TL_API tl_status tl_md_submemory(tl_memory_desc *out,
                                 const tl_memory_desc *parent,
                                 const tl_dim *dims, const tl_dim *offsets);

/* Renames dims without moving data: in's dim d becomes out's dim perm[d]
   (oneDNN's convention). perm must be a permutation of 0..ndims-1. */
TL_API tl_status tl_md_permute_axes(tl_memory_desc *out,
                                    const tl_memory_desc *in, const int *perm);

/* Same bytes, new dims: inserts or removes size-1 dims on any layout, and
   merges or splits dims where that needs no copy (unblocked dims that are
   contiguous in memory). TL_UNSUPPORTED otherwise. */
TL_API tl_status tl_md_reshape(tl_memory_desc *out, const tl_memory_desc *in,
                               int ndims, const tl_dim *dims);

/* 1 if a and b describe the same memory (every meaningful field equal;
   strides of unpadded size-1 dims are compared too). */
TL_API int tl_md_equal(const tl_memory_desc *a, const tl_memory_desc *b);

/* ---- reorder (declarations) ------------------------------------------ */

/* ---- shuffle (declarations) ------------------------------------------ */

#ifdef __cplusplus
}
#endif
#endif /* TENSORLAYOUT_H */

/* ---- implementation below; stop here if you only want the API ---- */
#ifdef TENSORLAYOUT_IMPLEMENTATION
#ifndef TL__IMPLEMENTATION_DONE
#define TL__IMPLEMENTATION_DONE

#include <string.h>
#include <limits.h>

#ifndef TL_ASSERT
#include <assert.h>
#define TL_ASSERT(x) assert(x)
#endif

#if defined(TL_MALLOC) && !defined(TL_FREE) || !defined(TL_MALLOC) && defined(TL_FREE)
#error "tensorlayout: define both TL_MALLOC(sz,ctx) and TL_FREE(p,ctx), or neither"
#endif
#ifndef TL_MALLOC
#include <stdlib.h>
#define TL_MALLOC(sz, ctx) ((void)(ctx), malloc(sz))
#define TL_FREE(p, ctx) ((void)(ctx), free(p))
#endif

#if defined(__cplusplus)
#define TL__RESTRICT __restrict
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define TL__RESTRICT restrict
#else
#define TL__RESTRICT
#endif

#define TL__DIM_MAX INT64_MAX

/* ---- status strings -------------------------------------------------- */

TL_API const char *tl_status_str(tl_status s)
{
#define TL__STATUS_TEXT(name, text) text,
    static const char *const texts[] = { TL__STATUS_LIST(TL__STATUS_TEXT) };
#undef TL__STATUS_TEXT
    if ((int)s < 0 || (int)s >= (int)TL__STATUS_COUNT) return "unknown tl_status";
    return texts[s];
}

/* ---- checked arithmetic ---------------------------------------------- */
/* Dims, strides and offsets come from users and files and are not trusted:
   every product and sum that sizes or addresses memory goes through these.
   Each returns 1 on overflow (and leaves *out alone), 0 otherwise. */

static int tl__mul_overflows(tl_dim a, tl_dim b, tl_dim *out)
{
    if (a < 0 || b < 0) return 1;
    if (a != 0 && b > TL__DIM_MAX / a) return 1;
    *out = a * b;
    return 0;
}

static int tl__add_overflows(tl_dim a, tl_dim b, tl_dim *out)
{
    if (a < 0 || b < 0 || a > TL__DIM_MAX - b) return 1;
    *out = a + b;
    return 0;
}

/* Rounds v up to a multiple of m (m > 0). */
static int tl__round_up_overflows(tl_dim v, tl_dim m, tl_dim *out)
{
    tl_dim r = v % m;
    if (r == 0) { *out = v; return 0; }
    return tl__add_overflows(v, m - r, out);
}

/* ---- data types ------------------------------------------------------ */

TL_API size_t tl_dt_size(tl_data_type dt)
{
    switch (dt) {
    case TL_F32: case TL_S32: return 4;
    case TL_F16: case TL_BF16: return 2;
    case TL_S8: case TL_U8: return 1;
    case TL_F64: return 8;
    default: return 0;
    }
}

static const char *const tl__dt_names[TL__DT_COUNT] = {
    "undef", "f32", "f16", "bf16", "s32", "s8", "u8", "f64"
};

TL_API const char *tl_dt_name(tl_data_type dt)
{
    if ((int)dt <= 0 || (int)dt >= (int)TL__DT_COUNT) return "undef";
    return tl__dt_names[dt];
}

TL_API tl_data_type tl_dt_from_name(const char *name)
{
    int i;
    if (!name) return TL_DT_UNDEF;
    for (i = 1; i < (int)TL__DT_COUNT; ++i)
        if (strcmp(name, tl__dt_names[i]) == 0) return (tl_data_type)i;
    return TL_DT_UNDEF;
}

static uint32_t tl__f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float tl__bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

TL_API uint16_t tl_f32_to_bf16(float f)
{
    uint32_t u = tl__f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)          /* NaN: keep sign, quiet it */
        return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7fffu + ((u >> 16) & 1u);              /* round to nearest even */
    return (uint16_t)(u >> 16);
}

TL_API float tl_bf16_to_f32(uint16_t b) { return tl__bits_f32((uint32_t)b << 16); }

TL_API uint16_t tl_f32_to_f16(float f)
{
    uint32_t u = tl__f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u)                           /* NaN, quiet, keep sign */
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x477ff000u)                          /* rounds past 65504: inf */
        return (uint16_t)(sign | 0x7c00u);
    if (a >= 0x38800000u) {                        /* normal half */
        uint32_t r = a - 0x38000000u;              /* rebias 127 -> 15 */
        r += 0xfffu + ((r >> 13) & 1u);
        return (uint16_t)(sign | (r >> 13));
    }
    if (a < 0x33000000u) return sign;              /* below half of the
                                                      smallest subnormal */
    {   /* subnormal half: shift the full mantissa, round to nearest even */
        uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126u - e;                 /* 14..24 */
        uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u);
        uint32_t half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (q & 1u))) ++q;
        return (uint16_t)(sign | q);
    }
}

TL_API float tl_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return tl__bits_f32(sign | 0x7f800000u | (m << 13));
    if (e != 0) return tl__bits_f32(sign | ((e + 112u) << 23) | (m << 13));
    if (m == 0) return tl__bits_f32(sign);
    {   /* subnormal: exact in f32 */
        float v = (float)m * (1.0f / 16777216.0f);
        return sign ? -v : v;
    }
}

/* ---- the format tag grammar ------------------------------------------ */
/* A tag is outer letters (one per dim, upper case = blocked) followed by
   blocks "<size><letter>", outermost first. Letters are abstract (a..l)
   or from one domain family; each family lists its letters in canonical
   dim order and absent letters are skipped (docs/format-tags.md). */

typedef struct {
    int    ndims;
    int    order[TL_MAX_NDIMS];     /* dims, outermost first */
    int    nblks;
    tl_dim blks[TL_MAX_NDIMS];
    int    idxs[TL_MAX_NDIMS];
} tl__tag;

static const char *const tl__tag_families[] = {
    "ncdhw",   /* activations */
    "goidhw",  /* weights */
    "tnc",     /* RNN data */
    "ldnc",    /* RNN states */
    "ldigo",   /* RNN weights */
    "x"
};

static int tl__is_lower(char c) { return c >= 'a' && c <= 'z'; }
static int tl__is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static char tl__to_lower(char c) { return tl__is_upper(c) ? (char)(c - 'A' + 'a') : c; }

/* Maps each letter of the outer part to a dim index (map[letter - 'a']),
   or returns 0 when the letters fit neither the abstract alphabet nor a
   family. */
static int tl__tag_letter_map(const char *outer, int n, int *map)
{
    int i, f, seen[26];
    for (i = 0; i < 26; ++i) { map[i] = -1; seen[i] = 0; }
    for (i = 0; i < n; ++i) {
        char c = tl__to_lower(outer[i]);
        if (!tl__is_lower(c) || seen[c - 'a']) return 0;
        seen[c - 'a'] = 1;
    }
    for (i = 0; i < n && seen[i]; ++i) {}
    if (i == n) {                               /* abstract: a, b, c, ... */
        for (i = 0; i < n; ++i) map[i] = i;
        return 1;
    }
    for (f = 0; f < (int)(sizeof tl__tag_families / sizeof *tl__tag_families); ++f) {
        const char *fam = tl__tag_families[f];
        int count = 0, in_family = 0, d = 0;
        for (i = 0; fam[i]; ++i) if (seen[fam[i] - 'a']) ++in_family;
        for (i = 0; i < 26; ++i) count += seen[i];
        if (in_family != count) continue;
        for (i = 0; fam[i]; ++i)
            if (seen[fam[i] - 'a']) map[fam[i] - 'a'] = d++;
        return 1;
    }
    return 0;
}

/* oneDNN 2.6 names a few aliases whose letters disagree with the layout
   its enum gives them (an upper-case letter with no block, or I and O
   swapped). Users copy these names from oneDNN, so they mean what oneDNN
   means; the grammar itself stays strict. */
static const char *const tl__tag_oddities[][2] = {
    {"OhwI32o", "Acdb32a"},
    {"gOhwI32o", "aBdec32b"},
    {"gIOhw2i8o16i2o", "aBCde2c8b16c2b"},
    {"gIOdhw2i8o16i2o", "aBCdef2c8b16c2b"}
};

/* Parses tag for ndims dims. 0 on success, -1 on any malformation. */
static int tl__tag_parse(const char *tag, int ndims, tl__tag *t)
{
    int map[26], n = 0, i, has_blocks[TL_MAX_NDIMS] = {0};
    const char *p;
    if (!tag || ndims < 1 || ndims > TL_MAX_NDIMS) return -1;
    for (i = 0; i < (int)(sizeof tl__tag_oddities / sizeof *tl__tag_oddities); ++i)
        if (strcmp(tag, tl__tag_oddities[i][0]) == 0) tag = tl__tag_oddities[i][1];
    while (tag[n] && !(tag[n] >= '0' && tag[n] <= '9')) ++n;
    if (n != ndims || !tl__tag_letter_map(tag, n, map)) return -1;
    t->ndims = ndims;
    t->nblks = 0;
    for (i = 0; i < n; ++i) t->order[i] = map[tl__to_lower(tag[i]) - 'a'];
    for (p = tag + n; *p;) {
        tl_dim size = 0;
        int d, k;
        if (!(*p >= '0' && *p <= '9') || *p == '0') return -1;
        while (*p >= '0' && *p <= '9') {
            if (size > (TL__DIM_MAX - 9) / 10) return -1;
            size = size * 10 + (*p++ - '0');
        }
        if (!tl__is_lower(*p) || map[*p - 'a'] < 0) return -1;
        d = map[*p++ - 'a'];
        for (k = 0; k < n && t->order[k] != d; ++k) {}
        if (!tl__is_upper(tag[k]) || t->nblks == TL_MAX_NDIMS) return -1;
        t->blks[t->nblks] = size;
        t->idxs[t->nblks++] = d;
        has_blocks[d] = 1;
    }
    for (i = 0; i < n; ++i)                  /* an upper-case dim needs blocks */
        if (tl__is_upper(tag[i]) && !has_blocks[t->order[i]]) return -1;
    return 0;
}

/* ---- descriptor construction ----------------------------------------- */

static int tl__dt_valid(tl_data_type dt) { return tl_dt_size(dt) != 0; }

static int tl__dims_valid(int ndims, const tl_dim *dims)
{
    int d;
    if (ndims < 1 || ndims > TL_MAX_NDIMS || !dims) return 0;
    for (d = 0; d < ndims; ++d) if (dims[d] < 0) return 0;
    return 1;
}

/* Product of the inner blocks of each dim; 1 for unblocked dims. */
static void tl__dim_blocks(const tl_memory_desc *md, tl_dim *blocks)
{
    int d, b;
    for (d = 0; d < TL_MAX_NDIMS; ++d) blocks[d] = 1;
    for (b = 0; b < md->blocking.inner_nblks; ++b)
        blocks[md->blocking.inner_idxs[b]] *= md->blocking.inner_blks[b];
}

/* Builds the dense layout of a parsed tag into *md (a scratch copy).
   Returns TL_OVERFLOW when the padded size does not fit. */
static tl_status tl__md_fill_from_tag(tl_memory_desc *md, const tl__tag *t,
                                      const tl_dim *dims, tl_data_type dt)
{
    tl_dim blocks[TL_MAX_NDIMS], stride = 1, bytes;
    int d, b, k;
    memset(md, 0, sizeof *md);
    md->ndims = t->ndims;
    md->data_type = dt;
    md->format_kind = TL_FORMAT_KIND_BLOCKED;
    md->blocking.inner_nblks = t->nblks;
    for (b = 0; b < t->nblks; ++b) {
        md->blocking.inner_blks[b] = t->blks[b];
        md->blocking.inner_idxs[b] = t->idxs[b];
        if (tl__mul_overflows(stride, t->blks[b], &stride)) return TL_OVERFLOW;
    }
    for (d = 0; d < TL_MAX_NDIMS; ++d) blocks[d] = 1;
    for (b = 0; b < t->nblks; ++b)
        if (tl__mul_overflows(blocks[t->idxs[b]], t->blks[b], &blocks[t->idxs[b]]))
            return TL_OVERFLOW;
    for (d = 0; d < t->ndims; ++d) {
        md->dims[d] = dims[d];
        if (tl__round_up_overflows(dims[d], blocks[d], &md->padded_dims[d]))
            return TL_OVERFLOW;
    }
    /* Dense strides, innermost outer dim first. A zero dim still gets a
       nonzero stride for the dims outside it (the tensor is empty). */
    for (k = t->ndims - 1; k >= 0; --k) {
        tl_dim outer = md->padded_dims[t->order[k]] / blocks[t->order[k]];
        md->blocking.strides[t->order[k]] = stride;
        if (tl__mul_overflows(stride, outer > 0 ? outer : 1, &stride))
            return TL_OVERFLOW;
    }
    if (tl__mul_overflows(stride, (tl_dim)tl_dt_size(dt), &bytes)) return TL_OVERFLOW;
    return TL_OK;
}

TL_API tl_status tl_md_init_by_tag(tl_memory_desc *md, int ndims,
                                   const tl_dim *dims, tl_data_type dt,
                                   const char *tag)
{
    tl_memory_desc tmp;
    tl__tag t;
    tl_status st;
    int d;
    if (!md || !tag || !tl__dt_valid(dt) || !tl__dims_valid(ndims, dims))
        return TL_INVALID_ARGUMENTS;
    if (strcmp(tag, "any") == 0) {
        memset(&tmp, 0, sizeof tmp);
        tmp.ndims = ndims;
        tmp.data_type = dt;
        tmp.format_kind = TL_FORMAT_KIND_ANY;
        for (d = 0; d < ndims; ++d) tmp.dims[d] = tmp.padded_dims[d] = dims[d];
        *md = tmp;
        return TL_OK;
    }
    if (tl__tag_parse(tag, ndims, &t) != 0) return TL_INVALID_ARGUMENTS;
    st = tl__md_fill_from_tag(&tmp, &t, dims, dt);
    if (st) return st;
    *md = tmp;
    return TL_OK;
}

/* The seed's non-overlap rule: sorted by stride, each dim's stride covers
   the whole extent of the next inner one. Dims of size 0 or 1 have no
   second element and cannot overlap anything. */
static int tl__strides_overlap(int ndims, const tl_dim *dims, const tl_dim *strides,
                               tl_dim inner_span)
{
    int order[TL_MAX_NDIMS], n = 0, i, j;
    for (i = 0; i < ndims; ++i) if (dims[i] > 1) order[n++] = i;
    for (i = 1; i < n; ++i)                       /* insertion sort, desc */
        for (j = i; j > 0 && strides[order[j]] > strides[order[j - 1]]; --j) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (i = 0; i + 1 < n; ++i) {
        tl_dim span;
        if (tl__mul_overflows(strides[order[i + 1]], dims[order[i + 1]], &span)) return 1;
        if (strides[order[i]] < span) return 1;
    }
    return n > 0 && strides[order[n - 1]] < inner_span;
}

/* Largest element offset + 1 over dims of the given sizes (0 if any is 0). */
static int tl__extent_overflows(int ndims, const tl_dim *sizes, const tl_dim *strides,
                                tl_dim inner, tl_dim *out)
{
    tl_dim ext = inner, t;
    int d;
    /* zero dims first, so the answer does not depend on the dim order */
    for (d = 0; d < ndims; ++d) if (sizes[d] == 0) { *out = 0; return 0; }
    for (d = 0; d < ndims; ++d) {
        if (tl__mul_overflows(sizes[d] - 1, strides[d], &t)) return 1;
        if (tl__add_overflows(ext, t, &ext)) return 1;
    }
    *out = ext;
    return 0;
}

TL_API tl_status tl_md_init_by_strides(tl_memory_desc *md, int ndims,
                                       const tl_dim *dims, tl_data_type dt,
                                       const tl_dim *strides)
{
    tl_memory_desc tmp;
    tl_dim dense[TL_MAX_NDIMS], stride = 1, ext, bytes;
    int d;
    if (!md || !tl__dt_valid(dt) || !tl__dims_valid(ndims, dims))
        return TL_INVALID_ARGUMENTS;
    if (!strides) {
        for (d = ndims - 1; d >= 0; --d) {
            dense[d] = stride;
            if (tl__mul_overflows(stride, dims[d] > 0 ? dims[d] : 1, &stride))
                return TL_OVERFLOW;
        }
        strides = dense;
    }
    for (d = 0; d < ndims; ++d) if (strides[d] < 0) return TL_INVALID_ARGUMENTS;
    if (tl__strides_overlap(ndims, dims, strides, 1)) return TL_INVALID_ARGUMENTS;
    if (tl__extent_overflows(ndims, dims, strides, 1, &ext)) return TL_OVERFLOW;
    if (tl__mul_overflows(ext, (tl_dim)tl_dt_size(dt), &bytes)) return TL_OVERFLOW;
    memset(&tmp, 0, sizeof tmp);
    tmp.ndims = ndims;
    tmp.data_type = dt;
    tmp.format_kind = TL_FORMAT_KIND_BLOCKED;
    for (d = 0; d < ndims; ++d) {
        tmp.dims[d] = tmp.padded_dims[d] = dims[d];
        tmp.blocking.strides[d] = strides[d];
    }
    *md = tmp;
    return TL_OK;
}

/* ---- validation ------------------------------------------------------ */

static tl_status tl__why(char *why, size_t len, const char *text, tl_status st)
{
    if (why && len) {
        size_t n = strlen(text);
        if (n >= len) n = len - 1;
        memcpy(why, text, n);
        why[n] = '\0';
    }
    return st;
}

/* Offset + 1 of the last padded element relative to offset0, i.e. the
   elements one copy of the described tensor spans. */
static int tl__md_span_overflows(const tl_memory_desc *md, tl_dim *out)
{
    tl_dim blocks[TL_MAX_NDIMS], outer[TL_MAX_NDIMS], inner = 1;
    int d, b;
    tl__dim_blocks(md, blocks);
    for (b = 0; b < md->blocking.inner_nblks; ++b) inner *= md->blocking.inner_blks[b];
    for (d = 0; d < md->ndims; ++d) outer[d] = md->padded_dims[d] / blocks[d];
    return tl__extent_overflows(md->ndims, outer, md->blocking.strides, inner, out);
}

TL_API tl_status tl_md_validate(const tl_memory_desc *md, char *why, size_t len)
{
    tl_dim blocks[TL_MAX_NDIMS], inner = 1, outer[TL_MAX_NDIMS], span, t;
    int d, b;
    if (!md) return tl__why(why, len, "md is NULL", TL_INVALID_ARGUMENTS);
    if (md->ndims < 1 || md->ndims > TL_MAX_NDIMS)
        return tl__why(why, len, "ndims outside 1..TL_MAX_NDIMS", TL_INVALID_ARGUMENTS);
    if (!tl__dt_valid(md->data_type))
        return tl__why(why, len, "data_type is not a known type", TL_INVALID_ARGUMENTS);
    if (md->format_kind == TL_FORMAT_KIND_ANY)
        return tl__why(why, len, "format_kind is any: no layout yet", TL_INVALID_ARGUMENTS);
    if (md->format_kind != TL_FORMAT_KIND_BLOCKED)
        return tl__why(why, len, "format_kind is not blocked", TL_INVALID_ARGUMENTS);
    if (md->blocking.inner_nblks < 0 || md->blocking.inner_nblks > TL_MAX_NDIMS)
        return tl__why(why, len, "inner_nblks outside 0..TL_MAX_NDIMS", TL_INVALID_ARGUMENTS);
    for (b = 0; b < md->blocking.inner_nblks; ++b) {
        if (md->blocking.inner_blks[b] < 1)
            return tl__why(why, len, "inner_blks holds a size below 1", TL_INVALID_ARGUMENTS);
        if (md->blocking.inner_idxs[b] < 0 || md->blocking.inner_idxs[b] >= md->ndims)
            return tl__why(why, len, "inner_idxs names a dim that does not exist", TL_INVALID_ARGUMENTS);
        if (tl__mul_overflows(inner, md->blocking.inner_blks[b], &inner))
            return tl__why(why, len, "inner blocks overflow int64", TL_OVERFLOW);
    }
    for (d = 0; d < TL_MAX_NDIMS; ++d) blocks[d] = 1;
    for (b = 0; b < md->blocking.inner_nblks; ++b)
        if (tl__mul_overflows(blocks[md->blocking.inner_idxs[b]], md->blocking.inner_blks[b],
                              &blocks[md->blocking.inner_idxs[b]]))
            return tl__why(why, len, "inner blocks overflow int64", TL_OVERFLOW);
    for (d = 0; d < md->ndims; ++d) {
        if (md->dims[d] < 0)
            return tl__why(why, len, "dims holds a negative value", TL_INVALID_ARGUMENTS);
        if (md->padded_offsets[d] < 0 ||
            tl__add_overflows(md->dims[d], md->padded_offsets[d], &t) ||
            md->padded_dims[d] < t)
            return tl__why(why, len, "padded_dims smaller than dims + padded_offsets", TL_INVALID_ARGUMENTS);
        if (md->padded_dims[d] % blocks[d] != 0)
            return tl__why(why, len, "padded_dims not a multiple of its inner blocks", TL_INVALID_ARGUMENTS);
        if (md->blocking.strides[d] < 0)
            return tl__why(why, len, "strides holds a negative value", TL_INVALID_ARGUMENTS);
        outer[d] = md->padded_dims[d] / blocks[d];
    }
    if (md->offset0 < 0)
        return tl__why(why, len, "offset0 is negative", TL_INVALID_ARGUMENTS);
    if (tl__strides_overlap(md->ndims, outer, md->blocking.strides, inner))
        return tl__why(why, len, "strides overlap (a stride is smaller than the span inside it)", TL_INVALID_ARGUMENTS);
    if (tl__md_span_overflows(md, &span) || tl__add_overflows(span, md->offset0, &span) ||
        tl__mul_overflows(span, (tl_dim)tl_dt_size(md->data_type), &span))
        return tl__why(why, len, "size does not fit in int64", TL_OVERFLOW);
    if (md->extra.flags & ~(uint64_t)(TL_MD_EXTRA_COMPENSATION_S8S8 | TL_MD_EXTRA_SCALE_ADJUST))
        return tl__why(why, len, "extra.flags holds an unknown flag", TL_INVALID_ARGUMENTS);
    if (md->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) {
        if (md->data_type != TL_S8)
            return tl__why(why, len, "compensation needs an s8 descriptor", TL_INVALID_ARGUMENTS);
        if (md->extra.compensation_mask < 0 || (md->extra.compensation_mask >> md->ndims) != 0)
            return tl__why(why, len, "compensation_mask names a dim that does not exist", TL_INVALID_ARGUMENTS);
        /* the int32 values after the data (4-aligned) must fit too */
        t = 1;
        for (d = 0; d < md->ndims; ++d)
            if ((md->extra.compensation_mask >> d & 1) &&
                tl__mul_overflows(t, md->padded_dims[d], &t))
                return tl__why(why, len, "size with compensation does not fit in int64", TL_OVERFLOW);
        if (tl__round_up_overflows(span, 4, &span) || tl__mul_overflows(t, 4, &t) ||
            tl__add_overflows(span, t, &span))
            return tl__why(why, len, "size with compensation does not fit in int64", TL_OVERFLOW);
    }
    return tl__why(why, len, "ok", TL_OK);
}

static int tl__md_ok(const tl_memory_desc *md)
{
    return tl_md_validate(md, NULL, 0) == TL_OK;
}

/* ---- sizes and offsets ----------------------------------------------- */

/* Number of int32 compensation values: padded dims over the mask bits. */
static tl_dim tl__md_comp_count(const tl_memory_desc *md)
{
    tl_dim n = 1;
    int d;
    for (d = 0; d < md->ndims; ++d)
        if (md->extra.compensation_mask & (1 << d)) n *= md->padded_dims[d];
    return n;
}

TL_API size_t tl_md_size(const tl_memory_desc *md)
{
    tl_dim span, bytes, comp;
    int d;
    if (!tl__md_ok(md)) return 0;
    for (d = 0; d < md->ndims; ++d) if (md->dims[d] == 0) return 0;
    if (tl__md_span_overflows(md, &span)) return 0;
    bytes = (span + md->offset0) * (tl_dim)tl_dt_size(md->data_type);
    if (md->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) {
        /* int32 values start 4-aligned; the count cannot overflow, as the
           padded elements it multiplies all fit in span */
        if (tl__round_up_overflows(bytes, 4, &bytes) ||
            tl__mul_overflows(tl__md_comp_count(md), 4, &comp) ||
            tl__add_overflows(bytes, comp, &bytes)) return 0;
    }
    if ((uint64_t)bytes > (uint64_t)SIZE_MAX) return 0;
    return (size_t)bytes;
}

TL_API tl_dim tl_md_nelems(const tl_memory_desc *md, int with_padding)
{
    tl_dim n = 1, v;
    int d, empty = 0;
    if (!md || md->ndims < 1 || md->ndims > TL_MAX_NDIMS) return -1;
    if (md->format_kind != TL_FORMAT_KIND_ANY && !tl__md_ok(md)) return -1;
    /* a zero dim makes the count 0 even where the other dims' product
       would overflow (an empty tensor is valid with any other sizes) */
    for (d = 0; d < md->ndims; ++d) {
        v = with_padding ? md->padded_dims[d] : md->dims[d];
        if (v < 0) return -1;
        if (v == 0) empty = 1;
    }
    if (empty) return 0;
    for (d = 0; d < md->ndims; ++d)
        if (tl__mul_overflows(n, with_padding ? md->padded_dims[d] : md->dims[d], &n))
            return -1;
    return n;
}

/* The offset formula without checks: outer strides times outer index plus
   the position inside the dense inner blocks (innermost block fastest). */
static tl_dim tl__md_off(const tl_memory_desc *md, const tl_dim *idx)
{
    tl_dim pos[TL_MAX_NDIMS], off = md->offset0, blk_stride = 1;
    int d, b;
    for (d = 0; d < md->ndims; ++d) pos[d] = idx[d] + md->padded_offsets[d];
    for (b = md->blocking.inner_nblks - 1; b >= 0; --b) {
        int i = (int)md->blocking.inner_idxs[b];
        tl_dim blk = md->blocking.inner_blks[b];
        off += (pos[i] % blk) * blk_stride;
        pos[i] /= blk;
        blk_stride *= blk;
    }
    for (d = 0; d < md->ndims; ++d) off += pos[d] * md->blocking.strides[d];
    return off;
}

TL_API tl_dim tl_md_offset(const tl_memory_desc *md, const tl_dim *idx)
{
    int d;
    if (!idx || !tl__md_ok(md)) return -1;
    /* subtract, not add: idx is the caller's and may be near INT64_MAX. A
       tensor with a zero dim holds no element (and has size 0). */
    for (d = 0; d < md->ndims; ++d)
        if (md->dims[d] == 0 || idx[d] < 0 ||
            idx[d] >= md->padded_dims[d] - md->padded_offsets[d]) return -1;
    return tl__md_off(md, idx);
}

/* Advances a row-major counter idx over sizes; 0 when it wraps around. */
static int tl__next_index(int ndims, const tl_dim *sizes, tl_dim *idx)
{
    int d;
    for (d = ndims - 1; d >= 0; --d) {
        if (++idx[d] < sizes[d]) return 1;
        idx[d] = 0;
    }
    return 0;
}

TL_API int tl_md_index_of(const tl_memory_desc *md, tl_dim off, tl_dim *idx,
                          int *is_padding)
{
    tl_dim cur[TL_MAX_NDIMS], sizes[TL_MAX_NDIMS];
    int d;
    if (!idx || !tl__md_ok(md)) return -1;
    for (d = 0; d < md->ndims; ++d) {
        sizes[d] = md->padded_dims[d] - md->padded_offsets[d];
        cur[d] = 0;
        if (sizes[d] == 0 || md->dims[d] == 0) return 0;
    }
    do {
        if (tl__md_off(md, cur) == off) {
            int pad = 0;
            for (d = 0; d < md->ndims; ++d) {
                idx[d] = cur[d];
                if (cur[d] >= md->dims[d]) pad = 1;
            }
            if (is_padding) *is_padding = pad;
            return 1;
        }
    } while (tl__next_index(md->ndims, sizes, cur));
    return 0;
}

/* ---- comparing and naming layouts ------------------------------------ */

/* Blocking equal; strides of unpadded size-1 dims only when strict. */
static int tl__blocking_equal(const tl_memory_desc *a, const tl_memory_desc *b,
                              int strict)
{
    int d, k;
    if (a->blocking.inner_nblks != b->blocking.inner_nblks) return 0;
    for (k = 0; k < a->blocking.inner_nblks; ++k)
        if (a->blocking.inner_blks[k] != b->blocking.inner_blks[k] ||
            a->blocking.inner_idxs[k] != b->blocking.inner_idxs[k]) return 0;
    for (d = 0; d < a->ndims; ++d) {
        if (!strict && a->padded_dims[d] == 1) continue;
        if (a->blocking.strides[d] != b->blocking.strides[d]) return 0;
    }
    return 1;
}

TL_API int tl_md_equal(const tl_memory_desc *a, const tl_memory_desc *b)
{
    int d;
    if (!a || !b) return 0;
    if (a->ndims != b->ndims || a->data_type != b->data_type ||
        a->format_kind != b->format_kind || a->offset0 != b->offset0 ||
        a->ndims < 1 || a->ndims > TL_MAX_NDIMS) return 0;
    for (d = 0; d < a->ndims; ++d)
        if (a->dims[d] != b->dims[d] || a->padded_dims[d] != b->padded_dims[d] ||
            a->padded_offsets[d] != b->padded_offsets[d]) return 0;
    if (a->extra.flags != b->extra.flags) return 0;
    if ((a->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) &&
        a->extra.compensation_mask != b->extra.compensation_mask) return 0;
    if ((a->extra.flags & TL_MD_EXTRA_SCALE_ADJUST) &&
        a->extra.scale_adjust != b->extra.scale_adjust) return 0;
    if (a->format_kind != TL_FORMAT_KIND_BLOCKED) return 1;
    return tl__blocking_equal(a, b, 1);
}

TL_API int tl_md_matches_tag(const tl_memory_desc *md, const char *tag,
                             const tl_dim *strides)
{
    tl_memory_desc gold;
    int d;
    if (!tag || !tl__md_ok(md)) return 0;
    if (tl_md_init_by_tag(&gold, md->ndims, md->dims, md->data_type, tag) != TL_OK)
        return 0;
    for (d = 0; d < md->ndims; ++d)
        if (gold.padded_dims[d] != md->padded_dims[d]) return 0;
    if (!strides) return tl__blocking_equal(md, &gold, 0);
    for (d = 0; d < md->ndims; ++d) gold.blocking.strides[d] = md->blocking.strides[d];
    if (!tl__blocking_equal(md, &gold, 0)) return 0;
    for (d = 0; d < md->ndims; ++d)
        if (strides[d] != -1 && strides[d] != md->blocking.strides[d]) return 0;
    return 1;
}

/* Writes the abstract tag of md's outer order and blocks; the caller
   checks that it really reproduces md. Returns the length, or -1 when
   it does not fit into cap bytes. */
static int tl__tag_write(const tl_memory_desc *md, char *out, size_t cap)
{
    int order[TL_MAX_NDIMS], blocked[TL_MAX_NDIMS] = {0}, i, j, b;
    size_t n = 0;
    char num[24];
    for (i = 0; i < md->ndims; ++i) order[i] = i;
    for (b = 0; b < md->blocking.inner_nblks; ++b) blocked[md->blocking.inner_idxs[b]] = 1;
    for (i = 1; i < md->ndims; ++i)      /* stable sort by stride, largest first */
        for (j = i; j > 0 && md->blocking.strides[order[j]] > md->blocking.strides[order[j - 1]]; --j) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (i = 0; i < md->ndims; ++i) {
        if (n + 1 >= cap) return -1;
        out[n++] = (char)((blocked[order[i]] ? 'A' : 'a') + order[i]);
    }
    for (b = 0; b < md->blocking.inner_nblks; ++b) {
        size_t k = 0, m;
        tl_dim v = md->blocking.inner_blks[b];
        do { num[k++] = (char)('0' + v % 10); v /= 10; } while (v);
        if (n + k + 2 > cap) return -1;
        for (m = 0; m < k; ++m) out[n++] = num[k - 1 - m];
        out[n++] = (char)('a' + md->blocking.inner_idxs[b]);
    }
    out[n] = '\0';
    return (int)n;
}

TL_API tl_status tl_md_to_tag(const tl_memory_desc *md, char *buf, size_t len)
{
    char tag[TL_MAX_NDIMS * 24 + 1];
    int n;
    if (!buf || !tl__md_ok(md)) return TL_INVALID_ARGUMENTS;
    n = tl__tag_write(md, tag, sizeof tag);
    if (n < 0 || !tl_md_matches_tag(md, tag, NULL)) return TL_UNSUPPORTED;
    if ((size_t)n + 1 > len) return TL_BUFFER_TOO_SMALL;
    memcpy(buf, tag, (size_t)n + 1);
    return TL_OK;
}

/* ---- views: submemory, permute, reshape ------------------------------ */

TL_API tl_status tl_md_submemory(tl_memory_desc *out, const tl_memory_desc *parent,
                                 const tl_dim *dims, const tl_dim *offsets)
{
    tl_memory_desc tmp;
    tl_dim blocks[TL_MAX_NDIMS], start[TL_MAX_NDIMS];
    int d, empty = 0;
    if (!out || !dims || !offsets || !tl__md_ok(parent)) return TL_INVALID_ARGUMENTS;
    if (parent->extra.flags) return TL_UNSUPPORTED;   /* extra data is global */
    tl__dim_blocks(parent, blocks);
    tmp = *parent;
    for (d = 0; d < parent->ndims; ++d) {
        tl_dim end;
        int at_end;
        if (dims[d] < 0 || offsets[d] < 0 || tl__add_overflows(dims[d], offsets[d], &end) ||
            end > parent->dims[d]) return TL_INVALID_ARGUMENTS;
        at_end = end == parent->dims[d];
        /* a view may not end inside a block: writing its padding would
           overwrite the parent's elements that share the block. It starts
           on a block boundary of the parent's padded positions. */
        if ((offsets[d] + parent->padded_offsets[d]) % blocks[d] != 0 ||
            (!at_end && dims[d] % blocks[d] != 0))
            return TL_INVALID_ARGUMENTS;
        tmp.dims[d] = dims[d];
        tmp.padded_dims[d] = at_end ? parent->padded_dims[d] - parent->padded_offsets[d] - offsets[d]
                                    : dims[d];
        tmp.padded_offsets[d] = 0;
        start[d] = offsets[d];
        if (dims[d] == 0) empty = 1;
    }
    /* offset0 absorbs the offsets (and the parent's padded_offsets);
       they start a block, so the inner-block part adds nothing. An empty
       view addresses nothing, and its start may lie outside the parent
       (or in an empty parent, whose strides were never bounded), where
       the offset could overflow: it keeps the parent's offset0. */
    tmp.offset0 = empty ? parent->offset0 : tl__md_off(parent, start);
    *out = tmp;
    return TL_OK;
}

TL_API tl_status tl_md_permute_axes(tl_memory_desc *out, const tl_memory_desc *in,
                                    const int *perm)
{
    tl_memory_desc tmp;
    int seen[TL_MAX_NDIMS] = {0}, d, b, mask = 0;
    if (!out || !perm || !in || in->ndims < 1 || in->ndims > TL_MAX_NDIMS)
        return TL_INVALID_ARGUMENTS;
    if (in->format_kind != TL_FORMAT_KIND_ANY && !tl__md_ok(in)) return TL_INVALID_ARGUMENTS;
    for (d = 0; d < in->ndims; ++d) {
        if (perm[d] < 0 || perm[d] >= in->ndims || seen[perm[d]]) return TL_INVALID_ARGUMENTS;
        seen[perm[d]] = 1;
    }
    tmp = *in;
    for (d = 0; d < in->ndims; ++d) {
        tmp.dims[perm[d]] = in->dims[d];
        tmp.padded_dims[perm[d]] = in->padded_dims[d];
        tmp.padded_offsets[perm[d]] = in->padded_offsets[d];
        tmp.blocking.strides[perm[d]] = in->blocking.strides[d];
        if (in->extra.compensation_mask & (1 << d)) mask |= 1 << perm[d];
    }
    for (b = 0; b < in->blocking.inner_nblks; ++b)
        tmp.blocking.inner_idxs[b] = perm[in->blocking.inner_idxs[b]];
    tmp.extra.compensation_mask = mask;
    *out = tmp;
    return TL_OK;
}

/* One group of the reshape: in dims [i0, i1) and out dims [o0, o1) hold
   the same elements. A 1:1 group keeps the dim as it is; a merge or split
   needs unblocked, unpadded in dims that are contiguous in memory. */
static tl_status tl__reshape_group(tl_memory_desc *out, const tl_memory_desc *in,
                                   int i0, int i1, int o0, int o1, int *dim_map)
{
    tl_dim blocks[TL_MAX_NDIMS], stride, next;
    int i, o;
    tl__dim_blocks(in, blocks);
    if (i1 - i0 == 1 && o1 - o0 == 1) {
        out->padded_dims[o0] = in->padded_dims[i0];
        out->padded_offsets[o0] = in->padded_offsets[i0];
        out->blocking.strides[o0] = in->blocking.strides[i0];
        dim_map[i0] = o0;
        return TL_OK;
    }
    for (i = i0; i < i1; ++i) {
        if (blocks[i] != 1 || in->padded_dims[i] != in->dims[i]) return TL_UNSUPPORTED;
        if (i + 1 < i1 &&
            (tl__mul_overflows(in->blocking.strides[i + 1], in->dims[i + 1], &next) ||
             in->blocking.strides[i] != next))
            return TL_UNSUPPORTED;
    }
    stride = in->blocking.strides[i1 - 1];
    for (o = o1 - 1; o >= o0; --o) {
        out->padded_dims[o] = out->dims[o];
        out->padded_offsets[o] = 0;
        out->blocking.strides[o] = stride;
        /* not past the outermost dim: that product may not fit, while
           the ones below it lie inside the group's span */
        if (o > o0) stride *= out->dims[o];
    }
    return TL_OK;
}

TL_API tl_status tl_md_reshape(tl_memory_desc *out, const tl_memory_desc *in,
                               int ndims, const tl_dim *dims)
{
    tl_memory_desc tmp;
    int in_keep[TL_MAX_NDIMS], out_keep[TL_MAX_NDIMS], dim_map[TL_MAX_NDIMS];
    int ni = 0, no = 0, a = 0, b = 0, d, k;
    tl_dim n_in, n_out, blocks[TL_MAX_NDIMS];
    tl_status st;
    if (!out || !tl__md_ok(in) || !tl__dims_valid(ndims, dims)) return TL_INVALID_ARGUMENTS;
    if (in->extra.flags) return TL_UNSUPPORTED;
    n_in = tl_md_nelems(in, 0);
    n_out = 1;
    for (d = 0; d < ndims; ++d)
        if (tl__mul_overflows(n_out, dims[d], &n_out)) return TL_INVALID_ARGUMENTS;
    if (n_in != n_out) return TL_SHAPE_MISMATCH;
    if (n_in == 0) return TL_UNSUPPORTED;
    /* size-1 dims come and go freely, unless they carry padding */
    for (d = 0; d < in->ndims; ++d) {
        dim_map[d] = -1;
        if (in->dims[d] != 1) in_keep[ni++] = d;
        else if (in->padded_dims[d] != 1) return TL_UNSUPPORTED;
    }
    for (d = 0; d < ndims; ++d) if (dims[d] != 1) out_keep[no++] = d;
    memset(&tmp, 0, sizeof tmp);
    tmp.ndims = ndims;
    tmp.data_type = in->data_type;
    tmp.format_kind = TL_FORMAT_KIND_BLOCKED;
    tmp.offset0 = in->offset0;
    for (d = 0; d < ndims; ++d) { tmp.dims[d] = tmp.padded_dims[d] = dims[d]; }
    while (a < ni && b < no) {            /* match groups of equal product */
        int a1 = a + 1, b1 = b + 1;
        tl_dim pa = in->dims[in_keep[a]], pb = dims[out_keep[b]];
        while (pa != pb) {
            if (pa < pb) pa *= in->dims[in_keep[a1++]];
            else pb *= dims[out_keep[b1++]];
        }
        /* a group must be consecutive in both dim lists */
        if (in_keep[a1 - 1] - in_keep[a] != a1 - 1 - a ||
            out_keep[b1 - 1] - out_keep[b] != b1 - 1 - b) return TL_UNSUPPORTED;
        st = tl__reshape_group(&tmp, in, in_keep[a], in_keep[a1 - 1] + 1,
                               out_keep[b], out_keep[b1 - 1] + 1, dim_map);
        if (st) return st;
        a = a1; b = b1;
    }
    tmp.blocking.inner_nblks = in->blocking.inner_nblks;
    for (k = 0; k < in->blocking.inner_nblks; ++k) {
        int i = (int)in->blocking.inner_idxs[k];
        if (dim_map[i] < 0) return TL_UNSUPPORTED;
        tmp.blocking.inner_blks[k] = in->blocking.inner_blks[k];
        tmp.blocking.inner_idxs[k] = dim_map[i];
    }
    /* inserted size-1 dims: the stride a dense tag would give them */
    tl__dim_blocks(&tmp, blocks);
    for (d = ndims - 1; d >= 0; --d) {
        tl_dim s = 1;
        if (dims[d] != 1) continue;
        for (k = d + 1; k < ndims; ++k) {
            if (dims[k] == 1) continue;
            /* any stride addresses a size-1 dim correctly; fall back to
               the next dim's own when the dense one does not fit */
            if (tl__mul_overflows(tmp.blocking.strides[k], tmp.padded_dims[k] / blocks[k], &s))
                s = tmp.blocking.strides[k];
            break;
        }
        if (k == ndims) {
            s = 1;
            for (k = 0; k < tmp.blocking.inner_nblks; ++k) s *= tmp.blocking.inner_blks[k];
        }
        tmp.blocking.strides[d] = s;
    }
    if (!tl__md_ok(&tmp)) return TL_UNSUPPORTED;
    *out = tmp;
    return TL_OK;
}

/* ---- reorder (implementation) ---------------------------------------- */

/* ---- shuffle (implementation) ---------------------------------------- */

#endif /* TL__IMPLEMENTATION_DONE */
#endif /* TENSORLAYOUT_IMPLEMENTATION */

/*
------------------------------------------------------------------------------
MIT License

Copyright (c) 2026 the tensorlayout authors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
*/
