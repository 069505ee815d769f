/* The hierarchy's bad input. The rows of the library's bad-input matrix
 * (docs/RELIABILITY.md): a map with no passable cell, refused arguments, an
 * edit while a path is being refined; one test per row. Each feeds one kind
 * of bad input, checks the documented status, and then does a valid
 * operation on the same objects and checks its result, so a refusal is
 * known to leave everything usable. Then every refusal of the hierarchy's
 * calls (bad_input), after which the objects answer exactly as before. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_hpa_util.h"

#include <string.h>

#include "cairn/hierarchy.h"

/* ---- a map with no passable cell ------------------------------------ */

static void no_passable_hpa(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(32, 32, 0, NULL, &g), CAIRN_OK);
  cairn_hpa *h = NULL;
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = 8;
  ho.threads = 1;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  cairn_hpa_stats st;
  cairn_hpa_get_stats(h, &st);
  assert_int_equal(st.nodes, 0);
  cairn_hpa_query *q = NULL;
  assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
  cairn_point a = {1, 1}, b = {30, 30};
  cairn_hpa_result r;
  assert_int_equal(cairn_hpa_find(q, h, a, b, NULL, &r), CAIRN_ERR_BLOCKED);
  /* open a corridor along row 1 and column 30 through the hierarchy */
  cairn_point cells[62];
  uint8_t costs[62];
  size_t n = 0;
  for (int32_t x = 1; x <= 30; x++) cells[n++] = (cairn_point){x, 1};
  for (int32_t y = 2; y <= 30; y++) cells[n++] = (cairn_point){30, y};
  memset(costs, 1, sizeof costs);
  assert_int_equal(cairn_hpa_edit(h, g, cells, costs, n), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(q, h, a, b, NULL, &r), CAIRN_OK);
  assert_int_equal(r.cost, (cairn_cost)(n - 1) * CAIRN_COST_ONE);
  assert_int_equal(tu_path_cost(g, r.path, r.path_len, a, b, 8), r.cost);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* ---- hierarchy ------------------------------------------------------ */

static void hpa_bad_input(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(32, 32, 1, NULL, &g), CAIRN_OK);
  cairn_hpa *h = NULL;
  cairn_hpa_opts ho = cairn_hpa_defaults();
  const int32_t bad_clusters[] = {-1, 3, CAIRN_HPA_MAX_CLUSTER + 1};
  for (size_t k = 0; k < 3; k++) {
    ho.cluster = bad_clusters[k];
    assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_ERR_ARG);
    assert_null(h);
  }
  ho = cairn_hpa_defaults();
  ho.landmarks = CAIRN_GRAPH_MAX_LANDMARKS + 1;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_ERR_ARG);
  ho = cairn_hpa_defaults();
  ho.cluster = 8;
  ho.threads = 1;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  cairn_hpa_query *q = NULL;
  assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
  cairn_hpa_result r;
  cairn_point ok = {0, 0}, off = {32, 0}, neg = {-1, -1};
  assert_int_equal(cairn_hpa_find(q, h, ok, off, NULL, &r), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_hpa_find(q, h, neg, ok, NULL, &r), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_hpa_plan(q, h, neg, ok, NULL, &r), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_hpa_refine(q, 1, &r), CAIRN_ERR_RANGE);
  cairn_point cell = {40, 3};
  uint8_t zero = 0;
  assert_int_equal(cairn_hpa_edit(h, g, &cell, &zero, 1), CAIRN_ERR_RANGE);
  cairn_point goal = {31, 31};
  assert_int_equal(cairn_hpa_find(q, h, ok, goal, NULL, &r), CAIRN_OK);
  assert_int_equal(tu_path_cost(g, r.path, r.path_len, ok, goal, 8), r.cost);
  assert_true(r.cost >= 31 * CAIRN_COST_DIAG);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* An edit between a plan and its refinement: the route's node ids and the
 * cluster paths behind them are gone, so refine refuses (it used to read
 * past the rebuilt arrays); a new plan answers on the edited map. */
