/* Flow-field repairs: random edits, each repaired, equal a fresh build bit
 * for bit; a repair re-integrates only the cells that depended on the edit;
 * a walled-in goal is refused; under a changing cost layer repaired fields
 * equal fresh builds, and a layer repair stays local. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_flow_util.h"

#include <math.h>
#include <stdbool.h>

#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

/* Random edits (walls raised and removed, terrain changed, near and far
 * from the goals), each repaired, equal a fresh build bit for bit. */
static void repair_equals_rebuild(void **state) {
  (void)state;
  uint64_t rng = 15;
  cairn_flow_builder *b = new_builder();
  for (int trial = 0; trial < 12; trial++) {
    int moves = trial % 4 == 3 ? 4 : 8;
    int max_cost = trial % 2 ? 6 : 1;
    cairn_grid *g = tu_random_grid(&rng, 48, 36, 20, max_cost);
    cairn_point goals[3];
    size_t ng = 1 + (size_t)(trial % 3);
    random_goals(&rng, g, goals, ng);
    cairn_flow_opts o = opts_of(moves, CAIRN_FLOW_QUEUE_AUTO, 1);
    o.los_radius = 6;
    cairn_field *f = new_field(g), *fresh = new_field(g);
    assert_int_equal(cairn_field_build(b, f, g, goals, ng, &o), CAIRN_OK);
    for (int round = 0; round < 15; round++) {
      cairn_point cells[6];
      size_t n = 1 + tu_below(&rng, 6);
      for (size_t k = 0; k < n; k++) {
        cairn_point c = pt((int32_t)tu_below(&rng, 48), (int32_t)tu_below(&rng, 36));
        if (round % 3 == 0 && k > 0) /* clustered: a wall segment */
          c = pt(cells[0].x + (int32_t)k < 48 ? cells[0].x + (int32_t)k : cells[0].x, cells[0].y);
        bool goal = false;
        for (size_t j = 0; j < ng; j++) goal |= c.x == goals[j].x && c.y == goals[j].y;
        uint8_t cost = tu_below(&rng, 2) ? 0 : (uint8_t)(1 + tu_below(&rng, (uint32_t)max_cost));
        if (goal && !cost) cost = 1;
        assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, cost), CAIRN_OK);
        cells[k] = c;
      }
      assert_int_equal(cairn_field_repair(b, f, cells, n), CAIRN_OK);
      assert_int_equal(cairn_field_build(b, fresh, g, goals, ng, &o), CAIRN_OK);
      assert_same_field(f, fresh, g);
    }
    cairn_field_destroy(f);
    cairn_field_destroy(fresh);
    cairn_grid_destroy(g);
  }
  cairn_flow_builder_destroy(b);
}

/* A repair recomputes the cells that depended on the edit, not the map: a
 * wall cell on an open 200 x 200 map shades the cells behind it from the
 * goal (about 50 x 50 here), and only those are re-integrated. */
static void repair_is_local(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(200, 200, 1, NULL, &g), CAIRN_OK);
  cairn_flow_builder *b = new_builder();
  cairn_field *f = new_field(g), *fresh = new_field(g);
  cairn_point goal = pt(10, 10), wall = pt(150, 150);
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, NULL), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, wall.x, wall.y, 0), CAIRN_OK);
  assert_int_equal(cairn_field_repair(b, f, &wall, 1), CAIRN_OK);
  cairn_field_stats fs;
  cairn_field_get_stats(f, &fs);
  print_message("repair_is_local: %zu cells re-integrated\n", fs.repaired);
  assert_true(fs.repaired > 9 && fs.repaired < 4000);
  assert_int_equal(cairn_field_build(b, fresh, g, &goal, 1, NULL), CAIRN_OK);
  assert_same_field(f, fresh, g);
  cairn_field_destroy(f);
  cairn_field_destroy(fresh);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* One step of a random influence history: an event (radius 0..9, near
 * or far from the goals), a decaying tick, or a unit stopping on a cell
 * or moving on (layer blocks). */
