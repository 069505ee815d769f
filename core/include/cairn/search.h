/**
 * @file cairn/search.h
 * @brief Grid searches: options, results, the search context, A*,
 * Dijkstra, sliced search and fills. Part of cairn/core.h.
 */
#ifndef CAIRN_SEARCH_H
#define CAIRN_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- search options and results ------------------------------------- */

/** The grid searches' heuristic. */
typedef enum cairn_heuristic {
  CAIRN_H_OCTILE = 0, /**< octile distance (the default) */
  CAIRN_H_MANHATTAN,  /**< Manhattan distance */
  CAIRN_H_EUCLIDEAN,  /**< straight-line distance */
  CAIRN_H_ZERO /**< Dijkstra */
} cairn_heuristic;

/** Options of the grid searches (cairn_search_defaults gives them). */
typedef struct cairn_search_opts {
  cairn_heuristic heuristic; /**< default octile */
  int moves;                 /**< 8 (default) or 4 */
  /** Weighted A*: h is multiplied by weight (1..1000); the cost found is at
   * most weight x optimal. 1 (default) is exact. */
  double weight;
  /** Added (in cost units, 0..1000) to every step whose direction differs
   * from the previous step. It smooths the look of paths, and makes the search
   * a heuristic one: the state is the cell, not (cell, heading), so the result
   * is not guaranteed to minimise cost plus turns. The result's cost
   * includes the penalties paid. 0 (default) is off and runs the plain
   * loop. */
  double turn_penalty;
  /** Stop with CAIRN_PARTIAL after this many expansions; 0 = no limit. */
  uint64_t max_expanded;
  /** Search only inside this rectangle: cells outside count as blocked (a
   * hierarchy's cluster, a local repair window). w == 0 or h == 0 (the
   * default) is the whole grid. It must lie inside the grid (else
   * CAIRN_ERR_ARG), and the start, goals and sources inside it (else
   * CAIRN_ERR_RANGE). A rectangle is convex, so the corner rule inside it is
   * the grid's own. */
  cairn_rect bounds;
  /** Cost layers (cairn_penalty, below): an extra cost per entered cell on
   * top of its terrain, or a block for this search only. NULL (default):
   * none. It must be made for a grid of the searched grid's size (else
   * CAIRN_ERR_ARG), and not change while the search runs. Fills on uniform
   * terrain lose their FIFO queues under a layer (costs are uneven). */
  const struct cairn_penalty *penalty;
  /** Claimed cells (cairn_claims, below): entering a cell that k units
   * claimed costs k x claim_penalty more (in straight steps, 0..1000),
   * when the cell lies within claim_radius cells (Chebyshev) of the start;
   * 0 = at any distance. NULL (default): no claims. A unit's own claims
   * count too: release them before it searches again. */
  const struct cairn_claims *claims;
  double claim_penalty;  /**< straight steps per claim, 0..1000 (see claims) */
  int32_t claim_radius;  /**< claims count within this many cells of the
                              start; 0 = at any distance */
  /** Cells this search alone never enters, the grid and layers untouched:
   * the stopped units beside a searching one (the adjacent-unit rule).
   * Unlike walls they leave diagonal steps past their corners open (units
   * are discs, not blocks). The start and goal are never avoided; cells
   * off the grid are skipped. Read when the search begins (the list need not outlive that),
   * at a cost of one write per cell. A* only (cairn_astar and
   * cairn_astar_begin); the other grid searches refuse a non-empty list
   * with CAIRN_ERR_ARG. */
  const cairn_point *avoid;
  size_t n_avoid; /**< cells in avoid */
  /** The unit's size k, 1 .. CAIRN_GRID_MAX_CLEARANCE (0 reads as 1, the
   * default): the unit covers the k x k cells whose top-left one is its
   * position. A position is legal where every covered cell is open
   * (cairn_grid_clearance >= k), a move where it is legal on the grid of
   * legal positions (no corner cutting there), and entering a position
   * costs the dearest terrain it covers times the step, plus the highest
   * layer penalty it covers (blocked if one is CAIRN_PENALTY_BLOCK);
   * claims count at the position alone. The start, goals and sources must
   * be legal positions (else CAIRN_ERR_BLOCKED); a fill's targets where
   * the unit does not fit are never settled. With bounds, every covered
   * cell stays inside them. Every grid search takes it: A*, the nearest
   * of many goals, fills and distance maps (on uniform terrain a fill for
   * a size above 1 runs the general loop, not the FIFO rings). Size 1 is
   * every search's own behaviour. */
  int32_t size;
  /** A landmark table of the searched grid (cairn/landmarks.h), or NULL
   * (default). A* and jump point search raise the octile heuristic to the
   * landmarks' bound: still exact, and far fewer expansions on mazes,
   * scattered obstacles and terrain. It needs the octile heuristic and
   * weight 1 (else CAIRN_ERR_ARG), a table of this grid (else
   * CAIRN_ERR_ARG) that is current (else CAIRN_ERR_STATE). The other
   * searches ignore it. A search with it cannot save its state. */
  const struct cairn_landmarks *landmarks;
  /** A dead-end table of the searched grid (cairn/dead_ends.h), or NULL
   * (default). A* (one goal) and jump point search then never step into a
   * dead-end area that holds neither the start nor the goal, and with the
   * octile heuristic raise it on the far side of the gates every route
   * crosses (cairn/dead_ends.h): the same cost, fewer expansions on maps
   * with rooms and alcoves. The Dijkstra
   * fills (cairn_dijkstra_fill, cairn_distance_map) likewise enter only
   * the areas that hold a source or a target: every target keeps its
   * cost, and a fill without targets leaves the cells of the other areas
   * unreached. It needs a table of this grid (else CAIRN_ERR_ARG) that is
   * current (else CAIRN_ERR_STATE). The other searches ignore it. A
   * search with it cannot save its state. */
  const struct cairn_dead_ends *dead_ends;
} cairn_search_opts;

