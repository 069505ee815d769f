/* Landmark tables for grid searches (cairn_landmarks, opts.landmarks): the
 * bound is consistent edge by edge and zero at the goal; A*, jump point
 * search and jump tables with it give Dijkstra's cost on random maps of
 * every density and terrain, for every table size, under every search
 * option, through edits and updates, sliced; and the refusals. */
#include "search_internal.h"
#include "test_util.h"

#include <stdbool.h>
#include <string.h>

static cairn_landmarks *table(const cairn_grid *g, int count, int active) {
  cairn_landmarks_opts lo = cairn_landmarks_defaults();
  lo.count = count;
  lo.active = active;
  cairn_landmarks *lm;
  assert_int_equal(cairn_landmarks_create(g, &lo, NULL, &lm), CAIRN_OK);
  return lm;
}

/* A*, and on a grid of one terrain jump point search with and without
 * tables, all with landmarks lm, from a to b against Dijkstra. */
static void check_pair(cairn_search *s, cairn_search *ref, const cairn_grid *g,
                       const cairn_landmarks *lm, cairn_point a, cairn_point b) {
  cairn_search_opts o = cairn_search_defaults();
  cairn_result want = tu_dijkstra(ref, g, a, b, &o), got;
  o.landmarks = lm;
  tu_agrees(g, "astar", cairn_astar(s, g, a, b, &o, &got), &got, &want, a, b, 8, true);
  if (!cairn_grid_uniform(g)) return;
  tu_agrees(g, "jps", cairn_jps(s, g, a, b, &o, &got), &got, &want, a, b, 8, true);
  cairn_jumps *jt;
  assert_int_equal(cairn_jumps_create(g, NULL, &jt), CAIRN_OK);
  tu_agrees(g, "jps+", cairn_jps_plus(s, jt, a, b, &o, &got), &got, &want, a, b, 8, true);
  cairn_jumps_destroy(jt);
}

/* The bound the search with lm from start to goal uses, at every open
 * cell: 0 at the goal, and never more than a legal step's cost plus the
 * bound after it (consistency, which keeps A* exact without reopening). */
static void assert_consistent(cairn_search *s, const cairn_grid *g, const cairn_landmarks *lm,
                              cairn_point start, cairn_point goal) {
  cairn_search_opts o = cairn_search_defaults();
  o.landmarks = lm;
  assert_int_equal(cairn_astar_begin(s, g, start, goal, &o), CAIRN_OK);
  /* every landmark in use, whatever begin chose */
  const uint32_t *gr = lm->d + (size_t)cairn__grid_index(g, goal.x, goal.y) * lm->width;
  s->lm_d = lm->d;
  s->lm_width = lm->width;
  s->lm_back = lm->back;
  s->lm_used = (uint32_t)lm->count;
  for (uint32_t k = 0; k < s->lm_used; k++) {
    s->lm_col[k] = k;
    s->lm_from[k] = gr[k];
    s->lm_to[k] = gr[k + lm->back];
  }
  assert_int_equal(cairn__lm_h(s, cairn__grid_index(g, goal.x, goal.y)), 0);
  for (int32_t y = 0; y < g->height; y++)
    for (int32_t x = 0; x < g->width; x++) {
      const uint32_t c = cairn__grid_index(g, x, y);
      const cairn_cost h = cairn__lm_h(s, c);
      for (unsigned m = g->moves[c]; m; m &= m - 1) {
        const int d = cairn__ctz(m);
        const uint32_t nb = (uint32_t)((int32_t)c + cairn__dx[d] + cairn__dy[d] * g->stride);
        const cairn_cost step = (d < 4 ? CAIRN_COST_ONE : CAIRN_COST_DIAG) * g->cost[nb];
        if (h > step + cairn__lm_h(s, nb))
          fail_msg("(%d,%d) -> direction %d: bound %llu > step %llu + %llu", x, y, d,
                   (unsigned long long)h, (unsigned long long)step,
                   (unsigned long long)cairn__lm_h(s, nb));
      }
    }
}

static void bound_is_consistent(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 3;
  for (int m = 0; m < 6; m++) {
    cairn_grid *g = tu_random_grid(&rng, 30 + m * 7, 25 + m * 5, 10 * m, m % 2 ? 6 : 1);
    cairn_landmarks *lm = table(g, 1 + m * 3, 1 + m * 2);
    for (int q = 0; q < 5; q++)
      assert_consistent(s, g, lm, tu_random_open(&rng, g), tu_random_open(&rng, g));
    cairn_landmarks_destroy(lm);
    cairn_grid_destroy(g);
  }
}

