/* Private to the hierarchy module (and its tests). */
#ifndef CAIRN_HPA_INTERNAL_H
#define CAIRN_HPA_INTERNAL_H

#include "cairn/hierarchy.h"
#include "cairn_private.h"
#include "search_internal.h" /* the core's sized moves and block costs */

#include <stdbool.h>

/* One cluster: its entrance cells (abstract nodes) and, for every ordered
 * pair of them, the cost and the grid path inside the cluster. Local node i
 * is global node first + i. */
typedef struct hpa_cluster {
  int32_t x0, y0, w, h;
  uint32_t n;        /* entrance cells */
  uint32_t first;    /* global id of local node 0 */
  uint32_t *cell;    /* n padded grid indices, ascending */
  cairn_cost *dist;  /* n * n: dist[i * n + j], CAIRN_COST_INF if none */
  uint32_t *off;     /* n * n + 1 offsets into steps */
  uint8_t *steps;    /* direction codes of each kept i -> j path (an edge
                        of the abstract graph), back to back */
  size_t n_steps;
  /* under a cost layer: dist is what the layer made of the cluster when it
   * was last built, and bdist (n * n) the terrain alone, for landmarks;
   * NULL when the layer was zero over the cluster (dist is both) */
  cairn_cost *bdist;
  uint64_t layer_seen; /* the layer's version when the cluster was built */
} hpa_cluster;

/* A cluster's tables share one allocation (steps have their own): dist,
 * then bdist when there is one, then off, then cell, the 8-byte costs
 * first so that every part is aligned. Its bytes for n entrances: */
static inline size_t hpa_tables_bytes(uint32_t n, bool bdist) {
  const size_t nn = (size_t)n * n;
  return nn * sizeof(cairn_cost) * (bdist ? 2u : 1u) + (nn + 1) * sizeof(uint32_t) +
         n * sizeof(uint32_t);
}
/* Points c's dist, bdist, off and cell into the block p of
 * hpa_tables_bytes(n, bdist) bytes. */
static inline void hpa_tables_place(hpa_cluster *c, void *p, uint32_t n, bool bdist) {
  const size_t nn = (size_t)n * n;
  c->dist = p;
  c->bdist = bdist ? c->dist + nn : NULL;
  c->off = (uint32_t *)(c->dist + nn * (bdist ? 2u : 1u));
  c->cell = c->off + nn + 1;
}

/* A cluster's data for units of sizes 2 .. max_size (hpa_sizes.c), kept
 * apart from hpa_cluster (h->csz, one per cluster, only when max_size is
 * above 1, so the default hierarchy carries none of it): one allocation
 * of sbytes holding the sized cost tables (n * n each; tab[k] says which
 * one size k reads: 0 for the cluster's dist itself, t for sd + (t - 1)
 * n n), then per pair the largest size its size-1 path serves at its
 * size-1 cost (pc), per pair a bit k - 1 for each size k whose graph
 * keeps the edge (ke), and per node the largest size that fits it, capped
 * at max_size (cap). All NULL for a cluster without entrances. */
typedef struct hpa_csize {
  cairn_cost *sd;
  uint8_t *pc, *ke, *cap;
  size_t sbytes;
  uint8_t ntab; /* sized tables in sd */
  uint8_t tab[CAIRN_GRID_MAX_CLEARANCE + 1];
  bool slayered; /* the layer touched the cells the sized tables read */
} hpa_csize;

/* A crossing between two clusters: cell a on one side, b on the other,
 * one straight or diagonal step apart. */
typedef struct hpa_transition {
  uint32_t a, b;   /* padded indices */
  uint32_t ka, kb; /* their clusters */
  bool diag;
} hpa_transition;

/* A level-2 cluster ("block"): bs x bs level-1 clusters. Its level-1
 * nodes get local ids (cluster by cluster, in node order); fwd and rev are
 * the level-1 graph restricted to them and its transpose. Level-2 nodes are
 * the level-1 nodes with an edge leaving the block; every ordered pair of
 * them has its cost and its level-1 path (local ids, first node left out). */
typedef struct hpa_block {
  int32_t cx0, cy0, cw, ch; /* the level-1 clusters it spans */
  uint32_t m;               /* level-1 nodes inside */
  uint32_t *base;           /* cw * ch: local id of each cluster's node 0 */
  uint32_t *l1_cluster;     /* m: level-1 cluster of each local id */
  cairn_graph *fwd, *rev;
  uint32_t n;               /* level-2 nodes */
  uint32_t *node;           /* n local ids */
  uint32_t first;           /* global level-2 id of node 0 */
  cairn_cost *dist;         /* n * n */
  uint32_t *off;            /* n * n + 1 offsets into seq */
  uint32_t *seq;
  size_t n_seq;
} hpa_block;

