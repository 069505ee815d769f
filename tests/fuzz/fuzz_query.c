/* libFuzzer target: a map and a query from any bytes, answered by A*
 * (blocking and sliced, with and without a landmark table), Dijkstra, jump
 * point search (scanning and with jump tables, with and without
 * landmarks), A* skipping dead ends, HPA* and a flow field, which must
 * agree: the exact searches
 * and the field give one cost (jump point search on a map of one terrain;
 * on others it refuses with CAIRN_ERR_TERRAIN), HPA* finds a path exactly
 * when A* does, never cheaper, and every path is legal. Then a few edits
 * (cairn_hpa_edit, cairn_jumps_update, cairn_landmarks_update,
 * cairn_dead_ends_update, cairn_field_repair) and the same checks again,
 * plus the repaired field equal to a fresh build cell for cell and the
 * updated dead-end table equal to a fresh one.
 *
 * Units of sizes 2 up to the hierarchy's max_size (flags bits 6-7: 1 to 4)
 * are checked the same way before and after the edits: A*, Dijkstra, the
 * hierarchy and a field for the size agree as above (the hierarchy finds
 * a path exactly when A* does, never cheaper), and every path is legal for
 * the unit: check_path's rules on the grid eroded for the size here
 * (every position's k x k block on the map and open, no corner cut
 * between positions, each step paying the dearest terrain under the block
 * it enters). A field of the largest size is
 * repaired after the edits and must equal a fresh one.
 *
 * Bytes: width, height (1..40 each), start x, y, goal x, y (modulo the
 * size), flags (bits 0-3: cluster side 4 + n, bit 4: always hierarchical,
 * bit 5: three levels, bits 6-7: max_size - 1), one byte a cell (low 3
 * bits: 0-1 blocked, 2-5 cost 1, 6-7 cost 2-3; missing cells cost 1), then up to 4 edits of 2 bytes
 * (cell index modulo the cells, cost as for cells). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/core.h"
#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) \
  do {              \
    if (!(cond)) abort(); \
  } while (0)

typedef struct world {
  cairn_grid *grid;
  cairn_point start, goal;
  cairn_hpa *hpa;
  cairn_hpa_query *query;
  cairn_hpa_path_opts path_opts;
  cairn_search *search;
  cairn_flow_builder *builder;
  cairn_field *field, *fresh;
  cairn_field *sized; /* the largest size's field, repaired after the edits */
  int32_t max_size;   /* the hierarchy's */
  cairn_jumps *jumps;
  cairn_landmarks *lm; /* NULL when no cell is open */
  cairn_dead_ends *de;
} world;

static uint8_t cost_of(uint8_t b) {
  uint8_t c = b & 7;
  return c < 2 ? 0 : c < 6 ? 1 : (uint8_t)(c - 4);
}

static uint8_t byte_at(const uint8_t *data, size_t size, size_t i) {
  return i < size ? data[i] : 0;
}

/* A path is legal and its recomputed cost (fixed point, from the steps and
 * the entered cells' terrain) is `cost`. */
static void check_path(const cairn_grid *g, const cairn_point *p, size_t n,
                       cairn_point a, cairn_point b, cairn_cost cost) {
  cairn_path_check pc;
  cairn_grid_check_path(g, p, n, a, b, 8, &pc);
  CHECK(pc.valid);
  cairn_cost sum = 0;
  for (size_t i = 1; i < n; i++) {
    int diag = p[i].x != p[i - 1].x && p[i].y != p[i - 1].y;
    sum += (diag ? CAIRN_COST_DIAG : CAIRN_COST_ONE) *
           cairn_grid_cost(g, p[i].x, p[i].y);
  }
  CHECK(sum == cost);
}

/* The grid a unit of size k moves on, as the definition reads it: a cell
 * keeps the dearest terrain of the k x k block at it where the whole
 * block is on the map and open, else it is blocked. A unit's path is legal
 * and costs what it says exactly when check_path accepts it there (every
 * position open, no corner cut between positions, each step paying the
 * position it enters). */
