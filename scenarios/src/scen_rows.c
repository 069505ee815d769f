/* The rows of a scenario file (`cairn gen --kind scen`): pairs of open
 * cells of the map's largest island, each with its cheapest cost from the
 * core's Dijkstra, bucketed as Moving AI does and sorted by bucket.
 *
 * One full Dijkstra fill from a start serves SCEN_GOALS_PER_START rows
 * (the goals drawn from the filled island): a fill per row would take
 * minutes on a 1024 x 1024 map. Each goal aims at a random cost up to the
 * farthest cell of the fill, the nearest of SCEN_CANDIDATES random cells to
 * it, so the lengths spread over the buckets as Moving AI's do (its files
 * hold about as many rows in every bucket) rather than crowding in the
 * middle as uniform pairs would. */
#include "cairn_scenarios.h"
#include "canvas.h"

#include <stdlib.h>
#include <string.h>

enum { SCEN_GOALS_PER_START = 16, SCEN_CANDIDATES = 32 };

typedef struct scen_gen {
  const cairn_grid *grid;
  int32_t w, h;
  uint32_t *cells; /* the island's cells, as y * w + x, in row order */
  size_t n_cells;
  cairn_cost *dist; /* w * h: the last fill */
  cairn_search *search;
  canvas rng; /* only its random stream is used */
} scen_gen;

static cairn_point point_of(const scen_gen *s, uint32_t i) {
  cairn_point p = {(int32_t)(i % (uint32_t)s->w), (int32_t)(i / (uint32_t)s->w)};
  return p;
}

static size_t rnd(scen_gen *s, size_t n) {
  return (size_t)canvas_rnd(&s->rng, (uint32_t)n);
}

/* The label of the island with the most cells (the first such in label
 * order), and its cell count; 0 when there is no open cell. */
static uint32_t largest_island(const cairn_grid *g, size_t *cells, cairn_status *st) {
  uint32_t count = cairn_grid_island_count(g);
  size_t *sizes = calloc((size_t)count + 1, sizeof *sizes);
  *cells = 0;
  if (!sizes) {
    *st = CAIRN_ERR_NOMEM;
    return 0;
  }
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      if (cairn_grid_cost(g, x, y)) {
        uint32_t id = cairn_grid_island(g, x, y);
        if (id <= count) sizes[id]++;
      }
  uint32_t best = 0;
  for (uint32_t id = 1; id <= count; id++)
    if (sizes[id] > sizes[best]) best = id;
  *cells = sizes[best];
  free(sizes);
  *st = CAIRN_OK;
  return best;
}

static cairn_status collect_cells(scen_gen *s, uint32_t island) {
  s->cells = malloc(s->n_cells * sizeof *s->cells);
  if (!s->cells) return CAIRN_ERR_NOMEM;
  size_t k = 0;
  for (int32_t y = 0; y < s->h; y++)
    for (int32_t x = 0; x < s->w; x++)
      if (cairn_grid_cost(s->grid, x, y) && cairn_grid_island(s->grid, x, y) == island)
        s->cells[k++] = (uint32_t)y * (uint32_t)s->w + (uint32_t)x;
  return CAIRN_OK;
}

/* A goal for the fill from `start` whose cost is near target: the closest
 * of SCEN_CANDIDATES random island cells other than the start (the next
 * cell in row order if every draw hit the start). */
static uint32_t pick_goal(scen_gen *s, size_t start_k, cairn_cost target) {
  uint32_t start = s->cells[start_k], best = start;
  cairn_cost best_gap = CAIRN_COST_INF;
  for (int c = 0; c < SCEN_CANDIDATES; c++) {
    uint32_t i = s->cells[rnd(s, s->n_cells)];
    cairn_cost d = s->dist[i];
    cairn_cost gap = d > target ? d - target : target - d;
    if (i != start && gap < best_gap) {
      best = i;
      best_gap = gap;
    }
  }
  if (best == start) best = s->cells[(start_k + 1) % s->n_cells];
  return best;
}

