/* oneDNN's own reorder test problems (test/data/reorder_benchdnn.txt,
   translated from its benchdnn inputs) through tl_reorder and through
   oneDNN 2.6, each twice: with benchdnn's own fill, and with random
   benchdnn-like data (integers and fractions in each type's range, values
   that saturate, ties for rounding). Compared bit for
   bit: the values in logical order, then the whole destination buffer
   (padding, compensation). Both destinations start from the same bytes,
   so a sum post-op reads the same old values.

   Where the two disagree by design (DESIGN.md and docs/reorder.md, "Differences
   from oneDNN 2.6") the difference is checked to be exactly that one and
   counted under its category; anything else fails. A problem oneDNN refuses
   must be refused by us too, unless DESIGN.md supports more (a data-type
   pair, compensation or attributes oneDNN 2.6 lacks), which is counted. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include "test_reorder_util.h"
#include "dnnl_util.h"

/* Why a problem does not count as an exact match. */
enum {
    CAT_PAIR,        /* oneDNN 2.6 lacks the data-type pair */
    CAT_COMP,        /* oneDNN 2.6 lacks compensation for this layout or source type */
    CAT_ATTR,        /* oneDNN 2.6 lacks the attributes for this problem */
    CAT_PAD_SUM,     /* oneDNN leaves padding as it was under a sum */
    CAT_ZERO_SIGN,   /* -0.0 against +0.0 */
    CAT_S32_COPY,    /* oneDNN's reference rounds s32 -> s32 copies through f32 */
    CAT_INT_WRAP,    /* oneDNN's jit: values at or above 2^31 wrap to the minimum */
    CAT_ZP_IGNORED,  /* oneDNN's jit drops the zero points */
    CAT_ZP_ORDER,    /* oneDNN's reference adds dst_zero_point before the sum */
    CAT_S32_ZP,      /* oneDNN's jit: s32 with zero points partly in integers */
    NCATS
};
static const char *const cat_names[NCATS] = {
    "data-type pair oneDNN 2.6 lacks (we support it)",
    "compensation oneDNN 2.6 lacks for this layout or source (we support it)",
    "attributes oneDNN 2.6 lacks for this problem (we support them)",
    "padding under a sum: oneDNN keeps the old bytes, we write zeros",
    "sign of a zero: oneDNN -0.0 / +0.0 where we give the other",
    "s32 -> s32 copy: oneDNN's reference rounds through f32, we copy exactly",
    "values at or above 2^31 to an integer type: oneDNN's jit wraps to the minimum, we saturate",
    "zero points: oneDNN's jit ignores them for this problem, we apply them",
    "dst zero point with a sum: oneDNN's reference adds it before the sum, we after",
    "s32 beyond 2^24 with zero points: oneDNN's jit computes partly in integers, we in f32",
};

typedef struct {
    char sdt[16], ddt[16], stag[64], dtag[64], dims[64], scales[32], beta[16], comp[16];
    int szp, dzp;
    int line;
} problem;

static long n_run, n_matched, n_refused_both, n_cat[NCATS], n_mismatch;

/* benchdnn's x: the dims the tag does not name, in order. */
static int expand_tag(const char *tag, int ndims, char *out, size_t len)
{
    int named = 0, n = 0, d;
    const char *p;
    for (p = tag; *p && !(*p >= '0' && *p <= '9'); ++p)
        if (*p != 'x') ++named;
    for (p = tag; *p; ++p) {
        if (*p == 'x' && (p == tag || !(p[-1] >= '0' && p[-1] <= '9'))) {
            for (d = named; d < ndims; ++d) out[n++] = (char)('a' + d);
        } else {
            out[n++] = *p;
        }
        if ((size_t)n + TL_MAX_NDIMS >= len) return 1;
    }
    out[n] = '\0';
    return 0;
}

static int parse_dims(const char *s, tl_dim *dims)
{
    int n = 0;
    char *end;
    for (;;) {
        if (n == TL_MAX_NDIMS) return -1;
        dims[n++] = strtoll(s, &end, 10);
        if (*end != 'x') return *end ? -1 : n;
        s = end + 1;
    }
}

static tl_data_type dt_of(const char *name)
{
    tl_data_type dt = tl_dt_from_name(name);
    CHECK_MSG(dt != TL_DT_UNDEF, "data type %s", name);
    return dt;
}

/* ---- benchdnn-like data ---- */

/* A value for an element of type dt: mostly ordinary numbers of the
   type's range; ties; numbers that saturate s8/u8, f16 or s32. */
