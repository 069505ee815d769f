/**
 * @file cairn/flow_field.h
 * @brief Field builds: options, builders, fields, sampling, checks and
 * repair. Part of cairn/flowfield.h.
 */
#ifndef CAIRN_FLOW_FIELD_H
#define CAIRN_FLOW_FIELD_H

#include <stddef.h>
#include <stdint.h>

#include "cairn/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Direction code of a goal cell (besides the moves 0..7). */
#define CAIRN_FLOW_GOAL 8
/** Direction code of a blocked or unreachable cell. */
#define CAIRN_FLOW_NONE 9

/** Most goals a field may have. */
#define CAIRN_FLOW_MAX_GOALS (1u << 26)
/** Largest los_radius. */
#define CAIRN_FLOW_MAX_LOS 64
/** Default los_radius. */
#define CAIRN_FLOW_DEFAULT_LOS 16

/** The x step of direction d (0..7): the core's neighbour order.
 * @param[in] d a direction code
 * @return -1, 0 or 1 (0 for codes other than moves) */
static inline int cairn_flow_dir_dx(int d) {
  static const signed char dx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
  return d >= 0 && d < 8 ? dx[d] : 0;
}
/** The y step of direction d (0..7), as cairn_flow_dir_dx.
 * @param[in] d a direction code
 * @return -1, 0 or 1 (0 for codes other than moves) */
static inline int cairn_flow_dir_dy(int d) {
  static const signed char dy[8] = {0, 0, 1, -1, 1, 1, -1, -1};
  return d >= 0 && d < 8 ? dy[d] : 0;
}

/** The integration's priority queue (docs/PERFORMANCE.md has the figures
 * behind the default). */
typedef enum cairn_flow_queue {
  CAIRN_FLOW_QUEUE_AUTO = 0, /**< FIFO on uniform terrain, else BUCKETS */
  CAIRN_FLOW_QUEUE_FIFO,     /**< uniform terrain: an 8-way field of
                                one-cell units walks the runs of canonical
                                paths, its jump points in buckets; others
                                two FIFOs, straight and diagonal steps;
                                exact when all passable cells cost the same
                                (else CAIRN_ERR_ARG) */
  CAIRN_FLOW_QUEUE_BUCKETS,  /**< Dial's buckets one straight step wide:
                                every value in the lowest bucket is final
                                (under a layer whose penalties make a step
                                longer than the ring, the heap instead:
                                cairn_field_stats.queue says which ran) */
  CAIRN_FLOW_QUEUE_HEAP      /**< indexed binary heap */
} cairn_flow_queue;

/** Options of a field build (cairn_flow_defaults gives them). */
typedef struct cairn_flow_opts {
  int moves;          /**< 8 (default) or 4 */
  /** Where a build's row passes run: the caller's job system (cairn_jobs,
   * cairn/core.h; it must stay unchanged and outlive every build, and a
   * cache's whole life, that uses it), or NULL for a pool the builder owns
   * with `threads` threads (0 = every core, 1 = the calling thread alone;
   * at most CAIRN_JOBS_MAX_WORKERS). Bad jobs (cairn_jobs_check) or
   * threads out of range: CAIRN_ERR_ARG. */
  const cairn_jobs *jobs;
  int threads; /**< pool threads when jobs is NULL (see jobs) */
  int32_t los_radius; /**< 0..CAIRN_FLOW_MAX_LOS; default
                         CAIRN_FLOW_DEFAULT_LOS; 0 = no line of sight */
  cairn_flow_queue queue; /**< the integration's queue (default AUTO) */
  /** A cost layer (cairn_penalty, cairn/core.h): every step entering a cell
   * also pays its penalty, and cells it blocks are never entered, as in
   * the core's searches with opts.penalty (a field equals
   * cairn_dijkstra_fill with to_sources and the same layer). NULL: none.
   * Freshness: a field shows the layer as it was at its build or its
   * last repair (cairn_field_repair_layer, cairn_field_repair, or a
   * cache's cairn_flow_cache_layer_changed), never a later state: after
   * the layer changed (an influence tick, a unit stopping), repair it
   * before reading it. A layer rules out the FIFO queue (AUTO takes the
   * buckets). It must be for a grid of the field's size (else
   * CAIRN_ERR_ARG) and outlive the field. */
  const cairn_penalty *penalty;
  /** The unit's size k, 1 .. CAIRN_GRID_MAX_CLEARANCE (0 reads as 1, the
   * default): the field of a unit of k x k cells at its top-left cell, as
   * the core's searches take it (cairn_search_opts.size): values and
   * moves on the positions where the unit fits, each step paying the
   * dearest terrain and highest layer penalty the unit covers; positions
   * where it does not fit are CAIRN_FLOW_NONE. Every goal must hold the
   * unit (else CAIRN_ERR_BLOCKED). Line of sight is the unit's
   * (cairn_grid_line_of_sight_sized). A sized field keeps the grid eroded
   * for its size, 1 byte a cell (5 under a layer), refreshed by every
   * build and repair; size 1 keeps nothing more. */
  int32_t size;
} cairn_flow_opts;

