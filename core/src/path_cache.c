/* cairn_path_cache: route trees per goal, which later units walk or join
 * (cairn/path_cache.h gives the rules and the bound). */
#include "cairn/path_cache.h"

#include <math.h>
#include <string.h>

#include "cairn_alloc.h"
#include "core_internal.h"
#include "layers_internal.h"
#include "path_cache_internal.h"
#include "search_internal.h"

size_t cairn__pc_route_bytes(uint32_t cap, uint32_t slots) {
  return sizeof(route) + (size_t)cap * (2 * sizeof(uint32_t) + 2 * sizeof(cairn_cost)) +
         (size_t)slots * sizeof(uint32_t);
}

static void route_free_arrays(const cairn_allocator *a, route *r) {
  cairn__free(a, r->cell, r->cap * sizeof *r->cell);
  cairn__free(a, r->next, r->cap * sizeof *r->next);
  cairn__free(a, r->d, r->cap * sizeof *r->d);
  cairn__free(a, r->ex, r->cap * sizeof *r->ex);
  cairn__free(a, r->slot, r->slots * sizeof *r->slot);
}

void cairn__pc_route_free(const cairn_allocator *a, route *r) {
  route_free_arrays(a, r);
  cairn__free(a, r, sizeof *r);
}

static uint32_t slot_of(const route *r, uint32_t cell) {
  return (uint32_t)(((uint64_t)cell * 0x9E3779B97F4A7C15ull) >> 32) & (r->slots - 1);
}

uint32_t cairn__pc_node_of(const route *r, uint32_t cell) {
  if (!r->slots) return NO_NODE;
  for (uint32_t k = slot_of(r, cell);; k = (k + 1) & (r->slots - 1)) {
    const uint32_t v = r->slot[k];
    if (!v) return NO_NODE;
    if (r->cell[v - 1] == cell) return v - 1;
  }
}

void cairn__pc_route_index(route *r, uint32_t node) {
  uint32_t k = slot_of(r, r->cell[node]);
  while (r->slot[k]) k = (k + 1) & (r->slots - 1);
  r->slot[k] = node + 1;
}

/* The slots a route with room for cap nodes keeps: a power of two, at
 * least twice cap (open addressing stays short). */
static uint32_t slots_for(uint32_t cap) {
  uint32_t slots = 16;
  while (slots < 2 * cap) slots *= 2;
  return slots;
}

/* Room for cap nodes in r: new arrays with the nodes copied and the
 * slots rebuilt; r untouched when out of memory. */
bool cairn__pc_route_reserve(const cairn_allocator *a, route *r, uint32_t cap) {
  if (cap <= r->cap) return true;
  const uint32_t slots = slots_for(cap);
  route t = *r;
  t.cap = cap;
  t.slots = slots;
  t.cell = cairn__alloc(a, cap * sizeof *t.cell);
  t.next = cairn__alloc(a, cap * sizeof *t.next);
  t.d = cairn__alloc(a, cap * sizeof *t.d);
  t.ex = cairn__alloc(a, cap * sizeof *t.ex);
  t.slot = cairn__alloc_zero(a, slots * sizeof *t.slot);
  if (!t.cell || !t.next || !t.d || !t.ex || !t.slot) {
    t.n = 0;
    route_free_arrays(a, &t);
    return false;
  }
  if (r->n) {
    memcpy(t.cell, r->cell, r->n * sizeof *t.cell);
    memcpy(t.next, r->next, r->n * sizeof *t.next);
    memcpy(t.d, r->d, r->n * sizeof *t.d);
    memcpy(t.ex, r->ex, r->n * sizeof *t.ex);
  }
  route_free_arrays(a, r);
  *r = t;
  for (uint32_t k = 0; k < r->n; k++) cairn__pc_route_index(r, k);
  return true;
}

static void drop_route(cairn_path_cache *pc, size_t k) {
  route *r = pc->routes[k];
  pc->bytes -= cairn__pc_route_bytes(r->cap, r->slots);
  cairn__pc_route_free(&pc->alloc, r);
  pc->routes[k] = pc->routes[--pc->n_routes];
}

