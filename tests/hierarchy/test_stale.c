/* Edits the hierarchy was not told of: after cairn_grid_set_cost alone,
 * every read (find, plan, each refine step, node, and the layer change and
 * refresh that would rebuild clusters on the new cells) answers
 * CAIRN_ERR_STATE and changes nothing; reporting the cells (update, edit,
 * or a full rebuild after a failed edit) makes them answer again, with the
 * hierarchy a fresh build gives and paths that avoid the new wall; a grid
 * that did not change never trips the check. */
#include "test_util.h"
#include "test_hpa_util.h"

#include "cairn/hierarchy.h"
#include "hpa_internal.h"

enum { W = 64, H = 48, CS = 8 };

/* A random map with a hierarchy, and two far cells of one island whose
 * hierarchical path (nearby 0) has a cell in its middle to wall up. */
typedef struct scene {
  cairn_grid *g;
  cairn_hpa *h;
  cairn_hpa_query *q;
  cairn_point a, b, wall; /* wall: a cell of the path from a to b */
  uint64_t rng;
} scene;

static int scene_setup(void **state) {
  scene *s = calloc(1, sizeof *s);
  assert_non_null(s);
  s->rng = 0x57a1e;
  s->g = tu_random_grid(&s->rng, W, H, 18, 3);
  s->h = build(s->g, CS, 1);
  s->q = new_query();
  cairn_hpa_path_opts o = popts(0, 1);
  for (int tries = 0;; tries++) {
    assert_true(tries < 1000);
    s->a = tu_random_open(&s->rng, s->g);
    s->b = tu_random_open(&s->rng, s->g);
    if (abs(s->a.x - s->b.x) + abs(s->a.y - s->b.y) < W / 2) continue;
    cairn_hpa_result r;
    if (cairn_hpa_find(s->q, s->h, s->a, s->b, &o, &r) != CAIRN_OK) continue;
    if (r.path_len < 8 || r.route_len < 4) continue;
    s->wall = r.path[r.path_len / 2];
    /* b must stay reachable from a around the wall */
    cairn_grid *walled = copy_grid(s->g);
    assert_int_equal(cairn_grid_set_cost(walled, s->wall.x, s->wall.y, 0), CAIRN_OK);
    cairn_search *se = NULL;
    assert_int_equal(cairn_search_create(NULL, &se), CAIRN_OK);
    cairn_cost around;
    cairn_status st = astar(se, walled, s->a, s->b, &around);
    cairn_search_destroy(se);
    cairn_grid_destroy(walled);
    if (st == CAIRN_OK) break;
  }
  *state = s;
  return 0;
}

static int scene_teardown(void **state) {
  scene *s = *state;
  cairn_hpa_query_destroy(s->q);
  cairn_hpa_destroy(s->h);
  cairn_grid_destroy(s->g);
  free(s);
  return 0;
}

static bool path_has(const cairn_hpa_result *r, cairn_point p) {
  for (size_t i = 0; i < r->path_len; i++)
    if (r->path[i].x == p.x && r->path[i].y == p.y) return true;
  return false;
}

/* Every read of h refuses with CAIRN_ERR_STATE, and nothing changes: a
 * nearby query (plain A*) and a far one (hierarchical). */