/** The default options.
 * @return 8 moves, the builder's own pool over every core, los_radius
 * CAIRN_FLOW_DEFAULT_LOS, queue AUTO, no layer, size 1 */
CAIRN_FLOWFIELD_API cairn_flow_opts cairn_flow_defaults(void);

/* ---- builder (scratch, one per thread) ------------------------------ */

/** All scratch of a build or repair: one per thread. */
typedef struct cairn_flow_builder cairn_flow_builder;

/** Creates a builder.
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the builder
 * @return CAIRN_OK, CAIRN_ERR_ARG for a NULL out, CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_builder_create(const cairn_allocator *alloc,
                                       cairn_flow_builder **out);
/** Destroys a builder (and its pool). NULL is ignored.
 * @param[in] b the builder, or NULL */
CAIRN_FLOWFIELD_API void cairn_flow_builder_destroy(cairn_flow_builder *b);
/** Grows the scratch for grids up to this one's size.
 * @param[in,out] b the builder
 * @param[in] grid the grid
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_builder_reserve(cairn_flow_builder *b,
                                        const cairn_grid *grid);
/** Bytes the builder holds.
 * @param[in] b the builder
 * @return its memory in bytes */
CAIRN_FLOWFIELD_API size_t cairn_flow_builder_memory(const cairn_flow_builder *b);

/* ---- fields --------------------------------------------------------- */

/** A flow field: a value and a direction per cell (see the overview). */
typedef struct cairn_field cairn_field;

/** A field sized for grid (built later by cairn_field_build on that grid
 * or any of the same size).
 * @param[in] grid the grid
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the field
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL arguments, CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_field_create(const cairn_grid *grid,
                                const cairn_allocator *alloc,
                                cairn_field **out);
/** Destroys a field. NULL is ignored.
 * @param[in] f the field, or NULL */
CAIRN_FLOWFIELD_API void cairn_field_destroy(cairn_field *f);

/** Builds the field towards the goals. Goals listed twice count once.
 * @param[in,out] b the builder (scratch)
 * @param[in,out] f the field
 * @param[in] grid the grid (kept by the field)
 * @param[in] goals the goal cells
 * @param[in] n_goals number of goals
 * @param[in] opts options, or NULL for cairn_flow_defaults
 * @return CAIRN_OK. Refusals (the field is then empty:
 * every cell CAIRN_FLOW_NONE): CAIRN_ERR_ARG (NULL, no goals, bad opts, a
 * grid of another size than the field's, FIFO on uneven terrain),
 * CAIRN_ERR_TOO_LARGE (more than CAIRN_FLOW_MAX_GOALS goals),
 * CAIRN_ERR_RANGE (a goal off the grid), CAIRN_ERR_BLOCKED (a goal on a
 * blocked cell, or where a unit of opts.size does not fit),
 * CAIRN_ERR_NOMEM (growing the builder, the goal list or a sized field's
 * eroded grid,
 * or making the builder's pool) */
CAIRN_FLOWFIELD_API cairn_status cairn_field_build(cairn_flow_builder *b, cairn_field *f,
                               const cairn_grid *grid,
                               const cairn_point *goals, size_t n_goals,
                               const cairn_flow_opts *opts);

/** One build of a batch. */
typedef struct cairn_flow_request {
  cairn_field *field;       /**< the field to build */
  const cairn_point *goals; /**< its goals */
  size_t n_goals;           /**< number of goals */
  cairn_status status; /**< written by the batch */
} cairn_flow_request;

