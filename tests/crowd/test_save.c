/* Crowds saved and loaded (cairn/crowd_save.h): a crowd saved at tick T
 * and loaded into a new crowd (or rolled back into itself) ticks on to the
 * same hash, tick for tick, and to a byte-identical save, for a horde
 * under a penalty layer with grid edits, group moves with searches in
 * flight, per-unit paths with claims, routes over a hierarchy and
 * wanderers, at 1 and 2 threads; save, load, save gives the same bytes;
 * every truncation, every bit flip, another map or other options are
 * refused and leave the crowd exactly as it was, as does a load whose
 * memory runs out at any allocation; the size query and the files. */
#include "test_crowd_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/crowd.h"
#include "crowd_internal.h"

#include "cairn_save.h"

enum { HORDE, GROUPS, CLAIMS, HPA, WANDER, N_KINDS };
static const char *const kind_name[N_KINDS] = {"horde", "groups", "claims", "hpa",
                                               "wander"};

#define MAX_AGENTS 400
#define TOTAL_TICKS 110

/* A crowd on its map, with what it points to. */
typedef struct scene {
  int kind;
  cairn_grid *grid;
  cairn_penalty *layer;
  cairn_hpa *hpa;
  cairn_crowd *crowd;
  cairn_agent agents[MAX_AGENTS];
  size_t n;
  uint64_t rng; /* the scene's orders */
} scene;

static cairn_crowd_opts scene_opts(const scene *s, int threads) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = MAX_AGENTS;
  o.threads = threads;
  o.penalty = s->layer;
  o.hpa = s->hpa;
  o.waypoints = 6; /* group paths continue: WP_PARTIAL, WP_ASKED */
  /* small budgets: searches span ticks, so saves fall inside them */
  o.path_budget = s->kind == HPA ? 6 : 120;
  if (s->kind == CLAIMS) o.claim_penalty = 1.5f;
  return o;
}

/* The scene's map, layer and hierarchy, and an empty crowd on them. */
static void scene_setup(scene *s, int kind, int threads, const cairn_allocator *al) {
  memset(s, 0, sizeof *s);
  s->kind = kind;
  uint64_t rng = 1000 + (uint64_t)kind;
  s->grid = tu_random_grid(&rng, 72, 64, 18, kind == HORDE ? 3 : 1);
  if (kind == HORDE) {
    assert_int_equal(cairn_penalty_create(s->grid, NULL, &s->layer), CAIRN_OK);
    for (int32_t y = 20; y < 30; y++)
      for (int32_t x = 30; x < 40; x++)
        cairn_penalty_add(s->layer, x, y, 3 * (int64_t)CAIRN_COST_ONE);
  }
  if (kind == HPA) {
    cairn_hpa_opts ho = cairn_hpa_defaults();
    ho.cluster = 8;
    ho.threads = 1;
    assert_int_equal(cairn_hpa_create(s->grid, &ho, NULL, &s->hpa), CAIRN_OK);
  }
  cairn_crowd_opts o = scene_opts(s, threads);
  assert_int_equal(cairn_crowd_create(s->grid, &o, al, &s->crowd), CAIRN_OK);
  s->rng = 77 + (uint64_t)kind;
}

static void scene_free(scene *s) {
  cairn_crowd_destroy(s->crowd);
  cairn_hpa_destroy(s->hpa);
  cairn_penalty_destroy(s->layer);
  cairn_grid_destroy(s->grid);
}

static cairn_agent add_random(scene *s) {
  cairn_point p = tu_random_open(&s->rng, s->grid);
  cairn_agent_params ap = {(float)p.x + 0.5f, (float)p.y + 0.5f,
                           0.2f + 0.02f * (float)(s->n % 8), 1.0f + 0.1f * (float)(s->n % 9),
                           (uint16_t)s->n};
  cairn_agent a = 0;
  assert_int_equal(cairn_crowd_add(s->crowd, &ap, &a), CAIRN_OK);
  return a;
}

