/*
 * bench_hpa.c - HPA* (cairn/hierarchy.h) on Moving AI maps: building the
 * hierarchy, per-query cairn_hpa_find against A* on the same queries, the
 * time until a unit can start moving (plan + first refinement), and the
 * cost of one-cell edits. Registered through bench_shim.h, from the end of
 * cairn_bench_register_all (bench_astar.c), so it runs in cairn_bench.
 * Google Benchmark appends "/iterations:N" or "/real_time" to the names.
 *
 * hpa_build/MAP/cluster:N/threads:T
 *   cairn_hpa_create on the map's grid with opts.cluster = N and
 *   opts.threads = T; one iteration is one build (the destroy is outside the
 *   clock). Wall-clock time (UseRealTime), since the build runs on T
 *   threads. Counters: nodes, edges, clusters, memory_bytes (of the
 *   hierarchy, from cairn_hpa_get_stats).
 *
 * hpa_load/MAP/threads:T
 *   cairn_hpa_load of the map's default hierarchy (cluster side 16,
 *   saved to memory once with cairn_hpa_save, untimed) with opts.threads
 *   = T; one iteration is one load (the destroy is outside the clock), to
 *   compare with hpa_build/MAP/cluster:16/threads:T: how much faster a
 *   game that ships the file starts a level. Every load must give the
 *   built hierarchy's nodes, edges and memory_bytes, or the run fails.
 *   Wall-clock time. Counters: file_bytes, memory_bytes.
 *
 * hpa/MAP/buckets_LO-HI
 *   cairn_hpa_find (default path options: smoothing on, plain A* for
 *   queries within two cluster sides) per query, on the same queries as
 *   astar/MAP/buckets_LO-HI (the groups and samples come from
 *   bench_common.h), in whole passes over the sample as there, but enough
 *   passes that their optimal lengths add up to HPA_WORK_MIN cells, four
 *   times as many, so each repetition times long enough although HPA* is
 *   much faster (the iteration counts differ from A*'s). Each map has
 *   one hierarchy (the default cluster side, 16; threads = the job pool's
 *   default) and one cairn_hpa_query, created with a counting allocator,
 *   both made before anything is timed. On its first run each group
 *   answers every query of its sample once, untimed: the path must pass
 *   cairn_grid_check_path (8 moves), its reported cost must match the
 *   recomputed one and must not beat the scenario's optimal length, and the
 *   pass yields the suboptimality of the sample (mean and max, in % over
 *   the optimal length) and the share answered by plain A*. A run fails if
 *   any of that does not hold, if a timed query fails, or if the query
 *   context allocated anything inside the timed loop. Counters: expanded
 *   (per query), subopt_pct, max_subopt_pct, plain_pct, query_bytes.
 *
 * hpa_refine_first/MAP
 *   On the longest group of brc202d and TheFrozenSea (the same sample):
 *   cairn_hpa_plan then cairn_hpa_refine(q, 1), the time until a unit has
 *   its first steps. Compare with hpa/MAP/buckets_LO-HI of that group (the
 *   whole cairn_hpa_find), named in the label. Counters: expanded,
 *   first_steps (path points after the first refinement), route_len.
 *
 * hpa_edit/MAP/interior, hpa_edit/MAP/border
 *   cairn_hpa_edit of one cell, alternately closing it and reopening it
 *   (one edit per iteration), at the centre of a cluster and at the middle
 *   of a cluster's east border (both cells with all 8 neighbours open,
 *   searched from the map's central cluster outwards; the label gives the
 *   cell). The map gets its own grid and hierarchy for this, so the query
 *   benchmarks never see an edited grid; after the run the cell is open
 *   again and the node and edge counts must equal the built ones. Counters:
 *   rebuilt_clusters (of the last edit), allocs and alloc_bytes (per edit:
 *   calls to the hierarchy's allocator and the bytes they asked for).
 *   Wall-clock time.
 * hpa_edit/MAP/grid_islands
 *   For reference: the same toggle of the interior cell with
 *   cairn_grid_set_cost + cairn_grid_update_islands only, the island
 *   refresh every edit includes.
 */
#include "bench_common.h"
#include "bench_shim.h"

#include "cairn/core.h"
#include "cairn/hierarchy.h"

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Passes over each group's sample: enough that their optimal lengths add
 * up to this many cells (4 times the A* benchmark's minimum, so the much
 * faster HPA* queries still time 0.1 s or more per repetition). */
