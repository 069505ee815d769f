/* Graphs in compressed sparse rows and hex maps: building them, and the
 * queries on their edges. The searches over them are graph_search.c. */
#include "graph_internal.h"

#include <math.h>
#include <string.h>

#define GRAPH_EDGE_MAX_COST 1e9

uint64_t cairn__graph_version(const cairn_graph *g) { return g->version; }

/* ---- storage -------------------------------------------------------- */

/* Arrays of zero edges still get one slot, so pointers into them are valid
 * and every block is freed with the size it was taken with. */
static size_t edge_slots(size_t m) { return m ? m : 1; }

void cairn_graph_destroy(cairn_graph *g) {
  if (!g) return;
  cairn_allocator a = g->alloc;
  size_t slots = edge_slots(g->m);
  cairn__free(&a, g->offset, ((size_t)g->n + 1) * sizeof *g->offset);
  cairn__free(&a, g->target, slots * sizeof *g->target);
  cairn__free(&a, g->cost, slots * sizeof *g->cost);
  cairn__free(&a, g->xy, 2 * (size_t)g->n * sizeof *g->xy);
  cairn__free(&a, g->lm, g->lm ? (size_t)g->n * g->n_lm * sizeof *g->lm : 0);
  cairn__free(&a, g->lm32, g->lm32 ? (size_t)g->n * g->n_lm * sizeof *g->lm32 : 0);
  cairn__free(&a, g, sizeof *g);
}

/* Allocates a graph of n nodes and m edges (positions only if with_xy);
 * the arrays are left for the caller to fill. Sizes are already checked,
 * so the products below cannot overflow. */
static cairn_status graph_alloc(const cairn_allocator *alloc, uint32_t n,
                                size_t m, bool with_xy, cairn_graph **out) {
  cairn_allocator a = cairn__allocator(alloc);
  cairn_graph *g = cairn__alloc_zero(&a, sizeof *g);
  *out = NULL;
  if (!g) return CAIRN_ERR_NOMEM;
  g->alloc = a;
  g->n = n;
  g->m = m;
  g->offset = cairn__alloc(&a, ((size_t)n + 1) * sizeof *g->offset);
  g->target = cairn__alloc(&a, edge_slots(m) * sizeof *g->target);
  g->cost = cairn__alloc(&a, edge_slots(m) * sizeof *g->cost);
  if (with_xy) g->xy = cairn__alloc(&a, 2 * (size_t)n * sizeof *g->xy);
  if (!g->offset || !g->target || !g->cost || (with_xy && !g->xy)) {
    cairn_graph_destroy(g);
    return CAIRN_ERR_NOMEM;
  }
  *out = g;
  return CAIRN_OK;
}

/* ---- cairn_graph_create ---------------------------------------------- */

/* Rounds half away from zero, as llround does, without the library call
 * (graphs of many edges are built often: a hierarchy rebuilds its graph on
 * every edit). Exact for 0 < x < 2^53, which valid costs (<= 1e9 x 65536)
 * are: the truncation and the difference are exact. */
static cairn_cost edge_fixed(double cost) {
  double x = cost * (double)CAIRN_COST_ONE;
  if (!(x >= 1.0)) return 1; /* also NaN, which validation refuses first */
  cairn_cost t = (cairn_cost)x;
  return x - (double)t >= 0.5 ? t + 1 : t;
}

static bool edge_valid(const cairn_graph_edge *e, uint32_t n) {
  return e->from < n && e->to < n && e->cost > 0.0 &&
         e->cost <= GRAPH_EDGE_MAX_COST; /* also false for NaN */
}

/* A simple path has at most n - 1 edges and uses each edge at most once, so
 * its cost is below both (n - 1) x the dearest edge and the sum of all. */
static bool path_costs_fit(uint32_t n, cairn_cost dearest, cairn_cost sum,
                           bool sum_overflowed) {
  if (!sum_overflowed && sum <= GRAPH_COST_MAX) return true;
  return n < 2 || dearest <= GRAPH_COST_MAX / (n - 1);
}

