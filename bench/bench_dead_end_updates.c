/*
 * bench_dead_end_updates.c - what keeping a dead-end table current costs:
 * a wall put up at a random open cell and taken down again, the table
 * updated after each (cairn_dead_ends_update), on Moving AI maps. A plain
 * program, not a Google Benchmark: the updates differ from cell to cell
 * (inside one dead end the update searches that dead end alone, elsewhere
 * the whole grid), so it prints their mean and median over a fixed seeded
 * sequence of cells, the same for every build.
 *
 *   cairn_bench_dead_end_updates [--edits N] [--seed S] MAP...
 *
 * One line per map: MAP  updates  mean_ms  median_ms  whole (updates that
 * searched the whole grid, cairn_dead_ends_stats.whole_searches less the
 * create's)
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cairn/dead_ends.h"
#include "cairn/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_plain.h"

static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* One update after the edit, timed into times[*n]. */
static int timed_update(cairn_dead_ends *de, double *times, size_t *n) {
  double t0 = now_ms();
  cairn_status st = cairn_dead_ends_update(de);
  times[(*n)++] = now_ms() - t0;
  if (st == CAIRN_OK) return 1;
  fprintf(stderr, "update failed: %s\n", cairn_status_str(st));
  return 0;
}

static int run_map(const char *path, long edits, uint64_t seed) {
  cairn_grid *g = NULL;
  cairn_error err;
  if (cairn_map_load(path, NULL, NULL, &g, &err) != CAIRN_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 0;
  }
  cairn_dead_ends *de = NULL;
  double *times = malloc(2 * (size_t)edits * sizeof *times);
  if (!times || cairn_dead_ends_create(g, NULL, &de) != CAIRN_OK) {
    fprintf(stderr, "%s: out of memory\n", path);
    free(times);
    cairn_grid_destroy(g);
    return 0;
  }
  const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  size_t n = 0;
  int ok = 1;
  for (long e = 0; e < edits && ok; e++) {
    int32_t x, y;
    do {
      x = (int32_t)(next_rand(&seed) % (uint64_t)w);
      y = (int32_t)(next_rand(&seed) % (uint64_t)h);
    } while (!cairn_grid_cost(g, x, y));
    const uint8_t was = (uint8_t)cairn_grid_cost(g, x, y);
    ok = cairn_grid_set_cost(g, x, y, 0) == CAIRN_OK && timed_update(de, times, &n) &&
         cairn_grid_set_cost(g, x, y, was) == CAIRN_OK && timed_update(de, times, &n);
  }
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += times[i];
  qsort(times, n, sizeof *times, cmp_double);
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  cairn_dead_ends_stats ds;
  cairn_dead_ends_get_stats(de, &ds);
  if (ok && n) /* the create's whole search is not an update */
    printf("%-24s %8zu %9.3f %9.3f %8llu\n", name, n, sum / (double)n, times[n / 2],
           (unsigned long long)(ds.whole_searches - 1));
  free(times);
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
  return ok;
}

int main(int argc, char **argv) {
  long edits = 100;
  uint64_t seed = 7;
  int first = 1;
  while (first + 1 < argc && argv[first][0] == '-') {
    if (!strcmp(argv[first], "--edits")) edits = atol(argv[first + 1]);
    else if (!strcmp(argv[first], "--seed")) seed = (uint64_t)atoll(argv[first + 1]);
    else break;
    first += 2;
  }
  if (first >= argc || edits < 1) {
    fprintf(stderr, "usage: cairn_bench_dead_end_updates [--edits N] [--seed S] MAP...\n");
    return 2;
  }
  printf("%-24s %8s %9s %9s %8s\n", "map", "updates", "mean_ms", "median_ms", "whole");
  int ok = 1;
  for (int i = first; i < argc; i++) ok &= run_map(argv[i], edits, seed);
  return ok ? 0 : 1;
}
