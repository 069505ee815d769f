/* Linked graph queries (start and goal joined to the graph by links): random
 * queries against the extended graph's Floyd-Warshall optimum, hand-made
 * cases on a chain, refusals. */
#include "test_util.h"
#include "test_graph_util.h"

#include "search_internal.h" /* to read h off the heap after begin */

#include <math.h>
#include <string.h>

/* ---- linked queries ------------------------------------------------- */

/* Linked A* answers as plain A* on the graph with the start and goal made
 * real nodes, and as Floyd-Warshall on that graph; sliced in single
 * expansions it ends the same, and a node limit below its expansions stops
 * it with CAIRN_PARTIAL. */
static void linked_random(void **state) {
  static lgraph L;
  static cairn_cost dist[(LG_MAX_N + 2) * (LG_MAX_N + 2)];
  uint64_t seed = 0x11c4ed;
  cairn_search *s = *state, *t = new_search();
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
  cairn_search_destroy(t);
}

/* A chain 0 -> 1 -> 2 -> 3 of cost 1 each, with hand-made queries. */
static void linked_basics(void **state) {
  cairn_graph *g = chain(4);
  cairn_search *s = *state;
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
  cairn_graph_destroy(g);
}

static void linked_errors(void **state) {
  const double xy[6] = {0, 0, 1, 0, 2, 0};
  const cairn_graph_edge e[2] = {{0, 1, 1}, {1, 2, 1}};
  cairn_graph_desc d = {3, xy, 2, e, 0, CAIRN_GH_EUCLIDEAN, 1.0};
  cairn_graph *g = make_graph(&d);
  d.heuristic = CAIRN_GH_ZERO;
  cairn_graph *z = make_graph(&d);
  cairn_search *s = *state;
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
  cairn_graph_destroy(z);
  cairn_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(linked_random),
      tu_with_search(linked_basics),
      tu_with_search(linked_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
