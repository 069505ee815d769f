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
 * and leaves a short detail, cairn_crowd_error (such as "radius 0.8 is not
 * in [0.05, 0.5]"); cairn_crowd_check says why options would be refused
 * before there is a crowd to ask.
 *
 * Tick (cairn_crowd_tick): 1. the path queue serves waiting requests
 * oldest first until opts.path_budget node expansions are spent (a search
 * that runs out resumes next tick); 2. every live agent is counted into a
 * uniform grid of bins (a counting sort run in parallel, whose order is
 * the sequential one: by bin, slots ascending within a bin), and the
 * state the steering reads is gathered in that order; 3. a read-only pass
 * computes each agent's next position, velocity and state from the
 * current ones alone; 4. the commit, in parallel but for path requests,
 * which are queued in bin order. Each agent's next state is a function of
 * the current state read in a fixed order, so the result is bit for bit
 * the same at any worker count and under any scheduler
 * (cairn_crowd_hash). No -ffast-math.
 *
 * Steering: the order's direction (the field's cairn_field_sample, or the
 * next waypoint) at max speed, slowed behind close agents ahead, plus
 * separation from overlapping neighbours, plus a predictive term that
 * sidesteps agents on a collision course (each to its own right, so
 * head-on pairs pass), plus a push away from walls within the radius. The
 * move is resolved one axis at a time against the grid, each step under
 * one cell: an agent's centre never enters a blocked cell.
 *
 * Orders: a horde order gives agents one shared field to a goal set (the
 * flow-field cache: one field per goal set, held while agents use it); an
 * agent on a goal cell or next to one arrives. A move order queues one path
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
 * CAIRN_AGENT_UNREACHABLE.
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
 * workers of opts.jobs). A tick allocates nothing, with one exception:
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

/** Most agent slots a crowd may have. */
#define CAIRN_CROWD_MAX_AGENTS (1u << 24)
/** Most events a crowd may hold (cairn_crowd_opts.max_events). */
#define CAIRN_CROWD_MAX_EVENTS (1u << 24)

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
  CAIRN_ORDER_DRIVEN  /**< the game sets its velocity (cairn_crowd_drive) */
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
  /** Room for events (cairn_crowd_events), allocated at create: 0 records
   * none, at most CAIRN_CROWD_MAX_EVENTS; default 4096. When it is full,
   * further events are counted (cairn_crowd_stats.events_lost), not kept. */
  uint32_t max_events;
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
  float x, y;        /**< position in cells: must be on a passable cell */
  /** @} */
  float radius;      /**< 0.05..0.5 */
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

/* ---- reading in bulk ------------------------------------------------ */

/** The caller's arrays cairn_crowd_export fills, one per quantity; any
 * may be NULL (not written). Each holds `cap` agents' worth. */
typedef struct cairn_crowd_arrays {
  float *pos;    /**< x, y of each agent: 2 floats an agent, in cells */
  float *vel;    /**< vx, vy: 2 floats an agent, in cells per second */
  float *radius; /**< radius, in cells */
  cairn_agent_state *state; /**< what each is doing */
  cairn_agent *agent;       /**< handles */
  uint64_t *user;           /**< user values */
} cairn_crowd_arrays;

/** Every live agent into the caller's arrays, in slot order (the order of
 * cairn_crowd_hash; an agent keeps its place while no agent is added or
 * removed): for a renderer, one call a frame instead of one
 * cairn_crowd_get an agent. Each value is what cairn_crowd_get gives.
 * Horde agents that went through their gate are live agents too (state
 * CAIRN_AGENT_ARRIVED). O(slots used); allocates nothing.
 * @param[in] c the crowd
 * @param[out] out the arrays (any of its pointers NULL)
 * @param[in] cap agents each array can hold
 * @param[out] n the live agents (written also when cap is too small)
 * @return CAIRN_OK; CAIRN_ERR_BUFFER when cap < *n (nothing written);
 * CAIRN_ERR_ARG for NULL c, out or n */
CAIRN_CROWD_API cairn_status cairn_crowd_export(const cairn_crowd *c,
                                                const cairn_crowd_arrays *out, size_t cap,
                                                size_t *n);

/** An agent a spatial query found. */
typedef struct cairn_crowd_hit {
  cairn_agent agent; /**< its handle */
  uint64_t user;     /**< its user value */
  /** @{ */
  float x, y; /**< its position, in cells */
  /** @} */
} cairn_crowd_hit;

