/*
 * bench_orders.c - "100 soldiers from one barracks to one gate": the path
 * cache (cairn/path_cache.h) against one search and against 100 searches.
 * Its own program, cairn_bench_orders (bench_shim.cpp's main with this
 * file's registration); bench/orders.sh runs it and prints the ratios.
 *
 * Per map (den011d, brc202d, 8room_000, AR0011SR, and for the scattered
 * entries below also NewYork_0_1024 and TheFrozenSea; a map missing from
 * $CAIRN_MOVINGAI_DIR/maps is left out):
 *   - the barracks is a start cell S drawn from a fixed xorshift sequence
 *     (no clock) among the cells of the map's largest island; the soldiers
 *     are the 100 open cells first reached by a breadth-first walk from S
 *     over the grid's legal moves (S itself first);
 *   - the gate G is the last cell that walk reaches: the cell of S's island
 *     the most steps away, so the trip is as long as the map allows.
 *
 * Entries (microseconds, CPU time):
 *   orders_one_search/MAP    one cairn_astar from S to G
 *   orders_cached/MAP        clear the cache, then all 100 soldiers' paths
 *                            through cairn_path_cache_find (default options),
 *                            nearest soldier first
 *   orders_each_astar/MAP    100 separate cairn_astar searches
 *   orders_cached_exact/MAP  as orders_cached with opts.max_excess = 0
 *
 * Units scattered over the map, heading to the same gate G: the figures
 * that set when one shared flow field beats a search per unit. The units
 * are MAX_UNITS open cells of G's island (G itself left out) drawn
 * uniformly from another fixed xorshift sequence; an entry for N units
 * takes the first N, so the sets are nested:
 *   orders_field/MAP                 one flow field to G (cairn_field_build,
 *                                    a horde's default options, on the
 *                                    calling thread); counter: its
 *                                    reachable cells
 *   orders_scattered_astar/MAP/N     N separate cairn_astar searches to G
 *   orders_scattered_cached/MAP/N    clear the cache, then the N units'
 *                                    paths through cairn_path_cache_find
 *                                    (default options), in drawing order
 *   orders_scattered_hpa/MAP/N       N cairn_hpa_find queries to G over a
 *                                    hierarchy built once (defaults, one
 *                                    thread; a crowd with opts.hpa plans
 *                                    so)
 * for N = 1, 4, 16, 64. The scattered entries count the nodes expanded,
 * their mean per unit and the units' mean octile distance to G in cells.
 * Before its first timing the field is checked against the units' A*
 * optima and the cached paths as below. The two 1024 x 1024 maps have
 * the scattered entries only.
 *
 * The cached entries count how the requests were answered (searched,
 * joined, walked), the nodes they expanded, the largest excess a result
 * stated (max_excess_steps, a bound) and the largest a path really had
 * over its A* optimum (real_excess_steps), both in straight steps.
 *
 * Before its first timed loop each cached entry checks every soldier's path
 * once (untimed): it starts at the soldier and ends at G, every step goes to
 * one of the 8 neighbours without cutting a corner, its recomputed cost is
 * the one reported, at least the A* optimum and at most the optimum plus
 * the stated excess. A failure makes the entry report an error instead of a
 * time.
 */
#include "bench_shim.h"

#include "cairn/core.h"
#include "cairn/hierarchy.h"
#include "cairn/flowfield.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CAIRN_MOVINGAI_DIR
#define CAIRN_MOVINGAI_DIR ""
#endif

enum { SOLDIERS = 100, MAX_UNITS = 64 };

/* The scattered entries' unit counts (the last is MAX_UNITS). */
static const int unit_counts[] = {1, 4, 16, 64};
#define N_COUNTS (sizeof unit_counts / sizeof unit_counts[0])

