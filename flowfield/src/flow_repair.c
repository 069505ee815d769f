/* Incremental repair of a field after a few cells of its grid changed.
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
 */
#include "flow_internal.h"

#include <stdlib.h>
#include <string.h>

enum { IN_I = 1, LOWERED = 2, SETTLED = 4, SEEDED = 8 };

/* The index offsets of the eight moves. */
static void offsets(const cairn_field *f, ptrdiff_t off[8]) {
  for (int d = 0; d < 8; d++)
    off[d] = cairn__flow_dx[d] + (ptrdiff_t)cairn__flow_dy[d] * f->stride;
}

#define STEP(i, d) ((size_t)((ptrdiff_t)(i) + off[d]))

static size_t add(cairn_flow_builder *b, size_t n, size_t i, uint8_t why) {
  b->mark[i] = why;
  b->list[n] = (uint32_t)i;
  return n + 1;
}

/* Step 1: the seeds, then the closure over "depended on". */
static size_t collect(cairn_field *f, cairn_flow_builder *b, const uint8_t *g,
                      const cairn_point *changed, size_t n) {
  ptrdiff_t off[8];
  offsets(f, off);
  size_t len = 0;
  for (size_t k = 0; k < n; k++) {
    size_t c = (size_t)(changed[k].y + 1) * (size_t)f->stride + (size_t)(changed[k].x + 1);
    if (!b->mark[c]) len = add(b, len, c, IN_I);
    for (int d = 0; d < 8; d++) {
      size_t nb = STEP(c, d);
      int32_t nx = changed[k].x + cairn__flow_dx[d], ny = changed[k].y + cairn__flow_dy[d];
      bool inner = nx >= 0 && ny >= 0 && nx < f->w && ny < f->h;
      if (inner && !b->mark[nb]) len = add(b, len, nb, IN_I);
    }
  }
  const int dirs = f->moves == 8 ? 8 : 4;
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    const cairn_cost vc = f->cost[c];
    if (!g[c] || vc == CAIRN_COST_INF) continue;
    for (int d = 0; d < dirs; d++) {
      size_t nb = STEP(c, d);
      if (b->mark[nb] || !g[nb] || f->cost[nb] == CAIRN_COST_INF) continue;
      /* the step from nb into c costs c's terrain */
      if (f->cost[nb] == vc + cairn__flow_base[d] * g[c]) len = add(b, len, nb, IN_I);
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

/* General terrain: the indexed heap, seeded with every start. */
static size_t propagate_heap(cairn_field *f, cairn_flow_builder *b,
                             const uint8_t *g, size_t len, size_t n_seeds) {
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = cairn__flow_dx[d] + cairn__flow_dy[d] * f->stride;
  b->heap_len = 0;
  for (size_t k = 0; k < n_seeds; k++) cairn__flow_heap_push(b, f->cost, b->seeds[k]);
  while (b->heap_len) {
    const uint32_t c = cairn__flow_heap_pop(b, f->cost);
    const cairn_cost gc = f->cost[c];
    unsigned open = cairn__flow_moves(g, c, f->stride, f->moves);
    while (open) {
      const int d = __builtin_ctz(open);
      open &= open - 1;
      const uint32_t nb = (uint32_t)((int32_t)c + off[d]);
      const cairn_cost ng = gc + cairn__flow_base[d] * g[c];
      if (ng >= f->cost[nb]) continue;
      f->cost[nb] = ng;
      cairn__flow_heap_lower(b, f->cost, nb);
      len = lowered(b, len, nb);
    }
  }
  return len;
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
  for (int d = 0; d < 8; d++) off[d] = cairn__flow_dx[d] + cairn__flow_dy[d] * f->stride;
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
      const int d = __builtin_ctz(open);
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
   * beside it */
  const int32_t r = f->los_radius + 1;
  for (size_t k = 0; k < n; k++)
    for (size_t j = 0; j < f->n_goals; j++) {
      int32_t dx = abs(changed[k].x - f->goals[j].x);
      int32_t dy = abs(changed[k].y - f->goals[j].y);
      if (dx <= r && dy <= r) return true;
    }
  return false;
}

/* Step 3: directions around every changed value, line of sight if needed,
 * marks cleared, the reached box grown. */
static void finish(cairn_field *f, cairn_flow_builder *b, const uint8_t *g,
                   size_t len, size_t n_seeds, bool los) {
  ptrdiff_t off[8];
  offsets(f, off);
  const size_t s = (size_t)f->stride;
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    /* the cell, and its neighbours outside the list (those inside get
     * their own turn) */
    for (int d = -1; d < 8; d++) {
      size_t i = d < 0 ? c : STEP(c, d);
      if (d >= 0 && (b->mark[i] & (IN_I | LOWERED))) continue;
      uint8_t keep = los ? 0 : (uint8_t)(f->dir[i] & FLOW_LOS_BIT);
      f->dir[i] = (uint8_t)(cairn__flow_dir_of(f, g, i) | keep);
    }
    if (f->cost[c] != CAIRN_COST_INF && g[c]) {
      int32_t x = (int32_t)(c % s) - 1, y = (int32_t)(c / s) - 1;
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

/* Under a cost layer, which the dependency tracing of a repair does not
 * follow, a repair is a build with the same goals and options. */
static cairn_status rebuild(cairn_flow_builder *b, cairn_field *f) {
  cairn_flow_opts o = cairn_flow_defaults();
  o.moves = f->moves;
  o.threads = 1;
  o.los_radius = f->los_radius;
  o.queue = f->queue;
  o.penalty = f->penalty;
  size_t n = f->n_goals;
  cairn_point *goals = cairn__flow_alloc(&f->alloc, n * sizeof *goals);
  if (!goals) return CAIRN_ERR_NOMEM;
  memcpy(goals, f->goals, n * sizeof *goals);
  double t0 = cairn__flow_now_ms();
  cairn_status st = cairn_field_build(b, f, f->grid, goals, n, &o);
  cairn__flow_free(&f->alloc, goals, n * sizeof *goals);
  f->repaired = f->n;
  f->repair_ms = cairn__flow_now_ms() - t0;
  return st;
}

cairn_status cairn_field_repair(cairn_flow_builder *b, cairn_field *f,
                                const cairn_point *changed, size_t n) {
  if (!b || !f || (n && !changed) || !f->built) return CAIRN_ERR_ARG;
  for (size_t k = 0; k < n; k++)
    if (changed[k].x < 0 || changed[k].y < 0 || changed[k].x >= f->w ||
        changed[k].y >= f->h)
      return CAIRN_ERR_RANGE;
  for (size_t k = 0; k < f->n_goals; k++)
    if (!cairn_grid_cost(f->grid, f->goals[k].x, f->goals[k].y))
      return CAIRN_ERR_BLOCKED;
  if (f->penalty) return rebuild(b, f);
  cairn_status st = cairn__flow_builder_grow(b, f->n);
  if (st != CAIRN_OK) return st;
  double t0 = cairn__flow_now_ms();
  int32_t stride;
  const uint8_t *g = cairn_grid_cells(f->grid, &stride);
  for (size_t k = 0; k < n; k++) {
    uint8_t t = g[(size_t)(changed[k].y + 1) * (size_t)f->stride + (size_t)(changed[k].x + 1)];
    if (t && t != f->uniform) f->uniform = 0;
  }
  size_t len = collect(f, b, g, changed, n);
  size_t n_seeds = reset_and_seed(f, b, g, len);
  if (f->uniform) len = propagate_fifo(f, b, g, len, n_seeds, f->uniform);
  else len = propagate_heap(f, b, g, len, n_seeds);
  finish(f, b, g, len, n_seeds, touches_los(f, changed, n));
  f->repaired = len;
  f->repair_ms = cairn__flow_now_ms() - t0;
  return CAIRN_OK;
}
