/* Allocation failure at every point: each create and build call of every
 * module, run under an allocator that fails after k allocations for k = 0,
 * 1, 2, ... (tu_oom_sweep), returns CAIRN_ERR_NOMEM and leaks nothing, and
 * the run that succeeds gives the answer a run with malloc gives. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "cairn_crowd.h"
#include "cairn_flowfield.h"
#include "cairn_hierarchy.h"

/* What every sweep works on: one random map with walls and uneven
 * terrain, two far open cells on it, and answers computed with malloc. */
typedef struct fixture {
  cairn_grid *grid;
  cairn_point a, b;
  cairn_cost astar_cost; /* A* from a to b */
} fixture;

static fixture fx;

static int setup(void **state) {
  (void)state;
  uint64_t rng = 0x00b5;
  fx.grid = tu_random_grid(&rng, 40, 33, 22, 3);
  fx.a = tu_random_open(&rng, fx.grid);
  do fx.b = tu_random_open(&rng, fx.grid);
  while (cairn_grid_island(fx.grid, fx.b.x, fx.b.y) !=
             cairn_grid_island(fx.grid, fx.a.x, fx.a.y) ||
         abs(fx.b.x - fx.a.x) + abs(fx.b.y - fx.a.y) < 30);
  cairn_search *s = NULL;
  cairn_result r;
  if (cairn_search_create(NULL, &s) != CAIRN_OK) return -1;
  if (cairn_astar(s, fx.grid, fx.a, fx.b, NULL, &r) != CAIRN_OK) return -1;
  fx.astar_cost = r.cost;
  cairn_search_destroy(s);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  cairn_grid_destroy(fx.grid);
  return 0;
}

/* Runs one sweep and checks it crossed at least `min_allocs` allocation
 * points, so a sweep that stopped allocating through the allocator (and
 * so tests nothing) fails. */
static void sweep(const char *name, tu_oom_fn fn, long min_allocs) {
  long n = tu_oom_sweep(name, fn, NULL);
  print_message("%-22s succeeds from %ld allocations on\n", name, n);
  assert_true(n >= min_allocs);
}

/* ---- core ----------------------------------------------------------- */

static cairn_status grid_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  cairn_grid *g = (cairn_grid *)&fx; /* must be reset to NULL on failure */
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
  (void)state;
  sweep("grid", grid_case, 1);
}

/* A search context grows on its first queries: A*, a fill with targets
 * (goal records), a trace. */
static cairn_status search_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  cairn_search *s = NULL;
  cairn_status st = cairn_search_create(al, &s);
  if (st != CAIRN_OK) return st;
  cairn_result r;
  st = cairn_astar(s, fx.grid, fx.a, fx.b, NULL, &r);
  if (st == CAIRN_OK) {
    assert_true(r.cost == fx.astar_cost);
    st = cairn_dijkstra_fill(s, fx.grid, &fx.a, 1, &fx.b, 1, 1, NULL);
  }
  if (st == CAIRN_OK) st = cairn_dijkstra_nearest(s, fx.grid, fx.a, &fx.b, 1,
                                                  NULL, &r);
  if (st == CAIRN_OK) assert_true(r.cost == fx.astar_cost);
  cairn_search_destroy(s);
  return st;
}

static void oom_search(void **state) {
  (void)state;
  sweep("search", search_case, 3);
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
  (void)state;
  sweep("map parse", map_case, 2);
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
  (void)state;
  sweep("scen parse", scen_case, 2);
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
  cairn_graph_query q = {{3, 0}, {9, 0}, &from, 1, &to, 1, CAIRN_COST_INF};
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
  (void)state;
  sweep("graph", graph_case, 5);
}

/* The cost layers: a penalty layer fed by an influence map and claims, a
 * search paying it, a faction's knowledge revealed. */
static cairn_status layers_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  cairn_penalty *p = NULL;
  cairn_influence *m = NULL;
  cairn_claims *cl = NULL;
  cairn_knowledge *k = NULL;
  cairn_search *s = NULL;
  cairn_status st = cairn_penalty_create(fx.grid, al, &p);
  if (st == CAIRN_OK) st = cairn_influence_create(fx.grid, p, al, &m);
  if (st == CAIRN_OK) st = cairn_influence_event(m, fx.a.x, fx.a.y, 6, 5 << 16);
  if (st == CAIRN_OK) st = cairn_influence_tick(m, 60000, 2000);
  if (st == CAIRN_OK) st = cairn_claims_create(fx.grid, al, &cl);
  cairn_point path[3] = {fx.b, fx.b, fx.b};
  if (st == CAIRN_OK) st = cairn_claims_set(cl, 7, path, 3, 10);
  if (st == CAIRN_OK) st = cairn_search_create(al, &s);
  cairn_search_opts o = cairn_search_defaults();
  o.penalty = p;
  o.claims = cl;
  o.claim_penalty = 2;
  cairn_result r;
  if (st == CAIRN_OK) st = cairn_astar(s, fx.grid, fx.a, fx.b, &o, &r);
  if (st == CAIRN_OK) assert_true(r.cost > fx.astar_cost);
  if (st == CAIRN_OK) st = cairn_knowledge_create(fx.grid, 1, al, &k);
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
  (void)state;
  sweep("layers", layers_case, 6);
}

