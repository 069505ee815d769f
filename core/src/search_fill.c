/* Fills and distance maps on grids: the FIFO fills on uniform terrain,
 * the begin shared with the heap fills (whose loop is search_grid.c's),
 * traces and distance maps. */
#include "search_internal.h"

#include <string.h>

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
    const int d = cairn__ctz(open);
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

void cairn__search_prune_table(cairn_search *s) {
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
  const cairn_dead_ends *de = s->de;
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = cairn__dx[d] + cairn__dy[d] * stride;
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
    unsigned open = cairn__moves_from(s->grid, c, MOVES) &
                    ~fifo_prune(s, s->grid->moves, c, e.dir, off, MOVES);
    if (BOUNDED) {
      const int32_t cx = (int32_t)(c % (uint32_t)stride);
      const int32_t cy = (int32_t)(c / (uint32_t)stride);
      open &= cairn__bound_mask(s, cx, cy);
    }
    if (de && cairn__de_bit(s->de_gates, c)) open = cairn__de_moves(s, c, open, off);
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
  plain.landmarks = NULL; /* a fill has no goal to bound */
  cairn_status st = cairn__search_grid_begin(s, g, sources[0], &plain, false);
  for (size_t k = 1; st == CAIRN_OK && k < n_sources; k++)
    st = cairn__search_check_in(s, g, sources[k]);
  if (st == CAIRN_OK && n_targets) st = cairn__search_goal_marks(s);
  if (st != CAIRN_OK) {
    if (s->kind != CAIRN__NONE) s->state = st;
    s->kind = CAIRN__NONE;
    return st;
  }
  s->full_map = true;
  s->step = cairn__search_fill_steps[s->size > 1][s->moves == 4][s->bounded][reverse];
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
  st = cairn__de_begin_fill(s, g, o, sources, n_sources, targets, n_targets);
  if (st != CAIRN_OK) {
    s->kind = CAIRN__NONE;
    return s->state = st;
  }
  if (s->size == 1 && region_uniform(s, g)) { /* the FIFO rings prune size 1's moves */
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
