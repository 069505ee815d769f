/* Crowds, spatial queries: on random crowds (wanderers, a horde whose
 * arrived agents leave, units on paths) the agents within a radius or in a
 * rectangle are exactly a brute-force scan over cairn_crowd_export, in
 * slot order, after ticks and between them (agents added, teleported,
 * removed, a slot reused, an arrived horde agent ordered back); a short
 * buffer keeps the lowest slots and counts all; bad arguments are
 * refused; 1 and 2 threads give the same answers. */
#include "test_crowd_util.h"

#include <math.h>
#include <string.h>

#define MAXA 400

/* Every live agent and whether it is a body (not a horde agent that went
 * through its gate). */
typedef struct everyone {
  size_t n;
  float pos[2 * MAXA];
  cairn_agent h[MAXA];
  uint64_t user[MAXA];
  int body[MAXA];
} everyone;

static void read_all(const cairn_crowd *c, everyone *e) {
  cairn_crowd_arrays out = {e->pos, NULL, NULL, NULL, e->h, e->user};
  assert_int_equal(cairn_crowd_export(c, &out, MAXA, &e->n), CAIRN_OK);
  for (size_t k = 0; k < e->n; k++) {
    cairn_agent_info i = tc_info(c, e->h[k]);
    e->body[k] = !(i.state == CAIRN_AGENT_ARRIVED && i.arrival == CAIRN_ARRIVAL_LEAVE);
  }
}

/* The brute force: the bodies inside, in slot order (export's). */
static size_t brute(const everyone *e, int disc, float x0, float y0, float x1, float y1,
                    float r, cairn_crowd_hit *out) {
  size_t m = 0;
  for (size_t k = 0; k < e->n; k++) {
    if (!e->body[k]) continue;
    float x = e->pos[2 * k], y = e->pos[2 * k + 1];
    int in;
    if (disc) {
      float dx = x - x0, dy = y - y0;
      in = dx * dx + dy * dy <= r * r;
    } else {
      in = x >= x0 && x <= x1 && y >= y0 && y <= y1;
    }
    if (!in) continue;
    cairn_crowd_hit h = {e->h[k], e->user[k], x, y};
    out[m++] = h;
  }
  return m;
}

static void same_hits(const cairn_crowd_hit *a, const cairn_crowd_hit *b, size_t n) {
  for (size_t k = 0; k < n; k++) {
    assert_true(a[k].agent == b[k].agent);
    assert_true(a[k].user == b[k].user);
    assert_true(a[k].x == b[k].x && a[k].y == b[k].y);
  }
}

static float rnd(uint64_t *rng, float lo, float hi) {
  return lo + (hi - lo) * (float)(tu_rand(rng) % 100000u) / 100000.0f;
}

/* 60 random discs and rectangles against the brute force. */
static void check_queries(const cairn_crowd *c, const cairn_grid *g, uint64_t *rng) {
  static everyone e;
  static cairn_crowd_hit got[MAXA], want[MAXA];
  read_all(c, &e);
  float w = (float)cairn_grid_width(g), h = (float)cairn_grid_height(g);
  for (int q = 0; q < 60; q++) {
    size_t n = 0, m;
    if (q % 2) {
      float x = rnd(rng, -2.0f, w + 2.0f), y = rnd(rng, -2.0f, h + 2.0f);
      float r = q % 10 == 1 ? 0.0f : rnd(rng, 0.0f, q % 3 ? 3.0f : 20.0f);
      if (q == 59) r = 1000.0f; /* the whole map */
      m = brute(&e, 1, x, y, 0, 0, r, want);
      assert_int_equal(cairn_crowd_query_radius(c, x, y, r, got, MAXA, &n), CAIRN_OK);
    } else {
      float x0 = rnd(rng, -2.0f, w), y0 = rnd(rng, -2.0f, h);
      float x1 = x0 + rnd(rng, 0.0f, q % 4 ? 4.0f : 30.0f), y1 = y0 + rnd(rng, 0.0f, 6.0f);
      m = brute(&e, 0, x0, y0, x1, y1, 0, want);
      assert_int_equal(cairn_crowd_query_rect(c, x0, y0, x1, y1, got, MAXA, &n), CAIRN_OK);
    }
    assert_int_equal(n, m);
    same_hits(got, want, m);
  }
  /* an agent's own point finds it */
  for (size_t k = 0; k < e.n; k += 17) {
    if (!e.body[k]) continue;
    size_t n = 0;
    cairn_crowd_query_radius(c, e.pos[2 * k], e.pos[2 * k + 1], 0.0f, got, MAXA, &n);
    int found = 0;
    for (size_t j = 0; j < n; j++) found |= got[j].agent == e.h[k];
    assert_true(found);
  }
}

