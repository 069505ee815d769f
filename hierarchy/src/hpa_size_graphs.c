/* The graphs of units above size 1 (max_size > 1): for each size k, the
 * level-1 graph's nodes with the kept pairs of each cluster's size-k
 * table (hpa_sizes.c) and the crossings that fit k, at the unit's costs,
 * made after every assembly of the level-1 graph. They hold no landmark
 * table: their searches are bounded by the level-1 graph's
 * (cairn_graph_query.bounds; size-1 costs never exceed a larger unit's, so
 * the bound holds), which is made again before them whenever the level-1
 * graph is.
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

/* Cluster id's share of every size's graph, each size k's from offset
 * at[k - 2] of l->e[k - 2] (or only counted into at[k - 2] while l->e is
 * NULL): its kept pairs, one pass over the pair bits for all sizes, then
 * the crossings of trans[0 .. nt) that fit each size (none into a cell the
 * layer blocks for the unit). */
static void sized_edges(const glist *l, uint32_t id, const hpa_transition *trans, size_t nt,
                        size_t *at) {
  const cairn_hpa *h = l->h;
  const hpa_cluster *c = &h->clusters[id];
  const hpa_csize *z = &h->csz[id];
  const unsigned top = (unsigned)h->max_size;
  for (uint32_t i = 0; z->ke && i < c->n; i++)
    for (uint32_t j = 0; j < c->n; j++) {
      unsigned bits = z->ke[(size_t)i * c->n + j] >> 1; /* size 2 in bit 0 */
      while (bits) {
        const unsigned k = (unsigned)cairn__ctz(bits) + 2;
        bits &= bits - 1;
        cairn_graph_edge *e = l->e ? l->e[k - 2] : NULL;
        at[k - 2] = put_edge(e, at[k - 2], c->first + i, c->first + j,
                             e ? hpa_dist_k(c, z, i, j, k) : 0);
      }
    }
  for (size_t t = 0; t < nt; t++) {
    const hpa_transition *x = &trans[t];
    const uint32_t a = cairn__hpa_node_in(h, x->ka, x->a), b = cairn__hpa_node_in(h, x->kb, x->b);
    for (unsigned k = 2; k <= top; k++) {
      if (!cairn__hpa_transition_fits(h, x, k)) break; /* nor any larger size */
      cairn_graph_edge *e = l->e ? l->e[k - 2] : NULL;
      cairn_cost ab = hpa_sized_enter_cost(h, x->b, x->diag, k);
      cairn_cost ba = hpa_sized_enter_cost(h, x->a, x->diag, k);
      if (ab < HPA_BLOCKED_STEP) at[k - 2] = put_edge(e, at[k - 2], a, b, ab);
      if (ba < HPA_BLOCKED_STEP) at[k - 2] = put_edge(e, at[k - 2], b, a, ba);
    }
  }
}

static cairn_status glist_init(void *ctx, void *scratch) {
  return cairn__hpa_transitions_alloc(((const glist *)ctx)->h, scratch);
}

static cairn_status glist_run(void *ctx, void *scratch, size_t id) {
  const glist *l = ctx;
  const cairn_hpa *h = l->h;
  const size_t row = (size_t)h->cw * (size_t)h->ch + 1;
  const unsigned sizes = (unsigned)h->max_size - 1;
  hpa_transition *t = *(hpa_transition **)scratch;
  int32_t cx = (int32_t)(id % (uint32_t)h->cw), cy = (int32_t)(id / (uint32_t)h->cw);
  size_t nt = cairn__hpa_owned_transitions(h, cx, cy, t);
  size_t at[CAIRN_GRID_MAX_CLEARANCE] = {0};
  for (unsigned s = 0; l->e && s < sizes; s++) at[s] = l->seg[s * row + id];
  sized_edges(l, (uint32_t)id, t, nt, at);
  for (unsigned s = 0; !l->e && s < sizes; s++) l->seg[s * row + id + 1] = at[s];
  return CAIRN_OK;
}

static void glist_fini(void *ctx, void *scratch) {
  cairn__hpa_transitions_free(((const glist *)ctx)->h, *(hpa_transition **)scratch);
}

void cairn__hpa_size_graphs_free(cairn_hpa *h) {
  for (int k = 0; k <= CAIRN_GRID_MAX_CLEARANCE; k++) {
    cairn_graph_destroy(h->gsize[k]);
    h->gsize[k] = NULL;
  }
}

/* Every size's edges (listed in e[k - 2], seg filled), then its graph
 * over positions xy. */
static cairn_status make_graphs(cairn_hpa *h, size_t *seg, cairn_graph_edge **e,
                                const double *xy) {
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
  }
  return st;
}

cairn_status cairn__hpa_size_graphs(cairn_hpa *h) {
  cairn__hpa_size_graphs_free(h);
  if (h->max_size <= 1) return CAIRN_OK;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  const unsigned sizes = (unsigned)h->max_size - 1;
  const size_t row = (size_t)n_clusters + 1;
  double *xy = cairn__alloc(&h->alloc, 2 * (size_t)h->n_nodes * sizeof *xy + 1);
  size_t *seg = cairn__alloc(&h->alloc, sizes * row * sizeof *seg);
  cairn_graph_edge *e[CAIRN_GRID_MAX_CLEARANCE] = {NULL};
  cairn_status st = xy && seg ? CAIRN_OK : CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK) {
    cairn__hpa_positions(h, xy);
    st = make_graphs(h, seg, e, xy);
  }
  for (unsigned s = 0; s < sizes; s++)
    if (e[s]) cairn__free(&h->alloc, e[s], (seg[s * row + n_clusters] + 1) * sizeof *e[s]);
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
