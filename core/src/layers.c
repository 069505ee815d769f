/* Cost layers: penalty layers and the influence maps that feed them. */
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
  cairn_penalty *p = cairn__alloc(&a, sizeof *p);
  if (!p) return CAIRN_ERR_NOMEM;
  memset(p, 0, sizeof *p);
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

/* ---- influence maps ------------------------------------------------- */

struct cairn_influence {
  cairn_allocator alloc;
  const cairn_grid *grid;
  cairn_penalty *into;
  uint32_t *value;  /* padded, what the map adds into `into` */
  uint32_t *active; /* cells with a value, in the order they got one */
  size_t n_active, cap_active;
  uint32_t *next;   /* scratch of a tick: the values after it */
  uint32_t *touched; /* scratch: cells the tick gave a value */
  size_t cap_touched;
};

cairn_status cairn_influence_create(const cairn_grid *grid, cairn_penalty *into,
                                    const cairn_allocator *alloc,
                                    cairn_influence **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!grid || !into || into->padded != grid->padded || into->stride != grid->stride)
    return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_influence *m = cairn__alloc(&a, sizeof *m);
  if (!m) return CAIRN_ERR_NOMEM;
  memset(m, 0, sizeof *m);
  m->alloc = a;
  m->grid = grid;
  m->into = into;
  m->value = cairn__alloc(&a, grid->padded * sizeof *m->value);
  m->next = cairn__alloc(&a, grid->padded * sizeof *m->next);
  if (!m->value || !m->next) {
    cairn_influence_destroy(m);
    return CAIRN_ERR_NOMEM;
  }
  memset(m->value, 0, grid->padded * sizeof *m->value);
  memset(m->next, 0, grid->padded * sizeof *m->next);
  *out = m;
  return CAIRN_OK;
}

void cairn_influence_destroy(cairn_influence *m) {
  if (!m) return;
  cairn_allocator a = m->alloc;
  for (size_t k = 0; k < m->n_active; k++)
    cairn__penalty_add_at(m->into, m->active[k], -(int64_t)m->value[m->active[k]]);
  size_t padded = m->grid->padded;
  cairn__free(&a, m->value, m->value ? padded * sizeof *m->value : 0);
  cairn__free(&a, m->next, m->next ? padded * sizeof *m->next : 0);
  cairn__free(&a, m->active, m->cap_active * sizeof *m->active);
  cairn__free(&a, m->touched, m->cap_touched * sizeof *m->touched);
  cairn__free(&a, m, sizeof *m);
}

static bool grow_list(const cairn_allocator *a, uint32_t **list, size_t *cap,
                      size_t need) {
  if (need <= *cap) return true;
  size_t c = *cap ? *cap : 256;
  while (c < need) c *= 2;
  uint32_t *l = cairn__realloc(a, *list, *cap * sizeof *l, c * sizeof *l);
  if (!l) return false;
  *list = l;
  *cap = c;
  return true;
}

/* Sets cell i's value, keeping the penalty layer and the active list. */
static void set_value(cairn_influence *m, uint32_t i, uint32_t v) {
  cairn__penalty_add_at(m->into, i, (int64_t)v - (int64_t)m->value[i]);
  m->value[i] = v;
}

