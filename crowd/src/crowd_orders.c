/* Orders: what agents follow (fields, the caller's or the cache's, paths,
 * holding, wandering), changing it, and the edits of the grid and the
 * cost layer that orders depend on. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

/* The last agent leaving a field slot frees it; a field of the cache goes
 * back to the cache, the caller's stays the caller's. */
static void leave_field(cairn_crowd *c, uint32_t s) {
  uint16_t f = c->field[s];
  if (f == CROWD_NO_FIELD) return;
  c->field[s] = CROWD_NO_FIELD;
  if (--c->fields[f].users == 0) {
    if (!c->fields[f].caller) cairn_flow_cache_release(c->cache, c->fields[f].field);
    c->fields[f].field = NULL;
    c->fields[f].caller = 0;
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
  c->arrive[s] = CAIRN_ARRIVAL_STOP;
  c->arrive_r[s] = 0.0f;
  c->dvx[s] = c->dvy[s] = 0.0f;
}

/* ---- orders --------------------------------------------------------- */

cairn_order cairn_order_defaults(void) {
  cairn_order o;
  memset(&o, 0, sizeof o);
  o.kind = CAIRN_ORDER_HOLD;
  o.group = 1;
  o.arrival = CAIRN_ARRIVAL_DEFAULT;
  return o;
}

/* A driven velocity: finite, each axis under CROWD_DRIVE_STEP_MAX cells a
 * tick (the steering's step, so the move is v * dt exactly, never
 * clamped). */
static cairn_status check_velocity(cairn_crowd *c, float vx, float vy) {
  if (!isfinite(vx) || !isfinite(vy))
    return cairn__crowd_fail(c, CAIRN_ERR_ARG, "velocity %g,%g is not finite", (double)vx,
                             (double)vy);
  float dt = c->opts.dt;
  if (fabsf(vx) * dt > CROWD_DRIVE_STEP_MAX || fabsf(vy) * dt > CROWD_DRIVE_STEP_MAX)
    return cairn__crowd_fail(c, CAIRN_ERR_ARG,
                             "velocity %g,%g moves more than %g cells an axis in a tick of "
                             "%g s (at most %g cells per second)",
                             (double)vx, (double)vy, (double)CROWD_DRIVE_STEP_MAX,
                             (double)dt, (double)(CROWD_DRIVE_STEP_MAX / dt));
  return CAIRN_OK;
}

/* A caller's field must be of the route grid's size: three samples tell
 * (a sample off the field is CAIRN_ERR_RANGE, O(1), where its stats would
 * read every cell). */
static cairn_status check_field(cairn_crowd *c, const cairn_field *f) {
  cairn_flow_sample smp;
  float w = (float)c->width, h = (float)c->height;
  cairn_status in = cairn_field_sample(f, w - 0.5f, h - 0.5f, &smp);
  if (in != CAIRN_OK && in != CAIRN_ERR_RANGE) /* a field that cannot be read now */
    return cairn__crowd_fail(c, in, "the order's field cannot be sampled: %s",
                             cairn_status_str(in));
  if (in == CAIRN_ERR_RANGE || cairn_field_sample(f, w + 0.5f, 0.5f, &smp) != CAIRN_ERR_RANGE ||
      cairn_field_sample(f, 0.5f, h + 0.5f, &smp) != CAIRN_ERR_RANGE)
    return cairn__crowd_fail(c, CAIRN_ERR_ARG,
                             "the order's field is not of the route grid's size (%ldx%ld)",
                             (long)c->width, (long)c->height);
  return CAIRN_OK;
}

/* What the order asks, checked before any agent changes. */
static cairn_status check_order(cairn_crowd *c, const cairn_order *o) {
  if (o->arrival < CAIRN_ARRIVAL_DEFAULT || o->arrival > CAIRN_ARRIVAL_STAY)
    return cairn__crowd_fail(c, CAIRN_ERR_ARG, "order: arrival %d is not a cairn_arrival",
                             (int)o->arrival);
  if (!isfinite(o->arrival_radius) || o->arrival_radius < 0.0f)
    return cairn__crowd_fail(c, CAIRN_ERR_ARG, "order: arrival_radius %g is not finite and >= 0",
                             (double)o->arrival_radius);
  switch (o->kind) {
  case CAIRN_ORDER_HOLD:
  case CAIRN_ORDER_WANDER: return CAIRN_OK;
  case CAIRN_ORDER_DRIVEN: return check_velocity(c, o->vx, o->vy);
  case CAIRN_ORDER_PATH:
  case CAIRN_ORDER_AUTO: return cairn__crowd_check_goal(c, o->goal);
  case CAIRN_ORDER_FIELD:
    if (o->field && (o->goals || o->n_goals))
      return cairn__crowd_fail(c, CAIRN_ERR_ARG,
                               "a field order takes a field or goals, not both");
    if (o->field) return check_field(c, o->field);
    if (!o->goals || !o->n_goals)
      return cairn__crowd_fail(c, CAIRN_ERR_ARG,
                               "a field order needs goals (goals %s, n_goals %zu) or a field",
                               o->goals ? "given" : "NULL", o->n_goals);
    return CAIRN_OK;
  }
  return cairn__crowd_fail(c, CAIRN_ERR_ARG, "order: kind %d is not a cairn_order_kind",
                           (int)o->kind);
}

/* The slot holding f (the cache's, or the caller's when caller is 1)
 * already, or CROWD_NO_FIELD. */
static uint16_t field_held(const cairn_crowd *c, const cairn_field *f, int caller) {
  for (uint16_t i = 0; i < CROWD_MAX_FIELDS; i++)
    if (c->fields[i].field == f && c->fields[i].caller == caller) return i;
  return CROWD_NO_FIELD;
}

/* The field slot for f (the cache's, or the caller's when caller is 1):
 * the one holding it already, else a free one. CROWD_NO_FIELD when every
 * slot is taken. */
static uint16_t field_slot(cairn_crowd *c, const cairn_field *f, int caller) {
  uint16_t free_k = CROWD_NO_FIELD;
  for (uint16_t i = 0; i < CROWD_MAX_FIELDS; i++) {
    if (c->fields[i].field == f && c->fields[i].caller == caller) return i;
    if (!c->fields[i].field && free_k == CROWD_NO_FIELD) free_k = i;
  }
  if (free_k != CROWD_NO_FIELD) {
    c->fields[free_k].field = f;
    c->fields[free_k].users = 0;
    c->fields[free_k].caller = (uint8_t)caller;
  }
  return free_k;
}

/* Whether live slot s stays at the goal of order o (the order given to
 * agents, k the field slot of a field order). */
static int stays_at(const cairn_crowd *c, uint32_t s, const cairn_order *o, uint16_t k) {
  if (!c->alive[s] || !cairn__crowd_stays(c, s) || c->order[s] != (uint8_t)o->kind) return 0;
  if (o->kind == CAIRN_ORDER_FIELD) return c->field[s] == k;
  return c->goal[s].x == o->goal.x && c->goal[s].y == o->goal.y;
}

/* The radius the crowd chooses for the agents that stay at one goal:
 * their discs packed around it at a density of 0.45 (a loose pile of
 * touching discs, with room for the walls they stay clear of) fill three quarters
 * of it, the share a held-off unit stops in at first; at least one cell.
 * An order sending more agents to the same goal grows it for all that
 * stay there with a radius the crowd chose. */
static void stay_radius(cairn_crowd *c, const cairn_agent *agents, size_t n,
                        const cairn_order *o, uint16_t k) {
  double area = 0;
  for (uint32_t s = 0; s < c->high; s++) /* those there before */
    if (stays_at(c, s, o, k)) area += (double)c->radius[s] * (double)c->radius[s];
  for (size_t i = 0; i < n; i++) {
    float r = c->radius[cairn__crowd_slot_of(agents[i])];
    area += (double)r * (double)r;
  }
  float R = (float)(sqrt(area / 0.45) / 0.75);
  if (R < 1.0f) R = 1.0f;
  for (uint32_t s = 0; s < c->high; s++)
    if (stays_at(c, s, o, k) && c->arrive[s] == CROWD_STAY_AUTO) c->arrive_r[s] = R;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = cairn__crowd_slot_of(agents[i]);
    c->arrive[s] = CROWD_STAY_AUTO;
    c->arrive_r[s] = R;
  }
}

