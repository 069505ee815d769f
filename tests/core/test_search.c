/* Grid A*, Dijkstra, distance maps, islands, sliced search, options. */
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static cairn_search *new_search(void) {
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  return s;
}

static cairn_search_opts opts_of(cairn_heuristic h, int moves) {
  cairn_search_opts o = cairn_search_defaults();
  o.heuristic = h;
  o.moves = moves;
  return o;
}

static cairn_point pt(int x, int y) {
  cairn_point p = {x, y};
  return p;
}

/* The worked example: 5 x 3, 4-way, Manhattan, wall on the top and middle
 * cells of the centre column. */
static void worked_example(void **state) {
  (void)state;
  static const char *const rows[] = {"..#..", "..#..", "....."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *s = new_search();
  cairn_search_opts o = opts_of(CAIRN_H_MANHATTAN, 4);
  assert_int_equal(cairn_astar_begin(s, g, pt(0, 1), pt(4, 1), &o), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_IN_PROGRESS);
  cairn_node_info right, up, down, start;
  assert_int_equal(cairn_search_cell(s, pt(1, 1), &right), CAIRN_OK);
  assert_int_equal(cairn_search_cell(s, pt(0, 0), &up), CAIRN_OK);
  assert_int_equal(cairn_search_cell(s, pt(0, 2), &down), CAIRN_OK);
  assert_int_equal(cairn_search_cell(s, pt(0, 1), &start), CAIRN_OK);
  assert_int_equal(start.state, CAIRN_NODE_CLOSED);
  assert_int_equal(right.state, CAIRN_NODE_OPEN);
  assert_true(right.f == 4 * CAIRN_COST_ONE);
  assert_true(up.f == 6 * CAIRN_COST_ONE);
  assert_true(down.f == 6 * CAIRN_COST_ONE);
  while (cairn_search_step(s, 1) == CAIRN_IN_PROGRESS) {
  }
  cairn_result r;
  assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
  assert_int_equal(r.steps, 6);
  assert_true(r.cost == 6 * CAIRN_COST_ONE);
  assert_true(tu_path_cost(g, r.path, r.path_len, pt(0, 1), pt(4, 1), 4) ==
              r.cost);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

static void start_is_goal(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(4, 4, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(2, 2), pt(2, 2), NULL, &r), CAIRN_OK);
  assert_true(r.cost == 0);
  assert_int_equal(r.steps, 0);
  assert_int_equal(r.path_len, 1);
  assert_int_equal(r.path[0].x, 2);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  (void)state;
  static const char *const rows[] = {"..#", "...", "..."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(2, 0), pt(0, 0), NULL, &r),
                   CAIRN_ERR_BLOCKED);
  assert_int_equal(r.status, CAIRN_ERR_BLOCKED);
  assert_true(r.cost == CAIRN_COST_INF);
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(2, 0), NULL, &r),
                   CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_astar(s, g, pt(-1, 0), pt(0, 0), NULL, &r),
                   CAIRN_ERR_RANGE);
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(0, 3), NULL, &r),
                   CAIRN_ERR_RANGE);
  assert_int_equal(cairn_astar(s, NULL, pt(0, 0), pt(1, 1), NULL, &r),
                   CAIRN_ERR_ARG);
  cairn_search_opts o = cairn_search_defaults();
  o.moves = 6;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(1, 1), &o, &r), CAIRN_ERR_ARG);
  o = cairn_search_defaults();
  o.weight = 0.5;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(1, 1), &o, &r), CAIRN_ERR_ARG);
  o.weight = NAN;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(1, 1), &o, &r), CAIRN_ERR_ARG);
  o = cairn_search_defaults();
  o.turn_penalty = -1;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(1, 1), &o, &r), CAIRN_ERR_ARG);
  /* a refused query leaves nothing to step, and the context still works */
  assert_int_equal(cairn_search_step(s, 10), CAIRN_ERR_STATE);
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(2, 2), NULL, &r), CAIRN_OK);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* Two islands: answered without expanding; with stale islands the search
 * still ends in "no path", after exhausting the start's island. */
static void islands_short_circuit(void **state) {
  (void)state;
  static const char *const rows[] = {"...#...", "...#...", "...#..."};
  cairn_grid *g = tu_grid(rows, 3);
  assert_int_equal(cairn_grid_island_count(g), 2);
  assert_int_not_equal(cairn_grid_island(g, 0, 0), cairn_grid_island(g, 6, 0));
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(6, 2), NULL, &r),
                   CAIRN_NO_PATH);
  assert_int_equal(r.expanded, 0);
  assert_true(r.cost == CAIRN_COST_INF);
  cairn_point goals[2] = {{5, 0}, {6, 1}};
  assert_int_equal(cairn_dijkstra_nearest(s, g, pt(0, 0), goals, 2, NULL, &r),
                   CAIRN_NO_PATH);
  assert_int_equal(r.expanded, 0);
  /* an edit makes the labels stale: correct answers, found by searching */
  assert_int_equal(cairn_grid_set_cost(g, 0, 0, 1), CAIRN_OK); /* no change */
  assert_true(cairn_grid_islands_fresh(g));
  assert_int_equal(cairn_grid_set_cost(g, 1, 1, 0), CAIRN_OK);
  assert_false(cairn_grid_islands_fresh(g));
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(6, 2), NULL, &r),
                   CAIRN_NO_PATH);
  assert_int_equal(r.expanded, 8);
  assert_int_equal(cairn_grid_set_cost(g, 3, 1, 1), CAIRN_OK); /* a gap */
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(6, 2), NULL, &r), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  assert_int_equal(cairn_grid_island_count(g), 1);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* A diagonal past a wall's corner is refused: the path goes around. */
static void no_corner_cutting(void **state) {
  (void)state;
  static const char *const rows[] = {"...", ".#.", "..."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(1, 0), pt(2, 1), NULL, &r), CAIRN_OK);
  assert_true(r.cost == 2 * CAIRN_COST_ONE); /* not one diagonal */
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(2, 2), NULL, &r), CAIRN_OK);
  assert_true(r.cost == 4 * CAIRN_COST_ONE);
  /* two walls touching at a corner: no squeezing between them */
  static const char *const pinch[] = {".#", "#."};
  cairn_grid *p = tu_grid(pinch, 2);
  assert_int_equal(cairn_grid_island_count(p), 2);
  /* make the labels stale so the search itself must refuse the diagonal */
  assert_int_equal(cairn_grid_set_cost(p, 1, 0, 1), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(p, 1, 0, 0), CAIRN_OK);
  assert_false(cairn_grid_islands_fresh(p));
  assert_int_equal(cairn_astar(s, p, pt(0, 0), pt(1, 1), NULL, &r),
                   CAIRN_NO_PATH);
  cairn_grid_destroy(p);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* The road around the swamp: the straight line costs 5 per cell, the detour
 * on cost-1 road is longer in steps and cheaper. */
static void road_around_swamp(void **state) {
  (void)state;
  static const char *const rows[] = {
      "...........",
      ".555555555.",
      ".555555555.",
      ".555555555.",
      "...........",
  };
  cairn_grid *g = tu_grid(rows, 5);
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(0, 2), pt(10, 2), NULL, &r), CAIRN_OK);
  /* detour: one step up, a diagonal onto the road, 8 along it, a diagonal
   * and a step down: 10 + 2 sqrt2, against 46 straight through */
  assert_true(r.cost == 10 * CAIRN_COST_ONE + 2 * CAIRN_COST_DIAG);
  assert_true(r.steps > 10);
  for (size_t i = 0; i < r.path_len; i++)
    assert_int_equal(cairn_grid_cost(g, r.path[i].x, r.path[i].y), 1);
  assert_true(tu_path_cost(g, r.path, r.path_len, pt(0, 2), pt(10, 2), 8) ==
              r.cost);
  /* make the swamp cheap (cost 1): the straight line wins */
  for (int y = 1; y <= 3; y++)
    for (int x = 1; x <= 9; x++) cairn_grid_set_cost(g, x, y, 1);
  assert_int_equal(cairn_astar(s, g, pt(0, 2), pt(10, 2), NULL, &r), CAIRN_OK);
  assert_true(r.cost == 10 * CAIRN_COST_ONE);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* Ties go to the lower h: on an open map with many equal-cost paths, A*
 * expands little more than the path itself. */
static void ties_toward_lower_h(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(64, 64, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(3, 5), pt(60, 40), NULL, &r), CAIRN_OK);
  assert_true(r.cost == 22 * CAIRN_COST_ONE + 35 * CAIRN_COST_DIAG);
  assert_int_equal(r.expanded, r.steps + 1);
  cairn_search_opts o = opts_of(CAIRN_H_MANHATTAN, 4);
  assert_int_equal(cairn_astar(s, g, pt(3, 5), pt(60, 40), &o, &r), CAIRN_OK);
  assert_true(r.cost == 92 * CAIRN_COST_ONE);
  assert_int_equal(r.expanded, r.steps + 1);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

static size_t count_turns(const cairn_result *r) {
  size_t turns = 0;
  for (size_t i = 2; i < r->path_len; i++) {
    int dx0 = r->path[i - 1].x - r->path[i - 2].x;
    int dy0 = r->path[i - 1].y - r->path[i - 2].y;
    int dx1 = r->path[i].x - r->path[i - 1].x;
    int dy1 = r->path[i].y - r->path[i - 1].y;
    turns += dx0 != dx1 || dy0 != dy1;
  }
  return turns;
}

/* On open ground sprinkled with obstacles, the turn penalty trades a little
 * cost for fewer changes of direction. */
static void turn_penalty_straightens(void **state) {
  (void)state;
  uint64_t rng = 7;
  cairn_grid *g = tu_random_grid(&rng, 60, 60, 10, 1);
  cairn_search *s = new_search();
  size_t plain = 0, smooth = 0;
  for (int moves = 4; moves <= 8; moves += 4) {
    cairn_search_opts o = opts_of(moves == 4 ? CAIRN_H_MANHATTAN : CAIRN_H_OCTILE, moves);
    for (int q = 0; q < 40; q++) {
      cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
      cairn_result r;
      o.turn_penalty = 0;
      if (cairn_astar(s, g, a, b, &o, &r) != CAIRN_OK) continue;
      cairn_cost base = r.cost;
      plain += count_turns(&r);
      o.turn_penalty = 2.0;
      assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_OK);
      smooth += count_turns(&r);
      /* r.cost includes the penalties; the path's own cost is no less than
       * the optimum and stays a valid chain */
      assert_true(tu_path_cost(g, r.path, r.path_len, a, b, moves) >= base);
    }
  }
  print_message("turns: plain %zu, with penalty %zu\n", plain, smooth);
  assert_true(smooth * 2 < plain);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* Sliced into budgets of 1, 7 and 1000 expansions, the search ends with
 * the same path, cost and counts as the blocking call. */