static cairn_crowd *random_crowd(uint64_t seed, int threads, cairn_grid **g, cairn_agent *a) {
  uint64_t rng = seed;
  *g = tu_random_grid(&rng, 48, 40, 25, 1);
  cairn_crowd *c = new_crowd(*g, MAXA, threads);
  for (size_t k = 0; k < 300; k++) {
    cairn_point p = tu_random_open(&rng, *g);
    cairn_agent_params ap = {(float)p.x + 0.5f, (float)p.y + 0.5f, 0.25f, 2.0f, 0, k * 3};
    assert_int_equal(cairn_crowd_add(c, &ap, &a[k]), CAIRN_OK);
  }
  cairn_point goal = tu_random_open(&rng, *g);
  assert_int_equal(cairn_crowd_order_wander(c, a, 100, seed), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_field(c, a + 100, 150, &goal, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_move(c, a + 250, 30, goal), CAIRN_OK);
  return c;
}

static void queries_equal_brute_force(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 3; seed++) {
    cairn_grid *g;
    cairn_agent a[300];
    cairn_crowd *c = random_crowd(seed * 31, 1, &g, a);
    uint64_t rng = seed * 7;
    check_queries(c, g, &rng); /* before any tick: every agent is new */
    for (int t = 1; t <= 400; t++) {
      assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
      if (t % 50 == 0) check_queries(c, g, &rng);
    }
    cairn_crowd_stats st;
    cairn_crowd_get_stats(c, &st);
    assert_true(st.arrived > 20); /* horde agents gone through: no bodies */
    /* between ticks: teleports, removals, a reused slot, new agents, an
     * arrived horde agent ordered to hold (a body again) */
    for (size_t k = 0; k < 300; k += 11) {
      cairn_point p = tu_random_open(&rng, g);
      assert_int_equal(cairn_crowd_set_position(c, a[k], (float)p.x + 0.5f, (float)p.y + 0.5f),
                       CAIRN_OK);
    }
    for (size_t k = 5; k < 300; k += 13) assert_int_equal(cairn_crowd_remove(c, a[k]), CAIRN_OK);
    for (size_t k = 0; k < 30; k++) {
      cairn_point p = tu_random_open(&rng, g);
      cairn_agent_params ap = {(float)p.x + 0.5f, (float)p.y + 0.5f, 0.25f, 2.0f, 0, 9000 + k};
      cairn_agent b;
      assert_int_equal(cairn_crowd_add(c, &ap, &b), CAIRN_OK);
    }
    size_t back = 0;
    for (size_t k = 100; k < 250 && back < 5; k++) {
      cairn_agent_info i;
      if (cairn_crowd_get(c, a[k], &i) == CAIRN_OK && i.state == CAIRN_AGENT_ARRIVED) {
        assert_int_equal(cairn_crowd_order_hold(c, &a[k], 1), CAIRN_OK);
        back++;
      }
    }
    assert_int_equal(back, 5);
    check_queries(c, g, &rng);
    for (int t = 0; t < 3; t++) {
      assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
      check_queries(c, g, &rng);
    }
    cairn_crowd_destroy(c);
    cairn_grid_destroy(g);
  }
}

/* A short buffer: the hits with the lowest slots, in slot order, and the
 * count of all. */
