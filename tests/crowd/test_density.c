/* Crowds, the congestion layer (opts.density_gain): the density is what
 * the bodies make of it by hand (3 x 3 counts, the gain above the
 * comfortable level) on top of the caller's layer, the same at 1, 2 and 3
 * threads; the fields the crowd repairs under it equal fresh builds under
 * the same layer; two equal corridors share a stream that without it
 * takes one; saves carry it, and a save whose density is corrupt is
 * refused with the crowd untouched; options out of range are refused. */
#include "test_crowd_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/flowfield.h"
#include "cairn_save.h"
#include "crowd_internal.h"

#define GAIN 2.0f
#define COMFORT 0.5f
#define EVERY 4u

static cairn_crowd *dense_crowd(const cairn_grid *g, uint32_t max, int threads,
                                const cairn_penalty *layer, float gain) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = max;
  o.threads = threads;
  o.penalty = layer;
  o.density_gain = gain;
  o.density_comfort = COMFORT;
  o.density_ticks = EVERY;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

/* n agents on random open cells of the goals' island, one field to goals. */
static void populate(cairn_crowd *c, const cairn_grid *g, uint64_t seed, size_t n,
                     const cairn_point *goals, size_t n_goals, cairn_agent *a) {
  uint64_t rng = seed;
  uint32_t island = cairn_grid_island(g, goals[0].x, goals[0].y);
  for (size_t k = 0; k < n;) {
    cairn_point p = tu_random_open(&rng, g);
    if (cairn_grid_island(g, p.x, p.y) != island) continue;
    a[k++] = tc_add_at(c, (float)p.x + 0.5f, (float)p.y + 0.5f);
  }
  assert_int_equal(cairn_crowd_order_field(c, a, n, goals, n_goals), CAIRN_OK);
}

static cairn_grid *open_map(uint64_t seed) {
  uint64_t rng = seed;
  return tu_random_grid(&rng, 56, 48, 12, 3);
}

static const cairn_point goals[3] = {{27, 23}, {28, 23}, {27, 24}};

/* Opens the goal cells (a random map may wall them). */
static void open_goals(cairn_grid *g) {
  for (int k = 0; k < 3; k++)
    assert_int_equal(cairn_grid_set_cost(g, goals[k].x, goals[k].y, 1), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
}

/* The density part, worked out here from positions: bodies per 3 x 3
 * block, gain straight steps per agent a cell above the comfort. */
static uint32_t by_hand(const cairn_grid *g, const float *pos, size_t n, int32_t x, int32_t y,
                        float gain) {
  if (cairn_grid_cost(g, x, y) == 0) return 0;
  uint32_t s = 0;
  for (size_t k = 0; k < n; k++) {
    int32_t cx = (int32_t)floorf(pos[2 * k]), cy = (int32_t)floorf(pos[2 * k + 1]);
    s += abs(cx - x) <= 1 && abs(cy - y) <= 1;
  }
  double over = (double)s - 9.0 * (double)COMFORT;
  if (over <= 0) return 0;
  return (uint32_t)((double)gain * (double)CAIRN_COST_ONE * over / 9.0 + 0.5);
}

/* The bodies' positions (every agent of a field order that has not left). */
static size_t bodies(const cairn_crowd *c, float *pos, size_t cap) {
  cairn_agent_state *st = malloc(cap * sizeof *st);
  cairn_crowd_arrays arr = {0};
  arr.pos = pos;
  arr.state = st;
  size_t n;
  assert_int_equal(cairn_crowd_export(c, &arr, cap, &n), CAIRN_OK);
  size_t m = 0;
  for (size_t k = 0; k < n; k++) {
    if (st[k] == CAIRN_AGENT_ARRIVED) continue; /* left through the goal */
    pos[2 * m] = pos[2 * k];
    pos[2 * m + 1] = pos[2 * k + 1];
    m++;
  }
  free(st);
  return m;
}

/* Every cell of the density as worked out by hand from the bodies before
 * an update tick, and the fields' layer the caller's plus it. */
static void assert_density_of(const cairn_crowd *c, const cairn_grid *g, const float *pos,
                              size_t n, const cairn_penalty *user, float gain,
                              size_t *crowded) {
  int32_t stride;
  const uint32_t *d = cairn_crowd_density(c, &stride);
  const cairn_penalty *fl = cairn_crowd_field_layer(c);
  assert_non_null(d);
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 0; x < cairn_grid_width(g); x++) {
      uint32_t got = d[(size_t)(y + 1) * (size_t)stride + (size_t)(x + 1)];
      uint32_t want = by_hand(g, pos, n, x, y, gain);
      if (got != want) fail_msg("cell (%d, %d): density %u, by hand %u", x, y, got, want);
      *crowded += got > 0;
      uint32_t u = user ? cairn_penalty_get(user, x, y) : 0;
      uint32_t f = cairn_penalty_get(fl, x, y);
      if (u == CAIRN_PENALTY_BLOCK) assert_int_equal(f, CAIRN_PENALTY_BLOCK);
      else assert_int_equal(f, u + got);
    }
}

