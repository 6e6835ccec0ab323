/* tl_shuffle against oneDNN 2.6's shuffle primitive, bit for bit over the
   whole destination buffer (padding and bytes between elements included),
   wherever oneDNN implements the case: its own format tags, then random
   layouts and views handed to oneDNN field by field. Arguments oneDNN
   refuses must be refused here too. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include "test_shuffle_cases.h"
#include "dnnl_md.h"

static dnnl_engine_t engine;
static dnnl_stream_t stream;
static int ran, unimplemented, broken;

/* oneDNN 2.6's jit shuffle (jit:avx512_core and jit:avx512_core_bf16) on
   bf16 with 8-channel blocks (nChw8c) writes wrong values and 16 bytes
   past the end of the buffer (seen with a guard zone; heap corruption
   without one). Our result there is checked against the naive reference
   in test_shuffle; here those cases are skipped before oneDNN runs, and
   counted. Its jit on bf16 nChw16c, and on f32/s32, agrees with us. */
static int dnnl_known_broken(const dnnl_primitive_desc_t pd, const dnnl_memory_desc_t *md)
{
    const dnnl_blocking_desc_t *bd = &md->format_desc.blocking;
    const char *impl = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success)
        return 0;
    return impl && strncmp(impl, "jit", 3) == 0 && md->data_type == dnnl_bf16 &&
           bd->inner_nblks == 1 && bd->inner_blks[0] == 8;
}



/* oneDNN's shuffle on caller buffers. Returns 1 after running it, 0 when
   oneDNN has no implementation, -1 when it refuses the arguments, 2 for a
   known oneDNN bug (not run). */
static int dnnl_shuffle_run(const dnnl_memory_desc_t *md, void *src, void *dst, int axis,
                            tl_dim g, tl_direction dir)
{
    dnnl_shuffle_desc_t fwd_desc, bwd_desc;
    dnnl_primitive_desc_t fwd_pd = NULL, pd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_memory_t in = NULL, out = NULL;
    dnnl_exec_arg_t args[2];
    int result = 1;
    if (dnnl_shuffle_forward_desc_init(&fwd_desc, dnnl_forward_training, md, axis, g) !=
        dnnl_success)
        return -1;
    if (dir == TL_BACKWARD &&
        dnnl_shuffle_backward_desc_init(&bwd_desc, md, axis, g) != dnnl_success)
        return -1;
    /* the forward pd is the hint oneDNN wants for backward */
    if (dnnl_primitive_desc_create(&fwd_pd, &fwd_desc, NULL, engine, NULL) != dnnl_success)
        return 0;
    if (dir == TL_BACKWARD) {
        if (dnnl_primitive_desc_create(&pd, &bwd_desc, NULL, engine, fwd_pd) != dnnl_success) {
            dnnl_primitive_desc_destroy(fwd_pd);
            return 0;
        }
    } else {
        pd = fwd_pd;
        fwd_pd = NULL;
    }
    if (dnnl_known_broken(pd, md)) {
        dnnl_primitive_desc_destroy(pd);
        if (fwd_pd) dnnl_primitive_desc_destroy(fwd_pd);
        return 2;
    }
    CHECK_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    CHECK_EQ(dnnl_memory_create(&in, md, engine, src), dnnl_success);
    CHECK_EQ(dnnl_memory_create(&out, md, engine, dst), dnnl_success);
    args[0].arg = dir == TL_FORWARD ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST;
    args[0].memory = in;
    args[1].arg = dir == TL_FORWARD ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC;
    args[1].memory = out;
    if (dnnl_primitive_execute(prim, stream, 2, args) != dnnl_success) result = 0;
    dnnl_stream_wait(stream);
    dnnl_memory_destroy(in);
    dnnl_memory_destroy(out);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    if (fwd_pd) dnnl_primitive_desc_destroy(fwd_pd);
    return result;
}

/* One case on both libraries; the same random src and the same garbage in
   dst before the call. */
static void compare(const tl_memory_desc *md, const dnnl_memory_desc_t *dmd, int axis,
                    tl_dim g, tl_direction dir, const char *what)
{
    size_t size = tl_md_size(md), dsize = dnnl_memory_desc_get_size(dmd);
    unsigned char *src, *a, *b;
    int r;
    if (dsize > size) size = dsize;
    size += 64;     /* a guard zone: a write past the end shows as a difference */
    src = (unsigned char *)malloc(size);
    a = (unsigned char *)malloc(size);
    b = (unsigned char *)malloc(size);
    fill_random(src, size);
    fill_random(a, size);
    memcpy(b, a, size);
    r = dnnl_shuffle_run(dmd, src, b, axis, g, dir);
    if (r == 1) {
        ++ran;
        CHECK_EQ(tl_shuffle(md, src, a, axis, g, dir), TL_OK);
        CHECK_MSG(memcmp(a, b, size) == 0, "%s %s axis %d C %lld G %lld %s: differs from oneDNN",
                  what, tl_dt_name(md->data_type), axis, (long long)md->dims[axis],
                  (long long)g, dir == TL_FORWARD ? "fwd" : "bwd");
    } else if (r == 0) {
        ++unimplemented;
    } else if (r == 2) {
        ++broken;
    } else {
        CHECK_MSG(tl_shuffle(md, src, a, axis, g, dir) != TL_OK,
                  "%s axis %d G %lld: oneDNN refuses, we accept", what, axis, (long long)g);
    }
    free(src);
    free(a);
    free(b);
}

