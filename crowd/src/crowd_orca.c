/* Optimal reciprocal collision avoidance (van den Berg, Guy, Lin and
 * Manocha, "Reciprocal n-body collision avoidance", 2011), the method of
 * RVO2: each neighbour rules out the half-plane of velocities that would
 * meet it within the time horizon, each side taking half the avoiding;
 * the agent takes the allowed velocity nearest the one it wants, found by
 * a 2-D linear program. Read-only but for the agent's own answer, so any
 * number of tasks run it at once; the neighbours are taken nearest first
 * (ties by place in bin order), so the answer is the same at any thread
 * count. */
#include "crowd_internal.h"

#include <math.h>

#define ORCA_EPS 1e-5f

/* A half-plane of allowed velocities: to the left of the line through
 * point along the unit direction. */
typedef struct orca_line {
  float px, py, dx, dy;
} orca_line;

static float det(float ax, float ay, float bx, float by) { return ax * by - ay * bx; }

/* The best velocity on line i (within the speed circle and the lines
 * before it): the one nearest (ox, oy), or, with `dir`, the furthest
 * along it. 0 when no point of the line is allowed. */
static int on_line(const orca_line *l, uint32_t i, float speed, float ox, float oy, int dir,
                   float *rx, float *ry) {
  const orca_line *a = &l[i];
  float dot = a->px * a->dx + a->py * a->dy;
  float disc = dot * dot + speed * speed - (a->px * a->px + a->py * a->py);
  if (disc < 0.0f) return 0; /* the line misses the speed circle */
  float root = sqrtf(disc), lo = -dot - root, hi = -dot + root;
  for (uint32_t j = 0; j < i; j++) {
    const orca_line *b = &l[j];
    float den = det(a->dx, a->dy, b->dx, b->dy);
    float num = det(b->dx, b->dy, a->px - b->px, a->py - b->py);
    if (fabsf(den) <= ORCA_EPS) {
      if (num < 0.0f) return 0; /* parallel, and outside the other */
      continue;
    }
    float t = num / den;
    if (den >= 0.0f) hi = t < hi ? t : hi;
    else lo = t > lo ? t : lo;
    if (lo > hi) return 0;
  }
  float t;
  if (dir) t = ox * a->dx + oy * a->dy > 0.0f ? hi : lo;
  else {
    t = a->dx * (ox - a->px) + a->dy * (oy - a->py);
    t = t < lo ? lo : t > hi ? hi : t;
  }
  *rx = a->px + t * a->dx;
  *ry = a->py + t * a->dy;
  return 1;
}

/* The allowed velocity within the speed circle nearest (ox, oy) (or,
 * with `dir`, furthest along that unit direction), by adding the lines
 * one at a time. Returns n, or the first line that leaves nothing. */
static uint32_t solve(const orca_line *l, uint32_t n, float speed, float ox, float oy, int dir,
                      float *rx, float *ry) {
  float o2 = ox * ox + oy * oy;
  if (dir) {
    *rx = ox * speed;
    *ry = oy * speed;
  } else if (o2 > speed * speed) {
    float s = speed / sqrtf(o2);
    *rx = ox * s;
    *ry = oy * s;
  } else {
    *rx = ox;
    *ry = oy;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (det(l[i].dx, l[i].dy, l[i].px - *rx, l[i].py - *ry) <= 0.0f) continue; /* allowed */
    float kx = *rx, ky = *ry;
    if (!on_line(l, i, speed, ox, oy, dir, rx, ry)) {
      *rx = kx;
      *ry = ky;
      return i;
    }
  }
  return n;
}

/* When the lines leave nothing (a crowd pressing in): the velocity that
 * breaks the worst of them least, line by line from the first that
 * failed, each solved in the space the ones before it bound. */
static void least_bad(const orca_line *l, uint32_t n, uint32_t from, float speed, float *rx,
                      float *ry) {
  orca_line proj[CAIRN_CROWD_MAX_ORCA];
  float worst = 0.0f;
  for (uint32_t i = from; i < n; i++) {
    const orca_line *a = &l[i];
    if (det(a->dx, a->dy, a->px - *rx, a->py - *ry) <= worst) continue;
    uint32_t m = 0;
    for (uint32_t j = 0; j < i; j++) {
      const orca_line *b = &l[j];
      orca_line *p = &proj[m];
      float d = det(a->dx, a->dy, b->dx, b->dy);
      if (fabsf(d) <= ORCA_EPS) {
        if (a->dx * b->dx + a->dy * b->dy > 0.0f) continue; /* same way */
        p->px = 0.5f * (a->px + b->px);
        p->py = 0.5f * (a->py + b->py);
      } else {
        float t = det(b->dx, b->dy, a->px - b->px, a->py - b->py) / d;
        p->px = a->px + t * a->dx;
        p->py = a->py + t * a->dy;
      }
      float ex = b->dx - a->dx, ey = b->dy - a->dy, len = sqrtf(ex * ex + ey * ey);
      if (!(len > ORCA_EPS)) continue;
      p->dx = ex / len;
      p->dy = ey / len;
      m++;
    }
    float kx = *rx, ky = *ry;
    if (solve(proj, m, speed, -a->dy, a->dx, 1, rx, ry) < m) {
      *rx = kx; /* in principle never: keep the last good answer */
      *ry = ky;
    }
    worst = det(a->dx, a->dy, a->px - *rx, a->py - *ry);
  }
}

