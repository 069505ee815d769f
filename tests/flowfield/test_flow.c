/* Flow fields: integration against the core's Dijkstra, multi-goal minima,
 * legal directions, repair against rebuild, the cache, thread counts and
 * schedulers, sector tiles, steering and bad input.
 *
 * usage: test_flow                 the unit tests
 *        test_flow --movingai NAME.map.scen
 *                                  the Moving AI check on that map:
 *                                  a few goals from its .scen and one
 *                                  multi-goal set, each verified against
 *                                  Dijkstra, the scenario's optimal
 *                                  length read off the field */
#include "test_jobs.h"
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn_flowfield.h"
#include "cairn_hierarchy.h"

static cairn_point pt(int32_t x, int32_t y) {
  cairn_point p = {x, y};
  return p;
}

static cairn_flow_builder *new_builder(void) {
  cairn_flow_builder *b = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  return b;
}

static cairn_field *new_field(const cairn_grid *g) {
  cairn_field *f = NULL;
  assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
  return f;
}

static cairn_search *new_search(void) {
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  return s;
}

static cairn_flow_opts opts_of(int moves, cairn_flow_queue q, int threads) {
  cairn_flow_opts o = cairn_flow_defaults();
  o.moves = moves;
  o.queue = q;
  o.threads = threads;
  return o;
}

/* The core's reverse fill from the goals, cell by cell. */
static void assert_matches_dijkstra(const cairn_field *f, const cairn_grid *g,
                                    const cairn_point *goals, size_t n,
                                    int moves) {
  cairn_search *s = new_search();
  cairn_search_opts so = cairn_search_defaults();
  so.moves = moves;
  assert_int_equal(cairn_dijkstra_fill(s, g, goals, n, NULL, 0, 1, &so), CAIRN_OK);
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 0; x < cairn_grid_width(g); x++) {
      cairn_node_info info;
      assert_int_equal(cairn_search_cell(s, pt(x, y), &info), CAIRN_OK);
      cairn_cost want = info.state == CAIRN_NODE_CLOSED ? info.g : CAIRN_COST_INF;
      if (!cairn_grid_cost(g, x, y)) want = CAIRN_COST_INF;
      if (cairn_field_cost(f, x, y) != want)
        fail_msg("cell %d,%d: field %llu, dijkstra %llu", x, y,
                 (unsigned long long)cairn_field_cost(f, x, y),
                 (unsigned long long)want);
    }
  cairn_search_destroy(s);
}

static void random_goals(uint64_t *rng, const cairn_grid *g, cairn_point *out,
                         size_t n) {
  for (size_t k = 0; k < n; k++) out[k] = tu_random_open(rng, g);
}

/* Integration == the core's Dijkstra, on random maps with random terrain,
 * 4 and 8 moves, every queue. */
static void field_equals_dijkstra(void **state) {
  (void)state;
  uint64_t rng = 11;
  cairn_flow_builder *b = new_builder();
  for (int trial = 0; trial < 24; trial++) {
    int w = 20 + (int)tu_below(&rng, 40), h = 10 + (int)tu_below(&rng, 40);
    int max_cost = trial % 3 == 0 ? 1 : trial % 3 == 1 ? 9 : 255;
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 40), max_cost);
    cairn_field *f = new_field(g);
    cairn_point goals[3];
    size_t n = 1 + tu_below(&rng, 3);
    random_goals(&rng, g, goals, n);
    for (int moves = 4; moves <= 8; moves += 4)
      for (int q = CAIRN_FLOW_QUEUE_AUTO; q <= CAIRN_FLOW_QUEUE_HEAP; q++) {
        cairn_flow_opts o = opts_of(moves, (cairn_flow_queue)q, 1);
        cairn_status st = cairn_field_build(b, f, g, goals, n, &o);
        if (q == CAIRN_FLOW_QUEUE_FIFO && max_cost > 1) {
          /* uneven terrain: refused unless the draw happened to be even */
          if (st == CAIRN_ERR_ARG) continue;
        }
        assert_int_equal(st, CAIRN_OK);
        assert_matches_dijkstra(f, g, goals, n, moves);
      }
    cairn_field_destroy(f);
    cairn_grid_destroy(g);
  }
  cairn_flow_builder_destroy(b);
}

/* Under a cost layer (penalties and blocks) the field equals the core's
 * layered reverse fill and passes its own check, on 4 and 8 moves with
 * the buckets and the heap; the FIFO queue and a layer of another size are
 * refused; a repair (a rebuild under a layer) equals a fresh build. */
static void field_under_layer(void **state) {
  (void)state;
  uint64_t rng = 0x1a4e;
  cairn_flow_builder *b = new_builder();
  cairn_search *s = new_search();
  for (int trial = 0; trial < 12; trial++) {
    int w = 15 + (int)tu_below(&rng, 30), h = 10 + (int)tu_below(&rng, 30);
    cairn_grid *g = tu_random_grid(&rng, w, h, 20, trial % 2 ? 1 : 5);
    cairn_penalty *p = NULL, *other = NULL;
    assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
    for (int k = 0; k < w * h / 4; k++) {
      cairn_point c = tu_random_open(&rng, g);
      if (tu_below(&rng, 10) == 0) cairn_penalty_block(p, c.x, c.y, 1);
      else cairn_penalty_add(p, c.x, c.y, (int64_t)tu_below(&rng, 3 * CAIRN_COST_ONE));
    }
    cairn_point goals[2];
    random_goals(&rng, g, goals, 2);
    cairn_field *f = new_field(g), *fresh = new_field(g);
    for (int moves = 4; moves <= 8; moves += 4)
      for (int q = CAIRN_FLOW_QUEUE_AUTO; q <= CAIRN_FLOW_QUEUE_HEAP; q++) {
        cairn_flow_opts o = opts_of(moves, (cairn_flow_queue)q, 1);
        o.penalty = p;
        cairn_status st = cairn_field_build(b, f, g, goals, 2, &o);
        if (q == CAIRN_FLOW_QUEUE_FIFO) {
          assert_int_equal(st, CAIRN_ERR_ARG);
          continue;
        }
        assert_int_equal(st, CAIRN_OK);
        cairn_search_opts so = cairn_search_defaults();
        so.moves = moves;
        so.penalty = p;
        assert_int_equal(cairn_dijkstra_fill(s, g, goals, 2, NULL, 0, 1, &so), CAIRN_OK);
        for (int32_t y = 0; y < h; y++)
          for (int32_t x = 0; x < w; x++) {
            cairn_node_info info;
            cairn_search_cell(s, pt(x, y), &info);
            cairn_cost want = info.state == CAIRN_NODE_CLOSED && cairn_grid_cost(g, x, y)
                                  ? info.g : CAIRN_COST_INF;
            assert_true(cairn_field_cost(f, x, y) == want);
          }
        cairn_field_fault fault;
        assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
        if (!fault.ok) fail_msg("%d,%d: %s", fault.cell.x, fault.cell.y, fault.problem);
      }
    /* edit the grid, repair, compare with a fresh build */
    cairn_flow_opts o = opts_of(8, CAIRN_FLOW_QUEUE_AUTO, 1);
    o.penalty = p;
    assert_int_equal(cairn_field_build(b, f, g, goals, 2, &o), CAIRN_OK);
    cairn_point cell = tu_random_open(&rng, g);
    if ((cell.x != goals[0].x || cell.y != goals[0].y) && (cell.x != goals[1].x || cell.y != goals[1].y)) {
      cairn_grid_set_cost(g, cell.x, cell.y, 0);
      assert_int_equal(cairn_field_repair(b, f, &cell, 1), CAIRN_OK);
      assert_int_equal(cairn_field_build(b, fresh, g, goals, 2, &o), CAIRN_OK);
      for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
          assert_true(cairn_field_cost(f, x, y) == cairn_field_cost(fresh, x, y));
          assert_int_equal(cairn_field_dir(f, x, y), cairn_field_dir(fresh, x, y));
        }
    }
    cairn_grid *g2 = NULL;
    assert_int_equal(cairn_grid_create(w + 1, h, 1, NULL, &g2), CAIRN_OK);
    assert_int_equal(cairn_penalty_create(g2, NULL, &other), CAIRN_OK);
    o.penalty = other;
    assert_int_equal(cairn_field_build(b, f, g, goals, 2, &o), CAIRN_ERR_ARG);
    cairn_penalty_destroy(other);
    cairn_grid_destroy(g2);
    cairn_field_destroy(f);
    cairn_field_destroy(fresh);
    cairn_penalty_destroy(p);
    cairn_grid_destroy(g);
  }
  cairn_search_destroy(s);
  cairn_flow_builder_destroy(b);
}

