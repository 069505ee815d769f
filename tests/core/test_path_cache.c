/* Shared paths (cairn_path_cache): groups of units from one region to one
 * goal on random maps get valid paths whose cost lies between Dijkstra's
 * and Dijkstra's plus the stated excess (and equals it when the excess is
 * 0, or under max_excess 0), with 8 and 4 moves, terrain, a unit size and
 * a cost layer; after random reported edits the same holds against a
 * fresh Dijkstra; an unreported edit clears the cache; the budget evicts;
 * a short buffer; the refusals; out of memory. */
#include "cairn_save.h"
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP 8192

typedef struct tally {
  long searched, walked, joined, excess;
} tally;

/* One request checked against Dijkstra under the cache's search options. */
static void check_one(cairn_path_cache *pc, cairn_search *s, const cairn_grid *g,
                      const cairn_path_cache_opts *o, cairn_point a, cairn_point b, tally *t) {
  static cairn_point path[CAP];
  cairn_cached_path got;
  const cairn_status st = cairn_path_cache_find(pc, s, a, b, path, CAP, &got);
  cairn_search_opts so = o->search;
  if (so.moves == 4) so.heuristic = CAIRN_H_MANHATTAN;
  const cairn_result want = tu_dijkstra(s, g, a, b, &so);
  if (want.status == CAIRN_NO_PATH) {
    assert_int_equal(st, CAIRN_NO_PATH);
    return;
  }
  assert_int_equal(want.status, CAIRN_OK);
  assert_int_equal(st, CAIRN_OK);
  assert_int_equal(got.status, CAIRN_OK);
  /* walk the path on the grid a unit of this size moves on */
  const int k = o->search.size > 1 ? o->search.size : 1;
  cairn_grid *moves_on = k > 1 ? tu_eroded(g, k) : NULL;
  const cairn_cost terrain =
      tu_path_cost(moves_on ? moves_on : g, path, got.len, a, b, o->search.moves);
  cairn_grid_destroy(moves_on);
  if (!o->search.penalty) assert_int_equal(terrain, got.cost);
  assert_true(got.cost >= want.cost);
  assert_true(got.cost <= want.cost + got.excess);
  if (o->max_excess == 0) assert_int_equal(got.excess, 0);
  if (got.excess == 0) assert_int_equal(got.cost, want.cost);
  if (got.how == CAIRN_CACHE_SEARCHED) t->searched++;
  else if (got.how == CAIRN_CACHE_WALKED) t->walked++;
  else t->joined++;
  if (got.excess) t->excess++;
}

/* `units` requests from cells within 5 of a random centre to one random
 * goal, for `goals` goals. */
static void groups(cairn_path_cache *pc, cairn_search *s, const cairn_grid *g,
                   const cairn_path_cache_opts *o, uint64_t *rng, int goals, int units,
                   tally *t) {
  const int k = o->search.size > 1 ? o->search.size : 1;
  for (int j = 0; j < goals; j++) {
    const cairn_point b = tu_fitting(rng, g, k);
    const cairn_point c = tu_fitting(rng, g, k);
    for (int u = 0; u < units; u++) {
      cairn_point a = c;
      for (int tries = 0; tries < 50; tries++) {
        const cairn_point p = {c.x - 5 + (int32_t)tu_below(rng, 11),
                               c.y - 5 + (int32_t)tu_below(rng, 11)};
        if (cairn_grid_contains(g, p.x, p.y) && cairn_grid_clearance(g, p.x, p.y) >= k) {
          a = p;
          break;
        }
      }
      check_one(pc, s, g, o, a, b, t);
    }
  }
}

