/*
 * bench_shim.h - a small C face on Google Benchmark.
 *
 * The benchmark bodies are C functions; bench_shim.cpp (the one C++ file)
 * implements this header over benchmark::State and benchmark::
 * RegisterBenchmark, and holds main(). main() calls
 * cairn_bench_register_all(), which the C side defines, before it
 * initialises and runs the library, so registration happens at startup
 * from C.
 *
 * A body looks like:
 *
 *   static void bm(cairn_bench_state *st, void *user) {
 *     ... setup (not timed) ...
 *     while (cairn_bench_next(st)) {
 *       ... one iteration (timed) ...
 *     }
 *     cairn_bench_counter(st, "items", n, CAIRN_BENCH_RATE);
 *   }
 *
 * Ownership: names and labels are copied; `user` is borrowed and must stay
 * valid until the program ends (the shim never frees it). A state pointer is
 * valid only during the call it was passed to.
 */
#ifndef CAIRN_BENCH_SHIM_H
#define CAIRN_BENCH_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cairn_bench_state cairn_bench_state;
/* A registered benchmark, to adjust right after registering it. */
typedef struct cairn_bench_def cairn_bench_def;

typedef void (*cairn_bench_fn)(cairn_bench_state *st, void *user);

/* Counter flags, combinable with |. */
enum {
  CAIRN_BENCH_PLAIN = 0,    /* the value as given */
  CAIRN_BENCH_RATE = 1,     /* value / elapsed seconds (Counter::kIsRate) */
  CAIRN_BENCH_AVG_ITER = 2, /* value / iterations (Counter::kAvgIterations) */
  CAIRN_BENCH_INVERT = 4    /* 1 / result (Counter::kInvert); with RATE:
                               seconds per unit of value */
};

/* Time unit of the reported times. */
typedef enum cairn_bench_unit {
  CAIRN_BENCH_NS = 0,
  CAIRN_BENCH_US,
  CAIRN_BENCH_MS,
  CAIRN_BENCH_S
} cairn_bench_unit;

/* ---- registration (call from cairn_bench_register_all) ------------- */

/* Registers fn under `name` (copied) with `user` passed to every call. The
 * default unit is microseconds. Returns the definition, or NULL on failure
 * (out of memory; a message goes to stderr). */
cairn_bench_def *cairn_bench_register(const char *name, cairn_bench_fn fn,
                                      void *user);
void cairn_bench_def_unit(cairn_bench_def *def, cairn_bench_unit unit);
/* Adds one run with argument list {a} (read back with cairn_bench_arg(st,
 * 0)); the run's name gets "/a" appended. Call several times for several
 * runs. */
void cairn_bench_def_arg(cairn_bench_def *def, int64_t a);
/* Fixes the iteration count (n >= 1) instead of letting the library pick it
 * from the minimum time. */
void cairn_bench_def_iterations(cairn_bench_def *def, int64_t n);
/* Minimum seconds per run when the library picks the iteration count. */
void cairn_bench_def_min_time(cairn_bench_def *def, double seconds);
/* Times wall-clock (real) time instead of the calling thread's CPU time
 * (Benchmark::UseRealTime): for bodies that run work on other threads. */
void cairn_bench_def_real_time(cairn_bench_def *def);

/* Defined by the C side: registers every benchmark of the program. */
void cairn_bench_register_all(void);

/* ---- inside a body ------------------------------------------------- */

/* The timed loop: returns 1 while iterations remain, then 0. Call it until
 * it returns 0 (the library stops the clock on that call). */
int cairn_bench_next(cairn_bench_state *st);
/* Iterations run so far (the final count once the loop has ended). */
int64_t cairn_bench_iterations(const cairn_bench_state *st);
/* The i-th argument of this run (0 when there is none). */
int64_t cairn_bench_arg(const cairn_bench_state *st, int i);
/* Sets (or replaces) a user counter; name is copied. */
void cairn_bench_counter(cairn_bench_state *st, const char *name,
                         double value, int flags);
/* Marks the run as failed with a message (copied) and stops its timing;
 * the loop then returns 0 at once. Counters are not reported. */
void cairn_bench_skip(cairn_bench_state *st, const char *why);
/* Stops and restarts the clock inside the loop (costly: about a
 * microsecond each, so keep them out of short iterations). */
void cairn_bench_pause(cairn_bench_state *st);
void cairn_bench_resume(cairn_bench_state *st);
/* A free-text label shown beside the run; copied. */
void cairn_bench_label(cairn_bench_state *st, const char *label);

#ifdef __cplusplus
}
#endif
#endif