/* Penalties far dearer than the bucket ring spans (a thousand steps):
 * the buckets would wrap, so the build takes the heap, and the field still
 * equals the core's layered Dijkstra (cairn flow --influence with such a
 * penalty failed its --check before). */
static void layer_with_large_penalties(void **state) {
  (void)state;
  uint64_t rng = 0xb16;
  cairn_flow_builder *b = new_builder();
  cairn_search *s = new_search();
  cairn_grid *g = tu_random_grid(&rng, 40, 30, 15, 1);
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  for (int k = 0; k < 60; k++) {
    cairn_point c = tu_random_open(&rng, g);
    assert_int_equal(cairn_penalty_add(p, c.x, c.y, (int64_t)(1000 + tu_below(&rng, 5000)) * CAIRN_COST_ONE),
                     CAIRN_OK);
  }
  cairn_point goal = tu_random_open(&rng, g);
  cairn_field *f = new_field(g);
  for (int q = CAIRN_FLOW_QUEUE_AUTO; q <= CAIRN_FLOW_QUEUE_HEAP; q++) {
    if (q == CAIRN_FLOW_QUEUE_FIFO) continue;
    cairn_flow_opts o = opts_of(8, (cairn_flow_queue)q, 1);
    o.penalty = p;
    assert_int_equal(cairn_field_build(b, f, g, &goal, 1, &o), CAIRN_OK);
    cairn_field_stats fs;
    cairn_field_get_stats(f, &fs);
    assert_int_equal(fs.queue, CAIRN_FLOW_QUEUE_HEAP);
    cairn_field_fault fault;
    assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
    if (!fault.ok) fail_msg("%d,%d: %s", fault.cell.x, fault.cell.y, fault.problem);
  }
  cairn_field_destroy(f);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
  cairn_search_destroy(s);
  cairn_flow_builder_destroy(b);
}

/* A multi-goal field is the cell-wise minimum of the single-goal ones. */
static void multi_goal_is_minimum(void **state) {
  (void)state;
  uint64_t rng = 12;
  cairn_flow_builder *b = new_builder();
  for (int trial = 0; trial < 6; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 40, 30, 25, trial % 2 ? 5 : 1);
    cairn_point goals[5];
    random_goals(&rng, g, goals, 5);
    goals[4] = goals[1]; /* a duplicate counts once */
    cairn_field *all = new_field(g), *one = new_field(g);
    assert_int_equal(cairn_field_build(b, all, g, goals, 5, NULL), CAIRN_OK);
    size_t ng;
    cairn_field_goals(all, &ng);
    assert_int_equal(ng, goals[0].x == goals[1].x && goals[0].y == goals[1].y ? 3 : 4);
    cairn_cost best[40 * 30];
    for (size_t i = 0; i < 40 * 30; i++) best[i] = CAIRN_COST_INF;
    for (int k = 0; k < 4; k++) {
      assert_int_equal(cairn_field_build(b, one, g, &goals[k], 1, NULL), CAIRN_OK);
      for (int32_t y = 0; y < 30; y++)
        for (int32_t x = 0; x < 40; x++) {
          cairn_cost v = cairn_field_cost(one, x, y);
          if (v < best[y * 40 + x]) best[y * 40 + x] = v;
        }
    }
    for (int32_t y = 0; y < 30; y++)
      for (int32_t x = 0; x < 40; x++)
        assert_true(cairn_field_cost(all, x, y) == best[y * 40 + x]);
    cairn_field_destroy(all);
    cairn_field_destroy(one);
    cairn_grid_destroy(g);
  }
  cairn_flow_builder_destroy(b);
}

/* Walks the directions from (x, y) to a goal; the walk is checked by
 * tu_path_cost (adjacent, passable, no corner cut) and its cost returned. */
static cairn_cost follow(const cairn_field *f, const cairn_grid *g, int32_t x,
                         int32_t y, int moves, cairn_point *buf, size_t cap) {
  size_t n = 0;
  buf[n++] = pt(x, y);
  int d;
  while ((d = cairn_field_dir(f, x, y)) < 8) {
    x += cairn_flow_dir_dx(d);
    y += cairn_flow_dir_dy(d);
    assert_true(n < cap);
    buf[n++] = pt(x, y);
  }
  assert_int_equal(d, CAIRN_FLOW_GOAL);
  return tu_path_cost(g, buf, n, buf[0], buf[n - 1], moves);
}

/* Following the field from every reachable cell reaches a goal along a
 * legal path of exactly the cell's value; the others have no move. */
static void directions_legal(void **state) {
  (void)state;
  uint64_t rng = 13;
  cairn_flow_builder *b = new_builder();
  cairn_point *buf = malloc(4000 * sizeof *buf);
  assert_non_null(buf);
  for (int trial = 0; trial < 8; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 45, 35, 10 + 5 * trial, trial % 2 ? 7 : 1);
    cairn_point goals[2];
    random_goals(&rng, g, goals, 2);
    int moves = trial % 4 == 3 ? 4 : 8;
    cairn_flow_opts o = opts_of(moves, CAIRN_FLOW_QUEUE_AUTO, 0);
    cairn_field *f = new_field(g);
    assert_int_equal(cairn_field_build(b, f, g, goals, 2, &o), CAIRN_OK);
    for (int32_t y = 0; y < 35; y++)
      for (int32_t x = 0; x < 45; x++) {
        cairn_cost v = cairn_field_cost(f, x, y);
        if (v == CAIRN_COST_INF) {
          assert_int_equal(cairn_field_dir(f, x, y), CAIRN_FLOW_NONE);
          continue;
        }
        assert_true(follow(f, g, x, y, moves, buf, 4000) == v);
      }
    cairn_search *s = new_search();
    cairn_field_fault fault;
    assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
    assert_true(fault.ok);
    cairn_search_destroy(s);
    cairn_field_destroy(f);
    cairn_grid_destroy(g);
  }
  free(buf);
  cairn_flow_builder_destroy(b);
}

/* The check finds a broken field: a value and a direction tampered with
 * through the private layout. */
#include "flow_internal.h"
static void verify_catches_faults(void **state) {
  (void)state;
  uint64_t rng = 14;
  cairn_grid *g = tu_random_grid(&rng, 30, 20, 15, 1);
  cairn_flow_builder *b = new_builder();
  cairn_field *f = new_field(g);
  cairn_point goal = tu_random_open(&rng, g);
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, NULL), CAIRN_OK);
  cairn_search *s = new_search();
  cairn_field_fault fault;
  assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
  assert_true(fault.ok);
  cairn_point c = pt(-1, -1);
  for (int32_t y = 0; y < 20 && c.x < 0; y++)
    for (int32_t x = 0; x < 30 && c.x < 0; x++)
      if (cairn_field_dir(f, x, y) < 8) c = pt(x, y);
  size_t i = (size_t)(c.y + 1) * (size_t)f->stride + (size_t)(c.x + 1);
  f->cost[i] += 1;
  assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
  assert_false(fault.ok);
  assert_int_equal(fault.cell.x, c.x);
  assert_int_equal(fault.cell.y, c.y);
  f->cost[i] -= 1;
  uint8_t keep = f->dir[i];
  f->dir[i] = (uint8_t)((keep & FLOW_DIR_MASK) ^ 1); /* the opposite move */
  assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
  assert_false(fault.ok);
  f->dir[i] = keep;
  cairn_search_destroy(s);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* Everything a reader sees, cell by cell. */
static void assert_same_field(const cairn_field *a, const cairn_field *b,
                              const cairn_grid *g) {
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 0; x < cairn_grid_width(g); x++) {
      if (cairn_field_cost(a, x, y) != cairn_field_cost(b, x, y) ||
          cairn_field_dir(a, x, y) != cairn_field_dir(b, x, y))
        fail_msg("cell %d,%d: %llu/%d vs %llu/%d", x, y,
                 (unsigned long long)cairn_field_cost(a, x, y), cairn_field_dir(a, x, y),
                 (unsigned long long)cairn_field_cost(b, x, y), cairn_field_dir(b, x, y));
      cairn_point ga = pt(-9, -9), gb = pt(-9, -9);
      int la = cairn_field_los(a, x, y, &ga), lb = cairn_field_los(b, x, y, &gb);
      if (la != lb || ga.x != gb.x || ga.y != gb.y)
        fail_msg("cell %d,%d: line of sight %d vs %d", x, y, la, lb);
    }
}

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

