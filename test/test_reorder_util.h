/* test_reorder_util.h - shared by the reorder tests: random layouts and
   data, and a naive reference reorder written apart from the library (a
   loop over logical indices through tl_test_offset with its own arithmetic,
   using nearbyintf for rounding). Include after tensorlayout.h and
   tl_test.h. */
#ifndef TEST_REORDER_UTIL_H
#define TEST_REORDER_UTIL_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tl_data_type rt_dts[] = { TL_F32, TL_F16, TL_BF16, TL_S32, TL_S8, TL_U8, TL_F64 };
#define RT_NDTS ((int)(sizeof rt_dts / sizeof rt_dts[0]))

/* A descriptor plus the buffer it needs (its parent's, for a view). */
typedef struct {
    tl_memory_desc md;
    size_t bytes;
    char what[96];
} rt_layout;

TL_TEST_UNUSED static int rt_shuffle_order(int n, int *order)
{
    int i;
    for (i = 0; i < n; ++i) order[i] = i;
    for (i = n - 1; i > 0; --i) {
        int j = (int)tl_test_range(0, i), t = order[i];
        order[i] = order[j]; order[j] = t;
    }
    return n;
}

/* A random abstract tag: any outer order, 0..2 blocks (possibly twice on
   one dim, as in ABcd4b16a4b), sizes that often leave tails. */
TL_TEST_UNUSED static void rt_random_tag(int ndims, char *tag)
{
    static const int sizes[] = { 2, 3, 4, 8, 16 };
    int order[TL_MAX_NDIMS], blocked[TL_MAX_NDIMS] = {0}, bdim[3], bsz[3];
    int nb = (int)tl_test_range(0, 2), i, n = 0;
    rt_shuffle_order(ndims, order);
    for (i = 0; i < nb; ++i) {
        bdim[i] = (int)tl_test_range(0, ndims - 1);
        bsz[i] = sizes[tl_test_range(0, 4)];
        blocked[bdim[i]] = 1;
    }
    for (i = 0; i < ndims; ++i)
        tag[n++] = (char)((blocked[order[i]] ? 'A' : 'a') + order[i]);
    for (i = 0; i < nb; ++i) n += sprintf(tag + n, "%d%c", bsz[i], 'a' + bdim[i]);
    tag[n] = '\0';
}

/* Plain strides in a random order with random gaps. */
TL_TEST_UNUSED static int rt_random_strides(int ndims, const tl_dim *dims, tl_dim *strides)
{
    int order[TL_MAX_NDIMS], i;
    tl_dim s = tl_test_range(1, 2);
    rt_shuffle_order(ndims, order);
    for (i = ndims - 1; i >= 0; --i) {
        strides[order[i]] = s;
        s = s * (dims[order[i]] > 0 ? dims[order[i]] : 1) + tl_test_range(0, 3);
    }
    return 0;
}

/* A descriptor filled by hand: random inner blocks (size 1 included),
   padded dims beyond the blocks' need (neither with rt_raw_tight), outer
   strides in a random order with gaps, a small offset0. Retries until
   tl_md_validate accepts it. */