typedef struct orders_map {
  const char *name;
  int scattered_only; /* registers the scattered entries alone */
  int state; /* 0 not loaded, 1 ready, -1 failed (see error) */
  char error[512];
  cairn_grid *grid;
  cairn_search *s;
  cairn_point barracks, gate;
  cairn_point soldiers[SOLDIERS];
  cairn_cost optimal[SOLDIERS]; /* each soldier's A* cost to the gate */
  cairn_point *path;            /* the cache's output buffer */
  size_t cap;
  /* the scattered units and what their entries need, made on first use */
  cairn_point units[MAX_UNITS];
  cairn_cost unit_optimal[MAX_UNITS]; /* each unit's A* cost to the gate */
  cairn_cost unit_excess[MAX_UNITS];  /* its cached path's cost over that */
  int units_checked;                  /* the cached paths were validated */
  cairn_path_cache *unit_pc;
  cairn_flow_builder *b;
  cairn_field *f;
  cairn_hpa *hpa; /* the hierarchy of orders_scattered_hpa, and its context */
  cairn_hpa_query *hq;
  int field_checked; /* the field agreed with the units' optima */
} orders_map;

/* One cache configuration on one map: orders_cached or orders_cached_exact. */
typedef struct cache_case {
  orders_map *m;
  int exact;
  int checked; /* the paths were validated (once per program) */
  cairn_cost real_excess; /* the largest cost over the optimum found then */
  cairn_path_cache *pc;
} cache_case;

static orders_map maps[] = {
    {.name = "den011d"},   /* Dragon Age: Origins, 247 x 167 */
    {.name = "brc202d"},   /* Dragon Age: Origins, 530 x 481 */
    {.name = "8room_000"}, /* rooms, 512 x 512 */
    {.name = "AR0011SR"},  /* Baldur's Gate II, 512 x 512 */
    /* the large maps of bench_flow.c, for the field against searches */
    {.name = "NewYork_0_1024", .scattered_only = 1}, /* street map, 1024 x 1024 */
    {.name = "TheFrozenSea", .scattered_only = 1},   /* StarCraft, 1024 x 1024 */
};
#define N_MAPS (sizeof maps / sizeof maps[0])

static cache_case cache_cases[N_MAPS][2];

static const char *data_root(void) {
  const char *env = getenv("CAIRN_MOVINGAI_DIR");
  return env && env[0] ? env : CAIRN_MOVINGAI_DIR;
}

static void map_path(const orders_map *m, char *buf, size_t size) {
  snprintf(buf, size, "%s/maps/%s.map", data_root(), m->name);
}

static int map_present(const orders_map *m) {
  char path[1200];
  map_path(m, path, sizeof path);
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  fclose(f);
  return 1;
}

static int fail(orders_map *m, const char *what, cairn_status st) {
  snprintf(m->error, sizeof m->error, "%s: %s: %s", m->name, what, cairn_status_str(st));
  return 0;
}

/* ---- the scenario ------------------------------------------------------ */

static uint64_t xorshift(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* The label of the island with the most cells: a barracks there has room
 * for 100 soldiers and a long way to go. */
static uint32_t largest_island(const cairn_grid *g) {
  uint32_t n = cairn_grid_island_count(g), best = 1;
  size_t *size = calloc((size_t)n + 1, sizeof *size);
  if (!size || !n) {
    free(size);
    return 0;
  }
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) size[cairn_grid_island(g, x, y)]++;
  for (uint32_t k = 2; k <= n; k++) /* label 0 counted the blocked cells */
    if (size[k] > size[best]) best = k;
  free(size);
  return best;
}

/* S: the first cell of a fixed pseudo-random sequence that lies on the
 * largest island (a fixed seed, so every run times the same orders). */
static int pick_barracks(orders_map *m) {
  uint32_t island = largest_island(m->grid);
  if (!island) return 0;
  int32_t w = cairn_grid_width(m->grid), h = cairn_grid_height(m->grid);
  uint64_t x = 0x2545f4914f6cdd1dull;
  for (int tries = 0; tries < 1 << 24; tries++) {
    uint64_t r = xorshift(&x);
    cairn_point p = {(int32_t)(r % (uint64_t)w), (int32_t)((r >> 32) % (uint64_t)h)};
    if (cairn_grid_island(m->grid, p.x, p.y) == island) {
      m->barracks = p;
      return 1;
    }
  }
  return 0;
}

/* Breadth-first walk from the barracks over the grid's legal moves (the
 * padded move bits, so the walk and the searches agree on what a step is):
 * the first SOLDIERS cells reached are the soldiers, the last one the gate.
 * Returns the cells reached, 0 when memory runs out. */
