/*
 * bench_layers.c - what the cost layers' updates cost, on brc202d's grid
 * (481 x 530). Registered from cairn_bench_register_all (bench_astar.c).
 *
 * layers_event/radius:R
 *   One cairn_influence_event of radius R (8 or 32: about 200 and 3200
 *   cells) at the next of 64 fixed open cells, cycling, into one layer.
 * layers_tick/radius:R
 *   One cairn_influence_tick (keep 90 %, spread 5 %) of a map fed by one
 *   event of radius R, refilled (untimed) whenever it has fallen below half
 *   of its first active cells; `active` is the mean active count.
 * layers_claim/cells:N
 *   cairn_claims_set of an N-cell path for one of 1000 units in turn (each
 *   replacing that unit's previous claim), then cairn_claims_expire.
 * layers_reveal/side:S
 *   cairn_knowledge_reveal of the next S x S window of a sweep over the map
 *   for a faction that starts knowing nothing: each reveal is a first
 *   sight, and a window holding walls also relabels the faction's islands.
 *   The sweep restarts (with a fresh faction) when it has covered the map.
 * layers_reveal_door/open, layers_reveal_door/close
 *   A faction that has seen the whole map; a wall cell between two open
 *   ones is torn down in the truth and revealed (open: the islands merge
 *   locally), then raised again and revealed (close: a full relabel, what
 *   an opening reveal cost before the local merge); only the named half is
 *   timed, 400 times a run.
 * layers_hpa_refresh/radius:R
 *   An influence event of radius R (untimed) at the next of the 64 cells,
 *   then the timed cairn_hpa_refresh of every cluster it made stale, on a
 *   hierarchy (default options) bound to the layer; `clusters` is the mean
 *   rebuilt per refresh.
 * layers_hpa_query/layer:L
 *   cairn_hpa_find over the map's scenarios in turn, with no layer (L 0) or
 *   bound to a layer of 64 danger events of radius 12 and 20 steps (L 1):
 *   what a query pays for the layer.
 * layers_flow_repair/radius:R, layers_flow_rebuild/radius:R
 *   On random512-10-0 (512 x 512), a field towards the start of its first
 *   scenario row under a layer: an influence event of radius R (10 steps)
 *   at the next of 64 of its scenario starts (untimed), then the timed
 *   cairn_field_repair_layer, or the timed fresh cairn_field_build on one
 *   thread (the repair's own). Between runs the layer is emptied and the
 *   field repaired back (untimed), so every event meets a clean layer;
 *   `repaired` is the mean of cells re-integrated.
 * layers_flow_idle/fields:16
 *   cairn_flow_cache_layer_changed on a cache of 16 fields under a layer
 *   that did not change: what a crowd's call each tick costs.
 * layers_dead_ends_update/edit:terrain, layers_dead_ends_update/edit:wall
 *   On a copy of the map whose 64 cells are at terrain 3 (the rest at 1),
 *   the next of them set (untimed) to 5 and back to 3 in turn (terrain:
 *   no cell opens, closes or leaves the cheapest terrain, so the table is
 *   kept) or to a wall and back (wall: the areas are found again), then
 *   the timed cairn_dead_ends_update.
 * layers_dead_ends_update/edit:wall_inside
 *   The same with walls put up and taken down inside dead ends: 64 cells
 *   spread over the map whose 8 neighbours are open and in their own dead
 *   end, so that an update searches that dead end alone (where the edit
 *   leaves the island's centre alone; the others search the map).
 */
#include "bench_common.h"
#include "bench_shim.h"

#include "cairn/core.h"
#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAYERS_MAP "brc202d"

static struct {
  int state; /* 0 not loaded, 1 ready, -1 failed (error) */
  char error[512];
  cairn_bench_scen data;
  const cairn_scen *scen;
  cairn_grid *grid;
  cairn_point spot[64];
} lb;

static int lb_ready(void) {
  if (lb.state) return lb.state > 0;
  lb.state = -1;
  if (cairn_bench_load_scen(LAYERS_MAP, &lb.data, &lb.scen, lb.error, sizeof lb.error) != 0 ||
      cairn_bench_load_grid(&lb.data, &lb.grid, lb.error, sizeof lb.error) != 0)
    return 0;
  /* 64 open cells spread over the map: the scenario starts */
  size_t n = cairn_scen_count(lb.scen);
  for (size_t k = 0; k < 64; k++) lb.spot[k] = cairn_scen_get(lb.scen, k * n / 64)->start;
  lb.state = 1;
  return 1;
}

