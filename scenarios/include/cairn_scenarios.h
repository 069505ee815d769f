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

#ifdef __cplusplus
}
#endif
#endif
