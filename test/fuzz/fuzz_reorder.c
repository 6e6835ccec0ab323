/* fuzz_reorder - tl_reorder and the plan API between two small accepted
   descriptors of the same dims (generated tags or strides, any of the
   seven data types, offset0, scale_adjust or s8s8 compensation on the
   destination) with random attributes, against a naive reference written
   here from DESIGN.md's formula:
       v = scale[j]*(src - src_zp); v += beta*dst_old; v += dst_zp;
       v = scale_adjust*v; dst = sat(round_half_even(v))
   walking every padded destination index (padding is written as 0).
   Properties: the status is the one the rules predict; on success every
   destination element equals the reference, bytes between elements are
   untouched, the compensation values add up to -128 times the stored
   values; on error (bad attr, src extra data, overlapping buffers)
   nothing is written. Buffers are exactly tl_md_size bytes, so ASan
   catches any access past them. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "fuzz_common.h"
#include <math.h>

#define RO_MAX_ELEMS 2048    /* padded elements per descriptor */

static const float ro_specials[] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 127.5f, 128.0f, -128.5f,
    255.5f, 256.0f, 300.0f, -129.0f, 65504.0f, 65520.0f, 1e10f, -1e10f, 1e-8f,
    3.14159f, 2147483520.0f, 2147483648.0f, -2147483904.0f, 1e30f
};
#define RO_SPECIALS ((int)(sizeof ro_specials / sizeof *ro_specials))

static float ro_float(fz_reader *r)
{
    unsigned sel = fz_byte(r);
    if (sel < 96) return ro_specials[fz_byte(r) % RO_SPECIALS];
    if (sel < 104) return sel & 1 ? HUGE_VALF : -HUGE_VALF;
    if (sel < 108) return NAN;
    {
        int hi = (int)fz_byte(r), lo = (int)fz_byte(r);
        return (float)(hi * 256 + lo - 32768) / (float)(1 + fz_byte(r) % 64);
    }
}

/* ---- element access --------------------------------------------------- */

static int ro_is_float(tl_data_type dt)
{
    return dt == TL_F32 || dt == TL_F16 || dt == TL_BF16 || dt == TL_F64;
}

static float ro_load(tl_data_type dt, const unsigned char *p)
{
    uint16_t h;
    int32_t i;
    float f;
    double x;
    switch (dt) {
    case TL_F32: memcpy(&f, p, 4); return f;
    case TL_F16: memcpy(&h, p, 2); return tl_f16_to_f32(h);
    case TL_BF16: memcpy(&h, p, 2); return tl_bf16_to_f32(h);
    case TL_S32: memcpy(&i, p, 4); return (float)i;
    case TL_S8: return (float)(signed char)p[0];
    case TL_U8: return (float)p[0];
    default:
        /* past FLT_MAX + half an ulp rounds to infinity (spelled out:
           C leaves out-of-range conversions undefined) */
        memcpy(&x, p, 8);
        if (x >= 340282356779733661637539395458142568448.0) return HUGE_VALF;
        if (x <= -340282356779733661637539395458142568448.0) return -HUGE_VALF;
        return (float)x;
    }
}

static int64_t ro_saturate(float v, float lo, float hi)
{
    if (isnan(v)) return 0;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return (int64_t)rint((double)v);     /* half to even: the default mode */
}

static void ro_store(tl_data_type dt, float v, unsigned char *p)
{
    uint16_t h;
    int32_t i;
    double x;
    switch (dt) {
    case TL_F32: memcpy(p, &v, 4); break;
    case TL_F16: h = tl_f32_to_f16(v); memcpy(p, &h, 2); break;
    case TL_BF16: h = tl_f32_to_bf16(v); memcpy(p, &h, 2); break;
    case TL_S32: i = (int32_t)ro_saturate(v, -2147483648.0f, 2147483520.0f); memcpy(p, &i, 4); break;
    case TL_S8: p[0] = (unsigned char)(signed char)ro_saturate(v, -128.0f, 127.0f); break;
    case TL_U8: p[0] = (unsigned char)ro_saturate(v, 0.0f, 255.0f); break;
    default: x = v; memcpy(p, &x, 8); break;
    }
}

/* Writes a random value of dt; floats from ro_float (f64 sometimes just
   off an f32 value, so the f64 -> f32 rounding is exercised). */
static void ro_random_value(fz_reader *r, tl_data_type dt, unsigned char *p)
{
    size_t k, sz = tl_dt_size(dt);
    if (!ro_is_float(dt)) {
        for (k = 0; k < sz; ++k) p[k] = (unsigned char)fz_byte(r);
        return;
    }
    if (dt == TL_F64) {
        double x = ro_float(r);
        if (fz_byte(r) < 64 && isfinite(x) && fabs(x) < 1e30) x += x * 1e-9;
        memcpy(p, &x, 8);
        return;
    }
    ro_store(dt, ro_float(r), p);
}

