/* Crowds, arrival: 300 units sent to one point with CAIRN_ARRIVAL_STAY, by
 * a field, a group path and a path each, form a cluster of touching discs
 * (pairs closer than half their radii's sum under 5 %), none in a wall,
 * every one arrived once, the same at 1 and 2 threads; an arrived unit
 * pushed out of the radius walks back in; with CAIRN_ARRIVAL_LEAVE the
 * arrived units leave the bins, with the default a horde still does and
 * units on paths stop as before; the order's arrival is refused when
 * out of range. */
#include "test_crowd_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define UNITS 300

/* A 72 x 72 map with a few wall blocks near the goal (36, 36). */
static cairn_grid *stay_map(void) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(72, 72, 1, NULL, &g), CAIRN_OK);
  cairn_rect walls[] = {{30, 28, 4, 2}, {42, 38, 2, 6}, {28, 44, 8, 1}, {0, 0, 72, 1}};
  for (size_t k = 0; k < sizeof walls / sizeof walls[0]; k++)
    for (int32_t y = walls[k].y; y < walls[k].y + walls[k].h; y++)
      for (int32_t x = walls[k].x; x < walls[k].x + walls[k].w; x++)
        assert_int_equal(cairn_grid_set_cost(g, x, y, 0), CAIRN_OK);
  return g;
}

typedef struct stay_result {
  uint64_t hash;
  size_t arrived, close_pairs, pairs, in_wall, events;
  int ticks;
  float max_d; /* farthest arrived unit from the goal */
} stay_result;

/* UNITS units in a block in the map's corner, ordered to (36, 36) with
 * `kind` (FIELD, or PATH with group 0/1) and `arrival`, ticked until every
 * one arrived (or 6000 ticks: the last of a field's units to find room at the
 * cluster's rim behind a wall block take about 4000). */
