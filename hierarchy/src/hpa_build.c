/* Building and updating the hierarchy: clusters, entrances, intra-cluster
 * costs and paths, and the abstract graph assembled from them.
 *
 * Everything a cluster stores depends only on the cells of the cluster and
 * the border cells of its neighbours, so clusters are built independently
 * (in parallel) and an edit redoes only the clusters within one cell of it.
 * The abstract graph (a core CSR graph) is reassembled from the clusters
 * after every build or update: a linear pass, far cheaper than the
 * Dijkstras. */
#include "hpa_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const int8_t cairn__hpa_dx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
const int8_t cairn__hpa_dy[8] = {0, 0, 1, -1, 1, 1, -1, -1};

/* Open border segments shorter than this get one entrance in the middle;
 * longer ones one at each end (Botea et al.'s rule), and from
 * HPA_WIDE_SEGMENT on one in the middle too, so routes through wide open
 * borders need not bend to a corner of the opening. */
#define HPA_LONG_SEGMENT 6
#define HPA_WIDE_SEGMENT 10

/* ---- small helpers -------------------------------------------------- */

bool cairn__hpa_grow(const cairn_allocator *a, void **p, size_t *cap, size_t n,
                     size_t size) {
  if (n <= *cap) return true;
  size_t c = *cap ? *cap : 16;
  while (c < n) c *= 2;
  void *q = a->fn(a->user, *p, *cap ? *cap * size : 0, c * size);
  if (!q) return false;
  *p = q;
  *cap = c;
  return true;
}

double cairn__hpa_now_ms(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---- transitions ---------------------------------------------------- */

static bool open_at(const cairn_hpa *h, uint32_t i) { return h->cost[i] != 0; }

/* Crossings of the border between cluster (cx, cy) and its east neighbour
 * (vertical == true) or its south neighbour. For each maximal run of rows
 * (columns) where both sides are open: one transition in the middle of a
 * short run, one at each end of a long one, and the middle too on a wide
 * one. Writes at most cs + 2 (runs of one or two cells get one transition
 * each and are separated by a closed cell). */
static size_t border_transitions(const cairn_hpa *h, int32_t cx, int32_t cy,
                                 bool vertical, hpa_transition *out) {
  const int32_t cs = h->cs;
  int32_t x0 = cx * cs, y0 = cy * cs;
  int32_t len = vertical ? (y0 + cs > h->height ? h->height - y0 : cs)
                         : (x0 + cs > h->width ? h->width - x0 : cs);
  /* side a: last column (row) of this cluster; side b: the next one */
  int32_t ax = vertical ? x0 + cs - 1 : x0, ay = vertical ? y0 : y0 + cs - 1;
  uint32_t step_b = vertical ? 1u : (uint32_t)h->stride;
  uint32_t along = vertical ? (uint32_t)h->stride : 1u;
  uint32_t first = hpa_index(h, ax, ay);
  size_t n = 0;
  int32_t k = 0;
  while (k < len) {
    while (k < len && !(open_at(h, first + (uint32_t)k * along) &&
                        open_at(h, first + (uint32_t)k * along + step_b)))
      k++;
    if (k == len) break;
    int32_t run0 = k;
    while (k < len && open_at(h, first + (uint32_t)k * along) &&
           open_at(h, first + (uint32_t)k * along + step_b))
      k++;
    int32_t run1 = k - 1;
    int32_t at[3] = {(run0 + run1) / 2, -1, -1};
    if (run1 - run0 + 1 >= HPA_LONG_SEGMENT) {
      at[0] = run0;
      at[1] = run1;
    }
    if (run1 - run0 + 1 >= HPA_WIDE_SEGMENT) at[2] = (run0 + run1) / 2;
    for (int t = 0; t < 3; t++) {
      if (at[t] < 0) continue;
      uint32_t a = first + (uint32_t)at[t] * along;
      out[n].a = a;
      out[n].b = a + step_b;
      out[n].diag = false;
      n++;
    }
  }
  return n;
}

/* Diagonal crossings at the corner where clusters (cx, cy), (cx + 1, cy),
 * (cx, cy + 1) and (cx + 1, cy + 1) meet. A diagonal step needs all four
 * corner cells open (no corner cutting), and then both diagonals exist. */
static size_t corner_transitions(const cairn_hpa *h, int32_t cx, int32_t cy,
                                 hpa_transition *out) {
  int32_t x = (cx + 1) * h->cs - 1, y = (cy + 1) * h->cs - 1;
  uint32_t tl = hpa_index(h, x, y), s = (uint32_t)h->stride;
  if (!open_at(h, tl) || !open_at(h, tl + 1) || !open_at(h, tl + s) ||
      !open_at(h, tl + s + 1))
    return 0;
  out[0].a = tl;
  out[0].b = tl + s + 1;
  out[0].diag = true;
  out[1].a = tl + 1;
  out[1].b = tl + s;
  out[1].diag = true;
  return 2;
}

/* Every transition touching cluster (cx, cy), from all eight neighbours.
 * out holds at least 4 * (cs + 2) + 8. */
static size_t cluster_transitions(const cairn_hpa *h, int32_t cx, int32_t cy,
                                  hpa_transition *out) {
  size_t n = 0;
  if (cx + 1 < h->cw) n += border_transitions(h, cx, cy, true, out + n);
  if (cx > 0) n += border_transitions(h, cx - 1, cy, true, out + n);
  if (cy + 1 < h->ch) n += border_transitions(h, cx, cy, false, out + n);
  if (cy > 0) n += border_transitions(h, cx, cy - 1, false, out + n);
  for (int32_t dy = -1; dy <= 0; dy++)
    for (int32_t dx = -1; dx <= 0; dx++) {
      int32_t bx = cx + dx, by = cy + dy;
      if (bx >= 0 && by >= 0 && bx + 1 < h->cw && by + 1 < h->ch)
        n += corner_transitions(h, bx, by, out + n);
    }
  return n;
}

static size_t transitions_cap(int32_t cs) { return 4 * ((size_t)cs + 2) + 8; }

/* ---- one cluster ---------------------------------------------------- */

/* One worker's scratch for building clusters, set up by the first task
 * that runs on the worker. */
typedef struct hpa_scratch {
  /* a cs x cs copy of the cluster being built, and a search sized for it:
   * small enough to stay in cache, and an edit never allocates a search
   * over the whole map */
  cairn_grid *local;
  cairn_search *search;
  hpa_transition *trans; /* transitions_cap */
  uint32_t *nodes;       /* a cluster's entrance cells: 2 x transitions_cap */
  cairn_point *cells;    /* and as points: 2 x transitions_cap */
  cairn_point *trace;    /* cs * cs */
  uint8_t *run;          /* one path's codes: cs * cs */
  uint32_t *poff, *plen; /* per node pair: where its steps are in `steps` */
  size_t pairs_cap;
  uint8_t *steps;        /* growing; in the order the paths were found */
  size_t steps_cap, n_steps;
  cairn_penalty *lpen;   /* under a layer: its cells over `local` */
} hpa_scratch;

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static bool in_cluster(const cairn_hpa *h, const hpa_cluster *c, uint32_t i) {
  cairn_point p = hpa_point(h, i);
  return p.x >= c->x0 && p.x < c->x0 + c->w && p.y >= c->y0 &&
         p.y < c->y0 + c->h;
}

static void cluster_free(const cairn_allocator *a, hpa_cluster *c) {
  size_t nn = (size_t)c->n * c->n;
  hpa_free(a, c->cell, c->n * sizeof *c->cell);
  hpa_free(a, c->dist, nn * sizeof *c->dist);
  hpa_free(a, c->off, (nn + 1) * sizeof *c->off);
  hpa_free(a, c->steps, c->n_steps);
  hpa_free(a, c->bdist, nn * sizeof *c->bdist);
  c->bdist = NULL;
  c->cell = NULL;
  c->dist = NULL;
  c->off = NULL;
  c->steps = NULL;
  c->n = 0;
  c->n_steps = 0;
}

/* The entrance cells of a cluster, sorted and without repeats. */
static uint32_t cluster_nodes(const cairn_hpa *h, const hpa_cluster *c,
                              int32_t cx, int32_t cy, hpa_scratch *sc,
                              uint32_t *cells) {
  size_t nt = cluster_transitions(h, cx, cy, sc->trans);
  uint32_t n = 0;
  for (size_t t = 0; t < nt; t++) {
    if (in_cluster(h, c, sc->trans[t].a)) cells[n++] = sc->trans[t].a;
    if (in_cluster(h, c, sc->trans[t].b)) cells[n++] = sc->trans[t].b;
  }
  qsort(cells, n, sizeof *cells, cmp_u32);
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++)
    if (m == 0 || cells[m - 1] != cells[i]) cells[m++] = cells[i];
  return m;
}