static void run_groups(void **state, int moves, int size, int max_cost, bool layer,
                       double max_excess) {
  cairn_search *s = *state;
  uint64_t rng = 77 + (uint64_t)(moves * 10 + size + max_cost);
  tally t = {0};
  for (int m = 0; m < 4; m++) {
    cairn_grid *g = tu_random_grid(&rng, 48, 40, 22, max_cost);
    cairn_penalty *pen = NULL;
    cairn_path_cache_opts o = cairn_path_cache_defaults();
    o.search.moves = moves;
    o.search.size = size;
    o.max_excess = max_excess;
    if (layer) {
      assert_int_equal(cairn_penalty_create(g, NULL, &pen), CAIRN_OK);
      for (int i = 0; i < 200; i++) {
        const cairn_point p = tu_random_open(&rng, g);
        const int64_t extra = (int64_t)(1 + tu_below(&rng, 3)) * (int64_t)CAIRN_COST_ONE;
        assert_int_equal(cairn_penalty_add(pen, p.x, p.y, extra), CAIRN_OK);
      }
      o.search.penalty = pen;
    }
    cairn_path_cache *pc = NULL;
    assert_int_equal(cairn_path_cache_create(g, &o, NULL, &pc), CAIRN_OK);
    groups(pc, s, g, &o, &rng, 4, 20, &t);
    cairn_path_cache_destroy(pc);
    cairn_penalty_destroy(pen);
    cairn_grid_destroy(g);
  }
  /* the cache must have shared: most units of a group walk or join (only
   * those that stand on a route, or join where the floor proves it exact,
   * when every answer must be exact) */
  if (max_excess == 0) {
    assert_int_equal(t.excess, 0);
    assert_true(t.walked + t.joined > 0);
  } else {
    assert_true(t.walked + t.joined > t.searched);
  }
}

static void groups_8(void **state) { run_groups(state, 8, 1, 1, false, -1); }
static void groups_4(void **state) { run_groups(state, 4, 1, 1, false, -1); }
static void groups_terrain(void **state) { run_groups(state, 8, 1, 5, false, -1); }
static void groups_size_2(void **state) { run_groups(state, 8, 2, 3, false, -1); }
static void groups_layer(void **state) { run_groups(state, 8, 1, 2, true, -1); }
static void groups_exact(void **state) { run_groups(state, 8, 1, 3, false, 0); }

/* Random edits, each reported: every answer after them stays within its
 * bound of a fresh Dijkstra's; an edit on a stored path drops its route. */
static void reported_edits(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 5;
  cairn_grid *g = tu_random_grid(&rng, 40, 40, 20, 3);
  cairn_path_cache_opts o = cairn_path_cache_defaults();
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, &o, NULL, &pc), CAIRN_OK);
  tally t = {0};
  const cairn_point goal = tu_random_open(&rng, g);
  for (int round = 0; round < 30; round++) {
    for (int u = 0; u < 8; u++) check_one(pc, s, g, &o, tu_random_open(&rng, g), goal, &t);
    const cairn_rect r = {(int32_t)tu_below(&rng, 38), (int32_t)tu_below(&rng, 38),
                          1 + (int32_t)tu_below(&rng, 2), 1 + (int32_t)tu_below(&rng, 2)};
    const uint8_t cost = (uint8_t)tu_below(&rng, 4); /* 0 blocks */
    for (int32_t y = r.y; y < r.y + r.h; y++)
      for (int32_t x = r.x; x < r.x + r.w; x++)
        if (!(x == goal.x && y == goal.y)) assert_int_equal(cairn_grid_set_cost(g, x, y, cost), CAIRN_OK);
    assert_int_equal(cairn_path_cache_edited(pc, r), CAIRN_OK);
  }
  cairn_path_cache_stats st;
  assert_int_equal(cairn_path_cache_get_stats(pc, &st), CAIRN_OK);
  assert_true(st.dropped > 0);
  assert_int_equal(st.cleared, 0);
  assert_true(t.walked + t.joined > 0);
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
}

/* An edit on the route drops it; one far from it, that cannot shorten it,
 * keeps it; one nobody reported clears everything. */
static void which_edits_drop(void **state) {
  cairn_search *s = *state;
  static const char *const rows[] = {
      "....................",
      "....................",
      "....................",
      "....................",
      "....................",
      "....................",
  };
  cairn_grid *g = tu_grid(rows, 6);
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &pc), CAIRN_OK);
  cairn_point path[64];
  cairn_cached_path got;
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(10, 0), path, 64, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_SEARCHED);
  assert_int_equal(got.cost, 10 * CAIRN_COST_ONE);
  /* far from the route (row 5, columns 15..19): a detour there costs more */
  assert_int_equal(cairn_grid_set_cost(g, 18, 5, 3), CAIRN_OK);
  assert_int_equal(cairn_path_cache_edited(pc, (cairn_rect){18, 5, 1, 1}), CAIRN_OK);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(10, 0), path, 64, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_WALKED);
  /* on the route: dropped, searched again, around the wall */
  assert_int_equal(cairn_grid_set_cost(g, 5, 0, 0), CAIRN_OK);
  assert_int_equal(cairn_path_cache_edited(pc, (cairn_rect){5, 0, 1, 1}), CAIRN_OK);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(10, 0), path, 64, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_SEARCHED);
  assert_int_equal(got.cost, 8 * CAIRN_COST_ONE + 2 * CAIRN_COST_DIAG);
  /* unreported */
  assert_int_equal(cairn_grid_set_cost(g, 19, 5, 2), CAIRN_OK);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(10, 0), path, 64, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_SEARCHED);
  cairn_path_cache_stats st;
  assert_int_equal(cairn_path_cache_get_stats(pc, &st), CAIRN_OK);
  assert_int_equal(st.dropped, 1);
  assert_int_equal(st.cleared, 1);
  assert_int_equal(st.routes, 1);
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
}

