/* Every status has its own non-empty message; unknown values do not crash. */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include "tl_test.h"
#include <string.h>

int main(void)
{
    int s, t;
    CHECK_EQ(TL_OK, 0);
    for (s = 0; s < (int)TL__STATUS_COUNT; ++s) {
        const char *m = tl_status_str((tl_status)s);
        CHECK(m != NULL && m[0] != '\0');
        for (t = 0; t < s; ++t) CHECK(strcmp(m, tl_status_str((tl_status)t)) != 0);
    }
    CHECK(strcmp(tl_status_str((tl_status)-1), "unknown tl_status") == 0);
    CHECK(strcmp(tl_status_str((tl_status)9999), "unknown tl_status") == 0);
    CHECK(strcmp(tl_status_str(TL_OK), "ok") == 0);
    return tl_test_result("status");
}
