/* Hierarchy (HPA*) allocation failures: create, query and edit fail cleanly
 * at every allocation, never crash or leak; after a failed edit the
 * hierarchy is stale (queries and nodes refused) until an update, which
 * recovers it wherever it falls; the caller's allocator is never entered
 * from two threads at once by the parallel build, and a small grid left to
 * pick its threads builds on the caller alone; and the core's path buffer
 * failing through the core alone. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_hpa_util.h"

#include "cairn/hierarchy.h"
#include "hpa_internal.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- helpers -------------------------------------------------------- */

/* Whether a pool of 2 really has 2 workers (not so when built with
 * CAIRN_THREADS=OFF). */
static bool have_threads(void) {
  cairn_pool *p = NULL;
  assert_int_equal(cairn_pool_create(2, NULL, &p), CAIRN_OK);
  bool two = cairn_pool_jobs(p)->workers == 2;
  cairn_pool_destroy(p);
  return two;
}

/* ---- allocation failures -------------------------------------------- */

/* A strict Lua-style allocator: it counts live bytes and blocks, checks
 * every old_size against the size it handed out (a block "of 0 bytes" is
 * the 1 byte the library's wrappers allocate for it, so it must be freed or
 * resized as 1 byte, never as 0), and fails every call with new_size > 0
 * (new blocks, growth and shrinking alike) once `budget` such calls have
 * succeeded (budget < 0: never). Thread-safe. */
typedef struct fail_alloc {
  long budget;
  size_t live_bytes, live_blocks, calls, failures, bad_sizes;
} fail_alloc;

#define FA_HEADER 16

static pthread_mutex_t fa_lock = PTHREAD_MUTEX_INITIALIZER;

static void *fa_fn(void *user, void *ptr, size_t old_size, size_t new_size) {
  fail_alloc *fa = user;
  void *res = NULL;
  pthread_mutex_lock(&fa_lock);
  {
    unsigned char *base = ptr ? (unsigned char *)ptr - FA_HEADER : NULL;
    size_t had = 0;
    if (base) memcpy(&had, base, sizeof had);
    if (base && had != old_size) fa->bad_sizes++;
    fa->calls++;
    if (new_size == 0) {
      if (base) {
        fa->live_bytes -= had;
        fa->live_blocks--;
        free(base);
      }
    } else if (fa->budget == 0) {
      fa->failures++;
    } else {
      unsigned char *nb = realloc(base, new_size + FA_HEADER);
      if (nb) {
        if (fa->budget > 0) fa->budget--;
        memcpy(nb, &new_size, sizeof new_size);
        fa->live_bytes += new_size - had;
        if (!base) fa->live_blocks++;
        res = nb + FA_HEADER;
      }
    }
  }
  pthread_mutex_unlock(&fa_lock);
  return res;
}

static void fa_reset(fail_alloc *fa, long budget) {
  memset(fa, 0, sizeof *fa);
  fa->budget = budget;
}

#define fa_assert_empty(fa) fa_assert_empty_at(fa, __LINE__)

static void fa_assert_empty_at(const fail_alloc *fa, int line) {
  if (fa->live_bytes || fa->live_blocks || fa->bad_sizes)
    print_message("line %d: %zu bytes in %zu blocks live, %zu wrong old sizes\n",
                  line, fa->live_bytes, fa->live_blocks, fa->bad_sizes);
  assert_int_equal(fa->live_bytes, 0);
  assert_int_equal(fa->live_blocks, 0);
  assert_int_equal(fa->bad_sizes, 0);
}

enum { MAX_BUDGET = 200000 };

