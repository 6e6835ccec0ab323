/* Bad input to tl_reorder and the plan functions: each case returns its
   own error status and writes nothing (the destination, and the plan on
   a failed init, stay byte for byte as they were). */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <string.h>

#define BUF 4096
static unsigned char src[BUF], dst[BUF], canary[BUF];

static void arm(void) { memset(dst, 0xa5, BUF); memcpy(canary, dst, BUF); }
static int untouched(void) { return memcmp(dst, canary, BUF) == 0; }

/* tl_reorder and tl_reorder_plan_init must both refuse with `want`. */
static void refuse(const tl_memory_desc *s, const tl_memory_desc *d,
                   const tl_reorder_attr *a, tl_status want, const char *what)
{
    tl_reorder_plan plan, before;
    tl_status st;
    arm();
    st = tl_reorder(s, src, d, dst, a);
    CHECK_MSG(st == want, "%s: got %s", what, tl_status_str(st));
    CHECK_MSG(untouched(), "%s: dst written", what);
    memset(&plan, 0x3c, sizeof plan);
    before = plan;
    st = tl_reorder_plan_init(&plan, s, d, a);
    CHECK_MSG(st == want, "%s (plan): got %s", what, tl_status_str(st));
    CHECK_MSG(memcmp(&plan, &before, sizeof plan) == 0, "%s: plan written", what);
}

