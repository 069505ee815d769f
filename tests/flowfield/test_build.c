/* Flow-field builds: integration equals the core's Dijkstra on random maps
 * (4 and 8 moves, every queue), under cost layers (penalties and blocks, and
 * penalties dearer than the bucket ring spans), multi-goal fields are the
 * cell-wise minimum of single-goal ones, directions are legal and lead to a
 * goal at exactly the cell's value, and the check finds a tampered field.
 * The FIFO integration on uniform terrain (in 32-bit values while they
 * fit; canonical moves only, directions from the values in a pass after,
 * for 8-way size-1 fields; else setting the directions as it settles the
 * values) gives every cell the value and direction of the bucket and heap
 * builds (directions from the values in a pass after): random maps, 4 and
 * 8 moves, terrain 1
 * and 3, sizes 1 to 3, one to three goals, 1 to 3 threads; so does the
 * canonical 8-way integration (directions from its values in a pass after)
 * on maps of rooms, doors, corridors, diagonal walls and pillars; and a
 * route too long for 32-bit values falls back to the 64-bit loop, same
 * result. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_flow_util.h"

#include <stdlib.h>
#include <string.h>

#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

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
  uint64_t rng = 0x1a4e;
  cairn_flow_builder *b = new_builder();
  cairn_search *s = *state;
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
  cairn_flow_builder_destroy(b);
}

/* Penalties far dearer than the bucket ring spans (a thousand steps):
 * the buckets would wrap, so the build takes the heap, and the field still
 * equals the core's layered Dijkstra (cairn flow --influence with such a
 * penalty failed its --check before). */
static void layer_with_large_penalties(void **state) {
  uint64_t rng = 0xb16;
  cairn_flow_builder *b = new_builder();
  cairn_search *s = *state;
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
    cairn_search *s = *state;
    cairn_field_fault fault;
    assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
    assert_true(fault.ok);
    cairn_field_destroy(f);
    cairn_grid_destroy(g);
  }
  free(buf);
  cairn_flow_builder_destroy(b);
}

static void verify_catches_faults(void **state) {
  uint64_t rng = 14;
  cairn_grid *g = tu_random_grid(&rng, 30, 20, 15, 1);
  cairn_flow_builder *b = new_builder();
  cairn_field *f = new_field(g);
  cairn_point goal = tu_random_open(&rng, g);
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, NULL), CAIRN_OK);
  cairn_search *s = *state;
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
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

/* Every passable cell of g to terrain t. */
static void set_uniform(cairn_grid *g, uint8_t t) {
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 0; x < cairn_grid_width(g); x++)
      if (cairn_grid_cost(g, x, y)) assert_int_equal(cairn_grid_set_cost(g, x, y, t), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
}

/* Values, directions, line of sight and the reached box, bit for bit. */
static void assert_same_bits(const cairn_field *a, const cairn_field *b) {
  assert_int_equal(a->n, b->n);
  assert_true(memcmp(a->cost, b->cost, a->n * sizeof *a->cost) == 0);
  assert_true(memcmp(a->dir, b->dir, a->n) == 0);
  assert_true(memcmp(a->los, b->los, 2 * a->n) == 0);
  assert_int_equal(a->bx0, b->bx0);
  assert_int_equal(a->by0, b->by0);
  assert_int_equal(a->bx1, b->bx1);
  assert_int_equal(a->by1, b->by1);
}

/* The FIFO build (at 1, 2 and 3 threads) against the bucket and heap
 * builds at one thread, on one grid. */
static void compare_queues(cairn_flow_builder *b, const cairn_grid *g,
                           const cairn_point *goals, size_t n, int moves,
                           int32_t size) {
  cairn_field *ref = new_field(g), *other = new_field(g), *fifo = new_field(g);
  cairn_flow_opts o = opts_of(moves, CAIRN_FLOW_QUEUE_BUCKETS, 1);
  o.size = size;
  assert_int_equal(cairn_field_build(b, ref, g, goals, n, &o), CAIRN_OK);
  o.queue = CAIRN_FLOW_QUEUE_HEAP;
  assert_int_equal(cairn_field_build(b, other, g, goals, n, &o), CAIRN_OK);
  assert_same_bits(ref, other);
  for (int threads = 1; threads <= 3; threads++) {
    o.queue = CAIRN_FLOW_QUEUE_AUTO;
    o.threads = threads;
    assert_int_equal(cairn_field_build(b, fifo, g, goals, n, &o), CAIRN_OK);
    cairn_field_stats st;
    cairn_field_get_stats(fifo, &st);
    assert_int_equal(st.queue, CAIRN_FLOW_QUEUE_FIFO);
    assert_same_bits(ref, fifo);
  }
  /* the builder is left as the other queues and repairs expect it */
  for (size_t i = 0; i < b->cap; i++) {
    if (b->mark[i] || b->qb[i]) fail_msg("builder cell %zu left set", i);
  }
  cairn_field_destroy(ref);
  cairn_field_destroy(other);
  cairn_field_destroy(fifo);
}

