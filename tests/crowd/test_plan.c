/* Crowds, AUTO orders (cairn_crowd_plan): a gathered group gets one path
 * and arrives; many scattered agents share one field, a few scattered ones
 * search each, and either runs exactly as the order it chose given
 * directly; the plan's figures follow its stated rule; refusals change
 * nothing. */
#include "test_crowd_util.h"

#include "crowd_internal.h"

#include <math.h>
#include <string.h>

static cairn_grid *open_grid(int32_t w, int32_t h) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(w, h, 1, NULL, &g), CAIRN_OK);
  return g;
}

static double octile(double dx, double dy) {
  dx = fabs(dx);
  dy = fabs(dy);
  const double lo = fmin(dx, dy), hi = fmax(dx, dy);
  return hi - lo + sqrt(2.0) * lo;
}

static void gathered_group_moves_as_one(void **state) {
  (void)state;
  cairn_grid *g = open_grid(40, 40);
  cairn_crowd *c = new_crowd(g, 16, 1);
  cairn_agent a[16];
  for (int i = 0; i < 16; i++) a[i] = tc_add_at(c, 10.5f + (float)(i % 4), 10.5f + (float)(i / 4));
  const cairn_point goal = {35, 35};
  cairn_plan p;
  assert_int_equal(cairn_crowd_plan(c, a, 16, goal, &p), CAIRN_OK);
  assert_int_equal(p.way, CAIRN_PLAN_GROUP);
  assert_true(fabsf(p.spread - 1.5f) < 1e-6f);
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_AUTO;
  o.goal = goal;
  assert_int_equal(cairn_crowd_order(c, a, 16, &o), CAIRN_OK);
  const uint32_t group = tc_info(c, a[0]).group;
  assert_true(group != 0);
  for (int i = 0; i < 16; i++) {
    const cairn_agent_info in = tc_info(c, a[i]);
    assert_int_equal(in.order, CAIRN_ORDER_PATH);
    assert_int_equal(in.group, group);
    assert_int_equal(in.arrival, CAIRN_ARRIVAL_STOP);
  }
  for (int t = 0; t < 3000 && tc_count_state(c, a, 16, CAIRN_AGENT_ARRIVED) < 16; t++)
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(tc_count_state(c, a, 16, CAIRN_AGENT_ARRIVED), 16);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* n agents at random open cells of g's largest island (the goal's), then
 * `o` (or the AUTO order to goal when o is NULL), 300 ticks: the hash. */
