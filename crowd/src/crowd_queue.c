/* The path request queue: a ring of requests served oldest first, each by
 * a sliced A* on the route grid (under the crowd's cost layer, around the
 * stopped units near the searching one, paying for other units' claims),
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
  c->ring = cairn__crowd_alloc(c, sizeof *c->ring * c->ring_cap);
  /* a smoothed path, the cells ahead of a unit, or one layer tile */
  c->smooth_cap = cairn_grid_passable(c->route) + 2;
  if (c->smooth_cap < CAIRN_PENALTY_TILE * CAIRN_PENALTY_TILE)
    c->smooth_cap = CAIRN_PENALTY_TILE * CAIRN_PENALTY_TILE;
  c->smooth = cairn__crowd_alloc(c, sizeof *c->smooth * c->smooth_cap);
  if (!c->ring || !c->smooth) return CAIRN_ERR_NOMEM;
  if (c->opts.claim_penalty > 0.0f &&
      cairn_claims_create(c->route, &c->alloc, &c->claims) != CAIRN_OK)
    return CAIRN_ERR_NOMEM;
  cairn_status st = cairn_search_create(&c->alloc, &c->search);
  if (st == CAIRN_OK) st = cairn_search_reserve_grid(c->search, c->route);
  if (st == CAIRN_OK) st = cairn_search_reserve_path(c->search, c->smooth_cap);
  return st;
}

