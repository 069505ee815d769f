/* Sector tiles: fields per hierarchy cluster along HPA* routes, built on
 * first use. Only the public HPA* API is used: cairn_hpa_find gives a grid
 * path, whose sequence of clusters is the route. Each routed sector keeps
 * the sector after the LAST visit of the path to it, so a path that leaves
 * a sector and comes back still gives a chain (each step goes to a later
 * position on the path), and the chain ends at the goal's sector. Tiles
 * for a unit of several cells route with the hierarchy's answers for its
 * size and integrate over the grid eroded for it. */
#include "flow_internal.h"

#include <string.h>

typedef struct sector {
  cairn_cost *cost; /* local values, row by row over the sector's rect */
  uint8_t *dir;
  int32_t x0, y0, w, h;
  size_t cluster;
} sector;

struct cairn_flow_tiles {
  cairn_allocator alloc;
  const cairn_grid *grid;
  const cairn_hpa *hpa;
  cairn_point goal;
  /* the unit's size, and for sizes above 1 the grid eroded for it
   * (cairn__flow_erode: what the sectors integrate over); NULL for 1 */
  int32_t size;
  uint8_t *eroded;
  int32_t side, cw, ch;
  size_t n_clusters, max_sectors;
  int32_t *slot;   /* per cluster: sector index, -1 not routed */
  int32_t *next;   /* per cluster: the next cluster on its route, -1 none */
  uint8_t *built;  /* per cluster */
  sector *sec;
  size_t n_sec, n_built;
  int32_t *chain;  /* scratch: clusters to build, goal side last */
  cairn_flow_builder *b; /* the heap for one sector */
  double build_ms;
  /* the grid's version at create and at each invalidation: a sector
   * built or read past it would mix old values with new walls */
  uint64_t grid_version;
};

static size_t cluster_of(const cairn_flow_tiles *t, int32_t x, int32_t y) {
  return (size_t)(y / t->side) * (size_t)t->cw + (size_t)(x / t->side);
}

static size_t padded(const cairn_grid *g) {
  return (size_t)(cairn_grid_width(g) + 2) * (size_t)(cairn_grid_height(g) + 2);
}

/* The terrain the sectors integrate over: the grid's, or the grid eroded
 * for the unit's size. */
static const uint8_t *terrain(const cairn_flow_tiles *t, int32_t *stride) {
  const uint8_t *g = cairn_grid_cells(t->grid, stride);
  return t->eroded ? t->eroded : g;
}

static void tiles_free(cairn_flow_tiles *t) {
  cairn_allocator *a = &t->alloc;
  for (size_t k = 0; k < t->n_sec; k++) {
    size_t cells = (size_t)t->sec[k].w * (size_t)t->sec[k].h;
    cairn__free(a, t->sec[k].cost, cells * sizeof(cairn_cost));
    cairn__free(a, t->sec[k].dir, cells);
  }
  cairn__free(a, t->sec, t->max_sectors * sizeof *t->sec);
  cairn__free(a, t->slot, t->n_clusters * sizeof *t->slot);
  cairn__free(a, t->next, t->n_clusters * sizeof *t->next);
  cairn__free(a, t->built, t->n_clusters);
  cairn__free(a, t->chain, t->max_sectors * sizeof *t->chain);
  cairn__free(a, t->eroded, t->eroded ? padded(t->grid) : 0);
  cairn_flow_builder_destroy(t->b);
}

void cairn_flow_tiles_destroy(cairn_flow_tiles *t) {
  if (!t) return;
  tiles_free(t);
  cairn_allocator a = t->alloc;
  cairn__free(&a, t, sizeof *t);
}

static cairn_status add_sector(cairn_flow_tiles *t, size_t k) {
  sector *s = &t->sec[t->n_sec];
  s->cluster = k;
  s->x0 = (int32_t)(k % (size_t)t->cw) * t->side;
  s->y0 = (int32_t)(k / (size_t)t->cw) * t->side;
  int32_t w = cairn_grid_width(t->grid), h = cairn_grid_height(t->grid);
  s->w = s->x0 + t->side > w ? w - s->x0 : t->side;
  s->h = s->y0 + t->side > h ? h - s->y0 : t->side;
  size_t cells = (size_t)s->w * (size_t)s->h;
  s->cost = cairn__alloc(&t->alloc, cells * sizeof *s->cost);
  s->dir = cairn__alloc(&t->alloc, cells);
  if (!s->cost || !s->dir) {
    cairn__free(&t->alloc, s->cost, cells * sizeof *s->cost);
    cairn__free(&t->alloc, s->dir, cells);
    return CAIRN_ERR_NOMEM;
  }
  t->slot[k] = (int32_t)t->n_sec++;
  return CAIRN_OK;
}

