/* dnnl_md.h - our descriptors in oneDNN 2.6's C types, for the tests and
   tlbench, which compare with it. The two blocking models carry the same
   fields (seed 002), so the translation is field by field. Include after
   tensorlayout.h. */
#ifndef TEST_DNNL_MD_H
#define TEST_DNNL_MD_H
#include <dnnl.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define TL_DNNL_UNUSED __attribute__((unused))
#else
#define TL_DNNL_UNUSED
#endif

/* dnnl_data_type_undef where oneDNN 2.6 has no such type (f64). */
TL_DNNL_UNUSED static dnnl_data_type_t tl_dnnl_dt(tl_data_type dt)
{
    switch (dt) {
    case TL_F32: return dnnl_f32;
    case TL_F16: return dnnl_f16;
    case TL_BF16: return dnnl_bf16;
    case TL_S32: return dnnl_s32;
    case TL_S8: return dnnl_s8;
    case TL_U8: return dnnl_u8;
    default: return dnnl_data_type_undef;
    }
}

/* Fills *out; returns 0 when oneDNN has no type for md's data. */
TL_DNNL_UNUSED static int tl_dnnl_md(const tl_memory_desc *md, dnnl_memory_desc_t *out)
{
    int d, b;
    memset(out, 0, sizeof *out);
    out->ndims = md->ndims;
    out->data_type = tl_dnnl_dt(md->data_type);
    out->offset0 = md->offset0;
    out->format_kind = md->format_kind == TL_FORMAT_KIND_ANY ? dnnl_format_kind_any : dnnl_blocked;
    for (d = 0; d < md->ndims; ++d) {
        out->dims[d] = md->dims[d];
        out->padded_dims[d] = md->padded_dims[d];
        out->padded_offsets[d] = md->padded_offsets[d];
        out->format_desc.blocking.strides[d] = md->blocking.strides[d];
    }
    out->format_desc.blocking.inner_nblks = md->blocking.inner_nblks;
    for (b = 0; b < md->blocking.inner_nblks; ++b) {
        out->format_desc.blocking.inner_blks[b] = md->blocking.inner_blks[b];
        out->format_desc.blocking.inner_idxs[b] = md->blocking.inner_idxs[b];
    }
    if (md->extra.flags & TL_MD_EXTRA_COMPENSATION_S8S8) {
        out->extra.flags |= dnnl_memory_extra_flag_compensation_conv_s8s8;
        out->extra.compensation_mask = md->extra.compensation_mask;
    }
    if (md->extra.flags & TL_MD_EXTRA_SCALE_ADJUST) {
        out->extra.flags |= dnnl_memory_extra_flag_scale_adjust;
        out->extra.scale_adjust = md->extra.scale_adjust;
    }
    return out->data_type != dnnl_data_type_undef;
}
#endif
