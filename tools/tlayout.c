/* tlayout - explains, queries and draws tensorlayout memory layouts.
   Run `tlayout help` for the subcommands; docs/tlayout.md has examples. */
/* The one implementation file: every header whose engine the tool drives
   (tools/meson.build defines TL_HAVE_* for those that exist). */
#define TENSORLAYOUT_IMPLEMENTATION
#ifdef TL_HAVE_SIMD
#include "tensorlayout_simd.h"
#else
#include "tensorlayout.h"
#endif
#ifdef TL_HAVE_OCL_IMAGES
#define TL_OCL_HOST_ONLY        /* image shapes and the CPU pack/unpack */
#include "tensorlayout_ocl.h"
#endif
#include "tlayout_cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: tlayout COMMAND ...\n"
    "\n"
    "  describe DIMS DT TAG [--view DIMS --at OFFS]\n"
    "      dims, padded dims, strides, inner blocks, size, canonical tag,\n"
    "      the offset formula and a plain-words explanation\n"
    "  offset DIMS DT TAG --index I,J,...   element offset of a logical index\n"
    "  offset DIMS DT TAG --offset K        which element (or padding) is at K\n"
    "  draw DIMS DT TAG -o FILE.svg [--view DIMS --at OFFS]\n"
    "      SVG picture: the tensor as a grid coloured by channel and labelled\n"
    "      with memory positions, padding hatched, memory as a strip in order\n"
    "      (at most 1024 padded elements)\n"
    "%s"
    "  demo                                 a short guided tour\n"
    "  help                                 this text\n"
    "\n"
    "  DIMS  logical dims, outermost first, joined by 'x': 2x17x5x5\n"
    "  DT    f32 f16 bf16 s32 s8 u8 f64\n"
    "  TAG   nchw nhwc nChw16c OIhw4i16o4i abcd aBcd16b any ...\n"
    "        (grammar: docs/format-tags.md), or strides=S0,S1,... for a plain\n"
    "        layout with those strides (in elements)\n"
    "  --view DIMS --at OFFS   work on a submemory view of the tensor\n"
    "\n"
    "examples:\n"
    "  tlayout describe 2x17x5x5 f32 nChw16c\n"
    "  tlayout offset 2x17x5x5 f32 nChw16c --index 1,16,0,3\n"
    "  tlayout offset 2x17x5x5 f32 nChw16c --offset 1248\n"
    "  tlayout draw 1x12x2x2 f32 nChw8c -o nChw8c.svg\n"
    "  tlayout describe 2x16x4x4 f32 nChw8c --view 1x8x4x4 --at 1,8,0,0\n"
    "  tlayout describe 3x4 f32 strides=1,8\n"
    "%s"
    "\n"
    "exit status: 0 done, 1 failed (e.g. cannot write FILE), 2 bad arguments\n";

static void print_usage(FILE *f)
{
    fprintf(f, usage_text, tlayout_ops_usage(), tlayout_ops_examples());
}

int tlayout_usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("tlayout: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n(run `tlayout help` for usage)\n", stderr);
    return TLAYOUT_EXIT_USAGE;
}

/* ---- parsing --------------------------------------------------------- */

/* Reads a non-negative decimal number at *p (no sign, no overflow). */
static int parse_number(const char **p, tl_dim *out)
{
    tl_dim v = 0;
    const char *s = *p;
    if (*s < '0' || *s > '9') return -1;
    while (*s >= '0' && *s <= '9') {
        if (v > (INT64_MAX - 9) / 10) return -1;
        v = v * 10 + (*s++ - '0');
    }
    *p = s;
    *out = v;
    return 0;
}

/* Splits text at sep into at most max numbers; returns the count or -1. */
static int parse_numbers(const char *text, char sep, int max, tl_dim *out)
{
    const char *p = text;
    int n = 0;
    if (!text || !*text) return -1;
    for (;;) {
        if (n == max || parse_number(&p, &out[n]) != 0) return -1;
        ++n;
        if (*p == '\0') return n;
        if (*p++ != sep) return -1;
    }
}

