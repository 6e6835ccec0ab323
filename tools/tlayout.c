/* tlayout - placeholder until the tool lands (see issues). */
#define TENSORLAYOUT_IMPLEMENTATION
#include "tensorlayout.h"
#include <stdio.h>
int main(void) { puts("tlayout: not yet"); return 0; }
