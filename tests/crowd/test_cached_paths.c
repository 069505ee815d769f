/* Crowds with a path cache (cairn_crowd_opts.path_cache): waves of units
 * from one barracks to one gate search once and walk or join the stored
 * route after that, spending a small part of the expansions a crowd
 * without the cache spends, every unit arriving with its disc off the
 * walls; the same crowd at 1 and 2 threads, and after a save and load of
 * the crowd with the cache's routes beside it; an edit reported through
 * the crowd drops the routes it touches; units of another size, and
 * caches the crowd cannot use, are refused or left to search. */
#include "test_crowd_util.h"

#include <string.h>

#define WAVES 4
#define PER_WAVE 9
#define EVERY 60 /* ticks between waves */
#define ALL (WAVES * PER_WAVE)

/* 64 x 48, a wall across row 24 with a gap at its east end: the gate
 * (6, 44) lies about 110 cells from the barracks round the wall. */
static cairn_grid *walled(void) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(64, 48, 1, NULL, &g), CAIRN_OK);
  cairn_rect wall = {0, 24, 56, 1};
  uint8_t zeros[56] = {0};
  assert_int_equal(cairn_grid_set_rect(g, wall, zeros, 56), CAIRN_OK);
  return g;
}

static const cairn_point gate = {6, 44};

/* A crowd on g (with the cache, or NULL) on `threads` threads, its bins
 * wide enough for discs of radius 1. */
static cairn_crowd *crowd_with(const cairn_grid *g, cairn_path_cache *pc, int threads) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.bin_size = 2.0f;
  o.neighbour_radius = 1.0f;
  o.max_agents = ALL;
  o.threads = threads;
  o.path_cache = pc;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

/* The crowd from tick `from` to `to`: a wave of PER_WAVE units (a 3 x 3
 * block at the barracks, each sent with a path of its own, leaving at
 * the gate) every EVERY ticks from tick 0. Discs stay off the walls.
 * Returns the expansions its ticks spent. */
static uint64_t run_waves(cairn_crowd *c, const cairn_grid *g, uint64_t from, uint64_t to,
                          cairn_agent *agents) {
  uint64_t spent = 0;
  for (uint64_t t = from; t < to; t++) {
    if (t % EVERY == 0 && t / EVERY < WAVES) {
      cairn_agent *a = agents + (t / EVERY) * PER_WAVE;
      for (int i = 0; i < PER_WAVE; i++)
        a[i] = tc_add_at(c, 4.5f + (float)(i % 3), 4.5f + (float)(i / 3));
      cairn_order o = cairn_order_defaults();
      o.kind = CAIRN_ORDER_PATH;
      o.group = 0;
      o.goal = gate;
      o.arrival = CAIRN_ARRIVAL_LEAVE;
      assert_int_equal(cairn_crowd_order(c, a, PER_WAVE, &o), CAIRN_OK);
    }
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    cairn_crowd_stats s;
    cairn_crowd_get_stats(c, &s);
    spent += s.tick_nodes;
    const size_t born = t / EVERY < WAVES ? (size_t)(t / EVERY + 1) * PER_WAVE : ALL;
    assert_clear(c, g, agents, born);
  }
  return spent;
}

static void waves_search_once(void **state) {
  (void)state;
  cairn_grid *g = walled();
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &pc), CAIRN_OK);
  cairn_agent a[ALL], b[ALL];
  cairn_crowd *c = crowd_with(g, pc, 1), *plain = crowd_with(g, NULL, 1);
  /* the room for a path from the cache (a point an open cell) counts */
  assert_true(cairn_crowd_memory(c) >=
              cairn_crowd_memory(plain) + cairn_grid_passable(g) * sizeof(cairn_point));
  const uint64_t with = run_waves(c, g, 0, 1200, a);
  const uint64_t without = run_waves(plain, g, 0, 1200, b);
  assert_int_equal(tc_count_state(c, a, ALL, CAIRN_AGENT_ARRIVED), ALL);
  assert_int_equal(tc_count_state(plain, b, ALL, CAIRN_AGENT_ARRIVED), ALL);
  cairn_path_cache_stats s;
  assert_int_equal(cairn_path_cache_get_stats(pc, &s), CAIRN_OK);
  assert_int_equal(s.searched, 0);          /* the crowd searched, not the cache */
  assert_true(s.stored >= 1 && s.stored <= s.missed);
  assert_true(s.missed < PER_WAVE);          /* the first wave's first units */
  assert_true(s.walked + s.joined >= ALL - PER_WAVE);
  assert_int_equal(s.routes, 1);
  assert_true(with * 4 < without);
  cairn_crowd_destroy(c);
  cairn_crowd_destroy(plain);
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
}