/* Opening a wall beside a route, off it, could make a shorter one: the
 * route is dropped and the answer searched again, straight through. */
static void opening_drops(void **state) {
  cairn_search *s = *state;
  static const char *const rows[] = {
      "..........", "....#.....", "....#.....", "....#.....", "..........",
  };
  cairn_grid *g = tu_grid(rows, 5);
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &pc), CAIRN_OK);
  cairn_point path[64];
  cairn_cached_path got;
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 2), pt(9, 2), path, 64, &got), CAIRN_OK);
  assert_true(got.cost > 9 * CAIRN_COST_ONE);
  assert_int_equal(cairn_grid_set_cost(g, 4, 2, 1), CAIRN_OK);
  assert_int_equal(cairn_path_cache_edited(pc, (cairn_rect){4, 2, 1, 1}), CAIRN_OK);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 2), pt(9, 2), path, 64, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_SEARCHED);
  assert_int_equal(got.cost, 9 * CAIRN_COST_ONE);
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
}

/* A unit one step beside a stored route joins it; with the join radius 0
 * it searches; the stated excess is the walk there and back. */
static void join_and_bound(void **state) {
  cairn_search *s = *state;
  static const char *const rows[] = {
      "..........",
      "..........",
      "..........",
  };
  cairn_grid *g = tu_grid(rows, 3);
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &pc), CAIRN_OK);
  cairn_point path[64];
  cairn_cached_path got;
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(9, 0), path, 64, &got), CAIRN_OK);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(3, 2), pt(9, 0), path, 64, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_JOINED);
  /* two steps up to (3, 0) and on: 8 straight steps where 4 straight and
   * 2 diagonal ones are cheapest. The join's bound (both ways of it, 4)
   * loses to the floor (8 less the octile distance), exact on open ground */
  assert_int_equal(got.cost, 8 * CAIRN_COST_ONE);
  assert_int_equal(got.excess, 4 * CAIRN_COST_ONE - 2 * CAIRN_COST_DIAG);
  assert_true(got.cost <= 4 * CAIRN_COST_ONE + 2 * CAIRN_COST_DIAG + got.excess);
  /* the joined steps are on the route now */
  assert_int_equal(cairn_path_cache_find(pc, s, pt(3, 1), pt(9, 0), path, 64, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_WALKED);
  cairn_path_cache_destroy(pc);
  cairn_path_cache_opts o = cairn_path_cache_defaults();
  o.join_radius = 0;
  assert_int_equal(cairn_path_cache_create(g, &o, NULL, &pc), CAIRN_OK);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(9, 0), path, 64, &got), CAIRN_OK);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(3, 2), pt(9, 0), path, 64, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_SEARCHED);
  assert_int_equal(got.cost, 4 * CAIRN_COST_ONE + 2 * CAIRN_COST_DIAG);
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
}

/* A small budget: routes are evicted, the bytes stay within it, and the
 * answers stay right. */
static void budget(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 12;
  cairn_grid *g = tu_random_grid(&rng, 64, 64, 15, 1);
  cairn_path_cache_opts o = cairn_path_cache_defaults();
  o.budget = 4096;
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, &o, NULL, &pc), CAIRN_OK);
  tally t = {0};
  groups(pc, s, g, &o, &rng, 12, 4, &t);
  cairn_path_cache_stats st;
  assert_int_equal(cairn_path_cache_get_stats(pc, &st), CAIRN_OK);
  assert_true(st.evicted > 0);
  assert_true(st.bytes <= o.budget);
  assert_true(st.routes >= 1);
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
}

/* A buffer too short: CAIRN_ERR_BUFFER with the length; the retry walks
 * the kept route. */