/* Whether every open cell of a cluster has the same terrain cost: then
 * costs are symmetric and clear runs are shortest paths. */
typedef struct cluster_kind {
  bool uniform;
} cluster_kind;

static cluster_kind classify(const cairn_hpa *h, const hpa_cluster *c) {
  cluster_kind k = {true};
  uint8_t first = 0;
  for (int32_t y = c->y0; y < c->y0 + c->h; y++) {
    const uint8_t *row = h->cost + hpa_index(h, c->x0, y);
    for (int32_t x = 0; x < c->w; x++) {
      if (!row[x]) continue;
      if (!first) first = row[x];
      if (row[x] != first) k.uniform = false;
    }
  }
  return k;
}

/* opposite[d] is the step back over step d. */
static const uint8_t opposite[8] = {1, 0, 3, 2, 7, 6, 5, 4};

/* Records the path i -> j: its steps go to sc->steps, their place to
 * sc->poff / sc->plen; `reversed` takes the steps of the path j -> i. */
static bool put_steps(const cairn_hpa *h, hpa_scratch *sc, size_t pair,
                      const uint8_t *steps, size_t len, bool reversed) {
  bool ok = sc->n_steps + len <= sc->steps_cap; /* the lock only to grow */
  if (!ok) {
    hpa_lock(h);
    ok = cairn__hpa_grow(&h->alloc, (void **)&sc->steps, &sc->steps_cap,
                         sc->n_steps + len, 1);
    hpa_unlock(h);
  }
  if (!ok) return false;
  sc->poff[pair] = (uint32_t)sc->n_steps;
  sc->plen[pair] = (uint32_t)len;
  uint8_t *out = sc->steps + sc->n_steps;
  for (size_t k = 0; k < len; k++)
    out[k] = reversed ? opposite[steps[len - 1 - k]] : steps[k];
  sc->n_steps += len;
  return true;
}

/* Direction code of the step a -> b between neighbours. */
static uint8_t step_code(cairn_point a, cairn_point b) {
  int dx = b.x - a.x, dy = b.y - a.y;
  for (uint8_t d = 0; d < 8; d++)
    if (cairn__hpa_dx[d] == dx && cairn__hpa_dy[d] == dy) return d;
  return 0; /* not reached: traces are chains of neighbours */
}

/* A run of the given shape (HPA_RUN_*) from a to b, as direction codes into buf;
 * false if it meets a wall or cuts a corner (the local grid's move sets
 * say both). On uniform terrain a clear run costs the octile distance, a
 * lower bound on any path, so it is a shortest path and needs no search. */
static bool clear_run(const cairn_grid *local, cairn_point a, cairn_point b,
                      int shape, uint8_t *buf, size_t *len) {
  int32_t stride;
  const uint8_t *moves = cairn_grid_moves(local, &stride);
  int32_t dx = b.x - a.x, dy = b.y - a.y;
  int32_t ax = abs(dx), ay = abs(dy);
  int32_t nd = ax < ay ? ax : ay, n = ax < ay ? ay : ax;
  int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
  /* direction codes (the move-set bits): straight E W S N, then SE SW NE NW */
  const uint8_t diag = (uint8_t)(4 + (sx < 0) + 2 * (sy < 0));
  const uint8_t straight = ax > ay ? (uint8_t)(sx < 0) : (uint8_t)(2 + (sy < 0));
  int32_t c = (a.y + 1) * stride + a.x + 1, acc = n / 2;
  for (int32_t k = 0; k < n; k++) {
    uint8_t code = hpa_run_diag(shape, k, n, nd, &acc) ? diag : straight;
    if (!(moves[c] & (1u << code))) return false;
    c += cairn__hpa_dx[code] + cairn__hpa_dy[code] * stride;
    buf[k] = code;
  }
  *len = (size_t)n;
  return true;
}

/* Tries to settle the pair i -> j (and j -> i) with a clear run. */
static bool run_pair(const cairn_hpa *h, hpa_scratch *sc, uint32_t n,
                     uint32_t i, uint32_t j, uint8_t cell_cost,
                     cairn_cost *dist, bool *nomem) {
  cairn_point a = sc->cells[i], b = sc->cells[j];
  size_t len;
  int shape = 0;
  while (shape < HPA_RUN_SHAPES && !clear_run(sc->local, a, b, shape, sc->run, &len))
    shape++;
  if (shape == HPA_RUN_SHAPES) return false;
  int32_t ax = abs(b.x - a.x), ay = abs(b.y - a.y);
  int32_t nd = ax < ay ? ax : ay, ns = (ax < ay ? ay : ax) - nd;
  cairn_cost d = ((cairn_cost)nd * CAIRN_COST_DIAG + (cairn_cost)ns * CAIRN_COST_ONE) *
                 cell_cost;
  dist[i * n + j] = dist[j * n + i] = d;
  *nomem = !put_steps(h, sc, (size_t)i * n + j, sc->run, len, false) ||
           !put_steps(h, sc, (size_t)j * n + i, sc->run, len, true);
  return true;
}

/* Whether the layer puts anything on the cluster's cells. */
static bool cluster_layered(const cairn_hpa *h, const hpa_cluster *c) {
  if (!h->pen) return false;
  for (int32_t y = c->y0; y < c->y0 + c->h; y++) {
    const uint32_t *row = h->pen + hpa_index(h, c->x0, y);
    for (int32_t x = 0; x < c->w; x++)
      if (row[x]) return true;
  }
  return false;
}

/* The layer's cells over the cluster, into the local layer (at the local
 * grid's origin, as the cluster's copy of the terrain). */
static void copy_layer(const cairn_hpa *h, const hpa_cluster *c,
                       cairn_penalty *local) {
  cairn_penalty_clear(local);
  for (int32_t y = 0; y < c->h; y++) {
    const uint32_t *row = h->pen + hpa_index(h, c->x0, c->y0 + y);
    for (int32_t x = 0; x < c->w; x++) {
      if (row[x] == CAIRN_PENALTY_BLOCK)
        cairn_penalty_block(local, x, y, 1);
      else if (row[x])
        cairn_penalty_add(local, x, y, row[x]);
    }
  }
}

/* Costs and paths between every ordered pair of a cluster's entrances:
 * dist[i * n + j], and the steps of each path in scratch (poff, plen). One
 * Dijkstra per entrance, confined to the cluster and stopped once its
 * targets are settled. On uniform terrain costs are symmetric, so only the
 * later entrances are targets and each path also serves the way back; and
 * a pair joined by a clear straight-as-possible run needs no search. */