/** The agents whose centre is within r of (x, y) (dx * dx + dy * dy <=
 * r * r, in float), in slot order. Exact: each candidate is tested at its
 * current position. The candidates come from the last tick's bins (a box
 * of bins around the disc, one cell wider for the moves since the bins
 * were counted) and the agents added, moved by cairn_crowd_set_position,
 * moved off a closed cell by cairn_crowd_grid_changed or made bodies again
 * by an order since that tick, so the answer holds at any time between
 * ticks. Only bodies are found: a horde agent that arrived went through
 * its gate and is in none. When more than cap agents match, the cap with
 * the lowest slots are written, *n counts them all, and the call answers
 * CAIRN_ERR_BUFFER. O(bins and agents in the box); allocates nothing.
 * @param[in] c the crowd
 * @param[in] x centre, in cells
 * @param[in] y centre, in cells
 * @param[in] r radius, in cells (finite, >= 0)
 * @param[out] out room for cap hits (NULL when cap is 0: count only)
 * @param[in] cap hits out can hold
 * @param[out] n the agents that match (all of them, also past cap)
 * @return CAIRN_OK; CAIRN_ERR_BUFFER when *n > cap; CAIRN_ERR_ARG for
 * NULL c or n, out NULL with cap > 0, non-finite values or r < 0 */
CAIRN_CROWD_API cairn_status cairn_crowd_query_radius(const cairn_crowd *c, float x, float y,
                                                      float r, cairn_crowd_hit *out,
                                                      size_t cap, size_t *n);
/** The agents whose centre is in the rectangle x0 <= x <= x1, y0 <= y <= y1,
 * in slot order; otherwise as cairn_crowd_query_radius.
 * @param[in] c the crowd
 * @param[in] x0 left edge, in cells
 * @param[in] y0 top edge, in cells
 * @param[in] x1 right edge (>= x0)
 * @param[in] y1 bottom edge (>= y0)
 * @param[out] out room for cap hits (NULL when cap is 0: count only)
 * @param[in] cap hits out can hold
 * @param[out] n the agents that match (all of them, also past cap)
 * @return CAIRN_OK; CAIRN_ERR_BUFFER when *n > cap; CAIRN_ERR_ARG for
 * NULL c or n, out NULL with cap > 0, non-finite values, x0 > x1 or
 * y0 > y1 */
CAIRN_CROWD_API cairn_status cairn_crowd_query_rect(const cairn_crowd *c, float x0, float y0,
                                                    float x1, float y1, cairn_crowd_hit *out,
                                                    size_t cap, size_t *n);

/* ---- orders (any handle refused leaves every agent unchanged) ------- */

/** Most fields followed at once: goal sets of the crowd's cache and the
 * caller's fields together. */
#define CAIRN_CROWD_MAX_FIELDS 64


/** An order (cairn_order_defaults gives a hold order): one call for every
 * kind of order, its arrival included. */
typedef struct cairn_order {
  cairn_order_kind kind;     /**< what the agents follow (default HOLD) */
  /** FIELD: the goal cells of a field the crowd's cache builds and shares
   * (n_goals of them); NULL when `field` is given. */
  const cairn_point *goals;
  size_t n_goals;            /**< FIELD: number of goals */
  /** FIELD: a field the caller built (cairn_field_build) or holds, on the
   * crowd's route grid (its size is checked: CAIRN_ERR_ARG otherwise),
   * instead of goals. The crowd shares it between the agents and never
   * builds, repairs or frees it: the caller keeps it alive and unchanged
   * while agents follow it, and after cairn_crowd_grid_changed (or a
   * change of the cost layer) repairs it itself (cairn_field_repair). */
  const cairn_field *field;
  cairn_point goal;          /**< PATH: the goal cell */
  /** PATH: 1 (default) = one path for the group, members in formation
   * (cairn_crowd_order_move); 0 = a path for each (cairn_crowd_order_path). */
  int group;
  uint64_t seed;             /**< WANDER: the random walk's seed */
  /** @{ */
  float vx, vy; /**< DRIVEN: the velocity, as cairn_crowd_drive */
  /** @} */
  cairn_arrival arrival;     /**< FIELD and PATH: how they end it (default
                                CAIRN_ARRIVAL_DEFAULT); other kinds ignore it */
  /** CAIRN_ARRIVAL_STAY: the radius around the goal (cells, >= 0, finite);
   * 0 (default) = the crowd chooses it for every agent staying at that
   * goal (the same goal cell for paths, the same field for fields) with a
   * radius it chose, this call's and earlier ones': their discs packed at
   * a density of 0.5 fill three quarters of it, sqrt(sum of r^2 / 0.5) /
   * 0.75, at least 1 cell (300 agents of radius 0.3: 9.8 cells); each
   * order sending more agents there grows it for all. O(slots) then. */
  float arrival_radius;
} cairn_order;

