/* Influence maps: sources of danger, carnage or torchlight that fade, written into a penalty layer. */
#include "layers_internal.h"

#include <stdlib.h>
#include <string.h>

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
  cairn_influence *m = cairn__alloc_zero(&a, sizeof *m);
  if (!m) return CAIRN_ERR_NOMEM;
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
  if (!cairn__grow(&m->alloc, (void **)&m->active, &m->cap_active,
                   m->n_active + side * side, sizeof *m->active))
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
  if (!cairn__grow(&m->alloc, (void **)&m->touched, &m->cap_touched, most ? most : 1,
                   sizeof *m->touched) ||
      !cairn__grow(&m->alloc, (void **)&m->active, &m->cap_active, most ? most : 1,
                   sizeof *m->active))
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
