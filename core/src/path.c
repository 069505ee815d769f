/* Line of sight, string pulling and the independent path check. */
#include "core_internal.h"
#include "search_internal.h"

#include <math.h>
#include <stdlib.h>

/* ---- line of sight -------------------------------------------------- */

/* Whether a unit of size k may stand at padded index i with every covered
 * cell's terrain at most limit. Size 1 reads the cell alone. */
CAIRN_INLINE bool pos_ok(const cairn_grid *g, ptrdiff_t i, uint8_t limit, unsigned k) {
  if (k == 1) return g->cost[i] != 0 && g->cost[i] <= limit;
  return g->clear[i] >= k && cairn__block_cost(g, (uint32_t)i, k) <= limit;
}

/* True when the segment between the centres of a and b (both inside the
 * grid) crosses only positions where a unit of size k fits over terrain of
 * cost 1..limit, and at every cell corner it passes exactly through, the
 * unit fits at both positions beside the corner (any cost: the segment does
 * not enter them). For k > 1 this is the size-1 rule on the grid eroded to
 * the cells of clearance k or more, the rule every sized move follows.
 *
 * Exact integer traversal. In doubled coordinates the centres are odd and the
 * grid lines even, so the segment meets its ix-th vertical line (counting
 * from a) at t = (2*ix+1) / (2*nx) and its iy-th horizontal line at
 * t = (2*iy+1) / (2*ny). The error term e = (2*ix+1)*ny - (2*iy+1)*nx
 * compares the two without dividing: e < 0 crosses a vertical line first,
 * e > 0 a horizontal one, e == 0 both at once, through a lattice point. Once
 * one axis is used up, e keeps the sign that steps along the other, so the
 * walk ends on b after nx + ny steps (minus one per corner).
 * Inlined so that the size-1 callers get a loop of their own. */
CAIRN_INLINE bool segment_clear(const cairn_grid *g, cairn_point a, cairn_point b,
                                uint8_t limit, unsigned k) {
  const int32_t nx = abs(b.x - a.x), ny = abs(b.y - a.y);
  const ptrdiff_t step_x = b.x >= a.x ? 1 : -1;
  const ptrdiff_t step_y = (b.y >= a.y ? 1 : -1) * (ptrdiff_t)g->stride;
  ptrdiff_t c = (ptrdiff_t)cairn__grid_index(g, a.x, a.y);
  int64_t e = (int64_t)ny - nx;
  if (!pos_ok(g, c, limit, k)) return false;
  for (int32_t ix = 0, iy = 0; ix < nx || iy < ny;) {
    if (e == 0) { /* no corner cutting */
      if (!pos_ok(g, c + step_x, UINT8_MAX, k) || !pos_ok(g, c + step_y, UINT8_MAX, k))
        return false;
      c += step_x + step_y;
      ix++, iy++;
      e += 2 * (int64_t)ny - 2 * (int64_t)nx;
    } else if (e < 0) {
      c += step_x;
      ix++;
      e += 2 * (int64_t)ny;
    } else {
      c += step_y;
      iy++;
      e -= 2 * (int64_t)nx;
    }
    if (!pos_ok(g, c, limit, k)) return false;
  }
  return true;
}

static bool inside(const cairn_grid *g, cairn_point p) {
  return cairn_grid_contains(g, p.x, p.y) != 0;
}

static bool size_ok(int32_t size) {
  return size >= 1 && size <= CAIRN_GRID_MAX_CLEARANCE;
}

int cairn_grid_line_of_sight(const cairn_grid *grid, cairn_point a,
                             cairn_point b) {
  return cairn_grid_line_of_sight_sized(grid, a, b, 1);
}

int cairn_grid_line_of_sight_sized(const cairn_grid *grid, cairn_point a, cairn_point b,
                                   int32_t size) {
  if (!grid || !size_ok(size) || !inside(grid, a) || !inside(grid, b)) return 0;
  if (size == 1) return segment_clear(grid, a, b, UINT8_MAX, 1);
  return segment_clear(grid, a, b, UINT8_MAX, (unsigned)size);
}

/* ---- string pulling ------------------------------------------------- */

/* The terrain a unit of size k pays at p: the dearest cell it covers, or
 * the cell's own where it does not fit (no segment passes there anyway). */
CAIRN_INLINE uint8_t cost_at(const cairn_grid *g, cairn_point p, unsigned k) {
  const uint32_t i = cairn__grid_index(g, p.x, p.y);
  if (k == 1 || g->clear[i] < k) return g->cost[i];
  return cairn__block_cost(g, i, k);
}

/* Index of the waypoint after path[i] (i + 1 < n). Greedy: it extends the
 * shortcut one point at a time and stops at the first point out of sight (or
 * behind terrain dearer than the stretch it would replace), rather than
 * looking for the furthest visible point beyond a failure. That keeps the
 * work at one segment walk per input point. The next point is always taken,
 * so an input that is not a chain of neighbours still makes progress. */
CAIRN_INLINE size_t next_waypoint(const cairn_grid *g, const cairn_point *path,
                                  size_t n, size_t i, unsigned k) {
  const cairn_point from = path[i];
  uint8_t dearest = cost_at(g, from, k);
  size_t j = i + 1;
  if (cost_at(g, path[j], k) > dearest) dearest = cost_at(g, path[j], k);
  while (j + 1 < n) {
    const cairn_point to = path[j + 1];
    uint8_t c = cost_at(g, to, k);
    if (c > dearest) dearest = c; /* the stretch now ends at j + 1 */
    if (!segment_clear(g, from, to, dearest, k)) break;
    j++;
  }
  return j;
}