/** Builds n requests on grid in parallel, one task per request: request k
 * runs on some worker w, with builders[w]. With opts->jobs the tasks go
 * through it, and n_builders must be at least its workers (else
 * CAIRN_ERR_ARG, nothing built); without, through a pool made for this
 * call with n_builders threads (fewer when there are fewer requests, at
 * most CAIRN_JOBS_MAX_WORKERS; none for one: on the calling thread),
 * allocated with builders[0]'s allocator: if it cannot be made, every
 * request gets CAIRN_ERR_NOMEM and an empty field. opts->threads is not
 * read. Each field is what cairn_field_build gives it alone (its own row
 * passes run on its worker alone). Returns CAIRN_OK if every request
 * succeeded, else the first failing request's status in request order
 * (each request has its own).
 * @param[in] builders n_builders builders (scratch; each is used by one
 * worker at a time)
 * @param[in] n_builders number of builders
 * @param[in] grid the grid
 * @param[in,out] reqs the requests; their fields are built and statuses
 * written
 * @param[in] n number of requests
 * @param[in] opts options, or NULL for cairn_flow_defaults
 * @return CAIRN_OK, the first failing request's status, CAIRN_ERR_ARG (NULL,
 * too few builders), CAIRN_ERR_TOO_LARGE (too many requests) */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_build_batch(cairn_flow_builder *const *builders,
                                    size_t n_builders, const cairn_grid *grid,
                                    cairn_flow_request *reqs, size_t n,
                                    const cairn_flow_opts *opts);

/** Value of a cell: CAIRN_COST_INF when blocked, unreachable, off the grid,
 * or the field is not built, and when the grid changed since the field's
 * last build or repair (a stale field reads as unreachable everywhere, so
 * a caller walking its moves never steps into a new wall; cairn_field_check
 * tells that case apart). One call into the grid and a compare a read: a
 * caller reading every cell of a field should use cairn_field_copy_costs.
 * @param[in] f the field
 * @param[in] x column
 * @param[in] y row
 * @return the cost to the nearest goal */
CAIRN_FLOWFIELD_API cairn_cost cairn_field_cost(const cairn_field *f, int32_t x, int32_t y);
/** Direction code of a cell: CAIRN_FLOW_NONE off the grid, on a blocked
 * or unreachable cell, and everywhere when the grid changed since the
 * field's last build or repair (as cairn_field_cost).
 * @param[in] f the field
 * @param[in] x column
 * @param[in] y row
 * @return 0..7, CAIRN_FLOW_GOAL or CAIRN_FLOW_NONE */
CAIRN_FLOWFIELD_API int cairn_field_dir(const cairn_field *f, int32_t x, int32_t y);
/** Whether the cell sees a goal (and `*goal`, when not NULL, gets it); 0
 * when the grid changed since the field's last build or repair (as
 * cairn_field_cost).
 * @param[in] f the field
 * @param[in] x column
 * @param[in] y row
 * @param[out] goal the goal seen, or NULL
 * @return 1 if the cell sees a goal, else 0 */
CAIRN_FLOWFIELD_API int cairn_field_los(const cairn_field *f, int32_t x, int32_t y,
                    cairn_point *goal);
/** Writes every value row by row (width x height, CAIRN_COST_INF for
 * blocked and unreachable).
 * @param[in] f the field
 * @param[out] out room for len values
 * @param[in] len values out can hold
 * @return CAIRN_OK; CAIRN_ERR_BUFFER if len < width * height, CAIRN_ERR_ARG
 * for NULL, CAIRN_ERR_STATE (nothing written) when the grid changed since
 * the field's last build or repair */
CAIRN_FLOWFIELD_API cairn_status cairn_field_copy_costs(const cairn_field *f, cairn_cost *out,
                                    size_t len);
/** Whether the field's reads hold: the status counterpart of the per-cell
 * value reads (cairn_field_cost, cairn_field_dir, cairn_field_los), which
 * read as unreachable on a stale field. One call and compare. See
 * "Staleness" in cairn/flowfield.h.
 * @param[in] f the field
 * @return CAIRN_OK when built and its grid unchanged since its last build
 * or repair; CAIRN_ERR_STATE when not built, or when the grid's version
 * (cairn_grid_version) moved on since (repair the field over the changed
 * cells, or build it again); CAIRN_ERR_ARG for NULL */
