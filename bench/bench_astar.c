/*
 * bench_astar.c - per-query A* and Dijkstra on Moving AI maps, and full
 * distance maps. Registered through bench_shim.h.
 *
 * For each map the scenario rows are split into four groups by bucket (the
 * quartiles of the bucket range 0..max: short, medium, long, longest), and
 * each group is one benchmark, "astar/MAP/buckets_LO-HI" (Google Benchmark
 * appends "/iterations:N"). One iteration is one query; the queries cycle
 * through the group's sample in file order. The sample is every row of the
 * group, or, where the group has more than CAIRN_BENCH_MAX_SAMPLE rows,
 * every k-th row (k = ceil(rows / CAIRN_BENCH_MAX_SAMPLE)), so the longest
 * groups of the big maps stay affordable. The iteration count is fixed to
 * whole passes over the sample, enough passes that their optimal lengths add
 * up to CAIRN_BENCH_WORK_MIN cells, so every repetition times exactly the
 * same queries and its mean is the sample's true mean; short groups get more
 * passes, to time long enough.
 *
 * Each map has one search context, created with a counting allocator and
 * reserved and warmed up before any timed loop; on its first run each group
 * also answers every query of its sample once, untimed, checking the cost
 * against the scenario's optimal length (and growing the path buffer to the
 * group's longest path). A run fails if a query misses its optimal length or
 * if the context allocated anything inside the timed loop. Maps are loaded on
 * first use; the scenario files are read at registration (they are small,
 * and the group names and sample sizes come from them).
 *
 * The data directory is CAIRN_MOVINGAI_DIR from the environment, else the
 * one compiled in (the CMake cache variable of the same name).
 *
 * Every map's groups also run as "jps/MAP/buckets_LO-HI": jump point
 * search (cairn_jps) on the same queries, checked the same way, so A* and
 * jump point search compare group by group within one run; and as
 * "jps_plus/MAP/..." with the map's jump tables (cairn_jps_plus), whose
 * build is "jumps_build/MAP" (its counter: the tables' bytes).
 *
 * "astar_lm/MAP/..." and "jps_plus_lm/MAP/..." run the same queries with a
 * landmark table of BENCH_LANDMARKS landmarks (opts.landmarks, what
 * `--algo auto` uses), whose build is "landmarks_build/MAP" (counter: its
 * bytes).
 *
 * On brc202d the same groups also run as "astar_layer_zero/..." (A* with
 * an all-zero cost layer: the same paths, so the difference is what the
 * layer's test costs per neighbour) and "astar_layer_influence/..." (a
 * layer fed by influence events over about a tenth of the map: what a game
 * pays; paths change, so the check is that the terrain cost is no better
 * than the optimum).
 *
 * The grouping and sampling are shared through bench_common.h, so the HPA*
 * benchmarks (bench_hpa.c, registered at the end of
 * cairn_bench_register_all) time the same queries.
 */
#include "bench_shim.h"

#include "bench_common.h"
#include "cairn/core.h"
#include "cli.h" /* EXIT_DONE, the harness's success */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CAIRN_MOVINGAI_DIR
#define CAIRN_MOVINGAI_DIR ""
#endif

#define N_GROUPS CAIRN_BENCH_GROUPS

/* ---- data ------------------------------------------------------------ */

typedef cairn_bench_query query;

typedef struct map_data {
  const char *name;
  int state; /* 0: not loaded yet, 1: loaded, -1: failed (see error) */
  char error[2048];
  cairn_bench_scen data; /* read at registration */
  const cairn_scen *scen; /* its rows, or NULL */
  cairn_grid *grid;
  cairn_search *search;
  uint64_t allocs; /* allocations made through the context's allocator */
  cairn_cost *dist; /* distance-map output, width * height */
  /* astar_layer: an all-zero cost layer (the same paths: the layer's own
   * overhead) and one fed by influence events (what a game pays) */
  cairn_penalty *zero, *danger;
  cairn_influence *events;
  cairn_jumps *jumps; /* jps_plus: the map's jump tables, built on first use */
  cairn_landmarks *lm; /* the _lm groups' landmark table, built on first use */
} map_data;

enum { BENCH_LANDMARKS = 16 };