static void put_value(tl_data_type dt, void *p)
{
    int32_t i = (int32_t)tl_test_range(-300, 300);
    float f;
    switch (tl_test_range(0, 19)) {
    case 0: case 1: case 2: case 3: case 4: case 5: f = (float)tl_test_range(-200, 200); break;
    case 6: case 7: case 8: case 9: f = (float)tl_test_range(-400, 400) / 4.0f; break;
    case 10: case 11: case 12: f = (float)tl_test_range(-130, 130) + 0.5f; break;   /* ties */
    case 13: case 14: f = (float)tl_test_range(130, 1000) * (tl_test_range(0, 1) ? 1 : -1); break;
    case 15: f = (float)tl_test_range(40000, 65000) * (tl_test_range(0, 1) ? 1 : -1); break;
    case 16: f = dt == TL_F16 ? 65504.0f : 3e9f * (tl_test_range(0, 1) ? 1 : -1); break;
    case 17: f = (float)tl_test_range(-1000000, 1000000) / 1024.0f; break;
    case 18: f = 0; break;
    default: f = (float)tl_test_range(-127, 127); break;
    }
    if (dt == TL_S32) {
        switch (tl_test_range(0, 9)) {
        case 0: i = (int32_t)tl_test_range(16777217, 16777300) * (tl_test_range(0, 1) ? 1 : -1); break;
        case 1: i = tl_test_range(0, 1) ? INT32_MAX - (int32_t)tl_test_range(0, 200)
                                        : INT32_MIN + (int32_t)tl_test_range(0, 200); break;
        default: break;
        }
    }
    if (dt == TL_S8) i = (int32_t)tl_test_range(-128, 127);
    if (dt == TL_U8) i = (int32_t)tl_test_range(0, 255);
    rt_put(dt, p, f, i);
}

static void fill_garbage(char *buf, size_t bytes)
{
    size_t k;
    for (k = 0; k < bytes; k += 8) {
        uint64_t r = tl_test_rand();
        memcpy(buf + k, &r, bytes - k < 8 ? bytes - k : 8);
    }
}

/* benchdnn's own fill: element i in logical (row-major) order gets the
   i % 7-th of {max, min, 1.6/scale, 0.2/scale, 1/scale, 2, scale}, with
   its type's range (f32 and bf16 +-2^24, f16 +-2048, integers their
   limits) and its element's scale, rounded to the type. */
static float benchdnn_value(tl_data_type dt, int i7, float scale)
{
    float lo, hi;
    switch (dt) {
    case TL_F16: lo = -2048; hi = 2047; break;
    case TL_S32: lo = -2147483648.0f; hi = 2147483647.0f; break;
    case TL_S8: lo = -128; hi = 127; break;
    case TL_U8: lo = 0; hi = 255; break;
    default: lo = -16777216.0f; hi = 16777215.0f; break;
    }
    switch (i7) {               /* i % 7 */
    case 0: return hi;
    case 1: return lo;
    case 2: return 1.6f / scale;
    case 3: return 0.2f / scale;
    case 4: return 1.0f / scale;
    case 5: return 2.0f;
    default: return scale;
    }
}

/* Garbage bytes, then benchdnn's values at md's elements: written in a
   plain row-major buffer and placed by a same-type tl_reorder (a bit
   copy, checked against a naive loop by reorder_ref), since a walk
   through tl_md_offset is too slow for the corpus. */
static void fill_benchdnn(const tl_memory_desc *md, char *buf, size_t bytes,
                          const tl_reorder_attr *a)
{
    tl_memory_desc plain, placed = *md;
    tl_dim idx[TL_MAX_NDIMS] = {0}, i, n = 1, j = 0;
    size_t sz = tl_dt_size(md->data_type);
    char *p;
    int d, i7 = 0;
    fill_garbage(buf, bytes);
    for (d = 0; d < md->ndims; ++d) n *= md->dims[d];
    placed.extra.flags = 0;             /* the values only */
    CHECK(tl_md_init_by_strides(&plain, md->ndims, md->dims, md->data_type, NULL) == TL_OK);
    p = (char *)malloc((size_t)n * sz + 1);
    for (i = 0; i < n; ++i) {
        if (a->scale_mask)
            for (d = 0, j = 0; d < md->ndims; ++d)
                if (a->scale_mask & (1 << d)) j = j * md->dims[d] + idx[d];
        rt_set(md->data_type, p + (size_t)i * sz,
               benchdnn_value(md->data_type, i7, a->scales ? a->scales[j] : 1.0f));
        if (++i7 == 7) i7 = 0;
        for (d = md->ndims - 1; d >= 0 && ++idx[d] == md->dims[d]; --d) idx[d] = 0;
    }
    CHECK(tl_reorder(&plain, p, &placed, buf, NULL) == TL_OK);
    free(p);
}

