/* tlbench - times tensorlayout's reorder and shuffle against memcpy and
   oneDNN 2.6, and checks them against the scalar engine.

   It reads benchdnn's command lines for the cases tensorlayout covers, so
   a oneDNN user can paste theirs:

     tlbench --mode=P --threads=1,2 --reorder --sdt=f32 --ddt=s8 \
             --stag=nchw --dtag=nChw16c --attr-oscale=common:0.5 \
             --attr-post-ops=sum:0.5 32x64x56x56
     tlbench --shuffle --dir=FWD_D --dt=f32 --tag=nhwc --axis=1 \
             --group=2 32x232x28x28
     tlbench --batch=bench/inputs/standard --csv=out.csv

   Options stay in force for the problems that follow, until --reset or a
   driver switch (as in benchdnn); comma lists (--sdt=f32,bf16) run every
   combination. See docs/performance.md for the rest. */
#define _POSIX_C_SOURCE 200809L
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout_simd.h"

#include "tlbench.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define TLB_MAX_THREADS 8
#define TLB_MAX_REPS 1000
#define TLB_LINE 1024

/* ---- options --------------------------------------------------------- */

enum { TLB_REORDER, TLB_SHUFFLE };
enum { TLB_PERF, TLB_CORR };

/* Per-problem options: each holds a comma list, and a problem runs once
   for every combination. */
enum {
    TLB_O_SDT, TLB_O_DDT, TLB_O_STAG, TLB_O_DTAG, TLB_O_OSCALE, TLB_O_SCALES,
    TLB_O_ZP, TLB_O_POST, TLB_O_DT, TLB_O_TAG, TLB_O_DIR, TLB_O_AXIS,
    TLB_O_GROUP, TLB_O_COUNT
};
static const char *const tlb_opt_names[TLB_O_COUNT] = {
    "sdt", "ddt", "stag", "dtag", "attr-oscale", "attr-scales",
    "attr-zero-points", "attr-post-ops", "dt", "tag", "dir", "axis", "group"
};
static const char *const tlb_opt_defaults[TLB_O_COUNT] = {
    "f32", "f32", "abx", "abx", "", "", "", "", "f32", "abx", "FWD_D", "1", "1"
};

typedef struct {
    int driver, mode;
    char opt[TLB_O_COUNT][256];
    int threads[TLB_MAX_THREADS], nthreads;
    int reps;
    double max_bytes;            /* skip problems moving more (src + dst) */
    int no_onednn;               /* --no-onednn: ours and memcpy only */
    FILE *csv;
    int failures, skipped, run;
    int header_done;
} tlb_state;

static void tlb_reset(tlb_state *s)
{
    int i;
    for (i = 0; i < TLB_O_COUNT; ++i) {
        strncpy(s->opt[i], tlb_opt_defaults[i], sizeof s->opt[i] - 1);
        s->opt[i][sizeof s->opt[i] - 1] = '\0';
    }
}

/* ---- one problem ----------------------------------------------------- */

typedef struct {
    int driver;
    tl_memory_desc src, dst;     /* shuffle: both the data descriptor */
    tl_reorder_attr attr;
    float *scales;
    int axis;
    tl_dim group;
    tl_direction dir;
    char line[TLB_LINE];         /* the benchdnn line that reproduces it */
} tlb_prb;

/* benchdnn writes plain layouts with 'x' for "the remaining dims":
   abx = abcd, axb = acdb, aBx16b = aBcd16b for 4 dims. */
static int tlb_expand_tag(const char *tag, int ndims, char *out, size_t len)
{
    const char *x = strchr(tag, 'x');
    int used[26], n = 0, i;
    size_t k = 0;
    if (!x || strcmp(tag, "x") == 0 || strlen(tag) + (size_t)ndims + 1 > len) {
        if (strlen(tag) + 1 > len) return 1;
        strcpy(out, tag);
        return 0;
    }
    for (i = 0; i < 26; ++i) used[i] = 0;
    for (i = 0; tag[i] && !(tag[i] >= '0' && tag[i] <= '9'); ++i) {
        char c = tag[i] >= 'A' && tag[i] <= 'Z' ? (char)(tag[i] - 'A' + 'a') : tag[i];
        if (c != 'x' && c >= 'a' && c <= 'z') { used[c - 'a'] = 1; ++n; }
    }
    for (i = 0; tag[i]; ++i) {
        if (tag[i] == 'x' && &tag[i] == x) {
            int d, left = ndims - n;
            for (d = 0; d < ndims && left > 0; ++d)
                if (!used[d]) { out[k++] = (char)('a' + d); --left; }
        } else {
            out[k++] = tag[i];
        }
    }
    out[k] = '\0';
    return 0;
}

static int tlb_parse_dims(const char *s, int *ndims, tl_dim *dims)
{
    int n = 0;
    while (*s) {
        char *end;
        long long v;
        if (n == TL_MAX_NDIMS) return 1;
        errno = 0;
        v = strtoll(s, &end, 10);
        if (end == s || errno || v < 0) return 1;
        dims[n++] = (tl_dim)v;
        s = end;
        if (*s == 'x') ++s;
        else if (*s) return 1;
    }
    *ndims = n;
    return n == 0;
}

