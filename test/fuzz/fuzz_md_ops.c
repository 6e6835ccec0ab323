/* fuzz_md_ops - every descriptor operation on whatever the inits accept,
   and on descriptors with hand-edited fields. The input picks how the
   descriptor is made (generated abstract tag, named tag, strides, or one
   of those with 1-3 fields overwritten), then a chain of up to FZ_DEPTH
   views (submemory, permute, reshape), each checked like the original:
   - validate says OK; size holds every offset; offsets of random,
     corner and (on small tensors) all indices agree with fz_ref_offset,
     are distinct, and out-of-range indices give -1;
   - index_of inverts offset; to_tag round-trips through matches_tag and
     init_by_tag; a too small buffer is refused untouched;
   - a view maps its indices to the same offsets as its parent;
   - a descriptor validate refuses is refused by every other function,
     whose outputs stay byte for byte untouched. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "fuzz_common.h"
#ifdef FZ_DEBUG
#include "/tmp/dbgdump.h"
#endif

#define FZ_DEPTH 3
#define FZ_WALK 256        /* exhaustive offset walk up to this many elements */

static void check_accepted(const tl_memory_desc *md, const char *tag,
                           fz_reader *r, int depth);

/* ---- building the descriptor under test ------------------------------ */

static void edit_field(fz_reader *r, tl_memory_desc *md)
{
    unsigned field = fz_byte(r) % 13, i = fz_byte(r) % TL_MAX_NDIMS;
    tl_dim *slot = NULL;
    switch (field) {
    case 0: md->ndims = (int)(fz_byte(r) % 16) - 2; return;
    case 1: slot = &md->dims[i]; break;
    case 2: slot = &md->padded_dims[i]; break;
    case 3: slot = &md->padded_offsets[i]; break;
    case 4: slot = &md->offset0; break;
    case 5: slot = &md->blocking.strides[i]; break;
    case 6: md->blocking.inner_nblks = (int)(fz_byte(r) % 15) - 1; return;
    case 7: slot = &md->blocking.inner_blks[i]; break;
    case 8: slot = &md->blocking.inner_idxs[i]; break;
    case 9: md->data_type = (tl_data_type)((int)(fz_byte(r) % 10) - 1); return;
    case 10: md->format_kind = (tl_format_kind)(fz_byte(r) % 4); return;
    case 11:
        md->extra.flags = fz_byte(r) % 5;
        if (fz_byte(r) & 1) md->data_type = TL_S8;
        /* fall through */
    default: md->extra.compensation_mask = (int)(fz_byte(r) % 40) - 2; return;
    }
    if (fz_byte(r) & 1) *slot = fz_any_dim(r);
    else   /* a near miss: unsigned so INT64_MAX + 1 wraps instead of UB */
        *slot = (tl_dim)((uint64_t)*slot + (uint64_t)(tl_dim)((int)(fz_byte(r) % 5) - 2));
}

/* *made says whether an init accepted the generated input; tag holds the
   tag that made the descriptor, or "" (strides, or edited afterwards). */
static void make_md(fz_reader *r, tl_memory_desc *md, char *tag, int *made)
{
    tl_dim dims[TL_MAX_NDIMS], strides[TL_MAX_NDIMS];
    unsigned mode = fz_byte(r) % 5;
    int ndims = 1 + (int)(fz_byte(r) % TL_MAX_NDIMS), d;
    tl_data_type dt = (tl_data_type)(1 + fz_byte(r) % 7);
    tag[0] = '\0';
    if (mode == 1) {
        const char *named = fz_named_tags[fz_byte(r) % FZ_NAMED_TAGS];
        strcpy(tag, named);
        if (fz_tag_ndims(named) > 0) ndims = fz_tag_ndims(named);
    } else if (mode == 0 || mode == 3) {
        fz_make_abstract_tag(r, ndims, tag);
    }
    for (d = 0; d < ndims; ++d) dims[d] = fz_small_dim(r);
    if (tag[0]) {
        *made = tl_md_init_by_tag(md, ndims, dims, dt, tag) == TL_OK;
    } else {
        fz_make_strides(r, ndims, dims, strides);
        *made = tl_md_init_by_strides(md, ndims, dims, dt,
                                      fz_byte(r) < 64 ? NULL : strides) == TL_OK;
    }
    if (*made && mode >= 3) {
        int edits = 1 + (int)(fz_byte(r) % 3);
        while (edits--) edit_field(r, md);
        tag[0] = '\0';
    }
}

/* ---- rejected descriptors -------------------------------------------- */

