/* The hierarchy under cost layers: answers against the core's layered A*
 * (exact), the refresh's freshness guarantee, landmarks that stay lower
 * bounds when penalties fall, blocks, and Lester's carnage pass. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "cairn/hierarchy.h"

/* The path's cost under the layer, recomputed here: each step's terrain
 * (tu_path_cost checks the path itself) plus the penalty of the cell it
 * enters; no cell after the start may be blocked by the layer. */
static cairn_cost layered_cost(const cairn_grid *g, const cairn_penalty *p,
                               const cairn_point *path, size_t n,
                               cairn_point s, cairn_point t, cairn_cost *base) {
  *base = tu_path_cost(g, path, n, s, t, 8);
  cairn_cost c = *base;
  for (size_t k = 1; k < n; k++) {
    uint32_t v = cairn_penalty_get(p, path[k].x, path[k].y);
    assert_true(v != CAIRN_PENALTY_BLOCK);
    c += v;
  }
  return c;
}

/* Danger blobs: `events` influence events of radius 3..12 and 1..30
 * steps, and `blocks` cells blocked outright. */
static void random_layer(uint64_t *rng, const cairn_grid *g, cairn_penalty *p,
                         cairn_influence *m, int events, int blocks) {
  for (int e = 0; e < events; e++) {
    cairn_point c = tu_random_open(rng, g);
    int32_t r = 3 + (int32_t)tu_below(rng, 10);
    uint32_t amount = (1 + tu_below(rng, 30)) * (uint32_t)CAIRN_COST_ONE;
    assert_int_equal(cairn_influence_event(m, c.x, c.y, r, amount), CAIRN_OK);
  }
  for (int b = 0; b < blocks; b++) {
    cairn_point c = tu_random_open(rng, g);
    assert_int_equal(cairn_penalty_block(p, c.x, c.y, 1), CAIRN_OK);
  }
}

typedef struct quality {
  int queries, found;
  double sum_ratio, max_ratio;
} quality;

/* Random queries: the hierarchy finds a path exactly when layered A* does,
 * the path is valid, avoids the layer's blocks, costs what the result says
 * (with and without the layer), and no less than A*'s optimum. */
static void compare(const cairn_grid *g, const cairn_penalty *p,
                    const cairn_hpa *h, uint64_t *rng, int queries,
                    quality *q) {
  cairn_search *s;
  cairn_hpa_query *hq;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  assert_int_equal(cairn_hpa_query_create(NULL, &hq), CAIRN_OK);
  cairn_search_opts o = cairn_search_defaults();
  o.penalty = p;
  cairn_hpa_path_opts ho = cairn_hpa_path_defaults();
  ho.nearby = 0; /* always hierarchical */
  for (int i = 0; i < queries; i++) {
    cairn_point a = tu_random_open(rng, g), b = tu_random_open(rng, g);
    cairn_result r;
    cairn_status sa = cairn_astar(s, g, a, b, &o, &r);
    cairn_hpa_result hr;
    cairn_status sh = cairn_hpa_find(hq, h, a, b, &ho, &hr);
    assert_int_equal(sh, sa);
    q->queries++;
    if (sa != CAIRN_OK) continue;
    q->found++;
    cairn_cost base;
    cairn_cost c = layered_cost(g, p, hr.path, hr.path_len, a, b, &base);
    assert_true(c == hr.cost);
    assert_true(base == hr.base_cost);
    assert_true(hr.cost >= r.cost);
    double ratio = r.cost ? (double)hr.cost / (double)r.cost : 1.0;
    q->sum_ratio += ratio;
    if (ratio > q->max_ratio) q->max_ratio = ratio;
  }
  cairn_hpa_query_destroy(hq);
  cairn_search_destroy(s);
}

/* On random maps with danger and blocks the hierarchy stays within its
 * quality bar against layered A* (the exact answer). */
