/* Helpers shared by the tests. */
#ifndef CAIRN_TEST_UTIL_H
#define CAIRN_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cairn_core.h"

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
/* A random w x h grid: each cell blocked with probability wall_pct/100,
 * otherwise cost 1..max_cost uniformly. Islands are fresh. */
cairn_grid *tu_random_grid(uint64_t *rng, int w, int h, int wall_pct,
                           int max_cost);
/* A random passable cell. */
cairn_point tu_random_open(uint64_t *rng, const cairn_grid *g);
#endif