static cairn_status cluster_paths(const cairn_hpa *h, const hpa_cluster *c,
                                  const uint32_t *cells, uint32_t n,
                                  hpa_scratch *sc, cairn_cost *dist,
                                  bool layered) {
  cluster_kind kind = classify(h, c);
  cairn_search_opts o = cairn_search_defaults();
  if (layered) { /* penalties break the symmetry and the clear runs */
    kind.uniform = false;
    copy_layer(h, c, sc->lpen);
    o.penalty = sc->lpen;
  }
  /* the cluster's cells, at the local grid's origin; the rest (clusters
   * cut by the map's edge) blocked */
  cairn_rect own = {0, 0, c->w, c->h};
  cairn_grid_set_rect(sc->local, own, h->cost + hpa_index(h, c->x0, c->y0),
                      (size_t)h->stride);
  for (int32_t y = 0; y < h->cs; y++)
    for (int32_t x = y < c->h ? c->w : 0; x < h->cs; x++)
      cairn_grid_set_cost(sc->local, x, y, 0);
  sc->n_steps = 0;
  /* node positions in local coordinates: steps do not depend on the origin */
  for (uint32_t i = 0; i < n; i++) {
    sc->cells[i] = hpa_point(h, cells[i]);
    sc->cells[i].x -= c->x0;
    sc->cells[i].y -= c->y0;
  }
  for (size_t k = 0; k < (size_t)n * n; k++) {
    dist[k] = CAIRN_COST_INF;
    sc->plen[k] = 0;
    sc->poff[k] = 0;
  }
  size_t trace_cap = (size_t)c->w * (size_t)c->h;
  cairn_point *todo = sc->cells + n; /* targets left for the search */
  for (uint32_t i = 0; i < n; i++) {
    dist[i * n + i] = 0;
    if (layered && h->pen[cells[i]] == CAIRN_PENALTY_BLOCK) continue;
    size_t n_todo = 0;
    for (uint32_t j = kind.uniform ? i + 1 : 0; j < n; j++) {
      if (j == i) continue;
      bool nomem = false;
      if (kind.uniform &&
          run_pair(h, sc, n, i, j, h->cost[cells[i]], dist, &nomem)) {
        if (nomem) return CAIRN_ERR_NOMEM;
        continue;
      }
      todo[n_todo++] = sc->cells[j];
    }
    if (!n_todo) continue;
    cairn_status st = cairn_dijkstra_fill(sc->search, sc->local, &sc->cells[i],
                                          1, todo, n_todo, 0, &o);
    if (st != CAIRN_OK) return st;
    for (uint32_t j = kind.uniform ? i + 1 : 0; j < n; j++) {
      if (j == i || dist[i * n + j] != CAIRN_COST_INF) continue;
      cairn_node_info info;
      cairn_search_cell(sc->search, sc->cells[j], &info);
      if (info.state != CAIRN_NODE_CLOSED) continue;
      size_t len;
      st = cairn_search_trace(sc->search, sc->cells[j], sc->trace, trace_cap, &len);
      if (st != CAIRN_OK) return st;
      /* the trace runs j .. i: as codes, the path j -> i */
      for (size_t k = 0; k + 1 < len; k++)
        sc->run[k] = step_code(sc->trace[k], sc->trace[k + 1]);
      dist[i * n + j] = info.g;
      if (!put_steps(h, sc, (size_t)i * n + j, sc->run, len - 1, true))
        return CAIRN_ERR_NOMEM;
      if (kind.uniform) {
        dist[j * n + i] = info.g;
        if (!put_steps(h, sc, (size_t)j * n + i, sc->run, len - 1, false))
          return CAIRN_ERR_NOMEM;
      }
    }
  }
  return CAIRN_OK;
}

/* Whether the edge i -> j of an n x n cost table is redundant: some third
 * node k lies on a shortest path between them, so the edges i -> k and
 * k -> j carry the same cost (each shorter than i -> j, so by induction
 * every distance survives when all such edges go). Dropping them halves the
 * abstract edges on open maps, and their cached paths are never needed. */
bool cairn__hpa_redundant(const cairn_cost *dist, uint32_t n, uint32_t i,
                          uint32_t j) {
  cairn_cost d = dist[i * n + j];
  for (uint32_t k = 0; k < n; k++) {
    if (k == i || k == j) continue;
    cairn_cost a = dist[i * n + k], b = dist[k * n + j];
    if (a != CAIRN_COST_INF && b != CAIRN_COST_INF && a + b == d) return true;
  }
  return false;
}

static bool symmetric(const cairn_cost *dist, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = i + 1; j < n; j++)
      if (dist[i * n + j] != dist[j * n + i]) return false;
  return true;
}

/* On a symmetric table (uniform terrain) i -> j and j -> i are redundant
 * together, so half the tests decide every pair. */
size_t cairn__hpa_keep_pairs(const cairn_cost *dist, uint32_t n,
                             uint32_t *plen) {
  const bool sym = symmetric(dist, n);
  size_t total = 0;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = sym ? i + 1 : 0; j < n; j++) {
      size_t pair = (size_t)i * n + j, back = (size_t)j * n + i;
      if (i == j || dist[pair] == CAIRN_COST_INF ||
          cairn__hpa_redundant(dist, n, i, j)) {
        plen[pair] = 0;
        if (sym) plen[back] = 0;
      }
      total += plen[pair] + (sym ? plen[back] : 0);
    }
  return total;
}

/* Room for nn node pairs in the scratch's pair arrays (contents dropped). */
static bool scratch_pairs(const cairn_hpa *h, hpa_scratch *sc, size_t nn) {
  if (nn <= sc->pairs_cap) return true;
  size_t cap = nn < 256 ? 256 : nn;
  hpa_lock(h);
  uint32_t *poff = hpa_alloc(&h->alloc, cap * sizeof *poff);
  uint32_t *plen = hpa_alloc(&h->alloc, cap * sizeof *plen);
  if (!poff || !plen) {
    hpa_free(&h->alloc, poff, cap * sizeof *poff);
    hpa_free(&h->alloc, plen, cap * sizeof *plen);
  } else {
    hpa_free(&h->alloc, sc->poff, sc->pairs_cap * sizeof *sc->poff);
    hpa_free(&h->alloc, sc->plen, sc->pairs_cap * sizeof *sc->plen);
  }
  hpa_unlock(h);
  if (!poff || !plen) return false;
  sc->poff = poff;
  sc->plen = plen;
  sc->pairs_cap = cap;
  return true;
}

/* Rebuilds cluster k from the grid. On failure the cluster is left empty. */
static cairn_status cluster_build(cairn_hpa *h, uint32_t k, hpa_scratch *sc) {
  hpa_cluster *c = &h->clusters[k];
  int32_t cx = (int32_t)(k % (uint32_t)h->cw), cy = (int32_t)(k / (uint32_t)h->cw);
  const cairn_allocator *a = &h->alloc;
  uint32_t *cells = sc->nodes;
  uint32_t n = cluster_nodes(h, c, cx, cy, sc, cells);
  size_t nn = (size_t)n * n;
  hpa_lock(h);
  cluster_free(a, c);
  cairn_cost *dist = hpa_alloc(a, nn * sizeof *dist);
  uint32_t *off = hpa_alloc(a, (nn + 1) * sizeof *off);
  uint32_t *cell = hpa_alloc(a, n * sizeof *cell);
  hpa_unlock(h);
  cairn_status st = dist && off && cell ? CAIRN_OK : CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK && !scratch_pairs(h, sc, nn)) st = CAIRN_ERR_NOMEM;
  /* under a layer that touches the cluster, the terrain's costs first (for
   * the landmarks), then the layer's, whose paths are the ones kept */
  const bool layered = st == CAIRN_OK && cluster_layered(h, c);
  cairn_cost *bdist = NULL;
  if (layered) {
    hpa_lock(h);
    bdist = hpa_alloc(a, nn * sizeof *bdist);
    hpa_unlock(h);
    st = bdist ? cluster_paths(h, c, cells, n, sc, bdist, false) : CAIRN_ERR_NOMEM;
  }
  if (st == CAIRN_OK) st = cluster_paths(h, c, cells, n, sc, dist, layered);
  /* only the kept edges' paths are stored */
  size_t n_steps = st == CAIRN_OK ? cairn__hpa_keep_pairs(dist, n, sc->plen) : 0;
  uint8_t *steps = NULL;
  if (st == CAIRN_OK) {
    hpa_lock(h);
    steps = hpa_alloc(a, n_steps);
    hpa_unlock(h);
    if (!steps) st = CAIRN_ERR_NOMEM;
  }
  if (st != CAIRN_OK) {
    hpa_lock(h);
    hpa_free(a, dist, nn * sizeof *dist);
    hpa_free(a, off, (nn + 1) * sizeof *off);
    hpa_free(a, cell, n * sizeof *cell);
    hpa_free(a, bdist, nn * sizeof *bdist);
    hpa_unlock(h);
    return st;
  }
  memcpy(cell, cells, n * sizeof *cell);
  size_t at = 0; /* lay the paths out in pair order */
  for (size_t pair = 0; pair < nn; pair++) {
    off[pair] = (uint32_t)at;
    if (sc->plen[pair]) memcpy(steps + at, sc->steps + sc->poff[pair], sc->plen[pair]);
    at += sc->plen[pair];
  }
  off[nn] = (uint32_t)at;
  c->n = n;
  c->cell = cell;
  c->dist = dist;
  c->off = off;
  c->steps = steps;
  c->n_steps = n_steps;
  c->bdist = bdist;
  c->layer_seen = cairn_penalty_version(h->layer);
  return CAIRN_OK;
}

