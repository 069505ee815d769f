/* Terrain variants of a map (`cairn gen --kind terrain`): the walls kept,
 * the open cells turned into ground of CAIRN_TERRAIN_GROUND with patches of
 * meadow and swamp and roads across the map, for the weighted searches'
 * benchmark. Integer arithmetic only and one splitmix64 stream (canvas_rnd),
 * so a seed gives the same bytes on every platform. */
#include "cairn_scenarios.h"
#include "canvas.h"

#include <stdbool.h>
#include <stddef.h>

/* The costs a patch may take: meadow (2, cheaper than the ground) and
 * swamps (4..8, dearer); 3 would not show on the ground. */
static const uint8_t patch_costs[] = {2, 4, 5, 6, 7, 8};

typedef struct painter {
  int32_t w, h;
  uint8_t *cost; /* w * h, row by row; 0 = wall, never painted */
  canvas rng;    /* only its random stream is used (no characters) */
} painter;

static void paint(painter *p, int32_t x, int32_t y, uint8_t c) {
  if (x < 0 || y < 0 || x >= p->w || y >= p->h) return;
  uint8_t *cell = &p->cost[(size_t)y * (size_t)p->w + (size_t)x];
  if (*cell) *cell = c;
}

static int32_t rnd(painter *p, int32_t n) {
  return (int32_t)canvas_rnd(&p->rng, (uint32_t)n);
}

static void disc(painter *p, int32_t cx, int32_t cy, int32_t r, uint8_t c) {
  for (int32_t y = cy - r; y <= cy + r; y++)
    for (int32_t x = cx - r; x <= cx + r; x++)
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) paint(p, x, y, c);
}

/* A patch of about radius r: three discs of r/2..r around (cx, cy), so
 * its outline is lobed rather than round. */
static void patch(painter *p, int32_t cx, int32_t cy, int32_t r, uint8_t c) {
  for (int k = 0; k < 3; k++) {
    int32_t ox = rnd(p, r + 1) - r / 2, oy = rnd(p, r + 1) - r / 2;
    int32_t rr = r / 2 + rnd(p, r / 2 + 1);
    disc(p, cx + ox, cy + oy, rr, c);
  }
}

/* A 4-connected line (each step moves in x or in y), so a road can be
 * walked with straight steps and no diagonal squeezes between its cells.
 * err is how far the cell lies off the exact line, times the segment's
 * length; each step takes the move that keeps it smaller. */
static void road_segment(painter *p, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int64_t dx = x1 > x0 ? x1 - x0 : x0 - x1, dy = y1 > y0 ? y1 - y0 : y0 - y1;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  int64_t err = 0;
  int32_t x = x0, y = y0;
  paint(p, x, y, 1);
  while (x != x1 || y != y1) {
    int64_t ex = err + dy, ey = err - dx;
    bool step_x = y == y1 || (x != x1 && (ex < 0 ? -ex : ex) <= (ey < 0 ? -ey : ey));
    if (step_x) {
      x += sx;
      err = ex;
    } else {
      y += sy;
      err = ey;
    }
    paint(p, x, y, 1);
  }
}

/* A road of cost 1 from one side of the map to the opposite one through
 * three random waypoints: across (west to east) or down (north to south). */
static void road(painter *p, bool across) {
  int32_t len = across ? p->w : p->h, side = across ? p->h : p->w;
  int32_t pu = 0, pv = rnd(p, side);
  for (int32_t j = 1; j <= 4; j++) {
    int32_t u = j == 4 ? len - 1 : (int32_t)((int64_t)len * j / 4);
    int32_t v = rnd(p, side);
    if (across) road_segment(p, pu, pv, u, v);
    else road_segment(p, pv, pu, v, u);
    pu = u;
    pv = v;
  }
}

cairn_status cairn_terrain_variant_generate(int32_t width, int32_t height,
                                            uint64_t seed, uint8_t *cost) {
  if (!cost || width < 1 || height < 1) return CAIRN_ERR_ARG;
  if (width > CAIRN_GRID_MAX_SIDE || height > CAIRN_GRID_MAX_SIDE)
    return CAIRN_ERR_TOO_LARGE;
  painter p = {width, height, cost, {width, height, NULL, seed}};
  size_t n = (size_t)width * (size_t)height;
  for (size_t i = 0; i < n; i++)
    if (cost[i]) cost[i] = CAIRN_TERRAIN_GROUND;
  int32_t side = width < height ? width : height;
  int64_t area = (int64_t)width * height;
  /* three patch sizes, largest first so the smaller ones show on top;
   * each size covers about a tenth of the map (a patch is ~2 r^2 cells) */
  const int32_t radii[3] = {side / 10 + 4, side / 24 + 3, side / 64 + 2};
  for (int s = 0; s < 3; s++) {
    int32_t r = radii[s];
    int64_t count = area / (20 * (int64_t)r * r) + 1;
    for (int64_t k = 0; k < count; k++) {
      uint8_t c = patch_costs[rnd(&p, (int32_t)sizeof patch_costs)];
      int32_t x = rnd(&p, width), y = rnd(&p, height);
      patch(&p, x, y, r, c);
    }
  }
  /* roads last: they cross the patches as causeways */
  int32_t roads = 2 + side / 128;
  for (int32_t k = 0; k < roads; k++) road(&p, k % 2 == 0);
  return CAIRN_OK;
}