/** A hold order: kind CAIRN_ORDER_HOLD, group 1, arrival DEFAULT, every
 * other field 0 or NULL.
 * @return the defaults */
CAIRN_CROWD_API cairn_order cairn_order_defaults(void);

/** Gives the agents an order. Refusals change no agent: a refused handle,
 * o NULL, a kind or arrival out of its enum, a negative or non-finite
 * arrival_radius, FIELD with both or neither of field and goals, a
 * caller's field of another size than the route grid, a bad PATH goal, a
 * bad DRIVEN velocity (as cairn_crowd_drive), every field slot taken, the
 * cache's build refused. With n 0 the order is checked and nothing
 * happens (no field built).
 * @param[in,out] c the crowd
 * @param[in] agents the agents ordered (NULL when n is 0)
 * @param[in] n number of agents
 * @param[in] o the order
 * @return CAIRN_OK; CAIRN_ERR_STALE / CAIRN_ERR_ARG for a refused handle;
 * CAIRN_ERR_ARG; CAIRN_ERR_RANGE / CAIRN_ERR_BLOCKED for a path's goal;
 * CAIRN_ERR_TOO_LARGE (CAIRN_CROWD_MAX_FIELDS fields followed already);
 * the field build's refusals (cairn_flow_cache_acquire) */
CAIRN_CROWD_API cairn_status cairn_crowd_order(cairn_crowd *c, const cairn_agent *agents,
                                               size_t n, const cairn_order *o);

/** Drives an agent: from the next tick on the crowd moves it by exactly
 * (vx, vy) * dt each tick and never changes that velocity: no steering,
 * no separation, no push; the move is resolved one axis at a time against
 * the walls (an axis that would enter a blocked cell is not moved, the
 * velocity still reads back as set), so its centre never enters a wall.
 * Other agents see it in the bins like any body, avoid it and give way
 * to it. Call it again to change the velocity (each tick if need be);
 * the first call drops the agent's order (CAIRN_ORDER_DRIVEN from then
 * on), another order ends the driving. State: MOVING, or IDLE while the
 * velocity is 0.
 * @param[in,out] c the crowd
 * @param[in] a the agent
 * @param[in] vx velocity, cells per second
 * @param[in] vy velocity, cells per second
 * @return CAIRN_OK; CAIRN_ERR_STALE / CAIRN_ERR_ARG for a refused handle;
 * CAIRN_ERR_ARG for a non-finite velocity or one that moves more than
 * 0.9 cells an axis in a tick (|vx| * dt or |vy| * dt above 0.9) */
CAIRN_CROWD_API cairn_status cairn_crowd_drive(cairn_crowd *c, cairn_agent a, float vx,
                                               float vy);
/** Every agent follows the one field to these goals (cache-shared). At most
 * CAIRN_CROWD_MAX_FIELDS fields are followed at once: one more is
 * CAIRN_ERR_TOO_LARGE, no agent changed. Arrived agents leave
 * (CAIRN_ARRIVAL_LEAVE): cairn_crowd_order with kind CAIRN_ORDER_FIELD
 * and these goals.
 * @param[in,out] c the crowd
 * @param[in] agents the agents ordered
 * @param[in] n number of agents
 * @param[in] goals the goal cells
 * @param[in] n_goals number of goals
 * @return CAIRN_OK; CAIRN_ERR_TOO_LARGE; CAIRN_ERR_STALE / CAIRN_ERR_ARG for
 * a refused handle; CAIRN_ERR_ARG for NULL or bad goals; the field
 * build's refusals (cairn_flow_cache_acquire) */
CAIRN_CROWD_API cairn_status cairn_crowd_order_field(cairn_crowd *c, const cairn_agent *agents,
                                     size_t n, const cairn_point *goals,
                                     size_t n_goals);
/** One path for the group, from its first agent to goal; members keep their
 * offsets from the group's centre (in formation) where there is room.
 * Arrived agents stop (CAIRN_ARRIVAL_STOP): cairn_crowd_order with kind
 * CAIRN_ORDER_PATH, group 1.
 * @param[in,out] c the crowd
 * @param[in] agents the group
 * @param[in] n number of agents
 * @param[in] goal the goal cell
 * @return CAIRN_OK; CAIRN_ERR_STALE / CAIRN_ERR_ARG for a refused handle,
 * CAIRN_ERR_ARG for NULL, CAIRN_ERR_RANGE / CAIRN_ERR_BLOCKED for the goal */
CAIRN_CROWD_API cairn_status cairn_crowd_order_move(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n, cairn_point goal);
/** Each agent plans its own path to goal (cairn_crowd_order with kind
 * CAIRN_ORDER_PATH, group 0).
 * @param[in,out] c the crowd
 * @param[in] agents the agents ordered
 * @param[in] n number of agents
 * @param[in] goal the goal cell
 * @return as cairn_crowd_order_move */
