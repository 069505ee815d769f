/* Hex maps and the octile heuristic: hex graphs against Bellman-Ford and
 * the general graph, their edges and layout, the heuristics' values, refused
 * hex input; octile values and grid graphs against the grid search. */
#include "test_util.h"
#include "test_graph_util.h"

#include "search_internal.h" /* to read h off the heap after begin */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- hex maps ------------------------------------------------------- */

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
  uint64_t seed = 0x4e7;
  uint8_t cost[HN];
  cairn_cost dist[HN];
  cairn_search *s = *state;
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
  uint64_t seed = 0x9e9;
  uint8_t cost[HN];
  static cairn_graph_edge e[6 * HN];
  double xy[2 * HN];
  cairn_search *s = *state;
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
}

static void hex_layout(void **state) {
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
  cairn_search *s = *state;
  cairn_result r;
  assert_int_equal(cairn_graph_astar(s, g, 4, 4, NULL, &r), CAIRN_OK);
  assert_int_equal(cairn_graph_astar(s, g, 4, 5, NULL, &r), CAIRN_NO_PATH);
  /* around the hole: 3 -> 1 -> 2 -> 5 or 3 -> 7 -> 8 -> 5 */
  assert_int_equal(cairn_graph_astar(s, g, 3, 5, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 3 * ONE);
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
  cairn_search *s = *state;
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

/* ---- the octile heuristic ------------------------------------------- */

static void octile_values(void **state) {
  cairn_search *s = *state;
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
}

/* On the graph of a grid, A* with the octile heuristic finds the grid's
 * A* cost, along a path that is a valid grid path, expanding no more than
 * Dijkstra on the same graph (and much less in all). */
static void octile_grid_graphs(void **state) {
  uint64_t rng = 0x0c71;
  cairn_search *s = *state;
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
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(hex_maps),
      cmocka_unit_test(hex_edges_consistent),
      tu_with_search(hex_matches_general),
      tu_with_search(hex_layout),
      tu_with_search(heuristic_values),
      cmocka_unit_test(hex_errors),
      tu_with_search(octile_values),
      tu_with_search(octile_grid_graphs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