/* The half-plane neighbour q rules out: relative position (px, py),
 * the agent's velocity less the neighbour's (wx, wy), radii's sum rr. */
static void line_of(float px, float py, float wx, float wy, float rr, float vx, float vy,
                    float inv_tau, float inv_dt, orca_line *l) {
  float d2 = px * px + py * py, r2 = rr * rr, ux, uy;
  if (d2 > r2) {
    /* apart: the truncated cone of velocities that meet within tau */
    float cx = wx - inv_tau * px, cy = wy - inv_tau * py;
    float c2 = cx * cx + cy * cy, dot = cx * px + cy * py;
    if (dot < 0.0f && dot * dot > r2 * c2) {
      float cl = sqrtf(c2), nx = cx / cl, ny = cy / cl;
      l->dx = ny;
      l->dy = -nx;
      ux = (rr * inv_tau - cl) * nx;
      uy = (rr * inv_tau - cl) * ny;
    } else {
      float leg = sqrtf(d2 - r2);
      if (det(px, py, cx, cy) > 0.0f) {
        l->dx = (px * leg - py * rr) / d2;
        l->dy = (px * rr + py * leg) / d2;
      } else {
        l->dx = -(px * leg + py * rr) / d2;
        l->dy = -(-px * rr + py * leg) / d2;
      }
      float along = wx * l->dx + wy * l->dy;
      ux = along * l->dx - wx;
      uy = along * l->dy - wy;
    }
  } else {
    /* overlapping: apart again within the tick */
    float cx = wx - inv_dt * px, cy = wy - inv_dt * py;
    float cl = sqrtf(cx * cx + cy * cy);
    float nx = cl > ORCA_EPS ? cx / cl : 1.0f, ny = cl > ORCA_EPS ? cy / cl : 0.0f;
    l->dx = ny;
    l->dy = -nx;
    ux = (rr * inv_dt - cl) * nx;
    uy = (rr * inv_dt - cl) * ny;
  }
  l->px = vx + 0.5f * ux;
  l->py = vy + 0.5f * uy;
}

/* The nearest opts.orca_neighbours agents within the neighbour radius,
 * as places in bin order into nbr (not `near`: a macro on Windows),
 * nearest first (ties: lower place first). */
static uint32_t nearest(const cairn_crowd *c, uint32_t k, uint32_t *nbr, float *d2s) {
  const float x = c->sx[k], y = c->sy[k], R2 = c->opts.neighbour_radius * c->opts.neighbour_radius;
  const uint32_t cap = c->opts.orca_neighbours;
  int32_t bx, by;
  cairn__crowd_bin_xy(c, x, y, &bx, &by);
  uint32_t m = 0;
  for (int32_t row = by - 1; row <= by + 1; row++) {
    const uint32_t *start = c->bin_start + (size_t)row * (size_t)c->nbx;
    for (uint32_t j = start[bx - 1]; j < start[bx + 2]; j++) {
      float px = c->sx[j] - x, py = c->sy[j] - y, d2 = px * px + py * py;
      if (j == k || d2 > R2) continue;
      if (m == cap && !(d2 < d2s[m - 1] || (d2 == d2s[m - 1] && j < nbr[m - 1]))) continue;
      uint32_t at = m < cap ? m++ : m - 1;
      while (at > 0 && (d2 < d2s[at - 1] || (d2 == d2s[at - 1] && j < nbr[at - 1]))) {
        nbr[at] = nbr[at - 1];
        d2s[at] = d2s[at - 1];
        at--;
      }
      nbr[at] = j;
      d2s[at] = d2;
    }
  }
  return m;
}

void cairn__crowd_orca(const cairn_crowd *c, uint32_t k, float wx, float wy, float speed,
                       float *vx, float *vy, crowd_orca_near *out) {
  uint32_t nbr[CAIRN_CROWD_MAX_ORCA];
  float d2s[CAIRN_CROWD_MAX_ORCA];
  orca_line lines[CAIRN_CROWD_MAX_ORCA];
  uint32_t m = nearest(c, k, nbr, d2s);
  const float ax = c->sx[k], ay = c->sy[k], avx = c->svx[k], avy = c->svy[k], r = c->sr[k];
  const float inv_tau = 1.0f / c->opts.orca_horizon, inv_dt = 1.0f / c->opts.dt;
  out->overlap = out->blocked_by_moving = 0;
  for (uint32_t q = 0; q < m; q++) {
    uint32_t j = nbr[q];
    float px = c->sx[j] - ax, py = c->sy[j] - ay, rr = r + c->sr[j];
    line_of(px, py, avx - c->svx[j], avy - c->svy[j], rr, avx, avy, inv_tau, inv_dt, &lines[q]);
    float d = sqrtf(d2s[q]);
    out->overlap |= rr - d > 0.5f * r;
    /* a neighbour that is moving: the agent waits its turn in traffic
     * (ORCA slows it for any within the horizon), it is not stuck */
    float ovx = c->svx[j], ovy = c->svy[j];
    out->blocked_by_moving |= ovx * ovx + ovy * ovy > 0.01f;
  }
  if (m == 0) { /* alone: the wish, at most `speed` long */
    (void)solve(NULL, 0, speed, wx, wy, 0, vx, vy);
    return;
  }
  uint32_t fail = solve(lines, m, speed, wx, wy, 0, vx, vy);
  if (fail < m) least_bad(lines, m, fail, speed, vx, vy);
}
