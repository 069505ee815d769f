/* Edits a field, cache or tile set was not told of: after
 * cairn_grid_set_cost alone, every status read of a field (sample, copy,
 * verify, check, the layer's repair), of a cache (acquire, layer change)
 * and of tiles (dir, route) answers CAIRN_ERR_STATE and changes nothing;
 * reporting the cells (repair, cache update, invalidation) makes them
 * answer again, exactly as a fresh build on the edited grid, and the moves
 * never enter the new wall; fields whose grid did not change, or changed
 * only through reports (the crowd's repair path), never trip the check. */
#include "test_util.h"
#include "test_flow_util.h"

#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { W = 40, H = 30 };

/* The cell a step of the field leads to from (x, y). */
static cairn_point next_cell(const cairn_field *f, cairn_point p) {
  int d = cairn_field_dir(f, p.x, p.y);
  return pt(p.x + cairn_flow_dir_dx(d), p.y + cairn_flow_dir_dy(d));
}

/* A random map, a field to two goals, a far cell `from` and a cell `wall`
 * on its way to the goals, chosen so that `from` still reaches a goal
 * around it. */
typedef struct scene {
  cairn_grid *g;
  cairn_flow_builder *b;
  cairn_field *f;
  cairn_search *s;
  cairn_point goals[2], from, wall;
  uint64_t rng;
} scene;

static int scene_setup(void **state) {
  scene *sc = calloc(1, sizeof *sc);
  assert_non_null(sc);
  sc->rng = 0x5ca1e;
  sc->g = tu_random_grid(&sc->rng, W, H, 20, 3);
  sc->b = new_builder();
  sc->f = new_field(sc->g);
  sc->s = new_search();
  for (int tries = 0;; tries++) {
    assert_true(tries < 1000);
    random_goals(&sc->rng, sc->g, sc->goals, 2);
    assert_int_equal(cairn_field_build(sc->b, sc->f, sc->g, sc->goals, 2, NULL), CAIRN_OK);
    sc->from = tu_random_open(&sc->rng, sc->g);
    cairn_cost v = cairn_field_cost(sc->f, sc->from.x, sc->from.y);
    if (v == CAIRN_COST_INF || v < 10 * CAIRN_COST_ONE) continue;
    cairn_point p = sc->from;
    for (int k = 0; k < 4; k++) p = next_cell(sc->f, p);
    sc->wall = p;
    if (cairn_field_dir(sc->f, p.x, p.y) == CAIRN_FLOW_GOAL) continue;
    /* still reachable around the wall: a fill from the goals says so */
    uint8_t was = cairn_grid_cost(sc->g, p.x, p.y);
    assert_int_equal(cairn_grid_set_cost(sc->g, p.x, p.y, 0), CAIRN_OK);
    cairn_search_opts o = cairn_search_defaults();
    assert_int_equal(cairn_dijkstra_fill(sc->s, sc->g, sc->goals, 2, NULL, 0, 1, &o), CAIRN_OK);
    cairn_node_info info;
    assert_int_equal(cairn_search_cell(sc->s, sc->from, &info), CAIRN_OK);
    assert_int_equal(cairn_grid_set_cost(sc->g, p.x, p.y, was), CAIRN_OK);
    if (info.state != CAIRN_NODE_CLOSED) continue;
    /* the probe moved the grid's version on: build again, current */
    assert_int_equal(cairn_field_build(sc->b, sc->f, sc->g, sc->goals, 2, NULL), CAIRN_OK);
    break;
  }
  *state = sc;
  return 0;
}

static int scene_teardown(void **state) {
  scene *sc = *state;
  cairn_search_destroy(sc->s);
  cairn_field_destroy(sc->f);
  cairn_flow_builder_destroy(sc->b);
  cairn_grid_destroy(sc->g);
  free(sc);
  return 0;
}