/* The cache under a layer: one call brings held fields up to date (equal
 * to a fresh build), drops unheld affected ones, only re-marks fields the
 * change cannot reach, and does nothing when the layer did not change. */
static void cache_under_layer(void **state) {
  (void)state;
  /* two rooms joined by nothing, the right one beyond the layer's first
   * column of tiles (16 cells) */
  static const char *const rows[] = {
      "....................#...................",
      "....................#...................",
      "....................#...................",
      "....................#...................",
      "....................#...................",
      "....................#...................",
  };
  cairn_grid *g = tu_grid(rows, 6);
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  cairn_flow_builder *b = new_builder();
  cairn_flow_opts o = cairn_flow_defaults();
  o.penalty = p;
  cairn_flow_cache *c = NULL;
  assert_int_equal(cairn_flow_cache_create(g, 1 << 20, &o, NULL, &c), CAIRN_OK);
  cairn_point left = pt(2, 2), right = pt(30, 3), left2 = pt(8, 5);
  const cairn_field *fl, *fr, *fl2;
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &fl), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &right, 1, &fr), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left2, 1, &fl2), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_release(c, fl2), CAIRN_OK);
  size_t rep = 9, drop = 9;
  assert_int_equal(cairn_flow_cache_layer_changed(c, b, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep, 0);
  assert_int_equal(drop, 0);
  /* a stopped unit and some danger in the left room */
  assert_int_equal(cairn_penalty_block(p, 3, 2, 1), CAIRN_OK);
  assert_int_equal(cairn_penalty_add(p, 2, 3, 5 * CAIRN_COST_ONE), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_layer_changed(c, b, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep, 1);  /* the left field */
  assert_int_equal(drop, 1); /* the unheld left one */
  assert_true(cairn_field_layer_version(fr) == cairn_penalty_version(p));
  cairn_field *fresh = new_field(g);
  assert_int_equal(cairn_field_build(b, fresh, g, &left, 1, &o), CAIRN_OK);
  assert_same_field(fl, fresh, g);
  /* (2, 4) no longer walks straight through the danger at (2, 3) */
  assert_true(cairn_field_cost(fl, 2, 4) > 2 * CAIRN_COST_ONE);
  /* nobody walks through the stopped unit: (4, 2) goes round it */
  assert_true(cairn_field_cost(fl, 4, 2) > 2 * CAIRN_COST_ONE);
  cairn_flow_cache_stats cs;
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 2);
  assert_int_equal(cairn_flow_cache_layer_changed(c, b, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep + drop, 0);
  assert_int_equal(cairn_flow_cache_layer_changed(NULL, b, &rep, &drop), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_release(c, fl), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_release(c, fr), CAIRN_OK);
  cairn_field_destroy(fresh);
  cairn_flow_cache_destroy(c);
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
  cairn_cost before = cairn_field_cost(f, 0, 0);
  assert_int_equal(cairn_grid_set_cost(g, 4, 4, 0), CAIRN_OK);
  assert_int_equal(cairn_field_repair(b, f, &goal, 1), CAIRN_ERR_BLOCKED);
  assert_true(cairn_field_cost(f, 0, 0) == before);
  cairn_point off = pt(10, 0);
  assert_int_equal(cairn_grid_set_cost(g, 4, 4, 1), CAIRN_OK);
  assert_int_equal(cairn_field_repair(b, f, &off, 1), CAIRN_ERR_RANGE);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* 1 and 2 threads (and a batch) give the same field, bit for bit. */
static void thread_count_independent(void **state) {
  (void)state;
  uint64_t rng = 16;
  cairn_grid *g = tu_random_grid(&rng, 400, 200, 25, 1); /* above FLOW_PARALLEL_MIN_CELLS */
  cairn_grid *gt = tu_random_grid(&rng, 400, 200, 25, 9);
  cairn_flow_builder *b[2] = {new_builder(), new_builder()};
  for (int k = 0; k < 2; k++) {
    cairn_grid *grid = k ? gt : g;
    cairn_point goals[3];
    random_goals(&rng, grid, goals, 3);
    cairn_field *f1 = new_field(grid), *f2 = new_field(grid);
    cairn_flow_opts o1 = opts_of(8, CAIRN_FLOW_QUEUE_AUTO, 1);
    cairn_flow_opts o2 = opts_of(8, CAIRN_FLOW_QUEUE_AUTO, 2);
    assert_true(f1->n >= FLOW_PARALLEL_MIN_CELLS); /* so 2 threads run */
    assert_int_equal(cairn_field_build(b[0], f1, grid, goals, 3, &o1), CAIRN_OK);
    assert_int_equal(cairn_field_build(b[1], f2, grid, goals, 3, &o2), CAIRN_OK);
    assert_true(memcmp(f1->cost, f2->cost, f1->n * sizeof *f1->cost) == 0);
    assert_true(memcmp(f1->dir, f2->dir, f1->n) == 0);
    assert_true(memcmp(f1->los, f2->los, 2 * f1->n) == 0);
    /* a batch of four: each equals its build alone */
    cairn_field *fb[4];
    cairn_flow_request req[4];
    for (int r = 0; r < 4; r++) {
      fb[r] = new_field(grid);
      req[r].field = fb[r];
      req[r].goals = r % 2 ? goals : goals + 1;
      req[r].n_goals = r % 2 ? 3 : 1;
    }
    assert_int_equal(cairn_flow_build_batch(b, 2, grid, req, 4, &o2), CAIRN_OK);
    for (int r = 0; r < 4; r++) {
      assert_int_equal(req[r].status, CAIRN_OK);
      assert_int_equal(cairn_field_build(b[0], f1, grid, req[r].goals, req[r].n_goals, &o1),
                       CAIRN_OK);
      assert_true(memcmp(f1->cost, fb[r]->cost, f1->n * sizeof *f1->cost) == 0);
      assert_true(memcmp(f1->dir, fb[r]->dir, f1->n) == 0);
      cairn_field_destroy(fb[r]);
    }
    cairn_field_destroy(f1);
    cairn_field_destroy(f2);
  }
  cairn_flow_builder_destroy(b[0]);
  cairn_flow_builder_destroy(b[1]);
  cairn_grid_destroy(g);
  cairn_grid_destroy(gt);
}

/* Everything a build writes: values, directions (with the los flags), the
 * goals seen, the reached box. */
static void assert_identical(const cairn_field *a, const cairn_field *b,
                             const cairn_grid *g) {
  assert_true(memcmp(a->cost, b->cost, a->n * sizeof *a->cost) == 0);
  assert_true(memcmp(a->dir, b->dir, a->n) == 0);
  assert_true(a->bx0 == b->bx0 && a->by0 == b->by0 && a->bx1 == b->bx1 &&
              a->by1 == b->by1);
  assert_same_field(a, b, g); /* the los offsets where a flag says so */
}

/* The ways a build's row passes may run: the caller's jobs in reverse or
 * in shuffled orders (workers > 0), or the builder's own pool. */
typedef struct flow_way {
  uint32_t workers;
  int shuffle;
  int threads; /* without jobs */
} flow_way;

static const flow_way flow_ways[] = {
    {3, 0, 0}, {2, 1, 0}, {3, 1, 0}, {0, 0, 1}, {0, 0, 2}, {0, 0, 3},
};

/* Builds f every way and checks each against ref, built at one thread. */
static void build_every_way(cairn_flow_builder *b, cairn_field *f,
                            const cairn_field *ref, const cairn_grid *g,
                            const cairn_point *goals, size_t n,
                            cairn_flow_opts o, uint64_t seed) {
  for (size_t k = 0; k < sizeof flow_ways / sizeof *flow_ways; k++) {
    const flow_way *w = &flow_ways[k];
    tj_sched s = tj_make(w->workers ? w->workers : 1, w->shuffle, seed + k);
    o.jobs = w->workers ? tj_jobs(&s) : NULL;
    o.threads = w->workers ? 0 : w->threads;
    assert_int_equal(cairn_field_build(b, f, g, goals, n, &o), CAIRN_OK);
    if (w->workers) {
      /* the passes really went through the scheduler, in several bands */
      assert_true(s.runs > 0 && s.tasks > s.runs);
    } else if (w->threads > 1) {
      assert_non_null(b->workers.own);
      assert_int_equal(b->workers_threads, w->threads);
    }
    assert_identical(ref, f, g);
  }
}

/* Whatever runs the row passes (a scheduler that reverses or shuffles the
 * tasks and numbers workers oddly, or the builder's pool at 1, 2 and 3
 * threads) the field is the one built at one thread, bit for bit: even
 * and uneven terrain, a cost layer, 4 and 8 moves; and so is a field
 * built that way and then repaired after edits. */
static void scheduler_independent(void **state) {
  (void)state;
  uint64_t rng = 0x5c4ed;
  cairn_grid *grids[2] = {tu_random_grid(&rng, 400, 200, 25, 1),
                          tu_random_grid(&rng, 400, 200, 25, 9)};
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(grids[1], NULL, &p), CAIRN_OK);
  for (int k = 0; k < 4000; k++) {
    cairn_point c = tu_random_open(&rng, grids[1]);
    if (tu_below(&rng, 10) == 0) cairn_penalty_block(p, c.x, c.y, 1);
    else cairn_penalty_add(p, c.x, c.y, (int64_t)tu_below(&rng, 3 * CAIRN_COST_ONE));
  }
  cairn_flow_builder *b = new_builder(), *b1 = new_builder();
  for (int k = 0; k < 6; k++) {
    cairn_grid *g = grids[k < 2 ? 0 : 1];
    cairn_point goals[3];
    for (int j = 0; j < 3; j++) /* goals the layer leaves open */
      do goals[j] = tu_random_open(&rng, g);
      while (cairn_penalty_get(p, goals[j].x, goals[j].y) == CAIRN_PENALTY_BLOCK);
    cairn_flow_opts o = opts_of(k % 2 ? 4 : 8, CAIRN_FLOW_QUEUE_AUTO, 1);
    o.los_radius = 12;
    o.penalty = k >= 4 ? p : NULL;
    cairn_field *ref = new_field(g), *f = new_field(g);
    assert_true(ref->n >= FLOW_PARALLEL_MIN_CELLS); /* so the passes split */
    assert_int_equal(cairn_field_build(b1, ref, g, goals, 3, &o), CAIRN_OK);
    build_every_way(b, f, ref, g, goals, 3, o, (uint64_t)k * 100);
    cairn_field_destroy(ref);
    cairn_field_destroy(f);
  }
  /* a field built through the shuffling scheduler, then repaired, equals
   * the one-thread field repaired alike and a fresh one-thread build */
  cairn_grid *g = grids[1];
  cairn_point goals[2];
  random_goals(&rng, g, goals, 2);
  cairn_flow_opts o1 = opts_of(8, CAIRN_FLOW_QUEUE_AUTO, 1);
  cairn_flow_opts oj = o1;
  tj_sched s = tj_make(3, 1, 77);
  oj.jobs = tj_jobs(&s);
  cairn_field *ref = new_field(g), *f = new_field(g), *fresh = new_field(g);
  assert_int_equal(cairn_field_build(b1, ref, g, goals, 2, &o1), CAIRN_OK);
  assert_int_equal(cairn_field_build(b, f, g, goals, 2, &oj), CAIRN_OK);
  assert_true(s.tasks > 0);
  for (int round = 0; round < 4; round++) {
    cairn_point cells[8];
    size_t n = 0;
    while (n < 8) {
      cairn_point c = tu_random_open(&rng, g);
      if ((c.x == goals[0].x && c.y == goals[0].y) || (c.x == goals[1].x && c.y == goals[1].y))
        continue;
      assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, (uint8_t)(tu_below(&rng, 4) * 3)),
                       CAIRN_OK);
      cells[n++] = c;
    }
    assert_int_equal(cairn_field_repair(b1, ref, cells, n), CAIRN_OK);
    assert_int_equal(cairn_field_repair(b, f, cells, n), CAIRN_OK);
    assert_int_equal(cairn_field_build(b1, fresh, g, goals, 2, &o1), CAIRN_OK);
    assert_identical(fresh, ref, g);
    assert_identical(fresh, f, g);
  }
  cairn_field_destroy(ref);
  cairn_field_destroy(f);
  cairn_field_destroy(fresh);
  cairn_flow_builder_destroy(b);
  cairn_flow_builder_destroy(b1);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(grids[0]);
  cairn_grid_destroy(grids[1]);
}