/* cairn_hpa_create fails cleanly at every allocation. */
static void alloc_failures_create(void **state) {
  (void)state;
  uint64_t rng = 0xfa11;
  cairn_grid *g = tu_random_grid(&rng, 41, 35, 25, 3);
  cairn_hpa *want = build(g, 8, 1);
  fail_alloc fa;
  memset(&fa, 0, sizeof fa);
  cairn_allocator a = {fa_fn, &fa};
  cairn_grid *g3 = tu_random_grid(&rng, 48, 40, 25, 3);
  cairn_hpa *want3 = build_block(g3, 8, 1, 3, 2);
  /* 1 and 2 threads; then three levels (blocks of clusters) */
  for (int run = 1; run <= 3; run++) {
    int threads = run == 2 ? 2 : 1;
    long n = 0;
    for (;; n++) {
      fa_reset(&fa, n);
      cairn_hpa_opts o = cairn_hpa_defaults();
      o.cluster = 8;
      o.levels = run == 3 ? 3 : 0;
      o.block = run == 3 ? 2 : 0;
      o.threads = threads;
      cairn_hpa *h = (cairn_hpa *)&fa;
      cairn_status st = cairn_hpa_create(run == 3 ? g3 : g, &o, &a, &h);
      if (st == CAIRN_OK) {
        assert_non_null(h);
        assert_int_equal(fa.failures, 0);
        assert_true(fa.live_bytes > 0);
        assert_same_hierarchy(run == 3 ? want3 : want, h);
        cairn_hpa_destroy(h);
        fa_assert_empty(&fa);
        break;
      }
      assert_int_equal(st, CAIRN_ERR_NOMEM);
      assert_null(h);
      assert_true(fa.failures > 0);
      fa_assert_empty(&fa);
      assert_true(n < MAX_BUDGET);
    }
    print_message("create (%d thread%s, %s): succeeds from %ld allocations on\n",
                  threads, threads > 1 ? "s" : "",
                  run == 3 ? "three levels" : "two levels", n);
    assert_true(n > 10);
  }
  cairn_hpa_destroy(want);
  cairn_hpa_destroy(want3);
  cairn_grid_destroy(g);
  cairn_grid_destroy(g3);
}

/* cairn_hpa_query_create and cairn_hpa_find fail cleanly at every
 * allocation, and the context answers correctly afterwards. */
