/* Building clusters: for one cluster, the costs and grid paths between
 * every ordered pair of its entrances (clear runs where the terrain allows,
 * Dijkstras confined to the cluster otherwise) and which of them the
 * abstract graph keeps; and the pass that builds many clusters in parallel
 * as tasks of the hierarchy's jobs, each worker with scratch of its own.
 *
 * Everything a cluster stores depends only on the cells of the cluster and
 * the border cells of its neighbours, so clusters are built independently
 * and an edit redoes only the clusters within one cell of it. */
#include "hpa_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- one cluster ---------------------------------------------------- */

/* One worker's scratch for building clusters, set up by the first task
 * that runs on the worker. */
typedef struct hpa_scratch {
  /* a cs x cs copy of the cluster being built, and a search sized for it:
   * small enough to stay in cache, and an edit never allocates a search
   * over the whole map */
  cairn_grid *local;
  cairn_search *search;
  hpa_transition *trans; /* hpa_transitions_cap */
  uint32_t *nodes;       /* a cluster's entrance cells: 2 x hpa_transitions_cap */
  cairn_point *cells;    /* and as points: 2 x hpa_transitions_cap */
  cairn_point *trace;    /* cs * cs */
  uint8_t *run;          /* one path's codes: cs * cs */
  uint32_t *poff, *plen; /* per node pair: where its steps are in `steps` */
  size_t pairs_cap;
  uint8_t *steps;        /* growing; in the order the paths were found */
  size_t steps_cap, n_steps;
  cairn_penalty *lpen;   /* under a layer: its cells over `local` */
  /* a cluster of one terrain without a layer reads the grid's clearances
   * instead of a copy in `local` (flat_paths) */
  hpa_fit_search fs;
  uint32_t *tid, *val;   /* the searched targets' nodes and costs: 2 x
                            hpa_transitions_cap each */
} hpa_scratch;

void cairn__hpa_cluster_free(const cairn_allocator *a, hpa_cluster *c) {
  cairn__free(a, c->dist, hpa_tables_bytes(c->n, c->bdist != NULL));
  cairn__free(a, c->steps, c->n_steps);
  c->bdist = NULL;
  c->cell = NULL;
  c->dist = NULL;
  c->off = NULL;
  c->steps = NULL;
  c->n = 0;
  c->n_steps = 0;
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
    ok = cairn__grow(&h->alloc, (void **)&sc->steps, &sc->steps_cap,
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
    if (cairn__dx[d] == dx && cairn__dy[d] == dy) return d;
  return 0; /* not reached: traces are chains of neighbours */
}

/* A run of the given shape (HPA_RUN_*) from a to b, as direction codes into buf;
 * false if it meets a wall or cuts a corner (the local grid's move sets
 * say both). On uniform terrain a clear run costs the octile distance, a
 * lower bound on any path, so it is a shortest path and needs no search. */
bool cairn__hpa_clear_run(const cairn_grid *local, cairn_point a, cairn_point b,
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
    c += cairn__dx[code] + cairn__dy[code] * stride;
    buf[k] = code;
  }
  *len = (size_t)n;
  return true;
}

