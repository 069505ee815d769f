/* Claimed cells: units claim the cells of their paths, and other units' searches pay for them. */
#include "layers_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- claimed cells -------------------------------------------------- */

cairn_status cairn_claims_create(const cairn_grid *grid,
                                 const cairn_allocator *alloc,
                                 cairn_claims **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!grid) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_claims *c = cairn__alloc_zero(&a, sizeof *c);
  if (!c) return CAIRN_ERR_NOMEM;
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

cairn_status cairn_claims_get(const cairn_claims *c, uint32_t unit,
                              cairn_point *out, size_t cap, size_t *n,
                              uint64_t *until) {
  if (!c || !n || !until || (cap && !out) || unit >= CAIRN_CLAIMS_MAX_UNITS)
    return CAIRN_ERR_ARG;
  *n = 0;
  *until = 0;
  if (unit >= c->n_units || !c->unit[unit].live) return CAIRN_OK;
  const cairn__claim_set *set = &c->unit[unit];
  *n = set->n;
  *until = set->until;
  if (cap < set->n) return CAIRN_ERR_BUFFER;
  for (size_t k = 0; k < set->n; k++) out[k] = cairn__grid_point(c->grid, set->cell[k]);
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
  return set->live || cairn__grow(&c->alloc, (void **)&c->live, &c->cap_live,
                                  c->n_live + 1, sizeof *c->live);
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
