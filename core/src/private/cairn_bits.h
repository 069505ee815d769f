/* Private to cairn's modules: compiler hints and bit tricks, each with a
 * portable fallback, so the library builds with GCC, Clang and MSVC. */
#ifndef CAIRN_BITS_H
#define CAIRN_BITS_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

/* SSE2 where the target has it (every x86-64): CAIRN_SSE2 and its
 * intrinsics. Each use keeps a plain loop beside it that gives the same
 * results, for the other targets. */
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#define CAIRN_SSE2 1
#endif

/* Forces the inlining the specialised loops rely on: constant arguments
 * fold away only once the body is inlined. */
#if defined(__GNUC__) || defined(__clang__)
#define CAIRN_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define CAIRN_INLINE static __forceinline
#else
#define CAIRN_INLINE static inline
#endif

/* printf-style checking of a function's format argument (1-based). MinGW
 * builds use the C99 printf (__USE_MINGW_ANSI_STDIO), not Microsoft's. */
#if defined(__MINGW32__)
#define CAIRN_PRINTF(fmt, first) __attribute__((format(gnu_printf, fmt, first)))
#elif defined(__GNUC__) || defined(__clang__)
#define CAIRN_PRINTF(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define CAIRN_PRINTF(fmt, first)
#endif

/* Whether v is a number and not infinite. (MinGW's isfinite on a double
 * warns under -Wfloat-conversion: its macro has a float branch.) */
static inline int cairn__finite(double v) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_isfinite(v);
#else
  return v - v == 0.0; /* NaN for an infinity or a NaN */
#endif
}

/* The index of the lowest set bit of m; m must not be 0. */
static inline int cairn__ctz(uint32_t m) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctz(m);
#elif defined(_MSC_VER)
  unsigned long i;
  _BitScanForward(&i, m);
  return (int)i;
#else
  int d = 0;
  while (!(m & 1u)) {
    m >>= 1;
    d++;
  }
  return d;
#endif
}

/* The index of the lowest set bit of m; m must not be 0. */
static inline int cairn__ctz64(uint64_t m) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(m);
#elif defined(_MSC_VER) && defined(_M_X64)
  unsigned long i;
  _BitScanForward64(&i, m);
  return (int)i;
#else
  int d = 0;
  while (!(m & 1u)) {
    m >>= 1;
    d++;
  }
  return d;
#endif
}

/* The index of the highest set bit of m; m must not be 0. */
static inline int cairn__msb64(uint64_t m) {
#if defined(__GNUC__) || defined(__clang__)
  return 63 - __builtin_clzll(m);
#elif defined(_MSC_VER) && defined(_M_X64)
  unsigned long i;
  _BitScanReverse64(&i, m);
  return (int)i;
#else
  int d = 0;
  while (m >>= 1) d++;
  return d;
#endif
}

#endif
