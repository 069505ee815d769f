/* Crowds: handles, refused input, the same state at any thread count, no
 * centre ever in a wall, groups crossing head-on, a gate closing mid-march,
 * the path queue under its budget, formations, the tick's bins. */
#include "test_crowd_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn_crowd.h"
#include "crowd_internal.h"
#include "test_jobs.h"

/* How a crowd runs its tick: threads, or a scheduler (jobs), and the
 * steering chunk (0: the default). */
typedef struct runner {
  int threads;
  const cairn_jobs *jobs;
  int chunk;
} runner;

static cairn_crowd *crowd_on(const cairn_grid *g, uint32_t max, runner r) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = max;
  o.threads = r.threads;
  o.jobs = r.jobs;
  if (r.chunk) o.chunk = r.chunk;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

static cairn_crowd *new_crowd(const cairn_grid *g, uint32_t max, int threads) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = max;
  o.threads = threads;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

/* Every live agent's centre is on an open cell and finite. */
static void assert_clear(const cairn_crowd *c, const cairn_grid *g,
                         const cairn_agent *agents, size_t n) {
  for (size_t k = 0; k < n; k++) {
    cairn_agent_info i;
    assert_int_equal(cairn_crowd_get(c, agents[k], &i), CAIRN_OK);
    assert_true(isfinite(i.x) && isfinite(i.y));
    int32_t x = (int32_t)floorf(i.x), y = (int32_t)floorf(i.y);
    if (cairn_grid_cost(g, x, y) == 0)
      fail_msg("agent %zu at %.4f,%.4f is in a blocked cell", k, (double)i.x, (double)i.y);
  }
}

static void handles(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(16, 16, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 2, 1);
  cairn_agent a = tc_add_at(c, 2.5f, 2.5f), b = tc_add_at(c, 5.5f, 5.5f), d;
  cairn_agent_params p = {8.5f, 8.5f, 0.3f, 1.5f, 0};
  assert_int_equal(cairn_crowd_add(c, &p, &d), CAIRN_ERR_TOO_LARGE);
  cairn_agent_info i;
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_OK);
  assert_true(i.x == 2.5f && i.y == 2.5f && i.state == CAIRN_AGENT_IDLE);
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_OK);
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_ERR_STATE);
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_ERR_STATE);
  assert_int_equal(cairn_crowd_count(c), 1);
  /* the slot comes back with a new generation: the old handle stays dead */
  cairn_agent a2 = tc_add_at(c, 3.5f, 3.5f);
  assert_true((a2 & 0xffffffffu) == (a & 0xffffffffu) && a2 != a);
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_ERR_STATE);
  assert_int_equal(cairn_crowd_get(c, a2, &i), CAIRN_OK);
  assert_true(i.x == 3.5f);
  /* never a slot, or generation 0 */
  assert_int_equal(cairn_crowd_get(c, 0, &i), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_get(c, (cairn_agent)7 | (cairn_agent)1 << 32, &i), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_get(c, b & 0xffffffffu, &i), CAIRN_ERR_ARG);
  /* an order naming a stale handle changes no agent */
  cairn_point goal = {10, 10};
  cairn_agent both[2] = {b, a};
  assert_int_equal(cairn_crowd_order_path(c, both, 2, goal), CAIRN_ERR_STATE);
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
  cairn_agent_params p = {NAN, 1.5f, 0.3f, 1.5f, 0};
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

/* A mixed crowd on a random map: a horde to two goals, wanderers, units
 * with paths. Returns the hash after `ticks`; *shift moves agent 0. */
static uint64_t run_mixed_on(runner run, int ticks, float shift, int check_walls) {
  uint64_t rng = 42;
  cairn_grid *g = tu_random_grid(&rng, 96, 96, 22, 1);
  cairn_crowd *c = crowd_on(g, 1500, run);
  cairn_agent *agents = malloc(1500 * sizeof *agents);
  size_t n = 0;
  while (n < 1500) {
    cairn_point p = tu_random_open(&rng, g);
    cairn_agent_params ap = {(float)p.x + 0.5f + (n == 0 ? shift : 0.0f),
                             (float)p.y + 0.5f, 0.2f + 0.02f * (float)(n % 8),
                             1.0f + 0.1f * (float)(n % 9), 0};
    assert_int_equal(cairn_crowd_add(c, &ap, &agents[n]), CAIRN_OK);
    n++;
  }
  cairn_point goals[2] = {tu_random_open(&rng, g), tu_random_open(&rng, g)};
  assert_int_equal(cairn_crowd_order_field(c, agents, 900, goals, 2), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_wander(c, agents + 900, 400, 7), CAIRN_OK);
  for (size_t k = 1300; k < 1500; k++)
    assert_int_equal(cairn_crowd_order_path(c, &agents[k], 1, tu_random_open(&rng, g)),
                     CAIRN_OK);
  for (int t = 0; t < ticks; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    if (check_walls) assert_clear(c, g, agents, n);
  }
  cairn_crowd_stats st;
  cairn_crowd_get_stats(c, &st);
  assert_int_equal(st.in_wall, 0);
  assert_int_equal(st.non_finite, 0);
  uint64_t h = cairn_crowd_hash(c);
  free(agents);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return h;
}

