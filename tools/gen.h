/* The map and scenario writers of cairn gen that work from a file (the
 * demo maps are in cmd_gen.c). Each returns an exit code, its errors
 * printed, naming the file. */
#ifndef CAIRN_GEN_H
#define CAIRN_GEN_H

#include <stdint.h>

/* cairn gen --kind terrain: a terrain variant of the map at `from`
 * (cairn_terrain_variant_generate), written to `out`. */
int gen_terrain(const char *from, uint64_t seed, const char *out);
/* cairn gen --kind scen: `rows` scenario rows on the map at `map`
 * (cairn_scen_rows_generate), written to `out` as a Moving AI .scen. */
int gen_scen(const char *map, long rows, uint64_t seed, const char *out);

#endif
