/* Incremental repair of a field after a few cells of its grid, or of its
 * cost layer, changed.
 *
 * 1. The set I of cells whose old value may no longer hold: every changed
 *    cell and its eight neighbours (their moves or step costs changed),
 *    then, repeatedly, every cell whose old value equals a member's value
 *    plus the step into that member (it may have depended on it). A cell
 *    outside I then has an old optimal walk that avoids I entirely, so it
 *    is still a walk of the new grid at the same cost: its old value is an
 *    upper bound that some walk achieves.
 * 2. Every cell of I is reset (INF, goals 0), and a Dijkstra starts from
 *    the goals in I and from every cell outside I next to I, with their
 *    values. It lowers any cell it can, inside I or out (a changed cell
 *    that became cheaper lowers cells beyond I this way).
 * 3. Afterwards every legal move a -> b satisfies value(a) <= value(b) +
 *    step: if b was popped, it relaxed a; if not, b is outside I, never
 *    lowered and not next to I, so a is outside I too (or b would be next
 *    to it), and their old values were consistent over an unchanged move.
 *    Consistent, achievable, goals at 0: the values are exact, which is
 *    what a rebuild gives. Directions are recomputed around every cell
 *    whose value changed, and line of sight in every goal window holding a
 *    changed cell, with the build's own functions, so the whole field is
 *    bit for bit a rebuild's.
 *
 * A cost layer's cell is one more input of the step into it: a penalty
 * that rose is a dearer terrain, one that fell a cheaper one, a block a
 * wall the grid does not show. The argument above holds unchanged, and it
 * needs no old penalties: the closure of step 1 prices the step into a
 * member with the member's penalty, which is the old one for every member
 * that did not change, and a changed member's neighbours are all in I
 * already. The layer lists its changed cells itself
 * (cairn_penalty_changes), so the field only keeps the version it shows.
 */
#include "flow_internal.h"

#include <stdlib.h>
#include <string.h>

enum { IN_I = 1, LOWERED = 2, SETTLED = 4, SEEDED = 8 };

/* The index offsets of the eight moves. */
static void offsets(const cairn_field *f, ptrdiff_t off[8]) {
  for (int d = 0; d < 8; d++)
    off[d] = cairn__dx[d] + (ptrdiff_t)cairn__dy[d] * f->stride;
}

#define STEP(i, d) ((size_t)((ptrdiff_t)(i) + off[d]))

static size_t add(cairn_flow_builder *b, size_t n, size_t i, uint8_t why) {
  b->mark[i] = why;
  b->list[n] = (uint32_t)i;
  return n + 1;
}

/* A changed position (grid coordinates) and its neighbours on the grid
 * join I. */
static size_t seed_position(const cairn_field *f, cairn_flow_builder *b,
                            size_t len, int32_t x, int32_t y) {
  size_t c = (size_t)(y + 1) * (size_t)f->stride + (size_t)(x + 1);
  if (!b->mark[c]) len = add(b, len, c, IN_I);
  for (int d = 0; d < 8; d++) {
    int32_t nx = x + cairn__dx[d], ny = y + cairn__dy[d];
    if (nx < 0 || ny < 0 || nx >= f->w || ny >= f->h) continue;
    size_t nb = (size_t)(ny + 1) * (size_t)f->stride + (size_t)(nx + 1);
    if (!b->mark[nb]) len = add(b, len, nb, IN_I);
  }
  return len;
}

/* A changed grid or layer cell: the positions whose footprint holds it
 * (the cell alone for size 1) are changed positions. */
static size_t seed_cell(const cairn_field *f, cairn_flow_builder *b,
                        size_t len, int32_t x, int32_t y) {
  for (int32_t py = y - f->size + 1 < 0 ? 0 : y - f->size + 1; py <= y; py++)
    for (int32_t px = x - f->size + 1 < 0 ? 0 : x - f->size + 1; px <= x; px++)
      len = seed_position(f, b, len, px, py);
  return len;
}

/* Step 1: the seeds (the grid's changed cells, then the layer's, padded
 * indices in b->seeds), then the closure over "depended on". */
