/* tlayout draw: an SVG picture of a layout.

   Top: the logical tensor as grids. The last two dims that have more than
   one (padded) value are the rows and columns of a grid; the dims outside
   them make small multiples, the innermost of those across the page (with
   wrapping), the rest down the page. Each cell is coloured by its channel
   (dim 1, or dim 0 of a 1-D tensor) and labelled with its memory position;
   padding is hatched. Bottom: memory itself as a strip of slots in order,
   coloured the same way, so blocks show up as runs of colours.

   Every element cell carries class="elem" or class="pad" and every slot
   class="mem-elem", "mem-pad" or "mem-gap", so tests can count them. */
#include "tlayout_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELL 28          /* cell and slot edge, px */
#define GAP_X 12         /* between panels */
#define GAP_Y 22         /* between lines of panels: room for a label */
#define LEFT 64          /* room for line labels */
#define TOP 74           /* title and legend */
#define MAX_WIDTH 1100   /* panels wrap past this */
#define STRIP_ROW 32     /* slots per strip row */

typedef struct {
    const tlayout_tensor *t;
    const tl_memory_desc *md;     /* the whole tensor */
    tl_dim sizes[TL_MAX_NDIMS];   /* padded extents walked */
    int    eff[TL_MAX_NDIMS], neff;   /* dims with more than one value */
    int    row_dim, col_dim;      /* -1: the grid has one row / column */
    int    across;                /* outer dim across the page, or -1 */
    tl_dim rows, cols, per_line, lines_per_group;
    tl_dim wrap;                  /* a long single row wraps every `wrap` */
    int    chan;                  /* the dim that picks the colour */
} picture;

/* ---- colours --------------------------------------------------------- */

/* A pastel colour per channel; neighbours differ by a golden-ish angle so
   adjacent channels never look alike. */
void tlayout_colour(tl_dim c, char *out)
{
    double h = (double)((c * 139) % 360) / 60.0, s = 0.55, l = 0.78;
    double chroma = (1.0 - (2.0 * l - 1.0 < 0 ? 1.0 - 2.0 * l : 2.0 * l - 1.0)) * s;
    double hm = h - 2.0 * (double)(int)(h / 2.0);
    double x = chroma * (1.0 - (hm - 1.0 < 0 ? 1.0 - hm : hm - 1.0));
    double r = 0, g = 0, b = 0, m = l - chroma / 2.0;
    switch ((int)h) {
    case 0: r = chroma; g = x; break;
    case 1: r = x; g = chroma; break;
    case 2: g = chroma; b = x; break;
    case 3: g = x; b = chroma; break;
    case 4: r = x; b = chroma; break;
    default: r = chroma; b = x; break;
    }
    sprintf(out, "#%02x%02x%02x", (unsigned)((r + m) * 255.0 + 0.5),
            (unsigned)((g + m) * 255.0 + 0.5), (unsigned)((b + m) * 255.0 + 0.5));
}

/* ---- geometry -------------------------------------------------------- */

static void picture_init(picture *p, const tlayout_tensor *t)
{
    int d;
    memset(p, 0, sizeof *p);
    p->t = t;
    p->md = &t->whole;
    for (d = 0; d < p->md->ndims; ++d) {
        p->sizes[d] = p->md->padded_dims[d] - p->md->padded_offsets[d];
        if (p->sizes[d] > 1) p->eff[p->neff++] = d;
    }
    p->chan = p->md->ndims >= 2 ? 1 : 0;
    p->row_dim = p->neff >= 2 ? p->eff[p->neff - 2] : -1;
    p->col_dim = p->neff >= 1 ? p->eff[p->neff - 1] : -1;
    p->across = p->neff >= 3 ? p->eff[p->neff - 3] : -1;
    p->rows = p->row_dim < 0 ? 1 : p->sizes[p->row_dim];
    p->cols = p->col_dim < 0 ? 1 : p->sizes[p->col_dim];
    if (p->neff == 1 && p->cols > STRIP_ROW) {   /* like the strip below */
        p->wrap = STRIP_ROW;
        p->rows = (p->cols + STRIP_ROW - 1) / STRIP_ROW;
        p->cols = STRIP_ROW;
    }
    p->per_line = 1;
    if (p->across >= 0) {
        tl_dim fit = (MAX_WIDTH - LEFT) / (p->cols * CELL + GAP_X);
        tl_dim blk = 1;
        int b;
        for (b = 0; b < p->md->blocking.inner_nblks; ++b)
            if (p->md->blocking.inner_idxs[b] == p->across) blk *= p->md->blocking.inner_blks[b];
        p->per_line = p->sizes[p->across] < fit ? p->sizes[p->across] : fit;
        /* whole blocks per line, so a line shows what one block holds */
        if (blk > 1 && p->per_line > blk) p->per_line -= p->per_line % blk;
        if (p->per_line < 1) p->per_line = 1;
    }
    p->lines_per_group = p->across < 0 ? 1
                       : (p->sizes[p->across] + p->per_line - 1) / p->per_line;
}

