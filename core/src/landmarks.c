/* Landmark tables (cairn_landmarks): the exact costs from and to a few
 * cells, picked farthest first, that grid A* and jump point search turn
 * into a lower bound (cairn/landmarks.h; the bound itself is
 * cairn__lm_h in search_internal.h). */
#include "landmarks_internal.h"

#include "search_internal.h"

#include <string.h>

cairn_landmarks_opts cairn_landmarks_defaults(void) {
  cairn_landmarks_opts o;
  o.count = 8;
  o.active = 0;
  return o;
}

/* The padded cell the picking starts from: the open cell of the largest
 * island (when the grid's islands are fresh; else any open cell) nearest
 * the middle of the map, the lowest index on ties. UINT32_MAX if none. */
static uint32_t seed_cell(const cairn_grid *g, const cairn_allocator *a) {
  uint32_t island = 0;
  size_t labels = g->islands_fresh ? (size_t)g->island_count + 1 : 0;
  uint32_t *count = labels ? cairn__alloc_zero(a, labels * sizeof *count) : NULL;
  if (count) {
    for (size_t c = 0; c < g->padded; c++) count[g->island[c]]++;
    for (uint32_t k = 1; k < labels; k++)
      if (count[k] > count[island] || !island) island = k;
    cairn__free(a, count, labels * sizeof *count);
  }
  const int32_t mx = g->width / 2, my = g->height / 2;
  uint32_t best = UINT32_MAX;
  int32_t best_d = INT32_MAX;
  for (int32_t y = 0; y < g->height; y++)
    for (int32_t x = 0; x < g->width; x++) {
      uint32_t c = cairn__grid_index(g, x, y);
      if (!g->cost[c] || (island && g->island[c] != island)) continue;
      int32_t dx = x > mx ? x - mx : mx - x, dy = y > my ? y - my : my - y;
      int32_t d = dx > dy ? dx : dy;
      if (d < best_d) best = c, best_d = d;
    }
  return best;
}

/* One whole-map fill from padded cell c on s: from c, or towards it. */
static cairn_status fill(cairn_search *s, const cairn_grid *g, uint32_t c, int towards) {
  cairn_point p = cairn__grid_point(g, c);
  return cairn_dijkstra_fill(s, g, &p, 1, NULL, 0, towards, NULL);
}

/* The cost the last fill on s gave padded cell c, saturated to 32 bits;
 * UINT32_MAX where it did not reach. */
static uint32_t filled(const cairn_search *s, uint32_t c) {
  return cairn__is_fresh(s, c) ? UINT32_MAX : cairn__sat32(s->nodes[c].g);
}

/* Writes the last fill's costs into column `col` of every cell's row, and
 * lowers spread[c] (each cell's cost from the nearest landmark so far) to
 * them when `spread` is given. */
static void store(cairn_landmarks *lm, const cairn_search *s, uint32_t col, uint64_t *spread) {
  const size_t padded = lm->grid->padded;
  for (size_t c = 0; c < padded; c++) {
    uint32_t v = filled(s, (uint32_t)c);
    lm->d[c * lm->width + col] = v;
    if (spread && v < spread[c]) spread[c] = v;
  }
}

/* The cell whose spread[] is largest (the lowest index on ties), UINT32_MAX
 * when every cell is at 0 (all picked, or none reachable). */
static uint32_t farthest(const uint64_t *spread, size_t n) {
  uint32_t best = UINT32_MAX;
  uint64_t best_v = 0;
  for (size_t c = 0; c < n; c++)
    if (spread[c] > best_v) best = (uint32_t)c, best_v = spread[c];
  return best;
}

/* Picks and fills every landmark with s: the first is the cell farthest
 * from the seed, each next one the cell farthest from those picked so far
 * (spread[c]: c's cost from the nearest picked one), among the cells the seed
 * reaches. spread holds padded entries of scratch. Fewer than asked where
 * fewer cells are reachable. */
static cairn_status pick_and_fill(cairn_landmarks *lm, cairn_search *s, uint64_t *spread,
                                  int32_t want) {
  const cairn_grid *g = lm->grid;
  uint32_t seed = seed_cell(g, &lm->alloc);
  if (seed == UINT32_MAX) return CAIRN_NO_PATH;
  cairn_status st = fill(s, g, seed, 0);
  if (st != CAIRN_OK) return st;
  uint32_t next = seed;
  for (size_t c = 0; c < g->padded; c++) {
    const bool reached = !cairn__is_fresh(s, (uint32_t)c);
    spread[c] = reached ? UINT64_MAX : 0;
    if (reached && s->nodes[c].g > s->nodes[next].g) next = (uint32_t)c;
  }
  lm->count = 0;
  while (lm->count < want && next != UINT32_MAX) {
    const uint32_t i = (uint32_t)lm->count++;
    lm->cell[i] = next;
    if ((st = fill(s, g, next, 0)) != CAIRN_OK) return st;
    store(lm, s, i, spread);
    if (lm->back) {
      if ((st = fill(s, g, next, 1)) != CAIRN_OK) return st;
      store(lm, s, lm->back + i, NULL);
    }
    spread[next] = 0;
    next = farthest(spread, g->padded);
  }
  return CAIRN_OK;
}

static void free_table(cairn_landmarks *lm) {
  if (lm->block)
    cairn__free(&lm->alloc, lm->block, (lm->d_len + CAIRN__LM_ALIGN) * sizeof *lm->block);
  lm->block = lm->d = NULL;
  lm->d_len = 0;
}

/* Sizes the table for the grid as it is now (two-way costs on a grid of
 * several terrain costs) and fills it; the table stays refused until this
 * succeeds. */
