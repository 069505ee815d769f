/* The graphs of units above size 1 (max_size > 1): for each size k, the
 * level-1 graph's nodes with the kept pairs of each cluster's size-k
 * table (hpa_sizes.c) and the crossings that fit k, at the unit's costs,
 * made after every assembly of the level-1 graph. They hold no landmark
 * table: their searches are bounded by the level-1 graph's
 * (cairn_graph_query.bounds; size-1 costs never exceed a larger unit's, so
 * the bound holds), which is made again before them whenever the level-1
 * graph is.
 *
 * Each size's rows are written straight from the level-1 graph's, node by
 * node (no edge list, no sort): a node's row there holds the crossings of
 * the transitions its cluster's west and north neighbours own, then its
 * kept pairs, then the crossings its own cluster's transitions give (the
 * order the assembly lists them in, hpa_assemble.c). Size k's row is the
 * same with the crossings that fit k, at the unit's costs (a crossing the
 * layer blocks for size 1 is blocked for every size), and size k's kept
 * pairs: the graph a listing of size k's edges would make, edge for edge.
 * A pass over the clusters counts every size's rows, then a second writes
 * them all, reading each node's level-1 row and each crossing's fit once
 * for every size (a pass per size read them once a size). */
#include "hpa_internal.h"

#include <string.h>

typedef struct grows {
  const cairn_hpa *h;
  uint32_t *count; /* (max_size - 1) rows of n_nodes + 1, while counting */
  /* while writing, every size's rows (rows[k] for k = 2 .. max_size) */
  cairn_graph_rows rows[CAIRN_GRID_MAX_CLEARANCE + 1];
} grows;

/* Whether the crossing from a node of cluster cv into cluster ct comes
 * before cv's kept pairs in a row: its transition is owned by the
 * north-west cluster of the two (the border's west or north side, or the
 * corner's north-west), and that is not cv. */
static bool listed_before(const cairn_hpa *h, uint32_t cv, uint32_t ct) {
  const uint32_t cw = (uint32_t)h->cw;
  const uint32_t x = cv % cw < ct % cw ? cv % cw : ct % cw;
  const uint32_t y = cv / cw < ct / cw ? cv / cw : ct / cw;
  return y * cw + x != cv;
}

/* The largest size that fits the crossing from padded cell a into its
 * neighbour b (both cells, and for a diagonal the two beside it), capped
 * at max_size, as cairn__hpa_transition_fits reads it; *diag whether it
 * is a diagonal. */
static unsigned crossing_fit(const cairn_hpa *h, uint32_t a, uint32_t b, bool *diag) {
  const int32_t d = (int32_t)b - (int32_t)a;
  unsigned f = hpa_fit(h, a), fb = hpa_fit(h, b);
  f = fb < f ? fb : f;
  *diag = d != 1 && d != -1 && d != h->stride && d != -h->stride;
  if (*diag) {
    const int32_t dx = d == h->stride + 1 || d == 1 - h->stride ? 1 : -1;
    const unsigned f1 = hpa_fit(h, (uint32_t)((int32_t)a + dx));
    const unsigned f2 = hpa_fit(h, (uint32_t)((int32_t)a + d - dx));
    f = f1 < f ? f1 : f;
    f = f2 < f ? f2 : f;
  }
  return f;
}

/* The cost of that crossing for size k (which fits it), or
 * CAIRN_COST_INF where the layer blocks it. */
static cairn_cost crossing_k(const cairn_hpa *h, uint32_t b, bool diag, unsigned k) {
  const cairn_cost c = hpa_sized_enter_cost(h, b, diag, k);
  return c < HPA_BLOCKED_STEP ? c : CAIRN_COST_INF;
}

/* Node v's row in the level-1 graph (*to, its length returned): to[0 ..
 * *pre) are the crossings listed before its kept pairs, to[*post ..) those
 * after them; its kept pairs lie between. */
static uint32_t row_span(const cairn_hpa *h, uint32_t v, const uint32_t **to, uint32_t *pre,
                         uint32_t *post) {
  const uint32_t cv = h->node_cluster[v];
  const uint32_t lo = h->clusters[cv].first, hi = lo + h->clusters[cv].n;
  const uint32_t deg = cairn_graph_neighbours(h->graph, v, to, NULL);
  const uint32_t *t = *to;
  uint32_t a = 0, b = deg;
  while (a < deg && (t[a] < lo || t[a] >= hi) && listed_before(h, cv, h->node_cluster[t[a]])) a++;
  while (b > a && (t[b - 1] < lo || t[b - 1] >= hi) &&
         !listed_before(h, cv, h->node_cluster[t[b - 1]]))
    b--;
  *pre = a;
  *post = b;
  return deg;
}

