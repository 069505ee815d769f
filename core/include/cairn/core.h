/**
 * @file cairn/core.h
 * @brief Grids, costs, A*, Dijkstra, islands, graph A*, smoothing and the
 * Moving AI file formats.
 *
 * Coordinates: (0,0) is the top-left cell, x is the column, y the row.
 *
 * Costs: every cost is a cairn_cost, an unsigned 64-bit fixed-point number
 * with CAIRN_COST_ONE (2^16) units per straight step on terrain cost 1. A
 * diagonal step is CAIRN_COST_DIAG = round(sqrt(2) * 2^16) = 92682, which is
 * sqrt(2) to within 1.1e-6 relative, so a path of n diagonals is off by at most
 * n * 1e-6: far inside the 1e-5 relative tolerance of the Moving AI optimal
 * lengths. The cost of a step is its base (straight or diagonal) times the
 * terrain cost (1..255) of the cell it enters. The worst path on the largest
 * grid (16384^2 cells, each entered diagonally at cost 255) is below 2^53, so
 * sums never overflow and every value also converts exactly to a double.
 * Integers make ties exact and results identical on every machine.
 *
 * Ownership: every object is created by `cairn_<thing>_create` and released by
 * `cairn_<thing>_destroy`. Result paths point into the search context that
 * produced them and stay valid until the next call on that context.
 *
 * Threads: a cairn_grid or cairn_graph is read-only during searches, so any
 * number of threads may search one grid at once, each with its own
 * cairn_search. Editing a grid while a search on it runs is the caller's
 * error; a cost change while a sliced search on it is between steps makes
 * the next cairn_search_step answer CAIRN_ERR_STATE (begin again). No
 * function keeps hidden global state.
 *
 * Memory: a search context grows its arrays to the largest grid and path it
 * has seen; after that no query allocates. cairn_search_reserve does the
 * growing up front.
 */
#ifndef CAIRN_CORE_H
#define CAIRN_CORE_H

#include "cairn/version.h"
#include "cairn/status.h"
#include "cairn/jobs.h"
#include "cairn/grid.h"
#include "cairn/search.h"
#include "cairn/landmarks.h"
#include "cairn/dead_ends.h"
#include "cairn/path_cache.h"
#include "cairn/layers.h"
#include "cairn/graph.h"
#include "cairn/path.h"
#include "cairn/io.h"

#endif