static size_t walk_from_barracks(orders_map *m) {
  int32_t stride;
  const uint8_t *moves = cairn_grid_moves(m->grid, &stride);
  size_t n = (size_t)stride * (size_t)(cairn_grid_height(m->grid) + 2);
  /* E W S N SE SW NE NW, as the bits of cairn_grid_moves */
  const long step[8] = {1, -1, stride, -stride, stride + 1, stride - 1, -stride + 1,
                        -stride - 1};
  uint32_t *queue = malloc(n * sizeof *queue);
  unsigned char *seen = calloc(n, 1);
  size_t head = 0, tail = 0;
  if (queue && seen) {
    uint32_t src = (uint32_t)((m->barracks.y + 1) * stride + m->barracks.x + 1);
    seen[src] = 1;
    queue[tail++] = src;
    while (head < tail) {
      uint32_t c = queue[head++];
      for (int d = 0; d < 8; d++) {
        uint32_t nb = (uint32_t)((long)c + step[d]);
        if (!(moves[c] >> d & 1) || seen[nb]) continue;
        seen[nb] = 1;
        queue[tail++] = nb;
      }
    }
    for (size_t k = 0; k < SOLDIERS && k < tail; k++)
      m->soldiers[k] = (cairn_point){(int32_t)(queue[k] % (uint32_t)stride) - 1,
                                     (int32_t)(queue[k] / (uint32_t)stride) - 1};
    uint32_t last = queue[tail - 1];
    m->gate = (cairn_point){(int32_t)(last % (uint32_t)stride) - 1,
                            (int32_t)(last / (uint32_t)stride) - 1};
  }
  free(queue);
  free(seen);
  return tail;
}

/* Everyone on the gate's island, checked through the grid's own labels
 * rather than trusting the walk. */
static int one_island(const orders_map *m) {
  uint32_t island = cairn_grid_island(m->grid, m->gate.x, m->gate.y);
  if (!island) return 0;
  for (int k = 0; k < SOLDIERS; k++)
    if (cairn_grid_island(m->grid, m->soldiers[k].x, m->soldiers[k].y) != island) return 0;
  return 1;
}

/* The reference costs: the A* optimum from each of n cells to the gate. */
static int find_optima(orders_map *m, const cairn_point *from, int n, cairn_cost *optimal) {
  cairn_result r;
  for (int k = 0; k < n; k++) {
    cairn_status st = cairn_astar(m->s, m->grid, from[k], m->gate, NULL, &r);
    if (st != CAIRN_OK) return fail(m, "A* to the gate", st);
    optimal[k] = r.cost;
  }
  return 1;
}

/* The scattered units: cells of the gate's island drawn uniformly by
 * rejection over the whole grid (a seed of their own, so they do not
 * follow the barracks). The gate itself is left out so every unit has a
 * trip; two units may share a cell, as drawn units would. */
static int draw_units(orders_map *m) {
  uint32_t island = cairn_grid_island(m->grid, m->gate.x, m->gate.y);
  int32_t w = cairn_grid_width(m->grid), h = cairn_grid_height(m->grid);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  int k = 0;
  for (long tries = 0; k < MAX_UNITS && tries < 1L << 26; tries++) {
    uint64_t r = xorshift(&x);
    cairn_point p = {(int32_t)(r % (uint64_t)w), (int32_t)((r >> 32) % (uint64_t)h)};
    if (cairn_grid_island(m->grid, p.x, p.y) != island) continue;
    if (p.x == m->gate.x && p.y == m->gate.y) continue;
    m->units[k++] = p;
  }
  return k == MAX_UNITS;
}

static int load_map(orders_map *m) {
  char path[1200];
  map_path(m, path, sizeof path);
  cairn_error err;
  cairn_status st = cairn_map_load(path, NULL, NULL, &m->grid, &err);
  if (st != CAIRN_OK) {
    snprintf(m->error, sizeof m->error, "%s: %s", m->name, err.message);
    return 0;
  }
  if (!cairn_grid_islands_fresh(m->grid) &&
      (st = cairn_grid_update_islands(m->grid)) != CAIRN_OK)
    return fail(m, "islands", st);
  return 1;
}

