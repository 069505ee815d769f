/* Penalty layers: per-cell costs (or blocks) that searches and fields pay on top of terrain, with tile versions for the repairs. */
#include "layers_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- penalty layers ------------------------------------------------- */

static size_t penalty_tiles(const cairn_penalty *p) {
  return (size_t)p->tiles_w * (size_t)p->tiles_h;
}

cairn_status cairn_penalty_create(const cairn_grid *grid,
                                  const cairn_allocator *alloc,
                                  cairn_penalty **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!grid) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_penalty *p = cairn__alloc_zero(&a, sizeof *p);
  if (!p) return CAIRN_ERR_NOMEM;
  p->alloc = a;
  p->width = grid->width;
  p->height = grid->height;
  p->stride = grid->stride;
  p->padded = grid->padded;
  p->cell = cairn__alloc(&a, p->padded * sizeof *p->cell);
  p->sum = cairn__alloc(&a, p->padded * sizeof *p->sum);
  p->blocks = cairn__alloc(&a, p->padded * sizeof *p->blocks);
  p->tiles_w = (p->width + CAIRN_PENALTY_TILE - 1) / CAIRN_PENALTY_TILE;
  p->tiles_h = (p->height + CAIRN_PENALTY_TILE - 1) / CAIRN_PENALTY_TILE;
  p->tile = cairn__alloc(&a, penalty_tiles(p) * sizeof *p->tile);
  p->stamp = cairn__alloc(&a, p->padded * sizeof *p->stamp);
  if (!p->cell || !p->sum || !p->blocks || !p->tile || !p->stamp) {
    cairn_penalty_destroy(p);
    return CAIRN_ERR_NOMEM;
  }
  memset(p->cell, 0, p->padded * sizeof *p->cell);
  memset(p->sum, 0, p->padded * sizeof *p->sum);
  memset(p->blocks, 0, p->padded * sizeof *p->blocks);
  memset(p->tile, 0, penalty_tiles(p) * sizeof *p->tile);
  memset(p->stamp, 0, p->padded * sizeof *p->stamp);
  *out = p;
  return CAIRN_OK;
}

void cairn_penalty_destroy(cairn_penalty *p) {
  if (!p) return;
  cairn_allocator a = p->alloc;
  cairn__free(&a, p->cell, p->padded * sizeof *p->cell);
  cairn__free(&a, p->sum, p->padded * sizeof *p->sum);
  cairn__free(&a, p->blocks, p->padded * sizeof *p->blocks);
  cairn__free(&a, p->tile, penalty_tiles(p) * sizeof *p->tile);
  cairn__free(&a, p->stamp, p->padded * sizeof *p->stamp);
  cairn__free(&a, p, sizeof *p);
}

void cairn_penalty_clear(cairn_penalty *p) {
  if (!p) return;
  /* every tile counts as changed, whatever it held: a clear is rare */
  p->version++;
  for (size_t t = 0; t < penalty_tiles(p); t++) p->tile[t] = p->version;
  for (size_t i = 0; i < p->padded; i++) p->stamp[i] = (uint32_t)p->version;
  memset(p->cell, 0, p->padded * sizeof *p->cell);
  memset(p->sum, 0, p->padded * sizeof *p->sum);
  memset(p->blocks, 0, p->padded * sizeof *p->blocks);
}

static bool penalty_index(const cairn_penalty *p, int32_t x, int32_t y,
                          uint32_t *i) {
  if (x < 0 || y < 0 || x >= p->width || y >= p->height) return false;
  *i = (uint32_t)(y + 1) * (uint32_t)p->stride + (uint32_t)(x + 1);
  return true;
}

/* What searches read: the block, or the sum saturated below the block.
 * A change stamps the cell's tile, for the hierarchy's refresh. */
static void penalty_refresh(cairn_penalty *p, uint32_t i) {
  uint32_t v;
  if (p->blocks[i]) v = CAIRN_PENALTY_BLOCK;
  else v = p->sum[i] > CAIRN_PENALTY_MAX ? CAIRN_PENALTY_MAX : (uint32_t)p->sum[i];
  if (v == p->cell[i]) return;
  p->cell[i] = v;
  int32_t x = (int32_t)(i % (uint32_t)p->stride) - 1, y = (int32_t)(i / (uint32_t)p->stride) - 1;
  p->tile[(size_t)(y / CAIRN_PENALTY_TILE) * (size_t)p->tiles_w + (size_t)(x / CAIRN_PENALTY_TILE)] =
      ++p->version;
  p->stamp[i] = (uint32_t)p->version;
}

uint64_t cairn_penalty_version(const cairn_penalty *p) { return p ? p->version : 0; }

size_t cairn_penalty_memory(const cairn_penalty *p) {
  if (!p) return 0;
  return sizeof *p +
         p->padded * (sizeof *p->cell + sizeof *p->sum + sizeof *p->blocks + sizeof *p->stamp) +
         penalty_tiles(p) * sizeof *p->tile;
}