/* A layer on the map's grid and an influence map feeding it; false (the
 * run skipped) when there is no memory for them. */
static int influence_ready(cairn_bench_state *st, cairn_penalty **p,
                           cairn_influence **m) {
  if (cairn_penalty_create(lb.grid, NULL, p) == CAIRN_OK &&
      cairn_influence_create(lb.grid, *p, NULL, m) == CAIRN_OK)
    return 1;
  cairn_bench_skip(st, "out of memory");
  cairn_penalty_destroy(*p);
  return 0;
}

static void bm_event(cairn_bench_state *st, void *user) {
  const int32_t radius = (int32_t)(intptr_t)user;
  if (!lb_ready()) {
    cairn_bench_skip(st, lb.error);
    return;
  }
  cairn_penalty *p = NULL;
  cairn_influence *m = NULL;
  if (!influence_ready(st, &p, &m)) return;
  size_t k = 0;
  while (cairn_bench_next(st)) {
    const cairn_point c = lb.spot[k++ & 63];
    cairn_influence_event(m, c.x, c.y, radius, 20 * CAIRN_COST_ONE);
  }
  cairn_bench_counter(st, "active", (double)cairn_influence_active(m), CAIRN_BENCH_PLAIN);
  cairn_influence_destroy(m);
  cairn_penalty_destroy(p);
}

static void bm_tick(cairn_bench_state *st, void *user) {
  const int32_t radius = (int32_t)(intptr_t)user;
  if (!lb_ready()) {
    cairn_bench_skip(st, lb.error);
    return;
  }
  cairn_penalty *p = NULL;
  cairn_influence *m = NULL;
  if (!influence_ready(st, &p, &m)) return;
  const cairn_point c = lb.spot[0];
  cairn_influence_event(m, c.x, c.y, radius, 20 * CAIRN_COST_ONE);
  const size_t full = cairn_influence_active(m);
  double sum = 0;
  uint64_t n = 0;
  while (cairn_bench_next(st)) {
    cairn_influence_tick(m, 58982, 3277);
    sum += (double)cairn_influence_active(m);
    n++;
    if (cairn_influence_active(m) < full / 2) {
      cairn_bench_pause(st);
      cairn_influence_event(m, c.x, c.y, radius, 20 * CAIRN_COST_ONE);
      cairn_bench_resume(st);
    }
  }
  cairn_bench_counter(st, "active", n ? sum / (double)n : 0, CAIRN_BENCH_PLAIN);
  cairn_influence_destroy(m);
  cairn_penalty_destroy(p);
}

static void bm_claim(cairn_bench_state *st, void *user) {
  const size_t cells = (size_t)(intptr_t)user;
  if (!lb_ready()) {
    cairn_bench_skip(st, lb.error);
    return;
  }
  cairn_claims *c = NULL;
  cairn_point path[400];
  /* a path of `cells` cells: the map's first open cells in row order */
  size_t have = 0;
  for (int32_t y = 0; y < cairn_grid_height(lb.grid) && have < cells; y++)
    for (int32_t x = 0; x < cairn_grid_width(lb.grid) && have < cells; x++)
      if (cairn_grid_cost(lb.grid, x, y)) path[have++] = (cairn_point){x, y};
  if (have < cells) {
    cairn_bench_skip(st, "the map has too few open cells");
    return;
  }
  if (cairn_claims_create(lb.grid, NULL, &c) != CAIRN_OK) {
    cairn_bench_skip(st, "out of memory");
    return;
  }
  uint64_t tick = 0;
  while (cairn_bench_next(st)) {
    cairn_claims_set(c, (uint32_t)(tick % 1000), path, cells, tick + 500);
    cairn_claims_expire(c, tick++);
  }
  cairn_claims_destroy(c);
}