/* Loads the map, draws the scenario and makes the search context, once. */
static int map_ready(orders_map *m) {
  if (m->state) return m->state > 0;
  m->state = -1;
  if (!load_map(m)) return 0;
  if (!pick_barracks(m)) return fail(m, "no barracks cell", CAIRN_ERR_NOMEM);
  size_t reached = walk_from_barracks(m);
  if (reached < SOLDIERS + 1) return fail(m, "barracks island too small", CAIRN_ERR_ARG);
  if (!one_island(m)) return fail(m, "soldiers and gate on different islands", CAIRN_ERR_STATE);
  cairn_status st;
  size_t passable = cairn_grid_passable(m->grid);
  /* Reserved up front so neither the searches nor the path buffer grow
   * inside a timed loop. */
  if ((st = cairn_search_create(NULL, &m->s)) != CAIRN_OK ||
      (st = cairn_search_reserve_grid(m->s, m->grid)) != CAIRN_OK ||
      (st = cairn_search_reserve_path(m->s, passable)) != CAIRN_OK)
    return fail(m, "search context", st);
  m->cap = passable + 1;
  m->path = malloc(m->cap * sizeof *m->path);
  if (!m->path) return fail(m, "path buffer", CAIRN_ERR_NOMEM);
  if (!find_optima(m, m->soldiers, SOLDIERS, m->optimal)) return 0;
  if (!draw_units(m)) return fail(m, "no cells for the scattered units", CAIRN_ERR_ARG);
  if (!find_optima(m, m->units, MAX_UNITS, m->unit_optimal)) return 0;
  m->state = 1;
  return 1;
}

static int ready_or_skip(cairn_bench_state *st, orders_map *m) {
  if (map_ready(m)) return 1;
  cairn_bench_skip(st, m->error);
  return 0;
}

/* ---- checking a cached path -------------------------------------------- */

static int open_cell(const cairn_grid *g, int32_t x, int32_t y) {
  return cairn_grid_cost(g, x, y) != 0; /* 0 off the grid too */
}

/* One step a -> b: to one of the 8 neighbours, both cells open, and for a
 * diagonal both orthogonal neighbours open (no corner cutting). Returns
 * its cost (the base step times the terrain of the cell entered), or 0
 * for an illegal step. */
static cairn_cost step_cost(const cairn_grid *g, cairn_point a, cairn_point b) {
  int32_t dx = b.x - a.x, dy = b.y - a.y;
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy)) return 0;
  if (!open_cell(g, a.x, a.y) || !open_cell(g, b.x, b.y)) return 0;
  if (dx && dy && (!open_cell(g, a.x + dx, a.y) || !open_cell(g, a.x, a.y + dy))) return 0;
  cairn_cost base = dx && dy ? CAIRN_COST_DIAG : CAIRN_COST_ONE;
  return base * cairn_grid_cost(g, b.x, b.y);
}

/* Writes what is wrong with request k's path (from `from`, whose A*
 * optimum is opt) into why (0), or returns 1. */
static int path_ok(const orders_map *m, int k, cairn_point from, cairn_cost opt,
                   const cairn_point *path, const cairn_cached_path *out, char *why,
                   size_t size) {
  if (out->len < 1 || path[0].x != from.x || path[0].y != from.y ||
      path[out->len - 1].x != m->gate.x || path[out->len - 1].y != m->gate.y) {
    snprintf(why, size, "request %d: the path does not run from its start to the gate", k);
    return 0;
  }
  cairn_cost cost = 0;
  for (size_t i = 1; i < out->len; i++) {
    cairn_cost c = step_cost(m->grid, path[i - 1], path[i]);
    if (!c) {
      snprintf(why, size, "request %d: illegal step %zu (%d,%d)->(%d,%d)", k, i,
               (int)path[i - 1].x, (int)path[i - 1].y, (int)path[i].x, (int)path[i].y);
      return 0;
    }
    cost += c;
  }
  if (cost != out->cost || cost < opt || cost - opt > out->excess) {
    snprintf(why, size,
             "request %d: cost %llu walked, %llu reported, optimum %llu, excess %llu", k,
             (unsigned long long)cost, (unsigned long long)out->cost,
             (unsigned long long)opt, (unsigned long long)out->excess);
    return 0;
  }
  return 1;
}

