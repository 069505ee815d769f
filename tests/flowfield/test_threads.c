/* Flow fields and threads: 1 and 2 threads (and a batch) give the same field
 * bit for bit, and so does any scheduler of the row passes (reversed,
 * shuffled, the builder's pool at 1, 2 and 3 threads, test_jobs.h), before
 * and after repairs; a batch through a scheduler of 3 workers. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_flow_util.h"

#include <math.h>
#include <string.h>

#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(thread_count_independent),
      cmocka_unit_test(scheduler_independent),
      cmocka_unit_test(batch_through_jobs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
