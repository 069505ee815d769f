/* The third level: blocks of bs x bs clusters over the level-1 abstract
 * graph, built the way clusters are built over the grid. A block's
 * level-2 nodes are its level-1 nodes with an edge leaving the block; the
 * cost between each pair comes from a Dijkstra over the level-1 graph
 * restricted to the block (the core's graph fill), and the level-1 path
 * behind it is kept for refinement. Long queries then search the much
 * smaller level-2 graph and refine down through level 1 to the grid.
 *
 * Blocks refer to level-1 nodes by (cluster, index in cluster), which an
 * edit elsewhere does not change, so an edit rebuilds only the blocks
 * holding rebuilt clusters; the level-2 graph is reassembled after every
 * change, a linear pass. */
#include "hpa_internal.h"

#include <string.h>

/* ---- one block ------------------------------------------------------ */

typedef struct block_scratch {
  cairn_search *search;
  uint32_t *trace;
  size_t trace_cap;
  uint32_t *seq; /* every pair's chain, in the order found */
  size_t seq_cap, n_seq;
  uint32_t *poff, *plen; /* per pair: where its chain is in seq */
  size_t poff_cap, plen_cap;
} block_scratch;

static void block_free(const cairn_allocator *a, hpa_block *b) {
  size_t nn = (size_t)b->n * b->n;
  cairn__free(a, b->base, (size_t)b->cw * (size_t)b->ch * sizeof *b->base);
  cairn__free(a, b->l1_cluster, b->m * sizeof *b->l1_cluster);
  cairn_graph_destroy(b->fwd);
  cairn_graph_destroy(b->rev);
  cairn__free(a, b->node, b->n * sizeof *b->node);
  cairn__free(a, b->dist, nn * sizeof *b->dist);
  cairn__free(a, b->off, (nn + 1) * sizeof *b->off);
  cairn__free(a, b->seq, b->n_seq * sizeof *b->seq);
  b->base = b->l1_cluster = b->node = b->off = b->seq = NULL;
  b->fwd = b->rev = NULL;
  b->dist = NULL;
  b->m = b->n = 0;
  b->n_seq = 0;
}

static bool cluster_in_block(const cairn_hpa *h, const hpa_block *b,
                             uint32_t k) {
  int32_t cx = (int32_t)(k % (uint32_t)h->cw), cy = (int32_t)(k / (uint32_t)h->cw);
  return cx >= b->cx0 && cx < b->cx0 + b->cw && cy >= b->cy0 &&
         cy < b->cy0 + b->ch;
}

/* The level-1 node ids of the block's cluster row y (0-based in the
 * block): nodes are numbered cluster by cluster in row-major order, so a
 * row of the block's clusters holds one run of ids, [*lo, *hi), and its
 * local ids are one run too, from base[y * cw]. */
static void row_ids(const cairn_hpa *h, const hpa_block *b, int32_t y,
                    uint32_t *lo, uint32_t *hi) {
  uint32_t k = (uint32_t)(b->cy0 + y) * (uint32_t)h->cw + (uint32_t)b->cx0;
  const hpa_cluster *last = &h->clusters[k + (uint32_t)b->cw - 1];
  *lo = h->clusters[k].first;
  *hi = last->first + last->n;
}

/* Local id in block b of level-1 node v, or UINT32_MAX when v lies
 * outside b (row_ids: one division finds v's row). */
static uint32_t local_in_block(const cairn_hpa *h, const hpa_block *b, uint32_t v) {
  int32_t y = (int32_t)(h->node_cluster[v] / (uint32_t)h->cw) - b->cy0;
  if (y < 0 || y >= b->ch) return UINT32_MAX;
  uint32_t lo, hi;
  row_ids(h, b, y, &lo, &hi);
  return v >= lo && v < hi ? b->base[y * b->cw] + (v - lo) : UINT32_MAX;
}

/* The id runs of a block's cluster rows (row_ids) and where their local
 * ids start, taken once for the passes over the block's edges. */
typedef struct block_rows {
  uint32_t lo[64], hi[64], base[64]; /* a block is at most 64 clusters high */
} block_rows;

