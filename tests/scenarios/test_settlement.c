/* The scenarios module's generators: the settlement
 * (cairn_settlement_generate) and the outskirts (cairn_outskirts_generate):
 * the same map for the same seed, their features, another map for another
 * seed, refused sizes. The shipped maps are checked against `cairn gen` in
 * tools/cli_test.sh. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "cairn_scenarios.h"

static void settlement_generator(void **state) {
  (void)state;
  char *a = malloc(128 * 128), *b = malloc(128 * 128);
  assert_int_equal(cairn_settlement_generate(128, 128, 3, a), CAIRN_OK);
  assert_int_equal(cairn_settlement_generate(128, 128, 3, b), CAIRN_OK);
  assert_memory_equal(a, b, 128 * 128);
  size_t gates = 0, water = 0, trees = 0;
  for (size_t i = 0; i < 128 * 128; i++) {
    gates += a[i] == 'G';
    water += a[i] == 'W';
    trees += a[i] == 'T';
  }
  assert_int_equal(gates, 8 * CAIRN_SETTLEMENT_GATE);
  assert_true(water > 128 && trees > 0);
  assert_int_equal(cairn_settlement_generate(128, 128, 4, b), CAIRN_OK);
  assert_true(memcmp(a, b, 128 * 128) != 0);
  assert_int_equal(cairn_settlement_generate(32, 128, 3, b), CAIRN_ERR_ARG);
  free(a);
  free(b);
}

static void outskirts_generator(void **state) {
  (void)state;
  const size_t n = 120 * 60;
  char *a = malloc(n), *b = malloc(n);
  assert_int_equal(cairn_outskirts_generate(120, 60, 1, a), CAIRN_OK);
  assert_int_equal(cairn_outskirts_generate(120, 60, 1, b), CAIRN_OK);
  assert_memory_equal(a, b, n);
  size_t walls = 0, water = 0, trees = 0, swamp = 0, other = 0;
  for (size_t i = 0; i < n; i++) {
    walls += a[i] == '@';
    water += a[i] == 'W';
    trees += a[i] == 'T';
    swamp += a[i] == 'S';
    other += a[i] != '@' && a[i] != 'W' && a[i] != 'T' && a[i] != 'S' && a[i] != '.';
  }
  assert_true(walls > 0 && water >= 60 && trees > 0 && swamp > 0);
  assert_int_equal(other, 0);
  /* the hamlet's west gate: open ground in its wall's middle row */
  int32_t hx0 = 120 * 3 / 4 - 2, my = (60 / 4 + 60 * 3 / 4) / 2;
  assert_int_equal(a[(size_t)my * 120 + (size_t)hx0], '.');
  assert_int_equal(a[(size_t)(60 / 4) * 120 + (size_t)hx0], '@');
  assert_int_equal(cairn_outskirts_generate(120, 60, 2, b), CAIRN_OK);
  assert_true(memcmp(a, b, n) != 0);
  assert_int_equal(cairn_outskirts_generate(39, 60, 1, b), CAIRN_ERR_ARG);
  assert_int_equal(cairn_outskirts_generate(120, 60, 1, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_outskirts_generate(CAIRN_GRID_MAX_SIDE + 1, 60, 1, b),
                   CAIRN_ERR_TOO_LARGE);
  free(a);
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(settlement_generator),
      cmocka_unit_test(outskirts_generator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