/* The density after each update equals the hand count of the bodies as
 * they stood when the update tick began, also while the caller's layer
 * changes (values and blocks mirrored), and an update with no body leaves
 * nothing. */
static void density_is_the_bodies(void **state) {
  (void)state;
  cairn_grid *g = open_map(5);
  open_goals(g);
  cairn_penalty *user = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &user), CAIRN_OK);
  cairn_penalty_add(user, 10, 10, 3 * (int64_t)CAIRN_COST_ONE);
  cairn_crowd *c = dense_crowd(g, 500, 2, user, GAIN);
  cairn_agent a[500];
  populate(c, g, 17, 500, goals, 3, a);
  float *pos = malloc(2 * 500 * sizeof *pos);
  size_t crowded = 0, checks = 0;
  uint64_t rng = 3;
  while (cairn_crowd_count(c) && checks < 40) {
    if (c->tick % EVERY == 0) {
      size_t n = bodies(c, pos, 500);
      assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
      assert_density_of(c, g, pos, n, user, GAIN, &crowded);
      checks++;
      /* the caller's layer moves: a penalty, a block, an unblock */
      cairn_point p = tu_random_open(&rng, g);
      cairn_penalty_add(user, p.x, p.y, (int64_t)CAIRN_COST_ONE * (int64_t)(checks % 5));
      if (checks % 3 == 0) cairn_penalty_block(user, p.x, p.y, 1);
      if (checks % 6 == 0) cairn_penalty_block(user, p.x, p.y, 0);
      assert_int_equal(cairn_crowd_layer_changed(c), CAIRN_OK);
    } else {
      assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    }
  }
  assert_true(checks >= 20);
  assert_true(crowded > 100); /* the goal's approaches were crowded */
  /* every agent gone at once: the next update leaves no density */
  for (size_t k = 0; k < 500; k++) assert_int_equal(cairn_crowd_remove(c, a[k]), CAIRN_OK);
  while (c->tick % EVERY) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  size_t left = 0;
  assert_density_of(c, g, pos, 0, user, GAIN, &left);
  assert_int_equal(left, 0);
  free(pos);
  cairn_crowd_destroy(c);
  cairn_penalty_destroy(user);
  cairn_grid_destroy(g);
}

