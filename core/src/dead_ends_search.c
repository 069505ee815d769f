/* What searches do with a dead-end table (cairn_search_opts.dead_ends):
 * which areas a search from its start to its goal, or a fill from its
 * sources to its targets, may enter (search_grid.c and search_jps.c skip
 * the others). */
#include "dead_ends_internal.h"

#include "search_internal.h"

#include <string.h>

/* The octile distance between the nearest cells of gates a and b (rows
 * or columns of cells: the gaps between their spans on each axis). */
static cairn_cost gates_apart(const cairn_search *s, const struct cairn__de_gate *a,
                              const struct cairn__de_gate *b) {
  const int32_t gx = a->x1 < b->x0 ? b->x0 - a->x1 : b->x1 < a->x0 ? a->x0 - b->x1 : 0;
  const int32_t gy = a->y1 < b->y0 ? b->y0 - a->y1 : b->y1 < a->y0 ? a->y0 - b->y1 : 0;
  return cairn__octile_h(s, (uint32_t)gx, (uint32_t)gy);
}

/* Adds area a's gate (one cell or a door) to the bound, for the cells
 * inside a or those outside it, its tail the octile distance from it to
 * the goal, or through `next` (the gate every path from it crosses next;
 * NULL: none) when that is more. */
static struct cairn__de_gate *put_gate(cairn_search *s, const cairn_dead_ends *de, uint32_t a,
                                       bool inside, const struct cairn__de_gate *next) {
  struct cairn__de_gate *q = &s->de_gh[s->de_gh_n++];
  const uint32_t stride = (uint32_t)de->grid->stride, c = de->gate[a];
  const uint32_t last = cairn__de_gate_last(de, a);
  q->lo = a;
  q->hi = de->end[a];
  q->inside = inside;
  q->x0 = (int32_t)(c % stride);
  q->y0 = (int32_t)(c / stride);
  q->x1 = (int32_t)(last % stride);
  q->y1 = (int32_t)(last / stride);
  q->tail = cairn__de_gate_dist(s, q, s->gx, s->gy);
  if (next) {
    const cairn_cost via = gates_apart(s, q, next) + next->tail;
    if (via > q->tail) q->tail = via;
  }
  return q;
}

/* Whether area a's gate is a door beside pillars: up to 63 cells across
 * a corridor's side, whose octile distance bounds little; the narrower
 * gates inside and around it bound more (A* on den011d expands 6 % fewer
 * cells without them in the chain, ht_chantry 8 % more). */
static bool beside_pillars(const cairn_dead_ends *de, uint32_t a) {
  return (de->doors[de->gate[a]] & CAIRN__DE_DOOR_PILLAR) != 0;
}

/* Of the areas that hold area `from` but not area `other` (a chain,
 * innermost first), those whose gate is no door beside pillars, up to k
 * spread evenly over them, the two ends included, into out; returns how
 * many. */
static uint32_t chain_of(const cairn_dead_ends *de, uint32_t from, uint32_t other, uint32_t k,
                         uint32_t *out) {
  uint32_t n = 0;
  for (uint32_t a = from; a && de->gate[a] != UINT32_MAX; a = de->area[de->gate[a]]) {
    if (a <= other && other < de->end[a]) break; /* it holds the other: so do the rest */
    n += !beside_pillars(de, a);
  }
  const uint32_t take = n < k ? n : k;
  uint32_t t = 0, i = 0;
  for (uint32_t a = from; t < take; a = de->area[de->gate[a]]) {
    if (beside_pillars(de, a)) continue;
    if (i == (take == 1 ? 0 : (uint32_t)((uint64_t)t * (n - 1) / (take - 1)))) out[t++] = a;
    i++;
  }
  return take;
}

/* The gates of the search's bound (cairn__de_gate_h), at most four: of
 * the areas that hold the goal but not the start, the innermost and the
 * outermost, for the cells outside them; of those that hold the start but
 * not the goal, likewise, for the cells inside them. A path from a cell on
 * the far side of such an area's gate G to the goal crosses G, and then
 * the gates after it, so the octile distance to G plus G's tail (the
 * octile distance from G to the goal, or across the next gate and its
 * tail, whichever is more) bounds it from below. Taken as the largest of
 * those that apply and the octile distance, the bound is consistent:
 * - each term is the octile distance to a set of cells plus a constant,
 *   consistent where it applies;
 * - a step between the two sides of G has one end on G (a straight step
 *   crosses the cut; a diagonal one with neither end on G would have both
 *   its side cells on G, diagonal neighbours, while G is one cell or one
 *   straight run);
 * - where G's term starts to apply, at n on G's far side beside m on its
 *   near side: with m on G it is at most the step plus G's tail, and the
 *   tail at most m's bound (m's octile distance to the goal, or its
 *   distance to the next gate, whose term applies at m, plus that gate's
 *   tail); with n on G it is G's tail, at most n's octile distance or the
 *   next gate's term at n, which apply at m too and change by at most the
 *   step.
 * (The tests check the searches against Dijkstra on random room maps, and
 * every shared map's scenarios stay exact.) */
