/* The path request queue: a ring of requests served oldest first, each by
 * a sliced A* on the route grid (under the crowd's cost layer, around the
 * stopped units near the searching one, paying for other units' claims),
 * or over the hierarchy, or from the stored routes of opts.path_cache,
 * under a budget of node expansions per tick. A search the budget cuts
 * short resumes next tick. Also the sequential bookkeeping of paths after
 * each tick: repaths, group continuations, claims. */
#include "crowd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

cairn_status cairn__crowd_queue_init(cairn_crowd *c) {
  /* twice the slots: dropped requests stay in the ring until compacted */
  c->ring_cap = c->cap * 2;
  c->ring = cairn__alloc_zero(&c->alloc, sizeof *c->ring * c->ring_cap);
  /* a smoothed path, or the cells ahead of a unit */
  c->smooth_cap = cairn_grid_passable(c->route) + 2;
  c->smooth = cairn__alloc_zero(&c->alloc, sizeof *c->smooth * c->smooth_cap);
  if (!c->ring || !c->smooth) return CAIRN_ERR_NOMEM;
  if (c->opts.claim_penalty > 0.0f &&
      cairn_claims_create(c->route, &c->alloc, &c->claims) != CAIRN_OK)
    return CAIRN_ERR_NOMEM;
  cairn_status st = cairn_search_create(&c->alloc, &c->search);
  if (st == CAIRN_OK) st = cairn_search_reserve_grid(c->search, c->route);
  if (st == CAIRN_OK) st = cairn_search_reserve_path(c->search, c->smooth_cap);
  if (st == CAIRN_OK && c->opts.hpa) st = cairn_hpa_query_create(&c->alloc, &c->hq);
  if (st == CAIRN_OK && c->opts.hpa) st = cairn_hpa_query_reserve(c->hq, c->opts.hpa);
  if (c->opts.hpa) {
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(c->opts.hpa, &hs);
    c->hpa_max_size = hs.max_size;
  }
  if (st == CAIRN_OK && c->opts.path_cache) {
    cairn_path_cache_opts po;
    cairn_path_cache_get_opts(c->opts.path_cache, &po);
    c->cache_size = po.search.size > 1 ? po.search.size : 1;
    c->cache_trip = 2.0 * po.join_radius;
    c->cached = cairn__alloc(&c->alloc, sizeof *c->cached * c->smooth_cap);
    if (!c->cached) st = CAIRN_ERR_NOMEM;
  }
  return st;
}

void cairn__crowd_queue_free(cairn_crowd *c) {
  cairn_search_destroy(c->search);
  cairn_hpa_query_destroy(c->hq);
  cairn_claims_destroy(c->claims);
  cairn__free(&c->alloc, c->ring, sizeof *c->ring * c->ring_cap);
  cairn__free(&c->alloc, c->smooth, sizeof *c->smooth * c->smooth_cap);
  if (c->cached) cairn__free(&c->alloc, c->cached, sizeof *c->cached * c->smooth_cap);
}

static uint32_t ring_at(const cairn_crowd *c, uint32_t k) {
  return (c->ring_head + k) % c->ring_cap;
}

/* Removes dropped requests, keeping the order (and the head's search). */
static void compact(cairn_crowd *c) {
  uint32_t kept = 0;
  for (uint32_t k = 0; k < c->ring_len; k++) {
    crowd_request r = c->ring[ring_at(c, k)];
    if (!r.live && !(k == 0 && c->in_search)) continue;
    uint32_t to = ring_at(c, kept++);
    c->ring[to] = r;
    if (r.live) c->req[r.slot] = to;
  }
  c->ring_len = kept;
}

void cairn__crowd_drop_request(cairn_crowd *c, uint32_t slot) {
  uint32_t pos = c->req[slot];
  if (pos == CROWD_NO_REQ) return;
  c->ring[pos].live = 0;
  c->req[slot] = CROWD_NO_REQ;
}