#define HPA_WORK_MIN (4 * CAIRN_BENCH_WORK_MIN)

/* ---- data ------------------------------------------------------------ */

typedef struct hmap {
  const char *name;
  int32_t build_clusters[4]; /* hpa_build cluster sides; 0 ends the list */
  int refine;                /* register hpa_refine_first */
  int edit;                  /* register hpa_edit */

  int state; /* 0: not loaded yet, 1: loaded, -1: failed (see error) */
  char error[2048];
  cairn_bench_scen data;  /* read at registration */
  const cairn_scen *scen; /* its rows, or NULL */
  cairn_grid *grid; /* never edited */
  int hpa_state;    /* the query hierarchy: 0 not built, 1 ready, -1 failed */
  cairn_hpa *hpa;
  cairn_hpa_query *query;
  uint64_t allocs; /* allocations made through the query context */

  /* editing: a grid and a hierarchy of its own */
  int edit_state;
  char edit_error[256];
  cairn_grid *egrid;
  cairn_hpa *ehpa;
  cairn_point cell[2]; /* interior, border */
  uint32_t nodes;      /* as built */
  size_t edges;
  /* allocations through the edit hierarchy's allocator (atomic: the
   * hierarchy allocates from its build threads) and the bytes asked for */
  _Atomic uint64_t edit_allocs, edit_bytes;
} hmap;

static hmap maps[] = {
    {.name = "brc202d", .build_clusters = {16, 12, 20, 32}, .refine = 1,
     .edit = 1},
    {.name = "AR0011SR", .build_clusters = {16, 12, 20, 32}},
    {.name = "Aftershock", .build_clusters = {16}},
    {.name = "TheFrozenSea", .build_clusters = {16}, .refine = 1, .edit = 1},
    {.name = "maze512-32-0", .build_clusters = {16}},
    {.name = "NewYork_0_1024", .build_clusters = {16}},
    {.name = "random512-10-0", .build_clusters = {16}},
    {.name = "8room_000", .build_clusters = {16}},
    {.name = "w_woundedcoast", .build_clusters = {16}},
    {.name = "32room_000", .build_clusters = {16}},
    {.name = "AR0205SR", .build_clusters = {16}},
    {.name = "gardenofwar", .build_clusters = {16}},
    {.name = "icecrown", .build_clusters = {16}},
    {.name = "maze512-1-0", .build_clusters = {16}},
    {.name = "random512-40-0", .build_clusters = {16}},
};
#define N_MAPS (sizeof maps / sizeof maps[0])

typedef struct build_case {
  hmap *map;
  int32_t cluster;
  int threads;
} build_case;

static build_case builds[N_MAPS * 4 * 2];
static size_t n_builds;

typedef struct hgroup {
  hmap *map;
  cairn_bench_split s;
  int state; /* 0: not prepared yet, 1: ready, -1: failed (error) */
  char error[256];
  cairn_bench_query *q;
  size_t n, skipped;
  double mean_subopt, max_subopt; /* % over the optimal length */
  size_t plain;                   /* answered by plain A* */
  char label[128];
  char refine_label[160];
} hgroup;

static hgroup groups[N_MAPS * CAIRN_BENCH_GROUPS];
static size_t n_groups;

typedef struct edit_case {
  hmap *map;
  int kind; /* 0 interior, 1 border, 2 grid islands only */
} edit_case;

static edit_case edits[N_MAPS * 3];
static size_t n_edits;

static void free_all(void) {
  for (size_t i = 0; i < n_groups; i++) free(groups[i].q);
  for (size_t i = 0; i < N_MAPS; i++) {
    hmap *m = &maps[i];
    cairn_hpa_query_destroy(m->query);
    cairn_hpa_destroy(m->hpa);
    cairn_hpa_destroy(m->ehpa);
    cairn_grid_destroy(m->grid);
    cairn_grid_destroy(m->egrid);
    cairn_bench_scen_free(&m->data);
    m->query = NULL;
    m->hpa = m->ehpa = NULL;
    m->grid = m->egrid = NULL;
    m->scen = NULL;
  }
}

static int load_grid(hmap *m, cairn_grid **out, char *error, size_t size) {
  return cairn_bench_load_grid(&m->data, out, error, size);
}