static void short_buffer(void **state) {
  cairn_search *s = *state;
  static const char *const rows[] = {"........"};
  cairn_grid *g = tu_grid(rows, 1);
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &pc), CAIRN_OK);
  cairn_point path[8];
  cairn_cached_path got;
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(7, 0), path, 3, &got),
                   CAIRN_ERR_BUFFER);
  assert_int_equal(got.len, 8);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(7, 0), path, 8, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_WALKED);
  assert_int_equal(path[7].x, 7);
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  cairn_search *s = *state;
  static const char *const rows[] = {"..#.", "...."};
  cairn_grid *g = tu_grid(rows, 2);
  cairn_path_cache *pc = NULL;
  cairn_path_cache_opts o = cairn_path_cache_defaults();
  assert_int_equal(cairn_path_cache_create(NULL, NULL, NULL, &pc), CAIRN_ERR_ARG);
  assert_null(pc);
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, NULL), CAIRN_ERR_ARG);
  cairn_path_cache_opts bad[8] = {o, o, o, o, o, o, o, o};
  bad[0].budget = 100;
  bad[1].join_radius = -1;
  bad[2].search.weight = 2;
  bad[3].search.turn_penalty = 1;
  bad[4].search.moves = 6;
  bad[5].search.max_expanded = 10;
  bad[6].join_radius = NAN;
  bad[7].max_excess = NAN;
  for (int i = 0; i < 8; i++) assert_int_equal(cairn_path_cache_create(g, &bad[i], NULL, &pc), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &pc), CAIRN_OK);
  cairn_point path[16];
  cairn_cached_path got;
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(9, 0), path, 16, &got), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(-1, 0), pt(1, 0), path, 16, &got), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(2, 0), pt(1, 0), path, 16, &got), CAIRN_ERR_BLOCKED);
  assert_int_equal(got.status, CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_path_cache_find(pc, NULL, pt(0, 0), pt(1, 0), path, 16, &got), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(1, 0), NULL, 16, &got), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(1, 0), path, 16, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_edited(NULL, (cairn_rect){0, 0, 1, 1}), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_get_stats(pc, NULL), CAIRN_ERR_ARG);
  /* a size the map has no room for */
  cairn_path_cache_destroy(pc);
  o.search.size = 3;
  assert_int_equal(cairn_path_cache_create(g, &o, NULL, &pc), CAIRN_OK);
  assert_int_equal(cairn_path_cache_find(pc, s, pt(0, 0), pt(1, 0), path, 16, &got), CAIRN_ERR_BLOCKED);
  cairn_path_cache_destroy(pc);
  cairn_path_cache_destroy(NULL);
  cairn_path_cache_clear(NULL);
  cairn_grid_destroy(g);
}

/* A cache with a few routes on g: groups of units to three goals. */
static cairn_path_cache *filled_with(cairn_search *s, const cairn_grid *g, uint64_t seed,
                                     int goals) {
  cairn_path_cache *pc = NULL;
  cairn_path_cache_opts o = cairn_path_cache_defaults();
  assert_int_equal(cairn_path_cache_create(g, &o, NULL, &pc), CAIRN_OK);
  tally t = {0};
  groups(pc, s, g, &o, &seed, goals, 10, &t);
  return pc;
}

static cairn_path_cache *filled(cairn_search *s, const cairn_grid *g, uint64_t seed) {
  return filled_with(s, g, seed, 3);
}

static unsigned char *saved(const cairn_path_cache *pc, size_t *len) {
  assert_int_equal(cairn_path_cache_save(pc, NULL, 0, len), CAIRN_ERR_BUFFER);
  unsigned char *buf = malloc(*len);
  assert_non_null(buf);
  size_t again = 0;
  assert_int_equal(cairn_path_cache_save(pc, buf, *len - 1, &again), CAIRN_ERR_BUFFER);
  assert_int_equal(cairn_path_cache_save(pc, buf, *len, &again), CAIRN_OK);
  assert_int_equal(again, *len);
  return buf;
}

/* Saved and loaded routes answer every stored cell as the originals do:
 * the same path, cost and bound, by walking. */
