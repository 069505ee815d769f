/* A* and Dijkstra on grids: the grid loop and its entry points.
 *
 * One loop, grid_step_impl, serves A* with every heuristic, nearest-goal
 * Dijkstra and the heap fills and distance maps on uneven terrain (on
 * uniform terrain the FIFO fill of search_fill.c is a second loop, with no
 * heap at all); it is specialised at compile time on the
 * heuristic, the move set, the turn penalty and the goal test (always_inline
 * with constant arguments), so the plain case carries no test for features it
 * does not use. Blocking calls are begin + step(unbounded). */
#include "search_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the grid loop -------------------------------------------------- */

/* GOAL_FILL runs until the open set empties, or until every target is
 * settled when the fill has targets. */
enum { GOAL_ONE, GOAL_SET, GOAL_FILL };

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


/* Whether claims on cell (x, y) (padded) count for this search. */
CAIRN_INLINE bool in_claim_radius(const cairn_search *s, int32_t x, int32_t y) {
  return !s->claim_r || (abs(x - s->sx) <= s->claim_r && abs(y - s->sy) <= s->claim_r);
}

/* REVERSE (fills only): g is the cost of reaching the sources, so a step
 * from neighbour nb into c costs c's terrain, not nb's. SIZED: a unit of
 * s->size cells a side, its moves and costs those of its footprint
 * (cairn_search_opts.size). GATES: the heuristic raised to the dead-end
 * gates' bound (cairn__de_gate_h; octile A* with 8 moves only). */
