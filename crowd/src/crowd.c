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
  o.max_events = 4096;
  o.density_comfort = 1.0f;
  o.density_ticks = 10;
  o.orca_horizon = 3.0f;
  o.orca_neighbours = 6;
  return o;
}

#define CROWD_ARRAYS(X)                                                    \
  X(gen, 1) X(alive, 1) X(order, 1) X(state, 1) X(nstate, 1) X(flags, 1)   \
  X(nflags, 1) X(x, 1) X(y, 1) X(vx, 1) X(vy, 1) X(nx, 1) X(ny, 1)         \
  X(nvx, 1) X(nvy, 1) X(radius, 1) X(speed, 1) X(offx, 1) X(offy, 1)       \
  X(best, 1) X(nbest, 1) X(prog, 1) X(nprog, 1) X(skey, 1) X(faction, 1) X(field, 1) X(group, 1)             \
  X(stall, 1) X(nstall, 1) X(req, 1) X(seed, 1) X(goal, 1)                 \
  X(wp_n, 1) X(wp_i, 1) X(nwp_i, 1) X(wp_partial, 1) X(free_slots, 1)      \
  X(order_of, 1) X(sx, 1) X(sy, 1) X(svx, 1) X(svy, 1) X(sr, 1) X(sslot, 1) \
  X(slot_bin, 1) X(sa, 1) X(user, 1) X(loose, 1) X(loose_mark, 1) X(todo, 1) \
  X(arrive, 1) X(arrive_r, 1) X(dvx, 1) X(dvy, 1)

/* The most commit tasks a tick runs: one a light chunk of agents. */
static size_t commit_tasks(const cairn_crowd *c) {
  return cairn__crowd_tasks(c->cap, cairn__crowd_light_chunk(c));
}

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
  cairn__free(&c->alloc, c->wblk, sizeof *c->wblk * nw * cairn__crowd_wblk_row(c));
  cairn__free(&c->alloc, c->wblk_tick, sizeof *c->wblk_tick * nw);
  cairn__free(&c->alloc, c->wsum, sizeof *c->wsum * nw);
  cairn__free(&c->alloc, c->todo_n, sizeof *c->todo_n * commit_tasks(c));
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
                  &c->alloc, sizeof *c->wblk * nw * cairn__crowd_wblk_row(c)));
  ok = ok && (c->wblk_tick = cairn__alloc_zero(&c->alloc, sizeof *c->wblk_tick * nw));
  ok = ok && (c->wsum = cairn__alloc_zero(&c->alloc, sizeof *c->wsum * nw));
  ok = ok && (c->todo_n = cairn__alloc_zero(&c->alloc, sizeof *c->todo_n * commit_tasks(c)));
  return ok ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

cairn_status cairn_crowd_create(const cairn_grid *grid,
                                const cairn_crowd_opts *opts,
                                const cairn_allocator *alloc,
                                cairn_crowd **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  cairn_crowd_opts o = opts ? *opts : cairn_crowd_defaults();
  cairn_status st = cairn_crowd_check(grid, &o, NULL, 0);
  if (st != CAIRN_OK) return st;
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
  c->moves = cairn_grid_moves(grid, NULL);
  c->cap = o.max_agents;
  c->inv_bin = 1.0f / o.bin_size;
  /* a border of empty bins all round: the neighbour scan reads the 3 x 3
   * bins around any agent's without bounds to check */
  c->nbx = (int32_t)ceilf((float)c->width * c->inv_bin) + 2;
  c->nby = (int32_t)ceilf((float)c->height * c->inv_bin) + 2;
  c->next_group = 1;
  c->layer_seen = o.penalty ? cairn_penalty_version(o.penalty) : 0;
  c->grid_seen = cairn_grid_version(c->grid);
  c->route_seen = cairn_grid_version(c->route);
  st = cairn__workers_init(&c->workers, o.jobs, o.threads, &c->alloc);
  if (st == CAIRN_OK) st = alloc_arrays(c);
  /* no slot was binned at a last tick */
  if (st == CAIRN_OK) memset(c->slot_bin, 0xff, sizeof *c->slot_bin * c->cap);
  if (st == CAIRN_OK) st = cairn_flow_builder_create(&c->alloc, &c->builder);
  if (st == CAIRN_OK) st = cairn_flow_builder_reserve(c->builder, c->route);
  if (st == CAIRN_OK) st = cairn__crowd_density_init(c);
  if (st == CAIRN_OK) {
    cairn_flow_opts fo = cairn_flow_defaults();
    /* the crowd's field builds share its workers */
    fo.jobs = c->workers.jobs;
    fo.threads = 1;
    /* no line of sight: it steers every agent in sight of a goal set at
     * its first goal cell, so a horde would funnel into one cell of a
     * wide gate; the blend of moves spreads them over all of it */
    fo.los_radius = 0;
    fo.penalty = cairn__crowd_field_layer(c);
    st = cairn_flow_cache_create(c->route, o.field_cache_bytes, &fo, &c->alloc,
                                 &c->cache);
  }
  if (st == CAIRN_OK) st = cairn__crowd_queue_init(c);
  if (st == CAIRN_OK) st = cairn__crowd_events_init(c);
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
  cairn__crowd_events_free(c);
  cairn_flow_cache_destroy(c->cache);
  cairn_flow_builder_destroy(c->builder);
  cairn__crowd_density_free(c);
  free_arrays(c);
  cairn__workers_free(&c->workers);
  cairn_allocator a = c->alloc;
  cairn__free(&a, c, sizeof *c);
}