/* Values in every element slot of the buffer, padding included (the
   layouts here are tags: dense, so every slot is an element or padding;
   source padding holding numbers rather than garbage is checked by
   reorder_ref). Linear, since the corpus is large: the first POOL slots
   get put_value's, the rest copies of them picked at random (put_value
   per element, three to five divisions, took a fifth of the test's
   time). */
#define POOL 4096
static void fill(tl_data_type dt, char *buf, size_t bytes)
{
    size_t sz = tl_dt_size(dt), i;
    for (i = 0; i + sz <= bytes; i += sz) {
        if (i < POOL * sz) put_value(dt, buf + i);
        else memcpy(buf + i, buf + (tl_test_rand() % POOL) * sz, sz);
    }
    for (; i < bytes; ++i) buf[i] = (char)tl_test_rand();
}
#undef POOL

/* ---- comparison ---- */

typedef struct {
    const char *ours, *before, *src;
    char *theirs;                    /* known differences are folded in */
    const tl_memory_desc *src_md;
    const tl_reorder_attr *attr;
    const problem *p;
    int cats[NCATS];
    long bad;
} cmp_ctx;

static int is_float(tl_data_type dt) { return dt == TL_F32 || dt == TL_F16 || dt == TL_BF16; }

static const char *src_at(const cmp_ctx *c, const tl_dim *idx)
{
    return c->src + (size_t)tl_md_offset(c->src_md, idx) * tl_dt_size(c->src_md->data_type);
}

static void report(cmp_ctx *c, const tl_memory_desc *md, const tl_dim *idx, int pad)
{
    tl_data_type dt = md->data_type;
    size_t off = (size_t)tl_md_offset(md, idx) * tl_dt_size(dt);
    double x = pad ? 0 : rt_get(c->src_md->data_type, src_at(c, idx));
    if (c->bad++ < 3)
        CHECK_MSG(0, "line %d (%s %s %s %s %s scales %s beta %s zp %d %d comp %s) [%s]: %s at "
                  "byte %lu: %.9g, oneDNN %.9g (src %.9g, old %.9g)", c->p->line, c->p->sdt,
                  c->p->ddt, c->p->stag, c->p->dtag, c->p->dims, c->p->scales, c->p->beta,
                  c->p->szp, c->p->dzp, c->p->comp, dnnl_util_impl, pad ? "padding" : "value",
                  (unsigned long)off, (double)rt_get(dt, c->ours + off),
                  (double)rt_get(dt, c->theirs + off), x, (double)rt_get(dt, c->before + off));
    else
        CHECK(0);
}

/* DESIGN.md's formula for one element, written apart from the library,
   with the zero points given and, with dzp_first, dst_zero_point added
   before the sum instead of after it. Stores into out. */
static void model(const cmp_ctx *c, const tl_memory_desc *md, const tl_dim *idx, int32_t szp,
                  int32_t dzp, int dzp_first, char *out)
{
    const tl_reorder_attr *a = c->attr;
    size_t off = (size_t)tl_md_offset(md, idx) * tl_dt_size(md->data_type);
    volatile float v = rt_get(c->src_md->data_type, src_at(c, idx)), t;
    tl_dim j = 0;
    int d;
    if (szp) v = v - (float)szp;
    if (a->scales) {
        for (d = 0; d < md->ndims; ++d)
            if (a->scale_mask & (1 << d)) j = j * md->dims[d] + idx[d];
        v = a->scales[j] * v;
    }
    if (dzp && dzp_first) v = v + (float)dzp;
    if (a->beta != 0) { t = a->beta * rt_get(md->data_type, c->before + off); v = v + t; }
    if (dzp && !dzp_first) v = v + (float)dzp;
    rt_set(md->data_type, out, v);
}

static int same(const void *x, const void *y, tl_data_type dt)
{
    return memcmp(x, y, tl_dt_size(dt)) == 0;
}

/* Which documented difference explains oneDNN's value b where we wrote a
   (both at off), or -1. Each test is the exact shape of the difference. */
