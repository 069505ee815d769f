/*
 * bench_flow.c - flow fields on the 1024 x 1024 Moving AI maps: whole-map
 * builds at 1 and 2 threads, the queues side by side, the 4-connected BFS
 * floor, sector tiles along a long route, repair against rebuild after an
 * edit, and one field against 10,000 A* searches. Its own program,
 * cairn_bench_flow (bench_shim.cpp's main with this file's registration),
 * so the flow benchmarks need no change to the other benchmark files:
 *
 *   CAIRN_BENCH=build-bench/bench/cairn_bench_flow bench/run.sh flow
 *
 * The goal of every field is the start of the map's first scenario row
 * (the source of full_distance_map in bench_astar.c). Builds and repairs
 * are timed in wall-clock time (they run on threads); each benchmark
 * fails if its timed loop allocated through the counting allocator.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "bench_bfs.h"
#include "bench_shim.h"

#include "cairn/flowfield.h"
#include "cli.h" /* EXIT_DONE, the harness's success */
#include "scen_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CAIRN_MOVINGAI_DIR
#define CAIRN_MOVINGAI_DIR ""
#endif

typedef struct flow_map {
  const char *name;
  int state; /* 0 not loaded, 1 ready, -1 failed */
  char error[1600];
  cairn_grid *grid;
  cairn_grid *terrain; /* the same walls, terrain 1..4 from a hash */
  char path[1400];  /* of the .scen file, which file points to */
  scen_file file;   /* read through cairn scen's harness (scen_run.h) */
  const cairn_scen *scen;
  cairn_point goal;  /* start of the first scenario row */
  cairn_point far;   /* start of the longest row: the sector route */
  uint64_t allocs;
  cairn_flow_builder *b;
  cairn_field *f, *ft;
  cairn_search *s;
  uint32_t *bfs_dist, *bfs_queue;
} flow_map;

static flow_map maps[] = {{.name = "TheFrozenSea"}, {.name = "NewYork_0_1024"}};
#define N_MAPS (sizeof maps / sizeof maps[0])

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *counting_alloc(void *user, void *ptr, size_t old_size,
                            size_t new_size) {
  (void)old_size;
  if (!new_size) {
    free(ptr);
    return NULL;
  }
  ++*(uint64_t *)user;
  return realloc(ptr, new_size);
}

static const char *data_root(void) {
  const char *env = getenv("CAIRN_MOVINGAI_DIR");
  return env && env[0] ? env : CAIRN_MOVINGAI_DIR;
}

static int fail(flow_map *m, const char *what, cairn_status st) {
  snprintf(m->error, sizeof m->error, "%s: %s: %s", m->name, what, cairn_status_str(st));
  return 0;
}

/* Terrain 1..4 on the passable cells, from a hash of the position, for the
 * queue comparison on uneven terrain. */
static cairn_status make_terrain(const cairn_grid *g, cairn_grid **out) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  cairn_status st = cairn_grid_create(w, h, 0, NULL, out);
  for (int32_t y = 0; st == CAIRN_OK && y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      if (!cairn_grid_cost(g, x, y)) continue;
      uint32_t k = (uint32_t)x * 2654435761u ^ (uint32_t)y * 40503u;
      cairn_grid_set_cost(*out, x, y, (uint8_t)(1 + (k >> 13) % 4));
    }
  if (st == CAIRN_OK) st = cairn_grid_update_islands(*out);
  return st;
}

static void pick_points(flow_map *m) {
  m->goal = cairn_scen_get(m->scen, 0)->start;
  double best = -1;
  for (size_t i = 0; i < cairn_scen_count(m->scen); i++) {
    const cairn_scen_entry *e = cairn_scen_get(m->scen, i);
    if (e->optimal > best) {
      best = e->optimal;
      m->far = e->start;
    }
  }
}

