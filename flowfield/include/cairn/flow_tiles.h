/**
 * @file cairn/flow_tiles.h
 * @brief Sector tiles: fields per cluster along HPA* routes. Part of
 * cairn/flowfield.h.
 */
#ifndef CAIRN_FLOW_TILES_H
#define CAIRN_FLOW_TILES_H

#include <stddef.h>
#include <stdint.h>

#include "cairn/core.h"
#include "cairn/hierarchy.h"
#include "flow_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sector tiles over the hierarchy ------------------------------- */

/** Fields per sector (the hierarchy's clusters) along the routes that
 * HPA* queries give towards one goal cell, built lazily: a sector is
 * integrated the first time a direction inside it is asked for. The goal's
 * sector is integrated from the goal; every other routed sector towards
 * the cells it can step into in its next sector on the route, each seeded
 * with that cell's value plus the step's cost, so values compose: following
 * the tiles from any cell with a value reaches the goal along a legal path
 * whose cost is exactly that value. The value is at least the optimal cost
 * (routes are confined to the routed sectors); docs/PERFORMANCE.md gives
 * what it measured above it. Cells outside the routed sectors, or not
 * reaching the seam within their sector, get CAIRN_FLOW_NONE: ask for a
 * route from there. 8-way only. */
typedef struct cairn_flow_tiles cairn_flow_tiles;

/** Creates the tiles towards one goal, no sector routed yet.
 * max_sectors bounds the routed sectors (memory: 9 bytes x side^2 each).
 * @param[in] grid the grid (kept)
 * @param[in] hpa a hierarchy on the grid (kept)
 * @param[in] goal the goal cell
 * @param[in] max_sectors most routed sectors
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the tiles
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL, max_sectors 0 or an hpa built
 * on another grid size; CAIRN_ERR_RANGE / CAIRN_ERR_BLOCKED for the goal;
 * CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_tiles_create(const cairn_grid *grid,
                                     const cairn_hpa *hpa, cairn_point goal,
                                     size_t max_sectors,
                                     const cairn_allocator *alloc,
                                     cairn_flow_tiles **out);
/** cairn_flow_tiles_create for a unit of size k (cairn_search_opts.size):
 * routes are the hierarchy's answers for that size (cairn_hpa_path_opts.size)
 * and sectors integrate over the positions where the unit fits, each step
 * paying the dearest terrain it covers, so following the tiles keeps the
 * whole unit on open cells. The tiles keep the grid eroded for the size
 * (1 byte a cell), redone around the cells cairn_flow_tiles_invalidate
 * names. Size 1 is cairn_flow_tiles_create.
 * @param[in] grid the grid (kept: it must outlive the tiles)
 * @param[in] hpa the hierarchy built on it, answering units of size k
 *   (cairn_hpa_opts.max_size at least k)
 * @param[in] goal the goal position (the unit's top-left cell)
 * @param[in] max_sectors most routed sectors
 * @param[in] size the unit's size, 1 .. the hierarchy's max_size (0 reads
 *   as 1)
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the tiles
 * @return as cairn_flow_tiles_create; CAIRN_ERR_ARG also for a size the
 *   hierarchy does not answer; CAIRN_ERR_BLOCKED for a goal the unit does
 *   not fit on */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_tiles_create_sized(const cairn_grid *grid,
                                                               const cairn_hpa *hpa,
                                                               cairn_point goal,
                                                               size_t max_sectors, int32_t size,
                                                               const cairn_allocator *alloc,
                                                               cairn_flow_tiles **out);
/** Destroys the tiles. NULL is ignored.
 * @param[in] t the tiles, or NULL */
CAIRN_FLOWFIELD_API void cairn_flow_tiles_destroy(cairn_flow_tiles *t);
/** Adds the sectors of the HPA* route from start to the goal (nothing is
 * integrated yet). A route that joins sectors already routed stops there:
 * their next sectors stay. CAIRN_NO_PATH if HPA* finds none,
 * CAIRN_ERR_TOO_LARGE past max_sectors (nothing is added),
 * HPA* refusals as cairn_hpa_find. This allocates a sector's arrays.
 * @param[in,out] t the tiles
 * @param[in,out] q the query context HPA* runs in
 * @param[in] start the route's start cell
 * @return CAIRN_OK, CAIRN_NO_PATH, CAIRN_ERR_TOO_LARGE, CAIRN_ERR_NOMEM,
 * CAIRN_ERR_ARG, CAIRN_ERR_STATE (nothing added) when the grid changed
 * since the tiles' create or last cairn_flow_tiles_invalidate, the
 * refusals of cairn_hpa_find */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_tiles_route(cairn_flow_tiles *t, cairn_hpa_query *q,
                                    cairn_point start);
/** Direction code and value at a cell, integrating its sector (and the
 * sectors after it on the route) first if needed. Cells outside the routed
 * sectors: CAIRN_FLOW_NONE and CAIRN_COST_INF (status CAIRN_OK). cost may
 * be NULL.
 * @param[in,out] t the tiles
 * @param[in] x column
 * @param[in] y row
 * @param[out] dir the direction code
 * @param[out] cost the value, or NULL
 * @return CAIRN_OK; CAIRN_ERR_RANGE off the grid, CAIRN_ERR_ARG for NULL,
 * CAIRN_ERR_STATE (CAIRN_FLOW_NONE, nothing integrated) when the grid
 * changed since the tiles' create or last cairn_flow_tiles_invalidate,
 * CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_tiles_dir(cairn_flow_tiles *t, int32_t x, int32_t y,
                                  int *dir, cairn_cost *cost);

/** After the caller changed the cells in `changed` (grid coordinates): the
 * integrated sectors that touch it (grown by one cell, since a cell can
 * open or close a move across a sector border) become unbuilt, and so
 * does every sector whose route passes through one of them (its values
 * were seeded from there). They are integrated again when next asked. The
 * routes stay: if the edit cut one, cells that cannot reach their seam
 * any more get CAIRN_FLOW_NONE, and a new route (after the hierarchy's own
 * update) replaces nothing already routed. Returns how many sectors were
 * reset. The rectangle is taken as every change since the tiles' create
 * or last invalidation: afterwards they show the grid's current version
 * (cairn_grid_version) and cairn_flow_tiles_dir and cairn_flow_tiles_route
 * answer again (an empty rectangle reports nothing).
 * @param[in,out] t the tiles
 * @param[in] changed the cells that changed
 * @return the sectors reset */
CAIRN_FLOWFIELD_API size_t cairn_flow_tiles_invalidate(cairn_flow_tiles *t, cairn_rect changed);

/** The tiles' figures. */
typedef struct cairn_flow_tiles_stats {
  int32_t sector;      /**< side in cells (the hierarchy's cluster side) */
  size_t routed;       /**< sectors on some route */
  size_t built;        /**< sectors integrated so far */
  size_t memory_bytes; /**< everything the tiles hold */
  double build_ms;     /**< total wall time spent integrating sectors */
} cairn_flow_tiles_stats;

/** Fills `*out` with the tiles' figures.
 * @param[in] t the tiles
 * @param[out] out the figures */
CAIRN_FLOWFIELD_API void cairn_flow_tiles_get_stats(const cairn_flow_tiles *t,
                                cairn_flow_tiles_stats *out);

#ifdef __cplusplus
}
#endif
#endif
