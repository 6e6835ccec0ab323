#include "tl_test.h"
int main(void){ CHECK(1); return tl_test_result("overflow"); }