static void save_and_load(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 31;
  cairn_grid *g = tu_random_grid(&rng, 40, 30, 20, 3);
  cairn_path_cache *a = filled(s, g, 8);
  size_t len = 0;
  unsigned char *buf = saved(a, &len);
  cairn_path_cache *b = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &b), CAIRN_OK);
  assert_int_equal(cairn_path_cache_load(b, buf, len), CAIRN_OK);
  cairn_path_cache_stats sa, sb;
  cairn_path_cache_get_stats(a, &sa);
  cairn_path_cache_get_stats(b, &sb);
  assert_int_equal(sa.routes, sb.routes);
  assert_int_equal(sa.cells, sb.cells);
  assert_true(sa.routes >= 2);
  /* every cell of every saved route, towards its goal (read from the
   * file's bytes): walked by both caches, alike */
  static cairn_point pa[CAP], pb[CAP];
  long walked = 0;
  size_t at = 40; /* past the header */
  for (uint32_t r = 0; r < sa.routes; r++) {
    const uint32_t goal = cairn__le32(buf + at), n = cairn__le32(buf + at + 4);
    at += 8;
    const cairn_point gp = pt((int32_t)(goal % 40), (int32_t)(goal / 40));
    for (uint32_t i = 0; i < n; i++, at += 24) {
      const uint32_t c = cairn__le32(buf + at);
      const cairn_point cp = pt((int32_t)(c % 40), (int32_t)(c / 40));
      cairn_cached_path ga, gb;
      assert_int_equal(cairn_path_cache_find(a, s, cp, gp, pa, CAP, &ga), CAIRN_OK);
      assert_int_equal(cairn_path_cache_find(b, s, cp, gp, pb, CAP, &gb), CAIRN_OK);
      assert_int_equal(ga.how, CAIRN_CACHE_WALKED);
      assert_int_equal(gb.how, CAIRN_CACHE_WALKED);
      assert_int_equal(ga.cost, gb.cost);
      assert_int_equal(ga.excess, gb.excess);
      assert_int_equal(ga.len, gb.len);
      assert_memory_equal(pa, pb, ga.len * sizeof *pa);
      walked++;
    }
  }
  assert_true(walked > 20);
  cairn_path_cache_destroy(a);
  cairn_path_cache_destroy(b);
  free(buf);
  cairn_grid_destroy(g);
}

/* Rewrites the checksum of a changed save, so that the checks behind it
 * are reached. */
static void rehash(unsigned char *buf, size_t len) {
  cairn__hash h;
  cairn__hash_init(&h);
  cairn__hash_add(&h, buf, len - 8);
  const uint64_t v = cairn__hash_end(&h);
  for (int i = 0; i < 8; i++) buf[len - 8 + (size_t)i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *b, uint32_t v) {
  for (int i = 0; i < 4; i++) b[i] = (unsigned char)(v >> (8 * i));
}

/* Truncated, corrupt, inconsistent, of another grid or unit: refused
 * with the right status, and the cache keeps what it held. */
static void bad_saves(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 41;
  cairn_grid *g = tu_random_grid(&rng, 40, 30, 20, 3);
  cairn_path_cache *a = filled(s, g, 9);
  size_t len = 0;
  unsigned char *buf = saved(a, &len);
  cairn_path_cache *b = filled(s, g, 10);
  cairn_path_cache_stats before, after;
  cairn_path_cache_get_stats(b, &before);
  for (size_t n = 0; n < len; n += 1 + n / 8)
    assert_int_equal(cairn_path_cache_load(b, buf, n), CAIRN_ERR_PARSE);
  for (size_t i = 0; i < len; i += 1 + i / 16) {
    buf[i] ^= 0x10;
    assert_int_equal(cairn_path_cache_load(b, buf, len), CAIRN_ERR_PARSE);
    buf[i] ^= 0x10;
  }
  /* consistent checksums over inconsistent routes (at the first route's
   * node 1, node 0 being its goal): a cost below its steps, a loop, a
   * cell off the grid, a second goal */
  const size_t node1 = 40 + 8 + 24;
  static const size_t fields[4] = {8, 4, 0, 4};
  const uint32_t values[4] = {0, 1, 40u * 30u, UINT32_MAX};
  for (int k = 0; k < 4; k++) {
    unsigned char *bad = malloc(len);
    assert_non_null(bad);
    memcpy(bad, buf, len);
    if (k == 0) memset(bad + node1 + fields[k], 0, 8);
    else put32(bad + node1 + fields[k], values[k]);
    if (k == 1) put32(bad + node1 + 4, 1); /* node 1 -> node 1 */
    rehash(bad, len);
    assert_int_equal(cairn_path_cache_load(b, bad, len), CAIRN_ERR_PARSE);
    free(bad);
  }
  cairn_path_cache_get_stats(b, &after);
  assert_int_equal(before.routes, after.routes);
  assert_int_equal(before.cells, after.cells);
  /* another unit size, other moves, another terrain */
  cairn_path_cache_opts o = cairn_path_cache_defaults();
  o.search.size = 2;
  cairn_path_cache *c = NULL;
  assert_int_equal(cairn_path_cache_create(g, &o, NULL, &c), CAIRN_OK);
  assert_int_equal(cairn_path_cache_load(c, buf, len), CAIRN_ERR_MISMATCH);
  cairn_path_cache_destroy(c);
  o = cairn_path_cache_defaults();
  o.search.moves = 4;
  assert_int_equal(cairn_path_cache_create(g, &o, NULL, &c), CAIRN_OK);
  assert_int_equal(cairn_path_cache_load(c, buf, len), CAIRN_ERR_MISMATCH);
  cairn_path_cache_destroy(c);
  /* more routes than a small budget holds */
  cairn_path_cache *many = filled_with(s, g, 12, 16);
  size_t many_len = 0;
  unsigned char *many_buf = saved(many, &many_len);
  o = cairn_path_cache_defaults();
  o.budget = 4096;
  assert_int_equal(cairn_path_cache_create(g, &o, NULL, &c), CAIRN_OK);
  assert_int_equal(cairn_path_cache_load(c, many_buf, many_len), CAIRN_ERR_TOO_LARGE);
  cairn_path_cache_destroy(c);
  cairn_path_cache_destroy(many);
  free(many_buf);
  const cairn_point p = tu_random_open(&rng, g);
  assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, cairn_grid_cost(g, p.x, p.y) % 3 + 1),
                   CAIRN_OK);
  assert_int_equal(cairn_path_cache_load(b, buf, len), CAIRN_ERR_MISMATCH);
  assert_int_equal(cairn_path_cache_load(NULL, buf, len), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_load(b, NULL, len), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_save(NULL, buf, len, &len), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_save(b, buf, len, NULL), CAIRN_ERR_ARG);
  cairn_path_cache_destroy(a);
  cairn_path_cache_destroy(b);
  free(buf);
  cairn_grid_destroy(g);
}

