/* libFuzzer target: the .map reader on any bytes. A refusal must carry a
 * message naming the file; an accepted map must be consistent (size in
 * range, passable count equal to the cells' own count, fresh islands). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t count_passable(const cairn_grid *g) {
  size_t n = 0;
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 0; x < cairn_grid_width(g); x++)
      n += cairn_grid_cost(g, x, y) != 0;
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cairn_grid *g = NULL;
  cairn_error err;
  cairn_status st =
      cairn_map_parse((const char *)data, size, "f.map", NULL, NULL, &g, &err);
  if (st != CAIRN_OK) {
    if (g || st >= 0 || strncmp(err.message, "f.map", 5) != 0) abort();
    return 0;
  }
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  if (w < 1 || h < 1 || w > CAIRN_GRID_MAX_SIDE || h > CAIRN_GRID_MAX_SIDE)
    abort();
  if (count_passable(g) != cairn_grid_passable(g)) abort();
  if (!cairn_grid_islands_fresh(g)) abort();
  cairn_grid_destroy(g);
  return 0;
}