static uint64_t run_mixed(int threads, int ticks, float shift, int check_walls) {
  runner r = {threads, NULL, 0};
  return run_mixed_on(r, ticks, shift, check_walls);
}

static void same_state_at_any_thread_count(void **state) {
  (void)state;
  uint64_t one = run_mixed(1, 300, 0.0f, 0), two = run_mixed(2, 300, 0.0f, 0);
  uint64_t three = run_mixed(3, 300, 0.0f, 0);
  assert_true(one == two);
  assert_true(one == three);
  /* the hash sees a change of one agent's start by a hundredth of a cell */
  assert_true(run_mixed(2, 300, 0.01f, 0) != one);
}

/* The same crowd whatever runs the tick's tasks: serially in reverse
 * order or shuffled, naming workers as a pool would, or the crowd's own
 * pool, with small chunks so every pass has many tasks. */
static void same_state_under_any_scheduler(void **state) {
  (void)state;
  uint64_t want = run_mixed(1, 200, 0.0f, 0);
  tj_sched sched[3] = {tj_make(3, 0, 1), tj_make(2, 1, 5), tj_make(3, 1, 9)};
  for (int k = 0; k < 3; k++) {
    runner r = {0, tj_jobs(&sched[k]), 16};
    assert_true(run_mixed_on(r, 200, 0.0f, 0) == want);
    /* several tasks a run: the order really varied */
    assert_true(sched[k].tasks > 4 * (uint64_t)sched[k].runs);
  }
  for (int threads = 2; threads <= 3; threads++) {
    runner r = {threads, NULL, 16};
    assert_true(run_mixed_on(r, 200, 0.0f, 0) == want);
  }
  /* bad jobs are refused */
  uint64_t rng = 3;
  cairn_grid *g = tu_random_grid(&rng, 16, 16, 10, 1);
  cairn_crowd_opts o = cairn_crowd_defaults();
  cairn_jobs bad = {0, tj_run, NULL};
  o.jobs = &bad;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
  bad.workers = 2;
  bad.run = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
  assert_null(c);
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
                               0.45f, 9.0f, 0}; /* near a cell a tick */
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

/* 5,000 path orders at once: no tick spends more than the budget, the
 * oldest are served first, and every one is served. */
