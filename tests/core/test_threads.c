/* Threads: the default job backend (cairn_pool) runs every task exactly
 * once, never two at once on one worker, from any number of callers, and
 * sleeps when idle; and any number of threads search one grid at once,
 * each with its own context, getting exactly the answers one thread gets. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the pool ------------------------------------------------------- */

/* Workers a pool of `threads` has: built without threads, one. */
static uint32_t pool_workers(uint32_t threads) {
#ifdef CAIRN_TEST_NO_THREADS
  (void)threads;
  return 1;
#else
  return threads;
#endif
}

typedef struct tally {
  uint32_t workers;
  uint32_t *runs;    /* per task: calls */
  uint32_t *busy;    /* per worker: a task is running on it */
  uint32_t clashes;  /* tasks that found their worker busy */
  uint32_t bad_worker;
  uint32_t *by_worker; /* per worker: tasks run */
  unsigned sleep_us;   /* tasks on workers other than 0 sleep this long */
  int await_worker;    /* worker 0's tasks wait (up to 5 s) until another
                          worker has started a task */
} tally;

static void nap_us(unsigned us) {
  struct timespec ts = {(time_t)(us / 1000000u), (long)(us % 1000000u) * 1000L};
  nanosleep(&ts, NULL);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void count_task(void *arg, uint32_t task, uint32_t worker) {
  tally *t = arg;
  if (worker >= t->workers) {
    __atomic_add_fetch(&t->bad_worker, 1u, __ATOMIC_RELAXED);
    return;
  }
  if (__atomic_exchange_n(&t->busy[worker], 1u, __ATOMIC_ACQ_REL))
    __atomic_add_fetch(&t->clashes, 1u, __ATOMIC_RELAXED);
  __atomic_add_fetch(&t->runs[task], 1u, __ATOMIC_RELAXED);
  __atomic_add_fetch(&t->by_worker[worker], 1u, __ATOMIC_RELAXED);
  if (t->sleep_us && worker) nap_us(t->sleep_us);
  double give_up = now_s() + 5.0;
  while (t->await_worker && !worker && now_s() < give_up) {
    uint32_t others = 0;
    for (uint32_t w = 1; w < t->workers; w++)
      others += __atomic_load_n(&t->by_worker[w], __ATOMIC_RELAXED);
    if (others) break;
    nap_us(100);
  }
  __atomic_store_n(&t->busy[worker], 0u, __ATOMIC_RELEASE);
}

static tally tally_make(uint32_t workers, uint32_t max_tasks) {
  tally t;
  memset(&t, 0, sizeof t);
  t.workers = workers;
  t.runs = calloc(max_tasks, sizeof *t.runs);
  t.busy = calloc(workers, sizeof *t.busy);
  t.by_worker = calloc(workers, sizeof *t.by_worker);
  assert_non_null(t.runs);
  assert_non_null(t.busy);
  assert_non_null(t.by_worker);
  return t;
}

static void tally_free(tally *t) {
  free(t->runs);
  free(t->busy);
  free(t->by_worker);
}

/* Many runs of many sizes: each task once per run, workers in range, no
 * worker running two tasks at once, and every worker of a busy pool used. */
static void pool_runs_every_task_once(void **state) {
  (void)state;
  static const uint32_t sizes[] = {1, 2, 3, 17, 1000};
  for (uint32_t threads = 1; threads <= 4; threads++) {
    cairn_pool *p = NULL;
    assert_int_equal(cairn_pool_create(threads, NULL, &p), CAIRN_OK);
    const cairn_jobs *j = cairn_pool_jobs(p);
    assert_non_null(j);
    assert_int_equal(j->workers, pool_workers(threads));
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      uint32_t n = sizes[k], rounds = 400;
      tally t = tally_make(threads, n);
      for (uint32_t r = 0; r < rounds; r++) cairn_jobs_run(j, n, count_task, &t);
      for (uint32_t i = 0; i < n; i++) assert_int_equal(t.runs[i], rounds);
      assert_int_equal(t.clashes, 0);
      assert_int_equal(t.bad_worker, 0);
      tally_free(&t);
    }
    cairn_pool_destroy(p);
  }
}

/* A worker that is slow to finish (asleep in its task, as a descheduled
 * thread would be) is never waited on for tasks it has not started: the
 * caller takes them. The caller's first task waits until the worker has
 * started one; that one holds the worker 50 ms, in which the caller runs
 * every other task. */