/* The level-1 graph's edge list as last assembled under a layer, cluster
 * by cluster, and the node positions, kept so that a refresh (whose
 * clusters keep their entrances) regenerates only the share of the
 * clusters it rebuilt (hpa_assemble.c, cairn__hpa_reassemble). */
typedef struct hpa_edges {
  cairn_graph_edge *e; /* m, in the order a full assembly lists them */
  size_t m;
  size_t *seg;         /* clusters + 1: cluster k's are e[seg[k], seg[k + 1]) */
  double *xy;          /* 2 * n */
  uint32_t n;          /* nodes */
} hpa_edges;

struct cairn_hpa {
  cairn_allocator alloc;
  /* what the parallel passes run through (opts.jobs, or a pool of its
   * own), and the lock every task holds while it is in the allocator */
  cairn__workers workers;
  cairn__mutex alloc_lock;
  const cairn_grid *grid;
  const uint8_t *cost; /* the grid's padded costs */
  const uint8_t *moves; /* and its move sets (cairn_grid_moves) */
  const uint8_t *clear; /* and its clearances (cairn_grid_clearances) */
  /* largest unit size answered (opts.max_size), and for each size k from
   * 2 to it the level-1 graph of that size (same nodes as graph) */
  int32_t max_size;
  cairn_graph *gsize[CAIRN_GRID_MAX_CLEARANCE + 1];
  hpa_csize *csz; /* per cluster when max_size > 1, else NULL */
  int32_t width, height, stride;
  int32_t cs;          /* cluster side */
  int32_t cw, ch;      /* clusters across and down */
  hpa_cluster *clusters;
  int32_t landmarks;   /* wanted (0: none) */
  /* the assembled abstract graph */
  cairn_graph *graph;
  uint32_t n_nodes;
  uint32_t *node_cluster; /* cluster of each node */
  /* level 2 (levels == 3): blocks of bs x bs clusters and their graph */
  int levels;
  int32_t bs, bw, bh;
  hpa_block *blocks;
  cairn_graph *graph2;
  uint32_t n2;
  uint32_t *l2_block; /* block of each level-2 node */
  uint32_t *l2_of;    /* level-2 id of each level-1 node, or UINT32_MAX */
  uint32_t l2_of_cap; /* entries in l2_of (n_nodes when it was built) */
  bool stale;
  /* bumped by every rebuild (and every failed edit): node ids and cluster
   * paths change, so a route planned before it cannot be refined */
  uint64_t version;
  /* the grid's version (cairn_grid_version) when the hierarchy last matched
   * it: at the build, and after each successful edit, update or full
   * rebuild. A grid edited behind the hierarchy's back moves past it, and
   * every read then answers CAIRN_ERR_STATE instead of a path through a
   * wall (hpa_unfit) */
  uint64_t grid_version;
  double build_ms, update_ms;
  uint32_t rebuilt;
  /* the cost layer (cairn_hpa_set_layer), its padded cells, and where the
   * next refresh resumes its round of the clusters */
  const cairn_penalty *layer;
  const uint32_t *pen;
  uint32_t refresh_at;
  /* under a layer, the level-1 landmarks' costs (on terrain alone, so they
   * stay lower bounds whatever the layer does), kept so that a refresh can
   * put them on the reassembled graph */
  uint32_t lm_nodes[CAIRN_GRAPH_MAX_LANDMARKS];
  uint32_t lm_n;
  cairn_cost *lm_costs;
  size_t lm_size; /* entries in lm_costs */
  hpa_edges kept; /* under a layer; all NULL otherwise */
  /* for each level, the landmark table an edit repairs from (lm_was) and
   * the rows it repairs into (lm_rows), kept from one edit to the next:
   * made and freed each time, their pages were faulted in again by every
   * edit (on brc202d seven times the page faults), and two threads then
   * took longer than one */
  cairn_cost *lm_was[2], *lm_rows[2];
  size_t lm_was_cap[2], lm_rows_cap[2]; /* entries */
};

/* A query's dead ends (hpa_dead_ends.c): the dead-end area of each
 * level-1 node (0 outside every dead end) of table `de`, listed for one
 * hierarchy version, and the areas of the query's start and goal: a node
 * in an area that holds neither is skipped. The sized graphs share the
 * level-1 ids; the third level does not skip. */
typedef struct hpa_skip {
  const cairn_hpa *h;
  const cairn_dead_ends *de;
  uint64_t h_version, de_version;
  uint32_t *area;
  size_t area_cap;
  uint32_t sa, ga;
  bool plain, on;
} hpa_skip;

/* Readies the skip for a query from start to goal (plain: no layer, size
 * 1, so areas behind doors are skipped too). With de NULL, skips nothing.
 * CAIRN_ERR_ARG for a table of another grid, CAIRN_ERR_STATE for one that
 * missed an edit, CAIRN_ERR_NOMEM. */
cairn_status hpa_skip_begin(hpa_skip *k, const cairn_allocator *a, const cairn_hpa *h,
                            const cairn_dead_ends *de, cairn_point start, cairn_point goal,
                            bool plain);
