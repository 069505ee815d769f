/* What searches do with a dead-end table (cairn_search_opts.dead_ends):
 * which areas a search from its start to its goal, or a fill from its
 * sources to its targets, may enter (search_grid.c and search_jps.c skip
 * the others). */
#include "dead_ends_internal.h"

#include "search_internal.h"

#include <string.h>

cairn_status cairn__de_begin(cairn_search *s, const cairn_grid *g, const cairn_search_opts *o) {
  s->de = NULL;
  s->de_mark = NULL;
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
