/*
 * bench_field_maps.c - a whole-map flow field against the plain
 * 4-connected BFS (bench_bfs.h) on any Moving AI maps, in one process: the
 * flow/field and flow/bfs_floor entries of bench_flow.c cover two maps,
 * this every map it is given. A plain program, not a Google Benchmark:
 * the ratio of the two, timed side by side, is the figure that stays
 * steady on a noisy machine.
 *
 *   cairn_bench_field_maps [--builds N] [--threads T] MAP...
 *
 * The goal is the start of the first row of the map's scenario file,
 * found as the shared data lays it out (maps/NAME.map beside
 * scen/NAME.map.scen), as in bench_flow.c. One line per map: MAP
 * field_ms bfs_ms ratio, each time the median of N builds (default 21),
 * the field built with cairn_field_build at T threads (default 1).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cairn/flowfield.h"
#include "cairn/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_bfs.h"
#include "bench_plain.h"

/* The scenario file beside map path (…/maps/X.map: …/scen/X.map.scen). */
static int scen_path(const char *map, char *out, size_t cap) {
  const char *at = strstr(map, "maps/");
  if (!at) return 0;
  const char *name = at + strlen("maps/");
  int n = snprintf(out, cap, "%.*sscen/%s.scen", (int)(at - map), map, name);
  return n > 0 && (size_t)n < cap;
}

static int load(const char *path, cairn_grid **g, cairn_point *goal) {
  char scen[4096];
  cairn_error err;
  cairn_scen *sc = NULL;
  if (!scen_path(path, scen, sizeof scen)) {
    fprintf(stderr, "%s: not under a maps/ folder beside scen/\n", path);
    return 0;
  }
  if (cairn_map_load(path, NULL, NULL, g, &err) != CAIRN_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 0;
  }
  if (cairn_scen_load(scen, NULL, &sc, &err) != CAIRN_OK || cairn_scen_count(sc) == 0) {
    fprintf(stderr, "%s: %s\n", scen, sc ? "no rows" : err.message);
    cairn_scen_destroy(sc);
    cairn_grid_destroy(*g);
    return 0;
  }
  *goal = cairn_scen_get(sc, 0)->start;
  cairn_scen_destroy(sc);
  return 1;
}

static int run_map(const char *path, int builds, int threads) {
  cairn_grid *g = NULL;
  cairn_point goal;
  if (!load(path, &g, &goal)) return 0;
  int32_t stride;
  const uint8_t *cells = cairn_grid_cells(g, &stride);
  const size_t n = (size_t)stride * (size_t)(cairn_grid_height(g) + 2);
  const uint32_t src = (uint32_t)((goal.y + 1) * stride + goal.x + 1);
  uint32_t *dist = malloc(n * sizeof *dist), *q = malloc(n * sizeof *q);
  double *tf = malloc((size_t)builds * sizeof *tf), *tb = malloc((size_t)builds * sizeof *tb);
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  int ok = dist && q && tf && tb && cairn_flow_builder_create(NULL, &b) == CAIRN_OK &&
           cairn_field_create(g, NULL, &f) == CAIRN_OK;
  cairn_flow_opts o = cairn_flow_defaults();
  o.threads = threads;
  /* one of each untimed: the builder's arrays, the caches */
  ok = ok && cairn_field_build(b, f, g, &goal, 1, &o) == CAIRN_OK;
  if (ok) bench_bfs4(cells, n, (size_t)stride, src, dist, q);
  for (int r = 0; ok && r < builds; r++) {
    const double t0 = now_ms();
    ok = cairn_field_build(b, f, g, &goal, 1, &o) == CAIRN_OK;
    const double t1 = now_ms();
    bench_bfs4(cells, n, (size_t)stride, src, dist, q);
    tf[r] = t1 - t0;
    tb[r] = now_ms() - t1;
  }
  if (ok) {
    qsort(tf, (size_t)builds, sizeof *tf, cmp_double);
    qsort(tb, (size_t)builds, sizeof *tb, cmp_double);
    const double mf = tf[builds / 2], mb = tb[builds / 2];
    printf("%s %.3f %.3f %.2f\n", path, mf, mb, mf / mb);
  } else {
    fprintf(stderr, "%s: the field could not be built\n", path);
  }
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  free(dist);
  free(q);
  free(tf);
  free(tb);
  cairn_grid_destroy(g);
  return ok;
}

int main(int argc, char **argv) {
  int builds = 21, threads = 1, i = 1, ok = 1;
  for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
    if (!strcmp(argv[i], "--builds")) builds = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
    else break;
  }
  if (i >= argc || builds < 1 || builds > 100000 || threads < 1) {
    fprintf(stderr, "usage: cairn_bench_field_maps [--builds N] [--threads T] MAP...\n");
    return 2;
  }
  for (; i < argc; i++) ok &= run_map(argv[i], builds, threads);
  return ok ? 0 : 1;
}
