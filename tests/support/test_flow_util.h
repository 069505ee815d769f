/* Helpers shared by the flow-field tests (tests/flowfield): points,
 * builders, fields, search contexts and options, random goals, and fields
 * compared cell by cell. Header only. */
#ifndef CAIRN_TEST_FLOW_UTIL_H
#define CAIRN_TEST_FLOW_UTIL_H

#include "test_util.h"

#include "cairn/flowfield.h"
#include "flow_internal.h"

#include <string.h>

static inline cairn_flow_builder *new_builder(void) {
  cairn_flow_builder *b = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  return b;
}

static inline cairn_field *new_field(const cairn_grid *g) {
  cairn_field *f = NULL;
  assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
  return f;
}

static inline cairn_search *new_search(void) {
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  return s;
}

static inline cairn_flow_opts opts_of(int moves, cairn_flow_queue q, int threads) {
  cairn_flow_opts o = cairn_flow_defaults();
  o.moves = moves;
  o.queue = q;
  o.threads = threads;
  return o;
}

static inline void random_goals(uint64_t *rng, const cairn_grid *g, cairn_point *out,
                                size_t n) {
  for (size_t k = 0; k < n; k++) out[k] = tu_random_open(rng, g);
}

/* Everything a reader sees, cell by cell. */
static inline void assert_same_field(const cairn_field *a, const cairn_field *b,
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

/* Everything a build writes: values, directions (with the los flags), the
 * goals seen, the reached box. */
static inline void assert_identical(const cairn_field *a, const cairn_field *b,
                                    const cairn_grid *g) {
  assert_true(memcmp(a->cost, b->cost, a->n * sizeof *a->cost) == 0);
  assert_true(memcmp(a->dir, b->dir, a->n) == 0);
  assert_true(a->bx0 == b->bx0 && a->by0 == b->by0 && a->bx1 == b->bx1 &&
              a->by1 == b->by1);
  assert_same_field(a, b, g); /* the los offsets where a flag says so */
}

#endif
