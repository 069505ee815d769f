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

enum { IN_I = 1, LOWERED = 2 };

static int point_cmp(const void *pa, const void *pb) {
  const cairn_point *a = pa, *b = pb;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return 0;
}

static bool is_goal(const cairn_field *f, int32_t x, int32_t y) {
  cairn_point p = {x, y};
  return bsearch(&p, f->goals, f->n_goals, sizeof p, point_cmp) != NULL;
}

static inline bool inner(const cairn_field *f, size_t i) {
  size_t x = i % (size_t)f->stride, y = i / (size_t)f->stride;
  return x >= 1 && y >= 1 && x <= (size_t)f->w && y <= (size_t)f->h;
}

static inline size_t step_to(const cairn_field *f, size_t i, int d) {
  return (size_t)((ptrdiff_t)i + cairn__flow_dx[d] +
                  (ptrdiff_t)cairn__flow_dy[d] * f->stride);
}

static size_t add(cairn_flow_builder *b, size_t n, size_t i, uint8_t why) {
  b->mark[i] = why;
  b->list[n] = (uint32_t)i;
  return n + 1;
}

/* Step 1: the seeds, then the closure over "depended on". */
static size_t collect(cairn_field *f, cairn_flow_builder *b, const uint8_t *g,
                      const cairn_point *changed, size_t n) {
  size_t len = 0;
  for (size_t k = 0; k < n; k++) {
    size_t c = (size_t)(changed[k].y + 1) * (size_t)f->stride + (size_t)(changed[k].x + 1);
    if (!b->mark[c]) len = add(b, len, c, IN_I);
    for (int d = 0; d < 8; d++) {
      size_t nb = step_to(f, c, d);
      if (inner(f, nb) && !b->mark[nb]) len = add(b, len, nb, IN_I);
    }
  }
  const int dirs = f->moves == 8 ? 8 : 4;
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    const cairn_cost vc = f->cost[c];
    if (!g[c] || vc == CAIRN_COST_INF) continue;
    for (int d = 0; d < dirs; d++) {
      size_t nb = step_to(f, c, d);
      if (b->mark[nb] || !g[nb] || f->cost[nb] == CAIRN_COST_INF) continue;
      /* the step from nb into c costs c's terrain */
      if (f->cost[nb] == vc + cairn__flow_base[d] * g[c]) len = add(b, len, nb, IN_I);
    }
  }
  return len;
}

/* Step 2: reset I and queue what borders it. */
static void reset_and_seed(cairn_field *f, cairn_flow_builder *b,
                           const uint8_t *g, size_t len) {
  const size_t s = (size_t)f->stride;
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    int32_t x = (int32_t)(c % s) - 1, y = (int32_t)(c / s) - 1;
    f->cost[c] = !g[c] ? 0 : is_goal(f, x, y) ? 0 : CAIRN_COST_INF;
  }
  b->heap_len = 0;
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    if (g[c] && f->cost[c] == 0) cairn__flow_heap_lower(b, f->cost, (uint32_t)c);
    for (int d = 0; d < 8; d++) {
      size_t nb = step_to(f, c, d);
      if (b->mark[nb] || !g[nb] || f->cost[nb] == CAIRN_COST_INF) continue;
      if (!b->qb[nb]) cairn__flow_heap_push(b, f->cost, (uint32_t)nb);
    }
  }
}

static size_t propagate(cairn_field *f, cairn_flow_builder *b,
                        const uint8_t *g, size_t len) {
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = cairn__flow_dx[d] + cairn__flow_dy[d] * f->stride;
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
      if (!b->mark[nb]) len = add(b, len, nb, LOWERED);
    }
  }
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
                   size_t len, bool los) {
  const size_t s = (size_t)f->stride;
  for (size_t k = 0; k < len; k++) {
    size_t c = b->list[k];
    for (int d = -1; d < 8; d++) {
      size_t i = d < 0 ? c : step_to(f, c, d);
      if (!inner(f, i)) continue;
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
  cairn_status st = cairn__flow_builder_grow(b, f->n);
  if (st != CAIRN_OK) return st;
  double t0 = cairn__flow_now_ms();
  int32_t stride;
  const uint8_t *g = cairn_grid_cells(f->grid, &stride);
  size_t len = collect(f, b, g, changed, n);
  reset_and_seed(f, b, g, len);
  len = propagate(f, b, g, len);
  finish(f, b, g, len, touches_los(f, changed, n));
  f->repaired = len;
  f->repair_ms = cairn__flow_now_ms() - t0;
  return CAIRN_OK;
}