static cairn_grid *eroded(const cairn_grid *g, int32_t k) {
  const int32_t wd = cairn_grid_width(g), ht = cairn_grid_height(g);
  cairn_grid *e = NULL;
  CHECK(cairn_grid_create(wd, ht, 1, NULL, &e) == CAIRN_OK);
  for (int32_t y = 0; y < ht; y++)
    for (int32_t x = 0; x < wd; x++) {
      uint8_t most = 0;
      int open = 1;
      for (int32_t by = y; by < y + k; by++)
        for (int32_t bx = x; bx < x + k; bx++) {
          const uint8_t c = cairn_grid_contains(g, bx, by) ? cairn_grid_cost(g, bx, by) : 0;
          open = open && c;
          most = c > most ? c : most;
        }
      CHECK(cairn_grid_set_cost(e, x, y, open ? most : 0) == CAIRN_OK);
    }
  return e;
}

/* Size k: A* (its answer must hold of the unit's ends), Dijkstra, the
 * hierarchy and a field agree, and their paths are the unit's. */
static void check_size(world *w, int32_t k) {
  cairn_grid *e = eroded(w->grid, k);
  cairn_search_opts o = cairn_search_defaults();
  o.size = k;
  cairn_result ar, dr;
  cairn_status st = cairn_astar(w->search, w->grid, w->start, w->goal, &o, &ar);
  const int goal_fits = cairn_grid_cost(e, w->goal.x, w->goal.y) != 0;
  const int ends_fit = goal_fits && cairn_grid_cost(e, w->start.x, w->start.y) != 0;
  CHECK(ends_fit ? st == CAIRN_OK || st == CAIRN_NO_PATH : st == CAIRN_ERR_BLOCKED);
  if (st == CAIRN_OK) check_path(e, ar.path, ar.path_len, w->start, w->goal, ar.cost);
  cairn_status ds = cairn_dijkstra_nearest(w->search, w->grid, w->start, &w->goal, 1, &o, &dr);
  CHECK(ds == st && (st != CAIRN_OK || dr.cost == ar.cost));
  cairn_hpa_path_opts po = w->path_opts;
  po.size = k;
  cairn_hpa_result hr;
  cairn_status hs = cairn_hpa_find(w->query, w->hpa, w->start, w->goal, &po, &hr);
  CHECK(hs == st);
  if (hs == CAIRN_OK) {
    CHECK(hr.cost >= ar.cost);
    check_path(e, hr.path, hr.path_len, w->start, w->goal, hr.cost);
  }
  cairn_grid_destroy(e);
  cairn_flow_opts fo = cairn_flow_defaults();
  fo.size = k;
  cairn_status fs = cairn_field_build(w->builder, w->fresh, w->grid, &w->goal, 1, &fo);
  CHECK(fs == CAIRN_OK || (fs == CAIRN_ERR_BLOCKED && !goal_fits));
  if (fs != CAIRN_OK) return;
  cairn_cost fc = cairn_field_cost(w->fresh, w->start.x, w->start.y);
  CHECK(st == CAIRN_OK ? fc == ar.cost : fc == CAIRN_COST_INF);
}

/* The sliced form, a few expansions a step, gives the blocking answer. */
static void check_sliced(world *w, const cairn_result *want) {
  cairn_status st = cairn_astar_begin(w->search, w->grid, w->start, w->goal, NULL);
  if (st != CAIRN_OK) {
    CHECK(st == want->status);
    return;
  }
  do st = cairn_search_step(w->search, 3);
  while (st == CAIRN_IN_PROGRESS);
  cairn_result r;
  cairn_search_result(w->search, &r);
  CHECK(st == want->status && r.cost == want->cost &&
        r.expanded == want->expanded);
}

