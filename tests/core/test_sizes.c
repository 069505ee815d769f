/* Searches for units of several cells (cairn_search_opts.size): on random maps
 * with terrain, sizes 1 to 4, 8 and 4 moves, every answer equals the
 * reference, a size-1 search (A* with the zero heuristic: Dijkstra) on the
 * grid eroded for that size, written out as its own grid (a cell keeps
 * the dearest terrain of the k x k block at it where that block is open,
 * else it is blocked), and the path is valid there (cairn_grid_check_path)
 * at the reported cost; a one-cell gate passes size 1 and sends size 2
 * round; fills, distance maps and the nearest goal agree with the eroded
 * grid's too; layers count over the footprint; bounds hold the whole
 * footprint; bad sizes are refused; sized line of sight and smoothing
 * are the size-1 ones on the eroded grid; island labels per size join
 * exactly what sized A* joins. */
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static cairn_search_opts sized(int k, int moves) {
  cairn_search_opts o = cairn_search_defaults();
  o.size = k;
  o.moves = moves;
  if (moves == 4) o.heuristic = CAIRN_H_MANHATTAN;
  return o;
}


static void against_eroded_dijkstra(void **state) {
  cairn_search *s = *state;
  cairn_search *ref = NULL;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 0x512e5;
  int answered = 0, found = 0;
  for (int map = 0; map < 24; map++) {
    int w = 8 + (int)tu_below(&rng, 40), h = 8 + (int)tu_below(&rng, 40);
    cairn_grid *g = tu_random_grid(&rng, w, h, 5 + (int)tu_below(&rng, 25), 4);
    for (int k = 1; k <= 4; k++) {
      cairn_grid *e = tu_eroded(g, k);
      for (int moves = 8; moves >= 4; moves -= 4) {
        cairn_search_opts o = sized(k, moves);
        cairn_search_opts ro = cairn_search_defaults();
        ro.moves = moves;
        ro.heuristic = CAIRN_H_ZERO;
        for (int q = 0; q < 12; q++) {
          cairn_point a = tu_fitting(&rng, g, k), b = tu_fitting(&rng, g, k);
          if (a.x < 0 || b.x < 0) break;
          cairn_result r, want;
          cairn_status st = cairn_astar(s, g, a, b, &o, &r);
          cairn_status wst = cairn_astar(ref, e, a, b, &ro, &want);
          answered++;
          assert_int_equal(st, wst);
          if (st != CAIRN_OK) continue;
          found++;
          if (r.cost != want.cost)
            fail_msg("size %d, %d moves, (%d,%d) -> (%d,%d): cost %llu, eroded Dijkstra %llu", k,
                     moves, a.x, a.y, b.x, b.y, (unsigned long long)r.cost,
                     (unsigned long long)want.cost);
          assert_true(r.base_cost == r.cost);
          cairn_path_check pc;
          cairn_grid_check_path(e, r.path, r.path_len, a, b, moves, &pc);
          if (!pc.valid) fail_msg("size %d: %s at %zu", k, pc.problem, pc.bad_index);
          /* the diagonal's fixed point (92682 / 65536) is 1.08e-6 above
           * sqrt(2): a long diagonal run drifts by that share */
          assert_true(fabs(pc.cost - (double)r.cost / CAIRN_COST_ONE) < 1.2e-6 * (1 + pc.cost));
        }
      }
      cairn_grid_destroy(e);
    }
    cairn_grid_destroy(g);
  }
  print_message("%d queries, %d found\n", answered, found);
  assert_true(found > 500 && found < answered); /* paths and refusals both */
  cairn_search_destroy(ref);
}

/* Fills (forward and to the sources), distance maps and the nearest of
 * several goals for size k equal the same searches for size 1 on the
 * eroded grid, cell for cell. */