/** The defaults: octile, 8 moves, weight 1, no turn penalty, no limit,
 * whole grid.
 * @return the default options */
CAIRN_CORE_API cairn_search_opts cairn_search_defaults(void);
/** Names for the CLI and logs: "octile", "manhattan", "euclidean", "zero".
 * @param[in] h a heuristic
 * @return its name (a static string) */
CAIRN_CORE_API const char *cairn_heuristic_name(cairn_heuristic h);
/** Parses a name into `*out`.
 * @param[in] name one of the names cairn_heuristic_name gives
 * @param[out] out the heuristic
 * @return CAIRN_OK; CAIRN_ERR_ARG if unknown (or NULL) */
CAIRN_CORE_API cairn_status cairn_heuristic_parse(const char *name, cairn_heuristic *out);

/** The answer of a search. */
typedef struct cairn_result {
  cairn_status status; /**< CAIRN_OK (found), CAIRN_NO_PATH, CAIRN_PARTIAL, or
                          the error the query was refused with */
  cairn_cost cost;     /**< fixed-point path cost; CAIRN_COST_INF if none */
  uint32_t steps;      /**< moves in the path (path_len - 1) */
  uint64_t expanded;   /**< nodes removed from the open set */
  uint64_t generated;  /**< nodes pushed onto the open set, start included */
  /** Grid searches: the cells from start to goal. Graph searches: NULL. */
  const cairn_point *path;
  /** Graph searches: the node ids from start to goal. Grid searches: NULL. */
  const uint32_t *nodes;
  size_t path_len; /**< points in path (or ids in nodes) */
  /** Nearest-goal Dijkstra: index of the goal reached; otherwise 0. */
  uint32_t goal_index;
  /** Grid searches: the path's cost from terrain alone (without the cost
   * layers and turn penalties that `cost` includes); graphs: `cost`. */
  cairn_cost base_cost;
} cairn_result;

/* ---- search context ------------------------------------------------- */

