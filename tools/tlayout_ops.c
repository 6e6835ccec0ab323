/* tlayout reorder / shuffle / image: thin drivers over engines that other
   parts of the library provide. tools/meson.build probes the headers and
   defines TL_HAVE_REORDER, TL_HAVE_SHUFFLE and TL_HAVE_OCL_IMAGES for the
   engines that exist, so the tool builds whatever has landed. */
#include "tlayout_cli.h"

#include <stdio.h>

static int not_built(const char *cmd, const char *engine)
{
    return tlayout_usage_error("'%s' is not built into this tlayout: the library it "
                               "was built with has no %s", cmd, engine);
}

const char *tlayout_ops_usage(void)
{
    return "";
}

int tlayout_cmd_reorder(int argc, char **argv)
{
    (void)argc; (void)argv;
    return not_built("reorder", "tl_reorder");
}

int tlayout_cmd_shuffle(int argc, char **argv)
{
    (void)argc; (void)argv;
    return not_built("shuffle", "tl_shuffle");
}

int tlayout_cmd_image(int argc, char **argv)
{
    (void)argc; (void)argv;
    return not_built("image", "tensorlayout_ocl.h image layouts");
}
