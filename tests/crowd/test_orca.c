/* Crowds, ORCA avoidance (opts.avoidance CAIRN_AVOID_ORCA): two agents
 * head-on pass without touching; sparse random crowds crossing one
 * another never overlap, every agent arrives, and no disc enters a wall;
 * the result is the same at 1, 2 and 3 threads; a unit on its goal cell
 * but off the point does not stop short when planned again; options out
 * of range are refused. */
#include "test_crowd_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crowd_internal.h"

static cairn_crowd *orca_crowd(const cairn_grid *g, uint32_t max, int threads) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = max;
  o.threads = threads;
  o.avoidance = CAIRN_AVOID_ORCA;
  o.neighbour_radius = 3.0f;
  o.bin_size = 3.0f;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

static cairn_agent add_disc(cairn_crowd *c, float x, float y, float r) {
  cairn_agent_params p = {x, y, r, 1.5f, 0, 0};
  cairn_agent a = 0;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_OK);
  return a;
}

/* The least centre distance over the radii's sum among n agents, now. */
static double least_separation(const cairn_crowd *c, const cairn_agent *a, size_t n) {
  double least = INFINITY;
  for (size_t i = 0; i < n; i++) {
    cairn_agent_info p = tc_info(c, a[i]);
    for (size_t j = i + 1; j < n; j++) {
      cairn_agent_info q = tc_info(c, a[j]);
      double dx = (double)p.x - q.x, dy = (double)p.y - q.y;
      double s = sqrt(dx * dx + dy * dy) / ((double)p.radius + q.radius);
      if (s < least) least = s;
    }
  }
  return least;
}

/* Two agents on one row walk at each other: ORCA turns both aside, half
 * each, and they pass without their discs ever meeting; both arrive. */