typedef struct group {
  map_data *map;
  cairn_bench_split s; /* bucket range, rows, sample, passes per run */
  cairn_heuristic heuristic;
  int layer; /* 0 none, 1 the zero layer, 2 the influence layer */
  int jps;   /* 1: cairn_jps, 2: cairn_jps_plus, instead of cairn_astar (layer 0 only) */
  bool lm;   /* with the map's landmark table */
  int state;       /* 0: not prepared yet, 1: ready, -1: failed (error) */
  char error[160];
  query *q;        /* sampled rows whose start and goal are passable */
  size_t n;
  size_t skipped;  /* sampled rows with a blocked start or goal */
  char label[96];
} group;

/* Maps used, in registration order. */
static map_data maps[] = {
    {.name = "brc202d"},        /* Dragon Age: Origins, 530 x 481 */
    {.name = "AR0011SR"},       /* Baldur's Gate II, 512 x 512 */
    {.name = "Aftershock"},     /* StarCraft, 512 x 512 */
    {.name = "TheFrozenSea"},   /* StarCraft, 1024 x 1024 */
    {.name = "maze512-32-0"},   /* maze, corridors 32 wide */
    {.name = "NewYork_0_1024"}, /* street map, 1024 x 1024 */
    /* added for the HPA* comparison (bench_hpa.c) */
    {.name = "random512-10-0"}, /* random, 10 % blocked, 512 x 512 */
    {.name = "8room_000"},      /* rooms, 512 x 512 */
    {.name = "w_woundedcoast"}, /* Warcraft III, 578 x 642 */
    /* the other shared maps of 512 x 512 and more, so the HPA* bar on long
     * queries is measured on every one */
    {.name = "32room_000"},     /* rooms, 512 x 512 */
    {.name = "AR0205SR"},       /* Baldur's Gate II, 512 x 512 */
    {.name = "gardenofwar"},    /* Warcraft III, 512 x 512 */
    {.name = "icecrown"},       /* Warcraft III, 512 x 512 */
    {.name = "maze512-1-0"},    /* maze, corridors 1 wide */
    {.name = "random512-40-0"}, /* random, 40 % blocked, 512 x 512 */
    /* the last of the maps the jump point search targets name */
    {.name = "den011d"},        /* Dragon Age: Origins, 247 x 167 */
};
#define N_MAPS (sizeof maps / sizeof maps[0])
/* The Dijkstra comparison runs on this map; the distance map on that one. */
#define DIJKSTRA_MAP "brc202d"
#define DISTANCE_MAP "TheFrozenSea"

/* every map's A* and jump point searches, then Dijkstra and the two
 * layered forms on one map */
static group groups[(5 * N_MAPS + 3) * N_GROUPS];
static size_t n_groups;
static char data_dir[1024];
static char missing_msg[3400];

const char *cairn_bench_data_root(void) {
  if (!data_dir[0]) {
    const char *env = getenv("CAIRN_MOVINGAI_DIR");
    const char *d = env && env[0] ? env : CAIRN_MOVINGAI_DIR;
    snprintf(data_dir, sizeof data_dir, "%s", d);
  }
  return data_dir;
}

void *cairn_bench_counting_alloc(void *user, void *ptr, size_t old_size,
                                 size_t new_size) {
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  ++*(uint64_t *)user;
  return realloc(ptr, new_size);
}

static map_data *find_map(const char *name) {
  for (size_t i = 0; i < N_MAPS; i++)
    if (strcmp(maps[i].name, name) == 0) return &maps[i];
  return NULL;
}

static void free_all(void) {
  for (size_t i = 0; i < n_groups; i++) free(groups[i].q);
  for (size_t i = 0; i < N_MAPS; i++) {
    map_data *m = &maps[i];
    free(m->dist);
    cairn_influence_destroy(m->events);
    cairn_penalty_destroy(m->danger);
    cairn_penalty_destroy(m->zero);
    cairn_jumps_destroy(m->jumps);
    cairn_landmarks_destroy(m->lm);
    m->jumps = NULL;
    cairn_search_destroy(m->search);
    cairn_grid_destroy(m->grid);
    cairn_bench_scen_free(&m->data);
    m->dist = NULL;
    m->search = NULL;
    m->grid = NULL;
    m->scen = NULL;
  }
}

int cairn_bench_cost_ok(cairn_cost cost, double optimal) {
  return scen_cost_matches(cairn_cost_to_double(cost), optimal);
}

/* Quiet, so a missing data folder is one skipped benchmark, not a message
 * a map. */