/* The same run at 1 and 2 threads, each with a cache of its own; and a
 * run saved at tick 90 (the second wave on its way), the crowd loaded
 * into a new crowd beside a new cache loaded from the first's routes,
 * goes on to the same hash as the one never interrupted. */
static void deterministic_and_saved(void **state) {
  (void)state;
  cairn_grid *g = walled();
  cairn_path_cache *p1 = NULL, *p2 = NULL, *p3 = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &p1), CAIRN_OK);
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &p2), CAIRN_OK);
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &p3), CAIRN_OK);
  cairn_agent a[ALL], b[ALL], d[ALL];
  cairn_crowd *one = crowd_with(g, p1, 1), *two = crowd_with(g, p2, 2);
  run_waves(one, g, 0, 90, a);
  run_waves(two, g, 0, 90, b);
  size_t len = 0, routes_len = 0;
  uint8_t *saved = tc_save_of(one, &len);
  assert_int_equal(cairn_path_cache_save(p1, NULL, 0, &routes_len), CAIRN_ERR_BUFFER);
  uint8_t *routes = malloc(routes_len);
  assert_non_null(routes);
  assert_int_equal(cairn_path_cache_save(p1, routes, routes_len, &routes_len), CAIRN_OK);
  run_waves(one, g, 90, 1200, a);
  run_waves(two, g, 90, 1200, b);
  assert_true(cairn_crowd_hash(one) == cairn_crowd_hash(two));
  cairn_crowd *back = crowd_with(g, p3, 1);
  assert_int_equal(cairn_path_cache_load(p3, routes, routes_len), CAIRN_OK);
  assert_int_equal(cairn_crowd_load(back, saved, len, NULL), CAIRN_OK);
  memcpy(d, a, sizeof a); /* the handles of the first waves, restored with them */
  run_waves(back, g, 90, 1200, d);
  assert_true(cairn_crowd_hash(back) == cairn_crowd_hash(one));
  assert_int_equal(tc_count_state(one, a, ALL, CAIRN_AGENT_ARRIVED), ALL);
  /* a crowd without the cache does not take the save, and says why */
  cairn_crowd *none = crowd_with(g, NULL, 1);
  cairn_error err;
  assert_int_equal(cairn_crowd_load(none, saved, len, &err), CAIRN_ERR_MISMATCH);
  assert_non_null(strstr(err.message, "path cache"));
  free(routes);
  free(saved);
  cairn_crowd_destroy(none);
  cairn_crowd_destroy(back);
  cairn_crowd_destroy(one);
  cairn_crowd_destroy(two);
  cairn_path_cache_destroy(p1);
  cairn_path_cache_destroy(p2);
  cairn_path_cache_destroy(p3);
  cairn_grid_destroy(g);
}

/* Whether the cache's stored path from the barracks runs through cell w. */
static bool route_through(cairn_path_cache *pc, cairn_search *s, cairn_point w) {
  static cairn_point path[4096];
  cairn_cached_path got;
  if (cairn_path_cache_lookup(pc, s, (cairn_point){5, 5}, gate, path, 4096, &got) != CAIRN_OK)
    return false;
  for (size_t i = 0; i < got.len; i++)
    if (path[i].x == w.x && path[i].y == w.y) return true;
  return false;
}

/* A wall put up across the gap, reported to the crowd: the route through
 * it is dropped, and the next wave goes round by the west end opened
 * instead, arriving with no disc in a wall. */
