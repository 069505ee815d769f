/*
 * bench_crowd.c - crowd ticks: the night of the dead with 10,000 undead on
 * the shipped settlement (256 x 256) and 100,000 on a generated settlement
 * of 1024 x 1024, at 1 and 2 threads, and the shared field's build. Its own
 * program, cairn_bench_crowd:
 *
 *   CAIRN_BENCH=build-bench/bench/cairn_bench_crowd bench/run.sh crowd
 *
 * Each run (each repetition) sets its crowd up afresh (spawned at the
 * edges, one field to the gates from the flow cache), ticks 300 times so
 * the horde is on its way, then times one tick an iteration (wall time:
 * the tick runs on the job pool), 100 iterations a run: every repetition
 * times the same ticks 300 to 399. A tick includes everything but the
 * field build: bins, steering on the shared field, the commit.
 */
#include "bench_shim.h"

#include "cairn/crowd.h"
#include "cairn_scenarios.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CAIRN_SOURCE_DIR
#define CAIRN_SOURCE_DIR "."
#endif

typedef struct crowd_case {
  uint32_t agents;
  int32_t side; /* 0: the shipped settlement map */
  int threads;
  int state; /* 0 not set up, 1 ready, -1 failed */
  char error[256];
  cairn_grid *grid;
  cairn_crowd *crowd;
} crowd_case;

static crowd_case cases[] = {
    {.agents = 10000, .side = 0, .threads = 1},
    {.agents = 10000, .side = 0, .threads = 2},
    {.agents = 100000, .side = 1024, .threads = 1},
    {.agents = 100000, .side = 1024, .threads = 2},
};
#define N_CASES (sizeof cases / sizeof cases[0])

static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static cairn_status load_grid(int32_t side, cairn_grid **out) {
  cairn_error err;
  if (!side) {
    return cairn_map_load(CAIRN_SOURCE_DIR "/maps/settlement.map", NULL, NULL, out, &err);
  }
  size_t cap = (size_t)side * (size_t)(side + 1) + 64;
  char *chars = malloc((size_t)side * (size_t)side), *text = malloc(cap);
  cairn_status st = chars && text ? cairn_settlement_generate(side, side, 1, chars)
                                  : CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK) {
    size_t len = (size_t)snprintf(text, cap, "type octile\nheight %d\nwidth %d\nmap\n", side, side);
    for (int32_t y = 0; y < side; y++) {
      memcpy(text + len, chars + (size_t)y * (size_t)side, (size_t)side);
      len += (size_t)side;
      text[len++] = '\n';
    }
    st = cairn_map_parse(text, len, "settlement", NULL, NULL, out, &err);
  }
  free(chars);
  free(text);
  return st;
}

/* The gates: the generator's 'G' cells sit on the town wall; found here as
 * the open cells of the wall ring (3/8 and 5/8 of each side). */
static size_t find_gates(const cairn_grid *g, cairn_point *gates, size_t cap) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  int32_t x0 = w * 3 / 8, x1 = w * 5 / 8, y0 = h * 3 / 8, y1 = h * 5 / 8;
  size_t n = 0;
  for (int32_t y = y0; y <= y1; y++)
    for (int32_t x = x0; x <= x1; x++) {
      int ring = x == x0 || x == x1 || y == y0 || y == y1;
      if (ring && cairn_grid_cost(g, x, y) && n < cap) gates[n++] = (cairn_point){x, y};
    }
  return n;
}

