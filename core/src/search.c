/* The search context: creating, growing and freeing it, its path buffers,
 * and the search options. The loops live in search_grid.c (A* and Dijkstra
 * on grids), search_fill.c (fills, distance maps) and graph_search.c. */
#include "search_internal.h"

#include <math.h>
#include <string.h>

/* ---- context -------------------------------------------------------- */


cairn_status cairn_search_create(const cairn_allocator *alloc,
                                 cairn_search **out) {
  if (!out) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_search *s = cairn__alloc_zero(&a, sizeof *s);
  *out = s;
  if (!s) return CAIRN_ERR_NOMEM;
  s->alloc = a;
  s->gen = 2;
  s->state = CAIRN_ERR_STATE;
  cairn__search_prune_table(s);
  return CAIRN_OK;
}

void cairn_search_destroy(cairn_search *s) {
  if (!s) return;
  cairn_allocator a = s->alloc;
  cairn__free(&a, s->nodes, s->cap * sizeof *s->nodes);
  cairn__free(&a, s->parent, s->cap * sizeof *s->parent);
  cairn__free(&a, s->heap, s->cap * sizeof *s->heap);
  cairn__free(&a, s->goal_mark, s->cap * sizeof *s->goal_mark);
  cairn__free(&a, s->goal_id, s->cap * sizeof *s->goal_id);
  cairn__free(&a, s->path, s->path_cap * sizeof *s->path);
  cairn__free(&a, s->path_nodes, s->path_cap * sizeof *s->path_nodes);
  for (int q = 0; q < 2; q++)
    cairn__free(&a, s->ring[q], s->ring_cap[q] * sizeof *s->ring[q]);
  cairn__free(&a, s->de_room, s->de_room_cap);
  cairn__free(&a, s, sizeof *s);
}

/* Growing replaces every array at once: new blocks are taken first and the
 * old ones freed only when all succeeded, so a failure leaves the context as
 * it was. Contents need not survive (stamps restart), but a search in
 * progress does not: reserving mid-search ends it. */
cairn_status cairn_search_reserve(cairn_search *s, size_t n) {
  if (!s) return CAIRN_ERR_ARG;
  if (n <= s->cap) return CAIRN_OK;
  if (n > (size_t)UINT32_MAX) return CAIRN_ERR_TOO_LARGE;
  const cairn_allocator *a = &s->alloc;
  bool marks = s->goal_mark != NULL;
  cairn__node *nodes = cairn__alloc(a, n * sizeof *nodes);
  uint32_t *parent = cairn__alloc(a, n * sizeof *parent);
  cairn__entry *heap = cairn__alloc(a, n * sizeof *heap);
  uint32_t *mark = marks ? cairn__alloc(a, n * sizeof *mark) : NULL;
  uint32_t *id = marks ? cairn__alloc(a, n * sizeof *id) : NULL;
  if (!nodes || !parent || !heap || (marks && (!mark || !id))) {
    cairn__free(a, nodes, n * sizeof *nodes);
    cairn__free(a, parent, n * sizeof *parent);
    cairn__free(a, heap, n * sizeof *heap);
    cairn__free(a, mark, n * sizeof *mark);
    cairn__free(a, id, n * sizeof *id);
    return CAIRN_ERR_NOMEM;
  }
  memset(nodes, 0, n * sizeof *nodes);
  if (mark) memset(mark, 0, n * sizeof *mark);
  cairn__free(a, s->nodes, s->cap * sizeof *s->nodes);
  cairn__free(a, s->parent, s->cap * sizeof *s->parent);
  cairn__free(a, s->heap, s->cap * sizeof *s->heap);
  cairn__free(a, s->goal_mark, s->cap * sizeof *s->goal_mark);
  cairn__free(a, s->goal_id, s->cap * sizeof *s->goal_id);
  s->nodes = nodes;
  s->parent = parent;
  s->heap = heap;
  s->goal_mark = mark;
  s->goal_id = id;
  s->cap = n;
  s->gen = 2;
  s->heap_len = 0;
  if (s->kind != CAIRN__NONE && s->state == CAIRN_IN_PROGRESS)
    s->state = CAIRN_ERR_STATE;
  s->kind = CAIRN__NONE;
  return CAIRN_OK;
}

