/* The field cache: shared fields keyed by goal set and unit size, reference counts, a
 * byte bound with least-recently-used eviction of unheld fields, and map
 * edits that touch only the fields whose reached area holds a changed
 * cell. Entries sit in a flat array: a cache holds tens of fields, not
 * thousands, and a scan compares a 64-bit hash before any goal list. */
#include "flow_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct entry {
  cairn_field *field;
  uint64_t hash;     /* of the sorted goals and the size */
  uint64_t last_use; /* the cache's tick at the last acquire */
  size_t bytes;
  uint32_t refs;
  int detached;      /* held but no longer served (a goal got blocked) */
} entry;

struct cairn_flow_cache {
  cairn_allocator alloc;
  const cairn_grid *grid;
  cairn_flow_opts opts;
  size_t max_bytes, bytes;
  entry *e;
  size_t n, cap;
  cairn_point *key; /* the request's goals, sorted */
  size_t key_cap;
  uint64_t tick;
  /* the grid's version its fields were last brought to (at create and by
   * every successful cairn_flow_cache_update): past it, acquire refuses */
  uint64_t grid_version;
  cairn_flow_cache_stats st;
};

cairn_status cairn_flow_cache_create(const cairn_grid *grid, size_t max_bytes,
                                     const cairn_flow_opts *opts,
                                     const cairn_allocator *alloc,
                                     cairn_flow_cache **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!grid || !max_bytes) return CAIRN_ERR_ARG;
  cairn_flow_opts o = opts ? *opts : cairn_flow_defaults();
  if (cairn__flow_check_opts(&o) != CAIRN_OK) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_flow_cache *c = cairn__alloc_zero(&a, sizeof *c);
  if (!c) return CAIRN_ERR_NOMEM;
  c->alloc = a;
  c->grid = grid;
  c->opts = o;
  c->max_bytes = max_bytes;
  c->grid_version = cairn_grid_version(grid);
  *out = c;
  return CAIRN_OK;
}

void cairn_flow_cache_destroy(cairn_flow_cache *c) {
  if (!c) return;
  for (size_t k = 0; k < c->n; k++) cairn_field_destroy(c->e[k].field);
  cairn_allocator a = c->alloc;
  cairn__free(&a, c->e, c->cap * sizeof *c->e);
  cairn__free(&a, c->key, c->key_cap * sizeof *c->key);
  cairn__free(&a, c, sizeof *c);
}

static int point_cmp(const void *pa, const void *pb) {
  const cairn_point *a = pa, *b = pb;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return 0;
}

/* Sorts the request into c->key, duplicates removed; returns the count. */
static cairn_status make_key(cairn_flow_cache *c, const cairn_point *goals,
                             size_t n, int32_t size, size_t *m, uint64_t *hash) {
  if (n > c->key_cap) {
    cairn_point *p = cairn__alloc(&c->alloc, n * sizeof *p);
    if (!p) return CAIRN_ERR_NOMEM;
    cairn__free(&c->alloc, c->key, c->key_cap * sizeof *c->key);
    c->key = p;
    c->key_cap = n;
  }
  memcpy(c->key, goals, n * sizeof *goals);
  qsort(c->key, n, sizeof *c->key, point_cmp);
  size_t k = 1;
  for (size_t i = 1; i < n; i++)
    if (point_cmp(&c->key[i], &c->key[k - 1]) != 0) c->key[k++] = c->key[i];
  uint64_t h = 1469598103934665603ull; /* FNV-1a over size and coordinates */
  h = (h ^ (uint32_t)size) * 1099511628211ull;
  for (size_t i = 0; i < k; i++) {
    h = (h ^ (uint32_t)c->key[i].x) * 1099511628211ull;
    h = (h ^ (uint32_t)c->key[i].y) * 1099511628211ull;
  }
  *m = k;
  *hash = h;
  return CAIRN_OK;
}