/* Which line of panels holds idx: groups of the dims outside `across`
   (row-major), each group taking lines_per_group lines. */
static tl_dim panel_line(const picture *p, const tl_dim *idx)
{
    tl_dim group = 0;
    int k;
    for (k = 0; k + 3 < p->neff; ++k) group = group * p->sizes[p->eff[k]] + idx[p->eff[k]];
    return group * p->lines_per_group + (p->across < 0 ? 0 : idx[p->across] / p->per_line);
}

static tl_dim panel_column(const picture *p, const tl_dim *idx)
{
    return p->across < 0 ? 0 : idx[p->across] % p->per_line;
}

static void cell_xy(const picture *p, const tl_dim *idx, tl_dim *x, tl_dim *y)
{
    tl_dim px = LEFT + panel_column(p, idx) * (p->cols * CELL + GAP_X);
    tl_dim py = TOP + panel_line(p, idx) * (p->rows * CELL + GAP_Y);
    if (p->wrap) {
        *x = px + idx[p->col_dim] % p->wrap * CELL;
        *y = py + idx[p->col_dim] / p->wrap * CELL;
        return;
    }
    *x = px + (p->col_dim < 0 ? 0 : idx[p->col_dim]) * CELL;
    *y = py + (p->row_dim < 0 ? 0 : idx[p->row_dim]) * CELL;
}

static tl_dim grid_lines(const picture *p)
{
    tl_dim groups = 1;
    int k;
    for (k = 0; k + 3 < p->neff; ++k) groups *= p->sizes[p->eff[k]];
    return groups * p->lines_per_group;
}

static int is_padding(const tl_memory_desc *md, const tl_dim *idx)
{
    int d;
    for (d = 0; d < md->ndims; ++d) if (idx[d] >= md->dims[d]) return 1;
    return 0;
}

/* Inside the view's padded box (all cells when there is no view). */
static int in_view(const tlayout_tensor *t, const tl_dim *idx)
{
    int d;
    if (!t->has_view) return 1;
    for (d = 0; d < t->md.ndims; ++d)
        if (idx[d] < t->at[d] || idx[d] >= t->at[d] + t->md.padded_dims[d]) return 0;
    return 1;
}

/* ---- writing --------------------------------------------------------- */

void tlayout_svg_begin(FILE *f, tl_dim width, tl_dim height)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%lld\" height=\"%lld\" "
               "viewBox=\"0 0 %lld %lld\" font-family=\"monospace\" font-size=\"10\">\n",
            (long long)width, (long long)height, (long long)width, (long long)height);
    fprintf(f, "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
               "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
               "<rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/>"
               "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#aaaaaa\" "
               "stroke-width=\"2\"/></pattern></defs>\n");
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
}

/* One cell (grid) or slot (strip): rect with a tooltip, then its label. */
static void write_cell(FILE *f, const picture *p, const tl_dim *idx, tl_dim x, tl_dim y,
                       const char *cls, tl_dim off, const char *label)
{
    char colour[8], where[256];
    int pad = is_padding(p->md, idx), view = in_view(p->t, idx);
    tlayout_colour(idx[p->chan], colour);
    tlayout_format_index(p->t, idx, where, sizeof where);
    fprintf(f, "<rect class=\"%s\" x=\"%lld\" y=\"%lld\" width=\"%d\" height=\"%d\" "
               "fill=\"%s\" stroke=\"%s\" stroke-width=\"%d\"%s><title>%s%s at element "
               "offset %lld</title></rect>\n",
            cls, (long long)x, (long long)y, CELL, CELL, pad ? "url(#hatch)" : colour,
            p->t->has_view && view ? "#000000" : "#ffffff", p->t->has_view && view ? 2 : 1,
            view ? "" : " opacity=\"0.3\"", where, pad ? " (padding)" : "", (long long)off);
    fprintf(f, "<text x=\"%lld\" y=\"%lld\" text-anchor=\"middle\" fill=\"%s\"%s>%s</text>\n",
            (long long)(x + CELL / 2), (long long)(y + CELL / 2 + 4), pad ? "#666666" : "#000000",
            view ? "" : " opacity=\"0.3\"", label);
}