/* The same density, hash and fields at 1, 2 and 3 threads. */
static void same_at_any_thread_count(void **state) {
  (void)state;
  cairn_grid *g = open_map(9);
  open_goals(g);
  uint32_t *first = NULL;
  size_t cells = 0;
  uint64_t hash = 0;
  for (int threads = 1; threads <= 3; threads++) {
    cairn_crowd *c = dense_crowd(g, 700, threads, NULL, GAIN);
    cairn_agent a[700];
    populate(c, g, 23, 700, goals, 3, a);
    for (int t = 0; t < 150; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    int32_t stride;
    const uint32_t *d = cairn_crowd_density(c, &stride);
    cells = (size_t)stride * (size_t)(cairn_grid_height(g) + 2);
    if (threads == 1) {
      first = malloc(cells * sizeof *first);
      memcpy(first, d, cells * sizeof *first);
      hash = cairn_crowd_hash(c);
      size_t crowded = 0;
      for (size_t i = 0; i < cells; i++) crowded += d[i] > 0;
      assert_true(crowded > 20);
    } else {
      assert_memory_equal(first, d, cells * sizeof *first);
      assert_true(cairn_crowd_hash(c) == hash);
    }
    cairn_crowd_destroy(c);
  }
  free(first);
  cairn_grid_destroy(g);
}

/* After many updates each repaired in place, every field the crowd
 * follows equals a field built afresh under its layer: costs and
 * directions, cell for cell. */
static void repaired_equals_fresh(void **state) {
  (void)state;
  cairn_grid *g = open_map(13);
  open_goals(g);
  cairn_crowd *c = dense_crowd(g, 600, 2, NULL, 4.0f);
  cairn_agent a[600];
  populate(c, g, 29, 300, goals, 3, a);
  cairn_point other = {5, 5};
  while (cairn_grid_cost(g, other.x, other.y) == 0 ||
         cairn_grid_island(g, other.x, other.y) != cairn_grid_island(g, 27, 23))
    other.x++;
  populate(c, g, 31, 300, &other, 1, a + 300);
  cairn_flow_builder *b = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  cairn_flow_opts fo = cairn_flow_defaults();
  fo.threads = 1;
  fo.los_radius = 0; /* as the crowd builds */
  fo.penalty = cairn_crowd_field_layer(c);
  size_t w = (size_t)cairn_grid_width(g), h = (size_t)cairn_grid_height(g), compared = 0;
  cairn_cost *want = malloc(w * h * sizeof *want), *got = malloc(w * h * sizeof *got);
  for (int round = 0; round < 6; round++) {
    for (int t = 0; t < 13; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    for (int k = 0; k < CROWD_MAX_FIELDS; k++) {
      const cairn_field *f = c->fields[k].field;
      if (!f) continue;
      size_t ng;
      const cairn_point *gs = cairn_field_goals(f, &ng);
      cairn_field *fresh = NULL;
      assert_int_equal(cairn_field_create(g, NULL, &fresh), CAIRN_OK);
      assert_int_equal(cairn_field_build(b, fresh, g, gs, ng, &fo), CAIRN_OK);
      assert_int_equal(cairn_field_copy_costs(fresh, want, w * h), CAIRN_OK);
      assert_int_equal(cairn_field_copy_costs(f, got, w * h), CAIRN_OK);
      assert_memory_equal(want, got, w * h * sizeof *want);
      for (int32_t y = 0; y < (int32_t)h; y++)
        for (int32_t x = 0; x < (int32_t)w; x++)
          assert_int_equal(cairn_field_dir(fresh, x, y), cairn_field_dir(f, x, y));
      cairn_field_destroy(fresh);
      compared++;
    }
  }
  assert_true(compared >= 10);
  int32_t stride;
  const uint32_t *d = cairn_crowd_density(c, &stride);
  size_t crowded = 0;
  for (size_t i = 0; i < (size_t)stride * (h + 2); i++) crowded += d[i] > 0;
  assert_true(crowded > 0);
  free(want);
  free(got);
  cairn_flow_builder_destroy(b);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A room, two corridors of equal length (rows 4-5 and 15-16) through a
 * wall 30 cells thick, a hall with the goal on the middle row. */
static cairn_grid *corridors(void) {
  enum { W = 70, H = 21 };
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(W, H, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < H; y++)
    for (int32_t x = 20; x < 50; x++)
      if (!(y == 4 || y == 5 || y == 15 || y == 16)) cairn_grid_set_cost(g, x, y, 0);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

/* The share of the agents that took the upper corridor, each counted the
 * first time it stands in one. */
static double upper_share(float gain, size_t *through) {
  cairn_grid *g = corridors();
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 240;
  o.threads = 2;
  o.density_gain = gain;
  o.density_ticks = 10; /* the night's kind of update: a second apart */
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  /* the upper half of the room: without density every agent is nearer
   * the upper corridor */
  cairn_agent a[240];
  for (size_t k = 0; k < 240; k++)
    a[k] = tc_add_at(c, 0.5f + (float)(k % 20), 0.5f + (float)(k / 20));
  cairn_point goal = {65, 10};
  assert_int_equal(cairn_crowd_order_field(c, a, 240, &goal, 1), CAIRN_OK);
  uint8_t seen[240] = {0};
  size_t upper = 0, lower = 0;
  for (int t = 0; t < 3000 && upper + lower < 240; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    for (size_t k = 0; k < 240; k++) {
      cairn_agent_info i = tc_info(c, a[k]);
      if (seen[k] || i.x < 21.0f || i.x > 49.0f) continue;
      seen[k] = 1;
      if (i.y < 10.0f) upper++;
      else lower++;
    }
  }
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  *through = upper + lower;
  return (double)upper / (double)(upper + lower);
}

/* With the layer on, the two corridors share the stream within 60/40;
 * without it, the upper one takes nearly all. */
static void corridors_share_the_stream(void **state) {
  (void)state;
  size_t through_off, through_on;
  double off = upper_share(0.0f, &through_off), on = upper_share(GAIN, &through_on);
  printf("upper corridor: %.0f %% without density, %.0f %% with\n", 100 * off, 100 * on);
  assert_int_equal(through_off, 240);
  assert_int_equal(through_on, 240);
  assert_true(off > 0.8);
  assert_true(on >= 0.4 && on <= 0.6);
}

static void put32(uint8_t *p, uint32_t v) {
  for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

/* A save mid-run goes on in a new crowd exactly as the first, density
 * included; corrupt density cells, sealed, are refused and change
 * nothing; another gain is a mismatch. */
static void saves_carry_it(void **state) {
  (void)state;
  cairn_grid *g = open_map(21);
  open_goals(g);
  cairn_crowd *c = dense_crowd(g, 400, 1, NULL, GAIN);
  cairn_agent a[400];
  populate(c, g, 37, 400, goals, 3, a);
  for (int t = 0; t < 62; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  uint32_t n = c->dens->n_live;
  assert_true(n > 3);
  size_t len;
  uint8_t *bytes = tc_save_of(c, &len);
  cairn_crowd *d = dense_crowd(g, 400, 2, NULL, GAIN);
  cairn_error err;
  /* the density's cells are the last part before the checksum */
  size_t at = len - 8 - (size_t)n * 12;
  uint8_t *bad = malloc(len);
  struct {
    size_t off;
    uint32_t v;
  } cuts[] = {
      {at + 12, 0},                  /* cell 1 at x 0 ...  */
      {at + 8, 0},                   /* a value of 0 */
      {at + 8, CAIRN_PENALTY_BLOCK}, /* the block's value */
      {at, 9999},                    /* off the grid */
      {at - 4, n + 1},               /* one cell more than there are */
  };
  size_t before_len;
  uint8_t *before = tc_save_of(d, &before_len);
  for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
    memcpy(bad, bytes, len);
    put32(bad + cuts[k].off, cuts[k].v);
    if (k == 0) memcpy(bad + at + 12, bad + at, 8); /* cell 1 is cell 0 again */
    tc_reseal(bad, len);
    assert_int_equal(cairn_crowd_load(d, bad, len, &err), CAIRN_ERR_PARSE);
    size_t l2;
    uint8_t *now = tc_save_of(d, &l2);
    assert_int_equal(l2, before_len);
    assert_memory_equal(now, before, l2);
    free(now);
  }
  /* a blocked cell: the first open-cell entry moved onto a wall */
  cairn_point wall = {0, 0};
  while (cairn_grid_cost(g, wall.x, wall.y) != 0) wall.x++;
  memcpy(bad, bytes, len);
  put32(bad + at, (uint32_t)wall.x);
  put32(bad + at + 4, (uint32_t)wall.y);
  tc_reseal(bad, len);
  assert_int_equal(cairn_crowd_load(d, bad, len, &err), CAIRN_ERR_PARSE);
  assert_non_null(strstr(err.message, "density cell 0"));
  /* the whole save: both go on alike */
  assert_int_equal(cairn_crowd_load(d, bytes, len, &err), CAIRN_OK);
  int32_t stride;
  size_t cells = (size_t)cairn_grid_width(g) + 2;
  cells *= (size_t)cairn_grid_height(g) + 2;
  assert_memory_equal(cairn_crowd_density(c, &stride), cairn_crowd_density(d, &stride),
                      cells * sizeof(uint32_t));
  for (int t = 0; t < 40; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_int_equal(cairn_crowd_tick(d), CAIRN_OK);
    assert_true(cairn_crowd_hash(c) == cairn_crowd_hash(d));
  }
  assert_memory_equal(cairn_crowd_density(c, &stride), cairn_crowd_density(d, &stride),
                      cells * sizeof(uint32_t));
  /* another gain, or density off: made for another crowd */
  cairn_crowd *e = dense_crowd(g, 400, 1, NULL, 3.0f);
  assert_int_equal(cairn_crowd_load(e, bytes, len, &err), CAIRN_ERR_MISMATCH);
  assert_non_null(strstr(err.message, "density_gain differs"));
  cairn_crowd_destroy(e);
  e = dense_crowd(g, 400, 1, NULL, 0.0f);
  assert_int_equal(cairn_crowd_load(e, bytes, len, &err), CAIRN_ERR_MISMATCH);
  cairn_crowd_destroy(e);
  free(before);
  free(bad);
  free(bytes);
  cairn_crowd_destroy(d);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* Options out of range are refused, naming the option. */
static void options_refused(void **state) {
  (void)state;
  cairn_grid *g = open_map(1);
  struct {
    float gain, comfort;
    uint32_t every;
    const char *says;
  } bad[] = {
      {-1.0f, 1.0f, 10, "opts.density_gain -1"},  {101.0f, 1.0f, 10, "opts.density_gain 101"},
      {NAN, 1.0f, 10, "opts.density_gain"},       {2.0f, 17.0f, 10, "opts.density_comfort 17"},
      {2.0f, -0.5f, 10, "opts.density_comfort"},  {2.0f, 1.0f, 0, "opts.density_ticks 0"},
      {2.0f, 1.0f, 1001, "opts.density_ticks 1001"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    cairn_crowd_opts o = cairn_crowd_defaults();
    o.density_gain = bad[k].gain;
    o.density_comfort = bad[k].comfort;
    o.density_ticks = bad[k].every;
    tc_assert_refused(g, &o, bad[k].says);
  }
  /* off: no density to read, the fields pay the caller's layer */
  cairn_crowd *c = new_crowd(g, 8, 1);
  assert_null(cairn_crowd_density(c, NULL));
  assert_null(cairn_crowd_field_layer(c));
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(density_is_the_bodies),
      cmocka_unit_test(same_at_any_thread_count),
      cmocka_unit_test(repaired_equals_fresh),
      cmocka_unit_test(corridors_share_the_stream),
      cmocka_unit_test(saves_carry_it),
      cmocka_unit_test(options_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