static cairn_status build(cairn_landmarks *lm) {
  const cairn_grid *g = lm->grid;
  lm->current = false;
  const uint32_t want = (uint32_t)lm->asked;
  const bool two_way = g->distinct_costs > 1;
  const uint32_t width = two_way ? 2 * want : want;
  const size_t len = g->padded * width;
  if (len != lm->d_len) {
    uint32_t *block = cairn__alloc(&lm->alloc, (len + CAIRN__LM_ALIGN) * sizeof *block);
    if (!block) return CAIRN_ERR_NOMEM;
    free_table(lm);
    lm->block = block;
    lm->d = block + (64 - (uintptr_t)block % 64) % 64 / sizeof *block;
    lm->d_len = len;
  }
  lm->width = width;
  lm->back = two_way ? want : 0;
  cairn_search *s = NULL;
  uint64_t *spread = cairn__alloc(&lm->alloc, g->padded * sizeof *spread);
  cairn_status st = spread ? cairn_search_create(&lm->alloc, &s) : CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK) st = pick_and_fill(lm, s, spread, (int32_t)want);
  cairn_search_destroy(s);
  cairn__free(&lm->alloc, spread, g->padded * sizeof *spread);
  if (st != CAIRN_OK) return st;
  lm->version = g->edits;
  lm->current = true;
  return CAIRN_OK;
}

cairn_status cairn_landmarks_create(const cairn_grid *grid, const cairn_landmarks_opts *opts,
                                    const cairn_allocator *alloc, cairn_landmarks **out) {
  if (out) *out = NULL;
  if (!grid || !out) return CAIRN_ERR_ARG;
  cairn_landmarks_opts o = opts ? *opts : cairn_landmarks_defaults();
  if (o.count < 1 || o.count > CAIRN_LANDMARKS_MAX || o.active < 0 || o.active > o.count)
    return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_landmarks *lm = cairn__alloc_zero(&a, sizeof *lm);
  if (!lm) return CAIRN_ERR_NOMEM;
  lm->alloc = a;
  lm->grid = grid;
  lm->asked = o.count;
  lm->active = o.active;
  cairn_status st = build(lm);
  if (st != CAIRN_OK) {
    cairn_landmarks_destroy(lm);
    return st;
  }
  *out = lm;
  return CAIRN_OK;
}

void cairn_landmarks_destroy(cairn_landmarks *lm) {
  if (!lm) return;
  cairn_allocator a = lm->alloc;
  free_table(lm);
  cairn__free(&a, lm, sizeof *lm);
}

cairn_status cairn_landmarks_update(cairn_landmarks *lm) {
  return lm ? build(lm) : CAIRN_ERR_ARG;
}

int32_t cairn_landmarks_count(const cairn_landmarks *lm) { return lm ? lm->count : 0; }

cairn_status cairn_landmarks_cell(const cairn_landmarks *lm, int32_t i, cairn_point *out) {
  if (!lm || !out || i < 0 || i >= lm->count) return CAIRN_ERR_ARG;
  *out = cairn__grid_point(lm->grid, lm->cell[i]);
  return CAIRN_OK;
}

int cairn_landmarks_current(const cairn_landmarks *lm) {
  return lm && lm->current && lm->version == lm->grid->edits;
}

size_t cairn_landmarks_memory(const cairn_landmarks *lm) {
  return lm ? sizeof *lm + (lm->block ? lm->d_len + CAIRN__LM_ALIGN : 0) * sizeof *lm->d : 0;
}

cairn_status cairn__lm_begin(cairn_search *s, const cairn_grid *g, uint32_t start,
                             uint32_t goal, bool jump) {
  const cairn_landmarks *lm = s->lm;
  s->lm_used = 0;
  if (!lm) return CAIRN_OK;
  if (lm->grid != g) return CAIRN_ERR_ARG;
  if (!cairn_landmarks_current(lm)) return CAIRN_ERR_STATE;
  const uint32_t *gr = lm->d + (size_t)goal * lm->width;
  const uint32_t *sr = lm->d + (size_t)start * lm->width;
  const uint32_t n = (uint32_t)lm->count;
  uint32_t val[CAIRN_LANDMARKS_MAX], best = 0;
  for (uint32_t i = 0; i < n; i++) {
    val[i] = cairn__lm_bound(sr, i, lm->back, gr[i], gr[i + lm->back]);
    best = val[i] > best ? val[i] : best;
  }
  /* where no landmark beats the octile bound at the start (short trips on
   * open ground, mostly), the search runs without them: they would cost
   * every new node loads and bound nothing better */
  const cairn_point sp = cairn__grid_point(g, start);
  const cairn_cost oct = cairn__grid_h(s, CAIRN_H_OCTILE, sp.x + 1, sp.y + 1);
  if (best <= oct) return CAIRN_OK;
  /* the `want` best bounds at the start, the lower column on ties */
  uint32_t col[CAIRN_LANDMARKS_MAX];
  for (uint32_t k = 0; k < n; k++) {
    uint32_t v = val[k], j = k;
    for (; j > 0 && val[j - 1] < v; j--) col[j] = col[j - 1], val[j] = val[j - 1];
    col[j] = k;
    val[j] = v;
  }
  const uint32_t want = lm->active ? (uint32_t)lm->active : jump ? CAIRN__LM_JUMP_ACTIVE : n;
  s->lm_used = n < want ? n : want;
  s->lm_d = lm->d;
  s->lm_width = lm->width;
  s->lm_back = lm->back;
  for (uint32_t k = 0; k < s->lm_used; k++) {
    s->lm_col[k] = col[k];
    s->lm_from[k] = gr[col[k]];
    s->lm_to[k] = gr[col[k] + lm->back];
  }
  return CAIRN_OK;
}
