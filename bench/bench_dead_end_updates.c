/*
 * bench_dead_end_updates.c - what keeping a dead-end table current costs:
 * a wall put up at a random open cell and taken down again, the table
 * updated after each (cairn_dead_ends_update), on Moving AI maps. A plain
 * program, not a Google Benchmark: the updates differ from cell to cell
 * (inside one dead end the update searches that dead end alone, elsewhere
 * the whole grid), so it prints their mean and median over a fixed seeded
 * sequence of cells, the same for every build.
 *
 *   cairn_bench_dead_end_updates [--edits N] [--seed S] [--areas] MAP...
 *
 * One line per map: MAP  updates  mean_ms  median_ms  whole (updates that
 * searched the whole grid, cairn_dead_ends_stats.whole_searches less the
 * create's). With --areas (untimed work between the updates) two more:
 * same, the whole searches after which every area held the same cells as
 * before (an update that proved as much could have stayed local), and
 * reach, the farthest (in steps, 8-way) any cell whose area moved lies
 * from the edited cell over the others (-1: none moved).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cairn/dead_ends.h"
#include "cairn/io.h"

#include <stdbool.h>
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

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* What --areas compares: every cell's area before an update, the
 * (before, after) pairs of the cells open both times, and per area its
 * partner (the area most of its cells went to, or came from). */
typedef struct area_diff {
  uint32_t *before;
  uint64_t *pairs, *fwd, *back;
  size_t n_fwd, n_back;
  long same;    /* whole searches that left every area's cells */
  int32_t reach; /* the farthest moved cell from its edit, -1 for none */
} area_diff;

static void diff_snapshot(area_diff *d, const cairn_dead_ends *de, int32_t w, int32_t h) {
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) d->before[(size_t)y * (size_t)w + (size_t)x] =
        cairn_dead_ends_area(de, x, y);
}

/* The sorted pairs (key, value) of `pairs` (n, sorted) into out as key <<
 * 32 | the value most pairs with that key hold (the least on a tie);
 * returns how many keys. */
static size_t partners(const uint64_t *pairs, size_t n, uint64_t *out) {
  size_t m = 0, best = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && pairs[j] == pairs[i]) j++;
    const bool fresh = !m || out[m - 1] >> 32 != pairs[i] >> 32;
    if (fresh) out[m++] = pairs[i], best = j - i;
    else if (j - i > best) out[m - 1] = pairs[i], best = j - i;
    i = j;
  }
  return m;
}

/* The partner of `key` in the m sorted entries of list. */
static uint32_t partner_of(const uint64_t *list, size_t m, uint32_t key) {
  size_t lo = 0, hi = m;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if ((uint32_t)(list[mid] >> 32) < key) lo = mid + 1;
    else hi = mid;
  }
  return (uint32_t)list[lo];
}

/* After a whole search for the edit of cell (ex, ey), the only cell whose
 * openness moved: whether some other open cell's area moved (its area
 * before and after are not each other's partners: ids may move, cells
 * not; area 0 is the cells in no dead end), counted into d. */
static void diff_after(area_diff *d, const cairn_dead_ends *de, const cairn_grid *g, int32_t ex,
                       int32_t ey) {
  const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  size_t n = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const size_t i = (size_t)y * (size_t)w + (size_t)x;
      if (cairn_grid_cost(g, x, y) && (x != ex || y != ey))
        d->pairs[n++] = (uint64_t)d->before[i] << 32 | cairn_dead_ends_area(de, x, y);
    }
  qsort(d->pairs, n, sizeof *d->pairs, cmp_u64);
  d->n_fwd = partners(d->pairs, n, d->fwd);
  for (size_t i = 0; i < n; i++) d->pairs[i] = d->pairs[i] << 32 | d->pairs[i] >> 32;
  qsort(d->pairs, n, sizeof *d->pairs, cmp_u64);
  d->n_back = partners(d->pairs, n, d->back);
  int32_t far = -1;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const size_t i = (size_t)y * (size_t)w + (size_t)x;
      const uint32_t a = d->before[i], b = cairn_dead_ends_area(de, x, y);
      if (!cairn_grid_cost(g, x, y) || (x == ex && y == ey)) continue;
      if (partner_of(d->fwd, d->n_fwd, a) == b && partner_of(d->back, d->n_back, b) == a) continue;
      const int32_t dx = abs(x - ex), dy = abs(y - ey), steps = dx > dy ? dx : dy;
      if (steps > far) far = steps;
    }
  if (far < 0) d->same++;
  else if (far > d->reach) d->reach = far;
}

/* One update after the edit, timed into times[*n]; with d (--areas), the
 * areas compared when it searched the whole grid. */
