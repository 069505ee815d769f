/*
 * bench_plain.h - what the plain benchmark programs (no Google Benchmark:
 * bench_sizes.c, bench_dead_end_updates.c) share: a monotonic clock in
 * milliseconds and the comparison that sorts times for their medians.
 * Header only, internal to bench/; the including file defines
 * _POSIX_C_SOURCE (clock_gettime) before any include.
 */
#ifndef CAIRN_BENCH_PLAIN_H
#define CAIRN_BENCH_PLAIN_H

#include <time.h>

static inline double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* qsort's order of doubles, ascending. */
static inline int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#endif
