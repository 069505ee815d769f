/* The congestion layer: the crowd's bodies counted per cell every few
 * ticks and turned into a cost the shared fields pay, on top of the
 * caller's penalty layer, so a horde spreads over the free ways instead
 * of queueing on the one cheapest. */
#include "crowd_internal.h"

#define DENSITY_CHANGES 4096 /* opts.penalty's changed cells read a call */

static void density_arrays_free(cairn_crowd *c, crowd_density *d) {
  cairn__free(&c->alloc, d->pen, d->padded * sizeof *d->pen);
  cairn__free(&c->alloc, d->base, d->padded * sizeof *d->base);
  cairn__free(&c->alloc, d->sum, d->padded * sizeof *d->sum);
  cairn__free(&c->alloc, d->live, d->list_cap * sizeof *d->live);
  cairn__free(&c->alloc, d->next, d->list_cap * sizeof *d->next);
  cairn__free(&c->alloc, d->changes, DENSITY_CHANGES * sizeof *d->changes);
}

void cairn__crowd_density_free(cairn_crowd *c) {
  crowd_density *d = c->dens;
  if (!d) return;
  cairn_penalty_destroy(d->layer);
  density_arrays_free(c, d);
  cairn__free(&c->alloc, d, sizeof *d);
  c->dens = NULL;
}

/* opts.penalty's value at padded cell i into the layer's base: the sum
 * moves by the difference, a block is mirrored as one block. */
static void mirror_cell(cairn_crowd *c, uint32_t i, uint32_t v) {
  crowd_density *d = c->dens;
  uint32_t was = d->base[i];
  if (was == v) return;
  cairn_point p = cairn__crowd_cell_at(c, i);
  int64_t old = was == CAIRN_PENALTY_BLOCK ? 0 : was, now = v == CAIRN_PENALTY_BLOCK ? 0 : v;
  if (was == CAIRN_PENALTY_BLOCK) (void)cairn_penalty_block(d->layer, p.x, p.y, 0);
  if (v == CAIRN_PENALTY_BLOCK) (void)cairn_penalty_block(d->layer, p.x, p.y, 1);
  if (now != old) (void)cairn_penalty_add(d->layer, p.x, p.y, now - old);
  d->base[i] = v;
}

/* Every cell of opts.penalty into the base (at create, or when more
 * cells changed than a call reads). */
static void mirror_all(cairn_crowd *c) {
  const uint32_t *user = cairn_penalty_cells(c->opts.penalty, NULL);
  for (int32_t y = 0; y < c->height; y++)
    for (int32_t x = 0; x < c->width; x++) {
      uint32_t i = cairn__crowd_index(c, (cairn_point){x, y});
      mirror_cell(c, i, user[i]);
    }
}

void cairn__crowd_density_mirror(cairn_crowd *c) {
  crowd_density *d = c->dens;
  if (!d || !c->opts.penalty) return;
  size_t n = cairn_penalty_changes(c->opts.penalty, c->layer_seen, d->changes, DENSITY_CHANGES);
  if (n > DENSITY_CHANGES) {
    mirror_all(c);
    return;
  }
  const uint32_t *user = cairn_penalty_cells(c->opts.penalty, NULL);
  for (size_t k = 0; k < n; k++) mirror_cell(c, d->changes[k], user[d->changes[k]]);
}

cairn_status cairn__crowd_density_init(cairn_crowd *c) {
  if (c->opts.density_gain <= 0.0f) return CAIRN_OK;
  crowd_density *d = cairn__alloc_zero(&c->alloc, sizeof *d);
  if (!d) return CAIRN_ERR_NOMEM;
  c->dens = d;
  d->padded = (size_t)c->stride * (size_t)(c->height + 2);
  d->pen = cairn__alloc_zero(&c->alloc, d->padded * sizeof *d->pen);
  d->sum = cairn__alloc_zero(&c->alloc, d->padded * sizeof *d->sum);
  /* an update touches 9 cells a body at most, and no more than there are */
  d->list_cap = (size_t)c->cap * 9 < d->padded ? (size_t)c->cap * 9 : d->padded;
  d->live = cairn__alloc_zero(&c->alloc, d->list_cap * sizeof *d->live);
  d->next = cairn__alloc_zero(&c->alloc, d->list_cap * sizeof *d->next);
  d->changes = cairn__alloc_zero(&c->alloc, DENSITY_CHANGES * sizeof *d->changes);
  if (c->opts.penalty) d->base = cairn__alloc_zero(&c->alloc, d->padded * sizeof *d->base);
  if (!d->pen || !d->sum || !d->live || !d->next || !d->changes ||
      (c->opts.penalty && !d->base))
    return CAIRN_ERR_NOMEM; /* the create's failure path frees it */
  cairn_status st = cairn_penalty_create(c->route, &c->alloc, &d->layer);
  if (st != CAIRN_OK) return st;
  if (c->opts.penalty) mirror_all(c);
  return CAIRN_OK;
}

