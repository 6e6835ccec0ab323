/* tensorlayout_simd.h - v0.1 - SIMD loops behind tl_reorder and tl_shuffle
   C99 and C++. License: MIT, see tensorlayout.h.

   Include this instead of tensorlayout.h, and in exactly ONE file:
       #define TENSORLAYOUT_IMPLEMENTATION
       #include "tensorlayout_simd.h"
   The same tl_reorder_plan_init / tl_shuffle then pick vector kernels
   (SIMDe: native on x86 and Arm, portable elsewhere). Nothing else in the
   API changes. Include it before (or instead of) any implementation
   include of tensorlayout.h: the core must know, while it is compiled,
   that vector kernels exist.

   Options (define before the implementation include):
       TL_SIMD_FORCE_SCALAR   compile the scalar core only (tests compare)
       TL_SIMD_NO_DISPATCH    x86-64: no AVX2 or AVX-512 variants unless
                              the build targets them (-mavx2, -march=native)
       TL_SIMD_NO_AVX512      x86-64: AVX2 at most
   Needs SIMDe (Debian: libsimde-dev) only in the implementation file.
   On x86-64 with GCC or Clang the conversions and 32-bit transposes also
   come as AVX2 variants, the 32-bit transposes, the f32 -> s8/u8
   conversions and the shuffle's block lines as AVX-512 ones, used
   when the CPU has them (see "instruction sets" below): keep the
   implementation file free of other uses of SIMDe's AVX and AVX-512
   headers (or define TL_SIMD_NO_DISPATCH there).
*/
#if defined(TENSORLAYOUT_IMPLEMENTATION) && !defined(TL__IMPLEMENTATION_DONE) && \
    !defined(TL_SIMD_FORCE_SCALAR)
/* tells the core, compiled next, to ask the kernels below first */
#define TL__SIMD_ENABLED 1
#endif
#include "tensorlayout.h"

#ifndef TENSORLAYOUT_SIMD_H
#define TENSORLAYOUT_SIMD_H
#endif /* TENSORLAYOUT_SIMD_H */

/* ---- implementation below; stop here if you only want the API ---- */
#if defined(TENSORLAYOUT_IMPLEMENTATION) && defined(TL__SIMD_ENABLED)
#ifndef TL__SIMD_IMPLEMENTATION_DONE
#define TL__SIMD_IMPLEMENTATION_DONE

/* ---- simd: reorder kernels ------------------------------------------- */
/* The plan's loop nest (see tl_reorder_plan) is read off its innermost
   loop L, and each kernel call works through one of these shapes:
   - run: L steps src and dst by one element (copies, nhwc -> nhwc
     f32 -> s8): memcpy, or conversions 16 values at a time; short runs
     (s8 nhwc -> nChw16c: 16 bytes) all runs of the loop outside L in
     one step, copies by inlined vectors;
   - tile: L is contiguous in dst only, and an outer loop M is the one
     contiguous in src (nchw <-> nhwc, nchw <-> nChw16c, OIhw ->
     OIhw16i16o). M x L is transposed in registers, B x B elements with
     one 16-byte row each (B = 4 for 32-bit, 8 for 16-bit, 16 for 8-bit;
     for 32-bit B = 8 and 32-byte rows in AVX2, B = 16 and 64-byte rows
     in AVX-512), in strips of 64 bytes of L (256 when M is short) that
     run down M: each dst row gets whole cache lines and src is read as a
     few long streams. A narrow M (the 3
     channels of a camera frame) loads 16 bytes per pixel anyway and
     stores only M rows; a narrow L (nchw -> nhwc with 3 channels) loads
     only L rows and stores a vector per pixel. Small tiles side by
     side in dst (OIhw16o16i: 9 x 16, one per o) go in one step; their
     L rows make the rows of one wide tile, 16 to a block whatever M is
     in AVX-512, 8 in AVX2. A converting tile
     transposes raw source bits into a staging tile, then converts its
     rows as runs;
   - blocks: plans whose inner loops are too short for either (OIhw ->
     OIhw4i16o4i, 16i16o, 8i16o2i with the hw = 9 of a 3x3 kernel)
     convert source runs (constant scale) into a staging block in source
     order, then transpose and zip it into dst order (see "blocks staged
     in source order" below); the rest gather up to TL__SR_BLOCK source
     values in dst order through a table of offsets built once per call,
     then convert them as one run, per-element scales gathered likewise;
   - anything else takes the core's strided loops.
   All other loops are walked by an odometer. SSE2 is the baseline: it is
   native on every x86-64 without compiler flags (SIMDe maps it to NEON
   on Arm, to plain C elsewhere); AVX2 variants of the conversions and of
   the 32-bit transposes double the bytes per instruction where the CPU
   has it, which the conversions need to keep up with memory.
   Transposes into a dst of TL__SR_STREAM_MIN bytes or more (or a dst
   and source of twice that together, tl__sr_dst_far) use streaming
   stores, whole cache lines at a time (AVX2: two 8 x 8 blocks side by
   side). When loops[0], which the core shares between threads, is too
   short, tl__sr_balance splits the largest loop to feed them.

   Results equal the scalar kernel's bit for bit. The arithmetic follows
   the core's tl__quantize step by step (same order, same skipped no-ops,
   each result an f32, no FMA even under -ffp-contract=fast; NaN + NaN
   keeps the source's payload), and stores follow tl__store_f32: integers
   take NaN -> 0, a clamp in f32, then cvtps2dq, which rounds half to even
   in the default MXCSR mode (the library never changes it). The last
   n % 16 values of a run go through small buffers on the same vector
   path; transpose borders are copied element by element. Plans with
   tails (blocked dims that do not divide) are cut into boxes without
   tails (see "plans with tails"). Plans with src_by_index, f64
   conversions, s32 -> f64, and f16 conversions without AVX2 keep the
   scalar kernel. */
#include <simde/x86/sse2.h>

/* ---- simd: instruction sets --------------------------------------------
   SSE2 is the baseline (native on every x86-64, NEON or plain C through
   SIMDe elsewhere). On x86-64 the conversions and the 32-bit transposes
   also exist in AVX2, which moves twice the bytes per instruction (with
   F16C, which every AVX2 CPU has, for the f16 conversions), and
   the 32-bit transposes (16 x 16 blocks of whole lines) and the f32 ->
   s8/u8 conversions without beta in AVX-512F:
   - a build for AVX2 and F16C or AVX-512 (-march=haswell or later,
     -march=native) uses them always;
   - otherwise GCC and Clang compile them for AVX2 or AVX-512F anyway (a
     target attribute on just those functions, SIMDe told that the set is
     native there) and the kernels call them only when the CPU reports
     it. This needs SIMDe's AVX (AVX-512) headers to come first from here:
     a file that included simde/x86/avx.h itself keeps SSE2 (one that
     included SIMDe's AVX-512 types keeps AVX2), as does a build with
     TL_SIMD_NO_DISPATCH or SIMDe's portable SIMDE_NO_NATIVE.
     TL_SIMD_NO_AVX512 stops at AVX2 (tests use it to check both).
   Every variant computes the same bits (see the comment above). */
#if defined(SIMDE_X86_AVX2_NATIVE) && defined(SIMDE_X86_F16C_NATIVE)
#define TL__SR_AVX2 1       /* always */
#elif !defined(TL_SIMD_NO_DISPATCH) && !defined(SIMDE_NO_NATIVE) && \
      defined(__x86_64__) && !defined(SIMDE_X86_AVX_H) && \
      (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 6))
#define TL__SR_AVX2 2       /* when the CPU has it */
#else
#define TL__SR_AVX2 0
#endif
/* AVX-512 F and BW for the 32-bit transposes (16 x 16 blocks: every row
   a whole cache line), f32 -> s8/u8 and the 8-bit 4i16o4i blocks, by the
   same two routes, when AVX2 is there too. BW (byte shuffles) is on
   every AVX-512 CPU but Xeon Phi, which keeps AVX2. */
#if TL__SR_AVX2 == 1 && defined(SIMDE_X86_AVX512F_NATIVE) && defined(SIMDE_X86_AVX512BW_NATIVE) && \
    !defined(TL_SIMD_NO_AVX512)
#define TL__SR_AVX512 1     /* always (with AVX2's F16C: -mavx512f alone lacks it) */
#elif TL__SR_AVX2 && !defined(TL_SIMD_NO_AVX512) && !defined(TL_SIMD_NO_DISPATCH) && \
      !defined(SIMDE_NO_NATIVE) && defined(__x86_64__) && !defined(SIMDE_X86_AVX512_TYPES_H) && \
      (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 6))
#define TL__SR_AVX512 2     /* when the CPU has it */
#else
#define TL__SR_AVX512 0
#endif
/* AVX512-BF16 (Cooper Lake, Sapphire Rapids, Zen 4) and DQ for f32 ->
   bf16 in one instruction a pair of vectors (tl__sr16_put_bf16n_rows),
   by the same two routes where AVX-512 is there; GCC 10 and Clang 9 on
   know them. */
#if TL__SR_AVX512 == 1 && defined(__AVX512BF16__) && defined(__AVX512DQ__)
#define TL__SR_BF16 1       /* always */
#elif TL__SR_AVX512 && !defined(TL_SIMD_NO_DISPATCH) && \
      ((defined(__clang__) && __clang_major__ >= 9) || (!defined(__clang__) && __GNUC__ >= 10))
#define TL__SR_BF16 2       /* when the CPU has it */
#else
#define TL__SR_BF16 0
#endif

#ifndef TL__SR_STRIP
#define TL__SR_STRIP 64     /* bytes of L a transpose strip covers */
#endif
#ifndef TL__SR_STRIP16
#define TL__SR_STRIP16 128  /* the same for AVX-512's 16 x 16 blocks on Intel */
#endif
#ifndef TL__SR_STRIP_SHORT
#define TL__SR_STRIP_SHORT 256  /* the same when M spans at most TL__SR_SHORT_M bytes */
#endif
#ifndef TL__SR_SHORT_M
#define TL__SR_SHORT_M 1024
#endif
#ifndef TL__SR_FAR_ROWS
#define TL__SR_FAR_ROWS 1024    /* dst row bytes from which strips widen to a quarter row */
#endif
#ifndef TL__SR_WIDE_ROWS
#define TL__SR_WIDE_ROWS 256    /* source rows a widened strip reads at most */
#endif
#ifndef TL__SR_STRIP_SPLIT
#define TL__SR_STRIP_SPLIT 1024 /* dst row bytes up to which a streamed row that
                                   does not start a line goes in one strip */
#endif
/* dst bytes from which transposes stream: a dst this large, with its
   source, crowds the last-level cache of a core complex (32 MiB on Zen
   4), so plain stores mostly add a read of every dst line before its
   write (on Zen 4: f32 nchw -> nhwc 32x64x56x56, 24.5 MiB, 10 -> 21
   GB/s; bf16 nchw -> nChw16c, 12.25 MiB, 13.5 -> 18). */
#ifndef TL__SR_STREAM_MIN
#define TL__SR_STREAM_MIN ((size_t)8 << 20)
#endif
/* Side-by-side tiles (TL__SR_TILES_BODY) prefetch their rows from
   sources of this many bytes on, beyond L2 (it was a dst of
   TL__SR_STREAM_MIN; Zen 4, one process): bf16 oihw -> OIhw16o16i
   500x600x3x3 (5.4 MB) 1.26x faster with it, f32 384x384x3x3 (5.3 MB)
   1.03x; bf16 256x256x3x3 (1.2 MB) 0.73x, f32 128x128x3x3 0.9x. */
#define TL__SR_PF_ROWS_MIN ((size_t)4 << 20)

/* Whether plan p reads a source large enough to come from beyond the
   caches (TL__SR_STREAM_MIN bytes or more), for which the kernels send
   prefetches ahead of their reads where the hardware's do not follow. */
#define TL__SR_SRC_FAR(p) ((p)->src_hi - (p)->src_lo >= TL__SR_STREAM_MIN)
/* Whether plan p's stores stream: dst is only written (beta 0), and it
   is large, or it and its source together are twice that: f32 -> s8
   writes a quarter of what it reads, and a 6 MiB dst that comes with
   24.5 MiB of source fills the 32 MiB L3 as well, where plain stores
   read every dst line before writing it (32x64x56x56 nhwc, one scale,
   Zen 3: 1.06x at one thread, 1.21x at two). A plan that widens (dst at
   least twice its source) and runs on threads streams only from three
   times that together: two threads store into the L3 fast enough that
   streaming a dst that fits it lost 2-2.4x (s8, u8 and bf16 -> f32
   nChw8c -> nhwc and nChw16c 64x64x28x28, 16-19 MB; tlbench, Zen 4,
   where the next call finds the data in the L3); copies and narrowing
   plans at two threads, and every plan at one, lost as much or more
   without streaming (f32 oihw -> OIhw16o16i 500x600x3x3 at one thread
   2x slower, f32 -> s8 nhwc 32x64x56x56 at two 1.5x). */
static int tl__sr_dst_far(const tl_reorder_plan *p)
{
    size_t d = p->dst_hi - p->dst_lo, s = p->src_hi - p->src_lo;
    if (p->beta != 0) return 0;
    if (d >= 2 * s && tl__reorder_threads_split(p)) return d + s >= 3 * TL__SR_STREAM_MIN;
    return d >= TL__SR_STREAM_MIN || d + s >= 2 * TL__SR_STREAM_MIN;
}
static int tl__sr_avx2(void);
static int tl__sr_avx512(void);

/* Whether AVX-512's streamed 4-byte tiles store plainly after all: dst
   rows 512 bytes apart. Streamed, those ran at about 21 GB/s on Zen 5
   at every size, half of memcpy, where plain stores ran 1.5-1.8x
   faster in cache (tlbench, one thread and two: f32 nchw -> nhwc
   16x128x56x56, 64x128x28x28, 16x128x60x60, ab -> ba 128x50176, 25.7 MB
   a side) and 1.1-1.4x from beyond it (32x128x64x64, 16x128x112x112,
   32x128x128x128: 67-268 MB). Rows 256 B and 1 KiB apart (64 and 256
   channels) ran faster streamed in tlbench (plain, in GB/s: 0.73-1.0
   of streamed at one thread, 0.61-0.95 at two), as did other strides.
   Why 512 is not settled. The A/B of two builds in one program,
   repeating the calls on the same buffers, had made plain stores win
   for 64 and 256 channels too (1.0-1.9x): there dst stayed in the L3
   between calls, which in tlbench memcpy and oneDNN evict. */
static int tl__sr_rows512_plain(const tl_reorder_plan *p, int M)
{
    size_t es = tl_dt_size(p->dst_md.data_type);
    return es == 4 && (size_t)p->loops[M].dst_stride * es == 512 && tl__sr_avx512();
}

/* tl__sr_dst_far for runs (TL__SR_RUN) that convert, where this
   machine's data said otherwise (in process, Zen 4, one thread and two;
   the next call finds a dst of tens of MB in its L3). Streamed, these
   stores ran 1.1-2.4x slower than plain ones at every size measured (up
   to 256 MB of dst):
   - runs that change the data type and gather a dst line from source
     blocks far apart (the channel blocks of nChw8c, nChw16c -> nhwc;
     f32 <-> bf16, f32 -> s8), where the copies, the same-type scaled
     ones and the gathers from nearby runs (nhwc -> nChw16c) stream as
     fast or faster;
   - bytes widened to 4-byte values (dst four times the source) in runs
     of 16 values or fewer.
   Longer runs of bytes widened stream from three times TL__SR_STREAM_MIN
   together at one thread too: 16 MB streamed away lost 1.4-1.9x (s8 ->
   f32, s8 -> s32 nchw -> nchw 64x64x28x28), 64 MB streamed ran 1.15-1.5x
   as fast. Transposes of these sizes (u8 -> f32 nhwc -> nchw) and 2x
   widenings in long runs (bf16 -> f32 nchw -> nchw) lost 1.2-1.4x
   without streaming. */
static int tl__sr_runs_far(const tl_reorder_plan *p)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1], *G = p->nloops >= 2 ? L - 1 : NULL;
    size_t d = p->dst_hi - p->dst_lo, s = p->src_hi - p->src_lo, ssz = tl_dt_size(p->src_md.data_type);
    if (p->src_md.data_type != p->dst_md.data_type && G && G->dst_stride == L->size &&
        (size_t)(G->src_stride < 0 ? -G->src_stride : G->src_stride) * ssz >= 4096)
        return 0;
    if (d < 4 * s) return tl__sr_dst_far(p);
    return p->beta == 0 && L->size > 16 && d + s >= 3 * TL__SR_STREAM_MIN;
}
#ifndef TL__SR_SLICE
#define TL__SR_SLICE ((size_t)1 << 20)  /* dst bytes one slice of M spans */
#endif
#define TL__SR_STAGE 64     /* staging tile side for converting tiles */


/* Data types the vector converter reads and writes: f16 only in AVX2,
   whose variable shifts its exact rounding needs. */
static int tl__sr_dt_ok(tl_data_type dt)
{
    if (dt == TL_F16) return tl__sr_avx2();
    return dt == TL_F32 || dt == TL_S32 || dt == TL_S8 || dt == TL_U8 || dt == TL_BF16;
}

/* Kernels called with a constant element size or data type are inlined
   into a switch over the constants, so the compiler unrolls them.
   Sanitizer builds and unoptimized ones (TL__SIMD_UNFORCED) leave
   inlining and unrolling to the compiler: sanitizers check the same
   accesses either way, and the forced copies, each instrumented, took
   57 s of a file's 64 (-Og, ASan and UBSan; 7 s without); at -O0,
   which unrolls nothing, they took a file 65 s and 3.4 GB of GCC's
   memory (register allocation of the inlined copies). */
#if defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
#define TL__SIMD_UNFORCED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TL__SIMD_UNFORCED 1
#endif
#endif
#if defined(TL__SIMD_UNFORCED)
#define TL__SR_INLINE static inline
#elif defined(__GNUC__) || defined(__clang__)
#define TL__SR_INLINE static inline __attribute__((always_inline))
#else
#define TL__SR_INLINE static
#endif
/* Rare paths called from many such instantiations stay one copy. */
#if defined(__GNUC__) || defined(__clang__)
#define TL__SR_NOINLINE static __attribute__((noinline))
#else
#define TL__SR_NOINLINE static
#endif
/* x's value hidden from the optimiser for one statement: keeps GCC from
   hoisting the 16 row offsets of a 16 x 16 block out of its loop, where
   they live in stack slots (and spill the block's registers with them). */
#if defined(__GNUC__) || defined(__clang__)
#define TL__SR_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define TL__SR_OPAQUE(x) ((void)0)
#endif
/* Into L1 (prefetcht0), and into L2 only (prefetcht2). Not
   simde_mm_prefetch: SIMDe 0.7 passes its own hint value to the native
   intrinsic, which makes T0 a prefetcht2. */
#if defined(__GNUC__) || defined(__clang__)
#define TL__SIMD_PREFETCH(p) __builtin_prefetch(p)
#define TL__SIMD_PREFETCH_L2(p) __builtin_prefetch(p, 0, 1)
#else
#define TL__SIMD_PREFETCH(p) ((void)(p))
#define TL__SIMD_PREFETCH_L2(p) ((void)(p))
#endif
/* The transposes keep all B rows in registers only when their loops are
   unrolled completely; -O2 alone does not do that for B = 8 or 16. The
   conversions keep more loads in flight unrolled four times. Sanitizer
   and unoptimized builds leave the loops rolled: the hints change no
   result, and with
   AddressSanitizer's checks on every access the unrolled kernels took
   four times as long to compile (over two minutes a file). */
#if (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)) && !defined(TL__SIMD_UNFORCED)
#define TL__SR_UNROLL _Pragma("GCC unroll 16")
#define TL__SR_UNROLL4 _Pragma("GCC unroll 4")
#define TL__SR_UNROLL2 _Pragma("GCC unroll 2")
#else
#define TL__SR_UNROLL
#define TL__SR_UNROLL4
#define TL__SR_UNROLL2
#endif

/* i with its lowest log2(n) bits reversed (n a power of two). */
TL__SR_INLINE int tl__sr_bitrev(int i, int n)
{
    int r = 0, b;
    TL__SR_UNROLL   /* folded to a constant in the unrolled transposes */
    for (b = 1; b < n; b <<= 1) {
        r = (r << 1) | (i & 1);
        i >>= 1;
    }
    return r;
}

/* NAME(&a, &b, w): one zip step of rows a and b at element width w
   bytes (in each 128-bit lane), for the vectors VT whose intrinsics
   start with PS. */
#define TL__SR_ZIP_DEF(NAME, VT, PS) \
    TL__SR_INLINE void NAME(VT *a, VT *b, int w) \
    { \
        VT lo, hi; \
        switch (w) { \
        case 1: lo = PS##unpacklo_epi8(*a, *b); hi = PS##unpackhi_epi8(*a, *b); break; \
        case 2: lo = PS##unpacklo_epi16(*a, *b); hi = PS##unpackhi_epi16(*a, *b); break; \
        case 4: lo = PS##unpacklo_epi32(*a, *b); hi = PS##unpackhi_epi32(*a, *b); break; \
        default: lo = PS##unpacklo_epi64(*a, *b); hi = PS##unpackhi_epi64(*a, *b); break; \
        } \
        *a = lo; \
        *b = hi; \
    }

/* The zip rounds of a B x B transpose of es-byte elements (B = 16 / es)
   in r, row j in r[j] (t: B temps), for the vectors whose zip of rows a
   and b at width w is ZIP(&a, &b, w): log2(B) rounds, each pairing
   neighbours and doubling the width, leave dst row i in register
   tl__sr_bitrev(i, B). 32-byte vectors transpose one block per lane. */
#define TL__SR_ZIP_ROUNDS(ZIP, r, t, es, B) \
    do { \
        int w_, i_; \
        TL__SR_UNROLL \
        for (w_ = (es); w_ < 16; w_ *= 2) { \
            TL__SR_UNROLL \
            for (i_ = 0; i_ < (B) / 2; ++i_) { \
                t[i_] = r[2 * i_]; \
                t[i_ + (B) / 2] = r[2 * i_ + 1]; \
                ZIP(&t[i_], &t[i_ + (B) / 2], w_); \
            } \
            TL__SR_UNROLL \
            for (i_ = 0; i_ < (B); ++i_) r[i_] = t[i_]; \
        } \
    } while (0)


/* n (a multiple of 4) values of type dt at p into v as f32, exactly as
   tl__load_f32 converts them. */
TL__SR_INLINE void tl__sr_load(tl_data_type dt, const char *p, simde__m128 *v, tl_dim n)
{
    simde__m128i x, zero = simde_mm_setzero_si128();
    int32_t w;
    tl_dim i;
    switch (dt) {
    case TL_F32:
        for (i = 0; i < n / 4; ++i) v[i] = simde_mm_loadu_ps((const float *)(const void *)(p + 16 * i));
        break;
    case TL_S32:
        for (i = 0; i < n / 4; ++i)
            v[i] = simde_mm_cvtepi32_ps(simde_mm_loadu_si128((const simde__m128i *)(const void *)(p + 16 * i)));
        break;
    case TL_BF16:   /* bf16 bits are the upper half of the f32 bits */
        for (i = 0; i < n / 4; ++i) {
            x = simde_mm_loadl_epi64((const simde__m128i *)(const void *)(p + 8 * i));
            v[i] = simde_mm_castsi128_ps(simde_mm_unpacklo_epi16(zero, x));
        }
        break;
    case TL_S8:     /* each byte to the top of a lane, then shifted down */
        for (i = 0; i < n / 4; ++i) {
            memcpy(&w, p + 4 * i, 4);
            x = simde_mm_cvtsi32_si128(w);
            x = simde_mm_unpacklo_epi16(simde_mm_unpacklo_epi8(x, x), simde_mm_unpacklo_epi8(x, x));
            v[i] = simde_mm_cvtepi32_ps(simde_mm_srai_epi32(x, 24));
        }
        break;
    default:        /* TL_U8 */
        for (i = 0; i < n / 4; ++i) {
            memcpy(&w, p + 4 * i, 4);
            x = simde_mm_cvtsi32_si128(w);
            x = simde_mm_unpacklo_epi16(simde_mm_unpacklo_epi8(x, zero), zero);
            v[i] = simde_mm_cvtepi32_ps(x);
        }
        break;
    }
}

/* NaN -> 0, clamp to [lo, hi] in f32, round half to even. */
TL__SR_INLINE simde__m128i tl__sr_sat(simde__m128 v, float lo, float hi)
{
    v = simde_mm_and_ps(v, simde_mm_cmpord_ps(v, v));
    v = simde_mm_min_ps(simde_mm_max_ps(v, simde_mm_set1_ps(lo)), simde_mm_set1_ps(hi));
    return simde_mm_cvtps_epi32(v);
}

/* f32 -> bf16 bits, as tl_f32_to_bf16, in the low half of each lane.
   NaN lanes are cleared before the rounding add, which could otherwise
   overflow a signed lane (undefined in SIMDe's portable C). */
TL__SR_INLINE simde__m128i tl__sr_bf16(simde__m128 v)
{
    simde__m128i u = simde_mm_castps_si128(v);
    simde__m128i nan = simde_mm_cmpgt_epi32(simde_mm_and_si128(u, simde_mm_set1_epi32(0x7fffffff)),
                                            simde_mm_set1_epi32(0x7f800000));
    simde__m128i num = simde_mm_andnot_si128(nan, u);
    simde__m128i odd = simde_mm_and_si128(simde_mm_srli_epi32(num, 16), simde_mm_set1_epi32(1));
    simde__m128i r = simde_mm_add_epi32(num, simde_mm_add_epi32(simde_mm_set1_epi32(0x7fff), odd));
    simde__m128i q = simde_mm_or_si128(simde_mm_srli_epi32(u, 16), simde_mm_set1_epi32(0x40));
    r = simde_mm_srli_epi32(r, 16);
    return simde_mm_or_si128(simde_mm_and_si128(nan, q), simde_mm_andnot_si128(nan, r));
}

/* The low 16 bits of the 4 lanes of a and of b, as 8 values: shuffles
   only, so no saturation and no signed arithmetic. */
TL__SR_INLINE simde__m128i tl__sr_pack_lo16(simde__m128i a, simde__m128i b)
{
    a = simde_mm_shufflehi_epi16(simde_mm_shufflelo_epi16(a, 0x08), 0x08);
    b = simde_mm_shufflehi_epi16(simde_mm_shufflelo_epi16(b, 0x08), 0x08);
    return simde_mm_unpacklo_epi64(simde_mm_shuffle_epi32(a, 0x08), simde_mm_shuffle_epi32(b, 0x08));
}

/* 16 bytes to p; nt: streamed past the caches (p 16-byte aligned). */
TL__SR_INLINE void tl__sr_put(char *p, simde__m128i v, int nt)
{
    if (nt) simde_mm_stream_si128((simde__m128i *)(void *)p, v);
    else simde_mm_storeu_si128((simde__m128i *)(void *)p, v);
}

/* The nd (1 to 15) bytes at s, zeros after them; where 16 bytes from s
   would pass the source's end (a call of its own: the loops that take
   it keep their vectors in registers). */
TL__SR_NOINLINE simde__m128i tl__sr_data_tail(const char *s, size_t nd)
{
    simde__m128i v = simde_mm_setzero_si128();
    memcpy(&v, s, nd);
    return v;
}

/* The mask of the first n (0 to 16) bytes of a vector. */
TL__SR_INLINE simde__m128i tl__sr_first_bytes(size_t n)
{
    return simde_mm_cmpgt_epi8(simde_mm_set1_epi8((char)n),
                               simde_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* Bytes [x, x + 16) of a run at s whose first nd bytes are data, zeros
   after them: a masked load (keep: tl__sr_first_bytes(nd % 16)) where
   16 bytes from s + x lie inside the source (below s_end). */
TL__SR_INLINE simde__m128i tl__sr_run_piece(const char *s, size_t x, size_t nd, simde__m128i keep,
                                            const char *s_end)
{
    if (x + 16 <= nd) return simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + x));
    if (x >= nd) return simde_mm_setzero_si128();
    if ((size_t)(s_end - s) >= x + 16)
        return simde_mm_and_si128(keep, simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + x)));
    return tl__sr_data_tail(s + x, nd - x);
}

/* n (a multiple of 8) f32 values v as type dt at p, as tl__store_f32;
   nt: streamed (p 16-byte aligned), save the last 8 bytes of 8-bit
   types where n is not in 16s (one plain 8-byte store). */
TL__SR_INLINE void tl__sr_store(tl_data_type dt, const simde__m128 *v, char *p, tl_dim n, int nt)
{
    simde__m128i a, b, c, d;
    tl_dim i;
    if ((dt == TL_S8 || dt == TL_U8) && n % 16 != 0) {
        float lo = dt == TL_S8 ? -128.f : 0.f, hi = dt == TL_S8 ? 127.f : 255.f;
        i = n / 16 * 4;
        a = simde_mm_packs_epi32(tl__sr_sat(v[i], lo, hi), tl__sr_sat(v[i + 1], lo, hi));
        a = dt == TL_S8 ? simde_mm_packs_epi16(a, a) : simde_mm_packus_epi16(a, a);
        simde_mm_storel_epi64((simde__m128i *)(void *)(p + i * 4), a);
    }
    switch (dt) {
    case TL_F32:
        for (i = 0; i < n / 4; ++i) tl__sr_put(p + 16 * i, simde_mm_castps_si128(v[i]), nt);
        break;
    case TL_S32:
        for (i = 0; i < n / 4; ++i) tl__sr_put(p + 16 * i, tl__sr_sat(v[i], -2147483648.0f, 2147483520.0f), nt);
        break;
    case TL_BF16:
        for (i = 0; i < n / 8; ++i)
            tl__sr_put(p + 16 * i, tl__sr_pack_lo16(tl__sr_bf16(v[2 * i]), tl__sr_bf16(v[2 * i + 1])), nt);
        break;
    case TL_S8:     /* values already in range: the packs do not saturate */
        for (i = 0; i < n / 16; ++i) {
            a = tl__sr_sat(v[4 * i], -128.f, 127.f); b = tl__sr_sat(v[4 * i + 1], -128.f, 127.f);
            c = tl__sr_sat(v[4 * i + 2], -128.f, 127.f); d = tl__sr_sat(v[4 * i + 3], -128.f, 127.f);
            a = simde_mm_packs_epi16(simde_mm_packs_epi32(a, b), simde_mm_packs_epi32(c, d));
            tl__sr_put(p + 16 * i, a, nt);
        }
        break;
    default:        /* TL_U8 */
        for (i = 0; i < n / 16; ++i) {
            a = tl__sr_sat(v[4 * i], 0.f, 255.f); b = tl__sr_sat(v[4 * i + 1], 0.f, 255.f);
            c = tl__sr_sat(v[4 * i + 2], 0.f, 255.f); d = tl__sr_sat(v[4 * i + 3], 0.f, 255.f);
            a = simde_mm_packus_epi16(simde_mm_packs_epi32(a, b), simde_mm_packs_epi32(c, d));
            tl__sr_put(p + 16 * i, a, nt);
        }
        break;
    }
}

/* Scales for 4 elements from index sidx, sstep apart. */
TL__SR_INLINE simde__m128 tl__sr_scale4(const float *s, tl_dim sidx, tl_dim sstep)
{
    if (sstep == 1) return simde_mm_loadu_ps(s + sidx);
    return simde_mm_setr_ps(s[sidx], s[sidx + sstep], s[sidx + 2 * sstep], s[sidx + 3 * sstep]);
}

/* Marks a product as final, so that the add after it cannot be fused
   into an FMA: GCC contracts intrinsics like plain vector code under
   -ffp-contract=fast (its default outside ISO C modes), and DESIGN wants
   every operation rounded on its own. An empty asm that claims to change
   the value hides it from the optimiser and costs nothing else. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(SIMDE_X86_SSE_NATIVE)
#define TL__SR_ROUNDED(v) __asm__("" : "+x"(v))
#elif defined(__GNUC__) || defined(__clang__)
#define TL__SR_ROUNDED(v) __asm__("" : "+m"(v))
#else
#define TL__SR_ROUNDED(v) ((void)0)
#endif

/* The shuffle's block lines (tl__shuf_lines, in the shuffle section): a
   dst channel block at a pixel is one 64-byte vector (16 f32 of
   nChw16c, or P pixels of a narrower block side by side) whose lanes
   come from a few source blocks at the same pixel. Each source block
   fills its lanes with one masked lane permute (AVX-512; in AVX2 a lane
   permute and a blend per piece of a 32-byte half, tl__shuf8_lines),
   and the vector is stored whole:
   full lines, in order, streamed when dst is large. */
#define TL__SHUF_LINE_SRCS 128    /* source lines of all dst blocks */
#define TL__SHUF_LINE_FIXED 3     /* sources a block (2-3: groups of 2, C/G
                                     of 2) that unrolled code serves */
#ifndef TL__SHUF_LINE_TILE
#define TL__SHUF_LINE_TILE (64 << 10)  /* bytes of source a tile reads */
#endif
#define TL__SHUF_LINE_MIN_TILE 64      /* pixels (a multiple of every P) */

typedef struct {
    int32_t  idx[TL__SHUF_LINE_SRCS][16];  /* per dst block, 64 bytes of 2-, 4- or
                                              8-byte lanes (AVX2: always 4-byte
                                              ones, tl__shuf8_pieces_init): the
                                              source lane of each lane, whichever
                                              block it is in */
    uint32_t mask[TL__SHUF_LINE_SRCS];     /* per source block: the lanes it fills */
    tl_dim   off[TL__SHUF_LINE_SRCS];      /* per source block: bytes from the pixel */
} tl__shuf_srcs;

/* AVX2's pieces of the lines (tl__shuf8_lines): the lanes of a 32-byte
   dst half (bit l: 4-byte lane l) that one 32-byte half of a source
   block fills; off: that half's bytes from the pixel. */
typedef struct { tl_dim off; uint8_t lanes, upper; } tl__shuf8_piece;

/* A run's scales: sc[sidx + k*sstep] for element k; sc NULL: none.
   wrap, nonzero (sstep 1): scales that repeat every 16 values, element
   k's sc[sidx + k % 16] (tl__sr_join_runs). The converter's step loops
   (TL__SR_STEP_LOOP) read it; the loops that would not are not given
   such scales (tl__sr_convert_full). */
typedef struct { const float *sc; tl_dim sidx, sstep, wrap; } tl__sr_scales;

static const tl__sr_scales tl__sr_no_scales = { NULL, 0, 0, 0 };
/* A run with one scale (tl__sr_q's s0): any scales pointer but NULL. */
static const float tl__sr_one_scale_at = 1.f;
static const tl__sr_scales tl__sr_one_scale = { &tl__sr_one_scale_at, 0, 0, 0 };

/* count runs of the same length: run k starts s bytes of src, d bytes of
   dst and c scale indices after run k - 1. Short runs (nhwc -> nChw16c:
   16 values) go to the converter together, so that its setup is paid
   once, not once per run. nt: the converter streams its stores
   (tl__sr_convert_streams). next: the source of the kernel's next step,
   which a transpose's last strip fetches ahead (tl__sr_strip_ahead;
   NULL: none). last: copies whose runs walk the blocks of a dim with
   tails, the last one partial (tl__sr_last_run): its data bytes; 0 where
   the last run is as long as the others. */
typedef struct { tl_dim count, c; size_t s, d; int nt; const char *next; size_t last; } tl__sr_runs;

/* The first n counters of a walk at 0, one by one: a whole array's
   initialiser became a rep stos each step, which stalls streamed stores
   nearby (see tl__sr_kernel_shaped). */
TL__SR_INLINE void tl__sr_counters_zero(tl_dim *at, int n)
{
    int m;
    for (m = 0; m < n; ++m) at[m] = 0;
}

/* The odometer over the loops lv[1..nlv) of a step's groups of runs
   (tl__sr_copy_nest_n): s and d to the next group; 0 past the last. */
TL__SR_INLINE int tl__sr_runs_next(tl_dim *at, const char **s, char **d, const tl__sr_runs *lv, int nlv)
{
    int m;
    for (m = 1; m < nlv; ++m) {
        *s += lv[m].s;
        *d += lv[m].d;
        if (++at[m] < lv[m].count) return 1;
        *s -= (size_t)lv[m].count * lv[m].s;
        *d -= (size_t)lv[m].count * lv[m].d;
        at[m] = 0;
    }
    return 0;
}

/* Four groups of an f32 -> 8-bit block read straight from the source
   (tl__sr16_zipsrc_block): lane 4k + z of a row's vector (of dwords: a
   set of rows) is value idx[4k + z] of the two-vector window that holds
   group k, the windows starting w[] values into the row, window j > 0
   filling lanes m[j]; group k's 64 bytes go to dst + to[k] (k < ng). */
typedef struct {
    int32_t idx[16];
    tl_dim w[4];
    size_t to[4];
    uint16_t m[4];
    int nw, ng;
} tl__sr_quad;

/* The same blocks in AVX2 (tl__sr8_zipsrc_block): 8 groups whose first
   values are neighbours in the row's run, from column c, group k's 64
   bytes to dst + to[k]; */
typedef struct {
    tl_dim c;
    size_t to[8];
} tl__sr_oct;

/* and two lone groups picked together: lanes 4k + z of a row's vector
   are its values idx[4k + z], group k's bytes to dst + to[k]. */
typedef struct {
    int32_t idx[8];
    size_t to[2];
} tl__sr_pair;

/* Weights in blocks of 4 x 4 to 16 x 16 over up to 9 taps
   (tl__sr16_quads4): vector v of a tap's nv in dst, for the taps of
   group g, comes from 4 two-source permutes (t[r] from the 16 values at
   byte lo + o(r) of the block and the 16 at hi + o(r), placed by idx;
   o(r) = (r / 2) s2 + (r % 2) s1), then a 4 x 4 transpose of their lanes
   (lanes_rows) or inside them. */
typedef struct {
    int32_t idx[16];
    size_t lo, hi;
} tl__sr_q4v;

typedef struct {
    tl__sr_q4v v[3 * 16];       /* group g's vector v: v[g * nv + v] */
    size_t s1, s2;
    int n[3];                   /* taps in group g */
    int ng, nv, lanes_rows;     /* nv: vectors a tap */
    int wide, taps;             /* wide: the AVX-512 form above; else
                                   tl__sr8_quads4's or _back's (v[v]'s two
                                   lanes at lo and hi, their 4 rows s1
                                   apart) */
    int out;                    /* TL__SR_Q4_*: how values leave (wide) */
} tl__sr_q4;

/* How a TL__SR_QUADS4 step leaves its values: copied as bits (4-byte
   values, in AVX2's form only: tl__sr_q4_wide; or 2-byte ones from the
   low halves of their lanes), or converted from f32 (tl__sr_q4cv) into
   f32, s8 or u8, or bf16. */
enum { TL__SR_Q4_COPY, TL__SR_Q4_WORDS, TL__SR_Q4_F32, TL__SR_Q4_I8, TL__SR_Q4_BF16 };   /* converted from TL__SR_Q4_F32 on */
/* Source bytes a value (2: widened into 32-bit lanes as it loads). */
#define TL__SR_Q4_ES(out) ((out) == TL__SR_Q4_WORDS ? 2 : 4)

static const tl__sr_runs tl__sr_one_run = { 1, 0, 0, 0, 0, NULL, 0 };

/* Runs of 8 or 16 f32 values that lie side by side in dst, with the
   rs.count runs of each outer iteration filling outer.d (tl__sr_side_fits):
   dst is one stretch, written 64 bytes a store from a group of np pieces
   of 8 values (np: 4 for bf16, 8 for 8-bit), two pieces a vector,
   wherever they lie in the source (tl__sr16_side_runs). A group's
   pieces sit so[] bytes and co[] scale indices from its first, in the
   order the vectors take them: pieces that neighbour in the source
   share a vector where every piece has such a neighbour (whole: one
   load a vector), and a permute puts the values back in dst's order
   (idx: words for bf16, dwords for the packed bytes, or the tables of
   dst's order where the pieces keep it). The walk takes ni groups gs
   bytes and gc indices apart (64 dst bytes), no times os bytes, oc
   indices and od dst bytes apart: in passes over nb of the no at once,
   those inside each group (nb: 1, dst's order, or all no). */
typedef struct {
    size_t so[8], gs, os, od;
    tl_dim co[8], gc, oc, ni, no, nb;
    tl_dim rest;            /* runs of each outer iteration left over, at its end */
    int whole, cwhole;      /* cwhole: the pairs' scales neighbour too */
    const void *idx;        /* perm or a table below */
    union { int16_t words[32]; int32_t dwords[16]; } perm;
} tl__sr_side;

/* What a unit of dwords of four rows holds (tl__sr_dw_in). */
enum { TL__SR_DW_BYTES, TL__SR_DW_I8, TL__SR_DW_QUADS };

/* Dword j of lane k to dword k of lane j: the 4 x 4 transpose of a
   vector's dwords over its lanes. */
static const int32_t tl__sr16_dwords_t4x4[16] = { 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 };
/* Byte j of dword k to byte k of dword j inside every lane: the same
   transpose within each 16 bytes. */
static const int8_t tl__sr16_bytes_t4x4[64] = { 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                                0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                                0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                                0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 };
/* A vector's even words, then its odd ones */
static const int16_t tl__sr16_words_split[32] = { 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
                                                  1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 };
/* The top halves of two vectors' 32-bit lanes, in order */
static const int16_t tl__sr16_bf16_tops[32] = { 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31,
                                                33, 35, 37, 39, 41, 43, 45, 47, 49, 51, 53, 55, 57, 59, 61, 63 };

/* The vectors' pieces of a group whose pieces in dst's order sit so[]
   and co[] from its first (tl__sr_side): slot[j], piece j's place
   among the vectors' halves, pairs neighbours where all have one. Once
   per converter call, so without divisions (a first version's cost a
   fifth of the time of f32 -> bf16 nChw16c -> nChw8c 8x64x14x14). */
static void tl__sr_side_pairs(tl__sr_side *g, int np, const size_t *so, const tl_dim *co)
{
    unsigned slot[8], used = 0, v = 0, t;
    int j, k, moved = 0;
    g->whole = 1;
    for (j = 0; j < np; ++j) {      /* dst's own pairs come first where they neighbour (runs of 16) */
        if (used >> j & 1) continue;
        for (k = j + 1; k < np && (used >> k & 1 || (so[k] != so[j] + 32 && so[j] != so[k] + 32)); ++k) {}
        g->whole = k < np;
        if (!g->whole) break;
        used |= 1u << j | 1u << k;
        slot[j] = 2 * v + (so[j] > so[k]);
        slot[k] = 2 * v + (so[k] > so[j]);
        ++v;
    }
    for (j = 0; j < np; ++j) {
        if (!g->whole) slot[j] = (unsigned)j;
        moved |= slot[j] != (unsigned)j;
        g->so[slot[j]] = so[j];
        g->co[slot[j]] = co[j];
    }
    g->cwhole = g->whole;
    for (j = 0; j < np; j += 2) g->cwhole &= g->co[j + 1] == g->co[j] + 8;
    g->idx = np == 4 ? (const void *)tl__sr16_bf16_tops : (const void *)tl__sr16_dwords_t4x4;
    if (!moved) return;
    g->idx = &g->perm;
    /* bf16's dst word 8j + t is the top half of lane t of piece j's half
       of its vector (the second vector's words from 32); 8-bit's dst
       dword 2j + t, values 4t.. of piece j, was packed into dword 4L + v,
       L the 128-bit lane those values had in vector v */
    for (j = 0; j < np; ++j) {
        if (np == 4)    /* 8 words at once: their computation was a tenth of nChw8c -> nChw16c's time */
            simde_mm_storeu_si128((simde__m128i *)(void *)(g->perm.words + 8 * j),
                                  simde_mm_add_epi16(simde_mm_loadu_si128((const simde__m128i *)(const void *)tl__sr16_bf16_tops),
                                                     simde_mm_set1_epi16((int16_t)(slot[j] / 2 * 32 + slot[j] % 2 * 16))));
        else
            for (t = 0; t < 2; ++t) g->perm.dwords[2 * j + t] = (int32_t)(4 * (2 * (slot[j] % 2) + t) + slot[j] / 2);
    }
}

/* Fills g for runs of n values (rs along, outer.count times) in groups
   of np pieces (4: bf16, 8: 8-bit); returns the outer iterations the
   walk covers (the others go to the other loops, as do the g->rest
   last runs of each), 0 where the groups line up with neither loop.
   Where the outer runs lie closer in the source than the inner ones (a
   pixel's channel blocks, tl__sr_side_src_order), the walk takes the
   outer ones inside each group: the group's pixels are read front to
   back, every line whole, where in dst's order each pass over the
   pixels read half a line of each (f32 nChw8c) and came back for the
   rest a pass later. In cache f32 -> bf16 and s8 nhwc -> nChw8c
   8x64x14x14 ran 1.7-2x as fast, 1x256x14x14 2.9x, nChw16c 2x512x14x14
   2.2x (Zen 4). Streamed (from beyond the caches) it only paid with few
   dst streams (64x64x28x28 and 2x64x112x112: 8 blocks, 1.4-2x) or where
   each pixel's lines alias in dst's order (a row a multiple of 4 KiB:
   8x1024x28x28 1.7x); 32 blocks of 256 channels went 1.2-1.4x slower,
   16 no faster (64x256x14x14, 8x128x56x56, 8x256x56x56). */
#define TL__SR_SIDE_STREAMS 8
static tl_dim tl__sr_side_init(tl__sr_side *g, tl_dim n, int np, tl_dim sstep, tl__sr_runs rs,
                               tl__sr_runs outer)
{
    tl_dim per = n / 8, G = np / per, k = 0, o = 0, done, co[8];   /* pieces a run, runs a group */
    size_t so[8];
    int j;
    g->rest = 0;
    if (rs.count >= G) {    /* groups inside an outer iteration, its last runs over (G: 2, 4 or 8) */
        g->ni = rs.count >> (G == 2 ? 1 : G == 4 ? 2 : 3);
        g->rest = rs.count & (G - 1);
        g->gs = (size_t)G * rs.s;
        g->gc = G * rs.c;
        g->no = done = outer.count;
    } else if (G % rs.count == 0 && outer.count >= G / rs.count) {     /* across them */
        g->ni = outer.count / (G / rs.count);
        g->gs = (size_t)(G / rs.count) * outer.s;
        g->gc = G / rs.count * outer.c;
        g->no = 1;
        done = g->ni * (G / rs.count);
    } else {
        return 0;
    }

    g->os = outer.s;
    g->oc = outer.c;
    g->od = outer.d;
    g->nb = outer.s < rs.s && (!rs.nt || g->no <= TL__SR_SIDE_STREAMS || rs.s % 4096 == 0) ? g->no : 1;
    for (j = 0; j < np; j += (int)per) {     /* run k of outer iteration o */
        so[j] = (size_t)o * outer.s + (size_t)k * rs.s;
        co[j] = o * outer.c + k * rs.c;
        if (per == 2) {
            so[j + 1] = so[j] + 32;
            co[j + 1] = co[j] + 8 * sstep;
        }
        if (++k == rs.count) {
            k = 0;
            ++o;
        }
    }
    tl__sr_side_pairs(g, np, so, co);
    return done;
}

/* Pieces of 8 values a side-by-side group takes into dst type dt: 64
   bytes of bf16 or of 8-bit values. */
static int tl__sr_side_np(tl_data_type dt)
{
    return dt == TL_BF16 ? 4 : 8;
}

/* Whether tl__sr_side_init's groups of np pieces (4: bf16, 8: 8-bit)
   take every run of n values (8 or 16; rs, outer.count times) whole,
   leaving none to the other loops: checked before a walk over
   several steps' groups (tl__sr_convert_sides), whose failed setup cost
   f32 -> s8 nChw16c -> nChw8c per channel 8x64x14x14 (196 pixels, 4
   left over) 8%. */
static int tl__sr_side_whole(tl_dim n, int np, tl__sr_runs rs, tl__sr_runs outer)
{
    tl_dim G = np / (n / 8);
    if (rs.count >= G) return rs.count % G == 0;
    return G % rs.count == 0 && outer.count % (G / rs.count) == 0;
}

/* Whether runs of 8 from dst on convert two at a time as runs of 16
   (TL__SR_EACH_PAIR): back to back in dst, wherever they lie in the
   source, with the same scales each (doubled) or scales that continue
   from one run to the next (nChw8c -> nChw16c per channel); streamed
   only where every pair starts on 16 bytes, as streaming stores must
   (16 values of s8 are 16 bytes). */
TL__SR_INLINE int tl__sr_runs_pair(tl__sr_scales sc, tl__sr_runs rs, tl__sr_runs outer, int nt,
                                   int dsz, const char *dst)
{
    return rs.count >= 2 && rs.d == (size_t)(8 * dsz) &&
           (!sc.sc || rs.c == 0 || (sc.sstep == 1 && rs.c == 8)) &&
           (!nt || ((uintptr_t)dst % 16 == 0 && outer.d % 16 == 0));
}

/* The plan's arithmetic, copied into locals once per run: dst is written
   through char pointers, which may alias the plan and the scales, so the
   compiler would otherwise re-read every field for every vector. */
typedef struct {
    float szp, beta, dzp, adj;
    int   adj_on;
    float s0;           /* the scale, when one serves the whole run */
    int   extra;        /* any step besides the scale */
    int   nt;           /* stream the stores (tl__sr_runs.nt) */
} tl__sr_q;

TL__SR_INLINE tl__sr_q tl__sr_q_of(const tl_reorder_plan *p, tl__sr_scales sc)
{
    tl__sr_q q;
    q.szp = p->src_zero_point;
    q.beta = p->beta;
    q.dzp = p->dst_zero_point;
    q.adj = p->scale_adjust;
    q.adj_on = p->has_scale_adjust;
    q.s0 = sc.sc && sc.sstep == 0 ? sc.sc[sc.sidx] : 1.f;
    q.extra = q.szp != 0 || q.beta != 0 || q.dzp != 0 || q.adj_on;
    q.nt = 0;
    return q;
}

/* A converting TL__SR_QUADS4 step's arithmetic: the plan's, and the
   scale of each lane of the 4 permuted vectors t[k] of a tap's vector
   v, in their order before the transposes (tl__sr_q4_scales), at s +
   16 (4 v + k); 1 without scales. sidx: the scale index s holds (-1:
   none yet); co: each lane's scale index from sidx. */
typedef struct {
    tl__sr_q q;
    int u8;
    tl_dim sidx;
    float s[16 * 4 * 16];
    tl_dim co[16 * 4 * 16];
} tl__sr_q4cv;

/* DESIGN's formula on n values (a multiple of 4) in place, one operation
   per pass in the order of the core's tl__quantize. old: dst_old. */
TL__SR_INLINE void tl__sr_quantize(const tl__sr_q *q, int extra, simde__m128 *v, simde__m128 *old,
                                   tl__sr_scales sc, tl_dim n)
{
    tl_dim i, nv = n / 4;
    if (extra && q->szp != 0) {
        simde__m128 z = simde_mm_set1_ps(q->szp);
        for (i = 0; i < nv; ++i) v[i] = simde_mm_sub_ps(v[i], z);
    }
    if (sc.sc && sc.sstep == 0) {
        simde__m128 s = simde_mm_set1_ps(q->s0);
        for (i = 0; i < nv; ++i) {
            v[i] = simde_mm_mul_ps(s, v[i]);
            TL__SR_ROUNDED(v[i]);
        }
    } else if (sc.sc) {
        for (i = 0; i < nv; ++i) {
            v[i] = simde_mm_mul_ps(tl__sr_scale4(sc.sc, sc.sidx + 4 * i * sc.sstep, sc.sstep), v[i]);
            TL__SR_ROUNDED(v[i]);
        }
    }
    if (!extra) return;
    if (q->beta != 0) {
        simde__m128 b = simde_mm_set1_ps(q->beta);
        simde__m128 quiet = simde_mm_castsi128_ps(simde_mm_set1_epi32(0x00400000));
        for (i = 0; i < nv; ++i) {
            /* NaN + NaN: the hardware returns one operand's NaN, and which
               one depends on the order the compiler chose. The core's
               v[k] + old[k] keeps v's (the source's) payload on GCC and
               Clang, so that is spelled out here. */
            simde__m128 nan = simde_mm_cmpunord_ps(v[i], v[i]);
            simde__m128 prod = simde_mm_mul_ps(b, old[i]), sum;
            TL__SR_ROUNDED(prod);
            sum = simde_mm_add_ps(v[i], prod);
            v[i] = simde_mm_or_ps(simde_mm_and_ps(nan, simde_mm_or_ps(v[i], quiet)),
                                  simde_mm_andnot_ps(nan, sum));
        }
    }
    if (q->dzp != 0) {
        simde__m128 z = simde_mm_set1_ps(q->dzp);
        for (i = 0; i < nv; ++i) v[i] = simde_mm_add_ps(v[i], z);
    }
    if (q->adj_on) {
        simde__m128 a = simde_mm_set1_ps(q->adj);
        for (i = 0; i < nv; ++i) v[i] = simde_mm_mul_ps(a, v[i]);
    }
}

/* w values (16, or 8 for the last of a run in 8s or the overlapping
   last step; a constant where inlined) to dst, the 8 after the first 8
   from src + apart (runs of 8 in pairs: TL__SR_EACH_PAIR); extra: 0
   when the plan is known to only scale, which takes the tests for the
   other steps out of the loop. */
TL__SR_INLINE void tl__sr_convert_split(const tl__sr_q *q, int extra, tl_data_type st,
                                        tl_data_type dt, const char *src, size_t apart,
                                        char *dst, tl__sr_scales sc, int w)
{
    simde__m128 v[4], old[4];
    tl__sr_load(st, src, v, 8);
    if (w == 16) tl__sr_load(st, src + apart, v + 2, 8);
    /* old is read only with beta; zeroed otherwise so that GCC -O3
       does not warn it may be used uninitialised */
    if (extra && q->beta != 0) tl__sr_load(dt, dst, old, w);
    else old[0] = old[1] = old[2] = old[3] = simde_mm_setzero_ps();
    tl__sr_quantize(q, extra, v, old, sc, w);
    tl__sr_store(dt, v, dst, w, q->nt);
}

/* Values k..k+w-1 of a run. */
TL__SR_INLINE void tl__sr_convert16(const tl__sr_q *q, int extra, tl_data_type st,
                                    tl_data_type dt, int ssz, int dsz, const char *src,
                                    char *dst, tl__sr_scales sc, tl_dim k, int w)
{
    sc.sidx += k * sc.sstep;
    tl__sr_convert_split(q, extra, st, dt, src + (size_t)k * (size_t)ssz, (size_t)(8 * ssz),
                         dst + (size_t)k * (size_t)dsz, sc, w);
}

/* sc, whose sstep is 1, with that 1 a constant where inlined (and not
   wrapped: for a step that reads its 16 scales from sc.sidx on). */
TL__SR_INLINE tl__sr_scales tl__sr_step_one(tl__sr_scales sc)
{
    tl__sr_scales one = { sc.sc, sc.sidx, 1, 0 };
    return one;
}

/* The scales of a step at element k of a run that reads them from k on
   (sc.sidx + k * sc.sstep): wrapped ones shifted to land on k % 16,
   and no longer wrapped (a step's 16 values lie within the pattern's
   32). */
TL__SR_INLINE tl__sr_scales tl__sr_step_scales(tl__sr_scales sc, tl_dim k)
{
    if (sc.wrap) {
        sc.sidx += (k & 15) - k;    /* k >= 0: no division */
        sc.wrap = 0;
    }
    return sc;
}

/* NAME: the loop over a run of n values (a multiple of 8, or any n of
   at least 8 where dst is not read: no beta) by STEP, 16 at a time, a
   run in 8s ending with a step of 8 (nChw8c's blocks), others with the
   last 8 values again (tl__sr_convert_runs). Scale-only plans, the
   common ones, unroll four steps (more loads in flight); the others
   two: four took a quarter of the header's compile time, and two ran as
   fast (Zen 3, f32 -> s8 with sum, s8 -> f32 with a zero point; one
   step: 0.75 of that with sum). The scale-only loop comes twice, for
   runs without a scale and runs with one (a constant tl__sr_scales
   each), on a copy of q that no store can alias: with q's fields and
   the scales' kind tested at every step, GCC kept both loops rolled,
   2 instructions a value where 1 does (f32 -> s8 nchw, one scale,
   8x64x14x14 on the Zen 3: 28 -> 15 us); runs whose scales vary take
   the other, save wrapped ones (tl__sr_join_runs), whose loop gives
   every step the same 16 scales and moves the step's src and dst
   instead of its k. */
#define TL__SR_STEP_LOOP(NAME, STEP) \
    TL__SR_INLINE void NAME(const tl__sr_q *q, int extra, tl_data_type st, tl_data_type dt, \
                            int ssz, int dsz, const char *src, char *dst, tl__sr_scales sc, \
                            tl_dim n) \
    { \
        tl__sr_q c = *q;    /* the scale-only loops' q, which no store aliases */ \
        tl_dim k, n16 = n / 16 * 16; \
        if (n == 16 || n == 8) {    /* one step: no unrolled loop around it */ \
            if (n == 16) STEP(q, extra, st, dt, ssz, dsz, src, dst, sc, 0, 16); \
            else STEP(q, extra, st, dt, ssz, dsz, src, dst, sc, 0, 8); \
            return; \
        } \
        if (sc.sc && sc.wrap) {     /* every step the same 16 scales */ \
            tl__sr_scales at = tl__sr_step_one(sc); \
            TL__SR_UNROLL2 \
            for (k = 0; k < n16; k += 16) \
                STEP(&c, extra, st, dt, ssz, dsz, src + (size_t)k * (size_t)ssz, dst + (size_t)k * (size_t)dsz, \
                     at, 0, 16); \
        } else if (extra || (sc.sc && sc.sstep != 0)) { \
            TL__SR_UNROLL2 \
            for (k = 0; k < n16; k += 16) STEP(q, extra, st, dt, ssz, dsz, src, dst, sc, k, 16); \
        } else if (!sc.sc) { \
            TL__SR_UNROLL4 \
            for (k = 0; k < n16; k += 16) STEP(&c, 0, st, dt, ssz, dsz, src, dst, tl__sr_no_scales, k, 16); \
        } else { \
            TL__SR_UNROLL4 \
            for (k = 0; k < n16; k += 16) STEP(&c, 0, st, dt, ssz, dsz, src, dst, tl__sr_one_scale, k, 16); \
        } \
        if (n - n16 >= 8) STEP(q, extra, st, dt, ssz, dsz, src, dst, tl__sr_step_scales(sc, n16), n16, 8); \
        if (n % 8 != 0) {       /* stored plainly: off the 16 bytes streaming needs */ \
            tl__sr_q last = *q; \
            last.nt = 0; \
            STEP(&last, extra, st, dt, ssz, dsz, src, dst, tl__sr_step_scales(sc, n - 8), n - 8, 8); \
        } \
    }

/* NAME: rs.count runs of n (a multiple of 8) contiguous values each,
   outer.count times (outer.s, outer.d and outer.c further on each time),
   16 at a time from load to store in registers by LOOP (one per
   instruction set, each defined in its own target region; EIGHT: LOOP
   takes runs in 8s, and PAIR, its step's split form, two of them at
   once; AVX-512's loop takes runs in 16s, and names AVX2's PAIR only
   for the code that EIGHT leaves out). Inlined with constant types by
   the switches on type pairs. Runs of 16 or 8 values that only scale
   (the pixels of nhwc -> nChw16c) get a loop of their own: in the
   shared one GCC kept the run counter and pointers on the stack, and
   s8 -> f32 nhwc -> nChw16c 16x96x7x7 took 2x as long (15.7 against
   7.3 us on the Zen 4;
   f32 -> f32 with a scale 2.1x, f32 -> bf16 1.8x). (A single run loop
   inlined three ways, with extra and n constant, ran these 1.4x slower
   again: not kept.) Runs of 16 with a scale per value (nChw16c's blocks
   into nhwc per channel) take it with that step a constant
   (tl__sr_step_one): tested at every vector, f32 -> s8 8x64x14x14 took
   254K instructions, now 172K (callgrind). PLAIN (a constant): runs
   that only convert (tl__sr_plain: no scales, no other step, stores not
   streamed), which take a switch of their own: inlined among the other loops, GCC kept
   the walk's pointers and strides on the stack, and every run paid the
   tests for scales and streaming, every store one for streaming, laid
   out of line (s8 -> f32 nChw8c -> nhwc 8x64x14x14 14.9 -> 9.5 us, bf16
   -> f32 nhwc -> nChw8c 12.4 -> 10.3 us, s8 -> f32 nhwc -> nChw16c 7.1
   -> 6.2 us, s8 -> f32 nchw -> nchw 6.5 -> 4.4 us; Zen 4). */
#define TL__SR_CONVERT_BODY(NAME, LOOP, EIGHT, PAIR, PLAIN) \
    TL__SR_INLINE void NAME(const tl_reorder_plan *p, tl_data_type st, tl_data_type dt, int ssz, \
                            int dsz, const char *src, char *dst, tl__sr_scales sc, tl_dim n, \
                            tl__sr_runs rs, tl__sr_runs outer) \
    { \
        tl__sr_q q; \
        const char *s0 = src; \
        char *d0 = dst; \
        tl_dim k, o, c0; \
        if (PLAIN) sc = tl__sr_no_scales; \
        q = tl__sr_q_of(p, sc); \
        q.nt = PLAIN ? 0 : rs.nt; \
        if (PLAIN) q.extra = 0; \
        c0 = sc.sidx; \
        if (n == 16 && !q.extra && sc.sc && sc.sstep == 1) \
            TL__SR_EACH_RUN(LOOP(&q, 0, st, dt, ssz, dsz, src, dst, tl__sr_step_one(sc), 16)); \
        else if (n == 16 && !q.extra) \
            TL__SR_EACH_RUN(LOOP(&q, 0, st, dt, ssz, dsz, src, dst, sc, 16)); \
        else if (EIGHT && n == 8 && !q.extra && tl__sr_runs_pair(sc, rs, outer, q.nt, dsz, dst)) \
            TL__SR_EACH_PAIR(PAIR(&q, 0, st, dt, src, rs.s, dst, two, 16), \
                             PAIR(&q, 0, st, dt, src, rs.s, dst, sc, 16), \
                             LOOP(&q, 0, st, dt, ssz, dsz, src, dst, sc, 8)); \
        else if (EIGHT && n == 8 && !q.extra) \
            TL__SR_EACH_RUN(LOOP(&q, 0, st, dt, ssz, dsz, src, dst, sc, 8)); \
        else TL__SR_EACH_RUN(if (q.extra) LOOP(&q, 1, st, dt, ssz, dsz, src, dst, sc, n); \
                             else LOOP(&q, 0, st, dt, ssz, dsz, src, dst, sc, n)); \
    }
/* The walk over runs of 8 that tl__sr_runs_pair pairs up: CALL_TWO
   converts two (rs.s bytes apart in src) as one run of 16 whose scales
   `two` are the 8 twice or the 16 that follow on (sstep 1: a
   constant), CALL_ONE does so where one scale or none serves the run,
   CALL_LAST converts the last run of an odd count. The pairs go along
   rs, or along outer where rs holds just one and outer keeps the
   scales (nChw8c -> nChw16c: the two source blocks of each pixel; a
   walk over rs paid its setup for every pixel). nChw8c per channel,
   each block's pixels: f32 -> s8 nChw8c -> nChw8c 8x64x14x14 on the
   Zen 3 took 26 instructions a run of 8, 14 a pair. The pairs' two
   loops stay apart: one loop choosing per pair took 1.4x the
   instructions (GCC kept the test inside). */
#define TL__SR_EACH_PAIR(CALL_TWO, CALL_ONE, CALL_LAST) \
    do { \
        float rep[16]; \
        tl__sr_runs pr = rs, po = outer;    /* the pairs' walk, and the one around it */ \
        pr.count = rs.count / 2; \
        pr.s = 2 * rs.s; \
        pr.d = 2 * rs.d; \
        pr.c = 2 * rs.c; \
        if (rs.count == 2 && outer.c == 0) { \
            pr = outer; \
            po = tl__sr_one_run; \
        } \
        for (o = 0; o < po.count; ++o, s0 += po.s, d0 += po.d, c0 += po.c) { \
            int j; \
            if (sc.sc && sc.sstep == 0) q.s0 = sc.sc[c0]; \
            for (j = 0; sc.sc && sc.sstep != 0 && rs.c == 0 && j < 16; ++j) rep[j] = sc.sc[c0 + j % 8 * sc.sstep]; \
            if (sc.sc && sc.sstep != 0) { \
                tl__sr_scales two = { rep, 0, 1, 0 }; \
                if (rs.c != 0) { \
                    two.sc = sc.sc; \
                    two.sidx = c0; \
                } \
                for (k = 0, src = s0, dst = d0; k < pr.count; ++k, src += pr.s, dst += pr.d, two.sidx += pr.c) \
                    CALL_TWO; \
            } else { \
                for (k = 0, src = s0, dst = d0; k < pr.count; ++k, src += pr.s, dst += pr.d) \
                    CALL_ONE; \
            } \
            if (rs.count % 2 != 0) { \
                src = s0 + (size_t)(rs.count - 1) * rs.s; \
                dst = d0 + (size_t)(rs.count - 1) * rs.d; \
                sc.sidx = c0 + (rs.count - 1) * rs.c; \
                CALL_LAST; \
            } \
        } \
    } while (0)
/* The walk over the runs of TL__SR_CONVERT_BODY, CALL converting one. */
#define TL__SR_EACH_RUN(CALL) \
    do { \
        for (o = 0; o < outer.count; ++o, s0 += outer.s, d0 += outer.d, c0 += outer.c) \
            for (k = 0, src = s0, dst = d0, sc.sidx = c0; k < rs.count; \
                 ++k, src += rs.s, dst += rs.d, sc.sidx += rs.c) { \
                if (sc.sc && sc.sstep == 0) q.s0 = sc.sc[sc.sidx]; \
                CALL; \
            } \
    } while (0)

TL__SR_STEP_LOOP(tl__sr_convert_loop, tl__sr_convert16)
TL__SR_CONVERT_BODY(tl__sr_convert_body, tl__sr_convert_loop, 1, tl__sr_convert_split, 0)
TL__SR_CONVERT_BODY(tl__sr_plain_body, tl__sr_convert_loop, 1, tl__sr_convert_split, 1)

#define TL__SR_PAIR(a, b) ((int)(a) * 16 + (int)(b))

/* The common type pairs get their own unrolled loop (BODY inlined with
   constant types), the rest share one; one list for every variant. */
#define TL__SR_FAST_PAIRS(X, BODY) \
    X(BODY, TL_F32, TL_F32, 4, 4) X(BODY, TL_F32, TL_S8, 4, 1) X(BODY, TL_F32, TL_U8, 4, 1) \
    X(BODY, TL_F32, TL_S32, 4, 4) X(BODY, TL_F32, TL_BF16, 4, 2) X(BODY, TL_S8, TL_F32, 1, 4) \
    X(BODY, TL_U8, TL_F32, 1, 4) X(BODY, TL_S32, TL_F32, 4, 4) X(BODY, TL_BF16, TL_F32, 2, 4)
#define TL__SR_PAIR_CASE(BODY, S, D, SS, DS) \
    case TL__SR_PAIR(S, D): BODY(p, S, D, SS, DS, src, dst, sc, n, rs, outer); break;
/* NAME: a switch over the plan's type pairs, BODY inlined for each of
   the pairs in LIST and once more for the others. */
#define TL__SR_PAIR_SWITCH(NAME, LIST, BODY) \
    static void NAME(const tl_reorder_plan *p, const char *src, char *dst, tl__sr_scales sc, \
                     tl_dim n, tl__sr_runs rs, tl__sr_runs outer) \
    { \
        tl_data_type st = p->src_md.data_type, dt = p->dst_md.data_type; \
        switch (TL__SR_PAIR(st, dt)) { \
        LIST(TL__SR_PAIR_CASE, BODY) \
        default: \
            BODY(p, st, dt, (int)tl_dt_size(st), (int)tl_dt_size(dt), src, dst, sc, n, rs, outer); \
            break; \
        } \
    }

/* NAME: converted runs rs whose first nd (1 to n - 1) of n (8 or 16)
   values are data, each in one pass: n values loaded from the run (those
   past nd are the next runs'), or, where they would pass the source's
   end (s_end), its data in masked pieces (tl__sr_run_piece) staged
   (the pieces staged for every run, then loaded 32 bytes at once, missed
   store forwarding: f32 -> u8 ran 1.8x slower than the old path),
   converted in registers, vectors VEC of W values, by LOAD, QUANTIZE
   and STORE (counting UNIT values as one), the lanes past nd cleared
   (LANES(m): the mask of the lanes below m) whatever zero points, scale
   or beta made of them, and the whole run stored. Inlined with the
   types of the pairs in LIST and n constant. */
#define TL__SR_PADDED_LOOP(NAME, LIST, VEC, W, UNIT, LOAD, QUANTIZE, STORE, AND, LANES) \
    TL__SR_INLINE void NAME##_n(const tl__sr_q *q, tl_data_type st, tl_data_type dt, const char *s, \
                                char *d, tl__sr_scales sc, tl__sr_runs rs, tl_dim n, tl_dim nd, \
                                const char *s_end) \
    { \
        size_t ssz = tl_dt_size(st), ndb = (size_t)nd * ssz, b; \
        simde__m128i in[4], keep = tl__sr_first_bytes(ndb % 16); \
        VEC v[16 / W], old[16 / W], lanes[16 / W]; \
        tl_dim i, k; \
        memset(old, 0, sizeof old); \
        for (i = 0; i < n / W; ++i) lanes[i] = LANES(nd - W * i); \
        for (k = 0; k < rs.count; ++k, s += rs.s, d += rs.d) { \
            const char *from = s; \
            if ((size_t)(s_end - s) < (size_t)n * ssz) { \
                for (b = 0; b < (size_t)n * ssz; b += 16) in[b / 16] = tl__sr_run_piece(s, b, ndb, keep, s_end); \
                from = (const char *)(const void *)in; \
            } \
            LOAD(st, from, v, (int)(n / UNIT)); \
            if (q->extra && q->beta != 0) LOAD(dt, d, old, (int)(n / UNIT)); \
            QUANTIZE(q, q->extra, v, old, sc, (int)(n / UNIT)); \
            for (i = 0; i < n / W; ++i) v[i] = AND(v[i], lanes[i]); \
            STORE(dt, v, d, (int)(n / UNIT), rs.nt); \
        } \
    } \
    static void NAME(const tl__sr_q *q, tl_data_type st, tl_data_type dt, const char *s, char *d, \
                     tl__sr_scales sc, tl__sr_runs rs, tl_dim n, tl_dim nd, const char *s_end) \
    { \
        switch (TL__SR_PAIR(st, dt)) { \
        LIST(TL__SR_PADDED_CASE, NAME##_n) \
        default: TL__SR_PADDED_CALL(NAME##_n, st, dt); break; \
        } \
    }
#define TL__SR_PADDED_CALL(LOOP, S, D) \
    do { \
        if (n == 16) LOOP(q, S, D, s, d, sc, rs, 16, nd, s_end); \
        else LOOP(q, S, D, s, d, sc, rs, 8, nd, s_end); \
    } while (0)
#define TL__SR_PADDED_CASE(LOOP, S, D, SS, DS) \
    case TL__SR_PAIR(S, D): TL__SR_PADDED_CALL(LOOP, S, D); break;

/* The mask of the lanes below m. */
TL__SR_INLINE simde__m128 tl__sr_lanes_below(tl_dim m)
{
    return simde_mm_castsi128_ps(simde_mm_cmpgt_epi32(simde_mm_set1_epi32((int32_t)m), simde_mm_setr_epi32(0, 1, 2, 3)));
}

TL__SR_PADDED_LOOP(tl__sr_convert_padded_sse, TL__SR_FAST_PAIRS, simde__m128, 4, 1, tl__sr_load, tl__sr_quantize,
                   tl__sr_store, simde_mm_and_ps, tl__sr_lanes_below)

/* The lines of [p, p + bytes) on their way into L1 (l2: only into L2;
   a constant where inlined). */
TL__SR_INLINE void tl__sr_prefetch_lines(const char *p, size_t bytes, int l2)
{
    size_t b;
    for (b = 0; b < bytes; b += 64) {
        if (l2) TL__SIMD_PREFETCH_L2(p + b);
        else TL__SIMD_PREFETCH(p + b);
    }
}

TL__SR_ZIP_DEF(tl__sr_zip, simde__m128i, simde_mm_)

/* A 4 x 4 block of 4-byte elements into dst rows from a table: element
   (m, l) from s + m*4 + l*sb to d + rows[m] + l*4, m and l below 4. */
TL__SR_INLINE void tl__sr_rows_block4(const char *s, size_t sb, char *d, const size_t *rows)
{
    simde__m128i r[4], t[4];
    int i;
    TL__SR_UNROLL
    for (i = 0; i < 4; ++i) r[i] = simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + (size_t)i * sb));
    TL__SR_ZIP_ROUNDS(tl__sr_zip, r, t, 4, 4);
    TL__SR_UNROLL
    for (i = 0; i < 4; ++i) simde_mm_storeu_si128((simde__m128i *)(void *)(d + rows[i]), r[tl__sr_bitrev(i, 4)]);
}

/* The part of a strip of a tile_rows tile (rows [0, nm), columns
   [l0, l1)) outside its whole 8 x 8 blocks (rows [0, mb), columns
   [l0, lb)): in 4 x 4 blocks where rows and columns come in 4s (the 4 o
   of OIhw4i4o, which went one element at a time: 0.2-0.6 of oneDNN),
   the rest one element at a time. */
TL__SR_INLINE void tl__sr_rows_border4(const char *s, size_t sb, char *d, const size_t *rows, tl_dim nm,
                                       tl_dim mb, tl_dim l0, tl_dim lb, tl_dim l1)
{
    tl_dim m4 = nm / 4 * 4, l4 = lb + (l1 - lb) / 4 * 4, m, l;
    /* rows start where there is something to do: an empty pass over all
       the rows of each tile cost OIhw8i8o (no border) 1.6x */
    for (m = lb < l4 ? 0 : mb; m < m4; m += 4)
        for (l = m < mb ? lb : l0; l < l4; l += 4)
            tl__sr_rows_block4(s + (size_t)m * 4 + (size_t)l * sb, sb, d + (size_t)l * 4, rows + m);
    for (m = l4 < l1 ? 0 : m4; m < nm; ++m)
        for (l = m < m4 ? l4 : l0; l < l1; ++l)
            memcpy(d + rows[m] + (size_t)l * 4, s + (size_t)m * 4 + (size_t)l * sb, 4);
}

/* A block of TL__SR_TILES_BODY element by element: rows j < rows at
   b + off[j], their first mm columns of es-byte elements to d, db bytes
   apart (the last block of the tensor, whose whole-row loads could pass
   its end, and blocks of fewer rows than a vector). */
static void tl__sr_tiles_edge(size_t es, const char *b, const size_t *off, int rows, char *d,
                              size_t db, int mm, const float *rsv, const float *csv)
{
    int j, m;
    (void)rsv;
    (void)csv;
    for (m = 0; m < mm; ++m)
        for (j = 0; j < rows; ++j) memcpy(d + (size_t)m * db + (size_t)j * es, b + off[j] + (size_t)m * es, es);
}

/* The scales of side-by-side tiles converted on the way: value (tile
   k, row l, column m) of a step takes scale sidx + k ks + l ls + m ms,
   where either ms is 0 (one scale a row: the o of oihw -> Ohwi8o,
   applied to a block's transposed vectors) or ks and ls are (one a
   column: the o of Ohwi8o -> oihw, applied as the rows load). Merged
   tiles (mn > 0, M's size): column m is M's m % mn of K's m / mn, its
   scale sidx + (m / mn) ks + (m % mn) ms, and rows take sidx + l ls. */
typedef struct {
    const float *sc;
    tl_dim sidx, ks, ls, ms, mn;
} tl__sr_tsc;

/* A copy of the scales sc (NULL: none, all zero) whose sidx a walk
   moves on. */
static tl__sr_tsc tl__sr_tsc_at(const tl__sr_tsc *sc)
{
    tl__sr_tsc at;
    if (sc) return *sc;
    memset(&at, 0, sizeof at);
    return at;
}

/* Whether the scales sc go by row (else by column). */
static int tl__sr_tsc_by_row(const tl__sr_tsc *sc)
{
    return sc->ms == 0 && (sc->mn == 0 || sc->ks == 0);
}

/* The n scales of columns m0, m0 + 1, ... into sv, zeros after them up
   to width (the lanes of columns past the tile's last, never stored),
   in one loop: a loop of zeros alone became a rep stos a block (see
   tl__sr_kernel_shaped). */
static void tl__sr_tiles_col_scales(const tl__sr_tsc *sc, float *sv, int n, int width, tl_dim m0)
{
    int j;
    for (j = 0; j < width; ++j, ++m0)
        sv[j] = j >= n ? 0.f
                       : sc->sc[sc->sidx + (sc->mn ? m0 / sc->mn * sc->ks + m0 % sc->mn * sc->ms : m0 * sc->ms)];
}

/* The source offsets of rows r to r + B - 1 of TL__SR_TILES_BODY's wide
   tile from the start of row r's tile (r < nl): row v at (v / nl) ts +
   (v % nl) sb. Returns the largest. */
TL__SR_INLINE size_t tl__sr_tiles_rows(size_t *off, int B, tl_dim r, tl_dim nl, size_t sb, size_t ts)
{
    size_t top = 0, k = 0;
    int j;
    for (j = 0; j < B; ++j, ++r) {
        if (r == nl) {
            r = 0;
            ++k;
        }
        off[j] = k * ts + (size_t)r * sb;
        if (off[j] > top) top = off[j];
    }
    return top;
}

/* The n (up to 16) scales of rows v, v + 1, ... of the wide tile of
   tl__sr_tsc sc into sv, its rows nl a tile: their indices walked as
   the rows' offsets are; a copy where they follow one another in one
   tile (per-group scales of depthwise weights, goihw -> Goihw16g: the
   compiler's gathers for the walk took a fifth of the time, Zen 4). */
static void tl__sr_tiles_row_scales(const tl__sr_tsc *sc, float *sv, int n, tl_dim v, tl_dim nl)
{
    size_t at[16];
    int j;
    if (sc->ls == 1 && v % nl + n <= nl) {
        memcpy(sv, sc->sc + sc->sidx + v / nl * sc->ks + v % nl, (size_t)n * sizeof(float));
        return;
    }
    tl__sr_tiles_rows(at, 16, v % nl, nl, (size_t)sc->ls, (size_t)sc->ks);
    for (j = 0; j < n; ++j) sv[j] = sc->sc[sc->sidx + v / nl * sc->ks + (tl_dim)at[j]];
}

/* Small tiles laid side by side in dst (tl__sr_tiles_loop: the 9 x 8 of
   OIhw8o8i, one per o) as one wide tile: its "rows" are the tiles' L
   rows one after another, row v = k nl + l at s + k ts + l sb, column m
   of row v going to d + m db + DES v (DES = ES but where the blocks
   convert: tl__sr16_tiles_convert). Blocks of B such rows by C
   columns (4-byte elements: 8 x 8 in AVX2, 16 x 16 in AVX-512; 1- and
   2-byte ones: tl__sr_tiles_side_narrow) are loaded whole and
   transposed (columns past nm ride along and are not stored), so a tile of 9
   taps costs one or two blocks, not a block, a gather for its 9th row
   and a call. Where nl and B divide one another every block's rows sit
   at the same offsets from its first; else each block's offsets follow
   from where in its tile its first row lies (hwio -> oihw: 9 taps of
   500 o a tile, which went tile by tile with the 9th tap apart). Blocks
   whose loads would pass s_end, and blocks with fewer than B rows, go
   element by element (EDGE). stream: stores stream where d is 64-byte aligned
   (db is). pf: the source lies beyond the caches, and each block
   prefetches its rows two tiles on: the tiles are ts apart (one
   o row each, 36 KiB in OIhw16o16i 1024x1024x3x3) and each gives a step
   only a few lines, too few for the hardware prefetchers to follow.
   A lone column of 8-row blocks (the 9th tap of a 3x3 filter) goes with
   mm constant, so that the compiler keeps only the shuffles that feed
   its row (7 of AVX2's 24); 16-row blocks meet one only past 16 taps,
   not worth two more AVX-512 copies. rs: the rs.count tiles, rs.s
   bytes apart in src; g: g.count such wide tiles, g.s and g.d bytes
   apart (the loop outside the tiles', walked here so that a group of
   one block, bf16 OIhw4i4o, does not pay the setup and a call each:
   tl__sr_step_outer; the lone tiles of depthwise weights, goihw ->
   Goihw16g, one after another), their scales g.c apart. gsc: the scales
   of converting tiles (tl__sr_tsc), passed to BLOCK and EDGE as a row's
   (rsv) or a column's (csv) of the block, else NULL. BLOCK(b, off, d, db,
   mm, nt, rsv, csv) comes from the instruction set's region. */
#define TL__SR_TILES_WALK(ES, DES, B, C, BLOCK, EDGE, FIXED) \
    for (v = 0; v < nv; v += (B)) { \
        const char *base = s + (size_t)(v / nl) * ts + ((FIXED) ? (size_t)(v % nl) * sb : 0); \
        int rows = nv - v < (B) ? (int)(nv - v) : (B); \
        if (!(FIXED)) reach = tl__sr_tiles_rows(off, (B), v % nl, nl, sb, ts) + (ES) * (C); \
        if (rsv) tl__sr_tiles_row_scales(sc, sv, rows, v, nl); \
        for (m0 = 0; m0 < nm; m0 += (C)) { \
            int mm = nm - m0 < (C) ? (int)(nm - m0) : (C); \
            const char *b = base + (size_t)m0 * (ES); \
            char *dv = d + (size_t)m0 * db + (size_t)v * (DES); \
            if (csv && (v == 0 || nm > (C))) tl__sr_tiles_col_scales(sc, sv, mm, (C), m0); \
            if (pf && v / nl + ahead < count) \
                for (j = 0; j < (B); ++j) TL__SIMD_PREFETCH(b + (size_t)ahead * ts + off[j]); \
            if (rows < (B) || b + reach > s_end) EDGE(ES, b, off, rows, dv, db, mm, rsv, csv); \
            else if ((C) == 8 && mm == 1) BLOCK(b, off, dv, db, 1, nt, rsv, csv); \
            else if (nt) BLOCK(b, off, dv, db, mm, 1, rsv, csv); \
            else BLOCK(b, off, dv, db, mm, 0, rsv, csv); \
        } \
    }
#define TL__SR_TILES_BODY_AS(NAME, ES, DES, B, C, BLOCK, EDGE) \
    void NAME(const char *s, size_t sb, tl__sr_runs rs, tl__sr_runs g, char *d, size_t db, tl_dim nm, \
              tl_dim nl, const char *s_end, int stream, int pf, const tl__sr_tsc *gsc) \
    { \
        tl_dim count = rs.count, nv = nl * count, v, m0, k, ahead = 2 * (nl < (B) ? (B) / nl : 1); \
        size_t ts = rs.s, off[B], reach = tl__sr_tiles_rows(off, (B), 0, nl, sb, ts) + (ES) * (C); \
        int j, fixed = nl % (B) == 0 || (B) % nl == 0; \
        float sv[(B) > (C) ? (B) : (C)]; \
        tl__sr_tsc at = tl__sr_tsc_at(gsc); \
        const tl__sr_tsc *sc = gsc ? &at : NULL; \
        const float *rsv = sc && tl__sr_tsc_by_row(sc) ? sv : NULL, *csv = sc && !rsv ? sv : NULL; \
        for (k = 0; k < g.count; ++k, s += g.s, d += g.d, at.sidx += g.c) { \
            int nt = stream && (uintptr_t)d % 64 == 0; \
            if (fixed) TL__SR_TILES_WALK(ES, DES, B, C, BLOCK, EDGE, 1) \
            else TL__SR_TILES_WALK(ES, DES, B, C, BLOCK, EDGE, 0) \
        } \
    }
#define TL__SR_TILES_BODY(NAME, ES, B, C, BLOCK) TL__SR_TILES_BODY_AS(NAME, ES, ES, B, C, BLOCK, tl__sr_tiles_edge)

/* BLOCK of TL__SR_TILES_BODY for es-byte elements from IMPL(es, b, off,
   d, db, mm, nt), which serves 1- and 2-byte ones alike. */
#define TL__SR_TILES_BLOCK_ES(NAME, IMPL, ES) \
    TL__SR_INLINE void NAME(const char *b, const size_t *off, char *d, size_t db, int mm, int nt, \
                            const float *rsv, const float *csv) \
    { \
        (void)rsv; \
        (void)csv; \
        IMPL(ES, b, off, d, db, mm, nt); \
    }

/* The block of TL__SR_TILES_BODY for 1- and 2-byte elements in vectors
   of type VT: B = 16 / es vectors of rows, ROWS(b, off, j, B) filling
   vector j (row j in its first 16-byte lane, j + B in the next, and so
   on), zipped by ZIP, so that each lane transposes a B x B block; its
   first mm dst rows to d, db bytes apart, by PUT(p, v, nt). */
#define TL__SR_TILES_BLOCK_DEF(NAME, VT, ZIP, ROWS, PUT) \
    void NAME(int es, const char *b, const size_t *off, char *d, size_t db, int mm, int nt) \
    { \
        VT r[16], t[16]; \
        int B = 16 / es, j; \
        TL__SR_UNROLL \
        for (j = 0; j < B; ++j) r[j] = ROWS(b, off, j, B); \
        TL__SR_ZIP_ROUNDS(ZIP, r, t, es, B); \
        TL__SR_OPAQUE(db); \
        TL__SR_UNROLL \
        for (j = 0; j < B; ++j) \
            if (j < mm) PUT(d + (size_t)j * db, r[tl__sr_bitrev(j, B)], nt); \
    }

/* Row j of a block of TL__SR_TILES_BLOCK_DEF: its 16 bytes at b +
   off[j] (SSE2's ROWS; the wider ones put several in one register). */
TL__SR_INLINE simde__m128i tl__sr_rows1(const char *b, const size_t *off, int j, int B)
{
    (void)B;
    return simde_mm_loadu_si128((const simde__m128i *)(const void *)(b + off[j]));
}

/* The pixels a step of tl__sr8_units4_tile (tl__sr_units4) takes: 8 narrowing to bytes,
   4 otherwise. */
static tl_dim tl__sr8_units4_pixels(int narrow, tl_data_type t)
{
    return narrow && t != TL_BF16 ? 8 : 4;
}

/* The type of plan p's units of 4 that is not f32; *narrow: f32 is the
   source's. */
static tl_data_type tl__sr8_units4_type(const tl_reorder_plan *p, int *narrow)
{
    *narrow = p->src_md.data_type == TL_F32;
    return *narrow ? p->dst_md.data_type : p->src_md.data_type;
}

/* Whether nb source-dense units by np dst-dense ones make whole steps
   of tl__sr8_units4_tile for plan p's types: np at least a step's
   pixels, and nb 8 or more (the last step overlapping the one before),
   or all 4 or 2 of a pixel's (nChw16c, nChw8c -> nChw4c; nhwc with 16
   or 8 channels). */
static int tl__sr8_units4_whole(const tl_reorder_plan *p, tl_dim nb, tl_dim np)
{
    int narrow;
    tl_data_type t = tl__sr8_units4_type(p, &narrow);
    return np >= tl__sr8_units4_pixels(narrow, t) && (nb >= 8 || nb == 4 || nb == 2);
}

#if TL__SR_AVX2
/* The last values of a tile's rows, for kernels that work in whole
   steps (tl__sr8_bytes_tile, tl__sr_tile_direct): n bytes of each of
   `rows` rows (sb apart) into stage rows `side` bytes apart, zeroed past
   n, so that the step reads nothing past the source; */
static void tl__sr_stage_last(char *stage, size_t side, const char *s, size_t sb, tl_dim rows, size_t n)
{
    tl_dim r;
    for (r = 0; r < rows; ++r) {
        memset(stage + (size_t)r * side, 0, side);
        memcpy(stage + (size_t)r * side, s + (size_t)r * sb, n);
    }
}

/* and the first w bytes of the step's first n dst rows (ob bytes apart
   in out) to d, db apart, so that it writes nothing past the tile. */
static void tl__sr_unstage_rows(char *d, size_t db, const char *out, size_t ob, size_t w, tl_dim n)
{
    tl_dim r;
    for (r = 0; r < n; ++r) memcpy(d + (size_t)r * db, out + (size_t)r * ob, w);
}
#endif

/* ---- simd: the AVX2 variants ------------------------------------------
   The same steps as the SSE2 functions above, eight lanes at a time. */
#if TL__SR_AVX2 == 2
/* before the target switch: the compiler's own intrinsics carry their
   targets, and the rest (__rdtsc) must stay callable from plain code */
#include <immintrin.h>
#if defined(__clang__) && !defined(__cplusplus) && \
    (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L)
/* Before C11, glibc spells _Static_assert as a function declaration,
   and clang would make each one SIMDe asserts in the target regions a
   multiversioned function, which it refuses for F16C: those asserts
   declare an array instead, until the regions end. */
#define TL__SR_ASSERT_SWAPPED
#pragma push_macro("HEDLEY_STATIC_ASSERT")
#undef HEDLEY_STATIC_ASSERT
#define HEDLEY_STATIC_ASSERT(expr, message) extern int tl__sr_simde_assert[(expr) ? 1 : -1]
#endif
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx,avx2,f16c"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx,avx2,f16c")
#endif
#define SIMDE_X86_AVX_NATIVE
#define SIMDE_X86_AVX2_NATIVE
#define SIMDE_X86_F16C_NATIVE
#endif
#if TL__SR_AVX2
#include <simde/x86/avx2.h>
#include <simde/x86/f16c.h>

/* x | y per lane: y where mask is all ones, x where it is zero. */
TL__SR_INLINE simde__m256i tl__sr8_select(simde__m256i mask, simde__m256i y, simde__m256i x)
{
    return simde_mm256_or_si256(simde_mm256_and_si256(mask, y), simde_mm256_andnot_si256(mask, x));
}

/* 8 f16 values to f32, as tl_f16_to_f32. F16C converts every number
   exactly (DAZ does not apply to it); NaN lanes are rebuilt from the
   bits, because the instruction would quiet a signaling NaN, where the
   scalar keeps its payload as it is. */
TL__SR_INLINE simde__m256 tl__sr8_from_f16(simde__m128i h)
{
    simde__m256i x = simde_mm256_cvtepu16_epi32(h);
    simde__m256i sign = simde_mm256_slli_epi32(simde_mm256_and_si256(x, simde_mm256_set1_epi32(0x8000)), 16);
    simde__m256i em = simde_mm256_and_si256(x, simde_mm256_set1_epi32(0x7fff));
    simde__m256i nan = simde_mm256_cmpgt_epi32(em, simde_mm256_set1_epi32(0x7c00));
    simde__m256i bits = simde_mm256_or_si256(simde_mm256_or_si256(sign, simde_mm256_set1_epi32(0x7f800000)),
                                             simde_mm256_slli_epi32(em, 13));
    return simde_mm256_castsi256_ps(tl__sr8_select(nan, bits, simde_mm256_castps_si256(simde_mm256_cvtph_ps(h))));
}

/* 8 f32 values to f16, as tl_f32_to_f16: F16C rounding to nearest even
   gives the same bits for every input (underflow to subnormals whatever
   FTZ says, NaN quieted with its payload's top bits, as the scalar). */
TL__SR_INLINE simde__m128i tl__sr8_to_f16(simde__m256 v)
{
    return simde_mm256_cvtps_ph(v, SIMDE_MM_FROUND_TO_NEAREST_INT);
}

/* 8 * nv values of type dt at p into nv (1 or 2) vectors of f32, as
   tl__sr_load. */
TL__SR_INLINE void tl__sr8_load(tl_data_type dt, const char *p, simde__m256 *v, int nv)
{
    int i;
    TL__SR_UNROLL
    for (i = 0; i < nv; ++i) {
        simde__m128i x;
        switch (dt) {
        case TL_F32: v[i] = simde_mm256_loadu_ps((const float *)(const void *)(p + 32 * i)); break;
        case TL_S32:
            v[i] = simde_mm256_cvtepi32_ps(
                simde_mm256_loadu_si256((const simde__m256i *)(const void *)(p + 32 * i)));
            break;
        case TL_BF16:
            x = simde_mm_loadu_si128((const simde__m128i *)(const void *)(p + 16 * i));
            v[i] = simde_mm256_castsi256_ps(simde_mm256_slli_epi32(simde_mm256_cvtepu16_epi32(x), 16));
            break;
        case TL_F16:
            x = simde_mm_loadu_si128((const simde__m128i *)(const void *)(p + 16 * i));
            v[i] = tl__sr8_from_f16(x);
            break;
        case TL_S8:
            x = simde_mm_loadl_epi64((const simde__m128i *)(const void *)(p + 8 * i));
            v[i] = simde_mm256_cvtepi32_ps(simde_mm256_cvtepi8_epi32(x));
            break;
        default:    /* TL_U8 */
            x = simde_mm_loadl_epi64((const simde__m128i *)(const void *)(p + 8 * i));
            v[i] = simde_mm256_cvtepi32_ps(simde_mm256_cvtepu8_epi32(x));
            break;
        }
    }
}

/* tl__sr_sat without the lower clamp: below the dst type's range,
   vcvtps2dq (native here) gives an integer below it, or INT32_MIN past
   int32's, which the packs that follow for s8 and u8 saturate and which
   is s32's own lower bound. SSE2's keeps the clamp: SIMDe's portable
   conversion leaves such values to the C cast under
   SIMDE_FAST_CONVERSION_RANGE. */
TL__SR_INLINE simde__m256i tl__sr8_sat(simde__m256 v, float hi)
{
    v = simde_mm256_and_ps(v, simde_mm256_cmp_ps(v, v, SIMDE_CMP_ORD_Q));
    return simde_mm256_cvtps_epi32(simde_mm256_min_ps(v, simde_mm256_set1_ps(hi)));
}

/* The same for values that packus takes to u8, without the mask: a NaN
   passes the min (its second operand) and becomes INT32_MIN, which the
   packs saturate to 0, as the core's NaN -> 0. Two fewer instructions
   a vector of the 5-6 that convert it. */
TL__SR_INLINE simde__m256i tl__sr8_sat_u8(simde__m256 v)
{
    return simde_mm256_cvtps_epi32(simde_mm256_min_ps(simde_mm256_set1_ps(255.f), v));
}

/* tl__sr_bf16 in AVX2, where the code is native (the rounding add may
   wrap in NaN lanes, which the blend then replaces): 8 operations, not
   13 (f32 -> bf16 nChw8c -> nChw16c 8x64x14x14 in cache: 1.26x, Zen 4). */
TL__SR_INLINE simde__m256i tl__sr8_bf16(simde__m256 v)
{
    simde__m256i u = simde_mm256_castps_si256(v);
    simde__m256i odd = simde_mm256_and_si256(simde_mm256_srli_epi32(u, 16), simde_mm256_set1_epi32(1));
    simde__m256i r = simde_mm256_add_epi32(u, simde_mm256_add_epi32(simde_mm256_set1_epi32(0x7fff), odd));
    simde__m256 quiet = simde_mm256_castsi256_ps(simde_mm256_or_si256(u, simde_mm256_set1_epi32(0x400000)));
    r = simde_mm256_castps_si256(simde_mm256_blendv_ps(simde_mm256_castsi256_ps(r), quiet,
                                                       simde_mm256_cmp_ps(v, v, SIMDE_CMP_UNORD_Q)));
    return simde_mm256_srli_epi32(r, 16);
}

/* 32 bytes to p; nt: streamed past the caches (p 16-byte aligned: in
   two halves unless it is 32-byte aligned). */
TL__SR_INLINE void tl__sr8_put(char *p, simde__m256i v, int nt)
{
    if (!nt) {
        simde_mm256_storeu_si256((simde__m256i *)(void *)p, v);
    } else if ((uintptr_t)p % 32 == 0) {
        simde_mm256_stream_si256((simde__m256i *)(void *)p, v);
    } else {
        simde_mm_stream_si128((simde__m128i *)(void *)p, simde_mm256_castsi256_si128(v));
        simde_mm_stream_si128((simde__m128i *)(void *)(p + 16), simde_mm256_extracti128_si256(v, 1));
    }
}

/* The whole 64-byte pieces of tl__simd_stream_bytes's copy (d in 16s)
   in 32-byte streamed stores, two a piece, after one 16-byte one where d
   is off the 32-byte grid; returns the bytes done. Four 16-byte stores
   a line copied 1.12-1.2x slower on Zen 5, in cache or not; the nchw
   shuffles of 32x232x28x28 f32 gained 1.02-1.09x, 128x232x28x28 1.06x
   (one thread, in one process). */
static size_t tl__sr8_stream_lines(char *d, const char *s, size_t n)
{
    size_t i = 0;
    if ((uintptr_t)d % 32 != 0 && n >= 16) {
        tl__sr_put(d, simde_mm_loadu_si128((const simde__m128i *)(const void *)s), 1);
        i = 16;
    }
    for (; i + 64 <= n; i += 64) {
        simde__m256i a = simde_mm256_loadu_si256((const simde__m256i *)(const void *)(s + i));
        simde__m256i b = simde_mm256_loadu_si256((const simde__m256i *)(const void *)(s + i + 32));
        simde_mm256_stream_si256((simde__m256i *)(void *)(d + i), a);
        simde_mm256_stream_si256((simde__m256i *)(void *)(d + i + 32), b);
    }
    return i;
}

/* 8 * nv f32 values v (nv 1 or 2) as type dt at p, as tl__sr_store. The
   packs work within 128-bit lanes, so a permute puts the values back in
   order; their saturation is the lower clamp (tl__sr8_sat); one vector
   packs with itself. nt: streamed (p 16-byte aligned), save 8 values of
   8 bits (one plain 8-byte store). */
TL__SR_INLINE void tl__sr8_store(tl_data_type dt, const simde__m256 *v, char *p, int nv, int nt)
{
    simde__m256i a, b, order = simde_mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    simde__m256 hi = v[nv - 1];
    switch (dt) {
    case TL_F32:
        tl__sr8_put(p, simde_mm256_castps_si256(v[0]), nt);
        if (nv == 2) tl__sr8_put(p + 32, simde_mm256_castps_si256(v[1]), nt);
        return;
    case TL_S32:
        tl__sr8_put(p, tl__sr8_sat(v[0], 2147483520.0f), nt);
        if (nv == 2) tl__sr8_put(p + 32, tl__sr8_sat(v[1], 2147483520.0f), nt);
        return;
    case TL_BF16:
        a = simde_mm256_packus_epi32(tl__sr8_bf16(v[0]), tl__sr8_bf16(hi));
        a = simde_mm256_permute4x64_epi64(a, 0xd8);
        if (nv == 2) tl__sr8_put(p, a, nt);
        else tl__sr_put(p, simde_mm256_castsi256_si128(a), nt);
        return;
    case TL_F16:
        if (nv == 2) tl__sr8_put(p, simde_mm256_set_m128i(tl__sr8_to_f16(v[1]), tl__sr8_to_f16(v[0])), nt);
        else tl__sr_put(p, tl__sr8_to_f16(v[0]), nt);
        return;
    case TL_S8:
        a = simde_mm256_packs_epi32(tl__sr8_sat(v[0], 127.f), tl__sr8_sat(hi, 127.f));
        b = simde_mm256_permutevar8x32_epi32(simde_mm256_packs_epi16(a, a), order);
        break;
    default:        /* TL_U8 */
        a = simde_mm256_packs_epi32(tl__sr8_sat_u8(v[0]), tl__sr8_sat_u8(hi));
        b = simde_mm256_permutevar8x32_epi32(simde_mm256_packus_epi16(a, a), order);
        break;
    }
    if (nv == 2) tl__sr_put(p, simde_mm256_castsi256_si128(b), nt);
    else simde_mm_storel_epi64((simde__m128i *)(void *)p, simde_mm256_castsi256_si128(b));
}

TL__SR_INLINE simde__m256 tl__sr8_scale8(const float *s, tl_dim sidx, tl_dim sstep)
{
    if (sstep == 1) return simde_mm256_loadu_ps(s + sidx);
    return simde_mm256_setr_ps(s[sidx], s[sidx + sstep], s[sidx + 2 * sstep], s[sidx + 3 * sstep],
                               s[sidx + 4 * sstep], s[sidx + 5 * sstep], s[sidx + 6 * sstep],
                               s[sidx + 7 * sstep]);
}

/* tl__sr_quantize on one vector v: scaled by s when scaled, then where
   extra beta times *old (old NULL: paths without beta) and the zero
   points and scale_adjust. */
TL__SR_INLINE simde__m256 tl__sr8_quantize1(const tl__sr_q *q, int extra, simde__m256 v, int scaled,
                                            simde__m256 s, const simde__m256 *old)
{
    if (extra && q->szp != 0) v = simde_mm256_sub_ps(v, simde_mm256_set1_ps(q->szp));
    if (scaled) {
        v = simde_mm256_mul_ps(s, v);
        TL__SR_ROUNDED(v);
    }
    if (extra && old && q->beta != 0) {     /* NaN + NaN keeps the source's payload */
        simde__m256 quiet = simde_mm256_castsi256_ps(simde_mm256_set1_epi32(0x00400000));
        simde__m256 nan = simde_mm256_cmp_ps(v, v, SIMDE_CMP_UNORD_Q);
        simde__m256 prod = simde_mm256_mul_ps(simde_mm256_set1_ps(q->beta), *old), sum;
        TL__SR_ROUNDED(prod);
        sum = simde_mm256_add_ps(v, prod);
        v = simde_mm256_or_ps(simde_mm256_and_ps(nan, simde_mm256_or_ps(v, quiet)),
                              simde_mm256_andnot_ps(nan, sum));
    }
    if (extra && q->dzp != 0) v = simde_mm256_add_ps(v, simde_mm256_set1_ps(q->dzp));
    if (extra && q->adj_on) v = simde_mm256_mul_ps(simde_mm256_set1_ps(q->adj), v);
    return v;
}

/* tl__sr_quantize on 8 * nv values. */
TL__SR_INLINE void tl__sr8_quantize(const tl__sr_q *q, int extra, simde__m256 *v,
                                    const simde__m256 *old, tl__sr_scales sc, int nv)
{
    int i;
    TL__SR_UNROLL
    for (i = 0; i < nv; ++i) {
        simde__m256 s = !sc.sc || sc.sstep == 0 ? simde_mm256_set1_ps(q->s0)
                                                : tl__sr8_scale8(sc.sc, sc.sidx + 8 * i * sc.sstep, sc.sstep);
        v[i] = tl__sr8_quantize1(q, extra, v[i], sc.sc != NULL, s, &old[i]);
    }
}

/* tl__sr_convert_split and tl__sr_convert16 in AVX2. */
TL__SR_INLINE void tl__sr8_convert_split(const tl__sr_q *q, int extra, tl_data_type st,
                                         tl_data_type dt, const char *src, size_t apart,
                                         char *dst, tl__sr_scales sc, int w)
{
    simde__m256 v[2], old[2];
    tl__sr8_load(st, src, v, 1);
    if (w == 16) tl__sr8_load(st, src + apart, v + 1, 1);
    if (extra && q->beta != 0) tl__sr8_load(dt, dst, old, w / 8);
    else old[0] = old[1] = simde_mm256_setzero_ps();
    tl__sr8_quantize(q, extra, v, old, sc, w / 8);
    tl__sr8_store(dt, v, dst, w / 8, q->nt);
}

TL__SR_INLINE void tl__sr8_convert16(const tl__sr_q *q, int extra, tl_data_type st,
                                     tl_data_type dt, int ssz, int dsz, const char *src,
                                     char *dst, tl__sr_scales sc, tl_dim k, int w)
{
    sc.sidx += k * sc.sstep;
    tl__sr8_convert_split(q, extra, st, dt, src + (size_t)k * (size_t)ssz, (size_t)(8 * ssz),
                          dst + (size_t)k * (size_t)dsz, sc, w);
}

TL__SR_STEP_LOOP(tl__sr8_convert_loop, tl__sr8_convert16)
TL__SR_CONVERT_BODY(tl__sr8_convert_body, tl__sr8_convert_loop, 1, tl__sr8_convert_split, 0)
TL__SR_CONVERT_BODY(tl__sr8_plain_body, tl__sr8_convert_loop, 1, tl__sr8_convert_split, 1)

/* AVX2's fast pairs: the common ones and f16's. */
#define TL__SR8_FAST_PAIRS(X, BODY) \
    TL__SR_FAST_PAIRS(X, BODY) X(BODY, TL_F32, TL_F16, 4, 2) X(BODY, TL_F16, TL_F32, 2, 4)

TL__SR_PAIR_SWITCH(tl__sr8_convert_full, TL__SR8_FAST_PAIRS, tl__sr8_convert_body)
TL__SR_PAIR_SWITCH(tl__sr8_convert_plain, TL__SR8_FAST_PAIRS, tl__sr8_plain_body)

TL__SR_INLINE simde__m256 tl__sr8_lanes_below(tl_dim m)
{
    return simde_mm256_castsi256_ps(simde_mm256_cmpgt_epi32(simde_mm256_set1_epi32((int32_t)m),
                                                            simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
}

TL__SR_PADDED_LOOP(tl__sr8_convert_padded, TL__SR8_FAST_PAIRS, simde__m256, 8, 8, tl__sr8_load, tl__sr8_quantize,
                   tl__sr8_store, simde_mm256_and_ps, tl__sr8_lanes_below)

/* The first two rounds of a 32-bit transpose of n rows r (t: n temps),
   in every 128-bit lane at once, for the vector width whose intrinsics
   start with PS (simde_mm256_, simde_mm512_): lane k of r[4g + c] then
   holds column 4k + c of rows 4g..4g+3. */
#define TL__SR_LANES_T4X4(PS, r, t, n) \
    do { \
        int i_; \
        TL__SR_UNROLL \
        for (i_ = 0; i_ < (n); i_ += 2) { \
            t[i_] = PS##unpacklo_ps(r[i_], r[i_ + 1]); \
            t[i_ + 1] = PS##unpackhi_ps(r[i_], r[i_ + 1]); \
        } \
        TL__SR_UNROLL \
        for (i_ = 0; i_ < (n); i_ += 4) { \
            r[i_] = PS##shuffle_ps(t[i_], t[i_ + 2], 0x44); \
            r[i_ + 1] = PS##shuffle_ps(t[i_], t[i_ + 2], 0xee); \
            r[i_ + 2] = PS##shuffle_ps(t[i_ + 1], t[i_ + 3], 0x44); \
            r[i_ + 3] = PS##shuffle_ps(t[i_ + 1], t[i_ + 3], 0xee); \
        } \
    } while (0)

/* The 8 x 8 block of 4-byte elements in r (row i in r[i]) transposed in
   place: pairs of rows interleaved, then pairs of pairs, then the 128-bit
   halves swapped across. Only bits move (float shuffles on any data). */
TL__SR_INLINE void tl__sr8_t8x8(simde__m256 *r)
{
    simde__m256 t[8];
    int i;
    TL__SR_LANES_T4X4(simde_mm256_, r, t, 8);
    TL__SR_UNROLL
    for (i = 0; i < 4; ++i) {
        t[i] = simde_mm256_permute2f128_ps(r[i], r[i + 4], 0x20);
        t[i + 4] = simde_mm256_permute2f128_ps(r[i], r[i + 4], 0x31);
    }
    TL__SR_UNROLL
    for (i = 0; i < 8; ++i) r[i] = t[i];
}

TL__SR_INLINE void tl__sr8_load8(const char *s, size_t ss, simde__m256 *r)
{
    int i;
    TL__SR_UNROLL
    for (i = 0; i < 8; ++i) r[i] = simde_mm256_loadu_ps((const float *)(const void *)(s + (size_t)i * ss));
}

/* tl__sr_transpose_block for 4-byte elements, 8 x 8, plain stores;
   scale: NULL, or the block's column scales (f32 values only). */
TL__SR_INLINE void tl__sr8_transpose_block4(const char *s, size_t ss, char *d, size_t ds,
                                            const simde__m256 *scale)
{
    simde__m256 r[8];
    int i;
    tl__sr8_load8(s, ss, r);
    tl__sr8_t8x8(r);
    TL__SR_UNROLL
    for (i = 0; i < 8; ++i)
        simde_mm256_storeu_ps((float *)(void *)(d + (size_t)i * ds), scale ? simde_mm256_mul_ps(scale[0], r[i]) : r[i]);
}

TL__SR_ZIP_DEF(tl__sr8_zip, simde__m256i, simde_mm256_)

/* Two of tl__sr_transpose_block's B x B blocks (es 1 or 2) side by side
   along M, one per lane: the 32 bytes at s + j*ss are row j of both, and
   the second block's dst rows follow the first's (d + (B + i)*ds). Half
   the instructions of two SSE2 blocks, and three-operand forms. */
TL__SR_INLINE void tl__sr8_transpose_pair(int es, const char *s, size_t ss, char *d, size_t ds)
{
    simde__m256i r[16], t[16];
    int B = 16 / es, i;
    TL__SR_UNROLL
    for (i = 0; i < B; ++i) r[i] = simde_mm256_loadu_si256((const void *)(s + (size_t)i * ss));
    TL__SR_ZIP_ROUNDS(tl__sr8_zip, r, t, es, B);
    TL__SR_UNROLL
    for (i = 0; i < B; ++i) {
        simde__m256i v = r[tl__sr_bitrev(i, B)];
        simde_mm_storeu_si128((simde__m128i *)(void *)(d + (size_t)i * ds), simde_mm256_castsi256_si128(v));
        simde_mm_storeu_si128((simde__m128i *)(void *)(d + (size_t)(B + i) * ds),
                              simde_mm256_extracti128_si256(v, 1));
    }
}

TL__SR_INLINE tl_dim tl__sr8_strip_pairs_es(int es, const char *s, size_t sb, char *d, size_t db,
                                            tl_dim mb, tl_dim lb)
{
    tl_dim B = 16 / es, m, l;
    for (m = 0; m + 2 * B <= mb; m += 2 * B)
        for (l = 0; l < lb; l += B) {
            size_t ss = sb, ds = db;    /* hidden each block, as in tl__sr8_strip4_sc */
            TL__SR_OPAQUE(ss);
            TL__SR_OPAQUE(ds);
            tl__sr8_transpose_pair(es, s + (size_t)m * (size_t)es + (size_t)l * sb, ss,
                                   d + (size_t)m * db + (size_t)l * (size_t)es, ds);
        }
    return m;
}

/* The same two blocks side by side along L where M has one block left
   (the 16 channels of s8 nChw16c -> nchw, whose planes are the rows):
   rows j and B + j of the strip in the two lanes, so that each dst row
   gets its 2B values in one store. Returns the columns done (pairs of
   blocks; the rest is the caller's). */
TL__SR_INLINE tl_dim tl__sr8_strip_lpairs_es(int es, const char *s, size_t sb, char *d, size_t db, tl_dim lb)
{
    tl_dim B = 16 / es, l;
    int i;
    for (l = 0; l + 2 * B <= lb; l += 2 * B) {
        simde__m256i r[16], t[16];
        const char *p = s + (size_t)l * sb;
        size_t ss = sb, ds = db;
        TL__SR_OPAQUE(ss);
        TL__SR_OPAQUE(ds);
        TL__SR_UNROLL
        for (i = 0; i < (int)B; ++i)
            r[i] = simde_mm256_loadu2_m128i((const simde__m128i *)(const void *)(p + (size_t)(B + i) * ss),
                                            (const simde__m128i *)(const void *)(p + (size_t)i * ss));
        TL__SR_ZIP_ROUNDS(tl__sr8_zip, r, t, es, B);
        TL__SR_UNROLL
        for (i = 0; i < (int)B; ++i)
            simde_mm256_storeu_si256((simde__m256i *)(void *)(d + (size_t)i * ds + (size_t)l * (size_t)es),
                                     r[tl__sr_bitrev(i, (int)B)]);
    }
    return l;
}

/* Streamed dst rows of 16 2-byte values that follow one another (bf16
   nchw -> nChw16c): the pairs of blocks of channels 0-7 and 8-15 of 16
   pixels make 16 whole rows, 512 bytes of dst, which leave in order, 32
   bytes a store. SSE2's blocks streamed each row's two halves from two
   blocks, four partial lines at a time. Returns the rows of M done. */
static tl_dim tl__sr8_strip_rows32(const char *s, size_t sb, char *d, tl_dim mb)
{
    tl_dim m;
    int i;
    for (m = 0; m + 16 <= mb; m += 16) {
        simde__m256i a[8], b[8], t[8];
        size_t ss = sb;
        TL__SR_OPAQUE(ss);
        TL__SR_UNROLL
        for (i = 0; i < 8; ++i) {
            a[i] = simde_mm256_loadu_si256((const void *)(s + (size_t)m * 2 + (size_t)i * ss));
            b[i] = simde_mm256_loadu_si256((const void *)(s + (size_t)m * 2 + (size_t)(8 + i) * ss));
        }
        TL__SR_ZIP_ROUNDS(tl__sr8_zip, a, t, 2, 8);
        TL__SR_ZIP_ROUNDS(tl__sr8_zip, b, t, 2, 8);
        TL__SR_UNROLL
        for (i = 0; i < 16; ++i) {      /* pixels m + 0..7 from the low lanes, m + 8..15 the high */
            int k = tl__sr_bitrev(i % 8, 8);
            simde__m256i row = i < 8 ? simde_mm256_permute2x128_si256(a[k], b[k], 0x20)
                                     : simde_mm256_permute2x128_si256(a[k], b[k], 0x31);
            tl__sr8_put(d + (size_t)(m + i) * 32, row, 1);
        }
    }
    return m;
}

/* The pairs of blocks of one strip of tl__sr_strip for 1- and 2-byte
   elements, plain stores; returns the rows of M done (an odd last block
   is the caller's). A call of its own: GCC inlined it into
   tl__sr_strip_call once that grew, and bf16 -> f32 nchw -> nhwc
   8x64x14x14 (its staged 16-bit tiles) ran 1.1x slower (Zen 4). */
TL__SR_NOINLINE tl_dim tl__sr8_strip_pairs(int es, const char *s, size_t sb, char *d, size_t db, tl_dim mb,
                                           tl_dim lb)
{
    if (es == 1) return tl__sr8_strip_pairs_es(1, s, sb, d, db, mb, lb);
    return tl__sr8_strip_pairs_es(2, s, sb, d, db, mb, lb);
}

/* tl__sr8_strip_lpairs_es with es constant. */
static tl_dim tl__sr8_strip_lpairs(int es, const char *s, size_t sb, char *d, size_t db, tl_dim lb)
{
    if (es == 1) return tl__sr8_strip_lpairs_es(1, s, sb, d, db, lb);
    return tl__sr8_strip_lpairs_es(2, s, sb, d, db, lb);
}

/* The scales of the 8 columns from l (sc.sstep: 0, one scale; 1, one
   per column); sc.sc not NULL. */
TL__SR_INLINE simde__m256 tl__sr8_scales8(tl__sr_scales sc, tl_dim l)
{
    return sc.sstep ? simde_mm256_loadu_ps(sc.sc + sc.sidx + l) : simde_mm256_set1_ps(sc.sc[sc.sidx]);
}

/* A tile of 4-byte elements whose dst rows are not evenly spaced: row m
   at d + rows[m] (bytes), element l of it from s + m*4 + l*sb; in strips
   of 16 columns, as tl__sr_transpose_es walks them. The elements
   outside whole blocks go by tl__sr_rows_border4. No streaming stores: each block
   writes half a cache line per row, which streaming stores turn into
   partial writes to memory (3x slower than plain stores). With sc, f32
   values are multiplied by the scale of their l on the way; only tiles
   of whole blocks (nm and nl multiples of 8) come with scales. */
static void tl__sr8_tile_rows4(const char *s, size_t sb, char *d, const size_t *rows, tl_dim nm,
                               tl_dim nl, tl__sr_scales sc)
{
    tl_dim mb = nm / 8 * 8, l0, m, l;
    int i;
    TL_ASSERT(!sc.sc || (nm % 8 == 0 && nl % 8 == 0));
    for (l0 = 0; l0 < nl; l0 += 16) {
        tl_dim lt = nl - l0 < 16 ? nl - l0 : 16, lb = lt / 8 * 8;
        for (m = 0; m < mb; m += 8)
            for (l = l0; l < l0 + lb; l += 8) {
                simde__m256 r[8], v = sc.sc ? tl__sr8_scales8(sc, l) : simde_mm256_setzero_ps();
                tl__sr8_load8(s + (size_t)m * 4 + (size_t)l * sb, sb, r);
                tl__sr8_t8x8(r);
                TL__SR_UNROLL
                for (i = 0; i < 8; ++i)
                    simde_mm256_storeu_ps((float *)(void *)(d + rows[m + i] + (size_t)l * 4),
                                          sc.sc ? simde_mm256_mul_ps(v, r[i]) : r[i]);
            }
        tl__sr_rows_border4(s, sb, d, rows, nm, mb, l0, l0 + lb, l0 + lt);
    }
}

/* The rows [m0, mt) of a strip that a block row cannot fill (fewer than
   8): each 8 columns of one row are one gather of elements ss apart
   (7 * ss fits an int32: the caller checks). */
static void tl__sr8_rows4(const char *s, tl_dim ss, char *d, size_t db, tl_dim m0, tl_dim mt,
                          tl_dim lb)
{
    simde__m256i idx = simde_mm256_mullo_epi32(simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                               simde_mm256_set1_epi32((int32_t)ss));
    tl_dim m, l;
    for (m = m0; m < mt; ++m)
        for (l = 0; l < lb; l += 8)
            simde_mm256_storeu_ps((float *)(void *)(d + (size_t)m * db + (size_t)l * 4),
                                  simde_mm256_i32gather_ps((const float *)(const void *)(s + (size_t)m * 4) + l * ss,
                                                           idx, 4));
}

/* Planes <-> dense pixels of nm (2 to 4) channels of es bytes (1, 2 or
   4; pixel p's channel m at (p * nm + m) * es), 32 bytes of each plane
   at a time: each 128-bit lane holds 16 bytes of every plane, as nm
   vectors of dense bytes or one vector a plane, and every output vector
   m is the or of nm byte shuffles, one of each input vector j, pick[m][j]
   choosing its bytes (the rest zeroed). nm^2 shuffles for 16 bytes a
   plane and lane, where a transpose of 16-byte rows took four times the
   work for bytes (RGB camera frames: 16 loads a block) and, for f32,
   loads that straddle pixels (nhwc shuffled in 3 groups: 80 x 3
   transposes). split: the dense bytes to planes, else back. */
TL__SR_INLINE void tl__sr8_byte_picks(int es, int nm, int split, simde__m256i pick[4][4])
{
    uint8_t idx[32];
    int m, j, b;
    for (m = 0; m < nm; ++m)
        for (j = 0; j < nm; ++j) {
            for (b = 0; b < 32; ++b) {
                int k = b % 16, px = split ? k / es : k / (nm * es);
                int at = split ? (px * nm + m) * es + k % es : 16 * m + k;  /* in dense order */
                int from = split ? at / 16 : at / es % nm;
                int byte = split ? at % 16 : at / (nm * es) * es + at % es;
                idx[b] = (uint8_t)(from == j ? byte : 0x80);
            }
            pick[m][j] = simde_mm256_loadu_si256((const simde__m256i *)(const void *)idx);
        }
}

TL__SR_INLINE simde__m256i tl__sr8_pick_bytes(int nm, const simde__m256i *v,
                                              const simde__m256i *pick)
{
    simde__m256i r = simde_mm256_shuffle_epi8(v[0], pick[0]);
    int j;
    TL__SR_UNROLL
    for (j = 1; j < nm; ++j) r = simde_mm256_or_si256(r, simde_mm256_shuffle_epi8(v[j], pick[j]));
    return r;
}

/* 32 bytes of each of the nm planes from the dense pixels at q, into r. */
TL__SR_INLINE void tl__sr8_split32(int nm, const char *q, simde__m256i pick[4][4], simde__m256i *r)
{
    simde__m256i v[4];
    int m, j;
    TL__SR_UNROLL
    for (j = 0; j < nm; ++j)
        v[j] = simde_mm256_inserti128_si256(
            simde_mm256_castsi128_si256(simde_mm_loadu_si128((const simde__m128i *)(const void *)(q + 16 * j))),
            simde_mm_loadu_si128((const simde__m128i *)(const void *)(q + 16 * (nm + j))), 1);
    TL__SR_UNROLL
    for (m = 0; m < nm; ++m) r[m] = tl__sr8_pick_bytes(nm, v, pick[m]);
}

/* Dense pixels at s to nm planes db bytes apart from d, n bytes of each
   plane. Returns the bytes done (a multiple of 32); nt: streamed, a
   whole line of each plane at a time (d and db on lines; returns a
   multiple of 64): a half line a store left the plane's lines open in
   turn, 1.7x slower than plain stores (Zen 4). nm constant. */
TL__SR_INLINE size_t tl__sr8_split_bytes(int es, int nm, const char *s, char *d, size_t db, size_t n, int nt)
{
    simde__m256i pick[4][4], r[4], r2[4];
    size_t p, step = nt ? 64 : 32;
    int m;
    tl__sr8_byte_picks(es, nm, 1, pick);
    for (p = 0; p + step <= n; p += step) {
        tl__sr8_split32(nm, s + p * (size_t)nm, pick, r);
        if (nt) tl__sr8_split32(nm, s + (p + 32) * (size_t)nm, pick, r2);
        TL__SR_UNROLL
        for (m = 0; m < nm; ++m) {
            char *to = d + (size_t)m * db + p;
            if (!nt) {
                simde_mm256_storeu_si256((simde__m256i *)(void *)to, r[m]);
                continue;
            }
            simde_mm256_stream_si256((simde__m256i *)(void *)to, r[m]);
            simde_mm256_stream_si256((simde__m256i *)(void *)(to + 32), r2[m]);
        }
    }
    return p;
}

/* nm planes sb bytes apart from s, n bytes of each, to dense pixels at
   d. Returns the bytes done (a multiple of 32); nm constant. */
TL__SR_INLINE size_t tl__sr8_merge_bytes(int es, int nm, const char *s, size_t sb, char *d, size_t n)
{
    simde__m256i pick[4][4], v[4];
    size_t p;
    int m, j;
    tl__sr8_byte_picks(es, nm, 0, pick);
    for (p = 0; p + 32 <= n; p += 32) {
        char *q = d + p * (size_t)nm;
        TL__SR_UNROLL
        for (j = 0; j < nm; ++j)
            v[j] = simde_mm256_loadu_si256((const simde__m256i *)(const void *)(s + (size_t)j * sb + p));
        TL__SR_UNROLL
        for (m = 0; m < nm; ++m) {
            simde__m256i r = tl__sr8_pick_bytes(nm, v, pick[m]);
            simde_mm_storeu_si128((simde__m128i *)(void *)(q + 16 * m), simde_mm256_castsi256_si128(r));
            simde_mm_storeu_si128((simde__m128i *)(void *)(q + 16 * (nm + m)),
                                  simde_mm256_extracti128_si256(r, 1));
        }
    }
    return p;
}

/* Whether tl__sr8_planes takes pixels of nm values of es bytes: 2 to 4
   values under 16 bytes (4 f32 are one 4 x 4 transpose, with no loads
   and zips wasted). */
static int tl__sr8_planes_fit(int es, tl_dim nm)
{
    return nm >= 2 && nm <= 4 && es * nm < 16;
}

/* Either of the two for nm channels of es bytes (tl__sr8_planes_fit),
   n pixels (split: sb unused; else db and nt). Returns the pixels
   done. */
static tl_dim tl__sr8_planes(int es, int nm, int split, const char *s, size_t sb, char *d,
                             size_t db, tl_dim n, int nt)
{
    size_t b = (size_t)n * (size_t)es;
#define TL__SR8_PLANES_CASE(ES, NM) \
    case ES * 16 + NM * 2 + 1: return (tl_dim)(tl__sr8_split_bytes(ES, NM, s, d, db, b, nt) / ES); \
    case ES * 16 + NM * 2: return (tl_dim)(tl__sr8_merge_bytes(ES, NM, s, sb, d, b) / ES);
    switch (es * 16 + nm * 2 + split) {
    TL__SR8_PLANES_CASE(1, 2) TL__SR8_PLANES_CASE(1, 3) TL__SR8_PLANES_CASE(1, 4)
    TL__SR8_PLANES_CASE(2, 2) TL__SR8_PLANES_CASE(2, 3) TL__SR8_PLANES_CASE(2, 4)
    TL__SR8_PLANES_CASE(4, 2) TL__SR8_PLANES_CASE(4, 3)
    default: return 0;
    }
#undef TL__SR8_PLANES_CASE
}

/* Two 8 x 8 blocks side by side along L: dst row i gets column i of
   both, 16 values, times scale (NULL: none; else the blocks' column
   scales) as the converter multiplies them (tl__sr8_quantize), stored
   as dt by tl__sr8_store (f32, or converted as they leave); nt:
   streamed. For f32 that is a whole 64-byte line per row, written by two
   back-to-back stores, which is how AVX2 streams: a lone block would
   stream half lines, which memory takes as partial writes (3x slower
   than plain stores), and storing one block's 8 rows before the other's
   left 8 lines open at a time (nchw -> nhwc 32x256x128x128: 9.3 GB/s
   back to back, 7.2 apart). pairs: one block whose dst rows of 8 follow
   one another (nChw8c's pixels), rows 2j and 2j + 1 stored as one run of
   16 (scale[1] must be scale[0]). */
TL__SR_INLINE void tl__sr8_transpose_conv(tl_data_type dt, const char *s, size_t ss, char *d,
                                          size_t ds, const simde__m256 *scale, int nt, int pairs)
{
    simde__m256 a[8], b[8];
    int i;
    tl__sr8_load8(s, ss, a);
    tl__sr8_t8x8(a);
    if (!pairs) {
        tl__sr8_load8(s + 8 * ss, ss, b);
        tl__sr8_t8x8(b);
    }
    TL__SR_UNROLL
    for (i = 0; i < 8; i += 1 + pairs) {
        simde__m256 v[2];
        v[0] = a[i];
        v[1] = pairs ? a[i + 1] : b[i];
        if (scale) {
            v[0] = simde_mm256_mul_ps(scale[0], v[0]);
            v[1] = simde_mm256_mul_ps(scale[1], v[1]);
            TL__SR_ROUNDED(v[0]);
            TL__SR_ROUNDED(v[1]);
        }
        tl__sr8_store(dt, v, d + (size_t)i * ds, 2, nt);
    }
}

/* tl__sr8_strip4 with scale constant: NULL, or sc's scales (sc.sc set). */
TL__SR_INLINE void tl__sr8_strip4_sc(const char *s, size_t sb, char *d, size_t db, tl_dim mb,
                                     tl_dim lb, int nt, const tl__sr_scales *scale)
{
    tl_dim m, l;
    simde__m256 v[2];
    int pairs = nt && db == 32;     /* streamed rows of 8 that follow one another */
    for (m = 0; m < mb; m += 8)     /* m outside: a wide strip's rows get their lines together */
        for (l = 0; l < lb; l += nt && !pairs ? 16 : 8) {
            const char *sp = s + (size_t)m * 4 + (size_t)l * sb;
            char *dp = d + (size_t)m * db + (size_t)l * 4;
            size_t ss = sb, ds = db;    /* hidden each block (TL__SR_OPAQUE): GCC
                                           kept 8 row pointers in stack slots */
            if (scale) {
                v[0] = tl__sr8_scales8(*scale, l);
                v[1] = nt && !pairs ? tl__sr8_scales8(*scale, l + 8) : v[0];
            }
            TL__SR_OPAQUE(ss);
            TL__SR_OPAQUE(ds);
            if (nt) tl__sr8_transpose_conv(TL_F32, sp, ss, dp, ds, scale ? v : NULL, 1, pairs);
            else tl__sr8_transpose_block4(sp, ss, dp, ds, scale ? v : NULL);
        }
}

/* tl__sr_strip for 4-byte elements in blocks of 8; nt: in pairs of
   blocks along L (lb a multiple of 16, d and db on cache lines), or,
   where dst rows of 8 follow one another (db 32, d on a line: nChw8c's
   pixels), each block's rows in pairs (tl__sr_pairs8). sc: f32
   values multiplied by the scales of their columns on the way (NULL:
   none; by pointer, as in tl__sr8_strip_conv). */
static void tl__sr8_strip4(const char *s, size_t sb, char *d, size_t db, tl_dim mb, tl_dim lb,
                           int nt, const tl__sr_scales *sc)
{
    if (sc) tl__sr8_strip4_sc(s, sb, d, db, mb, lb, nt, sc);
    else tl__sr8_strip4_sc(s, sb, d, db, mb, lb, nt, NULL);
}

TL__SR_INLINE void tl__sr8_strip_conv_dt(tl_data_type dt, const char *s, size_t sb, char *d, size_t db,
                                         tl_dim mb, const tl__sr_scales *sc, int nt, int pairs)
{
    simde__m256 v[2];
    tl_dim m;
    if (sc) {
        v[0] = tl__sr8_scales8(*sc, 0);
        v[1] = pairs ? v[0] : tl__sr8_scales8(*sc, 8);
    }
    for (m = 0; m < mb; m += 8) {
        size_t ss = sb, ds = db;    /* hidden each block, as in tl__sr8_strip4_sc */
        TL__SR_OPAQUE(ss);
        TL__SR_OPAQUE(ds);
        tl__sr8_transpose_conv(dt, s + (size_t)m * 4, ss, d + (size_t)m * db, ds, sc ? v : NULL, nt, pairs);
    }
}

/* 16 columns of an f32 tile (8 where pairs: dst rows of 8 values back to
   back), rows [0, mb) of M (mb in 8s), transposed into dst of type dt
   (S8, U8, S32, BF16 or F16), times sc's column scales (NULL: none); nt:
   streamed. The scales by pointer: a copy of the struct by value, just
   after its sidx was moved on, read back what an 8-byte store had not
   yet written and waited for it (goihw -> Goihw8g's 9 x 8 tiles: a third
   of their time). */
static void tl__sr8_strip_conv(tl_data_type dt, const char *s, size_t sb, char *d, size_t db,
                               tl_dim mb, const tl__sr_scales *at, int nt, int pairs)
{
    switch (dt) {
    case TL_S8: tl__sr8_strip_conv_dt(TL_S8, s, sb, d, db, mb, at, nt, pairs); break;
    case TL_U8: tl__sr8_strip_conv_dt(TL_U8, s, sb, d, db, mb, at, nt, pairs); break;
    case TL_S32: tl__sr8_strip_conv_dt(TL_S32, s, sb, d, db, mb, at, nt, pairs); break;
    case TL_BF16: tl__sr8_strip_conv_dt(TL_BF16, s, sb, d, db, mb, at, nt, pairs); break;
    default: tl__sr8_strip_conv_dt(TL_F16, s, sb, d, db, mb, at, nt, pairs); break;
    }
}

/* R rows of 32 bytes (R 4 or 8; pixels 0-15 in the low 128-bit lane,
   16-31 in the high one) transposed by unpacks of bytes, words and, for
   8 rows, dwords: lane h of x[k] (k < R) then holds the R rows' bytes
   of pixels 16h + (16 / R)k onwards, pixel by pixel. */
TL__SR_INLINE void tl__sr8_transpose_bytes(simde__m256i *x, int R)
{
    simde__m256i t[8], u[8];
    int k;
    TL__SR_UNROLL
    for (k = 0; k < R; k += 2) {        /* rows k, k + 1: pixels 0-7, then 8-15 */
        t[k] = simde_mm256_unpacklo_epi8(x[k], x[k + 1]);
        t[k + 1] = simde_mm256_unpackhi_epi8(x[k], x[k + 1]);
    }
    TL__SR_UNROLL
    for (k = 0; k < R; k += 4) {        /* rows k..k + 3: pixels 0-3, 4-7, 8-11, 12-15 */
        u[k] = simde_mm256_unpacklo_epi16(t[k], t[k + 2]);
        u[k + 1] = simde_mm256_unpackhi_epi16(t[k], t[k + 2]);
        u[k + 2] = simde_mm256_unpacklo_epi16(t[k + 1], t[k + 3]);
        u[k + 3] = simde_mm256_unpackhi_epi16(t[k + 1], t[k + 3]);
    }
    TL__SR_UNROLL
    for (k = 0; k < R / 2; ++k) {       /* all 8 rows: pixels 4k, 4k + 1, then 4k + 2, 4k + 3 */
        x[2 * k] = R == 4 ? u[2 * k] : simde_mm256_unpacklo_epi32(u[k], u[k + 4]);
        x[2 * k + 1] = R == 4 ? u[2 * k + 1] : simde_mm256_unpackhi_epi32(u[k], u[k + 4]);
    }
}

/* The 8 bytes at the bottom of b, s8 or u8, as f32 times scale, as the
   converter scales them (tl__sr8_quantize1; times 1 where there is no
   scale: exact, the values are integers). */
TL__SR_INLINE simde__m256 tl__sr8_bytes_f32(simde__m128i b, int u8, simde__m256 scale)
{
    simde__m256 v = simde_mm256_cvtepi32_ps(u8 ? simde_mm256_cvtepu8_epi32(b) : simde_mm256_cvtepi8_epi32(b));
    v = simde_mm256_mul_ps(scale, v);
    TL__SR_ROUNDED(v);
    return v;
}

/* A step of tl__sr8_bytes_tile: R rows (4 or 8, ss bytes apart) of 16
   pixels in each 128-bit lane, lane h's from s + h hs, transposed; pixel
   p of lane h to d + h hd + p db as f32 times scale[h], each 8 bytes
   widened at once (2 pixels of 4 rows: db is their 16 bytes). wide (8
   rows): the lanes are two bands of 8 rows at the same pixels (nChw16c:
   hs 8 rows, hd 32 bytes); else pixels 0-15 and 16-31 of the rows. */
TL__SR_INLINE void tl__sr8_bytes_step(const char *s, size_t ss, size_t hs, char *d, size_t db, size_t hd,
                                      int R, int wide, int u8, const simde__m256 *scale, int nt)
{
    simde__m256i x[8];
    int k, j;
    TL__SR_UNROLL
    for (k = 0; k < R; ++k) {
        const char *r = s + (size_t)k * ss;
        x[k] = wide ? simde_mm256_loadu2_m128i((const simde__m128i *)(const void *)(r + hs),
                                               (const simde__m128i *)(const void *)r)
                    : simde_mm256_loadu_si256((const simde__m256i *)(const void *)r);
    }
    tl__sr8_transpose_bytes(x, R);
    TL__SR_UNROLL
    for (k = 0; k < R; ++k) {
        simde__m128i b[2];
        b[0] = simde_mm256_castsi256_si128(x[k]);
        b[1] = simde_mm256_extracti128_si256(x[k], 1);
        /* stores in dst order: whole lines one after another (for nt) */
        TL__SR_UNROLL
        for (j = 0; j < 4; ++j) {
            int h = wide ? j % 2 : j / 2, e = wide ? j / 2 : j % 2;
            simde__m256 v = tl__sr8_bytes_f32(e ? simde_mm_srli_si128(b[h], 8) : b[h], u8, scale[h]);
            tl__sr8_put(d + (size_t)h * hd + (size_t)((2 * k + e) * (8 / R)) * db, simde_mm256_castps_si256(v),
                        nt);
        }
    }
}

/* tl__sr8_bytes_tile for one source type and nl: steps of 32 pixels (16
   where wide), the last pixels through stack copies of their source and
   dst, so that nothing is read past the rows or written past the tile. */
TL__SR_INLINE void tl__sr8_bytes_tile_of(const char *s, size_t ss, char *d, size_t db, tl_dim nm, int nl,
                                         int u8, const simde__m256 *scale, int nt)
{
    simde__m256i last_v[8], out_v[32];
    char *last = (char *)(void *)last_v, *out = (char *)(void *)out_v;
    int R = nl == 4 ? 4 : 8, wide = nl == 16;
    tl_dim step = wide ? 16 : 32, m;            /* pixels a step */
    size_t row = (size_t)nl * 4;                /* a pixel's bytes in out */
    for (m = 0; m + step <= nm; m += step)
        tl__sr8_bytes_step(s + m, ss, wide ? 8 * ss : 16, d + (size_t)m * db, db, wide ? 32 : 16 * db, R, wide,
                           u8, scale, nt);
    if (m == nm) return;
    tl__sr_stage_last(last, (size_t)step, s + m, ss, nl, (size_t)(nm - m));
    tl__sr8_bytes_step(last, (size_t)step, wide ? 8 * (size_t)step : 16, out, row, wide ? 32 : 16 * row, R, wide,
                       u8, scale, 0);
    tl__sr_unstage_rows(d + (size_t)m * db, db, out, row, row, nm - m);
}

/* The tile of tl__sr_tile_bytes: nl rows (4, 8 or 16, ss bytes apart) of
   nm pixels of s8 (u8: u8), each pixel's nl values to d + p db as f32
   (for 4 rows, db 16: pixels back to back), times sc's column scales
   (sc.sc NULL: none). nt: streamed. */
static void tl__sr8_bytes_tile(const char *s, size_t ss, char *d, size_t db, tl_dim nm, tl_dim nl, int u8,
                               tl__sr_scales sc, int nt)
{
    simde__m256 scale[2];
    scale[0] = scale[1] = simde_mm256_set1_ps(1.f);
    if (sc.sc && nl == 4) {     /* 2 pixels' 4 columns a vector */
        simde__m128 four = sc.sstep ? simde_mm_loadu_ps(sc.sc + sc.sidx) : simde_mm_set1_ps(sc.sc[sc.sidx]);
        scale[0] = scale[1] = simde_mm256_set_m128(four, four);
    } else if (sc.sc) {
        scale[0] = tl__sr8_scales8(sc, 0);
        scale[1] = tl__sr8_scales8(sc, nl == 16 ? 8 : 0);
    }
    if (nl == 16 && u8) tl__sr8_bytes_tile_of(s, ss, d, db, nm, 16, 1, scale, nt);
    else if (nl == 16) tl__sr8_bytes_tile_of(s, ss, d, db, nm, 16, 0, scale, nt);
    else if (nl == 8 && u8) tl__sr8_bytes_tile_of(s, ss, d, db, nm, 8, 1, scale, nt);
    else if (nl == 8) tl__sr8_bytes_tile_of(s, ss, d, db, nm, 8, 0, scale, nt);
    else if (u8) tl__sr8_bytes_tile_of(s, ss, d, db, nm, 4, 1, scale, nt);
    else tl__sr8_bytes_tile_of(s, ss, d, db, nm, 4, 0, scale, nt);
}

/* Value k of 8 pixels, s8 or u8, from the 64-bit lane k of v (below). */
TL__SR_INLINE simde__m128i tl__sr8_lane64(simde__m256i v, int k)
{
    simde__m128i h = k < 2 ? simde_mm256_castsi256_si128(v) : simde_mm256_extracti128_si256(v, 1);
    return k % 2 ? simde_mm_srli_si128(h, 8) : h;
}

/* The way back from blocks to rows: 8 pixels of M (4, 8 or 16) bytes
   each, back to back at s, as M / 4 vectors q whose 64-bit lane k holds
   value 4g + k of the 8 pixels in q[g]. A byte shuffle sorts each
   128-bit lane by value (its 4 pixels of 4, or 2 of 8, loaded so that
   the low lanes hold pixels 0-3 and the high ones 4-7), 16-bit unpacks
   join 2 + 2 pixels of 8, and a dword permute puts the two halves of
   each value's 8 pixels side by side. */
TL__SR_INLINE void tl__sr8_unblock8(const char *s, int M, simde__m256i *q)
{
    const simde__m256i order = simde_mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const simde__m256i by4 = simde_mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                                   0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    const simde__m256i by8 = simde_mm256_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15,
                                                   0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
    simde__m256i x[4], p[4];
    int g, j;
    if (M == 4) {
        x[0] = simde_mm256_loadu_si256((const simde__m256i *)(const void *)s);
        q[0] = simde_mm256_permutevar8x32_epi32(simde_mm256_shuffle_epi8(x[0], by4), order);
        return;
    }
    /* x[2g], x[2g + 1]: pixels 0-1 | 4-5 and 2-3 | 6-7 of values 8g-8g+7 */
    if (M == 8) {
        x[0] = simde_mm256_loadu2_m128i((const simde__m128i *)(const void *)(s + 32),
                                        (const simde__m128i *)(const void *)s);
        x[1] = simde_mm256_loadu2_m128i((const simde__m128i *)(const void *)(s + 48),
                                        (const simde__m128i *)(const void *)(s + 16));
    } else {
        TL__SR_UNROLL
        for (j = 0; j < 4; ++j)     /* pixels j | j + 4, 16 bytes each */
            p[j] = simde_mm256_loadu2_m128i((const simde__m128i *)(const void *)(s + 16 * (size_t)j + 64),
                                            (const simde__m128i *)(const void *)(s + 16 * (size_t)j));
        x[0] = simde_mm256_unpacklo_epi64(p[0], p[1]);
        x[1] = simde_mm256_unpacklo_epi64(p[2], p[3]);
        x[2] = simde_mm256_unpackhi_epi64(p[0], p[1]);
        x[3] = simde_mm256_unpackhi_epi64(p[2], p[3]);
    }
    TL__SR_UNROLL
    for (g = 0; g < M / 8; ++g) {
        simde__m256i a = simde_mm256_shuffle_epi8(x[2 * g], by8), b = simde_mm256_shuffle_epi8(x[2 * g + 1], by8);
        q[2 * g] = simde_mm256_permutevar8x32_epi32(simde_mm256_unpacklo_epi16(a, b), order);
        q[2 * g + 1] = simde_mm256_permutevar8x32_epi32(simde_mm256_unpackhi_epi16(a, b), order);
    }
}

/* A step of tl__sr8_unblock_tile: 16 pixels of M values at s to M rows
   of f32 (d, db bytes apart) times scale[value], each row's 64 bytes in
   two stores back to back (a whole line when streamed). */
TL__SR_INLINE void tl__sr8_unblock_step(const char *s, int M, char *d, size_t db, int u8,
                                        const simde__m256 *scale, int nt)
{
    simde__m256i a[4], b[4];
    int c;
    tl__sr8_unblock8(s, M, a);
    tl__sr8_unblock8(s + 8 * M, M, b);
    TL__SR_UNROLL
    for (c = 0; c < M; ++c) {
        char *row = d + (size_t)c * db;
        tl__sr8_put(row, simde_mm256_castps_si256(tl__sr8_bytes_f32(tl__sr8_lane64(a[c / 4], c % 4), u8, scale[c])), nt);
        tl__sr8_put(row + 32, simde_mm256_castps_si256(tl__sr8_bytes_f32(tl__sr8_lane64(b[c / 4], c % 4), u8, scale[c])),
                    nt);
    }
}

/* tl__sr8_unblock_tile for one M and source type: the last pixels (under
   16) through stack copies of their source and dst. */
TL__SR_INLINE void tl__sr8_unblock_of(const char *s, int M, char *d, size_t db, tl_dim nl, int u8,
                                      const simde__m256 *scale, int nt)
{
    simde__m256i last_v[8], out_v[32];     /* 16 pixels of up to 16 bytes; 16 rows of 64 */
    char *last = (char *)(void *)last_v, *out = (char *)(void *)out_v;
    tl_dim p;
    for (p = 0; p + 16 <= nl; p += 16) tl__sr8_unblock_step(s + (size_t)(p * M), M, d + (size_t)p * 4, db, u8, scale, nt);
    if (p == nl) return;
    tl__sr_stage_last(last, (size_t)(16 * M), s + (size_t)(p * M), 0, 1, (size_t)((nl - p) * M));
    tl__sr8_unblock_step(last, M, out, 64, u8, scale, 0);
    tl__sr_unstage_rows(d + (size_t)p * 4, db, out, 64, (size_t)(nl - p) * 4, M);
}

/* The tile of tl__sr_tile_bytes the other way: nl pixels of blocks of M
   (4, 8 or 16) s8 (u8: u8) values, back to back at s (nChw4c, nChw8c,
   nChw16c), to M rows of f32, db bytes apart (nchw), value c times
   sc.sc[sc.sidx + c sc.sstep] (sc.sc NULL: none). nt: streamed. */
static void tl__sr8_unblock_tile(const char *s, int M, char *d, size_t db, tl_dim nl, int u8, tl__sr_scales sc,
                                 int nt)
{
    simde__m256 scale[16];
    int c;
    for (c = 0; c < M; ++c) scale[c] = simde_mm256_set1_ps(sc.sc ? sc.sc[sc.sidx + c * sc.sstep] : 1.f);
    if (M == 16 && u8) tl__sr8_unblock_of(s, 16, d, db, nl, 1, scale, nt);
    else if (M == 16) tl__sr8_unblock_of(s, 16, d, db, nl, 0, scale, nt);
    else if (M == 8 && u8) tl__sr8_unblock_of(s, 8, d, db, nl, 1, scale, nt);
    else if (M == 8) tl__sr8_unblock_of(s, 8, d, db, nl, 0, scale, nt);
    else if (u8) tl__sr8_unblock_of(s, 4, d, db, nl, 1, scale, nt);
    else tl__sr8_unblock_of(s, 4, d, db, nl, 0, scale, nt);
}

/* The n (32, 16 or 8) bytes at p in the low bytes of a vector, zeros
   above: the units of a step over fewer than 8 (tl__sr8_units4_step). */
TL__SR_INLINE simde__m256i tl__sr8_load_low(const char *p, int n)
{
    if (n == 32) return simde_mm256_loadu_si256((const simde__m256i *)(const void *)p);
    if (n == 16) return simde_mm256_zextsi128_si256(simde_mm_loadu_si128((const simde__m128i *)(const void *)p));
    return simde_mm256_zextsi128_si256(simde_mm_loadl_epi64((const simde__m128i *)(const void *)p));
}

/* The widening step of tl__sr8_units4_tile: 4 pixels (ss bytes apart) of nu
   (8, 4 or 2) blocks of 4 bytes to the blocks' rows of f32 (d, db bytes
   apart) times scale[block]. Unpacks of 32 and 64 bits transpose the
   blocks of the 4 pixels within each 128-bit lane, which then holds one
   block's 4 pixels (blocks k and k + 4 in the two lanes of q[k]); each
   lane's 16 bytes widen into the 64 bytes of its row, in two stores back
   to back. Fewer blocks load fewer bytes and use the low lane's
   first nu. */
TL__SR_INLINE void tl__sr8_widen4_step(const char *s, size_t ss, char *d, size_t db, int nu, int u8,
                                       const simde__m256 *scale, int nt)
{
    simde__m256i x[4], a, b, c, e, q[4];
    int k;
    TL__SR_UNROLL
    for (k = 0; k < 4; ++k) x[k] = tl__sr8_load_low(s + (size_t)k * ss, 4 * nu);
    a = simde_mm256_unpacklo_epi32(x[0], x[1]);
    b = simde_mm256_unpackhi_epi32(x[0], x[1]);
    c = simde_mm256_unpacklo_epi32(x[2], x[3]);
    e = simde_mm256_unpackhi_epi32(x[2], x[3]);
    q[0] = simde_mm256_unpacklo_epi64(a, c);
    q[1] = simde_mm256_unpackhi_epi64(a, c);
    q[2] = simde_mm256_unpacklo_epi64(b, e);
    q[3] = simde_mm256_unpackhi_epi64(b, e);
    TL__SR_UNROLL
    for (k = 0; k < nu; ++k) {
        simde__m128i h = k < 4 ? simde_mm256_castsi256_si128(q[k]) : simde_mm256_extracti128_si256(q[k - 4], 1);
        char *row = d + (size_t)k * db;
        tl__sr8_put(row, simde_mm256_castps_si256(tl__sr8_bytes_f32(h, u8, scale[k])), nt);
        tl__sr8_put(row + 32, simde_mm256_castps_si256(tl__sr8_bytes_f32(simde_mm_srli_si128(h, 8), u8, scale[k])), nt);
    }
}

/* n (even) scaled vectors v as the n / 2 vectors of words that s8 (u8:
   u8) saturates from, w[k] the packs of v[2k] and v[2k + 1]. s8 takes
   tl__sr8_sat's NaN mask, half its operations, only where it changes a
   word: vcvtps2dq of min(127, NaN) is INT32_MIN, which the packs make
   -32768, the word only a NaN or a value under -32767.5 gives, and the
   lowest of the words finds it (f32 -> s8 nhwc -> nChw4c 1.27x, Zen 3;
   the compares ran at one a cycle). Checked 16 or 32 values at a time
   (tl__sr8_store, tl__sr8_packs_i8) it gained nothing or lost. */
TL__SR_INLINE void tl__sr8_i8_words(const simde__m256 *v, simde__m256i *w, int n, int u8)
{
    const simde__m256 top = simde_mm256_set1_ps(127.f);
    simde__m256i lo;
    int k;
    TL__SR_UNROLL
    for (k = 0; k < n / 2; ++k)
        w[k] = u8 ? simde_mm256_packs_epi32(tl__sr8_sat_u8(v[2 * k]), tl__sr8_sat_u8(v[2 * k + 1]))
                  : simde_mm256_packs_epi32(simde_mm256_cvtps_epi32(simde_mm256_min_ps(top, v[2 * k])),
                                            simde_mm256_cvtps_epi32(simde_mm256_min_ps(top, v[2 * k + 1])));
    if (u8) return;
    lo = w[0];
    TL__SR_UNROLL
    for (k = 1; k < n / 2; ++k) lo = simde_mm256_min_epi16(lo, w[k]);
    if (!simde_mm256_movemask_epi8(simde_mm256_cmpeq_epi16(lo, simde_mm256_set1_epi16(INT16_MIN)))) return;
    TL__SR_UNROLL
    for (k = 0; k < n / 2; ++k)
        w[k] = simde_mm256_packs_epi32(tl__sr8_sat(v[2 * k], 127.f), tl__sr8_sat(v[2 * k + 1], 127.f));
}

/* A pair of blocks of tl__sr8_narrow4_step: 8 pixels (ss bytes apart)
   of 2 blocks of 4 f32 values to the 2 blocks' rows of s8 (u8: u8)
   values (d, db bytes apart), times scale (the first block's in the low
   lane). Packing pixel with pixel keeps the blocks apart: the packs of
   4 pixels leave the first block's 4 pixels in the low 128-bit lane and
   the second's in the high, so a lane permute of two such packs makes
   each row's 8 pixels one store, with no transpose at all. */
TL__SR_INLINE void tl__sr8_narrow4_pair(const char *s, size_t ss, char *d, size_t db, int u8, simde__m256 scale,
                                        int nt)
{
    simde__m256 v[8];
    simde__m256i w[4], h[2];
    int j;
    TL__SR_UNROLL
    for (j = 0; j < 8; ++j) {
        v[j] = simde_mm256_mul_ps(scale, simde_mm256_loadu_ps((const float *)(const void *)(s + (size_t)j * ss)));
        TL__SR_ROUNDED(v[j]);
    }
    tl__sr8_i8_words(v, w, 8, u8);
    h[0] = u8 ? simde_mm256_packus_epi16(w[0], w[1]) : simde_mm256_packs_epi16(w[0], w[1]);
    h[1] = u8 ? simde_mm256_packus_epi16(w[2], w[3]) : simde_mm256_packs_epi16(w[2], w[3]);
    tl__sr8_put(d, simde_mm256_permute2x128_si256(h[0], h[1], 0x20), nt);
    tl__sr8_put(d + db, simde_mm256_permute2x128_si256(h[0], h[1], 0x31), nt);
}

/* A pair of blocks of tl__sr8_narrow4_step into bf16: 4 pixels (ss
   bytes apart) of 2 blocks of 4 f32 values times scale. packus joins
   two pixels' bf16 lane by lane, the first block's values of both in
   the low 128-bit lane and the second's in the high, and a lane permute
   of two such makes each block's 4 pixels one 32-byte store. */
TL__SR_INLINE void tl__sr8_narrow4_bf16_pair(const char *s, size_t ss, char *d, size_t db, simde__m256 scale, int nt)
{
    simde__m256i w[4], h[2];
    int j;
    TL__SR_UNROLL
    for (j = 0; j < 4; ++j)
        w[j] = tl__sr8_bf16(
            simde_mm256_mul_ps(scale, simde_mm256_loadu_ps((const float *)(const void *)(s + (size_t)j * ss))));
    h[0] = simde_mm256_packus_epi32(w[0], w[1]);
    h[1] = simde_mm256_packus_epi32(w[2], w[3]);
    tl__sr8_put(d, simde_mm256_permute2x128_si256(h[0], h[1], 0x20), nt);
    tl__sr8_put(d + db, simde_mm256_permute2x128_si256(h[0], h[1], 0x31), nt);
}

/* The narrowing step of tl__sr8_units4_tile into t: a step's pixels
   (8 into bytes, 4 into bf16) of 2 * pairs blocks, a pair of blocks at
   a time (scale[k]: blocks 2k and 2k + 1). */
TL__SR_INLINE void tl__sr8_narrow4_step(tl_data_type t, const char *s, size_t ss, char *d, size_t db, int pairs,
                                        const simde__m256 *scale, int nt)
{
    int k;
    TL__SR_UNROLL
    for (k = 0; k < pairs; ++k) {
        if (t == TL_BF16) tl__sr8_narrow4_bf16_pair(s + 32 * k, ss, d + (size_t)(2 * k) * db, db, scale[k], nt);
        else tl__sr8_narrow4_pair(s + 32 * k, ss, d + (size_t)(2 * k) * db, db, t == TL_U8, scale[k], nt);
    }
}

/* The 8 bf16 values of h as f32 (exact: bf16 is the top half of an
   f32), times scale where scaled: a product by 1 would quiet a
   signalling NaN, which the core passes on as it is. */
TL__SR_INLINE simde__m256 tl__sr8_bf16_f32(simde__m128i h, int scaled, simde__m256 scale)
{
    simde__m256 v = simde_mm256_castsi256_ps(simde_mm256_slli_epi32(simde_mm256_cvtepu16_epi32(h), 16));
    if (!scaled) return v;
    v = simde_mm256_mul_ps(scale, v);
    TL__SR_ROUNDED(v);
    return v;
}

/* The widening step of tl__sr8_units4_tile from bf16: 4 pixels (ss
   bytes apart) of nu (8, 4 or 2) blocks of 4 bf16 to the blocks' rows
   of f32 times scale[block], 4 blocks (32 bytes of each pixel) at a
   time. Unpacks of 64 bits pair a block's values of pixels 0 and 1 (2
   and 3) in a 128-bit lane: the low unpack holds blocks 0 and 2 in its
   two lanes, the high one 1 and 3; each lane widens into 32 bytes of
   its row. 2 blocks load 16 bytes and use the low lanes. */
TL__SR_INLINE void tl__sr8_widen4_bf16_step(const char *s, size_t ss, char *d, size_t db, int nu, int scaled,
                                            const simde__m256 *scale, int nt)
{
    simde__m256i x[4], q[2][2];
    int h, j, k, e;
    TL__SR_UNROLL
    for (h = 0; h < (nu + 3) / 4; ++h) {
        TL__SR_UNROLL
        for (j = 0; j < 4; ++j) x[j] = tl__sr8_load_low(s + 32 * h + (size_t)j * ss, nu < 4 ? 16 : 32);
        TL__SR_UNROLL
        for (e = 0; e < 2; ++e) {   /* pixels 2e and 2e + 1 */
            q[e][0] = simde_mm256_unpacklo_epi64(x[2 * e], x[2 * e + 1]);
            q[e][1] = simde_mm256_unpackhi_epi64(x[2 * e], x[2 * e + 1]);
        }
        TL__SR_UNROLL
        for (k = 0; k < (nu < 4 ? nu : 4); ++k)
            TL__SR_UNROLL
            for (e = 0; e < 2; ++e) {
                simde__m256i v = q[e][k % 2];
                simde__m128i l = k < 2 ? simde_mm256_castsi256_si128(v) : simde_mm256_extracti128_si256(v, 1);
                tl__sr8_put(d + (size_t)(4 * h + k) * db + 32 * e,
                            simde_mm256_castps_si256(tl__sr8_bf16_f32(l, scaled, scale[4 * h + k])), nt);
            }
    }
}

/* A step of tl__sr8_units4_tile over nu source-dense units (8, or as
   tl__sr8_units4_whole allows 4 or 2; constant here); t: the type
   that is not f32; scaled: scale holds the plan's scales, else 1s. */
TL__SR_INLINE void tl__sr8_units4_step_n(int narrow, tl_data_type t, int nu, const char *s, size_t ss, char *d,
                                         size_t db, int scaled, const simde__m256 *scale, int nt)
{
    if (narrow) tl__sr8_narrow4_step(t, s, ss, d, db, nu / 2, scale, nt);
    else if (t == TL_BF16) tl__sr8_widen4_bf16_step(s, ss, d, db, nu, scaled, scale, nt);
    else tl__sr8_widen4_step(s, ss, d, db, nu, t == TL_U8, scale, nt);
}

/* tl__sr8_units4_step_n with each count of units inlined apart. */
TL__SR_INLINE void tl__sr8_units4_step(int narrow, tl_data_type t, tl_dim nu, const char *s, size_t ss, char *d,
                                       size_t db, int scaled, const simde__m256 *scale, int nt)
{
    if (nu == 8) tl__sr8_units4_step_n(narrow, t, 8, s, ss, d, db, scaled, scale, nt);
    else if (nu == 4) tl__sr8_units4_step_n(narrow, t, 4, s, ss, d, db, scaled, scale, nt);
    else tl__sr8_units4_step_n(narrow, t, 2, s, ss, d, db, scaled, scale, nt);
}

/* The scale vectors of tl__sr8_units4_step for blocks b0 to b0 + nu - 1
   (1s past them). */
TL__SR_INLINE void tl__sr8_units4_scales(int narrow, tl__sr_scales sc, tl_dim b0, tl_dim nu, tl_dim bc,
                                         simde__m256 *scale)
{
    simde__m128 four[8];
    int k;
    for (k = 0; k < 8; ++k)     /* a block's 4 scales */
        four[k] = sc.sc && k < nu ? tl__sr_scale4(sc.sc, sc.sidx + (b0 + k) * bc, sc.sstep) : simde_mm_set1_ps(1.f);
    for (k = 0; k < (narrow ? 4 : 8); ++k)  /* widening: a block's, for both pixels of a vector; narrowing: a pair's */
        scale[k] = narrow ? simde_mm256_set_m128(four[2 * k + 1], four[2 * k]) : simde_mm256_set_m128(four[k], four[k]);
}

/* The first of the nu blocks of step k from block b0 of nb: the last
   step ends with the last block. */
TL__SR_INLINE tl_dim tl__sr8_units4_first(tl_dim b0, tl_dim k, tl_dim nu, tl_dim nb)
{
    return b0 + 8 * k + nu <= nb ? b0 + 8 * k : nb - nu;
}

/* tl__sr8_units4_tile for one direction and type: a step takes P
   pixels (tl__sr8_units4_pixels) of nu blocks, 8 or all nb where nb
   is 4 or 2 (tl__sr8_units4_whole), and the steps of all the blocks (of
   32 at a time, with a scale each) go one after another, so that each
   source row is read in order: nChw4c -> nhwc reads 8 blocks' pixels
   as 8 streams (f32 -> s8 64x64x28x28 from DRAM 1.2x against 32
   pixels at a time; prefetching the pixels of a step ahead gained
   1.1x into nChw4c from DRAM but lost as much in cache). Short
   streamed dst rows (the pixels of nChw4c -> nhwc into f32) take the
   steps 8 blocks at a time instead, so that each row's lines go out
   in order (s8 -> f32 64x64x28x28 1.2x at one thread, 1.4x at two).
   The last blocks and pixels that do not fill a step take the step
   that ends with them, overlapping the one before: it writes the same
   values again (there is no beta), which cost less than stack copies
   of the edge (f32 -> s8 nhwc -> nChw4c 8x48x28x28, 12 blocks: 3.2x;
   nChw4c -> nhwc 14x14, whose 196 pixels are its blocks here). So a
   tile holds whole steps (tl__sr8_units4_whole). */
TL__SR_INLINE void tl__sr8_units4_of(int narrow, tl_data_type t, const char *s, size_t ss, char *d, size_t db,
                                     tl_dim nb, tl_dim np, tl__sr_scales sc, tl_dim bc, int nt)
{
    const tl_dim P = tl__sr8_units4_pixels(narrow, t);
    const size_t tu = 4 * tl_dt_size(t), su = narrow ? 16 : tu, du = narrow ? tu : 16;   /* a unit's bytes */
    const tl_dim chunk = nt && (size_t)np * du <= 1024 ? 8 : bc ? 32 : nb, nu = nb < 8 ? nb : 8;
    simde__m256 scale[4][8];
    tl_dim b0, b, p, q, ng, k;
    for (b0 = 0; b0 < nb; b0 += chunk) {
        ng = ((nb - b0 < chunk ? nb - b0 : chunk) + 7) / 8;
        for (k = 0; k < (bc ? ng : 1); ++k)
            tl__sr8_units4_scales(narrow, sc, tl__sr8_units4_first(b0, k, nu, nb), nu, bc, scale[k]);
        for (p = 0; p < np; p += P) {
            q = p + P <= np ? p : np - P;
            for (k = 0; k < ng; ++k) {
                b = tl__sr8_units4_first(b0, k, nu, nb);
                tl__sr8_units4_step(narrow, t, nu, s + (size_t)q * ss + (size_t)b * su, ss,
                                    d + (size_t)q * du + (size_t)b * db, db, sc.sc != NULL, scale[bc ? k : 0], nt);
            }
        }
    }
}

/* np pixels (ss bytes apart) of nb blocks of 4 values, back to
   back (nhwc), to nb rows of np pixels of 4 values (db bytes apart:
   nChw4c), widened from t (s8, u8, bf16) to f32 or narrowed (narrow)
   from f32 to t, value j of block b times sc.sc[sc.sidx + b bc + j
   sc.sstep] (sc.sc NULL: none). The same moves nChw4c -> nhwc with
   pixels and blocks trading places (np blocks of nb pixels; the scales
   then one for all). nt: streamed. */
static void tl__sr8_units4_tile(int narrow, tl_data_type t, const char *s, size_t ss, char *d, size_t db, tl_dim nb,
                                tl_dim np, tl__sr_scales sc, tl_dim bc, int nt)
{
    if (narrow && t == TL_S8) tl__sr8_units4_of(1, TL_S8, s, ss, d, db, nb, np, sc, bc, nt);
    else if (narrow && t == TL_U8) tl__sr8_units4_of(1, TL_U8, s, ss, d, db, nb, np, sc, bc, nt);
    else if (narrow) tl__sr8_units4_of(1, TL_BF16, s, ss, d, db, nb, np, sc, bc, nt);
    else if (t == TL_S8) tl__sr8_units4_of(0, TL_S8, s, ss, d, db, nb, np, sc, bc, nt);
    else if (t == TL_U8) tl__sr8_units4_of(0, TL_U8, s, ss, d, db, nb, np, sc, bc, nt);
    else tl__sr8_units4_of(0, TL_BF16, s, ss, d, db, nb, np, sc, bc, nt);
}

/* ---- dwords of four rows in AVX2 (tl__sr_dwords_pick) ---------------
   8 values (X) of 4 rows (L) a unit: 32 bytes of dst, a row's value
   byte r of a dword, or 128 of 4-byte values; AVX-512's units below
   do 16. */

/* A unit's 4 rows rs bytes apart at s into r, a vector of the width
   whose intrinsics start with PS each, times *v where v is not NULL
   (each product rounded on its own). */
#define TL__SR_DW_ROWS(PS, r, s, rs, v) \
    do { \
        int k_; \
        TL__SR_UNROLL \
        for (k_ = 0; k_ < 4; ++k_) { \
            r[k_] = PS##loadu_ps((const float *)(const void *)((s) + (size_t)k_ * (rs))); \
            if (v) { \
                r[k_] = PS##mul_ps(*(v), r[k_]); \
                TL__SR_ROUNDED(r[k_]); \
            } \
        } \
    } while (0)

/* 8 f32 values of 4 rows rs bytes apart, times *v (NULL: none), in s8
   (u8) dwords: narrowed as tl__sr8_i8_words narrows (its NaN check
   once for the 4 rows), the packs leave each 128-bit lane values
   4l..4l+3 of the 4 rows, a dword a row, which one byte shuffle zips. */
TL__SR_INLINE simde__m256i tl__sr8_dw_f32(const char *s, size_t rs, const simde__m256 *v, int u8)
{
    simde__m256 f[4];
    simde__m256i w[2];
    TL__SR_DW_ROWS(simde_mm256_, f, s, rs, v);
    tl__sr8_i8_words(f, w, 4, u8);
    return simde_mm256_shuffle_epi8(u8 ? simde_mm256_packus_epi16(w[0], w[1]) : simde_mm256_packs_epi16(w[0], w[1]),
                                    simde_mm256_loadu_si256((const void *)tl__sr16_bytes_t4x4));
}

/* 8 bytes of 4 rows rs bytes apart as dwords. */
TL__SR_INLINE simde__m256i tl__sr8_dw_bytes(const char *s, size_t rs)
{
    simde__m128i r[4], a, b;
    int k;
    TL__SR_UNROLL
    for (k = 0; k < 4; ++k) r[k] = simde_mm_loadl_epi64((const simde__m128i *)(const void *)(s + (size_t)k * rs));
    a = simde_mm_unpacklo_epi32(r[0], r[1]);
    b = simde_mm_unpacklo_epi32(r[2], r[3]);
    return simde_mm256_shuffle_epi8(simde_mm256_set_m128i(simde_mm_unpackhi_epi64(a, b), simde_mm_unpacklo_epi64(a, b)),
                                    simde_mm256_loadu_si256((const void *)tl__sr16_bytes_t4x4));
}

/* 8 values of 4 rows rs bytes apart, 4 bytes each (f32 times *v; NULL:
   none), as dst's 8 groups of the 4 rows' values at d: the 4 x 4
   transposes inside the 128-bit lanes leave r[c] values c and 4 + c,
   whose halves pair up. */
TL__SR_INLINE void tl__sr8_dw_quads(const char *s, size_t rs, char *d, const simde__m256 *v)
{
    simde__m256 r[4], t[4];
    TL__SR_DW_ROWS(simde_mm256_, r, s, rs, v);
    TL__SR_LANES_T4X4(simde_mm256_, r, t, 4);
    simde_mm256_storeu_ps((float *)(void *)d, simde_mm256_permute2f128_ps(r[0], r[1], 0x20));
    simde_mm256_storeu_ps((float *)(void *)(d + 32), simde_mm256_permute2f128_ps(r[2], r[3], 0x20));
    simde_mm256_storeu_ps((float *)(void *)(d + 64), simde_mm256_permute2f128_ps(r[0], r[1], 0x31));
    simde_mm256_storeu_ps((float *)(void *)(d + 96), simde_mm256_permute2f128_ps(r[2], r[3], 0x31));
}

/* NAME_of: the units of a step, u[0] (outermost) to u[2] each count
   times s and d bytes on and c scales, a unit a piece of dst from its 4
   rows at s, rs bytes apart, as in says: bytes (BYTES) or f32 narrowed
   to s8, u8 where u8 (F32), one vector of type VI; or 4-byte values,
   QUADS' vectors. f32 goes times the scales from sc[sidx], one for the
   unit or one a value where xc, none where sc is NULL. Each row's line
   at the same place from nx (the next step's; NULL: none) is fetched on
   its way. Inlined with in, sc's presence and xc constant. */
#define TL__SR_DW_UNITS_DEF(NAME, PS, VF, VI, F32, BYTES, QUADS, STORE) \
    TL__SR_INLINE void NAME##_of(const char *s, size_t rs, char *d, const tl__sr_runs *u, const char *nx, int in, \
                                 int u8, const float *sc, tl_dim sidx, int xc) \
    { \
        const tl__sr_runs u0 = u[0], u1 = u[1], u2 = u[2]; /* locals: dst's stores may alias u */ \
        tl_dim a, b, c; \
        int r; \
        for (a = 0; a < u0.count; ++a) \
            for (b = 0; b < u1.count; ++b) \
                for (c = 0; c < u2.count; ++c) { \
                    size_t at = (size_t)a * u0.s + (size_t)b * u1.s + (size_t)c * u2.s; \
                    char *o = d + (size_t)a * u0.d + (size_t)b * u1.d + (size_t)c * u2.d; \
                    tl_dim k = sidx + a * u0.c + b * u1.c + c * u2.c; \
                    VF v = PS##setzero_ps(); \
                    TL__SR_UNROLL \
                    for (r = 0; r < 4; ++r) \
                        if (nx) TL__SIMD_PREFETCH(nx + at + (size_t)r * rs); \
                    if (sc) v = xc ? PS##loadu_ps(sc + k) : PS##set1_ps(sc[k]); \
                    if (in == TL__SR_DW_QUADS) QUADS(s + at, rs, o, sc ? &v : NULL); \
                    else if (in == TL__SR_DW_I8) STORE((void *)o, F32(s + at, rs, sc ? &v : NULL, u8)); \
                    else STORE((void *)o, BYTES(s + at, rs)); \
                } \
    } \
    TL__SR_INLINE void NAME##_scaled(const char *s, size_t rs, char *d, const tl__sr_runs *u, const char *nx, int in, \
                                     int u8, const float *sc, tl_dim sidx, int xc) \
    { \
        if (!sc) NAME##_of(s, rs, d, u, nx, in, u8, NULL, 0, 0); \
        else if (xc) NAME##_of(s, rs, d, u, nx, in, u8, sc, sidx, 1); \
        else NAME##_of(s, rs, d, u, nx, in, u8, sc, sidx, 0); \
    } \
    TL__SR_NOINLINE void NAME(const char *s, size_t rs, char *d, const tl__sr_runs *u, const char *nx, int in, \
                              int u8, const float *sc, tl_dim sidx, int xc) \
    { \
        if (in == TL__SR_DW_BYTES) NAME##_of(s, rs, d, u, nx, TL__SR_DW_BYTES, 0, NULL, 0, 0); \
        else if (in == TL__SR_DW_QUADS) NAME##_scaled(s, rs, d, u, nx, TL__SR_DW_QUADS, 0, sc, sidx, xc); \
        else NAME##_scaled(s, rs, d, u, nx, TL__SR_DW_I8, u8, sc, sidx, xc); \
    }

TL__SR_DW_UNITS_DEF(tl__sr8_dw_units, simde_mm256_, simde__m256, simde__m256i, tl__sr8_dw_f32, tl__sr8_dw_bytes,
                    tl__sr8_dw_quads, simde_mm256_storeu_si256)

/* One block of tl__sr8_tiles4: the first mm columns of the block at b
   (rows j at b + off[j], loaded whole) to d, db bytes apart. Plain
   stores whatever nt says: a block writes half a line of each dst row
   (see tl__sr_tiles_side). */
TL__SR_INLINE void tl__sr8_tiles_block(const char *b, const size_t *off, char *d, size_t db,
                                       int mm, int nt, const float *rsv, const float *csv)
{
    simde__m256 r[8];
    int j;
    (void)nt;
    (void)rsv;
    (void)csv;
    TL__SR_UNROLL
    for (j = 0; j < 8; ++j) r[j] = simde_mm256_loadu_ps((const float *)(const void *)(b + off[j]));
    tl__sr8_t8x8(r);
    TL__SR_UNROLL
    for (j = 0; j < 8; ++j)
        if (j < mm) simde_mm256_storeu_ps((float *)(void *)(d + (size_t)j * db), r[j]);
}

static TL__SR_TILES_BODY(tl__sr8_tiles4, 4, 8, 8, tl__sr8_tiles_block)

/* One block of tl__sr8_tiles2 (es 2) or tl__sr8_tiles1 (es 1): 2 B
   rows of B = 16 / es values, row j in the low lane of register j % B
   and row j + B in its high lane, so that one zip transposes two of
   SSE2's B x B blocks and each dst row (2 B values) leaves in one
   store: half the shuffles and stores of SSE2's blocks. */
TL__SR_INLINE simde__m256i tl__sr8_rows2(const char *b, const size_t *off, int j, int B)
{
    return simde_mm256_loadu2_m128i((const simde__m128i *)(const void *)(b + off[j + B]),
                                    (const simde__m128i *)(const void *)(b + off[j]));
}

TL__SR_INLINE TL__SR_TILES_BLOCK_DEF(tl__sr8_tiles_block_es, simde__m256i, tl__sr8_zip, tl__sr8_rows2, tl__sr8_put)

TL__SR_TILES_BLOCK_ES(tl__sr8_tiles_block2, tl__sr8_tiles_block_es, 2)
TL__SR_TILES_BLOCK_ES(tl__sr8_tiles_block1, tl__sr8_tiles_block_es, 1)

static TL__SR_TILES_BODY(tl__sr8_tiles2, 2, 16, 8, tl__sr8_tiles_block2)
static TL__SR_TILES_BODY(tl__sr8_tiles1, 1, 32, 16, tl__sr8_tiles_block1)

/* Vector v of a tap of tl__sr8_quads4, for the 4 taps from the block's
   s: lane h holds 4 dst values, rows of 4 taps each in the source (16
   bytes at h's start, then s1 apart), transposed inside the lanes so
   that t[e] is tap e; taps from `from` on stored tap bytes apart. */
TL__SR_INLINE void tl__sr8_quad4_vector(const tl__sr_q4v *TL__RESTRICT v, size_t s1, int from, const char *s,
                                        char *d, size_t tap, int nt)
{
    simde__m256 t[4], x[4];
    int k;
    TL__SR_UNROLL
    for (k = 0; k < 4; ++k)
        t[k] = simde_mm256_loadu2_m128((const float *)(const void *)(s + v->hi + (size_t)k * s1),
                                       (const float *)(const void *)(s + v->lo + (size_t)k * s1));
    TL__SR_LANES_T4X4(simde_mm256_, t, x, 4);
    TL__SR_UNROLL
    for (k = 0; k < 4; ++k)
        if (k >= from) tl__sr8_put(d + (size_t)k * tap, simde_mm256_castps_si256(t[k]), nt);
}

/* The nv vectors of the 4 taps from the block's s, taps from `from` on
   stored. */
TL__SR_INLINE void tl__sr8_quad4_group(const tl__sr_q4 *TL__RESTRICT q, int nv, int from, const char *s, char *d,
                                       size_t tap, int nt)
{
    int v;
    for (v = 0; v < nv; ++v) tl__sr8_quad4_vector(&q->v[v], q->s1, from, s, d + (size_t)v * 32, tap, nt);
}

/* tl__sr8_quads4 with the vectors a tap (nv) and streaming constant.
   Groups of 4 taps; the last starts at taps - 4 and stores only the
   taps it adds (1 to 4, constant too), so that no load leaves a source
   row. */
TL__SR_INLINE void tl__sr8_quads4_body(const tl__sr_q4 *TL__RESTRICT q, int nv, const char *s, char *d,
                                       tl__sr_runs J, int nt)
{
    size_t tap = (size_t)nv * 32, w = (size_t)q->taps - 4;
    int g, from = 4 * (q->ng - 1) - (q->taps - 4);
    tl_dim j;
    for (j = 0; j < J.count; ++j, s += J.s, d += J.d) {
        for (g = 0; g < q->ng - 1; ++g)
            tl__sr8_quad4_group(q, nv, 0, s + (size_t)g * 16, d + (size_t)g * 4 * tap, tap, nt);
        if (from == 0) tl__sr8_quad4_group(q, nv, 0, s + w * 4, d + w * tap, tap, nt);
        else if (from == 1) tl__sr8_quad4_group(q, nv, 1, s + w * 4, d + w * tap, tap, nt);
        else if (from == 2) tl__sr8_quad4_group(q, nv, 2, s + w * 4, d + w * tap, tap, nt);
        else tl__sr8_quad4_group(q, nv, 3, s + w * 4, d + w * tap, tap, nt);
    }
}

TL__SR_INLINE void tl__sr8_quads4_nt(const tl__sr_q4 *q, const char *s, char *d, tl__sr_runs J, int nt)
{
    if (q->nv == 2) tl__sr8_quads4_body(q, 2, s, d, J, nt);
    else if (q->nv == 8) tl__sr8_quads4_body(q, 8, s, d, J, nt);
    else tl__sr8_quads4_body(q, 32, s, d, J, nt);
}

/* Vector v of a tap of tl__sr8_quads4_back: the same transpose the
   other way, 4 taps' vectors (tap bytes apart from s) to 16-byte runs of
   4 taps, the rows of lane h's values at h's start, then s1 apart. */
TL__SR_INLINE void tl__sr8_quad4_back_vector(const tl__sr_q4v *TL__RESTRICT v, size_t s1, const char *s,
                                             size_t tap, char *d)
{
    simde__m256 t[4], x[4];
    int k;
    TL__SR_UNROLL
    for (k = 0; k < 4; ++k) t[k] = simde_mm256_loadu_ps((const float *)(const void *)(s + (size_t)k * tap));
    TL__SR_LANES_T4X4(simde_mm256_, t, x, 4);
    TL__SR_UNROLL
    for (k = 0; k < 4; ++k) {
        simde_mm_storeu_ps((float *)(void *)(d + v->lo + (size_t)k * s1), simde_mm256_castps256_ps128(t[k]));
        simde_mm_storeu_ps((float *)(void *)(d + v->hi + (size_t)k * s1), simde_mm256_extractf128_ps(t[k], 1));
    }
}

TL__SR_INLINE void tl__sr8_quads4_back_body(const tl__sr_q4 *TL__RESTRICT q, int nv, const char *s, char *d,
                                            tl__sr_runs J)
{
    size_t tap = (size_t)nv * 32;
    tl_dim j;
    int g, v;
    for (j = 0; j < J.count; ++j, s += J.s, d += J.d)
        for (g = 0; g < q->ng; ++g) {
            size_t w = (size_t)(g < q->ng - 1 ? 4 * g : q->taps - 4);
            for (v = 0; v < nv; ++v)
                tl__sr8_quad4_back_vector(&q->v[v], q->s1, s + w * tap + (size_t)v * 32, tap, d + w * 4);
        }
}

/* A step of TL__SR_QUADS4 back from the blocks (tl__sr8_quads4 the
   other way): the last group of taps starts 4 from the end and writes
   again the taps it shares with the group before, the same values.
   Never streamed: its 16-byte stores fill lines in pieces. */
static void tl__sr8_quads4_back(const tl__sr_q4 *q, const char *s, char *d, tl__sr_runs J)
{
    if (q->nv == 2) tl__sr8_quads4_back_body(q, 2, s, d, J);
    else if (q->nv == 8) tl__sr8_quads4_back_body(q, 8, s, d, J);
    else tl__sr8_quads4_back_body(q, 32, s, d, J);
}

/* TL__SR_QUADS4 in AVX2 (tl__sr16_quads4 says what a step is): two
   16-byte loads and two shuffles a 32-byte store, for any number of taps
   from 4 on. */
static void tl__sr8_quads4(const tl__sr_q4 *q, const char *s, char *d, tl__sr_runs J, int nt)
{
    if (nt) tl__sr8_quads4_nt(q, s, d, J, 1);
    else tl__sr8_quads4_nt(q, s, d, J, 0);
}

/* tl__sr_widen_es's padded rows for nl <= 8 4-byte values each (the 3
   channels of an image into nChw16c), db a multiple of 32: 8 pixels at
   a time, their nl source rows and zero rows transposed 8 x 8, so that
   row j holds pixel j's values and zeros; each dst row then takes 32-byte
   stores, that vector and zeros to db. SSE2's blocks of 4 pixels stored
   a row 16 bytes at a time. Returns the pixels done (in 8s). */
static tl_dim tl__sr8_widen_pad(int nl, const char *s, size_t sb, char *d, size_t db, tl_dim nm)
{
    tl_dim m;
    size_t o;
    int j;
    for (m = 0; m + 8 <= nm; m += 8) {
        simde__m256 r[8];
        TL__SR_UNROLL
        for (j = 0; j < 8; ++j)
            r[j] = j < nl ? simde_mm256_loadu_ps((const float *)(const void *)(s + (size_t)m * 4 + (size_t)j * sb))
                          : simde_mm256_setzero_ps();
        tl__sr8_t8x8(r);
        TL__SR_UNROLL
        for (j = 0; j < 8; ++j) {
            char *row = d + (size_t)(m + j) * db;
            simde_mm256_storeu_ps((float *)(void *)row, r[j]);
            for (o = 32; o < db; o += 32) simde_mm256_storeu_ps((float *)(void *)(row + o), simde_mm256_setzero_ps());
        }
    }
    return m;
}

/* A pixel of up to 16 bytes, px, at d, and zeros after it to db bytes
   (a multiple of 16). Pixels of 32 bytes or a multiple take a 32-byte
   store, their values and zeros, not two of 16 (f32 -> bf16 nchw ->
   nChw16c 8x3x224x224: 1.1x, Zen 4); streamed stores ran such pixels at
   0.7x even where dst was 4 times the caches. */
TL__SR_INLINE void tl__sr8_put_pixel(char *d, size_t db, simde__m128i px)
{
    size_t o = 16;
    if (db % 32 == 0) {
        simde_mm256_storeu_si256((simde__m256i *)(void *)d, simde_mm256_set_m128i(simde_mm_setzero_si128(), px));
        o = 32;
    } else {
        simde_mm_storeu_si128((simde__m128i *)(void *)d, px);
    }
    for (; o + 32 <= db; o += 32) simde_mm256_storeu_si256((simde__m256i *)(void *)(d + o), simde_mm256_setzero_si256());
    if (o < db) simde_mm_storeu_si128((simde__m128i *)(void *)(d + o), simde_mm_setzero_si128());
}

/* 8 pixels of up to 8 bytes, the 64-bit lanes of lo (pixels 0-3) and hi
   (4-7), into dst pixels db bytes apart (8 or a multiple of 16), each
   lane's zero bytes and the zeros after them its padding. */
TL__SR_INLINE void tl__sr8_put_lanes64(char *d, size_t db, simde__m256i lo, simde__m256i hi)
{
    simde__m256i q[4], z = simde_mm256_setzero_si256();
    int j;
    if (db == 8) {
        simde_mm256_storeu_si256((simde__m256i *)(void *)d, lo);
        simde_mm256_storeu_si256((simde__m256i *)(void *)(d + 32), hi);
        return;
    }
    /* a pixel a 128-bit lane: q[0] holds 0 and 2, q[1] 1 and 3, ... */
    q[0] = simde_mm256_unpacklo_epi64(lo, z);
    q[1] = simde_mm256_unpackhi_epi64(lo, z);
    q[2] = simde_mm256_unpacklo_epi64(hi, z);
    q[3] = simde_mm256_unpackhi_epi64(hi, z);
    TL__SR_UNROLL
    for (j = 0; j < 8; ++j) {
        simde__m256i x = q[j / 4 * 2 + j % 2];
        tl__sr8_put_pixel(d + (size_t)j * db, db,
                          j / 2 % 2 ? simde_mm256_extracti128_si256(x, 1) : simde_mm256_castsi256_si128(x));
    }
}

/* 8 values v of a row, quantized and saturated to s8 or u8, as int32. */
TL__SR_INLINE simde__m256i tl__sr8_to_i8(const tl__sr_q *q, int extra, int u8, simde__m256 v, simde__m256 s)
{
    v = tl__sr8_quantize1(q, extra, v, 1, s, NULL);
    return u8 ? tl__sr8_sat_u8(v) : tl__sr8_sat(v, 127.f);
}

/* The dst types of tl__sr8_pixels: s8 or u8 from any source type
   tl__sr8_load reads or, the common cases compiled apart, from f32, u8
   or s8 with a scale at most; bf16 from f32 with a scale at most; f32
   from any with a scale at most. */
enum { TL__SR_PX_I8, TL__SR_PX_I8_PLAIN, TL__SR_PX_BF16, TL__SR_PX_F32 };

/* tl__sr8_pixels with nl, the source type, whether anything besides a
   scale applies (extra) and the dst type (dk: TL__SR_PX_I8, _BF16 or
   _F32) fixed: a switch on the type and the quantizer's branches in the
   loop ran f32 -> u8 nchw -> nChw8c 8x3x224x224 at 0.6 of the stage's
   speed. A row without a scale multiplies by 1, which changes no value
   but a signalling NaN's quiet bit: tl__sr8_bf16 and tl__sr8_to_i8 set
   or drop it anyway, f32 pixels keep it (bf16 -> f32), so they multiply
   only by a scale. An s8 or u8 value, saturated as tl__sr8_to_i8 leaves
   it (NaN -> 0; u8's NaN and values under s8's range as INT32_MIN or
   below), is clamped from below and masked into byte r of its pixel's
   32-bit lane; a bf16 value goes
   to 16-bit word r of a 64-bit lane, words 0-1 of each pixel gathered
   in w[0] and 2-3 in w[1] first; f32 rows are transposed 4 x 8 into 8
   pixels of 16 bytes, a missing row's zeros their padding. */
TL__SR_INLINE tl_dim tl__sr8_pixels_nl(const tl_reorder_plan *p, const tl__sr_q *q, tl__sr_scales sc, int nl,
                                       tl_data_type st, int extra, int dk, const char *s, size_t sb, char *d,
                                       size_t db, tl_dim nm)
{
    size_t es = tl_dt_size(st);
    int u8 = p->dst_md.data_type == TL_U8, r, j;
    simde__m256i lo = simde_mm256_set1_epi32(u8 ? 0 : -128), byte = simde_mm256_set1_epi32(0xff);
    simde__m256 scale[4];
    tl_dim m;
    for (r = 0; r < nl; ++r) scale[r] = simde_mm256_set1_ps(sc.sc ? sc.sc[sc.sidx + r * sc.sstep] : 1.f);
    for (m = 0; m + 8 <= nm; m += 8) {
        simde__m256i w[2] = { simde_mm256_setzero_si256(), simde_mm256_setzero_si256() };
        simde__m256 v[4], t[4], z = simde_mm256_setzero_ps();
        char *px = d + (size_t)m * db;
        TL__SR_UNROLL
        for (r = 0; r < nl; ++r) {
            tl__sr8_load(st, s + (size_t)r * sb + (size_t)m * es, &v[r], 1);
            if (dk == TL__SR_PX_BF16)
                w[r / 2] = simde_mm256_or_si256(
                    w[r / 2], simde_mm256_slli_epi32(tl__sr8_bf16(simde_mm256_mul_ps(v[r], scale[r])), 16 * (r % 2)));
            else if (dk == TL__SR_PX_F32)
                v[r] = sc.sc ? simde_mm256_mul_ps(v[r], scale[r]) : v[r];
            else
                w[0] = simde_mm256_or_si256(
                    w[0], simde_mm256_slli_epi32(simde_mm256_and_si256(
                              simde_mm256_max_epi32(tl__sr8_to_i8(q, extra, u8, v[r], scale[r]), lo), byte), 8 * r));
        }
        if (dk == TL__SR_PX_F32) {  /* t[j]: pixels j and j + 4 */
            for (r = nl; r < 4; ++r) v[r] = z;
            t[0] = simde_mm256_unpacklo_ps(v[0], v[1]);
            t[1] = simde_mm256_unpackhi_ps(v[0], v[1]);
            t[2] = simde_mm256_unpacklo_ps(v[2], v[3]);
            t[3] = simde_mm256_unpackhi_ps(v[2], v[3]);
            v[0] = simde_mm256_shuffle_ps(t[0], t[2], 0x44);
            v[1] = simde_mm256_shuffle_ps(t[0], t[2], 0xee);
            v[2] = simde_mm256_shuffle_ps(t[1], t[3], 0x44);
            v[3] = simde_mm256_shuffle_ps(t[1], t[3], 0xee);
            TL__SR_UNROLL
            for (j = 0; j < 8; ++j) {
                simde__m256i x = simde_mm256_castps_si256(v[j % 4]);
                tl__sr8_put_pixel(px + (size_t)j * db, db,
                                  j < 4 ? simde_mm256_castsi256_si128(x) : simde_mm256_extracti128_si256(x, 1));
            }
        } else if (dk == TL__SR_PX_BF16) {  /* 64-bit lanes: pixels 0, 1, 4, 5 in a, 2, 3, 6, 7 in b */
            simde__m256i a = simde_mm256_unpacklo_epi32(w[0], w[1]), b = simde_mm256_unpackhi_epi32(w[0], w[1]);
            tl__sr8_put_lanes64(px, db, simde_mm256_permute2x128_si256(a, b, 0x20),
                                simde_mm256_permute2x128_si256(a, b, 0x31));
        } else if (db == 4) {
            simde_mm256_storeu_si256((simde__m256i *)(void *)px, w[0]);
        } else {
            tl__sr8_put_lanes64(px, db, simde_mm256_cvtepu32_epi64(simde_mm256_castsi256_si128(w[0])),
                                simde_mm256_cvtepu32_epi64(simde_mm256_extracti128_si256(w[0], 1)));
        }
    }
    return m;
}

/* tl__sr8_pixels_nl for one kind of pixels (TL__SR_PX_*), nl fixed by
   the caller. */
TL__SR_INLINE tl_dim tl__sr8_pixels_kind(const tl_reorder_plan *p, const tl__sr_q *q, tl__sr_scales sc, int nl,
                                         int kind, const char *s, size_t sb, char *d, size_t db, tl_dim nm)
{
    tl_data_type st = p->src_md.data_type;
    switch (kind) {
    case TL__SR_PX_I8: return tl__sr8_pixels_nl(p, q, sc, nl, st, 1, TL__SR_PX_I8, s, sb, d, db, nm);
    case TL__SR_PX_I8_PLAIN:
        if (st == TL_U8) return tl__sr8_pixels_nl(p, q, sc, nl, TL_U8, 0, TL__SR_PX_I8, s, sb, d, db, nm);
        if (st == TL_S8) return tl__sr8_pixels_nl(p, q, sc, nl, TL_S8, 0, TL__SR_PX_I8, s, sb, d, db, nm);
        return tl__sr8_pixels_nl(p, q, sc, nl, TL_F32, 0, TL__SR_PX_I8, s, sb, d, db, nm);
    case TL__SR_PX_BF16: return tl__sr8_pixels_nl(p, q, sc, nl, TL_F32, 0, TL__SR_PX_BF16, s, sb, d, db, nm);
    default:
        if (st == TL_U8) return tl__sr8_pixels_nl(p, q, sc, nl, TL_U8, 0, TL__SR_PX_F32, s, sb, d, db, nm);
        return tl__sr8_pixels_nl(p, q, sc, nl, st, 0, TL__SR_PX_F32, s, sb, d, db, nm);
    }
}

/* The first pixels (returned: all but fewer than 8) of a converting
   tile that tl__sr_pixels_fits, its nl rows sb bytes apart, straight
   into s8, u8, bf16 or f32 pixels db bytes apart with their padding:
   each row's values converted into one byte of each pixel's 32-bit lane
   (s8, u8), one word of its 64-bit lane (bf16) or one float of its
   128-bit lane (f32). Through the stage, 3 rows into nChw16c, nChw8c or
   nChw4c took a pass to convert and one to widen (f32 -> s8 nchw ->
   nChw8c 1x3x1080x1920 at 0.8 of oneDNN on one thread, f32 -> bf16 at
   0.5-0.7, u8 -> f32 at 0.55-0.85, Zen 4). */
static tl_dim tl__sr8_pixels(const tl_reorder_plan *p, tl__sr_scales sc, int nl, const char *s, size_t sb,
                             char *d, size_t db, tl_dim nm)
{
    tl__sr_q q = tl__sr_q_of(p, sc);
    tl_data_type dt = p->dst_md.data_type, st = p->src_md.data_type;
    int plain = (st == TL_F32 || st == TL_U8 || st == TL_S8) && !q.extra;
    int kind = dt == TL_BF16 ? TL__SR_PX_BF16 : dt == TL_F32 ? TL__SR_PX_F32 : plain ? TL__SR_PX_I8_PLAIN : TL__SR_PX_I8;
    switch (nl) {
    case 1: return tl__sr8_pixels_kind(p, &q, sc, 1, kind, s, sb, d, db, nm);
    case 2: return tl__sr8_pixels_kind(p, &q, sc, 2, kind, s, sb, d, db, nm);
    case 3: return tl__sr8_pixels_kind(p, &q, sc, 3, kind, s, sb, d, db, nm);
    default: return tl__sr8_pixels_kind(p, &q, sc, 4, kind, s, sb, d, db, nm);
    }
}

/* The 32-bit lanes of a and b, then of c and d, as bytes: 128-bit lane
   L holds lanes 4L..4L+3 of a, of b, of c, then of d. */
TL__SR_INLINE simde__m256i tl__sr8_packs_i8(simde__m256i a, simde__m256i b, simde__m256i c,
                                            simde__m256i d, int u8)
{
    a = simde_mm256_packs_epi32(a, b);
    c = simde_mm256_packs_epi32(c, d);
    return u8 ? simde_mm256_packus_epi16(a, c) : simde_mm256_packs_epi16(a, c);
}

/* One row's part of 8 neighbouring groups (tl__sr_oct) from v, their
   Z values zs apart: dword k holds group k's 4 bytes. The packs leave
   lane L as [z][group 4L..4L+3]; a byte shuffle makes it [group][z]. */
TL__SR_INLINE simde__m256i tl__sr8_oct_row(const tl__sr_q *q, int extra, int u8, const float *v,
                                           size_t zs, simde__m256 s)
{
    const simde__m256i pick = simde_mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                                    0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    simde__m256i z[4];
    int k;
    TL__SR_UNROLL
    for (k = 0; k < 4; ++k) z[k] = tl__sr8_to_i8(q, extra, u8, simde_mm256_loadu_ps(v + (size_t)k * zs), s);
    return simde_mm256_shuffle_epi8(tl__sr8_packs_i8(z[0], z[1], z[2], z[3], u8), pick);
}

/* 64 bytes to d: lo, then hi. */
TL__SR_INLINE void tl__sr8_store64(char *d, simde__m256i lo, simde__m256i hi)
{
    simde_mm256_storeu_si256((simde__m256i *)(void *)d, lo);
    simde_mm256_storeu_si256((simde__m256i *)(void *)(d + 32), hi);
}

/* A row's 8 values of pair pr (tl__sr_pair) from row v; dense (a
   constant): they are neighbours, as every pair of a 1x1 kernel's. */
TL__SR_INLINE simde__m256 tl__sr8_pair_row(const float *v, const tl__sr_pair *pr, int dense)
{
    const int32_t *i = pr->idx;
    if (dense) return simde_mm256_loadu_ps(v + i[0]);
    return simde_mm256_setr_ps(v[i[0]], v[i[1]], v[i[2]], v[i[3]], v[i[4]], v[i[5]], v[i[6]], v[i[7]]);
}

/* The 16 rows of pair pr from src (rows rs apart, scales sc) to its two
   groups' 64 bytes. */
TL__SR_INLINE void tl__sr8_pair(const tl__sr_q *q, int extra, int u8, const float *src, size_t rs,
                                const float *sc, const tl__sr_pair *pr, int dense, char *d)
{
    simde__m256i R[4];
    int j, k;
    TL__SR_UNROLL
    for (j = 0; j < 4; ++j) {
        simde__m256i v[4];
        TL__SR_UNROLL
        for (k = 0; k < 4; ++k)
            v[k] = tl__sr8_to_i8(q, extra, u8, tl__sr8_pair_row(src + (size_t)(4 * j + k) * rs, pr, dense),
                                 simde_mm256_set1_ps(sc[4 * j + k]));
        R[j] = tl__sr8_packs_i8(v[0], v[1], v[2], v[3], u8);
    }
    /* group 0 from the low lanes, then group 1 from the high ones
       (literal selects: every -O level needs its immediates) */
    tl__sr8_store64(d + pr->to[0], simde_mm256_permute2x128_si256(R[0], R[1], 0x20),
                    simde_mm256_permute2x128_si256(R[2], R[3], 0x20));
    tl__sr8_store64(d + pr->to[1], simde_mm256_permute2x128_si256(R[0], R[1], 0x31),
                    simde_mm256_permute2x128_si256(R[2], R[3], 0x31));
}

/* Blocks of OIhw4i16o4i (and its kin) from an f32 source, without S,
   as tl__sr16_zipsrc_block does in AVX-512: for 8 neighbouring groups
   (the taps 0-7 of a 3x3 kernel's 9), 4 loads of a row hold their 32
   values, and after conversion the rows' dwords, transposed 8 x 8 for
   rows 0-7 and again for rows 8-15, are the groups' 64 bytes. Lone
   groups (the 9th tap; every group of a 1x1 kernel) go two at a time,
   their values picked one by one (AVX2's gather was slower) or, where
   they are neighbours (1x1), loaded, 4 rows' packs holding one group in
   each 128-bit lane. Every value is converted once; staged, the conversion
   into S and the transposes and zips out of it took 3 instructions a
   value (1.7 here). sc: the 16 rows' scales. */
TL__SR_INLINE void tl__sr8_zipsrc_body(const tl__sr_q *q, int extra, int u8, const float *src,
                                       size_t rs, const float *sc, const tl__sr_oct *oct, int noct,
                                       const tl__sr_pair *pair, int npair, size_t zs, char *d)
{
    int j, h, g;
    for (g = 0; g < noct; ++g) {
        const tl__sr_oct *o = &oct[g];
        TL__SR_UNROLL
        for (h = 0; h < 2; ++h) {
            simde__m256 r[8];
            TL__SR_UNROLL
            for (j = 0; j < 8; ++j)
                r[j] = simde_mm256_castsi256_ps(tl__sr8_oct_row(q, extra, u8, src + (size_t)(8 * h + j) * rs + o->c,
                                                                zs, simde_mm256_set1_ps(sc[8 * h + j])));
            tl__sr8_t8x8(r);
            TL__SR_UNROLL
            for (j = 0; j < 8; ++j) simde_mm256_storeu_ps((float *)(void *)(d + o->to[j] + 32 * (size_t)h), r[j]);
        }
    }
    /* Z values one apart (1x1): the groups of a block are every 4th
       column, so each pair's 8 values are neighbours */
    for (g = 0; g < npair; ++g) {
        if (zs == 1) tl__sr8_pair(q, extra, u8, src, rs, sc, &pair[g], 1, d);
        else tl__sr8_pair(q, extra, u8, src, rs, sc, &pair[g], 0, d);
    }
}

static void tl__sr8_zipsrc_block(const tl__sr_q *q, int u8, const float *src, size_t rs,
                                 const float *sc, const tl__sr_oct *oct, int noct,
                                 const tl__sr_pair *pair, int npair, size_t zs, char *d)
{
    if (q->extra) tl__sr8_zipsrc_body(q, 1, u8, src, rs, sc, oct, noct, pair, npair, zs, d);
    else tl__sr8_zipsrc_body(q, 0, u8, src, rs, sc, oct, noct, pair, npair, zs, d);
}

/* The shuffle's block lines in AVX2 (tl__shuf16_lines says what they
   do). A 64-byte dst vector is two 32-byte halves, each built from
   pieces: a piece is the lanes of one half that come from one 32-byte
   half of one source block, a lane permute (vpermd) of those 32 bytes
   and a blend. 8-byte lanes are pairs of 4-byte ones; 2-byte elements
   stay on the zips (vpermw has no AVX2 form). Permuting both halves of
   every source block for each dst half and choosing took twice the
   shuffles (f32 nChw16c, 232 channels, 1x232x7x7: 6 -> 8 us where the
   zips had run). */
#define TL__SHUF8_PIECES 8      /* pieces a half: one a lane at most */
typedef struct {
    simde__m256i k[2];                  /* half h: each lane's source lane, bits 0-2 */
    simde__m256 m[2][TL__SHUF8_PIECES]; /* half h's piece i: the lanes it fills */
    tl_dim off[2][TL__SHUF8_PIECES];    /* its 32 source bytes, from the pixel */
    int upper[2][TL__SHUF8_PIECES];     /* whether those are a source block's upper half */
    int n;                              /* pieces a half (the shorter list padded) */
} tl__shuf8_perm;

/* The lanes of a half whose bits are set in m (bit l: lane l). */
TL__SR_INLINE simde__m256 tl__shuf8_lanes(uint32_t m)
{
    const simde__m256i bit = simde_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    simde__m256i v = simde_mm256_and_si256(simde_mm256_set1_epi32((int32_t)(m & 0xff)), bit);
    return simde_mm256_castsi256_ps(simde_mm256_cmpeq_epi32(v, bit));
}

/* A dst block's permutes (idx: the source lane of each 4-byte lane) and
   its pieces, half 0's n0 then half 1's n1, as vectors. A half with
   fewer pieces than the other repeats a piece with no lanes (a blend of
   none), so that n is one count. */
static void tl__shuf8_perm_init(tl__shuf8_perm *pm, const int32_t *idx, const tl__shuf8_piece *pc,
                                int n0, int n1)
{
    int h, i, np[2];
    np[0] = n0;
    np[1] = n1;
    pm->n = n0 > n1 ? n0 : n1;
    for (h = 0; h < 2; ++h) {
        const tl__shuf8_piece *p = h ? pc + n0 : pc;
        pm->k[h] = simde_mm256_loadu_si256((const simde__m256i *)(const void *)(idx + 8 * h));
        for (i = 0; i < pm->n; ++i) {
            const tl__shuf8_piece *x = i < np[h] ? &p[i] : pc;
            pm->m[h][i] = tl__shuf8_lanes(i < np[h] ? x->lanes : 0);
            pm->off[h][i] = x->off;
            pm->upper[h][i] = x->upper;
        }
    }
}

/* The two halves of a dst vector at s into r from pm's n pieces a half;
   bytes < 64: only the first bytes of each source block are there,
   read through a buffer (a row's last pixels). Lanes no piece fills
   (the axis's padding) are zero. */
TL__SR_INLINE void tl__shuf8_gather(const char *s, const tl__shuf8_perm *pm, int n, size_t bytes,
                                    simde__m256i r[2])
{
    int i, h;
    TL__SR_UNROLL
    for (h = 0; h < 2; ++h) {
        simde__m256 a = simde_mm256_setzero_ps();
        TL__SR_UNROLL
        for (i = 0; i < n; ++i) {
            const char *p = s + pm->off[h][i];
            unsigned char buf[32] = { 0 };
            simde__m256i v;
            if (bytes < 64) {
                size_t have = (size_t)pm->upper[h][i] * 32, c = bytes > have ? bytes - have : 0;
                memcpy(buf, p, c < 32 ? c : 32);
                p = (const char *)buf;
            }
            v = simde_mm256_permutevar8x32_epi32(simde_mm256_loadu_si256((const simde__m256i *)(const void *)p),
                                                 pm->k[h]);
            a = simde_mm256_blendv_ps(a, simde_mm256_castsi256_ps(v), pm->m[h][i]);
        }
        r[h] = simde_mm256_castps_si256(a);
    }
}

/* tl__shuf16_lines_es in AVX2; n a constant up to TL__SHUF_LINE_FIXED,
   so that the pieces stay in registers. */
TL__SR_INLINE void tl__shuf8_lines_n(const char *s, char *d, tl_dim nv, tl_dim step, size_t tail,
                                     const tl__shuf8_perm *pm, int n, int nt, const char *pf)
{
    simde__m256i r[2];
    tl_dim q;
    for (q = 0; q < nv; ++q, s += step, d += step) {
        if (pf) TL__SIMD_PREFETCH_L2(pf + q * step);
        tl__shuf8_gather(s, pm, n, 64, r);
        tl__sr8_put(d, r[0], nt);
        tl__sr8_put(d + 32, r[1], nt);
    }
    if (tail > 0) {
        unsigned char buf[64];
        tl__shuf8_gather(s, pm, n, tail, r);
        simde_mm256_storeu_si256((simde__m256i *)(void *)buf, r[0]);
        simde_mm256_storeu_si256((simde__m256i *)(void *)(buf + 32), r[1]);
        memcpy(d, buf, tail);
    }
}

/* tl__shuf16_lines in AVX2, 4- and 8-byte elements: the dst block
   whose 4-byte lanes' sources are idx, from pieces pc (n0 for its first
   half, then n1). */
static void tl__shuf8_lines(const char *s, char *d, tl_dim nv, tl_dim step, size_t tail,
                            const int32_t *idx, const tl__shuf8_piece *pc, int n0, int n1, int nt,
                            const char *pf)
{
    tl__shuf8_perm pm;
    tl__shuf8_perm_init(&pm, idx, pc, n0, n1);
    switch (pm.n) {
    case 1: tl__shuf8_lines_n(s, d, nv, step, tail, &pm, 1, nt, pf); break;
    case 2: tl__shuf8_lines_n(s, d, nv, step, tail, &pm, 2, nt, pf); break;
    case 3: tl__shuf8_lines_n(s, d, nv, step, tail, &pm, 3, nt, pf); break;
    default: tl__shuf8_lines_n(s, d, nv, step, tail, &pm, pm.n, nt, pf); break;
    }
}
/* tl__sr_copy_runs_padded_n in 32-byte stores (n in 32s, plainly
   stored): the pieces of 16 bytes joined in pairs. An image's 3 channels
   from nhwc into nChw16c, 8 or 4c ran 1.5-2.2x faster than in 16-byte
   stores streamed (8x3x224x224, 1x3x1080x1920, 1x3x224x224; Zen 4). */
TL__SR_INLINE void tl__sr8_copy_runs_padded_n(const char *s, char *d, size_t nd, size_t n, tl__sr_runs rs,
                                              const char *s_end)
{
    size_t b;
    simde__m128i keep = tl__sr_first_bytes(nd % 16);
    tl_dim k;
    for (k = 0; k < rs.count; ++k, s += rs.s, d += rs.d) {
        TL__SR_UNROLL4
        for (b = 0; b < n; b += 32)
            simde_mm256_storeu_si256((simde__m256i *)(void *)(d + b),
                                     simde_mm256_set_m128i(tl__sr_run_piece(s, b + 16, nd, keep, s_end),
                                                           tl__sr_run_piece(s, b, nd, keep, s_end)));
    }
}

static void tl__sr8_copy_runs_padded(const char *s, char *d, size_t nd, size_t n, tl__sr_runs rs,
                                     const char *s_end)
{
    if (n == 32) tl__sr8_copy_runs_padded_n(s, d, nd, 32, rs, s_end);
    else if (n == 64) tl__sr8_copy_runs_padded_n(s, d, nd, 64, rs, s_end);
    else tl__sr8_copy_runs_padded_n(s, d, nd, n, rs, s_end);
}
#endif /* TL__SR_AVX2 */
#if TL__SR_AVX2 == 2
#undef SIMDE_X86_AVX_NATIVE
#undef SIMDE_X86_AVX2_NATIVE
#undef SIMDE_X86_F16C_NATIVE
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

/* ---- simd: the AVX-512 variants ----------------------------------------
   16 x 16 transposes of 4-byte elements, the one-pass transpose and zip
   of 8- and 16-bit weight blocks, and f32 -> s8/u8/bf16 conversions
   (below). Each transposed 4-byte block row is 64 bytes: a whole cache line
   of dst where rows are aligned, which also lets these blocks stream
   (their two 32-byte halves are stored back to back, so the
   write-combining buffer sends a full line). */
#if TL__SR_AVX512 == 2
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx,avx2,f16c,avx512f,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx,avx2,f16c,avx512f,avx512bw")
#endif
#define SIMDE_X86_AVX512F_NATIVE
#define SIMDE_X86_AVX512BW_NATIVE
#endif
#if TL__SR_AVX512
#if defined(__GNUC__) && !defined(__clang__)
/* g++ 12 reads GCC's own _mm512_undefined_ps (x = x) as uninitialised */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <simde/x86/avx512/add.h>
#include <simde/x86/avx512/or.h>
#include <simde/x86/avx512/and.h>
#include <simde/x86/avx512/broadcast.h>
#include <simde/x86/avx512/cast.h>
#include <simde/x86/avx512/cmp.h>
#include <simde/x86/avx512/cmpge.h>
#include <simde/x86/avx512/extract.h>
#include <simde/x86/avx512/insert.h>
#include <simde/x86/avx512/loadu.h>
#include <simde/x86/avx512/max.h>
#include <simde/x86/avx512/mov.h>
#include <simde/x86/avx512/mul.h>
#include <simde/x86/avx512/mullo.h>
#include <simde/x86/avx512/packs.h>
#include <simde/x86/avx512/packus.h>
#include <simde/x86/avx512/permutex2var.h>
#include <simde/x86/avx512/permutexvar.h>
#include <simde/x86/avx512/set1.h>
#include <simde/x86/avx512/setzero.h>
#include <simde/x86/avx512/shuffle.h>
#include <simde/x86/avx512/slli.h>
#include <simde/x86/avx512/srli.h>
#include <simde/x86/avx512/sub.h>
#include <simde/x86/avx512/storeu.h>
#include <simde/x86/avx512/unpackhi.h>
#include <simde/x86/avx512/unpacklo.h>

/* The 4 x 4 transpose of 128-bit lanes over a, b, c and d: lane j of
   the k-th to lane k of the j-th. */
TL__SR_INLINE void tl__sr16_lanes_t4x4(simde__m512 *a, simde__m512 *b, simde__m512 *c, simde__m512 *d)
{
    simde__m512 x0 = simde_mm512_shuffle_f32x4(*a, *b, 0x44), x1 = simde_mm512_shuffle_f32x4(*c, *d, 0x44);
    simde__m512 x2 = simde_mm512_shuffle_f32x4(*a, *b, 0xee), x3 = simde_mm512_shuffle_f32x4(*c, *d, 0xee);
    *a = simde_mm512_shuffle_f32x4(x0, x1, 0x88);
    *b = simde_mm512_shuffle_f32x4(x0, x1, 0xdd);
    *c = simde_mm512_shuffle_f32x4(x2, x3, 0x88);
    *d = simde_mm512_shuffle_f32x4(x2, x3, 0xdd);
}

/* The 16 x 16 block in r (row i in r[i]) transposed in place: 4 x 4
   transposes inside every 128-bit lane (TL__SR_LANES_T4X4) leave lane k
   of r[4g + c] holding column 4k + c of rows 4g..4g+3; then the lanes of
   r[c], r[4 + c], r[8 + c], r[12 + c] are transposed as a 4 x 4 matrix in
   two rounds of whole-lane shuffles. */
TL__SR_INLINE void tl__sr16_t16x16(simde__m512 *r)
{
    simde__m512 t[16];
    int c;
    TL__SR_LANES_T4X4(simde_mm512_, r, t, 16);
    TL__SR_UNROLL
    for (c = 0; c < 4; ++c) tl__sr16_lanes_t4x4(&r[c], &r[4 + c], &r[8 + c], &r[12 + c]);
}

/* Rows i of the block at s (16 elements each, ss bytes apart),
   transposed. */
TL__SR_INLINE void tl__sr16_load_t(const char *s, size_t ss, simde__m512 *r)
{
    int i;
    TL__SR_OPAQUE(ss);
    TL__SR_UNROLL
    for (i = 0; i < 16; ++i) r[i] = simde_mm512_loadu_ps((const float *)(const void *)(s + (size_t)i * ss));
    tl__sr16_t16x16(r);
}

/* nt: d is 64-byte aligned. */
TL__SR_INLINE void tl__sr16_store(char *d, simde__m512 v, int nt)
{
    if (nt) {
        simde_mm256_stream_ps((float *)(void *)d, simde_mm512_castps512_ps256(v));
        simde_mm256_stream_ps((float *)(void *)(d + 32),
                              simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(v), 1)));
    } else {
        simde_mm512_storeu_ps((float *)(void *)d, v);
    }
}

/* 64 bytes to p; nt: streamed (p 16-byte aligned), in halves as
   tl__sr8_put streams them (SIMDe has no 512-bit streaming store). */
TL__SR_INLINE void tl__sr16_put(char *p, simde__m512i v, int nt)
{
    if (!nt) {
        simde_mm512_storeu_si512((void *)p, v);
        return;
    }
    tl__sr8_put(p, simde_mm512_castsi512_si256(v), 1);
    tl__sr8_put(p + 32, simde_mm512_extracti64x4_epi64(v, 1), 1);
}

/* The rows of one transposed block to d, db bytes apart; nt constant. */
TL__SR_INLINE void tl__sr16_store16(char *d, size_t db, const simde__m512 *r, int nt)
{
    int i;
    TL__SR_OPAQUE(db);
    TL__SR_UNROLL
    for (i = 0; i < 16; ++i) tl__sr16_store(d + (size_t)i * db, r[i], nt);
}

/* tl__sr_strip for 4-byte elements in blocks of 16. */
static void tl__sr16_strip4(const char *s, size_t sb, char *d, size_t db, tl_dim mb, tl_dim lb,
                            int nt)
{
    tl_dim m, l;
    for (m = 0; m < mb; m += 16)
        for (l = 0; l < lb; l += 16) {
            simde__m512 r[16];
            char *dp = d + (size_t)m * db + (size_t)l * 4;
            tl__sr16_load_t(s + (size_t)m * 4 + (size_t)l * sb, sb, r);
            if (nt) tl__sr16_store16(dp, db, r, 1);
            else tl__sr16_store16(dp, db, r, 0);
        }
}

/* tl__sr8_scales8 for 16 columns. */
TL__SR_INLINE simde__m512 tl__sr16_scales16(tl__sr_scales sc, tl_dim l)
{
    return sc.sstep ? simde_mm512_loadu_ps(sc.sc + sc.sidx + l) : simde_mm512_set1_ps(sc.sc[sc.sidx]);
}

/* tl__sr8_tile_rows4 in blocks of 16, for nl a multiple of 16; the rows
   past the last whole block take the 8 x 8 version. */
static void tl__sr16_tile_rows4(const char *s, size_t sb, char *d, const size_t *rows, tl_dim nm,
                                tl_dim nl, tl__sr_scales sc)
{
    tl_dim mb = nm / 16 * 16, m, l;
    int i;
    for (l = 0; l < nl; l += 16)
        for (m = 0; m < mb; m += 16) {
            simde__m512 r[16], v = sc.sc ? tl__sr16_scales16(sc, l) : simde_mm512_setzero_ps();
            tl__sr16_load_t(s + (size_t)m * 4 + (size_t)l * sb, sb, r);
            TL__SR_UNROLL
            for (i = 0; i < 16; ++i)
                tl__sr16_store(d + rows[m + i] + (size_t)l * 4,
                               sc.sc ? simde_mm512_mul_ps(v, r[i]) : r[i], 0);
        }
    if (mb < nm) tl__sr8_tile_rows4(s + (size_t)mb * 4, sb, d, rows + mb, nm - mb, nl, sc);
}

/* r[0..15] scaled by the 16 scales at sv, lane by lane, each product
   rounded to f32 (the core's tl__quantize) as it stands. */
TL__SR_INLINE void tl__sr16_scale16(simde__m512 *r, const float *sv)
{
    simde__m512 f = simde_mm512_loadu_ps(sv);
    int j;
    TL__SR_UNROLL
    for (j = 0; j < 16; ++j) {
        r[j] = simde_mm512_mul_ps(f, r[j]);
        TL__SR_ROUNDED(r[j]);
    }
}

/* One block of tl__sr16_tiles4 or of tl__sr16_tiles_convert's bodies:
   rows j at b + off[j], 16 values of type T each, loaded whole as f32
   (tl__sr16_f32_at), scaled by column (csv) as they load, transposed,
   scaled by row (rsv: the lanes now); its first mm columns to d, db
   bytes apart, by PUT(d, db, r, mm, nt). Inlined with nt constant.
   NAME##_lanes loads only the lanes of a mask from f32 rows (T f32):
   the edge's blocks whose whole rows would pass the source's end. */
#define TL__SR16_TILES_BLOCK_DEF(NAME, T, PUT) \
    TL__SR_INLINE void NAME##_lanes(const char *b, const size_t *off, char *d, size_t db, int mm, int nt, \
                                    const float *rsv, const float *csv, simde__mmask16 lanes) \
    { \
        simde__m512 r[16]; \
        int j; \
        TL__SR_UNROLL \
        for (j = 0; j < 16; ++j) \
            r[j] = (T) != TL_F32 || lanes == 0xffff ? tl__sr16_f32_at(T, b + off[j]) \
                                                    : _mm512_maskz_loadu_ps(lanes, b + off[j]); \
        if (csv) tl__sr16_scale16(r, csv); \
        tl__sr16_t16x16(r); \
        if (rsv) tl__sr16_scale16(r, rsv); \
        TL__SR_OPAQUE(db); \
        PUT(d, NULL, db, r, mm, nt); \
    } \
    TL__SR_INLINE void NAME(const char *b, const size_t *off, char *d, size_t db, int mm, int nt, \
                            const float *rsv, const float *csv) \
    { \
        NAME##_lanes(b, off, d, db, mm, nt, rsv, csv, (simde__mmask16)0xffff); \
    }

/* Where a PUT puts row j: d + rows[j], or db bytes apart without a
   table (inlined with rows a constant, so either form costs nothing). */
TL__SR_INLINE char *tl__sr16_row_at(char *d, const size_t *rows, size_t db, int j)
{
    return d + (rows ? rows[j] : (size_t)j * db);
}

/* PUT of TL__SR16_TILES_BLOCK_DEF for f32 rows. */
TL__SR_INLINE void tl__sr16_put_f32_rows(char *d, const size_t *rows, size_t db, const simde__m512 *r, int mm,
                                         int nt)
{
    int j;
    TL__SR_UNROLL
    for (j = 0; j < 16; ++j)
        if (j < mm) tl__sr16_store(tl__sr16_row_at(d, rows, db, j), r[j], nt);
}

/* lo's 8 floats, then hi's (vinsertf64x4: SIMDe emulates vinsertf32x8
   without AVX512DQ, through the stack, which made a first version of
   tl__sr16_side_runs 5x slower than the AVX2 loop). */
TL__SR_INLINE simde__m512 tl__sr16_join(simde__m256 lo, simde__m256 hi)
{
    return simde_mm512_castpd_ps(simde_mm512_insertf64x4(simde_mm512_castps_pd(simde_mm512_castps256_ps512(lo)),
                                                         simde_mm256_castps_pd(hi), 1));
}

/* 16 values of type t at p as f32: f32 loaded, other types widened by
   AVX2 in two halves (tl__sr8_load; this SIMDe has no 512-bit widening
   conversions). t is a constant wherever this inlines. */
TL__SR_INLINE simde__m512 tl__sr16_f32_at(tl_data_type t, const char *p)
{
    simde__m256 v[2];
    if (t == TL_F32) return simde_mm512_loadu_ps((const float *)(const void *)p);
    tl__sr8_load(t, p, v, 2);
    return tl__sr16_join(v[0], v[1]);
}

TL__SR16_TILES_BLOCK_DEF(tl__sr16_tiles_block, TL_F32, tl__sr16_put_f32_rows)

static TL__SR_TILES_BODY(tl__sr16_tiles4, 4, 16, 16, tl__sr16_tiles_block)

/* The blocks of side-by-side tiles converted on the way
   (tl__sr16_tiles_convert) that would pass s_end or lack rows: their
   rows' first mm values, of type t (es bytes), scaled (by row: rsv; by
   column: csv) and converted by the core into type u. */
static void tl__sr_tiles_edge_cvt(tl_data_type t, tl_data_type u, size_t es, const char *b, const size_t *off,
                                  int rows, char *d, size_t db, int mm, const float *rsv, const float *csv)
{
    float v[16];
    int j, m;
    for (j = 0; j < rows; ++j) {
        tl__load_f32(t, b + off[j], es, mm, v);
        if (rsv || csv) {
            for (m = 0; m < mm; ++m) v[m] = (rsv ? rsv[j] : csv[m]) * v[m];
            TL__FP_BARRIER(v);
        }
        tl__store_f32(u, v, d + (size_t)j * tl_dt_size(u), db, mm);
    }
}

/* A TL__SR_TILES_BODY converting T values (ES bytes) into U values (DES
   bytes): its blocks put their rows by PUT, its edge goes through the
   core, save f32 blocks with all their rows, which load only their mm
   columns (the last tile of a 3x3 kernel's 9 taps: goihw -> Goihw16g
   64x1x1x3x3 f32 -> s8 spent 44% of its time in the core's stores). */
#define TL__SR16_TILES_CVT_DEF(NAME, T, ES, U, DES, PUT) \
    TL__SR16_TILES_BLOCK_DEF(NAME##_block, T, PUT) \
    static void NAME##_edge(size_t es, const char *b, const size_t *off, int rows, char *d, size_t db, int mm, \
                            const float *rsv, const float *csv) \
    { \
        if ((T) == TL_F32 && rows == 16) \
            NAME##_block_lanes(b, off, d, db, mm, 0, rsv, csv, (simde__mmask16)((1u << mm) - 1)); \
        else \
            tl__sr_tiles_edge_cvt(T, U, es, b, off, rows, d, db, mm, rsv, csv); \
    } \
    static TL__SR_TILES_BODY_AS(NAME, ES, DES, 16, 16, NAME##_block, NAME##_edge)

TL__SR16_TILES_CVT_DEF(tl__sr16_tiles_bf16, TL_BF16, 2, TL_F32, 4, tl__sr16_put_f32_rows)
TL__SR16_TILES_CVT_DEF(tl__sr16_tiles_f16, TL_F16, 2, TL_F32, 4, tl__sr16_put_f32_rows)
TL__SR16_TILES_CVT_DEF(tl__sr16_tiles_s8, TL_S8, 1, TL_F32, 4, tl__sr16_put_f32_rows)
TL__SR16_TILES_CVT_DEF(tl__sr16_tiles_u8, TL_U8, 1, TL_F32, 4, tl__sr16_put_f32_rows)
TL__SR16_TILES_CVT_DEF(tl__sr16_tiles_f32, TL_F32, 4, TL_F32, 4, tl__sr16_put_f32_rows)

TL__SR_ZIP_DEF(tl__sr16_zip, simde__m512i, simde_mm512_)

/* One block of tl__sr16_tiles2 or tl__sr16_tiles1: tl__sr8_tiles_block_es
   with four lanes, rows j, j + B, j + 2 B and j + 3 B in register j % B,
   so each dst row of the block is a whole line; nt: streamed. */
TL__SR_INLINE simde__m512i tl__sr16_rows4(const char *b, const size_t *off, int j, int B)
{
    simde__m512i r = simde_mm512_castsi128_si512(tl__sr_rows1(b, off, j, B));
    r = simde_mm512_inserti32x4(r, tl__sr_rows1(b, off, j + B, B), 1);
    r = simde_mm512_inserti32x4(r, tl__sr_rows1(b, off, j + 2 * B, B), 2);
    return simde_mm512_inserti32x4(r, tl__sr_rows1(b, off, j + 3 * B, B), 3);
}

TL__SR_INLINE TL__SR_TILES_BLOCK_DEF(tl__sr16_tiles_block_es, simde__m512i, tl__sr16_zip, tl__sr16_rows4, tl__sr16_put)

TL__SR_TILES_BLOCK_ES(tl__sr16_tiles_block2, tl__sr16_tiles_block_es, 2)
TL__SR_TILES_BLOCK_ES(tl__sr16_tiles_block1, tl__sr16_tiles_block_es, 1)

static TL__SR_TILES_BODY(tl__sr16_tiles2, 2, 32, 8, tl__sr16_tiles_block2)
static TL__SR_TILES_BODY(tl__sr16_tiles1, 1, 64, 16, tl__sr16_tiles_block1)

/* The transpose of S and the zip of T in one pass, for blocks of 16 R
   rows whose Z loop (zs columns of S apart) sits inside R in dst:
   8-bit values with a Z of 4 (4i16o4i), 16-bit ones with a Z of 2
   (8i16o2i). m (<= 16) groups, the columns c + j of S (j < m) starting
   a group each, whose 64 dst bytes go to d + to[j]. The vector of row o
   (rows sb bytes apart) holds, lane by lane, 16 bytes from the Z rows'
   columns: for 8-bit values lane z from column c + z zs, for 16-bit ones
   lanes 2z and 2z + 1 from column c + z zs. Four rounds of unpacks then
   transpose each lane as 16 rows of 16 (8) values, which leaves: 8-bit,
   lane z of vector j holding the R values of column c + j + z zs, the
   four rows of group j, interleaved as [R][Z] by a dword permute and a
   byte shuffle (k[0], k[1]); 16-bit, the 8 R values o < 8 (vector 2e)
   and o >= 8 (2e + 1) of column e of every lane, so that group j draws
   from vectors 2 (j % 8) and 2 (j % 8) + 1 through one two-source word
   permute (k[j / 8]). The loads may read up to 31 bytes past S's last
   column. Inlined with es constant. */
TL__SR_INLINE void tl__sr16_onepass_rows(int es, const char *S, size_t sb, size_t c, size_t zs,
                                         int m, char *d, const size_t *to, const simde__m512i *k)
{
    simde__m512i r[16], x[16];
    int o, g, i, j;
    TL__SR_UNROLL
    for (o = 0; o < 16; ++o) {
        const char *row = S + (size_t)o * sb + c * (size_t)es;
        if (es == 1) {
            simde__m512i v = simde_mm512_castsi128_si512(simde_mm_loadu_si128((const simde__m128i *)(const void *)row));
            v = simde_mm512_inserti32x4(v, simde_mm_loadu_si128((const simde__m128i *)(const void *)(row + zs)), 1);
            v = simde_mm512_inserti32x4(v, simde_mm_loadu_si128((const simde__m128i *)(const void *)(row + 2 * zs)), 2);
            r[o] = simde_mm512_inserti32x4(v, simde_mm_loadu_si128((const simde__m128i *)(const void *)(row + 3 * zs)), 3);
        } else {
            r[o] = simde_mm512_inserti64x4(simde_mm512_castsi256_si512(simde_mm256_loadu_si256((const simde__m256i *)(const void *)row)),
                                           simde_mm256_loadu_si256((const simde__m256i *)(const void *)(row + 2 * zs)), 1);
        }
    }
    TL__SR_UNROLL
    for (g = 0; g < 4; ++g) {
        TL__SR_UNROLL
        for (i = 0; i < 8; ++i) {
            x[2 * i] = es == 1 ? simde_mm512_unpacklo_epi8(r[i], r[i + 8]) : simde_mm512_unpacklo_epi16(r[i], r[i + 8]);
            x[2 * i + 1] = es == 1 ? simde_mm512_unpackhi_epi8(r[i], r[i + 8]) : simde_mm512_unpackhi_epi16(r[i], r[i + 8]);
        }
        TL__SR_UNROLL
        for (i = 0; i < 16; ++i) r[i] = x[i];
    }
    TL__SR_UNROLL
    for (j = 0; j < 16; ++j) {
        if (j >= m) break;
        simde_mm512_storeu_si512((void *)(d + to[j]),
                                 es == 1 ? simde_mm512_shuffle_epi8(simde_mm512_permutexvar_epi32(k[0], r[j]), k[1])
                                         : simde_mm512_permutex2var_epi16(r[2 * (j % 8)], k[j / 8], r[2 * (j % 8) + 1]));
    }
}

/* One block's S (ncols columns a row) into dst through
   tl__sr16_onepass_rows, nb runs of neighbouring columns that start
   groups (run b: its first column in the low 16 bits of runs[b], its
   length above), col holding each such column's dst byte offset. The
   shuffle constants are made here, once per block (GCC builds vector
   constants lane by lane where they are written). 8-bit: dword z of
   every lane to lane z, then each lane's 4 x 4 bytes transposed;
   16-bit, for columns of lanes 0 and 2 (h = 0) or 1 and 3 (h = 1):
   word 2o + z of the output from lane 2z + h, value o % 8, of the
   first vector (o < 8) or the second. */
static void tl__sr16_onepass_block(int es, const char *S, tl_dim ncols, size_t zs, char *d,
                                   const uint32_t *runs, int nb, const size_t *col)
{
    static const int8_t bytes[16] = { 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 };
    int16_t words[2][32];
    simde__m512i k[2];
    int b, h, w;
    if (es == 1) {
        k[0] = simde_mm512_loadu_si512((const void *)tl__sr16_dwords_t4x4);
        k[1] = simde_mm512_broadcast_i32x4(simde_mm_loadu_si128((const simde__m128i *)(const void *)bytes));
    } else {
        for (h = 0; h < 2; ++h) {
            for (w = 0; w < 32; ++w) words[h][w] = (int16_t)(w / 16 * 32 + (2 * (w % 2) + h) * 8 + w / 2 % 8);
            k[h] = simde_mm512_loadu_si512((const void *)words[h]);
        }
    }
    for (b = 0; b < nb; ++b) {
        size_t c = runs[b] & 0xffff;
        int m = (int)(runs[b] >> 16);
        if (es == 1) tl__sr16_onepass_rows(1, S, (size_t)ncols, c, zs, m, d, col + c, k);
        else tl__sr16_onepass_rows(2, S, (size_t)ncols * 2, c, zs, m, d, col + c, k);
    }
}

/* Whether tl__sr16_columns takes pieces of es-byte values sm apart. */
static int tl__sr16_columns_fit(int es, int sm)
{
    return sm == 1 || (es == 4 && (sm == 2 || sm == 4)) || es * sm == 2 || es * sm == 4;
}

/* A column's piece: 16 values of es bytes sm apart from p, in the low
   16 es bytes. Values sm apart load under a mask, which reads nothing
   between them or past the last, and narrow to the piece (the low byte
   or word of each dword or word), or, 4-byte ones, are picked by
   two-source permutes (AVX-512's gather took f32 OIhw4i16o4i -> oihw
   256x256x3x3 twice as long as this, Zen 4). Inlined with es and sm
   constant. */
TL__SR_INLINE simde__m512i tl__sr16_piece(int es, int sm, const char *p)
{
    if (es == 4 && sm == 1) return simde_mm512_loadu_si512((const void *)p);
    if (es == 4) {      /* every sm-th dword of sm vectors, picked in pairs of vectors */
        simde__m512i k = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
        __mmask16 m = sm == 2 ? 0x5555 : 0x1111;
        simde__m512i a = _mm512_maskz_loadu_epi32(m, p), b = _mm512_maskz_loadu_epi32(m, p + 64), c, e;
        if (sm == 2) return simde_mm512_permutex2var_epi32(a, k, b);
        k = simde_mm512_add_epi32(k, k);
        c = _mm512_maskz_loadu_epi32(m, p + 128);
        e = _mm512_maskz_loadu_epi32(m, p + 192);
        return simde_mm512_inserti64x4(simde_mm512_permutex2var_epi32(a, k, b),
                                       simde_mm512_castsi512_si256(simde_mm512_permutex2var_epi32(c, k, e)), 1);
    }
    if (es == 2 && sm == 1) return simde_mm512_castsi256_si512(simde_mm256_loadu_si256((const simde__m256i *)(const void *)p));
    if (es == 2) return simde_mm512_castsi256_si512(_mm512_cvtepi32_epi16(_mm512_maskz_loadu_epi16((__mmask32)0x55555555u, p)));
    if (sm == 1) return simde_mm512_castsi128_si512(simde_mm_loadu_si128((const simde__m128i *)(const void *)p));
    if (sm == 2)
        return simde_mm512_castsi128_si512(_mm256_castsi256_si128(_mm512_cvtepi16_epi8(_mm512_maskz_loadu_epi8((__mmask64)0x55555555u, p))));
    return simde_mm512_castsi128_si512(_mm512_cvtepi32_epi8(_mm512_maskz_loadu_epi8((__mmask64)0x1111111111111111ull, p)));
}

/* Rows from columns (tl__sr_columns_step) of 1-, 2- or 4-byte values,
   16 rows: the w <= 64 / es columns at off (column c's piece of 16
   values from s + off[c] values, tl__sr16_piece) into 16 rows at d, db
   bytes apart, one vector a row. es 4: a piece a register, transposed
   as 16 x 16 (tl__sr16_t16x16). es 1: four a register, column 16q + j
   in lane q of register j, each lane transposed as 16 x 16 bytes by the
   zip rounds, which leave row i's 64 columns in register bitrev(i). es
   2: two a register, columns j and 16 + j in its halves (lanes 0, 1:
   rows 0-7, 8-15 of column j), the zip rounds transposing each lane as
   8 x 8 words over registers 0-7 and over 8-15, after which register
   bitrev(i) of the first eight holds row i's columns 0-7 and 16-23 in
   lanes 0 and 2 and row 8 + i's in lanes 1 and 3, the second eight the
   same for columns 8-15 and 24-31; two lane shuffles join each row. A
   group of fewer columns (full 0) loads its last again in their place
   and stores under a mask. Inlined with es, sm and full constant. */
TL__SR_INLINE void tl__sr16_columns_group(int es, int sm, int full, const char *s, const int32_t *off, tl_dim w,
                                          char *d, size_t db)
{
    simde__m512i r[16], t[16], *r8 = r + 8;
    simde__m512 f[16];
    int j, i;
    TL__SR_UNROLL
    for (j = 0; j < 16; ++j) {
#define TL__SR_COLUMN(c) tl__sr16_piece(es, sm, s + (size_t)off[full || (c) < w ? (c) : w - 1] * (size_t)es)
        if (es == 4) {
            f[j] = simde_mm512_castsi512_ps(TL__SR_COLUMN(j));
        } else if (es == 2) {
            r[j] = simde_mm512_inserti64x4(TL__SR_COLUMN(j), simde_mm512_castsi512_si256(TL__SR_COLUMN(16 + j)), 1);
        } else {
            simde__m512i v = TL__SR_COLUMN(j);
            v = simde_mm512_inserti32x4(v, simde_mm512_castsi512_si128(TL__SR_COLUMN(16 + j)), 1);
            v = simde_mm512_inserti32x4(v, simde_mm512_castsi512_si128(TL__SR_COLUMN(32 + j)), 2);
            r[j] = simde_mm512_inserti32x4(v, simde_mm512_castsi512_si128(TL__SR_COLUMN(48 + j)), 3);
        }
#undef TL__SR_COLUMN
    }
    if (es == 4) {
        tl__sr16_t16x16(f);
    } else if (es == 2) {
        TL__SR_ZIP_ROUNDS(tl__sr16_zip, r, t, 2, 8);
        TL__SR_ZIP_ROUNDS(tl__sr16_zip, r8, t, 2, 8);
    } else {
        TL__SR_ZIP_ROUNDS(tl__sr16_zip, r, t, 1, 16);
    }
    TL__SR_UNROLL
    for (i = 0; i < 16; ++i) {
        simde__m512i v;
        void *row = (void *)(d + (size_t)i * db);
        if (es == 4) {
            v = simde_mm512_castps_si512(f[i]);
        } else if (es == 2) {   /* lanes 0, 2 (row i < 8) or 1, 3 of both eights, in turn */
            int k = tl__sr_bitrev(i % 8, 8);
            if (i < 8) v = simde_mm512_shuffle_i32x4(r[k], r8[k], 0x88);
            else v = simde_mm512_shuffle_i32x4(r[k], r8[k], 0xdd);
            v = simde_mm512_shuffle_i32x4(v, v, 0xd8);
        } else {
            v = r[tl__sr_bitrev(i, 16)];
        }
        if (full) simde_mm512_storeu_si512(row, v);
        else _mm512_mask_storeu_epi8(row, (__mmask64)(((uint64_t)1 << (w * es)) - 1), v);   /* w es < 64 */
    }
}

/* n columns, as tl__sr16_columns_group takes them (tl__sr16_columns_fit). */
static void tl__sr16_columns(int es, int sm, const char *s, const int32_t *off, tl_dim n, char *d, size_t db)
{
#define TL__SR_COLUMNS_CASE(ES, SM) \
    case (ES) * 8 + (SM): \
        for (c = 0; c + 64 / (ES) <= n; c += 64 / (ES), d += 64) \
            tl__sr16_columns_group(ES, SM, 1, s, off + c, 64 / (ES), d, db); \
        if (c < n) tl__sr16_columns_group(ES, SM, 0, s, off + c, n - c, d, db); \
        break;
    tl_dim c;
    switch (es * 8 + sm) {
    TL__SR_COLUMNS_CASE(1, 1)
    TL__SR_COLUMNS_CASE(1, 2)
    TL__SR_COLUMNS_CASE(1, 4)
    TL__SR_COLUMNS_CASE(2, 1)
    TL__SR_COLUMNS_CASE(2, 2)
    TL__SR_COLUMNS_CASE(4, 1)
    TL__SR_COLUMNS_CASE(4, 2)
    default: TL__SR_COLUMNS_CASE(4, 4)
    }
#undef TL__SR_COLUMNS_CASE
}

/* f32 -> s8 and u8, 16 values a vector (the other pairs stay on AVX2):
   the upper clamp (255, above every 8-bit top, below 2^31, past which
   vcvtps2dq gives INT_MIN), then vcvtps2dq rounding half to even
   whatever MXCSR says, NaN lanes zeroed by the conversion's mask; the
   packs' saturation does the rest (INT_MIN and every other negative
   below -128 or 0). Four operations for 16 values where rounding by the
   1.5 * 2^23 sum took five: f32 -> s8 OIhw4i16o4i 256x256x3x3 with
   per-O scales 77 -> 71 us (Zen 4). SIMDe 0.7.4 has neither AVX-512
   vcvtps2dq nor vminps, so the compiler's own intrinsics stand in: this
   part compiles only where SIMDe maps AVX-512 to them (TL__SR_AVX512),
   simde__m512 then being __m512. */
TL__SR_INLINE simde__m512i tl__sr16_to_i32(simde__m512 v)
{
    simde__mmask16 number = simde_mm512_cmp_ps_mask(v, v, SIMDE_CMP_ORD_Q);
    return _mm512_maskz_cvt_roundps_epi32(number, _mm512_min_ps(v, _mm512_set1_ps(255.f)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

/* Four vectors from tl__sr16_to_i32 as 64 saturated bytes, lane L
   holding lane L of a, b, c and d, one dword each (what the packs do). */
TL__SR_INLINE simde__m512i tl__sr16_packs_i8(simde__m512i a, simde__m512i b, simde__m512i c,
                                             simde__m512i d, int u8)
{
    simde__m512i ab = simde_mm512_packs_epi32(a, b), cd = simde_mm512_packs_epi32(c, d);
    return u8 ? simde_mm512_packus_epi16(ab, cd) : simde_mm512_packs_epi16(ab, cd);
}

/* The same 64 bytes in order: a dword permute puts the lanes back.
   Three packs and a permute narrow 64 lanes where vpmovsdb would take
   two micro-ops for every 16. */
TL__SR_INLINE simde__m512i tl__sr16_pack_i8(simde__m512i a, simde__m512i b, simde__m512i c,
                                            simde__m512i d, int u8)
{
    return simde_mm512_permutexvar_epi32(simde_mm512_loadu_si512((const void *)tl__sr16_dwords_t4x4),
                                         tl__sr16_packs_i8(a, b, c, d, u8));
}

/* f32 -> bf16 as tl__sr8_bf16 rounds: to nearest even by adding 0x7fff
   and the lowest kept bit, NaN quieted instead; the bf16 values are the
   top halves of the 32-bit lanes returned. */
TL__SR_INLINE simde__m512i tl__sr16_round_bf16(simde__m512 v)
{
    simde__m512i u = simde_mm512_castps_si512(v), one = simde_mm512_set1_epi32(1);
    simde__m512i r = simde_mm512_add_epi32(u, simde_mm512_set1_epi32(0x7fff));
    r = simde_mm512_mask_add_epi32(r, simde_mm512_test_epi32_mask(u, simde_mm512_set1_epi32(0x10000)), r, one);
    return simde_mm512_mask_or_epi32(r, simde_mm512_cmp_ps_mask(v, v, SIMDE_CMP_UNORD_Q), u,
                                     simde_mm512_set1_epi32(0x400000));
}

/* 32 values of a and b in bf16, word w the top half of a's word idx[w]
   (b's from 32). */
TL__SR_INLINE simde__m512i tl__sr16_bf16_pick(simde__m512 a, simde__m512 b, simde__m512i idx)
{
    return simde_mm512_permutex2var_epi16(tl__sr16_round_bf16(a), idx, tl__sr16_round_bf16(b));
}

/* 32 values, a's then b's, in bf16: one two-source word permute picks
   the top halves (SIMDe 0.7.4 has no truncating vpmovdw). A byte
   shuffle and a lane permute for each 16 values before: the Zen 4
   converts at 5 cycles a vector, bound by these operations. */
TL__SR_INLINE simde__m512i tl__sr16_to_bf16x2(simde__m512 a, simde__m512 b)
{
    return tl__sr16_bf16_pick(a, b, simde_mm512_loadu_si512((const void *)tl__sr16_bf16_tops));
}

/* PUTs of TL__SR16_TILES_BLOCK_DEF for bf16 rows: each of the first mm
   rounded to 16 bf16 values (32 bytes: half a line, so never
   streamed), two rows a conversion by PAIR (tl__sr16_to_bf16x2, or
   AVX512-BF16's tl__sr16_to_bf16x2n). */
#define TL__SR16_PUT_BF16_DEF(NAME, PAIR) \
    TL__SR_INLINE void NAME(char *d, const size_t *rows, size_t db, const simde__m512 *r, int mm, int nt) \
    { \
        int j; \
        TL__SR_UNROLL \
        for (j = 0; j < 16; j += 2) { \
            simde__m512i w = PAIR(r[j], r[j + 1]); \
            if (!rows && db == 32 && j + 1 < mm) { /* two rows back to back: one store */ \
                tl__sr16_store(d + (size_t)j * 32, simde_mm512_castsi512_ps(w), nt); \
                continue; \
            } \
            if (j < mm) \
                simde_mm256_storeu_si256((void *)tl__sr16_row_at(d, rows, db, j), simde_mm512_castsi512_si256(w)); \
            if (j + 1 < mm) \
                simde_mm256_storeu_si256((void *)tl__sr16_row_at(d, rows, db, j + 1), \
                                         simde_mm512_extracti64x4_epi64(w, 1)); \
        } \
    }

TL__SR16_PUT_BF16_DEF(tl__sr16_put_bf16_rows, tl__sr16_to_bf16x2)

TL__SR16_TILES_CVT_DEF(tl__sr16_tiles_to_bf16, TL_F32, 4, TL_BF16, 2, tl__sr16_put_bf16_rows)

/* Rows for tl__sr16_put_s8_rows and tl__sr16_put_u8_rows: four at a
   time through tl__sr16_to_i32 (the converter's rounding, saturation and
   NaN -> 0) and tl__sr16_pack_i8, whose 64 bytes are the four rows' 16
   in order: one store where the rows follow one another (nChw16c's
   pixels; streamed where nt), else a quarter of a line each, never
   streamed. */
TL__SR_INLINE void tl__sr16_put_i8_rows(char *d, const size_t *rows, size_t db, const simde__m512 *r, int mm,
                                        int u8, int nt)
{
    int j;
    TL__SR_UNROLL
    for (j = 0; j < 16; j += 4) {
        simde__m512i h = tl__sr16_pack_i8(tl__sr16_to_i32(r[j]), tl__sr16_to_i32(r[j + 1]), tl__sr16_to_i32(r[j + 2]),
                                          tl__sr16_to_i32(r[j + 3]), u8);
        if (!rows && db == 16 && j + 3 < mm) {
            tl__sr16_store(d + (size_t)j * 16, simde_mm512_castsi512_ps(h), nt);
            continue;
        }
        if (j < mm)
            simde_mm_storeu_si128((simde__m128i *)(void *)tl__sr16_row_at(d, rows, db, j),
                                  simde_mm512_castsi512_si128(h));
        if (j + 1 < mm)
            simde_mm_storeu_si128((simde__m128i *)(void *)tl__sr16_row_at(d, rows, db, j + 1),
                                  simde_mm512_extracti32x4_epi32(h, 1));
        if (j + 2 < mm)
            simde_mm_storeu_si128((simde__m128i *)(void *)tl__sr16_row_at(d, rows, db, j + 2),
                                  simde_mm512_extracti32x4_epi32(h, 2));
        if (j + 3 < mm)
            simde_mm_storeu_si128((simde__m128i *)(void *)tl__sr16_row_at(d, rows, db, j + 3),
                                  simde_mm512_extracti32x4_epi32(h, 3));
    }
}

/* PUTs of TL__SR16_TILES_BLOCK_DEF for s8 and u8 rows. */
TL__SR_INLINE void tl__sr16_put_s8_rows(char *d, const size_t *rows, size_t db, const simde__m512 *r, int mm,
                                        int nt)
{
    tl__sr16_put_i8_rows(d, rows, db, r, mm, 0, nt);
}

TL__SR_INLINE void tl__sr16_put_u8_rows(char *d, const size_t *rows, size_t db, const simde__m512 *r, int mm,
                                        int nt)
{
    tl__sr16_put_i8_rows(d, rows, db, r, mm, 1, nt);
}

TL__SR16_TILES_CVT_DEF(tl__sr16_tiles_to_s8, TL_F32, 4, TL_S8, 1, tl__sr16_put_s8_rows)
TL__SR16_TILES_CVT_DEF(tl__sr16_tiles_to_u8, TL_F32, 4, TL_U8, 1, tl__sr16_put_u8_rows)

/* ---- dwords of four rows in AVX-512 (tl__sr_dwords_pick) -----------
   64 bytes of dst a vector: 16 values (X) of 4 rows (L), a row's value
   byte r of a dword. */

/* Lane l of v holding values 4l..4l+3 of rows 0..3, a dword a row (as
   the packs leave them), turned into those values' dwords. */
TL__SR_INLINE simde__m512i tl__sr16_dw_zip(simde__m512i v)
{
    return simde_mm512_shuffle_epi8(v, simde_mm512_loadu_si512((const void *)tl__sr16_bytes_t4x4));
}

/* 16 f32 values of 4 rows rs bytes apart, times *v (NULL: none), in
   s8 (u8) dwords: the converter's rounding, saturation and NaN -> 0
   (tl__sr16_to_i32). */
TL__SR_INLINE simde__m512i tl__sr16_dw_f32(const char *s, size_t rs, const simde__m512 *v, int u8)
{
    simde__m512 f[4];
    simde__m512i r[4];
    int k;
    TL__SR_DW_ROWS(simde_mm512_, f, s, rs, v);
    TL__SR_UNROLL
    for (k = 0; k < 4; ++k) r[k] = tl__sr16_to_i32(f[k]);
    return tl__sr16_dw_zip(tl__sr16_packs_i8(r[0], r[1], r[2], r[3], u8));
}

/* 16 bytes of 4 rows rs bytes apart as dwords. */
TL__SR_INLINE simde__m512i tl__sr16_dw_bytes(const char *s, size_t rs)
{
    simde__m512i z = simde_mm512_castsi128_si512(simde_mm_loadu_si128((const void *)s));
    z = simde_mm512_inserti32x4(z, simde_mm_loadu_si128((const void *)(s + rs)), 1);
    z = simde_mm512_inserti32x4(z, simde_mm_loadu_si128((const void *)(s + 2 * rs)), 2);
    z = simde_mm512_inserti32x4(z, simde_mm_loadu_si128((const void *)(s + 3 * rs)), 3);
    return tl__sr16_dw_zip(simde_mm512_permutexvar_epi32(simde_mm512_loadu_si512((const void *)tl__sr16_dwords_t4x4), z));
}

/* 16 values of 4 rows rs bytes apart, 4 bytes each (f32 times *v; NULL:
   none), as dst's 16 groups of the 4 rows' values at d: after the 4 x 4
   transposes inside the lanes lane k of r[c] holds value 4k + c, and
   the 4 x 4 transpose of lanes puts values 4j..4j+3 in r[j]. */
TL__SR_INLINE void tl__sr16_dw_quads(const char *s, size_t rs, char *d, const simde__m512 *v)
{
    simde__m512 r[4], t[4];
    int k;
    TL__SR_DW_ROWS(simde_mm512_, r, s, rs, v);
    TL__SR_LANES_T4X4(simde_mm512_, r, t, 4);
    tl__sr16_lanes_t4x4(&r[0], &r[1], &r[2], &r[3]);
    TL__SR_UNROLL
    for (k = 0; k < 4; ++k) simde_mm512_storeu_ps((float *)(void *)(d + 64 * k), r[k]);
}

TL__SR_DW_UNITS_DEF(tl__sr16_dw_units, simde_mm512_, simde__m512, simde__m512i, tl__sr16_dw_f32, tl__sr16_dw_bytes,
                    tl__sr16_dw_quads, simde_mm512_storeu_si512)

/* The first m (a mask) of 16 values of n bytes each (1, 2 or 4) at p,
   packed from the vector's start: all 16 or the first 8 by plain loads
   (masked ones, where plain ones would do, made runs of 8 (bf16 -> u8
   nChw8c -> nhwc) 1.6x slower on the Zen 4). */
TL__SR_INLINE simde__m512i tl__sr16_load_lanes(int n, const char *p, simde__mmask16 m)
{
    const __m128i *p16 = (const __m128i *)(const void *)p;
    const __m256i *p32 = (const __m256i *)(const void *)p;
    if (m == 0xffff && n == 1) return _mm512_castsi128_si512(_mm_loadu_si128(p16));
    if (m == 0xffff && n == 2) return _mm512_castsi256_si512(_mm256_loadu_si256(p32));
    if (m == 0xffff) return _mm512_loadu_si512(p);
    if (m == 0xff && n == 1) return _mm512_castsi128_si512(_mm_loadl_epi64(p16));
    if (m == 0xff && n == 2) return _mm512_castsi128_si512(_mm_loadu_si128(p16));
    if (m == 0xff) return _mm512_castsi256_si512(_mm256_loadu_si256(p32));
    if (n == 1) return _mm512_maskz_loadu_epi8(m, p);
    if (n == 2) return _mm512_maskz_loadu_epi16(m, p);
    return _mm512_maskz_loadu_epi32(m, p);
}

/* 64 bytes of one merged tile's source row: the values (es bytes each)
   that mask k keeps, the rest loaded as zeros; a whole row unmasked
   (masked loads of every lane are slower on Zen 5, tl__sr16_pack_set). */
TL__SR_INLINE simde__m512 tl__sr16_cols_at(const char *p, int es, uint32_t k)
{
    if (es == 4) return simde_mm512_castsi512_ps(tl__sr16_load_lanes(4, p, (simde__mmask16)k));
    if (k == 0xffffffffu) return simde_mm512_loadu_ps((const float *)(const void *)p);
    return simde_mm512_castsi512_ps(_mm512_maskz_loadu_epi16((simde__mmask32)k, p));
}

/* PUT of the merged tiles of 2-byte values: word pairs transposed as
   dwords leave vector j holding columns 2j and 2j + 1 interleaved; a
   word permute splits them into its two halves, the two dst rows' 32
   bytes. */
TL__SR_INLINE void tl__sr16_put_word_rows(char *d, const size_t *rows, size_t db, const simde__m512 *r, int mm,
                                          int nt)
{
    simde__m512i halves = simde_mm512_loadu_si512((const void *)tl__sr16_words_split);
    int j;
    (void)nt;
    TL__SR_UNROLL
    for (j = 0; j < 16; ++j) {
        simde__m512i v = simde_mm512_permutexvar_epi16(halves, simde_mm512_castps_si512(r[j]));
        if (2 * j < mm)
            simde_mm256_storeu_si256((simde__m256i *)(void *)tl__sr16_row_at(d, rows, db, 2 * j),
                                     simde_mm512_castsi512_si256(v));
        if (2 * j + 1 < mm)
            simde_mm256_storeu_si256((simde__m256i *)(void *)tl__sr16_row_at(d, rows, db, 2 * j + 1),
                                     simde_mm512_extracti64x4_epi64(v, 1));
    }
}

/* Merged tiles (TL__SR_TILE_ROWS) in AVX-512: blocks of 16 L rows by 64
   bytes of M (16 f32 or 32 2-byte values, ES bytes each), the last
   block's missing columns loaded as zeros and never put; transposed as
   dwords, row m of M to d + rows[m] by PUT (DES bytes a value): 2-byte
   copies (bf16, f16 oihw -> OIhw16i16o), and f32 rounded into bf16 or
   saturated into s8 and u8 as it leaves, as tl__sr16_tiles_convert
   rounds side-by-side tiles, scaled where sc (tl__sr_tsc) has scales:
   along L (its rows) after the transpose, else along M and K (its
   columns) as they load. nl a multiple of 16. */
#define TL__SR16_ROWS_DEF(NAME, ES, DES, PUT) \
    static void NAME(const char *s, size_t sb, char *d, const size_t *rows, tl_dim nm, tl_dim nl, \
                     const tl__sr_tsc *sc) \
    { \
        tl_dim m, l; \
        int i; \
        float sv[16]; \
        int rs = sc && tl__sr_tsc_by_row(sc), cs = sc && !rs; \
        for (l = 0; l < nl; l += 16) { \
            if (rs) tl__sr_tiles_row_scales(sc, sv, 16, l, nl); \
            for (m = 0; m < nm; m += 64 / ES) { \
                int mm = nm - m < 64 / ES ? (int)(nm - m) : 64 / ES; \
                uint32_t k = mm == 32 ? 0xffffffffu : (1u << mm) - 1;  /* 1u << 32: undefined */ \
                simde__m512 r[16]; \
                TL__SR_UNROLL \
                for (i = 0; i < 16; ++i) r[i] = tl__sr16_cols_at(s + (size_t)m * ES + (size_t)(l + i) * sb, ES, k); \
                if (cs) { \
                    tl__sr_tiles_col_scales(sc, sv, mm, 16, m); \
                    tl__sr16_scale16(r, sv); \
                } \
                tl__sr16_t16x16(r); \
                if (rs) tl__sr16_scale16(r, sv); \
                PUT(d + (size_t)l * DES, rows + m, 0, r, mm, 0); \
            } \
        } \
    }

TL__SR16_ROWS_DEF(tl__sr16_tile_rows2, 2, 2, tl__sr16_put_word_rows)
TL__SR16_ROWS_DEF(tl__sr16_rows_to_bf16, 4, 2, tl__sr16_put_bf16_rows)
TL__SR16_ROWS_DEF(tl__sr16_rows_to_s8, 4, 1, tl__sr16_put_s8_rows)
TL__SR16_ROWS_DEF(tl__sr16_rows_to_u8, 4, 1, tl__sr16_put_u8_rows)
TL__SR16_ROWS_DEF(tl__sr16_rows_to_f32, 4, 4, tl__sr16_put_f32_rows)

#if TL__SR_BF16 == 2
#if defined(__clang__)
/* clang keeps the outer push's target where pushes nest: swapped */
#if TL__SR_AVX512 == 2
#pragma clang attribute pop
#endif
#pragma clang attribute push(__attribute__((target("avx,avx2,f16c,avx512f,avx512bw,avx512dq,avx512bf16"))), \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx,avx2,f16c,avx512f,avx512bw,avx512dq,avx512bf16")
#endif
#endif
#if TL__SR_BF16
/* 32 values, a's then b's, in bf16 by vcvtne2ps2bf16: rounded to
   nearest even and NaN quieted as tl__sr16_round_bf16 does, but a
   denormal read as zero. */
TL__SR_INLINE simde__m512i tl__sr16_to_bf16x2n(simde__m512 a, simde__m512 b)
{
    return (simde__m512i)_mm512_cvtne2ps_pbh(b, a);
}

TL__SR16_PUT_BF16_DEF(tl__sr16_put_bf16n_all, tl__sr16_to_bf16x2n)

/* tl__sr16_put_bf16_rows by AVX512-BF16, a block that holds a denormal
   the long way (their bf16 values keep what is left of the mantissa). */
TL__SR_INLINE void tl__sr16_put_bf16n_rows(char *d, const size_t *rows, size_t db, const simde__m512 *r, int mm,
                                           int nt)
{
    __mmask16 k = 0;
    int j;
    TL__SR_UNROLL
    for (j = 0; j < 16; ++j) k |= _mm512_fpclass_ps_mask(r[j], 0x20);     /* denormals */
    if (k) tl__sr16_put_bf16_rows(d, rows, db, r, mm, nt);
    else tl__sr16_put_bf16n_all(d, rows, db, r, mm, nt);
}

TL__SR16_TILES_CVT_DEF(tl__sr16_tiles_to_bf16n, TL_F32, 4, TL_BF16, 2, tl__sr16_put_bf16n_rows)
TL__SR16_ROWS_DEF(tl__sr16_rows_to_bf16n, 4, 2, tl__sr16_put_bf16n_rows)
#endif
#if TL__SR_BF16 == 2
#if defined(__clang__)
#pragma clang attribute pop
#if TL__SR_AVX512 == 2
#pragma clang attribute push(__attribute__((target("avx,avx2,f16c,avx512f,avx512bw"))), apply_to = function)
#endif
#else
#pragma GCC pop_options
#endif
#endif

/* Tiles side by side in dst converted with nothing else to do but
   scales (tl__sr_tiles_convert_fits): one wide tile of 16 x 16 f32
   blocks, the way f32 tiles copy, each bf16, f16, s8 or u8 value
   widened into f32 as it loads, or each f32 dst row rounded to bf16
   (saturated to s8 or u8) as it leaves (weights between TensorFlow's
   hwio and an oihw model: one tile per i of 9 rows, which staged and
   transposed tile by tile ran bf16 -> f32 256x256x3x3 at 0.4 of
   oneDNN's speed on the Zen 4, f32 -> bf16 OIhw16i16o -> oihw at 0.6,
   f32 -> s8 at 0.7). sc (NULL: none) scales the rows or the columns of
   each block (tl__sr_tsc): quantized weights' per-O scales went tile by
   tile too, f32 -> s8 oihw -> Ohwi8o 256x256x3x3 at 0.28 of oneDNN,
   Ohwi8o -> oihw s8 -> f32 at 0.4 (tlbench, Zen 4). */
static void tl__sr16_tiles_convert(tl_data_type t, tl_data_type u, const char *s, size_t sb, tl__sr_runs rs,
                                   tl__sr_runs g, char *d, size_t db, tl_dim nm, tl_dim nl, const char *s_end,
                                   int stream, int pf, int bf16n, const tl__sr_tsc *sc)
{
    /* narrowed rows stream only where their PUT stores whole lines (rows
       back to back: tl__sr16_put_i8_rows, TL__SR16_PUT_BF16_DEF) */
    int nt = stream && db % 64 == 0;
#if TL__SR_BF16
    if (u == TL_BF16 && bf16n) tl__sr16_tiles_to_bf16n(s, sb, rs, g, d, db, nm, nl, s_end, stream, pf, sc);
    else
#endif
    if (u == TL_BF16) tl__sr16_tiles_to_bf16(s, sb, rs, g, d, db, nm, nl, s_end, stream, pf, sc);
    else if (u == TL_S8) tl__sr16_tiles_to_s8(s, sb, rs, g, d, db, nm, nl, s_end, stream, pf, sc);
    else if (u == TL_U8) tl__sr16_tiles_to_u8(s, sb, rs, g, d, db, nm, nl, s_end, stream, pf, sc);
    else if (t == TL_BF16) tl__sr16_tiles_bf16(s, sb, rs, g, d, db, nm, nl, s_end, nt, pf, sc);
    else if (t == TL_F16) tl__sr16_tiles_f16(s, sb, rs, g, d, db, nm, nl, s_end, nt, pf, sc);
    else if (t == TL_S8) tl__sr16_tiles_s8(s, sb, rs, g, d, db, nm, nl, s_end, nt, pf, sc);
    else if (t == TL_U8) tl__sr16_tiles_u8(s, sb, rs, g, d, db, nm, nl, s_end, nt, pf, sc);
    else tl__sr16_tiles_f32(s, sb, rs, g, d, db, nm, nl, s_end, nt, pf, sc);
}

/* Merged tiles of f32 into type u, one of tl__sr16_tiles_convert's
   (tl__sr_merge_rows). */
static void tl__sr16_rows_convert(tl_data_type u, const char *s, size_t sb, char *d, const size_t *rows,
                                  tl_dim nm, tl_dim nl, int bf16n, const tl__sr_tsc *sc)
{
#if TL__SR_BF16
    if (u == TL_BF16 && bf16n) tl__sr16_rows_to_bf16n(s, sb, d, rows, nm, nl, sc);
    else
#endif
    if (u == TL_BF16) tl__sr16_rows_to_bf16(s, sb, d, rows, nm, nl, sc);
    else if (u == TL_S8) tl__sr16_rows_to_s8(s, sb, d, rows, nm, nl, sc);
    else if (u == TL_U8) tl__sr16_rows_to_u8(s, sb, d, rows, nm, nl, sc);
    else tl__sr16_rows_to_f32(s, sb, d, rows, nm, nl, sc);
}

/* v scaled (by s, when scaled), plus beta times *old (old NULL: paths
   without beta; NaN + NaN keeps the source's payload), and shifted as
   the engine does. */
TL__SR_INLINE simde__m512 tl__sr16_quantize_old(const tl__sr_q *q, int extra, simde__m512 v,
                                                int scaled, simde__m512 s, const simde__m512 *old)
{
    if (extra && q->szp != 0) v = simde_mm512_sub_ps(v, simde_mm512_set1_ps(q->szp));
    if (scaled) {
        v = simde_mm512_mul_ps(s, v);
        TL__SR_ROUNDED(v);
    }
    if (extra && old && q->beta != 0) {
        simde__m512 prod = simde_mm512_mul_ps(simde_mm512_set1_ps(q->beta), *old);
        TL__SR_ROUNDED(prod);
        v = simde_mm512_mask_blend_ps(simde_mm512_cmp_ps_mask(v, v, SIMDE_CMP_ORD_Q),
                                      simde_mm512_castsi512_ps(simde_mm512_or_si512(
                                          simde_mm512_castps_si512(v), simde_mm512_set1_epi32(0x00400000))),
                                      simde_mm512_add_ps(v, prod));
    }
    if (extra && q->dzp != 0) v = simde_mm512_add_ps(v, simde_mm512_set1_ps(q->dzp));
    if (extra && q->adj_on) v = simde_mm512_mul_ps(simde_mm512_set1_ps(q->adj), v);
    return v;
}

/* tl__sr16_quantize_old without beta. */
TL__SR_INLINE simde__m512 tl__sr16_quantize(const tl__sr_q *q, int extra, simde__m512 v,
                                            int scaled, simde__m512 s)
{
    return tl__sr16_quantize_old(q, extra, v, scaled, s, NULL);
}

/* 16 values from src, scaled and shifted as the engine does. */
TL__SR_INLINE simde__m512 tl__sr16_scaled(const tl__sr_q *q, int extra, const char *src,
                                          tl__sr_scales sc, tl_dim k)
{
    return tl__sr16_quantize(q, extra, simde_mm512_loadu_ps((const float *)(const void *)(src + 4 * k)),
                             sc.sc != NULL, !sc.sc || sc.sstep == 0 ? simde_mm512_set1_ps(q->s0)
                                                               : simde_mm512_loadu_ps(sc.sc + sc.sidx + k));
}

/* The four quantized vectors t[k] of tl__sr16_quad4_vector as 8-bit
   values, tap e's 16 at d + e tap (e < n). The packs leave lane L of
   their 64 bytes holding lane L of each t[k] in turn: tap L's order
   where lanes are taps (lanes_rows); otherwise a byte shuffle and a
   dword permute make the transpose the floats' would have made, inside
   the lanes and across them (five operations for 64 values where the
   floats' transposes and the packs' permute took nine). */
TL__SR_INLINE void tl__sr16_quad4_put_i8(simde__m512 *t, int lanes_rows, int u8, int n, char *d, size_t tap)
{
    simde__m512i b = tl__sr16_packs_i8(tl__sr16_to_i32(t[0]), tl__sr16_to_i32(t[1]), tl__sr16_to_i32(t[2]),
                                       tl__sr16_to_i32(t[3]), u8);
    if (!lanes_rows)
        b = simde_mm512_permutexvar_epi32(simde_mm512_loadu_si512((const void *)tl__sr16_dwords_t4x4),
                                          simde_mm512_shuffle_epi8(b, simde_mm512_loadu_si512(
                                                                          (const void *)tl__sr16_bytes_t4x4)));
    if (n == 4 && tap == 16) {
        simde_mm512_storeu_si512((void *)d, b);
        return;
    }
    simde_mm_storeu_si128((simde__m128i *)(void *)d, simde_mm512_castsi512_si128(b));
    if (n > 1) simde_mm_storeu_si128((simde__m128i *)(void *)(d + tap), simde_mm512_extracti32x4_epi32(b, 1));
    if (n > 2) simde_mm_storeu_si128((simde__m128i *)(void *)(d + 2 * tap), simde_mm512_extracti32x4_epi32(b, 2));
    if (n > 3) simde_mm_storeu_si128((simde__m128i *)(void *)(d + 3 * tap), simde_mm512_extracti32x4_epi32(b, 3));
}

/* Two taps' 16-bit values in w, 32 bytes each, to d and d + tap; n: how
   many of the two dst holds. */
TL__SR_INLINE void tl__sr16_quad4_put2(simde__m512i w, int n, char *d, size_t tap)
{
    if (n > 1 && tap == 32) {
        simde_mm512_storeu_si512((void *)d, w);
        return;
    }
    simde_mm256_storeu_si256((void *)d, simde_mm512_castsi512_si256(w));
    if (n > 1) simde_mm256_storeu_si256((void *)(d + tap), simde_mm512_extracti64x4_epi64(w, 1));
}

/* Word (k, e) of each lane to (e, k), k < 2, e < 4: the packs' 4 values
   of two vectors, one dword per lane's 4 taps (tl__sr16_quad4_put_u16). */
static const int8_t tl__sr16_words_t2x4[64] = { 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                                0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                                0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                                0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15 };
/* Dwords of taps 2h, 2h + 1 (h: the second table) from the packs
   p01 (0..15) and p23 (16..31): where lanes are taps, tap e's first 8
   values are lane e of p01, the next 8 lane e of p23; else, after
   tl__sr16_words_t2x4, its values 4L .. 4L + 3 are dword e of lane L
   of p01, then of p23. */
static const int32_t tl__sr16_u16_taps[2][2][16] = {
    { { 0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23 },
      { 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31 } },
    { { 0, 16, 4, 20, 8, 24, 12, 28, 1, 17, 5, 21, 9, 25, 13, 29 },
      { 2, 18, 6, 22, 10, 26, 14, 30, 3, 19, 7, 23, 11, 27, 15, 31 } }
};

/* The 2-byte values (widened into the 32-bit lanes of t[k]) of
   tl__sr16_quad4_vector to their taps without the float transposes:
   unsigned packs narrow them exactly, two vectors a pack, and one
   two-source dword permute makes each pair of taps (after a word shuffle
   inside the lanes where lanes are not taps). Six or eight operations
   for 64 values where the transposes and two word permutes took ten. */
TL__SR_INLINE void tl__sr16_quad4_put_u16(const simde__m512 *t, int lanes_rows, int n, char *d, size_t tap)
{
    simde__m512i p01 = simde_mm512_packus_epi32(simde_mm512_castps_si512(t[0]), simde_mm512_castps_si512(t[1]));
    simde__m512i p23 = simde_mm512_packus_epi32(simde_mm512_castps_si512(t[2]), simde_mm512_castps_si512(t[3]));
    const int32_t(*pick)[16] = tl__sr16_u16_taps[!lanes_rows];
    if (!lanes_rows) {
        simde__m512i w = simde_mm512_loadu_si512((const void *)tl__sr16_words_t2x4);
        p01 = simde_mm512_shuffle_epi8(p01, w);
        p23 = simde_mm512_shuffle_epi8(p23, w);
    }
    tl__sr16_quad4_put2(simde_mm512_permutex2var_epi32(p01, simde_mm512_loadu_si512((const void *)pick[0]), p23), n,
                        d, tap);
    if (n > 2)
        tl__sr16_quad4_put2(simde_mm512_permutex2var_epi32(p01, simde_mm512_loadu_si512((const void *)pick[1]), p23),
                            n - 2, d + 2 * tap, tap);
}

/* 16 values at p (es bytes each) in 32-bit lanes: 2-byte ones in the
   low halves, by vpmovzxwd, which SIMDe 0.7.4 lacks in AVX-512 (the
   compiler's intrinsic, as in tl__sr16_to_i32). */
TL__SR_INLINE simde__m512 tl__sr16_q4_load(const char *p, int es)
{
    if (es == 2)
        return simde_mm512_castsi512_ps(_mm512_cvtepu16_epi32(simde_mm256_loadu_si256((const void *)p)));
    return simde_mm512_loadu_ps((const float *)(const void *)p);
}

/* Vector v of a group of a block of tl__sr16_quads4: t[r] permuted
   from its windows, converted (out, with cv and the scales vs of this
   vector's t[]) or not, then its lanes (lanes_rows) or its elements
   swapped with the other t's, so that t[e] is tap e of the group, as
   dst holds it; the first n stored tap bytes apart. */
TL__SR_INLINE void tl__sr16_quad4_vector(const tl__sr_q4v *TL__RESTRICT v, int lanes_rows, int out, int n,
                                         const char *s, size_t s1, size_t s2, const tl__sr_q4cv *cv,
                                         const float *vs, char *d, size_t tap, int nt)
{
    simde__m512i idx = simde_mm512_loadu_si512((const void *)v->idx);
    simde__m512 t[4], x[4];
    int r, es = TL__SR_Q4_ES(out);
    TL__SR_UNROLL
    for (r = 0; r < 4; ++r) {
        size_t o = (size_t)(r / 2) * s2 + (size_t)(r % 2) * s1;
        t[r] = simde_mm512_permutex2var_ps(tl__sr16_q4_load(s + v->lo + o, es), idx,
                                           tl__sr16_q4_load(s + v->hi + o, es));
        if (out >= TL__SR_Q4_F32)
            t[r] = tl__sr16_quantize(&cv->q, cv->q.extra, t[r], 1, simde_mm512_loadu_ps(vs + 16 * r));
    }
    if (out == TL__SR_Q4_I8) {
        tl__sr16_quad4_put_i8(t, lanes_rows, cv->u8, n, d, tap);
        return;
    }
    if (out == TL__SR_Q4_WORDS) {
        tl__sr16_quad4_put_u16(t, lanes_rows, n, d, tap);
        return;
    }
    if (lanes_rows) tl__sr16_lanes_t4x4(&t[0], &t[1], &t[2], &t[3]);
    else TL__SR_LANES_T4X4(simde_mm512_, t, x, 4);     /* inside each lane */
    if (out == TL__SR_Q4_BF16) {
        tl__sr16_quad4_put2(tl__sr16_to_bf16x2(t[0], t[1]), n, d, tap);
        if (n > 2) tl__sr16_quad4_put2(tl__sr16_to_bf16x2(t[2], t[3]), n - 2, d + 2 * tap, tap);
        return;
    }
    TL__SR_UNROLL
    for (r = 0; r < 4; ++r)
        if (r < n) tl__sr16_store(d + (size_t)r * tap, t[r], nt);
}

/* Bytes of a dst value of a TL__SR_QUADS4 step that leaves its values
   as out. */
#define TL__SR_Q4_DSZ(out) ((out) == TL__SR_Q4_I8 ? 1 : (out) == TL__SR_Q4_BF16 || (out) == TL__SR_Q4_WORDS ? 2 : 4)

/* Group g (n taps) of a block: its nv vectors, 16 values apart. */
TL__SR_INLINE void tl__sr16_quad4_group(const tl__sr_q4 *TL__RESTRICT q, int nv, int g, int lanes_rows, int out,
                                        int n, const char *s, const tl__sr_q4cv *cv, char *d, size_t tap, int nt)
{
    int v;
    TL__SR_UNROLL4
    for (v = 0; v < nv; ++v)
        tl__sr16_quad4_vector(&q->v[g * nv + v], lanes_rows, out, n, s, q->s1, q->s2, cv,
                              out >= TL__SR_Q4_F32 ? cv->s + 64 * v : NULL, d + (size_t)v * 16 * TL__SR_Q4_DSZ(out), tap, nt);
}

/* tl__sr16_quads4 with its lanes' order, its vectors a tap (nv), its
   output and streaming constant; the last group's taps (1 to 4)
   constant too, so that only its stored vectors are computed. */
TL__SR_INLINE void tl__sr16_quads4_body(const tl__sr_q4 *TL__RESTRICT q, int lanes_rows, int nv, int out,
                                        const char *s, char *d, tl__sr_runs J, const tl__sr_q4cv *cv, int nt)
{
    int g, last = q->ng - 1, n = q->n[last];
    size_t tap = (size_t)nv * 16 * TL__SR_Q4_DSZ(out);
    tl_dim j;
    for (j = 0; j < J.count; ++j, s += J.s, d += J.d) {
        char *dl = d + (size_t)last * 4 * tap;      /* the last group's taps */
        for (g = 0; g < last; ++g) tl__sr16_quad4_group(q, nv, g, lanes_rows, out, 4, s, cv, d + g * 4 * tap, tap, nt);
        if (n == 1) tl__sr16_quad4_group(q, nv, last, lanes_rows, out, 1, s, cv, dl, tap, nt);
        else if (n == 2) tl__sr16_quad4_group(q, nv, last, lanes_rows, out, 2, s, cv, dl, tap, nt);
        else if (n == 3) tl__sr16_quad4_group(q, nv, last, lanes_rows, out, 3, s, cv, dl, tap, nt);
        else tl__sr16_quad4_group(q, nv, last, lanes_rows, out, 4, s, cv, dl, tap, nt);
    }
}

/* One call per lanes' order and B, out and streaming constant. */
TL__SR_INLINE void tl__sr16_quads4_out(const tl__sr_q4 *q, int out, const char *s, char *d, tl__sr_runs J,
                                       const tl__sr_q4cv *cv, int nt)
{
    if (q->lanes_rows && q->nv == 1) tl__sr16_quads4_body(q, 1, 1, out, s, d, J, cv, nt);
    else if (q->lanes_rows && q->nv == 4) tl__sr16_quads4_body(q, 1, 4, out, s, d, J, cv, nt);
    else if (q->lanes_rows) tl__sr16_quads4_body(q, 1, 16, out, s, d, J, cv, nt);
    else if (q->nv == 1) tl__sr16_quads4_body(q, 0, 1, out, s, d, J, cv, nt);
    else tl__sr16_quads4_body(q, 0, 4, out, s, d, J, cv, nt);
}

/* A step of TL__SR_QUADS4: J.count blocks (J.s, J.d bytes apart) of
   weights over nm taps, each B rows of B nm source values (B: 4, 8 or
   16) into nm dst taps of B x B values; nt: streamed (d and J.d on
   cache lines). As merged tiles (OIhw4i4o) or side-by-side tiles
   (OIhw4o4i) these went through borders or 16 x 16 blocks of 9 columns,
   a step per block: 0.55 and 0.31 of oneDNN's speed on 256x256x3x3 (Zen
   4, in cache). cv: converted from f32 (q->out), else NULL (2-byte
   copies). */
static void tl__sr16_quads4(const tl__sr_q4 *q, const char *s, char *d, tl__sr_runs J, const tl__sr_q4cv *cv,
                            int nt)
{
    if (q->out == TL__SR_Q4_WORDS) tl__sr16_quads4_out(q, TL__SR_Q4_WORDS, s, d, J, NULL, 0);
    else if (q->out == TL__SR_Q4_I8) tl__sr16_quads4_out(q, TL__SR_Q4_I8, s, d, J, cv, 0);
    else if (q->out == TL__SR_Q4_BF16) tl__sr16_quads4_out(q, TL__SR_Q4_BF16, s, d, J, cv, 0);
    else if (nt) tl__sr16_quads4_out(q, TL__SR_Q4_F32, s, d, J, cv, 1);
    else tl__sr16_quads4_out(q, TL__SR_Q4_F32, s, d, J, cv, 0);
}

/* tl__sr8_convert_loop for f32 -> s8, u8 or bf16 without beta (the old
   values would need int8 -> f32, which SIMDe 0.7.4 lacks in AVX-512)
   and with at most unit-step scales, on runs in 16s (tl__sr_convert_full
   checks, and sends the others to AVX2). 8-bit values go 64 at a time,
   the last n % 64 16 at a time. */
TL__SR_INLINE void tl__sr16_convert_loop(const tl__sr_q *q, int extra, tl_data_type st,
                                         tl_data_type dt, int ssz, int dsz, const char *src,
                                         char *dst, tl__sr_scales sc, tl_dim n)
{
    int u8 = dt == TL_U8;
    tl_dim k = 0;
    (void)st;
    (void)ssz;
    (void)dsz;
    if (dt == TL_BF16) {
        TL__SR_UNROLL2
        for (; k + 32 <= n; k += 32)
            tl__sr16_put(dst + 2 * k, tl__sr16_to_bf16x2(tl__sr16_scaled(q, extra, src, sc, k),
                                                          tl__sr16_scaled(q, extra, src, sc, k + 16)), q->nt);
        if (k < n) {        /* the last 16 (runs are in 16s): the low half */
            simde__m512 v = tl__sr16_scaled(q, extra, src, sc, k);
            tl__sr8_put(dst + 2 * k, simde_mm512_castsi512_si256(tl__sr16_to_bf16x2(v, v)), q->nt);
        }
        return;
    }
    for (; k + 64 <= n; k += 64) {
        simde__m512i a = tl__sr16_to_i32(tl__sr16_scaled(q, extra, src, sc, k));
        simde__m512i b = tl__sr16_to_i32(tl__sr16_scaled(q, extra, src, sc, k + 16));
        simde__m512i c = tl__sr16_to_i32(tl__sr16_scaled(q, extra, src, sc, k + 32));
        simde__m512i d = tl__sr16_to_i32(tl__sr16_scaled(q, extra, src, sc, k + 48));
        tl__sr16_put(dst + k, tl__sr16_pack_i8(a, b, c, d, u8), q->nt);
    }
    for (; k < n; k += 16) {
        simde__m512i a = tl__sr16_to_i32(tl__sr16_scaled(q, extra, src, sc, k));
        tl__sr_put(dst + k, simde_mm512_castsi512_si128(tl__sr16_pack_i8(a, a, a, a, u8)), q->nt);
    }
}

TL__SR_CONVERT_BODY(tl__sr16_convert_body, tl__sr16_convert_loop, 0, tl__sr8_convert_split, 0)

static void tl__sr16_convert_full(const tl_reorder_plan *p, const char *src, char *dst,
                                  tl__sr_scales sc, tl_dim n, tl__sr_runs rs,
                                  tl__sr_runs outer)
{
    switch (p->dst_md.data_type) {
    case TL_U8: tl__sr16_convert_body(p, TL_F32, TL_U8, 4, 1, src, dst, sc, n, rs, outer); break;
    case TL_BF16: tl__sr16_convert_body(p, TL_F32, TL_BF16, 4, 2, src, dst, sc, n, rs, outer); break;
    default: tl__sr16_convert_body(p, TL_F32, TL_S8, 4, 1, src, dst, sc, n, rs, outer); break;
    }
}

/* 8 floats from a, then 8 from b. */
TL__SR_INLINE simde__m512 tl__sr16_join8(const float *a, const float *b)
{
    return tl__sr16_join(simde_mm256_loadu_ps(a), simde_mm256_loadu_ps(b));
}

/* How a walk's values scale: not at all, by q->s0, or each by its own. */
enum { TL__SR_UNSCALED, TL__SR_SCALED_ONCE, TL__SR_SCALED_EACH };

/* ---- simd: AVX-512 conversions between types other than f32 ----------
   s8, u8, s32, bf16 and f16 into one another (s8 -> bf16, s32 -> u8,
   u8 -> s8, s8 -> s8 with a scale), each vector widened into f32 and
   converted from there, as the core converts. Before, they took the
   AVX2 loop's shared case, which tested both types at every vector:
   s8 -> bf16, u8 -> s8 and s8 -> s8 with a scale nchw 8x64x14x14 at
   0.13 to 0.2 of memcpy (Zen 4). The last vector of a run is masked, so
   runs of any length take it. */

/* The lanes of mask m of x (n-byte values from the vector's start) at
   p: all 16 in one store (streamed where nt; p then 16-byte aligned),
   the first 8 in a plain one. */
TL__SR_INLINE void tl__sr16_put_lanes(simde__m512i x, int n, char *p, simde__mmask16 m, int nt)
{
    if (m == 0xffff && n == 1) tl__sr_put(p, _mm512_castsi512_si128(x), nt);
    else if (m == 0xffff && n == 2) tl__sr8_put(p, _mm512_castsi512_si256(x), nt);
    else if (m == 0xffff) tl__sr16_put(p, x, nt);
    else if (m == 0xff && n == 1) _mm_storel_epi64((__m128i *)(void *)p, _mm512_castsi512_si128(x));
    else if (m == 0xff && n == 2) _mm_storeu_si128((__m128i *)(void *)p, _mm512_castsi512_si128(x));
    else if (m == 0xff) _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(x));
    else if (n == 1) _mm512_mask_storeu_epi8(p, m, x);
    else if (n == 2) _mm512_mask_storeu_epi16(p, m, x);
    else _mm512_mask_storeu_epi32(p, m, x);
}

/* 8 values of n bytes each (1, 2 or 4) at p and the 8 at q, packed from
   the vector's start. */
TL__SR_INLINE simde__m512i tl__sr16_load_two(int n, const char *p, const char *q)
{
    const __m128i *p16 = (const __m128i *)(const void *)p, *q16 = (const __m128i *)(const void *)q;
    if (n == 1) return _mm512_castsi128_si512(_mm_unpacklo_epi64(_mm_loadl_epi64(p16), _mm_loadl_epi64(q16)));
    if (n == 2)
        return _mm512_castsi256_si512(_mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(p16)),
                                                              _mm_loadu_si128(q16), 1));
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)p)),
                              _mm256_loadu_si256((const __m256i *)(const void *)q), 1);
}

/* The first 8 values of x (n bytes each, from the vector's start) at p,
   the next 8 at q. */
TL__SR_INLINE void tl__sr16_put_two(simde__m512i x, int n, char *p, char *q)
{
    __m128i x16 = _mm512_castsi512_si128(x);
    if (n == 1) {
        _mm_storel_epi64((__m128i *)(void *)p, x16);
        _mm_storel_epi64((__m128i *)(void *)q, _mm_unpackhi_epi64(x16, x16));
    } else if (n == 2) {
        _mm_storeu_si128((__m128i *)(void *)p, x16);
        _mm_storeu_si128((__m128i *)(void *)q, _mm256_extracti128_si256(_mm512_castsi512_si256(x), 1));
    } else {
        _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(x));
        _mm256_storeu_si256((__m256i *)(void *)q, _mm512_extracti64x4_epi64(x, 1));
    }
}

/* 16 values of type t, packed from x's start, as f32, as tl__load_f32
   does, save that f16's signalling NaNs come quieted: every dst type
   here quiets NaNs or zeroes them, and f16 -> f16 with nothing to do
   is a copy. */
TL__SR_INLINE simde__m512 tl__sr16_widen(tl_data_type t, simde__m512i x)
{
    switch (t) {
    case TL_S8: return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm512_castsi512_si128(x)));
    case TL_U8: return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(x)));
    case TL_S32: return _mm512_cvtepi32_ps(x);
    case TL_BF16:
        return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(x)), 16));
    default: return _mm512_cvtph_ps(_mm512_castsi512_si256(x));    /* TL_F16 */
    }
}

/* 32 values, a's then b's, in bf16 where they are exact in it (bytes
   that only convert): the top halves, no rounding (s8 -> bf16 nchw
   8x64x14x14 in process 7.7 -> 3.1 us, Zen 4). */
TL__SR_INLINE simde__m512i tl__sr16_to_bf16_exact(simde__m512 a, simde__m512 b, int exact)
{
    if (!exact) return tl__sr16_to_bf16x2(a, b);
    return _mm512_permutex2var_epi16(_mm512_castps_si512(a), _mm512_loadu_si512((const void *)tl__sr16_bf16_tops),
                                     _mm512_castps_si512(b));
}

/* 16 values v as type t, as tl__store_f32, packed from the vector's
   start (exact: tl__sr16_to_bf16_exact's). */
TL__SR_INLINE simde__m512i tl__sr16_narrow(tl_data_type t, simde__m512 v, int exact)
{
    simde__m512i x;
    switch (t) {
    case TL_S8: case TL_U8:
        x = tl__sr16_to_i32(v);
        return tl__sr16_pack_i8(x, x, x, x, t == TL_U8);
    case TL_S32:
        return _mm512_maskz_cvt_roundps_epi32(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q),
                                              _mm512_min_ps(v, _mm512_set1_ps(2147483520.0f)),
                                              _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    case TL_BF16: return tl__sr16_to_bf16_exact(v, v, exact);
    default: return _mm512_castsi256_si512(_mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));   /* TL_F16 */
    }
}

/* The scales of the lanes of mask m of the 16 values of a run from k
   on (wrapped ones: every step the same 16, from a pattern of 32); the
   others are not read (they may lie past the caller's scales). */
TL__SR_INLINE simde__m512 tl__sr16_scales_at(tl__sr_scales sc, tl_dim k, simde__mmask16 m)
{
    simde__m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    if (sc.wrap) return _mm512_loadu_ps(sc.sc + sc.sidx);
    if (sc.sstep == 1 && m == 0xffff) return _mm512_loadu_ps(sc.sc + sc.sidx + k);
    if (sc.sstep == 1) return _mm512_maskz_loadu_ps(m, sc.sc + sc.sidx + k);
    lane = _mm512_mullo_epi32(_mm512_set1_epi32((int)sc.sstep), lane);
    return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, lane, sc.sc + sc.sidx + k * sc.sstep, 4);
}

/* Whether values of type st stay exact through the f32 that a run
   converts (bytes, nothing but the conversion: at most 8 significant
   bits, which bf16 holds). */
#define TL__SR16_EXACT(st, extra, per) (((st) == TL_S8 || (st) == TL_U8) && !(extra) && (per) == TL__SR_UNSCALED)

/* Whether st -> dt, nothing but the conversion, saturates integers into
   integers (s8, u8, s32 into one another): the core's f32 rounds only
   s32 values past 2^24, which the clamp then saturates anyway. */
#define TL__SR16_INT(t) ((t) == TL_S8 || (t) == TL_U8 || (t) == TL_S32)
#define TL__SR16_INTEGER(st, dt, extra, per) \
    (TL__SR16_INT(st) && TL__SR16_INT(dt) && !(extra) && (per) == TL__SR_UNSCALED)

/* The values of type st packed from x's start as dt, saturated (for
   TL__SR16_INTEGER's pairs): bytes into bytes all 64 lanes at once, the
   others 16 through dwords. */
TL__SR_INLINE simde__m512i tl__sr16_int_convert(tl_data_type st, tl_data_type dt, simde__m512i x)
{
    simde__m512i w = x, zero = _mm512_setzero_si512();
    if (st == TL_U8 && dt == TL_S8) return _mm512_min_epu8(x, _mm512_set1_epi8(127));
    if (st == TL_S8 && dt == TL_U8) return _mm512_max_epi8(x, zero);
    if (st == TL_S8) w = _mm512_cvtepi8_epi32(_mm512_castsi512_si128(x));
    if (st == TL_U8) w = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(x));
    if (dt == TL_S8) return _mm512_castsi128_si512(_mm512_cvtsepi32_epi8(w));
    if (dt == TL_U8) return _mm512_castsi128_si512(_mm512_cvtusepi32_epi8(_mm512_max_epi32(w, zero)));
    return w;
}

/* One run of n values of TL__SR16_INTEGER's pairs: into bytes 64 at a
   time (s32 through tl__sr16_pack_i8's saturating packs), the rest 16
   at a time, the last vector masked. u8 -> s8 nhwc 8x64x14x14 through
   f32 ran at 0.26 of memcpy (Zen 4). */
TL__SR_INLINE void tl__sr16_int_run(tl_data_type st, tl_data_type dt, const char *s, char *d, tl_dim n, int nt)
{
    int ssz = (int)tl_dt_size(st), dsz = (int)tl_dt_size(dt);
    const char *k4;
    tl_dim k = 0;
    if (dsz == 1 && ssz == 1)
        for (; k + 64 <= n; k += 64) tl__sr16_put(d + k, tl__sr16_int_convert(st, dt, _mm512_loadu_si512(s + k)), nt);
    if (dsz == 1 && ssz == 4)
        for (; k + 64 <= n; k += 64) {
            k4 = s + 4 * k;
            tl__sr16_put(d + k,
                         tl__sr16_pack_i8(_mm512_loadu_si512(k4), _mm512_loadu_si512(k4 + 64),
                                          _mm512_loadu_si512(k4 + 128), _mm512_loadu_si512(k4 + 192), dt == TL_U8),
                         nt);
        }
    for (; k < n; k += 16) {
        simde__mmask16 m = n - k >= 16 ? (simde__mmask16)0xffff : (simde__mmask16)((1u << (n - k)) - 1);
        simde__m512i x = tl__sr16_int_convert(st, dt, tl__sr16_load_lanes(ssz, s + (size_t)k * (size_t)ssz, m));
        tl__sr16_put_lanes(x, dsz, d + (size_t)k * (size_t)dsz, m, nt);
    }
}

/* 16 values of a run from k on (m: tl__sr16_load_lanes'), converted
   from st and scaled and shifted (per: how they scale, EACH: any
   scales or none, as sc says; extra: beta and the shifts). */
TL__SR_INLINE simde__m512 tl__sr16_any_vector(const tl__sr_q *q, int extra, int per, tl_data_type st,
                                              tl_data_type dt, const char *s, const char *d, tl__sr_scales sc,
                                              tl_dim k, simde__mmask16 m)
{
    int ssz = (int)tl_dt_size(st), dsz = (int)tl_dt_size(dt);
    int scaled = per == TL__SR_SCALED_EACH ? sc.sc != NULL : per == TL__SR_SCALED_ONCE;
    simde__m512 f = _mm512_set1_ps(q->s0), old = _mm512_setzero_ps();
    simde__m512 v = tl__sr16_widen(st, tl__sr16_load_lanes(ssz, s + (size_t)k * (size_t)ssz, m));
    if (extra && q->beta != 0)
        old = tl__sr16_widen(dt, tl__sr16_load_lanes(dsz, d + (size_t)k * (size_t)dsz, m));
    if (per == TL__SR_SCALED_EACH && sc.sc && sc.sstep != 0) f = tl__sr16_scales_at(sc, k, m);
    return tl__sr16_quantize_old(q, extra, v, scaled, f, &old);
}

/* One run of n values from type st to dt (per, extra: as
   tl__sr16_any_vector's): 8-bit values 64 at a time and 16-bit ones 32,
   packed as tl__sr16_convert_loop packs them, the rest 16 at a time,
   the last vector masked. */
TL__SR_INLINE void tl__sr16_any_run(const tl__sr_q *q, int extra, int per, tl_data_type st, tl_data_type dt,
                                    const char *s, char *d, tl__sr_scales sc, tl_dim n)
{
    size_t dsz = tl_dt_size(dt);
    int exact = TL__SR16_EXACT(st, extra, per);
    tl_dim k = 0;
    if (TL__SR16_INTEGER(st, dt, extra, per)) {
        tl__sr16_int_run(st, dt, s, d, n, q->nt);
        return;
    }
#define TL__SR16_ANY_V(j) tl__sr16_any_vector(q, extra, per, st, dt, s, d, sc, k + (j), (simde__mmask16)0xffff)
    if (dt == TL_S8 || dt == TL_U8)
        for (; k + 64 <= n; k += 64)
            tl__sr16_put(d + k,
                         tl__sr16_pack_i8(tl__sr16_to_i32(TL__SR16_ANY_V(0)), tl__sr16_to_i32(TL__SR16_ANY_V(16)),
                                          tl__sr16_to_i32(TL__SR16_ANY_V(32)), tl__sr16_to_i32(TL__SR16_ANY_V(48)),
                                          dt == TL_U8),
                         q->nt);
    if (dt == TL_BF16)
        for (; k + 32 <= n; k += 32)
            tl__sr16_put(d + 2 * k, tl__sr16_to_bf16_exact(TL__SR16_ANY_V(0), TL__SR16_ANY_V(16), exact), q->nt);
#undef TL__SR16_ANY_V
    for (; k < n; k += 16) {
        simde__mmask16 m = n - k >= 16 ? (simde__mmask16)0xffff : (simde__mmask16)((1u << (n - k)) - 1);
        simde__m512 v = tl__sr16_any_vector(q, extra, per, st, dt, s, d, sc, k, m);
        tl__sr16_put_lanes(tl__sr16_narrow(dt, v, exact), (int)dsz, d + (size_t)k * dsz, m, q->nt);
    }
}

/* The walk over tl__sr_convert_full's runs for tl__sr16_any_pair, per
   and extra as tl__sr16_any_vector's. */
TL__SR_INLINE void tl__sr16_any_walk(tl__sr_q *q, int extra, int per, tl_data_type st, tl_data_type dt,
                                     const char *src, char *dst, tl__sr_scales sc, tl_dim n, tl__sr_runs rs,
                                     tl__sr_runs outer)
{
    tl_dim o, k;
    for (o = 0; o < outer.count; ++o, src += outer.s, dst += outer.d, sc.sidx += outer.c) {
        const char *s = src;
        char *d = dst;
        tl__sr_scales at = sc;
        for (k = 0; k < rs.count; ++k, s += rs.s, d += rs.d, at.sidx += rs.c) {
            if (at.sc && at.sstep == 0) q->s0 = at.sc[at.sidx];
            tl__sr16_any_run(q, extra, per, st, dt, s, d, at, n);
        }
    }
}

/* tl__sr16_any_walk for runs of 8 (a pixel of nChw8c) that only
   convert or scale once a run (per): two runs a vector, the last of an
   odd count alone (a run a vector, half of it idle, ran bf16 -> u8
   nChw8c -> nhwc 8x64x14x14 1.3x slower than the AVX2 loop's pairs). */
TL__SR_INLINE void tl__sr16_any_pairs8(tl__sr_q *q, int per, tl_data_type st, tl_data_type dt, const char *src,
                                       char *dst, tl__sr_scales sc, tl__sr_runs rs, tl__sr_runs outer)
{
    int ssz = (int)tl_dt_size(st), dsz = (int)tl_dt_size(dt);
    tl_dim o, k;
    for (o = 0; o < outer.count; ++o, src += outer.s, dst += outer.d, sc.sidx += outer.c) {
        const char *s = src;
        char *d = dst;
        tl_dim c = sc.sidx;
        simde__m512 f = _mm512_set1_ps(per == TL__SR_SCALED_ONCE ? sc.sc[c] : 1.f);
        for (k = 0; k + 2 <= rs.count; k += 2, s += 2 * rs.s, d += 2 * rs.d, c += 2 * rs.c) {
            simde__m512i x = tl__sr16_load_two(ssz, s, s + rs.s);
            simde__m512 v;
            if (TL__SR16_INTEGER(st, dt, 0, per)) {
                tl__sr16_put_two(tl__sr16_int_convert(st, dt, x), dsz, d, d + rs.d);
                continue;
            }
            v = tl__sr16_widen(st, x);
            if (per == TL__SR_SCALED_ONCE && rs.c != 0)
                f = _mm512_mask_blend_ps(0xff00, _mm512_set1_ps(sc.sc[c]), _mm512_set1_ps(sc.sc[c + rs.c]));
            v = tl__sr16_quantize(q, 0, v, per == TL__SR_SCALED_ONCE, f);
            tl__sr16_put_two(tl__sr16_narrow(dt, v, TL__SR16_EXACT(st, 0, per)), dsz, d, d + rs.d);
        }
        if (k < rs.count) {
            tl__sr_scales at = sc;
            at.sidx = c;
            if (per == TL__SR_SCALED_ONCE) q->s0 = sc.sc[c];
            tl__sr16_any_run(q, 0, per, st, dt, s, d, at, 8);
        }
    }
}

/* tl__sr16_any_walk for runs of 16 or 8 values (a pixel of nChw16c or
   nChw8c) that only convert or scale once a run (per), with n a
   constant: the loop over a run and its masks, run by run, cost 1.7x
   the vector (s8 -> bf16 nhwc -> nChw16c 8x64x14x14). */
TL__SR_INLINE void tl__sr16_any_short(tl__sr_q *q, int per, tl_data_type st, tl_data_type dt, const char *src,
                                      char *dst, tl__sr_scales sc, tl_dim n, tl__sr_runs rs, tl__sr_runs outer)
{
    if (n == 16) tl__sr16_any_walk(q, 0, per, st, dt, src, dst, sc, 16, rs, outer);
    else if (n == 8) tl__sr16_any_pairs8(q, per, st, dt, src, dst, sc, rs, outer);
    else tl__sr16_any_walk(q, 0, per, st, dt, src, dst, sc, n, rs, outer);
}

/* tl__sr_convert_full's runs for one pair of types: those that only
   convert or scale once a run in loops of their own (GCC keeps the
   tests of the general one inside). */
TL__SR_INLINE void tl__sr16_any_pair(const tl_reorder_plan *p, tl_data_type st, tl_data_type dt,
                                     const char *src, char *dst, tl__sr_scales sc, tl_dim n, tl__sr_runs rs,
                                     tl__sr_runs outer)
{
    tl__sr_q q = tl__sr_q_of(p, sc);
    q.nt = rs.nt;
    if (q.extra) tl__sr16_any_walk(&q, 1, TL__SR_SCALED_EACH, st, dt, src, dst, sc, n, rs, outer);
    else if (!sc.sc) tl__sr16_any_short(&q, TL__SR_UNSCALED, st, dt, src, dst, sc, n, rs, outer);
    else if (sc.sstep == 0) tl__sr16_any_short(&q, TL__SR_SCALED_ONCE, st, dt, src, dst, sc, n, rs, outer);
    else tl__sr16_any_walk(&q, 0, TL__SR_SCALED_EACH, st, dt, src, dst, sc, n, rs, outer);
}

/* tl__sr16_any_pair for the pairs of types, a function each (one
   function holding all kept the walk's pointers on the stack). */
#define TL__SR16_ANY_DEF(S, D) \
    TL__SR_NOINLINE void tl__sr16_any_##S##_##D(const tl_reorder_plan *p, const char *src, char *dst, \
                                                tl__sr_scales sc, tl_dim n, tl__sr_runs rs, tl__sr_runs outer) \
    { \
        tl__sr16_any_pair(p, TL_##S, TL_##D, src, dst, sc, n, rs, outer); \
    }
#define TL__SR16_ANY_FROM(X, S) X(S, S8) X(S, U8) X(S, S32) X(S, BF16) X(S, F16)
#define TL__SR16_ANY_PAIRS(X) \
    TL__SR16_ANY_FROM(X, S8) TL__SR16_ANY_FROM(X, U8) TL__SR16_ANY_FROM(X, S32) TL__SR16_ANY_FROM(X, BF16) \
    TL__SR16_ANY_FROM(X, F16)
TL__SR16_ANY_PAIRS(TL__SR16_ANY_DEF)
#define TL__SR16_ANY_CASE(S, D) \
    case TL__SR_PAIR(TL_##S, TL_##D): tl__sr16_any_##S##_##D(p, src, dst, sc, n, rs, outer); return 1;

/* Converts tl__sr_convert_full's runs (of any length) where neither
   type is f32 (nor f64); returns 0 for the others. */
static int tl__sr16_convert_any(const tl_reorder_plan *p, const char *src, char *dst, tl__sr_scales sc,
                                tl_dim n, tl__sr_runs rs, tl__sr_runs outer)
{
    switch (TL__SR_PAIR(p->src_md.data_type, p->dst_md.data_type)) {
    TL__SR16_ANY_PAIRS(TL__SR16_ANY_CASE)
    default: return 0;
    }
}

/* Vector i of the group at s (its scales from index c as per says),
   scaled and shifted; whole: its pieces are one load, and its scales
   (g->cwhole). */
TL__SR_INLINE simde__m512 tl__sr16_side_vector(const tl__sr_q *q, int extra, int per, int whole,
                                               const char *s, const float *sc, tl_dim c,
                                               const tl__sr_side *g, int i)
{
    const float *a = (const float *)(const void *)(s + g->so[2 * i]);
    simde__m512 v = whole ? simde_mm512_loadu_ps(a)
                          : tl__sr16_join8(a, (const float *)(const void *)(s + g->so[2 * i + 1]));
    simde__m512 f = simde_mm512_set1_ps(q->s0);
    if (per == TL__SR_SCALED_EACH)
        f = whole ? simde_mm512_loadu_ps(sc + c + g->co[2 * i]) : tl__sr16_join8(sc + c + g->co[2 * i], sc + c + g->co[2 * i + 1]);
    return tl__sr16_quantize(q, extra, v, per != TL__SR_UNSCALED, f);
}

/* The walk of tl__sr_side g from s and scale index c to d; bf16: the
   type of dst, else s8 or u8 (u8). */
TL__SR_INLINE void tl__sr16_side_walk(const tl__sr_q *q, int extra, int per, int whole, int bf16, int u8,
                                      const char *s, const float *sc, tl_dim c,
                                      const tl__sr_side *g, char *d)
{
    simde__m512i idx = simde_mm512_loadu_si512(g->idx);
    tl_dim o0, o, i;
    for (o0 = 0; o0 < g->no; o0 += g->nb, s += (size_t)g->nb * g->os, c += g->nb * g->oc, d += (size_t)g->nb * g->od) {
        tl_dim ci = c;
        const char *si = s;
        char *di = d;
        for (i = 0; i < g->ni; ++i, si += g->gs, ci += g->gc, di += 64) {
            const char *sg = si;
            char *dg = di;
            tl_dim cg = ci;
            for (o = 0; o < g->nb; ++o, sg += g->os, cg += g->oc, dg += g->od) {
                simde__m512 a = tl__sr16_side_vector(q, extra, per, whole, sg, sc, cg, g, 0);
                simde__m512 b = tl__sr16_side_vector(q, extra, per, whole, sg, sc, cg, g, 1);
                if (bf16) {
                    tl__sr16_put(dg, tl__sr16_bf16_pick(a, b, idx), q->nt);
                } else {
                    simde__m512 e = tl__sr16_side_vector(q, extra, per, whole, sg, sc, cg, g, 2);
                    simde__m512 f = tl__sr16_side_vector(q, extra, per, whole, sg, sc, cg, g, 3);
                    tl__sr16_put(dg, simde_mm512_permutexvar_epi32(idx, tl__sr16_packs_i8(tl__sr16_to_i32(a), tl__sr16_to_i32(b),
                                                                                           tl__sr16_to_i32(e), tl__sr16_to_i32(f), u8)),
                                 q->nt);
                }
            }
        }
    }
}

/* tl__sr16_side_walk for dst of bf16 (bf16) or 8 bits, the scaling and
   the other steps constant; the pieces come one load a vector (and
   their scales, if each has its own) where they can, save with steps
   besides a scale. */
TL__SR_INLINE void tl__sr16_side_type(const tl__sr_q *q, int per, int bf16, int u8, const char *s,
                                      const float *sc, tl_dim c, const tl__sr_side *g, char *d)
{
    if (q->extra) tl__sr16_side_walk(q, 1, per, 0, bf16, u8, s, sc, c, g, d);
    else if (per == TL__SR_SCALED_EACH && g->cwhole) tl__sr16_side_walk(q, 0, TL__SR_SCALED_EACH, 1, bf16, u8, s, sc, c, g, d);
    else if (per == TL__SR_SCALED_EACH) tl__sr16_side_walk(q, 0, TL__SR_SCALED_EACH, 0, bf16, u8, s, sc, c, g, d);
    else if (per == TL__SR_SCALED_ONCE && g->whole) tl__sr16_side_walk(q, 0, TL__SR_SCALED_ONCE, 1, bf16, u8, s, sc, c, g, d);
    else if (per == TL__SR_SCALED_ONCE) tl__sr16_side_walk(q, 0, TL__SR_SCALED_ONCE, 0, bf16, u8, s, sc, c, g, d);
    else if (g->whole) tl__sr16_side_walk(q, 0, TL__SR_UNSCALED, 1, bf16, u8, s, sc, c, g, d);
    else tl__sr16_side_walk(q, 0, TL__SR_UNSCALED, 0, bf16, u8, s, sc, c, g, d);
}

/* Converts what tl__sr_side_init lines up of tl__sr_convert_full's runs
   (tl__sr_side_fits holds), x.count times (x.s, x.d and x.c further on
   each; x.count > 1 only where the walk takes all of them, else it
   takes none); returns the outer iterations done, and in *rest the runs
   left at the end of each. A run of 8 a vector (TL__SR_CONVERT_BODY's
   AVX2 loop) stored 16 bytes of bf16 for 18 instructions: f32 -> bf16
   nChw8c -> nChw16c 8x64x14x14 ran at 0.56 of oneDNN's speed. */
static tl_dim tl__sr16_side_runs(const tl_reorder_plan *p, const char *src, char *dst,
                                 tl__sr_scales sc, tl_dim n, tl__sr_runs rs, tl__sr_runs outer,
                                 tl__sr_runs x, tl_dim *rest)
{
    tl_data_type dt = p->dst_md.data_type;
    int per = !sc.sc ? TL__SR_UNSCALED : sc.sstep == 1 ? TL__SR_SCALED_EACH : TL__SR_SCALED_ONCE;
    tl__sr_side g;
    tl__sr_q q = tl__sr_q_of(p, sc);
    tl_dim done = tl__sr_side_init(&g, n, tl__sr_side_np(dt), per == TL__SR_SCALED_EACH, rs, outer), j;
    q.nt = rs.nt;
    *rest = 0;
    if (done == 0 || (x.count > 1 && (done < outer.count || g.rest > 0))) return 0;
    *rest = g.rest;
    for (j = 0; j < x.count; ++j, src += x.s, dst += x.d, sc.sidx += x.c) {
        if (per == TL__SR_SCALED_ONCE) q.s0 = sc.sc[sc.sidx];
        if (dt == TL_BF16) tl__sr16_side_type(&q, per, 1, 0, src, sc.sc, sc.sidx, &g, dst);
        else if (dt == TL_U8) tl__sr16_side_type(&q, per, 0, 1, src, sc.sc, sc.sidx, &g, dst);
        else tl__sr16_side_type(&q, per, 0, 0, src, sc.sc, sc.sidx, &g, dst);
    }
    return done;
}

/* A row's 16 values of quad qd; nw: 1 for a quad of one window (then a
   constant, and the other windows' code drops out), else 4. */
TL__SR_INLINE simde__m512 tl__sr16_quad_row(const float *row, const tl__sr_quad *qd,
                                            simde__m512i idx, int nw)
{
    simde__m512 v = simde_mm512_permutex2var_ps(simde_mm512_loadu_ps(row + qd->w[0]), idx,
                                                simde_mm512_loadu_ps(row + qd->w[0] + 16));
    int k;
    TL__SR_UNROLL
    for (k = 1; k < nw; ++k)
        if (k < qd->nw)
            v = simde_mm512_mask_mov_ps(v, (simde__mmask16)qd->m[k],
                                        simde_mm512_permutex2var_ps(simde_mm512_loadu_ps(row + qd->w[k]), idx,
                                                                    simde_mm512_loadu_ps(row + qd->w[k] + 16)));
    return v;
}

/* The 16 columns at row of 4 rows (rs apart, scales f) packed into
   S's 64 bytes for tl__sr16_pack_sets; m: the columns there, whole ones
   loaded unmasked (tl__sr16_load_lanes): masked loads of all 16 lanes
   made the packing of f32 -> s8 OIhw4i16o4i 256x256x3x3 1.37x slower
   from L1 (Zen 5). */
TL__SR_INLINE void tl__sr16_pack_set(const tl__sr_q *q, int extra, int u8, const float *row, size_t rs,
                                     const simde__m512 *f, simde__mmask16 m, char *S)
{
    simde__m512i a[4];
    int r;
    TL__SR_UNROLL
    for (r = 0; r < 4; ++r) {
        simde__m512 v = simde_mm512_castsi512_ps(tl__sr16_load_lanes(4, (const char *)(row + (size_t)r * rs), m));
        a[r] = tl__sr16_to_i32(tl__sr16_quantize(q, extra, v, 1, f[r]));
    }
    simde_mm512_storeu_si512((void *)S,
                             simde_mm512_shuffle_epi8(tl__sr16_packs_i8(a[0], a[1], a[2], a[3], u8),
                                                      simde_mm512_loadu_si512((const void *)tl__sr16_bytes_t4x4)));
}

/* Blocks of OIhw4i16o4i (and its kin) from an f32 source, in two
   passes over their 16 R rows of nC values (rows rs values apart, a
   group's 4 Z values zs apart in a row). First each row's run is
   converted, and four rows at a time packed into a set of S: set h
   (rows 4h..4h+3, 16 bytes a column) holds each column as one dword of
   those rows' bytes, a byte transpose inside every lane turning the
   packs' [row][column] into [column][row]. Then each quad
   (tl__sr_quad) draws its 4 groups' columns from every set by the
   window permutes of a row of dwords (tl__sr16_quad_row), lane k of set
   h holding group k's [Z][R] bytes of rows 4h..4h+3; a 4 x 4 transpose
   of lanes over the sets and the byte transpose again give each group
   its 64 bytes, [R][Z]. Every value is loaded once, whole lines where
   the runs start on one, and a permute picks 4 rows' columns at once:
   permuting each row's floats out of windows at any place (two loads
   that split lines, a permute per row and quad) took f32 -> s8
   OIhw4i16o4i with per-O scales 256x256x3x3 72 us, 2x2 42,
   1024x1024x1x1 157, against 64, 30 and 109 (Zen 4).
   sc: the 16 rows' scales (1 without). */
TL__SR_INLINE void tl__sr16_pack_sets(const tl__sr_q *q, int extra, int u8, const float *src, size_t rs,
                                      tl_dim nC, const float *sc, char *S)
{
    tl_dim k, nfull = nC / 16;
    int h, r;
    for (h = 0; h < 4; ++h) {
        const float *row = src + (size_t)(4 * h) * rs;
        simde__m512 f[4];
        for (r = 0; r < 4; ++r) f[r] = simde_mm512_set1_ps(sc[4 * h + r]);
        for (k = 0; k < nfull; ++k, row += 16, S += 64) tl__sr16_pack_set(q, extra, u8, row, rs, f, 0xffff, S);
        if (nC % 16) {
            tl__sr16_pack_set(q, extra, u8, row, rs, f, (simde__mmask16)((1u << nC % 16) - 1), S);
            S += 64;
        }
    }
}

/* One quad from the sets (each set bytes long); nw: as tl__sr16_quad_row. */
TL__SR_INLINE void tl__sr16_quad_from_sets(const char *S, size_t set, const tl__sr_quad *qd, int nw, char *d)
{
    simde__m512i idx = simde_mm512_loadu_si512((const void *)qd->idx);
    simde__m512i bytes = simde_mm512_loadu_si512((const void *)tl__sr16_bytes_t4x4);
    simde__m512 P[4];
    int h;
    TL__SR_UNROLL
    for (h = 0; h < 4; ++h) P[h] = tl__sr16_quad_row((const float *)(const void *)(S + h * set), qd, idx, nw);
    tl__sr16_lanes_t4x4(&P[0], &P[1], &P[2], &P[3]);
    TL__SR_UNROLL
    for (h = 0; h < 4; ++h)
        if (h < qd->ng)
            simde_mm512_storeu_si512((void *)(d + qd->to[h]),
                                     simde_mm512_shuffle_epi8(simde_mm512_castps_si512(P[h]), bytes));
}

/* S: 64-byte aligned, 256 bytes for every 16 columns. */
static void tl__sr16_zipsrc_block(const tl__sr_q *q, int u8, const float *src, size_t rs, tl_dim nC,
                                  const float *sc, const tl__sr_quad *qd, int nq, char *S, char *d)
{
    size_t set = (size_t)(nC + 15) / 16 * 64;
    if (q->extra) tl__sr16_pack_sets(q, 1, u8, src, rs, nC, sc, S);
    else tl__sr16_pack_sets(q, 0, u8, src, rs, nC, sc, S);
    for (; nq > 0; --nq, ++qd) {
        if (qd->nw == 1) tl__sr16_quad_from_sets(S, set, qd, 1, d);
        else tl__sr16_quad_from_sets(S, set, qd, 4, d);
    }
}

/* The 32 bytes at s, then the 32 at s + pair: one dst line of a pair
   of runs. */
TL__SR_INLINE simde__m512 tl__sr16_pair(const char *s, size_t pair)
{
    return simde_mm512_castpd_ps(simde_mm512_insertf64x4(
        simde_mm512_castpd256_pd512(simde_mm256_loadu_pd((const double *)(const void *)s)),
        simde_mm256_loadu_pd((const double *)(const void *)(s + pair)), 1));
}

/* tl__sr_copy_nest_n's groups of pairs of 32-byte runs side by side in
   dst (the two 8o source blocks of each 16o row of OIhw8i8o ->
   OIhw16i16o, the two nChw8c blocks of nChw16c's), the second pair
   bytes after the first in the source: one 64-byte store a pair,
   streamed (stream) where the group's stores lie on cache lines. */
static void tl__sr16_copy_pairs(const char *s, char *d, size_t pair, const tl__sr_runs *lv, int nlv, int stream)
{
    tl_dim at[TL_REORDER_MAX_LOOPS], k;
    tl__sr_counters_zero(at, nlv);
    do {
        const char *sk = s;
        char *dk = d;
        int nt = stream && (uintptr_t)d % 64 == 0 && lv[0].d == 64;
        for (k = 0; k < lv[0].count; ++k, sk += lv[0].s, dk += lv[0].d) {
            if (nt) tl__sr16_store(dk, tl__sr16_pair(sk, pair), 1);
            else tl__sr16_store(dk, tl__sr16_pair(sk, pair), 0);
        }
    } while (tl__sr_runs_next(at, &s, &d, lv, nlv));
}

/* Pairs of 32-byte runs side by side in dst, the second rs bytes after
   the first in the source, walked in source order (tl__sr_copy_groups):
   each pair once for every outer iteration, one 64-byte store each,
   streamed (nt) where those lie on lines. */
static void tl__sr16_copy_pairs_src(const char *s, char *d, size_t rs, tl_dim pairs, tl__sr_runs outer, int nt)
{
    tl_dim k, o;
    for (k = 0; k < pairs; ++k, s += 2 * rs, d += 64) {
        const char *so = s;
        char *dd = d;
        for (o = 0; o < outer.count; ++o, so += outer.s, dd += outer.d) {
            if (nt) tl__sr16_store(dd, tl__sr16_pair(so, rs), 1);
            else tl__sr16_store(dd, tl__sr16_pair(so, rs), 0);
        }
    }
}

/* 32 values of a row at p as 16-bit words: as they are (es 2), or f32
   rounded to bf16 (es 4). */
TL__SR_INLINE simde__m512i tl__sr16_row_words(int es, const char *p)
{
    if (es == 2) return simde_mm512_loadu_si512((const void *)p);
    return tl__sr16_to_bf16x2(simde_mm512_loadu_ps((const void *)p),
                              simde_mm512_loadu_ps((const void *)(p + 64)));
}

/* nl (2 to 4) rows of 16-bit values (es 2), or of f32 values converted
   to bf16 on the way (es 4: tl__sr16_row_words), sb bytes apart,
   interleaved into dense pixels of nl values (tl__sr_widen), 32 pixels
   at a time: word f of the pixels' nl output vectors is value f / nl of
   row f % nl, which one two-source word permute of rows 0 and 1 and,
   for rows 2 and 3, a second one merged under a mask put in place. The
   general transpose of 8 pixels a block ran f32 -> bf16 3-channel nchw
   -> nhwc at half oneDNN's speed. Returns the pixels done. The
   permutes' words come from vector arithmetic: a scalar loop over them,
   with a division each, cost 4x the moves of a 4 x 196 tile (f32 ->
   bf16 nchw -> nChw4c 8x64x14x14, Zen 4). */
static tl_dim tl__sr16_planes_words(int nl, int es, const char *s, size_t sb, char *d, tl_dim nm)
{
    static const int16_t iota[32] = { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                      11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                      22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
    /* f / nl as f * (512 / nl, rounded up) >> 9: exact for f < 128 */
    simde__m512i f = simde_mm512_loadu_si512((const void *)iota), idx[4];
    simde__m512i by = simde_mm512_set1_epi16((int16_t)((512 + nl - 1) / nl));
    uint32_t hi[4] = { 0, 0, 0, 0 };
    tl_dim m;
    int k;
    if (nm < 32) return 0;
    for (k = 0; k < nl; ++k, f = simde_mm512_add_epi16(f, simde_mm512_set1_epi16(32))) {
        simde__m512i pixel = simde_mm512_srli_epi16(simde_mm512_mullo_epi16(f, by), 9);
        simde__m512i row = simde_mm512_sub_epi16(
            f, simde_mm512_mullo_epi16(pixel, simde_mm512_set1_epi16((int16_t)nl)));
        idx[k] = simde_mm512_add_epi16(
            simde_mm512_slli_epi16(simde_mm512_and_si512(row, simde_mm512_set1_epi16(1)), 5), pixel);
        hi[k] = (uint32_t)simde_mm512_cmpge_epu16_mask(row, simde_mm512_set1_epi16(2));
    }
    for (m = 0; m + 32 <= nm; m += 32) {
        const char *p = s + (size_t)es * (size_t)m;
        simde__m512i r0 = tl__sr16_row_words(es, p);
        simde__m512i r1 = tl__sr16_row_words(es, p + sb);
        simde__m512i r2 = nl > 2 ? tl__sr16_row_words(es, p + 2 * sb) : r0;
        simde__m512i r3 = nl > 3 ? tl__sr16_row_words(es, p + 3 * sb) : r2;
        TL__SR_UNROLL
        for (k = 0; k < 4; ++k) {
            simde__m512i v;
            if (k >= nl) break;
            v = simde_mm512_permutex2var_epi16(r0, idx[k], r1);
            if (nl > 2) v = simde_mm512_mask_mov_epi16(v, (simde__mmask32)hi[k],
                                                       simde_mm512_permutex2var_epi16(r2, idx[k], r3));
            simde_mm512_storeu_si512((void *)(d + 2 * (size_t)(m * nl + 32 * k)), v);
        }
    }
    return m;
}

/* Sources j0..j0+ns-1 of t at s, into one vector; n < 64: the first n
   bytes of each, through a buffer (a row's last pixels). Lanes no
   source fills (the axis's padding) are zero. es is a constant. */
TL__SR_INLINE simde__m512i tl__shuf16_gather(const char *s, simde__m512i k, const uint32_t *m,
                                             const tl_dim *off, int ns, size_t es, size_t n)
{
    simde__m512i r = simde_mm512_setzero_si512();
    int j;
    TL__SR_UNROLL
    for (j = 0; j < ns; ++j) {
        simde__m512i v;
        if (n == 64) {
            v = simde_mm512_loadu_si512((const void *)(s + off[j]));
        } else {
            unsigned char buf[64] = { 0 };
            memcpy(buf, s + off[j], n);
            v = simde_mm512_loadu_si512((const void *)buf);
        }
        if (es == 2) r = simde_mm512_mask_permutexvar_epi16(r, (simde__mmask32)m[j], k, v);
        else if (es == 4) r = simde_mm512_mask_permutexvar_epi32(r, (simde__mmask16)m[j], k, v);
        else r = simde_mm512_mask_permutexvar_epi64(r, (simde__mmask8)m[j], k, v);
    }
    return r;
}

/* One dst block over nv vectors step bytes apart (in s and d alike),
   then tail bytes of a partial one; nt: streamed (d 64-byte aligned);
   pf: lines to prefetch into L2, one per vector. es is a constant, and
   so is ns up to TL__SHUF_LINE_FIXED: its permutes then stay in
   registers (stores through char * might change the table). */
TL__SR_INLINE void tl__shuf16_lines_es(const char *s, char *d, tl_dim nv, tl_dim step,
                                       size_t tail, const tl__shuf_srcs *t, int b, int j0,
                                       int ns, size_t es, int nt, const char *pf)
{
    simde__m512i k = simde_mm512_loadu_si512((const void *)t->idx[b]);
    uint32_t m[TL__SHUF_LINE_FIXED];
    tl_dim off[TL__SHUF_LINE_FIXED], q;
    const uint32_t *mp = t->mask + j0;
    const tl_dim *op = t->off + j0;
    int j;
    if (ns <= TL__SHUF_LINE_FIXED) {
        for (j = 0; j < ns; ++j) {
            m[j] = mp[j];
            off[j] = op[j];
        }
        mp = m;
        op = off;
    }
    for (q = 0; q < nv; ++q, s += step, d += step) {
        if (pf) TL__SIMD_PREFETCH_L2(pf + q * step);
        tl__sr16_store(d, simde_mm512_castsi512_ps(tl__shuf16_gather(s, k, mp, op, ns, es, 64)), nt);
    }
    if (tail > 0) {
        unsigned char buf[64];
        simde_mm512_storeu_si512((void *)buf, tl__shuf16_gather(s, k, mp, op, ns, es, tail));
        memcpy(d, buf, tail);
    }
}

#define TL__SHUF_LINES_NS(ES) \
    switch (ns) { \
    case 1: tl__shuf16_lines_es(s, d, nv, step, tail, t, b, j0, 1, ES, nt, pf); break; \
    case 2: tl__shuf16_lines_es(s, d, nv, step, tail, t, b, j0, 2, ES, nt, pf); break; \
    case 3: tl__shuf16_lines_es(s, d, nv, step, tail, t, b, j0, 3, ES, nt, pf); break; \
    default: tl__shuf16_lines_es(s, d, nv, step, tail, t, b, j0, ns, ES, nt, pf); break; \
    }

static void tl__shuf16_lines(const char *s, char *d, tl_dim nv, tl_dim step, size_t tail,
                             const tl__shuf_srcs *t, int b, int j0, int ns, size_t es, int nt,
                             const char *pf)
{
    if (es == 2) TL__SHUF_LINES_NS(2)
    else if (es == 4) TL__SHUF_LINES_NS(4)
    else TL__SHUF_LINES_NS(8)
}
#undef TL__SHUF_LINES_NS

/* 4-byte transposes with 4 values on one side, dense (nChw4c's channels):
   16 rows of the other side at a time, four 64-byte vectors in and four
   out through a lane shuffle and a two-source permute each. Splitting
   (nm = 4, source rows of 4 values one after another: nChw4c -> nchw):
   the permutes take channels 0, 1 and 2, 3 of 8 pixels into two
   vectors, the lane shuffles their halves into whole channel rows.
   Joining (nl = 4, dst rows of 4 values one after another: nchw ->
   nChw4c) runs the same steps backwards. SSE2's 4 x 4 blocks took a
   shuffle for every 2 values. Returns the rows (joining) or columns
   (splitting) done, in 16s. */
static tl_dim tl__sr16_quads(const char *s, tl_dim ss, char *d, tl_dim ds, tl_dim nm, tl_dim nl)
{
    static const int32_t split[2][16] = {
        { 0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29 },
        { 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31 } };
    static const int32_t join[2][16] = {
        { 0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27 },
        { 4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31 } };
    const float *sf = (const float *)(const void *)s;
    float *df = (float *)(void *)d;
    tl_dim n = nm == 4 ? nl : nm, i;
    int k;
    if (nm == 4) {
        simde__m512i lo = simde_mm512_loadu_si512((const void *)split[0]),
                     hi = simde_mm512_loadu_si512((const void *)split[1]);
        for (i = 0; i + 16 <= n; i += 16) {
            const float *p = sf + 4 * i;
            simde__m512 a[4], r[4];
            for (k = 0; k < 2; ++k) {     /* pixels 8k..8k+7: channels 0, 1 and 2, 3 */
                simde__m512 x = simde_mm512_loadu_ps(p + 32 * k), y = simde_mm512_loadu_ps(p + 32 * k + 16);
                a[k] = simde_mm512_permutex2var_ps(x, lo, y);
                a[k + 2] = simde_mm512_permutex2var_ps(x, hi, y);
            }
            r[0] = simde_mm512_shuffle_f32x4(a[0], a[1], 0x44);
            r[1] = simde_mm512_shuffle_f32x4(a[0], a[1], 0xee);
            r[2] = simde_mm512_shuffle_f32x4(a[2], a[3], 0x44);
            r[3] = simde_mm512_shuffle_f32x4(a[2], a[3], 0xee);
            for (k = 0; k < 4; ++k) simde_mm512_storeu_ps(df + (size_t)k * (size_t)ds + i, r[k]);
        }
        return i;
    }
    {
        simde__m512i lo = simde_mm512_loadu_si512((const void *)join[0]),
                     hi = simde_mm512_loadu_si512((const void *)join[1]);
        for (i = 0; i + 16 <= n; i += 16) {
            simde__m512 r[4], a[4];
            float *p = df + 4 * i;
            for (k = 0; k < 4; ++k) r[k] = simde_mm512_loadu_ps(sf + (size_t)k * (size_t)ss + i);
            a[0] = simde_mm512_shuffle_f32x4(r[0], r[1], 0x44);     /* channels 0, 1 of pixels 0..7 */
            a[1] = simde_mm512_shuffle_f32x4(r[0], r[1], 0xee);     /* of pixels 8..15 */
            a[2] = simde_mm512_shuffle_f32x4(r[2], r[3], 0x44);
            a[3] = simde_mm512_shuffle_f32x4(r[2], r[3], 0xee);
            for (k = 0; k < 2; ++k) {
                simde_mm512_storeu_ps(p + 32 * k, simde_mm512_permutex2var_ps(a[k], lo, a[k + 2]));
                simde_mm512_storeu_ps(p + 32 * k + 16, simde_mm512_permutex2var_ps(a[k], hi, a[k + 2]));
            }
        }
        return i;
    }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif /* TL__SR_AVX512 */
#if TL__SR_AVX512 == 2
#undef SIMDE_X86_AVX512F_NATIVE
#undef SIMDE_X86_AVX512BW_NATIVE
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
#ifdef TL__SR_ASSERT_SWAPPED
#pragma pop_macro("HEDLEY_STATIC_ASSERT")
#undef TL__SR_ASSERT_SWAPPED
#endif

/* TL__SR_ISA_CAP (tests only): an int the program sets before its first
   plan, 0 for neither AVX2 nor AVX-512, 1 for AVX2 at most, 2 for
   AVX-512 without AVX512-BF16. One build then checks every variant the
   CPU has, where a build per variant cost a compile of the whole header
   each. */
#ifdef TL__SR_ISA_CAP
#define TL__SR_ISA_ALLOWS(level) ((TL__SR_ISA_CAP) >= (level))
#else
#define TL__SR_ISA_ALLOWS(level) 1
#endif

/* Whether the AVX2 variants may run here. */
static int tl__sr_avx2(void)
{
#if TL__SR_AVX2 == 2 && defined(__clang__)
    /* clang 14 knows no "f16c" feature string; every AVX2 CPU has F16C */
    return TL__SR_ISA_ALLOWS(1) && __builtin_cpu_supports("avx2");
#elif TL__SR_AVX2 == 2
    return TL__SR_ISA_ALLOWS(1) && __builtin_cpu_supports("avx2") &&
           __builtin_cpu_supports("f16c");
#else
    return TL__SR_AVX2 && TL__SR_ISA_ALLOWS(1);
#endif
}

/* Whether the AVX-512 variants may run here. */
static int tl__sr_avx512(void)
{
#if TL__SR_AVX512 == 2
    return TL__SR_ISA_ALLOWS(2) && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw");
#else
    return TL__SR_AVX512 && TL__SR_ISA_ALLOWS(2);
#endif
}

/* tl__sr16_convert_any where AVX-512 runs, the one entry of
   tl__sr_convert_full and tl__sr_convert_runs; f32 plans pay the type
   test inline, not a call. */
TL__SR_INLINE int tl__sr_convert_any(const tl_reorder_plan *p, const char *src, char *dst, tl__sr_scales sc,
                                     tl_dim n, tl__sr_runs rs, tl__sr_runs outer)
{
#if TL__SR_AVX512
    return p->src_md.data_type != TL_F32 && p->dst_md.data_type != TL_F32 && tl__sr_avx512() &&
           tl__sr16_convert_any(p, src, dst, sc, n, rs, outer);
#else
    (void)p, (void)src, (void)dst, (void)sc, (void)n, (void)rs, (void)outer;
    return 0;
#endif
}

/* Whether AVX512-BF16's conversions may run here (TL__SR_ISA_CAP 3). */
static int tl__sr_avx512bf16(void)
{
#if TL__SR_BF16 == 2
    return tl__sr_avx512() && TL__SR_ISA_ALLOWS(3) && __builtin_cpu_supports("avx512bf16") &&
           __builtin_cpu_supports("avx512dq");
#else
    return TL__SR_BF16 && tl__sr_avx512() && TL__SR_ISA_ALLOWS(3);
#endif
}

/* Whether the CPU is Intel's, for the choices that went opposite ways on
   the two machines measured: streaming stores into lines that fill in
   parts (tl__sr_stream_rows, tl__shuf_last_init). */
static int tl__sr_intel(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5))
    return __builtin_cpu_is("intel");
#else
    return 0;
#endif
}

TL__SR_PAIR_SWITCH(tl__sr_convert_base, TL__SR_FAST_PAIRS, tl__sr_convert_body)
TL__SR_PAIR_SWITCH(tl__sr_convert_plain, TL__SR_FAST_PAIRS, tl__sr_plain_body)

/* Whether runs take TL__SR_CONVERT_BODY's PLAIN loops. */
static int tl__sr_plain(const tl_reorder_plan *p, tl__sr_scales sc, tl__sr_runs rs)
{
    return !sc.sc && !rs.nt && !tl__sr_q_of(p, sc).extra;
}

/* Whether tl__sr16_side_runs takes runs of n values (rs, outer.count
   times; their scales as sc has them): f32 to bf16, s8 or u8 without
   beta, runs of 8 or 16 side by side in dst but not in the source (the
   rows a converting tile stages, where the converter's own loop reads
   whole vectors already and the walk's setup cost more than the wider
   stores saved: per-channel f32 -> s8 nchw -> nChw16c 8x64x14x14 21.9
   -> 23.3 us, Zen 4), and scales per value or one for all. Runs that
   only convert to u8 keep AVX2's plain loop, which ran them up to 1.2x
   as fast (f32 -> u8 nChw16c -> nhwc 8x64x14x14, 5.2 against 6.0 us).
   plain: tl__sr_plain's answer for these runs. */
static int tl__sr_side_fits(const tl_reorder_plan *p, tl__sr_scales sc, tl_dim n, tl__sr_runs rs,
                            tl__sr_runs outer, int plain)
{
    tl_data_type dt = p->dst_md.data_type;
    size_t dsz = tl_dt_size(dt);
    return p->src_md.data_type == TL_F32 && (dt == TL_BF16 || dt == TL_S8 || dt == TL_U8) &&
           p->beta == 0 && (n == 8 || n == 16) && rs.d == (size_t)n * dsz &&
           (outer.count == 1 || outer.d == (size_t)rs.count * rs.d) && rs.s != (size_t)n * 4 &&
           (dt != TL_U8 || !plain) && !sc.wrap &&
           (!sc.sc || sc.sstep == 1 || (sc.sstep == 0 && rs.c == 0 && (outer.count == 1 || outer.c == 0)));
}

/* rs.count runs of n (a multiple of 8) values each (outer.count times);
   AVX-512's loop takes runs in 16s, save plain runs of 16 (AVX2's plain
   loop ran them as fast). */
static void tl__sr_convert_full(const tl_reorder_plan *p, const char *src, char *dst,
                                tl__sr_scales sc, tl_dim n, tl__sr_runs rs,
                                tl__sr_runs outer)
{
    int plain = tl__sr_plain(p, sc, rs);    /* the same for the runs the walk leaves */
#if TL__SR_AVX512
    tl_data_type st = p->src_md.data_type, dt = p->dst_md.data_type;
    if (tl__sr_side_fits(p, sc, n, rs, outer, plain) && tl__sr_avx512()) {
        tl_dim rest, done = tl__sr16_side_runs(p, src, dst, sc, n, rs, outer, tl__sr_one_run, &rest);
        if (rest > 0) {     /* the last runs of every outer iteration */
            src += (size_t)(rs.count - rest) * rs.s;
            dst += (size_t)(rs.count - rest) * rs.d;
            sc.sidx += (rs.count - rest) * rs.c;
            rs.count = rest;
        } else if (done == outer.count) {
            return;
        } else {
            src += (size_t)done * outer.s;
            dst += (size_t)done * outer.d;
            sc.sidx += done * outer.c;
            outer.count -= done;
        }
    }
    if (st == TL_F32 && (dt == TL_S8 || dt == TL_U8 || dt == TL_BF16) && p->beta == 0 &&
        n % 16 == 0 && !(plain && n == 16) && (!sc.sc || sc.sstep <= 1) && !sc.wrap && tl__sr_avx512()) {
        tl__sr16_convert_full(p, src, dst, sc, n, rs, outer);
        return;
    }
    if (tl__sr_convert_any(p, src, dst, sc, n, rs, outer)) return;
#endif
#if TL__SR_AVX2
    if (tl__sr_avx2()) {
        if (plain) tl__sr8_convert_plain(p, src, dst, sc, n, rs, outer);
        else tl__sr8_convert_full(p, src, dst, sc, n, rs, outer);
        return;
    }
#endif
    if (plain) tl__sr_convert_plain(p, src, dst, sc, n, rs, outer);
    else tl__sr_convert_base(p, src, dst, sc, n, rs, outer);
}

/* Whether converted runs (n bytes of dst each, rs, outer.count times)
   stream: a large dst (stream: tl__sr_dst_far),
   every store 16-byte aligned, and lines that complete in order: one
   run, runs side by side (in 16s of bytes: the next run starts aligned)
   whose walks follow one another or fill whole lines, or runs of whole
   lines. Streamed, f32 -> f32 with a scale, s8, f16 and bf16 -> f32,
   32x64x56x56 (24.5 MiB of dst), ran 1.3-1.7x as fast on the Zen 3. */
static int tl__sr_convert_streams(int stream, const char *d, size_t n, tl__sr_runs rs,
                                  tl__sr_runs outer)
{
    size_t walk = (rs.count == 1 || rs.d == n) && n % 16 == 0 ? (size_t)rs.count * n : 0;
    int lines = (uintptr_t)d % 64 == 0 && (outer.count == 1 || outer.d % 64 == 0);
    if (!stream || (uintptr_t)d % 16 != 0 || (outer.count > 1 && outer.d % 16 != 0)) return 0;
    if (rs.count == 1 && outer.count == 1) return 1;     /* its last bytes go plainly */
    if (walk != 0 && (outer.count == 1 || outer.d == walk || (lines && walk % 64 == 0))) return 1;
    return lines && n % 64 == 0 && (rs.count == 1 || rs.d % 64 == 0);
}

#define TL__SR_TAIL_RUNS 16  /* runs whose last values convert together */

/* Whether converted runs of n values take their last values in an
   overlapping step (tl__sr_convert_runs). */
static int tl__sr_overlaps(const tl_reorder_plan *p, tl_dim n)
{
    return n >= 8 && p->beta == 0;
}

/* Converts rs.count runs of n contiguous elements (src and dst stride 1
   inside a run; run j at src + j*rs.s, dst + j*rs.d, its scales j*rs.c
   further on). Without beta, runs of 8 values or more go whole to one
   converter call, whose last step converts the last 8 values again
   where n is not in 8s (the same values into the same places: dst is
   not read): f32 -> s8 nchw -> nChw16c 8x100x7x7 12.4 -> 9.4 us, nchw ->
   nchw with per-channel scales 8x64x14x14 1.25x (Zen 4). Else the
   first n / 8 * 8 values of every run go in one call and the last n % 8
   of up to TL__SR_TAIL_RUNS runs are gathered into small buffers and
   converted together, so that they take the same vector path without
   touching a byte past a run, and runs of any length cost a converter
   call, not two each (the 49 values of a 7x7 plane, 100 channels: f32
   -> s8 nchw -> nChw16c ran at a fifth of oneDNN's speed that way).
   rs.nt: stream the stores of the first part of a single run or of runs
   without last values; those are stored plainly. */
static void tl__sr_convert_runs(const tl_reorder_plan *p, const char *src, char *dst,
                                tl__sr_scales sc, tl_dim n, tl__sr_runs rs)
{
    size_t ssz = tl_dt_size(p->src_md.data_type), dsz = tl_dt_size(p->dst_md.data_type);
    /* r below 8 where GCC sees it: it expands the copies of the last
       values inline then (library calls ran nChw4c 1.7x slower) */
    tl_dim r = tl__sr_overlaps(p, n) ? 0 : n % 8, k = n - r, j0, j, t, m, mv;
    simde__m128 sb_v[TL__SR_TAIL_RUNS * 4], db_v[TL__SR_TAIL_RUNS * 4];   /* values of up to 4 bytes */
    float sct[TL__SR_TAIL_RUNS * 16];
    char *sb = (char *)(void *)sb_v, *db = (char *)(void *)db_v;
    simde__m128 *zs, *zd;
    int vary = sc.sc && (sc.sstep != 0 || rs.c != 0);
    tl__sr_scales at = sc;
    if (tl__sr_convert_any(p, src, dst, sc, n, rs, tl__sr_one_run)) return;    /* whole runs, masked */
    /* several runs with last values: those are stored later, plainly, on
       lines streamed before (and run starts may not be aligned) */
    if (r != 0 && rs.count > 1) rs.nt = 0;
    if (k > 0) tl__sr_convert_full(p, src, dst, sc, k, rs, tl__sr_one_run);
    if (r == 0) return;
    if (vary) {
        at.sc = sct;
        at.sidx = 0;
        at.sstep = 1;
        at.wrap = 0;
    }
    sc = tl__sr_step_scales(sc, k);     /* the last values' scales from k on */
    for (j0 = 0; j0 < rs.count; j0 += TL__SR_TAIL_RUNS) {
        tl_dim nb = rs.count - j0 < TL__SR_TAIL_RUNS ? rs.count - j0 : TL__SR_TAIL_RUNS;
        m = nb * r;
        mv = (m + 15) / 16 * 16;
        /* the last 16 values' bytes zeroed as 64 (enough for any type, and
           within the buffers): a memset of the bytes past m is a library
           call, a third of the instructions of a call for one short run */
        zs = sb_v + (mv - 16) * (tl_dim)ssz / 16;
        zd = db_v + (mv - 16) * (tl_dim)dsz / 16;
        zs[0] = zs[1] = zs[2] = zs[3] = zd[0] = zd[1] = zd[2] = zd[3] = simde_mm_setzero_ps();
        for (j = 0; j < nb; ++j) {
            tl_dim sidx = sc.sidx + (j0 + j) * rs.c + k * sc.sstep;
            memcpy(sb + (size_t)(j * r) * ssz, src + (size_t)(j0 + j) * rs.s + (size_t)k * ssz, (size_t)r * ssz);
            if (p->beta != 0)
                memcpy(db + (size_t)(j * r) * dsz, dst + (size_t)(j0 + j) * rs.d + (size_t)k * dsz, (size_t)r * dsz);
            if (vary)
                for (t = 0; t < r; ++t) sct[j * r + t] = sc.sc[sidx + t * sc.sstep];
        }
        if (vary)
            for (t = m; t < mv; ++t) sct[t] = 1.f;
        tl__sr_convert_full(p, sb, db, at, mv, tl__sr_one_run, tl__sr_one_run);
        for (j = 0; j < nb; ++j)
            memcpy(dst + (size_t)(j0 + j) * rs.d + (size_t)k * dsz, db + (size_t)(j * r) * dsz, (size_t)r * dsz);
    }
}

/* One run of n elements (tl__sr_convert_runs); nt: stream its first part. */
static void tl__sr_convert_run(const tl_reorder_plan *p, const char *src, char *dst,
                               tl__sr_scales sc, tl_dim n, int nt)
{
    tl__sr_runs rs = tl__sr_one_run;
    rs.nt = nt;
    tl__sr_convert_runs(p, src, dst, sc, n, rs);
}

/* Transposes a B x B block of es-byte elements (B = 16 / es): row j of
   the source (B elements from s + j*ss bytes; half: B / 2) becomes
   column j of the destination (rows d + i*ds bytes); only rows j < nload
   are read (the others are zero) and rows i < nstore written, in order
   of i. */
TL__SR_INLINE void tl__sr_transpose_block(int es, const char *s, size_t ss, char *d,
                                          size_t ds, int nload, int nstore, int nt, int half)
{
    simde__m128i r[16], t[16];
    int B = 16 / es, i;
    TL__SR_UNROLL
    for (i = 0; i < B; ++i) {
        const simde__m128i *row = (const simde__m128i *)(const void *)(s + (size_t)i * ss);
        r[i] = i >= nload ? simde_mm_setzero_si128()
             : half       ? simde_mm_loadl_epi64(row) : simde_mm_loadu_si128(row);
    }
    TL__SR_ZIP_ROUNDS(tl__sr_zip, r, t, es, B);
    TL__SR_UNROLL
    for (i = 0; i < nstore; ++i) tl__sr_put(d + (size_t)i * ds, r[tl__sr_bitrev(i, B)], nt);
}

/* The first lb / L * L columns (L = 64 / es) of a strip of 1- or
   2-byte elements (returned), streamed a whole dst line at a time: the
   four blocks that fill 64 bytes of B rows go to buf, and each row's
   line then leaves in one go (d and the rows on cache lines). Streaming
   each block's 16 bytes a row left B lines part written in between,
   which made bf16 nChw16c -> nchw 32x64x56x56 7x slower on the Zen 3
   (1.9 against 14 GB/s), depending on the run. */
TL__SR_INLINE tl_dim tl__sr_strip_lines(int es, const char *s, size_t sb, char *d, size_t db,
                                        tl_dim mb, tl_dim lb)
{
    simde__m128i buf[16 * 4];
    tl_dim B = 16 / es, L = 64 / es, lines = lb / L * L, m, l;
    int i, k;
    for (m = 0; m < mb; m += B)
        for (l = 0; l < lines; l += L) {
            TL__SR_UNROLL4
            for (k = 0; k < 4; ++k)
                tl__sr_transpose_block(es, s + (size_t)m * (size_t)es + (size_t)(l + k * B) * sb, sb,
                                       (char *)(void *)buf + 16 * k, 64, (int)B, (int)B, 0, 0);
            for (i = 0; i < (int)B; ++i) {
                char *row = d + (size_t)(m + i) * db + (size_t)l * (size_t)es;
                TL__SR_UNROLL4
                for (k = 0; k < 4; ++k) tl__sr_put(row + 16 * k, buf[4 * i + k], 1);
            }
        }
    return lines;
}

/* Whether a transpose of 1- or 2-byte elements (dst rows db bytes
   apart, nl values each, tiles rd bytes apart) may stream: whole lines
   (tl__sr_strip_lines), or dst rows shorter than a line that follow one
   another (nchw -> nChw16c), which the blocks fill a few lines at a
   time. */
static int tl__sr_stream_narrow(int es, const char *d, size_t db, tl_dim nl, size_t rd)
{
    if ((uintptr_t)d % 64 == 0 && db % 64 == 0 && rd % 64 == 0) return 1;
    return (uintptr_t)d % 16 == 0 && (size_t)nl * (size_t)es == db && db < 64 && db % 16 == 0 &&
           rd % 16 == 0;
}

/* The B x B blocks of one strip: rows [0, mb) of M, columns [0, lb) of
   L, with B = 16 / es, or B = wide for 4-byte elements in AVX2 (8) and
   AVX-512 (16). 1- and 2-byte elements stream by whole lines
   (tl__sr_strip_lines) or whole rows of 32 bytes (tl__sr8_strip_rows32),
   or take AVX2's pairs of blocks. */
TL__SR_INLINE void tl__sr_strip(int es, int wide, const char *s, size_t sb, char *d, size_t db,
                                tl_dim mb, tl_dim lb, int nt)
{
    tl_dim B = 16 / es, m = 0, l, l0 = 0;
    if (es <= 2 && nt && db % 64 == 0) {
        l0 = tl__sr_strip_lines(es, s, sb, d, db, mb, lb);
        nt = 0;
    }
#if TL__SR_AVX2
    if (es <= 2 && !nt && l0 == 0 && tl__sr_avx2()) {
        m = tl__sr8_strip_pairs(es, s, sb, d, db, mb, lb);
        if (mb - m == B) l0 = tl__sr8_strip_lpairs(es, s + (size_t)m * (size_t)es, sb, d + (size_t)m * db, db, lb);
    }
    if (es == 2 && nt && db == 32 && lb == 16 && tl__sr_avx2()) m = tl__sr8_strip_rows32(s, sb, d, mb);
#endif
#if TL__SR_AVX512
    if (wide == 16) {
        tl__sr16_strip4(s, sb, d, db, mb, lb, nt);
        return;
    }
#endif
#if TL__SR_AVX2
    if (wide == 8) {
        tl__sr8_strip4(s, sb, d, db, mb, lb, nt, NULL);
        return;
    }
#endif
    (void)wide;
    for (; m < mb; m += B)
        for (l = l0; l < lb; l += B) {
            size_t ss = sb, ds = db;    /* hidden each block, as in tl__sr8_strip4_sc */
            TL__SR_OPAQUE(ss);
            TL__SR_OPAQUE(ds);
            tl__sr_transpose_block(es, s + (size_t)m * (size_t)es + (size_t)l * sb, ss,
                                   d + (size_t)m * db + (size_t)l * (size_t)es, ds, (int)B, (int)B, nt, 0);
        }
}

/* Elements (m, l), m in [m0, m1), l in [l0, l1), of a tile one by one. */
TL__SR_INLINE void tl__sr_border(int es, const char *s, size_t sb, char *d, size_t db, tl_dim m0,
                                 tl_dim m1, tl_dim l0, tl_dim l1)
{
    tl_dim m, l;
    for (m = m0; m < m1; ++m)
        for (l = l0; l < l1; ++l)
            memcpy(d + (size_t)m * db + (size_t)l * (size_t)es, s + (size_t)m * (size_t)es + (size_t)l * sb,
                   (size_t)es);
}

/* Border columns [lb, lt) of 4-byte elements, rows [0, mt), in 4 x 4
   blocks where 4 of them are left (nchw -> nhwc with 12 channels: an
   8 x 8 block and 4 columns one by one); returns the first column
   left. */
TL__SR_INLINE tl_dim tl__sr_border_blocks4(const char *s, size_t sb, char *d, size_t db, tl_dim mt,
                                           tl_dim lb, tl_dim lt)
{
    tl_dim m, l;
    for (l = lb; l + 4 <= lt; l += 4) {
        for (m = 0; m + 4 <= mt; m += 4)
            tl__sr_transpose_block(4, s + (size_t)m * 4 + (size_t)l * sb, sb,
                                   d + (size_t)m * db + (size_t)l * 4, db, 4, 4, 0, 0);
        tl__sr_border(4, s, sb, d, db, m, mt, l, l + 4);
    }
    return l;
}

/* n rows at s, sb bytes apart and w bytes each, each from the line
   holding its first byte through the one holding its last, on their way
   into L1 (l2: only into L2; a constant where inlined). Inlined, as every
   function of prefetches alone must be: GCC finds such a function free
   of side effects and drops the calls (tl__sr_prefetch_tile's, until the
   eighth session of docs/performance.md). */
TL__SR_INLINE void tl__sr_prefetch_rows(const char *s, size_t sb, size_t w, tl_dim n, int l2)
{
    tl_dim r;
    for (r = 0; r < n; ++r) {
        const char *row = s + (size_t)r * sb;
        size_t skew = (size_t)((uintptr_t)row % 64);
        tl__sr_prefetch_lines(row - skew, w + skew, l2);
    }
}

/* The side of a transpose's blocks: wide's (tl__sr_wide), else SSE2's
   16 bytes. */
static tl_dim tl__sr_block_of(int es, int wide) { return wide ? wide : 16 / es; }

/* tl__sr_strip in bands of one block row of M, each of which first sends
   its share of the next strip's source (n rows at next, sb bytes apart
   and w bytes each: the tile's next strip, or the kernel's next step's
   first, tl__sr_runs.next) on its way into L2. For sources from beyond
   the caches (streamed tiles, tl__sr_fetches_ahead) with short strip
   rows (w <= 1 KiB: the 256-byte pixels of nhwc -> nchw, the slices of
   ab -> ba 4096x4096, the 361-byte planes of u8 nchw -> nhwc on 19x19),
   where the hardware prefetchers lose the walk from strip to strip:
   f32 nhwc -> nchw 32x64x56x56 1.8x on the Zen 4 (AVX2's blocks 1.6x),
   8x256x56x56 1.8x, ab -> ba 4096x4096 1.5x. The whole next strip sent
   at once before this one gained a fraction of that (1.1x; the core
   seems to drop prefetches beyond its queue). */
TL__SR_INLINE void tl__sr_strip_ahead(int es, int wide, const char *s, size_t sb, char *d, size_t db,
                                      tl_dim mb, tl_dim lb, int nt, const char *next, size_t w,
                                      tl_dim n)
{
    tl_dim B = tl__sr_block_of(es, wide), share = (n + mb / B - 1) / (mb / B), r = 0, m;
    for (m = 0; m < mb; m += B, r += share) {
        if (r < n) tl__sr_prefetch_rows(next + (size_t)r * sb, sb, w, n - r < share ? n - r : share, 1);
        tl__sr_strip(es, wide, s + (size_t)m * (size_t)es, sb, d + (size_t)m * db, db, B, lb, nt);
    }
}

/* The blocks of one strip, as tl__sr_strip_ahead where next is set
   (n rows of w bytes), else tl__sr_strip: a call of its own, with es and
   wide constant inside. Inlined into tl__sr_transpose_es, they had GCC
   hoist their row addresses out of every loop into stack slots, a few
   hundred instructions that each tile paid before its first block: u8
   nchw -> nChw16c 16x96x7x7 (96 tiles of 49 x 16) ran 3.5x slower on
   the Zen 4 (20.5 against 5.8 us). */
TL__SR_NOINLINE void tl__sr_strip_call(int es, int wide, const char *s, size_t sb, char *d, size_t db,
                                       tl_dim mb, tl_dim lb, int nt, const char *next, size_t w,
                                       tl_dim n)
{
#define TL__SR_STRIP_CASE(ES, WIDE) \
    case (ES) * 32 + (WIDE): \
        if (next) tl__sr_strip_ahead(ES, WIDE, s, sb, d, db, mb, lb, nt, next, w, n); \
        else tl__sr_strip(ES, WIDE, s, sb, d, db, mb, lb, nt); \
        break;
    switch (es * 32 + wide) {
    TL__SR_STRIP_CASE(1, 0)
    TL__SR_STRIP_CASE(2, 0)
    TL__SR_STRIP_CASE(4, 0)
    TL__SR_STRIP_CASE(4, 8)
    TL__SR_STRIP_CASE(4, 16)
    default: TL__SR_STRIP_CASE(8, 0)
    }
#undef TL__SR_STRIP_CASE
}

/* Whether rows at d, db bytes apart, all start on a cache line. */
static int tl__sr_lines(const char *d, size_t db)
{
    return (uintptr_t)d % 64 == 0 && db % 64 == 0;
}

/* The gaps between the dst rows of rs.count tiles of rows db bytes
   apart, tiles rs.d apart, or-ed for tl__sr_lines. */
static size_t tl__sr_row_gaps(size_t db, tl__sr_runs rs) { return rs.count > 1 ? db | rs.d : db; }

/* The elements of L a transpose strip covers (tl__sr_transpose_es,
   whose blocks it keeps whole): dst rows db bytes apart at d, nm of them
   (M), nl columns (L); nt: streamed, rs: the tiles side by side. */
static tl_dim tl__sr_strip_of(int es, int wide, const char *d, size_t db, tl_dim nm, tl_dim nl, int nt,
                              tl__sr_runs rs)
{
    tl_dim B = tl__sr_block_of(es, wide);
    /* a short M (the 16 channels of nChw16c -> nchw, the 256 of nhwc ->
       nchw, the 256 b of ab -> ba 4096x256) makes many dst rows that each
       get only the strip's bytes before the walk comes back: wider strips
       give them several lines at once (M up to 1 KiB on the Zen 3: ab ->
       ba 4096x256 27 -> 37 GB/s, nchw -> nhwc 32x64x14x14 36 -> 43; at
       4 KiB nhwc -> nchw with 512 channels lost a fifth). AVX-512's 16
       x 16 blocks take two block columns a strip: the Xeon waited on
       the first load of each block (perf), and 32 source rows in flight
       instead of 16 ran f32 nchw -> nhwc 1.2-1.45x as fast there, where
       the Zen 3's AVX2 strips of 128 bytes ran it at half the speed, and
       the Zen 4's AVX-512 ones at 0.55-0.75x (so Intel's only) */
    int short_m = (size_t)nm * (size_t)es <= TL__SR_SHORT_M;
    tl_dim strip = (short_m ? TL__SR_STRIP_SHORT : wide == 16 && tl__sr_intel() ? TL__SR_STRIP16 : TL__SR_STRIP) / es;
    /* streamed dst rows that do not start cache lines (f32 nhwc, C not
       in 16s) get the whole row in one strip where it is at most
       TL__SR_STRIP_SPLIT bytes: a 64-byte strip left the two lines it
       touched in each row part written until the next strip came back,
       a slice later, and streaming stores sent them out as partial
       writes (f32 nchw -> nhwc with 24 to 232 channels on the Zen 3:
       1.1-2x; strips of 1 KiB in longer rows gained some shapes and lost
       others: nc -> cn 1000x2500 0.67-0.85x) */
    if (nt && db <= TL__SR_STRIP_SPLIT && !tl__sr_lines(d, tl__sr_row_gaps(db, rs)))
        strip = nl;
    /* dst rows 1 KiB or more apart: a 4 KiB page holds at most 4 of
       them, so a strip's one line in each left the prefetchers, which
       stay within pages, nothing to follow; a quarter of the row a
       visit gives each page 16 lines (f32 nchw -> nhwc on the Zen 4:
       1x512x28x28 167 -> 44 us, 1x256x56x56 200 -> 85, 8x256x56x56 4.3
       -> 1.5 ms, 32x256x128x128 from DRAM 90 -> 50 ms; rows of 256 and
       512 bytes ran 1.1-1.3x slower in wider strips). Streamed short
       tiles keep the strips that their fetches of the next strip ahead
       were tuned to (tl__sr_strip_ahead: f32 ndhwc -> ncdhw
       8x32x16x28x28 ran 1.24x slower in strips of 1 KiB) */
    if (db >= TL__SR_FAR_ROWS && !(nt && short_m)) {
        tl_dim q = (tl_dim)(db / 4 / 64 * 64 / (size_t)es);     /* whole lines, whole blocks */
        if (q > TL__SR_WIDE_ROWS) q = TL__SR_WIDE_ROWS;
        if (q > strip) strip = q;
    }
    return strip < B ? B : strip;
}

/* Copies element (m, l) from s + (m + l*ss)*es to d + (m*ds + l)*es for
   m < nm, l < nl: B x B blocks in registers, the borders (nm % B rows,
   nl % B columns) one element at a time. The blocks go down all of M for
   one strip of L (64 bytes or more: tl__sr_strip_of) before the next
   strip: each destination row then receives whole cache lines at once, and the
   source is read as a few long sequential streams, which the hardware
   prefetchers follow (64 short streams at a time, as in square cache
   tiles, ran at a third of the speed here). */
TL__SR_INLINE void tl__sr_transpose_es(int es, int wide, const char *s, tl_dim ss, char *d,
                                       tl_dim ds, tl_dim nm, tl_dim nl, int nt, tl__sr_runs rs)
{
    tl_dim B = tl__sr_block_of(es, wide), slice, m0, m1, l0, k;
    size_t sb = (size_t)ss * (size_t)es, db = (size_t)ds * (size_t)es;
    tl_dim strip = tl__sr_strip_of(es, wide, d, db, nm, nl, nt, rs);
    /* M in slices whose destination rows span at most TL__SR_SLICE bytes,
       so the pages a strip writes stay in the TLB (no division for the
       many small tiles that need one slice) */
    if ((size_t)nm * db <= TL__SR_SLICE) slice = nm;
    else slice = db > TL__SR_SLICE / (size_t)B ? B : (tl_dim)(TL__SR_SLICE / db) / B * B;
    for (k = 0; k < rs.count; ++k, s += rs.s, d += rs.d) {
        for (m0 = 0; m0 < nm; m0 += slice) {
            tl_dim mt = nm - m0 < slice ? nm - m0 : slice, mb = mt / B * B;
            const char *sm = s + (size_t)m0 * (size_t)es;
            char *dm = d + (size_t)m0 * db;
            for (l0 = 0; l0 < nl; l0 += strip) {
                tl_dim lt = nl - l0 < strip ? nl - l0 : strip, lb = lt / B * B, full = mb;
                const char *sl = sm + (size_t)l0 * sb;
                char *dl = dm + (size_t)l0 * (size_t)es;
                const char *next = NULL;    /* rows to fetch ahead, nn of them */
                tl_dim nn = 0;
                /* the tile's next strip where its source is far (the
                   kernel passes the next step's, or the tile streams: a
                   dst so large has a far source too), else after its last
                   strip the next step's first */
                if (nl - l0 > strip && (nt || rs.next)) {
                    next = sl + (size_t)strip * sb;
                    nn = nl - l0 - strip < strip ? nl - l0 - strip : strip;
                } else if (nl - l0 <= strip && m0 + slice >= nm && k == rs.count - 1) {
                    next = rs.next;     /* the next step's first strip */
                    nn = nl < strip ? nl : strip;
                }
                if (!mb || (size_t)mt * (size_t)es > TL__SR_SHORT_M) next = NULL;
                tl__sr_strip_call(es, wide, sl, sb, dl, db, mb, lb, nt, next, (size_t)mt * (size_t)es, nn);
                /* a band of half a block of 1- or 2-byte rows (the 8
                   channels of u8 -> f32 nChw8c -> nchw and the 4 of bf16
                   -> f32 nChw4c -> nchw, staged; the last 4 to 7 of bf16
                   nhwc -> nchw), B source rows of 8 bytes a block, not
                   value by value in the border: u8 1.7x; bf16 8x12x28x28
                   25.5 -> 7.0 us (Zen 4) */
                if (es <= 2 && mt - full >= B / 2) {
                    tl_dim l;
                    for (l = 0; l < lb; l += B)
                        tl__sr_transpose_block(es, sl + (size_t)full * (size_t)es + (size_t)l * sb, sb,
                                               dl + (size_t)full * db + (size_t)l * (size_t)es, db,
                                               (int)B, (int)B / 2, 0, 1);
                    full += B / 2;
                }
#if TL__SR_AVX2
                if (wide == 16 && mt - full >= 8) {     /* a band of 8 x 8 blocks */
                    tl__sr8_strip4(sl + (size_t)full * 4, sb, dl + (size_t)full * db, db, 8, lb, 0, NULL);
                    full += 8;
                }
                /* the last rows of small tiles (the 9th tap of a 3x3 filter)
                   cost as much one by one as all the blocks before them */
                if (wide && full < mt && ss <= INT32_MAX / 8) {
                    tl__sr8_rows4(sl, ss, dl, db, full, mt, lb);
                    full = mt;
                }
#endif
                /* the border: the columns right of the blocks, the rows below */
                if (es == 4 && wide) lb = tl__sr_border_blocks4(sl, sb, dl, db, full, lb, lt);
                /* columns right of the blocks: one more column of blocks
                   that ends with the strip, over the last one (a copy
                   writes those values again), where the tile is a block
                   wide and nothing streams: the last 4 pixels of 14x14
                   planes went value by value (s8 nChw16c -> nchw
                   64x64x14x14 61 -> 39 us with tl__sr8_strip_lpairs; Zen
                   4, in process) */
                m1 = 0;     /* rows whose border columns are done */
                if (lb < lt && l0 + lt >= B && mb > 0 && !nt) {
                    ptrdiff_t back = (ptrdiff_t)lt - (ptrdiff_t)B;     /* into the strip before, where short */
                    tl__sr_strip_call(es, wide, sl + back * (ptrdiff_t)sb, sb, dl + back * (ptrdiff_t)es, db, mb, B, 0,
                                      NULL, 0, 0);
                    m1 = mb;
                }
                if (lb < lt) tl__sr_border(es, sl, sb, dl, db, m1, full, lb, lt);
                tl__sr_border(es, sl, sb, dl, db, full, mt, 0, lt);
            }
        }
    }
}

/* The block side for 4-byte elements: 16 in AVX-512 when M and L hold
   whole blocks of it (else their borders would go element by element)
   and, when streaming, every block row is a whole aligned cache line; 8
   in AVX2, where streaming asks the same of its pairs of blocks (L in
   16s); 0 (SSE2's 4) otherwise. nt: stream the blocks past the caches
   (a large destination that is not read back); only where every block
   row is 16-byte aligned. AVX2 streams only in pairs of 8 x 8 blocks,
   whole lines: single blocks left eight lines half written in between,
   which streaming stores made 3x slower (512 MiB nchw -> nhwc: 3.8 GB/s
   against 11 with plain stores), and SSE2's streamed blocks, which
   complete each row's line four blocks at a time, ran 6.2 GB/s on this
   Zen 3 where the pairs run 9 (nchw -> nhwc 32x256x128x128). Merged
   tiles ask too (nt = 0, their dst rows come from a table). Tiles
   narrower than 8 either way keep SSE2's 4 x 4 blocks: 8 x 8 ones left
   all of a 196 x 4 tile to the element-by-element border (f32 nchw ->
   nChw4c 8x64x14x14, Zen 4). */
static int tl__sr_wide(char *d, size_t db, tl_dim nm, tl_dim nl, int nt)
{
    int lines = tl__sr_lines(d, db) && nl % 16 == 0;
    if (tl__sr_avx512() && nm >= 16 && nl % 16 == 0 && (!nt || lines)) return 16;
    return tl__sr_avx2() && nm >= 8 && nl >= 8 && (!nt || lines) ? 8 : 0;
}

/* Whether a tile's dst rows of 8 4-byte values follow one another on
   cache lines (nChw8c's pixels: db 32, d and every tile's start on a
   line), which AVX2's blocks stream two rows a line
   (tl__sr8_transpose_conv's pairs), where tl__sr_wide would leave them to
   SSE2's 4 x 4 blocks: f32 nchw -> nChw8c 32x64x56x56 ran 1.1-1.25x
   slower streamed that way than with plain stores (Zen 4). */
static int tl__sr_pairs8(const char *d, size_t db, tl_dim nl, tl__sr_runs rs)
{
    return nl == 8 && db == 32 && (uintptr_t)d % 64 == 0 && (rs.count == 1 || rs.d % 64 == 0);
}

/* One block of tl__sr_tiles2 (es 2) or tl__sr_tiles1 (es 1): the
   first mm columns of B = 16 / es rows of B values (rows j at b +
   off[j], loaded whole by tl__sr_rows1) transposed by SSE2's zips, to
   d, db bytes apart (plain stores: a block writes 16 bytes of each dst
   row). */
/* A block's dst row (plain stores: a block writes 16 bytes of it). */
TL__SR_INLINE void tl__sr_put_row(char *p, simde__m128i v, int nt)
{
    (void)nt;
    simde_mm_storeu_si128((simde__m128i *)(void *)p, v);
}

TL__SR_INLINE TL__SR_TILES_BLOCK_DEF(tl__sr_tiles_block_es, simde__m128i, tl__sr_zip, tl__sr_rows1, tl__sr_put_row)

TL__SR_TILES_BLOCK_ES(tl__sr_tiles_block2, tl__sr_tiles_block_es, 2)
TL__SR_TILES_BLOCK_ES(tl__sr_tiles_block1, tl__sr_tiles_block_es, 1)

static TL__SR_TILES_BODY(tl__sr_tiles2, 2, 8, 8, tl__sr_tiles_block2)
static TL__SR_TILES_BODY(tl__sr_tiles1, 1, 16, 16, tl__sr_tiles_block1)

#define TL__SR_SMALL_TILE 4096 /* bytes of a copied tile below which a
                                  step moves all tiles of the loop outside L */

/* Whether a copied tile of nm x nl values of es bytes is small
   (TL__SR_SMALL_TILE). */
static int tl__sr_tile_small(tl_dim nm, tl_dim nl, size_t es)
{
    return nm * nl * (tl_dim)es <= TL__SR_SMALL_TILE;
}

/* tl__sr_tiles_side for 1- and 2-byte elements, nv rows in all: blocks
   of 16 / es columns and 4, 2 or 1 times as many rows (AVX-512, AVX2,
   SSE2: bf16 oihw -> OIhw16i16o, 16 tiles of 9 taps x 16 o a step,
   went tile by tile with the 9th tap one value at a time), the most
   that leave few rows to the element-by-element edge (nv in B's or at
   least 16 blocks), and only where nl and B divide one another or the
   tile is large: small bf16 tiles of 9 taps (oihw -> OIhw16o16i,
   OIhw8i8o) ran 0.8x with the blocks' offsets set for every 2 blocks. */
static int tl__sr_tiles_side_narrow(int es, tl_dim nl, tl_dim nm, tl_dim nv)
{
    int C = 16 / es, B, any = !tl__sr_tile_small(nm, nl, (size_t)es);
    for (B = 4 * C; B > C; B /= 2)
        if ((B == 4 * C ? tl__sr_avx512() : tl__sr_avx2()) && (nv % B == 0 || nv >= 16 * B)
            && (nl % B == 0 || B % nl == 0 || any))
            return B;
    return nl % C == 0 || C % nl == 0 || any ? C : 0;
}

/* The rows B of a block when the rs.count tiles of nl columns (nm rows)
   that one step copies go as one wide tile (TL__SR_TILES_BODY: tiles
   side by side in dst); 0: tile by tile. 4-byte elements: 16 in
   AVX-512, else 8 in AVX2; 1- and 2-byte ones: tl__sr_tiles_side_narrow.
   AVX2's 4-byte blocks store half lines, so they never stream; on the
   Zen 3 the 36 MiB OIhw16o16i 1024x1024x3x3, which SSE2's blocks
   streamed before, still ran faster through them (see
   docs/performance.md). */
static int tl__sr_tiles_side(int es, tl_dim nl, tl_dim nm, tl__sr_runs rs)
{
    if (es > 4 || es == 3 || rs.count < 2 || rs.d != (size_t)nl * (size_t)es) return 0;
    if (es <= 2) return tl__sr_tiles_side_narrow(es, nl, nm, nl * rs.count);
    if (tl__sr_avx512()) return 16;
    return tl__sr_avx2() ? 8 : 0;
}

/* The rows B of a block where the rs.count copied tiles of nl columns
   (nm rows) that one step walks lie apart in dst (the lone tiles of
   tl__sr_tiles_next: depthwise weights, goihw -> Goihw16g, each 9 taps
   x 16 groups; nchw -> nChw16c with small planes) and go one at a time
   as TL__SR_TILES_BODY's wide tiles: 4-byte elements, more than 4 rows
   of M, nl in the blocks' B. Zen 4, in process: Goihw16g and Goihw8g
   1024x1x1x3x3 1.7-1.8x (AVX2 alone 1.4-1.7x), nchw -> nChw16c
   32x64xHxW 1.1-1.55x for 16 to 64 pixels, s32 nchw -> nChw8c 3x3 1.7x;
   a last block of one row (AVX-512's 16 x 16, 49 pixels: 7 x 7) ran
   0.84-0.92x, so those keep the strips. 0: not so. */
static int tl__sr_tiles_apart(int es, tl_dim nm, tl_dim nl, tl__sr_runs rs)
{
    if (es != 4 || rs.count < 2 || nm <= 4) return 0;
    if (tl__sr_avx512() && nl % 16 == 0) return nm % 16 == 1 && nm > 16 ? 0 : 16;
    return tl__sr_avx2() && nl % 8 == 0 ? 8 : 0;
}

/* Copies n elements s[k*ss] -> d[k*ds] of es bytes (strides in elements). */
static void tl__sr_strided_copy(int es, const char *s, tl_dim ss, char *d, tl_dim ds, tl_dim n)
{
    tl_dim k;
    switch (es) {
    case 1: for (k = 0; k < n; ++k) d[k * ds] = s[k * ss]; break;
    case 2: for (k = 0; k < n; ++k) memcpy(d + 2 * k * ds, s + 2 * k * ss, 2); break;
    case 4: for (k = 0; k < n; ++k) memcpy(d + 4 * k * ds, s + 4 * k * ss, 4); break;
    default: for (k = 0; k < n; ++k) memcpy(d + 8 * k * ds, s + 8 * k * ss, 8); break;
    }
}

/* The transpose for an M narrower than a vector (the 3 channels of a
   camera frame, nhwc -> nchw): dense pixels of 2 to 4 values under 16
   bytes go to planes by AVX2's byte picks (tl__sr8_planes), streamed
   where nt and the planes are whole lines; otherwise each 16-byte load
   takes one pixel's nm values plus bytes of the pixels after it, which
   are transposed along but never stored. A load may reach at most s_end
   (the end of what the plan reads); the last pixels are copied one by
   one. */
TL__SR_INLINE void tl__sr_narrow_es(int es, const char *s, tl_dim ss, char *d, tl_dim ds,
                                    tl_dim nm, tl_dim nl, const char *s_end, int nt)
{
    tl_dim B = 16 / es, l = 0, m;
    size_t sb = (size_t)ss * (size_t)es, db = (size_t)ds * (size_t)es;
#if TL__SR_AVX2
    if (ss == nm && tl__sr8_planes_fit(es, nm) && tl__sr_avx2())
        l = tl__sr8_planes(es, (int)nm, 1, s, 0, d, db, nl, nt && (size_t)nl * (size_t)es % 64 == 0);
#else
    (void)nt;
#endif
    for (; l + B <= nl && (size_t)(s_end - s) >= (size_t)(l + B - 1) * sb + 16; l += B)
        tl__sr_transpose_block(es, s + (size_t)l * sb, sb, d + (size_t)l * (size_t)es, db, 16 / es,
                               (int)nm, 0, 0);
    for (m = 0; m < nm; ++m)
        tl__sr_strided_copy(es, s + (size_t)m * (size_t)es + (size_t)l * sb, ss,
                            d + (size_t)m * db + (size_t)l * (size_t)es, 1, nl - l);
}

/* 1 to 4 channels of bytes (images), 2 to 4 of 16-bit values and 2 or
   3 of 32-bit ones get their own copies with nm fixed, so the compiler
   drops the zips whose rows are never stored and unrolls the stores (f32
   nhwc with 3 groups of 80 channels, shuffled as 80 x 3 transposes: with
   nm a variable the stores went through a jump table and the stack). */
static void tl__sr_narrow(int es, const char *s, tl_dim ss, char *d, tl_dim ds,
                          tl_dim nm, tl_dim nl, const char *s_end, int nt)
{
    switch (es * 16 + (int)(nm < 16 ? nm : 0)) {
    case 16 + 1: tl__sr_narrow_es(1, s, ss, d, ds, 1, nl, s_end, nt); break;
    case 16 + 2: tl__sr_narrow_es(1, s, ss, d, ds, 2, nl, s_end, nt); break;
    case 16 + 3: tl__sr_narrow_es(1, s, ss, d, ds, 3, nl, s_end, nt); break;
    case 16 + 4: tl__sr_narrow_es(1, s, ss, d, ds, 4, nl, s_end, nt); break;
    case 32 + 2: tl__sr_narrow_es(2, s, ss, d, ds, 2, nl, s_end, nt); break;
    case 32 + 3: tl__sr_narrow_es(2, s, ss, d, ds, 3, nl, s_end, nt); break;
    case 32 + 4: tl__sr_narrow_es(2, s, ss, d, ds, 4, nl, s_end, nt); break;
    case 64 + 2: tl__sr_narrow_es(4, s, ss, d, ds, 2, nl, s_end, nt); break;
    case 64 + 3: tl__sr_narrow_es(4, s, ss, d, ds, 3, nl, s_end, nt); break;
    default:
        switch (es) {
        case 1: tl__sr_narrow_es(1, s, ss, d, ds, nm, nl, s_end, nt); break;
        case 2: tl__sr_narrow_es(2, s, ss, d, ds, nm, nl, s_end, nt); break;
        case 4: tl__sr_narrow_es(4, s, ss, d, ds, nm, nl, s_end, nt); break;
        default: tl__sr_narrow_es(8, s, ss, d, ds, nm, nl, s_end, nt); break;
        }
        break;
    }
}

/* n zero bytes at d, 16 at a time (a padded row's rest: 16 to 48). */
TL__SR_INLINE void tl__sr_zero_bytes(char *d, size_t n)
{
    size_t o;
    for (o = 0; o + 16 <= n; o += 16)
        simde_mm_storeu_si128((simde__m128i *)(void *)(d + o), simde_mm_setzero_si128());
    if (o < n) memset(d + o, 0, n - o);
}

/* The transpose for an L narrower than a vector (nchw -> nhwc with the 3
   channels of an image): planes into dense pixels under 16 bytes go by
   byte picks (tl__sr8_planes) where AVX-512's word permutes do not take
   them; otherwise each block reads 16 bytes of each of the nl
   source rows and stores one 16-byte vector per pixel, nl values and
   zeros after them. Where the pixels' dst rows follow one another (ds ==
   nl) the zeros land on the next pixels, whose own stores come later:
   whole vectors, overlapping. Otherwise, and for the last pixels of the
   tile (whose zeros would pass its end, maybe into another thread's
   part), only the nl values are stored. pad: the rest of each dst row
   (ds values, at least 4 bytes) is padding, and is written as zeros
   here too, whole rows (tl__sr_pads_fused); rows under 16 bytes take
   overlapping vectors, as where ds == nl, the last pixels one by one. */
TL__SR_INLINE void tl__sr_widen_es(int es, int nl, const char *s, tl_dim ss, char *d, tl_dim ds,
                                   tl_dim nm, int pad)
{
    simde__m128i v_buf[16];
    tl_dim B = 16 / es, m = 0, l;
    size_t sb = (size_t)ss * (size_t)es, db = (size_t)ds * (size_t)es, row = (size_t)nl * (size_t)es;
#if TL__SR_AVX512
    if (es == 2 && ds == nl && nl >= 2 && nl <= 4 && !pad && tl__sr_avx512())
        m = tl__sr16_planes_words(nl, 2, s, sb, d, nm);
#endif
#if TL__SR_AVX2
    if (m == 0 && ds == nl && tl__sr8_planes_fit(es, nl) && tl__sr_avx2())
        m = tl__sr8_planes(es, nl, 0, s, sb, d, 0, nm, 0);
#endif
    if (pad) {
#if TL__SR_AVX2
        if (es == 4 && nl <= 8 && db % 32 == 0 && tl__sr_avx2()) m = tl__sr8_widen_pad(nl, s, sb, d, db, nm);
#endif
        /* under 16 bytes each pixel's vector spills zeros onto the next
           pixels, stored after it: the block's last pixel needs some */
        for (; m + B <= nm && (db >= 16 || (size_t)(nm - m - B) * db >= 16 - db); m += B) {
            tl_dim j;
            tl__sr_transpose_block(es, s + (size_t)m * (size_t)es, sb, d + (size_t)m * db, db, nl,
                                   (int)B, 0, 0);
            for (j = 0; db > 16 && j < B; ++j) tl__sr_zero_bytes(d + (size_t)(m + j) * db + 16, db - 16);
        }
        for (; m < nm; ++m) {
            for (l = 0; l < nl; ++l)
                memcpy(d + (size_t)m * db + (size_t)l * (size_t)es,
                       s + (size_t)(m + l * ss) * (size_t)es, (size_t)es);
            tl__sr_zero_bytes(d + (size_t)m * db + row, db - row);
        }
        return;
    }
    if (ds == nl)
        for (; m + B <= nm && (size_t)(nm - m - B) * db >= 16 - row; m += B)
            tl__sr_transpose_block(es, s + (size_t)m * (size_t)es, sb, d + (size_t)m * db, db, nl,
                                   (int)B, 0, 0);
    for (; m + B <= nm; m += B) {
        char *buf = (char *)(void *)v_buf;
        tl_dim j;
        tl__sr_transpose_block(es, s + (size_t)m * (size_t)es, sb, buf, 16, nl, (int)B, 0, 0);
        for (j = 0; j < B; ++j) memcpy(d + (size_t)(m + j) * db, buf + 16 * j, row);
    }
    for (l = 0; l < nl; ++l)
        tl__sr_strided_copy(es, s + (size_t)(m + l * ss) * (size_t)es, 1,
                            d + (size_t)m * db + (size_t)l * (size_t)es, ds, nm - m);
}

/* 2 to 4 rows of bytes or 16-bit values, 2 or 3 of 32-bit ones get their own copies
   (the compiler then drops the zips of the zero rows); the rest share
   one with nl a variable. */
static void tl__sr_widen(int es, const char *s, tl_dim ss, char *d, tl_dim ds, tl_dim nm,
                         tl_dim nl, int pad)
{
    switch (es * 16 + (int)nl) {
    case 16 + 2: tl__sr_widen_es(1, 2, s, ss, d, ds, nm, pad); break;
    case 16 + 3: tl__sr_widen_es(1, 3, s, ss, d, ds, nm, pad); break;
    case 16 + 4: tl__sr_widen_es(1, 4, s, ss, d, ds, nm, pad); break;
    case 32 + 2: tl__sr_widen_es(2, 2, s, ss, d, ds, nm, pad); break;
    case 32 + 3: tl__sr_widen_es(2, 3, s, ss, d, ds, nm, pad); break;
    case 32 + 4: tl__sr_widen_es(2, 4, s, ss, d, ds, nm, pad); break;
    case 64 + 2: tl__sr_widen_es(4, 2, s, ss, d, ds, nm, pad); break;
    case 64 + 3: tl__sr_widen_es(4, 3, s, ss, d, ds, nm, pad); break;
    default:
        switch (es) {
        case 1: tl__sr_widen_es(1, (int)nl, s, ss, d, ds, nm, pad); break;
        case 2: tl__sr_widen_es(2, (int)nl, s, ss, d, ds, nm, pad); break;
        default: tl__sr_widen_es(4, (int)nl, s, ss, d, ds, nm, pad); break;
        }
        break;
    }
}

/* Whether a copying tile's dst rows (n values of es bytes) are too
   short for a transpose: they are widened instead. 8-byte values fill a
   row on their own. */
static int tl__sr_tile_widens(tl_dim n, size_t es) { return n * (tl_dim)es < 16 && es < 8; }

/* Whether 4- and 8-byte transposes stream into rows db bytes apart from
   d (tiles rs.d apart): 16-byte aligned rows, and on Intel only rows
   that start cache lines. Other rows leave lines part written where one
   block or strip ends and the next begins; on the 16-core Xeon those
   ran at 0.10-0.22 of memcpy streamed (f32 nchw -> nhwc with 24 to 500
   channels, nc -> cn), up to 7x slower than plain stores, where the Zen
   3 ran them streamed as fast or faster (whole rows in one strip,
   tl__sr_transpose_es: 1.4-1.8x). Elsewhere, rows of rowb bytes that
   follow one another (nChw8c's 32) stream only when all nm rows go by
   blocks (nm in 16s, any block side): the last rows of a tile are stored
   plainly, on lines its blocks streamed (f32 nchw -> nChw8c on 7x7
   planes: 1.6-2.4x slower streamed on the Zen 3; nhwc rows with gaps,
   which go whole, lost 0.7-0.8x without streaming on 14x14). */
static int tl__sr_stream_rows(const char *d, size_t db, size_t rowb, tl_dim nm, tl__sr_runs rs)
{
    if ((uintptr_t)d % 16 != 0 || db % 16 != 0 || rs.d % 16 != 0) return 0;
    return tl__sr_lines(d, tl__sr_row_gaps(db, rs)) || (!tl__sr_intel() && (db != rowb || nm % 16 == 0));
}

#if TL__SR_AVX512
/* Whether tl__sr16_quads takes an M x L tile: 4 dense values a source
   row (ss 4) or a dst row (ds 4), 16 or more of the other side. */
static int tl__sr_quads_fit(tl_dim ss, tl_dim ds, tl_dim nm, tl_dim nl)
{
    return tl__sr_avx512() && ((nm == 4 && ss == 4 && nl >= 16) || (nl == 4 && ds == 4 && nm >= 16));
}
#endif

/* rs.count tiles, tile k rs.s and rs.d bytes after tile k - 1 (their
   setup paid once: the 9 hw x 16 i tiles of OIhw16o16i, one per o).
   Rows too short for a block are widened, wherever the tile comes from
   (the 3-channel rows of staged blocks too: nchw -> nhwc f32 -> bf16,
   one element at a time before, 2.6 GB/s); pad: see tl__sr_widen_es. */
static void tl__sr_transpose_tiles(int es, const char *s, tl_dim ss, char *d, tl_dim ds,
                                   tl_dim nm, tl_dim nl, int nt, tl__sr_runs rs, int pad)
{
    size_t db = (size_t)ds * (size_t)es;
    tl_dim k;
    if (tl__sr_tile_widens(nl, (size_t)es)) {
        for (k = 0; k < rs.count; ++k, s += rs.s, d += rs.d) tl__sr_widen(es, s, ss, d, ds, nm, nl, pad);
        return;
    }
#if TL__SR_AVX512
    if (es == 4 && !nt && tl__sr_quads_fit(ss, ds, nm, nl)) {
        for (k = 0; k < rs.count; ++k, s += rs.s, d += rs.d) {
            tl_dim done = tl__sr16_quads(s, ss, d, ds, nm, nl);     /* the rest: fewer than 16 */
            if (nm == 4 && done < nl)
                tl__sr_transpose_es(4, 0, s + (size_t)(done * ss) * 4, ss, d + (size_t)done * 4, ds, 4,
                                    nl - done, 0, tl__sr_one_run);
            else if (nm != 4 && done < nm)
                tl__sr_transpose_es(4, 0, s + (size_t)done * 4, ss, d + (size_t)(done * ds) * 4, ds,
                                    nm - done, 4, 0, tl__sr_one_run);
        }
        return;
    }
#endif
    /* 1- and 2-byte elements stream only whole lines (tl__sr_strip_lines) */
    if (es <= 2) nt = nt && tl__sr_stream_narrow(es, d, db, nl, rs.d);
    else nt = nt && tl__sr_stream_rows(d, db, (size_t)nl * (size_t)es, nm, rs);
    switch (es) {
    case 1: tl__sr_transpose_es(1, 0, s, ss, d, ds, nm, nl, nt, rs); break;
    case 2: tl__sr_transpose_es(2, 0, s, ss, d, ds, nm, nl, nt, rs); break;
    case 4:
        switch (tl__sr_wide(d, tl__sr_row_gaps(db, rs), nm, nl, nt && !tl__sr_pairs8(d, db, nl, rs))) {
        case 16: tl__sr_transpose_es(4, 16, s, ss, d, ds, nm, nl, nt, rs); break;
        case 8: tl__sr_transpose_es(4, 8, s, ss, d, ds, nm, nl, nt, rs); break;
        default: tl__sr_transpose_es(4, 0, s, ss, d, ds, nm, nl, nt, rs); break;
        }
        break;
    default: tl__sr_transpose_es(8, 0, s, ss, d, ds, nm, nl, nt, rs); break;
    }
}

static void tl__sr_transpose(int es, const char *s, tl_dim ss, char *d, tl_dim ds,
                             tl_dim nm, tl_dim nl, int nt)
{
    tl__sr_transpose_tiles(es, s, ss, d, ds, nm, nl, nt, tl__sr_one_run, 0);
}

#if TL__SR_AVX512
/* Whether a converting tile's rows go to dense pixels of 2 to 4 values
   converted on the way (tl__sr16_planes_words): f32 -> bf16 unscaled.
   Converted into a stage and interleaved from it, f32 -> bf16 nchw ->
   nhwc 1x3x1080x1920 ran at half oneDNN's speed on the Zen 4, bound by
   the two passes. */
static int tl__sr_planes_bf16(const tl_reorder_plan *p, tl__sr_scales sc, tl_dim ds, tl_dim nl)
{
    return p->src_md.data_type == TL_F32 && p->dst_md.data_type == TL_BF16 &&
           tl__sr_plain(p, sc, tl__sr_one_run) && ds == nl && nl >= 2 && nl <= 4 && tl__sr_avx512();
}
#endif

#if TL__SR_AVX2
/* Whether a converting tile's rows (nl of them, ds values apart in dst)
   may go straight into padded pixels (tl__sr8_pixels): 1 to 4 rows, one
   scale a row (msstep 0), and either s8 or u8 from the source types
   tl__sr8_load reads into pixels of 4, 8, or 16 bytes or a multiple,
   bf16 from f32 with a scale at most into pixels of 8 bytes or a
   multiple of 16, or f32 from those types with a scale at most. */
static int tl__sr_pixels_fits(const tl_reorder_plan *p, tl__sr_scales sc, tl_dim msstep, tl_dim ds, tl_dim nl)
{
    tl_data_type st = p->src_md.data_type, dt = p->dst_md.data_type;
    int plain = st != TL_F64 && !tl__sr_q_of(p, sc).extra;
    int i8 = (dt == TL_S8 || dt == TL_U8) && st != TL_F64 && (ds == 4 || ds == 8 || ds % 16 == 0);
    int bf16 = dt == TL_BF16 && st == TL_F32 && plain && (ds == 4 || ds % 8 == 0);
    int f32 = dt == TL_F32 && plain && ds % 4 == 0;
    return (i8 || bf16 || f32) && nl <= 4 && msstep == 0 && tl__sr_avx2();
}
#endif

/* The first pixels (returned) of a converting tile that go to dst
   without the stage: f32 -> bf16 dense pixels (tl__sr_planes_bf16) or
   padded s8, u8, bf16 and f32 ones (tl__sr_pixels_fits); 0 where
   neither fits. */
static tl_dim tl__sr_unstaged_pixels(const tl_reorder_plan *p, const char *s, size_t sb, char *d, tl_dim ds,
                                     tl__sr_scales sc, tl_dim msstep, tl_dim nm, tl_dim nl, int pad)
{
#if TL__SR_AVX512
    if (tl__sr_planes_bf16(p, sc, ds, nl)) return tl__sr16_planes_words((int)nl, 4, s, sb, d, nm);
#endif
#if TL__SR_AVX2
    if (pad && tl__sr_pixels_fits(p, sc, msstep, ds, nl))
        return tl__sr8_pixels(p, sc, (int)nl, s, sb, d, (size_t)ds * tl_dt_size(p->dst_md.data_type), nm);
#else
    (void)p; (void)s; (void)sb; (void)d; (void)ds; (void)sc; (void)msstep; (void)nm; (void)nl; (void)pad;
#endif
    return 0;
}

/* A converting tile whose dst rows are shorter than a vector (the 3
   channels of nchw -> nhwc, the 4 or 8 of nChw4c and nChw8c, the last
   channels of an nChw16c block): its source rows converted first, along
   M, where a row keeps one scale and its runs fill vectors, into stage
   (TL__SR_STAGE^2 * 4 bytes), then transposed in dst's type. Rows of a
   few values converted after the transpose took a converter pass for
   each few (f32 -> f32 nchw -> nChw4c with per-channel scales: 5x
   slower), and as gathered blocks before (f32 -> s8 nChw4c: 3x slower).
   The rows stream only where they follow one another in dst: rows with
   gaps share their lines with the next tiles' rows (hwio -> oihw's 9
   taps, one tile per i), and streamed, each such line left the write
   buffers part written (bf16 -> f32 500x600x3x3 on the Zen 4: 2.2x
   slower). f32 -> bf16 into dense pixels of 2 to 4 values skips the
   stage (tl__sr_planes_bf16). beta is 0 (tl__sr_pick_shape): dst is
   not read. pad: dst rows are wider than nl and their rest is padding
   (tl__sr_pads_fused), which s8, u8, bf16 and f32 pixels of up to 4
   values take without the stage (tl__sr8_pixels) and the stage's
   widening writes as zeros in the same pass (the 3 channels of a
   camera frame into s8 nChw16c: 3 bytes a pixel converted, then the 13
   of padding zeroed apart, ran at 0.4 of oneDNN on the Zen 4). Such
   rows, narrower than 16 bytes, are never tl__sr_tile_direct's or
   tl__sr_tile_bytes' (rows of 8 or 16 values back to back), so only
   this way meets pad. */
static void tl__sr_convert_tile_narrow(const tl_reorder_plan *p, const char *s, tl_dim ss,
                                       char *d, tl_dim ds, tl__sr_scales sc, tl_dim msstep,
                                       tl_dim nm, tl_dim nl, int stream, int pad, char *stage)
{
    size_t es = tl_dt_size(p->src_md.data_type), dsz = tl_dt_size(p->dst_md.data_type);
    tl_dim chunk = (tl_dim)(TL__SR_STAGE * TL__SR_STAGE * 4 / ((size_t)nl * dsz)) / 16 * 16, m0;
    tl__sr_runs rs = tl__sr_one_run;
    rs.count = nl;
    rs.s = (size_t)ss * es;
    rs.c = sc.sstep;
    m0 = tl__sr_unstaged_pixels(p, s, rs.s, d, ds, sc, msstep, nm, nl, pad);
    s += (size_t)m0 * es;
    d += (size_t)(m0 * ds) * dsz;
    nm -= m0;
    for (m0 = 0; m0 < nm; m0 += chunk) {
        tl_dim mt = nm - m0 < chunk ? nm - m0 : chunk;
        tl__sr_scales row = sc;
        row.sidx += m0 * msstep;
        row.sstep = msstep;
        rs.d = (size_t)mt * dsz;
        tl__sr_convert_runs(p, s + (size_t)m0 * es, stage, row, mt, rs);
        if (pad) tl__sr_widen((int)dsz, stage, mt, d + (size_t)(m0 * ds) * dsz, ds, mt, nl, 1);
        else tl__sr_transpose((int)dsz, stage, mt, d + (size_t)(m0 * ds) * dsz, ds, mt, nl, stream && ds == nl);
    }
}

/* Whether a converting tile's rows of es-byte source values stage by
   the narrow transpose (tl__sr_stage_tile): 4 rows of bytes or 16-bit
   values or fewer (nChw4c), AVX2's byte planes among them. The tiles'
   blocks of 16 x 16 bytes or 8 x 8 words left most of their rows empty
   (s8 -> f32 nChw4c -> nchw 8x64x14x14 on the Zen 3: 55 -> 17 us; bf16
   -> f32 28 -> 21 us); 8 rows of bytes keep the blocks, which ran 2x as
   fast as the narrow way. */
static int tl__sr_stage_narrows(int es, tl_dim rows)
{
    return es <= 2 && rows <= 4;
}

/* A converting tile's raw mt x lt source bits (rows ss apart) into
   stage, transposed (rows of lt values). */
TL__SR_INLINE void tl__sr_stage_tile(int es, const char *s, tl_dim ss, char *stage, tl_dim mt, tl_dim lt)
{
    if (tl__sr_stage_narrows(es, mt))
        tl__sr_narrow(es, s, ss, stage, lt, mt, lt,
                      s + ((size_t)(lt - 1) * (size_t)ss + (size_t)mt) * (size_t)es, 0);
    else
        tl__sr_transpose(es, s, ss, stage, lt, mt, lt, 0);
}

/* The M x L tile of a converting plan: raw source bits transposed into a
   staging tile, whose rows are then converted as runs in one call
   (tl__sr_convert_runs), all rows as one run where dst's rows follow one
   another too and the scale index runs on across them (nchw -> nChw16c:
   16-value rows), else as runs whose scales restart (per-channel scales;
   Goihw16g from a 3x3 kernel took 190 ns a 16-value row when each row
   started the converter). stream: a large dst, whose runs stream where
   tl__sr_convert_streams allows; pad: see tl__sr_convert_tile_narrow. */
static void tl__sr_convert_tile(const tl_reorder_plan *p, const char *s, tl_dim ss,
                                char *d, tl_dim ds, tl__sr_scales sc, tl_dim msstep,
                                tl_dim nm, tl_dim nl, int stream, int pad)
{
    int es = (int)tl_dt_size(p->src_md.data_type);
    size_t dsz = tl_dt_size(p->dst_md.data_type);
    tl_dim m0, l0, sl = TL__SR_STAGE, sm = TL__SR_STAGE;
    /* a far source's next stage tile fetched before this one moves: its
       rows of a few lines each (the 116 channels of a 19x19 plane for
       f32 -> s8 nchw -> nhwc, 128 bytes a row) walk too many streams for
       the hardware prefetchers (128x116x19x19: 2x; in cache the
       prefetches cost 1.17x, hence only far sources) */
    int far = TL__SR_SRC_FAR(p);
    simde__m128i stage_v[TL__SR_STAGE * TL__SR_STAGE * 4 / 16];
    char *stage = (char *)(void *)stage_v;
    /* rows of 8 values under one scale go the wide way: their transposes
       take AVX2's 8 x 8 blocks (f32 -> s8 nchw -> nChw8c 8.9 GB/s, 6.0
       the narrow way; with per-channel scales 1.3 against 6.6) */
    if (pad || (nl < 16 && (nl != 8 || (sc.sc && sc.sstep != 0)))) {
        tl__sr_convert_tile_narrow(p, s, ss, d, ds, sc, msstep, nm, nl, stream, pad, stage);
        return;
    }
    /* tiles whose rows all stage the narrow way (tl__sr_stage_narrows)
       stage them as long as the stage holds: in 64-value pieces each
       dst row took a converter run and a streamed 256 bytes a piece (s8
       -> f32 nChw4c -> nchw 64x64x28x28 on the Zen 3: 2.0 -> 1.1 ms).
       dst rows of up to 4 stage sides that follow one another stage
       whole, in fewer of them: one joined run of all their values
       instead of runs of 64 and the rest, each with a tail (f32 -> s8
       nchw -> nhwc 4x116x19x19, in cache: 1.8x) */
    if (tl__sr_stage_narrows(es, nm)) {
        sl = TL__SR_STAGE * TL__SR_STAGE / es;
    } else if (nl > TL__SR_STAGE && nl <= 4 * TL__SR_STAGE && ds == nl) {
        sl = nl;
        sm = TL__SR_STAGE * TL__SR_STAGE / nl / 16 * 16;
    }
    for (m0 = 0; m0 < nm; m0 += sm) {
        tl_dim mt = nm - m0 < sm ? nm - m0 : sm;
        for (l0 = 0; l0 < nl; l0 += sl) {
            tl_dim lt = nl - l0 < sl ? nl - l0 : sl;
            int joined = ds == lt && msstep == lt * sc.sstep;
            tl_dim n = joined ? mt * lt : lt;     /* values a run */
            char *dt = d + (size_t)(m0 * ds + l0) * dsz;
            tl__sr_scales row = sc;
            tl__sr_runs rs = tl__sr_one_run;
            if (far && m0 + sm < nm)
                tl__sr_prefetch_rows(s + (size_t)(m0 + sm + l0 * ss) * (size_t)es, (size_t)ss * (size_t)es,
                                     (size_t)(nm - m0 - sm < sm ? nm - m0 - sm : sm) * (size_t)es, lt, 1);
            tl__sr_stage_tile(es, s + (size_t)(m0 + l0 * ss) * (size_t)es, ss, stage, mt, lt);
            if (!joined) {
                rs.count = mt;
                rs.c = msstep;
                rs.s = (size_t)lt * (size_t)es;
                rs.d = (size_t)ds * dsz;
            }
            rs.nt = tl__sr_convert_streams(stream, dt, (size_t)n * dsz, rs, tl__sr_one_run);
            row.sidx += m0 * msstep + l0 * sc.sstep;
            tl__sr_convert_runs(p, stage, dt, row, n, rs);
        }
    }
}

#define TL__SR_BLOCK 1024   /* elements a converting block stages */

/* Element offsets, in src and in the scales, of every point of loops
   l..L (iterations 0..n[l]) in the plan's (dst) order, from *at on. */
static void tl__sr_offsets(const tl_reorder_plan *p, int l, const tl_dim *n, tl_dim so,
                           tl_dim co, int32_t *soff, int32_t *coff, tl_dim *at)
{
    tl_dim i;
    for (i = 0; i < n[l]; ++i) {
        tl_dim s = so + i * p->loops[l].src_stride, c = co + i * p->loops[l].scale_stride;
        if (l < p->nloops - 1) {
            tl__sr_offsets(p, l + 1, n, s, c, soff, coff, at);
        } else {
            soff[*at] = (int32_t)s;
            coff[*at] = (int32_t)c;
            ++*at;
        }
    }
}

/* Copies cnt elements of es bytes from s + off[e]*es to out. */
static void tl__sr_gather(int es, const char *s, const int32_t *off, char *out, tl_dim cnt)
{
    tl_dim e;
    switch (es) {
    case 1: for (e = 0; e < cnt; ++e) out[e] = s[off[e]]; break;
    case 2: for (e = 0; e < cnt; ++e) memcpy(out + 2 * e, s + 2 * (size_t)off[e], 2); break;
    default: for (e = 0; e < cnt; ++e) memcpy(out + 4 * e, s + 4 * (size_t)off[e], 4); break;
    }
}

/* ---- blocks staged in source order ----------------------------------
   A converting block gathered in dst order needs one scalar load per
   value and, with per-O scales, one per scale too. Weight layouts
   (OIhw -> OIhw4i16o4i, OIhw16i16o, 8i16o2i, groups) have more
   structure: inside a block, the loops that chain densely in src from
   stride 1 (i and hw of one o) form runs under one scale, and the block
   is nR x nX such runs of nC values, R being the other loop with the
   smallest dst stride (o) and the x loops the rest (O blocks inside the
   block, if any). Each run is converted into S (dst type, source order
   [R][x][run]: vector conversions with a constant scale), S is
   transposed nR x (nX nC) into T (each row: the nR values of one source
   position), and T is spread into dst: rows copied whole when R is dst's
   innermost loop (16i16o), or, when one loop Z (i%4) lies inside R in
   dst, nZ rows zipped into the [o][i%4] interleave. For an s8 dst that
   is a 16x16 byte transpose of 4x smaller data than the source. Rows
   shorter than a vector (the 4 o of 4o4i: 4 bytes) are `small`: S -> T
   is then a zip of nR rows of S, and nZ rows are gathered into whole
   vectors in registers before their zip. Plans with this shape but no
   vector permute (nR or nZ not a power of two, rows that fill no
   vector) still convert runs into S, then pick the values through a
   table of S offsets. With beta the old dst values are first put into S, where
   the conversion reads them: by the zips and transpose run backwards, or
   through the table. Copies take the path only with the vector permute,
   transposing straight from src when there are no x loops. */
#define TL__SR_PBLOCK 16384  /* bytes of dst type a block staged in source order holds */
/* onepass runs a block may have: 4 groups a run at least, of 16 rows
   and 2 to 4 columns of 1 or 2 bytes, 64 bytes a group */
#define TL__SR_ONEPASS_RUNS (TL__SR_PBLOCK / 64 / 4)

typedef struct {
    int k;                      /* first loop of the block */
    tl_dim chunk;               /* iterations of loop k per block (divides it) */
    tl_dim vs;                  /* bytes of a staged value: dst's type (src's: copies) */
    int R;                      /* the loop T's rows run along */
    int nx, x[TL_REORDER_MAX_LOOPS];    /* other loops outside the runs */
    tl_dim nR, nX, nC;          /* iterations of R; of the x loops; values per run */
    tl_dim sst[TL_REORDER_MAX_LOOPS];   /* each block loop's stride in S */
    tl_dim nZ, zs;              /* the dst loop inside R (1: none); its stride in S */
    int fast;                   /* permute by transposes and zips; else through off */
    int small;                  /* fast, with T's rows shorter than a vector (4o4i) */
    tl_dim ahead;               /* source elements to the next block along k when its
                                   runs are prefetched (sources beyond the caches); 0 */
    const size_t *rows;         /* 4-byte rows copied whole: each T row's dst byte
                                   offset (tl__sr_perm_rows_init); else NULL */
    int direct;                 /* rows, transposed from the source and scaled */
    int t_is_dst;               /* T's rows lie as dst's (the 3 channels of nchw ->
                                   nhwc, rows one after another): no T, no zip */
    const size_t *onepass;      /* 4i16o4i, 8i16o2i: S to dst in one pass, each S
                                   column's dst byte offset (tl__sr_perm_onepass_init);
                                   else NULL */
    int nzr;                    /* onepass: runs of columns read at once */
    int nq;                     /* f32 -> 8 bits from the source (tl__sr16_zipsrc_block):
                                   quads of groups; else 0 */
    int noct, npair;            /* the same in AVX2 (tl__sr8_zipsrc_block): groups
                                   8 at a time, lone ones in pairs; else 0 */
    tl_dim noff;                /* entries of off */
    uint16_t *off;              /* fast: pairs (T offset, dst offset) per group of
                                   nZ rows; else the S offset of each dst element
                                   (all below TL__SR_PBLOCK) */
    /* the tables, from here on, are filled where their counts are set,
       never cleared: 19 KiB, whose clearing on every kernel call took a
       quarter of a 3 KiB f32 -> s8 Goihw16g reorder's 0.8 us */
    uint32_t zr[TL__SR_ONEPASS_RUNS];   /* onepass: first column | length << 16 */
    tl__sr_quad quad[TL__SR_PBLOCK / 256];
    tl__sr_oct oct[TL__SR_PBLOCK / 64 / 8];
    tl__sr_pair pair[TL__SR_PBLOCK / 64 / 2];
} tl__sr_perm;

/* Iterations of block loop l. */
static tl_dim tl__sr_perm_n(const tl_reorder_plan *p, const tl__sr_perm *pm, int l)
{
    return l == pm->k ? pm->chunk : p->loops[l].size;
}

/* Bytes of a staged value: dst's type (src's: copies). */
static tl_dim tl__sr_staged_size(const tl_reorder_plan *p)
{
    return (tl_dim)tl_dt_size(p->mode == TL_REORDER_MODE_COPY ? p->src_md.data_type
                                                            : p->dst_md.data_type);
}

/* The largest divisor of n that is at most most (1 where most < 1). */
static tl_dim tl__sr_divisor_to(tl_dim n, tl_dim most)
{
    tl_dim c = n < most ? n : most;
    while (c > 1 && n % c != 0) --c;
    return c < 1 ? 1 : c;
}

/* Staged values a block holds at most: TL__SR_PBLOCK bytes. */
static tl_dim tl__sr_pblock(const tl_reorder_plan *p)
{
    return TL__SR_PBLOCK / tl__sr_staged_size(p);
}

/* The block: loops k..L dense in dst, at most `most` staged values,
   loop k cut to a divisor of its size (chunk iterations) so that every
   block has one geometry; with0: loop 0 may join. Returns k, nloops
   when there is no block. */
static int tl__sr_block_loops(const tl_reorder_plan *p, int with0, tl_dim most, tl_dim *chunk)
{
    tl_dim inner = 1, c;
    int l, k = p->nloops;
    *chunk = 1;
    for (l = p->nloops - 1; l >= (with0 ? 0 : 1); --l) {
        const tl_reorder_loop *lp = &p->loops[l];
        if (lp->dst_stride != inner) break;
        c = tl__sr_divisor_to(lp->size, most / inner);
        if (c < 2) break;
        k = l;
        *chunk = c;
        if (c < lp->size) break;
        inner *= c;
    }
    return k;
}

/* Loops[0] joins the block only when this call's range [begin, end)
   holds whole chunks of it: threads cut it anywhere, and a block must
   not pass the range (tl__simd_reorder_chunked_kernel cuts a thread's
   range at chunk bounds). */
static int tl__sr_perm_block_at(const tl_reorder_plan *p, tl_dim begin, tl_dim end, tl_dim most, tl_dim *chunk)
{
    int k = tl__sr_block_loops(p, 1, most, chunk);
    return k == 0 && (begin % *chunk != 0 || end % *chunk != 0) ? tl__sr_block_loops(p, 0, most, chunk) : k;
}

/* Splits the block's loops: the runs (loops but excl that chain densely
   in src from stride 1, under one scale), R (of the others, the one with
   the smallest dst stride: dst's innermost or next to it) and the x
   loops (the rest). Sets the strides in S = [R][x loops][run]. */
static int tl__sr_perm_split(const tl_reorder_plan *p, tl__sr_perm *pm, int excl)
{
    int o[TL_REORDER_MAX_LOOPS], no = 0, l, a, in_run[TL_REORDER_MAX_LOOPS];
    tl_dim run = 1;
    for (l = pm->k; l < p->nloops; ++l) {
        for (a = no++; a > 0 && p->loops[o[a - 1]].src_stride > p->loops[l].src_stride; --a)
            o[a] = o[a - 1];
        o[a] = l;
        in_run[l] = 0;
    }
    for (a = 0; a < no && (o[a] == excl || p->loops[o[a]].src_stride == run); ++a) {
        if (o[a] == excl) continue;
        if (p->scales && p->loops[o[a]].scale_stride != 0) break;
        pm->sst[o[a]] = run;
        in_run[o[a]] = 1;
        run *= tl__sr_perm_n(p, pm, o[a]);
    }
    pm->nC = run;
    pm->R = -1;
    for (l = pm->k; l < p->nloops; ++l)
        if (!in_run[l] && (pm->R < 0 || p->loops[l].dst_stride < p->loops[pm->R].dst_stride))
            pm->R = l;
    if (pm->R < 0 || pm->nC < 16 || tl__sr_perm_n(p, pm, pm->R) < 2) return 0;
    /* R's rows shorter than a vector (i%4 of 4i16o4i, where the taps
       alone make runs): the loop just outside it in dst, when that fills
       one, is R instead, with i%4 zipped inside it (rows of 4 bytes, one
       copy and one table entry each, ran 6x slower) */
    if (pm->R == p->nloops - 1 && tl__sr_perm_n(p, pm, pm->R) * pm->vs < 16)
        for (l = pm->k; l < p->nloops; ++l)
            if (!in_run[l] && p->loops[l].dst_stride == tl__sr_perm_n(p, pm, pm->R) &&
                tl__sr_perm_n(p, pm, l) * pm->vs >= 16) {
                pm->R = l;
                break;
            }
    pm->nx = 0;
    pm->nX = 1;
    for (a = 0; a < no; ++a) {
        if (in_run[o[a]] || o[a] == pm->R) continue;
        pm->x[pm->nx++] = o[a];
        pm->sst[o[a]] = pm->nX * pm->nC;
        pm->nX *= tl__sr_perm_n(p, pm, o[a]);
    }
    pm->nR = tl__sr_perm_n(p, pm, pm->R);
    pm->sst[pm->R] = pm->nX * pm->nC;
    return 1;
}

/* tl__sr_perm_split; a block that is one dense source run (all of a
   small weight tensor, or a common scale) is split at a loop not at src
   stride 1: the first, by dst stride, that leaves runs long enough, of
   those that fill a vector first (o of OIhw4i16o4i rather than i%4:
   longer runs). */
static int tl__sr_perm_runs(const tl_reorder_plan *p, tl__sr_perm *pm)
{
    int l, excl, prev, wide;
    if (tl__sr_perm_split(p, pm, -1)) return 1;
    if (pm->R >= 0) return 0;
    for (wide = 1; wide >= 0; --wide)
        for (prev = -1;; prev = excl) {   /* candidates in order of dst stride, which differ */
            excl = -1;
            for (l = pm->k; l < p->nloops; ++l)
                if (p->loops[l].src_stride != 1 &&
                    (prev < 0 || p->loops[l].dst_stride > p->loops[prev].dst_stride) &&
                    (excl < 0 || p->loops[l].dst_stride < p->loops[excl].dst_stride))
                    excl = l;
            if (excl < 0) break;
            if ((!wide || tl__sr_perm_n(p, pm, excl) * pm->vs >= 16) && tl__sr_perm_split(p, pm, excl))
                return 1;
        }
    return 0;
}

/* Whether T can be spread into dst by row copies or zips of nZ rows.
   Rows shorter than a vector (nR * dsz of 2 to 8 bytes: 4o4i, 2i8o4i)
   are `small` when S's rows fill vectors (S -> T is then a zip of nR
   rows); their zips need nZ rows to fill whole vectors. */
static int tl__sr_perm_vec(const tl_reorder_plan *p, tl__sr_perm *pm)
{
    tl_dim dR = p->loops[pm->R].dst_stride, dsz = pm->vs, rowb = pm->nR * dsz;
    int L = p->nloops - 1;
    pm->nZ = 1;
    pm->zs = 0;
    pm->small = rowb < 16 && dsz <= 4 && (pm->nR & (pm->nR - 1)) == 0 &&
                (pm->nX * pm->nC * dsz) % 16 == 0;
    if (dR == 1) return 1;  /* rows copied; short ones not small: S -> T by transposes */
    /* the block is dense in dst: L alone must span R's dst stride; zips
       are instantiated for 1, 2 and 4 bytes (8-byte copies: rows only) */
    if (pm->R == L || tl__sr_perm_n(p, pm, L) != dR || dsz > 4) return 0;
    pm->nZ = dR;
    pm->zs = pm->sst[L];
    if ((dR & (dR - 1)) != 0 || dR > 16) return 0;
    return pm->small ? (dR * rowb) % 16 == 0 : rowb % 16 == 0;
}

/* Fills off: in fast mode one pair per group of nZ rows (R and Z left
   out), else the S offset of every dst element. An odometer over the
   block's loops of more than one iteration, the innermost walked in a
   plain loop: this runs on every call, and a table of a small weight
   tensor has thousands of entries; fast tables skip R and Z, and with
   them in the odometer its steps took a quarter of f32 -> s8 oihw ->
   OIhw4i16o4i 32x32x3x3 (Zen 5). */
static void tl__sr_perm_table(const tl_reorder_plan *p, tl__sr_perm *pm)
{
    tl_dim n[TL_REORDER_MAX_LOOPS], i[TL_REORDER_MAX_LOOPS], ss[TL_REORDER_MAX_LOOPS], ds[TL_REORDER_MAX_LOOPS];
    tl_dim so = 0, dof = 0, e, g = 0, nin = 1, sin = 0, din = 0;
    int L = p->nloops - 1, na = 0, a, l;
    uint16_t *off = pm->off;
    for (l = pm->k; l <= L; ++l) {     /* the loops of more than one iteration */
        tl_dim nl = tl__sr_perm_n(p, pm, l);
        if (nl == 1 || (pm->fast && (l == pm->R || (pm->nZ > 1 && l == L)))) continue;
        n[na] = nl;
        ss[na] = pm->sst[l];
        ds[na] = p->loops[l].dst_stride;
        i[na++] = 0;
    }
    if (na > 0) {
        nin = n[--na];
        sin = ss[na];
        din = ds[na];
    }
    for (;;) {
        if (pm->fast) {
            for (e = 0; e < nin; ++e, ++g) {
                off[2 * g] = (uint16_t)((so + e * sin) * pm->nR);
                off[2 * g + 1] = (uint16_t)(dof + e * din);
            }
        } else {
            for (e = 0; e < nin; ++e) off[dof + e * din] = (uint16_t)(so + e * sin);
            g += nin;
        }
        for (a = na - 1; a >= 0; --a) {
            if (++i[a] < n[a]) {
                so += ss[a];
                dof += ds[a];
                break;
            }
            so -= (n[a] - 1) * ss[a];
            dof -= (n[a] - 1) * ds[a];
            i[a] = 0;
        }
        if (a < 0) break;
    }
    pm->noff = g;
}

/* Whether T, as tl__sr_perm_table laid it out, is the block of dst
   itself: rows copied whole (nZ = 1), row g at value g * nR on both
   sides. The transposes then write dst. Not for small rows, whose zips
   move whole vectors past the last row. */
static void tl__sr_perm_dense_init(tl__sr_perm *pm)
{
    tl_dim g;
    pm->t_is_dst = pm->fast && pm->nZ == 1 && !pm->small;
    for (g = 0; g < pm->noff && pm->t_is_dst; ++g)
        pm->t_is_dst = pm->off[2 * g] == g * pm->nR && pm->off[2 * g + 1] == g * pm->nR;
}

/* Whether a block's source is one range: its loops, by src stride, each
   step over all those inside it (nchw -> nChw16c: 16 channels of a 7x7
   plane, several blocks of them). */
static int tl__sr_perm_whole(const tl_reorder_plan *p, const tl__sr_perm *pm)
{
    tl_dim inner = 1;
    int l, n;
    for (n = pm->k; n < p->nloops; ++n) {
        for (l = pm->k; l < p->nloops && p->loops[l].src_stride != inner; ++l) continue;
        if (l == p->nloops) return 0;
        inner *= tl__sr_perm_n(p, pm, l);
    }
    return 1;
}

/* pm for blocks of at most `most` staged values; 0 where p cannot take
   them. */
static int tl__sr_perm_blocks_of(const tl_reorder_plan *p, tl__sr_perm *pm, tl_dim begin, tl_dim end, tl_dim most)
{
    memset(pm, 0, offsetof(tl__sr_perm, zr));
    pm->vs = tl__sr_staged_size(p);
    pm->k = tl__sr_perm_block_at(p, begin, end, most, &pm->chunk);
    if (pm->k == p->nloops || !tl__sr_perm_runs(p, pm)) return 0;
    pm->fast = tl__sr_perm_vec(p, pm);
    return 1;
}

/* tl__sr_perm_from_f32 less what pm's table tells (every column in a
   group): what the block's loops decide. */
static int tl__sr_perm_f32_groups(const tl__sr_perm *pm, const tl_reorder_plan *p)
{
    return pm->fast && pm->nR == 16 && pm->nZ == 4 && pm->zs * pm->nZ <= pm->nC && pm->vs == 1 && pm->nx <= 1 &&
           p->mode != TL_REORDER_MODE_COPY && p->src_md.data_type == TL_F32 && p->beta == 0;
}

/* Whether plan p can take blocks staged in source order, in the kernel
   call that does [begin, end) of loops[0]. A small plan's f32 -> 8-bit
   blocks from the source (tl__sr_perm_f32_groups) hold at most a
   sixteenth of it, down to a quarter of TL__SR_PBLOCK: each call builds
   the block's tables afresh, which cost as much as moving it (f32 -> s8
   oihw -> OIhw4i16o4i 32x32x3x3, one block of the whole tensor, 1.14-1.23x
   faster in 4; 64x64x3x3 in 16 instead of 4 1.08-1.12x; Zen 5). Other
   blocks keep their size: OIhw16o16i and OIhw8i16o2i ran 1.04-1.06x
   slower in smaller ones. */
static int tl__sr_perm_init(const tl_reorder_plan *p, tl__sr_perm *pm, tl_dim begin, tl_dim end)
{
    tl_dim most = tl__sr_pblock(p), small = p->nelems / 16 > most / 4 ? p->nelems / 16 : most / 4;
    if (!tl__sr_perm_blocks_of(p, pm, begin, end, most)) return 0;
    if (small < most && tl__sr_perm_f32_groups(pm, p)) {
        tl_dim c;
        int k = tl__sr_perm_block_at(p, begin, end, small, &c);
        if ((k != pm->k || c != pm->chunk) &&
            !(tl__sr_perm_blocks_of(p, pm, begin, end, small) && tl__sr_perm_f32_groups(pm, p)))
            tl__sr_perm_blocks_of(p, pm, begin, end, most);     /* the whole block after all */
    }
    /* Each run's source one block further along loop k is fetched while
       this block is converted: a block reads as many streams as it has
       runs (64 channels for f32 nchw -> s8 nhwc), each too short for the
       hardware prefetchers to pick up from memory (in cache the
       prefetches only cost). Into L2, not L1: a block's source (56 KiB
       for those 64 channels) outgrows L1, which then dropped most lines
       before their use (f32 -> u8 nchw -> nhwc 32x64x56x56: 8.6 -> 13.9
       GB/s, best of 100). Prefetches never fault, so the last block may
       point past the tensor. A block whose source is one range is one
       stream, which the hardware follows (f32 -> s8 nchw -> nChw16c
       1024x96x7x7: 1.2x without the prefetches). */
    if (TL__SR_SRC_FAR(p) && !tl__sr_perm_whole(p, pm))
        pm->ahead = p->loops[pm->k].src_stride * pm->chunk;
    return p->mode != TL_REORDER_MODE_COPY || pm->fast;
}

/* n vectors of es-byte values (in: is bytes apart, out: os bytes apart;
   n a power of two up to 16) through `rounds` rounds that each zip
   vector i with vector i + n/2 into vectors 2i, 2i+1. Seen as bits of
   the position (vector, value), a round rotates them left by one: log2 n
   rounds turn n rows into their interleave (row, value) -> (value, row),
   and log2(16/es) more undo it, so the same rounds also deinterleave.
   A single vector (n == 1) zips its two halves, the same rotation. */
TL__SR_INLINE void tl__sr_zip_rows(int es, int n, int rounds, const char *in, size_t is,
                                   char *out, size_t os)
{
    simde__m128i r[16], x[16];
    int g, i;
    TL__SR_UNROLL
    for (i = 0; i < n; ++i) r[i] = simde_mm_loadu_si128((const simde__m128i *)(const void *)(in + (size_t)i * is));
    for (g = 0; g < rounds && n == 1; ++g) {   /* one vector: its two halves */
        x[0] = r[0];
        x[1] = simde_mm_srli_si128(r[0], 8);
        tl__sr_zip(&x[0], &x[1], es);
        r[0] = x[0];
    }
    if (n > 1) {
        TL__SR_UNROLL
        for (g = 0; g < rounds; ++g) {
            TL__SR_UNROLL
            for (i = 0; i < n / 2; ++i) {
                x[2 * i] = r[i];
                x[2 * i + 1] = r[i + n / 2];
                tl__sr_zip(&x[2 * i], &x[2 * i + 1], es);
            }
            TL__SR_UNROLL
            for (i = 0; i < n; ++i) r[i] = x[i];
        }
    }
    TL__SR_UNROLL
    for (i = 0; i < n; ++i) simde_mm_storeu_si128((simde__m128i *)(void *)(out + (size_t)i * os), r[i]);
}

/* 16 / rb rows of rb (2, 4 or 8) bytes, ts apart from t, as one vector. */
TL__SR_INLINE simde__m128i tl__sr_rows_load(int rb, const char *t, size_t ts)
{
    simde__m128i v[8];
    int32_t w;
    int16_t h;
    int i, n = 16 / rb, step;
    TL__SR_UNROLL
    for (i = 0; i < n; ++i) {
        if (rb == 8) {
            v[i] = simde_mm_loadl_epi64((const simde__m128i *)(const void *)(t + (size_t)i * ts));
        } else if (rb == 4) {
            memcpy(&w, t + (size_t)i * ts, 4);
            v[i] = simde_mm_cvtsi32_si128(w);
        } else {
            memcpy(&h, t + (size_t)i * ts, 2);
            v[i] = simde_mm_cvtsi32_si128(h);
        }
    }
    /* pairs of neighbours joined, each round doubling the width */
    TL__SR_UNROLL
    for (step = 1; step < n; step *= 2) {
        TL__SR_UNROLL
        for (i = 0; i + step < n; i += 2 * step) {
            switch (rb * step) {
            case 2: v[i] = simde_mm_unpacklo_epi16(v[i], v[i + step]); break;
            case 4: v[i] = simde_mm_unpacklo_epi32(v[i], v[i + step]); break;
            default: v[i] = simde_mm_unpacklo_epi64(v[i], v[i + step]); break;
            }
        }
    }
    return v[0];
}

/* One group of nz rows of rb (< 16) bytes, ts apart at t, zipped into
   o (back: unzipped from o) through a buffer where they fill k vectors.
   Inlined with every size constant. */
TL__SR_INLINE void tl__sr_perm_zip_small(int es, int nz, int rb, char *t, size_t ts, char *o,
                                         int back)
{
    simde__m128i buf_v[16];
    char *buf = (char *)(void *)buf_v;
    int k = nz * rb / 16, lz = 0, lk = 0, z;
    if (k < 1 || k > 16) return;    /* tl__sr_perm_vec admits none of these */
    while ((1 << lz) < nz) ++lz;
    while ((1 << lk) < k * 16 / es) ++lk;
    if (back) {
        tl__sr_zip_rows(es, k, lk - lz, o, 16, buf, 16);
        for (z = 0; z < nz; ++z) memcpy(t + (size_t)z * ts, buf + z * rb, (size_t)rb);
        return;
    }
    /* rows gathered in registers: 4-byte stores into a buffer read back
       as 16 bytes would stall store forwarding */
    for (z = 0; z < k; ++z) buf_v[z] = tl__sr_rows_load(rb, t + (size_t)(z * (16 / rb)) * ts, ts);
    tl__sr_zip_rows(es, k, lz, buf, 16, o, 16);
}

/* n bytes; whole vectors when n is a multiple of 16, not a memcpy call. */
TL__SR_INLINE void tl__sr_row_copy(const char *from, char *to, size_t n)
{
    size_t v;
    if (n % 16 != 0) {
        memcpy(to, from, n);
        return;
    }
    for (v = 0; v < n; v += 16)
        simde_mm_storeu_si128((simde__m128i *)(void *)(to + v),
                              simde_mm_loadu_si128((const simde__m128i *)(const void *)(from + v)));
}

/* The rows of T copied to dst (back: from dst), rb (4 or 8) bytes each,
   a move each with the length a constant: the 4o rows of 8-bit blocks
   and of 16-bit ones. As a memcpy call a row (a runtime length) f32 ->
   s8 oihw -> OIhw4i4o 256x256x3x3 ran at 0.36 of oneDNN's speed, with
   the length tested a row at 0.70, now 0.97; f32 -> bf16 OIhw4i4o and
   f32 -> s8 OIhw8i8o, rows of 8 bytes, 2.1-2.2x as fast as by the call
   (Zen 4). */
TL__SR_INLINE void tl__sr_perm_copy_rows(int es, int rb, const tl__sr_perm *pm, char *T, char *d, int back)
{
    tl_dim g;
    for (g = 0; g < pm->noff; ++g) {
        char *t = T + (size_t)pm->off[2 * g] * (size_t)es, *o = d + (size_t)pm->off[2 * g + 1] * (size_t)es;
        if (back) memcpy(t, o, (size_t)rb);
        else memcpy(o, t, (size_t)rb);
    }
}

/* Spreads T into dst (back: from dst into T): each group of nZ rows (nR
   values each) interleaved, or (nZ == 1) copied. Inlined with es and nZ
   constant. */
TL__SR_INLINE void tl__sr_perm_zip_es(int es, int nz, const tl__sr_perm *pm, char *T, char *d,
                                      int back)
{
    size_t rowb = (size_t)pm->nR * (size_t)es, ts = (size_t)pm->zs * rowb, v;
    int lz = 0, lv = 0;
    tl_dim g;
    while ((1 << lz) < nz) ++lz;
    while ((1 << lv) < 16 / es) ++lv;
    if (nz == 1 && rowb == 4) {
        tl__sr_perm_copy_rows(es, 4, pm, T, d, back);
        return;
    }
    if (nz == 1 && rowb == 8) {
        tl__sr_perm_copy_rows(es, 8, pm, T, d, back);
        return;
    }
    for (g = 0; g < pm->noff; ++g) {
        char *t = T + (size_t)pm->off[2 * g] * (size_t)es;
        char *o = d + (size_t)pm->off[2 * g + 1] * (size_t)es;
        if (nz == 1) tl__sr_row_copy(back ? o : t, back ? t : o, rowb);
        else if (rowb == 2) tl__sr_perm_zip_small(es, nz, 2, t, ts, o, back);
        else if (rowb == 4) tl__sr_perm_zip_small(es, nz, 4, t, ts, o, back);
        else if (rowb == 8) tl__sr_perm_zip_small(es, nz, 8, t, ts, o, back);
        else if (back)
            for (v = 0; v < rowb; v += 16) tl__sr_zip_rows(es, nz, lv, o + v * (size_t)nz, 16, t + v, ts);
        else
            for (v = 0; v < rowb; v += 16) tl__sr_zip_rows(es, nz, lz, t + v, ts, o + v * (size_t)nz, 16);
    }
}

/* Nothing to do where T is dst itself (t_is_dst: the transposes wrote
   it, or read it back). */
static void tl__sr_perm_zip(int es, const tl__sr_perm *pm, char *T, char *d, int back)
{
    if (pm->t_is_dst) return;
    switch (es * 32 + (int)pm->nZ) {
    case 1 * 32 + 2: tl__sr_perm_zip_es(1, 2, pm, T, d, back); break;
    case 1 * 32 + 4: tl__sr_perm_zip_es(1, 4, pm, T, d, back); break;
    case 1 * 32 + 8: tl__sr_perm_zip_es(1, 8, pm, T, d, back); break;
    case 1 * 32 + 16: tl__sr_perm_zip_es(1, 16, pm, T, d, back); break;
    case 2 * 32 + 2: tl__sr_perm_zip_es(2, 2, pm, T, d, back); break;
    case 2 * 32 + 4: tl__sr_perm_zip_es(2, 4, pm, T, d, back); break;
    case 2 * 32 + 8: tl__sr_perm_zip_es(2, 8, pm, T, d, back); break;
    case 2 * 32 + 16: tl__sr_perm_zip_es(2, 16, pm, T, d, back); break;
    case 4 * 32 + 2: tl__sr_perm_zip_es(4, 2, pm, T, d, back); break;
    case 4 * 32 + 4: tl__sr_perm_zip_es(4, 4, pm, T, d, back); break;
    case 4 * 32 + 8: tl__sr_perm_zip_es(4, 8, pm, T, d, back); break;
    case 4 * 32 + 16: tl__sr_perm_zip_es(4, 16, pm, T, d, back); break;
    /* row copies (nZ = 1), each element size inlined: the 64-byte rows of
       f32 16i16o take four vector moves, not a loop with a switch */
    case 1 * 32 + 1: tl__sr_perm_zip_es(1, 1, pm, T, d, back); break;
    case 2 * 32 + 1: tl__sr_perm_zip_es(2, 1, pm, T, d, back); break;
    case 4 * 32 + 1: tl__sr_perm_zip_es(4, 1, pm, T, d, back); break;
    default:        /* tl__sr_perm_vec admits no other nZ */
        TL_ASSERT(pm->nZ == 1);
        tl__sr_perm_zip_es(es, 1, pm, T, d, back);
        break;
    }
}

/* Copies n values of es bytes from S + off[e]*es to d. */
static void tl__sr_perm_gather(int es, const char *S, const uint16_t *off, char *d, tl_dim n)
{
    tl_dim e;
    switch (es) {
    case 1: for (e = 0; e < n; ++e) d[e] = S[off[e]]; break;
    case 2: for (e = 0; e < n; ++e) memcpy(d + 2 * e, S + 2 * off[e], 2); break;
    default: for (e = 0; e < n; ++e) memcpy(d + 4 * e, S + 4 * off[e], 4); break;
    }
}

/* Source offset and scale index of run j of S (R outermost, then the x
   loops, the first fastest). */
static void tl__sr_perm_run_at(const tl_reorder_plan *p, const tl__sr_perm *pm, tl_dim j,
                               tl_dim *so, tl_dim *co)
{
    int a;
    tl_dim xi = j % pm->nX, r = j / pm->nX;
    *so = r * p->loops[pm->R].src_stride;
    *co = r * p->loops[pm->R].scale_stride;
    for (a = 0; a < pm->nx; ++a) {
        const tl_reorder_loop *lp = &p->loops[pm->x[a]];
        tl_dim n = tl__sr_perm_n(p, pm, pm->x[a]);
        *so += xi % n * lp->src_stride;
        *co += xi % n * lp->scale_stride;
        xi /= n;
    }
}

/* The zips standing in for the transpose S -> T (or back) when T's rows
   are small: each 16 bytes of the nR rows of S (sb bytes apart) zipped
   into nR vectors of T. Inlined with es and nR constant. */
TL__SR_INLINE void tl__sr_perm_zip_cols(int es, int nr, char *S, char *T, size_t sb, int back)
{
    int lr = 0, lv = 0;
    size_t v;
    while ((1 << lr) < nr) ++lr;
    while ((1 << lv) < 16 / es) ++lv;
    for (v = 0; v < sb; v += 16) {
        if (back) tl__sr_zip_rows(es, nr, lv, T + v * (size_t)nr, 16, S + v, sb);
        else tl__sr_zip_rows(es, nr, lr, S + v, sb, T + v * (size_t)nr, 16);
    }
}

/* S (nR rows of ncols values) transposed into T (ncols rows of nR), or
   back; small rows by zips. */
static void tl__sr_perm_transpose(const tl__sr_perm *pm, int es, char *S, char *T,
                                  tl_dim ncols, int back)
{
    size_t sb = (size_t)ncols * (size_t)es;
    if (!pm->small) {
        if (back) tl__sr_transpose(es, T, pm->nR, S, ncols, pm->nR, ncols, 0);
        else tl__sr_transpose(es, S, ncols, T, pm->nR, ncols, pm->nR, 0);
        return;
    }
    switch (es * 32 + (int)pm->nR) {
    case 1 * 32 + 2: tl__sr_perm_zip_cols(1, 2, S, T, sb, back); break;
    case 1 * 32 + 4: tl__sr_perm_zip_cols(1, 4, S, T, sb, back); break;
    case 1 * 32 + 8: tl__sr_perm_zip_cols(1, 8, S, T, sb, back); break;
    case 2 * 32 + 2: tl__sr_perm_zip_cols(2, 2, S, T, sb, back); break;
    case 2 * 32 + 4: tl__sr_perm_zip_cols(2, 4, S, T, sb, back); break;
    default: TL_ASSERT(es == 4 && pm->nR == 2); tl__sr_perm_zip_cols(4, 2, S, T, sb, back); break;
    }
}

#if TL__SR_AVX2
/* The transpose of a block whose 4-byte rows are copied whole (see
   tl__sr_perm_rows_init), from s (row r of the block sb bytes apart: S,
   or the source itself) straight to the rows' dst places, each value
   times its scale along R when sc has one. */
static void tl__sr_perm_rows4(const tl__sr_perm *pm, const char *s, size_t sb, char *d,
                              tl_dim ncols, tl__sr_scales sc)
{
#if TL__SR_AVX512
    if (pm->nR % 16 == 0 && tl__sr_avx512()) {
        tl__sr16_tile_rows4(s, sb, d, pm->rows, ncols, pm->nR, sc);
        return;
    }
#endif
    tl__sr8_tile_rows4(s, sb, d, pm->rows, ncols, pm->nR, sc);
}

/* Once per kernel call (rows: room for TL__SR_ROWS). Blocks whose 4-byte
   rows are copied whole into dst (16i16o, 8i8o: nZ = 1, nR a multiple of
   8) get a table of each T row's dst place, so that S is transposed
   straight there, as merged tiles do, and T is skipped. Of those, f32 ->
   f32 blocks that only scale, by one scale or one per R (per-O weights),
   with no x loops and runs of whole 8-blocks (the I blocks inside them
   make sure of that), are `direct`: the source itself is transposed into
   dst and each transposed vector (the nR values of one position)
   multiplied by the scales of its R; no S either. Copies keep the
   transpose into T (measured no faster direct). */
static void tl__sr_perm_rows_init(tl__sr_perm *pm, const tl_reorder_plan *p, size_t *rows)
{
    tl_dim g, ncols = pm->nX * pm->nC;
    if (!pm->fast || pm->vs != 4 || pm->nZ != 1 || pm->small || pm->nR % 8 != 0 ||
        pm->noff != ncols || !tl__sr_avx2())
        return;
    for (g = 0; g < ncols; ++g) rows[pm->off[2 * g] / pm->nR] = (size_t)pm->off[2 * g + 1] * 4;
    pm->rows = rows;
    pm->direct = pm->nx == 0 && pm->nC % 8 == 0 && p->mode == TL_REORDER_MODE_CONVERT &&
                 p->src_md.data_type == TL_F32 && p->dst_md.data_type == TL_F32 && p->scales &&
                 !tl__sr_q_of(p, tl__sr_no_scales).extra && p->loops[pm->R].scale_stride <= 1;
}

/* Each S column's dst byte offset where a group of Z rows starts there;
   (size_t)-1 elsewhere. */
static void tl__sr_perm_group_cols(const tl__sr_perm *pm, size_t *col)
{
    tl_dim c, g;
    for (c = 0; c < pm->nX * pm->nC; ++c) col[c] = (size_t)-1;
    for (g = 0; g < pm->noff; ++g) col[pm->off[2 * g] / 16] = (size_t)(pm->off[2 * g + 1] * pm->vs);
}

/* Whether pm's blocks can go from an f32 source straight to their 8-bit
   groups (tl__sr16_zipsrc_block, tl__sr8_zipsrc_block): 16 R rows with
   a Z of 4 inside, an x loop at most, every S column in a group, no
   beta (the zips from the source do not read dst). Z must lie in the
   rows' runs, where its S stride is its source stride: Z as the x loop
   (f32 hwio -> s8 oihw 32x16x2x2, one run split at i) read 4 values
   zs = 32 apart in S's terms while the taps lay 512 apart in the
   source, past its end. */
static int tl__sr_perm_from_f32(const tl__sr_perm *pm, const tl_reorder_plan *p)
{
    return tl__sr_perm_f32_groups(pm, p) && pm->noff * pm->nZ == pm->nX * pm->nC;
}

/* Lone group number n (column c, dst offset to) into the pairs; 0 when
   they are full. */
static int tl__sr_perm_add_lone(tl__sr_perm *pm, int n, tl_dim c, size_t to)
{
    tl__sr_pair *pr = &pm->pair[n / 2];
    int z;
    if (n == 2 * (int)(sizeof pm->pair / sizeof pm->pair[0])) return 0;
    for (z = 0; z < 4; ++z) pr->idx[4 * (n % 2) + z] = (int32_t)(c + z * pm->zs);
    pr->to[n % 2] = to;
    return 1;
}

/* Once per kernel call on AVX2 machines without AVX-512 (col: room for
   TL__SR_ROWS): the blocks of tl__sr_perm_zipsrc_init's kind whose
   groups mostly lie 8 neighbours or more in a row (kernels of 3x3, 5x5
   and 7x7: runs of 9, 25 and 49) or whose pairs of lone groups are
   each 8 neighbouring values (1x1 kernels) skip S too:
   tl__sr8_zipsrc_block, per iteration of the x loop if there is one.
   The octs and pairs hold the groups of x = 0. */
static void tl__sr_perm_octs_init(tl__sr_perm *pm, const tl_reorder_plan *p, size_t *col)
{
    const int most = (int)(sizeof pm->oct / sizeof pm->oct[0]);
    tl_dim c, k, nC = pm->nC;
    int nlone = 0;
    if (!tl__sr_perm_from_f32(pm, p) || !tl__sr_avx2() || tl__sr_avx512()) return;
    tl__sr_perm_group_cols(pm, col);
    for (c = 0; c < nC; ++c) {
        if (col[c] == (size_t)-1) continue;
        for (k = 1; k < 8 && c + k < nC && col[c + k] != (size_t)-1; ++k) {}
        if (k < 8) {
            if (!tl__sr_perm_add_lone(pm, nlone, c, col[c])) break;
            ++nlone;
            continue;
        }
        if (pm->noct == most) break;
        pm->oct[pm->noct].c = c;
        for (k = 0; k < 8; ++k) pm->oct[pm->noct].to[k] = col[c + k];
        ++pm->noct;
        c += 7;
    }
    pm->npair = nlone / 2;
    /* too many lone groups picked value by value (1x1's are loaded), or
       an odd one out (taps of a padded I block) */
    if (c < nC || (nlone > pm->noct && pm->zs != 1) || nlone % 2) pm->noct = pm->npair = 0;
}
#endif

#if TL__SR_AVX512
/* Once per kernel call (col: room for TL__SR_ROWS). f32 -> s8 or u8
   blocks of onepass's kind whose groups each fit a window of 32 columns
   (zs <= 9: kernels up to 3x3, 1x1 too, which onepass leaves to the
   transpose and zips) go from the source through sets of packed rows
   instead (tl__sr16_zipsrc_block, once per iteration of the x loop if
   there is one: O blocks of a 1x1 kernel), whose 4 sets of 16 bytes a
   column fit in S. The quads hold the groups of the runs of x = 0, in
   column order, so that neighbours share windows. */
static void tl__sr_perm_zipsrc_init(tl__sr_perm *pm, const tl_reorder_plan *p, size_t *col)
{
    const int most = (int)(sizeof pm->quad / sizeof pm->quad[0]);
    tl_dim c, zs = pm->zs, nC = pm->nC;
    int nq;
    if (!tl__sr_perm_from_f32(pm, p) || nC < 32 || zs > 9 || (nC + 15) / 16 * 256 > TL__SR_PBLOCK ||
        !tl__sr_avx512())
        return;
    tl__sr_perm_group_cols(pm, col);
    for (c = 0; c < nC && col[c] == (size_t)-1; ++c) {}
    /* the counts, window and mask in locals: kept in pm, each idx store
       could have changed them (f32 -> s8 OIhw4i16o4i 16x16x3x3 to
       64x64x3x3 1.05-1.1x faster so) */
    for (nq = 0; c < nC; ++nq) {
        tl__sr_quad *qd = &pm->quad[nq];
        tl_dim g = c, w = 0;
        int k, z, nw = 0, ng = 0;
        unsigned m = 0;
        if (nq == most) return;
        for (k = 0; k < 4; ++k) {
            if (c < nC) {       /* else a quad short of 4 repeats its last group */
                g = c;
                qd->to[ng++] = col[c];
                for (++c; c < nC && col[c] == (size_t)-1; ++c) {}
            }
            if (nw == 0 || g + 3 * zs - w >= 32) {
                if (nw > 0) qd->m[nw - 1] = (uint16_t)m;
                qd->w[nw++] = w = g < nC - 32 ? g : nC - 32;
                m = 0;
            }
            m |= 0xfu << 4 * k;
            for (z = 0; z < 4; ++z) qd->idx[4 * k + z] = (int32_t)(g + z * zs - w);
        }
        qd->m[nw - 1] = (uint16_t)m;
        qd->nw = nw;
        qd->ng = ng;
    }
    pm->nq = nq;
}

/* Once per kernel call (col: room for TL__SR_ROWS). Blocks of 16 R rows
   with a Z loop inside R in dst, of 4 8-bit values (OIhw4i16o4i: o and
   i%4) or 2 16-bit ones (OIhw8i16o2i), skip T: tl__sr16_onepass_block
   transposes and zips S in one pass, given each S column's dst place
   where a group of Z rows starts. It reads the groups of up to 16
   neighbouring columns at once (the 9 hw of a 3x3 kernel), so blocks
   whose groups average fewer than 4 a run (a 1x1 kernel: 1) keep the
   transpose and zips, as do 16-bit copies, which transpose straight
   from the source instead of staging it in S (bf16 OIhw8i16o2i 3x3:
   10% faster that way). With beta the old values still come back
   through T. */
static void tl__sr_perm_onepass_init(tl__sr_perm *pm, const tl_reorder_plan *p, size_t *col)
{
    tl_dim c, m, ncols = pm->nX * pm->nC;
    if (!pm->fast || pm->nR != 16 || pm->nZ * pm->vs != 4 || (pm->vs != 1 && pm->vs != 2) ||
        (p->mode == TL_REORDER_MODE_COPY && pm->vs == 2) || pm->noff * pm->nZ != ncols ||
        p->beta != 0 || !tl__sr_avx512())
        return;
    tl__sr_perm_group_cols(pm, col);
    pm->nzr = 0;
    for (c = 0; c < ncols; c += m) {
        for (m = 0; m < 16 && c + m < ncols && col[c + m] != (size_t)-1; ++m) {}
        if (m == 0) {
            m = 1;
        } else if (pm->nzr * 4 < pm->noff) {
            pm->zr[pm->nzr++] = (uint32_t)c | (uint32_t)m << 16;
        } else {
            return;     /* more runs than the groups can average 4 in */
        }
    }
    pm->onepass = col;
}
#endif

/* One block from source s (its first value) to dst d; sidx: the scale
   index of its first value. */
static void tl__sr_perm_step(const tl_reorder_plan *p, const tl__sr_perm *pm, const char *s,
                             char *d, tl_dim sidx)
{
    /* S: onepass's over-read; 48 bytes to align it for the sets of zipsrc */
    simde__m128i S_v[TL__SR_PBLOCK / 16 + 5], T_v[TL__SR_PBLOCK / 16];
    char *S = (char *)(void *)S_v, *T = pm->t_is_dst ? d : (char *)(void *)T_v;
    int copy = p->mode == TL_REORDER_MODE_COPY;
    size_t es = tl_dt_size(p->src_md.data_type);
    size_t dsz = (size_t)pm->vs;
    tl_dim j, e, ncols = pm->nX * pm->nC;
#if TL__SR_AVX2
    if (pm->direct) {
        tl__sr_scales sc = tl__sr_no_scales;
        sc.sc = p->scales;
        sc.sidx = sidx;
        sc.sstep = p->loops[pm->R].scale_stride;
        tl__sr_perm_rows4(pm, s, (size_t)p->loops[pm->R].src_stride * 4, d, pm->nC, sc);
        return;
    }
#endif
#if TL__SR_AVX2
    if (pm->nq || pm->noct || pm->npair) {  /* a call per run of the x loop (O blocks of a 1x1 kernel) */
        const tl_reorder_loop *R = &p->loops[pm->R], *X = &p->loops[pm->nx ? pm->x[0] : pm->R];
        tl__sr_q q = tl__sr_q_of(p, tl__sr_no_scales);
        const float *from;
        float sc[16];
        int u8 = p->dst_md.data_type == TL_U8;
        tl_dim r, x;
        for (x = 0; x < pm->nX; ++x) {
            for (r = 0; r < 16; ++r)    /* x * 1 is x: 8-bit values lose even a NaN's payload */
                sc[r] = p->scales ? p->scales[sidx + x * X->scale_stride + r * R->scale_stride] : 1.f;
            from = (const float *)(const void *)s + x * X->src_stride;
#if TL__SR_AVX512
            if (pm->nq) {
                tl__sr16_zipsrc_block(&q, u8, from, (size_t)R->src_stride, pm->nC, sc, pm->quad, pm->nq,
                                      S + (64 - (uintptr_t)S % 64) % 64, d + x * X->dst_stride);
                continue;
            }
#endif
            tl__sr8_zipsrc_block(&q, u8, from, (size_t)R->src_stride, sc, pm->oct, pm->noct, pm->pair,
                                 pm->npair, (size_t)pm->zs, d + x * X->dst_stride);
        }
        return;
    }
#endif
    if (copy && pm->nx == 0 && !pm->onepass) {  /* S would be the source, rows R->src_stride apart */
        tl__sr_transpose((int)es, s, p->loops[pm->R].src_stride, T, pm->nR, pm->nC, pm->nR, 0);
        tl__sr_perm_zip((int)es, pm, T, d, 0);
        return;
    }
    /* beta: old dst values into S, where the conversion reads them, by
       the permute run backwards */
    if (p->beta != 0 && pm->fast) {
        tl__sr_perm_zip((int)dsz, pm, T, d, 1);
        tl__sr_perm_transpose(pm, (int)dsz, S, T, ncols, 1);
    } else if (p->beta != 0) {
        for (e = 0; e < pm->noff; ++e) memcpy(S + pm->off[e] * dsz, d + (size_t)e * dsz, dsz);
    }
    for (j = 0; (pm->ahead || copy) && j < pm->nR * pm->nX; ++j) {
        tl_dim so, co;
        tl__sr_perm_run_at(p, pm, j, &so, &co);
        /* the next block's runs into L2 (see tl__sr_perm_init) */
        if (pm->ahead)
            tl__sr_prefetch_lines(s + (size_t)(so + pm->ahead) * es, (size_t)pm->nC * es, 1);
        if (copy) memcpy(S + (size_t)(j * pm->nC) * es, s + (size_t)so * es, (size_t)pm->nC * es);
    }
    /* conversions: the nR runs of each iteration of the x loops in one call */
    if (!copy) {
        tl__sr_runs rs = tl__sr_one_run;
        tl__sr_scales sc = tl__sr_no_scales;
        sc.sc = p->scales;
        sc.sstep = 0;
        rs.count = pm->nR;
        rs.c = p->loops[pm->R].scale_stride;
        rs.s = (size_t)p->loops[pm->R].src_stride * es;
        rs.d = (size_t)ncols * dsz;
        for (j = 0; j < pm->nX; ++j) {
            tl_dim so, co;
            tl__sr_perm_run_at(p, pm, j, &so, &co);
            sc.sidx = sidx + co;
            tl__sr_convert_runs(p, s + (size_t)so * es, S + (size_t)(j * pm->nC) * dsz, sc, pm->nC, rs);
        }
    }
    if (!pm->fast) {
        tl__sr_perm_gather((int)dsz, S, pm->off, d, pm->noff);
        return;
    }
#if TL__SR_AVX2
    if (pm->rows) {
        tl__sr_perm_rows4(pm, S, (size_t)ncols * 4, d, ncols, tl__sr_no_scales);
        return;
    }
#endif
#if TL__SR_AVX512
    if (pm->onepass) {
        tl__sr16_onepass_block((int)dsz, S, ncols, (size_t)pm->zs, d, pm->zr, pm->nzr, pm->onepass);
        return;
    }
#endif
    tl__sr_perm_transpose(pm, (int)dsz, S, T, ncols, 0);
    tl__sr_perm_zip((int)dsz, pm, T, d, 0);
}

/* How the kernel works through the nest: which loops it does inside one
   step (the rest is walked by an odometer). */
enum { TL__SR_RUN, TL__SR_TILE_COPY, TL__SR_TILE_ROWS, TL__SR_NARROW, TL__SR_TILE_CONVERT,
       TL__SR_BLOCKS, TL__SR_STRIDED, TL__SR_QUADS4, TL__SR_COLUMNS, TL__SR_DWORDS };

#define TL__SR_ROWS 1024    /* dst rows a merged tile may hold */

typedef struct {
    int shape;
    int M;                      /* the src-contiguous loop of a tile */
    int k;                      /* first loop of a block */
    tl_dim chunk;               /* iterations of loop k per block (TL__SR_TILE_ROWS: of K a tile) */
    int scales_vary;            /* a block's scales differ inside it */
    int32_t *soff, *coff;       /* a whole block's src and scale offsets */
    const tl__sr_perm *perm;    /* blocks staged in source order; NULL: gathered */
    int stream;                 /* non-temporal stores for a large dst */
    int K;                      /* a merged tile's second loop (M's next in src);
                                   the loop whose short runs convert together */
    int K2;                     /* copies of short runs: the loop outside K, also
                                   walked inside a step when K is short; merged
                                   tiles: the loop of tiles a step walks
                                   (tl__sr_rows_walk); -1 */
    int K3;                     /* copies of short runs: the loops [K3, K2) walked
                                   inside a step too; conversions: loop K3 (K2 - 1);
                                   -1: none */
    size_t *rows;               /* a merged tile's dst rows, bytes */
    int pad;                    /* widening tiles: zero the rest of each dst
                                   row too (tl__sr_pads_fused) */
    int tail;                   /* tiles or runs that take the plan's tails
                                   (tl__sr_takes_tails): the loop of the tail
                                   dim's blocks; -1 */
    int pf_rows;                /* side-by-side tiles prefetch their rows
                                   (TL__SR_TILES_BODY's pf) */
    int quads_back;             /* TL__SR_QUADS4 from the blocks to rows
                                   of taps (M: the lanes' loop, L: taps) */
    const tl__sr_q4 *q4;        /* TL__SR_QUADS4's permutes (K: the loop of
                                   a vector's lanes, K2: its blocks') */
    int Q;                      /* ... and its columns of 4 inputs
                                   (tl__sr_quads4_cols); -1: none */
    tl__sr_q4cv *q4cv;          /* ... and its arithmetic, converting */
    int src_order;              /* TL__SR_RUN copies: K2 walked inside K
                                   (tl__sr_runs_src_order) */
    size_t tail_last;           /* ... and K2 the tail dim's blocks (or
                                   K, copies in dst order: tl__sr_last_run),
                                   the last partial: its data bytes in a run */
    int units4;                 /* TL__SR_RUN: units of 4 values widened
                                   or narrowed between s8 (u8) and f32 and
                                   transposed between K and K2
                                   (tl__sr_units4) */
    int bf16n;                  /* f32 -> bf16 tiles by AVX512-BF16
                                   (tl__sr_avx512bf16), asked once a call */
    tl_dim cols;                /* TL__SR_COLUMNS: columns a step (loops k..L,
                                   k by chunk) */
    int lone;                   /* TL__SR_TILE_CONVERT: a tile with none beside
                                   it (K2 -1) as tl__sr16_tiles_convert's one
                                   (tl__sr_lone_fits) */
    int next;                   /* ... and the loop of such tiles that follow
                                   one another on both sides (tl__sr_tiles_next),
                                   walked inside a step as the wide tiles' g; -1 */
} tl__sr_shape;

/* The first loop k of the longest run of innermost loops that is dense
   in dst (each dst stride = the elements inside it) and holds at most
   TL__SR_BLOCK elements below loop k; L itself at least. */
static void tl__sr_block_shape(const tl_reorder_plan *p, tl__sr_shape *sh)
{
    int L = p->nloops - 1, l;
    tl_dim inner = 1, below = 1;
    sh->k = L;
    sh->scales_vary = 0;
    for (l = L; l >= 0; --l) {
        if (p->loops[l].dst_stride != inner || inner > TL__SR_BLOCK) break;
        sh->k = l;
        below = inner;
        sh->scales_vary |= p->scales && p->loops[l].scale_stride != 0;
        if (inner > TL__SR_BLOCK / p->loops[l].size) break;
        inner *= p->loops[l].size;
    }
    sh->chunk = TL__SR_BLOCK / below;
    if (sh->chunk < 1) sh->chunk = 1;
}

/* Whether every offset inside one block fits the int32 tables. */
static int tl__sr_block_fits(const tl_reorder_plan *p, const tl__sr_shape *sh)
{
    tl_dim s = 0, c = 0;
    int l;
    for (l = sh->k; l < p->nloops; ++l) {
        tl_dim n = (l == sh->k && sh->chunk < p->loops[l].size ? sh->chunk : p->loops[l].size) - 1;
        s += n * p->loops[l].src_stride;
        c += n * p->loops[l].scale_stride;
        if (s > INT32_MAX || c > INT32_MAX) return 0;
    }
    return 1;
}

/* The loop M contiguous in src that a tile transposes against the
   innermost loop L; -1 when there is none. */
static int tl__sr_tile_loop(const tl_reorder_plan *p)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    int l;
    if (L->src_stride == 1 || L->dst_stride != 1) return -1;
    for (l = p->nloops - 2; l >= 0; --l)
        if (p->loops[l].src_stride == 1 && p->loops[l].size > 1) return l;
    return -1;
}

/* Whether converting tiles of p (M: the tile loop, K: the loop that lays
   them side by side, tl__sr_tiles_loop, or -1) go as one wide tile of
   f32 blocks (tl__sr16_tiles_convert), or merged (tl__sr_merge_rows):
   bf16, f16, s8 and u8 into f32, and f32 into bf16, s8 and u8, with
   nothing else to do but scales, and f32 into f32 with scales, in
   AVX-512. The scales may change along the tiles' rows (L and K) or
   along their columns (M), not both (tl__sr_tsc): per-O scales of
   weights either way. */
static int tl__sr_tiles_convert_fits(const tl_reorder_plan *p, int M, int K)
{
#if TL__SR_AVX512
    tl_data_type t = p->src_md.data_type, u = p->dst_md.data_type;
    int rows = p->loops[M].scale_stride == 0,
        cols = p->loops[p->nloops - 1].scale_stride == 0 && (K < 0 || p->loops[K].scale_stride == 0);
    return ((u == TL_F32 && (t == TL_BF16 || t == TL_F16 || t == TL_S8 || t == TL_U8 || (t == TL_F32 && p->scales))) ||
            (t == TL_F32 && (u == TL_BF16 || u == TL_S8 || u == TL_U8))) &&
           !tl__sr_q_of(p, tl__sr_no_scales).extra && (!p->scales || rows || cols) && !p->has_tails &&
           tl__sr_avx512();
#else
    (void)p;
    (void)M;
    (void)K;
    return 0;
#endif
}

/* Whether a converting tile of p (M its tile loop) with no tiles beside
   it (tl__sr_tiles_loop found none, tl__sr_tiles_convert_fits holds) goes
   as a single wide tile of tl__sr16_tiles_convert's: an L of one
   16-block (nchw -> nChw16c), whose 16 x 16 blocks of f32 convert as
   their rows leave (f32 -> bf16 by AVX512-BF16's instruction), rows of
   nChw16c's dense pixels stored and streamed four (s8) or two (bf16) a
   store. It replaces AVX2's 8 x 8 blocks (tl__sr_tile_direct), a stage
   and a converter pass, or blocks staged in source order (an M under 64
   into 2- or 4-byte values: tl__sr_perm_better). tlbench on the Zen 4,
   one thread: f32 -> bf16 nchw -> nChw16c 8x64x14x14 1.36x, 64x64x28x28
   1.65x, 32x64x56x56 (dst streamed) 1.54x; f32 -> s8 1.2-1.4x; bf16 ->
   f32 1.15-1.25x; 1x1 weights oihw -> OIhw16i16o 1024x1024 f32 -> bf16
   2.5x, f32 -> s8 1.7x. Not taken: an M of 4 or less, whose blocks
   would load 4 times the values they put (f32 -> s8 nChw4c -> nchw
   256x64x4x4, nchw -> nChw16c 256x64x2x2: 1.3-1.4x slower than staged
   blocks); s8 and u8 sources (tl__sr_tile_bytes widens them as bytes,
   1.05x faster) and f16 ones (widened in AVX2 halves, 1.1x slower); L
   in 16s past one block (f32 -> s8 nhwc -> nchw 64x64x28x28: 1.5x
   slower) or with a partial last block, which goes value by value
   (bf16 -> f32 nChw16c -> nchw 8x64x14x14: 2x slower). */
static int tl__sr_lone_fits(const tl_reorder_plan *p, int M)
{
    tl_data_type t = p->src_md.data_type;
    return p->loops[p->nloops - 1].size == 16 && p->loops[M].size > 4 && tl_dt_size(t) > 1 && t != TL_F16;
}

/* Whether a merged tile's kernel takes p's values (tl__sr_merge_rows):
   4-byte copies (AVX2 on), 2-byte copies and f32 converted as
   tl__sr16_tiles_convert converts (AVX-512, L in 16s). Scaled f32
   into f32 merges over loops[0] (oihw -> hwio 256x256x3x3 with per-O
   scales: 295 -> 112 us, in process on the Zen 4), where L keeps its
   scale (OIhw4i16o4i -> oihw per O) and where no tiles lie beside
   (sh->K2 < 0: oihw -> hwio per-O on two threads, whose inputs
   tl__sr_balance cuts, so that M, the taps, is no longer loops[0], ran
   as staged tiles through AVX2's strips, 190 us against 110 on one
   thread; merged 77). Scales along L elsewhere keep the rows transposed
   straight from the source (tl__sr_perm_rows4), which ran oihw ->
   OIhw16i16o 1.15x faster than merged (tlbench). */
static int tl__sr_merge_kernel(const tl_reorder_plan *p, const tl__sr_shape *sh)
{
    size_t es = tl_dt_size(p->src_md.data_type);
    int in16 = p->loops[p->nloops - 1].size % 16 == 0;
    if (p->mode != TL_REORDER_MODE_COPY)
        return es == 4 && tl__sr_tiles_convert_fits(p, sh->M, sh->K2) && in16 &&
               (p->dst_md.data_type != TL_F32 || sh->M == 0 || sh->K2 < 0 ||
                p->loops[p->nloops - 1].scale_stride == 0);
    return es == 4 ? tl__sr_avx2() : es == 2 && tl__sr_avx512() && in16;
}

/* The loop whose merged tiles a step walks, a kernel call each: the
   innermost one outside the tile (OIhw16i16o's input blocks), for plans
   without tails whose K fits one tile; -1: a step a tile. A step a tile
   spent 9% of f32 oihw -> OIhw16i16o 256x256x3x3 outside the kernel
   (offsets, the kernel's choice): walked, 1.05-1.11x faster (Zen 5). */
static int tl__sr_rows_walk(const tl_reorder_plan *p, const tl__sr_shape *sh)
{
    int l;
    if (p->has_tails || sh->chunk != p->loops[sh->K].size) return -1;
    for (l = p->nloops - 2; l >= 1; --l)
        if (l != sh->M && l != sh->K) return l;
    return -1;
}

/* Small tiles (the 9 taps of OIhw -> OIhw16i16o, one tile per input
   channel) cost more to set up than to move. When a loop K continues M
   in src (stride = M's size), K and M become one tile of K*M rows, each
   with its own dst offset from a table: 4-byte elements in AVX2 and
   AVX-512, 2-byte ones (bf16, f16) in AVX-512 with L in 16s
   (tl__sr16_tile_rows2; bf16 oihw -> OIhw16i16o 256x256x3x3 68 -> 39
   us, 500x600x3x3 538 -> 352, in tlbench on the Zen 4).
   Where M is loops[0] (oihw -> hwio: M the taps, K the inputs, L the
   outputs), K may be longer than TL__SR_ROWS / M's size and goes in
   equal chunks (sh->chunk of its iterations a tile): 256x256x3x3 in 3
   tiles of 774 rows a step ran 1.8x faster than tiles of the 9 taps
   alone, which left one row in 9 to gathers (1.6x at 512x512x3x3, dst
   beyond the caches). Not elsewhere: oihw -> Ohwi16o, whose tiles of
   taps sit side by side, gained nothing in cache and ran 1.6x slower at
   500x600x3x3, where those streamed. Such merges need the kernel to get
   all of loops[0] (a thread's part of M is not a run of the source's
   rows) and dst rows of 32 values or more in 16s (L), whole blocks of
   AVX-512's transpose: hwio -> oihw 35x16x3x3 and 5x5, M the 35
   outputs and L the 9 or 25 taps, ran 2-3x slower merged, as did oihw
   -> Ohwi16o 500x600x3x3 (its boxes without the 4 outputs past the
   last whole block have the taps as loops[0], and L of 16) and oihw ->
   hwio 16x256x3x3 1.4x. 2-byte tiles over loops[0] merge only where the
   taps' tiles would not go side by side (sh->K2, on entry; -1 once
   merged): bf16 oihw -> hwio 64x64x3x3, 32x256x3x3 and 128x128x3x3
   ran 1.3-1.6x slower merged, 256x256x3x3 and 256x64x3x3 1.4-1.7x
   faster. f32 rounded to bf16, s8 or u8 with nothing else to do
   (tl__sr_tiles_convert_fits) merges as 2-byte copies do, over loops[0]
   too, where the conversions cost more than the gathers saved: f32 ->
   bf16 oihw -> OIhw16i16o 256x256x3x3 129 -> 86 us, oihw -> hwio 262
   -> 119 and 64x64x3x3 8 -> 7 (side by side before). */
static void tl__sr_merge_rows(const tl_reorder_plan *p, tl__sr_shape *sh)
{
    int L = p->nloops - 1, k;
    tl_dim nm = p->loops[sh->M].size, most = TL__SR_ROWS / nm, n, tiles;
    size_t es = tl_dt_size(p->src_md.data_type);
    sh->K = -1;
    if (!tl__sr_merge_kernel(p, sh) || nm >= 64 ||
        (sh->M == 0 && (tl__reorder_threads_split(p) || p->loops[L].size % 16 != 0 || p->loops[L].size < 32 ||
                        (es == 2 && sh->K2 >= 0))))
        return;
    for (k = 1; k < L; ++k) {
        if (k == sh->M || p->loops[k].src_stride != nm) continue;
        /* merged rows take scales along L or along K and M, not both
           (tl__sr16_rows_convert) */
        if (p->scales && (p->loops[k].scale_stride != 0 || p->loops[sh->M].scale_stride != 0) &&
            p->loops[L].scale_stride != 0)
            return;
        n = p->loops[k].size;
        if (n > most && sh->M != 0) return;
        tiles = (n + most - 1) / most;
        sh->K = k;
        sh->chunk = (n + tiles - 1) / tiles;
        sh->shape = TL__SR_TILE_ROWS;
        sh->K2 = tl__sr_rows_walk(p, sh);
        return;
    }
}

/* Whether TL__SR_QUADS4 takes AVX-512's form (tl__sr16_quads4) for p:
   conversions and 2-byte copies. 4-byte copies keep AVX2's form, which
   ran them 1.05-1.2x faster on the Zen 4 (f32 oihw -> OIhw4i4o, 4o4i,
   8i8o, 8o8i, 16o16i, 4i16o4i 64x64x3x3 to 512x512x3x3, in process) and
   takes OIhw16i16o from beyond the caches too (512x512x3x3: 1.8x). */
static int tl__sr_q4_wide(const tl_reorder_plan *p)
{
    return tl__sr_avx512() && (p->mode != TL_REORDER_MODE_COPY || tl_dt_size(p->src_md.data_type) == 2);
}

#define TL__SR_QUADS_TAPS 64 /* taps up to which AVX2 copies weights by
                                  TL__SR_QUADS4 (7x7 kernels: 49) */

/* Whether TL__SR_QUADS4 takes blocks of B x B elements of p: 4-byte,
   B of 4, 8 or 16, AVX2 at least; 2-byte copies in AVX-512 (bf16
   weights, widened to 32-bit lanes as they load), of B = 8 and 16 only
   from TL__SR_PF_ROWS_MIN of source on: in cache the side-by-side tiles
   ran them 1.2-1.5x faster (oihw -> OIhw8i8o, OIhw8o8i, OIhw16o16i,
   256x256x3x3 and 384x384x3x3), from 4.7 and 5.4 MB the quads 1.1-2x
   (512x512x3x3, 500x600x3x3; Zen 4, in process). */
static int tl__sr_q4_blocks_ok(const tl_reorder_plan *p, tl_dim B)
{
    size_t es = tl_dt_size(p->src_md.data_type);
    if (es == 2)
        return p->mode == TL_REORDER_MODE_COPY && tl__sr_avx512() &&
               (B == 4 || ((B == 8 || B == 16) && p->src_hi - p->src_lo >= TL__SR_PF_ROWS_MIN));
    return es == 4 && (B == 4 || B == 8 || B == 16) && tl__sr_avx2();
}

/* Weights whose taps hold X's outputs by 4 inputs (L, dst stride 1)
   in columns of 4 inputs (Q: dst stride 4 X, source stride 4 nm; or
   one column): OIhw4i16o4i, OIhw2i8o4i, OIhw16o4i from oihw. Each 4 x
   4 of a tap is one vector as OIhw4o4i's (lanes are 4 inputs of a row;
   in AVX2's form two), from its own 4 rows and inputs of the source
   (tl__sr_q4_at); 4, 16 or 64 of them a tap. The s8 OIhw4i16o4i of convolutions went
   through tiles of 16 outputs by 4 inputs, whose 16-byte dst rows take
   a store each (f32 -> s8 256x256x3x3 with a scale per output: 0.43 of
   memcpy on the Zen 4). Returns X and sets *Q (-1: one column); -1:
   none. */
static int tl__sr_quads4_cols(const tl_reorder_plan *p, int M, int *Q)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    tl_dim nm = p->loops[M].size, nx, nq = 1;
    int x, q;
    if (L->src_stride != nm) return -1;
    for (x = tl__reorder_threads_split(p); x < p->nloops - 1 && (x == M || p->loops[x].dst_stride != 4); ++x) {}
    if (x == p->nloops - 1) return -1;
    nx = p->loops[x].size;
    for (q = 1; q < p->nloops - 1; ++q)     /* not loops[0], which threads split */
        if (q != M && q != x && p->loops[q].dst_stride == 4 * nx && p->loops[q].src_stride == 4 * nm) {
            nq = p->loops[q].size;
            *Q = q;
        }
    if ((nx != 4 && nx != 8 && nx != 16) || (nx * nq != 16 && nx * nq != 64) ||
        p->loops[M].dst_stride != 4 * nx * nq) {
        *Q = -1;
        return -1;
    }
    return x;
}

/* Copies of weights blocked B x B (oihw -> OIhw4i4o, OIhw4o4i,
   OIhw8i8o, OIhw8o8i, OIhw16o16i; 2-byte ones, tl__sr_q4_blocks_ok, and
   conversions from f32, tl__sr_quads4_converts, in AVX-512's form over 4
   to 9 taps, tl__sr_q4_wide): dst holds per tap m of the loop M (B^2 values
   apart) B rows of B, the loops X (dst stride B) and L, where one of X
   and L strides by M's size in the source: the inputs, whose taps a
   source row holds in runs. Where L is the inputs, each 16-byte lane of
   dst is 4 inputs of one row; where X is (B of 4 or 8: 16i16o would take
   4 rows a permute), 4 rows of one input. AVX2's form (4-byte copies,
   and all without AVX-512) takes any source rows and from 4 taps to TL__SR_QUADS_TAPS; 16i16o only
   from beyond the caches (TL__SR_SRC_FAR), where its streamed stores ran
   500x600x3x3 2.3x faster than the merged tiles (Zen 3), which match it
   in cache. A step walks M, X and L whole, so neither M nor X may be
   loops[0] where the threads cut its range (hwio -> OIhw16o16i
   256x256x3x3 on two threads wrote outside dst, X the O blocks; on one
   thread they run 1.45x faster than the tiles). Returns X (and the
   columns' loop, tl__sr_quads4_cols, in *Q); -1: none. */
static int tl__sr_quads4_loop(const tl_reorder_plan *p, int M, int *Q)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    tl_dim nm, B = L->size;
    int x, wide = tl__sr_q4_wide(p), rows, first = tl__reorder_threads_split(p);
    *Q = -1;
    if (M < first || !tl__sr_q4_blocks_ok(p, B)) return -1;
    nm = p->loops[M].size;
    /* blocks of 16 over more than 9 taps keep AVX-512's side-by-side
       tiles (f32 OIhw16o16i 256x256x5x5: 351 against 443 us by AVX2's
       quads, Zen 4) */
    if (nm < 4 || nm > (wide || (B == 16 && tl__sr_avx512()) ? 9 : TL__SR_QUADS_TAPS)) return -1;
    if (p->loops[M].dst_stride != B * B) return B == 4 ? tl__sr_quads4_cols(p, M, Q) : -1;
    rows = wide ? B < 16 : B < 16 || TL__SR_SRC_FAR(p);     /* lanes of 4 rows (L not the inputs) */
    for (x = first; x < p->nloops - 1; ++x)
        if (x != M && p->loops[x].size == B && p->loops[x].dst_stride == B &&
            (L->src_stride == nm || (rows && (!wide || p->loops[x].src_stride == nm))))
            return x;
    return -1;
}

/* The same copies back, from the blocks to rows of taps (OIhw4i4o,
   OIhw4o4i, OIhw8i8o, OIhw8o8i, OIhw16o16i -> oihw), 4-byte values in
   AVX2's form, with AVX-512 too (whose merged tiles ran them 1.1-3x
   slower on the Zen 4: 4i4o, 4o4i, 8o8i 256x256x3x3 and 500x600x3x3):
   the taps are L (src stride B^2), M (src stride 1) and X (src stride
   B) B values each, M and X whole (tl__sr_quads4_loop). Returns
   X; -1: none. */
static int tl__sr_quads4_back_loop(const tl_reorder_plan *p, int M)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    int x, first = tl__reorder_threads_split(p);
    tl_dim B = M >= first ? p->loops[M].size : 0;
    if (M < first || tl_dt_size(p->src_md.data_type) != 4 || !tl__sr_q4_blocks_ok(p, B) || L->src_stride != B * B ||
        L->size < 4 || L->size > TL__SR_QUADS_TAPS)
        return -1;
    for (x = first; x < p->nloops - 1; ++x)
        if (x != M && p->loops[x].size == B && p->loops[x].src_stride == B) return x;
    return -1;
}

/* The loop of p other than L, M, X (sh->K) and Q with the most iterations, the
   inner one of equals (the blocks of TL__SR_QUADS4, walked inside a
   step), one along which the scales stay where fixed; -1: none. The
   innermost alone gave grouped weights with few inputs steps of 2
   blocks (gOIhw4o4i 32x8x8x3x3: 0.9 of oneDNN). */
static int tl__sr_quads4_blocks(const tl_reorder_plan *p, const tl__sr_shape *sh, int fixed)
{
    int l, best = -1;
    for (l = p->nloops - 2; l >= 0; --l)
        if (l != sh->M && l != sh->K && l != sh->Q && (!fixed || p->loops[l].scale_stride == 0) &&
            (best < 0 || p->loops[l].size > p->loops[best].size))
            best = l;
    return best;
}

/* The two windows of 16 values that hold group g's taps of 4 inputs
   in a run of their 4 nm values: from the group's first tap, or later
   where that would run past the run; 4 nm >= 16 keeps both inside it,
   nm <= 9 the group's 3 nm + 4 values inside the two. Value at of the
   run is their permute's index tl__sr_q4_pick(at, *a, *b). */
static void tl__sr_q4_windows(int nm, int g, int *a, int *b)
{
    *a = 4 * g < 4 * nm - 16 ? 4 * g : 4 * nm - 16;
    *b = *a + 16 < 4 * nm - 16 ? *a + 16 : 4 * nm - 16;
}

static int32_t tl__sr_q4_pick(int at, int a, int b)
{
    return at < a + 16 ? at - a : 16 + at - b;
}

/* Vector v of group g of TL__SR_QUADS4 where lanes are 4 inputs of a
   row: t[r] is lane r's 4 inputs of 4 taps, from their run (t[0]'s at
   byte run of the block; tl__sr_q4_init's s1 and s2 step from lane to
   lane), lane e holding tap e. */
static void tl__sr_q4_lanes_rows(const tl__sr_q4 *q, int nm, size_t run, int g, tl__sr_q4v *w)
{
    size_t es = (size_t)TL__SR_Q4_ES(q->out);
    int a, b, k, e;
    tl__sr_q4_windows(nm, g, &a, &b);
    w->lo = run + (size_t)a * es;
    w->hi = run + (size_t)b * es;
    for (k = 0; k < 4; ++k)
        for (e = 0; e < 4; ++e)
            w->idx[4 * e + k] = tl__sr_q4_pick(k * nm + 4 * g + (e < q->n[g] ? e : q->n[g] - 1), a, b);
}

/* The same where lanes are 4 rows of one input: t[r] is row r, lane j holding 4 taps of input j of a row's run (B of 4: two
   windows of it), or of input 2v + j / 2 of row r (even j) or r + 4 (odd
   j), from one window of 16 values at the first input's first tap or
   earlier, inside the row's 8 nm values (B of 8). */
static void tl__sr_q4_lanes_inputs(const tl__sr_q4 *q, int nm, tl_dim rs, int B, int g, int v, tl__sr_q4v *w)
{
    size_t es = (size_t)TL__SR_Q4_ES(q->out);
    int a, b, j, e;
    if (B == 4) {
        tl__sr_q4_windows(nm, g, &a, &b);
    } else {
        a = 2 * v * nm + 4 * g < 8 * nm - 16 ? 2 * v * nm + 4 * g : 8 * nm - 16;
        b = a;
    }
    w->lo = (size_t)a * es;
    w->hi = ((size_t)(B == 4 ? 0 : 4 * rs) + (size_t)b) * es;
    for (j = 0; j < 4; ++j)
        for (e = 0; e < 4; ++e) {
            int tap = 4 * g + (e < q->n[g] ? e : q->n[g] - 1);
            w->idx[4 * j + e] = B == 4 ? tl__sr_q4_pick(j * nm + tap, a, b)
                                       : (j % 2) * 16 + (2 * v + j / 2) * nm + tap - a;
        }
}

/* Value u of a tap of TL__SR_QUADS4, counted in the tap's layout (dst's,
   or the source's where the quads go back), placed by the loops inside a
   tap (a smaller stride there than the taps' loop T): its offset in
   values on the other side from the tap's first, or (scale) its scale
   index from the first's. */
static tl_dim tl__sr_q4_at(const tl_reorder_plan *p, int T, int back, int scale, tl_dim u)
{
    tl_dim at = 0;
    int l;
    for (l = 0; l < p->nloops; ++l) {
        const tl_reorder_loop *lp = &p->loops[l];
        tl_dim in = back ? lp->src_stride : lp->dst_stride;
        if (l != T && in < (back ? p->loops[T].src_stride : p->loops[T].dst_stride))
            at += u / in % lp->size * (scale ? lp->scale_stride : back ? lp->dst_stride : lp->src_stride);
    }
    return at;
}

/* AVX2's form of TL__SR_QUADS4: lane h of vector v is values 8v + 4h
   .. + 3 of a tap (of n values, the lanes along L, whose values lie a
   bytes apart in the rows of taps); lo and hi: its first value's row of
   taps. */
static void tl__sr_q4_lanes8(const tl_reorder_plan *p, tl__sr_q4 *q, int T, int back, tl_dim n, size_t a)
{
    int v;
    q->nv = (int)n / 8;
    q->s1 = a;
    for (v = 0; v < q->nv; ++v) {
        q->v[v].lo = (size_t)tl__sr_q4_at(p, T, back, 0, 8 * v) * 4;
        q->v[v].hi = (size_t)tl__sr_q4_at(p, T, back, 0, 8 * v + 4) * 4;
    }
}

/* The tables of TL__SR_QUADS4 (sh->M: the taps, or back the lanes'
   loop; sh->K: X). In AVX-512's permutes a last group of fewer than 4
   taps repeats its last one. */
static void tl__sr_q4_init(const tl_reorder_plan *p, const tl__sr_shape *sh, tl__sr_q4 *q)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1], *X = &p->loops[sh->K], *M = &p->loops[sh->M];
    size_t es;
    int nm = (int)(sh->quads_back ? L->size : M->size), B = (int)(sh->quads_back ? M->size : L->size), g, v;
    q->wide = tl__sr_q4_wide(p) && !sh->quads_back;
    q->lanes_rows = 0;
    q->out = p->mode == TL_REORDER_MODE_COPY
               ? (tl_dt_size(p->src_md.data_type) == 2 ? TL__SR_Q4_WORDS : TL__SR_Q4_COPY)
           : p->dst_md.data_type == TL_F32   ? TL__SR_Q4_F32
           : p->dst_md.data_type == TL_BF16  ? TL__SR_Q4_BF16
                                             : TL__SR_Q4_I8;
    q->taps = nm;
    q->ng = (nm + 3) / 4;
    if (sh->quads_back) {      /* the rows of taps are dst's */
        tl__sr_q4_lanes8(p, q, p->nloops - 1, 1, (tl_dim)B * B, (size_t)M->dst_stride * 4);
        return;
    }
    if (!q->wide) {
        tl__sr_q4_lanes8(p, q, sh->M, 0, M->dst_stride, (size_t)L->src_stride * 4);
        return;
    }
    es = (size_t)TL__SR_Q4_ES(q->out);
    q->lanes_rows = L->src_stride == nm;
    q->nv = (int)M->dst_stride / 16;    /* B x B, or the columns of tl__sr_quads4_cols */
    /* t[r]'s runs: the next lane's 4 nm values on in the row (B of 16,
       and B of 8 within a row), or the next row (columns; the second
       row of a vector of B of 8; rows of 4 inputs' lanes) */
    if (q->lanes_rows) {
        q->s1 = (size_t)(B == 4 ? X->src_stride : 4 * nm) * es;
        q->s2 = B == 8 ? (size_t)X->src_stride * es : 2 * q->s1;
    } else {
        q->s1 = (size_t)L->src_stride * es;
        q->s2 = 2 * q->s1;
    }
    for (g = 0; g < q->ng; ++g) {
        q->n[g] = nm - 4 * g < 4 ? nm - 4 * g : 4;
        for (v = 0; v < q->nv; ++v) {       /* where lanes are inputs, t[0] starts at dst's value 16 v */
            if (q->lanes_rows)
                tl__sr_q4_lanes_rows(q, nm, (size_t)tl__sr_q4_at(p, sh->M, 0, 0, 16 * v) * es, g, &q->v[g * q->nv + v]);
            else tl__sr_q4_lanes_inputs(q, nm, L->src_stride, B, g, v, &q->v[g * q->nv + v]);
        }
    }
}

/* The scales of a converting TL__SR_QUADS4 step whose first scale index
   is sidx into cv (tl__sr_q4cv), unless it holds them. */
static void tl__sr_q4_scales(const tl_reorder_plan *p, const tl__sr_shape *sh, tl__sr_q4cv *cv, tl_dim sidx)
{
    int e;
    if (!p->scales || sidx == cv->sidx) return;
    cv->sidx = sidx;
    for (e = 0; e < 64 * sh->q4->nv; ++e) cv->s[e] = p->scales[sidx + cv->co[e]];
}

/* cv for plan p's converting TL__SR_QUADS4 steps (sh->q4's vectors): no
   scales yet (tl__sr_q4_scales fills them) but where each lane's come
   from, or 1 for all without them. Lane L of t[k] of a tap's vector v
   holds its dword e of dst's value 16 v + 4 k + e of the tap where lanes
   are taps (lanes_rows), else dword e is tap e and the value 16 v + 4 L
   + k; the loops inside a tap (L, X, Q) place the value. */
static void tl__sr_q4cv_init(const tl_reorder_plan *p, const tl__sr_shape *sh, tl__sr_q4cv *cv)
{
    tl_dim at[16 * 16];     /* each value's scale index, once (4 lanes hold it) */
    int e, n = 64 * sh->q4->nv;
    cv->q = tl__sr_q_of(p, tl__sr_no_scales);
    cv->u8 = p->dst_md.data_type == TL_U8;
    cv->sidx = -1;
    if (!p->scales) {
        for (e = 0; e < n; ++e) cv->s[e] = 1.f;
        return;
    }
    for (e = 0; e < n / 4; ++e) at[e] = tl__sr_q4_at(p, sh->M, 0, 1, e);
    for (e = 0; e < n; ++e)
        cv->co[e] = at[16 * (e / 64) + (sh->q4->lanes_rows ? e / 16 % 4 * 4 + e % 4 : e % 16 / 4 * 4 + e / 16 % 4)];
}

#define TL__SR_SIDE_ROWS 32 /* rows of a large tile below which its tiles go side by side */

/* Small transposed tiles that the loop outside L in dst (o of
   OIhw16o16i: tiles of 9 hw x 16 i, one per o) lays side by side go in
   one step, not one step each; so do larger ones whose few rows
   (L: under TL__SR_SIDE_ROWS, not in 8s) leave a partial block in each
   tile (hwio -> oihw: 9 taps x 500 o, 0.19 of memcpy on the Zen 4
   tile by tile). -1: none. */
static int tl__sr_tiles_loop(const tl_reorder_plan *p, int M)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    size_t es = tl_dt_size(p->src_md.data_type);
    int k;
    if (!tl__sr_tile_small(p->loops[M].size, L->size, es) && (L->size % 8 == 0 || L->size >= TL__SR_SIDE_ROWS))
        return -1;
    for (k = 0; k < p->nloops - 1; ++k)
        if (k != M && p->loops[k].dst_stride == L->size && p->loops[k].size > 1) return k;
    return -1;
}

/* Small copied tiles that follow one another in src and dst (the 7x7
   planes of a channel block, nChw16c -> nchw: 784 bytes of s8) go a
   run of them a step, their setup paid once (s8 64x64x7x7 24 -> 19 us,
   f32 38 -> 29, u8 64x64x14x14 39 -> 28; Zen 4, in process): the loop
   whose strides are the tile's size on both sides; -1. Plans with tails
   keep their own walk (tl__sr_takes_tails). */
static int tl__sr_tiles_next(const tl_reorder_plan *p, int M)
{
    tl_dim n = p->loops[M].size * p->loops[p->nloops - 1].size;
    int k;
    if (p->has_tails || !tl__sr_tile_small(p->loops[M].size, p->loops[p->nloops - 1].size,
                                           tl_dt_size(p->src_md.data_type)))
        return -1;
    for (k = 0; k < p->nloops - 1; ++k)
        if (k != M && p->loops[k].size > 1 && p->loops[k].src_stride == n && p->loops[k].dst_stride == n) return k;
    return -1;
}

#define TL__SR_SHORT_RUN 1024 /* bytes of a copied run below which a step
                                 copies all runs of the loop outside L */
#define TL__SR_SHORT_CONVERT 4096 /* values of a converted run, the same */

/* The loop a step of short runs also does (the one outside L): for
   conversions, so that the converter starts once for all its runs, of
   any length (tl__sr_convert_runs: the 4 channels of an nChw16c block's
   tail, s8 <-> f32 nhwc -> nChw16c with 100 channels, took a call each
   and ran 1.5-1.8x slower; a step for each plane of f32 -> s8 nchw ->
   nchw with per-channel scales, 8x64xHxW, cost 3x at 14x14, 1.55x at
   28x28 and 1.2x at 56x56 on the Zen 4); for
   copies, so that runs of 16 to 64 bytes (s8 nhwc <-> nChw16c, hwio ->
   OIhw16i16o) move as inlined vector copies, not one memcpy call each
   (s8 nhwc -> nChw16c: 3.8 GB/s that way). -1: none. */
static int tl__sr_runs_loop(const tl_reorder_plan *p)
{
    tl_dim n = p->loops[p->nloops - 1].size;
    if (p->nloops < 2) return -1;
    if (p->mode == TL_REORDER_MODE_COPY)
        return n * (tl_dim)tl_dt_size(p->src_md.data_type) < TL__SR_SHORT_RUN ? p->nloops - 2 : -1;
    return n <= TL__SR_SHORT_CONVERT ? p->nloops - 2 : -1;
}

/* Whether plan p's copied runs along loop K go in source order, the
   loop K - 1 (K2) inside K (tl__sr_copy_runs_src_n): runs of whole lines
   (in 64s of bytes), K2 the finer loop in src. In dst order the runs of
   f32 nhwc -> nChw16c (64 bytes, a pixel's C values apart) read one line
   of each pixel a block, each block another pass over the image, at
   0.45-0.55 of memcpy; in source order src is read front to back, each
   store still fills a line, and 1024x100x7x7 ran 2.5x faster, nChw16c
   -> nhwc 1024x112x7x7 1.7x (Zen 4). Runs under a line lost (nChw8c,
   nChw4c, s8: their lines fill over several pixels), save runs of 32
   bytes that two pixels put side by side in dst (tl__sr_pairs_src): a
   pair fills a line in one store. K2's runs 1 KiB or
   a multiple of it apart in dst went slower in source order (nChw16c ->
   nhwc, 256 channels: 0.4x; nhwc -> nChw16c 1x256x56x56 in cache 0.8x),
   except a few blocks' (at most TL__SR_SRC_ORDER_GROUPS) from a source
   beyond the caches (nhwc -> nChw16c 32x256x28x28 2.1x, 32x64x56x56 2x). */
#define TL__SR_SRC_ORDER_GROUPS 32
/* Whether plan p's copied runs along K are 32 bytes each, two of them
   one dst line (tl__sr16_copy_pairs_src, AVX-512, without tails): f32
   nhwc -> nChw8c 8x64x14x14 ran 1.55x as fast, 64x64x28x28 1.85x (Zen
   4). */
static int tl__sr_pairs_src(const tl_reorder_plan *p, int K)
{
    size_t es = tl_dt_size(p->src_md.data_type);
    return (size_t)p->loops[p->nloops - 1].size * es == 32 && (size_t)p->loops[K].dst_stride * es == 32 &&
           p->loops[K].size >= 2 && !p->has_tails && tl__sr_avx512();
}

/* Whether plan p's loop K - 1 lies finer in the source than its runs'
   loop K (K >= 1): a pixel's channel blocks outside its pixels, which
   source order walks inside them. */
static int tl__sr_finer_outside(const tl_reorder_plan *p, int K)
{
    const tl_reorder_loop *G = &p->loops[K - 1];
    return G->size > 1 && G->src_stride > 0 && G->src_stride < p->loops[K].src_stride;
}

static int tl__sr_runs_src_order(const tl_reorder_plan *p, int K)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1], *G;
    size_t es = tl_dt_size(p->src_md.data_type);
    if (K < 1 || p->mode != TL_REORDER_MODE_COPY) return 0;
    G = &p->loops[K - 1];
    return ((size_t)L->size * es % 64 == 0 || tl__sr_pairs_src(p, K)) && tl__sr_finer_outside(p, K) &&
           ((size_t)G->dst_stride * es % 1024 != 0 || (TL__SR_SRC_FAR(p) && G->size <= TL__SR_SRC_ORDER_GROUPS));
}

/* Whether plan p's converted runs along loop K take the loop K - 1
   into each step, for tl__sr16_side_runs to walk in source order
   (tl__sr_side_init): the runs it converts (tl__sr_side_fits; u8 only
   scaled: AVX2 keeps plain u8), K - 1 the finer loop in the source. */
static int tl__sr_side_src_order(const tl_reorder_plan *p, int K)
{
    tl_dim n = p->loops[p->nloops - 1].size;
    tl_data_type dt = p->dst_md.data_type;
    return K >= 1 && p->mode != TL_REORDER_MODE_COPY && p->src_md.data_type == TL_F32 && p->beta == 0 &&
           (dt == TL_BF16 || dt == TL_S8 || (dt == TL_U8 && p->scales)) && (n == 8 || n == 16) &&
           tl__sr_finer_outside(p, K);
}

/* Whether plan p's runs along loop K are units of 4 values, s8, u8 or
   bf16 on one side and f32 on the other, that tl__sr8_units4_tile
   widens or narrows and transposes, in AVX2, without beta or zero
   points: L the 4 values of a unit (a scale each, or one for all), K
   one unit apart in dst (under the same scales), K - 1 one unit apart
   in the source, both making whole steps (tl__sr8_units4_whole). nhwc
   -> nChw4c (K the pixels, K - 1 the blocks) and nChw4c -> nhwc (K
   the blocks, K - 1 the pixels). Widening, their runs of 4 went through
   blocks staged in source order, their f32 transposed and zipped (3.6
   instructions a value); narrowing, f32 -> s8 nhwc -> nChw4c, through
   the converter a run at a time (5.5). */
static int tl__sr_units4(const tl_reorder_plan *p, int K)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1], *P, *B;
    tl_data_type st = p->src_md.data_type, dt = p->dst_md.data_type;
    int widens = (st == TL_S8 || st == TL_U8 || st == TL_BF16) && dt == TL_F32;
    int narrows = st == TL_F32 && (dt == TL_S8 || dt == TL_U8 || dt == TL_BF16);
    if (K < 1 || p->mode == TL_REORDER_MODE_COPY || p->has_tails) return 0;
    P = &p->loops[K];
    B = &p->loops[K - 1];
    return (widens || narrows) && L->size == 4 && L->src_stride == 1 && L->dst_stride == 1 &&
           L->scale_stride <= 1 && P->dst_stride == 4 && P->scale_stride == 0 && B->src_stride == 4 &&
           tl__sr8_units4_whole(p, B->size, P->size) && tl__sr_avx2() &&
           !tl__sr_q_of(p, tl__sr_no_scales).extra;
}

/* One run of n bytes copied by 16-byte vectors, the last (n % 16) bytes
   by an overlapping vector (runs of 16 bytes or more) or byte by byte
   (n a constant where it is short). nt: streamed (n and d in 16s). */
TL__SR_INLINE void tl__sr_copy_run_n(const char *s, char *d, size_t n, int nt)
{
    size_t b;
    /* unrolled: as a 4-trip loop (the 64 bytes of f32 OIhw16o16i 1x1)
       it ran at a third of the speed whenever the code's placement put
       it across a 32-byte boundary */
    TL__SR_UNROLL4
    for (b = 0; b + 16 <= n; b += 16)
        tl__sr_put(d + b, simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + b)), nt);
    if (b < n && n >= 16)
        simde_mm_storeu_si128((simde__m128i *)(void *)(d + n - 16),
                              simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + n - 16)));
    else if (b < n)
        memcpy(d + b, s + b, n - b);
}

/* count runs of n bytes, run k at s + k*rs.s and d + k*rs.d
   (tl__sr_copy_run_n); that outer.count times, outer.s and outer.d bytes
   further each time (the pixels of s8 nChw16c -> nhwc, whose 4 runs of
   16 bytes took a call each: a quarter of the time went to the calls).
   Runs of 128 bytes or more prefetch the run 8 on: a run's few lines, a
   stride apart (the 256 bytes of an attention head, abcd -> acbd), are
   too few for the hardware prefetchers, and the copy ran at half of
   memcpy. A partial last run (rs.last, in 16s) streams as the others.
   Inlined with n and nt constant. */
TL__SR_INLINE void tl__sr_copy_runs_n(const char *s0, char *d0, size_t n, tl__sr_runs rs,
                                      tl__sr_runs outer, int nt)
{
    tl_dim o, k, whole = rs.count - (rs.last > 0);
    for (o = 0; o < outer.count; ++o, s0 += outer.s, d0 += outer.d) {
        const char *s = s0;
        char *d = d0;
        for (k = 0; k < whole; ++k, s += rs.s, d += rs.d) {
            if (n >= 128 && k + 8 < rs.count) tl__sr_prefetch_lines(s + 8 * rs.s, n, 0);
            tl__sr_copy_run_n(s, d, n, nt);
        }
        if (rs.last > 0) tl__sr_copy_run_n(s, d, rs.last, nt);
    }
}

/* Copied runs rs of n bytes each (n in 16s) whose first nd bytes are
   data and the rest padding: each run's data and zeros in one pass of
   16-byte stores, streamed where nt; a last piece of data under 16 bytes
   by one load, masked (keep), where it lies inside the source (below
   s_end). A copy of the data, then a memset call for each run's padding
   (50,176 calls in one reorder of f32 nhwc -> nChw16c 1024x100x7x7, a
   tenth of its time), plainly stored where the full blocks streamed, ran
   that reorder 1.05-1.15x slower. Inlined with n and nt constant. */
TL__SR_INLINE void tl__sr_copy_runs_padded_n(const char *s, char *d, size_t nd, size_t n, tl__sr_runs rs,
                                             int nt, const char *s_end)
{
    size_t b;
    simde__m128i keep = tl__sr_first_bytes(nd % 16);
    tl_dim k;
    for (k = 0; k < rs.count; ++k, s += rs.s, d += rs.d) {
        TL__SR_UNROLL4
        for (b = 0; b < n; b += 16) tl__sr_put(d + b, tl__sr_run_piece(s, b, nd, keep, s_end), nt);
    }
}

/* tl__sr_copy_runs_padded_n with n and nt constants where they are
   common (streamed: only the padded block of runs in source order,
   whole lines). */
static void tl__sr_copy_runs_padded(const char *s, char *d, size_t nd, size_t n, tl__sr_runs rs, int nt,
                                    const char *s_end)
{
#if TL__SR_AVX2
    if (!nt && n % 32 == 0 && tl__sr_avx2()) {
        tl__sr8_copy_runs_padded(s, d, nd, n, rs, s_end);
        return;
    }
#endif
    if (nt && n == 64) tl__sr_copy_runs_padded_n(s, d, nd, 64, rs, 1, s_end);
    else if (nt) tl__sr_copy_runs_padded_n(s, d, nd, n, rs, 1, s_end);
    else if (n == 16) tl__sr_copy_runs_padded_n(s, d, nd, 16, rs, 0, s_end);
    else tl__sr_copy_runs_padded_n(s, d, nd, n, rs, 0, s_end);
}

/* The same runs walked in source order (tl__sr_runs_src_order): the
   runs' loop outside, the groups' inside. nd: the data bytes of each
   run of the last group, the tail dim's partial block (its padding
   zeroed with them, tl__sr_copy_runs_padded); 0 where that group is
   whole or not in the walk. */
TL__SR_INLINE void tl__sr_copy_runs_src_n(const char *s, char *d, size_t n, tl__sr_runs rs,
                                          tl__sr_runs outer, size_t nd, int nt, const char *s_end)
{
    tl_dim k, o, full = outer.count - (nd > 0);
    for (k = 0; k < rs.count; ++k, s += rs.s, d += rs.d) {
        const char *so = s;
        char *dd = d;
        for (o = 0; o < full; ++o, so += outer.s, dd += outer.d) tl__sr_copy_run_n(so, dd, n, nt);
        if (nd > 0) tl__sr_copy_runs_padded(so, dd, nd, n, tl__sr_one_run, nt, s_end);
    }
}

/* Whether a step's copied runs (n bytes each, rs, the groups of them
   `group` bytes apart in dst) stream: a large dst (sh->stream), runs
   side by side and groups back to back in dst, so that its lines
   complete in order (s8 nChw16c -> nhwc: four runs of 16 bytes fill a
   pixel's line; f32 nChw8c -> nChw16c: two of 32), and every store
   16-byte aligned. */
static int tl__sr_runs_stream(const tl__sr_shape *sh, const char *d, size_t n, tl__sr_runs rs,
                              size_t group)
{
    size_t span = rs.last > 0 ? (size_t)(rs.count - 1) * n + rs.last : (size_t)rs.count * n;
    return sh->stream && n % 16 == 0 && (uintptr_t)d % 16 == 0 && rs.d == n &&
           group == span;
}

/* tl__sr_copy_runs_n with nt made a constant. */
TL__SR_INLINE void tl__sr_copy_runs_nt(const char *s, char *d, size_t n, tl__sr_runs rs,
                                       tl__sr_runs outer, int nt)
{
    if (nt) tl__sr_copy_runs_n(s, d, n, rs, outer, 1);
    else tl__sr_copy_runs_n(s, d, n, rs, outer, 0);
}

/* nt: see tl__sr_runs_stream (never for runs outside 16s). */
static void tl__sr_copy_runs(const char *s, char *d, size_t n, tl__sr_runs rs, tl__sr_runs outer,
                             int nt)
{
    switch (n) {
    case 4: tl__sr_copy_runs_n(s, d, 4, rs, outer, 0); break;
    case 8: tl__sr_copy_runs_n(s, d, 8, rs, outer, 0); break;
    case 16: tl__sr_copy_runs_nt(s, d, 16, rs, outer, nt); break;
    case 32: tl__sr_copy_runs_nt(s, d, 32, rs, outer, nt); break;
    case 64: tl__sr_copy_runs_nt(s, d, 64, rs, outer, nt); break;
    case 128: tl__sr_copy_runs_nt(s, d, 128, rs, outer, nt); break;
    default: tl__sr_copy_runs_nt(s, d, n, rs, outer, nt); break;
    }
}

/* The groups of copied runs a step walks in source order
   (tl__sr_step_outer: rs the runs of K, outer those of K2; plans that go
   that way, sh->src_order; nd as for tl__sr_copy_runs_src_n), streamed
   where every run starts a line. Groups in dst order go by
   tl__sr_copy_nest. */
static void tl__sr_copy_groups(const tl__sr_shape *sh, const char *s, char *d, size_t n, tl__sr_runs rs,
                               tl__sr_runs outer, size_t nd, const char *s_end)
{
    int lines = sh->stream && (uintptr_t)d % 64 == 0 && outer.d % 64 == 0, nt = lines && rs.d % 64 == 0;
#if TL__SR_AVX512
    if (n == 32 && rs.d == 32 && nd == 0 && rs.count >= 2 && tl__sr_avx512()) {
        tl_dim pairs = rs.count / 2;
        tl__sr16_copy_pairs_src(s, d, rs.s, pairs, outer, lines);
        if (rs.count % 2 == 0) return;
        s += (size_t)(2 * pairs) * rs.s;    /* an odd last run */
        d += (size_t)(2 * pairs) * rs.d;
        rs.count = 1;
        nt = 0;
    }
#endif
    if (n == 64 && nt) tl__sr_copy_runs_src_n(s, d, 64, rs, outer, nd, 1, s_end);
    else if (n == 64) tl__sr_copy_runs_src_n(s, d, 64, rs, outer, nd, 0, s_end);
    else if (nt) tl__sr_copy_runs_src_n(s, d, n, rs, outer, nd, 1, s_end);
    else tl__sr_copy_runs_src_n(s, d, n, rs, outer, nd, 0, s_end);
}

/* A step's groups of copied runs in dst order (n bytes each, rs: loop
   K's, lv[0]: K2's, lv[1..nlv): the loops from K2's next outside out to
   K3 that tl__sr_step_loops added), walked by an odometer in one call,
   each group's loops inlined (tl__sr_copy_runs_n). A call per group,
   through the recursive walk (tl__sr_step_outer, tl__sr_copy_groups,
   tl__sr_copy_runs), cost OIhw8i8o -> OIhw16i16o 256x256x3x3 (16 runs of
   32 bytes a group) as long again as the copies (Zen 4). Two runs of K
   (the two source blocks of each row of that, or of nChw8c -> nChw16c)
   go unrolled: 1.06x. Inlined with n constant. */
TL__SR_INLINE void tl__sr_copy_nest_n(const tl__sr_shape *sh, const char *s, char *d, size_t n, tl__sr_runs rs,
                                      const tl__sr_runs *lv, int nlv)
{
    tl_dim at[TL_REORDER_MAX_LOOPS];
    tl__sr_runs two = rs;
    tl__sr_counters_zero(at, nlv);
    two.count = 2;
#if TL__SR_AVX512
    if (n == 32 && rs.count == 2 && rs.d == 32 && rs.last == 0 && tl__sr_avx512()) {
        tl__sr16_copy_pairs(s, d, rs.s, lv, nlv, sh->stream);
        return;
    }
#endif
    do {
        int nt = tl__sr_runs_stream(sh, d, n, rs, lv[0].d);
        if (rs.count == 2) tl__sr_copy_runs_nt(s, d, n, two, lv[0], nt);
        else tl__sr_copy_runs_nt(s, d, n, rs, lv[0], nt);
    } while (tl__sr_runs_next(at, &s, &d, lv, nlv));
}

static void tl__sr_copy_nest(const tl__sr_shape *sh, const char *s, char *d, size_t n, tl__sr_runs rs,
                             const tl__sr_runs *lv, int nlv)
{
    switch (n) {    /* tl__sr_copy_runs's sizes: short runs by a library call ran 4x slower */
    case 4: tl__sr_copy_nest_n(sh, s, d, 4, rs, lv, nlv); break;
    case 8: tl__sr_copy_nest_n(sh, s, d, 8, rs, lv, nlv); break;
    case 16: tl__sr_copy_nest_n(sh, s, d, 16, rs, lv, nlv); break;
    case 32: tl__sr_copy_nest_n(sh, s, d, 32, rs, lv, nlv); break;
    case 64: tl__sr_copy_nest_n(sh, s, d, 64, rs, lv, nlv); break;
    case 128: tl__sr_copy_nest_n(sh, s, d, 128, rs, lv, nlv); break;
    default: tl__sr_copy_nest_n(sh, s, d, n, rs, lv, nlv); break;
    }
}

/* The fewest values of M that a converting tile takes (B values of the
   source a vector, L values long): a block of B, or half of one for 1-
   and 2-byte values (rows of 8 bytes, tl__sr_transpose_es's bands), or
   4 (the narrow transpose, tl__sr_stage_tile), the latter two only over
   an L of more than 16 (for bytes, 8 at any L). bf16 and f16 nChw4c ->
   nchw 8x64x14x14 ran 1.1-3.5x faster as tiles, at 48 against 19 us
   into f32, but tiles of 4 x 4 from weights (OIhw16i16o -> OIhw4o4i)
   ran up to 9x slower than blocks (Zen 4). s8 and u8 nChw4c -> nchw
   went as gathered blocks until the narrow transpose served them (s8 ->
   f32 8x64x14x14: 55 -> 17 us, s8 -> s8 with per-channel scales 89 ->
   32 us; Zen 3). */
static tl_dim tl__sr_tile_m_min(int B, tl_dim nl)
{
    if (nl > 16 && B >= 8) return 4;
    return B == 16 ? B / 2 : B;
}

#define TL__SR_COPY_STEP 16384 /* bytes a step of short copied runs moves at most */
#define TL__SR_TILE_STEP 65536 /* the same, side-by-side tiles */

/* Steps whose K2 group is small walk the loops outside K2 (but X, the
   step's other inner loop: K of runs, M of tiles) too, down to K3, while
   the step stays under limit bytes: the 2 x 8 runs of 32 bytes of
   OIhw8i8o -> OIhw16i16o (a step each of 512 bytes ran at 0.44 of
   oneDNN's speed, 88% of the time in the step and the odometer), the 9
   taps x 4 i x 4 o of bf16 OIhw4i4o (288 bytes). */
static void tl__sr_step_loops(const tl_reorder_plan *p, tl__sr_shape *sh, int X, tl_dim limit)
{
    tl_dim bytes = p->loops[p->nloops - 1].size * (tl_dim)tl_dt_size(p->src_md.data_type) *
                   p->loops[X].size * p->loops[sh->K2].size;
    int l;
    for (l = sh->K2 - 1; l >= 1; --l) {
        if (l == X) continue;
        if (bytes * p->loops[l].size > limit) break;
        bytes *= p->loops[l].size;
        sh->K3 = l;
    }
}

/* Whether tiles of M narrower than a vector (s8 oihw -> OIhw8i8o: 9
   taps) still copy as tiles: where they lie side by side
   (tl__sr_tiles_side), whose blocks load past a row's end. */
static int tl__sr_narrow_side(const tl_reorder_plan *p, int M)
{
    int k = tl__sr_tiles_loop(p, M), es = (int)tl_dt_size(p->src_md.data_type);
    tl__sr_runs rs = tl__sr_one_run;
    if (k < 0) return 0;
    rs.count = p->loops[k].size;
    rs.d = (size_t)p->loops[k].dst_stride * (size_t)es;
    return tl__sr_tiles_side(es, p->loops[p->nloops - 1].size, p->loops[M].size, rs) > 0;
}

static int tl__sr_plan_joins(const tl_reorder_plan *p, int K);

/* The shape every step of this plan takes (the same for all calls), its
   tails aside (tl__sr_pick_shape adds them). Runs that join
   (tl__sr_plan_joins) take K2 too, whatever K's length: the channel
   blocks of nChw4c with per-channel scales, 16 of 196 pixels each, ran
   in 0.7 of the time in one step and converter call as in one each
   (f32 -> s8 8x64x14x14, Zen 3). */
/* Whether TL__SR_QUADS4 takes the conversion p (then sets sh): in
   AVX-512, f32 into f32, s8, u8 or bf16, beta 0 (dst is only
   written), scales that change neither along the taps nor along the
   blocks a step walks (tl__sr_q4_scales fills a step's once). Quantized
   weights f32 -> s8 oihw -> OIhw4i4o went through staged blocks of
   gathered values. */
static int tl__sr_quads4_converts(const tl_reorder_plan *p, tl__sr_shape *sh)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    tl_data_type dt = p->dst_md.data_type;
    int Q, X = tl__sr_quads4_loop(p, sh->M, &Q);
    if (X < 0 || !tl__sr_avx512() || p->src_md.data_type != TL_F32 || p->beta != 0 ||
        (dt != TL_F32 && dt != TL_S8 && dt != TL_U8 && dt != TL_BF16) || p->loops[sh->M].scale_stride != 0 ||
        (tl_dt_size(dt) == 1 && p->loops[sh->M].dst_stride != L->size * L->size))   /* columns: tl__sr_quads4_cols */
        return 0;
    sh->shape = TL__SR_QUADS4;
    sh->K = X;
    sh->Q = Q;
    sh->K2 = tl__sr_quads4_blocks(p, sh, p->scales != NULL);
    sh->stream = dt == TL_F32 && tl__sr_dst_far(p);
    return 1;
}

/* ---- dwords of four rows ---------------------------------------------
   The int8 weights of VNNI convolutions (OIhw4i16o4i, OIhw2i8o4i and
   their kin) from layouts that keep the outputs together (hwio, ihwo,
   io): dst's innermost loop L holds 4 values of 4 rows (inputs), one
   dword, and the loop X next to it (dst stride 4, src stride 1) 8 or
   more of them (outputs). Tiles of X against L left dst rows of 4
   bytes, and walked the source a line at a time across the whole
   tensor: f32 -> s8 hwio -> OIhw4i16o4i 256x256x3x3 with a scale per
   output ran at 0.04 of memcpy (Zen 4). Here a vector is a piece of
   dst: 16 values of X (AVX-512, X in 16s) or 8 (AVX2) in 4 rows,
   converted and packed together, their bytes zipped into dwords in
   registers; a step walks the blocks of X that follow it in src (O,
   K2) and the groups of 4 rows after L (i/4, Q), so that its source
   rows are read end to end. 1-byte dst, from f32 or (a copy) 1-byte
   src, beta 0, no zero points, scales along X or none. The same blocks
   of 4-byte values (copies; f32 -> f32, scaled as above) take a unit of
   X's values from 4 rows by 4 x 4 transposes, each dst group of 4
   values 16 bytes: copied tiles of X against L wrote those groups a
   row of 16 bytes at a time and read the source a line per tile (f32
   hwio -> OIhw4i16o4i 384x384x3x3: 0.2 of memcpy, now 4.3x faster; 512
   o's 5.7x; io 1024x1024 3.3x; nchw -> nChw4c as fast as before, Zen
   4). From oihw, whose outputs lie a row apart, the 16 x 16 transposes
   this would need first cost more than the zipped blocks
   (tl__sr_perm_pick) save: a stage of bytes transposed by 4 x 4 blocks
   ran f32 -> s8 OIhw4i16o4i 256x256x3x3 per output 1.15x slower, s8
   copies no faster. */

/* The loop of p from loops[first] on, other than L and X, whose src
   stride is st; -1. */
static int tl__sr_dw_next(const tl_reorder_plan *p, int X, tl_dim st, int first)
{
    int l;
    for (l = first; l < p->nloops - 1; ++l)
        if (l != X && p->loops[l].src_stride == st) return l;
    return -1;
}

/* What a unit of dwords of four rows holds for p (TL__SR_DW_BYTES:
   copies of bytes; TL__SR_DW_I8: f32 into s8 or u8; TL__SR_DW_QUADS:
   copies of 4-byte values, f32 into f32), conversions with scales at
   most; -1: none of those. */
static int tl__sr_dw_in(const tl_reorder_plan *p)
{
    tl_data_type st = p->src_md.data_type, dt = p->dst_md.data_type;
    if (p->mode == TL_REORDER_MODE_COPY)
        return tl_dt_size(st) == 1 ? TL__SR_DW_BYTES : tl_dt_size(st) == 4 ? TL__SR_DW_QUADS : -1;
    if (p->mode != TL_REORDER_MODE_CONVERT || st != TL_F32 || tl__sr_q_of(p, tl__sr_no_scales).extra) return -1;
    return dt == TL_S8 || dt == TL_U8 ? TL__SR_DW_I8 : dt == TL_F32 ? TL__SR_DW_QUADS : -1;
}

/* Whether p goes by dwords of four rows (then set in sh). */
static int tl__sr_dwords_pick(const tl_reorder_plan *p, tl__sr_shape *sh)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    int X;
    if (!tl__sr_avx2() || p->has_tails || p->beta != 0 || p->nloops < 3 || L->size != 4 ||
        L->dst_stride != 1 || L->src_stride == 1 || (p->scales && L->scale_stride != 0) || tl__sr_dw_in(p) < 0)
        return 0;
    for (X = 1; X < p->nloops - 1 && p->loops[X].dst_stride != 4; ++X) {}
    if (X == p->nloops - 1 || p->loops[X].size % 8 != 0 || p->loops[X].src_stride != 1 ||
        (p->scales && p->loops[X].scale_stride > 1))
        return 0;
    sh->shape = TL__SR_DWORDS;
    sh->K = X;
    sh->K2 = tl__sr_dw_next(p, X, p->loops[X].size, 0);
    sh->Q = tl__sr_dw_next(p, X, 4 * L->src_stride, 1);
    if (sh->Q == sh->K2) sh->Q = -1;
    return 1;
}

/* ---- rows from columns ----------------------------------------------
   Blocked weights back into plain ones (OIhw16i16o, Ohwi16o, hwio,
   OIhw4i16o4i, OIhw8i16o2i -> oihw): dst's rows run along a loop M (o:
   1, 2 or 4 values apart in src, tl__sr_columns_rows), and the values
   of a row (i and hw) lie a block apart in src. Tiles of M against L
   alone leave dst rows of 9 taps a step: s8 copies ran at 0.05 of
   memcpy that way, f32 at 0.5 (256x256x3x3, Zen 4). A step here takes
   M, TL__SR_COLS_ROWS values at a time, against every loop inside M
   that is dense in dst (the columns: i and hw), from dst's innermost
   out while they fit the stage. It gathers each column's piece of M
   values, transposes them into rows of columns,
   straight into dst for copies, and otherwise converts those rows into
   dst, each under one scale: columns whose scales vary (per-I) stay out
   of a step. Rows of 64 bytes or more (nChw16c -> nchw's planes) keep
   their tiles. */
#define TL__SR_COLS_STAGE 16384     /* bytes a step gathers at most */
#define TL__SR_COLS_ROWS 16         /* values of M a piece holds at most */
/* columns a step takes at least: the 16 of a 4o4i block (oihw ->
   OIhw4o4i 256x256x4x4, f32) ran at half the speed of TL__SR_QUADS4 */
#define TL__SR_COLS_MIN 64

/* The first loop k of the columns of M, from L out: each dense in dst
   and under one scale, k cut to a divisor of its size (*chunk
   iterations) where all of it would overfill the stage or the int32
   table; *cols: the columns. nloops where fewer than TL__SR_COLS_MIN. */
static int tl__sr_columns_loop(const tl_reorder_plan *p, int M, tl_dim *cols, tl_dim *chunk)
{
    size_t es = tl_dt_size(p->src_md.data_type), dsz = tl_dt_size(p->dst_md.data_type);
    tl_dim most = (tl_dim)(TL__SR_COLS_STAGE / (TL__SR_COLS_ROWS * (es > dsz ? es : dsz))), inner = 1, reach = 0, c;
    int l, k = p->nloops;
    if (most > TL__SR_BLOCK) most = TL__SR_BLOCK;
    *chunk = 1;
    for (l = p->nloops - 1; l > M; --l) {
        const tl_reorder_loop *lp = &p->loops[l];
        if (lp->dst_stride != inner || (p->scales && lp->scale_stride != 0)) break;
        c = tl__sr_divisor_to(lp->size, most / inner);
        if (c < 2 || reach + (c - 1) * lp->src_stride > INT32_MAX) break;
        reach += (c - 1) * lp->src_stride;
        inner *= c;
        k = l;
        *chunk = c;
        if (c < lp->size) break;
    }
    *cols = inner;
    return inner >= TL__SR_COLS_MIN ? k : p->nloops;
}

/* The loop M whose values make the columns' pieces: of the loops but L
   with sizes in 16s, the one with the smallest src stride, of 1, 2 or 4
   values (the o of 16i16o, hwio; of 4i16o4i and 8i16o2i, whose i%4 and
   i%2 lie inside it in src); -1: none. */
static int tl__sr_columns_rows(const tl_reorder_plan *p)
{
    int l, M = -1;
    for (l = 0; l < p->nloops - 1; ++l) {
        tl_dim st = p->loops[l].src_stride;
        if (p->loops[l].size % TL__SR_COLS_ROWS == 0 && (st == 1 || st == 2 || st == 4) &&
            (M < 0 || st < p->loops[M].src_stride))
            M = l;
    }
    return M;
}

/* Whether p goes by rows from columns (then set in sh): dst rows along
   L (dst's innermost, not src's) shorter than 64 bytes, beta 0, and
   every loop that steps less than M in src among the columns, so that
   the pieces of different columns never share a value. */
static int tl__sr_columns_pick(const tl_reorder_plan *p, tl__sr_shape *sh)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    size_t es = tl_dt_size(p->src_md.data_type), dsz = tl_dt_size(p->dst_md.data_type);
    int M = tl__sr_columns_rows(p), k, l;
    tl_dim cols, chunk;
    if (M < 0 || L->dst_stride != 1 || L->src_stride == 1 || p->beta != 0 || p->has_tails ||
        (size_t)L->size * (es > dsz ? es : dsz) >= 64)
        return 0;
    /* a long M (hwio's o) whose tiles convert side by side in registers
       keeps them: f32 -> s8, bf16, and f32 with scales, hwio -> oihw
       256x256x3x3 ran 1.3-1.6x slower staged (Zen 4) */
    if (p->mode != TL_REORDER_MODE_COPY && p->loops[M].size > TL__SR_COLS_ROWS && M == tl__sr_tile_loop(p) &&
        tl__sr_tiles_convert_fits(p, M, tl__sr_tiles_loop(p, M)))
        return 0;
    k = tl__sr_columns_loop(p, M, &cols, &chunk);
    if (k == p->nloops) return 0;
    for (l = 0; l < k; ++l)
        if (l != M && p->loops[l].src_stride < p->loops[M].src_stride) return 0;
    sh->shape = TL__SR_COLUMNS;
    sh->M = M;
    sh->k = k;
    sh->chunk = chunk;
    sh->cols = cols;
    return 1;
}

/* Source bytes the runs along loop K of plan p move together. */
static tl_dim tl__sr_runs_bytes(const tl_reorder_plan *p, int K)
{
    return p->loops[p->nloops - 1].size * (tl_dim)tl_dt_size(p->src_md.data_type) * p->loops[K].size;
}

/* Whether the runs along loop K of plan p move at most TL__SR_SMALL_RUNS
   source bytes together, too few to pay for a step of their own (then
   K2 takes the loop outside K into the step: bf16 -> f32 nhwc ->
   nChw8c 8x64x14x14, a step per block of 196 pixels, ran at 0.57 of
   memcpy's speed, 0.82 in steps of all 8 blocks; nhwc -> nChw16c 0.64
   -> 0.74, u8 -> f32 0.48 -> 0.74; Zen 4, in process). */
#define TL__SR_SMALL_RUNS 16384
static int tl__sr_runs_small(const tl_reorder_plan *p, int K)
{
    return tl__sr_runs_bytes(p, K) <= TL__SR_SMALL_RUNS;
}

/* Converting steps (TL__SR_RUN, no tails) that move at most
   TL__SR_TILE_STEP source bytes walk the loop outside K2 too (K3,
   tl__sr_convert_steps), the first included: threads share it as ranges. */
static void tl__sr_convert_loops(const tl_reorder_plan *p, tl__sr_shape *sh)
{
    if (tl__sr_runs_bytes(p, sh->K) * p->loops[sh->K2].size <= TL__SR_TILE_STEP) sh->K3 = sh->K2 - 1;
}

static int tl__sr_direct_walks(const tl_reorder_plan *p, int M);

static void tl__sr_base_shape(const tl_reorder_plan *p, tl__sr_shape *sh)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    int B = 16 / (int)tl_dt_size(p->src_md.data_type);
    memset(sh, 0, sizeof *sh);
    sh->M = -1;
    sh->K = -1;
    sh->K2 = -1;
    sh->K3 = -1;
    sh->Q = -1;
    sh->next = -1;
    sh->tail = -1;
    if (L->src_stride == 1 && L->dst_stride == 1) {
        sh->shape = TL__SR_RUN;
        /* conversions too, unless beta reads dst back */
        sh->stream = tl__sr_runs_far(p);
        sh->K = tl__sr_runs_loop(p);
        /* the 4 channel blocks of s8 nChw16c -> nhwc: the pixels walked
           inside a step too, a step each cost more than their runs
           (conversions: tl__sr_convert_nest, only without tails, which
           take them per step; s8 -> f32, f32 -> s8, f32 -> bf16 and
           scaled f32 nChw16c -> nhwc 8x64x14x14 in cache 4.3-6.2x on the
           Zen 4, s8 -> f32 256x64x14x14 2.65x) */
        sh->units4 = tl__sr_units4(p, sh->K);
        sh->src_order = tl__sr_runs_src_order(p, sh->K);
        if ((p->mode == TL_REORDER_MODE_COPY || !p->has_tails) && sh->K >= 1 &&
            (p->loops[sh->K].size < 64 || sh->units4 || sh->src_order || tl__sr_side_src_order(p, sh->K) ||
             (p->mode != TL_REORDER_MODE_COPY && (tl__sr_plan_joins(p, sh->K) || tl__sr_runs_small(p, sh->K)))))
            sh->K2 = sh->K - 1;
        if (p->mode == TL_REORDER_MODE_COPY && sh->K2 >= 1) tl__sr_step_loops(p, sh, sh->K, TL__SR_COPY_STEP);
        else if (p->mode != TL_REORDER_MODE_COPY && sh->K2 >= 1 && !p->has_tails) tl__sr_convert_loops(p, sh);
        return;
    }
    if (tl__sr_dwords_pick(p, sh) || tl__sr_columns_pick(p, sh)) return;
    sh->M = tl__sr_tile_loop(p);
    if (p->mode == TL_REORDER_MODE_COPY) {
        /* beta is 0 here: dst is only written, and past this size it would
           just push the source out of the caches */
        sh->stream = tl__sr_dst_far(p);
        sh->K = tl__sr_quads4_loop(p, sh->M, &sh->Q);
        if (sh->K < 0) sh->quads_back = (sh->K = tl__sr_quads4_back_loop(p, sh->M)) >= 0;
        if (sh->K >= 0) {
            sh->shape = TL__SR_QUADS4;
            sh->K2 = tl__sr_quads4_blocks(p, sh, 0);
            return;
        }
        if (sh->M < 0) sh->shape = TL__SR_STRIDED;
        else sh->shape = p->loops[sh->M].size >= B || tl__sr_narrow_side(p, sh->M) ? TL__SR_TILE_COPY
                                                                                   : TL__SR_NARROW;
        if (sh->shape == TL__SR_TILE_COPY && tl__sr_rows512_plain(p, sh->M)) sh->stream = 0;
        if (sh->shape == TL__SR_TILE_COPY) {
            sh->K2 = tl__sr_tiles_loop(p, sh->M);
            if (sh->K2 < 0) sh->K2 = tl__sr_tiles_next(p, sh->M);
            tl__sr_merge_rows(p, sh);       /* may make it TL__SR_TILE_ROWS */
            if (sh->shape == TL__SR_TILE_COPY && sh->K2 >= 1) tl__sr_step_loops(p, sh, sh->M, TL__SR_TILE_STEP);
        }
        return;
    }
    if (tl__sr_quads4_converts(p, sh)) return;
    /* dst rows shorter than a vector convert before their transpose,
       which beta's read of dst would have to undo */
    if (sh->M >= 0 && p->loops[sh->M].size >= tl__sr_tile_m_min(B, L->size) && (L->size >= 16 || p->beta == 0)) {
        int K = tl__sr_tiles_loop(p, sh->M);
        sh->shape = TL__SR_TILE_CONVERT;
        sh->stream = tl__sr_dst_far(p);
        if (tl__sr_tiles_convert_fits(p, sh->M, K)) {
            sh->K2 = K;
            tl__sr_merge_rows(p, sh);       /* may make it TL__SR_TILE_ROWS */
            sh->lone = K < 0 && sh->shape == TL__SR_TILE_CONVERT && tl__sr_lone_fits(p, sh->M);
        }
        /* lone tiles, AVX-512's wide ones or those AVX2 transposes straight
           into dst, walk a run a step; a source beyond L2 keeps a step a
           tile: the kernel fetches the next one ahead (f32 -> s8 nchw ->
           nChw16c 1024x100x7x7, 20 MB, walked 1.4x slower) */
        if (sh->K2 < 0 && sh->shape == TL__SR_TILE_CONVERT && p->src_hi - p->src_lo < TL__SR_PF_ROWS_MIN &&
            (sh->lone || tl__sr_direct_walks(p, sh->M)))
            sh->next = tl__sr_tiles_next(p, sh->M);
        return;
    }
    sh->M = -1;
    sh->shape = TL__SR_STRIDED;
    if (L->dst_stride == 1) {
        tl__sr_block_shape(p, sh);
        if (tl__sr_block_fits(p, sh)) sh->shape = TL__SR_BLOCKS;
    }
}

/* Most L rows of a direct tile whose last M rows (under 8) are staged:
   blocks of channels (f32 -> s8 nchw -> nChw8c and nChw16c 8x64x14x14:
   1.3x); into nhwc's 64 channels that ran 1.4x slower than the blocks
   staged in source order, which such plans keep. */
#define TL__SR_DIRECT_TAIL 16

/* Whether a direct tile (tl__sr_tile_direct) takes nm rows of M over
   nl rows of L: whole blocks of 8, or a tail it may stage. */
static int tl__sr_direct_takes(tl_dim nm, tl_dim nl)
{
    return nm % 8 == 0 || nl <= TL__SR_DIRECT_TAIL;
}

/* Whether tl__sr_tile_direct takes the converting tiles of plan p (M:
   the tile loop): an f32 source that only scales, by one scale or one
   per column of L, in AVX2, L in 16s unless dst is f32 (then in 8s,
   and it has scales: else the plan is a copy) or L is 8 with M's dst
   rows back to back (nChw8c); M's rows: tl__sr_direct_takes. */
static int tl__sr_tile_direct_ok(const tl_reorder_plan *p, int M)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    tl_data_type dt = p->dst_md.data_type;
    if (p->src_md.data_type != TL_F32 || p->loops[M].scale_stride != 0 || L->scale_stride > 1 ||
        !tl__sr_avx2() || tl__sr_q_of(p, tl__sr_no_scales).extra)
        return 0;
    return dt == TL_F32 ? p->scales && L->size % 8 == 0
                        : (L->size % 16 == 0 || (L->size == 8 && p->loops[M].dst_stride == 8)) && tl__sr_dt_ok(dt);
}

/* Whether blocks would cut a long tile loop M (dense in src) into runs
   of fewer than 32 values: the block loops take a divisor of M's size
   that fits a block, 19 for 19 x 19 pixels (nchw -> nhwc, 116 channels),
   and each run is a converter call that costs more than its values (f32
   -> s8 128x116x19x19: 0.9 GB/s as blocks, 3.0 as tiles on the Zen 3). */
static int tl__sr_perm_short_runs(const tl_reorder_plan *p, int M)
{
    tl_dim chunk;
    int k = tl__sr_block_loops(p, 1, tl__sr_pblock(p), &chunk);
    return k == M && chunk < 32 && p->loops[M].size >= TL__SR_STAGE;
}

/* Whether such blocks beat the shape sh picked: always the gathers and
   strided loops, transposes with a narrow M (hw = 9 of a 3x3 kernel),
   converting tiles with a short M or a narrower dst (then fewer bytes
   are permuted), unless dst rows are one 16-block and M is long (f32 ->
   s8 or bf16 nchw -> nChw16c: tiles of 64 x 16 values, converted in one
   run, ran 1.6-1.8x faster than blocks), copying tiles whose dst rows
   are shorter than a vector (the 4 bytes of i%4 in s8 OIhw4i16o4i from
   a 5x5 kernel: 2-3 GB/s as tiles, 15-25 as blocks), and runs too short
   for a vector where the block's (nC) are longer, save copied runs of 4
   or 8 bytes in plans without tails. */
static int tl__sr_perm_better(const tl_reorder_plan *p, const tl__sr_shape *sh, tl_dim nC)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    switch (sh->shape) {
    case TL__SR_BLOCKS: case TL__SR_NARROW: case TL__SR_STRIDED: return 1;
    case TL__SR_TILE_COPY: return L->size * (tl_dim)tl_dt_size(p->src_md.data_type) < 16;
    case TL__SR_TILE_CONVERT:
        /* lone 16-column tiles (tl__sr_lone_fits) beat the blocks on any M
           into 2- and 4-byte values (f32 -> bf16 nchw -> nChw16c 64x64x3x3
           1.7x, 7x7 1.2x; tlbench, Zen 4), into bytes only walked a run of
           them a step (sh->next; tile by tile, f32 -> u8 7x7 ran 1.2x
           slower; walked, in process, f32 -> u8 8x64x7x7 1.6x faster, s8
           8x64x3x3 3.9x, goihw -> Goihw16g 64x1x1x3x3 3x); so do walked
           tiles that AVX2 transposes straight into dst (nchw -> nChw8c
           8x64x7x7, in process: f32 -> s8 2.9x, u8 5x5 3.3x, bf16 1.25x,
           f32 with a scale per channel 2.7x) */
        if (sh->next >= 0 || (sh->lone && tl_dt_size(p->dst_md.data_type) > 1)) return 0;
        /* dst rows shorter than a vector (tl__sr_convert_tile_narrow) on a
           long M: 3 channels of a frame (f32 -> bf16 nchw -> nhwc
           32x3x224x224: 1.4x as tiles), nChw4c; the taps of weights keep
           the blocks (s8 OIhw4i16o4i from 5x5 kernels) */
        if (L->size < 16) return p->loops[sh->M].size < TL__SR_STAGE;
        /* long tiles that go straight into dst beat the blocks (f32 -> s8
           and u8 nchw -> nhwc 32x64x56x56: 3x on the Zen 3); the 16 x 16
           tiles of weights ran no faster, so those keep the blocks */
        if (p->loops[sh->M].size >= TL__SR_STAGE && tl__sr_direct_takes(p->loops[sh->M].size, L->size) &&
            tl__sr_tile_direct_ok(p, sh->M))
            return 0;
        if (tl__sr_perm_short_runs(p, sh->M)) return 0;
        /* an M of 8 (nChw8c's channels into plain layouts) goes in tiles,
           whose transposes take whole blocks or bands of 8 byte rows:
           8x64x14x14 in cache, s8 -> f32 nChw8c -> nchw 65 -> 15 us, f32
           -> s8 48 -> 15, bf16 -> f32 66 -> 18, f32 -> f32 with a scale
           107 -> 18 (Zen 4) */
        if (p->loops[sh->M].size == 8) return 0;
        /* so does an M of 4 (nChw4c's channels, 4i4o's inputs) over an L
           of more than 16 (4-byte values in 4 x 4 blocks, 2-byte ones in
           tl__sr_transpose_es's bands); over 16 (OIhw4i16o4i's o) blocks
           ran twice as fast. In cache, Zen 4: f32 -> bf16, f16, s8
           nChw4c -> nchw 8x64x14x14 47-65 -> 20-24 us, s32 -> f32 62 ->
           21, bf16 -> f32 48 -> 19, OIhw4i4o -> oihw 1x1 3.4 -> 1.4 */
        if (p->loops[sh->M].size == 4 && L->size > 16) return 0;
        return p->loops[sh->M].size < 16 ||
               (tl_dt_size(p->dst_md.data_type) < tl_dt_size(p->src_md.data_type) &&
                (L->size > 16 || p->loops[sh->M].size < TL__SR_STAGE));
    case TL__SR_RUN:    /* copies: runs of 16 bytes or more move well as runs */
        if (p->mode == TL_REORDER_MODE_COPY) {
            /* and runs of 4 and 8, one move each (tl__sr_copy_runs), in
               plans without tails: u8 nChw8c -> nChw16c 4.4x faster so
               than as blocks, s8 oihw -> OIhw4i16o4i 1x1 1.4x (Zen 4, in
               cache); with tails (100 channels), whose partial blocks pad
               each run, 0.6-0.75x; runs of 2 bytes ran 10x slower */
            tl_dim run = L->size * (tl_dim)tl_dt_size(p->src_md.data_type);
            return run < 16 && ((run != 4 && run != 8) || p->has_tails) && nC > L->size;
        }
        return L->size < 16 && L->size != 8 && nC > L->size && !sh->units4;
    default: return 0;
    }
}

static int tl__sr_short_fits(const tl_reorder_plan *p, const tl__sr_shape *sh);

/* Whether tl__sr_convert_short would gather 256 values or more a step
   of p (shape sh: L x K x K2), which pays for its converter call. The
   `small` staged blocks lost to those: Zen 4, in cache, s8 -> f32 nChw4c
   -> nChw8c 8x64x14x14 53.6 -> 18.7 us; nChw4c -> nChw8c and nChw16c,
   OIhw4i4o -> OIhw16i16o 1x1, ohwi -> OIhw4o4i 1x1 0.6-0.9x the time
   (K2: 16 to 3136 pixels or outputs). Steps of 144 values or fewer (K2:
   the 9 taps or 4 outputs of a 3x3 kernel) ran 1.2-4x slower gathered. */
static int tl__sr_gathers_long(const tl_reorder_plan *p, const tl__sr_shape *sh)
{
    if (sh->K < 0) return 0;
    return p->loops[p->nloops - 1].size * p->loops[sh->K].size *
           (sh->K2 >= 0 ? p->loops[sh->K2].size : 1) >= 256;
}

/* Whether blocks pm (from tl__sr_perm_init) beat the runs that
   tl__sr_convert_short would take instead: not those of the slow kind,
   nor fast ones whose R rows are 4 or 8 values of a vector or more, nor
   R rows of 16 that widen to f32 over blocks of 64 columns or more
   (nChw4c's 4 channels or 4o4i's 4 inputs: s8, u8, bf16 -> f32 nChw4c
   -> nChw16c 8x64x14x14 74 -> 16 us, -> nhwc 24-34 -> 13-18, OIhw4i4o
   -> OIhw16i16o 1x1 4.1 -> 0.9, oihw -> OIhw4i16o4i 1x1 1.4-2.0 ->
   0.7-1.1; Zen 4), nor `small` ones whose runs would be gathered long
   (tl__sr_gathers_long). The others lost gathered: `small` blocks up
   to 4x (OIhw4i4o -> OIhw8i8o 3x3), R rows of 16 into bf16 or over 16
   columns up to 1.5x (OIhw16o16i -> OIhw4i16o4i 3x3 with scales), of 64
   1.3x (nChw4c -> nhwc 1x256x56x56). */
static int tl__sr_perm_keeps(const tl_reorder_plan *p, const tl__sr_shape *sh, const tl__sr_perm *pm)
{
    if (!pm->fast) return 0;
    if (pm->nR > 16) return 1;
    if (pm->small) return !tl__sr_gathers_long(p, sh);
    return pm->nR == 16 && (pm->nC < 64 || p->dst_md.data_type != TL_F32);
}

/* Whether p, for which tl__sr_pick_shape chose sh, takes blocks staged
   in source order (described in *pm, less its table) in the kernel call
   that does [begin, end) of loops[0]. */
static int tl__sr_perm_pick(const tl_reorder_plan *p, const tl__sr_shape *sh, tl__sr_perm *pm,
                            tl_dim begin, tl_dim end)
{
    /* the shape alone first: tiny tensors on other shapes pay nothing more;
       copying tiles whose L is narrow keep it where the block's rows would
       be L too (the 3 channels of nchw -> nhwc: rows of 3 values) */
    return tl__sr_perm_better(p, sh, TL__SR_PBLOCK) && tl__sr_perm_init(p, pm, begin, end) &&
           tl__sr_perm_better(p, sh, pm->nC) &&
           !(sh->shape == TL__SR_TILE_COPY && pm->R == p->nloops - 1) &&
           (tl__sr_perm_keeps(p, sh, pm) || !tl__sr_short_fits(p, sh));
}

/* Whether tl__sr_tile_direct takes every tile of p whole (M: the tile
   loop) with 8 rows of M or more, so that a step may walk a run of lone
   ones (sh->next): goihw -> Goihw8g, 8 groups by 9 taps a tile, went a
   step a tile at 90 ns each. Fewer rows go through stack copies, which
   walked ran 2-2.5x slower than staged blocks (f32 -> s8, bf16 nchw ->
   nChw8c 256x64x2x2, Zen 4). */
static int tl__sr_direct_walks(const tl_reorder_plan *p, int M)
{
    return p->loops[M].size >= 8 && tl__sr_direct_takes(p->loops[M].size, p->loops[p->nloops - 1].size) &&
           tl__sr_tile_direct_ok(p, M);
}

#if TL__SR_AVX2
/* Rows [0, nm) of M (nm in 8s) of a tile of tl__sr_tile_direct, sb and
   db bytes apart along L in src and along M in dst. Down slices of M
   whose dst rows span at most TL__SR_SLICE bytes, as in
   tl__sr_transpose_es. */
static void tl__sr_tile_direct_rows(const tl_reorder_plan *p, const char *s, size_t sb, char *d, size_t db,
                                    const tl__sr_scales *sc, tl_dim nm, tl_dim nl, int nt)
{
    tl_data_type dt = p->dst_md.data_type;
    size_t dsz = tl_dt_size(dt);
    tl_dim m, l, slice = db > TL__SR_SLICE / 8 ? 8 : (tl_dim)(TL__SR_SLICE / db) / 8 * 8;
    for (m = 0; m < nm; m += slice)
        for (l = 0; l < nl; l += 16) {
            tl__sr_scales at = *sc;
            tl_dim mb = nm - m < slice ? nm - m : slice;
            const char *sp = s + (size_t)m * 4 + (size_t)l * sb;
            char *dp = d + (size_t)m * db + (size_t)l * dsz;
            const tl__sr_scales *ap = sc->sc ? &at : NULL;
            at.sidx += l * sc->sstep;
            if (dt == TL_F32) tl__sr8_strip4(sp, sb, dp, db, mb, nl - l < 16 ? nl - l : 16, nt, ap);
            else tl__sr8_strip_conv(dt, sp, sb, dp, db, mb, ap, nt, nl == 8);
        }
}

/* A step of TL__SR_TILE_CONVERT for an f32 source that only scales (or
   converts without a scale: not to f32, which would be a copy), in AVX2:
   the M x L tile (M, L in 8s; in 16s unless dst is f32 or its rows of
   8 follow one another, which then go 2 at a time) transposed straight
   into dst, each block row scaled and, for other dst types, converted
   as it is stored: no staging tile, no converter pass (f32 nchw ->
   nChw16c with per-channel scales ran at 0.5 of oneDNN through them,
   f32 -> s8 the same at 0.57 on the Zen 3; f32 -> s8 nchw -> nChw8c at
   0.83). M's last rows (under 8; where L has at most TL__SR_DIRECT_TAIL
   rows) go again as the last 8 rows (the 9th tap of a 3 x 3 kernel, the
   196 pixels of a 14 x 14 plane), or, where M has fewer, through stack
   copies of their source and dst (stores of 4 bytes that 32-byte loads
   read back: goihw -> Goihw8g's 9 x 8 tiles, 1.2x slower so). f32 dst
   streams where its rows start lines and L is in 16s, others where
   tl__sr_convert_streams allows (nChw16c's rows of 16 values, one after
   another), from TL__SR_STREAM_MIN bytes of dst (no beta: dst is only
   written). Only where tl__sr_direct_takes(nm, nl) and
   tl__sr_tile_direct_ok(p, sh->M) hold, which the caller asks once for
   a walk of tiles. */
static void tl__sr_tile_direct(const tl_reorder_plan *p, const tl__sr_shape *sh, const char *s,
                               tl_dim ss, char *d, tl_dim ds, const tl__sr_scales *sc, tl_dim nm, tl_dim nl)
{
    tl_data_type dt = p->dst_md.data_type;
    size_t dsz = tl_dt_size(dt), sb = (size_t)ss * 4, db = (size_t)ds * dsz, ob = (size_t)nl * dsz;
    tl_dim whole = nm / 8 * 8;
    int nt;
    if (dt == TL_F32) {
        nt = sh->stream && nl % 16 == 0 && tl__sr_lines(d, db);
    } else {
        tl__sr_runs rows = tl__sr_one_run;
        rows.count = nl == 8 ? 4 : 8;     /* runs of 16 values: 2 pixels of nChw8c */
        rows.d = nl == 8 ? 2 * db : db;
        nt = tl__sr_convert_streams(sh->stream, d, 16 * dsz, rows, tl__sr_one_run);
    }
    tl__sr_tile_direct_rows(p, s, sb, d, db, sc, whole, nl, nt);
    if (whole < nm && whole > 0) {  /* plain stores: these rows' lines may be in flight */
        tl__sr_tile_direct_rows(p, s + (size_t)(nm - 8) * 4, sb, d + (size_t)(nm - 8) * db, db, sc, 8, nl, 0);
    } else if (whole < nm) {
        simde__m256 in_v[TL__SR_DIRECT_TAIL], out_v[TL__SR_DIRECT_TAIL];
        char *in = (char *)(void *)in_v, *out = (char *)(void *)out_v;
        tl__sr_stage_last(in, 32, s + (size_t)whole * 4, sb, nl, (size_t)(nm - whole) * 4);
        tl__sr_tile_direct_rows(p, in, 32, out, ob, sc, 8, nl, 0);
        tl__sr_unstage_rows(d + (size_t)whole * db, db, out, ob, ob, nm - whole);
    }
}

/* Whether the byte tiles of plan p (M: its tile loop) go back from
   blocks to rows (tl__sr8_unblock_tile): M's 4, 8 or 16 values back to
   back in the source, each pixel (L) one block on, and the scales the
   same along L. */
static int tl__sr_unblocks(const tl_reorder_plan *p, int M)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1], *m = &p->loops[M];
    return (m->size == 4 || m->size == 8 || m->size == 16) && m->src_stride == 1 && L->src_stride == m->size &&
           L->scale_stride == 0;
}

/* Whether tl__sr_tile_bytes takes the converting tiles of plan p (M: the
   tile loop): s8 or u8 into f32 that only scales, in AVX2, from blocks
   back to rows (tl__sr_unblocks), or by one scale or one per column of
   L, L 8 or 16 (the channels of nChw8c and nChw16c), or 4 with M's dst
   rows back to back (nChw4c). */
static int tl__sr_tile_bytes_ok(const tl_reorder_plan *p, int M)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    tl_data_type st = p->src_md.data_type;
    return (st == TL_S8 || st == TL_U8) && p->dst_md.data_type == TL_F32 &&
           (tl__sr_unblocks(p, M) ||
            ((L->size == 8 || L->size == 16 || (L->size == 4 && p->loops[M].dst_stride == 4)) &&
             p->loops[M].scale_stride == 0 && L->scale_stride <= 1)) &&
           tl__sr_avx2() && !tl__sr_q_of(p, tl__sr_no_scales).extra;
}

/* A step of TL__SR_TILE_CONVERT for an s8 or u8 source into f32, in
   AVX2 (tl__sr8_bytes_tile): 32 pixels of M at a time, their L rows
   transposed as bytes and each 8 bytes widened, converted and scaled as
   they are stored: no staging tile, no converter pass (s8 -> f32 nchw
   -> nChw8c ran at 0.64 of oneDNN through them, 4.7 instructions a
   value). Streamed where the pixels' values follow one another (nChw4c,
   nChw8c, nChw16c). 0: not taken. */
static int tl__sr_tile_bytes(const tl_reorder_plan *p, const tl__sr_shape *sh, const char *s, tl_dim ss,
                             char *d, tl_dim ds, tl__sr_scales sc, tl_dim nm, tl_dim nl)
{
    int nt = sh->stream && (uintptr_t)d % 16 == 0, u8 = p->src_md.data_type == TL_U8;
    if (!tl__sr_tile_bytes_ok(p, sh->M)) return 0;
    if (tl__sr_unblocks(p, sh->M)) {
        if (nm != p->loops[sh->M].size) return 0;   /* a block split between threads */
        sc.sstep = p->loops[sh->M].scale_stride;
        tl__sr8_unblock_tile(s, (int)nm, d, (size_t)ds * 4, nl, u8, sc, nt && ds % 4 == 0);
        return 1;
    }
    tl__sr8_bytes_tile(s, (size_t)ss, d, (size_t)ds * 4, nm, nl, u8, sc, nt && ds == nl);
    return 1;
}
#endif

/* tl__sr_tile_copy's side-by-side tiles of es 1 or 2 in blocks of B
   rows (tl__sr_tiles_side_narrow). */
static void tl__sr_tiles_narrow(int es, int B, const char *s, size_t sb, tl__sr_runs rs, tl__sr_runs g, char *d,
                                size_t db, tl_dim nm, tl_dim nl, const tl__sr_shape *sh, const char *s_end)
{
    int nt = sh->stream && db % 64 == 0, pf = sh->pf_rows;   /* d: the body's, group by group */
    (void)nt;
    switch (B * es) {
#if TL__SR_AVX512
    case 64:
        if (es == 2) tl__sr16_tiles2(s, sb, rs, g, d, db, nm, nl, s_end, nt, pf, NULL);
        else tl__sr16_tiles1(s, sb, rs, g, d, db, nm, nl, s_end, nt, pf, NULL);
        return;
#endif
#if TL__SR_AVX2
    case 32:
        if (es == 2) tl__sr8_tiles2(s, sb, rs, g, d, db, nm, nl, s_end, 0, pf, NULL);
        else tl__sr8_tiles1(s, sb, rs, g, d, db, nm, nl, s_end, 0, pf, NULL);
        return;
#endif
    default:
        if (es == 2) tl__sr_tiles2(s, sb, rs, g, d, db, nm, nl, s_end, 0, pf, NULL);
        else tl__sr_tiles1(s, sb, rs, g, d, db, nm, nl, s_end, 0, pf, NULL);
        return;
    }
}

/* A step of TL__SR_TILE_COPY: g.count groups (g.s and g.d bytes apart)
   of rs.count tiles of nm x nl, as one wide tile where they lie side by
   side in dst (tl__sr_tiles_side), else tile by tile; s_end: the end of
   the source. */
static void tl__sr_tile_copy(int es, const char *s, tl_dim ss, char *d, tl_dim ds, tl_dim nm,
                             tl_dim nl, tl__sr_runs rs, tl__sr_runs g, const tl__sr_shape *sh, const char *s_end)
{
    size_t sb = (size_t)ss * (size_t)es, db = (size_t)ds * (size_t)es;
    int side = tl__sr_tiles_side(es, nl, nm, rs);
    tl_dim k;
    if (es <= 2 && side) {
        tl__sr_tiles_narrow(es, side, s, sb, rs, g, d, db, nm, nl, sh, s_end);
        return;
    }
    if (!side && g.count == 1 && (side = tl__sr_tiles_apart(es, nm, nl, rs)) != 0) {
        g = rs;                 /* the tiles' loop walks wide tiles of one tile each */
        rs = tl__sr_one_run;
    }
#if TL__SR_AVX512
    if (side == 16) {   /* the prefetch: f32 OIhw16o16i 500x600x3x3 2.3x on the Zen 4 */
        tl__sr16_tiles4(s, sb, rs, g, d, db, nm, nl, s_end, sh->stream && db % 64 == 0, sh->pf_rows, NULL);
        return;
    }
#endif
#if TL__SR_AVX2
    if (side == 8) {
        tl__sr8_tiles4(s, sb, rs, g, d, db, nm, nl, s_end, 0, sh->pf_rows, NULL);
        return;
    }
#endif
    (void)sb;
    (void)db;
    (void)s_end;
    (void)side;
    for (k = 0; k < g.count; ++k, s += g.s, d += g.d)
        tl__sr_transpose_tiles(es, s, ss, d, ds, nm, nl, sh->stream, rs, sh->pad);
}

/* Copying tiles and runs of a plan with tails in one dim, its blocks in
   one loop and their values in L (or, for tiles, M), take the tails in
   the walk itself instead of leaving the plan to boxes
   (tl__simd_reorder_tails_kernel): a block with data in only some of its
   values is one more step (tl__sr_tail_tile, tl__sr_tail_runs), and
   every step comes in memory order (nChw8c and nChw16c with 100
   channels, from and to nchw or nhwc). As boxes, the full blocks of an
   image went in one pass and the last block's data and padding in two
   more; on the Zen 4 that ran f32 nchw -> nChw8c 1024x100x7x7 2.4x
   slower than 104 channels (no tails), and the full blocks alone, the
   others skipped, still 2x: the gaps they leave cost as much as the
   work. Runs convert too: padding is written as zeros, whatever the
   conversion would make of them. Sets sh->tail. Runs in source order
   (sh->src_order) whose K2 is the blocks' loop keep it in their step:
   each step pads the last block, the only partial one, as it passes
   (sh->tail_last). */
#define TL__SR_TAIL_STAGE 16384     /* bytes of source rows a tail tile stages at a time */

/* Data values in the last of loop b's blocks (b the outer loop of a
   dim with tails, its values the loop inside): 0 or less where the data
   ends before it. */
static tl_dim tl__sr_last_block_data(const tl_reorder_plan *p, int b)
{
    const tl_reorder_loop *B = &p->loops[b];
    return p->data_limit[B->dim] - (B->size - 1) * B->weight;
}

/* Copied runs (sh: TL__SR_RUN in dst order) along loop K = ob, the
   blocks of a dim with tails whose values are L, into a dst that holds
   none of its padding (nChw16c -> nhwc, nCdhw16c -> ndhwc with 116
   channels): the data bytes of the last block, the only partial one; 0
   where the plan is not of that kind. Each run then copies a whole
   block but the last, which copies its data (rs.last), and dst's lines
   complete in order, streamed where dst is large. As boxes, the 7 whole
   blocks of each pixel went in one pass and the 4 values of the last in
   another: f32 nChw16c -> nhwc 64x116x19x19 ran at 0.55 of memcpy, 128
   channels at 0.75 (Zen 4, one thread). Blocks of 16 bytes, and last
   blocks whose data is not in 16s (4 bytes of u8 nChw32c, 8 of bf16
   nChw16c with 100 channels), keep the boxes: in the walk u8 nChw16c ->
   nhwc 256x100x14x14 ran 1.4x slower, those 1.1x. */
static size_t tl__sr_last_run(const tl_reorder_plan *p, const tl__sr_shape *sh, int ob)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    size_t es = tl_dt_size(p->src_md.data_type);
    tl_dim nd = tl__sr_last_block_data(p, ob);
    int d = L->dim;
    if (sh->shape != TL__SR_RUN || p->mode != TL_REORDER_MODE_COPY || (size_t)L->size * es < 32 ||
        p->pad_limit[d] != p->data_limit[d] || nd <= 0 || nd >= L->size || (size_t)nd * es % 16 != 0)
        return 0;
    return (size_t)nd * es;
}

static void tl__sr_takes_tails(const tl_reorder_plan *p, tl__sr_shape *sh)
{
    int L = p->nloops - 1, l, ob = -1, ib = -1, n = 0, d;
    int tile = sh->shape == TL__SR_TILE_COPY && p->mode == TL_REORDER_MODE_COPY;
    sh->tail = -1;
    if (!p->has_tails || !(tile || (sh->shape == TL__SR_RUN && sh->K >= 0)) ||
        tl__sr_perm_better(p, sh, TL__SR_PBLOCK))   /* staged blocks, which take no tails */
        return;
    for (l = 0; l < p->nloops; ++l) {
        if (p->loops[l].dim < 0) continue;
        if (n++ == 0) ob = l;
        else ib = l;
    }
    if (n == 1 && ob == L && sh->shape == TL__SR_RUN) {
        /* a dim of one block (an image's 3 channels in nChw16c): every
           run is that block, partial */
        d = p->loops[L].dim;
        if (p->pad_limit[d] == p->loops[L].size &&
            p->loops[L].size * (tl_dim)tl_dt_size(p->src_md.data_type) <= TL__SR_TAIL_STAGE / 16) {
            sh->tail = L;
            sh->src_order = 0;
            sh->K2 = sh->K3 = -1;
        }
        return;
    }
    if (n != 2 || p->loops[ob].dim != p->loops[ib].dim || p->loops[ib].weight != 1 ||
        p->loops[ob].weight != p->loops[ib].size)
        return;
    if (ib == L && ob == sh->K) {   /* runs along the blocks, into a dst without their padding */
        sh->tail_last = tl__sr_last_run(p, sh, ob);
        if (sh->tail_last > 0) {
            sh->tail = ob;
            sh->src_order = 0;
        }
        return;
    }
    if (ob == sh->M || ob == sh->K || (sh->K2 >= 0 && (tile || sh->K2 != ob))) return;
    d = p->loops[ob].dim;
    if (ib == L) {              /* the step writes the block's padding; nothing lies outside dst */
        if (p->pad_limit[d] != p->loops[ob].size * p->loops[ib].size ||
            p->loops[L].size * (tl_dim)tl_dt_size(p->src_md.data_type) > TL__SR_TAIL_STAGE / 16)
            return;
    } else if (!tile || ib != sh->M || p->pad_limit[d] != p->data_limit[d]) {
        return;                 /* along M: dst must have no padding to write */
    }
    sh->tail = ob;
    if (sh->src_order && sh->K2 == ob && ib == L && tl__sr_last_block_data(p, ob) > 0) {
        /* the last block partial, the others whole: each step pads it */
        sh->tail_last = (size_t)tl__sr_last_block_data(p, ob) * tl_dt_size(p->src_md.data_type);
        return;
    }
    sh->src_order = 0;
    sh->K2 = -1;                /* the blocks' loop, which short runs walked inside a step */
    sh->K3 = -1;
}

static void tl__sr_pick_shape(const tl_reorder_plan *p, tl__sr_shape *sh)
{
    tl__sr_base_shape(p, sh);
    tl__sr_takes_tails(p, sh);
    sh->pf_rows = p->src_hi - p->src_lo >= TL__SR_PF_ROWS_MIN;
}

/* Data values in the tail dim's block that step i is in, where sh takes
   tails and that block is partial (fewer than it holds, maybe none);
   else TL__DIM_MAX. */
TL__SR_INLINE tl_dim tl__sr_partial_block(const tl_reorder_plan *p, const tl__sr_shape *sh, const tl_dim *i)
{
    const tl_reorder_loop *b;
    tl_dim nd;
    if (sh->tail < 0 || sh->tail_last > 0) return TL__DIM_MAX;
    b = &p->loops[sh->tail];
    nd = p->data_limit[b->dim] - i[sh->tail] * b->weight;
    if (sh->tail == p->nloops - 1) return nd;       /* L the dim's one block */
    return nd < b->weight ? nd : TL__DIM_MAX;
}

/* Whether tl__sr_convert_padded takes converted runs of n values (rs,
   their scales sc): runs of 8 or 16 values, f16 only in AVX2 (as
   tl__sr_dt_ok has it), and one scale for all (the lanes past a run's
   data read none). */
static int tl__sr_converts_padded(const tl_reorder_plan *p, tl__sr_scales sc, tl__sr_runs rs, tl_dim n)
{
    return (n == 8 || n == 16) && tl__sr_dt_ok(p->src_md.data_type) && tl__sr_dt_ok(p->dst_md.data_type) &&
           !sc.wrap && (!sc.sc || (sc.sstep == 0 && rs.c == 0));
}

/* Converted runs rs whose first nd (1 to n - 1) of n values are data
   (tl__sr_converts_padded), each in one pass (TL__SR_PADDED_LOOP). The
   last values gathered and each run's padding zeroed after them
   (tl__sr_convert_runs, tl__sr_zero_bytes) ran u8 -> f32 nhwc -> nChw16c
   1x3x224x224 at a fifth of oneDNN's speed; converted into a stage,
   then copied with the padding (tl__sr_copy_runs_padded), at half (Zen
   4). */
static void tl__sr_convert_padded(const tl_reorder_plan *p, const char *s, char *d, tl__sr_scales sc,
                                  tl__sr_runs rs, tl_dim n, tl_dim nd, const char *s_end)
{
    tl__sr_q q = tl__sr_q_of(p, sc);
    tl_data_type st = p->src_md.data_type, dt = p->dst_md.data_type;
#if TL__SR_AVX2
    if (tl__sr_avx2()) {
        tl__sr8_convert_padded(&q, st, dt, s, d, sc, rs, n, nd, s_end);
        return;
    }
#endif
    tl__sr_convert_padded_sse(&q, st, dt, s, d, sc, rs, n, nd, s_end);
}

/* The runs rs (n values each) of a step of shape TL__SR_RUN in the tail
   dim's block, which holds nd < n data values (tl__sr_takes_tails). Copies
   in one pass where runs are in 16s of bytes (tl__sr_copy_runs_padded),
   plainly stored: streamed, an image's 3 channels from nhwc into nChw16c,
   nChw8c or nChw4c ran 1.1-1.5x slower (8x3x224x224, 1x3x1080x1920; Zen
   4, in 16-byte stores); otherwise the first nd values as any runs, then
   the rest of each run zeroed. */
static void tl__sr_tail_runs(const tl_reorder_plan *p, const char *s, char *d,
                             tl__sr_scales sc, tl__sr_runs rs, tl_dim n, tl_dim nd, const char *s_end)
{
    size_t es = tl_dt_size(p->src_md.data_type), dsz = tl_dt_size(p->dst_md.data_type);
    size_t run = (size_t)n * dsz;
    tl_dim k;
    if (nd < 0) nd = 0;
    if (p->mode == TL_REORDER_MODE_COPY && run % 16 == 0) {
        tl__sr_copy_runs_padded(s, d, (size_t)nd * es, run, rs, 0, s_end);
        return;
    }
    if (nd > 0 && p->mode != TL_REORDER_MODE_COPY && tl__sr_converts_padded(p, sc, rs, n)) {
        tl__sr_convert_padded(p, s, d, sc, rs, n, nd, s_end);
        return;
    }
    rs.nt = 0;      /* runs of nd values, then the padding apart */
    if (nd > 0 && p->mode == TL_REORDER_MODE_COPY) tl__sr_copy_runs(s, d, (size_t)nd * es, rs, tl__sr_one_run, 0);
    else if (nd > 0) tl__sr_convert_runs(p, s, d, sc, nd, rs);
    for (k = 0; k < rs.count; ++k) tl__sr_zero_bytes(d + (size_t)k * rs.d + (size_t)nd * dsz, (size_t)(n - nd) * dsz);
}

/* The tile of the tail dim's block that holds nd (< its size) data
   values, of plan p whose shape sh takes tails (tl__sr_takes_tails); s, d,
   nm, nl as for tl__sr_tile_copy. Values along M: a shorter tile. Along
   L: its nd source rows staged, zero rows after them, in slices of M, so
   that the tile writes the block's padding in the same pass. */
TL__SR_NOINLINE void tl__sr_tail_tile(const tl_reorder_plan *p, const tl__sr_shape *sh, const char *s,
                                      char *d, tl_dim nm, tl_dim nl, tl_dim nd, const char *s_end)
{
    simde__m128i stage_v[TL__SR_TAIL_STAGE / 16];
    char *stage = (char *)(void *)stage_v;
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    int es = (int)tl_dt_size(p->src_md.data_type);
    tl_dim ds = p->loops[sh->M].dst_stride, mc = TL__SR_TAIL_STAGE / (nl * es), m0, r;
    if (L->dim < 0) {           /* along M; no data: the block lies outside dst */
        if (nd > 0) tl__sr_tile_copy(es, s, L->src_stride, d, ds, nd, nl, tl__sr_one_run, tl__sr_one_run, sh, s_end);
        return;
    }
    for (m0 = 0; m0 < nm; m0 += mc) {
        tl_dim w = nm - m0 < mc ? nm - m0 : mc;
        size_t row = (size_t)w * (size_t)es;
        for (r = 0; r < nl; ++r) {
            if (r < nd) memcpy(stage + (size_t)r * row, s + ((size_t)r * (size_t)L->src_stride + (size_t)m0) * (size_t)es, row);
            else memset(stage + (size_t)r * row, 0, row);
        }
        tl__sr_tile_copy(es, stage, w, d + (size_t)m0 * (size_t)ds * (size_t)es, ds, w, nl, tl__sr_one_run,
                         tl__sr_one_run, sh, stage + (size_t)nl * row);
    }
}

/* The runs of loop l that a step at iteration vector i walks: from i[l]
   to the loop's end, its strides in bytes. */
static tl__sr_runs tl__sr_loop_runs(const tl_reorder_plan *p, int l, const tl_dim *i, const tl_dim *hi)
{
    tl__sr_runs rs = tl__sr_one_run;
    rs.count = hi[l] - i[l];
    rs.s = (size_t)p->loops[l].src_stride * tl_dt_size(p->src_md.data_type);
    rs.d = (size_t)p->loops[l].dst_stride * tl_dt_size(p->dst_md.data_type);
    rs.c = p->loops[l].scale_stride;
    return rs;
}

#define TL__SR_GATHER 1024   /* values of a gathered chunk */

/* Whether runs of n values (rs, sc the step's scales) join into one
   run (tl__sr_join_runs): they follow one another in src and dst and
   share their scales (rs.c 0), one scale or none for all, or one per
   value of a run of a length that divides 16, which the converter's
   wrapped steps take. The pixels of nChw4c, nChw8c or nChw16c with
   per-channel scales: those keep the plan from merging the pixels into
   one run. */
static int tl__sr_joins(const tl_reorder_plan *p, tl__sr_scales sc, tl_dim n, tl__sr_runs rs)
{
    return rs.count >= 2 && rs.c == 0 && rs.s == (size_t)n * tl_dt_size(p->src_md.data_type) &&
           rs.d == (size_t)n * tl_dt_size(p->dst_md.data_type) &&
           (!sc.sc || sc.sstep == 0 || 16 % n == 0);
}

/* Whether tl__sr_convert_short gathers runs of n values (rs inside
   outer, sc the step's scales): they follow one another in dst only, rs
   inside outer, with 4, 8 or 16 bytes of src each and the same scales
   in every group of rs.count runs (outer.c 0). */
static int tl__sr_short_gathers(const tl_reorder_plan *p, tl__sr_scales sc, tl_dim n, tl__sr_runs rs,
                                tl__sr_runs outer)
{
    size_t ssz = tl_dt_size(p->src_md.data_type), dsz = tl_dt_size(p->dst_md.data_type);
    size_t piece = (size_t)n * ssz, group = (size_t)(rs.count * n);
    return n < 8 && rs.d == (size_t)n * dsz && rs.s != piece && (piece == 4 || piece == 8 || piece == 16) &&
           group <= TL__SR_GATHER && rs.count * outer.count >= 4 &&
           (outer.count == 1 || (outer.d == group * dsz && (!sc.sc || outer.c == 0)));
}

/* pat[0, len): the scales of runs of n values, count runs of them c
   scale indices apart (a group), repeated group after group. Runs that
   share their scales (c 0) write one run and double it: a run at a time
   the compiler made a call of each run's copy (f32 -> s8 nhwc -> nChw4c
   8x64x14x14 with per-channel scales, 196 calls of 16 bytes for each
   784 values converted: 140 us, 58% of it in memcpy; Zen 4). */
static void tl__sr_scale_pattern(float *pat, tl__sr_scales sc, tl_dim n, tl_dim count, tl_dim c,
                                 tl_dim len)
{
    tl_dim g = c == 0 ? n : count * n, j, t;
    for (j = 0; j < g / n; ++j)
        for (t = 0; t < n; ++t) pat[j * n + t] = sc.sc[sc.sidx + j * c + t * sc.sstep];
    for (t = g; t < len; t *= 2) memcpy(pat + t, pat, (size_t)(t < len - t ? t : len - t) * sizeof(float));
}

#define TL__SR_JOIN_RUNS 32  /* joined runs a converter call takes, with their scales */

/* Joined runs (tl__sr_joins: rs) convert as one run for each iteration
   of outer, all of them in one converter call, as runs of that call (up
   to TL__SR_JOIN_RUNS at a time where scales go per value). Those
   scales come from a pattern of 16 and the 8 that follow for each,
   which the converter's step loop reads as wrapped scales
   (tl__sr_scales.wrap):
   a step of 16 values after another, with nothing to do between the
   pixels, where runs of 4 went in chunks of up to 256 values and runs
   of 8 or 16 a step or two each, walked pixel by pixel (per channel,
   f32 -> s8 nChw4c -> nChw4c 8x64x14x14 on the Zen 3: 25.0 -> 13.6 us,
   7x7 96 -> 6.6 us; nChw16c 14x14 16.7 -> 12.4 us; one scale for all:
   12 us). */
TL__SR_NOINLINE void tl__sr_join_runs(const tl_reorder_plan *p, const char *src, char *dst,
                                      tl__sr_scales sc, tl_dim n, tl__sr_runs rs, tl__sr_runs outer)
{
    float pat[TL__SR_JOIN_RUNS * 32];
    tl__sr_scales at = { pat, 0, 1, 1 };
    tl__sr_runs runs = outer;
    tl_dim o, m, j, t, u;
    runs.nt = rs.nt;
    if (!sc.sc || sc.sstep == 0) {      /* one scale a run, or none */
        tl__sr_convert_runs(p, src, dst, sc, rs.count * n, runs);
        return;
    }
    runs.c = 32;
    for (o = 0; o < outer.count; o += m) {
        m = outer.count - o < TL__SR_JOIN_RUNS ? outer.count - o : TL__SR_JOIN_RUNS;
        for (j = 0; j < m; ++j) {   /* the 24 a run's steps read; moves, no calls */
            float *q = pat + j * 32;
            for (u = 0; u < n; ++u) q[u] = sc.sc[sc.sidx + (o + j) * outer.c + u * sc.sstep];
            for (t = n; t < 16; ++t) q[t] = q[t - n];
            memcpy(q + 16, q, 8 * sizeof(float));
        }
        runs.count = m;
        tl__sr_convert_runs(p, src + (size_t)o * outer.s, dst + (size_t)o * outer.d, at, rs.count * n, runs);
    }
}

/* groups groups of rs.count pieces of piece bytes (os bytes from one
   group to the next in src) one after another into b; piece is a
   constant where inlined, so that each copy is a move, not a call. */
TL__SR_INLINE void tl__sr_gather_pieces(char *b, const char *s, size_t piece, tl__sr_runs rs,
                                        tl_dim groups, size_t os)
{
    tl_dim g, j;
    for (g = 0; g < groups; ++g, s += os)
        for (j = 0; j < rs.count; ++j, b += piece) memcpy(b, s + (size_t)j * rs.s, piece);
}

/* Runs of fewer than 8 values, which went to the converter 16 at a time
   through its buffers for last values (per-channel f32 -> s8 nChw4c at a
   tenth of oneDNN's speed), gathered where tl__sr_short_gathers says
   so (tl__sr_convert_nest joins others first): whole groups (rs.count
   runs) go in dst's order into a chunk of up to TL__SR_GATHER values that converts
   as one run, the scales from a buffer as long as the chunk (nChw4c's 4
   channels into nChw16c or nhwc, or into nChw4c from nChw8c, nChw16c or
   nhwc). Returns 0, converting nothing, for other runs. Out of line:
   inlined into tl__sr_kernel, it slowed the staged blocks' loops there
   (f32 -> s8 nChw4c -> nChw8c 8x64x14x14 56 -> 72 us, Zen 4). */
TL__SR_NOINLINE int tl__sr_convert_short(const tl_reorder_plan *p, const char *s, char *d,
                                         tl__sr_scales sc, tl_dim n, tl__sr_runs rs,
                                         tl__sr_runs outer)
{
    size_t piece = (size_t)n * tl_dt_size(p->src_md.data_type);
    tl_dim g = rs.count * n, per, o, m;
    simde__m128 buf_v[TL__SR_GATHER];            /* values of up to 4 bytes */
    float pat[TL__SR_GATHER];
    tl__sr_scales at = { pat, 0, 1, 0 };
    if (!tl__sr_short_gathers(p, sc, n, rs, outer)) return 0;
    per = TL__SR_GATHER / g;
    if (!sc.sc || (sc.sstep == 0 && rs.c == 0)) at = sc;
    else tl__sr_scale_pattern(pat, sc, n, rs.count, rs.c, g * (per < outer.count ? per : outer.count));
    for (o = 0; o < outer.count; o += per) {
        m = outer.count - o < per ? outer.count - o : per;
        if (piece == 4) tl__sr_gather_pieces((char *)buf_v, s, 4, rs, m, outer.s);
        else if (piece == 8) tl__sr_gather_pieces((char *)buf_v, s, 8, rs, m, outer.s);
        else tl__sr_gather_pieces((char *)buf_v, s, 16, rs, m, outer.s);
        tl__sr_convert_run(p, (const char *)buf_v, d, at, m * g, 0);
        s += (size_t)m * outer.s;
        d += (size_t)m * outer.d;
    }
    return 1;
}

/* The scales of plan p's runs (its last loop) from its start. */
static tl__sr_scales tl__sr_plan_scales(const tl_reorder_plan *p)
{
    tl__sr_scales sc = tl__sr_no_scales;
    sc.sc = p->scales;
    sc.sstep = p->loops[p->nloops - 1].scale_stride;
    return sc;
}

/* Loop l of plan p as runs, whole. */
static tl__sr_runs tl__sr_plan_runs(const tl_reorder_plan *p, int l)
{
    tl_dim lo[TL_REORDER_MAX_LOOPS] = { 0 }, hi[TL_REORDER_MAX_LOOPS];
    int j;
    for (j = 0; j < p->nloops; ++j) hi[j] = p->loops[j].size;
    return tl__sr_loop_runs(p, l, lo, hi);
}

/* Whether the runs of plan p along its loop K join (tl__sr_joins). */
static int tl__sr_plan_joins(const tl_reorder_plan *p, int K)
{
    return tl__sr_joins(p, tl__sr_plan_scales(p), p->loops[p->nloops - 1].size, tl__sr_plan_runs(p, K));
}

/* Whether a converting plan's steps (sh: TL__SR_RUN, no tails) would
   join or gather runs of fewer than 8 values (tl__sr_convert_nest): its
   K and K2 loops whole. */
static int tl__sr_short_fits(const tl_reorder_plan *p, const tl__sr_shape *sh)
{
    tl_dim n = p->loops[p->nloops - 1].size;
    if (sh->shape != TL__SR_RUN || p->mode == TL_REORDER_MODE_COPY || sh->K < 0 || p->has_tails || n >= 8)
        return 0;
    return tl__sr_plan_joins(p, sh->K) ||
           tl__sr_short_gathers(p, tl__sr_plan_scales(p), n, tl__sr_plan_runs(p, sh->K),
                                sh->K2 >= 0 ? tl__sr_plan_runs(p, sh->K2) : tl__sr_one_run);
}

/* The converted runs of a step of TL__SR_RUN, or of one index of K3 (rs:
   along K), and along K2 too where the shape walks it inside the step. Runs in 8s go to one
   converter call in dst's order (K inside K2), which streams where dst
   lines complete in order (s8 -> f32 nChw8c -> nhwc 64x64x28x28 from
   DRAM 1.65x, where K2 outside left every pixel's lines part written;
   Zen 4). Runs that join (tl__sr_joins) go first, in one call. Others,
   whose last values the converter gathers run by run, take the longer
   of the two loops in each call (the 196 pixels of s8 nChw16c -> nhwc
   14x14 with 100 channels, not its 4 channel blocks: a call for every
   pixel's 4 runs cost more than their values). */
static void tl__sr_convert_nest(const tl_reorder_plan *p, const tl__sr_shape *sh, const tl_dim *i,
                                const tl_dim *hi, const char *s, char *d, tl__sr_scales sc, tl_dim n,
                                tl__sr_runs rs)
{
    size_t dsz = tl_dt_size(p->dst_md.data_type);
    tl__sr_runs outer = sh->K2 >= 0 ? tl__sr_loop_runs(p, sh->K2, i, hi) : tl__sr_one_run, t;
    tl_dim o;
#if TL__SR_AVX2
    if (sh->units4 && tl__sr8_units4_whole(p, outer.count, rs.count)) { /* else threads split it below a step */
        int narrow;
        tl_data_type t = tl__sr8_units4_type(p, &narrow);
        /* streamed only where the last step's pixels, which overlap the
           step before, start on 16 bytes too (f32 -> s8 aBc4b -> acB16b
           8x40x11: 11 pixels, the last step from pixel 3, faulted) */
        tl__sr8_units4_tile(narrow, t, s, rs.s, d, outer.d, outer.count, rs.count, sc, outer.c,
                            sh->stream && (uintptr_t)d % 16 == 0 && outer.d % 16 == 0 &&
                                (size_t)rs.count * dsz % 4 == 0);
        return;
    }
#endif
    if (tl__sr_joins(p, sc, n, rs)) {
        rs.nt = tl__sr_convert_streams(sh->stream, d, (size_t)(rs.count * n) * dsz, outer, tl__sr_one_run);
        tl__sr_join_runs(p, s, d, sc, n, rs, outer);
        return;
    }
    if (n % 8 == 0 || tl__sr_overlaps(p, n)) {
        rs.nt = tl__sr_convert_streams(sh->stream, d, (size_t)n * dsz, rs, outer);
        tl__sr_convert_full(p, s, d, sc, n, rs, outer);
        return;
    }
    if (tl__sr_convert_short(p, s, d, sc, n, rs, outer)) return;
    if (outer.count > rs.count) {
        t = rs;
        rs = outer;
        outer = t;
    }
    for (o = 0; o < outer.count; ++o, s += outer.s, d += outer.d, sc.sidx += outer.c) {
        rs.nt = tl__sr_convert_streams(sh->stream, d, (size_t)n * dsz, rs, tl__sr_one_run);
        tl__sr_convert_runs(p, s, d, sc, n, rs);
    }
}

/* Whether the side-by-side walk (tl__sr16_side_runs) took every group x
   of a step that walks loop K3 too, its setup paid once: where each
   group would reach it through tl__sr_convert_nest (no units of 4, no
   joined runs), x.d keeping dst's place in a line (the same streaming
   choice for all). */
static int tl__sr_convert_sides(const tl_reorder_plan *p, const tl__sr_shape *sh, const tl_dim *i,
                                const tl_dim *hi, const char *s, char *d, tl__sr_scales sc, tl_dim n,
                                tl__sr_runs rs, tl__sr_runs x)
{
#if TL__SR_AVX512
    tl__sr_runs outer = sh->K2 >= 0 ? tl__sr_loop_runs(p, sh->K2, i, hi) : tl__sr_one_run;
    tl_dim rest;
    if (sh->units4 || x.d % 64 != 0 || tl__sr_joins(p, sc, n, rs)) return 0;
    rs.nt = tl__sr_convert_streams(sh->stream, d, (size_t)n * tl_dt_size(p->dst_md.data_type), rs, outer);
    return tl__sr_side_fits(p, sc, n, rs, outer, tl__sr_plain(p, sc, rs)) &&
           tl__sr_side_whole(n, tl__sr_side_np(p->dst_md.data_type), rs, outer) && tl__sr_avx512() &&
           tl__sr16_side_runs(p, s, d, sc, n, rs, outer, x, &rest) > 0;
#else
    (void)p, (void)sh, (void)i, (void)hi, (void)s, (void)d, (void)sc, (void)n, (void)rs, (void)x;
    return 0;
#endif
}

/* A step of converted runs that walks loop K3 too (small steps:
   tl__sr_convert_loops): tl__sr_convert_nest for each of its indices,
   or the side-by-side walk for all. A step per block of f32 -> bf16 or
   s8 nChw8c -> nChw16c 8x64x14x14 (32 of 392 runs) spent a quarter of
   its time outside the runs, in the kernel's walk and the side-by-side
   walk's setup. */
static void tl__sr_convert_steps(const tl_reorder_plan *p, const tl__sr_shape *sh, const tl_dim *i,
                                 const tl_dim *hi, const char *s, char *d, tl__sr_scales sc, tl_dim n,
                                 tl__sr_runs rs)
{
    tl__sr_runs x = tl__sr_loop_runs(p, sh->K3, i, hi);
    tl_dim j;
    if (x.count > 1 && tl__sr_convert_sides(p, sh, i, hi, s, d, sc, n, rs, x)) return;
    for (j = 0; j < x.count; ++j, s += x.s, d += x.d, sc.sidx += x.c)
        tl__sr_convert_nest(p, sh, i, hi, s, d, sc, n, rs);
}

/* What a step copies at each of K2's groups, where its walk of the
   loops [K3, K2) (tl__sr_step_outer) reaches them: runs of n bytes
   (rs: loop K's), or side-by-side tiles of nm x nl values (ss, ds:
   their strides in values; s_end: the end of the source). */
typedef struct {
    size_t n;
    tl__sr_runs rs;
    tl_dim ss, ds, nm, nl;
    const char *s_end;
} tl__sr_group;

/* A step of copied runs in source order (the others go by
   tl__sr_copy_nest) or of tiles from loop l (K3, or K2) in: K2's group
   of runs once loop l reaches it, else each iteration of loop l in turn
   (M, the tiles' own, once); tiles go from the loop next outside K2
   (M aside), which tl__sr_tile_copy takes as its groups, so the walk
   never reaches K2 with them. */
static void tl__sr_step_outer(const tl_reorder_plan *p, const tl__sr_shape *sh, int l, const tl_dim *i,
                              const tl_dim *hi, const char *s, char *d, const tl__sr_group *g)
{
    tl__sr_runs r = tl__sr_loop_runs(p, l, i, hi);
    int next = l + 1 == sh->M ? l + 2 : l + 1;
    tl_dim j;
    if (l == sh->K2) {
        tl__sr_copy_groups(sh, s, d, g->n, g->rs, r, hi[l] == p->loops[l].size ? sh->tail_last : 0, g->s_end);
    } else if (sh->shape == TL__SR_TILE_COPY && next == sh->K2 && l != sh->M) {
        tl__sr_runs k2 = tl__sr_loop_runs(p, sh->K2, i, hi);
        k2.next = g->rs.next;
        tl__sr_tile_copy((int)tl_dt_size(p->src_md.data_type), s, g->ss, d, g->ds, g->nm, g->nl, k2, r, sh,
                         g->s_end);
    } else if (l == sh->M) {
        tl__sr_step_outer(p, sh, l + 1, i, hi, s, d, g);
    } else {
        for (j = 0; j < r.count; ++j, s += r.s, d += r.d) tl__sr_step_outer(p, sh, l + 1, i, hi, s, d, g);
    }
}

/* The scales of a step of converting tiles (tl__sr_tsc in t) whose
   first value takes scale sidx, K the tiles' loop (merged: K merged
   with M; -1: a lone tile, sh->lone); NULL without scales. */
static const tl__sr_tsc *tl__sr_tsc_of(const tl_reorder_plan *p, const tl__sr_shape *sh, int K, int merged,
                                       tl_dim sidx, tl__sr_tsc *t)
{
    if (!p->scales) return NULL;
    t->sc = p->scales;
    t->sidx = sidx;
    t->ks = K >= 0 ? p->loops[K].scale_stride : 0;
    t->ls = p->loops[p->nloops - 1].scale_stride;
    t->ms = p->loops[sh->M].scale_stride;
    t->mn = merged ? p->loops[sh->M].size : 0;
    return t;
}

/* A step's converting tiles of nm rows of M by n of L (scales sc) below
   the wide AVX-512 ones, g.count of them (a walk of lone tiles,
   sh->next; else one): straight into dst where AVX2 takes them, else
   through the staging tile. */
static void tl__sr_convert_tiles(const tl_reorder_plan *p, const tl__sr_shape *sh, const char *s, char *d,
                                 tl__sr_scales sc, tl_dim nm, tl_dim n, tl__sr_runs g)
{
    tl_dim ss = p->loops[p->nloops - 1].src_stride, ds = p->loops[sh->M].dst_stride, t;
#if TL__SR_AVX2
    /* neither writes the padding that tl__sr_pads_fused left to the step
       (u8 -> f32 into aBcd4b, 3 of 4 channels and 8 pixels: left as it was) */
    int direct = !sh->pad && tl__sr_direct_takes(nm, n) && tl__sr_tile_direct_ok(p, sh->M);
#endif
    for (t = 0; t < g.count; ++t, s += g.s, d += g.d, sc.sidx += g.c) {
#if TL__SR_AVX2
        if (direct) {
            tl__sr_tile_direct(p, sh, s, ss, d, ds, &sc, nm, n);
            continue;
        }
        if (!sh->pad && tl__sr_tile_bytes(p, sh, s, ss, d, ds, sc, nm, n)) continue;
#endif
        tl__sr_convert_tile(p, s, ss, d, ds, sc, p->loops[sh->M].scale_stride, nm, n, sh->stream, sh->pad);
    }
}

/* Pieces of `piece` bytes one after another into b, piece c from s +
   off[c] values of es bytes (piece a constant where inlined). */
TL__SR_INLINE void tl__sr_columns_gather(char *b, const char *s, size_t es, const int32_t *off, tl_dim n,
                                         size_t piece)
{
    tl_dim c;
    for (c = 0; c < n; ++c, b += piece) memcpy(b, s + (size_t)off[c] * es, piece);
}

/* The same for pieces of nr values sm apart in src, value by value. */
static void tl__sr_columns_gather_strided(char *b, const char *s, size_t es, const int32_t *off, tl_dim n,
                                          tl_dim nr, tl_dim sm)
{
    tl_dim c, r;
    for (c = 0; c < n; ++c)
        for (r = 0; r < nr; ++r, b += es) memcpy(b, s + (size_t)(off[c] + r * sm) * es, es);
}

/* The nr x sh->cols block of a strip of rows from columns (nr values of
   M from s, the columns' offsets in sh->soff) transposed into rows of
   columns at t, ts values apart: by tl__sr16_columns where 16 rows
   fill its vectors, else gathered into a stage, a piece a column, and
   transposed from there. */
TL__SR_INLINE void tl__sr_columns_transpose(const tl__sr_shape *sh, size_t es, tl_dim sm, const char *s,
                                            tl_dim nr, char *t, tl_dim ts)
{
    simde__m128i a_v[TL__SR_COLS_STAGE / 16];
    char *a = (char *)(void *)a_v;
    size_t piece = (size_t)nr * es;
    tl_dim n = sh->cols;
#if TL__SR_AVX512
    if (nr == 16 && tl__sr16_columns_fit((int)es, (int)sm) && tl__sr_avx512()) {
        tl__sr16_columns((int)es, (int)sm, s, sh->soff, n, t, (size_t)ts * es);
        return;
    }
#endif
    if (sm != 1) tl__sr_columns_gather_strided(a, s, es, sh->soff, n, nr, sm);
    else switch (piece) {
    case 16: tl__sr_columns_gather(a, s, es, sh->soff, n, 16); break;
    case 32: tl__sr_columns_gather(a, s, es, sh->soff, n, 32); break;
    case 64: tl__sr_columns_gather(a, s, es, sh->soff, n, 64); break;
    default: tl__sr_columns_gather(a, s, es, sh->soff, n, piece); break;
    }
    tl__sr_transpose((int)es, a, nr, t, ts, nr, n, 0);
}

/* A strip of rows from columns: nr values of M from s, sc the scales of
   the first. Copies transpose straight into dst; conversions into a
   stage whose rows then convert into dst, each under its own scale. */
TL__SR_NOINLINE void tl__sr_columns_strip(const tl_reorder_plan *p, const tl__sr_shape *sh, const char *s,
                                          char *d, tl__sr_scales sc, tl_dim nr)
{
    simde__m128i b_v[TL__SR_COLS_STAGE / 16];
    const tl_reorder_loop *M = &p->loops[sh->M];
    size_t es = tl_dt_size(p->src_md.data_type);
    char *b = (char *)(void *)b_v;
    tl__sr_runs rs = tl__sr_one_run;
    if (p->mode == TL_REORDER_MODE_COPY) {
        tl__sr_columns_transpose(sh, es, M->src_stride, s, nr, d, M->dst_stride);
        return;
    }
    tl__sr_columns_transpose(sh, es, M->src_stride, s, nr, b, sh->cols);
    rs.count = nr;
    rs.s = (size_t)sh->cols * es;
    rs.d = (size_t)M->dst_stride * tl_dt_size(p->dst_md.data_type);
    rs.c = M->scale_stride;
    sc.sstep = 0;
    tl__sr_convert_runs(p, b, d, sc, sh->cols, rs);
}

/* A step of rows from columns: all nm values of M from s (a thread's
   share where M is loops[0]), strip by strip, so that the columns'
   source lines, which hold several strips' pieces where M is long
   (hwio's 256 o), serve them all from L1 (the strips as steps of their
   own swept the whole tensor in between: s8 hwio -> oihw 256x256x3x3
   ran at 0.35 of memcpy, Zen 4). */
static void tl__sr_columns_step(const tl_reorder_plan *p, const tl__sr_shape *sh, const char *s, char *d,
                                tl__sr_scales sc, tl_dim nm)
{
    const tl_reorder_loop *M = &p->loops[sh->M];
    size_t sb = (size_t)M->src_stride * tl_dt_size(p->src_md.data_type);
    size_t db = (size_t)M->dst_stride * tl_dt_size(p->dst_md.data_type);
    tl_dim r;
    for (r = 0; r < nm; r += TL__SR_COLS_ROWS) {
        tl__sr_scales at = sc;
        at.sidx += r * M->scale_stride;
        tl__sr_columns_strip(p, sh, s + (size_t)r * sb, d + (size_t)r * db, at,
                             nm - r < TL__SR_COLS_ROWS ? nm - r : TL__SR_COLS_ROWS);
    }
}

#if TL__SR_AVX2
/* A step of TL__SR_DWORDS: Q's groups of 4 rows, each read along K2's
   blocks of X and X's own blocks of 16 values (AVX-512) or 8. */
static void tl__sr_dwords_step(const tl_reorder_plan *p, const tl__sr_shape *sh, const tl_dim *i, const tl_dim *hi,
                               const char *s, char *d, tl_dim sidx, const char *next)
{
    const tl_reorder_loop *X = &p->loops[sh->K], *L = &p->loops[p->nloops - 1];
    size_t es = tl_dt_size(p->src_md.data_type), rs = (size_t)L->src_stride * es;
    int in = tl__sr_dw_in(p), u8 = p->dst_md.data_type == TL_U8, xc = X->scale_stride == 1;
    tl_dim w = tl__sr_avx512() && X->size % 16 == 0 ? 16 : 8;
    tl__sr_runs u[3] = { tl__sr_one_run, tl__sr_one_run, tl__sr_one_run };
    if (sh->Q >= 0) u[0] = tl__sr_loop_runs(p, sh->Q, i, hi);
    if (sh->K2 >= 0) u[1] = tl__sr_loop_runs(p, sh->K2, i, hi);
    u[2].count = X->size / w;
    u[2].s = (size_t)w * es;
    u[2].d = (size_t)w * 4 * tl_dt_size(p->dst_md.data_type);
    u[2].c = w * X->scale_stride;
#if TL__SR_AVX512
    if (w == 16) {
        tl__sr16_dw_units(s, rs, d, u, next, in, u8, p->scales, sidx, xc);
        return;
    }
#endif
    tl__sr8_dw_units(s, rs, d, u, next, in, u8, p->scales, sidx, xc);
}
#endif

#if TL__SR_AVX2
/* One merged tile (TL__SR_TILE_ROWS) of nm rows by n values at s, to d;
   sidx: the scale of its first value. */
static void tl__sr_tile_rows(const tl_reorder_plan *p, const tl__sr_shape *sh, const char *s, char *d, tl_dim nm,
                             tl_dim n, tl_dim sidx)
{
    const tl_reorder_loop *lp = p->loops;
    int L = p->nloops - 1;
#if TL__SR_AVX512
    if (p->mode != TL_REORDER_MODE_COPY) {
        tl__sr_tsc t;
        tl__sr16_rows_convert(p->dst_md.data_type, s, (size_t)lp[L].src_stride * 4, d, sh->rows, nm, n,
                              sh->bf16n, tl__sr_tsc_of(p, sh, sh->K, 1, sidx, &t));
        return;
    }
    if (tl_dt_size(p->src_md.data_type) == 2) {
        tl__sr16_tile_rows2(s, (size_t)lp[L].src_stride * 2, d, sh->rows, nm, n, NULL);
        return;
    }
    /* 4-byte copies whose tile ends in a partial block of 16 M rows
       walk as the f32 conversions do (no scales): f32 oihw -> hwio
       256x256x3x3 (tiles of 774 and 756 rows, L 256) 207 -> 157 us
       on the Zen 5, where tl__sr16_tile_rows4 loading its last rows
       masked the same way ran as slow as with AVX2's blocks for them;
       whole blocks keep tl__sr16_tile_rows4 (oihw -> OIhw16i16o
       1.045x faster). Why the two walks of the same loads and stores
       differ is not known. */
    if (n % 16 == 0 && nm % 16 != 0 && tl__sr_avx512()) {
        tl__sr16_rows_to_f32(s, (size_t)lp[L].src_stride * 4, d, sh->rows, nm, n, NULL);
        return;
    }
    if (tl__sr_wide(d, 0, nm, n, 0) == 16) {
        tl__sr16_tile_rows4(s, (size_t)lp[L].src_stride * 4, d, sh->rows, nm, n, tl__sr_no_scales);
        return;
    }
#endif
    (void)sidx;                 /* tiles convert merged in AVX-512 only */
    tl__sr8_tile_rows4(s, (size_t)lp[L].src_stride * 4, d, sh->rows, nm, n, tl__sr_no_scales);
}
#endif

/* One step of the nest at iteration vector i (inner loops at their lo). */
static void tl__sr_step(const tl_reorder_plan *p, const tl__sr_shape *sh, const tl_dim *i,
                        const tl_dim *lo, const tl_dim *hi, const char *src, char *dst, const char *next)
{
    const tl_reorder_loop *lp = p->loops;
    int nl = p->nloops, L = nl - 1, l, es = (int)tl_dt_size(p->src_md.data_type);
    size_t dsz = tl_dt_size(p->dst_md.data_type);
    tl_dim so = p->src_md.offset0, dof = p->dst_md.offset0, n = hi[L] - lo[L];
    tl_dim nd = tl__sr_partial_block(p, sh, i);
    tl__sr_scales sc = tl__sr_no_scales;
    const char *s;
    char *d;
    sc.sc = p->scales;
    sc.sidx = 0;
    sc.sstep = lp[L].scale_stride;
    for (l = 0; l < nl; ++l) {
        so += i[l] * lp[l].src_stride;
        dof += i[l] * lp[l].dst_stride;
        sc.sidx += i[l] * lp[l].scale_stride;
    }
    s = src + (size_t)so * (size_t)es;
    d = dst + (size_t)dof * dsz;
    switch (sh->shape) {
    case TL__SR_RUN:
        if (sh->K >= 0) {
            tl__sr_runs rs = tl__sr_loop_runs(p, sh->K, i, hi);
            if (sh->tail == sh->K && hi[sh->K] == p->loops[sh->K].size)    /* loops[0]: a thread's range */
                rs.last = sh->tail_last;
            if (nd < TL__DIM_MAX) {
                /* streamed as the full blocks' runs are, where there are
                   any: the padded block's plain stores among them made
                   s8 -> f32 nhwc -> nChw16c 1024x100x7x7 (22 MB of dst)
                   1.2x slower; a padded block alone (an image's 3
                   channels, 8x3x224x224 u8 -> f32) ran 1.25x slower
                   streamed (Zen 4, in process) */
                if (sh->tail < L && p->loops[sh->tail].size > 1)
                    rs.nt = tl__sr_convert_streams(sh->stream, d, (size_t)n * dsz, rs, tl__sr_one_run);
                tl__sr_tail_runs(p, s, d, sc, rs, n, nd, src + p->src_hi);
            } else if (p->mode != TL_REORDER_MODE_COPY && sh->K3 >= 0) {
                tl__sr_convert_steps(p, sh, i, hi, s, d, sc, n, rs);
            } else if (p->mode != TL_REORDER_MODE_COPY) {
                tl__sr_convert_nest(p, sh, i, hi, s, d, sc, n, rs);
            } else if (sh->K2 < 0) {
                tl__sr_copy_runs(s, d, (size_t)n * (size_t)es, rs, tl__sr_one_run,
                                 tl__sr_runs_stream(sh, d, (size_t)n * (size_t)es, rs, rs.count * rs.d));
            } else if (!sh->src_order) {
                tl__sr_runs lv[TL_REORDER_MAX_LOOPS];
                int nlv = 0;
                for (l = sh->K2; l >= (sh->K3 >= 0 ? sh->K3 : sh->K2); --l)
                    if (l != sh->M) lv[nlv++] = tl__sr_loop_runs(p, l, i, hi);
                tl__sr_copy_nest(sh, s, d, (size_t)n * (size_t)es, rs, lv, nlv);
            } else {
                tl__sr_group g;
                g.n = (size_t)n * (size_t)es;
                g.rs = rs;
                g.s_end = src + p->src_hi;
                tl__sr_step_outer(p, sh, sh->K3 >= 0 ? sh->K3 : sh->K2, i, hi, s, d, &g);
            }
        } else if (p->mode == TL_REORDER_MODE_COPY) {
            memcpy(d, s, (size_t)n * (size_t)es);
        } else {
            tl__sr_convert_run(p, s, d, sc, n,
                               tl__sr_convert_streams(sh->stream, d, (size_t)n * dsz, tl__sr_one_run, tl__sr_one_run));
        }
        break;
    case TL__SR_TILE_COPY: {
        tl__sr_runs rs = tl__sr_one_run;
        if (nd < TL__DIM_MAX) {
            tl__sr_tail_tile(p, sh, s, d, hi[sh->M] - lo[sh->M], n, nd, src + p->src_hi);
            break;
        }
        if (sh->K3 >= 0) {
            tl__sr_group g;
            g.rs.next = next;
            g.ss = lp[L].src_stride;
            g.ds = lp[sh->M].dst_stride;
            g.nm = hi[sh->M] - lo[sh->M];
            g.nl = n;
            g.s_end = src + p->src_hi;
            tl__sr_step_outer(p, sh, sh->K3, i, hi, s, d, &g);
            break;
        }
        if (sh->K2 >= 0) rs = tl__sr_loop_runs(p, sh->K2, i, hi);
        rs.next = next;
        tl__sr_tile_copy(es, s, lp[L].src_stride, d, lp[sh->M].dst_stride, hi[sh->M] - lo[sh->M], n,
                         rs, tl__sr_one_run, sh, src + p->src_hi);
        break;
    }
#if TL__SR_AVX2
    case TL__SR_TILE_ROWS: {
        tl_dim nk = hi[sh->K] - i[sh->K] < sh->chunk ? hi[sh->K] - i[sh->K] : sh->chunk, j;
        tl__sr_runs J = sh->K2 >= 0 ? tl__sr_loop_runs(p, sh->K2, i, hi) : tl__sr_one_run;
        TL_ASSERT(lo[sh->M] == 0 && hi[sh->M] == lp[sh->M].size);
        for (j = 0; j < J.count; ++j)
            tl__sr_tile_rows(p, sh, s + (size_t)j * J.s, d + (size_t)j * J.d, lp[sh->M].size * nk, n,
                             sc.sidx + j * J.c);
        break;
    }
#endif
    case TL__SR_NARROW:
        tl__sr_narrow(es, s, lp[L].src_stride, d, lp[sh->M].dst_stride, hi[sh->M] - lo[sh->M], n,
                      src + p->src_hi, sh->stream && tl__sr_lines(d, (size_t)lp[sh->M].dst_stride * es));
        break;
#if TL__SR_AVX2
    case TL__SR_QUADS4: {
        tl__sr_runs J = sh->K2 >= 0 ? tl__sr_loop_runs(p, sh->K2, i, hi) : tl__sr_one_run;
        int nt = sh->stream && tl__sr_lines(d, J.d);
#if TL__SR_AVX512
        if (sh->q4->wide) {
            if (sh->q4->out >= TL__SR_Q4_F32) tl__sr_q4_scales(p, sh, sh->q4cv, sc.sidx);
            tl__sr16_quads4(sh->q4, s, d, J, sh->q4cv, nt);
            break;
        }
#endif
        if (sh->quads_back) tl__sr8_quads4_back(sh->q4, s, d, J);
        else tl__sr8_quads4(sh->q4, s, d, J, nt);
        break;
    }
#endif
    case TL__SR_TILE_CONVERT:
#if TL__SR_AVX512
        /* lone tiles' rows are 16 values, never the narrow ones whose
           padding tl__sr_pads_fused leaves to the step */
        if (sh->K2 >= 0 || sh->lone) {      /* tl__sr_tiles_convert_fits */
            tl__sr_tsc t;
            tl__sr_runs tiles = sh->K2 >= 0 ? tl__sr_loop_runs(p, sh->K2, i, hi) : tl__sr_one_run;
            tl__sr_runs g = sh->next >= 0 ? tl__sr_loop_runs(p, sh->next, i, hi) : tl__sr_one_run;
            tl__sr16_tiles_convert(p->src_md.data_type, p->dst_md.data_type, s,
                                   (size_t)lp[L].src_stride * (size_t)es, tiles, g, d,
                                   (size_t)lp[sh->M].dst_stride * dsz, hi[sh->M] - lo[sh->M], n, src + p->src_hi,
                                   sh->stream, sh->pf_rows, sh->bf16n, tl__sr_tsc_of(p, sh, sh->K2, 0, sc.sidx, &t));
            break;
        }
#endif
        tl__sr_convert_tiles(p, sh, s, d, sc, hi[sh->M] - lo[sh->M], n,
                             sh->next >= 0 ? tl__sr_loop_runs(p, sh->next, i, hi) : tl__sr_one_run);
        break;
    case TL__SR_COLUMNS:
        tl__sr_columns_step(p, sh, s, d, sc, hi[sh->M] - lo[sh->M]);
        break;
#if TL__SR_AVX2
    case TL__SR_DWORDS:
        tl__sr_dwords_step(p, sh, i, hi, s, d, sc.sidx, next);
        break;
#endif
    case TL__SR_BLOCKS: {
        simde__m128 stage_v[TL__SR_BLOCK * 4 / 16], scale_v[TL__SR_BLOCK / 4];
        tl_dim cnt = 1;
        if (sh->perm) {
            tl__sr_perm_step(p, sh->perm, s, d, sc.sidx);
            break;
        }
        for (l = sh->k + 1; l < nl; ++l) cnt *= lp[l].size;
        cnt *= hi[sh->k] - i[sh->k] < sh->chunk ? hi[sh->k] - i[sh->k] : sh->chunk;
        tl__sr_gather(es, s, sh->soff, (char *)(void *)stage_v, cnt);
        if (sh->scales_vary) {
            float *f = (float *)(void *)scale_v;
            tl_dim e;
            for (e = 0; e < cnt; ++e) f[e] = p->scales[sc.sidx + sh->coff[e]];
            sc.sc = f;
            sc.sidx = 0;
            sc.sstep = 1;
        } else {
            sc.sstep = 0;
        }
        tl__sr_convert_run(p, (const char *)(const void *)stage_v, d, sc, cnt, 0);
        break;
    }
    default:        /* nothing contiguous to exploit: the core's loop */
        if (p->mode == TL_REORDER_MODE_COPY)
            tl__copy_run(s, lp[L].src_stride, d, lp[L].dst_stride, (size_t)es, n);
        else
            tl__convert_run(p, s, lp[L].src_stride, d, lp[L].dst_stride, sc.sidx, sc.sstep, n);
        break;
    }
}

/* The per-call half of staged blocks pm (tl__sr_perm_pick chose them):
   their table in off (room for TL__SR_PBLOCK), then whichever way of
   moving them skips a stage on this CPU (rows: room for TL__SR_ROWS). */
static void tl__sr_perm_prepare(const tl_reorder_plan *p, tl__sr_perm *pm, uint16_t *off,
                                size_t *rows)
{
    (void)rows;                 /* SSE2 builds: no such ways */
    pm->off = off;
    tl__sr_perm_table(p, pm);
    tl__sr_perm_dense_init(pm);
#if TL__SR_AVX2
    tl__sr_perm_rows_init(pm, p, rows);
    tl__sr_perm_octs_init(pm, p, rows);
#endif
#if TL__SR_AVX512
    tl__sr_perm_zipsrc_init(pm, p, rows);
    if (!pm->nq) tl__sr_perm_onepass_init(pm, p, rows);
#endif
}

/* Moves the odometer i (loops walked inside a step left alone) to the
   next step; 0 past the last one. */
static int tl__sr_advance(tl_dim *i, const tl_dim *lo, const tl_dim *hi, const tl_dim *step,
                          const int *inner, int nl)
{
    int l;
    for (l = nl - 1; l >= 0; --l) {
        if (inner[l]) continue;
        if ((i[l] += step[l]) < hi[l]) return 1;
        i[l] = lo[l];
    }
    return 0;
}

/* Whether each step of shape sh prefetches the next step's tile: tiles
   whose source is a few short rows (the 8 or 16 channels of a 7x7 plane
   for nChw8c and nChw16c: 1.5 to 3 KiB), read from beyond the caches,
   into dst rows in 16s of bytes (which may stream). On the Zen 4, f32
   nchw -> nChw8c 1024x100x7x7 ran 1.04x faster with this (the 1.1x of
   the eighth session for nChw16c did not hold once a strip became a call
   of its own, tl__sr_strip_call). Into rows that cannot stream (nchw's
   196-byte planes), whose stores fetch their lines first, the tile's
   prefetches stalled the core: f32 nChw16c -> nchw 1024x100x7x7 1.1-1.3x
   slower (one process, 3-4 buffer placements). Larger tiles fetch the
   next step's source in shares instead (tl__sr_fetches_ahead). Merged
   and side-by-side tiles (TL__SR_TILE_ROWS, K2) have their own ways. */
#define TL__SR_PF_TILE 4096     /* bytes of source a prefetched tile spans at most */
static int tl__sr_prefetches_tiles(const tl_reorder_plan *p, const tl__sr_shape *sh)
{
    size_t es = tl_dt_size(p->src_md.data_type), dsz = tl_dt_size(p->dst_md.data_type);
    if (sh->M < 0 || sh->K2 >= 0 || sh->shape == TL__SR_TILE_ROWS || sh->shape == TL__SR_BLOCKS ||
        sh->shape == TL__SR_COLUMNS ||
        !TL__SR_SRC_FAR(p) || (size_t)p->loops[sh->M].dst_stride * dsz % 16 != 0)
        return 0;
    return (size_t)(p->loops[sh->M].size * p->loops[p->nloops - 1].size) * es <= TL__SR_PF_TILE;
}

/* Where the step at iteration vector i reads its source. */
static const char *tl__sr_step_src(const tl_reorder_plan *p, const tl_dim *i, const char *src)
{
    tl_dim so = p->src_md.offset0;
    int l;
    for (l = 0; l < p->nloops; ++l) so += i[l] * p->loops[l].src_stride;
    return src + (size_t)so * tl_dt_size(p->src_md.data_type);
}

/* Whether each step hands its transposes the next step's source to fetch
   ahead, spread over its last strip (tl__sr_runs.next): copied tiles
   from beyond the caches, too large for one burst of prefetches
   (tl__sr_prefetches_tiles); tl__sr_transpose_es takes it where the
   tile's rows are short. One strip of 116 or 128 channel rows of 361
   bytes (u8 nchw -> nhwc 256x116x19x19) walks 116 streams at once, 16
   or 32 bytes each, which the hardware prefetchers did not follow
   (Zen 4: 1.75x, and 2.5x for 128 channels, with this). Dwords of
   four rows take it too from TL__SR_PF_ROWS_MIN of f32 source on: a
   step's 16 rows of 1 KiB (hwio's 256 o's) are too short for the
   hardware's prefetchers (512x512x3x3, 9.4 MB, 1.4x faster; 2.4 MB no
   faster; 64x64x3x3 and s8, whose units read 16 bytes of each line,
   slower). */
static int tl__sr_fetches_ahead(const tl_reorder_plan *p, const tl__sr_shape *sh)
{
    if (sh->shape == TL__SR_DWORDS) return tl_dt_size(p->src_md.data_type) == 4 && p->src_hi - p->src_lo >= TL__SR_PF_ROWS_MIN;
    return sh->shape == TL__SR_TILE_COPY && sh->M >= 0 && sh->tail < 0 &&
           TL__SR_SRC_FAR(p) && !tl__sr_prefetches_tiles(p, sh);
}

/* The source of the tile at s on its way into L1: its L rows of M
   values, as one range where they follow one another (inlined: see
   tl__sr_prefetch_rows). */
TL__SR_INLINE void tl__sr_prefetch_tile(const tl_reorder_plan *p, const tl__sr_shape *sh, const char *s)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    size_t es = tl_dt_size(p->src_md.data_type), row = (size_t)p->loops[sh->M].size * es;
    size_t rs = (size_t)L->src_stride * es;
    if (rs == row) tl__sr_prefetch_rows(s, rs, row * (size_t)L->size, 1, 0);
    else tl__sr_prefetch_rows(s, rs, row, L->size, 0);
}

/* The kernel behind every plan tl__simd_reorder_pick accepts: iterations
   [begin, end) of loops[0], all others complete, in the shape picked (by
   tl__sr_pick_shape: tl__sr_kernel below, or the plans with tails, which
   look at it first). An odometer walks the loops a step leaves out (all
   but L, M or the block's). */
static void tl__sr_kernel_shaped(const tl_reorder_plan *p, const tl__sr_shape *picked, const void *src,
                                 void *dst, tl_dim begin, tl_dim end, int pad)
{
    int nl = p->nloops, L = nl - 1, l;
    tl_dim lo[TL_REORDER_MAX_LOOPS], hi[TL_REORDER_MAX_LOOPS], i[TL_REORDER_MAX_LOOPS];
    tl_dim step[TL_REORDER_MAX_LOOPS], next[TL_REORDER_MAX_LOOPS];
    int inner[TL_REORDER_MAX_LOOPS], pf, ahead;
    int32_t soff[TL__SR_BLOCK], coff[TL__SR_BLOCK];
    size_t rows[TL__SR_ROWS];
    uint16_t poff[TL__SR_PBLOCK];
    tl__sr_shape sh;
    tl__sr_perm pm;
    tl__sr_q4 q4;
    tl__sr_q4cv q4cv;
    if (begin >= end) return;
    sh = *picked;
    sh.pad = pad;               /* then the widening tile must stay */
    sh.bf16n = tl__sr_avx512bf16();
    if (!pad && sh.tail < 0 && tl__sr_perm_pick(p, &sh, &pm, begin, end)) {
        tl__sr_perm_prepare(p, &pm, poff, rows);
        sh.shape = TL__SR_BLOCKS;
        sh.M = -1;
        sh.k = pm.k;
        sh.chunk = pm.chunk;
        sh.perm = &pm;
    }
    for (l = 0; l < nl; ++l) {
        lo[l] = 0;
        hi[l] = p->loops[l].size;
        step[l] = 1;
        inner[l] = sh.shape == TL__SR_BLOCKS ? l > sh.k
                 : sh.shape == TL__SR_COLUMNS ? l > sh.k || l == sh.M
                 : sh.shape == TL__SR_DWORDS ? l == L || l == sh.K || l == sh.K2 || l == sh.Q
                 : l == L || l == sh.M || ((sh.shape == TL__SR_RUN || sh.shape == TL__SR_QUADS4) && l == sh.K) ||
                   l == sh.K2 || l == sh.Q || l == sh.next || (sh.K3 >= 0 && l >= sh.K3 && l < sh.K2);
    }
    if (sh.shape == TL__SR_QUADS4) {
        tl__sr_q4_init(p, &sh, &q4);
        sh.q4 = &q4;
        if (q4.out >= TL__SR_Q4_F32) tl__sr_q4cv_init(p, &sh, &q4cv);
        sh.q4cv = &q4cv;
    }
    if (sh.shape == TL__SR_TILE_ROWS) {
        tl_dim nm = p->loops[sh.M].size, r;
        size_t es = tl_dt_size(p->dst_md.data_type);
        step[sh.K] = sh.chunk;
        for (r = 0; r < nm * sh.chunk; ++r)
            rows[r] = (size_t)(r / nm * p->loops[sh.K].dst_stride + r % nm * p->loops[sh.M].dst_stride) * es;
        sh.rows = rows;
    }
    if (sh.shape == TL__SR_BLOCKS && sh.perm) {
        step[sh.k] = sh.chunk;
    } else if (sh.shape == TL__SR_BLOCKS || sh.shape == TL__SR_COLUMNS) {  /* the block's (columns') offsets */
        tl_dim n[TL_REORDER_MAX_LOOPS], at = 0;
        for (l = 0; l < nl; ++l) n[l] = p->loops[l].size;
        if (sh.chunk < n[sh.k]) n[sh.k] = sh.chunk;
        sh.soff = soff;
        sh.coff = coff;
        tl__sr_offsets(p, sh.k, n, 0, 0, soff, coff, &at);
        step[sh.k] = sh.chunk;
    }
    lo[0] = begin;
    hi[0] = end;
    pf = tl__sr_prefetches_tiles(p, &sh);
    ahead = tl__sr_fetches_ahead(p, &sh);
    for (l = 0; l < nl; ++l) i[l] = lo[l];
    for (;;) {
        const char *nx = NULL;     /* the next step's source */
        if (pf || ahead) {
            /* only the plan's loops: a memcpy of the whole array became
               a rep movsq each step, which held streamed stores back
               (f32 nhwc shuffled in 3 groups, a step a pixel: 2.4x) */
            for (l = 0; l < nl; ++l) next[l] = i[l];
            if (tl__sr_advance(next, lo, hi, step, inner, nl)) nx = tl__sr_step_src(p, next, (const char *)src);
        }
        if (pf && nx) tl__sr_prefetch_tile(p, &sh, nx);
        tl__sr_step(p, &sh, i, lo, hi, (const char *)src, (char *)dst, ahead ? nx : NULL);
        if (!tl__sr_advance(i, lo, hi, step, inner, nl)) break;
    }
    if (sh.stream) simde_mm_sfence();   /* streamed stores visible before return */
}

static void tl__sr_kernel(const tl_reorder_plan *p, const void *src, void *dst, tl_dim begin,
                          tl_dim end, int pad)
{
    tl__sr_shape sh;
    if (begin >= end) return;
    tl__sr_pick_shape(p, &sh);
    tl__sr_kernel_shaped(p, &sh, src, dst, begin, end, pad);
}

static void tl__simd_reorder_kernel(const tl_reorder_plan *p, const void *src,
                                    void *dst, tl_dim begin, tl_dim end)
{
    tl__sr_kernel(p, src, dst, begin, end, 0);
}

/* A thread's range of loops[0], cut at the bounds of the chunks that
   blocks staged in source order take when loops[0] joins them
   (tl__sr_perm_block): the middle still goes by blocks, only the ends
   another way (f32 -> bf16 nchw -> nhwc 1x3x1080x1920, two threads: no
   faster than one before, both halves going the other way). */
static void tl__simd_reorder_chunked_kernel(const tl_reorder_plan *p, const void *src,
                                            void *dst, tl_dim begin, tl_dim end)
{
    tl_dim c, b, e;
    tl__sr_block_loops(p, 1, tl__sr_pblock(p), &c);
    b = (begin + c - 1) / c * c;
    e = end / c * c;
    if (b >= e) b = e = end;    /* no whole chunk: all of it the other way */
    tl__sr_kernel(p, src, dst, begin, b, 0);
    tl__sr_kernel(p, src, dst, b, e, 0);
    tl__sr_kernel(p, src, dst, e, end, 0);
}

/* Whether threads will share loops[0] of a plan whose blocks staged in
   source order take it: each call of a kernel costs about a
   microsecond, so only these plans get the cut ranges above. */
static int tl__sr_chunked(const tl_reorder_plan *p)
{
    tl__sr_shape sh;
    tl__sr_perm pm;
    tl_dim c;
    if (p->attr.nthreads < 2 || p->nelems < TL__OMP_MIN_WORK ||
        tl__sr_block_loops(p, 1, tl__sr_pblock(p), &c) != 0)
        return 0;
    tl__sr_pick_shape(p, &sh);
    return tl__sr_perm_pick(p, &sh, &pm, 0, p->loops[0].size);
}

/* ---- simd: plans with tails -------------------------------------------
   A dim whose blocks do not divide it (3 channels in nChw16c, 20 in
   OIhw16i16o) has loops that run into its padding: the core checks every
   point. Here the nest is cut into boxes (a range of each loop) in which
   every point is data, every one padding, or every one outside dst.
   Data boxes are plans without tails of their own, which the kernel
   above moves as usual; padding boxes are zeroed; the rest is skipped.
   A dim's loops are digits of its index (weights decreasing, each inner
   digit's whole range below the next weight), so the points of a box
   below a limit T are: the box's outer digit below T's, or equal to it
   and the inner digits below the rest of T, recursively (at most 2 boxes
   a digit). loops[0] is walked in ranges of about TL__SR_TAIL_CHUNK
   bytes of dst, each cut into its boxes, so that the data and padding of
   a range share the caches (1x3x224x224 nchw -> nChw16c: 2048 pixels). */
#ifndef TL__SR_TAIL_CHUNK
#define TL__SR_TAIL_CHUNK (128 << 10)
#endif
#define TL__SR_TAIL_LOOPS 8     /* loops of dims with tails a plan may have */
#define TL__SR_MAX_BOXES 256

enum { TL__SR_BOX_DATA, TL__SR_BOX_PAD, TL__SR_BOX_OUT };

/* The ranges of the loops with tails (the other loops are whole). */
typedef struct {
    tl_dim lo[TL__SR_TAIL_LOOPS], hi[TL__SR_TAIL_LOOPS];
    int kind;                   /* TL__SR_BOX_* */
} tl__sr_box;

/* The loops of dims with tails, dim by dim, each dim's outermost first. */
typedef struct {
    int n, loop[TL__SR_TAIL_LOOPS];
    int ndims, dim[TL_MAX_NDIMS], first[TL_MAX_NDIMS + 1];  /* dim k: loop[first[k]..first[k+1]) */
} tl__sr_tails;

/* Fills t; 0 when there are more such loops than it holds, or a dim's
   loops are not digits (each one's weight above all that the loops
   inside it add), or a range could cut into more than TL__SR_MAX_BOXES
   boxes: nl (2 nl + 1) for a dim of nl loops (nl below its data limit,
   nl above, each cut again at the padding limit). */
static int tl__sr_tails_init(const tl_reorder_plan *p, tl__sr_tails *t)
{
    int d, l, j;
    tl_dim bound = 1;
    t->n = t->ndims = 0;
    for (d = 0; d < p->dst_md.ndims; ++d) {
        tl_dim inner = 0;
        int nl;
        t->first[t->ndims] = t->n;
        for (l = 0; l < p->nloops; ++l) {
            if (p->loops[l].dim != d) continue;
            if (t->n == TL__SR_TAIL_LOOPS) return 0;
            t->loop[t->n++] = l;
        }
        if ((nl = t->n - t->first[t->ndims]) == 0) continue;
        for (j = t->n - 1; j >= t->first[t->ndims]; --j) {
            const tl_reorder_loop *lp = &p->loops[t->loop[j]];
            if (lp->weight <= inner) return 0;
            inner += (lp->size - 1) * lp->weight;
        }
        bound *= nl * (2 * nl + 1);
        if (bound > TL__SR_MAX_BOXES) return 0;
        t->dim[t->ndims++] = d;
    }
    t->first[t->ndims] = t->n;
    return 1;
}

/* b's ranges (those of t's loops) and kind into o, a value at a time:
   whole boxes (136 bytes) copied right after one of their values was
   stored missed store forwarding, and cutting the boxes of a plan with
   one tail loop took half of its call (f32 nchw -> nChw16c 1x1000x1x1:
   0.25 -> 0.17 us a call, Zen 4). */
static void tl__sr_box_copy(const tl__sr_tails *t, const tl__sr_box *b, tl__sr_box *o)
{
    int j;
    for (j = 0; j < t->n; ++j) {
        o->lo[j] = b->lo[j];
        o->hi[j] = b->hi[j];
    }
    o->kind = b->kind;
}

/* Appends b, its loop j's range [a, e) and of the given kind, to
   out[*n] unless that leaves it empty. */
static void tl__sr_box_add(const tl__sr_tails *t, const tl__sr_box *b, int j, tl_dim a, tl_dim e, int kind,
                           tl__sr_box *out, int *n)
{
    int i;
    if (a >= e) return;
    for (i = 0; i < t->n; ++i)
        if (b->lo[i] >= b->hi[i]) return;
    TL_ASSERT(*n < TL__SR_MAX_BOXES);   /* tl__sr_tails_init bounds the count */
    tl__sr_box_copy(t, b, &out[*n]);
    out[*n].lo[j] = a;
    out[*n].hi[j] = e;
    out[(*n)++].kind = kind;
}

/* Cuts box in at index limit x of dim k (its loops j0..j1 of t): the
   part below x keeps its kind, the rest becomes `above` (a kind above
   it). */
static void tl__sr_box_cut(const tl_reorder_plan *p, const tl__sr_tails *t, int k, const tl__sr_box *in,
                           tl_dim x, int above, tl__sr_box *out, int *n)
{
    int j, j1 = t->first[k + 1];
    tl__sr_box b;
    tl__sr_box_copy(t, in, &b);
    for (j = t->first[k]; j < j1; ++j) {
        tl_dim w = p->loops[t->loop[j]].weight, a = b.lo[j], e = b.hi[j];
        /* digits below c lie wholly below x; those above c (the last
           digit: from c on) wholly above */
        tl_dim c = x <= 0 ? 0 : j + 1 < j1 ? x / w : (x - 1) / w + 1;
        int last = j + 1 == j1 || x <= 0;
        tl__sr_box_add(t, &b, j, a, c < e ? c : e, b.kind, out, n);
        tl__sr_box_add(t, &b, j, last ? (c > a ? c : a) : (c + 1 > a ? c + 1 : a), e, above, out, n);
        if (last || c < a || c >= e) return;
        b.lo[j] = c;            /* the digit equal to x's: on to the next */
        b.hi[j] = c + 1;
        x -= c * w;
    }
}

/* Cuts boxes[0..*n) at data_limit and pad_limit of every dim with tails,
   each pass from one array into the other: the passes come in pairs, so
   the boxes end in `boxes`. */
static void tl__sr_boxes(const tl_reorder_plan *p, const tl__sr_tails *t, tl__sr_box *boxes,
                         int *n, tl__sr_box *tmp)
{
    tl__sr_box *from = boxes, *to = tmp, *was;
    int k, pass, i, m;
    for (k = 0; k < t->ndims; ++k)
        for (pass = 0; pass < 2; ++pass) {
            int d = t->dim[k];
            for (i = 0, m = 0; i < *n; ++i) {
                if (from[i].kind == TL__SR_BOX_OUT || (pass == 0 && from[i].kind == TL__SR_BOX_PAD))
                    tl__sr_box_copy(t, &from[i], &to[m++]);     /* nothing left to cut at this limit */
                else
                    tl__sr_box_cut(p, t, k, &from[i], pass ? p->pad_limit[d] : p->data_limit[d],
                                   pass ? TL__SR_BOX_OUT : TL__SR_BOX_PAD, to, &m);
            }
            was = from;
            from = to;
            to = was;
            *n = m;
        }
    TL_ASSERT(from == boxes);
}

/* q (a copy of p) restricted to box b and range [b0, e0) of loops[0],
   without tails: each loop's start moved into the offsets and the
   scales pointer, loops of one iteration left out. Returns 0 when that
   leaves no point (loops[0] has tails, and none in this range). */
static int tl__sr_box_plan(const tl_reorder_plan *p, const tl__sr_tails *t, const tl__sr_box *b,
                            tl_dim b0, tl_dim e0, tl_reorder_plan *q)
{
    int l, j, n = 0;
    q->src_md.offset0 = p->src_md.offset0;
    q->dst_md.offset0 = p->dst_md.offset0;
    q->scales = p->scales;
    for (l = 0; l < p->nloops; ++l) {
        tl_reorder_loop lp = p->loops[l];
        tl_dim lo = l == 0 ? b0 : 0, hi = l == 0 ? e0 : lp.size;
        for (j = 0; j < t->n; ++j)
            if (t->loop[j] == l) {
                lo = lo > b->lo[j] ? lo : b->lo[j];
                hi = hi < b->hi[j] ? hi : b->hi[j];
            }
        q->src_md.offset0 += lo * lp.src_stride;
        q->dst_md.offset0 += lo * lp.dst_stride;
        if (q->scales) q->scales += lo * lp.scale_stride;
        if (hi <= lo) return 0;
        lp.size = hi - lo;
        lp.dim = -1;
        if (lp.size > 1 || (n == 0 && l == p->nloops - 1)) q->loops[n++] = lp;
    }
    q->nloops = n;
    q->has_tails = 0;
    return 1;
}

/* Writes zero to every dst element of the tail-free plan q: runs of the
   innermost loop where it is dense, the loop outside it too in one step
   (copied from zeros), else element by element. */
static void tl__sr_zero_plan(const tl_reorder_plan *q, char *dst)
{
    static const char zeros[TL__SR_SHORT_RUN] = { 0 };
    size_t dsz = tl_dt_size(q->dst_md.data_type);
    int L = q->nloops - 1, inner = q->loops[L].dst_stride == 1 ? (L > 0 ? 2 : 1) : 0, l;
    tl_dim i[TL_REORDER_MAX_LOOPS], k;
    size_t run = inner ? (size_t)q->loops[L].size * dsz : dsz;
    tl__sr_runs rs = tl__sr_one_run;
    if (inner == 2) {
        rs.count = q->loops[L - 1].size;
        rs.d = (size_t)q->loops[L - 1].dst_stride * dsz;
    }
    for (l = 0; l <= L; ++l) i[l] = 0;
    for (;;) {
        tl_dim off = q->dst_md.offset0;
        char *d;
        for (l = 0; l <= L; ++l) off += i[l] * q->loops[l].dst_stride;
        d = dst + (size_t)off * dsz;
        if (run < sizeof zeros)
            tl__sr_copy_runs(zeros, d, run, rs, tl__sr_one_run, 0);
        else
            for (k = 0; k < rs.count; ++k) memset(d + (size_t)k * rs.d, 0, run);
        for (l = L - inner; l >= 0; --l) {
            if (++i[l] < q->loops[l].size) break;
            i[l] = 0;
        }
        if (l < 0) return;
    }
}

/* Whether the data box may write the padding box too, as zeros in the
   same pass (tl__sr_widen_es's pad): p's one dim with tails is its
   innermost loop, dense in dst, with one padding box, lines of 4 bytes
   or more (the 3 channels of an image into nChw16c: 12 bytes of data and
   52 of padding a pixel, written in two passes before; into s8 nChw4c
   or nChw8c, 3 bytes and 1 or 5, whose second pass cost 3-12x). Under 4
   bytes each pixel's vector would rewrite 4 or more pixels. Checked once
   per call; tl__sr_pads_fused then checks each range's data plan. */
static int tl__sr_pads_may_fuse(const tl_reorder_plan *p, const tl__sr_tails *t,
                                const tl__sr_box *boxes, int n)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1];
    int b, pads = 0;
    for (b = 0; b < n; ++b) pads += boxes[b].kind == TL__SR_BOX_PAD;
    return pads == 1 && t->n == 1 && t->loop[0] == p->nloops - 1 && L->dst_stride == 1 &&
           (size_t)L->size * tl_dt_size(p->dst_md.data_type) >= 4;
}

/* Whether the data plan q (of p, which tl__sr_pads_may_fuse accepted;
   sh: q's shape) is a widening tile whose dst rows are the tail loop's
   whole lines, copied or converted through the stage
   (tl__sr_convert_tile_narrow). */
static int tl__sr_pads_fused(const tl_reorder_plan *p, const tl_reorder_plan *q, const tl__sr_shape *sh)
{
    const tl_reorder_loop *L = &p->loops[p->nloops - 1], *qL = &q->loops[q->nloops - 1];
    size_t es = tl_dt_size(p->dst_md.data_type);
    return qL->dst_stride == 1 && qL->src_stride == L->src_stride && qL->size < L->size &&
           (sh->shape == TL__SR_TILE_COPY || (sh->shape == TL__SR_TILE_CONVERT && sh->K2 < 0)) &&
           tl__sr_tile_widens(qL->size, es) && q->loops[sh->M].dst_stride == L->size;
}

/* p into q but for the loops past p's (tl__sr_box_plan's use no more):
   the whole plan, 3.6 KB, took a tenth of a small call's time (f32
   nchw -> nChw16c 1x1000x1x1). */
static void tl__sr_plan_copy(const tl_reorder_plan *p, tl_reorder_plan *q)
{
    size_t loops = offsetof(tl_reorder_plan, loops), rest = offsetof(tl_reorder_plan, has_tails);
    memcpy(q, p, loops + (size_t)p->nloops * sizeof p->loops[0]);
    memcpy((char *)q + rest, (const char *)p + rest, sizeof *q - rest);
}

/* The kernel of plans with tails (tl__sr_tails_init accepted them). */
static void tl__simd_reorder_tails_kernel(const tl_reorder_plan *p, const void *src, void *dst,
                                          tl_dim begin, tl_dim end)
{
    tl__sr_box boxes[TL__SR_MAX_BOXES], tmp[TL__SR_MAX_BOXES];
    tl__sr_tails t;
    tl_reorder_plan q;
    size_t line = (size_t)p->loops[0].dst_stride * tl_dt_size(p->dst_md.data_type);
    tl_dim step = line >= TL__SR_TAIL_CHUNK ? 1 : (tl_dim)(TL__SR_TAIL_CHUNK / (line ? line : 1)), b0;
    int j, n, b, may_fuse;
    if (begin >= end) return;
    if (!tl__sr_tails_init(p, &t)) {
        TL_ASSERT(0);           /* tl__simd_reorder_pick checked this plan */
        return;
    }
    tl__sr_plan_copy(p, &q);
    /* the boxes span whole loops; each range of loops[0] clips them */
    for (j = 0; j < t.n; ++j) {
        boxes[0].lo[j] = 0;
        boxes[0].hi[j] = p->loops[t.loop[j]].size;
    }
    boxes[0].kind = TL__SR_BOX_DATA;
    n = 1;
    tl__sr_boxes(p, &t, boxes, &n, tmp);
    may_fuse = tl__sr_pads_may_fuse(p, &t, boxes, n);
    /* each range's data boxes, then its padding boxes: where they may fuse,
       the one data box's shape decides whether its pass zeroes the padding */
    for (b0 = begin; b0 < end; b0 += step) {
        tl_dim e0 = end - b0 < step ? end : b0 + step;
        int fused = 0, kind;
        for (kind = TL__SR_BOX_DATA; kind <= TL__SR_BOX_PAD; ++kind)
            for (b = 0; b < n; ++b) {
                tl__sr_shape sh;
                if (boxes[b].kind != kind || (fused && kind == TL__SR_BOX_PAD) ||
                    !tl__sr_box_plan(p, &t, &boxes[b], b0, e0, &q))
                    continue;
                if (kind == TL__SR_BOX_PAD) {
                    tl__sr_zero_plan(&q, (char *)dst);
                    continue;
                }
                tl__sr_pick_shape(&q, &sh);
                fused = may_fuse && tl__sr_pads_fused(p, &q, &sh);
                tl__sr_kernel_shaped(&q, &sh, src, dst, 0, q.loops[0].size, fused);
            }
    }
}

/* Loop l cut into blocks of inner iterations (inner divides its size):
   the loop over the blocks, which goes outside the one within them. */
static tl_reorder_loop tl__sr_loop_blocks(tl_reorder_loop l, tl_dim inner)
{
    l.size /= inner;
    l.src_stride *= inner;
    l.dst_stride *= inner;
    l.scale_stride *= inner;
    l.comp_stride *= inner;
    return l;
}

/* The core hands each thread a range of loops[0]. When that loop is too
   short to share evenly (the 3 channels of a camera frame, the 9 taps of
   oihw -> hwio), the largest loop is split in two and its outer part, 8
   to 64 iterations per thread, becomes loops[0]. Its inner part keeps
   at least 256 iterations, unless loops[0] itself may be a tile's (stride
   1 on either side: the 9 taps of oihw -> hwio, 256x256x3x3 slower on
   two threads than on one, 14.5 against 23 GB/s on the Zen 4) and the
   loop split is not (neither stride 1 nor innermost): that one only
   walks tiles, and keeps 8 (a loop of 16 cut into 16 x 1 took tiny
   weights off their staged blocks). The points and their offsets are
   unchanged; plans with tails are never split (their bounds follow loop
   order). */
static void tl__sr_balance(tl_reorder_plan *plan)
{
    int nt = plan->attr.nthreads, big = 0, l, inner;   /* inner: big keeps 256 iterations, else 8 */
    tl_dim f, size;
    if (nt < 2 || plan->loops[0].size >= 8 * (tl_dim)nt || plan->nloops >= TL_REORDER_MAX_LOOPS)
        return;
    for (l = 1; l < plan->nloops; ++l)
        if (plan->loops[l].size > plan->loops[big].size) big = l;
    size = plan->loops[big].size;
    inner = big == plan->nloops - 1 || plan->loops[big].src_stride == 1 || plan->loops[big].dst_stride == 1 ||
            (plan->loops[0].src_stride != 1 && plan->loops[0].dst_stride != 1);
    for (f = 8 * (tl_dim)nt; f <= 64 * (tl_dim)nt; f *= 2)
        if (size % f == 0 && size / f >= (inner ? 256 : 8)) break;
    if (big == 0 || f > 64 * (tl_dim)nt) return;
    {
        tl_reorder_loop outer = tl__sr_loop_blocks(plan->loops[big], size / f);
        plan->loops[big].size = size / f;
        for (l = plan->nloops; l > 0; --l) plan->loops[l] = plan->loops[l - 1];
        plan->loops[0] = outer;
        ++plan->nloops;
    }
}

/* tl__sr_lines_inside's limits: the source bytes a pass over G must
   span (beyond them L2 serves the passes; hwio -> OIhw16i16o 64x64x3x3
   and io -> OI16i16o 256x256, 150-260 KB, ran 1.08x slower moved), the
   fewest bytes of a source row G and the runs make up (nhwc ->
   nChw16c's pixels of 64 channels, 256 bytes, 1.3x slower moved: the
   prefetchers follow their stride), the bytes a block of G's rows reads
   at most whole, and, where R is cut, at least (nhwc -> nChw16c
   1x256x56x56 in blocks of 8 KiB 1.15x slower than in dst order, of 16
   KiB 1.03x, of 32 KiB as fast) and at most. */
#define TL__SR_LINES_SPAN ((size_t)512 << 10)
#define TL__SR_LINES_ROW 1024
#define TL__SR_LINES_WHOLE 32768
#define TL__SR_LINES_BLOCK 65536

/* How many of R's rows (rb bytes of G.size runs each) a block of
   tl__sr_lines_inside takes: all, where they read TL__SR_LINES_WHOLE
   bytes or fewer, else the fewest (8 or more, dividing R) that read
   that much, at most TL__SR_LINES_BLOCK bytes; 0: none fits, or runs
   of whole lines in rows under 2 KiB would be cut (f32 nhwc -> nChw16c
   1x256x56x56 ran 0.9x cut; each line is read once in dst's order too,
   where runs under a line read theirs again). */
static tl_dim tl__sr_lines_rows(tl_dim g, const tl_reorder_loop *R, size_t rb)
{
    size_t row = (size_t)g * rb;
    tl_dim rows;
    if ((size_t)R->size * row <= TL__SR_LINES_WHOLE) return R->size;
    if (rb % 64 == 0 && row < 2 * TL__SR_LINES_ROW) return 0;
    for (rows = 8; rows < R->size && (R->size % rows != 0 || (size_t)rows * row < TL__SR_LINES_WHOLE); ++rows)
        ;
    return rows <= R->size && (size_t)rows * row <= TL__SR_LINES_BLOCK ? rows : 0;
}

/* Runs (loop L) whose neighbours in the source lie in a loop G
   further out than the runs' rows (loop K, R): the 16 output channels
   of hwio -> OIhw16i16o, a block a 64-byte piece of 16 source rows of
   1 KiB, its neighbour 36 KiB on in dst. In dst's order each pass over
   G reads a piece of every source row, the source beyond L2 read again
   from L3 for every iteration of G (256x256x3x3 at 0.68 of memcpy; Zen
   4), runs under a line reading each line as many times. G moved next
   outside K (R cut into blocks of rows outside G where G and R together
   would read too much, tl__sr_lines_rows), a block's rows are read
   whole, from L1 after G's first piece, and dst is written a run of G's
   blocks at a time, each in order (Zen 4, tlbench, one thread): f32
   512x512x3x3 1.5x, io -> OI16i16o 1024x1024 2.5x, nhwc -> nChw16c
   1x1024x28x28 1.3x; runs of 32 bytes (f32 OIhw8i8o 256x256x3x3) 2.3x,
   16 (bf16 OIhw8i8o 512x512x3x3) 2.9x, 8 (s8 OIhw8i8o 1024x1024x3x3,
   s8 nhwc -> nChw8c 1x1024x56x56) 3-4x. Conversions too, whose loops
   carry their scales along: f32 -> s8 OIhw16i16o 512x512x3x3 1.4x,
   per-O 1.7x, f32 -> bf16 io -> OI16i16o 1024x1024 2x, s8 -> f32 nhwc
   -> nChw16c 1x1024x28x28 1.4x. Plans without tails or compensation. */
static void tl__sr_lines_inside(tl_reorder_plan *plan)
{
    int K = plan->nloops - 2, g, l;
    const tl_reorder_loop *L = &plan->loops[K + 1];
    size_t rb = (size_t)L->size * tl_dt_size(plan->src_md.data_type), span;
    tl_reorder_loop G, R;
    tl_dim rows;
    if (plan->has_tails || plan->comp_offset || K < 1 || plan->nloops >= TL_REORDER_MAX_LOOPS ||
        L->src_stride != 1 || L->dst_stride != 1 || plan->loops[K].dst_stride != L->size)
        return;
    R = plan->loops[K];
    for (g = K - 1; g >= 0; --g) {
        G = plan->loops[g];
        for (span = (size_t)G.size * rb, l = g + 1; l <= K; ++l) span *= (size_t)plan->loops[l].size;
        if (G.src_stride != L->size || G.size * L->size > R.src_stride || (size_t)G.size * rb < TL__SR_LINES_ROW ||
            span < TL__SR_LINES_SPAN || (rows = tl__sr_lines_rows(G.size, &R, rb)) == 0)
            continue;
        if (rows == R.size && g == K - 1) return;       /* in place already */
        for (l = g; l < K - 1; ++l) plan->loops[l] = plan->loops[l + 1];
        plan->loops[K - 1] = G;
        if (rows < R.size) {        /* R's blocks outside G, its rows inside */
            plan->loops[K + 2] = *L;
            plan->loops[K + 1] = R;
            plan->loops[K + 1].size = rows;
            plan->loops[K] = G;
            plan->loops[K - 1] = tl__sr_loop_blocks(R, rows);
            ++plan->nloops;
        }
        return;
    }
}

/* Called by tl_reorder_plan_init on every valid plan: takes the plans
   the kernel above covers, leaves the rest to the scalar kernel. */
static void tl__simd_reorder_pick(tl_reorder_plan *plan)
{
    tl_data_type st = plan->src_md.data_type, dt = plan->dst_md.data_type;
    size_t es = tl_dt_size(st);
    tl__sr_tails tails;
    if (plan->src_by_index || plan->nloops < 1 || (plan->has_tails && !tl__sr_tails_init(plan, &tails))) return;
    if (plan->mode == TL_REORDER_MODE_COPY) {
        if (es != 1 && es != 2 && es != 4 && es != 8) return;
    } else if (plan->mode != TL_REORDER_MODE_CONVERT || !tl__sr_dt_ok(st) || !tl__sr_dt_ok(dt)) {
        return;
    }
    if (plan->has_tails) {
        tl__sr_shape sh;
        tl__sr_pick_shape(plan, &sh);
        plan->kernel = sh.tail >= 0 ? tl__simd_reorder_kernel : tl__simd_reorder_tails_kernel;
        return;
    }
    tl__sr_lines_inside(plan);
    tl__sr_balance(plan);
    plan->kernel = tl__sr_chunked(plan) ? tl__simd_reorder_chunked_kernel : tl__simd_reorder_kernel;
}

/* ---- simd: shuffle kernels ------------------------------------------- */
/* Per pixel, a shuffle transposes a (C/G) x G matrix of channels. With G a
   small power of two that is an unzip (deinterleave) of G streams; with
   C/G one, a zip (interleave) of C/G streams. Both are built from a single
   zip of two 128-bit vectors: SSE2 is native on every x86-64 without extra
   compiler flags, and its unpacks (plus shufps) are all the kernels need.
   Only bits are moved, so the result equals the scalar core's. The same
   kernels serve channels-last (the axis innermost, stride 1) and blocked
   layouts whose one inner block is the axis (nChw8c, nChw16c): there a
   vector is read inside a channel block, or in two pieces where it
   crosses one. */
#include <simde/x86/sse2.h>

/* The kernels are instantiated below for every element size and stream
   count. Inlined with those constants and fully unrolled, the (un)zip
   stages keep their vectors in registers: 2-2.5x the speed of the same
   loops left rolled, which GCC -O2 does not unroll on its own. */
#if defined(TL__SIMD_UNFORCED)            /* see TL__SR_INLINE */
#define TL__SHUF_INLINE static __inline__
#elif defined(__GNUC__) || defined(__clang__)
#define TL__SHUF_INLINE static __inline__ __attribute__((always_inline))
#else
#define TL__SHUF_INLINE static
#endif
#if defined(TL__SIMD_UNFORCED)            /* see TL__SR_UNROLL */
#define TL__SHUF_UNROLL
#elif defined(__clang__)
#define TL__SHUF_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define TL__SHUF_UNROLL _Pragma("GCC unroll 16")
#else
#define TL__SHUF_UNROLL
#endif

/* Where a vector of channels lies relative to a pixel, in bytes. */
typedef struct {
    tl_dim off, off2;   /* off2: the next channel block, when split < V */
    int    split;       /* elements before the block boundary; V: whole */
} tl__shuf_slot;

#ifndef TL__SHUF_TILE_BYTES
#define TL__SHUF_TILE_BYTES (256 << 10)  /* blocked: bytes of all streams'
                                            blocks that one tile moves */
#endif
#define TL__SHUF_GROUP 4          /* chunks (16 bytes per stream) that fill
                                     a 64-byte cache line */
#ifndef TL__SHUF_STREAM_MIN
#define TL__SHUF_STREAM_MIN ((size_t)8 << 20)  /* channels-last: tensor bytes
                                                  for streaming stores */
#endif
#define TL__SHUF_MAX_PADS 4       /* padded pieces of the axis fused into
                                     the copy; more: the core zeroes them */

typedef struct {
    const tl__shuffle_plan *p;
    tl_dim blk;         /* channel block; 0: channels-last, channel c at c */
    tl_dim blk_stride;  /* elements from one channel block to the next */
    tl_dim Q;           /* C / G */
    int    V, log2v;    /* elements per vector */
    int    unzip;       /* 1: G streams of Q; 0: zip Q streams of G */
    int    nstreams;
    tl_dim len;         /* elements per stream */
    /* The plan's innermost loop (after merging the loops that continue
       each other: h and w of nChw16c) is the row of "pixels" the kernels
       walk themselves; rows holds the loops outside it. */
    tl__shuffle_plan rows;
    tl_dim npix, pstride;   /* pixels per row; bytes between them */
    tl_dim tile;            /* pixels per tile (blocked layouts) */
    /* channels-last: the slots of chunk 0 and the bytes to the next chunk */
    tl__shuf_slot ld0[16], st0[16];
    tl_dim ldstep, ststep;
    int    stream;          /* channels-last: streaming stores */
    /* blocked: the last len % V elements of every stream, one by one */
    int    ntail;
    tl_dim tdoff[16 * 15], tsoff[16 * 15];
    /* the axis's padding lanes (C..padded_dims-1): -1 when left to the core */
    int    npad;
    tl_dim padoff[TL__SHUF_MAX_PADS], padlen[TL__SHUF_MAX_PADS];
} tl__shuf_kernel;

TL__SHUF_INLINE void tl__shuf_zip2(simde__m128i *a, simde__m128i *b, size_t es)
{
    simde__m128i lo, hi;
    switch (es) {
    case 1: lo = simde_mm_unpacklo_epi8(*a, *b); hi = simde_mm_unpackhi_epi8(*a, *b); break;
    case 2: lo = simde_mm_unpacklo_epi16(*a, *b); hi = simde_mm_unpackhi_epi16(*a, *b); break;
    case 4: lo = simde_mm_unpacklo_epi32(*a, *b); hi = simde_mm_unpackhi_epi32(*a, *b); break;
    default: lo = simde_mm_unpacklo_epi64(*a, *b); hi = simde_mm_unpackhi_epi64(*a, *b); break;
    }
    *a = lo;
    *b = hi;
}

/* Turns the 2V elements a|b into evens|odds. A zip is the perfect shuffle
   of 2V elements, whose order is log2(2V): log2(V) more zips undo it.
   4-byte elements take SSE's two-source shuffle instead, one instruction
   per half (a shuffle moves bits: NaN payloads survive). */
TL__SHUF_INLINE void tl__shuf_unzip2(simde__m128i *a, simde__m128i *b, size_t es, int log2v)
{
    int i;
    if (es == 4) {
        simde__m128 x = simde_mm_castsi128_ps(*a), y = simde_mm_castsi128_ps(*b);
        *a = simde_mm_castps_si128(simde_mm_shuffle_ps(x, y, SIMDE_MM_SHUFFLE(2, 0, 2, 0)));
        *b = simde_mm_castps_si128(simde_mm_shuffle_ps(x, y, SIMDE_MM_SHUFFLE(3, 1, 3, 1)));
        return;
    }
    TL__SHUF_UNROLL for (i = 0; i < log2v; ++i) tl__shuf_zip2(a, b, es);
}

/* v[0..n) hold n*V consecutive elements of n interleaved streams; on
   return, vector k of the array returned (v or t, the stages ping-pong
   between them instead of copying back) holds V elements of stream
   bitrev(k). Each stage splits every group of vectors into its even and
   odd streams. */
TL__SHUF_INLINE simde__m128i *tl__shuf_unzip(simde__m128i *v, simde__m128i *t, int n,
                                             size_t es, int log2v)
{
    int m, s, i;
    TL__SHUF_UNROLL for (m = n; m >= 2; m /= 2) {
        simde__m128i *swap;
        TL__SHUF_UNROLL for (s = 0; s < n; s += m)
            TL__SHUF_UNROLL for (i = 0; i < m / 2; ++i) {
                simde__m128i a = v[s + 2 * i], b = v[s + 2 * i + 1];
                tl__shuf_unzip2(&a, &b, es, log2v);
                t[s + i] = a;
                t[s + m / 2 + i] = b;
            }
        swap = v;
        v = t;
        t = swap;
    }
    return v;
}

/* The inverse: vector k of v holds V elements of stream bitrev(k); the
   array returned holds the n streams interleaved. */
TL__SHUF_INLINE simde__m128i *tl__shuf_zip(simde__m128i *v, simde__m128i *t, int n, size_t es)
{
    int m, s, i;
    TL__SHUF_UNROLL for (m = 2; m <= n; m *= 2) {
        simde__m128i *swap;
        TL__SHUF_UNROLL for (s = 0; s < n; s += m)
            TL__SHUF_UNROLL for (i = 0; i < m / 2; ++i) {
                simde__m128i a = v[s + i], b = v[s + m / 2 + i];
                tl__shuf_zip2(&a, &b, es);
                t[s + 2 * i] = a;
                t[s + 2 * i + 1] = b;
            }
        swap = v;
        v = t;
        t = swap;
    }
    return v;
}

static int tl__shuf_small_pow2(tl_dim n) { return n == 2 || n == 4 || n == 8 || n == 16; }

/* The bits of the places a plan's walk reaches in dst, or-ed: dst's
   offset in a line, base0 and every loop's stride. The low 4 (6) bits
   are clear when all of them are 16- (64-) byte aligned, which streaming
   stores need. */
static tl_dim tl__shuf_walk_bits(const tl__shuffle_plan *p, const char *dst)
{
    tl_dim a = (tl_dim)((uintptr_t)dst % 64) | p->base0;
    int i;
    for (i = 0; i < p->nloops; ++i) a |= p->loops[i].stride;
    return a;
}

/* Cuts the plan into rows of pixels: loops that continue each other
   merge (h and w of nChw16c, all of n, h, w for a dense nhwc), and the
   innermost (npix pixels, pstride bytes apart) is left to the kernels. */
static void tl__shuf_cut_rows(const tl__shuffle_plan *p, tl__shuffle_plan *r, tl_dim *npix,
                              tl_dim *pstride)
{
    int i, n = 0;
    *r = *p;
    for (i = 1; i < r->nloops; ++i) {
        tl__shuffle_loop *o = &r->loops[n];
        if (o->stride == r->loops[i].stride * r->loops[i].size) {
            o->size *= r->loops[i].size;
            o->stride = r->loops[i].stride;
        } else {
            r->loops[++n] = r->loops[i];
        }
    }
    *npix = 1;
    *pstride = 0;
    if (r->nloops > 0) {
        r->nloops = n;        /* the merged innermost loop leaves the list */
        *npix = r->loops[n].size;
        *pstride = r->loops[n].stride;
    }
}

/* The rows, and their tiles. A blocked layout is walked in tiles
   of pixels, every chunk of a tile before the next tile, so each channel
   block is read and written as long runs (a whole 28x28 plane of
   nChw16c: 50 KB) instead of one 64-byte line per block per pixel (30
   streams for 232 channels). Runs of a page or less ran at half the
   speed: the prefetchers restart at every page. A tile holds
   TL__SHUF_TILE_BYTES of the blocks one chunk touches, which stay in L2
   for the chunks that fill the other lanes of their lines.
   Channels-last keeps pixel after pixel: its channels are contiguous. */
static void tl__shuf_rows_init(tl__shuf_kernel *k)
{
    tl__shuf_cut_rows(k->p, &k->rows, &k->npix, &k->pstride);
    k->tile = k->npix;
    if (k->blk && k->pstride > 0) {
        tl_dim per = TL__SHUF_TILE_BYTES / (2 * k->nstreams * k->pstride);
        if (per < k->tile) k->tile = per > 0 ? per : 1;
    }
}

/* Offsets (from a pixel) of the elements the vectors of a blocked
   layout leave over. Channels-last has none: its last chunk moves back
   to end at the streams' ends (tl__shuf_row_last). */
static void tl__shuf_tail_init(tl__shuf_kernel *k)
{
    const tl__shuffle_plan *p = k->p;
    tl_dim x;
    int i;
    k->ntail = 0;
    for (x = k->blk ? (k->len / k->V) * k->V : k->len; x < k->len; ++x)
        for (i = 0; i < k->nstreams; ++i) {
            tl_dim c = k->unzip ? i * k->Q + x : x * k->Q + i;
            k->tdoff[k->ntail] = tl__shuffle_chan_off(p, c);
            k->tsoff[k->ntail++] = tl__shuffle_chan_off(p, tl__shuffle_src_chan(c, p->C, p->G));
        }
}

/* The padding lanes of the axis as contiguous pieces (one per channel
   block they touch: lanes 232..239 of nChw16c), zeroed pixel by pixel
   while the pixel's lines are in cache, instead of in a second pass
   over dst. */
static void tl__shuf_pads_init(tl__shuf_kernel *k)
{
    const tl__shuffle_plan *p = k->p;
    tl_dim c = p->C, end = p->md->padded_dims[p->axis];
    k->npad = 0;
    while (c < end) {
        tl_dim n = k->blk ? k->blk - c % k->blk : end - c;
        if (n > end - c) n = end - c;
        if (k->npad == TL__SHUF_MAX_PADS) {
            k->npad = -1;
            return;
        }
        k->padoff[k->npad] = tl__shuffle_chan_off(p, c);
        k->padlen[k->npad++] = n * (tl_dim)p->es;
        c += n;
    }
}

/* Picks unzip or zip for the plan; 0 when neither applies (the core then
   does the work): other layouts, or streams shorter than one vector. */
static int tl__shuf_kernel_init(tl__shuf_kernel *k, const tl__shuffle_plan *p)
{
    const tl_memory_desc *md = p->md;
    const tl_blocking_desc *bd = &md->blocking;
    k->p = p;
    k->Q = p->C / p->G;
    k->V = (int)(16 / p->es);
    k->log2v = 0;
    while ((1 << k->log2v) < k->V) ++k->log2v;
    if (p->identity || p->run != (tl_dim)p->es || md->padded_offsets[p->axis] != 0) return 0;
    if (bd->inner_nblks == 0 && bd->strides[p->axis] == 1) {
        k->blk = 0;
        k->blk_stride = 0;
    } else if (bd->inner_nblks == 1 && bd->inner_idxs[0] == p->axis &&
               bd->inner_blks[0] >= k->V) {
        k->blk = bd->inner_blks[0];            /* a vector crosses at most one boundary */
        k->blk_stride = bd->strides[p->axis];
    } else {
        return 0;
    }
    if (tl__shuf_small_pow2(p->G) && k->Q >= k->V) {
        k->unzip = 1;
        k->nstreams = (int)p->G;
        k->len = k->Q;
    } else if (tl__shuf_small_pow2(k->Q) && p->G >= k->V) {
        k->unzip = 0;
        k->nstreams = (int)k->Q;
        k->len = p->G;
    } else {
        return 0;
    }
    tl__shuf_rows_init(k);
    tl__shuf_tail_init(k);
    tl__shuf_pads_init(k);
    return 1;
}

static void tl__shuf_slot_at(const tl__shuf_kernel *k, tl_dim c, tl__shuf_slot *s)
{
    tl_dim es = (tl_dim)k->p->es, in;
    s->split = k->V;
    s->off2 = 0;
    if (!k->blk) {
        s->off = c * es;
        return;
    }
    in = c % k->blk;
    s->off = ((c / k->blk) * k->blk_stride + in) * es;
    if (in + k->V > k->blk) {
        s->split = (int)(k->blk - in);
        s->off2 = (c / k->blk + 1) * k->blk_stride * es;
    }
}

/* Load and store slots of chunk j (elements j*V.. of every stream). The
   bit reversal of the (un)zip is folded into the slots. */
static void tl__shuf_chunk_slots(const tl__shuf_kernel *k, tl_dim j,
                                 tl__shuf_slot *ld, tl__shuf_slot *st)
{
    tl_dim x0 = j * k->V, G = k->p->G;
    int i;
    for (i = 0; i < k->nstreams; ++i) {
        tl_dim r = tl__sr_bitrev(i, k->nstreams);
        if (k->unzip) {
            tl__shuf_slot_at(k, x0 * G + i * k->V, &ld[i]);
            tl__shuf_slot_at(k, r * k->Q + x0, &st[i]);
        } else {
            tl__shuf_slot_at(k, r * G + x0, &ld[i]);
            tl__shuf_slot_at(k, x0 * k->Q + i * k->V, &st[i]);
        }
    }
}

/* n bytes (1 to 16) from s to d, as two fixed-size moves that may
   overlap: a memcpy of a variable size is a library call, and the pieces
   of split vectors took two each (f32 nChw16c, 116 channels, groups of
   4: 8 of the calls' 16 values crossed a block). */
TL__SR_INLINE void tl__shuf_move_short(char *d, const char *s, size_t n)
{
    if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n >= 2) {
        memcpy(d, s, 2);
        memcpy(d + n - 2, s + n - 2, 2);
    } else {
        *d = *s;
    }
}

/* A chunk whose vectors cross channel blocks, staged through contiguous
   buffers (slot i at 16 i): gathered (in: 1) from the two pieces of each
   vector that crosses into buf, or scattered back from the kernel's
   output in buf (in: 0). The one unrolled instantiation per kernel then
   serves whole and split chunks alike; a second one for split chunks
   took a quarter of the header's compile time. */
TL__SR_NOINLINE void tl__shuf_stage(char *base, const tl__shuf_slot *s, int ns, size_t es,
                                    char *buf, int in)
{
    int i;
    for (i = 0; i < ns; ++i, buf += 16) {
        size_t a = (size_t)s[i].split * es;
        char *p = base + s[i].off, *q = base + s[i].off2;
        if (a == 16) {                  /* whole: one move */
            memcpy(in ? buf : p, in ? p : buf, 16);
            continue;
        }
        tl__shuf_move_short(in ? buf : p, in ? p : buf, a);
        tl__shuf_move_short(in ? buf + a : q, in ? q : buf + a, 16 - a);
    }
}

/* Channels-last: chunk j's slots are chunk 0's moved by j vectors on the
   side where the streams lie interleaved, by j*nstreams on the other.
   A large tensor whose stores all fall on 16-byte boundaries gets
   streaming stores on AMD: the unzip's stores go to nstreams places per
   pixel, and the lines they allocate were fetched with gaps that the
   hardware prefetchers do not follow (f32 nhwc, C = 232, G = 2, on the
   Zen 3: 1.4-1.5x). Not where a stream ends with the chunk moved back,
   whose plain stores land on lines just streamed, nor past 4 streams,
   whose lines fill a piece at a time too far apart: on both machines
   those ran 4-10x slower (bf16 nhwc, 232 channels, groups of 116; f32,
   256 channels, groups of 8, two threads). Nor on Intel: on the 16-core
   Xeon the rest ran at 0.6-0.75x of plain stores on two threads (on one,
   within the noise either way). */
static void tl__shuf_last_init(tl__shuf_kernel *k, const char *dst)
{
    const tl__shuffle_plan *r = &k->rows;
    tl_dim vb = (tl_dim)k->V * (tl_dim)k->p->es, a;
    int i;
    tl__shuf_chunk_slots(k, 0, k->ld0, k->st0);
    k->ldstep = k->unzip ? vb * k->nstreams : vb;
    k->ststep = k->unzip ? vb : vb * k->nstreams;
    a = tl__shuf_walk_bits(r, dst) | k->pstride | k->ststep;
    for (i = 0; i < k->nstreams; ++i) a |= k->st0[i].off;
    k->stream = a % 16 == 0 && k->p->size >= TL__SHUF_STREAM_MIN && k->len % k->V == 0 &&
                (!k->unzip || k->nstreams <= 4) && !tl__sr_intel();
}

/* Whether no vector of the chunk crosses a channel block. */
static int tl__shuf_whole(const tl__shuf_slot *ld, const tl__shuf_slot *st, int ns, int V)
{
    int i;
    for (i = 0; i < ns; ++i)
        if (ld[i].split != V || st[i].split != V) return 0;
    return 1;
}

/* One chunk at one pixel: ns vectors loaded at the load slots,
   (un)zipped, stored at the store slots (unaligned: buffers only promise
   their element type's alignment). ns, es and unzip are constants in
   every instantiation; stream: streaming stores (aligned slots only). */
TL__SHUF_INLINE void tl__shuf_chunk(const char *s, char *d, const tl__shuf_slot *ld,
                                    const tl__shuf_slot *st, int ns, size_t es, int unzip,
                                    int stream)
{
    const int log2v = es == 1 ? 4 : es == 2 ? 3 : es == 4 ? 2 : 1;
    simde__m128i v[16], t[16], *r;
    int i;
    TL__SHUF_UNROLL for (i = 0; i < ns; ++i)
        v[i] = simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + ld[i].off));
    r = unzip ? tl__shuf_unzip(v, t, ns, es, log2v) : tl__shuf_zip(v, t, ns, es);
    TL__SHUF_UNROLL for (i = 0; i < ns; ++i) {
        simde__m128i *to = (simde__m128i *)(void *)(d + st[i].off);
        if (stream) simde_mm_stream_si128(to, r[i]);
        else simde_mm_storeu_si128(to, r[i]);
    }
}

/* What the vectors leave at a pixel: the tail elements, then zeros in
   the axis's padding lanes. */
static void tl__shuf_pixel_rest(const tl__shuf_kernel *k, const char *s, char *d)
{
    int i;
    for (i = 0; i < k->ntail; ++i)
        tl__copy_bytes(d + k->tdoff[i], s + k->tsoff[i], (tl_dim)k->p->es);
    for (i = 0; i < k->npad; ++i) memset(d + k->padoff[i], 0, (size_t)k->padlen[i]);
}

/* Channels-last: every chunk of a pixel, then the next pixel. The next
   pixel's lines are prefetched in memory order: the zip reads nstreams
   places per pixel, a pattern the hardware prefetchers miss (f32 nhwc,
   C = 232, C/G = 2: 23 -> 29 GB/s). Streams whose length is not a whole
   number of vectors end with one more chunk moved back to end with them
   (lback, sback bytes from the pixel), overlapping the one before it
   with the same values and stored plainly (its stores are off the
   16-byte grid): the elements one by one had taken a third of u8 nhwc,
   232 channels, groups of 4. */
TL__SHUF_INLINE void tl__shuf_row_last(const tl__shuf_kernel *k, const char *s, char *d,
                                       int ns, size_t es, int unzip)
{
    tl__shuf_slot ld[16], st[16];
    tl_dim q, j, o, V = (tl_dim)(16 / es), nch = k->len / V, pix = k->p->C * (tl_dim)es;
    tl_dim back = k->len % V ? k->len - V : 0;
    size_t lback = (size_t)(back * (k->ldstep / V)), sback = (size_t)(back * (k->ststep / V));
    int i, rest = k->npad > 0, stream = k->stream;
    for (i = 0; i < ns; ++i) {      /* locals: stores through char * alias k */
        ld[i] = k->ld0[i];
        st[i] = k->st0[i];
    }
    for (q = 0; q < k->npix; ++q, s += k->pstride, d += k->pstride) {
        const char *sj = s;
        char *dj = d;
        for (o = 0; o < pix; o += 64) TL__SIMD_PREFETCH(s + k->pstride + o);
        for (j = 0; j < nch; ++j, sj += k->ldstep, dj += k->ststep)
            tl__shuf_chunk(sj, dj, ld, st, ns, es, unzip, stream);
        if (back) tl__shuf_chunk(s + lback, d + sback, ld, st, ns, es, unzip, 0);
        if (rest) tl__shuf_pixel_rest(k, s, d);
    }
}

/* n chunks (slots ld, st) at np pixels ps bytes apart; split[j]: a
   slot of chunk j crosses a block, and the chunk goes through
   tl__shuf_stage's buffers (slots unit: 16 i). */
TL__SHUF_INLINE void tl__shuf_pixels_at(const char *s, char *d, tl_dim np, tl_dim ps,
                                        const tl__shuf_slot *ld, const tl__shuf_slot *st, int n,
                                        int ns, size_t es, int unzip, const int *split,
                                        const tl__shuf_slot *unit)
{
    simde__m128i in[16], out[16];
    tl_dim q;
    int j;
    for (q = 0; q < np; ++q)
        for (j = 0; j < n; ++j) {
            const tl__shuf_slot *l = ld + j * ns, *t = st + j * ns;
            const char *cs = s + q * ps;
            char *cd = d + q * ps;
            if (split[j]) {     /* gathered (cs only read), then cs, cd, slots: the buffers */
                tl__shuf_stage((char *)cs, l, ns, es, (char *)in, 1);
                cs = (const char *)in;
                cd = (char *)out;
                l = t = unit;
            }
            tl__shuf_chunk(cs, cd, l, t, ns, es, unzip, 0);
            if (split[j]) tl__shuf_stage(d + q * ps, st + j * ns, ns, es, (char *)out, 0);
        }
}

/* Chunks j0..j0+n-1 at the np pixels from s and d. */
TL__SHUF_INLINE void tl__shuf_pixels(const tl__shuf_kernel *k, const char *s, char *d,
                                     tl_dim np, tl_dim j0, int n, int ns, size_t es, int unzip)
{
    tl__shuf_slot ld[TL__SHUF_GROUP * 16], st[TL__SHUF_GROUP * 16], unit[16];
    int j, split[TL__SHUF_GROUP];
    for (j = 0; j < n; ++j) {
        tl__shuf_chunk_slots(k, j0 + j, ld + j * ns, st + j * ns);
        split[j] = !tl__shuf_whole(ld + j * ns, st + j * ns, ns, (int)(16 / es));
    }
    for (j = 0; j < ns; ++j) unit[j].off = 16 * j;
    tl__shuf_pixels_at(s, d, np, k->pstride, ld, st, n, ns, es, unzip, split, unit);
}

/* Blocked: tile by tile (see tl__shuf_rows_init). At each pixel a group
   of chunks moves a cache line's worth of every stream: lines are
   completed while they are in L1, where one chunk at a time down the
   tile refetched each line four times from L2 (13 GB/s instead of 20). */
TL__SHUF_INLINE void tl__shuf_row_blocked(const tl__shuf_kernel *k, const char *s, char *d,
                                          int ns, size_t es, int unzip)
{
    const int group = TL__SHUF_GROUP;
    tl_dim t0, q, j, nch = k->len / (tl_dim)(16 / es), ps = k->pstride;
    for (t0 = 0; t0 < k->npix; t0 += k->tile) {
        tl_dim np = k->npix - t0 < k->tile ? k->npix - t0 : k->tile;
        const char *ts = s + t0 * ps;
        char *td = d + t0 * ps;
        for (j = 0; j < nch; j += group)
            tl__shuf_pixels(k, ts, td, np, j, nch - j < group ? (int)(nch - j) : group, ns, es,
                            unzip);
        if (k->ntail > 0 || k->npad > 0)
            for (q = 0; q < np; ++q) tl__shuf_pixel_rest(k, ts + q * ps, td + q * ps);
    }
}

#define TL__SHUF_ROW_CASE(NS, ES) \
    case NS * 16 + ES: \
        if (k->blk && k->unzip) tl__shuf_row_blocked(k, src, dst, NS, ES, 1); \
        else if (k->blk) tl__shuf_row_blocked(k, src, dst, NS, ES, 0); \
        else if (k->unzip) tl__shuf_row_last(k, src, dst, NS, ES, 1); \
        else tl__shuf_row_last(k, src, dst, NS, ES, 0); \
        break;

/* One row of pixels from its base (src and dst already moved there). */
static void tl__shuf_row(const tl__shuf_kernel *k, const char *src, char *dst)
{
    switch (k->nstreams * 16 + (int)k->p->es) {
    TL__SHUF_ROW_CASE(2, 1)  TL__SHUF_ROW_CASE(2, 2)
    TL__SHUF_ROW_CASE(2, 4)  TL__SHUF_ROW_CASE(2, 8)
    TL__SHUF_ROW_CASE(4, 1)  TL__SHUF_ROW_CASE(4, 2)
    TL__SHUF_ROW_CASE(4, 4)  TL__SHUF_ROW_CASE(4, 8)
    TL__SHUF_ROW_CASE(8, 1)  TL__SHUF_ROW_CASE(8, 2)
    TL__SHUF_ROW_CASE(8, 4)  TL__SHUF_ROW_CASE(8, 8)
    TL__SHUF_ROW_CASE(16, 1) TL__SHUF_ROW_CASE(16, 2)
    TL__SHUF_ROW_CASE(16, 4) TL__SHUF_ROW_CASE(16, 8)
    default: TL_ASSERT(0); break;     /* kernel_init admits only these */
    }
}
#undef TL__SHUF_ROW_CASE

/* ---- simd: shuffle block lines (AVX-512, AVX2) ------------------------
   A blocked layout whose one inner block is the axis, 64 bytes of it a
   vector (nChw16c f32; nChw8c f64; nChw16c bf16 two pixels at a time):
   every dst block at a pixel is gathered from the source blocks that
   hold its channels, one masked permute each (tl__shuf16_gather), and
   written as whole lines, block plane after block plane. Any group size
   works, and the padding lanes come out zero. Where the zip kernels
   also apply, these are faster: their 16-byte vectors wrote each line
   in pieces from several places, which kept the stores from streaming
   (f32 nChw16c, 232 channels, groups of 2 or 116, one thread: 0.85-0.91
   -> 1.13-1.20 of memcpy with the prefetch of tl__shuf_lines_row, Zen
   4). Without AVX-512, AVX2 builds each 32-byte half from pieces
   (tl__shuf8_lines) for 4- and 8-byte elements: the same rows on a Zen
   3, 0.85-1.01 -> 1.19-1.57. */
#if TL__SR_AVX2
typedef struct {
    tl__shuffle_plan rows;      /* the loops outside a row of pixels */
    tl_dim npix, pstride;       /* pixels of a row, bytes between them */
    tl_dim step;                /* bytes between vectors: P pixels */
    tl_dim tile;                /* pixels a tile moves, a multiple of P */
    tl_dim bstride;             /* bytes between channel blocks */
    size_t es, lbytes;          /* bytes of an element, of a block line */
    int    P;                   /* pixels a vector: 64 / lbytes */
    int    nblocks;
    int    first[TL__SHUF_LINE_SRCS + 1];  /* block b: sources first[b].. */
    int    stream;
    int    avx512;              /* tl__shuf16_lines, else tl__shuf8_lines */
    tl__shuf_srcs src;
    int    pfirst[2 * TL__SHUF_LINE_SRCS + 1];   /* AVX2: block b's half h from
                                                    piece[pfirst[2b + h]] */
    tl__shuf8_piece piece[4 * TL__SHUF_LINE_SRCS];   /* 4 a source at most */
} tl__shuf_lines;

/* The table of every dst block; 0 when it is full. Channel c = u + v C/G
   reads u G + v (tl__shuffle_src_chan), walked here without divisions,
   which took most of a small tensor's time (blk is a power of two: blk *
   es divides 64); a lane's source is looked up from the last one found,
   which its neighbour shares but where the group changes. Lanes past C
   (padding) have no source and come out zero. */
static int tl__shuf_lines_table(tl__shuf_lines *k, const tl__shuffle_plan *p, tl_dim blk, int P)
{
    const tl_dim C = p->C, G = p->G, Q = C / G, bstride = k->bstride, nl = blk * P;
    tl_dim c = 0, u = 0, sc = 0, lb = 0, l, lane;
    int b, j, n = 0;
    while (((tl_dim)1 << lb) < blk) ++lb;
    for (b = 0; b < k->nblocks; ++b) {
        union { int16_t h[32]; int32_t w[16]; int64_t d[8]; } idx;
        int32_t from[32];
        tl_dim at = -1;
        uint32_t m = 0;             /* lanes of source j so far */
        k->first[b] = n;
        for (l = 0, j = n; l < blk; ++l, ++c) {
            tl_dim off = (sc >> lb) * bstride;
            if (c >= C) {           /* padding: no source, lane 0 */
                from[l] = 0;
                continue;
            }
            if (off != at) {
                if (m) k->src.mask[j] |= m;
                for (j = k->first[b]; j < n && k->src.off[j] != off; ++j) {}
                if (j == n) {
                    if (n == TL__SHUF_LINE_SRCS) return 0;
                    k->src.off[n] = off;
                    k->src.mask[n++] = 0;
                }
                at = off;
                m = 0;
            }
            m |= (uint32_t)1 << l;
            from[l] = (int32_t)(sc & (blk - 1));
            sc += G;                /* u G + v, v = c / Q */
            if (++u == Q) {
                u = 0;
                sc = sc - C + 1;
            }
        }
        if (m) k->src.mask[j] |= m;
        for (lane = blk; lane < nl; ++lane)    /* the other pixels of a vector */
            from[lane] = from[lane - blk] + (int32_t)blk;
        for (j = k->first[b]; j < n && P > 1; ++j)
            for (l = blk, m = k->src.mask[j]; l < nl; l += blk) k->src.mask[j] |= m << l;
        if (k->es == 2) for (lane = 0; lane < nl; ++lane) idx.h[lane] = (int16_t)from[lane];
        else if (k->es == 4) for (lane = 0; lane < nl; ++lane) idx.w[lane] = from[lane];
        else for (lane = 0; lane < nl; ++lane) idx.d[lane] = from[lane];
        memcpy(&k->src.idx[b], &idx, 64);
    }
    k->first[b] = n;
    return 1;
}

/* AVX2's pieces of every dst block (tl__shuf8_piece), from the table:
   the lanes of half h that source j fills, split by the half of the
   source they read. As 4-byte lanes: an 8-byte lane is two, and the
   table's indices are rewritten so once per call (the permutes then
   need no element size). */
static uint32_t tl__shuf8_lanes4(uint32_t m, size_t es)
{
    uint32_t w = 0;
    int l;
    if (es == 4) return m;
    for (l = 0; l < 8; ++l) w |= (m >> l & 1u) * (3u << 2 * l);
    return w;
}

static void tl__shuf8_pieces_init(tl__shuf_lines *k)
{
    int b, j, l, h, u, np = 0;
    for (b = 0; b < k->nblocks; ++b) {
        int32_t *idx = k->src.idx[b];
        uint32_t upper = 0;     /* lanes whose source is a block's upper 32 bytes */
        if (k->es == 8) {
            int64_t q[8];
            memcpy(q, idx, 64);
            for (l = 0; l < 16; ++l) idx[l] = 2 * (int32_t)q[l / 2] + l % 2;
        }
        for (l = 0; l < 16; ++l) upper |= (uint32_t)(idx[l] >= 8) << l;
        for (h = 0; h < 2; ++h) {
            k->pfirst[2 * b + h] = np;
            for (j = k->first[b]; j < k->first[b + 1]; ++j)
                for (u = 0; u < 2; ++u) {
                    uint32_t lanes = tl__shuf8_lanes4(k->src.mask[j], k->es) & (u ? upper : ~upper);
                    if (!(lanes >> 8 * h & 0xffu)) continue;
                    k->piece[np].off = k->src.off[j] + 32 * u;
                    k->piece[np].upper = (uint8_t)u;
                    k->piece[np++].lanes = (uint8_t)(lanes >> 8 * h);
                }
        }
    }
    k->pfirst[2 * b] = np;
}

/* Whether the lines take p, and their table when they do. dst: NULL
   when only asking; else streaming stores when every vector of dst
   starts a cache line and the tensor is large. */
static int tl__shuf_lines_init(tl__shuf_lines *k, const tl__shuffle_plan *p, const char *dst)
{
    const tl_memory_desc *md = p->md;
    const tl_blocking_desc *bd = &md->blocking;
    tl_dim blk, a;
    if (!(tl__sr_avx512() || (tl__sr_avx2() && p->es != 2)) || p->identity || p->run != (tl_dim)p->es ||
        md->padded_offsets[p->axis] != 0 || bd->inner_nblks != 1 || bd->inner_idxs[0] != p->axis ||
        (p->es != 2 && p->es != 4 && p->es != 8))
        return 0;
    blk = bd->inner_blks[0];
    k->es = p->es;
    k->lbytes = (size_t)blk * p->es;
    if (k->lbytes > 64 || 64 % k->lbytes != 0) return 0;
    k->P = (int)(64 / k->lbytes);
    tl__shuf_cut_rows(p, &k->rows, &k->npix, &k->pstride);
    if (k->P > 1 && k->npix > 1 && k->pstride != (tl_dim)k->lbytes) return 0;
    k->step = k->P > 1 ? 64 : k->pstride;
    k->bstride = bd->strides[p->axis] * (tl_dim)p->es;
    k->nblocks = (int)(md->padded_dims[p->axis] / blk);
    if (k->nblocks > TL__SHUF_LINE_SRCS || !tl__shuf_lines_table(k, p, blk, k->P)) return 0;
    k->avx512 = tl__sr_avx512();
    if (!k->avx512) tl__shuf8_pieces_init(k);
    k->tile = TL__SHUF_LINE_TILE / ((tl_dim)k->nblocks * 64) * k->P;
    if (k->tile < TL__SHUF_LINE_MIN_TILE) k->tile = TL__SHUF_LINE_MIN_TILE;
    k->stream = 0;
    if (!dst) return 1;
    a = tl__shuf_walk_bits(&k->rows, dst) | k->step | k->bstride;
    k->stream = a % 64 == 0 && p->size >= TL__SHUF_STREAM_MIN;
    return 1;
}

/* tl__shuf16_lines or, without AVX-512, tl__shuf8_lines. */
static void tl__shuf_lines_block(const tl__shuf_lines *k, const char *s, char *d, tl_dim nv,
                                 size_t tail, int b, int nt, const char *pf)
{
    const int *pf0 = k->pfirst + 2 * b;
#if TL__SR_AVX512
    if (k->avx512) {
        int j0 = k->first[b];
        tl__shuf16_lines(s, d, nv, k->step, tail, &k->src, b, j0, k->first[b + 1] - j0, k->es, nt, pf);
        return;
    }
#endif
    tl__shuf8_lines(s, d, nv, k->step, tail, k->src.idx[b], k->piece + pf0[0], pf0[1] - pf0[0],
                    pf0[2] - pf0[1], nt, pf);
}

/* One row: tile by tile, each dst block's plane of the tile in turn.
   While a plane moves, the same plane of the next tile (of the row at
   next, after the last tile; NULL: none) is prefetched into L2, one line
   per line moved: the blocks are then read in memory order, as long
   runs, where the gathers alone touch 2-3 planes far apart at once (f32
   nChw16c, 232 channels, groups of 116: 0.79 -> 0.98 of memcpy). */
static void tl__shuf_lines_row(const tl__shuf_lines *k, const char *s, char *d,
                               const char *next)
{
    tl_dim t0, P = k->P;
    int b;
    for (t0 = 0; t0 < k->npix; t0 += k->tile) {
        tl_dim np = k->npix - t0 < k->tile ? k->npix - t0 : k->tile, rest = np % P;
        const char *ts = s + t0 * k->pstride, *pf = next;
        char *td = d + t0 * k->pstride;
        /* a row that ends inside a vector: its last P pixels again, off
           the lines (stores not streamed), or through buffers if the row
           is shorter than P */
        tl_dim back = t0 + np >= P ? (np - P) * k->pstride : (np - rest) * k->pstride;
        size_t tail = t0 + np >= P ? 0 : (size_t)rest * k->lbytes;
        if (t0 + k->tile < k->npix) pf = ts + k->tile * k->pstride;
        for (b = 0; b < k->nblocks; ++b) {
            tl_dim bo = b * k->bstride;
            tl__shuf_lines_block(k, ts, td + bo, np / P, 0, b, k->stream, pf ? pf + bo : NULL);
            if (rest) tl__shuf_lines_block(k, ts + back, td + bo + back, tail ? 0 : 1, tail, b, 0, NULL);
        }
    }
}

static void tl__shuf_lines_run(const tl__shuf_lines *k, const char *src, char *dst)
{
    tl__shuffle_walk w, n;
    int more;
    tl__shuffle_walk_start(&k->rows, &w);
    do {
        n = w;
        more = tl__shuffle_walk_next(&k->rows, &n);
        tl__shuf_lines_row(k, src + w.off, dst + w.off, more ? src + n.off : NULL);
        w = n;
    } while (more);
    if (k->stream) simde_mm_sfence();
}
#endif

static int tl__simd_shuffle_takes(const tl__shuffle_plan *p)
{
    tl__shuf_kernel k;
#if TL__SR_AVX2
    tl__shuf_lines ln;
    if (tl__shuf_lines_init(&ln, p, NULL)) return 1;
#endif
    return tl__shuf_kernel_init(&k, p);
}

/* Runs of many channels' planes (nchw) in a large tensor: dst is only
   written, so its stores may stream past the caches, as the transposes'
   do: 32x232x28x28 f32 with 2 or 116 groups, 22-25 -> 27-30 GB/s on
   Zen 4. (Before the core walked the side read in min(G, C/G) streams,
   streamed stores were slower where dst planes read source planes G
   apart: 17 -> 13 GB/s.) Only planes that start and end on 16 bytes:
   the plain stores of a plane's ragged ends land on lines its neighbours
   streamed, which ran 7x7 f32 planes (196 bytes) at 0.10 of memcpy on
   the Zen 3, 13x slower than plain stores. */
static int tl__simd_shuffle_streams(const tl__shuffle_plan *p, const char *dst)
{
    tl_dim a = tl__shuf_walk_bits(p, dst) | p->run | tl__shuffle_chan_off(p, 0) |
               tl__shuffle_chan_off(p, 1);
    return !p->identity && p->run >= 64 && p->size >= TL__SHUF_STREAM_MIN && a % 16 == 0;
}

/* 16 bytes from s + i to d + i in a streamed store (d + i aligned). */
TL__SR_INLINE void tl__simd_stream16(char *d, const char *s, size_t i)
{
    tl__sr_put(d + i, simde_mm_loadu_si128((const simde__m128i *)(const void *)(s + i)), 1);
}

/* n bytes from s to d in streamed stores: d and n in 16s, as
   tl__simd_shuffle_streams asks of every run; what tl__sr8_stream_lines
   leaves, four 16-byte stores a line. The four are spelled out: as a
   loop over an array GCC 12 kept them on the stack, a store and a load
   more each (the nchw shuffles of 32x232x28x28 f32 ran 1.2-1.5x faster
   without); tl__sr_copy_run_n's unrolled loop ran them 1.05-1.09x
   slower than this with SSE2 alone. */
static void tl__simd_stream_bytes(char *d, const char *s, tl_dim n)
{
    size_t i = 0;
#if TL__SR_AVX2
    if (tl__sr_avx2()) i = tl__sr8_stream_lines(d, s, (size_t)n);
#endif
    for (; i + 64 <= (size_t)n; i += 64) {
        tl__simd_stream16(d, s, i);
        tl__simd_stream16(d, s, i + 16);
        tl__simd_stream16(d, s, i + 32);
        tl__simd_stream16(d, s, i + 48);
    }
    for (; i < (size_t)n; i += 16) tl__simd_stream16(d, s, i);
}

/* Streamed stores visible to other threads before tl_shuffle returns. */
static void tl__simd_stream_end(void) { simde_mm_sfence(); }

/* Returns 0 (nothing written) when no kernel takes the plan, else
   TL__SHUFFLE_SIMD, with TL__SHUFFLE_AXIS_ZEROED when the rows also
   zeroed the axis's padding lanes. */
static int tl__simd_shuffle(const tl__shuffle_plan *p, const char *src, char *dst)
{
    tl__shuf_kernel k;
    tl__shuffle_walk w;
#if TL__SR_AVX2
    tl__shuf_lines ln;
    if (tl__shuf_lines_init(&ln, p, dst)) {
        tl__shuf_lines_run(&ln, src, dst);
        return TL__SHUFFLE_SIMD | TL__SHUFFLE_AXIS_ZEROED;
    }
#endif
    if (!tl__shuf_kernel_init(&k, p)) return 0;
    k.stream = 0;
    if (!k.blk) tl__shuf_last_init(&k, dst);
    tl__shuffle_walk_start(&k.rows, &w);
    do {
        tl__shuf_row(&k, src + w.off, dst + w.off);
    } while (tl__shuffle_walk_next(&k.rows, &w));
    if (k.stream) simde_mm_sfence();   /* streamed stores visible before return */
    return TL__SHUFFLE_SIMD | (k.npad >= 0 ? TL__SHUFFLE_AXIS_ZEROED : 0);
}

#endif /* TL__SIMD_IMPLEMENTATION_DONE */
#endif /* TENSORLAYOUT_IMPLEMENTATION && TL__SIMD_ENABLED */
