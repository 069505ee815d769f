/* Crowds, agents: handles, refused input, no centre ever in a wall on random
 * maps, groups crossing head-on, a gate closing mid-march, a group in
 * formation keeping its offsets and filing through a one-cell gap. */
#include "test_crowd_util.h"

#include <math.h>

#include "cairn/crowd.h"
#include "crowd_internal.h"
#include "test_jobs.h"

static void handles(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(16, 16, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 2, 1);
  cairn_agent a = tc_add_at(c, 2.5f, 2.5f), b = tc_add_at(c, 5.5f, 5.5f), d;
  cairn_agent_params p = {8.5f, 8.5f, 0.3f, 1.5f, 0, 0};
  assert_int_equal(cairn_crowd_add(c, &p, &d), CAIRN_ERR_TOO_LARGE);
  cairn_agent_info i;
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_OK);
  assert_true(i.x == 2.5f && i.y == 2.5f && i.state == CAIRN_AGENT_IDLE);
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_OK);
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_count(c), 1);
  /* the slot comes back with a new generation: the old handle stays dead */
  cairn_agent a2 = tc_add_at(c, 3.5f, 3.5f);
  assert_true((a2 & 0xffffffffu) == (a & 0xffffffffu) && a2 != a);
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_get(c, a2, &i), CAIRN_OK);
  assert_true(i.x == 3.5f);
  /* never a slot, or generation 0 */
  assert_int_equal(cairn_crowd_get(c, 0, &i), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_get(c, (cairn_agent)7 | (cairn_agent)1 << 32, &i), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_get(c, b & 0xffffffffu, &i), CAIRN_ERR_ARG);
  /* an order naming a stale handle changes no agent */
  cairn_point goal = {10, 10};
  cairn_agent both[2] = {b, a};
  assert_int_equal(cairn_crowd_order_path(c, both, 2, goal), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_get(c, b, &i), CAIRN_OK);
  assert_int_equal(i.order, CAIRN_ORDER_HOLD);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void refuses_bad_input(void **state) {
  (void)state;
  const char *rows[] = {"........", "..##....", "........", "........"};
  cairn_grid *g = tu_grid(rows, 4);
  cairn_crowd *c = new_crowd(g, 8, 1);
  cairn_agent a;
  cairn_agent_params p = {NAN, 1.5f, 0.3f, 1.5f, 0, 0};
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  p.x = INFINITY;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  p.x = 0.5f;
  p.radius = NAN;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  p.radius = 0.3f;
  p.max_speed = INFINITY;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  p.max_speed = 20.0f; /* two cells a tick: could tunnel */
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  p.max_speed = 1.5f;
  p.x = 2.5f; /* on the wall */
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_BLOCKED);
  p.x = -0.5f;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_crowd_count(c), 0);
  a = tc_add_at(c, 0.5f, 0.5f);
  assert_int_equal(cairn_crowd_set_position(c, a, NAN, 0.5f), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_set_position(c, a, 3.5f, 1.5f), CAIRN_ERR_BLOCKED);
  cairn_point wall = {2, 1}, off = {99, 0};
  assert_int_equal(cairn_crowd_order_path(c, &a, 1, wall), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_crowd_order_move(c, &a, 1, off), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_crowd_order_field(c, &a, 1, NULL, 0), CAIRN_ERR_ARG);
  cairn_crowd_opts o = cairn_crowd_defaults();
  cairn_crowd *bad = NULL;
  o.dt = NAN;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &bad), CAIRN_ERR_ARG);
  o = cairn_crowd_defaults();
  o.max_agents = 0;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &bad), CAIRN_ERR_ARG);
  /* a route grid with other walls */
  cairn_grid *other = NULL;
  assert_int_equal(cairn_grid_create(8, 4, 1, NULL, &other), CAIRN_OK);
  o = cairn_crowd_defaults();
  o.route_grid = other;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &bad), CAIRN_ERR_ARG);
  assert_null(bad);
  cairn_grid_destroy(other);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* Wanderers and a horde on random maps, thousands of ticks, every agent
 * checked every tick. */
static void never_in_a_wall(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 3; seed++) {
    uint64_t rng = seed * 977;
    cairn_grid *g = tu_random_grid(&rng, 48, 48, 30, 1);
    cairn_crowd *c = new_crowd(g, 300, 2);
    cairn_agent agents[300];
    for (size_t k = 0; k < 300; k++) {
      cairn_point p = tu_random_open(&rng, g);
      cairn_agent_params ap = {(float)p.x + 0.5f, (float)p.y + 0.5f,
                               0.45f, 9.0f, 0, 0}; /* near a cell a tick */
      assert_int_equal(cairn_crowd_add(c, &ap, &agents[k]), CAIRN_OK);
    }
    assert_int_equal(cairn_crowd_order_wander(c, agents, 200, seed), CAIRN_OK);
    cairn_point goal = tu_random_open(&rng, g);
    assert_int_equal(cairn_crowd_order_field(c, agents + 200, 100, &goal, 1), CAIRN_OK);
    for (int t = 0; t < 2000; t++) {
      assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
      assert_clear(c, g, agents, 300);
    }
    cairn_crowd_destroy(c);
    cairn_grid_destroy(g);
  }
}

