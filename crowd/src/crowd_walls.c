/* Discs against walls. An agent's disc of radius r is kept out of blocked
 * cells by its bounding square [x - r, x + r] x [y - r, y + r]: each axis
 * of a move goes as far as the square can before it would enter a blocked
 * cell (or leave the grid), and stops touching it. The square holds the
 * disc, so the disc never overlaps a wall either; a square that only
 * touches a cell (an edge on the cell's border) does not overlap it, so a
 * unit of k cells fits a corridor k cells wide exactly. */
#include "crowd_internal.h"

#include <math.h>

/* The square's edges are worked out in double, where a float position
 * plus a float radius is exact: "touching, not inside" then holds of the
 * real square, so the disc inside it never overlaps a wall by a rounding
 * error either. */
/* floor and ceil of v as integers, for finite v in the int32 range. */
static inline int32_t floor_d(double v) {
  int32_t i = (int32_t)v; /* towards zero */
  return i - (v < (double)i);
}
static inline int32_t ceil_d(double v) { return -floor_d(-v); }

/* Whether a cell in line `line` (a column when across_x, else a row),
 * between cells b0 and b1 of the other axis, is blocked or off the grid;
 * the first and last such cell in *lo, *hi. */
static int band_blocked(const cairn_crowd *c, int across_x, int32_t line, int32_t b0,
                        int32_t b1, int32_t *lo, int32_t *hi) {
  int any = 0;
  for (int32_t b = b0; b <= b1; b++)
    if (across_x ? cairn__crowd_blocked(c, line, b) : cairn__crowd_blocked(c, b, line)) {
      if (!any) *lo = b;
      *hi = b;
      any = 1;
    }
  return any;
}

/* A square of half side r centred at b on the other axis, stopped by the
 * blocked cells lo .. hi of a line: the move along that other axis that
 * would clear them, where they all lie to one side of the centre and it
 * is at most r (the square rounds a corner as a disc would); else 0. */
static float around(float b, float r, int32_t lo, int32_t hi) {
  double nudge = 0.0;
  if ((double)(hi + 1) <= b) nudge = (double)(hi + 1) - ((double)b - r); /* all before: on */
  else if ((double)lo >= b) nudge = (double)lo - ((double)b + r);     /* all after: back */
  if (nudge == 0.0 || fabs(nudge) > r) return 0.0f;
  /* a few units in the last place more, so that b + nudge clears the
   * cells after rounding, however small the overlap */
  const float ulp = nextafterf(fabsf(b) + r, INFINITY) - (fabsf(b) + r);
  return (float)nudge + copysignf(4.0f * ulp, (float)nudge);
}

/* The coordinate a square of half side r centred at `a` on the moving axis
 * and `b` on the other reaches moving by m (|m| under a cell): a + m, or
 * the point where it first touches a blocked line of cells, with *nudge
 * the move along the other axis that would take it round that line's
 * cells (around). The lines it newly enters are checked nearest first. */
static float slide(const cairn_crowd *c, int along_x, float a, float b, float r, float m,
                   float *nudge) {
  const float to_free = a + m;
  int32_t lo = 0, hi = 0, b0 = 0, b1 = -1;
  *nudge = 0.0f;
  if (m > 0.0f) {
    const double e1 = (double)to_free + r;
    int32_t line = ceil_d((double)a + r);
    if (line < e1) { /* it enters a line of cells: which does it cover? */
      b0 = floor_d((double)b - r);
      b1 = ceil_d((double)b + r) - 1;
    }
    for (; line < e1; line++) {
      if (!band_blocked(c, along_x, line, b0, b1, &lo, &hi)) continue;
      float to = (float)((double)line - r);
      while ((double)to + r > line) to = nextafterf(to, -INFINITY); /* touching, not inside */
      *nudge = around(b, r, lo, hi);
      return to < a ? a : to;
    }
  } else if (m < 0.0f) {
    const double l1 = (double)to_free - r;
    int32_t line = floor_d((double)a - r) - 1;
    if (line + 1 > l1) {
      b0 = floor_d((double)b - r);
      b1 = ceil_d((double)b + r) - 1;
    }
    for (; line + 1 > l1; line--) {
      if (!band_blocked(c, along_x, line, b0, b1, &lo, &hi)) continue;
      float to = (float)((double)(line + 1) + r);
      while ((double)to - r < line + 1) to = nextafterf(to, INFINITY);
      *nudge = around(b, r, lo, hi);
      return to > a ? a : to;
    }
  }
  return to_free;
}

