/* Units of several sizes from one hierarchy (max_size > 1), after Harabor
 * and Botea's annotated hierarchy (HAA*).
 *
 * Each entrance is annotated with the largest size that fits it (its
 * clearance, capped at max_size), each crossing with the smaller of its
 * two cells' (and for a diagonal the two cells beside it). Each cluster
 * keeps, for every size k from 2 to max_size, the cost between each pair
 * of its entrances that fit k: the cost of the best path of a k x k unit
 * whose positions stay inside the cluster (its block may reach past the
 * east and south sides). Most of them need no search: a size-1 path whose
 * positions and moves are legal for size k, and whose cells all carry the
 * terrain and penalty of the cell the block's corner is on, costs the same
 * for size k, and no path of size k costs less than the size-1 optimum;
 * so such a pair shares the size-1 cost. Only the rows of entrances with a
 * pair that fails the test run a Dijkstra for size k, and a size whose
 * table equals the size-1 one (or the previous size's) shares it.
 *
 * The graph of size k has the level-1 graph's nodes, the pairs of its
 * table that are no detour through a third node that fits, and the
 * crossings that fit (hpa_size_graphs.c). Refinement walks the size-1
 * path where it serves (pc) and otherwise searches inside the cluster
 * (hpa_query.c). */
#include "hpa_internal.h"

#include <stdlib.h>
#include <string.h>

/* A cluster's most nodes: its entrance cells, at most twice
 * hpa_transitions_cap of the largest cluster side (the bound of the
 * per-node arrays on the stack below). */
#define SIZES_MAX_NODES (2 * (4 * (CAIRN_HPA_MAX_CLUSTER + 2) + 8))

/* ---- annotations ---------------------------------------------------- */

bool cairn__hpa_transition_fits(const cairn_hpa *h, const hpa_transition *t, unsigned k) {
  if (hpa_fit(h, t->a) < k || hpa_fit(h, t->b) < k) return false;
  if (!t->diag) return true;
  cairn_point a = hpa_point(h, t->a), b = hpa_point(h, t->b);
  return hpa_fit(h, hpa_index(h, b.x, a.y)) >= k && hpa_fit(h, hpa_index(h, a.x, b.y)) >= k;
}

bool cairn__hpa_sizes_layered(const cairn_hpa *h, const hpa_cluster *c) {
  if (!h->pen) return false;
  cairn_rect r = hpa_cluster_reach(h, c);
  for (int32_t y = r.y; y < r.y + r.h; y++) {
    const uint32_t *row = h->pen + hpa_index(h, r.x, y);
    for (int32_t x = 0; x < r.w; x++)
      if (row[x]) return true;
  }
  return false;
}

void cairn__hpa_sizes_free(const cairn_allocator *a, hpa_csize *z) {
  cairn__free(a, z->sd, z->sbytes);
  z->sd = NULL;
  z->pc = z->ke = z->cap = NULL;
  z->sbytes = 0;
  z->ntab = 0;
  memset(z->tab, 0, sizeof z->tab);
  z->slayered = false;
}

bool cairn__hpa_sizes_alloc(const cairn_hpa *h, const hpa_cluster *c, hpa_csize *z,
                            unsigned ntab) {
  const size_t nn = (size_t)c->n * c->n;
  const size_t bytes = (size_t)ntab * nn * sizeof(cairn_cost) + 2 * nn + c->n;
  uint8_t *block = cairn__alloc(&h->alloc, bytes);
  if (!block) return false;
  z->sd = (cairn_cost *)(void *)block;
  z->pc = block + (size_t)ntab * nn * sizeof(cairn_cost);
  z->ke = z->pc + nn;
  z->cap = z->ke + nn;
  z->sbytes = bytes;
  z->ntab = (uint8_t)ntab;
  memset(z->tab, 0, sizeof z->tab);
  return true;
}

bool cairn__hpa_csz_init(cairn_hpa *h) {
  const size_t n = (size_t)h->cw * (size_t)h->ch;
  if (h->max_size <= 1) return true;
  h->csz = cairn__alloc_zero(&h->alloc, n * sizeof *h->csz);
  return h->csz != NULL;
}

void cairn__hpa_csz_free(cairn_hpa *h) {
  const size_t n = (size_t)h->cw * (size_t)h->ch;
  if (!h->csz) return;
  for (size_t k = 0; k < n; k++) cairn__hpa_sizes_free(&h->alloc, &h->csz[k]);
  cairn__free(&h->alloc, h->csz, n * sizeof *h->csz);
  h->csz = NULL;
}

/* ---- one cluster ---------------------------------------------------- */

