/* cairn_crowd_plan: how CAIRN_ORDER_AUTO sends agents to a goal (the
 * rule and its measured constant are in cairn/crowd_orders.h). */
#include <math.h>
#include <string.h>

#include "crowd_internal.h"

/* Whether agents of unit size k follow a field of the crowd's cache to
 * `goal` alone: another order shares it for nothing. The crowd's field
 * slots hold only fields some agent follows (a load restores those, not
 * the cache's idle ones, so the choice is the same after a load). */
static int field_followed(const cairn_crowd *c, cairn_point goal, int32_t k) {
  for (uint16_t i = 0; i < CAIRN_CROWD_MAX_FIELDS; i++) {
    const crowd_field_slot *f = &c->fields[i];
    if (!f->field || f->caller || cairn_field_unit_size(f->field) != k) continue;
    size_t n = 0;
    const cairn_point *g = cairn_field_goals(f->field, &n);
    if (n == 1 && g[0].x == goal.x && g[0].y == goal.y) return 1;
  }
  return 0;
}

/* The mean octile distance from the agents to the goal cell's centre. */
static double mean_trip(const cairn_crowd *c, const cairn_agent *agents, size_t n,
                        cairn_point goal) {
  const double gx = goal.x + 0.5, gy = goal.y + 0.5;
  double trip = 0;
  for (size_t i = 0; i < n; i++) {
    const uint32_t s = cairn__crowd_slot_of(agents[i]);
    trip += cairn__crowd_octile(c->x[s], c->y[s], gx, gy);
  }
  return trip / (double)n;
}

/* The largest unit size in a mask of cairn__crowd_sizes. */
static int32_t largest_size(unsigned sizes) {
  int32_t k = 0;
  while (sizes >> k) k++;
  return k;
}

cairn_status cairn_crowd_plan(cairn_crowd *c, const cairn_agent *agents, size_t n,
                              cairn_point goal, cairn_plan *out) {
  cairn_status st = cairn__crowd_handles(c, agents, n);
  if (st != CAIRN_OK) return st;
  if (!out || !n) return cairn__crowd_fail(c, CAIRN_ERR_ARG, "plan: %s", out ? "no agents" : "out is NULL");
  if ((st = cairn__crowd_check_goal(c, goal)) != CAIRN_OK) return st;
  memset(out, 0, sizeof *out);
  double cx, cy;
  out->spread = cairn__crowd_spread(c, agents, n, &cx, &cy); /* as a move order's */
  out->trip = (float)mean_trip(c, agents, n, goal);
  const unsigned sizes = cairn__crowd_sizes(c, agents, n);
  /* the queue's rule (cairn__crowd_req_over_hpa), claims taken as A*'s */
  out->hierarchy = c->opts.hpa && !c->claims && largest_size(sizes) <= c->hpa_max_size;
  out->paths_cost = (double)out->trip * (double)n *
                    (out->hierarchy ? CAIRN_PLAN_HPA_CELLS_PER_STEP : CAIRN_PLAN_CELLS_PER_STEP);
  out->field_shared = 1;
  for (int32_t k = 1; sizes >> (k - 1); k++)
    if (sizes >> (k - 1) & 1u) out->field_shared &= field_followed(c, goal, k);
  out->field_cost = out->field_shared ? 0.0 : (double)cairn_grid_passable(c->route);
  /* a square block of one agent a cell is 0.5 sqrt(n) cells each way */
  if (n == 1 || out->spread <= 0.5 * sqrt((double)n) + CAIRN_PLAN_GATHERED_SLACK)
    out->way = CAIRN_PLAN_GROUP;
  else
    out->way = out->paths_cost >= out->field_cost ? CAIRN_PLAN_FIELD : CAIRN_PLAN_EACH;
  return cairn__crowd_ok(c);
}