static void queue_of_5000_within_budget(void **state) {
  (void)state;
  uint64_t rng = 5;
  cairn_grid *g = tu_random_grid(&rng, 128, 128, 20, 1);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 5000;
  o.threads = 2;
  o.path_budget = 20000;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  cairn_agent *a = malloc(5000 * sizeof *a);
  for (size_t k = 0; k < 5000; k++) {
    cairn_point p = tu_random_open(&rng, g);
    a[k] = tc_add_at(c, (float)p.x + 0.5f, (float)p.y + 0.5f);
  }
  for (size_t k = 0; k < 5000; k++)
    assert_int_equal(cairn_crowd_order_path(c, &a[k], 1, tu_random_open(&rng, g)), CAIRN_OK);
  cairn_crowd_stats st;
  int t = 0;
  uint64_t spent = 0;
  size_t cursor = 0; /* agents before it have left the queue */
  for (;; t++) {
    assert_true(t < 20000);
    cairn_crowd_tick(c);
    cairn_crowd_get_stats(c, &st);
    assert_true(st.tick_nodes <= o.path_budget);
    spent += st.tick_nodes;
    /* oldest first: orders leave the queue in the order they were given */
    while (cursor < 5000) {
      cairn_agent_info i;
      cairn_crowd_get(c, a[cursor], &i);
      if (i.state == CAIRN_AGENT_WAITING) break;
      cursor++;
    }
    if (t % 16 == 0)
      for (size_t k = cursor; k < 5000; k++) {
        cairn_agent_info i;
        cairn_crowd_get(c, a[k], &i);
        assert_int_equal(i.state, CAIRN_AGENT_WAITING);
      }
    if (st.served >= 5000) break;
  }
  assert_int_equal(cursor, 5000);
  assert_true(st.served >= 5000);
  assert_true(st.max_tick_nodes <= o.path_budget);
  /* the budget was used: every tick but the last spent most of it */
  assert_true(spent > (uint64_t)t * o.path_budget * 9 / 10);
  printf("5000 requests served in %d ticks, %llu nodes\n", t + 1, (unsigned long long)spent);
  free(a);
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

static void settlement_generator(void **state) {
  (void)state;
  char *a = malloc(128 * 128), *b = malloc(128 * 128);
  assert_int_equal(cairn_settlement_generate(128, 128, 3, a), CAIRN_OK);
  assert_int_equal(cairn_settlement_generate(128, 128, 3, b), CAIRN_OK);
  assert_memory_equal(a, b, 128 * 128);
  size_t gates = 0, water = 0, trees = 0;
  for (size_t i = 0; i < 128 * 128; i++) {
    gates += a[i] == 'G';
    water += a[i] == 'W';
    trees += a[i] == 'T';
  }
  assert_int_equal(gates, 8 * CAIRN_SETTLEMENT_GATE);
  assert_true(water > 128 && trees > 0);
  assert_int_equal(cairn_settlement_generate(128, 128, 4, b), CAIRN_OK);
  assert_true(memcmp(a, b, 128 * 128) != 0);
  assert_int_equal(cairn_settlement_generate(32, 128, 3, b), CAIRN_ERR_ARG);
  free(a);
  free(b);
}

/* (bin, slot) pairs in the order a sequential stable counting sort gives. */
static int by_bin_then_slot(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  return *x < *y ? -1 : *x > *y;
}

/* The tick's bins, built in parallel, hold every agent that takes part
 * once, by bin and by slot within a bin (a crowded bin of 40 too, past the
 * small-bin sort), at 1, 2 and 3 threads; the counts are left cleared. */
static void bins_in_stable_order(void **state) {
  (void)state;
  for (int threads = 1; threads <= 3; threads++) {
    uint64_t rng = 99;
    cairn_grid *g = NULL;
    assert_int_equal(cairn_grid_create(64, 64, 1, NULL, &g), CAIRN_OK);
    cairn_crowd *c = new_crowd(g, 700, threads);
    cairn_agent agents[700];
    for (size_t k = 0; k < 700; k++) {
      float jx = (float)(tu_rand(&rng) % 1000) / 1000.0f;
      float jy = (float)(tu_rand(&rng) % 1000) / 1000.0f;
      if (k % 15 == 3) { /* 47 of them in cell (10, 10) */
        agents[k] = tc_add_at(c, 10.0f + jx, 10.0f + jy);
      } else {
        cairn_point p = tu_random_open(&rng, g);
        agents[k] = tc_add_at(c, (float)p.x + jx, (float)p.y + jy);
      }
    }
    for (size_t k = 0; k < 700; k += 9) /* gaps in the slots */
      assert_int_equal(cairn_crowd_remove(c, agents[k]), CAIRN_OK);
    uint64_t want[700];
    size_t n = 0;
    for (uint32_t s = 0; s < c->high; s++) {
      if (!c->alive[s]) continue;
      int32_t bx = (int32_t)(c->x[s] * c->inv_bin), by = (int32_t)(c->y[s] * c->inv_bin);
      uint64_t bin = (uint64_t)by * (uint64_t)c->nbx + (uint64_t)bx;
      want[n++] = bin << 32 | s;
    }
    qsort(want, n, sizeof *want, by_bin_then_slot);
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_int_equal(c->n_binned, n);
    for (size_t k = 0; k < n; k++) assert_int_equal(c->order_of[k], (uint32_t)want[k]);
    size_t nb = (size_t)c->nbx * (size_t)c->nby;
    for (size_t b = 0; b < nb; b++) assert_int_equal(c->bin_start[b], 0);
    cairn_crowd_destroy(c);
    cairn_grid_destroy(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(handles),
      cmocka_unit_test(refuses_bad_input),
      cmocka_unit_test(same_state_at_any_thread_count),
      cmocka_unit_test(same_state_under_any_scheduler),
      cmocka_unit_test(never_in_a_wall),
      cmocka_unit_test(groups_cross_head_on),
      cmocka_unit_test(gate_closing_mid_march),
      cmocka_unit_test(queue_of_5000_within_budget),
      cmocka_unit_test(formation_and_narrow_pass),
      cmocka_unit_test(settlement_generator),
      cmocka_unit_test(bins_in_stable_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