/** All mutable search state: node records stamped with a search number (so
 * nothing is cleared between queries), the indexed binary heap, the path
 * buffer. One per thread; it may serve any grid or graph in turn. */
typedef struct cairn_search cairn_search;

/** Creates a search context.
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the context
 * @return CAIRN_OK, CAIRN_ERR_ARG for a NULL out, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_search_create(const cairn_allocator *alloc,
                                 cairn_search **out);
/** Destroys a search context. NULL is ignored.
 * @param[in] s the context, or NULL */
CAIRN_CORE_API void cairn_search_destroy(cairn_search *s);
/** Grows the node arrays to `nodes` records: a graph needs one per node, a
 * grid (width + 2) x (height + 2) (its blocked border has records too);
 * cairn_search_reserve_grid computes that. Growing ends a search in
 * progress.
 * @param[in,out] s the context
 * @param[in] nodes records wanted
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_TOO_LARGE (above 2^32 - 1),
 * CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_search_reserve(cairn_search *s, size_t nodes);
/** Grows the node arrays for searches on grid (as cairn_search_reserve).
 * @param[in,out] s the context
 * @param[in] grid the grid
 * @return as cairn_search_reserve */
CAIRN_CORE_API cairn_status cairn_search_reserve_grid(cairn_search *s, const cairn_grid *grid);
/** Allocates the goal-set records (one pair per node record, kept through
 * later growth) that nearest-goal Dijkstra, fills with targets and linked
 * graph searches use; without this they are taken on first use. A context
 * that must never allocate in a query (or whose allocator must only be
 * called from one thread at a time) reserves them up front.
 * @param[in,out] s the context
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_search_reserve_goals(cairn_search *s);
/** Grows the queues of fills on uniform terrain so that fills on g (or
 * inside bounds on it) never grow them and skip the per-expansion room
 * test: 128 bytes per cell of g, so meant for small grids (a hierarchy's
 * cluster copies); larger fills grow their queues to what they use.
 * @param[in,out] s the context
 * @param[in] grid the grid
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_TOO_LARGE, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_search_reserve_fill(cairn_search *s, const cairn_grid *grid);
/** Grows the path buffer to `points` points. Paths longer than any before
 * grow it otherwise (amortised doubling), so a caller that must never
 * allocate in a query reserves its longest path here (at most the number of
 * passable cells, or of graph nodes).
 * @param[in,out] s the context
 * @param[in] points path points wanted
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_TOO_LARGE, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_search_reserve_path(cairn_search *s, size_t points);
/** Bytes the context holds.
 * @param[in] s the context
 * @return its memory in bytes */
CAIRN_CORE_API size_t cairn_search_memory(const cairn_search *s);

/** A* on a grid, blocking. Returns out->status. A goal in another
 * island answers CAIRN_NO_PATH with 0 expansions when islands are fresh.
 * @param[in,out] s the search context
 * @param[in] grid the grid
 * @param[in] start the start cell
 * @param[in] goal the goal cell
 * @param[in] opts options, or NULL for cairn_search_defaults
 * @param[out] out the result; its path lives in s
 * @return CAIRN_OK, CAIRN_NO_PATH or CAIRN_PARTIAL; refusals:
 * CAIRN_ERR_RANGE (start or goal off the grid), CAIRN_ERR_BLOCKED (on a
 * blocked cell), CAIRN_ERR_ARG (bad options or NULL), CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_astar(cairn_search *s, const cairn_grid *grid,
                         cairn_point start, cairn_point goal,
                         const cairn_search_opts *opts, cairn_result *out);

/** Sliced search: begin, then step with a budget of expansions until it stops
 * returning CAIRN_IN_PROGRESS, then read the result. The blocking calls are
 * exactly this loop. A begin that already knows the answer (start == goal,
 * other island) makes the first step return it.
 * @param[in,out] s the search context
 * @param[in] grid the grid (read at every step)
 * @param[in] start the start cell
 * @param[in] goal the goal cell
 * @param[in] opts options, or NULL for cairn_search_defaults
 * @return CAIRN_OK (begun), or the refusals of cairn_astar */