static void test_answers_against_layered_astar(void **state) {
  (void)state;
  uint64_t rng = 7;
  quality q = {0};
  for (int map = 0; map < 6; map++) {
    cairn_grid *g = tu_random_grid(&rng, 96, 80, map % 2 ? 25 : 10, map < 3 ? 1 : 3);
    cairn_penalty *p;
    cairn_influence *m;
    assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
    assert_int_equal(cairn_influence_create(g, p, NULL, &m), CAIRN_OK);
    random_layer(&rng, g, p, m, 12, 40);
    cairn_hpa *h;
    assert_int_equal(cairn_hpa_create(g, NULL, NULL, &h), CAIRN_OK);
    assert_int_equal(cairn_hpa_set_layer(h, p), CAIRN_OK);
    cairn_hpa_stats st;
    cairn_hpa_get_stats(h, &st);
    assert_true(st.layered_clusters > 0);
    assert_int_equal(st.stale_clusters, 0);
    compare(g, p, h, &rng, 150, &q);
    cairn_hpa_destroy(h);
    cairn_influence_destroy(m);
    cairn_penalty_destroy(p);
    cairn_grid_destroy(g);
  }
  assert_true(q.found > q.queries / 2);
  double mean = q.sum_ratio / q.found;
  print_message("layered HPA*: %d paths, mean %.4f, max %.4f of layered A*\n",
                q.found, mean, q.max_ratio);
  assert_true(mean <= 1.03);
  assert_true(q.max_ratio <= 1.35);
}

/* Every answer of h equals that of fresh on random queries. */
static void assert_answers_equal(const cairn_grid *g, const cairn_hpa *h,
                                 const cairn_hpa *fresh, uint64_t seed) {
  cairn_hpa_query *q1, *q2;
  assert_int_equal(cairn_hpa_query_create(NULL, &q1), CAIRN_OK);
  assert_int_equal(cairn_hpa_query_create(NULL, &q2), CAIRN_OK);
  cairn_hpa_path_opts ho = cairn_hpa_path_defaults();
  ho.nearby = 0;
  uint64_t rng = seed;
  for (int i = 0; i < 120; i++) {
    cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
    cairn_hpa_result r1, r2;
    cairn_status s1 = cairn_hpa_find(q1, h, a, b, &ho, &r1);
    cairn_status s2 = cairn_hpa_find(q2, fresh, a, b, &ho, &r2);
    assert_int_equal(s1, s2);
    assert_true(r1.route_cost == r2.route_cost);
    assert_true(r1.cost == r2.cost);
  }
  cairn_hpa_query_destroy(q2);
  cairn_hpa_query_destroy(q1);
}

/* Every answer of h equals that of a hierarchy built afresh on the same
 * grid and layer. */
static void assert_same_answers(const cairn_grid *g, const cairn_penalty *p,
                                const cairn_hpa *h, uint64_t seed) {
  cairn_hpa *fresh;
  assert_int_equal(cairn_hpa_create(g, NULL, NULL, &fresh), CAIRN_OK);
  if (p) assert_int_equal(cairn_hpa_set_layer(fresh, p), CAIRN_OK);
  assert_answers_equal(g, h, fresh, seed);
  cairn_hpa_destroy(fresh);
}

/* A change to the layer makes clusters stale; refreshes of N clusters
 * catch up within ceil(stale / N) calls, after which the hierarchy answers
 * exactly as one built afresh under the new layer. */
