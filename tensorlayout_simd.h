/* tensorlayout_simd.h - v0.1 - SIMD loops behind tl_reorder and tl_shuffle
   C99 and C++. License: MIT, see tensorlayout.h.

   Include this instead of tensorlayout.h, and in exactly ONE file:
       #define TENSORLAYOUT_IMPLEMENTATION
       #include "tensorlayout_simd.h"
   The same tl_reorder_plan_init / tl_shuffle then pick vector kernels
   (SIMDe: native on x86 and Arm, portable elsewhere). Nothing else in the
   API changes. Include it before (or instead of) any implementation
   include of tensorlayout.h: the core must know, while it is compiled,
   that vector kernels exist.

   Options (define before the implementation include):
       TL_SIMD_FORCE_SCALAR   compile the scalar core only (tests compare)
   Needs SIMDe (Debian: libsimde-dev) only in the implementation file.
*/
#if defined(TENSORLAYOUT_IMPLEMENTATION) && !defined(TL__IMPLEMENTATION_DONE) && \
    !defined(TL_SIMD_FORCE_SCALAR)
/* tells the core, compiled next, to ask the kernels below first */
#define TL__SIMD_ENABLED 1
#endif
#include "tensorlayout.h"

#ifndef TENSORLAYOUT_SIMD_H
#define TENSORLAYOUT_SIMD_H
#endif /* TENSORLAYOUT_SIMD_H */

/* ---- implementation below; stop here if you only want the API ---- */
#if defined(TENSORLAYOUT_IMPLEMENTATION) && defined(TL__SIMD_ENABLED)
#ifndef TL__SIMD_IMPLEMENTATION_DONE
#define TL__SIMD_IMPLEMENTATION_DONE

/* ---- simd: reorder kernels ------------------------------------------- */

/* Placeholder until the vector kernels land: keeps the scalar kernel. */
static void tl__simd_reorder_pick(tl_reorder_plan *plan) { (void)plan; }

/* ---- simd: shuffle kernels ------------------------------------------- */

#endif /* TL__SIMD_IMPLEMENTATION_DONE */
#endif /* TENSORLAYOUT_IMPLEMENTATION && TL__SIMD_ENABLED */