/* Whether the query in progress skips level-1 node u. */
bool hpa_skip_node(const hpa_skip *k, uint32_t u);
/* Makes graph search s (begun, not stepped) skip the same nodes. */
void hpa_skip_search(const hpa_skip *k, cairn_search *s);
/* Ends the query's skipping. */
void hpa_skip_end(hpa_skip *k);
void hpa_skip_free(hpa_skip *k, const cairn_allocator *a);
size_t hpa_skip_memory(const hpa_skip *k);

/* CAIRN_ERR_STATE when the hierarchy cannot answer: stale after a failed
 * rebuild, or its grid changed since it last matched it; else CAIRN_OK.
 * One call into the grid and a compare: every query entry point and each
 * refine step asks it. */
static inline cairn_status hpa_unfit(const cairn_hpa *h) {
  if (h->stale || cairn_grid_version(h->grid) != h->grid_version)
    return CAIRN_ERR_STATE;
  return CAIRN_OK;
}

static inline uint32_t hpa_index(const cairn_hpa *h, int32_t x, int32_t y) {
  return (uint32_t)(y + 1) * (uint32_t)h->stride + (uint32_t)(x + 1);
}
static inline cairn_point hpa_point(const cairn_hpa *h, uint32_t i) {
  cairn_point p = {(int32_t)(i % (uint32_t)h->stride) - 1,
                   (int32_t)(i / (uint32_t)h->stride) - 1};
  return p;
}
static inline uint32_t hpa_cluster_of(const cairn_hpa *h, cairn_point p) {
  return (uint32_t)(p.y / h->cs) * (uint32_t)h->cw + (uint32_t)(p.x / h->cs);
}

/* The cells a cluster's tables read: its own, and for units above size 1
 * the max_size - 1 columns and rows past its east and south sides that a
 * unit's block covers (within the map). */
static inline cairn_rect hpa_cluster_reach(const cairn_hpa *h, const hpa_cluster *c) {
  int32_t more = h->max_size - 1;
  int32_t w = c->w + more, hh = c->h + more;
  if (c->x0 + w > h->width) w = h->width - c->x0;
  if (c->y0 + hh > h->height) hh = h->height - c->y0;
  cairn_rect box = {c->x0, c->y0, w, hh};
  return box;
}

/* Whether every open cell of rect r (map coordinates) has the same
 * terrain cost: at once on a grid of one terrain. */
static inline bool hpa_one_terrain(const cairn_hpa *h, cairn_rect r) {
  if (cairn_grid_uniform(h->grid)) return true;
  uint8_t first = 0;
  for (int32_t y = r.y; y < r.y + r.h; y++) {
    const uint8_t *row = h->cost + hpa_index(h, r.x, y);
    for (int32_t x = 0; x < r.w; x++) {
      if (!row[x]) continue;
      if (!first) first = row[x];
      if (row[x] != first) return false;
    }
  }
  return true;
}

/* Whether the layer changed over the cluster since it was built. */
static inline bool hpa_layer_stale(const cairn_hpa *h, const hpa_cluster *c) {
  return h->layer && cairn_penalty_changed(h->layer, hpa_cluster_reach(h, c)) > c->layer_seen;
}

/* The largest unit size that fits at padded cell i, capped at max_size. */
static inline unsigned hpa_fit(const cairn_hpa *h, uint32_t i) {
  unsigned c = h->clear[i];
  return c < (unsigned)h->max_size ? c : (unsigned)h->max_size;
}

/* What a step costs when its cell is blocked by the layer: far above any
 * path's cost, and small enough that sums of such steps cannot wrap. */
#define HPA_BLOCKED_STEP ((cairn_cost)1 << 56)

/* Cost of entering padded cell i by a straight or diagonal step (the
 * core's rule: the step times the terrain of the cell entered, plus the
 * layer's penalty there). */
static inline cairn_cost hpa_enter_cost(const cairn_hpa *h, uint32_t i,
                                        bool diag) {
  cairn_cost c = (diag ? CAIRN_COST_DIAG : CAIRN_COST_ONE) * h->cost[i];
  if (h->pen) {
    if (h->pen[i] == CAIRN_PENALTY_BLOCK) return HPA_BLOCKED_STEP;
    c += h->pen[i];
  }
  return c;
}

/* The same for a unit of size k at position i (which it fits): the
 * dearest terrain and the highest penalty under its block. */
static inline cairn_cost hpa_sized_enter_cost(const cairn_hpa *h, uint32_t i,
                                              bool diag, unsigned k) {
  if (k <= 1) return hpa_enter_cost(h, i, diag);
  cairn_cost c = (diag ? CAIRN_COST_DIAG : CAIRN_COST_ONE) * cairn__block_cost(h->grid, i, k);
  if (h->pen) {
    uint32_t p = cairn__block_pen(h->grid, h->pen, i, k);
    if (p == CAIRN_PENALTY_BLOCK) return HPA_BLOCKED_STEP;
    c += p;
  }
  return c;
}

