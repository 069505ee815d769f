/* Crowds of units of several sizes: a disc of radius r is a unit of
 * ceil(2r) cells a side, and follows that size's field or path. Mixed radii
 * on random maps never put a disc over a blocked cell in 2,000 ticks (checked
 * here cell by cell, every tick), and run to the same hash at 1 and 2
 * threads, and a save in the middle loads to the same run; at a one-cell gate the small units go through and the large
 * ones round by the wide opening, by field and by path; a radius the bins
 * cannot hold, a path goal too small for the unit and a caller's field
 * of another size are refused with a detail. */
#include "test_crowd_util.h"

#include <stdlib.h>
#include <string.h>

static cairn_crowd *sized_crowd(const cairn_grid *g, uint32_t max, int threads) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = max;
  o.threads = threads;
  o.bin_size = 4.0f; /* discs up to radius 2 */
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

/* A unit of size k (radius just under k / 2, or 0.3 for size 1) centred
 * on the k x k cells from p. */
static cairn_agent add_sized(cairn_crowd *c, cairn_point p, int k) {
  float r = k == 1 ? 0.3f : 0.45f * (float)k;
  float o = 0.5f * (float)k;
  cairn_agent_params a = {(float)p.x + o, (float)p.y + o, r, 1.5f, 0, 0};
  cairn_agent h = 0;
  assert_int_equal(cairn_crowd_add(c, &a, &h), CAIRN_OK);
  return h;
}


typedef struct run_result {
  uint64_t hash;
  size_t arrived, checked;
} run_result;

/* 48 units of sizes 1 to 4 on a random map: half follow fields to one
 * goal, half move as groups of their size to another; 2,000 ticks, every
 * disc checked every tick. */
static run_result mixed_run(uint64_t seed, int threads) {
  uint64_t rng = seed;
  cairn_grid *g = tu_random_grid(&rng, 64, 64, 4, 3);
  cairn_crowd *c = sized_crowd(g, 48, threads);
  cairn_agent a[48];
  cairn_point field_goal = tu_fitting(&rng, g, 4), path_goal = tu_fitting(&rng, g, 4);
  assert_true(field_goal.x >= 0 && path_goal.x >= 0);
  for (int i = 0; i < 48; i++) {
    cairn_point p = tu_fitting(&rng, g, 1 + i % 4);
    assert_true(p.x >= 0);
    a[i] = add_sized(c, p, 1 + i % 4); /* overlapping discs part on the first ticks */
  }
  assert_int_equal(cairn_crowd_order_field(c, a, 24, &field_goal, 1), CAIRN_OK);
  for (int k = 1; k <= 4; k++) { /* a group per size */
    cairn_agent grp[6];
    size_t n = 0;
    for (int i = 24; i < 48; i++)
      if (1 + i % 4 == k) grp[n++] = a[i];
    assert_int_equal(cairn_crowd_order_move(c, grp, n, path_goal), CAIRN_OK);
  }
  run_result r = {0};
  for (int t = 0; t < 2000; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_clear(c, g, a, 48);
    cairn_crowd_stats st;
    cairn_crowd_get_stats(c, &st);
    assert_int_equal(st.in_wall, 0);
    r.checked += 48;
  }
  r.arrived = tc_count_state(c, a, 48, CAIRN_AGENT_ARRIVED);
  r.hash = cairn_crowd_hash(c);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return r;
}

/* A mixed crowd saved in the middle of its run (fields per size, groups'
 * paths for their largest member, searches in progress) and loaded into a
 * fresh crowd on the same map runs on to the same hash. */