static int explain_value(const cmp_ctx *c, const tl_memory_desc *md, const tl_dim *idx,
                         size_t off)
{
    tl_data_type dt = md->data_type, sdt = c->src_md->data_type;
    const tl_reorder_attr *a = c->attr;
    float fa = rt_get(dt, c->ours + off), fb = rt_get(dt, c->theirs + off);
    char m[8];
    if (is_float(dt) && fa == 0 && fb == 0) return CAT_ZERO_SIGN;
    /* the jit's float -> int32 conversion without a clamp: a value at or
       above 2^31 becomes INT32_MIN, then the type's minimum; we saturate
       to the maximum */
    if ((dt == TL_S32 && fa == 2147483520.0f && fb == -2147483648.0f) ||
        (dt == TL_S8 && fa == 127 && fb == -128) || (dt == TL_U8 && fa == 255 && fb == 0))
        return CAT_INT_WRAP;
    if (strcmp(dnnl_util_impl, "simple:any") == 0) {
        if (sdt == TL_S32 && dt == TL_S32 && rt_attr_identity(a, md)) {
            rt_set(TL_S32, m, rt_get(TL_S32, c->ours + off));
            if (same(m, c->theirs + off, dt)) return CAT_S32_COPY;
        }
        if (a->dst_zero_point && a->beta != 0) {
            model(c, md, idx, a->src_zero_point, a->dst_zero_point, 1, m);
            if (same(m, c->theirs + off, dt)) return CAT_ZP_ORDER;
        }
    } else if (a->src_zero_point || a->dst_zero_point) {
        int32_t x;
        model(c, md, idx, 0, 0, 0, m);
        if (same(m, c->theirs + off, dt)) return CAT_ZP_IGNORED;
        /* s32 beyond 2^24 (not exact in f32) through the jit's integer
           zero-point path: a few f32 steps apart, or INT32_MAX where f32
           clamping gives 2147483520 */
        memcpy(&x, src_at(c, idx), 4);
        if (sdt == TL_S32 && (x > (1 << 24) || x < -(1 << 24)) &&
            (fabsf(fa - fb) <= fabsf(fa) * 0x1p-21f ||
             (dt == TL_S32 && fa == 2147483520.0f && fb == 2147483648.0f)))
            return CAT_S32_ZP;
    }
    return -1;
}

static void cmp_one(const tl_memory_desc *md, const tl_dim *idx, int pad, void *vctx)
{
    cmp_ctx *c = (cmp_ctx *)vctx;
    tl_data_type dt = md->data_type;
    size_t sz = tl_dt_size(dt), off = (size_t)tl_md_offset(md, idx) * sz, k;
    int why;
    if (same(c->ours + off, c->theirs + off, dt)) return;
    if (pad) {
        for (k = 0; k < sz; ++k) CHECK(c->ours[off + k] == 0);
        if (c->attr->beta != 0 && same(c->theirs + off, c->before + off, dt)) why = CAT_PAD_SUM;
        else if (is_float(dt) && rt_get(dt, c->theirs + off) == 0) why = CAT_ZERO_SIGN;
        else why = -1;
    } else {
        why = explain_value(c, md, idx, off);
    }
    if (why < 0) { report(c, md, idx, pad); return; }
    c->cats[why] = 1;
    memcpy(c->theirs + off, c->ours + off, sz);
}

/* ---- one problem ---- */

static tl_dim scale_count(const tl_memory_desc *md, int mask)
{
    tl_dim n = 1;
    int d;
    for (d = 0; d < md->ndims; ++d) if (mask & (1 << d)) n *= md->dims[d];
    return n;
}

/* Why oneDNN refuses a problem we accept, found by asking it simpler
   questions; -1 when no reason DESIGN.md gives applies. */
static int refusal_reason(const tl_memory_desc *s, const tl_memory_desc *d,
                          const tl_reorder_attr *a, tl_dim nscales)
{
    tl_memory_desc ps, pd, nc;
    tl_reorder_attr none;
    dnnl_primitive_t prim;
    memset(&none, 0, sizeof none);
    tl_md_init_by_strides(&ps, s->ndims, s->dims, s->data_type, NULL);
    tl_md_init_by_strides(&pd, d->ndims, d->dims, d->data_type, NULL);
    prim = dnnl_util_reorder_make(&ps, &pd, &none, 1);
    if (!prim) return CAT_PAIR;
    dnnl_primitive_destroy(prim);
    nc = *d;
    nc.extra.flags = 0;
    if (d->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) {
        prim = dnnl_util_reorder_make(s, &nc, a, nscales);
        if (prim) { dnnl_primitive_destroy(prim); return CAT_COMP; }
    }
    prim = dnnl_util_reorder_make(s, &nc, &none, 1);
    if (prim) { dnnl_primitive_destroy(prim); return CAT_ATTR; }
    return -1;
}

