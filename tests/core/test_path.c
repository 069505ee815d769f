/* Line of sight, string pulling and the path check, against two independent
 * oracles: exact rational t-intervals, and exact dense sampling. */
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ROWS(...) ((const char *const[]){__VA_ARGS__})
#define NROWS(...) ((int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *)))
#define GRID(...) tu_grid(ROWS(__VA_ARGS__), NROWS(__VA_ARGS__))

/* cmocka 1.1's assert_float_equal compares in float: too coarse here. */
#define assert_near(a, b, eps)                                          \
  do {                                                                  \
    double near_a_ = (a), near_b_ = (b);                                \
    if (!(fabs(near_a_ - near_b_) <= (eps)))                            \
      fail_msg("%.17g != %.17g (within %g)", near_a_, near_b_, (eps));  \
  } while (0)

static bool same(cairn_point a, cairn_point b) {
  return a.x == b.x && a.y == b.y;
}

/* A w x h grid: wall_pct % blocked, swamp_pct % cost 2..9, the rest cost 1. */
static cairn_grid *random_grid(uint64_t *rng, int32_t w, int32_t h,
                               uint32_t wall_pct, uint32_t swamp_pct) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(w, h, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      uint32_t r = tu_below(rng, 100);
      uint8_t c = r < wall_pct              ? 0
                  : r < wall_pct + swamp_pct ? (uint8_t)(2 + tu_below(rng, 8))
                                             : 1;
      assert_int_equal(cairn_grid_set_cost(g, x, y, c), CAIRN_OK);
    }
  return g;
}

static cairn_point random_point(uint64_t *rng, const cairn_grid *g) {
  return pt((int32_t)tu_below(rng, (uint32_t)cairn_grid_width(g)),
            (int32_t)tu_below(rng, (uint32_t)cairn_grid_height(g)));
}

static bool passable(const cairn_grid *g, int64_t x, int64_t y) {
  return cairn_grid_cost(g, (int32_t)x, (int32_t)y) != 0;
}

static bool corner_free(const cairn_grid *g, int64_t px, int64_t py) {
  return passable(g, px - 1, py - 1) && passable(g, px, py - 1) &&
         passable(g, px - 1, py) && passable(g, px, py);
}

/* ---- oracle 1: exact t-intervals ------------------------------------ */

/* Doubled coordinates throughout: the centre of cell c is 2c+1 and the cell
 * is the open interval (2c, 2c+2) on each axis. */
typedef struct frac {
  int64_t num, den; /* den > 0 */
} frac;

static bool frac_less(frac a, frac b) { return a.num * b.den < b.num * a.den; }

/* The open t-window in which p0 + t*d lies strictly inside (lo, hi). */
static bool axis_window(int64_t p0, int64_t d, int64_t lo, int64_t hi,
                        frac *t0, frac *t1) {
  if (d == 0) {
    *t0 = (frac){0, 1};
    *t1 = (frac){1, 1};
    return p0 > lo && p0 < hi;
  }
  if (d > 0) {
    *t0 = (frac){lo - p0, d};
    *t1 = (frac){hi - p0, d};
  } else {
    *t0 = (frac){p0 - hi, -d};
    *t1 = (frac){p0 - lo, -d};
  }
  return true;
}

/* Does the open segment meet the open square of cell (cx, cy)? */
static bool segment_meets_cell(cairn_point a, cairn_point b, int64_t cx,
                               int64_t cy) {
  int64_t ax = 2 * (int64_t)a.x + 1, ay = 2 * (int64_t)a.y + 1;
  int64_t dx = 2 * ((int64_t)b.x - a.x), dy = 2 * ((int64_t)b.y - a.y);
  frac x0, x1, y0, y1, lo = {0, 1}, hi = {1, 1};
  if (!axis_window(ax, dx, 2 * cx, 2 * cx + 2, &x0, &x1)) return false;
  if (!axis_window(ay, dy, 2 * cy, 2 * cy + 2, &y0, &y1)) return false;
  if (frac_less(lo, x0)) lo = x0;
  if (frac_less(lo, y0)) lo = y0;
  if (frac_less(x1, hi)) hi = x1;
  if (frac_less(y1, hi)) hi = y1;
  return frac_less(lo, hi);
}

/* Is the lattice point (px, py) on the segment? Only called for points
 * strictly inside the bounding box, so collinear means on it. */
static bool segment_hits_corner(cairn_point a, cairn_point b, int64_t px,
                                int64_t py) {
  int64_t ax = 2 * (int64_t)a.x + 1, ay = 2 * (int64_t)a.y + 1;
  int64_t dx = 2 * ((int64_t)b.x - a.x), dy = 2 * ((int64_t)b.y - a.y);
  return (2 * px - ax) * dy == (2 * py - ay) * dx;
}

/* LOS by brute force over the bounding box; *dearest gets the highest cost
 * among the cells the segment enters, *corners the lattice points it hits. */