static void bm_reveal(cairn_bench_state *st, void *user) {
  const int32_t side = (int32_t)(intptr_t)user;
  if (!lb_ready()) {
    cairn_bench_skip(st, lb.error);
    return;
  }
  const int32_t w = cairn_grid_width(lb.grid), h = cairn_grid_height(lb.grid);
  cairn_knowledge *k = NULL;
  int32_t x = 0, y = 0;
  uint64_t changed = 0, n = 0;
  while (cairn_bench_next(st)) {
    if (!k) {
      cairn_bench_pause(st);
      if (cairn_knowledge_create(lb.grid, 1, NULL, &k) != CAIRN_OK) {
        cairn_bench_skip(st, "out of memory");
        return;
      }
      cairn_bench_resume(st);
    }
    cairn_rect r = {x, y, side, side};
    int ch = 0;
    cairn_knowledge_reveal(k, r, &ch);
    changed += (uint64_t)ch;
    n++;
    if ((x += side) >= w) {
      x = 0;
      if ((y += side) >= h) {
        y = 0;
        cairn_bench_pause(st);
        cairn_knowledge_destroy(k);
        k = NULL;
        cairn_bench_resume(st);
      }
    }
  }
  cairn_bench_counter(st, "changed_pct", n ? 100.0 * (double)changed / (double)n : 0,
                      CAIRN_BENCH_PLAIN);
  cairn_knowledge_destroy(k);
}

/* The first wall cell in row order with open cells east and west of it
 * (a door to knock through); false if there is none. */
static int find_door(const cairn_grid *g, cairn_point *out) {
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 1; x + 1 < cairn_grid_width(g); x++)
      if (!cairn_grid_cost(g, x, y) && cairn_grid_cost(g, x - 1, y) && cairn_grid_cost(g, x + 1, y)) {
        out->x = x;
        out->y = y;
        return 1;
      }
  return 0;
}

static void bm_reveal_door(cairn_bench_state *st, void *user) {
  const int timed_open = (int)(intptr_t)user;
  if (!lb_ready()) {
    cairn_bench_skip(st, lb.error);
    return;
  }
  const int32_t w = cairn_grid_width(lb.grid), h = cairn_grid_height(lb.grid);
  int32_t stride;
  const uint8_t *cells = cairn_grid_cells(lb.grid, &stride);
  cairn_grid *truth = NULL;
  cairn_knowledge *k = NULL;
  cairn_rect all = {0, 0, w, h};
  cairn_point door;
  if (cairn_grid_create(w, h, 1, NULL, &truth) != CAIRN_OK ||
      cairn_grid_set_rect(truth, all, cells + stride + 1, (size_t)stride) != CAIRN_OK ||
      cairn_knowledge_create(truth, 1, NULL, &k) != CAIRN_OK ||
      cairn_knowledge_reveal(k, all, NULL) != CAIRN_OK || !find_door(truth, &door)) {
    cairn_bench_skip(st, "setting up the faction failed");
  } else {
    const cairn_rect r = {door.x, door.y, 1, 1};
    while (cairn_bench_next(st)) {
      if (!timed_open) cairn_bench_pause(st);
      cairn_grid_set_cost(truth, door.x, door.y, 1);
      cairn_knowledge_reveal(k, r, NULL);
      if (timed_open) cairn_bench_pause(st);
      else cairn_bench_resume(st);
      cairn_grid_set_cost(truth, door.x, door.y, 0);
      cairn_knowledge_reveal(k, r, NULL);
      if (timed_open) cairn_bench_resume(st);
    }
  }
  cairn_knowledge_destroy(k);
  cairn_grid_destroy(truth);
}

/* A hierarchy over the map bound to a fresh layer and its influence map;
 * false (the run skipped) on failure. */
static int hpa_ready(cairn_bench_state *st, cairn_penalty **p,
                     cairn_influence **m, cairn_hpa **h) {
  *h = NULL;
  if (!influence_ready(st, p, m)) return 0;
  if (cairn_hpa_create(lb.grid, NULL, NULL, h) == CAIRN_OK &&
      cairn_hpa_set_layer(*h, *p) == CAIRN_OK)
    return 1;
  cairn_hpa_destroy(*h);
  cairn_influence_destroy(*m);
  cairn_penalty_destroy(*p);
  cairn_bench_skip(st, "building the hierarchy failed");
  return 0;
}