/* The density part of a cell whose 3 x 3 block holds s bodies: gain
 * straight steps for each agent a cell the block's mean holds above the
 * comfortable level. Doubles in one fixed order: the same bits
 * everywhere (the build keeps a * b + c uncontracted). */
static uint32_t pen_of(const cairn_crowd *c, uint32_t s) {
  double over = (double)s - 9.0 * (double)c->opts.density_comfort;
  if (over <= 0.0) return 0;
  double v = (double)c->opts.density_gain * (double)CAIRN_COST_ONE * over / 9.0;
  if (v >= (double)CAIRN_PENALTY_MAX) return CAIRN_PENALTY_MAX;
  return (uint32_t)(v + 0.5);
}

/* Sets padded cell i's density part to v; 1 if it changed. */
static size_t set_pen(cairn_crowd *c, uint32_t i, uint32_t v) {
  crowd_density *d = c->dens;
  if (d->pen[i] == v) return 0;
  cairn_point p = cairn__crowd_cell_at(c, i);
  (void)cairn_penalty_add(d->layer, p.x, p.y, (int64_t)v - (int64_t)d->pen[i]);
  d->pen[i] = v;
  return 1;
}

/* Each body adds 1 to the 3 x 3 cells around its own, listing each cell
 * the first time (slot order: the same list at any thread count). */
static uint32_t count_bodies(cairn_crowd *c) {
  crowd_density *d = c->dens;
  const size_t st = (size_t)c->stride;
  uint32_t n = 0;
  for (uint32_t s = 0; s < c->high; s++) {
    if (!c->alive[s] || !cairn__crowd_is_body(c, s)) continue;
    float x = c->x[s], y = c->y[s];
    if (!(x >= 0.0f && y >= 0.0f && x < (float)c->width && y < (float)c->height)) continue;
    size_t i = (size_t)(crowd_cell(y) + 1) * st + (size_t)(crowd_cell(x) + 1);
    for (size_t j = i - st - 1; j <= i + st - 1; j += st)
      for (size_t k = j; k < j + 3; k++)
        if (d->sum[k]++ == 0) d->next[n++] = (uint32_t)k;
  }
  return n;
}

/* The density from the bodies where they stand; the cells changed. */
static size_t update(cairn_crowd *c) {
  crowd_density *d = c->dens;
  uint32_t n = count_bodies(c), m = 0;
  size_t changed = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = d->next[k];
    changed += set_pen(c, i, c->cells[i] ? pen_of(c, d->sum[i]) : 0);
  }
  for (uint32_t k = 0; k < d->n_live; k++) /* crowded before, empty now */
    if (!d->sum[d->live[k]]) changed += set_pen(c, d->live[k], 0);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = d->next[k];
    d->sum[i] = 0;
    if (d->pen[i]) d->next[m++] = i;
  }
  uint32_t *t = d->live;
  d->live = d->next;
  d->next = t;
  d->n_live = m;
  return changed;
}

cairn_status cairn__crowd_density_tick(cairn_crowd *c) {
  if (!c->dens || c->tick % c->opts.density_ticks) return CAIRN_OK;
  update(c);
  /* the cache repairs what changed since it last caught up (nothing to do
   * when nothing did), also after a tick whose repair ran out of memory */
  return cairn_flow_cache_layer_changed(c->cache, c->builder, NULL, NULL);
}

size_t cairn__crowd_density_set(cairn_crowd *c, const uint32_t *cells, const uint32_t *pen,
                                uint32_t n) {
  crowd_density *d = c->dens;
  size_t changed = 0;
  for (uint32_t k = 0; k < n; k++) d->sum[cells[k]] = 1; /* marks the new cells */
  for (uint32_t k = 0; k < d->n_live; k++)
    if (!d->sum[d->live[k]]) changed += set_pen(c, d->live[k], 0);
  for (uint32_t k = 0; k < n; k++) {
    d->sum[cells[k]] = 0;
    changed += set_pen(c, cells[k], pen[k]);
    d->live[k] = cells[k];
  }
  d->n_live = n;
  return changed;
}

size_t cairn__crowd_density_memory(const cairn_crowd *c) {
  const crowd_density *d = c->dens;
  if (!d) return 0;
  return sizeof *d +
         d->padded * (sizeof *d->pen + sizeof *d->sum + (d->base ? sizeof *d->base : 0)) +
         d->list_cap * (sizeof *d->live + sizeof *d->next) +
         DENSITY_CHANGES * sizeof *d->changes + cairn_penalty_memory(d->layer);
}

/* ---- reading -------------------------------------------------------- */

const uint32_t *cairn_crowd_density(const cairn_crowd *c, int32_t *stride) {
  if (stride) *stride = c ? c->stride : 0;
  return c && c->dens ? c->dens->pen : NULL;
}

const cairn_penalty *cairn_crowd_field_layer(const cairn_crowd *c) {
  return c ? cairn__crowd_field_layer(c) : NULL;
}