TL_TEST_UNUSED static int rt_raw_tight = 0;
TL_TEST_UNUSED static void rt_raw_layout(rt_layout *l, int ndims, const tl_dim *dims,
                                         tl_data_type dt)
{
    tl_memory_desc md;
    int order[TL_MAX_NDIMS], b, i, d;
    tl_dim blocks[TL_MAX_NDIMS], inner, s;
    do {
        memset(&md, 0, sizeof md);
        md.ndims = ndims;
        md.data_type = dt;
        md.format_kind = TL_FORMAT_KIND_BLOCKED;
        md.offset0 = tl_test_range(0, 1) ? 0 : tl_test_range(1, 9);
        md.blocking.inner_nblks = (int)tl_test_range(0, 3);
        inner = 1;
        for (d = 0; d < ndims; ++d) blocks[d] = 1;
        for (b = 0; b < md.blocking.inner_nblks; ++b) {
            md.blocking.inner_blks[b] = tl_test_range(rt_raw_tight ? 2 : 1, 5);
            md.blocking.inner_idxs[b] = tl_test_range(0, ndims - 1);
            blocks[md.blocking.inner_idxs[b]] *= md.blocking.inner_blks[b];
            inner *= md.blocking.inner_blks[b];
        }
        for (d = 0; d < ndims; ++d) {
            md.dims[d] = dims[d];
            md.padded_dims[d] = (dims[d] + blocks[d] - 1) / blocks[d] * blocks[d];
            if (!rt_raw_tight && tl_test_range(0, 5) == 0) md.padded_dims[d] += blocks[d];
        }
        rt_shuffle_order(ndims, order);
        s = inner + tl_test_range(0, 1) * tl_test_range(0, 3);
        for (i = ndims - 1; i >= 0; --i) {
            md.blocking.strides[order[i]] = s;
            s = s * (md.padded_dims[order[i]] / blocks[order[i]]) + tl_test_range(0, 2);
        }
    } while (tl_md_validate(&md, NULL, 0) != TL_OK);
    l->md = md;
    l->bytes = tl_md_size(&md);
    sprintf(l->what, "raw descriptor");
}

/* A layout of the given dims: a tag, strides, a view into a bigger
   parent, a permuted or a hand-made descriptor. */
TL_TEST_UNUSED static void rt_random_layout(rt_layout *l, int ndims, const tl_dim *dims, tl_data_type dt)
{
    char tag[64];
    int kind = (int)tl_test_range(0, 7), d;
    tl_status st = TL_OK;
    tl_memory_desc parent;
    if (kind <= 2) {                                   /* tag */
        rt_random_tag(ndims, tag);
        st = tl_md_init_by_tag(&l->md, ndims, dims, dt, tag);
        sprintf(l->what, "tag %s", tag);
        l->bytes = tl_md_size(&l->md);
    } else if (kind == 3) {                            /* strides */
        tl_dim strides[TL_MAX_NDIMS];
        rt_random_strides(ndims, dims, strides);
        st = tl_md_init_by_strides(&l->md, ndims, dims, dt, strides);
        sprintf(l->what, "strides");
        l->bytes = tl_md_size(&l->md);
    } else if (kind == 4) {                            /* view */
        tl_dim pdims[TL_MAX_NDIMS], offs[TL_MAX_NDIMS], blocks[TL_MAX_NDIMS];
        int b;
        rt_random_tag(ndims, tag);
        for (d = 0; d < ndims; ++d) blocks[d] = 1;
        /* parse the blocks back from a throwaway descriptor */
        st = tl_md_init_by_tag(&parent, ndims, dims, dt, tag);
        for (b = 0; !st && b < parent.blocking.inner_nblks; ++b)
            blocks[parent.blocking.inner_idxs[b]] *= parent.blocking.inner_blks[b];
        for (d = 0; d < ndims; ++d) {
            /* a blocked dim: offset a block multiple and the view reaches
               the parent's end; else any offset and margin */
            offs[d] = blocks[d] > 1 ? blocks[d] * tl_test_range(0, 1) : tl_test_range(0, 2);
            pdims[d] = dims[d] + offs[d] + (blocks[d] > 1 ? 0 : tl_test_range(0, 2));
        }
        if (!st) st = tl_md_init_by_tag(&parent, ndims, pdims, dt, tag);
        if (!st) st = tl_md_submemory(&l->md, &parent, dims, offs);
        sprintf(l->what, "view of %s", tag);
        l->bytes = tl_md_size(&parent);
    } else if (kind == 6) {
        rt_raw_layout(l, ndims, dims, dt);
    } else if (kind == 7 && ndims < TL_MAX_NDIMS) {     /* reshaped */
        tl_dim more[TL_MAX_NDIMS];
        int at = (int)tl_test_range(0, ndims), k;
        for (d = 0, k = 0; d <= ndims; ++d) more[d] = d == at ? 1 : dims[k++];
        rt_random_tag(ndims + 1, tag);
        st = tl_md_init_by_tag(&parent, ndims + 1, more, dt, tag);
        if (!st) st = tl_md_reshape(&l->md, &parent, ndims, dims);
        sprintf(l->what, "reshaped %s", tag);
        l->bytes = tl_md_size(&parent);
        if (st == TL_UNSUPPORTED) {       /* the size-1 dim was blocked */
            st = tl_md_init_by_strides(&l->md, ndims, dims, dt, NULL);
            l->bytes = tl_md_size(&l->md);
        }
    } else {                                           /* permuted */
        int perm[TL_MAX_NDIMS];
        tl_dim in_dims[TL_MAX_NDIMS];
        rt_random_tag(ndims, tag);
        rt_shuffle_order(ndims, perm);
        for (d = 0; d < ndims; ++d) in_dims[d] = dims[perm[d]];
        st = tl_md_init_by_tag(&parent, ndims, in_dims, dt, tag);
        if (!st) st = tl_md_permute_axes(&l->md, &parent, perm);
        sprintf(l->what, "permuted %s", tag);
        l->bytes = tl_md_size(&parent);
    }
    CHECK_MSG(st == TL_OK, "layout %s: %s", l->what, tl_status_str(st));
}