static void assert_refused(scene *s) {
  cairn_hpa_stats before, after;
  cairn_hpa_get_stats(s->h, &before);
  uint64_t version = s->h->version;
  cairn_hpa_path_opts far_o = popts(0, 1), near_o = popts(-1, 1);
  cairn_hpa_result r;
  refused(cairn_hpa_find(s->q, s->h, s->a, s->b, &far_o, &r), CAIRN_ERR_STATE, &r);
  refused(cairn_hpa_find(s->q, s->h, s->a, s->a, &near_o, &r), CAIRN_ERR_STATE, &r);
  refused(cairn_hpa_plan(s->q, s->h, s->a, s->b, &far_o, &r), CAIRN_ERR_STATE, &r);
  /* a refused plan is the query's final answer */
  refused(cairn_hpa_refine(s->q, 1, &r), CAIRN_ERR_STATE, &r);
  cairn_point p = pt(-1, -1);
  assert_int_equal(cairn_hpa_node(s->h, 0, &p), CAIRN_ERR_STATE);
  assert_int_equal(p.x, -1);
  uint32_t pending = 7;
  assert_int_equal(cairn_hpa_refresh(s->h, 0, &pending), CAIRN_ERR_STATE);
  assert_int_equal(pending, 0);
  cairn_penalty *layer = NULL;
  assert_int_equal(cairn_penalty_create(s->g, NULL, &layer), CAIRN_OK);
  assert_int_equal(cairn_penalty_add(layer, s->a.x, s->a.y, 1000), CAIRN_OK);
  assert_int_equal(cairn_hpa_set_layer(s->h, layer), CAIRN_ERR_STATE);
  assert_int_equal(cairn_hpa_set_layer(s->h, NULL), CAIRN_ERR_STATE);
  cairn_penalty_destroy(layer);
  cairn_hpa_get_stats(s->h, &after);
  assert_int_equal(after.layered_clusters, 0);
  assert_int_equal(after.rebuilt_clusters, before.rebuilt_clusters);
  assert_int_equal(after.nodes, before.nodes);
  assert_true(s->h->version == version);
  assert_false(s->h->stale);
}

/* h answers again: a's path to b avoids the wall and costs what a fresh
 * hierarchy's does (assert_matches_fresh: the same hierarchy, structure and
 * answers, on a copy of the grid). */
static void assert_answers(scene *s) {
  cairn_hpa_path_opts far_o = popts(0, 1);
  cairn_hpa_result r;
  assert_int_equal(cairn_hpa_find(s->q, s->h, s->a, s->b, &far_o, &r), CAIRN_OK);
  assert_false(path_has(&r, s->wall));
  assert_true(tu_path_cost(s->g, r.path, r.path_len, s->a, s->b, 8) == r.cost);
  cairn_grid *copy = copy_grid(s->g);
  cairn_hpa *fresh = build(copy, CS, 1);
  cairn_hpa_query *fq = new_query();
  cairn_hpa_result fr;
  assert_int_equal(cairn_hpa_find(fq, fresh, s->a, s->b, &far_o, &fr), CAIRN_OK);
  assert_true(fr.cost == r.cost);
  cairn_hpa_query_destroy(fq);
  cairn_hpa_destroy(fresh);
  cairn_grid_destroy(copy);
  assert_matches_fresh(s->h, s->g, CS, &s->rng, 40);
}

/* Walling up a cell of the path behind the hierarchy's back: refused
 * everywhere (the old answer would walk through the wall); the update over
 * that cell brings it back. */
static void unreported_wall_then_update(void **state) {
  scene *s = *state;
  uint64_t v0 = cairn_grid_version(s->g);
  assert_int_equal(cairn_grid_set_cost(s->g, s->wall.x, s->wall.y, 0), CAIRN_OK);
  assert_true(cairn_grid_version(s->g) > v0);
  assert_refused(s);
  /* islands relabelled by the caller are no report: still refused */
  assert_int_equal(cairn_grid_update_islands(s->g), CAIRN_OK);
  assert_refused(s);
  cairn_rect r = {s->wall.x, s->wall.y, 1, 1};
  assert_int_equal(cairn_hpa_update(s->h, s->g, r), CAIRN_OK);
  assert_answers(s);
  cairn_point p;
  assert_int_equal(cairn_hpa_node(s->h, 0, &p), CAIRN_OK);
}

/* The same through cairn_hpa_edit: naming the changed cell reports it (its
 * cost already set: the edit changes nothing more and rebuilds); an edit
 * of no cells reports nothing. */
static void unreported_wall_then_edit(void **state) {
  scene *s = *state;
  assert_int_equal(cairn_grid_set_cost(s->g, s->wall.x, s->wall.y, 0), CAIRN_OK);
  assert_int_equal(cairn_hpa_edit(s->h, s->g, NULL, NULL, 0), CAIRN_OK);
  assert_refused(s);
  uint8_t zero = 0;
  assert_int_equal(cairn_hpa_edit(s->h, s->g, &s->wall, &zero, 1), CAIRN_OK);
  assert_answers(s);
}

/* Two hierarchies on one grid: an edit through one is, to the other, an
 * edit it was not told of, until its own update. */
