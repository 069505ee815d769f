/* cairn_jobs_run and the default backend, cairn_pool: threads - 1 sleeping
 * threads and the caller. A run publishes (fn, arg, n) under a generation;
 * every thread, the caller first, claims task indices from one counter
 * until none is left. The caller waits only for tasks already claimed, so
 * a thread the system has descheduled delays a run by at most the task it
 * holds, never by a share it has not started. A thread with nothing to do
 * polls briefly, yielding its core all the while, then blocks on a
 * condition variable: an idle pool uses no CPU. */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#endif
#include "core_internal.h"

#include <string.h>

#if !defined(CAIRN_NO_THREADS) && !defined(CAIRN_WIN32_THREADS)
#include <sched.h>
#include <unistd.h>
#endif

void cairn_jobs_run(const cairn_jobs *jobs, uint32_t n, cairn_task_fn fn,
                    void *arg) {
  if (!n || !fn) return;
  if (jobs && jobs->workers > 1 && n > 1) {
    jobs->run(jobs->user, n, fn, arg);
    return;
  }
  for (uint32_t t = 0; t < n; t++) fn(arg, t, 0);
}

cairn_status cairn_jobs_check(const cairn_jobs *jobs) {
  if (!jobs) return CAIRN_OK;
  if (!jobs->run || jobs->workers < 1 || jobs->workers > CAIRN_JOBS_MAX_WORKERS)
    return CAIRN_ERR_ARG;
  return CAIRN_OK;
}

uint32_t cairn_cpu_count(void) {
#if defined(CAIRN_NO_THREADS)
  return 1;
#elif defined(CAIRN_WIN32_THREADS)
  DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
  return n ? (uint32_t)n : 1u;
#else
#ifdef CPU_COUNT
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return (uint32_t)CPU_COUNT(&set);
#endif
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (uint32_t)n : 1u;
#endif
}

/* ---- the pool ------------------------------------------------------- */

#if !defined(CAIRN_NO_THREADS)
#if defined(CAIRN_WIN32_THREADS)
typedef CONDITION_VARIABLE pool_cond;
typedef HANDLE pool_thread;
static void cond_init(pool_cond *c) { InitializeConditionVariable(c); }
static void cond_destroy(pool_cond *c) { (void)c; }
static void cond_wait(pool_cond *c, cairn__mutex *m) {
  SleepConditionVariableSRW(c, &m->lock, INFINITE, 0);
}
static void cond_signal(pool_cond *c) { WakeConditionVariable(c); }
static void cond_broadcast(pool_cond *c) { WakeAllConditionVariable(c); }
#else
typedef pthread_cond_t pool_cond;
typedef pthread_t pool_thread;
static void cond_init(pool_cond *c) { pthread_cond_init(c, NULL); }
static void cond_destroy(pool_cond *c) { pthread_cond_destroy(c); }
static void cond_wait(pool_cond *c, cairn__mutex *m) { pthread_cond_wait(c, &m->lock); }
static void cond_signal(pool_cond *c) { pthread_cond_signal(c); }
static void cond_broadcast(pool_cond *c) { pthread_cond_broadcast(c); }
#endif

/* 64-bit claim counter and 32-bit done counter, ordered (acquire/release):
 * a task's writes are visible to the caller once it counts as done. */
