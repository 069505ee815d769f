/* Orders: what agents follow (fields, the caller's or the cache's, paths,
 * holding, wandering), changing it, and the edits of the grid and the
 * cost layer that orders depend on. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

static void leave_field(cairn_crowd *c, uint32_t s) {
  uint16_t f = c->field[s];
  if (f == CROWD_NO_FIELD) return;
  c->field[s] = CROWD_NO_FIELD;
  if (--c->fields[f].users == 0) {
    cairn_flow_cache_release(c->cache, c->fields[f].field);
    c->fields[f].field = NULL;
  }
}

/* A group's request led by s, which is leaving the group, passes to
 * another member still waiting for it, so none waits for a dropped one. */
static void hand_on_request(cairn_crowd *c, uint32_t s) {
  uint32_t pos = c->req[s], g = c->group[s];
  if (pos == CROWD_NO_REQ || !g || c->ring[pos].group != g) return;
  for (uint32_t m = 0; m < c->high; m++) {
    if (m == s || !c->alive[m] || c->group[m] != g || c->order[m] != CAIRN_ORDER_PATH ||
        c->req[m] != CROWD_NO_REQ)
      continue;
    if (c->state[m] == CAIRN_AGENT_WAITING ||
        (c->state[m] == CAIRN_AGENT_MOVING && c->wp_partial[m] == WP_ASKED)) {
      cairn__crowd_request(c, m, g, c->goal[m]);
      return;
    }
  }
}

/* Drops whatever the agent was doing. */
void cairn__crowd_clear_order(cairn_crowd *c, uint32_t s) {
  /* out of the bins last tick (a horde agent gone through its gate): a
   * body again from now on, which the queries must see */
  if (c->slot_bin[s] == CROWD_NO_BIN) cairn__crowd_loosen(c, s);
  leave_field(c, s);
  hand_on_request(c, s);
  cairn__crowd_drop_request(c, s);
  cairn__crowd_unclaim(c, s);
  c->order[s] = CAIRN_ORDER_HOLD;
  c->state[s] = CAIRN_AGENT_IDLE;
  c->group[s] = 0;
  c->wp_n[s] = c->wp_i[s] = 0;
  c->wp_partial[s] = WP_WHOLE;
  c->offx[s] = c->offy[s] = 0.0f;
  c->stall[s] = 0;
  c->best[s] = INFINITY;
}

/* ---- orders --------------------------------------------------------- */

cairn_status cairn_crowd_order_field(cairn_crowd *c, const cairn_agent *agents,
                                     size_t n, const cairn_point *goals,
                                     size_t n_goals) {
  cairn_status st = cairn__crowd_handles(c, agents, n);
  if (st != CAIRN_OK) return st;
  if (!goals || !n_goals)
    return cairn__crowd_fail(c, CAIRN_ERR_ARG, "a field order needs goals (goals %s, n_goals %zu)",
                             goals ? "given" : "NULL", n_goals);
  if (!n) return cairn__crowd_ok(c);
  const cairn_field *f;
  if ((st = cairn_flow_cache_acquire(c->cache, c->builder, goals, n_goals, &f)) != CAIRN_OK)
    return cairn__crowd_fail(c, st, "the field to %zu goals: %s", n_goals,
                             cairn_status_str(st));
  /* one slot per field: the cache hands the same field for the same goals */
  uint16_t k = CROWD_NO_FIELD, free_k = CROWD_NO_FIELD;
  for (uint16_t i = 0; i < CROWD_MAX_FIELDS; i++) {
    if (c->fields[i].field == f) k = i;
    if (!c->fields[i].field && free_k == CROWD_NO_FIELD) free_k = i;
  }
  if (k == CROWD_NO_FIELD) {
    if (free_k == CROWD_NO_FIELD) {
      cairn_flow_cache_release(c->cache, f);
      return cairn__crowd_fail(c, CAIRN_ERR_TOO_LARGE,
                               "%d fields are followed already (CAIRN_CROWD_MAX_FIELDS)",
                               CROWD_MAX_FIELDS);
    }
    k = free_k;
    c->fields[k].field = f;
    c->fields[k].users = 0;
  } else {
    cairn_flow_cache_release(c->cache, f); /* the slot already holds it */
  }
  c->fields[k].users++; /* held across the loop so it cannot be released */
  for (size_t i = 0; i < n; i++) {
    uint32_t s = (uint32_t)(agents[i] & 0xffffffffu);
    cairn__crowd_clear_order(c, s);
    c->order[s] = CAIRN_ORDER_FIELD;
    c->state[s] = CAIRN_AGENT_MOVING;
    c->field[s] = k;
    c->fields[k].users++;
  }
  c->fields[k].users--;
  return cairn__crowd_ok(c);
}