static void caller_takes_what_is_left(void **state) {
  (void)state;
  cairn_pool *p = NULL;
  assert_int_equal(cairn_pool_create(2, NULL, &p), CAIRN_OK);
  if (cairn_pool_jobs(p)->workers < 2) { /* built without threads */
    cairn_pool_destroy(p);
    skip();
  }
  tally t = tally_make(2, 200);
  t.sleep_us = 50000;
  t.await_worker = 1;
  cairn_jobs_run(cairn_pool_jobs(p), 200, count_task, &t);
  for (uint32_t i = 0; i < 200; i++) assert_int_equal(t.runs[i], 1);
  print_message("caller ran %u of 200 tasks, worker 1 ran %u\n", t.by_worker[0],
                t.by_worker[1]);
  assert_true(t.by_worker[1] >= 1 && t.by_worker[1] <= 2);
  assert_int_equal(t.by_worker[0] + t.by_worker[1], 200);
  tally_free(&t);
  cairn_pool_destroy(p);
}

/* Two threads running on one pool at once: the runs are taken one after
 * the other, each complete. */
typedef struct caller {
  const cairn_jobs *jobs;
  tally t;
} caller;

static void *call_many(void *arg) {
  caller *c = arg;
  for (int r = 0; r < 300; r++) cairn_jobs_run(c->jobs, 64, count_task, &c->t);
  return NULL;
}

static void two_callers_share_a_pool(void **state) {
  (void)state;
  cairn_pool *p = NULL;
  assert_int_equal(cairn_pool_create(3, NULL, &p), CAIRN_OK);
  caller a = {cairn_pool_jobs(p), tally_make(3, 64)};
  caller b = {cairn_pool_jobs(p), tally_make(3, 64)};
  pthread_t ta, tb;
  assert_int_equal(pthread_create(&ta, NULL, call_many, &a), 0);
  assert_int_equal(pthread_create(&tb, NULL, call_many, &b), 0);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  for (uint32_t i = 0; i < 64; i++) {
    assert_int_equal(a.t.runs[i], 300);
    assert_int_equal(b.t.runs[i], 300);
  }
  assert_int_equal(a.t.clashes + b.t.clashes, 0);
  tally_free(&a.t);
  tally_free(&b.t);
  cairn_pool_destroy(p);
}

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Idle pool threads sleep: over 300 ms of waiting after some runs, the
 * process uses a small fraction of one core (a spinning worker would use
 * 300 ms a thread). */
static void idle_pool_burns_nothing(void **state) {
  (void)state;
  cairn_pool *p = NULL;
  assert_int_equal(cairn_pool_create(4, NULL, &p), CAIRN_OK);
  tally t = tally_make(4, 100);
  for (int r = 0; r < 50; r++) cairn_jobs_run(cairn_pool_jobs(p), 100, count_task, &t);
  double c0 = cpu_seconds();
  nap_us(300000);
  double used = cpu_seconds() - c0;
  print_message("idle pool of 4: %.1f ms of CPU in 300 ms\n", used * 1e3);
  assert_true(used < 0.03);
  tally_free(&t);
  cairn_pool_destroy(p);
}

typedef struct in_order {
  uint32_t next, seen[5], worker_sum;
} in_order;

static void order_task(void *arg, uint32_t task, uint32_t worker) {
  in_order *o = arg;
  o->seen[task] = o->next++;
  o->worker_sum += worker;
}

/* Without jobs, tasks run on the caller in order, on worker 0; the checks
 * and refusals. */
