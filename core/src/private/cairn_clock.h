/* Private to cairn's modules: the one clock the library reads, for the
 * build and repair times it reports and the pool's polling deadline. It is
 * monotonic: a wall clock that steps would give negative times. */
#ifndef CAIRN_CLOCK_H
#define CAIRN_CLOCK_H

#include <stdint.h>

/* Nanoseconds since an arbitrary fixed point. */
uint64_t cairn__now_ns(void);

/* Milliseconds since the same point. */
static inline double cairn__now_ms(void) { return (double)cairn__now_ns() / 1e6; }

#endif
