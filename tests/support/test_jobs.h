/* Schedulers for the tests' "results never depend on the scheduler"
 * checks: cairn_jobs that run every task on the calling thread, in
 * reverse order or in a shuffled order, naming workers as a real pool
 * might (task t on worker (t * 7 + salt) % workers), so per-worker scratch
 * is exercised at every index. Header-only, for any test file. */
#ifndef CAIRN_TEST_JOBS_H
#define CAIRN_TEST_JOBS_H

#include "cairn/core.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct tj_sched {
  cairn_jobs jobs;
  int shuffle;   /* 0: reverse order; 1: a shuffled order */
  uint64_t seed; /* the shuffle's state, advanced by every run */
  uint32_t runs; /* runs so far */
  uint64_t tasks; /* tasks run so far */
} tj_sched;

static inline uint64_t tj_next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static inline void tj_run(void *user, uint32_t n, cairn_task_fn fn, void *arg) {
  tj_sched *s = user;
  uint32_t salt = s->runs++;
  s->tasks += n;
  if (!s->shuffle) {
    for (uint32_t t = n; t-- > 0;) fn(arg, t, (t * 7u + salt) % s->jobs.workers);
    return;
  }
  uint32_t *order = malloc((size_t)n * sizeof *order);
  if (!order) abort();
  for (uint32_t t = 0; t < n; t++) order[t] = t;
  for (uint32_t t = n; t > 1; t--) {
    uint32_t j = (uint32_t)(tj_next(&s->seed) % t), v = order[t - 1];
    order[t - 1] = order[j];
    order[j] = v;
  }
  for (uint32_t i = 0; i < n; i++)
    fn(arg, order[i], (order[i] * 7u + salt) % s->jobs.workers);
  free(order);
}

/* A scheduler claiming `workers` workers; shuffle 0 runs in reverse. */
static inline tj_sched tj_make(uint32_t workers, int shuffle, uint64_t seed) {
  tj_sched s;
  s.jobs.workers = workers;
  s.jobs.run = tj_run;
  s.jobs.user = NULL; /* set by tj_jobs, once s has its final address */
  s.shuffle = shuffle;
  s.seed = seed;
  s.runs = 0;
  s.tasks = 0;
  return s;
}

/* The cairn_jobs of s (s must not move afterwards). */
static inline const cairn_jobs *tj_jobs(tj_sched *s) {
  s->jobs.user = s;
  return &s->jobs;
}

#endif