static void sliced_equals_blocking(void **state) {
  (void)state;
  uint64_t rng = 42;
  cairn_grid *g = tu_random_grid(&rng, 80, 60, 30, 4);
  cairn_search *s = new_search(), *t = new_search();
  const uint64_t budgets[3] = {1, 7, 1000};
  for (int q = 0; q < 60; q++) {
    cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
    cairn_result want, got;
    cairn_astar(s, g, a, b, NULL, &want);
    for (int k = 0; k < 3; k++) {
      assert_int_equal(cairn_astar_begin(t, g, a, b, NULL), CAIRN_OK);
      cairn_status st;
      uint64_t calls = 0;
      while ((st = cairn_search_step(t, budgets[k])) == CAIRN_IN_PROGRESS) {
        calls++;
        assert_int_equal(cairn_search_result(t, &got), CAIRN_IN_PROGRESS);
        assert_true(got.expanded == calls * budgets[k]);
      }
      assert_int_equal(st, want.status);
      assert_int_equal(cairn_search_result(t, &got), want.status);
      assert_true(got.cost == want.cost);
      assert_true(got.expanded == want.expanded);
      assert_true(got.generated == want.generated);
      assert_int_equal(got.path_len, want.path_len);
      if (want.status == CAIRN_OK)
        assert_memory_equal(got.path, want.path,
                            want.path_len * sizeof *got.path);
      /* a finished search keeps answering its status */
      assert_int_equal(cairn_search_step(t, 5), want.status);
    }
  }
  cairn_search_destroy(s);
  cairn_search_destroy(t);
  cairn_grid_destroy(g);
}

static void node_limit_partial(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(100, 100, 1, NULL, &g), CAIRN_OK);
  for (int y = 0; y < 99; y++) cairn_grid_set_cost(g, 50, y, 0);
  cairn_grid_update_islands(g);
  cairn_search *s = new_search();
  cairn_search_opts o = cairn_search_defaults();
  o.max_expanded = 100;
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(99, 0), &o, &r),
                   CAIRN_PARTIAL);
  assert_int_equal(r.expanded, 100);
  assert_null(r.path);
  /* in slices too: the limit counts across steps */
  assert_int_equal(cairn_astar_begin(s, g, pt(0, 0), pt(99, 0), &o), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 60), CAIRN_IN_PROGRESS);
  assert_int_equal(cairn_search_step(s, 60), CAIRN_PARTIAL);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_PARTIAL);
  assert_int_equal(r.expanded, 100);
  o.max_expanded = 0;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(99, 0), &o, &r), CAIRN_OK);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* Weighted A*: never worse than weight x optimal, and it expands less. */
static void weighted_within_bound(void **state) {
  (void)state;
  uint64_t rng = 99;
  cairn_search *s = new_search();
  uint64_t exact_exp = 0, weighted_exp = 0;
  for (int m = 0; m < 10; m++) {
    cairn_grid *g = tu_random_grid(&rng, 64, 64, 25, 3);
    for (int q = 0; q < 30; q++) {
      cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
      cairn_result exact, w;
      cairn_astar(s, g, a, b, NULL, &exact);
      const double weights[3] = {1.5, 2.0, 5.0};
      for (int k = 0; k < 3; k++) {
        cairn_search_opts o = cairn_search_defaults();
        o.weight = weights[k];
        cairn_astar(s, g, a, b, &o, &w);
        assert_int_equal(w.status, exact.status);
        if (exact.status != CAIRN_OK) continue;
        assert_true(w.cost >= exact.cost);
        assert_true((double)w.cost <= weights[k] * (double)exact.cost + 1e-9);
        assert_true(tu_path_cost(g, w.path, w.path_len, a, b, 8) == w.cost);
        if (k == 1) {
          exact_exp += exact.expanded;
          weighted_exp += w.expanded;
        }
      }
    }
    cairn_grid_destroy(g);
  }
  assert_true(weighted_exp < exact_exp);
  cairn_search_destroy(s);
}

/* Nearest of several goals: the cost is the minimum of the single-goal
 * costs and the goal index names a goal at that cost. */
static void nearest_goal(void **state) {
  (void)state;
  uint64_t rng = 5;
  cairn_search *s = new_search();
  for (int m = 0; m < 8; m++) {
    cairn_grid *g = tu_random_grid(&rng, 50, 40, 30, 3);
    for (int q = 0; q < 20; q++) {
      cairn_point a = tu_random_open(&rng, g);
      cairn_point goals[5];
      for (int k = 0; k < 5; k++) goals[k] = tu_random_open(&rng, g);
      cairn_cost best = CAIRN_COST_INF;
      cairn_cost each[5];
      for (int k = 0; k < 5; k++) {
        cairn_result r;
        cairn_astar(s, g, a, goals[k], NULL, &r);
        each[k] = r.cost;
        if (r.cost < best) best = r.cost;
      }
      cairn_result r;
      cairn_status st = cairn_dijkstra_nearest(s, g, a, goals, 5, NULL, &r);
      if (best == CAIRN_COST_INF) {
        assert_int_equal(st, CAIRN_NO_PATH);
        continue;
      }
      assert_int_equal(st, CAIRN_OK);
      assert_true(r.cost == best);
      assert_true(r.goal_index < 5);
      assert_true(each[r.goal_index] == best);
      assert_true(tu_path_cost(g, r.path, r.path_len, a, goals[r.goal_index],
                               8) == best);
    }
    cairn_grid_destroy(g);
  }
  cairn_point bad[2] = {{0, 0}, {-3, 0}};
  cairn_grid *g = NULL;
  cairn_grid_create(4, 4, 1, NULL, &g);
  cairn_result r;
  assert_int_equal(cairn_dijkstra_nearest(s, g, pt(1, 1), bad, 2, NULL, &r),
                   CAIRN_ERR_RANGE);
  assert_int_equal(cairn_dijkstra_nearest(s, g, pt(1, 1), bad, 0, NULL, &r),
                   CAIRN_ERR_ARG);
  cairn_grid_destroy(g);
  cairn_search_destroy(s);
}

/* The differential test: on random grids and costs, A* with each admissible
 * heuristic finds the Dijkstra cost, and both equal the distance map. */
static void differential_random(void **state) {
  (void)state;
  uint64_t rng = 2024;
  cairn_search *s = new_search();
  int queries = 0;
  for (int m = 0; m < 40; m++) {
    int w = 8 + (int)tu_below(&rng, 50), h = 8 + (int)tu_below(&rng, 50);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 40),
                                   1 + (int)tu_below(&rng, 9));
    if (cairn_grid_passable(g) == 0) {
      cairn_grid_destroy(g);
      continue;
    }
    int moves = m % 4 == 3 ? 4 : 8;
    cairn_point src = tu_random_open(&rng, g);
    cairn_cost *dist = malloc((size_t)w * (size_t)h * sizeof *dist);
    cairn_search_opts base = opts_of(CAIRN_H_ZERO, moves);
    assert_int_equal(cairn_distance_map(s, g, &src, 1, &base, dist,
                                        (size_t)w * (size_t)h),
                     CAIRN_OK);
    for (int q = 0; q < 60; q++, queries++) {
      cairn_point b = tu_random_open(&rng, g);
      cairn_cost want = dist[(size_t)b.y * (size_t)w + (size_t)b.x];
      for (int hk = 0; hk <= CAIRN_H_ZERO; hk++) {
        if (hk == CAIRN_H_MANHATTAN && moves == 8) continue; /* inadmissible */
        cairn_search_opts o = opts_of((cairn_heuristic)hk, moves);
        cairn_result r;
        cairn_status st = cairn_astar(s, g, src, b, &o, &r);
        if (want == CAIRN_COST_INF) {
          assert_int_equal(st, CAIRN_NO_PATH);
          assert_int_equal(r.expanded, 0); /* islands are fresh */
          continue;
        }
        assert_int_equal(st, CAIRN_OK);
        assert_true(r.cost == want);
        assert_true(tu_path_cost(g, r.path, r.path_len, src, b, moves) ==
                    r.cost);
      }
    }
    free(dist);
    cairn_grid_destroy(g);
  }
  assert_true(queries > 2000);
  cairn_search_destroy(s);
}