/* ---- building many clusters in parallel ----------------------------- */

static void scratch_free(const cairn_hpa *h, hpa_scratch *sc) {
  size_t cs = (size_t)h->cs, tc = transitions_cap(h->cs);
  cairn_search_destroy(sc->search);
  cairn_penalty_destroy(sc->lpen);
  cairn_grid_destroy(sc->local);
  hpa_free(&h->alloc, sc->trans, tc * sizeof *sc->trans);
  hpa_free(&h->alloc, sc->nodes, 2 * tc * sizeof *sc->nodes);
  hpa_free(&h->alloc, sc->cells, 2 * tc * sizeof *sc->cells);
  hpa_free(&h->alloc, sc->trace, cs * cs * sizeof *sc->trace);
  hpa_free(&h->alloc, sc->run, cs * cs);
  hpa_free(&h->alloc, sc->poff, sc->pairs_cap * sizeof *sc->poff);
  hpa_free(&h->alloc, sc->plen, sc->pairs_cap * sizeof *sc->plen);
  hpa_free(&h->alloc, sc->steps, sc->steps_cap);
  memset(sc, 0, sizeof *sc);
}

/* Called with the allocator's lock held. */
static cairn_status scratch_init(const cairn_hpa *h, hpa_scratch *sc) {
  size_t cs = (size_t)h->cs, tc = transitions_cap(h->cs);
  memset(sc, 0, sizeof *sc);
  cairn_status st = cairn_search_create(&h->alloc, &sc->search);
  if (st == CAIRN_OK) st = cairn_grid_create(h->cs, h->cs, 0, &h->alloc, &sc->local);
  /* everything the search will need, taken now: it must not call the
   * allocator later, outside the lock */
  if (st == CAIRN_OK) st = cairn_search_reserve_grid(sc->search, sc->local);
  if (st == CAIRN_OK) st = cairn_search_reserve_goals(sc->search);
  if (st == CAIRN_OK) st = cairn_search_reserve_fill(sc->search, sc->local);
  if (st == CAIRN_OK && h->layer) st = cairn_penalty_create(sc->local, &h->alloc, &sc->lpen);
  sc->trans = hpa_alloc(&h->alloc, tc * sizeof *sc->trans);
  sc->nodes = hpa_alloc(&h->alloc, 2 * tc * sizeof *sc->nodes);
  sc->cells = hpa_alloc(&h->alloc, 2 * tc * sizeof *sc->cells);
  sc->trace = hpa_alloc(&h->alloc, cs * cs * sizeof *sc->trace);
  sc->run = hpa_alloc(&h->alloc, cs * cs);
  if (st == CAIRN_OK &&
      (!sc->trans || !sc->nodes || !sc->cells || !sc->trace || !sc->run))
    st = CAIRN_ERR_NOMEM;
  if (st != CAIRN_OK) scratch_free(h, sc);
  return st;
}

/* Clusters go out 4 to a task, claimed as workers come free (a fixed split
 * stalls when one core is busy). */
#define HPA_CLUSTERS_PER_TASK 4

/* A worker's part in a pass over clusters: its scratch, set up by the
 * first task that runs on it (so a job system of many workers sets up no
 * more scratch than a small edit has tasks), and the lowest status of its
 * clusters. */
typedef struct cluster_slot {
  hpa_scratch sc;
  bool ready;
  cairn_status failed;
} cluster_slot;

typedef struct cluster_pass {
  cairn_hpa *h;
  const uint32_t *list;
  size_t n;
  cluster_slot *slot; /* one per worker */
} cluster_pass;

static void cluster_task(void *arg, uint32_t task, uint32_t worker) {
  cluster_pass *p = arg;
  cluster_slot *w = &p->slot[worker];
  size_t i = (size_t)task * HPA_CLUSTERS_PER_TASK;
  size_t end = p->n - i < HPA_CLUSTERS_PER_TASK ? p->n : i + HPA_CLUSTERS_PER_TASK;
  for (; i < end; i++) {
    cairn_status st = CAIRN_OK;
    if (!w->ready) { /* again after a failure: the next cluster may fit */
      hpa_lock(p->h);
      st = scratch_init(p->h, &w->sc);
      hpa_unlock(p->h);
      w->ready = st == CAIRN_OK;
    }
    if (st == CAIRN_OK) st = cluster_build(p->h, p->list[i], &w->sc);
    if (st < w->failed) w->failed = st;
  }
}

/* Builds the listed clusters through the hierarchy's jobs. The status is
 * the lowest over all clusters, whichever worker built which. */
static cairn_status build_clusters(cairn_hpa *h, const uint32_t *list,
                                   size_t n) {
  h->version++; /* even if it fails: the clusters are rewritten */
  const uint32_t workers = cairn__workers_count(&h->workers);
  cluster_slot *slot = hpa_alloc(&h->alloc, workers * sizeof *slot);
  if (!slot) return CAIRN_ERR_NOMEM;
  memset(slot, 0, workers * sizeof *slot);
  cluster_pass p = {h, list, n, slot};
  const size_t tasks = (n + HPA_CLUSTERS_PER_TASK - 1) / HPA_CLUSTERS_PER_TASK;
  cairn__workers_run(&h->workers, (uint32_t)tasks, cluster_task, &p);
  cairn_status st = CAIRN_OK;
  for (uint32_t w = 0; w < workers; w++) {
    if (slot[w].failed < st) st = slot[w].failed;
    if (slot[w].ready) scratch_free(h, &slot[w].sc);
  }
  hpa_free(&h->alloc, slot, workers * sizeof *slot);
  return st;
}

/* ---- assembling the abstract graph ---------------------------------- */

uint32_t cairn__hpa_node_at(const cairn_hpa *h, uint32_t cell) {
  const hpa_cluster *c = &h->clusters[hpa_cluster_of(h, hpa_point(h, cell))];
  uint32_t lo = 0, hi = c->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->cell[mid] < cell)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < c->n && c->cell[lo] == cell ? c->first + lo : UINT32_MAX;
}

/* Appends the directed edge of a transition that enters cell `to` (to e
 * when not NULL): none when the layer blocks that cell. `layer` false
 * gives the terrain's cost alone. */
static size_t put_crossing(const cairn_hpa *h, uint32_t from, uint32_t to,
                           bool diag, bool layer, cairn_graph_edge *e) {
  cairn_cost c = layer ? hpa_enter_cost(h, to, diag)
                       : (diag ? CAIRN_COST_DIAG : CAIRN_COST_ONE) * h->cost[to];
  if (c >= HPA_BLOCKED_STEP) return 0;
  if (e) {
    e->from = cairn__hpa_node_at(h, from);
    e->to = cairn__hpa_node_at(h, to);
    e->cost = (double)c / (double)CAIRN_COST_ONE; /* exact: c < 2^53 */
  }
  return 1;
}

/* Appends the (up to) two directed edges of a transition. */
static size_t put_transition(const cairn_hpa *h, const hpa_transition *t,
                             bool layer, cairn_graph_edge *e) {
  size_t m = put_crossing(h, t->a, t->b, t->diag, layer, e);
  return m + put_crossing(h, t->b, t->a, t->diag, layer, e ? e + m : NULL);
}

/* Transitions on the east and south borders and the south-east corner of
 * cluster (cx, cy): each crossing is listed by exactly one cluster. */