/* A batch through a scheduler of 3 workers with 3 builders: one task per
 * request, each on its worker's builder, each field the one built alone;
 * fewer builders than workers are refused. */
static void batch_through_jobs(void **state) {
  (void)state;
  uint64_t rng = 0xba7c;
  cairn_grid *g = tu_random_grid(&rng, 400, 200, 25, 5);
  cairn_flow_builder *b[3] = {new_builder(), new_builder(), new_builder()};
  cairn_point goals[5];
  random_goals(&rng, g, goals, 5);
  cairn_field *fb[5];
  cairn_flow_request req[5];
  for (int r = 0; r < 5; r++) {
    fb[r] = new_field(g);
    req[r].field = fb[r];
    req[r].goals = goals + r;
    req[r].n_goals = r == 4 ? 1 : 2;
    req[r].status = CAIRN_ERR_STATE;
  }
  for (int shuffle = 0; shuffle <= 1; shuffle++) {
    tj_sched s = tj_make(3, shuffle, 9);
    cairn_flow_opts o = opts_of(8, CAIRN_FLOW_QUEUE_AUTO, 0);
    o.jobs = tj_jobs(&s);
    assert_int_equal(cairn_flow_build_batch(b, 2, g, req, 5, &o), CAIRN_ERR_ARG);
    assert_int_equal(s.tasks, 0);
    assert_int_equal(cairn_flow_build_batch(b, 3, g, req, 5, &o), CAIRN_OK);
    /* one task a request; their row passes stayed on their workers */
    assert_int_equal(s.runs, 1);
    assert_int_equal(s.tasks, 5);
    cairn_field *f1 = new_field(g);
    cairn_flow_opts o1 = opts_of(8, CAIRN_FLOW_QUEUE_AUTO, 1);
    for (int r = 0; r < 5; r++) {
      assert_int_equal(req[r].status, CAIRN_OK);
      assert_int_equal(cairn_field_build(b[0], f1, g, req[r].goals, req[r].n_goals, &o1),
                       CAIRN_OK);
      assert_identical(f1, fb[r], g);
    }
    cairn_field_destroy(f1);
  }
  for (int r = 0; r < 5; r++) cairn_field_destroy(fb[r]);
  for (int t = 0; t < 3; t++) cairn_flow_builder_destroy(b[t]);
  cairn_grid_destroy(g);
}

/* After a reserve, builds allocate nothing. */
static void *counting_alloc(void *user, void *ptr, size_t old_size,
                            size_t new_size) {
  (void)old_size;
  if (!new_size) {
    free(ptr);
    return NULL;
  }
  ++*(int *)user;
  return realloc(ptr, new_size);
}

static void builds_do_not_allocate(void **state) {
  (void)state;
  uint64_t rng = 17;
  cairn_grid *g = tu_random_grid(&rng, 60, 40, 20, 3);
  int count = 0;
  cairn_allocator a = {counting_alloc, &count};
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  assert_int_equal(cairn_flow_builder_create(&a, &b), CAIRN_OK);
  assert_int_equal(cairn_field_create(g, &a, &f), CAIRN_OK);
  assert_int_equal(cairn_flow_builder_reserve(b, g), CAIRN_OK);
  cairn_point goals[4];
  random_goals(&rng, g, goals, 4);
  assert_int_equal(cairn_field_build(b, f, g, goals, 4, NULL), CAIRN_OK);
  int after_first = count;
  for (int k = 0; k < 3; k++) {
    assert_int_equal(cairn_field_build(b, f, g, goals, 1 + (size_t)k, NULL), CAIRN_OK);
    cairn_point c = tu_random_open(&rng, g);
    assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, 2), CAIRN_OK);
    assert_int_equal(cairn_field_repair(b, f, &c, 1), CAIRN_OK);
  }
  assert_int_equal(count, after_first);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* Two requests share a field; it stays until evicted after the last
 * release; held fields are never evicted; edits touch only fields that
 * reach them. */