cairn_status cairn_search_reserve_goals(cairn_search *s) {
  if (!s) return CAIRN_ERR_ARG;
  return cairn__search_goal_marks(s);
}

cairn_status cairn_search_reserve_grid(cairn_search *s, const cairn_grid *g) {
  if (!s || !g) return CAIRN_ERR_ARG;
  return cairn_search_reserve(s, g->padded);
}

static cairn_status ensure_path(cairn_search *s, size_t n);

cairn_status cairn_search_reserve_path(cairn_search *s, size_t points) {
  if (!s) return CAIRN_ERR_ARG;
  if (points > (size_t)UINT32_MAX) return CAIRN_ERR_TOO_LARGE;
  return ensure_path(s, points);
}

size_t cairn_search_memory(const cairn_search *s) {
  if (!s) return 0;
  size_t per_node = sizeof *s->nodes + sizeof *s->parent + sizeof *s->heap;
  if (s->goal_mark) per_node += sizeof *s->goal_mark + sizeof *s->goal_id;
  return sizeof *s + s->cap * per_node +
         s->path_cap * (sizeof *s->path + sizeof *s->path_nodes) +
         (s->ring_cap[0] + s->ring_cap[1]) * sizeof(cairn__fifo_entry) + s->de_room_cap;
}

cairn_status cairn__search_prepare(cairn_search *s, size_t n) {
  cairn_status st = cairn_search_reserve(s, n);
  if (st != CAIRN_OK) return st;
  s->gen += 2;
  if (s->gen >= UINT32_MAX - 2) { /* wrapped: the one time stamps are reset */
    for (size_t i = 0; i < s->cap; i++) s->nodes[i].stamp = 0;
    if (s->goal_mark) memset(s->goal_mark, 0, s->cap * sizeof *s->goal_mark);
    s->gen = 2;
  }
  s->heap_len = 0;
  return CAIRN_OK;
}

cairn_status cairn__search_goal_marks(cairn_search *s) {
  if (s->goal_mark) return CAIRN_OK;
  s->goal_mark = cairn__alloc(&s->alloc, s->cap * sizeof *s->goal_mark);
  s->goal_id = cairn__alloc(&s->alloc, s->cap * sizeof *s->goal_id);
  if (!s->goal_mark || !s->goal_id) {
    cairn__free(&s->alloc, s->goal_mark, s->cap * sizeof *s->goal_mark);
    cairn__free(&s->alloc, s->goal_id, s->cap * sizeof *s->goal_id);
    s->goal_mark = s->goal_id = NULL;
    return CAIRN_ERR_NOMEM;
  }
  memset(s->goal_mark, 0, s->cap * sizeof *s->goal_mark);
  return CAIRN_OK;
}

void cairn__search_reset(cairn_search *s, cairn__kind kind,
                         cairn__step_fn step) {
  s->kind = kind;
  s->step = step;
  s->state = CAIRN_IN_PROGRESS;
  s->grid = NULL;
  s->graph = NULL;
  s->lm_graph = NULL;
  s->found = UINT32_MAX;
  s->goal_set = false;
  s->full_map = false;
  s->expanded = s->generated = 0;
  s->path_len = 0;
  s->n_lm = 0;
  s->lm_used = 0;
  s->jump = false;
  s->de = NULL;
  s->de_mark = NULL;
  s->de_gh_n = 0;
  s->node_area = NULL;
}

/* Both path buffers are replaced together, and only when both new blocks
 * were obtained, so a failure leaves the context exactly as it was. The
 * contents need not survive: a path is rebuilt by every search. */
static cairn_status ensure_path(cairn_search *s, size_t n) {
  if (n <= s->path_cap) return CAIRN_OK;
  size_t cap = s->path_cap ? s->path_cap : 64;
  while (cap < n) cap *= 2;
  cairn_point *p = cairn__alloc(&s->alloc, cap * sizeof *p);
  uint32_t *q = cairn__alloc(&s->alloc, cap * sizeof *q);
  if (!p || !q) {
    cairn__free(&s->alloc, p, cap * sizeof *p);
    cairn__free(&s->alloc, q, cap * sizeof *q);
    return CAIRN_ERR_NOMEM;
  }
  cairn__free(&s->alloc, s->path, s->path_cap * sizeof *s->path);
  cairn__free(&s->alloc, s->path_nodes, s->path_cap * sizeof *s->path_nodes);
  s->path = p;
  s->path_nodes = q;
  s->path_cap = cap;
  s->path_len = 0;
  return CAIRN_OK;
}

