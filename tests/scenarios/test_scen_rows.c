/* The scenario rows of the terrain benchmark (cairn_scen_rows_generate):
 * each row's optimal cost equals the tests' own Dijkstra (ref_fill, which
 * shares nothing with the library), start and goal lie in the largest
 * island, buckets are floor(optimal / 4) in order, the same seed gives the
 * same rows; and the maps with no row to make. */
#include "test_search_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cairn_scenarios.h"

/* A random map with walls, painted as the benchmark's terrain. */
static cairn_grid *terrain_map(uint64_t seed, int w, int h) {
  uint64_t rng = seed;
  cairn_grid *g = tu_random_grid(&rng, w, h, 25, 1);
  uint8_t *c = malloc((size_t)w * (size_t)h);
  assert_non_null(c);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) c[y * w + x] = cairn_grid_cost(g, x, y);
  assert_int_equal(cairn_terrain_variant_generate(w, h, seed, c), CAIRN_OK);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) assert_int_equal(cairn_grid_set_cost(g, x, y, c[y * w + x]), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  free(c);
  return g;
}

/* The label of the island with the most cells. */
static uint32_t biggest_island(const cairn_grid *g) {
  uint32_t n = cairn_grid_island_count(g), best = 0;
  size_t *count = calloc((size_t)n + 1, sizeof *count);
  assert_non_null(count);
  for (int y = 0; y < cairn_grid_height(g); y++)
    for (int x = 0; x < cairn_grid_width(g); x++)
      if (cairn_grid_cost(g, x, y)) count[cairn_grid_island(g, x, y)]++;
  for (uint32_t i = 1; i <= n; i++)
    if (count[i] > count[best]) best = i;
  free(count);
  return best;
}

static void optimal_costs_are_dijkstras(void **state) {
  (void)state;
  const int w = 64, h = 48;
  const size_t rows = 120;
  cairn_grid *g = terrain_map(4, w, h);
  cairn_scen_entry *e = calloc(rows, sizeof *e);
  cairn_cost *dist = malloc((size_t)w * h * sizeof *dist);
  assert_true(e && dist);
  assert_int_equal(cairn_scen_rows_generate(g, rows, 8, e), CAIRN_OK);
  uint32_t island = biggest_island(g);
  cairn_point last = {-1, -1};
  for (size_t k = 0; k < rows; k++) {
    assert_int_equal(e[k].map_width, w);
    assert_int_equal(e[k].map_height, h);
    assert_int_equal(e[k].line, k + 2);
    assert_int_equal(cairn_grid_island(g, e[k].start.x, e[k].start.y), island);
    assert_int_equal(cairn_grid_island(g, e[k].goal.x, e[k].goal.y), island);
    assert_false(e[k].start.x == e[k].goal.x && e[k].start.y == e[k].goal.y);
    if (e[k].start.x != last.x || e[k].start.y != last.y) {
      ref_fill(g, 8, rect_of(0, 0, 0, 0), &e[k].start, 1, 0, dist);
      last = e[k].start;
    }
    cairn_cost d = dist[(size_t)e[k].goal.y * (size_t)w + (size_t)e[k].goal.x];
    assert_true(d != INF);
    assert_true(e[k].optimal == cairn_cost_to_double(d));
    assert_int_equal(e[k].bucket, (uint32_t)floor(e[k].optimal / 4));
    if (k) assert_true(e[k - 1].bucket <= e[k].bucket);
  }
  /* the lengths spread: more than a handful of buckets */
  assert_true(e[rows - 1].bucket >= e[0].bucket + 8);
  free(e);
  free(dist);
  cairn_grid_destroy(g);
}

static void same_seed_same_rows(void **state) {
  (void)state;
  cairn_grid *g = terrain_map(5, 40, 30);
  cairn_scen_entry a[50], b[50];
  assert_int_equal(cairn_scen_rows_generate(g, 50, 3, a), CAIRN_OK);
  assert_int_equal(cairn_scen_rows_generate(g, 50, 3, b), CAIRN_OK);
  assert_memory_equal(a, b, sizeof a);
  assert_int_equal(cairn_scen_rows_generate(g, 50, 4, b), CAIRN_OK);
  assert_true(memcmp(a, b, sizeof a) != 0);
  cairn_grid_destroy(g);
}

/* Two open cells, joined: every row is between them. */
static void two_cells(void **state) {
  (void)state;
  const char *rows[] = {"#..#", "####"};
  cairn_grid *g = tu_grid(rows, 2);
  cairn_scen_entry e[20];
  assert_int_equal(cairn_scen_rows_generate(g, 20, 1, e), CAIRN_OK);
  for (int k = 0; k < 20; k++) {
    assert_true(e[k].optimal == 1.0);
    assert_int_equal(e[k].start.y, 0);
    assert_int_equal(e[k].start.x + e[k].goal.x, 3);
  }
  cairn_grid_destroy(g);
}

static void no_row_to_make(void **state) {
  (void)state;
  cairn_scen_entry e[4];
  const char *walls[] = {"####", "####"};
  cairn_grid *g = tu_grid(walls, 2);
  assert_int_equal(cairn_scen_rows_generate(g, 4, 1, e), CAIRN_NO_PATH);
  cairn_grid_destroy(g);
  /* open cells only diagonal to one another: no corner cutting, no pair */
  const char *apart[] = {".#.#", "#.#.", ".#.#"};
  g = tu_grid(apart, 3);
  assert_int_equal(cairn_scen_rows_generate(g, 4, 1, e), CAIRN_NO_PATH);
  assert_int_equal(cairn_scen_rows_generate(g, 0, 1, e), CAIRN_ERR_ARG);
  assert_int_equal(cairn_scen_rows_generate(g, 4, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_scen_rows_generate(NULL, 4, 1, e), CAIRN_ERR_ARG);
  assert_int_equal(cairn_scen_rows_generate(g, (size_t)CAIRN_SCEN_MAX_ROWS + 1, 1, e),
                   CAIRN_ERR_ARG);
  /* stale islands are refused, not trusted */
  assert_int_equal(cairn_grid_set_cost(g, 1, 0, 1), CAIRN_OK);
  assert_int_equal(cairn_scen_rows_generate(g, 4, 1, e), CAIRN_ERR_STATE);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(optimal_costs_are_dijkstras),
      cmocka_unit_test(same_seed_same_rows),
      cmocka_unit_test(two_cells),
      cmocka_unit_test(no_row_to_make),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
