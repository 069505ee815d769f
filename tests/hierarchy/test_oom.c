/* Allocation failure at every point, hierarchy: builds with two and three
 * levels and a query on each, and an edit, and the same for units up to
 * size 3 with a query of size 2 (max_size 3), under an allocator that fails
 * after k allocations for k = 0, 1, 2, ... (tu_oom_sweep), return
 * CAIRN_ERR_NOMEM and leak nothing, and the run that succeeds finds a path no
 * cheaper than A*'s. */
#include "test_util.h"

#include "cairn/hierarchy.h"

/* Builds with two or three levels and runs a query on each; a third case
 * edits a copy of the map (an edit that fails leaves the hierarchy stale,
 * so every run starts from a fresh copy). */
/* A query of size 2 between the first and the last positions that fit
 * it; no path counts as an answer. */
static cairn_status sized_query(const cairn_grid *g, const cairn_hpa *h, cairn_hpa_query *q) {
  cairn_point a = {-1, -1}, b = {-1, -1};
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 0; x < cairn_grid_width(g); x++)
      if (cairn_grid_clearance(g, x, y) >= 2) {
        if (a.x < 0) a = pt(x, y);
        b = pt(x, y);
      }
  if (a.x < 0) return CAIRN_OK;
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  po.nearby = 0;
  po.size = 2;
  cairn_hpa_result r;
  cairn_status st = cairn_hpa_find(q, h, a, b, &po, &r);
  return st == CAIRN_NO_PATH ? CAIRN_OK : st;
}

static cairn_status hpa_run(const tu_oom_map *fx, const cairn_allocator *al, int levels,
                            int edit, int32_t max_size) {
  cairn_grid *g = NULL;
  cairn_hpa *h = NULL;
  cairn_hpa_query *q = NULL;
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = 8;
  o.levels = levels;
  o.block = levels == 3 ? 2 : 0;
  o.threads = 1;
  o.landmarks = 4;
  o.max_size = max_size;
  cairn_status st = cairn_grid_create(cairn_grid_width(fx->grid),
                                      cairn_grid_height(fx->grid), 1, al, &g);
  int32_t stride;
  const uint8_t *cells = cairn_grid_cells(fx->grid, &stride);
  cairn_rect all = {0, 0, cairn_grid_width(fx->grid), cairn_grid_height(fx->grid)};
  if (st == CAIRN_OK)
    st = cairn_grid_set_rect(g, all, cells + stride + 1, (size_t)stride);
  if (st == CAIRN_OK) st = cairn_grid_update_islands(g);
  if (st == CAIRN_OK) st = cairn_hpa_create(g, &o, al, &h);
  if (st == CAIRN_OK) st = cairn_hpa_query_create(al, &q);
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  po.nearby = 0;
  cairn_hpa_result r;
  if (st == CAIRN_OK) st = cairn_hpa_find(q, h, fx->a, fx->b, &po, &r);
  if (st == CAIRN_OK) assert_true(r.cost >= fx->astar_cost);
  cairn_point wall[2] = {{(fx->a.x + fx->b.x) / 2, (fx->a.y + fx->b.y) / 2},
                         {fx->a.x, fx->a.y}};
  uint8_t costs[2] = {0, 2};
  if (st == CAIRN_OK && edit) st = cairn_hpa_edit(h, g, wall, costs, 2);
  if (st == CAIRN_OK && edit) st = cairn_hpa_find(q, h, fx->a, fx->b, &po, &r);
  if (st == CAIRN_OK && max_size > 1) st = sized_query(g, h, q);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
  return st;
}

static cairn_status hpa2_case(void *ctx, const cairn_allocator *al) {
  return hpa_run(ctx, al, 2, 0, 1);
}

static cairn_status hpa3_case(void *ctx, const cairn_allocator *al) {
  return hpa_run(ctx, al, 3, 0, 1);
}

static cairn_status hpa_edit_case(void *ctx, const cairn_allocator *al) {
  return hpa_run(ctx, al, 2, 1, 1);
}

static cairn_status hpa_sized_case(void *ctx, const cairn_allocator *al) {
  return hpa_run(ctx, al, 2, 1, 3);
}

static void oom_hierarchy(void **state) {
  tu_oom_check("hierarchy, 2 levels", hpa2_case, *state, 20);
  tu_oom_check("hierarchy, 3 levels", hpa3_case, *state, 20);
  tu_oom_check("hierarchy edit", hpa_edit_case, *state, 20);
  tu_oom_check("hierarchy, sizes to 3, edit", hpa_sized_case, *state, 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(oom_hierarchy),
  };
  return cmocka_run_group_tests(tests, tu_oom_map_setup, tu_oom_map_teardown);
}