/* Both NaN counts as equal: NaN payloads are not part of the contract. */
static int ro_same(tl_data_type dt, const unsigned char *a, const unsigned char *b)
{
    if (ro_is_float(dt) && isnan(ro_load(dt, a)) && isnan(ro_load(dt, b))) return 1;
    return memcmp(a, b, tl_dt_size(dt)) == 0;
}

/* ---- descriptors ------------------------------------------------------ */

static int make_side(fz_reader *r, int ndims, const tl_dim *dims, tl_memory_desc *md)
{
    char tag[64];
    tl_dim strides[TL_MAX_NDIMS];
    tl_data_type dt = (tl_data_type)(1 + fz_byte(r) % 7);
    unsigned how = fz_byte(r);
    tl_status st;
    if (how < 160) {
        fz_make_abstract_tag(r, ndims, tag);
        st = tl_md_init_by_tag(md, ndims, dims, dt, tag);
    } else {
        fz_make_strides(r, ndims, dims, strides);
        st = tl_md_init_by_strides(md, ndims, dims, dt, how < 176 ? NULL : strides);
    }
    if (st != TL_OK) return 0;
    if (fz_byte(r) < 64) md->offset0 = (tl_dim)(fz_byte(r) % 9);
    return tl_md_nelems(md, 1) <= RO_MAX_ELEMS;
}

/* Destination extras: scale_adjust, s8s8 compensation. */
static void add_extras(fz_reader *r, tl_memory_desc *dst)
{
    unsigned e = fz_byte(r);
    if (e < 32) {
        dst->extra.flags |= TL_MD_EXTRA_SCALE_ADJUST;
        dst->extra.scale_adjust = ro_float(r);
    }
    if (dst->data_type == TL_S8 && (e & 0x40)) {
        dst->extra.flags |= TL_MD_EXTRA_COMPENSATION_S8S8;
        dst->extra.compensation_mask = (int)(fz_byte(r) % (1u << dst->ndims));
    }
}

/* ---- the reference ---------------------------------------------------- */

typedef struct {
    const tl_memory_desc *src, *dst;
    const tl_reorder_attr *attr;
    int identity;        /* bits are copied (or s32 -> f64 widened) */
} ro_problem;

/* Scales a mask asks for: the product of the masked dims. */
static tl_dim ro_scale_count(const tl_memory_desc *md, int mask)
{
    tl_dim n = 1;
    int d;
    for (d = 0; d < md->ndims; ++d) if (mask >> d & 1) n *= md->dims[d];
    return n;
}

/* Row-major index over the masked dims, lowest dim outermost. */
static tl_dim ro_scale_index(const tl_memory_desc *md, int mask, const tl_dim *idx)
{
    tl_dim j = 0;
    int d;
    for (d = 0; d < md->ndims; ++d)
        if (mask >> d & 1) j = j * md->dims[d] + idx[d];
    return j;
}

static void ro_element(const ro_problem *pb, const unsigned char *src, unsigned char *out,
                       const tl_dim *idx)
{
    const tl_memory_desc *s = pb->src, *d = pb->dst;
    const tl_reorder_attr *a = pb->attr;
    const unsigned char *sp = src + (size_t)fz_ref_offset(s, idx) * tl_dt_size(s->data_type);
    float v, t;
    if (pb->identity && s->data_type == d->data_type) {
        memcpy(out, sp, tl_dt_size(s->data_type));
        return;
    }
    if (pb->identity && s->data_type == TL_S32 && d->data_type == TL_F64) {
        int32_t i;
        double x;
        memcpy(&i, sp, 4);
        x = i;
        memcpy(out, &x, 8);
        return;
    }
    v = ro_load(s->data_type, sp);
    if (a->src_zero_point != 0) v = v - (float)a->src_zero_point;
    if (a->scales) v = a->scales[ro_scale_index(s, a->scale_mask, idx)] * v;
    if (a->beta != 0) {
        t = a->beta * ro_load(d->data_type, out);
        v = v + t;
    }
    if (a->dst_zero_point != 0) v = v + (float)a->dst_zero_point;
    if (d->extra.flags & TL_MD_EXTRA_SCALE_ADJUST) v = d->extra.scale_adjust * v;
    ro_store(d->data_type, v, out);
}

/* Fills want (a copy of dst before the call) with the expected result and
   marks in `covered` the bytes of every padded element. */
static void ro_reference(const ro_problem *pb, const unsigned char *src,
                         unsigned char *want, unsigned char *covered)
{
    const tl_memory_desc *d = pb->dst;
    tl_dim idx[TL_MAX_NDIMS] = {0};
    size_t esz = tl_dt_size(d->data_type);
    if (fz_has_zero_dim(d)) return;
    do {
        unsigned char *out = want + (size_t)fz_ref_offset(d, idx) * esz;
        if (fz_is_data(d, idx)) ro_element(pb, src, out, idx);
        else memset(out, 0, esz);
        memset(covered + (out - want), 1, esz);
    } while (fz_next_padded(d, idx));
}