int cairn_bench_load_scen(const char *name, cairn_bench_scen *out,
                          const cairn_scen **scen, char *error, size_t size) {
  snprintf(out->path, sizeof out->path, "%s/scen/%s.map.scen",
           cairn_bench_data_root(), name);
  *scen = NULL;
  if (scen_file_open(out->path, NULL, true, &out->file) != EXIT_DONE) {
    snprintf(error, size, "cannot load the scenarios: %s", out->file.error);
    return -1;
  }
  *scen = out->file.sc;
  return 0;
}

int cairn_bench_load_grid(cairn_bench_scen *s, cairn_grid **out, char *error,
                          size_t size) {
  if (scen_file_read_map(&s->file, out) != EXIT_DONE) {
    snprintf(error, size, "cannot load the map: %s", s->file.error);
    return -1;
  }
  return 0;
}

void cairn_bench_scen_free(cairn_bench_scen *s) {
  scen_file_free(&s->file);
}

/* Loads the grid and makes the map's search context, once. Returns 1 when
 * ready, else 0 with m->error set. */
static int map_ready(map_data *m) {
  if (m->state) return m->state > 0;
  m->state = -1;
  if (cairn_bench_load_grid(&m->data, &m->grid, m->error, sizeof m->error) != 0)
    return 0;
  const cairn_allocator a = {cairn_bench_counting_alloc, &m->allocs};
  cairn_status st = cairn_search_create(&a, &m->search);
  /* The context sizes its arrays by the grid's padded size (a blocked
   * border of one cell all round), so reserve that many nodes, not
   * width * height, or the first query would grow them again. */
  int32_t w = cairn_grid_width(m->grid), h = cairn_grid_height(m->grid);
  if (st == CAIRN_OK)
    st = cairn_search_reserve(m->search, (size_t)(w + 2) * (size_t)(h + 2));
  if (st != CAIRN_OK) {
    snprintf(m->error, sizeof m->error, "search context: %s",
             cairn_status_str(st));
    return 0;
  }
  /* Warm-up: one Dijkstra over the longest scenario touches most of the
   * context's pages, so page faults stay out of the timed loops. */
  size_t n = cairn_scen_count(m->scen), best = 0;
  for (size_t i = 1; i < n; i++)
    if (cairn_scen_get(m->scen, i)->optimal >
        cairn_scen_get(m->scen, best)->optimal)
      best = i;
  if (n) {
    const cairn_scen_entry *e = cairn_scen_get(m->scen, best);
    cairn_search_opts o = cairn_search_defaults();
    o.heuristic = CAIRN_H_ZERO;
    cairn_result r;
    cairn_astar(m->search, m->grid, e->start, e->goal, &o, &r);
  }
  m->state = 1;
  return 1;
}

/* Builds a group's sample and answers each query once, untimed. */
/* The map's two cost layers, once: the influence one gets an event of
 * radius 12 and 20 steps at the centre on every 24th open cell of a
 * 64-cell lattice (about a tenth of the map under some penalty). */
static int layers_ready(map_data *m) {
  if (m->zero) return 1;
  if (cairn_penalty_create(m->grid, NULL, &m->zero) != CAIRN_OK ||
      cairn_penalty_create(m->grid, NULL, &m->danger) != CAIRN_OK ||
      cairn_influence_create(m->grid, m->danger, NULL, &m->events) != CAIRN_OK)
    return 0;
  int n = 0;
  for (int32_t y = 32; y < cairn_grid_height(m->grid); y += 64)
    for (int32_t x = 32; x < cairn_grid_width(m->grid); x += 64)
      if (cairn_grid_cost(m->grid, x, y) && n++ % 2 == 0 &&
          cairn_influence_event(m->events, x, y, 12, 20 * CAIRN_COST_ONE) != CAIRN_OK)
        return 0;
  return 1;
}

static cairn_search_opts group_opts(const group *g) {
  cairn_search_opts opts = cairn_search_defaults();
  opts.heuristic = g->heuristic;
  opts.penalty = g->layer == 1 ? g->map->zero : g->layer == 2 ? g->map->danger : NULL;
  opts.landmarks = g->lm ? g->map->lm : NULL;
  return opts;
}

/* A layer's penalties only raise costs; the zero layer changes nothing. */
static int cost_fits(const group *g, const cairn_result *r, double optimal) {
  if (g->layer == 2)
    return cairn_bench_cost_ok(r->base_cost, optimal) ||
           cairn_cost_to_double(r->base_cost) > optimal;
  return cairn_bench_cost_ok(r->cost, optimal);
}