/* Policy name -> scale mask, as benchdnn 2.6 spells them. */
static int tlb_policy_mask(const char *p, int ndims, int *mask)
{
    if (strcmp(p, "common") == 0) *mask = 0;
    else if (strcmp(p, "per_oc") == 0 || strcmp(p, "per_dim_1") == 0) *mask = 2;
    else if (strcmp(p, "per_dim_0") == 0) *mask = 1;
    else if (strcmp(p, "per_dim_01") == 0) *mask = 3;
    else if (strcmp(p, "per_tensor") == 0) *mask = (1 << ndims) - 1;
    else if (strncmp(p, "per_dim_", 8) == 0 && p[8] >= '0' && p[8] <= '9' && !p[9])
        *mask = 1 << (p[8] - '0');
    else return 1;
    return (*mask >> ndims) != 0;
}

/* "POLICY[:SCALE][*]" (the trailing * is benchdnn's runtime flag). */
static int tlb_parse_policy_scale(const char *s, int ndims, int *mask, float *scale)
{
    char pol[64];
    const char *colon = strchr(s, ':');
    size_t n = colon ? (size_t)(colon - s) : strlen(s);
    if (n == 0 || n >= sizeof pol) return 1;
    memcpy(pol, s, n);
    pol[n] = '\0';
    *scale = colon ? (float)strtod(colon + 1, NULL) : 1.f;
    return tlb_policy_mask(pol, ndims, mask);
}

/* Builds attr from --attr-oscale, --attr-scales, --attr-zero-points and
   --attr-post-ops. One scale mask in all: a second non-common policy is
   refused. --attr-scales follows oneDNN 3: src:S multiplies, dst:S
   divides. */