static int map_ready(flow_map *m) {
  if (m->state) return m->state > 0;
  m->state = -1;
  snprintf(m->path, sizeof m->path, "%s/scen/%s.map.scen", data_root(), m->name);
  if (scen_file_open(m->path, NULL, true, &m->file) != EXIT_DONE) {
    snprintf(m->error, sizeof m->error, "%s (set CAIRN_MOVINGAI_DIR)", m->file.error);
    return 0;
  }
  if (!cairn_scen_count(m->file.sc)) {
    snprintf(m->error, sizeof m->error, "%s: no scenario rows", m->name);
    return 0;
  }
  m->scen = m->file.sc;
  if (scen_file_read_map(&m->file, &m->grid) != EXIT_DONE) {
    snprintf(m->error, sizeof m->error, "%s: loading the map: %s", m->name, m->file.error);
    return 0;
  }
  cairn_status st;
  pick_points(m);
  if ((st = make_terrain(m->grid, &m->terrain)) != CAIRN_OK) return fail(m, "terrain", st);
  const cairn_allocator a = {counting_alloc, &m->allocs};
  if ((st = cairn_flow_builder_create(&a, &m->b)) != CAIRN_OK ||
      (st = cairn_flow_builder_reserve(m->b, m->grid)) != CAIRN_OK ||
      (st = cairn_field_create(m->grid, &a, &m->f)) != CAIRN_OK ||
      (st = cairn_field_create(m->terrain, &a, &m->ft)) != CAIRN_OK ||
      (st = cairn_search_create(&a, &m->s)) != CAIRN_OK ||
      (st = cairn_search_reserve_grid(m->s, m->grid)) != CAIRN_OK ||
      (st = cairn_search_reserve_path(m->s, cairn_grid_passable(m->grid))) != CAIRN_OK)
    return fail(m, "setting up", st);
  size_t n = (size_t)(cairn_grid_width(m->grid) + 2) * (size_t)(cairn_grid_height(m->grid) + 2);
  m->bfs_dist = malloc(n * sizeof *m->bfs_dist);
  m->bfs_queue = malloc(n * sizeof *m->bfs_queue);
  if (!m->bfs_dist || !m->bfs_queue) return fail(m, "BFS arrays", CAIRN_ERR_NOMEM);
  /* first touch of every array, outside the timed loops */
  if ((st = cairn_field_build(m->b, m->f, m->grid, &m->goal, 1, NULL)) != CAIRN_OK)
    return fail(m, "the first build", st);
  m->state = 1;
  return 1;
}

static void free_all(void) {
  for (size_t i = 0; i < N_MAPS; i++) {
    flow_map *m = &maps[i];
    free(m->bfs_dist);
    free(m->bfs_queue);
    cairn_search_destroy(m->s);
    cairn_field_destroy(m->f);
    cairn_field_destroy(m->ft);
    cairn_flow_builder_destroy(m->b);
    cairn_grid_destroy(m->grid);
    cairn_grid_destroy(m->terrain);
    scen_file_free(&m->file);
  }
}

static int ready_or_skip(cairn_bench_state *st, flow_map *m) {
  if (map_ready(m)) return 1;
  cairn_bench_skip(st, m->error);
  return 0;
}

static void per_cell_counters(cairn_bench_state *st, size_t cells) {
  double total = (double)cells * (double)cairn_bench_iterations(st);
  cairn_bench_counter(st, "cells", (double)cells, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "ns_per_cell", total / 1e9, CAIRN_BENCH_RATE | CAIRN_BENCH_INVERT);
}

static int no_allocs(cairn_bench_state *st, const flow_map *m, uint64_t before) {
  if (m->allocs == before) return 1;
  cairn_bench_skip(st, "allocated inside the timed loop");
  return 0;
}

/* ---- whole-map fields -------------------------------------------------- */

typedef struct field_case {
  flow_map *m;
  int threads;
  cairn_flow_queue queue;
  int terrain;
} field_case;

