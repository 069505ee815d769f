/* Landmarks for the abstract graph (the core's ALT bound).
 *
 * The abstract search's octile heuristic ignores that routes must pass
 * through entrances: on maps with scattered walls every route costs a few
 * per cent more than the octile distance, and an A* whose heuristic is a few
 * per cent low expands a wide ellipse of the graph. Exact costs from a few
 * landmarks spread around the map's edge bound the cost to the goal from
 * behind it, and fix most of that slack. One fill of the abstract graph
 * (either level's) per landmark, in parallel, after every build; an edit
 * repairs the table instead (hpa_landmark_repair.c). */
#include "hpa_internal.h"
#include "hpa_lm_heap.h"

#include <stdlib.h>
#include <string.h>

/* The island most of the n nodes lie on: a landmark on a small island
 * bounds nothing elsewhere. isl[v] is node v's island; count is scratch of
 * `labels` (the island count + 1). */
static uint32_t main_island(const uint32_t *isl, size_t n, uint32_t *count,
                            size_t labels) {
  memset(count, 0, labels * sizeof *count);
  uint32_t best = 0;
  for (size_t v = 0; v < n; v++)
    if (++count[isl[v]] > count[best] || (count[isl[v]] == count[best] && isl[v] < best))
      best = isl[v];
  return best;
}

/* The k-th of `of` points spread evenly around the map's edge, starting
 * at the top-left corner (with 8: the corners and the middles of the
 * sides): landmarks bound best from the periphery, behind the goal. */
static cairn_point perimeter_point(const cairn_hpa *h, int k, int of) {
  const int64_t w = h->width - 1, hh = h->height - 1, per = 2 * (w + hh);
  int64_t t = per * k / of;
  cairn_point p;
  if (t < w) p.x = (int32_t)t, p.y = 0;
  else if ((t -= w) < hh) p.x = (int32_t)w, p.y = (int32_t)t;
  else if ((t -= hh) < w) p.x = (int32_t)(w - t), p.y = (int32_t)hh;
  else p.x = 0, p.y = (int32_t)(hh - (t - w));
  return p;
}

/* Up to h->landmarks landmarks among the n nodes at cells `at`: the node
 * nearest (in Chebyshev cells, then by id) each perimeter point, on the
 * main island, each once. Sets *k to how many; CAIRN_ERR_NOMEM if the
 * scratch cannot be had. */