/* Cost of the step a -> b between neighbouring cells. */
static inline cairn_cost hpa_step_cost(const cairn_hpa *h, cairn_point a,
                                       cairn_point b) {
  return hpa_enter_cost(h, hpa_index(h, b.x, b.y), a.x != b.x && a.y != b.y);
}
/* The same without the layer: terrain alone. */
static inline cairn_cost hpa_base_step_cost(const cairn_hpa *h, cairn_point a,
                                            cairn_point b) {
  bool diag = a.x != b.x && a.y != b.y;
  return (diag ? CAIRN_COST_DIAG : CAIRN_COST_ONE) * h->cost[hpa_index(h, b.x, b.y)];
}

/* The step a -> b for a unit of size k, with the layer, and on terrain
 * alone. */
static inline cairn_cost hpa_sized_step_cost(const cairn_hpa *h, cairn_point a,
                                             cairn_point b, unsigned k) {
  return hpa_sized_enter_cost(h, hpa_index(h, b.x, b.y), a.x != b.x && a.y != b.y, k);
}
static inline cairn_cost hpa_sized_base_cost(const cairn_hpa *h, cairn_point a,
                                             cairn_point b, unsigned k) {
  if (k <= 1) return hpa_base_step_cost(h, a, b);
  bool diag = a.x != b.x && a.y != b.y;
  return (diag ? CAIRN_COST_DIAG : CAIRN_COST_ONE) *
         cairn__block_cost(h->grid, hpa_index(h, b.x, b.y), k);
}

/* Cost between local nodes i and j of cluster c (sized data z) for a
 * unit of size k (CAIRN_COST_INF where it does not fit either end, or
 * cannot go). */
static inline cairn_cost hpa_dist_k(const hpa_cluster *c, const hpa_csize *z, uint32_t i,
                                    uint32_t j, unsigned k) {
  const size_t nn = (size_t)c->n * c->n, pair = (size_t)i * c->n + j;
  if (k <= 1) return c->dist[pair];
  if (z->cap[i] < k || z->cap[j] < k) return CAIRN_COST_INF;
  return z->tab[k] ? z->sd[(size_t)(z->tab[k] - 1) * nn + pair] : c->dist[pair];
}
/* The sized data of cluster c (max_size > 1). */
static inline hpa_csize *hpa_sz(const cairn_hpa *h, const hpa_cluster *c) {
  return &h->csz[c - h->clusters];
}

/* Unit sizes (hpa_sizes.c). Builds the sized data of the listed clusters
 * (after their size-1 build) as a parallel pass; the lowest status. */
cairn_status cairn__hpa_build_sizes(cairn_hpa *h, const uint32_t *list, size_t n);
/* Frees sized data z (and zeroes it). */
void cairn__hpa_sizes_free(const cairn_allocator *a, hpa_csize *z);
/* Allocates the sized data z of cluster c for ntab tables (the caller
 * holds the allocator's lock where tasks run), tab all 0; false when out
 * of memory. */
bool cairn__hpa_sizes_alloc(const cairn_hpa *h, const hpa_cluster *c, hpa_csize *z,
                            unsigned ntab);
/* h->csz for max_size > 1 (all zero), or nothing; false when out of
 * memory. Freed with cairn__hpa_csz_free. */
bool cairn__hpa_csz_init(cairn_hpa *h);
void cairn__hpa_csz_free(cairn_hpa *h);
/* For a load, whose file gave each listed cluster's tables, tab and ke:
 * their node and pair annotations (cap, pc, slayered), derived from the
 * grid and the size-1 data as a build derives them; a parallel pass. */
cairn_status cairn__hpa_derive_sizes(cairn_hpa *h, const uint32_t *list, size_t n);
/* The sizes' section of a file (hpa_sizes_io.c): for each cluster with
 * entrances, its table count, which table each size reads, the tables and
 * the kept-edge bits; and the reader of it, which checks every value
 * (CAIRN_ERR_PARSE with "NAME: cluster K: ..." in err). */
void cairn__hpa_put_sizes(cairn__wbuf *w, const cairn_hpa *h, bool wide);
cairn_status cairn__hpa_read_sizes(cairn_hpa *h, cairn__rbuf *r, bool wide, const char *name,
                                   cairn_error *err);
/* The graphs of sizes 2 .. max_size (h->gsize) from the clusters, each
 * with the level-1 graph's landmark table (size-1 costs are lower bounds
 * of every size's). Call after the level-1 graph has its landmarks. */
cairn_status cairn__hpa_size_graphs(cairn_hpa *h);
/* Frees h->gsize. */
void cairn__hpa_size_graphs_free(cairn_hpa *h);
/* Bytes of the sized data and graphs. */
size_t cairn__hpa_sizes_memory(const cairn_hpa *h);
/* Whether the layer puts anything on the cells cluster c's sized tables
 * read (hpa_cluster_reach). */