static void fills_and_nearest(void **state) {
  cairn_search *s = *state;
  cairn_search *ref = NULL;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 0xf111;
  static cairn_cost got[48 * 48], want[48 * 48];
  int compared = 0;
  for (int map = 0; map < 12; map++) {
    int w = 8 + (int)tu_below(&rng, 40), h = 8 + (int)tu_below(&rng, 40);
    cairn_grid *g = tu_random_grid(&rng, w, h, 5 + (int)tu_below(&rng, 25), map % 2 ? 4 : 1);
    for (int k = 2; k <= 4; k++) {
      cairn_grid *e = tu_eroded(g, k);
      cairn_point src[2] = {tu_fitting(&rng, g, k), tu_fitting(&rng, g, k)};
      if (src[0].x < 0 || src[1].x < 0) {
        cairn_grid_destroy(e);
        continue;
      }
      for (int moves = 8; moves >= 4; moves -= 4) {
        cairn_search_opts o = sized(k, moves), ro = sized(1, moves);
        size_t n = (size_t)w * (size_t)h;
        assert_int_equal(cairn_distance_map(s, g, src, 2, &o, got, n), CAIRN_OK);
        assert_int_equal(cairn_distance_map(ref, e, src, 2, &ro, want, n), CAIRN_OK);
        assert_memory_equal(got, want, n * sizeof *got);
        /* costs to the sources: the entry of each position is paid */
        assert_int_equal(cairn_dijkstra_fill(s, g, src, 2, NULL, 0, 1, &o), CAIRN_OK);
        assert_int_equal(cairn_dijkstra_fill(ref, e, src, 2, NULL, 0, 1, &ro), CAIRN_OK);
        for (int32_t y = 0; y < h; y++)
          for (int32_t x = 0; x < w; x++) {
            cairn_node_info a, b;
            cairn_point p = {x, y};
            assert_int_equal(cairn_search_cell(s, p, &a), CAIRN_OK);
            assert_int_equal(cairn_search_cell(ref, p, &b), CAIRN_OK);
            assert_int_equal(a.state, b.state);
            if (a.state == CAIRN_NODE_CLOSED) assert_true(a.g == b.g);
          }
        cairn_result r, rr;
        cairn_point from = tu_fitting(&rng, g, k);
        cairn_status st = cairn_dijkstra_nearest(s, g, from, src, 2, &o, &r);
        assert_int_equal(st, cairn_dijkstra_nearest(ref, e, from, src, 2, &ro, &rr));
        if (st == CAIRN_OK) {
          assert_true(r.cost == rr.cost);
          assert_int_equal(r.goal_index, rr.goal_index);
        }
        compared++;
      }
      cairn_grid_destroy(e);
    }
    cairn_grid_destroy(g);
  }
  assert_true(compared > 40);
  cairn_search_destroy(ref);
}

/* A wall with a one-cell gate near the top and a wide gap at the far end:
 * size 1 goes through the gate, size 2 round by the gap. */
static void one_cell_gate(void **state) {
  cairn_search *s = *state;
  const char *rows[] = {"..........#.........",
                        "..........#.........",
                        "....................", /* the gate: (10, 2) */
                        "..........#.........",
                        "..........#.........",
                        "..........#.........",
                        "..........#.........",
                        "..........#.........",
                        "..........#.........",
                        "..........#.........",
                        "....................",
                        "...................."};
  cairn_grid *g = tu_grid(rows, 12);
  cairn_point a = {2, 2}, b = {17, 2};
  cairn_search_opts one = sized(1, 8), two = sized(2, 8);
  cairn_result r1, r2;
  assert_int_equal(cairn_astar(s, g, a, b, &one, &r1), CAIRN_OK);
  assert_int_equal(r1.steps, 15); /* straight through */
  bool through_gate = false;
  for (size_t i = 0; i < r1.path_len; i++) through_gate |= r1.path[i].x == 10 && r1.path[i].y == 2;
  assert_true(through_gate);
  assert_int_equal(cairn_astar(s, g, a, b, &two, &r2), CAIRN_OK);
  assert_true(r2.cost > r1.cost);
  for (size_t i = 0; i < r2.path_len; i++) assert_true(r2.path[i].y >= 9 || r2.path[i].x != 9);
  for (size_t i = 0; i < r2.path_len; i++)
    assert_true(cairn_grid_clearance(g, r2.path[i].x, r2.path[i].y) >= 2);
  /* and a unit too big for the whole gap: no path */
  cairn_search_opts three = sized(3, 8);
  cairn_result r3;
  assert_int_equal(cairn_astar(s, g, a, b, &three, &r3), CAIRN_NO_PATH);
  cairn_grid_destroy(g);
}

/* A layer counts its highest penalty under the footprint; a blocked cell
 * under it blocks the position. Bounds hold the whole footprint. */
