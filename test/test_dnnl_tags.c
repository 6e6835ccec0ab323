/* Every format tag oneDNN 2.6 names (extracted from its header at build
   time), on dim sets that create padding: padded dims, strides, inner
   blocks and size must equal dnnl_memory_desc_init_by_tag's, offsets must
   equal oneDNN's offset formula applied to oneDNN's own descriptor, and
   an alias must give the same descriptor as its abstract spelling. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <dnnl.h>
#include <string.h>
#include "dnnl_tags.h"

#define NSETS 4
static const tl_dim dim_sets[NSETS][TL_MAX_NDIMS] = {
    {3, 17, 5, 7, 3, 6, 5, 3, 2, 3, 2, 2},
    {17, 3, 9, 2, 5, 3, 2, 3, 3, 2, 2, 3},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
    {33, 65, 2, 3, 1, 2, 1, 2, 1, 1, 2, 1},
};

static int tag_ndims(const char *tag)
{
    int n = 0;
    while (tag[n] && !(tag[n] >= '0' && tag[n] <= '9')) ++n;
    return n;
}

/* oneDNN's physical offset of a logical index, from its blocking desc. */
static dnnl_dim_t dnnl_offset(const dnnl_memory_desc_t *md, const tl_dim *idx)
{
    const dnnl_blocking_desc_t *bd = &md->format_desc.blocking;
    dnnl_dim_t pos[DNNL_MAX_NDIMS], off = md->offset0, mult = 1;
    int d, b;
    for (d = 0; d < md->ndims; ++d) pos[d] = idx[d] + md->padded_offsets[d];
    for (b = bd->inner_nblks - 1; b >= 0; --b) {
        int i = (int)bd->inner_idxs[b];
        off += (pos[i] % bd->inner_blks[b]) * mult;
        pos[i] /= bd->inner_blks[b];
        mult *= bd->inner_blks[b];
    }
    for (d = 0; d < md->ndims; ++d) off += pos[d] * bd->strides[d];
    return off;
}

static void compare(const char *name, dnnl_format_tag_t tag, int set, tl_data_type dt,
                    dnnl_data_type_t ddt)
{
    int nd = tag_ndims(name), d, k;
    dnnl_memory_desc_t ref;
    tl_memory_desc md;
    tl_dim dims[TL_MAX_NDIMS];
    dnnl_dims_t ddims;
    for (d = 0; d < nd; ++d) ddims[d] = dims[d] = dim_sets[set][d];
    CHECK_MSG(dnnl_memory_desc_init_by_tag(&ref, nd, ddims, ddt, tag) == dnnl_success,
              "oneDNN refused %s", name);
    if (tl_md_init_by_tag(&md, nd, dims, dt, name) != TL_OK) {
        CHECK_MSG(0, "tl refused %s (set %d)", name, set);
        return;
    }
    CHECK_EQ(md.ndims, ref.ndims);
    CHECK_EQ(md.format_kind, TL_FORMAT_KIND_BLOCKED);
    CHECK_EQ(md.offset0, ref.offset0);
    for (d = 0; d < nd; ++d) {
        CHECK_MSG(md.dims[d] == ref.dims[d] && md.padded_dims[d] == ref.padded_dims[d] &&
                  md.padded_offsets[d] == ref.padded_offsets[d], "%s dim %d", name, d);
        CHECK_MSG(md.blocking.strides[d] == ref.format_desc.blocking.strides[d],
                  "%s set %d stride %d: %lld vs %lld", name, set, d,
                  (long long)md.blocking.strides[d],
                  (long long)ref.format_desc.blocking.strides[d]);
    }
    CHECK_EQ(md.blocking.inner_nblks, ref.format_desc.blocking.inner_nblks);
    for (k = 0; k < md.blocking.inner_nblks && k < DNNL_MAX_NDIMS; ++k) {
        CHECK_EQ(md.blocking.inner_blks[k], ref.format_desc.blocking.inner_blks[k]);
        CHECK_EQ(md.blocking.inner_idxs[k], ref.format_desc.blocking.inner_idxs[k]);
    }
    CHECK_MSG(tl_md_size(&md) == dnnl_memory_desc_get_size(&ref), "%s size %zu vs %zu",
              name, tl_md_size(&md), dnnl_memory_desc_get_size(&ref));
    CHECK(tl_md_matches_tag(&md, name, NULL));
    for (k = 0; k < 16; ++k) {           /* random indices, padding included */
        tl_dim idx[TL_MAX_NDIMS];
        for (d = 0; d < nd; ++d) idx[d] = tl_test_range(0, md.padded_dims[d] - 1);
        CHECK_EQ(tl_md_offset(&md, idx), dnnl_offset(&ref, idx));
    }
}

static void check_alias(const char *name, const char *abstract, int set)
{
    int nd = tag_ndims(name), d;
    tl_memory_desc a, b;
    tl_dim dims[TL_MAX_NDIMS];
    for (d = 0; d < nd; ++d) dims[d] = dim_sets[set][d];
    CHECK_MSG(tl_md_init_by_tag(&a, nd, dims, TL_F32, name) == TL_OK &&
              tl_md_init_by_tag(&b, nd, dims, TL_F32, abstract) == TL_OK &&
              tl_md_equal(&a, &b), "alias %s != %s", name, abstract);
}

/* Strided descriptors with gaps: same size as oneDNN's (the outermost
   dim's full stride counts, like a leading dimension). */
static void check_strided(void)
{
    int it;
    for (it = 0; it < 500; ++it) {
        int nd = (int)tl_test_range(1, 5), d, order[5];
        tl_dim dims[5], strides[5], s = 1;
        dnnl_dims_t ddims, dstrides;
        dnnl_memory_desc_t ref;
        tl_memory_desc md;
        for (d = 0; d < nd; ++d) { dims[d] = tl_test_range(1, 6); order[d] = d; }
        for (d = nd - 1; d > 0; --d) {
            int j = (int)tl_test_range(0, d), x = order[d];
            order[d] = order[j]; order[j] = x;
        }
        for (d = nd - 1; d >= 0; --d) {
            strides[order[d]] = s;
            s = s * dims[order[d]] + tl_test_range(0, 4);
        }
        for (d = 0; d < nd; ++d) { ddims[d] = dims[d]; dstrides[d] = strides[d]; }
        CHECK(dnnl_memory_desc_init_by_strides(&ref, nd, ddims, dnnl_f32, dstrides) == dnnl_success);
        CHECK_EQ(tl_md_init_by_strides(&md, nd, dims, TL_F32, strides), TL_OK);
        CHECK_EQ(tl_md_size(&md), dnnl_memory_desc_get_size(&ref));
    }
}

int main(void)
{
    check_strided();
    size_t i;
    int set;
    for (i = 0; i < sizeof dnnl_tags / sizeof *dnnl_tags; ++i) {
        for (set = 0; set < NSETS; ++set) {
            compare(dnnl_tags[i].name, dnnl_tags[i].tag, set, TL_F32, dnnl_f32);
            if (dnnl_tags[i].alias_of) check_alias(dnnl_tags[i].name, dnnl_tags[i].alias_of, set);
        }
        compare(dnnl_tags[i].name, dnnl_tags[i].tag, 0, TL_S8, dnnl_s8);
        compare(dnnl_tags[i].name, dnnl_tags[i].tag, 1, TL_BF16, dnnl_bf16);
    }
    printf("dnnl_tags: %zu tags compared\n", sizeof dnnl_tags / sizeof *dnnl_tags);
    return tl_test_result("dnnl_tags");
}