/* One query of group g. */
static cairn_status search(const group *g, const query *q, const cairn_search_opts *opts,
                           cairn_result *r) {
  map_data *m = g->map;
  if (g->jps == 2) return cairn_jps_plus(m->search, m->jumps, q->start, q->goal, opts, r);
  if (g->jps == 1) return cairn_jps(m->search, m->grid, q->start, q->goal, opts, r);
  return cairn_astar(m->search, m->grid, q->start, q->goal, opts, r);
}

static int group_ready(group *g) {
  map_data *m = g->map;
  if (!map_ready(m)) return 0;
  if (g->layer && !layers_ready(m)) {
    snprintf(g->error, sizeof g->error, "out of memory for the cost layers");
    return 0;
  }
  if (g->state) return g->state > 0;
  g->state = -1;
  if (g->jps == 2 && !m->jumps && cairn_jumps_create(m->grid, NULL, &m->jumps) != CAIRN_OK) {
    snprintf(g->error, sizeof g->error, "out of memory for the jump tables");
    return 0;
  }
  if (g->lm && !m->lm) {
    cairn_landmarks_opts lo = cairn_landmarks_defaults();
    lo.count = BENCH_LANDMARKS;
    if (cairn_landmarks_create(m->grid, &lo, NULL, &m->lm) != CAIRN_OK) {
      snprintf(g->error, sizeof g->error, "out of memory for the landmarks");
      return 0;
    }
  }
  g->q = cairn_bench_sample(m->scen, m->grid, &g->s, &g->n, &g->skipped,
                            g->error, sizeof g->error);
  if (!g->q) return 0;
  cairn_search_opts opts = group_opts(g);
  for (size_t k = 0; k < g->n; k++) {
    const query *q = &g->q[k];
    cairn_result r;
    cairn_status st = search(g, q, &opts, &r);
    if (st != CAIRN_OK || !cost_fits(g, &r, q->optimal)) {
      snprintf(g->error, sizeof g->error,
               "scenario line %u: %s, cost %.6f, optimal %.6f",
               (unsigned)q->line, cairn_status_str(st),
               st == CAIRN_OK ? cairn_cost_to_double(r.cost) : -1.0,
               q->optimal);
      return 0;
    }
  }
  snprintf(g->label, sizeof g->label, "%zu of %zu rows (stride %zu), %zu skipped",
           g->n, g->s.rows, g->s.stride, g->skipped);
  g->state = 1;
  return 1;
}

/* ---- benchmarks -------------------------------------------------------- */

static void bm_query(cairn_bench_state *st, void *user) {
  group *g = user;
  if (!group_ready(g)) {
    cairn_bench_skip(st, g->map->state < 0 ? g->map->error : g->error);
    return;
  }
  map_data *m = g->map;
  cairn_search_opts opts = group_opts(g);
  cairn_result r;

  const uint64_t allocs = m->allocs;
  uint64_t expanded = 0, generated = 0;
  size_t bad = 0, k = 0;
  while (cairn_bench_next(st)) {
    const query *q = &g->q[k];
    if (++k == g->n) k = 0;
    search(g, q, &opts, &r);
    expanded += r.expanded;
    generated += r.generated;
    bad += r.status != CAIRN_OK || !cost_fits(g, &r, q->optimal);
  }
  if (bad) {
    char msg[96];
    snprintf(msg, sizeof msg, "%zu queries missed the optimal length", bad);
    cairn_bench_skip(st, msg);
    return;
  }
  if (m->allocs != allocs) {
    cairn_bench_skip(st, "the search context allocated in the timed loop");
    return;
  }
  const double e = (double)expanded;
  cairn_bench_counter(st, "expanded", e, CAIRN_BENCH_AVG_ITER);
  cairn_bench_counter(st, "generated", (double)generated,
                      CAIRN_BENCH_AVG_ITER);
  cairn_bench_counter(st, "expanded_per_s", e, CAIRN_BENCH_RATE);
  /* seconds per (expansions / 1e9) = nanoseconds per expansion */
  cairn_bench_counter(st, "ns_per_expansion", e / 1e9,
                      CAIRN_BENCH_RATE | CAIRN_BENCH_INVERT);
  cairn_bench_label(st, g->label);
}