/* ---- hierarchy ------------------------------------------------------ */

/* Builds with two or three levels and runs a query on each; a third case
 * edits a copy of the map (an edit that fails leaves the hierarchy stale,
 * so every run starts from a fresh copy). */
static cairn_status hpa_run(const cairn_allocator *al, int levels, int edit) {
  cairn_grid *g = NULL;
  cairn_hpa *h = NULL;
  cairn_hpa_query *q = NULL;
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = 8;
  o.levels = levels;
  o.block = levels == 3 ? 2 : 0;
  o.threads = 1;
  o.landmarks = 4;
  cairn_status st = cairn_grid_create(cairn_grid_width(fx.grid),
                                      cairn_grid_height(fx.grid), 1, al, &g);
  int32_t stride;
  const uint8_t *cells = cairn_grid_cells(fx.grid, &stride);
  cairn_rect all = {0, 0, cairn_grid_width(fx.grid), cairn_grid_height(fx.grid)};
  if (st == CAIRN_OK)
    st = cairn_grid_set_rect(g, all, cells + stride + 1, (size_t)stride);
  if (st == CAIRN_OK) st = cairn_grid_update_islands(g);
  if (st == CAIRN_OK) st = cairn_hpa_create(g, &o, al, &h);
  if (st == CAIRN_OK) st = cairn_hpa_query_create(al, &q);
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  po.nearby = 0;
  cairn_hpa_result r;
  if (st == CAIRN_OK) st = cairn_hpa_find(q, h, fx.a, fx.b, &po, &r);
  if (st == CAIRN_OK) assert_true(r.cost >= fx.astar_cost);
  cairn_point wall[2] = {{(fx.a.x + fx.b.x) / 2, (fx.a.y + fx.b.y) / 2},
                         {fx.a.x, fx.a.y}};
  uint8_t costs[2] = {0, 2};
  if (st == CAIRN_OK && edit) st = cairn_hpa_edit(h, g, wall, costs, 2);
  if (st == CAIRN_OK && edit) st = cairn_hpa_find(q, h, fx.a, fx.b, &po, &r);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
  return st;
}

static cairn_status hpa2_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  return hpa_run(al, 2, 0);
}
static cairn_status hpa3_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  return hpa_run(al, 3, 0);
}
static cairn_status hpa_edit_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  return hpa_run(al, 2, 1);
}

static void oom_hierarchy(void **state) {
  (void)state;
  sweep("hierarchy, 2 levels", hpa2_case, 20);
  sweep("hierarchy, 3 levels", hpa3_case, 20);
  sweep("hierarchy edit", hpa_edit_case, 20);
}

/* ---- flow fields ---------------------------------------------------- */

/* A field built and repaired, a batch of two, a cached field, tiles
 * routed over a hierarchy built with malloc. */
static cairn_status flow_case(void *ctx, const cairn_allocator *al) {
  cairn_hpa *h = ctx;
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL, *f2 = NULL;
  cairn_flow_cache *c = NULL;
  cairn_flow_tiles *t = NULL;
  cairn_hpa_query *q = NULL;
  const cairn_field *held = NULL;
  cairn_status st = cairn_flow_builder_create(al, &b);
  if (st == CAIRN_OK) st = cairn_field_create(fx.grid, al, &f);
  if (st == CAIRN_OK) st = cairn_field_build(b, f, fx.grid, &fx.b, 1, NULL);
  if (st == CAIRN_OK) assert_true(cairn_field_cost(f, fx.a.x, fx.a.y) == fx.astar_cost);
  if (st == CAIRN_OK) st = cairn_field_create(fx.grid, al, &f2);
  cairn_flow_request reqs[2] = {{f, &fx.a, 1, CAIRN_OK}, {f2, &fx.b, 1, CAIRN_OK}};
  cairn_flow_builder *bs[1] = {b};
  if (st == CAIRN_OK) st = cairn_flow_build_batch(bs, 1, fx.grid, reqs, 2, NULL);
  if (st == CAIRN_OK) st = cairn_flow_cache_create(fx.grid, 1 << 22, NULL, al, &c);
  if (st == CAIRN_OK) st = cairn_flow_cache_acquire(c, b, &fx.a, 1, &held);
  if (st == CAIRN_OK) st = cairn_hpa_query_create(al, &q);
  if (st == CAIRN_OK) st = cairn_flow_tiles_create(fx.grid, h, fx.b, 64, al, &t);
  if (st == CAIRN_OK) st = cairn_flow_tiles_route(t, q, fx.a);
  int dir = CAIRN_FLOW_NONE;
  if (st == CAIRN_OK) st = cairn_flow_tiles_dir(t, fx.a.x, fx.a.y, &dir, NULL);
  if (st == CAIRN_OK) assert_true(dir < 8);
  if (held) assert_int_equal(cairn_flow_cache_release(c, held), CAIRN_OK);
  cairn_flow_tiles_destroy(t);
  cairn_hpa_query_destroy(q);
  cairn_flow_cache_destroy(c);
  cairn_field_destroy(f2);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  return st;
}

