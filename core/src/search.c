/* The search context and A* / Dijkstra on grids.
 *
 * One loop, grid_step_impl, serves A* with every heuristic, nearest-goal
 * Dijkstra and full distance maps; it is specialised at compile time on the
 * heuristic, the move set, the turn penalty and the goal test (always_inline
 * with constant arguments), so the plain case carries no test for features it
 * does not use. Blocking calls are begin + step(unbounded). */
#include "search_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define CAIRN_INLINE static inline __attribute__((always_inline))
#else
#define CAIRN_INLINE static inline
#endif

/* ---- context -------------------------------------------------------- */

static void fill_prune_table(cairn_search *s);

cairn_status cairn_search_create(const cairn_allocator *alloc,
                                 cairn_search **out) {
  if (!out) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_search *s = cairn__alloc(&a, sizeof *s);
  *out = s;
  if (!s) return CAIRN_ERR_NOMEM;
  memset(s, 0, sizeof *s);
  s->alloc = a;
  s->gen = 2;
  s->state = CAIRN_ERR_STATE;
  fill_prune_table(s);
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
         (s->ring_cap[0] + s->ring_cap[1]) * sizeof(cairn__fifo_entry);
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
  s->found = UINT32_MAX;
  s->goal_set = false;
  s->full_map = false;
  s->expanded = s->generated = 0;
  s->path_len = 0;
  s->n_lm = 0;
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
static cairn_status load_opts(cairn_search *s, const cairn_search_opts *o) {
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
  return CAIRN_OK;
}

/* ---- the grid loop -------------------------------------------------- */

/* GOAL_FILL runs until the open set empties, or until every target is
 * settled when the fill has targets. */
enum { GOAL_ONE, GOAL_SET, GOAL_FILL };

/* Neighbour order: the four straight moves, then the four diagonals; a
 * diagonal's two straight components are dirs (dx_dir, dy_dir) below. */
static const int8_t dir_dx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
static const int8_t dir_dy[8] = {0, 0, 1, -1, 1, 1, -1, -1};

CAIRN_INLINE cairn_cost grid_h(const cairn_search *s, int H, int32_t x,
                               int32_t y) {
  uint32_t dx = (uint32_t)abs(x - s->gx), dy = (uint32_t)abs(y - s->gy);
  switch (H) {
  case CAIRN_H_OCTILE: {
    uint32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return s->h_straight * (hi - lo) + s->h_diag_extra * lo;
  }
  case CAIRN_H_MANHATTAN:
    return s->h_straight * (dx + dy);
  case CAIRN_H_EUCLIDEAN:
    /* floor keeps it below the integer octile cost, so it stays consistent */
    return (cairn_cost)(sqrt((double)dx * dx + (double)dy * dy) * s->h_euclid);
  default:
    return 0;
  }
}

cairn_status cairn__finish(cairn_search *s, cairn_status st) {
  if (st == CAIRN_OK && s->found != UINT32_MAX) {
    cairn_status r = cairn__search_reconstruct(s);
    if (r != CAIRN_OK) st = r;
  }
  s->state = st;
  return st;
}

uint64_t cairn__step_budget(const cairn_search *s, uint64_t budget,
                            bool *limited) {
  *limited = false;
  if (!s->max_expanded) return budget;
  uint64_t left = s->max_expanded > s->expanded ? s->max_expanded - s->expanded : 0;
  if (left <= budget) {
    *limited = true;
    return left;
  }
  return budget;
}

/* The legal moves out of cell c as a bit set over the dir_* order: the
 * grid keeps them per cell (struct cairn_grid), one load instead of eight
 * neighbour tests; a 4-way search keeps the straight ones. */
CAIRN_INLINE unsigned moves_from(const cairn_grid *g, uint32_t c, int MOVES) {
  return MOVES == 4 ? g->moves[c] & 15u : g->moves[c];
}

/* Moves that stay inside the bounds, as a bit set over the dir_* order. A
 * diagonal between two cells of a rectangle has both straight components
 * inside it too, so masking is all the corner rule needs. */
CAIRN_INLINE unsigned bound_mask(const cairn_search *s, int32_t cx,
                                 int32_t cy) {
  unsigned e = cx < s->bx1, w = cx > s->bx0;
  unsigned so = cy < s->by1, n = cy > s->by0;
  return e | w << 1 | so << 2 | n << 3 | (e & so) << 4 | (w & so) << 5 |
         (e & n) << 6 | (w & n) << 7;
}

CAIRN_INLINE int lowest_bit(unsigned m) {
#if defined(__GNUC__)
  return __builtin_ctz(m);
#else
  int d = 0;
  while (!(m & 1u)) {
    m >>= 1;
    d++;
  }
  return d;
#endif
}

/* Whether claims on cell (x, y) (padded) count for this search. */
CAIRN_INLINE bool in_claim_radius(const cairn_search *s, int32_t x, int32_t y) {
  return !s->claim_r || (abs(x - s->sx) <= s->claim_r && abs(y - s->sy) <= s->claim_r);
}

/* REVERSE (fills only): g is the cost of reaching the sources, so a step
 * from neighbour nb into c costs c's terrain, not nb's. */
CAIRN_INLINE cairn_status grid_step_impl(cairn_search *s, uint64_t budget,
                                         const int H, const int MOVES,
                                         const bool TURN, const int GOAL,
                                         const bool BOUNDED,
                                         const bool REVERSE) {
  const cairn_grid *g = s->grid;
  const uint8_t *cost = g->cost;
  const uint32_t *pen = s->pen;
  const uint16_t *claims = s->claims;
  const int32_t stride = g->stride;
  const uint32_t goal = s->goal;
  int32_t off[8];
  cairn_cost base[8];
  for (int d = 0; d < 8; d++) {
    off[d] = dir_dx[d] + dir_dy[d] * stride;
    base[d] = d < 4 ? CAIRN_COST_ONE : CAIRN_COST_DIAG;
  }
  bool limited;
  uint64_t n = cairn__step_budget(s, budget, &limited);
  while (n--) {
    if (!s->heap_len)
      return cairn__finish(s, GOAL == GOAL_FILL ? CAIRN_OK : CAIRN_NO_PATH);
    const uint32_t c = cairn__pop(s);
    if (GOAL == GOAL_FILL && s->goal_set && s->goal_mark[c] == s->gen &&
        --s->targets_left == 0)
      return cairn__finish(s, CAIRN_OK);
    if (GOAL == GOAL_ONE && c == goal) {
      s->found = c;
      return cairn__finish(s, CAIRN_OK);
    }
    if (GOAL == GOAL_SET && s->goal_mark[c] == s->gen) {
      s->found = c;
      return cairn__finish(s, CAIRN_OK);
    }
    const cairn_cost gc = s->nodes[c].g;
    const int32_t cx = (int32_t)(c % (uint32_t)stride);
    const int32_t cy = (int32_t)(c / (uint32_t)stride);
    const int32_t in_off = TURN ? (int32_t)(c - s->parent[c]) : 0;
    unsigned open = moves_from(g, c, MOVES);
    if (BOUNDED) open &= bound_mask(s, cx, cy);
    while (open) {
      const int d = lowest_bit(open);
      open &= open - 1;
      const uint32_t nb = (uint32_t)((int32_t)c + off[d]);
      cairn_cost ng = gc + base[d] * cost[REVERSE ? c : nb];
      if (pen) { /* a cost layer: one predictable branch when there is none */
        const uint32_t p = pen[REVERSE ? c : nb];
        if (p == CAIRN_PENALTY_BLOCK) continue;
        ng += p;
      }
      if (claims) {
        const uint32_t k = claims[REVERSE ? c : nb];
        if (k && in_claim_radius(s, REVERSE ? cx : cx + dir_dx[d],
                                 REVERSE ? cy : cy + dir_dy[d]))
          ng += k * s->claim_pen;
      }
      if (TURN && in_off != 0 && in_off != off[d]) ng += s->turn;
      if (cairn__is_fresh(s, nb)) {
        cairn_cost h = grid_h(s, H, cx + dir_dx[d], cy + dir_dy[d]);
        cairn__open(s, nb, ng, h, c);
      } else if (cairn__is_open(s, nb) && ng < s->nodes[nb].g) {
        cairn__lower(s, nb, ng, c);
      }
    }
  }
  if (!s->heap_len)
    return cairn__finish(s, GOAL == GOAL_FILL ? CAIRN_OK : CAIRN_NO_PATH);
  if (limited) return cairn__finish(s, CAIRN_PARTIAL);
  return CAIRN_IN_PROGRESS;
}

#define GRID_STEP(name, H, M, T, G, B, R)                             \
  static cairn_status name(cairn_search *s, uint64_t budget) {        \
    return grid_step_impl(s, budget, H, M, T, G, B, R);               \
  }
/* Each search kind in all four (turn, moves) forms; bounded ones get _b. */
#define GRID_STEPS_TM(tag, H, G, B)                                   \
  GRID_STEP(step_##tag##_8, H, 8, false, G, B, false)                 \
  GRID_STEP(step_##tag##_4, H, 4, false, G, B, false)                 \
  GRID_STEP(step_##tag##_8t, H, 8, true, G, B, false)                 \
  GRID_STEP(step_##tag##_4t, H, 4, true, G, B, false)
#define GRID_STEPS_TMB(tag, H, G)                                     \
  GRID_STEPS_TM(tag, H, G, false) GRID_STEPS_TM(tag##_b, H, G, true)
GRID_STEPS_TMB(oct, CAIRN_H_OCTILE, GOAL_ONE)
GRID_STEPS_TMB(man, CAIRN_H_MANHATTAN, GOAL_ONE)
GRID_STEPS_TMB(euc, CAIRN_H_EUCLIDEAN, GOAL_ONE)
GRID_STEPS_TMB(zero, CAIRN_H_ZERO, GOAL_ONE)
GRID_STEPS_TMB(set, CAIRN_H_ZERO, GOAL_SET)
/* fills: [moves == 4][bounded][reverse]; no turn penalty */
#define FILL_STEP(tag, M, B, R) GRID_STEP(step_fill_##tag, CAIRN_H_ZERO, M, false, GOAL_FILL, B, R)
FILL_STEP(8, 8, false, false)
FILL_STEP(8r, 8, false, true)
FILL_STEP(8b, 8, true, false)
FILL_STEP(8br, 8, true, true)
FILL_STEP(4, 4, false, false)
FILL_STEP(4r, 4, false, true)
FILL_STEP(4b, 4, true, false)
FILL_STEP(4br, 4, true, true)
static const cairn__step_fn fill_steps[2][2][2] = {
    {{step_fill_8, step_fill_8r}, {step_fill_8b, step_fill_8br}},
    {{step_fill_4, step_fill_4r}, {step_fill_4b, step_fill_4br}}};

#define TM_TABLE(tag)                                                 \
  {{{step_##tag##_8, step_##tag##_4}, {step_##tag##_8t, step_##tag##_4t}}, \
   {{step_##tag##_b_8, step_##tag##_b_4},                             \
    {step_##tag##_b_8t, step_##tag##_b_4t}}}
/* [heuristic][bounded][turn][moves == 4] */
static const cairn__step_fn one_goal_steps[4][2][2][2] = {
    TM_TABLE(oct), TM_TABLE(man), TM_TABLE(euc), TM_TABLE(zero)};
/* [bounded][turn][moves == 4] */
static const cairn__step_fn goal_set_steps[2][2][2] = TM_TABLE(set);

/* ---- grid entry points ---------------------------------------------- */

static cairn_status check_cell(const cairn_grid *g, cairn_point p) {
  if (!cairn_grid_contains(g, p.x, p.y)) return CAIRN_ERR_RANGE;
  if (!g->cost[cairn__grid_index(g, p.x, p.y)]) return CAIRN_ERR_BLOCKED;
  return CAIRN_OK;
}

/* check_cell, and inside the search's bounds when it has them. */
static cairn_status check_in(const cairn_search *s, const cairn_grid *g,
                             cairn_point p) {
  cairn_status st = check_cell(g, p);
  if (st != CAIRN_OK || !s->bounded) return st;
  int32_t x = p.x + 1, y = p.y + 1;
  if (x < s->bx0 || x > s->bx1 || y < s->by0 || y > s->by1)
    return CAIRN_ERR_RANGE;
  return CAIRN_OK;
}

/* Loads opts->bounds (already checked to be non-NULL or defaulted) into the
 * padded, inclusive form the bounded loops read. */
static cairn_status load_bounds(cairn_search *s, const cairn_grid *g,
                                const cairn_search_opts *o) {
  s->bounded = false;
  if (!o) return CAIRN_OK;
  cairn_rect r = o->bounds;
  if (r.w == 0 || r.h == 0) return CAIRN_OK;
  if (r.w < 0 || r.h < 0 || r.x < 0 || r.y < 0 || r.x > g->width - r.w ||
      r.y > g->height - r.h)
    return CAIRN_ERR_ARG;
  s->bounded = true;
  s->bx0 = r.x + 1;
  s->by0 = r.y + 1;
  s->bx1 = r.x + r.w;
  s->by1 = r.y + r.h;
  return CAIRN_OK;
}

/* Common start of every grid search: validates, prepares, opens `start`. */
static cairn_status grid_begin(cairn_search *s, const cairn_grid *g,
                               cairn_point start, const cairn_search_opts *o,
                               bool avoid_ok) {
  if (!s) return CAIRN_ERR_ARG;
  s->state = CAIRN_ERR_ARG;
  s->kind = CAIRN__NONE;
  if (!g) return CAIRN_ERR_ARG;
  cairn_status st = check_cell(g, start);
  if (st == CAIRN_OK) st = load_opts(s, o);
  if (st == CAIRN_OK && o && o->n_avoid && (!avoid_ok || !o->avoid))
    st = CAIRN_ERR_ARG;
  if (st == CAIRN_OK && o && o->penalty && !cairn_penalty_fits(o->penalty, g))
    st = CAIRN_ERR_ARG;
  /* the claims' grid must have this one's size: equal padded sizes are not
   * enough (10 x 20 and 20 x 10 have the same) */
  if (st == CAIRN_OK && o && o->claims &&
      (o->claims->grid->width != g->width || o->claims->grid->height != g->height))
    st = CAIRN_ERR_ARG;
  if (st == CAIRN_OK) st = load_bounds(s, g, o);
  if (st == CAIRN_OK) st = check_in(s, g, start);
  if (st == CAIRN_OK) st = cairn__search_prepare(s, g->padded);
  if (st != CAIRN_OK) return s->state = st;
  cairn__search_reset(s, CAIRN__GRID, NULL);
  s->grid = g;
  s->grid_edits = g->edits;
  s->start = cairn__grid_index(g, start.x, start.y);
  s->sx = start.x + 1;
  s->sy = start.y + 1;
  return CAIRN_OK;
}

/* Closes the avoided cells before the search opens its start: a closed
 * record is never entered again, so they act as walls for this search. */
static void avoid_cells(cairn_search *s, const cairn_grid *g,
                        const cairn_point *cells, size_t n) {
  for (size_t k = 0; cells && k < n; k++) {
    if (!cairn_grid_contains(g, cells[k].x, cells[k].y)) continue;
    uint32_t i = cairn__grid_index(g, cells[k].x, cells[k].y);
    if (i == s->start || i == s->goal) continue;
    s->nodes[i].stamp = s->gen + 1;
    s->nodes[i].g = CAIRN_COST_INF;
  }
}

cairn_status cairn_astar_begin(cairn_search *s, const cairn_grid *g,
                               cairn_point start, cairn_point goal,
                               const cairn_search_opts *o) {
  cairn_status st = grid_begin(s, g, start, o, true);
  if (st != CAIRN_OK) return st;
  st = check_in(s, g, goal);
  if (st != CAIRN_OK) {
    s->kind = CAIRN__NONE;
    return s->state = st;
  }
  s->goal = cairn__grid_index(g, goal.x, goal.y);
  s->gx = goal.x + 1;
  s->gy = goal.y + 1;
  s->step = one_goal_steps[s->heuristic][s->bounded][s->turn != 0]
                          [s->moves == 4];
  if (o) avoid_cells(s, g, o->avoid, o->n_avoid);
  if ((g->islands_fresh && g->island[s->start] != g->island[s->goal]) ||
      (s->pen && s->pen[s->goal] == CAIRN_PENALTY_BLOCK && s->goal != s->start)) {
    s->state = CAIRN_NO_PATH; /* other island, or a goal the layer blocks */
    return CAIRN_OK;
  }
  cairn__open(s, s->start, 0,
              grid_h(s, s->heuristic, start.x + 1, start.y + 1), s->start);
  return CAIRN_OK;
}

cairn_status cairn_search_step(cairn_search *s, uint64_t budget) {
  if (!s) return CAIRN_ERR_ARG;
  if (s->kind == CAIRN__NONE) return CAIRN_ERR_STATE;
  if (s->state != CAIRN_IN_PROGRESS) return s->state;
  if (budget == 0) return CAIRN_ERR_ARG;
  /* an edit between steps leaves open nodes whose costs and moves no longer
   * hold: stop rather than return a path through a changed cell */
  if (s->kind == CAIRN__GRID && s->grid && s->grid->edits != s->grid_edits)
    return s->state = CAIRN_ERR_STATE;
  /* new landmarks free the table the search's bounds read */
  if (s->kind == CAIRN__GRAPH && s->graph &&
      cairn__graph_version(s->graph) != s->graph_version)
    return s->state = CAIRN_ERR_STATE;
  return s->step(s, budget);
}

/* A path's cost from terrain alone: what it costs without layers or turn
 * penalties. */
static cairn_cost terrain_cost(const cairn_grid *g, const uint32_t *nodes,
                               size_t n) {
  cairn_cost c = 0;
  for (size_t k = 1; k < n; k++) {
    uint32_t d = nodes[k] > nodes[k - 1] ? nodes[k] - nodes[k - 1] : nodes[k - 1] - nodes[k];
    bool straight = d == 1 || d == (uint32_t)g->stride;
    c += (straight ? CAIRN_COST_ONE : CAIRN_COST_DIAG) * g->cost[nodes[k]];
  }
  return c;
}

cairn_status cairn_search_result(cairn_search *s, cairn_result *out) {
  if (!s || !out) return CAIRN_ERR_ARG;
  memset(out, 0, sizeof *out);
  out->status = s->state;
  out->cost = CAIRN_COST_INF;
  out->expanded = s->expanded;
  out->generated = s->generated;
  if (s->kind == CAIRN__NONE || s->state != CAIRN_OK || s->full_map)
    return out->status;
  out->cost = s->nodes[s->found].g;
  out->base_cost = out->cost;
  out->path_len = s->path_len;
  out->steps = (uint32_t)(s->path_len - 1);
  if (s->kind == CAIRN__GRID) {
    out->path = s->path;
    out->base_cost = terrain_cost(s->grid, s->path_nodes, s->path_len);
  } else {
    out->nodes = s->path_nodes;
  }
  if (s->goal_set) out->goal_index = s->goal_id[s->found];
  return out->status;
}

cairn_status cairn_search_cell(const cairn_search *s, cairn_point p,
                               cairn_node_info *out) {
  if (!s || !out) return CAIRN_ERR_ARG;
  out->state = CAIRN_NODE_FRESH;
  out->g = out->h = out->f = CAIRN_COST_INF;
  if (s->kind != CAIRN__GRID || !s->grid) return CAIRN_ERR_STATE;
  if (!cairn_grid_contains(s->grid, p.x, p.y)) return CAIRN_ERR_RANGE;
  uint32_t i = cairn__grid_index(s->grid, p.x, p.y);
  if (cairn__is_fresh(s, i)) return CAIRN_OK;
  out->state = cairn__is_open(s, i) ? CAIRN_NODE_OPEN : CAIRN_NODE_CLOSED;
  out->g = s->nodes[i].g;
  out->h = s->goal_set || s->full_map
               ? 0
               : grid_h(s, (int)s->heuristic, p.x + 1, p.y + 1);
  out->f = out->g + out->h;
  return CAIRN_OK;
}

cairn_status cairn__run_to_end(cairn_search *s, cairn_status begun,
                               cairn_result *out) {
  if (begun == CAIRN_OK)
    while (cairn_search_step(s, UINT64_MAX) == CAIRN_IN_PROGRESS) {
    }
  if (!out) return s ? s->state : CAIRN_ERR_ARG;
  if (!s) {
    memset(out, 0, sizeof *out);
    out->cost = CAIRN_COST_INF;
    return out->status = CAIRN_ERR_ARG;
  }
  cairn_search_result(s, out);
  if (begun != CAIRN_OK) out->status = begun;
  return out->status;
}

cairn_status cairn_astar(cairn_search *s, const cairn_grid *g,
                         cairn_point start, cairn_point goal,
                         const cairn_search_opts *o, cairn_result *out) {
  return cairn__run_to_end(s, cairn_astar_begin(s, g, start, goal, o), out);
}

cairn_status cairn_dijkstra_nearest_begin(cairn_search *s,
                                          const cairn_grid *g,
                                          cairn_point start,
                                          const cairn_point *goals,
                                          size_t n_goals,
                                          const cairn_search_opts *o) {
  cairn_status st = grid_begin(s, g, start, o, false);
  if (st != CAIRN_OK) return st;
  if (!goals || n_goals == 0 || n_goals > UINT32_MAX) st = CAIRN_ERR_ARG;
  for (size_t k = 0; st == CAIRN_OK && k < n_goals; k++)
    st = check_in(s, g, goals[k]);
  if (st == CAIRN_OK) st = cairn__search_goal_marks(s);
  if (st != CAIRN_OK) {
    s->kind = CAIRN__NONE;
    return s->state = st;
  }
  bool reachable = !g->islands_fresh;
  for (size_t k = n_goals; k-- > 0;) { /* backwards: the first index wins */
    uint32_t i = cairn__grid_index(g, goals[k].x, goals[k].y);
    s->goal_mark[i] = s->gen;
    s->goal_id[i] = (uint32_t)k;
    reachable = reachable || g->island[i] == g->island[s->start];
  }
  s->goal_set = true;
  s->heuristic = CAIRN_H_ZERO;
  s->step = goal_set_steps[s->bounded][s->turn != 0][s->moves == 4];
  if (!reachable) {
    s->state = CAIRN_NO_PATH;
    return CAIRN_OK;
  }
  cairn__open(s, s->start, 0, 0, s->start);
  return CAIRN_OK;
}

cairn_status cairn_dijkstra_nearest(cairn_search *s, const cairn_grid *g,
                                    cairn_point start, const cairn_point *goals,
                                    size_t n_goals,
                                    const cairn_search_opts *o,
                                    cairn_result *out) {
  return cairn__run_to_end(
      s, cairn_dijkstra_nearest_begin(s, g, start, goals, n_goals, o), out);
}

/* ---- fills on uniform terrain -------------------------------------- */

/* When every open cell of the region costs the same, a step costs one of
 * two values (straight or diagonal), and Dijkstra needs no heap: the nodes
 * reached by straight steps are reached in order of their g (each is the g
 * of a node popped in order, plus the same constant), and so are those
 * reached diagonally. Two FIFO queues and a merge of their heads give the
 * exact Dijkstra order at O(1) per step; an entry whose node was reached
 * more cheaply since it was queued is skipped when it comes up. The costs
 * are those of the heap fill; only the order among equal costs, and so
 * which of several shortest paths a trace gives, can differ. */

/* Grows queue q so it has room for `need` more entries (capacities stay
 * powers of two, so positions wrap with a mask), unrolling the ring. */
static bool fifo_room(cairn_search *s, int q, size_t need) {
  if (s->ring_cap[q] - s->ring_len[q] >= need) return true;
  size_t cap = s->ring_cap[q] ? s->ring_cap[q] : 1024;
  while (cap - s->ring_len[q] < need) cap *= 2;
  cairn__fifo_entry *r = cairn__alloc(&s->alloc, cap * sizeof *r);
  if (!r) return false;
  for (size_t k = 0; k < s->ring_len[q]; k++)
    r[k] = s->ring[q][(s->ring_head[q] + k) & (s->ring_cap[q] - 1)];
  cairn__free(&s->alloc, s->ring[q], s->ring_cap[q] * sizeof *r);
  s->ring[q] = r;
  s->ring_cap[q] = cap;
  s->ring_head[q] = 0;
  return true;
}

static bool fifo_push(cairn_search *s, int q, uint32_t node, cairn_cost g) {
  if (!fifo_room(s, q, 1)) return false;
  size_t at = (s->ring_head[q] + s->ring_len[q]++) & (s->ring_cap[q] - 1);
  s->ring[q][at].g = g;
  s->ring[q][at].node = node;
  s->ring[q][at].dir = 8;
  s->generated++;
  return true;
}

/* The queue whose head comes first (straight on a tie), or -1 if empty. */
static int fifo_next(const cairn_search *s) {
  if (!s->ring_len[0]) return s->ring_len[1] ? 1 : -1;
  if (!s->ring_len[1]) return 0;
  return s->ring[1][s->ring_head[1]].g < s->ring[0][s->ring_head[0]].g;
}

/* One FIFO queue copied out of the context for the loop, with free-running
 * head and tail counters (positions are counter & mask): in locals, stores
 * into the node arrays cannot alias them, so nothing is reloaded per
 * neighbour. This loop is most of a hierarchy's build. */
typedef struct fifo_q {
  cairn__fifo_entry *r;
  size_t mask, head, tail;
} fifo_q;

static fifo_q fifo_load(const cairn_search *s, int q) {
  fifo_q f = {s->ring[q], s->ring_cap[q] - 1, s->ring_head[q],
              s->ring_head[q] + s->ring_len[q]};
  return f;
}

static void fifo_store(cairn_search *s, int q, const fifo_q *f) {
  s->ring_head[q] = f->head & f->mask;
  s->ring_len[q] = f->tail - f->head;
}

/* Room for one expansion's pushes (at most 4 per queue): grows rarely. */
static bool fifo_regrow(cairn_search *s, fifo_q *f0, fifo_q *f1) {
  fifo_store(s, 0, f0);
  fifo_store(s, 1, f1);
  bool ok = fifo_room(s, 0, 4) && fifo_room(s, 1, 4);
  *f0 = fifo_load(s, 0);
  *f1 = fifo_load(s, 1);
  return ok;
}

/* Relaxes the moves in `open` from c at cost ng, queueing improvements. */
CAIRN_INLINE uint64_t fifo_relax(cairn__node *nodes, uint32_t *parent,
                                 uint32_t gen, fifo_q *f, unsigned open,
                                 const int32_t *off, uint32_t c,
                                 cairn_cost ng) {
  uint64_t pushed = 0;
  while (open) {
    const int d = lowest_bit(open);
    open &= open - 1;
    const uint32_t nb = (uint32_t)((int32_t)c + off[d]);
    cairn__node *n = &nodes[nb];
    const uint32_t stamp = n->stamp;
    if (stamp - gen > 1u) n->stamp = gen; /* fresh */
    else if (stamp != gen || ng >= n->g) continue;
    n->g = ng;
    parent[nb] = c;
    cairn__fifo_entry *e = &f->r[f->tail++ & f->mask];
    e->g = ng;
    e->node = nb;
    e->dir = (uint32_t)d;
    pushed++;
  }
  return pushed;
}

/* Moves a fill need not relax from a cell reached by step d from parent p
 * (8: a source, none): the step back to p, and, on 8 moves, every step to
 * a neighbour of p that p reaches in one legal step. With one price per
 * step length, one step from p costs no more than two through c, so those
 * neighbours cannot improve (and a tie never replaces a parent): the fill
 * is the same, bit for bit, with a third to a half fewer neighbour tests.
 * prune_pair[d][k] = {step from c, step from p} to the same neighbour. */
static const uint8_t prune_back[9] = {1, 0, 3, 2, 7, 6, 5, 4, 8};
static const uint8_t prune_pair[8][4][2] = {
    {{2, 4}, {3, 6}, {5, 2}, {7, 3}}, {{2, 5}, {3, 7}, {4, 2}, {6, 3}},
    {{0, 4}, {1, 5}, {6, 0}, {7, 1}}, {{0, 6}, {1, 7}, {4, 0}, {5, 1}},
    {{1, 2}, {3, 0}, {1, 2}, {3, 0}}, {{0, 2}, {3, 1}, {0, 2}, {3, 1}},
    {{1, 3}, {2, 0}, {1, 3}, {2, 0}}, {{0, 3}, {2, 1}, {0, 3}, {2, 1}}};

static void fill_prune_table(cairn_search *s) {
  for (int d = 0; d < 8; d++)
    for (unsigned pm = 0; pm < 256; pm++) {
      unsigned skip = 1u << prune_back[d];
      for (int k = 0; k < 4; k++)
        skip |= ((pm >> prune_pair[d][k][1]) & 1u) << prune_pair[d][k][0];
      s->prune[d][pm] = (uint8_t)skip;
    }
}

/* The moves not to relax out of c, reached by step d; on 4 moves only the
 * step back (the others concern diagonals). */
CAIRN_INLINE unsigned fifo_prune(const cairn_search *s, const uint8_t *moves,
                                 uint32_t c, uint32_t d, const int32_t *off,
                                 int MOVES) {
  if (d == 8) return 0;
  if (MOVES == 4) return 1u << prune_back[d];
  return s->prune[d][moves[(uint32_t)((int32_t)c - off[d])]];
}

/* CHECKED: test for room before every expansion (and grow the queues);
 * fill_begin leaves it out when the queues already hold every push the
 * fill could make. */
CAIRN_INLINE cairn_status fifo_fill_impl(cairn_search *s, uint64_t budget,
                                         const int MOVES, const bool BOUNDED,
                                         const bool CHECKED) {
  const uint8_t *cost = s->grid->cost;
  const int32_t stride = s->grid->stride;
  cairn__node *nodes = s->nodes;
  uint32_t *parent = s->parent;
  const uint32_t gen = s->gen;
  const uint32_t *goal_mark = s->goal_set ? s->goal_mark : NULL;
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = dir_dx[d] + dir_dy[d] * stride;
  fifo_q f0 = fifo_load(s, 0), f1 = fifo_load(s, 1);
  uint64_t expanded = 0, generated = 0;
  cairn_status st = CAIRN_IN_PROGRESS;
  while (budget--) {
    cairn__fifo_entry e;
    bool have0 = f0.tail != f0.head, have1 = f1.tail != f1.head;
    if (!have0 && !have1) {
      st = CAIRN_OK;
      break;
    }
    if (have1 && (!have0 || f1.r[f1.head & f1.mask].g < f0.r[f0.head & f0.mask].g))
      e = f1.r[f1.head++ & f1.mask];
    else
      e = f0.r[f0.head++ & f0.mask];
    const uint32_t c = e.node;
    if (nodes[c].stamp != gen || nodes[c].g != e.g) continue; /* stale */
    nodes[c].stamp = gen + 1;
    expanded++;
    if (goal_mark && goal_mark[c] == gen && --s->targets_left == 0) {
      st = CAIRN_OK;
      break;
    }
    if (CHECKED &&
        (f0.tail - f0.head + 4 > f0.mask + 1 || f1.tail - f1.head + 4 > f1.mask + 1) &&
        !fifo_regrow(s, &f0, &f1)) {
      st = CAIRN_ERR_NOMEM;
      break;
    }
    unsigned open = moves_from(s->grid, c, MOVES) &
                    ~fifo_prune(s, s->grid->moves, c, e.dir, off, MOVES);
    if (BOUNDED) {
      const int32_t cx = (int32_t)(c % (uint32_t)stride);
      const int32_t cy = (int32_t)(c / (uint32_t)stride);
      open &= bound_mask(s, cx, cy);
    }
    /* every open cell costs the same, so entering c or leaving it: one
     * price per step length, and the fill runs the same both ways */
    generated += fifo_relax(nodes, parent, gen, &f0, open & 15u, off, c,
                            e.g + CAIRN_COST_ONE * cost[c]);
    if (MOVES == 8)
      generated += fifo_relax(nodes, parent, gen, &f1, open & 0xf0u, off, c,
                              e.g + CAIRN_COST_DIAG * cost[c]);
  }
  fifo_store(s, 0, &f0);
  fifo_store(s, 1, &f1);
  s->expanded += expanded;
  s->generated += generated;
  if (st == CAIRN_IN_PROGRESS && fifo_next(s) < 0) st = CAIRN_OK;
  if (st == CAIRN_IN_PROGRESS) return st;
  return cairn__finish(s, st);
}

#define FIFO_STEP(name, M, B, C)                                \
  static cairn_status name(cairn_search *s, uint64_t budget) {  \
    return fifo_fill_impl(s, budget, M, B, C);                  \
  }
FIFO_STEP(fifo_fill_8, 8, false, true)
FIFO_STEP(fifo_fill_4, 4, false, true)
FIFO_STEP(fifo_fill_8b, 8, true, true)
FIFO_STEP(fifo_fill_4b, 4, true, true)
FIFO_STEP(fifo_fill_8u, 8, false, false)
FIFO_STEP(fifo_fill_4u, 4, false, false)
FIFO_STEP(fifo_fill_8bu, 8, true, false)
FIFO_STEP(fifo_fill_4bu, 4, true, false)
/* [room unchecked][4 moves][bounded] */
static const cairn__step_fn fifo_steps[2][2][2] = {
    {{fifo_fill_8, fifo_fill_8b}, {fifo_fill_4, fifo_fill_4b}},
    {{fifo_fill_8u, fifo_fill_8bu}, {fifo_fill_4u, fifo_fill_4bu}}};

/* Cells of the fill's region (its bounds, or the grid). */
static size_t region_cells(const cairn_search *s, const cairn_grid *g) {
  if (!s->bounded) return (size_t)g->width * (size_t)g->height;
  return (size_t)(s->bx1 - s->bx0 + 1) * (size_t)(s->by1 - s->by0 + 1);
}

/* Each expansion queues at most 4 straight and 4 diagonal steps, and each
 * cell is expanded once: queues of 4 x cells (plus the sources) never
 * fill up. */
cairn_status cairn_search_reserve_fill(cairn_search *s, const cairn_grid *g) {
  if (!s || !g) return CAIRN_ERR_ARG;
  size_t cells = (size_t)g->width * (size_t)g->height, need = 4 * cells + 64;
  if (need / 4 < cells) return CAIRN_ERR_TOO_LARGE;
  return fifo_room(s, 0, need) && fifo_room(s, 1, need) ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

/* Whether every open cell of the fill's region (its bounds, or the grid)
 * has the same terrain cost. One pass over the region: far cheaper than
 * the fill it lets skip the heap. */
static bool region_uniform(const cairn_search *s, const cairn_grid *g) {
  if (s->pen || s->claims) return false; /* layers make steps uneven */
  if (!s->bounded || g->distinct_costs <= 1) return g->distinct_costs <= 1;
  const int32_t x0 = s->bx0, y0 = s->by0, x1 = s->bx1, y1 = s->by1;
  uint8_t first = 0;
  for (int32_t y = y0; y <= y1; y++) {
    const uint8_t *row = g->cost + (size_t)y * (size_t)g->stride;
    for (int32_t x = x0; x <= x1; x++) {
      uint8_t c = row[x];
      if (!c) continue;
      if (!first) first = c;
      else if (c != first) return false;
    }
  }
  return true;
}

/* Validates and opens every source (and marks the targets) of a fill; the
 * search is left ready to step. */
static cairn_status fill_begin(cairn_search *s, const cairn_grid *g,
                               const cairn_point *sources, size_t n_sources,
                               const cairn_point *targets, size_t n_targets,
                               bool reverse, const cairn_search_opts *o) {
  if (!s) return CAIRN_ERR_ARG;
  if (!g || !sources || !n_sources || (n_targets && !targets) ||
      n_targets > UINT32_MAX) {
    s->state = CAIRN_ERR_ARG;
    s->kind = CAIRN__NONE;
    return CAIRN_ERR_ARG;
  }
  cairn_search_opts plain = o ? *o : cairn_search_defaults();
  plain.heuristic = CAIRN_H_ZERO;
  plain.turn_penalty = 0;
  plain.max_expanded = 0;
  plain.weight = 1.0;
  cairn_status st = grid_begin(s, g, sources[0], &plain, false);
  for (size_t k = 1; st == CAIRN_OK && k < n_sources; k++)
    st = check_in(s, g, sources[k]);
  if (st == CAIRN_OK && n_targets) st = cairn__search_goal_marks(s);
  if (st != CAIRN_OK) {
    if (s->kind != CAIRN__NONE) s->state = st;
    s->kind = CAIRN__NONE;
    return st;
  }
  s->full_map = true;
  s->step = fill_steps[s->moves == 4][s->bounded][reverse];
  /* targets off the grid or bounds are never settled: they just make the
   * fill run to the end */
  s->targets_left = 0;
  for (size_t k = 0; k < n_targets; k++) {
    if (!cairn_grid_contains(g, targets[k].x, targets[k].y)) {
      s->targets_left++; /* never settled */
      continue;
    }
    uint32_t i = cairn__grid_index(g, targets[k].x, targets[k].y);
    if (s->goal_mark[i] == s->gen) continue; /* listed twice */
    s->goal_mark[i] = s->gen;
    s->goal_id[i] = (uint32_t)k;
    s->targets_left++;
  }
  s->goal_set = s->targets_left > 0;
  if (region_uniform(s, g)) {
    size_t cells = region_cells(s, g);
    bool roomy = s->ring_cap[0] >= 4 * cells + n_sources && s->ring_cap[1] >= 4 * cells;
    s->step = fifo_steps[roomy][s->moves == 4][s->bounded];
    s->ring_head[0] = s->ring_head[1] = s->ring_len[0] = s->ring_len[1] = 0;
    for (size_t k = 0; k < n_sources; k++) {
      uint32_t i = cairn__grid_index(g, sources[k].x, sources[k].y);
      if (!cairn__is_fresh(s, i)) continue;
      s->nodes[i].g = 0;
      s->nodes[i].stamp = s->gen;
      s->parent[i] = i;
      if (!fifo_push(s, 0, i, 0)) {
        s->kind = CAIRN__NONE;
        return s->state = CAIRN_ERR_NOMEM;
      }
    }
    return CAIRN_OK;
  }
  for (size_t k = 0; k < n_sources; k++) {
    uint32_t i = cairn__grid_index(g, sources[k].x, sources[k].y);
    if (cairn__is_fresh(s, i)) cairn__open(s, i, 0, 0, i);
  }
  return CAIRN_OK;
}

cairn_status cairn_dijkstra_fill(cairn_search *s, const cairn_grid *g,
                                 const cairn_point *sources, size_t n_sources,
                                 const cairn_point *targets, size_t n_targets,
                                 int to_sources, const cairn_search_opts *o) {
  cairn_status st = fill_begin(s, g, sources, n_sources, targets, n_targets,
                               to_sources != 0, o);
  if (st != CAIRN_OK) return st;
  while ((st = cairn_search_step(s, UINT64_MAX)) == CAIRN_IN_PROGRESS) {
  }
  return st;
}

cairn_status cairn_search_trace(const cairn_search *s, cairn_point cell,
                                cairn_point *out, size_t cap, size_t *n) {
  if (!s || !n || (cap && !out)) return CAIRN_ERR_ARG;
  *n = 0;
  if (s->kind != CAIRN__GRID || !s->grid) return CAIRN_ERR_STATE;
  const cairn_grid *g = s->grid;
  if (!cairn_grid_contains(g, cell.x, cell.y)) return CAIRN_ERR_RANGE;
  uint32_t c = cairn__grid_index(g, cell.x, cell.y);
  if (cairn__is_fresh(s, c)) return CAIRN_NO_PATH;
  size_t len = cairn__chain_len(s, c);
  *n = len;
  if (len > cap) return CAIRN_ERR_BUFFER;
  size_t k = 0;
  for (uint32_t i = c;; i = s->parent[i]) {
    out[k++] = cairn__grid_point(g, i);
    if (s->parent[i] == i) break;
  }
  return CAIRN_OK;
}

cairn_status cairn_distance_map(cairn_search *s, const cairn_grid *g,
                                const cairn_point *sources, size_t n_sources,
                                const cairn_search_opts *o, cairn_cost *dist,
                                size_t dist_len) {
  if (!s || !g || !sources || !n_sources || !dist) return CAIRN_ERR_ARG;
  if (dist_len < (size_t)g->width * (size_t)g->height) return CAIRN_ERR_ARG;
  cairn_search_opts whole = o ? *o : cairn_search_defaults();
  whole.bounds.w = whole.bounds.h = 0;
  cairn_status st = cairn_dijkstra_fill(s, g, sources, n_sources, NULL, 0, 0,
                                        &whole);
  if (st != CAIRN_OK) return st;
  for (int32_t y = 0; y < g->height; y++) {
    cairn_cost *row = dist + (size_t)y * (size_t)g->width;
    uint32_t i = cairn__grid_index(g, 0, y);
    for (int32_t x = 0; x < g->width; x++, i++)
      row[x] = cairn__is_closed(s, i) ? s->nodes[i].g : CAIRN_COST_INF;
  }
  return st;
}