/* Loads the grid, once. */
static int map_ready(hmap *m) {
  if (m->state) return m->state > 0;
  m->state = -1;
  if (load_grid(m, &m->grid, m->error, sizeof m->error) != 0) return 0;
  m->state = 1;
  return 1;
}

/* Builds the query hierarchy and context, once. */
static int hpa_ready(hmap *m) {
  if (!map_ready(m)) return 0;
  if (m->hpa_state) return m->hpa_state > 0;
  m->hpa_state = -1;
  cairn_status st = cairn_hpa_create(m->grid, NULL, NULL, &m->hpa);
  if (st != CAIRN_OK) {
    snprintf(m->error, sizeof m->error, "cairn_hpa_create: %s",
             cairn_status_str(st));
    return 0;
  }
  const cairn_allocator a = {cairn_bench_counting_alloc, &m->allocs};
  st = cairn_hpa_query_create(&a, &m->query);
  if (st != CAIRN_OK) {
    snprintf(m->error, sizeof m->error, "cairn_hpa_query_create: %s",
             cairn_status_str(st));
    return 0;
  }
  m->hpa_state = 1;
  return 1;
}

static const char *map_error(const hmap *m) { return m->error; }

/* Builds a group's sample and answers each query once, untimed, checking
 * the path and measuring its suboptimality. */
static int group_ready(hgroup *g) {
  hmap *m = g->map;
  if (!hpa_ready(m)) return 0;
  if (g->state) return g->state > 0;
  g->state = -1;
  g->q = cairn_bench_sample(m->scen, m->grid, &g->s, &g->n, &g->skipped,
                            g->error, sizeof g->error);
  if (!g->q) return 0;
  double sum = 0;
  for (size_t k = 0; k < g->n; k++) {
    const cairn_bench_query *q = &g->q[k];
    cairn_hpa_result r;
    cairn_status st =
        cairn_hpa_find(m->query, m->hpa, q->start, q->goal, NULL, &r);
    if (st != CAIRN_OK) {
      snprintf(g->error, sizeof g->error, "scenario line %u: %s",
               (unsigned)q->line, cairn_status_str(st));
      return 0;
    }
    cairn_path_check c;
    cairn_grid_check_path(m->grid, r.path, r.path_len, q->start, q->goal, 8,
                          &c);
    if (!c.valid) {
      snprintf(g->error, sizeof g->error,
               "scenario line %u: invalid path: %s at point %zu of %zu",
               (unsigned)q->line, c.problem, c.bad_index, r.path_len);
      return 0;
    }
    const double cost = cairn_cost_to_double(r.cost);
    if (fabs(cost - c.cost) > 1e-5 * c.cost + 0.006) {
      snprintf(g->error, sizeof g->error,
               "scenario line %u: reported cost %.6f, path costs %.6f",
               (unsigned)q->line, cost, c.cost);
      return 0;
    }
    if (c.cost < q->optimal && !cairn_bench_cost_ok(r.cost, q->optimal)) {
      snprintf(g->error, sizeof g->error,
               "scenario line %u: cost %.6f below the optimal %.6f",
               (unsigned)q->line, c.cost, q->optimal);
      return 0;
    }
    double sub = q->optimal > 0 ? (c.cost - q->optimal) / q->optimal * 100 : 0;
    if (sub < 0) sub = 0; /* within the tolerance */
    sum += sub;
    if (sub > g->max_subopt) g->max_subopt = sub;
    g->plain += r.plain != 0;
  }
  g->mean_subopt = sum / (double)g->n;
  snprintf(g->label, sizeof g->label,
           "%zu of %zu rows (stride %zu), %zu skipped", g->n, g->s.rows,
           g->s.stride, g->skipped);
  g->state = 1;
  return 1;
}

/* ---- benchmarks -------------------------------------------------------- */

static void bm_missing(cairn_bench_state *st, void *user) {
  cairn_bench_skip(st, user);
}