/* A worker's scratch. */
typedef struct sizes_scratch {
  /* the cluster's positions eroded for one size (erode), with the layer
   * eroded alike, and a search sized for it, for the rows that need a
   * Dijkstra of their own */
  cairn_grid *local;
  cairn_penalty *lpen;
  cairn_search *search;
  /* on a map of one terrain without a layer, the search that reads the
   * clearances instead (hpa_sizes_search.c), and the cost of its steps */
  hpa_fit_search fs;
  bool one;
  uint8_t flat;
  uint8_t *ebuf;      /* cs * cs: the eroded costs before they go in */
  uint8_t *run;       /* cs * cs: one clear run's codes */
  uint8_t *u;         /* cs * cs: per position, the largest size whose block
                         carries the position's own terrain and penalty */
  cairn_point *pts;   /* nodes in local coordinates, then targets */
  size_t pts_cap;
  /* the per-pair buffers, n n entries each (room for pairs_cap), in one
   * block (pairs_bytes): */
  cairn_cost *tabs;   /* (max_size - 1) tables */
  cairn_cost *dense;  /* keep_bits' packed table */
  uint8_t *pc, *ke;
  uint8_t *op;        /* the pairs of a size no search gave yet */
  size_t pairs_cap;
} sizes_scratch;

/* The bytes of the per-pair block for nn pairs: the costs first, so that
 * the block's alignment serves them. */
static size_t pairs_bytes(const cairn_hpa *h, size_t nn) {
  return (size_t)h->max_size * nn * sizeof(cairn_cost) + 3 * nn;
}

typedef struct sizes_ctx {
  cairn_hpa *h;
  const uint32_t *list;
} sizes_ctx;

static void scratch_free(const cairn_hpa *h, sizes_scratch *sc) {
  const size_t cs = (size_t)h->cs;
  cairn__hpa_local_free(sc->search, sc->local, sc->lpen);
  cairn__hpa_fit_search_free(&h->alloc, &sc->fs);
  cairn__free(&h->alloc, sc->u, cs * cs);
  cairn__free(&h->alloc, sc->ebuf, cs * cs);
  cairn__free(&h->alloc, sc->run, cs * cs);
  cairn__free(&h->alloc, sc->pts, sc->pts_cap * sizeof *sc->pts);
  cairn__free(&h->alloc, sc->tabs, sc->tabs ? pairs_bytes(h, sc->pairs_cap) : 0);
  memset(sc, 0, sizeof *sc);
}

/* Called with the allocator's lock held. */
static cairn_status scratch_init(void *ctx, void *scratch) {
  const cairn_hpa *h = ((sizes_ctx *)ctx)->h;
  sizes_scratch *sc = scratch;
  memset(sc, 0, sizeof *sc); /* the local grid and its search come when needed */
  sc->u = cairn__alloc(&h->alloc, (size_t)h->cs * (size_t)h->cs);
  sc->ebuf = cairn__alloc(&h->alloc, (size_t)h->cs * (size_t)h->cs);
  sc->run = cairn__alloc(&h->alloc, (size_t)h->cs * (size_t)h->cs);
  if (sc->u && sc->ebuf && sc->run && cairn__hpa_fit_search_init(&h->alloc, &sc->fs, h->cs))
    return CAIRN_OK;
  scratch_free(h, sc);
  return CAIRN_ERR_NOMEM;
}

static void scratch_fini(void *ctx, void *scratch) {
  scratch_free(((sizes_ctx *)ctx)->h, scratch);
}

/* Room for n nodes (pts, twice) and n n pairs. */
static bool scratch_room(const cairn_hpa *h, sizes_scratch *sc, uint32_t n) {
  const size_t nn = (size_t)n * n;
  bool ok = true;
  hpa_lock(h);
  if (2 * (size_t)n > sc->pts_cap) {
    cairn__free(&h->alloc, sc->pts, sc->pts_cap * sizeof *sc->pts);
    sc->pts_cap = 2 * (size_t)n;
    sc->pts = cairn__alloc(&h->alloc, sc->pts_cap * sizeof *sc->pts);
    if (!sc->pts) sc->pts_cap = 0;
    ok = sc->pts != NULL;
  }
  if (ok && nn > sc->pairs_cap) {
    cairn__free(&h->alloc, sc->tabs, sc->tabs ? pairs_bytes(h, sc->pairs_cap) : 0);
    uint8_t *block = cairn__alloc(&h->alloc, pairs_bytes(h, nn));
    ok = block != NULL;
    sc->pairs_cap = ok ? nn : 0;
    sc->tabs = (cairn_cost *)(void *)block;
    sc->dense = ok ? sc->tabs + (size_t)(h->max_size - 1) * nn : NULL;
    sc->pc = ok ? (uint8_t *)(sc->dense + nn) : NULL;
    sc->ke = ok ? sc->pc + nn : NULL;
    sc->op = ok ? sc->ke + nn : NULL;
  }
  hpa_unlock(h);
  return ok;
}

