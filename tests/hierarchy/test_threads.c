/* The hierarchy (HPA*) and threads: many threads querying one hierarchy at
 * once, each with its own context, get the single-threaded answers; the
 * build gives the same hierarchy at any thread count; and builds, edits,
 * updates, cost layers and refreshes give the same hierarchy, field by
 * field, under any scheduler (test_jobs.h: reversed and shuffled orders on
 * 2, 3 and 64 workers, and owned pools). */
#include "test_jobs.h"
#include "test_util.h"
#include "test_hpa_util.h"

#include "cairn/hierarchy.h"
#include "hpa_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- helpers -------------------------------------------------------- */

/* A pool and one query context per worker of it: queries in parallel,
 * each task on the context of the worker that runs it. */
typedef struct query_pool {
  cairn_pool *pool;
  uint32_t workers;
  cairn_hpa_query **q;
} query_pool;

/* threads: as cairn_pool_create (0: every core). */
static query_pool query_pool_make(uint32_t threads) {
  query_pool qp;
  assert_int_equal(cairn_pool_create(threads, NULL, &qp.pool), CAIRN_OK);
  qp.workers = cairn_pool_jobs(qp.pool)->workers;
  qp.q = calloc(qp.workers, sizeof *qp.q);
  assert_non_null(qp.q);
  for (uint32_t w = 0; w < qp.workers; w++)
    assert_int_equal(cairn_hpa_query_create(NULL, &qp.q[w]), CAIRN_OK);
  return qp;
}

static void query_pool_free(query_pool *qp) {
  for (uint32_t w = 0; w < qp->workers; w++) cairn_hpa_query_destroy(qp->q[w]);
  free(qp->q);
  cairn_pool_destroy(qp->pool);
}

/* ---- threads -------------------------------------------------------- */

enum { THREAD_QUERIES = 3000 };

/* Queries in parallel on one hierarchy: one per task, on the context of
 * the worker running it. */
typedef struct query_pass {
  const cairn_hpa *h;
  const cairn_point *pts; /* start and goal of each query */
  answer *got;
  cairn_hpa_query **q; /* one per worker */
  uint8_t *ran;        /* per worker: it answered a query */
} query_pass;

static void query_task(void *arg, uint32_t task, uint32_t worker) {
  const query_pass *p = arg;
  cairn_hpa_path_opts o = mixed_opts((int)task);
  cairn_hpa_result r;
  cairn_status st = cairn_hpa_find(p->q[worker], p->h, p->pts[2 * (size_t)task],
                                   p->pts[2 * (size_t)task + 1], &o, &r);
  p->got[task] = capture(st, &r);
  p->ran[worker] = 1;
}

/* Many threads query one hierarchy at once, each with its own context, and
 * get the single-threaded answers. */
static void concurrent_queries_on(const cairn_grid *g, int32_t cs, int levels,
                                  int nq, uint64_t *rng) {
  cairn_hpa *h = build_levels(g, cs, 0, levels);
  cairn_point *pts = malloc(2 * (size_t)nq * sizeof *pts);
  answer *want = malloc((size_t)nq * sizeof *want);
  answer *got = calloc((size_t)nq, sizeof *got);
  assert_non_null(pts);
  assert_non_null(want);
  assert_non_null(got);
  for (int i = 0; i < 2 * nq; i++) pts[i] = tu_random_open(rng, g);
  cairn_hpa_query *q = new_query();
  size_t found = 0;
  for (int i = 0; i < nq; i++) {
    cairn_hpa_path_opts o = mixed_opts(i);
    cairn_hpa_result r;
    cairn_status st = cairn_hpa_find(q, h, pts[2 * i], pts[2 * i + 1], &o, &r);
    want[i] = capture(st, &r);
    assert_true(st == CAIRN_OK || st == CAIRN_NO_PATH);
    found += st == CAIRN_OK;
  }
  cairn_hpa_query_destroy(q);
  assert_true(found > (size_t)nq / 2);
  query_pool qp = query_pool_make(4);
  uint8_t *ran = calloc(qp.workers, 1); /* the workers that answered */
  assert_non_null(ran);
  query_pass qs = {h, pts, got, qp.q, ran};
  cairn_jobs_run(cairn_pool_jobs(qp.pool), (uint32_t)nq, query_task, &qs);
  uint32_t threads = 0;
  for (uint32_t w = 0; w < qp.workers; w++) threads += ran[w];
  free(ran);
  print_message("%d queries on %u of %u threads (%dx%d, cluster %d, levels %d)\n",
                nq, threads, qp.workers, cairn_grid_width(g), cairn_grid_height(g),
                cs, levels);
  query_pool_free(&qp);
  int differ = 0;
  for (int i = 0; i < nq; i++)
    if (!same_answer(&want[i], &got[i])) differ++;
  assert_int_equal(differ, 0);
  free(pts);
  free(want);
  free(got);
  cairn_hpa_destroy(h);
}

