/* Helpers shared by the core's graph tests (core/test_graph.c, test_hex.c,
 * test_linked.c, test_landmarks.c): fixed-point costs, a counting allocator,
 * path checks, random graphs with their Floyd-Warshall reference, chains,
 * sliced-search snapshots, hex sizes, grid graphs, and random linked queries
 * with the extended graph that answers them. Header only. */
#ifndef CAIRN_TEST_GRAPH_UTIL_H
#define CAIRN_TEST_GRAPH_UTIL_H

#include "cairn_bits.h" /* cairn__finite */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ONE CAIRN_COST_ONE

#define INF CAIRN_COST_INF

/* ---- helpers -------------------------------------------------------- */

static inline cairn_search *new_search(void) {
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  return s;
}

/* The library's documented conversion of an edge cost to fixed point. */
static inline cairn_cost fixed(double cost) {
  long long c = llround(cost * (double)ONE);
  return c < 1 ? 1 : (cairn_cost)c;
}

/* Counts live bytes and allocations; fails every request once `budget`
 * successful ones have been made (budget < 0: never fails). */
typedef struct counter {
  size_t live, allocs;
  long budget;
} counter;

static inline void *count_fn(void *user, void *ptr, size_t old_size,
                             size_t new_size) {
  counter *c = user;
  if (new_size == 0) {
    if (ptr) c->live -= old_size;
    free(ptr);
    return NULL;
  }
  if (c->budget == 0) return NULL;
  if (c->budget > 0) c->budget--;
  void *p = realloc(ptr, new_size);
  if (!p) return NULL;
  c->live = c->live - (ptr ? old_size : 0) + new_size;
  c->allocs++;
  return p;
}

/* The cheapest a -> b edge, INF if there is none. */
static inline cairn_cost min_edge(const cairn_graph *g, uint32_t a, uint32_t b) {
  const uint32_t *t;
  const cairn_cost *c;
  uint32_t k = cairn_graph_neighbours(g, a, &t, &c);
  cairn_cost best = INF;
  for (uint32_t i = 0; i < k; i++)
    if (t[i] == b && c[i] < best) best = c[i];
  return best;
}

/* The path runs start..goal along existing edges whose costs sum to r->cost. */
static inline void check_graph_path(const cairn_graph *g, const cairn_result *r,
                                    uint32_t start, uint32_t goal) {
  assert_non_null(r->nodes);
  assert_null(r->path);
  assert_true(r->path_len >= 1);
  assert_int_equal(r->steps, r->path_len - 1);
  assert_int_equal(r->nodes[0], start);
  assert_int_equal(r->nodes[r->path_len - 1], goal);
  cairn_cost sum = 0;
  for (size_t i = 0; i + 1 < r->path_len; i++) {
    cairn_cost c = min_edge(g, r->nodes[i], r->nodes[i + 1]);
    assert_true(c != INF);
    sum += c;
  }
  assert_true(sum == r->cost);
}

static inline void check_no_path(const cairn_result *r) {
  assert_int_equal(r->status, CAIRN_NO_PATH);
  assert_true(r->cost == INF);
  assert_null(r->nodes);
  assert_int_equal(r->path_len, 0);
}

/* ---- random graphs and Floyd-Warshall ------------------------------- */

#define RG_MAX_N 60

#define RG_MAX_M (4 * RG_MAX_N)

typedef struct rgraph {
  cairn_graph_edge edges[RG_MAX_M];
  double xy[2 * RG_MAX_N];
  cairn_graph_desc desc;
} rgraph;

static inline double unit(uint64_t *st) {
  return (double)(tu_rand(st) >> 11) * 0x1p-53;
}

/* The largest admissible (and consistent) scale: the cheapest fixed-point
 * cost per unit of distance over all edges. The tiny margin absorbs the
 * rounding of sqrt and of the products in the library's heuristic. */
static inline double admissible_scale(const rgraph *rg) {
  double scale = INFINITY;
  for (size_t i = 0; i < rg->desc.n_edges; i++) {
    const cairn_graph_edge *e = &rg->edges[i];
    double dx = rg->xy[2 * e->from] - rg->xy[2 * e->to];
    double dy = rg->xy[2 * e->from + 1] - rg->xy[2 * e->to + 1];
    double len = sqrt(dx * dx + dy * dy);
    double per = (double)fixed(e->cost) / (double)ONE / len;
    if (len > 0 && per < scale) scale = per;
  }
  return cairn__finite(scale) ? scale * (1 - 1e-9) : 1.0;
}

