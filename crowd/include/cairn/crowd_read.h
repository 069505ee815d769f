/**
 * @file cairn/crowd_read.h
 * @brief Reading a crowd in bulk: every live agent into the caller's arrays (cairn_crowd_export), and the agents within a radius or a rectangle (spatial queries). Part of cairn/crowd.h.
 */
#ifndef CAIRN_CROWD_READ_H
#define CAIRN_CROWD_READ_H

#include "cairn/crowd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the congestion layer -------------------------------------------- */

/** The density part of the cost the crowd's fields pay
 * (cairn_crowd_opts.density_gain), per cell in cost units
 * (CAIRN_COST_ONE a straight step), laid out as cairn_grid_cells (padded,
 * stride width + 2, border cells 0): what the last update (every
 * opts.density_ticks ticks, at the start of a tick) made of the bodies
 * then. Valid until the crowd is destroyed; ticks and loads change it.
 * @param[in] c the crowd
 * @param[out] stride values from one padded row to the next (may be NULL)
 * @return the values, or NULL when density is off (or c is NULL) */
CAIRN_CROWD_API const uint32_t *cairn_crowd_density(const cairn_crowd *c, int32_t *stride);
/** The cost layer the crowd's fields pay: with density on, a layer the
 * crowd owns holding opts.penalty plus the density; else opts.penalty
 * (NULL without one). A field built with this layer as its penalty
 * equals the crowd's field for the same goals.
 * @param[in] c the crowd
 * @return the layer (read-only, valid until the crowd is destroyed), or
 * NULL */
CAIRN_CROWD_API const cairn_penalty *cairn_crowd_field_layer(const cairn_crowd *c);

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

#ifdef __cplusplus
}
#endif
#endif