int tlayout_parse_dims(const char *text, int *ndims, tl_dim *dims)
{
    int n = parse_numbers(text, 'x', TL_MAX_NDIMS, dims);
    if (n < 1)
        return tlayout_usage_error("bad DIMS '%s': expected 1 to %d numbers >= 0 "
                                   "joined by 'x', like 2x17x5x5", text, TL_MAX_NDIMS);
    *ndims = n;
    return 0;
}

int tlayout_parse_list(const char *what, const char *text, int n, tl_dim *out)
{
    tl_dim tmp[TL_MAX_NDIMS];
    if (parse_numbers(text, ',', TL_MAX_NDIMS, tmp) != n)
        return tlayout_usage_error("bad %s '%s': expected %d numbers >= 0 joined "
                                   "by ',', one per dim", what, text, n);
    memcpy(out, tmp, (size_t)n * sizeof *out);
    return 0;
}

/* The families of docs/format-tags.md, each in its canonical dim order. */
static const char *const letter_families[] = {
    "ncdhw", "goidhw", "tnc", "ldnc", "ldigo", "x"
};

/* Names each dim by the tag's letters: nChw16c -> n c h w, OIhw -> o i h w,
   abstract tags (and `any`) -> a b c d. */
static void dim_names(const char *tag, int ndims, char *names)
{
    int seen[26] = {0}, d, f, i, count = 0;
    for (d = 0; d < ndims; ++d) names[d] = (char)('a' + d);
    for (i = 0; tag[i] && !(tag[i] >= '0' && tag[i] <= '9'); ++i) {
        char c = tag[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c < 'a' || c > 'z') return;
        if (!seen[c - 'a']) ++count;
        seen[c - 'a'] = 1;
    }
    if (count != ndims) return;
    for (f = 0; f < (int)(sizeof letter_families / sizeof *letter_families); ++f) {
        const char *fam = letter_families[f];
        int in_family = 0;
        for (i = 0; fam[i]; ++i) in_family += seen[fam[i] - 'a'];
        if (in_family != count) continue;
        for (i = 0, d = 0; fam[i]; ++i)
            if (seen[fam[i] - 'a']) names[d++] = fam[i];
        return;
    }
}

int tlayout_parse_tensor(const char *dims_text, const char *dt_text, const char *tag,
                         const char *view, const char *at, tlayout_tensor *t)
{
    tl_dim dims[TL_MAX_NDIMS], vdims[TL_MAX_NDIMS];
    int ndims = 0, vn = 0;
    tl_data_type dt;
    tl_status st;
    memset(t, 0, sizeof *t);
    if (tlayout_parse_dims(dims_text, &ndims, dims)) return TLAYOUT_EXIT_USAGE;
    dt = tl_dt_from_name(dt_text);
    if (dt == TL_DT_UNDEF)
        return tlayout_usage_error("unknown data type '%s' (try f32, f16, bf16, s32, "
                                   "s8, u8 or f64)", dt_text);
    if (strncmp(tag, "strides=", 8) == 0) {
        tl_dim strides[TL_MAX_NDIMS];
        if (tlayout_parse_list("strides", tag + 8, ndims, strides)) return TLAYOUT_EXIT_USAGE;
        st = tl_md_init_by_strides(&t->whole, ndims, dims, dt, strides);
        if (st)
            return tlayout_usage_error("%s do not fit dims %s: %s (strides must not "
                                       "overlap: sorted, each covers the span inside it)",
                                       tag, dims_text, tl_status_str(st));
    } else if ((st = tl_md_init_by_tag(&t->whole, ndims, dims, dt, tag)) == TL_OVERFLOW) {
        return tlayout_usage_error("%s %s %s is too large: %s", dims_text, dt_text, tag,
                                   tl_status_str(st));
    } else if (st != TL_OK)
        return tlayout_usage_error("tag '%s' does not describe %d dims: %s (a tag names "
                                   "each dim once, e.g. nchw or nChw16c for 4 dims)",
                                   tag, ndims, tl_status_str(st));
    t->md = t->whole;
    t->tag = tag;
    dim_names(tag, ndims, t->names);
    if (!view && !at) return 0;
    if (!view) return tlayout_usage_error("--at needs --view DIMS as well");
    if (t->whole.format_kind != TL_FORMAT_KIND_BLOCKED)
        return tlayout_usage_error("a view needs a real layout, and '%s' has none", tag);
    if (tlayout_parse_dims(view, &vn, vdims)) return TLAYOUT_EXIT_USAGE;
    if (vn != ndims)
        return tlayout_usage_error("--view has %d dims but the tensor has %d", vn, ndims);
    if (at && tlayout_parse_list("--at", at, ndims, t->at)) return TLAYOUT_EXIT_USAGE;
    st = tl_md_submemory(&t->md, &t->whole, vdims, t->at);
    if (st)
        return tlayout_usage_error("the view %s at %s does not fit: %s (it must lie inside "
                                   "the tensor, and on a blocked dim start at a multiple "
                                   "of the block and end at one or at the tensor's end)",
                                   view, at ? at : "0,...", tl_status_str(st));
    t->has_view = 1;
    return 0;
}