static stay_result run_stay(int threads, cairn_order_kind kind, int group,
                            cairn_arrival arrival) {
  cairn_grid *g = stay_map();
  cairn_crowd *c = new_crowd(g, UNITS, threads);
  cairn_agent a[UNITS];
  for (int k = 0; k < UNITS; k++) {
    cairn_agent_params p = {2.5f + (float)(k % 20) * 1.1f, 4.5f + (float)(k / 20) * 1.1f, 0.3f,
                            1.5f, 0, (uint64_t)k};
    assert_int_equal(cairn_crowd_add(c, &p, &a[k]), CAIRN_OK);
  }
  cairn_point goal = {36, 36};
  cairn_order o = cairn_order_defaults();
  o.kind = kind;
  o.group = group;
  o.goal = goal;
  if (kind == CAIRN_ORDER_FIELD) {
    o.goals = &goal;
    o.n_goals = 1;
  }
  o.arrival = arrival;
  assert_int_equal(cairn_crowd_order(c, a, UNITS, &o), CAIRN_OK);
  stay_result r = {0};
  cairn_crowd_stats st;
  int seen[UNITS] = {0};
  for (r.ticks = 0; r.ticks < 6000; r.ticks++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    cairn_crowd_event ev[UNITS];
    size_t n = 0;
    assert_int_equal(cairn_crowd_events(c, ev, UNITS, &n), CAIRN_OK);
    for (size_t i = 0; i < n; i++)
      if (ev[i].kind == CAIRN_EVENT_ARRIVED) {
        seen[ev[i].user]++;
        r.events++;
      }
    cairn_crowd_get_stats(c, &st);
    r.in_wall += st.in_wall;
    if (st.arrived == UNITS) break;
  }
  /* a few more ticks: the cluster settles */
  for (int t = 0; t < 50; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  cairn_agent_info in[UNITS];
  for (int k = 0; k < UNITS; k++) {
    in[k] = tc_info(c, a[k]);
    r.arrived += in[k].state == CAIRN_AGENT_ARRIVED;
    float d = hypotf(in[k].x - 36.5f, in[k].y - 36.5f);
    if (d > r.max_d) r.max_d = d;
    assert_true(seen[k] <= 1);
  }
  for (int i = 0; i < UNITS; i++)
    for (int j = i + 1; j < UNITS; j++) {
      r.pairs++;
      float d = hypotf(in[i].x - in[j].x, in[i].y - in[j].y);
      r.close_pairs += d < (in[i].radius + in[j].radius) * 0.5f;
    }
  assert_clear(c, g, a, UNITS);
  r.hash = cairn_crowd_hash(c);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return r;
}

static void stay_forms_a_cluster(void **state) {
  (void)state;
  struct {
    cairn_order_kind kind;
    int group;
  } how[] = {{CAIRN_ORDER_FIELD, 0}, {CAIRN_ORDER_PATH, 1}, {CAIRN_ORDER_PATH, 0}};
  for (size_t k = 0; k < 3; k++) {
    stay_result one = run_stay(1, how[k].kind, how[k].group, CAIRN_ARRIVAL_STAY);
    print_message("kind %d group %d: %d ticks, %zu arrived (%zu events), %zu of %zu pairs close, "
                  "max d %.2f\n",
                  how[k].kind, how[k].group, one.ticks, one.arrived, one.events,
                  one.close_pairs, one.pairs, (double)one.max_d);
    assert_int_equal(one.arrived, UNITS);
    assert_int_equal(one.events, UNITS);
    assert_int_equal(one.in_wall, 0);
    assert_true(one.close_pairs * 20 < one.pairs); /* under 5 % */
    stay_result two = run_stay(2, how[k].kind, how[k].group, CAIRN_ARRIVAL_STAY);
    assert_true(one.hash == two.hash);
  }
}

/* Pushed out of its radius, an arrived unit walks back in, still arrived
 * (no second event); the radius the crowd chose grows for every unit sent
 * to the same goal; a radius given is kept. */
static void walks_back_and_shares_the_radius(void **state) {
  (void)state;
  cairn_grid *g = stay_map();
  cairn_crowd *c = new_crowd(g, 40, 1);
  cairn_agent a[40];
  for (int k = 0; k < 40; k++) a[k] = tc_add_at(c, 10.5f + (float)(k % 10), 10.5f + (float)(k / 10));
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_PATH;
  o.goal = (cairn_point){36, 36};
  o.arrival = CAIRN_ARRIVAL_STAY;
  assert_int_equal(cairn_crowd_order(c, a, 20, &o), CAIRN_OK);
  float r20 = tc_info(c, a[0]).arrival_radius;
  assert_true(fabsf(r20 - sqrtf(20 * 0.09f / 0.45f) / 0.75f) < 1e-4f);
  o.group = 0;
  assert_int_equal(cairn_crowd_order(c, a + 20, 10, &o), CAIRN_OK);
  float r30 = tc_info(c, a[0]).arrival_radius;
  assert_true(fabsf(r30 - sqrtf(30 * 0.09f / 0.45f) / 0.75f) < 1e-4f);
  assert_true(tc_info(c, a[25]).arrival_radius == r30); /* one radius for all */
  o.arrival_radius = 1.5f; /* given: kept, and not grown by the others */
  o.goal = (cairn_point){12, 60};
  assert_int_equal(cairn_crowd_order(c, a + 30, 10, &o), CAIRN_OK);
  assert_true(tc_info(c, a[30]).arrival_radius == 1.5f);
  assert_int_equal(tc_info(c, a[30]).arrival, CAIRN_ARRIVAL_STAY);
  for (int t = 0; t < 3000 && tc_count_state(c, a, 40, CAIRN_AGENT_ARRIVED) < 40; t++)
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(tc_count_state(c, a, 40, CAIRN_AGENT_ARRIVED), 40);
  for (int k = 0; k < 40; k++) {
    cairn_agent_info i = tc_info(c, a[k]);
    float gx = k < 30 ? 36.5f : 12.5f, gy = k < 30 ? 36.5f : 60.5f;
    assert_true(hypotf(i.x - gx, i.y - gy) < i.arrival_radius);
  }
  cairn_crowd_event ev[64];
  size_t n = 0;
  assert_int_equal(cairn_crowd_events(c, ev, 64, &n), CAIRN_OK);
  assert_int_equal(n, 40);
  /* pushed out: back within the radius, still arrived, no event */
  assert_int_equal(cairn_crowd_set_position(c, a[3], 36.5f, 50.5f), CAIRN_OK);
  for (int t = 0; t < 300; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  cairn_agent_info i = tc_info(c, a[3]);
  assert_int_equal(i.state, CAIRN_AGENT_ARRIVED);
  assert_true(hypotf(i.x - 36.5f, i.y - 36.5f) < i.arrival_radius);
  assert_int_equal(cairn_crowd_events(c, ev, 64, &n), CAIRN_OK);
  assert_int_equal(n, 0);
  assert_clear(c, g, a, 40);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* Which of the agents a query over the whole map finds. */
static size_t found(const cairn_crowd *c) {
  size_t n = 0;
  cairn_crowd_query_rect(c, 0, 0, 72, 72, NULL, 0, &n);
  return n;
}

/* LEAVE takes arrived path units out of the bins; the default keeps
 * them (STOP) for paths and takes horde agents out, as before. */
static void leave_and_stop(void **state) {
  (void)state;
  cairn_grid *g = stay_map();
  for (int mode = 0; mode < 3; mode++) {
    cairn_crowd *c = new_crowd(g, 10, 1);
    cairn_agent a[10];
    for (int k = 0; k < 10; k++) a[k] = tc_add_at(c, 10.5f + (float)k, 10.5f);
    cairn_order o = cairn_order_defaults();
    cairn_point goal = {20, 20};
    o.kind = mode == 2 ? CAIRN_ORDER_FIELD : CAIRN_ORDER_PATH;
    o.goal = goal;
    if (mode == 2) {
      o.goals = &goal;
      o.n_goals = 1;
    }
    o.arrival = mode == 1 ? CAIRN_ARRIVAL_LEAVE : CAIRN_ARRIVAL_DEFAULT;
    assert_int_equal(cairn_crowd_order(c, a, 10, &o), CAIRN_OK);
    for (int t = 0; t < 2000 && tc_count_state(c, a, 10, CAIRN_AGENT_ARRIVED) < 10; t++)
      assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_int_equal(tc_count_state(c, a, 10, CAIRN_AGENT_ARRIVED), 10);
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    cairn_crowd_stats st;
    cairn_crowd_get_stats(c, &st);
    assert_int_equal(st.active, mode == 0 ? 10 : 0);
    assert_int_equal(found(c), mode == 0 ? 10u : 0u);
    assert_int_equal(tc_info(c, a[0]).arrival,
                     mode == 0 ? CAIRN_ARRIVAL_STOP : CAIRN_ARRIVAL_LEAVE);
    cairn_crowd_destroy(c);
  }
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stay_forms_a_cluster),
      cmocka_unit_test(walks_back_and_shares_the_radius),
      cmocka_unit_test(leave_and_stop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