static void bm_build(cairn_bench_state *st, void *user) {
  const build_case *b = user;
  hmap *m = b->map;
  if (!map_ready(m)) {
    cairn_bench_skip(st, map_error(m));
    return;
  }
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = b->cluster;
  o.threads = b->threads;
  cairn_hpa_stats s;
  memset(&s, 0, sizeof s);
  cairn_status bad = CAIRN_OK;
  while (cairn_bench_next(st)) {
    cairn_hpa *h = NULL;
    cairn_status r = cairn_hpa_create(m->grid, &o, NULL, &h);
    cairn_bench_pause(st);
    if (r == CAIRN_OK)
      cairn_hpa_get_stats(h, &s);
    else
      bad = r;
    cairn_hpa_destroy(h);
    cairn_bench_resume(st);
  }
  if (bad != CAIRN_OK) {
    char msg[96];
    snprintf(msg, sizeof msg, "cairn_hpa_create: %s", cairn_status_str(bad));
    cairn_bench_skip(st, msg);
    return;
  }
  cairn_bench_counter(st, "nodes", (double)s.nodes, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "edges", (double)s.edges, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "clusters", (double)s.clusters, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "memory_bytes", (double)s.memory_bytes,
                      CAIRN_BENCH_PLAIN);
  char label[96];
  snprintf(label, sizeof label, "cluster %d, %d thread%s",
           (int)s.cluster, b->threads, b->threads == 1 ? "" : "s");
  cairn_bench_label(st, label);
}

/* The bytes of the map's default hierarchy, built and saved once (*len
 * of them, malloc'd), with what a load must reproduce in *built. */
static const char *saved_bytes(const hmap *m, int threads, uint8_t **buf, size_t *len,
                               cairn_hpa_stats *built) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.threads = threads;
  cairn_hpa *h = NULL;
  *buf = NULL;
  if (cairn_hpa_create(m->grid, &o, NULL, &h) != CAIRN_OK) return "cairn_hpa_create failed";
  cairn_hpa_get_stats(h, built);
  const char *why = NULL;
  if (cairn_hpa_save(h, NULL, 0, len) != CAIRN_ERR_BUFFER || !(*buf = malloc(*len)))
    why = "cannot size the saved hierarchy";
  else if (cairn_hpa_save(h, *buf, *len, len) != CAIRN_OK)
    why = "cairn_hpa_save failed";
  cairn_hpa_destroy(h);
  return why;
}

static void bm_load(cairn_bench_state *st, void *user) {
  const build_case *b = user;
  hmap *m = b->map;
  if (!map_ready(m)) {
    cairn_bench_skip(st, map_error(m));
    return;
  }
  uint8_t *buf;
  size_t len = 0;
  cairn_hpa_stats built, s;
  const char *why = saved_bytes(m, b->threads, &buf, &len, &built);
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.threads = b->threads;
  memset(&s, 0, sizeof s);
  while (!why && cairn_bench_next(st)) {
    cairn_hpa *h = NULL;
    cairn_status r = cairn_hpa_load(buf, len, m->grid, NULL, &o, NULL, &h, NULL);
    cairn_bench_pause(st);
    if (r == CAIRN_OK) cairn_hpa_get_stats(h, &s);
    if (r != CAIRN_OK)
      why = "cairn_hpa_load failed";
    else if (s.nodes != built.nodes || s.edges != built.edges ||
             s.memory_bytes != built.memory_bytes)
      why = "the loaded hierarchy differs from the built one";
    cairn_hpa_destroy(h);
    cairn_bench_resume(st);
  }
  free(buf);
  if (why) {
    cairn_bench_skip(st, why);
    return;
  }
  cairn_bench_counter(st, "file_bytes", (double)len, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "memory_bytes", (double)s.memory_bytes, CAIRN_BENCH_PLAIN);
  char label[64];
  snprintf(label, sizeof label, "%d thread%s", b->threads, b->threads == 1 ? "" : "s");
  cairn_bench_label(st, label);
}

/* After a timed query loop: fails the run if any query failed or the query
 * context allocated since `allocs`; true if the loop was clean. */
static bool timed_loop_clean(cairn_bench_state *st, const hmap *m, size_t bad,
                             uint64_t allocs) {
  char msg[160];
  if (bad) {
    snprintf(msg, sizeof msg, "%zu queries failed", bad);
    cairn_bench_skip(st, msg);
    return false;
  }
  if (m->allocs != allocs) {
    snprintf(msg, sizeof msg,
             "the query context allocated %llu times in the timed loop",
             (unsigned long long)(m->allocs - allocs));
    cairn_bench_skip(st, msg);
    return false;
  }
  return true;
}