void tlayout_format_index(const tlayout_tensor *t, const tl_dim *idx, char *buf, size_t len)
{
    size_t n = 0;
    int d;
    buf[0] = '\0';
    for (d = 0; d < t->md.ndims && n + 1 < len; ++d) {
        int w = snprintf(buf + n, len - n, "%s%c=%lld", d ? ", " : "(", t->names[d],
                         (long long)idx[d]);
        if (w < 0) return;
        n += (size_t)w;
    }
    if (n + 1 < len) snprintf(buf + n, len - n, ")");
}

/* Options shared by the subcommands: each takes a value, as "--x V" or
   "--x=V". Positional words go to pos[]. */
typedef struct {
    const char *pos[4];
    int         npos;
    const char *index, *offset, *out, *view, *at;
} cli_args;

static int parse_args(const char *cmd, int argc, char **argv, const char *allowed,
                      int npos, cli_args *a)
{
    static const char *const names[] = { "--index", "--offset", "-o", "--view", "--at" };
    static const char keys[] = "ikova";
    int i, k;
    memset(a, 0, sizeof *a);
    for (i = 0; i < argc; ++i) {
        const char *arg = argv[i], *value = NULL, **slot;
        size_t len;
        if (arg[0] != '-') {
            if (a->npos == npos)
                return tlayout_usage_error("%s takes %d words before its options; "
                                           "'%s' is one too many", cmd, npos, arg);
            a->pos[a->npos++] = arg;
            continue;
        }
        for (k = 0; k < 5; ++k) {
            len = strlen(names[k]);
            if (strncmp(arg, names[k], len) == 0 && (arg[len] == '\0' || arg[len] == '='))
                break;
        }
        if (k == 5 || !strchr(allowed, keys[k]))
            return tlayout_usage_error("%s does not take the option '%s'", cmd, arg);
        len = strlen(names[k]);
        if (arg[len] == '=') value = arg + len + 1;
        else if (i + 1 < argc) value = argv[++i];
        else return tlayout_usage_error("%s needs a value", names[k]);
        slot = k == 0 ? &a->index : k == 1 ? &a->offset : k == 2 ? &a->out
             : k == 3 ? &a->view : &a->at;
        if (*slot) return tlayout_usage_error("%s given twice", names[k]);
        *slot = value;
    }
    if (a->npos != npos)
        return tlayout_usage_error("%s needs %d words (DIMS DT TAG), got %d", cmd, npos,
                                   a->npos);
    return 0;
}

/* ---- describe -------------------------------------------------------- */

static void print_dims(const char *label, int n, const tl_dim *v, const char *sep)
{
    int d;
    printf("%-13s", label);
    for (d = 0; d < n; ++d) printf("%s%lld", d ? sep : "", (long long)v[d]);
}

