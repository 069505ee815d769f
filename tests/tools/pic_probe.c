/* pic_probe: checks a picture the cairn tool wrote, for
 * tests/tools/cli_test.sh.
 *   pic_probe png FILE W H SCALE [X,Y=NAME ...]
 *     the PNG is W x H pixels and the centre pixel of each map cell X,Y
 *     (SCALE pixels a cell) has the renderer's colour NAME (X,Y=!NAME: any
 *     colour but NAME);
 *   pic_probe gif FILE W H FRAMES
 *     the GIF is W x H with FRAMES frames (its blocks walked here).
 * Prints each problem; exits 1 on any, 2 on bad arguments. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn_render.h"

static int colour_named(const char *name, cairn_rgba *out) {
  static const struct {
    const char *name;
    const cairn_rgba *c;
  } named[] = {{"wall", &cairn_colour_wall},         {"open", &cairn_colour_open},
               {"path", &cairn_colour_path},         {"smooth", &cairn_colour_smooth},
               {"start", &cairn_colour_start},       {"goal", &cairn_colour_goal},
               {"arrow", &cairn_colour_arrow},       {"entrance", &cairn_colour_entrance},
               {"unreachable", &cairn_colour_unreachable}};
  for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
    if (strcmp(name, named[k].name) == 0) {
      *out = *named[k].c;
      return 1;
    }
  return 0;
}

static int check_png(int argc, char **argv) {
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&pi, argv[2])) {
    printf("%s: %s\n", argv[2], pi.message);
    return 1;
  }
  pi.format = PNG_FORMAT_RGBA;
  uint8_t *px = malloc(PNG_IMAGE_SIZE(pi));
  if (!px || !png_image_finish_read(&pi, NULL, px, 0, NULL)) {
    printf("%s: cannot decode\n", argv[2]);
    return 1;
  }
  int bad = 0;
  long w = atol(argv[3]), h = atol(argv[4]), scale = atol(argv[5]);
  if ((long)pi.width != w || (long)pi.height != h) {
    printf("%s: %u x %u, want %ld x %ld\n", argv[2], pi.width, pi.height, w, h);
    bad = 1;
  }
  for (int k = 6; k < argc; k++) {
    long x, y;
    char name[32];
    cairn_rgba want;
    if (sscanf(argv[k], "%ld,%ld=%31s", &x, &y, name) != 3) name[0] = '\0';
    int negate = name[0] == '!';
    if (!colour_named(name + negate, &want)) {
      printf("bad check '%s'\n", argv[k]);
      free(px);
      return 2;
    }
    long px_x = x * scale + scale / 2, px_y = y * scale + scale / 2;
    if (px_x >= (long)pi.width || px_y >= (long)pi.height) {
      printf("cell %ld,%ld is outside the picture\n", x, y);
      bad = 1;
      continue;
    }
    const uint8_t *p = px + ((size_t)px_y * pi.width + (size_t)px_x) * 4;
    int same = p[0] == want.r && p[1] == want.g && p[2] == want.b;
    if (same == negate) {
      printf("cell %ld,%ld is %u,%u,%u, want %s %u,%u,%u\n", x, y, p[0], p[1], p[2], name,
             want.r, want.g, want.b);
      bad = 1;
    }
  }
  free(px);
  return bad;
}

/* Skips the data sub-blocks at *at; 0 when the file ends first. */
static int skip_blocks(const uint8_t *b, size_t n, size_t *at) {
  while (*at < n && b[*at]) *at += 1 + (size_t)b[*at];
  return (*at)++ < n;
}

static int check_gif(char **argv) {
  FILE *f = fopen(argv[2], "rb");
  if (!f) {
    printf("%s: cannot open\n", argv[2]);
    return 1;
  }
  static uint8_t b[1 << 26];
  size_t n = fread(b, 1, sizeof b, f), at = 13;
  fclose(f);
  if (n < 13 || memcmp(b, "GIF89a", 6) != 0) {
    printf("%s: not a GIF89a\n", argv[2]);
    return 1;
  }
  long w = b[6] | b[7] << 8, h = b[8] | b[9] << 8, frames = 0;
  if (b[10] & 0x80) at += 3u << ((b[10] & 7) + 1);
  while (at < n && b[at] != 0x3B) {
    if (b[at] == 0x21) {
      at += 2;
    } else if (b[at] == 0x2C) {
      at += 10 + 1; /* the descriptor, then the LZW code size */
      frames++;
    } else {
      printf("%s: unknown block 0x%02x at %zu\n", argv[2], b[at], at);
      return 1;
    }
    if (!skip_blocks(b, n, &at)) break;
  }
  if (at >= n) {
    printf("%s: no trailer\n", argv[2]);
    return 1;
  }
  if (w != atol(argv[3]) || h != atol(argv[4]) || frames != atol(argv[5])) {
    printf("%s: %ld x %ld, %ld frames; want %s x %s, %s frames\n", argv[2], w, h, frames,
           argv[3], argv[4], argv[5]);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 6 && strcmp(argv[1], "png") == 0) return check_png(argc, argv);
  if (argc == 6 && strcmp(argv[1], "gif") == 0) return check_gif(argv);
  fprintf(stderr, "usage: pic_probe png FILE W H SCALE [X,Y=NAME ...]\n"
                  "       pic_probe gif FILE W H FRAMES\n");
  return 2;
}
