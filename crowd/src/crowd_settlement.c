/* The "night of the dead" settlement generator: a walled town with four
 * gates, houses, fields, forest and a river with fords. */
#include "crowd_internal.h"

#include <string.h>

typedef struct canvas {
  int32_t w, h;
  char *c;
  uint64_t rng;
} canvas;

static uint32_t rnd(canvas *m, uint32_t n) {
  uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) % n);
}

/* The cell, or NULL off the canvas. */
static char *at(canvas *m, int32_t x, int32_t y) {
  if (x < 0 || y < 0 || x >= m->w || y >= m->h) return NULL;
  return &m->c[(size_t)y * (size_t)m->w + (size_t)x];
}

static void fill_rect(canvas *m, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                      char ch, char over) {
  for (int32_t y = y0; y <= y1; y++)
    for (int32_t x = x0; x <= x1; x++) {
      char *p = at(m, x, y);
      if (p && (!over || *p == over)) *p = ch;
    }
}

/* A rough disc of trees over open ground only. */
static void grove(canvas *m, int32_t cx, int32_t cy, int32_t r) {
  for (int32_t y = cy - r; y <= cy + r; y++)
    for (int32_t x = cx - r; x <= cx + r; x++) {
      int32_t d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      int32_t edge = r * r - (int32_t)rnd(m, (uint32_t)r + 1) * r / 2;
      char *p = at(m, x, y);
      if (p && d2 <= edge && *p == '.') *p = 'T';
    }
}

/* A river from top to bottom, 3 cells wide, meandering around x0, with a
 * ford 7 rows wide at each of `fords` heights. */
static void river(canvas *m, int32_t x0, int fords) {
  int32_t x = x0;
  for (int32_t y = 0; y < m->h; y++) {
    int ford = 0;
    for (int k = 1; k <= fords; k++) {
      int32_t fy = k * m->h / (fords + 1);
      ford |= y >= fy - 3 && y <= fy + 3;
    }
    for (int32_t dx = 0; dx < 3; dx++) {
      char *p = at(m, x + dx, y);
      if (p) *p = ford ? '.' : 'W';
    }
    x += (int32_t)rnd(m, 3) - 1;
    if (x < x0 - 8) x = x0 - 8;
    if (x > x0 + 8) x = x0 + 8;
  }
}

/* The town: a wall ring with two gates on each side, a third and two
 * thirds along it, streets running in from them, houses in the blocks
 * between. */
static void town(canvas *m, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  fill_rect(m, x0, y0, x1, y1, '@', 0);
  fill_rect(m, x0 + 1, y0 + 1, x1 - 1, y1 - 1, '.', 0);
  int32_t g = CAIRN_SETTLEMENT_GATE, gx[2], gy[2];
  for (int k = 0; k < 2; k++) {
    gx[k] = x0 + (x1 - x0) * (k + 1) / 3 - g / 2;
    gy[k] = y0 + (y1 - y0) * (k + 1) / 3 - g / 2;
    fill_rect(m, gx[k], y0, gx[k] + g - 1, y0, 'G', 0);
    fill_rect(m, gx[k], y1, gx[k] + g - 1, y1, 'G', 0);
    fill_rect(m, x0, gy[k], x0, gy[k] + g - 1, 'G', 0);
    fill_rect(m, x1, gy[k], x1, gy[k] + g - 1, 'G', 0);
  }
  for (int32_t hy = y0 + 3; hy + 4 < y1; hy += 7)
    for (int32_t hx = x0 + 3; hx + 5 < x1; hx += 8) {
      int street = 0;
      for (int k = 0; k < 2; k++) {
        street |= hx + 6 >= gx[k] - 1 && hx <= gx[k] + g; /* north-south */
        street |= hy + 5 >= gy[k] - 1 && hy <= gy[k] + g; /* east-west */
      }
      if (street) continue;
      fill_rect(m, hx, hy, hx + 2 + (int32_t)rnd(m, 3), hy + 1 + (int32_t)rnd(m, 3), '@', 0);
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
    int32_t fx = (int32_t)rnd(&m, (uint32_t)(width - 16)), fy = (int32_t)rnd(&m, (uint32_t)(height - 16));
    fill_rect(&m, fx, fy, fx + 6 + (int32_t)rnd(&m, 10), fy + 4 + (int32_t)rnd(&m, 8), 'S', '.');
  }
  /* forest groves, none on the town's approaches */
  int32_t n_groves = width * height / 1400;
  for (int32_t k = 0; k < n_groves; k++) {
    int32_t gx = (int32_t)rnd(&m, (uint32_t)width), gy = (int32_t)rnd(&m, (uint32_t)height);
    if (gx > x0 - 12 && gx < x1 + 12 && gy > y0 - 12 && gy < y1 + 12) continue;
    grove(&m, gx, gy, 2 + (int32_t)rnd(&m, 4));
  }
  river(&m, width / 5, 4);
  /* a clear ring of open ground around the wall, then the town */
  fill_rect(&m, x0 - 4, y0 - 4, x1 + 4, y1 + 4, '.', 0);
  town(&m, x0, y0, x1, y1);
  return CAIRN_OK;
}
