/**
 * @file cairn_core.h
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

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status --------------------------------------------------------- */

/** Every status: X(name, value, text). Outcomes are >= 0, errors < 0. */
#define CAIRN_STATUS_LIST(X)                                             \
  X(CAIRN_OK, 0, "ok")                                                   \
  X(CAIRN_NO_PATH, 1, "no path")                                         \
  X(CAIRN_IN_PROGRESS, 2, "search in progress")                          \
  X(CAIRN_PARTIAL, 3, "node limit reached before the search ended")      \
  X(CAIRN_ERR_NOMEM, -1, "out of memory")                                \
  X(CAIRN_ERR_ARG, -2, "invalid argument")                               \
  X(CAIRN_ERR_RANGE, -3, "coordinates outside the map")                  \
  X(CAIRN_ERR_BLOCKED, -4, "start or goal is on a blocked cell")         \
  X(CAIRN_ERR_TOO_LARGE, -5, "size above the documented limit")          \
  X(CAIRN_ERR_PARSE, -6, "malformed input")                              \
  X(CAIRN_ERR_IO, -7, "cannot read or write the file")                   \
  X(CAIRN_ERR_MISMATCH, -8, "scenario does not match the map")           \
  X(CAIRN_ERR_STATE, -9, "call out of sequence")                         \
  X(CAIRN_ERR_BUFFER, -10, "buffer too small")

/** What a call answered: outcomes are >= 0, errors < 0 (CAIRN_STATUS_LIST
 * gives each value and its text). */
typedef enum cairn_status {
#define CAIRN_STATUS_ENUM(name, value, text) name = value,
  CAIRN_STATUS_LIST(CAIRN_STATUS_ENUM)
#undef CAIRN_STATUS_ENUM
} cairn_status;
/** @var CAIRN_OK
 * Done: found, or the call succeeded. */
/** @var CAIRN_NO_PATH
 * The search ended without reaching the goal. */
/** @var CAIRN_IN_PROGRESS
 * A sliced search or incremental refinement has more to do. */
/** @var CAIRN_PARTIAL
 * The node limit (max_expanded) was reached before the search ended. */
/** @var CAIRN_ERR_NOMEM
 * Out of memory (or threads, or a lock). */
/** @var CAIRN_ERR_ARG
 * Invalid argument: NULL, out of its range, bad options. */
/** @var CAIRN_ERR_RANGE
 * Coordinates outside the map. */
/** @var CAIRN_ERR_BLOCKED
 * Start or goal is on a blocked cell. */
/** @var CAIRN_ERR_TOO_LARGE
 * A size above the documented limit. */
/** @var CAIRN_ERR_PARSE
 * Malformed input. */
/** @var CAIRN_ERR_IO
 * Cannot read or write the file. */
/** @var CAIRN_ERR_MISMATCH
 * The scenario does not match the map. */
/** @var CAIRN_ERR_STATE
 * Call out of sequence (or on a stale object or handle). */
/** @var CAIRN_ERR_BUFFER
 * The caller's buffer is too small. */

/** A static string for any status (unknown values give "unknown status").
 * @param[in] s any value
 * @return the status's text, never NULL */
const char *cairn_status_str(cairn_status s);

/* ---- allocator ------------------------------------------------------ */

/** Lua-style allocator: new_size == 0 frees ptr and returns NULL; otherwise it
 * returns a block of new_size bytes holding the first min(old, new) bytes of
 * ptr (ptr may be NULL), or NULL on failure, leaving ptr untouched.
 * @param user cairn_allocator::user
 * @param ptr the block to grow, shrink or free, or NULL
 * @param old_size ptr's size in bytes (0 when ptr is NULL)
 * @param new_size the size wanted, 0 to free
 * @return the block, or NULL (freed, or on failure) */
typedef void *(*cairn_alloc_fn)(void *user, void *ptr, size_t old_size,
                                size_t new_size);
/** An allocator: the function and the context it is called with. */
typedef struct cairn_allocator {
  cairn_alloc_fn fn; /**< the allocation function; NULL means malloc */
  void *user;        /**< passed to every call of fn */
} cairn_allocator;
/** The allocator itself, or the malloc-backed default when alloc is NULL or
 * has no fn: for modules that keep the allocator they were given.
 * (Every create function takes a const cairn_allocator *; NULL means
 * malloc.)
 * @param[in] alloc an allocator, or NULL
 * @return a copy of *alloc, or the default */
cairn_allocator cairn_allocator_or_default(const cairn_allocator *alloc);

/* ---- jobs: parallel work on the caller's scheduler ------------------- */

/** One task of a parallel pass.
 *
 * Every parallel pass in cairn (the crowd tick, hierarchy builds and edits,
 * landmarks, flow-field row passes and batch builds) is a set of n
 * independent tasks handed to a cairn_jobs: the game's own job system, a
 * fiber scheduler, or cairn's default thread pool (cairn_pool below).
 * @param arg the argument given to cairn_jobs::run
 * @param task the task's index, 0 .. n - 1
 * @param worker the index of the worker running it, 0 .. workers - 1 */
typedef void (*cairn_task_fn)(void *arg, uint32_t task, uint32_t worker);
/** Most workers a cairn_jobs may report. */
#define CAIRN_JOBS_MAX_WORKERS 256
/** A scheduler that runs cairn's tasks.
 *
 * run(user, n, fn, arg) must call fn(arg, task, worker) exactly once for
 * every task in 0 .. n - 1, in any order, on any threads, and return only
 * when all n calls have returned. worker is the index of the worker running
 * the call, in 0 .. workers - 1; two calls that overlap in time must have
 * different workers (cairn keeps per-worker scratch by it). Running every
 * task on the calling thread in order, with worker 0, is a valid run.
 * cairn calls run from the thread that called into cairn, one run at a
 * time per object, never from inside a task. Results never depend on the
 * order, the threads or the worker count: the same bits whatever the
 * scheduler. The struct is read at each call that takes it and must stay
 * unchanged (and outlive the objects created with it). */
typedef struct cairn_jobs {
  uint32_t workers; /**< 1 .. CAIRN_JOBS_MAX_WORKERS */
  /** Runs tasks 0 .. n - 1 of fn(arg, task, worker) (see above). */
  void (*run)(void *user, uint32_t n, cairn_task_fn fn, void *arg);
  void *user; /**< passed to every call of run */
} cairn_jobs;

/** Runs the n tasks through jobs, or on the calling thread in order with
 * worker 0 when jobs is NULL. Nothing happens for n == 0.
 * @param[in] jobs the scheduler, or NULL
 * @param[in] n number of tasks
 * @param[in] fn the task function
 * @param[in] arg passed to every call of fn */
void cairn_jobs_run(const cairn_jobs *jobs, uint32_t n, cairn_task_fn fn,
                    void *arg);
/** Checks a cairn_jobs before use.
 * @param[in] jobs the scheduler, or NULL
 * @return CAIRN_OK, or CAIRN_ERR_ARG unless jobs is NULL or has a run
 * function and workers in 1 .. CAIRN_JOBS_MAX_WORKERS */
