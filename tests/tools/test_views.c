/* The renderer's views and layers: a view fits, scales and shrinks a map;
 * terrain and walls, a path with its expanded nodes, the hierarchy's cluster
 * lines and entrances, a field's arrows and heat, a penalty overlay, agents
 * as dots by state, the legend's swatches, each checked pixel by pixel. */
#define _POSIX_C_SOURCE 200809L /* getpid in test_render_util.h */
#include "cairn_render.h"
#include "test_util.h"
#include "test_render_util.h"

/* ---- views and layers ------------------------------------------------ */

/* c blended over base, through the canvas's own blend (test_canvas.c
 * tests it). */
static cairn_rgba over(cairn_rgba base, cairn_rgba c) {
  cairn_image *img;
  assert_int_equal(cairn_image_create(1, 1, base, NULL, &img), CAIRN_OK);
  cairn_image_blend(img, 0, 0, c);
  cairn_rgba out = cairn_image_get(img, 0, 0);
  cairn_image_destroy(img);
  return out;
}

/* The pixel at the centre of cell (x, y). */
static cairn_rgba cell_px(const cairn_image *img, const cairn_view *v, int32_t x, int32_t y) {
  cairn_rect r = cairn_view_cell_rect(v, x, y);
  return cairn_image_get(img, r.x + r.w / 2, r.y + r.h / 2);
}

static void view_fits_scales_and_shrinks(void **state) {
  (void)state;
  cairn_view v = cairn_view_fit(32, 20, 0);
  assert_int_equal(v.scale, CAIRN_VIEW_MAX_SCALE); /* capped: 1024 / 32 = 32 */
  assert_int_equal(v.shrink, 1);
  v = cairn_view_fit(100, 50, 0);
  assert_int_equal(v.scale, 10);
  int32_t w, h;
  cairn_view_size(&v, &w, &h);
  assert_int_equal(w, 1000);
  assert_int_equal(h, 500);
  cairn_rect r = cairn_view_cell_rect(&v, 3, 4);
  assert_int_equal(r.x, 30);
  assert_int_equal(r.y, 40);
  assert_int_equal(r.w, 10);
  double px, py;
  cairn_view_to_px(&v, 2.5, 1.0, &px, &py);
  assert_true(px == 25.0 && py == 10.0);
  v = cairn_view_fit(1024, 1024, 0); /* the largest map drawn 1:1 */
  assert_int_equal(v.scale, 1);
  assert_int_equal(v.shrink, 1);
  v = cairn_view_fit(3000, 1000, 1024);
  assert_int_equal(v.shrink, 3);
  cairn_view_size(&v, &w, &h);
  assert_int_equal(w, 1000);
  assert_int_equal(h, 334);
  r = cairn_view_cell_rect(&v, 2999, 5);
  assert_int_equal(r.x, 999);
  assert_int_equal(r.y, 1);
  v = cairn_view_fit(0, -3, 0); /* sides below 1 count as 1 */
  assert_int_equal(v.map_w, 1);
  assert_int_equal(v.scale, CAIRN_VIEW_MAX_SCALE);
}

static const char *const room[] = {
    "..........",
    ".####.....",
    ".#..#.....",
    ".#..#..5..",
    ".####.....",
    "..........",
};

/* The group's fixture: the room, parsed once; the tests only read it. */
static int room_setup(void **state) {
  *state = tu_grid(room, 6);
  return 0;
}

static int room_teardown(void **state) {
  cairn_grid_destroy(*state);
  return 0;
}

static void map_paints_terrain_and_walls(void **state) {
  const cairn_grid *g = *state; /* the room */
  cairn_view v = cairn_view_fit(10, 6, 100); /* 10 pixels a cell */
  cairn_image *img;
  assert_int_equal(cairn_render_map(g, &v, NULL, &img), CAIRN_OK);
  assert_int_equal(cairn_image_width(img), 100);
  assert_int_equal(cairn_image_height(img), 60);
  assert_rgba(cell_px(img, &v, 1, 1), cairn_colour_wall);
  assert_rgba(cell_px(img, &v, 0, 0), cairn_colour_open);
  assert_rgba(cell_px(img, &v, 7, 3), cairn_terrain_colour(5));
  /* the whole cell, to its last pixel, and not one pixel more */
  assert_rgba(cairn_image_get(img, 19, 19), cairn_colour_wall);
  assert_rgba(cairn_image_get(img, 9, 19), cairn_colour_open);
  /* dearer terrain is darker than cheap, and never a wall's colour */
  cairn_rgba c5 = cairn_terrain_colour(5), c200 = cairn_terrain_colour(200);
  assert_true(c200.g < c5.g);
  cairn_image_destroy(img);
  /* shrunk 2:1, a pixel is the mean of its 4 cells: cells (4,2) (5,2)
   * (4,3) (5,3) hold two walls */
  v = cairn_view_fit(10, 6, 5);
  assert_int_equal(v.shrink, 2);
  assert_int_equal(cairn_render_map(g, &v, NULL, &img), CAIRN_OK);
  assert_int_equal(cairn_image_width(img), 5);
  cairn_rgba m = cairn_image_get(img, 2, 1);
  assert_int_equal(m.r, (2 * cairn_colour_wall.r + 2 * cairn_colour_open.r) / 4);
  assert_rgba(cairn_image_get(img, 4, 2), cairn_colour_open); /* cells 8..9, 4..5 */
  cairn_image_destroy(img);
}

