/* Jump point search, scanning (cairn_jps) and with jump tables
 * (cairn_jps_plus): the cost of a plain Dijkstra on random maps of every
 * density, shape and terrain, through edits (the tables updated equal to
 * tables built afresh), sliced under any budget; valid paths cell by
 * cell; their refusals. */
#include "jumps_internal.h"
#include "test_util.h"

#include <stdbool.h>
#include <string.h>

/* Dijkstra's answer from start to goal (the reference). */
static cairn_result dijkstra(cairn_search *s, const cairn_grid *g, cairn_point a, cairn_point b) {
  cairn_search_opts o = cairn_search_defaults();
  o.heuristic = CAIRN_H_ZERO;
  cairn_result r;
  cairn_astar(s, g, a, b, &o, &r);
  return r;
}

/* jps from a to b agrees with Dijkstra (ref) on found / not found and on the
 * cost, and its path is a valid chain of that cost. */
static void check_one(cairn_search *s, const cairn_grid *g, const cairn_jumps *jt,
                      cairn_result want, cairn_point a, cairn_point b) {
  cairn_result got;
  if (jt)
    assert_int_equal(cairn_jps_plus(s, jt, a, b, NULL, &got), want.status);
  else
    assert_int_equal(cairn_jps(s, g, a, b, NULL, &got), want.status);
  if (want.status != CAIRN_OK) {
    assert_int_equal(want.status, CAIRN_NO_PATH);
    return;
  }
  if (got.cost != want.cost)
    fail_msg("(%d,%d)->(%d,%d): %s %llu, dijkstra %llu", a.x, a.y, b.x, b.y,
             jt ? "jps+" : "jps", (unsigned long long)got.cost, (unsigned long long)want.cost);
  assert_int_equal(tu_path_cost(g, got.path, got.path_len, a, b, 8), want.cost);
  assert_int_equal(got.steps + 1, got.path_len);
}

/* Both searches from a to b against Dijkstra (ref); jt the grid's tables. */
static void check_pair_with(cairn_search *s, cairn_search *ref, const cairn_grid *g,
                            const cairn_jumps *jt, cairn_point a, cairn_point b) {
  cairn_result want = dijkstra(ref, g, a, b);
  check_one(s, g, NULL, want, a, b);
  check_one(s, g, jt, want, a, b);
}

/* Fails unless jt holds what tables built afresh for its grid hold. */
static void assert_fresh_tables(const cairn_jumps *jt) {
  cairn_jumps *fresh;
  assert_int_equal(cairn_jumps_create(jt->grid, NULL, &fresh), CAIRN_OK);
  const size_t n = jt->grid->padded * 8;
  for (size_t i = 0; i < n; i++)
    if (jt->e[i] != fresh->e[i])
      fail_msg("cell %zu direction %zu: updated %d, fresh %d", i / 8, i % 8, jt->e[i],
               fresh->e[i]);
  cairn_jumps_destroy(fresh);
}

/* check_pair_with on tables built for g now. */
static void check_pair(cairn_search *s, cairn_search *ref, const cairn_grid *g, cairn_point a,
                       cairn_point b) {
  cairn_jumps *jt;
  assert_int_equal(cairn_jumps_create(g, NULL, &jt), CAIRN_OK);
  check_pair_with(s, ref, g, jt, a, b);
  cairn_jumps_destroy(jt);
}

