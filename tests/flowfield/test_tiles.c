/* Steering and sector tiles: sampled vectors never lead into a wall, the
 * line-of-sight flags are set exactly where a goal is in sight, tiles
 * followed from a routed start reach the goal at their value (within 25 % of
 * the optimum here), and a wall dropped on the path resets exactly the
 * sectors it touches and those upstream. */
#include "test_jobs.h"
#include "test_util.h"
#include "test_flow_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

/* Samples every cell of random maps at 16 points each: the vector is a
 * unit vector (0 on goals), and the segment of one cell's length along it,
 * walked in fine steps, enters no blocked cell and cuts no corner. */
static bool segment_ok(const cairn_grid *g, float x, float y, float vx,
                       float vy) {
  int32_t px = (int32_t)floorf(x), py = (int32_t)floorf(y);
  for (int k = 1; k <= 128; k++) {
    float t = (float)k / 128.0f;
    int32_t cx = (int32_t)floorf(x + t * vx), cy = (int32_t)floorf(y + t * vy);
    if (!cairn_grid_cost(g, cx, cy)) return false;
    if (cx != px && cy != py &&
        (!cairn_grid_cost(g, cx, py) || !cairn_grid_cost(g, px, cy)))
      return false;
    px = cx;
    py = cy;
  }
  return true;
}

static void steering_avoids_walls(void **state) {
  (void)state;
  uint64_t rng = 18;
  cairn_flow_builder *b = new_builder();
  size_t blended = 0, straight = 0;
  for (int trial = 0; trial < 6; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 40, 30, 15 + 5 * trial, trial % 2 ? 4 : 1);
    cairn_point goals[2];
    random_goals(&rng, g, goals, 2);
    cairn_field *f = new_field(g);
    assert_int_equal(cairn_field_build(b, f, g, goals, 2, NULL), CAIRN_OK);
    for (int32_t y = 0; y < 30; y++)
      for (int32_t x = 0; x < 40; x++)
        for (int k = 0; k < 16; k++) {
          float sx = (float)x + 0.05f + 0.3f * (float)(k & 3);
          float sy = (float)y + 0.05f + 0.3f * (float)(k >> 2);
          cairn_flow_sample smp;
          assert_int_equal(cairn_field_sample(f, sx, sy, &smp), CAIRN_OK);
          int d = cairn_field_dir(f, x, y);
          assert_int_equal(smp.dir, d);
          if (d >= 8) {
            assert_true(smp.vx == 0 && smp.vy == 0);
            continue;
          }
          float len = sqrtf(smp.vx * smp.vx + smp.vy * smp.vy);
          assert_true(fabsf(len - 1) < 1e-4f);
          if (!segment_ok(g, sx, sy, smp.vx, smp.vy))
            fail_msg("cell %d,%d point %.2f,%.2f: vector %.3f,%.3f hits a wall",
                     x, y, (double)sx, (double)sy, (double)smp.vx, (double)smp.vy);
          float mx = (float)cairn_flow_dir_dx(d), my = (float)cairn_flow_dir_dy(d);
          if (fabsf(smp.vx * my - smp.vy * mx) > 1e-3f) blended++;
          else straight++;
        }
    cairn_field_destroy(f);
    cairn_grid_destroy(g);
  }
  /* the vector is not merely the cell's move everywhere */
  assert_true(blended > 0 && straight > 0);
  cairn_flow_builder_destroy(b);
}

/* The line-of-sight flags: set exactly where a goal within the radius is in
 * sight, pointing at the first such goal in sorted order. */