static size_t collect(cairn_field *f, cairn_flow_builder *b, const uint8_t *g,
                      const cairn_point *changed, size_t n, size_t n_layer) {
  ptrdiff_t off[8];
  offsets(f, off);
  size_t len = 0;
  const size_t s = (size_t)f->stride;
  for (size_t k = 0; k < n; k++) len = seed_cell(f, b, len, changed[k].x, changed[k].y);
  for (size_t k = 0; k < n_layer; k++)
    len = seed_cell(f, b, len, (int32_t)(b->seeds[k] % s) - 1, (int32_t)(b->seeds[k] / s) - 1);
  const int dirs = f->moves == 8 ? 8 : 4;
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    const cairn_cost vc = f->cost[c];
    if (!g[c] || vc == CAIRN_COST_INF) continue;
    /* the step from a neighbour into c costs c's terrain and penalty */
    const cairn_cost pc = f->pen ? f->pen[c] : 0;
    if (pc == CAIRN_PENALTY_BLOCK) continue; /* never entered */
    for (int d = 0; d < dirs; d++) {
      size_t nb = STEP(c, d);
      if (b->mark[nb] || !g[nb] || f->cost[nb] == CAIRN_COST_INF) continue;
      if (f->cost[nb] == vc + cairn__flow_base[d] * g[c] + pc) len = add(b, len, nb, IN_I);
    }
  }
  return len;
}

/* Step 2: reset I and list what it starts from: the goals in I and the
 * cells outside I next to it, with their values. */
static size_t reset_and_seed(cairn_field *f, cairn_flow_builder *b,
                             const uint8_t *g, size_t len) {
  ptrdiff_t off[8];
  offsets(f, off);
  /* goals keep 0: a goal is the cell the build marked as one (every goal
   * is still passable, which the caller checked) */
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    bool goal = (f->dir[c] & FLOW_DIR_MASK) == CAIRN_FLOW_GOAL;
    f->cost[c] = !g[c] || goal ? 0 : CAIRN_COST_INF;
  }
  size_t n = 0;
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    if (g[c] && f->cost[c] == 0) b->seeds[n++] = (uint32_t)c;
    for (int d = 0; d < 8; d++) {
      size_t nb = STEP(c, d);
      if ((b->mark[nb] & (IN_I | SEEDED)) || !g[nb] || f->cost[nb] == CAIRN_COST_INF) continue;
      b->mark[nb] |= SEEDED;
      b->seeds[n++] = (uint32_t)nb;
    }
  }
  return n;
}

/* A relaxation's gain: the cell joins the list of changed cells once. */
static inline size_t lowered(cairn_flow_builder *b, size_t len, size_t nb) {
  if (b->mark[nb] & (IN_I | LOWERED)) return len;
  b->mark[nb] |= LOWERED;
  b->list[len] = (uint32_t)nb;
  return len + 1;
}

/* General terrain (and any layer): the indexed heap, seeded with every
 * start. */
/* The repair heap's side of a relaxation: the cell moves up, and joins
 * the list of changed cells. */
typedef struct repair_queue {
  cairn_flow_builder *b;
  const cairn_cost *v;
  size_t len;
} repair_queue;

static inline void repair_lowered(void *ctx, uint32_t nb, cairn_cost old) {
  repair_queue *q = ctx;
  (void)old;
  cairn__flow_heap_lower(q->b, q->v, nb);
  q->len = lowered(q->b, q->len, nb);
}

static size_t propagate_heap(cairn_field *f, cairn_flow_builder *b,
                             const uint8_t *g, size_t len, size_t n_seeds) {
  int32_t off[8];
  cairn__flow_offsets(f, off);
  b->heap_len = 0;
  for (size_t k = 0; k < n_seeds; k++) cairn__flow_heap_push(b, f->cost, b->seeds[k]);
  repair_queue q = {b, f->cost, len};
  while (b->heap_len)
    cairn__flow_relax(f, f->cost, g, off, cairn__flow_heap_pop(b, f->cost),
                      repair_lowered, &q);
  return q.len;
}

/* Sorts the starts by value through the heap (free before the FIFOs
 * run; its pops leave the positions at 0 again). */
static void sort_seeds(cairn_flow_builder *b, const cairn_cost *v, size_t n) {
  b->heap_len = 0;
  for (size_t k = 0; k < n; k++) cairn__flow_heap_push(b, v, b->seeds[k]);
  for (size_t k = 0; k < n; k++) b->seeds[k] = cairn__flow_heap_pop(b, v);
}

/* Uniform terrain: the build's two FIFOs plus a third, the starts sorted by
 * value. All three receive values in order (the starts by the sort, the
 * others because cells settle in order), so merging their heads is
 * Dijkstra's order at O(1) a step, and the repair costs about what a
 * build costs per cell it touches. */