static int setup(crowd_case *k) {
  if (k->state) return k->state;
  k->state = -1;
  cairn_status st = load_grid(k->side, &k->grid);
  if (st != CAIRN_OK) {
    snprintf(k->error, sizeof k->error, "map: %s", cairn_status_str(st));
    return -1;
  }
  cairn_point gates[256];
  size_t n_gates = find_gates(k->grid, gates, 256);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = k->agents;
  o.threads = k->threads;
  st = cairn_crowd_create(k->grid, &o, NULL, &k->crowd);
  int32_t w = cairn_grid_width(k->grid), h = cairn_grid_height(k->grid);
  uint32_t island = cairn_grid_island(k->grid, gates[0].x, gates[0].y);
  cairn_agent *agents = malloc(sizeof *agents * k->agents);
  uint64_t rs = 7;
  uint32_t added = 0;
  int32_t depth = (int32_t)(k->agents / (uint32_t)(2 * (w + h))) + 8;
  while (st == CAIRN_OK && agents && added < k->agents) {
    int32_t x = (int32_t)(next_rand(&rs) % (uint64_t)w), y = (int32_t)(next_rand(&rs) % (uint64_t)h);
    int32_t e = x < y ? x : y;
    if (w - 1 - x < e) e = w - 1 - x;
    if (h - 1 - y < e) e = h - 1 - y;
    if (e >= depth || cairn_grid_island(k->grid, x, y) != island) continue;
    cairn_agent_params p = {(float)x + 0.5f, (float)y + 0.5f, 0.25f, 1.6f, 1, 0};
    st = cairn_crowd_add(k->crowd, &p, &agents[added++]);
  }
  if (st == CAIRN_OK && agents)
    st = cairn_crowd_order_field(k->crowd, agents, added, gates, n_gates);
  free(agents);
  for (int t = 0; t < 300 && st == CAIRN_OK; t++) st = cairn_crowd_tick(k->crowd);
  if (st != CAIRN_OK) {
    snprintf(k->error, sizeof k->error, "setup: %s", cairn_status_str(st));
    return -1;
  }
  return k->state = 1;
}

/* Back to no crowd, so the next setup starts the night again. */
static void teardown(crowd_case *k) {
  cairn_crowd_destroy(k->crowd);
  cairn_grid_destroy(k->grid);
  k->crowd = NULL;
  k->grid = NULL;
  k->state = 0;
}

static void bm_tick(cairn_bench_state *st, void *user) {
  crowd_case *k = user;
  if (k->state > 0) teardown(k); /* a repetition: the same ticks again */
  if (setup(k) < 0) {
    cairn_bench_skip(st, k->error);
    return;
  }
  uint64_t updates = 0;
  while (cairn_bench_next(st)) {
    cairn_crowd_tick(k->crowd);
    cairn_crowd_stats s;
    cairn_crowd_get_stats(k->crowd, &s);
    updates += s.active;
  }
  cairn_bench_counter(st, "agents", (double)updates, CAIRN_BENCH_AVG_ITER);
  cairn_bench_counter(st, "updates_per_s", (double)updates, CAIRN_BENCH_RATE);
}

/* The field the horde shares, built afresh (the tick's only shared cost
 * outside it: a goal set's field is built once per order). */
static void bm_field(cairn_bench_state *st, void *user) {
  crowd_case *k = user;
  if (setup(k) < 0) {
    cairn_bench_skip(st, k->error);
    return;
  }
  cairn_point gates[256];
  size_t n = find_gates(k->grid, gates, 256);
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  cairn_flow_opts o = cairn_flow_defaults();
  o.threads = k->threads;
  o.los_radius = 0;
  if (cairn_flow_builder_create(NULL, &b) != CAIRN_OK ||
      cairn_field_create(k->grid, NULL, &f) != CAIRN_OK) {
    cairn_bench_skip(st, "out of memory");
    return;
  }
  while (cairn_bench_next(st)) cairn_field_build(b, f, k->grid, gates, n, &o);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
}

static void free_all(void) {
  for (size_t i = 0; i < N_CASES; i++) {
    cairn_crowd_destroy(cases[i].crowd);
    cairn_grid_destroy(cases[i].grid);
  }
}

void cairn_bench_register_all(void) {
  atexit(free_all);
  for (size_t i = 0; i < N_CASES; i++) {
    char name[128];
    snprintf(name, sizeof name, "crowd/tick/%s/%u/threads:%d",
             cases[i].side ? "settlement1024" : "settlement", cases[i].agents, cases[i].threads);
    cairn_bench_def *d = cairn_bench_register(name, bm_tick, &cases[i]);
    if (!d) continue;
    cairn_bench_def_unit(d, CAIRN_BENCH_MS);
    cairn_bench_def_real_time(d);
    cairn_bench_def_iterations(d, 100);
  }
  for (size_t i = 1; i < N_CASES; i += 2) {
    char name[128];
    snprintf(name, sizeof name, "crowd/field/%s/threads:%d",
             cases[i].side ? "settlement1024" : "settlement", cases[i].threads);
    cairn_bench_def *d = cairn_bench_register(name, bm_field, &cases[i]);
    if (!d) continue;
    cairn_bench_def_unit(d, CAIRN_BENCH_MS);
    cairn_bench_def_real_time(d);
  }
}
