/* Crowds: create, agents and handles, orders, hash and stats. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

cairn_crowd_opts cairn_crowd_defaults(void) {
  cairn_crowd_opts o;
  memset(&o, 0, sizeof o);
  o.max_agents = 1024;
  o.dt = 0.1f;
  o.bin_size = 1.0f;
  o.neighbour_radius = 1.0f;
  o.chunk = 256;
  o.path_budget = 20000;
  o.waypoints = 16;
  o.stuck_ticks = 30;
  o.field_cache_bytes = (size_t)256 << 20;
  o.avoid_radius = 2;
  o.claim_radius = 16;
  o.claim_ticks = 300;
  return o;
}

static int opts_ok(const cairn_crowd_opts *o) {
  return o->max_agents >= 1 && o->max_agents <= CAIRN_CROWD_MAX_AGENTS &&
         isfinite(o->dt) && o->dt > 0.0f && o->dt <= 1.0f &&
         isfinite(o->bin_size) && o->bin_size >= 0.5f && o->bin_size <= 64.0f &&
         isfinite(o->neighbour_radius) && o->neighbour_radius > 0.0f &&
         o->neighbour_radius <= o->bin_size && o->threads >= 0 &&
         o->chunk >= 1 && o->path_budget >= 1 && o->waypoints >= 2 &&
         o->waypoints <= 4096 && o->stuck_ticks >= 1 && o->avoid_radius >= 0 &&
         o->avoid_radius <= 64 && isfinite(o->claim_penalty) &&
         o->claim_penalty >= 0.0f && o->claim_penalty <= 1000.0f &&
         o->claim_radius >= 0 && o->claim_ticks >= 1;
}

/* The route grid must have the walk grid's size and walls: agents steer on
 * its fields and paths but collide with the walk grid. */