static void write_header(FILE *f, const picture *p, tl_dim width, tl_dim height)
{
    const tlayout_tensor *t = p->t;
    char canon[TL_MAX_NDIMS * 24 + 1];
    int d;
    tlayout_svg_begin(f, width, height);
    fprintf(f, "<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s  ", t->tag);
    for (d = 0; d < t->whole.ndims; ++d)
        fprintf(f, "%s%lld", d ? "x" : "", (long long)t->whole.dims[d]);
    fprintf(f, " %s", tl_dt_name(t->whole.data_type));
    if (tl_md_to_tag(&t->whole, canon, sizeof canon) == TL_OK && strcmp(canon, t->tag))
        fprintf(f, "  (= %s)", canon);
    if (t->has_view) {
        fprintf(f, "  view ");
        for (d = 0; d < t->md.ndims; ++d)
            fprintf(f, "%s%lld", d ? "x" : "", (long long)t->md.dims[d]);
        fprintf(f, " at ");
        for (d = 0; d < t->md.ndims; ++d) fprintf(f, "%s%lld", d ? "," : "", (long long)t->at[d]);
        fprintf(f, " (offset0 %lld)", (long long)t->md.offset0);
    }
    fprintf(f, "</text>\n<text x=\"12\" y=\"40\">colour: %c (dim %d)   number: position in "
               "memory (element offset)   hatched: padding%s</text>\n",
            t->names[p->chan], p->chan, t->has_view ? "   outlined: the view" : "");
    fprintf(f, "<text x=\"12\" y=\"56\">");
    if (p->row_dim >= 0) fprintf(f, "rows: %c | ", t->names[p->row_dim]);
    if (p->col_dim >= 0) fprintf(f, "columns: %c%s", t->names[p->col_dim],
                                 p->wrap ? " (wrapped)" : "");
    if (p->across >= 0) fprintf(f, " | one small grid per value of ");
    for (d = 0; d + 3 <= p->neff; ++d)
        fprintf(f, "%s%c", d ? ", " : "", t->names[p->eff[d]]);
    fprintf(f, "</text>\n");
}

/* Above each panel: "c=3"; at the start of each line: the group, "n=1". */
static void write_panel_labels(FILE *f, const picture *p, const tl_dim *idx)
{
    tl_dim x, y;
    int k;
    if (p->across < 0) return;
    if (p->row_dim >= 0 && idx[p->row_dim] != 0) return;
    if (p->col_dim >= 0 && idx[p->col_dim] != 0) return;
    cell_xy(p, idx, &x, &y);
    fprintf(f, "<text x=\"%lld\" y=\"%lld\">%c=%lld</text>\n", (long long)x,
            (long long)(y - 5), p->t->names[p->across], (long long)idx[p->across]);
    if (panel_column(p, idx) != 0 || p->neff < 4) return;
    fprintf(f, "<text x=\"6\" y=\"%lld\">", (long long)(y + CELL / 2 + 4));
    for (k = 0; k + 3 < p->neff; ++k)
        fprintf(f, "%s%c=%lld", k ? " " : "", p->t->names[p->eff[k]], (long long)idx[p->eff[k]]);
    fprintf(f, "</text>\n");
}

/* Fills the cell list: every padded index, in row-major order, with its
   offset. Returns the number of memory slots the strip needs. */
static tl_dim collect(const picture *p, tl_dim n, tl_dim *idxs, tl_dim *offs)
{
    tl_dim cur[TL_MAX_NDIMS] = {0}, k, slots = 0;
    int d, nd = p->md->ndims;
    for (k = 0; k < n; ++k) {
        memcpy(idxs + k * nd, cur, (size_t)nd * sizeof *cur);
        offs[k] = tl_md_offset(p->md, cur);
        if (offs[k] + 1 > slots) slots = offs[k] + 1;
        for (d = nd - 1; d >= 0; --d) {
            if (++cur[d] < p->sizes[d]) break;
            cur[d] = 0;
        }
    }
    return slots;
}

