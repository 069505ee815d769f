/**
 * @file cairn/crowd_orders.h
 * @brief A crowd's orders: the general order (cairn_order, cairn_crowd_order) with its arrival, fields the caller built, driven agents, and the order calls of one kind. Part of cairn/crowd.h.
 */
#ifndef CAIRN_CROWD_ORDERS_H
#define CAIRN_CROWD_ORDERS_H

#include "cairn/crowd.h"

#ifdef __cplusplus
extern "C" {
#endif

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
   * change of the cost layer) repairs it itself (cairn_field_repair);
   * until then it reads as stale and its agents stand, unreachable. */
  const cairn_field *field;
  cairn_point goal;          /**< PATH and AUTO: the goal cell */
  /** PATH: 1 (default) = one path for the group, members in formation
   * (cairn_crowd_order_move); 0 = a path for each (cairn_crowd_order_path). */
  int group;
  uint64_t seed;             /**< WANDER: the random walk's seed */
  /** @{ */
  float vx, vy; /**< DRIVEN: the velocity, as cairn_crowd_drive */
  /** @} */
  cairn_arrival arrival;     /**< FIELD, PATH and AUTO: how they end it
                                (default CAIRN_ARRIVAL_DEFAULT; for AUTO,
                                STOP on a group path, STAY on a field or a
                                path each); other kinds ignore it */
  /** CAIRN_ARRIVAL_STAY: the radius around the goal (cells, >= 0, finite);
   * 0 (default) = the crowd chooses it for every agent staying at that
   * goal (the same goal cell for paths, the same field for fields) with a
   * radius it chose, this call's and earlier ones': their discs packed at
   * a density of 0.45 fill three quarters of it, sqrt(sum of r^2 / 0.45) /
   * 0.75, at least 1 cell (300 agents of radius 0.3: 10.3 cells); each
   * order sending more agents there grows it for all. O(slots) then. */
  float arrival_radius;
} cairn_order;

/** The ways CAIRN_ORDER_AUTO moves agents to a goal. */
typedef enum cairn_plan_way {
  CAIRN_PLAN_GROUP = 0, /**< one path for the group, in formation
                             (cairn_crowd_order_move) */
  CAIRN_PLAN_FIELD,     /**< one field to the goal, shared
                             (cairn_crowd_order_field) */
  CAIRN_PLAN_EACH       /**< a path for each agent (cairn_crowd_order_path) */
} cairn_plan_way;

/** Spread (cells, from the group's centre, the farthest agent) up to which
 * agents count as gathered: a square block of one agent a cell, 0.5
 * sqrt(n) cells each way, plus this slack. */
#define CAIRN_PLAN_GATHERED_SLACK 2.0

/** A path search costs about this many field cells per cell of trip
 * (octile distance) per agent: the measured ratio of an exact search's
 * time to a field's build time per reachable cell (docs/PERFORMANCE.md,
 * "Planning group orders"). */
#define CAIRN_PLAN_CELLS_PER_STEP 1000.0

/** The same for a crowd that plans over a hierarchy (opts.hpa): a
 * hierarchy's query (cairn_hpa_find) costs about this many field cells per
 * cell of trip, the median of six maps (docs/PERFORMANCE.md, "Planning
 * group orders"). */
#define CAIRN_PLAN_HPA_CELLS_PER_STEP 20.0

/** What CAIRN_ORDER_AUTO chooses for some agents and a goal, and why. */
typedef struct cairn_plan {
  cairn_plan_way way; /**< the choice */
  float spread;       /**< the farthest agent from the agents' centre,
                           cells (Chebyshev) */
  float trip;         /**< mean octile distance from the agents to the
                           goal, cells */
  /** What a path each would cost, in field cells: agents x trip x
   * CAIRN_PLAN_CELLS_PER_STEP, or CAIRN_PLAN_HPA_CELLS_PER_STEP when
   * `hierarchy` is 1. */
  double paths_cost;
  /** What one field costs: the route grid's open cells, or 0 when
   * `field_shared` is 1. */
  double field_cost;
  /** 1 when agents of every size among these already follow a field of
   * the crowd's to this goal alone: a field order shares it, no build. */
  int field_shared;
  /** 1 when the paths are planned over the crowd's hierarchy (opts.hpa,
   * which answers a trip within two of its clusters by plain A*: a crowd
   * with one, no claims, and agents it was built for); 0 for A* on the
   * grid. */
  int hierarchy;
} cairn_plan;

/** Chooses how to move agents to goal, as CAIRN_ORDER_AUTO does, without
 * ordering them:
 * - gathered agents (spread at most 0.5 sqrt(n) + CAIRN_PLAN_GATHERED_SLACK
 *   cells), or one agent: CAIRN_PLAN_GROUP, one search for them all;
 * - otherwise CAIRN_PLAN_FIELD when paths_cost >= field_cost (always when
 *   other agents follow a field to this goal already: field_shared), else
 *   CAIRN_PLAN_EACH.
 * Deterministic: it reads only the agents' positions and sizes, the goal,
 * the route grid, the crowd's options and the fields its agents follow
 * (which a save keeps).
 * @param[in,out] c the crowd (its error message on refusal)
 * @param[in] agents the agents
 * @param[in] n number of agents (at least 1)
 * @param[in] goal the goal cell
 * @param[out] out the choice
 * @return CAIRN_OK; CAIRN_ERR_STALE / CAIRN_ERR_ARG for a refused handle;
 * CAIRN_ERR_ARG for NULL or n 0; CAIRN_ERR_RANGE / CAIRN_ERR_BLOCKED for
 * the goal */
CAIRN_CROWD_API cairn_status cairn_crowd_plan(cairn_crowd *c, const cairn_agent *agents,
                                              size_t n, cairn_point goal, cairn_plan *out);

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
 * what sampling the caller's field answers when it cannot be read;
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

#ifdef __cplusplus
}
#endif
#endif
