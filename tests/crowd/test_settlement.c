/* The settlement generator (cairn_settlement_generate): the same map for the
 * same seed, its gates, water and trees, another map for another seed,
 * refused sizes. On its own so that it moves with the generator. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "cairn_crowd.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(settlement_generator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
