/**
 * @file cairn/dead_ends.h
 * @brief Dead ends: the parts of a map that join the rest through one
 * cell or one narrow door, which a search may ignore unless its start or
 * goal lies inside.
 *
 * A dead-end area is a set of open cells that every route from outside
 * enters through its gate: an alcove off a corridor, a room with one
 * door, the far end of a passage, and the dead ends nested inside those.
 * A gate is one open cell, or a door: a straight run of 2 to 63 open
 * cells at the grid's cheapest terrain between two walls (a gap in a
 * wall, a corridor's cross-section, a narrow room's, a cave's mouth) that
 * crosses no shorter such run (a row and a column as long: the row), or
 * beside pillars: where a room opens on a corridor through 2 to 8 gaps
 * in one line of wall, the stretch of the corridor's line alongside,
 * from the wall before the first gap to the wall after the last, when it
 * is open at the cheapest terrain, up to 63 cells, and no run across it
 * that is itself a gate takes its cells (a run across a corridor that
 * goes on round is none).
 *
 * With opts.dead_ends, A*, jump point search and the Dijkstra fills
 * (which count each source as a start and each target as a goal), and
 * with cairn_hpa_path_opts.dead_ends a hierarchy's queries, never step
 * through a gate into an area that holds neither the start nor the goal
 * (Lester:
 * "ignore all dead ends when pathfinding, pausing only to consider nodes
 * in a dead end area if the starting location or destination happen to
 * be in the particular dead end area in question"). The answer stays
 * exact:
 * - behind a one-cell gate, on any terrain and with every option (cost
 *   layers, claims, avoided cells, sizes, bounds, turn penalties): a
 *   route that goes in and out passes the gate twice;
 * - behind a door, for plain searches (no layer, claims, avoided cells,
 *   turn penalty, and a unit of one cell; any heuristic, moves and
 *   bounds): a route that goes in at one door cell and out at another
 *   costs more than walking along the door between them, whose cells are
 *   the cheapest there are. Searches with those options enter areas
 *   behind doors as usual.
 *
 * The table also holds swamps (after Pochter, Zohar and Rosenschein):
 * corners of rooms that no shortest path between two cells outside them
 * needs: the pocket a diagonal line cuts off a corner between two walls,
 * when the line's two-cell-wide border is open at the cheapest terrain, so
 * the way along it costs what a cut through the pocket would
 * (cairn_dead_ends_swamp; a triangle where the walls are straight). A plain A* without
 * bounds (no layer, claims, avoided cells, turn penalty, unit of one cell)
 * never steps into a swamp that holds neither its start nor its goal; the
 * answer stays exact. The other searches, jump point search (whose
 * canonical routes may run through a corner) and the fills enter them as
 * usual.
 *
 * The gates also bound the rest of a search: every route from outside the
 * dead ends that hold the goal (but not the start) crosses their gates,
 * as does every route out of those that hold the start (but not the
 * goal). So a plain A* or jump point search with the octile heuristic and
 * 8 moves takes, at each cell on the far side of such a gate, the octile
 * distance to the gate plus the gate's own bound to the goal when that is
 * more than the octile distance (for the innermost and the outermost such
 * area on each side whose gate is no door beside pillars: those are long,
 * and bound little). The bound stays consistent, so the answer stays
 * exact; the search heads for the gates instead of the walls between.
 *
 * The areas are found by one depth-first search over the open cells and
 * their legal 8-way moves, each door taken as one node (Hopcroft and
 * Tarjan's cut vertices), rooted in the largest part of each island, so
 * that the rooms hang off it and not the other way round. A gate may lead
 * into several areas; areas nest, and each has an id
 * (cairn_dead_ends_area).
 *
 * Edits: a table that missed an edit could hide a route the edit opened,
 * so a search refuses it (CAIRN_ERR_STATE) until cairn_dead_ends_update
 * has run, which searches again only near the edit where it can show
 * that nothing farther moves.
 *
 * Threads: the table is read-only during searches; any number of searches
 * may use it at once.
 */
#ifndef CAIRN_DEAD_ENDS_H
#define CAIRN_DEAD_ENDS_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The dead ends of one grid. */
typedef struct cairn_dead_ends cairn_dead_ends;

/** What a table holds. */
typedef struct cairn_dead_ends_stats {
  uint32_t areas;   /**< dead-end areas, nested ones included */
  size_t cells;     /**< open cells inside some dead-end area */
  uint32_t gates;   /**< gates (cells or doors) of at least one area */
  uint32_t doors;   /**< areas whose gate is a door, not one cell */
  uint32_t depth;   /**< the deepest nesting: 1 for an area in no other */
  size_t open;      /**< open cells on the grid, for the share */
  uint32_t swamps;  /**< swamps: room corners no shortest path between two
                         cells outside them needs */
  size_t swamp_cells; /**< open cells in swamps */
  uint64_t local_updates; /**< updates that searched one dead end again */
  uint64_t whole_searches; /**< searches of the whole grid: the create's,
                                and each update's that could not stay inside
                                one dead end */
} cairn_dead_ends_stats;

