/* Crowd orders under the cost layers: torchlight steering a horde's field,
 * stopped units as walls for others' searches (the adjacent-unit rule) and
 * the fallback through them, claimed nodes splitting units over equal
 * corridors, group paths that continue past their stored waypoints, a
 * leg past a wall's corner taken from its waypoint, and a group's request
 * handed on when its leader leaves. */
#include "test_crowd_util.h"
#include "test_io_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/crowd.h"

static cairn_crowd *crowd_with(const cairn_grid *g, const cairn_crowd_opts *o) {
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, o, NULL, &c), CAIRN_OK);
  return c;
}

/* A wall down column 20 of a 40 x 21 map with two gaps, at rows 3 and 17,
 * the same distance from row 10 on either side. */
static cairn_grid *two_gaps(void) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(40, 21, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < 21; y++)
    if (y != 3 && y != 17) assert_int_equal(cairn_grid_set_cost(g, 20, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

/* Which gap each agent crossed the wall's column through: -1 north, +1
 * south, 0 not yet. */
static void note_crossings(const cairn_crowd *c, const cairn_agent *a, size_t n,
                           int *side) {
  for (size_t k = 0; k < n; k++) {
    cairn_agent_info i = tc_info(c, a[k]);
    if (side[k] == 0 && i.x >= 20.0f && i.x < 21.0f) side[k] = i.y < 10.0f ? -1 : 1;
  }
}

/* A wave of 8 agents from the west to the east edge's middle along one
 * field: once all arrived, how many crossed by the south gap less how many
 * by the north one. */
static int wave_through(cairn_crowd *c) {
  cairn_agent a[8];
  for (int k = 0; k < 8; k++) a[k] = tc_add_at(c, 3.5f, 6.5f + (float)k);
  cairn_point goals[3] = {{37, 9}, {37, 10}, {37, 11}};
  assert_int_equal(cairn_crowd_order_field(c, a, 8, goals, 3), CAIRN_OK);
  int side[8] = {0}, sum = 0;
  for (int t = 0; t < 800 && tc_count_state(c, a, 8, CAIRN_AGENT_ARRIVED) < 8; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    note_crossings(c, a, 8, side);
  }
  assert_int_equal(tc_count_state(c, a, 8, CAIRN_AGENT_ARRIVED), 8);
  for (int k = 0; k < 8; k++) sum += side[k];
  return sum;
}

/* The horde's field pays the torches' light: a torch at the north gap
 * sends every agent through the south one, and once it moves to the south
 * gap (the layer changed, the crowd told) the next wave goes north. */
static void torchlight_steers_the_field(void **state) {
  (void)state;
  cairn_grid *g = two_gaps();
  cairn_penalty *layer = NULL;
  cairn_influence *light = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &layer), CAIRN_OK);
  assert_int_equal(cairn_influence_create(g, layer, NULL, &light), CAIRN_OK);
  assert_int_equal(cairn_influence_event(light, 20, 3, 4, 8 * CAIRN_COST_ONE), CAIRN_OK);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 16;
  o.penalty = layer;
  cairn_crowd *c = crowd_with(g, &o);
  assert_int_equal(wave_through(c), 8); /* all by the south gap */

  /* the torch moves south; the field the crowd holds follows it */
  cairn_influence_destroy(light);
  assert_int_equal(cairn_influence_create(g, layer, NULL, &light), CAIRN_OK);
  assert_int_equal(cairn_influence_event(light, 20, 17, 4, 8 * CAIRN_COST_ONE), CAIRN_OK);
  assert_int_equal(cairn_crowd_layer_changed(c), CAIRN_OK);
  assert_int_equal(wave_through(c), -8); /* all by the north gap */
  cairn_crowd_destroy(c);
  cairn_influence_destroy(light);
  cairn_penalty_destroy(layer);
  cairn_grid_destroy(g);
}

/* A unit standing idle in the north gap, beside a unit that plans a path
 * through it: with the adjacent-unit rule the planner goes round by the
 * south gap; without it, it heads for the blocked gap. */
