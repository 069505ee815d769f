/* Helpers shared by every test program (test_util.h says what each does). */
#include "test_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

cairn_grid *tu_grid(const char *const *rows, int height) {
  int width = (int)strlen(rows[0]);
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(width, height, 1, NULL, &g), CAIRN_OK);
  for (int y = 0; y < height; y++) {
    assert_int_equal((int)strlen(rows[y]), width);
    for (int x = 0; x < width; x++) {
      char c = rows[y][x];
      int cost = c == '.' ? 1 : c == '#' ? 0 : (c >= '1' && c <= '9') ? c - '0' : -1;
      assert_true(cost >= 0);
      assert_int_equal(cairn_grid_set_cost(g, x, y, (uint8_t)cost), CAIRN_OK);
    }
  }
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

uint64_t tu_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint32_t tu_below(uint64_t *state, uint32_t n) {
  return (uint32_t)(tu_rand(state) % n);
}

cairn_cost tu_path_cost(const cairn_grid *g, const cairn_point *path,
                        size_t n, cairn_point start, cairn_point goal,
                        int moves) {
  assert_true(n >= 1);
  assert_int_equal(path[0].x, start.x);
  assert_int_equal(path[0].y, start.y);
  assert_int_equal(path[n - 1].x, goal.x);
  assert_int_equal(path[n - 1].y, goal.y);
  cairn_cost total = 0;
  for (size_t i = 0; i < n; i++) {
    assert_true(cairn_grid_cost(g, path[i].x, path[i].y) > 0);
    if (i == 0) continue;
    int dx = path[i].x - path[i - 1].x, dy = path[i].y - path[i - 1].y;
    assert_true(dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1);
    assert_true(dx != 0 || dy != 0);
    cairn_cost step = CAIRN_COST_ONE;
    if (dx != 0 && dy != 0) {
      assert_int_equal(moves, 8);
      assert_true(cairn_grid_cost(g, path[i - 1].x + dx, path[i - 1].y) > 0);
      assert_true(cairn_grid_cost(g, path[i - 1].x, path[i - 1].y + dy) > 0);
      step = CAIRN_COST_DIAG;
    }
    total += step * cairn_grid_cost(g, path[i].x, path[i].y);
  }
  return total;
}

cairn_cost tu_path_cost_quiet(const cairn_grid *g, const cairn_point *p,
                              size_t n, cairn_point s, cairn_point t,
                              int moves) {
  if (!p || n == 0 || p[0].x != s.x || p[0].y != s.y || p[n - 1].x != t.x ||
      p[n - 1].y != t.y)
    return CAIRN_COST_INF;
  cairn_cost total = 0;
  for (size_t i = 0; i < n; i++) {
    if (!cairn_grid_cost(g, p[i].x, p[i].y)) return CAIRN_COST_INF;
    if (i == 0) continue;
    int32_t dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
      return CAIRN_COST_INF;
    cairn_cost step = CAIRN_COST_ONE;
    if (dx != 0 && dy != 0) {
      if (moves != 8 || !cairn_grid_cost(g, p[i - 1].x + dx, p[i - 1].y) ||
          !cairn_grid_cost(g, p[i - 1].x, p[i - 1].y + dy))
        return CAIRN_COST_INF;
      step = CAIRN_COST_DIAG;
    }
    total += step * cairn_grid_cost(g, p[i].x, p[i].y);
  }
  return total;
}

int tu_search_setup(void **state) {
  cairn_search *s = NULL;
  if (cairn_search_create(NULL, &s) != CAIRN_OK) return -1;
  *state = s;
  return 0;
}

int tu_search_teardown(void **state) {
  cairn_search_destroy(*state);
  return 0;
}

cairn_grid *tu_random_grid(uint64_t *rng, int w, int h, int wall_pct,
                           int max_cost) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(w, h, 1, NULL, &g), CAIRN_OK);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int c = (int)tu_below(rng, 100) < wall_pct
                  ? 0
                  : 1 + (int)tu_below(rng, (uint32_t)max_cost);
      assert_int_equal(cairn_grid_set_cost(g, x, y, (uint8_t)c), CAIRN_OK);
    }
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

