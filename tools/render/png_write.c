/* PNG output through libpng's simplified API (no setjmp to get right). */
#define _POSIX_C_SOURCE 200809L /* stat */
#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "cairn_render.h"

/* Removes a half-written file, but only a regular one: the path may name a
 * device (/dev/full) or a pipe, which must outlive a failed write. */
static void remove_partial(const char *path) {
  struct stat sb;
  if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) remove(path);
}

bool cairn_render_has_png(void) { return true; }

static void set_error(cairn_error *err, const char *path, const char *why) {
  if (!err) return;
  snprintf(err->message, sizeof err->message, "%s: %s", path, why);
  err->line = 0;
}

static int all_opaque(const uint8_t *px, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (px[i * 4 + 3] != 255) return 0;
  return 1;
}

/* The opaque image as packed RGB (libpng's RGB format wants 3 bytes a
 * pixel), or NULL when out of memory. */
static uint8_t *pack_rgb(const uint8_t *px, size_t n) {
  uint8_t *rgb = malloc(n * 3);
  if (!rgb) return NULL;
  for (size_t i = 0; i < n; i++) memcpy(rgb + i * 3, px + i * 4, 3);
  return rgb;
}

cairn_status cairn_image_write_png(const cairn_image *img, const char *path,
                                   cairn_error *err) {
  if (!img || !path) {
    set_error(err, path ? path : "(null)", "no image or no file name");
    return CAIRN_ERR_ARG;
  }
  size_t n = (size_t)cairn_image_width(img) * (size_t)cairn_image_height(img);
  const uint8_t *px = cairn_image_pixels_const(img);
  uint8_t *rgb = all_opaque(px, n) ? pack_rgb(px, n) : NULL;
  FILE *f = fopen(path, "wb");
  if (!f) {
    char why[200];
    snprintf(why, sizeof why, "cannot open for writing: %s", strerror(errno));
    set_error(err, path, why);
    free(rgb);
    return CAIRN_ERR_IO;
  }
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  pi.width = (png_uint_32)cairn_image_width(img);
  pi.height = (png_uint_32)cairn_image_height(img);
  pi.format = rgb ? PNG_FORMAT_RGB : PNG_FORMAT_RGBA;
  int ok = png_image_write_to_stdio(&pi, f, 0, rgb ? (const void *)rgb : (const void *)px,
                                    0, NULL);
  int flush_failed = fflush(f) != 0 || ferror(f);
  int saved = errno;
  int close_failed = fclose(f) != 0;
  free(rgb);
  if (ok && !flush_failed && !close_failed) return CAIRN_OK;
  char why[200];
  if (!ok) snprintf(why, sizeof why, "writing the PNG failed: %s", pi.message);
  else snprintf(why, sizeof why, "writing failed: %s", strerror(saved));
  png_image_free(&pi);
  set_error(err, path, why);
  remove_partial(path);
  return CAIRN_ERR_IO;
}