/* A move by (mx, my) one axis after the other (x first when x_first),
 * for a unit that wants to go (wx, wy): a square stopped on the first
 * axis by a corner steps round it on the second (at least as far as it
 * must); stopped on the second, it steps back round it on the first
 * unless that is against the way it wants to go (a neighbour's push took
 * it into the corner: undoing the move it wanted would only hold it). */
static void move_axes(const cairn_crowd *c, int x_first, float x, float y, float r, float mx,
                      float my, float wx, float wy, float *nx, float *ny, int *stop_x,
                      int *stop_y) {
  float nudge, back;
  if (x_first) {
    *nx = slide(c, 1, x, y, r, mx, &nudge);
    *stop_x = *nx != x + mx;
    if (nudge != 0.0f) my = nudge > 0.0f ? fmaxf(my, nudge) : fminf(my, nudge);
    *ny = slide(c, 0, y, *nx, r, my, &back);
    *stop_y = *ny != y + my;
    if (back * wx >= 0.0f && back != 0.0f) *nx = slide(c, 1, *nx, *ny, r, back, &nudge);
  } else {
    *ny = slide(c, 0, y, x, r, my, &nudge);
    *stop_y = *ny != y + my;
    if (nudge != 0.0f) mx = nudge > 0.0f ? fmaxf(mx, nudge) : fminf(mx, nudge);
    *nx = slide(c, 1, x, *ny, r, mx, &back);
    *stop_x = *nx != x + mx;
    if (back * wy >= 0.0f && back != 0.0f) *ny = slide(c, 0, *ny, *nx, r, back, &nudge);
  }
}

void cairn__crowd_move_near_walls(const cairn_crowd *c, float x, float y, float r, float mx,
                                  float my, float wx, float wy, float *nx, float *ny,
                                  int *stop_x, int *stop_y) {
  move_axes(c, 1, x, y, r, mx, my, wx, wy, nx, ny, stop_x, stop_y);
  if (!*stop_x && !*stop_y) return;
  /* a wall in the way: the other order may get past it (a unit leaving
   * a neighbour's side for a one-cell gap ahead); the one that goes
   * further the way it wants to go wins, x first on a tie */
  float ox, oy;
  int sx, sy;
  move_axes(c, 0, x, y, r, mx, my, wx, wy, &ox, &oy, &sx, &sy);
  if ((ox - x) * wx + (oy - y) * wy > (*nx - x) * wx + (*ny - y) * wy) {
    *nx = ox;
    *ny = oy;
    *stop_x = sx;
    *stop_y = sy;
  }
}

int cairn__crowd_box_blocked(const cairn_crowd *c, float x, float y, float r) {
  const int32_t x0 = floor_d((double)x - r), x1 = ceil_d((double)x + r) - 1;
  const int32_t y0 = floor_d((double)y - r), y1 = ceil_d((double)y + r) - 1;
  int32_t lo, hi;
  for (int32_t cy = y0; cy <= y1; cy++)
    if (band_blocked(c, 0, cy, x0, x1, &lo, &hi)) return 1;
  return 0;
}