static cairn_status pick_landmarks(const cairn_hpa *h, const cairn_point *at,
                                   size_t n, uint32_t *out, uint32_t *k_out) {
  const bool fresh = cairn_grid_islands_fresh(h->grid);
  const size_t labels = fresh ? (size_t)cairn_grid_island_count(h->grid) + 1 : 0;
  uint32_t *isl = cairn__alloc(&h->alloc, n * sizeof *isl);
  uint32_t *count = cairn__alloc(&h->alloc, (labels ? labels : 1) * sizeof *count);
  uint32_t k = 0;
  if (isl && count) {
    for (size_t v = 0; v < n; v++)
      isl[v] = fresh ? cairn_grid_island(h->grid, at[v].x, at[v].y) : 0;
    uint32_t island = fresh ? main_island(isl, n, count, labels) : 0;
    for (int p = 0; p < h->landmarks; p++) {
      cairn_point c = perimeter_point(h, p, h->landmarks);
      uint32_t best = UINT32_MAX;
      int32_t best_d = INT32_MAX;
      for (uint32_t v = 0; v < n; v++) {
        if (isl[v] != island) continue;
        int32_t dx = abs(at[v].x - c.x), dy = abs(at[v].y - c.y);
        int32_t d = dx > dy ? dx : dy;
        if (d < best_d) best = v, best_d = d;
      }
      bool dup = best == UINT32_MAX;
      for (uint32_t i = 0; i < k && !dup; i++) dup = out[i] == best;
      if (!dup) out[k++] = best;
    }
  }
  cairn__free(&h->alloc, isl, n * sizeof *isl);
  cairn__free(&h->alloc, count, (labels ? labels : 1) * sizeof *count);
  *k_out = k;
  return isl && count ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

/* The cell of every node of the level's graph. */
static cairn_point *node_cells(const cairn_hpa *h, int level, size_t n) {
  cairn_point *at = cairn__alloc(&h->alloc, n * sizeof *at);
  if (!at) return NULL;
  if (level == 1) {
    for (uint32_t v = 0; v < n; v++) at[v] = hpa_point(h, hpa_node_cell(h, v));
  } else { /* level-2 nodes are level-1 nodes */
    for (uint32_t v = 0; v < h->n_nodes; v++)
      if (h->l2_of[v] != UINT32_MAX) at[h->l2_of[v]] = hpa_point(h, hpa_node_cell(h, v));
  }
  return at;
}

/* Under a layer the level-1 landmarks are measured on the terrain alone:
 * penalties only raise costs, so those costs stay lower bounds whatever the
 * layer does later, and a refresh need not measure them again. The kept
 * table goes back on every reassembled graph (cairn__hpa_put_landmarks).
 * The level-2 graph, built from the layer's costs, gets none. */
static cairn_status keep_landmarks(cairn_hpa *h, const uint32_t *nodes,
                                   uint32_t k, const cairn_cost *costs,
                                   size_t size) {
  cairn__free(&h->alloc, h->lm_costs, h->lm_size * sizeof *h->lm_costs);
  h->lm_costs = NULL;
  h->lm_size = 0;
  h->lm_n = 0;
  if (!k) return CAIRN_OK;
  h->lm_costs = cairn__alloc(&h->alloc, size * sizeof *h->lm_costs);
  if (!h->lm_costs) return CAIRN_ERR_NOMEM;
  memcpy(h->lm_costs, costs, size * sizeof *costs);
  memcpy(h->lm_nodes, nodes, k * sizeof *nodes);
  h->lm_size = size;
  h->lm_n = k;
  return CAIRN_OK;
}

cairn_status cairn__hpa_put_landmarks(cairn_hpa *h) {
  return cairn_graph_set_landmarks(h->graph, h->lm_nodes, h->lm_n, h->lm_costs);
}

typedef struct landmark_pass {
  const cairn_hpa *h;
  const cairn_graph *g;  /* the graph measured */
  size_t n;              /* its nodes */
  const uint32_t *nodes; /* the landmarks */
  cairn_cost *costs;     /* a row of n per landmark */
} landmark_pass;

/* A worker's scratch: the queue sized up front, so that the fills never
 * call the allocator. */
static cairn_status landmark_init(void *ctx, void *scratch) {
  landmark_pass *p = ctx;
  lm_heap *q = scratch;
  const size_t cap = cairn_graph_edges(p->g) + 5;
  lm_entry *e = cairn__alloc(&p->h->alloc, cap * sizeof *e);
  lm_heap_init(q, e, e ? cap : 0);
  return e ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

static cairn_status landmark_run(void *ctx, void *scratch, size_t i) {
  landmark_pass *p = ctx;
  lm_fill_row(p->g, p->n, scratch, p->nodes[i], p->costs + i * p->n);
  return CAIRN_OK;
}

static void landmark_fini(void *ctx, void *scratch) {
  landmark_pass *p = ctx;
  lm_heap *q = scratch;
  cairn__free(&p->h->alloc, q->e, q->cap * sizeof *q->e);
}

/* One fill per landmark, one landmark per task, into costs (k rows of n).
 * The status is the lowest over all fills, whichever worker ran which. */
static cairn_status measure(const cairn_hpa *h, const cairn_graph *g, size_t n,
                            const uint32_t *nodes, uint32_t k, cairn_cost *costs) {
  landmark_pass l = {h, g, n, nodes, costs};
  hpa_pass p = {&l, sizeof(lm_heap), 1, landmark_init, landmark_run, landmark_fini};
  return cairn__hpa_run_pass(h, &p, k);
}

cairn_status cairn__hpa_landmark_pick(const cairn_hpa *h, int level, uint32_t *nodes,
                                      uint32_t *k) {
  const size_t n = level == 1 ? h->n_nodes : h->n2;
  *k = 0;
  if (!n || h->landmarks <= 0) return CAIRN_OK;
  cairn_point *at = node_cells(h, level, n);
  cairn_status st = at ? pick_landmarks(h, at, n, nodes, k) : CAIRN_ERR_NOMEM;
  cairn__free(&h->alloc, at, n * sizeof *at);
  return st;
}

cairn_status cairn__hpa_landmarks(cairn_hpa *h, int level) {
  cairn_graph *g = level == 1 ? h->graph : h->graph2;
  const size_t n = level == 1 ? h->n_nodes : h->n2;
  uint32_t nodes[CAIRN_GRAPH_MAX_LANDMARKS], k = 0;
  if (level == 2 && h->layer) return cairn_graph_set_landmarks(g, NULL, 0, NULL);
  cairn_status picked = cairn__hpa_landmark_pick(h, level, nodes, &k);
  if (picked != CAIRN_OK) return picked;
  if (!k) {
    if (h->layer) keep_landmarks(h, NULL, 0, NULL, 0);
    return cairn_graph_set_landmarks(g, NULL, 0, NULL);
  }
  cairn_graph *measured = g;
  if (h->layer) {
    cairn_status st = cairn__hpa_base_graph(h, &measured);
    if (st != CAIRN_OK) return st;
  }
  cairn_cost *costs = cairn__alloc(&h->alloc, (size_t)k * n * sizeof *costs);
  cairn_status st = costs ? measure(h, measured, n, nodes, k, costs) : CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK) st = cairn_graph_set_landmarks(g, nodes, k, costs);
  if (st == CAIRN_OK && h->layer) st = keep_landmarks(h, nodes, k, costs, (size_t)k * n);
  if (measured != g) cairn_graph_destroy(measured);
  cairn__free(&h->alloc, costs, (size_t)k * n * sizeof *costs);
  return st;
}