/* Whether the sizes of cluster c read one terrain and no layer: every
 * open cell where its units' blocks reach (hpa_cluster_reach) costs the
 * same, and the layer puts nothing there. Then every block that fits
 * costs the same, costs are symmetric, and the sized pass searches the
 * clearances directly (hpa_sizes_search.c). */
static bool sizes_one_terrain(const cairn_hpa *h, const hpa_cluster *c, const hpa_csize *z) {
  if (z->slayered) return false;
  return hpa_one_terrain(h, hpa_cluster_reach(h, c));
}

/* Per position of the cluster, the largest size (up to its fit) whose
 * block holds no dearer terrain and no higher penalty than the position's
 * own cell: up to it, entering the position costs a unit of that size
 * what it costs a unit of size 1. Into sc->u, or NULL when the cluster's
 * sizes read one terrain (`one`, sizes_one_terrain): every block then
 * costs the same, and that size is the position's fit. */
static const uint8_t *same_cost_sizes(const cairn_hpa *h, const hpa_cluster *c, bool one,
                                      uint8_t *u) {
  if (one) return NULL;
  for (int32_t y = 0; y < c->h; y++)
    for (int32_t x = 0; x < c->w; x++) {
      uint32_t i = hpa_index(h, c->x0 + x, c->y0 + y);
      unsigned fit = hpa_fit(h, i), k = fit ? 1 : 0;
      while (k < fit && cairn__block_cost(h->grid, i, k + 1) == h->cost[i] &&
             (!h->pen || cairn__block_pen(h->grid, h->pen, i, k + 1) == h->pen[i]))
        k++;
      u[y * h->cs + x] = (uint8_t)k;
    }
  return u;
}

/* The largest size the kept size-1 path of pair p (from node i) serves at
 * its size-1 cost: every position it enters has that size in u (its fit
 * when u is NULL), and every diagonal has both cells beside it fitting. */
static uint8_t walk_cap(const cairn_hpa *h, const hpa_cluster *c, const hpa_csize *z,
                        const uint8_t *u, uint32_t i, size_t p) {
  unsigned most = z->cap[i];
  cairn_point at = hpa_point(h, c->cell[i]);
  uint32_t idx = c->cell[i];
  const int32_t stride = h->stride;
  for (uint32_t s = c->off[p]; s < c->off[p + 1] && most > 1; s++) {
    const uint8_t d = c->steps[s];
    if (d >= 4) { /* a diagonal: the cells beside it */
      unsigned f1 = hpa_fit(h, (uint32_t)((int32_t)idx + cairn__dx[d]));
      unsigned f2 = hpa_fit(h, (uint32_t)((int32_t)idx + cairn__dy[d] * stride));
      most = f1 < most ? f1 : most;
      most = f2 < most ? f2 : most;
    }
    at.x += cairn__dx[d];
    at.y += cairn__dy[d];
    idx = (uint32_t)((int32_t)idx + cairn__dx[d] + cairn__dy[d] * stride);
    unsigned here = u ? u[(at.y - c->y0) * h->cs + (at.x - c->x0)] : hpa_fit(h, idx);
    most = here < most ? here : most;
  }
  return (uint8_t)most;
}

/* pc of pair i -> j, found on demand: a kept pair walks its path; a
 * dropped finite one (a detour through some node m at the same cost) takes
 * the best over such m of the smaller of its two halves, which are
 * cheaper, so the recursion ends. 0xFF marks pairs not yet done. With
 * sym (a build's cluster whose sizes read one terrain), j -> i gets the
 * same value: the build stored its path as this one walked back, which
 * holds the same positions and passes the same cells beside its
 * diagonals, and the costs are symmetric. A load walks both, as a file's
 * two paths need not be each other's reverse. */