static void write_strip(FILE *f, const picture *p, tl_dim n, const tl_dim *idxs,
                        const tl_dim *offs, tl_dim slots, tl_dim top)
{
    tl_dim *owner = (tl_dim *)malloc((size_t)slots * sizeof *owner), k;
    int nd = p->md->ndims;
    if (!owner) return;
    for (k = 0; k < slots; ++k) owner[k] = -1;
    for (k = 0; k < n; ++k) owner[offs[k]] = k;
    fprintf(f, "<text x=\"12\" y=\"%lld\" font-size=\"12\" font-weight=\"bold\">memory, in "
               "order (each slot names its %c)</text>\n", (long long)(top - 10), p->t->names[p->chan]);
    for (k = 0; k < slots; ++k) {
        tl_dim x = LEFT + (k % STRIP_ROW) * CELL, y = top + (k / STRIP_ROW) * CELL;
        char label[32];
        if (k % STRIP_ROW == 0)
            fprintf(f, "<text x=\"6\" y=\"%lld\">%lld</text>\n", (long long)(y + CELL / 2 + 4),
                    (long long)k);
        if (owner[k] < 0) {
            fprintf(f, "<rect class=\"mem-gap\" x=\"%lld\" y=\"%lld\" width=\"%d\" height=\"%d\" "
                       "fill=\"#ffffff\" stroke=\"#cccccc\" stroke-dasharray=\"2,2\">"
                       "<title>offset %lld: not part of the tensor</title></rect>\n",
                    (long long)x, (long long)y, CELL, CELL, (long long)k);
            continue;
        }
        {
            const tl_dim *idx = idxs + owner[k] * nd;
            snprintf(label, sizeof label, "%c%lld", p->t->names[p->chan], (long long)idx[p->chan]);
            write_cell(f, p, idx, x, y, is_padding(p->md, idx) ? "mem-pad" : "mem-elem", k, label);
        }
    }
    free(owner);
}

static int write_svg(FILE *f, const picture *p, tl_dim n)
{
    tl_dim *idxs = (tl_dim *)malloc((size_t)n * TL_MAX_NDIMS * sizeof *idxs);
    tl_dim *offs = (tl_dim *)malloc((size_t)n * sizeof *offs);
    tl_dim slots, k, grid_h, strip_top, width, height, strip_w;
    int nd = p->md->ndims;
    if (!idxs || !offs) { free(idxs); free(offs); return -1; }
    slots = collect(p, n, idxs, offs);
    grid_h = grid_lines(p) * (p->rows * CELL + GAP_Y);
    strip_top = TOP + grid_h + 30;
    width = LEFT + p->per_line * (p->cols * CELL + GAP_X) + 12;
    strip_w = LEFT + (slots < STRIP_ROW ? slots : STRIP_ROW) * CELL + 12;
    if (strip_w > width) width = strip_w;
    if (width < 560) width = 560;    /* the legend's width */
    height = strip_top + (slots + STRIP_ROW - 1) / STRIP_ROW * CELL + 16;
    write_header(f, p, width, height);
    for (k = 0; k < n; ++k) {
        const tl_dim *idx = idxs + k * nd;
        tl_dim x, y;
        char label[32];
        write_panel_labels(f, p, idx);
        cell_xy(p, idx, &x, &y);
        snprintf(label, sizeof label, "%lld", (long long)offs[k]);
        write_cell(f, p, idx, x, y, is_padding(p->md, idx) ? "pad" : "elem", offs[k], label);
    }
    write_strip(f, p, n, idxs, offs, slots, strip_top);
    fprintf(f, "</svg>\n");
    free(idxs);
    free(offs);
    return 0;
}

int tlayout_draw(const tlayout_tensor *t, const char *path)
{
    picture p;
    tl_dim n;
    FILE *f;
    int rc;
    if (t->whole.format_kind != TL_FORMAT_KIND_BLOCKED)
        return tlayout_usage_error("'%s' has no layout yet, so there is nothing to draw", t->tag);
    n = tl_md_nelems(&t->whole, 1);
    if (n == 0) return tlayout_usage_error("the tensor is empty (a dim is 0): nothing to draw");
    if (n > TLAYOUT_DRAW_MAX)
        return tlayout_usage_error("%lld padded elements are too many to draw readably "
                                   "(the limit is %d); try smaller dims, e.g. 1x16x4x4",
                                   (long long)n, TLAYOUT_DRAW_MAX);
    picture_init(&p, t);
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "tlayout: cannot write '%s'\n", path);
        return TLAYOUT_EXIT_FAIL;
    }
    rc = write_svg(f, &p, n);
    if (fclose(f) != 0 || rc != 0) {
        fprintf(stderr, "tlayout: writing '%s' failed\n", path);
        return TLAYOUT_EXIT_FAIL;
    }
    printf("wrote %s: %lld elements, %lld padding slots\n", path,
           (long long)tl_md_nelems(&t->whole, 0), (long long)(n - tl_md_nelems(&t->whole, 0)));
    return TLAYOUT_EXIT_OK;
}
