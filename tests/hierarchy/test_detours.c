/* Hierarchy (HPA*) islands and detours on hand-made maps: the island short-
 * cut (no search between islands), a detour forced through the one gap in a
 * cluster border, a detour out of a cluster split by a wall, a crossing at a
 * diagonal cluster corner, clusters with one entrance. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_hpa_util.h"

#include "cairn/hierarchy.h"
#include "hpa_internal.h"

#include <stdbool.h>

/* ---- helpers -------------------------------------------------------- */

static bool path_has_step(const cairn_point *p, size_t n, cairn_point a,
                          cairn_point b) {
  for (size_t i = 1; i < n; i++)
    if (p[i - 1].x == a.x && p[i - 1].y == a.y && p[i].x == b.x && p[i].y == b.y)
      return true;
  return false;
}

/* ---- islands -------------------------------------------------------- */

static void assert_no_path_unsearched(cairn_hpa_query *q, const cairn_hpa *h,
                                      cairn_point a, cairn_point b) {
  for (int v = 0; v < 3; v++) {
    cairn_hpa_path_opts o = v == 0 ? popts(0, 1) : v == 1 ? popts(-1, 1) : popts(0, 0);
    cairn_hpa_result r;
    assert_int_equal(cairn_hpa_find(q, h, a, b, &o, &r), CAIRN_NO_PATH);
    assert_int_equal(r.status, CAIRN_NO_PATH);
    assert_true(r.expanded == 0);
    assert_true(r.cost == CAIRN_COST_INF);
    assert_null(r.path);
    assert_int_equal(r.path_len, 0);
    assert_int_equal(cairn_hpa_plan(q, h, a, b, &o, &r), CAIRN_NO_PATH);
    assert_true(r.expanded == 0);
    assert_int_equal(cairn_hpa_refine(q, 1, &r), CAIRN_NO_PATH);
  }
}

