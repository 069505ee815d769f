/* What a crowd refuses, and why: the options' checks (cairn_crowd_check,
 * which create runs), handles, and the detail a refused call leaves for
 * cairn_crowd_error. */
#include "crowd_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define say cairn__crowd_say /* the detail writer's short name, in this file */

cairn_status cairn__crowd_say(char *buf, size_t cap, cairn_status st, const char *fmt, ...) {
  if (!buf || !cap) return st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
  return st;
}

cairn_status cairn__crowd_fail(cairn_crowd *c, cairn_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->error, sizeof c->error, fmt, ap);
  va_end(ap);
  return st;
}

const char *cairn_crowd_error(const cairn_crowd *c) {
  return c ? c->error : "no crowd (NULL)";
}

/* A float option within [lo, hi] (lo excluded when open_lo). */
static int in_range(float v, float lo, float hi, int open_lo) {
  return isfinite(v) && (open_lo ? v > lo : v >= lo) && v <= hi;
}

/* The options alone: the first one out of its range, named. */
static cairn_status check_opts(const cairn_crowd_opts *o, char *d, size_t cap) {
  if (o->max_agents < 1 || o->max_agents > CAIRN_CROWD_MAX_AGENTS)
    return say(d, cap, CAIRN_ERR_ARG, "opts.max_agents %lu is not in 1..%lu",
               (unsigned long)o->max_agents, (unsigned long)CAIRN_CROWD_MAX_AGENTS);
  if (!in_range(o->dt, 0.0f, 1.0f, 1))
    return say(d, cap, CAIRN_ERR_ARG, "opts.dt %g is not in (0, 1] seconds", (double)o->dt);
  if (!in_range(o->bin_size, 0.5f, 64.0f, 0))
    return say(d, cap, CAIRN_ERR_ARG, "opts.bin_size %g is not in [0.5, 64] cells",
               (double)o->bin_size);
  if (!in_range(o->neighbour_radius, 0.0f, o->bin_size, 1))
    return say(d, cap, CAIRN_ERR_ARG,
               "opts.neighbour_radius %g is not in (0, bin_size %g]",
               (double)o->neighbour_radius, (double)o->bin_size);
  if (o->threads < 0)
    return say(d, cap, CAIRN_ERR_ARG, "opts.threads %d is negative", o->threads);
  if (o->chunk < 1) return say(d, cap, CAIRN_ERR_ARG, "opts.chunk %d is below 1", o->chunk);
  if (o->path_budget < 1) return say(d, cap, CAIRN_ERR_ARG, "opts.path_budget is 0");
  if (o->waypoints < 2 || o->waypoints > 4096)
    return say(d, cap, CAIRN_ERR_ARG, "opts.waypoints %lu is not in 2..4096",
               (unsigned long)o->waypoints);
  if (o->stuck_ticks < 1) return say(d, cap, CAIRN_ERR_ARG, "opts.stuck_ticks is 0");
  if (o->avoid_radius < 0 || o->avoid_radius > 64)
    return say(d, cap, CAIRN_ERR_ARG, "opts.avoid_radius %ld is not in 0..64",
               (long)o->avoid_radius);
  if (!in_range(o->claim_penalty, 0.0f, 1000.0f, 0))
    return say(d, cap, CAIRN_ERR_ARG, "opts.claim_penalty %g is not in [0, 1000]",
               (double)o->claim_penalty);
  if (o->claim_radius < 0)
    return say(d, cap, CAIRN_ERR_ARG, "opts.claim_radius %ld is negative",
               (long)o->claim_radius);
  if (o->claim_ticks < 1) return say(d, cap, CAIRN_ERR_ARG, "opts.claim_ticks is 0");
  if (o->max_events > CAIRN_CROWD_MAX_EVENTS)
    return say(d, cap, CAIRN_ERR_ARG, "opts.max_events %lu is above %lu",
               (unsigned long)o->max_events, (unsigned long)CAIRN_CROWD_MAX_EVENTS);
  if (!in_range(o->density_gain, 0.0f, 100.0f, 0))
    return say(d, cap, CAIRN_ERR_ARG, "opts.density_gain %g is not in [0, 100]",
               (double)o->density_gain);
  if (!in_range(o->density_comfort, 0.0f, 16.0f, 0))
    return say(d, cap, CAIRN_ERR_ARG, "opts.density_comfort %g is not in [0, 16]",
               (double)o->density_comfort);
  if (o->density_ticks < 1 || o->density_ticks > 1000)
    return say(d, cap, CAIRN_ERR_ARG, "opts.density_ticks %lu is not in 1..1000",
               (unsigned long)o->density_ticks);
  if (o->avoidance != CAIRN_AVOID_STEER && o->avoidance != CAIRN_AVOID_ORCA)
    return say(d, cap, CAIRN_ERR_ARG, "opts.avoidance %d is neither CAIRN_AVOID_STEER nor "
               "CAIRN_AVOID_ORCA", (int)o->avoidance);
  if (!in_range(o->orca_horizon, 0.0f, 20.0f, 1))
    return say(d, cap, CAIRN_ERR_ARG, "opts.orca_horizon %g is not in (0, 20] seconds",
               (double)o->orca_horizon);
  if (o->orca_neighbours < 1 || o->orca_neighbours > CAIRN_CROWD_MAX_ORCA)
    return say(d, cap, CAIRN_ERR_ARG, "opts.orca_neighbours %lu is not in 1..%d",
               (unsigned long)o->orca_neighbours, CAIRN_CROWD_MAX_ORCA);
  if (cairn_jobs_check(o->jobs) != CAIRN_OK)
    return say(d, cap, CAIRN_ERR_ARG,
               "opts.jobs is not a valid job system (cairn_jobs_check refuses it)");
  return CAIRN_OK;
}