cairn_status cairn_jobs_check(const cairn_jobs *jobs);

/** The default backend: a pool of threads - 1 threads plus the thread that
 * calls run (worker 0), which never waits for a task no thread has
 * started: it takes every task still unclaimed itself and waits only for
 * tasks already running elsewhere. Idle threads sleep (no spinning), so a
 * pool costs nothing while the game's own threads need the cores. A pool
 * is what every module uses when its options give no jobs and threads is
 * not 1: each such object then owns a pool of its own. To share one set
 * of threads between objects, create one pool and pass cairn_pool_jobs. */
typedef struct cairn_pool cairn_pool;
/** Creates a pool.
 *
 * threads: 1 .. CAIRN_JOBS_MAX_WORKERS, 0 = the machine's cores
 * (cairn_cpu_count); 1 starts no thread. Built without thread support
 * (CAIRN_THREADS=OFF), a pool runs every task on the calling thread and
 * reports 1 worker. Runs may come from any thread; two at once are taken
 * one after the other. A task must not call run on its own pool.
 * @param[in] threads workers, the calling thread included; 0 = every core
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the pool
 * @return CAIRN_OK; CAIRN_ERR_ARG for a NULL out or too many threads,
 * CAIRN_ERR_NOMEM when memory or threads cannot be had */
cairn_status cairn_pool_create(uint32_t threads, const cairn_allocator *alloc,
                               cairn_pool **out);
/** Joins the threads; no run may be in progress. NULL is ignored.
 * @param[in] pool the pool, or NULL */
void cairn_pool_destroy(cairn_pool *pool);
/** The pool as a cairn_jobs, valid until the pool is destroyed.
 * @param[in] pool the pool
 * @return the pool's scheduler */
const cairn_jobs *cairn_pool_jobs(const cairn_pool *pool);
/** The processors this process may run on (at least 1).
 * @return the processor count */
uint32_t cairn_cpu_count(void);

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
cairn_status cairn_grid_create(int32_t width, int32_t height, uint8_t fill,
                               const cairn_allocator *alloc, cairn_grid **out);
/** Destroys a grid. NULL is ignored.
 * @param[in] grid the grid, or NULL */
void cairn_grid_destroy(cairn_grid *grid);

/** Width in cells.
 * @param[in] grid the grid
 * @return the number of columns */
int32_t cairn_grid_width(const cairn_grid *grid);
/** Height in cells.
 * @param[in] grid the grid
 * @return the number of rows */
int32_t cairn_grid_height(const cairn_grid *grid);
/** Whether a cell lies inside the grid.
 * @param[in] grid the grid (NULL contains nothing)
 * @param[in] x column
 * @param[in] y row
 * @return 1 inside, 0 outside */
int cairn_grid_contains(const cairn_grid *grid, int32_t x, int32_t y);
/** Terrain cost of a cell; 0 (blocked) outside the grid.
 * @param[in] grid the grid
 * @param[in] x column
 * @param[in] y row
 * @return 0 (blocked) or 1..255 */
uint8_t cairn_grid_cost(const cairn_grid *grid, int32_t x, int32_t y);
/** Sets a cell's cost. Island labels become stale (searches then skip the
 * unreachable shortcut) until cairn_grid_update_islands. The cell's map
 * glyph is dropped unless it still fits the new cost.
 * @param[in,out] grid the grid
 * @param[in] x column
 * @param[in] y row
 * @param[in] cost 0 (blocked) or 1..255
 * @return CAIRN_OK, CAIRN_ERR_RANGE off the grid, CAIRN_ERR_ARG for NULL */
cairn_status cairn_grid_set_cost(cairn_grid *grid, int32_t x, int32_t y,
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
cairn_status cairn_grid_set_rect(cairn_grid *grid, cairn_rect r,
                                 const uint8_t *costs, size_t pitch);
/** Number of passable cells.
 * @param[in] grid the grid
 * @return cells with a cost above 0 */
size_t cairn_grid_passable(const cairn_grid *grid);
/** Whether every passable cell has the same cost (true of an empty grid):
 * then shortest paths need no priority queue (fills use FIFO queues).
 * @param[in] grid the grid
 * @return nonzero if uniform */
int cairn_grid_uniform(const cairn_grid *grid);
/** Read-only view of the terrain costs for loops that walk many cells (the
 * hierarchy, flow fields, renderers): (width + 2) x (height + 2) bytes, row
 * by row, with a blocked border one cell wide, so cell (x, y) is at
 * (y + 1) * stride + (x + 1) and every inner cell's 8 neighbours are valid.
 * `*stride` gets width + 2. Valid until the grid is destroyed.
 * @param[in] grid the grid
 * @param[out] stride bytes from one padded row to the next
 * @return the padded costs */
const uint8_t *cairn_grid_cells(const cairn_grid *grid, int32_t *stride);
/** Read-only view of the legal 8-way moves of every cell, laid out as
 * cairn_grid_cells: a bit set over the directions E W S N SE SW NE NW (bits
 * 0..7; x grows east, y south), a diagonal only where both straight
 * neighbours are open (no corner cutting), 0 for blocked and border cells.
 * The grid keeps it current through every cost change; searches read it.
 * @param[in] grid the grid
 * @param[out] stride bytes from one padded row to the next
 * @return the padded move bits */
const uint8_t *cairn_grid_moves(const cairn_grid *grid, int32_t *stride);

/** Relabels the islands. With no corner cutting, two cells joined by a
 * diagonal step are also joined through an orthogonal neighbour, so one
 * 4-connected labelling serves both 4-way and 8-way moves. Labels are
 * 1..count; 0 is blocked.
 * @param[in,out] grid the grid
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
cairn_status cairn_grid_update_islands(cairn_grid *grid);
/** Whether the island labels match the costs.
 * @param[in] grid the grid
 * @return nonzero if fresh */
int cairn_grid_islands_fresh(const cairn_grid *grid);
/** A cell's island label.
 * @param[in] grid the grid
 * @param[in] x column
 * @param[in] y row
 * @return 1..count, 0 for blocked cells and cells off the grid */
uint32_t cairn_grid_island(const cairn_grid *grid, int32_t x, int32_t y);
/** The largest island label.
 * @param[in] grid the grid
 * @return the island count */
uint32_t cairn_grid_island_count(const cairn_grid *grid);

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
} cairn_search_opts;

/** The defaults: octile, 8 moves, weight 1, no turn penalty, no limit,
 * whole grid.
 * @return the default options */
cairn_search_opts cairn_search_defaults(void);
/** Names for the CLI and logs: "octile", "manhattan", "euclidean", "zero".
 * @param[in] h a heuristic
 * @return its name (a static string) */
const char *cairn_heuristic_name(cairn_heuristic h);
/** Parses a name into `*out`.
 * @param[in] name one of the names cairn_heuristic_name gives
 * @param[out] out the heuristic
 * @return CAIRN_OK; CAIRN_ERR_ARG if unknown (or NULL) */