static void short_buffer(void **state) {
  (void)state;
  cairn_grid *g;
  cairn_agent a[300];
  cairn_crowd *c = random_crowd(99, 1, &g, a);
  for (int t = 0; t < 20; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  static cairn_crowd_hit all[MAXA], some[MAXA];
  size_t n = 0, k = 0;
  assert_int_equal(cairn_crowd_query_radius(c, 24.0f, 20.0f, 12.0f, all, MAXA, &n), CAIRN_OK);
  assert_true(n > 40);
  size_t total = n;
  for (size_t cap = 0; cap < 40; cap += 7) {
    memset(some, 0, sizeof some);
    assert_int_equal(cairn_crowd_query_radius(c, 24.0f, 20.0f, 12.0f, cap ? some : NULL, cap, &k),
                     CAIRN_ERR_BUFFER);
    assert_int_equal(k, total);
    same_hits(some, all, cap);
    assert_true(some[cap].agent == 0); /* nothing past cap */
  }
  assert_int_equal(cairn_crowd_query_rect(c, 0.0f, 0.0f, 48.0f, 40.0f, NULL, 0, &k),
                   CAIRN_ERR_BUFFER);
  static everyone e;
  read_all(c, &e);
  assert_int_equal(k, brute(&e, 0, 0.0f, 0.0f, 48.0f, 40.0f, 0.0f, all));
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  (void)state;
  cairn_grid *g;
  cairn_agent a[300];
  cairn_crowd *c = random_crowd(5, 1, &g, a);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  uint64_t h = cairn_crowd_hash(c);
  cairn_crowd_hit out[4];
  size_t n = 99;
  const float bad[] = {NAN, INFINITY, -INFINITY};
  for (int k = 0; k < 3; k++) {
    assert_int_equal(cairn_crowd_query_radius(c, bad[k], 1, 1, out, 4, &n), CAIRN_ERR_ARG);
    assert_int_equal(n, 0);
    assert_int_equal(cairn_crowd_query_radius(c, 1, bad[k], 1, out, 4, &n), CAIRN_ERR_ARG);
    assert_int_equal(cairn_crowd_query_radius(c, 1, 1, bad[k], out, 4, &n), CAIRN_ERR_ARG);
    assert_int_equal(cairn_crowd_query_rect(c, bad[k], 0, 4, 4, out, 4, &n), CAIRN_ERR_ARG);
    assert_int_equal(cairn_crowd_query_rect(c, 0, 0, 4, bad[k], out, 4, &n), CAIRN_ERR_ARG);
  }
  assert_int_equal(cairn_crowd_query_radius(c, 1, 1, -0.5f, out, 4, &n), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_query_rect(c, 5, 0, 4, 4, out, 4, &n), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_query_rect(c, 0, 5, 4, 4, out, 4, &n), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_query_radius(c, 1, 1, 1, NULL, 4, &n), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_query_radius(c, 1, 1, 1, out, 4, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_query_radius(NULL, 1, 1, 1, out, 4, &n), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_query_rect(NULL, 0, 0, 1, 1, out, 4, &n), CAIRN_ERR_ARG);
  assert_true(cairn_crowd_hash(c) == h);
  /* far off the map: nothing, no harm */
  assert_int_equal(cairn_crowd_query_radius(c, -1e30f, 1e30f, 5, out, 4, &n), CAIRN_OK);
  assert_int_equal(n, 0);
  assert_int_equal(cairn_crowd_query_rect(c, -3e38f, -3e38f, 3e38f, 3e38f, NULL, 0, &n),
                   CAIRN_ERR_BUFFER);
  assert_int_equal(n, 300);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* The same crowd on 1 and 2 threads answers the same, bit for bit. */
static void same_at_any_thread_count(void **state) {
  (void)state;
  cairn_grid *g1, *g2;
  cairn_agent a1[300], a2[300];
  cairn_crowd *c1 = random_crowd(17, 1, &g1, a1), *c2 = random_crowd(17, 2, &g2, a2);
  static cairn_crowd_hit h1[MAXA], h2[MAXA];
  for (int t = 1; t <= 200; t++) {
    assert_int_equal(cairn_crowd_tick(c1), CAIRN_OK);
    assert_int_equal(cairn_crowd_tick(c2), CAIRN_OK);
    if (t % 40) continue;
    size_t n1, n2;
    assert_int_equal(cairn_crowd_query_radius(c1, 20.0f, 20.0f, 9.0f, h1, MAXA, &n1), CAIRN_OK);
    assert_int_equal(cairn_crowd_query_radius(c2, 20.0f, 20.0f, 9.0f, h2, MAXA, &n2), CAIRN_OK);
    assert_int_equal(n1, n2);
    same_hits(h1, h2, n1);
  }
  assert_true(cairn_crowd_hash(c1) == cairn_crowd_hash(c2));
  cairn_crowd_destroy(c1);
  cairn_crowd_destroy(c2);
  cairn_grid_destroy(g1);
  cairn_grid_destroy(g2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(queries_equal_brute_force),
      cmocka_unit_test(short_buffer),
      cmocka_unit_test(refusals),
      cmocka_unit_test(same_at_any_thread_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