void cairn__crowd_request(cairn_crowd *c, uint32_t slot, uint32_t group,
                          cairn_point goal) {
  cairn__crowd_drop_request(c, slot);
  if (c->ring_len == c->ring_cap) compact(c);
  uint32_t pos = ring_at(c, c->ring_len++);
  crowd_request r = {slot, c->gen[slot], group, goal, c->tick, 1, 0, 0, 0, {0, 0}};
  c->ring[pos] = r;
  c->req[slot] = pos;
}

void cairn__crowd_restart_search(cairn_crowd *c) {
  /* the grid changed under the search: begin the head request afresh */
  c->in_search = 0;
}

/* The path's cells after the start, smoothed, become the agent's
 * waypoints: the first opts.waypoints of them (the rest is planned again
 * from the last one when the agent gets there). A group member still on
 * the way to the old list's end (where the continuation starts) keeps its
 * unvisited waypoints, that end included, in front of the new ones. */
static size_t kept_waypoints(const cairn_crowd *c, uint32_t s) {
  if ((c->wp_partial[s] != WP_ASKED && c->wp_partial[s] != WP_FIRST) ||
      c->wp_i[s] >= c->wp_n[s])
    return 0;
  return (size_t)(c->wp_n[s] - c->wp_i[s]);
}

static void give_path(cairn_crowd *c, uint32_t s, const cairn_point *pts,
                      size_t n) {
  uint32_t w = c->opts.waypoints;
  cairn_point *wp = c->wp + (size_t)s * w;
  size_t kept = kept_waypoints(c, s);
  memmove(wp, wp + c->wp_i[s], sizeof *wp * kept);
  size_t room = w - kept, k = n < room ? n : room;
  memcpy(wp + kept, pts, sizeof *pts * k);
  /* planned from the goal cell: on to the goal point, where it arrives as
   * any unit does (held off it, near it), not where it stands */
  if (kept + k == 0) wp[k++] = c->goal[s];
  c->wp_n[s] = (uint16_t)(kept + k);
  c->wp_i[s] = 0;
  c->wp_partial[s] = n > room ? WP_PARTIAL : WP_WHOLE;
  c->state[s] = CAIRN_AGENT_MOVING;
  c->stall[s] = 0;
  c->best[s] = INFINITY;
}

/* Cells of the path ahead of slot s (from its cell through its unvisited
 * waypoints, straight lines between them) into c->smooth; their count. */
static size_t path_ahead(cairn_crowd *c, uint32_t s) {
  const cairn_point *wp = c->wp + (size_t)s * c->opts.waypoints;
  cairn_point at = {crowd_cell(c->x[s]), crowd_cell(c->y[s])};
  size_t n = 0;
  for (uint16_t i = c->wp_i[s]; i < c->wp_n[s]; i++) {
    int32_t dx = wp[i].x - at.x, dy = wp[i].y - at.y;
    int32_t steps = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
    for (int32_t k = 1; k <= steps && n < c->smooth_cap; k++) {
      cairn_point p = {at.x + (int32_t)lround((double)dx * k / steps),
                       at.y + (int32_t)lround((double)dy * k / steps)};
      c->smooth[n++] = p;
    }
    at = wp[i];
  }
  return n;
}

/* Slot s claims what is ahead of it for opts.claim_ticks. */
static void claim_ahead(cairn_crowd *c, uint32_t s) {
  size_t n = path_ahead(c, s);
  /* out of memory for the claim: the unit simply claims nothing */
  if (cairn_claims_set(c->claims, s, c->smooth, n, c->tick + c->opts.claim_ticks) !=
      CAIRN_OK)
    cairn_claims_release(c->claims, s);
}

void cairn__crowd_unclaim(cairn_crowd *c, uint32_t s) {
  if (c->claims) cairn_claims_release(c->claims, s);
}

/* The widest disc among request r's agents (a group's members, or its
 * one agent). */
