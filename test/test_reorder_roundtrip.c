/* Round trips A -> B -> A give back every element bit for bit where the
   types allow it; padding reads zero after every reorder into a blocked
   layout (also with beta != 0 and after garbage was put there); a view's
   parent is untouched outside the view; a plan can be copied and run
   many times. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include "test_reorder_util.h"

typedef struct { const char *a; const char *b; int ok; } same_ctx;

/* element at idx equal in buffers a and b (both laid out as md) */
typedef struct { const char *x, *y; int equal; } eq_ctx;
static void eq_one(const tl_memory_desc *md, const tl_dim *idx, int pad, void *vctx)
{
    eq_ctx *c = (eq_ctx *)vctx;
    size_t sz = tl_dt_size(md->data_type), off = (size_t)tl_md_offset(md, idx) * sz;
    if (!pad && memcmp(c->x + off, c->y + off, sz) != 0) c->equal = 0;
}

typedef struct { const char *buf; int zero; } pad_ctx;
static void pad_one(const tl_memory_desc *md, const tl_dim *idx, int pad, void *vctx)
{
    pad_ctx *c = (pad_ctx *)vctx;
    size_t sz = tl_dt_size(md->data_type), off = (size_t)tl_md_offset(md, idx) * sz, k;
    if (pad) for (k = 0; k < sz; ++k) if (c->buf[off + k]) c->zero = 0;
}

static int padding_zero(const tl_memory_desc *md, const void *buf)
{
    pad_ctx c;
    c.buf = (const char *)buf;
    c.zero = 1;
    rt_for_each(md, pad_one, &c);
    return c.zero;
}

/* A (type ta) -> B (type tb) -> A: exact for the pairs given. */
static void round_trip(tl_data_type ta, tl_data_type tb)
{
    tl_dim dims[TL_MAX_NDIMS], total = 1;
    int ndims = (int)tl_test_range(1, 4), d;
    rt_layout la, lb;
    char *x, *y, *back, what[256];
    eq_ctx e;
    tl_reorder_attr beta1;
    for (d = 0; d < ndims; ++d) { dims[d] = tl_test_range(1, total > 60 ? 2 : 7); total *= dims[d]; }
    rt_random_layout(&la, ndims, dims, ta);
    rt_random_layout(&lb, ndims, dims, tb);
    sprintf(what, "%s %s -> %s %s", tl_dt_name(ta), la.what, tl_dt_name(tb), lb.what);
    x = (char *)malloc(la.bytes);
    y = (char *)malloc(lb.bytes);
    back = (char *)malloc(la.bytes);
    rt_fill(&la.md, x, la.bytes);
    if (ta == TL_F32 || ta == TL_F16 || ta == TL_BF16) {
        /* NaN payloads need not survive a change of type */
        size_t i, sz = tl_dt_size(ta);
        if (ta != tb)
            for (i = 0; i + sz <= la.bytes; i += sz)
                if (rt_get(ta, x + i) != rt_get(ta, x + i)) memset(x + i, 0, sz);
    }
    rt_fill(&lb.md, y, lb.bytes);                    /* garbage in padding */
    rt_fill(&la.md, back, la.bytes);
    CHECK_MSG(tl_reorder(&la.md, x, &lb.md, y, NULL) == TL_OK, "%s", what);
    CHECK_MSG(padding_zero(&lb.md, y), "%s: padding not zero", what);
    CHECK_MSG(tl_reorder(&lb.md, y, &la.md, back, NULL) == TL_OK, "%s back", what);
    e.x = x; e.y = back; e.equal = 1;
    rt_for_each(&la.md, eq_one, &e);
    CHECK_MSG(e.equal, "%s: round trip changed a value", what);
    /* with beta the padding is rewritten as zero too */
    rt_fill(&lb.md, y, lb.bytes);
    memset(&beta1, 0, sizeof beta1);
    beta1.beta = 1.0f;
    CHECK_MSG(tl_reorder(&la.md, x, &lb.md, y, &beta1) == TL_OK, "%s beta", what);
    CHECK_MSG(padding_zero(&lb.md, y), "%s: padding not zero with beta", what);
    free(x); free(y); free(back);
}