static void equals_dijkstra_on_random_maps(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 17;
  const int sides[][2] = {{1, 1}, {1, 30}, {9, 7}, {64, 40}, {120, 90}};
  const int counts[][2] = {{1, 1}, {3, 2}, {8, 4}, {16, 16}};
  for (size_t m = 0; m < sizeof sides / sizeof sides[0]; m++)
    for (int walls = 0; walls <= 45; walls += 15)
      for (int terrain = 1; terrain <= 8; terrain += 7) {
        cairn_grid *g = tu_random_grid(&rng, sides[m][0], sides[m][1], walls, terrain);
        if (!cairn_grid_passable(g)) {
          cairn_grid_destroy(g);
          continue;
        }
        for (size_t k = 0; k < 4; k++) {
          cairn_landmarks *lm = table(g, counts[k][0], counts[k][1]);
          assert_true(cairn_landmarks_count(lm) >= 1);
          assert_true(cairn_landmarks_count(lm) <= counts[k][0]);
          for (int q = 0; q < 12; q++)
            check_pair(s, ref, g, lm, tu_random_open(&rng, g), tu_random_open(&rng, g));
          cairn_landmarks_destroy(lm);
        }
        cairn_grid_destroy(g);
      }
  cairn_search_destroy(ref);
}

/* Every restriction a search adds only makes routes dearer, so the bound
 * holds with each: 4 moves, a unit's size, bounds, a cost layer, claims,
 * avoided cells. */
static void holds_under_every_option(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 29;
  cairn_grid *g = tu_random_grid(&rng, 70, 50, 20, 4);
  cairn_landmarks *lm = table(g, 8, 4);
  cairn_penalty *pen;
  assert_int_equal(cairn_penalty_create(g, NULL, &pen), CAIRN_OK);
  for (int k = 0; k < 300; k++) {
    int32_t x = (int32_t)tu_below(&rng, 70), y = (int32_t)tu_below(&rng, 50);
    if (k % 10) cairn_penalty_add(pen, x, y, (int64_t)(tu_below(&rng, 5) * CAIRN_COST_ONE));
    else cairn_penalty_block(pen, x, y, 1);
  }
  cairn_claims *cl;
  assert_int_equal(cairn_claims_create(g, NULL, &cl), CAIRN_OK);
  cairn_point claimed[100];
  for (int k = 0; k < 100; k++)
    claimed[k] = (cairn_point){(int32_t)tu_below(&rng, 70), (int32_t)tu_below(&rng, 50)};
  assert_int_equal(cairn_claims_set(cl, 1, claimed, 100, 1000), CAIRN_OK);
  cairn_point avoid[40];
  for (int k = 0; k < 40; k++) avoid[k] = tu_random_open(&rng, g);
  for (int variant = 0; variant < 6; variant++) {
    cairn_search_opts o = cairn_search_defaults();
    o.landmarks = lm;
    int size = 1;
    if (variant == 0) o.moves = 4;
    if (variant == 1) o.size = size = 2;
    if (variant == 2) o.bounds = (cairn_rect){10, 5, 45, 40};
    if (variant == 3) o.penalty = pen;
    if (variant == 4) o.claims = cl, o.claim_penalty = 3;
    if (variant == 5) o.avoid = avoid, o.n_avoid = 40;
    for (int q = 0; q < 40; q++) {
      cairn_point a = size > 1 ? tu_fitting(&rng, g, size) : tu_random_open(&rng, g);
      cairn_point b = size > 1 ? tu_fitting(&rng, g, size) : tu_random_open(&rng, g);
      if (variant == 2) {
        a = (cairn_point){10 + (int32_t)tu_below(&rng, 45), 5 + (int32_t)tu_below(&rng, 40)};
        b = (cairn_point){10 + (int32_t)tu_below(&rng, 45), 5 + (int32_t)tu_below(&rng, 40)};
        if (!cairn_grid_cost(g, a.x, a.y) || !cairn_grid_cost(g, b.x, b.y)) continue;
      }
      cairn_result want = tu_dijkstra(ref, g, a, b, &o), got;
      cairn_status st = cairn_astar(s, g, a, b, &o, &got);
      tu_agrees(g, "astar", st, &got, &want, a, b, o.moves, variant == 0 || variant == 2);
    }
  }
  cairn_claims_destroy(cl);
  cairn_penalty_destroy(pen);
  cairn_landmarks_destroy(lm);
  cairn_grid_destroy(g);
  cairn_search_destroy(ref);
}

