/*
 * bench_big.c - HPA* on a generated 4096 x 4096 map: does the third level
 * pay where it is meant for? Registered from cairn_bench_register_hpa.
 *
 * The map is `cairn gen --width 4096 --height 4096 --seed 7` (the demo
 * generator: forest, swamp, rivers with fords, walled hamlets), read from
 * $CAIRN_BENCH_BIG_MAP; bench/run.sh writes it there (build-bench/gen4096.map)
 * when it is missing. Without it the entries skip, saying so.
 *
 * hpa_big_build/levels:L
 *   cairn_hpa_create with opts.levels = L (2 or 3), default cluster side
 *   and landmarks, all threads; one iteration is one build. Wall time.
 *   Counters: nodes, nodes2 (level 2), memory_bytes.
 * hpa_big/levels:L
 *   cairn_hpa_find on BIG_QUERIES fixed long queries (start and goal drawn
 *   from a seeded generator among open cells of the main island, at least
 *   BIG_MIN_DIST cells apart in octile distance), one iteration per query,
 *   cycling through them. The hierarchy and a reserved query context are
 *   made before timing; a first untimed pass checks every path
 *   (cairn_grid_check_path) and warms the context. Counters: expanded,
 *   subopt_pct (mean over the queries against the A* optimum, measured on
 *   the first BIG_ASTAR queries).
 * astar_big
 *   Plain A* on the first BIG_ASTAR of the same queries, for scale.
 */
#include "bench_common.h"
#include "bench_shim.h"

#include "cairn/core.h"
#include "cairn/hierarchy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG_QUERIES 64
#define BIG_ASTAR 8
#define BIG_MIN_DIST 2048

typedef struct big_state {
  int state; /* 0 not loaded, 1 ready, -1 failed (error) */
  char error[512];
  cairn_grid *grid;
  cairn_point start[BIG_QUERIES], goal[BIG_QUERIES];
  cairn_cost optimal[BIG_ASTAR]; /* plain A*, filled by astar_big or on use */
  int have_optimal;
  cairn_hpa *hpa[2]; /* levels 2 and 3 */
  cairn_hpa_query *query[2];
  cairn_search *search;
} big_state;

static big_state big;

static uint64_t next_rand(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* The queries: open cells of the grid's largest island, far apart. */
static int pick_queries(void) {
  const int32_t w = cairn_grid_width(big.grid), h = cairn_grid_height(big.grid);
  uint32_t n_isl = cairn_grid_island_count(big.grid);
  uint32_t *count = calloc((size_t)n_isl + 1, sizeof *count);
  if (!count) return 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) count[cairn_grid_island(big.grid, x, y)]++;
  uint32_t top = 1;
  for (uint32_t i = 1; i <= n_isl; i++)
    if (count[i] > count[top]) top = i;
  free(count);
  uint64_t rng = 7;
  for (int k = 0; k < BIG_QUERIES;) {
    cairn_point a = {(int32_t)(next_rand(&rng) % (uint64_t)w),
                     (int32_t)(next_rand(&rng) % (uint64_t)h)};
    cairn_point b = {(int32_t)(next_rand(&rng) % (uint64_t)w),
                     (int32_t)(next_rand(&rng) % (uint64_t)h)};
    int32_t dx = abs(a.x - b.x), dy = abs(a.y - b.y);
    if ((dx > dy ? dx : dy) < BIG_MIN_DIST) continue;
    if (cairn_grid_island(big.grid, a.x, a.y) != top ||
        cairn_grid_island(big.grid, b.x, b.y) != top)
      continue;
    big.start[k] = a;
    big.goal[k++] = b;
  }
  return 1;
}

static int big_ready(void) {
  if (big.state) return big.state > 0;
  big.state = -1;
  const char *path = getenv("CAIRN_BENCH_BIG_MAP");
  if (!path || !*path) {
    snprintf(big.error, sizeof big.error,
             "CAIRN_BENCH_BIG_MAP is not set (bench/run.sh sets it and writes "
             "the map with cairn gen --width 4096 --height 4096 --seed 7)");
    return 0;
  }
  cairn_error err;
  if (cairn_map_load(path, NULL, NULL, &big.grid, &err) != CAIRN_OK) {
    snprintf(big.error, sizeof big.error, "%s", err.message);
    return 0;
  }
  if (!pick_queries() || cairn_search_create(NULL, &big.search) != CAIRN_OK) {
    snprintf(big.error, sizeof big.error, "out of memory");
    return 0;
  }
  big.state = 1;
  return 1;
}

/* The A* optimum of the first BIG_ASTAR queries, once. */
static int optimal_ready(void) {
  if (big.have_optimal) return big.have_optimal > 0;
  big.have_optimal = -1;
  for (int k = 0; k < BIG_ASTAR; k++) {
    cairn_result r;
    if (cairn_astar(big.search, big.grid, big.start[k], big.goal[k], NULL, &r) !=
        CAIRN_OK) {
      snprintf(big.error, sizeof big.error, "A* query %d: %s", k,
               cairn_status_str(r.status));
      return 0;
    }
    big.optimal[k] = r.cost;
  }
  big.have_optimal = 1;
  return 1;
}