int cairn__crowd_disc_near_walls(const cairn_crowd *c, float x, float y, float r,
                                 cairn_point *cell) {
  const int32_t x0 = floor_d((double)x - r), x1 = ceil_d((double)x + r) - 1;
  const int32_t y0 = floor_d((double)y - r), y1 = ceil_d((double)y + r) - 1;
  for (int32_t cy = y0; cy <= y1; cy++)
    for (int32_t cx = x0; cx <= x1; cx++) {
      if (!cairn__crowd_blocked(c, cx, cy)) continue;
      /* the cell's point nearest the centre */
      const double xd = x, yd = y, x0c = cx, y0c = cy;
      double px = xd < x0c ? x0c : xd > x0c + 1.0 ? x0c + 1.0 : xd;
      double py = yd < y0c ? y0c : yd > y0c + 1.0 ? y0c + 1.0 : yd;
      double dx = xd - px, dy = yd - py;
      if (dx * dx + dy * dy < (double)r * r) {
        if (cell) {
          cell->x = cx;
          cell->y = cy;
        }
        return 1;
      }
    }
  return 0;
}

/* The squared distance between segment (ax, ay)-(bx, by) and the cell
 * [cx, cx + 1] x [cy, cy + 1]: 0 where they meet (the segment clipped to
 * the cell, Liang-Barsky), else the least of the ends to the cell and the
 * cell's corners to the segment. */
static double segment_cell_d2(double ax, double ay, double bx, double by, int32_t cx,
                              int32_t cy) {
  const double dx = bx - ax, dy = by - ay;
  double t0 = 0.0, t1 = 1.0;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {ax - cx, cx + 1 - ax, ay - cy, cy + 1 - ay};
  int meets = 1;
  for (int k = 0; k < 4 && meets; k++) {
    if (p[k] == 0.0) {
      meets = q[k] >= 0.0;
      continue;
    }
    const double t = q[k] / p[k];
    if (p[k] < 0.0) t0 = t > t0 ? t : t0;
    else t1 = t < t1 ? t : t1;
    meets = t0 <= t1;
  }
  if (meets) return 0.0;
  double best = INFINITY;
  const double ex[2] = {ax, bx}, ey[2] = {ay, by};
  for (int k = 0; k < 2; k++) { /* the ends to the cell */
    double px = ex[k] < cx ? cx : ex[k] > cx + 1 ? cx + 1 : ex[k];
    double py = ey[k] < cy ? cy : ey[k] > cy + 1 ? cy + 1 : ey[k];
    double d = (ex[k] - px) * (ex[k] - px) + (ey[k] - py) * (ey[k] - py);
    best = d < best ? d : best;
  }
  const double len2 = dx * dx + dy * dy;
  for (int k = 0; k < 4; k++) { /* the corners to the segment */
    const double px = cx + (k & 1), py = cy + (k >> 1);
    double t = len2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    const double qx = ax + t * dx - px, qy = ay + t * dy - py;
    const double d = qx * qx + qy * qy;
    best = d < best ? d : best;
  }
  return best;
}

int cairn__crowd_disc_sight(const cairn_crowd *c, float ax, float ay, float bx, float by,
                            float r) {
  const double dx = (double)bx - ax, dy = (double)by - ay;
  const int steps = (int)(sqrt(dx * dx + dy * dy) * 4.0) + 1; /* a sample every 1/4 cell */
  /* a cell the disc can touch lies within r of the segment, so within
   * r + 1/8 of a sample: that many cells from the sample's own */
  const int32_t reach = ceil_d((double)r + 0.125);
  const double r2 = (double)r * r;
  int32_t last_x = INT32_MIN, last_y = INT32_MIN;
  for (int i = 0; i <= steps; i++) {
    const double t = (double)i / steps;
    const int32_t sx = floor_d(ax + dx * t), sy = floor_d(ay + dy * t);
    if (sx == last_x && sy == last_y) continue;
    last_x = sx;
    last_y = sy;
    /* a disc of half a cell or less near a sample amid open cells touches
     * nothing: one load */
    if (r <= 0.5f && sx >= 0 && sy >= 0 && sx < c->width && sy < c->height &&
        cairn__crowd_open_around(c, (float)sx + 0.5f, (float)sy + 0.5f))
      continue;
    for (int32_t y = sy - reach; y <= sy + reach; y++)
      for (int32_t x = sx - reach; x <= sx + reach; x++)
        if (cairn__crowd_blocked(c, x, y) && segment_cell_d2(ax, ay, bx, by, x, y) < r2)
          return 0;
  }
  return 1;
}