static void edit_through_another_hierarchy(void **state) {
  scene *s = *state;
  cairn_hpa *other = build(s->g, CS, 1);
  uint8_t zero = 0;
  assert_int_equal(cairn_hpa_edit(other, s->g, &s->wall, &zero, 1), CAIRN_OK);
  cairn_hpa_result r;
  cairn_hpa_path_opts far_o = popts(0, 1);
  assert_int_equal(cairn_hpa_find(s->q, other, s->a, s->b, &far_o, &r), CAIRN_OK);
  assert_false(path_has(&r, s->wall));
  assert_refused(s);
  cairn_rect box = {s->wall.x, s->wall.y, 1, 1};
  assert_int_equal(cairn_hpa_update(s->h, s->g, box), CAIRN_OK);
  assert_answers(s);
  assert_same_hierarchy(s->h, other);
  cairn_hpa_destroy(other);
}

/* A route being refined when the grid changes unreported: the next step
 * refuses (not the rest of the old route), and so does every step after;
 * planned again after the update, it reaches the goal around the wall. */
static void refine_step_checks(void **state) {
  scene *s = *state;
  cairn_hpa_path_opts far_o = popts(0, 1);
  cairn_hpa_result r;
  assert_int_equal(cairn_hpa_plan(s->q, s->h, s->a, s->b, &far_o, &r), CAIRN_IN_PROGRESS);
  assert_int_equal(cairn_hpa_refine(s->q, 1, &r), CAIRN_IN_PROGRESS);
  assert_int_equal(r.route_refined, 1);
  assert_int_equal(cairn_grid_set_cost(s->g, s->wall.x, s->wall.y, 0), CAIRN_OK);
  refused(cairn_hpa_refine(s->q, UINT32_MAX, &r), CAIRN_ERR_STATE, &r);
  refused(cairn_hpa_refine(s->q, 1, &r), CAIRN_ERR_STATE, &r);
  cairn_rect box = {s->wall.x, s->wall.y, 1, 1};
  assert_int_equal(cairn_hpa_update(s->h, s->g, box), CAIRN_OK);
  refused(cairn_hpa_refine(s->q, 1, &r), CAIRN_ERR_STATE, &r); /* still dropped */
  cairn_status st = cairn_hpa_plan(s->q, s->h, s->a, s->b, &far_o, &r);
  while (st == CAIRN_IN_PROGRESS) st = cairn_hpa_refine(s->q, 1, &r);
  assert_int_equal(st, CAIRN_OK);
  assert_false(path_has(&r, s->wall));
  assert_true(tu_path_cost(s->g, r.path, r.path_len, s->a, s->b, 8) == r.cost);
  assert_answers(s);
}

/* After a failed edit the hierarchy is stale and its next rebuild redoes
 * every cluster: that rebuild takes in a change nobody reported too, even
 * through a call that reports no cells (a layer change). */
static void full_rebuild_takes_in_everything(void **state) {
  scene *s = *state;
  tu_alloc ta;
  cairn_allocator al = tu_alloc_init(&ta, -1);
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = CS;
  o.threads = 1;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(s->g, &o, &al, &h), CAIRN_OK);
  /* a failed edit of one cell, then a wall nobody reports */
  cairn_point far_cell = s->a;
  uint8_t cost = (uint8_t)(cairn_grid_cost(s->g, far_cell.x, far_cell.y) % 3 + 1);
  ta.budget = 0;
  assert_int_equal(cairn_hpa_edit(h, s->g, &far_cell, &cost, 1), CAIRN_ERR_NOMEM);
  ta.budget = -1;
  assert_true(h->stale);
  assert_int_equal(cairn_grid_set_cost(s->g, s->wall.x, s->wall.y, 0), CAIRN_OK);
  cairn_hpa_result r;
  cairn_hpa_path_opts far_o = popts(0, 1);
  refused(cairn_hpa_find(s->q, h, s->a, s->b, &far_o, &r), CAIRN_ERR_STATE, &r);
  assert_int_equal(cairn_hpa_set_layer(h, NULL), CAIRN_OK); /* all clusters */
  assert_false(h->stale);
  assert_int_equal(cairn_grid_update_islands(s->g), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(s->q, h, s->a, s->b, &far_o, &r), CAIRN_OK);
  assert_false(path_has(&r, s->wall));
  assert_matches_fresh(h, s->g, CS, &s->rng, 40);
  cairn_hpa_destroy(h);
  assert_int_equal(ta.live_bytes, 0);
}