typedef struct load_ctx {
  const cairn_grid *g;
  const unsigned char *buf;
  size_t len;
} load_ctx;

static cairn_status load_some(void *ctx, const cairn_allocator *alloc) {
  const load_ctx *c = ctx;
  cairn_path_cache *pc = NULL;
  cairn_status st = cairn_path_cache_create(c->g, NULL, alloc, &pc);
  if (st == CAIRN_OK) st = cairn_path_cache_load(pc, c->buf, c->len);
  cairn_path_cache_destroy(pc);
  return st;
}

static void load_out_of_memory(void **state) {
  uint64_t rng = 51;
  cairn_grid *g = tu_random_grid(&rng, 40, 30, 20, 3);
  cairn_path_cache *a = filled(*state, g, 11);
  size_t len = 0;
  unsigned char *buf = saved(a, &len);
  load_ctx c = {g, buf, len};
  tu_oom_check("path_cache_load", load_some, &c, 4);
  cairn_path_cache_destroy(a);
  free(buf);
  cairn_grid_destroy(g);
}

typedef struct oom_ctx {
  cairn_grid *g;
  cairn_search *s;
} oom_ctx;

/* A route, a join onto it, a second goal: NOMEM unless all were stored. */
static cairn_status requests(void *ctx, const cairn_allocator *alloc) {
  const oom_ctx *c = ctx;
  cairn_path_cache *pc = NULL;
  cairn_status st = cairn_path_cache_create(c->g, NULL, alloc, &pc);
  if (st != CAIRN_OK) return st;
  cairn_point path[256];
  cairn_cached_path got;
  const cairn_point from[3] = {{0, 0}, {2, 3}, {0, 0}}, to[3] = {{30, 10}, {30, 10}, {5, 12}};
  for (int i = 0; i < 3 && st == CAIRN_OK; i++)
    st = cairn_path_cache_find(pc, c->s, from[i], to[i], path, 256, &got);
  cairn_path_cache_stats stats;
  cairn_path_cache_get_stats(pc, &stats);
  if (st == CAIRN_OK && (stats.routes != 2 || stats.joined != 1)) st = CAIRN_ERR_NOMEM;
  cairn_path_cache_destroy(pc);
  return st;
}