static void test_refresh_catches_up(void **state) {
  (void)state;
  uint64_t rng = 11;
  cairn_grid *g = tu_random_grid(&rng, 128, 96, 15, 2);
  cairn_penalty *p;
  cairn_influence *m;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  assert_int_equal(cairn_influence_create(g, p, NULL, &m), CAIRN_OK);
  cairn_hpa *h;
  assert_int_equal(cairn_hpa_create(g, NULL, NULL, &h), CAIRN_OK);
  assert_int_equal(cairn_hpa_set_layer(h, p), CAIRN_OK);
  uint32_t pending = 99;
  assert_int_equal(cairn_hpa_refresh(h, 4, &pending), CAIRN_OK);
  assert_int_equal(pending, 0); /* nothing changed */
  for (int round = 0; round < 3; round++) {
    random_layer(&rng, g, p, m, 10, 20);
    if (round == 2) /* fading and spreading change every active cell */
      for (int t = 0; t < 5; t++)
        assert_int_equal(cairn_influence_tick(m, 50000, 4000), CAIRN_OK);
    cairn_hpa_stats st;
    cairn_hpa_get_stats(h, &st);
    uint32_t stale = st.stale_clusters;
    assert_true(stale > 0);
    const uint32_t per = 3;
    uint32_t calls = 0;
    do {
      assert_int_equal(cairn_hpa_refresh(h, per, &pending), CAIRN_OK);
      calls++;
      cairn_hpa_get_stats(h, &st);
      assert_int_equal(st.stale_clusters, pending);
      assert_true(st.rebuilt_clusters <= per);
    } while (pending);
    assert_true(calls <= (stale + per - 1) / per);
    assert_same_answers(g, p, h, 100 + (uint64_t)round);
  }
  cairn_hpa_destroy(h);
  cairn_influence_destroy(m);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

/* Random sequences of layer changes (events near and far, fading and
 * spreading ticks, blocks set and lifted), each followed by refreshes of
 * a random number of clusters until none is stale: the refreshed
 * hierarchy's abstract graph is then edge for edge that of one built
 * afresh on the same layer, and it answers the same, on two and three
 * levels. A refresh reassembles only the rebuilt clusters' share of the
 * graph, so this is what catches a share left behind. */
static void test_refresh_sequences(void **state) {
  (void)state;
  uint64_t rng = 0x5e9;
  for (int trial = 0; trial < 4; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 90 + 10 * trial, 70, 12 + 4 * trial, trial % 2 ? 3 : 1);
    cairn_penalty *p;
    cairn_influence *m;
    assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
    assert_int_equal(cairn_influence_create(g, p, NULL, &m), CAIRN_OK);
    cairn_hpa_opts o = cairn_hpa_defaults();
    o.cluster = trial % 2 ? 10 : 16;
    o.levels = trial >= 2 ? 3 : 2;
    o.block = 2;
    cairn_hpa *h, *fresh;
    assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_OK);
    assert_int_equal(cairn_hpa_set_layer(h, p), CAIRN_OK);
    cairn_point blocked[32];
    size_t n_blocked = 0;
    for (int round = 0; round < 8; round++) {
      int steps = 1 + (int)tu_below(&rng, 5);
      for (int k = 0; k < steps; k++) {
        uint32_t kind = tu_below(&rng, 5);
        cairn_point c = tu_random_open(&rng, g);
        if (kind <= 1) {
          uint32_t amount = (1 + tu_below(&rng, 20)) * (uint32_t)CAIRN_COST_ONE;
          assert_int_equal(cairn_influence_event(m, c.x, c.y, (int32_t)tu_below(&rng, 12), amount),
                           CAIRN_OK);
        } else if (kind == 2) {
          assert_int_equal(cairn_influence_tick(m, 40000 + tu_below(&rng, 25000), tu_below(&rng, 4000)),
                           CAIRN_OK);
        } else if (kind == 3 && n_blocked < 32) {
          assert_int_equal(cairn_penalty_block(p, c.x, c.y, 1), CAIRN_OK);
          blocked[n_blocked++] = c;
        } else if (n_blocked) {
          size_t j = tu_below(&rng, (uint32_t)n_blocked);
          assert_int_equal(cairn_penalty_block(p, blocked[j].x, blocked[j].y, 0), CAIRN_OK);
          blocked[j] = blocked[--n_blocked];
        }
      }
      uint32_t pending = 1, per = tu_below(&rng, 4); /* 0: all at once */
      while (pending) assert_int_equal(cairn_hpa_refresh(h, per, &pending), CAIRN_OK);
      assert_int_equal(cairn_hpa_create(g, &o, NULL, &fresh), CAIRN_OK);
      assert_int_equal(cairn_hpa_set_layer(fresh, p), CAIRN_OK);
      tu_assert_same_graph(cairn_hpa_graph(h), cairn_hpa_graph(fresh));
      if (round % 4 == 3) assert_answers_equal(g, h, fresh, 300 + (uint64_t)(trial * 8 + round));
      cairn_hpa_destroy(fresh);
    }
    cairn_hpa_destroy(h);
    cairn_influence_destroy(m);
    cairn_penalty_destroy(p);
    cairn_grid_destroy(g);
  }
}

/* Landmarks are measured on terrain alone: built under heavy penalties
 * that then vanish, the refreshed hierarchy answers as one that never had
 * them (a bound measured on the old penalties would overestimate now and
 * mislead the abstract search). Unbinding the layer gives the plain
 * hierarchy back. */