static cairn_status check_edges(const cairn_graph_desc *d) {
  if (d->n_edges && !d->edges) return CAIRN_ERR_ARG;
  cairn_cost dearest = 0, sum = 0;
  bool overflow = false;
  for (size_t i = 0; i < d->n_edges; i++) {
    if (!edge_valid(&d->edges[i], d->n_nodes)) return CAIRN_ERR_ARG;
    cairn_cost c = edge_fixed(d->edges[i].cost);
    if (c > dearest) dearest = c;
    if (!overflow) { /* sum <= 2^62 and c < 2^46: the addition cannot wrap */
      sum += c;
      overflow = sum > GRAPH_COST_MAX;
    }
  }
  if (!path_costs_fit(d->n_nodes, dearest, sum, overflow))
    return CAIRN_ERR_TOO_LARGE;
  return CAIRN_OK;
}

/* A zero scale is the zero heuristic (and keeps inf x 0 out of h). */
static bool uses_positions(const cairn_graph_desc *d) {
  return d->heuristic != CAIRN_GH_ZERO && d->h_scale != 0.0;
}

static cairn_status check_heuristic(const cairn_graph_desc *d) {
  if ((unsigned)d->heuristic > CAIRN_GH_OCTILE) return CAIRN_ERR_ARG;
  if (d->heuristic == CAIRN_GH_ZERO) return CAIRN_OK;
  if (!d->xy || !cairn__finite(d->h_scale) || d->h_scale < 0.0)
    return CAIRN_ERR_ARG;
  for (size_t i = 0; i < 2 * (size_t)d->n_nodes; i++)
    if (!cairn__finite(d->xy[i])) return CAIRN_ERR_ARG;
  return CAIRN_OK;
}

static cairn_status check_desc(const cairn_graph_desc *d) {
  if (d->n_nodes < 1) return CAIRN_ERR_ARG;
  if (d->n_nodes > CAIRN_GRAPH_MAX_NODES) return CAIRN_ERR_TOO_LARGE;
  size_t limit = CAIRN_GRAPH_MAX_EDGES;
  if (d->undirected) limit /= 2; /* every edge is stored twice */
  if (d->n_edges > limit) return CAIRN_ERR_TOO_LARGE;
  cairn_status st = check_heuristic(d);
  return st == CAIRN_OK ? check_edges(d) : st;
}

static void put_edge(cairn_graph *g, uint32_t from, uint32_t to,
                     cairn_cost c) {
  uint32_t k = g->offset[from]++;
  g->target[k] = to;
  g->cost[k] = c;
}

/* Counting sort on the source node. Edges are placed in input order (each
 * reverse edge right after its forward one), so a node's out-edges keep the
 * order they were given in and searches are deterministic. */
static void build_csr(cairn_graph *g, const cairn_graph_desc *d) {
  uint32_t *off = g->offset;
  memset(off, 0, ((size_t)g->n + 1) * sizeof *off);
  for (size_t i = 0; i < d->n_edges; i++) {
    off[d->edges[i].from + 1]++;
    if (d->undirected) off[d->edges[i].to + 1]++;
  }
  for (uint32_t v = 0; v < g->n; v++) off[v + 1] += off[v];
  /* put_edge advances off[v] to the start of v + 1; shift back after */
  for (size_t i = 0; i < d->n_edges; i++) {
    const cairn_graph_edge *e = &d->edges[i];
    cairn_cost c = edge_fixed(e->cost);
    put_edge(g, e->from, e->to, c);
    if (d->undirected) put_edge(g, e->to, e->from, c);
  }
  for (uint32_t v = g->n; v > 0; v--) off[v] = off[v - 1];
  off[0] = 0;
}

