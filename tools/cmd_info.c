/* cairn info: what a map holds. */
#include <stdlib.h>
#include <string.h>

#include "cairn/dead_ends.h"
#include "cli.h"

static const char *const value_opts[] = {"--map", "--terrain", NULL};

int cmd_info(int argc, char **argv) {
  const char *map = NULL;
  bool json = false;
  cairn_terrain terrain;
  cairn_terrain_movingai(&terrain);
  cli_args a;
  cli_args_init(&a, argc, argv);
  while (cli_next(&a)) {
    const char *v;
    if (cli_is(&a, "--json")) {
      json = true;
    } else if (!a.opt || !cli_is_any(&a, value_opts)) {
      cli_error("info: unexpected '%s'", a.opt ? a.opt : a.val);
      return EXIT_USAGE;
    } else if (!(v = cli_value(&a))) {
      return EXIT_USAGE;
    } else if (cli_is(&a, "--map")) {
      map = v;
    } else if (cli_is(&a, "--terrain")) {
      if (!cli_parse_terrain(v, &terrain)) return EXIT_USAGE;
    }
  }
  if (!map) {
    cli_error("info needs --map FILE");
    return EXIT_USAGE;
  }
  cairn_grid *g = cli_load_map(map, &terrain);
  if (!g) return EXIT_BADINPUT;
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  size_t hist[256] = {0};
  uint32_t islands = cairn_grid_island_count(g);
  size_t *island_size = calloc((size_t)islands + 1, sizeof *island_size);
  if (!island_size) {
    cli_error("out of memory");
    cairn_grid_destroy(g);
    return EXIT_RUNTIME;
  }
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      hist[cairn_grid_cost(g, x, y)]++;
      island_size[cairn_grid_island(g, x, y)]++;
    }
  size_t largest = 0;
  for (uint32_t i = 1; i <= islands; i++)
    if (island_size[i] > largest) largest = island_size[i];
  free(island_size);
  /* the dead ends the searches can skip (cairn scen --dead-ends) */
  cairn_dead_ends *de = NULL;
  cairn_dead_ends_stats ds;
  if (cairn_dead_ends_create(g, NULL, &de) != CAIRN_OK) {
    cli_error("out of memory");
    cairn_grid_destroy(g);
    return EXIT_RUNTIME;
  }
  cairn_dead_ends_get_stats(de, &ds);
  cairn_dead_ends_destroy(de);
  if (json) {
    printf("{\"map\":\"%s\",\"width\":%d,\"height\":%d,\"passable\":%zu,"
           "\"components\":%u,\"largest_component\":%zu,\"terrain\":{",
           map, w, h, cairn_grid_passable(g), islands, largest);
    bool first = true;
    for (int c = 0; c < 256; c++)
      if (hist[c]) {
        printf("%s\"%d\":%zu", first ? "" : ",", c, hist[c]);
        first = false;
      }
    printf("},\"dead_end_areas\":%u,\"dead_end_gates\":%u,\"dead_end_doors\":%u,"
           "\"dead_end_cells\":%zu,\"dead_end_depth\":%u,\"swamps\":%u,\"swamp_cells\":%zu}\n",
           ds.areas, ds.gates, ds.doors, ds.cells, ds.depth, ds.swamps, ds.swamp_cells);
  } else {
    printf("map         %s\n", map);
    printf("size        %d x %d (%zu cells)\n", w, h, (size_t)w * (size_t)h);
    printf("passable    %zu cells (%.1f%%)\n", cairn_grid_passable(g),
           100.0 * (double)cairn_grid_passable(g) / ((double)w * (double)h));
    printf("components  %u (largest %zu cells)\n", islands, largest);
    printf("dead ends   %u areas behind %u gates (%u areas behind doors), %zu cells "
           "(%.1f%% of passable), nested %u deep\n",
           ds.areas, ds.gates, ds.doors, ds.cells,
           ds.open ? 100.0 * (double)ds.cells / (double)ds.open : 0.0, ds.depth);
    printf("swamps      %u room corners, %zu cells (%.1f%% of passable)\n", ds.swamps,
           ds.swamp_cells, ds.open ? 100.0 * (double)ds.swamp_cells / (double)ds.open : 0.0);
    printf("terrain     cost: cells\n");
    for (int c = 0; c < 256; c++)
      if (hist[c])
        printf("            %3d: %zu%s\n", c, hist[c], c == 0 ? " (blocked)" : "");
  }
  cairn_grid_destroy(g);
  return EXIT_DONE;
}
