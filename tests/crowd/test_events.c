/* Crowds, events: every horde agent that arrives gives exactly one
 * ARRIVED event with its handle, user value and tick; a removal gives
 * REMOVED; a path to another island UNREACHABLE (from the queue) and a
 * field that cannot be followed UNREACHABLE (from the steering); a stuck
 * path follower STUCK then REPATHED (as many as stats.repaths), a stalled
 * horde agent STUCK, a grid edit REPATHED; the whole sequence is the same
 * at 1, 2 and 3 threads and under shuffled schedulers; a full ring keeps
 * the oldest and counts the rest; bad calls take nothing. */
#include "test_crowd_util.h"

#include <stdlib.h>
#include <string.h>

#include "test_jobs.h"

static cairn_crowd *crowd_with(const cairn_grid *g, uint32_t max, int threads,
                               const cairn_jobs *jobs, uint32_t max_events,
                               uint32_t stuck_ticks) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = max;
  o.threads = threads;
  o.jobs = jobs;
  if (jobs) o.chunk = 8; /* many tasks a pass */
  o.max_events = max_events;
  if (stuck_ticks) o.stuck_ticks = stuck_ticks;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

static size_t drain(cairn_crowd *c, cairn_crowd_event *out, size_t cap) {
  size_t n = 0;
  assert_int_equal(cairn_crowd_events(c, out, cap, &n), CAIRN_OK);
  return n;
}