static size_t owned_transitions(const cairn_hpa *h, int32_t cx, int32_t cy,
                                hpa_transition *out) {
  size_t n = 0;
  if (cx + 1 < h->cw) n += border_transitions(h, cx, cy, true, out + n);
  if (cy + 1 < h->ch) n += border_transitions(h, cx, cy, false, out + n);
  if (cx + 1 < h->cw && cy + 1 < h->ch) n += corner_transitions(h, cx, cy, out + n);
  return n;
}

/* Writes the intra-cluster edges of c to e (when not NULL), in order, and
 * returns how many there are: the kept edges, or with `base` the costs on
 * terrain alone (every reachable pair where the layer made the cluster's
 * own table, whose redundant pairs were judged by the layer's costs). */
static size_t intra_edges(const hpa_cluster *c, bool base, cairn_graph_edge *e) {
  const bool all = base && c->bdist;
  const cairn_cost *dist = all ? c->bdist : c->dist;
  size_t m = 0;
  for (uint32_t i = 0; i < c->n; i++)
    for (uint32_t j = 0; j < c->n; j++) {
      size_t pair = (size_t)i * c->n + j;
      if (all ? i == j || dist[pair] == CAIRN_COST_INF
              : c->off[pair + 1] == c->off[pair])
        continue; /* not kept */
      if (e) {
        e[m].from = c->first + i;
        e[m].to = c->first + j;
        e[m].cost = (double)dist[pair] / (double)CAIRN_COST_ONE; /* exact: < 2^53 */
      }
      m++;
    }
  return m;
}

/* Writes cluster k's share of the level-1 graph to e (when not NULL): its
 * intra-cluster edges, then those of the transitions it owns; returns how
 * many. `base` as intra_edges. */
static size_t cluster_edges(const cairn_hpa *h, uint32_t k, hpa_transition *trans,
                            bool base, cairn_graph_edge *e) {
  int32_t cx = (int32_t)(k % (uint32_t)h->cw), cy = (int32_t)(k / (uint32_t)h->cw);
  size_t m = intra_edges(&h->clusters[k], base, e);
  size_t nt = owned_transitions(h, cx, cy, trans);
  for (size_t t = 0; t < nt; t++) m += put_transition(h, &trans[t], !base, e ? e + m : NULL);
  return m;
}

/* Writes every edge of the level-1 graph to e (when not NULL) and returns
 * how many there are, and where each cluster's share starts to seg (when
 * not NULL, clusters + 1 entries); `base` as intra_edges. */
static size_t graph_edges(const cairn_hpa *h, hpa_transition *trans, bool base,
                          cairn_graph_edge *e, size_t *seg) {
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  size_t m = 0;
  for (uint32_t k = 0; k < n_clusters; k++) {
    if (seg) seg[k] = m;
    m += cluster_edges(h, k, trans, base, e ? e + m : NULL);
  }
  if (seg) seg[n_clusters] = m;
  return m;
}

static void edges_free(const cairn_hpa *h, hpa_edges *k) {
  const size_t n_clusters = (size_t)h->cw * (size_t)h->ch;
  hpa_free(&h->alloc, k->e, k->m * sizeof *k->e);
  hpa_free(&h->alloc, k->seg, k->seg ? (n_clusters + 1) * sizeof *k->seg : 0);
  hpa_free(&h->alloc, k->xy, 2 * (size_t)k->n * sizeof *k->xy);
  memset(k, 0, sizeof *k);
}

cairn_status cairn__hpa_graph(const cairn_allocator *a, uint32_t n,
                              const double *xy, const cairn_graph_edge *edges,
                              size_t m, cairn_graph **out) {
  cairn_graph_desc d = {n ? n : 1, xy, m, edges, 0, CAIRN_GH_OCTILE, 1.0};
  if (!n) { /* a level without nodes still gets a (one-node) graph */
    d.xy = NULL;
    d.heuristic = CAIRN_GH_ZERO;
  }
  return cairn_graph_create(&d, a, out);
}

/* The CSR graph of the numbered nodes (clusters' first set): the layer's
 * costs, or with `base` the terrain's alone. With keep (not NULL), the
 * edge list, its cluster shares and the positions go there (what was
 * there before is freed) once the graph is made. */
static cairn_status build_graph(const cairn_hpa *h, uint32_t n, bool base,
                                cairn_graph **out, hpa_edges *keep) {
  const cairn_allocator *a = &h->alloc;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  double *xy = hpa_alloc(a, 2 * (size_t)n * sizeof *xy);
  hpa_transition *trans = hpa_alloc(a, transitions_cap(h->cs) * sizeof *trans);
  size_t *seg = keep ? hpa_alloc(a, ((size_t)n_clusters + 1) * sizeof *seg) : NULL;
  cairn_status st = xy && trans && (seg || !keep) ? CAIRN_OK : CAIRN_ERR_NOMEM;
  cairn_graph_edge *edges = NULL;
  size_t m = 0;
  if (st == CAIRN_OK) {
    for (uint32_t k = 0; k < n_clusters; k++)
      for (uint32_t i = 0; i < h->clusters[k].n; i++) {
        uint32_t v = h->clusters[k].first + i;
        cairn_point p = hpa_point(h, h->clusters[k].cell[i]);
        xy[2 * (size_t)v] = p.x;
        xy[2 * (size_t)v + 1] = p.y;
      }
    m = graph_edges(h, trans, base, NULL, NULL);
    edges = hpa_alloc(a, m * sizeof *edges);
    if (!edges) st = CAIRN_ERR_NOMEM;
  }
  if (st == CAIRN_OK) {
    graph_edges(h, trans, base, edges, seg);
    st = cairn__hpa_graph(a, n, xy, edges, m, out);
  }
  if (st == CAIRN_OK && keep) {
    edges_free(h, keep);
    hpa_edges k = {edges, m, seg, xy, n};
    *keep = k;
    edges = NULL;
    seg = NULL;
    xy = NULL;
  }
  hpa_free(a, edges, m * sizeof *edges);
  hpa_free(a, seg, seg ? ((size_t)n_clusters + 1) * sizeof *seg : 0);
  hpa_free(a, xy, 2 * (size_t)n * sizeof *xy);
  hpa_free(a, trans, transitions_cap(h->cs) * sizeof *trans);
  return st;
}

cairn_status cairn__hpa_base_graph(const cairn_hpa *h, cairn_graph **out) {
  return build_graph(h, h->n_nodes, true, out, NULL);
}

/* Numbers the nodes cluster by cluster and builds the CSR graph. */
static cairn_status assemble(cairn_hpa *h) {
  const cairn_allocator *a = &h->alloc;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  uint32_t n = 0;
  for (uint32_t k = 0; k < n_clusters; k++) {
    h->clusters[k].first = n;
    n += h->clusters[k].n;
  }
  uint32_t *node_cluster = hpa_alloc(a, (size_t)n * sizeof *node_cluster);
  cairn_graph *g = NULL;
  /* the edge list is kept for refreshes, which only layers have */
  edges_free(h, &h->kept);
  hpa_edges *keep = h->layer ? &h->kept : NULL;
  cairn_status st = node_cluster ? build_graph(h, n, false, &g, keep) : CAIRN_ERR_NOMEM;
  if (st != CAIRN_OK) {
    hpa_free(a, node_cluster, (size_t)n * sizeof *node_cluster);
    return st;
  }
  for (uint32_t k = 0; k < n_clusters; k++)
    for (uint32_t i = 0; i < h->clusters[k].n; i++)
      node_cluster[h->clusters[k].first + i] = k;
  cairn_graph_destroy(h->graph);
  hpa_free(a, h->node_cluster, (size_t)h->n_nodes * sizeof *h->node_cluster);
  h->graph = g;
  h->node_cluster = node_cluster;
  h->n_nodes = n;
  return CAIRN_OK;
}

static uint8_t *new_marks(cairn_hpa *h);

/* Marks cluster (cx, cy) if it lies on the map. */
static void mark_at(const cairn_hpa *h, int32_t cx, int32_t cy, uint8_t *mark) {
  if (cx >= 0 && cy >= 0 && cx < h->cw && cy < h->ch) mark[cy * h->cw + cx] = 1;
}