/* 2..60 nodes, up to 4n random directed edges (self-loops and parallel
 * edges included) with 2-decimal costs, random positions; a quarter are
 * undirected and a quarter use the zero heuristic. */
static inline void random_graph(rgraph *rg, uint64_t *st) {
  memset(rg, 0, sizeof *rg);
  uint32_t n = 2 + tu_below(st, RG_MAX_N - 1);
  size_t m = tu_below(st, n * (1 + tu_below(st, 4)));
  for (size_t i = 0; i < m; i++) {
    rg->edges[i].from = tu_below(st, n);
    rg->edges[i].to = tu_below(st, n);
    rg->edges[i].cost = (double)(1 + tu_below(st, 1000)) / 100.0;
  }
  for (uint32_t i = 0; i < 2 * n; i++) rg->xy[i] = 100.0 * unit(st);
  rg->desc.n_nodes = n;
  rg->desc.n_edges = m;
  rg->desc.edges = rg->edges;
  rg->desc.xy = rg->xy;
  rg->desc.undirected = tu_below(st, 4) == 0;
  rg->desc.heuristic = tu_below(st, 4) ? CAIRN_GH_EUCLIDEAN : CAIRN_GH_ZERO;
  rg->desc.h_scale = admissible_scale(rg);
}

/* All-pairs shortest fixed-point costs, INF where unreachable. */
static inline void floyd_warshall(const cairn_graph_desc *d, cairn_cost *dist) {
  const uint32_t n = d->n_nodes;
  for (uint32_t i = 0; i < n * n; i++) dist[i] = INF;
  for (uint32_t i = 0; i < n; i++) dist[i * n + i] = 0;
  for (size_t k = 0; k < d->n_edges; k++) {
    const cairn_graph_edge *e = &d->edges[k];
    cairn_cost c = fixed(e->cost);
    if (c < dist[e->from * n + e->to]) dist[e->from * n + e->to] = c;
    if (d->undirected && c < dist[e->to * n + e->from])
      dist[e->to * n + e->from] = c;
  }
  for (uint32_t k = 0; k < n; k++)
    for (uint32_t i = 0; i < n; i++) {
      if (dist[i * n + k] == INF) continue;
      for (uint32_t j = 0; j < n; j++)
        if (dist[k * n + j] != INF &&
            dist[i * n + k] + dist[k * n + j] < dist[i * n + j])
          dist[i * n + j] = dist[i * n + k] + dist[k * n + j];
    }
}

/* Every pair of a graph against the reference costs. */
static inline void check_all_pairs(cairn_search *s, const cairn_graph *g,
                                   const cairn_cost *dist) {
  const uint32_t n = cairn_graph_nodes(g);
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = 0; b < n; b++) {
      cairn_result r;
      cairn_status st = cairn_graph_astar(s, g, a, b, NULL, &r);
      assert_int_equal(st, r.status);
      assert_true(r.expanded <= n && r.generated <= n);
      if (dist[a * n + b] == INF) {
        check_no_path(&r);
        continue;
      }
      assert_int_equal(r.status, CAIRN_OK);
      assert_true(r.cost == dist[a * n + b]);
      check_graph_path(g, &r, a, b);
    }
}

static inline cairn_graph *make_graph(const cairn_graph_desc *d) {
  cairn_graph *g = NULL;
  assert_int_equal(cairn_graph_create(d, NULL, &g), CAIRN_OK);
  assert_non_null(g);
  return g;
}

/* The graph of n nodes and the m directed edges e, nothing else set. */
static inline cairn_graph *edges_graph(uint32_t n, const cairn_graph_edge *e, size_t m) {
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = n;
  d.n_edges = m;
  d.edges = e;
  return make_graph(&d);
}

/* ---- validation ----------------------------------------------------- */

static inline cairn_status try_create(const cairn_graph_desc *d) {
  cairn_graph *g = (cairn_graph *)&g; /* must be reset to NULL on failure */
  cairn_status st = cairn_graph_create(d, NULL, &g);
  if (st != CAIRN_OK) assert_null(g);
  cairn_graph_destroy(g);
  return st;
}

/* ---- node limit and sliced search ----------------------------------- */

static inline cairn_graph *chain(uint32_t n) {
  cairn_graph_edge e[64];
  assert_true(n <= 65);
  for (uint32_t i = 0; i + 1 < n; i++) {
    e[i].from = i;
    e[i].to = i + 1;
    e[i].cost = 1;
  }
  return edges_graph(n, e, n - 1);
}

typedef struct snapshot {
  cairn_result r;
  uint32_t nodes[256];
} snapshot;