/* Distance map from two sources: each cell gets the nearer one's cost. */
static void distance_map_multi_source(void **state) {
  (void)state;
  uint64_t rng = 11;
  cairn_grid *g = tu_random_grid(&rng, 30, 20, 20, 5);
  cairn_search *s = new_search();
  cairn_point src[2] = {tu_random_open(&rng, g), tu_random_open(&rng, g)};
  cairn_cost *both = malloc(600 * sizeof *both);
  cairn_cost *one = malloc(600 * sizeof *one);
  cairn_cost *two = malloc(600 * sizeof *two);
  assert_int_equal(cairn_distance_map(s, g, src, 2, NULL, both, 600), CAIRN_OK);
  assert_int_equal(cairn_distance_map(s, g, src, 1, NULL, one, 600), CAIRN_OK);
  assert_int_equal(cairn_distance_map(s, g, src + 1, 1, NULL, two, 600),
                   CAIRN_OK);
  for (int i = 0; i < 600; i++) {
    assert_true(both[i] == (one[i] < two[i] ? one[i] : two[i]));
    if (cairn_grid_cost(g, i % 30, i / 30) == 0)
      assert_true(both[i] == CAIRN_COST_INF);
  }
  assert_int_equal(cairn_distance_map(s, g, src, 2, NULL, both, 599),
                   CAIRN_ERR_ARG);
  free(both);
  free(one);
  free(two);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* One context serves grids of different sizes in turn, and a grid larger
 * than anything seen so far grows it once. */
static void context_reuse(void **state) {
  (void)state;
  cairn_search *s = new_search();
  cairn_grid *small = NULL, *big = NULL;
  cairn_grid_create(5, 5, 1, NULL, &small);
  cairn_grid_create(300, 200, 1, NULL, &big);
  cairn_result r;
  for (int i = 0; i < 3; i++) {
    assert_int_equal(cairn_astar(s, small, pt(0, 0), pt(4, 4), NULL, &r),
                     CAIRN_OK);
    assert_true(r.cost == 4 * CAIRN_COST_DIAG);
    size_t before = cairn_search_memory(s);
    assert_int_equal(cairn_astar(s, big, pt(0, 0), pt(299, 0), NULL, &r),
                     CAIRN_OK);
    assert_true(r.cost == 299 * CAIRN_COST_ONE);
    if (i > 0) assert_int_equal(cairn_search_memory(s), before);
  }
  cairn_search_destroy(s);
  cairn_grid_destroy(small);
  cairn_grid_destroy(big);
}

/* A counting allocator: after reserving nodes and path, queries make no
 * allocation at all. */
static void *counting_alloc(void *user, void *ptr, size_t old_size,
                            size_t new_size) {
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  (*(int *)user)++;
  return realloc(ptr, new_size);
}

static void reserved_queries_allocate_nothing(void **state) {
  (void)state;
  uint64_t rng = 3;
  cairn_grid *g = tu_random_grid(&rng, 120, 90, 25, 3);
  int allocs = 0;
  cairn_allocator a = {counting_alloc, &allocs};
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(&a, &s), CAIRN_OK);
  assert_int_equal(cairn_search_reserve_grid(s, g), CAIRN_OK);
  assert_int_equal(cairn_search_reserve_path(s, cairn_grid_passable(g)), CAIRN_OK);
  assert_int_equal(cairn_search_reserve_grid(s, NULL), CAIRN_ERR_ARG);
  int before = allocs;
  cairn_point goals[3];
  for (int q = 0; q < 200; q++) {
    cairn_point from = tu_random_open(&rng, g), to = tu_random_open(&rng, g);
    cairn_result r;
    cairn_astar(s, g, from, to, NULL, &r);
    for (int k = 0; k < 3; k++) goals[k] = tu_random_open(&rng, g);
    cairn_dijkstra_nearest(s, g, from, goals, 3, NULL, &r);
  }
  /* the goal marks are allocated once, on the first goal-set search */
  assert_true(allocs - before <= 2);
  int after_marks = allocs;
  for (int q = 0; q < 200; q++) {
    cairn_point from = tu_random_open(&rng, g), to = tu_random_open(&rng, g);
    cairn_result r;
    cairn_astar(s, g, from, to, NULL, &r);
    cairn_dijkstra_nearest(s, g, from, goals, 3, NULL, &r);
  }
  assert_int_equal(allocs, after_marks);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

static void grid_limits(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(CAIRN_GRID_MAX_SIDE + 1, 4, 1, NULL, &g),
                   CAIRN_ERR_TOO_LARGE);
  assert_null(g);
  assert_int_equal(cairn_grid_create(4, 0, 1, NULL, &g), CAIRN_ERR_ARG);
  assert_int_equal(cairn_grid_create(4, -2, 1, NULL, &g), CAIRN_ERR_ARG);
  assert_int_equal(cairn_grid_create(3, 3, 0, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_passable(g), 0);
  assert_int_equal(cairn_grid_island_count(g), 0);
  assert_int_equal(cairn_grid_set_cost(g, 3, 0, 1), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_grid_cost(g, -1, 0), 0);
  cairn_grid_destroy(g);
  assert_string_equal(cairn_status_str(CAIRN_NO_PATH), "no path");
  assert_string_equal(cairn_status_str((cairn_status)1234), "unknown status");
  cairn_heuristic h;
  assert_int_equal(cairn_heuristic_parse("euclidean", &h), CAIRN_OK);
  assert_int_equal(h, CAIRN_H_EUCLIDEAN);
  assert_string_equal(cairn_heuristic_name(h), "euclidean");
  assert_int_equal(cairn_heuristic_parse("taxicab", &h), CAIRN_ERR_ARG);
}

/* ---- bounded searches, fills, traces --------------------------------- */

#define INF CAIRN_COST_INF

static cairn_rect rect_of(int x, int y, int w, int h) {
  cairn_rect r = {x, y, w, h};
  return r;
}

static int in_rect(cairn_rect r, cairn_point p) {
  return p.x >= r.x && p.x < r.x + r.w && p.y >= r.y && p.y < r.y + r.h;
}

/* A random rectangle of g at least 1 x 1 (w, h >= 1). */
static cairn_rect random_rect(uint64_t *rng, const cairn_grid *g) {
  int w = cairn_grid_width(g), h = cairn_grid_height(g);
  cairn_rect r;
  r.x = (int32_t)tu_below(rng, (uint32_t)w);
  r.y = (int32_t)tu_below(rng, (uint32_t)h);
  r.w = 1 + (int32_t)tu_below(rng, (uint32_t)(w - r.x));
  r.h = 1 + (int32_t)tu_below(rng, (uint32_t)(h - r.y));
  return r;
}

/* A random passable cell inside r; 0 if r has none. */
static int random_open_in(uint64_t *rng, const cairn_grid *g, cairn_rect r,
                          cairn_point *out) {
  int any = 0;
  for (int y = r.y; y < r.y + r.h && !any; y++)
    for (int x = r.x; x < r.x + r.w && !any; x++)
      any = cairn_grid_cost(g, x, y) != 0;
  if (!any) return 0;
  for (;;) {
    cairn_point p = {r.x + (int32_t)tu_below(rng, (uint32_t)r.w),
                     r.y + (int32_t)tu_below(rng, (uint32_t)r.h)};
    if (cairn_grid_cost(g, p.x, p.y)) {
      *out = p;
      return 1;
    }
  }
}

/* A separate grid holding only the cells of r, islands fresh. */
static cairn_grid *copy_rect(const cairn_grid *g, cairn_rect r) {
  cairn_grid *c = NULL;
  assert_int_equal(cairn_grid_create(r.w, r.h, 1, NULL, &c), CAIRN_OK);
  for (int y = 0; y < r.h; y++)
    for (int x = 0; x < r.w; x++)
      assert_int_equal(
          cairn_grid_set_cost(c, x, y, cairn_grid_cost(g, r.x + x, r.y + y)),
          CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(c), CAIRN_OK);
  return c;
}

/* The test's own Dijkstra, sharing nothing with the library: a plain
 * O(cells^2) scan. dist[y * width + x] is the cost from the nearest source
 * (reverse: the cost of reaching the nearest source, each step paying the
 * terrain of the cell it enters), moving only inside r (w == 0: the whole
 * grid); INF where unreached. */
static void ref_fill(const cairn_grid *g, int moves, cairn_rect r,
                     const cairn_point *src, size_t n_src, int reverse,
                     cairn_cost *dist) {
  const int w = cairn_grid_width(g), h = cairn_grid_height(g);
  if (r.w == 0 || r.h == 0) r = rect_of(0, 0, w, h);
  const size_t cells = (size_t)w * (size_t)h;
  unsigned char *done = calloc(cells, 1);
  assert_non_null(done);
  for (size_t i = 0; i < cells; i++) dist[i] = INF;
  for (size_t k = 0; k < n_src; k++)
    dist[(size_t)src[k].y * (size_t)w + (size_t)src[k].x] = 0;
  for (;;) {
    size_t best = cells;
    for (size_t i = 0; i < cells; i++)
      if (!done[i] && dist[i] != INF && (best == cells || dist[i] < dist[best]))
        best = i;
    if (best == cells) break;
    done[best] = 1;
    const int cx = (int)(best % (size_t)w), cy = (int)(best / (size_t)w);
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        if ((dx == 0 && dy == 0) || (moves == 4 && dx != 0 && dy != 0))
          continue;
        cairn_point nb = {cx + dx, cy + dy};
        if (!in_rect(r, nb) || !cairn_grid_cost(g, nb.x, nb.y)) continue;
        if (dx != 0 && dy != 0 &&
            (!cairn_grid_cost(g, cx + dx, cy) || !cairn_grid_cost(g, cx, cy + dy)))
          continue;
        cairn_cost base = dx != 0 && dy != 0 ? CAIRN_COST_DIAG : CAIRN_COST_ONE;
        cairn_cost step =
            base * (reverse ? cairn_grid_cost(g, cx, cy)
                            : cairn_grid_cost(g, nb.x, nb.y));
        size_t j = (size_t)nb.y * (size_t)w + (size_t)nb.x;
        if (dist[best] + step < dist[j]) dist[j] = dist[best] + step;
      }
  }
  free(done);
}

static int is_source(const cairn_point *src, size_t n, cairn_point p) {
  for (size_t k = 0; k < n; k++)
    if (src[k].x == p.x && src[k].y == p.y) return 1;
  return 0;
}

/* The trace behind a reached cell of the last fill on s: a walk inside r
 * between the cell and a source whose cost is the cell's g; walking from
 * the cell after a to_sources fill, towards it after a forward one. */
static void check_trace(const cairn_search *s, const cairn_grid *g, int moves,
                        cairn_rect r, const cairn_point *src, size_t n_src,
                        int reverse, cairn_point cell, cairn_cost want,
                        cairn_point *buf, size_t cap) {
  size_t n = 0;
  assert_int_equal(cairn_search_trace(s, cell, buf, cap, &n), CAIRN_OK);
  assert_true(n >= 1 && n <= cap);
  assert_int_equal(buf[0].x, cell.x);
  assert_int_equal(buf[0].y, cell.y);
  assert_true(is_source(src, n_src, buf[n - 1]));
  for (size_t i = 0; i < n; i++)
    if (r.w && r.h) assert_true(in_rect(r, buf[i]));
  if (!reverse)
    for (size_t i = 0, j = n - 1; i < j; i++, j--) {
      cairn_point t = buf[i];
      buf[i] = buf[j];
      buf[j] = t;
    }
  cairn_cost c = reverse ? tu_path_cost(g, buf, n, cell, buf[n - 1], moves)
                         : tu_path_cost(g, buf, n, buf[0], cell, moves);
  assert_true(c == want);
}

/* Every cell after a full fill on s: closed with the reference g where the
 * reference reaches it, fresh elsewhere; the expansions count the closed
 * cells. With `trace`, every reached cell's trace is checked too. */
