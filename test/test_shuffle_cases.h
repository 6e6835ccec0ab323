/* test_shuffle_cases.h - random layouts and the naive shuffle reference
   shared by the shuffle tests. Include after tensorlayout.h and tl_test.h. */
#ifndef TEST_SHUFFLE_CASES_H
#define TEST_SHUFFLE_CASES_H
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

static const tl_data_type shuffle_dts[] = {TL_F32, TL_BF16, TL_F16, TL_S32,
                                           TL_S8, TL_U8, TL_F64};
#define SHUFFLE_NDTS ((int)(sizeof shuffle_dts / sizeof *shuffle_dts))

TL_TEST_UNUSED static void fill_random(unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) p[i] = (unsigned char)(tl_test_rand() >> 24);
}

/* A random divisor of c (c >= 1). */
TL_TEST_UNUSED static tl_dim random_divisor(tl_dim c)
{
    tl_dim divs[64], g;
    int n = 0;
    for (g = 1; g <= c && n < 64; ++g)
        if (c % g == 0) divs[n++] = g;
    return divs[tl_test_range(0, n - 1)];
}

/* A random tag over ndims abstract letters: a random outer order, and
   with some chance one or two inner blocks on random dims. */
TL_TEST_UNUSED static void random_tag(int ndims, char *tag)
{
    int order[TL_MAX_NDIMS], i, n = 0, nblk = (int)tl_test_range(0, 2), b;
    int blocked[TL_MAX_NDIMS] = {0}, bdim[2];
    tl_dim bsize[2];
    for (i = 0; i < ndims; ++i) order[i] = i;
    for (i = ndims - 1; i > 0; --i) {
        int j = (int)tl_test_range(0, i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    if (nblk == 2 && tl_test_range(0, 1)) nblk = 1;
    for (b = 0; b < nblk; ++b) {
        static const tl_dim sizes[] = {2, 3, 4, 8, 16};
        bdim[b] = (int)tl_test_range(0, ndims - 1);
        bsize[b] = sizes[tl_test_range(0, 4)];
        blocked[bdim[b]] = 1;
    }
    for (i = 0; i < ndims; ++i)
        tag[n++] = (char)((blocked[order[i]] ? 'A' : 'a') + order[i]);
    for (b = 0; b < nblk; ++b)
        n += sprintf(tag + n, "%d%c", (int)bsize[b], 'a' + bdim[b]);
    tag[n] = '\0';
}

/* Random dense strides with gaps: a random order, each stride at least
   the span of the dims inside it. */
TL_TEST_UNUSED static void random_strides(int ndims, const tl_dim *dims, tl_dim *strides)
{
    int order[TL_MAX_NDIMS], i;
    tl_dim s = tl_test_range(1, 2);
    for (i = 0; i < ndims; ++i) order[i] = i;
    for (i = ndims - 1; i > 0; --i) {
        int j = (int)tl_test_range(0, i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (i = ndims - 1; i >= 0; --i) {
        strides[order[i]] = s;
        s = s * dims[order[i]] + tl_test_range(0, 3);
    }
}

/* A view of parent that respects its blocks (tl_md_submemory's rule). */
TL_TEST_UNUSED static int random_view(tl_memory_desc *md, const tl_memory_desc *parent)
{
    tl_dim dims[TL_MAX_NDIMS], offs[TL_MAX_NDIMS], blocks[TL_MAX_NDIMS];
    int d, b;
    for (d = 0; d < TL_MAX_NDIMS; ++d) blocks[d] = 1;   /* all: -O3 cannot see idxs < ndims */
    for (b = 0; b < parent->blocking.inner_nblks; ++b)
        blocks[parent->blocking.inner_idxs[b]] *= parent->blocking.inner_blks[b];
    for (d = 0; d < parent->ndims; ++d) {
        tl_dim nb = (parent->dims[d] - 1) / blocks[d];       /* block starts */
        offs[d] = tl_test_range(0, nb) * blocks[d];
        if (offs[d] >= parent->dims[d]) offs[d] = 0;
        if (tl_test_range(0, 1) || blocks[d] > parent->dims[d] - offs[d]) {
            dims[d] = parent->dims[d] - offs[d];           /* to the end */
        } else {
            tl_dim k = (parent->dims[d] - offs[d]) / blocks[d];
            dims[d] = tl_test_range(1, k) * blocks[d];
        }
    }
    return tl_md_submemory(md, parent, dims, offs) == TL_OK;
}

/* A random descriptor: a tag layout, a strided one, or a view of either.
   desc gets a short text for failure messages. */
TL_TEST_UNUSED static void random_md(tl_memory_desc *md, tl_data_type dt, char *desc)
{
    tl_dim dims[TL_MAX_NDIMS], strides[TL_MAX_NDIMS];
    tl_memory_desc parent;
    char tag[64];
    int ndims = (int)tl_test_range(1, 5), d, kind = (int)tl_test_range(0, 3);
    for (d = 0; d < ndims; ++d) dims[d] = tl_test_range(1, ndims > 3 ? 5 : 9);
    dims[tl_test_range(0, ndims - 1)] = tl_test_range(1, 6) * tl_test_range(1, 6);
    if (kind == 1 || kind == 3) {
        random_strides(ndims, dims, strides);
        CHECK_EQ(tl_md_init_by_strides(&parent, ndims, dims, dt, strides), TL_OK);
        sprintf(desc, "strided");
    } else {
        random_tag(ndims, tag);
        CHECK_EQ(tl_md_init_by_tag(&parent, ndims, dims, dt, tag), TL_OK);
        sprintf(desc, "%s", tag);
    }
    *md = parent;
    if (kind >= 2 && random_view(md, &parent)) strcat(desc, " view");
    else *md = parent;
}

/* The permutation by its definition (seed 000): the axis as a (C/G) x G
   matrix, transposed. dst channel u + v*(C/G) reads source channel
   u*G + v. Backward is the inverse permutation, built by scattering. */
TL_TEST_UNUSED static tl_dim *ref_perm(tl_dim C, tl_dim g, tl_direction dir)
{
    tl_dim *perm = (tl_dim *)malloc((size_t)C * sizeof *perm), q = C / g, u, v;
    for (u = 0; u < q; ++u)
        for (v = 0; v < g; ++v) {
            if (dir == TL_FORWARD) perm[u + v * q] = u * g + v;
            else perm[u * g + v] = u + v * q;
        }
    return perm;
}

/* Naive reference: every logical index of the padded box through the
   offset formula (tl_test_offset); padding gets zero, nothing else is
   written. */
TL_TEST_UNUSED static void ref_shuffle(const tl_memory_desc *md, const unsigned char *src,
                        unsigned char *dst, int axis, tl_dim g, tl_direction dir)
{
    tl_dim idx[TL_MAX_NDIMS] = {0}, sidx[TL_MAX_NDIMS], box[TL_MAX_NDIMS];
    tl_dim *perm = ref_perm(md->dims[axis], g, dir);
    size_t es = tl_dt_size(md->data_type);
    int d, more = 1;
    for (d = 0; d < md->ndims; ++d) box[d] = md->padded_dims[d] - md->padded_offsets[d];
    while (more) {
        tl_dim off = tl_test_offset(md, idx);
        int pad = 0;
        for (d = 0; d < md->ndims; ++d) {
            sidx[d] = idx[d];
            if (idx[d] >= md->dims[d]) pad = 1;
        }
        if (pad) {
            memset(dst + off * (tl_dim)es, 0, es);
        } else {
            sidx[axis] = perm[idx[axis]];
            memcpy(dst + off * (tl_dim)es, src + tl_test_offset(md, sidx) * (tl_dim)es, es);
        }
        for (d = md->ndims - 1; d >= 0; --d) {
            if (++idx[d] < box[d]) break;
            idx[d] = 0;
        }
        more = d >= 0;
    }
    free(perm);
}

#endif