static int same_walls(const cairn_grid *a, const cairn_grid *b) {
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

#define CROWD_ARRAYS(X)                                                    \
  X(gen, 1) X(alive, 1) X(order, 1) X(state, 1) X(nstate, 1) X(flags, 1)   \
  X(nflags, 1) X(x, 1) X(y, 1) X(vx, 1) X(vy, 1) X(nx, 1) X(ny, 1)         \
  X(nvx, 1) X(nvy, 1) X(radius, 1) X(speed, 1) X(offx, 1) X(offy, 1)       \
  X(best, 1) X(nbest, 1) X(prog, 1) X(nprog, 1) X(skey, 1) X(faction, 1) X(field, 1) X(group, 1)             \
  X(stall, 1) X(nstall, 1) X(req, 1) X(seed, 1) X(goal, 1)                 \
  X(wp_n, 1) X(wp_i, 1) X(nwp_i, 1) X(wp_partial, 1) X(free_slots, 1)      \
  X(order_of, 1) X(sx, 1) X(sy, 1) X(svx, 1) X(svy, 1) X(sr, 1) X(sslot, 1) \
  X(slot_bin, 1) X(sa, 1)

static void free_arrays(cairn_crowd *c) {
  size_t n = c->cap;
#define FREE_ONE(name, k) cairn__free(&c->alloc, c->name, sizeof *c->name * n * (k));
  CROWD_ARRAYS(FREE_ONE)
#undef FREE_ONE
  cairn__free(&c->alloc, c->wp, sizeof *c->wp * n * c->opts.waypoints);
  cairn__free(&c->alloc, c->bin_start,
              sizeof *c->bin_start * ((size_t)c->nbx * (size_t)c->nby + 1));
  cairn__free(&c->alloc, c->blk_sum, sizeof *c->blk_sum * cairn__crowd_bin_blocks(c));
  size_t nw = cairn__workers_count(&c->workers);
  cairn__free(&c->alloc, c->wblk, sizeof *c->wblk * nw * cairn__crowd_bin_blocks(c));
  cairn__free(&c->alloc, c->wblk_tick, sizeof *c->wblk_tick * nw);
  cairn__free(&c->alloc, c->wsum, sizeof *c->wsum * nw);
}

static cairn_status alloc_arrays(cairn_crowd *c) {
  size_t n = c->cap;
  int ok = 1;
#define ALLOC_ONE(name, k) \
  ok = ok && (c->name = cairn__alloc_zero(&c->alloc, sizeof *c->name * n * (k))) != NULL;
  CROWD_ARRAYS(ALLOC_ONE)
#undef ALLOC_ONE
  ok = ok && (c->wp = cairn__alloc_zero(&c->alloc, sizeof *c->wp * n * c->opts.waypoints));
  ok = ok && (c->bin_start = cairn__alloc_zero(
                  &c->alloc, sizeof *c->bin_start * ((size_t)c->nbx * (size_t)c->nby + 1)));
  ok = ok && (c->blk_sum = cairn__alloc_zero(
                  &c->alloc, sizeof *c->blk_sum * cairn__crowd_bin_blocks(c)));
  size_t nw = cairn__workers_count(&c->workers);
  ok = ok && (c->wblk = cairn__alloc_zero(
                  &c->alloc, sizeof *c->wblk * nw * cairn__crowd_bin_blocks(c)));
  ok = ok && (c->wblk_tick = cairn__alloc_zero(&c->alloc, sizeof *c->wblk_tick * nw));
  ok = ok && (c->wsum = cairn__alloc_zero(&c->alloc, sizeof *c->wsum * nw));
  return ok ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

cairn_status cairn_crowd_create(const cairn_grid *grid,
                                const cairn_crowd_opts *opts,
                                const cairn_allocator *alloc,
                                cairn_crowd **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  cairn_crowd_opts o = opts ? *opts : cairn_crowd_defaults();
  if (!grid || !opts_ok(&o) || cairn_jobs_check(o.jobs) != CAIRN_OK) return CAIRN_ERR_ARG;
  if (o.route_grid && !same_walls(grid, o.route_grid)) return CAIRN_ERR_ARG;
  if (o.penalty && !cairn_penalty_fits(o.penalty, grid)) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_crowd *c = cairn__alloc_zero(&a, sizeof *c);
  if (!c) return CAIRN_ERR_NOMEM;
  c->alloc = a;
  c->opts = o;
  c->grid = grid;
  c->route = o.route_grid ? o.route_grid : grid;
  c->width = cairn_grid_width(grid);
  c->height = cairn_grid_height(grid);
  c->cells = cairn_grid_cells(grid, &c->stride);
  c->cap = o.max_agents;
  c->inv_bin = 1.0f / o.bin_size;
  /* a border of empty bins all round: the neighbour scan reads the 3 x 3
   * bins around any agent's without bounds to check */
  c->nbx = (int32_t)ceilf((float)c->width * c->inv_bin) + 2;
  c->nby = (int32_t)ceilf((float)c->height * c->inv_bin) + 2;
  c->next_group = 1;
  c->layer_seen = o.penalty ? cairn_penalty_version(o.penalty) : 0;
  cairn_status st = cairn__workers_init(&c->workers, o.jobs, o.threads, &c->alloc);
  if (st == CAIRN_OK) st = alloc_arrays(c);
  /* no slot was binned at a last tick */
  if (st == CAIRN_OK) memset(c->slot_bin, 0xff, sizeof *c->slot_bin * c->cap);
  if (st == CAIRN_OK) st = cairn_flow_builder_create(&c->alloc, &c->builder);
  if (st == CAIRN_OK) st = cairn_flow_builder_reserve(c->builder, c->route);
  if (st == CAIRN_OK) {
    cairn_flow_opts fo = cairn_flow_defaults();
    /* the crowd's field builds share its workers */
    fo.jobs = c->workers.jobs;
    fo.threads = 1;
    /* no line of sight: it steers every agent in sight of a goal set at
     * its first goal cell, so a horde would funnel into one cell of a
     * wide gate; the blend of moves spreads them over all of it */
    fo.los_radius = 0;
    fo.penalty = o.penalty;
    st = cairn_flow_cache_create(c->route, o.field_cache_bytes, &fo, &c->alloc,
                                 &c->cache);
  }
  if (st == CAIRN_OK) st = cairn__crowd_queue_init(c);
  if (st != CAIRN_OK) {
    cairn_crowd_destroy(c);
    return st;
  }
  *out = c;
  return CAIRN_OK;
}

void cairn_crowd_destroy(cairn_crowd *c) {
  if (!c) return;
  cairn__crowd_queue_free(c);
  cairn_flow_cache_destroy(c->cache);
  cairn_flow_builder_destroy(c->builder);
  free_arrays(c);
  cairn__workers_free(&c->workers);
  cairn_allocator a = c->alloc;
  cairn__free(&a, c, sizeof *c);
}

/* ---- handles -------------------------------------------------------- */

/* CAIRN_OK with *slot for a live agent's handle; CAIRN_ERR_STATE for a
 * handle whose agent was removed (its generation moved on); CAIRN_ERR_ARG
 * for one that never named a slot. */
static cairn_status slot_of(const cairn_crowd *c, cairn_agent a, uint32_t *slot) {
  uint32_t s = (uint32_t)(a & 0xffffffffu), g = (uint32_t)(a >> 32);
  if (!c || g == 0 || s >= c->high) return CAIRN_ERR_ARG;
  if (c->gen[s] != g || !c->alive[s]) return CAIRN_ERR_STATE;
  *slot = s;
  return CAIRN_OK;
}

static cairn_status check_all(const cairn_crowd *c, const cairn_agent *agents,
                              size_t n) {
  if (!c || (!agents && n)) return CAIRN_ERR_ARG;
  for (size_t k = 0; k < n; k++) {
    uint32_t s;
    cairn_status st = slot_of(c, agents[k], &s);
    if (st != CAIRN_OK) return st;
  }
  return CAIRN_OK;
}

static cairn_status check_position(const cairn_crowd *c, float x, float y) {
  if (!isfinite(x) || !isfinite(y)) return CAIRN_ERR_ARG;
  if (x < 0.0f || y < 0.0f || x >= (float)c->width || y >= (float)c->height)
    return CAIRN_ERR_RANGE;
  if (cairn__crowd_blocked(c, crowd_cell(x), crowd_cell(y))) return CAIRN_ERR_BLOCKED;
  return CAIRN_OK;
}

cairn_status cairn_crowd_add(cairn_crowd *c, const cairn_agent_params *p,
                             cairn_agent *out) {
  if (!c || !p || !out) return CAIRN_ERR_ARG;
  *out = 0;
  if (!isfinite(p->radius) || p->radius < 0.05f || p->radius > 0.5f ||
      !isfinite(p->max_speed) || p->max_speed <= 0.0f ||
      p->max_speed * c->opts.dt >= 0.95f)
    return CAIRN_ERR_ARG;
  cairn_status st = check_position(c, p->x, p->y);
  if (st != CAIRN_OK) return st;
  uint32_t s;
  if (c->n_free) s = c->free_slots[--c->n_free];
  else if (c->high < c->cap) s = c->high++;
  else return CAIRN_ERR_TOO_LARGE;
  if (++c->gen[s] == 0) c->gen[s] = 1; /* 0 is never a valid generation */
  c->alive[s] = 1;
  c->x[s] = p->x;
  c->y[s] = p->y;
  c->vx[s] = c->vy[s] = 0.0f;
  c->radius[s] = p->radius;
  c->speed[s] = p->max_speed;
  c->faction[s] = p->faction;
  c->order[s] = CAIRN_ORDER_HOLD;
  c->state[s] = CAIRN_AGENT_IDLE;
  c->field[s] = CROWD_NO_FIELD;
  c->group[s] = 0;
  c->req[s] = CROWD_NO_REQ;
  c->wp_n[s] = c->wp_i[s] = 0;
  c->offx[s] = c->offy[s] = 0.0f;
  c->stall[s] = 0;
  c->best[s] = INFINITY;
  c->prog[s] = INFINITY;
  c->flags[s] = 0;
  c->live++;
  *out = (cairn_agent)s | (cairn_agent)c->gen[s] << 32;
  return CAIRN_OK;
}

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
static void clear_order(cairn_crowd *c, uint32_t s) {
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

cairn_status cairn_crowd_remove(cairn_crowd *c, cairn_agent a) {
  uint32_t s;
  cairn_status st = slot_of(c, a, &s);
  if (st != CAIRN_OK) return st;
  clear_order(c, s);
  c->alive[s] = 0;
  c->free_slots[c->n_free++] = s;
  c->live--;
  return CAIRN_OK;
}

uint32_t cairn_crowd_count(const cairn_crowd *c) { return c ? c->live : 0; }

cairn_status cairn_crowd_get(const cairn_crowd *c, cairn_agent a,
                             cairn_agent_info *out) {
  uint32_t s;
  if (!out) return CAIRN_ERR_ARG;
  cairn_status st = slot_of(c, a, &s);
  if (st != CAIRN_OK) return st;
  out->x = c->x[s];
  out->y = c->y[s];
  out->vx = c->vx[s];
  out->vy = c->vy[s];
  out->radius = c->radius[s];
  out->max_speed = c->speed[s];
  out->faction = c->faction[s];
  out->order = (cairn_order_kind)c->order[s];
  out->state = (cairn_agent_state)c->state[s];
  out->group = c->group[s];
  return CAIRN_OK;
}

cairn_status cairn_crowd_set_position(cairn_crowd *c, cairn_agent a, float x,
                                      float y) {
  uint32_t s;
  cairn_status st = slot_of(c, a, &s);
  if (st != CAIRN_OK) return st;
  if ((st = check_position(c, x, y)) != CAIRN_OK) return st;
  c->x[s] = x;
  c->y[s] = y;
  c->vx[s] = c->vy[s] = 0.0f;
  return CAIRN_OK;
}

/* ---- orders --------------------------------------------------------- */

cairn_status cairn_crowd_order_field(cairn_crowd *c, const cairn_agent *agents,
                                     size_t n, const cairn_point *goals,
                                     size_t n_goals) {
  cairn_status st = check_all(c, agents, n);
  if (st != CAIRN_OK) return st;
  if (!goals || !n_goals) return CAIRN_ERR_ARG;
  if (!n) return CAIRN_OK;
  const cairn_field *f;
  if ((st = cairn_flow_cache_acquire(c->cache, c->builder, goals, n_goals, &f)) != CAIRN_OK)
    return st;
  /* one slot per field: the cache hands the same field for the same goals */
  uint16_t k = CROWD_NO_FIELD, free_k = CROWD_NO_FIELD;
  for (uint16_t i = 0; i < CROWD_MAX_FIELDS; i++) {
    if (c->fields[i].field == f) k = i;
    if (!c->fields[i].field && free_k == CROWD_NO_FIELD) free_k = i;
  }
  if (k == CROWD_NO_FIELD) {
    if (free_k == CROWD_NO_FIELD) {
      cairn_flow_cache_release(c->cache, f);
      return CAIRN_ERR_TOO_LARGE;
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
    clear_order(c, s);
    c->order[s] = CAIRN_ORDER_FIELD;
    c->state[s] = CAIRN_AGENT_MOVING;
    c->field[s] = k;
    c->fields[k].users++;
  }
  c->fields[k].users--;
  return CAIRN_OK;
}

static cairn_status check_goal(const cairn_crowd *c, cairn_point goal) {
  if (!cairn_grid_contains(c->grid, goal.x, goal.y)) return CAIRN_ERR_RANGE;
  if (cairn__crowd_blocked(c, goal.x, goal.y)) return CAIRN_ERR_BLOCKED;
  return CAIRN_OK;
}

static void start_path(cairn_crowd *c, uint32_t s, uint32_t group,
                       cairn_point goal) {
  clear_order(c, s);
  c->order[s] = CAIRN_ORDER_PATH;
  c->state[s] = CAIRN_AGENT_WAITING;
  c->group[s] = group;
  c->goal[s] = goal;
}

cairn_status cairn_crowd_order_path(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n, cairn_point goal) {
  cairn_status st = check_all(c, agents, n);
  if (st != CAIRN_OK) return st;
  if ((st = check_goal(c, goal)) != CAIRN_OK) return st;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = (uint32_t)(agents[i] & 0xffffffffu);
    start_path(c, s, 0, goal);
    cairn__crowd_request(c, s, 0, goal);
  }
  return CAIRN_OK;
}

/* Formation: each member keeps its offset from the group's centre, scaled
 * down so the formation is no wider than about 0.6 sqrt(n) cells. */
cairn_status cairn_crowd_order_move(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n, cairn_point goal) {
  cairn_status st = check_all(c, agents, n);
  if (st != CAIRN_OK) return st;
  if ((st = check_goal(c, goal)) != CAIRN_OK) return st;
  if (!n) return CAIRN_OK;
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
  return CAIRN_OK;
}

cairn_status cairn_crowd_order_hold(cairn_crowd *c, const cairn_agent *agents,
                                    size_t n) {
  cairn_status st = check_all(c, agents, n);
  if (st != CAIRN_OK) return st;
  for (size_t i = 0; i < n; i++) clear_order(c, (uint32_t)(agents[i] & 0xffffffffu));
  return CAIRN_OK;
}

cairn_status cairn_crowd_order_wander(cairn_crowd *c, const cairn_agent *agents,
                                      size_t n, uint64_t seed) {
  cairn_status st = check_all(c, agents, n);
  if (st != CAIRN_OK) return st;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = (uint32_t)(agents[i] & 0xffffffffu);
    clear_order(c, s);
    c->order[s] = CAIRN_ORDER_WANDER;
    c->state[s] = CAIRN_AGENT_MOVING;
    c->seed[s] = seed ^ ((uint64_t)s * 0x9e3779b97f4a7c15ull);
  }
  return CAIRN_OK;
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
        return;
      }
}

cairn_status cairn_crowd_grid_changed(cairn_crowd *c, const cairn_point *cells,
                                      size_t n) {
  if (!c || (!cells && n)) return CAIRN_ERR_ARG;
  if (!same_walls(c->grid, c->route)) return CAIRN_ERR_ARG;
  cairn_status st = cairn_flow_cache_update(c->cache, c->builder, cells, n, NULL, NULL);
  if (st != CAIRN_OK) return st;
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
  }
  return CAIRN_OK;
}