static void bm_field(cairn_bench_state *st, void *user) {
  field_case *c = user;
  flow_map *m = c->m;
  if (!ready_or_skip(st, m)) return;
  cairn_flow_opts o = cairn_flow_defaults();
  o.threads = c->threads;
  o.queue = c->queue;
  cairn_grid *g = c->terrain ? m->terrain : m->grid;
  cairn_field *f = c->terrain ? m->ft : m->f;
  cairn_status s = cairn_field_build(m->b, f, g, &m->goal, 1, &o);
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  uint64_t before = m->allocs;
  while (cairn_bench_next(st)) cairn_field_build(m->b, f, g, &m->goal, 1, &o);
  if (!no_allocs(st, m, before)) return;
  cairn_field_stats fs;
  cairn_field_get_stats(f, &fs);
  per_cell_counters(st, fs.reachable);
}

/* The core's own reverse fill (cairn_dijkstra_fill, to_sources): its FIFO
 * pair on uniform terrain, its binary heap on uneven terrain. */
static void bm_core_fill(cairn_bench_state *st, void *user) {
  field_case *c = user;
  flow_map *m = c->m;
  if (!ready_or_skip(st, m)) return;
  cairn_grid *g = c->terrain ? m->terrain : m->grid;
  cairn_status s = cairn_dijkstra_fill(m->s, g, &m->goal, 1, NULL, 0, 1, NULL);
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  uint64_t before = m->allocs;
  while (cairn_bench_next(st)) cairn_dijkstra_fill(m->s, g, &m->goal, 1, NULL, 0, 1, NULL);
  if (!no_allocs(st, m, before)) return;
  cairn_field_stats fs;
  cairn_field_get_stats(m->f, &fs);
  per_cell_counters(st, fs.reachable);
}

/* ---- the floor: a plain 4-connected BFS ------------------------------- */

static void bm_bfs(cairn_bench_state *st, void *user) {
  flow_map *m = user;
  if (!ready_or_skip(st, m)) return;
  int32_t stride;
  const uint8_t *g = cairn_grid_cells(m->grid, &stride);
  size_t n = (size_t)stride * (size_t)(cairn_grid_height(m->grid) + 2);
  uint32_t src = (uint32_t)((m->goal.y + 1) * stride + m->goal.x + 1);
  size_t reached = 0;
  while (cairn_bench_next(st))
    reached = bench_bfs4(g, n, (size_t)stride, src, m->bfs_dist, m->bfs_queue);
  per_cell_counters(st, reached);
}

/* ---- sector tiles along a long route ---------------------------------- */

typedef struct tiles_case {
  flow_map *m;
  cairn_hpa *hpa;
  cairn_hpa_query *q;
  cairn_point *path;
  size_t path_len;
} tiles_case;

/* One iteration: tiles for the goal, the HPA* route from the longest
 * row's start, and every routed sector integrated (each asked for a
 * direction once). Creating the tiles allocates; that is counted apart. */
static void bm_sectors(cairn_bench_state *st, void *user) {
  tiles_case *c = user;
  flow_map *m = c->m;
  if (!ready_or_skip(st, m)) return;
  cairn_status s = CAIRN_OK;
  if (!c->hpa && (s = cairn_hpa_create(m->grid, NULL, NULL, &c->hpa)) == CAIRN_OK)
    s = cairn_hpa_query_create(NULL, &c->q);
  if (s == CAIRN_OK) s = cairn_hpa_query_reserve(c->q, c->hpa);
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  cairn_flow_tiles_stats ts;
  memset(&ts, 0, sizeof ts);
  cairn_cost tile_cost = CAIRN_COST_INF;
  while (cairn_bench_next(st)) {
    cairn_flow_tiles *t = NULL;
    s = cairn_flow_tiles_create(m->grid, c->hpa, m->goal, 4096, NULL, &t);
    if (s == CAIRN_OK) s = cairn_flow_tiles_route(t, c->q, m->far);
    int d = CAIRN_FLOW_NONE;
    cairn_point p = m->far;
    if (s == CAIRN_OK) s = cairn_flow_tiles_dir(t, p.x, p.y, &d, &tile_cost);
    /* walk the tiles: each sector is integrated when first entered */
    for (size_t steps = 0; s == CAIRN_OK && steps < 1u << 22; steps++) {
      s = cairn_flow_tiles_dir(t, p.x, p.y, &d, NULL);
      if (d >= 8) break;
      p.x += cairn_flow_dir_dx(d);
      p.y += cairn_flow_dir_dy(d);
    }
    if (s == CAIRN_OK && d != CAIRN_FLOW_GOAL) s = CAIRN_NO_PATH;
    cairn_flow_tiles_get_stats(t, &ts);
    cairn_flow_tiles_destroy(t);
    if (s != CAIRN_OK) break;
  }
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  cairn_bench_counter(st, "sectors", (double)ts.built, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "sector_cells", (double)(ts.built * (size_t)ts.sector * (size_t)ts.sector),
                      CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "memory_kb", (double)ts.memory_bytes / 1024.0, CAIRN_BENCH_PLAIN);
  /* the route's cost through the tiles against the exact field's */
  cairn_field_build(m->b, m->f, m->grid, &m->goal, 1, NULL);
  cairn_bench_counter(st, "cost_over_optimal",
                      (double)tile_cost / (double)cairn_field_cost(m->f, m->far.x, m->far.y),
                      CAIRN_BENCH_PLAIN);
}