static float request_radius(const cairn_crowd *c, const crowd_request *r) {
  float most = c->radius[r->slot];
  for (uint32_t m = 0; r->group && m < c->high; m++)
    if (c->alive[m] && c->group[m] == r->group && c->order[m] == CAIRN_ORDER_PATH)
      most = c->radius[m] > most ? c->radius[m] : most;
  return most;
}

int32_t cairn__crowd_request_size(const cairn_crowd *c, const crowd_request *r) {
  return cairn__crowd_size_of(request_radius(c, r)); /* the size grows with the radius */
}

/* The dearest terrain a unit of size k covers at p (0 where it does not
 * fit), from the route grid. */
static uint8_t unit_cost(const cairn_crowd *c, cairn_point p, int32_t k) {
  uint8_t most = 0;
  for (int32_t dy = 0; dy < k; dy++)
    for (int32_t dx = 0; dx < k; dx++) {
      uint8_t t = cairn_grid_cost(c->route, p.x + dx, p.y + dy);
      if (!t) return 0;
      most = t > most ? t : most;
    }
  return most;
}

/* Whether the agents may go straight from raw position a to b: a disc of
 * radius rad on the line between the positions' centres meets no wall
 * (cairn__crowd_disc_sight), and the positions under that line cost at
 * most `limit` (a shortcut never drags the unit through terrain the
 * stretch it replaces went round). */
static int shortcut_ok(const cairn_crowd *c, cairn_point a, cairn_point b, int32_t k, float rad,
                       uint8_t limit) {
  const float o = 0.5f + cairn__crowd_corner(k);
  const float ax = (float)a.x + o, ay = (float)a.y + o, bx = (float)b.x + o, by = (float)b.y + o;
  if (!cairn__crowd_disc_sight(c, ax, ay, bx, by, rad)) return 0;
  const int32_t steps = 2 * (abs(b.x - a.x) + abs(b.y - a.y)) + 1;
  for (int32_t i = 0; i <= steps; i++) {
    const float t = (float)i / (float)steps;
    cairn_point p = cairn__crowd_position(ax + (bx - ax) * t, ay + (by - ay) * t, k);
    const uint8_t u = unit_cost(c, p, k);
    if (!u || u > limit) return 0;
  }
  return 1;
}

/* Greedy string pulling of raw[0..n) into c->smooth for request r's units
 * (their size and widest disc): from each waypoint the shortcut extends
 * one raw point at a time while shortcut_ok holds. The raw steps always
 * hold (their discs stay on the unit's cells), so every point is reached
 * in straight lines. Returns the points after the first (the agent stands
 * on it) through *pts and their count. */
static size_t smooth_after_start(cairn_crowd *c, const crowd_request *r, const cairn_point *raw,
                                 size_t n, const cairn_point **pts) {
  const int32_t k = cairn__crowd_request_size(c, r);
  const float rad = request_radius(c, r);
  size_t m = 0;
  for (size_t i = 0; i < n && m < c->smooth_cap;) {
    c->smooth[m++] = raw[i];
    if (i + 1 == n) break;
    size_t j = i + 1;
    uint8_t dearest = unit_cost(c, raw[i], k);
    const uint8_t next = unit_cost(c, raw[j], k);
    dearest = next > dearest ? next : dearest;
    while (j + 1 < n) {
      const uint8_t u = unit_cost(c, raw[j + 1], k);
      const uint8_t limit = u > dearest ? u : dearest;
      if (!shortcut_ok(c, raw[i], raw[j + 1], k, rad, limit)) break;
      dearest = limit;
      j++;
    }
    i = j;
  }
  *pts = c->smooth + 1;
  return m ? m - 1 : 0;
}

/* Whether slot s waits on request r's path (a group's members: waiting,
 * or walking what they have while the rest is planned). */