static void block_rows_of(const cairn_hpa *h, const hpa_block *b, block_rows *r) {
  for (int32_t y = 0; y < b->ch; y++) {
    row_ids(h, b, y, &r->lo[y], &r->hi[y]);
    r->base[y] = b->base[y * b->cw];
  }
}

/* Whether node v lies in the block's cluster row y, and its local id
 * (*w) if so. */
static inline bool in_row(const block_rows *r, int32_t y, uint32_t v, uint32_t *w) {
  if (v < r->lo[y] || v >= r->hi[y]) return false;
  *w = r->base[y] + (v - r->lo[y]);
  return true;
}

/* Local id in block b of level-1 node v, the end of an edge from the
 * block's cluster row y, or UINT32_MAX when v lies outside b. A level-1
 * edge joins a cluster to itself or to a neighbour, so it can only stay
 * in the block through rows y, y - 1 and y + 1 (most stay in y). */
static inline uint32_t local_near_row(const hpa_block *b, const block_rows *r, int32_t y,
                                      uint32_t v) {
  uint32_t w;
  if (in_row(r, y, v, &w) || (y > 0 && in_row(r, y - 1, v, &w)) ||
      (y + 1 < b->ch && in_row(r, y + 1, v, &w)))
    return w;
  return UINT32_MAX;
}

/* The level-1 edges between nodes of the block, as local ids: counted,
 * or with `rows` (not NULL) written there. Local ids ascend with level-1
 * ids, so the edges come grouped by source, in the level-1 graph's order:
 * the rows of the block's forward graph. */
static size_t block_edges(const cairn_hpa *h, const hpa_block *b, const block_rows *r,
                          const cairn_graph_rows *rows) {
  size_t m = 0;
  for (int32_t y = 0; y < b->ch; y++) {
    for (uint32_t v = r->lo[y], u = r->base[y]; v < r->hi[y]; v++, u++) {
      const uint32_t *to;
      const cairn_cost *cost;
      uint32_t deg = cairn_graph_neighbours(h->graph, v, &to, &cost);
      if (rows) rows->offset[u] = (uint32_t)m;
      for (uint32_t k = 0; k < deg; k++) {
        uint32_t w = local_near_row(b, r, y, to[k]);
        if (w == UINT32_MAX) continue;
        if (rows) {
          rows->target[m] = w;
          rows->cost[m] = cost[k];
        }
        m++;
      }
    }
  }
  if (rows) rows->offset[b->m] = (uint32_t)m;
  return m;
}

/* Whether level-1 node v has an edge leaving block b. */
static bool leaves_block(const cairn_hpa *h, const hpa_block *b, uint32_t v) {
  const uint32_t *to;
  uint32_t deg = cairn_graph_neighbours(h->graph, v, &to, NULL);
  for (uint32_t k = 0; k < deg; k++)
    if (local_in_block(h, b, to[k]) == UINT32_MAX) return true;
  return false;
}

/* Whether a level-1 node outside block b has an edge to v. Crossings join
 * cells one step apart, so only v's eight neighbouring cells can hold one.
 * Without a layer every crossing goes both ways and this adds nothing to
 * leaves_block; a layer's block closes one way (nobody enters the blocked
 * cell), and the node at the open end is then entered but never left. */
static bool entered_from_outside(const cairn_hpa *h, const hpa_block *b, uint32_t v) {
  cairn_point p = hpa_point(h, hpa_node_cell(h, v));
  for (int d = 0; d < 8; d++) {
    cairn_point q = {p.x + cairn__dx[d], p.y + cairn__dy[d]};
    if (q.x < 0 || q.y < 0 || q.x >= h->width || q.y >= h->height) continue;
    if (cluster_in_block(h, b, hpa_cluster_of(h, q))) continue;
    uint32_t w = cairn__hpa_node_at(h, hpa_index(h, q.x, q.y));
    if (w == UINT32_MAX) continue;
    const uint32_t *to;
    uint32_t deg = cairn_graph_neighbours(h->graph, w, &to, NULL);
    for (uint32_t k = 0; k < deg; k++)
      if (to[k] == v) return true;
  }
  return false;
}