static void cache_shares_and_releases(void **state) {
  (void)state;
  /* two rooms joined by nothing: a field in one never reaches the other */
  static const char *const rows[] = {
      "..........#.........", "..........#.........", "..........#.........",
      "..........#.........", "..........#.........", "..........#.........",
  };
  cairn_grid *g = tu_grid(rows, 6);
  cairn_flow_builder *b = new_builder();
  cairn_field *probe = new_field(g);
  cairn_field_stats fs;
  cairn_field_get_stats(probe, &fs);
  cairn_field_destroy(probe);
  cairn_flow_cache *c = NULL;
  /* room for two fields, not three */
  assert_int_equal(cairn_flow_cache_create(g, 2 * fs.memory_bytes + 64, NULL, NULL, &c),
                   CAIRN_OK);
  cairn_point ab[2] = {pt(1, 1), pt(3, 2)}, ba[3] = {pt(3, 2), pt(1, 1), pt(3, 2)};
  const cairn_field *f1, *f2, *f3, *f4;
  assert_int_equal(cairn_flow_cache_acquire(c, b, ab, 2, &f1), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, ba, 3, &f2), CAIRN_OK);
  assert_ptr_equal(f1, f2);
  cairn_flow_cache_stats cs;
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 1);
  assert_int_equal(cs.hits, 1);
  assert_int_equal(cs.misses, 1);
  cairn_point right = pt(15, 3), left = pt(5, 5);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &right, 1, &f3), CAIRN_OK);
  /* full, both held: a third field does not fit */
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &f4), CAIRN_ERR_NOMEM);
  assert_int_equal(cairn_flow_cache_release(c, f1), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_trim(c), 0); /* still held once */
  assert_int_equal(cairn_flow_cache_release(c, f2), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_release(c, f2), CAIRN_ERR_ARG);
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 2);
  assert_int_equal(cs.held, 1);
  /* now the unheld one is evicted to make room */
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &f4), CAIRN_OK);
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.evictions, 1);
  assert_int_equal(cs.fields, 2);
  /* an edit in the right room touches only the right field */
  cairn_point wall = pt(14, 3);
  assert_int_equal(cairn_grid_set_cost(g, 14, 3, 0), CAIRN_OK);
  size_t rep, drop;
  assert_int_equal(cairn_flow_cache_update(c, b, &wall, 1, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep, 1);
  assert_int_equal(drop, 0);
  cairn_field *fresh = new_field(g);
  assert_int_equal(cairn_field_build(b, fresh, g, &right, 1, NULL), CAIRN_OK);
  assert_same_field(f3, fresh, g);
  assert_true(cairn_field_cost(f4, 0, 0) != CAIRN_COST_INF);
  /* released and then edited: dropped, not repaired */
  assert_int_equal(cairn_flow_cache_release(c, f4), CAIRN_OK);
  cairn_point w2 = pt(2, 2);
  assert_int_equal(cairn_grid_set_cost(g, 2, 2, 0), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_update(c, b, &w2, 1, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep, 0);
  assert_int_equal(drop, 1);
  /* a held field whose goal is walled in is detached */
  assert_int_equal(cairn_grid_set_cost(g, 15, 3, 0), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_update(c, b, &right, 1, &rep, &drop), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &right, 1, &f4), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_flow_cache_release(c, f3), CAIRN_OK);
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 0);
  assert_int_equal(cairn_flow_cache_release(c, fresh), CAIRN_ERR_ARG);
  /* after its last release, a field is dropped by a trim (and then asked
   * for again, built afresh) */
  assert_int_equal(cairn_flow_cache_acquire(c, b, ab, 2, &f1), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_trim(c), 0);
  assert_int_equal(cairn_flow_cache_release(c, f1), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_trim(c), 1);
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 0);
  assert_int_equal(cs.bytes, 0);
  cairn_field_destroy(fresh);
  cairn_flow_cache_destroy(c);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* Samples every cell of random maps at 16 points each: the vector is a
 * unit vector (0 on goals), and the segment of one cell's length along it,
 * walked in fine steps, enters no blocked cell and cuts no corner. */
static bool segment_ok(const cairn_grid *g, float x, float y, float vx,
                       float vy) {
  int32_t px = (int32_t)floorf(x), py = (int32_t)floorf(y);
  for (int k = 1; k <= 128; k++) {
    float t = (float)k / 128.0f;
    int32_t cx = (int32_t)floorf(x + t * vx), cy = (int32_t)floorf(y + t * vy);
    if (!cairn_grid_cost(g, cx, cy)) return false;
    if (cx != px && cy != py &&
        (!cairn_grid_cost(g, cx, py) || !cairn_grid_cost(g, px, cy)))
      return false;
    px = cx;
    py = cy;
  }
  return true;
}

static void steering_avoids_walls(void **state) {
  (void)state;
  uint64_t rng = 18;
  cairn_flow_builder *b = new_builder();
  size_t blended = 0, straight = 0;
  for (int trial = 0; trial < 6; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 40, 30, 15 + 5 * trial, trial % 2 ? 4 : 1);
    cairn_point goals[2];
    random_goals(&rng, g, goals, 2);
    cairn_field *f = new_field(g);
    assert_int_equal(cairn_field_build(b, f, g, goals, 2, NULL), CAIRN_OK);
    for (int32_t y = 0; y < 30; y++)
      for (int32_t x = 0; x < 40; x++)
        for (int k = 0; k < 16; k++) {
          float sx = (float)x + 0.05f + 0.3f * (float)(k & 3);
          float sy = (float)y + 0.05f + 0.3f * (float)(k >> 2);
          cairn_flow_sample smp;
          assert_int_equal(cairn_field_sample(f, sx, sy, &smp), CAIRN_OK);
          int d = cairn_field_dir(f, x, y);
          assert_int_equal(smp.dir, d);
          if (d >= 8) {
            assert_true(smp.vx == 0 && smp.vy == 0);
            continue;
          }
          float len = sqrtf(smp.vx * smp.vx + smp.vy * smp.vy);
          assert_true(fabsf(len - 1) < 1e-4f);
          if (!segment_ok(g, sx, sy, smp.vx, smp.vy))
            fail_msg("cell %d,%d point %.2f,%.2f: vector %.3f,%.3f hits a wall",
                     x, y, (double)sx, (double)sy, (double)smp.vx, (double)smp.vy);
          float mx = (float)cairn_flow_dir_dx(d), my = (float)cairn_flow_dir_dy(d);
          if (fabsf(smp.vx * my - smp.vy * mx) > 1e-3f) blended++;
          else straight++;
        }
    cairn_field_destroy(f);
    cairn_grid_destroy(g);
  }
  /* the vector is not merely the cell's move everywhere */
  assert_true(blended > 0 && straight > 0);
  cairn_flow_builder_destroy(b);
}

/* The line-of-sight flags: set exactly where a goal within the radius is in
 * sight, pointing at the first such goal in sorted order. */
static void line_of_sight_flags(void **state) {
  (void)state;
  uint64_t rng = 19;
  cairn_flow_builder *b = new_builder();
  for (int trial = 0; trial < 4; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 50, 40, 20, 1);
    cairn_point goals[3];
    random_goals(&rng, g, goals, 3);
    cairn_flow_opts o = cairn_flow_defaults();
    o.los_radius = 5 + 4 * trial;
    cairn_field *f = new_field(g);
    assert_int_equal(cairn_field_build(b, f, g, goals, 3, &o), CAIRN_OK);
    size_t ng;
    const cairn_point *sorted = cairn_field_goals(f, &ng);
    size_t flagged = 0;
    for (int32_t y = 0; y < 40; y++)
      for (int32_t x = 0; x < 50; x++) {
        cairn_point want = pt(-1, -1);
        if (cairn_field_dir(f, x, y) < 8)
          for (size_t k = 0; k < ng && want.x < 0; k++)
            if (abs(sorted[k].x - x) <= o.los_radius && abs(sorted[k].y - y) <= o.los_radius &&
                cairn_grid_line_of_sight(g, pt(x, y), sorted[k]))
              want = sorted[k];
        cairn_point got = pt(-1, -1);
        int los = cairn_field_los(f, x, y, &got);
        assert_int_equal(los, want.x >= 0);
        if (los) {
          flagged++;
          assert_int_equal(got.x, want.x);
          assert_int_equal(got.y, want.y);
        }
      }
    assert_true(flagged > 0);
    cairn_field_destroy(f);
    cairn_grid_destroy(g);
  }
  cairn_flow_builder_destroy(b);
}