static void fifo_equals_direction_pass(void **state) {
  (void)state;
  uint64_t rng = 2026;
  cairn_flow_builder *b = new_builder();
  for (int round = 0; round < 12; round++) {
    /* the larger maps pass FLOW_PARALLEL_MIN_CELLS, so threads run */
    const int w = round % 3 == 0 ? 300 : 40 + round * 7;
    const int h = round % 3 == 0 ? 240 : 30 + round * 5;
    cairn_grid *g = tu_random_grid(&rng, w, h, 15 + round * 2, 1);
    if (round % 2) set_uniform(g, 3);
    cairn_point goals[3];
    const size_t n = 1 + (size_t)(round % 3);
    random_goals(&rng, g, goals, n);
    for (int moves = 4; moves <= 8; moves += 4) {
      compare_queues(b, g, goals, n, moves, 1);
      /* a size's goals must fit it: the goals that do */
      for (int32_t size = 2; size <= 3; size++) {
        cairn_point fit[3];
        size_t m = 0;
        for (size_t k = 0; k < n; k++)
          if (cairn_grid_clearance(g, goals[k].x, goals[k].y) >= size) fit[m++] = goals[k];
        if (m) compare_queues(b, g, fit, m, moves, size);
      }
    }
    cairn_grid_destroy(g);
  }
  cairn_flow_builder_destroy(b);
}

/* Rooms joined by doors of 1 to 3 cells, 1-wide corridors through them,
 * diagonal walls of single cells (a diagonal move there needs both
 * straight cells open), and scattered pillars: the walls that force the
 * canonical integration's extra moves. w x h cells, terrain t. */
static cairn_grid *rooms_map(uint64_t *rng, int32_t w, int32_t h, uint8_t t) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(w, h, t, NULL, &g), CAIRN_OK);
  const int32_t room = 24;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const bool wall = x % room == room - 1 || y % room == room - 1;
      if (wall) assert_int_equal(cairn_grid_set_cost(g, x, y, 0), CAIRN_OK);
    }
  /* doors: in every room's east and south wall, at a random offset */
  for (int32_t ry = 0; ry * room < h; ry++)
    for (int32_t rx = 0; rx * room < w; rx++) {
      const int32_t width = 1 + (int32_t)tu_below(rng, 3);
      const int32_t at = 2 + (int32_t)tu_below(rng, (uint32_t)(room - 6));
      for (int32_t k = 0; k < width; k++) {
        const int32_t ex = rx * room + room - 1, ey = ry * room + at + k;
        const int32_t sx = rx * room + at + k, sy = ry * room + room - 1;
        if (ex < w && ey < h) cairn_grid_set_cost(g, ex, ey, t);
        if (sx < w && sy < h) cairn_grid_set_cost(g, sx, sy, t);
      }
    }
  /* diagonal walls inside some rooms, gaps at their ends */
  for (int k = 0; k < w * h / 2000; k++) {
    const int32_t x0 = (int32_t)tu_below(rng, (uint32_t)w), y0 = (int32_t)tu_below(rng, (uint32_t)h);
    const int32_t dx = tu_below(rng, 2) ? 1 : -1;
    for (int32_t i = 0; i < 12; i++) {
      const int32_t x = x0 + dx * i, y = y0 + i;
      if (x >= 0 && x < w && y < h) cairn_grid_set_cost(g, x, y, 0);
    }
  }
  /* a long 1-wide corridor across the map, walls on both sides */
  const int32_t cy = h / 2 + 5;
  for (int32_t x = 0; x < w; x++) {
    cairn_grid_set_cost(g, x, cy, t);
    if (x > 0 && x + 1 < w) {
      cairn_grid_set_cost(g, x, cy - 1, 0);
      cairn_grid_set_cost(g, x, cy + 1, 0);
    }
  }
  /* pillars */
  for (int k = 0; k < w * h / 50; k++) {
    const cairn_point c = {(int32_t)tu_below(rng, (uint32_t)w), (int32_t)tu_below(rng, (uint32_t)h)};
    if (c.y != cy) cairn_grid_set_cost(g, c.x, c.y, 0);
  }
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

