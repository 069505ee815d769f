/* Private to cairn's modules: locks, relaxed atomics, and the jobs an
 * object runs its parallel passes through (the caller's, or a pool of its
 * own). Not installed; include paths give it to every module's src/. */
#ifndef CAIRN_THREAD_H
#define CAIRN_THREAD_H

#include "cairn/core.h"

#include <stdint.h>

#if defined(CAIRN_NO_THREADS)
/* one thread: locks do nothing */
#elif defined(_WIN32)
#define CAIRN_WIN32_THREADS 1
#include <windows.h>
#else
#include <pthread.h>
#endif

/* ---- a lock --------------------------------------------------------- */

typedef struct cairn__mutex {
#if defined(CAIRN_NO_THREADS)
  int unused;
#elif defined(CAIRN_WIN32_THREADS)
  SRWLOCK lock;
#else
  pthread_mutex_t lock;
#endif
} cairn__mutex;

/* Inline, like everything here but the clock, so that no module calls
 * into another for them and the libraries export no internal symbol.
 * cairn__mutex_init: CAIRN_ERR_NOMEM when the system refuses a lock. */
#if defined(CAIRN_NO_THREADS)
static inline cairn_status cairn__mutex_init(cairn__mutex *m) {
  m->unused = 0;
  return CAIRN_OK;
}
static inline void cairn__mutex_destroy(cairn__mutex *m) { (void)m; }
static inline void cairn__mutex_lock(cairn__mutex *m) { (void)m; }
static inline void cairn__mutex_unlock(cairn__mutex *m) { (void)m; }
#elif defined(CAIRN_WIN32_THREADS)
static inline cairn_status cairn__mutex_init(cairn__mutex *m) {
  InitializeSRWLock(&m->lock);
  return CAIRN_OK;
}
static inline void cairn__mutex_destroy(cairn__mutex *m) { (void)m; }
static inline void cairn__mutex_lock(cairn__mutex *m) { AcquireSRWLockExclusive(&m->lock); }
static inline void cairn__mutex_unlock(cairn__mutex *m) { ReleaseSRWLockExclusive(&m->lock); }
#else
static inline cairn_status cairn__mutex_init(cairn__mutex *m) {
  return pthread_mutex_init(&m->lock, NULL) ? CAIRN_ERR_NOMEM : CAIRN_OK;
}
static inline void cairn__mutex_destroy(cairn__mutex *m) { pthread_mutex_destroy(&m->lock); }
static inline void cairn__mutex_lock(cairn__mutex *m) { pthread_mutex_lock(&m->lock); }
static inline void cairn__mutex_unlock(cairn__mutex *m) { pthread_mutex_unlock(&m->lock); }
#endif

/* ---- relaxed atomics on plain integers ------------------------------ */
/* Counters that tasks bump at once (the crowd's bins): no ordering is
 * implied; the end of a run orders everything before the next. */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static inline uint32_t cairn__atomic_inc(uint32_t *p) {
  return (uint32_t)_InterlockedIncrement((volatile long *)p) - 1u;
}
static inline uint32_t cairn__atomic_dec(uint32_t *p) {
  return (uint32_t)_InterlockedDecrement((volatile long *)p);
}
static inline uint32_t cairn__atomic_load(const uint32_t *p) {
  return *(const volatile uint32_t *)p;
}
static inline void cairn__atomic_store(uint32_t *p, uint32_t v) {
  *(volatile uint32_t *)p = v;
}
#else
/* the value before the increment */
static inline uint32_t cairn__atomic_inc(uint32_t *p) {
  return __atomic_fetch_add(p, 1u, __ATOMIC_RELAXED);
}
/* the value after the decrement */
static inline uint32_t cairn__atomic_dec(uint32_t *p) {
  return __atomic_sub_fetch(p, 1u, __ATOMIC_RELAXED);
}
static inline uint32_t cairn__atomic_load(const uint32_t *p) {
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}
static inline void cairn__atomic_store(uint32_t *p, uint32_t v) {
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
}
#endif

/* ---- an object's jobs ----------------------------------------------- */

/* What an object's parallel passes run through: the caller's jobs when its
 * options gave some, else a pool the object owns (threads 0 = every core,
 * 1 = none: the passes run on the calling thread). */
typedef struct cairn__workers {
  const cairn_jobs *jobs; /* NULL: on the calling thread */
  cairn_pool *own;        /* the pool behind jobs when the object made it */
} cairn__workers;

/* CAIRN_ERR_ARG for bad jobs or threads outside 0 ..
 * CAIRN_JOBS_MAX_WORKERS, CAIRN_ERR_NOMEM. */
static inline cairn_status cairn__workers_init(cairn__workers *w,
                                               const cairn_jobs *jobs, int threads,
                                               const cairn_allocator *alloc) {
  w->jobs = NULL;
  w->own = NULL;
  if (cairn_jobs_check(jobs) != CAIRN_OK || threads < 0 ||
      threads > CAIRN_JOBS_MAX_WORKERS)
    return CAIRN_ERR_ARG;
  if (jobs) {
    w->jobs = jobs;
    return CAIRN_OK;
  }
  if (threads == 1 || (threads == 0 && cairn_cpu_count() == 1)) return CAIRN_OK;
  cairn_status st = cairn_pool_create((uint32_t)threads, alloc, &w->own);
  if (st != CAIRN_OK) return st;
  w->jobs = cairn_pool_jobs(w->own);
  return CAIRN_OK;
}

static inline void cairn__workers_free(cairn__workers *w) {
  cairn_pool_destroy(w->own);
  w->own = NULL;
  w->jobs = NULL;
}
/* Workers a task's index may name (1 without jobs). */
static inline uint32_t cairn__workers_count(const cairn__workers *w) {
  return w->jobs ? w->jobs->workers : 1u;
}
static inline void cairn__workers_run(const cairn__workers *w, uint32_t n,
                                      cairn_task_fn fn, void *arg) {
  cairn_jobs_run(w->jobs, n, fn, arg);
}

#endif
