/* Helpers shared by the core's grid search tests (core/test_astar.c,
 * test_bounded.c, test_fill.c): contexts and options, rectangles, and the
 * tests' own reference Dijkstra, which shares nothing with the library.
 * Header only. */
#ifndef CAIRN_TEST_SEARCH_UTIL_H
#define CAIRN_TEST_SEARCH_UTIL_H

#include "test_util.h"

#include <stdlib.h>

static inline cairn_search *new_search(void) {
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  return s;
}

static inline cairn_search_opts opts_of(cairn_heuristic h, int moves) {
  cairn_search_opts o = cairn_search_defaults();
  o.heuristic = h;
  o.moves = moves;
  return o;
}

/* ---- bounded searches, fills, traces -------------------------------- */

#define INF CAIRN_COST_INF

static inline cairn_rect rect_of(int x, int y, int w, int h) {
  cairn_rect r = {x, y, w, h};
  return r;
}

static inline int in_rect(cairn_rect r, cairn_point p) {
  return p.x >= r.x && p.x < r.x + r.w && p.y >= r.y && p.y < r.y + r.h;
}

/* A random rectangle of g at least 1 x 1 (w, h >= 1). */
static inline cairn_rect random_rect(uint64_t *rng, const cairn_grid *g) {
  int w = cairn_grid_width(g), h = cairn_grid_height(g);
  cairn_rect r;
  r.x = (int32_t)tu_below(rng, (uint32_t)w);
  r.y = (int32_t)tu_below(rng, (uint32_t)h);
  r.w = 1 + (int32_t)tu_below(rng, (uint32_t)(w - r.x));
  r.h = 1 + (int32_t)tu_below(rng, (uint32_t)(h - r.y));
  return r;
}

/* A random passable cell inside r; 0 if r has none. */
static inline int random_open_in(uint64_t *rng, const cairn_grid *g, cairn_rect r,
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
static inline cairn_grid *copy_rect(const cairn_grid *g, cairn_rect r) {
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
static inline void ref_fill(const cairn_grid *g, int moves, cairn_rect r,
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

#endif