/* A copy of a field's arrays, to show a refusal left it alone. */
typedef struct snapshot {
  cairn_cost *cost;
  uint8_t *dir;
  size_t n;
  uint64_t layer_version;
} snapshot;

static snapshot snap(const cairn_field *f) {
  snapshot s = {malloc(f->n * sizeof *f->cost), malloc(f->n), f->n,
                cairn_field_layer_version(f)};
  assert_non_null(s.cost);
  assert_non_null(s.dir);
  memcpy(s.cost, f->cost, f->n * sizeof *f->cost);
  memcpy(s.dir, f->dir, f->n);
  return s;
}

static void assert_unchanged(const cairn_field *f, snapshot *s) {
  assert_memory_equal(f->cost, s->cost, s->n * sizeof *s->cost);
  assert_memory_equal(f->dir, s->dir, s->n);
  assert_true(cairn_field_layer_version(f) == s->layer_version);
  free(s->cost);
  free(s->dir);
}

/* Every status read of f refuses, and f is left as it was. */
static void assert_field_refused(scene *sc, const cairn_field *f, cairn_point at) {
  snapshot before = snap(f);
  cairn_flow_sample smp = {3, 1, 0.5f, 0.5f, 1, 7};
  assert_int_equal(cairn_field_sample(f, (float)at.x + 0.5f, (float)at.y + 0.5f, &smp),
                   CAIRN_ERR_STATE);
  assert_int_equal(smp.dir, CAIRN_FLOW_NONE);
  assert_true(smp.vx == 0 && smp.vy == 0 && smp.los == 0 && smp.next_goal == 0 &&
              smp.cost == CAIRN_COST_INF);
  /* bad input still answers first */
  assert_int_equal(cairn_field_sample(f, -1.0f, 0.5f, &smp), CAIRN_ERR_RANGE);
  size_t cells = (size_t)W * H;
  cairn_cost *out = malloc(cells * sizeof *out);
  assert_non_null(out);
  memset(out, 0xab, cells * sizeof *out);
  assert_int_equal(cairn_field_copy_costs(f, out, cells), CAIRN_ERR_STATE);
  for (size_t k = 0; k < cells; k++) assert_true(out[k] == 0xababababababababull);
  free(out);
  cairn_field_fault fault;
  assert_int_equal(cairn_field_verify(f, sc->s, &fault), CAIRN_ERR_STATE);
  assert_int_equal(cairn_field_check(f), CAIRN_ERR_STATE);
  /* the value reads see nothing to walk: unreachable everywhere */
  for (int32_t y = 0; y < H; y++)
    for (int32_t x = 0; x < W; x++) {
      cairn_point g;
      assert_true(cairn_field_cost(f, x, y) == CAIRN_COST_INF);
      assert_int_equal(cairn_field_dir(f, x, y), CAIRN_FLOW_NONE);
      assert_int_equal(cairn_field_los(f, x, y, &g), 0);
    }
  assert_unchanged(f, &before);
}

/* A sample's cost and next_goal are the cell's value and whether the cell
 * its move leads to is a goal, at every open cell of a fresh field. */
static void assert_sample_reads(const cairn_field *f, const cairn_grid *g) {
  for (int32_t y = 0; y < H; y++)
    for (int32_t x = 0; x < W; x++) {
      if (!cairn_grid_cost(g, x, y)) continue;
      cairn_flow_sample smp;
      assert_int_equal(cairn_field_sample(f, (float)x + 0.25f, (float)y + 0.75f, &smp),
                       CAIRN_OK);
      assert_true(smp.cost == cairn_field_cost(f, x, y));
      int d = cairn_field_dir(f, x, y);
      int next = d < 8 && cairn_field_dir(f, x + cairn_flow_dir_dx(d),
                                           y + cairn_flow_dir_dy(d)) == CAIRN_FLOW_GOAL;
      assert_int_equal(smp.next_goal, next);
    }
}

