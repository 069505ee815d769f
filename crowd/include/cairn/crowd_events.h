/**
 * @file cairn/crowd_events.h
 * @brief A crowd's events: arrived, stuck, unreachable, repathed and removed, drained after the ticks (cairn_crowd_events). Part of cairn/crowd.h.
 */
#ifndef CAIRN_CROWD_EVENTS_H
#define CAIRN_CROWD_EVENTS_H

#include "cairn/crowd.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most events a crowd may hold (cairn_crowd_opts.max_events). */
#define CAIRN_CROWD_MAX_EVENTS (1u << 24)

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

#ifdef __cplusplus
}
#endif
#endif