static void check_untouched_md(const tl_memory_desc *out, const tl_memory_desc *before)
{
    FZ_CHECK(memcmp(out, before, sizeof *out) == 0);
}

static void check_rejected(const tl_memory_desc *md)
{
    tl_dim idx[TL_MAX_NDIMS] = {0}, dims[TL_MAX_NDIMS];
    int perm[TL_MAX_NDIMS], d, n = md->ndims;
    char buf[300], bufc[300];
    tl_memory_desc out, before;
    if (n < 1 || n > TL_MAX_NDIMS) n = 1;
    for (d = 0; d < TL_MAX_NDIMS; ++d) { dims[d] = d < n ? md->dims[d] : 1; perm[d] = d; }
    FZ_CHECK(tl_md_size(md) == 0);
    FZ_CHECK(tl_md_offset(md, idx) == -1);
    FZ_CHECK(tl_md_index_of(md, 0, idx, NULL) == -1);
    FZ_CHECK(tl_md_matches_tag(md, "abcd", NULL) == 0);
    FZ_CHECK(tl_md_matches_tag(md, "a", NULL) == 0);
    memset(buf, 0xA5, sizeof buf);
    memcpy(bufc, buf, sizeof buf);
    FZ_CHECK(tl_md_to_tag(md, buf, sizeof buf) != TL_OK);
    FZ_CHECK(memcmp(buf, bufc, sizeof buf) == 0);

    memset(&out, 0xA5, sizeof out);
    before = out;
    FZ_CHECK(tl_md_submemory(&out, md, dims, idx) != TL_OK);
    check_untouched_md(&out, &before);
    FZ_CHECK(tl_md_reshape(&out, md, n, dims) != TL_OK);
    check_untouched_md(&out, &before);
    if (md->format_kind != TL_FORMAT_KIND_ANY) {   /* `any` may be permuted */
        FZ_CHECK(tl_md_nelems(md, 0) == -1);
        FZ_CHECK(tl_md_permute_axes(&out, md, perm) != TL_OK);
        check_untouched_md(&out, &before);
    }
}

/* ---- offsets ---------------------------------------------------------- */

static void random_index(fz_reader *r, const tl_memory_desc *md, int padded, tl_dim *idx)
{
    int d;
    for (d = 0; d < md->ndims; ++d)
        idx[d] = fz_below(r, padded ? fz_range(md, d) : md->dims[d]);
}

static void check_offsets(const tl_memory_desc *md, fz_reader *r, size_t size)
{
    tl_dim idx[TL_MAX_NDIMS], back[TL_MAX_NDIMS];
    int d, k, small = fz_small_count(md, FZ_WALK) > 0;   /* index_of walks */
    for (d = 0; d < md->ndims; ++d) idx[d] = fz_range(md, d) - 1;
    fz_check_offset(md, idx, size);                         /* last corner */
    for (k = 0; k < 8; ++k) {
        tl_dim off;
        int pad = -1, want_pad = 0;
        random_index(r, md, 1, idx);
        off = fz_check_offset(md, idx, size);
        if (!small || k >= 2) continue;
        for (d = 0; d < md->ndims; ++d) want_pad |= idx[d] >= md->dims[d];
        FZ_CHECK(tl_md_index_of(md, off, back, &pad) == 1);
        FZ_CHECK(memcmp(back, idx, (size_t)md->ndims * sizeof *idx) == 0);
        FZ_CHECK(pad == want_pad);
    }
    if (small)
        FZ_CHECK(tl_md_index_of(md, (tl_dim)(size / tl_dt_size(md->data_type)), back, NULL) == 0);
    /* one dim out of range, three ways */
    random_index(r, md, 1, idx);
    d = (int)(fz_byte(r) % (unsigned)md->ndims);
    idx[d] = fz_range(md, d);
    FZ_CHECK(tl_md_offset(md, idx) == -1);
    idx[d] = -1;
    FZ_CHECK(tl_md_offset(md, idx) == -1);
    idx[d] = INT64_MAX;
    FZ_CHECK(tl_md_offset(md, idx) == -1);
    fz_check_all_offsets(md, size, FZ_WALK);
}

/* ---- tags ------------------------------------------------------------- */

