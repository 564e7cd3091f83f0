/* cardcanon engine: the compiler builtins and extensions the C sources use, each with a plain C99
 * fallback, so that any C99 compiler builds the engine with the same results.
 *
 * GCC and Clang use their builtins. Any other compiler (MSVC among them), or a build with
 * CARDCANON_PORTABLE_C defined, takes the fallback: loops for __builtin_ctz, __builtin_clz and
 * __builtin_popcount, no always_inline, and two 64-bit halves for the 128-bit counts of exact.c.
 * tests/test_engine_portable.py builds the fallback and runs the engine's differential tests on it.
 *
 * kernel.c itself is not edited for this: results record its SHA-256, so the build compiles
 * kernel_unit.c, which includes this header and then kernel.c. */
#ifndef CARDCANON_PORTABLE_H
#define CARDCANON_PORTABLE_H
#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(CARDCANON_PORTABLE_C)
#define CC_BUILTINS 1
#else
#define CC_BUILTINS 0
#endif

#if CC_BUILTINS
#define CC_ALWAYS_INLINE __attribute__((always_inline))
typedef unsigned __int128 wide; /* a count below 2^128 */
static inline wide wide_from(uint64_t x) { return x; }
static inline wide wide_mul(wide a, uint64_t b) { return a * b; }
static inline wide wide_div(wide a, uint32_t d) { return a / d; }
static inline int wide_fits63(wide a) { return !(a >> 63); } /* a < 2^63 */
static inline uint64_t wide_low(wide a) { return (uint64_t)a; }
#else
#define CC_ALWAYS_INLINE
/* The builtins, for a nonzero 32-bit mask as every call site passes. */
static inline int cc_ctz(uint32_t m) { int n = 0; while (!(m & 1u)) { m >>= 1; n++; } return n; }
static inline int cc_clz(uint32_t m) { int n = 0; while (!(m & 0x80000000u)) { m <<= 1; n++; } return n; }
static inline int cc_popcount(uint32_t m) { int n = 0; for (; m; m &= m - 1) n++; return n; }
#define __builtin_ctz(m) cc_ctz((uint32_t)(m))
#define __builtin_clz(m) cc_clz((uint32_t)(m))
#define __builtin_popcount(m) cc_popcount((uint32_t)(m))

typedef struct { uint64_t hi, lo; } wide; /* a count below 2^128 */
static inline wide wide_from(uint64_t x) { wide w; w.hi = 0; w.lo = x; return w; }
static inline wide wide_mul(wide a, uint64_t b) { /* a * b mod 2^128, by 32-bit halves */
    uint64_t a0 = a.lo & 0xFFFFFFFFu, a1 = a.lo >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    wide r;
    r.lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    r.hi = a.hi * b + p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}
static inline wide wide_div(wide a, uint32_t d) { /* long division, 32 bits of the low half at a time */
    wide q;
    uint64_t rem = a.hi % d, t;
    q.hi = a.hi / d;
    t = (rem << 32) | (a.lo >> 32);
    q.lo = (t / d) << 32;
    t = ((t % d) << 32) | (a.lo & 0xFFFFFFFFu);
    q.lo |= t / d;
    return q;
}
static inline int wide_fits63(wide a) { return !a.hi && !(a.lo >> 63); }
static inline uint64_t wide_low(wide a) { return a.lo; }
#endif

#endif
