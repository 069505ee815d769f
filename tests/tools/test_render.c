/* The renderer: the canvas primitives, the font, and the PNG (and GIF)
 * files it writes, decoded here independently (libpng's reader, and a GIF
 * decoder of the test's own) and checked pixel by pixel. */
#define _POSIX_C_SOURCE 200809L /* getpid, access */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cairn_render.h"
#include "test_util.h"

static const cairn_rgba white = {255, 255, 255, 255};
static const cairn_rgba black = {0, 0, 0, 255};
static const cairn_rgba red = {255, 0, 0, 255};

static void check_rgba(cairn_rgba got, cairn_rgba want, int line) {
  if (got.r != want.r || got.g != want.g || got.b != want.b || got.a != want.a)
    fail_msg("line %d: pixel %u,%u,%u,%u, want %u,%u,%u,%u", line, got.r, got.g,
             got.b, got.a, want.r, want.g, want.b, want.a);
}
#define assert_rgba(got, ...) check_rgba(got, __VA_ARGS__, __LINE__)

/* A decoded PNG: RGBA, w * h * 4 bytes (free with free). */
typedef struct decoded {
  uint32_t w, h;
  uint8_t *px;
} decoded;

static decoded read_png(const char *path) {
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&pi, path)) fail_msg("%s: %s", path, pi.message);
  pi.format = PNG_FORMAT_RGBA;
  decoded d = {pi.width, pi.height, malloc(PNG_IMAGE_SIZE(pi))};
  assert_non_null(d.px);
  if (!png_image_finish_read(&pi, NULL, d.px, 0, NULL)) fail_msg("%s: %s", path, pi.message);
  return d;
}

static cairn_rgba px_at(const decoded *d, uint32_t x, uint32_t y) {
  const uint8_t *p = d->px + ((size_t)y * d->w + x) * 4;
  return (cairn_rgba){p[0], p[1], p[2], p[3]};
}

/* A failed write may remove its half-written file, never a device. */
static void assert_dev_full_survives(void) {
  struct stat sb;
  assert_int_equal(stat("/dev/full", &sb), 0);
  assert_true(S_ISCHR(sb.st_mode));
}

static void tmp_path(char *buf, size_t cap, const char *name) {
  snprintf(buf, cap, "/tmp/cairn_test_render_%ld_%s", (long)getpid(), name);
}