/* f answers again, is what a fresh build on the grid gives, and its moves
 * from `from` reach a goal at its value without entering the wall. */
static void assert_field_answers(scene *sc, const cairn_field *f,
                                 const cairn_flow_opts *o) {
  assert_int_equal(cairn_field_check(f), CAIRN_OK);
  cairn_field *fresh = new_field(sc->g);
  assert_int_equal(cairn_field_build(sc->b, fresh, sc->g, sc->goals, 2, o), CAIRN_OK);
  assert_identical(f, fresh, sc->g);
  cairn_field_destroy(fresh);
  cairn_field_fault fault;
  assert_int_equal(cairn_field_verify(f, sc->s, &fault), CAIRN_OK);
  assert_true(fault.ok);
  assert_sample_reads(f, sc->g);
  cairn_flow_sample smp;
  assert_int_equal(cairn_field_sample(f, (float)sc->from.x + 0.5f, (float)sc->from.y + 0.5f, &smp),
                   CAIRN_OK);
  assert_true(smp.dir < 8);
  cairn_point p = sc->from;
  cairn_cost paid = 0;
  for (int steps = 0; cairn_field_dir(f, p.x, p.y) != CAIRN_FLOW_GOAL; steps++) {
    assert_true(steps < W * H);
    cairn_point n = next_cell(f, p);
    assert_false(n.x == sc->wall.x && n.y == sc->wall.y);
    assert_true(cairn_grid_cost(sc->g, n.x, n.y) != 0);
    paid += cairn_field_cost(f, p.x, p.y) - cairn_field_cost(f, n.x, n.y);
    p = n;
  }
  assert_true(paid == cairn_field_cost(f, sc->from.x, sc->from.y));
  size_t cells = (size_t)W * H;
  cairn_cost *out = malloc(cells * sizeof *out);
  assert_non_null(out);
  assert_int_equal(cairn_field_copy_costs(f, out, cells), CAIRN_OK);
  assert_true(out[(size_t)sc->from.y * W + (size_t)sc->from.x] ==
              cairn_field_cost(f, sc->from.x, sc->from.y));
  free(out);
}

/* A wall on the field's way, unreported: refused; a repair naming no cell
 * is refused too; the repair over the cell brings back a fresh build's
 * field that walks around the wall. */
static void field_unreported_then_repair(void **state) {
  scene *sc = *state;
  assert_int_equal(cairn_field_check(sc->f), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(sc->g, sc->wall.x, sc->wall.y, 0), CAIRN_OK);
  assert_field_refused(sc, sc->f, sc->from);
  snapshot before = snap(sc->f);
  assert_int_equal(cairn_field_repair(sc->b, sc->f, NULL, 0), CAIRN_ERR_STATE);
  assert_unchanged(sc->f, &before);
  assert_int_equal(cairn_field_repair(sc->b, sc->f, &sc->wall, 1), CAIRN_OK);
  assert_field_answers(sc, sc->f, NULL);
}

/* A build on the changed grid is current at once; a field never built has
 * nothing to be stale about: its sample answers as before (nothing there),
 * while check says it is not built. */
static void field_build_and_unbuilt(void **state) {
  scene *sc = *state;
  cairn_field *blank = new_field(sc->g);
  assert_int_equal(cairn_grid_set_cost(sc->g, sc->wall.x, sc->wall.y, 0), CAIRN_OK);
  cairn_flow_sample smp;
  assert_int_equal(cairn_field_sample(blank, 1.5f, 1.5f, &smp), CAIRN_OK);
  assert_int_equal(smp.dir, CAIRN_FLOW_NONE);
  assert_int_equal(cairn_field_check(blank), CAIRN_ERR_STATE);
  assert_int_equal(cairn_field_check(NULL), CAIRN_ERR_ARG);
  assert_field_refused(sc, sc->f, sc->from);
  assert_int_equal(cairn_field_build(sc->b, sc->f, sc->g, sc->goals, 2, NULL), CAIRN_OK);
  assert_field_answers(sc, sc->f, NULL);
  /* a refused build empties the field: check says so */
  cairn_point off = pt(-1, 0);
  assert_int_equal(cairn_field_build(sc->b, blank, sc->g, &off, 1, NULL), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_field_check(blank), CAIRN_ERR_STATE);
  cairn_field_destroy(blank);
}