/* How each agent of the order ends it: the mode, DEFAULT being the
 * order's own (fields leave, paths stop), and the stay radius. Runs
 * after the agents took the order (k: their field slot). */
static void set_arrival(cairn_crowd *c, const cairn_agent *agents, size_t n,
                        const cairn_order *o, uint16_t k) {
  cairn_arrival mode = o->arrival;
  if (mode == CAIRN_ARRIVAL_DEFAULT)
    mode = o->kind == CAIRN_ORDER_FIELD ? CAIRN_ARRIVAL_LEAVE : CAIRN_ARRIVAL_STOP;
  if (mode == CAIRN_ARRIVAL_STAY && o->arrival_radius == 0.0f) {
    /* the order's own agents took it with arrive reset: not counted twice */
    stay_radius(c, agents, n, o, k);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    uint32_t s = cairn__crowd_slot_of(agents[i]);
    c->arrive[s] = (uint8_t)mode;
    c->arrive_r[s] = mode == CAIRN_ARRIVAL_STAY ? o->arrival_radius : 0.0f;
  }
}

#define CROWD_SIZES 4 /* unit sizes of discs up to CAIRN_CROWD_MAX_RADIUS */

/* The field each unit size among the agents follows: the caller's (every
 * agent must be of its size), or the cache's for the goals and that size,
 * in *fs[size - 1]; their slots in ks (taken once every field is had, so
 * a refusal leaves the cache and the slots as they were). */