static bool oracle_exact(const cairn_grid *g, cairn_point a, cairn_point b,
                         uint8_t *dearest, int *corners) {
  int64_t x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
  int64_t y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
  bool ok = true;
  uint8_t top = 0;
  int hits = 0;
  for (int64_t cy = y0; cy <= y1; cy++)
    for (int64_t cx = x0; cx <= x1; cx++) {
      if (!segment_meets_cell(a, b, cx, cy)) continue;
      uint8_t c = cairn_grid_cost(g, (int32_t)cx, (int32_t)cy);
      if (c == 0) ok = false;
      if (c > top) top = c;
    }
  for (int64_t py = y0 + 1; py <= y1; py++)
    for (int64_t px = x0 + 1; px <= x1; px++) {
      if (!segment_hits_corner(a, b, px, py)) continue;
      hits++;
      if (!corner_free(g, px, py)) ok = false;
    }
  if (dearest) *dearest = top;
  if (corners) *corners = hits;
  return ok;
}

/* ---- oracle 2: dense sampling --------------------------------------- */

/* Samples t = s / N for s = 0..N, with N >= 1000 per cell length and a
 * multiple of 2 * nx * ny. Every grid-line crossing is at t = odd / (2 nx)
 * or odd / (2 ny), so each one is a sample (corners are hit exactly), and
 * distinct crossings are at least 2 samples apart, so every cell entered has
 * a sample strictly inside it. Points are kept as integers scaled by 2N. */
static bool oracle_sampled(const cairn_grid *g, cairn_point a, cairn_point b) {
  int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
  int64_t nx = dx < 0 ? -dx : dx, ny = dy < 0 ? -dy : dy;
  int64_t base = 2 * (nx ? nx : 1) * (ny ? ny : 1);
  double len = sqrt((double)(dx * dx + dy * dy));
  int64_t k = (int64_t)ceil(1000.0 * (len > 1.0 ? len : 1.0) / (double)base);
  if (k < 2) k = 2;
  const int64_t n = base * k, two_n = 2 * n;
  for (int64_t s = 0; s <= n; s++) {
    int64_t x = (2 * (int64_t)a.x + 1) * n + 2 * dx * s;
    int64_t y = (2 * (int64_t)a.y + 1) * n + 2 * dy * s;
    bool on_x = x % two_n == 0, on_y = y % two_n == 0;
    int64_t cx = x / two_n, cy = y / two_n;
    if (on_x && on_y) {
      if (!corner_free(g, cx, cy)) return false;
    } else if (!on_x && !on_y) {
      if (!passable(g, cx, cy)) return false;
    } /* on one edge only: the cells either side have their own samples */
  }
  return true;
}

/* Checks the library against both oracles for one pair. */
static int check_pair(const cairn_grid *g, cairn_point a, cairn_point b,
                      bool sampled) {
  int corners = 0;
  bool exact = oracle_exact(g, a, b, NULL, &corners);
  int got = cairn_grid_line_of_sight(g, a, b);
  if (got != (int)exact)
    fail_msg("LOS (%d,%d)-(%d,%d): got %d, oracle %d", a.x, a.y, b.x, b.y,
             got, (int)exact);
  if (sampled) assert_int_equal((int)oracle_sampled(g, a, b), (int)exact);
  return corners;
}

/* ---- a tiny BFS to make test paths ---------------------------------- */

#define MAX_CELLS 4096

/* A fewest-steps path (no corner cutting) written to out; its length, or 0
 * if the goal is unreachable. The grid has at most MAX_CELLS cells. */
static size_t bfs_path(const cairn_grid *g, cairn_point s, cairn_point t,
                       int moves, cairn_point *out) {
  static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  static const int dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  int32_t prev[MAX_CELLS], queue[MAX_CELLS];
  assert_true(w * h <= MAX_CELLS);
  for (int32_t i = 0; i < w * h; i++) prev[i] = -1;
  size_t head = 0, tail = 0;
  prev[s.y * w + s.x] = s.y * w + s.x;
  queue[tail++] = s.y * w + s.x;
  while (head < tail) {
    int32_t c = queue[head++], cx = c % w, cy = c / w;
    for (int d = 0; d < moves; d++) {
      int32_t nx = cx + dx[d], ny = cy + dy[d];
      if (!passable(g, nx, ny) || prev[ny * w + nx] >= 0) continue;
      if (d >= 4 && (!passable(g, nx, cy) || !passable(g, cx, ny))) continue;
      prev[ny * w + nx] = c;
      queue[tail++] = ny * w + nx;
    }
  }
  int32_t at = t.y * w + t.x;
  if (prev[at] < 0) return 0;
  size_t n = 0;
  for (;; at = prev[at]) {
    out[n++] = pt(at % w, at / w);
    if (at == prev[at]) break;
  }
  for (size_t i = 0; i < n / 2; i++) { /* it was goal to start */
    cairn_point tmp = out[i];
    out[i] = out[n - 1 - i];
    out[n - 1 - i] = tmp;
  }
  return n;
}

