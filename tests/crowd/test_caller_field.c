/* Crowds, orders on the caller's field: the crowd follows a field the game
 * built without building one (its memory does not grow, its cache holds
 * nothing), agents arrive; the field is shared, never released, repaired
 * or freed by the crowd (the caller frees it after the crowd, also while
 * agents still follow it); a field of another size, or a field with
 * goals, is refused with a detail and nothing changes; caller and cache
 * fields share the CAIRN_CROWD_MAX_FIELDS slots. */
#include "test_crowd_util.h"

#include <string.h>

#include "crowd_internal.h"

static cairn_field *field_to(const cairn_grid *g, cairn_point goal) {
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
  cairn_flow_opts fo = cairn_flow_defaults();
  fo.threads = 1;
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, &fo), CAIRN_OK);
  cairn_flow_builder_destroy(b);
  return f;
}

static cairn_order field_order(const cairn_field *f) {
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_FIELD;
  o.field = f;
  return o;
}

static void follows_without_building(void **state) {
  (void)state;
  uint64_t rng = 11;
  cairn_grid *g = tu_random_grid(&rng, 48, 48, 20, 1);
  cairn_point goal = tu_random_open(&rng, g);
  cairn_field *f = field_to(g, goal);
  cairn_crowd *c = new_crowd(g, 64, 2);
  cairn_agent a[64];
  size_t n = 0;
  while (n < 64) {
    cairn_point p = tu_random_open(&rng, g);
    if (cairn_grid_island(g, p.x, p.y) != cairn_grid_island(g, goal.x, goal.y)) continue;
    a[n++] = tc_add_at(c, (float)p.x + 0.5f, (float)p.y + 0.5f);
  }
  size_t before = cairn_crowd_memory(c);
  cairn_order o = field_order(f);
  assert_int_equal(cairn_crowd_order(c, a, 32, &o), CAIRN_OK);
  assert_int_equal(cairn_crowd_order(c, a + 32, 32, &o), CAIRN_OK); /* same slot */
  assert_int_equal(cairn_crowd_memory(c), before); /* nothing built */
  cairn_flow_cache_stats cs;
  cairn_flow_cache_get_stats(c->cache, &cs);
  assert_int_equal(cs.fields, 0);
  size_t slots = 0;
  for (int k = 0; k < CAIRN_CROWD_MAX_FIELDS; k++) slots += c->fields[k].field != NULL;
  assert_int_equal(slots, 1);
  assert_int_equal(tc_info(c, a[0]).order, CAIRN_ORDER_FIELD);
  assert_int_equal(tc_info(c, a[0]).arrival, CAIRN_ARRIVAL_LEAVE); /* a field's default */
  int t = 0;
  for (; t < 3000 && tc_count_state(c, a, 64, CAIRN_AGENT_ARRIVED) < 64; t++)
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(tc_count_state(c, a, 64, CAIRN_AGENT_ARRIVED), 64);
  /* each arrived beside the goal */
  for (size_t k = 0; k < 64; k++) {
    cairn_agent_info i = tc_info(c, a[k]);
    assert_true(fabsf(i.x - ((float)goal.x + 0.5f)) < 2.5f &&
                fabsf(i.y - ((float)goal.y + 0.5f)) < 2.5f);
  }
  /* every agent leaves it: the slot frees, the field is still the caller's */
  assert_int_equal(cairn_crowd_order_hold(c, a, 64), CAIRN_OK);
  slots = 0;
  for (int k = 0; k < CAIRN_CROWD_MAX_FIELDS; k++) slots += c->fields[k].field != NULL;
  assert_int_equal(slots, 0);
  assert_true(cairn_field_cost(f, goal.x, goal.y) == 0);
  /* followed again, then the crowd goes first: the field is not freed */
  assert_int_equal(cairn_crowd_order(c, a, 64, &o), CAIRN_OK);
  cairn_crowd_destroy(c);
  assert_true(cairn_field_cost(f, goal.x, goal.y) == 0);
  cairn_field_destroy(f);
  cairn_grid_destroy(g);
}

/* The caller's field and the cache's field to the same goal steer alike:
 * the same hash (the cache builds with los_radius 0, so the caller does). */
