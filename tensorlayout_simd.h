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
   Needs SIMDe (Debian: libsimde-dev) only in the implementation file.
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

/* Placeholder until the vector kernels land: keeps the scalar kernel. */
static void tl__simd_reorder_pick(tl_reorder_plan *plan) { (void)plan; }

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

#define TL__SHUF_SLOTS 64   /* vectors per pass over the pixels */

/* The kernels are instantiated below for every element size and stream
   count. Inlined with those constants and fully unrolled, the (un)zip
   stages keep their vectors in registers: 2-2.5x the speed of the same
   loops left rolled, which GCC -O2 does not unroll on its own. */
#if defined(__GNUC__) || defined(__clang__)
#define TL__SHUF_INLINE static __inline__ __attribute__((always_inline))
#else
#define TL__SHUF_INLINE static
#endif
#if defined(__clang__)
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

typedef struct {
    const tl__shuffle_plan *p;
    tl_dim blk;         /* channel block; 0: channels-last, channel c at c */
    tl_dim blk_stride;  /* elements from one channel block to the next */
    tl_dim Q;           /* C / G */
    int    V, log2v;    /* elements per vector */
    int    unzip;       /* 1: G streams of Q; 0: zip Q streams of G */
    int    nstreams;
    tl_dim len;         /* elements per stream */
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

/* i with its lowest log2(n) bits reversed: the stage-by-stage halving
   below leaves stream i in vector bitrev(i). */
static int tl__shuf_bitrev(int i, int n)
{
    int r = 0, b;
    for (b = 1; b < n; b <<= 1) {
        r = (r << 1) | (i & 1);
        i >>= 1;
    }
    return r;
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

/* Picks unzip or zip for the plan; 0 when neither applies (the core then
   does the work): other layouts, or streams shorter than one vector. */
static int tl__shuf_kernel_init(tl__shuf_kernel *k, const tl__shuffle_plan *p)
{
    const tl_memory_desc *md = p->md;
    const tl_blocking_desc *bd = &md->blocking;
    memset(k, 0, sizeof *k);
    k->p = p;
    k->Q = p->C / p->G;
    k->V = (int)(16 / p->es);
    while ((1 << k->log2v) < k->V) ++k->log2v;
    if (p->identity || p->run != (tl_dim)p->es || md->padded_offsets[p->axis] != 0) return 0;
    if (bd->inner_nblks == 0 && bd->strides[p->axis] == 1) {
        k->blk = 0;
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
        tl_dim r = tl__shuf_bitrev(i, k->nstreams);
        if (k->unzip) {
            tl__shuf_slot_at(k, x0 * G + i * k->V, &ld[i]);
            tl__shuf_slot_at(k, r * k->Q + x0, &st[i]);
        } else {
            tl__shuf_slot_at(k, r * G + x0, &ld[i]);
            tl__shuf_slot_at(k, x0 * k->Q + i * k->V, &st[i]);
        }
    }
}

/* Unaligned loads and stores throughout: buffers only promise the
   alignment of their element type, and a channel run starts anywhere. */
TL__SHUF_INLINE simde__m128i tl__shuf_load(const char *base, const tl__shuf_slot *s, int V,
                                           size_t es)
{
    char buf[16];
    if (s->split == V)
        return simde_mm_loadu_si128((const simde__m128i *)(const void *)(base + s->off));
    /* the vector crosses a channel block: gather its two pieces */
    memcpy(buf, base + s->off, (size_t)s->split * es);
    memcpy(buf + (size_t)s->split * es, base + s->off2, (size_t)(V - s->split) * es);
    return simde_mm_loadu_si128((const simde__m128i *)(const void *)buf);
}

TL__SHUF_INLINE void tl__shuf_store(char *base, const tl__shuf_slot *s, int V, size_t es,
                                    simde__m128i v)
{
    char buf[16];
    if (s->split == V) {
        simde_mm_storeu_si128((simde__m128i *)(void *)(base + s->off), v);
        return;
    }
    simde_mm_storeu_si128((simde__m128i *)(void *)buf, v);
    memcpy(base + s->off, buf, (size_t)s->split * es);
    memcpy(base + s->off2, buf + (size_t)s->split * es, (size_t)(V - s->split) * es);
}

/* One pass over the pixels for n chunks, with ns streams of es-byte
   elements: constants in every instantiation below. */
TL__SHUF_INLINE void tl__shuf_pass(const tl__shuffle_plan *p, const char *src, char *dst,
                                   const tl__shuf_slot *ld, const tl__shuf_slot *st, int n,
                                   int ns, size_t es, int unzip)
{
    const int V = (int)(16 / es), log2v = es == 1 ? 4 : es == 2 ? 3 : es == 4 ? 2 : 1;
    tl__shuffle_walk w;
    tl__shuffle_walk_start(p, &w);
    do {
        const char *s = src + w.off;
        char *d = dst + w.off;
        int j, i;
        for (j = 0; j < n; ++j) {
            simde__m128i v[16], t[16], *r;
            TL__SHUF_UNROLL for (i = 0; i < ns; ++i)
                v[i] = tl__shuf_load(s, &ld[j * ns + i], V, es);
            r = unzip ? tl__shuf_unzip(v, t, ns, es, log2v) : tl__shuf_zip(v, t, ns, es);
            TL__SHUF_UNROLL for (i = 0; i < ns; ++i)
                tl__shuf_store(d, &st[j * ns + i], V, es, r[i]);
        }
    } while (tl__shuffle_walk_next(p, &w));
}

#define TL__SHUF_PASS_CASE(NS, ES) \
    case NS * 16 + ES: \
        if (k->unzip) tl__shuf_pass(k->p, src, dst, ld, st, n, NS, ES, 1); \
        else tl__shuf_pass(k->p, src, dst, ld, st, n, NS, ES, 0); \
        break;

static void tl__shuf_pass_dispatch(const tl__shuf_kernel *k, const char *src,
                                   char *dst, const tl__shuf_slot *ld, const tl__shuf_slot *st,
                                   int n)
{
    switch (k->nstreams * 16 + (int)k->p->es) {
    TL__SHUF_PASS_CASE(2, 1)  TL__SHUF_PASS_CASE(2, 2)
    TL__SHUF_PASS_CASE(2, 4)  TL__SHUF_PASS_CASE(2, 8)
    TL__SHUF_PASS_CASE(4, 1)  TL__SHUF_PASS_CASE(4, 2)
    TL__SHUF_PASS_CASE(4, 4)  TL__SHUF_PASS_CASE(4, 8)
    TL__SHUF_PASS_CASE(8, 1)  TL__SHUF_PASS_CASE(8, 2)
    TL__SHUF_PASS_CASE(8, 4)  TL__SHUF_PASS_CASE(8, 8)
    TL__SHUF_PASS_CASE(16, 1) TL__SHUF_PASS_CASE(16, 2)
    TL__SHUF_PASS_CASE(16, 4) TL__SHUF_PASS_CASE(16, 8)
    default: TL_ASSERT(0); break;     /* kernel_init admits only these */
    }
}
#undef TL__SHUF_PASS_CASE

/* Whole vectors: chunks of every stream, a table of slots per pass so
   that each pass walks the pixels once. */
static void tl__shuf_vectors(const tl__shuf_kernel *k, const char *src, char *dst)
{
    tl__shuf_slot ld[TL__SHUF_SLOTS], st[TL__SHUF_SLOTS];
    tl_dim nchunks = k->len / k->V, j0;
    int ns = k->nstreams, per = TL__SHUF_SLOTS / ns;
    for (j0 = 0; j0 < nchunks; j0 += per) {
        int n = nchunks - j0 < per ? (int)(nchunks - j0) : per, j;
        for (j = 0; j < n; ++j) tl__shuf_chunk_slots(k, j0 + j, ld + j * ns, st + j * ns);
        tl__shuf_pass_dispatch(k, src, dst, ld, st, n);
    }
}

/* Tail: the last len % V elements of every stream, one by one. */
static void tl__shuf_tail(const tl__shuf_kernel *k, const char *src, char *dst)
{
    tl_dim doff[16 * 15], soff[16 * 15], x;  /* nstreams * (V - 1) at most */
    const tl__shuffle_plan *p = k->p;
    int n = 0, i;
    tl__shuffle_walk w;
    for (x = (k->len / k->V) * k->V; x < k->len; ++x)
        for (i = 0; i < k->nstreams; ++i) {
            tl_dim c = k->unzip ? i * k->Q + x : x * k->Q + i;
            doff[n] = tl__shuffle_chan_off(p, c);
            soff[n++] = tl__shuffle_chan_off(p, tl__shuffle_src_chan(c, p->C, p->G));
        }
    if (n == 0) return;
    tl__shuffle_walk_start(p, &w);
    do {
        for (i = 0; i < n; ++i)
            tl__copy_bytes(dst + w.off + doff[i], src + w.off + soff[i], (tl_dim)p->es);
    } while (tl__shuffle_walk_next(p, &w));
}

static int tl__simd_shuffle(const tl__shuffle_plan *p, const char *src, char *dst)
{
    tl__shuf_kernel k;
    if (!tl__shuf_kernel_init(&k, p)) return 0;
    tl__shuf_vectors(&k, src, dst);
    tl__shuf_tail(&k, src, dst);
    return 1;
}

#endif /* TL__SIMD_IMPLEMENTATION_DONE */
#endif /* TENSORLAYOUT_IMPLEMENTATION && TL__SIMD_ENABLED */
