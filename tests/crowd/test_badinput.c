/* The bad-input matrix of the library (docs/RELIABILITY.md), crowd rows: a
 * map with no passable cell, bad options and floats, a full crowd, handles
 * removed twice or stale, bad goals; one test per row. Each feeds one kind
 * of bad input, checks the documented status, and then does a valid
 * operation on the same objects and checks its result, so a refusal is known
 * to leave everything usable. Limits are checked with an allocator that
 * refuses every request. */
#include "test_util.h"
#include "test_badinput_util.h"

#include <math.h>

#include "cairn/crowd.h"
#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

/* ---- a map with no passable cell ------------------------------------ */

static void no_passable_crowd(void **state) {
  (void)state;
  cairn_grid *g = walled_grid();
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 4;
  o.threads = 1;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  cairn_agent_params p = {2.5f, 2.5f, 0.3f, 1.0f, 0, 0};
  cairn_agent a = 1;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_BLOCKED);
  assert_int_equal(a, 0);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  cairn_crowd_stats st;
  cairn_crowd_get_stats(c, &st);
  assert_int_equal(st.agents, 0);
  assert_int_equal(st.ticks, 1);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* ---- crowds --------------------------------------------------------- */

static cairn_crowd *small_crowd(const cairn_grid *g, uint32_t max) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = max;
  o.threads = 1;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

static cairn_agent add_agent(cairn_crowd *c, float x, float y) {
  cairn_agent_params p = {x, y, 0.3f, 1.0f, 0, 0};
  cairn_agent a = 0;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_OK);
  return a;
}