static size_t propagate_fifo(cairn_field *f, cairn_flow_builder *b,
                             const uint8_t *g, size_t len, size_t n_seeds,
                             unsigned t) {
  cairn_cost *v = f->cost;
  sort_seeds(b, v, n_seeds);
  uint32_t *q[3] = {b->seeds, b->qa, b->qb};
  size_t head[3] = {0, 0, 0}, tail[3] = {n_seeds, 0, 0};
  const cairn_cost price[2] = {CAIRN_COST_ONE * t, CAIRN_COST_DIAG * t};
  int32_t off[8];
  cairn__flow_offsets(f, off);
  for (;;) {
    int best = -1;
    for (int k = 0; k < 3; k++)
      if (head[k] < tail[k] && (best < 0 || v[q[k][head[k]]] < v[q[best][head[best]]]))
        best = k;
    if (best < 0) break;
    const uint32_t c = q[best][head[best]++];
    if (b->mark[c] & SETTLED) continue;
    b->mark[c] |= SETTLED;
    unsigned open = cairn__flow_moves(g, c, f->stride, f->moves);
    while (open) {
      const int d = cairn__ctz(open);
      open &= open - 1;
      const uint32_t nb = (uint32_t)((int32_t)c + off[d]);
      const cairn_cost ng = v[c] + price[d >= 4];
      if (ng >= v[nb]) continue;
      v[nb] = ng;
      q[1 + (d >= 4)][tail[1 + (d >= 4)]++] = nb;
      len = lowered(b, len, nb);
    }
  }
  /* qb was the diagonal queue: give the heap back its zero positions */
  memset(b->qb, 0, tail[2] * sizeof *b->qb);
  return len;
}

static bool touches_los(const cairn_field *f, const cairn_point *changed,
                        size_t n) {
  if (f->los_radius <= 0) return false;
  /* one cell more: the window's line checks read the corner cells
   * beside it; size - 1 more: a cell changes the positions up and left of
   * it that cover it */
  const int32_t r = f->los_radius + f->size;
  for (size_t k = 0; k < n; k++)
    for (size_t j = 0; j < f->n_goals; j++) {
      int32_t dx = abs(changed[k].x - f->goals[j].x);
      int32_t dy = abs(changed[k].y - f->goals[j].y);
      if (dx <= r && dy <= r) return true;
    }
  return false;
}

/* The goals' line-of-sight windows lie in this box (grown by one: the
 * window's line checks read the corner cells beside it). */
static void goal_box(const cairn_field *f, int32_t box[4]) {
  box[0] = box[1] = INT32_MAX;
  box[2] = box[3] = INT32_MIN;
  if (f->los_radius <= 0) return;
  const int32_t r = f->los_radius + 1;
  for (size_t j = 0; j < f->n_goals; j++) {
    if (f->goals[j].x - r < box[0]) box[0] = f->goals[j].x - r;
    if (f->goals[j].y - r < box[1]) box[1] = f->goals[j].y - r;
    if (f->goals[j].x + r > box[2]) box[2] = f->goals[j].x + r;
    if (f->goals[j].y + r > box[3]) box[3] = f->goals[j].y + r;
  }
}

/* Step 3: directions around every changed value, line of sight if needed,
 * marks cleared, the reached box grown. Line of sight reads the grid and
 * which cells are reachable: a grid change near a goal (los on entry) or
 * a cell near one that became reachable or unreachable (a layer's block)
 * recomputes it. */
static void finish(cairn_field *f, cairn_flow_builder *b, const uint8_t *g,
                   size_t len, size_t n_seeds, bool los) {
  ptrdiff_t off[8];
  offsets(f, off);
  const size_t s = (size_t)f->stride;
  int32_t box[4];
  goal_box(f, box);
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    const bool was = (f->dir[c] & FLOW_DIR_MASK) != CAIRN_FLOW_NONE;
    /* the cell, and its neighbours outside the list (those inside get
     * their own turn) */
    for (int d = -1; d < 8; d++) {
      size_t i = d < 0 ? c : STEP(c, d);
      if (d >= 0 && (b->mark[i] & (IN_I | LOWERED))) continue;
      uint8_t keep = (uint8_t)(f->dir[i] & FLOW_LOS_BIT);
      f->dir[i] = (uint8_t)(cairn__flow_dir_of(f, g, i) | keep);
    }
    int32_t x = (int32_t)(c % s) - 1, y = (int32_t)(c / s) - 1;
    const bool now = (f->dir[c] & FLOW_DIR_MASK) != CAIRN_FLOW_NONE;
    if (was != now && x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]) los = true;
    if (f->cost[c] != CAIRN_COST_INF && g[c]) {
      if (x < f->bx0) f->bx0 = x;
      if (x > f->bx1) f->bx1 = x;
      if (y < f->by0) f->by0 = y;
      if (y > f->by1) f->by1 = y;
    }
  }
  for (size_t k = 0; k < len; k++) b->mark[b->list[k]] = 0;
  for (size_t k = 0; k < n_seeds; k++) b->mark[b->seeds[k]] = 0;
  if (!los) return;
  for (size_t j = 0; j < f->n_goals; j++) {
    const int32_t r = f->los_radius;
    for (int32_t y = f->goals[j].y - r; y <= f->goals[j].y + r; y++)
      for (int32_t x = f->goals[j].x - r; x <= f->goals[j].x + r; x++)
        if (x >= 0 && y >= 0 && x < f->w && y < f->h)
          f->dir[(size_t)(y + 1) * s + (size_t)(x + 1)] &= (uint8_t)~FLOW_LOS_BIT;
  }
  cairn__flow_los_all(f);
}