/* Level-2 nodes: the level-1 nodes with an edge leaving or entering the
 * block, so that every level-1 edge between blocks joins two of them. */
static bool crosses_block(const cairn_hpa *h, const hpa_block *b, uint32_t v) {
  return leaves_block(h, b, v) || (h->layer && entered_from_outside(h, b, v));
}

cairn_status cairn__hpa_block_graphs_begin(cairn_hpa *h, hpa_block *b,
                                           cairn_graph_rows rows[2]) {
  const cairn_allocator *a = &h->alloc;
  hpa_lock(h);
  b->base = cairn__alloc(a, (size_t)b->cw * (size_t)b->ch * sizeof *b->base);
  hpa_unlock(h);
  if (!b->base) return CAIRN_ERR_NOMEM;
  uint32_t m = 0;
  for (int32_t y = 0; y < b->ch; y++)
    for (int32_t x = 0; x < b->cw; x++) {
      uint32_t k = (uint32_t)(b->cy0 + y) * (uint32_t)h->cw + (uint32_t)(b->cx0 + x);
      b->base[y * b->cw + x] = m;
      m += h->clusters[k].n;
    }
  hpa_lock(h);
  b->l1_cluster = cairn__alloc(a, m * sizeof *b->l1_cluster);
  hpa_unlock(h);
  if (!b->l1_cluster) return CAIRN_ERR_NOMEM;
  b->m = m;
  for (int32_t y = 0; y < b->ch; y++)
    for (int32_t x = 0; x < b->cw; x++) {
      uint32_t k = (uint32_t)(b->cy0 + y) * (uint32_t)h->cw + (uint32_t)(b->cx0 + x);
      for (uint32_t i = 0; i < h->clusters[k].n; i++)
        b->l1_cluster[b->base[y * b->cw + x] + i] = k;
    }
  if (!m) return CAIRN_OK;
  block_rows r;
  block_rows_of(h, b, &r);
  const size_t edges = block_edges(h, b, &r, NULL);
  hpa_lock(h);
  cairn_status st = cairn_graph_rows_begin(m, edges, 0, a, &b->fwd, &rows[0]);
  if (st == CAIRN_OK) st = cairn_graph_rows_begin(m, edges, 0, a, &b->rev, &rows[1]);
  hpa_unlock(h);
  return st;
}

/* The transpose of g (n nodes) into rows begun for its size: each edge
 * turned round, a node's edges in the order of their sources, as
 * cairn_graph_create orders g's edges turned round. */
static void transpose_rows(const cairn_graph *g, uint32_t n, const cairn_graph_rows *t) {
  uint32_t *off = t->offset;
  memset(off, 0, ((size_t)n + 1) * sizeof *off);
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t *to;
    uint32_t deg = cairn_graph_neighbours(g, v, &to, NULL);
    for (uint32_t k = 0; k < deg; k++) off[to[k] + 1]++;
  }
  for (uint32_t v = 0; v < n; v++) off[v + 1] += off[v];
  for (uint32_t v = 0; v < n; v++) { /* off[w] moves to the end of w's row */
    const uint32_t *to;
    const cairn_cost *cost;
    uint32_t deg = cairn_graph_neighbours(g, v, &to, &cost);
    for (uint32_t k = 0; k < deg; k++) {
      uint32_t e = off[to[k]]++;
      t->target[e] = v;
      t->cost[e] = cost[k];
    }
  }
  for (uint32_t v = n; v > 0; v--) off[v] = off[v - 1];
  off[0] = 0;
}

cairn_status cairn__hpa_block_graphs_fill(const cairn_hpa *h, hpa_block *b,
                                          const cairn_graph_rows rows[2]) {
  if (!b->m) return CAIRN_OK;
  block_rows r;
  block_rows_of(h, b, &r);
  block_edges(h, b, &r, &rows[0]);
  cairn_status st = cairn_graph_rows_done(&b->fwd, CAIRN_GH_ZERO, 0.0);
  if (st != CAIRN_OK) return st;
  transpose_rows(b->fwd, b->m, &rows[1]);
  return cairn_graph_rows_done(&b->rev, CAIRN_GH_ZERO, 0.0);
}

