/* The bad-input matrix of the library (docs/RELIABILITY.md), hierarchy rows:
 * a map with no passable cell, refused arguments, an edit while a path is
 * being refined; one test per row. Each feeds one kind of bad input, checks
 * the documented status, and then does a valid operation on the same objects
 * and checks its result, so a refusal is known to leave everything usable. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cairn_hierarchy.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(no_passable_hpa),
      cmocka_unit_test(hpa_bad_input),
      cmocka_unit_test(hpa_edit_while_refining),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
