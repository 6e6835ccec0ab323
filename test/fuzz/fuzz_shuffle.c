/* fuzz_shuffle - tl_shuffle on a small accepted descriptor (generated tag
   or strides, any data type, offset0) with a random axis, group size and
   direction, against seed 000's definition written here: with C the
   axis size and G the group size (C/G backward),
       dst(.., u + v*(C/G), ..) = src(.., u*G + v, ..),  u < C/G, v < G.
   Properties: bad parameters (axis outside 0..ndims-1, G < 1, G not
   dividing C, an empty axis, an unknown direction) are refused with
   nothing written, and so is an in-place call (TL_OVERLAP);
   valid ones succeed, every data element is the reference's (bits
   copied), padding is zero, the bytes between elements are untouched.
   Running backward after forward gives the input back. Buffers are
   exactly tl_md_size bytes, so ASan sees any stray access. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "fuzz_common.h"

#define SH_MAX_ELEMS 2048

static int sh_make_md(fz_reader *r, tl_memory_desc *md)
{
    tl_dim dims[TL_MAX_NDIMS], strides[TL_MAX_NDIMS];
    char tag[64];
    int ndims = 1 + (int)(fz_byte(r) % 4), d;
    tl_data_type dt = (tl_data_type)(1 + fz_byte(r) % 7);
    tl_status st;
    for (d = 0; d < ndims; ++d) {
        unsigned v = fz_byte(r);
        dims[d] = v >= 250 ? 0 : (tl_dim)(1 + v % 12);
    }
    if (fz_byte(r) < 160) {
        fz_make_abstract_tag(r, ndims, tag);
        st = tl_md_init_by_tag(md, ndims, dims, dt, tag);
    } else {
        fz_make_strides(r, ndims, dims, strides);
        st = tl_md_init_by_strides(md, ndims, dims, dt, strides);
    }
    if (st != TL_OK) return 0;
    if (fz_byte(r) < 64) md->offset0 = (tl_dim)(fz_byte(r) % 9);
    return tl_md_nelems(md, 1) <= SH_MAX_ELEMS;
}

/* Expected destination: want starts as a copy of dst before the call. */
static void sh_reference(const tl_memory_desc *md, const unsigned char *src,
                         unsigned char *want, unsigned char *covered,
                         int axis, tl_dim g)
{
    tl_dim idx[TL_MAX_NDIMS] = {0}, from[TL_MAX_NDIMS], C = md->dims[axis];
    size_t esz = tl_dt_size(md->data_type);
    if (fz_has_zero_dim(md)) return;
    do {
        unsigned char *out = want + (size_t)fz_ref_offset(md, idx) * esz;
        if (fz_is_data(md, idx)) {
            tl_dim c = idx[axis], u = c % (C / g), v = c / (C / g);
            memcpy(from, idx, sizeof from);
            from[axis] = u * g + v;
            memcpy(out, src + (size_t)fz_ref_offset(md, from) * esz, esz);
        } else {
            memset(out, 0, esz);
        }
        memset(covered + (out - want), 1, esz);
    } while (fz_next_padded(md, idx));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r;
    tl_memory_desc md;
    unsigned char *src, *dst, *before, *want, *covered, *back;
    size_t n, k;
    int axis, dir, valid;
    tl_dim g, C = 0, eff;
    tl_status st;

    fz_init(&r, data, size);
    if (!sh_make_md(&r, &md)) return 0;
    axis = (int)(fz_byte(&r) % (unsigned)md.ndims);
    if (fz_byte(&r) < 12) axis = fz_byte(&r) & 1 ? -1 : md.ndims;
    dir = (int)(fz_byte(&r) & 1);
    if (fz_byte(&r) < 8) dir = (int)(fz_byte(&r) % 7) - 3;      /* -3..3 */
    if (axis >= 0 && axis < md.ndims) C = md.dims[axis];
    if (fz_byte(&r) < 24 || C == 0) g = fz_any_dim(&r);
    else {                        /* a divisor of C, usually */
        g = 1 + fz_below(&r, C);
        while (C % g != 0) --g;
        if (fz_byte(&r) < 16) g = C + 1;
    }
    /* an empty axis admits no group size */
    valid = axis >= 0 && axis < md.ndims && g >= 1 && (dir == TL_FORWARD || dir == TL_BACKWARD) &&
            C >= 1 && C % g == 0;
    n = tl_md_size(&md);
    src = (unsigned char *)malloc(n ? n : 1);
    dst = (unsigned char *)malloc(n ? n : 1);
    before = (unsigned char *)malloc(n ? n : 1);
    want = (unsigned char *)malloc(n ? n : 1);
    back = (unsigned char *)malloc(n ? n : 1);
    covered = (unsigned char *)calloc(n ? n : 1, 1);
    FZ_CHECK(src && dst && before && want && back && covered);
    for (k = 0; k < n; ++k) { src[k] = (unsigned char)fz_byte(&r); before[k] = (unsigned char)fz_byte(&r); }
    memcpy(dst, before, n);
    st = tl_shuffle(&md, src, dst, axis, g, (tl_direction)dir);
    if (!valid) {
        FZ_CHECK(st != TL_OK);
        FZ_CHECK(memcmp(dst, before, n) == 0);
    } else if (fz_has_zero_dim(&md)) {
        FZ_CHECK(st == TL_OK);
        FZ_CHECK(memcmp(dst, before, n) == 0);   /* nothing to write */
    } else {
        FZ_CHECK(st == TL_OK);
        eff = dir == TL_FORWARD ? g : C / g;
        memcpy(want, before, n);
        sh_reference(&md, src, want, covered, axis, eff);
        FZ_CHECK(memcmp(dst, want, n) == 0);   /* bits, gaps and padding */
        /* backward undoes forward (on the data; padding is zero in both) */
        memcpy(back, before, n);
        FZ_CHECK(tl_shuffle(&md, dst, back, axis, g,
                            dir == TL_FORWARD ? TL_BACKWARD : TL_FORWARD) == TL_OK);
        memcpy(want, before, n);
        memset(covered, 0, n);
        sh_reference(&md, src, want, covered, axis, 1);   /* identity */
        FZ_CHECK(memcmp(back, want, n) == 0);
        /* in place is an overlap: refused, nothing written */
        memcpy(want, src, n);
        FZ_CHECK(tl_shuffle(&md, src, src, axis, g, (tl_direction)dir) == TL_OVERLAP);
        FZ_CHECK(memcmp(want, src, n) == 0);
    }
    free(src); free(dst); free(before); free(want); free(back); free(covered);
    return 0;
}
