/* Sampling at float positions, and the check against a plain Dijkstra. */
#include "flow_internal.h"

#include <math.h>
#include <string.h>

/* floorf(v) as an integer for finite v in the int32 range (the sample's
 * coordinates, checked on entry); cheaper than floorf without SSE4.1. */
static inline int32_t floor_int(float v) {
  int32_t i = (int32_t)v; /* towards zero */
  return i - (v < (float)i);
}

static inline size_t idx(const cairn_field *f, int32_t x, int32_t y) {
  return (size_t)(y + 1) * (size_t)f->stride + (size_t)(x + 1);
}

/* Whether the segment from (x, y) along (vx, vy) (length <= 1) keeps to
 * passable cells: every cell its bounding box overlaps must be passable.
 * Stricter than the segment itself needs, and simple to state and test; a
 * move legal from the cell's centre passes it from anywhere in the cell
 * (a diagonal's box stays in the 2 x 2 block the move needs open).
 * Written for speed (every crowd agent asks it every tick): the box spans
 * at most 2 x 2 cells, all within the padded grid (x in [0, w), |vx| <= 1),
 * whose blocked border stands for "off the grid". */
static bool segment_clear(const cairn_field *f, const uint8_t *g, float x,
                          float y, float vx, float vy) {
  float xe = x + vx, ye = y + vy;
  float xa = xe < x ? xe : x, xb = xe < x ? x : xe;
  float ya = ye < y ? ye : y, yb = ye < y ? y : ye;
  int32_t cx0 = floor_int(xa), cx1 = floor_int(xb);
  int32_t cy0 = floor_int(ya), cy1 = floor_int(yb);
  size_t i = idx(f, cx0, cy0), di = (size_t)(cx1 - cx0);
  size_t dj = (size_t)(cy1 - cy0) * (size_t)f->stride;
  return g[i] && g[i + di] && g[i + dj] && g[i + dj + di];
}

static bool unit(float *vx, float *vy) {
  float len = sqrtf(*vx * *vx + *vy * *vy);
  if (!(len > 1e-6f)) return false;
  *vx /= len;
  *vy /= len;
  return true;
}

/* Bilinear blend of the moves of the four cells whose centres surround
 * (x, y); cells without a move do not count. */
/* The unit move of each direction code (cairn__dx/dy, diagonals
 * times 0.70710678f): the same floats the scaling gives, read at once. */
static const float move_x[8] = {1, -1, 0, 0, 0.70710678f, -0.70710678f,
                                0.70710678f, -0.70710678f};
static const float move_y[8] = {0, 0, 1, -1, 0.70710678f, 0.70710678f,
                                -0.70710678f, -0.70710678f};

static bool blend(const cairn_field *f, float x, float y, float *vx,
                  float *vy) {
  float fx = x - 0.5f, fy = y - 0.5f;
  int32_t x0 = floor_int(fx), y0 = floor_int(fy);
  float ax = fx - (float)x0, ay = fy - (float)y0;
  float sx = 0, sy = 0;
  /* x0 >= -1 and x0 + 1 <= w: the four cells lie in the padded grid,
   * whose border says CAIRN_FLOW_NONE like cairn_field_dir off the grid */
  size_t i0 = idx(f, x0, y0);
  for (int k = 0; k < 4; k++) {
    size_t i = i0 + (size_t)(k & 1) + (size_t)(k >> 1) * (size_t)f->stride;
    int d = f->dir[i] & FLOW_DIR_MASK;
    if (d >= 8) continue;
    float wgt = ((k & 1) ? ax : 1 - ax) * ((k >> 1) ? ay : 1 - ay);
    float mx = move_x[d], my = move_y[d];
    sx += wgt * mx;
    sy += wgt * my;
  }
  *vx = sx;
  *vy = sy;
  return unit(vx, vy);
}

cairn_status cairn_field_sample(const cairn_field *f, float x, float y,
                                cairn_flow_sample *out) {
  if (!f || !out) return CAIRN_ERR_ARG;
  memset(out, 0, sizeof *out);
  out->dir = CAIRN_FLOW_NONE;
  out->cost = CAIRN_COST_INF;
  if (isnan(x) || isnan(y)) return CAIRN_ERR_ARG;
  if (!(x >= 0 && y >= 0 && x < (float)f->w && y < (float)f->h))
    return CAIRN_ERR_RANGE;
  /* the grid changed unreported: the moves may lead into new walls (an
   * unbuilt field has none to be wrong about) */
  if (flow_stale(f) && f->built) return CAIRN_ERR_STATE;
  int32_t cx = (int32_t)x, cy = (int32_t)y;
  if (cx >= f->w) cx = f->w - 1; /* x just below w rounds up in float */
  if (cy >= f->h) cy = f->h - 1;
  const uint8_t *g = f->cells;
  size_t i = idx(f, cx, cy);
  int d = f->dir[i] & FLOW_DIR_MASK;
  out->dir = d;
  out->cost = flow_value(f, i);
  if (d >= 8) return CAIRN_OK;
  size_t next = i + (size_t)((ptrdiff_t)cairn__dy[d] * (ptrdiff_t)f->stride + cairn__dx[d]);
  out->next_goal = (f->dir[next] & FLOW_DIR_MASK) == CAIRN_FLOW_GOAL;
  float vx, vy;
  if (f->dir[i] & FLOW_LOS_BIT) {
    out->los = 1;
    vx = (float)(cx + f->los[2 * i]) + 0.5f - x;
    vy = (float)(cy + f->los[2 * i + 1]) + 0.5f - y;
    if (unit(&vx, &vy) && segment_clear(f, g, x, y, vx, vy)) goto done;
  }
  if (blend(f, x, y, &vx, &vy) && segment_clear(f, g, x, y, vx, vy)) goto done;
  vx = (float)cairn__dx[d];
  vy = (float)cairn__dy[d];
  unit(&vx, &vy);
done:
  out->vx = vx;
  out->vy = vy;
  return CAIRN_OK;
}

