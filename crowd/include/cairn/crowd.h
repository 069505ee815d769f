/**
 * @file cairn/crowd.h
 * @brief Crowds of agents moving every tick: a horde sharing flow
 * fields, units following A* paths served by a budgeted request queue,
 * neighbour avoidance and walls.
 *
 * Units: positions in cells (cell (x, y) covers [x, x+1) x [y, y+1)),
 * speeds in cells per second, one tick = opts.dt seconds (fixed).
 *
 * Agents live in struct-of-arrays storage. A handle (cairn_agent) holds a
 * slot index and a generation: removing an agent bumps the generation, so
 * a stale handle is refused (CAIRN_ERR_STALE) and never reaches another
 * agent; a handle that never named a slot is CAIRN_ERR_ARG. Add and remove
 * at any time between ticks.
 *
 * Refusals: a call that changes the crowd and is refused changes nothing
 * and leaves a short detail, cairn_crowd_error (such as "radius 2.5 is not
 * in [0.05, 2]"); cairn_crowd_check says why options would be refused
 * before there is a crowd to ask.
 *
 * Tick (cairn_crowd_tick): 1. the path queue serves waiting requests
 * oldest first until opts.path_budget node expansions are spent (a search
 * that runs out resumes next tick); 2. every live agent is counted into a
 * uniform grid of bins (a counting sort run in parallel, whose order is
 * the sequential one: by bin, slots ascending within a bin), and the
 * state the steering reads is gathered in that order; 3. a read-only pass
 * computes each agent's next position, velocity and state from the
 * current ones alone; 4. the commit, in parallel, which lists the agents
 * with path bookkeeping (repaths, group continuations, claims) or an
 * event; those are then seen in sequence, in bin order. Each agent's next state is a function of
 * the current state read in a fixed order, so the result is bit for bit
 * the same at any worker count and under any scheduler
 * (cairn_crowd_hash). No -ffast-math.
 *
 * Steering: the order's direction (the field's cairn_field_sample, or the
 * next waypoint) at max speed, slowed behind close agents ahead, plus
 * separation from overlapping neighbours, plus a predictive term that
 * sidesteps agents on a collision course (each to its own right, so
 * head-on pairs pass). The move is resolved one axis at a time against the
 * grid, each step under one cell, with the disc's bounding square, which
 * slides along walls and rounds corners: no part of a disc ever enters a
 * blocked cell.
 *
 * Orders (cairn/crowd_orders.h): one call, cairn_crowd_order, for every
 * kind, or a call of each kind. A horde order gives agents one shared field
 * to a goal set (the flow-field cache: one field per goal set, held while
 * agents use it), or a field the caller built; an agent on a goal cell or
 * next to one arrives. A move order queues one path
 * request for a group; its members follow the shared smoothed path at
 * formation offsets where the offset point is open and in sight of the
 * waypoint, and file through the waypoint itself where it is not; when the
 * group's stored waypoints (opts.waypoints) run out before the goal, the
 * first member there asks for the rest for the whole group, and the others
 * keep their unvisited waypoints in front of it. A path order queues one
 * request per unit, with claimed nodes when opts.claim_penalty is set.
 * Fields and paths are planned on the route grid (opts.route_grid) or the
 * walk grid, under opts.penalty when given (the defenders' torchlight), and
 * a path search treats the stopped units near the searching one as walls
 * (opts.avoid_radius). An agent that makes no progress for
 * opts.stuck_ticks repaths; a request that finds no path leaves its agents
 * CAIRN_AGENT_UNREACHABLE. Each order says how its agents end it
 * (cairn_arrival): they leave the bins (a horde through its gate), stop
 * where they arrive, or stay around the goal as a cluster of bodies. A
 * driven agent moves by the velocity the game sets (cairn_crowd_drive).
 *
 * Reading (cairn/crowd_read.h, cairn/crowd_events.h): every agent in one
 * call (cairn_crowd_export), the agents near a point or in a rectangle
 * (from the last tick's bins), and the events of the ticks (arrived,
 * stuck, unreachable, repathed, removed), in an order that is the same at
 * any thread count. Each agent carries a value of the caller's
 * (cairn_agent_params.user), reported with it everywhere.
 *
 * Ownership: the crowd keeps pointers to its grids; they must outlive it.
 * After the caller edits the walk grid (and route grid), it calls
 * cairn_crowd_grid_changed before the next tick.
 *
 * Threads: one crowd is single-threaded from the caller's side. The
 * tick's passes (count, scan, place, sort, steer, commit: six runs a tick)
 * are tasks handed to opts.jobs, the game's job system, or to a pool the
 * crowd owns (opts.threads); the crowd's field builds go the same way.
 * Tasks never wait on one another, and the calling thread takes every task
 * no worker has started, so a worker the system descheduled delays a tick
 * by at most the task it holds (a few tens of microseconds of work:
 * opts.chunk agents to steer, 16 times as many to count, place or commit).
 *
 * Memory: everything is sized at create from opts.max_agents (and the
 * workers of opts.jobs), the event ring from opts.max_events. A tick
 * allocates nothing, with one exception:
 * with opts.hpa, the hierarchy's query context (reserved at create by
 * cairn_hpa_query_reserve) grows when a route needs more room than that
 * reserve (a leg longer than its estimate, or a hierarchy that gained
 * entrances in an edit). Orders may allocate: the field cache builds the
 * fields they ask for.
 */