static void bm_hpa_refresh(cairn_bench_state *st, void *user) {
  int32_t radius = (int32_t)(intptr_t)user;
  if (!lb_ready()) {
    cairn_bench_skip(st, lb.error);
    return;
  }
  cairn_penalty *p;
  cairn_influence *m;
  cairn_hpa *h;
  if (!hpa_ready(st, &p, &m, &h)) return;
  size_t k = 0, runs = 0;
  double rebuilt = 0;
  while (cairn_bench_next(st)) {
    cairn_bench_pause(st);
    cairn_point c = lb.spot[k++ % 64];
    cairn_influence_event(m, c.x, c.y, radius, 10 * (uint32_t)CAIRN_COST_ONE);
    cairn_bench_resume(st);
    cairn_hpa_refresh(h, 0, NULL);
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(h, &hs);
    rebuilt += hs.rebuilt_clusters;
    runs++;
  }
  cairn_bench_counter(st, "clusters", runs ? rebuilt / (double)runs : 0, CAIRN_BENCH_PLAIN);
  cairn_hpa_destroy(h);
  cairn_influence_destroy(m);
  cairn_penalty_destroy(p);
}

static void bm_hpa_query(cairn_bench_state *st, void *user) {
  int layered = (int)(intptr_t)user;
  if (!lb_ready()) {
    cairn_bench_skip(st, lb.error);
    return;
  }
  cairn_penalty *p;
  cairn_influence *m;
  cairn_hpa *h;
  cairn_hpa_query *q = NULL;
  if (!hpa_ready(st, &p, &m, &h)) return;
  if (!layered) cairn_hpa_set_layer(h, NULL);
  for (size_t e = 0; layered && e < 64; e++)
    cairn_influence_event(m, lb.spot[e].x, lb.spot[e].y, 12, 20 * (uint32_t)CAIRN_COST_ONE);
  if (layered) cairn_hpa_refresh(h, 0, NULL);
  if (cairn_hpa_query_create(NULL, &q) != CAIRN_OK || cairn_hpa_query_reserve(q, h) != CAIRN_OK) {
    cairn_bench_skip(st, "out of memory");
  } else {
    size_t n = cairn_scen_count(lb.scen), k = 0;
    while (cairn_bench_next(st)) {
      const cairn_scen_entry *e = cairn_scen_get(lb.scen, k++ % n);
      cairn_hpa_result r;
      cairn_hpa_find(q, h, e->start, e->goal, NULL, &r);
    }
  }
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_influence_destroy(m);
  cairn_penalty_destroy(p);
}

/* ---- flow fields under a layer (random512-10-0) --------------------- */

#define FLOW_MAP "random512-10-0"

static struct {
  int state; /* 0 not loaded, 1 ready, -1 failed (error) */
  char error[512];
  cairn_bench_scen data;
  const cairn_scen *scen;
  cairn_grid *grid;
  cairn_point goal, spot[64];
} lf;

static int lf_ready(void) {
  if (lf.state) return lf.state > 0;
  lf.state = -1;
  if (cairn_bench_load_scen(FLOW_MAP, &lf.data, &lf.scen, lf.error, sizeof lf.error) != 0 ||
      cairn_bench_load_grid(&lf.data, &lf.grid, lf.error, sizeof lf.error) != 0)
    return 0;
  size_t n = cairn_scen_count(lf.scen);
  lf.goal = cairn_scen_get(lf.scen, 0)->start;
  for (size_t k = 0; k < 64; k++) lf.spot[k] = cairn_scen_get(lf.scen, k * n / 64)->goal;
  lf.state = 1;
  return 1;
}

/* What a flow benchmark holds: the layer, its influence map, a builder and
 * a field built under the layer. */
typedef struct flow_rig {
  cairn_penalty *p;
  cairn_influence *m;
  cairn_flow_builder *b;
  cairn_field *f;
  cairn_flow_opts o;
} flow_rig;

static void rig_free(flow_rig *r) {
  cairn_field_destroy(r->f);
  cairn_flow_builder_destroy(r->b);
  cairn_influence_destroy(r->m);
  cairn_penalty_destroy(r->p);
}

static int rig_ready(cairn_bench_state *st, flow_rig *r) {
  memset(r, 0, sizeof *r);
  if (!lf_ready()) {
    cairn_bench_skip(st, lf.error);
    return 0;
  }
  r->o = cairn_flow_defaults();
  r->o.threads = 1;
  if (cairn_penalty_create(lf.grid, NULL, &r->p) == CAIRN_OK) r->o.penalty = r->p;
  if (r->p && cairn_influence_create(lf.grid, r->p, NULL, &r->m) == CAIRN_OK &&
      cairn_flow_builder_create(NULL, &r->b) == CAIRN_OK &&
      cairn_field_create(lf.grid, NULL, &r->f) == CAIRN_OK &&
      cairn_field_build(r->b, r->f, lf.grid, &lf.goal, 1, &r->o) == CAIRN_OK)
    return 1;
  rig_free(r);
  cairn_bench_skip(st, "setting up the field failed");
  return 0;
}

