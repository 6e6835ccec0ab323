/* tlayout_cli.h - what the source files of the tlayout tool share.
   Not installed: the tool is the only user. */
#ifndef TLAYOUT_CLI_H
#define TLAYOUT_CLI_H

#include "tensorlayout.h"

#include <stdio.h>

/* Exit statuses: 2 is the conventional "you called me wrong". */
#define TLAYOUT_EXIT_OK    0
#define TLAYOUT_EXIT_FAIL  1
#define TLAYOUT_EXIT_USAGE 2

/* More than this many padded elements make an unreadable picture. */
#define TLAYOUT_DRAW_MAX 1024

/* A tensor named on the command line: DIMS DT TAG [--view DIMS --at OFFS]. */
typedef struct {
    tl_memory_desc md;            /* what commands work on: the view, if any */
    tl_memory_desc whole;         /* the tensor the tag describes */
    int            has_view;
    tl_dim         at[TL_MAX_NDIMS];   /* the view's offsets in whole */
    const char    *tag;
    char           names[TL_MAX_NDIMS];/* one letter per dim: n, c, h, w... */
} tlayout_tensor;

/* Prints "tlayout: <message>" and a hint to stderr; returns 2. */
int tlayout_usage_error(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* "2x17x5x5" -> ndims 4, dims. 0 on success, else prints why, returns 2. */
int tlayout_parse_dims(const char *text, int *ndims, tl_dim *dims);
/* "1,16,0,3" with exactly n values >= 0. 0 on success, else 2. */
int tlayout_parse_list(const char *what, const char *text, int n, tl_dim *out);
/* Builds t from the three positional words and an optional view.
   view/at may be NULL. 0 on success, else prints why and returns 2. */
int tlayout_parse_tensor(const char *dims, const char *dt, const char *tag,
                         const char *view, const char *at, tlayout_tensor *t);
/* "(n=1, c=16, h=0, w=3)" into buf. */
void tlayout_format_index(const tlayout_tensor *t, const tl_dim *idx,
                          char *buf, size_t len);

/* SVG helpers shared by draw and image: the document start (size, the
   "hatch" pattern for padding, a white background) and a pastel colour
   "#rrggbb" per channel value. */
void tlayout_svg_begin(FILE *f, tl_dim width, tl_dim height);
void tlayout_colour(tl_dim c, char *out);

/* Writes the SVG picture of t (the whole tensor, the view highlighted)
   to path. Returns an exit status. */
int tlayout_draw(const tlayout_tensor *t, const char *path);

/* Subcommands whose engines live in other parts of the library
   (tools/tlayout_ops.c); each prints why when it is not built in. */
int tlayout_cmd_reorder(int argc, char **argv);
int tlayout_cmd_shuffle(int argc, char **argv);
int tlayout_cmd_image(int argc, char **argv);
/* Usage lines and examples of the subcommands that are built in. */
const char *tlayout_ops_usage(void);
const char *tlayout_ops_examples(void);

#endif /* TLAYOUT_CLI_H */