/* ---- values ---- */

TL_TEST_UNUSED static float rt_random_float(void)
{
    switch (tl_test_range(0, 15)) {
    case 0: return (float)tl_test_range(-600, 600) + 0.5f;       /* ties */
    case 1: return -0.0f;
    case 2: return tl_test_range(0, 1) ? 1e9f : -3e9f;            /* saturates */
    case 3: return tl_test_range(0, 3) ? (float)tl_test_range(-300, 300) : NAN;
    case 4: return tl_test_range(0, 1) ? INFINITY : -INFINITY;
    case 5: return (float)tl_test_range(-70000, 70000) * 1.5f;   /* f16 overflow */
    default: return (float)tl_test_range(-1000000, 1000000) / 1024.0f;
    }
}

/* Writes value v (given as f32, or s32 exact) in data type dt. */
TL_TEST_UNUSED static void rt_put(tl_data_type dt, void *p, float f, int32_t i)
{
    switch (dt) {
    case TL_F32: memcpy(p, &f, 4); break;
    case TL_F64: { double x = f; if (tl_test_range(0, 1)) x += 1e-9 * (double)i; memcpy(p, &x, 8); } break;
    case TL_F16: { uint16_t h = tl_f32_to_f16(f); memcpy(p, &h, 2); } break;
    case TL_BF16: { uint16_t h = tl_f32_to_bf16(f); memcpy(p, &h, 2); } break;
    case TL_S32: memcpy(p, &i, 4); break;
    case TL_S8: *(int8_t *)p = (int8_t)i; break;
    case TL_U8: *(uint8_t *)p = (uint8_t)i; break;
    default: break;
    }
}

TL_TEST_UNUSED static void rt_put_random(tl_data_type dt, void *p)
{
    int32_t i;
    switch (dt) {
    case TL_S32:
        i = tl_test_range(0, 3) ? (int32_t)tl_test_range(-100000, 100000)
                                : (int32_t)tl_test_range(INT32_MIN, INT32_MAX);
        break;
    case TL_S8: i = (int32_t)tl_test_range(-128, 127); break;
    case TL_U8: i = (int32_t)tl_test_range(0, 255); break;
    default: i = (int32_t)tl_test_range(-1000, 1000); break;
    }
    rt_put(dt, p, rt_random_float(), i);
}