/* The cache for this case, made on first use. */
static cairn_status cache_ready(cache_case *c) {
  if (c->pc) return CAIRN_OK;
  cairn_path_cache_opts o = cairn_path_cache_defaults();
  if (c->exact) o.max_excess = 0;
  return cairn_path_cache_create(c->m->grid, &o, NULL, &c->pc);
}

/* One pass of orders as the timed loops run it (clear, then the n
 * requests from `from` in order), each path checked against its A* optimum;
 * excess[k] gets what path k really cost over it. With exact, any stated
 * excess is an error. Untimed; also lays out the cache's memory once before
 * timing. */
static int check_paths(orders_map *m, cairn_path_cache *pc, const cairn_point *from,
                       const cairn_cost *optimal, int n, int exact, cairn_cost *excess,
                       char *why, size_t size) {
  cairn_path_cache_clear(pc);
  for (int k = 0; k < n; k++) {
    cairn_cached_path out;
    cairn_status st = cairn_path_cache_find(pc, m->s, from[k], m->gate, m->path, m->cap, &out);
    if (st != CAIRN_OK || out.status != CAIRN_OK) {
      snprintf(why, size, "request %d: %s", k, cairn_status_str(st != CAIRN_OK ? st : out.status));
      return 0;
    }
    if (!path_ok(m, k, from[k], optimal[k], m->path, &out, why, size)) return 0;
    excess[k] = out.cost - optimal[k];
    if (exact && out.excess) {
      snprintf(why, size, "request %d: excess %llu with max_excess 0", k,
               (unsigned long long)out.excess);
      return 0;
    }
  }
  return 1;
}

static cairn_cost max_of(const cairn_cost *v, int n) {
  cairn_cost top = 0;
  for (int k = 0; k < n; k++)
    if (v[k] > top) top = v[k];
  return top;
}

/* The soldiers' pass (nearest first), for orders_cached(_exact). */
static int check_orders(cache_case *c, char *why, size_t size) {
  cairn_cost excess[SOLDIERS];
  orders_map *m = c->m;
  if (!check_paths(m, c->pc, m->soldiers, m->optimal, SOLDIERS, c->exact, excess, why, size))
    return 0;
  c->real_excess = max_of(excess, SOLDIERS);
  return 1;
}

/* ---- the entries ------------------------------------------------------- */

static void bm_one_search(cairn_bench_state *st, void *user) {
  orders_map *m = user;
  if (!ready_or_skip(st, m)) return;
  cairn_result r;
  r.status = CAIRN_OK;
  r.expanded = 0;
  while (cairn_bench_next(st)) cairn_astar(m->s, m->grid, m->barracks, m->gate, NULL, &r);
  if (r.status != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(r.status));
    return;
  }
  cairn_bench_counter(st, "expanded", (double)r.expanded, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "steps", (double)r.steps, CAIRN_BENCH_PLAIN);
  char where[96]; /* the drawn cells, to find them on the map */
  snprintf(where, sizeof where, "S (%d,%d) G (%d,%d)", (int)m->barracks.x, (int)m->barracks.y,
           (int)m->gate.x, (int)m->gate.y);
  cairn_bench_label(st, where);
}

static void bm_each_astar(cairn_bench_state *st, void *user) {
  orders_map *m = user;
  if (!ready_or_skip(st, m)) return;
  uint64_t expanded = 0;
  cairn_status bad = CAIRN_OK;
  while (cairn_bench_next(st)) {
    expanded = 0;
    for (int k = 0; k < SOLDIERS; k++) {
      cairn_result r;
      if (cairn_astar(m->s, m->grid, m->soldiers[k], m->gate, NULL, &r) != CAIRN_OK)
        bad = r.status;
      expanded += r.expanded;
    }
  }
  if (bad != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(bad));
    return;
  }
  cairn_bench_counter(st, "soldiers", SOLDIERS, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "expanded", (double)expanded, CAIRN_BENCH_PLAIN);
}

/* What one iteration of orders did, for the counters. */
typedef struct tally {
  uint64_t by_how[3]; /* searched, walked, joined */
  uint64_t expanded;
  cairn_cost max_excess;
} tally;