/* Jump point search, both forms: A*'s answer (st, want) on a map of one
 * terrain, CAIRN_ERR_TERRAIN on others. */
static void check_jump(world *w, cairn_status st, const cairn_result *want) {
  for (int plus = 0; plus < 2; plus++) {
    cairn_result r;
    cairn_status js = plus ? cairn_jps_plus(w->search, w->jumps, w->start, w->goal, NULL, &r)
                           : cairn_jps(w->search, w->grid, w->start, w->goal, NULL, &r);
    if (st == CAIRN_ERR_BLOCKED || cairn_grid_uniform(w->grid)) {
      CHECK(js == st);
      if (js == CAIRN_OK) {
        CHECK(r.cost == want->cost);
        check_path(w->grid, r.path, r.path_len, w->start, w->goal, r.cost);
      }
    } else {
      CHECK(js == CAIRN_ERR_TERRAIN);
    }
  }
}

/* A*, and on a map of one terrain jump point search with tables, with
 * the landmark table: A*'s answer (st, want). */
static void check_landmarks(world *w, cairn_status st, const cairn_result *want) {
  if (!w->lm) return;
  cairn_search_opts o = cairn_search_defaults();
  o.landmarks = w->lm;
  for (int jump = 0; jump < 2; jump++) {
    if (jump && !cairn_grid_uniform(w->grid)) return;
    cairn_result r;
    cairn_status ls = jump ? cairn_jps_plus(w->search, w->jumps, w->start, w->goal, &o, &r)
                           : cairn_astar(w->search, w->grid, w->start, w->goal, &o, &r);
    CHECK(ls == st);
    if (ls == CAIRN_OK) {
      CHECK(r.cost == want->cost);
      check_path(w->grid, r.path, r.path_len, w->start, w->goal, r.cost);
    }
  }
}

static void check_all(world *w) {
  cairn_result ar, dr;
  cairn_status st = cairn_astar(w->search, w->grid, w->start, w->goal, NULL, &ar);
  CHECK(st == CAIRN_OK || st == CAIRN_NO_PATH || st == CAIRN_ERR_BLOCKED);
  if (st == CAIRN_OK)
    check_path(w->grid, ar.path, ar.path_len, w->start, w->goal, ar.cost);
  check_sliced(w, &ar);
  cairn_status ds = cairn_dijkstra_nearest(w->search, w->grid, w->start,
                                           &w->goal, 1, NULL, &dr);
  CHECK(ds == st && (st != CAIRN_OK || dr.cost == ar.cost));
  check_jump(w, st, &ar);
  check_landmarks(w, st, &ar);
  cairn_search_opts o = cairn_search_defaults();
  o.dead_ends = w->de;
  cairn_result er;
  CHECK(cairn_astar(w->search, w->grid, w->start, w->goal, &o, &er) == st);
  if (st == CAIRN_OK) {
    CHECK(er.cost == ar.cost);
    check_path(w->grid, er.path, er.path_len, w->start, w->goal, er.cost);
  }
  cairn_hpa_result hr;
  cairn_status hs = cairn_hpa_find(w->query, w->hpa, w->start, w->goal,
                                   &w->path_opts, &hr);
  CHECK(hs == st);
  if (hs == CAIRN_OK) {
    CHECK(hr.cost >= ar.cost);
    check_path(w->grid, hr.path, hr.path_len, w->start, w->goal, hr.cost);
  }
  cairn_status fs = cairn_field_build(w->builder, w->fresh, w->grid, &w->goal, 1, NULL);
  CHECK(fs == CAIRN_OK || (fs == CAIRN_ERR_BLOCKED && st == CAIRN_ERR_BLOCKED));
  if (fs != CAIRN_OK) return;
  cairn_cost fc = cairn_field_cost(w->fresh, w->start.x, w->start.y);
  CHECK(st == CAIRN_OK ? fc == ar.cost : fc == CAIRN_COST_INF);
  cairn_field_fault fault;
  CHECK(cairn_field_verify(w->fresh, w->search, &fault) == CAIRN_OK && fault.ok);
  for (int32_t k = 2; k <= w->max_size; k++) check_size(w, k);
  cairn_hpa_path_opts po = w->path_opts;
  po.size = w->max_size + 1; /* above what the hierarchy answers */
  CHECK(cairn_hpa_find(w->query, w->hpa, w->start, w->goal, &po, &hr) == CAIRN_ERR_ARG);
}