/* The jump tables of a map, built from scratch. */
static void bm_jumps_build(cairn_bench_state *st, void *user) {
  map_data *m = user;
  if (!map_ready(m)) {
    cairn_bench_skip(st, m->error);
    return;
  }
  size_t bytes = 0;
  while (cairn_bench_next(st)) {
    cairn_jumps *j = NULL;
    if (cairn_jumps_create(m->grid, NULL, &j) != CAIRN_OK) {
      cairn_bench_skip(st, "out of memory");
      return;
    }
    bytes = cairn_jumps_memory(j);
    cairn_jumps_destroy(j);
  }
  cairn_bench_counter(st, "bytes", (double)bytes, CAIRN_BENCH_PLAIN);
}

/* The landmark table of a map (BENCH_LANDMARKS landmarks), built from
 * scratch: what cairn_landmarks_create and each update cost. */
static void bm_landmarks_build(cairn_bench_state *st, void *user) {
  map_data *m = user;
  if (!map_ready(m)) {
    cairn_bench_skip(st, m->error);
    return;
  }
  cairn_landmarks_opts lo = cairn_landmarks_defaults();
  lo.count = BENCH_LANDMARKS;
  size_t bytes = 0;
  while (cairn_bench_next(st)) {
    cairn_landmarks *lm = NULL;
    if (cairn_landmarks_create(m->grid, &lo, NULL, &lm) != CAIRN_OK) {
      cairn_bench_skip(st, "out of memory");
      return;
    }
    bytes = cairn_landmarks_memory(lm);
    cairn_landmarks_destroy(lm);
  }
  cairn_bench_counter(st, "bytes", (double)bytes, CAIRN_BENCH_PLAIN);
}

/* One cell flipped (open to blocked or back) and the jump tables told:
 * what keeping them current costs an edit. The cells cycle through a
 * fixed pseudo-random list of 256 and each is flipped back on its next
 * turn, so the map stays near its own; the grid is restored after. */
static void bm_jumps_update(cairn_bench_state *st, void *user) {
  map_data *m = user;
  if (!map_ready(m)) {
    cairn_bench_skip(st, m->error);
    return;
  }
  cairn_jumps *j = NULL;
  if (cairn_jumps_create(m->grid, NULL, &j) != CAIRN_OK) {
    cairn_bench_skip(st, "out of memory");
    return;
  }
  const int32_t w = cairn_grid_width(m->grid), h = cairn_grid_height(m->grid);
  cairn_point cells[256];
  uint8_t was[256];
  uint64_t r = 12345;
  for (int k = 0; k < 256; k++) {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    cells[k] = (cairn_point){(int32_t)((r >> 33) % (uint64_t)w), (int32_t)((r >> 13) % (uint64_t)h)};
    was[k] = cairn_grid_cost(m->grid, cells[k].x, cells[k].y);
  }
  size_t k = 0;
  uint64_t flips = 0;
  while (cairn_bench_next(st)) {
    const cairn_point c = cells[k];
    const uint8_t now = cairn_grid_cost(m->grid, c.x, c.y);
    cairn_grid_set_cost(m->grid, c.x, c.y, (uint8_t)(now ? 0 : 1));
    cairn_jumps_update(j, (cairn_rect){c.x, c.y, 1, 1});
    flips++;
    if (++k == 256) k = 0;
  }
  for (int i = 0; i < 256; i++) cairn_grid_set_cost(m->grid, cells[i].x, cells[i].y, was[i]);
  cairn_jumps_destroy(j);
  if (m->jumps) cairn_jumps_update(m->jumps, (cairn_rect){0, 0, w, h}); /* jps_plus's */
  if (cairn_grid_update_islands(m->grid) != CAIRN_OK) cairn_bench_skip(st, "out of memory");
  cairn_bench_counter(st, "edits", (double)flips, CAIRN_BENCH_RATE);
}

/* Dijkstra from one source over the whole map; the argument is the move
 * set (8 or 4). The source is the start of the first scenario row. */