static void layer_step(uint64_t *rng, const cairn_grid *g, cairn_penalty *p,
                       cairn_influence *m, cairn_point *blocked, size_t *n_blocked) {
  uint32_t kind = tu_below(rng, 6);
  if (kind <= 2) {
    cairn_point c = tu_random_open(rng, g);
    uint32_t amount = (1 + tu_below(rng, 8)) * (uint32_t)CAIRN_COST_ONE / 2;
    assert_int_equal(cairn_influence_event(m, c.x, c.y, (int32_t)tu_below(rng, 10), amount),
                     CAIRN_OK);
  } else if (kind == 3) {
    assert_int_equal(cairn_influence_tick(m, 52000 + tu_below(rng, 12000), tu_below(rng, 3000)),
                     CAIRN_OK);
  } else if (kind == 4 && *n_blocked < 16) {
    blocked[*n_blocked] = tu_random_open(rng, g);
    assert_int_equal(cairn_penalty_block(p, blocked[*n_blocked].x, blocked[*n_blocked].y, 1),
                     CAIRN_OK);
    (*n_blocked)++;
  } else if (*n_blocked) {
    size_t k = tu_below(rng, (uint32_t)*n_blocked);
    assert_int_equal(cairn_penalty_block(p, blocked[k].x, blocked[k].y, 0), CAIRN_OK);
    blocked[k] = blocked[--*n_blocked];
  }
}

/* Under a changing layer (influence events, ticks that fade and spread
 * them, blocks set and lifted), a field repaired after every few steps
 * equals a fresh build bit for bit (values, directions, line of sight) and
 * passes the check against the core's layered Dijkstra, on random maps,
 * 4 and 8 moves, even and uneven terrain; a grid edit under the layer
 * (cairn_field_repair) takes in the layer's changes too. */
static void repair_under_layer(void **state) {
  (void)state;
  uint64_t rng = 0x1a7e5;
  cairn_flow_builder *b = new_builder();
  cairn_search *s = new_search();
  for (int trial = 0; trial < 8; trial++) {
    const int moves = trial % 4 == 3 ? 4 : 8, w = 40 + (int)tu_below(&rng, 30), h = 30;
    cairn_grid *g = tu_random_grid(&rng, w, h, 15 + (int)tu_below(&rng, 15), trial % 2 ? 7 : 1);
    cairn_penalty *p = NULL;
    cairn_influence *m = NULL;
    assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
    assert_int_equal(cairn_influence_create(g, p, NULL, &m), CAIRN_OK);
    cairn_point goals[3], blocked[16];
    size_t ng = 1 + (size_t)(trial % 3), n_blocked = 0;
    random_goals(&rng, g, goals, ng);
    cairn_flow_opts o = opts_of(moves, CAIRN_FLOW_QUEUE_AUTO, 1);
    o.los_radius = 6;
    o.penalty = p;
    cairn_field *f = new_field(g), *fresh = new_field(g);
    assert_int_equal(cairn_field_build(b, f, g, goals, ng, &o), CAIRN_OK);
    assert_true(cairn_field_layer_version(f) == cairn_penalty_version(p));
    for (int round = 0; round < 30; round++) {
      int steps = 1 + (int)tu_below(&rng, 4);
      for (int k = 0; k < steps; k++) layer_step(&rng, g, p, m, blocked, &n_blocked);
      if (round % 10 == 9) { /* a grid edit at the same time */
        cairn_point c = tu_random_open(&rng, g);
        bool goal = false;
        for (size_t j = 0; j < ng; j++) goal |= c.x == goals[j].x && c.y == goals[j].y;
        assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, goal ? 2 : 0), CAIRN_OK);
        assert_int_equal(cairn_field_repair(b, f, &c, 1), CAIRN_OK);
      } else {
        assert_int_equal(cairn_field_repair_layer(b, f), CAIRN_OK);
      }
      assert_true(cairn_field_layer_version(f) == cairn_penalty_version(p));
      assert_int_equal(cairn_field_build(b, fresh, g, goals, ng, &o), CAIRN_OK);
      assert_same_field(f, fresh, g);
      cairn_field_fault fault;
      assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
      if (!fault.ok) fail_msg("%d,%d: %s", fault.cell.x, fault.cell.y, fault.problem);
    }
    /* nothing changed since: nothing re-integrated */
    assert_int_equal(cairn_field_repair_layer(b, f), CAIRN_OK);
    cairn_field_stats fs;
    cairn_field_get_stats(f, &fs);
    assert_int_equal(fs.repaired, 0);
    cairn_field_destroy(f);
    cairn_field_destroy(fresh);
    cairn_influence_destroy(m);
    cairn_penalty_destroy(p);
    cairn_grid_destroy(g);
  }
  cairn_search_destroy(s);
  cairn_flow_builder_destroy(b);
}

