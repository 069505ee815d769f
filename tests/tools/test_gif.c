/* The renderer's GIF files, decoded again by a GIF decoder of the test's own
 * and checked pixel by pixel: three frames read back, LZW on noise and runs,
 * the palette mapping colours to the nearest entry, refused input. */
#define _POSIX_C_SOURCE 200809L /* getpid, access */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cairn_render.h"
#include "test_util.h"
#include "test_render_util.h"

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
      cmocka_unit_test(gif_three_frames_read_back),
      cmocka_unit_test(gif_lzw_noise_and_runs),
      cmocka_unit_test(gif_palette_maps_near),
      cmocka_unit_test(gif_refuses_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