/* An edit makes the table refuse searches; the update makes it answer
 * exactly again, also when the grid goes from one terrain to several and
 * back (the table's rows change width). */
static void follows_edits_through_updates(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 41;
  cairn_grid *g = tu_random_grid(&rng, 90, 60, 25, 1);
  cairn_landmarks *lm = table(g, 6, 3);
  for (int round = 0; round < 30; round++) {
    const uint8_t most = round % 10 < 5 ? 1 : 7;
    for (int k = 0; k < 25; k++)
      cairn_grid_set_cost(g, (int32_t)tu_below(&rng, 90), (int32_t)tu_below(&rng, 60),
                          (uint8_t)tu_below(&rng, most + 1u));
    if (most == 1) /* back to one terrain */
      for (int32_t y = 0; y < 60; y++)
        for (int32_t x = 0; x < 90; x++)
          if (cairn_grid_cost(g, x, y) > 1) cairn_grid_set_cost(g, x, y, 1);
    if (round % 2) assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
    cairn_search_opts o = cairn_search_defaults();
    o.landmarks = lm;
    cairn_result r;
    assert_false(cairn_landmarks_current(lm));
    assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_ERR_STATE);
    assert_int_equal(cairn_landmarks_update(lm), CAIRN_OK);
    assert_true(cairn_landmarks_current(lm));
    for (int q = 0; q < 15; q++)
      check_pair(s, ref, g, lm, tu_random_open(&rng, g), tu_random_open(&rng, g));
  }
  cairn_landmarks_destroy(lm);
  cairn_grid_destroy(g);
  cairn_search_destroy(ref);
}

/* Stepped one expansion at a time: the blocking answer, path for path. */
static void sliced_equals_blocking(void **state) {
  cairn_search *s = *state, *one;
  assert_int_equal(cairn_search_create(NULL, &one), CAIRN_OK);
  uint64_t rng = 8;
  cairn_grid *g = tu_random_grid(&rng, 100, 70, 30, 3);
  cairn_landmarks *lm = table(g, 8, 4);
  cairn_search_opts o = cairn_search_defaults();
  o.landmarks = lm;
  for (int q = 0; q < 30; q++) {
    cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
    cairn_result whole, got;
    cairn_astar(one, g, a, b, &o, &whole);
    assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
    while (cairn_search_step(s, q % 2 ? 1 : 5) == CAIRN_IN_PROGRESS) {
    }
    assert_int_equal(cairn_search_result(s, &got), whole.status);
    assert_int_equal(got.cost, whole.cost);
    assert_int_equal(got.expanded, whole.expanded);
    assert_int_equal(got.path_len, whole.path_len);
    if (got.path_len) assert_memory_equal(got.path, whole.path, got.path_len * sizeof *got.path);
  }
  cairn_landmarks_destroy(lm);
  cairn_grid_destroy(g);
  cairn_search_destroy(one);
}

/* On a maze-like map the bound does its job: fewer expansions than the
 * octile distance alone, never more. */