/* A field with a cost layer: the layer's repair refuses after a grid edit
 * it was not told of (it would integrate against the new walls), leaving
 * the field and the layer version it shows alone; the grid's repair then
 * takes in both. */
static void layer_repair_refused(void **state) {
  scene *sc = *state;
  cairn_penalty *layer = NULL;
  assert_int_equal(cairn_penalty_create(sc->g, NULL, &layer), CAIRN_OK);
  cairn_flow_opts o = cairn_flow_defaults();
  o.penalty = layer;
  assert_int_equal(cairn_field_build(sc->b, sc->f, sc->g, sc->goals, 2, &o), CAIRN_OK);
  assert_int_equal(cairn_field_repair_layer(sc->b, sc->f), CAIRN_OK); /* nothing new */
  assert_int_equal(cairn_penalty_add(layer, sc->from.x, sc->from.y, 5000), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(sc->g, sc->wall.x, sc->wall.y, 0), CAIRN_OK);
  snapshot before = snap(sc->f);
  assert_int_equal(cairn_field_repair_layer(sc->b, sc->f), CAIRN_ERR_STATE);
  assert_unchanged(sc->f, &before);
  assert_field_refused(sc, sc->f, sc->from);
  assert_int_equal(cairn_field_repair(sc->b, sc->f, &sc->wall, 1), CAIRN_OK);
  assert_true(cairn_field_layer_version(sc->f) == cairn_penalty_version(layer));
  assert_field_answers(sc, sc->f, &o);
  cairn_penalty_destroy(layer);
}

/* ---- the cache ------------------------------------------------------ */

/* A grid cut in two by a wall down column 20: fields to goals on the left
 * never reach the right, so an edit there leaves them alone. */
