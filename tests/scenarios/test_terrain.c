/* The terrain painter (cairn_terrain_variant_generate): the same costs for
 * the same seed and other costs for another, walls kept, every open cell
 * open with a cost in 1..8, roads, ground and patches all present, and
 * the refused arguments. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "cairn_scenarios.h"

enum { W = 150, H = 110 };
/* FNV-1a of the costs pinned_costs paints (seed 21 on random_map(11)) */
#define TERRAIN_PINNED_HASH 0x130d67ab1453345full

/* Walls (0) on about a quarter of the cells, open cells of cost 1..4. */
static uint8_t *random_map(uint64_t seed) {
  uint8_t *c = malloc((size_t)W * H);
  assert_non_null(c);
  uint64_t rng = seed;
  for (size_t i = 0; i < (size_t)W * H; i++)
    c[i] = tu_below(&rng, 4) == 0 ? 0 : (uint8_t)(1 + tu_below(&rng, 4));
  return c;
}

static void same_seed_same_costs(void **state) {
  (void)state;
  uint8_t *map = random_map(7), *a = malloc((size_t)W * H), *b = malloc((size_t)W * H);
  assert_true(a && b);
  memcpy(a, map, (size_t)W * H);
  memcpy(b, map, (size_t)W * H);
  assert_int_equal(cairn_terrain_variant_generate(W, H, 5, a), CAIRN_OK);
  assert_int_equal(cairn_terrain_variant_generate(W, H, 5, b), CAIRN_OK);
  assert_memory_equal(a, b, (size_t)W * H);
  memcpy(b, map, (size_t)W * H);
  assert_int_equal(cairn_terrain_variant_generate(W, H, 6, b), CAIRN_OK);
  assert_true(memcmp(a, b, (size_t)W * H) != 0);
  free(map);
  free(a);
  free(b);
}

/* Pinned bytes: a change to the painter (or a platform that draws other
 * numbers) shows here, as it would change the benchmark's files. */
static void pinned_costs(void **state) {
  (void)state;
  uint8_t *c = random_map(11);
  assert_int_equal(cairn_terrain_variant_generate(W, H, 21, c), CAIRN_OK);
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < (size_t)W * H; i++) h = (h ^ c[i]) * 1099511628211ull;
  print_message("terrain hash %016llx\n", (unsigned long long)h);
  assert_true(h == TERRAIN_PINNED_HASH);
  free(c);
}

static void walls_kept_costs_in_range(void **state) {
  (void)state;
  uint8_t *map = random_map(9), *c = malloc((size_t)W * H);
  assert_non_null(c);
  memcpy(c, map, (size_t)W * H);
  assert_int_equal(cairn_terrain_variant_generate(W, H, 3, c), CAIRN_OK);
  size_t by_cost[256] = {0};
  for (size_t i = 0; i < (size_t)W * H; i++) {
    assert_int_equal(map[i] == 0, c[i] == 0); /* walls kept, open stays open */
    assert_true(c[i] <= 8);
    by_cost[c[i]]++;
  }
  assert_true(by_cost[1] > 0); /* roads */
  assert_true(by_cost[CAIRN_TERRAIN_GROUND] > (size_t)W * H / 4);
  size_t swamp = 0;
  for (int k = 4; k <= 8; k++) swamp += by_cost[k];
  assert_true(swamp > 0 && by_cost[2] > 0);
  free(map);
  free(c);
}

/* A map of walls only stays so; one cell is painted ground or road. */
static void tiny_and_walled_maps(void **state) {
  (void)state;
  uint8_t walls[12] = {0};
  assert_int_equal(cairn_terrain_variant_generate(4, 3, 1, walls), CAIRN_OK);
  for (int i = 0; i < 12; i++) assert_int_equal(walls[i], 0);
  uint8_t one = 1;
  assert_int_equal(cairn_terrain_variant_generate(1, 1, 1, &one), CAIRN_OK);
  assert_true(one >= 1 && one <= 8);
}

static void refusals(void **state) {
  (void)state;
  uint8_t c[4] = {1, 1, 1, 1};
  assert_int_equal(cairn_terrain_variant_generate(2, 2, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_terrain_variant_generate(0, 2, 1, c), CAIRN_ERR_ARG);
  assert_int_equal(cairn_terrain_variant_generate(2, -1, 1, c), CAIRN_ERR_ARG);
  assert_int_equal(cairn_terrain_variant_generate(CAIRN_GRID_MAX_SIDE + 1, 1, 1, c),
                   CAIRN_ERR_TOO_LARGE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_seed_same_costs),
      cmocka_unit_test(pinned_costs),
      cmocka_unit_test(walls_kept_costs_in_range),
      cmocka_unit_test(tiny_and_walled_maps),
      cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
