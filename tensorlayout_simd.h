/* tensorlayout_simd.h - v0.1 - SIMD loops behind tl_reorder and tl_shuffle
   C99 and C++. License: MIT, see tensorlayout.h.

   Include this instead of tensorlayout.h, and in exactly ONE file:
       #define TENSORLAYOUT_IMPLEMENTATION
       #include "tensorlayout_simd.h"
   The same tl_reorder_plan_init / tl_shuffle then pick vector kernels
   (SIMDe: native on x86 and Arm, portable elsewhere). Nothing else in the
   API changes. TL_SIMD_FORCE_SCALAR pins the scalar core (for tests).
   Needs SIMDe (Debian: libsimde-dev) only in the implementation file.
*/
#ifndef TENSORLAYOUT_SIMD_H
#define TENSORLAYOUT_SIMD_H
#include "tensorlayout.h"
#endif /* TENSORLAYOUT_SIMD_H */

/* ---- implementation below; stop here if you only want the API ---- */
#ifdef TENSORLAYOUT_IMPLEMENTATION
#ifndef TL__SIMD_IMPLEMENTATION_DONE
#define TL__SIMD_IMPLEMENTATION_DONE
#endif /* TL__SIMD_IMPLEMENTATION_DONE */
#endif /* TENSORLAYOUT_IMPLEMENTATION */