/* The padded cell of node t. */
static uint32_t node_cell(const cairn_hpa *h, uint32_t t) {
  const hpa_cluster *d = &h->clusters[h->node_cluster[t]];
  return d->cell[t - d->first];
}

/* Node v's crossings to[from .. end) into every size's row (rows[k], each
 * written from at[k] on, which advances): a crossing that a size does not
 * fit, or that the layer blocks for it, is no crossing of any larger size
 * either. */
static void put_crossings(const cairn_hpa *h, uint32_t a, const uint32_t *to, uint32_t from,
                          uint32_t end, const cairn_graph_rows *rows, size_t *at) {
  for (uint32_t e = from; e < end; e++) {
    const uint32_t b = node_cell(h, to[e]);
    bool diag;
    const unsigned fit = crossing_fit(h, a, b, &diag);
    for (unsigned k = 2; k <= fit; k++) {
      const cairn_cost c = crossing_k(h, b, diag, k);
      if (c == CAIRN_COST_INF) break;
      rows[k].target[at[k]] = to[e];
      rows[k].cost[at[k]] = c;
      at[k]++;
    }
  }
}

/* Node v's kept pairs of size k (cluster c, sized data z, local index i),
 * written at target and cost from m on when target is not NULL; returns
 * the new m. */
static size_t put_pairs(const hpa_cluster *c, const hpa_csize *z, uint32_t i, unsigned k,
                        uint32_t *target, cairn_cost *cost, size_t m) {
  for (uint32_t j = 0; z->ke && j < c->n; j++) {
    if (!(z->ke[(size_t)i * c->n + j] >> (k - 1) & 1u)) continue;
    if (target) {
      target[m] = c->first + j;
      cost[m] = hpa_dist_k(c, z, i, j, k);
    }
    m++;
  }
  return m;
}

/* Node v as its rows read it: its cluster and sized data, its local index
 * and cell, and its level-1 row split as row_span does. */
typedef struct node_at {
  const hpa_cluster *c;
  const hpa_csize *z;
  uint32_t i, cell;
  const uint32_t *to;
  uint32_t pre, post, deg;
} node_at;

static node_at node_of(const cairn_hpa *h, uint32_t v) {
  const uint32_t id = h->node_cluster[v];
  node_at n = {&h->clusters[id], &h->csz[id], 0, 0, NULL, 0, 0, 0};
  n.i = v - n.c->first;
  n.cell = n.c->cell[n.i];
  n.deg = row_span(h, v, &n.to, &n.pre, &n.post);
  return n;
}

/* Node v's row lengths for every size, into count[(k - 2) * row]. A
 * crossing that a size does not fit, or that the layer blocks for it, is
 * no crossing of any larger size either. */
static void count_row(const cairn_hpa *h, uint32_t v, uint32_t *count, size_t row) {
  const node_at n = node_of(h, v);
  for (unsigned k = 2; k <= (unsigned)h->max_size; k++)
    count[(k - 2) * row] = (uint32_t)put_pairs(n.c, n.z, n.i, k, NULL, NULL, 0);
  for (int part = 0; part < 2; part++)
    for (uint32_t e = part ? n.post : 0; e < (part ? n.deg : n.pre); e++) {
      const uint32_t b = node_cell(h, n.to[e]);
      bool diag;
      const unsigned fit = crossing_fit(h, n.cell, b, &diag);
      for (unsigned k = 2; k <= fit; k++) {
        if (h->pen && crossing_k(h, b, diag, k) == CAIRN_COST_INF) break; /* nor larger */
        count[(k - 2) * row]++;
      }
    }
}

/* Node v's row of every size. */
static void write_rows(const cairn_hpa *h, uint32_t v, const cairn_graph_rows *rows) {
  const node_at n = node_of(h, v);
  size_t at[CAIRN_GRID_MAX_CLEARANCE + 1];
  for (unsigned k = 2; k <= (unsigned)h->max_size; k++) at[k] = rows[k].offset[v];
  put_crossings(h, n.cell, n.to, 0, n.pre, rows, at);
  for (unsigned k = 2; k <= (unsigned)h->max_size; k++)
    at[k] = put_pairs(n.c, n.z, n.i, k, rows[k].target, rows[k].cost, at[k]);
  put_crossings(h, n.cell, n.to, n.post, n.deg, rows, at);
}