static void start_path(cairn_crowd *c, uint32_t s, uint32_t group,
                       cairn_point goal) {
  cairn__crowd_clear_order(c, s);
  c->order[s] = CAIRN_ORDER_PATH;
  c->state[s] = CAIRN_AGENT_WAITING;
  c->group[s] = group;
  c->goal[s] = goal;
}

cairn_status cairn_crowd_order_path(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n, cairn_point goal) {
  cairn_status st = cairn__crowd_handles(c, agents, n);
  if (st != CAIRN_OK) return st;
  if ((st = cairn__crowd_check_goal(c, goal)) != CAIRN_OK) return st;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = (uint32_t)(agents[i] & 0xffffffffu);
    start_path(c, s, 0, goal);
    cairn__crowd_request(c, s, 0, goal);
  }
  return cairn__crowd_ok(c);
}

/* Formation: each member keeps its offset from the group's centre, scaled
 * down so the formation is no wider than about 0.6 sqrt(n) cells. */
cairn_status cairn_crowd_order_move(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n, cairn_point goal) {
  cairn_status st = cairn__crowd_handles(c, agents, n);
  if (st != CAIRN_OK) return st;
  if ((st = cairn__crowd_check_goal(c, goal)) != CAIRN_OK) return st;
  if (!n) return cairn__crowd_ok(c);
  double cx = 0, cy = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = (uint32_t)(agents[i] & 0xffffffffu);
    cx += c->x[s];
    cy += c->y[s];
  }
  cx /= (double)n;
  cy /= (double)n;
  float spread = 0.0f;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = (uint32_t)(agents[i] & 0xffffffffu);
    float d = fmaxf(fabsf(c->x[s] - (float)cx), fabsf(c->y[s] - (float)cy));
    spread = fmaxf(spread, d);
  }
  float half = 0.3f * sqrtf((float)n); /* about 0.6 cells a unit each way */
  float scale = spread > half ? half / spread : 1.0f;
  uint32_t g = c->next_group++;
  if (c->next_group == 0) c->next_group = 1;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = (uint32_t)(agents[i] & 0xffffffffu);
    start_path(c, s, g, goal);
    c->offx[s] = (c->x[s] - (float)cx) * scale;
    c->offy[s] = (c->y[s] - (float)cy) * scale;
  }
  cairn__crowd_request(c, (uint32_t)(agents[0] & 0xffffffffu), g, goal);
  return cairn__crowd_ok(c);
}

cairn_status cairn_crowd_order_hold(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n) {
  cairn_status st = cairn__crowd_handles(c, agents, n);
  if (st != CAIRN_OK) return st;
  for (size_t i = 0; i < n; i++) cairn__crowd_clear_order(c, (uint32_t)(agents[i] & 0xffffffffu));
  return cairn__crowd_ok(c);
}