#ifndef CAIRN_CROWD_H
#define CAIRN_CROWD_H

#include "cairn/core.h"
#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A handle to an agent: slot | generation << 32; 0 is never valid. */
typedef uint64_t cairn_agent; /* slot | generation << 32; 0 is never valid */

/** Smallest agent radius, in cells. */
#define CAIRN_CROWD_MIN_RADIUS 0.05f
/** Largest agent radius, in cells: a unit of 4 x 4 cells. */
#define CAIRN_CROWD_MAX_RADIUS 2.0f

/** Most agent slots a crowd may have. */
#define CAIRN_CROWD_MAX_AGENTS (1u << 24)

/** What an agent is doing. */
typedef enum cairn_agent_state {
  CAIRN_AGENT_IDLE = 0,    /**< no order, or holding */
  CAIRN_AGENT_MOVING,      /**< following a field or a path */
  CAIRN_AGENT_WAITING,     /**< path requested, not yet planned */
  CAIRN_AGENT_ARRIVED,     /**< reached the goal; stays put */
  CAIRN_AGENT_UNREACHABLE, /**< the goal cannot be reached from here */
  CAIRN_AGENT_STUCK        /**< no progress for a while; repath requested */
} cairn_agent_state;

/** The order an agent follows. */
typedef enum cairn_order_kind {
  CAIRN_ORDER_HOLD = 0, /**< stay put */
  CAIRN_ORDER_FIELD,  /**< follow a shared flow field */
  CAIRN_ORDER_PATH,   /**< follow a planned path (own or the group's) */
  CAIRN_ORDER_WANDER, /**< random walk from a seed */
  CAIRN_ORDER_DRIVEN, /**< the game sets its velocity (cairn_crowd_drive) */
  /** Move to one goal the cheapest way (cairn_crowd_plan): one path for a
   * gathered group, one shared field for many scattered agents, a path
   * each for a few. Resolved when given: agents then follow a FIELD or
   * PATH order. */
  CAIRN_ORDER_AUTO
} cairn_order_kind;