/* A view inside a parent: only the view's elements change. */
static void view_untouched(void)
{
    tl_dim pdims[4] = { 3, 32, 5, 6 }, vdims[4] = { 2, 16, 3, 4 }, offs[4] = { 1, 16, 1, 2 };
    tl_memory_desc parent, view, src;
    size_t psz, i;
    unsigned char *buf, *before;
    float *s;
    int touched_outside = 0, n;
    CHECK(tl_md_init_by_tag(&parent, 4, pdims, TL_F32, "nChw16c") == TL_OK);
    CHECK(tl_md_submemory(&view, &parent, vdims, offs) == TL_OK);
    CHECK(tl_md_init_by_tag(&src, 4, vdims, TL_F32, "nhwc") == TL_OK);
    psz = tl_md_size(&parent);
    buf = (unsigned char *)malloc(psz);
    before = (unsigned char *)malloc(psz);
    s = (float *)malloc(tl_md_size(&src));
    for (n = 0; n < 2 * 16 * 3 * 4; ++n) s[n] = (float)n + 1;
    for (i = 0; i < psz; ++i) buf[i] = (unsigned char)(i * 13 + 7);
    memcpy(before, buf, psz);
    CHECK(tl_reorder(&src, s, &view, buf, NULL) == TL_OK);
    /* every changed float must be an element of the view */
    for (i = 0; i < psz; i += 4) {
        tl_dim idx[4];
        int pad;
        if (memcmp(buf + i, before + i, 4) == 0) continue;
        if (tl_md_index_of(&parent, (tl_dim)(i / 4), idx, &pad) != 1 || pad ||
            idx[0] < 1 || idx[0] >= 3 || idx[1] < 16 || idx[2] < 1 || idx[2] >= 4 ||
            idx[3] < 2 || idx[3] >= 6)
            touched_outside = 1;
    }
    CHECK(!touched_outside);
    free(buf); free(before); free(s);
}

/* A plan runs the same as tl_reorder, any number of times, from a copy. */
static void plan_reuse(void)
{
    tl_dim dims[4] = { 2, 19, 3, 5 };
    tl_memory_desc s, d;
    tl_reorder_plan plan, copy;
    tl_reorder_attr a;
    float x[2 * 19 * 15], scales[19];
    int8_t y1[2 * 32 * 15], y2[2 * 32 * 15], y3[2 * 32 * 15];
    int i;
    for (i = 0; i < 2 * 19 * 15; ++i) x[i] = (float)(i % 97) - 48.5f;
    for (i = 0; i < 19; ++i) scales[i] = 0.25f * (float)(i + 1);
    memset(&a, 0, sizeof a);
    a.scale_mask = 1 << 1;
    a.scales = scales;
    CHECK(tl_md_init_by_tag(&s, 4, dims, TL_F32, "nchw") == TL_OK);
    CHECK(tl_md_init_by_tag(&d, 4, dims, TL_S8, "nChw16c") == TL_OK);
    CHECK(tl_reorder_plan_init(&plan, &s, &d, &a) == TL_OK);
    copy = plan;
    memset(&plan, 0, sizeof plan);
    memset(y1, 1, sizeof y1); memset(y2, 2, sizeof y2); memset(y3, 3, sizeof y3);
    CHECK(tl_reorder(&s, x, &d, y1, &a) == TL_OK);
    CHECK(tl_reorder_plan_execute(&copy, x, y2) == TL_OK);
    CHECK(tl_reorder_plan_execute(&copy, x, y3) == TL_OK);
    CHECK(memcmp(y1, y2, sizeof y1) == 0);
    CHECK(memcmp(y1, y3, sizeof y1) == 0);
    /* a plain copy between equal layouts becomes a single loop */
    CHECK(tl_reorder_plan_init(&plan, &s, &s, NULL) == TL_OK);
    CHECK_EQ(plan.nloops, 1);
    CHECK_EQ(plan.mode, TL_REORDER_MODE_COPY);
}

int main(void)
{
    static const tl_data_type widen[][2] = {
        { TL_S8, TL_F32 }, { TL_U8, TL_S32 }, { TL_F16, TL_F32 }, { TL_BF16, TL_F32 },
        { TL_S8, TL_F16 }, { TL_U8, TL_BF16 }, { TL_S8, TL_S32 }, { TL_F32, TL_F64 },
        { TL_F16, TL_F64 }, { TL_BF16, TL_F64 }
    };
    int i, k;
    for (i = 0; i < RT_NDTS; ++i)
        for (k = 0; k < 40; ++k) round_trip(rt_dts[i], rt_dts[i]);
    for (i = 0; i < (int)(sizeof widen / sizeof widen[0]); ++i)
        for (k = 0; k < 40; ++k) round_trip(widen[i][0], widen[i][1]);
    view_untouched();
    plan_reuse();
    return tl_test_result("reorder_roundtrip");
}