static int waits_on(const cairn_crowd *c, const crowd_request *r, uint32_t s) {
  if (!r->group) return s == r->slot;
  return c->alive[s] && c->group[s] == r->group && c->order[s] == CAIRN_ORDER_PATH &&
         (c->state[s] == CAIRN_AGENT_WAITING ||
          (c->state[s] == CAIRN_AGENT_MOVING &&
           (c->wp_partial[s] == WP_ASKED || c->wp_partial[s] == WP_FIRST)));
}

/* Gives pts (n smoothed points after the start) to r's waiting agents
 * whose wp_partial is (first != 0) or is not (first == 0) WP_FIRST;
 * NULL pts: they are unreachable. first_steps: only the route's first
 * refined part, given to those with room for it, the rest to come. */
static void give_all(cairn_crowd *c, const crowd_request *r, const cairn_point *pts,
                     size_t n, int first, int first_steps) {
  for (uint32_t s = r->group ? 0 : r->slot; s < c->high; s++) {
    if (!waits_on(c, r, s) || (c->wp_partial[s] == WP_FIRST) != (first != 0)) {
      if (!r->group) break;
      continue;
    }
    if (!pts) {
      if (c->state[s] != CAIRN_AGENT_UNREACHABLE)
        cairn__crowd_event(c, CAIRN_EVENT_UNREACHABLE, s);
      c->state[s] = CAIRN_AGENT_UNREACHABLE;
    } else if (first_steps) {
      if (kept_waypoints(c, s) + n <= c->opts.waypoints) { /* all, or wait for the whole */
        give_path(c, s, pts, n);
        c->wp_partial[s] = WP_FIRST;
      }
    } else {
      give_path(c, s, pts, n);
      if (!r->group && c->claims) claim_ahead(c, s);
    }
    if (!r->group) break;
  }
}

/* Hands a planned path (raw cells from the request's start, or NULL when
 * none was found) to the request's agent or its group's waiting members.
 * given > 0: the agents marked WP_FIRST already have the first `given`
 * raw cells and get the rest from there; the others get it all. */
static void deliver(cairn_crowd *c, const crowd_request *r, const cairn_point *raw,
                    size_t raw_n, size_t given) {
  uint64_t wait = c->tick - r->enqueued;
  c->stats.wait_hist[wait < 256 ? wait : 256]++;
  c->stats.served++;
  if (!raw) {
    give_all(c, r, NULL, 0, 1, 0);
    give_all(c, r, NULL, 0, 0, 0);
    return;
  }
  const cairn_point *pts;
  size_t n;
  if (given && given <= raw_n) {
    n = smooth_after_start(c, r, raw + given - 1, raw_n - given + 1, &pts);
    give_all(c, r, pts, n, 1, 0);
  }
  n = smooth_after_start(c, r, raw, raw_n, &pts);
  give_all(c, r, pts, n, 0, 0);
}

/* The route's first refined part, to the agents with room for it. */
static void deliver_first(cairn_crowd *c, const crowd_request *r, const cairn_point *raw,
                          size_t raw_n) {
  const cairn_point *pts;
  size_t n = smooth_after_start(c, r, raw, raw_n, &pts);
  give_all(c, r, pts, n, 0, 1);
}

static void finish(cairn_crowd *c, const crowd_request *r, cairn_status st) {
  cairn_result res;
  cairn_search_result(c->search, &res);
  deliver(c, r, st == CAIRN_OK ? res.path : NULL, st == CAIRN_OK ? res.path_len : 0, 0);
}

static void pop(cairn_crowd *c) {
  crowd_request *r = &c->ring[c->ring_head];
  if (r->live && c->req[r->slot] == c->ring_head) c->req[r->slot] = CROWD_NO_REQ;
  c->ring_head = (c->ring_head + 1) % c->ring_cap;
  c->ring_len--;
  c->in_search = 0;
}


/* The position a unit of size k plans from when its disc is centred at
 * slot s's: the one centred nearest it, else (a disc narrower than the
 * unit beside a wall) the first neighbour of it where the unit fits; the
 * nearest one's, to be refused, if none does. */