static void out_of_memory(void **state) {
  static const char *const rows[] = {
      "................................", "................................",
      "........#########...............", "................#...............",
      "................#...............", "................#...............",
      "................#...............", "................#...............",
      "................................", "................................",
      "................................", "................................",
      "................................",
  };
  oom_ctx c = {tu_grid(rows, 13), *state};
  tu_oom_check("path_cache", requests, &c, 6);
  cairn_grid_destroy(c.g);
}

/* One request through lookup, and on a miss the caller's own A* handed
 * in with store: the same answer find gives from a twin cache (found),
 * path for path, whether walked, joined or searched. */
static void lookup_like_find(cairn_path_cache *pc, cairn_path_cache *twin, cairn_search *s,
                             const cairn_grid *g, const cairn_path_cache_opts *o, cairn_point a,
                             cairn_point b, long *missed) {
  static cairn_point mine[CAP], theirs[CAP];
  cairn_cached_path got, want;
  const cairn_status tw = cairn_path_cache_find(twin, s, a, b, theirs, CAP, &want);
  cairn_status st = cairn_path_cache_lookup(pc, s, a, b, mine, CAP, &got);
  if (st == CAIRN_PARTIAL) {
    assert_int_equal(got.how, CAIRN_CACHE_MISSED);
    assert_int_equal(want.how, CAIRN_CACHE_SEARCHED);
    (*missed)++;
    cairn_result res;
    st = cairn_astar(s, g, a, b, &o->search, &res);
    if (st == CAIRN_OK) {
      assert_int_equal(cairn_path_cache_store(pc, res.path, res.path_len), CAIRN_OK);
      memcpy(mine, res.path, res.path_len * sizeof *mine);
      got.len = res.path_len;
      got.cost = res.cost;
      got.excess = 0;
    }
  } else {
    assert_int_equal(got.how, want.how);
    assert_int_equal(got.excess, want.excess);
  }
  assert_int_equal(st, tw);
  if (st != CAIRN_OK) return;
  assert_int_equal(got.cost, want.cost);
  assert_int_equal(got.len, want.len);
  assert_memory_equal(mine, theirs, got.len * sizeof *mine);
}

/* Lookups with the caller's searches stored give find's answers, over
 * groups on random maps with terrain and a unit size; misses are counted;
 * a lookup on an empty cache misses and writes nothing. */
static void lookup_and_store(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 4242;
  for (int m = 0; m < 4; m++) {
    cairn_grid *g = tu_random_grid(&rng, 48, 40, 22, m < 2 ? 1 : 4);
    cairn_path_cache_opts o = cairn_path_cache_defaults();
    o.search.size = m % 2 ? 2 : 1;
    cairn_path_cache *pc = NULL, *twin = NULL;
    assert_int_equal(cairn_path_cache_create(g, &o, NULL, &pc), CAIRN_OK);
    assert_int_equal(cairn_path_cache_create(g, &o, NULL, &twin), CAIRN_OK);
    long missed = 0, asked = 0;
    for (int j = 0; j < 4; j++) {
      const cairn_point b = tu_fitting(&rng, g, o.search.size);
      const cairn_point c = tu_fitting(&rng, g, o.search.size);
      for (int u = 0; u < 15; u++, asked++) {
        cairn_point a = c;
        const cairn_point p = {c.x - 4 + (int32_t)tu_below(&rng, 9), c.y - 4 + (int32_t)tu_below(&rng, 9)};
        if (cairn_grid_contains(g, p.x, p.y) && cairn_grid_clearance(g, p.x, p.y) >= o.search.size) a = p;
        lookup_like_find(pc, twin, s, g, &o, a, b, &missed);
      }
    }
    cairn_path_cache_stats st;
    assert_int_equal(cairn_path_cache_get_stats(pc, &st), CAIRN_OK);
    assert_int_equal((long)st.missed, missed);
    assert_true(st.stored <= st.missed);
    assert_int_equal(st.searched, 0);
    cairn_path_cache_stats tw;
    assert_int_equal(cairn_path_cache_get_stats(twin, &tw), CAIRN_OK);
    assert_int_equal((long)tw.searched, missed); /* a miss where find searched */
    if (o.search.size == 1) assert_true(missed < asked / 4); /* most walked or joined */
    cairn_path_cache_destroy(pc);
    cairn_path_cache_destroy(twin);
    cairn_grid_destroy(g);
  }
}

