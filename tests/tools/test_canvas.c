/* The renderer's canvas: refused sizes, source-over blending, rectangles,
 * lines and discs, wide lines and arrows, the font (known glyphs, every
 * listed glyph drawn), PNG files written and decoded again independently
 * (libpng's reader) and checked pixel by pixel, unwritable paths, a failing
 * allocator. */
#define _POSIX_C_SOURCE 200809L /* getpid, access */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cairn_render.h"
#include "test_util.h"
#include "test_render_util.h"

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
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