static void create_refuses_bad_sizes(void **state) {
  (void)state;
  cairn_image *img = (cairn_image *)1;
  assert_int_equal(cairn_image_create(0, 5, white, NULL, &img), CAIRN_ERR_ARG);
  assert_null(img);
  assert_int_equal(cairn_image_create(5, -1, white, NULL, &img), CAIRN_ERR_ARG);
  assert_int_equal(cairn_image_create(CAIRN_IMAGE_MAX_SIDE + 1, 5, white, NULL, &img),
                   CAIRN_ERR_TOO_LARGE);
  assert_int_equal(cairn_image_create(5, 5, white, NULL, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_image_create(7, 3, red, NULL, &img), CAIRN_OK);
  assert_int_equal(cairn_image_width(img), 7);
  assert_int_equal(cairn_image_height(img), 3);
  assert_rgba(cairn_image_get(img, 6, 2), red);
  assert_rgba(cairn_image_get(img, 7, 0), (cairn_rgba){0, 0, 0, 0});
  cairn_image_set(img, -1, 0, black); /* clipped, no crash */
  cairn_image_destroy(img);
  cairn_image_destroy(NULL);
}

static void blend_is_source_over(void **state) {
  (void)state;
  cairn_image *img;
  assert_int_equal(cairn_image_create(2, 1, white, NULL, &img), CAIRN_OK);
  cairn_image_blend(img, 0, 0, (cairn_rgba){0, 0, 0, 128});
  cairn_rgba c = cairn_image_get(img, 0, 0);
  /* 255 * 127 / 255 = 127 */
  assert_int_equal(c.r, 127);
  assert_int_equal(c.a, 255);
  assert_rgba(cairn_image_get(img, 1, 0), white);
  cairn_image_destroy(img);
}

static void rect_line_disc(void **state) {
  (void)state;
  cairn_image *img;
  assert_int_equal(cairn_image_create(20, 20, white, NULL, &img), CAIRN_OK);
  cairn_draw_rect(img, (cairn_rect){-5, -5, 8, 7}, black); /* clipped */
  assert_rgba(cairn_image_get(img, 2, 1), black);
  assert_rgba(cairn_image_get(img, 3, 1), white);
  assert_rgba(cairn_image_get(img, 2, 2), white);
  /* a diagonal from pixel (5,5) to (15,15) touches every (k,k) */
  cairn_draw_line(img, 5.5, 5.5, 15.5, 15.5, 1, red);
  for (int k = 5; k <= 15; k++) assert_rgba(cairn_image_get(img, k, k), red);
  assert_rgba(cairn_image_get(img, 6, 5), white);
  cairn_image_clear(img, white);
  cairn_draw_disc(img, 10, 10, 3, black);
  assert_rgba(cairn_image_get(img, 10, 10), black);
  assert_rgba(cairn_image_get(img, 7, 9), black);   /* centre 7.5,9.5: 2.55 away */
  assert_rgba(cairn_image_get(img, 6, 10), white);  /* 3.5 away */
  assert_rgba(cairn_image_get(img, 12, 12), white); /* 2.5 * sqrt 2 = 3.54 */
  assert_rgba(cairn_image_get(img, 11, 11), black); /* 1.5 * sqrt 2 = 2.12 */
  cairn_image_destroy(img);
}

static void wide_line_and_arrow(void **state) {
  (void)state;
  cairn_image *img;
  assert_int_equal(cairn_image_create(30, 30, white, NULL, &img), CAIRN_OK);
  cairn_draw_line(img, 2, 10, 28, 10, 4, black);
  for (int y = 8; y < 12; y++) assert_rgba(cairn_image_get(img, 15, y), black);
  assert_rgba(cairn_image_get(img, 15, 7), white);
  assert_rgba(cairn_image_get(img, 15, 12), white);
  cairn_image_clear(img, white);
  /* an arrow pointing right: barbs go back and out from the head */
  cairn_draw_arrow(img, 5, 15.5, 25, 15.5, 6, 1, red);
  assert_rgba(cairn_image_get(img, 15, 15), red);
  int above = 0, below = 0;
  for (int y = 10; y < 15; y++) above += cairn_image_get(img, 21, y).g == 0;
  for (int y = 16; y < 21; y++) below += cairn_image_get(img, 21, y).g == 0;
  assert_true(above >= 1);
  assert_true(below >= 1);
  /* nothing ahead of the head */
  for (int y = 0; y < 30; y++) assert_rgba(cairn_image_get(img, 27, y), white);
  /* huge and non-finite coordinates are clipped, not a hang or a crash */
  cairn_draw_line(img, -1e300, 0, 1e300, 1e300, 1, black);
  cairn_draw_line(img, 0.0 / 0.0, 3, 5, 1.0 / 0.0, 3, black);
  cairn_draw_disc(img, 1e200, 1e200, 1e200, black);
  cairn_image_destroy(img);
}

/* The glyph of '1' is its middle column plus the foot and the flag. */
static void font_draws_known_glyphs(void **state) {
  (void)state;
  cairn_image *img;
  assert_int_equal(cairn_image_create(40, 20, white, NULL, &img), CAIRN_OK);
  int32_t w = cairn_draw_text(img, 0, 0, 1, "1L", black);
  assert_int_equal(w, 2 * CAIRN_FONT_W);
  for (int y = 0; y < 7; y++) assert_rgba(cairn_image_get(img, 2, y), black);
  assert_rgba(cairn_image_get(img, 1, 1), black); /* the flag */
  assert_rgba(cairn_image_get(img, 0, 0), white);
  assert_rgba(cairn_image_get(img, 3, 6), black); /* the foot, columns 1..3 */
  assert_rgba(cairn_image_get(img, 4, 6), white);
  assert_rgba(cairn_image_get(img, 3, 5), white);
  /* 'L': left column and the bottom row, from x = 6 */
  for (int y = 0; y < 7; y++) assert_rgba(cairn_image_get(img, 6, y), black);
  for (int x = 6; x < 11; x++) assert_rgba(cairn_image_get(img, x, 6), black);
  assert_rgba(cairn_image_get(img, 8, 3), white);
  /* scale 2 doubles every font pixel */
  cairn_image_clear(img, white);
  cairn_draw_text(img, 0, 0, 2, "l", black);
  assert_rgba(cairn_image_get(img, 1, 13), black);
  assert_rgba(cairn_image_get(img, 9, 13), black);
  assert_rgba(cairn_image_get(img, 4, 4), white);
  int32_t tw, th;
  cairn_text_size("ab\ncde", 3, &tw, &th);
  assert_int_equal(tw, 3 * 3 * CAIRN_FONT_W);
  assert_int_equal(th, 2 * 3 * CAIRN_FONT_H);
  assert_true(cairn_font_has('q'));
  assert_true(cairn_font_has('%'));
  assert_false(cairn_font_has('~'));
  cairn_image_destroy(img);
}

static void every_listed_glyph_is_drawn(void **state) {
  (void)state;
  const char *all = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.,:;-+=%/()[]_*#<>'\"!?|";
  for (const char *p = all; *p; p++) {
    assert_true(cairn_font_has(*p));
    cairn_image *img;
    assert_int_equal(cairn_image_create(6, 8, white, NULL, &img), CAIRN_OK);
    char one[2] = {*p, 0};
    cairn_draw_text(img, 0, 0, 1, one, black);
    int ink = 0;
    for (int y = 0; y < 8; y++)
      for (int x = 0; x < 6; x++) ink += cairn_image_get(img, x, y).r == 0;
    if (ink == 0) fail_msg("glyph '%c' draws nothing", *p);
    /* the spacing column and row stay clear */
    for (int y = 0; y < 8; y++) assert_rgba(cairn_image_get(img, 5, y), white);
    for (int x = 0; x < 6; x++) assert_rgba(cairn_image_get(img, x, 7), white);
    cairn_image_destroy(img);
  }
}

static void png_round_trip(void **state) {
  (void)state;
  char path[256];
  tmp_path(path, sizeof path, "rt.png");
  cairn_image *img;
  assert_int_equal(cairn_image_create(13, 9, white, NULL, &img), CAIRN_OK);
  cairn_image_set(img, 0, 0, red);
  cairn_image_set(img, 12, 8, (cairn_rgba){1, 2, 3, 255});
  cairn_error err;
  assert_int_equal(cairn_image_write_png(img, path, &err), CAIRN_OK);
  decoded d = read_png(path);
  assert_int_equal(d.w, 13);
  assert_int_equal(d.h, 9);
  assert_rgba(px_at(&d, 0, 0), red);
  assert_rgba(px_at(&d, 12, 8), (cairn_rgba){1, 2, 3, 255});
  assert_rgba(px_at(&d, 5, 5), white);
  free(d.px);
  /* translucent pixels keep their alpha */
  cairn_image_set(img, 3, 3, (cairn_rgba){10, 20, 30, 40});
  assert_int_equal(cairn_image_write_png(img, path, &err), CAIRN_OK);
  d = read_png(path);
  assert_rgba(px_at(&d, 3, 3), (cairn_rgba){10, 20, 30, 40});
  free(d.px);
  remove(path);
  cairn_image_destroy(img);
}

static void png_unwritable_path_is_an_error(void **state) {
  (void)state;
  cairn_image *img;
  assert_int_equal(cairn_image_create(4, 4, white, NULL, &img), CAIRN_OK);
  cairn_error err;
  const char *bad = "/nonexistent-dir-cairn/x.png";
  assert_int_equal(cairn_image_write_png(img, bad, &err), CAIRN_ERR_IO);
  assert_non_null(strstr(err.message, bad));
  assert_non_null(strstr(err.message, "cannot open for writing"));
  assert_int_equal(cairn_image_write_png(img, NULL, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_image_write_png(NULL, "x.png", NULL), CAIRN_ERR_ARG);
  /* a full device: the error is reported and nothing half-written stays */
  if (access("/dev/full", W_OK) == 0) {
    assert_int_equal(cairn_image_write_png(img, "/dev/full", &err), CAIRN_ERR_IO);
    assert_dev_full_survives();
  }
  cairn_image_destroy(img);
}

/* An allocator that fails after `left` calls. */
static void *failing_alloc(void *user, void *ptr, size_t old, size_t size) {
  (void)old;
  int *left = user;
  if (size == 0) {
    free(ptr);
    return NULL;
  }
  if ((*left)-- <= 0) return NULL;
  return realloc(ptr, size);
}

static void create_survives_failing_allocator(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    int left = k;
    cairn_allocator a = {failing_alloc, &left};
    cairn_image *img = NULL;
    assert_int_equal(cairn_image_create(8, 8, white, &a, &img), CAIRN_ERR_NOMEM);
    assert_null(img);
  }
  int left = 2;
  cairn_allocator a = {failing_alloc, &left};
  cairn_image *img = NULL;
  assert_int_equal(cairn_image_create(8, 8, white, &a, &img), CAIRN_OK);
  cairn_image_destroy(img);
}

/* ---- views and layers ------------------------------------------------ */

/* c blended over base, through the canvas's own blend (tested above). */
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

static void map_paints_terrain_and_walls(void **state) {
  (void)state;
  cairn_grid *g = tu_grid(room, 6);
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
  cairn_grid_destroy(g);
}

static void path_marker_and_expanded_nodes(void **state) {
  (void)state;
  cairn_grid *g = tu_grid(room, 6);
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
  cairn_grid_destroy(g);
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
  (void)state;
  cairn_grid *g = tu_grid(room, 6);
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
  cairn_grid_destroy(g);
}

static void agents_are_dots_by_state(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(20, 10, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c;
  cairn_crowd_opts co = cairn_crowd_defaults();
  assert_int_equal(cairn_crowd_create(g, &co, NULL, &c), CAIRN_OK);
  cairn_agent a[3];
  cairn_agent_params p = {2.5f, 2.5f, 0.4f, 1.0f, 0};
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

/* ---- GIF ------------------------------------------------------------- */

/* A GIF read back by the test's own decoder: the canvas (palette indices)
 * after each of up to 8 frames, and each frame's rectangle and delay. */
#define GIF_TEST_FRAMES 8
typedef struct gif_read {
  int w, h, frames, loops;
  uint8_t palette[256 * 3];
  uint8_t *canvas[GIF_TEST_FRAMES];
  cairn_rect rect[GIF_TEST_FRAMES];
  int delay[GIF_TEST_FRAMES];
} gif_read;

typedef struct bytes {
  const uint8_t *p;
  size_t n, at;
} bytes;

static int get8(bytes *b) {
  if (b->at >= b->n) fail_msg("the GIF ends early (byte %zu)", b->at);
  return b->p[b->at++];
}
static int get16(bytes *b) {
  int lo = get8(b);
  return lo | get8(b) << 8;
}

/* The data sub-blocks at b, concatenated (*len bytes, malloc'd). */
static uint8_t *sub_blocks(bytes *b, size_t *len) {
  uint8_t *d = malloc(b->n);
  assert_non_null(d);
  *len = 0;
  for (int n = get8(b); n; n = get8(b))
    for (int k = 0; k < n; k++) d[(*len)++] = (uint8_t)get8(b);
  return d;
}

/* GIF LZW, written from the format's description: codes of min_size + 1
 * bits and up, least significant bit first, a clear and an end code, the
 * width growing when the table reaches a power of two (at most 12 bits).
 * It must yield exactly n indices. */
static void lzw_decode(const uint8_t *d, size_t len, int min_size, uint8_t *out, size_t n) {
  static uint16_t prefix[4096];
  static uint8_t suffix[4096], stack[4097];
  int clear = 1 << min_size, eoi = clear + 1, width = min_size + 1, next = eoi + 1;
  int prev = -1;
  size_t bit = 0, o = 0;
  for (;;) {
    if (bit + (size_t)width > len * 8) fail_msg("LZW data ends without an end code");
    int code = 0;
    for (int k = 0; k < width; k++, bit++) code |= (d[bit >> 3] >> (bit & 7) & 1) << k;
    if (code == clear) {
      width = min_size + 1;
      next = eoi + 1;
      prev = -1;
      continue;
    }
    if (code == eoi) break;
    if (prev < 0) {
      if (code >= clear) fail_msg("first code %d after a clear", code);
      if (o >= n) fail_msg("more pixels than the frame holds");
      out[o++] = (uint8_t)code;
      prev = code;
      continue;
    }
    if (code > next) fail_msg("code %d past the table (%d)", code, next);
    int c = code == next ? prev : code, sp = 0;
    while (c > eoi) {
      stack[sp++] = suffix[c];
      c = prefix[c];
    }
    int first = c;
    stack[sp++] = (uint8_t)c;
    if (o + (size_t)sp + (code == next) > n) fail_msg("more pixels than the frame holds");
    while (sp) out[o++] = stack[--sp];
    if (code == next) out[o++] = (uint8_t)first;
    if (next < 4096) {
      prefix[next] = (uint16_t)prev;
      suffix[next] = (uint8_t)first;
      next++;
      if (next == 1 << width && width < 12) width++;
    }
    prev = code;
  }
  if (o != n) fail_msg("%zu pixels decoded, the frame has %zu", o, n);
}

static void read_frame(bytes *b, gif_read *g, int delay) {
  int f = g->frames;
  if (f >= GIF_TEST_FRAMES) fail_msg("more frames than the test keeps");
  cairn_rect r;
  r.x = get16(b);
  r.y = get16(b);
  r.w = get16(b);
  r.h = get16(b);
  assert_int_equal(get8(b), 0); /* no local table, not interlaced */
  if (r.x + r.w > g->w || r.y + r.h > g->h || r.w < 1 || r.h < 1)
    fail_msg("frame %d's rectangle is outside the image", f);
  int min_size = get8(b);
  size_t len, n = (size_t)r.w * (size_t)r.h;
  uint8_t *d = sub_blocks(b, &len), *px = malloc(n);
  assert_non_null(px);
  lzw_decode(d, len, min_size, px, n);
  size_t bytes_n = (size_t)g->w * (size_t)g->h;
  g->canvas[f] = malloc(bytes_n);
  assert_non_null(g->canvas[f]);
  if (f) memcpy(g->canvas[f], g->canvas[f - 1], bytes_n);
  else memset(g->canvas[f], 0, bytes_n);
  for (int32_t y = 0; y < r.h; y++)
    memcpy(g->canvas[f] + (size_t)(r.y + y) * (size_t)g->w + (size_t)r.x,
           px + (size_t)y * (size_t)r.w, (size_t)r.w);
  g->rect[f] = r;
  g->delay[f] = delay;
  g->frames++;
  free(d);
  free(px);
}

static gif_read read_gif(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("%s: cannot open", path);
  static uint8_t buf[1 << 22];
  bytes b = {buf, fread(buf, 1, sizeof buf, f), 0};
  fclose(f);
  gif_read g;
  memset(&g, 0, sizeof g);
  g.loops = -1;
  if (b.n < 13 || memcmp(buf, "GIF89a", 6) != 0) fail_msg("%s: not a GIF89a", path);
  b.at = 6;
  g.w = get16(&b);
  g.h = get16(&b);
  int flags = get8(&b);
  get16(&b); /* background, aspect */
  if (!(flags & 0x80)) fail_msg("no global colour table");
  int colours = 2 << (flags & 7);
  assert_int_equal(colours, 256);
  for (int k = 0; k < colours * 3; k++) g.palette[k] = (uint8_t)get8(&b);
  int delay = 0;
  for (;;) {
    int kind = get8(&b);
    if (kind == 0x3B) break;
    if (kind == 0x2C) {
      read_frame(&b, &g, delay);
      continue;
    }
    if (kind != 0x21) fail_msg("unknown block 0x%02x at %zu", kind, b.at - 1);
    int label = get8(&b);
    size_t len;
    uint8_t *d = sub_blocks(&b, &len);
    if (label == 0xF9 && len == 4) delay = d[1] | d[2] << 8;
    if (label == 0xFF && len >= 14 && memcmp(d, "NETSCAPE2.0", 11) == 0) g.loops = d[12] | d[13] << 8;
    free(d);
  }
  if (b.at != b.n) fail_msg("%zu bytes after the trailer", b.n - b.at);
  return g;
}

static void gif_free(gif_read *g) {
  for (int k = 0; k < g->frames; k++) free(g->canvas[k]);
}

/* Every pixel of frame k of g holds the palette index of img's pixel. */
static void check_frame(const gif_read *g, int k, const cairn_image *img) {
  for (int32_t y = 0; y < g->h; y++)
    for (int32_t x = 0; x < g->w; x++) {
      uint8_t want = cairn_gif_index(cairn_image_get(img, x, y));
      uint8_t got = g->canvas[k][(size_t)y * (size_t)g->w + (size_t)x];
      if (got != want) fail_msg("frame %d pixel %d,%d: index %u, want %u", k, x, y, got, want);
    }
}

static void gif_three_frames_read_back(void **state) {
  (void)state;
  char path[256];
  tmp_path(path, sizeof path, "three.gif");
  cairn_gif *gif;
  cairn_error err;
  assert_int_equal(cairn_gif_open(path, 40, 30, 7, NULL, &gif, &err), CAIRN_OK);
  cairn_image *img[3];
  assert_int_equal(cairn_image_create(40, 30, white, NULL, &img[0]), CAIRN_OK);
  cairn_draw_rect(img[0], (cairn_rect){5, 5, 10, 8}, red);
  assert_int_equal(cairn_image_create(40, 30, white, NULL, &img[1]), CAIRN_OK);
  memcpy(cairn_image_pixels(img[1]), cairn_image_pixels(img[0]), 40 * 30 * 4);
  cairn_image_set(img[1], 30, 20, black);
  cairn_image_set(img[1], 33, 22, (cairn_rgba){0, 0, 255, 255});
  assert_int_equal(cairn_image_create(40, 30, white, NULL, &img[2]), CAIRN_OK);
  memcpy(cairn_image_pixels(img[2]), cairn_image_pixels(img[1]), 40 * 30 * 4);
  for (int k = 0; k < 3; k++) assert_int_equal(cairn_gif_add(gif, img[k], &err), CAIRN_OK);
  assert_int_equal(cairn_gif_frames(gif), 3);
  assert_int_equal(cairn_gif_close(gif, &err), CAIRN_OK);
  gif_read g = read_gif(path);
  assert_int_equal(g.w, 40);
  assert_int_equal(g.h, 30);
  assert_int_equal(g.frames, 3);
  assert_int_equal(g.loops, 0); /* forever */
  for (int k = 0; k < 3; k++) {
    assert_int_equal(g.delay[k], 7);
    check_frame(&g, k, img[k]);
  }
  /* the palette colours of known pixels: red, white, black exactly */
  uint8_t ri = g.canvas[0][6 * 40 + 6], wi = g.canvas[0][0], bi = g.canvas[1][20 * 40 + 30];
  assert_memory_equal(g.palette + ri * 3, "\xff\x00\x00", 3);
  assert_memory_equal(g.palette + wi * 3, "\xff\xff\xff", 3);
  assert_memory_equal(g.palette + bi * 3, "\x00\x00\x00", 3);
  /* only what changed is stored: the two new pixels' box, then one pixel */
  assert_true(g.rect[0].w == 40 && g.rect[0].h == 30);
  assert_true(g.rect[1].x == 30 && g.rect[1].y == 20 && g.rect[1].w == 4 && g.rect[1].h == 3);
  assert_true(g.rect[2].w == 1 && g.rect[2].h == 1);
  gif_free(&g);
  for (int k = 0; k < 3; k++) cairn_image_destroy(img[k]);
  remove(path);
}

/* Noise fills the LZW table many times over (clear codes); a flat frame
 * makes the long runs whose code is the one being defined. */
static void gif_lzw_noise_and_runs(void **state) {
  (void)state;
  char path[256];
  tmp_path(path, sizeof path, "noise.gif");
  cairn_gif *gif;
  cairn_error err;
  assert_int_equal(cairn_gif_open(path, 300, 200, 1, NULL, &gif, &err), CAIRN_OK);
  cairn_image *noise, *flat, *few;
  assert_int_equal(cairn_image_create(300, 200, white, NULL, &noise), CAIRN_OK);
  assert_int_equal(cairn_image_create(300, 200, (cairn_rgba){0, 51, 102, 255}, NULL, &flat),
                   CAIRN_OK);
  assert_int_equal(cairn_image_create(300, 200, white, NULL, &few), CAIRN_OK);
  uint64_t rng = 7;
  for (int32_t y = 0; y < 200; y++)
    for (int32_t x = 0; x < 300; x++) {
      uint64_t r = tu_rand(&rng);
      cairn_image_set(noise, x, y, cairn_gif_colour((uint8_t)r));
      /* two colours: table entries grow slowly through every code width */
      cairn_image_set(few, x, y, (r >> 20) % 5 ? white : black);
    }
  assert_int_equal(cairn_gif_add(gif, noise, &err), CAIRN_OK);
  assert_int_equal(cairn_gif_add(gif, flat, &err), CAIRN_OK);
  assert_int_equal(cairn_gif_add(gif, few, &err), CAIRN_OK);
  assert_int_equal(cairn_gif_close(gif, &err), CAIRN_OK);
  gif_read g = read_gif(path);
  assert_int_equal(g.frames, 3);
  check_frame(&g, 0, noise);
  check_frame(&g, 1, flat);
  check_frame(&g, 2, few);
  gif_free(&g);
  cairn_image_destroy(noise);
  cairn_image_destroy(flat);
  cairn_image_destroy(few);
  remove(path);
}

static void gif_palette_maps_near(void **state) {
  (void)state;
  /* the palette's own colours map to themselves */
  for (int i = 0; i < 256; i++) {
    cairn_rgba c = cairn_gif_colour((uint8_t)i);
    assert_int_equal(cairn_gif_index(cairn_gif_colour(cairn_gif_index(c))), cairn_gif_index(c));
    cairn_rgba back = cairn_gif_colour(cairn_gif_index(c));
    assert_rgba(back, c);
  }
  /* any colour lands no farther than its nearest colour of the cube (each
   * channel rounded to a multiple of 51), itself within 25 a channel */
  uint64_t rng = 3;
  for (int k = 0; k < 2000; k++) {
    uint64_t r = tu_rand(&rng);
    int ch[3] = {(uint8_t)r, (uint8_t)(r >> 8), (uint8_t)(r >> 16)};
    cairn_rgba c = {(uint8_t)ch[0], (uint8_t)ch[1], (uint8_t)ch[2], 255};
    cairn_rgba m = cairn_gif_colour(cairn_gif_index(c));
    int got = (m.r - c.r) * (m.r - c.r) + (m.g - c.g) * (m.g - c.g) + (m.b - c.b) * (m.b - c.b);
    int cube = 0;
    for (int j = 0; j < 3; j++) {
      int q = (ch[j] * 2 + 51) / 102 * 51 - ch[j];
      cube += q * q;
    }
    if (got > cube) fail_msg("%d,%d,%d maps %d away, the cube has one %d away", c.r, c.g, c.b,
                             got, cube);
  }
}

static void gif_refuses_bad_input(void **state) {
  (void)state;
  cairn_gif *gif = (cairn_gif *)1;
  cairn_error err;
  const char *bad = "/nonexistent-dir-cairn/x.gif";
  assert_int_equal(cairn_gif_open(bad, 10, 10, 5, NULL, &gif, &err), CAIRN_ERR_IO);
  assert_null(gif);
  assert_non_null(strstr(err.message, bad));
  char path[256];
  tmp_path(path, sizeof path, "bad.gif");
  assert_int_equal(cairn_gif_open(path, 0, 10, 5, NULL, &gif, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_gif_open(path, 10, 10, 0, NULL, &gif, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_gif_open(NULL, 10, 10, 5, NULL, &gif, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_gif_open(path, 10, 10, 5, NULL, &gif, &err), CAIRN_OK);
  cairn_image *img;
  assert_int_equal(cairn_image_create(11, 10, white, NULL, &img), CAIRN_OK);
  assert_int_equal(cairn_gif_add(gif, img, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_gif_frames(gif), 0);
  assert_int_equal(cairn_gif_close(gif, &err), CAIRN_OK);
  assert_int_equal(cairn_gif_close(NULL, &err), CAIRN_OK);
  /* a full device: the error is reported at the latest on close */
  if (access("/dev/full", W_OK) == 0) {
    assert_int_equal(cairn_gif_open("/dev/full", 11, 10, 5, NULL, &gif, &err), CAIRN_OK);
    cairn_status st = cairn_gif_add(gif, img, &err);
    cairn_status cl = cairn_gif_close(gif, &err);
    assert_true(st == CAIRN_ERR_IO || cl == CAIRN_ERR_IO);
    assert_dev_full_survives();
  }
  cairn_image_destroy(img);
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(create_refuses_bad_sizes),
      cmocka_unit_test(blend_is_source_over),
      cmocka_unit_test(rect_line_disc),
      cmocka_unit_test(wide_line_and_arrow),
      cmocka_unit_test(font_draws_known_glyphs),
      cmocka_unit_test(every_listed_glyph_is_drawn),
      cmocka_unit_test(png_round_trip),
      cmocka_unit_test(png_unwritable_path_is_an_error),
      cmocka_unit_test(create_survives_failing_allocator),
      cmocka_unit_test(view_fits_scales_and_shrinks),
      cmocka_unit_test(map_paints_terrain_and_walls),
      cmocka_unit_test(path_marker_and_expanded_nodes),
      cmocka_unit_test(hierarchy_lines_and_entrances),
      cmocka_unit_test(field_arrows_and_heat),
      cmocka_unit_test(penalty_overlay),
      cmocka_unit_test(agents_are_dots_by_state),
      cmocka_unit_test(legend_swatches),
      cmocka_unit_test(gif_three_frames_read_back),
      cmocka_unit_test(gif_lzw_noise_and_runs),
      cmocka_unit_test(gif_palette_maps_near),
      cmocka_unit_test(gif_refuses_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