/* A layer repair re-integrates the cells the change can reach, not the
 * map: a small event far from the goal on an open 200 x 200 map. */
static void layer_repair_is_local(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(200, 200, 1, NULL, &g), CAIRN_OK);
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  cairn_flow_builder *b = new_builder();
  cairn_field *f = new_field(g), *fresh = new_field(g);
  cairn_flow_opts o = cairn_flow_defaults();
  o.penalty = p;
  cairn_point goal = pt(10, 10);
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, &o), CAIRN_OK);
  for (int32_t y = 148; y <= 152; y++)
    for (int32_t x = 148; x <= 152; x++)
      assert_int_equal(cairn_penalty_add(p, x, y, 3 * CAIRN_COST_ONE), CAIRN_OK);
  assert_int_equal(cairn_field_repair_layer(b, f), CAIRN_OK);
  cairn_field_stats fs;
  cairn_field_get_stats(f, &fs);
  print_message("layer_repair_is_local: %zu cells re-integrated\n", fs.repaired);
  assert_true(fs.repaired >= 25 && fs.repaired < 200 * 200 / 4);
  assert_int_equal(cairn_field_build(b, fresh, g, &goal, 1, &o), CAIRN_OK);
  assert_same_field(f, fresh, g);
  cairn_field_destroy(f);
  cairn_field_destroy(fresh);
  cairn_flow_builder_destroy(b);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

/* A goal walled in: the repair refuses and leaves the field as it was. */
static void repair_refuses_blocked_goal(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(10, 10, 1, NULL, &g), CAIRN_OK);
  cairn_flow_builder *b = new_builder();
  cairn_field *f = new_field(g);
  cairn_point goal = pt(4, 4);
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, NULL), CAIRN_OK);
  size_t cells = (size_t)f->n;
  cairn_cost *before = malloc(cells * sizeof *before);
  assert_non_null(before);
  memcpy(before, f->cost, cells * sizeof *before);
  assert_int_equal(cairn_grid_set_cost(g, 4, 4, 0), CAIRN_OK);
  assert_int_equal(cairn_field_repair(b, f, &goal, 1), CAIRN_ERR_BLOCKED);
  /* untouched, and (the edit unreported by a repair that took) stale */
  assert_memory_equal(f->cost, before, cells * sizeof *before);
  free(before);
  assert_int_equal(cairn_field_check(f), CAIRN_ERR_STATE);
  assert_true(cairn_field_cost(f, 0, 0) == CAIRN_COST_INF);
  cairn_point off = pt(10, 0);
  assert_int_equal(cairn_grid_set_cost(g, 4, 4, 1), CAIRN_OK);
  assert_int_equal(cairn_field_repair(b, f, &off, 1), CAIRN_ERR_RANGE);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(repair_equals_rebuild),
      cmocka_unit_test(repair_is_local),
      cmocka_unit_test(repair_refuses_blocked_goal),
      cmocka_unit_test(repair_under_layer),
      cmocka_unit_test(layer_repair_is_local),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
