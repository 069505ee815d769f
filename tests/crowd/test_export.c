/* Crowds, reading in bulk and user values: cairn_crowd_export gives every
 * live agent in slot order, each value equal to cairn_crowd_get's, with
 * any array left out; a short buffer is CAIRN_ERR_BUFFER with the count
 * and nothing written; the user value is set at add, changed by
 * cairn_crowd_set_user, and reported by get and export; refusals change
 * nothing. */
#include "test_crowd_util.h"

#include <string.h>

/* A crowd of 60 agents on a random map, some removed, some ordered, after
 * some ticks: slots in use with holes. */
static cairn_crowd *busy_crowd(cairn_grid **g, cairn_agent *a, size_t *n) {
  uint64_t rng = 4242;
  *g = tu_random_grid(&rng, 40, 40, 20, 1);
  cairn_crowd *c = new_crowd(*g, 64, 1);
  for (size_t k = 0; k < 60; k++) {
    cairn_point p = tu_random_open(&rng, *g);
    cairn_agent_params ap = {(float)p.x + 0.5f, (float)p.y + 0.5f, 0.2f + 0.002f * (float)k,
                             1.5f, (uint16_t)k, 1000 + k};
    assert_int_equal(cairn_crowd_add(c, &ap, &a[k]), CAIRN_OK);
  }
  for (size_t k = 0; k < 60; k += 7) assert_int_equal(cairn_crowd_remove(c, a[k]), CAIRN_OK);
  cairn_point goal = tu_random_open(&rng, *g);
  cairn_agent field[20];
  size_t m = 0;
  for (size_t k = 1; k < 60 && m < 20; k += 3)
    if (k % 7) field[m++] = a[k];
  assert_int_equal(cairn_crowd_order_field(c, field, m, &goal, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_wander(c, a + 50, 5, 9), CAIRN_OK);
  for (int t = 0; t < 40; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  *n = 60;
  return c;
}

static void export_equals_get(void **state) {
  (void)state;
  cairn_grid *g;
  cairn_agent a[60];
  size_t na;
  cairn_crowd *c = busy_crowd(&g, a, &na);
  size_t live = cairn_crowd_count(c), n = 0;
  assert_int_equal(live, 51);
  float pos[128], vel[128], rad[64];
  cairn_agent_state st[64];
  cairn_agent h[64];
  uint64_t user[64];
  cairn_crowd_arrays out = {pos, vel, rad, st, h, user};
  assert_int_equal(cairn_crowd_export(c, &out, 64, &n), CAIRN_OK);
  assert_int_equal(n, live);
  for (size_t k = 0; k < n; k++) {
    cairn_agent_info i = tc_info(c, h[k]);
    assert_true(pos[2 * k] == i.x && pos[2 * k + 1] == i.y);
    assert_true(vel[2 * k] == i.vx && vel[2 * k + 1] == i.vy);
    assert_true(rad[k] == i.radius);
    assert_int_equal(st[k], i.state);
    assert_true(user[k] == i.user);
    assert_true(user[k] == 1000u + i.faction); /* as added */
    if (k) assert_true((h[k] & 0xffffffffu) > (h[k - 1] & 0xffffffffu)); /* slot order */
  }
  /* every live handle is there once */
  for (size_t k = 0; k < na; k++) {
    size_t seen = 0;
    for (size_t j = 0; j < n; j++) seen += h[j] == a[k];
    assert_int_equal(seen, k % 7 ? 1u : 0u);
  }
  /* any array may be left out; the others are the same */
  float pos2[128];
  uint64_t user2[64];
  cairn_crowd_arrays some = {pos2, NULL, NULL, NULL, NULL, user2};
  assert_int_equal(cairn_crowd_export(c, &some, 51, &n), CAIRN_OK);
  assert_memory_equal(pos2, pos, sizeof *pos * 2 * live);
  assert_memory_equal(user2, user, sizeof *user * live);
  cairn_crowd_arrays none = {NULL, NULL, NULL, NULL, NULL, NULL};
  assert_int_equal(cairn_crowd_export(c, &none, 51, &n), CAIRN_OK);
  assert_int_equal(n, 51);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void export_refusals(void **state) {
  (void)state;
  cairn_grid *g;
  cairn_agent a[60];
  size_t na, n = 7;
  cairn_crowd *c = busy_crowd(&g, a, &na);
  uint64_t h = cairn_crowd_hash(c);
  float pos[128];
  memset(pos, 0x7f, sizeof pos);
  float before[128];
  memcpy(before, pos, sizeof pos);
  cairn_crowd_arrays out = {pos, NULL, NULL, NULL, NULL, NULL};
  assert_int_equal(cairn_crowd_export(c, &out, 50, &n), CAIRN_ERR_BUFFER);
  assert_int_equal(n, 51); /* what it needs */
  assert_memory_equal(pos, before, sizeof pos); /* nothing written */
  assert_int_equal(cairn_crowd_export(c, &out, 0, &n), CAIRN_ERR_BUFFER);
  assert_int_equal(n, 51);
  assert_int_equal(cairn_crowd_export(c, NULL, 64, &n), CAIRN_ERR_ARG);
  assert_int_equal(n, 0);
  assert_int_equal(cairn_crowd_export(c, &out, 64, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_export(NULL, &out, 64, &n), CAIRN_ERR_ARG);
  assert_true(cairn_crowd_hash(c) == h);
  /* an empty crowd: nothing to write, any capacity */
  cairn_crowd *e = new_crowd(g, 4, 1);
  assert_int_equal(cairn_crowd_export(e, &out, 0, &n), CAIRN_OK);
  assert_int_equal(n, 0);
  cairn_crowd_destroy(e);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void user_values(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(16, 16, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 4, 1);
  cairn_agent_params p = {2.5f, 2.5f, 0.3f, 1.5f, 3, UINT64_MAX};
  cairn_agent a, b;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_OK);
  assert_true(tc_info(c, a).user == UINT64_MAX);
  b = tc_add_at(c, 5.5f, 5.5f); /* a positional initialiser without it: 0 */
  assert_true(tc_info(c, b).user == 0);
  uint64_t h = cairn_crowd_hash(c);
  assert_int_equal(cairn_crowd_set_user(c, b, 0x123456789abcull), CAIRN_OK);
  assert_true(tc_info(c, b).user == 0x123456789abcull);
  assert_true(cairn_crowd_hash(c) == h); /* not the simulation's state */
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_OK);
  assert_int_equal(cairn_crowd_set_user(c, a, 5), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_set_user(c, 0, 5), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_set_user(NULL, b, 5), CAIRN_ERR_ARG);
  assert_true(tc_info(c, b).user == 0x123456789abcull);
  /* a slot reused starts from the new agent's value */
  p.user = 77;
  cairn_agent a2;
  assert_int_equal(cairn_crowd_add(c, &p, &a2), CAIRN_OK);
  assert_int_equal(a2 & 0xffffffffu, a & 0xffffffffu);
  assert_true(tc_info(c, a2).user == 77);
  /* the user value survives ticks and orders */
  cairn_point goal = {12, 12};
  assert_int_equal(cairn_crowd_order_path(c, &a2, 1, goal), CAIRN_OK);
  for (int t = 0; t < 30; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_true(tc_info(c, a2).user == 77);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(export_equals_get),
      cmocka_unit_test(export_refusals),
      cmocka_unit_test(user_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