/* A far open cell on p's island. */
static cairn_point far_goal(scene *s, cairn_point from) {
  for (;;) {
    cairn_point g = tu_random_open(&s->rng, s->grid);
    if (abs(g.x - from.x) + abs(g.y - from.y) > 40 &&
        cairn_grid_island(s->grid, g.x, g.y) == cairn_grid_island(s->grid, from.x, from.y))
      return g;
  }
}

static cairn_point cell_of_agent(const scene *s, cairn_agent a) {
  cairn_agent_info i = tc_info(s->crowd, a);
  return pt((int32_t)i.x, (int32_t)i.y);
}

/* Groups of 10 ordered to far goals: agents [from, to). */
static void move_groups(scene *s, size_t from, size_t to) {
  for (size_t k = from; k < to; k += 10) {
    size_t n = to - k < 10 ? to - k : 10;
    cairn_point goal = far_goal(s, cell_of_agent(s, s->agents[k]));
    assert_int_equal(cairn_crowd_order_move(s->crowd, s->agents + k, n, goal), CAIRN_OK);
  }
}

static void paths_each(scene *s, size_t from, size_t to) {
  for (size_t k = from; k < to; k++) {
    cairn_point goal = far_goal(s, cell_of_agent(s, s->agents[k]));
    assert_int_equal(cairn_crowd_order_path(s->crowd, &s->agents[k], 1, goal), CAIRN_OK);
  }
}

/* The agents and their first orders. */
static void scene_populate(scene *s) {
  size_t n = s->kind == HORDE ? 300 : s->kind == WANDER ? 200 : 120;
  for (s->n = 0; s->n < n;) s->agents[s->n++] = add_random(s);
  cairn_point goals[3] = {pt(2, 2), pt(69, 60), pt(35, 33)};
  for (int k = 0; k < 3; k++) /* open goals on the island of agent 0 */
    while (cairn_grid_cost(s->grid, goals[k].x, goals[k].y) == 0 ||
           cairn_grid_island(s->grid, goals[k].x, goals[k].y) !=
               cairn_grid_island(s->grid, cell_of_agent(s, s->agents[0]).x,
                                 cell_of_agent(s, s->agents[0]).y))
      goals[k] = tu_random_open(&s->rng, s->grid);
  switch (s->kind) {
  case HORDE:
    assert_int_equal(cairn_crowd_order_field(s->crowd, s->agents, 200, goals, 2), CAIRN_OK);
    assert_int_equal(cairn_crowd_order_field(s->crowd, s->agents + 200, 80, goals + 2, 1),
                     CAIRN_OK);
    assert_int_equal(cairn_crowd_order_wander(s->crowd, s->agents + 280, 20, 5), CAIRN_OK);
    break;
  case GROUPS: move_groups(s, 0, n); break;
  case CLAIMS: paths_each(s, 0, n); break;
  case HPA:
    move_groups(s, 0, 60);
    paths_each(s, 60, n);
    break;
  default: assert_int_equal(cairn_crowd_order_wander(s->crowd, s->agents, n, 9), CAIRN_OK);
  }
}

/* The horde's map edits before tick t: a wall across the middle at 20,
 * opened again (at cost 2) at 45. */
static size_t grid_edits(int kind, uint64_t t, cairn_point *cells, uint8_t *cost) {
  if (kind != HORDE || (t != 20 && t != 45)) return 0;
  size_t n = 0;
  for (int32_t x = 10; x < 60; x++) {
    if (x % 7 == 0) continue; /* gaps */
    cells[n] = pt(x, 32);
    cost[n++] = t == 20 ? 0 : 2;
  }
  return n;
}

static void set_cells(scene *s, const cairn_point *cells, const uint8_t *cost, size_t n,
                      int tell_crowd) {
  if (!n) return;
  for (size_t k = 0; k < n; k++)
    assert_int_equal(cairn_grid_set_cost(s->grid, cells[k].x, cells[k].y, cost[k]), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(s->grid), CAIRN_OK);
  if (tell_crowd) assert_int_equal(cairn_crowd_grid_changed(s->crowd, cells, n), CAIRN_OK);
}

static void apply_edits(scene *s, uint64_t t, int tell_crowd) {
  cairn_point cells[64];
  uint8_t cost[64];
  size_t n = grid_edits(s->kind, t, cells, cost);
  set_cells(s, cells, cost, n, tell_crowd);
}