static void concurrent_queries(void **state) {
  (void)state;
  uint64_t rng = 0x5eed1;
  cairn_grid *g = tu_random_grid(&rng, 256, 192, 30, 4);
  concurrent_queries_on(g, 16, 0, THREAD_QUERIES, &rng);
  concurrent_queries_on(g, 8, 0, THREAD_QUERIES / 3, &rng);
  concurrent_queries_on(g, 4, 3, THREAD_QUERIES / 3, &rng);
  cairn_grid_destroy(g);
  /* a shared map, when the data is there */
  char path[1024];
  snprintf(path, sizeof path, "%s/maps/den011d.map", CAIRN_MOVINGAI_DIR);
  cairn_error err;
  cairn_grid *m = NULL;
  if (cairn_map_load(path, NULL, NULL, &m, &err) == CAIRN_OK) {
    concurrent_queries_on(m, 16, 0, THREAD_QUERIES / 3, &rng);
    cairn_grid_destroy(m);
  } else {
    print_message("(no shared map: %s)\n", err.message);
  }
}

/* The build gives the same hierarchy at any thread count. */
static void build_threads_agree(void **state) {
  (void)state;
  uint64_t rng = 0xb111d;
  const struct {
    int w, h, walls, cost;
    int32_t cs;
    int levels;
  } cases[] = {{256, 192, 30, 4, 8, 0},
               {200, 150, 20, 9, 16, 0},
               {101, 77, 35, 3, 4, 0},
               {192, 160, 25, 3, 4, 3}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    cairn_grid *g = tu_random_grid(&rng, cases[c].w, cases[c].h, cases[c].walls,
                                   cases[c].cost);
    int lv = cases[c].levels;
    cairn_hpa *one = build_levels(g, cases[c].cs, 1, lv);
    cairn_hpa *two = build_levels(g, cases[c].cs, 2, lv);
    cairn_hpa *four = build_levels(g, cases[c].cs, 4, lv);
    cairn_hpa *dflt = build_levels(g, cases[c].cs, 0, lv);
    assert_same_hierarchy(one, two);
    assert_same_hierarchy(one, four);
    assert_same_hierarchy(one, dflt);
    cairn_hpa_stats s;
    cairn_hpa_get_stats(one, &s);
    assert_true(s.nodes > 0 && s.edges > 0);
    cairn_hpa_query *qa = new_query(), *qb = new_query();
    assert_same_answers(qa, one, qb, two, g, &rng, 300);
    assert_same_answers(qa, one, qb, four, g, &rng, 100);
    cairn_hpa_query_destroy(qa);
    cairn_hpa_query_destroy(qb);
    cairn_hpa_destroy(one);
    cairn_hpa_destroy(two);
    cairn_hpa_destroy(four);
    cairn_hpa_destroy(dflt);
    cairn_grid_destroy(g);
  }
}

/* ---- the scheduler -------------------------------------------------- */

/* assert_same_hierarchy, and what it leaves out: the rebuild counters, the
 * landmarks (how many on each graph and the size of their tables; under a
 * layer the kept level-1 table itself) and the layer's share (each
 * cluster's terrain-only costs and the layer version it was built at). */