static void put_row(const scen_gen *s, uint32_t start, uint32_t goal,
                    cairn_scen_entry *e) {
  memset(e, 0, sizeof *e);
  e->map_width = s->w;
  e->map_height = s->h;
  e->start = point_of(s, start);
  e->goal = point_of(s, goal);
  e->optimal = cairn_cost_to_double(s->dist[goal]);
  e->bucket = (uint32_t)(e->optimal / 4);
}

/* Fills rows [k, k + n) from one random start. */
static cairn_status fill_rows(scen_gen *s, size_t k, size_t n, cairn_scen_entry *out) {
  size_t start_k = rnd(s, s->n_cells);
  cairn_point sp = point_of(s, s->cells[start_k]);
  size_t area = (size_t)s->w * (size_t)s->h;
  cairn_status st = cairn_distance_map(s->search, s->grid, &sp, 1, NULL, s->dist, area);
  if (st != CAIRN_OK) return st;
  cairn_cost far_cost = 1;
  for (size_t c = 0; c < s->n_cells; c++)
    if (s->dist[s->cells[c]] > far_cost) far_cost = s->dist[s->cells[c]];
  for (size_t j = 0; j < n; j++) {
    /* two draws make a 64-bit target, whatever far_cost's size */
    cairn_cost hi = rnd(s, 1u << 31), lo = rnd(s, 1u << 31);
    cairn_cost target = 1 + ((hi << 31) | lo) % far_cost;
    put_row(s, s->cells[start_k], pick_goal(s, start_k, target), &out[k + j]);
  }
  return CAIRN_OK;
}

/* Bucket order, then generation order (kept in `line` until numbered). */
static int by_bucket(const void *a, const void *b) {
  const cairn_scen_entry *x = a, *y = b;
  if (x->bucket != y->bucket) return x->bucket < y->bucket ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static cairn_status make_rows(scen_gen *s, size_t rows, cairn_scen_entry *out) {
  size_t area = (size_t)s->w * (size_t)s->h;
  s->dist = malloc(area * sizeof *s->dist);
  if (!s->dist) return CAIRN_ERR_NOMEM;
  cairn_status st = cairn_search_create(NULL, &s->search);
  for (size_t k = 0; st == CAIRN_OK && k < rows; k += SCEN_GOALS_PER_START) {
    size_t n = rows - k < SCEN_GOALS_PER_START ? rows - k : SCEN_GOALS_PER_START;
    st = fill_rows(s, k, n, out);
  }
  if (st != CAIRN_OK) return st;
  for (size_t k = 0; k < rows; k++) out[k].line = (uint32_t)k;
  qsort(out, rows, sizeof *out, by_bucket);
  for (size_t k = 0; k < rows; k++) out[k].line = (uint32_t)k + 2; /* after "version 1" */
  return CAIRN_OK;
}

cairn_status cairn_scen_rows_generate(const cairn_grid *grid, size_t rows,
                                      uint64_t seed, cairn_scen_entry *out) {
  if (!grid || !out || rows == 0 || rows > CAIRN_SCEN_MAX_ROWS) return CAIRN_ERR_ARG;
  if (!cairn_grid_islands_fresh(grid)) return CAIRN_ERR_STATE;
  scen_gen s;
  memset(&s, 0, sizeof s);
  s.grid = grid;
  s.w = cairn_grid_width(grid);
  s.h = cairn_grid_height(grid);
  s.rng.rng = seed;
  cairn_status st;
  uint32_t island = largest_island(grid, &s.n_cells, &st);
  if (st != CAIRN_OK) return st;
  if (s.n_cells < 2) return CAIRN_NO_PATH;
  st = collect_cells(&s, island);
  if (st == CAIRN_OK) st = make_rows(&s, rows, out);
  cairn_search_destroy(s.search);
  free(s.dist);
  free(s.cells);
  return st;
}
