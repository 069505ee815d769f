/**
 * @file cairn/path.h
 * @brief Line of sight, path smoothing and the independent path check.
 * Part of cairn/core.h.
 */
#ifndef CAIRN_PATH_H
#define CAIRN_PATH_H

#include <stddef.h>

#include "grid.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- paths ---------------------------------------------------------- */

/** Line of sight between two cell centres: true if the segment touches only
 * passable cells, and where it passes exactly through a cell corner, both
 * cells beside the corner are passable (no corner cutting).
 * @param[in] grid the grid
 * @param[in] a one cell
 * @param[in] b the other cell
 * @return nonzero if clear */
CAIRN_CORE_API int cairn_grid_line_of_sight(const cairn_grid *grid, cairn_point a,
                             cairn_point b);

/** Line of sight for a unit of size k (cairn_search_opts.size): the rule of
 * cairn_grid_line_of_sight on the grid eroded to the positions where the
 * unit fits (cairn_grid_clearance >= k), the rule its moves follow. The
 * segment joins the centres of the two positions' top-left cells; every
 * position it crosses, and both positions beside a corner it passes
 * exactly through, must hold the unit. Size 1 is
 * cairn_grid_line_of_sight.
 * @param[in] grid the grid
 * @param[in] a one position
 * @param[in] b the other position
 * @param[in] size the unit's size, 1 .. CAIRN_GRID_MAX_CLEARANCE
 * @return nonzero if clear; 0 also for a NULL grid, a size out of range or a
 * position off the grid */
CAIRN_CORE_API int cairn_grid_line_of_sight_sized(const cairn_grid *grid, cairn_point a,
                                                  cairn_point b, int32_t size);

/** String pulling: keeps a waypoint only where the line of sight from the
 * previous one breaks. A shortcut is taken only over cells no costlier than
 * the dearest cell of the stretch it replaces, so smoothing never drags a
 * path through a swamp it went around. The scan is greedy: from each
 * waypoint it extends the shortcut one input point at a time and stops at
 * the first point it cannot reach, so the result is not the fewest
 * waypoints possible.
 *
 * out may be path itself; an out that overlaps path but starts later is
 * unsafe. grid, path, out, out_n and length must not be NULL and n must be
 * at least 1 (CAIRN_ERR_ARG, nothing written). After those checks `*out_n`
 * and `*length` are 0 on every error. Every input point must be inside the
 * grid (CAIRN_ERR_RANGE otherwise); blocked input points are allowed and
 * kept as waypoints, as are the input points just before and after them.
 * Writes at most cap
 * points; CAIRN_ERR_ARG if cap < number needed (n is always enough), with
 * out left untouched. `*length` gets the Euclidean length of the waypoint
 * polyline.
 * @param[in] grid the grid
 * @param[in] path the cells of the path
 * @param[in] n points in path
 * @param[out] out room for cap waypoints (may be path)
 * @param[in] cap points out can hold
 * @param[out] out_n waypoints written
 * @param[out] length the polyline's length in cells
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_RANGE */
CAIRN_CORE_API cairn_status cairn_smooth_path(const cairn_grid *grid, const cairn_point *path,
                               size_t n, cairn_point *out, size_t cap,
                               size_t *out_n, double *length);

/** cairn_smooth_path for a unit of size k: shortcuts follow
 * cairn_grid_line_of_sight_sized, and a position's cost is the dearest
 * terrain the unit covers there, so a smoothed sized path stays legal for
 * the unit and no dearer than the input. Input points where the unit does
 * not fit are kept as waypoints, like blocked ones. Size 1 is
 * cairn_smooth_path; a size outside 1 .. CAIRN_GRID_MAX_CLEARANCE is
 * CAIRN_ERR_ARG (after `*out_n` and `*length` are zeroed).
 * @param[in] grid the grid
 * @param[in] size the unit's size
 * @param[in] path the positions of the path
 * @param[in] n points in path
 * @param[out] out room for cap waypoints (may be path)
 * @param[in] cap points out can hold
 * @param[out] out_n waypoints written
 * @param[out] length the polyline's length in cells
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_RANGE */
CAIRN_CORE_API cairn_status cairn_smooth_path_sized(const cairn_grid *grid, int32_t size,
                                                    const cairn_point *path, size_t n,
                                                    cairn_point *out, size_t cap,
                                                    size_t *out_n, double *length);

/** The report of cairn_grid_check_path.
 *
 * Independent path check (it shares no code with the searches): endpoints,
 * each step to one of the `moves` neighbours, no blocked cell, no corner cut.
 * The cost is recomputed in double (1 or sqrt(2) times the entered cell's
 * terrain cost). The first broken rule is reported, checked in this order,
 * which decides bad_index: moves not 4 or 8 ("bad moves", index 0), NULL
 * path or n == 0 ("empty path", 0), path[0] != start (0), then for each
 * point k in turn: off the map, blocked cell, and the step from k - 1 (not
 * a neighbour, cuts a corner) (index k), and last path[n - 1] != goal
 * (index n - 1). A NULL report is ignored. */
typedef struct cairn_path_check {
  int valid;           /**< 1 if every rule holds, else 0 */
  double cost;         /**< recomputed cost; 0 when !valid */
  size_t bad_index;    /**< first offending point when !valid; 0 when valid */
  const char *problem; /**< static text when !valid; NULL when valid */
} cairn_path_check;

/** Checks a path independently of the searches (see cairn_path_check).
 * @param[in] grid the grid
 * @param[in] path the cells of the path
 * @param[in] n points in path
 * @param[in] start the start it must begin at
 * @param[in] goal the goal it must end at
 * @param[in] moves 4 or 8
 * @param[out] report the verdict, or NULL */
CAIRN_CORE_API void cairn_grid_check_path(const cairn_grid *grid, const cairn_point *path,
                           size_t n, cairn_point start, cairn_point goal,
                           int moves, cairn_path_check *report);

#ifdef __cplusplus
}
#endif
#endif
