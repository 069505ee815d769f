/* Allocation failure at every point, core: the grid, the search context
 * (with A*, a fill with targets and a trace), the map and scenario parsers,
 * graphs (landmarks, a linked search, a hex map) and the cost layers, each
 * run under an allocator that fails after k allocations for k = 0, 1, 2, ...
 * (tu_oom_sweep), return CAIRN_ERR_NOMEM and leak nothing, and the run that
 * succeeds gives the answer a run with malloc gives. */
#include "test_util.h"

#include <string.h>

static cairn_status grid_case(void *ctx, const cairn_allocator *al) {
  cairn_grid *g = (cairn_grid *)ctx; /* not NULL: must be reset on failure */
  cairn_status st = cairn_grid_create(30, 20, 1, al, &g);
  if (st != CAIRN_OK) {
    assert_null(g);
    return st;
  }
  assert_int_equal(cairn_grid_island_count(g), 1);
  /* splitting the grid relabels its islands */
  for (int32_t y = 0; y < 20; y++) cairn_grid_set_cost(g, 15, y, 0);
  st = cairn_grid_update_islands(g);
  if (st == CAIRN_OK) assert_int_equal(cairn_grid_island_count(g), 2);
  cairn_grid_destroy(g);
  return st;
}

static void oom_grid(void **state) {
  tu_oom_check("grid", grid_case, *state, 1);
}

/* A search context grows on its first queries: A*, a fill with targets
 * (goal records), a trace. */
static cairn_status search_case(void *ctx, const cairn_allocator *al) {
  const tu_oom_map *fx = ctx;
  cairn_search *s = NULL;
  cairn_status st = cairn_search_create(al, &s);
  if (st != CAIRN_OK) return st;
  cairn_result r;
  st = cairn_astar(s, fx->grid, fx->a, fx->b, NULL, &r);
  if (st == CAIRN_OK) {
    assert_true(r.cost == fx->astar_cost);
    st = cairn_dijkstra_fill(s, fx->grid, &fx->a, 1, &fx->b, 1, 1, NULL);
  }
  if (st == CAIRN_OK) st = cairn_dijkstra_nearest(s, fx->grid, fx->a, &fx->b, 1,
                                                  NULL, &r);
  if (st == CAIRN_OK) assert_true(r.cost == fx->astar_cost);
  cairn_search_destroy(s);
  return st;
}

static void oom_search(void **state) {
  tu_oom_check("search", search_case, *state, 3);
}

static const char map_text[] =
    "type octile\nheight 4\nwidth 6\nmap\n"
    "..@...\n"
    "..@.T.\n"
    "......\n"
    "@@@..G\n";

static cairn_status map_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  cairn_grid *g = NULL;
  cairn_error err;
  cairn_status st =
      cairn_map_parse(map_text, sizeof map_text - 1, "t.map", NULL, al, &g, &err);
  if (st != CAIRN_OK) {
    assert_null(g);
    assert_non_null(strstr(err.message, "t.map"));
    return st;
  }
  assert_int_equal(cairn_grid_passable(g), 24 - 6);
  cairn_grid_destroy(g);
  return st;
}

static void oom_map(void **state) {
  tu_oom_check("map parse", map_case, *state, 2);
}

static const char scen_text[] =
    "version 1\n"
    "0\tt.map\t6\t4\t0\t0\t5\t3\t6.41421356\n"
    "0\tt.map\t6\t4\t1\t0\t3\t0\t5.0\n"
    "1\tt.map\t6\t4\t0\t2\t5\t2\t5\n";

static cairn_status scen_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  cairn_scen *sc = NULL;
  cairn_error err;
  cairn_status st = cairn_scen_parse(scen_text, sizeof scen_text - 1, "t.scen",
                                     al, &sc, &err);
  if (st != CAIRN_OK) {
    assert_null(sc);
    return st;
  }
  assert_int_equal(cairn_scen_count(sc), 3);
  assert_string_equal(cairn_scen_map_name(sc), "t.map");
  cairn_scen_destroy(sc);
  return st;
}

static void oom_scen(void **state) {
  tu_oom_check("scen parse", scen_case, *state, 2);
}