static void layers_and_bounds(void **state) {
  cairn_search *s = *state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(12, 6, 1, NULL, &g), CAIRN_OK);
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  /* block one cell of row 3 in every column: size 2 on rows 2-3 or 3-4 is
   * blocked everywhere, so it must stay on rows 0-2 or 4-5 */
  for (int32_t x = 0; x < 12; x++) assert_int_equal(cairn_penalty_block(p, x, 3, 1), CAIRN_OK);
  cairn_search_opts o = sized(2, 8);
  o.penalty = p;
  cairn_point a = {0, 0}, b = {10, 4};
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_NO_PATH);
  cairn_point c = {10, 0};
  assert_int_equal(cairn_astar(s, g, a, c, &o, &r), CAIRN_OK);
  assert_true(r.cost == 10 * CAIRN_COST_ONE);
  /* a penalty under the footprint's lower row counts */
  assert_int_equal(cairn_penalty_block(p, 5, 3, 0), CAIRN_OK);
  assert_int_equal(cairn_penalty_add(p, 5, 1, 3 * CAIRN_COST_ONE), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, a, c, &o, &r), CAIRN_OK);
  assert_true(r.cost > 10 * CAIRN_COST_ONE); /* it pays or goes round */
  assert_true(r.base_cost == 10 * CAIRN_COST_ONE || r.base_cost > 10 * CAIRN_COST_ONE);
  cairn_penalty_destroy(p);
  /* bounds: the 2 x 2 unit keeps its footprint inside x 0..5 */
  cairn_search_opts bo = sized(2, 8);
  bo.bounds = (cairn_rect){0, 0, 6, 6};
  cairn_point in = {4, 0}, edge = {5, 0};
  assert_int_equal(cairn_astar(s, g, a, in, &bo, &r), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, a, edge, &bo, &r), CAIRN_ERR_RANGE);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  cairn_search *s = *state;
  const char *rows[] = {"....#", ".....", "....."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_point a = {0, 0}, b = {1, 1}, c = {3, 0};
  cairn_result r;
  cairn_search_opts o = sized(CAIRN_GRID_MAX_CLEARANCE + 1, 8);
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_ERR_ARG);
  o.size = -1;
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_ERR_ARG);
  o = sized(2, 8);
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, c, b, &o, &r), CAIRN_ERR_BLOCKED); /* (4, 0) is a wall */
  cairn_point low = {0, 2};
  assert_int_equal(cairn_astar(s, g, a, low, &o, &r), CAIRN_ERR_BLOCKED); /* off the bottom */
  o.size = 0; /* reads as 1 */
  assert_int_equal(cairn_astar(s, g, c, b, &o, &r), CAIRN_OK);
  /* a fill's source must fit too */
  o.size = 2;
  assert_int_equal(cairn_dijkstra_fill(s, g, &c, 1, NULL, 0, 0, &o), CAIRN_ERR_BLOCKED);
  cairn_grid_destroy(g);
}

/* Sized line of sight and smoothing are the size-1 ones on the eroded grid:
 * the same verdict for every pair, the same waypoints for every path (the
 * eroded grid's cells carry the footprint's dearest terrain, which is what
 * the sized pull compares), and the smoothed path stays legal. */
static void sight_and_smoothing(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 0x5197;
  int differ = 0, smoothed = 0;
  for (int map = 0; map < 16; map++) {
    int w = 8 + (int)tu_below(&rng, 40), h = 8 + (int)tu_below(&rng, 40);
    cairn_grid *g = tu_random_grid(&rng, w, h, 5 + (int)tu_below(&rng, 20), 4);
    for (int k = 1; k <= 4; k++) {
      cairn_grid *e = tu_eroded(g, k);
      for (int q = 0; q < 200; q++) {
        cairn_point a = {(int32_t)tu_below(&rng, (uint32_t)w), (int32_t)tu_below(&rng, (uint32_t)h)};
        cairn_point b = {(int32_t)tu_below(&rng, (uint32_t)w), (int32_t)tu_below(&rng, (uint32_t)h)};
        int got = cairn_grid_line_of_sight_sized(g, a, b, k);
        assert_int_equal(got, cairn_grid_line_of_sight(e, a, b));
        differ += k > 1 && got != cairn_grid_line_of_sight(g, a, b);
      }
      cairn_search_opts o = sized(k, 8);
      for (int q = 0; q < 8; q++) {
        cairn_point a = tu_fitting(&rng, g, k), b = tu_fitting(&rng, g, k);
        cairn_result r;
        if (a.x < 0 || b.x < 0 || cairn_astar(s, g, a, b, &o, &r) != CAIRN_OK) continue;
        cairn_point got[4096], want[4096];
        size_t ng = 0, nw = 0;
        double lg = 0, lw = 0;
        assert_true(r.path_len <= 4096);
        assert_int_equal(cairn_smooth_path_sized(g, k, r.path, r.path_len, got, 4096, &ng, &lg),
                         CAIRN_OK);
        assert_int_equal(cairn_smooth_path(e, r.path, r.path_len, want, 4096, &nw, &lw), CAIRN_OK);
        assert_int_equal(ng, nw);
        assert_memory_equal(got, want, ng * sizeof *got);
        assert_true(lg == lw);
        for (size_t i = 1; i < ng; i++) assert_true(cairn_grid_line_of_sight_sized(g, got[i - 1], got[i], k));
        smoothed++;
      }
      cairn_grid_destroy(e);
    }
    cairn_grid_destroy(g);
  }
  assert_true(differ > 50);   /* the size mattered */
  assert_true(smoothed > 100);
  cairn_point p = {0, 0}, out[1];
  size_t n = 7;
  double len = 1;
  cairn_grid *g = tu_random_grid(&rng, 8, 8, 10, 1);
  assert_int_equal(cairn_smooth_path_sized(g, 0, &p, 1, out, 1, &n, &len), CAIRN_ERR_ARG);
  assert_true(n == 0 && len == 0);
  assert_int_equal(cairn_smooth_path_sized(g, CAIRN_GRID_MAX_CLEARANCE + 1, &p, 1, out, 1, &n, &len),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_grid_line_of_sight_sized(g, p, p, 9), 0);
  assert_int_equal(cairn_grid_line_of_sight_sized(NULL, p, p, 1), 0);
  cairn_grid_destroy(g);
}

