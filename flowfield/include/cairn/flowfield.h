/**
 * @file cairn/flowfield.h
 * @brief Flow fields: one exact cost-to-goal field and one
 * field of next moves shared by every unit heading to the same goal(s).
 *
 * Costs: the core's (cairn/core.h). The integration value of a cell is the
 * exact cost of the cheapest walk from it to the nearest goal: a straight
 * step CAIRN_COST_ONE, a diagonal CAIRN_COST_DIAG, times the terrain cost
 * (1..255) of the cell entered, no corner cutting (a diagonal needs both
 * straight neighbours passable). That is cairn_dijkstra_fill with
 * to_sources set, value for value. Values are uint64_t like the core's:
 * the dearest walk on the largest grid (16384^2 cells, each entered
 * diagonally at cost 255) is below 2^53, so sums never overflow. A blocked
 * or unreachable cell has CAIRN_COST_INF.
 *
 * Directions: 0..7 in the core's neighbour order (E, W, S, N, SE, SW, NE,
 * NW; see cairn_flow_dir_dx/dy), CAIRN_FLOW_GOAL on a goal cell,
 * CAIRN_FLOW_NONE on a blocked or unreachable cell. The direction of a
 * reachable cell is the first move in that order that is legal and leads to
 * a neighbour whose value plus the step's cost is exactly the cell's value,
 * so it depends on the integration alone: the same at any thread count,
 * after a repair as after a rebuild. Following directions from any
 * reachable cell reaches a goal with exactly the cell's value (values
 * strictly decrease along the way).
 *
 * Line of sight: a reachable non-goal cell within los_radius cells
 * (Chebyshev) of a goal whose centre-to-centre segment to that goal is clear
 * by cairn_grid_line_of_sight gets the los flag and the offset to the first
 * such goal (goals in sorted order). Units there may steer straight at the
 * goal. The line ignores terrain costs: on uneven terrain it can cross
 * dearer cells than the field's route.
 *
 * Ownership: a field keeps a pointer to the grid it was built on; the grid
 * must outlive it, and may change only between a build and
 * cairn_field_repair over the changed cells (or a new build). A cache or
 * tile set likewise keeps its grid (and a tile set its hierarchy).
 *
 * Staleness: a field, a cache and a tile set record the grid's version
 * (cairn_grid_version) when they last matched the grid: at a build or
 * create, and at each report of changed cells (cairn_field_repair,
 * cairn_flow_cache_update, cairn_flow_tiles_invalidate), whose cells are
 * taken as every change since. A grid changed without such a report moves
 * past it, and then the reads refuse rather than steer into a new wall:
 * cairn_field_sample, cairn_field_copy_costs, cairn_field_verify,
 * cairn_field_check, cairn_field_repair_layer, a cairn_field_repair of no
 * cells, cairn_flow_cache_acquire, cairn_flow_cache_layer_changed,
 * cairn_flow_tiles_dir and cairn_flow_tiles_route answer CAIRN_ERR_STATE. Reporting the cells makes
 * them answer again, exactly as a fresh build would. The check is one
 * call into the grid and a compare per read, never per cell. The per-cell
 * value reads (cairn_field_cost, cairn_field_dir, cairn_field_los) return
 * values, not statuses: on a stale field they read as unreachable
 * everywhere, and cairn_field_check tells that apart from a dead end. A
 * sample carries the cell's value and whether its move leads onto a goal,
 * so a crowd needs no value read per agent.
 *
 * Threads: a built field is read-only: any number of threads may read and
 * sample it at once. A builder holds all scratch of a build or repair: one
 * per thread. A build's row passes (resetting the values, then finding the
 * directions) run as tasks over bands of rows: through opts.jobs when
 * given (the game's job system, or a shared cairn_pool; cairn/core.h),
 * else through a pool the builder owns, made by the first build that needs
 * it with opts.threads threads and made again when a build asks another
 * count; without jobs, grids under 2^16 padded cells and opts.threads = 1
 * run them on the calling thread (no pool is made). The integration
 * itself is sequential, so the result is bit-identical whatever the jobs,
 * the worker count or the order tasks run in. Repairs run on the calling
 * thread.
 * cairn_flow_build_batch builds several fields at once, one task per
 * request, one builder per worker. A cache and a tile set are
 * single-threaded objects (lock them yourself); the fields a cache hands
 * out may be read from any thread. A repair (cairn_field_repair, or
 * cairn_flow_cache_update on the fields it repairs) writes its field in
 * place: no thread may read that field meanwhile.
 *
 * Memory: a field holds 11 bytes per cell of the padded grid ((w+2)(h+2)):
 * 8 for the value, 1 for the direction and flags, 2 for the line-of-sight
 * offset. A builder holds 21 bytes per padded cell of the largest grid it
 * served (cairn_flow_builder_reserve grows it up front); after that, builds
 * and repairs allocate nothing (but for a field's goal list, which grows
 * the first time it is given more goals than before, and the builder's
 * pool, made by the first build that needs it). Tiles hold 9 bytes per cell of each routed
 * sector only, plus 9 bytes per cluster of the map.
 *
 * Limits: grids up to CAIRN_GRID_MAX_SIDE (the core's); at most
 * CAIRN_FLOW_MAX_GOALS goals per field; los_radius 0..CAIRN_FLOW_MAX_LOS.
 * Everything is checked before anything is allocated.
 */
#ifndef CAIRN_FLOWFIELD_H
#define CAIRN_FLOWFIELD_H

#include "cairn/core.h"
#include "cairn/hierarchy.h"

#include "cairn/flow_field.h"
#include "cairn/flow_cache.h"
#include "cairn/flow_tiles.h"

#endif