static void query_failures(int32_t cs, int levels) {
  uint64_t rng = 0xfa12;
  cairn_grid *g = tu_random_grid(&rng, 96, 64, 20, 3);
  cairn_hpa *h = build_levels(g, cs, 0, levels);
  fail_alloc fa;
  memset(&fa, 0, sizeof fa);
  cairn_allocator a = {fa_fn, &fa};
  long n = 0;
  for (;; n++) {
    fa_reset(&fa, n);
    cairn_hpa_query *q = (cairn_hpa_query *)&fa;
    cairn_status st = cairn_hpa_query_create(&a, &q);
    if (st == CAIRN_OK) {
      cairn_hpa_query_destroy(q);
      fa_assert_empty(&fa);
      break;
    }
    assert_int_equal(st, CAIRN_ERR_NOMEM);
    assert_null(q);
    fa_assert_empty(&fa);
    assert_true(n < MAX_BUDGET);
  }
  print_message("query_create: succeeds from %ld allocations on\n", n);
  /* find: a long hierarchical query, a nearby one (plain A*), and one
   * inside a cluster */
  cairn_hpa_query *ref = new_query(), *ref_steps = new_query();
  const cairn_point ends[][2] = {{{1, 1}, {94, 62}}, {{20, 20}, {30, 25}},
                                 {{9, 9}, {13, 14}}};
  for (size_t e = 0; e < sizeof ends / sizeof *ends; e++) {
    cairn_point from = ends[e][0], to = ends[e][1];
    /* nearest open cells to the chosen ends */
    while (!cairn_grid_cost(g, from.x, from.y)) from.x++;
    while (!cairn_grid_cost(g, to.x, to.y)) to.x--;
    for (int v = 0; v < 3; v++) {
      cairn_hpa_path_opts o = v == 0 ? popts(0, 1) : v == 1 ? popts(-1, 1) : popts(0, 0);
      cairn_hpa_result want, r;
      cairn_status want_st = cairn_hpa_find(ref, h, from, to, &o, &want);
      assert_true(want_st == CAIRN_OK || want_st == CAIRN_NO_PATH);
      long m = 0;
      for (;; m++) {
        fa_reset(&fa, -1);
        cairn_hpa_query *q = NULL;
        assert_int_equal(cairn_hpa_query_create(&a, &q), CAIRN_OK);
        fa.budget = m;
        cairn_status st = cairn_hpa_find(q, h, from, to, &o, &r);
        assert_int_equal(r.status, st);
        fa.budget = -1;
        if (st != CAIRN_ERR_NOMEM) {
          assert_int_equal(st, want_st);
          assert_same_result(&r, &want);
          cairn_hpa_query_destroy(q);
          fa_assert_empty(&fa);
          break;
        }
        assert_true(r.cost == CAIRN_COST_INF);
        assert_int_equal(r.path_len, 0);
        /* the plan and refinement fail too, the context stays usable */
        assert_int_equal(cairn_hpa_find(q, h, from, to, &o, &r), want_st);
        assert_same_result(&r, &want);
        cairn_hpa_query_destroy(q);
        fa_assert_empty(&fa);
        assert_true(m < MAX_BUDGET);
      }
      /* plan, then refine edge by edge with failures (smoothed piecewise,
       * so the reference is refined the same way) */
      cairn_hpa_result want_steps;
      if (cairn_hpa_plan(ref_steps, h, from, to, &o, &want_steps) == CAIRN_IN_PROGRESS)
        while (cairn_hpa_refine(ref_steps, 1, &want_steps) == CAIRN_IN_PROGRESS) {
        }
      for (long k = 0;; k++) {
        fa_reset(&fa, -1);
        cairn_hpa_query *q = NULL;
        assert_int_equal(cairn_hpa_query_create(&a, &q), CAIRN_OK);
        cairn_status st = cairn_hpa_plan(q, h, from, to, &o, &r);
        if (st != CAIRN_IN_PROGRESS) {
          cairn_hpa_query_destroy(q);
          break;
        }
        fa.budget = k;
        do st = cairn_hpa_refine(q, 1, &r);
        while (st == CAIRN_IN_PROGRESS);
        fa.budget = -1;
        if (st == CAIRN_OK) {
          assert_same_result(&r, &want_steps);
          cairn_hpa_query_destroy(q);
          fa_assert_empty(&fa);
          break;
        }
        assert_int_equal(st, CAIRN_ERR_NOMEM);
        assert_int_equal(cairn_hpa_refine(q, 1, &r), CAIRN_ERR_NOMEM);
        assert_int_equal(cairn_hpa_find(q, h, from, to, &o, &r), want_st);
        assert_same_result(&r, &want);
        cairn_hpa_query_destroy(q);
        fa_assert_empty(&fa);
        assert_true(k < MAX_BUDGET);
      }
      if (e == 0 && v == 0) assert_true(m > 3);
    }
  }
  cairn_hpa_query_destroy(ref);
  cairn_hpa_query_destroy(ref_steps);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

static void alloc_failures_query(void **state) {
  (void)state;
  query_failures(8, 0);
  query_failures(4, 3); /* routes planned over blocks */
}

/* Queries on a stale hierarchy are refused, and so is cairn_hpa_node, for
 * every node id it had (and past them); nothing else breaks. */
static void assert_stale(const cairn_hpa *h, cairn_point a, cairn_point b) {
  assert_true(h->stale);
  cairn_hpa_query *q = new_query();
  cairn_hpa_result r;
  refused(cairn_hpa_find(q, h, a, b, NULL, &r), CAIRN_ERR_STATE, &r);
  refused(cairn_hpa_plan(q, h, a, b, NULL, &r), CAIRN_ERR_STATE, &r);
  /* refine repeats the plan's refusal */
  assert_int_equal(cairn_hpa_refine(q, 1, &r), CAIRN_ERR_STATE);
  assert_int_equal(r.status, CAIRN_ERR_STATE);
  cairn_hpa_path_opts o = popts(0, 0);
  refused(cairn_hpa_find(q, h, a, a, &o, &r), CAIRN_ERR_STATE, &r);
  cairn_hpa_stats s;
  cairn_hpa_get_stats(h, &s);
  for (uint32_t v = 0; v <= s.nodes; v++) {
    cairn_point p = pt(-7, -7);
    assert_int_equal(cairn_hpa_node(h, v, &p), CAIRN_ERR_STATE);
    assert_int_equal(p.x, -7); /* untouched */
  }
  cairn_point p;
  assert_int_equal(cairn_hpa_node(h, UINT32_MAX, &p), CAIRN_ERR_STATE);
  assert_int_equal(cairn_hpa_node(h, 0, NULL), CAIRN_ERR_ARG);
  cairn_hpa_query_destroy(q);
}

/* cairn_hpa_edit fails cleanly at every allocation: the grid holds the new
 * costs, queries are refused until an update over the edit succeeds, and
 * then the hierarchy is the one a fresh build makes. */
static void alloc_failures_edit(void **state) {
  (void)state;
  uint64_t rng = 0xfa13;
  cairn_grid *base = tu_random_grid(&rng, 64, 48, 20, 3);
  const struct {
    size_t n;
    cairn_point cells[4];
    uint8_t costs[4];
  } batches[] = {
      {1, {{12, 12}}, {0}},                               /* inside */
      {1, {{15, 20}}, {0}},                               /* on a border */
      {2, {{15, 15}, {16, 16}}, {2, 0}},                  /* at a corner */
      {4, {{0, 0}, {63, 47}, {31, 31}, {40, 2}}, {0, 0, 3, 0}}, /* scattered */
  };
  fail_alloc fa;
  memset(&fa, 0, sizeof fa);
  cairn_allocator a = {fa_fn, &fa};
  /* two levels, then three (blocks of 2 x 2 clusters) for the last batch
   * only: every allocation of the block rebuild fails once */
  for (size_t run = 0; run < 2 * (sizeof batches / sizeof *batches); run++) {
    size_t bi = run % (sizeof batches / sizeof *batches);
    bool three = run >= sizeof batches / sizeof *batches;
    if (three && bi < 3) continue;
    const int32_t cs = 8;
    long n = 0;
    cairn_point probe_a = tu_random_open(&rng, base), probe_b = tu_random_open(&rng, base);
    for (;; n++) {
      cairn_grid *g = copy_grid(base);
      /* the edited cells open, so every batch changes something */
      for (size_t i = 0; i < batches[bi].n; i++)
        assert_int_equal(cairn_grid_set_cost(g, batches[bi].cells[i].x,
                                             batches[bi].cells[i].y, 1), CAIRN_OK);
      assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
      fa_reset(&fa, -1);
      cairn_hpa_opts o = cairn_hpa_defaults();
      o.cluster = cs;
      o.threads = 1;
      o.levels = three ? 3 : 2;
      o.block = three ? 2 : 0;
      cairn_hpa *h = NULL;
      assert_int_equal(cairn_hpa_create(g, &o, &a, &h), CAIRN_OK);
      fa.budget = n;
      cairn_status st = cairn_hpa_edit(h, g, batches[bi].cells, batches[bi].costs,
                                       batches[bi].n);
      fa.budget = -1;
      for (size_t i = 0; i < batches[bi].n; i++)
        assert_int_equal(cairn_grid_cost(g, batches[bi].cells[i].x, batches[bi].cells[i].y),
                         batches[bi].costs[i]);
      bool done = st == CAIRN_OK;
      if (!done) {
        assert_int_equal(st, CAIRN_ERR_NOMEM);
        assert_stale(h, probe_a, probe_b);
        /* a failing update keeps it stale */
        int32_t x0 = INT32_MAX, y0 = INT32_MAX, x1 = -1, y1 = -1;
        for (size_t i = 0; i < batches[bi].n; i++) {
          cairn_point p = batches[bi].cells[i];
          x0 = p.x < x0 ? p.x : x0;
          y0 = p.y < y0 ? p.y : y0;
          x1 = p.x > x1 ? p.x : x1;
          y1 = p.y > y1 ? p.y : y1;
        }
        cairn_rect box = {x0, y0, x1 - x0 + 1, y1 - y0 + 1};
        fa.budget = 0;
        assert_int_equal(cairn_hpa_update(h, g, box), CAIRN_ERR_NOMEM);
        fa.budget = -1;
        assert_stale(h, probe_a, probe_b);
        assert_int_equal(cairn_hpa_update(h, g, box), CAIRN_OK);
      }
      assert_true(cairn_grid_islands_fresh(g));
      assert_matches_fresh(h, g, cs, &rng, done ? 20 : 4);
      cairn_hpa_destroy(h);
      fa_assert_empty(&fa);
      cairn_grid_destroy(g);
      if (done) break;
      assert_true(n < MAX_BUDGET);
    }
    print_message("edit batch %zu (%s): succeeds from %ld allocations on\n", bi,
                  three ? "three levels" : "two levels", n);
    assert_true(n > 2);
  }
  cairn_grid_destroy(base);
}

/* ---- after a failed edit; the allocator and threads ----------------- */

/* A cell whose 1 x 1 update touches no block (bs x bs clusters of side cs;
 * bs = 1 for two levels), so no cluster, that a change of any of cells[]
 * touches: the blocks within one cell of it and of each edited cell are
 * disjoint. Searched from the middle of the map outwards, row by row. */
static cairn_point unrelated_cell(const cairn_grid *g, int32_t cs, int32_t bs,
                                  const cairn_point *cells, size_t n) {
  int32_t w = cairn_grid_width(g), hh = cairn_grid_height(g), span = cs * bs;
  for (int32_t i = 0; i < w * hh; i++) {
    int32_t x = (w / 2 + i % w) % w, y = (hh / 2 + i / w) % hh;
    bool ok = true;
    for (size_t k = 0; k < n && ok; k++) {
      int32_t ax0 = (x > 0 ? x - 1 : 0) / span, ax1 = (x + 1 < w ? x + 1 : x) / span;
      int32_t ay0 = (y > 0 ? y - 1 : 0) / span, ay1 = (y + 1 < hh ? y + 1 : y) / span;
      cairn_point c = cells[k];
      int32_t bx0 = (c.x > 0 ? c.x - 1 : 0) / span, bx1 = (c.x + 1 < w ? c.x + 1 : c.x) / span;
      int32_t by0 = (c.y > 0 ? c.y - 1 : 0) / span, by1 = (c.y + 1 < hh ? c.y + 1 : c.y) / span;
      ok = ax1 < bx0 || bx1 < ax0 || ay1 < by0 || by1 < ay0;
    }
    if (ok) return pt(x, y);
  }
  fail_msg("no cell away from the edit");
  return pt(-1, -1);
}

/* An edit (a wall inside a cluster and one on a cluster border) through a
 * hierarchy built with the strict allocator, failing at each of its
 * allocations in turn. After each failure the hierarchy is stale: queries
 * and cairn_hpa_node answer CAIRN_ERR_STATE (before 992e5c4 cairn_hpa_node
 * read the cluster that a failure inside cluster_build had freed: a
 * crash). Then one cairn_hpa_update recovers it, over the first edited cell
 * (elsewhere = false) or over a 1 x 1 rectangle whose clusters and blocks
 * no edited cell touches (elsewhere = true): after a failed edit the next
 * update rebuilds every cluster, so it returns CAIRN_OK, the hierarchy is
 * no longer stale, every node answers its cell, and it is the hierarchy a
 * fresh build makes. */
static void failed_edit_then_update(int levels, int32_t block, bool elsewhere) {
  uint64_t rng = 0xfa14 + (uint64_t)levels;
  const int32_t cs = 8;
  cairn_grid *base = tu_random_grid(&rng, 64, 48, 20, 3);
  const cairn_point cells[2] = {{20, 20}, {31, 27}};
  const uint8_t walls[2] = {0, 0};
  cairn_point other = unrelated_cell(base, cs, levels == 3 ? block : 1, cells, 2);
  cairn_rect where = elsewhere ? (cairn_rect){other.x, other.y, 1, 1}
                               : (cairn_rect){cells[0].x, cells[0].y, 1, 1};
  cairn_point probe_a = tu_random_open(&rng, base), probe_b = tu_random_open(&rng, base);
  fail_alloc fa;
  memset(&fa, 0, sizeof fa);
  cairn_allocator a = {fa_fn, &fa};
  long n = 0;
  for (;; n++) {
    cairn_grid *g = copy_grid(base);
    for (size_t i = 0; i < 2; i++)
      assert_int_equal(cairn_grid_set_cost(g, cells[i].x, cells[i].y, 1), CAIRN_OK);
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    uint8_t other_cost = cairn_grid_cost(g, other.x, other.y);
    fa_reset(&fa, -1);
    cairn_hpa_opts o = cairn_hpa_defaults();
    o.cluster = cs;
    o.threads = 1;
    o.levels = levels;
    o.block = levels == 3 ? block : 0;
    cairn_hpa *h = NULL;
    assert_int_equal(cairn_hpa_create(g, &o, &a, &h), CAIRN_OK);
    fa.budget = n;
    cairn_status st = cairn_hpa_edit(h, g, cells, walls, 2);
    fa.budget = -1;
    for (size_t i = 0; i < 2; i++)
      assert_int_equal(cairn_grid_cost(g, cells[i].x, cells[i].y), 0);
    if (st != CAIRN_OK) {
      assert_int_equal(st, CAIRN_ERR_NOMEM);
      assert_true(fa.failures > 0);
      assert_stale(h, probe_a, probe_b);
      assert_int_equal(cairn_hpa_update(h, g, where), CAIRN_OK);
      assert_false(h->stale);
      assert_int_equal(cairn_grid_cost(g, other.x, other.y), other_cost);
      assert_true(cairn_grid_islands_fresh(g));
      cairn_hpa_stats s;
      cairn_hpa_get_stats(h, &s);
      assert_int_equal(s.rebuilt_clusters, s.clusters); /* all of them */
      for (uint32_t v = 0; v < s.nodes; v++) {
        cairn_point p;
        assert_int_equal(cairn_hpa_node(h, v, &p), CAIRN_OK);
        assert_true(cairn_grid_cost(g, p.x, p.y) > 0);
        assert_int_equal(h->node_cluster[v], hpa_cluster_of(h, p));
      }
      cairn_point p;
      assert_int_equal(cairn_hpa_node(h, s.nodes, &p), CAIRN_ERR_RANGE);
    }
    assert_matches_fresh(h, g, cs, &rng, st == CAIRN_OK ? 20 : 6);
    cairn_hpa_destroy(h);
    fa_assert_empty(&fa);
    cairn_grid_destroy(g);
    if (st == CAIRN_OK) break;
    assert_true(n < MAX_BUDGET);
  }
  print_message("%d levels: the edit failed at each of its first %ld allocations; "
                "an update over (%d,%d) recovered it every time\n",
                levels, n, where.x, where.y);
  assert_true(n > 10);
  cairn_grid_destroy(base);
}

static void node_after_failed_edit(void **state) {
  (void)state;
  failed_edit_then_update(2, 0, false);
}

static void update_elsewhere_after_failed_edit(void **state) {
  (void)state;
  failed_edit_then_update(2, 0, true);
  failed_edit_then_update(3, 2, true);
}

/* Counts how many threads are inside the allocator at once, and which
 * threads called it. */
enum { CONC_CALLERS = 64 };

typedef struct conc_alloc {
  int inside, most; /* inside: atomic; most: under lock */
  pthread_mutex_t lock;
  pthread_t caller[CONC_CALLERS]; /* the distinct threads that called it */
  int callers;
} conc_alloc;

static void note_caller(conc_alloc *c) {
  pthread_t me = pthread_self();
  for (int i = 0; i < c->callers; i++)
    if (pthread_equal(c->caller[i], me)) return;
  if (c->callers < CONC_CALLERS) c->caller[c->callers++] = me;
}

static void *conc_fn(void *user, void *ptr, size_t old_size, size_t new_size) {
  conc_alloc *c = user;
  (void)old_size;
  int now = __atomic_add_fetch(&c->inside, 1, __ATOMIC_SEQ_CST);
  pthread_mutex_lock(&c->lock);
  if (now > c->most) c->most = now;
  note_caller(c);
  pthread_mutex_unlock(&c->lock);
  for (volatile int i = 0; i < 20000; i++) {
  } /* widen the window */
  void *r = NULL;
  if (new_size == 0)
    free(ptr);
  else
    r = realloc(ptr, new_size);
  __atomic_sub_fetch(&c->inside, 1, __ATOMIC_SEQ_CST);
  return r;
}

/* c counting from nothing, and the allocator that counts into it. */
static cairn_allocator conc_start(conc_alloc *c) {
  memset(c, 0, sizeof *c);
  assert_int_equal(pthread_mutex_init(&c->lock, NULL), 0);
  return (cairn_allocator){conc_fn, c};
}

/* The caller's allocator is never entered by two threads at once: not in a
 * 2- or 4-thread build, nor in the parallel cluster (and block) rebuilds of
 * an edit and an update, with two levels and three. (Before 992e5c4 the
 * step and pair buffers of the build threads and the core's lazily taken
 * goal records were allocated outside the build's critical section.) */
static void allocator_never_concurrent(void **state) {
  (void)state;
  if (!have_threads()) {
    print_message("skipped: built without threads, every build is serial\n");
    skip();
  }
  uint64_t rng = 0xc0c0;
  int most_callers = 0;
  for (int levels = 2; levels <= 3; levels++)
    for (int threads = 2; threads <= 4; threads += 2) {
      cairn_grid *g = tu_random_grid(&rng, 160, 128, 25, 3);
      conc_alloc c;
      cairn_allocator a = conc_start(&c);
      cairn_hpa_opts o = cairn_hpa_defaults();
      o.cluster = 8;
      o.threads = threads;
      o.levels = levels;
      o.block = 2;
      cairn_hpa *h = NULL;
      assert_int_equal(cairn_hpa_create(g, &o, &a, &h), CAIRN_OK);
      int build_callers = c.callers;
      /* one cell in each of 64 clusters spread over the map */
      cairn_point cells[MAX_BATCH];
      uint8_t costs[MAX_BATCH];
      size_t n = 0;
      for (int32_t y = 5; y < 128; y += 17)
        for (int32_t x = 3; x < 160 && n < MAX_BATCH; x += 19) {
          cells[n] = pt(x, y);
          costs[n++] = random_cost(&rng, 3);
        }
      c.callers = 0;
      assert_int_equal(cairn_hpa_edit(h, g, cells, costs, n), CAIRN_OK);
      /* a wide rectangle changed by the caller */
      cairn_rect r = {12, 9, 130, 100};
      for (int32_t y = r.y; y < r.y + r.h; y++)
        for (int32_t x = r.x; x < r.x + r.w; x++)
          if (tu_below(&rng, 9) == 0)
            assert_int_equal(cairn_grid_set_cost(g, x, y, random_cost(&rng, 3)), CAIRN_OK);
      assert_int_equal(cairn_hpa_update(h, g, r), CAIRN_OK);
      int edit_callers = c.callers;
      print_message("%d levels, %d threads: at most %d thread(s) inside the "
                    "allocator at once; %d build and %d edit threads called it\n",
                    levels, threads, c.most, build_callers, edit_callers);
      assert_int_equal(c.most, 1);
      if (build_callers > most_callers) most_callers = build_callers;
      if (edit_callers > most_callers) most_callers = edit_callers;
      assert_matches_fresh(h, g, 8, &rng, 10);
      cairn_hpa_destroy(h);
      pthread_mutex_destroy(&c.lock);
      cairn_grid_destroy(g);
    }
  /* the work really was spread over threads */
  assert_true(most_callers >= 2);
}

/* A grid under 65,536 cells with the default thread count (0, every
 * core) builds on the calling thread alone: only it calls the allocator,
 * where a worker would take scratch for its first task. */
static void small_grid_builds_on_the_caller(void **state) {
  (void)state;
  uint64_t rng = 0x5a11;
  cairn_grid *g = tu_random_grid(&rng, 160, 128, 25, 3);
  conc_alloc c;
  cairn_allocator a = conc_start(&c);
  cairn_hpa_opts o = cairn_hpa_defaults();
  assert_int_equal(o.threads, 0);
  o.cluster = 8;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &o, &a, &h), CAIRN_OK);
  print_message("160 x 128, threads 0: %d thread(s) called the allocator\n", c.callers);
  assert_int_equal(c.callers, 1);
  assert_matches_fresh(h, g, 8, &rng, 10);
  cairn_hpa_destroy(h);
  pthread_mutex_destroy(&c.lock);
  cairn_grid_destroy(g);
}

