/*
 * bench_orders.c - "100 soldiers from one barracks to one gate": the path
 * cache (cairn/path_cache.h) against one search and against 100 searches.
 * Its own program, cairn_bench_orders (bench_shim.cpp's main with this
 * file's registration); bench/orders.sh runs it and prints the ratios.
 *
 * Per map (den011d, brc202d, 8room_000, AR0011SR; a map missing from
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CAIRN_MOVINGAI_DIR
#define CAIRN_MOVINGAI_DIR ""
#endif

enum { SOLDIERS = 100 };

typedef struct orders_map {
  const char *name;
  int state; /* 0 not loaded, 1 ready, -1 failed (see error) */
  char error[512];
  cairn_grid *grid;
  cairn_search *s;
  cairn_point barracks, gate;
  cairn_point soldiers[SOLDIERS];
  cairn_cost optimal[SOLDIERS]; /* each soldier's A* cost to the gate */
  cairn_point *path;            /* the cache's output buffer */
  size_t cap;
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

/* The reference costs: each soldier's A* optimum to the gate. */
static int find_optima(orders_map *m) {
  cairn_result r;
  for (int k = 0; k < SOLDIERS; k++) {
    cairn_status st = cairn_astar(m->s, m->grid, m->soldiers[k], m->gate, NULL, &r);
    if (st != CAIRN_OK) return fail(m, "A* from a soldier", st);
    m->optimal[k] = r.cost;
  }
  return 1;
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
  if (!find_optima(m)) return 0;
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

/* Writes what is wrong with soldier k's path into why (0), or returns 1. */
static int path_ok(const orders_map *m, int k, const cairn_point *path,
                   const cairn_cached_path *out, char *why, size_t size) {
  cairn_point from = m->soldiers[k];
  if (out->len < 1 || path[0].x != from.x || path[0].y != from.y ||
      path[out->len - 1].x != m->gate.x || path[out->len - 1].y != m->gate.y) {
    snprintf(why, size, "soldier %d: the path does not run from it to the gate", k);
    return 0;
  }
  cairn_cost cost = 0;
  for (size_t i = 1; i < out->len; i++) {
    cairn_cost c = step_cost(m->grid, path[i - 1], path[i]);
    if (!c) {
      snprintf(why, size, "soldier %d: illegal step %zu (%d,%d)->(%d,%d)", k, i,
               (int)path[i - 1].x, (int)path[i - 1].y, (int)path[i].x, (int)path[i].y);
      return 0;
    }
    cost += c;
  }
  cairn_cost opt = m->optimal[k];
  if (cost != out->cost || cost < opt || cost - opt > out->excess) {
    snprintf(why, size,
             "soldier %d: cost %llu walked, %llu reported, optimum %llu, excess %llu", k,
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

/* One pass of orders as the timed loop runs it (clear, then every soldier
 * nearest first), each path checked. Untimed; also lays out the cache's
 * memory once before timing. */
static int check_orders(cache_case *c, char *why, size_t size) {
  orders_map *m = c->m;
  cairn_path_cache_clear(c->pc);
  for (int k = 0; k < SOLDIERS; k++) {
    cairn_cached_path out;
    cairn_status st = cairn_path_cache_find(c->pc, m->s, m->soldiers[k], m->gate, m->path,
                                            m->cap, &out);
    if (st != CAIRN_OK || out.status != CAIRN_OK) {
      snprintf(why, size, "soldier %d: %s", k, cairn_status_str(st != CAIRN_OK ? st : out.status));
      return 0;
    }
    if (!path_ok(m, k, m->path, &out, why, size)) return 0;
    if (out.cost - m->optimal[k] > c->real_excess) c->real_excess = out.cost - m->optimal[k];
    if (c->exact && out.excess) {
      snprintf(why, size, "soldier %d: excess %llu with max_excess 0", k,
               (unsigned long long)out.excess);
      return 0;
    }
  }
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
  memset(&t, 0, sizeof t);
  while (cairn_bench_next(st)) {
    /* counted afresh each iteration: the last one's are reported */
    memset(&t, 0, sizeof t);
    cairn_path_cache_clear(c->pc);
    for (int k = 0; k < SOLDIERS; k++) {
      cairn_cached_path out;
      s = cairn_path_cache_find(c->pc, m->s, m->soldiers[k], m->gate, m->path, m->cap, &out);
      if (s != CAIRN_OK) break;
      t.by_how[out.how < 0 || out.how > 2 ? 0 : out.how]++;
      t.expanded += out.expanded;
      if (out.excess > t.max_excess) t.max_excess = out.excess;
    }
    if (s != CAIRN_OK) break;
  }
  if (s != CAIRN_OK) {
    cairn_bench_skip(st, cairn_status_str(s));
    return;
  }
  cairn_bench_counter(st, "soldiers", SOLDIERS, CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "searched", (double)t.by_how[CAIRN_CACHE_SEARCHED], CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "joined", (double)t.by_how[CAIRN_CACHE_JOINED], CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "walked", (double)t.by_how[CAIRN_CACHE_WALKED], CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "max_excess_steps", cairn_cost_to_double(t.max_excess),
                      CAIRN_BENCH_PLAIN);
  cairn_bench_counter(st, "expanded", (double)t.expanded, CAIRN_BENCH_PLAIN);
  /* the bound above against what the paths really cost over the optimum */
  cairn_bench_counter(st, "real_excess_steps", cairn_cost_to_double(c->real_excess),
                      CAIRN_BENCH_PLAIN);
}

/* ---- registration ------------------------------------------------------ */

static void free_all(void) {
  for (size_t i = 0; i < N_MAPS; i++) {
    cairn_path_cache_destroy(cache_cases[i][0].pc);
    cairn_path_cache_destroy(cache_cases[i][1].pc);
    free(maps[i].path);
    cairn_search_destroy(maps[i].s);
    cairn_grid_destroy(maps[i].grid);
  }
}

static void reg(const char *what, const char *map, cairn_bench_fn fn, void *user) {
  char name[160];
  snprintf(name, sizeof name, "%s/%s", what, map);
  cairn_bench_def *def = cairn_bench_register(name, fn, user);
  if (def) cairn_bench_def_unit(def, CAIRN_BENCH_US);
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
    cache_cases[i][0] = (cache_case){.m = m, .exact = 0};
    cache_cases[i][1] = (cache_case){.m = m, .exact = 1};
    reg("orders_one_search", m->name, bm_one_search, m);
    reg("orders_cached", m->name, bm_cached, &cache_cases[i][0]);
    reg("orders_each_astar", m->name, bm_each_astar, m);
    reg("orders_cached_exact", m->name, bm_cached, &cache_cases[i][1]);
  }
  if (!any) reg("orders", "no_data", no_data, NULL);
}