/* Two groups of 12 swap ends of a corridor 8 cells wide: both arrive. */
static void groups_cross_head_on(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(60, 8, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 24, 2);
  cairn_agent west[12], east[12];
  for (int k = 0; k < 12; k++) {
    west[k] = tc_add_at(c, 3.5f + (float)(k / 6), 1.5f + (float)(k % 6));
    east[k] = tc_add_at(c, 56.5f - (float)(k / 6), 1.5f + (float)(k % 6));
  }
  cairn_point to_east = {55, 4}, to_west = {4, 4};
  assert_int_equal(cairn_crowd_order_move(c, west, 12, to_east), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_move(c, east, 12, to_west), CAIRN_OK);
  cairn_crowd_stats st;
  int t = 0;
  for (; t < 1500; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    if (tc_count_state(c, west, 12, CAIRN_AGENT_ARRIVED) == 12 &&
        tc_count_state(c, east, 12, CAIRN_AGENT_ARRIVED) == 12)
      break;
  }
  assert_int_equal(tc_count_state(c, west, 12, CAIRN_AGENT_ARRIVED), 12);
  assert_int_equal(tc_count_state(c, east, 12, CAIRN_AGENT_ARRIVED), 12);
  for (int k = 0; k < 12; k++) {
    cairn_agent_info i;
    cairn_crowd_get(c, west[k], &i);
    assert_true(i.x > 45.0f);
    cairn_crowd_get(c, east[k], &i);
    assert_true(i.x < 15.0f);
  }
  cairn_crowd_get_stats(c, &st);
  assert_int_equal(st.in_wall, 0);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A wall across the map with one gate; the gate shuts while a group
 * marches to it: every unit ends unreachable, none wanders on. */
static void gate_closing_mid_march(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(64, 32, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < 32; y++)
    if (y < 14 || y > 17) assert_int_equal(cairn_grid_set_cost(g, 40, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 16, 2);
  cairn_agent units[16];
  for (int k = 0; k < 16; k++) units[k] = tc_add_at(c, 3.5f + (float)(k % 4), 12.5f + (float)(k / 4));
  cairn_point goal = {58, 16};
  assert_int_equal(cairn_crowd_order_move(c, units, 16, goal), CAIRN_OK);
  for (int t = 0; t < 40; t++) cairn_crowd_tick(c);
  assert_int_equal(tc_count_state(c, units, 16, CAIRN_AGENT_MOVING), 16);
  cairn_point gate[4] = {{40, 14}, {40, 15}, {40, 16}, {40, 17}};
  for (int k = 0; k < 4; k++) cairn_grid_set_cost(g, gate[k].x, gate[k].y, 0);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  assert_int_equal(cairn_crowd_grid_changed(c, gate, 4), CAIRN_OK);
  for (int t = 0; t < 60; t++) cairn_crowd_tick(c);
  assert_int_equal(tc_count_state(c, units, 16, CAIRN_AGENT_UNREACHABLE), 16);
  /* and they stay put: an unreachable unit does not move */
  cairn_agent_info before, after;
  cairn_crowd_get(c, units[0], &before);
  for (int t = 0; t < 50; t++) cairn_crowd_tick(c);
  cairn_crowd_get(c, units[0], &after);
  assert_true(fabsf(after.x - before.x) < 0.5f && fabsf(after.y - before.y) < 0.5f);
  assert_int_equal(tc_count_state(c, units, 16, CAIRN_AGENT_UNREACHABLE), 16);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A group in formation keeps its offsets in the open and files through a
 * one-cell gap. */
static void formation_and_narrow_pass(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(48, 24, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < 24; y++)
    if (y != 12) cairn_grid_set_cost(g, 24, y, 0);
  cairn_grid_update_islands(g);
  cairn_crowd *c = new_crowd(g, 9, 1);
  cairn_agent u[9];
  for (int k = 0; k < 9; k++) u[k] = tc_add_at(c, 4.5f + 1.5f * (float)(k % 3), 10.5f + 1.5f * (float)(k / 3));
  cairn_point goal = {40, 12};
  assert_int_equal(cairn_crowd_order_move(c, u, 9, goal), CAIRN_OK);
  int t = 0;
  for (; t < 2000 && tc_count_state(c, u, 9, CAIRN_AGENT_ARRIVED) < 9; t++) {
    cairn_crowd_tick(c);
    assert_clear(c, g, u, 9);
  }
  assert_int_equal(tc_count_state(c, u, 9, CAIRN_AGENT_ARRIVED), 9);
  /* past the gap they spread out again around the goal */
  float minx = 1e9f, maxx = -1e9f, miny = 1e9f, maxy = -1e9f;
  for (int k = 0; k < 9; k++) {
    cairn_agent_info i;
    cairn_crowd_get(c, u[k], &i);
    assert_true(i.x > 25.0f);
    minx = fminf(minx, i.x);
    maxx = fmaxf(maxx, i.x);
    miny = fminf(miny, i.y);
    maxy = fmaxf(maxy, i.y);
  }
  assert_true(maxx - minx > 1.5f && maxy - miny > 1.5f);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(handles),
      cmocka_unit_test(refuses_bad_input),
      cmocka_unit_test(never_in_a_wall),
      cmocka_unit_test(groups_cross_head_on),
      cmocka_unit_test(gate_closing_mid_march),
      cmocka_unit_test(formation_and_narrow_pass),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