static cairn_grid *split_grid(void) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(W, H, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < H; y++) assert_int_equal(cairn_grid_set_cost(g, 20, y, 0), CAIRN_OK);
  for (int32_t y = 5; y < 25; y++) assert_int_equal(cairn_grid_set_cost(g, 8, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

static void assert_matches_build(cairn_flow_builder *b, const cairn_field *f,
                                 cairn_grid *g, const cairn_point *goals, size_t n,
                                 const cairn_flow_opts *o) {
  assert_int_equal(cairn_field_check(f), CAIRN_OK);
  cairn_field *fresh = new_field(g);
  assert_int_equal(cairn_field_build(b, fresh, g, goals, n, o), CAIRN_OK);
  /* what a reader sees (a repair under a layer leaves INF, not a build's
   * 0, behind a new wall: both read as CAIRN_COST_INF) */
  assert_same_field(f, fresh, g);
  cairn_field_destroy(fresh);
}

/* The cache refuses to hand out fields (hit or miss) after an unreported
 * edit, and its layer change refuses too; a held field's reads refuse.
 * The update (the crowd's cairn_crowd_grid_changed does just this) repairs
 * the affected held field, marks the unaffected one current, and leaves a
 * detached field behind. */
static void cache_unreported_then_update(void **state) {
  (void)state;
  cairn_grid *g = split_grid();
  cairn_flow_builder *b = new_builder();
  cairn_penalty *layer = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &layer), CAIRN_OK);
  cairn_flow_cache *c = NULL;
  cairn_flow_opts o = cairn_flow_defaults();
  o.penalty = layer;
  assert_int_equal(cairn_flow_cache_create(g, 1u << 24, &o, NULL, &c), CAIRN_OK);
  cairn_point left = pt(2, 15), right = pt(35, 15), gate = pt(30, 3);
  const cairn_field *fl = NULL, *fr = NULL, *fg = NULL, *out = NULL;
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &fl), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &right, 1, &fr), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &gate, 1, &fg), CAIRN_OK);
  cairn_flow_cache_stats s0, s1;
  cairn_flow_cache_get_stats(c, &s0);
  /* a wall in the right half, unreported */
  cairn_point wall = pt(30, 15);
  assert_int_equal(cairn_grid_set_cost(g, wall.x, wall.y, 0), CAIRN_OK);
  out = fl;
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &out), CAIRN_ERR_STATE);
  assert_null(out);
  cairn_point other = pt(10, 2);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &other, 1, &out), CAIRN_ERR_STATE);
  assert_null(out);
  assert_int_equal(cairn_penalty_add(layer, 3, 3, 100), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_layer_changed(c, b, NULL, NULL), CAIRN_ERR_STATE);
  cairn_flow_cache_get_stats(c, &s1);
  assert_memory_equal(&s0, &s1, sizeof s0);
  cairn_flow_sample smp;
  assert_int_equal(cairn_field_sample(fr, 34.5f, 15.5f, &smp), CAIRN_ERR_STATE);
  assert_int_equal(cairn_field_sample(fl, 3.5f, 15.5f, &smp), CAIRN_ERR_STATE);
  /* an update naming no cell reports nothing */
  assert_int_equal(cairn_flow_cache_update(c, b, NULL, 0, NULL, NULL), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &out), CAIRN_ERR_STATE);
  /* the report; and the gate, a held goal, walled up with it */
  assert_int_equal(cairn_grid_set_cost(g, gate.x, gate.y, 0), CAIRN_OK);
  cairn_point changed[2] = {wall, gate};
  size_t repaired = 9, dropped = 9;
  assert_int_equal(cairn_flow_cache_update(c, b, changed, 2, &repaired, &dropped), CAIRN_OK);
  assert_int_equal(repaired, 1); /* fr; fl untouched, fg detached */
  assert_int_equal(dropped, 0);
  assert_int_equal(cairn_field_check(fg), CAIRN_ERR_STATE);
  assert_int_equal(cairn_field_sample(fg, 30.5f, 5.5f, &smp), CAIRN_ERR_STATE);
  assert_int_equal(cairn_flow_cache_release(c, fg), CAIRN_OK);
  /* now the layer: the layer change goes through, and the fields are the
   * fresh builds of the edited grid under the layer */
  assert_int_equal(cairn_penalty_add(layer, 3, 3, -100), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_layer_changed(c, b, NULL, NULL), CAIRN_OK);
  assert_int_equal(cairn_field_sample(fl, 3.5f, 15.5f, &smp), CAIRN_OK);
  assert_int_equal(cairn_field_sample(fr, 34.5f, 15.5f, &smp), CAIRN_OK);
  assert_true(smp.dir < 8);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &out), CAIRN_OK);
  assert_ptr_equal(out, fl);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &other, 1, &out), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_release(c, out), CAIRN_OK);
  assert_matches_build(b, fl, g, &left, 1, &o);
  assert_matches_build(b, fr, g, &right, 1, &o);
  assert_true(cairn_field_cost(fr, wall.x, wall.y) == CAIRN_COST_INF);
  assert_int_equal(cairn_flow_cache_release(c, fl), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_release(c, fl), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_release(c, fr), CAIRN_OK);
  cairn_flow_cache_destroy(c);
  cairn_penalty_destroy(layer);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* No false alarms: the crowd's path (cairn_grid_set_cost, then the cache
 * update over the cells) round after round, costs set to what they were,
 * islands relabelled: every sample of every held field answers. */