cairn_point tu_random_open(uint64_t *rng, const cairn_grid *g) {
  assert_true(cairn_grid_passable(g) > 0);
  for (;;) {
    cairn_point p = {(int32_t)tu_below(rng, (uint32_t)cairn_grid_width(g)),
                     (int32_t)tu_below(rng, (uint32_t)cairn_grid_height(g))};
    if (cairn_grid_cost(g, p.x, p.y)) return p;
  }
}

void tu_assert_same_graph(const cairn_graph *a, const cairn_graph *b) {
  assert_int_equal(cairn_graph_nodes(a), cairn_graph_nodes(b));
  assert_int_equal(cairn_graph_edges(a), cairn_graph_edges(b));
  for (uint32_t v = 0; v < cairn_graph_nodes(a); v++) {
    const uint32_t *ta, *tb;
    const cairn_cost *ca, *cb;
    uint32_t n = cairn_graph_neighbours(a, v, &ta, &ca);
    assert_int_equal(n, cairn_graph_neighbours(b, v, &tb, &cb));
    for (uint32_t k = 0; k < n; k++) {
      assert_int_equal(ta[k], tb[k]);
      assert_true(ca[k] == cb[k]);
    }
  }
}

void tu_assert_same_landmarks(const cairn_graph *a, const cairn_graph *b) {
  uint32_t k = cairn_graph_landmarks(a), n = cairn_graph_nodes(a);
  assert_int_equal(k, cairn_graph_landmarks(b));
  for (uint32_t i = 0; i < k; i++) {
    assert_int_equal(cairn_graph_landmark_node(a, i), cairn_graph_landmark_node(b, i));
    for (uint32_t v = 0; v < n; v++)
      assert_true(cairn_graph_landmark_cost(a, i, v) == cairn_graph_landmark_cost(b, i, v));
  }
}

/* ---- failing allocator ---------------------------------------------- */

/* Each block starts with a header holding its size, so frees can be
 * checked against what was handed out. */
#define TU_HEADER 16

static void tu_free_block(tu_alloc *t, unsigned char *base, size_t had) {
  t->live_bytes -= had;
  t->live_blocks--;
  free(base);
}

static void *tu_alloc_fn(void *user, void *ptr, size_t old_size,
                         size_t new_size) {
  tu_alloc *t = user;
  unsigned char *base = ptr ? (unsigned char *)ptr - TU_HEADER : NULL;
  size_t had = 0;
  if (base) memcpy(&had, base, sizeof had);
  if (base && had != old_size) t->bad_sizes++;
  t->calls++;
  if (new_size == 0) {
    if (base) tu_free_block(t, base, had);
    return NULL;
  }
  if (t->budget == 0) {
    t->failures++;
    return NULL;
  }
  unsigned char *nb = realloc(base, new_size + TU_HEADER);
  if (!nb) return NULL;
  if (t->budget > 0) t->budget--;
  memcpy(nb, &new_size, sizeof new_size);
  t->live_bytes += new_size - had;
  if (!base) t->live_blocks++;
  return nb + TU_HEADER;
}

cairn_allocator tu_alloc_init(tu_alloc *t, long budget) {
  memset(t, 0, sizeof *t);
  t->budget = budget;
  cairn_allocator a = {tu_alloc_fn, t};
  return a;
}

static void tu_assert_clean(const char *name, long k, const tu_alloc *t) {
  if (t->live_bytes || t->live_blocks || t->bad_sizes)
    print_message("%s, failing after %ld: %zu bytes in %zu blocks live, "
                  "%zu wrong old sizes\n",
                  name, k, t->live_bytes, t->live_blocks, t->bad_sizes);
  assert_int_equal(t->live_bytes, 0);
  assert_int_equal(t->live_blocks, 0);
  assert_int_equal(t->bad_sizes, 0);
}