/* ---- a 4096 x 4096 map: tiles along a route, or the whole field ------- */

/* Generated (no Moving AI map is this large): 12000 square blocks of 1..16
 * cells at positions from a fixed xorshift sequence, the corners (96, 96)
 * and (4000, 4000) kept open; the route runs between them. */
typedef struct big_map {
  int state;
  char error[160];
  cairn_grid *grid;
  cairn_hpa *hpa;
  cairn_hpa_query *q;
  cairn_flow_builder *b;
  cairn_field *f;
  cairn_point from, to;
} big_map;

static big_map big;

static uint64_t xorshift(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static cairn_status make_big(big_map *m) {
  const int32_t side = 4096;
  cairn_status st = cairn_grid_create(side, side, 1, NULL, &m->grid);
  uint64_t x = 88172645463325252ull;
  for (int k = 0; st == CAIRN_OK && k < 12000; k++) {
    int32_t bx = (int32_t)(xorshift(&x) % side), by = (int32_t)(xorshift(&x) % side);
    int32_t bs = 1 + (int32_t)(xorshift(&x) % 16);
    for (int32_t y = by; y < by + bs && y < side; y++)
      for (int32_t xx = bx; xx < bx + bs && xx < side; xx++) cairn_grid_set_cost(m->grid, xx, y, 0);
  }
  m->from = (cairn_point){96, 96};
  m->to = (cairn_point){4000, 4000};
  for (int32_t dy = -1; st == CAIRN_OK && dy <= 1; dy++)
    for (int32_t dx = -1; dx <= 1; dx++) {
      cairn_grid_set_cost(m->grid, m->from.x + dx, m->from.y + dy, 1);
      cairn_grid_set_cost(m->grid, m->to.x + dx, m->to.y + dy, 1);
    }
  if (st == CAIRN_OK) st = cairn_grid_update_islands(m->grid);
  if (st == CAIRN_OK) st = cairn_hpa_create(m->grid, NULL, NULL, &m->hpa);
  if (st == CAIRN_OK) st = cairn_hpa_query_create(NULL, &m->q);
  if (st == CAIRN_OK) st = cairn_hpa_query_reserve(m->q, m->hpa);
  if (st == CAIRN_OK) st = cairn_flow_builder_create(NULL, &m->b);
  if (st == CAIRN_OK) st = cairn_field_create(m->grid, NULL, &m->f);
  if (st == CAIRN_OK) st = cairn_field_build(m->b, m->f, m->grid, &m->to, 1, NULL);
  if (st == CAIRN_OK && cairn_field_cost(m->f, m->from.x, m->from.y) == CAIRN_COST_INF)
    st = CAIRN_NO_PATH;
  return st;
}

static int big_ready(cairn_bench_state *st) {
  if (!big.state) {
    cairn_status s = make_big(&big);
    big.state = s == CAIRN_OK ? 1 : -1;
    snprintf(big.error, sizeof big.error, "the 4096 x 4096 map: %s", cairn_status_str(s));
  }
  if (big.state > 0) return 1;
  cairn_bench_skip(st, big.error);
  return 0;
}

static void free_big(void) {
  cairn_field_destroy(big.f);
  cairn_flow_builder_destroy(big.b);
  cairn_hpa_query_destroy(big.q);
  cairn_hpa_destroy(big.hpa);
  cairn_grid_destroy(big.grid);
}

/* One iteration: tiles, the route, and a walk along them from the start
 * (integrating each sector on entry). */
static void bm_big_sectors(cairn_bench_state *st, void *user) {
  (void)user;
  if (!big_ready(st)) return;
  cairn_flow_tiles_stats ts;
  memset(&ts, 0, sizeof ts);
  cairn_cost tile_cost = CAIRN_COST_INF;
  cairn_status s = CAIRN_OK;
  while (cairn_bench_next(st)) {
    cairn_flow_tiles *t = NULL;
    s = cairn_flow_tiles_create(big.grid, big.hpa, big.to, 8192, NULL, &t);
    if (s == CAIRN_OK) s = cairn_flow_tiles_route(t, big.q, big.from);
    int d = CAIRN_FLOW_NONE;
    cairn_point p = big.from;
    if (s == CAIRN_OK) s = cairn_flow_tiles_dir(t, p.x, p.y, &d, &tile_cost);
    for (size_t steps = 0; s == CAIRN_OK && d < 8 && steps < 1u << 24; steps++) {
      p.x += cairn_flow_dir_dx(d);
      p.y += cairn_flow_dir_dy(d);
      s = cairn_flow_tiles_dir(t, p.x, p.y, &d, NULL);
    }
    if (s == CAIRN_OK && d != CAIRN_FLOW_GOAL) s = CAIRN_NO_PATH;
    cairn_flow_tiles_get_stats(t, &ts);
    cairn_flow_tiles_destroy(t);
    if (s != CAIRN_OK) break;
  }
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  cairn_field_stats fs;
  cairn_field_get_stats(big.f, &fs);
  cairn_bench_counter(st, "sectors", (double)ts.built, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "memory_kb", (double)ts.memory_bytes / 1024.0, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "whole_field_mb", (double)fs.memory_bytes / 1e6, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "cost_over_optimal",
                      (double)tile_cost / (double)cairn_field_cost(big.f, big.from.x, big.from.y),
                      CAIRN_BENCH_PLAIN);
}

static void bm_big_field(cairn_bench_state *st, void *user) {
  (void)user;
  if (!big_ready(st)) return;
  cairn_flow_opts o = cairn_flow_defaults();
  o.threads = 2;
  while (cairn_bench_next(st)) cairn_field_build(big.b, big.f, big.grid, &big.to, 1, &o);
  cairn_field_stats fs;
  cairn_field_get_stats(big.f, &fs);
  per_cell_counters(st, fs.reachable);
}

/* ---- repair against rebuild ------------------------------------------ */

/* The edits, raised and lowered on alternate iterations: a wall of 5 cells
 * across the route halfway along the path from the far start (a tenth of
 * the map depends on it), or (small) one cell 3 steps along that path,
 * which only the cells behind it depend on. */
typedef struct edit_case {
  flow_map *m;
  int rebuild, small;
  cairn_point cells[5];
  int n;
} edit_case;

static void find_edit(edit_case *c) {
  flow_map *m = c->m;
  cairn_point p = m->far;
  size_t len = 0;
  int d;
  while ((d = cairn_field_dir(m->f, p.x, p.y)) < 8 && len < 4000000) {
    p.x += cairn_flow_dir_dx(d);
    p.y += cairn_flow_dir_dy(d);
    len++;
  }
  p = m->far;
  size_t along = c->small ? 3 : len / 2;
  for (size_t k = 0; k < along; k++) {
    d = cairn_field_dir(m->f, p.x, p.y);
    p.x += cairn_flow_dir_dx(d);
    p.y += cairn_flow_dir_dy(d);
  }
  c->n = c->small ? 1 : 5;
  for (int k = 0; k < c->n; k++) c->cells[k] = (cairn_point){p.x, p.y - c->n / 2 + k};
  for (int k = 0; k < c->n; k++)
    if (!cairn_grid_cost(m->grid, c->cells[k].x, c->cells[k].y)) c->cells[k] = p;
}

static void bm_edit(cairn_bench_state *st, void *user) {
  edit_case *c = user;
  flow_map *m = c->m;
  if (!ready_or_skip(st, m)) return;
  cairn_flow_opts o = cairn_flow_defaults();
  o.threads = 1;
  cairn_field_build(m->b, m->f, m->grid, &m->goal, 1, &o);
  if (!c->n) find_edit(c);
  uint8_t costs[2] = {1, 0};
  uint64_t before = m->allocs, iter = 0;
  cairn_status s = CAIRN_OK;
  while (cairn_bench_next(st)) {
    uint8_t v = costs[++iter & 1];
    for (int k = 0; k < c->n; k++) cairn_grid_set_cost(m->grid, c->cells[k].x, c->cells[k].y, v);
    if (c->rebuild) s = cairn_field_build(m->b, m->f, m->grid, &m->goal, 1, &o);
    else s = cairn_field_repair(m->b, m->f, c->cells, (size_t)c->n);
    if (s != CAIRN_OK) break;
  }
  cairn_field_stats fs;
  cairn_field_get_stats(m->f, &fs);
  /* leave the map as it was */
  for (int k = 0; k < c->n; k++) cairn_grid_set_cost(m->grid, c->cells[k].x, c->cells[k].y, 1);
  cairn_grid_update_islands(m->grid);
  cairn_field_build(m->b, m->f, m->grid, &m->goal, 1, NULL);
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  if (!no_allocs(st, m, before)) return;
  if (!c->rebuild) /* the last repair's (a raise or a lowering) */
    cairn_bench_counter(st, "cells_repaired", (double)fs.repaired, CAIRN_BENCH_PLAIN);
}

/* ---- one field against 10,000 A* searches ---------------------------- */

#define HORDE_SAMPLE 200

typedef struct horde_case {
  flow_map *m;
  cairn_point starts[HORDE_SAMPLE];
  int ready;
} horde_case;

static void pick_starts(horde_case *c) {
  flow_map *m = c->m;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  int32_t w = cairn_grid_width(m->grid), h = cairn_grid_height(m->grid);
  for (int k = 0; k < HORDE_SAMPLE;) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    cairn_point p = {(int32_t)(x % (uint64_t)w), (int32_t)((x >> 32) % (uint64_t)h)};
    if (cairn_field_cost(m->f, p.x, p.y) != CAIRN_COST_INF) c->starts[k++] = p;
  }
  c->ready = 1;
}

