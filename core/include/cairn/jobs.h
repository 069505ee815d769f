/**
 * @file cairn/jobs.h
 * @brief Parallel work on the caller's scheduler (cairn_jobs) and the
 * default thread pool (cairn_pool). Part of cairn/core.h.
 */
#ifndef CAIRN_JOBS_H
#define CAIRN_JOBS_H

#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- jobs: parallel work on the caller's scheduler ------------------- */

/** One task of a parallel pass.
 *
 * Every parallel pass in cairn (the crowd tick, hierarchy builds and edits,
 * landmarks, flow-field row passes and batch builds) is a set of n
 * independent tasks handed to a cairn_jobs: the game's own job system, a
 * fiber scheduler, or cairn's default thread pool (cairn_pool below).
 * @param arg the argument given to cairn_jobs::run
 * @param task the task's index, 0 .. n - 1
 * @param worker the index of the worker running it, 0 .. workers - 1 */
typedef void (*cairn_task_fn)(void *arg, uint32_t task, uint32_t worker);
/** Most workers a cairn_jobs may report. */
#define CAIRN_JOBS_MAX_WORKERS 256
/** A scheduler that runs cairn's tasks.
 *
 * run(user, n, fn, arg) must call fn(arg, task, worker) exactly once for
 * every task in 0 .. n - 1, in any order, on any threads, and return only
 * when all n calls have returned. worker is the index of the worker running
 * the call, in 0 .. workers - 1; two calls that overlap in time must have
 * different workers (cairn keeps per-worker scratch by it). Running every
 * task on the calling thread in order, with worker 0, is a valid run.
 * cairn calls run from the thread that called into cairn, one run at a
 * time per object, never from inside a task. Results never depend on the
 * order, the threads or the worker count: the same bits whatever the
 * scheduler. The struct is read at each call that takes it and must stay
 * unchanged (and outlive the objects created with it). */
typedef struct cairn_jobs {
  uint32_t workers; /**< 1 .. CAIRN_JOBS_MAX_WORKERS */
  /** Runs tasks 0 .. n - 1 of fn(arg, task, worker) (see above). */
  void (*run)(void *user, uint32_t n, cairn_task_fn fn, void *arg);
  void *user; /**< passed to every call of run */
} cairn_jobs;

/** Runs the n tasks through jobs, or on the calling thread in order with
 * worker 0 when jobs is NULL. Nothing happens for n == 0.
 * @param[in] jobs the scheduler, or NULL
 * @param[in] n number of tasks
 * @param[in] fn the task function
 * @param[in] arg passed to every call of fn */
CAIRN_CORE_API void cairn_jobs_run(const cairn_jobs *jobs, uint32_t n, cairn_task_fn fn,
                    void *arg);
/** Checks a cairn_jobs before use.
 * @param[in] jobs the scheduler, or NULL
 * @return CAIRN_OK, or CAIRN_ERR_ARG unless jobs is NULL or has a run
 * function and workers in 1 .. CAIRN_JOBS_MAX_WORKERS */
CAIRN_CORE_API cairn_status cairn_jobs_check(const cairn_jobs *jobs);

/** The default backend: a pool of threads - 1 threads plus the thread that
 * calls run (worker 0), which never waits for a task no thread has
 * started: it takes every task still unclaimed itself and waits only for
 * tasks already running elsewhere. Idle threads sleep (no spinning), so a
 * pool costs nothing while the game's own threads need the cores. A pool
 * is what every module uses when its options give no jobs and threads is
 * not 1: each such object then owns a pool of its own. To share one set
 * of threads between objects, create one pool and pass cairn_pool_jobs. */
typedef struct cairn_pool cairn_pool;
/** Creates a pool.
 *
 * threads: 1 .. CAIRN_JOBS_MAX_WORKERS, 0 = the machine's cores
 * (cairn_cpu_count); 1 starts no thread. Built without thread support
 * (CAIRN_THREADS=OFF), a pool runs every task on the calling thread and
 * reports 1 worker. Runs may come from any thread; two at once are taken
 * one after the other. A task must not call run on its own pool.
 * @param[in] threads workers, the calling thread included; 0 = every core
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the pool
 * @return CAIRN_OK; CAIRN_ERR_ARG for a NULL out or too many threads,
 * CAIRN_ERR_NOMEM when memory or threads cannot be had */
CAIRN_CORE_API cairn_status cairn_pool_create(uint32_t threads, const cairn_allocator *alloc,
                               cairn_pool **out);
/** Joins the threads; no run may be in progress. NULL is ignored.
 * @param[in] pool the pool, or NULL */
CAIRN_CORE_API void cairn_pool_destroy(cairn_pool *pool);
/** The pool as a cairn_jobs, valid until the pool is destroyed.
 * @param[in] pool the pool
 * @return the pool's scheduler */
CAIRN_CORE_API const cairn_jobs *cairn_pool_jobs(const cairn_pool *pool);
/** The processors this process may run on (at least 1).
 * @return the processor count */
CAIRN_CORE_API uint32_t cairn_cpu_count(void);

#ifdef __cplusplus
}
#endif
#endif