static void bound_gates(cairn_search *s, const cairn_dead_ends *de) {
  uint32_t goal_side[CAIRN__DE_SIDE_GATES], start_side[CAIRN__DE_SIDE_GATES];
  const uint32_t ng = chain_of(de, s->de_ga, s->de_sa, CAIRN__DE_SIDE_GATES, goal_side);
  const uint32_t ns = chain_of(de, s->de_sa, s->de_ga, CAIRN__DE_SIDE_GATES, start_side);
  const struct cairn__de_gate *next = NULL;
  for (uint32_t t = 0; t < ng; t++) next = put_gate(s, de, goal_side[t], false, next);
  for (uint32_t t = ns; t-- > 0;) next = put_gate(s, de, start_side[t], true, next);
}

cairn_status cairn__de_begin(cairn_search *s, const cairn_grid *g, const cairn_search_opts *o) {
  s->de = NULL;
  s->de_mark = NULL;
  s->de_gh_n = 0;
  const cairn_dead_ends *de = o ? o->dead_ends : NULL;
  if (!de) return CAIRN_OK;
  if (de->grid != g) return CAIRN_ERR_ARG;
  if (!cairn_dead_ends_current(de)) return CAIRN_ERR_STATE;
  s->de = de;
  s->de_sa = de->area[s->start];
  s->de_ga = de->area[s->goal];
  s->de_plain = !s->pen && !s->claims && !s->turn && s->size <= 1 && !(o->avoid && o->n_avoid);
  s->de_gates = s->de_plain ? de->gate_bits : de->cell_gate_bits;
  /* a swamp is skipped only where every step costs the terrain alone
   * and the way round it, just outside it, is not cut off by bounds */
  s->de_swamps = s->de_plain && !s->bounded;
  s->de_ss = de->swamp[s->start];
  s->de_gs = de->swamp[s->goal];
  /* plain octile searches with 8 moves: the bound holds at the cheapest
   * terrain, whose walk along a door the argument uses */
  if (s->de_plain && s->heuristic == CAIRN_H_OCTILE && s->moves == 8) bound_gates(s, de);
  return CAIRN_OK;
}

/* The area of cell p, 0 off the grid. */
static uint32_t area_of(const cairn_dead_ends *de, cairn_point p) {
  if (!cairn_grid_contains(de->grid, p.x, p.y)) return 0;
  return de->area[cairn__grid_index(de->grid, p.x, p.y)];
}

/* Marks the area of cell p and every area that holds it. */
static void mark_around(const cairn_dead_ends *de, uint8_t *mark, cairn_point p) {
  uint32_t a = area_of(de, p);
  while (a && !mark[a]) {
    mark[a] = 1;
    if (de->gate[a] == UINT32_MAX) break;
    a = de->area[de->gate[a]];
  }
}

/* Fits area y into the start-and-goal test: true when the areas that hold
 * sa or *ga already hold y, or y lies inside *ga (which it then
 * replaces). */
static bool fit_pair(const cairn_dead_ends *de, uint32_t sa, uint32_t *ga, uint32_t y) {
  if (!y || cairn__de_allowed(de, y, sa, *ga, true)) return true;
  if (*ga <= y && y < de->end[*ga]) {
    *ga = y;
    return true;
  }
  return false;
}

cairn_status cairn__de_begin_fill(cairn_search *s, const cairn_grid *g,
                                  const cairn_search_opts *o, const cairn_point *sources,
                                  size_t n_sources, const cairn_point *targets,
                                  size_t n_targets) {
  s->goal = s->start;
  cairn_status st = cairn__de_begin(s, g, o);
  if (st != CAIRN_OK || !s->de) return st;
  s->de_swamps = false; /* a fill's ends may lie in any number of them */
  s->de_gh_n = 0;       /* nor has it one goal */
  const cairn_dead_ends *de = s->de;
  /* most fills' ends lie on two chains of nested areas: the start and
   * goal test then serves, with the deepest area of each chain */
  bool pair = true;
  uint32_t ga = s->de_sa;
  for (size_t k = 1; pair && k < n_sources; k++) pair = fit_pair(de, s->de_sa, &ga, area_of(de, sources[k]));
  for (size_t k = 0; pair && k < n_targets; k++) pair = fit_pair(de, s->de_sa, &ga, area_of(de, targets[k]));
  if (pair) {
    s->de_ga = ga;
    return CAIRN_OK;
  }
  const size_t need = (size_t)de->count + 1;
  if (s->de_room_cap < need) {
    uint8_t *room = cairn__alloc(&s->alloc, need);
    if (!room) return CAIRN_ERR_NOMEM;
    cairn__free(&s->alloc, s->de_room, s->de_room_cap);
    s->de_room = room;
    s->de_room_cap = need;
  }
  memset(s->de_room, 0, need);
  for (size_t k = 0; k < n_sources; k++) mark_around(de, s->de_room, sources[k]);
  for (size_t k = 0; k < n_targets; k++) mark_around(de, s->de_room, targets[k]);
  s->de_mark = s->de_room;
  return CAIRN_OK;
}