static void bm_query(cairn_bench_state *st, void *user) {
  hgroup *g = user;
  if (!group_ready(g)) {
    cairn_bench_skip(st, g->state < 0 ? g->error : map_error(g->map));
    return;
  }
  hmap *m = g->map;
  cairn_hpa_result r;
  const uint64_t allocs = m->allocs;
  uint64_t expanded = 0;
  size_t bad = 0, k = 0;
  while (cairn_bench_next(st)) {
    const cairn_bench_query *q = &g->q[k];
    if (++k == g->n) k = 0;
    cairn_status s =
        cairn_hpa_find(m->query, m->hpa, q->start, q->goal, NULL, &r);
    expanded += r.expanded;
    bad += s != CAIRN_OK;
  }
  if (!timed_loop_clean(st, m, bad, allocs)) return;
  cairn_bench_counter(st, "expanded", (double)expanded, CAIRN_BENCH_AVG_ITER);
  cairn_bench_counter(st, "subopt_pct", g->mean_subopt, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "max_subopt_pct", g->max_subopt, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "plain_pct", 100.0 * (double)g->plain / (double)g->n,
                      CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "query_bytes",
                      (double)cairn_hpa_query_memory(m->query),
                      CAIRN_BENCH_PLAIN);
  cairn_bench_label(st, g->label);
}

static void bm_refine_first(cairn_bench_state *st, void *user) {
  hgroup *g = user;
  if (!group_ready(g)) {
    cairn_bench_skip(st, g->state < 0 ? g->error : map_error(g->map));
    return;
  }
  hmap *m = g->map;
  cairn_hpa_result r;
  const uint64_t allocs = m->allocs;
  uint64_t expanded = 0, steps = 0, route = 0;
  size_t bad = 0, k = 0;
  while (cairn_bench_next(st)) {
    const cairn_bench_query *q = &g->q[k];
    if (++k == g->n) k = 0;
    cairn_status s =
        cairn_hpa_plan(m->query, m->hpa, q->start, q->goal, NULL, &r);
    if (s == CAIRN_IN_PROGRESS) s = cairn_hpa_refine(m->query, 1, &r);
    expanded += r.expanded;
    steps += r.path_len;
    route += r.route_len;
    bad += s != CAIRN_OK && s != CAIRN_IN_PROGRESS;
  }
  if (!timed_loop_clean(st, m, bad, allocs)) return;
  cairn_bench_counter(st, "expanded", (double)expanded, CAIRN_BENCH_AVG_ITER);
  cairn_bench_counter(st, "first_steps", (double)steps, CAIRN_BENCH_AVG_ITER);
  cairn_bench_counter(st, "route_len", (double)route, CAIRN_BENCH_AVG_ITER);
  if (!g->refine_label[0])
    snprintf(g->refine_label, sizeof g->refine_label,
             "vs hpa/%s/buckets_%u-%u; %s", m->name, (unsigned)g->s.lo,
             (unsigned)g->s.hi, g->label);
  cairn_bench_label(st, g->refine_label);
}

/* All 9 cells around (x, y) passable. */
static int open_3x3(const cairn_grid *grid, int32_t x, int32_t y) {
  for (int32_t dy = -1; dy <= 1; dy++)
    for (int32_t dx = -1; dx <= 1; dx++)
      if (!cairn_grid_cost(grid, x + dx, y + dy)) return 0;
  return 1;
}

/* A cell with all 8 neighbours open at the centre of a cluster (border 0)
 * or in the middle of its east border (border 1), searched from the central
 * cluster on in row-major order. */
static int pick_cell(const hmap *m, int32_t cs, int border, cairn_point *out) {
  const int32_t w = cairn_grid_width(m->egrid), h = cairn_grid_height(m->egrid);
  const uint32_t cw = (uint32_t)((w + cs - 1) / cs);
  const uint32_t ch = (uint32_t)((h + cs - 1) / cs);
  const uint32_t n = cw * ch, first = ch / 2 * cw + cw / 2;
  for (uint32_t t = 0; t < n; t++) {
    const uint32_t k = (first + t) % n;
    const int32_t x = (int32_t)(k % cw) * cs + (border ? cs - 1 : cs / 2);
    const int32_t y = (int32_t)(k / cw) * cs + cs / 2;
    if (x + 1 >= w || y + 1 >= h) continue;
    if (open_3x3(m->egrid, x, y)) {
      out->x = x;
      out->y = y;
      return 1;
    }
  }
  return 0;
}