/* A random grid of one terrain `cost` with walls_pct % walls. */
static cairn_grid *uniform_grid(uint64_t *rng, int w, int h, int walls_pct, uint8_t cost) {
  cairn_grid *g = tu_random_grid(rng, w, h, walls_pct, 1);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (cairn_grid_cost(g, x, y)) cairn_grid_set_cost(g, x, y, cost);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

static void equals_dijkstra_on_random_maps(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 21;
  /* narrow, square and wide maps (lines past one and two 64-cell words) */
  const int sides[][2] = {{1, 1}, {1, 40}, {40, 1}, {7, 5}, {63, 64}, {65, 9}, {130, 20},
                          {20, 130}, {200, 150}};
  for (size_t m = 0; m < sizeof sides / sizeof sides[0]; m++)
    for (int walls = 0; walls <= 45; walls += 15) {
      const uint8_t cost = (uint8_t)(1 + tu_below(&rng, 2) * 4); /* 1 or 5 */
      cairn_grid *g = uniform_grid(&rng, sides[m][0], sides[m][1], walls, cost);
      for (int q = 0; q < 40 && cairn_grid_passable(g); q++) {
        cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
        check_pair(s, ref, g, a, b);
      }
      cairn_grid_destroy(g);
    }
  cairn_search_destroy(ref);
}

/* Rooms joined by one-cell doors, and pillars: the forced turns that a
 * random map rarely lines up. */
static void equals_dijkstra_on_rooms_and_pillars(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 7;
  for (int kind = 0; kind < 2; kind++) {
    cairn_grid *g;
    assert_int_equal(cairn_grid_create(150, 90, 1, NULL, &g), CAIRN_OK);
    for (int y = 0; y < 90; y++)
      for (int x = 0; x < 150; x++) {
        bool wall = kind == 0 ? (x % 12 == 0 || y % 10 == 0) && (x + y) % 7 != 0
                              : x % 4 == 2 && y % 3 == 1;
        if (wall) cairn_grid_set_cost(g, x, y, 0);
      }
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    for (int q = 0; q < 150; q++) {
      cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
      check_pair(s, ref, g, a, b);
    }
    cairn_grid_destroy(g);
  }
  cairn_search_destroy(ref);
}

/* Edits one cell at a time and a rectangle at a time: the next search sees
 * them (the bit planes follow every edit), with islands fresh or not. */
static void follows_edits(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 99;
  cairn_grid *g = uniform_grid(&rng, 140, 70, 25, 1);
  cairn_jumps *jt;
  assert_int_equal(cairn_jumps_create(g, NULL, &jt), CAIRN_OK);
  uint8_t block[6 * 6];
  for (int round = 0; round < 60; round++) {
    if (round % 3 == 0) {
      for (int k = 0; k < 36; k++) block[k] = (uint8_t)(tu_below(&rng, 3) ? 1 : 0);
      cairn_rect r = {(int32_t)tu_below(&rng, 134), (int32_t)tu_below(&rng, 64), 6, 6};
      assert_int_equal(cairn_grid_set_rect(g, r, block, 6), CAIRN_OK);
      assert_int_equal(cairn_jumps_update(jt, r), CAIRN_OK);
    } else {
      for (int k = 0; k < 20; k++) {
        const int32_t x = (int32_t)tu_below(&rng, 140), y = (int32_t)tu_below(&rng, 70);
        cairn_grid_set_cost(g, x, y, (uint8_t)(tu_below(&rng, 2)));
        assert_int_equal(cairn_jumps_update(jt, (cairn_rect){x, y, 1, 1}), CAIRN_OK);
      }
    }
    assert_fresh_tables(jt);
    if (round % 2) assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    for (int q = 0; q < 10; q++) {
      cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
      check_pair_with(s, ref, g, jt, a, b);
    }
  }
  /* tables that missed an edit are refused; the update makes them answer */
  cairn_grid_set_cost(g, 3, 3, (uint8_t)(cairn_grid_cost(g, 3, 3) ? 0 : 1));
  cairn_point a = tu_random_open(&rng, g);
  cairn_result r;
  assert_int_equal(cairn_jps_plus(s, jt, a, a, NULL, &r), CAIRN_ERR_STATE);
  assert_int_equal(cairn_jumps_update(jt, (cairn_rect){3, 3, 1, 1}), CAIRN_OK);
  assert_int_equal(cairn_jps_plus(s, jt, a, a, NULL, &r), CAIRN_OK);
  assert_int_equal(cairn_jumps_update(jt, (cairn_rect){139, 0, 2, 1}), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_jumps_update(jt, (cairn_rect){0, 0, -1, 1}), CAIRN_ERR_ARG);
  assert_int_equal(cairn_jumps_update(NULL, (cairn_rect){0, 0, 1, 1}), CAIRN_ERR_ARG);
  assert_true(cairn_jumps_memory(jt) >= (size_t)142 * 72 * 16);
  assert_int_equal(cairn_jumps_memory(NULL), 0);
  cairn_jumps_destroy(jt);
  cairn_jumps_destroy(NULL);
  cairn_grid_destroy(g);
  cairn_search_destroy(ref);
}

/* Stepped with budgets of 1, 2, 7 and 1000 units: the blocking answer,
 * path for path; and a step after an edit stops the search. */
static void sliced_under_any_budget(void **state) {
  cairn_search *s = *state, *one;
  assert_int_equal(cairn_search_create(NULL, &one), CAIRN_OK);
  uint64_t rng = 5;
  cairn_grid *g = uniform_grid(&rng, 160, 100, 20, 1);
  cairn_jumps *jt;
  assert_int_equal(cairn_jumps_create(g, NULL, &jt), CAIRN_OK);
  const uint64_t budgets[] = {1, 2, 7, 1000};
  for (int q = 0; q < 60; q++) {
    cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
    const bool plus = q % 2; /* scanning, then with the tables */
    cairn_result whole;
    if (plus)
      cairn_jps_plus(one, jt, a, b, NULL, &whole);
    else
      cairn_jps(one, g, a, b, NULL, &whole);
    for (size_t k = 0; k < 4; k++) {
      assert_int_equal(plus ? cairn_jps_plus_begin(s, jt, a, b, NULL)
                            : cairn_jps_begin(s, g, a, b, NULL),
                       CAIRN_OK);
      cairn_status st;
      int steps = 0;
      while ((st = cairn_search_step(s, budgets[k])) == CAIRN_IN_PROGRESS) steps++;
      assert_true(steps < 10000000);
      cairn_result got;
      assert_int_equal(cairn_search_result(s, &got), whole.status);
      assert_int_equal(got.cost, whole.cost);
      assert_int_equal(got.path_len, whole.path_len);
      assert_int_equal(got.expanded, whole.expanded);
      for (size_t i = 0; i < got.path_len; i++) {
        assert_int_equal(got.path[i].x, whole.path[i].x);
        assert_int_equal(got.path[i].y, whole.path[i].y);
      }
      /* budget 1 on a long query: many steps, none over its unit */
      if (budgets[k] == 1 && whole.path_len > 40) assert_true(steps > 10);
    }
  }
  /* an edit between steps ends it */
  cairn_point a = {0, 0}, b = {159, 99};
  cairn_grid_set_cost(g, 0, 0, 1);
  cairn_grid_set_cost(g, 159, 99, 1);
  assert_int_equal(cairn_jps_begin(s, g, a, b, NULL), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_IN_PROGRESS);
  cairn_grid_set_cost(g, 50, 50, (uint8_t)(cairn_grid_cost(g, 50, 50) ? 0 : 1));
  assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_STATE);
  cairn_jumps_destroy(jt);
  cairn_grid_destroy(g);
  cairn_search_destroy(one);
}