/* core/src/search.c, ensure_path, through the core alone: every allocation
 * of a search whose path outgrows the buffer fails in turn, from a fresh
 * context and from one whose buffer holds 64 points. The failed search
 * answers CAIRN_ERR_NOMEM and leaves the context as it was: a short search
 * (which fits the old buffer) still works while every allocation fails, the
 * long one works once allocations succeed again, and nothing leaks or is
 * freed or resized with a wrong old_size. (Before 992e5c4 the buffers grew
 * one after the other, and "restoring" the first after the second failed
 * left a 1-byte block with capacity 0, or, when that realloc failed too, a
 * leaked block and a NULL buffer that the next search wrote through.) */
static void core_path_buffer_failure(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(300, 1, 1, NULL, &g), CAIRN_OK);
  fail_alloc fa;
  memset(&fa, 0, sizeof fa);
  cairn_allocator a = {fa_fn, &fa};
  const cairn_point from = {0, 0}, near_to = {10, 0}, far_to = {200, 0};
  for (int warm = 0; warm < 2; warm++) {
    long n = 0;
    for (;; n++) {
      fa_reset(&fa, -1);
      cairn_search *s = NULL;
      assert_int_equal(cairn_search_create(&a, &s), CAIRN_OK);
      cairn_result r;
      if (warm) {
        assert_int_equal(cairn_astar(s, g, from, near_to, NULL, &r), CAIRN_OK);
        assert_int_equal(r.path_len, 11);
      }
      fa.budget = n;
      cairn_status st = cairn_astar(s, g, from, far_to, NULL, &r);
      assert_int_equal(r.status, st);
      if (st == CAIRN_OK) {
        fa.budget = -1;
        assert_int_equal(r.path_len, 201);
        assert_true(tu_path_cost(g, r.path, r.path_len, from, far_to, 8) == r.cost);
        cairn_search_destroy(s);
        fa_assert_empty(&fa);
        break;
      }
      assert_int_equal(st, CAIRN_ERR_NOMEM);
      assert_true(fa.failures > 0);
      assert_true(r.cost == CAIRN_COST_INF);
      assert_int_equal(r.path_len, 0);
      /* a warm context needs nothing more for the short search */
      fa.budget = warm ? 0 : -1;
      assert_int_equal(cairn_astar(s, g, from, near_to, NULL, &r), CAIRN_OK);
      assert_int_equal(r.path_len, 11);
      assert_true(tu_path_cost(g, r.path, r.path_len, from, near_to, 8) == r.cost);
      fa.budget = -1;
      assert_int_equal(cairn_astar(s, g, from, far_to, NULL, &r), CAIRN_OK);
      assert_int_equal(r.path_len, 201);
      assert_true(tu_path_cost(g, r.path, r.path_len, from, far_to, 8) == r.cost);
      cairn_search_destroy(s);
      fa_assert_empty(&fa);
      assert_true(n < 1000);
    }
    print_message("%s context: the long search succeeds from %ld allocations on\n",
                  warm ? "a warm" : "a fresh", n);
    assert_true(n >= (warm ? 2 : 3));
  }
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(alloc_failures_create),
      cmocka_unit_test(alloc_failures_query),
      cmocka_unit_test(alloc_failures_edit),
      cmocka_unit_test(node_after_failed_edit),
      cmocka_unit_test(update_elsewhere_after_failed_edit),
      cmocka_unit_test(allocator_never_concurrent),
      cmocka_unit_test(small_grid_builds_on_the_caller),
      cmocka_unit_test(core_path_buffer_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