static uint8_t pair_cap(const cairn_hpa *h, const hpa_cluster *c, const hpa_csize *z,
                        const uint8_t *u, bool sym, uint8_t *pc, uint32_t i, uint32_t j) {
  const uint32_t n = c->n;
  const size_t p = (size_t)i * n + j;
  if (pc[p] != 0xFF) return pc[p];
  uint8_t best = 0;
  const cairn_cost d = c->dist[p];
  /* a way serves at most the size both ends fit, and every way serves 1 */
  if (z->cap[i] == 1 || z->cap[j] == 1) return pc[p] = d != CAIRN_COST_INF;
  if (c->off[p + 1] != c->off[p]) {
    best = walk_cap(h, c, z, u, i, p);
  } else if (d != CAIRN_COST_INF) {
    for (uint32_t m = 0; m < n && best < z->cap[i]; m++) {
      cairn_cost a = c->dist[(size_t)i * n + m], b = c->dist[(size_t)m * n + j];
      if (m == i || m == j || a == CAIRN_COST_INF || b == CAIRN_COST_INF || a + b != d)
        continue;
      uint8_t x = pair_cap(h, c, z, u, sym, pc, i, m), y = pair_cap(h, c, z, u, sym, pc, m, j);
      uint8_t v = x < y ? x : y;
      best = v > best ? v : best;
    }
  }
  pc[p] = best;
  if (sym) pc[(size_t)j * n + i] = best;
  return best;
}

/* pc of every pair of cluster c (u and sym as pair_cap takes them): the
 * diagonal a node's own fit, the rest by pair_cap. */
static void pair_caps(const cairn_hpa *h, const hpa_cluster *c, const hpa_csize *z,
                      const uint8_t *u, bool sym, uint8_t *pc) {
  const uint32_t n = c->n;
  memset(pc, 0xFF, (size_t)n * n);
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < n; j++)
      if (i == j)
        pc[(size_t)i * n + j] = z->cap[i];
      else
        pair_cap(h, c, z, u, sym, pc, i, j);
}

/* The cluster's positions eroded for size k into the local grid: a
 * position where the unit fits costs the dearest terrain under its block,
 * one where it does not is blocked, and so is the rest of the local grid
 * (clusters cut by the map's edge); the layer likewise, each position
 * taking the highest penalty under its block. A size-1 search there is the
 * search of a k x k unit whose positions stay inside the cluster: its
 * moves (no corner cut between positions that fit) and its costs are the
 * unit's, and size 1 takes the core's fast fills. Returns the terrain of
 * every position that fits when they all have the same and the layer
 * leaves them alone, else 0. */
static uint8_t erode(const cairn_hpa *h, const hpa_cluster *c, const hpa_csize *z,
                     sizes_scratch *sc, unsigned k) {
  const int32_t cs = h->cs;
  const bool flat = cairn_grid_uniform(h->grid) != 0;
  uint8_t first = 0;
  bool uniform = true;
  memset(sc->ebuf, 0, (size_t)cs * (size_t)cs);
  for (int32_t y = 0; y < c->h; y++)
    for (int32_t x = 0; x < c->w; x++) {
      uint32_t i = hpa_index(h, c->x0 + x, c->y0 + y);
      if (h->clear[i] < k) continue;
      uint8_t v = flat ? h->cost[i] : cairn__block_cost(h->grid, i, k);
      sc->ebuf[y * cs + x] = v;
      if (!first) first = v;
      uniform = uniform && v == first;
    }
  cairn_rect all = {0, 0, cs, cs};
  cairn_grid_set_rect(sc->local, all, sc->ebuf, (size_t)cs);
  if (!z->slayered) return uniform ? first : 0;
  cairn_penalty_clear(sc->lpen);
  for (int32_t y = 0; y < c->h; y++)
    for (int32_t x = 0; x < c->w; x++) {
      uint32_t i = hpa_index(h, c->x0 + x, c->y0 + y);
      if (h->clear[i] < k) continue;
      uint32_t p = cairn__block_pen(h->grid, h->pen, i, k);
      if (p == CAIRN_PENALTY_BLOCK)
        cairn_penalty_block(sc->lpen, x, y, 1);
      else if (p)
        cairn_penalty_add(sc->lpen, x, y, p);
    }
  return 0; /* penalties: no shortcut */
}

/* Marks in sc->op the pairs size k cannot take from size 1: both ends
 * fit, a size-1 way exists, and its path does not serve k (pc). On
 * symmetric costs (sym) a pair served one way is served both ways (its
 * path walked back is a way of the same cost), so it stays open only when
 * neither serves. Returns how many are open. */