uint64_t cairn_penalty_changed(const cairn_penalty *p, cairn_rect r) {
  if (!p) return 0;
  int32_t x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
  int64_t x1 = (int64_t)r.x + r.w, y1 = (int64_t)r.y + r.h;
  if (x1 > p->width) x1 = p->width;
  if (y1 > p->height) y1 = p->height;
  if (r.w <= 0 || r.h <= 0 || x0 >= x1 || y0 >= y1) return 0;
  uint64_t last = 0;
  for (int32_t ty = y0 / CAIRN_PENALTY_TILE; ty <= (int32_t)((y1 - 1) / CAIRN_PENALTY_TILE); ty++)
    for (int32_t tx = x0 / CAIRN_PENALTY_TILE; tx <= (int32_t)((x1 - 1) / CAIRN_PENALTY_TILE); tx++) {
      uint64_t v = p->tile[(size_t)ty * (size_t)p->tiles_w + (size_t)tx];
      if (v > last) last = v;
    }
  return last;
}

/* The cells of tile (tx, ty) changed after `since`, the tile's last change
 * being `last` > since. A cell's stamp holds the low 32 bits of its last
 * change's version v <= last, so last - v is (last - stamp) mod 2^32
 * whenever it is below 2^32: every cell with v > since is found, and a
 * cell with v <= since only when last - v >= 2^32 (listed too: harmless
 * for users that recompute what a cell's change may touch). */
static size_t tile_changes(const cairn_penalty *p, int32_t tx, int32_t ty,
                           uint64_t since, uint64_t last, uint32_t *out,
                           size_t n, size_t cap) {
  const bool all = last - since >= (UINT64_C(1) << 32);
  const uint32_t age = (uint32_t)(last - since), top = (uint32_t)last;
  int32_t x0 = tx * CAIRN_PENALTY_TILE, y0 = ty * CAIRN_PENALTY_TILE;
  int32_t x1 = x0 + CAIRN_PENALTY_TILE, y1 = y0 + CAIRN_PENALTY_TILE;
  if (x1 > p->width) x1 = p->width;
  if (y1 > p->height) y1 = p->height;
  for (int32_t y = y0; y < y1; y++)
    for (int32_t x = x0; x < x1; x++) {
      uint32_t i = (uint32_t)(y + 1) * (uint32_t)p->stride + (uint32_t)(x + 1);
      if (!all && (uint32_t)(top - p->stamp[i]) >= age) continue;
      if (n < cap) out[n] = i;
      n++;
    }
  return n;
}

size_t cairn_penalty_changes(const cairn_penalty *p, uint64_t since,
                             uint32_t *out, size_t cap) {
  if (!p || since >= p->version) return 0;
  if (!out) cap = 0;
  size_t n = 0;
  for (int32_t ty = 0; ty < p->tiles_h; ty++)
    for (int32_t tx = 0; tx < p->tiles_w; tx++) {
      uint64_t last = p->tile[(size_t)ty * (size_t)p->tiles_w + (size_t)tx];
      if (last > since) n = tile_changes(p, tx, ty, since, last, out, n, cap);
    }
  return n;
}

void cairn__penalty_add_at(cairn_penalty *p, uint32_t i, int64_t delta) {
  int64_t v = (int64_t)p->sum[i] + delta;
  p->sum[i] = v < 0 ? 0 : (uint64_t)v;
  penalty_refresh(p, i);
}

cairn_status cairn_penalty_add(cairn_penalty *p, int32_t x, int32_t y,
                               int64_t delta) {
  uint32_t i;
  if (!p) return CAIRN_ERR_ARG;
  if (!penalty_index(p, x, y, &i)) return CAIRN_ERR_RANGE;
  /* sums stay far below 2^62: each caller's share is at most 2^32 */
  if (delta > (int64_t)UINT32_MAX || delta < -(int64_t)UINT32_MAX) return CAIRN_ERR_ARG;
  cairn__penalty_add_at(p, i, delta);
  return CAIRN_OK;
}

cairn_status cairn_penalty_block(cairn_penalty *p, int32_t x, int32_t y,
                                 int block) {
  uint32_t i;
  if (!p) return CAIRN_ERR_ARG;
  if (!penalty_index(p, x, y, &i)) return CAIRN_ERR_RANGE;
  if (block) {
    if (p->blocks[i] == UINT32_MAX) return CAIRN_ERR_TOO_LARGE;
    p->blocks[i]++;
  } else {
    if (!p->blocks[i]) return CAIRN_ERR_STATE;
    p->blocks[i]--;
  }
  penalty_refresh(p, i);
  return CAIRN_OK;
}

const uint32_t *cairn_penalty_cells(const cairn_penalty *p, int32_t *stride) {
  if (stride) *stride = p ? p->stride : 0;
  return p ? p->cell : NULL;
}

int cairn_penalty_fits(const cairn_penalty *p, const cairn_grid *g) {
  return p && g && p->width == g->width && p->height == g->height;
}

uint32_t cairn_penalty_get(const cairn_penalty *p, int32_t x, int32_t y) {
  uint32_t i;
  if (!p || !penalty_index(p, x, y, &i)) return 0;
  return p->cell[i];
}