cairn_status cairn_flow_tiles_create(const cairn_grid *grid,
                                     const cairn_hpa *hpa, cairn_point goal,
                                     size_t max_sectors,
                                     const cairn_allocator *alloc,
                                     cairn_flow_tiles **out) {
  return cairn_flow_tiles_create_sized(grid, hpa, goal, max_sectors, 1, alloc, out);
}

cairn_status cairn_flow_tiles_create_sized(const cairn_grid *grid, const cairn_hpa *hpa,
                                           cairn_point goal, size_t max_sectors, int32_t size,
                                           const cairn_allocator *alloc,
                                           cairn_flow_tiles **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!grid || !hpa || !max_sectors) return CAIRN_ERR_ARG;
  cairn_hpa_stats hs;
  cairn_hpa_get_stats(hpa, &hs);
  if (hs.cluster <= 0) return CAIRN_ERR_ARG;
  if (size == 0) size = 1;
  if (size < 1 || size > hs.max_size) return CAIRN_ERR_ARG; /* the routes are the hierarchy's */
  int32_t w = cairn_grid_width(grid), h = cairn_grid_height(grid);
  int32_t cw = (w + hs.cluster - 1) / hs.cluster, ch = (h + hs.cluster - 1) / hs.cluster;
  /* the hierarchy's clusters must tile this grid */
  if ((uint64_t)cw * (uint64_t)ch != hs.clusters) return CAIRN_ERR_ARG;
  if (!cairn_grid_contains(grid, goal.x, goal.y)) return CAIRN_ERR_RANGE;
  if (cairn_grid_clearance(grid, goal.x, goal.y) < size) return CAIRN_ERR_BLOCKED;
  size_t n_clusters = (size_t)cw * (size_t)ch;
  if (max_sectors > n_clusters) max_sectors = n_clusters;
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_flow_tiles *t = cairn__alloc_zero(&a, sizeof *t);
  if (!t) return CAIRN_ERR_NOMEM;
  t->alloc = a;
  t->grid = grid;
  t->grid_version = cairn_grid_version(grid);
  t->hpa = hpa;
  t->goal = goal;
  t->size = size;
  t->side = hs.cluster;
  t->cw = cw;
  t->ch = ch;
  t->n_clusters = n_clusters;
  t->max_sectors = max_sectors;
  t->slot = cairn__alloc(&a, n_clusters * sizeof *t->slot);
  t->next = cairn__alloc(&a, n_clusters * sizeof *t->next);
  t->built = cairn__alloc(&a, n_clusters);
  t->sec = cairn__alloc(&a, max_sectors * sizeof *t->sec);
  t->chain = cairn__alloc(&a, max_sectors * sizeof *t->chain);
  if (size > 1) t->eroded = cairn__alloc(&a, padded(grid));
  cairn_status st = CAIRN_ERR_NOMEM;
  if (t->slot && t->next && t->built && t->sec && t->chain && (size == 1 || t->eroded))
    st = cairn_flow_builder_create(&a, &t->b);
  if (st == CAIRN_OK && t->eroded) cairn__flow_erode(grid, size, t->eroded);
  if (st == CAIRN_OK)
    st = cairn__flow_builder_grow(t->b, (size_t)t->side * (size_t)t->side);
  if (st == CAIRN_OK) {
    memset(t->slot, 0xff, n_clusters * sizeof *t->slot);
    memset(t->next, 0xff, n_clusters * sizeof *t->next);
    memset(t->built, 0, n_clusters);
    st = add_sector(t, cluster_of(t, goal.x, goal.y));
  }
  if (st != CAIRN_OK) {
    cairn_flow_tiles_destroy(t);
    return st;
  }
  *out = t;
  return CAIRN_OK;
}

/* The path's cluster sequence, consecutive repeats removed, up to and
 * including the first cluster already routed, into seq (path_len
 * entries). */