/* The route grid must have the walk grid's size and walls: agents steer on
 * its fields and paths but collide with the walk grid. */
int cairn__crowd_same_walls(const cairn_grid *a, const cairn_grid *b) {
  int32_t sa, sb;
  if (cairn_grid_width(a) != cairn_grid_width(b) ||
      cairn_grid_height(a) != cairn_grid_height(b))
    return 0;
  const uint8_t *ca = cairn_grid_cells(a, &sa), *cb = cairn_grid_cells(b, &sb);
  size_t n = (size_t)sa * (size_t)(cairn_grid_height(a) + 2);
  for (size_t i = 0; i < n; i++)
    if ((ca[i] == 0) != (cb[i] == 0)) return 0;
  return 1;
}

/* opts.path_cache: made on the route grid, for the searches the queue
 * runs (8 moves, the whole grid, the crowd's layer). */
static cairn_status check_cache(const cairn_crowd_opts *o, const cairn_grid *grid, char *d,
                                size_t cap) {
  cairn_path_cache_opts po;
  cairn_path_cache_get_opts(o->path_cache, &po);
  const cairn_grid *route = o->route_grid ? o->route_grid : grid;
  if (cairn_path_cache_grid(o->path_cache) != route)
    return say(d, cap, CAIRN_ERR_ARG, "opts.path_cache was made on another grid than the %s grid",
               o->route_grid ? "route" : "walk");
  if (po.search.moves != 8)
    return say(d, cap, CAIRN_ERR_ARG, "opts.path_cache plans with %d moves; the crowd with 8",
               po.search.moves);
  if (po.search.bounds.w > 0 && po.search.bounds.h > 0)
    return say(d, cap, CAIRN_ERR_ARG, "opts.path_cache searches inside bounds; the crowd the whole grid");
  if (po.search.penalty != o->penalty)
    return say(d, cap, CAIRN_ERR_ARG,
               "opts.path_cache prices another penalty layer than opts.penalty");
  return CAIRN_OK;
}

cairn_status cairn_crowd_check(const cairn_grid *grid, const cairn_crowd_opts *opts,
                               char *detail, size_t cap) {
  if (detail && cap) detail[0] = '\0';
  if (!grid) return say(detail, cap, CAIRN_ERR_ARG, "no walk grid (NULL)");
  cairn_crowd_opts o = opts ? *opts : cairn_crowd_defaults();
  cairn_status st = check_opts(&o, detail, cap);
  if (st != CAIRN_OK) return st;
  if (o.route_grid && !cairn__crowd_same_walls(grid, o.route_grid))
    return say(detail, cap, CAIRN_ERR_ARG,
               "opts.route_grid (%ldx%ld) differs from the walk grid (%ldx%ld) in "
               "size or walls",
               (long)cairn_grid_width(o.route_grid), (long)cairn_grid_height(o.route_grid),
               (long)cairn_grid_width(grid), (long)cairn_grid_height(grid));
  if (o.penalty && !cairn_penalty_fits(o.penalty, grid))
    return say(detail, cap, CAIRN_ERR_ARG,
               "opts.penalty is a layer for a grid of another size");
  return o.path_cache ? check_cache(&o, grid, detail, cap) : CAIRN_OK;
}

/* ---- handles -------------------------------------------------------- */

cairn_status cairn__crowd_slot(const cairn_crowd *c, cairn_agent a, uint32_t *slot) {
  uint32_t s = (uint32_t)(a & 0xffffffffu), g = (uint32_t)(a >> 32);
  if (!c || g == 0 || s >= c->high) return CAIRN_ERR_ARG;
  if (c->gen[s] != g || !c->alive[s]) return CAIRN_ERR_STALE;
  *slot = s;
  return CAIRN_OK;
}

/* The detail of a refused handle: "agent <what> ...". */
static cairn_status refuse_handle(cairn_crowd *c, cairn_status st, cairn_agent a,
                                  const char *what) {
  uint32_t s = (uint32_t)(a & 0xffffffffu);
  if (st == CAIRN_ERR_STALE)
    return cairn__crowd_fail(c, st, "%s: stale handle (the agent of slot %lu was removed)",
                             what, (unsigned long)s);
  if (a == 0) return cairn__crowd_fail(c, st, "%s: handle 0 is never an agent", what);
  return cairn__crowd_fail(c, st, "%s: handle 0x%llx never named an agent", what,
                           (unsigned long long)a);
}