static uint64_t scattered_run(const cairn_grid *g, uint64_t seed, uint32_t n, cairn_point goal,
                              const cairn_order *o, cairn_plan *plan) {
  cairn_crowd *c = new_crowd(g, n, 1);
  cairn_agent a[128];
  uint64_t rng = seed;
  for (uint32_t i = 0; i < n; i++) {
    cairn_point p = tu_random_open(&rng, g);
    while (cairn_grid_island(g, p.x, p.y) != cairn_grid_island(g, goal.x, goal.y))
      p = tu_random_open(&rng, g);
    a[i] = tc_add_at(c, (float)p.x + 0.5f, (float)p.y + 0.5f);
  }
  if (plan) assert_int_equal(cairn_crowd_plan(c, a, n, goal, plan), CAIRN_OK);
  cairn_order auto_order = cairn_order_defaults();
  auto_order.kind = CAIRN_ORDER_AUTO;
  auto_order.goal = goal;
  assert_int_equal(cairn_crowd_order(c, a, n, o ? o : &auto_order), CAIRN_OK);
  /* AUTO: agents sent each to the goal cell stay around it */
  const cairn_arrival want = o ? o->arrival : CAIRN_ARRIVAL_STAY;
  for (uint32_t i = 0; i < n; i++) assert_int_equal(tc_info(c, a[i]).arrival, want);
  for (int t = 0; t < 300; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  const uint64_t h = cairn_crowd_hash(c);
  cairn_crowd_destroy(c);
  return h;
}

static void many_scattered_share_a_field(void **state) {
  (void)state;
  uint64_t rng = 77;
  cairn_grid *g = tu_random_grid(&rng, 48, 48, 20, 1);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  cairn_point goal = tu_random_open(&rng, g);
  cairn_plan p;
  const uint64_t h = scattered_run(g, 5, 120, goal, NULL, &p);
  assert_int_equal(p.way, CAIRN_PLAN_FIELD);
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_FIELD;
  o.goals = &goal;
  o.n_goals = 1;
  o.arrival = CAIRN_ARRIVAL_STAY;
  assert_true(scattered_run(g, 5, 120, goal, &o, NULL) == h);
  cairn_grid_destroy(g);
}

/* Three agents 125 to 160 cells from (512, 512), far apart. */
static void add_three_scattered(cairn_crowd *c, cairn_agent a[3]) {
  a[0] = tc_add_at(c, 400.5f, 400.5f);
  a[1] = tc_add_at(c, 600.5f, 420.5f);
  a[2] = tc_add_at(c, 450.5f, 600.5f);
}

static void few_scattered_search_each(void **state) {
  (void)state;
  /* three trips of 125 to 160 cells on a million cells: a field would
   * cost more than 1000 cells a step of trip */
  cairn_grid *g = open_grid(1024, 1024);
  cairn_crowd *c = new_crowd(g, 3, 1);
  cairn_agent a[3];
  add_three_scattered(c, a);
  const cairn_point goal = {512, 512};
  cairn_plan p;
  assert_int_equal(cairn_crowd_plan(c, a, 3, goal, &p), CAIRN_OK);
  assert_int_equal(p.way, CAIRN_PLAN_EACH);
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_AUTO;
  o.goal = goal;
  assert_int_equal(cairn_crowd_order(c, a, 3, &o), CAIRN_OK);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(tc_info(c, a[i]).order, CAIRN_ORDER_PATH);
    assert_int_equal(tc_info(c, a[i]).group, 0);
    assert_int_equal(tc_info(c, a[i]).arrival, CAIRN_ARRIVAL_STAY);
  }
  for (int t = 0; t < 50; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  const uint64_t h = cairn_crowd_hash(c);
  cairn_crowd_destroy(c);
  /* the same as a path order of each, staying around the goal */
  c = new_crowd(g, 3, 1);
  add_three_scattered(c, a);
  o.kind = CAIRN_ORDER_PATH;
  o.group = 0;
  o.arrival = CAIRN_ARRIVAL_STAY;
  assert_int_equal(cairn_crowd_order(c, a, 3, &o), CAIRN_OK);
  for (int t = 0; t < 50; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_true(cairn_crowd_hash(c) == h);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* The figures: the mean octile distance, the costs as the header states,
 * and the choice between them. */
static void the_rule(void **state) {
  (void)state;
  cairn_grid *g = open_grid(64, 64);
  assert_int_equal(cairn_grid_set_cost(g, 30, 30, 0), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 8, 1);
  const float xs[4] = {2.5f, 60.5f, 2.5f, 60.5f}, ys[4] = {2.5f, 2.5f, 60.5f, 50.5f};
  cairn_agent a[4];
  for (int i = 0; i < 4; i++) a[i] = tc_add_at(c, xs[i], ys[i]);
  const cairn_point goal = {40, 10};
  cairn_plan p;
  assert_int_equal(cairn_crowd_plan(c, a, 4, goal, &p), CAIRN_OK);
  double trip = 0;
  for (int i = 0; i < 4; i++) trip += octile(xs[i] - 40.5, ys[i] - 10.5);
  assert_true(fabs(p.trip - trip / 4) < 1e-3);
  assert_true(fabs(p.paths_cost - trip * CAIRN_PLAN_CELLS_PER_STEP) < 1e-6 * p.paths_cost);
  assert_true(p.field_cost == 64.0 * 64.0 - 1.0);
  assert_true(p.spread == 31.5f); /* 60.5 - 29, the centre's y */
  assert_int_equal(p.way, p.paths_cost >= p.field_cost ? CAIRN_PLAN_FIELD : CAIRN_PLAN_EACH);
  /* one agent: its own path, however far */
  assert_int_equal(cairn_crowd_plan(c, a, 1, goal, &p), CAIRN_OK);
  assert_int_equal(p.way, CAIRN_PLAN_GROUP);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* Over a hierarchy a search costs CAIRN_PLAN_HPA_CELLS_PER_STEP a step
 * of trip: the same agents choose a path each there and a field on the
 * grid alone (64 x 64 open cells, four agents about 40 cells away). */
static void over_a_hierarchy(void **state) {
  (void)state;
  cairn_grid *g = open_grid(64, 64);
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.threads = 1;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 4;
  o.threads = 1;
  cairn_crowd *plain = new_crowd(g, 4, 1), *c = NULL;
  o.hpa = h;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  const float xs[4] = {2.5f, 60.5f, 2.5f, 60.5f}, ys[4] = {2.5f, 2.5f, 60.5f, 50.5f};
  cairn_agent a[4], b[4];
  for (int i = 0; i < 4; i++) {
    a[i] = tc_add_at(c, xs[i], ys[i]);
    b[i] = tc_add_at(plain, xs[i], ys[i]);
  }
  const cairn_point goal = {40, 10};
  cairn_plan p, q;
  assert_int_equal(cairn_crowd_plan(c, a, 4, goal, &p), CAIRN_OK);
  assert_int_equal(cairn_crowd_plan(plain, b, 4, goal, &q), CAIRN_OK);
  assert_int_equal(p.hierarchy, 1);
  assert_int_equal(q.hierarchy, 0);
  const double trip = 4.0 * p.trip;
  assert_true(fabs(p.paths_cost - trip * CAIRN_PLAN_HPA_CELLS_PER_STEP) < 1e-3 * p.paths_cost);
  assert_true(fabs(q.paths_cost - trip * CAIRN_PLAN_CELLS_PER_STEP) < 1e-3 * q.paths_cost);
  assert_int_equal(p.way, CAIRN_PLAN_EACH);  /* 4 x 44.7 x 20 < 4095 */
  assert_int_equal(q.way, CAIRN_PLAN_FIELD); /* 4 x 44.7 x 1000 >= 4095 */
  cairn_crowd_destroy(c);
  cairn_crowd_destroy(plain);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* Agents following a field to the goal already: scattered agents that
 * would search each share it instead (field_shared, no build); a field
 * to another goal, or one nobody follows any more, does not count. */
static void a_followed_field_is_shared(void **state) {
  (void)state;
  cairn_grid *g = open_grid(1024, 1024);
  cairn_crowd *c = new_crowd(g, 5, 1);
  cairn_agent a[3];
  add_three_scattered(c, a);
  cairn_agent other = tc_add_at(c, 100.5f, 100.5f), away = tc_add_at(c, 900.5f, 900.5f);
  const cairn_point goal = {512, 512}, elsewhere = {20, 20};
  cairn_plan p;
  assert_int_equal(cairn_crowd_plan(c, a, 3, goal, &p), CAIRN_OK);
  assert_int_equal(p.way, CAIRN_PLAN_EACH); /* as few_scattered_search_each */
  assert_int_equal(p.field_shared, 0);
  assert_int_equal(cairn_crowd_order_field(c, &away, 1, &elsewhere, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_plan(c, a, 3, goal, &p), CAIRN_OK);
  assert_int_equal(p.field_shared, 0); /* another goal's field */
  assert_int_equal(cairn_crowd_order_field(c, &other, 1, &goal, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_plan(c, a, 3, goal, &p), CAIRN_OK);
  assert_int_equal(p.field_shared, 1);
  assert_true(p.field_cost == 0.0);
  assert_int_equal(p.way, CAIRN_PLAN_FIELD);
  { /* the same choice in a crowd loaded from a save of this one */
    size_t len = 0;
    assert_int_equal(cairn_crowd_save(c, NULL, 0, &len), CAIRN_ERR_BUFFER);
    uint8_t *buf = test_malloc(len);
    assert_int_equal(cairn_crowd_save(c, buf, len, &len), CAIRN_OK);
    cairn_crowd *d = new_crowd(g, 5, 1);
    assert_int_equal(cairn_crowd_load(d, buf, len, NULL), CAIRN_OK);
    cairn_plan q;
    assert_int_equal(cairn_crowd_plan(d, a, 3, goal, &q), CAIRN_OK);
    assert_int_equal(q.field_shared, 1);
    assert_int_equal(q.way, CAIRN_PLAN_FIELD);
    cairn_crowd_destroy(d);
    test_free(buf);
  }
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_AUTO;
  o.goal = goal;
  assert_int_equal(cairn_crowd_order(c, a, 3, &o), CAIRN_OK);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(tc_info(c, a[i]).order, CAIRN_ORDER_FIELD);
    assert_int_equal(c->field[cairn__crowd_slot_of(a[i])], c->field[cairn__crowd_slot_of(other)]);
  }
  /* nobody follows it any more: searches again */
  assert_int_equal(cairn_crowd_order_hold(c, a, 3), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_hold(c, &other, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_plan(c, a, 3, goal, &p), CAIRN_OK);
  assert_int_equal(p.field_shared, 0);
  assert_int_equal(p.way, CAIRN_PLAN_EACH);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* The planning time: a field order and the ticks that serve paths add to
 * it; ticks with nothing queued do not. */
static void planning_time(void **state) {
  (void)state;
  cairn_grid *g = open_grid(128, 128);
  cairn_crowd *c = new_crowd(g, 2, 1);
  cairn_agent a = tc_add_at(c, 2.5f, 2.5f), b = tc_add_at(c, 120.5f, 3.5f);
  cairn_crowd_stats st;
  cairn_crowd_get_stats(c, &st);
  assert_true(st.plan_ns == 0);
  const cairn_point goal = {100, 100};
  assert_int_equal(cairn_crowd_order_field(c, &a, 1, &goal, 1), CAIRN_OK);
  cairn_crowd_get_stats(c, &st);
  const uint64_t after_field = st.plan_ns;
  assert_true(after_field > 0);
  for (int t = 0; t < 5; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  cairn_crowd_get_stats(c, &st);
  assert_true(st.plan_ns == after_field); /* nothing queued */
  assert_int_equal(cairn_crowd_order_path(c, &b, 1, goal), CAIRN_OK);
  for (int t = 0; t < 5; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  cairn_crowd_get_stats(c, &st);
  assert_true(st.plan_ns > after_field);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  (void)state;
  cairn_grid *g = open_grid(20, 20);
  assert_int_equal(cairn_grid_set_cost(g, 7, 7, 0), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 4, 1);
  cairn_agent a[2] = {tc_add_at(c, 2.5f, 2.5f), tc_add_at(c, 4.5f, 2.5f)};
  const uint64_t h = cairn_crowd_hash(c);
  cairn_plan p;
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_AUTO;
  o.goal = (cairn_point){7, 7};
  assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_crowd_plan(c, a, 2, o.goal, &p), CAIRN_ERR_BLOCKED);
  o.goal = (cairn_point){20, 3};
  assert_int_equal(cairn_crowd_order(c, a, 2, &o), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_crowd_plan(c, a, 2, o.goal, &p), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_crowd_plan(c, a, 0, (cairn_point){9, 9}, &p), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_plan(c, a, 2, (cairn_point){9, 9}, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_plan(NULL, a, 2, (cairn_point){9, 9}, &p), CAIRN_ERR_ARG);
  o.goal = (cairn_point){9, 9};
  assert_int_equal(cairn_crowd_order(c, NULL, 0, &o), CAIRN_OK); /* checked only */
  assert_true(cairn_crowd_hash(c) == h);
  assert_int_equal(tc_info(c, a[0]).order, CAIRN_ORDER_HOLD);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gathered_group_moves_as_one),
      cmocka_unit_test(over_a_hierarchy),
      cmocka_unit_test(planning_time),
      cmocka_unit_test(a_followed_field_is_shared),
      cmocka_unit_test(many_scattered_share_a_field),
      cmocka_unit_test(few_scattered_search_each),
      cmocka_unit_test(the_rule),
      cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