static size_t route_clusters(const cairn_flow_tiles *t, const cairn_point *p,
                             size_t n, int32_t *seq) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    int32_t k = (int32_t)cluster_of(t, p[i].x, p[i].y);
    if (m && seq[m - 1] == k) continue;
    seq[m++] = k;
    if (t->slot[k] >= 0) break;
  }
  return m;
}

cairn_status cairn_flow_tiles_route(cairn_flow_tiles *t, cairn_hpa_query *q,
                                    cairn_point start) {
  if (!t || !q) return CAIRN_ERR_ARG;
  if (cairn_grid_version(t->grid) != t->grid_version) return CAIRN_ERR_STATE;
  cairn_hpa_result r;
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  po.size = t->size;
  cairn_status st = cairn_hpa_find(q, t->hpa, start, t->goal, &po, &r);
  if (st != CAIRN_OK) return st;
  int32_t *seq = cairn__alloc(&t->alloc, r.path_len * sizeof *seq);
  if (!seq) return CAIRN_ERR_NOMEM;
  size_t m = route_clusters(t, r.path, r.path_len, seq);
  /* count the new clusters (marking them -2) before adding any; every
   * cluster before the last of seq is new */
  size_t fresh = 0;
  for (size_t i = 0; i + 1 < m; i++)
    if (t->slot[seq[i]] == -1) {
      t->slot[seq[i]] = -2;
      fresh++;
    }
  if (t->n_sec + fresh > t->max_sectors) st = CAIRN_ERR_TOO_LARGE;
  /* the last visit wins: a cluster's next is what follows its last
   * occurrence */
  for (size_t i = 0; st == CAIRN_OK && i + 1 < m; i++) t->next[seq[i]] = seq[i + 1];
  for (size_t i = 0; i + 1 < m; i++) {
    if (t->slot[seq[i]] != -2) continue;
    if (st == CAIRN_OK) st = add_sector(t, (size_t)seq[i]);
    if (st != CAIRN_OK) t->slot[seq[i]] = -1;
  }
  cairn__free(&t->alloc, seq, r.path_len * sizeof *seq);
  return st;
}

/* ---- building one sector ------------------------------------------ */

static bool legal(const uint8_t *g, int32_t stride, int32_t x, int32_t y,
                  int d) {
  int32_t dx = cairn__dx[d], dy = cairn__dy[d];
  size_t i = (size_t)(y + 1) * (size_t)stride + (size_t)(x + 1);
  size_t n = (size_t)((ptrdiff_t)i + dx + (ptrdiff_t)dy * stride);
  if (!g[n]) return false;
  if (dx && dy) return g[(size_t)((ptrdiff_t)i + dx)] && g[(size_t)((ptrdiff_t)i + (ptrdiff_t)dy * stride)];
  return true;
}

static bool in_rect(const sector *s, int32_t x, int32_t y) {
  return x >= s->x0 && y >= s->y0 && x < s->x0 + s->w && y < s->y0 + s->h;
}

static size_t local(const sector *s, int32_t x, int32_t y) {
  return (size_t)(y - s->y0) * (size_t)s->w + (size_t)(x - s->x0);
}

/* Seeds: the goal in its sector; elsewhere every cell with a legal move
 * into the next sector, at that cell's value plus the step. */
static const sector *next_sector(const cairn_flow_tiles *t, size_t k) {
  int32_t n = t->next[k];
  return n >= 0 && t->slot[n] >= 0 ? &t->sec[t->slot[n]] : NULL;
}

static bool goal_sector(const cairn_flow_tiles *t, size_t k) {
  return k == cluster_of(t, t->goal.x, t->goal.y);
}