cairn_path_cache_opts cairn_path_cache_defaults(void) {
  cairn_path_cache_opts o;
  memset(&o, 0, sizeof o);
  o.budget = (size_t)4 << 20;
  o.join_radius = 16;
  o.max_excess = -1;
  o.search = cairn_search_defaults();
  return o;
}

static bool opts_ok(const cairn_path_cache_opts *o) {
  const cairn_search_opts *s = &o->search;
  return o->budget >= 4096 && o->join_radius >= 0 && o->join_radius <= 1000 &&
         o->max_excess <= 1e6 /* false for NaN */ && s->weight == 1.0 &&
         s->turn_penalty == 0.0 && !s->claims && !s->n_avoid && !s->max_expanded &&
         (s->moves == 8 || s->moves == 4);
}

cairn_status cairn_path_cache_create(const cairn_grid *grid, const cairn_path_cache_opts *opts,
                                     const cairn_allocator *alloc, cairn_path_cache **out) {
  if (out) *out = NULL;
  if (!grid || !out) return CAIRN_ERR_ARG;
  cairn_path_cache_opts o = opts ? *opts : cairn_path_cache_defaults();
  if (!opts_ok(&o)) return CAIRN_ERR_ARG;
  /* the exact heuristic for the moves; landmarks raise the octile one */
  o.search.heuristic =
      o.search.moves == 4 && !o.search.landmarks ? CAIRN_H_MANHATTAN : CAIRN_H_OCTILE;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_path_cache *pc = cairn__alloc_zero(&a, sizeof *pc);
  if (!pc) return CAIRN_ERR_NOMEM;
  pc->alloc = a;
  pc->grid = grid;
  pc->opts = o;
  pc->version = cairn_grid_version(grid);
  *out = pc;
  return CAIRN_OK;
}

void cairn_path_cache_clear(cairn_path_cache *pc) {
  if (!pc) return;
  while (pc->n_routes) drop_route(pc, pc->n_routes - 1);
}

void cairn_path_cache_destroy(cairn_path_cache *pc) {
  if (!pc) return;
  cairn_path_cache_clear(pc);
  cairn__free(&pc->alloc, pc->routes, pc->cap_routes * sizeof *pc->routes);
  cairn__free(&pc->alloc, pc->goals, pc->goals_cap * sizeof *pc->goals);
  cairn__free(&pc->alloc, pc->ix, pc->ix_cap * sizeof *pc->ix);
  cairn__free(&pc->alloc, pc, sizeof *pc);
}

unsigned cairn__pc_unit_size(const cairn_path_cache *pc) {
  return pc->opts.search.size > 1 ? (unsigned)pc->opts.search.size : 1u;
}

/* What a step from grid index `from` to its neighbour `to` costs, as the
 * searches charge it: the step times the terrain entered, plus the layer. */
cairn_cost cairn__pc_step_cost(const cairn_path_cache *pc, uint32_t from, uint32_t to) {
  const cairn_grid *g = pc->grid;
  const unsigned k = cairn__pc_unit_size(pc);
  const uint32_t gap = from > to ? from - to : to - from;
  const cairn_cost base = gap == 1 || gap == (uint32_t)g->stride ? CAIRN_COST_ONE : CAIRN_COST_DIAG;
  cairn_cost c = base * (k > 1 ? cairn__block_cost(g, to, k) : g->cost[to]);
  const cairn_penalty *p = pc->opts.search.penalty;
  if (p) c += k > 1 ? cairn__block_pen(g, p->cell, to, k) : p->cell[to];
  return c;
}

static route *find_route(const cairn_path_cache *pc, uint32_t goal) {
  for (size_t k = 0; k < pc->n_routes; k++)
    if (pc->routes[k]->goal == goal) return pc->routes[k];
  return NULL;
}

/* Frees routes other than `keep`, least recently used first, until `more`
 * bytes fit the budget; false if they cannot. */
static bool make_room(cairn_path_cache *pc, const route *keep, size_t more) {
  while (pc->bytes + more > pc->opts.budget) {
    size_t lru = SIZE_MAX;
    for (size_t k = 0; k < pc->n_routes; k++)
      if (pc->routes[k] != keep && (lru == SIZE_MAX || pc->routes[k]->used < pc->routes[lru]->used))
        lru = k;
    if (lru == SIZE_MAX) return false;
    drop_route(pc, lru);
    pc->stats.evicted++;
  }
  return true;
}