/* Sector tiles: following them from a routed start reaches the goal along
 * a valid path whose cost is the tile value, at least the optimum and
 * within 25 % of it here; cells outside the routed sectors have none. */
static void sector_tiles(void **state) {
  (void)state;
  uint64_t rng = 20;
  cairn_point *buf = malloc(20000 * sizeof *buf);
  assert_non_null(buf);
  double worst = 1.0;
  for (int trial = 0; trial < 4; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 160, 120, 15 + 5 * trial, 1);
    cairn_hpa_opts ho = cairn_hpa_defaults();
    ho.threads = 1;
    cairn_hpa *hpa = NULL;
    assert_int_equal(cairn_hpa_create(g, &ho, NULL, &hpa), CAIRN_OK);
    cairn_hpa_query *q = NULL;
    assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
    cairn_point goal = tu_random_open(&rng, g);
    cairn_flow_tiles *t = NULL;
    assert_int_equal(cairn_flow_tiles_create(g, hpa, goal, 200, NULL, &t), CAIRN_OK);
    cairn_flow_builder *b = new_builder();
    cairn_field *full = new_field(g);
    assert_int_equal(cairn_field_build(b, full, g, &goal, 1, NULL), CAIRN_OK);
    for (int k = 0; k < 6; k++) {
      cairn_point s = tu_random_open(&rng, g);
      if (cairn_field_cost(full, s.x, s.y) == CAIRN_COST_INF) continue;
      assert_int_equal(cairn_flow_tiles_route(t, q, s), CAIRN_OK);
      int d;
      cairn_cost v;
      assert_int_equal(cairn_flow_tiles_dir(t, s.x, s.y, &d, &v), CAIRN_OK);
      assert_true(v != CAIRN_COST_INF);
      size_t n = 0;
      cairn_point p = s;
      buf[n++] = p;
      while (d < 8) {
        p.x += cairn_flow_dir_dx(d);
        p.y += cairn_flow_dir_dy(d);
        assert_true(n < 20000);
        buf[n++] = p;
        assert_int_equal(cairn_flow_tiles_dir(t, p.x, p.y, &d, NULL), CAIRN_OK);
      }
      assert_int_equal(d, CAIRN_FLOW_GOAL);
      cairn_path_check pc;
      cairn_grid_check_path(g, buf, n, s, goal, 8, &pc);
      assert_true(pc.valid);
      assert_true(tu_path_cost(g, buf, n, s, goal, 8) == v);
      cairn_cost opt = cairn_field_cost(full, s.x, s.y);
      assert_true(v >= opt);
      double ratio = opt ? (double)v / (double)opt : 1.0;
      if (ratio > worst) worst = ratio;
      assert_true(ratio <= 1.25);
    }
    cairn_flow_tiles_stats ts;
    cairn_flow_tiles_get_stats(t, &ts);
    assert_true(ts.built <= ts.routed && ts.built > 0);
    assert_int_equal(ts.sector, 16);
    /* a cell of an unrouted sector, if any */
    for (int32_t y = 0; y < 120; y += 16)
      for (int32_t x = 0; x < 160; x += 16) {
        int d;
        assert_int_equal(cairn_flow_tiles_dir(t, x, y, &d, NULL), CAIRN_OK);
      }
    cairn_flow_tiles_get_stats(t, &ts);
    assert_true(ts.built == ts.routed);
    assert_true(ts.routed < 70); /* 10 x 8 sectors in all */
    cairn_field_destroy(full);
    cairn_flow_builder_destroy(b);
    cairn_flow_tiles_destroy(t);
    cairn_hpa_query_destroy(q);
    cairn_hpa_destroy(hpa);
    cairn_grid_destroy(g);
  }
  print_message("sector tiles: worst cost / optimum %.4f\n", worst);
  free(buf);
}

/* Walks the tiles from s; returns the cells in buf (0 if s has no value),
 * checked legal on the grid as it is, with the tile value in *v. */
static size_t walk_tiles(cairn_flow_tiles *t, const cairn_grid *g,
                         cairn_point s, cairn_point goal, cairn_point *buf,
                         size_t cap, cairn_cost *v) {
  int d;
  assert_int_equal(cairn_flow_tiles_dir(t, s.x, s.y, &d, v), CAIRN_OK);
  if (d == CAIRN_FLOW_NONE) return 0;
  size_t n = 0;
  cairn_point p = s;
  buf[n++] = p;
  while (d < 8) {
    p.x += cairn_flow_dir_dx(d);
    p.y += cairn_flow_dir_dy(d);
    assert_true(n < cap);
    buf[n++] = p;
    assert_int_equal(cairn_flow_tiles_dir(t, p.x, p.y, &d, NULL), CAIRN_OK);
  }
  assert_int_equal(d, CAIRN_FLOW_GOAL);
  assert_true(tu_path_cost(g, buf, n, s, goal, 8) == *v);
  return n;
}

/* A wall dropped on the walked path: the sectors it touches and those
 * upstream of them are reset, the rest stay, and the next walk is legal on
 * the edited grid at exactly its tile value. */
static void tiles_after_edit(void **state) {
  (void)state;
  uint64_t rng = 21;
  cairn_point *buf = malloc(20000 * sizeof *buf);
  assert_non_null(buf);
  int walked_again = 0;
  for (int trial = 0; trial < 6; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 160, 120, 15, 1);
    cairn_hpa *hpa = NULL;
    assert_int_equal(cairn_hpa_create(g, NULL, NULL, &hpa), CAIRN_OK);
    cairn_hpa_query *q = NULL;
    assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
    cairn_point goal = tu_random_open(&rng, g), s = tu_random_open(&rng, g);
    cairn_flow_tiles *t = NULL;
    assert_int_equal(cairn_flow_tiles_create(g, hpa, goal, 200, NULL, &t), CAIRN_OK);
    if (cairn_flow_tiles_route(t, q, s) != CAIRN_OK) goto next;
    cairn_cost v;
    size_t n = walk_tiles(t, g, s, goal, buf, 20000, &v);
    if (n < 8) goto next;
    cairn_flow_tiles_stats before, after;
    cairn_flow_tiles_get_stats(t, &before);
    assert_true(before.built == before.routed);
    cairn_point c = buf[n / 2];
    assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, 0), CAIRN_OK);
    cairn_rect r = {c.x, c.y, 1, 1};
    size_t reset = cairn_flow_tiles_invalidate(t, r);
    cairn_flow_tiles_get_stats(t, &after);
    assert_true(reset >= 1);
    assert_int_equal(after.built, before.built - reset);
    /* the start's sector is upstream of the wall's, so it was reset */
    n = walk_tiles(t, g, s, goal, buf, 20000, &v);
    for (size_t k = 0; k < n; k++) assert_false(buf[k].x == c.x && buf[k].y == c.y);
    walked_again += n > 0;
  next:
    cairn_flow_tiles_destroy(t);
    cairn_hpa_query_destroy(q);
    cairn_hpa_destroy(hpa);
    cairn_grid_destroy(g);
  }
  print_message("tiles_after_edit: %d of 6 walks found a way round the wall\n", walked_again);
  assert_true(walked_again > 0);
  free(buf);
}

/* An allocator that fails from its n-th allocation on. */
typedef struct failing {
  int left; /* allocations still granted; -1: all */
  int made;
} failing;

static void *failing_alloc(void *user, void *ptr, size_t old_size,
                           size_t new_size) {
  (void)old_size;
  failing *fa = user;
  if (!new_size) {
    free(ptr);
    return NULL;
  }
  if (fa->left == 0) return NULL;
  if (fa->left > 0) fa->left--;
  fa->made++;
  return realloc(ptr, new_size);
}

/* Builds a field, a cached field and tiles with an allocator failing at
 * every point in turn: each step answers CAIRN_ERR_NOMEM or succeeds,
 * nothing crashes or leaks (the sanitizer build checks leaks), and a
 * later step with memory to spare works. */