/* Level-2 nodes, and the cost and level-1 path of every pair. Level 1's
 * cluster_paths does the same over grid cells; what is alike is shared
 * (cairn__hpa_keep_pairs, cairn__hpa_pack_paths, the pass that runs
 * both). The rest differs in kind: there, cells, step codes, clear runs
 * and the symmetry of uniform terrain; here, node ids and a graph with no
 * such short cuts. */
static cairn_status block_paths(cairn_hpa *h, hpa_block *b, block_scratch *sc) {
  const cairn_allocator *a = &h->alloc;
  uint32_t n = 0;
  for (uint32_t u = 0; u < b->m; u++) n += crosses_block(h, b, hpa_global_of(h, b, u));
  size_t nn = (size_t)n * n;
  hpa_lock(h);
  b->node = cairn__alloc(a, n * sizeof *b->node);
  b->dist = cairn__alloc(a, nn * sizeof *b->dist);
  b->off = cairn__alloc(a, (nn + 1) * sizeof *b->off);
  bool ok = cairn__grow(a, (void **)&sc->trace, &sc->trace_cap, b->m + 1,
                        sizeof *sc->trace) &&
            cairn__grow(a, (void **)&sc->poff, &sc->poff_cap, nn + 1,
                        sizeof *sc->poff) &&
            cairn__grow(a, (void **)&sc->plen, &sc->plen_cap, nn + 1,
                        sizeof *sc->plen);
  ok = ok && b->node && b->dist && b->off;
  if (!ok) {
    cairn__free(a, b->node, n * sizeof *b->node);
    cairn__free(a, b->dist, nn * sizeof *b->dist);
    cairn__free(a, b->off, (nn + 1) * sizeof *b->off);
    b->node = b->off = NULL;
    b->dist = NULL;
  }
  hpa_unlock(h);
  if (!ok) return CAIRN_ERR_NOMEM;
  b->n = n;
  n = 0;
  for (uint32_t u = 0; u < b->m; u++)
    if (crosses_block(h, b, hpa_global_of(h, b, u))) b->node[n++] = u;
  sc->n_seq = 0;
  for (uint32_t i = 0; i < n; i++) {
    cairn_graph_link src = {b->node[i], 0};
    cairn_status st = cairn_graph_fill(sc->search, b->fwd, &src, 1, b->node, n);
    if (st != CAIRN_OK) return st;
    for (uint32_t j = 0; j < n; j++) {
      size_t pair = (size_t)i * n + j;
      sc->poff[pair] = (uint32_t)sc->n_seq;
      sc->plen[pair] = 0;
      cairn_node_info info;
      cairn_search_node(sc->search, b->node[j], &info);
      b->dist[pair] = info.state == CAIRN_NODE_CLOSED ? info.g : CAIRN_COST_INF;
      if (i == j || info.state != CAIRN_NODE_CLOSED) continue;
      size_t len;
      cairn_search_trace_nodes(sc->search, b->node[j], sc->trace, sc->trace_cap, &len);
      hpa_lock(h);
      ok = cairn__grow(a, (void **)&sc->seq, &sc->seq_cap, sc->n_seq + len,
                       sizeof *sc->seq);
      hpa_unlock(h);
      if (!ok) return CAIRN_ERR_NOMEM;
      for (size_t k = len - 1; k-- > 0;) sc->seq[sc->n_seq++] = sc->trace[k];
      sc->plen[pair] = (uint32_t)(len - 1);
    }
  }
  /* keep the chains of the edges the level-2 graph will have */
  size_t total = cairn__hpa_keep_pairs(b->dist, n, sc->plen);
  hpa_lock(h);
  b->seq = cairn__alloc(a, total * sizeof *b->seq);
  hpa_unlock(h);
  if (!b->seq) return CAIRN_ERR_NOMEM;
  cairn__hpa_pack_paths(b->seq, sc->seq, sizeof *b->seq, sc->poff, sc->plen, nn,
                        b->off);
  b->n_seq = total;
  return CAIRN_OK;
}