static void islands_short_cut(void **state) {
  (void)state;
  /* 64 x 32, a wall down column 31 with one gap at row 10 */
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(64, 32, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < 32; y++)
    if (y != 10) assert_int_equal(cairn_grid_set_cost(g, 31, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  cairn_hpa *h = build(g, 8, 0);
  cairn_hpa_query *q = new_query();
  cairn_point a = pt(5, 25), b = pt(60, 28), near_a = pt(30, 25), near_b = pt(32, 25);
  cairn_hpa_result r;
  assert_int_equal(cairn_hpa_find(q, h, a, b, NULL, &r), CAIRN_OK);
  assert_true(path_has_step(r.path, r.path_len, pt(30, 10), pt(31, 10)) ||
              path_has_step(r.path, r.path_len, pt(31, 10), pt(32, 10)));
  assert_true(tu_path_cost(g, r.path, r.path_len, a, b, 8) == r.cost);
  /* close the gap: the edit refreshes the islands, so no search */
  cairn_point gap = pt(31, 10);
  uint8_t wall = 0, open = 1;
  assert_int_equal(cairn_hpa_edit(h, g, &gap, &wall, 1), CAIRN_OK);
  assert_true(cairn_grid_islands_fresh(g));
  assert_no_path_unsearched(q, h, a, b);
  assert_no_path_unsearched(q, h, near_a, near_b); /* nearby: no plain A* */
  assert_matches_fresh(h, g, 8, &(uint64_t){3}, 20);
  /* open it again */
  assert_int_equal(cairn_hpa_edit(h, g, &gap, &open, 1), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(q, h, a, b, NULL, &r), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(q, h, near_a, near_b, NULL, &r), CAIRN_OK);
  cairn_hpa_destroy(h);

  /* a grid built split from the start */
  assert_int_equal(cairn_grid_set_cost(g, 31, 10, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  h = build(g, 8, 0);
  assert_no_path_unsearched(q, h, a, b);
  cairn_hpa_destroy(h);

  /* stale islands: the hierarchy does not refresh them, so it searches */
  assert_int_equal(cairn_grid_set_cost(g, 0, 0, 0), CAIRN_OK);
  assert_false(cairn_grid_islands_fresh(g));
  h = build(g, 8, 0);
  assert_false(cairn_grid_islands_fresh(g));
  for (int v = 0; v < 2; v++) {
    cairn_hpa_path_opts o = popts(v ? -1 : 0, 1);
    assert_int_equal(cairn_hpa_find(q, h, a, b, &o, &r), CAIRN_NO_PATH);
    assert_true(r.expanded > 0);
    assert_true(r.cost == CAIRN_COST_INF);
    assert_int_equal(r.path_len, 0);
    assert_int_equal(cairn_hpa_find(q, h, near_a, near_b, &o, &r), CAIRN_NO_PATH);
    assert_true(r.expanded > 0);
  }
  /* cairn_hpa_update refreshes them */
  cairn_rect cell = {0, 0, 1, 1};
  assert_int_equal(cairn_hpa_update(h, g, cell), CAIRN_OK);
  assert_true(cairn_grid_islands_fresh(g));
  assert_no_path_unsearched(q, h, a, b);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* ---- hand-made maps ------------------------------------------------- */

/* The fixture of the hand-made 16-row maps below: the map (the test's
 * initial state), its hierarchy of 8 x 8 clusters, a query context and a
 * search context for A*. */
typedef struct hand_made {
  cairn_grid *g;
  cairn_hpa *h;
  cairn_hpa_query *q;
  cairn_search *s;
} hand_made;

static int hand_made_setup(void **state) {
  const char *const *rows = *state;
  hand_made *m = calloc(1, sizeof *m);
  if (!m) return -1;
  *state = m;
  m->g = tu_grid(rows, 16);
  m->h = build(m->g, 8, 0);
  m->q = new_query();
  return cairn_search_create(NULL, &m->s) == CAIRN_OK ? 0 : -1;
}

static int hand_made_teardown(void **state) {
  hand_made *m = *state;
  cairn_search_destroy(m->s);
  cairn_hpa_query_destroy(m->q);
  cairn_hpa_destroy(m->h);
  cairn_grid_destroy(m->g);
  free(m);
  return 0;
}

/* The CMUnitTest of a test on the hand-made map `rows`. */
#define on_map(test, rows)                                                  \
  cmocka_unit_test_prestate_setup_teardown(test, hand_made_setup,           \
                                           hand_made_teardown, (void *)(rows))

/* A wall down column 16 (a cluster border) with one gap at row 2; start and
 * goal below, on both sides: every route goes up through the gap. */
static const char *const gap_map[] = {
    "................#...............",
    "................#...............",
    "................................",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
    "................#...............",
};

static void forced_detour_through_gap(void **state) {
  hand_made *m = *state;
  cairn_grid *g = m->g;
  cairn_hpa *h = m->h;
  cairn_hpa_query *q = m->q;
  cairn_search *s = m->s;
  /* start and goal in the two clusters below the gap, placed so that an
   * optimal path can cross the open border above each at its entrance
   * (x = 15 on the west, x = 17 on the east): the hierarchy must match A* */
  const cairn_point pairs[][2] = {{{12, 13}, {19, 13}}, {{15, 9}, {17, 9}},
                                  {{10, 14}, {21, 15}}, {{19, 13}, {12, 13}},
                                  {{21, 15}, {10, 14}}};
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
    cairn_point a = pairs[i][0], b = pairs[i][1];
    cairn_cost best;
    assert_int_equal(astar(s, g, a, b, &best), CAIRN_OK);
    for (int smooth = 0; smooth < 2; smooth++) {
      cairn_hpa_path_opts o = popts(0, smooth);
      cairn_hpa_result r;
      assert_int_equal(cairn_hpa_find(q, h, a, b, &o, &r), CAIRN_OK);
      assert_int_equal(r.plain, 0);
      assert_true(r.route_len >= 4); /* start, two gap entrances, goal */
      cairn_path_check chk;
      cairn_grid_check_path(g, r.path, r.path_len, a, b, 8, &chk);
      assert_true(chk.valid);
      assert_true(tu_path_cost(g, r.path, r.path_len, a, b, 8) == r.cost);
      bool east = a.x < b.x;
      assert_true(path_has_step(r.path, r.path_len, east ? pt(15, 2) : pt(17, 2), pt(16, 2)));
      assert_true(path_has_step(r.path, r.path_len, pt(16, 2), east ? pt(17, 2) : pt(15, 2)));
      if (r.cost != best)
        fail_msg("(%d,%d)->(%d,%d) smooth %d: cost %.4f, A* %.4f", a.x, a.y,
                 b.x, b.y, smooth, cairn_cost_to_double(r.cost),
                 cairn_cost_to_double(best));
      assert_true(r.route_cost == best);
    }
  }
}

/* Start and goal in one cluster, split inside it by a wall: the route
 * leaves the cluster and comes back. */
static const char *const u_map[] = {
    "....#...........", "....#...........", "....#...........",
    "....#...........", "....#...........", "....#...........",
    "....#...........", "....#...........", "................",
    "................", "................", "................",
    "................", "................", "................",
    "................",
};

static void detour_out_of_cluster(void **state) {
  hand_made *m = *state;
  cairn_grid *g = m->g;
  cairn_hpa *h = m->h;
  cairn_hpa_query *q = m->q;
  cairn_search *s = m->s;
  cairn_point a = pt(2, 3), b = pt(6, 3);
  cairn_cost best;
  assert_int_equal(astar(s, g, a, b, &best), CAIRN_OK);
  for (int smooth = 0; smooth < 2; smooth++) {
    cairn_hpa_path_opts o = popts(0, smooth);
    cairn_hpa_result r;
    assert_int_equal(cairn_hpa_find(q, h, a, b, &o, &r), CAIRN_OK);
    assert_int_equal(r.plain, 0);
    assert_true(tu_path_cost(g, r.path, r.path_len, a, b, 8) == r.cost);
    assert_true(r.cost >= best);
    assert_true(r.cost <= r.route_cost);
    bool below = false; /* it went through cluster (0, 1) */
    for (size_t k = 0; k < r.path_len; k++) below |= r.path[k].y >= 8;
    assert_true(below);
  }
}

/* Four 8 x 8 clusters; only the top-left and bottom-right are open, plus
 * the two other cells at their shared corner, so the cheapest way across is
 * the diagonal step (7,7) -> (8,8). */
static const char *const corner_map[] = {
    "........########", "........########", "........########",
    "........########", "........########", "........########",
    "........########", ".........#######", "#######.........",
    "########........", "########........", "########........",
    "########........", "########........", "########........",
    "########........",
};

static void diagonal_corner_crossing(void **state) {
  hand_made *m = *state;
  cairn_grid *g = m->g;
  cairn_hpa *h = m->h;
  cairn_hpa_query *q = m->q;
  cairn_search *s = m->s;
  /* the abstract graph holds the diagonal crossing at its true cost */
  const cairn_graph *gr = cairn_hpa_graph(h);
  cairn_hpa_stats st;
  cairn_hpa_get_stats(h, &st);
  uint32_t from = UINT32_MAX, to = UINT32_MAX;
  for (uint32_t v = 0; v < st.nodes; v++) {
    cairn_point p;
    assert_int_equal(cairn_hpa_node(h, v, &p), CAIRN_OK);
    if (p.x == 7 && p.y == 7) from = v;
    if (p.x == 8 && p.y == 8) to = v;
  }
  assert_true(from != UINT32_MAX && to != UINT32_MAX);
  const uint32_t *t;
  const cairn_cost *c;
  uint32_t n = cairn_graph_neighbours(gr, from, &t, &c);
  bool diag = false;
  for (uint32_t i = 0; i < n; i++) diag |= t[i] == to && c[i] == CAIRN_COST_DIAG;
  assert_true(diag);
  cairn_point a = pt(2, 2), b = pt(13, 13);
  cairn_cost best;
  assert_int_equal(astar(s, g, a, b, &best), CAIRN_OK);
  assert_true(best == 11 * CAIRN_COST_DIAG);
  for (int smooth = 0; smooth < 2; smooth++) {
    cairn_hpa_path_opts o = popts(0, smooth);
    cairn_hpa_result r;
    assert_int_equal(cairn_hpa_find(q, h, a, b, &o, &r), CAIRN_OK);
    assert_int_equal(r.plain, 0);
    assert_true(tu_path_cost(g, r.path, r.path_len, a, b, 8) == r.cost);
    assert_true(path_has_step(r.path, r.path_len, pt(7, 7), pt(8, 8)));
    assert_true(r.cost == best);
    assert_true(r.route_cost == best);
    /* and back */
    assert_int_equal(cairn_hpa_find(q, h, b, a, &o, &r), CAIRN_OK);
    assert_true(path_has_step(r.path, r.path_len, pt(8, 8), pt(7, 7)));
    assert_true(r.cost == best);
  }
  /* only one of the two side cells open: no diagonal; the way round it */
  cairn_point side = pt(8, 7);
  uint8_t wall = 0;
  assert_int_equal(cairn_hpa_edit(h, g, &side, &wall, 1), CAIRN_OK);
  assert_int_equal(astar(s, g, a, b, &best), CAIRN_OK);
  assert_true(best == 10 * CAIRN_COST_DIAG + 2 * CAIRN_COST_ONE);
  cairn_hpa_result r;
  cairn_hpa_path_opts o = popts(0, 0);
  assert_int_equal(cairn_hpa_find(q, h, a, b, &o, &r), CAIRN_OK);
  assert_true(tu_path_cost(g, r.path, r.path_len, a, b, 8) == r.cost);
  assert_true(r.cost == best);
  assert_matches_fresh(h, g, 8, &(uint64_t){5}, 20);
}

/* A wall down the border between two 8 x 8 clusters with one gap: each
 * cluster has a single entrance, so no pair of entrances has a path (with
 * three levels, 2 x 2 blocks of 4 x 4 clusters, each block a single level-2
 * node). Built at 1 and 2 threads, the route goes through the gap. (Before
 * 992e5c4 laying out the empty paths copied 0 bytes from a NULL buffer,
 * which UndefinedBehaviorSanitizer stops at.) */
static void clusters_with_one_entrance(void **state) {
  (void)state;
  static const char *const rows[] = {
      ".......#........", ".......#........", ".......#........",
      "................", ".......#........", ".......#........",
      ".......#........", ".......#........",
  };
  cairn_grid *g = tu_grid(rows, 8);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_hpa_query *q = new_query();
  cairn_point a = pt(1, 1), b = pt(14, 6);
  cairn_cost best;
  assert_int_equal(astar(s, g, a, b, &best), CAIRN_OK);
  for (int threads = 1; threads <= 2; threads++)
    for (int levels = 2; levels <= 3; levels++) {
      cairn_hpa *h = levels == 2 ? build_levels(g, 8, threads, 2)
                                 : build_block(g, 4, threads, 3, 2);
      cairn_hpa_stats st;
      cairn_hpa_get_stats(h, &st);
      if (levels == 2) {
        assert_int_equal(st.nodes, 2u);
      } else {
        assert_int_equal(st.blocks, 2u);
        assert_int_equal(st.nodes2, 2u);
      }
      for (int smooth = 0; smooth < 2; smooth++) {
        cairn_hpa_path_opts o = popts(0, smooth);
        cairn_hpa_result r;
        assert_int_equal(cairn_hpa_find(q, h, a, b, &o, &r), CAIRN_OK);
        assert_int_equal(r.plain, 0);
        if (levels == 3) assert_int_equal(r.route2_len, 4u);
        assert_true(path_has_step(r.path, r.path_len, pt(7, 3), pt(8, 3)));
        assert_true(tu_path_cost(g, r.path, r.path_len, a, b, 8) == r.cost);
        assert_true(r.cost >= best);
        assert_int_equal(cairn_hpa_find(q, h, b, a, &o, &r), CAIRN_OK);
        assert_true(path_has_step(r.path, r.path_len, pt(8, 3), pt(7, 3)));
      }
      cairn_hpa *fresh = build_block(g, st.cluster, 1, levels, levels == 3 ? 2 : 0);
      assert_same_hierarchy(h, fresh);
      cairn_hpa_destroy(fresh);
      cairn_hpa_destroy(h);
    }
  cairn_hpa_query_destroy(q);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(islands_short_cut),
      on_map(forced_detour_through_gap, gap_map),
      on_map(detour_out_of_cluster, u_map),
      on_map(diagonal_corner_crossing, corner_map),
      cmocka_unit_test(clusters_with_one_entrance),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