static void check_full_fill(cairn_search *s, const cairn_grid *g, int moves,
                            cairn_rect r, const cairn_point *src, size_t n_src,
                            int reverse, const cairn_cost *ref, int trace) {
  const int w = cairn_grid_width(g), h = cairn_grid_height(g);
  size_t cap = (size_t)w * (size_t)h, closed = 0;
  cairn_point *buf = malloc(cap * sizeof *buf);
  assert_non_null(buf);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      cairn_node_info info;
      assert_int_equal(cairn_search_cell(s, pt(x, y), &info), CAIRN_OK);
      cairn_cost want = ref[(size_t)y * (size_t)w + (size_t)x];
      if (want == INF) {
        assert_int_equal(info.state, CAIRN_NODE_FRESH);
        assert_true(info.g == INF);
        size_t n = 7;
        assert_int_equal(cairn_search_trace(s, pt(x, y), buf, cap, &n),
                         CAIRN_NO_PATH);
        assert_int_equal(n, 0);
        continue;
      }
      closed++;
      assert_int_equal(info.state, CAIRN_NODE_CLOSED);
      assert_true(info.g == want);
      if (trace)
        check_trace(s, g, moves, r, src, n_src, reverse, pt(x, y), want, buf,
                    cap);
    }
  cairn_result res;
  assert_int_equal(cairn_search_result(s, &res), CAIRN_OK);
  assert_true(res.expanded == closed);
  free(buf);
}

/* Bounded A* (every heuristic, 4 and 8 moves, with and without a turn
 * penalty) answers exactly as A* on a grid cut down to the rectangle; its
 * path stays inside, it reaches no cell outside, and without a turn penalty
 * an admissible heuristic finds the bounded optimum of the reference. */
static void bounded_matches_copy(void **state) {
  (void)state;
  uint64_t rng = 0xb0d5;
  cairn_search *s = new_search(), *t = new_search();
  int compared = 0, cut_off = 0;
  for (int m = 0; m < 14; m++) {
    int w = 10 + (int)tu_below(&rng, 30), h = 10 + (int)tu_below(&rng, 30);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 35),
                                   1 + (int)tu_below(&rng, 9));
    cairn_rect r = random_rect(&rng, g);
    if (m % 3 == 0) { /* large rectangles too, where detours matter */
      r.x = (int32_t)tu_below(&rng, 3);
      r.y = (int32_t)tu_below(&rng, 3);
      r.w = w - r.x - (int32_t)tu_below(&rng, 3);
      r.h = h - r.y - (int32_t)tu_below(&rng, 3);
    }
    cairn_grid *c = copy_rect(g, r);
    cairn_cost *ref = malloc((size_t)w * (size_t)h * sizeof *ref);
    assert_non_null(ref);
    for (int moves = 4; moves <= 8; moves += 4) {
      cairn_point a;
      if (!random_open_in(&rng, g, r, &a)) continue;
      ref_fill(g, moves, r, &a, 1, 0, ref);
      for (int q = 0; q < 12; q++) {
        cairn_point b;
        random_open_in(&rng, g, r, &b);
        cairn_cost want = ref[(size_t)b.y * (size_t)w + (size_t)b.x];
        cairn_point ca = pt(a.x - r.x, a.y - r.y), cb = pt(b.x - r.x, b.y - r.y);
        for (int hk = 0; hk <= CAIRN_H_ZERO; hk++)
          for (int turn = 0; turn < 2; turn++) {
            cairn_search_opts o = opts_of((cairn_heuristic)hk, moves);
            o.turn_penalty = turn ? 1.5 : 0;
            o.bounds = r;
            cairn_result rb, rc;
            cairn_status sb = cairn_astar(s, g, a, b, &o, &rb);
            o.bounds = rect_of(0, 0, 0, 0);
            cairn_status sc = cairn_astar(t, c, ca, cb, &o, &rc);
            assert_int_equal(sb, sc);
            assert_int_equal(rb.status, sb);
            assert_true(rb.cost == rc.cost);
            compared++;
            if (!turn && (hk != CAIRN_H_MANHATTAN || moves == 4))
              assert_true(rb.cost == want);
            if (sb != CAIRN_OK) {
              assert_int_equal(sb, CAIRN_NO_PATH);
              assert_true(want == INF);
              continue;
            }
            for (size_t i = 0; i < rb.path_len; i++)
              assert_true(in_rect(r, rb.path[i]));
            cairn_cost walked =
                tu_path_cost(g, rb.path, rb.path_len, a, b, moves);
            if (turn)
              assert_true(walked <= rb.cost);
            else
              assert_true(walked == rb.cost);
            if (hk == CAIRN_H_ZERO && !turn) /* nothing outside is touched */
              for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                  if (in_rect(r, pt(x, y))) continue;
                  cairn_node_info info;
                  assert_int_equal(cairn_search_cell(s, pt(x, y), &info),
                                   CAIRN_OK);
                  assert_int_equal(info.state, CAIRN_NODE_FRESH);
                }
          }
        if (want == INF) {
          cairn_search_opts o = opts_of(CAIRN_H_OCTILE, moves);
          cairn_result whole;
          if (cairn_astar(s, g, a, b, &o, &whole) == CAIRN_OK) cut_off++;
        }
        /* sliced in single expansions: the same answer */
        cairn_search_opts o = opts_of(CAIRN_H_OCTILE, moves);
        o.bounds = r;
        cairn_result blocking, sliced;
        cairn_astar(t, g, a, b, &o, &blocking);
        assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
        cairn_status st;
        while ((st = cairn_search_step(s, 1)) == CAIRN_IN_PROGRESS) {
        }
        assert_int_equal(st, blocking.status);
        assert_int_equal(cairn_search_result(s, &sliced), blocking.status);
        assert_true(sliced.cost == blocking.cost);
        assert_true(sliced.expanded == blocking.expanded);
        assert_int_equal(sliced.path_len, blocking.path_len);
        if (st == CAIRN_OK)
          assert_memory_equal(sliced.path, blocking.path,
                              blocking.path_len * sizeof *blocking.path);
      }
      /* nearest of several goals, bounded: the reference minimum, and the
       * same answer as on the copy */
      for (int q = 0; q < 6; q++) {
        cairn_point goals[3], cgoals[3];
        cairn_cost best = INF;
        for (int k = 0; k < 3; k++) {
          random_open_in(&rng, g, r, &goals[k]);
          cgoals[k] = pt(goals[k].x - r.x, goals[k].y - r.y);
          cairn_cost d = ref[(size_t)goals[k].y * (size_t)w + (size_t)goals[k].x];
          if (d < best) best = d;
        }
        cairn_search_opts o = opts_of(CAIRN_H_ZERO, moves);
        o.bounds = r;
        cairn_result rn, rc;
        cairn_status st = cairn_dijkstra_nearest(s, g, a, goals, 3, &o, &rn);
        o.bounds = rect_of(0, 0, 0, 0);
        cairn_dijkstra_nearest(t, c, pt(a.x - r.x, a.y - r.y), cgoals, 3, &o,
                               &rc);
        assert_int_equal(st, rc.status);
        assert_true(rn.cost == best);
        assert_true(rc.cost == best);
        if (best == INF) {
          assert_int_equal(st, CAIRN_NO_PATH);
          continue;
        }
        assert_int_equal(st, CAIRN_OK);
        assert_true(rn.goal_index < 3);
        cairn_point got = goals[rn.goal_index];
        assert_true(ref[(size_t)got.y * (size_t)w + (size_t)got.x] == best);
        for (size_t i = 0; i < rn.path_len; i++)
          assert_true(in_rect(r, rn.path[i]));
        assert_true(tu_path_cost(g, rn.path, rn.path_len, a, got, moves) ==
                    best);
      }
    }
    free(ref);
    cairn_grid_destroy(c);
    cairn_grid_destroy(g);
  }
  print_message("bounded: %d compared, %d cut off by the rectangle\n",
                compared, cut_off);
  assert_true(compared > 2000);
  assert_true(cut_off > 0);
  cairn_search_destroy(s);
  cairn_search_destroy(t);
}

/* The only way round the wall runs through the bottom row: outside the
 * rectangle of the top two rows, so the bounded queries find no path (with
 * fresh islands saying start and goal are connected). */
static void bounded_route_outside(void **state) {
  (void)state;
  static const char *const rows[] = {"..#..", "..#..", "....."};
  cairn_grid *g = tu_grid(rows, 3);
  assert_int_equal(cairn_grid_island_count(g), 1);
  cairn_search *s = new_search();
  cairn_search_opts o = cairn_search_defaults();
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(4, 0), &o, &r), CAIRN_OK);
  assert_true(r.cost == 2 * CAIRN_COST_ONE + 2 * CAIRN_COST_DIAG +
                            2 * CAIRN_COST_ONE);
  o.bounds = rect_of(0, 0, 5, 2);
  for (int moves = 4; moves <= 8; moves += 4)
    for (int turn = 0; turn < 2; turn++) {
      o.moves = moves;
      o.turn_penalty = turn;
      assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(4, 0), &o, &r),
                       CAIRN_NO_PATH);
      assert_true(r.cost == INF);
      assert_null(r.path);
      assert_true(r.expanded == 4); /* the four cells left of the wall */
      cairn_point goals[2] = {{3, 1}, {4, 0}};
      assert_int_equal(
          cairn_dijkstra_nearest(s, g, pt(0, 0), goals, 2, &o, &r),
          CAIRN_NO_PATH);
      assert_true(r.expanded == 4);
    }
  /* a rectangle of the bottom two rows has the way through */
  o = cairn_search_defaults();
  o.bounds = rect_of(0, 1, 5, 2);
  assert_int_equal(cairn_astar(s, g, pt(0, 1), pt(4, 1), &o, &r), CAIRN_OK);
  assert_true(r.cost == 2 * CAIRN_COST_ONE + 2 * CAIRN_COST_DIAG);
  /* a one-cell rectangle: start == goal only */
  o.bounds = rect_of(3, 2, 1, 1);
  assert_int_equal(cairn_astar(s, g, pt(3, 2), pt(3, 2), &o, &r), CAIRN_OK);
  assert_true(r.cost == 0);
  assert_int_equal(r.path_len, 1);
  /* a fill in the top rectangle never reaches the right half */
  o.bounds = rect_of(0, 0, 5, 2);
  cairn_point src = {0, 0};
  assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, NULL, 0, 0, &o),
                   CAIRN_OK);
  cairn_node_info info;
  assert_int_equal(cairn_search_cell(s, pt(4, 0), &info), CAIRN_OK);
  assert_int_equal(info.state, CAIRN_NODE_FRESH);
  assert_int_equal(cairn_search_cell(s, pt(1, 1), &info), CAIRN_OK);
  assert_int_equal(info.state, CAIRN_NODE_CLOSED);
  assert_true(info.g == CAIRN_COST_DIAG);
  assert_int_equal(cairn_search_cell(s, pt(0, 2), &info), CAIRN_OK);
  assert_int_equal(info.state, CAIRN_NODE_FRESH);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