static void assert_same_all(const cairn_hpa *a, const cairn_hpa *b) {
  assert_same_hierarchy(a, b);
  assert_false(a->stale);
  assert_false(b->stale);
  assert_true(a->version == b->version);
  assert_int_equal(a->rebuilt, b->rebuilt);
  assert_int_equal(a->refresh_at, b->refresh_at);
  assert_int_equal(cairn_graph_landmarks(a->graph), cairn_graph_landmarks(b->graph));
  assert_int_equal(cairn_graph_landmark_bytes(a->graph),
                   cairn_graph_landmark_bytes(b->graph));
  if (a->levels == 3) {
    assert_int_equal(cairn_graph_landmarks(a->graph2), cairn_graph_landmarks(b->graph2));
    assert_int_equal(cairn_graph_landmark_bytes(a->graph2),
                     cairn_graph_landmark_bytes(b->graph2));
  }
  assert_int_equal(a->lm_n, b->lm_n);
  assert_int_equal(a->lm_size, b->lm_size);
  if (a->lm_n) assert_memory_equal(a->lm_nodes, b->lm_nodes, a->lm_n * sizeof *a->lm_nodes);
  if (a->lm_size)
    assert_memory_equal(a->lm_costs, b->lm_costs, a->lm_size * sizeof *a->lm_costs);
  uint32_t n_clusters = (uint32_t)a->cw * (uint32_t)a->ch;
  for (uint32_t k = 0; k < n_clusters; k++) {
    const hpa_cluster *ca = &a->clusters[k], *cb = &b->clusters[k];
    assert_true(ca->layer_seen == cb->layer_seen);
    assert_int_equal(ca->bdist != NULL, cb->bdist != NULL);
    if (ca->bdist)
      assert_memory_equal(ca->bdist, cb->bdist, (size_t)ca->n * ca->n * sizeof *ca->bdist);
  }
}

/* One hierarchy of the comparison and the grid it follows: built and
 * edited under one of test_jobs.h's schedulers (every task on the calling
 * thread, in reverse or shuffled order, on worker numbers a pool might
 * give), or an owned pool of `threads`. */
typedef struct sched_case {
  const char *name;
  tj_sched s;
  bool use_s; /* opts.jobs = the scheduler; else opts.threads */
  int threads;
  cairn_grid *g;
  cairn_hpa *h;
} sched_case;

enum { SCHED_CASES = 7 };

/* Every case against the first (one thread), and the same answers. */
static void assert_cases_agree(sched_case *c, uint64_t *rng, bool answers) {
  cairn_hpa_query *qa = new_query(), *qb = new_query();
  for (int i = 1; i < SCHED_CASES; i++) {
    assert_same_all(c[0].h, c[i].h);
    if (answers) assert_same_answers(qa, c[0].h, qb, c[i].h, c[0].g, rng, 20);
  }
  cairn_hpa_query_destroy(qa);
  cairn_hpa_query_destroy(qb);
}

/* A random layer change: penalties on `adds` cells (a few steps' worth
 * each), `blocks` cells blocked. */
static void change_layer(uint64_t *rng, const cairn_grid *g, cairn_penalty *p,
                         int adds, int blocks) {
  for (int i = 0; i < adds; i++) {
    cairn_point c = tu_random_open(rng, g);
    int64_t amount = (int64_t)(1 + tu_below(rng, 12)) * (int64_t)CAIRN_COST_ONE / 2;
    assert_int_equal(cairn_penalty_add(p, c.x, c.y, amount), CAIRN_OK);
  }
  for (int i = 0; i < blocks; i++) {
    cairn_point c = tu_random_open(rng, g);
    assert_int_equal(cairn_penalty_block(p, c.x, c.y, 1), CAIRN_OK);
  }
}

/* The hierarchy (two levels and three, with landmarks) is the same, field
 * by field, whatever runs its tasks: reversed and shuffled orders on 2, 3
 * and 64 workers (64: far more workers than most passes have tasks), and
 * owned pools of 2 and 3 threads, as on 1 thread; after the build, random
 * edits, an update, a cost layer, and refreshes of part of it and of the
 * rest. */
