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
 * path length. For a unit of size k the moves are those of its eroded grid
 * (cairn__sized_moves) and the costs those of its block, so a shortcut is
 * one the unit could walk. */
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

/* The grid's move-set bit of the step (mx, my) (cairn_grid_moves). */
static unsigned step_bit(int32_t mx, int32_t my) {
  static const uint8_t bit[9] = {7, 3, 6, 1, 0, 0, 5, 2, 4};
  return 1u << bit[(my + 1) * 3 + (mx + 1)];
}

/* How far the straight lines out of one anchor are known to be clear, per
 * step direction (as move-set bit numbers), grown on demand. Most runs
 * tried from an anchor fail, and a run that starts with all its diagonals
 * (or all its straight steps) fails at once when that first leg's line is
 * blocked: one test per anchor and direction instead of a walk per run. */
typedef struct rays {
  uint32_t origin;
  int32_t off[8];
  uint32_t clear[8];
  bool blocked[8];
} rays;

static void rays_init(const cairn_hpa *h, rays *r, cairn_point a) {
  r->origin = hpa_index(h, a.x, a.y);
  for (int d = 0; d < 8; d++) {
    r->off[d] = cairn__dx[d] + cairn__dy[d] * h->stride;
    r->clear[d] = 0;
    r->blocked[d] = false;
  }
}

/* The legal moves out of padded cell c for a unit of the given size. */
CAIRN_INLINE unsigned moves_at(const cairn_hpa *h, uint32_t c, unsigned size) {
  return size > 1 ? cairn__sized_moves(h->grid, c, size, 8) : h->moves[c];
}

/* Whether the first len steps from the anchor along step (mx, my) are all
 * legal moves. */
CAIRN_INLINE bool ray_clear(const cairn_hpa *h, rays *r, int32_t mx, int32_t my,
                      uint32_t len, unsigned size) {
  const unsigned bit = step_bit(mx, my);
  const int d = cairn__ctz(bit);
  if (len <= r->clear[d]) return true;
  if (r->blocked[d]) return false;
  uint32_t c = (uint32_t)((int32_t)r->origin + (int32_t)r->clear[d] * r->off[d]);
  for (; r->clear[d] < len; r->clear[d]++, c = (uint32_t)((int32_t)c + r->off[d]))
    if (!(moves_at(h, c, size) & bit)) {
      r->blocked[d] = true;
      return false;
    }
  return true;
}

/* Walks the run of the given shape from a to b and returns its cost, or
 * CAIRN_COST_INF as soon as a step is illegal (a blocked cell or a cut
 * corner) or the cost reaches `limit`. With out != NULL it also writes the
 * cells after a. With r != NULL (rays from a) a run whose first leg's line
 * is blocked fails without a walk. */
CAIRN_INLINE cairn_cost run(const cairn_hpa *h, rays *r, cairn_point a,
                      cairn_point b, int shape, cairn_cost limit,
                      cairn_point *out, unsigned size) {
  int32_t dx = b.x - a.x, dy = b.y - a.y;
  int sx = sgn(dx), sy = sgn(dy);
  int32_t ax = abs(dx), ay = abs(dy);
  int32_t nd = ax < ay ? ax : ay, n = ax < ay ? ay : ax;
  int32_t ox = ax > ay ? sx : 0, oy = ax > ay ? 0 : sy; /* straight step */
  if (r && shape == HPA_RUN_DIAG_FIRST && !ray_clear(h, r, sx, sy, (uint32_t)nd, size))
    return CAIRN_COST_INF;
  if (r && shape == HPA_RUN_STRAIGHT_FIRST &&
      !ray_clear(h, r, ox, oy, (uint32_t)(n - nd), size))
    return CAIRN_COST_INF;
  const unsigned diag_bit = step_bit(sx, sy), straight_bit = step_bit(ox, oy);
  const int32_t diag_off = sx + sy * h->stride, straight_off = ox + oy * h->stride;
  uint32_t c = hpa_index(h, a.x, a.y);
  cairn_point p = a;
  cairn_cost total = 0;
  int32_t acc = n / 2; /* the line's error term: nd diagonals among n */
  for (int32_t k = 0; k < n; k++) {
    const bool diag = hpa_run_diag(shape, k, n, nd, &acc);
    if (!(moves_at(h, c, size) & (diag ? diag_bit : straight_bit))) return CAIRN_COST_INF;
    c = (uint32_t)((int32_t)c + (diag ? diag_off : straight_off));
    total += hpa_sized_enter_cost(h, c, diag, size); /* the layer's penalty included */
    if (total >= limit) return CAIRN_COST_INF;
    p.x += diag ? sx : ox;
    p.y += diag ? sy : oy;
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

/* The smoother for one unit size; inlined into a copy for size 1 and one
 * for the larger sizes, so size 1 keeps its own loops. */
CAIRN_INLINE size_t smooth(const cairn_hpa *h, const cairn_point *in, size_t n,
                           cairn_point *out, cairn_cost *prefix, uint32_t *turns,
                           unsigned size) {
  if (n == 0) return 0;
  prefix[0] = 0;
  size_t n_turns = 0;
  for (size_t k = 1; k < n; k++) {
    prefix[k] = prefix[k - 1] + hpa_sized_step_cost(h, in[k - 1], in[k], size);
    if (is_turn(in, n, k)) turns[n_turns++] = (uint32_t)k;
  }
  const int32_t reach = SMOOTH_REACH * h->cs;
  size_t m = 0, a = 0, t0 = 0; /* turns[t0] is the first turn after a */
  out[m++] = in[0];
  while (a + 1 < n) {
    while (turns[t0] <= a) t0++;
    size_t best = 0;
    int best_shape = HPA_RUN_DIAG_FIRST;
    cairn_cost best_saving = 0;
    rays r;
    rays_init(h, &r, in[a]);
    for (size_t t = t0; t < n_turns && t < t0 + SMOOTH_CANDIDATES; t++) {
      size_t k = turns[t];
      if (octile_reach(in[a], in[k]) > reach) break;
      if (k < a + 2) continue;
      cairn_cost limit = prefix[k] - prefix[a];
      /* a run costs at least the octile distance at terrain 1: a stretch
       * that already costs no more cannot be shortened */
      cairn_cost floor = octile_cost(in[a], in[k]);
      if (limit <= floor) continue;
      /* a straight or purely diagonal run has one shape */
      int32_t ax = abs(in[k].x - in[a].x), ay = abs(in[k].y - in[a].y);
      int shapes = ax == 0 || ay == 0 || ax == ay ? 1 : HPA_RUN_SHAPES;
      for (int shape = 0; shape < shapes; shape++) {
        /* no run beats the octile cost: a candidate that cannot save more
         * than the best so far is not walked (ties keep the first) */
        if (limit - floor <= best_saving) break;
        cairn_cost c = run(h, &r, in[a], in[k], shape, limit, NULL, size);
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
    run(h, NULL, in[a], in[best], best_shape, CAIRN_COST_INF, out + m, size);
    int32_t dx = abs(in[best].x - in[a].x), dy = abs(in[best].y - in[a].y);
    m += (size_t)(dx > dy ? dx : dy);
    a = best;
  }
  return m;
}

size_t cairn__hpa_smooth(const cairn_hpa *h, const cairn_point *in, size_t n,
                         cairn_point *out, cairn_cost *prefix,
                         uint32_t *turns, unsigned size) {
  if (size > 1) return smooth(h, in, n, out, prefix, turns, size);
  return smooth(h, in, n, out, prefix, turns, 1);
}