/* Expansions stop at max_expanded with CAIRN_PARTIAL. */
static void max_expanded_gives_partial(void **state) {
  cairn_search *s = *state;
  cairn_grid *g = tu_grid((const char *const[]){"....#....", "..#.#.#..", "..#...#..", "..#####.."}, 4);
  cairn_search_opts o = cairn_search_defaults();
  o.max_expanded = 1;
  cairn_result r;
  assert_int_equal(cairn_jps(s, g, pt(0, 3), pt(8, 3), &o, &r), CAIRN_PARTIAL);
  assert_int_equal(r.expanded, 1);
  o.max_expanded = 0;
  assert_int_equal(cairn_jps(s, g, pt(0, 3), pt(8, 3), &o, &r), CAIRN_OK);
  assert_true(r.expanded > 1);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  cairn_search *s = *state;
  cairn_grid *g = tu_grid((const char *const[]){"...#", ".2.#", "...."}, 3);
  cairn_result r;
  /* two terrains: the tables build (they read passability), the searches
   * refuse */
  cairn_jumps *jt;
  assert_int_equal(cairn_jumps_create(g, NULL, &jt), CAIRN_OK);
  assert_int_equal(cairn_jps_plus(s, jt, pt(0, 0), pt(3, 2), NULL, &r), CAIRN_ERR_TERRAIN);
  assert_int_equal(cairn_jps_plus(s, NULL, pt(0, 0), pt(3, 2), NULL, &r), CAIRN_ERR_ARG);
  cairn_jumps *none = &(cairn_jumps){0};
  assert_int_equal(cairn_jumps_create(NULL, NULL, &none), CAIRN_ERR_ARG);
  assert_null(none);
  assert_int_equal(cairn_jumps_create(g, NULL, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(3, 2), NULL, &r), CAIRN_ERR_TERRAIN);
  assert_int_equal(r.status, CAIRN_ERR_TERRAIN);
  assert_string_equal(cairn_status_str(CAIRN_ERR_TERRAIN),
                      "the method needs a grid of one terrain cost");
  cairn_grid_set_cost(g, 1, 1, 1);
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(3, 2), NULL, &r), CAIRN_OK);
  /* a terrain change needs no new entries, but the tables must be told */
  assert_int_equal(cairn_jps_plus(s, jt, pt(0, 0), pt(3, 2), NULL, &r), CAIRN_ERR_STATE);
  assert_int_equal(cairn_jumps_update(jt, (cairn_rect){1, 1, 1, 1}), CAIRN_OK);
  assert_int_equal(cairn_jps_plus(s, jt, pt(0, 0), pt(3, 2), NULL, &r), CAIRN_OK);
  {
    cairn_search_opts o4 = cairn_search_defaults();
    o4.moves = 4;
    assert_int_equal(cairn_jps_plus(s, jt, pt(0, 0), pt(3, 2), &o4, &r), CAIRN_ERR_ARG);
  }
  cairn_jumps_destroy(jt);
  assert_int_equal(cairn_jps(s, g, pt(-1, 0), pt(3, 2), NULL, &r), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(3, 3), NULL, &r), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_jps(s, g, pt(3, 0), pt(0, 0), NULL, &r), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(3, 1), NULL, &r), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_jps(NULL, g, pt(0, 0), pt(0, 0), NULL, &r), CAIRN_ERR_ARG);
  assert_int_equal(cairn_jps(s, NULL, pt(0, 0), pt(0, 0), NULL, &r), CAIRN_ERR_ARG);
  cairn_search_opts o = cairn_search_defaults();
  o.moves = 4;
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(2, 2), &o, &r), CAIRN_ERR_ARG);
  o = cairn_search_defaults();
  o.size = 2;
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(2, 2), &o, &r), CAIRN_ERR_ARG);
  o = cairn_search_defaults();
  o.turn_penalty = 1.0;
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(2, 2), &o, &r), CAIRN_ERR_ARG);
  o = cairn_search_defaults();
  o.bounds = (cairn_rect){0, 0, 2, 2};
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(1, 1), &o, &r), CAIRN_ERR_ARG);
  o = cairn_search_defaults();
  cairn_point avoid = {1, 0};
  o.avoid = &avoid;
  o.n_avoid = 1;
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(2, 2), &o, &r), CAIRN_ERR_ARG);
  /* a refused begin leaves nothing to step */
  assert_int_equal(cairn_search_step(s, 10), CAIRN_ERR_STATE);
  /* start == goal: the one cell */
  assert_int_equal(cairn_jps(s, g, pt(2, 2), pt(2, 2), NULL, &r), CAIRN_OK);
  assert_int_equal(r.path_len, 1);
  assert_int_equal(r.cost, 0);
  /* another island: no path, nothing expanded */
  cairn_grid_destroy(g);
  g = tu_grid((const char *const[]){"..#..", "..#..", "..#.."}, 3);
  assert_int_equal(cairn_jps(s, g, pt(0, 0), pt(4, 2), NULL, &r), CAIRN_NO_PATH);
  assert_int_equal(r.expanded, 0);
  /* the save of a sliced search refuses a jump point search */
  size_t len = 1;
  assert_int_equal(cairn_jps_begin(s, g, pt(0, 0), pt(1, 2), NULL), CAIRN_OK);
  assert_int_equal(cairn_search_save_state(s, NULL, 0, &len), CAIRN_ERR_STATE);
  assert_int_equal(len, 0);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(equals_dijkstra_on_random_maps),
      tu_with_search(equals_dijkstra_on_rooms_and_pillars),
      tu_with_search(follows_edits),
      tu_with_search(sliced_under_any_budget),
      tu_with_search(max_expanded_gives_partial),
      tu_with_search(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