/** How an agent ends a field or path order. */
typedef enum cairn_arrival {
  /** The order's own: CAIRN_ARRIVAL_LEAVE for fields, CAIRN_ARRIVAL_STOP
   * for paths (what cairn_crowd_order_field, _move and _path do). */
  CAIRN_ARRIVAL_DEFAULT = 0,
  /** It arrives as with STOP, then leaves the bins: no longer a body
   * others avoid or push, found by no query (a horde agent through its
   * gate). It stays a live agent, state CAIRN_AGENT_ARRIVED. */
  CAIRN_ARRIVAL_LEAVE,
  /** It stops where it arrives and remains a body: a field follower on a
   * goal cell or next to one, a path follower within 0.4 cells of its
   * goal point (its formation point in a group) or within 2 cells of it
   * after 10 ticks without progress. Pushed off, it stands where pushed. */
  CAIRN_ARRIVAL_STOP,
  /** It arrives as with STOP, or once it has made no progress for 10
   * ticks (others stand in the way) within three quarters of the order's
   * arrival_radius of the goal, growing to all of it over the next 50
   * ticks (the field's cost for fields, in straight and diagonal steps;
   * the straight distance to the goal cell's centre for paths). It
   * remains a body others avoid and push, and leans towards the goal at
   * 0.08 cells per second, so the group packs into a round cluster of
   * touching discs around the goal; pushed out of the radius, it walks
   * back in (never into a wall). */
  CAIRN_ARRIVAL_STAY
} cairn_arrival;

/** How agents avoid one another (cairn_crowd_opts.avoidance). */
typedef enum cairn_avoidance {
  /** cairn's steering: separation, a look 1.5 s ahead, slowing behind a
   * close agent that goes first; cheap, tuned for dense hordes on fields,
   * and discs may press into each other in a crush. */
  CAIRN_AVOID_STEER = 0,
  /** Optimal reciprocal collision avoidance (ORCA, the method of RVO2):
   * each of the orca_neighbours nearest agents within neighbour_radius
   * rules out the velocities that would meet it within orca_horizon
   * seconds, each side taking half the avoiding, and the agent takes the
   * allowed velocity nearest the one it wants. Discs keep apart; a tick
   * costs more. Give it room to see: neighbour_radius and bin_size 3
   * (the measured setting, docs/crowd.md). Walls are not in its program:
   * the wall slides keep discs out of them. */
  CAIRN_AVOID_ORCA = 1
} cairn_avoidance;

/** The most neighbours ORCA weighs (cairn_crowd_opts.orca_neighbours). */
#define CAIRN_CROWD_MAX_ORCA 64

