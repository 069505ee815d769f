/* Helpers shared by the crowd tests (header only: they need the crowd
 * module, which the other tests do not link). */
#ifndef CAIRN_TEST_CROWD_UTIL_H
#define CAIRN_TEST_CROWD_UTIL_H

#include "test_util.h"

#include "cairn/crowd.h"

#include <math.h>

/* An agent of radius 0.3 and speed 1.5 at (x, y); fails the test if refused. */
static inline cairn_agent tc_add_at(cairn_crowd *c, float x, float y) {
  cairn_agent_params p = {x, y, 0.3f, 1.5f, 0, 0};
  cairn_agent a = 0;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_OK);
  return a;
}

static inline cairn_agent_info tc_info(const cairn_crowd *c, cairn_agent a) {
  cairn_agent_info i;
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_OK);
  return i;
}

/* How many of the n agents are in state s. */
static inline size_t tc_count_state(const cairn_crowd *c, const cairn_agent *a, size_t n,
                                    cairn_agent_state s) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += tc_info(c, a[i]).state == s;
  return k;
}

/* A crowd of at most max agents ticking on `threads` threads. */
static inline cairn_crowd *new_crowd(const cairn_grid *g, uint32_t max, int threads) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = max;
  o.threads = threads;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  return c;
}

/* Every live agent's centre is on an open cell and finite. */
static inline void assert_clear(const cairn_crowd *c, const cairn_grid *g,
                                const cairn_agent *agents, size_t n) {
  for (size_t k = 0; k < n; k++) {
    cairn_agent_info i;
    assert_int_equal(cairn_crowd_get(c, agents[k], &i), CAIRN_OK);
    assert_true(isfinite(i.x) && isfinite(i.y));
    int32_t x = (int32_t)floorf(i.x), y = (int32_t)floorf(i.y);
    if (cairn_grid_cost(g, x, y) == 0)
      fail_msg("agent %zu at %.4f,%.4f is in a blocked cell", k, (double)i.x, (double)i.y);
  }
}

#endif
