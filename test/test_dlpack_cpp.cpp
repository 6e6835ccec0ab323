// The DLPack interop test again as C++11: the dlpack block of
// tensorlayout.h must compile there too (extern "C", no C-only syntax).
#include "test_dlpack.c"