static void line_of_sight_flags(void **state) {
  (void)state;
  uint64_t rng = 19;
  cairn_flow_builder *b = new_builder();
  for (int trial = 0; trial < 4; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 50, 40, 20, 1);
    cairn_point goals[3];
    random_goals(&rng, g, goals, 3);
    cairn_flow_opts o = cairn_flow_defaults();
    o.los_radius = 5 + 4 * trial;
    cairn_field *f = new_field(g);
    assert_int_equal(cairn_field_build(b, f, g, goals, 3, &o), CAIRN_OK);
    size_t ng;
    const cairn_point *sorted = cairn_field_goals(f, &ng);
    size_t flagged = 0;
    for (int32_t y = 0; y < 40; y++)
      for (int32_t x = 0; x < 50; x++) {
        cairn_point want = pt(-1, -1);
        if (cairn_field_dir(f, x, y) < 8)
          for (size_t k = 0; k < ng && want.x < 0; k++)
            if (abs(sorted[k].x - x) <= o.los_radius && abs(sorted[k].y - y) <= o.los_radius &&
                cairn_grid_line_of_sight(g, pt(x, y), sorted[k]))
              want = sorted[k];
        cairn_point got = pt(-1, -1);
        int los = cairn_field_los(f, x, y, &got);
        assert_int_equal(los, want.x >= 0);
        if (los) {
          flagged++;
          assert_int_equal(got.x, want.x);
          assert_int_equal(got.y, want.y);
        }
      }
    assert_true(flagged > 0);
    cairn_field_destroy(f);
    cairn_grid_destroy(g);
  }
  cairn_flow_builder_destroy(b);
}

/* Sector tiles: following them from a routed start reaches the goal along
 * a valid path whose cost is the tile value, at least the optimum and
 * within 25 % of it here; cells outside the routed sectors have none. */
static void sector_tiles(void **state) {
  (void)state;
  uint64_t rng = 20;
  cairn_point *buf = malloc(20000 * sizeof *buf);
  assert_non_null(buf);
  double worst = 1.0;
  for (int trial = 0; trial < 4; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 160, 120, 15 + 5 * trial, 1);
    cairn_hpa_opts ho = cairn_hpa_defaults();
    ho.threads = 1;
    cairn_hpa *hpa = NULL;
    assert_int_equal(cairn_hpa_create(g, &ho, NULL, &hpa), CAIRN_OK);
    cairn_hpa_query *q = NULL;
    assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
    cairn_point goal = tu_random_open(&rng, g);
    cairn_flow_tiles *t = NULL;
    assert_int_equal(cairn_flow_tiles_create(g, hpa, goal, 200, NULL, &t), CAIRN_OK);
    cairn_flow_builder *b = new_builder();
    cairn_field *full = new_field(g);
    assert_int_equal(cairn_field_build(b, full, g, &goal, 1, NULL), CAIRN_OK);
    for (int k = 0; k < 6; k++) {
      cairn_point s = tu_random_open(&rng, g);
      if (cairn_field_cost(full, s.x, s.y) == CAIRN_COST_INF) continue;
      assert_int_equal(cairn_flow_tiles_route(t, q, s), CAIRN_OK);
      int d;
      cairn_cost v;
      assert_int_equal(cairn_flow_tiles_dir(t, s.x, s.y, &d, &v), CAIRN_OK);
      assert_true(v != CAIRN_COST_INF);
      size_t n = 0;
      cairn_point p = s;
      buf[n++] = p;
      while (d < 8) {
        p.x += cairn_flow_dir_dx(d);
        p.y += cairn_flow_dir_dy(d);
        assert_true(n < 20000);
        buf[n++] = p;
        assert_int_equal(cairn_flow_tiles_dir(t, p.x, p.y, &d, NULL), CAIRN_OK);
      }
      assert_int_equal(d, CAIRN_FLOW_GOAL);
      cairn_path_check pc;
      cairn_grid_check_path(g, buf, n, s, goal, 8, &pc);
      assert_true(pc.valid);
      assert_true(tu_path_cost(g, buf, n, s, goal, 8) == v);
      cairn_cost opt = cairn_field_cost(full, s.x, s.y);
      assert_true(v >= opt);
      double ratio = opt ? (double)v / (double)opt : 1.0;
      if (ratio > worst) worst = ratio;
      assert_true(ratio <= 1.25);
    }
    cairn_flow_tiles_stats ts;
    cairn_flow_tiles_get_stats(t, &ts);
    assert_true(ts.built <= ts.routed && ts.built > 0);
    assert_int_equal(ts.sector, 16);
    /* a cell of an unrouted sector, if any */
    for (int32_t y = 0; y < 120; y += 16)
      for (int32_t x = 0; x < 160; x += 16) {
        int d;
        assert_int_equal(cairn_flow_tiles_dir(t, x, y, &d, NULL), CAIRN_OK);
      }
    cairn_flow_tiles_get_stats(t, &ts);
    assert_true(ts.built == ts.routed);
    assert_true(ts.routed < 70); /* 10 x 8 sectors in all */
    cairn_field_destroy(full);
    cairn_flow_builder_destroy(b);
    cairn_flow_tiles_destroy(t);
    cairn_hpa_query_destroy(q);
    cairn_hpa_destroy(hpa);
    cairn_grid_destroy(g);
  }
  print_message("sector tiles: worst cost / optimum %.4f\n", worst);
  free(buf);
}