static cairn_point position_of(const cairn_crowd *c, uint32_t s, int32_t k) {
  cairn_point p = cairn__crowd_position(c->x[s], c->y[s], k);
  if (k == 1 || cairn_grid_clearance(c->route, p.x, p.y) >= k) return p;
  for (int d = 0; d < 8; d++) {
    cairn_point q = {p.x + cairn_flow_dir_dx(d), p.y + cairn_flow_dir_dy(d)};
    if (cairn_grid_clearance(c->route, q.x, q.y) >= k) return q;
  }
  return p;
}

/* Where r's path starts: its own point (a group path's end), else its
 * agent's position for the unit size k. */
static cairn_point start_of(const cairn_crowd *c, const crowd_request *r, int32_t k) {
  return r->from_set ? r->from : position_of(c, r->slot, k);
}

/* Whether unit o is in the way of s: stopped (idle, arrived,
 * unreachable), or, when s is stuck, anything but moving away from it. */
static int in_the_way(const cairn_crowd *c, uint32_t s, uint32_t o, int stuck) {
  uint8_t st = c->state[o];
  if (st == CAIRN_AGENT_IDLE || st == CAIRN_AGENT_ARRIVED || st == CAIRN_AGENT_UNREACHABLE)
    return 1;
  if (!stuck) return 0;
  float away = c->vx[o] * (c->x[o] - c->x[s]) + c->vy[o] * (c->y[o] - c->y[s]);
  return !(away > 0.0f);
}

/* The cells of the units in the way (in_the_way) within opts.avoid_radius
 * of slot s, outside its group, from the bins of the last tick, into
 * c->avoid. */
static void gather_avoid(cairn_crowd *c, uint32_t s, int stuck) {
  c->n_avoid = 0;
  int32_t r = c->opts.avoid_radius;
  if (r <= 0 || !c->n_binned) return;
  int32_t cx = crowd_cell(c->x[s]), cy = crowd_cell(c->y[s]);
  /* a bin more on each side, as the cells' bins are rounded */
  int32_t b0x = cairn__crowd_bin_col(c, (float)(cx - r)) - 1,
          b1x = cairn__crowd_bin_col(c, (float)(cx + r + 1)) + 1,
          b0y = cairn__crowd_bin_col(c, (float)(cy - r)) - 1,
          b1y = cairn__crowd_bin_col(c, (float)(cy + r + 1)) + 1;
  for (int32_t by = b0y < 0 ? 0 : b0y; by <= b1y && by < c->nby; by++)
    for (int32_t bx = b0x < 0 ? 0 : b0x; bx <= b1x && bx < c->nbx; bx++) {
      uint32_t b = (uint32_t)by * (uint32_t)c->nbx + (uint32_t)bx;
      for (uint32_t k = cairn__crowd_bin_first(c, b); k < c->n_binned && c->slot_bin[c->order_of[k]] == b;
           k++) {
        uint32_t o = c->order_of[k];
        if (o == s || !c->alive[o] || (c->group[s] && c->group[o] == c->group[s]) ||
            !in_the_way(c, s, o, stuck))
          continue;
        cairn_point p = {crowd_cell(c->x[o]), crowd_cell(c->y[o])};
        if (abs(p.x - cx) > r || abs(p.y - cy) > r) continue;
        if (c->n_avoid < CROWD_MAX_AVOID) c->avoid[c->n_avoid++] = p;
      }
    }
}

/* The stopped units in r's way into c->avoid (none once r searches
 * through them). */
static void avoid_for(cairn_crowd *c, const crowd_request *r) {
  c->n_avoid = 0;
  if (!r->no_avoid) gather_avoid(c, r->slot, c->state[r->slot] == CAIRN_AGENT_STUCK);
}

/* r's A* begun; `gathered`: avoid_for ran for r already (a lookup in the
 * path cache went before). */