static cairn_status fields_for(cairn_crowd *c, const cairn_agent *agents, size_t n,
                               const cairn_order *o, const cairn_field *fs[CROWD_SIZES],
                               uint16_t ks[CROWD_SIZES]) {
  const unsigned want = cairn__crowd_sizes(c, agents, n);
  const int caller = o->field != NULL;
  if (caller) {
    int32_t m = cairn_field_unit_size(o->field);
    if (want != 1u << (m - 1))
      return cairn__crowd_fail(c, CAIRN_ERR_ARG,
                               "the order's field is for units of size %ld; its agents are "
                               "of other sizes too (a size per 0.5 cells of radius)",
                               (long)m);
  }
  uint32_t need = 0, free_n = 0;
  for (uint16_t i = 0; i < CROWD_MAX_FIELDS; i++) free_n += c->fields[i].field == NULL;
  for (int k = 0; k < CROWD_SIZES; k++) {
    fs[k] = NULL;
    if (!(want >> k & 1u)) continue;
    cairn_status st = CAIRN_OK;
    if (caller) fs[k] = o->field;
    else st = cairn_flow_cache_acquire_sized(c->cache, c->builder, o->goals, o->n_goals, k + 1,
                                             &fs[k]);
    if (st != CAIRN_OK) {
      for (int j = 0; j < k; j++)
        if (fs[j] && !caller) cairn_flow_cache_release(c->cache, fs[j]);
      return cairn__crowd_fail(c, st, "the field to %zu goals for units of size %d: %s",
                               o->n_goals, k + 1, cairn_status_str(st));
    }
    need += field_held(c, fs[k], caller) == CROWD_NO_FIELD;
  }
  if (need > free_n) {
    for (int k = 0; k < CROWD_SIZES; k++)
      if (fs[k] && !caller) cairn_flow_cache_release(c->cache, fs[k]);
    return cairn__crowd_fail(c, CAIRN_ERR_TOO_LARGE,
                             "%d fields are followed already (CAIRN_CROWD_MAX_FIELDS)",
                             CROWD_MAX_FIELDS);
  }
  for (int k = 0; k < CROWD_SIZES; k++) {
    if (!fs[k]) continue;
    ks[k] = field_slot(c, fs[k], caller);
    /* one slot per field: the cache hands the same field for the same
     * goals and size, and the slot holds it already */
    if (!caller && c->fields[ks[k]].users) cairn_flow_cache_release(c->cache, fs[k]);
  }
  return CAIRN_OK;
}

