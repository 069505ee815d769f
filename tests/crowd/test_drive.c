/* Crowds, driven agents: the game's velocity is kept exactly and the
 * agent moves by exactly v * dt a tick, a wall stops the axis (never its
 * centre in it) and the velocity still reads back as set; others avoid
 * it (few overlap it by half their radii) and give way; another order
 * ends the driving; refusals (NaN, too fast, stale) change nothing; the
 * same at 1 and 2 threads. */
#include "test_crowd_util.h"

#include <math.h>
#include <string.h>

static void keeps_its_velocity(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(40, 20, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < 20; y++) assert_int_equal(cairn_grid_set_cost(g, 30, y, 0), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 4, 1);
  cairn_agent a = tc_add_at(c, 2.5f, 5.5f);
  assert_int_equal(cairn_crowd_drive(c, a, 6.0f, 0.75f), CAIRN_OK);
  cairn_agent_info i = tc_info(c, a);
  assert_int_equal(i.order, CAIRN_ORDER_DRIVEN);
  assert_int_equal(i.state, CAIRN_AGENT_MOVING);
  float dt = 0.1f;
  int blocked = 0;
  for (int t = 0; t < 80; t++) {
    cairn_agent_info was = tc_info(c, a);
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    i = tc_info(c, a);
    assert_true(i.vx == 6.0f && i.vy == 0.75f); /* as set, every tick */
    float nx = was.x + 6.0f * dt, ny = was.y + 0.75f * dt;
    if (nx + 0.3f <= 30.0f) {
      assert_true(i.x == nx); /* exactly v * dt */
    } else {
      assert_true(i.x + 0.3f <= 30.0f && i.x > 29.69f); /* the disc stops touching the wall */
      blocked++;
    }
    assert_true(i.y == ny);
  }
  assert_true(blocked > 10);
  /* 0: idle, still driven */
  assert_int_equal(cairn_crowd_drive(c, a, 0.0f, 0.0f), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  i = tc_info(c, a);
  assert_int_equal(i.state, CAIRN_AGENT_IDLE);
  assert_int_equal(i.order, CAIRN_ORDER_DRIVEN);
  assert_true(i.vx == 0.0f && i.vy == 0.0f);
  /* backwards, then another order ends the driving */
  assert_int_equal(cairn_crowd_drive(c, a, -4.0f, 0.0f), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_true(tc_info(c, a).vx == -4.0f);
  assert_int_equal(cairn_crowd_order_hold(c, &a, 1), CAIRN_OK);
  assert_int_equal(tc_info(c, a).order, CAIRN_ORDER_HOLD);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_true(fabsf(tc_info(c, a).vx) < 4.0f); /* the crowd's own again */
  /* the general order drives several at once */
  cairn_agent b[2] = {a, tc_add_at(c, 2.5f, 15.5f)};
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_DRIVEN;
  o.vx = 1.0f;
  o.vy = -1.0f;
  assert_int_equal(cairn_crowd_order(c, b, 2, &o), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  for (int k = 0; k < 2; k++) {
    i = tc_info(c, b[k]);
    assert_true(i.vx == 1.0f && i.vy == -1.0f);
    assert_int_equal(i.order, CAIRN_ORDER_DRIVEN);
  }
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(20, 20, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 4, 1);
  cairn_agent a = tc_add_at(c, 5.5f, 5.5f), gone = tc_add_at(c, 8.5f, 8.5f);
  assert_int_equal(cairn_crowd_order_wander(c, &a, 1, 3), CAIRN_OK);
  assert_int_equal(cairn_crowd_remove(c, gone), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  uint64_t h = cairn_crowd_hash(c);
  const float bad[] = {NAN, INFINITY, -INFINITY, 9.5f, -9.01f};
  for (int k = 0; k < 5; k++) {
    assert_int_equal(cairn_crowd_drive(c, a, bad[k], 0.0f), CAIRN_ERR_ARG);
    assert_int_equal(cairn_crowd_drive(c, a, 0.0f, bad[k]), CAIRN_ERR_ARG);
  }
  assert_string_equal(cairn_crowd_error(c),
                      "velocity 0,-9.01 moves more than 0.9 cells an axis in a tick of 0.1 s "
                      "(at most 9 cells per second)");
  assert_int_equal(cairn_crowd_drive(c, gone, 1.0f, 0.0f), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_drive(c, 0, 1.0f, 0.0f), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_drive(NULL, a, 1.0f, 0.0f), CAIRN_ERR_ARG);
  assert_true(cairn_crowd_hash(c) == h);
  assert_int_equal(tc_info(c, a).order, CAIRN_ORDER_WANDER);
  assert_int_equal(cairn_crowd_drive(c, a, 8.99f, -8.99f), CAIRN_OK); /* just under */
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A horde of 120 streams east through a corridor while a driven agent
 * crosses it north and south: each tick, how many of the horde overlap it
 * by more than half their radii's sum; the hash. */
static uint64_t crossing(int threads, size_t *close, size_t *near_ticks) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(60, 24, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 121, threads);
  cairn_agent h[120];
  for (int k = 0; k < 120; k++)
    h[k] = tc_add_at(c, 1.5f + (float)(k % 12) * 1.1f, 2.5f + (float)(k / 12) * 2.0f);
  cairn_point goals[20];
  for (int k = 0; k < 20; k++) goals[k] = (cairn_point){59, 2 + k};
  assert_int_equal(cairn_crowd_order_field(c, h, 120, goals, 20), CAIRN_OK);
  cairn_agent_params pp = {30.5f, 1.5f, 0.45f, 2.0f, 0, 42};
  cairn_agent p;
  assert_int_equal(cairn_crowd_add(c, &pp, &p), CAIRN_OK);
  *close = *near_ticks = 0;
  float vy = 2.5f;
  for (int t = 0; t < 500; t++) {
    cairn_agent_info pi = tc_info(c, p);
    if (pi.y > 22.0f) vy = -2.5f;
    if (pi.y < 2.0f) vy = 2.5f;
    assert_int_equal(cairn_crowd_drive(c, p, 0.0f, vy), CAIRN_OK);
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    pi = tc_info(c, p);
    assert_true(pi.vx == 0.0f && pi.vy == vy);
    assert_true(pi.x == 30.5f); /* nothing pushes it */
    for (int k = 0; k < 120; k++) {
      cairn_agent_info i = tc_info(c, h[k]);
      if (i.state == CAIRN_AGENT_ARRIVED) continue;
      float d = hypotf(i.x - pi.x, i.y - pi.y);
      *near_ticks += d < 2.0f;
      *close += d < (i.radius + pi.radius) * 0.5f;
    }
  }
  assert_int_equal(tc_count_state(c, h, 120, CAIRN_AGENT_ARRIVED), 120); /* all got by */
  assert_clear(c, g, h, 120);
  uint64_t hash = cairn_crowd_hash(c);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return hash;
}

static void others_avoid_it(void **state) {
  (void)state;
  size_t close1, near1, close2, near2;
  uint64_t h1 = crossing(1, &close1, &near1), h2 = crossing(2, &close2, &near2);
  print_message("near the driven agent %zu agent-ticks, closer than half %zu\n", near1, close1);
  assert_true(near1 > 200); /* they did meet it */
  assert_true(close1 * 50 < near1); /* under 2 % of those near it */
  assert_true(h1 == h2);
  assert_int_equal(close1, close2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(keeps_its_velocity),
      cmocka_unit_test(refusals),
      cmocka_unit_test(others_avoid_it),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
