/* Graphs: CSR building, validation, hex maps and graph A* (blocking, sliced,
 * limited), checked against Floyd-Warshall and Bellman-Ford references. */
#include "test_util.h"

#include "search_internal.h" /* to read h off the heap after begin */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ONE CAIRN_COST_ONE
#define INF CAIRN_COST_INF

/* ---- helpers -------------------------------------------------------- */

static cairn_search *new_search(void) {
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  return s;
}

/* The library's documented conversion of an edge cost to fixed point. */
static cairn_cost fixed(double cost) {
  long long c = llround(cost * (double)ONE);
  return c < 1 ? 1 : (cairn_cost)c;
}

/* Counts live bytes and allocations; fails every request once `budget`
 * successful ones have been made (budget < 0: never fails). */
typedef struct counter {
  size_t live, allocs;
  long budget;
} counter;

static void *count_fn(void *user, void *ptr, size_t old_size,
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
static cairn_cost min_edge(const cairn_graph *g, uint32_t a, uint32_t b) {
  const uint32_t *t;
  const cairn_cost *c;
  uint32_t k = cairn_graph_neighbours(g, a, &t, &c);
  cairn_cost best = INF;
  for (uint32_t i = 0; i < k; i++)
    if (t[i] == b && c[i] < best) best = c[i];
  return best;
}

/* The path runs start..goal along existing edges whose costs sum to r->cost. */
static void check_graph_path(const cairn_graph *g, const cairn_result *r,
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

static void check_no_path(const cairn_result *r) {
  assert_int_equal(r->status, CAIRN_NO_PATH);
  assert_true(r->cost == INF);
  assert_null(r->nodes);
  assert_int_equal(r->path_len, 0);
}

/* ---- random graphs and Floyd-Warshall -------------------------------- */

#define RG_MAX_N 60
#define RG_MAX_M (4 * RG_MAX_N)

typedef struct rgraph {
  cairn_graph_edge edges[RG_MAX_M];
  double xy[2 * RG_MAX_N];
  cairn_graph_desc desc;
} rgraph;

static double unit(uint64_t *st) {
  return (double)(tu_rand(st) >> 11) * 0x1p-53;
}

/* The largest admissible (and consistent) scale: the cheapest fixed-point
 * cost per unit of distance over all edges. The tiny margin absorbs the
 * rounding of sqrt and of the products in the library's heuristic. */
static double admissible_scale(const rgraph *rg) {
  double scale = INFINITY;
  for (size_t i = 0; i < rg->desc.n_edges; i++) {
    const cairn_graph_edge *e = &rg->edges[i];
    double dx = rg->xy[2 * e->from] - rg->xy[2 * e->to];
    double dy = rg->xy[2 * e->from + 1] - rg->xy[2 * e->to + 1];
    double len = sqrt(dx * dx + dy * dy);
    double per = (double)fixed(e->cost) / (double)ONE / len;
    if (len > 0 && per < scale) scale = per;
  }
  return isfinite(scale) ? scale * (1 - 1e-9) : 1.0;
}

/* 2..60 nodes, up to 4n random directed edges (self-loops and parallel
 * edges included) with 2-decimal costs, random positions; a quarter are
 * undirected and a quarter use the zero heuristic. */
static void random_graph(rgraph *rg, uint64_t *st) {
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
static void floyd_warshall(const cairn_graph_desc *d, cairn_cost *dist) {
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
static void check_all_pairs(cairn_search *s, const cairn_graph *g,
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

static cairn_graph *make_graph(const cairn_graph_desc *d) {
  cairn_graph *g = NULL;
  assert_int_equal(cairn_graph_create(d, NULL, &g), CAIRN_OK);
  assert_non_null(g);
  return g;
}

static void random_graphs(void **state) {
  (void)state;
  static rgraph rg;
  static cairn_cost dist[RG_MAX_N * RG_MAX_N];
  uint64_t seed = 0x5eed0001;
  cairn_search *s = new_search();
  for (int iter = 0; iter < 300; iter++) {
    random_graph(&rg, &seed);
    cairn_graph *g = make_graph(&rg.desc);
    assert_int_equal(cairn_graph_nodes(g), rg.desc.n_nodes);
    assert_int_equal(cairn_graph_edges(g),
                     rg.desc.n_edges * (rg.desc.undirected ? 2 : 1));
    floyd_warshall(&rg.desc, dist);
    check_all_pairs(s, g, dist);
    cairn_graph_destroy(g);
  }
  cairn_search_destroy(s);
}

/* ---- a region table ------------------------------------------------- */

enum {
  ALASKA,
  NW_TERRITORY,
  GREENLAND,
  ALBERTA,
  ONTARIO,
  QUEBEC,
  WESTERN_US,
  EASTERN_US,
  CENTRAL_AMERICA,
  VENEZUELA,
  ATLANTIS, /* no borders: unreachable */
  N_REGIONS
};

/* Risk's North America plus Venezuela; costs are days of marching. */
static const cairn_graph_edge borders[] = {
    {ALASKA, NW_TERRITORY, 3},         {ALASKA, ALBERTA, 4},
    {NW_TERRITORY, ALBERTA, 2},        {NW_TERRITORY, ONTARIO, 4},
    {NW_TERRITORY, GREENLAND, 6},      {GREENLAND, ONTARIO, 5},
    {GREENLAND, QUEBEC, 3},            {ALBERTA, ONTARIO, 3},
    {ALBERTA, WESTERN_US, 2.5},        {ONTARIO, WESTERN_US, 3},
    {ONTARIO, EASTERN_US, 2},          {ONTARIO, QUEBEC, 1.5},
    {QUEBEC, EASTERN_US, 2},           {WESTERN_US, EASTERN_US, 3.5},
    {WESTERN_US, CENTRAL_AMERICA, 3},  {EASTERN_US, CENTRAL_AMERICA, 4},
    {CENTRAL_AMERICA, VENEZUELA, 2},
};

static cairn_graph_desc region_desc(void) {
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = N_REGIONS;
  d.n_edges = sizeof borders / sizeof borders[0];
  d.edges = borders;
  d.undirected = 1;
  d.heuristic = CAIRN_GH_ZERO;
  return d;
}

static void region_table(void **state) {
  (void)state;
  cairn_graph_desc d = region_desc();
  cairn_graph *g = make_graph(&d);
  cairn_cost dist[N_REGIONS * N_REGIONS];
  floyd_warshall(&d, dist);
  cairn_search *s = new_search();
  check_all_pairs(s, g, dist);

  /* the march from Alaska south: 4 + 2.5 + 3 + 2 days, the only best way */
  cairn_result r;
  assert_int_equal(cairn_graph_astar(s, g, ALASKA, VENEZUELA, NULL, &r),
                   CAIRN_OK);
  static const uint32_t want[] = {ALASKA, ALBERTA, WESTERN_US,
                                  CENTRAL_AMERICA, VENEZUELA};
  assert_int_equal(r.path_len, 5);
  assert_memory_equal(r.nodes, want, sizeof want);
  assert_true(r.cost == 23 * ONE / 2);
  /* and from Greenland: 3 + 2 + 4 + 2 through Quebec and the Eastern US */
  assert_int_equal(cairn_graph_astar(s, g, GREENLAND, VENEZUELA, NULL, &r),
                   CAIRN_OK);
  assert_true(r.cost == 11 * ONE);
  assert_int_equal(r.nodes[1], QUEBEC);
  assert_int_equal(r.nodes[2], EASTERN_US);
  /* a region to itself is a path of one node, cost 0 */
  assert_int_equal(cairn_graph_astar(s, g, ONTARIO, ONTARIO, NULL, &r),
                   CAIRN_OK);
  assert_true(r.cost == 0);
  assert_int_equal(r.path_len, 1);
  assert_int_equal(r.expanded, 1);
  assert_int_equal(cairn_graph_astar(s, g, ALASKA, ATLANTIS, NULL, &r),
                   CAIRN_NO_PATH);
  check_no_path(&r);
  cairn_search_destroy(s);
  cairn_graph_destroy(g);
}

/* ---- CSR layout ----------------------------------------------------- */

static void csr_order(void **state) {
  (void)state;
  const cairn_graph_edge e[] = {
      {0, 2, 1}, {1, 0, 2}, {0, 1, 3}, {0, 2, 4}, {2, 2, 5}};
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = 4;
  d.n_edges = 5;
  d.edges = e;
  cairn_graph *g = make_graph(&d);
  const uint32_t *t;
  const cairn_cost *c;
  assert_int_equal(cairn_graph_neighbours(g, 0, &t, &c), 3);
  assert_int_equal(t[0], 2);
  assert_int_equal(t[1], 1);
  assert_int_equal(t[2], 2);
  assert_true(c[0] == 1 * ONE && c[1] == 3 * ONE && c[2] == 4 * ONE);
  assert_int_equal(cairn_graph_neighbours(g, 1, &t, &c), 1);
  assert_int_equal(cairn_graph_neighbours(g, 2, &t, &c), 1);
  assert_int_equal(t[0], 2); /* the self-loop */
  assert_int_equal(cairn_graph_neighbours(g, 3, &t, &c), 0);
  assert_int_equal(cairn_graph_neighbours(g, 4, &t, &c), 0);
  assert_null(t);
  assert_null(c);
  assert_int_equal(cairn_graph_neighbours(NULL, 0, &t, &c), 0);
  assert_int_equal(cairn_graph_neighbours(g, 0, NULL, NULL), 3);
  /* parallel edges: the cheaper one wins; self-loops change nothing */
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_graph_astar(s, g, 0, 2, NULL, &r), CAIRN_OK);
  assert_true(r.cost == ONE);
  assert_int_equal(cairn_graph_astar(s, g, 2, 0, NULL, &r), CAIRN_NO_PATH);
  cairn_graph_destroy(g);

  /* undirected: each reverse edge sits right after its forward one */
  d.undirected = 1;
  d.n_edges = 4;
  g = make_graph(&d);
  assert_int_equal(cairn_graph_edges(g), 8);
  assert_int_equal(cairn_graph_neighbours(g, 0, &t, &c), 4);
  assert_int_equal(t[0], 2);
  assert_int_equal(t[1], 1); /* reverse of 1 -> 0 */
  assert_int_equal(t[2], 1);
  assert_int_equal(t[3], 2);
  assert_int_equal(cairn_graph_neighbours(g, 2, &t, &c), 2);
  assert_true(c[0] == ONE && c[1] == 4 * ONE);
  assert_int_equal(cairn_graph_astar(s, g, 2, 1, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 3 * ONE); /* 2 -> 0 at 1, 0 -> 1 at 2 */
  cairn_graph_destroy(g);
  cairn_search_destroy(s);
}

static void cost_conversion(void **state) {
  (void)state;
  cairn_graph_edge e[] = {{0, 1, 1.5}, {0, 1, 1e-9}, {0, 1, 1e9},
                          {0, 1, 0.01}};
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = 2;
  d.n_edges = 4;
  d.edges = e;
  cairn_graph *g = make_graph(&d);
  const cairn_cost *c;
  assert_int_equal(cairn_graph_neighbours(g, 0, NULL, &c), 4);
  assert_true(c[0] == 98304);
  assert_true(c[1] == 1); /* at least one fixed-point unit */
  assert_true(c[2] == 1000000000ull * ONE);
  assert_true(c[3] == 655); /* llround(655.36) */
  cairn_graph_destroy(g);
}

/* ---- validation ----------------------------------------------------- */

static cairn_status try_create(const cairn_graph_desc *d) {
  cairn_graph *g = (cairn_graph *)&g; /* must be reset to NULL on failure */
  cairn_status st = cairn_graph_create(d, NULL, &g);
  if (st != CAIRN_OK) assert_null(g);
  cairn_graph_destroy(g);
  return st;
}

static void create_errors(void **state) {
  (void)state;
  cairn_graph_edge e[2] = {{0, 1, 1}, {1, 2, 1}};
  double xy[6] = {0, 0, 1, 0, 2, 0};
  cairn_graph_desc ok;
  memset(&ok, 0, sizeof ok);
  ok.n_nodes = 3;
  ok.n_edges = 2;
  ok.edges = e;
  ok.xy = xy;
  ok.heuristic = CAIRN_GH_EUCLIDEAN;
  ok.h_scale = 1;
  assert_int_equal(try_create(&ok), CAIRN_OK);
  cairn_graph *g = NULL;
  assert_int_equal(cairn_graph_create(NULL, NULL, &g), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_create(&ok, NULL, NULL), CAIRN_ERR_ARG);

  cairn_graph_desc d = ok;
  d.n_nodes = 0;
  assert_int_equal(try_create(&d), CAIRN_ERR_ARG);
  /* sizes are checked before anything is read from the arrays */
  d = ok;
  d.n_nodes = CAIRN_GRAPH_MAX_NODES + 1;
  assert_int_equal(try_create(&d), CAIRN_ERR_TOO_LARGE);
  d = ok;
  d.n_edges = (size_t)CAIRN_GRAPH_MAX_EDGES + 1;
  assert_int_equal(try_create(&d), CAIRN_ERR_TOO_LARGE);
  d.undirected = 1;
  d.n_edges = CAIRN_GRAPH_MAX_EDGES / 2 + 1; /* doubled, it is too many */
  assert_int_equal(try_create(&d), CAIRN_ERR_TOO_LARGE);
  d = ok;
  d.edges = NULL;
  assert_int_equal(try_create(&d), CAIRN_ERR_ARG);
  d.n_edges = 0; /* no edges need no array */
  assert_int_equal(try_create(&d), CAIRN_OK);

  const double bad_costs[] = {0, -1, NAN, INFINITY, 1e9 * 1.000001};
  for (size_t i = 0; i < sizeof bad_costs / sizeof bad_costs[0]; i++) {
    e[1].cost = bad_costs[i];
    assert_int_equal(try_create(&ok), CAIRN_ERR_ARG);
  }
  e[1].cost = 1;
  e[1].to = 3;
  assert_int_equal(try_create(&ok), CAIRN_ERR_ARG);
  e[1].to = 2;
  e[1].from = 3;
  assert_int_equal(try_create(&ok), CAIRN_ERR_ARG);
  e[1].from = 1;

  d = ok;
  d.heuristic = (cairn_graph_heuristic)7;
  assert_int_equal(try_create(&d), CAIRN_ERR_ARG);
  d = ok;
  d.xy = NULL;
  assert_int_equal(try_create(&d), CAIRN_ERR_ARG);
  d.heuristic = CAIRN_GH_HEX;
  assert_int_equal(try_create(&d), CAIRN_ERR_ARG);
  d.heuristic = CAIRN_GH_ZERO; /* the zero heuristic needs no positions */
  assert_int_equal(try_create(&d), CAIRN_OK);
  const double bad_scales[] = {-1, NAN, INFINITY};
  for (size_t i = 0; i < sizeof bad_scales / sizeof bad_scales[0]; i++) {
    d = ok;
    d.h_scale = bad_scales[i];
    assert_int_equal(try_create(&d), CAIRN_ERR_ARG);
  }
  d = ok;
  d.h_scale = 0;
  assert_int_equal(try_create(&d), CAIRN_OK);
  xy[3] = NAN;
  assert_int_equal(try_create(&ok), CAIRN_ERR_ARG);
  xy[3] = -INFINITY;
  assert_int_equal(try_create(&ok), CAIRN_ERR_ARG);
}

/* Simple paths must fit 62 bits: a chain of 70000 edges of cost 1e9 does
 * (4.6e18), a graph that could hold a simple path of 80000 such edges not. */
static void cost_bound(void **state) {
  (void)state;
  const uint32_t n = 100000;
  cairn_graph_edge *e = malloc(80000 * sizeof *e);
  assert_non_null(e);
  for (uint32_t i = 0; i < 80000; i++) {
    e[i].from = i;
    e[i].to = i + 1;
    e[i].cost = 1e9;
  }
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = n;
  d.n_edges = 80000;
  d.edges = e;
  assert_int_equal(try_create(&d), CAIRN_ERR_TOO_LARGE);
  d.n_edges = 70000;
  cairn_graph *g = make_graph(&d);
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_graph_astar(s, g, 0, 70000, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 70000ull * 1000000000ull * ONE);
  assert_int_equal(r.path_len, 70001);
  assert_int_equal(cairn_graph_astar(s, g, 70000, 0, NULL, &r),
                   CAIRN_NO_PATH);
  /* few nodes bound the path however many edges there are */
  d.n_nodes = 2;
  for (uint32_t i = 0; i < 80000; i++) e[i].to = e[i].from = 0;
  assert_int_equal(try_create(&d), CAIRN_OK);
  cairn_search_destroy(s);
  cairn_graph_destroy(g);
  free(e);
}

static void begin_errors(void **state) {
  (void)state;
  cairn_graph_desc d = region_desc();
  cairn_graph *g = make_graph(&d);
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_graph_astar_begin(NULL, g, 0, 1, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_astar_begin(s, NULL, 0, 1, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_STATE);
  assert_int_equal(cairn_graph_astar_begin(s, g, N_REGIONS, 1, NULL),
                   CAIRN_ERR_RANGE);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_STATE);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_ERR_RANGE);
  assert_true(r.cost == INF);
  assert_int_equal(cairn_graph_astar_begin(s, g, 0, UINT32_MAX, NULL),
                   CAIRN_ERR_RANGE);

  /* a refused query hides the answer of the one before */
  assert_int_equal(cairn_graph_astar(s, g, ALASKA, QUEBEC, NULL, &r),
                   CAIRN_OK);
  assert_int_equal(cairn_graph_astar(s, g, ALASKA, N_REGIONS, NULL, &r),
                   CAIRN_ERR_RANGE);
  assert_true(r.cost == INF);
  assert_null(r.nodes);
  assert_int_equal(cairn_graph_astar(s, NULL, 0, 1, NULL, &r), CAIRN_ERR_ARG);
  assert_true(r.cost == INF);
  assert_int_equal(cairn_graph_astar(NULL, g, 0, 1, NULL, &r), CAIRN_ERR_ARG);
  assert_true(r.cost == INF);
  assert_int_equal(cairn_graph_astar(s, g, ALASKA, QUEBEC, NULL, NULL),
                   CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_OK); /* ended: its status */

  /* only max_expanded is read: grid options that would be refused pass */
  cairn_search_opts o = cairn_search_defaults();
  o.moves = 3;
  o.weight = 0;
  o.turn_penalty = -5;
  o.heuristic = (cairn_heuristic)99;
  assert_int_equal(cairn_graph_astar(s, g, ALASKA, VENEZUELA, &o, &r),
                   CAIRN_OK);
  assert_true(r.cost == 23 * ONE / 2);
  cairn_search_destroy(s);
  cairn_graph_destroy(g);
}

/* ---- node limit and sliced search ----------------------------------- */

static cairn_graph *chain(uint32_t n) {
  cairn_graph_edge e[64];
  assert_true(n <= 65);
  for (uint32_t i = 0; i + 1 < n; i++) {
    e[i].from = i;
    e[i].to = i + 1;
    e[i].cost = 1;
  }
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = n;
  d.n_edges = n - 1;
  d.edges = e;
  return make_graph(&d);
}

static void max_expanded(void **state) {
  (void)state;
  cairn_graph *g = chain(20);
  cairn_search *s = new_search();
  cairn_search_opts o = cairn_search_defaults();
  cairn_result r;
  o.max_expanded = 5;
  assert_int_equal(cairn_graph_astar(s, g, 0, 19, &o, &r), CAIRN_PARTIAL);
  assert_int_equal(r.expanded, 5);
  assert_true(r.cost == INF);
  assert_null(r.nodes);
  /* sliced, the limit holds across steps */
  assert_int_equal(cairn_graph_astar_begin(s, g, 0, 19, &o), CAIRN_OK);
  cairn_status st;
  while ((st = cairn_search_step(s, 2)) == CAIRN_IN_PROGRESS) {
  }
  assert_int_equal(st, CAIRN_PARTIAL);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_PARTIAL);
  assert_int_equal(r.expanded, 5);
  /* the goal is the 20th node removed: a limit of 19 stops just short */
  o.max_expanded = 19;
  assert_int_equal(cairn_graph_astar(s, g, 0, 19, &o, &r), CAIRN_PARTIAL);
  o.max_expanded = 20;
  assert_int_equal(cairn_graph_astar(s, g, 0, 19, &o, &r), CAIRN_OK);
  assert_true(r.cost == 19 * ONE);
  assert_int_equal(r.expanded, 20);
  /* running dry inside the limit is no path, not partial */
  o.max_expanded = 5;
  assert_int_equal(cairn_graph_astar(s, g, 19, 0, &o, &r), CAIRN_NO_PATH);
  o.max_expanded = 0; /* no limit */
  assert_int_equal(cairn_graph_astar(s, g, 0, 19, &o, &r), CAIRN_OK);
  cairn_search_destroy(s);
  cairn_graph_destroy(g);
}

typedef struct snapshot {
  cairn_result r;
  uint32_t nodes[256];
} snapshot;

static void snap(const cairn_result *r, snapshot *out) {
  out->r = *r;
  assert_true(r->path_len <= 256);
  if (r->nodes) memcpy(out->nodes, r->nodes, r->path_len * sizeof *r->nodes);
}

static void same_result(const snapshot *a, const cairn_result *b) {
  assert_int_equal(a->r.status, b->status);
  assert_true(a->r.cost == b->cost);
  assert_int_equal(a->r.path_len, b->path_len);
  assert_int_equal(a->r.expanded, b->expanded);
  assert_int_equal(a->r.generated, b->generated);
  if (b->path_len)
    assert_memory_equal(a->nodes, b->nodes, b->path_len * sizeof *b->nodes);
}

/* One query blocking, then sliced with budgets 1, 7 and 1000. */
static void check_sliced(cairn_search *s, const cairn_graph *g, uint32_t a,
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

static void sliced(void **state) {
  (void)state;
  static rgraph rg;
  uint64_t seed = 0x511ced;
  cairn_search *s = new_search();
  for (int iter = 0; iter < 40; iter++) {
    random_graph(&rg, &seed);
    cairn_graph *g = make_graph(&rg.desc);
    for (int q = 0; q < 20; q++) {
      uint32_t a = tu_below(&seed, rg.desc.n_nodes);
      uint32_t b = tu_below(&seed, rg.desc.n_nodes);
      check_sliced(s, g, a, b, q % 4 ? 0 : 1 + tu_below(&seed, 30));
    }
    cairn_graph_destroy(g);
  }
  cairn_search_destroy(s);
}

/* ---- hex maps ------------------------------------------------------- */

#define HW 12
#define HH 9
#define HN (HW * HH)

/* The test's own neighbour rule, through axial coordinates: the six axial
 * directions, converted back to odd-r offsets. */
static int axial_q(int col, int row) { return col - (row - (row & 1)) / 2; }

static int hex_nbrs(int id, int w, int h, int out[6]) {
  static const int dq[6] = {1, -1, 0, 0, 1, -1};
  static const int dr[6] = {0, 0, 1, -1, -1, 1};
  int col = id % w, row = id / w, k = 0;
  for (int d = 0; d < 6; d++) {
    int q = axial_q(col, row) + dq[d], r = row + dr[d];
    if (r < 0 || r >= h) continue;
    int c = q + (r - (r & 1)) / 2;
    if (c >= 0 && c < w) out[k++] = r * w + c;
  }
  return k;
}

static int is_hex_nbr(int a, int b, int w, int h) {
  int nb[6], k = hex_nbrs(a, w, h, nb);
  for (int i = 0; i < k; i++)
    if (nb[i] == b) return 1;
  return 0;
}

static cairn_cost hex_dist(int a, int b, int w) {
  int dq = axial_q(a % w, a / w) - axial_q(b % w, b / w);
  int dr = a / w - b / w;
  return (cairn_cost)((abs(dq) + abs(dr) + abs(dq + dr)) / 2);
}

static void random_hex(uint8_t *cost, uint64_t *st) {
  for (int i = 0; i < HN; i++)
    cost[i] = tu_below(st, 4) == 0 ? 0 : (uint8_t)(1 + tu_below(st, 4));
}

/* Bellman-Ford from `src`: relax every edge until nothing changes. */
static void hex_bellman_ford(const uint8_t *cost, int src, cairn_cost *dist) {
  for (int i = 0; i < HN; i++) dist[i] = INF;
  dist[src] = 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int a = 0; a < HN; a++) {
      int nb[6], k = hex_nbrs(a, HW, HH, nb);
      if (!cost[a] || dist[a] == INF) continue;
      for (int i = 0; i < k; i++) {
        int b = nb[i];
        if (cost[b] && dist[a] + cost[b] * ONE < dist[b]) {
          dist[b] = dist[a] + cost[b] * ONE;
          changed = 1;
        }
      }
    }
  }
}

static cairn_graph *make_hex(const uint8_t *cost) {
  cairn_graph *g = NULL;
  assert_int_equal(cairn_hex_graph_create(HW, HH, cost, NULL, &g), CAIRN_OK);
  return g;
}

static void check_hex_path(const uint8_t *cost, const cairn_result *r) {
  cairn_cost sum = 0;
  for (size_t i = 0; i + 1 < r->path_len; i++) {
    int a = (int)r->nodes[i], b = (int)r->nodes[i + 1];
    assert_true(is_hex_nbr(a, b, HW, HH));
    assert_true(cost[a] && cost[b]);
    sum += cost[b] * ONE;
  }
  assert_true(sum == r->cost);
}

static void hex_maps(void **state) {
  (void)state;
  uint64_t seed = 0x4e7;
  uint8_t cost[HN];
  cairn_cost dist[HN];
  cairn_search *s = new_search();
  for (int map = 0; map < 12; map++) {
    random_hex(cost, &seed);
    cairn_graph *g = make_hex(cost);
    assert_int_equal(cairn_graph_nodes(g), HN);
    for (int a = 0; a < HN; a++) {
      hex_bellman_ford(cost, a, dist);
      for (int b = 0; b < HN; b++) {
        cairn_result r;
        cairn_graph_astar(s, g, (uint32_t)a, (uint32_t)b, NULL, &r);
        if (dist[b] == INF) {
          check_no_path(&r);
          continue;
        }
        assert_int_equal(r.status, CAIRN_OK);
        assert_true(r.cost == dist[b]);
        check_graph_path(g, &r, (uint32_t)a, (uint32_t)b);
        check_hex_path(cost, &r);
      }
    }
    cairn_graph_destroy(g);
  }
  cairn_search_destroy(s);
}

/* The edges are exactly the test's neighbour rule between passable cells,
 * costed by the cell entered, and the hex distance is consistent on them. */
static void hex_edges_consistent(void **state) {
  (void)state;
  uint64_t seed = 0xc0451;
  uint8_t cost[HN];
  for (int map = 0; map < 20; map++) {
    random_hex(cost, &seed);
    cairn_graph *g = make_hex(cost);
    size_t total = 0;
    for (int a = 0; a < HN; a++) {
      const uint32_t *t;
      const cairn_cost *c;
      uint32_t k = cairn_graph_neighbours(g, (uint32_t)a, &t, &c);
      int nb[6], want = 0, kn = hex_nbrs(a, HW, HH, nb);
      for (int i = 0; i < kn; i++) want += cost[a] && cost[nb[i]];
      assert_int_equal(k, want);
      total += k;
      for (uint32_t i = 0; i < k; i++) {
        assert_true(is_hex_nbr(a, (int)t[i], HW, HH));
        assert_true(c[i] == cost[t[i]] * ONE);
        for (int goal = 0; goal < HN; goal++)
          assert_true(hex_dist(a, goal, HW) * ONE <=
                      c[i] + hex_dist((int)t[i], goal, HW) * ONE);
      }
    }
    assert_int_equal(cairn_graph_edges(g), total);
    cairn_graph_destroy(g);
  }
}

/* A general graph with the hex map's edges (in its order), the test's axial
 * positions and the hex heuristic searches exactly like the hex map: so the
 * map's positions and heuristic are the ones the test computes. */
static void hex_matches_general(void **state) {
  (void)state;
  uint64_t seed = 0x9e9;
  uint8_t cost[HN];
  static cairn_graph_edge e[6 * HN];
  double xy[2 * HN];
  cairn_search *s = new_search();
  for (int map = 0; map < 6; map++) {
    random_hex(cost, &seed);
    cairn_graph *hex = make_hex(cost);
    size_t m = 0;
    for (uint32_t a = 0; a < HN; a++) {
      const uint32_t *t;
      const cairn_cost *c;
      uint32_t k = cairn_graph_neighbours(hex, a, &t, &c);
      for (uint32_t i = 0; i < k; i++, m++) {
        e[m].from = a;
        e[m].to = t[i];
        e[m].cost = cost[t[i]];
      }
      xy[2 * a] = axial_q((int)a % HW, (int)a / HW);
      xy[2 * a + 1] = (int)a / HW;
    }
    cairn_graph_desc d = {HN, xy, m, e, 0, CAIRN_GH_HEX, 1.0};
    cairn_graph *gen = make_graph(&d);
    for (int q = 0; q < 300; q++) {
      uint32_t a = tu_below(&seed, HN), b = tu_below(&seed, HN);
      cairn_result r;
      snapshot first;
      cairn_graph_astar(s, hex, a, b, NULL, &r);
      snap(&r, &first);
      cairn_graph_astar(s, gen, a, b, NULL, &r);
      same_result(&first, &r);
      if (q % 10 == 0) check_sliced(s, hex, a, b, q % 20 ? 0 : 25);
    }
    cairn_graph_destroy(gen);
    cairn_graph_destroy(hex);
  }
  cairn_search_destroy(s);
}

static void hex_layout(void **state) {
  (void)state;
  uint8_t cost[9];
  memset(cost, 1, sizeof cost);
  cairn_graph *g = NULL;
  assert_int_equal(cairn_hex_graph_create(3, 3, cost, NULL, &g), CAIRN_OK);
  const uint32_t *t;
  /* odd row (1, 1): E, W, NE, NW, SE, SW */
  assert_int_equal(cairn_graph_neighbours(g, 4, &t, NULL), 6);
  static const uint32_t odd[6] = {5, 3, 2, 1, 8, 7};
  assert_memory_equal(t, odd, sizeof odd);
  /* even row (1, 0): E, W, then the row below: (1, 1) and (0, 1) */
  assert_int_equal(cairn_graph_neighbours(g, 1, &t, NULL), 4);
  static const uint32_t even[4] = {2, 0, 4, 3};
  assert_memory_equal(t, even, sizeof even);
  cairn_graph_destroy(g);

  /* a blocked cell is a node without edges, and no edge enters it */
  cost[4] = 0;
  cost[0] = 3;
  assert_int_equal(cairn_hex_graph_create(3, 3, cost, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_graph_nodes(g), 9);
  assert_int_equal(cairn_graph_neighbours(g, 4, &t, NULL), 0);
  for (uint32_t v = 0; v < 9; v++) assert_true(min_edge(g, v, 4) == INF);
  assert_true(min_edge(g, 1, 0) == 3 * ONE);
  assert_true(min_edge(g, 0, 1) == ONE);
  cairn_search *s = new_search();
  cairn_result r;
  assert_int_equal(cairn_graph_astar(s, g, 4, 4, NULL, &r), CAIRN_OK);
  assert_int_equal(cairn_graph_astar(s, g, 4, 5, NULL, &r), CAIRN_NO_PATH);
  /* around the hole: 3 -> 1 -> 2 -> 5 or 3 -> 7 -> 8 -> 5 */
  assert_int_equal(cairn_graph_astar(s, g, 3, 5, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 3 * ONE);
  cairn_search_destroy(s);
  cairn_graph_destroy(g);

  /* one cell */
  assert_int_equal(cairn_hex_graph_create(1, 1, cost, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_graph_edges(g), 0);
  cairn_graph_destroy(g);
}

/* Right after begin the heap holds only the start, keyed f = 0 + h(start):
 * so the heuristic's values can be read off it. */
static cairn_cost h_after_begin(cairn_search *s, const cairn_graph *g,
                                uint32_t a, uint32_t b) {
  assert_int_equal(cairn_graph_astar_begin(s, g, a, b, NULL), CAIRN_OK);
  assert_int_equal(s->heap_len, 1);
  assert_int_equal(s->heap[0].node, a);
  return s->heap[0].f;
}

static void heuristic_values(void **state) {
  (void)state;
  cairn_search *s = new_search();
  uint8_t cost[HN];
  memset(cost, 1, sizeof cost);
  cost[5] = 0; /* blocked cells have positions too */
  cairn_graph *hex = make_hex(cost);
  for (int a = 0; a < HN; a++)
    for (int b = 0; b < HN; b++)
      assert_true(h_after_begin(s, hex, (uint32_t)a, (uint32_t)b) ==
                  hex_dist(a, b, HW) * ONE);
  cairn_graph_destroy(hex);

  /* Euclidean, floored: sqrt(2) x 2^16 = 92681.9 gives 92681; 0.5 x 5 */
  const double xy[8] = {0, 0, 1, 1, 3, 4, -0.25, 0};
  cairn_graph_desc d = {4, xy, 0, NULL, 0, CAIRN_GH_EUCLIDEAN, 1.0};
  cairn_graph *g = make_graph(&d);
  assert_true(h_after_begin(s, g, 0, 1) == 92681);
  assert_true(h_after_begin(s, g, 2, 0) == 5 * ONE);
  assert_true(h_after_begin(s, g, 3, 0) == ONE / 4);
  assert_true(h_after_begin(s, g, 1, 1) == 0);
  cairn_graph_destroy(g);
  d.h_scale = 0.5;
  g = make_graph(&d);
  assert_true(h_after_begin(s, g, 0, 2) == 5 * ONE / 2);
  cairn_graph_destroy(g);
  /* hex distance on general positions, scaled */
  const double axial[6] = {0, 0, 2, -1, -3, 3};
  cairn_graph_desc hd = {3, axial, 0, NULL, 0, CAIRN_GH_HEX, 1.5};
  g = make_graph(&hd);
  assert_true(h_after_begin(s, g, 0, 1) == 3 * ONE);  /* 1.5 x 2 */
  assert_true(h_after_begin(s, g, 1, 2) == 15 * ONE / 2); /* 1.5 x 5 */
  cairn_graph_destroy(g);
  /* a zero scale or the zero heuristic ignores the positions */
  hd.h_scale = 0;
  g = make_graph(&hd);
  assert_true(h_after_begin(s, g, 1, 2) == 0);
  cairn_graph_destroy(g);
  hd.h_scale = 1;
  hd.heuristic = CAIRN_GH_ZERO;
  g = make_graph(&hd);
  assert_true(h_after_begin(s, g, 1, 2) == 0);
  cairn_graph_destroy(g);
  cairn_search_destroy(s);
}

static void hex_errors(void **state) {
  (void)state;
  uint8_t cost[4] = {1, 1, 1, 1};
  cairn_graph *g = (cairn_graph *)&g;
  assert_int_equal(cairn_hex_graph_create(0, 2, cost, NULL, &g),
                   CAIRN_ERR_ARG);
  assert_null(g);
  assert_int_equal(cairn_hex_graph_create(2, -1, cost, NULL, &g),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_hex_graph_create(CAIRN_GRID_MAX_SIDE + 1, 1, cost,
                                          NULL, &g),
                   CAIRN_ERR_TOO_LARGE);
  assert_int_equal(cairn_hex_graph_create(1, CAIRN_GRID_MAX_SIDE + 1, cost,
                                          NULL, &g),
                   CAIRN_ERR_TOO_LARGE);
  assert_int_equal(cairn_hex_graph_create(2, 2, NULL, NULL, &g),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_hex_graph_create(2, 2, cost, NULL, NULL),
                   CAIRN_ERR_ARG);
}

/* ---- memory --------------------------------------------------------- */

/* Every allocation failure in the builders is reported and leaks nothing. */
static void create_nomem(void **state) {
  (void)state;
  cairn_graph_desc d = region_desc();
  uint8_t cost[HN];
  uint64_t seed = 77;
  random_hex(cost, &seed);
  for (int which = 0; which < 2; which++) {
    int succeeded = 0;
    for (long budget = 0; !succeeded; budget++) {
      counter c = {0, 0, budget};
      cairn_allocator a = {count_fn, &c};
      cairn_graph *g = NULL;
      cairn_status st = which ? cairn_hex_graph_create(HW, HH, cost, &a, &g)
                              : cairn_graph_create(&d, &a, &g);
      succeeded = st == CAIRN_OK;
      if (!succeeded) {
        assert_int_equal(st, CAIRN_ERR_NOMEM);
        assert_null(g);
        assert_int_equal(c.live, 0);
      }
      cairn_graph_destroy(g);
      assert_int_equal(c.live, 0);
      assert_true(budget < 10);
    }
  }
}

/* Queries allocate only to grow the context; growth failures are refusals. */
static void query_memory(void **state) {
  (void)state;
  counter c = {0, 0, -1};
  cairn_allocator a = {count_fn, &c};
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(&a, &s), CAIRN_OK);
  cairn_graph *g = chain(65);
  cairn_result r;
  c.budget = 0;
  assert_int_equal(cairn_graph_astar(s, g, 0, 64, NULL, &r), CAIRN_ERR_NOMEM);
  assert_true(r.cost == INF);
  c.budget = -1;
  assert_int_equal(cairn_search_reserve(s, 65), CAIRN_OK);
  c.budget = 0; /* the nodes fit, the 65-node path does not yet */
  assert_int_equal(cairn_graph_astar(s, g, 0, 64, NULL, &r), CAIRN_ERR_NOMEM);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_NOMEM);
  c.budget = -1;
  assert_int_equal(cairn_graph_astar(s, g, 0, 64, NULL, &r), CAIRN_OK);
  size_t allocs = c.allocs;
  for (uint32_t a0 = 0; a0 < 65; a0++)
    for (uint32_t b = 0; b < 65; b += 3) {
      cairn_graph_astar(s, g, a0, b, NULL, &r);
      assert_int_equal(r.status, a0 <= b ? CAIRN_OK : CAIRN_NO_PATH);
    }
  assert_int_equal(c.allocs, allocs);
  cairn_graph_destroy(g);
  cairn_search_destroy(s);
  assert_int_equal(c.live, 0);
}

/* One context serves graphs of growing and shrinking size and grids in
 * between; each answer is still the reference one. */
static void context_reuse(void **state) {
  (void)state;
  static rgraph rg[3];
  static cairn_cost dist[3][RG_MAX_N * RG_MAX_N];
  uint64_t seed = 0xbeef;
  cairn_graph *g[3];
  for (int i = 0; i < 3; i++) {
    do random_graph(&rg[i], &seed);
    while (rg[i].desc.n_nodes < 10 * (uint32_t)(i + 1));
    g[i] = make_graph(&rg[i].desc);
    floyd_warshall(&rg[i].desc, dist[i]);
  }
  cairn_grid *grid = NULL;
  assert_int_equal(cairn_grid_create(5, 5, 1, NULL, &grid), CAIRN_OK);
  static const char *const rows[] = {"..........", ".########.",
                                     ".........."};
  cairn_grid *walled = tu_grid(rows, 3);
  cairn_search *s = new_search();
  const cairn_point p00 = {0, 0}, p44 = {4, 4}, p01 = {0, 1}, p91 = {9, 1};
  static const int order[] = {1, 0, 2, 0, 1, 2, 2, 0};
  for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
    cairn_result r;
    int i = order[k];
    check_all_pairs(s, g[i], dist[i]);
    assert_int_equal(cairn_astar(s, grid, p00, p44, NULL, &r), CAIRN_OK);
    assert_true(r.cost == 4 * CAIRN_COST_DIAG);
    assert_non_null(r.path);
    assert_null(r.nodes);
    assert_int_equal(r.path[4].x, 4);
    uint32_t a = tu_below(&seed, rg[i].desc.n_nodes);
    check_sliced(s, g[i], a, (a + 1) % rg[i].desc.n_nodes, 0);
    /* round the wall: down, 9 across, up; the corners may not be cut */
    assert_int_equal(cairn_astar(s, walled, p01, p91, NULL, &r), CAIRN_OK);
    assert_true(r.cost == 11 * ONE);
  }
  cairn_grid_destroy(walled);
  cairn_grid_destroy(grid);
  for (int i = 0; i < 3; i++) cairn_graph_destroy(g[i]);
  cairn_search_destroy(s);
}

/* ---- the octile heuristic ------------------------------------------- */

static void octile_values(void **state) {
  (void)state;
  cairn_search *s = new_search();
  const double xy[10] = {0, 0, 3, 1, 2, 2, -1.5, 0, 4, -7};
  cairn_graph_desc d = {5, xy, 0, NULL, 0, CAIRN_GH_OCTILE, 1.0};
  cairn_graph *g = make_graph(&d);
  /* the grid's own fixed point: 2 straight + 1 diagonal, 2 diagonals */
  assert_true(h_after_begin(s, g, 0, 1) == 2 * ONE + CAIRN_COST_DIAG);
  assert_true(h_after_begin(s, g, 1, 0) == 2 * ONE + CAIRN_COST_DIAG);
  assert_true(h_after_begin(s, g, 0, 2) == 2 * CAIRN_COST_DIAG);
  assert_true(h_after_begin(s, g, 3, 0) == 3 * ONE / 2);
  assert_true(h_after_begin(s, g, 0, 4) == 3 * ONE + 4 * CAIRN_COST_DIAG);
  assert_true(h_after_begin(s, g, 2, 2) == 0);
  cairn_graph_destroy(g);
  d.h_scale = 0.5; /* floored */
  g = make_graph(&d);
  assert_true(h_after_begin(s, g, 0, 1) == (2 * ONE + CAIRN_COST_DIAG) / 2);
  assert_true(h_after_begin(s, g, 0, 4) ==
              (3 * ONE + 4 * CAIRN_COST_DIAG) / 2);
  cairn_graph_destroy(g);
  d.h_scale = 0;
  g = make_graph(&d);
  assert_true(h_after_begin(s, g, 0, 4) == 0);
  cairn_graph_destroy(g);
  /* it needs finite positions; one past it is unknown */
  d.h_scale = 1;
  d.xy = NULL;
  assert_int_equal(try_create(&d), CAIRN_ERR_ARG);
  double bad[10];
  memcpy(bad, xy, sizeof bad);
  bad[7] = NAN;
  d.xy = bad;
  assert_int_equal(try_create(&d), CAIRN_ERR_ARG);
  d.xy = xy;
  d.heuristic = (cairn_graph_heuristic)(CAIRN_GH_OCTILE + 1);
  assert_int_equal(try_create(&d), CAIRN_ERR_ARG);
  cairn_search_destroy(s);
}

/* The graph of a grid: node y * w + x per cell, an edge for each legal
 * move (8-way, no corner cutting) costing the grid's fixed-point step, the
 * cell's position. e must hold 8 w h edges and xy 2 w h doubles. */
static cairn_graph *grid_graph(const cairn_grid *grid,
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

/* On the graph of a grid, A* with the octile heuristic finds the grid's
 * A* cost, along a path that is a valid grid path, expanding no more than
 * Dijkstra on the same graph (and much less in all). */
static void octile_grid_graphs(void **state) {
  (void)state;
  uint64_t rng = 0x0c71;
  cairn_search *s = new_search();
  uint64_t oct_total = 0, zero_total = 0;
  int found = 0;
  for (int map = 0; map < 8; map++) {
    int w = 10 + (int)tu_below(&rng, 30), h = 10 + (int)tu_below(&rng, 30);
    cairn_grid *grid = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 35),
                                      1 + (int)tu_below(&rng, 6));
    cairn_graph_edge *e = malloc(8 * (size_t)w * (size_t)h * sizeof *e);
    double *xy = malloc(2 * (size_t)w * (size_t)h * sizeof *xy);
    cairn_point *path = malloc((size_t)w * (size_t)h * sizeof *path);
    assert_true(e && xy && path);
    cairn_graph *oct = grid_graph(grid, CAIRN_GH_OCTILE, e, xy);
    cairn_graph *zero = grid_graph(grid, CAIRN_GH_ZERO, e, xy);
    for (int q = 0; q < 40; q++) {
      cairn_point a = tu_random_open(&rng, grid), b = tu_random_open(&rng, grid);
      uint32_t va = (uint32_t)(a.y * w + a.x), vb = (uint32_t)(b.y * w + b.x);
      cairn_result rg, ro, rz;
      cairn_astar(s, grid, a, b, NULL, &rg);
      cairn_cost want = rg.cost;
      cairn_graph_astar(s, zero, va, vb, NULL, &rz);
      assert_true(rz.cost == want);
      cairn_graph_astar(s, oct, va, vb, NULL, &ro);
      assert_true(ro.cost == want);
      if (want == INF) {
        check_no_path(&ro);
        continue;
      }
      found++;
      assert_int_equal(ro.status, CAIRN_OK);
      check_graph_path(oct, &ro, va, vb);
      for (size_t i = 0; i < ro.path_len; i++) {
        path[i].x = (int32_t)(ro.nodes[i] % (uint32_t)w);
        path[i].y = (int32_t)(ro.nodes[i] / (uint32_t)w);
      }
      assert_true(tu_path_cost(grid, path, ro.path_len, a, b, 8) == want);
      assert_true(ro.expanded <= rz.expanded);
      oct_total += ro.expanded;
      zero_total += rz.expanded;
    }
    cairn_graph_destroy(oct);
    cairn_graph_destroy(zero);
    free(e);
    free(xy);
    free(path);
    cairn_grid_destroy(grid);
  }
  print_message("octile graph: %llu expansions, Dijkstra %llu\n",
                (unsigned long long)oct_total, (unsigned long long)zero_total);
  assert_true(found > 100);
  assert_true(2 * oct_total < zero_total);
  cairn_search_destroy(s);
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
static double lg_dist(cairn_graph_heuristic h, double dx, double dy) {
  if (h != CAIRN_GH_OCTILE) return sqrt(dx * dx + dy * dy);
  double ax = fabs(dx), ay = fabs(dy);
  double lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
  return hi - lo + lo * ((double)CAIRN_COST_DIAG / (double)ONE);
}

/* A cost (in cost units) for a hop of distance len: mostly len x 1..2 so
 * the heuristic prunes, now and then anything. */
static double lg_cost(uint64_t *st, double len) {
  if (tu_below(st, 5) == 0) return (double)(1 + tu_below(st, 2000)) / 100.0;
  return len * (1.0 + unit(st)) + 0.01;
}

static cairn_cost lg_link_cost(uint64_t *st, double len) {
  return fixed(lg_cost(st, len));
}

/* Per-unit cost of a hop, when it has a length. */
static void lg_scale(double *scale, cairn_graph_heuristic h, cairn_cost c,
                     double dx, double dy) {
  double len = lg_dist(h, dx, dy);
  if (len > 0 && (double)c / (double)ONE / len < *scale)
    *scale = (double)c / (double)ONE / len;
}

static void random_linked(lgraph *L, uint64_t *st) {
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
  scale = isfinite(scale) ? scale * (1 - 1e-9) : 1.0;
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
static cairn_cost linked_hop(const cairn_graph *g, const cairn_graph_query *q,
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
static void check_linked_path(const cairn_graph *g, const cairn_graph_query *q,
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

/* Linked A* answers as plain A* on the graph with the start and goal made
 * real nodes, and as Floyd-Warshall on that graph; sliced in single
 * expansions it ends the same, and a node limit below its expansions stops
 * it with CAIRN_PARTIAL. */
static void linked_random(void **state) {
  (void)state;
  static lgraph L;
  static cairn_cost dist[(LG_MAX_N + 2) * (LG_MAX_N + 2)];
  uint64_t seed = 0x11c4ed;
  cairn_search *s = new_search(), *t = new_search();
  int found = 0, none = 0, direct = 0, partial = 0;
  for (int iter = 0; iter < 600; iter++) {
    random_linked(&L, &seed);
    cairn_graph *g = make_graph(&L.desc);
    cairn_graph *x = make_graph(&L.xdesc);
    const uint32_t n = L.desc.n_nodes;
    floyd_warshall(&L.xdesc, dist);
    cairn_cost want = dist[n * (n + 2) + n + 1];
    cairn_result r, rx;
    cairn_status st = cairn_graph_astar_linked(s, g, &L.q, NULL, &r);
    assert_int_equal(st, r.status);
    cairn_graph_astar(t, x, n, n + 1, NULL, &rx);
    assert_true(rx.cost == want);
    assert_true(r.cost == want);
    /* the extended graph lists every node's edges in the order the linked
     * search relaxes them (graph edges, then the goal link; the start's
     * links, then the direct hop), so the two are the same search step for
     * step: a virtual goal keyed with h = 0, a start keyed with h(start) */
    assert_int_equal(r.status, rx.status);
    assert_true(r.expanded == rx.expanded);
    assert_true(r.generated == rx.generated);
    assert_int_equal(r.path_len, rx.path_len);
    if (r.path_len)
      assert_memory_equal(r.nodes, rx.nodes, r.path_len * sizeof *r.nodes);
    if (want == INF) {
      check_no_path(&r);
      none++;
    } else {
      found++;
      direct += r.path_len == 2;
      check_linked_path(g, &L.q, &r);
      /* the virtual nodes count like real ones */
      assert_true(r.expanded <= (uint64_t)n + 2);
    }
    snapshot blocking;
    snap(&r, &blocking);
    /* sliced: single expansions, then 7 at a time */
    const uint64_t budgets[2] = {1, 7};
    for (int k = 0; k < 2; k++) {
      assert_int_equal(cairn_graph_astar_linked_begin(s, g, &L.q, NULL),
                       CAIRN_OK);
      uint64_t before = 0;
      while ((st = cairn_search_step(s, budgets[k])) == CAIRN_IN_PROGRESS) {
        assert_int_equal(cairn_search_result(s, &r), CAIRN_IN_PROGRESS);
        assert_true(r.expanded - before <= budgets[k]);
        before = r.expanded;
      }
      assert_int_equal(st, blocking.r.status);
      assert_int_equal(cairn_search_step(s, 1), st);
      cairn_search_result(s, &r);
      same_result(&blocking, &r);
    }
    /* a node limit below what it needs */
    if (blocking.r.expanded > 1) {
      cairn_search_opts o = cairn_search_defaults();
      o.max_expanded = 1 + tu_below(&seed, (uint32_t)blocking.r.expanded - 1);
      assert_int_equal(cairn_graph_astar_linked(s, g, &L.q, &o, &r),
                       CAIRN_PARTIAL);
      assert_true(r.expanded == o.max_expanded);
      assert_true(r.cost == INF);
      assert_null(r.nodes);
      partial++;
      o.max_expanded = blocking.r.expanded; /* just enough */
      cairn_graph_astar_linked(s, g, &L.q, &o, &r);
      same_result(&blocking, &r);
    }
    cairn_graph_destroy(x);
    cairn_graph_destroy(g);
  }
  print_message("linked: %d found (%d direct), %d none, %d partial\n", found,
                direct, none, partial);
  assert_true(found > 200 && none > 20 && direct > 10 && partial > 100);
  cairn_search_destroy(s);
  cairn_search_destroy(t);
}

/* ---- landmarks ------------------------------------------------------ */

/* Random landmarks (1..4, repeats allowed) computed on the graph. */
static uint32_t add_landmarks(cairn_search *s, cairn_graph *g, uint64_t *st) {
  uint32_t nodes[4], k = 1 + tu_below(st, 4);
  for (uint32_t i = 0; i < k; i++) nodes[i] = tu_below(st, cairn_graph_nodes(g));
  assert_int_equal(cairn_graph_compute_landmarks(g, s, nodes, k), CAIRN_OK);
  assert_int_equal(cairn_graph_landmarks(g), k);
  /* 4-byte rows: these graphs' costs all fit in 32 bits */
  assert_int_equal(cairn_graph_landmark_bytes(g),
                   (size_t)k * cairn_graph_nodes(g) * sizeof(uint32_t));
  return k;
}

/* With landmarks, plain A* on random graphs still meets Floyd-Warshall on
 * every pair, and linked A* the extended graph's optimum, with no more
 * expansions than there are nodes. */
static void landmarks_exact(void **state) {
  (void)state;
  static rgraph rg;
  static lgraph L;
  static cairn_cost dist[(LG_MAX_N + 2) * (LG_MAX_N + 2)];
  static cairn_cost all[RG_MAX_N * RG_MAX_N];
  uint64_t seed = 0x1a9d;
  cairn_search *s = new_search();
  for (int iter = 0; iter < 150; iter++) {
    random_graph(&rg, &seed);
    cairn_graph *g = make_graph(&rg.desc);
    add_landmarks(s, g, &seed);
    floyd_warshall(&rg.desc, all);
    check_all_pairs(s, g, all);
    cairn_graph_destroy(g);
  }
  int found = 0;
  for (int iter = 0; iter < 400; iter++) {
    random_linked(&L, &seed);
    cairn_graph *g = make_graph(&L.desc);
    add_landmarks(s, g, &seed);
    const uint32_t n = L.desc.n_nodes;
    floyd_warshall(&L.xdesc, dist);
    cairn_result r;
    cairn_graph_astar_linked(s, g, &L.q, NULL, &r);
    assert_true(r.cost == dist[n * (n + 2) + n + 1]);
    assert_true(r.expanded <= (uint64_t)n + 2);
    if (r.cost != INF) {
      check_linked_path(g, &L.q, &r);
      found++;
    }
    cairn_graph_destroy(g);
  }
  assert_true(found > 150);
  cairn_search_destroy(s);
}

/* On grid graphs with walls, landmarks at the corners find the same costs
 * as the octile heuristic alone with clearly fewer expansions, and never
 * more on any query than Dijkstra. */
static void landmarks_prune(void **state) {
  (void)state;
  uint64_t rng = 0x1a9e;
  cairn_search *s = new_search();
  uint64_t with = 0, without = 0;
  for (int map = 0; map < 6; map++) {
    int w = 30 + (int)tu_below(&rng, 20), h = 30 + (int)tu_below(&rng, 20);
    cairn_grid *grid = tu_random_grid(&rng, w, h, 30, 1);
    cairn_graph_edge *e = malloc(8 * (size_t)w * (size_t)h * sizeof *e);
    double *xy = malloc(2 * (size_t)w * (size_t)h * sizeof *xy);
    assert_true(e && xy);
    cairn_graph *plain = grid_graph(grid, CAIRN_GH_OCTILE, e, xy);
    cairn_graph *lm = grid_graph(grid, CAIRN_GH_OCTILE, e, xy);
    uint32_t corners[4];
    const cairn_point c[4] = {{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}};
    for (int k = 0; k < 4; k++) { /* the open cell nearest each corner */
      int32_t best = INT32_MAX;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          int32_t d = abs(x - c[k].x) + abs(y - c[k].y);
          if (cairn_grid_cost(grid, x, y) && d < best) {
            best = d;
            corners[k] = (uint32_t)(y * w + x);
          }
        }
    }
    assert_int_equal(cairn_graph_compute_landmarks(lm, s, corners, 4), CAIRN_OK);
    for (int q = 0; q < 40; q++) {
      cairn_point a = tu_random_open(&rng, grid), b = tu_random_open(&rng, grid);
      uint32_t va = (uint32_t)(a.y * w + a.x), vb = (uint32_t)(b.y * w + b.x);
      cairn_result rp, rl;
      cairn_graph_astar(s, plain, va, vb, NULL, &rp);
      cairn_graph_astar(s, lm, va, vb, NULL, &rl);
      assert_true(rp.cost == rl.cost);
      if (rl.cost != INF) check_graph_path(lm, &rl, va, vb);
      with += rl.expanded;
      without += rp.expanded;
    }
    cairn_graph_destroy(plain);
    cairn_graph_destroy(lm);
    free(e);
    free(xy);
    cairn_grid_destroy(grid);
  }
  print_message("landmarks: %llu expansions, octile alone %llu\n",
                (unsigned long long)with, (unsigned long long)without);
  assert_true(10 * with < 8 * without);
  cairn_search_destroy(s);
}

/* Refusals leave the graph's landmarks as they were; n = 0 removes them;
 * a failed allocation keeps the old table. */
static void landmarks_errors(void **state) {
  (void)state;
  cairn_graph *g = chain(4);
  cairn_search *s = new_search();
  uint32_t nodes[CAIRN_GRAPH_MAX_LANDMARKS + 1] = {0};
  cairn_cost costs[4 * 2] = {0, 1 * ONE, 2 * ONE, 3 * ONE, INF, INF, 0, ONE};
  assert_int_equal(cairn_graph_set_landmarks(NULL, nodes, 1, costs), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_set_landmarks(g, NULL, 1, costs), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, CAIRN_GRAPH_MAX_LANDMARKS + 1, costs),
                   CAIRN_ERR_TOO_LARGE);
  nodes[0] = 4;
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, 1, costs), CAIRN_ERR_ARG);
  nodes[0] = 1; /* its own cost is 1 * ONE, not 0 */
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, 1, costs), CAIRN_ERR_ARG);
  nodes[0] = 0;
  nodes[1] = 2;
  costs[1] = (cairn_cost)1 << 62;
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, 2, costs), CAIRN_ERR_ARG);
  costs[1] = ONE;
  assert_int_equal(cairn_graph_landmarks(g), 0);
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, 2, costs), CAIRN_OK);
  assert_int_equal(cairn_graph_landmarks(g), 2);
  assert_int_equal(cairn_graph_landmark_bytes(g), 2 * 4 * sizeof(uint32_t));
  /* a cost past 32 bits: 8-byte rows, the same bounds */
  cairn_cost wide[4 * 2] = {0, (cairn_cost)1 << 40, (cairn_cost)1 << 41, INF,
                            INF, INF, 0, ONE};
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, 2, wide), CAIRN_OK);
  assert_int_equal(cairn_graph_landmark_bytes(g), 2 * 4 * sizeof(cairn_cost));
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, 2, costs), CAIRN_OK);
  assert_int_equal(cairn_graph_compute_landmarks(g, NULL, nodes, 1), CAIRN_ERR_ARG);
  nodes[0] = 9;
  assert_int_equal(cairn_graph_compute_landmarks(g, s, nodes, 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_landmarks(g), 2);
  /* the chain from 0: the bound from landmark 0 to goal 3 is exact */
  cairn_result r;
  assert_int_equal(cairn_graph_astar(s, g, 0, 3, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 3 * ONE);
  assert_true(r.expanded == 4);
  assert_int_equal(cairn_graph_set_landmarks(g, NULL, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_graph_landmarks(g), 0);
  assert_int_equal(cairn_graph_landmark_bytes(g), 0);
  cairn_graph_destroy(g);
  /* costs past 32 bits take 8-byte rows and bound the same way */
  cairn_graph_edge big[4] = {{0, 1, 1e9}, {1, 2, 1e9}, {2, 3, 1e9}, {0, 3, 1e9}};
  cairn_graph_desc bd;
  memset(&bd, 0, sizeof bd);
  bd.n_nodes = 4;
  bd.n_edges = 4;
  bd.edges = big;
  g = make_graph(&bd);
  nodes[0] = 0;
  assert_int_equal(cairn_graph_compute_landmarks(g, s, nodes, 1), CAIRN_OK);
  assert_int_equal(cairn_graph_landmark_bytes(g), 4 * sizeof(cairn_cost));
  assert_int_equal(cairn_graph_astar(s, g, 1, 3, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 2 * fixed(1e9));
  assert_int_equal(cairn_graph_astar(s, g, 0, 3, NULL, &r), CAIRN_OK);
  assert_true(r.cost == fixed(1e9));
  assert_true(r.expanded <= 3);
  cairn_graph_destroy(g);
  /* out of memory: the previous landmarks stay */
  counter c = {0, 0, -1};
  cairn_allocator a = {count_fn, &c};
  cairn_graph_edge e[3] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}};
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = 4;
  d.n_edges = 3;
  d.edges = e;
  assert_int_equal(cairn_graph_create(&d, &a, &g), CAIRN_OK);
  nodes[0] = 0;
  assert_int_equal(cairn_graph_compute_landmarks(g, s, nodes, 1), CAIRN_OK);
  c.budget = 0;
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, 2, costs), CAIRN_ERR_NOMEM);
  assert_int_equal(cairn_graph_compute_landmarks(g, s, nodes, 1), CAIRN_ERR_NOMEM);
  assert_int_equal(cairn_graph_landmarks(g), 1);
  c.budget = -1;
  cairn_graph_destroy(g);
  assert_int_equal(c.live, 0);
  cairn_search_destroy(s);
}

