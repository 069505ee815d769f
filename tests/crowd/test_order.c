/* Crowds, the general order: cairn_crowd_order with each kind gives the
 * same run (hash) as the call of that kind (field, move, path, hold,
 * wander); cairn_order_defaults is a hold; each bad order (NULL, kind or
 * arrival out of range, a bad radius, goal or velocity) is refused with a
 * detail and changes nothing; n 0 checks the order and builds nothing. */
#include "test_crowd_util.h"

#include <math.h>
#include <string.h>

/* A crowd of 120 on a random map; half ordered by `way` 0 (the calls of
 * one kind) or 1 (cairn_crowd_order), then 400 ticks: its hash. */
static uint64_t run(int way) {
  uint64_t rng = 5150;
  cairn_grid *g = tu_random_grid(&rng, 48, 48, 22, 1);
  cairn_crowd *c = new_crowd(g, 120, 2);
  cairn_agent a[120];
  for (size_t k = 0; k < 120; k++) {
    cairn_point p = tu_random_open(&rng, g);
    a[k] = tc_add_at(c, (float)p.x + 0.5f, (float)p.y + 0.5f);
  }
  cairn_point goals[2] = {tu_random_open(&rng, g), tu_random_open(&rng, g)};
  cairn_point goal = tu_random_open(&rng, g);
  if (way == 0) {
    assert_int_equal(cairn_crowd_order_field(c, a, 30, goals, 2), CAIRN_OK);
    assert_int_equal(cairn_crowd_order_move(c, a + 30, 20, goal), CAIRN_OK);
    assert_int_equal(cairn_crowd_order_path(c, a + 50, 20, goal), CAIRN_OK);
    assert_int_equal(cairn_crowd_order_wander(c, a + 70, 30, 99), CAIRN_OK);
    assert_int_equal(cairn_crowd_order_hold(c, a + 100, 20), CAIRN_OK);
  } else {
    cairn_order o = cairn_order_defaults();
    o.kind = CAIRN_ORDER_FIELD;
    o.goals = goals;
    o.n_goals = 2;
    assert_int_equal(cairn_crowd_order(c, a, 30, &o), CAIRN_OK);
    o = cairn_order_defaults();
    o.kind = CAIRN_ORDER_PATH;
    o.goal = goal;
    assert_int_equal(cairn_crowd_order(c, a + 30, 20, &o), CAIRN_OK);
    o.group = 0;
    assert_int_equal(cairn_crowd_order(c, a + 50, 20, &o), CAIRN_OK);
    o = cairn_order_defaults();
    o.kind = CAIRN_ORDER_WANDER;
    o.seed = 99;
    assert_int_equal(cairn_crowd_order(c, a + 70, 30, &o), CAIRN_OK);
    o = cairn_order_defaults();
    assert_int_equal(cairn_crowd_order(c, a + 100, 20, &o), CAIRN_OK);
  }
  assert_int_equal(tc_info(c, a[0]).arrival, CAIRN_ARRIVAL_LEAVE);
  assert_int_equal(tc_info(c, a[30]).arrival, CAIRN_ARRIVAL_STOP);
  assert_int_equal(tc_info(c, a[30]).group, tc_info(c, a[49]).group);
  assert_int_equal(tc_info(c, a[50]).group, 0);
  for (int t = 0; t < 400; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  uint64_t h = cairn_crowd_hash(c);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return h;
}

static void same_as_the_calls_of_one_kind(void **state) {
  (void)state;
  assert_true(run(0) == run(1));
  cairn_order d = cairn_order_defaults();
  assert_int_equal(d.kind, CAIRN_ORDER_HOLD);
  assert_int_equal(d.group, 1);
  assert_int_equal(d.arrival, CAIRN_ARRIVAL_DEFAULT);
  assert_true(d.arrival_radius == 0.0f && d.field == NULL && d.goals == NULL);
}

static void refusals(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(20, 20, 1, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, 7, 7, 0), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 4, 1);
  cairn_agent a[2] = {tc_add_at(c, 2.5f, 2.5f), tc_add_at(c, 4.5f, 2.5f)};
  assert_int_equal(cairn_crowd_order_wander(c, a, 2, 1), CAIRN_OK);
  for (int t = 0; t < 5; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  uint64_t h = cairn_crowd_hash(c);
  size_t mem = cairn_crowd_memory(c);
  assert_int_equal(cairn_crowd_order(c, a, 2, NULL), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c), "order: o is NULL");
  cairn_order o = cairn_order_defaults();
  o.kind = (cairn_order_kind)9;
  assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c), "order: kind 9 is not a cairn_order_kind");
  o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_PATH;
  o.goal = (cairn_point){10, 10};
  o.arrival = (cairn_arrival)7;
  assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c), "order: arrival 7 is not a cairn_arrival");
  o.arrival = CAIRN_ARRIVAL_STAY;
  const float bad_r[] = {-1.0f, NAN, INFINITY};
  for (int k = 0; k < 3; k++) {
    o.arrival_radius = bad_r[k];
    assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_ARG);
    assert_non_null(strstr(cairn_crowd_error(c), "arrival_radius"));
  }
  o.arrival_radius = 0.0f;
  o.goal = (cairn_point){7, 7};
  assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_BLOCKED);
  o.goal = (cairn_point){-1, 7};
  assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_RANGE);
  o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_FIELD;
  assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c),
                      "a field order needs goals (goals NULL, n_goals 0) or a field");
  o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_DRIVEN;
  o.vx = 10.0f; /* a cell a tick */
  assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_ARG);
  assert_non_null(strstr(cairn_crowd_error(c), "velocity 10,0 moves more than 0.9 cells"));
  o.vx = NAN;
  assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_ARG);
  /* a stale handle among them */
  cairn_agent gone = tc_add_at(c, 9.5f, 9.5f);
  assert_int_equal(cairn_crowd_remove(c, gone), CAIRN_OK);
  o = cairn_order_defaults();
  cairn_agent mixed[3] = {a[0], a[1], gone};
  assert_int_equal(cairn_crowd_order(c, mixed, 3, &o), CAIRN_ERR_STALE);
  assert_true(cairn_crowd_hash(c) == h);
  assert_int_equal(cairn_crowd_memory(c), mem);
  assert_int_equal(tc_info(c, a[0]).order, CAIRN_ORDER_WANDER);
  assert_int_equal(tc_info(c, a[1]).order, CAIRN_ORDER_WANDER);
  /* n 0: the order is checked, nothing built */
  cairn_point far_goal = {15, 15};
  o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_FIELD;
  o.goals = &far_goal;
  o.n_goals = 1;
  assert_int_equal(cairn_crowd_order(c, NULL, 0, &o), CAIRN_OK);
  assert_int_equal(cairn_crowd_memory(c), mem);
  o.goals = NULL;
  assert_int_equal(cairn_crowd_order(c, NULL, 0, &o), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_order(NULL, a, 2, &o), CAIRN_ERR_ARG);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_as_the_calls_of_one_kind),
      cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
