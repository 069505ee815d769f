/* Graphs: CSR building and layout, graphs made from rows, validation, a region table, graph A* (blocking, sliced, limited)
 * against Floyd-Warshall on random graphs, cost conversion and bounds, and
 * memory (allocation failures, reserved queries, context reuse). */
#include "test_util.h"
#include "test_graph_util.h"

#include "search_internal.h" /* to read h off the heap after begin */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- random graphs and Floyd-Warshall ------------------------------- */

static void random_graphs(void **state) {
  static rgraph rg;
  static cairn_cost dist[RG_MAX_N * RG_MAX_N];
  uint64_t seed = 0x5eed0001;
  cairn_search *s = *state;
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
}

/* ---- straight from rows --------------------------------------------- */

/* A graph begun for g's size (positions as g's desc has them), its rows
 * copied from g. */
static cairn_graph *rows_of(const cairn_graph *g, const double *xy, cairn_graph_rows *rows) {
  const uint32_t n = cairn_graph_nodes(g);
  cairn_graph *c = NULL;
  assert_int_equal(cairn_graph_rows_begin(n, cairn_graph_edges(g), xy != NULL, NULL, &c, rows),
                   CAIRN_OK);
  rows->offset[0] = 0;
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t *t;
    const cairn_cost *cost;
    uint32_t deg = cairn_graph_neighbours(g, v, &t, &cost);
    rows->offset[v + 1] = rows->offset[v] + deg;
    memcpy(rows->target + rows->offset[v], t, deg * sizeof *t);
    memcpy(rows->cost + rows->offset[v], cost, deg * sizeof *cost);
  }
  if (xy) memcpy(rows->xy, xy, 2 * (size_t)n * sizeof *xy);
  return c;
}

/* cairn_graph_rows_done on a copy of g with one value broken by `how`:
 * refused, and the graph gone. */
static void refused_rows(const cairn_graph *g, const double *xy, int how) {
  cairn_graph_rows rows;
  cairn_graph *c = rows_of(g, xy, &rows);
  const uint32_t n = cairn_graph_nodes(g);
  const size_t m = cairn_graph_edges(g);
  switch (how) {
  case 0: rows.offset[n] = (uint32_t)m + 1; break;      /* past the edges */
  case 1: rows.offset[0] = 1; break;                     /* not from 0 */
  case 2: rows.target[m - 1] = n; break;                 /* no such node */
  case 3: rows.cost[0] = 0; break;                       /* free */
  case 4: rows.cost[0] = (cairn_cost)2e9 * ONE; break;   /* dearer than 1e9 steps */
  case 5: rows.xy[1] = NAN; break;                       /* not finite */
  default: /* offsets falling then rising: the total still m */
    rows.offset[1] = rows.offset[2] + 1;
  }
  cairn_status st = cairn_graph_rows_done(&c, CAIRN_GH_EUCLIDEAN, 1.0);
  assert_int_equal(st, CAIRN_ERR_ARG);
  assert_null(c);
}

/* Rows copied from a created graph make the same graph, answering alike;
 * each broken value is refused. */
static void graph_rows(void **state) {
  static rgraph rg;
  static cairn_cost dist[RG_MAX_N * RG_MAX_N];
  uint64_t seed = 0x5eed0c5;
  cairn_search *s = *state;
  for (int iter = 0; iter < 200; iter++) {
    random_graph(&rg, &seed);
    rg.desc.undirected = 0;
    cairn_graph *g = make_graph(&rg.desc);
    const double *xy = rg.desc.heuristic == CAIRN_GH_ZERO ? NULL : rg.xy;
    cairn_graph_rows rows;
    cairn_graph *c = rows_of(g, xy, &rows);
    assert_int_equal(cairn_graph_rows_done(&c, rg.desc.heuristic, rg.desc.h_scale), CAIRN_OK);
    tu_assert_same_graph(g, c);
    floyd_warshall(&rg.desc, dist);
    check_all_pairs(s, c, dist);
    if (rg.desc.n_edges >= 2 && xy)
      for (int how = 0; how <= 6; how++) refused_rows(g, xy, how);
    cairn_graph_destroy(c);
    cairn_graph_destroy(g);
  }
  cairn_graph_rows rows;
  cairn_graph *none = (cairn_graph *)&none;
  assert_int_equal(cairn_graph_rows_begin(0, 0, 0, NULL, &none, &rows), CAIRN_ERR_ARG);
  assert_null(none);
  assert_int_equal(cairn_graph_rows_begin(4, (size_t)CAIRN_GRAPH_MAX_EDGES + 1, 0, NULL, &none,
                                          &rows),
                   CAIRN_ERR_TOO_LARGE);
  assert_null(none);
  assert_int_equal(cairn_graph_rows_begin(4, 1, 0, NULL, NULL, &rows), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_rows_begin(4, 1, 0, NULL, &none, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_rows_done(NULL, CAIRN_GH_ZERO, 0), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_rows_done(&none, CAIRN_GH_ZERO, 0), CAIRN_ERR_ARG);
  /* the bound on simple paths: 80000 nodes, so (n - 1) x the dearest edge
   * passes 2^62; then the sum of the edges decides */
  const uint32_t n = 80000;
  for (size_t m = 60000; m <= 80000; m += 20000) {
    cairn_graph *g = NULL;
    assert_int_equal(cairn_graph_rows_begin(n, m, 0, NULL, &g, &rows), CAIRN_OK);
    for (uint32_t v = 0; v <= n; v++) rows.offset[v] = v < m ? v : (uint32_t)m;
    for (size_t k = 0; k < m; k++) {
      rows.target[k] = (uint32_t)(k + 1) % n;
      rows.cost[k] = (cairn_cost)1000000000 * ONE;
    }
    cairn_status want = m == 80000 ? CAIRN_ERR_TOO_LARGE : CAIRN_OK;
    assert_int_equal(cairn_graph_rows_done(&g, CAIRN_GH_ZERO, 0), want);
    assert_true(want == CAIRN_OK ? g != NULL : g == NULL);
    cairn_graph_destroy(g);
  }
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
  cairn_graph_desc d = region_desc();
  cairn_graph *g = make_graph(&d);
  cairn_cost dist[N_REGIONS * N_REGIONS];
  floyd_warshall(&d, dist);
  cairn_search *s = *state;
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
  cairn_graph_destroy(g);
}

/* ---- CSR layout ----------------------------------------------------- */

static void csr_order(void **state) {
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
  cairn_search *s = *state;
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
  cairn_search *s = *state;
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
  cairn_graph_destroy(g);
  free(e);
}

static void begin_errors(void **state) {
  cairn_graph_desc d = region_desc();
  cairn_graph *g = make_graph(&d);
  cairn_search *s = *state;
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
  cairn_graph_destroy(g);
}

/* ---- node limit and sliced search ----------------------------------- */

static void max_expanded(void **state) {
  cairn_graph *g = chain(20);
  cairn_search *s = *state;
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
  cairn_graph_destroy(g);
}

static void sliced(void **state) {
  static rgraph rg;
  uint64_t seed = 0x511ced;
  cairn_search *s = *state;
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
  cairn_search *s = *state;
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
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(region_table),
      tu_with_search(random_graphs),
      tu_with_search(csr_order),
      tu_with_search(graph_rows),
      cmocka_unit_test(cost_conversion),
      cmocka_unit_test(create_errors),
      tu_with_search(cost_bound),
      tu_with_search(begin_errors),
      tu_with_search(max_expanded),
      tu_with_search(sliced),
      cmocka_unit_test(create_nomem),
      cmocka_unit_test(query_memory),
      tu_with_search(context_reuse),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