static void jobs_contract(void **state) {
  (void)state;
  in_order o = {0, {0}, 0};
  cairn_jobs_run(NULL, 5, order_task, &o);
  assert_int_equal(o.next, 5);
  for (uint32_t i = 0; i < 5; i++) assert_int_equal(o.seen[i], i);
  assert_int_equal(o.worker_sum, 0);
  cairn_jobs_run(NULL, 0, order_task, &o); /* nothing */
  assert_int_equal(o.next, 5);
  cairn_jobs j = {0, NULL, NULL};
  assert_int_equal(cairn_jobs_check(NULL), CAIRN_OK);
  assert_int_equal(cairn_jobs_check(&j), CAIRN_ERR_ARG); /* no run */
  cairn_pool *p = NULL;
  assert_int_equal(cairn_pool_create(2, NULL, &p), CAIRN_OK);
  j = *cairn_pool_jobs(p);
  assert_int_equal(cairn_jobs_check(&j), CAIRN_OK);
  j.workers = 0;
  assert_int_equal(cairn_jobs_check(&j), CAIRN_ERR_ARG);
  j.workers = CAIRN_JOBS_MAX_WORKERS + 1;
  assert_int_equal(cairn_jobs_check(&j), CAIRN_ERR_ARG);
  cairn_pool_destroy(p);
  assert_int_equal(cairn_pool_create(2, NULL, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_pool_create(CAIRN_JOBS_MAX_WORKERS + 1, NULL, &p), CAIRN_ERR_ARG);
  assert_null(p);
  assert_int_equal(cairn_pool_create(0, NULL, &p), CAIRN_OK); /* every core */
  assert_true(cairn_cpu_count() >= 1);
  assert_int_equal(cairn_pool_jobs(p)->workers, pool_workers(cairn_cpu_count()));
  cairn_pool_destroy(p);
  assert_null(cairn_pool_jobs(NULL));
  cairn_pool_destroy(NULL);
}

/* ---- queries on one grid from many threads --------------------------- */

enum { QUERIES = 3000, QUERY_CHUNK = 7 };

typedef struct answer {
  cairn_status status;
  cairn_cost cost;
  uint64_t expanded, path_hash;
} answer;

static uint64_t hash_path(const cairn_result *r) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < r->path_len; i++) {
    h = (h ^ (uint64_t)(uint32_t)r->path[i].x) * 1099511628211ull;
    h = (h ^ (uint64_t)(uint32_t)r->path[i].y) * 1099511628211ull;
  }
  return h;
}

static void solve(cairn_search *s, const cairn_grid *g, const cairn_point *q,
                  int i, answer *out) {
  cairn_search_opts o = cairn_search_defaults();
  o.heuristic = (cairn_heuristic)(i % 4 == 1 ? CAIRN_H_EUCLIDEAN : CAIRN_H_OCTILE);
  cairn_result r;
  out->status = cairn_astar(s, g, q[2 * i], q[2 * i + 1], &o, &r);
  out->cost = r.cost;
  out->expanded = r.expanded;
  out->path_hash = hash_path(&r);
}

typedef struct queries {
  const cairn_grid *g;
  const cairn_point *q;
  cairn_search **ctx; /* per worker */
  answer *got;
} queries;

static void query_task(void *arg, uint32_t task, uint32_t worker) {
  queries *w = arg;
  for (int i = (int)task * QUERY_CHUNK; i < QUERIES && i < ((int)task + 1) * QUERY_CHUNK; i++)
    solve(w->ctx[worker], w->g, w->q, i, &w->got[i]);
}

static void concurrent_grid_queries(void **state) {
  (void)state;
  uint64_t rng = 77;
  cairn_grid *g = tu_random_grid(&rng, 200, 150, 30, 4);
  cairn_point *q = malloc(2 * QUERIES * sizeof *q);
  answer *want = malloc(QUERIES * sizeof *want);
  answer *got = calloc(QUERIES, sizeof *got);
  assert_non_null(q);
  assert_non_null(want);
  assert_non_null(got);
  for (int i = 0; i < 2 * QUERIES; i++) q[i] = tu_random_open(&rng, g);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  for (int i = 0; i < QUERIES; i++) solve(s, g, q, i, &want[i]);
  cairn_search_destroy(s);
  cairn_pool *p = NULL;
  assert_int_equal(cairn_pool_create(4, NULL, &p), CAIRN_OK);
  uint32_t nw = cairn_pool_jobs(p)->workers;
  cairn_search *ctx[4] = {NULL};
  for (uint32_t w = 0; w < nw; w++) assert_int_equal(cairn_search_create(NULL, &ctx[w]), CAIRN_OK);
  queries work = {g, q, ctx, got};
  cairn_jobs_run(cairn_pool_jobs(p), (QUERIES + QUERY_CHUNK - 1) / QUERY_CHUNK, query_task,
                 &work);
  print_message("%d queries on %u workers\n", QUERIES, nw);
  for (int i = 0; i < QUERIES; i++) {
    assert_int_equal(got[i].status, want[i].status);
    assert_true(got[i].cost == want[i].cost);
    assert_true(got[i].expanded == want[i].expanded);
    assert_true(got[i].path_hash == want[i].path_hash);
  }
  for (uint32_t w = 0; w < nw; w++) cairn_search_destroy(ctx[w]);
  cairn_pool_destroy(p);
  free(q);
  free(want);
  free(got);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pool_runs_every_task_once),
      cmocka_unit_test(caller_takes_what_is_left),
      cmocka_unit_test(two_callers_share_a_pool),
      cmocka_unit_test(idle_pool_burns_nothing),
      cmocka_unit_test(jobs_contract),
      cmocka_unit_test(concurrent_grid_queries),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
