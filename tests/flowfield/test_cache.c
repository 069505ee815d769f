/* The flow-field cache: requests share a field that stays until evicted
 * after the last release, held fields are never evicted, edits touch only
 * the fields that reach them; under a cost layer one call brings held fields
 * up to date and drops unheld affected ones. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_flow_util.h"

#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

/* The cache under a layer: one call brings held fields up to date (equal
 * to a fresh build), drops unheld affected ones, only re-marks fields the
 * change cannot reach, and does nothing when the layer did not change. */
static void cache_under_layer(void **state) {
  (void)state;
  /* two rooms joined by nothing, the right one beyond the layer's first
   * column of tiles (16 cells) */
  static const char *const rows[] = {
      "....................#...................",
      "....................#...................",
      "....................#...................",
      "....................#...................",
      "....................#...................",
      "....................#...................",
  };
  cairn_grid *g = tu_grid(rows, 6);
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  cairn_flow_builder *b = new_builder();
  cairn_flow_opts o = cairn_flow_defaults();
  o.penalty = p;
  cairn_flow_cache *c = NULL;
  assert_int_equal(cairn_flow_cache_create(g, 1 << 20, &o, NULL, &c), CAIRN_OK);
  cairn_point left = pt(2, 2), right = pt(30, 3), left2 = pt(8, 5);
  const cairn_field *fl, *fr, *fl2;
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &fl), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &right, 1, &fr), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left2, 1, &fl2), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_release(c, fl2), CAIRN_OK);
  size_t rep = 9, drop = 9;
  assert_int_equal(cairn_flow_cache_layer_changed(c, b, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep, 0);
  assert_int_equal(drop, 0);
  /* a stopped unit and some danger in the left room */
  assert_int_equal(cairn_penalty_block(p, 3, 2, 1), CAIRN_OK);
  assert_int_equal(cairn_penalty_add(p, 2, 3, 5 * CAIRN_COST_ONE), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_layer_changed(c, b, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep, 1);  /* the left field */
  assert_int_equal(drop, 1); /* the unheld left one */
  assert_true(cairn_field_layer_version(fr) == cairn_penalty_version(p));
  cairn_field *fresh = new_field(g);
  assert_int_equal(cairn_field_build(b, fresh, g, &left, 1, &o), CAIRN_OK);
  assert_same_field(fl, fresh, g);
  /* (2, 4) no longer walks straight through the danger at (2, 3) */
  assert_true(cairn_field_cost(fl, 2, 4) > 2 * CAIRN_COST_ONE);
  /* nobody walks through the stopped unit: (4, 2) goes round it */
  assert_true(cairn_field_cost(fl, 4, 2) > 2 * CAIRN_COST_ONE);
  cairn_flow_cache_stats cs;
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 2);
  assert_int_equal(cairn_flow_cache_layer_changed(c, b, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep + drop, 0);
  assert_int_equal(cairn_flow_cache_layer_changed(NULL, b, &rep, &drop), CAIRN_ERR_ARG);
  assert_int_equal(cairn_flow_cache_release(c, fl), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_release(c, fr), CAIRN_OK);
  cairn_field_destroy(fresh);
  cairn_flow_cache_destroy(c);
  cairn_flow_builder_destroy(b);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

/* Two requests share a field; it stays until evicted after the last
 * release; held fields are never evicted; edits touch only fields that
 * reach them. */
static void cache_shares_and_releases(void **state) {
  (void)state;
  /* two rooms joined by nothing: a field in one never reaches the other */
  static const char *const rows[] = {
      "..........#.........", "..........#.........", "..........#.........",
      "..........#.........", "..........#.........", "..........#.........",
  };
  cairn_grid *g = tu_grid(rows, 6);
  cairn_flow_builder *b = new_builder();
  cairn_field *probe = new_field(g);
  cairn_field_stats fs;
  cairn_field_get_stats(probe, &fs);
  cairn_field_destroy(probe);
  cairn_flow_cache *c = NULL;
  /* room for two fields, not three */
  assert_int_equal(cairn_flow_cache_create(g, 2 * fs.memory_bytes + 64, NULL, NULL, &c),
                   CAIRN_OK);
  cairn_point ab[2] = {pt(1, 1), pt(3, 2)}, ba[3] = {pt(3, 2), pt(1, 1), pt(3, 2)};
  const cairn_field *f1, *f2, *f3, *f4;
  assert_int_equal(cairn_flow_cache_acquire(c, b, ab, 2, &f1), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, ba, 3, &f2), CAIRN_OK);
  assert_ptr_equal(f1, f2);
  cairn_flow_cache_stats cs;
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 1);
  assert_int_equal(cs.hits, 1);
  assert_int_equal(cs.misses, 1);
  cairn_point right = pt(15, 3), left = pt(5, 5);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &right, 1, &f3), CAIRN_OK);
  /* full, both held: a third field does not fit */
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &f4), CAIRN_ERR_NOMEM);
  assert_int_equal(cairn_flow_cache_release(c, f1), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_trim(c), 0); /* still held once */
  assert_int_equal(cairn_flow_cache_release(c, f2), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_release(c, f2), CAIRN_ERR_ARG);
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 2);
  assert_int_equal(cs.held, 1);
  /* now the unheld one is evicted to make room */
  assert_int_equal(cairn_flow_cache_acquire(c, b, &left, 1, &f4), CAIRN_OK);
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.evictions, 1);
  assert_int_equal(cs.fields, 2);
  /* an edit in the right room touches only the right field */
  cairn_point wall = pt(14, 3);
  assert_int_equal(cairn_grid_set_cost(g, 14, 3, 0), CAIRN_OK);
  size_t rep, drop;
  assert_int_equal(cairn_flow_cache_update(c, b, &wall, 1, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep, 1);
  assert_int_equal(drop, 0);
  cairn_field *fresh = new_field(g);
  assert_int_equal(cairn_field_build(b, fresh, g, &right, 1, NULL), CAIRN_OK);
  assert_same_field(f3, fresh, g);
  assert_true(cairn_field_cost(f4, 0, 0) != CAIRN_COST_INF);
  /* released and then edited: dropped, not repaired */
  assert_int_equal(cairn_flow_cache_release(c, f4), CAIRN_OK);
  cairn_point w2 = pt(2, 2);
  assert_int_equal(cairn_grid_set_cost(g, 2, 2, 0), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_update(c, b, &w2, 1, &rep, &drop), CAIRN_OK);
  assert_int_equal(rep, 0);
  assert_int_equal(drop, 1);
  /* a held field whose goal is walled in is detached */
  assert_int_equal(cairn_grid_set_cost(g, 15, 3, 0), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_update(c, b, &right, 1, &rep, &drop), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_acquire(c, b, &right, 1, &f4), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_flow_cache_release(c, f3), CAIRN_OK);
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 0);
  assert_int_equal(cairn_flow_cache_release(c, fresh), CAIRN_ERR_ARG);
  /* after its last release, a field is dropped by a trim (and then asked
   * for again, built afresh) */
  assert_int_equal(cairn_flow_cache_acquire(c, b, ab, 2, &f1), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_trim(c), 0);
  assert_int_equal(cairn_flow_cache_release(c, f1), CAIRN_OK);
  assert_int_equal(cairn_flow_cache_trim(c), 1);
  cairn_flow_cache_get_stats(c, &cs);
  assert_int_equal(cs.fields, 0);
  assert_int_equal(cs.bytes, 0);
  cairn_field_destroy(fresh);
  cairn_flow_cache_destroy(c);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cache_under_layer),
      cmocka_unit_test(cache_shares_and_releases),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