#if defined(_MSC_VER) && !defined(__clang__)
static uint64_t load64(const uint64_t *p) {
  return (uint64_t)_InterlockedCompareExchange64((volatile __int64 *)p, 0, 0);
}
static int cas64(uint64_t *p, uint64_t *expect, uint64_t want) {
  __int64 seen = _InterlockedCompareExchange64((volatile __int64 *)p, (__int64)want,
                                               (__int64)*expect);
  if ((uint64_t)seen == *expect) return 1;
  *expect = (uint64_t)seen;
  return 0;
}
static void store64(uint64_t *p, uint64_t v) {
  _InterlockedExchange64((volatile __int64 *)p, (__int64)v);
}
static uint32_t add_done(uint32_t *p) {
  return (uint32_t)_InterlockedIncrement((volatile long *)p);
}
static uint32_t load_done(const uint32_t *p) {
  return (uint32_t)_InterlockedCompareExchange((volatile long *)p, 0, 0);
}
static void store_done(uint32_t *p, uint32_t v) {
  _InterlockedExchange((volatile long *)p, (long)v);
}
#else
static uint64_t load64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static int cas64(uint64_t *p, uint64_t *expect, uint64_t want) {
  return __atomic_compare_exchange_n(p, expect, want, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE);
}
static void store64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
/* the count after this task */
static uint32_t add_done(uint32_t *p) { return __atomic_add_fetch(p, 1u, __ATOMIC_ACQ_REL); }
static uint32_t load_done(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void store_done(uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
#endif

/* ---- waiting: a short, yielding spin, then sleep --------------------- */

/* How long a thread polls before it sleeps: a worker for the next run, the
 * caller for a task still running elsewhere. Runs of one tick follow each
 * other within microseconds, and waking a sleeping thread costs tens of
 * microseconds on a virtual machine (more than a light pass takes), so a
 * thread polls this long first. It yields the core on every few polls:
 * another thread that wants this core (the game's, or a worker sharing
 * the caller's core) gets it, so the poll costs only an idle core's time. */
#ifndef CAIRN_POOL_SPIN_NS
#define CAIRN_POOL_SPIN_NS 100000
#endif

static void cpu_relax(void) {
#if defined(_MSC_VER) && !defined(__clang__)
  YieldProcessor();
#elif defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

static void yield_core(void) {
#if defined(CAIRN_WIN32_THREADS)
  SwitchToThread();
#else
  sched_yield();
#endif
}

typedef int (*poll_fn)(const void *what, uint32_t value);

/* Polls until done(what, value) holds or CAIRN_POOL_SPIN_NS have passed;
 * returns whether it holds. */
static int spin_until(poll_fn done, const void *what, uint32_t value) {
  uint64_t end = 0;
  for (uint32_t i = 1;; i++) {
    if (done(what, value)) return 1;
    cpu_relax();
    if (i % 32) continue;
    uint64_t t = cairn__now_ns();
    if (!end) end = t + CAIRN_POOL_SPIN_NS;
    else if (t >= end) return done(what, value);
    yield_core();
  }
}

typedef struct pool_worker {
  cairn_pool *pool;
  uint32_t index; /* 1 .. threads - 1; the caller is 0 */
  pool_thread thread;
} pool_worker;
#endif

struct cairn_pool {
  cairn_allocator alloc;
  cairn_jobs jobs;
  uint32_t threads; /* workers, the caller included */
#if !defined(CAIRN_NO_THREADS)
  pool_worker *worker; /* threads - 1 */
  uint32_t started;    /* threads running */
  cairn__mutex run_lock; /* one run at a time */
  cairn__mutex lock;     /* guards the fields below but the two counters */
  pool_cond wake;        /* a new job, or stop */
  pool_cond finished;    /* the last task of a job returned */
  cairn_task_fn fn;
  void *arg;
  uint32_t n, gen;
  uint32_t sleeping;     /* threads waiting on wake */
  int caller_waits;      /* the caller waits on finished */
  int stop;
  uint64_t next;         /* gen << 32 | next unclaimed task (atomic) */
  uint32_t done;         /* tasks returned in this job (atomic) */
#endif
};

#if !defined(CAIRN_NO_THREADS)
/* Claims and runs tasks of job `gen` until none is left (or a newer job
 * replaced it, seen by a thread that woke late). */
static void work(cairn_pool *p, uint32_t gen, cairn_task_fn fn, void *arg,
                 uint32_t n, uint32_t worker) {
  uint64_t v = load64(&p->next);
  for (;;) {
    if ((uint32_t)(v >> 32) != gen || (uint32_t)v >= n) return;
    if (!cas64(&p->next, &v, v + 1)) continue; /* v reloaded */
    fn(arg, (uint32_t)v, worker);
    if (add_done(&p->done) == n) {
      cairn__mutex_lock(&p->lock);
      if (p->caller_waits) cond_signal(&p->finished);
      cairn__mutex_unlock(&p->lock);
      return;
    }
    v = load64(&p->next);
  }
}

/* A job other than `seen` was published (the claim counter names it). */
static int new_job(const void *pool, uint32_t seen) {
  const cairn_pool *p = pool;
  return (uint32_t)(load64(&p->next) >> 32) != seen;
}

/* The job of n tasks has none running any more. */
static int job_done(const void *pool, uint32_t n) {
  return load_done(&((const cairn_pool *)pool)->done) == n;
}

#if defined(CAIRN_WIN32_THREADS)
static DWORD WINAPI worker_main(LPVOID arg) {
#else
static void *worker_main(void *arg) {
#endif
  pool_worker *w = arg;
  cairn_pool *p = w->pool;
  cairn__mutex_lock(&p->lock);
  /* jobs are numbered from 1: a thread that starts late still takes the
   * job in progress (stale claims fail on the generation) */
  uint32_t seen = 0;
  for (;;) {
    if (p->gen == seen && !p->stop && seen) {
      cairn__mutex_unlock(&p->lock);
      spin_until(new_job, p, seen);
      cairn__mutex_lock(&p->lock);
    }
    while (p->gen == seen && !p->stop) {
      p->sleeping++;
      cond_wait(&p->wake, &p->lock);
      p->sleeping--;
    }
    if (p->stop) break;
    seen = p->gen;
    cairn_task_fn fn = p->fn;
    void *arg2 = p->arg;
    uint32_t n = p->n;
    cairn__mutex_unlock(&p->lock);
    work(p, seen, fn, arg2, n, w->index);
    cairn__mutex_lock(&p->lock);
  }
  cairn__mutex_unlock(&p->lock);
#if defined(CAIRN_WIN32_THREADS)
  return 0;
#else
  return NULL;
#endif
}

static void pool_run(void *user, uint32_t n, cairn_task_fn fn, void *arg) {
  cairn_pool *p = user;
  if (n < 2) { /* nothing to share */
    if (n) fn(arg, 0, 0);
    return;
  }
  cairn__mutex_lock(&p->run_lock);
  cairn__mutex_lock(&p->lock);
  uint32_t gen = ++p->gen;
  p->fn = fn;
  p->arg = arg;
  p->n = n;
  store_done(&p->done, 0);
  store64(&p->next, (uint64_t)gen << 32);
  /* wake no more sleepers than there are tasks for; a thread still
   * awake from the last job sees the new one when it takes the lock */
  uint32_t want = n - 1 < p->threads - 1 ? n - 1 : p->threads - 1;
  if (want >= p->sleeping) {
    if (p->sleeping) cond_broadcast(&p->wake);
  } else {
    for (uint32_t i = 0; i < want; i++) cond_signal(&p->wake);
  }
  cairn__mutex_unlock(&p->lock);
  work(p, gen, fn, arg, n, 0);
  if (!spin_until(job_done, p, n)) {
    cairn__mutex_lock(&p->lock);
    p->caller_waits = 1;
    while (load_done(&p->done) != n) cond_wait(&p->finished, &p->lock);
    p->caller_waits = 0;
    cairn__mutex_unlock(&p->lock);
  }
  cairn__mutex_unlock(&p->run_lock);
}

static int start_thread(pool_worker *w) {
#if defined(CAIRN_WIN32_THREADS)
  w->thread = CreateThread(NULL, 0, worker_main, w, 0, NULL);
  return w->thread != NULL;
#else
  return pthread_create(&w->thread, NULL, worker_main, w) == 0;
#endif
}

static void join_thread(pool_worker *w) {
#if defined(CAIRN_WIN32_THREADS)
  WaitForSingleObject(w->thread, INFINITE);
  CloseHandle(w->thread);
#else
  pthread_join(w->thread, NULL);
#endif
}

static void stop_threads(cairn_pool *p) {
  cairn__mutex_lock(&p->lock);
  p->stop = 1;
  cond_broadcast(&p->wake);
  cairn__mutex_unlock(&p->lock);
  for (uint32_t i = 0; i < p->started; i++) join_thread(&p->worker[i]);
  p->started = 0;
}

static cairn_status start_threads(cairn_pool *p) {
  if (p->threads < 2) return CAIRN_OK;
  p->worker = cairn__alloc(&p->alloc, (p->threads - 1) * sizeof *p->worker);
  if (!p->worker) return CAIRN_ERR_NOMEM;
  cairn_status st = cairn__mutex_init(&p->run_lock);
  if (st != CAIRN_OK) return st;
  st = cairn__mutex_init(&p->lock);
  if (st != CAIRN_OK) {
    cairn__mutex_destroy(&p->run_lock);
    return st;
  }
  cond_init(&p->wake);
  cond_init(&p->finished);
  for (uint32_t i = 0; i + 1 < p->threads; i++) {
    p->worker[i].pool = p;
    p->worker[i].index = i + 1;
    if (!start_thread(&p->worker[i])) {
      stop_threads(p);
      cond_destroy(&p->wake);
      cond_destroy(&p->finished);
      cairn__mutex_destroy(&p->lock);
      cairn__mutex_destroy(&p->run_lock);
      return CAIRN_ERR_NOMEM;
    }
    p->started++;
  }
  p->jobs.run = pool_run;
  return CAIRN_OK;
}
#endif

/* A pool of one: every task on the caller, in order. */
static void serial_run(void *user, uint32_t n, cairn_task_fn fn, void *arg) {
  (void)user;
  for (uint32_t t = 0; t < n; t++) fn(arg, t, 0);
}

cairn_status cairn_pool_create(uint32_t threads, const cairn_allocator *alloc,
                               cairn_pool **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (threads > CAIRN_JOBS_MAX_WORKERS) return CAIRN_ERR_ARG;
  if (!threads) threads = cairn_cpu_count();
  if (threads > CAIRN_JOBS_MAX_WORKERS) threads = CAIRN_JOBS_MAX_WORKERS;
#if defined(CAIRN_NO_THREADS)
  threads = 1;
#endif
  cairn_allocator a = cairn__allocator(alloc);
  cairn_pool *p = cairn__alloc_zero(&a, sizeof *p);
  if (!p) return CAIRN_ERR_NOMEM;
  p->alloc = a;
  p->threads = threads;
  p->jobs.workers = threads;
  p->jobs.run = serial_run;
  p->jobs.user = p;
#if !defined(CAIRN_NO_THREADS)
  cairn_status st = start_threads(p);
  if (st != CAIRN_OK) {
    if (p->worker) cairn__free(&a, p->worker, (threads - 1) * sizeof *p->worker);
    cairn__free(&a, p, sizeof *p);
    return st;
  }
#endif
  *out = p;
  return CAIRN_OK;
}

void cairn_pool_destroy(cairn_pool *p) {
  if (!p) return;
  cairn_allocator a = p->alloc;
#if !defined(CAIRN_NO_THREADS)
  if (p->threads > 1) {
    stop_threads(p);
    cond_destroy(&p->wake);
    cond_destroy(&p->finished);
    cairn__mutex_destroy(&p->lock);
    cairn__mutex_destroy(&p->run_lock);
    cairn__free(&a, p->worker, (p->threads - 1) * sizeof *p->worker);
  }
#endif
  cairn__free(&a, p, sizeof *p);
}

const cairn_jobs *cairn_pool_jobs(const cairn_pool *p) { return p ? &p->jobs : NULL; }