static size_t mark_open(const hpa_cluster *c, const hpa_csize *z, sizes_scratch *sc, unsigned k,
                        bool sym) {
  const uint32_t n = c->n;
  size_t open = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *op = sc->op + (size_t)i * n;
    if (z->cap[i] < k) { /* nothing from a node the unit does not fit */
      memset(op, 0, n);
      continue;
    }
    const cairn_cost *d = c->dist + (size_t)i * n;
    const uint8_t *pc = sc->pc + (size_t)i * n;
    for (uint32_t j = 0; j < n; j++) { /* without branches: the tests mix */
      const unsigned back = sym & (sc->pc[(size_t)j * n + i] >= k);
      const unsigned o =
          (j != i) & (z->cap[j] >= k) & (d[j] != CAIRN_COST_INF) & (pc[j] < k) & !back;
      op[j] = (uint8_t)o;
      open += o;
    }
  }
  return open;
}

/* Row i's open pairs: their other ends as targets into sc->pts + n
 * (local node ids into tid); returns how many. */
static size_t row_targets(const hpa_cluster *c, sizes_scratch *sc, uint32_t i, uint32_t *tid) {
  const uint32_t n = c->n;
  size_t nt = 0;
  for (uint32_t j = 0; j < n; j++)
    if (sc->op[(size_t)i * n + j]) {
      sc->pts[n + nt] = sc->pts[j];
      tid[nt++] = j;
    }
  return nt;
}

/* Gives pair i -> j its cost g and closes it; on symmetric costs the pair
 * back too. */
static void settle(const hpa_cluster *c, sizes_scratch *sc, cairn_cost *t, uint32_t i, uint32_t j,
                   cairn_cost g, bool symmetric) {
  const uint32_t n = c->n;
  t[(size_t)i * n + j] = g;
  sc->op[(size_t)i * n + j] = 0;
  if (symmetric) {
    t[(size_t)j * n + i] = g;
    sc->op[(size_t)j * n + i] = 0;
  }
}

/* The open pairs of row i by a Dijkstra from i on the local grid eroded
 * for k (erode), stopped once they are settled. */
static cairn_status sized_row(const cairn_hpa *h, const hpa_cluster *c, const hpa_csize *z,
                              sizes_scratch *sc, unsigned k, uint32_t i, const uint32_t *tid,
                              size_t nt, bool symmetric, cairn_cost *t) {
  if (z->slayered && cairn__block_pen(h->grid, h->pen, c->cell[i], k) == CAIRN_PENALTY_BLOCK) {
    for (size_t x = 0; x < nt; x++) settle(c, sc, t, i, tid[x], CAIRN_COST_INF, false);
    return CAIRN_OK; /* as for size 1: no way out of a blocked entrance */
  }
  if (sc->one) {
    uint32_t v[SIZES_MAX_NODES];
    cairn__hpa_fit_fill(&sc->fs, k, sc->pts[i], sc->pts + c->n, nt, v);
    for (size_t x = 0; x < nt; x++) {
      const cairn_cost g = v[x] == UINT32_MAX ? CAIRN_COST_INF : (cairn_cost)v[x] * sc->flat;
      settle(c, sc, t, i, tid[x], g, symmetric);
    }
    return CAIRN_OK;
  }
  cairn_search_opts o = cairn_search_defaults();
  if (z->slayered) o.penalty = sc->lpen;
  cairn_status st =
      cairn_dijkstra_fill(sc->search, sc->local, &sc->pts[i], 1, sc->pts + c->n, nt, 0, &o);
  if (st != CAIRN_OK) return st;
  for (size_t x = 0; x < nt; x++) {
    const uint32_t j = tid[x];
    cairn_node_info info;
    cairn_search_cell(sc->search, sc->pts[j], &info);
    settle(c, sc, t, i, j, info.state == CAIRN_NODE_CLOSED ? info.g : CAIRN_COST_INF, symmetric);
  }
  return CAIRN_OK;
}

/* On the eroded grid of one terrain `flat`: the open pairs of row i joined
 * by a clear straight-as-possible run (whose cost, the octile distance, is
 * a lower bound of any way, as in the size-1 build) get that cost both
 * ways. A pair is tried from its lower node only: the runs from the other
 * end are the same runs walked back (but for the rounding of the evenly
 * spread shape), and on maps where most runs fail, trying both ends cost
 * more than the searches the second tries saved. */
