/* Helpers shared by the crowd tests (header only: they need the crowd
 * module, which the other tests do not link). */
#ifndef CAIRN_TEST_CROWD_UTIL_H
#define CAIRN_TEST_CROWD_UTIL_H

#include "test_util.h"

#include "cairn/crowd.h"
#include "cairn_save.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/* Options cairn_crowd_check and cairn_crowd_create both refuse, the
 * detail naming `says`. */
static inline void tc_assert_refused(const cairn_grid *g, const cairn_crowd_opts *o,
                                     const char *says) {
  char why[160];
  assert_int_equal(cairn_crowd_check(g, o, why, sizeof why), CAIRN_ERR_ARG);
  if (!strstr(why, says)) fail_msg("'%s' does not say '%s'", why, says);
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, o, NULL, &c), CAIRN_ERR_ARG);
  assert_null(c);
}

/* The crowd's save, in a malloc'd buffer of *len bytes. */
static inline uint8_t *tc_save_of(const cairn_crowd *c, size_t *len) {
  assert_int_equal(cairn_crowd_save(c, NULL, 0, len), CAIRN_ERR_BUFFER);
  uint8_t *buf = malloc(*len);
  assert_non_null(buf);
  size_t got = 0;
  assert_int_equal(cairn_crowd_save(c, buf, *len, &got), CAIRN_OK);
  assert_int_equal(got, *len);
  return buf;
}

/* A save's bytes with the checksum made right again: past the frame, so
 * the reader's own checks are what refuses. */
static inline void tc_reseal(uint8_t *b, size_t len) {
  uint64_t sum = cairn__checksum(b, len - 8);
  for (int k = 0; k < 8; k++) b[len - 8 + (size_t)k] = (uint8_t)(sum >> (8 * k));
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

/* Whether the disc of radius r at (x, y) overlaps a blocked cell or one
 * off the grid, worked out here cell by cell in double (independent of
 * the crowd's own wall code); the first such cell in *cell. */
static inline bool tc_disc_in_wall(const cairn_grid *g, double x, double y, double r,
                                   cairn_point *cell) {
  for (int32_t cy = (int32_t)floor(y - r); cy <= (int32_t)floor(y + r); cy++)
    for (int32_t cx = (int32_t)floor(x - r); cx <= (int32_t)floor(x + r); cx++) {
      if (cairn_grid_cost(g, cx, cy) != 0) continue; /* 0 off the grid too */
      double px = fmin(fmax(x, cx), cx + 1.0), py = fmin(fmax(y, cy), cy + 1.0);
      if ((x - px) * (x - px) + (y - py) * (y - py) < r * r) {
        cell->x = cx;
        cell->y = cy;
        return true;
      }
    }
  return false;
}

/* Every live agent's position is finite and its whole disc off blocked
 * cells (touching one is allowed). */
static inline void assert_clear(const cairn_crowd *c, const cairn_grid *g,
                                const cairn_agent *agents, size_t n) {
  for (size_t k = 0; k < n; k++) {
    cairn_agent_info i;
    assert_int_equal(cairn_crowd_get(c, agents[k], &i), CAIRN_OK);
    assert_true(isfinite(i.x) && isfinite(i.y));
    cairn_point w;
    if (tc_disc_in_wall(g, i.x, i.y, i.radius, &w))
      fail_msg("agent %zu at %.7f,%.7f of radius %.3f overlaps blocked cell %d,%d", k,
               (double)i.x, (double)i.y, (double)i.radius, w.x, w.y);
  }
}

#endif
