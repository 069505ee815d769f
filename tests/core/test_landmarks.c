/* Graph landmarks: A* and linked A* with landmarks stay exact on random
 * graphs, landmarks prune expansions, refusals and allocation failures. */
#include "test_util.h"
#include "test_graph_util.h"

#include "search_internal.h" /* to read h off the heap after begin */

#include <stdlib.h>
#include <string.h>

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
  static rgraph rg;
  static lgraph L;
  static cairn_cost dist[(LG_MAX_N + 2) * (LG_MAX_N + 2)];
  static cairn_cost all[RG_MAX_N * RG_MAX_N];
  uint64_t seed = 0x1a9d;
  cairn_search *s = *state;
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
}

/* On grid graphs with walls, landmarks at the corners find the same costs
 * as the octile heuristic alone with clearly fewer expansions, and never
 * more on any query than Dijkstra. */
static void landmarks_prune(void **state) {
  uint64_t rng = 0x1a9e;
  cairn_search *s = *state;
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
}

/* The 4-byte form takes the same table as the 8-byte one (UINT32_MAX for
 * unreachable), refuses what it refuses, and reads back the same. */
static void landmarks_32(void **state) {
  (void)state;
  cairn_graph *g = chain(4);
  uint32_t nodes[2] = {0, 2};
  uint32_t c32[4 * 2] = {0, 1 * ONE, 2 * ONE, 3 * ONE, UINT32_MAX, UINT32_MAX, 0, ONE};
  assert_int_equal(cairn_graph_set_landmarks32(NULL, nodes, 1, c32), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_set_landmarks32(g, NULL, 1, c32), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_set_landmarks32(g, nodes, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_set_landmarks32(g, nodes, CAIRN_GRAPH_MAX_LANDMARKS + 1, c32),
                   CAIRN_ERR_TOO_LARGE);
  nodes[1] = 4; /* off the graph */
  assert_int_equal(cairn_graph_set_landmarks32(g, nodes, 2, c32), CAIRN_ERR_ARG);
  nodes[1] = 1; /* its own cost is not 0 */
  assert_int_equal(cairn_graph_set_landmarks32(g, nodes, 2, c32), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_landmarks(g), 0);
  nodes[1] = 2;
  assert_int_equal(cairn_graph_set_landmarks32(g, nodes, 2, c32), CAIRN_OK);
  assert_int_equal(cairn_graph_landmarks(g), 2);
  assert_int_equal(cairn_graph_landmark_bytes(g), 2 * 4 * sizeof(uint32_t));
  for (uint32_t i = 0; i < 2; i++)
    for (uint32_t v = 0; v < 4; v++) {
      cairn_cost want = c32[i * 4 + v] == UINT32_MAX ? INF : c32[i * 4 + v];
      assert_true(cairn_graph_landmark_cost(g, i, v) == want);
    }
  assert_int_equal(cairn_graph_landmark_node(g, 1), 2);
  assert_int_equal(cairn_graph_set_landmarks32(g, NULL, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_graph_landmarks(g), 0);
  cairn_graph_destroy(g);
}

/* Refusals leave the graph's landmarks as they were; n = 0 removes them;
 * a failed allocation keeps the old table. */
static void landmarks_errors(void **state) {
  cairn_graph *g = chain(4);
  cairn_search *s = *state;
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
  /* read back as given, both widths (save formats store the table) */
  for (uint32_t i = 0; i < 2; i++)
    for (uint32_t v = 0; v < 4; v++) assert_true(cairn_graph_landmark_cost(g, i, v) == costs[i * 4 + v]);
  assert_int_equal(cairn_graph_landmark_node(g, 0), 0);
  assert_int_equal(cairn_graph_landmark_node(g, 1), 2);
  assert_int_equal(cairn_graph_set_landmarks(g, nodes, 2, wide), CAIRN_OK);
  assert_int_equal(cairn_graph_landmark_bytes(g), 2 * 4 * sizeof(cairn_cost));
  for (uint32_t i = 0; i < 2; i++)
    for (uint32_t v = 0; v < 4; v++) assert_true(cairn_graph_landmark_cost(g, i, v) == wide[i * 4 + v]);
  assert_true(cairn_graph_landmark_cost(g, 2, 0) == INF); /* out of range */
  assert_true(cairn_graph_landmark_cost(g, 0, 4) == INF);
  assert_true(cairn_graph_landmark_cost(NULL, 0, 0) == INF);
  assert_int_equal(cairn_graph_landmark_node(g, 2), UINT32_MAX);
  assert_int_equal(cairn_graph_landmark_node(NULL, 0), UINT32_MAX);
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
  g = edges_graph(4, big, 4);
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
}

/* A copied table reads back as the source's, in either width, bounds the
 * copy's searches (edges dearer than the source's: still exact) and leaves
 * with the source's landmarks gone; refusals and a failed allocation
 * leave the copy's own table. */
static void landmarks_copied(void **state) {
  cairn_search *s = *state;
  cairn_graph_edge cheap[4] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {0, 3, 5}};
  cairn_graph_edge dear[4] = {{0, 1, 2}, {1, 2, 2}, {2, 3, 2}, {0, 3, 5}};
  cairn_graph *src = edges_graph(4, cheap, 4), *dst = edges_graph(4, dear, 4);
  cairn_graph *small = chain(3);
  uint32_t nodes[2] = {0, 3};
  assert_int_equal(cairn_graph_compute_landmarks(src, s, nodes, 2), CAIRN_OK);
  assert_int_equal(cairn_graph_copy_landmarks(NULL, src), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_copy_landmarks(dst, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_copy_landmarks(small, src), CAIRN_ERR_ARG);
  assert_int_equal(cairn_graph_landmarks(small), 0);
  assert_int_equal(cairn_graph_copy_landmarks(dst, src), CAIRN_OK);
  assert_int_equal(cairn_graph_landmarks(dst), 2);
  assert_int_equal(cairn_graph_landmark_bytes(dst), cairn_graph_landmark_bytes(src));
  for (uint32_t i = 0; i < 2; i++) {
    assert_int_equal(cairn_graph_landmark_node(dst, i), nodes[i]);
    for (uint32_t v = 0; v < 4; v++)
      assert_true(cairn_graph_landmark_cost(dst, i, v) == cairn_graph_landmark_cost(src, i, v));
  }
  cairn_result r;
  assert_int_equal(cairn_graph_astar(s, dst, 0, 3, NULL, &r), CAIRN_OK);
  assert_true(r.cost == fixed(5)); /* the direct edge beats the chain's 6 */
  assert_int_equal(cairn_graph_astar(s, dst, 1, 3, NULL, &r), CAIRN_OK);
  assert_true(r.cost == fixed(4));
  /* 8-byte rows copy as 8-byte rows */
  cairn_cost wide[4 * 1] = {0, (cairn_cost)1 << 40, (cairn_cost)1 << 41, (cairn_cost)1 << 42};
  assert_int_equal(cairn_graph_set_landmarks(src, nodes, 1, wide), CAIRN_OK);
  assert_int_equal(cairn_graph_copy_landmarks(dst, src), CAIRN_OK);
  assert_int_equal(cairn_graph_landmark_bytes(dst), 4 * sizeof(cairn_cost));
  assert_true(cairn_graph_landmark_cost(dst, 0, 3) == wide[3]);
  /* out of memory: the copy keeps its table */
  counter c = {0, 0, -1};
  cairn_allocator a = {count_fn, &c};
  cairn_graph *counted;
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = 4;
  d.n_edges = 4;
  d.edges = cheap;
  assert_int_equal(cairn_graph_create(&d, &a, &counted), CAIRN_OK);
  assert_int_equal(cairn_graph_compute_landmarks(src, s, nodes, 2), CAIRN_OK);
  assert_int_equal(cairn_graph_copy_landmarks(counted, src), CAIRN_OK);
  assert_int_equal(cairn_graph_set_landmarks(src, nodes, 1, wide), CAIRN_OK);
  c.budget = 0;
  assert_int_equal(cairn_graph_copy_landmarks(counted, src), CAIRN_ERR_NOMEM);
  c.budget = -1;
  assert_int_equal(cairn_graph_landmarks(counted), 2);
  /* a source without landmarks takes the copy's away */
  assert_int_equal(cairn_graph_set_landmarks(src, NULL, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_graph_copy_landmarks(counted, src), CAIRN_OK);
  assert_int_equal(cairn_graph_landmarks(counted), 0);
  assert_int_equal(cairn_graph_landmark_bytes(counted), 0);
  cairn_graph_destroy(counted);
  assert_int_equal(c.live, 0);
  cairn_graph_destroy(src);
  cairn_graph_destroy(dst);
  cairn_graph_destroy(small);
}

/* A linked query bounded by another graph's table (cairn_graph_query.
 * bounds): the same nodes and edges, each edge at most as dear, with
 * landmarks of its own, the searched graph with none. It meets the
 * extended graph's optimum with no more expansions than there are nodes;
 * bounded by the graph's own table it is the very search the table gives;
 * a graph of another size is refused, and a sliced search stops when the
 * bounding graph's landmarks change, not the searched one's. */
static void landmarks_borrowed(void **state) {
  static lgraph L;
  static cairn_graph_edge cheaper[4 * LG_MAX_N];
  static cairn_cost dist[(LG_MAX_N + 2) * (LG_MAX_N + 2)];
  uint64_t seed = 0xb0a7d5;
  cairn_search *s = *state;
  int found = 0, fewer = 0;
  for (int iter = 0; iter < 400; iter++) {
    random_linked(&L, &seed);
    const uint32_t n = L.desc.n_nodes;
    cairn_graph_desc ld = L.desc;
    for (size_t k = 0; k < ld.n_edges; k++) {
      cheaper[k] = L.desc.edges[k];
      cheaper[k].cost = L.desc.edges[k].cost * (0.25 + 0.75 * unit(&seed));
    }
    ld.edges = cheaper;
    cairn_graph *g = make_graph(&L.desc), *lo = make_graph(&ld);
    add_landmarks(s, lo, &seed);
    floyd_warshall(&L.xdesc, dist);
    cairn_result plain, r;
    cairn_graph_astar_linked(s, g, &L.q, NULL, &plain);
    cairn_graph_query q = L.q;
    q.bounds = lo;
    cairn_graph_astar_linked(s, g, &q, NULL, &r);
    assert_true(r.cost == dist[n * (n + 2) + n + 1]);
    assert_true(r.cost == plain.cost);
    assert_true(r.expanded <= (uint64_t)n + 2);
    fewer += r.expanded < plain.expanded;
    if (r.cost != INF) {
      check_linked_path(g, &L.q, &r);
      found++;
    }
    /* bounded by its own table: the search that table makes */
    add_landmarks(s, g, &seed);
    cairn_graph_astar_linked(s, g, &L.q, NULL, &plain);
    q.bounds = g;
    cairn_graph_astar_linked(s, g, &q, NULL, &r);
    assert_true(r.cost == plain.cost && r.expanded == plain.expanded &&
                r.generated == plain.generated);
    cairn_graph_destroy(lo);
    cairn_graph_destroy(g);
  }
  print_message("borrowed: %d found, %d with fewer expansions\n", found, fewer);
  assert_true(found > 150 && fewer > 20);
  /* another size is refused; the bounding graph's landmarks stop a sliced
   * search, the searched graph's do not */
  cairn_graph *g = chain(4), *lo = chain(4), *small = chain(3);
  uint32_t nodes[1] = {3};
  assert_int_equal(cairn_graph_compute_landmarks(lo, s, nodes, 1), CAIRN_OK);
  cairn_graph_link a0[1] = {{0, ONE}}, z3[1] = {{3, ONE}};
  cairn_graph_query q;
  memset(&q, 0, sizeof q);
  q.from_start = a0;
  q.n_from_start = 1;
  q.to_goal = z3;
  q.n_to_goal = 1;
  q.direct = INF;
  q.bounds = small;
  cairn_result r;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_ERR_ARG);
  q.bounds = lo;
  assert_int_equal(cairn_graph_astar_linked(s, g, &q, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 5 * ONE);
  assert_int_equal(cairn_graph_astar_linked_begin(s, g, &q, NULL), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_IN_PROGRESS);
  cairn_search *t = new_search(); /* s holds the sliced search */
  assert_int_equal(cairn_graph_compute_landmarks(g, t, nodes, 1), CAIRN_OK);
  cairn_search_destroy(t);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_IN_PROGRESS);
  assert_int_equal(cairn_graph_set_landmarks(lo, NULL, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_STATE);
  cairn_graph_destroy(small);
  cairn_graph_destroy(lo);
  cairn_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(landmarks_exact),
      tu_with_search(landmarks_prune),
      tu_with_search(landmarks_errors),
      tu_with_search(landmarks_32),
      tu_with_search(landmarks_copied),
      tu_with_search(landmarks_borrowed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
