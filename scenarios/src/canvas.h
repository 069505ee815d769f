/* A map being drawn, character by character, with its random stream: what
 * every generator of this module paints with. */
#ifndef CAIRN_CANVAS_H
#define CAIRN_CANVAS_H

#include <stdint.h>

typedef struct canvas {
  int32_t w, h;
  char *c; /* w * h characters, row by row */
  uint64_t rng;
} canvas;

/* A uniform value in [0, n) (splitmix64), n > 0. */
uint32_t canvas_rnd(canvas *m, uint32_t n);
/* The cell, or NULL off the canvas. */
char *canvas_at(canvas *m, int32_t x, int32_t y);
/* Paints the rectangle [x0, x1] x [y0, y1], clipped to the canvas; with
 * over != 0 only the cells that hold over. */
void canvas_fill(canvas *m, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                 char ch, char over);
/* A rough disc of ch within r of (cx, cy), its edge ragged by the random
 * stream, painted over open ground ('.') only, so a later feature never
 * erases an earlier one. */
void canvas_blob(canvas *m, int32_t cx, int32_t cy, int32_t r, char ch);
/* A river 3 cells wide from the top row to the bottom, wandering at most
 * `wander` columns either side of x0, with `fords` open crossings of
 * 2 * ford_half + 1 rows spaced evenly down the map. */
void canvas_river(canvas *m, int32_t x0, int32_t wander, int fords,
                  int32_t ford_half);

#endif