CAIRN_CORE_API cairn_status cairn_astar_begin(cairn_search *s, const cairn_grid *grid,
                               cairn_point start, cairn_point goal,
                               const cairn_search_opts *opts);
/** Expands at most `budget` nodes (>= 1).
 * @param[in,out] s the search context
 * @param[in] budget expansions allowed in this call
 * @return CAIRN_IN_PROGRESS, or the final status; CAIRN_ERR_STATE if no
 * search was begun, or if the grid's costs (or the graph's landmarks)
 * changed since the begin (the search then ends with that status);
 * CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_search_step(cairn_search *s, uint64_t budget);
/** Jump point search: the exact answer of cairn_astar on a grid whose open
 * cells all have one terrain cost, found by scanning lines of cells (64 at
 * a time) and putting on the heap only the cells where a wall forces a turn
 * (Harabor and Grastien's rules for 8 moves without corner cutting). The
 * cost is A*'s; the path, a cheapest one cell by cell, may be another of
 * equal cost. It reads the grid's current cells, so it follows edits at
 * once (no preprocessing). Options: 8 moves only, any heuristic and
 * weight, max_expanded (counted in jump points expanded); a turn penalty,
 * bounds, layers, claims, avoided cells and sizes above 1 are refused
 * with CAIRN_ERR_ARG. The result's expanded and generated count jump
 * points.
 * @param[in,out] s the search context
 * @param[in] grid the grid
 * @param[in] start the start cell
 * @param[in] goal the goal cell
 * @param[in] opts options, or NULL for cairn_search_defaults
 * @param[out] out the result; its path lives in s
 * @return as cairn_astar; also CAIRN_ERR_TERRAIN when the grid's open cells
 * have more than one terrain cost (cairn_grid_uniform is 0) */
CAIRN_CORE_API cairn_status cairn_jps(cairn_search *s, const cairn_grid *grid,
                                      cairn_point start, cairn_point goal,
                                      const cairn_search_opts *opts, cairn_result *out);
/** Begins a sliced jump point search (cairn_jps), stepped with
 * cairn_search_step. There a budget unit is a jump point taken off the
 * heap, a straight scan (up to the grid's side, 64 cells a word) or one
 * step of a diagonal scan (with its two straight scans); a diagonal scan
 * stops mid-way when the budget runs out and goes on at the next step.
 * cairn_search_save_state refuses it (CAIRN_ERR_STATE).
 * @param[in,out] s the search context
 * @param[in] grid the grid (read at every step)
 * @param[in] start the start cell
 * @param[in] goal the goal cell
 * @param[in] opts options, or NULL for cairn_search_defaults
 * @return CAIRN_OK (begun), or the refusals of cairn_jps */
CAIRN_CORE_API cairn_status cairn_jps_begin(cairn_search *s, const cairn_grid *grid,
                                            cairn_point start, cairn_point goal,
                                            const cairn_search_opts *opts);
/** Jump tables of a grid (JPS+): for every open cell and direction, where
 * cairn_jps's scan from there would stop, so cairn_jps_plus looks it up
 * instead. 16 bytes a cell (cairn_jumps_memory). They read only which
 * cells are open, so they serve any terrain, but the search needs one
 * terrain cost. */
typedef struct cairn_jumps cairn_jumps;
/** Builds the jump tables of grid. The grid must outlive them; tell them
 * of every edit (cairn_jumps_update) before the next search.
 * @param[in] grid the grid
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the tables
 * @return CAIRN_OK, CAIRN_ERR_ARG (NULL grid or out), CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_jumps_create(const cairn_grid *grid, const cairn_allocator *alloc,
                                               cairn_jumps **out);
/** Destroys jump tables. NULL is ignored.
 * @param[in] jumps the tables, or NULL */