static double euclid(const cairn_point *p, size_t n) {
  double sum = 0.0;
  for (size_t i = 1; i < n; i++)
    sum += hypot((double)(p[i].x - p[i - 1].x), (double)(p[i].y - p[i - 1].y));
  return sum;
}

/* ---- line of sight: hand-made cases --------------------------------- */

static void test_los_open_line(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(10, 5, 1, NULL, &g), CAIRN_OK);
  assert_true(cairn_grid_line_of_sight(g, pt(0, 0), pt(9, 4)));
  assert_true(cairn_grid_line_of_sight(g, pt(0, 2), pt(9, 2)));
  assert_true(cairn_grid_line_of_sight(g, pt(3, 0), pt(3, 4)));
  assert_true(cairn_grid_line_of_sight(g, pt(9, 0), pt(0, 4)));
  cairn_grid_destroy(g);
}

static void test_los_wall_between(void **state) {
  (void)state;
  cairn_grid *g = GRID("....#....",
                       ".........",
                       "....#....");
  assert_false(cairn_grid_line_of_sight(g, pt(0, 0), pt(8, 0)));
  assert_false(cairn_grid_line_of_sight(g, pt(8, 0), pt(0, 0)));
  assert_true(cairn_grid_line_of_sight(g, pt(0, 1), pt(8, 1)));
  /* x in [4,5] at y 0.94..1.06: clips the wall at (4,0) */
  assert_false(cairn_grid_line_of_sight(g, pt(0, 0), pt(8, 1)));
  /* x in [4,5] at y 1.38..1.63: through the gap */
  assert_true(cairn_grid_line_of_sight(g, pt(0, 0), pt(8, 2)));
  check_pair(g, pt(0, 0), pt(8, 1), true);
  check_pair(g, pt(0, 0), pt(8, 2), true);
  assert_false(cairn_grid_line_of_sight(g, pt(4, 1), pt(4, 0)));
  cairn_grid_destroy(g);
}

static void test_los_corner(void **state) {
  (void)state;
  cairn_grid *one = GRID(".#", "..");
  cairn_grid *other = GRID("..", "#.");
  cairn_grid *both = GRID("..", "..");
  cairn_grid *anti = GRID("#.", "..");
  assert_false(cairn_grid_line_of_sight(one, pt(0, 0), pt(1, 1)));
  assert_false(cairn_grid_line_of_sight(one, pt(1, 1), pt(0, 0)));
  assert_false(cairn_grid_line_of_sight(other, pt(0, 0), pt(1, 1)));
  assert_true(cairn_grid_line_of_sight(both, pt(0, 0), pt(1, 1)));
  assert_true(cairn_grid_line_of_sight(both, pt(1, 0), pt(0, 1)));
  assert_false(cairn_grid_line_of_sight(anti, pt(1, 0), pt(0, 1)));
  assert_true(cairn_grid_line_of_sight(anti, pt(1, 1), pt(1, 0)));
  cairn_grid_destroy(one);
  cairn_grid_destroy(other);
  cairn_grid_destroy(both);
  cairn_grid_destroy(anti);
}

static void test_los_long_diagonal(void **state) {
  (void)state;
  cairn_grid *g = GRID(".....", ".....", ".....", ".....", ".....");
  assert_true(cairn_grid_line_of_sight(g, pt(0, 0), pt(4, 4)));
  /* (2,1) is beside the corner (2,2) the diagonal passes through */
  assert_int_equal(cairn_grid_set_cost(g, 2, 1, 0), CAIRN_OK);
  assert_false(cairn_grid_line_of_sight(g, pt(0, 0), pt(4, 4)));
  assert_false(cairn_grid_line_of_sight(g, pt(4, 4), pt(0, 0)));
  assert_int_equal(cairn_grid_set_cost(g, 2, 1, 1), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, 3, 1, 0), CAIRN_OK); /* not beside */
  assert_true(cairn_grid_line_of_sight(g, pt(0, 0), pt(4, 4)));
  cairn_grid_destroy(g);
}

/* (0,0) -> (3,1) passes exactly through the corner (2,1). */
static void test_los_shallow_corner(void **state) {
  (void)state;
  cairn_grid *side_a = GRID("..#.", "....");
  cairn_grid *side_b = GRID("....", ".#..");
  cairn_grid *away = GRID("...#", "#...");
  assert_false(cairn_grid_line_of_sight(side_a, pt(0, 0), pt(3, 1)));
  assert_false(cairn_grid_line_of_sight(side_b, pt(0, 0), pt(3, 1)));
  assert_false(cairn_grid_line_of_sight(side_b, pt(3, 1), pt(0, 0)));
  assert_true(cairn_grid_line_of_sight(away, pt(0, 0), pt(3, 1)));
  assert_true(cairn_grid_line_of_sight(away, pt(3, 1), pt(0, 0)));
  check_pair(side_a, pt(0, 0), pt(3, 1), true);
  check_pair(away, pt(0, 0), pt(3, 1), true);
  cairn_grid_destroy(side_a);
  cairn_grid_destroy(side_b);
  cairn_grid_destroy(away);
}

