/**
 * @file cairn/landmarks.h
 * @brief Landmarks for grid searches: exact costs from a few cells, which
 * bound the cost to the goal far better than the octile distance on mazes,
 * scattered obstacles and terrain.
 *
 * ALT (Goldberg and Harrelson: A*, landmarks and the triangle inequality).
 * With the exact cost d(L, v) from a landmark L to every cell v (and, on a
 * grid of several terrain costs, the cost d(v, L) back), every cell n and
 * goal t satisfy
 *
 *     cost(n, t) >= d(L, t) - d(L, n)   and   cost(n, t) >= d(n, L) - d(t, L).
 *
 * A* and jump point search with opts.landmarks take the largest of these
 * bounds over a few landmarks chosen per query, and the octile distance: a
 * consistent heuristic, so the answer stays exact, and one that sees the
 * walls and the terrain the octile distance does not. On a maze it is
 * close to the true cost, and the search walks little more than the path.
 *
 * The table holds the costs on the grid's terrain alone, with 8 moves and
 * for a unit of one cell. Every restriction a search adds (4 moves, a size,
 * bounds, cost layers, claims, avoided cells, turn penalties) only makes
 * routes dearer, so the bounds hold for all of them.
 *
 * Landmarks are picked farthest first: the first is the open cell farthest
 * from the middle of the largest island, each next one the cell farthest
 * from all picked so far. Picking and filling cost one Dijkstra fill per
 * landmark (two on a grid of several terrain costs).
 *
 * Edits: a table that missed a cost change could overestimate, so a search
 * refuses it (CAIRN_ERR_STATE) until cairn_landmarks_update has run.
 *
 * Threads: the table is read-only during searches; any number of searches
 * may use it at once.
 */
#ifndef CAIRN_LANDMARKS_H
#define CAIRN_LANDMARKS_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most landmarks a table may have. */
#define CAIRN_LANDMARKS_MAX 16

/** Options of a landmark table (cairn_landmarks_defaults gives them). */
typedef struct cairn_landmarks_opts {
  /** Landmarks, 1 .. CAIRN_LANDMARKS_MAX (default 8). Each costs 4 bytes a
   * cell (8 on a grid of several terrain costs) and one fill (two). */
  int32_t count;
  /** Landmarks a search uses, the ones with the best bounds at its start,
   * 1 .. count, or 0 (the default) for the search's own choice: all of
   * them for A*, 4 for jump point search. More tighten the bound and cost
   * every new node a few more loads and compares: A* saves more expansions
   * than that costs (on terrain all measured best), jump point search,
   * which opens few nodes, less (docs/PERFORMANCE.md, "Landmarks for the
   * exact searches"). */
  int32_t active;
} cairn_landmarks_opts;

/** The defaults: 8 landmarks, each search's own choice of how many.
 * @return the default options */
CAIRN_CORE_API cairn_landmarks_opts cairn_landmarks_defaults(void);

/** A landmark table for one grid. */
typedef struct cairn_landmarks cairn_landmarks;

/** Picks the landmarks of `grid` and fills their costs. The grid must
 * outlive the table.
 * @param[in] grid the grid
 * @param[in] opts options, or NULL for the defaults
 * @param[in] alloc the allocator, or NULL for malloc
 * @param[out] out the table (NULL on failure)
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL grid or out, or options out of
 * range; CAIRN_NO_PATH for a grid without an open cell; CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_landmarks_create(const cairn_grid *grid,
                                                   const cairn_landmarks_opts *opts,
                                                   const cairn_allocator *alloc,
                                                   cairn_landmarks **out);
/** Releases the table.
 * @param[in] lm the table, or NULL (ignored) */
CAIRN_CORE_API void cairn_landmarks_destroy(cairn_landmarks *lm);
/** Picks and fills again after the grid's costs changed: every cost may
 * move with one edit, so this is a rebuild (one fill per landmark).
 * @param[in,out] lm the table
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL; CAIRN_NO_PATH if no open cell
 * is left; the table then refuses searches until an update succeeds */
CAIRN_CORE_API cairn_status cairn_landmarks_update(cairn_landmarks *lm);
/** Landmarks in the table.
 * @param[in] lm the table
 * @return the count; 0 for NULL */
CAIRN_CORE_API int32_t cairn_landmarks_count(const cairn_landmarks *lm);
/** Landmark i's cell.
 * @param[in] lm the table
 * @param[in] i the landmark, below cairn_landmarks_count
 * @param[out] out its cell
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL or an i out of range */
CAIRN_CORE_API cairn_status cairn_landmarks_cell(const cairn_landmarks *lm, int32_t i,
                                                 cairn_point *out);
/** Whether the table matches its grid's costs (no edit since the last
 * create or update).
 * @param[in] lm the table
 * @return nonzero when current; 0 for NULL */
CAIRN_CORE_API int cairn_landmarks_current(const cairn_landmarks *lm);
/** Bytes the table holds.
 * @param[in] lm the table
 * @return its size; 0 for NULL */
CAIRN_CORE_API size_t cairn_landmarks_memory(const cairn_landmarks *lm);

#ifdef __cplusplus
}
#endif
#endif
