/* tlayout reorder / shuffle / image: drivers over engines that other
   parts of the library provide. tools/meson.build probes the headers and
   defines TL_HAVE_REORDER, TL_HAVE_SHUFFLE and TL_HAVE_OCL_IMAGES for the
   engines that exist, so the tool builds whatever has landed.

   reorder and shuffle run the engine on generated data and check every
   element against a per-element reference written here from DESIGN.md's
   formulas (not the library's code), then time it. image prints the
   OpenCL image shape of a buffer type, round-trips a buffer through
   tl_ocl_pack_host / tl_ocl_unpack_host, and can draw the texel map. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include "tlayout_cli.h"
#ifdef TL_HAVE_OCL_IMAGES
#define TL_OCL_HOST_ONLY        /* image shapes and the CPU pack/unpack */
#include "tensorlayout_ocl.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(TL_HAVE_REORDER) || defined(TL_HAVE_SHUFFLE)

/* ---- element access (the reference's own conversions) ----------------- */

static float load_elem(tl_data_type dt, const void *buf, tl_dim off)
{
    const unsigned char *p = (const unsigned char *)buf + off * (tl_dim)tl_dt_size(dt);
    float f; double d; int32_t i; uint16_t h;
    switch (dt) {
    case TL_F32: memcpy(&f, p, 4); return f;
    case TL_F64: memcpy(&d, p, 8); return (float)d;
    case TL_F16: memcpy(&h, p, 2); return tl_f16_to_f32(h);
    case TL_BF16: memcpy(&h, p, 2); return tl_bf16_to_f32(h);
    case TL_S32: memcpy(&i, p, 4); return (float)i;
    case TL_S8: return (float)*(const int8_t *)p;
    case TL_U8: return (float)*p;
    default: return 0.f;
    }
}

/* Round half to even without libm; |v| >= 2^23 is already an integer. */
static float round_even(float v)
{
    float r, frac;
    long long t;
    if (!(v > -8388608.f && v < 8388608.f)) return v;
    t = (long long)v;                  /* toward zero */
    r = (float)t;
    frac = v - r;
    if (frac > 0.5f || (frac == 0.5f && (t & 1))) r += 1.f;
    else if (frac < -0.5f || (frac == -0.5f && (t & 1))) r -= 1.f;
    return r;
}

/* Saturation happens in f32, as DESIGN.md says: s32 tops out at the
   largest float below 2^31. */