/* After edits, the updated dead-end table is a fresh one: every cell's
 * area and the counts. */
static void check_dead_ends(world *w) {
  CHECK(cairn_dead_ends_update(w->de) == CAIRN_OK);
  cairn_dead_ends *fresh;
  CHECK(cairn_dead_ends_create(w->grid, NULL, &fresh) == CAIRN_OK);
  for (int32_t y = 0; y < cairn_grid_height(w->grid); y++)
    for (int32_t x = 0; x < cairn_grid_width(w->grid); x++)
      CHECK(cairn_dead_ends_area(w->de, x, y) == cairn_dead_ends_area(fresh, x, y));
  cairn_dead_ends_stats a, b;
  CHECK(cairn_dead_ends_get_stats(w->de, &a) == CAIRN_OK);
  CHECK(cairn_dead_ends_get_stats(fresh, &b) == CAIRN_OK);
  /* the counts of the updates run are each table's history, not its areas */
  a.local_updates = b.local_updates;
  a.whole_searches = b.whole_searches;
  CHECK(memcmp(&a, &b, sizeof a) == 0);
  cairn_dead_ends_destroy(fresh);
}

/* After edits, field f repaired is a fresh build for size k, cell for
 * cell. */
static void check_repair(world *w, cairn_field *f, int32_t k, const cairn_point *cells,
                         size_t n) {
  cairn_status st = cairn_field_repair(w->builder, f, cells, n);
  if (st == CAIRN_ERR_BLOCKED) return; /* the goal no longer holds the unit */
  CHECK(st == CAIRN_OK);
  cairn_flow_opts fo = cairn_flow_defaults();
  fo.size = k;
  CHECK(cairn_field_build(w->builder, w->fresh, w->grid, &w->goal, 1, &fo) == CAIRN_OK);
  for (int32_t y = 0; y < cairn_grid_height(w->grid); y++)
    for (int32_t x = 0; x < cairn_grid_width(w->grid); x++) {
      CHECK(cairn_field_cost(f, x, y) == cairn_field_cost(w->fresh, x, y));
      CHECK(cairn_field_dir(f, x, y) == cairn_field_dir(w->fresh, x, y));
    }
}