cairn_status cairn__crowd_handle(cairn_crowd *c, cairn_agent a, uint32_t *slot) {
  if (!c) return CAIRN_ERR_ARG;
  cairn_status st = cairn__crowd_slot(c, a, slot);
  return st == CAIRN_OK ? st : refuse_handle(c, st, a, "agent");
}

cairn_status cairn__crowd_handles(cairn_crowd *c, const cairn_agent *agents, size_t n) {
  if (!c) return CAIRN_ERR_ARG;
  if (!agents && n) return cairn__crowd_fail(c, CAIRN_ERR_ARG, "agents is NULL, n is %zu", n);
  for (size_t k = 0; k < n; k++) {
    uint32_t s;
    cairn_status st = cairn__crowd_slot(c, agents[k], &s);
    if (st != CAIRN_OK) {
      char what[48];
      snprintf(what, sizeof what, "agents[%zu]", k);
      return refuse_handle(c, st, agents[k], what);
    }
  }
  return CAIRN_OK;
}

/* ---- positions and agents ------------------------------------------- */

cairn_status cairn__crowd_check_position(cairn_crowd *c, float x, float y, float r) {
  if (!isfinite(x) || !isfinite(y))
    return cairn__crowd_fail(c, CAIRN_ERR_ARG, "position %g,%g is not finite", (double)x,
                             (double)y);
  if (x < 0.0f || y < 0.0f || x >= (float)c->width || y >= (float)c->height)
    return cairn__crowd_fail(c, CAIRN_ERR_RANGE, "position %g,%g is off the %ldx%ld grid",
                             (double)x, (double)y, (long)c->width, (long)c->height);
  if (cairn__crowd_blocked(c, crowd_cell(x), crowd_cell(y)))
    return cairn__crowd_fail(c, CAIRN_ERR_BLOCKED, "position %g,%g is on blocked cell %ld,%ld",
                             (double)x, (double)y, (long)crowd_cell(x), (long)crowd_cell(y));
  /* the square around the disc, which the tick keeps out of walls */
  if (cairn__crowd_box_blocked(c, x, y, r))
    return cairn__crowd_fail(c, CAIRN_ERR_BLOCKED,
                             "the disc at %g,%g of radius %g reaches a blocked cell or the "
                             "grid's edge",
                             (double)x, (double)y, (double)r);
  return CAIRN_OK;
}

int cairn__crowd_radius_ok(const cairn_crowd *c, float r) {
  return isfinite(r) && r >= CAIRN_CROWD_MIN_RADIUS && r <= CAIRN_CROWD_MAX_RADIUS &&
         2.0f * r <= c->opts.bin_size;
}

cairn_status cairn__crowd_check_params(cairn_crowd *c, const cairn_agent_params *p) {
  if (!isfinite(p->radius) || p->radius < CAIRN_CROWD_MIN_RADIUS ||
      p->radius > CAIRN_CROWD_MAX_RADIUS)
    return cairn__crowd_fail(c, CAIRN_ERR_ARG, "radius %g is not in [%g, %g]",
                             (double)p->radius, (double)CAIRN_CROWD_MIN_RADIUS,
                             (double)CAIRN_CROWD_MAX_RADIUS);
  if (!cairn__crowd_radius_ok(c, p->radius))
    return cairn__crowd_fail(c, CAIRN_ERR_ARG,
                             "radius %g needs opts.bin_size %g or more (it is %g): touching "
                             "discs must lie in neighbouring bins",
                             (double)p->radius, 2.0 * (double)p->radius,
                             (double)c->opts.bin_size);
  if (!isfinite(p->max_speed) || p->max_speed <= 0.0f)
    return cairn__crowd_fail(c, CAIRN_ERR_ARG, "max_speed %g is not above 0",
                             (double)p->max_speed);
  if (p->max_speed * c->opts.dt >= 0.95f)
    return cairn__crowd_fail(c, CAIRN_ERR_ARG,
                             "max_speed %g covers 0.95 cells or more in a tick of %g s "
                             "(below %g)",
                             (double)p->max_speed, (double)c->opts.dt,
                             (double)(0.95f / c->opts.dt));
  return cairn__crowd_check_position(c, p->x, p->y, p->radius);
}

cairn_status cairn__crowd_check_goal(cairn_crowd *c, cairn_point goal) {
  if (!cairn_grid_contains(c->grid, goal.x, goal.y))
    return cairn__crowd_fail(c, CAIRN_ERR_RANGE, "goal %ld,%ld is off the %ldx%ld grid",
                             (long)goal.x, (long)goal.y, (long)c->width, (long)c->height);
  if (cairn__crowd_blocked(c, goal.x, goal.y))
    return cairn__crowd_fail(c, CAIRN_ERR_BLOCKED, "goal %ld,%ld is on a blocked cell",
                             (long)goal.x, (long)goal.y);
  return CAIRN_OK;
}