/* The abstract graph after a refresh rebuilt the listed clusters, each
 * with the entrances it had (so the node numbering and positions hold):
 * only the edges inside them and those of the transitions entering them
 * can differ. A cluster owns the transitions on its east and south
 * borders and south-east corner, which enter it or its east, south and
 * south-east neighbours, so cluster j's share of the edge list is made
 * again when j or one of those was rebuilt, and every other share is
 * copied from the last assembly. The list is then in a full assembly's
 * order, with its values, and gives the same graph. */
static cairn_status reassemble(cairn_hpa *h, const uint32_t *ids, size_t n) {
  const cairn_allocator *a = &h->alloc;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  uint8_t *redo = new_marks(h);
  hpa_transition *trans = hpa_alloc(a, transitions_cap(h->cs) * sizeof *trans);
  size_t *seg = hpa_alloc(a, ((size_t)n_clusters + 1) * sizeof *seg);
  cairn_graph_edge *edges = NULL;
  size_t m = 0;
  cairn_status st = redo && trans && seg ? CAIRN_OK : CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK) {
    for (size_t i = 0; i < n; i++) {
      int32_t cx = (int32_t)(ids[i] % (uint32_t)h->cw), cy = (int32_t)(ids[i] / (uint32_t)h->cw);
      mark_at(h, cx, cy, redo);
      mark_at(h, cx - 1, cy, redo);
      mark_at(h, cx, cy - 1, redo);
      mark_at(h, cx - 1, cy - 1, redo);
    }
    for (uint32_t k = 0; k < n_clusters; k++)
      m += redo[k] ? cluster_edges(h, k, trans, false, NULL)
                   : h->kept.seg[k + 1] - h->kept.seg[k];
    edges = hpa_alloc(a, m * sizeof *edges);
    if (!edges) st = CAIRN_ERR_NOMEM;
  }
  if (st == CAIRN_OK) {
    size_t at = 0;
    for (uint32_t k = 0; k < n_clusters; k++) {
      seg[k] = at;
      if (redo[k]) {
        at += cluster_edges(h, k, trans, false, edges + at);
      } else {
        size_t len = h->kept.seg[k + 1] - h->kept.seg[k];
        memcpy(edges + at, h->kept.e + h->kept.seg[k], len * sizeof *edges);
        at += len;
      }
    }
    seg[n_clusters] = at;
    cairn_graph *g = NULL;
    st = cairn__hpa_graph(a, h->n_nodes, h->kept.xy, edges, m, &g);
    if (st == CAIRN_OK) {
      cairn_graph_destroy(h->graph);
      h->graph = g;
      hpa_free(a, h->kept.e, h->kept.m * sizeof *h->kept.e);
      hpa_free(a, h->kept.seg, ((size_t)n_clusters + 1) * sizeof *h->kept.seg);
      h->kept.e = edges;
      h->kept.m = m;
      h->kept.seg = seg;
      edges = NULL;
      seg = NULL;
    }
  }
  hpa_free(a, edges, m * sizeof *edges);
  hpa_free(a, seg, seg ? ((size_t)n_clusters + 1) * sizeof *seg : 0);
  hpa_free(a, trans, trans ? transitions_cap(h->cs) * sizeof *trans : 0);
  hpa_free(a, redo, redo ? n_clusters : 0);
  return st;
}

/* ---- public --------------------------------------------------------- */

cairn_hpa_opts cairn_hpa_defaults(void) {
  cairn_hpa_opts o = {.cluster = CAIRN_HPA_DEFAULT_CLUSTER,
                      .jobs = NULL,
                      .threads = 0,
                      .levels = 0,
                      .block = CAIRN_HPA_DEFAULT_BLOCK,
                      .landmarks = CAIRN_HPA_DEFAULT_LANDMARKS};
  return o;
}

void cairn_hpa_destroy(cairn_hpa *h) {
  if (!h) return;
  cairn_allocator a = h->alloc;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  if (h->clusters) {
    for (uint32_t k = 0; k < n_clusters; k++) cluster_free(&a, &h->clusters[k]);
    hpa_free(&a, h->clusters, n_clusters * sizeof *h->clusters);
  }
  cairn__hpa_free_blocks(h);
  edges_free(h, &h->kept);
  hpa_free(&a, h->lm_costs, h->lm_size * sizeof *h->lm_costs);
  cairn_graph_destroy(h->graph);
  hpa_free(&a, h->node_cluster, (size_t)h->n_nodes * sizeof *h->node_cluster);
  cairn__workers_free(&h->workers);
  cairn__mutex_destroy(&h->alloc_lock);
  hpa_free(&a, h, sizeof *h);
}

/* Block geometry, when the third level is on. */
static cairn_status blocks_init(cairn_hpa *h, int32_t bs) {
  h->bs = bs;
  h->bw = (h->cw + bs - 1) / bs;
  h->bh = (h->ch + bs - 1) / bs;
  uint32_t n = (uint32_t)h->bw * (uint32_t)h->bh;
  h->blocks = hpa_alloc(&h->alloc, n * sizeof *h->blocks);
  if (!h->blocks) return CAIRN_ERR_NOMEM;
  memset(h->blocks, 0, n * sizeof *h->blocks);
  for (uint32_t k = 0; k < n; k++) {
    hpa_block *b = &h->blocks[k];
    b->cx0 = (int32_t)(k % (uint32_t)h->bw) * bs;
    b->cy0 = (int32_t)(k / (uint32_t)h->bw) * bs;
    b->cw = b->cx0 + bs > h->cw ? h->cw - b->cx0 : bs;
    b->ch = b->cy0 + bs > h->ch ? h->ch - b->cy0 : bs;
  }
  return CAIRN_OK;
}

/* The blocks holding any of the listed clusters, each once (ascending). */
static cairn_status rebuild_blocks(cairn_hpa *h, const uint32_t *clusters,
                                   size_t n) {
  uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
  uint32_t *list = hpa_alloc(&h->alloc, n_blocks * sizeof *list);
  if (!list) return CAIRN_ERR_NOMEM;
  for (uint32_t b = 0; b < n_blocks; b++) list[b] = 0;
  /* under a layer a cluster's crossings can also decide which nodes of
   * the block across its border are level-2 nodes (crosses_block in
   * hpa_level2.c): the blocks of its neighbours too */
  const int32_t r = h->layer ? 1 : 0;
  for (size_t i = 0; i < n; i++) {
    int32_t cx = (int32_t)(clusters[i] % (uint32_t)h->cw), cy = (int32_t)(clusters[i] / (uint32_t)h->cw);
    for (int32_t y = cy - r; y <= cy + r; y++)
      for (int32_t x = cx - r; x <= cx + r; x++)
        if (x >= 0 && y >= 0 && x < h->cw && y < h->ch)
          list[hpa_block_of_cluster(h, (uint32_t)y * (uint32_t)h->cw + (uint32_t)x)] = 1;
  }
  size_t m = 0;
  for (uint32_t b = 0; b < n_blocks; b++)
    if (list[b]) list[m++] = b;
  cairn_status st = cairn__hpa_build_blocks(h, list, m);
  hpa_free(&h->alloc, list, n_blocks * sizeof *list);
  return st;
}

static cairn_status hpa_init(cairn_hpa *h, const cairn_grid *grid,
                             int32_t cs) {
  h->grid = grid;
  h->cost = cairn_grid_cells(grid, &h->stride);
  h->moves = cairn_grid_moves(grid, NULL);
  h->width = cairn_grid_width(grid);
  h->height = cairn_grid_height(grid);
  h->cs = cs;
  h->cw = (h->width + cs - 1) / cs;
  h->ch = (h->height + cs - 1) / cs;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  h->clusters = hpa_alloc(&h->alloc, n_clusters * sizeof *h->clusters);
  if (!h->clusters) return CAIRN_ERR_NOMEM;
  memset(h->clusters, 0, n_clusters * sizeof *h->clusters);
  for (uint32_t k = 0; k < n_clusters; k++) {
    hpa_cluster *c = &h->clusters[k];
    c->x0 = (int32_t)(k % (uint32_t)h->cw) * cs;
    c->y0 = (int32_t)(k / (uint32_t)h->cw) * cs;
    c->w = c->x0 + cs > h->width ? h->width - c->x0 : cs;
    c->h = c->y0 + cs > h->height ? h->height - c->y0 : cs;
  }
  return CAIRN_OK;
}