CAIRN_CORE_API void cairn_jumps_destroy(cairn_jumps *jumps);
/** Brings the tables up to date after the grid's cells inside `changed`
 * were edited (passability; terrain changes need no update). Only the
 * entries such an edit can change are redone: the rows and columns
 * through the rectangle and one cell round it, and the diagonals their
 * changes reach. `changed` must hold every cell changed since the tables
 * last matched the grid; then they match it again (a search refuses
 * tables that missed an edit with CAIRN_ERR_STATE).
 * @param[in,out] jumps the tables
 * @param[in] changed the cells that changed (w or h 0: none)
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_RANGE (outside the grid) */
CAIRN_CORE_API cairn_status cairn_jumps_update(cairn_jumps *jumps, cairn_rect changed);
/** Bytes the tables hold.
 * @param[in] jumps the tables, or NULL (0)
 * @return their memory */
CAIRN_CORE_API size_t cairn_jumps_memory(const cairn_jumps *jumps);
/** Jump point search with jump tables: cairn_jps's answer (the same cost;
 * the path may be another of equal cost), each scan replaced by a look-up
 * and each diagonal walked from one turning cell to the next. Options and
 * refusals as cairn_jps, on the tables' grid; CAIRN_ERR_STATE when the
 * grid changed since the tables last matched it.
 * @param[in,out] s the search context
 * @param[in] jumps the grid's tables
 * @param[in] start the start cell
 * @param[in] goal the goal cell
 * @param[in] opts options, or NULL for cairn_search_defaults
 * @param[out] out the result; its path lives in s
 * @return as cairn_jps, and CAIRN_ERR_STATE for stale tables */
CAIRN_CORE_API cairn_status cairn_jps_plus(cairn_search *s, const cairn_jumps *jumps,
                                           cairn_point start, cairn_point goal,
                                           const cairn_search_opts *opts, cairn_result *out);
/** Begins a sliced cairn_jps_plus, stepped with cairn_search_step; a budget
 * unit is a jump point taken off the heap, a straight look-up or one hop
 * of a diagonal.
 * @param[in,out] s the search context
 * @param[in] jumps the grid's tables (they and the grid must not change
 * while it runs)
 * @param[in] start the start cell
 * @param[in] goal the goal cell
 * @param[in] opts options, or NULL for cairn_search_defaults
 * @return CAIRN_OK (begun), or the refusals of cairn_jps_plus */
CAIRN_CORE_API cairn_status cairn_jps_plus_begin(cairn_search *s, const cairn_jumps *jumps,
                                                 cairn_point start, cairn_point goal,
                                                 const cairn_search_opts *opts);
/** Fills `*out` for the last search that ended (or the one in progress, with
 * status CAIRN_IN_PROGRESS and no path).
 * @param[in,out] s the search context (its path buffer is filled)
 * @param[out] out the result
 * @return out->status, or CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_search_result(cairn_search *s, cairn_result *out);

/** Saves the grid A* in progress in s (cairn_astar_begin, then steps that
 * returned CAIRN_IN_PROGRESS) to go on with it later, in this context or
 * another (cairn_astar_resume): the grid's size, the start and the goal,
 * every cell the search reached with its cost, its parent and whether it
 * was expanded, and the open set in its heap's order (which decides ties).
 * Options are not saved: the caller resumes with the same ones. The bytes
 * are little-endian, the same on every platform: 28 + 17 per reached cell
 * + 16 per open cell. No checksum: a caller that stores them keeps its
 * own (the crowd's save format does).
 * @param[in] s the search context
 * @param[out] buf where the state goes, or NULL to ask its size
 * @param[in] cap bytes buf holds
 * @param[out] len the state's size in bytes
 * @return CAIRN_OK; CAIRN_ERR_BUFFER (buf NULL or cap under *len, nothing
 * written); CAIRN_ERR_STATE (*len 0) when s holds no grid A* in progress
 * (none begun, another kind of search, or one that ended); CAIRN_ERR_ARG
 * for NULL s or len */
CAIRN_CORE_API cairn_status cairn_search_save_state(const cairn_search *s, void *buf,
                                                    size_t cap, size_t *len);