cairn_status cairn_graph_create(const cairn_graph_desc *d,
                                const cairn_allocator *alloc,
                                cairn_graph **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!d) return CAIRN_ERR_ARG;
  cairn_status st = check_desc(d);
  if (st != CAIRN_OK) return st;
  bool with_xy = uses_positions(d);
  size_t m = d->undirected ? 2 * d->n_edges : d->n_edges;
  cairn_graph *g;
  st = graph_alloc(alloc, d->n_nodes, m, with_xy, &g);
  if (st != CAIRN_OK) return st;
  build_csr(g, d);
  g->heuristic = with_xy ? d->heuristic : CAIRN_GH_ZERO;
  g->h_factor = with_xy ? d->h_scale * (double)CAIRN_COST_ONE : 0.0;
  if (with_xy) memcpy(g->xy, d->xy, 2 * (size_t)g->n * sizeof *g->xy);
  *out = g;
  return CAIRN_OK;
}

/* ---- straight from rows ---------------------------------------------- */

cairn_status cairn_graph_rows_begin(uint32_t n, size_t m, int with_xy,
                                    const cairn_allocator *alloc, cairn_graph **out,
                                    cairn_graph_rows *rows) {
  if (!out || !rows) return CAIRN_ERR_ARG;
  *out = NULL;
  memset(rows, 0, sizeof *rows);
  if (n < 1) return CAIRN_ERR_ARG;
  if (n > CAIRN_GRAPH_MAX_NODES || m > CAIRN_GRAPH_MAX_EDGES) return CAIRN_ERR_TOO_LARGE;
  cairn_status st = graph_alloc(alloc, n, m, with_xy != 0, out);
  if (st != CAIRN_OK) return st;
  rows->offset = (*out)->offset;
  rows->target = (*out)->target;
  rows->cost = (*out)->cost;
  rows->xy = (*out)->xy;
  return CAIRN_OK;
}

/* Whether the rows hold what create would: see cairn_graph_rows_done.
 * One pass without branches over the edges (targets, cost limits, the
 * dearest); the sum of all costs, the second bound on simple paths, is
 * taken only when the first, (n - 1) x the dearest, fails. */
static cairn_status csr_check(const cairn_graph *g) {
  const cairn_cost most = (cairn_cost)GRAPH_EDGE_MAX_COST * CAIRN_COST_ONE;
  if (g->offset[0] != 0 || g->offset[g->n] != g->m) return CAIRN_ERR_ARG;
  uint32_t bad = 0;
  for (uint32_t v = 0; v < g->n; v++) bad |= g->offset[v + 1] < g->offset[v];
  cairn_cost dearest = 0;
  for (size_t k = 0; k < g->m; k++) {
    const cairn_cost c = g->cost[k];
    bad |= (uint32_t)(g->target[k] >= g->n) | (uint32_t)(c - 1 >= most);
    dearest = c > dearest ? c : dearest;
  }
  for (size_t i = 0; g->xy && i < 2 * (size_t)g->n; i++) bad |= !cairn__finite(g->xy[i]);
  if (bad) return CAIRN_ERR_ARG;
  if (path_costs_fit(g->n, dearest, GRAPH_COST_MAX + 1, true)) return CAIRN_OK;
  cairn_cost sum = 0;
  for (size_t k = 0; k < g->m && sum <= GRAPH_COST_MAX; k++) sum += g->cost[k];
  return path_costs_fit(g->n, dearest, sum, sum > GRAPH_COST_MAX) ? CAIRN_OK
                                                                   : CAIRN_ERR_TOO_LARGE;
}

cairn_status cairn_graph_rows_done(cairn_graph **g, cairn_graph_heuristic heuristic,
                                   double h_scale) {
  if (!g || !*g) return CAIRN_ERR_ARG;
  cairn_graph *gr = *g;
  bool with_xy = gr->xy && heuristic != CAIRN_GH_ZERO && h_scale != 0.0;
  cairn_status st = csr_check(gr);
  if (st == CAIRN_OK && with_xy &&
      ((unsigned)heuristic > CAIRN_GH_OCTILE || !cairn__finite(h_scale) || h_scale < 0.0))
    st = CAIRN_ERR_ARG;
  if (st != CAIRN_OK) {
    cairn_graph_destroy(gr);
    *g = NULL;
    return st;
  }
  gr->heuristic = with_xy ? heuristic : CAIRN_GH_ZERO;
  gr->h_factor = with_xy ? h_scale * (double)CAIRN_COST_ONE : 0.0;
  return CAIRN_OK;
}

