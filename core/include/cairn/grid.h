/**
 * @file cairn/grid.h
 * @brief Costs, points, rectangles, grids and their islands. Part of
 * cairn/core.h.
 */
#ifndef CAIRN_GRID_H
#define CAIRN_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- costs and points ----------------------------------------------- */

/** A fixed-point cost: CAIRN_COST_ONE units per straight step on terrain
 * cost 1. */
typedef uint64_t cairn_cost;
/** One straight step on terrain cost 1 (2^16). */
#define CAIRN_COST_ONE ((cairn_cost)65536)
/** One diagonal step on terrain cost 1: round(sqrt(2) * 2^16). */
#define CAIRN_COST_DIAG ((cairn_cost)92682)
/** No cost: unreachable, or no path. */
#define CAIRN_COST_INF UINT64_MAX

/** A cost in straight steps.
 * @param[in] c fixed-point cost
 * @return c / CAIRN_COST_ONE */
static inline double cairn_cost_to_double(cairn_cost c) {
  return (double)c / (double)CAIRN_COST_ONE;
}

/** A cell. */
typedef struct cairn_point {
  /** @{ */
  int32_t x, y; /**< column and row */
  /** @} */
} cairn_point;

/** A rectangle of cells: columns x .. x + w - 1, rows y .. y + h - 1. */
typedef struct cairn_rect {
  /** @{ */
  int32_t x, y, w, h; /**< first column and row, width and height */
  /** @} */
} cairn_rect;

/* ---- grid ----------------------------------------------------------- */

/** Largest width and height accepted anywhere (maps, scenarios, create). */
#define CAIRN_GRID_MAX_SIDE 16384

/** A rectangular grid of cells, each with a terrain cost: 0 is blocked,
 * 1..255 multiplies the length of every step that enters the cell. It also
 * holds island labels (connected components) used to answer unreachable
 * queries without searching, and optionally the map character of each cell
 * so a map written back keeps its original glyphs. */
typedef struct cairn_grid cairn_grid;

/** Creates a w x h grid with every cell set to fill. Islands are computed.
 * @param[in] width columns, 1 .. CAIRN_GRID_MAX_SIDE
 * @param[in] height rows, 1 .. CAIRN_GRID_MAX_SIDE
 * @param[in] fill every cell's cost (0 blocked, 1..255)
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the grid
 * @return CAIRN_OK; CAIRN_ERR_TOO_LARGE if a side exceeds
 * CAIRN_GRID_MAX_SIDE, CAIRN_ERR_ARG if a side is below 1 (or out is NULL),
 * CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_grid_create(int32_t width, int32_t height, uint8_t fill,
                               const cairn_allocator *alloc, cairn_grid **out);
/** Destroys a grid. NULL is ignored.
 * @param[in] grid the grid, or NULL */
CAIRN_CORE_API void cairn_grid_destroy(cairn_grid *grid);

/** Width in cells.
 * @param[in] grid the grid
 * @return the number of columns */
CAIRN_CORE_API int32_t cairn_grid_width(const cairn_grid *grid);
/** Height in cells.
 * @param[in] grid the grid
 * @return the number of rows */
CAIRN_CORE_API int32_t cairn_grid_height(const cairn_grid *grid);
/** Whether a cell lies inside the grid.
 * @param[in] grid the grid (NULL contains nothing)
 * @param[in] x column
 * @param[in] y row
 * @return 1 inside, 0 outside */
CAIRN_CORE_API int cairn_grid_contains(const cairn_grid *grid, int32_t x, int32_t y);
/** Terrain cost of a cell; 0 (blocked) outside the grid.
 * @param[in] grid the grid
 * @param[in] x column
 * @param[in] y row
 * @return 0 (blocked) or 1..255 */
