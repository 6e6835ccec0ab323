/* fuzz_tag - tl_md_init_by_tag and tl_md_init_by_strides on arbitrary
   bytes. Input: flag, ndims and data type bytes, then dims and strides as
   fz_any_dim reads them, then the tag string (the rest of the input, or a
   named tag). Properties: a refused call leaves its output byte for byte
   as it was; an accepted descriptor validates, says what was asked for,
   has the size the layout gives (dense for tags; last element or full
   outer stride for strides), and every padded index maps to a distinct
   offset inside tl_md_size. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "fuzz_common.h"

#define FZ_TAG_MAX 96

enum {
    FZ_NULL_DIMS = 1, FZ_NULL_STRIDES = 2, FZ_NULL_TAG = 4,
    FZ_NAMED_TAG = 8, FZ_GOOD_STRIDES = 16, FZ_SMALL_DIMS = 32
};

/* What every accepted descriptor shares, from whichever init made it. */
static void check_common(const tl_memory_desc *md, int ndims, const tl_dim *dims,
                         tl_data_type dt)
{
    int d;
    FZ_CHECK(ndims >= 1 && ndims <= TL_MAX_NDIMS);
    FZ_CHECK(tl_dt_size(dt) != 0);
    FZ_CHECK(dims != NULL);
    FZ_CHECK(md->ndims == ndims && md->data_type == dt);
    for (d = 0; d < ndims; ++d) {
        FZ_CHECK(dims[d] >= 0 && md->dims[d] == dims[d]);
        FZ_CHECK(md->padded_dims[d] >= dims[d] && md->padded_offsets[d] == 0);
    }
    FZ_CHECK(md->offset0 == 0 && md->extra.flags == 0);
}

static void check_by_tag(int ndims, const tl_dim *dims, tl_data_type dt, const char *tag)
{
    tl_memory_desc md, before;
    tl_status st;
    size_t size;
    memset(&md, 0xA5, sizeof md);
    before = md;
    st = tl_md_init_by_tag(&md, ndims, dims, dt, tag);
    FZ_CHECK(tl_md_init_by_tag(NULL, ndims, dims, dt, tag) != TL_OK);
    if (st != TL_OK) {
        FZ_CHECK(memcmp(&md, &before, sizeof md) == 0);
        return;
    }
    FZ_CHECK(tag != NULL);
    check_common(&md, ndims, dims, dt);
    if (strcmp(tag, "any") == 0) {
        FZ_CHECK(md.format_kind == TL_FORMAT_KIND_ANY);
        FZ_CHECK(tl_md_size(&md) == 0);
        return;
    }
    FZ_CHECK(fz_tag_ndims(tag) == ndims);
    FZ_CHECK(tl_md_validate(&md, NULL, 0) == TL_OK);
    FZ_CHECK(tl_md_matches_tag(&md, tag, NULL) == 1);
    size = tl_md_size(&md);
    if (fz_has_zero_dim(&md)) {
        FZ_CHECK(size == 0);
        return;
    }
    /* a tag layout is dense: exactly the padded elements, no gaps */
    FZ_CHECK((uint64_t)tl_md_nelems(&md, 1) * tl_dt_size(dt) == (uint64_t)size);
    fz_check_all_offsets(&md, size, FZ_MAX_LEAF);
}

static void check_by_strides(int ndims, const tl_dim *dims, tl_data_type dt,
                             const tl_dim *strides)
{
    tl_memory_desc md, before;
    tl_status st;
    uint64_t span = 1, dense = 1;
    size_t size;
    int d;
    memset(&md, 0xA5, sizeof md);
    before = md;
    st = tl_md_init_by_strides(&md, ndims, dims, dt, strides);
    if (st != TL_OK) {
        FZ_CHECK(memcmp(&md, &before, sizeof md) == 0);
        return;
    }
    check_common(&md, ndims, dims, dt);
    FZ_CHECK(tl_md_validate(&md, NULL, 0) == TL_OK);
    FZ_CHECK(md.format_kind == TL_FORMAT_KIND_BLOCKED && md.blocking.inner_nblks == 0);
    for (d = ndims - 1; d >= 0; --d) {
        tl_dim s = strides ? strides[d] : (tl_dim)dense;
        FZ_CHECK(md.blocking.strides[d] == s && s >= 0);
        FZ_CHECK(md.padded_dims[d] == dims[d]);
        if (dims[d] > 0) span += (uint64_t)(dims[d] - 1) * (uint64_t)s;
        dense *= (uint64_t)(dims[d] > 0 ? dims[d] : 1);
    }
    /* as oneDNN, a descriptor at the buffer start also spans the full
       stride of each dim (the trailing gap of a leading dimension), where
       that product fits in int64 */
    for (d = 0; d < ndims; ++d) {
        tl_dim s = md.blocking.strides[d];
        if (dims[d] > 1 && (s == 0 || dims[d] <= INT64_MAX / s) &&
            (uint64_t)(dims[d] * s) > span)
            span = (uint64_t)(dims[d] * s);
    }
    size = tl_md_size(&md);
    if (fz_has_zero_dim(&md)) {
        FZ_CHECK(size == 0);
        return;
    }
    FZ_CHECK(span * tl_dt_size(dt) == (uint64_t)size);
    fz_check_all_offsets(&md, size, FZ_MAX_LEAF);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r;
    tl_dim dims[TL_MAX_NDIMS + 1], strides[TL_MAX_NDIMS + 1];
    char tag[FZ_TAG_MAX + 1];
    int ndims, n, d;
    unsigned flags;
    tl_data_type dt;
    size_t len = 0;

    fz_init(&r, data, size);
    flags = fz_byte(&r);
    ndims = (int)(fz_byte(&r) % 16) - 2;                 /* -2..13 */
    dt = (tl_data_type)((int)(fz_byte(&r) % 10) - 1);    /* invalid ones too */
    if (flags & FZ_NAMED_TAG) {       /* a real tag, usually with its ndims */
        const char *named = fz_named_tags[fz_byte(&r) % FZ_NAMED_TAGS];
        len = strlen(named);
        memcpy(tag, named, len);
        if (fz_tag_ndims(named) > 0 && fz_byte(&r) < 240) ndims = fz_tag_ndims(named);
    }
    n = ndims < 0 ? 0 : ndims;
    for (d = 0; d < n; ++d)
        dims[d] = flags & FZ_SMALL_DIMS ? fz_small_dim(&r) : fz_any_dim(&r);
    if (flags & FZ_GOOD_STRIDES && ndims <= TL_MAX_NDIMS)
        fz_make_strides(&r, n, dims, strides);
    else
        for (d = 0; d < n; ++d) strides[d] = fz_any_dim(&r);
    if (!(flags & FZ_NAMED_TAG))
        while (r.n && len < FZ_TAG_MAX) tag[len++] = (char)fz_byte(&r);
    tag[len] = '\0';

    check_by_tag(ndims, flags & FZ_NULL_DIMS ? NULL : dims, dt,
                 flags & FZ_NULL_TAG ? NULL : tag);
    check_by_strides(ndims, flags & FZ_NULL_DIMS ? NULL : dims, dt,
                     flags & FZ_NULL_STRIDES ? NULL : strides);
    return 0;
}
