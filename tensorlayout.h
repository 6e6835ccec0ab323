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
       docs/memory-descriptors.md   also tl_md_from_dlpack / tl_md_to_dlpack,
                                    declared when dlpack.h is included first
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
/* Copies a tensor from one layout and data type into another, optionally
   quantising on the way (docs/reorder.md). Per element, in f32:
       v = scale*(src - src_zero_point)   [+ beta*dst_old] + dst_zero_point
   then times the destination's extra.scale_adjust, rounded half to even
   and saturated for integer destinations. */

/* Zero-initialised (or a NULL attr) means a plain copy. */
typedef struct tl_reorder_attr {
    int          scale_mask;  /* 0: one scale for the whole tensor; bit d:
                                 the scale varies along logical dim d */
    const float *scales;      /* NULL: no scaling (1.0); else one per slice
                                 of the masked dims (product of their dims),
                                 row-major over them, lowest dim outermost.
                                 Plans keep the pointer: the array must
                                 outlive every plan made with it */
    float        beta;        /* 0: overwrite dst; else dst = ... + beta*dst */
    int32_t      src_zero_point, dst_zero_point;   /* 0: none */
    int          nthreads;    /* 0: the library's default (all OpenMP
                                 threads when built with OpenMP, else 1);
                                 1: the calling thread only */
} tl_reorder_attr;

/* Most loops a plan can hold: each logical dim splits into its outer part
   plus the inner blocks of both descriptors. */
#define TL_REORDER_MAX_LOOPS (3 * TL_MAX_NDIMS)

/* One loop of a plan's simplified loop nest. Strides are in elements of
   the respective array (src, dst, attr.scales, the int32 compensation). */
typedef struct tl_reorder_loop {
    tl_dim size;          /* iterations, >= 1 */
    tl_dim src_stride;    /* src elements per iteration; 0 if src_by_index */
    tl_dim dst_stride;    /* dst elements per iteration */
    tl_dim scale_stride;  /* scales entries per iteration; 0: same scale */
    tl_dim comp_stride;   /* compensation slots per iteration; 0: same */
    int    dim;           /* -1: no bound to check; else the logical dim
                             this loop advances, whose index must be
                             checked against the plan's limits */
    tl_dim weight;        /* logical index step of `dim` per iteration */
} tl_reorder_loop;

/* How a plan's kernel turns a source value into a destination value. */
#define TL_REORDER_MODE_CONVERT 0  /* the f32 arithmetic above */
#define TL_REORDER_MODE_COPY    1  /* same data type, identity attr: bits */
#define TL_REORDER_MODE_WIDEN   2  /* s32 -> f64, identity attr: exact */

struct tl_reorder_plan;
/* Runs iterations [begin, end) of the plan's outermost loop (loops[0]),
   everything inside it included; padding is written, compensation is not
   (execute computes it afterwards from the stored values). */
typedef void (*tl_reorder_kernel)(const struct tl_reorder_plan *plan,
                                  const void *src, void *dst,
                                  tl_dim begin, tl_dim end);

/* A validated, simplified reorder. A complete type: declare it on the
   stack; it owns no memory and may be copied. Fill it with
   tl_reorder_plan_init, then only read it.

   For kernel writers (tensorlayout_simd.h): the problem is a loop nest,
   loops[0] outermost, loops[nloops - 1] innermost, ordered by decreasing
   dst stride. An iteration vector i gives the element offsets
       src: src_md.offset0 + sum(i[l] * loops[l].src_stride)
       dst: dst_md.offset0 + sum(i[l] * loops[l].dst_stride)
   and the scale index sum(i[l] * loops[l].scale_stride). Every logical
   dim d with a tail has its loops marked dim = d; their logical index
   base[d] = sum(i[l] * loops[l].weight) over those loops decides:
       base[d] <  data_limit[d] for every d:  a data element
       else base[d] < pad_limit[d] for every d: a padding slot, write 0
       else: outside the destination, skip (neither read nor written).
   The loops of one dim appear with decreasing weight, so a loop's useful
   range is i < ceil((limit - base of the outer loops) / weight). When
   no loop has dim >= 0 (has_tails == 0), every point is a data element.
   src_by_index != 0: the layouts share no loop structure; src offsets
   come from the logical index (tl_md_offset), src_stride is 0. Leave
   such plans, and any case you do not handle, to tl__reorder_kernel_scalar. */
typedef struct tl_reorder_plan {
    tl_memory_desc  src_md, dst_md;  /* copies of the caller's descriptors */
    tl_reorder_attr attr;            /* copy; nthreads resolved (>= 1) */
    int    mode;                     /* TL_REORDER_MODE_* */
    const float *scales;             /* NULL: 1.0 (also for an identity
                                        attr.scales); else attr.scales */
    float  src_zero_point;           /* attr values as f32; 0: none */
    float  dst_zero_point;
    float  beta;                     /* 0: dst is not read */
    float  scale_adjust;             /* 1 unless dst has SCALE_ADJUST */
    int    has_scale_adjust;         /* dst extra.flags has SCALE_ADJUST */
    int    nloops;                   /* 1..TL_REORDER_MAX_LOOPS */
    tl_reorder_loop loops[TL_REORDER_MAX_LOOPS];  /* outermost first */
    int    has_tails;                /* some loop has dim >= 0 */
    int    src_by_index;             /* see above */
    tl_dim data_limit[TL_MAX_NDIMS]; /* = dims: below it, data */
    tl_dim pad_limit[TL_MAX_NDIMS];  /* = dst padded_dims: below it, padding */
    tl_dim nelems;                   /* iterations of the whole nest */
    size_t src_lo, src_hi;           /* bytes of src the plan may read,
                                        [lo, hi) from the src pointer */
    size_t dst_lo, dst_hi;           /* bytes of dst it may write */
    size_t comp_offset;              /* bytes from dst to the int32
                                        compensation; 0: none */
    tl_dim comp_count;               /* int32 compensation values */
    tl_reorder_kernel kernel;        /* NULL: not initialised */
} tl_reorder_plan;

/* Reorders src (laid out as src_md) into dst (dst_md): same dims, any
   layouts and data types (f32, f16, bf16, s32, s8, u8, f64). attr may be
   NULL (a plain copy). On error nothing is written. Equivalent to
   tl_reorder_plan_init followed by tl_reorder_plan_execute. Errors:
   TL_INVALID_ARGUMENTS (NULL, invalid or `any` descriptor, bad attr),
   TL_SHAPE_MISMATCH (dims differ), TL_UNSUPPORTED (src with extra data,
   padded_offsets), TL_OVERLAP (src and dst memory overlap), TL_OVERFLOW. */
TL_API tl_status tl_reorder(const tl_memory_desc *src_md, const void *src,
                            const tl_memory_desc *dst_md, void *dst,
                            const tl_reorder_attr *attr);

/* Validates and simplifies a reorder once, for many executions. The plan
   copies both descriptors and attr (but not attr->scales, see above).
   On error *plan is left untouched. */
TL_API tl_status tl_reorder_plan_init(tl_reorder_plan *plan,
                                      const tl_memory_desc *src_md,
                                      const tl_memory_desc *dst_md,
                                      const tl_reorder_attr *attr);

/* Runs a plan on raw buffers (sized by tl_md_size). Allocates nothing;
   several threads may execute one plan at once on distinct dst buffers.
   TL_OVERLAP, with nothing written, when the buffers overlap. */
TL_API tl_status tl_reorder_plan_execute(const tl_reorder_plan *plan,
                                         const void *src, void *dst);


/* ---- shuffle (declarations) ------------------------------------------ */

typedef enum { TL_FORWARD = 0, TL_BACKWARD = 1 } tl_direction;

/* Channel shuffle (docs/shuffle.md). Along `axis`, of size C, the channels
   are read as a (C/G) x G matrix and transposed:
       dst[.., c, ..] = src[.., (c % (C/G)) * G + c / (C/G), ..]
   with G = group_size for TL_FORWARD (oneDNN's group_size, so a network's
   "groups = g" is group_size = C/g) and G = C/group_size for TL_BACKWARD,
   which undoes the forward shuffle. src and dst share the descriptor md,
   any layout it can describe (plain, strided, blocked, views), and are
   copied bit for bit. Padding elements of dst are written as zero on every
   call; bytes of dst outside md's elements are not touched. group_size must
   divide dims[axis] (an empty axis admits none). src and dst must not
   overlap (TL_OVERLAP). On any error nothing is written. */
TL_API tl_status tl_shuffle(const tl_memory_desc *md, const void *src, void *dst,
                            int axis, tl_dim group_size, tl_direction dir);

#ifdef __cplusplus
}
#endif
#endif /* TENSORLAYOUT_H */

/* ---- dlpack ---------------------------------------------------------- */
/* Declared when <dlpack/dlpack.h> was included first. This block sits
   outside the include guard so that including tensorlayout.h again after
   dlpack.h still declares it. docs/memory-descriptors.md has examples. */
#if (defined(DLPACK_VERSION) || defined(DLPACK_MAJOR_VERSION)) && !defined(TL__DLPACK_DECLARED)
#define TL__DLPACK_DECLARED
#ifdef __cplusplus
extern "C" {
#endif
/* Describes t as a plain strided tensor: dims = t->shape, strides =
   t->strides (in elements; NULL means compact row-major), offset0 =
   t->byte_offset / element size, so element idx lives at
   (char *)t->data + tl_md_offset(md, idx) * tl_dt_size(md->data_type).
   t->data and t->device are not read. Types: f32, f16, bf16, f64, s32,
   s8, u8 with lanes = 1. TL_UNSUPPORTED for other types, ndim 0 or above
   TL_MAX_NDIMS, negative strides; TL_INVALID_ARGUMENTS for a byte_offset
   that is not a multiple of the element size or overlapping strides.
   On error *md is untouched. */
TL_API tl_status tl_md_from_dlpack(tl_memory_desc *md, const DLTensor *t);

/* The inverse, for plain layouts only (no inner blocks, no extra data):
   fills t->ndim, t->dtype, t->byte_offset (offset0 in bytes), and points
   t->shape and t->strides at the caller's arrays shape and strides (at
   least md->ndims values each), which it fills (strides in elements).
   t->data and t->device are left for the caller. TL_UNSUPPORTED for a
   blocked layout; on error nothing is written. */
TL_API tl_status tl_md_to_dlpack(const tl_memory_desc *md, DLTensor *t,
                                 int64_t *shape, int64_t *strides);
#ifdef __cplusplus
}
#endif
#endif /* dlpack declarations */

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
#if (defined(__GNUC__) && __GNUC__ >= 5) || defined(__clang__)
    tl_dim r;           /* the compiler's check: a multiply, not a division */
    if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r)) return 1;
    *out = r;
#else
    if (a < 0 || b < 0) return 1;
    if (a != 0 && b > TL__DIM_MAX / a) return 1;
    *out = a * b;
#endif
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

static tl_status tl__md_status(const tl_memory_desc *md);   /* below */