CAIRN_CORE_API uint8_t cairn_grid_cost(const cairn_grid *grid, int32_t x, int32_t y);
/** Sets a cell's cost. Island labels become stale (searches then skip the
 * unreachable shortcut) until cairn_grid_update_islands. The cell's map
 * glyph is dropped unless it still fits the new cost.
 * @param[in,out] grid the grid
 * @param[in] x column
 * @param[in] y row
 * @param[in] cost 0 (blocked) or 1..255
 * @return CAIRN_OK, CAIRN_ERR_RANGE off the grid, CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_grid_set_cost(cairn_grid *grid, int32_t x, int32_t y,
                                 uint8_t cost);
/** Sets every cell of rectangle r (which must lie inside the grid, else
 * CAIRN_ERR_RANGE; w or h 0 sets nothing) from costs, row by row, `pitch`
 * bytes from one row to the next (>= r.w): the bulk form of
 * cairn_grid_set_cost, with the same effects on islands and glyphs, for
 * copies and large edits.
 * @param[in,out] grid the grid
 * @param[in] r the cells to set
 * @param[in] costs r.h rows of r.w costs
 * @param[in] pitch bytes from one row of costs to the next
 * @return CAIRN_OK, CAIRN_ERR_RANGE, CAIRN_ERR_ARG (NULL, a bad rectangle
 * or pitch) */
CAIRN_CORE_API cairn_status cairn_grid_set_rect(cairn_grid *grid, cairn_rect r,
                                 const uint8_t *costs, size_t pitch);
/** The grid's version: it grows by at least one with every change of a
 * cell's cost (cairn_grid_set_cost, cairn_grid_set_rect, and the edits that
 * go through them), and by nothing else, so two equal versions mean the
 * costs did not change in between. Hierarchies, flow fields, caches and
 * tiles record it when they last matched the grid and answer
 * CAIRN_ERR_STATE once it moves on without them being told.
 * @param[in] grid the grid, or NULL
 * @return the version; 0 for NULL */
CAIRN_CORE_API uint64_t cairn_grid_version(const cairn_grid *grid);
/** Number of passable cells.
 * @param[in] grid the grid
 * @return cells with a cost above 0 */
CAIRN_CORE_API size_t cairn_grid_passable(const cairn_grid *grid);
/** Whether every passable cell has the same cost (true of an empty grid):
 * then shortest paths need no priority queue (fills use FIFO queues).
 * @param[in] grid the grid
 * @return nonzero if uniform */
CAIRN_CORE_API int cairn_grid_uniform(const cairn_grid *grid);
/** Read-only view of the terrain costs for loops that walk many cells (the
 * hierarchy, flow fields, renderers): (width + 2) x (height + 2) bytes, row
 * by row, with a blocked border one cell wide, so cell (x, y) is at
 * (y + 1) * stride + (x + 1) and every inner cell's 8 neighbours are valid.
 * `*stride` gets width + 2. Valid until the grid is destroyed.
 * @param[in] grid the grid
 * @param[out] stride bytes from one padded row to the next
 * @return the padded costs */
CAIRN_CORE_API const uint8_t *cairn_grid_cells(const cairn_grid *grid, int32_t *stride);
/** Read-only view of the legal 8-way moves of every cell, laid out as
 * cairn_grid_cells: a bit set over the directions E W S N SE SW NE NW (bits
 * 0..7; x grows east, y south), a diagonal only where both straight
 * neighbours are open (no corner cutting), 0 for blocked and border cells.
 * The grid keeps it current through every cost change; searches read it.
 * @param[in] grid the grid
 * @param[out] stride bytes from one padded row to the next
 * @return the padded move bits */
CAIRN_CORE_API const uint8_t *cairn_grid_moves(const cairn_grid *grid, int32_t *stride);

/** The largest clearance a grid records: units of up to this many cells a
 * side. */
#define CAIRN_GRID_MAX_CLEARANCE 8
/** A cell's clearance: the side of the largest square of open cells whose
 * top-left corner it is, capped at CAIRN_GRID_MAX_CLEARANCE; 0 for a
 * blocked cell, off the map or a NULL grid. A unit of size k (the k x k
 * block whose top-left cell is its position) fits where the clearance is
 * at least k. The grid keeps clearances current through every cost
 * change, at a constant cost an edit (the cells within the cap up and
 * left of it).
 * @param[in] grid the grid
 * @param[in] x column
 * @param[in] y row
 * @return 0 .. CAIRN_GRID_MAX_CLEARANCE */