static void *edit_alloc(void *user, void *ptr, size_t old_size,
                        size_t new_size) {
  hmap *m = user;
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  atomic_fetch_add(&m->edit_allocs, 1);
  atomic_fetch_add(&m->edit_bytes, (uint64_t)new_size);
  return realloc(ptr, new_size);
}

static int edit_ready(hmap *m) {
  if (m->edit_state) return m->edit_state > 0;
  m->edit_state = -1;
  if (!m->scen) {
    snprintf(m->edit_error, sizeof m->edit_error, "no scenarios");
    return 0;
  }
  if (load_grid(m, &m->egrid, m->edit_error, sizeof m->edit_error) != 0)
    return 0;
  const cairn_allocator a = {edit_alloc, m};
  cairn_status st = cairn_hpa_create(m->egrid, NULL, &a, &m->ehpa);
  if (st != CAIRN_OK) {
    snprintf(m->edit_error, sizeof m->edit_error, "cairn_hpa_create: %s",
             cairn_status_str(st));
    return 0;
  }
  cairn_hpa_stats s;
  cairn_hpa_get_stats(m->ehpa, &s);
  m->nodes = s.nodes;
  m->edges = s.edges;
  for (int b = 0; b < 2; b++)
    if (!pick_cell(m, s.cluster, b, &m->cell[b])) {
      snprintf(m->edit_error, sizeof m->edit_error,
               "no %s cell with 8 open neighbours",
               b ? "border" : "interior");
      return 0;
    }
  m->edit_state = 1;
  return 1;
}

static void bm_edit(cairn_bench_state *st, void *user) {
  const edit_case *e = user;
  hmap *m = e->map;
  if (!edit_ready(m)) {
    cairn_bench_skip(st, m->edit_error);
    return;
  }
  const cairn_point c = m->cell[e->kind == 1];
  const uint8_t open = cairn_grid_cost(m->egrid, c.x, c.y);
  uint64_t k = 0;
  cairn_status bad = CAIRN_OK;
  const uint64_t allocs = atomic_load(&m->edit_allocs);
  const uint64_t bytes = atomic_load(&m->edit_bytes);
  while (cairn_bench_next(st)) {
    uint8_t cost = (k++ & 1) ? open : 0;
    cairn_status s;
    if (e->kind == 2) {
      s = cairn_grid_set_cost(m->egrid, c.x, c.y, cost);
      if (s == CAIRN_OK) s = cairn_grid_update_islands(m->egrid);
    } else {
      s = cairn_hpa_edit(m->ehpa, m->egrid, &c, &cost, 1);
    }
    if (s != CAIRN_OK) bad = s;
  }
  const double edit_allocs = (double)(atomic_load(&m->edit_allocs) - allocs);
  const double edit_bytes = (double)(atomic_load(&m->edit_bytes) - bytes);
  if (k & 1) { /* reopen it, untimed */
    cairn_status s = e->kind == 2
                         ? cairn_grid_set_cost(m->egrid, c.x, c.y, open)
                         : cairn_hpa_edit(m->ehpa, m->egrid, &c, &open, 1);
    if (s == CAIRN_OK && e->kind == 2) s = cairn_grid_update_islands(m->egrid);
    if (s != CAIRN_OK) bad = s;
  }
  if (bad != CAIRN_OK) {
    char msg[96];
    snprintf(msg, sizeof msg, "%s: %s",
             e->kind == 2 ? "cairn_grid_update_islands" : "cairn_hpa_edit",
             cairn_status_str(bad));
    m->edit_state = -1; /* the grid may be left edited: no more edit runs */
    snprintf(m->edit_error, sizeof m->edit_error, "an earlier run failed: %s",
             msg);
    cairn_bench_skip(st, msg);
    return;
  }
  cairn_hpa_stats s;
  cairn_hpa_get_stats(m->ehpa, &s);
  if (s.nodes != m->nodes || s.edges != m->edges) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "after reopening: %u nodes, %zu edges; built with %u, %zu",
             (unsigned)s.nodes, s.edges, (unsigned)m->nodes, m->edges);
    cairn_bench_skip(st, msg);
    return;
  }
  if (e->kind != 2) {
    cairn_bench_counter(st, "rebuilt_clusters", (double)s.rebuilt_clusters,
                        CAIRN_BENCH_PLAIN);
    cairn_bench_counter(st, "allocs", edit_allocs, CAIRN_BENCH_AVG_ITER);
    cairn_bench_counter(st, "alloc_bytes", edit_bytes, CAIRN_BENCH_AVG_ITER);
  }
  char label[96];
  snprintf(label, sizeof label, "cell (%d,%d), cluster %d",
           (int)c.x, (int)c.y, (int)s.cluster);
  cairn_bench_label(st, label);
}

