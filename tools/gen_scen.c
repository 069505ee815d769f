/* cairn gen --kind scen: rows from the scenarios module's generator
 * (optimal costs from the core's Dijkstra) written as a Moving AI
 * "version 1" scenario file. The map field holds the map's file name,
 * which cairn scen looks for beside the .scen (or in ../maps/). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cairn_scenarios.h"
#include "cli.h"
#include "gen.h"

/* The file name of path, without directories (either separator). */
static const char *base_name(const char *path) {
  const char *b = path;
  for (const char *p = path; *p; p++)
    if (*p == '/' || *p == '\\') b = p + 1;
  return b;
}

/* Eight decimals: a cost is a multiple of 2^-16, so the printed value is
 * within 5e-9 of it, far inside cairn scen's 1e-5 relative tolerance. */
static bool write_scen(const char *out, const char *map_name,
                       const cairn_scen_entry *e, size_t n) {
  FILE *f = fopen(out, "w");
  if (!f) return false;
  bool ok = fprintf(f, "version 1\n") > 0;
  for (size_t k = 0; ok && k < n; k++)
    ok = fprintf(f, "%u\t%s\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\t%.8f\n", e[k].bucket, map_name,
                 (long)e[k].map_width, (long)e[k].map_height, (long)e[k].start.x,
                 (long)e[k].start.y, (long)e[k].goal.x, (long)e[k].goal.y,
                 e[k].optimal) > 0;
  if (fclose(f) != 0) ok = false;
  return ok;
}

static int report(cairn_status st, const char *map) {
  if (st == CAIRN_NO_PATH) {
    cli_error("%s: no two open cells are connected: no scenario row to make", map);
    return EXIT_BADINPUT;
  }
  cli_error("%s: cannot make the scenario rows: %s", map, cairn_status_str(st));
  return EXIT_RUNTIME;
}

int gen_scen(const char *map, long rows, uint64_t seed, const char *out) {
  /* the format splits fields on blanks: a map name holding one could not
   * be read back */
  if (strpbrk(base_name(map), " \t")) {
    cli_error("%s: a scenario file cannot name a map whose file name has a blank", map);
    return EXIT_USAGE;
  }
  cairn_grid *g = cli_load_map(map, NULL);
  if (!g) return EXIT_BADINPUT;
  cairn_scen_entry *e = malloc((size_t)rows * sizeof *e);
  int rc = EXIT_RUNTIME;
  if (!e) {
    cli_error("out of memory");
  } else {
    cairn_status st = cairn_scen_rows_generate(g, (size_t)rows, seed, e);
    if (st != CAIRN_OK) rc = report(st, map);
    else if (!write_scen(out, base_name(map), e, (size_t)rows))
      cli_error("%s: cannot write the scenario file: %s", out, strerror(errno));
    else rc = EXIT_DONE;
  }
  free(e);
  cairn_grid_destroy(g);
  return rc;
}