static void hpa_edit_while_refining(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(64, 64, 1, NULL, &g), CAIRN_OK);
  cairn_hpa *h = NULL;
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = 8;
  ho.threads = 1;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  cairn_hpa_query *q = NULL;
  assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  po.nearby = 0;
  cairn_point a = {0, 0}, b = {62, 62}; /* open after the edit too */
  cairn_hpa_result r;
  assert_int_equal(cairn_hpa_plan(q, h, a, b, &po, &r), CAIRN_IN_PROGRESS);
  assert_true(r.route_len > 2);
  assert_int_equal(cairn_hpa_refine(q, 1, &r), CAIRN_IN_PROGRESS);
  /* walls on every cluster border but for a gap in each: far fewer
   * entrances than the route was planned over */
  cairn_point cells[64 * 16];
  uint8_t zeros[64 * 16];
  size_t n = 0;
  for (int32_t y = 0; y < 64; y++)
    for (int32_t x = 0; x < 64; x++)
      if ((x % 8 == 7 || y % 8 == 7) && x % 8 != 3 && y % 8 != 3)
        cells[n++] = (cairn_point){x, y};
  memset(zeros, 0, n);
  assert_int_equal(cairn_hpa_edit(h, g, cells, zeros, n), CAIRN_OK);
  assert_int_equal(cairn_hpa_refine(q, UINT32_MAX, &r), CAIRN_ERR_STATE);
  assert_int_equal(r.status, CAIRN_ERR_STATE);
  assert_null(r.path);
  assert_int_equal(cairn_hpa_refine(q, 1, &r), CAIRN_ERR_STATE); /* stays */
  assert_int_equal(cairn_hpa_find(q, h, a, b, &po, &r), CAIRN_OK);
  assert_int_equal(tu_path_cost(g, r.path, r.path_len, a, b, 8), r.cost);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* ---- refusals of bad input ------------------------------------------ */

/* Every refused argument of the hierarchy's calls (bad_input below) leaves
 * the hierarchy and its query context answering exactly as before. */

enum { REFS = 12 };

typedef struct reference {
  cairn_point a[REFS], b[REFS];
  answer want[REFS];
} reference;

static void take_reference(cairn_hpa_query *q, const cairn_hpa *h,
                           const cairn_grid *g, uint64_t *rng, reference *ref) {
  for (int i = 0; i < REFS; i++) {
    ref->a[i] = tu_random_open(rng, g);
    ref->b[i] = tu_random_open(rng, g);
    cairn_hpa_path_opts o = mixed_opts(i);
    cairn_hpa_result r;
    cairn_status st = cairn_hpa_find(q, h, ref->a[i], ref->b[i], &o, &r);
    assert_true(st == CAIRN_OK || st == CAIRN_NO_PATH);
    ref->want[i] = capture(st, &r);
  }
}

/* The objects still answer exactly as before. */
static void check_reference(cairn_hpa_query *q, const cairn_hpa *h,
                            const reference *ref) {
  for (int i = 0; i < REFS; i++) {
    cairn_hpa_path_opts o = mixed_opts(i);
    cairn_hpa_result r;
    cairn_status st = cairn_hpa_find(q, h, ref->a[i], ref->b[i], &o, &r);
    answer got = capture(st, &r);
    assert_true(same_answer(&got, &ref->want[i]));
  }
}