cairn_status cairn_crowd_order_wander(cairn_crowd *c, const cairn_agent *agents,
                                      size_t n, uint64_t seed) {
  cairn_status st = cairn__crowd_handles(c, agents, n);
  if (st != CAIRN_OK) return st;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = (uint32_t)(agents[i] & 0xffffffffu);
    cairn__crowd_clear_order(c, s);
    c->order[s] = CAIRN_ORDER_WANDER;
    c->state[s] = CAIRN_AGENT_MOVING;
    c->seed[s] = seed ^ ((uint64_t)s * 0x9e3779b97f4a7c15ull);
  }
  return cairn__crowd_ok(c);
}

/* Moves an agent whose cell became blocked to the nearest open cell centre
 * (rings of growing Chebyshev radius, scanned in row order). */
static void evict_from_wall(cairn_crowd *c, uint32_t s) {
  int32_t cx = crowd_cell(c->x[s]), cy = crowd_cell(c->y[s]);
  for (int32_t r = 1; r < c->width + c->height; r++)
    for (int32_t y = cy - r; y <= cy + r; y++)
      for (int32_t x = cx - r; x <= cx + r; x++) {
        if (x != cx - r && x != cx + r && y != cy - r && y != cy + r) continue;
        if (cairn__crowd_blocked(c, x, y)) continue;
        c->x[s] = (float)x + 0.5f;
        c->y[s] = (float)y + 0.5f;
        c->vx[s] = c->vy[s] = 0.0f;
        cairn__crowd_loosen(c, s);
        return;
      }
}

cairn_status cairn_crowd_grid_changed(cairn_crowd *c, const cairn_point *cells,
                                      size_t n) {
  if (!c) return CAIRN_ERR_ARG;
  if (!cells && n) return cairn__crowd_fail(c, CAIRN_ERR_ARG, "cells is NULL, n is %zu", n);
  if (!cairn__crowd_same_walls(c->grid, c->route))
    return cairn__crowd_fail(c, CAIRN_ERR_ARG,
                             "the route grid's walls differ from the walk grid's");
  cairn_status st = cairn_flow_cache_update(c->cache, c->builder, cells, n, NULL, NULL);
  if (st != CAIRN_OK)
    return cairn__crowd_fail(c, st, "repairing the cached fields: %s", cairn_status_str(st));
  cairn__crowd_restart_search(c);
  for (uint32_t s = 0; s < c->high; s++) {
    if (!c->alive[s]) continue;
    if (cairn__crowd_blocked(c, crowd_cell(c->x[s]), crowd_cell(c->y[s])))
      evict_from_wall(c, s);
    if (c->order[s] != CAIRN_ORDER_PATH || c->state[s] == CAIRN_AGENT_ARRIVED)
      continue;
    /* a group member that is not the request's leader waits for it */
    if (c->req[s] != CROWD_NO_REQ) continue;
    c->state[s] = CAIRN_AGENT_WAITING;
    c->group[s] = 0; /* members repath on their own: the old corridor is gone */
    c->wp_n[s] = c->wp_i[s] = 0;
    c->wp_partial[s] = WP_WHOLE;
    c->offx[s] = c->offy[s] = 0.0f;
    cairn__crowd_request(c, s, 0, c->goal[s]);
    cairn__crowd_event(c, CAIRN_EVENT_REPATHED, s);
  }
  return cairn__crowd_ok(c);
}

/* The cache brings its fields to the layer's version, repairing the held
 * ones over the cells that changed; a search in progress begins again. */
cairn_status cairn_crowd_layer_changed(cairn_crowd *c) {
  if (!c) return CAIRN_ERR_ARG;
  if (!c->opts.penalty) return cairn__crowd_ok(c);
  uint64_t v = cairn_penalty_version(c->opts.penalty);
  if (v == c->layer_seen) return cairn__crowd_ok(c);
  cairn__crowd_restart_search(c); /* a search must not see the layer move */
  cairn_status st = cairn_flow_cache_layer_changed(c->cache, c->builder, NULL, NULL);
  if (st != CAIRN_OK)
    return cairn__crowd_fail(c, st, "repairing the cached fields to the layer: %s",
                             cairn_status_str(st));
  c->layer_seen = v;
  return cairn__crowd_ok(c);
}