CAIRN_CORE_API uint8_t cairn_grid_clearance(const cairn_grid *grid, int32_t x, int32_t y);
/** Read-only view of every cell's clearance (cairn_grid_clearance), laid
 * out as cairn_grid_cells, 0 for border cells.
 * @param[in] grid the grid
 * @param[out] stride bytes from one padded row to the next
 * @return the padded clearances */
CAIRN_CORE_API const uint8_t *cairn_grid_clearances(const cairn_grid *grid, int32_t *stride);

/** A 64-bit fingerprint of the map: its width, height and every cell's
 * cost in row order (nothing else: island labels, glyphs and edit counts
 * leave it alone). Save formats record it to refuse a file made for
 * another map. Stable: the same map gives the same value on every
 * platform and in every version of cairn. The hash, cairn's 64-bit hash
 * (docs/core.md, "Fingerprints"), runs over the width and the height as
 * 4-byte little-endian integers, then the costs, one byte a cell, row by
 * row. (A grid holds no movement rule: every grid moves 8
 * ways without cutting corners, so none enters it.) Equal maps always
 * agree; different maps collide with odds of about 2^-64. It reads every
 * cell (about 1 ms for 2^20 cells).
 * @param[in] grid the grid
 * @return the fingerprint; 0 for NULL */
CAIRN_CORE_API uint64_t cairn_grid_fingerprint(const cairn_grid *grid);

/** Relabels the islands. With no corner cutting, two cells joined by a
 * diagonal step are also joined through an orthogonal neighbour, so one
 * 4-connected labelling serves both 4-way and 8-way moves. Labels are
 * 1..count; 0 is blocked.
 * @param[in,out] grid the grid
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_grid_update_islands(cairn_grid *grid);
/** Whether the island labels match the costs.
 * @param[in] grid the grid
 * @return nonzero if fresh */
CAIRN_CORE_API int cairn_grid_islands_fresh(const cairn_grid *grid);
/** A cell's island label.
 * @param[in] grid the grid
 * @param[in] x column
 * @param[in] y row
 * @return 1..count, 0 for blocked cells and cells off the grid */
CAIRN_CORE_API uint32_t cairn_grid_island(const cairn_grid *grid, int32_t x, int32_t y);
/** The largest island label.
 * @param[in] grid the grid
 * @return the island count */
CAIRN_CORE_API uint32_t cairn_grid_island_count(const cairn_grid *grid);

/** Keeps island labels for units of sizes 1 .. sizes (cairn_search_opts.size)
 * too, and labels them all now: the positions where a unit of size k fits,
 * grouped as its moves join them. A search for a size with labels answers
 * an unreachable goal without searching, as size 1 does; a size without
 * them falls back to the size-1 labels, which only catch goals on another
 * size-1 island. Each size above 1 costs 4 bytes a cell and one more pass
 * at every relabel (cairn_grid_update_islands). The labels go stale and
 * fresh with the size-1 ones (cairn_grid_islands_fresh).
 * @param[in,out] grid the grid
 * @param[in] sizes the largest size labelled, 1 .. CAIRN_GRID_MAX_CLEARANCE
 *   (1, the default, keeps only the size-1 labels)
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL or a size out of range;
 *   CAIRN_ERR_NOMEM, the grid unchanged */
CAIRN_CORE_API cairn_status cairn_grid_set_island_sizes(cairn_grid *grid, int32_t sizes);
/** The largest size the grid keeps island labels for.
 * @param[in] grid the grid
 * @return 1 .. CAIRN_GRID_MAX_CLEARANCE; 0 for NULL */
CAIRN_CORE_API int32_t cairn_grid_island_sizes(const cairn_grid *grid);
/** A position's island label for a unit of size k: positions with equal
 * labels join for that size. Labels are 1 .. (no count is kept).
 * @param[in] grid the grid
 * @param[in] x column
 * @param[in] y row
 * @param[in] size the unit's size, 1 .. cairn_grid_island_sizes
 * @return the label; 0 where the unit does not fit, off the grid, or for a
 *   size without labels */
CAIRN_CORE_API uint32_t cairn_grid_island_sized(const cairn_grid *grid, int32_t x, int32_t y,
                                                int32_t size);

#ifdef __cplusplus
}
#endif
#endif
