/* cairn gen --kind terrain: the map read, its costs handed to the
 * scenarios module's terrain painter, the grid written back. Walls keep
 * their characters (the writer keeps a glyph whose cost still holds);
 * open cells are written as '.' (cost 1) or the digit of their cost. */
#include <stdlib.h>

#include "cairn_scenarios.h"
#include "cli.h"
#include "gen.h"

static uint8_t *costs_of(const cairn_grid *g, size_t *open) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  uint8_t *c = malloc((size_t)w * (size_t)h);
  *open = 0;
  if (!c) return NULL;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      uint8_t v = cairn_grid_cost(g, x, y);
      c[(size_t)y * (size_t)w + (size_t)x] = v;
      *open += v != 0;
    }
  return c;
}

/* An open cell whose cost did not change would keep its old glyph ('S' or
 * 'G' on a road of cost 1): it goes through another cost first, which
 * drops the glyph, so every painted cell is written as '.' or a digit. */
static void set_costs(cairn_grid *g, const uint8_t *c) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      uint8_t v = c[(size_t)y * (size_t)w + (size_t)x];
      if (v && v == cairn_grid_cost(g, x, y)) cairn_grid_set_cost(g, x, y, v == 1 ? 2 : 1);
      cairn_grid_set_cost(g, x, y, v);
    }
}

int gen_terrain(const char *from, uint64_t seed, const char *out) {
  cairn_grid *g = cli_load_map(from, NULL);
  if (!g) return EXIT_BADINPUT;
  size_t open = 0;
  uint8_t *c = costs_of(g, &open);
  int rc = EXIT_RUNTIME;
  if (!c) {
    cli_error("out of memory");
  } else if (!open) {
    cli_error("%s: the map has no open cell to lay terrain on", from);
    rc = EXIT_BADINPUT;
  } else {
    cairn_status st = cairn_terrain_variant_generate(cairn_grid_width(g),
                                                     cairn_grid_height(g), seed, c);
    cairn_error err;
    if (st != CAIRN_OK) {
      cli_error("%s: %s", from, cairn_status_str(st));
    } else {
      set_costs(g, c);
      if (cairn_map_save(g, out, NULL, &err) != CAIRN_OK) cli_error("%s", err.message);
      else rc = EXIT_DONE;
    }
  }
  free(c);
  cairn_grid_destroy(g);
  return rc;
}
