/* The fixed map the loader targets share (fuzz_hpa_load.c,
 * fuzz_path_cache_load.c): 32 x 32 cells of rooms 7 x 7 behind walls, a
 * door in the middle of each wall (few entrances keep the saves small), a
 * few walls and dearer cells inside, from a fixed generator, so every run
 * and every seed sees the same cells. The doors are `door` cells wide (1
 * or 3): wide doors let units of sizes 2 and 3 from room to room, so a
 * hierarchy for larger units has sized tables to save. Their seed corpora
 * are saves made on it: changing it changes them. */
#ifndef CAIRN_FUZZ_ROOMS_H
#define CAIRN_FUZZ_ROOMS_H

#include <stdint.h>
#include <stdlib.h>

#include "cairn/core.h"

enum { FUZZ_ROOMS_SIDE = 32 };

static inline cairn_grid *fuzz_rooms_grid(int door) {
  cairn_grid *g = NULL;
  if (cairn_grid_create(FUZZ_ROOMS_SIDE, FUZZ_ROOMS_SIDE, 1, NULL, &g) != CAIRN_OK) abort();
  uint32_t s = 12345;
  for (int32_t y = 0; y < FUZZ_ROOMS_SIDE; y++)
    for (int32_t x = 0; x < FUZZ_ROOMS_SIDE; x++) {
      s = s * 1103515245u + 12345u;
      const uint32_t r = (s >> 16) % 100;
      /* the door's rows (columns) of a wall: 3, or 2 to 4 */
      const int dy = y % 8 - 3, dx = x % 8 - 3, half = door / 2;
      const int wall = (x % 8 == 7 && (dy < -half || dy > half)) ||
                       (y % 8 == 7 && (dx < -half || dx > half));
      const uint8_t cost = wall || r < 6 ? 0 : r < 80 ? 1 : 2;
      if (cairn_grid_set_cost(g, x, y, cost) != CAIRN_OK) abort();
    }
  if (cairn_grid_update_islands(g) != CAIRN_OK) abort();
  return g;
}

#endif