static void run_pairs(const hpa_cluster *c, sizes_scratch *sc, unsigned k, uint32_t i,
                      uint8_t flat, cairn_cost *t, const uint32_t *tid, size_t nt) {
  for (size_t x = 0; x < nt; x++) {
    const uint32_t j = tid[x];
    if (j < i) continue;
    cairn_point a = sc->pts[i], b = sc->pts[j];
    size_t len;
    int shape = 0;
    while (shape < HPA_RUN_SHAPES &&
           !(sc->one ? cairn__hpa_fit_run(&sc->fs, k, a, b, shape, NULL)
                     : cairn__hpa_clear_run(sc->local, a, b, shape, sc->run, &len)))
      shape++;
    if (shape == HPA_RUN_SHAPES) continue;
    int32_t ax = abs(b.x - a.x), ay = abs(b.y - a.y);
    int32_t nd = ax < ay ? ax : ay, ns = (ax < ay ? ay : ax) - nd;
    cairn_cost d = ((cairn_cost)nd * CAIRN_COST_DIAG + (cairn_cost)ns * CAIRN_COST_ONE) * flat;
    settle(c, sc, t, i, j, d, true);
  }
}

/* On symmetric costs, where each search settles its pairs both ways: the
 * rows searched in turn from the node with the most open pairs left (the
 * first of them), so that few searches cover them all (a greedy vertex
 * cover of the open pairs). */
static cairn_status greedy_rows(const cairn_hpa *h, const hpa_cluster *c, const hpa_csize *z,
                                sizes_scratch *sc, unsigned k, cairn_cost *t, uint32_t *tid) {
  const uint32_t n = c->n;
  uint32_t deg[SIZES_MAX_NODES];
  for (uint32_t i = 0; i < n; i++) {
    deg[i] = 0;
    for (uint32_t j = 0; j < n; j++) deg[i] += sc->op[(size_t)i * n + j];
  }
  for (;;) {
    uint32_t b = 0;
    for (uint32_t i = 1; i < n; i++)
      if (deg[i] > deg[b]) b = i;
    if (!deg[b]) return CAIRN_OK;
    size_t nt = row_targets(c, sc, b, tid);
    for (size_t x = 0; x < nt; x++) deg[tid[x]] -= sc->op[(size_t)tid[x] * n + b];
    deg[b] = 0;
    cairn_status st = sized_row(h, c, z, sc, k, b, tid, nt, true, t);
    if (st != CAIRN_OK) return st;
  }
}

/* Size k's table into t (INF where either end does not fit); *shared set
 * when no pair needed a search (the table is then dist's). */
static cairn_status size_table(const cairn_hpa *h, const hpa_cluster *c, const hpa_csize *z,
                               sizes_scratch *sc, unsigned k, cairn_cost *t, bool *shared) {
  const uint32_t n = c->n;
  uint32_t tid[SIZES_MAX_NODES];
  for (uint32_t i = 0; i < n; i++) {
    cairn_cost *ti = t + (size_t)i * n;
    const cairn_cost *d = c->dist + (size_t)i * n;
    if (z->cap[i] < k) {
      for (uint32_t j = 0; j < n; j++) ti[j] = CAIRN_COST_INF;
      continue;
    }
    for (uint32_t j = 0; j < n; j++) ti[j] = z->cap[j] >= k ? d[j] : CAIRN_COST_INF;
  }
  *shared = !mark_open(c, z, sc, k, sc->one);
  if (*shared) return CAIRN_OK;
  if (!sc->one) {
    cairn_status st = cairn__hpa_local_ready(h, &sc->search, &sc->local, &sc->lpen);
    if (st != CAIRN_OK) return st;
  }
  /* one terrain: symmetric */
  const uint8_t flat = sc->one ? sc->flat : erode(h, c, z, sc, k);
  for (uint32_t i = 0; i < n; i++) {
    size_t nt = row_targets(c, sc, i, tid);
    if (!nt) continue;
    if (flat) {
      run_pairs(c, sc, k, i, flat, t, tid, nt);
      continue;
    }
    cairn_status st = sized_row(h, c, z, sc, k, i, tid, nt, false, t);
    if (st != CAIRN_OK) return st;
  }
  return flat ? greedy_rows(h, c, z, sc, k, t, tid) : CAIRN_OK;
}

/* Whether tables a and b agree on every pair whose ends fit k. */
static bool same_table(const hpa_cluster *c, const hpa_csize *z, const cairn_cost *a,
                       const cairn_cost *b, unsigned k) {
  const uint32_t n = c->n;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; z->cap[i] >= k && j < n; j++)
      if (z->cap[j] >= k && a[(size_t)i * n + j] != b[(size_t)i * n + j]) return false;
  return true;
}

/* Bit k - 1 of ke for each pair size k's graph keeps: both ends fit, the
 * cost is finite, and no third node that fits k lies on a cheapest way.
 * Over the nodes that fit k alone (listed first: the larger sizes fit
 * few), row by row, each third node m marking at once every j it is a
 * detour to (two rows read in order). */