/* ---- handles -------------------------------------------------------- */

cairn_status cairn_crowd_add(cairn_crowd *c, const cairn_agent_params *p,
                             cairn_agent *out) {
  if (!c) return CAIRN_ERR_ARG;
  if (!p || !out) return cairn__crowd_fail(c, CAIRN_ERR_ARG, "add: %s is NULL", p ? "out" : "p");
  *out = 0;
  cairn_status st = cairn__crowd_check_params(c, p);
  if (st != CAIRN_OK) return st;
  uint32_t s;
  if (c->n_free) s = c->free_slots[--c->n_free];
  else if (c->high < c->cap) s = c->high++;
  else
    return cairn__crowd_fail(c, CAIRN_ERR_TOO_LARGE, "all %lu slots are taken (opts.max_agents)",
                             (unsigned long)c->cap);
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
  c->arrive[s] = CAIRN_ARRIVAL_STOP;
  c->arrive_r[s] = 0.0f;
  c->dvx[s] = c->dvy[s] = 0.0f;
  c->user[s] = p->user;
  cairn__crowd_loosen(c, s);
  c->live++;
  *out = (cairn_agent)s | (cairn_agent)c->gen[s] << 32;
  return cairn__crowd_ok(c);
}

cairn_status cairn_crowd_remove(cairn_crowd *c, cairn_agent a) {
  uint32_t s;
  cairn_status st = cairn__crowd_handle(c, a, &s);
  if (st != CAIRN_OK) return st;
  cairn__crowd_clear_order(c, s);
  cairn__crowd_event(c, CAIRN_EVENT_REMOVED, s);
  c->alive[s] = 0;
  c->free_slots[c->n_free++] = s;
  c->live--;
  return cairn__crowd_ok(c);
}

uint32_t cairn_crowd_count(const cairn_crowd *c) { return c ? c->live : 0; }

cairn_status cairn_crowd_get(const cairn_crowd *c, cairn_agent a,
                             cairn_agent_info *out) {
  uint32_t s;
  if (!out) return CAIRN_ERR_ARG;
  cairn_status st = cairn__crowd_slot(c, a, &s);
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
  out->user = c->user[s];
  out->arrival = cairn__crowd_stays(c, s) ? CAIRN_ARRIVAL_STAY : (cairn_arrival)c->arrive[s];
  out->arrival_radius = c->arrive_r[s];
  return CAIRN_OK;
}

cairn_status cairn_crowd_set_position(cairn_crowd *c, cairn_agent a, float x,
                                      float y) {
  uint32_t s;
  cairn_status st = cairn__crowd_handle(c, a, &s);
  if (st != CAIRN_OK) return st;
  if ((st = cairn__crowd_check_position(c, x, y, c->radius[s])) != CAIRN_OK) return st;
  c->x[s] = x;
  c->y[s] = y;
  c->vx[s] = c->vy[s] = 0.0f;
  cairn__crowd_loosen(c, s);
  return cairn__crowd_ok(c);
}

cairn_status cairn_crowd_set_user(cairn_crowd *c, cairn_agent a, uint64_t user) {
  uint32_t s;
  cairn_status st = cairn__crowd_handle(c, a, &s);
  if (st != CAIRN_OK) return st;
  c->user[s] = user;
  return cairn__crowd_ok(c);
}

/* ---- tick, hash, stats ---------------------------------------------- */

cairn_status cairn_crowd_tick(cairn_crowd *c) {
  if (!c) return CAIRN_ERR_ARG;
  c->tick_status = CAIRN_OK;
  cairn_status dst = cairn__crowd_density_tick(c);
  if (dst != CAIRN_OK) /* before anything moved: the tick can be run again */
    return cairn__crowd_fail(c, dst, "tick %llu: repairing the fields to the density: %s",
                             (unsigned long long)c->tick + 1, cairn_status_str(dst));
  c->ev_tick = c->tick + 1;
  if (c->ring_len) { /* timed only with work: a clock read is no free call */
    const uint64_t t0 = cairn__now_ns();
    cairn__crowd_serve(c);
    c->stats.plan_ns += cairn__now_ns() - t0;
  } else {
    cairn__crowd_serve(c);
  }
  cairn__crowd_step(c);
  cairn__crowd_tighten(c);
  c->tick++;
  c->ev_tick = c->tick;
  if (c->tick_status != CAIRN_OK)
    return cairn__crowd_fail(c, c->tick_status,
                             "tick %llu: a path search ran out of memory (retried next tick)",
                             (unsigned long long)c->tick);
  return cairn__crowd_ok(c);
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
             (sizeof *c->wblk * cairn__crowd_wblk_row(c) + sizeof *c->wblk_tick +
              sizeof *c->wsum) +
         sizeof *c->ring * c->ring_cap + sizeof *c->smooth * c->smooth_cap +
         (c->cached ? sizeof *c->cached * c->smooth_cap : 0) +
         sizeof *c->todo_n * commit_tasks(c) + sizeof *c->ev * c->ev_cap +
         cairn_search_memory(c->search) + cairn_flow_builder_memory(c->builder) +
         cairn__crowd_density_memory(c) + fs.bytes;
}