static void head_on_pass_apart(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(40, 21, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = orca_crowd(g, 2, 1);
  cairn_agent a[2] = {add_disc(c, 5.5f, 10.5f, 0.4f), add_disc(c, 34.5f, 10.5f, 0.4f)};
  assert_int_equal(cairn_crowd_order_path(c, &a[0], 1, (cairn_point){34, 10}), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_path(c, &a[1], 1, (cairn_point){5, 10}), CAIRN_OK);
  double least = INFINITY, most_off = 0;
  for (int t = 0; t < 400; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    double s = least_separation(c, a, 2);
    least = s < least ? s : least;
    double off = fabs((double)tc_info(c, a[0]).y - 10.5);
    most_off = off > most_off ? off : most_off;
  }
  printf("head-on: least separation %.3f, %.2f cells aside\n", least, most_off);
  assert_true(least >= 1.0);
  assert_true(most_off > 0.2); /* it did turn aside */
  assert_int_equal(tc_count_state(c, a, 2, CAIRN_AGENT_ARRIVED), 2);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* The least distance between two discs' centres over the next `tau`
 * seconds, from relative position (px, py) at relative velocity (wx, wy). */
static double closest(double px, double py, double wx, double wy, double tau) {
  double w2 = wx * wx + wy * wy, t = w2 > 0 ? -(px * wx + py * wy) / w2 : 0;
  t = t < 0 ? 0 : t > tau ? tau : t;
  return hypot(px + wx * t, py + wy * t);
}

/* ORCA's promise, checked from outside it: two agents each taking a
 * velocity its half-plane allows never meet within the time horizon at
 * those velocities. Random pairs 1 to 3 cells apart, heading for random
 * goals; after each tick, the new velocities from the positions before
 * it keep the discs apart for orca_horizon seconds. */
static void pairs_keep_the_promise(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(40, 40, 1, NULL, &g), CAIRN_OK);
  uint64_t rng = 99;
  size_t checked = 0;
  double tightest = INFINITY;
  for (int pair = 0; pair < 200; pair++) {
    cairn_crowd *c = orca_crowd(g, 2, 1);
    double ang = (double)tu_below(&rng, 6283) / 1000.0, dist = 1.0 + tu_below(&rng, 2000) / 1000.0;
    float ax = 20.0f, ay = 20.0f;
    float bx = ax + (float)(dist * cos(ang)), by = ay + (float)(dist * sin(ang));
    cairn_agent a[2] = {add_disc(c, ax, ay, 0.4f), add_disc(c, bx, by, 0.4f)};
    for (int k = 0; k < 2; k++) {
      cairn_point goal = {(int32_t)tu_below(&rng, 40), (int32_t)tu_below(&rng, 40)};
      assert_int_equal(cairn_crowd_order_path(c, &a[k], 1, goal), CAIRN_OK);
    }
    for (int t = 0; t < 30; t++) {
      cairn_agent_info p = tc_info(c, a[0]), q = tc_info(c, a[1]);
      assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
      cairn_agent_info p2 = tc_info(c, a[0]), q2 = tc_info(c, a[1]);
      /* both moving on (an arriving unit stops where it is), each in the
       * other's neighbour radius */
      if (p.state != CAIRN_AGENT_MOVING || q.state != CAIRN_AGENT_MOVING ||
          p2.state != CAIRN_AGENT_MOVING || q2.state != CAIRN_AGENT_MOVING ||
          hypot((double)q.x - p.x, (double)q.y - p.y) > (double)c->opts.neighbour_radius)
        continue;
      double d = closest((double)q.x - p.x, (double)q.y - p.y, (double)q2.vx - p2.vx,
                         (double)q2.vy - p2.vy, (double)c->opts.orca_horizon);
      double s = d / 0.8;
      tightest = s < tightest ? s : tightest;
      if (s < 0.999)
        fail_msg("pair %d tick %d: the new velocities meet within the horizon (%.3f)", pair, t,
                 s);
      checked++;
    }
    cairn_crowd_destroy(c);
  }
  printf("%zu ticks of pairs checked, closest %.3f of touching\n", checked, tightest);
  assert_true(checked > 2000);
  cairn_grid_destroy(g);
}

/* n agents on random cells of a map with scattered walls, each to a
 * random far cell; the run's least separation, and arrivals. */
typedef struct sparse_run {
  double least;
  size_t arrived, in_wall;
  uint64_t hash;
} sparse_run;

static sparse_run sparse(uint64_t seed, int threads, size_t n, int wall_pct) {
  uint64_t rng = seed;
  cairn_grid *g = tu_random_grid(&rng, 64, 64, wall_pct, 1);
  cairn_crowd *c = orca_crowd(g, (uint32_t)n, threads);
  cairn_agent a[64];
  cairn_point taken[64];
  sparse_run out = {INFINITY, 0, 0, 0};
  uint32_t island = 0;
  for (size_t k = 0; k < n;) {
    cairn_point p = tu_random_open(&rng, g);
    if (cairn_grid_clearance(g, p.x - 1 < 0 ? 0 : p.x - 1, p.y - 1 < 0 ? 0 : p.y - 1) < 3)
      continue; /* a clear 3 x 3 around: no disc starts against a wall */
    if (k == 0) island = cairn_grid_island(g, p.x, p.y);
    if (cairn_grid_island(g, p.x, p.y) != island) continue;
    int crowded = 0;
    for (size_t j = 0; j < k; j++)
      crowded |= abs(taken[j].x - p.x) < 3 && abs(taken[j].y - p.y) < 3;
    if (crowded) continue;
    taken[k] = p;
    a[k++] = add_disc(c, (float)p.x + 0.5f, (float)p.y + 0.5f, 0.4f);
  }
  for (size_t k = 0; k < n; k++) {
    cairn_point goal = taken[(k + n / 2) % n]; /* across the crowd */
    assert_int_equal(cairn_crowd_order_path(c, &a[k], 1, goal), CAIRN_OK);
  }
  for (int t = 0; t < 2500; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    cairn_crowd_stats st;
    cairn_crowd_get_stats(c, &st);
    out.in_wall += st.in_wall;
    double s = least_separation(c, a, n);
    out.least = s < out.least ? s : out.least;
    if (st.arrived == n) break;
  }
  out.arrived = tc_count_state(c, a, n, CAIRN_AGENT_ARRIVED);
  out.hash = cairn_crowd_hash(c);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return out;
}

/* Sparse crowds swapping places on an open map: no two discs ever
 * overlap by more than a sliver (ORCA's lines hold while the program is
 * feasible, as it is with room to spare), all arrive; among scattered
 * walls (which ORCA's program leaves to the wall slides) none enters a
 * wall and all arrive. The same at 1, 2 and 3 threads. */
static void sparse_crowds_keep_apart(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 4; seed++)
    for (int walls = 0; walls <= 4; walls += 4) {
      sparse_run one = sparse(seed, 1, 40, walls);
      printf("seed %llu, walls %d %%: least separation %.3f, %zu of 40 arrived\n",
             (unsigned long long)seed, walls, one.least, one.arrived);
      if (!walls) assert_true(one.least >= 0.95);
      assert_int_equal(one.in_wall, 0);
      assert_int_equal(one.arrived, 40);
      for (int threads = 2; threads <= 3; threads++) {
        sparse_run more = sparse(seed, threads, 40, walls);
        assert_true(more.hash == one.hash);
      }
    }
}