/* Far above what any sweep here needs: a sweep that gets this far is
 * stuck (a retry loop that swallows the failure). */
#define TU_MAX_SWEEP 1000000L

long tu_oom_sweep(const char *name, tu_oom_fn fn, void *ctx) {
  tu_alloc t;
  for (long k = 0;; k++) {
    cairn_allocator a = tu_alloc_init(&t, k);
    cairn_status st = fn(ctx, &a);
    tu_assert_clean(name, k, &t);
    if (st == CAIRN_OK) {
      assert_int_equal(t.failures, 0);
      return k;
    }
    if (st != CAIRN_ERR_NOMEM || t.failures == 0)
      print_message("%s, failing after %ld: %s (%zu refusals)\n", name, k,
                    cairn_status_str(st), t.failures);
    assert_int_equal(st, CAIRN_ERR_NOMEM);
    assert_true(t.failures > 0);
    assert_true(k < TU_MAX_SWEEP);
  }
}

void tu_oom_check(const char *name, tu_oom_fn fn, void *ctx, long min_allocs) {
  long n = tu_oom_sweep(name, fn, ctx);
  print_message("%-22s succeeds from %ld allocations on\n", name, n);
  assert_true(n >= min_allocs);
}

static tu_oom_map oom_map;

int tu_oom_map_setup(void **state) {
  uint64_t rng = 0x00b5;
  oom_map.grid = tu_random_grid(&rng, 40, 33, 22, 3);
  oom_map.a = tu_random_open(&rng, oom_map.grid);
  do oom_map.b = tu_random_open(&rng, oom_map.grid);
  while (cairn_grid_island(oom_map.grid, oom_map.b.x, oom_map.b.y) !=
             cairn_grid_island(oom_map.grid, oom_map.a.x, oom_map.a.y) ||
         abs(oom_map.b.x - oom_map.a.x) + abs(oom_map.b.y - oom_map.a.y) < 30);
  cairn_search *s = NULL;
  cairn_result r;
  if (cairn_search_create(NULL, &s) != CAIRN_OK) return -1;
  if (cairn_astar(s, oom_map.grid, oom_map.a, oom_map.b, NULL, &r) != CAIRN_OK) return -1;
  oom_map.astar_cost = r.cost;
  cairn_search_destroy(s);
  *state = &oom_map;
  return 0;
}

int tu_oom_map_teardown(void **state) {
  (void)state;
  cairn_grid_destroy(oom_map.grid);
  oom_map.grid = NULL;
  return 0;
}

cairn_grid *tu_eroded(const cairn_grid *g, int k) {
  const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  cairn_grid *e = NULL;
  assert_int_equal(cairn_grid_create(w, h, 0, NULL, &e), CAIRN_OK);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      uint8_t most = 0;
      bool open = true;
      for (int dy = 0; dy < k && open; dy++)
        for (int dx = 0; dx < k && open; dx++) {
          uint8_t c = cairn_grid_cost(g, x + dx, y + dy);
          open = c != 0;
          if (c > most) most = c;
        }
      assert_int_equal(cairn_grid_set_cost(e, x, y, open ? most : 0), CAIRN_OK);
    }
  assert_int_equal(cairn_grid_update_islands(e), CAIRN_OK);
  return e;
}

cairn_point tu_fitting(uint64_t *rng, const cairn_grid *g, int k) {
  for (int t = 0; t < 4000; t++) {
    cairn_point p = {(int32_t)tu_below(rng, (uint32_t)cairn_grid_width(g)),
                     (int32_t)tu_below(rng, (uint32_t)cairn_grid_height(g))};
    if (cairn_grid_clearance(g, p.x, p.y) >= k) return p;
  }
  cairn_point none = {-1, -1};
  return none;
}