/* -128 times the sum of every stored s8 value, padding included. */
static int64_t ro_comp_total(const tl_memory_desc *d, const unsigned char *buf)
{
    tl_dim idx[TL_MAX_NDIMS] = {0};
    int64_t sum = 0;
    do {
        sum += (signed char)buf[fz_ref_offset(d, idx)];
    } while (fz_next_padded(d, idx));
    return -128 * sum;
}

static void ro_check_result(const ro_problem *pb, const unsigned char *before,
                            const unsigned char *got, const unsigned char *src, size_t size)
{
    const tl_memory_desc *d = pb->dst;
    tl_memory_desc plain = *d;
    unsigned char *want = (unsigned char *)malloc(size ? size : 1);
    unsigned char *covered = (unsigned char *)calloc(size ? size : 1, 1);
    size_t esz = tl_dt_size(d->data_type), data_end, k;
    FZ_CHECK(want && covered);
    memcpy(want, before, size);
    ro_reference(pb, src, want, covered);
    plain.extra.flags &= ~(uint64_t)TL_MD_EXTRA_COMPENSATION_S8S8;
    data_end = tl_md_size(&plain);
    for (k = 0; k < data_end; k += covered[k] ? esz : 1) {
        if (covered[k]) FZ_CHECK(ro_same(d->data_type, got + k, want + k));
        else FZ_CHECK(got[k] == before[k]);          /* gaps stay untouched */
    }
    if ((d->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) && data_end > 0) {
        size_t c = (data_end + 3) / 4 * 4, n = (size - c) / 4, i;
        int64_t total = 0;
        FZ_CHECK(c + 4 * n == size);
        for (i = 0; i < n; ++i) {
            int32_t v;
            memcpy(&v, got + c + 4 * i, 4);
            total += v;
        }
        FZ_CHECK(total == ro_comp_total(d, got));
        if (d->extra.compensation_mask == 0) FZ_CHECK(n == 1);
    }
    free(want);
    free(covered);
}

/* ---- the target ------------------------------------------------------- */

/* The status DESIGN's rules give for this problem. */
static tl_status ro_expected(const tl_memory_desc *s, const tl_reorder_attr *a)
{
    if (s->extra.flags) return TL_UNSUPPORTED;
    if (a->scale_mask < 0 || (a->scale_mask >> s->ndims) != 0 || a->nthreads < 0)
        return TL_INVALID_ARGUMENTS;
    return TL_OK;
}