/* What store and lookup refuse, and what the getters give. */
static void store_refusals(void **state) {
  cairn_search *s = *state;
  static const char *const rows[] = {"..#.", "...."};
  cairn_grid *g = tu_grid(rows, 2);
  cairn_penalty *pen = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &pen), CAIRN_OK);
  assert_int_equal(cairn_penalty_block(pen, 3, 1, 1), CAIRN_OK);
  cairn_path_cache_opts o = cairn_path_cache_defaults();
  o.search.penalty = pen;
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, &o, NULL, &pc), CAIRN_OK);
  assert_ptr_equal(cairn_path_cache_grid(pc), g);
  assert_null(cairn_path_cache_grid(NULL));
  cairn_path_cache_opts back;
  assert_int_equal(cairn_path_cache_get_opts(pc, &back), CAIRN_OK);
  assert_ptr_equal(back.search.penalty, pen);
  assert_int_equal(back.search.moves, 8);
  assert_int_equal(cairn_path_cache_get_opts(pc, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_get_opts(NULL, &back), CAIRN_ERR_ARG);
  cairn_point path[8] = {{0, 0}, {1, 0}, {1, 1}};
  cairn_cached_path got;
  assert_int_equal(cairn_path_cache_lookup(pc, s, pt(0, 0), pt(1, 1), path, 8, &got), CAIRN_PARTIAL);
  assert_int_equal(got.how, CAIRN_CACHE_MISSED);
  assert_int_equal(got.len, 0);
  assert_int_equal(path[0].x, 0); /* nothing written */
  assert_int_equal(path[2].y, 1);
  assert_int_equal(cairn_path_cache_lookup(pc, s, pt(2, 0), pt(1, 1), path, 8, &got), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_path_cache_lookup(pc, NULL, pt(0, 0), pt(1, 1), path, 8, &got), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_lookup(pc, s, pt(0, 0), pt(1, 1), path, 8, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_store(NULL, path, 3), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_store(pc, NULL, 3), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_store(pc, path, 0), CAIRN_ERR_ARG);
  const cairn_point jump[2] = {{0, 0}, {0, 2}}, off[2] = {{0, 1}, {-1, 1}};
  const cairn_point wall[2] = {{1, 0}, {2, 0}}, layer[2] = {{2, 1}, {3, 1}};
  const cairn_point corner[2] = {{1, 1}, {2, 0}}; /* cuts the wall's corner */
  assert_int_equal(cairn_path_cache_store(pc, jump, 2), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_path_cache_store(pc, off, 2), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_path_cache_store(pc, wall, 2), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_path_cache_store(pc, layer, 2), CAIRN_ERR_ARG);
  assert_int_equal(cairn_path_cache_store(pc, corner, 2), CAIRN_ERR_BLOCKED);
  const cairn_point apart[2] = {{0, 0}, {0, 1}}, far[2] = {{0, 1}, {2, 1}};
  assert_int_equal(cairn_path_cache_store(pc, far, 2), CAIRN_ERR_ARG);
  cairn_path_cache_stats st;
  assert_int_equal(cairn_path_cache_get_stats(pc, &st), CAIRN_OK);
  assert_int_equal(st.stored, 0);
  assert_int_equal(st.routes, 0);
  /* a stored path is walked from any of its cells */
  assert_int_equal(cairn_path_cache_store(pc, apart, 2), CAIRN_OK);
  assert_int_equal(cairn_path_cache_lookup(pc, s, pt(0, 0), pt(0, 1), path, 8, &got), CAIRN_OK);
  assert_int_equal(got.how, CAIRN_CACHE_WALKED);
  assert_int_equal(got.len, 2);
  assert_int_equal(got.cost, CAIRN_COST_ONE);
  cairn_path_cache_destroy(pc);
  cairn_penalty_destroy(pen);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(groups_8),       tu_with_search(groups_4),
      tu_with_search(groups_terrain), tu_with_search(groups_size_2),
      tu_with_search(groups_layer),   tu_with_search(groups_exact),
      tu_with_search(reported_edits), tu_with_search(which_edits_drop),
      tu_with_search(opening_drops),  tu_with_search(join_and_bound),
      tu_with_search(budget),
      tu_with_search(short_buffer),   tu_with_search(refusals),
      tu_with_search(out_of_memory),  tu_with_search(save_and_load),
      tu_with_search(bad_saves),      tu_with_search(load_out_of_memory),
      tu_with_search(lookup_and_store), tu_with_search(store_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
