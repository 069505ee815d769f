/* cairn__now_ns (cairn_clock.h): the system's monotonic clock. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif
#include "cairn_clock.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <time.h>
#endif

uint64_t cairn__now_ns(void) {
#if defined(_WIN32)
  LARGE_INTEGER f, t;
  QueryPerformanceFrequency(&f);
  QueryPerformanceCounter(&t);
  /* whole seconds and the remainder apart, so the product cannot overflow */
  uint64_t s = (uint64_t)(t.QuadPart / f.QuadPart);
  uint64_t r = (uint64_t)(t.QuadPart % f.QuadPart);
  return s * 1000000000u + r * 1000000000u / (uint64_t)f.QuadPart;
#elif defined(CLOCK_MONOTONIC)
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#else
  /* C11 only: a wall clock, the best there is */
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}