static void bm_flow(cairn_bench_state *st, int32_t radius, int rebuild) {
  flow_rig r;
  if (!rig_ready(st, &r)) return;
  size_t k = 0;
  double repaired = 0, runs = 0;
  while (cairn_bench_next(st)) {
    cairn_bench_pause(st);
    const cairn_point c = lf.spot[k++ & 63];
    cairn_influence_event(r.m, c.x, c.y, radius, 10 * CAIRN_COST_ONE);
    cairn_bench_resume(st);
    if (rebuild) {
      cairn_field_build(r.b, r.f, lf.grid, &lf.goal, 1, &r.o);
    } else {
      cairn_field_repair_layer(r.b, r.f);
    }
    cairn_bench_pause(st);
    cairn_field_stats fs;
    cairn_field_get_stats(r.f, &fs);
    repaired += (double)fs.repaired;
    runs++;
    cairn_influence_tick(r.m, 0, 0); /* keep nothing: a clean layer */
    cairn_field_repair_layer(r.b, r.f);
    cairn_bench_resume(st);
  }
  if (!rebuild)
    cairn_bench_counter(st, "repaired", runs ? repaired / runs : 0, CAIRN_BENCH_PLAIN);
  rig_free(&r);
}

static void bm_flow_repair(cairn_bench_state *st, void *user) {
  bm_flow(st, (int32_t)(intptr_t)user, 0);
}

static void bm_flow_rebuild(cairn_bench_state *st, void *user) {
  bm_flow(st, (int32_t)(intptr_t)user, 1);
}

static void bm_flow_idle(cairn_bench_state *st, void *user) {
  const size_t fields = (size_t)(intptr_t)user;
  flow_rig r;
  if (!rig_ready(st, &r)) return;
  cairn_flow_cache *c = NULL;
  int ok = cairn_flow_cache_create(lf.grid, (size_t)1 << 30, &r.o, NULL, &c) == CAIRN_OK;
  for (size_t k = 0; ok && k < fields; k++) {
    const cairn_field *f;
    ok = cairn_flow_cache_acquire(c, r.b, &lf.spot[k & 63], 1, &f) == CAIRN_OK;
  }
  if (!ok) cairn_bench_skip(st, "filling the cache failed");
  while (ok && cairn_bench_next(st)) cairn_flow_cache_layer_changed(c, r.b, NULL, NULL);
  cairn_flow_cache_destroy(c);
  rig_free(&r);
}

/* Up to 64 cells spread over g (every so many in index order) whose 8
 * neighbours are open and in the cell's own dead end; returns how many. */
static int inside_cells(const cairn_grid *g, const cairn_dead_ends *de, cairn_point *out) {
  const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  int n = 0;
  for (int64_t i = 0; i < (int64_t)w * h && n < 64; i += 7 + (int64_t)w * h / 256) {
    const int32_t x = (int32_t)(i % w), y = (int32_t)(i / w);
    const uint32_t a = cairn_dead_ends_area(de, x, y);
    bool inside = a != 0;
    for (int dy = -1; dy <= 1 && inside; dy++)
      for (int dx = -1; dx <= 1 && inside; dx++)
        inside = cairn_dead_ends_area(de, x + dx, y + dy) == a;
    if (inside) out[n++] = (cairn_point){x, y};
  }
  return n;
}