static void check_tags(const tl_memory_desc *md, const char *tag)
{
    char buf[300], small[300], before[300];
    tl_dim strides[TL_MAX_NDIMS];
    tl_memory_desc gold;
    size_t len;
    int d;
    tl_status st;
    if (tag && tag[0]) FZ_CHECK(tl_md_matches_tag(md, tag, NULL) == 1);
    memset(buf, 0xA5, sizeof buf);
    memcpy(before, buf, sizeof buf);
    st = tl_md_to_tag(md, buf, sizeof buf);
    if (st != TL_OK) {
        FZ_CHECK(st == TL_UNSUPPORTED);
        FZ_CHECK(memcmp(buf, before, sizeof buf) == 0);
        return;
    }
    len = strlen(buf);
    FZ_CHECK(len >= (size_t)md->ndims && len < sizeof buf);
    FZ_CHECK(tl_md_matches_tag(md, buf, NULL) == 1);
    memset(small, 0xA5, sizeof small);
    FZ_CHECK(tl_md_to_tag(md, small, len) == TL_BUFFER_TOO_SMALL);
    FZ_CHECK(memcmp(small, before, sizeof small) == 0);
    /* the tag rebuilds the same layout: same offsets once offset0 and the
       padded offsets of a view are set aside */
    FZ_CHECK(tl_md_init_by_tag(&gold, md->ndims, md->dims, md->data_type, buf) == TL_OK);
    for (d = 0; d < md->ndims; ++d) FZ_CHECK(gold.padded_dims[d] == md->padded_dims[d]);
    for (d = 0; d < md->ndims; ++d) strides[d] = -1;
    FZ_CHECK(tl_md_matches_tag(md, buf, strides) == 1);
    FZ_CHECK(tl_md_matches_tag(md, buf, md->blocking.strides) == 1);
    d = md->ndims - 1;
    strides[d] = md->blocking.strides[d] ^ 1;
    FZ_CHECK(tl_md_matches_tag(md, buf, strides) == 0);
}

/* ---- views ------------------------------------------------------------ */

static void dim_blocks(const tl_memory_desc *md, tl_dim *blocks)
{
    int d, b;
    for (d = 0; d < TL_MAX_NDIMS; ++d) blocks[d] = 1;
    for (b = 0; b < md->blocking.inner_nblks; ++b)
        blocks[md->blocking.inner_idxs[b]] *= md->blocking.inner_blks[b];
}

static void check_submemory(const tl_memory_desc *md, fz_reader *r, int depth)
{
    tl_dim dims[TL_MAX_NDIMS], offs[TL_MAX_NDIMS], blocks[TL_MAX_NDIMS];
    tl_dim idx[TL_MAX_NDIMS], pidx[TL_MAX_NDIMS];
    tl_memory_desc out, before;
    int d, k, want = md->extra.flags == 0, hostile = fz_byte(r) < 24;
    tl_status st;
    dim_blocks(md, blocks);
    for (d = 0; d < md->ndims; ++d) {
        tl_dim pd = md->dims[d];
        if (hostile) {
            offs[d] = fz_any_dim(r);
            dims[d] = fz_any_dim(r);
        } else {
            offs[d] = fz_below(r, pd + 1);
            if (fz_byte(r) < 192) offs[d] -= (offs[d] + md->padded_offsets[d]) % blocks[d];
            if (offs[d] < 0) offs[d] = 0;
            dims[d] = fz_byte(r) < 96 ? pd - offs[d] : fz_below(r, pd - offs[d] + 1);
        }
        if (dims[d] < 0 || offs[d] < 0 || offs[d] > pd || dims[d] > pd - offs[d])
            want = 0;
        else if ((offs[d] + md->padded_offsets[d]) % blocks[d] != 0 ||
                 (dims[d] + offs[d] != pd && dims[d] % blocks[d] != 0))
            want = 0;
    }
    memset(&out, 0xA5, sizeof out);
    before = out;
    st = tl_md_submemory(&out, md, dims, offs);
    FZ_CHECK((st == TL_OK) == want);
    if (st != TL_OK) { check_untouched_md(&out, &before); return; }
    FZ_CHECK(tl_md_validate(&out, NULL, 0) == TL_OK);
    for (d = 0; d < md->ndims; ++d) FZ_CHECK(out.dims[d] == dims[d]);
    if (fz_has_zero_dim(&out)) { FZ_CHECK(tl_md_size(&out) == 0); return; }
    FZ_CHECK(tl_md_size(&out) <= tl_md_size(md));
    /* every view index, padding included, is the parent's index + offsets */
    for (k = 0; k < 8; ++k) {
        random_index(r, &out, 1, idx);
        for (d = 0; d < md->ndims; ++d) {
            pidx[d] = idx[d] + offs[d];
            FZ_CHECK(pidx[d] < fz_range(md, d));
        }
        FZ_CHECK(tl_md_offset(&out, idx) == tl_md_offset(md, pidx));
    }
    check_accepted(&out, NULL, r, depth + 1);
}