bool cairn__hpa_sizes_layered(const cairn_hpa *h, const hpa_cluster *c);
/* Whether transition t fits a unit of size k (both cells, and for a
 * diagonal both cells beside it). */
bool cairn__hpa_transition_fits(const cairn_hpa *h, const hpa_transition *t, unsigned k);
/* Bytes a CSR graph of n nodes and m edges holds (what stats count). */
size_t cairn__hpa_graph_bytes(const cairn_graph *g);

/* Global id of the abstract node at padded cell index `cell`, or UINT32_MAX
 * if that cell is no entrance. */
uint32_t cairn__hpa_node_at(const cairn_hpa *h, uint32_t cell);
/* The same, when the cell's cluster k is known (no divisions). */
uint32_t cairn__hpa_node_in(const cairn_hpa *h, uint32_t k, uint32_t cell);
/* Cell of a global node. */
static inline uint32_t hpa_node_cell(const cairn_hpa *h, uint32_t node) {
  const hpa_cluster *c = &h->clusters[h->node_cluster[node]];
  return c->cell[node - c->first];
}

/* A task of a parallel pass calls the caller's allocator only between
 * hpa_lock and hpa_unlock. The lock is no part of the hierarchy's value,
 * so tasks that only read the hierarchy take it too. */
static inline void hpa_lock(const cairn_hpa *h) {
  cairn__mutex_lock((cairn__mutex *)&h->alloc_lock);
}
static inline void hpa_unlock(const cairn_hpa *h) {
  cairn__mutex_unlock((cairn__mutex *)&h->alloc_lock);
}

/* Landmarks of the level-1 (level = 1) or level-2 graph (hpa_landmarks.c):
 * h->landmarks of them, the nodes nearest points around the map's edge,
 * one fill per landmark, each a task of a parallel pass. */
cairn_status cairn__hpa_landmarks(cairn_hpa *h, int level);
/* The h->landmarks nodes a build picks on the level's graph, into nodes
 * (*k of them, 0 when it has none). */
cairn_status cairn__hpa_landmark_pick(const cairn_hpa *h, int level, uint32_t *nodes,
                                      uint32_t *k);
/* A level's landmark table before an edit rebuilds clusters and blocks
 * (hpa_landmark_repair.c): its rows, and where each unit's nodes began
 * (the clusters' on level 1, the blocks' on level 2). k 0: none kept (no
 * landmarks, a layer: the edit fills them whole). */
typedef struct hpa_lm_before {
  int level;
  uint32_t k;
  uint32_t node[CAIRN_GRAPH_MAX_LANDMARKS]; /* the landmarks' old ids */
  size_t n;                                 /* old nodes */
  cairn_cost *cost;                         /* k rows of n (h->lm_was) */
  uint32_t units;
  uint32_t *first; /* each unit's old first id */
} hpa_lm_before;
/* Takes the level's table (none under a layer); CAIRN_ERR_NOMEM leaves b
 * empty. */
cairn_status cairn__hpa_lm_before(cairn_hpa *h, int level, hpa_lm_before *b);
void cairn__hpa_lm_before_free(const cairn_hpa *h, hpa_lm_before *b);
/* The level's landmarks on the reassembled graph after the units marked in
 * `rebuilt` were rebuilt, from the table b took before: the table
 * cairn__hpa_landmarks(h, level) gives, repaired around the rebuilt units
 * where it can be (a whole fill for a landmark that moved, and for all of
 * them when b is empty or rebuilt NULL). */
cairn_status cairn__hpa_landmarks_repair(cairn_hpa *h, int level, const hpa_lm_before *b,
                                         const uint8_t *rebuilt);
/* Puts the kept level-1 landmark table (under a layer) on h->graph. */
cairn_status cairn__hpa_put_landmarks(cairn_hpa *h);
/* The level-1 graph on terrain costs alone (under a layer), for landmarks. */
cairn_status cairn__hpa_base_graph(const cairn_hpa *h, cairn_graph **out);

/* The shapes of a straight-as-possible 8-way run between two cells, each
 * with max(|dx|, |dy|) steps of which min(|dx|, |dy|) are diagonal (so each
 * costs the octile distance on uniform terrain): all diagonals first, all
 * straight steps first, or the diagonals spread evenly (the 8-way line
 * closest to the segment, which slips between scattered walls where the
 * other two hit them). Cluster paths and the smoother both use them. */
enum { HPA_RUN_DIAG_FIRST, HPA_RUN_STRAIGHT_FIRST, HPA_RUN_LINE, HPA_RUN_SHAPES };

/* Whether step k of such a run of n steps, nd of them diagonal, is a
 * diagonal; *acc is the line's error term, n / 2 before the first step. */