/* One iteration is one A* query, from the k-th sampled start (distinct
 * random reachable cells) to the field's goal. Afterwards the sample is
 * timed once more by hand, and the field's build time (best of 5, 2
 * threads) is given as a share of 10,000 such queries: the per-query mean
 * scaled to 10,000. */
static void bm_horde(cairn_bench_state *st, void *user) {
  horde_case *c = user;
  flow_map *m = c->m;
  if (!ready_or_skip(st, m)) return;
  if (!c->ready) pick_starts(c);
  cairn_result r;
  uint64_t k = 0, before = m->allocs;
  while (cairn_bench_next(st))
    cairn_astar(m->s, m->grid, c->starts[k++ % HORDE_SAMPLE], m->goal, NULL, &r);
  if (!no_allocs(st, m, before)) return;
  double t0 = now_ms();
  for (int i = 0; i < HORDE_SAMPLE; i++) cairn_astar(m->s, m->grid, c->starts[i], m->goal, NULL, &r);
  double per_query = (now_ms() - t0) / HORDE_SAMPLE;
  cairn_flow_opts o = cairn_flow_defaults();
  o.threads = 2;
  double best = 1e30;
  for (int i = 0; i < 5; i++) {
    t0 = now_ms();
    cairn_field_build(m->b, m->f, m->grid, &m->goal, 1, &o);
    double t = now_ms() - t0;
    best = t < best ? t : best;
  }
  cairn_bench_counter(st, "astar_10k_ms", per_query * 10000, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "field_ms", best, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "field_pct_of_10k", 100 * best / (per_query * 10000), CAIRN_BENCH_PLAIN);
}