static void oom_flow(void **state) {
  (void)state;
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = 8;
  o.threads = 1;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(fx.grid, &o, NULL, &h), CAIRN_OK);
  long n = tu_oom_sweep("flow", flow_case, h);
  print_message("%-22s succeeds from %ld allocations on\n", "flow", n);
  assert_true(n >= 8);
  cairn_hpa_destroy(h);
}

/* ---- crowd ---------------------------------------------------------- */

/* A crowd with a horde order (a cached field) and a move order (a path
 * request), ticked until the path is planned. */
static cairn_status crowd_case(void *ctx, const cairn_allocator *al) {
  (void)ctx;
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 8;
  o.threads = 1;
  cairn_crowd *c = NULL;
  cairn_status st = cairn_crowd_create(fx.grid, &o, al, &c);
  if (st != CAIRN_OK) {
    assert_null(c);
    return st;
  }
  cairn_agent_params p = {(float)fx.a.x + 0.5f, (float)fx.a.y + 0.5f, 0.3f,
                          1.5f, 0};
  cairn_agent ag[2];
  st = cairn_crowd_add(c, &p, &ag[0]);
  if (st == CAIRN_OK) st = cairn_crowd_add(c, &p, &ag[1]);
  if (st == CAIRN_OK) st = cairn_crowd_order_field(c, &ag[0], 1, &fx.b, 1);
  if (st == CAIRN_OK) st = cairn_crowd_order_move(c, &ag[1], 1, fx.b);
  for (int i = 0; i < 5 && st == CAIRN_OK; i++) st = cairn_crowd_tick(c);
  cairn_agent_info info;
  if (st == CAIRN_OK) {
    assert_int_equal(cairn_crowd_get(c, ag[1], &info), CAIRN_OK);
    assert_int_equal(info.state, CAIRN_AGENT_MOVING);
  }
  cairn_crowd_destroy(c);
  return st;
}

static void oom_crowd(void **state) {
  (void)state;
  sweep("crowd", crowd_case, 10);
}

/* A serpentine: rows of wall every 4 rows, each open at alternating ends,
 * so the one route from top to bottom runs the map's width 31 times. */
static cairn_grid *serpentine(int32_t side) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(side, side, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 3; y < side - 1; y += 4)
    for (int32_t x = 0; x < side; x++) {
      int open = (y / 4) % 2 ? x < 2 : x >= side - 2;
      if (!open) assert_int_equal(cairn_grid_set_cost(g, x, y, 0), CAIRN_OK);
    }
  return g;
}

/* A tick whose path search cannot get memory says so: CAIRN_ERR_NOMEM,
 * the unit still waits for its path (never marked unreachable), and once
 * memory is back the same request is served and the unit arrives. The
 * hierarchy's query context grows on a route longer than its reserve: the
 * one allocation a tick may make. */
static void tick_reports_out_of_memory(void **state) {
  (void)state;
  cairn_grid *g = serpentine(128);
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.threads = 1;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  tu_alloc t;
  cairn_allocator al = tu_alloc_init(&t, -1);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 4;
  o.threads = 1;
  o.hpa = h;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, &al, &c), CAIRN_OK);
  cairn_agent_params p = {1.5f, 1.5f, 0.3f, 8.0f, 0};
  cairn_agent a;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_OK);
  cairn_point goal = {120, 126};
  assert_int_equal(cairn_crowd_order_path(c, &a, 1, goal), CAIRN_OK);
  t.budget = 0; /* every further allocation fails */
  int refused = 0;
  cairn_agent_info info;
  for (int i = 0; i < 100; i++) {
    cairn_status st = cairn_crowd_tick(c);
    assert_true(st == CAIRN_OK || st == CAIRN_ERR_NOMEM);
    refused += st == CAIRN_ERR_NOMEM;
    assert_int_equal(cairn_crowd_get(c, a, &info), CAIRN_OK);
    assert_int_not_equal(info.state, CAIRN_AGENT_UNREACHABLE);
  }
  print_message("100 ticks without memory: %d said so (%zu refusals)\n", refused,
                t.failures);
  assert_true(refused > 0);
  t.budget = -1;
  int i = 0;
  for (; i < 20000 && info.state != CAIRN_AGENT_ARRIVED; i++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_int_equal(cairn_crowd_get(c, a, &info), CAIRN_OK);
  }
  print_message("with memory again, arrived after %d ticks\n", i);
  assert_int_equal(info.state, CAIRN_AGENT_ARRIVED);
  cairn_crowd_destroy(c);
  assert_int_equal(t.live_bytes, 0);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(oom_grid),      cmocka_unit_test(oom_search),
      cmocka_unit_test(oom_map),       cmocka_unit_test(oom_scen),
      cmocka_unit_test(oom_graph),     cmocka_unit_test(oom_layers),
      cmocka_unit_test(oom_hierarchy), cmocka_unit_test(oom_flow),
      cmocka_unit_test(oom_crowd),     cmocka_unit_test(tick_reports_out_of_memory),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