static inline bool hpa_run_diag(int shape, int32_t k, int32_t n, int32_t nd,
                                int32_t *acc) {
  if (shape == HPA_RUN_DIAG_FIRST) return k < nd;
  if (shape == HPA_RUN_STRAIGHT_FIRST) return k >= n - nd;
  *acc += nd;
  if (*acc < n) return false;
  *acc -= n;
  return true;
}

/* A run of the given shape (HPA_RUN_*) from a to b on a cluster's local
 * grid (hpa_cluster.c), as direction codes into buf (max(|dx|, |dy|) of
 * them, *len); false if it meets a wall or cuts a corner. */
bool cairn__hpa_clear_run(const cairn_grid *local, cairn_point a, cairn_point b,
                          int shape, uint8_t *buf, size_t *len);

/* The search inside a cluster of one terrain (hpa_sizes_search.c), the
 * sized pass's and the size-1 build's:
 * a worker's copy of one cluster's clearances (fit), and a Dijkstra over
 * the positions of a size k, those whose clearance is at least k. Points
 * are cluster-local; values are in steps' costs (CAIRN_COST_ONE and
 * CAIRN_COST_DIAG), before the terrain multiplies them. */
typedef struct hpa_fit_entry {
  uint32_t cell, key;
} hpa_fit_entry;
typedef struct hpa_fit_search {
  int32_t cs;         /* 0 when nothing is allocated */
  uint8_t *fit;       /* (cs + 2)^2 clearances, 0 off the cluster */
  uint8_t *goal;      /* (cs + 2)^2, 0 between fills */
  uint32_t *dist;     /* (cs + 2)^2 */
  uint8_t *next;      /* (cs + 2)^2: the moves a reached cell may go on with */
  uint8_t *from;      /* (cs + 2)^2: the move that first reached it at its value */
  hpa_fit_entry *qs, *qd; /* the straight and the diagonal queue */
} hpa_fit_search;
bool cairn__hpa_fit_search_init(const cairn_allocator *a, hpa_fit_search *fs, int32_t cs);
void cairn__hpa_fit_search_free(const cairn_allocator *a, hpa_fit_search *fs);
/* Copies cluster c's clearances into fs. */
void cairn__hpa_fit_load(const cairn_hpa *h, const hpa_cluster *c, hpa_fit_search *fs);
/* Whether the run of the given shape (HPA_RUN_*) from a to b is legal for
 * size k: every position it enters fits, and so do the two beside each
 * diagonal. a must fit. When codes is not NULL, the run's direction codes
 * go there (as many as its longer side). */
bool cairn__hpa_fit_run(const hpa_fit_search *fs, unsigned k, cairn_point a, cairn_point b,
                        int shape, uint8_t *codes);
/* The least cost from src (which fits k) to each of the nt targets for
 * size k, into out (UINT32_MAX where none); stops once all are settled. */
void cairn__hpa_fit_fill(hpa_fit_search *fs, unsigned k, cairn_point src,
                         const cairn_point *targets, size_t nt, uint32_t *out);
/* After cairn__hpa_fit_fill, a cheapest path between its source and the
 * settled target `to` (a cluster-local point), through the moves that
 * first reached each cell at its value: the direction codes of the path
 * from `to` back to the source into codes (room for cs * cs); returns
 * their number. */
size_t cairn__hpa_fit_trace(const hpa_fit_search *fs, cairn_point to, uint8_t *codes);

/* Path smoothing (hpa_smooth.c): rewrites in[0..n) into out, never raising
 * the cost; returns the new length (at most n). prefix and turns are
 * scratch of n each. */
size_t cairn__hpa_smooth(const cairn_hpa *h, const cairn_point *in, size_t n,
                         cairn_point *out, cairn_cost *prefix,
                         uint32_t *turns, unsigned size);

/* Whether the edge i -> j of an n x n cost table is implied by two others
 * through a third node at the same cost (hpa_cluster.c). Such edges are left
 * out of the abstract graphs, and their paths are not stored: a pair's path
 * is kept exactly when its offsets differ. */
bool cairn__hpa_redundant(const cairn_cost *dist, uint32_t n, uint32_t i,
                          uint32_t j);

/* Zeroes plen[pair] of every pair of an n x n cost table that the abstract
 * graph leaves out (the diagonal, unreachable pairs, redundant edges) and
 * returns the sum of what is left: the length of the kept paths. */
size_t cairn__hpa_keep_pairs(const cairn_cost *dist, uint32_t n,
                             uint32_t *plen);
/* Lays the kept paths out in pair order: pair p's plen[p] entries of
 * `elem` bytes, found at entry poff[p] of `from`, go to entry off[p] of
 * `to`, and off[nn] is the total (both levels store their paths so). */
void cairn__hpa_pack_paths(void *to, const void *from, size_t elem,
                           const uint32_t *poff, const uint32_t *plen,
                           size_t nn, uint32_t *off);