static void bm_distance_map(cairn_bench_state *st, void *user) {
  map_data *m = user;
  if (!map_ready(m)) {
    cairn_bench_skip(st, m->error);
    return;
  }
  size_t cells = (size_t)cairn_grid_width(m->grid) *
                 (size_t)cairn_grid_height(m->grid);
  if (!m->dist && !(m->dist = malloc(cells * sizeof *m->dist))) {
    cairn_bench_skip(st, "out of memory");
    return;
  }
  if (!cairn_scen_count(m->scen)) {
    cairn_bench_skip(st, "no scenario row to take a source from");
    return;
  }
  cairn_point src = cairn_scen_get(m->scen, 0)->start;
  cairn_search_opts opts = cairn_search_defaults();
  opts.moves = (int)cairn_bench_arg(st, 0);
  cairn_status s =
      cairn_distance_map(m->search, m->grid, &src, 1, &opts, m->dist, cells);
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  size_t reached = 0;
  for (size_t i = 0; i < cells; i++) reached += m->dist[i] != CAIRN_COST_INF;

  const uint64_t allocs = m->allocs;
  while (cairn_bench_next(st))
    cairn_distance_map(m->search, m->grid, &src, 1, &opts, m->dist, cells);
  if (m->allocs != allocs) {
    cairn_bench_skip(st, "the search context allocated in the timed loop");
    return;
  }
  const double total = (double)reached * (double)cairn_bench_iterations(st);
  cairn_bench_counter(st, "cells", (double)reached, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "cells_per_s", total, CAIRN_BENCH_RATE);
  cairn_bench_counter(st, "ns_per_cell", total / 1e9,
                      CAIRN_BENCH_RATE | CAIRN_BENCH_INVERT);
  char label[96];
  snprintf(label, sizeof label, "source (%d,%d), %zu of %zu cells reached",
           (int)src.x, (int)src.y, reached, cells);
  cairn_bench_label(st, label);
}

static void bm_missing(cairn_bench_state *st, void *user) {
  cairn_bench_skip(st, user);
}

/* ---- registration ------------------------------------------------------ */

size_t cairn_bench_split_groups(const cairn_scen *scen,
                                cairn_bench_split out[CAIRN_BENCH_GROUPS]) {
  size_t n = cairn_scen_count(scen), count = 0;
  uint32_t max_bucket = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t b = cairn_scen_get(scen, i)->bucket;
    if (b > max_bucket) max_bucket = b;
  }
  const uint32_t nb = max_bucket + 1;
  for (uint32_t k = 0; k < N_GROUPS; k++) {
    uint32_t lo = k * nb / N_GROUPS, hi = (k + 1) * nb / N_GROUPS;
    if (hi == lo) continue; /* fewer buckets than groups */
    cairn_bench_split *g = &out[count];
    memset(g, 0, sizeof *g);
    g->lo = lo;
    g->hi = hi - 1;
    for (size_t i = 0; i < n; i++) {
      uint32_t b = cairn_scen_get(scen, i)->bucket;
      g->rows += b >= g->lo && b <= g->hi;
    }
    if (!g->rows) continue;
    g->stride = (g->rows + CAIRN_BENCH_MAX_SAMPLE - 1) / CAIRN_BENCH_MAX_SAMPLE;
    double work = 0; /* optimal lengths of one pass over the sample */
    for (size_t i = 0, j = 0; i < n; i++) {
      const cairn_scen_entry *e = cairn_scen_get(scen, i);
      if (e->bucket < g->lo || e->bucket > g->hi || j++ % g->stride) continue;
      g->sample++;
      work += e->optimal;
    }
    g->work = work;
    g->passes = work >= CAIRN_BENCH_WORK_MIN
                    ? 1
                    : (size_t)ceil(CAIRN_BENCH_WORK_MIN / (work > 1 ? work
                                                                   : 1));
    count++;
  }
  return count;
}

cairn_bench_query *cairn_bench_sample(const cairn_scen *scen,
                                      const cairn_grid *grid,
                                      const cairn_bench_split *s, size_t *n_out,
                                      size_t *skipped, char *err,
                                      size_t err_len) {
  size_t n = cairn_scen_count(scen), j = 0, k = 0;
  *skipped = 0;
  *n_out = 0;
  cairn_bench_query *q = malloc((s->sample ? s->sample : 1) * sizeof *q);
  if (!q) {
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    const cairn_scen_entry *e = cairn_scen_get(scen, i);
    if (e->bucket < s->lo || e->bucket > s->hi) continue;
    if (j++ % s->stride) continue;
    if (!cairn_grid_cost(grid, e->start.x, e->start.y) ||
        !cairn_grid_cost(grid, e->goal.x, e->goal.y)) {
      ++*skipped;
      continue;
    }
    q[k].start = e->start;
    q[k].goal = e->goal;
    q[k].optimal = e->optimal;
    q[k].line = e->line;
    k++;
  }
  if (!k) {
    free(q);
    snprintf(err, err_len, "no usable scenario row");
    return NULL;
  }
  *n_out = k;
  return q;
}