static void bounded_errors(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(8, 6, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = new_search();
  cairn_search_opts o = cairn_search_defaults();
  cairn_result r;
  cairn_point goals[1] = {{1, 1}};
  cairn_point src = {1, 1};
  const cairn_rect bad[] = {
      {-1, 0, 3, 3}, {0, -1, 3, 3}, {6, 0, 3, 3},  {0, 4, 3, 3},
      {0, 0, 9, 6},  {0, 0, 8, 7},  {1, 1, -1, 2}, {1, 1, 2, -1},
      {8, 0, 1, 1},  {0, 6, 1, 1},  {0, 0, INT32_MAX, 1},
      {0, 0, 1, INT32_MAX}, {INT32_MAX, 0, 1, 1}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    o.bounds = bad[k];
    assert_int_equal(cairn_astar(s, g, pt(1, 1), pt(2, 2), &o, &r),
                     CAIRN_ERR_ARG);
    assert_int_equal(r.status, CAIRN_ERR_ARG);
    assert_true(r.cost == INF);
    assert_int_equal(cairn_astar_begin(s, g, pt(1, 1), pt(2, 2), &o),
                     CAIRN_ERR_ARG);
    assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_STATE);
    assert_int_equal(
        cairn_dijkstra_nearest(s, g, pt(1, 1), goals, 1, &o, &r),
        CAIRN_ERR_ARG);
    assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, NULL, 0, 0, &o),
                     CAIRN_ERR_ARG);
    assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, NULL, 0, 1, &o),
                     CAIRN_ERR_ARG);
  }
  /* the whole grid is a valid rectangle, and so is its last cell */
  o.bounds = rect_of(0, 0, 8, 6);
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(7, 5), &o, &r), CAIRN_OK);
  assert_true(r.cost == 2 * CAIRN_COST_ONE + 5 * CAIRN_COST_DIAG);
  o.bounds = rect_of(7, 5, 1, 1);
  assert_int_equal(cairn_astar(s, g, pt(7, 5), pt(7, 5), &o, &r), CAIRN_OK);
  /* start or goal outside the rectangle (but on the grid) */
  o.bounds = rect_of(2, 1, 3, 3); /* columns 2..4, rows 1..3 */
  const cairn_point outside[] = {{1, 2}, {5, 2}, {3, 0}, {3, 4}, {0, 0}};
  for (size_t k = 0; k < sizeof outside / sizeof outside[0]; k++) {
    assert_int_equal(cairn_astar(s, g, outside[k], pt(3, 2), &o, &r),
                     CAIRN_ERR_RANGE);
    assert_int_equal(cairn_astar(s, g, pt(3, 2), outside[k], &o, &r),
                     CAIRN_ERR_RANGE);
    assert_int_equal(cairn_astar_begin(s, g, pt(3, 2), outside[k], &o),
                     CAIRN_ERR_RANGE);
    assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_STATE);
    cairn_point two[2] = {{3, 2}, outside[k]};
    assert_int_equal(cairn_dijkstra_nearest(s, g, pt(2, 1), two, 2, &o, &r),
                     CAIRN_ERR_RANGE);
    assert_int_equal(
        cairn_dijkstra_nearest(s, g, outside[k], two, 1, &o, &r),
        CAIRN_ERR_RANGE);
  }
  /* corners of the rectangle are inside */
  assert_int_equal(cairn_astar(s, g, pt(2, 1), pt(4, 3), &o, &r), CAIRN_OK);
  assert_true(r.cost == 2 * CAIRN_COST_DIAG);
  /* w == 0 or h == 0 is the whole grid, wherever x and y point */
  const cairn_rect whole[] = {{0, 0, 0, 0}, {3, 3, 0, 2}, {3, 3, 2, 0},
                              {50, -4, 0, 0}};
  for (size_t k = 0; k < sizeof whole / sizeof whole[0]; k++) {
    o.bounds = whole[k];
    assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(7, 5), &o, &r), CAIRN_OK);
    assert_true(r.cost == 2 * CAIRN_COST_ONE + 5 * CAIRN_COST_DIAG);
  }
  /* the defaults are the whole grid */
  o = cairn_search_defaults();
  assert_int_equal(o.bounds.w, 0);
  assert_int_equal(o.bounds.h, 0);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* Forward fills give every cell the cost from its nearest source, to_sources
 * fills the cost of reaching the nearest source; on terrain costs 1..9 the
 * two differ. Checked against the test's Dijkstra, against A* (bounded, when
 * the fill is), and cell by cell through the traces. */
/* Fills on random maps, forward and to the sources, bounded or not, against
 * the reference fill, A* and the distance map. With uniform terrain every
 * open cell costs the same (the two-queue path, no heap), and forward and
 * to-source fills must then agree; on terrain 1..9 they must differ
 * somewhere. */
static void check_fills(uint64_t rng, bool uniform) {
  cairn_search *s = new_search(), *t = new_search();
  int differ = 0, fills = 0;
  for (int m = 0; m < 16; m++) {
    int w = 6 + (int)tu_below(&rng, 25), h = 6 + (int)tu_below(&rng, 25);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 30),
                                   uniform ? 1 : 9);
    uint8_t unit = (uint8_t)(1 + m % 3);
    for (int y = 0; uniform && y < h; y++)
      for (int x = 0; x < w; x++)
        if (cairn_grid_cost(g, x, y)) cairn_grid_set_cost(g, x, y, unit);
    const size_t cells = (size_t)w * (size_t)h;
    cairn_cost *fwd = malloc(cells * sizeof *fwd);
    cairn_cost *rev = malloc(cells * sizeof *rev);
    cairn_cost *dm = malloc(cells * sizeof *dm);
    assert_true(fwd && rev && dm);
    int moves = m % 3 == 2 ? 4 : 8;
    cairn_rect r = m % 2 ? random_rect(&rng, g) : rect_of(0, 0, 0, 0);
    cairn_rect area = r.w ? r : rect_of(0, 0, w, h);
    cairn_point src[3];
    size_t n_src = 1 + tu_below(&rng, 3);
    int ok = 1;
    for (size_t k = 0; k < n_src && ok; k++)
      ok = random_open_in(&rng, g, area, &src[k]);
    if (!ok) {
      free(fwd);
      free(rev);
      free(dm);
      cairn_grid_destroy(g);
      continue;
    }
    cairn_search_opts o = opts_of(CAIRN_H_ZERO, moves);
    o.bounds = r;
    /* with queues reserved for the grid, uniform fills skip the room test */
    if (m % 4 == 1) assert_int_equal(cairn_search_reserve_fill(s, g), CAIRN_OK);
    ref_fill(g, moves, r, src, n_src, 0, fwd);
    ref_fill(g, moves, r, src, n_src, 1, rev);
    for (int reverse = 0; reverse < 2; reverse++) {
      assert_int_equal(
          cairn_dijkstra_fill(s, g, src, n_src, NULL, 0, reverse ? 7 : 0, &o),
          CAIRN_OK);
      fills++;
      check_full_fill(s, g, moves, r, src, n_src, reverse, reverse ? rev : fwd,
                      1);
      /* A* from each source (forward) or to each source (to_sources) */
      for (int q = 0; q < 12; q++) {
        cairn_point c;
        random_open_in(&rng, g, area, &c);
        cairn_cost best = INF;
        for (size_t k = 0; k < n_src; k++) {
          cairn_result ar;
          cairn_search_opts ao = opts_of(CAIRN_H_OCTILE, moves);
          ao.bounds = r;
          if (reverse)
            cairn_astar(t, g, c, src[k], &ao, &ar);
          else
            cairn_astar(t, g, src[k], c, &ao, &ar);
          if (ar.cost < best) best = ar.cost;
        }
        cairn_node_info info;
        assert_int_equal(cairn_search_cell(s, c, &info), CAIRN_OK);
        assert_true(info.g == best);
      }
    }
    for (size_t i = 0; i < cells; i++) differ += fwd[i] != rev[i];
    if (!r.w) { /* the distance map is the forward fill */
      assert_int_equal(
          cairn_distance_map(t, g, src, n_src, &o, dm, cells), CAIRN_OK);
      assert_memory_equal(dm, fwd, cells * sizeof *dm);
    }
    free(fwd);
    free(rev);
    free(dm);
    cairn_grid_destroy(g);
  }
  assert_true(fills >= 20);
  if (uniform)
    assert_int_equal(differ, 0);
  else
    assert_true(differ > 0);
  cairn_search_destroy(s);
  cairn_search_destroy(t);
}

static void fill_random(void **state) {
  (void)state;
  check_fills(0xf111, false);
}

/* Grids edited cell by cell and in rectangles keep what searches read of
 * them: after every batch of edits (passability flips, cost changes, a
 * rectangle copied in), fills and A* from random cells agree with the
 * reference Dijkstra, which reads only costs, and the passable count and
 * uniformity match a recount. */