static inline void snap(const cairn_result *r, snapshot *out) {
  out->r = *r;
  assert_true(r->path_len <= 256);
  if (r->nodes) memcpy(out->nodes, r->nodes, r->path_len * sizeof *r->nodes);
}

static inline void same_result(const snapshot *a, const cairn_result *b) {
  assert_int_equal(a->r.status, b->status);
  assert_true(a->r.cost == b->cost);
  assert_int_equal(a->r.path_len, b->path_len);
  assert_int_equal(a->r.expanded, b->expanded);
  assert_int_equal(a->r.generated, b->generated);
  if (b->path_len)
    assert_memory_equal(a->nodes, b->nodes, b->path_len * sizeof *b->nodes);
}

/* One query blocking, then sliced with budgets 1, 7 and 1000. */
static inline void check_sliced(cairn_search *s, const cairn_graph *g, uint32_t a,
                                uint32_t b, uint64_t limit) {
  static const uint64_t budgets[] = {1, 7, 1000};
  cairn_search_opts o = cairn_search_defaults();
  o.max_expanded = limit;
  cairn_result r;
  snapshot blocking;
  cairn_graph_astar(s, g, a, b, &o, &r);
  snap(&r, &blocking);
  for (size_t k = 0; k < 3; k++) {
    assert_int_equal(cairn_graph_astar_begin(s, g, a, b, &o), CAIRN_OK);
    cairn_status st;
    uint64_t before = 0;
    while ((st = cairn_search_step(s, budgets[k])) == CAIRN_IN_PROGRESS) {
      assert_int_equal(cairn_search_result(s, &r), CAIRN_IN_PROGRESS);
      assert_true(r.expanded - before <= budgets[k]);
      assert_true(r.cost == INF && !r.nodes);
      before = r.expanded;
    }
    assert_int_equal(st, blocking.r.status);
    assert_int_equal(cairn_search_step(s, 1), st); /* ended: stays ended */
    cairn_search_result(s, &r);
    same_result(&blocking, &r);
  }
}

/* ---- hex maps ------------------------------------------------------- */

#define HW 12

#define HH 9

#define HN (HW * HH)

static inline void random_hex(uint8_t *cost, uint64_t *st) {
  for (int i = 0; i < HN; i++)
    cost[i] = tu_below(st, 4) == 0 ? 0 : (uint8_t)(1 + tu_below(st, 4));
}

/* ---- the octile heuristic ------------------------------------------- */

/* The graph of a grid: node y * w + x per cell, an edge for each legal
 * move (8-way, no corner cutting) costing the grid's fixed-point step, the
 * cell's position. e must hold 8 w h edges and xy 2 w h doubles. */
static inline cairn_graph *grid_graph(const cairn_grid *grid,
                                      cairn_graph_heuristic h, cairn_graph_edge *e,
                                      double *xy) {
  const int w = cairn_grid_width(grid), hh = cairn_grid_height(grid);
  size_t m = 0;
  for (int y = 0; y < hh; y++)
    for (int x = 0; x < w; x++) {
      uint32_t v = (uint32_t)(y * w + x);
      xy[2 * v] = x;
      xy[2 * v + 1] = y;
      if (!cairn_grid_cost(grid, x, y)) continue;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          if (dx == 0 && dy == 0) continue;
          uint8_t c = cairn_grid_cost(grid, x + dx, y + dy);
          if (!c) continue;
          if (dx && dy && (!cairn_grid_cost(grid, x + dx, y) ||
                           !cairn_grid_cost(grid, x, y + dy)))
            continue;
          cairn_cost base = dx && dy ? CAIRN_COST_DIAG : ONE;
          e[m].from = v;
          e[m].to = (uint32_t)((y + dy) * w + x + dx);
          e[m].cost = (double)(base * c) / (double)ONE; /* exact */
          m++;
        }
    }
  cairn_graph_desc d = {(uint32_t)(w * hh), xy, m, e, 0, h, 1.0};
  cairn_graph *g = make_graph(&d);
  assert_int_equal(cairn_graph_edges(g), m);
  return g;
}

/* ---- linked queries ------------------------------------------------- */

#define LG_MAX_N 40

#define LG_MAX_L 6

/* A random graph with a linked query, and the same as a plain graph of
 * n + 2 nodes: start = n, goal = n + 1, the links as real edges. */