static void mixed_sizes_save_and_load(void **state) {
  (void)state;
  uint64_t rng = 7;
  cairn_grid *g = tu_random_grid(&rng, 64, 64, 4, 3);
  cairn_crowd *c = sized_crowd(g, 48, 1), *d = sized_crowd(g, 48, 2);
  cairn_agent a[48];
  cairn_point goal = tu_fitting(&rng, g, 4);
  for (int i = 0; i < 48; i++) a[i] = add_sized(c, tu_fitting(&rng, g, 1 + i % 4), 1 + i % 4);
  assert_int_equal(cairn_crowd_order_field(c, a, 24, &goal, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_move(c, a + 24, 24, goal), CAIRN_OK);
  for (int t = 0; t < 150; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  size_t len = 0;
  assert_int_equal(cairn_crowd_save(c, NULL, 0, &len), CAIRN_ERR_BUFFER);
  void *buf = malloc(len);
  assert_non_null(buf);
  assert_int_equal(cairn_crowd_save(c, buf, len, &len), CAIRN_OK);
  cairn_error err;
  assert_int_equal(cairn_crowd_load(d, buf, len, &err), CAIRN_OK);
  free(buf);
  assert_true(cairn_crowd_hash(c) == cairn_crowd_hash(d));
  for (int t = 0; t < 300; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_int_equal(cairn_crowd_tick(d), CAIRN_OK);
  }
  assert_true(cairn_crowd_hash(c) == cairn_crowd_hash(d));
  cairn_crowd_destroy(c);
  cairn_crowd_destroy(d);
  cairn_grid_destroy(g);
}

static void mixed_sizes_never_in_a_wall(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 3; seed++) {
    run_result one = mixed_run(seed, 1), two = mixed_run(seed, 2);
    print_message("seed %llu: %zu of 48 arrived\n", (unsigned long long)seed, one.arrived);
    assert_true(one.hash == two.hash);
    assert_true(one.arrived == two.arrived);
    assert_true(one.arrived >= 40); /* the field's arrive and leave; most of the groups */
    assert_int_equal(one.checked, 48 * 2000);
  }
}

/* A 48 x 20 map cut by a wall at x = 24, with a one-cell gate at y = 2 and
 * an opening six cells wide at the bottom. */
static cairn_grid *gate_map(void) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(48, 20, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < 14; y++)
    if (y != 2) assert_int_equal(cairn_grid_set_cost(g, 24, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

/* One unit of size k from (4, 1) to (40, 1), by field or by path: the
 * deepest row it stood on while crossing the wall's column, or -1 if it
 * never arrived. */
static int crossing_row(int k, int by_field) {
  cairn_grid *g = gate_map();
  cairn_crowd *c = sized_crowd(g, 1, 1);
  cairn_agent a = add_sized(c, pt(4, 1), k);
  cairn_point goal = {40, 1};
  cairn_order o = cairn_order_defaults();
  o.kind = by_field ? CAIRN_ORDER_FIELD : CAIRN_ORDER_PATH;
  o.goal = goal;
  o.goals = by_field ? &goal : NULL;
  o.n_goals = by_field ? 1 : 0;
  o.arrival = CAIRN_ARRIVAL_STOP;
  assert_int_equal(cairn_crowd_order(c, &a, 1, &o), CAIRN_OK);
  int deepest = -1, t = 0;
  for (; t < 2000 && tc_info(c, a).state != CAIRN_AGENT_ARRIVED; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_clear(c, g, &a, 1);
    cairn_agent_info i = tc_info(c, a);
    if (fabsf(i.x - 24.5f) < 1.0f && (int)i.y > deepest) deepest = (int)i.y;
  }
  int arrived = tc_info(c, a).state == CAIRN_AGENT_ARRIVED;
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return arrived ? deepest : -1;
}

static void gate_sends_the_large_round(void **state) {
  (void)state;
  for (int by_field = 0; by_field <= 1; by_field++) {
    int small = crossing_row(1, by_field), large = crossing_row(2, by_field);
    print_message("%s: size 1 crosses at row %d, size 2 at row %d\n",
                  by_field ? "field" : "path", small, large);
    assert_true(small >= 0 && small <= 3);    /* through the gate */
    assert_true(large >= 14);                 /* round by the opening */
  }
}

static void refusals(void **state) {
  (void)state;
  cairn_grid *g = gate_map();
  cairn_crowd *c = new_crowd(g, 4, 1); /* bins of one cell */
  cairn_agent_params p = {6.0f, 6.0f, 1.0f, 1.5f, 0, 0};
  cairn_agent a = 0;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  assert_non_null(strstr(cairn_crowd_error(c), "needs opts.bin_size 2 or more"));
  cairn_crowd_destroy(c);
  c = sized_crowd(g, 4, 1);
  a = add_sized(c, pt(4, 4), 3);
  /* the gate holds one cell: no goal for a unit of three */
  assert_int_equal(cairn_crowd_order_path(c, &a, 1, pt(24, 2)), CAIRN_ERR_BLOCKED);
  assert_non_null(strstr(cairn_crowd_error(c), "goal 24,2: a unit of size 3"));
  assert_int_equal(tc_info(c, a).order, CAIRN_ORDER_HOLD); /* nothing changed */
  /* a caller's field for size 1 does not serve it */
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
  cairn_point goal = {40, 1};
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, NULL), CAIRN_OK);
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_FIELD;
  o.field = f;
  assert_int_equal(cairn_crowd_order(c, &a, 1, &o), CAIRN_ERR_ARG);
  assert_non_null(strstr(cairn_crowd_error(c), "the order's field is for units of size 1"));
  cairn_crowd_destroy(c);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(mixed_sizes_never_in_a_wall),
      cmocka_unit_test(mixed_sizes_save_and_load),
      cmocka_unit_test(gate_sends_the_large_round),
      cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