static cairn_status block_build(cairn_hpa *h, uint32_t bi, block_scratch *sc) {
  hpa_block *b = &h->blocks[bi];
  hpa_lock(h);
  block_free(&h->alloc, b);
  hpa_unlock(h);
  cairn_graph_rows rows[2];
  cairn_status st = cairn__hpa_block_graphs_begin(h, b, rows);
  if (st == CAIRN_OK) st = cairn__hpa_block_graphs_fill(h, b, rows);
  if (st == CAIRN_OK && b->m) st = block_paths(h, b, sc);
  if (st != CAIRN_OK) {
    hpa_lock(h);
    block_free(&h->alloc, b);
    hpa_unlock(h);
  }
  return st;
}

/* ---- the level-2 graph ---------------------------------------------- */

/* Every level-2 edge: kept intra-block pairs, then the level-1 edges that
 * leave the block; counted, or with `rows` (not NULL) written there. Nodes
 * are numbered block by block in this order, so the edges come grouped by
 * source: the graph's rows. */
static size_t level2_edges(const cairn_hpa *h, const cairn_graph_rows *rows) {
  size_t m = 0;
  uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
  block_rows r;
  for (uint32_t bi = 0; bi < n_blocks; bi++) {
    const hpa_block *b = &h->blocks[bi];
    if (b->n) block_rows_of(h, b, &r);
    int32_t y = 0; /* the cluster row of node i (local ids ascend by row) */
    for (uint32_t i = 0; i < b->n; i++) {
      while (y + 1 < b->ch && b->node[i] >= r.base[y + 1]) y++;
      if (rows) rows->offset[b->first + i] = (uint32_t)m;
      for (uint32_t j = 0; !rows && j < b->n; j++) { /* counting: no branch */
        size_t pair = (size_t)i * b->n + j;
        m += b->off[pair + 1] != b->off[pair];
      }
      for (uint32_t j = 0; rows && j < b->n; j++) {
        size_t pair = (size_t)i * b->n + j;
        if (b->off[pair + 1] == b->off[pair]) continue; /* not kept */
        rows->target[m] = b->first + j;
        rows->cost[m++] = b->dist[pair];
      }
      uint32_t v = r.lo[y] + (b->node[i] - r.base[y]);
      const uint32_t *to;
      const cairn_cost *cost;
      uint32_t deg = cairn_graph_neighbours(h->graph, v, &to, &cost);
      for (uint32_t k = 0; k < deg; k++) {
        if (local_near_row(b, &r, y, to[k]) != UINT32_MAX) continue;
        if (rows) {
          rows->target[m] = h->l2_of[to[k]];
          rows->cost[m] = cost[k];
        }
        m++;
      }
    }
  }
  return m;
}

uint32_t cairn__hpa_number2(cairn_hpa *h, uint32_t **l2_block, uint32_t **l2_of) {
  const cairn_allocator *a = &h->alloc;
  uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
  uint32_t n = 0;
  for (uint32_t bi = 0; bi < n_blocks; bi++) {
    h->blocks[bi].first = n;
    n += h->blocks[bi].n;
  }
  *l2_block = cairn__alloc(a, (size_t)n * sizeof **l2_block);
  *l2_of = cairn__alloc(a, (size_t)h->n_nodes * sizeof **l2_of);
  if (!*l2_block || !*l2_of) {
    cairn__free(a, *l2_block, (size_t)n * sizeof **l2_block);
    cairn__free(a, *l2_of, (size_t)h->n_nodes * sizeof **l2_of);
    *l2_block = *l2_of = NULL;
    return n;
  }
  for (uint32_t v = 0; v < h->n_nodes; v++) (*l2_of)[v] = UINT32_MAX;
  for (uint32_t bi = 0; bi < n_blocks; bi++) {
    const hpa_block *b = &h->blocks[bi];
    for (uint32_t i = 0; i < b->n; i++) {
      (*l2_of)[hpa_global_of(h, b, b->node[i])] = b->first + i;
      (*l2_block)[b->first + i] = bi;
    }
  }
  return n;
}