static cairn_status begin(cairn_crowd *c, crowd_request *r, bool gathered) {
  cairn_search_opts o = cairn_search_defaults();
  o.penalty = c->opts.penalty;
  o.size = cairn__crowd_request_size(c, r);
  if (c->claims && !r->group) {
    cairn_claims_release(c->claims, r->slot); /* its own claims would count */
    o.claims = c->claims;
    o.claim_penalty = c->opts.claim_penalty;
    o.claim_radius = c->opts.claim_radius;
  }
  if (!gathered) avoid_for(c, r);
  o.avoid = c->avoid;
  o.n_avoid = c->n_avoid;
  return cairn_astar_begin(c->search, c->route, start_of(c, r, o.size), r->goal, &o);
}

/* Whether request r may take a path from opts.path_cache and hand its
 * search's path in: a unit of the cache's size that pays no claims of
 * its own (a shared route cannot price them), on a trip of at least twice
 * the join radius (a join searches a window that wide, about what a
 * search of a shorter trip costs; and short paths are seldom shared).
 * Stopped units in its way (n_avoid) rule it out too, as the cache's
 * routes walk through them. */
static int cache_fits(const cairn_crowd *c, const crowd_request *r) {
  if (!c->cache_size || (c->claims && !r->group) ||
      cairn__crowd_request_size(c, r) != c->cache_size)
    return 0;
  const cairn_point a = start_of(c, r, c->cache_size);
  return cairn__crowd_octile(a.x, a.y, r->goal.x, r->goal.y) >= c->cache_trip;
}

/* The head request r answered from the cache's stored routes (a walk, or
 * a join within its radius; charged its join search, or 1): returns 1
 * when it was (the request popped and its agents given the path), 0 on a
 * miss or a refusal, when its search goes on as without a cache (a goal
 * that no longer fits is refused there as ever; out of memory here is a
 * miss, the cache staying usable). *gathered: whether it ran avoid_for,
 * whose list the search then takes. */
static int serve_cached(cairn_crowd *c, crowd_request *r, uint64_t *used, bool *gathered) {
  if (!cache_fits(c, r)) return 0;
  avoid_for(c, r);
  *gathered = true;
  if (c->n_avoid) return 0;
  cairn_cached_path got;
  cairn_status st = cairn_path_cache_lookup(c->opts.path_cache, c->search,
                                            start_of(c, r, c->cache_size), r->goal, c->cached,
                                            c->smooth_cap, &got);
  *used += got.expanded ? got.expanded : 1;
  if (st != CAIRN_OK) return 0;
  crowd_request done = *r;
  pop(c);
  deliver(c, &done, c->cached, got.len, 0);
  return 1;
}

/* The exact path the head request's A* found (its options the cache's:
 * cache_fits, no stopped units avoided), handed to the cache for the
 * units after it; out of memory stores nothing. */
static void store_found(cairn_crowd *c, const crowd_request *r) {
  if (!cache_fits(c, r) || c->n_avoid) return;
  cairn_result res;
  cairn_search_result(c->search, &res);
  (void)cairn_path_cache_store(c->opts.path_cache, res.path, res.path_len);
}

/* Charges the head search's expansions since the last charge. */
static void charge(cairn_crowd *c, uint64_t expanded, uint64_t *used) {
  *used += expanded - c->head_expanded;
  c->head_expanded = expanded;
}

/* Per-unit requests with claims need the core's A* (a shared hierarchy
 * cannot price one unit's claims); everything else goes over the
 * hierarchy when the crowd has one (cairn__crowd_req_over_hpa). */
static int over_hpa(const cairn_crowd *c, const crowd_request *r) {
  /* the size (a scan of the group) only when there is a hierarchy */
  return c->opts.hpa && cairn__crowd_req_over_hpa(c, r, cairn__crowd_request_size(c, r));
}

/* A search of the head request ran out of memory: the tick reports it,
 * and the request stays at the head, begun afresh next tick (its agents
 * keep waiting: a failure is never taken for "unreachable"). Returns 0:
 * serve no more this tick. */