static void edits_drop_routes(void **state) {
  (void)state;
  cairn_grid *g = walled();
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &pc), CAIRN_OK);
  cairn_agent a[ALL];
  cairn_crowd *c = crowd_with(g, pc, 1);
  run_waves(c, g, 0, 2 * EVERY, a); /* two waves sent */
  const cairn_point in_gap = {59, 24};
  /* the stored route passes the gap (the lookup joins it from the
   * barracks: close the walk to its cells alone) */
  bool through = false;
  for (int32_t x = 56; x < 64; x++) through |= route_through(pc, s, (cairn_point){x, 24});
  assert_true(through);
  cairn_point changed[10];
  for (int32_t x = 56; x < 64; x++) {
    assert_int_equal(cairn_grid_set_cost(g, x, 24, 0), CAIRN_OK);
    changed[x - 56] = (cairn_point){x, 24};
  }
  assert_int_equal(cairn_grid_set_cost(g, 0, 24, 1), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, 1, 24, 1), CAIRN_OK);
  changed[8] = (cairn_point){0, 24};
  changed[9] = (cairn_point){1, 24};
  assert_int_equal(cairn_crowd_grid_changed(c, changed, 10), CAIRN_OK);
  cairn_path_cache_stats st;
  assert_int_equal(cairn_path_cache_get_stats(pc, &st), CAIRN_OK);
  assert_true(st.dropped >= 1);
  assert_int_equal(st.cleared, 0); /* told, not found out */
  run_waves(c, g, 2 * EVERY, 1500, a);
  assert_int_equal(tc_count_state(c, a, ALL, CAIRN_AGENT_ARRIVED), ALL);
  assert_false(route_through(pc, s, in_gap));
  cairn_crowd_destroy(c);
  cairn_path_cache_destroy(pc);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* Units larger than the cache's unit search on their own: the cache is
 * never asked for them, and they arrive. */
static void other_sizes_search(void **state) {
  (void)state;
  cairn_grid *g = walled();
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &pc), CAIRN_OK);
  cairn_crowd *c = crowd_with(g, pc, 1);
  cairn_agent a[4];
  for (int i = 0; i < 4; i++) {
    cairn_agent_params p = {4.0f + 3.0f * (float)i, 6.0f, 0.9f, 1.5f, 0, 0};
    assert_int_equal(cairn_crowd_add(c, &p, &a[i]), CAIRN_OK);
  }
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_PATH;
  o.group = 0;
  o.goal = gate;
  o.arrival = CAIRN_ARRIVAL_LEAVE;
  assert_int_equal(cairn_crowd_order(c, a, 4, &o), CAIRN_OK);
  for (int t = 0; t < 1500 && tc_count_state(c, a, 4, CAIRN_AGENT_ARRIVED) < 4; t++)
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(tc_count_state(c, a, 4, CAIRN_AGENT_ARRIVED), 4);
  cairn_path_cache_stats st;
  assert_int_equal(cairn_path_cache_get_stats(pc, &st), CAIRN_OK);
  assert_int_equal(st.walked + st.joined + st.missed + st.stored, 0);
  cairn_crowd_destroy(c);
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
}

/* Caches a crowd cannot use: made on another grid, with 4 moves, inside
 * bounds, or pricing another layer. */
static void refused_caches(void **state) {
  (void)state;
  cairn_grid *g = walled(), *other = walled();
  cairn_penalty *pen = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &pen), CAIRN_OK);
  cairn_path_cache_opts po[4] = {cairn_path_cache_defaults(), cairn_path_cache_defaults(),
                                 cairn_path_cache_defaults(), cairn_path_cache_defaults()};
  po[1].search.moves = 4;
  po[2].search.bounds = (cairn_rect){0, 0, 32, 32};
  po[3].search.penalty = pen;
  const char *says[4] = {"another grid", "4 moves", "bounds", "penalty layer"};
  for (int i = 0; i < 4; i++) {
    cairn_path_cache *pc = NULL;
    assert_int_equal(cairn_path_cache_create(i ? g : other, &po[i], NULL, &pc), CAIRN_OK);
    cairn_crowd_opts o = cairn_crowd_defaults();
    o.path_cache = pc;
    tc_assert_refused(g, &o, says[i]);
    cairn_path_cache_destroy(pc);
  }
  cairn_penalty_destroy(pen);
  cairn_grid_destroy(other);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(waves_search_once),
      cmocka_unit_test(deterministic_and_saved),
      cmocka_unit_test(edits_drop_routes),
      cmocka_unit_test(other_sizes_search),
      cmocka_unit_test(refused_caches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