static cairn_status build(int levels, cairn_hpa **out) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.levels = levels;
  return cairn_hpa_create(big.grid, &o, NULL, out);
}

static void bm_build(cairn_bench_state *st, void *user) {
  const int levels = (int)(intptr_t)user;
  if (!big_ready()) {
    cairn_bench_skip(st, big.error);
    return;
  }
  cairn_hpa_stats hs;
  memset(&hs, 0, sizeof hs);
  while (cairn_bench_next(st)) {
    cairn_hpa *h = NULL;
    cairn_status s = build(levels, &h);
    cairn_bench_pause(st);
    if (s != CAIRN_OK) {
      cairn_bench_skip(st, cairn_status_str(s));
      return;
    }
    cairn_hpa_get_stats(h, &hs);
    cairn_hpa_destroy(h);
    cairn_bench_resume(st);
  }
  cairn_bench_counter(st, "nodes", (double)hs.nodes, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "nodes2", (double)hs.nodes2, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "memory_bytes", (double)hs.memory_bytes, CAIRN_BENCH_PLAIN);
}

/* The hierarchy of the given levels and its query context; the first pass
 * over the queries checks every path. */
static int hpa_ready(int levels, char *why, size_t len) {
  const int i = levels - 2;
  if (big.hpa[i]) return 1;
  cairn_status s = build(levels, &big.hpa[i]);
  if (s == CAIRN_OK) s = cairn_hpa_query_create(NULL, &big.query[i]);
  if (s == CAIRN_OK) s = cairn_hpa_query_reserve(big.query[i], big.hpa[i]);
  if (s != CAIRN_OK) {
    snprintf(why, len, "building: %s", cairn_status_str(s));
    return 0;
  }
  for (int k = 0; k < BIG_QUERIES; k++) {
    cairn_hpa_result r;
    s = cairn_hpa_find(big.query[i], big.hpa[i], big.start[k], big.goal[k], NULL, &r);
    cairn_path_check c;
    if (s == CAIRN_OK)
      cairn_grid_check_path(big.grid, r.path, r.path_len, big.start[k], big.goal[k], 8, &c);
    if (s != CAIRN_OK || !c.valid) {
      snprintf(why, len, "query %d: %s", k, s != CAIRN_OK ? cairn_status_str(s) : c.problem);
      return 0;
    }
  }
  return 1;
}

static void bm_query(cairn_bench_state *st, void *user) {
  const int levels = (int)(intptr_t)user, i = levels - 2;
  char why[256];
  if (!big_ready() || !optimal_ready()) {
    cairn_bench_skip(st, big.error);
    return;
  }
  if (!hpa_ready(levels, why, sizeof why)) {
    cairn_bench_skip(st, why);
    return;
  }
  double sub = 0;
  for (int k = 0; k < BIG_ASTAR; k++) {
    cairn_hpa_result r;
    cairn_hpa_find(big.query[i], big.hpa[i], big.start[k], big.goal[k], NULL, &r);
    sub += (double)(r.cost - big.optimal[k]) / (double)big.optimal[k] * 100;
  }
  uint64_t expanded = 0, n = 0;
  int k = 0;
  while (cairn_bench_next(st)) {
    cairn_hpa_result r;
    cairn_hpa_find(big.query[i], big.hpa[i], big.start[k], big.goal[k], NULL, &r);
    expanded += r.expanded;
    n++;
    if (++k == BIG_QUERIES) k = 0;
  }
  cairn_bench_counter(st, "expanded", n ? (double)expanded / (double)n : 0,
                      CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "subopt_pct", sub / BIG_ASTAR, CAIRN_BENCH_PLAIN);
}

static void bm_astar(cairn_bench_state *st, void *user) {
  (void)user;
  if (!big_ready()) {
    cairn_bench_skip(st, big.error);
    return;
  }
  uint64_t expanded = 0, n = 0;
  int k = 0;
  while (cairn_bench_next(st)) {
    cairn_result r;
    cairn_astar(big.search, big.grid, big.start[k], big.goal[k], NULL, &r);
    expanded += r.expanded;
    n++;
    if (++k == BIG_ASTAR) k = 0;
  }
  cairn_bench_counter(st, "expanded", n ? (double)expanded / (double)n : 0,
                      CAIRN_BENCH_PLAIN);
}

void cairn_bench_register_big(void) {
  for (int levels = 2; levels <= 3; levels++) {
    char name[64];
    snprintf(name, sizeof name, "hpa_big_build/levels:%d", levels);
    cairn_bench_def *d = cairn_bench_register(name, bm_build, (void *)(intptr_t)levels);
    cairn_bench_def_iterations(d, 1);
    cairn_bench_def_real_time(d);
  }
  for (int levels = 2; levels <= 3; levels++) {
    char name[64];
    snprintf(name, sizeof name, "hpa_big/levels:%d", levels);
    cairn_bench_def *d = cairn_bench_register(name, bm_query, (void *)(intptr_t)levels);
    cairn_bench_def_iterations(d, 4 * BIG_QUERIES);
  }
  cairn_bench_def *d = cairn_bench_register("astar_big", bm_astar, NULL);
  cairn_bench_def_iterations(d, BIG_ASTAR);
}