/* Walks the tiles from s; returns the cells in buf (0 if s has no value),
 * checked legal on the grid as it is, with the tile value in *v. */
static size_t walk_tiles(cairn_flow_tiles *t, const cairn_grid *g,
                         cairn_point s, cairn_point goal, cairn_point *buf,
                         size_t cap, cairn_cost *v) {
  int d;
  assert_int_equal(cairn_flow_tiles_dir(t, s.x, s.y, &d, v), CAIRN_OK);
  if (d == CAIRN_FLOW_NONE) return 0;
  size_t n = 0;
  cairn_point p = s;
  buf[n++] = p;
  while (d < 8) {
    p.x += cairn_flow_dir_dx(d);
    p.y += cairn_flow_dir_dy(d);
    assert_true(n < cap);
    buf[n++] = p;
    assert_int_equal(cairn_flow_tiles_dir(t, p.x, p.y, &d, NULL), CAIRN_OK);
  }
  assert_int_equal(d, CAIRN_FLOW_GOAL);
  assert_true(tu_path_cost(g, buf, n, s, goal, 8) == *v);
  return n;
}

/* A wall dropped on the walked path: the sectors it touches and those
 * upstream of them are reset, the rest stay, and the next walk is legal on
 * the edited grid at exactly its tile value. */
static void tiles_after_edit(void **state) {
  (void)state;
  uint64_t rng = 21;
  cairn_point *buf = malloc(20000 * sizeof *buf);
  assert_non_null(buf);
  int walked_again = 0;
  for (int trial = 0; trial < 6; trial++) {
    cairn_grid *g = tu_random_grid(&rng, 160, 120, 15, 1);
    cairn_hpa *hpa = NULL;
    assert_int_equal(cairn_hpa_create(g, NULL, NULL, &hpa), CAIRN_OK);
    cairn_hpa_query *q = NULL;
    assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
    cairn_point goal = tu_random_open(&rng, g), s = tu_random_open(&rng, g);
    cairn_flow_tiles *t = NULL;
    assert_int_equal(cairn_flow_tiles_create(g, hpa, goal, 200, NULL, &t), CAIRN_OK);
    if (cairn_flow_tiles_route(t, q, s) != CAIRN_OK) goto next;
    cairn_cost v;
    size_t n = walk_tiles(t, g, s, goal, buf, 20000, &v);
    if (n < 8) goto next;
    cairn_flow_tiles_stats before, after;
    cairn_flow_tiles_get_stats(t, &before);
    assert_true(before.built == before.routed);
    cairn_point c = buf[n / 2];
    assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, 0), CAIRN_OK);
    cairn_rect r = {c.x, c.y, 1, 1};
    size_t reset = cairn_flow_tiles_invalidate(t, r);
    cairn_flow_tiles_get_stats(t, &after);
    assert_true(reset >= 1);
    assert_int_equal(after.built, before.built - reset);
    /* the start's sector is upstream of the wall's, so it was reset */
    n = walk_tiles(t, g, s, goal, buf, 20000, &v);
    for (size_t k = 0; k < n; k++) assert_false(buf[k].x == c.x && buf[k].y == c.y);
    walked_again += n > 0;
  next:
    cairn_flow_tiles_destroy(t);
    cairn_hpa_query_destroy(q);
    cairn_hpa_destroy(hpa);
    cairn_grid_destroy(g);
  }
  print_message("tiles_after_edit: %d of 6 walks found a way round the wall\n", walked_again);
  assert_true(walked_again > 0);
  free(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(steering_avoids_walls),
      cmocka_unit_test(line_of_sight_flags),
      cmocka_unit_test(sector_tiles),
      cmocka_unit_test(tiles_after_edit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