static void register_groups(map_data *m, const char *kind,
                            cairn_heuristic h, int layer, int jps, bool lm) {
  cairn_bench_split split[N_GROUPS];
  size_t count = cairn_bench_split_groups(m->scen, split);
  for (size_t k = 0; k < count; k++) {
    if (n_groups == sizeof groups / sizeof groups[0]) {
      fprintf(stderr, "bench_astar.c: groups[] is full; enlarge it\n");
      return;
    }
    group *g = &groups[n_groups++];
    memset(g, 0, sizeof *g);
    g->map = m;
    g->s = split[k];
    g->heuristic = h;
    g->layer = layer;
    g->jps = jps;
    g->lm = lm;
    char name[160];
    snprintf(name, sizeof name, "%s/%s/buckets_%u-%u", kind, m->name,
             (unsigned)g->s.lo, (unsigned)g->s.hi);
    cairn_bench_def *def = cairn_bench_register(name, bm_query, g);
    cairn_bench_def_iterations(def, (int64_t)(g->s.passes * g->s.sample));
  }
}

void cairn_bench_register_all(void) {
  atexit(free_all);
  size_t found = 0;
  char first_error[2048] = "";
  for (size_t i = 0; i < N_MAPS; i++) {
    map_data *m = &maps[i];
    if (cairn_bench_load_scen(m->name, &m->data, &m->scen, m->error,
                              sizeof m->error) != 0) {
      m->state = -1;
      if (!first_error[0]) snprintf(first_error, sizeof first_error, "%s", m->error);
      continue;
    }
    found++;
  }
  if (!found) {
    snprintf(missing_msg, sizeof missing_msg,
             "Moving AI data not found under '%s' (set CAIRN_MOVINGAI_DIR, "
             "in the environment or at configure time, to the folder "
             "holding maps/ and scen/): %s",
             cairn_bench_data_root(), first_error);
    cairn_bench_register("movingai_data_missing", bm_missing, missing_msg);
    return;
  }
  for (size_t i = 0; i < N_MAPS; i++) {
    map_data *m = &maps[i];
    if (!m->scen) {
      char name[160];
      snprintf(name, sizeof name, "astar/%s/missing", m->name);
      cairn_bench_register(name, bm_missing, m->error);
      continue;
    }
    register_groups(m, "astar", CAIRN_H_OCTILE, 0, 0, false);
    register_groups(m, "jps", CAIRN_H_OCTILE, 0, 1, false);
    register_groups(m, "jps_plus", CAIRN_H_OCTILE, 0, 2, false);
    register_groups(m, "astar_lm", CAIRN_H_OCTILE, 0, 0, true);
    register_groups(m, "jps_plus_lm", CAIRN_H_OCTILE, 0, 2, true);
    char name[160];
    snprintf(name, sizeof name, "landmarks_build/%s", m->name);
    cairn_bench_def_unit(cairn_bench_register(name, bm_landmarks_build, m), CAIRN_BENCH_MS);
    snprintf(name, sizeof name, "jumps_build/%s", m->name);
    cairn_bench_def *def = cairn_bench_register(name, bm_jumps_build, m);
    cairn_bench_def_unit(def, CAIRN_BENCH_MS);
    snprintf(name, sizeof name, "jumps_update/%s", m->name);
    cairn_bench_register(name, bm_jumps_update, m);
  }
  map_data *m = find_map(DIJKSTRA_MAP);
  if (m && m->scen) {
    register_groups(m, "dijkstra", CAIRN_H_ZERO, 0, 0, false);
    /* the cost of a search under cost layers, on the same queries */
    register_groups(m, "astar_layer_zero", CAIRN_H_OCTILE, 1, 0, false);
    register_groups(m, "astar_layer_influence", CAIRN_H_OCTILE, 2, 0, false);
    cairn_bench_register_layers();
  }
  m = find_map(DISTANCE_MAP);
  if (m && m->scen) {
    cairn_bench_def *def = cairn_bench_register(
        "full_distance_map/" DISTANCE_MAP, bm_distance_map, m);
    cairn_bench_def_unit(def, CAIRN_BENCH_MS);
    cairn_bench_def_arg(def, 8);
    cairn_bench_def_arg(def, 4);
  }
  cairn_bench_register_hpa();
}