static void path_marker_and_expanded_nodes(void **state) {
  const cairn_grid *g = *state; /* the room */
  cairn_view v = cairn_view_fit(10, 6, 160); /* 16 pixels a cell */
  cairn_search *s;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_result r;
  cairn_point from = {0, 5}, to = {9, 0};
  assert_int_equal(cairn_astar(s, g, from, to, NULL, &r), CAIRN_OK);
  cairn_image *img;
  assert_int_equal(cairn_render_map(g, &v, NULL, &img), CAIRN_OK);
  size_t closed = 0, open = 0;
  assert_int_equal(cairn_render_expanded(img, &v, g, s, &closed, &open), CAIRN_OK);
  assert_true(closed > 0);
  /* every closed cell shows its g on the heat ramp, over the terrain */
  cairn_cost max_g = 0;
  for (int32_t y = 0; y < 6; y++)
    for (int32_t x = 0; x < 10; x++) {
      cairn_node_info ni;
      assert_int_equal(cairn_search_cell(s, (cairn_point){x, y}, &ni), CAIRN_OK);
      if (ni.state == CAIRN_NODE_CLOSED && ni.g > max_g) max_g = ni.g;
    }
  size_t seen_closed = 0, seen_open = 0;
  for (int32_t y = 0; y < 6; y++)
    for (int32_t x = 0; x < 10; x++) {
      cairn_node_info ni;
      cairn_search_cell(s, (cairn_point){x, y}, &ni);
      cairn_rgba base = cairn_terrain_colour(cairn_grid_cost(g, x, y)), want = base;
      if (ni.state == CAIRN_NODE_CLOSED) {
        want = cairn_heat_colour((double)ni.g / (double)max_g);
        want.a = 170;
        want = over(base, want);
        seen_closed++;
      } else if (ni.state == CAIRN_NODE_OPEN) {
        want = cairn_colour_open_set;
        want.a = 170;
        want = over(base, want);
        seen_open++;
      }
      assert_rgba(cell_px(img, &v, x, y), want);
    }
  assert_int_equal(seen_closed, closed);
  assert_int_equal(seen_open, open);
  /* the path on top: every cell's centre; then the markers */
  cairn_render_path(img, &v, r.path, r.path_len, 0, cairn_colour_path);
  for (size_t i = 0; i < r.path_len; i++)
    assert_rgba(cell_px(img, &v, r.path[i].x, r.path[i].y), cairn_colour_path);
  cairn_render_marker(img, &v, to, cairn_colour_goal);
  assert_rgba(cell_px(img, &v, to.x, to.y), cairn_colour_goal);
  /* the rim: dark just outside the disc's radius (7.2 pixels) */
  cairn_rect gr = cairn_view_cell_rect(&v, to.x, to.y);
  cairn_rgba rim = cairn_image_get(img, gr.x + 8, gr.y + 8 - 8);
  assert_true(rim.r < 60 && rim.g < 60);
  cairn_image_destroy(img);
  /* a search on another grid size is refused */
  cairn_grid *other = NULL;
  assert_int_equal(cairn_grid_create(5, 5, 1, NULL, &other), CAIRN_OK);
  cairn_view vo = cairn_view_fit(5, 5, 80);
  assert_int_equal(cairn_render_map(other, &vo, NULL, &img), CAIRN_OK);
  assert_int_equal(cairn_render_expanded(img, &vo, other, s, NULL, NULL), CAIRN_ERR_STATE);
  cairn_image_destroy(img);
  cairn_grid_destroy(other);
  cairn_search_destroy(s);
}