/* No false alarms: a grid that did not change (a cost set to what it was,
 * islands relabelled), reported edits, a layer and its refreshes: every
 * read answers, round after round. */
static void unchanged_grid_keeps_answering(void **state) {
  scene *s = *state;
  cairn_hpa_path_opts far_o = popts(0, 1), near_o = popts(-1, 1);
  cairn_hpa_result r;
  cairn_point p;
  uint64_t v0 = cairn_grid_version(s->g);
  assert_int_equal(cairn_grid_set_cost(s->g, s->a.x, s->a.y, cairn_grid_cost(s->g, s->a.x, s->a.y)),
                   CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(s->g), CAIRN_OK);
  assert_true(cairn_grid_version(s->g) == v0);
  cairn_penalty *layer = NULL;
  assert_int_equal(cairn_penalty_create(s->g, NULL, &layer), CAIRN_OK);
  assert_int_equal(cairn_hpa_set_layer(s->h, layer), CAIRN_OK);
  for (int round = 0; round < 20; round++) {
    cairn_point c = tu_random_open(&s->rng, s->g);
    if (round % 4 == 0) { /* a reported edit: a cost change, not a wall */
      uint8_t cost = (uint8_t)(1 + round % 3);
      assert_int_equal(cairn_hpa_edit(s->h, s->g, &c, &cost, 1), CAIRN_OK);
      assert_true(cairn_grid_version(s->g) >= v0);
    }
    if (round % 4 == 1) { /* the caller's own edit, then the update */
      assert_int_equal(cairn_grid_set_cost(s->g, c.x, c.y, (uint8_t)(1 + round % 2)), CAIRN_OK);
      cairn_rect box = {c.x, c.y, 1, 1};
      assert_int_equal(cairn_hpa_update(s->h, s->g, box), CAIRN_OK);
    }
    assert_int_equal(cairn_penalty_add(layer, c.x, c.y, 20000), CAIRN_OK);
    uint32_t pending;
    assert_int_equal(cairn_hpa_refresh(s->h, 2, &pending), CAIRN_OK);
    assert_int_equal(cairn_hpa_find(s->q, s->h, s->a, s->b, &far_o, &r), CAIRN_OK);
    assert_true(tu_path_cost(s->g, r.path, r.path_len, s->a, s->b, 8) == r.base_cost);
    cairn_status st = cairn_hpa_find(s->q, s->h, s->a, c, &near_o, &r);
    assert_true(st == CAIRN_OK || st == CAIRN_NO_PATH);
    assert_int_equal(r.status, st);
    assert_int_equal(cairn_hpa_plan(s->q, s->h, s->a, s->b, &far_o, &r), CAIRN_IN_PROGRESS);
    while ((st = cairn_hpa_refine(s->q, 1, &r)) == CAIRN_IN_PROGRESS) {}
    assert_int_equal(st, CAIRN_OK);
    assert_int_equal(cairn_hpa_node(s->h, 0, &p), CAIRN_OK);
  }
  assert_int_equal(cairn_hpa_set_layer(s->h, NULL), CAIRN_OK);
  cairn_penalty_destroy(layer);
  assert_matches_fresh(s->h, s->g, CS, &s->rng, 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(unreported_wall_then_update, scene_setup, scene_teardown),
      cmocka_unit_test_setup_teardown(unreported_wall_then_edit, scene_setup, scene_teardown),
      cmocka_unit_test_setup_teardown(edit_through_another_hierarchy, scene_setup, scene_teardown),
      cmocka_unit_test_setup_teardown(refine_step_checks, scene_setup, scene_teardown),
      cmocka_unit_test_setup_teardown(full_rebuild_takes_in_everything, scene_setup,
                                      scene_teardown),
      cmocka_unit_test_setup_teardown(unchanged_grid_keeps_answering, scene_setup, scene_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