TL_API tl_status tl_md_init_by_strides(tl_memory_desc *md, int ndims,
                                       const tl_dim *dims, tl_data_type dt,
                                       const tl_dim *strides)
{
    tl_memory_desc tmp;
    tl_dim dense[TL_MAX_NDIMS], stride = 1;
    tl_status st;
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
    memset(&tmp, 0, sizeof tmp);
    tmp.ndims = ndims;
    tmp.data_type = dt;
    tmp.format_kind = TL_FORMAT_KIND_BLOCKED;
    for (d = 0; d < ndims; ++d) {
        tmp.dims[d] = tmp.padded_dims[d] = dims[d];
        tmp.blocking.strides[d] = strides[d];
    }
    /* the size counts the full outer strides, not just the last element
       (tl__md_span_overflows): one check, validate's, decides if it fits */
    st = tl__md_status(&tmp);
    if (st) return st;
    *md = tmp;
    return TL_OK;
}

/* ---- validation ------------------------------------------------------ */

/* Names the problem for tl_md_validate; internal callers only want the
   status, so they never touch a caller's buffer (nor make GCC 12 warn
   about a NULL one once everything is inlined). */
static tl_status tl__fail(const char **why, const char *text, tl_status st)
{
    *why = text;
    return st;
}

/* Elements one copy of the tensor spans from offset0: the last padded
   element + 1. A descriptor that starts at the buffer start also counts,
   as oneDNN does, the full stride of its outermost dim (a matrix with
   leading dimension LDA spans M * LDA, trailing gap included; dims with
   one outer step count no stride), so then this is oneDNN's size. A view (offset0 > 0) ends at its last element,
   so its size never exceeds its parent's. */
static int tl__span_overflows(const tl_memory_desc *md, const tl_dim *outer, tl_dim inner,
                              tl_dim *out)
{
    tl_dim span, full;
    int d;
    if (tl__extent_overflows(md->ndims, outer, md->blocking.strides, inner, &span)) return 1;
    for (d = 0; d < md->ndims && span > 0 && md->offset0 == 0; ++d) {
        if (outer[d] == 1) continue;     /* a single step: its stride is free */
        /* a trailing gap too large for int64 is not counted: the elements
           themselves fit, and no buffer that large exists */
        if (!tl__mul_overflows(outer[d], md->blocking.strides[d], &full) && full > span)
            span = full;
    }
    *out = span;
    return 0;
}

/* Of a valid md: each dim's padded size over its inner blocks in outer,
   and the product of the inner blocks returned. */
static tl_dim tl__md_outer(const tl_memory_desc *md, tl_dim *outer)
{
    tl_dim blocks[TL_MAX_NDIMS], inner = 1;
    int d, b;
    tl__dim_blocks(md, blocks);
    for (b = 0; b < md->blocking.inner_nblks; ++b) inner *= md->blocking.inner_blks[b];
    for (d = 0; d < md->ndims; ++d) outer[d] = md->padded_dims[d] / blocks[d];
    return inner;
}

/* The same, from a valid descriptor alone. */
static int tl__md_span_overflows(const tl_memory_desc *md, tl_dim *out)
{
    tl_dim outer[TL_MAX_NDIMS], inner = tl__md_outer(md, outer);
    return tl__span_overflows(md, outer, inner, out);
}

static tl_status tl__md_check(const tl_memory_desc *md, const char **why)
{
    tl_dim blocks[TL_MAX_NDIMS], inner = 1, outer[TL_MAX_NDIMS], span, t;
    int d, b;
    if (!md) return tl__fail(why, "md is NULL", TL_INVALID_ARGUMENTS);
    if (md->ndims < 1 || md->ndims > TL_MAX_NDIMS)
        return tl__fail(why, "ndims outside 1..TL_MAX_NDIMS", TL_INVALID_ARGUMENTS);
    if (!tl__dt_valid(md->data_type))
        return tl__fail(why, "data_type is not a known type", TL_INVALID_ARGUMENTS);
    if (md->format_kind == TL_FORMAT_KIND_ANY)
        return tl__fail(why, "format_kind is any: no layout yet", TL_INVALID_ARGUMENTS);
    if (md->format_kind != TL_FORMAT_KIND_BLOCKED)
        return tl__fail(why, "format_kind is not blocked", TL_INVALID_ARGUMENTS);
    if (md->blocking.inner_nblks < 0 || md->blocking.inner_nblks > TL_MAX_NDIMS)
        return tl__fail(why, "inner_nblks outside 0..TL_MAX_NDIMS", TL_INVALID_ARGUMENTS);
    for (b = 0; b < md->blocking.inner_nblks; ++b) {
        if (md->blocking.inner_blks[b] < 1)
            return tl__fail(why, "inner_blks holds a size below 1", TL_INVALID_ARGUMENTS);
        if (md->blocking.inner_idxs[b] < 0 || md->blocking.inner_idxs[b] >= md->ndims)
            return tl__fail(why, "inner_idxs names a dim that does not exist", TL_INVALID_ARGUMENTS);
        if (tl__mul_overflows(inner, md->blocking.inner_blks[b], &inner))
            return tl__fail(why, "inner blocks overflow int64", TL_OVERFLOW);
    }
    for (d = 0; d < TL_MAX_NDIMS; ++d) blocks[d] = 1;
    for (b = 0; b < md->blocking.inner_nblks; ++b)
        if (tl__mul_overflows(blocks[md->blocking.inner_idxs[b]], md->blocking.inner_blks[b],
                              &blocks[md->blocking.inner_idxs[b]]))
            return tl__fail(why, "inner blocks overflow int64", TL_OVERFLOW);
    for (d = 0; d < md->ndims; ++d) {
        if (md->dims[d] < 0)
            return tl__fail(why, "dims holds a negative value", TL_INVALID_ARGUMENTS);
        if (md->padded_offsets[d] < 0 ||
            tl__add_overflows(md->dims[d], md->padded_offsets[d], &t) ||
            md->padded_dims[d] < t)
            return tl__fail(why, "padded_dims smaller than dims + padded_offsets", TL_INVALID_ARGUMENTS);
        if (md->padded_dims[d] % blocks[d] != 0)
            return tl__fail(why, "padded_dims not a multiple of its inner blocks", TL_INVALID_ARGUMENTS);
        if (md->blocking.strides[d] < 0)
            return tl__fail(why, "strides holds a negative value", TL_INVALID_ARGUMENTS);
        outer[d] = md->padded_dims[d] / blocks[d];
    }
    if (md->offset0 < 0)
        return tl__fail(why, "offset0 is negative", TL_INVALID_ARGUMENTS);
    if (tl__strides_overlap(md->ndims, outer, md->blocking.strides, inner))
        return tl__fail(why, "strides overlap (a stride is smaller than the span inside it)", TL_INVALID_ARGUMENTS);
    if (tl__span_overflows(md, outer, inner, &span) || tl__add_overflows(span, md->offset0, &span) ||
        tl__mul_overflows(span, (tl_dim)tl_dt_size(md->data_type), &span))
        return tl__fail(why, "size does not fit in int64", TL_OVERFLOW);
    if (md->extra.flags & ~(uint64_t)(TL_MD_EXTRA_COMPENSATION_S8S8 | TL_MD_EXTRA_SCALE_ADJUST))
        return tl__fail(why, "extra.flags holds an unknown flag", TL_INVALID_ARGUMENTS);
    if (md->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) {
        if (md->data_type != TL_S8)
            return tl__fail(why, "compensation needs an s8 descriptor", TL_INVALID_ARGUMENTS);
        if (md->extra.compensation_mask < 0 || (md->extra.compensation_mask >> md->ndims) != 0)
            return tl__fail(why, "compensation_mask names a dim that does not exist", TL_INVALID_ARGUMENTS);
        /* the int32 values after the data (4-aligned) must fit too */
        t = 1;
        for (d = 0; d < md->ndims; ++d)
            if ((md->extra.compensation_mask >> d & 1) &&
                tl__mul_overflows(t, md->padded_dims[d], &t))
                return tl__fail(why, "size with compensation does not fit in int64", TL_OVERFLOW);
        if (tl__round_up_overflows(span, 4, &span) || tl__mul_overflows(t, 4, &t) ||
            tl__add_overflows(span, t, &span))
            return tl__fail(why, "size with compensation does not fit in int64", TL_OVERFLOW);
    }
    return tl__fail(why, "ok", TL_OK);
}

TL_API tl_status tl_md_validate(const tl_memory_desc *md, char *why, size_t len)
{
    const char *text = "ok";
    tl_status st = tl__md_check(md, &text);
    if (why && len) {
        size_t n = strlen(text);
        if (n >= len) n = len - 1;
        memcpy(why, text, n);
        why[n] = '\0';
    }
    return st;
}

static tl_status tl__md_status(const tl_memory_desc *md)
{
    const char *why;
    return tl__md_check(md, &why);
}

static int tl__md_ok(const tl_memory_desc *md) { return tl__md_status(md) == TL_OK; }

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

/* tl_md_size of a descriptor already validated (callers that checked it
   skip a second check: tl_shuffle builds its plan on every call). */
