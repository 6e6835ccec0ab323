/* tl_md_offset against an independent walk: for random abstract tags
   (blocked, multi-level blocked, with tails) the test enumerates memory in
   the tag's own loop order, outer letters then inner blocks, counting
   positions; the element met at position k must have offset k. So every
   logical index (padding included) maps to a distinct offset below the
   size. Strided descriptors are checked against sum(idx * stride). */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <string.h>

typedef struct {
    int ndims, order[6], nblks, bdim[4];
    tl_dim dims[6], bsize[4];
    char tag[64];
} rand_tag;

static void make_tag(rand_tag *t)
{
    static const tl_dim sizes[] = {2, 3, 4, 8, 16};
    int blocked[6] = {0}, i, n = 0;
    t->ndims = (int)tl_test_range(1, 5);
    for (i = 0; i < t->ndims; ++i) { t->order[i] = i; t->dims[i] = tl_test_range(1, 7); }
    for (i = t->ndims - 1; i > 0; --i) {          /* shuffle the outer order */
        int j = (int)tl_test_range(0, i), s = t->order[i];
        t->order[i] = t->order[j]; t->order[j] = s;
    }
    t->nblks = (int)tl_test_range(0, 3);
    for (i = 0; i < t->nblks; ++i) {
        t->bdim[i] = (int)tl_test_range(0, t->ndims - 1);
        t->bsize[i] = sizes[tl_test_range(0, 4)];
        blocked[t->bdim[i]] = 1;
    }
    for (i = 0; i < t->ndims; ++i)
        t->tag[n++] = (char)((blocked[t->order[i]] ? 'A' : 'a') + t->order[i]);
    for (i = 0; i < t->nblks; ++i)
        n += sprintf(t->tag + n, "%d%c", (int)t->bsize[i], 'a' + t->bdim[i]);
    t->tag[n] = '\0';
}

/* Walks memory in the tag's loop order and checks each position. */
static void walk(const rand_tag *t, const tl_memory_desc *md)
{
    tl_dim prod[6], ext[10], cur[10] = {0}, k = 0, size_elems;
    int nloops = t->ndims + t->nblks, i, d, mismatches = 0, ref_mismatches = 0;
    for (d = 0; d < 6; ++d) prod[d] = 1;
    for (i = 0; i < t->nblks; ++i) prod[t->bdim[i]] *= t->bsize[i];
    for (i = 0; i < t->ndims; ++i) ext[i] = md->padded_dims[t->order[i]] / prod[t->order[i]];
    for (i = 0; i < t->nblks; ++i) ext[t->ndims + i] = t->bsize[i];
    size_elems = (tl_dim)tl_md_size(md);
    for (;;) {
        tl_dim idx[6];
        for (d = 0; d < t->ndims; ++d) idx[d] = 0;
        for (i = 0; i < t->ndims; ++i) idx[t->order[i]] = cur[i];
        for (i = 0; i < t->nblks; ++i)   /* blocks: outermost first */
            idx[t->bdim[i]] = idx[t->bdim[i]] * t->bsize[i] + cur[t->ndims + i];
        if (tl_md_offset(md, idx) != k) ++mismatches;
        if (tl_test_offset(md, idx) != k) ++ref_mismatches;   /* the references' */
        ++k;
        for (i = nloops - 1; i >= 0; --i) { if (++cur[i] < ext[i]) break; cur[i] = 0; }
        if (i < 0) break;
    }
    CHECK_MSG(mismatches == 0, "%s: %d offsets differ", t->tag, mismatches);
    CHECK_MSG(ref_mismatches == 0, "%s: %d of tl_test_offset's differ", t->tag, ref_mismatches);
    CHECK_MSG(k == size_elems, "%s: walked %lld, size %lld", t->tag, (long long)k,
              (long long)size_elems);
    CHECK_EQ(k, tl_md_nelems(md, 1));
}

static void check_random_tags(void)
{
    int it;
    for (it = 0; it < tl_test_cases(3000); ++it) {
        rand_tag t;
        tl_memory_desc md;
        make_tag(&t);
        if (tl_md_init_by_tag(&md, t.ndims, t.dims, TL_S8, t.tag) != TL_OK) {
            CHECK_MSG(0, "refused %s", t.tag);
            continue;
        }
        walk(&t, &md);
    }
}

static void check_strided(void)
{
    int it;
    for (it = 0; it < tl_test_cases(2000); ++it) {
        tl_dim dims[5], strides[5], idx[5], s = (tl_dim)tl_test_range(1, 3), want;
        int nd = (int)tl_test_range(1, 5), d, order[5], k;
        tl_memory_desc md;
        for (d = 0; d < nd; ++d) { dims[d] = tl_test_range(1, 6); order[d] = d; }
        for (d = nd - 1; d > 0; --d) {
            int j = (int)tl_test_range(0, d), x = order[d];
            order[d] = order[j]; order[j] = x;
        }
        for (d = nd - 1; d >= 0; --d) {     /* gaps between dims */
            strides[order[d]] = s;
            s = s * dims[order[d]] + tl_test_range(0, 3);
        }
        CHECK_EQ(tl_md_init_by_strides(&md, nd, dims, TL_F32, strides), TL_OK);
        for (k = 0; k < 20; ++k) {
            want = 0;
            for (d = 0; d < nd; ++d) {
                idx[d] = tl_test_range(0, dims[d] - 1);
                want += idx[d] * strides[d];
            }
            CHECK_EQ(tl_md_offset(&md, idx), want);
            CHECK((want + 1) * 4 <= (tl_dim)tl_md_size(&md));
        }
    }
}

static void check_out_of_range(void)
{
    tl_dim dims[4] = {2, 17, 3, 3}, idx[4] = {0, 31, 2, 2};
    tl_memory_desc md;
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "nChw16c"), TL_OK);
    CHECK(tl_md_offset(&md, idx) >= 0);          /* padding is addressable */
    idx[1] = 32;
    CHECK_EQ(tl_md_offset(&md, idx), -1);
    idx[1] = -1;
    CHECK_EQ(tl_md_offset(&md, idx), -1);
    CHECK_EQ(tl_md_offset(&md, NULL), -1);
    CHECK_EQ(tl_md_offset(NULL, idx), -1);
}

static void check_index_of(void)
{
    tl_dim dims[4] = {1, 5, 2, 3}, idx[4], got[4];
    tl_memory_desc md;
    int pad = -1;
    CHECK_EQ(tl_md_init_by_tag(&md, 4, dims, TL_F32, "nChw8c"), TL_OK);
    idx[0] = 0; idx[1] = 3; idx[2] = 1; idx[3] = 2;
    CHECK_EQ(tl_md_index_of(&md, tl_md_offset(&md, idx), got, &pad), 1);
    CHECK(memcmp(got, idx, sizeof idx) == 0 && pad == 0);
    idx[1] = 6;
    CHECK_EQ(tl_md_index_of(&md, tl_md_offset(&md, idx), got, &pad), 1);
    CHECK(memcmp(got, idx, sizeof idx) == 0 && pad == 1);
    CHECK_EQ(tl_md_index_of(&md, 48, got, &pad), 0);   /* past the end */
}

int main(void)
{
    check_random_tags();
    check_strided();
    check_out_of_range();
    check_index_of();
    return tl_test_result("offset");
}