/** Options of a crowd (cairn_crowd_defaults gives them). */
typedef struct cairn_crowd_opts {
  uint32_t max_agents;       /**< slots (1..CAIRN_CROWD_MAX_AGENTS; default 1024) */
  float dt;                  /**< seconds per tick (default 0.1) */
  float bin_size;            /**< bin side in cells (default 1) */
  float neighbour_radius;    /**< neighbours within this many cells
                                count (default 1, at most bin_size) */
  /** Where the tick's passes (and the crowd's field builds) run: the
   * caller's job system (cairn_jobs, cairn/core.h; it must outlive the
   * crowd), or NULL for a pool the crowd owns with `threads` threads
   * (0 = every core, 1 = the calling thread alone). */
  const cairn_jobs *jobs;
  int threads; /**< pool threads when jobs is NULL (see jobs) */
  int chunk;                 /**< agents a steering task takes (default 256;
                                counting, placing and committing tasks
                                take 16 times as many) */
  uint64_t path_budget;      /**< node expansions per tick (default 20000) */
  uint32_t waypoints;        /**< waypoints kept per agent (default 16) */
  uint32_t stuck_ticks;      /**< ticks without progress before a repath
                                (default 30) */
  size_t field_cache_bytes;  /**< flow cache budget (default 256 MiB) */
  const cairn_grid *route_grid; /**< fields and paths planned here (same size
                                   and walls as the walk grid); NULL = the
                                   walk grid */
  /** A cost layer over the route grid (torchlight, danger: an influence
   * map's penalty layer) that the fields and paths honour; NULL = none.
   * It must outlive the crowd; after writing to it, call
   * cairn_crowd_layer_changed before the next tick. */
  const cairn_penalty *penalty;
  /** Stopped units (idle, arrived, unreachable) within this many cells
   * (Chebyshev) of a unit whose path is planned block that search (the
   * adjacent-unit rule), the grid untouched; the goal cell never. A search
   * they leave without a path runs again without them. 0 = off; default 2. */
  int32_t avoid_radius;
  /** Claimed nodes for per-unit path orders (cairn_crowd_order_path): each
   * unit claims the cells of its path still ahead, until claim_ticks after
   * it planned or last passed a waypoint, and another unit's search pays
   * claim_penalty straight steps per claim within claim_radius cells of
   * it. 0 (default) = no claims. Group moves share one path and claim
   * nothing. */
  float claim_penalty;     /**< 0..1000 */
  int32_t claim_radius;    /**< >= 0, 0 = any distance; default 16 */
  uint32_t claim_ticks;    /**< >= 1; default 300 */
  /** Plan paths over this hierarchy (built on the route grid, kept fresh by
   * the caller: cairn_hpa_edit after map edits, cairn_hpa_set_layer with
   * opts.penalty) instead of A* on the grid; NULL = A*. The plan is one
   * step (its abstract search cannot be cut) and the refinement goes one
   * abstract edge at a time under the budget: units start along the first
   * refined edges while the rest is refined. A plan that overruns a tick's
   * budget is paid back from the next ticks' budgets. Per-unit orders with
   * claims, and the stopped-unit rule, need A*: those requests use it. */
  const cairn_hpa *hpa;
  /** Shared routes (cairn/path_cache.h) for the path requests: a request
   * first asks the cache's stored routes (cairn_path_cache_lookup: a walk
   * along one, or a join within its join radius), and only on a miss
   * searches as it would without one (A* in slices, or the hierarchy); an
   * A* path found on a miss is handed to the cache (cairn_path_cache_store)
   * for the units after it, a hierarchy's route is not (it is not exact).
   * So soldiers sent from one barracks to one gate in waves search once,
   * and routes saved with a hierarchy (cairn_hpa_save_with_routes) ship
   * precalculated. The cache is the caller's: made on the route grid with
   * 8 moves, no bounds and this crowd's penalty layer (else CAIRN_ERR_ARG
   * at create); it serves the requests of units of its own unit size, on
   * trips of at least twice its join radius (octile cells: a join's search
   * costs about what a shorter trip's does), that pay no claims of their
   * own and have no stopped unit in the way (the others search). A joined path carries the cache's stated excess (set
   * its max_excess to bound it, 0 for exact paths only). The crowd reports
   * its grid_changed cells to the cache; changes to the layer are the
   * caller's to report (cairn_path_cache_edited), as for any user of the
   * cache. It must outlive the crowd, and like the hierarchy be in the same
   * state when a save is loaded (cairn_path_cache_save and _load beside
   * the crowd's). NULL (default): none. */
  cairn_path_cache *path_cache;
  /** Room for events (cairn_crowd_events), allocated at create: 0 records
   * none, at most CAIRN_CROWD_MAX_EVENTS; default 4096. When it is full,
   * further events are counted (cairn_crowd_stats.events_lost), not kept. */
  uint32_t max_events;
  /** Congestion-aware fields (the density term of Treuille, Cooper and
   * Popovic's Continuum Crowds, as a cost): every density_ticks ticks the
   * crowd counts its bodies in each cell's 3 x 3 block, and the fields it
   * follows pay density_gain straight steps per cell entered for each
   * agent a cell the block's mean holds above density_comfort, on top of
   * opts.penalty. The fields are repaired in place, so a packed approach
   * grows dearer than a free one a little further and a horde spreads
   * over a gate's width, over the gates of a wall and over parallel
   * streets. Paths (A*, the hierarchy) do not pay it: a long path would
   * be planned on a crowd long gone. Deterministic at any thread count
   * (cairn_crowd_density reads it). 0 (default) = off; at most 100. */
  float density_gain;
  float density_comfort;  /**< agents a cell that cost nothing: 0..16
                             (default 1) */
  uint32_t density_ticks; /**< ticks between updates: 1..1000 (default 10) */
  cairn_avoidance avoidance; /**< how agents avoid one another (default
                                CAIRN_AVOID_STEER) */
  float orca_horizon;        /**< ORCA: seconds ahead a neighbour counts,
                                (0, 20] (default 3) */
  uint32_t orca_neighbours;  /**< ORCA: the nearest agents weighed,
                                1..CAIRN_CROWD_MAX_ORCA (default 6) */
} cairn_crowd_opts;