/* benchdnn_data: benchdnn's own fill, else random benchdnn-like values */
static void run_problem(const problem *p, int benchdnn_data)
{
    static const float pattern[7] = { 1.0f, 0.5f, 2.0f, 0.25f, 1.5f, 4.0f, 0.125f };
    tl_dim dims[TL_MAX_NDIMS], nscales = 1, j;
    char stag[96], dtag[96], what[64];
    tl_memory_desc s, d;
    tl_reorder_attr a;
    float *scales = NULL, base = 1;
    int ndims = parse_dims(p->dims, dims), mask = 0, k;
    size_t ssz, dsz, dnnl_sz, bytes, data_end = 0, c_off = 0;
    char *src, *ours, *theirs, *before;
    dnnl_primitive_t prim;
    tl_status st;
    cmp_ctx c;

    sprintf(what, "line %d", p->line);
    CHECK_MSG(ndims > 0, "%s: dims %s", what, p->dims);
    if (ndims <= 0) return;
    CHECK_MSG(!expand_tag(p->stag, ndims, stag, sizeof stag) &&
              !expand_tag(p->dtag, ndims, dtag, sizeof dtag), "%s: tags", what);
    CHECK_MSG(tl_md_init_by_tag(&s, ndims, dims, dt_of(p->sdt), stag) == TL_OK, "%s: %s", what, stag);
    CHECK_MSG(tl_md_init_by_tag(&d, ndims, dims, dt_of(p->ddt), dtag) == TL_OK, "%s: %s", what, dtag);
    memset(&a, 0, sizeof a);
    if (strcmp(p->scales, "-") != 0) {
        CHECK_MSG(sscanf(p->scales, "%d:%f", &mask, &base) == 2, "%s: scales %s", what, p->scales);
        nscales = scale_count(&d, mask);
        scales = (float *)malloc((size_t)nscales * sizeof *scales);
        for (j = 0; j < nscales; ++j) scales[j] = mask ? base * pattern[j % 7] : base;
        a.scale_mask = mask;
        a.scales = scales;
    }
    if (strcmp(p->beta, "-") != 0) a.beta = (float)atof(p->beta);
    a.src_zero_point = p->szp;
    a.dst_zero_point = p->dzp;
    if (strcmp(p->comp, "-") != 0) {
        data_end = tl_md_size(&d);           /* before the flag: the data alone */
        c_off = (data_end + 3) / 4 * 4;
        d.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
        d.extra.compensation_mask = atoi(p->comp);
    }
    ssz = tl_md_size(&s);
    dsz = tl_md_size(&d);
    dnnl_sz = dnnl_util_size(&d);
    bytes = dnnl_sz > dsz ? dnnl_sz : dsz;
    src = (char *)malloc(ssz);
    ours = (char *)malloc(bytes);
    theirs = (char *)malloc(bytes);
    before = (char *)malloc(bytes);
    /* the old destination values matter only to a sum; else garbage
       bytes, which every written byte must replace */
    if (benchdnn_data) fill_benchdnn(&s, src, ssz, &a);
    else fill(s.data_type, src, ssz);
    if (a.beta == 0) fill_garbage(before, bytes);
    else if (benchdnn_data) fill_benchdnn(&d, before, bytes, &a);
    else fill(d.data_type, before, bytes);
    memcpy(ours, before, bytes);
    memcpy(theirs, before, bytes);
    ++n_run;

    prim = dnnl_util_reorder_make(&s, &d, &a, nscales);
    st = tl_reorder(&s, src, &d, ours, &a);
    if (!prim) {
        int why = st == TL_OK ? refusal_reason(&s, &d, &a, nscales) : -1;
        if (st != TL_OK) ++n_refused_both;
        else if (why >= 0) ++n_cat[why];
        if (getenv("BENCHDNN_VERBOSE") && st == TL_OK)
            printf("line %d: oneDNN refuses (%s)\n", p->line, why >= 0 ? cat_names[why] : "?");
        CHECK_MSG(st != TL_OK || why >= 0, "%s: oneDNN refuses %s %s -> %s %s, we accept",
                  what, p->sdt, stag, p->ddt, dtag);
    } else {
        CHECK_MSG(st == TL_OK, "%s: we refuse (%s), oneDNN accepts [%s]", what, tl_status_str(st),
                  dnnl_util_impl);
        if (st == TL_OK) {
            dnnl_util_reorder_run(prim, &s, src, &d, theirs);
            memset(&c, 0, sizeof c);
            c.ours = ours; c.theirs = theirs; c.before = before; c.src = src;
            c.src_md = &s; c.p = p; c.attr = &a;
            /* equal buffers of one layout hold equal values: the walk in
               logical order is needed only to explain a difference */
            if (memcmp(ours, theirs, dsz) != 0) rt_for_each(&d, cmp_one, &c);
            if (!c.bad && data_end) {
                /* the 0..3 bytes between data and compensation are ours to
                   leave (DESIGN.md); the N int32 must agree */
                memcpy(theirs + data_end, ours + data_end, c_off - data_end);
                CHECK_MSG(memcmp(ours + c_off, theirs + c_off, dsz - c_off) == 0,
                          "%s: compensation differs", what);
            }
            if (!c.bad && memcmp(ours, theirs, dsz) != 0) {
                size_t i;
                for (i = 0; i < dsz && ours[i] == theirs[i]; ++i) {}
                CHECK_MSG(0, "%s: buffers differ at byte %lu of %lu", what, (unsigned long)i,
                          (unsigned long)dsz);
                c.bad = 1;
            }
            if (c.bad) {
                ++n_mismatch;
            } else {
                for (k = 0; k < NCATS && !c.cats[k]; ++k) {}
                if (k == NCATS) ++n_matched;
                else ++n_cat[k];
                if (k < NCATS && getenv("BENCHDNN_VERBOSE"))
                    printf("line %d [%s]: %s\n", p->line, dnnl_util_impl, cat_names[k]);
            }
        }
        dnnl_primitive_destroy(prim);
    }
    free(scales); free(src); free(ours); free(theirs); free(before);
}