static void crowd_bad_opts(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  tu_alloc t;
  cairn_allocator a = refusing(&t);
  cairn_crowd *c = NULL;
  const float bad[] = {NAN, INFINITY, -INFINITY, 0.0f, -1.0f};
  for (size_t k = 0; k < 5; k++) {
    cairn_crowd_opts o = cairn_crowd_defaults();
    o.dt = bad[k];
    assert_int_equal(cairn_crowd_create(g, &o, &a, &c), CAIRN_ERR_ARG);
    o = cairn_crowd_defaults();
    o.bin_size = bad[k];
    assert_int_equal(cairn_crowd_create(g, &o, &a, &c), CAIRN_ERR_ARG);
    o = cairn_crowd_defaults();
    o.neighbour_radius = bad[k];
    assert_int_equal(cairn_crowd_create(g, &o, &a, &c), CAIRN_ERR_ARG);
    assert_null(c);
  }
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 0;
  assert_int_equal(cairn_crowd_create(g, &o, &a, &c), CAIRN_ERR_ARG);
  o.max_agents = CAIRN_CROWD_MAX_AGENTS + 1;
  assert_int_equal(cairn_crowd_create(g, &o, &a, &c), CAIRN_ERR_ARG);
  o.max_agents = UINT32_MAX;
  assert_int_equal(cairn_crowd_create(g, &o, &a, &c), CAIRN_ERR_ARG);
  assert_int_equal(t.calls, 0); /* refused before any allocation */
  c = small_crowd(g, 2);
  cairn_agent ag = add_agent(c, 0.5f, 0.5f);
  cairn_agent_info i;
  assert_int_equal(cairn_crowd_get(c, ag, &i), CAIRN_OK);
  assert_true(i.x == 0.5f && i.y == 0.5f);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void crowd_bad_floats(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *c = small_crowd(g, 4);
  const float bad[] = {NAN, INFINITY, -INFINITY};
  cairn_agent a = 0;
  for (size_t k = 0; k < 3; k++) {
    cairn_agent_params p = {bad[k], 0.5f, 0.3f, 1.0f, 0, 0};
    assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
    p = (cairn_agent_params){0.5f, bad[k], 0.3f, 1.0f, 0, 0};
    assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
    p = (cairn_agent_params){0.5f, 0.5f, bad[k], 1.0f, 0, 0};
    assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
    p = (cairn_agent_params){0.5f, 0.5f, 0.3f, bad[k], 0, 0};
    assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  }
  assert_int_equal(cairn_crowd_count(c), 0);
  cairn_agent ag = add_agent(c, 0.5f, 0.5f);
  for (size_t k = 0; k < 3; k++) {
    assert_int_equal(cairn_crowd_set_position(c, ag, bad[k], 0.5f), CAIRN_ERR_ARG);
    assert_int_equal(cairn_crowd_set_position(c, ag, 0.5f, bad[k]), CAIRN_ERR_ARG);
  }
  /* off the map, negative, on the wall */
  assert_int_equal(cairn_crowd_set_position(c, ag, -0.5f, 0.5f), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_crowd_set_position(c, ag, 4.0f, 0.5f), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_crowd_set_position(c, ag, 0.5f, 1e30f), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_crowd_set_position(c, ag, 1.5f, 1.5f), CAIRN_ERR_BLOCKED);
  cairn_agent_info i;
  assert_int_equal(cairn_crowd_get(c, ag, &i), CAIRN_OK);
  assert_true(i.x == 0.5f && i.y == 0.5f); /* unmoved */
  assert_int_equal(cairn_crowd_set_position(c, ag, 3.5f, 2.5f), CAIRN_OK);
  assert_int_equal(cairn_crowd_get(c, ag, &i), CAIRN_OK);
  assert_true(i.x == 3.5f && i.y == 2.5f);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  cairn_crowd_stats st;
  cairn_crowd_get_stats(c, &st);
  assert_int_equal(st.non_finite, 0);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void crowd_full(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *c = small_crowd(g, 1);
  cairn_agent a = add_agent(c, 0.5f, 0.5f), b = 5;
  cairn_agent_params p = {3.5f, 0.5f, 0.3f, 1.0f, 0, 0};
  assert_int_equal(cairn_crowd_add(c, &p, &b), CAIRN_ERR_TOO_LARGE);
  assert_int_equal(b, 0);
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_OK);
  assert_int_equal(cairn_crowd_add(c, &p, &b), CAIRN_OK);
  assert_int_equal(cairn_crowd_count(c), 1);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void crowd_remove_twice(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *c = small_crowd(g, 4);
  cairn_agent a = add_agent(c, 0.5f, 0.5f), b = add_agent(c, 3.5f, 0.5f);
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_OK);
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_count(c), 1);
  assert_int_equal(cairn_crowd_remove(c, 0), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_remove(c, (cairn_agent)3 | (cairn_agent)1 << 32),
                   CAIRN_ERR_ARG); /* a slot never used */
  /* the other agent is unharmed and takes orders */
  cairn_point goal = {3, 2};
  assert_int_equal(cairn_crowd_order_path(c, &b, 1, goal), CAIRN_OK);
  for (int t = 0; t < 100; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  cairn_agent_info i;
  assert_int_equal(cairn_crowd_get(c, b, &i), CAIRN_OK);
  assert_int_equal(i.state, CAIRN_AGENT_ARRIVED);
  assert_true(hypotf(i.x - 3.5f, i.y - 2.5f) < 1.0f);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A stale handle: removed, then its slot reused by a new agent. The old
 * handle reaches nothing, the new one its own agent. */
static void crowd_stale_handle(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *c = small_crowd(g, 1);
  cairn_agent old = add_agent(c, 0.5f, 0.5f);
  assert_int_equal(cairn_crowd_remove(c, old), CAIRN_OK);
  cairn_agent fresh = add_agent(c, 3.5f, 2.5f);
  assert_int_equal(fresh & 0xffffffffu, old & 0xffffffffu); /* same slot */
  assert_true(fresh != old);
  cairn_agent_info i;
  assert_int_equal(cairn_crowd_get(c, old, &i), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_set_position(c, old, 0.5f, 2.5f), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_remove(c, old), CAIRN_ERR_STALE);
  cairn_point goal = {0, 0};
  assert_int_equal(cairn_crowd_order_path(c, &old, 1, goal), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_order_field(c, &old, 1, &goal, 1), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_order_hold(c, &old, 1), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_count(c), 1);
  assert_int_equal(cairn_crowd_get(c, fresh, &i), CAIRN_OK);
  assert_true(i.x == 3.5f && i.y == 2.5f);
  assert_int_equal(i.order, CAIRN_ORDER_HOLD);
  assert_int_equal(cairn_crowd_order_field(c, &fresh, 1, &goal, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_get(c, fresh, &i), CAIRN_OK);
  assert_int_equal(i.order, CAIRN_ORDER_FIELD);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void crowd_bad_goals(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *c = small_crowd(g, 2);
  cairn_agent a = add_agent(c, 0.5f, 0.5f);
  cairn_point off = {4, 0}, neg = {-1, -1}, wall = {1, 1};
  assert_int_equal(cairn_crowd_order_path(c, &a, 1, off), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_crowd_order_move(c, &a, 1, neg), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_crowd_order_field(c, &a, 1, &wall, 1), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_crowd_order_field(c, &a, 1, &neg, 1), CAIRN_ERR_RANGE);
  cairn_agent_info i;
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_OK);
  assert_int_equal(i.order, CAIRN_ORDER_HOLD);
  cairn_point goal = {3, 2};
  assert_int_equal(cairn_crowd_order_field(c, &a, 1, &goal, 1), CAIRN_OK);
  for (int t = 0; t < 100; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_OK);
  assert_int_equal(i.state, CAIRN_AGENT_ARRIVED);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(no_passable_crowd),
      cmocka_unit_test(crowd_bad_opts),
      cmocka_unit_test(crowd_bad_floats),
      cmocka_unit_test(crowd_full),
      cmocka_unit_test(crowd_remove_twice),
      cmocka_unit_test(crowd_stale_handle),
      cmocka_unit_test(crowd_bad_goals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