/* Room in r (NULL: a new route for goal, returned in *r) for `more` nodes
 * within the budget; false (nothing changed) when it does not fit. */
static bool route_room(cairn_path_cache *pc, route **r, uint32_t goal, size_t more) {
  route *t = *r;
  const uint32_t n = t ? t->n : 0, cap = t ? t->cap : 0, slots = t ? t->slots : 0;
  if (more > UINT32_MAX / 4 - n) return false;
  uint32_t want = cap ? cap : 16;
  while (want < n + more) want *= 2;
  const size_t grow = cairn__pc_route_bytes(want, slots_for(want)) - (t ? cairn__pc_route_bytes(cap, slots) : 0);
  if (want == cap) return true;
  if (!make_room(pc, t, grow)) return false;
  if (!t) {
    if (!cairn__grow(&pc->alloc, (void **)&pc->routes, &pc->cap_routes, pc->n_routes + 1,
                     sizeof *pc->routes) ||
        !(t = cairn__alloc_zero(&pc->alloc, sizeof *t)))
      return false;
    t->goal = goal;
    pc->routes[pc->n_routes++] = t;
    pc->bytes += cairn__pc_route_bytes(0, 0);
  }
  const size_t before = cairn__pc_route_bytes(t->cap, t->slots);
  if (!cairn__pc_route_reserve(&pc->alloc, t, want)) {
    if (t->n) return false;
    for (size_t k = 0; k < pc->n_routes; k++) /* made for this request: not left empty */
      if (pc->routes[k] == t) drop_route(pc, k);
    *r = NULL;
    return false;
  }
  pc->bytes += cairn__pc_route_bytes(t->cap, t->slots) - before;
  *r = t;
  return true;
}

/* Node for cell in r, added if new (room was made). */
static uint32_t node_add(route *r, uint32_t cell) {
  uint32_t k = cairn__pc_node_of(r, cell);
  if (k != NO_NODE) return k;
  k = r->n++;
  r->cell[k] = cell;
  r->next[k] = NO_NODE;
  cairn__pc_route_index(r, k);
  return k;
}

/* The octile (or with 4 moves Manhattan) cost of dx, dy straight steps on
 * the cheapest terrain: a lower bound of any route's cost. */
static cairn_cost least_cost(const cairn_path_cache *pc, int64_t dx, int64_t dy) {
  dx = dx < 0 ? -dx : dx;
  dy = dy < 0 ? -dy : dy;
  if (pc->opts.search.moves == 4) return (cairn_cost)(dx + dy) * CAIRN_COST_ONE;
  const int64_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return (cairn_cost)(hi - lo) * CAIRN_COST_ONE + (cairn_cost)lo * CAIRN_COST_DIAG;
}

/* The least a route from grid index i to the goal can cost. */
static cairn_cost least_to(const cairn_path_cache *pc, uint32_t i, uint32_t goal) {
  const cairn_point a = cairn__grid_point(pc->grid, i), b = cairn__grid_point(pc->grid, goal);
  return least_cost(pc, (int64_t)a.x - b.x, (int64_t)a.y - b.y);
}

/* Lays path pts[0 .. n-1] (grid indices, the last at the route's goal or
 * on the route at node `join`) onto r: each cell's next is the following
 * one; d and ex rise from the end's (excess: see path_cache.h). */
static void lay_path(const cairn_path_cache *pc, route *r, const uint32_t *pts, size_t n,
                     uint32_t join) {
  uint32_t nx = join;
  cairn_cost d = join == NO_NODE ? 0 : r->d[join];
  cairn_cost ex = join == NO_NODE ? 0 : r->ex[join];
  cairn_cost there = 0, back = 0; /* from here to the end, and back */
  for (size_t i = n; i-- > 0;) {
    const uint32_t k = join != NO_NODE && i == n - 1 ? join : node_add(r, pts[i]);
    if (i + 1 < n) {
      const cairn_cost fwd = cairn__pc_step_cost(pc, pts[i], pts[i + 1]);
      there += fwd;
      back += cairn__pc_step_cost(pc, pts[i + 1], pts[i]);
      r->next[k] = nx;
      r->d[k] = d + there;
      /* two bounds on d minus the cheapest: the join's, and d minus the
       * least any route from here can cost; the smaller holds */
      const cairn_cost by_join = join == NO_NODE ? 0 : ex + there + back;
      const cairn_cost by_floor = r->d[k] - least_to(pc, pts[i], r->goal);
      r->ex[k] = by_join < by_floor ? by_join : by_floor;
    } else if (join == NO_NODE) {
      r->next[k] = NO_NODE;
      r->d[k] = 0;
      r->ex[k] = 0;
    }
    nx = k;
  }
}

