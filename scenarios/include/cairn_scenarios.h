/* cairn scenarios: the demo maps, as Moving AI map characters. Used by
 * `cairn gen`, the tests and the bench; not installed with the library.
 *
 * Each generator writes width x height characters, row by row with no
 * line ends, into out. The same seed always gives the same map. In the
 * Moving AI rule '.', 'G' and 'S' are passable (cairn_terrain_movingai
 * gives 'S' a higher cost only when the caller's terrain says so), and
 * 'T', 'W' and '@' are walls. */
#ifndef CAIRN_SCENARIOS_H
#define CAIRN_SCENARIOS_H

#include "cairn/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Width, in cells, of each settlement gate. */
#define CAIRN_SETTLEMENT_GATE 8

/* The night of the dead's settlement: a walled town in the middle with two
 * gates of CAIRN_SETTLEMENT_GATE cells on each side ('G'), houses inside
 * ('@'), farm fields ('S'), forest ('T'), a river across the west ('W')
 * with fords ('.'), open ground ('.').
 * CAIRN_ERR_ARG for sides under 64 or a NULL out; CAIRN_ERR_TOO_LARGE
 * above CAIRN_GRID_MAX_SIDE. */
cairn_status cairn_settlement_generate(int32_t width, int32_t height,
                                       uint64_t seed, char *out);

/* A hamlet's outskirts: forest ('T'), swamp ('S'), a river with fords
 * ('W', '.'), and in the east a walled hamlet with three gates and houses
 * ('@'). CAIRN_ERR_ARG for sides under 40 x 30 or a NULL out;
 * CAIRN_ERR_TOO_LARGE above CAIRN_GRID_MAX_SIDE. */
cairn_status cairn_outskirts_generate(int32_t width, int32_t height,
                                      uint64_t seed, char *out);

/* The ground's cost in a terrain variant: roads (1) and meadows (2) are
 * cheaper, swamps (4..8) dearer, so a cheapest path leaves the straight
 * line for roads and round swamps, and differs from the uniform map's. */
#define CAIRN_TERRAIN_GROUND 3

/* A terrain variant of a map, for the weighted searches' benchmark. cost
 * holds width x height cells, row by row: 0 a wall, any other value an
 * open cell. Walls are kept; every open cell becomes ground
 * (CAIRN_TERRAIN_GROUND) under patches of meadow (2) and swamp (4..8) of
 * three sizes scaled to the map, and 2 + min(width, height) / 128 roads
 * (1), 4-connected polylines from side to side through random waypoints,
 * painted last. Open cells stay open, with costs 1..8. Integer arithmetic
 * only: the same seed gives the same costs on every platform.
 * CAIRN_ERR_ARG for a NULL cost or a side under 1; CAIRN_ERR_TOO_LARGE
 * above CAIRN_GRID_MAX_SIDE. */
cairn_status cairn_terrain_variant_generate(int32_t width, int32_t height,
                                            uint64_t seed, uint8_t *cost);

/* The rows of a Moving AI scenario file on grid: `rows` pairs of cells of
 * its largest island (the first in label order on a tie), each with the
 * cheapest cost between them from the core's Dijkstra (cairn_distance_map;
 * the fixed-point cost, within 1.1e-6 relative of the exact one), bucket =
 * floor(optimal / 4), sorted by bucket (ties in the order drawn), `line`
 * numbered from 2 as in a file after "version 1". One fill from a random
 * start serves up to 16 rows, each goal the cell nearest a random cost of
 * the fill among 32 drawn, so the rows spread over the buckets. The island
 * labels must be fresh. out holds `rows` entries.
 * CAIRN_ERR_ARG for a NULL grid or out, or rows outside
 * 1..CAIRN_SCEN_MAX_ROWS; CAIRN_ERR_STATE for stale islands; CAIRN_NO_PATH
 * when no island has two cells; CAIRN_ERR_NOMEM. */
cairn_status cairn_scen_rows_generate(const cairn_grid *grid, size_t rows,
                                      uint64_t seed, cairn_scen_entry *out);

#ifdef __cplusplus
}
#endif
#endif