/* A sized field's eroded arrays where the grid's cells `changed` and the
 * layer's n_layer cells in b->seeds changed. */
static void refresh_sizes(cairn_field *f, const cairn_flow_builder *b,
                          const cairn_point *changed, size_t n, size_t n_layer) {
  if (f->size == 1) return;
  const size_t s = (size_t)f->stride;
  for (size_t k = 0; k < n; k++) cairn__flow_sizes_refresh(f, changed[k].x, changed[k].y);
  for (size_t k = 0; k < n_layer; k++)
    cairn__flow_sizes_refresh(f, (int32_t)(b->seeds[k] % s) - 1, (int32_t)(b->seeds[k] / s) - 1);
}

/* The field stops being uniform when a position a change reached takes
 * another terrain cost. */
static void uniform_at(cairn_field *f, int32_t x, int32_t y) {
  for (int32_t py = y - f->size + 1 < 0 ? 0 : y - f->size + 1; py <= y; py++)
    for (int32_t px = x - f->size + 1 < 0 ? 0 : x - f->size + 1; px <= x; px++) {
      const uint8_t t = f->cells[cairn__flow_cell_index(f, px, py)];
      if (t && t != f->uniform) f->uniform = 0;
    }
}

/* The repair of the grid's cells `changed` and of the layer's cells
 * changed since the field's version, the arguments checked. */
static cairn_status repair(cairn_flow_builder *b, cairn_field *f,
                           const cairn_point *changed, size_t n) {
  for (size_t k = 0; k < f->n_goals; k++)
    if (cairn_grid_clearance(f->grid, f->goals[k].x, f->goals[k].y) < f->size)
      return CAIRN_ERR_BLOCKED;
  cairn_status st = cairn__flow_builder_grow(b, f->n);
  if (st != CAIRN_OK) return st;
  double t0 = cairn__now_ms();
  const uint8_t *g = f->cells;
  /* the layer's changes go to b->seeds (each cell once, so they fit),
   * which collect reads before the seeding reuses it */
  size_t n_layer = 0;
  if (f->penalty) {
    n_layer = cairn_penalty_changes(f->penalty, f->layer_version, b->seeds, f->n);
    f->layer_version = cairn_penalty_version(f->penalty);
  }
  refresh_sizes(f, b, changed, n, n_layer);
  for (size_t k = 0; k < n; k++) uniform_at(f, changed[k].x, changed[k].y);
  size_t len = collect(f, b, g, changed, n, n_layer);
  size_t n_seeds = reset_and_seed(f, b, g, len);
  if (f->uniform) len = propagate_fifo(f, b, g, len, n_seeds, f->uniform);
  else len = propagate_heap(f, b, g, len, n_seeds);
  finish(f, b, g, len, n_seeds, touches_los(f, changed, n));
  f->repaired = len;
  f->repair_ms = cairn__now_ms() - t0;
  return CAIRN_OK;
}

cairn_status cairn_field_repair(cairn_flow_builder *b, cairn_field *f,
                                const cairn_point *changed, size_t n) {
  if (!b || !f || (n && !changed) || !f->built) return CAIRN_ERR_ARG;
  for (size_t k = 0; k < n; k++)
    if (changed[k].x < 0 || changed[k].y < 0 || changed[k].x >= f->w ||
        changed[k].y >= f->h)
      return CAIRN_ERR_RANGE;
  /* naming no cell reports nothing: then this is the layer's repair alone,
   * refused as that one is */
  if (!n && flow_stale(f)) return CAIRN_ERR_STATE;
  cairn_status st = repair(b, f, changed, n);
  /* the cells named are the grid's changes: the field shows its version */
  if (st == CAIRN_OK) f->grid_version = cairn_grid_version(f->grid);
  return st;
}

cairn_status cairn_field_repair_layer(cairn_flow_builder *b, cairn_field *f) {
  if (!b || !f || !f->built) return CAIRN_ERR_ARG;
  /* the layer's repair re-integrates against the grid: not over cells
   * the field was never told of */
  if (flow_stale(f)) return CAIRN_ERR_STATE;
  if (!f->penalty || cairn_penalty_version(f->penalty) == f->layer_version) {
    f->repaired = 0; /* nothing to do: O(1), for a call every tick */
    f->repair_ms = 0;
    return CAIRN_OK;
  }
  return repair(b, f, NULL, 0);
}

uint64_t cairn_field_layer_version(const cairn_field *f) {
  return f && f->penalty ? f->layer_version : 0;
}