typedef struct lgraph {
  cairn_graph_edge edges[4 * LG_MAX_N];
  double xy[2 * LG_MAX_N];
  cairn_graph_desc desc;
  cairn_graph_link from[LG_MAX_L], to[LG_MAX_L];
  cairn_graph_query q;
  /* the extended graph */
  cairn_graph_edge xedges[8 * LG_MAX_N + 2 * LG_MAX_L + 1];
  double xxy[2 * (LG_MAX_N + 2)];
  cairn_graph_desc xdesc;
} lgraph;

/* Distance in the heuristic's own measure (Euclidean for zero). */
static inline double lg_dist(cairn_graph_heuristic h, double dx, double dy) {
  if (h != CAIRN_GH_OCTILE) return sqrt(dx * dx + dy * dy);
  double ax = fabs(dx), ay = fabs(dy);
  double lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
  return hi - lo + lo * ((double)CAIRN_COST_DIAG / (double)ONE);
}

/* A cost (in cost units) for a hop of distance len: mostly len x 1..2 so
 * the heuristic prunes, now and then anything. */
static inline double lg_cost(uint64_t *st, double len) {
  if (tu_below(st, 5) == 0) return (double)(1 + tu_below(st, 2000)) / 100.0;
  return len * (1.0 + unit(st)) + 0.01;
}

static inline cairn_cost lg_link_cost(uint64_t *st, double len) {
  return fixed(lg_cost(st, len));
}

/* Per-unit cost of a hop, when it has a length. */
static inline void lg_scale(double *scale, cairn_graph_heuristic h, cairn_cost c,
                            double dx, double dy) {
  double len = lg_dist(h, dx, dy);
  if (len > 0 && (double)c / (double)ONE / len < *scale)
    *scale = (double)c / (double)ONE / len;
}

static inline void random_linked(lgraph *L, uint64_t *st) {
  memset(L, 0, sizeof *L);
  static const cairn_graph_heuristic hs[3] = {CAIRN_GH_ZERO,
                                              CAIRN_GH_EUCLIDEAN,
                                              CAIRN_GH_OCTILE};
  cairn_graph_heuristic h = hs[tu_below(st, 3)];
  uint32_t n = 1 + tu_below(st, LG_MAX_N);
  for (uint32_t i = 0; i < 2 * n; i++) L->xy[i] = 30.0 * unit(st);
  size_t m = tu_below(st, n * (1 + tu_below(st, 4)));
  for (size_t i = 0; i < m; i++) {
    cairn_graph_edge *e = &L->edges[i];
    e->from = tu_below(st, n);
    e->to = tu_below(st, n);
    e->cost = lg_cost(st, lg_dist(h, L->xy[2 * e->from] - L->xy[2 * e->to],
                                  L->xy[2 * e->from + 1] - L->xy[2 * e->to + 1]));
  }
  cairn_graph_query *q = &L->q;
  for (int i = 0; i < 2; i++) {
    q->start_xy[i] = 30.0 * unit(st);
    q->goal_xy[i] = 30.0 * unit(st);
  }
  /* start links: any nodes, repeats allowed */
  q->n_from_start = tu_below(st, LG_MAX_L + 1);
  for (size_t k = 0; k < q->n_from_start; k++) {
    uint32_t v = tu_below(st, n);
    L->from[k].node = v;
    L->from[k].cost = lg_link_cost(
        st, lg_dist(h, q->start_xy[0] - L->xy[2 * v],
                    q->start_xy[1] - L->xy[2 * v + 1]));
  }
  /* goal links: distinct nodes */
  for (size_t k = 0, tries = tu_below(st, LG_MAX_L + 1); k < tries; k++) {
    uint32_t v = tu_below(st, n);
    int seen = 0;
    for (size_t j = 0; j < q->n_to_goal; j++) seen |= L->to[j].node == v;
    if (seen) continue;
    L->to[q->n_to_goal].node = v;
    L->to[q->n_to_goal++].cost = lg_link_cost(
        st, lg_dist(h, q->goal_xy[0] - L->xy[2 * v],
                    q->goal_xy[1] - L->xy[2 * v + 1]));
  }
  q->from_start = q->n_from_start ? L->from : NULL;
  q->to_goal = q->n_to_goal ? L->to : NULL;
  q->direct = tu_below(st, 3) == 0
                  ? lg_link_cost(st, lg_dist(h, q->start_xy[0] - q->goal_xy[0],
                                             q->start_xy[1] - q->goal_xy[1]))
                  : INF;
  /* the largest scale admissible on every edge and link */
  double scale = INFINITY;
  int undirected = tu_below(st, 4) == 0;
  for (size_t i = 0; i < m; i++) {
    const cairn_graph_edge *e = &L->edges[i];
    lg_scale(&scale, h, fixed(e->cost), L->xy[2 * e->from] - L->xy[2 * e->to],
             L->xy[2 * e->from + 1] - L->xy[2 * e->to + 1]);
  }
  for (size_t k = 0; k < q->n_from_start; k++)
    lg_scale(&scale, h, L->from[k].cost,
             q->start_xy[0] - L->xy[2 * L->from[k].node],
             q->start_xy[1] - L->xy[2 * L->from[k].node + 1]);
  for (size_t k = 0; k < q->n_to_goal; k++)
    lg_scale(&scale, h, L->to[k].cost,
             q->goal_xy[0] - L->xy[2 * L->to[k].node],
             q->goal_xy[1] - L->xy[2 * L->to[k].node + 1]);
  if (q->direct != INF)
    lg_scale(&scale, h, q->direct, q->start_xy[0] - q->goal_xy[0],
             q->start_xy[1] - q->goal_xy[1]);
  scale = cairn__finite(scale) ? scale * (1 - 1e-9) : 1.0;
  cairn_graph_desc d = {n, L->xy, m, L->edges, undirected, h, scale};
  L->desc = d;
  /* the extended graph, every edge spelled out in the graph's CSR order */
  size_t xm = 0;
  for (size_t i = 0; i < m; i++) {
    L->xedges[xm++] = L->edges[i];
    if (undirected) {
      cairn_graph_edge r = {L->edges[i].to, L->edges[i].from, L->edges[i].cost};
      L->xedges[xm++] = r;
    }
  }
  for (size_t k = 0; k < q->n_from_start; k++) {
    cairn_graph_edge e = {n, L->from[k].node,
                          (double)L->from[k].cost / (double)ONE};
    L->xedges[xm++] = e;
  }
  if (q->direct != INF) {
    cairn_graph_edge e = {n, n + 1, (double)q->direct / (double)ONE};
    L->xedges[xm++] = e;
  }
  for (size_t k = 0; k < q->n_to_goal; k++) {
    cairn_graph_edge e = {L->to[k].node, n + 1,
                          (double)L->to[k].cost / (double)ONE};
    L->xedges[xm++] = e;
  }
  memcpy(L->xxy, L->xy, 2 * n * sizeof *L->xy);
  L->xxy[2 * n] = q->start_xy[0];
  L->xxy[2 * n + 1] = q->start_xy[1];
  L->xxy[2 * n + 2] = q->goal_xy[0];
  L->xxy[2 * n + 3] = q->goal_xy[1];
  cairn_graph_desc xd = {n + 2, L->xxy, xm, L->xedges, 0, h, scale};
  L->xdesc = xd;
}