static float lowest_row_on_the_way(int32_t avoid_radius) {
  cairn_grid *g = two_gaps();
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 4;
  o.avoid_radius = avoid_radius;
  cairn_crowd *c = crowd_with(g, &o);
  cairn_agent sentry = tc_add_at(c, 20.5f, 3.5f);
  cairn_agent walker = tc_add_at(c, 18.5f, 3.5f);
  cairn_point goal = {23, 3};
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK); /* the sentry is binned */
  assert_int_equal(cairn_crowd_order_path(c, &walker, 1, goal), CAIRN_OK);
  float lowest = 0.0f;
  for (int t = 0; t < 400; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    cairn_agent_info i = tc_info(c, walker);
    if (i.y > lowest) lowest = i.y;
    if (i.state == CAIRN_AGENT_ARRIVED) break;
  }
  assert_int_equal(tc_info(c, sentry).state, CAIRN_AGENT_IDLE);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return lowest;
}

static void stopped_units_are_walls_for_searches(void **state) {
  (void)state;
  assert_true(lowest_row_on_the_way(2) > 16.0f); /* by the south gap */
  assert_true(lowest_row_on_the_way(0) < 6.0f);  /* straight at the sentry */
}

/* The only way on is a one-cell pass a stopped unit stands in: the search
 * that avoids it finds nothing, so the unit is planned through it rather
 * than left unreachable. */