/* (0,0) -> (3,2) crosses (0,0) (1,0) (1,1) (2,1) (2,2) (3,2) and passes
 * within 0.14 of the corner of (0,1): the cells it brushes may be walls. */
static void test_los_brushing(void **state) {
  (void)state;
  cairn_grid *shallow = GRID("..#.", "#..#", ".#..");
  cairn_grid *steep = GRID(".#.", "..#", "#..", ".#.");
  assert_true(cairn_grid_line_of_sight(shallow, pt(0, 0), pt(3, 2)));
  assert_true(cairn_grid_line_of_sight(shallow, pt(3, 2), pt(0, 0)));
  assert_true(cairn_grid_line_of_sight(steep, pt(0, 0), pt(2, 3)));
  assert_true(cairn_grid_line_of_sight(steep, pt(2, 3), pt(0, 0)));
  check_pair(shallow, pt(0, 0), pt(3, 2), true);
  check_pair(steep, pt(0, 0), pt(2, 3), true);
  const cairn_point crossed[] = {{1, 0}, {1, 1}, {2, 1}, {2, 2}};
  for (size_t i = 0; i < 4; i++) {
    cairn_point c = crossed[i];
    assert_int_equal(cairn_grid_set_cost(shallow, c.x, c.y, 0), CAIRN_OK);
    assert_false(cairn_grid_line_of_sight(shallow, pt(0, 0), pt(3, 2)));
    assert_int_equal(cairn_grid_set_cost(shallow, c.x, c.y, 1), CAIRN_OK);
    assert_int_equal(cairn_grid_set_cost(steep, c.y, c.x, 0), CAIRN_OK);
    assert_false(cairn_grid_line_of_sight(steep, pt(0, 0), pt(2, 3)));
    assert_int_equal(cairn_grid_set_cost(steep, c.y, c.x, 1), CAIRN_OK);
  }
  cairn_grid_destroy(shallow);
  cairn_grid_destroy(steep);
}

static void test_los_same_point_and_off_grid(void **state) {
  (void)state;
  cairn_grid *g = GRID(".#", "..");
  assert_true(cairn_grid_line_of_sight(g, pt(0, 0), pt(0, 0)));
  assert_false(cairn_grid_line_of_sight(g, pt(1, 0), pt(1, 0)));
  assert_false(cairn_grid_line_of_sight(g, pt(-1, 0), pt(0, 0)));
  assert_false(cairn_grid_line_of_sight(g, pt(0, 0), pt(0, 2)));
  assert_false(cairn_grid_line_of_sight(g, pt(2, 1), pt(2, 1)));
  assert_false(cairn_grid_line_of_sight(g, pt(INT32_MIN, 0), pt(INT32_MAX, 1)));
  assert_false(cairn_grid_line_of_sight(NULL, pt(0, 0), pt(0, 0)));
  cairn_grid_destroy(g);
}

/* ---- line of sight: random grids ------------------------------------ */

static void test_los_symmetric(void **state) {
  (void)state;
  uint64_t rng = 11;
  for (int grid = 0; grid < 40; grid++) {
    cairn_grid *g = random_grid(&rng, 20, 20, 25, 0);
    for (int i = 0; i < 500; i++) {
      cairn_point a = random_point(&rng, g), b = random_point(&rng, g);
      assert_int_equal(cairn_grid_line_of_sight(g, a, b),
                       cairn_grid_line_of_sight(g, b, a));
    }
    cairn_grid_destroy(g);
  }
}

static void test_los_matches_oracles(void **state) {
  (void)state;
  uint64_t rng = 12;
  int corners = 0, visible = 0, pairs = 0;
  for (int grid = 0; grid < 40; grid++) {
    cairn_grid *g = random_grid(&rng, 20, 20, 25, 0);
    for (int i = 0; i < 150; i++, pairs++) {
      cairn_point a = random_point(&rng, g), b = random_point(&rng, g);
      if (i % 3 == 0) { /* force exact diagonals, which hit corners */
        int32_t d = (int32_t)tu_below(&rng, 20);
        b.x = a.x + d < 20 ? a.x + d : a.x - d;
        b.y = a.y + d < 20 ? a.y + d : a.y - d;
      }
      if (!cairn_grid_contains(g, b.x, b.y)) b = random_point(&rng, g);
      corners += check_pair(g, a, b, true) > 0;
      visible += cairn_grid_line_of_sight(g, a, b);
    }
    cairn_grid_destroy(g);
  }
  /* the run really covered corner crossings, and both answers */
  assert_true(corners > pairs / 10);
  assert_true(visible > pairs / 20);
  assert_true(visible < pairs - pairs / 20);
}