static void schedulers_agree(void **state) {
  (void)state;
  uint64_t rng = 0x5c4edu;
  cairn_point cells[MAX_BATCH];
  uint8_t costs[MAX_BATCH];
  for (int levels = 2; levels <= 3; levels++) {
    cairn_grid *g = tu_random_grid(&rng, 256, 208, 25, 4);
    sched_case c[SCHED_CASES] = {
        {"1 thread", tj_make(1, 0, 0), false, 1, NULL, NULL},
        {"reversed, 3 workers", tj_make(3, 0, 1), true, 0, NULL, NULL},
        {"shuffled, 2 workers", tj_make(2, 1, 0x5eed2), true, 0, NULL, NULL},
        {"shuffled, 3 workers", tj_make(3, 1, 0x5eed3), true, 0, NULL, NULL},
        {"shuffled, 64 workers", tj_make(64, 1, 0x5eed64), true, 0, NULL, NULL},
        {"pool of 2", tj_make(1, 0, 0), false, 2, NULL, NULL},
        {"pool of 3", tj_make(1, 0, 0), false, 3, NULL, NULL}};
    for (int i = 0; i < SCHED_CASES; i++) {
      c[i].g = copy_grid(g);
      cairn_hpa_opts o = cairn_hpa_defaults();
      o.cluster = 8;
      o.levels = levels;
      o.block = 4;
      o.landmarks = 5; /* enough for a pass of its own: fills are most of an edit */
      o.threads = c[i].threads;
      if (c[i].use_s) o.jobs = tj_jobs(&c[i].s);
      assert_int_equal(cairn_hpa_create(c[i].g, &o, NULL, &c[i].h), CAIRN_OK);
    }
    cairn_grid_destroy(g);
    cairn_hpa_stats st;
    cairn_hpa_get_stats(c[0].h, &st);
    assert_int_equal(st.levels, levels);
    assert_true(st.landmarks > 0);
    assert_cases_agree(c, &rng, true);
    /* edits of every kind, each through cairn_hpa_edit */
    for (int b = 0; b < B_KINDS; b++) {
      size_t n = make_batch(&rng, c[0].g, 8, b, 4, cells, costs);
      for (int i = 0; i < SCHED_CASES; i++)
        assert_int_equal(cairn_hpa_edit(c[i].h, c[i].g, cells, costs, n), CAIRN_OK);
      assert_cases_agree(c, &rng, b % 3 == 0);
    }
    /* a rectangle changed by the caller */
    cairn_rect r = {40, 30, 37, 29};
    for (int32_t y = r.y; y < r.y + r.h; y++)
      for (int32_t x = r.x; x < r.x + r.w; x++) {
        if (tu_below(&rng, 5)) continue;
        uint8_t v = random_cost(&rng, 4);
        for (int i = 0; i < SCHED_CASES; i++)
          assert_int_equal(cairn_grid_set_cost(c[i].g, x, y, v), CAIRN_OK);
      }
    for (int i = 0; i < SCHED_CASES; i++)
      assert_int_equal(cairn_hpa_update(c[i].h, c[i].g, r), CAIRN_OK);
    assert_cases_agree(c, &rng, true);
    /* a cost layer (one for all: it fits every copy of the grid), then a
     * change refreshed 25 clusters at a time, then all at once */
    cairn_penalty *p = NULL;
    assert_int_equal(cairn_penalty_create(c[0].g, NULL, &p), CAIRN_OK);
    change_layer(&rng, c[0].g, p, 400, 30);
    for (int i = 0; i < SCHED_CASES; i++)
      assert_int_equal(cairn_hpa_set_layer(c[i].h, p), CAIRN_OK);
    assert_cases_agree(c, &rng, false);
    cairn_hpa_get_stats(c[0].h, &st);
    assert_true(st.layered_clusters > 0);
    change_layer(&rng, c[0].g, p, 300, 20);
    uint32_t pending[SCHED_CASES];
    for (int i = 0; i < SCHED_CASES; i++)
      assert_int_equal(cairn_hpa_refresh(c[i].h, 25, &pending[i]), CAIRN_OK);
    assert_true(pending[0] > 0);
    for (int i = 1; i < SCHED_CASES; i++) assert_int_equal(pending[i], pending[0]);
    assert_cases_agree(c, &rng, false);
    for (int i = 0; i < SCHED_CASES; i++)
      assert_int_equal(cairn_hpa_refresh(c[i].h, 0, &pending[i]), CAIRN_OK);
    for (int i = 0; i < SCHED_CASES; i++) assert_int_equal(pending[i], 0);
    assert_cases_agree(c, &rng, false);
    for (int i = 0; i < SCHED_CASES; i++) {
      if (c[i].use_s) {
        print_message("levels %d, %s: %u runs, %llu tasks\n", levels, c[i].name,
                      c[i].s.runs, (unsigned long long)c[i].s.tasks);
        assert_true(c[i].s.runs > 0);
        assert_true(c[i].s.tasks > 0); /* the scheduler really ran them */
      }
      cairn_hpa_destroy(c[i].h);
      cairn_grid_destroy(c[i].g);
    }
    cairn_penalty_destroy(p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(concurrent_queries),
      cmocka_unit_test(build_threads_agree),
      cmocka_unit_test(schedulers_agree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