void cairn__crowd_queue_free(cairn_crowd *c) {
  cairn_search_destroy(c->search);
  cairn_claims_destroy(c->claims);
  cairn__crowd_free(c, c->ring, sizeof *c->ring * c->ring_cap);
  cairn__crowd_free(c, c->smooth, sizeof *c->smooth * c->smooth_cap);
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
  crowd_request r = {slot, c->gen[slot], group, goal, c->tick, 1, 0, 0, {0, 0}};
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
static void give_path(cairn_crowd *c, uint32_t s, const cairn_point *pts,
                      size_t n) {
  uint32_t w = c->opts.waypoints;
  cairn_point *wp = c->wp + (size_t)s * w;
  size_t kept = 0;
  if (c->wp_partial[s] == WP_ASKED && c->wp_i[s] < c->wp_n[s]) {
    kept = (size_t)(c->wp_n[s] - c->wp_i[s]);
    memmove(wp, wp + c->wp_i[s], sizeof *wp * kept);
  }
  size_t room = w - kept, k = n < room ? n : room;
  memcpy(wp + kept, pts, sizeof *pts * k);
  c->wp_n[s] = (uint16_t)(kept + k);
  c->wp_i[s] = 0;
  c->wp_partial[s] = n > room ? WP_PARTIAL : WP_WHOLE;
  c->state[s] = kept + k ? CAIRN_AGENT_MOVING : CAIRN_AGENT_ARRIVED;
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

static void finish(cairn_crowd *c, const crowd_request *r, cairn_status st) {
  const cairn_point *pts = NULL;
  size_t n = 0;
  if (st == CAIRN_OK) {
    cairn_result res;
    cairn_search_result(c->search, &res);
    double len;
    if (cairn_smooth_path(c->route, res.path, res.path_len, c->smooth,
                          c->smooth_cap, &n, &len) != CAIRN_OK) {
      memcpy(c->smooth, res.path, sizeof *res.path * res.path_len);
      n = res.path_len;
    }
    pts = c->smooth + 1;
    n = n ? n - 1 : 0;
  }
  uint64_t wait = c->tick - r->enqueued;
  c->stats.wait_hist[wait < 256 ? wait : 256]++;
  c->stats.served++;
  for (uint32_t s = r->group ? 0 : r->slot; s < c->high; s++) {
    if (r->group && (!c->alive[s] || c->group[s] != r->group ||
                     c->order[s] != CAIRN_ORDER_PATH ||
                     !(c->state[s] == CAIRN_AGENT_WAITING ||
                       (c->state[s] == CAIRN_AGENT_MOVING &&
                        c->wp_partial[s] == WP_ASKED))))
      continue;
    if (st == CAIRN_OK) give_path(c, s, pts, n);
    else c->state[s] = CAIRN_AGENT_UNREACHABLE;
    if (!r->group) {
      if (c->claims && st == CAIRN_OK) claim_ahead(c, s);
      break;
    }
  }
}

static void pop(cairn_crowd *c) {
  crowd_request *r = &c->ring[c->ring_head];
  if (r->live && c->req[r->slot] == c->ring_head) c->req[r->slot] = CROWD_NO_REQ;
  c->ring_head = (c->ring_head + 1) % c->ring_cap;
  c->ring_len--;
  c->in_search = 0;
}

static cairn_point cell_of(const cairn_crowd *c, uint32_t s) {
  cairn_point p = {crowd_cell(c->x[s]), crowd_cell(c->y[s])};
  return p;
}

/* The cells of stopped units (idle, arrived, unreachable) within
 * opts.avoid_radius of slot s, outside its group, from the bins of the
 * last tick, into c->avoid. */
static void gather_avoid(cairn_crowd *c, uint32_t s) {
  c->n_avoid = 0;
  int32_t r = c->opts.avoid_radius;
  if (r <= 0 || !c->n_binned) return;
  int32_t cx = crowd_cell(c->x[s]), cy = crowd_cell(c->y[s]);
  int32_t b0x = (int32_t)((float)(cx - r) * c->inv_bin) - 1,
          b1x = (int32_t)((float)(cx + r + 1) * c->inv_bin) + 1,
          b0y = (int32_t)((float)(cy - r) * c->inv_bin) - 1,
          b1y = (int32_t)((float)(cy + r + 1) * c->inv_bin) + 1;
  for (int32_t by = b0y < 0 ? 0 : b0y; by <= b1y && by < c->nby; by++)
    for (int32_t bx = b0x < 0 ? 0 : b0x; bx <= b1x && bx < c->nbx; bx++) {
      uint32_t b = (uint32_t)by * (uint32_t)c->nbx + (uint32_t)bx;
      for (uint32_t k = c->bin_start[b]; k < c->bin_start[b + 1]; k++) {
        uint32_t o = c->order_of[k];
        uint8_t st = c->state[o];
        if (o == s || !c->alive[o] ||
            (c->group[s] && c->group[o] == c->group[s]) ||
            !(st == CAIRN_AGENT_IDLE || st == CAIRN_AGENT_ARRIVED ||
              st == CAIRN_AGENT_UNREACHABLE))
          continue;
        cairn_point p = {crowd_cell(c->x[o]), crowd_cell(c->y[o])};
        if (abs(p.x - cx) > r || abs(p.y - cy) > r) continue;
        if (c->n_avoid < CROWD_MAX_AVOID) c->avoid[c->n_avoid++] = p;
      }
    }
}

static cairn_status begin(cairn_crowd *c, crowd_request *r) {
  cairn_search_opts o = cairn_search_defaults();
  o.penalty = c->opts.penalty;
  if (c->claims && !r->group) {
    cairn_claims_release(c->claims, r->slot); /* its own claims would count */
    o.claims = c->claims;
    o.claim_penalty = c->opts.claim_penalty;
    o.claim_radius = c->opts.claim_radius;
  }
  c->n_avoid = 0;
  if (!r->no_avoid) gather_avoid(c, r->slot);
  o.avoid = c->avoid;
  o.n_avoid = c->n_avoid;
  cairn_point from = r->from_set ? r->from : cell_of(c, r->slot);
  return cairn_astar_begin(c->search, c->route, from, r->goal, &o);
}

void cairn__crowd_serve(cairn_crowd *c) {
  uint64_t budget = c->opts.path_budget, used = 0;
  if (c->claims) cairn_claims_expire(c->claims, c->tick);
  while (c->ring_len && used < budget) {
    crowd_request *r = &c->ring[c->ring_head];
    if (!r->live) {
      pop(c);
      continue;
    }
    cairn_status st;
    if (!c->in_search) {
      st = begin(c, r);
      if (st != CAIRN_OK) {
        crowd_request done = *r;
        pop(c);
        finish(c, &done, CAIRN_NO_PATH);
        continue;
      }
      c->in_search = 1;
      c->head_expanded = 0;
    }
    st = cairn_search_step(c->search, budget - used);
    cairn_result res;
    cairn_search_result(c->search, &res);
    used += res.expanded - c->head_expanded;
    c->head_expanded = res.expanded;
    if (st == CAIRN_IN_PROGRESS) break;
    if (st != CAIRN_OK && c->n_avoid) {
      /* the stopped units walled it in: again, through them */
      r->no_avoid = 1;
      c->in_search = 0;
      continue;
    }
    crowd_request done = *r;
    pop(c);
    finish(c, &done, st == CAIRN_OK ? CAIRN_OK : CAIRN_NO_PATH);
  }
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
    if (at_end && c->group[s]) { /* the group's path continues */
      if (c->wp_partial[s] == WP_PARTIAL) ask_rest(c, s);
      c->state[s] = CAIRN_AGENT_WAITING;
      return;
    }
    c->state[s] = at_end ? CAIRN_AGENT_WAITING : CAIRN_AGENT_STUCK;
    c->group[s] = 0;
    c->wp_partial[s] = WP_WHOLE; /* a fresh path, from where it stands */
    c->wp_n[s] = c->wp_i[s] = 0;
    cairn__crowd_request(c, s, 0, c->goal[s]);
    return;
  }
  if (c->claims && !c->group[s] && c->state[s] == CAIRN_AGENT_MOVING)
    claim_ahead(c, s); /* passed a waypoint: the walked part is let go */
}