/* A chain 0 -> 1 -> 2 -> 3 of cost 1 each, with hand-made queries. */
static void linked_basics(void **state) {
  (void)state;
  cairn_graph *g = chain(4);
  cairn_search *s = new_search();
  cairn_result r;
  cairn_graph_query q;
  memset(&q, 0, sizeof q);
  q.direct = INF;
  /* no links at all: no path, after expanding the start alone */
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r),
                   CAIRN_NO_PATH);
  check_no_path(&r);
  assert_true(r.expanded == 1);
  /* the direct hop only */
  q.direct = 5 * ONE;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  assert_int_equal(r.path_len, 2);
  assert_int_equal(r.nodes[0], 4);
  assert_int_equal(r.nodes[1], 5);
  assert_true(r.cost == 5 * ONE);
  /* through the chain: start -> 0 (2), 0..3 (3), 3 -> goal (1) */
  cairn_graph_link from[3] = {{0, 2 * ONE}, {2, 10 * ONE}, {2, 3 * ONE}};
  cairn_graph_link to[2] = {{3, ONE}, {1, 9 * ONE}};
  q.from_start = from;
  q.n_from_start = 1;
  q.to_goal = to;
  q.n_to_goal = 1;
  q.direct = INF;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  static const uint32_t via_chain[6] = {4, 0, 1, 2, 3, 5};
  assert_int_equal(r.path_len, 6);
  assert_memory_equal(r.nodes, via_chain, sizeof via_chain);
  assert_true(r.cost == 6 * ONE);
  check_linked_path(g, &q, &r);
  /* a cheaper direct hop wins; a dearer one does not */
  q.direct = 6 * ONE - 1;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  assert_int_equal(r.path_len, 2);
  q.direct = 6 * ONE + 1;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  assert_int_equal(r.path_len, 6);
  q.direct = INF;
  /* two start links on node 2: the cheaper one counts (3 + 1 + 1) */
  q.n_from_start = 3;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 5 * ONE);
  static const uint32_t via_2[4] = {4, 2, 3, 5};
  assert_memory_equal(r.nodes, via_2, sizeof via_2);
  /* a node linked both ways: a path of three */
  cairn_graph_link both[1] = {{1, 3 * ONE}};
  q.from_start = both;
  q.n_from_start = 1;
  q.n_to_goal = 2;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 6 * ONE); /* 3 + 2 + 1 via node 3 beats 3 + 9 */
  to[1].cost = ONE;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  static const uint32_t via_1[3] = {4, 1, 5};
  assert_int_equal(r.path_len, 3);
  assert_memory_equal(r.nodes, via_1, sizeof via_1);
  assert_true(r.cost == 4 * ONE);
  /* links the wrong way up the chain: the goal is linked from node 0 only,
   * the start only to node 3; edges run 0 -> 3 */
  cairn_graph_link s3[1] = {{3, ONE}}, g0[1] = {{0, ONE}};
  q.from_start = s3;
  q.to_goal = g0;
  q.n_to_goal = 1;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r),
                   CAIRN_NO_PATH);
  check_no_path(&r);
  /* free links, and the largest link costs allowed */
  s3[0].node = 0;
  s3[0].cost = 0;
  to[0].cost = 0;
  q.to_goal = to;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 3 * ONE);
  s3[0].cost = ((cairn_cost)1 << 62) - 1;
  to[0].cost = ((cairn_cost)1 << 62) - 1;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  assert_true(r.cost == ((cairn_cost)1 << 63) - 2 + 3 * ONE);
  /* a start and goal on the same spot, with a heuristic: still through */
  const double xy[8] = {0, 0, 1, 0, 2, 0, 3, 0};
  const cairn_graph_edge e[3] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}};
  cairn_graph_desc d = {4, xy, 3, e, 0, CAIRN_GH_OCTILE, 1.0};
  cairn_graph *h = make_graph(&d);
  cairn_graph_link a0[1] = {{0, ONE}}, z3[1] = {{3, ONE}};
  cairn_graph_query hq;
  memset(&hq, 0, sizeof hq);
  hq.start_xy[0] = -1;
  hq.goal_xy[0] = 4;
  hq.from_start = a0;
  hq.n_from_start = 1;
  hq.to_goal = z3;
  hq.n_to_goal = 1;
  hq.direct = INF;
  assert_int_equal(cairn_graph_astar_linked(s, h, &hq, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 5 * ONE);
  assert_true(r.expanded == 6); /* a perfect heuristic: the path only */
  /* the start's key is its heuristic: octile (-1, 0) to (4, 0) */
  assert_int_equal(cairn_graph_astar_linked_begin(s, h, &hq, NULL), CAIRN_OK);
  assert_int_equal(s->heap_len, 1);
  assert_int_equal(s->heap[0].node, 4);
  assert_true(s->heap[0].f == 5 * ONE);
  hq.goal_xy[1] = 2; /* now (-1, 0) to (4, 2): 3 straight, 2 diagonal */
  assert_int_equal(cairn_graph_astar_linked_begin(s, h, &hq, NULL), CAIRN_OK);
  assert_true(s->heap[0].f == 3 * ONE + 2 * CAIRN_COST_DIAG);
  cairn_graph_destroy(h);
  /* linked and plain queries share the context */
  assert_int_equal(cairn_graph_astar(s, g, 0, 3, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 3 * ONE);
  assert_int_equal(r.path_len, 4);
  cairn_search_destroy(s);
  cairn_graph_destroy(g);
}

static void linked_errors(void **state) {
  (void)state;
  const double xy[6] = {0, 0, 1, 0, 2, 0};
  const cairn_graph_edge e[2] = {{0, 1, 1}, {1, 2, 1}};
  cairn_graph_desc d = {3, xy, 2, e, 0, CAIRN_GH_EUCLIDEAN, 1.0};
  cairn_graph *g = make_graph(&d);
  d.heuristic = CAIRN_GH_ZERO;
  cairn_graph *z = make_graph(&d);
  cairn_search *s = new_search();
  /* every way from (-1, 0) to (3, 0) costs 4, the heuristic admissible */
  cairn_graph_link from[2] = {{0, ONE}, {1, 2 * ONE}};
  cairn_graph_link to[2] = {{2, ONE}, {1, 2 * ONE}};
  cairn_graph_query ok;
  memset(&ok, 0, sizeof ok);
  ok.start_xy[0] = -1;
  ok.goal_xy[0] = 3;
  ok.from_start = from;
  ok.n_from_start = 2;
  ok.to_goal = to;
  ok.n_to_goal = 2;
  ok.direct = INF;
  cairn_result r;
  assert_int_equal(cairn_graph_astar_linked(s, g, &ok, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 4 * ONE);

  /* every refusal: the status in the result, nothing to step */
  cairn_graph_query bad[12];
  for (int i = 0; i < 12; i++) bad[i] = ok;
  cairn_graph_link far_node[1] = {{3, ONE}};
  cairn_graph_link huge[1] = {{0, (cairn_cost)1 << 62}};
  cairn_graph_link twice[2] = {{1, ONE}, {1, 2 * ONE}};
  bad[0].from_start = far_node;
  bad[0].n_from_start = 1;
  bad[1].to_goal = far_node;
  bad[1].n_to_goal = 1;
  bad[2].from_start = huge;
  bad[2].n_from_start = 1;
  bad[3].to_goal = huge;
  bad[3].n_to_goal = 1;
  bad[4].direct = (cairn_cost)1 << 62;
  bad[5].to_goal = twice;
  bad[5].n_to_goal = 2;
  bad[6].start_xy[1] = NAN;
  bad[7].goal_xy[0] = INFINITY;
  bad[8].start_xy[0] = -INFINITY;
  bad[9].from_start = NULL;
  bad[10].to_goal = NULL;
  bad[11].goal_xy[1] = NAN;
  for (int i = 0; i < 12; i++) {
    assert_int_equal(cairn_graph_astar_linked(s, g, &bad[i], NULL, &r),
                     CAIRN_ERR_ARG);
    assert_int_equal(r.status, CAIRN_ERR_ARG);
    assert_true(r.cost == INF);
    assert_null(r.nodes);
    assert_int_equal(cairn_graph_astar_linked_begin(s, g, &bad[i], NULL),
                     CAIRN_ERR_ARG);
    assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_STATE);
    assert_int_equal(cairn_search_result(s, &r), CAIRN_ERR_ARG);
    /* the context is fine afterwards */
    assert_int_equal(cairn_graph_astar_linked(s, g, &ok, NULL, &r), CAIRN_OK);
    assert_true(r.cost == 4 * ONE);
  }
  /* positions are not read by the zero heuristic */
  for (int i = 6; i <= 8; i++) {
    assert_int_equal(cairn_graph_astar_linked(s, z, &bad[i], NULL, &r),
                     CAIRN_OK);
    assert_true(r.cost == 4 * ONE);
  }
  assert_int_equal(cairn_graph_astar_linked(s, z, &bad[11], NULL, &r),
                   CAIRN_OK);
  /* but bad links are refused there too */
  for (int i = 0; i <= 5; i++)
    assert_int_equal(cairn_graph_astar_linked(s, z, &bad[i], NULL, &r),
                     CAIRN_ERR_ARG);
  /* NULL arrays with no links are fine; the largest costs allowed pass */
  cairn_graph_query empty = ok;
  empty.from_start = NULL;
  empty.n_from_start = 0;
  empty.to_goal = NULL;
  empty.n_to_goal = 0;
  empty.direct = ((cairn_cost)1 << 62) - 1;
  assert_int_equal(cairn_graph_astar_linked(s, g, &empty, NULL, &r), CAIRN_OK);
  assert_true(r.cost == ((cairn_cost)1 << 62) - 1);
  /* NULL arguments */
  assert_int_equal(cairn_graph_astar_linked(NULL, g, &ok, NULL, &r),
                   CAIRN_ERR_ARG);
  assert_true(r.cost == INF);
  assert_int_equal(cairn_graph_astar_linked(s, NULL, &ok, NULL, &r),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_astar_linked(s, g, NULL, NULL, &r),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_STATE);
  assert_int_equal(cairn_graph_astar_linked_begin(NULL, g, &ok, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_astar_linked_begin(s, NULL, &ok, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_astar_linked_begin(s, g, NULL, NULL),
                   CAIRN_ERR_ARG);
  /* a refusal hides the previous answer */
  assert_int_equal(cairn_graph_astar_linked(s, g, &ok, NULL, &r), CAIRN_OK);
  assert_int_equal(cairn_graph_astar_linked(s, g, &bad[5], NULL, &r),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_ERR_ARG);
  assert_true(r.cost == INF);
  /* only max_expanded is read from the options */
  cairn_search_opts o = cairn_search_defaults();
  o.moves = 3;
  o.weight = 0;
  o.heuristic = (cairn_heuristic)99;
  o.bounds.w = -5;
  assert_int_equal(cairn_graph_astar_linked(s, g, &ok, &o, &r), CAIRN_OK);
  assert_true(r.cost == 4 * ONE);
  cairn_search_destroy(s);
  cairn_graph_destroy(z);
  cairn_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(region_table),
      cmocka_unit_test(random_graphs),
      cmocka_unit_test(csr_order),
      cmocka_unit_test(cost_conversion),
      cmocka_unit_test(create_errors),
      cmocka_unit_test(cost_bound),
      cmocka_unit_test(begin_errors),
      cmocka_unit_test(max_expanded),
      cmocka_unit_test(sliced),
      cmocka_unit_test(hex_maps),
      cmocka_unit_test(hex_edges_consistent),
      cmocka_unit_test(hex_matches_general),
      cmocka_unit_test(hex_layout),
      cmocka_unit_test(heuristic_values),
      cmocka_unit_test(hex_errors),
      cmocka_unit_test(create_nomem),
      cmocka_unit_test(query_memory),
      cmocka_unit_test(context_reuse),
      cmocka_unit_test(octile_values),
      cmocka_unit_test(octile_grid_graphs),
      cmocka_unit_test(linked_random),
      cmocka_unit_test(linked_basics),
      cmocka_unit_test(linked_errors),
      cmocka_unit_test(landmarks_exact),
      cmocka_unit_test(landmarks_prune),
      cmocka_unit_test(landmarks_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