/* Writes the walk from node k of r into path (when it fits: *len says the
 * whole length either way); its cost in *cost. */
static void walk(const cairn_path_cache *pc, const route *r, uint32_t k, cairn_point *path,
                 size_t cap, size_t *len, cairn_cost *cost) {
  size_t n = 0;
  cairn_cost c = 0;
  for (uint32_t at = k; at != NO_NODE; at = r->next[at]) {
    if (n < cap) path[n] = cairn__grid_point(pc->grid, r->cell[at]);
    if (r->next[at] != NO_NODE) c += cairn__pc_step_cost(pc, r->cell[at], r->cell[r->next[at]]);
    n++;
  }
  *len = n;
  *cost = c;
}

/* A path's points as grid indices, in the cache's reused buffer; NULL
 * when out of memory. */
static const uint32_t *as_indices(cairn_path_cache *pc, const cairn_point *pts, size_t n) {
  if (!cairn__grow(&pc->alloc, (void **)&pc->ix, &pc->ix_cap, n, sizeof *pc->ix)) return NULL;
  for (size_t i = 0; i < n; i++) pc->ix[i] = cairn__grid_index(pc->grid, pts[i].x, pts[i].y);
  return pc->ix;
}

static cairn_status check_cell(const cairn_path_cache *pc, cairn_point p) {
  const cairn_grid *g = pc->grid;
  const cairn_rect b = pc->opts.search.bounds;
  if (!cairn_grid_contains(g, p.x, p.y)) return CAIRN_ERR_RANGE;
  if (b.w > 0 && b.h > 0 &&
      (p.x < b.x || p.y < b.y || p.x >= b.x + b.w || p.y >= b.y + b.h))
    return CAIRN_ERR_RANGE;
  return cairn_grid_clearance(g, p.x, p.y) >= cairn__pc_unit_size(pc) ? CAIRN_OK : CAIRN_ERR_BLOCKED;
}

/* The window a join search looks in: join_radius around start, inside the
 * options' bounds. */
static cairn_rect join_window(const cairn_path_cache *pc, cairn_point start) {
  const cairn_grid *g = pc->grid;
  const int32_t R = (int32_t)ceil(pc->opts.join_radius);
  cairn_rect b = pc->opts.search.bounds;
  if (b.w <= 0 || b.h <= 0) b = (cairn_rect){0, 0, cairn_grid_width(g), cairn_grid_height(g)};
  const int32_t k = (int32_t)cairn__pc_unit_size(pc); /* the start's block stays inside */
  int32_t x0 = start.x - R, y0 = start.y - R, x1 = start.x + R + k, y1 = start.y + R + k;
  if (x0 < b.x) x0 = b.x;
  if (y0 < b.y) y0 = b.y;
  if (x1 > b.x + b.w) x1 = b.x + b.w;
  if (y1 > b.y + b.h) y1 = b.y + b.h;
  return (cairn_rect){x0, y0, x1 - x0, y1 - y0};
}

/* Tries to join route *rp from start: a Dijkstra search inside the join
 * window that stops at the first route cell it settles. On success lays
 * the join path onto the route and returns the start's node; NO_NODE
 * otherwise (too far, over the excess cap, over the budget: the caller
 * searches), with *err set when out of memory. */