static void seed(cairn_flow_tiles *t, size_t k, const uint8_t *g,
                 int32_t stride) {
  sector *s = &t->sec[t->slot[k]];
  if (goal_sector(t, k)) {
    size_t i = local(s, t->goal.x, t->goal.y);
    s->cost[i] = 0;
    cairn__flow_heap_push(t->b, s->cost, (uint32_t)i);
    return;
  }
  const sector *nx = next_sector(t, k);
  if (!nx) return; /* a route cut short by a failed allocation */
  for (int32_t y = s->y0; y < s->y0 + s->h; y++)
    for (int32_t x = s->x0; x < s->x0 + s->w; x++) {
      bool edge = x == s->x0 || y == s->y0 || x == s->x0 + s->w - 1 || y == s->y0 + s->h - 1;
      if (!edge || !g[(size_t)(y + 1) * (size_t)stride + (size_t)(x + 1)]) continue;
      size_t i = local(s, x, y);
      for (int d = 0; d < 8; d++) {
        int32_t ox = x + cairn__dx[d], oy = y + cairn__dy[d];
        if (!in_rect(nx, ox, oy) || !legal(g, stride, x, y, d)) continue;
        cairn_cost v = nx->cost[local(nx, ox, oy)];
        if (v == CAIRN_COST_INF) continue;
        v += cairn__flow_base[d] * g[(size_t)(oy + 1) * (size_t)stride + (size_t)(ox + 1)];
        if (v < s->cost[i]) s->cost[i] = v;
      }
      if (s->cost[i] != CAIRN_COST_INF) cairn__flow_heap_push(t->b, s->cost, (uint32_t)i);
    }
}

/* Dijkstra inside the sector, towards the seeds. */
static void integrate(cairn_flow_tiles *t, sector *s, const uint8_t *g,
                      int32_t stride) {
  while (t->b->heap_len) {
    uint32_t c = cairn__flow_heap_pop(t->b, s->cost);
    int32_t x = s->x0 + (int32_t)(c % (uint32_t)s->w), y = s->y0 + (int32_t)(c / (uint32_t)s->w);
    const cairn_cost step_t = g[(size_t)(y + 1) * (size_t)stride + (size_t)(x + 1)];
    for (int d = 0; d < 8; d++) {
      int32_t ox = x + cairn__dx[d], oy = y + cairn__dy[d];
      if (!in_rect(s, ox, oy) || !legal(g, stride, x, y, d)) continue;
      size_t o = local(s, ox, oy);
      cairn_cost nv = s->cost[c] + cairn__flow_base[d] * step_t;
      if (nv >= s->cost[o]) continue;
      s->cost[o] = nv;
      cairn__flow_heap_lower(t->b, s->cost, (uint32_t)o);
    }
  }
}

/* The value of a neighbour for the direction pass: inside the sector, or
 * in its next sector; INF elsewhere. */
static cairn_cost value_near(const cairn_flow_tiles *t, size_t k,
                             int32_t x, int32_t y) {
  const sector *s = &t->sec[t->slot[k]];
  if (in_rect(s, x, y)) return s->cost[local(s, x, y)];
  const sector *nx = goal_sector(t, k) ? NULL : next_sector(t, k);
  return nx && in_rect(nx, x, y) ? nx->cost[local(nx, x, y)] : CAIRN_COST_INF;
}

static void directions(cairn_flow_tiles *t, size_t k, const uint8_t *g,
                       int32_t stride) {
  sector *s = &t->sec[t->slot[k]];
  for (int32_t y = s->y0; y < s->y0 + s->h; y++)
    for (int32_t x = s->x0; x < s->x0 + s->w; x++) {
      size_t i = local(s, x, y);
      cairn_cost v = s->cost[i];
      s->dir[i] = v == CAIRN_COST_INF ? CAIRN_FLOW_NONE : v == 0 ? CAIRN_FLOW_GOAL : CAIRN_FLOW_NONE;
      if (v == CAIRN_COST_INF || v == 0) continue;
      for (int d = 0; d < 8; d++) {
        int32_t ox = x + cairn__dx[d], oy = y + cairn__dy[d];
        if (!legal(g, stride, x, y, d)) continue;
        cairn_cost nv = value_near(t, k, ox, oy);
        cairn_cost step = cairn__flow_base[d] * g[(size_t)(oy + 1) * (size_t)stride + (size_t)(ox + 1)];
        if (nv != CAIRN_COST_INF && nv + step == v) {
          s->dir[i] = (uint8_t)d;
          break;
        }
      }
    }
}

static void build_one(cairn_flow_tiles *t, size_t k) {
  int32_t stride;
  const uint8_t *g = terrain(t, &stride);
  sector *s = &t->sec[t->slot[k]];
  size_t cells = (size_t)s->w * (size_t)s->h;
  for (size_t i = 0; i < cells; i++) s->cost[i] = CAIRN_COST_INF;
  t->b->heap_len = 0;
  seed(t, k, g, stride);
  integrate(t, s, g, stride);
  directions(t, k, g, stride);
  t->built[k] = 1;
  t->n_built++;
}