static void expands_fewer(void **state) {
  cairn_search *s = *state;
  cairn_grid *g;
  assert_int_equal(cairn_grid_create(101, 101, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < 101; y++) /* long walls with gaps at alternate ends */
    for (int32_t x = 0; x < 101; x++)
      if (y % 4 == 2 && (y % 8 == 2 ? x < 98 : x > 2)) cairn_grid_set_cost(g, x, y, 0);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  cairn_landmarks *lm = table(g, 8, 4);
  cairn_search_opts o = cairn_search_defaults();
  cairn_result plain, with;
  uint64_t rng = 2, sum_plain = 0, sum_with = 0;
  for (int q = 0; q < 40; q++) {
    cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
    o.landmarks = NULL;
    assert_int_equal(cairn_astar(s, g, a, b, &o, &plain), CAIRN_OK);
    o.landmarks = lm;
    assert_int_equal(cairn_astar(s, g, a, b, &o, &with), CAIRN_OK);
    assert_int_equal(with.cost, plain.cost);
    sum_plain += plain.expanded;
    sum_with += with.expanded;
  }
  if (sum_with * 3 > sum_plain)
    fail_msg("landmarks expanded %llu, octile %llu", (unsigned long long)sum_with,
             (unsigned long long)sum_plain);
  cairn_landmarks_destroy(lm);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 1;
  cairn_grid *g = tu_random_grid(&rng, 20, 20, 10, 1), *other = tu_random_grid(&rng, 20, 20, 10, 1);
  cairn_landmarks *lm;
  cairn_landmarks_opts lo = cairn_landmarks_defaults();
  assert_int_equal(lo.count, 8);
  assert_int_equal(lo.active, 0);
  assert_int_equal(cairn_landmarks_create(NULL, NULL, NULL, &lm), CAIRN_ERR_ARG);
  assert_null(lm);
  assert_int_equal(cairn_landmarks_create(g, NULL, NULL, NULL), CAIRN_ERR_ARG);
  const int bad[][2] = {{0, 1}, {17, 4}, {4, -1}, {4, 5}, {-1, 1}};
  for (size_t k = 0; k < 5; k++) {
    lo.count = bad[k][0];
    lo.active = bad[k][1];
    assert_int_equal(cairn_landmarks_create(g, &lo, NULL, &lm), CAIRN_ERR_ARG);
  }
  cairn_grid *walls;
  assert_int_equal(cairn_grid_create(5, 5, 0, NULL, &walls), CAIRN_OK);
  assert_int_equal(cairn_landmarks_create(walls, NULL, NULL, &lm), CAIRN_NO_PATH);
  assert_int_equal(cairn_landmarks_create(g, NULL, NULL, &lm), CAIRN_OK);
  assert_int_equal(cairn_landmarks_count(lm), 8);
  cairn_point p;
  for (int32_t i = 0; i < 8; i++) {
    assert_int_equal(cairn_landmarks_cell(lm, i, &p), CAIRN_OK);
    assert_true(cairn_grid_cost(g, p.x, p.y) > 0);
  }
  assert_int_equal(cairn_landmarks_cell(lm, 8, &p), CAIRN_ERR_ARG);
  assert_int_equal(cairn_landmarks_cell(lm, -1, &p), CAIRN_ERR_ARG);
  assert_int_equal(cairn_landmarks_cell(NULL, 0, &p), CAIRN_ERR_ARG);
  assert_true(cairn_landmarks_memory(lm) >= (size_t)22 * 22 * 8 * 4);
  assert_int_equal(cairn_landmarks_memory(NULL), 0);
  assert_int_equal(cairn_landmarks_count(NULL), 0);
  assert_false(cairn_landmarks_current(NULL));
  assert_int_equal(cairn_landmarks_update(NULL), CAIRN_ERR_ARG);

  cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
  cairn_search_opts o = cairn_search_defaults();
  o.landmarks = lm;
  cairn_result r;
  assert_int_equal(cairn_astar(s, other, a, a, &o, &r), CAIRN_ERR_ARG); /* another grid */
  assert_int_equal(cairn_jps(s, other, a, a, &o, &r), CAIRN_ERR_ARG);
  o.heuristic = CAIRN_H_MANHATTAN;
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_ERR_ARG);
  o.heuristic = CAIRN_H_OCTILE;
  o.weight = 2;
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_ERR_ARG);
  o.weight = 1;
  /* a search with landmarks keeps no state to save */
  assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
  size_t len = 1;
  assert_int_equal(cairn_search_save_state(s, NULL, 0, &len), CAIRN_ERR_STATE);
  /* the other searches ignore the table */
  assert_int_equal(cairn_dijkstra_fill(s, g, &a, 1, NULL, 0, 0, &o), CAIRN_OK);
  /* a table emptied by edits refuses until an update finds open cells */
  uint8_t zeros[20 * 20];
  memset(zeros, 0, sizeof zeros);
  assert_int_equal(cairn_grid_set_rect(g, (cairn_rect){0, 0, 20, 20}, zeros, 20), CAIRN_OK);
  assert_int_equal(cairn_landmarks_update(lm), CAIRN_NO_PATH);
  assert_false(cairn_landmarks_current(lm));
  cairn_grid_set_cost(g, 4, 4, 1);
  assert_int_equal(cairn_astar(s, g, pt(4, 4), pt(4, 4), &o, &r), CAIRN_ERR_STATE);
  assert_int_equal(cairn_landmarks_update(lm), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, pt(4, 4), pt(4, 4), &o, &r), CAIRN_OK);
  assert_int_equal(cairn_landmarks_count(lm), 1);
  cairn_landmarks_destroy(lm);
  cairn_landmarks_destroy(NULL);
  cairn_grid_destroy(walls);
  cairn_grid_destroy(other);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(bound_is_consistent),
      tu_with_search(equals_dijkstra_on_random_maps),
      tu_with_search(holds_under_every_option),
      tu_with_search(follows_edits_through_updates),
      tu_with_search(sliced_equals_blocking),
      tu_with_search(expands_fewer),
      tu_with_search(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