cairn_status cairn__search_reconstruct(cairn_search *s) {
  if (s->jump) return cairn__jps_write_path(s); /* its links span many cells */
  size_t n = cairn__chain_len(s, s->found);
  cairn_status st = ensure_path(s, n);
  if (st != CAIRN_OK) return st;
  uint32_t i = s->found;
  for (size_t k = n; k-- > 0; i = s->parent[i]) s->path_nodes[k] = i;
  if (s->kind == CAIRN__GRID)
    for (size_t k = 0; k < n; k++)
      s->path[k] = cairn__grid_point(s->grid, s->path_nodes[k]);
  s->path_len = n;
  return CAIRN_OK;
}

/* ---- options -------------------------------------------------------- */

cairn_search_opts cairn_search_defaults(void) {
  cairn_search_opts o;
  memset(&o, 0, sizeof o);
  o.heuristic = CAIRN_H_OCTILE;
  o.moves = 8;
  o.weight = 1.0;
  o.turn_penalty = 0.0;
  o.max_expanded = 0;
  o.size = 1;
  return o;
}

static const char *const heuristic_names[] = {"octile", "manhattan",
                                              "euclidean", "zero"};

const char *cairn_heuristic_name(cairn_heuristic h) {
  if ((unsigned)h > CAIRN_H_ZERO) return "unknown";
  return heuristic_names[h];
}

cairn_status cairn_heuristic_parse(const char *name, cairn_heuristic *out) {
  if (!name || !out) return CAIRN_ERR_ARG;
  for (int i = 0; i <= CAIRN_H_ZERO; i++)
    if (strcmp(name, heuristic_names[i]) == 0) {
      *out = (cairn_heuristic)i;
      return CAIRN_OK;
    }
  return CAIRN_ERR_ARG;
}

/* Checks opts and loads the cost factors into s. */
cairn_status cairn__search_load_opts(cairn_search *s,
                                     const cairn_search_opts *o) {
  cairn_search_opts d = cairn_search_defaults();
  if (!o) o = &d;
  if ((unsigned)o->heuristic > CAIRN_H_ZERO) return CAIRN_ERR_ARG;
  if (o->moves != 4 && o->moves != 8) return CAIRN_ERR_ARG;
  if (!(o->weight >= 1.0 && o->weight <= 1000.0)) return CAIRN_ERR_ARG;
  if (!(o->turn_penalty >= 0.0 && o->turn_penalty <= 1000.0))
    return CAIRN_ERR_ARG;
  if (o->claims && (!(o->claim_penalty >= 0.0 && o->claim_penalty <= 1000.0) ||
                    o->claim_radius < 0))
    return CAIRN_ERR_ARG;
  if (o->size < 0 || o->size > CAIRN_GRID_MAX_CLEARANCE) return CAIRN_ERR_ARG;
  /* the landmarks' bound is exact, so it raises the octile one only */
  if (o->landmarks && (o->heuristic != CAIRN_H_OCTILE || o->weight != 1.0))
    return CAIRN_ERR_ARG;
  s->lm = o->landmarks;
  s->heuristic = o->heuristic;
  s->moves = o->moves;
  /* floor keeps weight x h <= w x (exact h), the bound weighted A* needs */
  s->h_straight = (cairn_cost)floor((double)CAIRN_COST_ONE * o->weight);
  s->h_diag_extra = (cairn_cost)floor((double)CAIRN_COST_DIAG * o->weight);
  s->h_euclid = (double)CAIRN_COST_ONE * o->weight;
  s->turn = (cairn_cost)llround(o->turn_penalty * (double)CAIRN_COST_ONE);
  s->max_expanded = o->max_expanded;
  s->pen = o->penalty ? o->penalty->cell : NULL;
  s->claims = o->claims ? o->claims->count : NULL;
  s->claim_pen = (cairn_cost)llround(o->claim_penalty * (double)CAIRN_COST_ONE);
  s->claim_r = o->claim_radius;
  s->size = (uint8_t)(o->size ? o->size : 1);
  return CAIRN_OK;
}