static int make_world(world *w, const uint8_t *data, size_t size) {
  int32_t wd = 1 + byte_at(data, size, 0) % 40, ht = 1 + byte_at(data, size, 1) % 40;
  w->start = (cairn_point){byte_at(data, size, 2) % wd, byte_at(data, size, 3) % ht};
  w->goal = (cairn_point){byte_at(data, size, 4) % wd, byte_at(data, size, 5) % ht};
  uint8_t flags = byte_at(data, size, 6);
  CHECK(cairn_grid_create(wd, ht, 1, NULL, &w->grid) == CAIRN_OK);
  for (int32_t i = 0; i < wd * ht; i++)
    if ((size_t)(7 + i) < size)
      CHECK(cairn_grid_set_cost(w->grid, i % wd, i / wd, cost_of(data[7 + i])) ==
            CAIRN_OK);
  CHECK(cairn_grid_update_islands(w->grid) == CAIRN_OK);
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = 4 + (flags & 15);
  o.threads = 1;
  o.levels = flags & 32 ? 3 : 2;
  o.block = flags & 32 ? 2 : 0;
  o.max_size = w->max_size = 1 + (flags >> 6);
  CHECK(cairn_hpa_create(w->grid, &o, NULL, &w->hpa) == CAIRN_OK);
  w->path_opts = cairn_hpa_path_defaults();
  if (flags & 16) w->path_opts.nearby = 0;
  CHECK(cairn_hpa_query_create(NULL, &w->query) == CAIRN_OK);
  CHECK(cairn_search_create(NULL, &w->search) == CAIRN_OK);
  CHECK(cairn_flow_builder_create(NULL, &w->builder) == CAIRN_OK);
  CHECK(cairn_field_create(w->grid, NULL, &w->field) == CAIRN_OK);
  CHECK(cairn_field_create(w->grid, NULL, &w->fresh) == CAIRN_OK);
  CHECK(cairn_field_create(w->grid, NULL, &w->sized) == CAIRN_OK);
  CHECK(cairn_jumps_create(w->grid, NULL, &w->jumps) == CAIRN_OK);
  CHECK(cairn_dead_ends_create(w->grid, NULL, &w->de) == CAIRN_OK);
  cairn_landmarks_opts lo = cairn_landmarks_defaults();
  lo.count = 1 + flags % 6;
  lo.active = 1 + (flags >> 3) % lo.count;
  cairn_status ls = cairn_landmarks_create(w->grid, &lo, NULL, &w->lm);
  CHECK(ls == CAIRN_OK || (ls == CAIRN_NO_PATH && !cairn_grid_passable(w->grid)));
  return 7 + wd * ht;
}

static void free_world(world *w) {
  cairn_dead_ends_destroy(w->de);
  cairn_landmarks_destroy(w->lm);
  cairn_jumps_destroy(w->jumps);
  cairn_field_destroy(w->fresh);
  cairn_field_destroy(w->sized);
  cairn_field_destroy(w->field);
  cairn_flow_builder_destroy(w->builder);
  cairn_search_destroy(w->search);
  cairn_hpa_query_destroy(w->query);
  cairn_hpa_destroy(w->hpa);
  cairn_grid_destroy(w->grid);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  world w;
  memset(&w, 0, sizeof w);
  size_t at = (size_t)make_world(&w, data, size);
  check_all(&w);
  int32_t wd = cairn_grid_width(w.grid), n_cells = wd * cairn_grid_height(w.grid);
  int built = cairn_field_build(w.builder, w.field, w.grid, &w.goal, 1, NULL) ==
              CAIRN_OK;
  cairn_flow_opts fo = cairn_flow_defaults();
  fo.size = w.max_size;
  int built_sized = w.max_size > 1 &&
                    cairn_field_build(w.builder, w.sized, w.grid, &w.goal, 1, &fo) == CAIRN_OK;
  cairn_point cells[4];
  uint8_t costs[4];
  size_t n = 0;
  for (; n < 4 && at + 1 < size; n++, at += 2) {
    int32_t i = data[at] % n_cells;
    cells[n] = (cairn_point){i % wd, i / wd};
    costs[n] = cost_of(data[at + 1]);
  }
  if (n > 0) {
    CHECK(cairn_hpa_edit(w.hpa, w.grid, cells, costs, n) == CAIRN_OK);
    for (size_t k = 0; k < n; k++)
      CHECK(cairn_jumps_update(w.jumps, (cairn_rect){cells[k].x, cells[k].y, 1, 1}) == CAIRN_OK);
    if (w.lm) {
      cairn_status us = cairn_landmarks_update(w.lm);
      CHECK(us == CAIRN_OK || (us == CAIRN_NO_PATH && !cairn_grid_passable(w.grid)));
      if (us != CAIRN_OK) { /* no open cell left: nothing to bound */
        cairn_landmarks_destroy(w.lm);
        w.lm = NULL;
      }
    }
    check_dead_ends(&w);
    check_all(&w);
    if (built) check_repair(&w, w.field, 1, cells, n);
    if (built_sized) check_repair(&w, w.sized, w.max_size, cells, n);
  }
  free_world(&w);
  return 0;
}