static uint32_t join(cairn_path_cache *pc, cairn_search *s, route **rp, cairn_point start,
                     uint64_t *expanded, cairn_status *err) {
  const route *r = *rp;
  const unsigned k = cairn__pc_unit_size(pc);
  const cairn_rect w = join_window(pc, start);
  size_t n = 0;
  for (uint32_t i = 0; i < r->n; i++) { /* the route's positions in the window */
    const cairn_point p = cairn__grid_point(pc->grid, r->cell[i]);
    if (p.x < w.x || p.y < w.y || p.x + (int32_t)k > w.x + w.w || p.y + (int32_t)k > w.y + w.h)
      continue;
    if (!cairn__grow(&pc->alloc, (void **)&pc->goals, &pc->goals_cap, n + 1, sizeof *pc->goals))
      return *err = CAIRN_ERR_NOMEM, NO_NODE;
    pc->goals[n++] = p;
  }
  if (!n) return NO_NODE;
  cairn_search_opts o = pc->opts.search;
  o.bounds = w;
  o.landmarks = NULL;
  o.dead_ends = NULL;
  cairn_result res;
  const cairn_status st = cairn_dijkstra_nearest(s, pc->grid, start, pc->goals, n, &o, &res);
  *expanded += res.expanded;
  if (st != CAIRN_OK) {
    if (st < 0) *err = st;
    return NO_NODE;
  }
  if ((double)res.cost > pc->opts.join_radius * (double)CAIRN_COST_ONE) return NO_NODE;
  const size_t len = res.path_len;
  const uint32_t *ix = as_indices(pc, res.path, len);
  if (!ix) return *err = CAIRN_ERR_NOMEM, NO_NODE;
  const uint32_t at = cairn__pc_node_of(r, ix[len - 1]);
  cairn_cost fwd = 0, back = 0;
  for (size_t i = 0; i + 1 < len; i++) {
    fwd += cairn__pc_step_cost(pc, ix[i], ix[i + 1]);
    back += cairn__pc_step_cost(pc, ix[i + 1], ix[i]);
  }
  const cairn_cost by_join = r->ex[at] + fwd + back; /* as lay_path */
  const cairn_cost by_floor = r->d[at] + fwd - least_to(pc, ix[0], r->goal);
  const cairn_cost ex = by_join < by_floor ? by_join : by_floor;
  if (pc->opts.max_excess >= 0 && (double)ex > pc->opts.max_excess * (double)CAIRN_COST_ONE)
    return NO_NODE;
  if (!route_room(pc, rp, r->goal, len)) return NO_NODE;
  lay_path(pc, *rp, ix, len, at);
  return cairn__pc_node_of(*rp, ix[0]);
}

/* Lays exact path pts[0 .. n-1] (grid indices, ending at goal gi) onto
 * *rp (created if NULL) when the budget holds it. */
static void keep_exact(cairn_path_cache *pc, route **rp, uint32_t gi, const uint32_t *pts,
                       size_t n) {
  if (pts && route_room(pc, rp, gi, n)) {
    lay_path(pc, *rp, pts, n, NO_NODE);
    (*rp)->used = pc->clock;
  }
}

/* An exact search from start to goal; its path kept (keep_exact). The
 * answer is written from the search's own path either way. */
static cairn_status search(cairn_path_cache *pc, cairn_search *s, route **rp, uint32_t gi,
                           cairn_point start, cairn_point goal, cairn_point *path, size_t cap,
                           cairn_cached_path *out) {
  cairn_result res;
  const cairn_status st = cairn_astar(s, pc->grid, start, goal, &pc->opts.search, &res);
  out->expanded += res.expanded;
  out->how = CAIRN_CACHE_SEARCHED;
  pc->stats.searched++;
  if (st != CAIRN_OK) return st;
  out->cost = res.cost;
  out->excess = 0;
  out->len = res.path_len;
  const bool fits = res.path_len <= cap;
  if (fits) memcpy(path, res.path, res.path_len * sizeof *path);
  keep_exact(pc, rp, gi, as_indices(pc, res.path, res.path_len), res.path_len);
  return fits ? CAIRN_OK : CAIRN_ERR_BUFFER;
}

/* An edit nobody reported (the grid's version moved): the routes go. */
static void follow_grid(cairn_path_cache *pc) {
  if (cairn_grid_version(pc->grid) == pc->version) return;
  if (pc->n_routes) pc->stats.cleared++;
  cairn_path_cache_clear(pc);
  pc->version = cairn_grid_version(pc->grid);
}

/* What find and lookup do first: the arguments and both cells checked,
 * the grid's edits followed (follow_grid); then the goal's route into *rp
 * (NULL: none) and the node of it that start walks from into *node:
 * start's own, or the one a join laid; NO_NODE for neither. */
