/* Helpers shared by the bad-input matrix's tests (test_badinput.c of each
 * module, docs/RELIABILITY.md): an allocator that refuses everything, a small
 * grid and a grid with no passable cell. Header only. */
#ifndef CAIRN_TEST_BADINPUT_UTIL_H
#define CAIRN_TEST_BADINPUT_UTIL_H

#include "test_util.h"

/* ---- helpers -------------------------------------------------------- */

/* An allocator that refuses everything: what a limit check must never
 * reach. */
static inline cairn_allocator refusing(tu_alloc *t) { return tu_alloc_init(t, 0); }

/* The 4 x 3 grid of ok_map: a wall of two cells in the middle row. */
static inline cairn_grid *small_grid(void) {
  const char *rows[] = {"....", ".##.", "...."};
  return tu_grid(rows, 3);
}

/* ---- a map with no passable cell ------------------------------------ */

static inline cairn_grid *walled_grid(void) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(8, 8, 0, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_passable(g), 0);
  return g;
}

#endif
