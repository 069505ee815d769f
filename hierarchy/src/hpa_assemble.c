/* Assembling the abstract graph: numbering the clusters' entrances, and
 * the CSR graph of their intra-cluster edges and crossings, made in full
 * after a build or edit, or (under a cost layer) from the last assembly's
 * edge list with only the rebuilt clusters' shares made again.
 *
 * A linear pass over the clusters, far cheaper than the Dijkstras that
 * built them. */
#include "hpa_internal.h"

#include <string.h>

/* ---- assembling the abstract graph ---------------------------------- */

uint32_t cairn__hpa_node_at(const cairn_hpa *h, uint32_t cell) {
  return cairn__hpa_node_in(h, hpa_cluster_of(h, hpa_point(h, cell)), cell);
}

uint32_t cairn__hpa_node_in(const cairn_hpa *h, uint32_t k, uint32_t cell) {
  const hpa_cluster *c = &h->clusters[k];
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

/* Appends the directed edge of a transition from cell `from` (in cluster
 * kf) that enters cell `to` (in kt) (to e when not NULL): none when the
 * layer blocks that cell. `layer` false gives the terrain's cost alone. */
static size_t put_crossing(const cairn_hpa *h, uint32_t from, uint32_t kf, uint32_t to,
                           uint32_t kt, bool diag, bool layer, cairn_graph_edge *e) {
  cairn_cost c = layer ? hpa_enter_cost(h, to, diag)
                       : (diag ? CAIRN_COST_DIAG : CAIRN_COST_ONE) * h->cost[to];
  if (c >= HPA_BLOCKED_STEP) return 0;
  if (e) {
    e->from = cairn__hpa_node_in(h, kf, from);
    e->to = cairn__hpa_node_in(h, kt, to);
    e->cost = (double)c / (double)CAIRN_COST_ONE; /* exact: c < 2^53 */
  }
  return 1;
}

/* Appends the (up to) two directed edges of a transition. */
static size_t put_transition(const cairn_hpa *h, const hpa_transition *t,
                             bool layer, cairn_graph_edge *e) {
  size_t m = put_crossing(h, t->a, t->ka, t->b, t->kb, t->diag, layer, e);
  return m + put_crossing(h, t->b, t->kb, t->a, t->ka, t->diag, layer, e ? e + m : NULL);
}


/* Writes the intra-cluster edges of c to e (when not NULL), in order, and
 * returns how many there are: the kept edges, or with `base` the costs on
 * terrain alone (every reachable pair where the layer made the cluster's
 * own table, whose redundant pairs were judged by the layer's costs). */
static size_t intra_edges(const hpa_cluster *c, bool base, cairn_graph_edge *e) {
  const bool all = base && c->bdist;
  const cairn_cost *dist = all ? c->bdist : c->dist;
  size_t m = 0;
  if (!e && !all) { /* counting the kept pairs: no branch to mispredict */
    const size_t nn = (size_t)c->n * c->n;
    for (size_t pair = 0; pair < nn; pair++) m += c->off[pair + 1] != c->off[pair];
    return m;
  }
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
  size_t nt = cairn__hpa_owned_transitions(h, cx, cy, trans);
  for (size_t t = 0; t < nt; t++) m += put_transition(h, &trans[t], !base, e ? e + m : NULL);
  return m;
}

void cairn__hpa_edges_free(const cairn_hpa *h, hpa_edges *k) {
  const size_t n_clusters = (size_t)h->cw * (size_t)h->ch;
  cairn__free(&h->alloc, k->e, k->m * sizeof *k->e);
  cairn__free(&h->alloc, k->seg, k->seg ? (n_clusters + 1) * sizeof *k->seg : 0);
  cairn__free(&h->alloc, k->xy, 2 * (size_t)k->n * sizeof *k->xy);
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

/* Listing the level-1 graph's edges, cluster by cluster, as a parallel
 * pass: first each cluster's count (into seg[k + 1]), then, once seg says
 * where each share starts, the edges themselves, in a full listing's
 * order. A worker's scratch is room for one cluster's transitions. */
typedef struct list_pass {
  const cairn_hpa *h;
  bool base;           /* as intra_edges */
  size_t *seg;         /* clusters + 1 */
  cairn_graph_edge *e; /* NULL while counting */
} list_pass;

/* Clusters a task lists. */
#define HPA_LIST_PER_TASK 64

cairn_status cairn__hpa_transitions_alloc(const cairn_hpa *h, hpa_transition **t) {
  *t = cairn__alloc(&h->alloc, hpa_transitions_cap(h->cs) * sizeof **t);
  return *t ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

void cairn__hpa_transitions_free(const cairn_hpa *h, hpa_transition *t) {
  cairn__free(&h->alloc, t, hpa_transitions_cap(h->cs) * sizeof *t);
}

static cairn_status list_init(void *ctx, void *scratch) {
  return cairn__hpa_transitions_alloc(((const list_pass *)ctx)->h, scratch);
}

static cairn_status list_run(void *ctx, void *scratch, size_t k) {
  const list_pass *p = ctx;
  hpa_transition *t = *(hpa_transition **)scratch;
  if (p->e)
    cluster_edges(p->h, (uint32_t)k, t, p->base, p->e + p->seg[k]);
  else
    p->seg[k + 1] = cluster_edges(p->h, (uint32_t)k, t, p->base, NULL);
  return CAIRN_OK;
}

static void list_fini(void *ctx, void *scratch) {
  cairn__hpa_transitions_free(((const list_pass *)ctx)->h, *(hpa_transition **)scratch);
}

/* The level-1 edges into *edges (allocated, *m of them), each cluster's
 * share starting at seg[k]. */
static cairn_status list_edges(const cairn_hpa *h, bool base, size_t *seg,
                               cairn_graph_edge **edges, size_t *m) {
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  list_pass l = {h, base, seg, NULL};
  hpa_pass p = {&l, sizeof(hpa_transition *), HPA_LIST_PER_TASK, list_init, list_run,
                list_fini};
  seg[0] = 0;
  cairn_status st = cairn__hpa_run_pass(h, &p, n_clusters);
  if (st != CAIRN_OK) return st;
  for (uint32_t k = 0; k < n_clusters; k++) seg[k + 1] += seg[k];
  *m = seg[n_clusters];
  *edges = cairn__alloc(&h->alloc, *m * sizeof **edges);
  if (!*edges) return CAIRN_ERR_NOMEM;
  l.e = *edges;
  return cairn__hpa_run_pass(h, &p, n_clusters);
}

/* The CSR graph of the numbered nodes (clusters' first set): the layer's
 * costs, or with `base` the terrain's alone. With keep (not NULL), the
 * edge list, its cluster shares and the positions go there (what was
 * there before is freed) once the graph is made. */
static cairn_status build_graph(const cairn_hpa *h, uint32_t n, bool base,
                                cairn_graph **out, hpa_edges *keep) {
  const cairn_allocator *a = &h->alloc;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  double *xy = cairn__alloc(a, 2 * (size_t)n * sizeof *xy);
  size_t *seg = cairn__alloc(a, ((size_t)n_clusters + 1) * sizeof *seg);
  cairn_status st = xy && seg ? CAIRN_OK : CAIRN_ERR_NOMEM;
  cairn_graph_edge *edges = NULL;
  size_t m = 0;
  if (st == CAIRN_OK) {
    cairn__hpa_positions(h, xy);
    st = list_edges(h, base, seg, &edges, &m);
  }
  if (st == CAIRN_OK) st = cairn__hpa_graph(a, n, xy, edges, m, out);
  if (st == CAIRN_OK && keep) {
    cairn__hpa_edges_free(h, keep);
    hpa_edges k = {edges, m, seg, xy, n};
    *keep = k;
    edges = NULL;
    seg = NULL;
    xy = NULL;
  }
  cairn__free(a, edges, m * sizeof *edges);
  cairn__free(a, seg, seg ? ((size_t)n_clusters + 1) * sizeof *seg : 0);
  cairn__free(a, xy, 2 * (size_t)n * sizeof *xy);
  return st;
}

cairn_status cairn__hpa_base_graph(const cairn_hpa *h, cairn_graph **out) {
  return build_graph(h, h->n_nodes, true, out, NULL);
}

void cairn__hpa_positions(const cairn_hpa *h, double *xy) {
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  for (uint32_t k = 0; k < n_clusters; k++)
    for (uint32_t i = 0; i < h->clusters[k].n; i++) {
      uint32_t v = h->clusters[k].first + i;
      cairn_point p = hpa_point(h, h->clusters[k].cell[i]);
      xy[2 * (size_t)v] = p.x;
      xy[2 * (size_t)v + 1] = p.y;
    }
}

uint32_t *cairn__hpa_number(cairn_hpa *h, uint32_t *n_nodes) {
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  uint32_t n = 0;
  for (uint32_t k = 0; k < n_clusters; k++) {
    h->clusters[k].first = n;
    n += h->clusters[k].n;
  }
  *n_nodes = n;
  uint32_t *node_cluster = cairn__alloc(&h->alloc, (size_t)n * sizeof *node_cluster);
  for (uint32_t k = 0; node_cluster && k < n_clusters; k++)
    for (uint32_t i = 0; i < h->clusters[k].n; i++)
      node_cluster[h->clusters[k].first + i] = k;
  return node_cluster;
}

void cairn__hpa_set_graph(cairn_hpa *h, cairn_graph *g, uint32_t *node_cluster, uint32_t n) {
  cairn_graph_destroy(h->graph);
  cairn__free(&h->alloc, h->node_cluster, (size_t)h->n_nodes * sizeof *h->node_cluster);
  h->graph = g;
  h->node_cluster = node_cluster;
  h->n_nodes = n;
}

/* Numbers the nodes cluster by cluster and builds the CSR graph. */
cairn_status cairn__hpa_assemble(cairn_hpa *h) {
  uint32_t n;
  uint32_t *node_cluster = cairn__hpa_number(h, &n);
  cairn_graph *g = NULL;
  /* the edge list is kept for refreshes, which only layers have */
  cairn__hpa_edges_free(h, &h->kept);
  hpa_edges *keep = h->layer ? &h->kept : NULL;
  cairn_status st = node_cluster ? build_graph(h, n, false, &g, keep) : CAIRN_ERR_NOMEM;
  if (st != CAIRN_OK) {
    cairn__free(&h->alloc, node_cluster, (size_t)n * sizeof *node_cluster);
    return st;
  }
  cairn__hpa_set_graph(h, g, node_cluster, n);
  return CAIRN_OK;
}

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
cairn_status cairn__hpa_reassemble(cairn_hpa *h, const uint32_t *ids,
                                   size_t n) {
  const cairn_allocator *a = &h->alloc;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  uint8_t *redo = cairn__hpa_new_marks(h);
  hpa_transition *trans = cairn__alloc(a, hpa_transitions_cap(h->cs) * sizeof *trans);
  size_t *seg = cairn__alloc(a, ((size_t)n_clusters + 1) * sizeof *seg);
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
    edges = cairn__alloc(a, m * sizeof *edges);
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
      cairn__free(a, h->kept.e, h->kept.m * sizeof *h->kept.e);
      cairn__free(a, h->kept.seg, ((size_t)n_clusters + 1) * sizeof *h->kept.seg);
      h->kept.e = edges;
      h->kept.m = m;
      h->kept.seg = seg;
      edges = NULL;
      seg = NULL;
    }
  }
  cairn__free(a, edges, m * sizeof *edges);
  cairn__free(a, seg, seg ? ((size_t)n_clusters + 1) * sizeof *seg : 0);
  cairn__free(a, trans, trans ? hpa_transitions_cap(h->cs) * sizeof *trans : 0);
  cairn__free(a, redo, redo ? n_clusters : 0);
  return st;
}