/* Sparse walls on big grids: long segments, visible ones included. */
static void test_los_long_random(void **state) {
  (void)state;
  uint64_t rng = 13;
  cairn_grid *g = random_grid(&rng, 120, 120, 2, 0);
  int visible = 0;
  for (int i = 0; i < 300; i++) {
    cairn_point a = random_point(&rng, g), b = random_point(&rng, g);
    check_pair(g, a, b, i < 30);
    visible += cairn_grid_line_of_sight(g, a, b);
  }
  assert_true(visible > 10);
  cairn_grid_destroy(g);
}

/* The largest side: the error term must not overflow. */
static void test_los_max_side(void **state) {
  (void)state;
  uint64_t rng = 14;
  cairn_grid *wide = random_grid(&rng, CAIRN_GRID_MAX_SIDE, 3, 0, 0);
  cairn_grid *tall = random_grid(&rng, 3, CAIRN_GRID_MAX_SIDE, 0, 0);
  const int32_t far = CAIRN_GRID_MAX_SIDE - 1;
  assert_true(cairn_grid_line_of_sight(wide, pt(0, 0), pt(far, 2)));
  assert_true(cairn_grid_line_of_sight(tall, pt(2, far), pt(0, 0)));
  /* (0,0) -> (far,1) passes through the corner (8192, 1) */
  assert_true(cairn_grid_line_of_sight(wide, pt(0, 0), pt(far, 1)));
  assert_int_equal(cairn_grid_set_cost(wide, 8192, 0, 0), CAIRN_OK);
  assert_false(cairn_grid_line_of_sight(wide, pt(0, 0), pt(far, 1)));
  assert_int_equal(cairn_grid_set_cost(wide, 8192, 0, 1), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(wide, 8193, 0, 0), CAIRN_OK);
  assert_true(cairn_grid_line_of_sight(wide, pt(0, 0), pt(far, 1)));
  for (int32_t i = 0; i < 60; i++) {
    int32_t x = (int32_t)tu_below(&rng, CAIRN_GRID_MAX_SIDE);
    int32_t y = (int32_t)tu_below(&rng, 3);
    assert_int_equal(cairn_grid_set_cost(wide, x, y, 0), CAIRN_OK);
    assert_int_equal(cairn_grid_set_cost(tall, y, x, 0), CAIRN_OK);
  }
  for (int i = 0; i < 40; i++) {
    cairn_point a = pt((int32_t)tu_below(&rng, 200), (int32_t)tu_below(&rng, 3));
    cairn_point b = pt(far - (int32_t)tu_below(&rng, 200),
                       (int32_t)tu_below(&rng, 3));
    check_pair(wide, a, b, false);
    check_pair(tall, pt(a.y, a.x), pt(b.y, b.x), false);
  }
  cairn_grid_destroy(wide);
  cairn_grid_destroy(tall);
}

/* ---- smoothing ------------------------------------------------------ */

static void test_smooth_args(void **state) {
  (void)state;
  cairn_grid *g = GRID("....", "....");
  cairn_point path[3] = {{0, 0}, {1, 0}, {2, 0}}, out[3];
  size_t n = 99;
  double len = -1.0;
  assert_int_equal(cairn_smooth_path(NULL, path, 3, out, 3, &n, &len),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_smooth_path(g, NULL, 3, out, 3, &n, &len),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_smooth_path(g, path, 3, NULL, 3, &n, &len),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_smooth_path(g, path, 3, out, 3, NULL, &len),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_smooth_path(g, path, 3, out, 3, &n, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_smooth_path(g, path, 0, out, 3, &n, &len),
                   CAIRN_ERR_ARG);
  path[1] = pt(4, 0);
  assert_int_equal(cairn_smooth_path(g, path, 3, out, 3, &n, &len),
                   CAIRN_ERR_RANGE);
  path[1] = pt(1, -1);
  assert_int_equal(cairn_smooth_path(g, path, 3, out, 3, &n, &len),
                   CAIRN_ERR_RANGE);
  cairn_grid_destroy(g);
}

static void test_smooth_single_and_straight(void **state) {
  (void)state;
  cairn_grid *g = GRID("......", "......");
  cairn_point one = {2, 1}, out[6];
  size_t n = 0;
  double len = -1.0;
  assert_int_equal(cairn_smooth_path(g, &one, 1, out, 1, &n, &len), CAIRN_OK);
  assert_int_equal(n, 1);
  assert_true(same(out[0], one));
  assert_true(len == 0.0);
  cairn_point line[6] = {{0, 0}, {1, 0}, {2, 0}, {3, 1}, {4, 1}, {5, 1}};
  assert_int_equal(cairn_smooth_path(g, line, 6, out, 6, &n, &len), CAIRN_OK);
  assert_int_equal(n, 2);
  assert_true(same(out[0], line[0]) && same(out[1], line[5]));
  assert_near(len, sqrt(26.0), 1e-12);
  cairn_grid_destroy(g);
}

static void test_smooth_cap_and_alias(void **state) {
  (void)state;
  cairn_grid *g = GRID("....", ".##.", "....");
  /* around the wall: needs (0,0) (3,0) (3,2) */
  cairn_point path[6] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {3, 2}};
  cairn_point copy[6], out[6];
  memcpy(copy, path, sizeof path);
  size_t n = 0;
  double len = 0.0;
  assert_int_equal(cairn_smooth_path(g, path, 6, path, 2, &n, &len),
                   CAIRN_ERR_ARG);
  assert_memory_equal(path, copy, sizeof path); /* refused: untouched */
  assert_int_equal(cairn_smooth_path(g, path, 6, out, 3, &n, &len), CAIRN_OK);
  assert_int_equal(n, 3);
  assert_true(same(out[0], pt(0, 0)) && same(out[1], pt(3, 0)) &&
              same(out[2], pt(3, 2)));
  assert_near(len, 5.0, 1e-12);
  size_t n2 = 0;
  double len2 = 0.0;
  assert_int_equal(cairn_smooth_path(g, path, 6, path, 6, &n2, &len2),
                   CAIRN_OK);
  assert_int_equal(n2, n);
  assert_memory_equal(path, out, n * sizeof *out);
  assert_true(len2 == len);
  cairn_grid_destroy(g);
}