static entry *find(cairn_flow_cache *c, size_t m, int32_t size, uint64_t hash) {
  for (size_t k = 0; k < c->n; k++) {
    entry *e = &c->e[k];
    if (e->detached || e->hash != hash || e->field->n_goals != m || e->field->size != size)
      continue;
    if (memcmp(e->field->goals, c->key, m * sizeof *c->key) == 0) return e;
  }
  return NULL;
}

static void remove_at(cairn_flow_cache *c, size_t k) {
  c->bytes -= c->e[k].bytes;
  cairn_field_destroy(c->e[k].field);
  c->e[k] = c->e[--c->n];
}

/* Evicts unheld fields, oldest first, until `need` more bytes fit. */
static bool make_room(cairn_flow_cache *c, size_t need) {
  while (c->bytes + need > c->max_bytes) {
    size_t best = SIZE_MAX;
    for (size_t k = 0; k < c->n; k++)
      if (!c->e[k].refs && (best == SIZE_MAX || c->e[k].last_use < c->e[best].last_use))
        best = k;
    if (best == SIZE_MAX) return false;
    remove_at(c, best);
    c->st.evictions++;
  }
  return true;
}

static cairn_status grow_entries(cairn_flow_cache *c) {
  return cairn__grow(&c->alloc, (void **)&c->e, &c->cap, c->n + 1, sizeof *c->e)
             ? CAIRN_OK
             : CAIRN_ERR_NOMEM;
}

/* What a field for `goals` goals and a unit of `size` holds (as
 * cairn_field_stats.memory_bytes counts it once built). */
static size_t field_bytes(const cairn_flow_cache *c, size_t goals, int32_t size) {
  const cairn_grid *g = c->grid;
  size_t n = (size_t)(cairn_grid_width(g) + 2) * (size_t)(cairn_grid_height(g) + 2);
  size_t sized = size > 1 ? n * (1 + (c->opts.penalty ? sizeof(uint32_t) : 0)) : 0;
  return sizeof(cairn_field) + n * (sizeof(cairn_cost) + 3) + goals * sizeof(cairn_point) + sized;
}

cairn_status cairn_flow_cache_acquire(cairn_flow_cache *c,
                                      cairn_flow_builder *b,
                                      const cairn_point *goals, size_t n,
                                      const cairn_field **out) {
  return cairn_flow_cache_acquire_sized(c, b, goals, n, c ? c->opts.size : 1, out);
}

cairn_status cairn_flow_cache_acquire_sized(cairn_flow_cache *c, cairn_flow_builder *b,
                                            const cairn_point *goals, size_t n,
                                            int32_t size, const cairn_field **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!c || !b || !goals || !n) return CAIRN_ERR_ARG;
  if (size < 0 || size > CAIRN_GRID_MAX_CLEARANCE) return CAIRN_ERR_ARG;
  if (size == 0) size = 1;
  if (n > CAIRN_FLOW_MAX_GOALS) return CAIRN_ERR_TOO_LARGE;
  /* a cached field would show the old grid, a new one the new: neither
   * fits a caller that has not told the cache what changed */
  if (cairn_grid_version(c->grid) != c->grid_version) return CAIRN_ERR_STATE;
  size_t m;
  uint64_t hash;
  cairn_status st = make_key(c, goals, n, size, &m, &hash);
  if (st != CAIRN_OK) return st;
  entry *hit = find(c, m, size, hash);
  if (hit) {
    hit->refs++;
    hit->last_use = ++c->tick;
    c->st.hits++;
    *out = hit->field;
    return CAIRN_OK;
  }
  size_t bytes = field_bytes(c, m, size);
  if (bytes > c->max_bytes || !make_room(c, bytes)) return CAIRN_ERR_NOMEM;
  if ((st = grow_entries(c)) != CAIRN_OK) return st;
  cairn_field *f;
  if ((st = cairn_field_create(c->grid, &c->alloc, &f)) != CAIRN_OK) return st;
  cairn_flow_opts o = c->opts;
  o.size = size;
  st = cairn_field_build(b, f, c->grid, c->key, m, &o);
  if (st != CAIRN_OK) {
    cairn_field_destroy(f);
    return st;
  }
  entry *e = &c->e[c->n++];
  e->field = f;
  e->hash = hash;
  e->last_use = ++c->tick;
  e->bytes = bytes;
  e->refs = 1;
  e->detached = 0;
  c->bytes += bytes;
  c->st.misses++;
  *out = f;
  return CAIRN_OK;
}