static cairn_status grows_init(void *ctx, void *scratch) {
  (void)ctx;
  (void)scratch;
  return CAIRN_OK;
}

static void grows_fini(void *ctx, void *scratch) {
  (void)ctx;
  (void)scratch;
}

/* Cluster id's nodes: their row lengths for every size (into count[s *
 * (n_nodes + 1) + v + 1]) while counting, else their rows. */
static cairn_status grows_run(void *ctx, void *scratch, size_t id) {
  (void)scratch;
  const grows *g = ctx;
  const cairn_hpa *h = g->h;
  const hpa_cluster *c = &h->clusters[id];
  const size_t row = (size_t)h->n_nodes + 1;
  for (uint32_t v = c->first; v < c->first + c->n; v++) {
    if (g->count)
      count_row(h, v, g->count + v + 1, row);
    else
      write_rows(h, v, g->rows);
  }
  return CAIRN_OK;
}

/* Every size's graph from its row lengths (count as grows_run leaves
 * them): their rows begun, written in one pass over the clusters, done.
 * Into h->gsize; on failure the graphs made so far stay there. */
static cairn_status size_graphs(cairn_hpa *h, grows *g, const uint32_t *count) {
  const uint32_t n = h->n_nodes, n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  const unsigned top = (unsigned)h->max_size;
  const size_t row = (size_t)n + 1;
  cairn_status st = CAIRN_OK;
  for (unsigned k = 2; st == CAIRN_OK && k <= top; k++) {
    const uint32_t *ck = count + (k - 2) * row;
    size_t m = 0;
    for (uint32_t v = 0; v < n; v++) m += ck[v + 1];
    st = cairn_graph_rows_begin(n, m, 1, &h->alloc, &h->gsize[k], &g->rows[k]);
    if (st != CAIRN_OK) break;
    cairn_graph_rows *r = &g->rows[k];
    r->offset[0] = 0;
    for (uint32_t v = 0; v < n; v++) r->offset[v + 1] = r->offset[v] + ck[v + 1];
    if (k == 2)
      cairn__hpa_positions(h, r->xy);
    else
      memcpy(r->xy, g->rows[2].xy, 2 * (size_t)n * sizeof *r->xy);
  }
  if (st != CAIRN_OK) return st;
  g->count = NULL;
  hpa_pass p = {g, 1, 64, grows_init, grows_run, grows_fini};
  st = cairn__hpa_run_pass(h, &p, n_clusters);
  for (unsigned k = 2; st == CAIRN_OK && k <= top; k++)
    st = cairn_graph_rows_done(&h->gsize[k], CAIRN_GH_OCTILE, 1.0);
  return st;
}

void cairn__hpa_size_graphs_free(cairn_hpa *h) {
  for (int k = 0; k <= CAIRN_GRID_MAX_CLEARANCE; k++) {
    cairn_graph_destroy(h->gsize[k]);
    h->gsize[k] = NULL;
  }
}

cairn_status cairn__hpa_size_graphs(cairn_hpa *h) {
  cairn__hpa_size_graphs_free(h);
  if (h->max_size <= 1) return CAIRN_OK;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  const unsigned sizes = (unsigned)h->max_size - 1;
  cairn_status st = CAIRN_OK;
  if (!h->n_nodes) { /* as the level-1 graph: one node, no positions */
    for (unsigned k = 2; st == CAIRN_OK && k <= (unsigned)h->max_size; k++)
      st = cairn__hpa_graph(&h->alloc, 0, NULL, NULL, 0, &h->gsize[k]);
    if (st != CAIRN_OK) cairn__hpa_size_graphs_free(h);
    return st;
  }
  const size_t row = (size_t)h->n_nodes + 1;
  uint32_t *count = cairn__alloc(&h->alloc, sizes * row * sizeof *count);
  if (!count) return CAIRN_ERR_NOMEM;
  grows g;
  memset(&g, 0, sizeof g);
  g.h = h;
  g.count = count;
  hpa_pass p = {&g, 1, 64, grows_init, grows_run, grows_fini};
  st = cairn__hpa_run_pass(h, &p, n_clusters);
  if (st == CAIRN_OK) st = size_graphs(h, &g, count);
  cairn__free(&h->alloc, count, sizes * row * sizeof *count);
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