/* The cost of one hop of a linked result. */
static inline cairn_cost linked_hop(const cairn_graph *g, const cairn_graph_query *q,
                                    uint32_t a, uint32_t b) {
  const uint32_t n = cairn_graph_nodes(g);
  cairn_cost best = INF;
  if (a == n && b == n + 1) return q->direct;
  if (a == n) {
    for (size_t k = 0; k < q->n_from_start; k++)
      if (q->from_start[k].node == b && q->from_start[k].cost < best)
        best = q->from_start[k].cost;
    return best;
  }
  if (b == n + 1) {
    for (size_t k = 0; k < q->n_to_goal; k++)
      if (q->to_goal[k].node == a) return q->to_goal[k].cost;
    return INF;
  }
  assert_true(a < n && b < n);
  return min_edge(g, a, b);
}

/* A found linked result: virtual start first, virtual goal last, graph
 * nodes between, hops that exist, costs summing to the result's. */
static inline void check_linked_path(const cairn_graph *g, const cairn_graph_query *q,
                                     const cairn_result *r) {
  const uint32_t n = cairn_graph_nodes(g);
  assert_int_equal(r->status, CAIRN_OK);
  assert_non_null(r->nodes);
  assert_null(r->path);
  assert_true(r->path_len >= 2);
  assert_int_equal(r->steps, r->path_len - 1);
  assert_int_equal(r->nodes[0], n);
  assert_int_equal(r->nodes[r->path_len - 1], n + 1);
  cairn_cost sum = 0;
  for (size_t i = 0; i + 1 < r->path_len; i++) {
    if (i > 0) assert_true(r->nodes[i] < n);
    cairn_cost c = linked_hop(g, q, r->nodes[i], r->nodes[i + 1]);
    assert_true(c != INF);
    sum += c;
  }
  assert_true(sum == r->cost);
}

#endif
