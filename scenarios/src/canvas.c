#include "canvas.h"

#include <stddef.h>

uint32_t canvas_rnd(canvas *m, uint32_t n) {
  uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) % n);
}

char *canvas_at(canvas *m, int32_t x, int32_t y) {
  if (x < 0 || y < 0 || x >= m->w || y >= m->h) return NULL;
  return &m->c[(size_t)y * (size_t)m->w + (size_t)x];
}

void canvas_fill(canvas *m, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                 char ch, char over) {
  for (int32_t y = y0; y <= y1; y++)
    for (int32_t x = x0; x <= x1; x++) {
      char *p = canvas_at(m, x, y);
      if (p && (!over || *p == over)) *p = ch;
    }
}

void canvas_blob(canvas *m, int32_t cx, int32_t cy, int32_t r, char ch) {
  for (int32_t y = cy - r; y <= cy + r; y++)
    for (int32_t x = cx - r; x <= cx + r; x++) {
      int32_t d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      /* drawn for every cell, painted or not: the stream stays in step */
      int32_t edge = r * r - (int32_t)canvas_rnd(m, (uint32_t)r + 1) * r / 2;
      char *p = canvas_at(m, x, y);
      if (p && d2 <= edge && *p == '.') *p = ch;
    }
}

void canvas_river(canvas *m, int32_t x0, int32_t wander, int fords,
                  int32_t ford_half) {
  int32_t x = x0;
  for (int32_t y = 0; y < m->h; y++) {
    int ford = 0;
    for (int k = 1; k <= fords; k++) {
      int32_t fy = k * m->h / (fords + 1);
      ford |= y >= fy - ford_half && y <= fy + ford_half;
    }
    for (int32_t dx = 0; dx < 3; dx++) {
      char *p = canvas_at(m, x + dx, y);
      if (p) *p = ford ? '.' : 'W';
    }
    x += (int32_t)canvas_rnd(m, 3) - 1;
    if (x < x0 - wander) x = x0 - wander;
    if (x > x0 + wander) x = x0 + wander;
  }
}