/* ---- registration ---------------------------------------------------- */

static field_case field_cases[N_MAPS][12];
static tiles_case tiles_cases[N_MAPS];
static edit_case edit_cases[N_MAPS][3];
static horde_case horde_cases[N_MAPS];

static void reg(const char *what, const char *map, const char *tail,
                cairn_bench_fn fn, void *user, cairn_bench_unit unit) {
  char name[160];
  snprintf(name, sizeof name, "flow/%s/%s%s", what, map, tail);
  cairn_bench_def *def = cairn_bench_register(name, fn, user);
  if (!def) return;
  cairn_bench_def_unit(def, unit);
  cairn_bench_def_real_time(def);
}

static void register_map(size_t i) {
  flow_map *m = &maps[i];
  field_case *fc = field_cases[i];
  static const struct {
    const char *what, *tail;
    int threads, queue, terrain, core;
  } cases[] = {
      {"field", "/threads:1", 1, CAIRN_FLOW_QUEUE_AUTO, 0, 0},
      {"field", "/threads:2", 2, CAIRN_FLOW_QUEUE_AUTO, 0, 0},
      {"queue_fifo", "", 1, CAIRN_FLOW_QUEUE_FIFO, 0, 0},
      {"queue_buckets", "", 1, CAIRN_FLOW_QUEUE_BUCKETS, 0, 0},
      {"queue_heap", "", 1, CAIRN_FLOW_QUEUE_HEAP, 0, 0},
      {"core_fill", "", 1, 0, 0, 1},
      {"queue_buckets", "/terrain", 1, CAIRN_FLOW_QUEUE_BUCKETS, 1, 0},
      {"queue_heap", "/terrain", 1, CAIRN_FLOW_QUEUE_HEAP, 1, 0},
      {"core_fill", "/terrain", 1, 0, 1, 1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    fc[k] = (field_case){m, cases[k].threads, (cairn_flow_queue)cases[k].queue, cases[k].terrain};
    reg(cases[k].what, m->name, cases[k].tail, cases[k].core ? bm_core_fill : bm_field, &fc[k],
        CAIRN_BENCH_MS);
  }
  reg("bfs_floor", m->name, "", bm_bfs, m, CAIRN_BENCH_MS);
  tiles_cases[i].m = m;
  reg("sectors", m->name, "", bm_sectors, &tiles_cases[i], CAIRN_BENCH_MS);
  static const char *const edit_names[3] = {"repair", "rebuild", "repair_small"};
  for (int r = 0; r < 3; r++) {
    edit_cases[i][r] = (edit_case){.m = m, .rebuild = r == 1, .small = r == 2};
    reg(edit_names[r], m->name, "", bm_edit, &edit_cases[i][r], CAIRN_BENCH_US);
  }
  horde_cases[i].m = m;
  reg("horde_astar_query", m->name, "", bm_horde, &horde_cases[i], CAIRN_BENCH_US);
}

void cairn_bench_register_all(void) {
  atexit(free_all);
  atexit(free_big);
  for (size_t i = 0; i < N_MAPS; i++) register_map(i);
  reg("sectors", "generated4096", "", bm_big_sectors, NULL, CAIRN_BENCH_MS);
  reg("field", "generated4096", "/threads:2", bm_big_field, NULL, CAIRN_BENCH_MS);
}