/* Integer square root: the largest r with r * r <= v. */
static uint32_t isqrt(uint64_t v) {
  uint64_t r = 0, bit = (uint64_t)1 << 62;
  while (bit > v) bit >>= 2;
  while (bit) {
    if (v >= r + bit) {
      v -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return (uint32_t)r;
}

cairn_status cairn_influence_event(cairn_influence *m, int32_t x, int32_t y,
                                   int32_t radius, uint32_t amount) {
  if (!m) return CAIRN_ERR_ARG;
  const cairn_grid *g = m->grid;
  if (!cairn_grid_contains(g, x, y)) return CAIRN_ERR_RANGE;
  if (radius < 0 || radius > CAIRN_INFLUENCE_MAX_RADIUS) return CAIRN_ERR_ARG;
  /* room for every cell of the square first: then nothing fails halfway */
  size_t side = 2 * (size_t)radius + 1;
  if (!grow_list(&m->alloc, &m->active, &m->cap_active, m->n_active + side * side))
    return CAIRN_ERR_NOMEM;
  for (int32_t cy = y - radius; cy <= y + radius; cy++)
    for (int32_t cx = x - radius; cx <= x + radius; cx++) {
      if (!cairn_grid_contains(g, cx, cy)) continue;
      uint32_t i = cairn__grid_index(g, cx, cy);
      if (!g->cost[i]) continue;
      uint64_t d2 = (uint64_t)((cx - x) * (cx - x)) + (uint64_t)((cy - y) * (cy - y));
      if (d2 > (uint64_t)radius * (uint64_t)radius) continue;
      /* amount x (1 - d / (radius + 1)), d rounded down: no floats */
      uint64_t add = (uint64_t)amount * (uint64_t)(radius + 1 - (int32_t)isqrt(d2)) /
                     (uint64_t)(radius + 1);
      if (!add) continue;
      if (!m->value[i]) m->active[m->n_active++] = i;
      uint64_t v = (uint64_t)m->value[i] + add;
      set_value(m, i, v > CAIRN_PENALTY_MAX ? CAIRN_PENALTY_MAX : (uint32_t)v);
    }
  return CAIRN_OK;
}

cairn_status cairn_influence_tick(cairn_influence *m, uint32_t keep,
                                  uint32_t spread) {
  if (!m || keep > 65536 || spread > 16384) return CAIRN_ERR_ARG;
  const cairn_grid *g = m->grid;
  const int32_t off[4] = {1, -1, g->stride, -g->stride};
  /* every active cell and up to four new neighbours each */
  size_t most = m->n_active * (spread ? 5 : 1);
  if (!grow_list(&m->alloc, &m->touched, &m->cap_touched, most ? most : 1) ||
      !grow_list(&m->alloc, &m->active, &m->cap_active, most ? most : 1))
    return CAIRN_ERR_NOMEM;
  size_t n_touched = 0;
  /* the values after spreading and fading, from the values before */
  for (size_t k = 0; k < m->n_active; k++) {
    uint32_t i = m->active[k];
    uint64_t v = m->value[i], given = 0;
    if (spread)
      for (int d = 0; d < 4; d++) {
        uint32_t nb = (uint32_t)((int32_t)i + off[d]);
        if (!g->cost[nb]) continue;
        uint64_t share = v * spread / 65536;
        if (!share) continue;
        if (!m->next[nb] && !m->value[nb]) m->touched[n_touched++] = nb;
        uint64_t s = (uint64_t)m->next[nb] + share;
        m->next[nb] = s > CAIRN_PENALTY_MAX ? CAIRN_PENALTY_MAX : (uint32_t)s;
        given += share;
      }
    uint64_t s = (uint64_t)m->next[i] + (v - given);
    m->next[i] = s > CAIRN_PENALTY_MAX ? CAIRN_PENALTY_MAX : (uint32_t)s;
  }
  /* fade, write back, and keep the cells that still hold something: the
   * old active cells in their order (compacted in place), then the new
   * ones in theirs */
  size_t n = 0;
  for (size_t k = 0; k < m->n_active; k++) {
    uint32_t i = m->active[k];
    set_value(m, i, (uint32_t)((uint64_t)m->next[i] * keep / 65536));
    m->next[i] = 0;
    if (m->value[i]) m->active[n++] = i;
  }
  for (size_t k = 0; k < n_touched; k++) {
    uint32_t i = m->touched[k];
    set_value(m, i, (uint32_t)((uint64_t)m->next[i] * keep / 65536));
    m->next[i] = 0;
    if (m->value[i]) m->active[n++] = i;
  }
  m->n_active = n;
  return CAIRN_OK;
}

uint32_t cairn_influence_get(const cairn_influence *m, int32_t x, int32_t y) {
  if (!m || !cairn_grid_contains(m->grid, x, y)) return 0;
  return m->value[cairn__grid_index(m->grid, x, y)];
}

size_t cairn_influence_active(const cairn_influence *m) {
  return m ? m->n_active : 0;
}

/* ---- claimed cells -------------------------------------------------- */

cairn_status cairn_claims_create(const cairn_grid *grid,
                                 const cairn_allocator *alloc,
                                 cairn_claims **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!grid) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_claims *c = cairn__alloc(&a, sizeof *c);
  if (!c) return CAIRN_ERR_NOMEM;
  memset(c, 0, sizeof *c);
  c->alloc = a;
  c->grid = grid;
  c->count = cairn__alloc(&a, grid->padded * sizeof *c->count);
  if (!c->count) {
    cairn__free(&a, c, sizeof *c);
    return CAIRN_ERR_NOMEM;
  }
  memset(c->count, 0, grid->padded * sizeof *c->count);
  *out = c;
  return CAIRN_OK;
}

void cairn_claims_destroy(cairn_claims *c) {
  if (!c) return;
  cairn_allocator a = c->alloc;
  for (size_t u = 0; u < c->n_units; u++)
    cairn__free(&a, c->unit[u].cell, c->unit[u].cap * sizeof *c->unit[u].cell);
  cairn__free(&a, c->unit, c->n_units * sizeof *c->unit);
  cairn__free(&a, c->live, c->cap_live * sizeof *c->live);
  cairn__free(&a, c->count, c->grid->padded * sizeof *c->count);
  cairn__free(&a, c, sizeof *c);
}

/* Takes unit u's claims off the counts (its set stays allocated). */
static void claims_drop(cairn_claims *c, uint32_t u) {
  cairn__claim_set *set = &c->unit[u];
  for (size_t k = 0; k < set->n; k++)
    if (c->count[set->cell[k]] != UINT16_MAX) c->count[set->cell[k]]--;
  set->n = 0;
  if (!set->live) return;
  set->live = false;
  for (size_t k = 0; k < c->n_live; k++)
    if (c->live[k] == u) {
      c->live[k] = c->live[--c->n_live];
      break;
    }
}

cairn_status cairn_claims_release(cairn_claims *c, uint32_t unit) {
  if (!c || unit >= CAIRN_CLAIMS_MAX_UNITS) return CAIRN_ERR_ARG;
  if (unit < c->n_units) claims_drop(c, unit);
  return CAIRN_OK;
}

/* Room for unit u's set and n of its cells, and a live slot. */
static bool claims_room(cairn_claims *c, uint32_t u, size_t n) {
  if (u >= c->n_units) {
    size_t units = c->n_units ? c->n_units : 64;
    while (units <= u) units *= 2;
    cairn__claim_set *s = cairn__realloc(&c->alloc, c->unit, c->n_units * sizeof *s,
                                         units * sizeof *s);
    if (!s) return false;
    memset(s + c->n_units, 0, (units - c->n_units) * sizeof *s);
    c->unit = s;
    c->n_units = units;
  }
  cairn__claim_set *set = &c->unit[u];
  if (n > set->cap) {
    uint32_t *cell = cairn__realloc(&c->alloc, set->cell, set->cap * sizeof *cell,
                                    n * sizeof *cell);
    if (!cell) return false;
    set->cell = cell;
    set->cap = n;
  }
  return set->live || grow_list(&c->alloc, &c->live, &c->cap_live, c->n_live + 1);
}

cairn_status cairn_claims_set(cairn_claims *c, uint32_t unit,
                              const cairn_point *cells, size_t n,
                              uint64_t until) {
  if (!c || unit >= CAIRN_CLAIMS_MAX_UNITS || (n && !cells)) return CAIRN_ERR_ARG;
  for (size_t k = 0; k < n; k++)
    if (!cairn_grid_contains(c->grid, cells[k].x, cells[k].y)) return CAIRN_ERR_RANGE;
  if (!claims_room(c, unit, n)) return CAIRN_ERR_NOMEM;
  claims_drop(c, unit);
  cairn__claim_set *set = &c->unit[unit];
  for (size_t k = 0; k < n; k++) {
    uint32_t i = cairn__grid_index(c->grid, cells[k].x, cells[k].y);
    set->cell[set->n++] = i;
    if (c->count[i] != UINT16_MAX) c->count[i]++;
  }
  set->until = until;
  if (n) {
    set->live = true;
    c->live[c->n_live++] = unit;
  }
  return CAIRN_OK;
}

size_t cairn_claims_expire(cairn_claims *c, uint64_t now) {
  if (!c) return 0;
  size_t dropped = 0;
  for (size_t k = 0; k < c->n_live;) {
    uint32_t u = c->live[k];
    if (c->unit[u].until < now) {
      claims_drop(c, u); /* moves the last live id into slot k */
      dropped++;
    } else {
      k++;
    }
  }
  return dropped;
}

uint32_t cairn_claims_count(const cairn_claims *c, int32_t x, int32_t y) {
  if (!c || !cairn_grid_contains(c->grid, x, y)) return 0;
  return c->count[cairn__grid_index(c->grid, x, y)];
}

/* ---- per-faction knowledge ------------------------------------------ */

struct cairn_knowledge {
  cairn_allocator alloc;
  const cairn_grid *truth;
  cairn_grid *known;
  uint8_t *seen; /* padded */
  uint64_t version;
  /* cells per island label of the known grid (size[0] unused), for the
   * local merge of a reveal that only opens cells; counted by every full
   * relabel (sizes_fresh false when a failed merge left them wrong) */
  uint32_t *size;
  size_t size_cap;
  bool sizes_fresh;
};

cairn_status cairn_knowledge_create(const cairn_grid *truth,
                                    uint8_t unknown_cost,
                                    const cairn_allocator *alloc,
                                    cairn_knowledge **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!truth || !unknown_cost) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_knowledge *k = cairn__alloc(&a, sizeof *k);
  if (!k) return CAIRN_ERR_NOMEM;
  memset(k, 0, sizeof *k);
  k->alloc = a;
  k->truth = truth;
  cairn_status st = cairn_grid_create(truth->width, truth->height, unknown_cost, alloc, &k->known);
  k->seen = st == CAIRN_OK ? cairn__alloc(&a, truth->padded) : NULL;
  if (st == CAIRN_OK && !k->seen) st = CAIRN_ERR_NOMEM;
  if (st != CAIRN_OK) {
    cairn_knowledge_destroy(k);
    return st;
  }
  memset(k->seen, 0, truth->padded);
  /* labelled again with sizes, for the first opening reveal's merge */
  k->sizes_fresh = cairn__grid_label_islands(k->known, &k->size, &k->size_cap) == CAIRN_OK;
  *out = k;
  return CAIRN_OK;
}