void cairn__hpa_positions2(const cairn_hpa *h, double *xy) {
  const uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
  for (uint32_t bi = 0; bi < n_blocks; bi++) {
    const hpa_block *b = &h->blocks[bi];
    for (uint32_t i = 0; i < b->n; i++) {
      cairn_point p = hpa_point(h, hpa_node_cell(h, hpa_global_of(h, b, b->node[i])));
      xy[2 * (size_t)(b->first + i)] = p.x;
      xy[2 * (size_t)(b->first + i) + 1] = p.y;
    }
  }
}

void cairn__hpa_set_graph2(cairn_hpa *h, cairn_graph *g, uint32_t *l2_block, uint32_t *l2_of,
                           uint32_t n) {
  const cairn_allocator *a = &h->alloc;
  /* the old level-1 count sized the old table */
  cairn__free(a, h->l2_of, (size_t)h->l2_of_cap * sizeof *h->l2_of);
  cairn__free(a, h->l2_block, (size_t)h->n2 * sizeof *h->l2_block);
  cairn_graph_destroy(h->graph2);
  h->graph2 = g;
  h->l2_block = l2_block;
  h->l2_of = l2_of;
  h->l2_of_cap = h->n_nodes;
  h->n2 = n;
}

/* Numbers the level-2 nodes block by block, as cairn__hpa_assemble
 * numbers level 1's cluster by cluster, and builds the level-2 graph
 * straight from its rows (level2_edges). */
cairn_status cairn__hpa_assemble2(cairn_hpa *h) {
  const cairn_allocator *a = &h->alloc;
  uint32_t *l2_block, *l2_of;
  const uint32_t n = cairn__hpa_number2(h, &l2_block, &l2_of);
  if (!l2_block) return CAIRN_ERR_NOMEM;
  uint32_t *old_of = h->l2_of;
  h->l2_of = l2_of; /* level2_edges reads it */
  /* a level without nodes still gets a (one-node) graph, as level 1 */
  const uint32_t rows_n = n ? n : 1;
  cairn_graph *g = NULL;
  cairn_graph_rows rows;
  cairn_status st = cairn_graph_rows_begin(rows_n, level2_edges(h, NULL), n != 0, a, &g, &rows);
  if (st == CAIRN_OK) {
    if (n) cairn__hpa_positions2(h, rows.xy);
    rows.offset[0] = 0;
    level2_edges(h, &rows);
    rows.offset[rows_n] = (uint32_t)cairn_graph_edges(g);
    st = cairn_graph_rows_done(&g, n ? CAIRN_GH_OCTILE : CAIRN_GH_ZERO, 1.0);
  }
  h->l2_of = old_of;
  if (st != CAIRN_OK) {
    cairn__free(a, l2_block, (size_t)n * sizeof *l2_block);
    cairn__free(a, l2_of, (size_t)h->n_nodes * sizeof *l2_of);
    return st;
  }
  cairn__hpa_set_graph2(h, g, l2_block, l2_of, n);
  return CAIRN_OK;
}

/* ---- public to the module ------------------------------------------- */

static void scratch_free(const cairn_allocator *a, block_scratch *sc) {
  cairn_search_destroy(sc->search);
  cairn__free(a, sc->trace, sc->trace_cap * sizeof *sc->trace);
  cairn__free(a, sc->seq, sc->seq_cap * sizeof *sc->seq);
  cairn__free(a, sc->poff, sc->poff_cap * sizeof *sc->poff);
  cairn__free(a, sc->plen, sc->plen_cap * sizeof *sc->plen);
  memset(sc, 0, sizeof *sc);
}

/* A search sized for `nodes` level-1 nodes, goal records included, so that
 * the block's fills never call the allocator. Called with the lock held. */
static cairn_status scratch_init(const cairn_allocator *a, block_scratch *sc,
                                 uint32_t nodes) {
  memset(sc, 0, sizeof *sc);
  cairn_status st = cairn_search_create(a, &sc->search);
  if (st == CAIRN_OK) st = cairn_search_reserve(sc->search, nodes);
  if (st == CAIRN_OK) st = cairn_search_reserve_goals(sc->search);
  if (st != CAIRN_OK) scratch_free(a, sc);
  return st;
}

