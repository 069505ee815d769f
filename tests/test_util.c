#include "test_util.h"

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