/* The timed loop of a cached entry: clear, then the n requests from
 * `from` in order. The last iteration's answers go into t. */
static cairn_status timed_orders(cairn_bench_state *st, orders_map *m, cairn_path_cache *pc,
                                 const cairn_point *from, int n, tally *t) {
  cairn_status s = CAIRN_OK;
  memset(t, 0, sizeof *t);
  while (cairn_bench_next(st)) {
    /* counted afresh each iteration: the last one's are reported */
    memset(t, 0, sizeof *t);
    cairn_path_cache_clear(pc);
    for (int k = 0; k < n; k++) {
      cairn_cached_path out;
      s = cairn_path_cache_find(pc, m->s, from[k], m->gate, m->path, m->cap, &out);
      if (s != CAIRN_OK) return s;
      t->by_how[out.how < 0 || out.how > 2 ? 0 : out.how]++;
      t->expanded += out.expanded;
      if (out.excess > t->max_excess) t->max_excess = out.excess;
    }
  }
  return s;
}

/* The counters of a cached entry; real_excess is what the checked paths
 * really cost over their optima, against the bound the answers stated. */
static void tally_counters(cairn_bench_state *st, const tally *t, cairn_cost real_excess) {
  cairn_bench_counter(st, "searched", (double)t->by_how[CAIRN_CACHE_SEARCHED], CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "joined", (double)t->by_how[CAIRN_CACHE_JOINED], CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "walked", (double)t->by_how[CAIRN_CACHE_WALKED], CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "max_excess_steps", cairn_cost_to_double(t->max_excess),
                      CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "expanded", (double)t->expanded, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "real_excess_steps", cairn_cost_to_double(real_excess),
                      CAIRN_BENCH_PLAIN);
}

static void bm_cached(cairn_bench_state *st, void *user) {
  cache_case *c = user;
  orders_map *m = c->m;
  if (!ready_or_skip(st, m)) return;
  cairn_status s = cache_ready(c);
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  char why[256];
  if (!c->checked && !check_orders(c, why, sizeof why)) {
    cairn_bench_skip(st, why);
    return;
  }
  c->checked = 1;
  tally t;
  s = timed_orders(st, m, c->pc, m->soldiers, SOLDIERS, &t);
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  cairn_bench_counter(st, "soldiers", SOLDIERS, CAIRN_BENCH_PLAIN);
  tally_counters(st, &t, c->real_excess);
}

/* ---- scattered units: one field against a search per unit ------------- */

/* A horde's defaults (8 moves, line of sight 16, the AUTO queue), on the
 * calling thread: one core's time for the field, to set against searches
 * that run on one core each. */
static cairn_flow_opts field_opts(void) {
  cairn_flow_opts o = cairn_flow_defaults();
  o.threads = 1;
  return o;
}

/* The builder (reserved for the map, so builds allocate nothing) and the
 * field, made on first use. */
static cairn_status field_ready(orders_map *m) {
  cairn_status st = CAIRN_OK;
  if (!m->b && (st = cairn_flow_builder_create(NULL, &m->b)) != CAIRN_OK) return st;
  if ((st = cairn_flow_builder_reserve(m->b, m->grid)) != CAIRN_OK) return st;
  if (!m->f) st = cairn_field_create(m->grid, NULL, &m->f);
  return st;
}

/* The field and A* must agree on every unit's cost to the gate: the same
 * gate, the same moves and prices. Writes the first disagreement into why. */
static int field_agrees(const orders_map *m, char *why, size_t size) {
  for (int k = 0; k < MAX_UNITS; k++) {
    cairn_cost v = cairn_field_cost(m->f, m->units[k].x, m->units[k].y);
    if (v == m->unit_optimal[k]) continue;
    snprintf(why, size, "unit %d (%d,%d): field %llu, A* %llu", k, (int)m->units[k].x,
             (int)m->units[k].y, (unsigned long long)v, (unsigned long long)m->unit_optimal[k]);
    return 0;
  }
  return 1;
}