static float clamp(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

static void store_elem(tl_data_type dt, void *buf, tl_dim off, float v)
{
    unsigned char *p = (unsigned char *)buf + off * (tl_dim)tl_dt_size(dt);
    double d; int32_t i; uint16_t h; int8_t s8; uint8_t u8;
    switch (dt) {
    case TL_F32: memcpy(p, &v, 4); break;
    case TL_F64: d = v; memcpy(p, &d, 8); break;
    case TL_F16: h = tl_f32_to_f16(v); memcpy(p, &h, 2); break;
    case TL_BF16: h = tl_f32_to_bf16(v); memcpy(p, &h, 2); break;
    case TL_S32:
        i = (int32_t)round_even(clamp(v, -2147483648.f, 2147483520.f)); memcpy(p, &i, 4); break;
    case TL_S8: s8 = (int8_t)round_even(clamp(v, -128.f, 127.f)); memcpy(p, &s8, 1); break;
    case TL_U8: u8 = (uint8_t)round_even(clamp(v, 0.f, 255.f)); memcpy(p, &u8, 1); break;
    default: break;
    }
}

/* Calls fn on every padded index of md, telling it whether it is padding
   and, for real elements, their row-major number. */
typedef int (*index_fn)(void *ctx, const tl_dim *idx, int is_pad, tl_dim k);

static int for_each_index(const tl_memory_desc *md, index_fn fn, void *ctx)
{
    tl_dim idx[TL_MAX_NDIMS] = {0}, k = 0;
    int d, pad, rc;
    for (;;) {
        for (d = 0, pad = 0; d < md->ndims; ++d) if (idx[d] >= md->dims[d]) pad = 1;
        if ((rc = fn(ctx, idx, pad, pad ? -1 : k)) != 0) return rc;
        if (!pad) ++k;
        for (d = md->ndims - 1; d >= 0; --d) {
            if (++idx[d] < md->padded_dims[d] - md->padded_offsets[d]) break;
            idx[d] = 0;
        }
        if (d < 0) return 0;
    }
}

typedef struct { const tl_memory_desc *md; void *buf; int skew; } fill_ctx;

/* Small values exact in every type: multiples of 1/8 in [-12.5, 12.5]
   for floats, integers in [-100, 100] (or [0, 200] for u8). */
static int fill_one(void *ctx, const tl_dim *idx, int is_pad, tl_dim k)
{
    fill_ctx *c = (fill_ctx *)ctx;
    tl_data_type dt = c->md->data_type;
    int isint = dt == TL_S32 || dt == TL_S8 || dt == TL_U8;
    float v;
    if (is_pad) return 0;
    v = (float)((k * (c->skew ? 13 : 37)) % 201 - (dt == TL_U8 ? 0 : 100));
    store_elem(dt, c->buf, tl_md_offset(c->md, idx), isint ? v : v / 8.f);
    return 0;
}

static void fill(const tl_memory_desc *md, void *buf, int skew)
{
    fill_ctx c;
    c.md = md; c.buf = buf; c.skew = skew;
    for_each_index(md, fill_one, &c);
}

static void *alloc_for(const tl_memory_desc *md)
{
    size_t n = tl_md_size(md);
    return n ? calloc(1, n) : NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "f32:nchw" -> dt and tag (pointing into text). */
static int parse_dt_tag(const char *text, tl_data_type *dt, const char **tag)
{
    char name[8];
    const char *colon = strchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : 0;
    if (!colon || n == 0 || n >= sizeof name)
        return tlayout_usage_error("expected DT:TAG like f32:nchw, got '%s'", text);
    memcpy(name, text, n);
    name[n] = '\0';
    *dt = tl_dt_from_name(name);
    *tag = colon + 1;
    if (*dt == TL_DT_UNDEF) return tlayout_usage_error("unknown data type '%s'", name);
    return 0;
}

static int parse_float(const char *what, const char *text, float *out)
{
    char *end;
    double v = strtod(text, &end);
    if (!*text || *end || v != v || v > 3.4e38 || v < -3.4e38)
        return tlayout_usage_error("bad %s '%s': expected a number", what, text);
    *out = (float)v;
    return 0;
}

static int bytes_equal(const tl_memory_desc *a, const void *pa, tl_dim oa,
                       const void *pb, tl_dim ob)
{
    size_t es = tl_dt_size(a->data_type);
    return memcmp((const char *)pa + oa * (tl_dim)es, (const char *)pb + ob * (tl_dim)es, es) == 0;
}

static int is_zero(const tl_memory_desc *md, const void *buf, tl_dim off)
{
    static const unsigned char zero[8] = {0};
    return memcmp((const char *)buf + off * (tl_dim)tl_dt_size(md->data_type), zero,
                  tl_dt_size(md->data_type)) == 0;
}

/* Times run(ctx) for about a third of a second (at least 3 runs) and
   prints ms per run and GB/s for `traffic` bytes moved per run. */
static void print_timing(int (*run)(void *ctx), void *ctx, size_t traffic)
{
    double t0 = now_s(), t = 0;
    long n = 0;
    while (n < 3 || (t < 0.3 && n < 100000)) {
        if (run(ctx)) break;
        ++n;
        t = now_s() - t0;
    }
    t = n ? t / (double)n : 0;
    printf("time      %.4f ms per run (%ld runs), %.2f GB/s (%zu bytes moved per run)\n",
           t * 1e3, n, t > 0 ? (double)traffic / t / 1e9 : 0.0, traffic);
}

static void print_dims_line(const char *cmd, const tl_memory_desc *md)
{
    int d;
    printf("%s ", cmd);
    for (d = 0; d < md->ndims; ++d) printf("%s%lld", d ? "x" : "", (long long)md->dims[d]);
}

#endif /* TL_HAVE_REORDER || TL_HAVE_SHUFFLE */

#if !defined(TL_HAVE_REORDER) || !defined(TL_HAVE_SHUFFLE) || !defined(TL_HAVE_OCL_IMAGES)
static int not_built(const char *cmd, const char *engine)
{
    return tlayout_usage_error("'%s' is not built into this tlayout: the library it "
                               "was built with has no %s", cmd, engine);
}
#endif

const char *tlayout_ops_usage(void)
{
    return ""
#ifdef TL_HAVE_REORDER
        "  reorder DIMS SDT:STAG DDT:DTAG [--scale S] [--beta B]\n"
        "      run tl_reorder on generated data, check every element, time it\n"
#endif
#ifdef TL_HAVE_SHUFFLE
        "  shuffle DIMS DT TAG --axis A --group G [--backward]\n"
        "      run tl_shuffle on generated data, check it, time it\n"
#endif
#ifdef TL_HAVE_OCL_IMAGES
        "  image TYPE DIMS [-o FILE.svg]\n"
        "      OpenCL image shape of a buffer type (in_out_channel, in_out_height,\n"
        "      in_out_width, conv2d_filter, dw_conv2d_filter, argument,\n"
        "      weight_height, weight_width; in_out_*_nchw from an NCHW buffer),\n"
        "      a pack/unpack check, the texel map\n"
#endif
        ;
}

const char *tlayout_ops_examples(void)
{
    return ""
#ifdef TL_HAVE_REORDER
        "  tlayout reorder 8x64x56x56 f32:nchw f32:nChw16c\n"
        "  tlayout reorder 2x17x5x5 f32:nchw s8:nChw16c --scale 4 --beta 0.5\n"
#endif
#ifdef TL_HAVE_SHUFFLE
        "  tlayout shuffle 2x12x4x4 f32 nChw8c --axis 1 --group 3\n"
#endif
#ifdef TL_HAVE_OCL_IMAGES
        "  tlayout image in_out_channel 1x2x3x6 -o image.svg\n"
#endif
        ;
}

/* ---- reorder --------------------------------------------------------- */

#ifdef TL_HAVE_REORDER

typedef struct {
    const tl_memory_desc *src_md, *dst_md;
    void *src, *dst, *ref;
    float scale, beta;
    tl_dim bad;                 /* first wrong offset, or -1 */
    tl_dim bad_idx[TL_MAX_NDIMS];
    const tl_reorder_plan *plan;
} reorder_ctx;

/* DESIGN.md's per-element math: v = scale*src; v += beta*dst_old;
   dst = sat(round_even(v)); padding zero. */
static int reorder_ref_one(void *ctx, const tl_dim *idx, int is_pad, tl_dim k)
{
    reorder_ctx *c = (reorder_ctx *)ctx;
    tl_dim od = tl_md_offset(c->dst_md, idx);
    (void)k;
    if (is_pad) {
        if (!is_zero(c->dst_md, c->dst, od) && c->bad < 0) {
            c->bad = od;
            memcpy(c->bad_idx, idx, sizeof c->bad_idx);
        }
        return 0;
    }
    {
        float v = c->scale * load_elem(c->src_md->data_type, c->src, tl_md_offset(c->src_md, idx));
        if (c->beta != 0.f) v = v + c->beta * load_elem(c->dst_md->data_type, c->ref, od);
        store_elem(c->dst_md->data_type, c->ref, od, v);
    }
    if (!bytes_equal(c->dst_md, c->dst, od, c->ref, od) && c->bad < 0) {
        c->bad = od;
        memcpy(c->bad_idx, idx, sizeof c->bad_idx);
    }
    return 0;
}

static int reorder_run(void *ctx)
{
    reorder_ctx *c = (reorder_ctx *)ctx;
    return tl_reorder_plan_execute(c->plan, c->src, c->dst) != TL_OK;
}

/* The command line of `reorder`, parsed. */
typedef struct {
    tl_memory_desc src_md, dst_md;
    const char *stag, *dtag;
    float scale, beta;
    int has_scale;
} reorder_job;

static int parse_reorder(int argc, char **argv, reorder_job *job)
{
    tl_dim dims[TL_MAX_NDIMS];
    tl_data_type sdt, ddt;
    const char *pos[3];
    tl_status st;
    int ndims = 0, npos = 0, i;
    memset(job, 0, sizeof *job);
    job->scale = 1.f;
    for (i = 0; i < argc; ++i) {
        int is_scale = !strcmp(argv[i], "--scale");
        if (is_scale || !strcmp(argv[i], "--beta")) {
            if (i + 1 == argc) return tlayout_usage_error("%s needs a value", argv[i]);
            if (parse_float(argv[i], argv[i + 1], is_scale ? &job->scale : &job->beta))
                return TLAYOUT_EXIT_USAGE;
            job->has_scale |= is_scale;
            ++i;
        } else if (argv[i][0] == '-') {
            return tlayout_usage_error("reorder does not take the option '%s'", argv[i]);
        } else if (npos == 3) {
            return tlayout_usage_error("reorder takes DIMS SDT:STAG DDT:DTAG; '%s' is extra", argv[i]);
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (npos != 3) return tlayout_usage_error("reorder needs DIMS SDT:STAG DDT:DTAG, e.g. "
                                              "8x64x56x56 f32:nchw f32:nChw16c");
    if (tlayout_parse_dims(pos[0], &ndims, dims) || parse_dt_tag(pos[1], &sdt, &job->stag) ||
        parse_dt_tag(pos[2], &ddt, &job->dtag)) return TLAYOUT_EXIT_USAGE;
    if ((st = tl_md_init_by_tag(&job->src_md, ndims, dims, sdt, job->stag)) != TL_OK ||
        (st = tl_md_init_by_tag(&job->dst_md, ndims, dims, ddt, job->dtag)) != TL_OK)
        return tlayout_usage_error("a tag does not describe %d dims: %s", ndims, tl_status_str(st));
    if (!tl_md_size(&job->src_md)) return tlayout_usage_error("the tensor is empty or has no layout");
    return 0;
}

/* Runs the plan once on generated data and checks it; 0 when right. */
static int reorder_check(reorder_ctx *c)
{
    tl_status st;
    fill(c->src_md, c->src, 0);
    fill(c->dst_md, c->dst, 1);          /* dst_old, read when beta != 0 */
    memcpy(c->ref, c->dst, tl_md_size(c->dst_md));
    st = tl_reorder_plan_execute(c->plan, c->src, c->dst);
    if (st != TL_OK) {
        fprintf(stderr, "tlayout: tl_reorder_plan_execute: %s\n", tl_status_str(st));
        return -1;
    }
    for_each_index(c->dst_md, reorder_ref_one, c);
    if (c->bad < 0) return 0;
    fprintf(stderr, "tlayout: WRONG: dst element at offset %lld differs from the reference\n",
            (long long)c->bad);
    return -1;
}

int tlayout_cmd_reorder(int argc, char **argv)
{
    reorder_job job;
    tl_reorder_attr attr;
    tl_reorder_plan plan;
    reorder_ctx c;
    tl_status st;
    void *src, *dst, *ref;
    int rc = TLAYOUT_EXIT_OK;
    if (parse_reorder(argc, argv, &job)) return TLAYOUT_EXIT_USAGE;
    memset(&attr, 0, sizeof attr);
    if (job.has_scale) attr.scales = &job.scale;
    attr.beta = job.beta;
    if ((st = tl_reorder_plan_init(&plan, &job.src_md, &job.dst_md, &attr)) != TL_OK)
        return tlayout_usage_error("tl_reorder_plan_init refused: %s", tl_status_str(st));
    src = alloc_for(&job.src_md);
    dst = alloc_for(&job.dst_md);
    ref = alloc_for(&job.dst_md);
    memset(&c, 0, sizeof c);
    c.src_md = &job.src_md; c.dst_md = &job.dst_md; c.src = src; c.dst = dst; c.ref = ref;
    c.scale = job.scale; c.beta = job.beta; c.bad = -1; c.plan = &plan;
    print_dims_line("reorder", &job.src_md);
    printf(" %s:%s -> %s:%s", tl_dt_name(job.src_md.data_type), job.stag,
           tl_dt_name(job.dst_md.data_type), job.dtag);
    if (job.has_scale || job.beta != 0.f)
        printf(" (scale %g, beta %g)", (double)job.scale, (double)job.beta);
    printf("\n");
    if (!src || !dst || !ref) {
        fprintf(stderr, "tlayout: out of memory\n");
        rc = TLAYOUT_EXIT_FAIL;
    } else if (reorder_check(&c) != 0) {
        rc = TLAYOUT_EXIT_FAIL;
    } else {
        printf("checked   %lld elements against a per-element reference, padding zero: ok\n",
               (long long)tl_md_nelems(&job.dst_md, 0));
        print_timing(reorder_run, &c, tl_md_size(&job.src_md) +
                     tl_md_size(&job.dst_md) * (job.beta != 0.f ? 2 : 1));
    }
    free(src); free(dst); free(ref);
    return rc;
}

#else
int tlayout_cmd_reorder(int argc, char **argv)
{
    (void)argc; (void)argv;
    return not_built("reorder", "tl_reorder");
}
#endif

/* ---- shuffle --------------------------------------------------------- */

#ifdef TL_HAVE_SHUFFLE

typedef struct {
    const tl_memory_desc *md;
    const void *src;
    void *dst;
    int axis;
    tl_dim group;          /* what tl_shuffle gets */
    tl_dim ref_group;      /* G forward, C/G backward (seed 000) */
    tl_direction dir;
    tl_dim bad;
} shuffle_ctx;

/* dst(.., c, ..) = src(.., c', ..) with c = u + v*C/G, c' = u*G + v. */
static int shuffle_ref_one(void *ctx, const tl_dim *idx, int is_pad, tl_dim k)
{
    shuffle_ctx *s = (shuffle_ctx *)ctx;
    tl_dim from[TL_MAX_NDIMS], C = s->md->dims[s->axis], per = C / s->ref_group;
    tl_dim od = tl_md_offset(s->md, idx);
    (void)k;
    if (is_pad) {
        if (!is_zero(s->md, s->dst, od) && s->bad < 0) s->bad = od;
        return 0;
    }
    memcpy(from, idx, sizeof from);
    from[s->axis] = (idx[s->axis] % per) * s->ref_group + idx[s->axis] / per;
    if (!bytes_equal(s->md, s->dst, od, s->src, tl_md_offset(s->md, from)) && s->bad < 0)
        s->bad = od;
    return 0;
}

static int shuffle_run(void *ctx)
{
    shuffle_ctx *s = (shuffle_ctx *)ctx;
    return tl_shuffle(s->md, s->src, s->dst, s->axis, s->group, s->dir) != TL_OK;
}

int tlayout_cmd_shuffle(int argc, char **argv)
{
    const char *pos[3], *axis_s = NULL, *group_s = NULL;
    tl_dim dims[TL_MAX_NDIMS], axis = 0, group = 0;
    tl_memory_desc md;
    tl_data_type dt;
    tl_direction dir = TL_FORWARD;
    shuffle_ctx s;
    tl_status st;
    int ndims = 0, npos = 0, i;
    void *src, *dst;
    for (i = 0; i < argc; ++i) {
        if (!strcmp(argv[i], "--axis") || !strcmp(argv[i], "--group")) {
            if (i + 1 == argc) return tlayout_usage_error("%s needs a value", argv[i]);
            if (argv[i][2] == 'a') axis_s = argv[++i]; else group_s = argv[++i];
        } else if (!strcmp(argv[i], "--backward")) {
            dir = TL_BACKWARD;
        } else if (argv[i][0] == '-') {
            return tlayout_usage_error("shuffle does not take the option '%s'", argv[i]);
        } else if (npos == 3) {
            return tlayout_usage_error("shuffle takes DIMS DT TAG; '%s' is extra", argv[i]);
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (npos != 3 || !axis_s || !group_s)
        return tlayout_usage_error("shuffle needs DIMS DT TAG --axis A --group G, e.g. "
                                   "2x12x4x4 f32 nChw8c --axis 1 --group 3");
    if (tlayout_parse_list("--axis", axis_s, 1, &axis) ||
        tlayout_parse_list("--group", group_s, 1, &group)) return TLAYOUT_EXIT_USAGE;
    if (tlayout_parse_dims(pos[0], &ndims, dims)) return TLAYOUT_EXIT_USAGE;
    dt = tl_dt_from_name(pos[1]);
    if (dt == TL_DT_UNDEF) return tlayout_usage_error("unknown data type '%s'", pos[1]);
    if ((st = tl_md_init_by_tag(&md, ndims, dims, dt, pos[2])) != TL_OK || !tl_md_size(&md))
        return tlayout_usage_error("tag '%s' does not describe %s: %s", pos[2], pos[0],
                                   tl_status_str(st));
    if (axis >= ndims || group < 1 || dims[axis] % group != 0)
        return tlayout_usage_error("--axis must name a dim and --group divide it (dim %lld "
                                   "has %lld values)", (long long)axis,
                                   (long long)(axis < ndims ? dims[axis] : 0));
    src = alloc_for(&md);
    dst = alloc_for(&md);
    if (!src || !dst) {
        free(src); free(dst);
        fprintf(stderr, "tlayout: out of memory\n");
        return TLAYOUT_EXIT_FAIL;
    }
    fill(&md, src, 0);
    memset(&s, 0, sizeof s);
    s.md = &md; s.src = src; s.dst = dst; s.axis = (int)axis; s.dir = dir; s.bad = -1;
    s.group = group;
    s.ref_group = dir == TL_FORWARD ? group : dims[axis] / group;
    st = tl_shuffle(&md, src, dst, (int)axis, group, dir);
    if (st != TL_OK) {
        free(src); free(dst);
        return tlayout_usage_error("tl_shuffle refused: %s", tl_status_str(st));
    }
    for_each_index(&md, shuffle_ref_one, &s);
    print_dims_line("shuffle", &md);
    printf(" %s %s, axis %lld, group %lld, %s\n", tl_dt_name(dt), pos[2], (long long)axis,
           (long long)group, dir == TL_FORWARD ? "forward" : "backward");
    if (s.bad >= 0) {
        fprintf(stderr, "tlayout: WRONG: dst element at offset %lld differs from the "
                        "reference\n", (long long)s.bad);
        free(src); free(dst);
        return TLAYOUT_EXIT_FAIL;
    }
    printf("checked   %lld elements against dst(c) = src(c'), c = u + v*C/G, c' = u*G + v: ok\n",
           (long long)tl_md_nelems(&md, 0));
    print_timing(shuffle_run, &s, 2 * tl_md_size(&md));
    free(src); free(dst);
    return TLAYOUT_EXIT_OK;
}

#else
int tlayout_cmd_shuffle(int argc, char **argv)
{
    (void)argc; (void)argv;
    return not_built("shuffle", "tl_shuffle");
}
#endif

/* ---- image ----------------------------------------------------------- */

#ifdef TL_HAVE_OCL_IMAGES

typedef struct {
    const char *name;
    tl_ocl_buffer_type type;
    int ndims;
    const char *letters;   /* buffer dims, outermost first */
    int lane_dim;          /* the dim whose values fill the 4 lanes */
} image_type;

static const image_type image_types[] = {
    { "in_out_channel", TL_OCL_IN_OUT_CHANNEL, 4, "nhwc", 3 },
    { "in_out_height", TL_OCL_IN_OUT_HEIGHT, 4, "nhwc", 1 },
    { "in_out_width", TL_OCL_IN_OUT_WIDTH, 4, "nhwc", 2 },
    { "conv2d_filter", TL_OCL_CONV2D_FILTER, 4, "oihw", 0 },
    { "dw_conv2d_filter", TL_OCL_DW_CONV2D_FILTER, 4, "mihw", 1 },
    { "argument", TL_OCL_ARGUMENT, 1, "w", 0 },
    { "weight_height", TL_OCL_WEIGHT_HEIGHT, 4, "oihw", 0 },
    { "weight_width", TL_OCL_WEIGHT_WIDTH, 4, "oihw", 1 },
    { "in_out_channel_nchw", TL_OCL_IN_OUT_CHANNEL_NCHW, 4, "nchw", 1 },
    { "in_out_height_nchw", TL_OCL_IN_OUT_HEIGHT_NCHW, 4, "nchw", 2 },
    { "in_out_width_nchw", TL_OCL_IN_OUT_WIDTH_NCHW, 4, "nchw", 3 }
};

#define LANE 26       /* px per lane; a texel is 4 lanes side by side */

/* Buffer index k of a dense row-major buffer -> its coordinates. */
static void unravel(tl_dim k, int ndims, const tl_dim *dims, tl_dim *idx)
{
    int d;
    for (d = ndims - 1; d >= 0; --d) { idx[d] = k % dims[d]; k /= dims[d]; }
}

static int draw_image(const image_type *it, const tl_dim *dims, const float *image,
                      size_t w, size_t h, const char *path)
{
    FILE *f = fopen(path, "w");
    size_t x, y;
    int l, d;
    tl_dim width = 64 + (tl_dim)w * (4 * LANE + 6), height = 84 + (tl_dim)h * (LANE + 6);
    if (!f) {
        fprintf(stderr, "tlayout: cannot write '%s'\n", path);
        return TLAYOUT_EXIT_FAIL;
    }
    if (width < 560) width = 560;
    tlayout_svg_begin(f, width, height);
    fprintf(f, "<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s %s ",
            it->name, it->letters);
    for (d = 0; d < it->ndims; ++d) fprintf(f, "%s%lld", d ? "x" : "", (long long)dims[d]);
    fprintf(f, ": image %zux%zu texels</text>\n", w, h);
    fprintf(f, "<text x=\"12\" y=\"40\">texel (x, y) = 4 lanes RGBA | number: position in "
               "the buffer | colour: %c | hatched: zero lanes</text>\n", it->letters[it->lane_dim]);
    fprintf(f, "<text x=\"12\" y=\"54\">x grows to the right, y downwards</text>\n");
    for (y = 0; y < h; ++y) {
        fprintf(f, "<text x=\"6\" y=\"%lld\">y=%zu</text>\n",
                (long long)(74 + (tl_dim)y * (LANE + 6) + LANE / 2 + 4), y);
        for (x = 0; x < w; ++x) {
            if (y == 0)
                fprintf(f, "<text x=\"%lld\" y=\"68\">x=%zu</text>\n",
                        (long long)(64 + (tl_dim)x * (4 * LANE + 6)), x);
            for (l = 0; l < 4; ++l) {
                float v = image[(y * w + x) * 4 + (size_t)l];
                tl_dim px = 64 + (tl_dim)x * (4 * LANE + 6) + l * LANE;
                tl_dim py = 74 + (tl_dim)y * (LANE + 6);
                char colour[8];
                if (v == 0.f) {
                    fprintf(f, "<rect class=\"lane-pad\" x=\"%lld\" y=\"%lld\" width=\"%d\" "
                               "height=\"%d\" fill=\"url(#hatch)\" stroke=\"#ffffff\">"
                               "<title>texel (%zu, %zu) lane %d: zero</title></rect>\n",
                            (long long)px, (long long)py, LANE, LANE, x, y, l);
                } else {
                    tl_dim idx[TL_MAX_NDIMS], k = (tl_dim)v - 1;
                    unravel(k, it->ndims, dims, idx);
                    tlayout_colour(idx[it->lane_dim], colour);
                    fprintf(f, "<rect class=\"lane\" x=\"%lld\" y=\"%lld\" width=\"%d\" "
                               "height=\"%d\" fill=\"%s\" stroke=\"#ffffff\"><title>texel "
                               "(%zu, %zu) lane %d: buffer element %lld (",
                            (long long)px, (long long)py, LANE, LANE, colour, x, y, l, (long long)k);
                    for (d = 0; d < it->ndims; ++d)
                        fprintf(f, "%s%c=%lld", d ? ", " : "", it->letters[d], (long long)idx[d]);
                    fprintf(f, ")</title></rect>\n<text x=\"%lld\" y=\"%lld\" "
                               "text-anchor=\"middle\">%lld</text>\n",
                            (long long)(px + LANE / 2), (long long)(py + LANE / 2 + 4), (long long)k);
                }
            }
        }
    }
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        fprintf(stderr, "tlayout: writing '%s' failed\n", path);
        return TLAYOUT_EXIT_FAIL;
    }
    printf("wrote %s\n", path);
    return TLAYOUT_EXIT_OK;
}

int tlayout_cmd_image(int argc, char **argv)
{
    const image_type *it = NULL;
    const char *out = NULL, *pos[2];
    tl_dim dims[TL_MAX_NDIMS], n = 1, k;
    size_t w = 0, h = 0, lanes, i;
    int ndims = 0, npos = 0, a, rc = TLAYOUT_EXIT_OK;
    float *buf, *image, *back;
    tl_status st;
    for (a = 0; a < argc; ++a) {
        if (!strcmp(argv[a], "-o")) {
            if (a + 1 == argc) return tlayout_usage_error("-o needs a file name");
            out = argv[++a];
        } else if (argv[a][0] == '-') {
            return tlayout_usage_error("image does not take the option '%s'", argv[a]);
        } else if (npos == 2) {
            return tlayout_usage_error("image takes TYPE DIMS; '%s' is extra", argv[a]);
        } else {
            pos[npos++] = argv[a];
        }
    }
    if (npos != 2) return tlayout_usage_error("image needs TYPE DIMS, e.g. in_out_channel 1x3x3x6");
    for (i = 0; i < sizeof image_types / sizeof *image_types; ++i)
        if (!strcmp(pos[0], image_types[i].name)) it = &image_types[i];
    if (!it) return tlayout_usage_error("unknown image type '%s' (see `tlayout help`)", pos[0]);
    if (tlayout_parse_dims(pos[1], &ndims, dims)) return TLAYOUT_EXIT_USAGE;
    if (ndims != it->ndims)
        return tlayout_usage_error("%s takes %d dims (%s), got %d", it->name, it->ndims,
                                   it->letters, ndims);
    st = tl_ocl_image_shape(it->type, ndims, dims, &w, &h);
    if (st) return tlayout_usage_error("no image for %s %s: %s", it->name, pos[1], tl_status_str(st));
    for (a = 0; a < ndims; ++a) n *= dims[a];
    lanes = w * h * 4;
    printf("%s %s %s: image %zu x %zu texels (width x height), %zu lanes for %lld values, "
           "%lld zero lanes\n", it->name, it->letters, pos[1], w, h, lanes, (long long)n,
           (long long)((tl_dim)lanes - n));
    if (lanes > (size_t)1 << 24 || n > (tl_dim)1 << 24) {
        printf("(too large to check the pack/unpack round trip here)\n");
        return TLAYOUT_EXIT_OK;
    }
    buf = (float *)malloc((size_t)n * sizeof *buf);
    back = (float *)malloc((size_t)n * sizeof *back);
    image = (float *)calloc(lanes, sizeof *image);
    if (!buf || !back || !image) {
        free(buf); free(back); free(image);
        fprintf(stderr, "tlayout: out of memory\n");
        return TLAYOUT_EXIT_FAIL;
    }
    for (k = 0; k < n; ++k) buf[k] = (float)(k + 1);   /* exact below 2^24; 0 = empty lane */
    st = tl_ocl_pack_host(it->type, ndims, dims, buf, image);
    if (!st) st = tl_ocl_unpack_host(it->type, ndims, dims, image, back);
    if (st || memcmp(buf, back, (size_t)n * sizeof *buf) != 0) {
        fprintf(stderr, "tlayout: pack/unpack round trip failed%s%s\n", st ? ": " : "",
                st ? tl_status_str(st) : "");
        rc = TLAYOUT_EXIT_FAIL;
    } else {
        printf("pack/unpack round trip through tl_ocl_pack_host / tl_ocl_unpack_host: ok\n");
        if (out && lanes > 4 * TLAYOUT_DRAW_MAX)
            rc = tlayout_usage_error("%zu lanes are too many to draw readably (the limit is %d)",
                                     lanes, 4 * TLAYOUT_DRAW_MAX);
        else if (out)
            rc = draw_image(it, dims, image, w, h, out);
    }
    free(buf); free(back); free(image);
    return rc;
}

#else
int tlayout_cmd_image(int argc, char **argv)
{
    (void)argc; (void)argv;
    return not_built("image", "tensorlayout_ocl.h image layouts");
}
#endif