/* An abstract graph of n nodes at positions xy (octile heuristic); a level
 * without nodes gets a graph of one node, so queries still run. */
cairn_status cairn__hpa_graph(const cairn_allocator *a, uint32_t n,
                              const double *xy, const cairn_graph_edge *edges,
                              size_t m, cairn_graph **out);

/* Entrances (hpa_entrances.c). Room for the transitions touching one
 * cluster of side cs: four borders of at most cs + 2 each, four corners. */
static inline size_t hpa_transitions_cap(int32_t cs) {
  return 4 * ((size_t)cs + 2) + 8;
}
/* The entrance cells of the cluster at (cx, cy) into cells (room for
 * 2 x hpa_transitions_cap), sorted, without repeats; returns how many.
 * trans is scratch of hpa_transitions_cap. */
uint32_t cairn__hpa_cluster_nodes(const cairn_hpa *h, int32_t cx, int32_t cy,
                                  hpa_transition *trans, uint32_t *cells);
/* The transitions cluster (cx, cy) owns (east and south borders, south-east
 * corner: each crossing has one owner) into out; returns how many. */
size_t cairn__hpa_owned_transitions(const cairn_hpa *h, int32_t cx, int32_t cy,
                                    hpa_transition *out);

/* Clusters (hpa_cluster.c). Rebuilds the listed clusters from the grid
 * through the hierarchy's jobs and bumps h->version; the lowest status of
 * them all, a cluster that failed left empty. */
/* A parallel pass over items 0 .. n-1 through the hierarchy's jobs
 * (hpa_pass.c), per_task items a task. A worker's scratch (scratch_size
 * bytes, zeroed) is set up by init, under the allocator's lock, before the
 * first item it runs (again after a failed init), and freed by fini once
 * the pass is over; run does one item with it. Returns the lowest status
 * over all items, whichever worker ran which. */
typedef struct hpa_pass {
  void *ctx;
  size_t scratch_size;
  uint32_t per_task;
  cairn_status (*init)(void *ctx, void *scratch);
  cairn_status (*run)(void *ctx, void *scratch, size_t item);
  void (*fini)(void *ctx, void *scratch);
} hpa_pass;
cairn_status cairn__hpa_run_pass(const cairn_hpa *h, const hpa_pass *p, size_t n);

cairn_status cairn__hpa_build_clusters(cairn_hpa *h, const uint32_t *list,
                                       size_t n);
/* Frees what cluster c holds and leaves it empty (its geometry stays). */
void cairn__hpa_cluster_free(const cairn_allocator *a, hpa_cluster *c);
/* Whether the layer (h->pen) puts anything on the cluster's cells. */
bool cairn__hpa_cluster_layered(const cairn_hpa *h, const hpa_cluster *c);

/* The abstract graph (hpa_assemble.c). Numbers the clusters' nodes and
 * builds h->graph and h->node_cluster (under a layer keeping the edge list
 * in h->kept); on failure the old graph stays and h->kept is empty. */
cairn_status cairn__hpa_assemble(cairn_hpa *h);
/* The pieces of an assembly a load shares. Numbers the nodes cluster by
 * cluster (each cluster's first), their count to *n_nodes, and returns
 * each node's cluster (allocated; NULL when out of memory). */
uint32_t *cairn__hpa_number(cairn_hpa *h, uint32_t *n_nodes);
/* Each numbered node's cell as a position: 2 n_nodes doubles. */
void cairn__hpa_positions(const cairn_hpa *h, double *xy);
/* Puts g and node_cluster (n nodes) in place of the old graph, which is
 * freed. */
void cairn__hpa_set_graph(cairn_hpa *h, cairn_graph *g, uint32_t *node_cluster, uint32_t n);
/* h->graph again after a refresh rebuilt the listed clusters with the
 * entrances they had, from h->kept with only the shares they change. */
cairn_status cairn__hpa_reassemble(cairn_hpa *h, const uint32_t *ids,
                                   size_t n);
/* Frees a kept edge list and zeroes it. */
void cairn__hpa_edges_free(const cairn_hpa *h, hpa_edges *k);

/* One zeroed byte per cluster (hpa_build.c), or NULL when out of memory;
 * freed with cairn__free(&h->alloc, mark, h->cw * h->ch). */
uint8_t *cairn__hpa_new_marks(cairn_hpa *h);

/* A hierarchy over grid with clusters of side cs and nothing built yet
 * (hpa_build.c): the allocator, the lock and the jobs of o (checked with
 * cairn__hpa_jobs_ok), the clusters' geometry. Destroyed with
 * cairn_hpa_destroy. What cairn_hpa_create builds on, and cairn_hpa_load
 * fills. */
cairn_status cairn__hpa_new(const cairn_grid *grid, const cairn_hpa_opts *o,
                            int32_t cs, const cairn_allocator *alloc,
                            cairn_hpa **out);