/* Runs the pull, writing to out unless it is NULL (counting only); returns
 * the number of waypoints. out may be path itself: waypoint w is written only
 * once the scan has read every input index up to the one it copies, and
 * w never exceeds that index, so no unread point is overwritten. */
static size_t pull(const cairn_grid *g, const cairn_point *path, size_t n,
                   cairn_point *out, unsigned k) {
  size_t w = 1, i = 0;
  if (out) out[0] = path[0];
  while (i + 1 < n) {
    size_t j = k == 1 ? next_waypoint(g, path, n, i, 1) : next_waypoint(g, path, n, i, k);
    if (out) out[w] = path[j];
    w++;
    i = j;
  }
  return w;
}

static double polyline_length(const cairn_point *p, size_t n) {
  double sum = 0.0;
  for (size_t k = 1; k < n; k++) {
    double dx = (double)p[k].x - (double)p[k - 1].x;
    double dy = (double)p[k].y - (double)p[k - 1].y;
    sum += sqrt(dx * dx + dy * dy);
  }
  return sum;
}

cairn_status cairn_smooth_path(const cairn_grid *grid, const cairn_point *path,
                               size_t n, cairn_point *out, size_t cap,
                               size_t *out_n, double *length) {
  return cairn_smooth_path_sized(grid, 1, path, n, out, cap, out_n, length);
}

cairn_status cairn_smooth_path_sized(const cairn_grid *grid, int32_t size,
                                     const cairn_point *path, size_t n, cairn_point *out,
                                     size_t cap, size_t *out_n, double *length) {
  if (!grid || !path || !out || !out_n || !length || n == 0)
    return CAIRN_ERR_ARG;
  *out_n = 0;
  *length = 0.0;
  if (!size_ok(size)) return CAIRN_ERR_ARG;
  for (size_t p = 0; p < n; p++)
    if (!inside(grid, path[p])) return CAIRN_ERR_RANGE;
  const unsigned k = (unsigned)size;
  /* The result never has more than n points. Below that, count first so a
   * refusal leaves out (and an aliased path) untouched. */
  if (cap < n && pull(grid, path, n, NULL, k) > cap) return CAIRN_ERR_ARG;
  *out_n = pull(grid, path, n, out, k);
  *length = polyline_length(out, *out_n);
  return CAIRN_OK;
}

/* ---- independent path check ----------------------------------------- */

/* Deliberately naive: only the public accessors, one rule at a time, so it
 * can judge the searches without sharing their assumptions. */

static const double check_sqrt2 = 1.41421356237309504880;

static bool same_point(cairn_point a, cairn_point b) {
  return a.x == b.x && a.y == b.y;
}

static const char *point_problem(const cairn_grid *g, cairn_point p) {
  if (!cairn_grid_contains(g, p.x, p.y)) return "off the map";
  if (cairn_grid_cost(g, p.x, p.y) == 0) return "blocked cell";
  return NULL;
}

/* The step p -> q, both passable cells inside the grid. */
static const char *step_problem(const cairn_grid *g, cairn_point p,
                                cairn_point q, int moves) {
  int32_t dx = q.x - p.x, dy = q.y - p.y;
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1) return "not a neighbour";
  if (dx == 0 && dy == 0) return "not a neighbour";
  if (dx != 0 && dy != 0) {
    if (moves == 4) return "not a neighbour";
    if (cairn_grid_cost(g, p.x + dx, p.y) == 0 ||
        cairn_grid_cost(g, p.x, p.y + dy) == 0)
      return "cuts a corner";
  }
  return NULL;
}

static double step_cost(const cairn_grid *g, cairn_point p, cairn_point q) {
  double base = (p.x != q.x && p.y != q.y) ? check_sqrt2 : 1.0;
  return base * (double)cairn_grid_cost(g, q.x, q.y);
}

/* The first broken rule, in order of the point it concerns, so *bad is the
 * first offending point: the start, then per point off the map, blocked, and
 * the step into it, and last the goal. NULL if the path is valid. */
static const char *path_problem(const cairn_grid *g, const cairn_point *path,
                                size_t n, cairn_point start, cairn_point goal,
                                int moves, size_t *bad) {
  *bad = 0;
  if (moves != 4 && moves != 8) return "bad moves";
  if (!path || n == 0) return "empty path";
  if (!same_point(path[0], start)) return "does not start at the start";
  for (size_t k = 0; k < n; k++) {
    const char *problem = point_problem(g, path[k]);
    if (!problem && k > 0)
      problem = step_problem(g, path[k - 1], path[k], moves);
    *bad = k;
    if (problem) return problem;
  }
  *bad = n - 1;
  if (!same_point(path[n - 1], goal)) return "does not end at the goal";
  *bad = 0;
  return NULL;
}

void cairn_grid_check_path(const cairn_grid *grid, const cairn_point *path,
                           size_t n, cairn_point start, cairn_point goal,
                           int moves, cairn_path_check *report) {
  if (!report) return;
  size_t bad = 0;
  const char *problem =
      path_problem(grid, path, n, start, goal, moves, &bad);
  report->valid = problem == NULL;
  report->cost = 0.0;
  report->bad_index = bad;
  report->problem = problem;
  if (problem) return;
  for (size_t k = 1; k < n; k++)
    report->cost += step_cost(grid, path[k - 1], path[k]);
}