/* ---- verify --------------------------------------------------------- */

static void fault(cairn_field_fault *out, int32_t x, int32_t y,
                  cairn_cost got, cairn_cost want, const char *why) {
  out->ok = 0;
  out->cell.x = x;
  out->cell.y = y;
  out->got = got;
  out->expected = want;
  out->problem = why;
}

/* The terrain a unit of the field's size pays at (x, y): the dearest cell
 * it covers, 0 where one of them is blocked or off the grid. From the
 * public accessors alone, cell by cell. */
static uint8_t unit_cost(const cairn_field *f, int32_t x, int32_t y) {
  uint8_t most = 0;
  for (int32_t dy = 0; dy < f->size; dy++)
    for (int32_t dx = 0; dx < f->size; dx++) {
      uint8_t t = cairn_grid_cost(f->grid, x + dx, y + dy);
      if (!t) return 0;
      most = t > most ? t : most;
    }
  return most;
}

/* The highest layer penalty the unit covers at (x, y). */
static uint32_t unit_penalty(const cairn_field *f, int32_t x, int32_t y) {
  uint32_t most = 0;
  for (int32_t dy = 0; dy < f->size; dy++)
    for (int32_t dx = 0; dx < f->size; dx++) {
      uint32_t p = cairn_penalty_get(f->penalty, x + dx, y + dy);
      most = p > most ? p : most;
    }
  return most;
}

/* The move check of one reachable non-goal cell, from the public grid
 * accessors only (independent of the build's padded arithmetic). */
static const char *check_move(const cairn_field *f, int32_t x, int32_t y,
                              cairn_cost v) {
  int d = cairn_field_dir(f, x, y);
  if (d >= 8) return "reachable cell without a move";
  if (f->moves == 4 && d >= 4) return "diagonal move in a 4-way field";
  int32_t dx = cairn_flow_dir_dx(d), dy = cairn_flow_dir_dy(d);
  int32_t nx = x + dx, ny = y + dy;
  uint8_t t = unit_cost(f, nx, ny);
  if (!t) return "move into a blocked cell";
  if (dx && dy && (!unit_cost(f, x + dx, y) || !unit_cost(f, x, y + dy)))
    return "move cuts a corner";
  cairn_cost nv = cairn_field_cost(f, nx, ny);
  cairn_cost step = (dx && dy ? CAIRN_COST_DIAG : CAIRN_COST_ONE) * t;
  if (f->penalty) { /* the step pays the entered cell's penalty too */
    uint32_t p = unit_penalty(f, nx, ny);
    if (p == CAIRN_PENALTY_BLOCK) return "move into a cell the cost layer blocks";
    step += p;
  }
  if (nv == CAIRN_COST_INF || nv + step != v)
    return "value is not the next cell's value plus the step";
  return NULL;
}

static const char *check_cell(const cairn_field *f, const cairn_search *s,
                              int32_t x, int32_t y, cairn_cost *want) {
  cairn_point p = {x, y};
  cairn_node_info info;
  cairn_cost v = cairn_field_cost(f, x, y);
  *want = CAIRN_COST_INF;
  if (cairn_search_cell(s, p, &info) == CAIRN_OK && info.state == CAIRN_NODE_CLOSED)
    *want = info.g;
  if (!unit_cost(f, x, y)) *want = CAIRN_COST_INF;
  if (v != *want) return "value differs from Dijkstra's";
  int d = cairn_field_dir(f, x, y);
  if (v == CAIRN_COST_INF) return d == CAIRN_FLOW_NONE ? NULL : "unreachable cell with a move";
  if (v == 0) return d == CAIRN_FLOW_GOAL ? NULL : "goal not marked as a goal";
  return check_move(f, x, y, v);
}

cairn_status cairn_field_verify(const cairn_field *f, cairn_search *s,
                                cairn_field_fault *out) {
  if (!f || !s || !out) return CAIRN_ERR_ARG;
  memset(out, 0, sizeof *out);
  if (!f->built || flow_stale(f)) return CAIRN_ERR_STATE;
  cairn_search_opts o = cairn_search_defaults();
  o.moves = f->moves;
  o.penalty = f->penalty;
  o.size = f->size;
  cairn_status st = cairn_dijkstra_fill(s, f->grid, f->goals, f->n_goals, NULL,
                                        0, 1, &o);
  if (st != CAIRN_OK) return st;
  out->ok = 1;
  for (int32_t y = 0; y < f->h; y++)
    for (int32_t x = 0; x < f->w; x++) {
      cairn_cost want;
      const char *why = check_cell(f, s, x, y, &want);
      if (why) {
        fault(out, x, y, cairn_field_cost(f, x, y), want, why);
        return CAIRN_OK;
      }
    }
  return CAIRN_OK;
}
