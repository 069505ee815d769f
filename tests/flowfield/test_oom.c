/* Allocation failure at every point, flow fields: a field built and
 * repaired, a batch, a cached field and tiles over a hierarchy, under an
 * allocator that fails after k allocations for k = 0, 1, 2, ...
 * (tu_oom_sweep), return CAIRN_ERR_NOMEM and leak nothing, and the run that
 * succeeds gives the field A*'s cost. */
#include "test_util.h"

#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

/* What a flow case reads: the map, and a hierarchy built on it with malloc. */
typedef struct flow_ctx {
  const tu_oom_map *fx;
  const cairn_hpa *h;
} flow_ctx;

/* A field built and repaired, a batch of two, a cached field, tiles
 * routed over a hierarchy built with malloc. */
static cairn_status flow_case(void *ctx, const cairn_allocator *al) {
  const tu_oom_map *fx = ((const flow_ctx *)ctx)->fx;
  const cairn_hpa *h = ((const flow_ctx *)ctx)->h;
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL, *f2 = NULL;
  cairn_flow_cache *c = NULL;
  cairn_flow_tiles *t = NULL;
  cairn_hpa_query *q = NULL;
  const cairn_field *held = NULL;
  cairn_status st = cairn_flow_builder_create(al, &b);
  if (st == CAIRN_OK) st = cairn_field_create(fx->grid, al, &f);
  if (st == CAIRN_OK) st = cairn_field_build(b, f, fx->grid, &fx->b, 1, NULL);
  if (st == CAIRN_OK) assert_true(cairn_field_cost(f, fx->a.x, fx->a.y) == fx->astar_cost);
  if (st == CAIRN_OK) st = cairn_field_create(fx->grid, al, &f2);
  cairn_flow_request reqs[2] = {{f, &fx->a, 1, CAIRN_OK}, {f2, &fx->b, 1, CAIRN_OK}};
  cairn_flow_builder *bs[1] = {b};
  if (st == CAIRN_OK) st = cairn_flow_build_batch(bs, 1, fx->grid, reqs, 2, NULL);
  if (st == CAIRN_OK) st = cairn_flow_cache_create(fx->grid, 1 << 22, NULL, al, &c);
  if (st == CAIRN_OK) st = cairn_flow_cache_acquire(c, b, &fx->a, 1, &held);
  if (st == CAIRN_OK) st = cairn_hpa_query_create(al, &q);
  if (st == CAIRN_OK) st = cairn_flow_tiles_create(fx->grid, h, fx->b, 64, al, &t);
  if (st == CAIRN_OK) st = cairn_flow_tiles_route(t, q, fx->a);
  int dir = CAIRN_FLOW_NONE;
  if (st == CAIRN_OK) st = cairn_flow_tiles_dir(t, fx->a.x, fx->a.y, &dir, NULL);
  if (st == CAIRN_OK) assert_true(dir < 8);
  if (held) assert_int_equal(cairn_flow_cache_release(c, held), CAIRN_OK);
  cairn_flow_tiles_destroy(t);
  cairn_hpa_query_destroy(q);
  cairn_flow_cache_destroy(c);
  cairn_field_destroy(f2);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  return st;
}

static void oom_flow(void **state) {
  const tu_oom_map *fx = *state;
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = 8;
  o.threads = 1;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(fx->grid, &o, NULL, &h), CAIRN_OK);
  flow_ctx ctx = {fx, h};
  tu_oom_check("flow", flow_case, &ctx, 8);
  cairn_hpa_destroy(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(oom_flow),
  };
  return cmocka_run_group_tests(tests, tu_oom_map_setup, tu_oom_map_teardown);
}
