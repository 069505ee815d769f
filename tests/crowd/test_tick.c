/* Crowds, the tick: the same state (its hash) at 1, 2 and 3 threads and
 * under any scheduler (test_jobs.h), the path queue under its budget (5,000
 * orders at once: oldest first, every one served), and the tick's bins,
 * built in parallel, in a stable order at any thread count. */
#include "test_crowd_util.h"

#include <stdio.h>
#include <stdlib.h>

#include "cairn/crowd.h"
#include "crowd_internal.h"
#include "test_jobs.h"

/* How a crowd runs its tick: threads, or a scheduler (jobs), and the
 * steering chunk (0: the default). */
typedef struct runner {
  int threads;
  const cairn_jobs *jobs;
  int chunk;
} runner;

static cairn_crowd *crowd_on(const cairn_grid *g, uint32_t max, runner r) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = max;
  o.threads = r.threads;
  o.jobs = r.jobs;
  if (r.chunk) o.chunk = r.chunk;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

/* A mixed crowd on a random map: a horde to two goals, wanderers, units
 * with paths. Returns the hash after `ticks`; *shift moves agent 0. */
static uint64_t run_mixed_on(runner run, int ticks, float shift, int check_walls) {
  uint64_t rng = 42;
  cairn_grid *g = tu_random_grid(&rng, 96, 96, 22, 1);
  cairn_crowd *c = crowd_on(g, 1500, run);
  cairn_agent *agents = malloc(1500 * sizeof *agents);
  size_t n = 0;
  while (n < 1500) {
    cairn_point p = tu_random_open(&rng, g);
    cairn_agent_params ap = {(float)p.x + 0.5f + (n == 0 ? shift : 0.0f),
                             (float)p.y + 0.5f, 0.2f + 0.02f * (float)(n % 8),
                             1.0f + 0.1f * (float)(n % 9), 0, 0};
    assert_int_equal(cairn_crowd_add(c, &ap, &agents[n]), CAIRN_OK);
    n++;
  }
  cairn_point goals[2] = {tu_random_open(&rng, g), tu_random_open(&rng, g)};
  assert_int_equal(cairn_crowd_order_field(c, agents, 900, goals, 2), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_wander(c, agents + 900, 400, 7), CAIRN_OK);
  for (size_t k = 1300; k < 1500; k++)
    assert_int_equal(cairn_crowd_order_path(c, &agents[k], 1, tu_random_open(&rng, g)),
                     CAIRN_OK);
  for (int t = 0; t < ticks; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    if (check_walls) assert_clear(c, g, agents, n);
  }
  cairn_crowd_stats st;
  cairn_crowd_get_stats(c, &st);
  assert_int_equal(st.in_wall, 0);
  assert_int_equal(st.non_finite, 0);
  uint64_t h = cairn_crowd_hash(c);
  free(agents);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return h;
}

static uint64_t run_mixed(int threads, int ticks, float shift, int check_walls) {
  runner r = {threads, NULL, 0};
  return run_mixed_on(r, ticks, shift, check_walls);
}

static void same_state_at_any_thread_count(void **state) {
  (void)state;
  uint64_t one = run_mixed(1, 300, 0.0f, 0), two = run_mixed(2, 300, 0.0f, 0);
  uint64_t three = run_mixed(3, 300, 0.0f, 0);
  assert_true(one == two);
  assert_true(one == three);
  /* the hash sees a change of one agent's start by a hundredth of a cell */
  assert_true(run_mixed(2, 300, 0.01f, 0) != one);
}

/* The same crowd whatever runs the tick's tasks: serially in reverse
 * order or shuffled, naming workers as a pool would, or the crowd's own
 * pool, with small chunks so every pass has many tasks. */
static void same_state_under_any_scheduler(void **state) {
  (void)state;
  uint64_t want = run_mixed(1, 200, 0.0f, 0);
  tj_sched sched[3] = {tj_make(3, 0, 1), tj_make(2, 1, 5), tj_make(3, 1, 9)};
  for (int k = 0; k < 3; k++) {
    runner r = {0, tj_jobs(&sched[k]), 16};
    assert_true(run_mixed_on(r, 200, 0.0f, 0) == want);
    /* several tasks a run: the order really varied */
    assert_true(sched[k].tasks > 4 * (uint64_t)sched[k].runs);
  }
  for (int threads = 2; threads <= 3; threads++) {
    runner r = {threads, NULL, 16};
    assert_true(run_mixed_on(r, 200, 0.0f, 0) == want);
  }
  /* bad jobs are refused */
  uint64_t rng = 3;
  cairn_grid *g = tu_random_grid(&rng, 16, 16, 10, 1);
  cairn_crowd_opts o = cairn_crowd_defaults();
  cairn_jobs bad = {0, tj_run, NULL};
  o.jobs = &bad;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
  bad.workers = 2;
  bad.run = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
  assert_null(c);
  cairn_grid_destroy(g);
}

