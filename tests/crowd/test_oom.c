/* Allocation failure at every point, crowd: a crowd with a horde order and
 * a move order under an allocator that fails after k allocations for k = 0,
 * 1, 2, ... (tu_oom_sweep) returns CAIRN_ERR_NOMEM and leaks nothing; and a
 * tick whose path search cannot get memory says so, keeps the unit waiting
 * and serves it once memory is back. */
#include "test_util.h"

#include "cairn/crowd.h"
#include "cairn/hierarchy.h"

/* A crowd with a horde order (a cached field) and a move order (a path
 * request), ticked until the path is planned. */
static int with_density; /* the congestion layer on, updated every tick */

static cairn_status crowd_case(void *ctx, const cairn_allocator *al) {
  const tu_oom_map *fx = ctx;
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 8;
  o.threads = 1;
  if (with_density) {
    o.density_gain = 2.0f;
    o.density_comfort = 0.0f; /* any body counts */
    o.density_ticks = 1;
    o.avoidance = CAIRN_AVOID_ORCA;
  }
  cairn_crowd *c = NULL;
  cairn_status st = cairn_crowd_create(fx->grid, &o, al, &c);
  if (st != CAIRN_OK) {
    assert_null(c);
    return st;
  }
  cairn_agent_params p = {(float)fx->a.x + 0.5f, (float)fx->a.y + 0.5f, 0.3f,
                          1.5f, 0, 0};
  cairn_agent ag[2];
  st = cairn_crowd_add(c, &p, &ag[0]);
  if (st == CAIRN_OK) st = cairn_crowd_add(c, &p, &ag[1]);
  if (st == CAIRN_OK) st = cairn_crowd_order_field(c, &ag[0], 1, &fx->b, 1);
  if (st == CAIRN_OK) st = cairn_crowd_order_move(c, &ag[1], 1, fx->b);
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
  tu_oom_check("crowd", crowd_case, *state, 10);
}

/* The same with the congestion layer (its arrays, its own cost layer and
 * the repairs of every tick) and ORCA. */
static void oom_crowd_density(void **state) {
  with_density = 1;
  tu_oom_check("crowd, density", crowd_case, *state, 12);
  with_density = 0;
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
  cairn_agent_params p = {1.5f, 1.5f, 0.3f, 8.0f, 0, 0};
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
      cmocka_unit_test(oom_crowd),
      cmocka_unit_test(oom_crowd_density),
      cmocka_unit_test(tick_reports_out_of_memory),
  };
  return cmocka_run_group_tests(tests, tu_oom_map_setup, tu_oom_map_teardown);
}