/* The cache brings its fields to the layer's version, repairing the held
 * ones over the cells that changed; a search in progress begins again. */
cairn_status cairn_crowd_layer_changed(cairn_crowd *c) {
  if (!c) return CAIRN_ERR_ARG;
  if (!c->opts.penalty) return CAIRN_OK;
  uint64_t v = cairn_penalty_version(c->opts.penalty);
  if (v == c->layer_seen) return CAIRN_OK;
  cairn__crowd_restart_search(c); /* a search must not see the layer move */
  cairn_status st = cairn_flow_cache_layer_changed(c->cache, c->builder, NULL, NULL);
  if (st == CAIRN_OK) c->layer_seen = v;
  return st;
}

/* ---- tick, hash, stats ---------------------------------------------- */

cairn_status cairn_crowd_tick(cairn_crowd *c) {
  if (!c) return CAIRN_ERR_ARG;
  c->tick_status = CAIRN_OK;
  cairn__crowd_serve(c);
  cairn__crowd_step(c);
  c->tick++;
  return c->tick_status;
}

static uint64_t mix(uint64_t h, uint32_t v) {
  for (int k = 0; k < 4; k++) {
    h ^= (v >> (8 * k)) & 0xffu;
    h *= 0x100000001b3ull;
  }
  return h;
}

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