/* 5,000 path orders at once: no tick spends more than the budget, the
 * oldest are served first, and every one is served. */
static void queue_of_5000_within_budget(void **state) {
  (void)state;
  uint64_t rng = 5;
  cairn_grid *g = tu_random_grid(&rng, 128, 128, 20, 1);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 5000;
  o.threads = 2;
  o.path_budget = 20000;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  cairn_agent *a = malloc(5000 * sizeof *a);
  for (size_t k = 0; k < 5000; k++) {
    cairn_point p = tu_random_open(&rng, g);
    a[k] = tc_add_at(c, (float)p.x + 0.5f, (float)p.y + 0.5f);
  }
  for (size_t k = 0; k < 5000; k++)
    assert_int_equal(cairn_crowd_order_path(c, &a[k], 1, tu_random_open(&rng, g)), CAIRN_OK);
  cairn_crowd_stats st;
  int t = 0;
  uint64_t spent = 0;
  size_t cursor = 0; /* agents before it have left the queue */
  for (;; t++) {
    assert_true(t < 20000);
    cairn_crowd_tick(c);
    cairn_crowd_get_stats(c, &st);
    assert_true(st.tick_nodes <= o.path_budget);
    spent += st.tick_nodes;
    /* oldest first: orders leave the queue in the order they were given */
    while (cursor < 5000) {
      cairn_agent_info i;
      cairn_crowd_get(c, a[cursor], &i);
      if (i.state == CAIRN_AGENT_WAITING) break;
      cursor++;
    }
    if (t % 16 == 0)
      for (size_t k = cursor; k < 5000; k++) {
        cairn_agent_info i;
        cairn_crowd_get(c, a[k], &i);
        assert_int_equal(i.state, CAIRN_AGENT_WAITING);
      }
    if (st.served >= 5000) break;
  }
  assert_int_equal(cursor, 5000);
  assert_true(st.served >= 5000);
  assert_true(st.max_tick_nodes <= o.path_budget);
  /* the budget was used: every tick but the last spent most of it */
  assert_true(spent > (uint64_t)t * o.path_budget * 9 / 10);
  printf("5000 requests served in %d ticks, %llu nodes\n", t + 1, (unsigned long long)spent);
  free(a);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* (bin, slot) pairs in the order a sequential stable counting sort gives. */
static int by_bin_then_slot(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  return *x < *y ? -1 : *x > *y;
}

/* The tick's bins, built in parallel, hold every agent that takes part
 * once, by bin and by slot within a bin (a crowded bin of 40 too, past the
 * small-bin sort), at 1, 2 and 3 threads; the counts are left cleared. */
static void bins_in_stable_order(void **state) {
  (void)state;
  for (int threads = 1; threads <= 3; threads++) {
    uint64_t rng = 99;
    cairn_grid *g = NULL;
    assert_int_equal(cairn_grid_create(64, 64, 1, NULL, &g), CAIRN_OK);
    cairn_crowd *c = new_crowd(g, 700, threads);
    cairn_agent agents[700];
    for (size_t k = 0; k < 700; k++) {
      /* anywhere in the cell that keeps the disc (radius 0.3) off the edge */
      float jx = 0.3f + 0.4f * (float)(tu_rand(&rng) % 1000) / 1000.0f;
      float jy = 0.3f + 0.4f * (float)(tu_rand(&rng) % 1000) / 1000.0f;
      if (k % 15 == 3) { /* 47 of them in cell (10, 10) */
        agents[k] = tc_add_at(c, 10.0f + jx, 10.0f + jy);
      } else {
        cairn_point p = tu_random_open(&rng, g);
        agents[k] = tc_add_at(c, (float)p.x + jx, (float)p.y + jy);
      }
    }
    for (size_t k = 0; k < 700; k += 9) /* gaps in the slots */
      assert_int_equal(cairn_crowd_remove(c, agents[k]), CAIRN_OK);
    uint64_t want[700];
    size_t n = 0;
    for (uint32_t s = 0; s < c->high; s++) {
      if (!c->alive[s]) continue;
      int32_t bx = (int32_t)(c->x[s] * c->inv_bin), by = (int32_t)(c->y[s] * c->inv_bin);
      uint64_t bin = (uint64_t)by * (uint64_t)c->nbx + (uint64_t)bx;
      want[n++] = bin << 32 | s;
    }
    qsort(want, n, sizeof *want, by_bin_then_slot);
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_int_equal(c->n_binned, n);
    for (size_t k = 0; k < n; k++) assert_int_equal(c->order_of[k], (uint32_t)want[k]);
    size_t nb = (size_t)c->nbx * (size_t)c->nby;
    for (size_t b = 0; b < nb; b++) assert_int_equal(c->bin_start[b], 0);
    cairn_crowd_destroy(c);
    cairn_grid_destroy(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_state_at_any_thread_count),
      cmocka_unit_test(same_state_under_any_scheduler),
      cmocka_unit_test(queue_of_5000_within_budget),
      cmocka_unit_test(bins_in_stable_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