static int tlb_parse_attr(tlb_prb *p, const char *oscale, const char *scales,
                          const char *zp, const char *post, int ndims,
                          char *why, size_t len)
{
    int mask = 0, have = 0;
    float base = 1.f;
    char buf[256], *tok, *save = NULL;
    if (*oscale) {
        if (tlb_parse_policy_scale(oscale, ndims, &mask, &base)) {
            snprintf(why, len, "bad --attr-oscale=%s", oscale);
            return 1;
        }
        have = 1;
    }
    strncpy(buf, scales, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    for (tok = strtok_r(buf, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
        int m;
        float s;
        int is_dst = strncmp(tok, "dst:", 4) == 0;
        if (!is_dst && strncmp(tok, "src:", 4) != 0) {
            snprintf(why, len, "bad --attr-scales entry %s", tok);
            return 1;
        }
        if (tlb_parse_policy_scale(tok + 4, ndims, &m, &s) || (m && mask && m != mask)) {
            snprintf(why, len, "unsupported --attr-scales entry %s", tok);
            return 1;
        }
        if (m) mask = m;
        base = is_dst ? base / s : base * s;
        have = 1;
    }
    if (have) {
        tl_dim count = 1, j;
        int d;
        for (d = 0; d < ndims; ++d) if (mask & (1 << d)) count *= p->src.dims[d];
        p->scales = (float *)malloc((size_t)(count > 0 ? count : 1) * sizeof(float));
        if (!p->scales) { snprintf(why, len, "out of memory"); return 1; }
        /* exact binary factors around the base, so a per-slice mistake
           shows up as a wrong value, not as rounding noise */
        for (j = 0; j < count; ++j) {
            static const float f[4] = { 1.f, 0.5f, 2.f, 0.25f };
            p->scales[j] = base * (mask ? f[j % 4] : 1.f);
        }
        p->attr.scales = p->scales;
        p->attr.scale_mask = mask;
    }
    strncpy(buf, zp, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    for (tok = strtok_r(buf, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
        /* ARG:POLICY:VALUE (2.6) or ARG:VALUE (older) */
        const char *v = strrchr(tok, ':');
        int is_dst = strncmp(tok, "dst:", 4) == 0;
        if (!v || (!is_dst && strncmp(tok, "src:", 4) != 0) ||
            (strchr(tok + 4, ':') && strncmp(tok + 4, "common:", 7) != 0)) {
            snprintf(why, len, "unsupported --attr-zero-points entry %s", tok);
            return 1;
        }
        if (is_dst) p->attr.dst_zero_point = (int32_t)strtol(v + 1, NULL, 10);
        else p->attr.src_zero_point = (int32_t)strtol(v + 1, NULL, 10);
    }
    strncpy(buf, post, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    for (tok = strtok_r(buf, "+;'", &save); tok; tok = strtok_r(NULL, "+;'", &save)) {
        if (strncmp(tok, "sum", 3) != 0 || (tok[3] && tok[3] != ':')) {
            snprintf(why, len, "post-op %s: only sum is a reorder post-op here", tok);
            return 1;
        }
        p->attr.beta = tok[3] ? (float)strtod(tok + 4, NULL) : 1.f;
    }
    return 0;
}

/* The problem for the current option values vals[] and dims. */
static int tlb_prb_init(tlb_prb *p, int driver, char vals[][64],
                        const char *dims_str, char *why, size_t len)
{
    tl_dim dims[TL_MAX_NDIMS];
    int ndims, k;
    char tag1[64], tag2[64];
    tl_status st;
    memset(p, 0, sizeof *p);
    p->driver = driver;
    if (tlb_parse_dims(dims_str, &ndims, dims)) {
        snprintf(why, len, "bad problem dims '%s'", dims_str);
        return 1;
    }
    if (driver == TLB_REORDER) {
        tl_data_type sdt = tl_dt_from_name(vals[TLB_O_SDT]);
        tl_data_type ddt = tl_dt_from_name(vals[TLB_O_DDT]);
        if (tlb_expand_tag(vals[TLB_O_STAG], ndims, tag1, sizeof tag1) ||
            tlb_expand_tag(vals[TLB_O_DTAG], ndims, tag2, sizeof tag2)) {
            snprintf(why, len, "tag too long");
            return 1;
        }
        st = tl_md_init_by_tag(&p->src, ndims, dims, sdt, tag1);
        if (!st) st = tl_md_init_by_tag(&p->dst, ndims, dims, ddt, tag2);
        if (st) {
            snprintf(why, len, "descriptor: %s", tl_status_str(st));
            return 1;
        }
        if (tlb_parse_attr(p, vals[TLB_O_OSCALE], vals[TLB_O_SCALES], vals[TLB_O_ZP],
                           vals[TLB_O_POST], ndims, why, len))
            return 1;
        k = snprintf(p->line, sizeof p->line, "--reorder --sdt=%s --ddt=%s --stag=%s --dtag=%s",
                     vals[TLB_O_SDT], vals[TLB_O_DDT], vals[TLB_O_STAG], vals[TLB_O_DTAG]);
        if (*vals[TLB_O_OSCALE])
            k += snprintf(p->line + k, sizeof p->line - (size_t)k, " --attr-oscale=%s", vals[TLB_O_OSCALE]);
        if (*vals[TLB_O_SCALES])
            k += snprintf(p->line + k, sizeof p->line - (size_t)k, " --attr-scales=%s", vals[TLB_O_SCALES]);
        if (*vals[TLB_O_ZP])
            k += snprintf(p->line + k, sizeof p->line - (size_t)k, " --attr-zero-points=%s", vals[TLB_O_ZP]);
        if (*vals[TLB_O_POST])
            k += snprintf(p->line + k, sizeof p->line - (size_t)k, " --attr-post-ops=%s", vals[TLB_O_POST]);
    } else {
        const char *dir = vals[TLB_O_DIR];
        if (tlb_expand_tag(vals[TLB_O_TAG], ndims, tag1, sizeof tag1)) {
            snprintf(why, len, "tag too long");
            return 1;
        }
        st = tl_md_init_by_tag(&p->src, ndims, dims, tl_dt_from_name(vals[TLB_O_DT]), tag1);
        if (st) {
            snprintf(why, len, "descriptor: %s", tl_status_str(st));
            return 1;
        }
        p->dst = p->src;
        p->axis = atoi(vals[TLB_O_AXIS]);
        p->group = (tl_dim)strtoll(vals[TLB_O_GROUP], NULL, 10);
        if (strcmp(dir, "FWD_D") == 0 || strcmp(dir, "FWD_I") == 0) p->dir = TL_FORWARD;
        else if (strcmp(dir, "BWD_D") == 0) p->dir = TL_BACKWARD;
        else { snprintf(why, len, "bad --dir=%s", dir); return 1; }
        k = snprintf(p->line, sizeof p->line, "--shuffle --dir=%s --dt=%s --tag=%s --axis=%s --group=%s",
                     dir, vals[TLB_O_DT], vals[TLB_O_TAG], vals[TLB_O_AXIS], vals[TLB_O_GROUP]);
    }
    snprintf(p->line + k, sizeof p->line - (size_t)k, " %s", dims_str);
    return 0;
}

/* ---- buffers --------------------------------------------------------- */

static void *tlb_alloc(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 1)) return NULL;
    return p;
}

static uint64_t tlb_rng = 0x2545f4914f6cdd1dull;
static uint32_t tlb_rand(void)
{
    tlb_rng ^= tlb_rng << 13;
    tlb_rng ^= tlb_rng >> 7;
    tlb_rng ^= tlb_rng << 17;
    return (uint32_t)(tlb_rng >> 16);
}

/* Values a real tensor of dt could hold. f32 values are multiples of
   1/8, so conversions meet exact .5 ties. */
static void tlb_fill(void *buf, size_t bytes, tl_data_type dt)
{
    size_t i, n = bytes / (tl_dt_size(dt) ? tl_dt_size(dt) : 1);
    for (i = 0; i < n; ++i) {
        float f = (float)((int)(tlb_rand() % 4001u) - 2000) / 8.f;
        switch (dt) {
        case TL_F32: ((float *)buf)[i] = f; break;
        case TL_F16: ((uint16_t *)buf)[i] = tl_f32_to_f16(f); break;
        case TL_BF16: ((uint16_t *)buf)[i] = tl_f32_to_bf16(f); break;
        case TL_S32: ((int32_t *)buf)[i] = (int32_t)(tlb_rand() % 2000001u) - 1000000; break;
        case TL_S8: case TL_U8: ((uint8_t *)buf)[i] = (uint8_t)tlb_rand(); break;
        case TL_F64: ((double *)buf)[i] = f; break;
        default: break;
        }
    }
}

/* ---- timing ---------------------------------------------------------- */

static double tlb_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void tlb_set_threads(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
#else
    (void)n;
#endif
}

/* memcpy split over the threads, as a reorder would be; small copies
   stay on one thread (a parallel region costs more than they do). */
static void tlb_memcpy(void *dst, const void *src, size_t n, int nthr)
{
#ifdef _OPENMP
    if (nthr > 1 && n >= ((size_t)1 << 18)) {
        int t;
#pragma omp parallel for num_threads(nthr)
        for (t = 0; t < nthr; ++t) {
            size_t lo = n / (size_t)nthr * (size_t)t;
            size_t hi = t == nthr - 1 ? n : n / (size_t)nthr * (size_t)(t + 1);
            memcpy((char *)dst + lo, (const char *)src + lo, hi - lo);
        }
        return;
    }
#endif
    (void)nthr;
    memcpy(dst, src, n);
}

typedef struct {
    const tlb_prb *p;
    tl_reorder_plan plan;
    const void *src;
    void *dst;
    tlb_dnnl *dnnl;
    tlb_loop *loop;
    void *mc_src, *mc_dst;
    size_t mc_bytes;
    int nthr;
} tlb_run;

enum { TLB_OURS, TLB_DNNL, TLB_MEMCPY, TLB_LOOP, TLB_NWHO };

static int tlb_call(tlb_run *r, int who)
{
    switch (who) {
    case TLB_OURS:
        if (r->p->driver == TLB_REORDER)
            return tl_reorder_plan_execute(&r->plan, r->src, r->dst) != TL_OK;
        return tl_shuffle(&r->p->src, r->src, r->dst, r->p->axis, r->p->group, r->p->dir) != TL_OK;
    case TLB_DNNL:
        return tlb_dnnl_execute(r->dnnl);
    case TLB_LOOP:
        tlb_loop_execute(r->loop, r->src, r->dst);
        return 0;
    default:
        tlb_memcpy(r->mc_dst, r->mc_src, r->mc_bytes, r->nthr);
        return 0;
    }
}

/* Seconds per call of `who`, averaged over k calls. */
static double tlb_time(tlb_run *r, int who, int k)
{
    int i;
    double t0 = tlb_now();
    for (i = 0; i < k; ++i) tlb_call(r, who);
    return (tlb_now() - t0) / k;
}

static int tlb_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double tlb_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, tlb_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- correctness ----------------------------------------------------- */

/* Elements of dt that differ between a and b; NaN equals NaN. */
static size_t tlb_count_diffs(const void *a, const void *b, size_t bytes,
                              tl_data_type dt, double *max_abs)
{
    size_t i, n = 0, es = tl_dt_size(dt);
    *max_abs = 0;
    for (i = 0; i + es <= bytes; i += es) {
        double x = 0, y = 0;
        if (memcmp((const char *)a + i, (const char *)b + i, es) == 0) continue;
        switch (dt) {
        case TL_F32: { float f, g; memcpy(&f, (const char *)a + i, 4); memcpy(&g, (const char *)b + i, 4);
                       x = f; y = g; break; }
        case TL_F16: { uint16_t f, g; memcpy(&f, (const char *)a + i, 2); memcpy(&g, (const char *)b + i, 2);
                       x = tl_f16_to_f32(f); y = tl_f16_to_f32(g); break; }
        case TL_BF16: { uint16_t f, g; memcpy(&f, (const char *)a + i, 2); memcpy(&g, (const char *)b + i, 2);
                        x = tl_bf16_to_f32(f); y = tl_bf16_to_f32(g); break; }
        case TL_S32: { int32_t f, g; memcpy(&f, (const char *)a + i, 4); memcpy(&g, (const char *)b + i, 4);
                       x = f; y = g; break; }
        case TL_S8: x = ((const int8_t *)a)[i]; y = ((const int8_t *)b)[i]; break;
        case TL_U8: x = ((const uint8_t *)a)[i]; y = ((const uint8_t *)b)[i]; break;
        default: x = 0; y = 1; break;
        }
        if (x != x && y != y) continue;
        ++n;
        if (fabs(x - y) > *max_abs || x != x || y != y) *max_abs = x != x || y != y ? INFINITY : fabs(x - y);
    }
    return n;
}

static tl_status tlb_run_scalar(const tlb_prb *p, const void *src, void *dst)
{
    if (p->driver == TLB_REORDER) return tlb_scalar_reorder(&p->src, src, &p->dst, dst, &p->attr);
    return tlb_scalar_shuffle(&p->src, src, dst, p->axis, p->group, p->dir);
}

static tl_status tlb_run_ours(const tlb_prb *p, const void *src, void *dst)
{
    if (p->driver == TLB_REORDER) return tl_reorder(&p->src, src, &p->dst, dst, &p->attr);
    return tl_shuffle(&p->src, src, dst, p->axis, p->group, p->dir);
}

/* The bare loop of p (attr: p's with the thread count of the run), or
   NULL when it has none. */
static tlb_loop *tlb_loop_of(const tlb_prb *p, const tl_reorder_attr *attr)
{
    return p->driver == TLB_REORDER ? tlb_loop_create(&p->src, &p->dst, attr)
                                    : tlb_loop_create_shuffle(&p->src, p->axis, p->group, p->dir);
}

/* Whether the bare loop timed against p writes other bytes than ref, the
   scalar engine's; out: scratch of dst_bytes. Only where it has one,
   writes f32 (its s8/u8 rounding skips NaN) and dst has no padding (it
   leaves padding alone, as a loop written for one tensor would). */
static int tlb_loop_differs(const tlb_prb *p, const void *src, const void *init,
                            const void *ref, void *out, size_t dst_bytes)
{
    tlb_loop *l;
    int differs, d;
    if (p->dst.data_type != TL_F32) return 0;
    for (d = 0; d < p->dst.ndims; ++d)
        if (p->dst.padded_dims[d] != p->dst.dims[d]) return 0;
    l = tlb_loop_of(p, &p->attr);
    if (!l) return 0;
    memcpy(out, init, dst_bytes);
    tlb_loop_execute(l, src, out);
    differs = memcmp(out, ref, dst_bytes) != 0;
    tlb_loop_destroy(l);
    return differs;
}

/* oneDNN's primitive for problem p (attributes a) from src to dst, or
   NULL with the reason in why: not built with it, a problem it does not
   take, or --no-onednn (its bf16 and f16 reorders on machines without
   AVX-512 run a reference loop that can take minutes on a batch). */
static tlb_dnnl *tlb_dnnl_of(const tlb_state *s, const tlb_prb *p, const tl_reorder_attr *a,
                             const void *src, void *dst, char *why, size_t nwhy)
{
    if (s->no_onednn) {
        snprintf(why, nwhy, "oneDNN: off (--no-onednn)");
        return NULL;
    }
    return p->driver == TLB_REORDER
        ? tlb_dnnl_reorder_create(&p->src, (void *)src, &p->dst, dst, a, why, nwhy)
        : tlb_dnnl_shuffle_create(&p->src, (void *)src, dst, p->axis, p->group, p->dir, why, nwhy);
}

/* Ours against the scalar engine (must be bit-identical) and against
   oneDNN (reported; oneDNN 2.6 differs by design in a few corners). */
static void tlb_check(tlb_state *s, const tlb_prb *p, const void *src,
                      size_t dst_bytes)
{
    void *init = tlb_alloc(dst_bytes), *ours = tlb_alloc(dst_bytes);
    void *ref = tlb_alloc(dst_bytes), *onednn = tlb_alloc(dst_bytes);
    tl_status st_ours, st_ref;
    char why[256] = "", dnnl_note[160] = "oneDNN: n/a";
    int t, loop_differs;
    if (!init || !ours || !ref || !onednn) {
        printf("skip (out of memory) %s\n", p->line);
        ++s->skipped;
        goto done;
    }
    tlb_fill(init, dst_bytes, p->dst.data_type);
    for (t = 0; t < s->nthreads; ++t) {
        tlb_prb q = *p;
        size_t nd;
        double max_abs;
        tlb_dnnl *d;
        q.attr.nthreads = s->threads[t];
        tlb_set_threads(s->threads[t]);
        memcpy(ours, init, dst_bytes);
        memcpy(ref, init, dst_bytes);
        memcpy(onednn, init, dst_bytes);
        st_ours = tlb_run_ours(&q, src, ours);
        st_ref = tlb_run_scalar(&q, src, ref);
        d = tlb_dnnl_of(s, &q, &q.attr, src, onednn, why, sizeof why);
        if (d && tlb_dnnl_execute(d) == 0) {
            nd = tlb_count_diffs(ours, onednn, dst_bytes, p->dst.data_type, &max_abs);
            if (nd) snprintf(dnnl_note, sizeof dnnl_note, "oneDNN: %lu differ, max |diff| %g",
                             (unsigned long)nd, max_abs);
            else snprintf(dnnl_note, sizeof dnnl_note, "oneDNN: equal");
        } else {
            snprintf(dnnl_note, sizeof dnnl_note, "%s", why);
        }
        tlb_dnnl_destroy(d);
        loop_differs = tlb_loop_differs(&q, src, init, ref, onednn, dst_bytes);
        if (st_ours != st_ref) {
            printf("FAIL status %s vs scalar %s: %s\n", tl_status_str(st_ours), tl_status_str(st_ref), p->line);
            ++s->failures;
        } else if (st_ours != TL_OK) {
            printf("skip (%s) %s\n", tl_status_str(st_ours), p->line);
            ++s->skipped;
        } else if (memcmp(ours, ref, dst_bytes) != 0) {
            nd = tlb_count_diffs(ours, ref, dst_bytes, p->dst.data_type, &max_abs);
            printf("FAIL %lu elements differ from the scalar engine (threads %d): %s\n",
                   (unsigned long)nd, s->threads[t], p->line);
            ++s->failures;
        } else if (loop_differs) {
            printf("FAIL the bare loop (the tiny tensors' yardstick) differs from the scalar engine: %s\n",
                   p->line);
            ++s->failures;
        } else {
            printf("ok   thr %d  %-34s %s\n", s->threads[t], dnnl_note, p->line);
            if (s->csv) fprintf(s->csv, "\"%s\",%d,ok,\"%s\"\n", p->line, s->threads[t], dnnl_note);
        }
    }
done:
    free(init); free(ours); free(ref); free(onednn);
}

/* ---- performance ----------------------------------------------------- */

static void tlb_perf(tlb_state *s, const tlb_prb *p, void *src, void *dst,
                     size_t src_bytes, size_t dst_bytes)
{
    tlb_run r;
    int t, who, i;
    double bytes = (double)src_bytes + (double)dst_bytes;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.src = src;
    r.dst = dst;
    r.mc_bytes = (src_bytes + dst_bytes) / 2;   /* same traffic as ours */
    r.mc_src = tlb_alloc(r.mc_bytes);
    r.mc_dst = tlb_alloc(r.mc_bytes);
    if (!r.mc_src || !r.mc_dst) {
        printf("skip (out of memory) %s\n", p->line);
        ++s->skipped;
        free(r.mc_src); free(r.mc_dst);
        return;
    }
    memset(r.mc_src, 1, r.mc_bytes);
    memset(r.mc_dst, 0, r.mc_bytes);
    for (t = 0; t < s->nthreads; ++t) {
        double samples[TLB_NWHO][TLB_MAX_REPS], med[TLB_NWHO], est;
        int have[TLB_NWHO], k, warm;
        char why[256] = "";
        tl_reorder_attr a = p->attr;
        tl_status st = TL_OK;
        r.nthr = s->threads[t];
        tlb_set_threads(r.nthr);
        a.nthreads = r.nthr;
        if (p->driver == TLB_REORDER) st = tl_reorder_plan_init(&r.plan, &p->src, &p->dst, &a);
        if (st != TL_OK) {
            printf("skip (%s) %s\n", tl_status_str(st), p->line);
            ++s->skipped;
            break;
        }
        r.dnnl = tlb_dnnl_of(s, p, &a, src, dst, why, sizeof why);
        have[TLB_OURS] = tlb_call(&r, TLB_OURS) == 0;
        have[TLB_DNNL] = r.dnnl && tlb_call(&r, TLB_DNNL) == 0;
        have[TLB_MEMCPY] = 1;
        r.loop = tlb_loop_of(p, &a);
        have[TLB_LOOP] = r.loop != NULL;
        if (!have[TLB_OURS]) {
            printf("skip (execute failed) %s\n", p->line);
            ++s->skipped;
            tlb_dnnl_destroy(r.dnnl);
            tlb_loop_destroy(r.loop);
            break;
        }
        /* warm-up, and a batch size k that makes the slowest sample
           >= ~0.2 ms, so tiny tensors are not timed at the clock's
           resolution */
        est = 0;
        for (who = 0; who < TLB_NWHO; ++who) {
            if (!have[who]) continue;
            tlb_call(&r, who);
            est = fmax(est, tlb_time(&r, who, 1));
        }
        k = est > 2e-4 ? 1 : (int)fmin(100000., ceil(2e-4 / fmax(est, 1e-8)));
        /* each sample after untimed calls of its own, so that every
           contestant meets its own data where its own calls leave it (as
           benchdnn's calls back to back do). Straight after another's
           calls, a few MiB of data take several calls to settle in the
           L3 again (f32 abcd -> acbd 16x128x12x64, 12 MiB, Zen 4: 2.4x
           slower on the first call, 1.5x on the second), and in plain
           turns oneDNN came right after ours on the same buffers, ours
           after memcpy's (ours/oneDNN 0.5-0.6 where it is 0.9-1.0) */
        warm = bytes < 64.0 * 1048576 ? 3 : 1;
        for (i = 0; i < s->reps; ++i)
            for (who = 0; who < TLB_NWHO; ++who)
                if (have[who]) {
                    int w;
                    for (w = 0; w < warm; ++w) tlb_call(&r, who);
                    samples[who][i] = tlb_time(&r, who, k);
                }
        for (who = 0; who < TLB_NWHO; ++who)
            med[who] = have[who] ? tlb_median(samples[who], s->reps) : 0;
        if (!s->header_done) {
            printf("thr       MiB     ours   memcpy   oneDNN  /mcpy  /dnnl  /loop  problem  (GB/s)\n");
            s->header_done = 1;
        }
        {
            double gb_ours = bytes / med[TLB_OURS] * 1e-9;
            double gb_mc = bytes / med[TLB_MEMCPY] * 1e-9;
            double gb_dnnl = have[TLB_DNNL] ? bytes / med[TLB_DNNL] * 1e-9 : 0;
            double gb_loop = have[TLB_LOOP] ? bytes / med[TLB_LOOP] * 1e-9 : 0;
            printf("%3d %9.2f %8.2f %8.2f ", r.nthr, bytes / 1048576., gb_ours, gb_mc);
            if (have[TLB_DNNL]) printf("%8.2f %6.2f %6.2f", gb_dnnl, gb_ours / gb_mc, gb_ours / gb_dnnl);
            else printf("%8s %6.2f %6s", "-", gb_ours / gb_mc, "-");
            if (have[TLB_LOOP]) printf(" %6.2f", gb_ours / gb_loop);
            else printf(" %6s", "-");
            printf("  %s\n", p->line);
            if (s->csv) {
                fprintf(s->csv, "\"%s\",%d,%.0f,%.6g,%.6g,", p->line, r.nthr, bytes,
                        med[TLB_OURS] * 1e3, med[TLB_MEMCPY] * 1e3);
                if (have[TLB_DNNL]) fprintf(s->csv, "%.6g,", med[TLB_DNNL] * 1e3);
                else fprintf(s->csv, ",");
                fprintf(s->csv, "%.4g,%.4g,", gb_ours, gb_mc);
                if (have[TLB_DNNL]) fprintf(s->csv, "%.4g,%.4f,%.4f,", gb_dnnl,
                                            gb_ours / gb_mc, gb_ours / gb_dnnl);
                else fprintf(s->csv, ",%.4f,,", gb_ours / gb_mc);
                if (have[TLB_LOOP]) fprintf(s->csv, "%.6g,%.4f\n", med[TLB_LOOP] * 1e3, gb_ours / gb_loop);
                else fprintf(s->csv, ",\n");
            }
        }
        if (!have[TLB_DNNL] && t == 0 && tlb_dnnl_available() && !s->no_onednn)
            printf("    (%s)\n", why);
        tlb_dnnl_destroy(r.dnnl);
        r.dnnl = NULL;
        tlb_loop_destroy(r.loop);
        r.loop = NULL;
    }
    free(r.mc_src);
    free(r.mc_dst);
}

static void tlb_problem(tlb_state *s, const tlb_prb *p)
{
    size_t src_bytes = tl_md_size(&p->src), dst_bytes = tl_md_size(&p->dst);
    void *src, *dst;
    if ((double)src_bytes + (double)dst_bytes > s->max_bytes) {
        printf("skip (larger than --max-bytes) %s\n", p->line);
        ++s->skipped;
        return;
    }
    src = tlb_alloc(src_bytes);
    dst = tlb_alloc(dst_bytes);
    if (!src || !dst) {
        printf("skip (out of memory) %s\n", p->line);
        ++s->skipped;
    } else {
        tlb_fill(src, src_bytes, p->src.data_type);
        tlb_fill(dst, dst_bytes, p->dst.data_type);
        ++s->run;
        if (s->mode == TLB_CORR) tlb_check(s, p, src, dst_bytes);
        else tlb_perf(s, p, src, dst, src_bytes, dst_bytes);
    }
    free(src);
    free(dst);
}

/* Runs dims_str for every combination of the comma lists. */
static void tlb_problems(tlb_state *s, const char *dims_str)
{
    static const int reorder_opts[] = { TLB_O_SDT, TLB_O_DDT, TLB_O_STAG, TLB_O_DTAG,
                                        TLB_O_OSCALE, TLB_O_SCALES, TLB_O_ZP, TLB_O_POST };
    static const int shuffle_opts[] = { TLB_O_DT, TLB_O_TAG, TLB_O_DIR, TLB_O_AXIS, TLB_O_GROUP };
    const int *opts = s->driver == TLB_REORDER ? reorder_opts : shuffle_opts;
    int nopts = s->driver == TLB_REORDER ? 8 : 5;
    int pick[TLB_O_COUNT], count[TLB_O_COUNT], i;
    char vals[TLB_O_COUNT][64];
    for (i = 0; i < TLB_O_COUNT; ++i) {
        const char *c = s->opt[i];
        pick[i] = 0;
        count[i] = 1;
        while ((c = strchr(c, ',')) != NULL) { ++count[i]; ++c; }
    }
    for (;;) {
        tlb_prb p;
        char why[256];
        for (i = 0; i < TLB_O_COUNT; ++i) {   /* the pick[i]-th list entry */
            const char *c = s->opt[i];
            size_t n;
            int j;
            for (j = 0; j < pick[i]; ++j) c = strchr(c, ',') + 1;
            n = strcspn(c, ",");
            if (n >= sizeof vals[i]) n = sizeof vals[i] - 1;
            memcpy(vals[i], c, n);
            vals[i][n] = '\0';
        }
        if (tlb_prb_init(&p, s->driver, vals, dims_str, why, sizeof why)) {
            printf("skip (%s) %s\n", why, dims_str);
            ++s->skipped;
        } else {
            tlb_problem(s, &p);
        }
        free(p.scales);
        for (i = nopts - 1; i >= 0; --i) {
            if (++pick[opts[i]] < count[opts[i]]) break;
            pick[opts[i]] = 0;
        }
        if (i < 0) break;
    }
}

/* ---- command line and batch files ------------------------------------ */

static int tlb_batch(tlb_state *s, const char *path, int depth);

/* One argument; 0 when understood. */
static int tlb_arg(tlb_state *s, const char *arg, const char *dir, int depth)
{
    int i;
    const char *v = strchr(arg, '=');
    v = v ? v + 1 : "";
    if (strncmp(arg, "--", 2) != 0) { tlb_problems(s, arg); return 0; }
    arg += 2;
    if (strcmp(arg, "reorder") == 0 || strcmp(arg, "shuffle") == 0) {
        s->driver = arg[0] == 'r' ? TLB_REORDER : TLB_SHUFFLE;
        tlb_reset(s);
        return 0;
    }
    if (strcmp(arg, "reset") == 0) { tlb_reset(s); return 0; }
    for (i = 0; i < TLB_O_COUNT; ++i) {
        size_t n = strlen(tlb_opt_names[i]);
        if (strncmp(arg, tlb_opt_names[i], n) == 0 && arg[n] == '=') {
            if (strlen(v) >= sizeof s->opt[i]) return 1;
            strcpy(s->opt[i], v);
            return 0;
        }
    }
    if (strncmp(arg, "mode=", 5) == 0) {
        if (*v == 'P' || *v == 'p') s->mode = TLB_PERF;
        else if (*v == 'C' || *v == 'c') s->mode = TLB_CORR;
        else return 1;
        return 0;
    }
    if (strncmp(arg, "threads=", 8) == 0) {
        char *end;
        s->nthreads = 0;
        while (*v && s->nthreads < TLB_MAX_THREADS) {
            long n = strtol(v, &end, 10);
            if (end == v || n < 1 || n > 1024) return 1;
            s->threads[s->nthreads++] = (int)n;
            v = *end == ',' ? end + 1 : end;
            if (*end && *end != ',') return 1;
        }
        return s->nthreads == 0;
    }
    if (strncmp(arg, "reps=", 5) == 0 || strncmp(arg, "fix-times-per-prb=", 18) == 0) {
        s->reps = atoi(v);
        if (s->reps < 1) s->reps = 1;
        if (s->reps > TLB_MAX_REPS) s->reps = TLB_MAX_REPS;
        return 0;
    }
    if (strcmp(arg, "no-onednn") == 0) {
        s->no_onednn = 1;
        return 0;
    }
    if (strncmp(arg, "max-bytes=", 10) == 0) {
        char *end;
        s->max_bytes = strtod(v, &end);
        if (*end == 'K' || *end == 'k') s->max_bytes *= 1024.;
        if (*end == 'M' || *end == 'm') s->max_bytes *= 1048576.;
        if (*end == 'G' || *end == 'g') s->max_bytes *= 1073741824.;
        return 0;
    }
    if (strncmp(arg, "csv=", 4) == 0) {
        if (s->csv) fclose(s->csv);
        s->csv = fopen(v, "w");
        if (!s->csv) { fprintf(stderr, "tlbench: cannot write %s\n", v); return 1; }
        if (s->mode == TLB_CORR) fprintf(s->csv, "problem,threads,result,onednn\n");
        else fprintf(s->csv, "problem,threads,bytes,ours_ms,memcpy_ms,onednn_ms,"
                             "ours_gbs,memcpy_gbs,onednn_gbs,ours_per_memcpy,ours_per_onednn,"
                             "loop_ms,ours_per_loop\n");
        return 0;
    }
    if (strncmp(arg, "batch=", 6) == 0) {
        char path[1024];
        /* relative to the including file, then to the working directory */
        if (dir && *dir && v[0] != '/') {
            FILE *f;
            snprintf(path, sizeof path, "%s/%s", dir, v);
            f = fopen(path, "r");
            if (f) { fclose(f); return tlb_batch(s, path, depth + 1); }
        }
        return tlb_batch(s, v, depth + 1);
    }
    if (strncmp(arg, "max-ms-per-prb=", 15) == 0 || strncmp(arg, "engine=", 7) == 0 ||
        strncmp(arg, "allow-enum-tags-only=", 21) == 0)
        return 0;   /* benchdnn options with no meaning here */
    return 1;
}

static int tlb_batch(tlb_state *s, const char *path, int depth)
{
    char line[TLB_LINE], dir[1024];
    const char *slash = strrchr(path, '/');
    FILE *f;
    int bad = 0;
    if (depth > 8) { fprintf(stderr, "tlbench: batch files nest too deep\n"); return 1; }
    f = fopen(path, "r");
    if (!f) { fprintf(stderr, "tlbench: cannot read batch file %s\n", path); return 1; }
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 0, path);
    while (!bad && fgets(line, sizeof line, f)) {
        char *tok, *save = NULL, *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        for (tok = strtok_r(line, " \t\r\n", &save); tok && !bad;
             tok = strtok_r(NULL, " \t\r\n", &save)) {
            if (tlb_arg(s, tok, dir, depth)) {
                fprintf(stderr, "tlbench: %s: cannot use '%s'\n", path, tok);
                bad = 1;
            }
        }
    }
    fclose(f);
    return bad;
}

int main(int argc, char **argv)
{
    tlb_state s;
    int i;
    memset(&s, 0, sizeof s);
    s.driver = TLB_REORDER;
    s.mode = TLB_PERF;
    s.threads[0] = 1;
    s.threads[1] = 2;
    s.nthreads = 2;
    s.reps = 10;
    s.max_bytes = 1e300;
    tlb_reset(&s);
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        printf("usage: tlbench [--mode=P|C] [--threads=1,2] [--reps=N] [--csv=FILE]\n"
               "               [--max-bytes=N[K|M|G]] [--no-onednn] --batch=FILE | <benchdnn problem>...\n"
               "  P columns: threads, MiB moved (src + dst), GB/s ours, memcpy, oneDNN,\n"
               "  ratios ours/memcpy and ours/oneDNN (medians of --reps samples)\n");
        return argc < 2;
    }
    /* --mode, --no-onednn and --csv apply to the whole run wherever they stand */
    for (i = 1; i < argc; ++i)
        if ((strncmp(argv[i], "--mode=", 7) == 0 || strcmp(argv[i], "--no-onednn") == 0) &&
            tlb_arg(&s, argv[i], NULL, 0)) {
            fprintf(stderr, "tlbench: cannot use '%s' (see --help)\n", argv[i]);
            return 2;
        }
    for (i = 1; i < argc; ++i)
        if (strncmp(argv[i], "--csv=", 6) == 0 && tlb_arg(&s, argv[i], NULL, 0)) return 2;
    for (i = 1; i < argc; ++i) {
        if (strncmp(argv[i], "--csv=", 6) == 0) continue;
        if (tlb_arg(&s, argv[i], NULL, 0)) {
            fprintf(stderr, "tlbench: cannot use '%s' (see --help)\n", argv[i]);
            if (s.csv) fclose(s.csv);
            return 2;
        }
    }
    if (s.csv) fclose(s.csv);
    printf("%d problems, %d skipped, %d failed\n", s.run, s.skipped, s.failures);
    return s.failures ? 1 : 0;
}