/* Whether the layer puts anything on the cluster's cells. */
bool cairn__hpa_cluster_layered(const cairn_hpa *h, const hpa_cluster *c) {
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

/* Records the path i -> j and its way back, both of cost d, from the
 * len codes in sc->run: those of the path j -> i when `back`, else of
 * i -> j. */
static bool put_pair(const cairn_hpa *h, hpa_scratch *sc, uint32_t n, uint32_t i, uint32_t j,
                     cairn_cost d, size_t len, bool back, cairn_cost *dist) {
  dist[i * n + j] = dist[j * n + i] = d;
  return put_steps(h, sc, (size_t)i * n + j, sc->run, len, back) &&
         put_steps(h, sc, (size_t)j * n + i, sc->run, len, !back);
}

/* cluster_paths on a cluster whose open cells all cost `cost`, without a
 * layer (the usual case): the clear runs and the searches read the grid's
 * clearances (the sized pass's search, hpa_sizes_search.c, for size 1)
 * instead of a copy of the cluster, whose move sets and clearances cost
 * about as much to make as the searches. */
static cairn_status flat_paths(const cairn_hpa *h, const hpa_cluster *c, uint32_t n,
                               hpa_scratch *sc, cairn_cost *dist, uint8_t cost) {
  cairn_point *todo = sc->cells + n; /* targets left for the search */
  cairn__hpa_fit_load(h, c, &sc->fs);
  for (uint32_t i = 0; i < n; i++) {
    size_t n_todo = 0;
    for (uint32_t j = i + 1; j < n; j++) {
      cairn_point a = sc->cells[i], b = sc->cells[j];
      int shape = 0;
      while (shape < HPA_RUN_SHAPES && !cairn__hpa_fit_run(&sc->fs, 1, a, b, shape, sc->run))
        shape++;
      if (shape == HPA_RUN_SHAPES) {
        sc->tid[n_todo] = j;
        todo[n_todo++] = b;
        continue;
      }
      int32_t ax = abs(b.x - a.x), ay = abs(b.y - a.y);
      int32_t nd = ax < ay ? ax : ay, ns = (ax < ay ? ay : ax) - nd;
      cairn_cost d = ((cairn_cost)nd * CAIRN_COST_DIAG + (cairn_cost)ns * CAIRN_COST_ONE) * cost;
      if (!put_pair(h, sc, n, i, j, d, (size_t)(ax < ay ? ay : ax), false, dist))
        return CAIRN_ERR_NOMEM;
    }
    if (!n_todo) continue;
    cairn__hpa_fit_fill(&sc->fs, 1, sc->cells[i], todo, n_todo, sc->val);
    for (size_t x = 0; x < n_todo; x++) {
      if (sc->val[x] == UINT32_MAX) continue;
      size_t len = cairn__hpa_fit_trace(&sc->fs, todo[x], sc->run);
      if (!put_pair(h, sc, n, i, sc->tid[x], (cairn_cost)sc->val[x] * cost, len, true, dist))
        return CAIRN_ERR_NOMEM;
    }
  }
  return CAIRN_OK;
}

/* Costs and paths between every ordered pair of a cluster's entrances:
 * dist[i * n + j], and the steps of each path in scratch (poff, plen). One
 * Dijkstra per entrance, confined to the cluster and stopped once its
 * targets are settled. A cluster of one terrain without a layer goes to
 * flat_paths: its costs are symmetric, so only the later entrances are
 * targets and each path also serves the way back, and a pair joined by a
 * clear straight-as-possible run needs no search. */
static cairn_status cluster_paths(const cairn_hpa *h, const hpa_cluster *c,
                                  const uint32_t *cells, uint32_t n,
                                  hpa_scratch *sc, cairn_cost *dist,
                                  bool layered) {
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
  for (uint32_t i = 0; i < n; i++) dist[i * n + i] = 0;
  if (!n) return CAIRN_OK;
  /* penalties break the symmetry and the clear runs */
  if (!layered && hpa_one_terrain(h, (cairn_rect){c->x0, c->y0, c->w, c->h}))
    return flat_paths(h, c, n, sc, dist, h->cost[cells[0]]);
  cairn_status ready = cairn__hpa_local_ready(h, &sc->search, &sc->local, &sc->lpen);
  if (ready != CAIRN_OK) return ready;
  cairn_search_opts o = cairn_search_defaults();
  if (layered) {
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
  size_t trace_cap = (size_t)c->w * (size_t)c->h;
  cairn_point *todo = sc->cells + n; /* targets for the search */
  for (uint32_t i = 0; i < n; i++) {
    if (layered && h->pen[cells[i]] == CAIRN_PENALTY_BLOCK) continue;
    size_t n_todo = 0;
    for (uint32_t j = 0; j < n; j++)
      if (j != i) todo[n_todo++] = sc->cells[j];
    if (!n_todo) continue;
    cairn_status st = cairn_dijkstra_fill(sc->search, sc->local, &sc->cells[i],
                                          1, todo, n_todo, 0, &o);
    if (st != CAIRN_OK) return st;
    for (uint32_t j = 0; j < n; j++) {
      if (j == i) continue;
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

void cairn__hpa_pack_paths(void *to, const void *from, size_t elem,
                           const uint32_t *poff, const uint32_t *plen,
                           size_t nn, uint32_t *off) {
  size_t at = 0;
  for (size_t pair = 0; pair < nn; pair++) {
    off[pair] = (uint32_t)at;
    if (plen[pair])
      memcpy((char *)to + at * elem, (const char *)from + (size_t)poff[pair] * elem,
             plen[pair] * elem);
    at += plen[pair];
  }
  off[nn] = (uint32_t)at;
}

/* Room for nn node pairs in the scratch's pair arrays (contents dropped). */
static bool scratch_pairs(const cairn_hpa *h, hpa_scratch *sc, size_t nn) {
  if (nn <= sc->pairs_cap) return true;
  size_t cap = nn < 256 ? 256 : nn;
  hpa_lock(h);
  uint32_t *poff = cairn__alloc(&h->alloc, cap * sizeof *poff);
  uint32_t *plen = cairn__alloc(&h->alloc, cap * sizeof *plen);
  if (!poff || !plen) {
    cairn__free(&h->alloc, poff, cap * sizeof *poff);
    cairn__free(&h->alloc, plen, cap * sizeof *plen);
  } else {
    cairn__free(&h->alloc, sc->poff, sc->pairs_cap * sizeof *sc->poff);
    cairn__free(&h->alloc, sc->plen, sc->pairs_cap * sizeof *sc->plen);
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
  uint32_t n = cairn__hpa_cluster_nodes(h, cx, cy, sc->trans, cells);
  size_t nn = (size_t)n * n;
  /* under a layer that touches the cluster, the terrain's costs first (for
   * the landmarks), then the layer's, whose paths are the ones kept */
  const bool layered = cairn__hpa_cluster_layered(h, c);
  const size_t bytes = hpa_tables_bytes(n, layered);
  hpa_lock(h);
  cairn__hpa_cluster_free(a, c);
  void *tables = cairn__alloc(a, bytes);
  hpa_unlock(h);
  cairn_status st = tables ? CAIRN_OK : CAIRN_ERR_NOMEM;
  hpa_cluster t; /* the tables' parts, placed in c once the paths are in */
  if (st == CAIRN_OK) hpa_tables_place(&t, tables, n, layered);
  if (st == CAIRN_OK && !scratch_pairs(h, sc, nn)) st = CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK && layered) st = cluster_paths(h, c, cells, n, sc, t.bdist, false);
  if (st == CAIRN_OK) st = cluster_paths(h, c, cells, n, sc, t.dist, layered);
  /* only the kept edges' paths are stored */
  size_t n_steps = st == CAIRN_OK ? cairn__hpa_keep_pairs(t.dist, n, sc->plen) : 0;
  uint8_t *steps = NULL;
  if (st == CAIRN_OK) {
    hpa_lock(h);
    steps = cairn__alloc(a, n_steps);
    hpa_unlock(h);
    if (!steps) st = CAIRN_ERR_NOMEM;
  }
  if (st != CAIRN_OK) {
    hpa_lock(h);
    cairn__free(a, tables, bytes);
    hpa_unlock(h);
    return st;
  }
  memcpy(t.cell, cells, n * sizeof *t.cell);
  cairn__hpa_pack_paths(steps, sc->steps, 1, sc->poff, sc->plen, nn, t.off);
  hpa_tables_place(c, tables, n, layered);
  c->n = n;
  c->steps = steps;
  c->n_steps = n_steps;
  c->layer_seen = cairn_penalty_version(h->layer);
  return CAIRN_OK;
}

/* ---- building many clusters in parallel ----------------------------- */

cairn_status cairn__hpa_local_ready(const cairn_hpa *h, cairn_search **search,
                                    cairn_grid **local, cairn_penalty **lpen) {
  if (*search) return CAIRN_OK;
  hpa_lock(h);
  cairn_status st = cairn_search_create(&h->alloc, search);
  if (st == CAIRN_OK) st = cairn_grid_create(h->cs, h->cs, 0, &h->alloc, local);
  /* everything the searches will need, taken now: they must not call the
   * allocator later, outside the lock */
  if (st == CAIRN_OK) st = cairn_search_reserve_grid(*search, *local);
  if (st == CAIRN_OK) st = cairn_search_reserve_goals(*search);
  if (st == CAIRN_OK) st = cairn_search_reserve_fill(*search, *local);
  if (st == CAIRN_OK && h->layer) st = cairn_penalty_create(*local, &h->alloc, lpen);
  if (st != CAIRN_OK) {
    cairn__hpa_local_free(*search, *local, *lpen);
    *search = NULL;
    *local = NULL;
    *lpen = NULL;
  }
  hpa_unlock(h);
  return st;
}

void cairn__hpa_local_free(cairn_search *search, cairn_grid *local, cairn_penalty *lpen) {
  cairn_search_destroy(search);
  cairn_penalty_destroy(lpen);
  cairn_grid_destroy(local);
}

static void scratch_free(const cairn_hpa *h, hpa_scratch *sc) {
  size_t cs = (size_t)h->cs, tc = hpa_transitions_cap(h->cs);
  cairn__hpa_local_free(sc->search, sc->local, sc->lpen);
  cairn__hpa_fit_search_free(&h->alloc, &sc->fs);
  cairn__free(&h->alloc, sc->tid, 2 * tc * sizeof *sc->tid);
  cairn__free(&h->alloc, sc->val, 2 * tc * sizeof *sc->val);
  cairn__free(&h->alloc, sc->trans, tc * sizeof *sc->trans);
  cairn__free(&h->alloc, sc->nodes, 2 * tc * sizeof *sc->nodes);
  cairn__free(&h->alloc, sc->cells, 2 * tc * sizeof *sc->cells);
  cairn__free(&h->alloc, sc->trace, cs * cs * sizeof *sc->trace);
  cairn__free(&h->alloc, sc->run, cs * cs);
  cairn__free(&h->alloc, sc->poff, sc->pairs_cap * sizeof *sc->poff);
  cairn__free(&h->alloc, sc->plen, sc->pairs_cap * sizeof *sc->plen);
  cairn__free(&h->alloc, sc->steps, sc->steps_cap);
  memset(sc, 0, sizeof *sc);
}

/* Called with the allocator's lock held. */
static cairn_status scratch_init(const cairn_hpa *h, hpa_scratch *sc) {
  size_t cs = (size_t)h->cs, tc = hpa_transitions_cap(h->cs);
  memset(sc, 0, sizeof *sc); /* the local grid and its search come when needed */
  sc->trans = cairn__alloc(&h->alloc, tc * sizeof *sc->trans);
  sc->nodes = cairn__alloc(&h->alloc, 2 * tc * sizeof *sc->nodes);
  sc->cells = cairn__alloc(&h->alloc, 2 * tc * sizeof *sc->cells);
  sc->trace = cairn__alloc(&h->alloc, cs * cs * sizeof *sc->trace);
  sc->run = cairn__alloc(&h->alloc, cs * cs);
  sc->tid = cairn__alloc(&h->alloc, 2 * tc * sizeof *sc->tid);
  sc->val = cairn__alloc(&h->alloc, 2 * tc * sizeof *sc->val);
  if (sc->trans && sc->nodes && sc->cells && sc->trace && sc->run && sc->tid && sc->val &&
      cairn__hpa_fit_search_init(&h->alloc, &sc->fs, h->cs))
    return CAIRN_OK;
  scratch_free(h, sc);
  return CAIRN_ERR_NOMEM;
}

/* Clusters go out 4 to a task, claimed as workers come free (a fixed split
 * stalls when one core is busy). */
#define HPA_CLUSTERS_PER_TASK 4

typedef struct cluster_pass {
  cairn_hpa *h;
  const uint32_t *list;
} cluster_pass;

static cairn_status cluster_init(void *ctx, void *sc) {
  return scratch_init(((cluster_pass *)ctx)->h, sc);
}

static cairn_status cluster_run(void *ctx, void *sc, size_t i) {
  cluster_pass *p = ctx;
  return cluster_build(p->h, p->list[i], sc);
}

static void cluster_fini(void *ctx, void *sc) {
  scratch_free(((cluster_pass *)ctx)->h, sc);
}

/* Builds the listed clusters through the hierarchy's jobs. The status is
 * the lowest over all clusters, whichever worker built which. */
cairn_status cairn__hpa_build_clusters(cairn_hpa *h, const uint32_t *list,
                                       size_t n) {
  h->version++; /* even if it fails: the clusters are rewritten */
  cluster_pass c = {h, list};
  hpa_pass p = {&c, sizeof(hpa_scratch), HPA_CLUSTERS_PER_TASK,
                cluster_init, cluster_run, cluster_fini};
  cairn_status st = cairn__hpa_run_pass(h, &p, n);
  /* the sizes read the size-1 tables and paths of the cluster alone */
  cairn_status sized = cairn__hpa_build_sizes(h, list, n);
  return sized < st ? sized : st;
}