static void keep_bits(const hpa_cluster *c, const hpa_csize *z, const cairn_cost *t, unsigned k,
                      cairn_cost *dense, uint8_t *ke) {
  const uint32_t n = c->n;
  uint32_t fit[SIZES_MAX_NODES];
  uint8_t detour[SIZES_MAX_NODES];
  uint32_t nf = 0;
  for (uint32_t i = 0; i < n; i++)
    if (z->cap[i] >= k) fit[nf++] = i;
  /* the nodes that fit, their table packed (nf x nf): the inner loop then
   * reads two rows in order */
  for (uint32_t x = 0; x < nf; x++)
    for (uint32_t q = 0; q < nf; q++) dense[(size_t)x * nf + q] = t[(size_t)fit[x] * n + fit[q]];
  for (uint32_t x = 0; x < nf; x++) {
    const cairn_cost *ti = dense + (size_t)x * nf;
    memset(detour, 0, nf);
    for (uint32_t y = 0; y < nf; y++) {
      const cairn_cost a = ti[y], *tm = dense + (size_t)y * nf;
      if (y == x || a == CAIRN_COST_INF) continue;
      const uint8_t own = detour[y]; /* m is no third node of i -> m */
      for (uint32_t q = 0; q < nf; q++)
        detour[q] |= (uint8_t)((tm[q] != CAIRN_COST_INF) & (a + tm[q] == ti[q]));
      detour[y] = own;
    }
    detour[x] = 1;
    for (uint32_t q = 0; q < nf; q++)
      if (ti[q] != CAIRN_COST_INF && !detour[q])
        ke[(size_t)fit[x] * n + fit[q]] |= (uint8_t)(1u << (k - 1));
  }
}

/* keep_bits on the size-1 table itself: a pair size 1 keeps (its path is
 * stored) has no third node on a cheapest way at all, so none that fits
 * k; one it drops has some, and size k keeps it only when none of them
 * fits k. About n^2 tests instead of n^3 where most pairs are kept. */
static void keep_bits_shared(const hpa_cluster *c, const hpa_csize *z, unsigned k, uint8_t *ke) {
  const uint32_t n = c->n;
  const uint8_t bit = (uint8_t)(1u << (k - 1));
  for (uint32_t i = 0; i < n; i++) {
    if (z->cap[i] < k) continue;
    const cairn_cost *ti = c->dist + (size_t)i * n;
    for (uint32_t j = 0; j < n; j++) {
      const size_t p = (size_t)i * n + j;
      if (j == i || z->cap[j] < k || ti[j] == CAIRN_COST_INF) continue;
      bool detour = false;
      if (c->off[p + 1] == c->off[p]) /* dropped by size 1 */
        for (uint32_t m = 0; m < n && !detour; m++) {
          const cairn_cost a = ti[m], b = c->dist[(size_t)m * n + j];
          detour = m != i && m != j && z->cap[m] >= k && a != CAIRN_COST_INF &&
                   b != CAIRN_COST_INF && a + b == ti[j];
        }
      if (!detour) ke[p] |= bit;
    }
  }
}

/* Whether every node that fits size k - 1 fits k too. */
static bool same_nodes(const hpa_cluster *c, const hpa_csize *z, unsigned k) {
  for (uint32_t i = 0; i < c->n; i++)
    if (z->cap[i] == k - 1) return false;
  return true;
}

/* Size k's kept pairs when its table and its nodes are the size below's:
 * the same (for k = 2, the pairs size 1 keeps, whose paths are stored). */
static void copy_bits(const hpa_cluster *c, unsigned k, uint8_t *ke) {
  const size_t nn = (size_t)c->n * c->n;
  for (size_t p = 0; p < nn; p++) {
    bool before = k == 2 ? c->off[p + 1] != c->off[p] : (ke[p] >> (k - 2)) & 1u;
    if (before) ke[p] |= (uint8_t)(1u << (k - 1));
  }
}

