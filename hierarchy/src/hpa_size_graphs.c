/* The graphs of units above size 1 (max_size > 1): for each size k, the
 * level-1 graph's nodes with the kept pairs of each cluster's size-k
 * table (hpa_sizes.c) and the crossings that fit k, at the unit's costs,
 * made after every assembly of the level-1 graph, with its landmark
 * table (size-1 costs never exceed a larger unit's, so the bound holds).
 * Like the level-1 assembly (hpa_assemble.c), a linear pass over the
 * clusters. */
#include "hpa_internal.h"

/* Listing the edges of every size, cluster by cluster, as list_edges does
 * for size 1 (hpa_assemble.c): each cluster's owned crossings found once
 * for all sizes; first the counts (size k's into seg[k - 2][id + 1]), then
 * the edges. */
typedef struct glist {
  const cairn_hpa *h;
  size_t *seg;          /* max_size - 1 rows of clusters + 1 */
  cairn_graph_edge **e; /* per size from 2; NULL while counting */
} glist;

static size_t put_edge(cairn_graph_edge *e, size_t m, uint32_t from, uint32_t to, cairn_cost c) {
  if (e) {
    e[m].from = from;
    e[m].to = to;
    e[m].cost = (double)c / (double)CAIRN_COST_ONE; /* exact: c < 2^53 */
  }
  return m + 1;
}

/* Cluster id's share of size k's graph: its kept pairs, then those of its
 * crossings trans[0 .. nt) that fit k (none into a cell the layer blocks
 * for the unit). */
static size_t sized_edges(const cairn_hpa *h, uint32_t id, unsigned k,
                          const hpa_transition *trans, size_t nt, cairn_graph_edge *e) {
  const hpa_cluster *c = &h->clusters[id];
  const hpa_csize *z = &h->csz[id];
  size_t m = 0;
  for (uint32_t i = 0; z->ke && i < c->n; i++)
    for (uint32_t j = 0; j < c->n; j++)
      if (z->ke[(size_t)i * c->n + j] & (1u << (k - 1)))
        m = put_edge(e, m, c->first + i, c->first + j, hpa_dist_k(c, z, i, j, k));
  for (size_t t = 0; t < nt; t++) {
    const hpa_transition *x = &trans[t];
    if (!cairn__hpa_transition_fits(h, x, k)) continue;
    cairn_cost ab = hpa_sized_enter_cost(h, x->b, x->diag, k);
    cairn_cost ba = hpa_sized_enter_cost(h, x->a, x->diag, k);
    uint32_t a = cairn__hpa_node_in(h, x->ka, x->a), b = cairn__hpa_node_in(h, x->kb, x->b);
    if (ab < HPA_BLOCKED_STEP) m = put_edge(e, m, a, b, ab);
    if (ba < HPA_BLOCKED_STEP) m = put_edge(e, m, b, a, ba);
  }
  return m;
}

static cairn_status glist_init(void *ctx, void *scratch) {
  return cairn__hpa_transitions_alloc(((const glist *)ctx)->h, scratch);
}

static cairn_status glist_run(void *ctx, void *scratch, size_t id) {
  const glist *l = ctx;
  const cairn_hpa *h = l->h;
  const size_t row = (size_t)h->cw * (size_t)h->ch + 1;
  hpa_transition *t = *(hpa_transition **)scratch;
  int32_t cx = (int32_t)(id % (uint32_t)h->cw), cy = (int32_t)(id / (uint32_t)h->cw);
  size_t nt = cairn__hpa_owned_transitions(h, cx, cy, t);
  for (unsigned k = 2; k <= (unsigned)h->max_size; k++) {
    size_t *seg = l->seg + (k - 2) * row;
    if (l->e)
      sized_edges(h, (uint32_t)id, k, t, nt, l->e[k - 2] + seg[id]);
    else
      seg[id + 1] = sized_edges(h, (uint32_t)id, k, t, nt, NULL);
  }
  return CAIRN_OK;
}

static void glist_fini(void *ctx, void *scratch) {
  cairn__hpa_transitions_free(((const glist *)ctx)->h, *(hpa_transition **)scratch);
}

/* The level-1 graph's landmark table into nodes and costs (the count). */
static uint32_t read_landmarks(const cairn_hpa *h, uint32_t *nodes, cairn_cost *costs) {
  const uint32_t k = cairn_graph_landmarks(h->graph), n = cairn_graph_nodes(h->graph);
  for (uint32_t i = 0; i < k; i++) {
    nodes[i] = cairn_graph_landmark_node(h->graph, i);
    for (uint32_t v = 0; v < n; v++)
      costs[(size_t)i * n + v] = cairn_graph_landmark_cost(h->graph, i, v);
  }
  return k;
}

void cairn__hpa_size_graphs_free(cairn_hpa *h) {
  for (int k = 0; k <= CAIRN_GRID_MAX_CLEARANCE; k++) {
    cairn_graph_destroy(h->gsize[k]);
    h->gsize[k] = NULL;
  }
}