/* Island labels per size: two positions share a label exactly when sized
 * A* joins them, after random edits and a relabel; an unreachable goal is
 * then answered without expanding a node, and a size without labels still
 * answers (by searching). */
static void islands_per_size(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 0x1514;
  int apart = 0, joined = 0;
  for (int map = 0; map < 12; map++) {
    int w = 8 + (int)tu_below(&rng, 32), h = 8 + (int)tu_below(&rng, 32);
    cairn_grid *g = tu_random_grid(&rng, w, h, 8 + (int)tu_below(&rng, 20), 3);
    assert_int_equal(cairn_grid_set_island_sizes(g, 3), CAIRN_OK);
    assert_int_equal(cairn_grid_island_sizes(g), 3);
    for (int e = 0; e < 20; e++)
      cairn_grid_set_cost(g, (int32_t)tu_below(&rng, (uint32_t)w), (int32_t)tu_below(&rng, (uint32_t)h),
                          tu_below(&rng, 3) ? 1 : 0);
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    for (int k = 1; k <= 4; k++) {
      cairn_search_opts o = sized(k, 8);
      for (int q = 0; q < 30; q++) {
        cairn_point a = tu_fitting(&rng, g, k), b = tu_fitting(&rng, g, k);
        if (a.x < 0 || b.x < 0) break;
        uint32_t la = cairn_grid_island_sized(g, a.x, a.y, k), lb = cairn_grid_island_sized(g, b.x, b.y, k);
        cairn_result r;
        cairn_status st = cairn_astar(s, g, a, b, &o, &r);
        if (k > 3) { /* no labels kept: 0, and the search decides */
          assert_true(la == 0 && lb == 0);
          continue;
        }
        assert_true(la > 0 && lb > 0);
        assert_int_equal(st, la == lb ? CAIRN_OK : CAIRN_NO_PATH);
        if (la != lb) assert_true(r.expanded == 0);
        apart += la != lb;
        joined += la == lb;
      }
    }
    cairn_grid_destroy(g);
  }
  assert_true(apart > 20 && joined > 20);
  cairn_grid *g = tu_random_grid(&rng, 8, 8, 10, 1);
  assert_int_equal(cairn_grid_set_island_sizes(g, 0), CAIRN_ERR_ARG);
  assert_int_equal(cairn_grid_set_island_sizes(g, CAIRN_GRID_MAX_CLEARANCE + 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_grid_set_island_sizes(NULL, 2), CAIRN_ERR_ARG);
  assert_int_equal(cairn_grid_set_island_sizes(g, CAIRN_GRID_MAX_CLEARANCE), CAIRN_OK);
  assert_int_equal(cairn_grid_set_island_sizes(g, 1), CAIRN_OK);
  assert_int_equal(cairn_grid_island_sized(g, 0, 0, 2), 0u);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(against_eroded_dijkstra),
      tu_with_search(fills_and_nearest),
      tu_with_search(one_cell_gate),
      tu_with_search(layers_and_bounds),
      tu_with_search(refusals),
      tu_with_search(sight_and_smoothing),
      tu_with_search(islands_per_size),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
