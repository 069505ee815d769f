/* The bad-input matrix of the library (docs/RELIABILITY.md), flow-field
 * rows: a map with no passable cell, bad goals, bad tile input; one test per
 * row. Each feeds one kind of bad input, checks the documented status, and
 * then does a valid operation on the same objects and checks its result, so
 * a refusal is known to leave everything usable. */
#include "test_util.h"
#include "test_badinput_util.h"

#include <math.h>

#include "cairn_flowfield.h"
#include "cairn_hierarchy.h"

/* ---- a map with no passable cell ------------------------------------ */

static void no_passable_flow(void **state) {
  (void)state;
  cairn_grid *g = walled_grid();
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
  cairn_point goal = {3, 3};
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, NULL), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_field_dir(f, 3, 3), CAIRN_FLOW_NONE);
  assert_int_equal(cairn_field_cost(f, 3, 3), CAIRN_COST_INF);
  assert_int_equal(cairn_grid_set_cost(g, 3, 3, 1), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, 4, 3, 1), CAIRN_OK);
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, NULL), CAIRN_OK);
  assert_int_equal(cairn_field_cost(f, 4, 3), CAIRN_COST_ONE);
  assert_int_equal(cairn_field_dir(f, 3, 3), CAIRN_FLOW_GOAL);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* ---- flow fields ---------------------------------------------------- */

static void flow_bad_goals(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
  cairn_point off = {4, 0}, neg = {-1, 0}, wall = {1, 1}, ok = {3, 2};
  assert_int_equal(cairn_field_build(b, f, g, &off, 1, NULL), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_field_build(b, f, g, &neg, 1, NULL), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_field_build(b, f, g, &wall, 1, NULL), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_field_build(b, f, g, &ok, 0, NULL), CAIRN_ERR_ARG);
  /* more goals than the limit: refused from the count, before reading */
  assert_int_equal(cairn_field_build(b, f, g, &ok, (size_t)CAIRN_FLOW_MAX_GOALS + 1, NULL),
                   CAIRN_ERR_TOO_LARGE);
  cairn_flow_opts o = cairn_flow_defaults();
  o.los_radius = CAIRN_FLOW_MAX_LOS + 1;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, NULL), CAIRN_OK);
  assert_int_equal(cairn_field_cost(f, 0, 0), 5 * CAIRN_COST_ONE);
  cairn_flow_sample smp;
  assert_int_equal(cairn_field_sample(f, NAN, 0.5f, &smp), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_sample(f, 0.5f, -3.0f, &smp), CAIRN_ERR_RANGE);
  assert_int_equal(smp.dir, CAIRN_FLOW_NONE);
  assert_int_equal(cairn_field_sample(f, INFINITY, 0.5f, &smp) < 0, 1);
  assert_int_equal(cairn_field_sample(f, 0.5f, 0.5f, &smp), CAIRN_OK);
  /* a unit vector, east or south (round the wall), never back */
  assert_true(smp.vx >= 0.0f && smp.vy >= 0.0f);
  assert_true(fabsf(smp.vx * smp.vx + smp.vy * smp.vy - 1.0f) < 1e-3f);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* Flow tiles over a hierarchy: a goal off the map or on a wall, no room
 * for sectors, a query cell off the map; then a valid tile set answers. */
static void flow_tiles_bad_input(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(32, 32, 1, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, 5, 5, 0), CAIRN_OK);
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = 8;
  ho.threads = 1;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  cairn_flow_tiles *t = NULL;
  cairn_point goal = {30, 30};
  assert_int_equal(cairn_flow_tiles_create(g, h, (cairn_point){-1, 0}, 16, NULL, &t),
                   CAIRN_ERR_RANGE);
  assert_int_equal(cairn_flow_tiles_create(g, h, (cairn_point){5, 5}, 16, NULL, &t),
                   CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_flow_tiles_create(g, h, goal, 0, NULL, &t), CAIRN_ERR_ARG);
  assert_null(t);
  assert_int_equal(cairn_flow_tiles_create(g, h, goal, 16, NULL, &t), CAIRN_OK);
  cairn_hpa_query *q = NULL;
  assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
  assert_int_equal(cairn_flow_tiles_route(t, q, (cairn_point){32, 0}), CAIRN_ERR_RANGE);
  int dir;
  cairn_cost c;
  assert_int_equal(cairn_flow_tiles_dir(t, -1, 0, &dir, &c), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_flow_tiles_route(t, q, (cairn_point){0, 0}), CAIRN_OK);
  assert_int_equal(cairn_flow_tiles_dir(t, 0, 0, &dir, &c), CAIRN_OK);
  assert_true(dir >= 0 && dir < 8);
  assert_true(c != CAIRN_COST_INF && c >= 30 * CAIRN_COST_DIAG);
  cairn_hpa_query_destroy(q);
  cairn_flow_tiles_destroy(t);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(no_passable_flow),
      cmocka_unit_test(flow_bad_goals),
      cmocka_unit_test(flow_tiles_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