static cairn_status order_field(cairn_crowd *c, const cairn_agent *agents, size_t n,
                                const cairn_order *o) {
  const cairn_field *fs[CROWD_SIZES];
  uint16_t ks[CROWD_SIZES];
  cairn_status st = fields_for(c, agents, n, o, fs, ks);
  if (st != CAIRN_OK) return st;
  /* held across the loop so none is released */
  for (int k = 0; k < CROWD_SIZES; k++)
    if (fs[k]) c->fields[ks[k]].users++;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = cairn__crowd_slot_of(agents[i]);
    uint16_t slot = ks[cairn__crowd_size_of(c->radius[s]) - 1];
    cairn__crowd_clear_order(c, s);
    c->order[s] = CAIRN_ORDER_FIELD;
    c->state[s] = CAIRN_AGENT_MOVING;
    c->field[s] = slot;
    c->fields[slot].users++;
  }
  for (int k = 0; k < CROWD_SIZES; k++)
    if (fs[k]) c->fields[ks[k]].users--;
  return CAIRN_OK;
}

static void start_path(cairn_crowd *c, uint32_t s, uint32_t group,
                       cairn_point goal) {
  cairn__crowd_clear_order(c, s);
  c->order[s] = CAIRN_ORDER_PATH;
  c->state[s] = CAIRN_AGENT_WAITING;
  c->group[s] = group;
  c->goal[s] = goal;
}

static void order_path(cairn_crowd *c, const cairn_agent *agents, size_t n,
                       cairn_point goal) {
  for (size_t i = 0; i < n; i++) {
    uint32_t s = cairn__crowd_slot_of(agents[i]);
    start_path(c, s, 0, goal);
    cairn__crowd_request(c, s, 0, goal);
  }
}

unsigned cairn__crowd_sizes(const cairn_crowd *c, const cairn_agent *agents, size_t n) {
  unsigned sizes = 0;
  for (size_t i = 0; i < n; i++)
    sizes |= 1u << (cairn__crowd_size_of(c->radius[cairn__crowd_slot_of(agents[i])]) - 1);
  return sizes;
}

float cairn__crowd_spread(const cairn_crowd *c, const cairn_agent *agents, size_t n, double *cx,
                          double *cy) {
  double sx = 0, sy = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = cairn__crowd_slot_of(agents[i]);
    sx += c->x[s];
    sy += c->y[s];
  }
  *cx = sx / (double)n;
  *cy = sy / (double)n;
  float spread = 0.0f;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = cairn__crowd_slot_of(agents[i]);
    float d = fmaxf(fabsf(c->x[s] - (float)*cx), fabsf(c->y[s] - (float)*cy));
    spread = fmaxf(spread, d);
  }
  return spread;
}

/* Formation: each member keeps its offset from the group's centre, scaled
 * down so the formation is no wider than about 0.6 sqrt(n) cells. */
static void order_move(cairn_crowd *c, const cairn_agent *agents, size_t n,
                       cairn_point goal) {
  double cx, cy;
  const float spread = cairn__crowd_spread(c, agents, n, &cx, &cy);
  float half = 0.3f * sqrtf((float)n); /* about 0.6 cells a unit each way */
  float scale = spread > half ? half / spread : 1.0f;
  uint32_t g = c->next_group++;
  if (c->next_group == 0) c->next_group = 1;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = cairn__crowd_slot_of(agents[i]);
    start_path(c, s, g, goal);
    c->offx[s] = (c->x[s] - (float)cx) * scale;
    c->offy[s] = (c->y[s] - (float)cy) * scale;
  }
  cairn__crowd_request(c, cairn__crowd_slot_of(agents[0]), g, goal);
}

static void order_wander(cairn_crowd *c, const cairn_agent *agents, size_t n,
                         uint64_t seed) {
  for (size_t i = 0; i < n; i++) {
    uint32_t s = cairn__crowd_slot_of(agents[i]);
    cairn__crowd_clear_order(c, s);
    c->order[s] = CAIRN_ORDER_WANDER;
    c->state[s] = CAIRN_AGENT_MOVING;
    c->seed[s] = seed ^ ((uint64_t)s * 0x9e3779b97f4a7c15ull);
  }
}

/* Slot s follows the game's velocity from now on. */
static void drive(cairn_crowd *c, uint32_t s, float vx, float vy) {
  if (c->order[s] != CAIRN_ORDER_DRIVEN) {
    cairn__crowd_clear_order(c, s);
    c->order[s] = CAIRN_ORDER_DRIVEN;
  }
  c->dvx[s] = vx;
  c->dvy[s] = vy;
  c->state[s] = vx != 0.0f || vy != 0.0f ? CAIRN_AGENT_MOVING : CAIRN_AGENT_IDLE;
}

