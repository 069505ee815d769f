/* Helpers shared by the tests. */
#ifndef CAIRN_TEST_UTIL_H
#define CAIRN_TEST_UTIL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cairn/core.h"

/* The point (x, y). */
static inline cairn_point pt(int32_t x, int32_t y) {
  cairn_point p = {x, y};
  return p;
}

/* Builds a grid from rows of characters: '.' cost 1, '#' blocked, a digit
 * d cost d (1..9). Fails the test on a bad character. */
cairn_grid *tu_grid(const char *const *rows, int height);
/* A deterministic 64-bit generator (splitmix64). */
uint64_t tu_rand(uint64_t *state);
/* Uniform in [0, n). */
uint32_t tu_below(uint64_t *state, uint32_t n);

/* Asserts that path is a valid start..goal chain under `moves` (adjacent
 * steps, passable cells, no corner cut) and returns its fixed-point cost,
 * recomputed here independently of the searches. */
cairn_cost tu_path_cost(const cairn_grid *g, const cairn_point *path,
                        size_t n, cairn_point start, cairn_point goal,
                        int moves);
/* tu_path_cost without cmocka asserts, for callbacks and worker threads
 * (a failing assert there would jump out of the caller): the recomputed
 * cost, or CAIRN_COST_INF if the path breaks a rule. */
cairn_cost tu_path_cost_quiet(const cairn_grid *g, const cairn_point *path,
                              size_t n, cairn_point start, cairn_point goal,
                              int moves);
/* cmocka setup and teardown of a fresh search context (malloc), *state
 * while the test runs: the fixture of tests that search with one context. */
int tu_search_setup(void **state);
int tu_search_teardown(void **state);
/* The CMUnitTest of such a test. */
#define tu_with_search(test) \
  cmocka_unit_test_setup_teardown(test, tu_search_setup, tu_search_teardown)
/* A random w x h grid: each cell blocked with probability wall_pct/100,
 * otherwise cost 1..max_cost uniformly. Islands are fresh. */
cairn_grid *tu_random_grid(uint64_t *rng, int w, int h, int wall_pct,
                           int max_cost);
/* A map of rooms (random sides 1..5) in rows and columns, one-cell walls
 * between them, each wall with a door (one cell, two one time in five) at
 * a random place with probability door_pct/100, a few pillars inside the
 * rooms, and terrain 1..max_cost: rooms off the way, alcoves and doors for
 * the dead-end tests. */
cairn_grid *tu_rooms(uint64_t *rng, int w, int h, int door_pct, int max_cost);
/* The grid a unit of size k moves on, as the definition reads it (the
 * reference of every sized test): a cell keeps the dearest terrain of the
 * k x k block at it where the whole block is open, else it is blocked.
 * Islands fresh. */
cairn_grid *tu_eroded(const cairn_grid *g, int k);
/* A random position where a unit of size k fits (its k x k cells open),
 * or (-1, -1) after many tries. */
cairn_point tu_fitting(uint64_t *rng, const cairn_grid *g, int k);
/* A random passable cell. */
cairn_point tu_random_open(uint64_t *rng, const cairn_grid *g);
/* Dijkstra's answer from a to b under options o, their landmarks and dead
 * ends left out: the reference the exact searches are held to. */
cairn_result tu_dijkstra(cairn_search *s, const cairn_grid *g, cairn_point a, cairn_point b,
                         const cairn_search_opts *o);
/* Fails unless a search's status st and result got agree with Dijkstra's
 * want on the status and the cost, and, with check_path, its path is a
 * valid chain of that cost (for a unit of one cell, 8 or 4 moves). */
void tu_agrees(const cairn_grid *g, const char *what, cairn_status st, const cairn_result *got,
               const cairn_result *want, cairn_point a, cairn_point b, int moves,
               bool check_path);
/* Fails unless graphs a and b have the same rows: node for node, edge for
 * edge, targets and costs in order. */
void tu_assert_same_graph(const cairn_graph *a, const cairn_graph *b);
/* Fails unless graphs a and b have the same landmarks: the same nodes, in
 * order, and the same cost to every node from each. */
void tu_assert_same_landmarks(const cairn_graph *a, const cairn_graph *b);

/* A failing, counting allocator: every block carries its size, so a free
 * or resize with the wrong old_size is counted (bad_sizes); once `budget`
 * calls with new_size > 0 have succeeded, every further one fails (budget
 * < 0: never). Not locked: the library promises to call one allocator from
 * one thread at a time, and ThreadSanitizer reports it if that breaks. */
typedef struct tu_alloc {
  long budget;
  size_t live_bytes, live_blocks, calls, failures, bad_sizes;
} tu_alloc;
/* Resets *t to the budget and returns an allocator over it. */
cairn_allocator tu_alloc_init(tu_alloc *t, long budget);

/* One create or build (and whatever it needs to be used once), under
 * alloc: it destroys everything it made before returning, and returns
 * CAIRN_OK or the first failing status. */
typedef cairn_status (*tu_oom_fn)(void *ctx, const cairn_allocator *alloc);
/* Runs fn with the allocator failing after k allocations, k = 0, 1, 2, ...
 * until it succeeds: every failing run must return CAIRN_ERR_NOMEM after
 * at least one refused allocation, and every run must leave zero bytes and
 * blocks outstanding with no wrong old_size. Returns the allocations the
 * successful run made (so a caller can check the sweep covered them). */
long tu_oom_sweep(const char *name, tu_oom_fn fn, void *ctx);
/* tu_oom_sweep, printing from how many allocations on fn succeeds, and
 * failing the test when that is under min_allocs: a sweep that stopped
 * allocating through the allocator tests nothing. */
void tu_oom_check(const char *name, tu_oom_fn fn, void *ctx, long min_allocs);

/* What every module's sweeps (test_oom.c) work on: one random map with
 * walls and uneven terrain, two far open cells of one island on it, and
 * A*'s answer computed with malloc. */
typedef struct tu_oom_map {
  cairn_grid *grid;
  cairn_point a, b;
  cairn_cost astar_cost; /* A* from a to b */
} tu_oom_map;
/* cmocka group setup and teardown: *state is the map, read-only. */
int tu_oom_map_setup(void **state);
int tu_oom_map_teardown(void **state);
#endif