/** Finds the dead ends of `grid`. The grid must outlive the table.
 * Temporary memory: about 24 bytes a cell, released before it returns.
 * @param[in] grid the grid
 * @param[in] alloc the allocator, or NULL for malloc
 * @param[out] out the table (NULL on failure)
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL grid or out; CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_dead_ends_create(const cairn_grid *grid,
                                                   const cairn_allocator *alloc,
                                                   cairn_dead_ends **out);
/** Releases the table.
 * @param[in] de the table, or NULL (ignored) */
CAIRN_CORE_API void cairn_dead_ends_destroy(cairn_dead_ends *de);
/** Brings the table to its grid after edits. The areas depend only on
 * which cells are open and which are at the grid's cheapest terrain (the
 * doors' cells): edits that opened or closed no cell and moved none into
 * or out of that terrain (a road on grass, a swamp deepened) keep them,
 * for one pass over the cells. Edits of up to 64 cells that all lie inside
 * one dead end, none next to its gate (a wall put up in a room, a crate
 * moved in an alcove), search that dead end again and nothing else: its
 * outside still meets it through the same gate, unless the edit splits
 * the dead end, gives its gate a second way in, could change which door
 * the gate is, or moves cells enough to change which part of the island
 * counts as its centre. Edits
 * of up to 64 cells in the part of an island in no dead end (a wall put
 * up in a hall) are shown to leave every area as it was when, in a window
 * round them, no cell or door cuts anything it did not cut before: the
 * update then touches only the door marks near them. Other edits of up to
 * 64 cells (a wall that turns a doorway into an alcove or the room behind
 * it into a dead end, a cell opened into an alcove) search a window round
 * them again, at least 16 cells on each side, with the parts of the
 * island that hang off the window alone, and find the areas there anew,
 * when the rest of the island is one piece holding its centre, the window
 * joins its sides alike before and after, no door or run crossing its
 * edge changes, and the edit leaves the island's first cell and its
 * centre outside the window. The rest search the whole grid: a wall that
 * closes a loop round the window, an edit near the first cell or the
 * centre, a window that would hold half the island (docs/PERFORMANCE.md
 * gives the counts and times).
 * Every way, the swamps are found again only near the
 * cells whose openness, area or gate moved (and near a swamp that came
 * out otherwise), and the table equals a fresh one. The first update that
 * searches (inside a dead end or the whole grid) keeps about 37 bytes a
 * cell of scratch for the next ones, the first that tries an edit
 * outside every dead end about 1.7 MB, and the first that tries a window
 * about 2 MB (cairn_dead_ends_memory counts them all).
 * @param[in,out] de the table
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL; CAIRN_ERR_NOMEM (the table then
 * refuses searches until an update succeeds) */
CAIRN_CORE_API cairn_status cairn_dead_ends_update(cairn_dead_ends *de);
/** Whether the table matches its grid (no edit since the last create or
 * update).
 * @param[in] de the table
 * @return nonzero when current; 0 for NULL */
CAIRN_CORE_API int cairn_dead_ends_current(const cairn_dead_ends *de);
/** The dead-end area cell (x, y) lies in: the innermost one.
 * @param[in] de the table
 * @param[in] x column
 * @param[in] y row
 * @return a positive id, the same for every cell of the area (ids are
 * distinct, not consecutive); 0 for a cell in no dead end, a blocked or
 * off-map cell, or NULL. The ids follow from the areas alone, not from the
 * route the search took to them: islands in the order of their first
 * cell, the areas of each in preorder, those hanging off one area in the
 * order of their least cell (row-major, their inner areas' included). So
 * an update that leaves the areas as they were leaves every id, and one
 * that adds or removes areas moves the others' ids only by as many. */
CAIRN_CORE_API uint32_t cairn_dead_ends_area(const cairn_dead_ends *de, int32_t x, int32_t y);
/** The swamp of cell (x, y).
 * @param[in] de the table
 * @param[in] x column
 * @param[in] y row
 * @return a positive id, the same for every cell of the swamp; it follows
 * from the swamp's corner (its column and row modulo 131: 1 .. 17161), so
 * an update keeps the ids of the swamps it leaves as they were, and two
 * swamps far apart may share one; 0 for a cell in no swamp, a blocked or
 * off-map cell, a table not current, or NULL */
CAIRN_CORE_API uint32_t cairn_dead_ends_swamp(const cairn_dead_ends *de, int32_t x, int32_t y);
/** Counts of the table.
 * @param[in] de the table
 * @param[out] out the counts
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_dead_ends_get_stats(const cairn_dead_ends *de,
                                                      cairn_dead_ends_stats *out);
/** Bytes the table holds.
 * @param[in] de the table
 * @return its size; 0 for NULL */
CAIRN_CORE_API size_t cairn_dead_ends_memory(const cairn_dead_ends *de);

#ifdef __cplusplus
}
#endif
#endif
