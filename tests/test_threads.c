/* The thread contract: any number of threads search one grid (and one
 * graph) at once, each with its own context, and get exactly the answers a
 * single thread gets. Built with OpenMP when it is found. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { QUERIES = 3000 };

typedef struct answer {
  cairn_status status;
  cairn_cost cost;
  uint64_t expanded, path_hash;
} answer;

static uint64_t hash_path(const cairn_result *r) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < r->path_len; i++) {
    h = (h ^ (uint64_t)(uint32_t)r->path[i].x) * 1099511628211ull;
    h = (h ^ (uint64_t)(uint32_t)r->path[i].y) * 1099511628211ull;
  }
  return h;
}

static void solve(cairn_search *s, const cairn_grid *g, const cairn_point *q,
                  int i, answer *out) {
  cairn_search_opts o = cairn_search_defaults();
  o.heuristic = (cairn_heuristic)(i % 4 == 1 ? CAIRN_H_EUCLIDEAN : CAIRN_H_OCTILE);
  cairn_result r;
  out->status = cairn_astar(s, g, q[2 * i], q[2 * i + 1], &o, &r);
  out->cost = r.cost;
  out->expanded = r.expanded;
  out->path_hash = hash_path(&r);
}

static void concurrent_grid_queries(void **state) {
  (void)state;
  uint64_t rng = 77;
  cairn_grid *g = tu_random_grid(&rng, 200, 150, 30, 4);
  cairn_point *q = malloc(2 * QUERIES * sizeof *q);
  answer *want = malloc(QUERIES * sizeof *want);
  answer *got = calloc(QUERIES, sizeof *got);
  assert_non_null(q);
  assert_non_null(want);
  assert_non_null(got);
  for (int i = 0; i < 2 * QUERIES; i++) q[i] = tu_random_open(&rng, g);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  for (int i = 0; i < QUERIES; i++) solve(s, g, q, i, &want[i]);
  cairn_search_destroy(s);
  int threads = 1, failures = 0;
#pragma omp parallel num_threads(4) reduction(+ : failures)
  {
    cairn_search *mine = NULL;
    if (cairn_search_create(NULL, &mine) != CAIRN_OK) failures++;
#ifdef _OPENMP
#pragma omp single
    threads = omp_get_num_threads();
#endif
#pragma omp for schedule(dynamic, 7)
    for (int i = 0; i < QUERIES; i++)
      if (mine) solve(mine, g, q, i, &got[i]);
    cairn_search_destroy(mine);
  }
  assert_int_equal(failures, 0);
  print_message("%d queries on %d threads\n", QUERIES, threads);
  for (int i = 0; i < QUERIES; i++) {
    assert_int_equal(got[i].status, want[i].status);
    assert_true(got[i].cost == want[i].cost);
    assert_true(got[i].expanded == want[i].expanded);
    assert_true(got[i].path_hash == want[i].path_hash);
  }
  free(q);
  free(want);
  free(got);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(concurrent_grid_queries)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