uint64_t cairn_crowd_hash(const cairn_crowd *c) {
  uint64_t h = 0xcbf29ce484222325ull;
  if (!c) return h;
  h = mix(h, (uint32_t)c->tick);
  for (uint32_t s = 0; s < c->high; s++) {
    if (!c->alive[s]) continue;
    h = mix(h, s);
    h = mix(h, bits(c->x[s]));
    h = mix(h, bits(c->y[s]));
    h = mix(h, bits(c->vx[s]));
    h = mix(h, bits(c->vy[s]));
    h = mix(h, (uint32_t)c->state[s] | (uint32_t)c->order[s] << 8 |
                   (uint32_t)c->wp_i[s] << 16);
  }
  return h;
}

void cairn_crowd_get_stats(const cairn_crowd *c, cairn_crowd_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!c) return;
  *out = c->stats;
  out->ticks = c->tick;
  out->agents = c->live;
  out->queued = c->ring_len;
  out->active = c->n_binned;
  for (uint32_t s = 0; s < c->high; s++) {
    if (!c->alive[s]) continue;
    switch (c->state[s]) {
    case CAIRN_AGENT_MOVING:
      out->moving++;
      if (c->stall[s] > c->opts.stuck_ticks) out->stuck++;
      break;
    case CAIRN_AGENT_WAITING: out->waiting++; break;
    case CAIRN_AGENT_ARRIVED: out->arrived++; break;
    case CAIRN_AGENT_UNREACHABLE: out->unreachable++; break;
    case CAIRN_AGENT_STUCK: out->stuck++; break;
    default: break;
    }
  }
}

size_t cairn_crowd_memory(const cairn_crowd *c) {
  if (!c) return 0;
  size_t per_agent = 0;
#define SIZE_ONE(name, k) per_agent += sizeof *c->name * (k);
  CROWD_ARRAYS(SIZE_ONE)
#undef SIZE_ONE
  per_agent += sizeof *c->wp * c->opts.waypoints;
  cairn_flow_cache_stats fs;
  cairn_flow_cache_get_stats(c->cache, &fs);
  return sizeof *c + per_agent * c->cap +
         sizeof *c->bin_start * ((size_t)c->nbx * (size_t)c->nby + 1) +
         sizeof *c->blk_sum * cairn__crowd_bin_blocks(c) +
         cairn__workers_count(&c->workers) *
             (sizeof *c->wblk * cairn__crowd_bin_blocks(c) + sizeof *c->wblk_tick +
              sizeof *c->wsum) +
         sizeof *c->ring * c->ring_cap + sizeof *c->smooth * c->smooth_cap +
         cairn_search_memory(c->search) + cairn_flow_builder_memory(c->builder) +
         fs.bytes;
}