static void check_permute(const tl_memory_desc *md, fz_reader *r, int depth)
{
    tl_dim idx[TL_MAX_NDIMS], pidx[TL_MAX_NDIMS];
    tl_memory_desc out, before;
    int perm[TL_MAX_NDIMS], seen[TL_MAX_NDIMS] = {0}, d, k, want = 1;
    tl_status st;
    for (d = 0; d < md->ndims; ++d) perm[d] = d;
    for (d = md->ndims - 1; d > 0; --d) {
        int j = (int)(fz_byte(r) % (unsigned)(d + 1)), t = perm[d];
        perm[d] = perm[j]; perm[j] = t;
    }
    if (fz_byte(r) < 24) perm[fz_byte(r) % (unsigned)md->ndims] = (int)(fz_byte(r) % 15) - 1;
    for (d = 0; d < md->ndims; ++d) {
        if (perm[d] < 0 || perm[d] >= md->ndims || seen[perm[d]]) { want = 0; break; }
        seen[perm[d]] = 1;
    }
    memset(&out, 0xA5, sizeof out);
    before = out;
    st = tl_md_permute_axes(&out, md, perm);
#ifdef FZ_DEBUG
    dump("in", md); dump("out", &out);
#endif
    FZ_CHECK((st == TL_OK) == want);
    if (st != TL_OK) { check_untouched_md(&out, &before); return; }
    FZ_CHECK(tl_md_validate(&out, NULL, 0) == TL_OK);
    FZ_CHECK(tl_md_size(&out) == tl_md_size(md));
    for (d = 0; d < md->ndims; ++d) FZ_CHECK(out.dims[perm[d]] == md->dims[d]);
    if (!fz_has_zero_dim(md))
        for (k = 0; k < 8; ++k) {
            random_index(r, md, 1, idx);
            for (d = 0; d < md->ndims; ++d) pidx[perm[d]] = idx[d];
            FZ_CHECK(tl_md_offset(&out, pidx) == tl_md_offset(md, idx));
        }
    check_accepted(&out, NULL, r, depth + 1);
}

/* Row-major position lin spread over dims. */
static void unravel(tl_dim lin, int ndims, const tl_dim *dims, tl_dim *idx)
{
    int d;
    for (d = ndims - 1; d >= 0; --d) { idx[d] = lin % dims[d]; lin /= dims[d]; }
}

/* New dims for md: 1-3 edits (insert or drop a 1, merge two neighbours,
   split one by a divisor). *only_ones says whether every edit was an
   insertion or removal of a size-1 dim. Returns the new ndims. */
static int reshape_dims(const tl_memory_desc *md, fz_reader *r, tl_dim *dims, int *only_ones)
{
    int n = md->ndims, e = 1 + (int)(fz_byte(r) % 3), d, at;
    memcpy(dims, md->dims, (size_t)n * sizeof *dims);
    *only_ones = 1;
    while (e--) {
        unsigned kind = fz_byte(r) % 4;
        at = (int)(fz_byte(r) % (unsigned)n);
        if (kind == 0 && n < TL_MAX_NDIMS) {
            memmove(dims + at + 1, dims + at, (size_t)(n - at) * sizeof *dims);
            dims[at] = 1;
            ++n;
        } else if (kind == 1 && n > 1 && dims[at] == 1) {
            memmove(dims + at, dims + at + 1, (size_t)(n - at - 1) * sizeof *dims);
            --n;
        } else if (kind == 2 && at + 1 < n && dims[at] <= INT64_MAX / (dims[at + 1] + 1)) {
            dims[at] *= dims[at + 1];
            memmove(dims + at + 1, dims + at + 2, (size_t)(n - at - 2) * sizeof *dims);
            --n;
            *only_ones = 0;
        } else if (kind == 3 && n < TL_MAX_NDIMS && dims[at] > 1) {
            tl_dim f = 2;
            while (dims[at] % f != 0) ++f;
            memmove(dims + at + 1, dims + at, (size_t)(n - at) * sizeof *dims);
            dims[at] = f;
            dims[at + 1] /= f;
            ++n;
            *only_ones = 0;
        }
    }
    for (d = 0; d < n; ++d) if (dims[d] < 0) *only_ones = 0;
    return n;
}

/* Reshape must succeed when it only adds or drops size-1 dims, none of
   them padded or blocked, on a non-empty tensor without extra data. */