static void bad_input(void **state) {
  (void)state;
  uint64_t rng = 0xbad;
  cairn_grid *g = tu_random_grid(&rng, 40, 30, 25, 3);
  cairn_grid *other = copy_grid(g);
  cairn_hpa *h = NULL;
  cairn_hpa_opts o = cairn_hpa_defaults();
  assert_int_equal(o.cluster, CAIRN_HPA_DEFAULT_CLUSTER);
  assert_null(o.jobs);
  assert_int_equal(o.threads, 0);
  assert_int_equal(o.levels, 0);
  assert_int_equal(o.block, CAIRN_HPA_DEFAULT_BLOCK);
  assert_int_equal(o.landmarks, CAIRN_HPA_DEFAULT_LANDMARKS);
  /* create */
  assert_int_equal(cairn_hpa_create(NULL, &o, NULL, &h), CAIRN_ERR_ARG);
  assert_null(h);
  assert_int_equal(cairn_hpa_create(g, &o, NULL, NULL), CAIRN_ERR_ARG);
  const int32_t bad_sides[] = {3, 129, -1, 1, 2, 1000, INT32_MIN};
  for (size_t i = 0; i < sizeof bad_sides / sizeof *bad_sides; i++) {
    o.cluster = bad_sides[i];
    h = (cairn_hpa *)&o; /* must be cleared */
    assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_ERR_ARG);
    assert_null(h);
  }
  o = cairn_hpa_defaults();
  o.threads = -1;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_ERR_ARG);
  o.threads = CAIRN_JOBS_MAX_WORKERS + 1;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_ERR_ARG);
  /* jobs: a run function and 1 .. CAIRN_JOBS_MAX_WORKERS workers */
  tj_sched js = tj_make(0, 0, 1);
  o = cairn_hpa_defaults();
  o.jobs = tj_jobs(&js);
  const struct {
    uint32_t workers;
    bool run;
  } bad_jobs[] = {{0, true}, {CAIRN_JOBS_MAX_WORKERS + 1, true}, {2, false}, {0, false}};
  for (size_t i = 0; i < sizeof bad_jobs / sizeof *bad_jobs; i++) {
    js.jobs.workers = bad_jobs[i].workers;
    js.jobs.run = bad_jobs[i].run ? tj_run : NULL;
    h = (cairn_hpa *)&o;
    assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_ERR_ARG);
    assert_null(h);
  }
  assert_int_equal(js.tasks, 0);
  js.jobs.workers = CAIRN_JOBS_MAX_WORKERS;
  js.jobs.run = tj_run;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_OK);
  assert_true(js.tasks > 0);
  cairn_hpa_destroy(h);
  /* landmarks -1 (none), 0 (the default) or 1..CAIRN_GRAPH_MAX_LANDMARKS */
  const int32_t lms[] = {-2, CAIRN_GRAPH_MAX_LANDMARKS + 1, INT32_MIN, -1, 0, 1,
                         CAIRN_GRAPH_MAX_LANDMARKS};
  for (size_t i = 0; i < sizeof lms / sizeof *lms; i++) {
    o = cairn_hpa_defaults();
    o.landmarks = lms[i];
    cairn_status want = i < 3 ? CAIRN_ERR_ARG : CAIRN_OK;
    assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), want);
    if (want != CAIRN_OK) continue;
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(h, &hs);
    uint32_t n = lms[i] < 0 ? 0 : lms[i] ? (uint32_t)lms[i] : CAIRN_HPA_DEFAULT_LANDMARKS;
    assert_true(hs.landmarks <= n); /* fewer when entrances repeat */
    assert_true(hs.landmarks > 0 || n == 0);
    cairn_hpa_destroy(h);
  }
  o = cairn_hpa_defaults();
  /* levels 0, 2 or 3; block side 2..64 (0: the default) */
  const struct {
    int levels;
    int32_t block;
    bool ok;
  } lv[] = {{1, 0, false}, {4, 0, false},  {-1, 0, false}, {3, 1, false},
            {3, 65, false}, {3, -2, false}, {2, 65, false},  {3, 2, true},
            {3, 64, true},  {2, 0, true},   {0, 0, true},    {3, 0, true}};
  for (size_t i = 0; i < sizeof lv / sizeof *lv; i++) {
    o = cairn_hpa_defaults();
    o.cluster = 4;
    o.levels = lv[i].levels;
    o.block = lv[i].block;
    h = (cairn_hpa *)&o;
    cairn_status st = cairn_hpa_create(g, &o, NULL, &h);
    if (!lv[i].ok) {
      assert_int_equal(st, CAIRN_ERR_ARG);
      assert_null(h);
      continue;
    }
    assert_int_equal(st, CAIRN_OK);
    cairn_hpa_stats s;
    cairn_hpa_get_stats(h, &s);
    assert_int_equal(s.levels, lv[i].levels ? lv[i].levels : 2); /* 80 clusters */
    if (s.levels == 3) {
      int32_t side = lv[i].block ? lv[i].block : CAIRN_HPA_DEFAULT_BLOCK;
      assert_int_equal(s.block, side);
      assert_int_equal(s.blocks, (uint32_t)((10 + side - 1) / side) * (uint32_t)((8 + side - 1) / side));
      if (s.blocks > 1) assert_true(s.nodes2 > 0);
    }
    /* and it answers (one block of all clusters included) */
    cairn_hpa_query *lq = new_query();
    cairn_search *ls = NULL;
    assert_int_equal(cairn_search_create(NULL, &ls), CAIRN_OK);
    vs_astar t;
    memset(&t, 0, sizeof t);
    for (int k = 0; k < 40; k++) {
      cairn_point qa = tu_random_open(&rng, g), qb = tu_random_open(&rng, g);
      cairn_hpa_path_opts po = popts(k % 2 ? 0 : -1, k % 3 != 0);
      check_against_astar(lq, h, ls, g, qa, qb, &po, &t);
    }
    cairn_search_destroy(ls);
    cairn_hpa_query_destroy(lq);
    cairn_hpa_destroy(h);
  }
  const int32_t good_sides[] = {CAIRN_HPA_MIN_CLUSTER, CAIRN_HPA_MAX_CLUSTER, 0, 5};
  for (size_t i = 0; i < sizeof good_sides / sizeof *good_sides; i++) {
    o = cairn_hpa_defaults();
    o.cluster = good_sides[i];
    assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_OK);
    cairn_hpa_stats s;
    cairn_hpa_get_stats(h, &s);
    assert_int_equal(s.cluster, good_sides[i] ? good_sides[i] : CAIRN_HPA_DEFAULT_CLUSTER);
    cairn_hpa_destroy(h);
  }
  cairn_hpa_destroy(NULL);
  cairn_hpa_query_destroy(NULL);
  assert_int_equal(cairn_hpa_query_create(NULL, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_query_memory(NULL), 0);
  assert_null(cairn_hpa_graph(NULL));
  cairn_hpa_stats zero;
  memset(&zero, 0xff, sizeof zero);
  cairn_hpa_get_stats(NULL, &zero);
  assert_int_equal(zero.nodes, 0);
  assert_int_equal(zero.edges, 0);

  h = build(g, 8, 0);
  cairn_hpa_get_stats(h, NULL);
  cairn_hpa_query *q = new_query(), *fresh_q = new_query();
  reference ref;
  take_reference(q, h, g, &rng, &ref);
  cairn_hpa_result r;
  cairn_point ok_a = ref.a[0], ok_b = ref.b[0];
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  assert_int_equal(po.nearby, -1);
  assert_int_equal(po.smooth, 1);

  /* refine before any plan */
  memset(&r, 0xff, sizeof r);
  assert_int_equal(cairn_hpa_refine(fresh_q, 1, &r), CAIRN_ERR_STATE);
  assert_int_equal(r.status, CAIRN_ERR_STATE);
  assert_int_equal(cairn_hpa_refine(fresh_q, 1, NULL), CAIRN_ERR_STATE);
  assert_int_equal(cairn_hpa_refine(NULL, 1, &r), CAIRN_ERR_ARG);
  /* NULLs */
  refused(cairn_hpa_find(NULL, h, ok_a, ok_b, NULL, &r), CAIRN_ERR_ARG, &r);
  refused(cairn_hpa_find(q, NULL, ok_a, ok_b, NULL, &r), CAIRN_ERR_ARG, &r);
  /* refine repeats a finished query's answer, a refusal included */
  assert_int_equal(cairn_hpa_refine(q, 1, &r), CAIRN_ERR_ARG);
  refused(cairn_hpa_plan(NULL, h, ok_a, ok_b, NULL, &r), CAIRN_ERR_ARG, NULL);
  refused(cairn_hpa_plan(q, NULL, ok_a, ok_b, NULL, &r), CAIRN_ERR_ARG, &r);
  assert_int_equal(cairn_hpa_refine(q, 1, &r), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_find(q, h, ok_a, ok_b, NULL, NULL), ref.want[0].status);
  check_reference(q, h, &ref);
  /* off the grid, on a wall, bad options */
  cairn_point wall = pt(-1, -1);
  for (int32_t y = 0; y < 30 && wall.x < 0; y++)
    for (int32_t x = 0; x < 40 && wall.x < 0; x++)
      if (!cairn_grid_cost(g, x, y)) wall = pt(x, y);
  assert_true(wall.x >= 0);
  const cairn_point off[] = {{-1, 0}, {0, -1}, {40, 0}, {0, 30}, {40, 30},
                             {INT32_MIN, 0}, {0, INT32_MAX}};
  for (int plan = 0; plan < 2; plan++) {
    for (size_t i = 0; i < sizeof off / sizeof *off; i++) {
      cairn_status st = plan ? cairn_hpa_plan(q, h, off[i], ok_b, NULL, &r)
                             : cairn_hpa_find(q, h, off[i], ok_b, NULL, &r);
      refused(st, CAIRN_ERR_RANGE, &r);
      /* refine repeats the refusal */
      refused(cairn_hpa_refine(q, 1, &r), CAIRN_ERR_RANGE, &r);
      st = plan ? cairn_hpa_plan(q, h, ok_a, off[i], NULL, &r)
                : cairn_hpa_find(q, h, ok_a, off[i], NULL, &r);
      refused(st, CAIRN_ERR_RANGE, &r);
    }
    refused(plan ? cairn_hpa_plan(q, h, wall, ok_b, NULL, &r)
                 : cairn_hpa_find(q, h, wall, ok_b, NULL, &r),
            CAIRN_ERR_BLOCKED, &r);
    refused(plan ? cairn_hpa_plan(q, h, ok_a, wall, NULL, &r)
                 : cairn_hpa_find(q, h, ok_a, wall, NULL, &r),
            CAIRN_ERR_BLOCKED, &r);
    refused(cairn_hpa_refine(q, 1, &r), CAIRN_ERR_BLOCKED, &r);
    cairn_hpa_path_opts bad = popts(-2, 1);
    refused(plan ? cairn_hpa_plan(q, h, ok_a, ok_b, &bad, &r)
                 : cairn_hpa_find(q, h, ok_a, ok_b, &bad, &r),
            CAIRN_ERR_ARG, &r);
    bad.nearby = INT32_MIN;
    refused(cairn_hpa_find(q, h, ok_a, ok_b, &bad, &r), CAIRN_ERR_ARG, &r);
    check_reference(q, h, &ref);
  }
  /* edits and updates */
  cairn_point cell = ok_a, offmap[2] = {ok_a, {40, 3}};
  uint8_t cost = 0, costs2[2] = {0, 0};
  uint8_t before = cairn_grid_cost(g, cell.x, cell.y);
  assert_int_equal(cairn_hpa_edit(h, other, &cell, &cost, 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_edit(NULL, g, &cell, &cost, 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_edit(h, NULL, &cell, &cost, 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_edit(h, g, NULL, &cost, 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_edit(h, g, &cell, NULL, 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_edit(h, g, offmap, costs2, 2), CAIRN_ERR_RANGE);
  offmap[1] = pt(-1, 0);
  assert_int_equal(cairn_hpa_edit(h, g, offmap, costs2, 2), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_grid_cost(g, cell.x, cell.y), before); /* all or nothing */
  assert_int_equal(cairn_grid_cost(other, cell.x, cell.y), before);
  cairn_rect rect = {cell.x, cell.y, 1, 1}, empty = {cell.x, cell.y, 0, 1},
             outside = {100, 100, 2, 2}, negative = {-10, -10, 3, 3};
  assert_int_equal(cairn_hpa_update(h, other, rect), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_update(NULL, g, rect), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_update(h, g, empty), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_update(h, g, outside), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_hpa_update(h, g, negative), CAIRN_ERR_RANGE);
  check_reference(q, h, &ref);
  assert_matches_fresh(h, g, 8, &rng, 20);
  /* inspection */
  cairn_hpa_stats s;
  cairn_hpa_get_stats(h, &s);
  cairn_point p;
  assert_int_equal(cairn_hpa_node(h, s.nodes, &p), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_hpa_node(h, UINT32_MAX, &p), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_hpa_node(NULL, 0, &p), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_node(h, 0, NULL), CAIRN_ERR_ARG);
  assert_true(cairn_hpa_query_memory(q) > 0);
  check_reference(q, h, &ref);
  check_reference(fresh_q, h, &ref);
  cairn_hpa_query_destroy(q);
  cairn_hpa_query_destroy(fresh_q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(other);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(no_passable_hpa),
      cmocka_unit_test(hpa_bad_input),
      cmocka_unit_test(hpa_edit_while_refining),
      cmocka_unit_test(bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