static size_t find_field(const cairn_flow_cache *c, const cairn_field *f) {
  for (size_t k = 0; k < c->n; k++)
    if (c->e[k].field == f) return k;
  return SIZE_MAX;
}

cairn_status cairn_flow_cache_release(cairn_flow_cache *c,
                                      const cairn_field *f) {
  if (!c || !f) return CAIRN_ERR_ARG;
  size_t k = find_field(c, f);
  if (k == SIZE_MAX || !c->e[k].refs) return CAIRN_ERR_ARG;
  if (--c->e[k].refs == 0 && c->e[k].detached) remove_at(c, k);
  return CAIRN_OK;
}

size_t cairn_flow_cache_trim(cairn_flow_cache *c) {
  size_t dropped = 0;
  for (size_t k = 0; c && k < c->n;) {
    if (c->e[k].refs) {
      k++;
      continue;
    }
    remove_at(c, k); /* the slot now holds another entry: look again */
    dropped++;
  }
  if (c) c->st.drops += dropped;
  return dropped;
}

/* Whether a changed cell lies in the field's reached box grown by one
 * (a cell next to a reached one can open or close a move), and by size - 1
 * more to the right and down (a unit reaching a position covers the cells
 * up to size - 1 beyond it). */
static bool affected(const cairn_field *f, const cairn_point *cells, size_t n) {
  if (f->bx1 < f->bx0) return false; /* nothing reached */
  const int32_t reach = f->size;
  for (size_t k = 0; k < n; k++)
    if (cells[k].x >= f->bx0 - 1 && cells[k].x <= f->bx1 + reach &&
        cells[k].y >= f->by0 - 1 && cells[k].y <= f->by1 + reach)
      return true;
  return false;
}

/* What an update does to an affected field: repairs it over the edited
 * cells, or over the layer's changes. */
typedef struct fix_job {
  cairn_flow_builder *b;
  const cairn_point *changed; /* map edits (n of them), unless `layer` */
  size_t n;
  bool layer;
  uint64_t now; /* with `layer`: the layer's version */
  size_t repaired, dropped;
} fix_job;

/* Entry *k is affected: an unheld one is dropped (slot *k then holds
 * another entry, to look at next), a held one repaired, or detached when
 * its goal got blocked. */
static cairn_status fix_entry(cairn_flow_cache *c, size_t *k, fix_job *j) {
  entry *e = &c->e[*k];
  if (!e->refs) {
    remove_at(c, *k);
    j->dropped++;
    return CAIRN_OK;
  }
  cairn_status st = j->layer ? cairn_field_repair_layer(j->b, e->field)
                             : cairn_field_repair(j->b, e->field, j->changed, j->n);
  if (st == CAIRN_ERR_BLOCKED) e->detached = 1;
  else if (st != CAIRN_OK) return st;
  else j->repaired++;
  (*k)++;
  return CAIRN_OK;
}

/* Fixes every attached entry that `needs` says the change touches, then
 * adds up what was done. */