/** The default options (the values the fields name).
 * @return the defaults (1,024 agents, dt 0.1 s, bins of 1 cell, ...) */
CAIRN_CROWD_API cairn_crowd_opts cairn_crowd_defaults(void);

/** A crowd of agents (see the overview). */
typedef struct cairn_crowd cairn_crowd;

/** Checks what cairn_crowd_create checks before it allocates: the options
 * in their ranges, the job system, the route grid (same size and walls as
 * the walk grid) and the penalty layer (the grid's size).
 * @param[in] grid the walk grid
 * @param[in] opts options, or NULL for the defaults
 * @param[out] detail room for the refusal's detail (a line such as
 * "opts.dt 0 is not in (0, 1] seconds"; "" when all is well), or NULL
 * @param[in] cap bytes detail can hold (the detail is cut to fit)
 * @return CAIRN_OK, or the CAIRN_ERR_ARG cairn_crowd_create would answer */
CAIRN_CROWD_API cairn_status cairn_crowd_check(const cairn_grid *grid,
                                               const cairn_crowd_opts *opts, char *detail,
                                               size_t cap);

/** Creates a crowd on a walk grid.
 * @param[in] grid the walk grid (kept: it must outlive the crowd)
 * @param[in] opts options
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the crowd
 * @return CAIRN_OK; CAIRN_ERR_ARG for bad options or a route grid that
 * differs from the walk grid in size or walls (cairn_crowd_check says
 * which); CAIRN_ERR_NOMEM */
CAIRN_CROWD_API cairn_status cairn_crowd_create(const cairn_grid *grid,
                                const cairn_crowd_opts *opts,
                                const cairn_allocator *alloc,
                                cairn_crowd **out);
/** Destroys a crowd. NULL is ignored.
 * @param[in] c the crowd, or NULL */
CAIRN_CROWD_API void cairn_crowd_destroy(cairn_crowd *c);

/** Why the last refused call on the crowd was refused: a short line
 * naming the value and the rule ("agents[3]: stale handle (the agent of
 * slot 7 was removed)", "goal 300,12 is off the 256x256 grid"). Every call
 * that takes a non-const crowd sets it when it fails and empties it when
 * it succeeds; calls on a const crowd (reads, export, queries) leave it.
 * @param[in] c the crowd, or NULL
 * @return the detail ("" after a call that succeeded); valid until the
 * next call on the crowd; never NULL */
CAIRN_CROWD_API const char *cairn_crowd_error(const cairn_crowd *c);

/** A new agent. */
typedef struct cairn_agent_params {
  /** @{ */
  float x, y;        /**< position in cells: the whole disc on the grid
                          and off blocked cells */
  /** @} */
  /** CAIRN_CROWD_MIN_RADIUS .. CAIRN_CROWD_MAX_RADIUS, and at most half of
   * opts.bin_size (touching discs in neighbouring bins). It says the
   * agent's unit size, ceil(2 radius) cells a side (cairn_search_opts.size):
   * the size of the fields and paths it follows. */
  float radius;
  float max_speed;   /**< cells per second, > 0, under 0.95 / dt */
  uint16_t faction;  /**< the caller's label, kept */
  /** The caller's value (an entity id, an index, a pointer's bits): kept,
   * never read by the crowd, reported wherever the agent is (its info,
   * export, queries, events); cairn_crowd_set_user changes it. Last, so a
   * positional initialiser without it gives 0. */
  uint64_t user;
} cairn_agent_params;