/* 200 horde agents to one goal on an open map: each arrives once. */
static void every_arrival_once(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(40, 40, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = crowd_with(g, 200, 2, NULL, 256, 0);
  cairn_agent a[200];
  for (size_t k = 0; k < 200; k++) {
    cairn_agent_params p = {0.5f + (float)(k % 20) * 2.0f, 0.5f + (float)(k / 20) * 4.0f,
                            0.3f, 1.5f, 0, 0xabc00000ull + k};
    assert_int_equal(cairn_crowd_add(c, &p, &a[k]), CAIRN_OK);
  }
  cairn_point goal = {20, 20};
  assert_int_equal(cairn_crowd_order_field(c, a, 200, &goal, 1), CAIRN_OK);
  size_t arrived[200] = {0}, total = 0;
  cairn_crowd_event ev[256];
  for (uint64_t t = 1; t <= 600 && total < 200; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    size_t n = drain(c, ev, 256);
    for (size_t i = 0; i < n; i++) {
      assert_int_equal(ev[i].kind, CAIRN_EVENT_ARRIVED);
      assert_true(ev[i].tick == t);
      size_t k = (size_t)(ev[i].agent & 0xffffffffu);
      assert_true(k < 200 && ev[i].agent == a[k]);
      assert_true(ev[i].user == 0xabc00000ull + k);
      assert_int_equal(tc_info(c, a[k]).state, CAIRN_AGENT_ARRIVED);
      arrived[k]++;
      total++;
    }
  }
  for (size_t k = 0; k < 200; k++) assert_int_equal(arrived[k], 1);
  for (int t = 0; t < 20; t++) assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(cairn_crowd_events_pending(c), 0);
  /* a removal */
  assert_int_equal(cairn_crowd_set_user(c, a[7], 77), CAIRN_OK);
  assert_int_equal(cairn_crowd_remove(c, a[7]), CAIRN_OK);
  assert_int_equal(drain(c, ev, 256), 1);
  assert_int_equal(ev[0].kind, CAIRN_EVENT_REMOVED);
  assert_true(ev[0].agent == a[7] && ev[0].user == 77);
  cairn_crowd_stats st;
  cairn_crowd_get_stats(c, &st);
  assert_true(ev[0].tick == st.ticks);
  assert_true(st.events_lost == 0);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void unreachable_events(void **state) {
  (void)state;
  /* two islands: the wall down column 8 */
  const char *rows[] = {"........#.......", "........#.......", "........#.......",
                        "........#.......", "........#.......", "........#......."};
  cairn_grid *g = tu_grid(rows, 6);
  cairn_crowd *c = crowd_with(g, 4, 1, NULL, 16, 0);
  cairn_agent a = tc_add_at(c, 1.5f, 1.5f), b = tc_add_at(c, 2.5f, 4.5f);
  cairn_point far = {12, 3};
  assert_int_equal(cairn_crowd_order_path(c, &a, 1, far), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_field(c, &b, 1, &far, 1), CAIRN_OK);
  cairn_crowd_event ev[16];
  size_t got = 0, n;
  int seen_a = 0, seen_b = 0;
  for (int t = 0; t < 10; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    n = drain(c, ev, 16);
    for (size_t i = 0; i < n; i++) {
      assert_int_equal(ev[i].kind, CAIRN_EVENT_UNREACHABLE);
      seen_a += ev[i].agent == a;
      seen_b += ev[i].agent == b;
    }
    got += n;
  }
  assert_int_equal(got, 2);
  assert_int_equal(seen_a, 1);
  assert_int_equal(seen_b, 1);
  assert_int_equal(tc_info(c, a).state, CAIRN_AGENT_UNREACHABLE);
  assert_int_equal(tc_info(c, b).state, CAIRN_AGENT_UNREACHABLE);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A busy scene on a random map with a narrow middle: a horde, groups and
 * single units crossing, a grid edit halfway. Every event of the run, in
 * order, into *out (malloc'd); the stats at the end into *st. */
static size_t busy_run(int threads, const cairn_jobs *jobs, cairn_crowd_event **out,
                       cairn_crowd_stats *st) {
  uint64_t rng = 77;
  cairn_grid *g = tu_random_grid(&rng, 64, 48, 28, 1);
  cairn_crowd *c = crowd_with(g, 700, threads, jobs, 1u << 14, 8);
  cairn_agent a[700];
  for (size_t k = 0; k < 700; k++) {
    cairn_point p = tu_random_open(&rng, g);
    cairn_agent_params ap = {(float)p.x + 0.5f, (float)p.y + 0.5f, 0.3f, 1.5f, 0, k};
    assert_int_equal(cairn_crowd_add(c, &ap, &a[k]), CAIRN_OK);
  }
  cairn_point goal = tu_random_open(&rng, g);
  assert_int_equal(cairn_crowd_order_field(c, a, 400, &goal, 1), CAIRN_OK);
  for (size_t k = 400; k < 600; k += 20)
    assert_int_equal(cairn_crowd_order_move(c, a + k, 20, tu_random_open(&rng, g)), CAIRN_OK);
  for (size_t k = 600; k < 700; k++)
    assert_int_equal(cairn_crowd_order_path(c, &a[k], 1, goal), CAIRN_OK);
  size_t cap = 1u << 16, n = 0;
  *out = malloc(cap * sizeof **out);
  for (int t = 0; t < 700; t++) {
    if (t == 350) { /* close a few cells: paths repath */
      cairn_point cells[8];
      size_t m = 0;
      for (int i = 0; i < 8; i++) {
        cairn_point p = tu_random_open(&rng, g);
        assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, 0), CAIRN_OK);
        cells[m++] = p;
      }
      assert_int_equal(cairn_crowd_grid_changed(c, cells, m), CAIRN_OK);
    }
    if (t == 500) assert_int_equal(cairn_crowd_remove(c, a[3]), CAIRN_OK);
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    size_t k = 0;
    assert_int_equal(cairn_crowd_events(c, *out + n, cap - n, &k), CAIRN_OK);
    n += k;
  }
  cairn_crowd_get_stats(c, st);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
  return n;
}

static void same_sequence_everywhere(void **state) {
  (void)state;
  cairn_crowd_event *one, *other;
  cairn_crowd_stats s1, s2;
  size_t n1 = busy_run(1, NULL, &one, &s1);
  /* the run saw every kind */
  size_t kinds[6] = {0}, stuck_path = 0;
  for (size_t i = 0; i < n1; i++) {
    kinds[one[i].kind]++;
    if (one[i].kind == CAIRN_EVENT_STUCK && i + 1 < n1 &&
        one[i + 1].kind == CAIRN_EVENT_REPATHED && one[i + 1].agent == one[i].agent)
      stuck_path++;
    if (i) assert_true(one[i].tick >= one[i - 1].tick);
  }
  for (int k = CAIRN_EVENT_ARRIVED; k <= CAIRN_EVENT_REMOVED; k++)
    if (!kinds[k]) fail_msg("no event of kind %d in the busy run", k);
  assert_int_equal(kinds[CAIRN_EVENT_REMOVED], 1);
  assert_true(s1.repaths == stuck_path); /* every stuck repath says so */
  assert_true(kinds[CAIRN_EVENT_STUCK] > stuck_path); /* horde agents too */
  assert_true(s1.events_lost == 0);
  for (int threads = 2; threads <= 3; threads++) {
    size_t n2 = busy_run(threads, NULL, &other, &s2);
    assert_int_equal(n2, n1);
    assert_memory_equal(other, one, n1 * sizeof *one);
    free(other);
  }
  tj_sched sched[2] = {tj_make(3, 0, 1), tj_make(2, 1, 5)};
  for (int k = 0; k < 2; k++) {
    size_t n2 = busy_run(0, tj_jobs(&sched[k]), &other, &s2);
    assert_int_equal(n2, n1);
    assert_memory_equal(other, one, n1 * sizeof *one);
    free(other);
  }
  free(one);
}

/* A ring of 4: the 4 oldest kept, the rest counted; 0 keeps none. */
static void full_ring(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(16, 16, 1, NULL, &g), CAIRN_OK);
  for (uint32_t room = 0; room <= 4; room += 4) {
    cairn_crowd *c = crowd_with(g, 10, 1, NULL, room, 0);
    cairn_agent a[10];
    for (int k = 0; k < 10; k++) a[k] = tc_add_at(c, 0.5f + (float)k, 0.5f);
    for (int k = 0; k < 10; k++) assert_int_equal(cairn_crowd_remove(c, a[k]), CAIRN_OK);
    cairn_crowd_stats st;
    cairn_crowd_get_stats(c, &st);
    assert_int_equal(cairn_crowd_events_pending(c), room);
    assert_true(st.events_lost == (room ? 6u : 0u));
    cairn_crowd_event ev[8];
    size_t n = 0;
    /* bad calls take nothing */
    assert_int_equal(cairn_crowd_events(c, NULL, 4, &n), CAIRN_ERR_ARG);
    assert_int_equal(n, 0);
    assert_int_equal(cairn_crowd_events(c, ev, 4, NULL), CAIRN_ERR_ARG);
    assert_int_equal(cairn_crowd_events(NULL, ev, 4, &n), CAIRN_ERR_ARG);
    assert_int_equal(cairn_crowd_events(c, NULL, 0, &n), CAIRN_OK);
    assert_int_equal(n, 0);
    assert_int_equal(cairn_crowd_events_pending(c), room);
    /* two at a time, oldest first */
    for (uint32_t k = 0; k < room; k += 2) {
      assert_int_equal(drain(c, ev, 2), 2);
      assert_true(ev[0].agent == a[k] && ev[1].agent == a[k + 1]);
      assert_int_equal(ev[0].kind, CAIRN_EVENT_REMOVED);
    }
    assert_int_equal(drain(c, ev, 8), 0);
    cairn_crowd_destroy(c);
  }
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_events = CAIRN_CROWD_MAX_EVENTS + 1;
  char why[160];
  assert_int_equal(cairn_crowd_check(g, &o, why, sizeof why), CAIRN_ERR_ARG);
  assert_string_equal(why, "opts.max_events 16777217 is above 16777216");
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_arrival_once),
      cmocka_unit_test(unreachable_events),
      cmocka_unit_test(same_sequence_everywhere),
      cmocka_unit_test(full_ring),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