/* Dims in memory order: largest outer stride first, ties by dim index. */
static void stride_order(const tl_memory_desc *md, int *order)
{
    int i, j;
    for (i = 0; i < md->ndims; ++i) order[i] = i;
    for (i = 1; i < md->ndims; ++i)
        for (j = i; j > 0 && md->blocking.strides[order[j]] >
                              md->blocking.strides[order[j - 1]]; --j) {
            int tmp = order[j]; order[j] = order[j - 1]; order[j - 1] = tmp;
        }
}

static void dim_blocks(const tl_memory_desc *md, tl_dim *blocks)
{
    int d, b;
    for (d = 0; d < TL_MAX_NDIMS; ++d) blocks[d] = 1;
    for (b = 0; b < md->blocking.inner_nblks; ++b)
        blocks[md->blocking.inner_idxs[b]] *= md->blocking.inner_blks[b];
}

/* A growing text buffer; output past its end is dropped, never overrun. */
typedef struct { char s[4096]; size_t n; } text_buf;

static void text_add(text_buf *t, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void text_add(text_buf *t, const char *fmt, ...)
{
    va_list ap;
    int w;
    if (t->n + 1 >= sizeof t->s) return;
    va_start(ap, fmt);
    w = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
    va_end(ap);
    if (w > 0) t->n += (size_t)w;
    if (t->n >= sizeof t->s) t->n = sizeof t->s - 1;
}

/* The index expression of one element: outer terms in memory order,
   then the inner blocks, outermost first. */
static void offset_formula(const tlayout_tensor *t, text_buf *out)
{
    const tl_memory_desc *md = &t->md;
    tl_dim blocks[TL_MAX_NDIMS], div[TL_MAX_NDIMS], bstride[TL_MAX_NDIMS], s = 1;
    char name[TL_MAX_NDIMS][16];
    int order[TL_MAX_NDIMS], d, b, first = 1;
    dim_blocks(md, blocks);
    stride_order(md, order);
    for (d = 0; d < md->ndims; ++d) {
        if (md->padded_offsets[d])
            snprintf(name[d], sizeof name[d], "(%c+%lld)", t->names[d],
                     (long long)md->padded_offsets[d]);
        else
            snprintf(name[d], sizeof name[d], "%c", t->names[d]);
    }
    for (b = md->blocking.inner_nblks - 1; b >= 0; --b) { bstride[b] = s; s *= md->blocking.inner_blks[b]; }
    if (md->offset0) { text_add(out, "%lld", (long long)md->offset0); first = 0; }
    for (d = 0; d < md->ndims; ++d) {
        int i = order[d];
        tl_dim st = md->blocking.strides[i];
        if (md->padded_dims[i] / blocks[i] == 1) continue;   /* index always 0 */
        text_add(out, "%s", first ? "" : " + ");
        first = 0;
        if (blocks[i] > 1) text_add(out, "(%s/%lld)", name[i], (long long)blocks[i]);
        else text_add(out, "%s", name[i]);
        if (st != 1) text_add(out, "*%lld", (long long)st);
    }
    /* div[i]: the blocks of dim i inside the current one */
    for (d = 0; d < TL_MAX_NDIMS; ++d) div[d] = blocks[d];
    for (b = 0; b < md->blocking.inner_nblks; ++b) {
        int i = (int)md->blocking.inner_idxs[b];
        tl_dim blk = md->blocking.inner_blks[b];
        div[i] /= blk;
        text_add(out, "%s", first ? "" : " + ");
        first = 0;
        if (div[i] == 1) text_add(out, "%s%%%lld", name[i], (long long)blk);
        else text_add(out, "(%s/%lld)%%%lld", name[i], (long long)div[i], (long long)blk);
        if (bstride[b] != 1) text_add(out, "*%lld", (long long)bstride[b]);
    }
    if (first) text_add(out, "0");
}

/* "a, b and c": dims in the given order, blocked ones as "c blocks". */
static void list_dims(const tlayout_tensor *t, const int *order, const tl_dim *blocks,
                      text_buf *out)
{
    int d, n = t->md.ndims;
    for (d = 0; d < n; ++d)
        text_add(out, "%s%c%s", d == 0 ? "" : d == n - 1 ? " and " : ", ", t->names[order[d]],
                 blocks && blocks[order[d]] > 1 ? " blocks" : "");
}

/* How memory is walked: plain strides, or outer dims around a tile. */
static void explain_walk(const tlayout_tensor *t, const tl_dim *blocks, text_buf *out)
{
    const tl_memory_desc *md = &t->md;
    tl_dim tile = 1;
    int order[TL_MAX_NDIMS], d, b, n = md->ndims, nb = md->blocking.inner_nblks;
    stride_order(md, order);
    if (nb == 0) {
        text_add(out, "This is a plain layout: an element's offset is the sum of each "
                      "index times its stride. Memory holds ");
        list_dims(t, order, NULL, out);
        text_add(out, n > 1 ? " in that order, outermost first, so %c changes fastest. "
                            : ", one after another. ", t->names[order[n - 1]]);
        return;
    }
    for (b = 0; b < nb; ++b) tile *= md->blocking.inner_blks[b];
    for (d = 0; d < n; ++d) {
        int levels = 0;
        if (blocks[d] == 1) continue;
        text_add(out, "%c is split into blocks of %lld", t->names[d], (long long)blocks[d]);
        for (b = 0; b < nb; ++b) levels += md->blocking.inner_idxs[b] == d;
        if (levels > 1) {
            text_add(out, " (%d levels: ", levels);
            for (b = 0, levels = 0; b < nb; ++b)
                if (md->blocking.inner_idxs[b] == d)
                    text_add(out, "%s%lld", levels++ ? " x " : "",
                             (long long)md->blocking.inner_blks[b]);
            text_add(out, ")");
        }
        text_add(out, ". ");
    }
    text_add(out, "Memory walks ");
    list_dims(t, order, blocks, out);
    if (nb == 1) {
        text_add(out, ", outermost first; inside each step sit %lld consecutive values "
                      "of %c. ", (long long)tile, t->names[md->blocking.inner_idxs[0]]);
        return;
    }
    text_add(out, ", outermost first; inside each step sits a dense tile of %lld values, "
                  "walked as ", (long long)tile);
    for (b = 0; b < nb; ++b)
        text_add(out, "%lld%c", (long long)md->blocking.inner_blks[b],
                 t->names[md->blocking.inner_idxs[b]]);
    text_add(out, " (the last block changes fastest). ");
}

/* Which dims are padded, and how much of the buffer padding takes. */
static void explain_padding(const tlayout_tensor *t, const tl_dim *blocks, text_buf *out)
{
    const tl_memory_desc *md = &t->md;
    tl_dim nel = tl_md_nelems(md, 0), npad = tl_md_nelems(md, 1);
    int d, any_pad = 0;
    for (d = 0; d < md->ndims; ++d) {
        if (md->padded_dims[d] == md->dims[d]) continue;
        any_pad = 1;
        text_add(out, "%c has %lld values but is padded to %lld%s. ", t->names[d],
                 (long long)md->dims[d], (long long)md->padded_dims[d],
                 blocks[d] > 1 ? ", a multiple of its block" : "");
    }
    if (any_pad)
        text_add(out, "So %lld of the %lld slots (%.0f%%) are padding, which reorders "
                      "fill with zeros. ", (long long)(npad - nel), (long long)npad,
                 100.0 * (double)(npad - nel) / (double)npad);
    else if (md->blocking.inner_nblks > 0)
        text_add(out, "The dims are multiples of their blocks, so there is no padding. ");
}

/* The plain-words paragraph. */
static void explain(const tlayout_tensor *t, text_buf *out)
{
    const tl_memory_desc *md = &t->md;
    tl_dim blocks[TL_MAX_NDIMS], last[TL_MAX_NDIMS] = {0}, span;
    int d;
    if (tl_md_nelems(md, 0) == 0) {
        text_add(out, "The tensor is empty (a dim is 0), so it needs no memory. ");
        return;
    }
    dim_blocks(md, blocks);
    explain_walk(t, blocks, out);
    explain_padding(t, blocks, out);
    for (d = 0; d < md->ndims; ++d) last[d] = md->padded_dims[d] - md->padded_offsets[d] - 1;
    span = tl_md_offset(md, last) + 1 - md->offset0;   /* strides are >= 0 */
    if (span > tl_md_nelems(md, 1))
        text_add(out, "The strides leave gaps: the elements spread over %lld slots. ",
                 (long long)span);
    if (md->offset0)
        text_add(out, "As a view it starts %lld elements into its buffer (offset0); its "
                      "size counts from the buffer's start. ", (long long)md->offset0);
    text_add(out, "A buffer for it takes %zu bytes.", tl_md_size(md));
}

/* Prints text wrapped at 72 columns. */
static void print_wrapped(const char *s)
{
    size_t col = 0;
    while (*s) {
        size_t w = strcspn(s, " ");
        if (col && col + 1 + w > 72) { putchar('\n'); col = 0; }
        else if (col) { putchar(' '); ++col; }
        fwrite(s, 1, w, stdout);
        col += w;
        s += w;
        while (*s == ' ') ++s;
    }
    if (col) putchar('\n');
}

static void describe_any(const tlayout_tensor *t)
{
    print_dims("dims", t->md.ndims, t->md.dims, " x ");
    printf("\n%-13s%s\n", "data type", tl_dt_name(t->md.data_type));
    printf("%-13sany\n\n", "format");
    print_wrapped("`any` is a placeholder: it lets a library pick the layout later. "
                  "It has no strides, no size and no offsets, so it cannot hold data.");
}

static void describe_tensor(const tlayout_tensor *t)
{
    const tl_memory_desc *md = &t->md;
    text_buf formula, words;
    char canon[TL_MAX_NDIMS * 24 + 1];
    tl_status st;
    int d, b;
    if (md->format_kind == TL_FORMAT_KIND_ANY) { describe_any(t); return; }
    st = tl_md_to_tag(md, canon, sizeof canon);
    formula.n = words.n = 0;
    formula.s[0] = words.s[0] = '\0';
    offset_formula(t, &formula);
    explain(t, &words);

    printf("%-13s%s", "tag", t->tag);
    if (t->has_view) printf(" (a view)");
    printf("\n%-13s", "canonical");
    if (st == TL_OK) printf("%s\n", canon);
    else printf("none: the strides are not those of a dense tag\n");
    print_dims("dims", md->ndims, md->dims, " x ");
    printf("   (");
    for (d = 0; d < md->ndims; ++d) printf("%s%c", d ? ", " : "", t->names[d]);
    printf(")\n%-13s%s, %zu bytes per element\n", "data type", tl_dt_name(md->data_type),
           tl_dt_size(md->data_type));
    print_dims("padded dims", md->ndims, md->padded_dims, " x ");
    printf("\n");
    print_dims("strides", md->ndims, md->blocking.strides, " ");
    printf("   (outer dims, in elements)\n%-13s", "inner blocks");
    if (md->blocking.inner_nblks == 0) printf("none");
    for (b = 0; b < md->blocking.inner_nblks; ++b)
        printf("%lld%c", (long long)md->blocking.inner_blks[b],
               t->names[md->blocking.inner_idxs[b]]);
    printf("\n%-13s%lld\n", "offset0", (long long)md->offset0);
    printf("%-13s%lld logical, %lld with padding\n", "elements",
           (long long)tl_md_nelems(md, 0), (long long)tl_md_nelems(md, 1));
    printf("%-13s%zu bytes\n", "size", tl_md_size(md));
    printf("%-13s%s\n\n", "offset", formula.s);
    print_wrapped(words.s);
}

static int cmd_describe(int argc, char **argv)
{
    cli_args a;
    tlayout_tensor t;
    if (parse_args("describe", argc, argv, "va", 3, &a)) return TLAYOUT_EXIT_USAGE;
    if (tlayout_parse_tensor(a.pos[0], a.pos[1], a.pos[2], a.view, a.at, &t))
        return TLAYOUT_EXIT_USAGE;
    describe_tensor(&t);
    return TLAYOUT_EXIT_OK;
}

/* ---- offset ---------------------------------------------------------- */

static int offset_of_index(const tlayout_tensor *t, const char *text)
{
    const tl_memory_desc *md = &t->md;
    tl_dim idx[TL_MAX_NDIMS], off;
    char where[256];
    size_t es = tl_dt_size(md->data_type);
    int d, pad = 0;
    if (tlayout_parse_list("--index", text, md->ndims, idx)) return TLAYOUT_EXIT_USAGE;
    for (d = 0; d < md->ndims; ++d) {
        if (idx[d] >= md->padded_dims[d] - md->padded_offsets[d])
            return tlayout_usage_error("--index %s: index %lld of dim %d (%c) is past its "
                                       "padded size %lld", text, (long long)idx[d], d,
                                       t->names[d], (long long)md->padded_dims[d]);
        if (idx[d] >= md->dims[d]) pad = 1;
    }
    off = tl_md_offset(md, idx);
    tlayout_format_index(t, idx, where, sizeof where);
    printf("%s is at element offset %lld (bytes %lld..%lld)%s\n", where, (long long)off,
           (long long)off * (long long)es, (long long)(off + 1) * (long long)es - 1,
           pad ? ", a padding slot" : "");
    return TLAYOUT_EXIT_OK;
}

static int index_of_offset(const tlayout_tensor *t, const char *text)
{
    const tl_memory_desc *md = &t->md;
    tl_dim off, idx[TL_MAX_NDIMS], slots = (tl_dim)(tl_md_size(md) / tl_dt_size(md->data_type));
    const char *p = text;
    char where[256];
    int pad = 0, found;
    if (parse_number(&p, &off) != 0 || *p)
        return tlayout_usage_error("bad --offset '%s': expected one number >= 0 "
                                   "(an element offset, not bytes)", text);
    if (off >= slots)
        return tlayout_usage_error("--offset %lld is past the end of the buffer, which "
                                   "holds %lld elements", (long long)off, (long long)slots);
    found = tl_md_index_of(md, off, idx, &pad);
    if (found != 1) {
        printf("element offset %lld holds no element of this tensor (%s)\n", (long long)off,
               off < md->offset0 ? "it comes before the view's offset0"
                                 : "it lies in a gap between strides");
        return TLAYOUT_EXIT_OK;
    }
    tlayout_format_index(t, idx, where, sizeof where);
    if (pad) printf("element offset %lld is padding: slot %s of the padded tensor\n",
                    (long long)off, where);
    else printf("element offset %lld holds %s\n", (long long)off, where);
    return TLAYOUT_EXIT_OK;
}

static int cmd_offset(int argc, char **argv)
{
    cli_args a;
    tlayout_tensor t;
    if (parse_args("offset", argc, argv, "ikva", 3, &a)) return TLAYOUT_EXIT_USAGE;
    if (!a.index == !a.offset)
        return tlayout_usage_error("offset needs exactly one of --index I,J,... and "
                                   "--offset K");
    if (tlayout_parse_tensor(a.pos[0], a.pos[1], a.pos[2], a.view, a.at, &t))
        return TLAYOUT_EXIT_USAGE;
    if (t.md.format_kind != TL_FORMAT_KIND_BLOCKED)
        return tlayout_usage_error("'%s' has no layout yet, so it has no offsets", t.tag);
    if (tl_md_nelems(&t.md, 0) == 0)
        return tlayout_usage_error("the tensor is empty (a dim is 0): it has no offsets");
    return a.index ? offset_of_index(&t, a.index) : index_of_offset(&t, a.offset);
}

/* ---- draw ------------------------------------------------------------ */

static int cmd_draw(int argc, char **argv)
{
    cli_args a;
    tlayout_tensor t;
    if (parse_args("draw", argc, argv, "ova", 3, &a)) return TLAYOUT_EXIT_USAGE;
    if (!a.out) return tlayout_usage_error("draw needs -o FILE.svg");
    if (tlayout_parse_tensor(a.pos[0], a.pos[1], a.pos[2], a.view, a.at, &t))
        return TLAYOUT_EXIT_USAGE;
    return tlayout_draw(&t, a.out);
}

/* ---- demo ------------------------------------------------------------ */

typedef int (*subcommand)(int argc, char **argv);

/* Prints the command line, then runs it, so the tour doubles as examples. */
static int demo_step(const char *intro, subcommand fn, const char *line)
{
    char buf[256], *argv[16];
    int argc = 0, rc;
    char *p;
    print_wrapped(intro);
    printf("\n$ tlayout %s\n", line);
    snprintf(buf, sizeof buf, "%s", line);
    for (p = strtok(buf, " "); p && argc < 16; p = strtok(NULL, " ")) argv[argc++] = p;
    fflush(stdout);
    rc = fn(argc - 1, argv + 1);
    printf("\n");
    return rc;
}

static int cmd_demo(int argc, char **argv)
{
    int rc = 0;
    (void)argv;
    if (argc) return tlayout_usage_error("demo takes no arguments");
    printf("tensorlayout tour: how a 2x17x5x5 f32 tensor (N=2 images, C=17 channels,\n"
           "5x5 pixels) sits in memory under two layouts.\n"
           "==========================================================================\n\n");
    rc |= demo_step("1. nchw, the plain layout: w is contiguous, then h, c, n.",
                    cmd_describe, "describe 2x17x5x5 f32 nchw");
    rc |= demo_step("2. nChw16c, the blocked layout CPU libraries prefer: 16 channels sit "
                    "side by side, so one vector load reads 16 channels of a pixel. 17 "
                    "channels need two blocks, so the second block is mostly padding.",
                    cmd_describe, "describe 2x17x5x5 f32 nChw16c");
    rc |= demo_step("3. Where does image 1, channel 16, pixel (0,3) live? And what is "
                    "stored at that offset + 1?", cmd_offset,
                    "offset 2x17x5x5 f32 nChw16c --index 1,16,0,3");
    rc |= demo_step("", cmd_offset, "offset 2x17x5x5 f32 nChw16c --offset 1249");
    rc |= demo_step("4. Domain names are aliases of abstract tags: the weights tag "
                    "OIhw4i16o4i is ABcd4b16a4b, a double-blocked layout.",
                    cmd_describe, "describe 32x32x3x3 f32 OIhw4i16o4i");
    printf("Next: `tlayout draw 1x12x2x2 f32 nChw8c -o nChw8c.svg` draws a layout;\n"
           "docs/index.md explains the library.\n");
    return rc ? TLAYOUT_EXIT_FAIL : TLAYOUT_EXIT_OK;
}

/* ---- main ------------------------------------------------------------ */

int main(int argc, char **argv)
{
    static const struct { const char *name; subcommand fn; } cmds[] = {
        { "describe", cmd_describe }, { "offset", cmd_offset }, { "draw", cmd_draw },
        { "demo", cmd_demo }, { "reorder", tlayout_cmd_reorder },
        { "shuffle", tlayout_cmd_shuffle }, { "image", tlayout_cmd_image }
    };
    size_t i;
    if (argc < 2) {
        print_usage(stderr);
        return TLAYOUT_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        print_usage(stdout);
        return TLAYOUT_EXIT_OK;
    }
    for (i = 0; i < sizeof cmds / sizeof *cmds; ++i)
        if (!strcmp(argv[1], cmds[i].name)) return cmds[i].fn(argc - 2, argv + 2);
    return tlayout_usage_error("unknown command '%s'", argv[1]);
}