/* Every size's edges (listed in e[k - 2], seg filled), then its graph
 * over positions xy with the landmark table (nodes, lm; k_lm of them). */
static cairn_status make_graphs(cairn_hpa *h, size_t *seg, cairn_graph_edge **e,
                                const double *xy, const uint32_t *nodes, uint32_t k_lm,
                                const cairn_cost *lm) {
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  const size_t row = (size_t)n_clusters + 1;
  const unsigned sizes = (unsigned)h->max_size - 1;
  glist l = {h, seg, NULL};
  hpa_pass p = {&l, sizeof(hpa_transition *), 64, glist_init, glist_run, glist_fini};
  for (unsigned s = 0; s < sizes; s++) seg[s * row] = 0;
  cairn_status st = cairn__hpa_run_pass(h, &p, n_clusters);
  for (unsigned s = 0; st == CAIRN_OK && s < sizes; s++) {
    for (uint32_t id = 0; id < n_clusters; id++) seg[s * row + id + 1] += seg[s * row + id];
    e[s] = cairn__alloc(&h->alloc, (seg[s * row + n_clusters] + 1) * sizeof **e);
    if (!e[s]) st = CAIRN_ERR_NOMEM;
  }
  l.e = e;
  if (st == CAIRN_OK) st = cairn__hpa_run_pass(h, &p, n_clusters);
  for (unsigned s = 0; st == CAIRN_OK && s < sizes; s++) {
    st = cairn__hpa_graph(&h->alloc, h->n_nodes, xy, e[s], seg[s * row + n_clusters],
                          &h->gsize[s + 2]);
    if (st == CAIRN_OK) st = cairn_graph_set_landmarks(h->gsize[s + 2], nodes, k_lm,
                                                       k_lm ? lm : NULL);
  }
  return st;
}

cairn_status cairn__hpa_size_graphs(cairn_hpa *h) {
  cairn__hpa_size_graphs_free(h);
  if (h->max_size <= 1) return CAIRN_OK;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  const unsigned sizes = (unsigned)h->max_size - 1;
  const size_t row = (size_t)n_clusters + 1, n = cairn_graph_nodes(h->graph);
  const size_t lm_n = (size_t)cairn_graph_landmarks(h->graph) * n;
  double *xy = cairn__alloc(&h->alloc, 2 * (size_t)h->n_nodes * sizeof *xy + 1);
  size_t *seg = cairn__alloc(&h->alloc, sizes * row * sizeof *seg);
  cairn_cost *lm = cairn__alloc(&h->alloc, (lm_n ? lm_n : 1) * sizeof *lm);
  cairn_graph_edge *e[CAIRN_GRID_MAX_CLEARANCE] = {NULL};
  cairn_status st = xy && seg && lm ? CAIRN_OK : CAIRN_ERR_NOMEM;
  uint32_t nodes[CAIRN_GRAPH_MAX_LANDMARKS], k_lm = 0;
  if (st == CAIRN_OK) {
    cairn__hpa_positions(h, xy);
    k_lm = read_landmarks(h, nodes, lm);
    st = make_graphs(h, seg, e, xy, nodes, k_lm, lm);
  }
  for (unsigned s = 0; s < sizes; s++)
    if (e[s]) cairn__free(&h->alloc, e[s], (seg[s * row + n_clusters] + 1) * sizeof *e[s]);
  cairn__free(&h->alloc, lm, lm ? (lm_n ? lm_n : 1) * sizeof *lm : 0);
  cairn__free(&h->alloc, seg, seg ? sizes * row * sizeof *seg : 0);
  cairn__free(&h->alloc, xy, xy ? 2 * (size_t)h->n_nodes * sizeof *xy + 1 : 0);
  if (st != CAIRN_OK) cairn__hpa_size_graphs_free(h);
  return st;
}

size_t cairn__hpa_graph_bytes(const cairn_graph *g) {
  if (!g) return 0;
  const size_t n = cairn_graph_nodes(g), m = cairn_graph_edges(g);
  /* offsets, targets, costs, positions, and the landmark table */
  return (n + 1) * sizeof(uint32_t) + m * (sizeof(uint32_t) + sizeof(cairn_cost)) +
         2 * n * sizeof(double) + cairn_graph_landmark_bytes(g);
}

size_t cairn__hpa_sizes_memory(const cairn_hpa *h) {
  size_t mem = 0;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  for (uint32_t id = 0; h->csz && id < n_clusters; id++) mem += h->csz[id].sbytes;
  if (h->csz) mem += n_clusters * sizeof *h->csz;
  for (int k = 2; k <= CAIRN_GRID_MAX_CLEARANCE; k++) mem += cairn__hpa_graph_bytes(h->gsize[k]);
  return mem;
}