static int run_with(failing *fa, const cairn_grid *g, const cairn_hpa *hpa,
                    cairn_hpa_query *q) {
  cairn_allocator a = {failing_alloc, fa};
  cairn_point goals[2] = {{2, 2}, {40, 20}};
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  cairn_flow_cache *c = NULL;
  cairn_flow_tiles *t = NULL;
  const cairn_field *cf = NULL;
  int ok = 0;
  cairn_status st = cairn_flow_builder_create(&a, &b);
  if (st == CAIRN_OK) st = cairn_field_create(g, &a, &f);
  if (st == CAIRN_OK) st = cairn_field_build(b, f, g, goals, 2, NULL);
  if (st == CAIRN_OK) st = cairn_flow_cache_create(g, 1 << 24, NULL, &a, &c);
  if (st == CAIRN_OK) st = cairn_flow_cache_acquire(c, b, goals, 2, &cf);
  if (st == CAIRN_OK) st = cairn_flow_tiles_create(g, hpa, goals[0], 64, &a, &t);
  if (st == CAIRN_OK) st = cairn_flow_tiles_route(t, q, goals[1]);
  if (st == CAIRN_OK) {
    int d;
    assert_int_equal(cairn_flow_tiles_dir(t, goals[1].x, goals[1].y, &d, NULL), CAIRN_OK);
    assert_true(d < 8);
    assert_true(cairn_field_cost(f, 0, 0) == cairn_field_cost(cf, 0, 0));
    ok = 1;
  } else {
    assert_int_equal(st, CAIRN_ERR_NOMEM);
  }
  if (cf) assert_int_equal(cairn_flow_cache_release(c, cf), CAIRN_OK);
  cairn_flow_tiles_destroy(t);
  cairn_flow_cache_destroy(c);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  return ok;
}

static void allocation_failures(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(48, 40, 1, NULL, &g), CAIRN_OK);
  cairn_hpa *hpa = NULL;
  assert_int_equal(cairn_hpa_create(g, NULL, NULL, &hpa), CAIRN_OK);
  cairn_hpa_query *q = NULL;
  assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
  failing all = {-1, 0};
  assert_true(run_with(&all, g, hpa, q));
  for (int k = 0; k < all.made; k++) {
    failing fa = {k, 0};
    assert_false(run_with(&fa, g, hpa, q));
  }
  print_message("allocation_failures: failed at each of %d allocations\n", all.made);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(hpa);
  cairn_grid_destroy(g);
}

/* A builder that cannot make its pool answers CAIRN_ERR_NOMEM and leaves
 * the field empty; with memory back it builds the one-thread field. A
 * batch that cannot make its pool fails every request alike. */
static void pool_failure_is_nomem(void **state) {
  (void)state;
  uint64_t rng = 0xfa11;
  cairn_grid *g = tu_random_grid(&rng, 400, 200, 25, 3);
  failing fa = {-1, 0};
  cairn_allocator a = {failing_alloc, &fa};
  cairn_flow_builder *b = NULL, *b2 = new_builder();
  cairn_field *f = NULL, *ref = new_field(g);
  assert_int_equal(cairn_flow_builder_create(&a, &b), CAIRN_OK);
  assert_int_equal(cairn_field_create(g, &a, &f), CAIRN_OK);
  cairn_point goals[2];
  random_goals(&rng, g, goals, 2);
  cairn_flow_opts o1 = opts_of(8, CAIRN_FLOW_QUEUE_AUTO, 1);
  cairn_flow_opts o2 = opts_of(8, CAIRN_FLOW_QUEUE_AUTO, 2);
  assert_int_equal(cairn_field_build(b, f, g, goals, 2, &o1), CAIRN_OK);
  assert_int_equal(cairn_field_build(b2, ref, g, goals, 2, &o1), CAIRN_OK);
  fa.left = 0; /* the builder and goal list are grown: only the pool asks */
  assert_int_equal(cairn_field_build(b, f, g, goals, 2, &o2), CAIRN_ERR_NOMEM);
  assert_null(b->workers.own);
  assert_true(cairn_field_cost(f, goals[0].x, goals[0].y) == CAIRN_COST_INF);
  assert_int_equal(cairn_field_dir(f, goals[0].x, goals[0].y), CAIRN_FLOW_NONE);
  /* a batch's pool comes from builders[0]'s allocator */
  cairn_flow_builder *pair[2] = {b, b2};
  cairn_flow_request req[2] = {{ref, goals, 1, CAIRN_OK}, {NULL, goals, 1, CAIRN_OK}};
  assert_int_equal(cairn_flow_build_batch(pair, 2, g, req, 2, &o1), CAIRN_ERR_NOMEM);
  assert_int_equal(req[0].status, CAIRN_ERR_NOMEM);
  assert_int_equal(req[1].status, CAIRN_ERR_NOMEM);
  assert_true(cairn_field_cost(ref, goals[0].x, goals[0].y) == CAIRN_COST_INF);
  fa.left = -1;
  assert_int_equal(cairn_field_build(b2, ref, g, goals, 2, &o1), CAIRN_OK);
  assert_int_equal(cairn_field_build(b, f, g, goals, 2, &o2), CAIRN_OK);
  assert_non_null(b->workers.own);
  assert_identical(ref, f, g);
  cairn_field_destroy(f);
  cairn_field_destroy(ref);
  cairn_flow_builder_destroy(b);
  cairn_flow_builder_destroy(b2);
  cairn_grid_destroy(g);
}