/* The path goes round three sides of a swamp; the shortcut across it is
 * cheaper in length but dearer in cost, so the corners stay. */
static void test_smooth_keeps_out_of_swamp(void **state) {
  (void)state;
  cairn_grid *swamp = GRID("........", "5555555.", "5555555.", "........");
  cairn_grid *wall = GRID("........", "#######.", "#######.", "........");
  cairn_grid *open = GRID("........", "........", "........", "........");
  cairn_point path[18];
  size_t n = 0;
  for (int32_t x = 0; x < 8; x++) path[n++] = pt(x, 0);
  path[n++] = pt(7, 1);
  path[n++] = pt(7, 2);
  for (int32_t x = 7; x >= 0; x--) path[n++] = pt(x, 3);
  const cairn_point expect[4] = {{0, 0}, {7, 0}, {7, 3}, {0, 3}};
  cairn_point out[18];
  size_t m = 0;
  double len = 0.0;
  assert_int_equal(cairn_smooth_path(swamp, path, n, out, n, &m, &len),
                   CAIRN_OK);
  assert_int_equal(m, 4);
  assert_memory_equal(out, expect, sizeof expect);
  assert_near(len, 17.0, 1e-12);
  assert_int_equal(cairn_smooth_path(wall, path, n, out, n, &m, &len),
                   CAIRN_OK);
  assert_int_equal(m, 4);
  assert_memory_equal(out, expect, sizeof expect);
  assert_int_equal(cairn_smooth_path(open, path, n, out, n, &m, &len),
                   CAIRN_OK);
  assert_int_equal(m, 2);
  assert_true(same(out[0], pt(0, 0)) && same(out[1], pt(0, 3)));
  cairn_grid_destroy(swamp);
  cairn_grid_destroy(wall);
  cairn_grid_destroy(open);
}

/* A path already through the swamp may be straightened across it. */
static void test_smooth_within_swamp(void **state) {
  (void)state;
  cairn_grid *g = GRID("5555", "5555");
  cairn_point path[4] = {{0, 0}, {1, 1}, {2, 1}, {3, 1}}, out[4];
  size_t m = 0;
  double len = 0.0;
  assert_int_equal(cairn_smooth_path(g, path, 4, out, 4, &m, &len), CAIRN_OK);
  assert_int_equal(m, 2);
  assert_true(same(out[1], pt(3, 1)));
  cairn_grid_destroy(g);
}

static uint8_t max_cost(const cairn_grid *g, const cairn_point *p, size_t i,
                        size_t j) {
  uint8_t top = 0;
  for (size_t k = i; k <= j; k++) {
    uint8_t c = cairn_grid_cost(g, p[k].x, p[k].y);
    if (c > top) top = c;
  }
  return top;
}

/* Would the shortcut path[i] -> path[j] be allowed? (oracle side) */
static bool shortcut_ok(const cairn_grid *g, const cairn_point *p, size_t i,
                        size_t j) {
  uint8_t dearest = 0;
  bool los = oracle_exact(g, p[i], p[j], &dearest, NULL);
  return los && dearest <= max_cost(g, p, i, j);
}

/* Every property of one smoothing run, including that each waypoint is where
 * the greedy scan must stop. */
