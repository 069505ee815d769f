/* Searches bounded to a rectangle: bounded A* answers exactly as A* on a
 * grid cut down to the rectangle, routes that would leave it, refusals, and
 * avoid-sets against a copy with those cells walled. */
#include "test_util.h"
#include "test_search_util.h"

#include <stdlib.h>

/* Bounded A* (every heuristic, 4 and 8 moves, with and without a turn
 * penalty) answers exactly as A* on a grid cut down to the rectangle; its
 * path stays inside, it reaches no cell outside, and without a turn penalty
 * an admissible heuristic finds the bounded optimum of the reference. */
static void bounded_matches_copy(void **state) {
  uint64_t rng = 0xb0d5;
  cairn_search *s = *state, *t = new_search();
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
  cairn_search_destroy(t);
}

/* The only way round the wall runs through the bottom row: outside the
 * rectangle of the top two rows, so the bounded queries find no path (with
 * fresh islands saying start and goal are connected). */
static void bounded_route_outside(void **state) {
  static const char *const rows[] = {"..#..", "..#..", "....."};
  cairn_grid *g = tu_grid(rows, 3);
  assert_int_equal(cairn_grid_island_count(g), 1);
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

static void bounded_errors(void **state) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(8, 6, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = *state;
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
  cairn_grid_destroy(g);
}

/* Avoided cells (opts.avoid) are never entered by that search: 4-way A*
 * with them equals A* on a copy of the grid with them walled, on random
 * maps, whatever the heuristic; 8-way it is at most that (a diagonal may
 * pass an avoided cell's corner, not a wall's). The start and goal are
 * never avoided; the other grid searches refuse a list. */
static void avoid_matches_walled_copy(void **state) {
  uint64_t rng = 0xa701d;
  cairn_search *s = *state, *t = new_search();
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
  cairn_search_destroy(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(bounded_matches_copy),
      tu_with_search(avoid_matches_walled_copy),
      tu_with_search(bounded_route_outside),
      tu_with_search(bounded_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