/* Builds cluster k and every unbuilt sector after it, goal side first. */
static void build_chain(cairn_flow_tiles *t, size_t k) {
  double t0 = cairn__now_ms();
  size_t n = 0;
  for (int32_t c = (int32_t)k; c >= 0 && t->slot[c] >= 0 && !t->built[c] && n < t->max_sectors;
       c = goal_sector(t, (size_t)c) ? -1 : t->next[c])
    t->chain[n++] = c;
  while (n) build_one(t, (size_t)t->chain[--n]);
  t->build_ms += cairn__now_ms() - t0;
}

cairn_status cairn_flow_tiles_dir(cairn_flow_tiles *t, int32_t x, int32_t y,
                                  int *dir, cairn_cost *cost) {
  if (!t || !dir) return CAIRN_ERR_ARG;
  *dir = CAIRN_FLOW_NONE;
  if (cost) *cost = CAIRN_COST_INF;
  if (!cairn_grid_contains(t->grid, x, y)) return CAIRN_ERR_RANGE;
  if (cairn_grid_version(t->grid) != t->grid_version) return CAIRN_ERR_STATE;
  size_t k = cluster_of(t, x, y);
  if (t->slot[k] < 0) return CAIRN_OK;
  if (!t->built[k]) build_chain(t, k);
  const sector *s = &t->sec[t->slot[k]];
  size_t i = local(s, x, y);
  *dir = s->dir[i];
  if (cost && s->dir[i] != CAIRN_FLOW_NONE) *cost = s->cost[i];
  return CAIRN_OK;
}

/* Whether the changed cells r, grown by one (a cell can open or close a
 * move across a sector border) and by size - 1 up and left (the
 * positions whose unit covers them), reach sector s. */
static bool touches(const sector *s, cairn_rect r, int32_t size) {
  return r.x - size < s->x0 + s->w && s->x0 < r.x + r.w + 1 && r.y - size < s->y0 + s->h &&
         s->y0 < r.y + r.h + 1;
}

size_t cairn_flow_tiles_invalidate(cairn_flow_tiles *t, cairn_rect changed) {
  if (!t || changed.w <= 0 || changed.h <= 0) return 0;
  t->grid_version = cairn_grid_version(t->grid); /* told: current again */
  if (t->eroded) /* the positions whose unit covers a changed cell */
    for (int32_t y = changed.y; y < changed.y + changed.h; y++)
      for (int32_t x = changed.x; x < changed.x + changed.w; x++)
        if (cairn_grid_contains(t->grid, x, y)) cairn__flow_erode_at(t->grid, t->size, t->eroded, x, y);
  size_t reset = 0;
  for (size_t j = 0; j < t->n_sec; j++) {
    size_t k = t->sec[j].cluster;
    if (t->built[k] && touches(&t->sec[j], changed, t->size)) {
      t->built[k] = 0;
      reset++;
    }
  }
  /* then everything upstream of an unbuilt sector; each sweep settles at
   * least one more link of the longest chain */
  for (bool again = reset > 0; again;) {
    again = false;
    for (size_t j = 0; j < t->n_sec; j++) {
      size_t k = t->sec[j].cluster;
      if (!t->built[k] || goal_sector(t, k)) continue;
      int32_t n = t->next[k];
      if (n >= 0 && t->slot[n] >= 0 && !t->built[n]) {
        t->built[k] = 0;
        reset++;
        again = true;
      }
    }
  }
  t->n_built -= reset;
  return reset;
}

void cairn_flow_tiles_get_stats(const cairn_flow_tiles *t,
                                cairn_flow_tiles_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!t) return;
  out->sector = t->side;
  out->routed = t->n_sec;
  out->built = t->n_built;
  size_t bytes = sizeof *t + t->n_clusters * (2 * sizeof(int32_t) + 1) +
                 t->max_sectors * (sizeof(sector) + sizeof(int32_t)) +
                 cairn_flow_builder_memory(t->b) + (t->eroded ? padded(t->grid) : 0);
  for (size_t k = 0; k < t->n_sec; k++)
    bytes += (size_t)t->sec[k].w * (size_t)t->sec[k].h * (sizeof(cairn_cost) + 1);
  out->memory_bytes = bytes;
  out->build_ms = t->build_ms;
}