cairn_status cairn_heuristic_parse(const char *name, cairn_heuristic *out);

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
cairn_status cairn_search_create(const cairn_allocator *alloc,
                                 cairn_search **out);
/** Destroys a search context. NULL is ignored.
 * @param[in] s the context, or NULL */
void cairn_search_destroy(cairn_search *s);
/** Grows the node arrays to `nodes` records: a graph needs one per node, a
 * grid (width + 2) x (height + 2) (its blocked border has records too);
 * cairn_search_reserve_grid computes that. Growing ends a search in
 * progress.
 * @param[in,out] s the context
 * @param[in] nodes records wanted
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_TOO_LARGE (above 2^32 - 1),
 * CAIRN_ERR_NOMEM */
cairn_status cairn_search_reserve(cairn_search *s, size_t nodes);
/** Grows the node arrays for searches on grid (as cairn_search_reserve).
 * @param[in,out] s the context
 * @param[in] grid the grid
 * @return as cairn_search_reserve */
cairn_status cairn_search_reserve_grid(cairn_search *s, const cairn_grid *grid);
/** Allocates the goal-set records (one pair per node record, kept through
 * later growth) that nearest-goal Dijkstra, fills with targets and linked
 * graph searches use; without this they are taken on first use. A context
 * that must never allocate in a query (or whose allocator must only be
 * called from one thread at a time) reserves them up front.
 * @param[in,out] s the context
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_NOMEM */
cairn_status cairn_search_reserve_goals(cairn_search *s);
/** Grows the queues of fills on uniform terrain so that fills on g (or
 * inside bounds on it) never grow them and skip the per-expansion room
 * test: 128 bytes per cell of g, so meant for small grids (a hierarchy's
 * cluster copies); larger fills grow their queues to what they use.
 * @param[in,out] s the context
 * @param[in] grid the grid
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_TOO_LARGE, CAIRN_ERR_NOMEM */
cairn_status cairn_search_reserve_fill(cairn_search *s, const cairn_grid *grid);
/** Grows the path buffer to `points` points. Paths longer than any before
 * grow it otherwise (amortised doubling), so a caller that must never
 * allocate in a query reserves its longest path here (at most the number of
 * passable cells, or of graph nodes).
 * @param[in,out] s the context
 * @param[in] points path points wanted
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_TOO_LARGE, CAIRN_ERR_NOMEM */
cairn_status cairn_search_reserve_path(cairn_search *s, size_t points);
/** Bytes the context holds.
 * @param[in] s the context
 * @return its memory in bytes */
