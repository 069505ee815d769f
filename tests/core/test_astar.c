/* Grid A* and Dijkstra: the worked example, refusals, islands, corner
 * cutting, terrain, ties, turn penalties, sliced search against blocking,
 * node limits, weighted search within its bound, nearest goal, random maps
 * against Dijkstra, distance maps, context reuse, reserved queries that
 * allocate nothing, grid limits. */
#include "test_util.h"
#include "test_search_util.h"

#include <math.h>
#include <stdlib.h>

/* The worked example: 5 x 3, 4-way, Manhattan, wall on the top and middle
 * cells of the centre column. */
static void worked_example(void **state) {
  static const char *const rows[] = {"..#..", "..#..", "....."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

static void start_is_goal(void **state) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(4, 4, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = *state;
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(2, 2), pt(2, 2), NULL, &r), CAIRN_OK);
  assert_true(r.cost == 0);
  assert_int_equal(r.steps, 0);
  assert_int_equal(r.path_len, 1);
  assert_int_equal(r.path[0].x, 2);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  static const char *const rows[] = {"..#", "...", "..."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

/* Two islands: answered without expanding; with stale islands the search
 * still ends in "no path", after exhausting the start's island. */
static void islands_short_circuit(void **state) {
  static const char *const rows[] = {"...#...", "...#...", "...#..."};
  cairn_grid *g = tu_grid(rows, 3);
  assert_int_equal(cairn_grid_island_count(g), 2);
  assert_int_not_equal(cairn_grid_island(g, 0, 0), cairn_grid_island(g, 6, 0));
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

/* A diagonal past a wall's corner is refused: the path goes around. */
static void no_corner_cutting(void **state) {
  static const char *const rows[] = {"...", ".#.", "..."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

/* The road around the swamp: the straight line costs 5 per cell, the detour
 * on cost-1 road is longer in steps and cheaper. */
static void road_around_swamp(void **state) {
  static const char *const rows[] = {
      "...........",
      ".555555555.",
      ".555555555.",
      ".555555555.",
      "...........",
  };
  cairn_grid *g = tu_grid(rows, 5);
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

/* Ties go to the lower h: on an open map with many equal-cost paths, A*
 * expands little more than the path itself. */
static void ties_toward_lower_h(void **state) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(64, 64, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = *state;
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(3, 5), pt(60, 40), NULL, &r), CAIRN_OK);
  assert_true(r.cost == 22 * CAIRN_COST_ONE + 35 * CAIRN_COST_DIAG);
  assert_int_equal(r.expanded, r.steps + 1);
  cairn_search_opts o = opts_of(CAIRN_H_MANHATTAN, 4);
  assert_int_equal(cairn_astar(s, g, pt(3, 5), pt(60, 40), &o, &r), CAIRN_OK);
  assert_true(r.cost == 92 * CAIRN_COST_ONE);
  assert_int_equal(r.expanded, r.steps + 1);
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
  uint64_t rng = 7;
  cairn_grid *g = tu_random_grid(&rng, 60, 60, 10, 1);
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

/* Sliced into budgets of 1, 7 and 1000 expansions, the search ends with
 * the same path, cost and counts as the blocking call. */
static void sliced_equals_blocking(void **state) {
  uint64_t rng = 42;
  cairn_grid *g = tu_random_grid(&rng, 80, 60, 30, 4);
  cairn_search *s = *state, *t = new_search();
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
  cairn_search_destroy(t);
  cairn_grid_destroy(g);
}

static void node_limit_partial(void **state) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(100, 100, 1, NULL, &g), CAIRN_OK);
  for (int y = 0; y < 99; y++) cairn_grid_set_cost(g, 50, y, 0);
  cairn_grid_update_islands(g);
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

/* Weighted A*: never worse than weight x optimal, and it expands less. */
static void weighted_within_bound(void **state) {
  uint64_t rng = 99;
  cairn_search *s = *state;
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
}

/* Nearest of several goals: the cost is the minimum of the single-goal
 * costs and the goal index names a goal at that cost. */
static void nearest_goal(void **state) {
  uint64_t rng = 5;
  cairn_search *s = *state;
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
}

/* The differential test: on random grids and costs, A* with each admissible
 * heuristic finds the Dijkstra cost, and both equal the distance map. */
static void differential_random(void **state) {
  uint64_t rng = 2024;
  cairn_search *s = *state;
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
}

/* Distance map from two sources: each cell gets the nearer one's cost. */
static void distance_map_multi_source(void **state) {
  uint64_t rng = 11;
  cairn_grid *g = tu_random_grid(&rng, 30, 20, 20, 5);
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

/* One context serves grids of different sizes in turn, and a grid larger
 * than anything seen so far grows it once. */
static void context_reuse(void **state) {
  cairn_search *s = *state;
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

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(worked_example),
      tu_with_search(start_is_goal),
      tu_with_search(refusals),
      tu_with_search(islands_short_circuit),
      tu_with_search(no_corner_cutting),
      tu_with_search(road_around_swamp),
      tu_with_search(ties_toward_lower_h),
      tu_with_search(turn_penalty_straightens),
      tu_with_search(sliced_equals_blocking),
      tu_with_search(node_limit_partial),
      tu_with_search(weighted_within_bound),
      tu_with_search(nearest_goal),
      tu_with_search(differential_random),
      tu_with_search(distance_map_multi_source),
      tu_with_search(context_reuse),
      cmocka_unit_test(reserved_queries_allocate_nothing),
      cmocka_unit_test(grid_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