/* A graph, its landmarks, a linked search on it; then a hex map. */
static cairn_status graph_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  enum { N = 12 };
  double xy[2 * N];
  cairn_graph_edge e[N];
  for (uint32_t i = 0; i < N; i++) {
    xy[2 * i] = i;
    xy[2 * i + 1] = 0;
    e[i] = (cairn_graph_edge){i, (i + 1) % N, 1.0 + (i % 3)};
  }
  cairn_graph_desc d = {N, xy, N, e, 1, CAIRN_GH_EUCLIDEAN, 1.0};
  cairn_graph *g = NULL, *hex = NULL;
  cairn_search *s = NULL;
  cairn_status st = cairn_graph_create(&d, al, &g);
  if (st == CAIRN_OK) st = cairn_search_create(al, &s);
  uint32_t marks[2] = {0, 6};
  if (st == CAIRN_OK) st = cairn_graph_compute_landmarks(g, s, marks, 2);
  cairn_graph_link from = {3, 0}, to = {9, 0};
  cairn_graph_query q = {{3, 0}, {9, 0}, &from, 1, &to, 1, CAIRN_COST_INF, NULL};
  cairn_result r;
  if (st == CAIRN_OK) st = cairn_graph_astar_linked(s, g, &q, NULL, &r);
  if (st == CAIRN_OK) assert_int_equal(cairn_graph_landmarks(g), 2);
  uint8_t cost[5 * 4];
  memset(cost, 1, sizeof cost);
  cost[7] = 0;
  if (st == CAIRN_OK) st = cairn_hex_graph_create(5, 4, cost, al, &hex);
  if (st == CAIRN_OK) st = cairn_graph_astar(s, hex, 0, 19, NULL, &r);
  cairn_graph_destroy(hex);
  cairn_search_destroy(s);
  cairn_graph_destroy(g);
  return st;
}

static void oom_graph(void **state) {
  tu_oom_check("graph", graph_case, *state, 5);
}

/* The cost layers: a penalty layer fed by an influence map and claims, a
 * search paying it, a faction's knowledge revealed. */
static cairn_status layers_case(void *ctx, const cairn_allocator *al) {
  const tu_oom_map *fx = ctx;
  cairn_penalty *p = NULL;
  cairn_influence *m = NULL;
  cairn_claims *cl = NULL;
  cairn_knowledge *k = NULL;
  cairn_search *s = NULL;
  cairn_status st = cairn_penalty_create(fx->grid, al, &p);
  if (st == CAIRN_OK) st = cairn_influence_create(fx->grid, p, al, &m);
  if (st == CAIRN_OK) st = cairn_influence_event(m, fx->a.x, fx->a.y, 6, 5 << 16);
  if (st == CAIRN_OK) st = cairn_influence_tick(m, 60000, 2000);
  if (st == CAIRN_OK) st = cairn_claims_create(fx->grid, al, &cl);
  cairn_point path[3] = {fx->b, fx->b, fx->b};
  if (st == CAIRN_OK) st = cairn_claims_set(cl, 7, path, 3, 10);
  if (st == CAIRN_OK) st = cairn_search_create(al, &s);
  cairn_search_opts o = cairn_search_defaults();
  o.penalty = p;
  o.claims = cl;
  o.claim_penalty = 2;
  cairn_result r;
  if (st == CAIRN_OK) st = cairn_astar(s, fx->grid, fx->a, fx->b, &o, &r);
  if (st == CAIRN_OK) assert_true(r.cost > fx->astar_cost);
  if (st == CAIRN_OK) st = cairn_knowledge_create(fx->grid, 1, al, &k);
  cairn_rect seen = {0, 0, 20, 20};
  if (st == CAIRN_OK) st = cairn_knowledge_reveal(k, seen, NULL);
  cairn_knowledge_destroy(k);
  cairn_search_destroy(s);
  cairn_claims_destroy(cl);
  cairn_influence_destroy(m);
  cairn_penalty_destroy(p);
  return st;
}

static void oom_layers(void **state) {
  tu_oom_check("layers", layers_case, *state, 6);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(oom_grid),
      cmocka_unit_test(oom_search),
      cmocka_unit_test(oom_map),
      cmocka_unit_test(oom_scen),
      cmocka_unit_test(oom_graph),
      cmocka_unit_test(oom_layers),
  };
  return cmocka_run_group_tests(tests, tu_oom_map_setup, tu_oom_map_teardown);
}