static int reshape_must_work(const tl_memory_desc *md, int only_ones)
{
    int d, b;
    if (!only_ones || md->extra.flags || fz_has_zero_dim(md)) return 0;
    for (d = 0; d < md->ndims; ++d) if (md->dims[d] == 1 && md->padded_dims[d] != 1) return 0;
    for (b = 0; b < md->blocking.inner_nblks; ++b)
        if (md->dims[md->blocking.inner_idxs[b]] == 1) return 0;
    return 1;
}

static void check_reshape(const tl_memory_desc *md, fz_reader *r, int depth)
{
    tl_dim dims[TL_MAX_NDIMS + 2] = {0}, iidx[TL_MAX_NDIMS], oidx[TL_MAX_NDIMS];
    tl_dim n_in, n_out = 1;
    tl_memory_desc out, before;
    int n, d, k, only_ones, overflow = 0;
    tl_status st;
    if (fz_byte(r) < 24) {              /* hostile: any count, any values */
        n = (int)(fz_byte(r) % 15) - 1;
        for (d = 0; d < n && d < TL_MAX_NDIMS + 2; ++d) dims[d] = fz_any_dim(r);
        only_ones = 0;
    } else {
        n = reshape_dims(md, r, dims, &only_ones);
    }
    memset(&out, 0xA5, sizeof out);
    before = out;
    st = tl_md_reshape(&out, md, n, dims);
    if (reshape_must_work(md, only_ones)) FZ_CHECK(st == TL_OK);
    if (st != TL_OK) {
        check_untouched_md(&out, &before);
        n_in = tl_md_nelems(md, 0);
        for (d = 0; d < n && n <= TL_MAX_NDIMS; ++d) {
            if (dims[d] < 0) overflow = 1;
            else if (dims[d] != 0 && n_out > INT64_MAX / dims[d]) overflow = 1;
            else n_out *= dims[d];
        }
        /* extra data makes any reshape TL_UNSUPPORTED, checked first */
        if (n >= 1 && n <= TL_MAX_NDIMS && !overflow && n_out != n_in && !md->extra.flags)
            FZ_CHECK(st == TL_SHAPE_MISMATCH);
        return;
    }
    FZ_CHECK(n >= 1 && n <= TL_MAX_NDIMS);
    FZ_CHECK(tl_md_validate(&out, NULL, 0) == TL_OK);
    n_in = tl_md_nelems(md, 0);
    FZ_CHECK(tl_md_nelems(&out, 0) == n_in && n_in > 0);
    FZ_CHECK(tl_md_size(&out) == tl_md_size(md));
    for (k = 0; k < 8; ++k) {           /* same element, same bytes */
        tl_dim lin = fz_below(r, n_in);
        unravel(lin, md->ndims, md->dims, iidx);
        unravel(lin, n, dims, oidx);
        FZ_CHECK(tl_md_offset(&out, oidx) == tl_md_offset(md, iidx));
    }
    check_accepted(&out, NULL, r, depth + 1);
}

/* ---- accepted descriptors -------------------------------------------- */

static void check_accepted(const tl_memory_desc *md, const char *tag,
                           fz_reader *r, int depth)
{
    size_t size = tl_md_size(md), esz = tl_dt_size(md->data_type);
    tl_dim n = tl_md_nelems(md, 0), npad = tl_md_nelems(md, 1);
    tl_dim zero[TL_MAX_NDIMS] = {0};
    FZ_CHECK(tl_md_validate(md, NULL, 0) == TL_OK);
    FZ_CHECK(tl_md_equal(md, md) == 1);
    FZ_CHECK(n >= 0 && npad >= n);
    if (fz_has_zero_dim(md)) {
        FZ_CHECK(size == 0 && n == 0);
        FZ_CHECK(tl_md_offset(md, zero) == -1);
        FZ_CHECK(tl_md_index_of(md, 0, zero, NULL) == 0);
    } else {
        FZ_CHECK((uint64_t)npad * esz <= (uint64_t)size);
        check_offsets(md, r, size);
    }
    check_tags(md, tag);
    if (depth >= FZ_DEPTH) return;
    switch (fz_byte(r) % 4) {
    case 0: check_submemory(md, r, depth); break;
    case 1: check_permute(md, r, depth); break;
    case 2: check_reshape(md, r, depth); break;
    default: break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r;
    tl_memory_desc md;
    char tag[128];
    int made;
    fz_init(&r, data, size);
    memset(&md, 0, sizeof md);
    make_md(&r, &md, tag, &made);
    if (!made) return 0;
    if (tl_md_validate(&md, NULL, 0) == TL_OK)
        check_accepted(&md, tag, &r, 0);
    else
        check_rejected(&md);
    return 0;
}
