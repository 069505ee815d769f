/* Hierarchy (HPA*) edits: random batches of edits leave exactly the
 * hierarchy a fresh build makes, with the same answers; an edit redoes the
 * clusters it touches and their neighbours across a moved border entrance,
 * and no others; a batch of cells far apart whose later cells move border
 * entrances. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_hpa_util.h"

#include "cairn/hierarchy.h"
#include "hpa_internal.h"

#include <stdlib.h>

/* ---- edits ---------------------------------------------------------- */

/* Applies the batch with cairn_hpa_edit, checks the grid holds it (shadow
 * holds the costs the grid must have) and its islands are fresh. */
static void edit_checked(cairn_hpa *h, cairn_grid *g, uint8_t *shadow,
                         const cairn_point *cells, const uint8_t *costs,
                         size_t n) {
  int32_t w = cairn_grid_width(g), hh = cairn_grid_height(g);
  cairn_status est = cairn_hpa_edit(h, g, cells, costs, n);
  if (est != CAIRN_OK) {
    for (size_t i = 0; i < n; i++) print_message("(%d,%d)=%d ", cells[i].x, cells[i].y, costs[i]);
    print_message("n=%zu\n", n);
  }
  assert_int_equal(est, CAIRN_OK);
  for (size_t i = 0; i < n; i++)
    shadow[(size_t)cells[i].y * (size_t)w + (size_t)cells[i].x] = costs[i];
  for (int32_t y = 0; y < hh; y++)
    for (int32_t x = 0; x < w; x++)
      assert_int_equal(cairn_grid_cost(g, x, y), shadow[(size_t)y * (size_t)w + (size_t)x]);
  assert_true(cairn_grid_islands_fresh(g));
}

static void random_edit_batches(void **state) {
  (void)state;
  uint64_t rng = 0xed17;
  const struct {
    int w, h, walls, cost;
    int32_t cs;
    int batches, threads; /* threads of the edited hierarchy's updates */
    int levels;
    int32_t block; /* block side in clusters (three levels; 0: default) */
  } cases[] = {{96, 80, 20, 3, 8, 40, 1, 0, 0},
               {96, 80, 35, 3, 16, 40, 0, 0, 0},
               {96, 80, 28, 3, 8, 32, 2, 0, 0},
               {90, 70, 25, 3, 16, 32, 1, 0, 0}, /* partial clusters at the edges */
               {45, 37, 30, 3, 4, 32, 1, 0, 0},
               /* three levels: partial blocks of 4 x 4 small clusters, then
                * blocks of 2 x 2 and (partial) 3 x 3 clusters of 8 */
               {98, 81, 25, 3, 4, 32, 1, 3, 0},
               {96, 80, 25, 3, 8, 24, 2, 3, 2},
               {100, 70, 30, 3, 8, 24, 1, 3, 3}};
  cairn_point cells[MAX_BATCH];
  uint8_t costs[MAX_BATCH];
  int kinds_seen[B_KINDS] = {0};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int32_t cs = cases[c].cs;
    cairn_grid *g = tu_random_grid(&rng, cases[c].w, cases[c].h, cases[c].walls,
                                   cases[c].cost);
    size_t cells_n = (size_t)cases[c].w * (size_t)cases[c].h;
    uint8_t *shadow = malloc(cells_n);
    assert_non_null(shadow);
    for (int32_t y = 0; y < cases[c].h; y++)
      for (int32_t x = 0; x < cases[c].w; x++)
        shadow[(size_t)y * (size_t)cases[c].w + (size_t)x] = cairn_grid_cost(g, x, y);
    cairn_hpa *h = build_block(g, cs, cases[c].threads, cases[c].levels, cases[c].block);
    /* with three levels, how many compared answers the level-2 graph
     * planned (start and goal in different blocks, no plain A*) */
    int level2 = 0;
    for (int b = 0; b < cases[c].batches; b++) {
      int kind = b % B_KINDS;
      size_t n = make_batch(&rng, g, cs, kind, cases[c].cost, cells, costs);
      kinds_seen[kind] += n > 0;
      edit_checked(h, g, shadow, cells, costs, n);
      level2 += assert_matches_fresh(h, g, cs, &rng, 30);
    }
    /* cairn_grid_set_cost by the caller, then cairn_hpa_update */
    for (int b = 0; b < 8; b++) {
      int32_t rw = 1 + (int32_t)tu_below(&rng, 5), rh = 1 + (int32_t)tu_below(&rng, 5);
      cairn_rect r = {(int32_t)tu_below(&rng, (uint32_t)(cases[c].w - rw + 1)),
                      (int32_t)tu_below(&rng, (uint32_t)(cases[c].h - rh + 1)), rw, rh};
      for (int32_t y = r.y; y < r.y + r.h; y++)
        for (int32_t x = r.x; x < r.x + r.w; x++)
          assert_int_equal(cairn_grid_set_cost(g, x, y, random_cost(&rng, cases[c].cost)),
                           CAIRN_OK);
      assert_int_equal(cairn_hpa_update(h, g, r), CAIRN_OK);
      assert_true(cairn_grid_islands_fresh(g));
      level2 += assert_matches_fresh(h, g, cs, &rng, 30);
    }
    /* an empty batch changes nothing */
    assert_int_equal(cairn_hpa_edit(h, g, NULL, NULL, 0), CAIRN_OK);
    level2 += assert_matches_fresh(h, g, cs, &rng, 10);
    if (cases[c].levels == 3) {
      cairn_hpa_stats st;
      cairn_hpa_get_stats(h, &st);
      print_message("%dx%d cluster %d block %d (%u blocks): %d answers planned "
                    "on level 2\n", cases[c].w, cases[c].h, cs, st.block,
                    st.blocks, level2);
      assert_true(level2 >= 5 * (cases[c].batches + 8));
    } else {
      assert_int_equal(level2, 0);
    }
    free(shadow);
    cairn_hpa_destroy(h);
    cairn_grid_destroy(g);
  }
  for (int k = 0; k < B_KINDS; k++) assert_true(kinds_seen[k] > 0);
}