/* A path goal must hold the largest unit the order moves (a group's path
 * is planned for it; each unit's own for itself). */
static cairn_status check_goal_fits(cairn_crowd *c, const cairn_agent *agents, size_t n,
                                    cairn_point goal) {
  float r = 0.0f;
  for (size_t i = 0; i < n; i++) r = fmaxf(r, c->radius[cairn__crowd_slot_of(agents[i])]);
  const int32_t k = cairn__crowd_size_of(r), have = cairn_grid_clearance(c->route, goal.x, goal.y);
  if (have >= k) return CAIRN_OK;
  return cairn__crowd_fail(c, CAIRN_ERR_BLOCKED,
                           "goal %ld,%ld: a unit of size %ld (radius %g) does not fit there "
                           "(clearance %ld)",
                           (long)goal.x, (long)goal.y, (long)k, (double)r, (long)have);
}

/* AUTO: the order cairn_crowd_plan chooses, given as that order. Unless
 * told otherwise, a group on one path stops on its formation points, and
 * agents sent each to the goal cell (a field, or a path each) stay around
 * it: all stopping on one cell, most would wait behind the first forever. */
static cairn_status order_auto(cairn_crowd *c, const cairn_agent *agents, size_t n,
                               const cairn_order *o) {
  cairn_plan plan;
  cairn_status st = cairn_crowd_plan(c, agents, n, o->goal, &plan);
  if (st != CAIRN_OK) return st;
  cairn_order r = *o;
  if (r.arrival == CAIRN_ARRIVAL_DEFAULT)
    r.arrival = plan.way == CAIRN_PLAN_GROUP ? CAIRN_ARRIVAL_STOP : CAIRN_ARRIVAL_STAY;
  r.field = NULL;
  if (plan.way == CAIRN_PLAN_FIELD) {
    r.kind = CAIRN_ORDER_FIELD;
    r.goals = &o->goal;
    r.n_goals = 1;
  } else {
    r.kind = CAIRN_ORDER_PATH;
    r.group = plan.way == CAIRN_PLAN_GROUP;
  }
  return cairn_crowd_order(c, agents, n, &r);
}

cairn_status cairn_crowd_order(cairn_crowd *c, const cairn_agent *agents, size_t n,
                               const cairn_order *o) {
  cairn_status st = cairn__crowd_handles(c, agents, n);
  if (st != CAIRN_OK) return st;
  if (!o) return cairn__crowd_fail(c, CAIRN_ERR_ARG, "order: o is NULL");
  if ((st = check_order(c, o)) != CAIRN_OK) return st;
  if (!n) return cairn__crowd_ok(c);
  if (o->kind == CAIRN_ORDER_AUTO) return order_auto(c, agents, n, o);
  switch (o->kind) {
  case CAIRN_ORDER_FIELD: {
    const uint64_t t0 = cairn__now_ns(); /* a field built here is planning */
    st = order_field(c, agents, n, o);
    c->stats.plan_ns += cairn__now_ns() - t0;
    if (st != CAIRN_OK) return st;
    break;
  }
  case CAIRN_ORDER_PATH:
    if ((st = check_goal_fits(c, agents, n, o->goal)) != CAIRN_OK) return st;
    if (o->group) order_move(c, agents, n, o->goal);
    else order_path(c, agents, n, o->goal);
    break;
  case CAIRN_ORDER_WANDER: order_wander(c, agents, n, o->seed); break;
  case CAIRN_ORDER_DRIVEN:
    for (size_t i = 0; i < n; i++) drive(c, cairn__crowd_slot_of(agents[i]), o->vx, o->vy);
    break;
  default:
    for (size_t i = 0; i < n; i++) cairn__crowd_clear_order(c, cairn__crowd_slot_of(agents[i]));
    return cairn__crowd_ok(c);
  }
  if (o->kind == CAIRN_ORDER_FIELD || o->kind == CAIRN_ORDER_PATH)
    set_arrival(c, agents, n, o, c->field[cairn__crowd_slot_of(agents[0])]);
  return cairn__crowd_ok(c);
}

/* ---- the orders of one kind: the general order, filled in ------------ */