/* The map as it was at tick t (the cells edits touch back to their first
 * costs, then the edits before t), the crowd told. */
static void rewind_grid(scene *s, const uint8_t *first, uint64_t t) {
  cairn_point cells[64];
  uint8_t cost[64];
  size_t n = grid_edits(s->kind, 20, cells, cost);
  for (size_t k = 0; k < n; k++) cost[k] = first[k];
  set_cells(s, cells, cost, n, 1);
  for (uint64_t e = 0; e < t; e++) apply_edits(s, e, 1);
}

/* Orders given between ticks, after a load as before: handles from the
 * first run stay valid in the loaded crowd. */
static void scene_orders(scene *s, uint64_t t) {
  if (s->kind == GROUPS && t == 30) move_groups(s, 0, 30);
  if (s->kind == GROUPS && t == 70) {
    assert_int_equal(cairn_crowd_remove(s->crowd, s->agents[3]), CAIRN_OK);
    assert_int_equal(cairn_crowd_remove(s->crowd, s->agents[50]), CAIRN_OK);
    s->agents[3] = add_random(s);
    s->agents[50] = add_random(s);
    assert_int_equal(cairn_crowd_order_hold(s->crowd, s->agents + 40, 5), CAIRN_OK);
    move_groups(s, 3, 4);
  }
  if (s->kind == CLAIMS && t == 40) paths_each(s, 0, 20);
  if (s->kind == HPA && t == 35) move_groups(s, 0, 20);
}

/* Ticks from..to, edits and orders first; the hash after each tick. */
static void scene_run(scene *s, uint64_t from, uint64_t to, uint64_t *hash) {
  for (uint64_t t = from; t < to; t++) {
    apply_edits(s, t, 1);
    scene_orders(s, t);
    assert_int_equal(cairn_crowd_tick(s->crowd), CAIRN_OK);
    hash[t + 1] = cairn_crowd_hash(s->crowd);
  }
}

/* The crowd's save, in a malloc'd buffer. */
static uint8_t *save_of(const cairn_crowd *c, size_t *len) {
  assert_int_equal(cairn_crowd_save(c, NULL, 0, len), CAIRN_ERR_BUFFER);
  uint8_t *buf = malloc(*len);
  assert_non_null(buf);
  size_t got = 0;
  assert_int_equal(cairn_crowd_save(c, buf, *len, &got), CAIRN_OK);
  assert_int_equal(got, *len);
  return buf;
}

static void assert_same_save(const cairn_crowd *c, const uint8_t *want, size_t want_len) {
  size_t len;
  uint8_t *buf = save_of(c, &len);
  assert_int_equal(len, want_len);
  assert_memory_equal(buf, want, len);
  free(buf);
}

static const uint64_t save_ticks[] = {0, 9, 21, 33, 47, 58, 71, 86, 100};
#define N_SAVES (sizeof save_ticks / sizeof save_ticks[0])

/* A save and what the scene's own code needs to go on from it. */
typedef struct snapshot {
  uint8_t *bytes;
  size_t len;
  uint64_t tick, rng;
  cairn_agent agents[MAX_AGENTS];
  size_t n;
} snapshot;

static void take(scene *s, uint64_t t, snapshot *out) {
  out->bytes = save_of(s->crowd, &out->len);
  out->tick = t;
  out->rng = s->rng;
  memcpy(out->agents, s->agents, sizeof s->agents);
  out->n = s->n;
}

/* The scene picks up from snapshot k: its crowd loaded, its own state. */
static void resume(scene *s, const snapshot *k) {
  cairn_error err;
  cairn_status st = cairn_crowd_load(s->crowd, k->bytes, k->len, &err);
  if (st != CAIRN_OK) fail_msg("load at tick %llu: %s", (unsigned long long)k->tick, err.message);
  s->rng = k->rng;
  memcpy(s->agents, k->agents, sizeof s->agents);
  s->n = k->n;
}

/* From snapshot k to the end: the same hash after every tick as the first
 * run, and the same final save. */
