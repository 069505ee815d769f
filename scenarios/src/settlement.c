/* The "night of the dead" settlement generator: a walled town with four
 * gates, houses, fields, forest and a river with fords. */
#include "cairn_scenarios.h"
#include "canvas.h"

#include <string.h>

/* The town: a wall ring with two gates on each side, a third and two
 * thirds along it, streets running in from them, houses in the blocks
 * between. */
static void town(canvas *m, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  canvas_fill(m, x0, y0, x1, y1, '@', 0);
  canvas_fill(m, x0 + 1, y0 + 1, x1 - 1, y1 - 1, '.', 0);
  int32_t g = CAIRN_SETTLEMENT_GATE, gx[2], gy[2];
  for (int k = 0; k < 2; k++) {
    gx[k] = x0 + (x1 - x0) * (k + 1) / 3 - g / 2;
    gy[k] = y0 + (y1 - y0) * (k + 1) / 3 - g / 2;
    canvas_fill(m, gx[k], y0, gx[k] + g - 1, y0, 'G', 0);
    canvas_fill(m, gx[k], y1, gx[k] + g - 1, y1, 'G', 0);
    canvas_fill(m, x0, gy[k], x0, gy[k] + g - 1, 'G', 0);
    canvas_fill(m, x1, gy[k], x1, gy[k] + g - 1, 'G', 0);
  }
  for (int32_t hy = y0 + 3; hy + 4 < y1; hy += 7)
    for (int32_t hx = x0 + 3; hx + 5 < x1; hx += 8) {
      int street = 0;
      for (int k = 0; k < 2; k++) {
        street |= hx + 6 >= gx[k] - 1 && hx <= gx[k] + g; /* north-south */
        street |= hy + 5 >= gy[k] - 1 && hy <= gy[k] + g; /* east-west */
      }
      if (street) continue;
      /* the height is drawn before the width: the order the maps in maps/
       * were made with */
      int32_t hh = 1 + (int32_t)canvas_rnd(m, 3);
      int32_t hw = 2 + (int32_t)canvas_rnd(m, 3);
      canvas_fill(m, hx, hy, hx + hw, hy + hh, '@', 0);
    }
}

cairn_status cairn_settlement_generate(int32_t width, int32_t height,
                                       uint64_t seed, char *out) {
  if (!out || width < 64 || height < 64) return CAIRN_ERR_ARG;
  if (width > CAIRN_GRID_MAX_SIDE || height > CAIRN_GRID_MAX_SIDE)
    return CAIRN_ERR_TOO_LARGE;
  canvas m = {width, height, out, seed};
  memset(out, '.', (size_t)width * (size_t)height);
  int32_t x0 = width * 3 / 8, x1 = width * 5 / 8, y0 = height * 3 / 8, y1 = height * 5 / 8;
  /* fields: rectangles of farmland around the town, kept off its wall */
  int32_t n_fields = (width / 32) * (height / 32);
  for (int32_t k = 0; k < n_fields; k++) {
    int32_t fx = (int32_t)canvas_rnd(&m, (uint32_t)(width - 16));
    int32_t fy = (int32_t)canvas_rnd(&m, (uint32_t)(height - 16));
    int32_t fh = 4 + (int32_t)canvas_rnd(&m, 8); /* height first, as above */
    int32_t fw = 6 + (int32_t)canvas_rnd(&m, 10);
    canvas_fill(&m, fx, fy, fx + fw, fy + fh, 'S', '.');
  }
  /* forest groves, none on the town's approaches */
  int32_t n_groves = width * height / 1400;
  for (int32_t k = 0; k < n_groves; k++) {
    int32_t gx = (int32_t)canvas_rnd(&m, (uint32_t)width);
    int32_t gy = (int32_t)canvas_rnd(&m, (uint32_t)height);
    if (gx > x0 - 12 && gx < x1 + 12 && gy > y0 - 12 && gy < y1 + 12) continue;
    canvas_blob(&m, gx, gy, 2 + (int32_t)canvas_rnd(&m, 4), 'T');
  }
  canvas_river(&m, width / 5, 8, 4, 3);
  /* a clear ring of open ground around the wall, then the town */
  canvas_fill(&m, x0 - 4, y0 - 4, x1 + 4, y1 + 4, '.', 0);
  town(&m, x0, y0, x1, y1);
  return CAIRN_OK;
}
