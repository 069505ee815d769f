/* Plugging a game engine's own job system into cairn.
 *
 * An engine already has worker threads; cairn should run its parallel
 * passes (hierarchy builds, crowd ticks, flow-field rows) on them instead
 * of starting threads of its own that fight the engine's for the cores.
 * Here a tiny pthread pool stands in for the engine's job system: it is
 * wrapped in a cairn_jobs and handed to an HPA* hierarchy and a crowd.
 * Both must give the very same answers as a run on one thread (cairn's
 * results never depend on the scheduler), which this program checks. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <cairn/core.h>
#include <cairn/crowd.h>
#include <cairn/hierarchy.h>

/* ---- the "engine's" job system ----------------------------------------
 * workers - 1 threads plus the thread that calls run (worker 0). One run
 * at a time: its tasks are handed out one by one under a mutex, which is
 * slow next to a real engine's lock-free queues but plainly correct. */
typedef struct pool {
  pthread_t *threads;
  pthread_mutex_t run_lock; /* one run at a time, whoever calls */
  pthread_mutex_t lock;     /* guards everything below */
  pthread_cond_t wake;      /* a run started, or quit */
  pthread_cond_t done;      /* the run's last task returned */
  cairn_task_fn fn;
  void *arg;
  uint32_t tasks, next, finished; /* the current run */
  uint64_t ran;                   /* tasks run since the start */
  int quit;
} pool;

typedef struct worker {
  pool *p;
  uint32_t index;
} worker;

/* Takes the next task and runs it with the lock released. Called, and
 * returns, with the lock held. A task's function and argument are read
 * with its number, so a thread never mixes two runs. */
static void run_next(pool *p, uint32_t index) {
  uint32_t task = p->next++;
  cairn_task_fn fn = p->fn;
  void *arg = p->arg;
  pthread_mutex_unlock(&p->lock);
  fn(arg, task, index);
  pthread_mutex_lock(&p->lock);
  p->ran++;
  if (++p->finished == p->tasks) pthread_cond_signal(&p->done);
}

static void *worker_main(void *arg) {
  worker *w = arg;
  pool *p = w->p;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (!p->quit && p->next >= p->tasks) pthread_cond_wait(&p->wake, &p->lock);
    if (p->quit) break;
    run_next(p, w->index);
  }
  pthread_mutex_unlock(&p->lock);
  free(w);
  return NULL;
}

/* cairn_jobs.run: every task exactly once; back when all have returned. */
static void pool_run(void *user, uint32_t n, cairn_task_fn fn, void *arg) {
  pool *p = user;
  pthread_mutex_lock(&p->run_lock);
  pthread_mutex_lock(&p->lock);
  p->fn = fn;
  p->arg = arg;
  p->tasks = n;
  p->next = p->finished = 0;
  pthread_cond_broadcast(&p->wake);
  while (p->next < p->tasks) run_next(p, 0); /* the caller works too */
  while (p->finished < p->tasks) pthread_cond_wait(&p->done, &p->lock);
  pthread_mutex_unlock(&p->lock);
  pthread_mutex_unlock(&p->run_lock);
}

static void pool_destroy(pool *p, uint32_t started) {
  pthread_mutex_lock(&p->lock);
  p->quit = 1;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  for (uint32_t i = 0; i < started; i++) pthread_join(p->threads[i], NULL);
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->lock);
  pthread_mutex_destroy(&p->run_lock);
  free(p->threads);
  free(p);
}

static pool *pool_create(uint32_t workers) {
  pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->threads = calloc(workers, sizeof *p->threads);
  pthread_mutex_init(&p->run_lock, NULL);
  pthread_mutex_init(&p->lock, NULL);
  pthread_cond_init(&p->wake, NULL);
  pthread_cond_init(&p->done, NULL);
  uint32_t started = 0;
  for (; p->threads && started + 1 < workers; started++) {
    worker *w = malloc(sizeof *w);
    if (!w) break;
    *w = (worker){p, started + 1};
    if (pthread_create(&p->threads[started], NULL, worker_main, w) != 0) {
      free(w);
      break;
    }
  }
  if (!p->threads || started + 1 < workers) {
    pool_destroy(p, started);
    return NULL;
  }
  return p;
}

/* ---- the map: walls with doors, and scattered rocks ------------------ */
#define SIDE 192
#define AGENTS 400
#define TICKS 200