static int timed_update(cairn_dead_ends *de, const cairn_grid *g, int32_t x, int32_t y,
                        area_diff *d, double *times, size_t *n) {
  cairn_dead_ends_stats was, now;
  cairn_dead_ends_get_stats(de, &was);
  if (d) diff_snapshot(d, de, cairn_grid_width(g), cairn_grid_height(g));
  double t0 = now_ms();
  cairn_status st = cairn_dead_ends_update(de);
  times[(*n)++] = now_ms() - t0;
  if (st != CAIRN_OK) {
    fprintf(stderr, "update failed: %s\n", cairn_status_str(st));
    return 0;
  }
  cairn_dead_ends_get_stats(de, &now);
  if (d && now.whole_searches > was.whole_searches) diff_after(d, de, g, x, y);
  return 1;
}

static void diff_free(area_diff *d) {
  free(d->before);
  free(d->pairs);
  free(d->fwd);
  free(d->back);
}

static bool diff_alloc(area_diff *d, size_t cells) {
  d->before = malloc(cells * sizeof *d->before);
  d->pairs = malloc(cells * sizeof *d->pairs);
  d->fwd = malloc(cells * sizeof *d->fwd);
  d->back = malloc(cells * sizeof *d->back);
  d->same = 0;
  d->reach = -1;
  return d->before && d->pairs && d->fwd && d->back;
}

static int run_map(const char *path, long edits, uint64_t seed, bool areas) {
  cairn_grid *g = NULL;
  cairn_error err;
  if (cairn_map_load(path, NULL, NULL, &g, &err) != CAIRN_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 0;
  }
  const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  cairn_dead_ends *de = NULL;
  area_diff diff = {0};
  double *times = malloc(2 * (size_t)edits * sizeof *times);
  if (!times || (areas && !diff_alloc(&diff, (size_t)w * (size_t)h)) ||
      cairn_dead_ends_create(g, NULL, &de) != CAIRN_OK) {
    fprintf(stderr, "%s: out of memory\n", path);
    free(times);
    diff_free(&diff);
    cairn_grid_destroy(g);
    return 0;
  }
  area_diff *d = areas ? &diff : NULL;
  size_t n = 0;
  int ok = 1;
  for (long e = 0; e < edits && ok; e++) {
    int32_t x, y;
    do {
      x = (int32_t)(next_rand(&seed) % (uint64_t)w);
      y = (int32_t)(next_rand(&seed) % (uint64_t)h);
    } while (!cairn_grid_cost(g, x, y));
    const uint8_t was = (uint8_t)cairn_grid_cost(g, x, y);
    ok = cairn_grid_set_cost(g, x, y, 0) == CAIRN_OK && timed_update(de, g, x, y, d, times, &n) &&
         cairn_grid_set_cost(g, x, y, was) == CAIRN_OK && timed_update(de, g, x, y, d, times, &n);
  }
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += times[i];
  qsort(times, n, sizeof *times, cmp_double);
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  cairn_dead_ends_stats ds;
  cairn_dead_ends_get_stats(de, &ds);
  if (ok && n) { /* the create's whole search is not an update */
    printf("%-24s %8zu %9.3f %9.3f %8llu", name, n, sum / (double)n, times[n / 2],
           (unsigned long long)(ds.whole_searches - 1));
    if (areas) printf(" %6ld %6d", diff.same, (int)diff.reach);
    printf("\n");
  }
  free(times);
  diff_free(&diff);
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
  return ok;
}

int main(int argc, char **argv) {
  long edits = 100;
  uint64_t seed = 7;
  bool areas = false;
  int first = 1;
  while (first < argc && argv[first][0] == '-') {
    if (!strcmp(argv[first], "--areas")) {
      areas = true;
      first++;
      continue;
    }
    if (first + 1 >= argc) break;
    if (!strcmp(argv[first], "--edits")) edits = atol(argv[first + 1]);
    else if (!strcmp(argv[first], "--seed")) seed = (uint64_t)atoll(argv[first + 1]);
    else break;
    first += 2;
  }
  if (first >= argc || argv[first][0] == '-' || edits < 1) {
    fprintf(stderr,
            "usage: cairn_bench_dead_end_updates [--edits N] [--seed S] [--areas] MAP...\n");
    return 2;
  }
  printf("%-24s %8s %9s %9s %8s", "map", "updates", "mean_ms", "median_ms", "whole");
  if (areas) printf(" %6s %6s", "same", "reach");
  printf("\n");
  int ok = 1;
  for (int i = first; i < argc; i++) ok &= run_map(argv[i], edits, seed, areas);
  return ok ? 0 : 1;
}