static void edits_keep_grid_state(void **state) {
  (void)state;
  uint64_t rng = 0xed17;
  cairn_search *s = new_search();
  for (int m = 0; m < 12; m++) {
    int w = 5 + (int)tu_below(&rng, 20), h = 5 + (int)tu_below(&rng, 20);
    int uniform = m % 2;
    cairn_grid *g = tu_random_grid(&rng, w, h, 25, uniform ? 1 : 4);
    const size_t cells = (size_t)w * (size_t)h;
    cairn_cost *ref = malloc(cells * sizeof *ref);
    uint8_t *patch = malloc(cells);
    assert_true(ref && patch);
    for (int batch = 0; batch < 6; batch++) {
      for (int e = 0; e < 8; e++) {
        int x = (int)tu_below(&rng, (uint32_t)w), y = (int)tu_below(&rng, (uint32_t)h);
        uint8_t c = tu_below(&rng, 3) == 0 ? 0 : (uint8_t)(uniform ? 1 : 1 + tu_below(&rng, 4));
        assert_int_equal(cairn_grid_set_cost(g, x, y, c), CAIRN_OK);
      }
      cairn_rect r = random_rect(&rng, g);
      for (size_t k = 0; k < cells; k++)
        patch[k] = tu_below(&rng, 4) == 0 ? 0 : (uint8_t)(uniform ? 1 : 1 + tu_below(&rng, 4));
      assert_int_equal(cairn_grid_set_rect(g, r, patch, (size_t)w), CAIRN_OK);
      for (int y = 0; y < r.h; y++)
        for (int x = 0; x < r.w; x++)
          assert_int_equal(cairn_grid_cost(g, r.x + x, r.y + y),
                           patch[(size_t)y * (size_t)w + (size_t)x]);
      size_t passable = 0;
      int first = 0, distinct = 0;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          int c = cairn_grid_cost(g, x, y);
          passable += c != 0;
          if (c && !first) first = c, distinct = 1;
          else if (c && c != first) distinct = 2;
        }
      assert_int_equal(cairn_grid_passable(g), passable);
      assert_int_equal(cairn_grid_uniform(g), distinct <= 1);
      cairn_point src;
      if (!random_open_in(&rng, g, rect_of(0, 0, w, h), &src)) continue;
      for (int moves = 4; moves <= 8; moves += 4) {
        cairn_search_opts o = opts_of(CAIRN_H_ZERO, moves);
        ref_fill(g, moves, rect_of(0, 0, 0, 0), &src, 1, 0, ref);
        assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, NULL, 0, 0, &o), CAIRN_OK);
        check_full_fill(s, g, moves, rect_of(0, 0, 0, 0), &src, 1, 0, ref, 0);
      }
    }
    /* refusals leave the grid as it was */
    cairn_rect off = {w - 1, 0, 2, 1};
    assert_int_equal(cairn_grid_set_rect(g, off, patch, (size_t)w), CAIRN_ERR_RANGE);
    cairn_rect neg = {0, 0, -1, 1}, empty = {0, 0, 0, 3}, one = {0, 0, 2, 1};
    assert_int_equal(cairn_grid_set_rect(g, neg, patch, (size_t)w), CAIRN_ERR_ARG);
    assert_int_equal(cairn_grid_set_rect(g, empty, NULL, 0), CAIRN_OK);
    assert_int_equal(cairn_grid_set_rect(g, one, patch, 1), CAIRN_ERR_ARG);
    assert_int_equal(cairn_grid_set_rect(g, one, NULL, 2), CAIRN_ERR_ARG);
    assert_int_equal(cairn_grid_set_rect(NULL, one, patch, 2), CAIRN_ERR_ARG);
    free(ref);
    free(patch);
    cairn_grid_destroy(g);
  }
  assert_int_equal(cairn_grid_uniform(NULL), 0);
  assert_int_equal(cairn_search_reserve_fill(NULL, NULL), CAIRN_ERR_ARG);
  cairn_search_destroy(s);
}

/* Fills on uniform terrain take the two-queue path (no heap). */
static void fill_uniform(void **state) {
  (void)state;
  check_fills(0xf1f0, true);
}

/* A bounded fill equals the fill of the grid cut down to the rectangle,
 * both directions; nothing outside the rectangle is reached. */
static void fill_bounded_matches_copy(void **state) {
  (void)state;
  uint64_t rng = 0xc0b1;
  cairn_search *s = new_search(), *t = new_search();
  int compared = 0;
  for (int m = 0; m < 30; m++) {
    int w = 5 + (int)tu_below(&rng, 40), h = 5 + (int)tu_below(&rng, 40);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 35), 9);
    cairn_rect r = random_rect(&rng, g);
    cairn_point src[2];
    if (!random_open_in(&rng, g, r, &src[0])) {
      cairn_grid_destroy(g);
      continue;
    }
    random_open_in(&rng, g, r, &src[1]);
    size_t n_src = 1 + (size_t)(m & 1);
    cairn_point csrc[2] = {pt(src[0].x - r.x, src[0].y - r.y),
                           pt(src[1].x - r.x, src[1].y - r.y)};
    cairn_grid *c = copy_rect(g, r);
    for (int moves = 4; moves <= 8; moves += 4)
      for (int reverse = 0; reverse < 2; reverse++) {
        cairn_search_opts o = opts_of(CAIRN_H_ZERO, moves);
        o.bounds = r;
        assert_int_equal(
            cairn_dijkstra_fill(s, g, src, n_src, NULL, 0, reverse, &o),
            CAIRN_OK);
        o.bounds = rect_of(0, 0, 0, 0);
        assert_int_equal(
            cairn_dijkstra_fill(t, c, csrc, n_src, NULL, 0, reverse, &o),
            CAIRN_OK);
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++) {
            cairn_node_info a, b;
            assert_int_equal(cairn_search_cell(s, pt(x, y), &a), CAIRN_OK);
            if (!in_rect(r, pt(x, y))) {
              assert_int_equal(a.state, CAIRN_NODE_FRESH);
              continue;
            }
            assert_int_equal(
                cairn_search_cell(t, pt(x - r.x, y - r.y), &b), CAIRN_OK);
            assert_int_equal(a.state, b.state);
            assert_true(a.g == b.g);
            compared++;
          }
        cairn_result ra, rb;
        cairn_search_result(s, &ra);
        cairn_search_result(t, &rb);
        assert_true(ra.expanded == rb.expanded);
      }
    cairn_grid_destroy(c);
    cairn_grid_destroy(g);
  }
  assert_true(compared > 5000);
  cairn_search_destroy(s);
  cairn_search_destroy(t);
}

/* With targets the fill stops once every target is settled: fewer
 * expansions when some reachable cell lies beyond them, every target closed
 * with its final g, and every closed cell final. Targets it can never settle
 * make it run to the end. */
static void fill_targets(void **state) {
  (void)state;
  uint64_t rng = 0x7a6e;
  cairn_search *s = new_search();
  int early = 0;
  for (int m = 0; m < 24; m++) {
    int w = 8 + (int)tu_below(&rng, 25), h = 8 + (int)tu_below(&rng, 25);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 30), 9);
    const size_t cells = (size_t)w * (size_t)h;
    cairn_cost *ref = malloc(cells * sizeof *ref);
    assert_non_null(ref);
    int moves = m % 4 == 3 ? 4 : 8, reverse = m & 1;
    cairn_rect r = m % 3 == 0 ? random_rect(&rng, g) : rect_of(0, 0, 0, 0);
    cairn_rect area = r.w ? r : rect_of(0, 0, w, h);
    cairn_point src[2];
    if (!random_open_in(&rng, g, area, &src[0])) {
      free(ref);
      cairn_grid_destroy(g);
      continue;
    }
    random_open_in(&rng, g, area, &src[1]);
    size_t n_src = 1 + (size_t)(m % 5 == 0);
    ref_fill(g, moves, r, src, n_src, reverse, ref);
    cairn_search_opts o = opts_of(CAIRN_H_ZERO, moves);
    o.bounds = r;
    assert_int_equal(
        cairn_dijkstra_fill(s, g, src, n_src, NULL, 0, reverse, &o), CAIRN_OK);
    cairn_result full;
    cairn_search_result(s, &full);
    cairn_cost far = 0; /* the dearest reachable cell */
    for (size_t i = 0; i < cells; i++)
      if (ref[i] != INF && ref[i] > far) far = ref[i];
    cairn_point *buf = malloc(cells * sizeof *buf);
    assert_non_null(buf);
    for (int q = 0; q < 10; q++) {
      /* 1..4 reachable targets, now and then a repeat or a source */
      cairn_point tg[4];
      size_t n_t = 1 + tu_below(&rng, 4);
      cairn_cost most = 0;
      for (size_t k = 0; k < n_t; k++) {
        cairn_point p;
        do random_open_in(&rng, g, area, &p);
        while (ref[(size_t)p.y * (size_t)w + (size_t)p.x] == INF);
        if (k > 0 && tu_below(&rng, 6) == 0) p = tg[k - 1];
        if (tu_below(&rng, 10) == 0) p = src[0];
        tg[k] = p;
        cairn_cost d = ref[(size_t)p.y * (size_t)w + (size_t)p.x];
        if (d > most) most = d;
      }
      assert_int_equal(
          cairn_dijkstra_fill(s, g, src, n_src, tg, n_t, reverse, &o),
          CAIRN_OK);
      cairn_result res;
      assert_int_equal(cairn_search_result(s, &res), CAIRN_OK);
      assert_true(res.expanded <= full.expanded);
      if (most < far) {
        assert_true(res.expanded < full.expanded);
        early++;
      }
      for (size_t k = 0; k < n_t; k++) {
        cairn_node_info info;
        assert_int_equal(cairn_search_cell(s, tg[k], &info), CAIRN_OK);
        assert_int_equal(info.state, CAIRN_NODE_CLOSED);
        cairn_cost want = ref[(size_t)tg[k].y * (size_t)w + (size_t)tg[k].x];
        assert_true(info.g == want);
        check_trace(s, g, moves, r, src, n_src, reverse, tg[k], want, buf,
                    cells);
      }
      size_t closed = 0;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          cairn_node_info info;
          cairn_search_cell(s, pt(x, y), &info);
          cairn_cost want = ref[(size_t)y * (size_t)w + (size_t)x];
          if (info.state == CAIRN_NODE_CLOSED) {
            closed++;
            assert_true(info.g == want);
            assert_true(want <= most);
          } else if (info.state == CAIRN_NODE_OPEN) {
            assert_true(info.g >= want && want != INF);
          } else {
            assert_true(want == INF || want >= most);
          }
        }
      assert_true(res.expanded == closed);
    }
    /* targets it cannot settle: the fill runs to the end, without error */
    cairn_point never[5];
    size_t n_never = 0;
    never[n_never++] = pt(-1, 0);
    never[n_never++] = pt(w, h - 1);
    for (int y = 0; y < h && n_never < 5; y++)
      for (int x = 0; x < w && n_never < 5; x++) {
        size_t i = (size_t)y * (size_t)w + (size_t)x;
        int blocked = cairn_grid_cost(g, x, y) == 0;
        if (ref[i] == INF && (n_never == 2 ? blocked : !blocked))
          never[n_never++] = pt(x, y); /* a wall, then an unreached cell */
      }
    for (size_t k = 0; k < n_never; k++) {
      cairn_point two[2] = {src[0], never[k]};
      /* off the grid: alone only (see fill_target_off_grid) */
      for (size_t n_t = 1; n_t <= (k < 2 ? 1u : 2u); n_t++) {
        assert_int_equal(cairn_dijkstra_fill(s, g, src, n_src, two + 2 - n_t,
                                             n_t, reverse, &o),
                         CAIRN_OK);
        cairn_result res;
        assert_int_equal(cairn_search_result(s, &res), CAIRN_OK);
        assert_true(res.expanded == full.expanded);
      }
    }
    check_full_fill(s, g, moves, r, src, n_src, reverse, ref, 0);
    free(buf);
    free(ref);
    cairn_grid_destroy(g);
  }
  assert_true(early > 50);
  cairn_search_destroy(s);
}