static void assert_goes_on_alike(scene *s, const snapshot *k, const uint64_t *hash_a,
                                 const uint8_t *end, size_t end_len) {
  uint64_t hash[TOTAL_TICKS + 1];
  if (k->tick) assert_int_equal(cairn_crowd_hash(s->crowd), hash_a[k->tick]);
  scene_run(s, k->tick, TOTAL_TICKS, hash);
  for (uint64_t t = k->tick + 1; t <= TOTAL_TICKS; t++)
    if (hash[t] != hash_a[t])
      fail_msg("loaded at tick %llu: hash differs at tick %llu", (unsigned long long)k->tick,
               (unsigned long long)t);
  assert_same_save(s->crowd, end, end_len);
}

/* Saves at save_ticks during a run of TOTAL_TICKS at threads_a: each
 * loaded into a new crowd at threads_b, and the first crowd rolled back to
 * each, goes on as the first run did. */
static void resume_equal(int kind, int threads_a, int threads_b) {
  scene a;
  scene_setup(&a, kind, threads_a, NULL);
  uint8_t first[64] = {0};
  {
    cairn_point cells[64];
    uint8_t cost[64];
    size_t n = grid_edits(kind, 20, cells, cost);
    for (size_t k = 0; k < n; k++) first[k] = (uint8_t)cairn_grid_cost(a.grid, cells[k].x, cells[k].y);
  }
  scene_populate(&a);
  uint64_t hash_a[TOTAL_TICKS + 1];
  static snapshot snap[N_SAVES];
  int in_flight = 0;
  uint64_t t = 0;
  for (size_t k = 0; k < N_SAVES; k++) {
    scene_run(&a, t, save_ticks[k], hash_a);
    t = save_ticks[k];
    in_flight += a.crowd->in_search;
    take(&a, t, &snap[k]);
  }
  scene_run(&a, t, TOTAL_TICKS, hash_a);
  size_t end_len;
  uint8_t *end = save_of(a.crowd, &end_len);
  printf("%s, %d -> %d threads: %d of %zu saves inside a search, the last %zu bytes\n",
         kind_name[kind], threads_a, threads_b, in_flight, N_SAVES, snap[N_SAVES - 1].len);
  if (kind == GROUPS || kind == CLAIMS || kind == HPA) assert_true(in_flight >= 2);
  for (size_t k = 0; k < N_SAVES; k++) {
    scene b;
    scene_setup(&b, kind, threads_b, NULL);
    for (uint64_t e = 0; e < snap[k].tick; e++) apply_edits(&b, e, 0);
    resume(&b, &snap[k]);
    assert_same_save(b.crowd, snap[k].bytes, snap[k].len); /* save, load, save */
    assert_goes_on_alike(&b, &snap[k], hash_a, end, end_len);
    scene_free(&b);
  }
  /* rollback: the first crowd, at the end, back to each save */
  for (size_t k = N_SAVES; k-- > 0;) {
    rewind_grid(&a, first, snap[k].tick);
    resume(&a, &snap[k]);
    assert_same_save(a.crowd, snap[k].bytes, snap[k].len);
    assert_goes_on_alike(&a, &snap[k], hash_a, end, end_len);
  }
  for (size_t k = 0; k < N_SAVES; k++) free(snap[k].bytes);
  free(end);
  scene_free(&a);
}

static void resume_horde(void **state) {
  (void)state;
  resume_equal(HORDE, 1, 2);
  resume_equal(HORDE, 2, 1);
}
static void resume_groups(void **state) {
  (void)state;
  resume_equal(GROUPS, 1, 2);
  resume_equal(GROUPS, 2, 1);
}
static void resume_claims(void **state) {
  (void)state;
  resume_equal(CLAIMS, 1, 2);
  resume_equal(CLAIMS, 2, 1);
}
static void resume_hpa(void **state) {
  (void)state;
  resume_equal(HPA, 1, 2);
  resume_equal(HPA, 2, 1);
}
static void resume_wander(void **state) {
  (void)state;
  resume_equal(WANDER, 1, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(resume_horde),  cmocka_unit_test(resume_groups),
      cmocka_unit_test(resume_claims), cmocka_unit_test(resume_hpa),
      cmocka_unit_test(resume_wander),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