static void same_as_the_cache_field(void **state) {
  (void)state;
  uint64_t hash[2];
  for (int way = 0; way < 2; way++) {
    uint64_t rng = 23;
    cairn_grid *g = tu_random_grid(&rng, 40, 40, 18, 1);
    cairn_point goal = tu_random_open(&rng, g);
    cairn_crowd *c = new_crowd(g, 100, 1);
    cairn_agent a[100];
    for (size_t k = 0; k < 100; k++) {
      cairn_point p = tu_random_open(&rng, g);
      a[k] = tc_add_at(c, (float)p.x + 0.5f, (float)p.y + 0.5f);
    }
    cairn_flow_builder *b = NULL;
    cairn_field *f = NULL;
    if (way == 0) {
      assert_int_equal(cairn_crowd_order_field(c, a, 100, &goal, 1), CAIRN_OK);
    } else {
      assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
      assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
      cairn_flow_opts fo = cairn_flow_defaults();
      fo.threads = 1;
      fo.los_radius = 0;
      assert_int_equal(cairn_field_build(b, f, g, &goal, 1, &fo), CAIRN_OK);
      cairn_order o = field_order(f);
      assert_int_equal(cairn_crowd_order(c, a, 100, &o), CAIRN_OK);
    }
    for (int t = 0; t < 300; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    hash[way] = cairn_crowd_hash(c);
    cairn_crowd_destroy(c);
    cairn_field_destroy(f);
    cairn_flow_builder_destroy(b);
    cairn_grid_destroy(g);
  }
  assert_true(hash[0] == hash[1]);
}

static void refusals(void **state) {
  (void)state;
  cairn_grid *g = NULL, *small = NULL, *wide = NULL, *tall = NULL;
  assert_int_equal(cairn_grid_create(20, 20, 1, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_create(10, 10, 1, NULL, &small), CAIRN_OK);
  assert_int_equal(cairn_grid_create(21, 20, 1, NULL, &wide), CAIRN_OK);
  assert_int_equal(cairn_grid_create(20, 21, 1, NULL, &tall), CAIRN_OK);
  cairn_point goal = {5, 5};
  cairn_field *fs = field_to(small, goal), *fw = field_to(wide, goal), *ft = field_to(tall, goal);
  cairn_field *ok = field_to(g, goal);
  cairn_crowd *c = new_crowd(g, 4, 1);
  cairn_agent a = tc_add_at(c, 10.5f, 10.5f);
  assert_int_equal(cairn_crowd_order_wander(c, &a, 1, 4), CAIRN_OK);
  uint64_t h = cairn_crowd_hash(c);
  size_t mem = cairn_crowd_memory(c);
  cairn_field *bad[3] = {fs, fw, ft};
  for (int k = 0; k < 3; k++) {
    cairn_order o = field_order(bad[k]);
    assert_int_equal(cairn_crowd_order(c, &a, 1, &o), CAIRN_ERR_ARG);
    assert_string_equal(cairn_crowd_error(c),
                        "the order's field is not of the route grid's size (20x20)");
  }
  cairn_order o = field_order(ok);
  o.goals = &goal;
  o.n_goals = 1;
  assert_int_equal(cairn_crowd_order(c, &a, 1, &o), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c), "a field order takes a field or goals, not both");
  o.goals = NULL; /* n_goals alone is a goal list too */
  assert_int_equal(cairn_crowd_order(c, &a, 1, &o), CAIRN_ERR_ARG);
  assert_true(cairn_crowd_hash(c) == h);
  assert_int_equal(cairn_crowd_memory(c), mem);
  assert_int_equal(tc_info(c, a).order, CAIRN_ORDER_WANDER);
  o.n_goals = 0;
  assert_int_equal(cairn_crowd_order(c, &a, 1, &o), CAIRN_OK);
  assert_string_equal(cairn_crowd_error(c), "");
  cairn_crowd_destroy(c);
  cairn_field_destroy(fs);
  cairn_field_destroy(fw);
  cairn_field_destroy(ft);
  cairn_field_destroy(ok);
  cairn_grid_destroy(small);
  cairn_grid_destroy(wide);
  cairn_grid_destroy(tall);
  cairn_grid_destroy(g);
}

/* 64 slots, caller and cache fields together: one more is refused, and
 * the cache's field it built for the refused order goes back. */
static void slots_shared_with_the_cache(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(16, 16, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 70, 1);
  cairn_field *mine[40];
  cairn_agent a[70];
  for (int k = 0; k < 70; k++) a[k] = tc_add_at(c, 0.5f + (float)(k % 16), 0.5f + (float)(k / 16));
  for (int k = 0; k < 40; k++) {
    cairn_point p = {k % 16, 8 + k / 16};
    mine[k] = field_to(g, p);
    cairn_order o = field_order(mine[k]);
    assert_int_equal(cairn_crowd_order(c, &a[k], 1, &o), CAIRN_OK);
  }
  for (int k = 40; k < 64; k++) {
    cairn_point p = {k % 16, 8 + k / 16};
    assert_int_equal(cairn_crowd_order_field(c, &a[k], 1, &p, 1), CAIRN_OK);
  }
  uint64_t h = cairn_crowd_hash(c);
  cairn_point p = {15, 15};
  assert_int_equal(cairn_crowd_order_field(c, &a[64], 1, &p, 1), CAIRN_ERR_TOO_LARGE);
  cairn_field *extra = field_to(g, p);
  cairn_order o = field_order(extra);
  assert_int_equal(cairn_crowd_order(c, &a[64], 1, &o), CAIRN_ERR_TOO_LARGE);
  assert_non_null(strstr(cairn_crowd_error(c), "CAIRN_CROWD_MAX_FIELDS"));
  assert_true(cairn_crowd_hash(c) == h);
  cairn_flow_cache_stats cs;
  cairn_flow_cache_get_stats(c->cache, &cs);
  assert_int_equal(cs.held, 24); /* the refused order's field went back */
  /* a field already followed takes no new slot */
  o = field_order(mine[3]);
  assert_int_equal(cairn_crowd_order(c, &a[65], 1, &o), CAIRN_OK);
  /* a caller's field leaving frees a slot the cache may take */
  assert_int_equal(cairn_crowd_order_hold(c, &a[0], 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_field(c, &a[64], 1, &p, 1), CAIRN_OK);
  cairn_crowd_destroy(c);
  for (int k = 0; k < 40; k++) cairn_field_destroy(mine[k]);
  cairn_field_destroy(extra);
  cairn_grid_destroy(g);
}

/* A grid edit repairs the cache's fields, never the caller's: its last
 * repair stays as it was; the caller repairs it. */
static void grid_edits_leave_it_alone(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(24, 24, 1, NULL, &g), CAIRN_OK);
  cairn_point goal = {20, 20};
  cairn_field *f = field_to(g, goal);
  cairn_crowd *c = new_crowd(g, 4, 1);
  cairn_agent a = tc_add_at(c, 2.5f, 2.5f);
  cairn_order o = field_order(f);
  assert_int_equal(cairn_crowd_order(c, &a, 1, &o), CAIRN_OK);
  for (int t = 0; t < 10; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  cairn_cost before = cairn_field_cost(f, 10, 11);
  assert_true(before != CAIRN_COST_INF);
  cairn_point cell = {10, 10};
  assert_int_equal(cairn_grid_set_cost(g, 10, 10, 0), CAIRN_OK);
  assert_int_equal(cairn_crowd_grid_changed(c, &cell, 1), CAIRN_OK);
  cairn_field_stats fs;
  cairn_field_get_stats(f, &fs);
  assert_int_equal(fs.repaired, 0);
  /* untouched, so stale: its reads refuse until the caller repairs it */
  assert_int_equal(cairn_field_check(f), CAIRN_ERR_STATE);
  assert_true(cairn_field_cost(f, 10, 11) == CAIRN_COST_INF);
  /* the caller repairs it; agents keep following */
  cairn_flow_builder *b = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  assert_int_equal(cairn_field_repair(b, f, &cell, 1), CAIRN_OK);
  assert_true(cairn_field_cost(f, 10, 11) == before);
  for (int t = 0; t < 400 && tc_info(c, a).state != CAIRN_AGENT_ARRIVED; t++)
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(tc_info(c, a).state, CAIRN_AGENT_ARRIVED);
  cairn_flow_builder_destroy(b);
  cairn_crowd_destroy(c);
  cairn_field_destroy(f);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(follows_without_building),
      cmocka_unit_test(same_as_the_cache_field),
      cmocka_unit_test(refusals),
      cmocka_unit_test(slots_shared_with_the_cache),
      cmocka_unit_test(grid_edits_leave_it_alone),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