static uint32_t next_rand(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

static cairn_grid *make_map(void) {
  cairn_grid *g = NULL;
  if (cairn_grid_create(SIDE, SIDE, 1, NULL, &g) != CAIRN_OK) return NULL;
  uint32_t seed = 7;
  for (int32_t y = 0; y < SIDE; y++)
    for (int32_t x = 0; x < SIDE; x++) {
      int wall = x % 24 == 12 && (y + 5 * x) % 48 > 5; /* doors of 6 cells */
      int rock = next_rand(&seed) % 100 < 12;
      if (wall || rock) cairn_grid_set_cost(g, x, y, 0);
    }
  for (int32_t y = 0; y < 4; y++) /* the start and goal corners open */
    for (int32_t x = 0; x < 4; x++) {
      cairn_grid_set_cost(g, x, y, 1);
      cairn_grid_set_cost(g, SIDE - 1 - x, SIDE - 1 - y, 1);
    }
  cairn_grid_update_islands(g);
  return g;
}

/* ---- (a) a hierarchy and one long query ------------------------------ */
static cairn_status hpa_cost(const cairn_grid *g, const cairn_jobs *jobs,
                             cairn_cost *cost) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.jobs = jobs;
  o.threads = 1; /* read only when jobs is NULL: then all on this thread */
  cairn_hpa *h = NULL;
  cairn_hpa_query *q = NULL;
  cairn_hpa_result r;
  cairn_point from = {1, 1}, to = {SIDE - 2, SIDE - 2};
  cairn_status st = cairn_hpa_create(g, &o, NULL, &h);
  if (st == CAIRN_OK) st = cairn_hpa_query_create(NULL, &q);
  if (st == CAIRN_OK) st = cairn_hpa_find(q, h, from, to, NULL, &r);
  if (st == CAIRN_OK) *cost = r.cost;
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  return st;
}

/* ---- (b) a crowd ordered across the map ------------------------------ */
static cairn_status crowd_hash(const cairn_grid *g, const cairn_jobs *jobs,
                               uint64_t *hash) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = AGENTS;
  o.jobs = jobs;
  o.threads = 1;
  cairn_crowd *c = NULL;
  cairn_agent agents[AGENTS];
  size_t n = 0;
  cairn_status st = cairn_crowd_create(g, &o, NULL, &c);
  /* one agent a free cell, column by column from the left edge */
  for (int32_t x = 0; st == CAIRN_OK && x < SIDE && n < AGENTS; x++)
    for (int32_t y = 0; y < SIDE && n < AGENTS; y += 2) {
      if (!cairn_grid_cost(g, x, y)) continue;
      cairn_agent_params p = {(float)x + 0.5f, (float)y + 0.5f, 0.3f, 1.5f, 0, 0};
      if ((st = cairn_crowd_add(c, &p, &agents[n])) != CAIRN_OK) break;
      n++;
    }
  cairn_point goal = {SIDE - 2, SIDE - 2};
  if (st == CAIRN_OK) st = cairn_crowd_order_field(c, agents, n, &goal, 1);
  for (int t = 0; st == CAIRN_OK && t < TICKS; t++) st = cairn_crowd_tick(c);
  if (st == CAIRN_OK) *hash = cairn_crowd_hash(c);
  cairn_crowd_destroy(c);
  return st;
}

/* Tasks the pool has run so far. */
static uint64_t pool_ran(pool *p) {
  pthread_mutex_lock(&p->lock);
  uint64_t n = p->ran;
  pthread_mutex_unlock(&p->lock);
  return n;
}

static int fail(const char *what, cairn_status st) {
  fprintf(stderr, "jobs: %s failed: %s\n", what, cairn_status_str(st));
  return 1;
}

int main(void) {
  enum { WORKERS = 4 }; /* any count gives the same results */
  pool *p = pool_create(WORKERS);
  cairn_grid *g = make_map();
  if (!p || !g) {
    fprintf(stderr, "jobs: out of memory or threads\n");
    return 1;
  }
  /* what cairn sees of the engine's job system: its workers and a run */
  cairn_jobs jobs = {WORKERS, pool_run, p};
  cairn_cost cost = 0, cost1 = 0;
  uint64_t hash = 0, hash1 = 0, hpa_tasks = 0, crowd_tasks = 0;
  cairn_status st;
  int rc = 0;
  /* each on the pool, then with no jobs and threads = 1 */
  if ((st = hpa_cost(g, &jobs, &cost)) != CAIRN_OK ||
      (st = hpa_cost(g, NULL, &cost1)) != CAIRN_OK) {
    rc = fail("the hierarchy", st);
    goto done;
  }
  hpa_tasks = pool_ran(p);
  if ((st = crowd_hash(g, &jobs, &hash)) != CAIRN_OK ||
      (st = crowd_hash(g, NULL, &hash1)) != CAIRN_OK) {
    rc = fail("the crowd", st);
    goto done;
  }
  crowd_tasks = pool_ran(p) - hpa_tasks;
  printf("hpa: cost %.4f on %d workers (%" PRIu64 " tasks), %.4f on one thread\n",
         cairn_cost_to_double(cost), WORKERS, hpa_tasks, cairn_cost_to_double(cost1));
  printf("crowd: %d ticks, hash %016" PRIx64 " on %d workers (%" PRIu64
         " tasks), %016" PRIx64 " on one thread\n",
         TICKS, hash, WORKERS, crowd_tasks, hash1);
  if (cost != cost1 || hash != hash1) {
    fprintf(stderr, "jobs: MISMATCH: the job system changed a result\n");
    rc = 1;
  } else {
    printf("jobs: same results\n");
  }
done:
  cairn_grid_destroy(g);
  pool_destroy(p, WORKERS - 1);
  return rc;
}