size_t cairn_search_memory(const cairn_search *s);

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
cairn_status cairn_astar(cairn_search *s, const cairn_grid *grid,
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
cairn_status cairn_astar_begin(cairn_search *s, const cairn_grid *grid,
                               cairn_point start, cairn_point goal,
                               const cairn_search_opts *opts);
/** Expands at most `budget` nodes (>= 1).
 * @param[in,out] s the search context
 * @param[in] budget expansions allowed in this call
 * @return CAIRN_IN_PROGRESS, or the final status; CAIRN_ERR_STATE if no
 * search was begun, or if the grid's costs (or the graph's landmarks)
 * changed since the begin (the search then ends with that status);
 * CAIRN_ERR_ARG for NULL */
cairn_status cairn_search_step(cairn_search *s, uint64_t budget);
/** Fills `*out` for the last search that ended (or the one in progress, with
 * status CAIRN_IN_PROGRESS and no path).
 * @param[in,out] s the search context (its path buffer is filled)
 * @param[out] out the result
 * @return out->status, or CAIRN_ERR_ARG for NULL */
cairn_status cairn_search_result(cairn_search *s, cairn_result *out);

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
cairn_status cairn_search_cell(const cairn_search *s, cairn_point p,
                               cairn_node_info *out);

/** Dijkstra from start to the nearest of n goals (the gathering case);
 * out->goal_index tells which. opts: only moves, turn_penalty and
 * max_expanded are used (the heuristic is zero).
 * @param[in,out] s the search context
 * @param[in] grid the grid
 * @param[in] start the start cell
 * @param[in] goals the goal cells
 * @param[in] n_goals number of goals
 * @param[in] opts options, or NULL for the defaults
 * @param[out] out the result
 * @return as cairn_astar; goals off the grid or blocked are refused with
 * CAIRN_ERR_RANGE / CAIRN_ERR_BLOCKED */
cairn_status cairn_dijkstra_nearest(cairn_search *s, const cairn_grid *grid,
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
cairn_status cairn_dijkstra_nearest_begin(cairn_search *s,
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
cairn_status cairn_dijkstra_fill(cairn_search *s, const cairn_grid *grid,
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
cairn_status cairn_search_trace(const cairn_search *s, cairn_point cell,
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
cairn_status cairn_distance_map(cairn_search *s, const cairn_grid *grid,
                                const cairn_point *sources, size_t n_sources,
                                const cairn_search_opts *opts,
                                cairn_cost *dist, size_t dist_len);

/* ---- cost layers ---------------------------------------------------- */

/** A penalty layer: per cell, a cost in fixed-point units (CAIRN_COST_ONE is
 * one straight step) that every step entering the cell pays on top of its
 * terrain (A*, Dijkstra and fills with opts.penalty), or
 * CAIRN_PENALTY_BLOCK: blocked for those searches only (a stopped unit),
 * the grid untouched. Penalties are >= 0, so every heuristic stays
 * admissible. Contributions add up (influence maps, claims, a caller's own)
 * and saturate at CAIRN_PENALTY_MAX; a block is a count, so two blockers
 * of one cell need two unblocks. Reads are safe from any thread while no
 * one writes; writes need exclusive access. */
typedef struct cairn_penalty cairn_penalty;
/** What cairn_penalty_get answers for a blocked cell. */
#define CAIRN_PENALTY_BLOCK UINT32_MAX
/** The largest penalty; sums saturate there. */
#define CAIRN_PENALTY_MAX (UINT32_MAX - 1)

/** A layer of zeros for grids of grid's size.
 * @param[in] grid a grid of the size wanted (not kept)
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the layer
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
cairn_status cairn_penalty_create(const cairn_grid *grid,
                                  const cairn_allocator *alloc,
                                  cairn_penalty **out);
/** Destroys a layer. NULL is ignored.
 * @param[in] p the layer, or NULL */
void cairn_penalty_destroy(cairn_penalty *p);
/** Adds delta (which may be negative) to a cell's penalty, saturating at 0
 * and CAIRN_PENALTY_MAX.
 * @param[in,out] p the layer
 * @param[in] x column
 * @param[in] y row
 * @param[in] delta cost units to add
 * @return CAIRN_OK; CAIRN_ERR_RANGE off the grid, CAIRN_ERR_ARG for NULL or
 * |delta| > UINT32_MAX */
cairn_status cairn_penalty_add(cairn_penalty *p, int32_t x, int32_t y,
                               int64_t delta);
/** Blocks (block != 0) or unblocks a cell for searches using the layer.
 * @param[in,out] p the layer
 * @param[in] x column
 * @param[in] y row
 * @param[in] block nonzero blocks, 0 unblocks
 * @return CAIRN_OK; CAIRN_ERR_STATE to unblock a cell nobody blocked,
 * CAIRN_ERR_RANGE off the grid, CAIRN_ERR_ARG for NULL,
 * CAIRN_ERR_TOO_LARGE when the cell's block count is full */
cairn_status cairn_penalty_block(cairn_penalty *p, int32_t x, int32_t y,
                                 int block);
/** The cell's penalty (CAIRN_PENALTY_BLOCK while blocked; 0 off the grid).
 * @param[in] p the layer
 * @param[in] x column
 * @param[in] y row
 * @return the penalty in cost units */
uint32_t cairn_penalty_get(const cairn_penalty *p, int32_t x, int32_t y);
/** Every cell back to 0 and unblocked.
 * @param[in,out] p the layer */
void cairn_penalty_clear(cairn_penalty *p);
/** Read-only view of what searches read, laid out as cairn_grid_cells
 * (padded, stride width + 2; border cells 0), for loops over many cells
 * (flow fields). Valid until the layer is destroyed.
 * @param[in] p the layer
 * @param[out] stride values from one padded row to the next
 * @return the padded penalties */
const uint32_t *cairn_penalty_cells(const cairn_penalty *p, int32_t *stride);
/** Whether the layer was made for a grid of grid's size.
 * @param[in] p the layer
 * @param[in] grid the grid
 * @return nonzero if it fits */
int cairn_penalty_fits(const cairn_penalty *p, const cairn_grid *grid);
/** Side, in cells, of the tiles change tracking works in.
 *
 * Change tracking, for users that precompute over a layer (the
 * hierarchy's refresh): the version counts the writes that changed what
 * searches read (0 for a new layer). cairn_penalty_changed gives the
 * version of the last change to a cell of r, or 0 if none ever did; it is
 * kept per tile of CAIRN_PENALTY_TILE x CAIRN_PENALTY_TILE cells, so a
 * change to a cell near r (in a tile r overlaps) counts too. It costs the
 * tiles r overlaps. */
#define CAIRN_PENALTY_TILE 16
/** The layer's version (see CAIRN_PENALTY_TILE).
 * @param[in] p the layer
 * @return the writes that changed what searches read */
uint64_t cairn_penalty_version(const cairn_penalty *p);
/** The version of the last change to a tile r overlaps (see
 * CAIRN_PENALTY_TILE).
 * @param[in] p the layer
 * @param[in] r the cells asked about
 * @return that version, or 0 if none ever changed */
uint64_t cairn_penalty_changed(const cairn_penalty *p, cairn_rect r);
/** The cells whose penalty changed after version `since`, for users that
 * update what they derived from the layer cell by cell (flow fields):
 * writes the padded index (cairn_penalty_cells' layout) of up to cap of
 * them to out, each once, and returns how many there are. Every cell that
 * changed is listed; one whose last change came 2^32 or more changes
 * before the last change of its tile may be listed although it did not.
 * A cell changed and changed back counts as changed. Costs the layer's
 * tiles plus the cells of the tiles changed since then (the layer keeps 4
 * bytes per cell for this).
 * @param[in] p the layer
 * @param[in] since a version the caller saw
 * @param[out] out room for cap padded indices
 * @param[in] cap indices out can hold
 * @return the number of changed cells (may exceed cap) */
size_t cairn_penalty_changes(const cairn_penalty *p, uint64_t since,
                             uint32_t *out, size_t cap);

/** Claimed cells (Lester's claimed nodes): units claim the cells of the
 * part of their paths still ahead of them, so other units' searches
 * (opts.claims) pay for crowding onto them and spread over routes of
 * equal cost, while claimed cells stay walkable (a one-cell pass remains
 * usable, in turn). Claims are per unit (ids below
 * CAIRN_CLAIMS_MAX_UNITS) and expire. A claim count per cell is what
 * searches read; it saturates at 65535. */
typedef struct cairn_claims cairn_claims;
/** Unit ids are below this. */
#define CAIRN_CLAIMS_MAX_UNITS (1u << 24)

/** Creates an empty claim table for grids of grid's size.
 * @param[in] grid a grid of the size wanted
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the table
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
cairn_status cairn_claims_create(const cairn_grid *grid,
                                 const cairn_allocator *alloc,
                                 cairn_claims **out);
/** Destroys a claim table. NULL is ignored.
 * @param[in] c the table, or NULL */
void cairn_claims_destroy(cairn_claims *c);
/** Unit `unit` claims n cells (its path ahead, cells off the grid refused
 * with CAIRN_ERR_RANGE and nothing changed) until tick `until`, replacing
 * its previous claims.
 * @param[in,out] c the table
 * @param[in] unit the unit's id
 * @param[in] cells the cells claimed
 * @param[in] n number of cells
 * @param[in] until the tick the claims last to
 * @return CAIRN_OK, CAIRN_ERR_RANGE, CAIRN_ERR_ARG for NULL or a unit id too
 * large, CAIRN_ERR_NOMEM */
cairn_status cairn_claims_set(cairn_claims *c, uint32_t unit,
                              const cairn_point *cells, size_t n,
                              uint64_t until);
/** Drops a unit's claims (none: nothing happens).
 * @param[in,out] c the table
 * @param[in] unit the unit's id
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL or a unit id too large */
cairn_status cairn_claims_release(cairn_claims *c, uint32_t unit);
/** Drops every claim whose tick is before now; returns how many units lost
 * theirs. Costs the number of claiming units, not the map.
 * @param[in,out] c the table
 * @param[in] now the current tick
 * @return units whose claims expired */
size_t cairn_claims_expire(cairn_claims *c, uint64_t now);
/** Claims on a cell (0 off the grid).
 * @param[in] c the table
 * @param[in] x column
 * @param[in] y row
 * @return the claim count */
uint32_t cairn_claims_count(const cairn_claims *c, int32_t x, int32_t y);

/** An influence map: a value per cell (danger, carnage, torchlight, a
 * defenders' zone) fed by events and fading with time, that it keeps
 * added into a penalty layer, value for cost unit. Only cells with a value
 * are stored in its active list, so an event costs time in proportion to
 * its area and a tick to the active cells, never to the map. All integer
 * arithmetic: the same calls give the same values on every machine. */
typedef struct cairn_influence cairn_influence;

/** The map adds into `into` (which must be for a grid of grid's size and
 * outlive it) and never touches the other contributions there.
 * @param[in] grid the grid (its open cells receive values)
 * @param[in,out] into the layer the values are added into
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the influence map
 * @return CAIRN_OK, CAIRN_ERR_ARG (NULL, a layer of another size),
 * CAIRN_ERR_NOMEM */
cairn_status cairn_influence_create(const cairn_grid *grid,
                                    cairn_penalty *into,
                                    const cairn_allocator *alloc,
                                    cairn_influence **out);
/** Takes its contribution back out of the penalty layer. NULL is ignored.
 * @param[in] m the influence map, or NULL */
void cairn_influence_destroy(cairn_influence *m);
/** Largest event radius. */
#define CAIRN_INFLUENCE_MAX_RADIUS 1024
/** An event at cell (x, y): every open cell within `radius` cells
 * (Euclidean, 0..CAIRN_INFLUENCE_MAX_RADIUS) gains amount x (1 - d / (radius
 * + 1)), in cost units (so a cell at the centre gets all of it), the value
 * saturating at CAIRN_PENALTY_MAX.
 * @param[in,out] m the influence map
 * @param[in] x centre column
 * @param[in] y centre row
 * @param[in] radius cells, 0..CAIRN_INFLUENCE_MAX_RADIUS
 * @param[in] amount cost units at the centre
 * @return CAIRN_OK; CAIRN_ERR_RANGE for a centre off the grid,
 * CAIRN_ERR_ARG for NULL or a bad radius, CAIRN_ERR_NOMEM */
cairn_status cairn_influence_event(cairn_influence *m, int32_t x, int32_t y,
                                   int32_t radius, uint32_t amount);
/** One tick: every value is multiplied by keep / 65536 (0..65536, so 65536
 * keeps everything) after passing spread / 65536 of itself (0..16384) to
 * each of its four neighbours that are open (spreading runs first, from
 * the values before the tick). Values below one cost unit's 1/65536 of a
 * step, 1, drop out.
 * @param[in,out] m the influence map
 * @param[in] keep 0..65536
 * @param[in] spread 0..16384
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL or bad factors,
 * CAIRN_ERR_NOMEM */
cairn_status cairn_influence_tick(cairn_influence *m, uint32_t keep,
                                  uint32_t spread);
/** The value of a cell (0 off the grid or untouched).
 * @param[in] m the influence map
 * @param[in] x column
 * @param[in] y row
 * @return the value in cost units */
uint32_t cairn_influence_get(const cairn_influence *m, int32_t x, int32_t y);
/** Cells with a value.
 * @param[in] m the influence map
 * @return the active cell count */
size_t cairn_influence_active(const cairn_influence *m);

/** Per-faction knowledge of a map (unexplored maps): each faction, not
 * each unit, has its own grid of what it knows, where cells it has not
 * seen count as open ground (unknown_cost, 1..255) and the cells it has
 * seen take the true map's costs. Searches for the faction run on
 * cairn_knowledge_grid (with its own islands, its own cost layers if any).
 * A reveal copies the true costs of a rectangle; when a known cost
 * changed it refreshes the faction's islands and advances the faction's
 * version, so paths and fields made on an older version are known to be
 * stale (a unit repaths when the version it planned on is not the current
 * one). Islands: a reveal that only opens cells (a door, a breach) merges
 * them locally: each group of opened cells joins the largest island it
 * touches and only the smaller ones are relabelled; one that closes a
 * cell relabels the whole map. Labels then stay one per island but need
 * not be consecutive: on a faction's grid cairn_grid_island_count is the
 * largest label, not the number of islands. */
typedef struct cairn_knowledge cairn_knowledge;

/** Creates a faction's knowledge, nothing seen yet.
 * @param[in] truth the true map (kept; it must outlive the knowledge)
 * @param[in] unknown_cost the cost of unseen cells, 1..255
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the knowledge
 * @return CAIRN_OK, CAIRN_ERR_ARG (NULL, unknown_cost 0), CAIRN_ERR_NOMEM */
cairn_status cairn_knowledge_create(const cairn_grid *truth,
                                    uint8_t unknown_cost,
                                    const cairn_allocator *alloc,
                                    cairn_knowledge **out);
/** Destroys a faction's knowledge. NULL is ignored.
 * @param[in] k the knowledge, or NULL */
void cairn_knowledge_destroy(cairn_knowledge *k);
/** The faction sees the cells of r (clipped to the map; an empty r sees
 * nothing). `*changed` (may be NULL) is set when a known cost changed.
 * @param[in,out] k the knowledge
 * @param[in] r the cells seen
 * @param[out] changed nonzero if a known cost changed, or NULL
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL */
cairn_status cairn_knowledge_reveal(cairn_knowledge *k, cairn_rect r,
                                    int *changed);
/** The faction's map, valid until the knowledge is destroyed; read-only.
 * @param[in] k the knowledge
 * @return the faction's grid */
const cairn_grid *cairn_knowledge_grid(const cairn_knowledge *k);
/** Advances with every reveal that changed a known cost; starts at 0.
 * @param[in] k the knowledge
 * @return the version */
uint64_t cairn_knowledge_version(const cairn_knowledge *k);
/** Whether the faction has seen the cell (0 off the map).
 * @param[in] k the knowledge
 * @param[in] x column
 * @param[in] y row
 * @return nonzero if seen */
int cairn_knowledge_seen(const cairn_knowledge *k, int32_t x, int32_t y);

/* ---- graphs --------------------------------------------------------- */

/** A directed graph in compressed sparse rows: waypoint networks, region
 * tables, hex maps. Node positions feed the heuristic. */
typedef struct cairn_graph cairn_graph;

/** One edge given to cairn_graph_create. */
typedef struct cairn_graph_edge {
  /** @{ */
  uint32_t from, to; /**< the node ids it joins */
  /** @} */
  double cost; /**< in cost units, > 0 and <= 1e9 (else CAIRN_ERR_ARG);
                  rounded to the nearest 1/65536 (at least 1/65536) */
} cairn_graph_edge;

/** A graph's heuristic. */
typedef enum cairn_graph_heuristic {
  CAIRN_GH_ZERO = 0,  /**< Dijkstra; always admissible */
  CAIRN_GH_EUCLIDEAN, /**< h_scale x straight-line distance of the positions */
  CAIRN_GH_HEX,       /**< h_scale x hex distance; positions are axial (q, r) */
  CAIRN_GH_OCTILE     /**< h_scale x octile distance (straight 1, diagonal
                         CAIRN_COST_DIAG / CAIRN_COST_ONE): waypoints on an
                         8-way grid, such as a hierarchy's entrances */
} cairn_graph_heuristic;

/** Most nodes a graph may have (2^28). */
#define CAIRN_GRAPH_MAX_NODES (1u << 28)
/** Most stored edges a graph may have (2^30). */
#define CAIRN_GRAPH_MAX_EDGES (1u << 30)

/** What cairn_graph_create builds. */
typedef struct cairn_graph_desc {
  uint32_t n_nodes; /**< nodes, 1 .. CAIRN_GRAPH_MAX_NODES */
  const double *xy; /**< 2 * n_nodes positions, or NULL (then use GH_ZERO) */
  size_t n_edges;   /**< edges in edges */
  const cairn_graph_edge *edges; /**< the edges (copied) */
  int undirected; /**< nonzero: every edge also runs to -> from */
  cairn_graph_heuristic heuristic; /**< the heuristic of graph A* */
  /** Multiplies the heuristic. Ignored with CAIRN_GH_ZERO; otherwise it must
   * be finite and >= 0 (else CAIRN_ERR_ARG), and 0 means the zero heuristic.
   * Admissible only if no path is cheaper than h_scale per unit of
   * distance; the builder does not check. The search uses the rounded edge
   * costs (see cairn_graph_edge.cost), which can be up to 1/131072 below the
   * given ones, so compute h_scale from the rounded costs (or leave a
   * margin) to stay admissible. */
  double h_scale;
} cairn_graph_desc;

/** Builds the CSR graph. With CAIRN_GH_ZERO, xy and h_scale are ignored;
 * with h_scale == 0 the graph gets the zero heuristic (xy is still
 * checked).
 * @param[in] desc the nodes, edges and heuristic (copied)
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the graph
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL desc or out, no nodes, NULL
 * edges with n_edges > 0, an edge with an endpoint >= n_nodes or a cost
 * outside (0, 1e9], an unknown heuristic, or (heuristic other than
 * CAIRN_GH_ZERO) NULL xy, a non-finite position or a bad h_scale;
 * CAIRN_ERR_TOO_LARGE above CAIRN_GRAPH_MAX_NODES nodes or
 * CAIRN_GRAPH_MAX_EDGES stored edges (n_edges x 2 when undirected), or if
 * a simple path could cost more than 2^62 fixed-point units: the bound is
 * min((n_nodes - 1) x dearest edge, sum of all given edges), both taken
 * over the rounded costs; CAIRN_ERR_NOMEM */
cairn_status cairn_graph_create(const cairn_graph_desc *desc,
                                const cairn_allocator *alloc,
                                cairn_graph **out);
/** Destroys a graph. NULL is ignored.
 * @param[in] g the graph, or NULL */
void cairn_graph_destroy(cairn_graph *g);
/** Number of nodes.
 * @param[in] g the graph
 * @return the node count */
uint32_t cairn_graph_nodes(const cairn_graph *g);
/** Number of stored (directed) edges.
 * @param[in] g the graph
 * @return the edge count */
size_t cairn_graph_edges(const cairn_graph *g);
/** Out-edges of a node: `*targets` and `*costs` point into the graph. Returns
 * the count. For an id out of range (or a NULL g) it returns 0 and sets
 * `*targets` and `*costs` to NULL. Either pointer argument may be NULL (not
 * written).
 * @param[in] g the graph
 * @param[in] node the node id
 * @param[out] targets the edges' target nodes, or NULL
 * @param[out] costs the edges' fixed-point costs, or NULL
 * @return the number of out-edges */
uint32_t cairn_graph_neighbours(const cairn_graph *g, uint32_t node,
                                const uint32_t **targets,
                                const cairn_cost **costs);

/** A hex map of width x height cells in "odd-r" offset layout (odd rows shifted
 * half a cell right). cost[r * width + q] is 0 for blocked or 1..255, the
 * cost of entering the cell (one step = cost units). Node id = r * width + q;
 * positions are axial coordinates, heuristic CAIRN_GH_HEX with scale 1.
 * @param[in] width columns
 * @param[in] height rows
 * @param[in] cost width * height terrain costs
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the graph
 * @return CAIRN_OK; CAIRN_ERR_ARG (NULL, a side below 1);
 * CAIRN_ERR_TOO_LARGE if a side exceeds CAIRN_GRID_MAX_SIDE, or if the
 * directed edges between passable neighbours would exceed
 * CAIRN_GRAPH_MAX_EDGES (at six a cell: maps of more than about 179M,
 * 2^30 / 6, passable cells); CAIRN_ERR_NOMEM */
cairn_status cairn_hex_graph_create(int32_t width, int32_t height,
                                    const uint8_t *cost,
                                    const cairn_allocator *alloc,
                                    cairn_graph **out);

/** A* on a graph; the result's nodes/path_len hold the node ids. opts may be
 * NULL; only max_expanded is used (the heuristic is the graph's own).
 * @param[in,out] s the search context
 * @param[in] g the graph
 * @param[in] start the start node
 * @param[in] goal the goal node
 * @param[in] opts options, or NULL
 * @param[out] out the result; its nodes live in s
 * @return CAIRN_OK, CAIRN_NO_PATH, CAIRN_PARTIAL; CAIRN_ERR_ARG for NULL,
 * CAIRN_ERR_RANGE for a node out of range, CAIRN_ERR_NOMEM */
cairn_status cairn_graph_astar(cairn_search *s, const cairn_graph *g,
                               uint32_t start, uint32_t goal,
                               const cairn_search_opts *opts,
                               cairn_result *out);
/** The sliced form of cairn_graph_astar (step with cairn_search_step).
 * @param[in,out] s the search context
 * @param[in] g the graph (read at every step)
 * @param[in] start the start node
 * @param[in] goal the goal node
 * @param[in] opts options, or NULL
 * @return CAIRN_OK (begun), or the refusals of cairn_graph_astar */
cairn_status cairn_graph_astar_begin(cairn_search *s, const cairn_graph *g,
                                     uint32_t start, uint32_t goal,
                                     const cairn_search_opts *opts);

/** A link between a virtual point and a graph node (cairn_graph_query).
 *
 * A* between two points that are not nodes of the graph: the query links a
 * virtual start to some nodes and some nodes to a virtual goal, inside the
 * search context, so the shared graph is never edited and any number of
 * threads can query it at once (a hierarchy joins a unit's start and goal to
 * its cluster entrances this way). In the result, nodes[0] is the virtual
 * start, numbered cairn_graph_nodes(g), and nodes[path_len - 1] the virtual
 * goal, numbered cairn_graph_nodes(g) + 1; the nodes between are graph
 * nodes. The link arrays must stay valid until the search ends (the sliced
 * form reads them at every step). */
typedef struct cairn_graph_link {
  uint32_t node;   /**< a graph node */
  cairn_cost cost; /**< fixed point, < 2^62 */
} cairn_graph_link;

/** A linked query: a virtual start and goal joined to the graph (see
 * cairn_graph_link). */
typedef struct cairn_graph_query {
  /** @{ */
  double start_xy[2], goal_xy[2]; /**< positions, for the graph's heuristic */
  /** @} */
  const cairn_graph_link *from_start; /**< start -> node */
  size_t n_from_start;                /**< links in from_start */
  const cairn_graph_link *to_goal; /**< node -> goal; one link per node */
  size_t n_to_goal;                /**< links in to_goal */
  cairn_cost direct; /**< start -> goal without the graph, or CAIRN_COST_INF */
} cairn_graph_query;

/** A* from the virtual start to the virtual goal of q. opts: only
 * max_expanded is used.
 * @param[in,out] s the search context
 * @param[in] g the graph
 * @param[in] q the links and positions
 * @param[in] opts options, or NULL
 * @param[out] out the result; its nodes live in s
 * @return CAIRN_OK, CAIRN_NO_PATH, CAIRN_PARTIAL; CAIRN_ERR_ARG for a NULL
 * argument, a link naming a node out of range, a cost of 2^62 or more, two
 * goal links on one node, non-finite positions (when the heuristic uses
 * them); CAIRN_ERR_NOMEM */
cairn_status cairn_graph_astar_linked(cairn_search *s, const cairn_graph *g,
                                      const cairn_graph_query *q,
                                      const cairn_search_opts *opts,
                                      cairn_result *out);
/** The sliced form of cairn_graph_astar_linked.
 * @param[in,out] s the search context
 * @param[in] g the graph
 * @param[in] q the links and positions (read at every step)
 * @param[in] opts options, or NULL
 * @return CAIRN_OK (begun), or the refusals of cairn_graph_astar_linked */
cairn_status cairn_graph_astar_linked_begin(cairn_search *s,
                                            const cairn_graph *g,
                                            const cairn_graph_query *q,
                                            const cairn_search_opts *opts);

/** Dijkstra over a graph from several sources, each with a starting cost
 * (the links of a virtual source: a start joined to waypoints), until the
 * open set empties or, with n_targets > 0, every target is settled (a
 * target out of range or unreachable makes it run to the end). The graph's
 * heuristic is not used. Afterwards cairn_search_node gives each node's
 * cost and cairn_search_trace_nodes the path behind it. A source listed
 * twice keeps its cheaper cost.
 * @param[in,out] s the search context
 * @param[in] g the graph
 * @param[in] sources the source nodes and their starting costs
 * @param[in] n_sources number of sources
 * @param[in] targets nodes to stop at, or NULL
 * @param[in] n_targets number of targets; 0 = fill everything
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL arguments, no sources, a source
 * out of range or a cost of 2^62 or more; CAIRN_ERR_NOMEM */
cairn_status cairn_graph_fill(cairn_search *s, const cairn_graph *g,
                              const cairn_graph_link *sources,
                              size_t n_sources, const uint32_t *targets,
                              size_t n_targets);

/** What the last graph search knows of a node (the graph search form of
 * cairn_search_cell).
 * @param[in] s the search context
 * @param[in] node the node id (a linked search's virtual ones included)
 * @param[out] out what it knows
 * @return CAIRN_OK; CAIRN_ERR_STATE if the last search was not on a graph,
 * CAIRN_ERR_RANGE for a node past the graph's (or a linked search's
 * virtual) nodes, CAIRN_ERR_ARG for NULL */
cairn_status cairn_search_node(const cairn_search *s, uint32_t node,
                               cairn_node_info *out);

/** The nodes behind a reached node of the last graph search, from `node`
 * back to the source its path starts at (so reversed). Writes at most cap
 * ids and sets `*n` to the full count.
 * @param[in] s the search context
 * @param[in] node a node the search reached
 * @param[out] out room for cap ids
 * @param[in] cap ids out can hold
 * @param[out] n ids the whole path has
 * @return CAIRN_OK; CAIRN_ERR_BUFFER (nothing written) if that is more than
 * cap, CAIRN_NO_PATH if the node was not reached, CAIRN_ERR_RANGE /
 * CAIRN_ERR_STATE as cairn_search_node, CAIRN_ERR_ARG for NULL */
cairn_status cairn_search_trace_nodes(const cairn_search *s, uint32_t node,
                                      uint32_t *out, size_t cap, size_t *n);

/** Most landmarks a graph may have.
 *
 * Landmarks (ALT: Goldberg and Harrelson's A*, landmarks and the triangle
 * inequality). With the exact cost from a landmark L to every node, any
 * nodes v and t satisfy cost(v, t) >= cost(L, t) - cost(L, v): a lower
 * bound that sees what positions cannot (walls, detours, dear terrain).
 * Graph A*, plain and linked, then takes the larger of the best landmark
 * bound and the graph's own heuristic; both are consistent, so the search
 * stays exact and expands fewer nodes wherever the positions underestimate.
 * Fills ignore landmarks. A linked search bounds its virtual goal through
 * its goal links. Setting landmarks changes the graph: no search may run on
 * it meanwhile; a sliced search in progress across the call answers
 * CAIRN_ERR_STATE at its next step. */
#define CAIRN_GRAPH_MAX_LANDMARKS 16
/** Takes n landmark nodes (n <= CAIRN_GRAPH_MAX_LANDMARKS; 0 removes them)
 * and their costs: costs[i * nodes(g) + v] is the exact cost from nodes[i]
 * to v (CAIRN_COST_INF where unreachable), as a cairn_graph_fill from that
 * node computes them. They must be exact: the bound is not admissible on
 * underestimates. The table is copied.
 * @param[in,out] g the graph
 * @param[in] nodes the landmark nodes
 * @param[in] n number of landmarks
 * @param[in] costs n * cairn_graph_nodes(g) exact costs
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL arguments with n > 0, a node out
 * of range, a landmark whose own cost is not 0 or a finite cost of 2^62 or
 * more; CAIRN_ERR_TOO_LARGE above the maximum; CAIRN_ERR_NOMEM (the graph
 * keeps its previous landmarks) */
cairn_status cairn_graph_set_landmarks(cairn_graph *g, const uint32_t *nodes,
                                       uint32_t n, const cairn_cost *costs);
/** The same, computing the costs with one fill per landmark on s (a caller
 * with threads can run the fills itself, one context each, and call
 * cairn_graph_set_landmarks).
 * @param[in,out] g the graph
 * @param[in,out] s the search context the fills run in
 * @param[in] nodes the landmark nodes
 * @param[in] n number of landmarks
 * @return as cairn_graph_set_landmarks */
cairn_status cairn_graph_compute_landmarks(cairn_graph *g, cairn_search *s,
                                           const uint32_t *nodes, uint32_t n);
/** Landmarks the graph has (0: none).
 * @param[in] g the graph
 * @return the landmark count */
uint32_t cairn_graph_landmarks(const cairn_graph *g);
/** Bytes the graph's landmark table holds.
 * @param[in] g the graph
 * @return the table's size in bytes */
size_t cairn_graph_landmark_bytes(const cairn_graph *g);

/* ---- paths ---------------------------------------------------------- */

/** Line of sight between two cell centres: true if the segment touches only
 * passable cells, and where it passes exactly through a cell corner, both
 * cells beside the corner are passable (no corner cutting).
 * @param[in] grid the grid
 * @param[in] a one cell
 * @param[in] b the other cell
 * @return nonzero if clear */
int cairn_grid_line_of_sight(const cairn_grid *grid, cairn_point a,
                             cairn_point b);

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
cairn_status cairn_smooth_path(const cairn_grid *grid, const cairn_point *path,
                               size_t n, cairn_point *out, size_t cap,
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
void cairn_grid_check_path(const cairn_grid *grid, const cairn_point *path,
                           size_t n, cairn_point start, cairn_point goal,
                           int moves, cairn_path_check *report);

/* ---- Moving AI formats ---------------------------------------------- */

/** Error detail for parsers and loaders: "FILE:LINE: problem". */
typedef struct cairn_error {
  char message[320]; /**< "FILE:LINE: problem", NUL-terminated */
  int32_t line; /**< 1-based, 0 when the problem has no line */
} cairn_error;

/** Character <-> cost table for maps. */
typedef struct cairn_terrain {
  int16_t cost_of[256]; /**< cost (0..255) of a map character, -1: rejected */
  char char_of[256];    /**< character the writer emits for a cost, 0: none */
} cairn_terrain;

/** The Moving AI rule that reproduces every published optimal length:
 * '.', 'G', 'S' cost 1; '\@', 'O', 'T', 'W' blocked. Writes '.' and '\@'.
 * @param[out] t the table to fill */
void cairn_terrain_movingai(cairn_terrain *t);
/** Maps character c to cost (0..255) and makes c the writer's character for
 * that cost.
 * @param[in,out] t the table
 * @param[in] c a character, '!'..'~'
 * @param[in] cost 0 (blocked) or 1..255
 * @return CAIRN_OK; CAIRN_ERR_ARG for a NULL t, a cost outside 0..255, or
 * a c outside '!'..'~' (0x21..0x7e): control characters, DEL, bytes above
 * 0x7e and the space character are all rejected */
cairn_status cairn_terrain_set(cairn_terrain *t, char c, int cost);

/** Parses a .map held in memory (name is used in messages only). terrain
 * NULL means cairn_terrain_movingai. Accepts LF and CRLF.
 * @param[in] buf the file's bytes
 * @param[in] len bytes in buf
 * @param[in] name the file's name, for messages
 * @param[in] terrain character table, or NULL
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the grid
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK; CAIRN_ERR_PARSE, CAIRN_ERR_TOO_LARGE, CAIRN_ERR_ARG
 * (NULL), CAIRN_ERR_NOMEM */
cairn_status cairn_map_parse(const char *buf, size_t len, const char *name,
                             const cairn_terrain *terrain,
                             const cairn_allocator *alloc, cairn_grid **out,
                             cairn_error *err);
/** Reads the file at path and parses it as cairn_map_parse does. Files over
 * 16384 x 16386 + 2^20 = 269516800 bytes (the largest map with CRLF endings
 * plus 1 MiB of slack) are refused with CAIRN_ERR_TOO_LARGE after reading at
 * most one byte past that limit.
 * @param[in] path the .map file
 * @param[in] terrain character table, or NULL
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the grid
 * @param[out] err error detail, or NULL
 * @return as cairn_map_parse, and CAIRN_ERR_IO */
cairn_status cairn_map_load(const char *path, const cairn_terrain *terrain,
                            const cairn_allocator *alloc, cairn_grid **out,
                            cairn_error *err);
/** Writes the grid as a .map. A cell keeps its original glyph if it still has
 * the cost that glyph maps to; otherwise it gets terrain->char_of[cost].
 * @param[in] grid the grid
 * @param[in] path the file to write
 * @param[in] terrain character table, or NULL for cairn_terrain_movingai
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK; CAIRN_ERR_ARG (NULL, or a cost without a character),
 * CAIRN_ERR_IO, CAIRN_ERR_NOMEM */
cairn_status cairn_map_save(const cairn_grid *grid, const char *path,
                            const cairn_terrain *terrain, cairn_error *err);

/** One scenario row. */
typedef struct cairn_scen_entry {
  uint32_t bucket; /**< the row's bucket */
  /** @{ */
  int32_t map_width, map_height; /**< the map size the row names */
  cairn_point start, goal;       /**< the query's endpoints */
  /** @} */
  double optimal; /**< the published optimal length, in straight steps */
  uint32_t line; /**< line number in the file */
} cairn_scen_entry;

/** A parsed .scen file: its rows and the map they name. */
typedef struct cairn_scen cairn_scen;

/** Most rows a scenario may have. */
#define CAIRN_SCEN_MAX_ROWS 10000000u
/** Parses a .scen ("version 1" or "version 1.0", nine fields per row split on
 * tabs or spaces). Every row must name the same map file (matched by file
 * name, directories ignored): a row naming another file than row 1 is
 * CAIRN_ERR_PARSE. A negative number in any numeric field is
 * CAIRN_ERR_PARSE, as is an integer field that is not a decimal integer
 * fitting in 64 bits (at most 31 characters). A map_width or map_height
 * above CAIRN_GRID_MAX_SIDE is CAIRN_ERR_TOO_LARGE (0 is CAIRN_ERR_PARSE);
 * a start or goal outside the row's own map_width x map_height is
 * CAIRN_ERR_RANGE. At most CAIRN_SCEN_MAX_ROWS rows (CAIRN_ERR_TOO_LARGE).
 * Zero rows is valid.
 * @param[in] buf the file's bytes
 * @param[in] len bytes in buf
 * @param[in] name the file's name, for messages
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the scenario
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK, CAIRN_ERR_PARSE, CAIRN_ERR_TOO_LARGE, CAIRN_ERR_RANGE,
 * CAIRN_ERR_ARG (NULL), CAIRN_ERR_NOMEM */
cairn_status cairn_scen_parse(const char *buf, size_t len, const char *name,
                              const cairn_allocator *alloc, cairn_scen **out,
                              cairn_error *err);
/** Reads the file at path and parses it as cairn_scen_parse does.
 * @param[in] path the .scen file
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the scenario
 * @param[out] err error detail, or NULL
 * @return as cairn_scen_parse, and CAIRN_ERR_IO */
cairn_status cairn_scen_load(const char *path, const cairn_allocator *alloc,
                             cairn_scen **out, cairn_error *err);
/** Destroys a scenario. NULL is ignored.
 * @param[in] scen the scenario, or NULL */
void cairn_scen_destroy(cairn_scen *scen);
/** Number of rows.
 * @param[in] scen the scenario
 * @return the row count */
size_t cairn_scen_count(const cairn_scen *scen);
/** One row.
 * @param[in] scen the scenario
 * @param[in] i the row's index
 * @return the row, valid until the scenario is destroyed; NULL past the
 * end */
const cairn_scen_entry *cairn_scen_get(const cairn_scen *scen, size_t i);
/** File name of the map the rows name, without directories; "" when the
 * scenario has no rows, NULL for a NULL scen.
 * @param[in] scen the scenario
 * @return the map's file name */
const char *cairn_scen_map_name(const cairn_scen *scen);
/** Checks every row against a grid: map size equal (CAIRN_ERR_MISMATCH) and
 * start and goal inside it (CAIRN_ERR_RANGE); err names the first bad row.
 * @param[in] scen the scenario
 * @param[in] grid the map's grid
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK, CAIRN_ERR_MISMATCH, CAIRN_ERR_RANGE, CAIRN_ERR_ARG
 * (NULL) */
cairn_status cairn_scen_check(const cairn_scen *scen, const cairn_grid *grid,
                              cairn_error *err);

#ifdef __cplusplus
}
#endif
#endif