static int out_of_memory(cairn_crowd *c) {
  c->in_search = 0;
  if (c->tick_status == CAIRN_OK) c->tick_status = CAIRN_ERR_NOMEM;
  return 0;
}

/* The head request over the hierarchy: the plan (one step: an abstract
 * search cannot be cut), then one abstract edge refined at a time while
 * the budget lasts (an edge whose grid path the hierarchy holds costs no
 * search: it is charged one expansion). After the first refined edges its agents start along
 * them; when the route is refined to the goal they get the rest. Returns
 * 0 when the budget ran out, 1 when the queue may go on (the request done
 * and popped, or to be begun again). */
static int serve_hpa(cairn_crowd *c, crowd_request *r, uint64_t budget, uint64_t *used) {
  cairn_hpa_result res;
  cairn_status st = CAIRN_IN_PROGRESS;
  if (!c->in_search) {
    cairn_hpa_path_opts po = cairn_hpa_path_defaults();
    po.smooth = 0; /* raw legs: a refined prefix never changes */
    po.size = cairn__crowd_request_size(c, r);
    c->in_search = 1;
    c->head_expanded = 0;
    c->head_given = 0;
    c->head_from = start_of(c, r, po.size);
    c->head_refined = 0;
    st = cairn_hpa_plan(c->hq, c->opts.hpa, c->head_from, r->goal, &po, &res);
    charge(c, res.expanded, used);
    if (st == CAIRN_ERR_STATE) { /* a stale hierarchy (a failed edit): A* */
      r->no_hpa = 1;
      c->in_search = 0;
      return 1;
    }
    if (st == CAIRN_ERR_NOMEM) return out_of_memory(c);
  }
  while (st == CAIRN_IN_PROGRESS && *used < budget) {
    uint64_t before = *used;
    st = cairn_hpa_refine(c->hq, 1, &res);
    c->head_refined = res.route_refined;
    charge(c, res.expanded, used);
    if (*used == before) (*used)++; /* a cached leg still costs its copy */
    if (st == CAIRN_ERR_STATE) { /* rebuilt under the route: plan again */
      c->in_search = 0;
      return 1;
    }
    if (st == CAIRN_ERR_NOMEM) return out_of_memory(c);
    if (st == CAIRN_IN_PROGRESS && !c->head_given && res.path_len > 1) {
      deliver_first(c, r, res.path, res.path_len);
      c->head_given = res.path_len;
    }
  }
  if (st == CAIRN_IN_PROGRESS) return 0;
  crowd_request done = *r;
  size_t given = c->head_given;
  pop(c);
  if (st == CAIRN_OK) deliver(c, &done, res.path, res.path_len, given);
  else deliver(c, &done, NULL, 0, 0);
  return 1;
}