static void reported_edits_keep_answering(void **state) {
  (void)state;
  uint64_t rng = 0xc0de;
  cairn_grid *g = tu_random_grid(&rng, W, H, 15, 2);
  cairn_flow_builder *b = new_builder();
  cairn_flow_cache *c = NULL;
  assert_int_equal(cairn_flow_cache_create(g, 1u << 24, NULL, NULL, &c), CAIRN_OK);
  cairn_point goals[3];
  const cairn_field *held[3];
  random_goals(&rng, g, goals, 3);
  for (int k = 0; k < 3; k++)
    assert_int_equal(cairn_flow_cache_acquire(c, b, &goals[k], 1, &held[k]), CAIRN_OK);
  uint64_t v0 = cairn_grid_version(g);
  for (int round = 0; round < 30; round++) {
    cairn_point cells[2];
    size_t n = 0;
    for (int tries = 0; n < 2 && tries < 100; tries++) {
      cairn_point p = tu_random_open(&rng, g);
      bool goal = false;
      for (int k = 0; k < 3; k++) goal |= p.x == goals[k].x && p.y == goals[k].y;
      if (!goal) cells[n++] = p;
    }
    for (size_t i = 0; i < n; i++) { /* a cost change, or the same cost */
      uint8_t was = cairn_grid_cost(g, cells[i].x, cells[i].y);
      uint8_t cost = was;
      if (round % 3) cost = (uint8_t)(1 + round % 2);
      assert_int_equal(cairn_grid_set_cost(g, cells[i].x, cells[i].y, cost), CAIRN_OK);
    }
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    assert_int_equal(cairn_flow_cache_update(c, b, cells, n, NULL, NULL), CAIRN_OK);
    for (int k = 0; k < 3; k++) {
      assert_int_equal(cairn_field_check(held[k]), CAIRN_OK);
      for (int32_t y = 0; y < H; y += 3)
        for (int32_t x = 0; x < W; x += 3) {
          cairn_flow_sample smp;
          assert_int_equal(cairn_field_sample(held[k], (float)x + 0.25f, (float)y + 0.75f, &smp),
                           CAIRN_OK);
        }
    }
    const cairn_field *again;
    assert_int_equal(cairn_flow_cache_acquire(c, b, &goals[round % 3], 1, &again), CAIRN_OK);
    assert_ptr_equal(again, held[round % 3]);
    assert_int_equal(cairn_flow_cache_release(c, again), CAIRN_OK);
  }
  assert_true(cairn_grid_version(g) > v0);
  for (int k = 0; k < 3; k++) {
    assert_matches_build(b, held[k], g, &goals[k], 1, NULL);
    assert_int_equal(cairn_flow_cache_release(c, held[k]), CAIRN_OK);
  }
  cairn_flow_cache_destroy(c);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* ---- tiles ---------------------------------------------------------- */

/* Tiles over an open 32 x 16 map of 8 x 8 sectors, routed along row 12:
 * after an unreported wall on the route, dir and route refuse (nothing
 * integrated, nothing routed); after the hierarchy's update and the
 * invalidation they answer, equal to fresh tiles on the edited grid, and
 * walking them from the start reaches the goal around the wall. */
static void tiles_unreported_then_invalidate(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(32, 16, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 9; y < 16; y += 2) assert_int_equal(cairn_grid_set_cost(g, 20, y, 0), CAIRN_OK);
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = 8;
  ho.threads = 1;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  cairn_hpa_query *q = NULL;
  assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
  cairn_point goal = pt(30, 12), start = pt(1, 12), wall = pt(12, 12);
  cairn_flow_tiles *t = NULL;
  assert_int_equal(cairn_flow_tiles_create(g, h, goal, 16, NULL, &t), CAIRN_OK);
  assert_int_equal(cairn_flow_tiles_route(t, q, start), CAIRN_OK);
  int dir;
  cairn_cost cost;
  assert_int_equal(cairn_flow_tiles_dir(t, start.x, start.y, &dir, &cost), CAIRN_OK);
  cairn_flow_tiles_stats s0, s1;
  cairn_flow_tiles_get_stats(t, &s0);
  assert_int_equal(s0.routed, 4); /* the four sectors of row 1 */
  assert_int_equal(s0.built, 4);
  assert_int_equal(cairn_grid_set_cost(g, wall.x, wall.y, 0), CAIRN_OK);
  cost = 0;
  assert_int_equal(cairn_flow_tiles_dir(t, start.x, start.y, &dir, &cost), CAIRN_ERR_STATE);
  assert_int_equal(dir, CAIRN_FLOW_NONE);
  assert_true(cost == CAIRN_COST_INF);
  assert_int_equal(cairn_flow_tiles_dir(t, 29, 12, &dir, NULL), CAIRN_ERR_STATE);
  assert_int_equal(cairn_flow_tiles_route(t, q, pt(1, 1)), CAIRN_ERR_STATE);
  cairn_flow_tiles_get_stats(t, &s1);
  assert_int_equal(s1.routed, s0.routed);
  assert_int_equal(s1.built, s0.built);
  /* told, the tiles answer; their new routes need the hierarchy told too */
  cairn_rect box = {wall.x, wall.y, 1, 1};
  /* the wall's sector and the one upstream of it */
  assert_int_equal(cairn_flow_tiles_invalidate(t, box), 2);
  assert_int_equal(cairn_flow_tiles_route(t, q, pt(1, 1)), CAIRN_ERR_STATE); /* the hpa's */
  assert_int_equal(cairn_hpa_update(h, g, box), CAIRN_OK);
  cairn_flow_tiles *fresh = NULL;
  assert_int_equal(cairn_flow_tiles_create(g, h, goal, 16, NULL, &fresh), CAIRN_OK);
  assert_int_equal(cairn_flow_tiles_route(fresh, q, start), CAIRN_OK);
  for (int32_t y = 0; y < 16; y++)
    for (int32_t x = 0; x < 32; x++) {
      int da, db;
      cairn_cost ca, cb;
      assert_int_equal(cairn_flow_tiles_dir(t, x, y, &da, &ca), CAIRN_OK);
      assert_int_equal(cairn_flow_tiles_dir(fresh, x, y, &db, &cb), CAIRN_OK);
      assert_int_equal(da, db);
      assert_true(ca == cb);
    }
  cairn_point p = start;
  assert_int_equal(cairn_flow_tiles_dir(t, p.x, p.y, &dir, &cost), CAIRN_OK);
  cairn_cost total = cost, paid = 0;
  for (int steps = 0; dir != CAIRN_FLOW_GOAL; steps++) {
    assert_true(steps < 64 && dir < 8);
    cairn_point n = pt(p.x + cairn_flow_dir_dx(dir), p.y + cairn_flow_dir_dy(dir));
    assert_true(cairn_grid_cost(g, n.x, n.y) != 0);
    paid += (dir >= 4 ? CAIRN_COST_DIAG : CAIRN_COST_ONE) * cairn_grid_cost(g, n.x, n.y);
    p = n;
    assert_int_equal(cairn_flow_tiles_dir(t, p.x, p.y, &dir, NULL), CAIRN_OK);
  }
  assert_int_equal(p.x, goal.x);
  assert_int_equal(p.y, goal.y);
  assert_true(paid == total);
  assert_int_equal(cairn_flow_tiles_route(t, q, pt(1, 1)), CAIRN_OK);
  cairn_flow_tiles_destroy(fresh);
  cairn_flow_tiles_destroy(t);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(field_unreported_then_repair, scene_setup, scene_teardown),
      cmocka_unit_test_setup_teardown(field_build_and_unbuilt, scene_setup, scene_teardown),
      cmocka_unit_test_setup_teardown(layer_repair_refused, scene_setup, scene_teardown),
      cmocka_unit_test(cache_unreported_then_update),
      cmocka_unit_test(reported_edits_keep_answering),
      cmocka_unit_test(tiles_unreported_then_invalidate),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