static void check_smoothing(const cairn_grid *g, const cairn_point *path,
                            size_t n) {
  cairn_point out[MAX_CELLS], alias[MAX_CELLS];
  size_t m = 0, idx[MAX_CELLS];
  double len = 0.0;
  assert_int_equal(cairn_smooth_path(g, path, n, out, n, &m, &len), CAIRN_OK);
  assert_true(m >= 1 && m <= n);
  assert_true(n == 1 || m >= 2);
  assert_true(same(out[0], path[0]) && same(out[m - 1], path[n - 1]));
  for (size_t w = 0, k = 0; w < m; w++) { /* waypoints are a subsequence */
    while (k < n && !same(path[k], out[w])) k++;
    assert_true(k < n);
    idx[w] = k++;
  }
  for (size_t w = 1; w < m; w++) {
    size_t i = idx[w - 1], j = idx[w];
    assert_true(cairn_grid_line_of_sight(g, out[w - 1], out[w]));
    assert_true(oracle_sampled(g, out[w - 1], out[w]));
    assert_true(shortcut_ok(g, path, i, j));
    if (j + 1 < n) assert_false(shortcut_ok(g, path, i, j + 1));
  }
  assert_near(len, euclid(out, m), 1e-9);
  assert_true(len <= euclid(path, n) + 1e-9);
  memcpy(alias, path, n * sizeof *path);
  size_t m2 = 0;
  double len2 = 0.0;
  assert_int_equal(cairn_smooth_path(g, alias, n, alias, m, &m2, &len2),
                   CAIRN_OK);
  assert_int_equal(m2, m);
  assert_memory_equal(alias, out, m * sizeof *out);
  if (m > 1)
    assert_int_equal(cairn_smooth_path(g, path, n, alias, m - 1, &m2, &len2),
                     CAIRN_ERR_ARG);
}

static void test_smooth_random(void **state) {
  (void)state;
  uint64_t rng = 15;
  cairn_point path[MAX_CELLS];
  int runs = 0, shortened = 0;
  for (int grid = 0; grid < 60; grid++) {
    cairn_grid *g = random_grid(&rng, 20, 20, 20, grid % 2 ? 15 : 0);
    for (int i = 0; i < 40; i++) {
      cairn_point a = random_point(&rng, g), b = random_point(&rng, g);
      if (!cairn_grid_cost(g, a.x, a.y) || !cairn_grid_cost(g, b.x, b.y))
        continue;
      size_t n = bfs_path(g, a, b, i % 2 ? 8 : 4, path);
      if (n == 0) continue;
      check_smoothing(g, path, n);
      runs++;
      size_t m = 0;
      double len = 0.0;
      cairn_point out[MAX_CELLS];
      assert_int_equal(cairn_smooth_path(g, path, n, out, n, &m, &len),
                       CAIRN_OK);
      shortened += len < euclid(path, n) - 1e-9;
    }
    cairn_grid_destroy(g);
  }
  assert_true(runs > 500);
  assert_true(shortened > runs / 4);
}

/* ---- path check ----------------------------------------------------- */

static cairn_path_check check(const cairn_grid *g, const cairn_point *p,
                              size_t n, cairn_point s, cairn_point t,
                              int moves) {
  cairn_path_check r;
  memset(&r, 0xab, sizeof r);
  cairn_grid_check_path(g, p, n, s, t, moves, &r);
  return r;
}

static void expect_problem(cairn_path_check r, size_t index,
                           const char *problem) {
  assert_int_equal(r.valid, 0);
  assert_int_equal(r.bad_index, index);
  assert_non_null(r.problem);
  assert_string_equal(r.problem, problem);
}

static void test_check_cost(void **state) {
  (void)state;
  cairn_grid *g = GRID("......", ".#....", "..3...", "......");
  const cairn_point walk[6] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 1}, {5, 2}};
  cairn_path_check r = check(g, walk, 6, walk[0], walk[5], 8);
  assert_int_equal(r.valid, 1);
  assert_null(r.problem);
  assert_near(r.cost, 3.0 + 2.0 * sqrt(2.0), 1e-12);
  const cairn_point mud[4] = {{0, 2}, {1, 2}, {2, 2}, {3, 2}};
  r = check(g, mud, 4, mud[0], mud[3], 4);
  assert_int_equal(r.valid, 1);
  assert_near(r.cost, 1.0 + 3.0 + 1.0, 1e-12);
  const cairn_point into_mud[2] = {{1, 3}, {2, 2}};
  r = check(g, into_mud, 2, into_mud[0], into_mud[1], 8);
  assert_int_equal(r.valid, 1);
  assert_near(r.cost, 3.0 * sqrt(2.0), 1e-12);
  r = check(g, walk, 1, walk[0], walk[0], 4);
  assert_int_equal(r.valid, 1);
  assert_true(r.cost == 0.0);
  cairn_grid_check_path(g, walk, 6, walk[0], walk[5], 8, NULL); /* no-op */
  cairn_grid_destroy(g);
}