CAIRN_CROWD_API cairn_status cairn_crowd_order_path(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n, cairn_point goal);
/** The agents stop and hold.
 * @param[in,out] c the crowd
 * @param[in] agents the agents ordered
 * @param[in] n number of agents
 * @return CAIRN_OK; CAIRN_ERR_STALE / CAIRN_ERR_ARG for a refused handle or
 * NULL */
CAIRN_CROWD_API cairn_status cairn_crowd_order_hold(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n);
/** The agents walk at random, from seed (the same seed, the same walk).
 * @param[in,out] c the crowd
 * @param[in] agents the agents ordered
 * @param[in] n number of agents
 * @param[in] seed the random seed
 * @return as cairn_crowd_order_hold */
CAIRN_CROWD_API cairn_status cairn_crowd_order_wander(cairn_crowd *c, const cairn_agent *agents,
                                      size_t n, uint64_t seed);

/** After the caller changed n cells of the walk grid (and the route grid,
 * keeping them equal in walls): islands are refreshed, fields repaired,
 * and every path-following agent repaths.
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
  uint64_t in_wall;        /**< last tick: agents whose centre is on a
                              blocked cell (0 by construction) */
  uint64_t non_finite;     /**< last tick: agents with a non-finite position */
  uint64_t repaths;        /**< stuck repaths so far */
  uint64_t events_lost;    /**< events not recorded: the ring was full */
  /* path queue */
  uint32_t queued;         /**< requests waiting or in progress */
  uint64_t tick_nodes;     /**< expansions spent in the last tick */
  uint64_t max_tick_nodes; /**< the most spent in any tick */
  uint64_t served;         /**< requests finished */
  uint64_t wait_hist[257]; /**< served requests by ticks waited (256 = more) */
} cairn_crowd_stats;

/* ---- events --------------------------------------------------------- */

/** What happened to an agent. */
typedef enum cairn_crowd_event_kind {
  CAIRN_EVENT_ARRIVED = 1, /**< it took the state CAIRN_AGENT_ARRIVED */
  CAIRN_EVENT_STUCK,       /**< no progress for opts.stuck_ticks: a path
                              follower then repaths (CAIRN_EVENT_REPATHED
                              follows), a horde agent keeps pushing */
  CAIRN_EVENT_UNREACHABLE, /**< it took the state CAIRN_AGENT_UNREACHABLE */
  CAIRN_EVENT_REPATHED,    /**< it asked for a path of its own, not by an
                              order: stuck, or its path went stale in
                              cairn_crowd_grid_changed */
  CAIRN_EVENT_REMOVED      /**< cairn_crowd_remove (the handle is stale) */
} cairn_crowd_event_kind;

/** One event. */
typedef struct cairn_crowd_event {
  cairn_agent agent;           /**< the agent's handle */
  uint64_t user;               /**< its user value then */
  uint64_t tick;               /**< the tick it happened in (1 for the
                                  first tick), or the ticks run so far for
                                  a call between ticks */
  cairn_crowd_event_kind kind; /**< what happened */
} cairn_crowd_event;

/** Takes the oldest events, up to cap, out of the crowd's ring (sized by
 * opts.max_events at create; a tick allocates nothing). Events are
 * recorded in the order they happen, the same at any thread count: calls
 * between ticks (removals, grid_changed's repaths) in call order; in a
 * tick, first the path queue's (a path not found: unreachable; a path
 * from the goal itself: arrived) in request order, then the steering's in
 * the tick's bin order (bins row by row, slots ascending within a bin),
 * each agent's arrived, unreachable or stuck before its repath. An agent
 * gives CAIRN_EVENT_ARRIVED each time it takes the state, so once per
 * order that gets it there. Drain after each tick (or each few): a full
 * ring keeps the oldest and counts the rest in
 * cairn_crowd_stats.events_lost.
 * @param[in,out] c the crowd
 * @param[out] out room for cap events (NULL when cap is 0)
 * @param[in] cap events out can hold
 * @param[out] n the events taken (the rest stay for the next call)
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL c or n, or out NULL with
 * cap > 0 (nothing taken) */
CAIRN_CROWD_API cairn_status cairn_crowd_events(cairn_crowd *c, cairn_crowd_event *out,
                                                size_t cap, size_t *n);
/** Events waiting to be taken.
 * @param[in] c the crowd, or NULL (0)
 * @return the count */
CAIRN_CROWD_API size_t cairn_crowd_events_pending(const cairn_crowd *c);

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
#endif