static void bad_input(void **state) {
  (void)state;
  static const char *const rows[] = {"..#..", ".....", "..2.."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_grid *other = NULL;
  assert_int_equal(cairn_grid_create(6, 3, 1, NULL, &other), CAIRN_OK);
  cairn_flow_builder *b = new_builder();
  cairn_field *f = new_field(g);
  cairn_field *none = NULL;
  assert_int_equal(cairn_field_create(NULL, NULL, &none), CAIRN_ERR_ARG);
  assert_null(none);
  assert_int_equal(cairn_field_create(g, NULL, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_builder_create(NULL, NULL), CAIRN_ERR_ARG);
  cairn_point ok = pt(0, 0), off = pt(5, 0), wall = pt(2, 0), neg = pt(-1, 1);
  assert_int_equal(cairn_field_build(NULL, f, g, &ok, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, NULL, g, &ok, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, NULL, &ok, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, g, NULL, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, g, &ok, 0, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, g, &off, 1, NULL), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_field_build(b, f, g, &neg, 1, NULL), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_field_build(b, f, g, &wall, 1, NULL), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_field_build(b, f, other, &ok, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_build(b, f, g, &ok, CAIRN_FLOW_MAX_GOALS + 1, NULL),
                   CAIRN_ERR_TOO_LARGE);
  cairn_flow_opts o = cairn_flow_defaults();
  o.moves = 6;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  o = cairn_flow_defaults();
  o.los_radius = CAIRN_FLOW_MAX_LOS + 1;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  o = cairn_flow_defaults();
  o.queue = CAIRN_FLOW_QUEUE_FIFO; /* the map has a cell of cost 2 */
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  o.queue = (cairn_flow_queue)7;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  /* a refused build leaves an empty field */
  assert_true(cairn_field_cost(f, 0, 0) == CAIRN_COST_INF);
  assert_int_equal(cairn_field_dir(f, 0, 0), CAIRN_FLOW_NONE);
  assert_int_equal(cairn_field_repair(b, f, &ok, 1), CAIRN_ERR_ARG);
  cairn_search *s = new_search();
  cairn_field_fault fault;
  assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_ERR_STATE);
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, NULL), CAIRN_OK);
  assert_true(cairn_field_cost(f, 9, 9) == CAIRN_COST_INF);
  assert_int_equal(cairn_field_dir(f, -1, 0), CAIRN_FLOW_NONE);
  assert_int_equal(cairn_field_dir(f, 0, 0), CAIRN_FLOW_GOAL);
  assert_true(cairn_field_cost(f, 2, 0) == CAIRN_COST_INF);
  cairn_flow_sample smp;
  assert_int_equal(cairn_field_sample(f, NAN, 1, &smp), CAIRN_ERR_ARG);
  assert_int_equal(cairn_field_sample(f, 5.0f, 1, &smp), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_field_sample(f, -0.5f, 1, &smp), CAIRN_ERR_RANGE);
  assert_int_equal(smp.dir, CAIRN_FLOW_NONE);
  assert_int_equal(cairn_field_sample(NULL, 1, 1, &smp), CAIRN_ERR_ARG);
  cairn_cost buf[15];
  assert_int_equal(cairn_field_copy_costs(f, buf, 14), CAIRN_ERR_BUFFER);
  assert_int_equal(cairn_field_copy_costs(f, buf, 15), CAIRN_OK);
  assert_true(buf[2] == CAIRN_COST_INF && buf[0] == 0);
  /* leaving the cost-2 cell (2,2) costs nothing extra (two diagonals to the
   * goal); entering it costs double, so (3,2) goes round it */
  assert_true(cairn_field_cost(f, 2, 2) == 2 * CAIRN_COST_DIAG);
  assert_true(cairn_field_cost(f, 3, 2) == 2 * CAIRN_COST_DIAG + CAIRN_COST_ONE);
  /* bad jobs and thread counts */
  o = cairn_flow_defaults();
  cairn_jobs bad = {0, tj_run, NULL}; /* no workers */
  o.jobs = &bad;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  bad.workers = 1;
  bad.run = NULL;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  bad.workers = CAIRN_JOBS_MAX_WORKERS + 1;
  bad.run = tj_run;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  cairn_flow_cache *bc = NULL;
  assert_int_equal(cairn_flow_cache_create(g, 1 << 20, &o, NULL, &bc), CAIRN_ERR_ARG);
  assert_null(bc);
  cairn_flow_builder *one[1] = {b};
  cairn_flow_request breq = {f, &ok, 1, CAIRN_ERR_STATE};
  assert_int_equal(cairn_flow_build_batch(one, 1, g, &breq, 1, &o), CAIRN_ERR_ARG);
  assert_int_equal(breq.status, CAIRN_ERR_STATE); /* refused before any build */
  o = cairn_flow_defaults();
  o.threads = -1;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  o.threads = CAIRN_JOBS_MAX_WORKERS + 1;
  assert_int_equal(cairn_field_build(b, f, g, &ok, 1, &o), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_create(g, 1 << 20, &o, NULL, &bc), CAIRN_ERR_ARG);
  assert_true(cairn_field_cost(f, 0, 0) == CAIRN_COST_INF);
  /* batch and cache refusals */
  cairn_flow_request req = {NULL, &ok, 1, CAIRN_OK};
  assert_int_equal(cairn_flow_build_batch(&b, 1, g, &req, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(req.status, CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_build_batch(NULL, 1, g, &req, 1, NULL), CAIRN_ERR_ARG);
  cairn_flow_cache *c = NULL;
  assert_int_equal(cairn_flow_cache_create(g, 0, NULL, NULL, &c), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_create(g, 1 << 20, NULL, NULL, &c), CAIRN_OK);
  const cairn_field *cf;
  assert_int_equal(cairn_flow_cache_acquire(c, b, &wall, 1, &cf), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &ok, 0, &cf), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_release(c, f), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_update(c, b, &off, 1, NULL, NULL), CAIRN_ERR_RANGE);
  cairn_flow_cache_stats cs;
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 0);
  cairn_flow_cache_destroy(c);
  /* tiles */
  cairn_hpa *hpa = NULL;
  assert_int_equal(cairn_hpa_create(g, NULL, NULL, &hpa), CAIRN_OK);
  cairn_flow_tiles *t = NULL;
  assert_int_equal(cairn_flow_tiles_create(g, hpa, wall, 4, NULL, &t), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_flow_tiles_create(g, hpa, off, 4, NULL, &t), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_flow_tiles_create(g, hpa, ok, 0, NULL, &t), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_tiles_create(g, hpa, ok, 4, NULL, &t), CAIRN_OK);
  int d;
  assert_int_equal(cairn_flow_tiles_dir(t, 7, 0, &d, NULL), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_flow_tiles_dir(t, 4, 2, &d, NULL), CAIRN_OK);
  assert_true(d < 8);
  cairn_flow_tiles_destroy(t);
  cairn_hpa_destroy(hpa);
  cairn_search_destroy(s);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
  cairn_grid_destroy(other);
}

/* ---- the Moving AI check -------------------------------------------- */

static const char *movingai_name = NULL;

static void check_field(cairn_flow_builder *b, cairn_field *f, cairn_search *s,
                        const cairn_grid *g, const cairn_point *goals,
                        size_t n) {
  assert_int_equal(cairn_field_build(b, f, g, goals, n, NULL), CAIRN_OK);
  cairn_field_fault fault;
  assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
  if (!fault.ok)
    fail_msg("%s: %zu goal(s) from %d,%d: cell %d,%d: %s", movingai_name, n,
             goals[0].x, goals[0].y, fault.cell.x, fault.cell.y, fault.problem);
}

static void movingai_map(void **state) {
  (void)state;
  char path[2048];
  snprintf(path, sizeof path, "%s/scen/%s", CAIRN_MOVINGAI_DIR, movingai_name);
  cairn_scen *scen = NULL;
  cairn_error err;
  if (cairn_scen_load(path, NULL, &scen, &err) != CAIRN_OK) {
    print_message("skipped: %s (Moving AI data absent)\n", path);
    skip();
  }
  snprintf(path, sizeof path, "%s/maps/%s", CAIRN_MOVINGAI_DIR, cairn_scen_map_name(scen));
  cairn_grid *g = NULL;
  assert_int_equal(cairn_map_load(path, NULL, NULL, &g, &err), CAIRN_OK);
  cairn_flow_builder *b = new_builder();
  cairn_field *f = new_field(g);
  cairn_search *s = new_search();
  size_t rows = cairn_scen_count(scen), done = 0;
  cairn_point multi[8];
  size_t n_multi = 0;
  /* four goals spread over the file (longer buckets later), each checked,
   * and the scenario's optimal length read off the field at its start */
  for (size_t k = 0; k < 4; k++) {
    const cairn_scen_entry *e = cairn_scen_get(scen, (rows - 1) * (2 * k + 1) / 8);
    if (!cairn_grid_cost(g, e->goal.x, e->goal.y) || !cairn_grid_cost(g, e->start.x, e->start.y))
      continue;
    check_field(b, f, s, g, &e->goal, 1);
    double c = cairn_cost_to_double(cairn_field_cost(f, e->start.x, e->start.y));
    if (fabs(c - e->optimal) > 1e-5 * e->optimal + 0.006)
      fail_msg("%s line %u: field %.6f, optimal %.6f", movingai_name, e->line, c, e->optimal);
    done++;
  }
  for (size_t k = 0; k < 8 && rows; k++) {
    const cairn_scen_entry *e = cairn_scen_get(scen, (rows - 1) * k / 7);
    if (cairn_grid_cost(g, e->goal.x, e->goal.y)) multi[n_multi++] = e->goal;
  }
  if (n_multi) check_field(b, f, s, g, multi, n_multi);
  assert_true(done > 0);
  print_message("%s: %zu single-goal fields and one of %zu goals checked\n",
                movingai_name, done, n_multi);
  cairn_search_destroy(s);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
  cairn_scen_destroy(scen);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--movingai") == 0 && i + 1 < argc) {
      movingai_name = argv[++i];
    } else {
      fprintf(stderr, "usage: test_flow [--movingai NAME]\n");
      return 2;
    }
  }
  if (movingai_name) {
    const struct CMUnitTest mai[] = {cmocka_unit_test(movingai_map)};
    return cmocka_run_group_tests_name(movingai_name, mai, NULL, NULL);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(field_equals_dijkstra),
      cmocka_unit_test(field_under_layer),
      cmocka_unit_test(layer_with_large_penalties),
      cmocka_unit_test(multi_goal_is_minimum),
      cmocka_unit_test(directions_legal),
      cmocka_unit_test(verify_catches_faults),
      cmocka_unit_test(repair_equals_rebuild),
      cmocka_unit_test(repair_is_local),
      cmocka_unit_test(repair_refuses_blocked_goal),
      cmocka_unit_test(repair_under_layer),
      cmocka_unit_test(layer_repair_is_local),
      cmocka_unit_test(cache_under_layer),
      cmocka_unit_test(thread_count_independent),
      cmocka_unit_test(scheduler_independent),
      cmocka_unit_test(batch_through_jobs),
      cmocka_unit_test(pool_failure_is_nomem),
      cmocka_unit_test(builds_do_not_allocate),
      cmocka_unit_test(cache_shares_and_releases),
      cmocka_unit_test(steering_avoids_walls),
      cmocka_unit_test(line_of_sight_flags),
      cmocka_unit_test(sector_tiles),
      cmocka_unit_test(tiles_after_edit),
      cmocka_unit_test(allocation_failures),
      cmocka_unit_test(bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