CAIRN_FLOWFIELD_API cairn_status cairn_field_check(const cairn_field *f);
/** The goals, sorted by (y, x), duplicates removed; valid until the next
 * build.
 * @param[in] f the field
 * @param[out] n the number of goals
 * @return the goals */
CAIRN_FLOWFIELD_API const cairn_point *cairn_field_goals(const cairn_field *f, size_t *n);

/** The unit size the field was last built for (cairn_flow_opts.size), in
 * O(1).
 * @param[in] f the field
 * @return 1 .. CAIRN_GRID_MAX_CLEARANCE; 1 before a build; 0 for NULL */
CAIRN_FLOWFIELD_API int32_t cairn_field_unit_size(const cairn_field *f);

/** What a field holds and what its last build cost. */
typedef struct cairn_field_stats {
  /** @{ */
  int32_t width, height; /**< the grid's size */
  /** @} */
  size_t cells;        /**< width * height */
  size_t reachable;    /**< cells with a finite value, goals included */
  size_t goals;        /**< goals (duplicates removed) */
  cairn_cost max_cost; /**< largest finite value */
  size_t memory_bytes; /**< everything the field holds */
  double build_ms;     /**< wall time of the last build */
  double repair_ms;    /**< wall time of the last repair */
  size_t repaired;     /**< cells the last repair re-integrated */
  cairn_flow_queue queue; /**< the queue the last build used */
  int built;           /**< 1 once a build succeeded */
  int32_t size;        /**< the unit size of the last build (1 before one) */
} cairn_field_stats;

/** O(cells): counts reachable cells and the largest value (of what the
 * field holds, even when its grid changed since).
 * @param[in] f the field
 * @param[out] out the figures */
CAIRN_FLOWFIELD_API void cairn_field_get_stats(const cairn_field *f, cairn_field_stats *out);

/* ---- sampling for agents at float positions ------------------------ */

/** What cairn_field_sample gives. Positions are in cells: cell (x, y) covers [x, x+1) x [y, y+1), its
 * centre is (x + 0.5, y + 0.5). */
typedef struct cairn_flow_sample {
  int dir;    /**< direction code of the cell under the point */
  int los;    /**< 1 if that cell sees a goal */
  /** @{ */
  float vx, vy; /**< unit steering vector, or 0,0 on a goal, blocked or
                   unreachable cell */
  /** @} */
  int next_goal;    /**< 1 if that cell's move leads onto a goal cell */
  cairn_cost cost;  /**< that cell's value (cairn_field_cost), CAIRN_COST_INF
                       when unreachable or on an error */
} cairn_flow_sample;

/** The steering vector at a point. The steering vector is, in order of preference: straight at the goal
 * (los cells), the bilinear blend of the moves of the four cells whose
 * centres surround the point (cells without a move left out), the cell's
 * own move. The first one whose segment of one cell's length from the
 * point is clear is taken: every cell the segment's bounding box overlaps
 * is passable. The cell's own move always is, so the vector never points
 * into a wall or across a blocked corner. A point off the grid gives
 * CAIRN_FLOW_NONE and CAIRN_ERR_RANGE; NaN coordinates CAIRN_ERR_ARG; a
 * built field whose grid changed since its last build or repair
 * CAIRN_FLOW_NONE and CAIRN_ERR_STATE (its moves may lead into the new
 * walls). The check is one call and compare per sample.
 * @param[in] f the field
 * @param[in] x position, in cells
 * @param[in] y position, in cells
 * @param[out] out the sample
 * @return CAIRN_OK, CAIRN_ERR_RANGE, CAIRN_ERR_ARG, CAIRN_ERR_STATE */
CAIRN_FLOWFIELD_API cairn_status cairn_field_sample(const cairn_field *f, float x, float y,
                                cairn_flow_sample *out);

/* ---- checking ------------------------------------------------------- */

/** The report of cairn_field_verify. */
typedef struct cairn_field_fault {
  int ok;                /**< 1 if every check held */
  cairn_point cell;      /**< first failing cell (row order) */
  cairn_cost got;        /**< the field's value there */
  cairn_cost expected;   /**< the plain Dijkstra's value there */
  const char *problem;   /**< static text, NULL when ok */
} cairn_field_fault;