CAIRN_INLINE cairn_status grid_step_impl(cairn_search *s, uint64_t budget,
                                         const int H, const int MOVES,
                                         const bool TURN, const int GOAL,
                                         const bool BOUNDED,
                                         const bool REVERSE, const bool SIZED,
                                         const bool LM, const bool GATES) {
  const cairn_grid *g = s->grid;
  const uint8_t *cost = g->cost;
  const uint32_t *pen = s->pen;
  const uint16_t *claims = s->claims;
  const cairn_dead_ends *de = s->de;
  const int32_t stride = g->stride;
  const uint32_t goal = s->goal;
  const unsigned size = s->size;
  int32_t off[8];
  cairn_cost base[8];
  for (int d = 0; d < 8; d++) {
    off[d] = cairn__dx[d] + cairn__dy[d] * stride;
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
    unsigned open = SIZED ? cairn__sized_moves(g, c, size, MOVES) : cairn__moves_from(g, c, MOVES);
    if (BOUNDED) open &= cairn__bound_mask(s, cx, cy);
    /* a dead-end table: one predictable branch when there is none, a bit
     * test a cell when there is, the moves checked at gates only */
    if (de && cairn__de_bit(s->de_gates, c)) open = cairn__de_moves(s, c, open, off);
    while (open) {
      const int d = cairn__ctz(open);
      open &= open - 1;
      const uint32_t nb = (uint32_t)((int32_t)c + off[d]);
      const uint32_t in = REVERSE ? c : nb; /* the position whose entry is paid */
      cairn_cost ng = gc + base[d] * (SIZED ? cairn__block_cost(g, in, size) : cost[in]);
      if (pen) { /* a cost layer: one predictable branch when there is none */
        const uint32_t p = SIZED ? cairn__block_pen(g, pen, in, size) : pen[in];
        if (p == CAIRN_PENALTY_BLOCK) continue;
        ng += p;
      }
      if (claims) {
        const uint32_t k = claims[REVERSE ? c : nb];
        if (k && in_claim_radius(s, REVERSE ? cx : cx + cairn__dx[d],
                                 REVERSE ? cy : cy + cairn__dy[d]))
          ng += k * s->claim_pen;
      }
      if (TURN && in_off != 0 && in_off != off[d]) ng += s->turn;
      if (cairn__is_fresh(s, nb)) {
        cairn_cost h = cairn__grid_h_lm(s, H, LM, nb, cx + cairn__dx[d], cy + cairn__dy[d]);
        if (GATES) h = cairn__de_raise(s, h, nb, cx + cairn__dx[d], cy + cairn__dy[d]);
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

#define GRID_STEP_LG(name, H, M, T, G, B, R, S, L, GT)               \
  static cairn_status name(cairn_search *s, uint64_t budget) {        \
    return grid_step_impl(s, budget, H, M, T, G, B, R, S, L, GT);     \
  }
#define GRID_STEP_L(name, H, M, T, G, B, R, S, L) GRID_STEP_LG(name, H, M, T, G, B, R, S, L, false)
#define GRID_STEP(name, H, M, T, G, B, R, S) GRID_STEP_L(name, H, M, T, G, B, R, S, false)
/* Each search kind in all four (turn, moves) forms; bounded ones get _b;
 * L: with landmarks. */
#define GRID_STEPS_TML(tag, H, G, B, S, L)                            \
  GRID_STEP_L(step_##tag##_8, H, 8, false, G, B, false, S, L)         \
  GRID_STEP_L(step_##tag##_4, H, 4, false, G, B, false, S, L)         \
  GRID_STEP_L(step_##tag##_8t, H, 8, true, G, B, false, S, L)         \
  GRID_STEP_L(step_##tag##_4t, H, 4, true, G, B, false, S, L)
#define GRID_STEPS_TMBL(tag, H, G, S, L)                              \
  GRID_STEPS_TML(tag, H, G, false, S, L) GRID_STEPS_TML(tag##_b, H, G, true, S, L)
#define GRID_STEPS_TMB(tag, H, G, S) GRID_STEPS_TMBL(tag, H, G, S, false)
GRID_STEPS_TMB(oct, CAIRN_H_OCTILE, GOAL_ONE, false)
GRID_STEPS_TMB(man, CAIRN_H_MANHATTAN, GOAL_ONE, false)
GRID_STEPS_TMB(euc, CAIRN_H_EUCLIDEAN, GOAL_ONE, false)
GRID_STEPS_TMB(zero, CAIRN_H_ZERO, GOAL_ONE, false)
GRID_STEPS_TMB(set, CAIRN_H_ZERO, GOAL_SET, false)
/* A* with landmarks (octile only), for both sizes */
GRID_STEPS_TMBL(lm, CAIRN_H_OCTILE, GOAL_ONE, false, true)
GRID_STEPS_TMBL(lm_k, CAIRN_H_OCTILE, GOAL_ONE, true, true)
/* A* for units of more than one cell (the same forms) */
GRID_STEPS_TMB(oct_k, CAIRN_H_OCTILE, GOAL_ONE, true)
GRID_STEPS_TMB(man_k, CAIRN_H_MANHATTAN, GOAL_ONE, true)
GRID_STEPS_TMB(euc_k, CAIRN_H_EUCLIDEAN, GOAL_ONE, true)
GRID_STEPS_TMB(zero_k, CAIRN_H_ZERO, GOAL_ONE, true)
GRID_STEPS_TMB(set_k, CAIRN_H_ZERO, GOAL_SET, true)
/* fills: [sized][moves == 4][bounded][reverse]; no turn penalty */
#define FILL_STEP(tag, M, B, R, S) \
  GRID_STEP(step_fill_##tag, CAIRN_H_ZERO, M, false, GOAL_FILL, B, R, S)
#define FILL_STEPS(k, S)                 \
  FILL_STEP(8##k, 8, false, false, S)    \
  FILL_STEP(8r##k, 8, false, true, S)    \
  FILL_STEP(8b##k, 8, true, false, S)    \
  FILL_STEP(8br##k, 8, true, true, S)    \
  FILL_STEP(4##k, 4, false, false, S)    \
  FILL_STEP(4r##k, 4, false, true, S)    \
  FILL_STEP(4b##k, 4, true, false, S)    \
  FILL_STEP(4br##k, 4, true, true, S)
FILL_STEPS(, false)
FILL_STEPS(_k, true)
const cairn__step_fn cairn__search_fill_steps[2][2][2][2] = {
    {{{step_fill_8, step_fill_8r}, {step_fill_8b, step_fill_8br}},
     {{step_fill_4, step_fill_4r}, {step_fill_4b, step_fill_4br}}},
    {{{step_fill_8_k, step_fill_8r_k}, {step_fill_8b_k, step_fill_8br_k}},
     {{step_fill_4_k, step_fill_4r_k}, {step_fill_4b_k, step_fill_4br_k}}}};

#define TM_TABLE(tag)                                                 \
  {{{step_##tag##_8, step_##tag##_4}, {step_##tag##_8t, step_##tag##_4t}}, \
   {{step_##tag##_b_8, step_##tag##_b_4},                             \
    {step_##tag##_b_8t, step_##tag##_b_4t}}}
/* [sized][heuristic][bounded][turn][moves == 4] */
static const cairn__step_fn one_goal_steps[2][4][2][2][2] = {
    {TM_TABLE(oct), TM_TABLE(man), TM_TABLE(euc), TM_TABLE(zero)},
    {TM_TABLE(oct_k), TM_TABLE(man_k), TM_TABLE(euc_k), TM_TABLE(zero_k)}};
/* [sized][bounded][turn][moves == 4] */
static const cairn__step_fn landmark_steps[2][2][2][2] = {TM_TABLE(lm), TM_TABLE(lm_k)};
/* [sized][bounded][turn][moves == 4] */
static const cairn__step_fn goal_set_steps[2][2][2][2] = {TM_TABLE(set), TM_TABLE(set_k)};
/* A* raised to a dead-end table's gates (plain: one cell, no turn
 * penalty; octile, 8 moves): [landmarks][bounded] */
GRID_STEP_LG(step_gates, CAIRN_H_OCTILE, 8, false, GOAL_ONE, false, false, false, false, true)
GRID_STEP_LG(step_gates_b, CAIRN_H_OCTILE, 8, false, GOAL_ONE, true, false, false, false, true)
GRID_STEP_LG(step_gates_lm, CAIRN_H_OCTILE, 8, false, GOAL_ONE, false, false, false, true, true)
GRID_STEP_LG(step_gates_lm_b, CAIRN_H_OCTILE, 8, false, GOAL_ONE, true, false, false, true, true)
static const cairn__step_fn gate_steps[2][2] = {{step_gates, step_gates_b},
                                                {step_gates_lm, step_gates_lm_b}};

/* ---- grid entry points ---------------------------------------------- */

static cairn_status check_cell(const cairn_grid *g, cairn_point p) {
  if (!cairn_grid_contains(g, p.x, p.y)) return CAIRN_ERR_RANGE;
  if (!g->cost[cairn__grid_index(g, p.x, p.y)]) return CAIRN_ERR_BLOCKED;
  return CAIRN_OK;
}

/* check_cell, a legal position for the search's size, and inside the
 * search's bounds when it has them. */
cairn_status cairn__search_check_in(const cairn_search *s, const cairn_grid *g,
                                    cairn_point p) {
  cairn_status st = check_cell(g, p);
  if (st == CAIRN_OK && g->clear[cairn__grid_index(g, p.x, p.y)] < s->size)
    st = CAIRN_ERR_BLOCKED;
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
  /* a footprint's top-left cell: the whole footprint stays inside */
  s->bx1 = r.x + r.w - (s->size - 1);
  s->by1 = r.y + r.h - (s->size - 1);
  return CAIRN_OK;
}

/* Common start of every grid search: validates, prepares, opens `start`. */
cairn_status cairn__search_grid_begin(cairn_search *s, const cairn_grid *g,
                                      cairn_point start,
                                      const cairn_search_opts *o,
                                      bool avoid_ok) {
  if (!s) return CAIRN_ERR_ARG;
  s->state = CAIRN_ERR_ARG;
  s->kind = CAIRN__NONE;
  if (!g) return CAIRN_ERR_ARG;
  cairn_status st = check_cell(g, start);
  if (st == CAIRN_OK) st = cairn__search_load_opts(s, o);
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
  if (st == CAIRN_OK) st = cairn__search_check_in(s, g, start);
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
  cairn_status st = cairn__search_grid_begin(s, g, start, o, true);
  if (st != CAIRN_OK) return st;
  st = cairn__search_check_in(s, g, goal);
  if (st != CAIRN_OK) {
    s->kind = CAIRN__NONE;
    return s->state = st;
  }
  s->goal = cairn__grid_index(g, goal.x, goal.y);
  s->gx = goal.x + 1;
  s->gy = goal.y + 1;
  st = cairn__lm_begin(s, g, s->start, s->goal, false);
  if (st == CAIRN_OK) st = cairn__de_begin(s, g, o);
  if (st != CAIRN_OK) {
    s->kind = CAIRN__NONE;
    return s->state = st;
  }
  s->step = s->de_gh_n   ? gate_steps[s->lm_used != 0][s->bounded]
            : s->lm_used ? landmark_steps[s->size > 1][s->bounded][s->turn != 0][s->moves == 4]
                         : one_goal_steps[s->size > 1][s->heuristic][s->bounded][s->turn != 0]
                                         [s->moves == 4];
  if (o) avoid_cells(s, g, o->avoid, o->n_avoid);
  const bool goal_blocked =
      s->pen && s->goal != s->start &&
      (s->size > 1 ? cairn__block_pen(g, s->pen, s->goal, s->size) : s->pen[s->goal]) ==
          CAIRN_PENALTY_BLOCK;
  const uint32_t *isl = cairn__grid_islands_of(g, s->size);
  if ((g->islands_fresh && isl[s->start] != isl[s->goal]) || goal_blocked) {
    s->state = CAIRN_NO_PATH; /* other island, or a goal the layer blocks */
    return CAIRN_OK;
  }
  cairn__open(s, s->start, 0,
              cairn__grid_h_all(s, s->heuristic, s->lm_used, s->start, start.x + 1, start.y + 1),
              s->start);
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
  if (s->kind == CAIRN__GRAPH && s->lm_graph &&
      cairn__graph_version(s->lm_graph) != s->graph_version)
    return s->state = CAIRN_ERR_STATE;
  return s->step(s, budget);
}

/* A path's cost from terrain alone: what it costs without layers or turn
 * penalties, for a unit of `size` cells a side (a resumed search's
 * positions are trusted only as far as their clearance). */
static cairn_cost terrain_cost(const cairn_grid *g, const uint32_t *nodes, size_t n,
                               unsigned size) {
  cairn_cost c = 0;
  for (size_t k = 1; k < n; k++) {
    uint32_t d = nodes[k] > nodes[k - 1] ? nodes[k] - nodes[k - 1] : nodes[k - 1] - nodes[k];
    bool straight = d == 1 || d == (uint32_t)g->stride;
    uint8_t t = size > 1 && g->clear[nodes[k]] >= size ? cairn__block_cost(g, nodes[k], size)
                                                       : g->cost[nodes[k]];
    c += (straight ? CAIRN_COST_ONE : CAIRN_COST_DIAG) * t;
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
    /* a jump point search has no layer: its cost is the terrain's */
    if (!s->jump) out->base_cost = terrain_cost(s->grid, s->path_nodes, s->path_len, s->size);
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
               : cairn__grid_h_all(s, (int)s->heuristic, s->lm_used, i, p.x + 1, p.y + 1);
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
  cairn_status st = cairn__search_grid_begin(s, g, start, o, false);
  if (st != CAIRN_OK) return st;
  if (!goals || n_goals == 0 || n_goals > UINT32_MAX) st = CAIRN_ERR_ARG;
  for (size_t k = 0; st == CAIRN_OK && k < n_goals; k++)
    st = cairn__search_check_in(s, g, goals[k]);
  if (st == CAIRN_OK) st = cairn__search_goal_marks(s);
  if (st != CAIRN_OK) {
    s->kind = CAIRN__NONE;
    return s->state = st;
  }
  bool reachable = !g->islands_fresh;
  const uint32_t *isl = cairn__grid_islands_of(g, s->size);
  for (size_t k = n_goals; k-- > 0;) { /* backwards: the first index wins */
    uint32_t i = cairn__grid_index(g, goals[k].x, goals[k].y);
    s->goal_mark[i] = s->gen;
    s->goal_id[i] = (uint32_t)k;
    reachable = reachable || isl[i] == isl[s->start];
  }
  s->goal_set = true;
  s->heuristic = CAIRN_H_ZERO;
  s->step = goal_set_steps[s->size > 1][s->bounded][s->turn != 0][s->moves == 4];
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
