/* The path request queue: a ring of requests served oldest first, each by
 * a sliced A* on the route grid, under a budget of node expansions per
 * tick. A search the budget cuts short resumes next tick. */
#include "crowd_internal.h"

#include <string.h>

cairn_status cairn__crowd_queue_init(cairn_crowd *c) {
  /* twice the slots: dropped requests stay in the ring until compacted */
  c->ring_cap = c->cap * 2;
  c->ring = cairn__crowd_alloc(c, sizeof *c->ring * c->ring_cap);
  c->smooth_cap = cairn_grid_passable(c->route) + 2;
  c->smooth = cairn__crowd_alloc(c, sizeof *c->smooth * c->smooth_cap);
  if (!c->ring || !c->smooth) return CAIRN_ERR_NOMEM;
  cairn_status st = cairn_search_create(&c->alloc, &c->search);
  if (st == CAIRN_OK) st = cairn_search_reserve_grid(c->search, c->route);
  if (st == CAIRN_OK) st = cairn_search_reserve_path(c->search, c->smooth_cap);
  return st;
}

void cairn__crowd_queue_free(cairn_crowd *c) {
  cairn_search_destroy(c->search);
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
  crowd_request r = {slot, c->gen[slot], group, goal, c->tick, 1};
  c->ring[pos] = r;
  c->req[slot] = pos;
}

void cairn__crowd_restart_search(cairn_crowd *c) {
  /* the grid changed under the search: begin the head request afresh */
  c->in_search = 0;
}

/* The path's cells after the start, smoothed, become the agent's
 * waypoints: the first opts.waypoints of them (the rest is planned again
 * from the last one when the agent gets there). */
static void give_path(cairn_crowd *c, uint32_t s, const cairn_point *pts,
                      size_t n) {
  uint32_t w = c->opts.waypoints;
  size_t k = n < w ? n : w;
  memcpy(c->wp + (size_t)s * w, pts, sizeof *pts * k);
  c->wp_n[s] = (uint16_t)k;
  c->wp_i[s] = 0;
  c->wp_partial[s] = n > w;
  c->state[s] = k ? CAIRN_AGENT_MOVING : CAIRN_AGENT_ARRIVED;
  c->stall[s] = 0;
  c->best[s] = INFINITY;
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
                     c->state[s] != CAIRN_AGENT_WAITING))
      continue;
    if (st == CAIRN_OK) give_path(c, s, pts, n);
    else c->state[s] = CAIRN_AGENT_UNREACHABLE;
    if (!r->group) break;
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

void cairn__crowd_serve(cairn_crowd *c) {
  uint64_t budget = c->opts.path_budget, used = 0;
  while (c->ring_len && used < budget) {
    crowd_request *r = &c->ring[c->ring_head];
    if (!r->live) {
      pop(c);
      continue;
    }
    cairn_status st;
    if (!c->in_search) {
      st = cairn_astar_begin(c->search, c->route, cell_of(c, r->slot), r->goal, NULL);
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
    crowd_request done = *r;
    pop(c);
    finish(c, &done, st == CAIRN_OK ? CAIRN_OK : CAIRN_NO_PATH);
  }
  c->stats.tick_nodes = used;
  if (used > c->stats.max_tick_nodes) c->stats.max_tick_nodes = used;
}