static void bm_field(cairn_bench_state *st, void *user) {
  orders_map *m = user;
  if (!ready_or_skip(st, m)) return;
  cairn_flow_opts o = field_opts();
  cairn_status s = field_ready(m);
  /* a first build outside the timing touches every array once */
  if (s == CAIRN_OK) s = cairn_field_build(m->b, m->f, m->grid, &m->gate, 1, &o);
  char why[256];
  if (s != CAIRN_OK) snprintf(why, sizeof why, "field: %s", cairn_status_str(s));
  if (s != CAIRN_OK || (!m->field_checked && !field_agrees(m, why, sizeof why))) {
    cairn_bench_skip(st, why);
    return;
  }
  m->field_checked = 1;
  while (cairn_bench_next(st))
    if ((s = cairn_field_build(m->b, m->f, m->grid, &m->gate, 1, &o)) != CAIRN_OK) break;
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  cairn_field_stats fs;
  cairn_field_get_stats(m->f, &fs);
  cairn_bench_counter(st, "reachable", (double)fs.reachable, CAIRN_BENCH_PLAIN);
}

/* Octile distance in cells: how far a unit stands from the gate as the
 * crow flies on 8 moves, the scale the expansions grow with. */
static double octile(cairn_point a, cairn_point b) {
  double dx = abs(a.x - b.x), dy = abs(a.y - b.y);
  double lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return hi - lo + 1.41421356 * lo;
}

/* The counters both scattered entries give for n units. */
static void unit_counters(cairn_bench_state *st, const orders_map *m, int n, uint64_t expanded) {
  double dist = 0;
  for (int k = 0; k < n; k++) dist += octile(m->units[k], m->gate);
  cairn_bench_counter(st, "units", n, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "expanded", (double)expanded, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "expanded_per_unit", (double)expanded / n, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "octile_mean", dist / n, CAIRN_BENCH_PLAIN);
}

/* The entry's N (registered as its argument), kept to 1..MAX_UNITS. */
static int unit_count(cairn_bench_state *st) {
  int64_t n = cairn_bench_arg(st, 0);
  return n < 1 ? 1 : n > MAX_UNITS ? MAX_UNITS : (int)n;
}

static void bm_scattered_astar(cairn_bench_state *st, void *user) {
  orders_map *m = user;
  if (!ready_or_skip(st, m)) return;
  int n = unit_count(st);
  uint64_t expanded = 0;
  cairn_status bad = CAIRN_OK;
  while (cairn_bench_next(st)) {
    expanded = 0;
    for (int k = 0; k < n; k++) {
      cairn_result r;
      cairn_status s = cairn_astar(m->s, m->grid, m->units[k], m->gate, NULL, &r);
      if (s != CAIRN_OK) bad = s;
      expanded += r.expanded;
    }
  }
  if (bad != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(bad));
    return;
  }
  unit_counters(st, m, n, expanded);
}

/* The units' cache (default options), and once per program a checked
 * pass of all MAX_UNITS units: an entry for N units repeats its first N
 * requests exactly (cleared cache, same order), so the check covers it. */
static int unit_cache_ready(orders_map *m, char *why, size_t size) {
  cairn_status s = CAIRN_OK;
  if (!m->unit_pc) {
    cairn_path_cache_opts o = cairn_path_cache_defaults();
    s = cairn_path_cache_create(m->grid, &o, NULL, &m->unit_pc);
  }
  if (s != CAIRN_OK) {
    snprintf(why, size, "cache: %s", cairn_status_str(s));
    return 0;
  }
  if (!m->units_checked && !check_paths(m, m->unit_pc, m->units, m->unit_optimal, MAX_UNITS, 0,
                                        m->unit_excess, why, size))
    return 0;
  m->units_checked = 1;
  return 1;
}

static void bm_scattered_cached(cairn_bench_state *st, void *user) {
  orders_map *m = user;
  if (!ready_or_skip(st, m)) return;
  int n = unit_count(st);
  char why[256];
  if (!unit_cache_ready(m, why, sizeof why)) {
    cairn_bench_skip(st, why);
    return;
  }
  tally t;
  cairn_status s = timed_orders(st, m, m->unit_pc, m->units, n, &t);
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  unit_counters(st, m, n, t.expanded);
  tally_counters(st, &t, max_of(m->unit_excess, n));
}