/** Adds an agent. The agent starts idle.
 * @param[in,out] c the crowd
 * @param[in] p the agent's position and parameters
 * @param[out] out its handle
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL, non-finite or out-of-range
 * values, CAIRN_ERR_RANGE off the grid, CAIRN_ERR_BLOCKED on a blocked
 * cell, CAIRN_ERR_TOO_LARGE when every slot is taken */
CAIRN_CROWD_API cairn_status cairn_crowd_add(cairn_crowd *c, const cairn_agent_params *p,
                             cairn_agent *out);
/** Removes an agent; its handle goes stale.
 * @param[in,out] c the crowd
 * @param[in] a the agent
 * @return CAIRN_OK; CAIRN_ERR_STALE for a stale handle, CAIRN_ERR_ARG for
 * one that never named a slot (or NULL) */
CAIRN_CROWD_API cairn_status cairn_crowd_remove(cairn_crowd *c, cairn_agent a);
/** Live agents.
 * @param[in] c the crowd
 * @return the agent count */
CAIRN_CROWD_API uint32_t cairn_crowd_count(const cairn_crowd *c);

/** An agent as it is now. */
typedef struct cairn_agent_info {
  /** @{ */
  float x, y, vx, vy, radius, max_speed; /**< position (cells), velocity
                                            (cells per second), radius,
                                            top speed */
  /** @} */
  uint16_t faction;        /**< as given */
  cairn_order_kind order;  /**< the order it follows */
  cairn_agent_state state; /**< what it is doing */
  uint32_t group; /**< 0 for none */
  uint64_t user;  /**< the caller's value (cairn_agent_params.user) */
  /** How it ends its order (LEAVE, STOP or STAY: DEFAULT resolved; STOP
   * for orders without an arrival). An agent arrived under LEAVE is out of
   * the bins: no body, found by no query. */
  cairn_arrival arrival;
  float arrival_radius; /**< STAY: the radius it stays within, else 0 */
} cairn_agent_info;

/** Reads an agent.
 * @param[in] c the crowd
 * @param[in] a the agent
 * @param[out] out its state
 * @return CAIRN_OK; CAIRN_ERR_STALE for a stale handle, CAIRN_ERR_ARG */
CAIRN_CROWD_API cairn_status cairn_crowd_get(const cairn_crowd *c, cairn_agent a,
                             cairn_agent_info *out);
/** Teleports an agent (same checks as add); velocity reset.
 * @param[in,out] c the crowd
 * @param[in] a the agent
 * @param[in] x new position, in cells
 * @param[in] y new position, in cells
 * @return CAIRN_OK, the refusals of cairn_crowd_add, CAIRN_ERR_STALE for a
 * stale handle */
CAIRN_CROWD_API cairn_status cairn_crowd_set_position(cairn_crowd *c, cairn_agent a, float x,
                                      float y);

/** Sets an agent's user value (cairn_agent_params.user).
 * @param[in,out] c the crowd
 * @param[in] a the agent
 * @param[in] user the value
 * @return CAIRN_OK, CAIRN_ERR_STALE for a stale handle, CAIRN_ERR_ARG */
CAIRN_CROWD_API cairn_status cairn_crowd_set_user(cairn_crowd *c, cairn_agent a,
                                                  uint64_t user);

/* ---- edits ---------------------------------------------------------- */