static void hierarchy_lines_and_entrances(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(32, 16, 1, NULL, &g), CAIRN_OK);
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = 8;
  cairn_hpa *h;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_OK);
  cairn_view v = cairn_view_fit(32, 16, 320); /* 10 pixels a cell */
  cairn_image *img;
  assert_int_equal(cairn_render_map(g, &v, NULL, &img), CAIRN_OK);
  cairn_render_hpa(img, &v, h);
  /* a cluster border at cell x = 8 and y = 8: one pixel line, tinted */
  cairn_rgba line = over(cairn_colour_open, cairn_colour_cluster);
  assert_rgba(cairn_image_get(img, 80, 3), line);
  assert_rgba(cairn_image_get(img, 3, 80), line);
  assert_rgba(cairn_image_get(img, 81, 3), cairn_colour_open);
  assert_rgba(cairn_image_get(img, 79, 3), cairn_colour_open);
  /* every entrance is a dot on its cell's centre */
  cairn_hpa_stats st;
  cairn_hpa_get_stats(h, &st);
  assert_true(st.nodes > 0);
  for (uint32_t k = 0; k < st.nodes; k++) {
    cairn_point p;
    assert_int_equal(cairn_hpa_node(h, k, &p), CAIRN_OK);
    assert_rgba(cell_px(img, &v, p.x, p.y), cairn_colour_entrance);
  }
  cairn_image_destroy(img);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* A walled pocket (cells 1..2 x 1..2) the field cannot reach. */
static const char *const pocket[] = {
    "####......",
    "#..#......",
    "#..#......",
    "####......",
    "..........",
    "..........",
};

static cairn_field *pocket_field(const cairn_grid *g, cairn_point goal) {
  cairn_flow_builder *b;
  cairn_field *f;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, NULL), CAIRN_OK);
  cairn_flow_builder_destroy(b);
  return f;
}

static void field_arrows_and_heat(void **state) {
  (void)state;
  cairn_grid *g = tu_grid(pocket, 6);
  cairn_point goal = {9, 5};
  cairn_field *f = pocket_field(g, goal);
  cairn_view v = cairn_view_fit(10, 6, 160); /* 16 pixels a cell: an arrow a cell */
  cairn_image *img;
  assert_int_equal(cairn_render_map(g, &v, NULL, &img), CAIRN_OK);
  cairn_render_field_arrows(img, &v, g, f, 0);
  cairn_rgba tint = cairn_colour_unreachable;
  tint.a = 140;
  assert_rgba(cell_px(img, &v, 1, 1), over(cairn_colour_open, tint));
  assert_rgba(cell_px(img, &v, 0, 0), cairn_colour_wall); /* walls are not tinted */
  assert_rgba(cell_px(img, &v, goal.x, goal.y), cairn_colour_goal);
  /* cell (5,5) flows east to the goal: the shaft crosses its centre and
   * runs along its row, not up or down it */
  cairn_rect r = cairn_view_cell_rect(&v, 5, 5);
  assert_int_equal(cairn_field_dir(f, 5, 5), 0);
  assert_rgba(cell_px(img, &v, 5, 5), cairn_colour_arrow);
  assert_rgba(cairn_image_get(img, r.x + 3, r.y + 8), cairn_colour_arrow);
  assert_rgba(cairn_image_get(img, r.x + 8, r.y + 1), cairn_colour_open);
  cairn_image_destroy(img);
  /* heat: the goal end dark, the far end the ramp's top, the pocket marked */
  assert_int_equal(cairn_render_map(g, &v, NULL, &img), CAIRN_OK);
  cairn_render_field_heat(img, &v, g, f);
  cairn_field_stats st;
  cairn_field_get_stats(f, &st);
  assert_rgba(cell_px(img, &v, 1, 1), cairn_colour_unreachable);
  cairn_point far = {-1, -1};
  for (int32_t y = 0; y < 6; y++)
    for (int32_t x = 0; x < 10; x++)
      if (cairn_field_cost(f, x, y) == st.max_cost) far = (cairn_point){x, y};
  assert_true(far.x >= 0);
  assert_rgba(cell_px(img, &v, far.x, far.y), cairn_heat_colour(1));
  assert_rgba(cell_px(img, &v, 8, 5), cairn_heat_colour((double)cairn_field_cost(f, 8, 5) /
                                                        (double)st.max_cost));
  cairn_cost c = cairn_field_cost(f, 6, 4);
  assert_rgba(cell_px(img, &v, 6, 4), cairn_heat_colour((double)c / (double)st.max_cost));
  assert_rgba(cell_px(img, &v, 0, 3), cairn_colour_wall);
  cairn_image_destroy(img);
  cairn_field_destroy(f);
  cairn_grid_destroy(g);
}