/* ---- which clusters an edit redoes ---------------------------------- */

/* Which clusters an edit redoes: the cell's own, plus the neighbour across
 * each cluster border the cell lies on. */
static void edit_rebuilds_nearby_clusters(void **state) {
  (void)state;
  uint64_t rng = 0xc1c1;
  const int32_t cs = 8;
  cairn_grid *g = tu_random_grid(&rng, 64, 64, 15, 3);
  cairn_hpa *h = build(g, cs, 0);
  cairn_hpa_stats s;
  cairn_hpa_get_stats(h, &s);
  assert_int_equal(s.clusters, 64u);
  assert_int_equal(s.rebuilt_clusters, 64u); /* the build did them all */
  const struct {
    int32_t x, y;
    uint32_t want;
  } cases[] = {
      {11, 12, 1}, {9, 9, 1},   {14, 13, 1}, /* inside cluster (1, 1) */
      {15, 12, 2}, {16, 12, 2}, {12, 15, 2}, {12, 16, 2}, /* on a border */
      {8, 12, 2},  {12, 8, 2},
      {15, 15, 4}, {16, 16, 4}, {15, 16, 4}, {16, 15, 4}, /* at a corner */
      {0, 12, 1},  {0, 0, 1},   {63, 63, 1}, {63, 20, 1}, /* the map's edge */
      {7, 0, 2},   {0, 7, 2},   {63, 56, 2}, {7, 7, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cairn_point p = pt(cases[i].x, cases[i].y);
    /* close it, then open it again at another cost: both are edits */
    uint8_t c1 = 0, c2 = (uint8_t)(1 + tu_below(&rng, 3));
    assert_int_equal(cairn_hpa_edit(h, g, &p, &c1, 1), CAIRN_OK);
    cairn_hpa_get_stats(h, &s);
    if (s.rebuilt_clusters != cases[i].want)
      fail_msg("edit at (%d,%d) redid %u clusters, want %u", p.x, p.y,
               s.rebuilt_clusters, cases[i].want);
    assert_true(s.update_ms >= 0);
    assert_matches_fresh(h, g, cs, &rng, 10);
    assert_int_equal(cairn_hpa_edit(h, g, &p, &c2, 1), CAIRN_OK);
    cairn_hpa_get_stats(h, &s);
    assert_int_equal(s.rebuilt_clusters, cases[i].want);
    assert_matches_fresh(h, g, cs, &rng, 10);
    /* the same through cairn_grid_set_cost and cairn_hpa_update */
    assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, 1), CAIRN_OK);
    cairn_rect r = {p.x, p.y, 1, 1};
    assert_int_equal(cairn_hpa_update(h, g, r), CAIRN_OK);
    cairn_hpa_get_stats(h, &s);
    assert_int_equal(s.rebuilt_clusters, cases[i].want);
    assert_matches_fresh(h, g, cs, &rng, 10);
  }
  /* two cells in one cluster: one cluster; a 3x3 block around a corner: 4 */
  cairn_point two[2] = {{10, 10}, {13, 13}};
  uint8_t two_c[2] = {0, 0};
  assert_int_equal(cairn_hpa_edit(h, g, two, two_c, 2), CAIRN_OK);
  cairn_hpa_get_stats(h, &s);
  assert_int_equal(s.rebuilt_clusters, 1u);
  assert_matches_fresh(h, g, cs, &rng, 10);
  cairn_rect block = {30, 30, 3, 3}; /* 30..32 spans the corner at 32 */
  assert_int_equal(cairn_grid_set_cost(g, 31, 31, 0), CAIRN_OK);
  assert_int_equal(cairn_hpa_update(h, g, block), CAIRN_OK);
  cairn_hpa_get_stats(h, &s);
  assert_int_equal(s.rebuilt_clusters, 4u);
  assert_matches_fresh(h, g, cs, &rng, 10);
  /* two cells far apart: one cluster each */
  cairn_point apart[2] = {{2, 2}, {60, 60}};
  uint8_t apart_c[2] = {2, 3};
  assert_int_equal(cairn_hpa_edit(h, g, apart, apart_c, 2), CAIRN_OK);
  cairn_hpa_get_stats(h, &s);
  assert_int_equal(s.rebuilt_clusters, 2u);
  assert_matches_fresh(h, g, cs, &rng, 10);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* A batch of cells far apart, whose later cells move border entrances:
 * every affected cluster is rebuilt before the graph is reassembled. (Before
 * commit bbb9068 such a batch was applied one cell at a time, each step
 * reassembling the graph from a grid whose other edits were not yet built
 * in: cairn_graph_create refused the edges and the edit returned
 * CAIRN_ERR_ARG with the hierarchy stale.) */