cairn_result tu_dijkstra(cairn_search *s, const cairn_grid *g, cairn_point a, cairn_point b,
                         const cairn_search_opts *o) {
  cairn_search_opts d = *o;
  d.heuristic = CAIRN_H_ZERO;
  d.landmarks = NULL;
  d.dead_ends = NULL;
  cairn_result r;
  cairn_astar(s, g, a, b, &d, &r);
  return r;
}

void tu_agrees(const cairn_grid *g, const char *what, cairn_status st, const cairn_result *got,
               const cairn_result *want, cairn_point a, cairn_point b, int moves,
               bool check_path) {
  if (st != want->status)
    fail_msg("%s (%d,%d)->(%d,%d): status %d, dijkstra %d", what, a.x, a.y, b.x, b.y, st,
             want->status);
  if (st != CAIRN_OK) return;
  if (got->cost != want->cost)
    fail_msg("%s (%d,%d)->(%d,%d): cost %llu, dijkstra %llu", what, a.x, a.y, b.x, b.y,
             (unsigned long long)got->cost, (unsigned long long)want->cost);
  if (check_path) assert_int_equal(tu_path_cost(g, got->path, got->path_len, a, b, moves), got->cost);
}

/* A map of rooms (random sides 1..5) in rows and columns, one-cell walls
 * between them, each wall with a one-cell door at a random place with
 * probability door_pct/100 (a two-cell one one time in five), a few
 * pillars inside the rooms, and terrain 1..max_cost. */
cairn_grid *tu_rooms(uint64_t *rng, int w, int h, int door_pct, int max_cost) {
  char *cells = malloc((size_t)w * (size_t)h);
  assert_non_null(cells);
  memset(cells, '#', (size_t)w * (size_t)h);
  int xs[64], ys[64], nx = 0, ny = 0;
  for (int x = 0; x < w && nx < 63; x += 2 + (int)tu_below(rng, 5)) xs[nx++] = x;
  for (int y = 0; y < h && ny < 63; y += 2 + (int)tu_below(rng, 5)) ys[ny++] = y;
  xs[nx] = w;
  ys[ny] = h;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      const int x0 = xs[i], x1 = xs[i + 1] - 1, y0 = ys[j], y1 = ys[j + 1] - 1;
      for (int y = y0; y < y1 || (y == y0 && y0 == y1); y++)
        for (int x = x0; x < x1 || (x == x0 && x0 == x1); x++) {
          const bool pillar = tu_below(rng, 100) < 4;
          cells[y * w + x] = pillar ? '#' : (char)('0' + 1 + (int)tu_below(rng, (uint32_t)max_cost));
        }
      /* a door east (in the wall column x1) and south (wall row y1) */
      if (x1 > x0 && x1 < w - 1 && (int)tu_below(rng, 100) < door_pct) {
        const int y = y0 + (int)tu_below(rng, (uint32_t)(y1 - y0 > 0 ? y1 - y0 : 1));
        cells[y * w + x1] = '1';
        if (tu_below(rng, 5) == 0 && y + 1 < y1) cells[(y + 1) * w + x1] = '1';
      }
      if (y1 > y0 && y1 < h - 1 && (int)tu_below(rng, 100) < door_pct) {
        const int x = x0 + (int)tu_below(rng, (uint32_t)(x1 - x0 > 0 ? x1 - x0 : 1));
        cells[y1 * w + x] = '1';
        if (tu_below(rng, 5) == 0 && x + 1 < x1) cells[y1 * w + x + 1] = '1';
      }
    }
  const char **rows = malloc((size_t)h * sizeof *rows);
  char *text = malloc((size_t)h * (size_t)(w + 1));
  assert_non_null(rows);
  assert_non_null(text);
  for (int y = 0; y < h; y++) {
    memcpy(text + (size_t)y * (size_t)(w + 1), cells + (size_t)y * (size_t)w, (size_t)w);
    text[(size_t)y * (size_t)(w + 1) + (size_t)w] = 0;
    rows[y] = text + (size_t)y * (size_t)(w + 1);
  }
  cairn_grid *g = tu_grid(rows, h);
  free(rows);
  free(text);
  free(cells);
  return g;
}