/* ---- queries on the graph ------------------------------------------- */

uint32_t cairn_graph_nodes(const cairn_graph *g) { return g ? g->n : 0; }
size_t cairn_graph_edges(const cairn_graph *g) { return g ? g->m : 0; }

uint32_t cairn_graph_neighbours(const cairn_graph *g, uint32_t node,
                                const uint32_t **targets,
                                const cairn_cost **costs) {
  bool ok = g && node < g->n;
  uint32_t first = ok ? g->offset[node] : 0;
  if (targets) *targets = ok ? g->target + first : NULL;
  if (costs) *costs = ok ? g->cost + first : NULL;
  return ok ? g->offset[node + 1] - first : 0;
}

/* ---- hex maps ------------------------------------------------------- */

/* Odd-r offset neighbours: [row & 1][k] = (dcol, drow). */
static const int8_t hex_dcol[2][6] = {{1, -1, 0, -1, 0, -1},
                                      {1, -1, 1, 0, 1, 0}};
static const int8_t hex_drow[6] = {0, 0, -1, -1, 1, 1};

/* Node id of neighbour k of (col, row), or -1 if it is off the map or
 * blocked (or the cell itself is blocked). */
static int64_t hex_neighbour(int32_t w, int32_t h, const uint8_t *cost,
                             int32_t col, int32_t row, int k) {
  int32_t c = col + hex_dcol[row & 1][k], r = row + hex_drow[k];
  if (c < 0 || r < 0 || c >= w || r >= h) return -1;
  int64_t id = (int64_t)r * w + c;
  if (!cost[(int64_t)row * w + col] || !cost[id]) return -1;
  return id;
}

static size_t hex_count_edges(int32_t w, int32_t h, const uint8_t *cost) {
  size_t m = 0;
  for (int32_t row = 0; row < h; row++)
    for (int32_t col = 0; col < w; col++)
      for (int k = 0; k < 6; k++)
        m += hex_neighbour(w, h, cost, col, row, k) >= 0;
  return m;
}

/* Cells are visited in id order, so the CSR is filled directly. */
static void hex_fill(cairn_graph *g, int32_t w, int32_t h,
                     const uint8_t *cost) {
  uint32_t k = 0, v = 0;
  for (int32_t row = 0; row < h; row++)
    for (int32_t col = 0; col < w; col++, v++) {
      g->offset[v] = k;
      for (int d = 0; d < 6; d++) {
        int64_t nb = hex_neighbour(w, h, cost, col, row, d);
        if (nb < 0) continue;
        g->target[k] = (uint32_t)nb;
        g->cost[k++] = cost[nb] * CAIRN_COST_ONE;
      }
      g->xy[2 * (size_t)v] = col - (row - (row & 1)) / 2; /* axial q */
      g->xy[2 * (size_t)v + 1] = row;                     /* axial r */
    }
  g->offset[v] = k;
}

cairn_status cairn_hex_graph_create(int32_t w, int32_t h,
                                    const uint8_t *cost,
                                    const cairn_allocator *alloc,
                                    cairn_graph **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (w < 1 || h < 1 || !cost) return CAIRN_ERR_ARG;
  if (w > CAIRN_GRID_MAX_SIDE || h > CAIRN_GRID_MAX_SIDE)
    return CAIRN_ERR_TOO_LARGE;
  /* 16384^2 cells is exactly the node limit, but six edges a cell is not */
  size_t m = hex_count_edges(w, h, cost);
  if (m > CAIRN_GRAPH_MAX_EDGES) return CAIRN_ERR_TOO_LARGE;
  cairn_graph *g;
  cairn_status st = graph_alloc(alloc, (uint32_t)w * (uint32_t)h, m, true, &g);
  if (st != CAIRN_OK) return st;
  hex_fill(g, w, h, cost);
  /* entering costs are at least 1 per step, and a step moves hex distance 1 */
  g->heuristic = CAIRN_GH_HEX;
  g->h_factor = (double)CAIRN_COST_ONE;
  *out = g;
  return CAIRN_OK;
}