static cairn_status fix_all(cairn_flow_cache *c, fix_job *j,
                            bool (*needs)(const cairn_flow_cache *c, const fix_job *j,
                                          cairn_field *f),
                            size_t *repaired, size_t *dropped) {
  for (size_t k = 0; k < c->n;) {
    entry *e = &c->e[k];
    if (e->detached || !needs(c, j, e->field)) {
      k++;
      continue;
    }
    cairn_status st = fix_entry(c, &k, j);
    if (st != CAIRN_OK) return st;
  }
  c->st.repairs += j->repaired;
  c->st.drops += j->dropped;
  if (repaired) *repaired = j->repaired;
  if (dropped) *dropped = j->dropped;
  return CAIRN_OK;
}

static bool edit_needs(const cairn_flow_cache *c, const fix_job *j,
                       cairn_field *f) {
  (void)c;
  return affected(f, j->changed, j->n);
}

cairn_status cairn_flow_cache_update(cairn_flow_cache *c,
                                     cairn_flow_builder *b,
                                     const cairn_point *changed, size_t n,
                                     size_t *repaired, size_t *dropped) {
  if (repaired) *repaired = 0;
  if (dropped) *dropped = 0;
  if (!c || !b || (n && !changed)) return CAIRN_ERR_ARG;
  for (size_t k = 0; k < n; k++)
    if (!cairn_grid_contains(c->grid, changed[k].x, changed[k].y))
      return CAIRN_ERR_RANGE;
  fix_job j = {b, changed, n, false, 0, 0, 0};
  cairn_status st = fix_all(c, &j, edit_needs, repaired, dropped);
  if (st != CAIRN_OK || !n) return st; /* naming no cell reports nothing */
  /* the fields the change did not reach are what a build on the new grid
   * gives, and the repaired ones already say so; detached ones stay
   * behind (their holders read CAIRN_ERR_STATE) */
  const uint64_t now = cairn_grid_version(c->grid);
  for (size_t k = 0; k < c->n; k++)
    if (!c->e[k].detached) c->e[k].field->grid_version = now;
  c->grid_version = now;
  return CAIRN_OK;
}

/* Whether the layer changed next to the field's reached box since the
 * version it shows (a layer change elsewhere borders no reached cell, so
 * it can neither open nor close a move from one). */
static bool layer_affected(const cairn_field *f, const cairn_penalty *p) {
  if (f->bx1 < f->bx0) return false;
  cairn_rect r = {f->bx0 - 1, f->by0 - 1, f->bx1 - f->bx0 + 3, f->by1 - f->by0 + 3};
  return cairn_penalty_changed(p, r) > f->layer_version;
}

/* A field that has not seen the layer's version: repaired where the
 * change borders its reached cells, and otherwise only told the version
 * (it is already what a build would give). */
static bool layer_needs(const cairn_flow_cache *c, const fix_job *j,
                        cairn_field *f) {
  if (f->layer_version == j->now) return false;
  if (layer_affected(f, c->opts.penalty)) return true;
  f->layer_version = j->now;
  return false;
}

cairn_status cairn_flow_cache_layer_changed(cairn_flow_cache *c,
                                            cairn_flow_builder *b,
                                            size_t *repaired, size_t *dropped) {
  if (repaired) *repaired = 0;
  if (dropped) *dropped = 0;
  if (!c || !b) return CAIRN_ERR_ARG;
  const cairn_penalty *p = c->opts.penalty;
  if (!p) return CAIRN_OK;
  /* repairs re-integrate against the grid: first the grid's own changes */
  if (cairn_grid_version(c->grid) != c->grid_version) return CAIRN_ERR_STATE;
  fix_job j = {b, NULL, 0, true, cairn_penalty_version(p), 0, 0};
  return fix_all(c, &j, layer_needs, repaired, dropped);
}

void cairn_flow_cache_get_stats(const cairn_flow_cache *c,
                                cairn_flow_cache_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!c) return;
  *out = c->st;
  out->fields = c->n;
  out->bytes = c->bytes;
  out->held = 0;
  for (size_t k = 0; k < c->n; k++)
    if (c->e[k].refs) out->held++;
}