/* oneDNN's own tags: its descriptor from dnnl_memory_desc_init_by_tag,
   ours from the same tag name. */
static void tag_cases(void)
{
    static const struct {
        const char *name;
        dnnl_format_tag_t tag;
        int ndims;
        tl_dim dims[5];
    } t[] = {
        {"nchw", dnnl_nchw, 4, {2, 12, 3, 5, 0}},     {"nhwc", dnnl_nhwc, 4, {2, 12, 3, 5, 0}},
        {"nChw8c", dnnl_nChw8c, 4, {2, 20, 3, 3, 0}},
        {"nChw16c", dnnl_nChw16c, 4, {2, 20, 3, 3, 0}},
        {"nChw16c", dnnl_nChw16c, 4, {1, 64, 2, 3, 0}},
        {"nChw8c", dnnl_nChw8c, 4, {1, 116, 1, 2, 0}},
        {"ncdhw", dnnl_ncdhw, 5, {2, 8, 2, 3, 2}},    {"ndhwc", dnnl_ndhwc, 5, {2, 8, 2, 3, 2}},
        {"nCdhw16c", dnnl_nCdhw16c, 5, {1, 24, 2, 2, 3}}, {"nc", dnnl_nc, 2, {3, 24, 0, 0, 0}},
        {"ncw", dnnl_ncw, 3, {2, 18, 4, 0, 0}},       {"nwc", dnnl_nwc, 3, {2, 18, 4, 0, 0}},
        {"nCw16c", dnnl_nCw16c, 3, {2, 18, 4, 0, 0}}, {"cn", dnnl_cn, 2, {6, 16, 0, 0, 0}},
    };
    static const tl_data_type dts[6] = {TL_F32, TL_BF16, TL_F16, TL_S32, TL_S8, TL_U8};
    int i, k, axis, dir;
    for (i = 0; i < (int)(sizeof t / sizeof *t); ++i)
        for (k = 0; k < 6; ++k)
            for (axis = 0; axis < t[i].ndims; ++axis) {
                tl_memory_desc md;
                dnnl_memory_desc_t dmd;
                dnnl_data_type_t ddt = tl_dnnl_dt(dts[k]);
                dnnl_dims_t ddims;
                tl_dim c = t[i].dims[axis], g;
                int d;
                for (d = 0; d < t[i].ndims; ++d) ddims[d] = t[i].dims[d];
                CHECK(ddt != dnnl_data_type_undef);
                CHECK_EQ(tl_md_init_by_tag(&md, t[i].ndims, t[i].dims, dts[k], t[i].name), TL_OK);
                CHECK_EQ(dnnl_memory_desc_init_by_tag(&dmd, t[i].ndims, ddims, ddt, t[i].tag),
                         dnnl_success);
                /* every divisor, and two refused groups: 5 where it does
                   not divide C, and C + 1 */
                for (g = 1; g <= c + 1; ++g)
                    for (dir = 0; dir < 2; ++dir)
                        if (g > c || c % g == 0 || g == 5)
                            compare(&md, &dmd, axis, g, (tl_direction)dir, t[i].name);
            }
}

/* Random layouts, strides and views, described to oneDNN field by field. */
static void random_cases(int n)
{
    int i;
    for (i = 0; i < n; ++i) {
        tl_memory_desc md;
        dnnl_memory_desc_t dmd;
        char desc[96];
        tl_data_type dt = shuffle_dts[tl_test_range(0, SHUFFLE_NDTS - 2)];   /* no f64 */
        int axis;
        random_md(&md, dt, desc);
        axis = (int)tl_test_range(0, md.ndims - 1);
        CHECK(tl_dnnl_md(&md, &dmd));
        compare(&md, &dmd, axis, random_divisor(md.dims[axis]),
                tl_test_range(0, 1) ? TL_BACKWARD : TL_FORWARD, desc);
    }
}

/* Tensors with a zero dim: a valid no-op, unless the axis itself is empty
   (no group size fits in 0 channels: oneDNN refuses it). */
static void zero_dim_cases(void)
{
    static const tl_dim shapes[3][4] = {{0, 6, 2, 2}, {2, 0, 2, 2}, {2, 6, 0, 2}};
    int i, axis;
    for (i = 0; i < 3; ++i)
        for (axis = 0; axis < 4; ++axis) {
            tl_memory_desc md;
            dnnl_memory_desc_t dmd;
            tl_dim g;
            CHECK_EQ(tl_md_init_by_tag(&md, 4, shapes[i], TL_F32, "nchw"), TL_OK);
            CHECK(tl_dnnl_md(&md, &dmd));
            for (g = 1; g <= 3; ++g) compare(&md, &dmd, axis, g, TL_FORWARD, "zero dim");
        }
}

int main(void)
{
    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success ||
        dnnl_stream_create(&stream, engine, dnnl_stream_default_flags) != dnnl_success) {
        fprintf(stderr, "no oneDNN CPU engine\n");
        return 77;
    }
    tag_cases();
    zero_dim_cases();
    random_cases((int)tl_test_cases(1500));
    printf("oneDNN ran %d cases, had no implementation for %d, known oneDNN bugs %d\n", ran,
           unimplemented, broken);
    CHECK(ran > tl_test_cases(1000));      /* the comparison really happened */
    dnnl_stream_destroy(stream);
    dnnl_engine_destroy(engine);
    return tl_test_result("shuffle_dnnl");
}