static void walled_in_by_stopped_units_still_gets_a_path(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(30, 9, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < 9; y++)
    if (y != 4) assert_int_equal(cairn_grid_set_cost(g, 15, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 4;
  cairn_crowd *c = crowd_with(g, &o);
  tc_add_at(c, 15.5f, 4.5f); /* idle in the pass */
  cairn_agent u = tc_add_at(c, 14.5f, 4.5f);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  cairn_point goal = {25, 4};
  assert_int_equal(cairn_crowd_order_path(c, &u, 1, goal), CAIRN_OK);
  for (int t = 0; t < 3; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(tc_info(c, u).state, CAIRN_AGENT_MOVING);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A block in the middle of a 40 x 21 map leaves two corridors, north and
 * south, between a start on row 9 and a goal on row 9: the north one two
 * steps shorter. */
static cairn_grid *two_corridors(void) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(40, 21, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 4; y <= 16; y++)
    for (int32_t x = 14; x <= 25; x++) assert_int_equal(cairn_grid_set_cost(g, x, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

/* Units ordered one by one to one goal: the corridors each took. */
static void corridors_taken(float claim_penalty, int *north, int *south) {
  cairn_grid *g = two_corridors();
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 8;
  o.claim_penalty = claim_penalty;
  cairn_crowd *c = crowd_with(g, &o);
  cairn_agent a[8];
  for (int k = 0; k < 8; k++) a[k] = tc_add_at(c, 2.5f + (float)k, 9.5f);
  cairn_point goal = {35, 9};
  for (int k = 0; k < 8; k++) assert_int_equal(cairn_crowd_order_path(c, &a[k], 1, goal), CAIRN_OK);
  int side[8] = {0};
  for (int t = 0; t < 1500 && tc_count_state(c, a, 8, CAIRN_AGENT_ARRIVED) < 8; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    for (int k = 0; k < 8; k++) {
      cairn_agent_info i = tc_info(c, a[k]);
      if (!side[k] && i.x > 19.0f && i.x < 21.0f) side[k] = i.y < 10.0f ? -1 : 1;
    }
  }
  assert_int_equal(tc_count_state(c, a, 8, CAIRN_AGENT_ARRIVED), 8);
  *north = *south = 0;
  for (int k = 0; k < 8; k++) {
    assert_int_not_equal(side[k], 0);
    *north += side[k] < 0;
    *south += side[k] > 0;
  }
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void claims_split_units_over_two_corridors(void **state) {
  (void)state;
  int north, south;
  corridors_taken(0.0f, &north, &south);
  printf("claims off: %d north, %d south\n", north, south);
  assert_int_equal(north, 8); /* all take the shorter one */
  corridors_taken(1.0f, &north, &south);
  printf("claims on: %d north, %d south\n", north, south);
  assert_true(north >= 3 && south >= 3);
}

/* A serpentine of 9 switchbacks: far more turns than 4 waypoints hold. */
static cairn_grid *serpentine(void) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(60, 40, 1, NULL, &g), CAIRN_OK);
  for (int k = 0; k < 9; k++) {
    int32_t x = 6 + 6 * k;
    for (int32_t y = 0; y < 40; y++) {
      int open = k % 2 ? y >= 35 : y < 5;
      if (!open) assert_int_equal(cairn_grid_set_cost(g, x, y, 0), CAIRN_OK);
    }
  }
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

/* Requests one group of n (n = 1: a single unit) took to cross the
 * serpentine with 4 waypoints stored per unit. */
static uint64_t requests_to_cross(size_t n) {
  cairn_grid *g = serpentine();
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 8;
  o.waypoints = 4;
  o.stuck_ticks = 100000; /* only continuations ask for paths */
  cairn_crowd *c = crowd_with(g, &o);
  cairn_agent a[6];
  for (size_t k = 0; k < n; k++) a[k] = tc_add_at(c, 1.5f + (float)(k % 2), 17.5f + (float)(k / 2));
  cairn_point goal = {57, 20};
  assert_int_equal(cairn_crowd_order_move(c, a, n, goal), CAIRN_OK);
  for (int t = 0; t < 6000 && tc_count_state(c, a, n, CAIRN_AGENT_ARRIVED) < n; t++)
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(tc_count_state(c, a, n, CAIRN_AGENT_ARRIVED), n);
  cairn_crowd_stats st;
  cairn_crowd_get_stats(c, &st);
  printf("a group of %zu: %llu requests, %llu stuck repaths\n", n, (unsigned long long)st.served,
         (unsigned long long)st.repaths);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return st.served;
}

/* The group asks for the rest of its path once, for all its members:
 * about as many requests as a lone unit needs, not one per member. */
static void group_paths_continue_for_the_whole_group(void **state) {
  (void)state;
  uint64_t one = requests_to_cross(1), six = requests_to_cross(6);
  printf("requests: 1 unit %llu, a group of 6 %llu\n", (unsigned long long)one,
         (unsigned long long)six);
  assert_true(one >= 4); /* the route needed continuations at all */
  assert_true(six <= one + 6);
}

/* The member that led the group's request is removed before the request
 * is served: the others still get the path. */
static void a_leaving_leader_hands_on_the_request(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(40, 10, 1, NULL, &g), CAIRN_OK);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 4;
  cairn_crowd *c = crowd_with(g, &o);
  cairn_agent a[4];
  for (int k = 0; k < 4; k++) a[k] = tc_add_at(c, 2.5f, 2.5f + (float)k);
  cairn_point goal = {35, 5};
  assert_int_equal(cairn_crowd_order_move(c, a, 4, goal), CAIRN_OK);
  assert_int_equal(cairn_crowd_remove(c, a[0]), CAIRN_OK);
  for (int t = 0; t < 800 && tc_count_state(c, a + 1, 3, CAIRN_AGENT_ARRIVED) < 3; t++)
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(tc_count_state(c, a + 1, 3, CAIRN_AGENT_ARRIVED), 3);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void refuses_bad_layer_options(void **state) {
  (void)state;
  cairn_grid *g = NULL, *other = NULL;
  assert_int_equal(cairn_grid_create(16, 16, 1, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_create(16, 8, 1, NULL, &other), CAIRN_OK);
  cairn_penalty *wrong = NULL;
  assert_int_equal(cairn_penalty_create(other, NULL, &wrong), CAIRN_OK);
  cairn_crowd *c = NULL;
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.penalty = wrong;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
  o = cairn_crowd_defaults();
  o.claim_penalty = NAN;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
  o.claim_penalty = -1.0f;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
  o = cairn_crowd_defaults();
  o.avoid_radius = -1;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
  o = cairn_crowd_defaults();
  o.claim_ticks = 0;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
  assert_null(c);
  assert_int_equal(cairn_crowd_layer_changed(NULL), CAIRN_ERR_ARG);
  cairn_penalty_destroy(wrong);
  cairn_grid_destroy(other);
  cairn_grid_destroy(g);
}

/* Over a hierarchy, under a small budget: the unit starts along the first
 * refined edges while the rest of its route is refined (its request not
 * yet served), arrives, and the queue spends no more than its budget a
 * tick on average (a plan's overrun is paid back). */
/* A path's straight leg that leaves its waypoint past a wall's corner
 * (brc202d, found on a mixed march): from (255, 274) to (173, 119) the
 * smoothed path turns at (253, 274), under a tree at (254, 273), and runs
 * straight up to (254, 239). A unit near the turn but still under the
 * tree, heading up that leg, pressed against the tree and slid east for
 * ever, repathing into the same trap. It must go on to the turn first
 * and arrive (about 4,650 ticks of walking round by the east). */
static void leg_past_a_corner_is_taken_from_the_waypoint(void **state) {
  (void)state;
  char path[1024];
  map_path(path, sizeof path, "brc202d");
  if (!file_exists(path)) {
    print_message("skipped: no %s\n", path);
    skip();
  }
  cairn_grid *g = NULL;
  assert_int_equal(cairn_map_load(path, NULL, NULL, &g, NULL), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 1, 1);
  cairn_agent a = tc_add_at(c, 255.5f, 274.5f);
  const cairn_point goal = {173, 119};
  assert_int_equal(cairn_crowd_order_path(c, &a, 1, goal), CAIRN_OK);
  int t = 0;
  while (t < 8000 && tc_info(c, a).state != CAIRN_AGENT_ARRIVED) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    t++;
    if (t == 100) { /* long past the turn, under no tree */
      const cairn_agent_info in = tc_info(c, a);
      assert_true(in.y < 273.0f);
    }
  }
  assert_int_equal(tc_info(c, a).state, CAIRN_AGENT_ARRIVED);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void hpa_units_move_before_the_route_is_refined(void **state) {
  (void)state;
  uint64_t rng = 77;
  cairn_grid *g = tu_random_grid(&rng, 192, 192, 12, 1);
  cairn_hpa *h = NULL;
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = 16;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 4;
  o.hpa = h;
  o.path_budget = 4; /* a few edges a tick: the refinement spans ticks */
  cairn_crowd *c = crowd_with(g, &o);
  cairn_point from, goal; /* far apart, on one island */
  do {
    from = tu_random_open(&rng, g);
    goal = tu_random_open(&rng, g);
  } while (abs(from.x - goal.x) + abs(from.y - goal.y) < 250 ||
           cairn_grid_island(g, from.x, from.y) != cairn_grid_island(g, goal.x, goal.y));
  cairn_agent u = tc_add_at(c, (float)from.x + 0.5f, (float)from.y + 0.5f);
  assert_int_equal(cairn_crowd_order_path(c, &u, 1, goal), CAIRN_OK);
  cairn_crowd_stats st;
  int t = 0, moved_early = 0;
  uint64_t spent = 0;
  for (; t < 20000; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    cairn_crowd_get_stats(c, &st);
    spent += st.tick_nodes;
    cairn_agent_info i = tc_info(c, u);
    if (i.state == CAIRN_AGENT_MOVING && st.served == 0) moved_early = 1;
    if (i.state == CAIRN_AGENT_ARRIVED) break;
  }
  printf("moved before the route was refined: %d; arrived after %d ticks, "
         "%llu nodes (%.1f a tick, budget %llu)\n",
         moved_early, t, (unsigned long long)spent, (double)spent / (t + 1),
         (unsigned long long)o.path_budget);
  assert_true(moved_early);
  assert_int_equal(tc_info(c, u).state, CAIRN_AGENT_ARRIVED);
  cairn_agent_info i = tc_info(c, u);
  assert_true(fabsf(i.x - ((float)goal.x + 0.5f)) < 1.0f && fabsf(i.y - ((float)goal.y + 0.5f)) < 1.0f);
  assert_true(st.served >= 1); /* more when the path outgrew 16 waypoints */
  assert_true(spent <= (uint64_t)(t + 1) * o.path_budget);
  cairn_crowd_destroy(c);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(torchlight_steers_the_field),
      cmocka_unit_test(stopped_units_are_walls_for_searches),
      cmocka_unit_test(walled_in_by_stopped_units_still_gets_a_path),
      cmocka_unit_test(claims_split_units_over_two_corridors),
      cmocka_unit_test(group_paths_continue_for_the_whole_group),
      cmocka_unit_test(a_leaving_leader_hands_on_the_request),
      cmocka_unit_test(leg_past_a_corner_is_taken_from_the_waypoint),
      cmocka_unit_test(hpa_units_move_before_the_route_is_refined),
      cmocka_unit_test(refuses_bad_layer_options),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