cairn_status cairn_crowd_order_field(cairn_crowd *c, const cairn_agent *agents,
                                     size_t n, const cairn_point *goals,
                                     size_t n_goals) {
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_FIELD;
  o.goals = goals;
  o.n_goals = n_goals;
  return cairn_crowd_order(c, agents, n, &o);
}

cairn_status cairn_crowd_order_path(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n, cairn_point goal) {
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_PATH;
  o.goal = goal;
  o.group = 0;
  return cairn_crowd_order(c, agents, n, &o);
}

cairn_status cairn_crowd_order_move(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n, cairn_point goal) {
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_PATH;
  o.goal = goal;
  return cairn_crowd_order(c, agents, n, &o);
}

cairn_status cairn_crowd_order_hold(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n) {
  cairn_order o = cairn_order_defaults();
  return cairn_crowd_order(c, agents, n, &o);
}

cairn_status cairn_crowd_order_wander(cairn_crowd *c, const cairn_agent *agents,
                                      size_t n, uint64_t seed) {
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_WANDER;
  o.seed = seed;
  return cairn_crowd_order(c, agents, n, &o);
}

cairn_status cairn_crowd_drive(cairn_crowd *c, cairn_agent a, float vx, float vy) {
  uint32_t s;
  cairn_status st = cairn__crowd_handle(c, a, &s);
  if (st != CAIRN_OK) return st;
  if ((st = check_velocity(c, vx, vy)) != CAIRN_OK) return st;
  drive(c, s, vx, vy);
  return cairn__crowd_ok(c);
}

/* Moves an agent whose disc's square now reaches a blocked cell to the
 * nearest position where its unit fits, its disc centred on the unit's
 * cells (rings of growing Chebyshev radius around its position, scanned
 * in row order). */
static void evict_from_wall(cairn_crowd *c, uint32_t s) {
  const int32_t k = cairn__crowd_size_of(c->radius[s]);
  const float o = 0.5f + cairn__crowd_corner(k);
  cairn_point at = cairn__crowd_position(c->x[s], c->y[s], k);
  for (int32_t r = 0; r < c->width + c->height; r++)
    for (int32_t y = at.y - r; y <= at.y + r; y++)
      for (int32_t x = at.x - r; x <= at.x + r; x++) {
        if (x != at.x - r && x != at.x + r && y != at.y - r && y != at.y + r) continue;
        if (cairn_grid_clearance(c->grid, x, y) < k) continue;
        c->x[s] = (float)x + o;
        c->y[s] = (float)y + o;
        c->vx[s] = c->vy[s] = 0.0f;
        cairn__crowd_loosen(c, s);
        return;
      }
}

/* The smallest rectangle holding the n cells (n >= 1). */
static cairn_rect bounding_box(const cairn_point *cells, size_t n) {
  int32_t x0 = cells[0].x, y0 = cells[0].y, x1 = x0, y1 = y0;
  for (size_t i = 1; i < n; i++) {
    x0 = cells[i].x < x0 ? cells[i].x : x0;
    y0 = cells[i].y < y0 ? cells[i].y : y0;
    x1 = cells[i].x > x1 ? cells[i].x : x1;
    y1 = cells[i].y > y1 ? cells[i].y : y1;
  }
  return (cairn_rect){x0, y0, x1 - x0 + 1, y1 - y0 + 1};
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
  if (c->opts.path_cache && n) cairn_path_cache_edited(c->opts.path_cache, bounding_box(cells, n));
  cairn__crowd_restart_search(c);
  for (uint32_t s = 0; s < c->high; s++) {
    if (!c->alive[s]) continue;
    if (cairn__crowd_box_blocked(c, c->x[s], c->y[s], c->radius[s])) evict_from_wall(c, s);
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
  c->grid_seen = cairn_grid_version(c->grid);
  c->route_seen = cairn_grid_version(c->route);
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
  cairn__crowd_density_mirror(c);  /* the fields' layer holds opts.penalty */
  cairn_status st = cairn_flow_cache_layer_changed(c->cache, c->builder, NULL, NULL);
  if (st != CAIRN_OK)
    return cairn__crowd_fail(c, st, "repairing the cached fields to the layer: %s",
                             cairn_status_str(st));
  c->layer_seen = v;
  return cairn__crowd_ok(c);
}