static cairn_status stored_start(cairn_path_cache *pc, cairn_search *s, cairn_point start,
                                 cairn_point goal, const cairn_point *path, size_t cap,
                                 cairn_cached_path *out, route **rp, uint32_t *node) {
  memset(out, 0, sizeof *out);
  out->cost = CAIRN_COST_INF;
  if (!pc || !s || (!path && cap)) return CAIRN_ERR_ARG;
  cairn_status st = check_cell(pc, start);
  if (st == CAIRN_OK) st = check_cell(pc, goal);
  if (st != CAIRN_OK) return st;
  follow_grid(pc);
  pc->clock++;
  *rp = find_route(pc, cairn__grid_index(pc->grid, goal.x, goal.y));
  *node = *rp ? cairn__pc_node_of(*rp, cairn__grid_index(pc->grid, start.x, start.y)) : NO_NODE;
  if (*node != NO_NODE) {
    out->how = CAIRN_CACHE_WALKED;
    pc->stats.walked++;
  } else if (*rp && pc->opts.join_radius > 0) {
    *node = join(pc, s, rp, start, &out->expanded, &st);
    if (*node != NO_NODE) {
      out->how = CAIRN_CACHE_JOINED;
      pc->stats.joined++;
    }
  }
  return st;
}

/* The walk from node of r into path: the answer. */
static cairn_status answer(cairn_path_cache *pc, route *r, uint32_t node, cairn_point *path,
                           size_t cap, cairn_cached_path *out) {
  r->used = pc->clock;
  walk(pc, r, node, path, cap, &out->len, &out->cost);
  out->excess = r->ex[node];
  return out->len <= cap ? CAIRN_OK : CAIRN_ERR_BUFFER;
}

cairn_status cairn_path_cache_find(cairn_path_cache *pc, cairn_search *s, cairn_point start,
                                   cairn_point goal, cairn_point *path, size_t cap,
                                   cairn_cached_path *out) {
  if (!out) return CAIRN_ERR_ARG;
  route *r = NULL;
  uint32_t node = NO_NODE;
  const cairn_status st = stored_start(pc, s, start, goal, path, cap, out, &r, &node);
  if (st != CAIRN_OK) return out->status = st;
  if (node == NO_NODE) {
    const uint32_t gi = cairn__grid_index(pc->grid, goal.x, goal.y);
    return out->status = search(pc, s, &r, gi, start, goal, path, cap, out);
  }
  return out->status = answer(pc, r, node, path, cap, out);
}

cairn_status cairn_path_cache_lookup(cairn_path_cache *pc, cairn_search *s, cairn_point start,
                                     cairn_point goal, cairn_point *path, size_t cap,
                                     cairn_cached_path *out) {
  if (!out) return CAIRN_ERR_ARG;
  route *r = NULL;
  uint32_t node = NO_NODE;
  const cairn_status st = stored_start(pc, s, start, goal, path, cap, out, &r, &node);
  if (st != CAIRN_OK) return out->status = st;
  if (node == NO_NODE) {
    out->how = CAIRN_CACHE_MISSED;
    pc->stats.missed++;
    return out->status = CAIRN_PARTIAL;
  }
  return out->status = answer(pc, r, node, path, cap, out);
}

bool cairn__pc_legal_step(const cairn_path_cache *pc, uint32_t a, uint32_t b) {
  const cairn_grid *g = pc->grid;
  const unsigned k = cairn__pc_unit_size(pc);
  const int moves = pc->opts.search.moves;
  const unsigned set = k > 1 ? cairn__sized_moves(g, a, k, moves) : cairn__moves_from(g, a, moves);
  for (int d = 0; d < 8; d++)
    if ((set >> d & 1u) && (int64_t)a + cairn__dx[d] + (int64_t)cairn__dy[d] * g->stride == (int64_t)b)
      return true;
  return false;
}

/* Whether the options' layer blocks grid index c for the unit. */
static bool layer_blocks(const cairn_path_cache *pc, uint32_t c) {
  const cairn_penalty *p = pc->opts.search.penalty;
  const unsigned k = cairn__pc_unit_size(pc);
  return p && (k > 1 ? cairn__block_pen(pc->grid, p->cell, c, k) : p->cell[c]) == CAIRN_PENALTY_BLOCK;
}