void cairn__crowd_serve(cairn_crowd *c) {
  uint64_t budget = c->opts.path_budget, used = 0;
  if (c->claims) cairn_claims_expire(c->claims, c->tick);
  /* a hierarchy's plan may overrun a tick's budget: the next ticks pay */
  if (c->debt >= budget) {
    c->debt -= budget;
    c->stats.tick_nodes = 0;
    return;
  }
  budget -= c->debt;
  c->debt = 0;
  while (c->ring_len && used < budget) {
    crowd_request *r = &c->ring[c->ring_head];
    if (!r->live) {
      pop(c);
      continue;
    }
    bool gathered = false;
    if (!c->in_search && serve_cached(c, r, &used, &gathered)) continue;
    if (over_hpa(c, r)) {
      if (!serve_hpa(c, r, budget, &used)) break;
      continue;
    }
    cairn_status st;
    if (!c->in_search) {
      st = begin(c, r, gathered);
      if (st == CAIRN_ERR_NOMEM) {
        out_of_memory(c);
        break;
      }
      if (st != CAIRN_OK) { /* the goal blocked or off the route grid */
        crowd_request done = *r;
        pop(c);
        finish(c, &done, CAIRN_NO_PATH);
        continue;
      }
      c->in_search = 1;
      c->head_expanded = 0;
      if (used >= budget) break; /* a lookup spent it: the search goes on next tick */
    }
    st = cairn_search_step(c->search, budget - used);
    cairn_result res;
    cairn_search_result(c->search, &res);
    charge(c, res.expanded, &used);
    if (st == CAIRN_IN_PROGRESS) break;
    if (st == CAIRN_ERR_NOMEM) {
      out_of_memory(c);
      break;
    }
    if (st == CAIRN_ERR_STATE) { /* the grid changed under it: again */
      c->in_search = 0;
      continue;
    }
    if (st != CAIRN_OK && c->n_avoid) {
      /* the stopped units walled it in: again, through them */
      r->no_avoid = 1;
      c->in_search = 0;
      continue;
    }
    if (st == CAIRN_OK) store_found(c, r);
    crowd_request done = *r;
    pop(c);
    finish(c, &done, st == CAIRN_OK ? CAIRN_OK : CAIRN_NO_PATH);
  }
  if (used > budget) c->debt = used - budget;
  c->stats.tick_nodes = used;
  if (used > c->stats.max_tick_nodes) c->stats.max_tick_nodes = used;
}

/* The group led (for this request) by s asks for the rest of its path:
 * every member still following the partial list keeps going and takes the
 * continuation when it comes. */
static void ask_rest(cairn_crowd *c, uint32_t s) {
  uint32_t g = c->group[s];
  for (uint32_t m = 0; m < c->high; m++)
    if (c->alive[m] && c->group[m] == g && c->order[m] == CAIRN_ORDER_PATH &&
        c->wp_partial[m] == WP_PARTIAL)
      c->wp_partial[m] = WP_ASKED;
  cairn__crowd_request(c, s, g, c->goal[s]);
  /* from the path's own end: the leader stands off it by its offset */
  crowd_request *r = &c->ring[c->req[s]];
  r->from_set = 1;
  r->from = c->wp[(size_t)s * c->opts.waypoints + c->wp_n[s] - 1];
}

void cairn__crowd_commit_path(cairn_crowd *c, uint32_t s) {
  if (c->state[s] == CAIRN_AGENT_ARRIVED) {
    cairn__crowd_unclaim(c, s);
    return;
  }
  if (c->flags[s] & AF_REPATH) {
    int at_end = c->wp_partial[s] && c->wp_i[s] + 1 >= c->wp_n[s];
    if (at_end && c->wp_partial[s] == WP_FIRST) { /* the rest is coming */
      c->state[s] = CAIRN_AGENT_WAITING;
      return;
    }
    if (at_end && c->group[s]) { /* the group's path continues */
      if (c->wp_partial[s] == WP_PARTIAL) ask_rest(c, s);
      c->state[s] = CAIRN_AGENT_WAITING;
      return;
    }
    c->state[s] = at_end ? CAIRN_AGENT_WAITING : CAIRN_AGENT_STUCK;
    if (!at_end) { /* no progress for opts.stuck_ticks: a path of its own */
      cairn__crowd_event(c, CAIRN_EVENT_STUCK, s);
      cairn__crowd_event(c, CAIRN_EVENT_REPATHED, s);
    }
    c->group[s] = 0;
    c->offx[s] = c->offy[s] = 0.0f; /* out of formation: its own path */
    c->wp_partial[s] = WP_WHOLE; /* a fresh path, from where it stands */
    c->wp_n[s] = c->wp_i[s] = 0;
    cairn__crowd_request(c, s, 0, c->goal[s]);
    return;
  }
  if (c->claims && !c->group[s] && c->state[s] == CAIRN_AGENT_MOVING)
    claim_ahead(c, s); /* passed a waypoint: the walked part is let go */
}