/* ---- registration ------------------------------------------------------ */

static size_t hpa_passes(const cairn_bench_split *s) {
  if (s->work >= HPA_WORK_MIN) return 1;
  return (size_t)ceil(HPA_WORK_MIN / (s->work > 1 ? s->work : 1));
}

void cairn_bench_register_hpa(void) {
  atexit(free_all);
  char name[192];
  for (size_t i = 0; i < N_MAPS; i++) {
    hmap *m = &maps[i];
    if (cairn_bench_load_scen(m->name, &m->data, &m->scen, m->error,
                              sizeof m->error) != 0) {
      m->state = -1;
      snprintf(name, sizeof name, "hpa/%s/missing", m->name);
      cairn_bench_register(name, bm_missing, m->error);
    }
  }
  /* builds */
  for (size_t i = 0; i < N_MAPS; i++) {
    hmap *m = &maps[i];
    if (!m->scen) continue;
    for (size_t c = 0; c < 4 && m->build_clusters[c]; c++)
      for (int t = 2; t >= 1; t--) {
        build_case *b = &builds[n_builds++];
        b->map = m;
        b->cluster = m->build_clusters[c];
        b->threads = t;
        snprintf(name, sizeof name, "hpa_build/%s/cluster:%d/threads:%d",
                 m->name, (int)b->cluster, t);
        cairn_bench_def *def = cairn_bench_register(name, bm_build, b);
        cairn_bench_def_unit(def, CAIRN_BENCH_MS);
        cairn_bench_def_real_time(def);
        if (b->cluster != 16) continue;
        snprintf(name, sizeof name, "hpa_load/%s/threads:%d", m->name, t);
        def = cairn_bench_register(name, bm_load, b);
        cairn_bench_def_unit(def, CAIRN_BENCH_MS);
        cairn_bench_def_real_time(def);
      }
  }
  /* queries, and the first refinement on the longest groups */
  for (size_t i = 0; i < N_MAPS; i++) {
    hmap *m = &maps[i];
    if (!m->scen) continue;
    cairn_bench_split split[CAIRN_BENCH_GROUPS];
    size_t count = cairn_bench_split_groups(m->scen, split);
    for (size_t k = 0; k < count; k++) {
      hgroup *g = &groups[n_groups++];
      memset(g, 0, sizeof *g);
      g->map = m;
      g->s = split[k];
      snprintf(name, sizeof name, "hpa/%s/buckets_%u-%u", m->name,
               (unsigned)g->s.lo, (unsigned)g->s.hi);
      cairn_bench_def *def = cairn_bench_register(name, bm_query, g);
      cairn_bench_def_iterations(
          def, (int64_t)(hpa_passes(&g->s) * g->s.sample));
    }
  }
  for (size_t i = 0; i < N_MAPS; i++) {
    hmap *m = &maps[i];
    if (!m->scen || !m->refine) continue;
    hgroup *g = NULL; /* this map's longest group: its last */
    for (size_t k = 0; k < n_groups; k++)
      if (groups[k].map == m) g = &groups[k];
    if (!g) continue;
    snprintf(name, sizeof name, "hpa_refine_first/%s", m->name);
    cairn_bench_def *def = cairn_bench_register(name, bm_refine_first, g);
    cairn_bench_def_iterations(
        def, (int64_t)(hpa_passes(&g->s) * g->s.sample));
  }
  /* edits */
  static const char *const kinds[3] = {"interior", "border", "grid_islands"};
  for (size_t i = 0; i < N_MAPS; i++) {
    hmap *m = &maps[i];
    if (!m->scen || !m->edit) continue;
    for (int kind = 0; kind < 3; kind++) {
      edit_case *e = &edits[n_edits++];
      e->map = m;
      e->kind = kind;
      snprintf(name, sizeof name, "hpa_edit/%s/%s", m->name, kinds[kind]);
      cairn_bench_def *def = cairn_bench_register(name, bm_edit, e);
      cairn_bench_def_real_time(def);
    }
  }
  cairn_bench_register_big();
}