/** Begins the A* that cairn_search_save_state saved again on grid, with
 * opts, and puts it back where it was, so that its steps give exactly what
 * the saved search's would have. The grid (costs, and island labels if
 * fresh) and the options (heuristic, moves, weight, bounds, the penalty
 * layer, the claim table with the same counts, the avoided cells) must be
 * those the saved search had; the state checks what it can (the grid's
 * size, that every cell it names is open, not avoided, and reached from a
 * cheaper expanded neighbour, that the open set is a heap of exactly the
 * open cells). Grows the context as cairn_astar_begin does.
 * @param[in,out] s the search context
 * @param[in] grid the grid
 * @param[in] opts options, or NULL for the defaults
 * @param[in] buf the saved state
 * @param[in] len its size in bytes
 * @return CAIRN_OK (in progress again); CAIRN_ERR_PARSE for malformed or
 * inconsistent bytes; CAIRN_ERR_MISMATCH for a state of a grid of another
 * size, or one begin settles at once (another island, a goal the layer
 * blocks); the refusals of cairn_astar_begin; CAIRN_ERR_ARG for NULL s,
 * grid or buf. On failure s holds no search (a step returns
 * CAIRN_ERR_STATE). */
CAIRN_CORE_API cairn_status cairn_astar_resume(cairn_search *s, const cairn_grid *grid,
                                               const cairn_search_opts *opts,
                                               const void *buf, size_t len);

/** What the last (or current) grid search knows of one cell, for tests,
 * debugging and pictures of the expanded nodes. f = g + h. */
typedef enum cairn_node_state {
  CAIRN_NODE_FRESH = 0, /**< not reached by this search */
  CAIRN_NODE_OPEN,      /**< in the open set */
  CAIRN_NODE_CLOSED     /**< expanded: its g is final */
} cairn_node_state;
/** What a search knows of a cell or node. */
typedef struct cairn_node_info {
  cairn_node_state state; /**< fresh, open or closed */
  /** @{ */
  cairn_cost g, h, f; /**< cost so far, heuristic, g + h; CAIRN_COST_INF
                           when fresh */
  /** @} */
} cairn_node_info;
/** What the context's last grid search knows of cell p.
 * @param[in] s the search context
 * @param[in] p the cell
 * @param[out] out what it knows
 * @return CAIRN_OK; CAIRN_ERR_STATE if the context's last search was not on
 * a grid, CAIRN_ERR_RANGE for a cell off that grid, CAIRN_ERR_ARG for
 * NULL */
CAIRN_CORE_API cairn_status cairn_search_cell(const cairn_search *s, cairn_point p,
                               cairn_node_info *out);

/** Dijkstra from start to the nearest of n goals (the gathering case);
 * out->goal_index tells which. opts: only moves, turn_penalty,
 * max_expanded and size are used (the heuristic is zero).
 * @param[in,out] s the search context
 * @param[in] grid the grid
 * @param[in] start the start cell
 * @param[in] goals the goal cells
 * @param[in] n_goals number of goals
 * @param[in] opts options, or NULL for the defaults
 * @param[out] out the result
 * @return as cairn_astar; goals off the grid or blocked are refused with
 * CAIRN_ERR_RANGE / CAIRN_ERR_BLOCKED */
CAIRN_CORE_API cairn_status cairn_dijkstra_nearest(cairn_search *s, const cairn_grid *grid,
                                    cairn_point start, const cairn_point *goals,
                                    size_t n_goals,
                                    const cairn_search_opts *opts,
                                    cairn_result *out);
/** The sliced form of cairn_dijkstra_nearest (step with cairn_search_step;
 * goals must stay valid until the search ends).
 * @param[in,out] s the search context
 * @param[in] grid the grid
 * @param[in] start the start cell
 * @param[in] goals the goal cells
 * @param[in] n_goals number of goals
 * @param[in] opts options, or NULL for the defaults
 * @return CAIRN_OK (begun), or the refusals of cairn_dijkstra_nearest */