typedef struct block_pass {
  cairn_hpa *h;
  const uint32_t *list;
  uint32_t most; /* level-1 nodes of the largest listed block */
} block_pass;

static cairn_status block_init(void *ctx, void *sc) {
  block_pass *p = ctx;
  return scratch_init(&p->h->alloc, sc, p->most);
}

static cairn_status block_run(void *ctx, void *sc, size_t i) {
  block_pass *p = ctx;
  return block_build(p->h, p->list[i], sc);
}

static void block_fini(void *ctx, void *sc) {
  scratch_free(&((block_pass *)ctx)->h->alloc, sc);
}

/* Level-1 nodes of the largest listed block. */
static uint32_t most_nodes(const cairn_hpa *h, const uint32_t *list, size_t n) {
  uint32_t most = 1;
  for (size_t i = 0; i < n; i++) {
    const hpa_block *b = &h->blocks[list[i]];
    uint32_t m = 0;
    for (int32_t y = 0; y < b->ch; y++)
      for (int32_t x = 0; x < b->cw; x++)
        m += h->clusters[(uint32_t)(b->cy0 + y) * (uint32_t)h->cw + (uint32_t)(b->cx0 + x)].n;
    if (m > most) most = m;
  }
  return most;
}

/* One block per task; the status is the lowest over all blocks, whichever
 * worker built which. */
cairn_status cairn__hpa_build_blocks(cairn_hpa *h, const uint32_t *list,
                                     size_t n) {
  block_pass b = {h, list, most_nodes(h, list, n)};
  hpa_pass p = {&b, sizeof(block_scratch), 1, block_init, block_run, block_fini};
  cairn_status st = cairn__hpa_run_pass(h, &p, n);
  if (st == CAIRN_OK) st = cairn__hpa_assemble2(h);
  return st;
}

void cairn__hpa_free_blocks(cairn_hpa *h) {
  const cairn_allocator *a = &h->alloc;
  if (h->blocks) {
    uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
    for (uint32_t bi = 0; bi < n_blocks; bi++) block_free(a, &h->blocks[bi]);
    cairn__free(a, h->blocks, n_blocks * sizeof *h->blocks);
  }
  cairn__free(a, h->l2_block, (size_t)h->n2 * sizeof *h->l2_block);
  cairn__free(a, h->l2_of, (size_t)h->l2_of_cap * sizeof *h->l2_of);
  cairn_graph_destroy(h->graph2);
  h->blocks = NULL;
  h->l2_block = h->l2_of = NULL;
  h->graph2 = NULL;
}

size_t cairn__hpa_blocks_memory(const cairn_hpa *h) {
  if (!h->blocks) return 0;
  uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
  size_t mem = n_blocks * sizeof *h->blocks;
  for (uint32_t bi = 0; bi < n_blocks; bi++) {
    const hpa_block *b = &h->blocks[bi];
    size_t nn = (size_t)b->n * b->n;
    size_t e = cairn_graph_edges(b->fwd);
    mem += (size_t)b->cw * (size_t)b->ch * sizeof *b->base +
           b->m * sizeof *b->l1_cluster +
           2 * (((size_t)b->m + 1) * sizeof(uint32_t) +
                e * (sizeof(uint32_t) + sizeof(cairn_cost))) +
           b->n * sizeof *b->node + nn * sizeof *b->dist +
           (nn + 1) * sizeof *b->off + b->n_seq * sizeof *b->seq;
  }
  size_t m2 = cairn_graph_edges(h->graph2);
  mem += ((size_t)h->n2 + 1) * sizeof(uint32_t) +
         m2 * (sizeof(uint32_t) + sizeof(cairn_cost)) +
         2 * (size_t)h->n2 * sizeof(double) + (size_t)h->n2 * sizeof *h->l2_block +
         (size_t)h->l2_of_cap * sizeof *h->l2_of;
  return mem;
}