/* The canonical integration and the direction pass after it on walled
 * maps: values and directions (the lowest exact move) equal the bucket
 * and heap builds', at 1, 2 and 3 threads (compare_queues), one goal and
 * three, terrain 1 and 2, and a map large enough for the threads to run. */
static void canonical_on_rooms(void **state) {
  (void)state;
  uint64_t rng = 0xca11;
  cairn_flow_builder *b = new_builder();
  for (int round = 0; round < 4; round++) {
    const int32_t w = round < 2 ? 330 : 97, h = round < 2 ? 250 : 61;
    cairn_grid *g = rooms_map(&rng, w, h, (uint8_t)(1 + round % 2));
    if (round < 2) assert_true((size_t)(w + 2) * (size_t)(h + 2) >= FLOW_PARALLEL_MIN_CELLS);
    cairn_point goals[3];
    const size_t n = round % 2 ? 3 : 1;
    random_goals(&rng, g, goals, n);
    compare_queues(b, g, goals, n, 8, 1);
    cairn_grid_destroy(g);
  }
  cairn_flow_builder_destroy(b);
}

/* Grids one to four cells across, lying and standing, with random walls:
 * the integrations agree (compare_queues) where the run walk's ring of
 * buckets is at its smallest and runs are at their shortest or longest. */
static void thin_grids(void **state) {
  (void)state;
  uint64_t rng = 0x7417;
  cairn_flow_builder *b = new_builder();
  for (int round = 0; round < 80; round++) {
    const int across = 1 + round % 4, along = 1 + (int)tu_below(&rng, 60);
    const int w = round % 8 < 4 ? across : along, h = round % 8 < 4 ? along : across;
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 40), 1);
    const cairn_point first = pt((int32_t)tu_below(&rng, (uint32_t)w),
                                 (int32_t)tu_below(&rng, (uint32_t)h));
    assert_int_equal(cairn_grid_set_cost(g, first.x, first.y, 1), CAIRN_OK);
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    /* a second goal on the first is one goal (the build merges them) */
    cairn_point goals[2] = {first, first};
    const size_t n = round % 3 ? 1 : 2;
    if (n == 2) random_goals(&rng, g, goals + 1, 1);
    compare_queues(b, g, goals, n, 8, 1);
    cairn_grid_destroy(g);
  }
  cairn_flow_builder_destroy(b);
}

/* A serpentine corridor: rows 0, 2, 4, ... open, joined at alternate
 * ends, so the route from one end to the other is about w * h / 2 straight
 * steps: 600 x 600 gives 180 000, past the 32-bit values' 131 070. */
static cairn_grid *serpentine(int32_t w, int32_t h) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(w, h, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 1; y < h; y += 2)
    for (int32_t x = 0; x < w; x++) {
      const int32_t gap = (y / 2) % 2 ? 0 : w - 1;
      if (x != gap) assert_int_equal(cairn_grid_set_cost(g, x, y, 0), CAIRN_OK);
    }
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

static void long_route_falls_back(void **state) {
  (void)state;
  cairn_grid *g = serpentine(600, 600);
  cairn_flow_builder *b = new_builder();
  const cairn_point goal = pt(0, 0);
  compare_queues(b, g, &goal, 1, 8, 1);
  /* the far end: 300 rows of 599 steps plus 299 steps down between them
   * (the corridor's turns are straight steps, the walls block corners) */
  cairn_field *f = new_field(g);
  cairn_flow_opts o = opts_of(8, CAIRN_FLOW_QUEUE_AUTO, 2);
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, &o), CAIRN_OK);
  const int32_t far_x = 299 % 2 ? 0 : 599; /* row 598 runs back to x = 0 */
  const cairn_cost steps = 300 * 599 + 2 * 299;
  assert_true(cairn_field_cost(f, far_x, 598) == steps * CAIRN_COST_ONE);
  assert_true(steps * (CAIRN_COST_ONE / 2) > UINT32_MAX);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(field_equals_dijkstra),
      tu_with_search(field_under_layer),
      tu_with_search(layer_with_large_penalties),
      cmocka_unit_test(multi_goal_is_minimum),
      tu_with_search(directions_legal),
      tu_with_search(verify_catches_faults),
      cmocka_unit_test(fifo_equals_direction_pass),
      cmocka_unit_test(canonical_on_rooms),
      cmocka_unit_test(thin_grids),
      cmocka_unit_test(long_route_falls_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
