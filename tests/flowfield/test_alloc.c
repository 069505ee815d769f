/* Flow-field memory: a builder that cannot make its pool answers
 * CAIRN_ERR_NOMEM and builds once memory is back, builds after a reserve
 * allocate nothing, and fields, cached fields and tiles fail cleanly at
 * every allocation. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_flow_util.h"

#include <stdlib.h>

#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pool_failure_is_nomem),
      cmocka_unit_test(builds_do_not_allocate),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
