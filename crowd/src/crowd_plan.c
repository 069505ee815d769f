/* cairn_crowd_plan: how CAIRN_ORDER_AUTO sends agents to a goal (the
 * rule and its measured constant are in cairn/crowd_orders.h). */
#include <math.h>
#include <string.h>

#include "crowd_internal.h"

/* The octile distance in cells between (ax, ay) and (bx, by). */
static double octile(double ax, double ay, double bx, double by) {
  const double dx = fabs(ax - bx), dy = fabs(ay - by);
  const double lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return hi - lo + 1.4142135623730951 * lo;
}

cairn_status cairn_crowd_plan(cairn_crowd *c, const cairn_agent *agents, size_t n,
                              cairn_point goal, cairn_plan *out) {
  cairn_status st = cairn__crowd_handles(c, agents, n);
  if (st != CAIRN_OK) return st;
  if (!out || !n) return cairn__crowd_fail(c, CAIRN_ERR_ARG, "plan: %s", out ? "no agents" : "out is NULL");
  if ((st = cairn__crowd_check_goal(c, goal)) != CAIRN_OK) return st;
  memset(out, 0, sizeof *out);
  double cx = 0, cy = 0, trip = 0;
  float radius = 0;
  const double gx = goal.x + 0.5, gy = goal.y + 0.5; /* the goal cell's centre */
  for (size_t i = 0; i < n; i++) {
    const uint32_t s = cairn__crowd_slot_of(agents[i]);
    cx += c->x[s];
    cy += c->y[s];
    trip += octile(c->x[s], c->y[s], gx, gy);
    radius = fmaxf(radius, c->radius[s]);
  }
  cx /= (double)n;
  cy /= (double)n;
  double spread = 0;
  for (size_t i = 0; i < n; i++) {
    const uint32_t s = cairn__crowd_slot_of(agents[i]);
    spread = fmax(spread, fmax(fabs(c->x[s] - cx), fabs(c->y[s] - cy)));
  }
  out->spread = (float)spread;
  out->trip = (float)(trip / (double)n);
  /* the queue's rule (cairn__crowd_req_over_hpa), claims taken as A*'s */
  out->hierarchy = c->opts.hpa && !c->claims && cairn__crowd_size_of(radius) <= c->hpa_max_size;
  out->paths_cost =
      trip * (out->hierarchy ? CAIRN_PLAN_HPA_CELLS_PER_STEP : CAIRN_PLAN_CELLS_PER_STEP);
  out->field_cost = (double)cairn_grid_passable(c->route);
  /* a square block of one agent a cell is 0.5 sqrt(n) cells each way */
  if (n == 1 || spread <= 0.5 * sqrt((double)n) + CAIRN_PLAN_GATHERED_SLACK)
    out->way = CAIRN_PLAN_GROUP;
  else
    out->way = out->paths_cost >= out->field_cost ? CAIRN_PLAN_FIELD : CAIRN_PLAN_EACH;
  return cairn__crowd_ok(c);
}