static void bm_dead_ends_update(cairn_bench_state *st, void *user) {
  const int wall = (int)(intptr_t)user; /* 0 terrain, 1 wall, 2 wall inside */
  if (!lb_ready()) {
    cairn_bench_skip(st, lb.error);
    return;
  }
  cairn_grid *g = NULL; /* a grid of its own: the others read lb.grid */
  cairn_dead_ends *de = NULL;
  char error[512];
  if (cairn_bench_load_grid(&lb.data, &g, error, sizeof error) != 0) {
    cairn_bench_skip(st, error);
    return;
  }
  for (int k = 0; k < 64; k++) cairn_grid_set_cost(g, lb.spot[k].x, lb.spot[k].y, 3);
  if (cairn_dead_ends_create(g, NULL, &de) != CAIRN_OK) {
    cairn_bench_skip(st, "out of memory");
    cairn_grid_destroy(g);
    return;
  }
  cairn_point inside[64];
  const int n = wall == 2 ? inside_cells(g, de, inside) : 64;
  if (!n) cairn_bench_skip(st, "no cell inside a dead end");
  uint8_t was[64];
  for (int i = 0; i < n; i++) was[i] = cairn_grid_cost(g, inside[i].x, inside[i].y);
  uint64_t k = 0;
  while (n && cairn_bench_next(st)) {
    cairn_bench_pause(st);
    const cairn_point c = wall == 2 ? inside[(k >> 1) % (uint64_t)n] : lb.spot[(k >> 1) & 63];
    const uint8_t back = wall == 2 ? was[(k >> 1) % (uint64_t)n] : 3;
    const uint8_t to = k & 1 ? back : wall ? 0 : 5;
    cairn_grid_set_cost(g, c.x, c.y, to);
    k++;
    cairn_bench_resume(st);
    cairn_dead_ends_update(de);
  }
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}

static void lb_free(void) {
  cairn_grid_destroy(lb.grid);
  cairn_bench_scen_free(&lb.data);
  lb.grid = NULL;
  lb.scen = NULL;
  cairn_grid_destroy(lf.grid);
  cairn_bench_scen_free(&lf.data);
  lf.grid = NULL;
  lf.scen = NULL;
}

void cairn_bench_register_layers(void) {
  atexit(lb_free);
  static const int32_t radii[2] = {8, 32};
  char name[64];
  for (int i = 0; i < 2; i++) {
    snprintf(name, sizeof name, "layers_event/radius:%d", radii[i]);
    cairn_bench_register(name, bm_event, (void *)(intptr_t)radii[i]);
    snprintf(name, sizeof name, "layers_tick/radius:%d", radii[i]);
    cairn_bench_register(name, bm_tick, (void *)(intptr_t)radii[i]);
  }
  static const int32_t cells[2] = {100, 400};
  for (int i = 0; i < 2; i++) {
    snprintf(name, sizeof name, "layers_claim/cells:%d", cells[i]);
    cairn_bench_register(name, bm_claim, (void *)(intptr_t)cells[i]);
  }
  static const int32_t sides[2] = {8, 32};
  for (int i = 0; i < 2; i++) {
    snprintf(name, sizeof name, "layers_reveal/side:%d", sides[i]);
    cairn_bench_register(name, bm_reveal, (void *)(intptr_t)sides[i]);
  }
  /* a fixed count: the untimed half (a relabel when the open half is
   * timed) would otherwise run the open benchmark for minutes */
  cairn_bench_def_iterations(
      cairn_bench_register("layers_reveal_door/open", bm_reveal_door, (void *)(intptr_t)1), 400);
  cairn_bench_def_iterations(
      cairn_bench_register("layers_reveal_door/close", bm_reveal_door, (void *)(intptr_t)0), 400);
  for (int i = 0; i < 2; i++) {
    snprintf(name, sizeof name, "layers_hpa_refresh/radius:%d", radii[i]);
    cairn_bench_register(name, bm_hpa_refresh, (void *)(intptr_t)radii[i]);
    snprintf(name, sizeof name, "layers_hpa_query/layer:%d", i);
    cairn_bench_register(name, bm_hpa_query, (void *)(intptr_t)i);
  }
  for (int i = 0; i < 2; i++) {
    snprintf(name, sizeof name, "layers_flow_repair/radius:%d", radii[i]);
    cairn_bench_register(name, bm_flow_repair, (void *)(intptr_t)radii[i]);
    snprintf(name, sizeof name, "layers_flow_rebuild/radius:%d", radii[i]);
    cairn_bench_register(name, bm_flow_rebuild, (void *)(intptr_t)radii[i]);
  }
  cairn_bench_register("layers_flow_idle/fields:16", bm_flow_idle, (void *)(intptr_t)16);
  cairn_bench_register("layers_dead_ends_update/edit:terrain", bm_dead_ends_update,
                       (void *)(intptr_t)0);
  cairn_bench_register("layers_dead_ends_update/edit:wall", bm_dead_ends_update,
                       (void *)(intptr_t)1);
  cairn_bench_register("layers_dead_ends_update/edit:wall_inside", bm_dead_ends_update,
                       (void *)(intptr_t)2);
}