/* The hierarchy and its query context, made on first use. */
static cairn_status hpa_ready(orders_map *m) {
  cairn_status st = CAIRN_OK;
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.threads = 1;
  if (!m->hpa) st = cairn_hpa_create(m->grid, &o, NULL, &m->hpa);
  if (st == CAIRN_OK && !m->hq) st = cairn_hpa_query_create(NULL, &m->hq);
  if (st == CAIRN_OK) st = cairn_hpa_query_reserve(m->hq, m->hpa);
  return st;
}

static void bm_scattered_hpa(cairn_bench_state *st, void *user) {
  orders_map *m = user;
  if (!ready_or_skip(st, m)) return;
  int n = unit_count(st);
  cairn_status bad = hpa_ready(m);
  uint64_t expanded = 0;
  while (bad == CAIRN_OK && cairn_bench_next(st)) {
    expanded = 0;
    for (int k = 0; k < n; k++) {
      cairn_hpa_result r;
      cairn_status s = cairn_hpa_find(m->hq, m->hpa, m->units[k], m->gate, NULL, &r);
      if (s != CAIRN_OK) bad = s;
      else if (r.cost < m->unit_optimal[k]) bad = CAIRN_ERR_STATE; /* cheaper than A*: wrong */
      expanded += r.expanded;
    }
  }
  if (bad != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(bad));
    return;
  }
  unit_counters(st, m, n, expanded);
}

/* ---- registration ------------------------------------------------------ */

static void free_all(void) {
  for (size_t i = 0; i < N_MAPS; i++) {
    cairn_path_cache_destroy(cache_cases[i][0].pc);
    cairn_path_cache_destroy(cache_cases[i][1].pc);
    cairn_path_cache_destroy(maps[i].unit_pc);
    cairn_field_destroy(maps[i].f);
    cairn_hpa_query_destroy(maps[i].hq);
    cairn_hpa_destroy(maps[i].hpa);
    cairn_flow_builder_destroy(maps[i].b);
    free(maps[i].path);
    cairn_search_destroy(maps[i].s);
    cairn_grid_destroy(maps[i].grid);
  }
}

static cairn_bench_def *reg(const char *what, const char *map, cairn_bench_fn fn,
                            void *user) {
  char name[160];
  snprintf(name, sizeof name, "%s/%s", what, map);
  cairn_bench_def *def = cairn_bench_register(name, fn, user);
  if (def) cairn_bench_def_unit(def, CAIRN_BENCH_US);
  return def;
}

/* One run per unit count: WHAT/MAP/N. */
static void reg_units(const char *what, orders_map *m, cairn_bench_fn fn) {
  cairn_bench_def *def = reg(what, m->name, fn, m);
  for (size_t k = 0; def && k < N_COUNTS; k++) cairn_bench_def_arg(def, unit_counts[k]);
}

static void reg_soldiers(size_t i) {
  orders_map *m = &maps[i];
  cache_cases[i][0] = (cache_case){.m = m, .exact = 0};
  cache_cases[i][1] = (cache_case){.m = m, .exact = 1};
  reg("orders_one_search", m->name, bm_one_search, m);
  reg("orders_cached", m->name, bm_cached, &cache_cases[i][0]);
  reg("orders_each_astar", m->name, bm_each_astar, m);
  reg("orders_cached_exact", m->name, bm_cached, &cache_cases[i][1]);
}

static void no_data(cairn_bench_state *st, void *user) {
  (void)user;
  cairn_bench_skip(st, "none of the maps is under $CAIRN_MOVINGAI_DIR/maps");
}

void cairn_bench_register_all(void) {
  atexit(free_all);
  int any = 0;
  for (size_t i = 0; i < N_MAPS; i++) {
    orders_map *m = &maps[i];
    if (!map_present(m)) {
      fprintf(stderr, "cairn_bench_orders: %s/maps/%s.map missing, left out\n", data_root(),
              m->name);
      continue;
    }
    any = 1;
    if (!m->scattered_only) reg_soldiers(i);
    reg("orders_field", m->name, bm_field, m);
    reg_units("orders_scattered_astar", m, bm_scattered_astar);
    reg_units("orders_scattered_cached", m, bm_scattered_cached);
    reg_units("orders_scattered_hpa", m, bm_scattered_hpa);
  }
  if (!any) reg("orders", "no_data", no_data, NULL);
}
