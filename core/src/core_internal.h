/* Private to the core module (and its tests): object layouts and helpers. */
#ifndef CAIRN_CORE_INTERNAL_H
#define CAIRN_CORE_INTERNAL_H

#include "cairn/core.h"
#include "cairn_private.h"

#include <stdarg.h>
#include <stdbool.h>

/* ---- errors --------------------------------------------------------- */

/* Fills err (if not NULL) with "name:line: fmt..." (or "name: ..." when line
 * is 0) and returns status. */
cairn_status cairn__fail(cairn_error *err, cairn_status status,
                         const char *name, int32_t line, const char *fmt, ...)
    CAIRN_PRINTF(5, 6);

/* ---- grid ----------------------------------------------------------- */

/* Cells are stored with a one-cell blocked border, so the 8 neighbours of
 * any inner cell are valid indices and expansion needs no bounds checks. */
struct cairn_grid {
  cairn_allocator alloc;
  int32_t width, height;
  int32_t stride;   /* width + 2 */
  size_t padded;    /* (width + 2) * (height + 2) */
  uint8_t *cost;    /* padded; border cells are 0 */
  /* padded: the legal 8-way moves out of each open cell as a bit set over
   * the search's direction order (straight E W S N, then diagonals SE SW
   * NE NW; a diagonal only where both straight components are open), 0 for
   * blocked cells. Kept by every cost change, so an expansion reads its
   * moves with one load instead of testing eight neighbours. */
  uint8_t *moves;
  /* padded: each cell's clearance, the side of the largest all-open square
   * whose top-left corner it is, capped at CAIRN_GRID_MAX_CLEARANCE (0 for
   * blocked and border cells). Kept with the move sets: a cell's
   * passability reaches only the clearances up and left of it within the
   * cap, so an edit redoes a constant window. */
  uint8_t *clear;
  /* the open cells as bits, for searches that scan a word of cells at a
   * time (jump point search): plane rows holds padded row y in row_words
   * words from rows + y * row_words, padded cell x at bit x + 64 (a word
   * of blocked cells before and after each row, so a scan may read the
   * word either side of any cell's); plane cols the same for the columns
   * (padded column x, cell y at bit y + 64). Kept with the move sets. */
  uint64_t *rows, *cols;
  size_t row_words, col_words;
  uint8_t *glyph;   /* padded map characters, or NULL */
  uint32_t *island; /* padded labels, 0 for blocked */
  uint32_t island_count;
  bool islands_fresh;
  /* the island labels of sizes 2 .. island_sizes (cairn_grid_set_island_sizes):
   * plane k - 2 holds padded labels of the positions where a unit of size
   * k fits, 0 elsewhere; NULL while island_sizes is 1. Only full labellings
   * write them, so a grid that has them never merges labels locally
   * (knowledge.c): fresh size-1 labels then mean fresh planes too. */
  uint32_t *island_sized;
  int32_t island_sizes;
  size_t passable;
  /* passable cells per cost 1..255, and how many costs have any: the grid
   * is uniform when at most one has */
  size_t by_cost[256];
  uint32_t distinct_costs;
  /* counts the cost changes, so a sliced search can tell that the grid was
   * edited between its steps (cairn_search_step refuses to go on); public
   * as cairn_grid_version, for the hierarchy, fields, caches and tiles */
  uint64_t edits;
};

static inline uint32_t cairn__grid_index(const cairn_grid *g, int32_t x,
                                         int32_t y) {
  return (uint32_t)(y + 1) * (uint32_t)g->stride + (uint32_t)(x + 1);
}
/* The island labels that answer for a unit of size k: its own plane where
 * the grid keeps one, else the size-1 labels (every size's legal positions
 * lie inside the size-1 islands, so those still prove "unreachable"). */
static inline const uint32_t *cairn__grid_islands_of(const cairn_grid *g, unsigned k) {
  if (k > 1 && (int32_t)k <= g->island_sizes)
    return g->island_sized + (size_t)(k - 2) * g->padded;
  return g->island;
}
static inline cairn_point cairn__grid_point(const cairn_grid *g,
                                            uint32_t index) {
  cairn_point p = {(int32_t)(index % (uint32_t)g->stride) - 1,
                   (int32_t)(index / (uint32_t)g->stride) - 1};
  return p;
}

/* Recomputes the move sets and clearances of every cell (after costs were
 * written in bulk), or of the cells one cell's passability reaches. */
void cairn__grid_refresh_moves(cairn_grid *g);
void cairn__grid_refresh_moves_around(cairn_grid *g, uint32_t i);
/* Recounts by_cost and distinct_costs (after costs were written in bulk). */
void cairn__grid_count_costs(cairn_grid *g);

/* Allocates the glyph layer (filled with 0 = no glyph). */
cairn_status cairn__grid_alloc_glyphs(cairn_grid *g);

#endif