static int read_problem(FILE *f, problem *p, int *line)
{
    char buf[512];
    while (fgets(buf, sizeof buf, f)) {
        ++*line;
        if (buf[0] == '#' || buf[0] == '\n') continue;
        memset(p, 0, sizeof *p);
        p->line = *line;
        if (sscanf(buf, "%15s %15s %63s %63s %63s %31s %15s %d %d %15s", p->sdt, p->ddt, p->stag,
                   p->dtag, p->dims, p->scales, p->beta, &p->szp, &p->dzp, p->comp) == 10)
            return 1;
        CHECK_MSG(0, "line %d: cannot read %s", *line, buf);
    }
    return 0;
}

int main(int argc, char **argv)
{
    FILE *f;
    problem p;
    int line = 0, k;
    long accepted = 0, read = 0;
    long every = tl_test_cases(4) == 4 ? 1 : 4;   /* TL_TEST_QUICK: every 4th problem */
    const char *only;
    if (argc < 2) {
        fprintf(stderr, "usage: %s reorder_benchdnn.txt\n", argv[0]);
        return 2;
    }
    f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 1; }
    if (dnnl_util_init()) { fclose(f); return 77; }
    if (getenv("BENCHDNN_SEED"))       /* other data, same problems */
        tl_test_rng_state ^= (uint64_t)strtoull(getenv("BENCHDNN_SEED"), NULL, 10) * 0x2545f4914f6cdd1dull;
    only = getenv("BENCHDNN_DATA");     /* "benchdnn" or "random": one fill only */
    while (read_problem(f, &p, &line)) {
        if (read++ % every != 0) continue;
        if (!only || strcmp(only, "random") != 0) run_problem(&p, 1);
        if (!only || strcmp(only, "benchdnn") != 0) run_problem(&p, 0);
    }
    fclose(f);
    printf("benchdnn corpus: %ld runs (%s)\n", n_run,
           only ? only : "each problem with benchdnn's fill and with random data");
    printf("  matched bit for bit:  %ld\n", n_matched);
    printf("  refused by both:      %ld\n", n_refused_both);
    printf("  mismatches:           %ld\n", n_mismatch);
    for (k = 0; k < NCATS; ++k) {
        printf("  accepted difference:  %ld  %s\n", n_cat[k], cat_names[k]);
        accepted += n_cat[k];
    }
    CHECK(n_run > 1000);
    CHECK(n_matched > n_run / 2);
    CHECK_EQ(n_matched + n_refused_both + n_mismatch + accepted, n_run);
    dnnl_util_done();
    return tl_test_result("reorder_benchdnn");
}