/* The lock and the jobs of a new hierarchy; on failure neither is left. */
static cairn_status jobs_init(cairn_hpa *h, const cairn_hpa_opts *o) {
  cairn_status st = cairn__mutex_init(&h->alloc_lock);
  if (st != CAIRN_OK) return st;
  st = cairn__workers_init(&h->workers, o->jobs, o->threads, &h->alloc);
  if (st != CAIRN_OK) cairn__mutex_destroy(&h->alloc_lock);
  return st;
}

cairn_status cairn_hpa_create(const cairn_grid *grid,
                              const cairn_hpa_opts *opts,
                              const cairn_allocator *alloc, cairn_hpa **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  cairn_hpa_opts o = opts ? *opts : cairn_hpa_defaults();
  if (o.cluster == 0) o.cluster = CAIRN_HPA_DEFAULT_CLUSTER;
  if (o.block == 0) o.block = CAIRN_HPA_DEFAULT_BLOCK;
  if (!grid || o.cluster < CAIRN_HPA_MIN_CLUSTER ||
      o.cluster > CAIRN_HPA_MAX_CLUSTER || o.threads < 0 ||
      o.threads > CAIRN_JOBS_MAX_WORKERS || cairn_jobs_check(o.jobs) != CAIRN_OK ||
      (o.levels != 0 && o.levels != 2 && o.levels != 3) || o.block < 2 ||
      o.block > 64 || o.landmarks < -1 ||
      o.landmarks > CAIRN_GRAPH_MAX_LANDMARKS)
    return CAIRN_ERR_ARG;
  if (o.landmarks == 0) o.landmarks = CAIRN_HPA_DEFAULT_LANDMARKS;
  double t0 = cairn__hpa_now_ms();
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_hpa *h = hpa_alloc(&a, sizeof *h);
  if (!h) return CAIRN_ERR_NOMEM;
  memset(h, 0, sizeof *h);
  h->alloc = a;
  h->landmarks = o.landmarks < 0 ? 0 : o.landmarks;
  cairn_status st = jobs_init(h, &o);
  if (st != CAIRN_OK) { /* not for cairn_hpa_destroy: it frees both */
    hpa_free(&a, h, sizeof *h);
    return st;
  }
  st = hpa_init(h, grid, o.cluster);
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  uint32_t *all = NULL;
  if (st == CAIRN_OK) {
    all = hpa_alloc(&a, n_clusters * sizeof *all);
    if (!all) st = CAIRN_ERR_NOMEM;
  }
  if (st == CAIRN_OK) {
    for (uint32_t k = 0; k < n_clusters; k++) all[k] = k;
    st = build_clusters(h, all, n_clusters);
  }
  if (st == CAIRN_OK) st = assemble(h);
  if (st == CAIRN_OK) st = cairn__hpa_landmarks(h, 1);
  if (st == CAIRN_OK) {
    h->levels = o.levels ? o.levels : n_clusters >= CAIRN_HPA_AUTO_LEVEL3 ? 3 : 2;
    if (h->levels == 3) st = blocks_init(h, o.block);
    if (h->levels == 3 && st == CAIRN_OK) st = rebuild_blocks(h, all, n_clusters);
    if (h->levels == 3 && st == CAIRN_OK) st = cairn__hpa_landmarks(h, 2);
  }
  hpa_free(&a, all, n_clusters * sizeof *all);
  if (st != CAIRN_OK) {
    cairn_hpa_destroy(h);
    return st;
  }
  h->build_ms = cairn__hpa_now_ms() - t0;
  h->rebuilt = n_clusters;
  *out = h;
  return CAIRN_OK;
}

/* Marks in `mark` (one byte per cluster) the clusters a change of the
 * cells in r can affect: a cell on a cluster border moves that border's
 * entrances, so the clusters within one cell of the change. */
static void mark_clusters(const cairn_hpa *h, cairn_rect r, uint8_t *mark) {
  int32_t x0 = r.x - 1, y0 = r.y - 1;
  int32_t x1 = r.x + r.w, y1 = r.y + r.h; /* inclusive, one cell out */
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > h->width - 1) x1 = h->width - 1;
  if (y1 > h->height - 1) y1 = h->height - 1;
  for (int32_t cy = y0 / h->cs; cy <= y1 / h->cs; cy++)
    for (int32_t cx = x0 / h->cs; cx <= x1 / h->cs; cx++)
      mark[cy * h->cw + cx] = 1;
}

/* Rebuilds the marked clusters, all at once (the abstract graph is
 * reassembled from every cluster, so no changed cell may be left behind),
 * then the blocks holding them and the islands (of grid, unless NULL). */
static cairn_status rebuild_marked(cairn_hpa *h, cairn_grid *grid,
                                   uint8_t *mark, double t0) {
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  /* after a failed rebuild some clusters are empty: redo everything */
  if (h->stale) memset(mark, 1, n_clusters);
  size_t n = 0;
  for (uint32_t k = 0; k < n_clusters; k++) n += mark[k];
  uint32_t *ids = hpa_alloc(&h->alloc, (n ? n : 1) * sizeof *ids);
  cairn_status st = ids ? CAIRN_OK : CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK) {
    size_t k = 0;
    for (uint32_t c = 0; c < n_clusters; c++)
      if (mark[c]) ids[k++] = c;
    st = build_clusters(h, ids, n);
  }
  if (st == CAIRN_OK) st = assemble(h);
  if (st == CAIRN_OK && h->levels == 3) st = rebuild_blocks(h, ids, n);
  hpa_free(&h->alloc, ids, (n ? n : 1) * sizeof *ids);
  if (st == CAIRN_OK && grid && !cairn_grid_islands_fresh(grid))
    st = cairn_grid_update_islands(grid);
  if (st == CAIRN_OK) st = cairn__hpa_landmarks(h, 1);
  if (st == CAIRN_OK && h->levels == 3) st = cairn__hpa_landmarks(h, 2);
  h->stale = st != CAIRN_OK;
  h->update_ms = cairn__hpa_now_ms() - t0;
  h->rebuilt = (uint32_t)n;
  return st;
}

static uint8_t *new_marks(cairn_hpa *h) {
  size_t n = (size_t)h->cw * (size_t)h->ch;
  uint8_t *mark = hpa_alloc(&h->alloc, n);
  if (mark) memset(mark, 0, n);
  return mark;
}

cairn_status cairn_hpa_update(cairn_hpa *h, cairn_grid *grid,
                              cairn_rect r) {
  if (!h || grid != h->grid) return CAIRN_ERR_ARG;
  if (r.w <= 0 || r.h <= 0) return CAIRN_ERR_ARG;
  if (r.x >= h->width || r.y >= h->height || r.x + r.w <= 0 || r.y + r.h <= 0)
    return CAIRN_ERR_RANGE;
  double t0 = cairn__hpa_now_ms();
  uint8_t *mark = new_marks(h);
  if (!mark) {
    h->stale = true;
    h->version++;
    return CAIRN_ERR_NOMEM;
  }
  mark_clusters(h, r, mark);
  cairn_status st = rebuild_marked(h, grid, mark, t0);
  hpa_free(&h->alloc, mark, (size_t)h->cw * (size_t)h->ch);
  return st;
}