/* Whether o's jobs and threads are ones cairn_hpa_create accepts. */
bool cairn__hpa_jobs_ok(const cairn_hpa_opts *o);
/* The blocks' geometry (h->bs, bw, bh, blocks), when the third level is
 * on; their contents empty. */
cairn_status cairn__hpa_blocks_init(cairn_hpa *h, int32_t bs);

/* Level 2 (hpa_level2.c). Builds the listed blocks (after the level-1
 * graph is assembled), then reassembles the level-2 graph. */
cairn_status cairn__hpa_build_blocks(cairn_hpa *h, const uint32_t *list,
                                     size_t n);
/* Block b's local ids (base, l1_cluster, m) and its two graphs (fwd, rev)
 * from the level-1 graph, in two steps, so that a load can allocate on
 * one thread and fill on many. _begin allocates, taking the allocator's
 * lock around each allocation: the local ids, and the graphs begun (their
 * rows to rows[0] and rows[1]; none without level-1 nodes). _fill
 * allocates nothing: the forward graph's rows and their transpose. On
 * failure b keeps what it has for block_free. */
cairn_status cairn__hpa_block_graphs_begin(cairn_hpa *h, hpa_block *b,
                                           cairn_graph_rows rows[2]);
cairn_status cairn__hpa_block_graphs_fill(const cairn_hpa *h, hpa_block *b,
                                          const cairn_graph_rows rows[2]);
/* Numbers the level-2 nodes of the built blocks and makes the level-2
 * graph (h->graph2, l2_block, l2_of, n2); on failure the old one stays. */
cairn_status cairn__hpa_assemble2(cairn_hpa *h);
/* The pieces of it a load shares. Numbers the level-2 nodes block by
 * block (each block's first) and returns their count, with *l2_block (a
 * block per node) and *l2_of (a level-2 id per level-1 node, UINT32_MAX
 * for none) allocated, or both NULL when out of memory. */
uint32_t cairn__hpa_number2(cairn_hpa *h, uint32_t **l2_block, uint32_t **l2_of);
/* Each numbered level-2 node's cell as a position: 2 n2 doubles. */
void cairn__hpa_positions2(const cairn_hpa *h, double *xy);
/* Puts g, l2_block and l2_of (n level-2 nodes) in place of the old level
 * 2, which is freed. */
void cairn__hpa_set_graph2(cairn_hpa *h, cairn_graph *g, uint32_t *l2_block, uint32_t *l2_of,
                           uint32_t n);
void cairn__hpa_free_blocks(cairn_hpa *h);
size_t cairn__hpa_blocks_memory(const cairn_hpa *h);
static inline uint32_t hpa_block_of_cluster(const cairn_hpa *h, uint32_t k) {
  int32_t cx = (int32_t)(k % (uint32_t)h->cw), cy = (int32_t)(k / (uint32_t)h->cw);
  return (uint32_t)(cy / h->bs) * (uint32_t)h->bw + (uint32_t)(cx / h->bs);
}
/* Local id in block b of level-1 node v (which must lie in b). */
static inline uint32_t hpa_local_of(const cairn_hpa *h, const hpa_block *b,
                                    uint32_t v) {
  uint32_t k = h->node_cluster[v];
  int32_t cx = (int32_t)(k % (uint32_t)h->cw) - b->cx0;
  int32_t cy = (int32_t)(k / (uint32_t)h->cw) - b->cy0;
  return b->base[cy * b->cw + cx] + (v - h->clusters[k].first);
}
/* Global level-1 id of local id u of block b. */
static inline uint32_t hpa_global_of(const cairn_hpa *h, const hpa_block *b,
                                     uint32_t u) {
  uint32_t k = b->l1_cluster[u];
  int32_t cx = (int32_t)(k % (uint32_t)h->cw) - b->cx0;
  int32_t cy = (int32_t)(k / (uint32_t)h->cw) - b->cy0;
  return h->clusters[k].first + (u - b->base[cy * b->cw + cx]);
}


/* A cluster pass's private search: a context, a grid of one cluster's
 * side and, under a layer, its penalty layer, every reserve taken at once
 * (under the allocator's lock, which it takes). Made on the first cluster
 * that needs it (terrain or a layer; *search is then set, and later calls
 * return at once): on a map of one terrain no cluster does. On failure all
 * three are left NULL. local_free destroys them (NULLs are ignored). */
cairn_status cairn__hpa_local_ready(const cairn_hpa *h, cairn_search **search,
                                    cairn_grid **local, cairn_penalty **lpen);
void cairn__hpa_local_free(cairn_search *search, cairn_grid *local, cairn_penalty *lpen);

/* A worker's room for one cluster's crossings (hpa_transitions_cap), as
 * the passes that list them take it; called with the allocator's lock
 * held. */
cairn_status cairn__hpa_transitions_alloc(const cairn_hpa *h, hpa_transition **t);
void cairn__hpa_transitions_free(const cairn_hpa *h, hpa_transition *t);

#endif