static void edit_far_apart_cells(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(96, 80, 1, NULL, &g), CAIRN_OK);
  cairn_hpa *h = build(g, 8, 0);
  cairn_point cells[2] = {{2, 2}, {79, 43}};
  uint8_t costs[2] = {0, 0};
  uint64_t rng = 0xfa7;
  assert_int_equal(cairn_hpa_edit(h, g, cells, costs, 2), CAIRN_OK);
  cairn_hpa_stats s;
  cairn_hpa_get_stats(h, &s);
  assert_int_equal(s.rebuilt_clusters, 3u); /* (0,0), and (9,5) with (10,5) */
  assert_matches_fresh(h, g, 8, &rng, 20);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
  /* random far-apart batches */
  g = tu_random_grid(&rng, 96, 80, 25, 3);
  h = build(g, 8, 0);
  cairn_point batch[MAX_BATCH];
  uint8_t batch_costs[MAX_BATCH];
  for (int b = 0; b < 30; b++) {
    size_t n = make_batch(&rng, g, 8, B_SCATTER, 3, batch, batch_costs);
    assert_int_equal(cairn_hpa_edit(h, g, batch, batch_costs, n), CAIRN_OK);
    assert_matches_fresh(h, g, 8, &rng, 20);
  }
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_edit_batches),
      cmocka_unit_test(edit_rebuilds_nearby_clusters),
      cmocka_unit_test(edit_far_apart_cells),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