CAIRN_CORE_API cairn_status cairn_dijkstra_nearest_begin(cairn_search *s,
                                          const cairn_grid *grid,
                                          cairn_point start,
                                          const cairn_point *goals,
                                          size_t n_goals,
                                          const cairn_search_opts *opts);

/** Dijkstra fill: settles every cell reachable from the sources (inside
 * opts->bounds, when set), or stops as soon as every target is settled when
 * n_targets > 0 (targets may be NULL when n_targets is 0; targets outside the
 * bounds, blocked or unreachable make it run to the end). Afterwards
 * cairn_search_cell gives each cell's g (state CAIRN_NODE_CLOSED = final)
 * and cairn_search_trace the path behind it.
 * - to_sources == 0: g = cost from the nearest source.
 * - to_sources != 0: g = cost of reaching the nearest source (a step costs
 *   the terrain of the cell it enters, so this is not the same map on
 *   uneven terrain): the integration field of a flow field, or the cost from
 *   every entrance of a cluster to a goal inside it.
 *
 * opts: moves, bounds; the heuristic, turn penalty and max_expanded are
 * ignored.
 * @param[in,out] s the search context
 * @param[in] grid the grid
 * @param[in] sources the source cells
 * @param[in] n_sources number of sources (at least 1)
 * @param[in] targets cells to stop at, or NULL
 * @param[in] n_targets number of targets; 0 = fill everything
 * @param[in] to_sources nonzero: costs towards the sources
 * @param[in] opts options, or NULL for the defaults
 * @return CAIRN_OK, or the refusal (sources off the grid or bounds:
 * CAIRN_ERR_RANGE, blocked: CAIRN_ERR_BLOCKED, none or bad options:
 * CAIRN_ERR_ARG; CAIRN_ERR_NOMEM) */
CAIRN_CORE_API cairn_status cairn_dijkstra_fill(cairn_search *s, const cairn_grid *grid,
                                 const cairn_point *sources, size_t n_sources,
                                 const cairn_point *targets, size_t n_targets,
                                 int to_sources, const cairn_search_opts *opts);

/** The path the last grid search holds behind a reached cell: from `cell`
 * along parent links back to where the search began, `cell` first. After an
 * A* or a forward fill that is the path reversed; after a to_sources fill it
 * is the path from `cell` to its nearest source, in walking order. Writes at
 * most cap points and sets `*n` to the number the whole path has; if that is
 * more than cap it returns CAIRN_ERR_BUFFER (nothing written), so a caller
 * can grow its buffer and retry.
 * @param[in] s the search context
 * @param[in] cell a cell the search reached
 * @param[out] out room for cap points
 * @param[in] cap points out can hold
 * @param[out] n points the whole path has
 * @return CAIRN_OK, CAIRN_ERR_BUFFER; CAIRN_NO_PATH if the search did not
 * reach the cell, CAIRN_ERR_RANGE if it is off the grid, CAIRN_ERR_STATE if
 * the context's last search was not on a grid, CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_search_trace(const cairn_search *s, cairn_point cell,
                                cairn_point *out, size_t cap, size_t *n);

/** Full distance map: dist[y * width + x] = cost from the nearest source, or
 * CAIRN_COST_INF if unreachable. dist_len must be at least width * height.
 * The heuristic and max_expanded are ignored.
 * @param[in,out] s the search context
 * @param[in] grid the grid
 * @param[in] sources the source cells
 * @param[in] n_sources number of sources
 * @param[in] opts options, or NULL for the defaults
 * @param[out] dist width * height costs
 * @param[in] dist_len room in dist
 * @return CAIRN_OK, CAIRN_ERR_ARG (NULL, dist_len too small), or the
 * refusals of cairn_dijkstra_fill */
CAIRN_CORE_API cairn_status cairn_distance_map(cairn_search *s, const cairn_grid *grid,
                                const cairn_point *sources, size_t n_sources,
                                const cairn_search_opts *opts,
                                cairn_cost *dist, size_t dist_len);

#ifdef __cplusplus
}
#endif
#endif