static void penalty_overlay(void **state) {
  const cairn_grid *g = *state; /* the room */
  cairn_penalty *p;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  assert_int_equal(cairn_penalty_add(p, 6, 0, 64 * (int64_t)CAIRN_COST_ONE), CAIRN_OK);
  assert_int_equal(cairn_penalty_add(p, 7, 0, CAIRN_COST_ONE / 4), CAIRN_OK);
  assert_int_equal(cairn_penalty_block(p, 8, 0, 1), CAIRN_OK);
  cairn_view v = cairn_view_fit(10, 6, 100);
  cairn_image *img;
  assert_int_equal(cairn_render_map(g, &v, NULL, &img), CAIRN_OK);
  cairn_render_penalty(img, &v, p);
  cairn_rgba strong = cell_px(img, &v, 6, 0), weak = cell_px(img, &v, 7, 0);
  /* both redder than open ground, the bigger penalty more so */
  assert_true(strong.g < weak.g && weak.g < cairn_colour_open.g);
  assert_rgba(strong, over(cairn_colour_open, (cairn_rgba){220, 30, 20, 200}));
  assert_rgba(cell_px(img, &v, 8, 0), over(cairn_colour_open, (cairn_rgba){80, 0, 110, 220}));
  assert_rgba(cell_px(img, &v, 5, 0), cairn_colour_open);
  cairn_image_destroy(img);
  cairn_penalty_destroy(p);
}

static void agents_are_dots_by_state(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(20, 10, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c;
  cairn_crowd_opts co = cairn_crowd_defaults();
  assert_int_equal(cairn_crowd_create(g, &co, NULL, &c), CAIRN_OK);
  cairn_agent a[3];
  cairn_agent_params p = {2.5f, 2.5f, 0.4f, 1.0f, 0, 0};
  assert_int_equal(cairn_crowd_add(c, &p, &a[0]), CAIRN_OK);
  p.x = 10.5f;
  assert_int_equal(cairn_crowd_add(c, &p, &a[1]), CAIRN_OK);
  p.x = 15.5f;
  p.y = 7.5f;
  assert_int_equal(cairn_crowd_add(c, &p, &a[2]), CAIRN_OK);
  /* one stays idle, one follows a field (moving after a tick); the third
   * is removed and must not be drawn */
  cairn_point goal = {18, 2};
  assert_int_equal(cairn_crowd_order_field(c, &a[1], 1, &goal, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  assert_int_equal(cairn_crowd_remove(c, a[2]), CAIRN_OK);
  cairn_view v = cairn_view_fit(20, 10, 200); /* 10 pixels a cell */
  cairn_image *img;
  assert_int_equal(cairn_render_map(g, &v, NULL, &img), CAIRN_OK);
  assert_int_equal(cairn_render_agents(img, &v, c, a, 3), 2);
  cairn_agent_state seen[2];
  for (int k = 0; k < 2; k++) {
    cairn_agent_info ai;
    assert_int_equal(cairn_crowd_get(c, a[k], &ai), CAIRN_OK);
    seen[k] = ai.state;
    double x, y;
    cairn_view_to_px(&v, ai.x, ai.y, &x, &y);
    assert_rgba(cairn_image_get(img, (int32_t)x, (int32_t)y), cairn_agent_colour(ai.state));
    /* a disc of its radius (4 pixels), not more */
    assert_rgba(cairn_image_get(img, (int32_t)x + 6, (int32_t)y), cairn_colour_open);
  }
  assert_int_equal(seen[0], CAIRN_AGENT_IDLE);
  assert_int_equal(seen[1], CAIRN_AGENT_MOVING);
  assert_false(cairn_agent_colour(CAIRN_AGENT_IDLE).g == cairn_agent_colour(CAIRN_AGENT_MOVING).g &&
               cairn_agent_colour(CAIRN_AGENT_IDLE).r == cairn_agent_colour(CAIRN_AGENT_MOVING).r);
  /* the removed agent's cell is bare ground */
  assert_rgba(cell_px(img, &v, 15, 7), cairn_colour_open);
  cairn_image_destroy(img);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static void legend_swatches(void **state) {
  (void)state;
  cairn_image *img;
  assert_int_equal(cairn_image_create(200, 100, black, NULL, &img), CAIRN_OK);
  cairn_legend_entry e[2] = {{red, "path"}, {cairn_colour_goal, "goal"}};
  cairn_render_legend(img, e, 2, 1);
  /* the box from (4,4), the first swatch 3 pixels in, a row per entry */
  assert_rgba(cairn_image_get(img, 8, 8), red);
  assert_rgba(cairn_image_get(img, 8, 8 + CAIRN_FONT_H + 2), cairn_colour_goal);
  assert_rgba(cairn_image_get(img, 150, 50), black); /* beyond the box */
  cairn_image_destroy(img);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(view_fits_scales_and_shrinks),
      cmocka_unit_test(map_paints_terrain_and_walls),
      cmocka_unit_test(path_marker_and_expanded_nodes),
      cmocka_unit_test(hierarchy_lines_and_entrances),
      cmocka_unit_test(field_arrows_and_heat),
      cmocka_unit_test(penalty_overlay),
      cmocka_unit_test(agents_are_dots_by_state),
      cmocka_unit_test(legend_swatches),
  };
  return cmocka_run_group_tests(tests, room_setup, room_teardown);
}