static void ro_make_attr(fz_reader *r, const tl_memory_desc *s, tl_reorder_attr *a,
                         float *scales)
{
    static const float betas[] = { 0.0f, 0.0f, 1.0f, 0.5f, -2.0f, 3.0f };
    unsigned sel = fz_byte(r);
    int d, i, nscales;
    tl_dim n = 1;
    memset(a, 0, sizeof *a);
    a->scale_mask = (int)(fz_byte(r) % (1u << s->ndims));
    if (sel < 8) a->scale_mask = 1 << (s->ndims + (int)(fz_byte(r) % 3));   /* bad bit */
    if (sel >= 8 && sel < 12) a->scale_mask = -1;
    for (d = 0; d < s->ndims; ++d) if (a->scale_mask >> d & 1) n *= s->dims[d];
    nscales = a->scale_mask >= 0 && (a->scale_mask >> s->ndims) == 0 ? (int)n : 0;
    for (i = 0; i < nscales; ++i) scales[i] = fz_byte(r) < 128 ? 1.0f : ro_float(r);
    a->scales = fz_byte(r) < 96 ? NULL : scales;
    a->beta = betas[fz_byte(r) % 6];
    a->src_zero_point = fz_byte(r) < 160 ? 0 : (int32_t)(fz_byte(r) % 9) - 4;
    a->dst_zero_point = fz_byte(r) < 160 ? 0 : (int32_t)(fz_byte(r) % 9) - 4;
    a->nthreads = (int)(fz_byte(r) % 4) - (sel == 12);   /* -1 once in a while */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r;
    tl_memory_desc s, d;
    tl_reorder_attr attr;
    tl_reorder_plan plan, plan_before;
    ro_problem pb;
    float scales[RO_MAX_ELEMS];
    tl_dim dims[TL_MAX_NDIMS];
    unsigned char *src, *dst, *before;
    size_t ssize, dsize;
    int ndims, k, use_plan, one;
    tl_status st, want;

    fz_init(&r, data, size);
    ndims = 1 + (int)(fz_byte(&r) % 4);
    for (k = 0; k < ndims; ++k) {
        unsigned v = fz_byte(&r);
        dims[k] = v >= 250 ? 0 : (tl_dim)(1 + v % 7);
    }
    if (!make_side(&r, ndims, dims, &s) || !make_side(&r, ndims, dims, &d)) return 0;
    add_extras(&r, &d);
    if (fz_byte(&r) < 8) s.extra.flags = TL_MD_EXTRA_SCALE_ADJUST;   /* refused */
    FZ_CHECK(tl_md_validate(&d, NULL, 0) == TL_OK);
    ro_make_attr(&r, &s, &attr, scales);
    want = ro_expected(&s, &attr);

    ssize = tl_md_size(&s);
    dsize = tl_md_size(&d);
    src = (unsigned char *)malloc(ssize ? ssize : 1);
    dst = (unsigned char *)malloc(dsize ? dsize : 1);
    before = (unsigned char *)malloc(dsize ? dsize : 1);
    FZ_CHECK(src && dst && before);
    for (k = 0; (size_t)k < ssize; ++k) src[k] = (unsigned char)fz_byte(&r);
    if (!fz_has_zero_dim(&s)) {            /* element values that mean something */
        tl_dim idx[TL_MAX_NDIMS] = {0};
        int j;
        do {
            ro_random_value(&r, s.data_type,
                            src + (size_t)fz_ref_offset(&s, idx) * tl_dt_size(s.data_type));
            for (j = ndims - 1; j >= 0; --j) {
                if (++idx[j] < s.dims[j]) break;
                idx[j] = 0;
            }
        } while (j >= 0);
    }
    /* dst_old (read when beta != 0): values, gaps and padding alike */
    for (k = 0; (size_t)k < dsize; ++k) before[k] = (unsigned char)fz_byte(&r);
    if (ro_is_float(d.data_type))
        for (k = 0; (size_t)(k + 1) * tl_dt_size(d.data_type) <= dsize; ++k)
            ro_random_value(&r, d.data_type, before + (size_t)k * tl_dt_size(d.data_type));
    memcpy(dst, before, dsize);

    /* refusals before any work: NULL buffers, dims that differ */
    FZ_CHECK(tl_reorder(&s, NULL, &d, dst, &attr) == TL_INVALID_ARGUMENTS);
    FZ_CHECK(tl_reorder(&s, src, &d, NULL, &attr) == TL_INVALID_ARGUMENTS);
    if (fz_byte(&r) < 16) {       /* other ndims, or one more element */
        tl_memory_desc other;
        const tl_dim n = ndims == 1 ? s.dims[0] + 1 : 1;
        FZ_CHECK(tl_md_init_by_strides(&other, 1, &n, d.data_type, NULL) == TL_OK);
        FZ_CHECK(tl_reorder(&s, src, &other, dst, &attr) == TL_SHAPE_MISMATCH);
    }
    FZ_CHECK(memcmp(dst, before, dsize) == 0);

    use_plan = fz_byte(&r) & 1;
    memset(&plan, 0xA5, sizeof plan);
    plan_before = plan;
    if (use_plan) {
        st = tl_reorder_plan_init(&plan, &s, &d, &attr);
        if (st != TL_OK) FZ_CHECK(memcmp(&plan, &plan_before, sizeof plan) == 0);
        else st = tl_reorder_plan_execute(&plan, src, dst);
    } else {
        st = tl_reorder(&s, src, &d, dst, &attr);
    }
    FZ_CHECK(st == want);
    if (st != TL_OK) {
        FZ_CHECK(memcmp(dst, before, dsize) == 0);
    } else {
        pb.src = &s;
        pb.dst = &d;
        pb.attr = &attr;
        /* one scale of 1.0 (whatever dims the mask names) is no scale */
        one = !attr.scales || (ro_scale_count(&s, attr.scale_mask) == 1 && attr.scales[0] == 1.0f);
        pb.identity = one && attr.src_zero_point == 0 && attr.dst_zero_point == 0 &&
                      attr.beta == 0 && !(d.extra.flags & TL_MD_EXTRA_SCALE_ADJUST);
        if (!attr.scales || one) attr.scales = NULL;   /* a single 1.0: no multiply */
        ro_check_result(&pb, before, dst, src, dsize);
        /* src as its own dst: overlapping buffers are refused, untouched */
        if (ssize) {
            unsigned char *copy = (unsigned char *)malloc(ssize);
            FZ_CHECK(copy != NULL);
            memcpy(copy, src, ssize);
            FZ_CHECK(tl_reorder(&s, src, &s, src, NULL) == TL_OVERLAP);
            FZ_CHECK(memcmp(copy, src, ssize) == 0);
            free(copy);
        }
    }
    free(src);
    free(dst);
    free(before);
    return 0;
}
