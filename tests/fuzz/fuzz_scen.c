/* libFuzzer target: the .scen reader on any bytes. A refusal must carry a
 * message naming the file; every accepted row must hold what the header
 * promises (sizes 1..CAIRN_GRID_MAX_SIDE, start and goal inside the row's
 * own map, a finite optimal length >= 0). */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int inside(cairn_point p, const cairn_scen_entry *e) {
  return p.x >= 0 && p.y >= 0 && p.x < e->map_width && p.y < e->map_height;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cairn_scen *sc = NULL;
  cairn_error err;
  cairn_status st =
      cairn_scen_parse((const char *)data, size, "f.scen", NULL, &sc, &err);
  if (st != CAIRN_OK) {
    if (sc || st >= 0 || strncmp(err.message, "f.scen", 6) != 0) abort();
    return 0;
  }
  size_t n = cairn_scen_count(sc);
  if (n > CAIRN_SCEN_MAX_ROWS || !cairn_scen_map_name(sc)) abort();
  for (size_t i = 0; i < n; i++) {
    const cairn_scen_entry *e = cairn_scen_get(sc, i);
    if (!e || e->map_width < 1 || e->map_height < 1 ||
        e->map_width > CAIRN_GRID_MAX_SIDE || e->map_height > CAIRN_GRID_MAX_SIDE ||
        !inside(e->start, e) || !inside(e->goal, e) || !(e->optimal >= 0 && e->optimal <= DBL_MAX))
      abort();
  }
  if (cairn_scen_get(sc, n)) abort();
  cairn_scen_destroy(sc);
  return 0;
}