static void test_landmarks_survive_falling_penalties(void **state) {
  (void)state;
  uint64_t rng = 5;
  cairn_grid *g = tu_random_grid(&rng, 112, 112, 12, 1);
  cairn_penalty *p;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  for (int y = 0; y < 112; y++)
    for (int x = 0; x < 112; x++)
      if ((x / 16 + y / 16) % 2)
        assert_int_equal(cairn_penalty_add(p, x, y, 40 * (int64_t)CAIRN_COST_ONE), CAIRN_OK);
  cairn_hpa *h;
  assert_int_equal(cairn_hpa_create(g, NULL, NULL, &h), CAIRN_OK);
  assert_int_equal(cairn_hpa_set_layer(h, p), CAIRN_OK);
  assert_same_answers(g, p, h, 1);
  cairn_penalty_clear(p);
  assert_int_equal(cairn_hpa_refresh(h, 0, NULL), CAIRN_OK);
  cairn_hpa_stats st;
  cairn_hpa_get_stats(h, &st);
  assert_int_equal(st.stale_clusters, 0);
  assert_int_equal(st.layered_clusters, 0);
  assert_same_answers(g, NULL, h, 2);
  assert_int_equal(cairn_hpa_set_layer(h, NULL), CAIRN_OK);
  assert_same_answers(g, NULL, h, 3);
  cairn_hpa_destroy(h);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

/* Lester's carnage pass, through the hierarchy: a short pass through the
 * middle wall and a long way round. Carnage in the pass sends the route
 * round once the clusters are refreshed; when it has faded, through the
 * pass again. */
static void test_carnage_pass(void **state) {
  (void)state;
  cairn_grid *g;
  assert_int_equal(cairn_grid_create(96, 64, 1, NULL, &g), CAIRN_OK);
  for (int y = 0; y < 60; y++)
    if (y != 30) assert_int_equal(cairn_grid_set_cost(g, 48, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  cairn_penalty *p;
  cairn_influence *m;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  assert_int_equal(cairn_influence_create(g, p, NULL, &m), CAIRN_OK);
  cairn_hpa *h;
  assert_int_equal(cairn_hpa_create(g, NULL, NULL, &h), CAIRN_OK);
  assert_int_equal(cairn_hpa_set_layer(h, p), CAIRN_OK);
  cairn_hpa_query *q;
  assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
  cairn_hpa_path_opts ho = cairn_hpa_path_defaults();
  ho.nearby = 0;
  cairn_hpa_result r;
  const cairn_point a = pt(20, 30), b = pt(76, 30);
  assert_int_equal(cairn_hpa_find(q, h, a, b, &ho, &r), CAIRN_OK);
  int through = 0;
  for (size_t k = 0; k < r.path_len; k++) through |= r.path[k].x == 48 && r.path[k].y == 30;
  assert_true(through);
  cairn_cost short_cost = r.cost;
  assert_int_equal(cairn_influence_event(m, 48, 30, 6, 200 * (uint32_t)CAIRN_COST_ONE), CAIRN_OK);
  assert_int_equal(cairn_hpa_refresh(h, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(q, h, a, b, &ho, &r), CAIRN_OK);
  through = 0;
  for (size_t k = 0; k < r.path_len; k++) through |= r.path[k].x == 48 && r.path[k].y == 30;
  assert_false(through);
  assert_true(r.base_cost > short_cost); /* the long way round */
  for (int t = 0; t < 400 && cairn_influence_active(m); t++)
    assert_int_equal(cairn_influence_tick(m, 52000, 0), CAIRN_OK);
  assert_int_equal(cairn_influence_active(m), 0);
  assert_int_equal(cairn_hpa_refresh(h, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(q, h, a, b, &ho, &r), CAIRN_OK);
  assert_true(r.cost == short_cost);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_influence_destroy(m);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

/* A layer's block closes the one pass (after the refresh for the abstract
 * graph; at once for a blocked goal), and lifting it opens the pass. */
static void test_blocks(void **state) {
  (void)state;
  cairn_grid *g;
  assert_int_equal(cairn_grid_create(64, 40, 1, NULL, &g), CAIRN_OK);
  for (int y = 0; y < 40; y++)
    if (y != 20) assert_int_equal(cairn_grid_set_cost(g, 32, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  cairn_penalty *p;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  cairn_hpa *h;
  assert_int_equal(cairn_hpa_create(g, NULL, NULL, &h), CAIRN_OK);
  assert_int_equal(cairn_hpa_set_layer(h, p), CAIRN_OK);
  cairn_hpa_query *q;
  assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
  cairn_hpa_path_opts ho = cairn_hpa_path_defaults();
  ho.nearby = 0;
  cairn_hpa_result r;
  assert_int_equal(cairn_hpa_find(q, h, pt(5, 5), pt(60, 35), &ho, &r), CAIRN_OK);
  assert_int_equal(cairn_penalty_block(p, 32, 20, 1), CAIRN_OK);
  assert_int_equal(cairn_hpa_refresh(h, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(q, h, pt(5, 5), pt(60, 35), &ho, &r), CAIRN_NO_PATH);
  assert_int_equal(cairn_penalty_block(p, 32, 20, 0), CAIRN_OK);
  assert_int_equal(cairn_penalty_block(p, 60, 35, 1), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(q, h, pt(5, 5), pt(60, 35), &ho, &r), CAIRN_NO_PATH);
  assert_int_equal(cairn_penalty_block(p, 60, 35, 0), CAIRN_OK);
  assert_int_equal(cairn_hpa_refresh(h, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(q, h, pt(5, 5), pt(60, 35), &ho, &r), CAIRN_OK);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

/* Refusals, and a refresh with no layer doing nothing. */
static void test_refusals(void **state) {
  (void)state;
  cairn_grid *g, *other;
  assert_int_equal(cairn_grid_create(40, 30, 1, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_create(30, 40, 1, NULL, &other), CAIRN_OK);
  cairn_penalty *p;
  assert_int_equal(cairn_penalty_create(other, NULL, &p), CAIRN_OK);
  cairn_hpa *h;
  assert_int_equal(cairn_hpa_create(g, NULL, NULL, &h), CAIRN_OK);
  assert_int_equal(cairn_hpa_set_layer(h, p), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_set_layer(NULL, NULL), CAIRN_ERR_ARG);
  uint32_t pending = 7;
  assert_int_equal(cairn_hpa_refresh(h, 1, &pending), CAIRN_OK);
  assert_int_equal(pending, 0);
  assert_int_equal(cairn_hpa_refresh(NULL, 1, &pending), CAIRN_ERR_ARG);
  cairn_hpa_destroy(h);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(other);
  cairn_grid_destroy(g);
}

/* The layer's change tracking that the refresh relies on. */
static void test_penalty_versions(void **state) {
  (void)state;
  cairn_grid *g;
  assert_int_equal(cairn_grid_create(50, 40, 1, NULL, &g), CAIRN_OK);
  cairn_penalty *p;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  cairn_rect all = {0, 0, 50, 40}, away = {40, 30, 10, 10}, nearby = {0, 0, 8, 8};
  assert_int_equal(cairn_penalty_version(p), 0);
  assert_int_equal(cairn_penalty_changed(p, all), 0);
  assert_int_equal(cairn_penalty_add(p, 3, 3, 0), CAIRN_OK); /* no change */
  assert_int_equal(cairn_penalty_version(p), 0);
  assert_int_equal(cairn_penalty_add(p, 3, 3, 100), CAIRN_OK);
  uint64_t v = cairn_penalty_version(p);
  assert_true(v > 0);
  assert_true(cairn_penalty_changed(p, nearby) == v);
  assert_true(cairn_penalty_changed(p, all) == v);
  assert_int_equal(cairn_penalty_changed(p, away), 0);
  assert_int_equal(cairn_penalty_block(p, 45, 35, 1), CAIRN_OK);
  assert_true(cairn_penalty_changed(p, away) > v);
  assert_true(cairn_penalty_changed(p, nearby) == v);
  cairn_rect empty = {3, 3, 0, 5}, off = {60, 60, 5, 5};
  assert_int_equal(cairn_penalty_changed(p, empty), 0);
  assert_int_equal(cairn_penalty_changed(p, off), 0);
  cairn_penalty_clear(p);
  assert_true(cairn_penalty_changed(p, nearby) > v);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_penalty_versions),
      cmocka_unit_test(test_answers_against_layered_astar),
      cmocka_unit_test(test_refresh_catches_up),
      cmocka_unit_test(test_refresh_sequences),
      cmocka_unit_test(test_landmarks_survive_falling_penalties),
      cmocka_unit_test(test_carnage_pass),
      cmocka_unit_test(test_blocks),
      cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