/* Targets that can never be settled make a fill run to the end, whatever
 * other targets it has: one outside the bounds does, and so must one off the
 * grid. */
static void fill_target_off_grid(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(5, 1, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = new_search();
  cairn_point src = {0, 0};
  cairn_result r;
  cairn_search_opts o = cairn_search_defaults();
  o.bounds = rect_of(0, 0, 3, 1);
  cairn_point out_of_bounds[2] = {{1, 0}, {4, 0}};
  assert_int_equal(
      cairn_dijkstra_fill(s, g, &src, 1, out_of_bounds, 2, 0, &o), CAIRN_OK);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
  assert_true(r.expanded == 3);
  /* one target alone, reachable: the fill stops there */
  assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, out_of_bounds, 1, 0, NULL),
                   CAIRN_OK);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
  assert_true(r.expanded == 2);
  const cairn_point off[] = {{-1, 0}, {5, 0}, {0, 1}, {0, -1}};
  int stops_early = 0;
  for (size_t k = 0; k < sizeof off / sizeof off[0]; k++) {
    cairn_point two[2] = {{1, 0}, off[k]};
    for (int reverse = 0; reverse < 2; reverse++) {
      assert_int_equal(
          cairn_dijkstra_fill(s, g, &src, 1, two + 1, 1, reverse, NULL),
          CAIRN_OK);
      assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
      assert_true(r.expanded == 5);
      assert_int_equal(
          cairn_dijkstra_fill(s, g, &src, 1, two, 2, reverse, NULL), CAIRN_OK);
      assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
      if (r.expanded != 5) stops_early = 1; /* the bug: it stops at 2 */
    }
  }
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
  assert_false(stops_early);
}

static void fill_errors(void **state) {
  (void)state;
  static const char *const rows[] = {"....#", ".....", "....."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *s = new_search();
  cairn_point ok[2] = {{0, 0}, {3, 2}};
  cairn_node_info info;
  assert_int_equal(cairn_dijkstra_fill(s, g, ok, 0, NULL, 0, 0, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_search_cell(s, pt(0, 0), &info), CAIRN_ERR_STATE);
  assert_int_equal(cairn_dijkstra_fill(s, g, NULL, 1, NULL, 0, 0, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_dijkstra_fill(s, NULL, ok, 1, NULL, 0, 0, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_dijkstra_fill(NULL, g, ok, 1, NULL, 0, 0, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_dijkstra_fill(s, g, ok, 1, NULL, 2, 1, NULL),
                   CAIRN_ERR_ARG);
  const cairn_point off[] = {{-1, 0}, {5, 0}, {0, 3}, {0, -1}};
  for (size_t k = 0; k < sizeof off / sizeof off[0]; k++) {
    cairn_point two[2] = {ok[0], off[k]};
    assert_int_equal(cairn_dijkstra_fill(s, g, two, 2, NULL, 0, 0, NULL),
                     CAIRN_ERR_RANGE);
    assert_int_equal(cairn_dijkstra_fill(s, g, two + 1, 1, NULL, 0, 1, NULL),
                     CAIRN_ERR_RANGE);
    assert_int_equal(cairn_search_cell(s, pt(0, 0), &info), CAIRN_ERR_STATE);
  }
  cairn_point wall[2] = {{1, 1}, {4, 0}};
  assert_int_equal(cairn_dijkstra_fill(s, g, wall, 2, NULL, 0, 0, NULL),
                   CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_dijkstra_fill(s, g, wall + 1, 1, NULL, 0, 1, NULL),
                   CAIRN_ERR_BLOCKED);
  size_t n = 9;
  cairn_point buf[4];
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 4, &n),
                   CAIRN_ERR_STATE);
  cairn_search_opts o = cairn_search_defaults();
  o.bounds = rect_of(0, 0, 2, 2);
  assert_int_equal(cairn_dijkstra_fill(s, g, ok, 2, NULL, 0, 0, &o),
                   CAIRN_ERR_RANGE);
  assert_int_equal(cairn_dijkstra_fill(s, g, ok + 1, 1, NULL, 0, 1, &o),
                   CAIRN_ERR_RANGE);
  o.moves = 6;
  assert_int_equal(cairn_dijkstra_fill(s, g, ok, 1, NULL, 0, 0, &o),
                   CAIRN_ERR_ARG);
  /* the heuristic, weight, turn penalty and node limit are ignored */
  cairn_search_opts plain = opts_of(CAIRN_H_ZERO, 8);
  cairn_search_opts odd = plain;
  odd.heuristic = CAIRN_H_MANHATTAN;
  odd.weight = 7;
  odd.turn_penalty = 5;
  odd.max_expanded = 2;
  for (int reverse = 0; reverse < 2; reverse++) {
    cairn_cost want[15];
    assert_int_equal(cairn_dijkstra_fill(s, g, ok, 2, NULL, 0, reverse, &plain),
                     CAIRN_OK);
    for (int i = 0; i < 15; i++) {
      cairn_search_cell(s, pt(i % 5, i / 5), &info);
      want[i] = info.g;
    }
    assert_int_equal(cairn_dijkstra_fill(s, g, ok, 2, NULL, 0, reverse, &odd),
                     CAIRN_OK);
    for (int i = 0; i < 15; i++) {
      cairn_search_cell(s, pt(i % 5, i / 5), &info);
      assert_true(info.g == want[i]);
    }
    assert_true(want[4] == INF); /* the wall */
    assert_true(want[0] == 0 && want[13] == 0);
  }
  /* a source listed twice, and the context works on after refusals */
  cairn_point twice[2] = {{2, 1}, {2, 1}};
  assert_int_equal(cairn_dijkstra_fill(s, g, twice, 2, NULL, 0, 0, NULL),
                   CAIRN_OK);
  assert_int_equal(cairn_search_cell(s, pt(2, 1), &info), CAIRN_OK);
  assert_true(info.g == 0);
  assert_int_equal(cairn_search_cell(s, pt(0, 1), &info), CAIRN_OK);
  assert_true(info.g == 2 * CAIRN_COST_ONE);
  cairn_result r;
  assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
  assert_true(r.expanded == 14);
  assert_null(r.path);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_OK);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* Traces after A*: reversed, the trace of every reached cell is a path from
 * the start costing that cell's g (open cells of a search in progress
 * included), and the goal's is the result path. Then the errors. */
static void trace_paths_and_errors(void **state) {
  (void)state;
  uint64_t rng = 0x77ace;
  cairn_search *s = new_search();
  cairn_point buf[64 * 48];
  for (int m = 0; m < 6; m++) {
    cairn_grid *g = tu_random_grid(&rng, 64, 48, 25, 1 + 2 * m);
    for (int q = 0; q < 6; q++) {
      cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
      cairn_search_opts o = opts_of(CAIRN_H_OCTILE, q % 3 == 2 ? 4 : 8);
      if (o.moves == 4) o.heuristic = CAIRN_H_MANHATTAN;
      int sliced = q % 2;
      cairn_result r;
      if (sliced) {
        assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
        cairn_search_step(s, 40);
      } else {
        cairn_astar(s, g, a, b, &o, &r);
      }
      int reached = 0;
      for (int y = 0; y < 48; y++)
        for (int x = 0; x < 64; x++) {
          cairn_node_info info;
          assert_int_equal(cairn_search_cell(s, pt(x, y), &info), CAIRN_OK);
          size_t n = 99;
          cairn_status st = cairn_search_trace(s, pt(x, y), buf, 64 * 48, &n);
          if (info.state == CAIRN_NODE_FRESH) {
            assert_int_equal(st, CAIRN_NO_PATH);
            assert_int_equal(n, 0);
            continue;
          }
          reached++;
          assert_int_equal(st, CAIRN_OK);
          for (size_t i = 0, j = n - 1; i < j; i++, j--) {
            cairn_point t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
          }
          assert_true(tu_path_cost(g, buf, n, a, pt(x, y), o.moves) == info.g);
        }
      if (!sliced && r.status == CAIRN_OK) {
        size_t n = 0;
        assert_int_equal(cairn_search_trace(s, b, buf, 64 * 48, &n), CAIRN_OK);
        assert_int_equal(n, r.path_len);
        for (size_t i = 0; i < n; i++) {
          assert_int_equal(buf[i].x, r.path[n - 1 - i].x);
          assert_int_equal(buf[i].y, r.path[n - 1 - i].y);
        }
      }
      if (sliced || r.status != CAIRN_NO_PATH) assert_true(reached > 0);
    }
    cairn_grid_destroy(g);
  }

  /* errors, on a corridor */
  static const char *const rows[] = {"......", "#####.", "......"};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *fresh = new_search();
  size_t n = 5;
  assert_int_equal(cairn_search_trace(fresh, pt(0, 0), buf, 8, &n),
                   CAIRN_ERR_STATE);
  assert_int_equal(n, 0);
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(0, 2), NULL, &r), CAIRN_OK);
  assert_int_equal(r.path_len, 13); /* 5 right, 2 down, 5 left */
  /* too small: nothing written, n tells the size needed */
  for (size_t i = 0; i < 13; i++) buf[i] = pt(-7, -7);
  assert_int_equal(cairn_search_trace(s, pt(0, 2), buf, 12, &n),
                   CAIRN_ERR_BUFFER);
  assert_int_equal(n, 13);
  for (size_t i = 0; i < 13; i++) assert_int_equal(buf[i].x, -7);
  assert_int_equal(cairn_search_trace(s, pt(0, 2), NULL, 0, &n),
                   CAIRN_ERR_BUFFER);
  assert_int_equal(n, 13);
  assert_int_equal(cairn_search_trace(s, pt(0, 2), buf, 13, &n), CAIRN_OK);
  assert_int_equal(n, 13);
  assert_int_equal(buf[0].x, 0);
  assert_int_equal(buf[0].y, 2);
  assert_int_equal(buf[6].x, 5);
  assert_int_equal(buf[6].y, 1);
  assert_int_equal(buf[12].x, 0);
  assert_int_equal(buf[12].y, 0);
  /* the start alone: one point */
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 1, &n), CAIRN_OK);
  assert_int_equal(n, 1);
  assert_int_equal(cairn_search_trace(s, pt(0, 0), NULL, 0, &n),
                   CAIRN_ERR_BUFFER);
  assert_int_equal(n, 1);
  /* blocked and off the grid */
  assert_int_equal(cairn_search_trace(s, pt(0, 1), buf, 12, &n), CAIRN_NO_PATH);
  assert_int_equal(n, 0);
  const cairn_point off[] = {{-1, 0}, {6, 0}, {0, 3}, {0, -1}};
  for (size_t k = 0; k < sizeof off / sizeof off[0]; k++) {
    n = 3;
    assert_int_equal(cairn_search_trace(s, off[k], buf, 12, &n),
                     CAIRN_ERR_RANGE);
    assert_int_equal(n, 0);
  }
  assert_int_equal(cairn_search_trace(s, pt(0, 2), buf, 12, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_search_trace(NULL, pt(0, 2), buf, 12, &n),
                   CAIRN_ERR_ARG);
  /* a goal answered by the islands: nothing reached, not even the start */
  assert_int_equal(cairn_grid_set_cost(g, 5, 1, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(0, 2), NULL, &r),
                   CAIRN_NO_PATH);
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 12, &n),
                   CAIRN_NO_PATH);
  /* a refused query leaves nothing to trace */
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(0, 1), NULL, &r),
                   CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 12, &n),
                   CAIRN_ERR_STATE);
  /* nor does a graph search */
  cairn_graph_edge e = {0, 1, 1.0};
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = 2;
  d.n_edges = 1;
  d.edges = &e;
  cairn_graph *graph = NULL;
  assert_int_equal(cairn_graph_create(&d, NULL, &graph), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(5, 0), NULL, &r), CAIRN_OK);
  assert_int_equal(cairn_search_trace(s, pt(5, 0), buf, 12, &n), CAIRN_OK);
  assert_int_equal(cairn_graph_astar(s, graph, 0, 1, NULL, &r), CAIRN_OK);
  n = 4;
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 12, &n),
                   CAIRN_ERR_STATE);
  assert_int_equal(n, 0);
  cairn_node_info info;
  assert_int_equal(cairn_search_cell(s, pt(0, 0), &info), CAIRN_ERR_STATE);
  cairn_graph_destroy(graph);
  assert_string_equal(cairn_status_str(CAIRN_ERR_BUFFER), "buffer too small");
  assert_int_equal(CAIRN_ERR_BUFFER, -10);
  cairn_search_destroy(fresh);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* A to_sources fill is the integration field of a flow field: from any
 * cell, following the trace walks to a source and pays exactly g, and going
 * down the field (each step to the traced neighbour) g falls by each step's
 * cost. On a swamp, the two directions differ. */