void cairn_knowledge_destroy(cairn_knowledge *k) {
  if (!k) return;
  cairn_allocator a = k->alloc;
  cairn__free(&a, k->seen, k->seen ? k->truth->padded : 0);
  cairn__free(&a, k->size, k->size_cap * sizeof *k->size);
  cairn_grid_destroy(k->known);
  cairn__free(&a, k, sizeof *k);
}

/* What the reveal of c does to passability: 0 nothing, 1 it only opens
 * cells, 2 it closes some. */
static int reveal_kind(const cairn_knowledge *k, cairn_rect c) {
  int kind = 0;
  for (int32_t y = c.y; y < c.y + c.h; y++) {
    uint32_t i = cairn__grid_index(k->truth, c.x, y);
    for (int32_t x = 0; x < c.w; x++, i++) {
      bool was = k->known->cost[i] != 0, now = k->truth->cost[i] != 0;
      if (was && !now) return 2;
      if (!was && now) kind = 1;
    }
  }
  return kind;
}

static int cmp_label(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Scratch of a merge: the cells of one group of opened cells (they lie in
 * the revealed rectangle: area entries) and the labels beside them (4 x
 * area). */
typedef struct merge_scratch {
  uint32_t *group, *touch;
  size_t area;
} merge_scratch;

/* The group of opened (open, still unlabelled) cells 4-connected to cell
 * `start` into ms->group, and the labels beside it into ms->touch, sorted;
 * returns the group's size, *nt the labels'. Marks the group with label
 * UINT32_MAX meanwhile. */
static size_t opened_group(cairn_grid *g, uint32_t start, merge_scratch *ms,
                           size_t *nt) {
  const int32_t s = g->stride;
  const int32_t off[4] = {1, -1, s, -s};
  size_t n = 0, t = 0;
  g->island[start] = UINT32_MAX;
  ms->group[n++] = start;
  for (size_t k = 0; k < n; k++)
    for (int d = 0; d < 4; d++) {
      uint32_t c = (uint32_t)((int32_t)ms->group[k] + off[d]);
      if (!g->cost[c] || g->island[c] == UINT32_MAX) continue;
      if (g->island[c]) {
        ms->touch[t++] = g->island[c];
      } else {
        g->island[c] = UINT32_MAX;
        ms->group[n++] = c;
      }
    }
  qsort(ms->touch, t, sizeof *ms->touch, cmp_label);
  *nt = t;
  return n;
}

/* One group of opened cells, and every island it touches, joins the
 * largest of those islands (ties: the lowest label), or a new label if it
 * touches none: only the group and the smaller islands are relabelled. */
static cairn_status merge_group(cairn_knowledge *k, uint32_t start, merge_scratch *ms) {
  cairn_grid *g = k->known;
  const int32_t s = g->stride;
  const int32_t off[4] = {1, -1, s, -s};
  size_t nt;
  const size_t n = opened_group(g, start, ms, &nt);
  uint32_t target = 0;
  for (size_t j = 0; j < nt; j++)
    if (!target || k->size[ms->touch[j]] > k->size[target]) target = ms->touch[j];
  if (!target) {
    cairn_status st = cairn__grid_put_size(&k->alloc, &k->size, &k->size_cap,
                                           g->island_count + 1, 0);
    if (st != CAIRN_OK) return st;
    target = ++g->island_count;
  }
  /* the flood pushes each relabelled cell once: the group and the
   * touched islands but the target */
  size_t moved = n;
  for (size_t j = 0; j < nt; j++)
    if (ms->touch[j] != target && (!j || ms->touch[j] != ms->touch[j - 1]))
      moved += k->size[ms->touch[j]];
  uint32_t *stack = cairn__alloc(&k->alloc, moved * sizeof *stack);
  if (!stack) return CAIRN_ERR_NOMEM;
  size_t top = 0;
  for (size_t j = 0; j < n; j++) {
    g->island[ms->group[j]] = target;
    stack[top++] = ms->group[j];
  }
  k->size[target] += (uint32_t)n;
  /* every open neighbour with another label lies in a touched island;
   * opened cells of later groups (label 0) are left to their own merge,
   * which then finds the target beside them. Each cell is pushed once,
   * when relabelled. */
  while (top) {
    uint32_t i = stack[--top];
    for (int d = 0; d < 4; d++) {
      uint32_t c = (uint32_t)((int32_t)i + off[d]);
      if (!g->cost[c] || !g->island[c] || g->island[c] == target) continue;
      k->size[g->island[c]]--;
      g->island[c] = target;
      k->size[target]++;
      stack[top++] = c;
    }
  }
  cairn__free(&k->alloc, stack, moved * sizeof *stack);
  return CAIRN_OK;
}

/* The islands after a reveal of c that only opened cells (the labels were
 * fresh before it), group by group of opened cells (merge_group), so a
 * door opening onto the main island costs the rooms behind it, not the
 * map. Labels stay one per island but need not be consecutive any more:
 * cairn_grid_island_count is then the largest. */
static cairn_status merge_opened(cairn_knowledge *k, cairn_rect c) {
  cairn_grid *g = k->known;
  if (!k->sizes_fresh) return CAIRN_ERR_STATE; /* the caller relabels */
  merge_scratch ms;
  ms.area = (size_t)c.w * (size_t)c.h;
  ms.group = cairn__alloc(&k->alloc, ms.area * sizeof *ms.group);
  ms.touch = cairn__alloc(&k->alloc, 4 * ms.area * sizeof *ms.touch);
  cairn_status st = ms.group && ms.touch ? CAIRN_OK : CAIRN_ERR_NOMEM;
  for (int32_t y = c.y; y < c.y + c.h && st == CAIRN_OK; y++)
    for (uint32_t i = cairn__grid_index(g, c.x, y), x = 0; x < (uint32_t)c.w && st == CAIRN_OK;
         x++, i++)
      if (g->cost[i] && !g->island[i]) st = merge_group(k, i, &ms);
  cairn__free(&k->alloc, ms.group, ms.group ? ms.area * sizeof *ms.group : 0);
  cairn__free(&k->alloc, ms.touch, ms.touch ? 4 * ms.area * sizeof *ms.touch : 0);
  if (st == CAIRN_OK) g->islands_fresh = true;
  return st;
}

cairn_status cairn_knowledge_reveal(cairn_knowledge *k, cairn_rect r,
                                    int *changed) {
  if (changed) *changed = 0;
  if (!k) return CAIRN_ERR_ARG;
  const cairn_grid *t = k->truth;
  int32_t x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
  int64_t x1 = (int64_t)r.x + r.w, y1 = (int64_t)r.y + r.h; /* exclusive */
  if (x1 > t->width) x1 = t->width;
  if (y1 > t->height) y1 = t->height;
  if (r.w <= 0 || r.h <= 0 || x1 <= x0 || y1 <= y0) return CAIRN_OK;
  cairn_rect c = {x0, y0, (int32_t)(x1 - x0), (int32_t)(y1 - y0)};
  bool differs = false;
  for (int32_t y = c.y; y < c.y + c.h && !differs; y++) {
    uint32_t i = cairn__grid_index(t, c.x, y);
    differs = memcmp(t->cost + i, k->known->cost + i, (size_t)c.w) != 0;
  }
  for (int32_t y = c.y; y < c.y + c.h; y++)
    memset(k->seen + cairn__grid_index(t, c.x, y), 1, (size_t)c.w);
  if (!differs) return CAIRN_OK;
  /* opening cells only merges islands, locally; closing may split one,
   * which takes a full relabel */
  const int kind = k->known->islands_fresh ? reveal_kind(k, c) : 2;
  cairn_status st = cairn_grid_set_rect(k->known, c, t->cost + cairn__grid_index(t, c.x, c.y),
                                        (size_t)t->stride);
  /* a merge that runs out of memory leaves the labels stale: relabel */
  if (st == CAIRN_OK && kind == 1 && merge_opened(k, c) != CAIRN_OK) k->sizes_fresh = false;
  if (st == CAIRN_OK && !k->known->islands_fresh) {
    st = cairn__grid_label_islands(k->known, &k->size, &k->size_cap);
    k->sizes_fresh = st == CAIRN_OK;
  }
  if (st != CAIRN_OK) return st;
  k->version++;
  if (changed) *changed = 1;
  return CAIRN_OK;
}

const cairn_grid *cairn_knowledge_grid(const cairn_knowledge *k) {
  return k ? k->known : NULL;
}

uint64_t cairn_knowledge_version(const cairn_knowledge *k) {
  return k ? k->version : 0;
}

int cairn_knowledge_seen(const cairn_knowledge *k, int32_t x, int32_t y) {
  if (!k || !cairn_grid_contains(k->truth, x, y)) return 0;
  return k->seen[cairn__grid_index(k->truth, x, y)];
}