cairn_status cairn_path_cache_store(cairn_path_cache *pc, const cairn_point *path, size_t len) {
  if (!pc || !path || !len) return CAIRN_ERR_ARG;
  for (size_t i = 0; i < len; i++) {
    const cairn_status st = check_cell(pc, path[i]);
    if (st != CAIRN_OK) return st;
  }
  const uint32_t *ix = as_indices(pc, path, len);
  if (!ix) return CAIRN_ERR_NOMEM;
  for (size_t i = 0; i < len; i++)
    if ((i + 1 < len && !cairn__pc_legal_step(pc, ix[i], ix[i + 1])) || layer_blocks(pc, ix[i]))
      return CAIRN_ERR_ARG;
  follow_grid(pc);
  pc->clock++;
  route *r = find_route(pc, ix[len - 1]);
  keep_exact(pc, &r, ix[len - 1], ix, len);
  pc->stats.stored++;
  return CAIRN_OK;
}

const cairn_grid *cairn_path_cache_grid(const cairn_path_cache *pc) {
  return pc ? pc->grid : NULL;
}

cairn_status cairn_path_cache_get_opts(const cairn_path_cache *pc, cairn_path_cache_opts *out) {
  if (!pc || !out) return CAIRN_ERR_ARG;
  *out = pc->opts;
  return CAIRN_OK;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Whether the change in rectangle e (positions whose covered cells meet
 * it) may alter route r: a cell of it inside e, or a detour through e
 * that, even at the cheapest terrain, would cost less than some stored d. */
static bool route_affected(const cairn_path_cache *pc, const route *r, cairn_rect e) {
  const cairn_point goal = cairn__grid_point(pc->grid, r->goal);
  const int64_t x1 = (int64_t)e.x + e.w - 1, y1 = (int64_t)e.y + e.h - 1;
  const int64_t gx = clamp64(goal.x, e.x, x1), gy = clamp64(goal.y, e.y, y1);
  const cairn_cost to_goal = least_cost(pc, goal.x - gx, goal.y - gy);
  for (uint32_t k = 0; k < r->n; k++) {
    const cairn_point p = cairn__grid_point(pc->grid, r->cell[k]);
    const int64_t px = clamp64(p.x, e.x, x1), py = clamp64(p.y, e.y, y1);
    if (px == p.x && py == p.y) return true;
    if (least_cost(pc, p.x - px, p.y - py) + to_goal < r->d[k]) return true;
  }
  return false;
}

cairn_status cairn_path_cache_edited(cairn_path_cache *pc, cairn_rect r) {
  if (!pc) return CAIRN_ERR_ARG;
  /* a unit of size k at (x, y) covers up to k - 1 cells right and down */
  const int32_t k = (int32_t)cairn__pc_unit_size(pc) - 1;
  int64_t x0 = (int64_t)r.x - k, y0 = (int64_t)r.y - k;
  int64_t x1 = (int64_t)r.x + r.w, y1 = (int64_t)r.y + r.h;
  x0 = clamp64(x0, 0, cairn_grid_width(pc->grid));
  y0 = clamp64(y0, 0, cairn_grid_height(pc->grid));
  x1 = clamp64(x1, 0, cairn_grid_width(pc->grid));
  y1 = clamp64(y1, 0, cairn_grid_height(pc->grid));
  if (r.w > 0 && r.h > 0 && x1 > x0 && y1 > y0) {
    const cairn_rect e = {(int32_t)x0, (int32_t)y0, (int32_t)(x1 - x0), (int32_t)(y1 - y0)};
    for (size_t i = pc->n_routes; i-- > 0;)
      if (route_affected(pc, pc->routes[i], e)) {
        drop_route(pc, i);
        pc->stats.dropped++;
      }
  }
  pc->version = cairn_grid_version(pc->grid);
  return CAIRN_OK;
}

cairn_status cairn_path_cache_get_stats(const cairn_path_cache *pc, cairn_path_cache_stats *out) {
  if (!pc || !out) return CAIRN_ERR_ARG;
  *out = pc->stats;
  out->routes = (uint32_t)pc->n_routes;
  out->bytes = pc->bytes;
  out->cells = 0;
  for (size_t k = 0; k < pc->n_routes; k++) out->cells += pc->routes[k]->n;
  return CAIRN_OK;
}