static void trace_to_sources(void **state) {
  (void)state;
  static const char *const rows[] = {
      "1111111",
      "1999991",
      "1915191",
      "1999991",
      "1111111",
  };
  cairn_grid *g = tu_grid(rows, 5);
  cairn_search *s = new_search();
  cairn_point src = {3, 2}; /* a cost-5 cell in a pocket of the swamp */
  cairn_point buf[40];
  size_t n = 0;
  assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, NULL, 0, 0, NULL),
                   CAIRN_OK);
  cairn_node_info out, in;
  assert_int_equal(cairn_search_cell(s, pt(0, 0), &out), CAIRN_OK);
  assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, NULL, 0, 1, NULL),
                   CAIRN_OK);
  assert_int_equal(cairn_search_cell(s, pt(0, 0), &in), CAIRN_OK);
  /* out of the pocket: into (2, 2), a 9 and the ring; into it: a 9, (2, 2)
   * and the source's 5 */
  cairn_search *t = new_search();
  cairn_result ra, rb;
  assert_int_equal(cairn_astar(t, g, src, pt(0, 0), NULL, &ra), CAIRN_OK);
  assert_int_equal(cairn_astar(t, g, pt(0, 0), src, NULL, &rb), CAIRN_OK);
  assert_true(out.g == ra.cost);
  assert_true(in.g == rb.cost);
  assert_true(in.g != out.g);
  for (int y = 0; y < 5; y++)
    for (int x = 0; x < 7; x++) {
      assert_int_equal(cairn_search_trace(s, pt(x, y), buf, 40, &n), CAIRN_OK);
      cairn_node_info info;
      cairn_search_cell(s, pt(x, y), &info);
      assert_int_equal(buf[n - 1].x, src.x);
      assert_int_equal(buf[n - 1].y, src.y);
      assert_true(tu_path_cost(g, buf, n, pt(x, y), src, 8) == info.g);
      if (n > 1) { /* the field falls along the trace */
        cairn_node_info next;
        cairn_search_cell(s, buf[1], &next);
        assert_true(next.g < info.g);
      }
    }
  cairn_search_destroy(t);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* Avoided cells (opts.avoid) are never entered by that search: 4-way A*
 * with them equals A* on a copy of the grid with them walled, on random
 * maps, whatever the heuristic; 8-way it is at most that (a diagonal may
 * pass an avoided cell's corner, not a wall's). The start and goal are
 * never avoided; the other grid searches refuse a list. */
static void avoid_matches_walled_copy(void **state) {
  (void)state;
  uint64_t rng = 0xa701d;
  cairn_search *s = new_search(), *t = new_search();
  int compared = 0, detoured = 0;
  for (int m = 0; m < 12; m++) {
    int w = 12 + (int)tu_below(&rng, 30), h = 12 + (int)tu_below(&rng, 30);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 25),
                                   1 + (int)tu_below(&rng, 5));
    for (int q = 0; q < 10; q++) {
      cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
      cairn_point avoid[40];
      size_t n = 0;
      for (; n < 38; n++) avoid[n] = tu_random_open(&rng, g);
      avoid[n++] = a; /* never avoided */
      avoid[n++] = pt(-3, w + 5); /* off the grid: skipped */
      cairn_grid *c = NULL;
      assert_int_equal(cairn_grid_create(w, h, 1, NULL, &c), CAIRN_OK);
      for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
          assert_int_equal(cairn_grid_set_cost(c, x, y, cairn_grid_cost(g, x, y)), CAIRN_OK);
      for (size_t k = 0; k + 2 < n; k++)
        if (!(avoid[k].x == a.x && avoid[k].y == a.y) && !(avoid[k].x == b.x && avoid[k].y == b.y))
          assert_int_equal(cairn_grid_set_cost(c, avoid[k].x, avoid[k].y, 0), CAIRN_OK);
      assert_int_equal(cairn_grid_update_islands(c), CAIRN_OK);
      for (int hk = 0; hk <= CAIRN_H_ZERO * 2 + 1; hk++) {
        int moves = hk % 2 ? 8 : 4;
        if (moves == 8 && hk / 2 == CAIRN_H_MANHATTAN) continue; /* inadmissible */
        cairn_search_opts o = opts_of((cairn_heuristic)(hk / 2), moves);
        cairn_result plain, ra, rc;
        cairn_status sp = cairn_astar(t, g, a, b, &o, &plain);
        assert_int_equal(sp, plain.status);
        cairn_status sc = cairn_astar(t, c, a, b, &o, &rc);
        o.avoid = avoid;
        o.n_avoid = n;
        cairn_status sa = cairn_astar(s, g, a, b, &o, &ra);
        if (moves == 4) { /* no corners to cut: exactly the walled copy */
          assert_int_equal(sa, sc);
          assert_true(ra.cost == rc.cost);
        } else { /* a diagonal may pass an avoided cell's corner, not a wall's */
          assert_true(sc != CAIRN_OK || (sa == CAIRN_OK && ra.cost <= rc.cost));
        }
        if (sa == CAIRN_OK) {
          for (size_t i = 1; i + 1 < ra.path_len; i++)
            assert_int_not_equal(cairn_grid_cost(c, ra.path[i].x, ra.path[i].y), 0);
          assert_true(tu_path_cost(g, ra.path, ra.path_len, a, b, moves) == ra.cost);
          assert_true(ra.cost >= plain.cost);
        }
        detoured += plain.status == CAIRN_OK && ra.cost != plain.cost;
        compared++;
      }
      cairn_grid_destroy(c);
    }
    cairn_grid_destroy(g);
  }
  assert_true(compared >= 400);
  assert_true(detoured > 20); /* the avoided cells mattered */
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(8, 8, 1, NULL, &g), CAIRN_OK);
  cairn_point one = pt(3, 3), goals[1] = {pt(7, 7)};
  cairn_search_opts o = cairn_search_defaults();
  o.avoid = &one;
  o.n_avoid = 1;
  cairn_result r;
  assert_int_equal(cairn_dijkstra_nearest(s, g, pt(0, 0), goals, 1, &o, &r), CAIRN_ERR_ARG);
  assert_int_equal(cairn_dijkstra_fill(s, g, goals, 1, NULL, 0, 1, &o), CAIRN_ERR_ARG);
  o.avoid = NULL;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(7, 7), &o, &r), CAIRN_ERR_ARG);
  /* and the context still works */
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(7, 7), NULL, &r), CAIRN_OK);
  cairn_grid_destroy(g);
  cairn_search_destroy(s);
  cairn_search_destroy(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(worked_example),
      cmocka_unit_test(start_is_goal),
      cmocka_unit_test(refusals),
      cmocka_unit_test(islands_short_circuit),
      cmocka_unit_test(no_corner_cutting),
      cmocka_unit_test(road_around_swamp),
      cmocka_unit_test(ties_toward_lower_h),
      cmocka_unit_test(turn_penalty_straightens),
      cmocka_unit_test(sliced_equals_blocking),
      cmocka_unit_test(node_limit_partial),
      cmocka_unit_test(weighted_within_bound),
      cmocka_unit_test(nearest_goal),
      cmocka_unit_test(differential_random),
      cmocka_unit_test(distance_map_multi_source),
      cmocka_unit_test(context_reuse),
      cmocka_unit_test(reserved_queries_allocate_nothing),
      cmocka_unit_test(grid_limits),
      cmocka_unit_test(edits_keep_grid_state),
      cmocka_unit_test(bounded_matches_copy),
      cmocka_unit_test(avoid_matches_walled_copy),
      cmocka_unit_test(bounded_route_outside),
      cmocka_unit_test(bounded_errors),
      cmocka_unit_test(fill_random),
      cmocka_unit_test(fill_uniform),
      cmocka_unit_test(fill_bounded_matches_copy),
      cmocka_unit_test(fill_targets),
      cmocka_unit_test(fill_target_off_grid),
      cmocka_unit_test(fill_errors),
      cmocka_unit_test(trace_paths_and_errors),
      cmocka_unit_test(trace_to_sources),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