int main(void)
{
    tl_dim dims[4] = { 2, 3, 4, 5 }, dims2[4] = { 2, 3, 4, 6 }, empty[4] = { 2, 0, 4, 5 };
    tl_memory_desc s, d, t;
    tl_reorder_attr a;
    tl_reorder_plan plan;
    float scales[64] = { 1 };
    CHECK(tl_md_init_by_tag(&s, 4, dims, TL_F32, "nchw") == TL_OK);
    CHECK(tl_md_init_by_tag(&d, 4, dims, TL_S8, "nChw8c") == TL_OK);
    memset(&a, 0, sizeof a);

    /* NULL pointers */
    refuse(NULL, &d, NULL, TL_INVALID_ARGUMENTS, "NULL src_md");
    refuse(&s, NULL, NULL, TL_INVALID_ARGUMENTS, "NULL dst_md");
    arm();
    CHECK_EQ(tl_reorder(&s, NULL, &d, dst, NULL), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_reorder(&s, src, &d, NULL, NULL), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_reorder_plan_init(NULL, &s, &d, NULL), TL_INVALID_ARGUMENTS);
    CHECK(tl_reorder_plan_init(&plan, &s, &d, NULL) == TL_OK);
    CHECK_EQ(tl_reorder_plan_execute(NULL, src, dst), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_reorder_plan_execute(&plan, NULL, dst), TL_INVALID_ARGUMENTS);
    CHECK_EQ(tl_reorder_plan_execute(&plan, src, NULL), TL_INVALID_ARGUMENTS);
    CHECK(untouched());
    memset(&plan, 0, sizeof plan);                   /* never initialised */
    CHECK_EQ(tl_reorder_plan_execute(&plan, src, dst), TL_INVALID_ARGUMENTS);
    CHECK(untouched());

    /* shapes */
    CHECK(tl_md_init_by_tag(&t, 4, dims2, TL_S8, "nhwc") == TL_OK);
    refuse(&s, &t, NULL, TL_SHAPE_MISMATCH, "dims differ");
    CHECK(tl_md_init_by_tag(&t, 3, dims, TL_S8, "abc") == TL_OK);
    refuse(&s, &t, NULL, TL_SHAPE_MISMATCH, "ndims differ");

    /* descriptors that cannot be executed */
    CHECK(tl_md_init_by_tag(&t, 4, dims, TL_S8, "any") == TL_OK);
    refuse(&s, &t, NULL, TL_INVALID_ARGUMENTS, "dst any");
    refuse(&t, &d, NULL, TL_INVALID_ARGUMENTS, "src any");
    memset(&t, 0, sizeof t);
    refuse(&s, &t, NULL, TL_INVALID_ARGUMENTS, "zeroed dst md");
    t = d;
    t.data_type = TL_DT_UNDEF;
    refuse(&s, &t, NULL, TL_INVALID_ARGUMENTS, "undef data type");
    t = s;
    t.blocking.strides[3] = 2;                       /* w overlaps h */
    refuse(&t, &d, NULL, TL_INVALID_ARGUMENTS, "overlapping strides");
    t = d;
    t.padded_dims[1] = 16;
    t.padded_offsets[1] = 8;
    t.blocking.strides[0] *= 2;
    refuse(&s, &t, NULL, TL_UNSUPPORTED, "padded_offsets");

    /* a compensated source (oneDNN's refusal: it is not plain data) */
    t = d;
    t.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
    t.extra.compensation_mask = 2;
    refuse(&t, &s, NULL, TL_UNSUPPORTED, "compensated src");
    t.extra.flags = TL_MD_EXTRA_SCALE_ADJUST;
    t.extra.scale_adjust = 0.5f;
    refuse(&t, &s, NULL, TL_UNSUPPORTED, "scale-adjusted src");
    t = s;
    t.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;   /* f32 cannot hold it */
    refuse(&s, &t, NULL, TL_INVALID_ARGUMENTS, "compensation on f32 dst");

    /* attributes */
    a.scales = scales;
    a.scale_mask = 1 << 4;
    refuse(&s, &d, &a, TL_INVALID_ARGUMENTS, "scale mask bit past ndims");
    a.scale_mask = -1;
    refuse(&s, &d, &a, TL_INVALID_ARGUMENTS, "negative scale mask");
    a.scale_mask = 1 << 30;
    refuse(&s, &d, &a, TL_INVALID_ARGUMENTS, "scale mask bit 30");
    a.scale_mask = 0;
    a.nthreads = -2;
    refuse(&s, &d, &a, TL_INVALID_ARGUMENTS, "negative nthreads");
    a.nthreads = 0;

    /* overlapping buffers: the plan is fine, execute refuses */
    CHECK(tl_md_init_by_tag(&t, 4, dims, TL_F32, "nhwc") == TL_OK);
    CHECK(tl_reorder_plan_init(&plan, &s, &t, NULL) == TL_OK);
    arm();
    CHECK_EQ(tl_reorder_plan_execute(&plan, dst, dst), TL_OVERLAP);
    CHECK_EQ(tl_reorder_plan_execute(&plan, dst + 4, dst), TL_OVERLAP);
    CHECK_EQ(tl_reorder_plan_execute(&plan, dst, dst + 4 * 119), TL_OVERLAP);
    CHECK(untouched());
    CHECK_EQ(tl_reorder_plan_execute(&plan, dst, dst + 4 * 120), TL_OK);  /* adjacent */
    /* the compensation after the data counts as written */
    {
        tl_dim w[4] = { 16, 4, 1, 1 };
        tl_memory_desc ws, wd;
        size_t data;
        CHECK(tl_md_init_by_tag(&ws, 4, w, TL_S8, "oihw") == TL_OK);
        CHECK(tl_md_init_by_tag(&wd, 4, w, TL_S8, "OIhw4i16o4i") == TL_OK);
        data = tl_md_size(&wd);
        wd.extra.flags = TL_MD_EXTRA_COMPENSATION_S8S8;
        wd.extra.compensation_mask = 1;
        CHECK_EQ(tl_md_size(&wd), data + 64);
        arm();
        CHECK_EQ(tl_reorder(&ws, dst + data + 8, &wd, dst, NULL), TL_OVERLAP);
        CHECK(untouched());
        CHECK_EQ(tl_reorder(&ws, dst + data + 64, &wd, dst, NULL), TL_OK);
    }

    /* an empty tensor is a successful no-op */
    CHECK(tl_md_init_by_tag(&s, 4, empty, TL_F32, "nchw") == TL_OK);
    CHECK(tl_md_init_by_tag(&t, 4, empty, TL_S8, "nChw8c") == TL_OK);
    arm();
    CHECK_EQ(tl_reorder(&s, src, &t, dst, NULL), TL_OK);
    CHECK(untouched());
    return tl_test_result("reorder_bad");
}