/** After the caller changed n cells of the walk grid (and the route grid,
 * keeping them equal in walls): islands are refreshed, the fields of the
 * crowd's cache repaired (the caller's own fields, cairn_order.field, are
 * the caller's to repair: cairn_field_repair), agents whose cell closed
 * moved to the nearest open cell, and every path-following agent repaths
 * (CAIRN_EVENT_REPATHED).
 * @param[in,out] c the crowd
 * @param[in] cells the cells that changed
 * @param[in] n number of cells
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_RANGE, CAIRN_ERR_NOMEM */
CAIRN_CROWD_API cairn_status cairn_crowd_grid_changed(cairn_crowd *c, const cairn_point *cells,
                                      size_t n);

/** After the caller wrote to opts.penalty: the fields the crowd holds
 * follow the layer, and searches read it from the next tick.
 * @param[in,out] c the crowd
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
CAIRN_CROWD_API cairn_status cairn_crowd_layer_changed(cairn_crowd *c);

/* ---- tick ----------------------------------------------------------- */

/** Serves the path queue under its budget, then moves every agent one
 * tick. CAIRN_ERR_ARG for NULL. CAIRN_ERR_NOMEM when a path search could
 * not get memory: the rest of the tick ran, the request stays at the head
 * of the queue and is tried again next tick, and its agents keep waiting
 * (a failure never marks an agent unreachable; only a search that ends
 * without a path does).
 * @param[in,out] c the crowd
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_NOMEM */
CAIRN_CROWD_API cairn_status cairn_crowd_tick(cairn_crowd *c);

/** FNV-1a over the bit patterns of every live agent's position, velocity,
 * state and order, in slot order, plus the tick number.
 * @param[in] c the crowd
 * @return the hash */
CAIRN_CROWD_API uint64_t cairn_crowd_hash(const cairn_crowd *c);

/** A crowd's figures. */
typedef struct cairn_crowd_stats {
  uint64_t ticks;          /**< ticks run */
  uint32_t agents;         /**< live agents */
  uint32_t active;         /**< agents the last tick moved (all but the
                              horde agents that arrived) */
  /** @{ */
  uint32_t moving, waiting, arrived, unreachable; /**< agents in each state */
  /** @} */
  uint32_t stuck;          /**< stuck repathing, or moving without progress
                              for more than opts.stuck_ticks */
  uint64_t overlaps;       /**< last tick: agents whose disc overlaps another
                              by more than half its radius */
  uint64_t in_wall;        /**< last tick: agents whose disc overlaps a
                              blocked cell (0 by construction: the tick
                              keeps each disc's bounding square out) */
  uint64_t non_finite;     /**< last tick: agents with a non-finite position */
  uint64_t repaths;        /**< stuck repaths so far */
  uint64_t events_lost;    /**< events not recorded: the ring was full */
  /* path queue */
  uint32_t queued;         /**< requests waiting or in progress */
  uint64_t tick_nodes;     /**< expansions spent in the last tick */
  uint64_t max_tick_nodes; /**< the most spent in any tick */
  uint64_t served;         /**< requests finished */
  uint64_t wait_hist[257]; /**< served requests by ticks waited (256 = more) */
  /** Nanoseconds spent planning since create: the path queue's searches in
   * every tick and the fields orders built or shared (a monotonic clock:
   * it varies run to run, so it is neither saved nor hashed). */
  uint64_t plan_ns;
} cairn_crowd_stats;

/** Fills `*out` with the crowd's figures.
 * @param[in] c the crowd
 * @param[out] out the figures */
CAIRN_CROWD_API void cairn_crowd_get_stats(const cairn_crowd *c, cairn_crowd_stats *out);

/** Bytes the crowd holds (its fields and search context included).
 * @param[in] c the crowd
 * @return its memory in bytes */
CAIRN_CROWD_API size_t cairn_crowd_memory(const cairn_crowd *c);

#ifdef __cplusplus
}
#endif

/* the families of calls on a crowd, a header each */
#include "cairn/crowd_orders.h"
#include "cairn/crowd_read.h"
#include "cairn/crowd_events.h"
#include "cairn/crowd_replay.h"
#include "cairn/crowd_save.h" /* saving and loading a crowd's state */

#endif