/* Calls fn on every padded logical index of md (idx < padded_dims). */
typedef void (*rt_index_fn)(const tl_memory_desc *md, const tl_dim *idx, int padding, void *ctx);
TL_TEST_UNUSED static void rt_for_each(const tl_memory_desc *md, rt_index_fn fn, void *ctx)
{
    tl_dim idx[TL_MAX_NDIMS] = {0};
    int d, pad;
    for (d = 0; d < md->ndims; ++d) if (md->padded_dims[d] == 0 || md->dims[d] == 0) return;
    for (;;) {
        pad = 0;
        for (d = 0; d < md->ndims; ++d) if (idx[d] >= md->dims[d]) pad = 1;
        fn(md, idx, pad, ctx);
        for (d = md->ndims - 1; d >= 0; --d) {
            if (++idx[d] < md->padded_dims[d]) break;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

TL_TEST_UNUSED static void rt_fill_one(const tl_memory_desc *md, const tl_dim *idx, int pad, void *ctx)
{
    size_t sz = tl_dt_size(md->data_type);
    if (!pad) rt_put_random(md->data_type, (char *)ctx + (size_t)tl_test_offset(md, idx) * sz);
}

/* Fills buf with garbage bytes, then random values at md's elements. */
TL_TEST_UNUSED static void rt_fill(const tl_memory_desc *md, void *buf, size_t bytes)
{
    size_t i;
    for (i = 0; i < bytes; ++i) ((unsigned char *)buf)[i] = (unsigned char)tl_test_rand();
    rt_for_each(md, rt_fill_one, buf);
}

/* ---- the reference ---- */

TL_TEST_UNUSED static float rt_get(tl_data_type dt, const void *p)
{
    switch (dt) {
    case TL_F32: { float f; memcpy(&f, p, 4); return f; }
    case TL_F64: { double x; memcpy(&x, p, 8); return (float)x; }
    case TL_F16: { uint16_t h; memcpy(&h, p, 2); return tl_f16_to_f32(h); }
    case TL_BF16: { uint16_t h; memcpy(&h, p, 2); return tl_bf16_to_f32(h); }
    case TL_S32: { int32_t i; memcpy(&i, p, 4); return (float)i; }
    case TL_S8: return (float)*(const int8_t *)p;
    case TL_U8: return (float)*(const uint8_t *)p;
    default: return 0;
    }
}

TL_TEST_UNUSED static double rt_int_of(float v, double lo, double hi)
{
    if (isnan(v)) return 0;
    if (v < (float)lo) v = (float)lo;
    if (v > (float)hi) v = (float)hi;
    return nearbyintf(v);
}

TL_TEST_UNUSED static void rt_set(tl_data_type dt, void *p, float v)
{
    switch (dt) {
    case TL_F32: memcpy(p, &v, 4); break;
    case TL_F64: { double x = v; memcpy(p, &x, 8); } break;
    case TL_F16: { uint16_t h = tl_f32_to_f16(v); memcpy(p, &h, 2); } break;
    case TL_BF16: { uint16_t h = tl_f32_to_bf16(v); memcpy(p, &h, 2); } break;
    case TL_S32: {
        /* the largest float below 2^31, as oneDNN clamps */
        int32_t i = (int32_t)rt_int_of(v, -2147483648.0, 2147483520.0);
        memcpy(p, &i, 4);
    } break;
    case TL_S8: *(int8_t *)p = (int8_t)rt_int_of(v, -128, 127); break;
    case TL_U8: *(uint8_t *)p = (uint8_t)rt_int_of(v, 0, 255); break;
    default: break;
    }
}

typedef struct {
    const tl_memory_desc *src_md;
    const char *src;
    char *dst;                     /* holds dst_old on entry */
    const tl_reorder_attr *attr;
} rt_ref_ctx;

TL_TEST_UNUSED static int rt_attr_identity(const tl_reorder_attr *a, const tl_memory_desc *dst)
{
    tl_dim count = 1;
    int d;
    for (d = 0; d < dst->ndims; ++d) if (a->scale_mask & (1 << d)) count *= dst->dims[d];
    return (!a->scales || (count == 1 && a->scales[0] == 1.0f)) &&
           a->src_zero_point == 0 && a->dst_zero_point == 0 && a->beta == 0 &&
           !(dst->extra.flags & TL_MD_EXTRA_SCALE_ADJUST);
}

TL_TEST_UNUSED static void rt_ref_one(const tl_memory_desc *md, const tl_dim *idx, int pad, void *vctx)
{
    const rt_ref_ctx *c = (const rt_ref_ctx *)vctx;
    const tl_reorder_attr *a = c->attr;
    tl_data_type st = c->src_md->data_type, dt = md->data_type;
    size_t dsz = tl_dt_size(dt), ssz = tl_dt_size(st);
    char *out = c->dst + (size_t)tl_test_offset(md, idx) * dsz;
    const char *in;
    volatile float v, t;
    int d;
    if (pad) { memset(out, 0, dsz); return; }
    in = c->src + (size_t)tl_test_offset(c->src_md, idx) * ssz;
    if (rt_attr_identity(a, md) && st == dt) { memcpy(out, in, dsz); return; }
    if (rt_attr_identity(a, md) && st == TL_S32 && dt == TL_F64) {
        int32_t i; double x;
        memcpy(&i, in, 4); x = i; memcpy(out, &x, 8);
        return;
    }
    v = rt_get(st, in);
    if (a->src_zero_point) v = v - (float)a->src_zero_point;
    if (a->scales) {
        tl_dim j = 0;
        for (d = 0; d < md->ndims; ++d)
            if (a->scale_mask & (1 << d)) j = j * md->dims[d] + idx[d];
        v = a->scales[j] * v;
    }
    if (a->beta != 0) { t = a->beta * rt_get(dt, out); v = v + t; }
    if (a->dst_zero_point) v = v + (float)a->dst_zero_point;
    if (md->extra.flags & TL_MD_EXTRA_SCALE_ADJUST) v = md->extra.scale_adjust * v;
    rt_set(dt, out, v);
}

/* exp: a copy of dst before the reorder; receives the expected result. */
TL_TEST_UNUSED static void rt_ref_reorder(const tl_memory_desc *src_md, const void *src,
                           const tl_memory_desc *dst_md, void *exp,
                           const tl_reorder_attr *attr)
{
    rt_ref_ctx c;
    tl_reorder_attr zero;
    memset(&zero, 0, sizeof zero);
    c.src_md = src_md;
    c.src = (const char *)src;
    c.dst = (char *)exp;
    c.attr = attr ? attr : &zero;
    rt_for_each(dst_md, rt_ref_one, &c);
}

/* A random attr for md: scales per tensor or along random dims, zero
   points, beta; scales must hold 4096 floats. */
TL_TEST_UNUSED static void rt_random_attr(tl_reorder_attr *a, const tl_memory_desc *md, float *scales)
{
    tl_dim n = 1;
    int d, i;
    memset(a, 0, sizeof *a);
    switch (tl_test_range(0, 3)) {
    case 0: break;
    case 1: a->scale_mask = 0; n = 1; a->scales = scales; break;
    default:
        for (d = 0; d < md->ndims; ++d)
            if (tl_test_range(0, 1)) { a->scale_mask |= 1 << d; n *= md->dims[d]; }
        a->scales = scales;
    }
    for (i = 0; i < n && i < 4096; ++i) {
        static const float pick[] = { 1.0f, 0.5f, 2.0f, -1.5f, 0.1f, 3.7f, 1e-3f, 255.0f / 7.0f };
        scales[i] = pick[tl_test_range(0, 7)];
    }
    if (tl_test_range(0, 2) == 0) a->src_zero_point = (int32_t)tl_test_range(-9, 9);
    if (tl_test_range(0, 2) == 0) a->dst_zero_point = (int32_t)tl_test_range(-9, 9);
    if (tl_test_range(0, 2) == 0) {
        static const float betas[] = { 1.0f, 0.5f, -1.5f, 2.0f };
        a->beta = betas[tl_test_range(0, 3)];
    }
}

TL_TEST_UNUSED static void rt_describe(const tl_memory_desc *s, const rt_layout *sl,
                        const tl_memory_desc *d, const rt_layout *dl,
                        const tl_reorder_attr *a, char *buf)
{
    int i, n = sprintf(buf, "dims");
    for (i = 0; i < s->ndims; ++i) n += sprintf(buf + n, " %lld", (long long)s->dims[i]);
    sprintf(buf + n, "; %s %s -> %s %s; mask %d scales %s szp %d dzp %d beta %g",
            tl_dt_name(s->data_type), sl->what, tl_dt_name(d->data_type), dl->what,
            a->scale_mask, a->scales ? "yes" : "no", (int)a->src_zero_point,
            (int)a->dst_zero_point, (double)a->beta);
}

#endif