/* The same runs under cairn's steering press discs together: the check
 * above would catch an avoidance that does not keep them apart. */
static void steering_presses_closer(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(40, 21, 1, NULL, &g), CAIRN_OK);
  double least[2];
  for (int orca = 0; orca < 2; orca++) {
    cairn_crowd_opts o = cairn_crowd_defaults();
    o.max_agents = 16;
    o.threads = 1;
    o.avoidance = orca ? CAIRN_AVOID_ORCA : CAIRN_AVOID_STEER;
    o.neighbour_radius = o.bin_size = 3.0f;
    cairn_crowd *c = NULL;
    assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
    cairn_agent a[16];
    for (int k = 0; k < 8; k++) { /* two files of eight walk through each other */
      a[k] = add_disc(c, 3.5f, 7.5f + (float)k, 0.4f);
      a[8 + k] = add_disc(c, 36.5f, 7.5f + (float)k, 0.4f);
    }
    for (int k = 0; k < 8; k++) {
      assert_int_equal(cairn_crowd_order_path(c, &a[k], 1, (cairn_point){36, 7 + k}), CAIRN_OK);
      assert_int_equal(cairn_crowd_order_path(c, &a[8 + k], 1, (cairn_point){3, 7 + k}),
                       CAIRN_OK);
    }
    least[orca] = INFINITY;
    for (int t = 0; t < 600; t++) {
      assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
      double s = least_separation(c, a, 16);
      least[orca] = s < least[orca] ? s : least[orca];
    }
    assert_int_equal(tc_count_state(c, a, 16, CAIRN_AGENT_ARRIVED), 16);
    cairn_crowd_destroy(c);
  }
  printf("two files through each other: least separation %.3f steering, %.3f ORCA\n", least[0],
         least[1]);
  assert_true(least[1] > least[0]);
  assert_true(least[1] >= 0.9);
  cairn_grid_destroy(g);
}

/* A unit standing on its goal cell but off its centre, planned again,
 * walks to the centre and arrives there (not where it stood). */
static void planned_from_the_goal_cell(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(10, 10, 1, NULL, &g), CAIRN_OK);
  for (int orca = 0; orca < 2; orca++) {
    cairn_crowd_opts o = cairn_crowd_defaults();
    o.max_agents = 1;
    o.threads = 1;
    o.avoidance = orca ? CAIRN_AVOID_ORCA : CAIRN_AVOID_STEER;
    cairn_crowd *c = NULL;
    assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
    cairn_agent a = add_disc(c, 5.1f, 5.9f, 0.3f);
    assert_int_equal(cairn_crowd_order_path(c, &a, 1, (cairn_point){5, 5}), CAIRN_OK);
    for (int t = 0; t < 40; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    cairn_agent_info i = tc_info(c, a);
    assert_int_equal(i.state, CAIRN_AGENT_ARRIVED);
    double d = hypot((double)i.x - 5.5, (double)i.y - 5.5);
    if (d >= 0.4) fail_msg("arrived %.2f cells from the goal's centre", d);
    cairn_crowd_destroy(c);
  }
  cairn_grid_destroy(g);
}

/* Options out of range are refused, naming the option. */
static void options_refused(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(8, 8, 1, NULL, &g), CAIRN_OK);
  struct {
    int avoidance;
    float horizon;
    uint32_t neighbours;
    const char *says;
  } bad[] = {
      {2, 3.0f, 6, "opts.avoidance 2"},          {-1, 3.0f, 6, "opts.avoidance -1"},
      {1, 0.0f, 6, "opts.orca_horizon 0"},       {1, 21.0f, 6, "opts.orca_horizon 21"},
      {1, NAN, 6, "opts.orca_horizon"},          {1, 3.0f, 0, "opts.orca_neighbours 0"},
      {1, 3.0f, CAIRN_CROWD_MAX_ORCA + 1, "opts.orca_neighbours 65"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    cairn_crowd_opts o = cairn_crowd_defaults();
    o.avoidance = (cairn_avoidance)bad[k].avoidance;
    o.orca_horizon = bad[k].horizon;
    o.orca_neighbours = bad[k].neighbours;
    tc_assert_refused(g, &o, bad[k].says);
  }
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(head_on_pass_apart),
      cmocka_unit_test(pairs_keep_the_promise),
      cmocka_unit_test(sparse_crowds_keep_apart),
      cmocka_unit_test(steering_presses_closer),
      cmocka_unit_test(planned_from_the_goal_cell),
      cmocka_unit_test(options_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