static void test_check_problems(void **state) {
  (void)state;
  cairn_grid *g = GRID("......", ".#....", "..3...", "......");
  const cairn_point ok[3] = {{0, 0}, {1, 0}, {2, 0}};
  cairn_point s = ok[0], t = ok[2];
  expect_problem(check(g, ok, 3, s, t, 6), 0, "bad moves");
  expect_problem(check(g, ok, 3, s, t, 0), 0, "bad moves");
  expect_problem(check(g, ok, 0, s, t, 8), 0, "empty path");
  expect_problem(check(g, NULL, 3, s, t, 8), 0, "empty path");
  expect_problem(check(g, ok, 3, pt(1, 0), t, 8), 0,
                 "does not start at the start");
  expect_problem(check(g, ok, 3, s, pt(3, 0), 8), 2,
                 "does not end at the goal");
  const cairn_point off[3] = {{0, 0}, {-1, 0}, {0, 0}};
  expect_problem(check(g, off, 3, s, s, 8), 1, "off the map");
  const cairn_point off_start[1] = {{6, 0}};
  expect_problem(check(g, off_start, 1, pt(6, 0), pt(6, 0), 8), 0,
                 "off the map");
  expect_problem(check(NULL, ok, 3, s, t, 8), 0, "off the map");
  const cairn_point wall[3] = {{0, 1}, {1, 1}, {2, 1}};
  expect_problem(check(g, wall, 3, wall[0], wall[2], 8), 1, "blocked cell");
  const cairn_point jump[2] = {{0, 0}, {2, 0}};
  expect_problem(check(g, jump, 2, jump[0], jump[1], 8), 1, "not a neighbour");
  const cairn_point stay[3] = {{0, 0}, {0, 0}, {1, 0}};
  expect_problem(check(g, stay, 3, stay[0], stay[2], 8), 1, "not a neighbour");
  const cairn_point diag[2] = {{3, 0}, {4, 1}};
  expect_problem(check(g, diag, 2, diag[0], diag[1], 4), 1, "not a neighbour");
  assert_int_equal(check(g, diag, 2, diag[0], diag[1], 8).valid, 1);
  const cairn_point cut[3] = {{2, 0}, {2, 1}, {1, 2}}; /* beside (1,1) */
  expect_problem(check(g, cut, 3, cut[0], cut[2], 8), 2, "cuts a corner");
  const cairn_point cut2[2] = {{0, 0}, {1, 1}};
  expect_problem(check(g, cut2, 2, cut2[0], cut2[1], 8), 1, "blocked cell");
  /* the first offending point wins: blocked at 1 before the wrong goal */
  const cairn_point two[3] = {{0, 1}, {1, 1}, {2, 1}};
  expect_problem(check(g, two, 3, two[0], pt(5, 5), 8), 1, "blocked cell");
  cairn_grid_destroy(g);
}

/* BFS paths are valid and cost what a plain recount says. */
static void test_check_random(void **state) {
  (void)state;
  uint64_t rng = 16;
  cairn_point path[MAX_CELLS];
  int runs = 0;
  for (int grid = 0; grid < 30; grid++) {
    cairn_grid *g = random_grid(&rng, 20, 20, 25, 20);
    for (int i = 0; i < 30; i++) {
      cairn_point a = random_point(&rng, g), b = random_point(&rng, g);
      if (!cairn_grid_cost(g, a.x, a.y) || !cairn_grid_cost(g, b.x, b.y))
        continue;
      int moves = i % 2 ? 8 : 4;
      size_t n = bfs_path(g, a, b, moves, path);
      if (n == 0) continue;
      runs++;
      double cost = 0.0;
      for (size_t k = 1; k < n; k++) {
        bool diagonal = path[k].x != path[k - 1].x && path[k].y != path[k - 1].y;
        cost += (diagonal ? sqrt(2.0) : 1.0) *
                cairn_grid_cost(g, path[k].x, path[k].y);
      }
      cairn_path_check r = check(g, path, n, a, b, moves);
      assert_int_equal(r.valid, 1);
      assert_near(r.cost, cost, 1e-9);
      if (n >= 3) { /* dropping a middle point breaks the chain there */
        size_t k = 1 + tu_below(&rng, (uint32_t)(n - 2));
        memmove(path + k, path + k + 1, (n - k - 1) * sizeof *path);
        r = check(g, path, n - 1, a, b, moves);
        assert_int_equal(r.valid, 0);
        assert_int_equal(r.bad_index, k);
      }
    }
    cairn_grid_destroy(g);
  }
  assert_true(runs > 200);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_los_open_line),
      cmocka_unit_test(test_los_wall_between),
      cmocka_unit_test(test_los_corner),
      cmocka_unit_test(test_los_long_diagonal),
      cmocka_unit_test(test_los_shallow_corner),
      cmocka_unit_test(test_los_brushing),
      cmocka_unit_test(test_los_same_point_and_off_grid),
      cmocka_unit_test(test_los_symmetric),
      cmocka_unit_test(test_los_matches_oracles),
      cmocka_unit_test(test_los_long_random),
      cmocka_unit_test(test_los_max_side),
      cmocka_unit_test(test_smooth_args),
      cmocka_unit_test(test_smooth_single_and_straight),
      cmocka_unit_test(test_smooth_cap_and_alias),
      cmocka_unit_test(test_smooth_keeps_out_of_swamp),
      cmocka_unit_test(test_smooth_within_swamp),
      cmocka_unit_test(test_smooth_random),
      cmocka_unit_test(test_check_cost),
      cmocka_unit_test(test_check_problems),
      cmocka_unit_test(test_check_random),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