/** Checks the field against a plain Dijkstra (cairn_dijkstra_fill from the
 * goals with to_sources and the field's size, run in s) in O(cells), the
 * moves judged from the footprint's cells one by one: every value equal, and for
 * every reachable non-goal cell a legal move (no wall, no corner cut) to a
 * neighbour whose value plus the step's cost equals the cell's, goals
 * marked CAIRN_FLOW_GOAL, every other cell CAIRN_FLOW_NONE. By induction
 * (values strictly decrease) following the field from any reachable cell
 * reaches a goal with exactly its value. Returns CAIRN_OK when the check
 * ran (see out->ok), else the fill's refusal or CAIRN_ERR_STATE (not
 * built, or its grid changed since its last build or repair).
 * @param[in] f the field
 * @param[in,out] s the search context the Dijkstra runs in
 * @param[out] out the verdict
 * @return CAIRN_OK, the fill's refusal, CAIRN_ERR_STATE, CAIRN_ERR_ARG for
 * NULL
 */
CAIRN_FLOWFIELD_API cairn_status cairn_field_verify(const cairn_field *f, cairn_search *s,
                                cairn_field_fault *out);

/* ---- repair --------------------------------------------------------- */

/** After the caller changed the terrain of n cells of the field's grid
 * (cairn_grid_set_cost), brings the field to exactly what a fresh build
 * on the new grid gives (values, directions, line of sight), recomputing
 * only the cells whose values could depend on the changed ones (see
 * flow_repair.c). A field with a cost layer also takes in the cells the
 * layer changed since the version it shows (as cairn_field_repair_layer).
 * CAIRN_ERR_BLOCKED (field untouched) if a goal is now blocked: rebuild it
 * from other goals. CAIRN_ERR_ARG for NULL arguments
 * or an unbuilt field, CAIRN_ERR_RANGE for a cell off the grid.
 * The changed cells are taken as every change since the field's last build
 * or repair: on success the field shows the grid's current version
 * (cairn_grid_version) and its reads answer again. A repair naming no cell
 * reports no grid change: CAIRN_ERR_STATE (field untouched) if the grid
 * changed since, as cairn_field_repair_layer.
 * @param[in,out] b the builder (scratch)
 * @param[in,out] f the field
 * @param[in] changed the cells whose cost changed
 * @param[in] n number of cells
 * @return CAIRN_OK, CAIRN_ERR_BLOCKED, CAIRN_ERR_ARG, CAIRN_ERR_RANGE,
 * CAIRN_ERR_STATE, CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_field_repair(cairn_flow_builder *b, cairn_field *f,
                                const cairn_point *changed, size_t n);

/** Brings a field built with a cost layer (opts.penalty) to exactly what a
 * fresh build on the layer as it is now gives, recomputing only the cells
 * whose values could depend on the cells the layer changed since the
 * version the field shows (cairn_penalty_changes; a rise counts as a
 * dearer cell, a fall as a cheaper one, a block as a wall). Afterwards the
 * field shows the layer's current version. O(1) when the layer did not
 * change (call it every tick); else the layer's tiles, plus the cells of
 * its changed tiles, plus the re-integrated cells (cairn_field_stats
 * .repaired) with a heap. cairn_field_repair on a layered field does this
 * too, with the grid's changed cells on top. A field without a layer:
 * nothing to do. CAIRN_ERR_ARG for NULL or an unbuilt field,
 * CAIRN_ERR_BLOCKED (field untouched) if a goal's grid cell is blocked,
 * CAIRN_ERR_STATE (field untouched) if the grid changed since the field's
 * last build or repair: cairn_field_repair over those cells does both.
 * @param[in,out] b the builder (scratch)
 * @param[in,out] f the field
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_BLOCKED, CAIRN_ERR_STATE,
 * CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_field_repair_layer(cairn_flow_builder *b, cairn_field *f);
/** The layer version (cairn_penalty_version) the field shows; 0 without a
 * layer.
 * @param[in] f the field
 * @return the version */
CAIRN_FLOWFIELD_API uint64_t cairn_field_layer_version(const cairn_field *f);

#ifdef __cplusplus
}
#endif
#endif