static size_t tl__md_bytes(const tl_memory_desc *md)
{
    tl_dim span, bytes, comp;
    int d;
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

TL_API size_t tl_md_size(const tl_memory_desc *md)
{
    return tl__md_ok(md) ? tl__md_bytes(md) : 0;
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

/* Whether dim a sits outside dim b in memory: the larger stride, and on
   a tie (one of them has a single outer step, so its stride is free) the
   one with more outer steps. */
static int tl__outer_before(const tl_memory_desc *md, int a, int b)
{
    tl_dim blocks[TL_MAX_NDIMS];
    if (md->blocking.strides[a] != md->blocking.strides[b])
        return md->blocking.strides[a] > md->blocking.strides[b];
    tl__dim_blocks(md, blocks);
    return md->padded_dims[a] / blocks[a] > md->padded_dims[b] / blocks[b];
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
    for (i = 1; i < md->ndims; ++i)      /* stable sort, outermost first */
        for (j = i; j > 0 && tl__outer_before(md, order[j], order[j - 1]); --j) {
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
/* The loop model. A logical dim d of a descriptor is stored as mixed-radix
   digits: one per inner block of d (weight: the product of d's blocks
   inside it; stride: the product of all inner blocks inside it) and the
   outer digit (weight: all of d's blocks; stride: blocking.strides[d]).
   A plan takes, per dim, the union of both sides' digit weights below the
   destination's padded_dims[d]. When they form a divisibility chain, each
   step of the chain lies inside one digit of each side, so it becomes a
   loop with constant strides on both: digit stride * (weight / digit
   weight). The top loop runs to ceil(padded_dims / weight), which can
   reach past the padded end (src 16c into dst 8c, C = 20), and elements
   past dims are padding. Such dims keep their loops tagged (dim, weight):
   the kernel adds up the logical index of the outer loops and bounds each
   loop by ceil((limit - base) / weight), once with dims (data) and once
   with dst padded_dims (padding, written as zero). Src padding is never
   read. When the weights do not nest (src 3c, dst 4c), the loops follow
   the destination alone and the src offset is computed per element from
   the logical index (src_by_index). Then size-1 steps are gone, loops are
   sorted by dst stride (largest outside) so the destination streams, and
   neighbours contiguous in src, dst, scales and compensation merge. */

#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef TL__SIMD_ENABLED
/* tensorlayout_simd.h defines it: it may replace plan->kernel */
static void tl__simd_reorder_pick(tl_reorder_plan *plan);
#endif

#define TL__CHUNK 64                  /* values converted per pass */
#define TL__OMP_MIN_WORK 65536        /* elements before threads pay off */
#define TL__MAX_DIGITS (TL_MAX_NDIMS + 1)

typedef struct { tl_dim weight, stride; } tl__digit;

/* The digits of dim d in md by increasing weight; returns their count.
   Blocks of size 1 hold a single value and are left out. */
static int tl__md_digits(const tl_memory_desc *md, int d, tl__digit *out)
{
    tl_dim weight = 1, stride = 1;
    int b, n = 0;
    for (b = md->blocking.inner_nblks - 1; b >= 0; --b) {
        tl_dim blk = md->blocking.inner_blks[b];
        if (md->blocking.inner_idxs[b] == d && blk > 1) {
            out[n].weight = weight;
            out[n].stride = stride;
            ++n;
            weight *= blk;
        }
        stride *= blk;
    }
    out[n].weight = weight;
    out[n].stride = md->blocking.strides[d];
    return n + 1;
}

/* Element stride in md of a loop of dim d that steps the logical index by
   w: it lies inside the digit of the largest weight <= w. 1 on overflow. */
static int tl__md_loop_stride(const tl_memory_desc *md, int d, tl_dim w, tl_dim *out)
{
    tl__digit dg[TL__MAX_DIGITS];
    int k = tl__md_digits(md, d, dg) - 1;
    while (k > 0 && dg[k].weight > w) --k;
    return tl__mul_overflows(dg[k].stride, w / dg[k].weight, out);
}

/* Adds md's digit weights of dim d below limit to the sorted set w. */
static void tl__chain_add(const tl_memory_desc *md, int d, tl_dim limit,
                          tl_dim *w, int *n)
{
    tl__digit dg[TL__MAX_DIGITS];
    int k, m = tl__md_digits(md, d, dg), i, j;
    for (k = 0; k < m; ++k) {
        if (dg[k].weight >= limit) continue;
        for (i = 0; i < *n && w[i] < dg[k].weight; ++i) {}
        if (i < *n && w[i] == dg[k].weight) continue;
        for (j = *n; j > i; --j) w[j] = w[j - 1];
        w[i] = dg[k].weight;
        ++*n;
    }
}

/* The loop weights of dim d, ascending: dst's digits, plus src's when
   with_src. Returns their count, or -1 when they do not nest. */
static int tl__dim_chain(const tl_memory_desc *src, const tl_memory_desc *dst,
                         int d, int with_src, tl_dim *w)
{
    int n = 0, i;
    tl__chain_add(dst, d, dst->padded_dims[d], w, &n);
    if (with_src) tl__chain_add(src, d, dst->padded_dims[d], w, &n);
    for (i = 0; i + 1 < n; ++i)
        if (w[i + 1] % w[i] != 0) return -1;
    return n;
}

/* The compensation layout: dst restricted to the masked dims, with its
   outer order and inner blocks, dense over padded dims. Unmasked dims
   become size 1 with stride 0, so any index there maps to slot 0. */
static void tl__comp_md(const tl_memory_desc *dst, tl_memory_desc *c)
{
    int mask = dst->extra.compensation_mask, order[TL_MAX_NDIMS], n = 0, i, j, b;
    tl_dim blocks[TL_MAX_NDIMS], stride = 1;
    memset(c, 0, sizeof *c);
    c->ndims = dst->ndims;
    c->data_type = TL_S32;
    c->format_kind = TL_FORMAT_KIND_BLOCKED;
    for (i = 0; i < dst->ndims; ++i) {
        int on = (mask >> i) & 1;
        c->dims[i] = on ? dst->dims[i] : 1;
        c->padded_dims[i] = on ? dst->padded_dims[i] : 1;
        if (on) order[n++] = i;
    }
    for (b = 0; b < dst->blocking.inner_nblks; ++b) {
        int d = (int)dst->blocking.inner_idxs[b];
        if (!((mask >> d) & 1)) continue;
        c->blocking.inner_blks[c->blocking.inner_nblks] = dst->blocking.inner_blks[b];
        c->blocking.inner_idxs[c->blocking.inner_nblks++] = d;
        stride *= dst->blocking.inner_blks[b];
    }
    for (i = 1; i < n; ++i)             /* outermost first, as in dst */
        for (j = i; j > 0 && tl__outer_before(dst, order[j], order[j - 1]); --j) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    tl__dim_blocks(c, blocks);
    for (i = n - 1; i >= 0; --i) {
        c->blocking.strides[order[i]] = stride;
        stride *= c->padded_dims[order[i]] / blocks[order[i]];
    }
}

/* Whether loop `in` continues loop `out` in every array, so that the two
   can run as one. Tracked loops merge only within their dim. */
static int tl__loops_merge(const tl_reorder_loop *out, const tl_reorder_loop *in)
{
    tl_dim s;
    if (tl__mul_overflows(in->src_stride, in->size, &s) || s != out->src_stride) return 0;
    if (tl__mul_overflows(in->dst_stride, in->size, &s) || s != out->dst_stride) return 0;
    if (tl__mul_overflows(in->scale_stride, in->size, &s) || s != out->scale_stride) return 0;
    if (tl__mul_overflows(in->comp_stride, in->size, &s) || s != out->comp_stride) return 0;
    if (out->dim < 0 && in->dim < 0) return 1;
    return out->dim == in->dim && in->weight * in->size == out->weight;
}

/* Sorts by dst stride, largest first (stable), then merges neighbours. */
static void tl__loops_simplify(tl_reorder_plan *p)
{
    int i, j, n = 0;
    for (i = 1; i < p->nloops; ++i)
        for (j = i; j > 0 && p->loops[j].dst_stride > p->loops[j - 1].dst_stride; --j) {
            tl_reorder_loop t = p->loops[j];
            p->loops[j] = p->loops[j - 1];
            p->loops[j - 1] = t;
        }
    for (i = 0; i < p->nloops; ++i) {
        if (n > 0 && tl__loops_merge(&p->loops[n - 1], &p->loops[i])) {
            p->loops[n - 1].size *= p->loops[i].size;
            p->loops[n - 1].src_stride = p->loops[i].src_stride;
            p->loops[n - 1].dst_stride = p->loops[i].dst_stride;
            p->loops[n - 1].scale_stride = p->loops[i].scale_stride;
            p->loops[n - 1].comp_stride = p->loops[i].comp_stride;
            p->loops[n - 1].weight = p->loops[i].weight;
        } else {
            p->loops[n++] = p->loops[i];
        }
    }
    p->nloops = n;
}

/* Scale index multiplier of each masked dim: row-major over the masked
   dims, unpadded. The count of scales goes to *count. */
static int tl__scale_mults_overflow(const tl_memory_desc *md, int mask,
                                    tl_dim *mult, tl_dim *count)
{
    tl_dim m = 1;
    int d;
    for (d = md->ndims - 1; d >= 0; --d) {
        mult[d] = 0;
        if (!((mask >> d) & 1)) continue;
        mult[d] = m;
        if (tl__mul_overflows(m, md->dims[d], &m)) return 1;
    }
    *count = m;
    return 0;
}

/* One loop of dim d with weight w and the given size. */
static tl_status tl__loop_make(const tl_reorder_plan *p, const tl_memory_desc *comp,
                               const tl_dim *smult, int d, tl_dim w, tl_dim size,
                               int tracked, tl_reorder_loop *lp)
{
    memset(lp, 0, sizeof *lp);
    lp->size = size;
    lp->dim = tracked ? d : -1;
    lp->weight = w;
    /* a step past the last data index is never read from src */
    if (!p->src_by_index && w < p->src_md.dims[d] &&
        tl__md_loop_stride(&p->src_md, d, w, &lp->src_stride)) return TL_OVERFLOW;
    if (tl__md_loop_stride(&p->dst_md, d, w, &lp->dst_stride)) return TL_OVERFLOW;
    if (tl__mul_overflows(w, smult[d], &lp->scale_stride)) return TL_OVERFLOW;
    if (comp && ((p->dst_md.extra.compensation_mask >> d) & 1) &&
        tl__md_loop_stride(comp, d, w, &lp->comp_stride)) return TL_OVERFLOW;
    return TL_OK;
}

/* Fills p->loops: per-dim chains, then sort and merge. */
static tl_status tl__reorder_build_loops(tl_reorder_plan *p)
{
    const tl_memory_desc *dst = &p->dst_md;
    tl_memory_desc comp;
    tl_dim chain[TL_MAX_NDIMS][2 * TL_MAX_NDIMS + 2], smult[TL_MAX_NDIMS], count;
    int nchain[TL_MAX_NDIMS], d, j, n = 0;
    tl_status st;
    for (d = 0; d < dst->ndims; ++d) {
        nchain[d] = tl__dim_chain(&p->src_md, dst, d, 1, chain[d]);
        if (nchain[d] < 0) p->src_by_index = 1;
    }
    if (p->src_by_index)
        for (d = 0; d < dst->ndims; ++d)
            nchain[d] = tl__dim_chain(&p->src_md, dst, d, 0, chain[d]);
    if (tl__scale_mults_overflow(dst, p->scales ? p->attr.scale_mask : 0, smult, &count))
        return TL_OVERFLOW;
    if (dst->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) tl__comp_md(dst, &comp);
    for (d = 0; d < dst->ndims; ++d) {
        tl_dim lim = dst->padded_dims[d], top, cover;
        int tracked;
        if (nchain[d] == 0) continue;
        top = chain[d][nchain[d] - 1];
        if (tl__mul_overflows((lim - 1) / top + 1, top, &cover)) return TL_OVERFLOW;
        tracked = p->src_by_index || cover != lim || dst->dims[d] != lim;
        for (j = 0; j < nchain[d]; ++j) {
            tl_dim w = chain[d][j];
            tl_dim size = j + 1 < nchain[d] ? chain[d][j + 1] / w : (lim - 1) / w + 1;
            st = tl__loop_make(p, (dst->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) ? &comp : NULL,
                               smult, d, w, size, tracked, &p->loops[n]);
            if (st) return st;
            p->has_tails |= tracked;
            ++n;
        }
        p->data_limit[d] = dst->dims[d];
        p->pad_limit[d] = lim;
    }
    if (n == 0) {                 /* a single element: one loop of one */
        memset(&p->loops[0], 0, sizeof p->loops[0]);
        p->loops[0].size = 1;
        p->loops[0].dim = -1;
        p->loops[0].weight = 1;
        n = 1;
    }
    p->nloops = n;
    tl__loops_simplify(p);
    return TL_OK;
}

/* Checks that no offset the loops can form overflows, and counts the
   iterations (0 for an empty tensor). */
static tl_status tl__reorder_check_offsets(tl_reorder_plan *p)
{
    tl_dim s = p->src_md.offset0, t = p->dst_md.offset0, sc = 0, c = 0, n = 1, x;
    int l, d;
    for (l = 0; l < p->nloops; ++l) {
        const tl_reorder_loop *lp = &p->loops[l];
        if (tl__mul_overflows(lp->size - 1, lp->src_stride, &x) || tl__add_overflows(s, x, &s) ||
            tl__mul_overflows(lp->size - 1, lp->dst_stride, &x) || tl__add_overflows(t, x, &t) ||
            tl__mul_overflows(lp->size - 1, lp->scale_stride, &x) || tl__add_overflows(sc, x, &sc) ||
            tl__mul_overflows(lp->size - 1, lp->comp_stride, &x) || tl__add_overflows(c, x, &c) ||
            tl__mul_overflows(n, lp->size, &n))
            return TL_OVERFLOW;
        if (tl__mul_overflows(lp->weight, lp->size, &x)) return TL_OVERFLOW;
    }
    for (d = 0; d < p->dst_md.ndims; ++d) if (p->dst_md.dims[d] == 0) n = 0;
    p->nelems = n;
    return TL_OK;
}

/* Bytes [lo, hi) from the buffer start that md's elements and padding
   occupy (offset0 to the last padded element). */
static tl_status tl__md_byte_range(const tl_memory_desc *md, size_t *lo, size_t *hi)
{
    tl_dim outer[TL_MAX_NDIMS], inner = tl__md_outer(md, outer), ext, a, b;
    tl_dim sz = (tl_dim)tl_dt_size(md->data_type);
    if (tl__extent_overflows(md->ndims, outer, md->blocking.strides, inner, &ext) ||
        tl__mul_overflows(md->offset0, sz, &a) || tl__add_overflows(md->offset0, ext, &b) ||
        tl__mul_overflows(b, sz, &b) || (uint64_t)b > (uint64_t)SIZE_MAX)
        return TL_OVERFLOW;
    *lo = (size_t)a;
    *hi = (size_t)b;
    return TL_OK;
}

/* Where the int32 compensation lives: after the data, 4-aligned. */
static tl_status tl__comp_place(tl_reorder_plan *p)
{
    tl_memory_desc plain = p->dst_md;
    tl_dim bytes, n = 1, end;
    size_t data;
    int d;
    plain.extra.flags &= ~(uint64_t)TL_MD_EXTRA_COMPENSATION_S8S8;
    data = tl_md_size(&plain);
    if (data == 0 || (uint64_t)data > (uint64_t)TL__DIM_MAX - 3) return TL_OVERFLOW;
    bytes = ((tl_dim)data + 3) / 4 * 4;
    for (d = 0; d < p->dst_md.ndims; ++d)
        if ((p->dst_md.extra.compensation_mask >> d) & 1 &&
            tl__mul_overflows(n, p->dst_md.padded_dims[d], &n)) return TL_OVERFLOW;
    if (tl__mul_overflows(n, 4, &end) || tl__add_overflows(bytes, end, &end) ||
        (uint64_t)end > (uint64_t)SIZE_MAX) return TL_OVERFLOW;
    p->comp_offset = (size_t)bytes;
    p->comp_count = n;
    return TL_OK;
}

/* Everything about the problem that can be wrong, before any work. */
static tl_status tl__reorder_check(const tl_memory_desc *src, const tl_memory_desc *dst,
                                   const tl_reorder_attr *a)
{
    tl_dim mult[TL_MAX_NDIMS], count;
    tl_status st;
    int d;
    if ((st = tl__md_status(src)) != TL_OK) return st;
    if ((st = tl__md_status(dst)) != TL_OK) return st;
    if (src->ndims != dst->ndims) return TL_SHAPE_MISMATCH;
    for (d = 0; d < src->ndims; ++d)
        if (src->dims[d] != dst->dims[d]) return TL_SHAPE_MISMATCH;
    /* extra data describes a destination made for a primitive; oneDNN
       does not read it back either */
    if (src->extra.flags) return TL_UNSUPPORTED;
    for (d = 0; d < src->ndims; ++d)
        if (src->padded_offsets[d] || dst->padded_offsets[d]) return TL_UNSUPPORTED;
    if (a->scale_mask < 0 || (a->scale_mask >> src->ndims) != 0 || a->nthreads < 0)
        return TL_INVALID_ARGUMENTS;
    if (tl__scale_mults_overflow(src, a->scale_mask, mult, &count)) return TL_OVERFLOW;
    return TL_OK;
}

/* The one place where attr defaults and shortcuts are decided. */
static void tl__reorder_resolve(tl_reorder_plan *p)
{
    const tl_reorder_attr *a = &p->attr;
    tl_dim mult[TL_MAX_NDIMS], count = 1;
    int one_scale, identity;
    /* a single scale of 1 is no scale, whatever dims the mask names */
    tl__scale_mults_overflow(&p->dst_md, a->scale_mask, mult, &count);
    one_scale = !a->scales || (count == 1 && a->scales[0] == 1.0f);
    p->scales = one_scale ? NULL : a->scales;
    p->src_zero_point = (float)a->src_zero_point;
    p->dst_zero_point = (float)a->dst_zero_point;
    p->beta = a->beta;
    p->has_scale_adjust = (p->dst_md.extra.flags & TL_MD_EXTRA_SCALE_ADJUST) != 0;
    p->scale_adjust = p->has_scale_adjust ? p->dst_md.extra.scale_adjust : 1.0f;
    identity = one_scale && a->src_zero_point == 0 && a->dst_zero_point == 0 &&
               a->beta == 0 && !p->has_scale_adjust;
    p->mode = TL_REORDER_MODE_CONVERT;
    if (identity && p->src_md.data_type == p->dst_md.data_type)
        p->mode = TL_REORDER_MODE_COPY;
    else if (identity && p->src_md.data_type == TL_S32 && p->dst_md.data_type == TL_F64)
        p->mode = TL_REORDER_MODE_WIDEN;
#ifdef _OPENMP
    if (p->attr.nthreads == 0) p->attr.nthreads = omp_get_max_threads();
#endif
    if (p->attr.nthreads < 1) p->attr.nthreads = 1;
}

/* ---- reorder: per-element arithmetic ---- */

/* f64 -> f32 rounding to nearest even; C leaves out-of-range conversions
   undefined, so the overflow to infinity is spelled out. */
static float tl__f64_to_f32(double x)
{
    const double inf_from = 340282356779733661637539395458142568448.0; /* FLT_MAX + half ulp */
    if (x >= inf_from) return tl__bits_f32(0x7f800000u);
    if (x <= -inf_from) return tl__bits_f32(0xff800000u);
    return (float)x;
}

/* Half to even for |v| <= 2^31, independent of the FP rounding mode.
   The comparisons are used as 0/1 values, not branches: on real data the
   fraction is random and a branch would mispredict half the time. */
static int64_t tl__round_even(float v)
{
    int64_t t = (int64_t)v;               /* toward zero, exact */
    float frac = v - (float)t;            /* exact: t and v share bits */
    int odd = (int)(t & 1);
    int up = (frac > 0.5f) | ((frac == 0.5f) & odd);
    int down = (frac < -0.5f) | ((frac == -0.5f) & odd);
    return t + up - down;
}

/* Clamps in f32 first (so s32 tops out at 2147483520), NaN gives 0. */
static int64_t tl__saturate(float v, float lo, float hi)
{
    if (v != v) return 0;
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    return tl__round_even(v);
}

/* Reads m values of type dt, `step` bytes apart, as f32. */
static void tl__load_f32(tl_data_type dt, const char *p, size_t step, int m, float *out)
{
    int k;
    switch (dt) {
    case TL_F32: for (k = 0; k < m; ++k) memcpy(&out[k], p + k * step, 4); break;
    case TL_F16:
        for (k = 0; k < m; ++k) { uint16_t h; memcpy(&h, p + k * step, 2); out[k] = tl_f16_to_f32(h); }
        break;
    case TL_BF16:
        for (k = 0; k < m; ++k) { uint16_t h; memcpy(&h, p + k * step, 2); out[k] = tl_bf16_to_f32(h); }
        break;
    case TL_S32:
        for (k = 0; k < m; ++k) { int32_t x; memcpy(&x, p + k * step, 4); out[k] = (float)x; }
        break;
    case TL_S8: for (k = 0; k < m; ++k) out[k] = (float)(signed char)p[k * step]; break;
    case TL_U8: for (k = 0; k < m; ++k) out[k] = (float)(unsigned char)p[k * step]; break;
    case TL_F64:
        for (k = 0; k < m; ++k) { double x; memcpy(&x, p + k * step, 8); out[k] = tl__f64_to_f32(x); }
        break;
    default: break;
    }
}

/* Writes m f32 values as type dt, `step` bytes apart: integers rounded
   half to even and saturated, f16/bf16 rounded to nearest even. */
static void tl__store_f32(tl_data_type dt, const float *v, char *p, size_t step, int m)
{
    int k;
    switch (dt) {
    case TL_F32: for (k = 0; k < m; ++k) memcpy(p + k * step, &v[k], 4); break;
    case TL_F16:
        for (k = 0; k < m; ++k) { uint16_t h = tl_f32_to_f16(v[k]); memcpy(p + k * step, &h, 2); }
        break;
    case TL_BF16:
        for (k = 0; k < m; ++k) { uint16_t h = tl_f32_to_bf16(v[k]); memcpy(p + k * step, &h, 2); }
        break;
    case TL_S32:
        for (k = 0; k < m; ++k) {
            int32_t x = (int32_t)tl__saturate(v[k], -2147483648.0f, 2147483520.0f);
            memcpy(p + k * step, &x, 4);
        }
        break;
    case TL_S8: for (k = 0; k < m; ++k) p[k * step] = (char)(signed char)tl__saturate(v[k], -128.f, 127.f); break;
    case TL_U8: for (k = 0; k < m; ++k) p[k * step] = (char)(unsigned char)tl__saturate(v[k], 0.f, 255.f); break;
    case TL_F64:
        for (k = 0; k < m; ++k) { double x = v[k]; memcpy(p + k * step, &x, 8); }
        break;
    default: break;
    }
}

/* Empty asm that may read and write all memory: values computed before
   it must be stored, and those after it reloaded, so a product on one
   side can never fuse with a sum on the other (GCC contracts across
   statements and even across loops under -ffp-contract=fast). */
#if defined(__GNUC__) || defined(__clang__)
#define TL__FP_BARRIER(p) __asm__ __volatile__("" : : "r"(p) : "memory")
#else
#define TL__FP_BARRIER(p) ((void)(p))
#endif

/* DESIGN's formula on a chunk, one operation per pass with a barrier
   between passes: each result is rounded to f32 before the next
   operation, never fused into a multiply-add, whatever -ffp-contract the
   including file uses. old holds dst_old when beta != 0. */
static void tl__quantize(const tl_reorder_plan *p, float *v, float *old,
                         tl_dim sidx, tl_dim sstep, int m)
{
    int k;
    if (p->src_zero_point != 0)
        for (k = 0; k < m; ++k) v[k] = v[k] - p->src_zero_point;
    if (p->scales)
        for (k = 0; k < m; ++k) v[k] = p->scales[sidx + k * sstep] * v[k];
    TL__FP_BARRIER(v);
    if (p->beta != 0) {
        for (k = 0; k < m; ++k) old[k] = p->beta * old[k];
        TL__FP_BARRIER(old);
        for (k = 0; k < m; ++k) v[k] = v[k] + old[k];
    }
    /* zero points of 0 are skipped, not added: -0.0 + 0 would lose its sign */
    if (p->dst_zero_point != 0)
        for (k = 0; k < m; ++k) v[k] = v[k] + p->dst_zero_point;
    TL__FP_BARRIER(v);
    if (p->has_scale_adjust)
        for (k = 0; k < m; ++k) v[k] = p->scale_adjust * v[k];
}

/* n elements of the same data type, bit for bit. */
static void tl__copy_run(const char *src, tl_dim ss, char *dst, tl_dim ds, size_t sz, tl_dim n)
{
    tl_dim k;
    if (ss == 1 && ds == 1) { memcpy(dst, src, (size_t)n * sz); return; }
    for (k = 0; k < n; ++k) memcpy(dst + (size_t)(k * ds) * sz, src + (size_t)(k * ss) * sz, sz);
}

static void tl__widen_run(const char *src, tl_dim ss, char *dst, tl_dim ds, tl_dim n)
{
    tl_dim k;
    for (k = 0; k < n; ++k) {
        int32_t x;
        double y;
        memcpy(&x, src + (size_t)(k * ss) * 4, 4);
        y = x;
        memcpy(dst + (size_t)(k * ds) * 8, &y, 8);
    }
}

static void tl__zero_run(char *dst, tl_dim ds, size_t sz, tl_dim n)
{
    tl_dim k;
    if (ds == 1) { memset(dst, 0, (size_t)n * sz); return; }
    for (k = 0; k < n; ++k) memset(dst + (size_t)(k * ds) * sz, 0, sz);
}

/* Converts n elements: src and dst in elements of their own type apart
   (ss, ds), the scale index starting at sidx, sstep apart. */
static void tl__convert_run(const tl_reorder_plan *p, const char *src, tl_dim ss,
                            char *dst, tl_dim ds, tl_dim sidx, tl_dim sstep, tl_dim n)
{
    tl_data_type st = p->src_md.data_type, dt = p->dst_md.data_type;
    size_t ssz = tl_dt_size(st), dsz = tl_dt_size(dt);
    float v[TL__CHUNK], old[TL__CHUNK];
    tl_dim k;
    if (p->mode == TL_REORDER_MODE_COPY) { tl__copy_run(src, ss, dst, ds, ssz, n); return; }
    if (p->mode == TL_REORDER_MODE_WIDEN) { tl__widen_run(src, ss, dst, ds, n); return; }
    for (k = 0; k < n; k += TL__CHUNK) {
        int m = n - k < TL__CHUNK ? (int)(n - k) : TL__CHUNK;
        char *d = dst + (size_t)(k * ds) * dsz;
        tl__load_f32(st, src + (size_t)(k * ss) * ssz, (size_t)ss * ssz, m, v);
        if (p->beta != 0) tl__load_f32(dt, d, (size_t)ds * dsz, m, old);
        tl__quantize(p, v, old, sidx + k * sstep, sstep, m);
        tl__store_f32(dt, v, d, (size_t)ds * dsz, m);
    }
}

/* ---- reorder: the loop walker ---- */

typedef struct { tl_dim src, dst, scale, comp; } tl__pos;

struct tl__walker;
/* Handles a run of the innermost loop from position p: n_data data
   elements, then padding up to n_pad. */
typedef void (*tl__leaf_fn)(struct tl__walker *w, tl__pos p, tl_dim n_data, tl_dim n_pad);

typedef struct tl__walker {
    const tl_reorder_plan *plan;
    const char *src;
    char *dst;
    tl_dim base[TL_MAX_NDIMS];   /* logical index of tracked dims so far */
    tl__leaf_fn leaf;
} tl__walker;

static tl__pos tl__pos_step(tl__pos p, const tl_reorder_loop *lp, tl_dim i)
{
    p.src += i * lp->src_stride;
    p.dst += i * lp->dst_stride;
    p.scale += i * lp->scale_stride;
    p.comp += i * lp->comp_stride;
    return p;
}

/* Iterations of a loop (at most size) whose logical index, from base in
   steps of weight, stays below limit. */
static tl_dim tl__loop_bound(tl_dim limit, tl_dim base, tl_dim weight, tl_dim size)
{
    tl_dim left = limit - base;
    if (left <= 0) return 0;
    left = (left - 1) / weight + 1;
    return left < size ? left : size;
}

/* Iterations [begin, end) of loop l. in_pad: an outer loop is already
   past dims, so everything below is padding. */
static void tl__walk(tl__walker *w, int l, tl_dim begin, tl_dim end, tl__pos p, int in_pad)
{
    const tl_reorder_plan *pl = w->plan;
    const tl_reorder_loop *lp = &pl->loops[l];
    tl_dim n_data = end, n_pad = end, i;
    int d = lp->dim;
    if (d >= 0) {
        n_data = tl__loop_bound(pl->data_limit[d], w->base[d], lp->weight, end);
        n_pad = tl__loop_bound(pl->pad_limit[d], w->base[d], lp->weight, end);
    }
    if (in_pad || n_data < begin) n_data = begin;
    if (n_pad < begin) n_pad = begin;
    if (l == pl->nloops - 1) {
        if (d >= 0) w->base[d] += begin * lp->weight;
        w->leaf(w, tl__pos_step(p, lp, begin), n_data - begin, n_pad - begin);
        if (d >= 0) w->base[d] -= begin * lp->weight;
        return;
    }
    for (i = begin; i < n_pad; ++i) {
        if (d >= 0) w->base[d] += i * lp->weight;
        tl__walk(w, l + 1, 0, pl->loops[l + 1].size, tl__pos_step(p, lp, i), i >= n_data);
        if (d >= 0) w->base[d] -= i * lp->weight;
    }
}

/* src_by_index: each source offset from the logical index. */
static void tl__convert_by_index(tl__walker *w, tl__pos p, tl_dim n)
{
    const tl_reorder_plan *pl = w->plan;
    const tl_reorder_loop *lp = &pl->loops[pl->nloops - 1];
    size_t ssz = tl_dt_size(pl->src_md.data_type), dsz = tl_dt_size(pl->dst_md.data_type);
    tl_dim idx[TL_MAX_NDIMS], k;
    memcpy(idx, w->base, sizeof idx);
    for (k = 0; k < n; ++k) {
        tl_dim off = tl__md_off(&pl->src_md, idx);
        tl__convert_run(pl, w->src + (size_t)off * ssz, 0,
                        w->dst + (size_t)(p.dst + k * lp->dst_stride) * dsz, 0,
                        p.scale + k * lp->scale_stride, 0, 1);
        if (lp->dim >= 0) idx[lp->dim] += lp->weight;
    }
}

static void tl__leaf_convert(tl__walker *w, tl__pos p, tl_dim n_data, tl_dim n_pad)
{
    const tl_reorder_plan *pl = w->plan;
    const tl_reorder_loop *lp = &pl->loops[pl->nloops - 1];
    size_t ssz = tl_dt_size(pl->src_md.data_type), dsz = tl_dt_size(pl->dst_md.data_type);
    if (n_data > 0) {
        if (pl->src_by_index) tl__convert_by_index(w, p, n_data);
        else tl__convert_run(pl, w->src + (size_t)p.src * ssz, lp->src_stride,
                             w->dst + (size_t)p.dst * dsz, lp->dst_stride,
                             p.scale, lp->scale_stride, n_data);
    }
    if (n_pad > n_data)
        tl__zero_run(w->dst + (size_t)(p.dst + n_data * lp->dst_stride) * dsz,
                     lp->dst_stride, dsz, n_pad - n_data);
}

/* Adds -128 * each stored s8 value to its compensation slot (mod 2^32). */
static void tl__leaf_comp(tl__walker *w, tl__pos p, tl_dim n_data, tl_dim n_pad)
{
    const tl_reorder_plan *pl = w->plan;
    const tl_reorder_loop *lp = &pl->loops[pl->nloops - 1];
    char *comp = w->dst + pl->comp_offset;
    tl_dim k;
    (void)n_pad;
    for (k = 0; k < n_data; ++k) {
        char *at = comp + (size_t)(p.comp + k * lp->comp_stride) * 4;
        int32_t v = (signed char)w->dst[p.dst + k * lp->dst_stride];
        uint32_t c;
        memcpy(&c, at, 4);
        c += (uint32_t)(v * -128);
        memcpy(at, &c, 4);
    }
}

static void tl__walker_init(tl__walker *w, const tl_reorder_plan *plan,
                            const void *src, void *dst, tl__leaf_fn leaf, tl__pos *start)
{
    memset(w, 0, sizeof *w);
    w->plan = plan;
    w->src = (const char *)src;
    w->dst = (char *)dst;
    w->leaf = leaf;
    start->src = plan->src_md.offset0;
    start->dst = plan->dst_md.offset0;
    start->scale = 0;
    start->comp = 0;
}

/* The portable kernel: any plan. SIMD kernels call it for what they skip. */
static void tl__reorder_kernel_scalar(const tl_reorder_plan *plan, const void *src,
                                      void *dst, tl_dim begin, tl_dim end)
{
    tl__walker w;
    tl__pos start;
    tl__walker_init(&w, plan, src, dst, tl__leaf_convert, &start);
    tl__walk(&w, 0, begin, end, start, 0);
}

/* After the values are stored (by any number of threads), one pass sums
   them: integer sums do not depend on order, so every thread count gives
   the same compensation. */
static void tl__reorder_compensate(const tl_reorder_plan *plan, void *dst)
{
    tl__walker w;
    tl__pos start;
    memset((char *)dst + plan->comp_offset, 0, (size_t)plan->comp_count * 4);
    tl__walker_init(&w, plan, NULL, dst, tl__leaf_comp, &start);
    tl__walk(&w, 0, 0, plan->loops[0].size, start, 0);
}

/* Whether tl__reorder_run gives its threads parts of loops[0] (the
   SIMD kernels that need all of it ask too). */
static int tl__reorder_threads_split(const tl_reorder_plan *p)
{
#ifdef _OPENMP
    return p->attr.nthreads > 1 && p->loops[0].size > 1 && p->nelems >= TL__OMP_MIN_WORK;
#else
    (void)p;
    return 0;
#endif
}

/* Splits loops[0] into equal contiguous ranges, one per thread. */
static void tl__reorder_run(const tl_reorder_plan *p, const void *src, void *dst)
{
    tl_dim n0 = p->loops[0].size;
    if (tl__reorder_threads_split(p)) {
#ifdef _OPENMP
        int nt = (tl_dim)p->attr.nthreads < n0 ? p->attr.nthreads : (int)n0;
#pragma omp parallel num_threads(nt)
        {
            tl_dim t = omp_get_thread_num(), T = omp_get_num_threads();
            tl_dim q = n0 / T, r = n0 % T;
            tl_dim b = q * t + (t < r ? t : r), e = b + q + (t < r ? 1 : 0);
            if (b < e) p->kernel(p, src, dst, b, e);
        }
        return;
#endif
    }
    p->kernel(p, src, dst, 0, n0);
}

static int tl__bytes_overlap(const void *a, size_t alo, size_t ahi,
                             const void *b, size_t blo, size_t bhi)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (alo >= ahi || blo >= bhi) return 0;
    return x + alo < y + bhi && y + blo < x + ahi;
}

TL_API tl_status tl_reorder_plan_init(tl_reorder_plan *plan,
                                      const tl_memory_desc *src_md,
                                      const tl_memory_desc *dst_md,
                                      const tl_reorder_attr *attr)
{
    tl_reorder_plan p;
    tl_status st;
    if (!plan || !src_md || !dst_md) return TL_INVALID_ARGUMENTS;
    memset(&p, 0, sizeof p);
    if (attr) p.attr = *attr;
    st = tl__reorder_check(src_md, dst_md, &p.attr);
    if (st) return st;
    p.src_md = *src_md;
    p.dst_md = *dst_md;
    tl__reorder_resolve(&p);
    if ((st = tl__reorder_build_loops(&p)) != TL_OK) return st;
    if ((st = tl__reorder_check_offsets(&p)) != TL_OK) return st;
    if ((st = tl__md_byte_range(src_md, &p.src_lo, &p.src_hi)) != TL_OK) return st;
    if ((st = tl__md_byte_range(dst_md, &p.dst_lo, &p.dst_hi)) != TL_OK) return st;
    if (p.nelems > 0 && (dst_md->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) &&
        (st = tl__comp_place(&p)) != TL_OK) return st;
    p.kernel = tl__reorder_kernel_scalar;
#ifdef TL__SIMD_ENABLED
    tl__simd_reorder_pick(&p);
#endif
    *plan = p;
    return TL_OK;
}

TL_API tl_status tl_reorder_plan_execute(const tl_reorder_plan *plan,
                                         const void *src, void *dst)
{
    if (!plan || !plan->kernel || !src || !dst) return TL_INVALID_ARGUMENTS;
    if (plan->nelems == 0) return TL_OK;
    if (tl__bytes_overlap(src, plan->src_lo, plan->src_hi, dst, plan->dst_lo, plan->dst_hi) ||
        (plan->comp_offset &&
         tl__bytes_overlap(src, plan->src_lo, plan->src_hi, dst, plan->comp_offset,
                           plan->comp_offset + (size_t)plan->comp_count * 4)))
        return TL_OVERLAP;
    tl__reorder_run(plan, src, dst);
    if (plan->comp_offset) tl__reorder_compensate(plan, dst);
    return TL_OK;
}

TL_API tl_status tl_reorder(const tl_memory_desc *src_md, const void *src,
                            const tl_memory_desc *dst_md, void *dst,
                            const tl_reorder_attr *attr)
{
    tl_reorder_plan plan;
    tl_status st;
    if (!src || !dst) return TL_INVALID_ARGUMENTS;
    st = tl_reorder_plan_init(&plan, src_md, dst_md, attr);
    if (st) return st;
    return tl_reorder_plan_execute(&plan, src, dst);
}


/* ---- shuffle (implementation) ---------------------------------------- */
/* src and dst share md, and an element's offset is a sum of one term per
   dim, so a shuffle is: for every position of the other dims (a "base"),
   dst[base + term(c)] = src[base + term(src_chan(c))]. The other dims turn
   into a list of loops (each dim's outer part and its inner blocks); the
   innermost loops that are contiguous in memory merge into one run that
   moves with a single memcpy: an (n, c) plane of nchw, a row of nChw16c
   when the axis is h. A run of one element is the element loop. */

/* Channels whose offsets sit on the stack (4 KiB). The copy walks the
   other dims once per chunk, so with all of an nchw tensor's channels in
   one chunk it goes image by image (232 channels, 32x232x28x28 f32: 25 ->
   28-30 GB/s on Zen 4 against 64-channel chunks). */
#define TL__SHUFFLE_CHUNK 256

typedef struct {
    tl_dim size;
    tl_dim stride;             /* bytes */
} tl__shuffle_loop;

typedef struct {
    const tl_memory_desc *md;
    int    axis;
    tl_dim C;                  /* dims[axis] */
    tl_dim G;                  /* forward group size; TL_BACKWARD is already
                                  turned into G = C / group_size */
    int    identity;           /* G == 1 or G == C: the axis is a plain loop */
    tl_dim nchan;              /* channels moved one by one: C, or 1 */
    size_t es;                 /* bytes per element */
    tl_dim base0;              /* bytes from the buffer start to offset0 */
    int    nloops;             /* loops over the other dims, outermost
                                  (largest stride) first */
    tl__shuffle_loop loops[2 * TL_MAX_NDIMS];
    tl_dim run;                /* bytes moved by one copy */
    size_t size;               /* tl_md_size(md) */
} tl__shuffle_plan;

typedef struct {
    tl_dim idx[2 * TL_MAX_NDIMS];
    tl_dim off;                /* bytes from the buffer start to the base */
} tl__shuffle_walk;

/* What a kernel did, as flags: moved every real element of dst; and
   zeroed the padding lanes of the axis too (the core's zero pass then
   skips the axis). */
#define TL__SHUFFLE_SIMD        1
#define TL__SHUFFLE_AXIS_ZEROED 2

#ifdef TL__SIMD_ENABLED
/* tensorlayout_simd.h: moves every real element of dst and returns
   TL__SHUFFLE_* flags, or returns 0 without writing when it has no
   kernel for the plan. */
static int tl__simd_shuffle(const tl__shuffle_plan *p, const char *src, char *dst);
#endif

/* Dim d's share of an element offset at position pos (padded_offsets
   included), in elements. The offset formula is a sum of these. */
static tl_dim tl__dim_term(const tl_memory_desc *md, int d, tl_dim pos)
{
    tl_dim off = 0, blk_stride = 1;
    int b;
    for (b = md->blocking.inner_nblks - 1; b >= 0; --b) {
        tl_dim blk = md->blocking.inner_blks[b];
        if (md->blocking.inner_idxs[b] == d) {
            off += (pos % blk) * blk_stride;
            pos /= blk;
        }
        blk_stride *= blk;
    }
    return off + pos * md->blocking.strides[d];
}

/* The seed's definition: destination channel c = u + v*(C/G) reads source
   channel u*G + v. */
static tl_dim tl__shuffle_src_chan(tl_dim c, tl_dim C, tl_dim G)
{
    tl_dim q = C / G;
    return (c % q) * G + c / q;
}

/* Bytes from a base to channel c; 0 when the axis is one of the loops. */
static tl_dim tl__shuffle_chan_off(const tl__shuffle_plan *p, tl_dim c)
{
    if (p->identity) return 0;
    return tl__dim_term(p->md, p->axis, c + p->md->padded_offsets[p->axis]) *
           (tl_dim)p->es;
}

static void tl__shuffle_push_loop(tl__shuffle_plan *p, tl_dim size, tl_dim stride)
{
    if (size < 2) return;      /* a loop of one position moves nothing */
    p->loops[p->nloops].size = size;
    p->loops[p->nloops].stride = stride * (tl_dim)p->es;
    ++p->nloops;
}

/* Dim d walks over its whole padded range: padding slots are copied with
   their neighbours (keeping runs long) and zeroed afterwards. */
static void tl__shuffle_add_dim_loops(tl__shuffle_plan *p, int d)
{
    const tl_memory_desc *md = p->md;
    tl_dim blk_stride = 1, outer = md->padded_dims[d];
    int b;
    for (b = md->blocking.inner_nblks - 1; b >= 0; --b) {
        if (md->blocking.inner_idxs[b] == d) {
            tl__shuffle_push_loop(p, md->blocking.inner_blks[b], blk_stride);
            outer /= md->blocking.inner_blks[b];
        }
        blk_stride *= md->blocking.inner_blks[b];
    }
    tl__shuffle_push_loop(p, outer, md->blocking.strides[d]);
}

/* Orders the loops by stride, largest first, then folds the innermost
   ones into the run while each starts exactly where the run ends. The
   descriptor is validated, so loops never overlap. */
static void tl__shuffle_merge_runs(tl__shuffle_plan *p)
{
    int i, j;
    for (i = 1; i < p->nloops; ++i)
        for (j = i; j > 0 && p->loops[j].stride > p->loops[j - 1].stride; --j) {
            tl__shuffle_loop t = p->loops[j];
            p->loops[j] = p->loops[j - 1];
            p->loops[j - 1] = t;
        }
    p->run = (tl_dim)p->es;
    while (p->nloops > 0 && p->loops[p->nloops - 1].stride == p->run) {
        p->run *= p->loops[p->nloops - 1].size;
        --p->nloops;
    }
}

static void tl__shuffle_walk_start(const tl__shuffle_plan *p, tl__shuffle_walk *w)
{
    int i;
    for (i = 0; i < p->nloops; ++i) w->idx[i] = 0;
    w->off = p->base0;
}

/* Steps to the next base, innermost loop fastest; 0 after the last. */
static int tl__shuffle_walk_next(const tl__shuffle_plan *p, tl__shuffle_walk *w)
{
    int i;
    for (i = p->nloops - 1; i >= 0; --i) {
        w->off += p->loops[i].stride;
        if (++w->idx[i] < p->loops[i].size) return 1;
        w->off -= p->loops[i].stride * p->loops[i].size;
        w->idx[i] = 0;
    }
    return 0;
}

/* Checks every argument and builds the plan. *empty = 1 when a dim is 0:
   there is nothing to move. */
static tl_status tl__shuffle_plan_init(tl__shuffle_plan *p, const tl_memory_desc *md,
                                       const void *src, void *dst, int axis,
                                       tl_dim group_size, tl_direction dir, int *empty)
{
    tl_status st;
    size_t size;
    int d;
    memset(p, 0, sizeof *p);                      /* defined on every return */
    *empty = 0;
    if (!md) return TL_INVALID_ARGUMENTS;
    st = tl__md_status(md);
    if (st) return st;
    /* compensation sums are per channel slice: shuffling them is not
       a bit copy of the data, so it is refused rather than guessed */
    if (md->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) return TL_UNSUPPORTED;
    if (!src || !dst || axis < 0 || axis >= md->ndims) return TL_INVALID_ARGUMENTS;
    if (dir != TL_FORWARD && dir != TL_BACKWARD) return TL_INVALID_ARGUMENTS;
    /* G must divide C and fit in it: an empty axis has no group size
       (oneDNN refuses it too) */
    if (group_size < 1 || group_size > md->dims[axis] || md->dims[axis] % group_size != 0)
        return TL_INVALID_ARGUMENTS;
    for (d = 0; d < md->ndims; ++d)
        if (md->dims[d] == 0) { *empty = 1; return TL_OK; }
    size = tl__md_bytes(md);
    if (size == 0) return TL_OVERFLOW;            /* valid, but over SIZE_MAX */
    p->md = md;
    p->size = size;
    p->axis = axis;
    p->es = tl_dt_size(md->data_type);
    p->base0 = md->offset0 * (tl_dim)p->es;
    /* each side's bytes lie in [offset0, size) from its pointer; two views
       that interleave inside one range count as overlapping: the check
       stays O(1) and never misses a real overlap */
    if (tl__bytes_overlap(src, (size_t)p->base0, size, dst, (size_t)p->base0, size))
        return TL_OVERLAP;
    p->C = md->dims[axis];
    p->G = dir == TL_FORWARD ? group_size : p->C / group_size;
    p->identity = p->G == 1 || p->G == p->C;
    p->nchan = p->identity ? 1 : p->C;
    for (d = 0; d < md->ndims; ++d)
        if (d != axis || p->identity) tl__shuffle_add_dim_loops(p, d);
    tl__shuffle_merge_runs(p);
    return TL_OK;
}

/* Fixed sizes let the compiler turn a one-element move into a plain load
   and store. */
static void tl__copy_bytes(char *d, const char *s, tl_dim n)
{
    switch (n) {
    case 1: *d = *s; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    default: memcpy(d, s, (size_t)n); break;
    }
}

#ifdef TL__SIMD_ENABLED
/* tensorlayout_simd.h: whether the runs of p are better streamed past
   the caches, the copy that does it, and the fence after the last. */
static int tl__simd_shuffle_streams(const tl__shuffle_plan *p, const char *dst);
static void tl__simd_stream_bytes(char *d, const char *s, tl_dim n);
static void tl__simd_stream_end(void);
#define TL__SHUFFLE_STREAMS(p, dst) tl__simd_shuffle_streams(p, dst)
#define TL__SHUFFLE_STREAM_BYTES(d, s, n) tl__simd_stream_bytes(d, s, n)
#define TL__SHUFFLE_STREAM_END() tl__simd_stream_end()
#else
#define TL__SHUFFLE_STREAMS(p, dst) 0
#define TL__SHUFFLE_STREAM_BYTES(d, s, n) tl__copy_bytes(d, s, n)
#define TL__SHUFFLE_STREAM_END() ((void)0)
#endif

/* The scalar core. Channels go in chunks so that their offsets are
   computed once per chunk, not once per element. The side whose channels
   go in order is the one the other reads or writes in min(G, C/G)
   interleaved streams: dst with G >= C/G, else src (source channel
   u*G + v lands on u + v*(C/G)). Planes of nchw read in dst order with
   G = 2 of 232 channels skip every other source plane, which Zen 4 and
   oneDNN both run at 17-20 GB/s; in source order 27-30. */
static void tl__shuffle_copy(const tl__shuffle_plan *p, const char *src, char *dst)
{
    tl_dim doff[TL__SHUFFLE_CHUNK], soff[TL__SHUFFLE_CHUNK], c0;
    tl_dim *in_order = doff, *mapped = soff, G = p->G;
    int stream = TL__SHUFFLE_STREAMS(p, dst);
    if (!p->identity && G * G < p->C) {
        in_order = soff;
        mapped = doff;
        G = p->C / G;
    }
    for (c0 = 0; c0 < p->nchan; c0 += TL__SHUFFLE_CHUNK) {
        tl__shuffle_walk w;
        tl_dim left = p->nchan - c0, q = p->C / G, r = c0 % q;
        tl_dim from = tl__shuffle_src_chan(c0, p->C, G);
        int n = left < TL__SHUFFLE_CHUNK ? (int)left : TL__SHUFFLE_CHUNK, k;
        /* channel c reads (c % q) G + c / q: G on for each c, back to
           the next c / q when c % q wraps, without the divisions (a
           fifth of the 1x464x7x7 nchw shuffle's time) */
        for (k = 0; k < n; ++k) {
            in_order[k] = tl__shuffle_chan_off(p, c0 + k);
            mapped[k] = tl__shuffle_chan_off(p, from);
            from += G;
            if (++r == q) {
                r = 0;
                from -= q * G - 1;
            }
        }
        tl__shuffle_walk_start(p, &w);
        do {
            char *d = dst + w.off;
            const char *s = src + w.off;
            if (stream)
                for (k = 0; k < n; ++k) TL__SHUFFLE_STREAM_BYTES(d + doff[k], s + soff[k], p->run);
            else
                for (k = 0; k < n; ++k) tl__copy_bytes(d + doff[k], s + soff[k], p->run);
        } while (tl__shuffle_walk_next(p, &w));
    }
    if (stream) TL__SHUFFLE_STREAM_END();
}

/* Next padding position of dim d: jumps over the real range
   [padded_offsets, padded_offsets + dims). */
static tl_dim tl__pad_step(const tl_memory_desc *md, int d, tl_dim pos)
{
    ++pos;
    if (pos == md->padded_offsets[d]) pos += md->dims[d];
    return pos;
}

/* Zero slots queued in memory order: neighbours gather into one memset. */
typedef struct {
    char  *dst;
    tl_dim off, len;           /* bytes */
} tl__shuffle_zeros;

static void tl__shuffle_zero_add(tl__shuffle_zeros *r, tl_dim off, tl_dim es)
{
    if (r->len > 0 && off == r->off + r->len) {
        r->len += es;
        return;
    }
    if (r->len > 0) memset(r->dst + r->off, 0, (size_t)r->len);
    r->off = off;
    r->len = es;
}

/* Part t of T of n positions, as equal as can be: [*b, *e). */
static void tl__shuffle_share(tl_dim n, tl_dim t, tl_dim T, tl_dim *b, tl_dim *e)
{
    tl_dim q = n / T, r = n % T;
    *b = q * t + (t < r ? t : r);
    *e = *b + q + (t < r ? 1 : 0);
}

/* Narrows the widest of the dims walked beside padded dim d to part t of
   T, so that T threads zero disjoint slots; 0 when the part is empty. */
static int tl__shuffle_zero_share(tl_dim *lo, tl_dim *hi, int n, int d, tl_dim t, tl_dim T)
{
    tl_dim b, e;
    int k, w = -1;
    for (k = 0; k < n; ++k)
        if (k != d && (w < 0 || hi[k] - lo[k] > hi[w] - lo[w])) w = k;
    if (w < 0) return t == 0;          /* 1-D: one thread has it all */
    tl__shuffle_share(hi[w] - lo[w], t, T, &b, &e);
    hi[w] = lo[w] + e;
    lo[w] += b;
    return b < e;
}

/* Writes zero to the padding elements of dst, part t of T, except those
   of dim skip (-1: none), which the kernel zeroed already. Dim d's
   padding is visited with the dims before it kept inside their real
   ranges, so each slot is written once. Dim d turns fastest, its
   positions' offsets precomputed per chunk (the other dims' change
   rarely): its padding is usually the tail of an inner block (lanes
   20..31 of nChw16c with C = 20), contiguous in memory, so the slots of
   one pixel make one memset. */
static void tl__shuffle_zero_padding(const tl__shuffle_plan *p, char *dst, tl_dim part,
                                     tl_dim nparts, int skip)
{
    const tl_memory_desc *md = p->md;
    tl_dim lo[TL_MAX_NDIMS], hi[TL_MAX_NDIMS], pos[TL_MAX_NDIMS], term[TL_MAX_NDIMS];
    tl_dim dterm[TL__SHUFFLE_CHUNK], es = (tl_dim)p->es, sum, next;
    tl__shuffle_zeros run;
    int d, e, k, nd, n = md->ndims;
    run.dst = dst;
    run.off = run.len = 0;
    for (d = 0; d < n; ++d) {
        if (md->padded_dims[d] == md->dims[d] || d == skip) continue;
        for (e = 0; e < n; ++e) {
            lo[e] = e < d ? md->padded_offsets[e] : 0;
            hi[e] = e < d ? md->padded_offsets[e] + md->dims[e] : md->padded_dims[e];
        }
        if (!tl__shuffle_zero_share(lo, hi, n, d, part, nparts)) continue;
        next = md->padded_offsets[d] == 0 ? md->dims[d] : 0;
        while (next < md->padded_dims[d]) {
            for (nd = 0; nd < TL__SHUFFLE_CHUNK && next < md->padded_dims[d]; ++nd) {
                dterm[nd] = tl__dim_term(md, d, next) * es;
                next = tl__pad_step(md, d, next);
            }
            sum = 0;                   /* of the other dims' terms, elements */
            for (e = 0; e < n; ++e) {
                if (e == d) continue;
                pos[e] = lo[e];
                term[e] = tl__dim_term(md, e, pos[e]);
                sum += term[e];
            }
            do {
                tl_dim base = p->base0 + sum * es;
                for (k = 0; k < nd; ++k) tl__shuffle_zero_add(&run, base + dterm[k], es);
                for (e = n - 1; e >= 0; --e) {
                    if (e == d) continue;
                    if (++pos[e] < hi[e]) break;
                    pos[e] = lo[e];
                }
                for (k = e < 0 ? 0 : e; k < n; ++k) {      /* the dims that moved */
                    tl_dim t;
                    if (k == d) continue;
                    t = tl__dim_term(md, k, pos[k]);
                    sum += t - term[k];
                    term[k] = t;
                }
            } while (e >= 0);
        }
    }
    if (run.len > 0) memset(dst + run.off, 0, (size_t)run.len);
}

/* ---- shuffle: threads ---- */
/* Built with OpenMP, tl_shuffle shares the bases between
   omp_get_max_threads() threads (<omp.h> comes with the reorder section).
   Each thread runs the unchanged kernels on a copy of the plan cut down to
   its part, since they only walk p->loops from p->base0:
   - a range of loops[0] (base0 moved to its first base), the usual case;
   - or a slice of the run (base0 moved into the run, run shortened), when
     loops[0] is missing (nchw with N = 1: one run per channel) or too
     short to share evenly: every (base, channel) copy then moves the same
     bytes of its run, so the slices of one run go to different threads.
   Parts never share a dst element. After a barrier the same threads zero
   the padding, each its share of the widest dim beside each padded dim. */

#ifdef _OPENMP
#define TL__SHUFFLE_MIN_SLICE 512    /* bytes of a run slice: cache lines
                                        shared at the slice edges stay few */

typedef enum {
    TL__SHUFFLE_SPLIT_LOOP = 0,      /* a range of loops[0] per thread */
    TL__SHUFFLE_SPLIT_RUN = 1        /* a slice of the run per thread */
} tl__shuffle_split;

/* Threads for the plan (1: run it here) and what they split; nt is the
   most the caller allows. loops[0] goes first when it shares evenly (to
   within 25%); else the run, when it gives more parts of at least
   TL__SHUFFLE_MIN_SLICE bytes; else loops[0] as it is. */
static int tl__shuffle_threads(const tl__shuffle_plan *p, int nt, tl__shuffle_split *how)
{
    tl_dim n0 = p->nloops > 0 ? p->loops[0].size : 1, T = nt;
    tl_dim slices = p->run / TL__SHUFFLE_MIN_SLICE;
    tl_dim work = p->nchan * (p->run / (tl_dim)p->es);
    int i;
    *how = TL__SHUFFLE_SPLIT_LOOP;
    for (i = 0; i < p->nloops; ++i) work *= p->loops[i].size;   /* <= the padded size */
    if (T < 2 || work < TL__OMP_MIN_WORK) return 1;
    if (n0 % T == 0 || n0 >= 4 * T) return nt;
    if (slices >= 2 && slices > n0) {
        *how = TL__SHUFFLE_SPLIT_RUN;
        return (int)(slices < T ? slices : T);
    }
    return (int)(n0 < T ? n0 : T);
}

/* Part t of T: *sub is p restricted to it. Returns 0 when the part is
   empty (more threads than positions to share). */
static int tl__shuffle_part(const tl__shuffle_plan *p, tl__shuffle_split how, tl_dim t,
                            tl_dim T, tl__shuffle_plan *sub)
{
    tl_dim es = (tl_dim)p->es, b, e;
    tl__shuffle_share(how == TL__SHUFFLE_SPLIT_RUN ? p->run / es : p->loops[0].size, t, T,
                      &b, &e);
    *sub = *p;
    if (b == e) return 0;
    if (how == TL__SHUFFLE_SPLIT_RUN) {
        sub->base0 += b * es;
        sub->run = (e - b) * es;
    } else {
        sub->base0 += b * p->loops[0].stride;
        sub->loops[0].size = e - b;
    }
    return 1;
}
#endif

/* One thread's work: the SIMD kernels when they take the plan, else the
   core. Returns the kernel's TL__SHUFFLE_* flags (0: the core did it). */
static int tl__shuffle_move(const tl__shuffle_plan *p, const char *src, char *dst)
{
    int done = 0;
#ifdef TL__SIMD_ENABLED
    done = tl__simd_shuffle(p, src, dst);
#endif
    if (!done) tl__shuffle_copy(p, src, dst);
    return done;
}

/* The dim whose padding the move zeroed already, or -1. */
static int tl__shuffle_zero_skip(const tl__shuffle_plan *p, int done)
{
    return (done & TL__SHUFFLE_AXIS_ZEROED) ? p->axis : -1;
}

/* Every element of dst, on as many threads as pay off. Returns the
   TL__SHUFFLE_* flags of the move: the kernels decide on fields a part
   does not change (a run slice is never one element, so never looks like
   a SIMD plan), and part 0 is never empty, so its flags hold for all. */
static int tl__shuffle_run(const tl__shuffle_plan *p, const char *src, char *dst)
{
    int done;
#ifdef _OPENMP
    tl__shuffle_split how;
    int nt = tl__shuffle_threads(p, omp_get_max_threads(), &how);
    if (nt > 1) {
        done = 0;
#pragma omp parallel num_threads(nt)
        {
            tl__shuffle_plan sub;
            tl_dim t = omp_get_thread_num(), T = omp_get_num_threads();
            int moved = 0;
            if (tl__shuffle_part(p, how, t, T, &sub)) moved = tl__shuffle_move(&sub, src, dst);
            if (t == 0) done = moved;
            /* the copy fills padding slots of the dims it walks (channels
               100..111 of nChw16c when the axis is h): zero them only once
               every part is copied */
#pragma omp barrier
            tl__shuffle_zero_padding(p, dst, t, T, tl__shuffle_zero_skip(p, done));
        }
        return done;
    }
#endif
    done = tl__shuffle_move(p, src, dst);
    tl__shuffle_zero_padding(p, dst, 0, 1, tl__shuffle_zero_skip(p, done));
    return done;
}

#ifdef TL__SIMD_ENABLED
/* tensorlayout_simd.h: whether its shuffle kernels take p. */
static int tl__simd_shuffle_takes(const tl__shuffle_plan *p);

/* A plain layout whose axis would go element by element (channels-last
   with groups that are no small power of two: 3 groups of 80 channels)
   is shuffled as a reorder between two views that split the axis into
   (C/G, G): dst channel u + v C/G is src channel u G + v, so the views
   give u and v the strides (G, 1) and (1, C/G) times the axis's. The
   reorder's SIMD kernels then transpose each pixel's G x C/G matrix.
   Returns 0 (nothing written) when p is not such a plan. */
static int tl__shuffle_as_reorder(const tl__shuffle_plan *p, const void *src, void *dst)
{
    const tl_memory_desc *md = p->md;
    tl_dim dims[TL_MAX_NDIMS], ss[TL_MAX_NDIMS], ds[TL_MAX_NDIMS], sa, Q = p->C / p->G;
    tl_memory_desc sv, dv;
    tl_reorder_plan plan;
    int d, n = 0;
    if (p->identity || md->blocking.inner_nblks != 0 || md->ndims >= TL_MAX_NDIMS ||
        md->extra.flags != 0 || p->run != (tl_dim)p->es || tl__simd_shuffle_takes(p))
        return 0;
    for (d = 0; d < md->ndims; ++d)
        if (md->padded_dims[d] != md->dims[d] || md->padded_offsets[d] != 0) return 0;
    sa = md->blocking.strides[p->axis];
    for (d = 0; d < md->ndims; ++d) {
        if (d != p->axis) {
            dims[n] = md->dims[d];
            ss[n] = ds[n] = md->blocking.strides[d];
            ++n;
            continue;
        }
        dims[n] = Q;
        ss[n] = p->G * sa;
        ds[n++] = sa;
        dims[n] = p->G;
        ss[n] = sa;
        ds[n++] = Q * sa;
    }
    if (tl_md_init_by_strides(&sv, n, dims, md->data_type, ss) != TL_OK ||
        tl_md_init_by_strides(&dv, n, dims, md->data_type, ds) != TL_OK)
        return 0;
    sv.offset0 = dv.offset0 = md->offset0;
    if (tl_reorder_plan_init(&plan, &sv, &dv, NULL) != TL_OK) return 0;
    return tl_reorder_plan_execute(&plan, src, dst) == TL_OK;
}
#endif

/* tl_shuffle, and the SIMD test's way to learn whether a kernel ran. */
static tl_status tl__shuffle_impl(const tl_memory_desc *md, const void *src, void *dst,
                                  int axis, tl_dim group_size, tl_direction dir,
                                  int *vectorized)
{
    tl__shuffle_plan p;
    int empty, done;
    tl_status st = tl__shuffle_plan_init(&p, md, src, dst, axis, group_size, dir, &empty);
    if (vectorized) *vectorized = 0;
    if (st || empty) return st;
#ifdef TL__SIMD_ENABLED
    if (tl__shuffle_as_reorder(&p, src, dst)) {
        if (vectorized) *vectorized = 1;
        return TL_OK;
    }
#endif
    done = tl__shuffle_run(&p, (const char *)src, (char *)dst);
    if (vectorized) *vectorized = done & TL__SHUFFLE_SIMD;
    return TL_OK;
}

TL_API tl_status tl_shuffle(const tl_memory_desc *md, const void *src, void *dst,
                            int axis, tl_dim group_size, tl_direction dir)
{
    return tl__shuffle_impl(md, src, dst, axis, group_size, dir, NULL);
}

#endif /* TL__IMPLEMENTATION_DONE */

/* ---- dlpack ---------------------------------------------------------- */
/* Its own done-guard: the core may have been implemented before
   dlpack.h was included. */
#if defined(TL__DLPACK_DECLARED) && !defined(TL__DLPACK_IMPLEMENTATION_DONE)
#define TL__DLPACK_IMPLEMENTATION_DONE

/* DLPack's (code, bits) for each tl_data_type; code 255 = none. */
static const struct { tl_data_type dt; uint8_t code, bits; } tl__dlpack_types[] = {
    { TL_F32, (uint8_t)kDLFloat, 32 }, { TL_F16, (uint8_t)kDLFloat, 16 },
    { TL_F64, (uint8_t)kDLFloat, 64 }, { TL_BF16, (uint8_t)kDLBfloat, 16 },
    { TL_S32, (uint8_t)kDLInt, 32 },   { TL_S8, (uint8_t)kDLInt, 8 },
    { TL_U8, (uint8_t)kDLUInt, 8 }
};
#define TL__DLPACK_NTYPES (sizeof tl__dlpack_types / sizeof tl__dlpack_types[0])

TL_API tl_status tl_md_from_dlpack(tl_memory_desc *md, const DLTensor *t)
{
    tl_memory_desc tmp;
    tl_dim strides[TL_MAX_NDIMS];
    tl_data_type dt = TL_DT_UNDEF;
    size_t k, es;
    int d;
    tl_status st;
    if (!md || !t || !t->shape || t->ndim < 0) return TL_INVALID_ARGUMENTS;
    if (t->ndim == 0 || t->ndim > TL_MAX_NDIMS || t->dtype.lanes != 1) return TL_UNSUPPORTED;
    for (k = 0; k < TL__DLPACK_NTYPES; ++k)
        if (t->dtype.code == tl__dlpack_types[k].code && t->dtype.bits == tl__dlpack_types[k].bits)
            dt = tl__dlpack_types[k].dt;
    if (dt == TL_DT_UNDEF) return TL_UNSUPPORTED;
    es = tl_dt_size(dt);
    if (t->byte_offset % es != 0) return TL_INVALID_ARGUMENTS;
    if (t->byte_offset / es > (uint64_t)TL__DIM_MAX) return TL_OVERFLOW;
    if (t->strides) {
        for (d = 0; d < t->ndim; ++d) {
            /* a size-1 dim never steps, so its stride means nothing */
            strides[d] = t->shape[d] == 1 && t->strides[d] < 0 ? 0 : t->strides[d];
            if (strides[d] < 0) return TL_UNSUPPORTED;
        }
    }
    st = tl_md_init_by_strides(&tmp, t->ndim, t->shape, dt, t->strides ? strides : NULL);
    if (st) return st;
    tmp.offset0 = (tl_dim)(t->byte_offset / es);
    st = tl__md_status(&tmp);     /* offset0 + span must still fit */
    if (st) return st;
    *md = tmp;
    return TL_OK;
}

TL_API tl_status tl_md_to_dlpack(const tl_memory_desc *md, DLTensor *t,
                                 int64_t *shape, int64_t *strides)
{
    tl_dim zero[TL_MAX_NDIMS] = {0};
    size_t k;
    int d;
    if (!t || !shape || !strides || !tl__md_ok(md)) return TL_INVALID_ARGUMENTS;
    if (md->blocking.inner_nblks != 0 || md->extra.flags != 0) return TL_UNSUPPORTED;
    for (k = 0; k < TL__DLPACK_NTYPES && tl__dlpack_types[k].dt != md->data_type; ++k) {}
    if (k == TL__DLPACK_NTYPES) return TL_UNSUPPORTED;
    for (d = 0; d < md->ndims; ++d) {
        shape[d] = md->dims[d];
        strides[d] = md->blocking.strides[d];
    }
    t->ndim = md->ndims;
    t->dtype.code = tl__dlpack_types[k].code;
    t->dtype.bits = tl__dlpack_types[k].bits;
    t->dtype.lanes = 1;
    t->shape = shape;
    t->strides = strides;
    /* padded_offsets move element 0; validation bounded this product */
    t->byte_offset = (uint64_t)tl__md_off(md, zero) * (uint64_t)tl_dt_size(md->data_type);
    return TL_OK;
}
#endif /* dlpack implementation */
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