cairn_status cairn_hpa_edit(cairn_hpa *h, cairn_grid *grid,
                            const cairn_point *cells, const uint8_t *costs,
                            size_t n) {
  if (!h || grid != h->grid || (n && (!cells || !costs))) return CAIRN_ERR_ARG;
  if (n == 0) return CAIRN_OK;
  for (size_t i = 0; i < n; i++)
    if (!cairn_grid_contains(grid, cells[i].x, cells[i].y)) return CAIRN_ERR_RANGE;
  double t0 = cairn__hpa_now_ms();
  uint8_t *mark = new_marks(h);
  for (size_t i = 0; i < n; i++) {
    cairn_grid_set_cost(grid, cells[i].x, cells[i].y, costs[i]);
    cairn_rect r = {cells[i].x, cells[i].y, 1, 1};
    if (mark) mark_clusters(h, r, mark);
  }
  if (!mark) {
    h->stale = true;
    h->version++;
    return CAIRN_ERR_NOMEM;
  }
  cairn_status st = rebuild_marked(h, grid, mark, t0);
  hpa_free(&h->alloc, mark, (size_t)h->cw * (size_t)h->ch);
  return st;
}

/* ---- cost layers ---------------------------------------------------- */

static cairn_rect cluster_box(const hpa_cluster *c) {
  cairn_rect r = {c->x0, c->y0, c->w, c->h};
  return r;
}

/* Whether the layer changed over the cluster since it was built. */
static bool layer_stale(const cairn_hpa *h, const hpa_cluster *c) {
  return h->layer && cairn_penalty_changed(h->layer, cluster_box(c)) > c->layer_seen;
}

cairn_status cairn_hpa_set_layer(cairn_hpa *h, const cairn_penalty *layer) {
  if (!h || (layer && !cairn_penalty_fits(layer, h->grid))) return CAIRN_ERR_ARG;
  double t0 = cairn__hpa_now_ms();
  uint8_t *mark = new_marks(h);
  if (!mark) return CAIRN_ERR_NOMEM;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  /* the clusters the old layer made, and those the new one touches */
  for (uint32_t k = 0; k < n_clusters; k++) mark[k] = h->clusters[k].bdist != NULL;
  h->layer = layer;
  h->pen = layer ? cairn_penalty_cells(layer, NULL) : NULL;
  h->refresh_at = 0;
  for (uint32_t k = 0; k < n_clusters; k++)
    if (cluster_layered(h, &h->clusters[k])) mark[k] = 1;
  if (!layer) { /* the kept landmark table is for layers only */
    hpa_free(&h->alloc, h->lm_costs, h->lm_size * sizeof *h->lm_costs);
    h->lm_costs = NULL;
    h->lm_size = 0;
    h->lm_n = 0;
  }
  cairn_status st = rebuild_marked(h, NULL, mark, t0);
  hpa_free(&h->alloc, mark, n_clusters);
  return st;
}

/* Picks up to max (0: no limit) stale clusters into ids, in a round from
 * h->refresh_at; returns how many, and the stale ones left in *left. */
static size_t pick_stale(const cairn_hpa *h, uint32_t max, uint32_t *ids,
                         uint32_t *left) {
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  size_t n = 0;
  *left = 0;
  for (uint32_t i = 0; i < n_clusters; i++) {
    uint32_t k = (h->refresh_at + i) % n_clusters;
    if (!layer_stale(h, &h->clusters[k])) continue;
    if (max == 0 || n < max)
      ids[n++] = k;
    else
      (*left)++;
  }
  return n;
}

cairn_status cairn_hpa_refresh(cairn_hpa *h, uint32_t max_clusters,
                               uint32_t *pending) {
  if (pending) *pending = 0;
  if (!h) return CAIRN_ERR_ARG;
  if (!h->layer) return CAIRN_OK;
  double t0 = cairn__hpa_now_ms();
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  if (h->stale) { /* a failed update or refresh left clusters empty */
    uint8_t *mark = new_marks(h);
    if (!mark) return CAIRN_ERR_NOMEM;
    memset(mark, 1, n_clusters);
    cairn_status st = rebuild_marked(h, NULL, mark, t0);
    hpa_free(&h->alloc, mark, n_clusters);
    return st;
  }
  uint32_t *ids = hpa_alloc(&h->alloc, 2 * (size_t)n_clusters * sizeof *ids);
  if (!ids) return CAIRN_ERR_NOMEM;
  uint32_t left;
  size_t n = pick_stale(h, max_clusters, ids, &left);
  cairn_status st = CAIRN_OK;
  if (n) {
    /* entrances follow the grid alone, so they hold unless the grid
     * changed behind the hierarchy's back: then a full assembly */
    uint32_t *was = ids + n_clusters; /* the entrance counts before */
    bool same = h->kept.e != NULL && h->kept.n == h->n_nodes;
    for (size_t i = 0; i < n; i++) was[i] = h->clusters[ids[i]].n;
    st = build_clusters(h, ids, n);
    for (size_t i = 0; i < n && same; i++) same = h->clusters[ids[i]].n == was[i];
    if (st == CAIRN_OK) st = same ? reassemble(h, ids, n) : assemble(h);
    /* landmarks measure terrain alone: the kept table still holds */
    if (st == CAIRN_OK) st = cairn__hpa_put_landmarks(h);
    if (st == CAIRN_OK && h->levels == 3) st = rebuild_blocks(h, ids, n);
    h->stale = st != CAIRN_OK;
    h->refresh_at = (ids[n - 1] + 1) % n_clusters;
    h->update_ms = cairn__hpa_now_ms() - t0;
    h->rebuilt = (uint32_t)n;
  }
  hpa_free(&h->alloc, ids, 2 * (size_t)n_clusters * sizeof *ids);
  if (pending) *pending = st == CAIRN_OK ? left : n_clusters;
  return st;
}

void cairn_hpa_get_stats(const cairn_hpa *h, cairn_hpa_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!h) return;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  size_t mem = sizeof *h + n_clusters * sizeof *h->clusters;
  for (uint32_t k = 0; k < n_clusters; k++) {
    const hpa_cluster *c = &h->clusters[k];
    size_t nn = (size_t)c->n * c->n;
    mem += c->n * sizeof *c->cell + nn * sizeof *c->dist +
           (nn + 1) * sizeof *c->off + c->n_steps + (c->bdist ? nn * sizeof *c->bdist : 0);
  }
  size_t m = cairn_graph_edges(h->graph);
  /* the CSR graph: offsets, targets, costs, positions */
  mem += ((size_t)h->n_nodes + 1) * sizeof(uint32_t) +
         m * (sizeof(uint32_t) + sizeof(cairn_cost)) +
         2 * (size_t)h->n_nodes * sizeof(double);
  mem += (size_t)h->n_nodes * sizeof *h->node_cluster;
  mem += cairn_graph_landmark_bytes(h->graph) + cairn_graph_landmark_bytes(h->graph2);
  mem += cairn__hpa_blocks_memory(h) + h->lm_size * sizeof *h->lm_costs;
  if (h->kept.e) /* the edge list kept for refreshes */
    mem += h->kept.m * sizeof *h->kept.e + ((size_t)n_clusters + 1) * sizeof *h->kept.seg +
           2 * (size_t)h->kept.n * sizeof *h->kept.xy;
  out->landmarks = cairn_graph_landmarks(h->graph);
  out->levels = h->levels;
  if (h->levels == 3) {
    out->block = h->bs;
    out->blocks = (uint32_t)h->bw * (uint32_t)h->bh;
    out->nodes2 = h->n2;
    out->edges2 = cairn_graph_edges(h->graph2);
  }
  out->cluster = h->cs;
  out->clusters = n_clusters;
  out->nodes = h->n_nodes;
  out->edges = m;
  out->memory_bytes = mem;
  out->build_ms = h->build_ms;
  out->update_ms = h->update_ms;
  out->rebuilt_clusters = h->rebuilt;
  for (uint32_t k = 0; k < n_clusters; k++) {
    out->layered_clusters += h->clusters[k].bdist != NULL;
    out->stale_clusters += layer_stale(h, &h->clusters[k]);
  }
}

cairn_status cairn_hpa_node(const cairn_hpa *h, uint32_t node,
                            cairn_point *out) {
  if (!h || !out) return CAIRN_ERR_ARG;
  if (h->stale) return CAIRN_ERR_STATE;
  if (node >= h->n_nodes) return CAIRN_ERR_RANGE;
  *out = hpa_point(h, hpa_node_cell(h, node));
  return CAIRN_OK;
}

const cairn_graph *cairn_hpa_graph(const cairn_hpa *h) {
  return h ? h->graph : NULL;
}
