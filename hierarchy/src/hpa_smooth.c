/* Smoothing of refined paths, keeping 8-way moves.
 *
 * A refined path bends at every entrance it passes through. From each bend
 * (a "turn point", where the step direction changes) the smoother looks at
 * the next few turn points within a window and replaces the stretch up to
 * the one that saves most with a straight-as-possible 8-way run: all
 * diagonals then all straight steps, the other way round, or the diagonals
 * spread evenly (the 8-way line). A run is taken
 * only if every cell is open, no corner is cut, and its cost (terrain
 * included) is below that of the stretch it replaces, so smoothing never
 * raises the cost and never drags a path through a swamp it went around.
 * The work per bend is bounded by the window, so smoothing is linear in the
 * path length. */
#include "hpa_internal.h"

#include <stdlib.h>

/* Turn points looked at from each anchor, and how far (in octile cells,
 * as a multiple of the cluster side) a shortcut may reach. */
#define SMOOTH_CANDIDATES 12
#define SMOOTH_REACH 16

static int sgn(int32_t v) { return (v > 0) - (v < 0); }

static bool is_turn(const cairn_point *p, size_t n, size_t k) {
  if (k + 1 >= n) return true;
  return p[k].x - p[k - 1].x != p[k + 1].x - p[k].x ||
         p[k].y - p[k - 1].y != p[k + 1].y - p[k].y;
}

/* The shapes of a run from a to b, each with max(|dx|, |dy|) steps of
 * which min(|dx|, |dy|) are diagonal (so each costs the octile distance on
 * uniform terrain): all diagonals first, all straight steps first, or the
 * diagonals spread evenly along the way (the 8-way line closest to the
 * straight segment, which slips between scattered obstacles where the
 * other two hit them). */
enum { SHAPE_DIAG_FIRST, SHAPE_STRAIGHT_FIRST, SHAPE_LINE, SHAPES };

/* Walks the run of the given shape from a to b and returns its cost, or
 * CAIRN_COST_INF as soon as a cell is blocked, a corner is cut or the cost
 * reaches `limit`. With out != NULL it also writes the cells after a. */
static cairn_cost run(const cairn_hpa *h, cairn_point a, cairn_point b,
                      int shape, cairn_cost limit, cairn_point *out) {
  const uint8_t *cost = h->cost;
  int32_t dx = b.x - a.x, dy = b.y - a.y;
  int sx = sgn(dx), sy = sgn(dy);
  int32_t ax = abs(dx), ay = abs(dy);
  int32_t nd = ax < ay ? ax : ay, n = ax < ay ? ay : ax;
  int32_t ox = ax > ay ? sx : 0, oy = ax > ay ? 0 : sy; /* straight step */
  const int32_t stride = h->stride;
  uint32_t c = hpa_index(h, a.x, a.y);
  cairn_point p = a;
  cairn_cost total = 0;
  int32_t acc = n / 2; /* the line's error term: nd diagonals among n */
  for (int32_t k = 0; k < n; k++) {
    bool diag;
    if (shape == SHAPE_DIAG_FIRST) {
      diag = k < nd;
    } else if (shape == SHAPE_STRAIGHT_FIRST) {
      diag = k >= n - nd;
    } else {
      acc += nd;
      diag = acc >= n;
      if (diag) acc -= n;
    }
    int32_t mx = diag ? sx : ox, my = diag ? sy : oy;
    uint32_t next = (uint32_t)((int32_t)c + mx + my * stride);
    if (!cost[next]) return CAIRN_COST_INF;
    if (diag && (!cost[c + (uint32_t)(int32_t)mx] ||
                 !cost[(uint32_t)((int32_t)c + my * stride)]))
      return CAIRN_COST_INF;
    total += (diag ? CAIRN_COST_DIAG : CAIRN_COST_ONE) * cost[next];
    if (total >= limit) return CAIRN_COST_INF;
    c = next;
    p.x += mx;
    p.y += my;
    if (out) *out++ = p;
  }
  return total;
}

static cairn_cost octile_cost(cairn_point a, cairn_point b) {
  cairn_cost dx = (cairn_cost)abs(a.x - b.x), dy = (cairn_cost)abs(a.y - b.y);
  cairn_cost lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return (hi - lo) * CAIRN_COST_ONE + lo * CAIRN_COST_DIAG;
}

static int32_t octile_reach(cairn_point a, cairn_point b) {
  int32_t dx = abs(a.x - b.x), dy = abs(a.y - b.y);
  return dx > dy ? dx : dy;
}

size_t cairn__hpa_smooth(const cairn_hpa *h, const cairn_point *in, size_t n,
                         cairn_point *out, cairn_cost *prefix,
                         uint32_t *turns) {
  if (n == 0) return 0;
  prefix[0] = 0;
  size_t n_turns = 0;
  for (size_t k = 1; k < n; k++) {
    prefix[k] = prefix[k - 1] + hpa_step_cost(h, in[k - 1], in[k]);
    if (is_turn(in, n, k)) turns[n_turns++] = (uint32_t)k;
  }
  const int32_t reach = SMOOTH_REACH * h->cs;
  size_t m = 0, a = 0, t0 = 0; /* turns[t0] is the first turn after a */
  out[m++] = in[0];
  while (a + 1 < n) {
    while (turns[t0] <= a) t0++;
    size_t best = 0;
    int best_shape = SHAPE_DIAG_FIRST;
    cairn_cost best_saving = 0;
    for (size_t t = t0; t < n_turns && t < t0 + SMOOTH_CANDIDATES; t++) {
      size_t k = turns[t];
      if (octile_reach(in[a], in[k]) > reach) break;
      if (k < a + 2) continue;
      cairn_cost limit = prefix[k] - prefix[a];
      /* a run costs at least the octile distance at terrain 1: a stretch
       * that already costs no more cannot be shortened */
      if (limit <= octile_cost(in[a], in[k])) continue;
      for (int shape = 0; shape < SHAPES; shape++) {
        cairn_cost c = run(h, in[a], in[k], shape, limit, NULL);
        if (c != CAIRN_COST_INF && limit - c > best_saving) {
          best = k;
          best_shape = shape;
          best_saving = limit - c;
        }
      }
    }
    if (!best) { /* no shortcut: keep the path up to the next bend */
      for (size_t k = a + 1; k <= turns[t0]; k++) out[m++] = in[k];
      a = turns[t0];
      continue;
    }
    run(h, in[a], in[best], best_shape, CAIRN_COST_INF, out + m);
    int32_t dx = abs(in[best].x - in[a].x), dy = abs(in[best].y - in[a].y);
    m += (size_t)(dx > dy ? dx : dy);
    a = best;
  }
  return m;
}