/* The sized data of cluster k into one allocation. */
static cairn_status sizes_build(cairn_hpa *h, uint32_t id, sizes_scratch *sc) {
  hpa_cluster *c = &h->clusters[id];
  hpa_csize *z = &h->csz[id];
  const uint32_t n = c->n;
  const size_t nn = (size_t)n * n;
  const unsigned top = (unsigned)h->max_size;
  hpa_lock(h);
  cairn__hpa_sizes_free(&h->alloc, z);
  hpa_unlock(h);
  if (!n) return CAIRN_OK;
  if (!scratch_room(h, sc, n)) return CAIRN_ERR_NOMEM;
  z->slayered = cairn__hpa_sizes_layered(h, c);
  uint8_t cap[SIZES_MAX_NODES];
  for (uint32_t i = 0; i < n; i++) {
    cap[i] = (uint8_t)hpa_fit(h, c->cell[i]);
    cairn_point p = hpa_point(h, c->cell[i]);
    sc->pts[i].x = p.x - c->x0;
    sc->pts[i].y = p.y - c->y0;
  }
  z->cap = cap; /* for the helpers until the final block holds it */
  sc->one = sizes_one_terrain(h, c, z);
  sc->flat = h->cost[c->cell[0]];
  if (sc->one) cairn__hpa_fit_load(h, c, &sc->fs);
  pair_caps(h, c, z, same_cost_sizes(h, c, sc->one, sc->u), sc->one, sc->pc);
  memset(sc->ke, 0, nn);
  uint8_t tab[CAIRN_GRID_MAX_CLEARANCE + 1] = {0};
  unsigned ntab = 0;
  cairn_status st = CAIRN_OK;
  for (unsigned k = 2; k <= top && st == CAIRN_OK; k++) {
    cairn_cost *t = sc->tabs + (size_t)ntab * nn;
    bool shared;
    st = size_table(h, c, z, sc, k, t, &shared);
    if (st != CAIRN_OK) break;
    /* a searched table may still equal the size-1 one, or the last size's */
    if (!shared && same_table(c, z, t, c->dist, k)) shared = true;
    if (!shared && !(ntab && tab[k - 1] == ntab && same_table(c, z, t, t - nn, k)))
      ntab++;
    tab[k] = shared ? 0 : (uint8_t)ntab;
    if (same_nodes(c, z, k) && tab[k] == tab[k - 1])
      copy_bits(c, k, sc->ke); /* the size below's graph, node for node */
    else if (shared)
      keep_bits_shared(c, z, k, sc->ke);
    else
      keep_bits(c, z, sc->tabs + (size_t)(tab[k] - 1) * nn, k, sc->dense, sc->ke);
  }
  z->cap = NULL;
  if (st != CAIRN_OK) return st;
  hpa_lock(h);
  bool ok = cairn__hpa_sizes_alloc(h, c, z, ntab);
  hpa_unlock(h);
  if (!ok) return CAIRN_ERR_NOMEM;
  memcpy(z->sd, sc->tabs, (size_t)ntab * nn * sizeof(cairn_cost));
  memcpy(z->pc, sc->pc, nn);
  memcpy(z->ke, sc->ke, nn);
  memcpy(z->cap, cap, n);
  memcpy(z->tab, tab, sizeof tab);
  return CAIRN_OK;
}

/* A load's share of sizes_build: cap, u and pc of a cluster whose tables
 * came from the file. */
static cairn_status sizes_derive(cairn_hpa *h, uint32_t id, sizes_scratch *sc) {
  hpa_cluster *c = &h->clusters[id];
  hpa_csize *z = &h->csz[id];
  const uint32_t n = c->n;
  if (!n || !z->sd) return CAIRN_OK;
  z->slayered = cairn__hpa_sizes_layered(h, c);
  for (uint32_t i = 0; i < n; i++) z->cap[i] = (uint8_t)hpa_fit(h, c->cell[i]);
  pair_caps(h, c, z, same_cost_sizes(h, c, sizes_one_terrain(h, c, z), sc->u), false, z->pc);
  return CAIRN_OK;
}

static cairn_status derive_run(void *ctx, void *scratch, size_t i) {
  sizes_ctx *p = ctx;
  return sizes_derive(p->h, p->list[i], scratch);
}

static cairn_status sizes_run(void *ctx, void *scratch, size_t i) {
  sizes_ctx *p = ctx;
  return sizes_build(p->h, p->list[i], scratch);
}

/* One pass of `run` over the clusters of list, per_task a task. */
static cairn_status sizes_pass(cairn_hpa *h, const uint32_t *list, size_t n, uint32_t per_task,
                               cairn_status (*run)(void *, void *, size_t)) {
  if (h->max_size <= 1) return CAIRN_OK;
  sizes_ctx c = {h, list};
  hpa_pass p = {&c, sizeof(sizes_scratch), per_task, scratch_init, run, scratch_fini};
  return cairn__hpa_run_pass(h, &p, n);
}

cairn_status cairn__hpa_derive_sizes(cairn_hpa *h, const uint32_t *list, size_t n) {
  return sizes_pass(h, list, n, 16, derive_run);
}

cairn_status cairn__hpa_build_sizes(cairn_hpa *h, const uint32_t *list, size_t n) {
  return sizes_pass(h, list, n, 4, sizes_run);
}
