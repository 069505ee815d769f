/* Flow fields' bad input. The rows of the library's bad-input matrix
 * (docs/RELIABILITY.md): a map with no passable cell, bad goals, bad tile
 * input; one test per row. Each feeds one kind of bad input, checks the
 * documented status, and then does a valid operation on the same objects
 * and checks its result, so a refusal is known to leave everything usable.
 * Then the refusals of every call of the module (bad_input). */
#include "test_jobs.h"
#include "test_util.h"
#include "test_badinput_util.h"
#include "test_flow_util.h"

#include <math.h>

#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

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

/* ---- refusals of bad input ------------------------------------------ */

/* Every call of the module refuses what it must: missing objects, a grid
 * of another size, goals off the map or in walls, bad options, and the
 * batch's, the cache's and the tiles' bad arguments. */
static void bad_input(void **state) {
  (void)state;
  static const char *const rows[] = {"..#..", ".....", "..2.."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_grid *other = NULL;
  assert_int_equal(cairn_grid_create(6, 3, 1, NULL, &other), CAIRN_OK);
  cairn_flow_builder *b = new_builder();
  cairn_field *f = new_field(g);
  cairn_field *none = NULL;
  assert_int_equal(cairn_field_create(NULL, NULL, &none), CAIRN_ERR_ARG);
  assert_null(none);
  assert_int_equal(cairn_field_create(g, NULL, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_builder_create(NULL, NULL), CAIRN_ERR_ARG);
  cairn_point ok = pt(0, 0), off = pt(5, 0), wall = pt(2, 0), neg = pt(-1, 1);
  assert_int_equal(cairn_field_build(NULL, f, g, &ok, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, NULL, g, &ok, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, NULL, &ok, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, g, NULL, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, g, &ok, 0, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, g, &off, 1, NULL), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_field_build(b, f, g, &neg, 1, NULL), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_field_build(b, f, g, &wall, 1, NULL), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_field_build(b, f, other, &ok, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, g, &ok, CAIRN_FLOW_MAX_GOALS + 1, NULL),
                   CAIRN_ERR_TOO_LARGE);
  cairn_flow_opts o = cairn_flow_defaults();
  o.moves = 6;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  o = cairn_flow_defaults();
  o.los_radius = CAIRN_FLOW_MAX_LOS + 1;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  o = cairn_flow_defaults();
  o.queue = CAIRN_FLOW_QUEUE_FIFO; /* the map has a cell of cost 2 */
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  o.queue = (cairn_flow_queue)7;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  /* a refused build leaves an empty field */
  assert_true(cairn_field_cost(f, 0, 0) == CAIRN_COST_INF);
  assert_int_equal(cairn_field_dir(f, 0, 0), CAIRN_FLOW_NONE);
  assert_int_equal(cairn_field_repair(b, f, &ok, 1), CAIRN_ERR_ARG);
  cairn_search *s = new_search();
  cairn_field_fault fault;
  assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_ERR_STATE);
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, NULL), CAIRN_OK);
  assert_true(cairn_field_cost(f, 9, 9) == CAIRN_COST_INF);
  assert_int_equal(cairn_field_dir(f, -1, 0), CAIRN_FLOW_NONE);
  assert_int_equal(cairn_field_dir(f, 0, 0), CAIRN_FLOW_GOAL);
  assert_true(cairn_field_cost(f, 2, 0) == CAIRN_COST_INF);
  cairn_flow_sample smp;
  assert_int_equal(cairn_field_sample(f, NAN, 1, &smp), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_sample(f, 5.0f, 1, &smp), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_field_sample(f, -0.5f, 1, &smp), CAIRN_ERR_RANGE);
  assert_int_equal(smp.dir, CAIRN_FLOW_NONE);
  assert_int_equal(cairn_field_sample(NULL, 1, 1, &smp), CAIRN_ERR_ARG);
  cairn_cost buf[15];
  assert_int_equal(cairn_field_copy_costs(f, buf, 14), CAIRN_ERR_BUFFER);
  assert_int_equal(cairn_field_copy_costs(f, buf, 15), CAIRN_OK);
  assert_true(buf[2] == CAIRN_COST_INF && buf[0] == 0);
  /* leaving the cost-2 cell (2,2) costs nothing extra (two diagonals to the
   * goal); entering it costs double, so (3,2) goes round it */
  assert_true(cairn_field_cost(f, 2, 2) == 2 * CAIRN_COST_DIAG);
  assert_true(cairn_field_cost(f, 3, 2) == 2 * CAIRN_COST_DIAG + CAIRN_COST_ONE);
  /* bad jobs and thread counts */
  o = cairn_flow_defaults();
  cairn_jobs bad = {0, tj_run, NULL}; /* no workers */
  o.jobs = &bad;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  bad.workers = 1;
  bad.run = NULL;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  bad.workers = CAIRN_JOBS_MAX_WORKERS + 1;
  bad.run = tj_run;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  cairn_flow_cache *bc = NULL;
  assert_int_equal(cairn_flow_cache_create(g, 1 << 20, &o, NULL, &bc), CAIRN_ERR_ARG);
  assert_null(bc);
  cairn_flow_builder *one[1] = {b};
  cairn_flow_request breq = {f, &ok, 1, CAIRN_ERR_STATE};
  assert_int_equal(cairn_flow_build_batch(one, 1, g, &breq, 1, &o), CAIRN_ERR_ARG);
  assert_int_equal(breq.status, CAIRN_ERR_STATE); /* refused before any build */
  o = cairn_flow_defaults();
  o.threads = -1;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  o.threads = CAIRN_JOBS_MAX_WORKERS + 1;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_create(g, 1 << 20, &o, NULL, &bc), CAIRN_ERR_ARG);
  assert_true(cairn_field_cost(f, 0, 0) == CAIRN_COST_INF);
  /* batch and cache refusals */
  cairn_flow_request req = {NULL, &ok, 1, CAIRN_OK};
  assert_int_equal(cairn_flow_build_batch(&b, 1, g, &req, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(req.status, CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_build_batch(NULL, 1, g, &req, 1, NULL), CAIRN_ERR_ARG);
  cairn_flow_cache *c = NULL;
  assert_int_equal(cairn_flow_cache_create(g, 0, NULL, NULL, &c), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_create(g, 1 << 20, NULL, NULL, &c), CAIRN_OK);
  const cairn_field *cf;
  assert_int_equal(cairn_flow_cache_acquire(c, b, &wall, 1, &cf), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &ok, 0, &cf), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_release(c, f), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_update(c, b, &off, 1, NULL, NULL), CAIRN_ERR_RANGE);
  cairn_flow_cache_stats cs;
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 0);
  cairn_flow_cache_destroy(c);
  /* tiles */
  cairn_hpa *hpa = NULL;
  assert_int_equal(cairn_hpa_create(g, NULL, NULL, &hpa), CAIRN_OK);
  cairn_flow_tiles *t = NULL;
  assert_int_equal(cairn_flow_tiles_create(g, hpa, wall, 4, NULL, &t), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_flow_tiles_create(g, hpa, off, 4, NULL, &t), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_flow_tiles_create(g, hpa, ok, 0, NULL, &t), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_tiles_create(g, hpa, ok, 4, NULL, &t), CAIRN_OK);
  int d;
  assert_int_equal(cairn_flow_tiles_dir(t, 7, 0, &d, NULL), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_flow_tiles_dir(t, 4, 2, &d, NULL), CAIRN_OK);
  assert_true(d < 8);
  cairn_flow_tiles_destroy(t);
  cairn_hpa_destroy(hpa);
  cairn_search_destroy(s);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
  cairn_grid_destroy(other);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(no_passable_flow),
      cmocka_unit_test(flow_bad_goals),
      cmocka_unit_test(flow_tiles_bad_input),
      cmocka_unit_test(bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
