/* The hamlet's outskirts, `cairn gen`'s default map: forest, swamp, a river
 * with fords, and a walled hamlet with gates and houses. */
#include "cairn_scenarios.h"
#include "canvas.h"

#include <stdlib.h>
#include <string.h>

static void put(canvas *m, int32_t x, int32_t y, char ch) {
  char *p = canvas_at(m, x, y);
  if (p) *p = ch;
}

/* The walled hamlet: a ring wall with gates west, north and south, and
 * houses inside, off the streets that run in from the gates. */
static void hamlet(canvas *m, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  canvas_fill(m, x0, y0, x1, y1, '@', 0);
  canvas_fill(m, x0 + 1, y0 + 1, x1 - 1, y1 - 1, '.', 0);
  int32_t my = (y0 + y1) / 2, mx = (x0 + x1) / 2;
  for (int32_t d = -1; d <= 1; d++) {
    put(m, x0, my + d, '.'); /* west gate */
    put(m, mx + d, y0, '.'); /* north gate */
    put(m, mx + d, y1, '.'); /* south gate */
  }
  for (int32_t hy = y0 + 3; hy + 3 < y1 - 1; hy += 7)
    for (int32_t hx = x0 + 3; hx + 4 < x1 - 1; hx += 8) {
      if (abs(hx + 2 - mx) < 3 || abs(hy + 1 - my) < 3) continue; /* streets */
      canvas_fill(m, hx, hy, hx + 3, hy + 2, '@', 0);
    }
}

cairn_status cairn_outskirts_generate(int32_t width, int32_t height,
                                      uint64_t seed, char *out) {
  if (!out || width < 40 || height < 30) return CAIRN_ERR_ARG;
  if (width > CAIRN_GRID_MAX_SIDE || height > CAIRN_GRID_MAX_SIDE)
    return CAIRN_ERR_TOO_LARGE;
  canvas m = {width, height, out, seed};
  memset(out, '.', (size_t)width * (size_t)height);
  int32_t hx0 = width * 3 / 4 - 2, hy0 = height / 4, hx1 = width - 4, hy1 = height * 3 / 4;
  hamlet(&m, hx0, hy0, hx1, hy1);
  canvas_river(&m, width / 2, 6, 3, 1);
  int32_t area = width * height;
  /* each feature draws its size, row and column in that order: the order
   * the maps in maps/ were made with */
  for (int32_t k = 0; k < area / 300; k++) { /* forest */
    int32_t r = 2 + (int32_t)canvas_rnd(&m, 4);
    int32_t y = (int32_t)canvas_rnd(&m, (uint32_t)height);
    int32_t x = (int32_t)canvas_rnd(&m, (uint32_t)(hx0 - 2));
    canvas_blob(&m, x, y, r, 'T');
  }
  for (int32_t k = 0; k < area / 1500 + 1; k++) { /* swamp */
    int32_t r = 3 + (int32_t)canvas_rnd(&m, 4);
    int32_t y = (int32_t)canvas_rnd(&m, (uint32_t)height);
    int32_t x = (int32_t)canvas_rnd(&m, (uint32_t)(hx0 - 4));
    canvas_blob(&m, x, y, r, 'S');
  }
  return CAIRN_OK;
}
