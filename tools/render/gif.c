/* An animated GIF writer: a fixed palette, changed rectangles only, and
 * the GIF variant of LZW (variable code width from 9 to 12 bits, a clear
 * code when the table is full). */
#define _POSIX_C_SOURCE 200809L /* stat */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sys/stat.h>

#include "cairn_render.h"

/* Removes a half-written file, but only a regular one: the path may name a
 * device (/dev/full) or a pipe, which must outlive a failed write. */
static void remove_partial(const char *path) {
  struct stat sb;
  if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) remove(path);
}

#define GIF_CLEAR 256
#define GIF_EOI 257
#define GIF_MAX_CODE 4096
#define GIF_HASH 8192 /* open addressing, power of two above 4096 */

struct cairn_gif {
  FILE *f;
  char *path;
  int32_t w, h;
  int delay;
  uint32_t frames;
  int failed;
  uint8_t *prev, *cur; /* palette indices of the last and this frame */
  /* LZW: the table maps (prefix code, byte) to a code */
  int32_t keys[GIF_HASH];
  uint16_t codes[GIF_HASH];
  /* bit packing into sub-blocks of at most 255 bytes */
  uint32_t bits, nbits;
  uint8_t block[255];
  int block_len;
  cairn_allocator alloc;
};

static const uint8_t cube[6] = {0, 51, 102, 153, 204, 255};

cairn_rgba cairn_gif_colour(uint8_t i) {
  if (i < 216) return (cairn_rgba){cube[i / 36], cube[i / 6 % 6], cube[i % 6], 255};
  uint8_t v = (uint8_t)((i - 216) * 255 / 39);
  return (cairn_rgba){v, v, v, 255};
}

static uint32_t dist2(cairn_rgba a, cairn_rgba b) {
  int dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
  return (uint32_t)(dr * dr + dg * dg + db * db);
}

uint8_t cairn_gif_index(cairn_rgba c) {
  uint8_t ci = (uint8_t)((c.r + 25) / 51 * 36 + (c.g + 25) / 51 * 6 + (c.b + 25) / 51);
  unsigned grey = ((unsigned)c.r + c.g + c.b + 1) / 3;
  uint8_t gi = (uint8_t)(216 + (grey * 39 + 127) / 255);
  return dist2(c, cairn_gif_colour(gi)) < dist2(c, cairn_gif_colour(ci)) ? gi : ci;
}

static void set_error(cairn_error *err, const char *path, const char *why) {
  if (!err) return;
  snprintf(err->message, sizeof err->message, "%s: %s", path, why);
  err->line = 0;
}

static void put16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v & 0xff);
  p[1] = (uint8_t)(v >> 8);
}

static void emit(cairn_gif *g, const void *p, size_t n) {
  if (!g->failed && fwrite(p, 1, n, g->f) != n) g->failed = 1;
}

static void write_header(cairn_gif *g) {
  uint8_t h[13] = {'G', 'I', 'F', '8', '9', 'a'};
  put16(h + 6, (uint32_t)g->w);
  put16(h + 8, (uint32_t)g->h);
  h[10] = 0xF7; /* a global table of 2^8 colours, 8 bits a primary */
  emit(g, h, sizeof h);
  for (int i = 0; i < 256; i++) {
    cairn_rgba c = cairn_gif_colour((uint8_t)i);
    uint8_t rgb[3] = {c.r, c.g, c.b};
    emit(g, rgb, 3);
  }
  static const uint8_t loop[19] = {0x21, 0xFF, 0x0B, 'N', 'E', 'T', 'S', 'C', 'A', 'P',
                                   'E',  '2',  '.',  '0', 3,   1,   0,   0,   0};
  emit(g, loop, sizeof loop);
}

static void free_gif(cairn_gif *g) {
  cairn_allocator a = g->alloc;
  size_t n = (size_t)g->w * (size_t)g->h;
  a.fn(a.user, g->prev, n, 0);
  a.fn(a.user, g->cur, n, 0);
  a.fn(a.user, g->path, strlen(g->path) + 1, 0);
  a.fn(a.user, g, sizeof *g, 0);
}

cairn_status cairn_gif_open(const char *path, int32_t width, int32_t height,
                            int delay_cs, const cairn_allocator *alloc,
                            cairn_gif **out, cairn_error *err) {
  if (!out || !path || width < 1 || height < 1 || width > 65535 || height > 65535 ||
      delay_cs < 1 || delay_cs > 65535) {
    set_error(err, path ? path : "(null)", "bad GIF size, delay or argument");
    if (out) *out = NULL;
    return CAIRN_ERR_ARG;
  }
  *out = NULL;
  cairn_allocator a = cairn_allocator_or_default(alloc);
  size_t n = (size_t)width * (size_t)height, len = strlen(path) + 1;
  cairn_gif *g = a.fn(a.user, NULL, 0, sizeof *g);
  if (!g) return CAIRN_ERR_NOMEM;
  memset(g, 0, sizeof *g);
  g->alloc = a;
  g->w = width;
  g->h = height;
  g->delay = delay_cs;
  g->prev = a.fn(a.user, NULL, 0, n);
  g->cur = a.fn(a.user, NULL, 0, n);
  g->path = a.fn(a.user, NULL, 0, len);
  if (!g->prev || !g->cur || !g->path) {
    a.fn(a.user, g->prev, n, 0);
    a.fn(a.user, g->cur, n, 0);
    a.fn(a.user, g->path, len, 0);
    a.fn(a.user, g, sizeof *g, 0);
    return CAIRN_ERR_NOMEM;
  }
  memcpy(g->path, path, len);
  g->f = fopen(path, "wb");
  if (!g->f) {
    char why[200];
    snprintf(why, sizeof why, "cannot open for writing: %s", strerror(errno));
    set_error(err, path, why);
    free_gif(g);
    return CAIRN_ERR_IO;
  }
  write_header(g);
  *out = g;
  return CAIRN_OK;
}

uint32_t cairn_gif_frames(const cairn_gif *gif) { return gif ? gif->frames : 0; }

/* ---- LZW ------------------------------------------------------------- */

static void flush_block(cairn_gif *g) {
  if (g->block_len == 0) return;
  uint8_t n = (uint8_t)g->block_len;
  emit(g, &n, 1);
  emit(g, g->block, (size_t)g->block_len);
  g->block_len = 0;
}

static void put_code(cairn_gif *g, uint32_t code, uint32_t width) {
  g->bits |= code << g->nbits;
  g->nbits += width;
  while (g->nbits >= 8) {
    g->block[g->block_len++] = (uint8_t)(g->bits & 0xff);
    g->bits >>= 8;
    g->nbits -= 8;
    if (g->block_len == 255) flush_block(g);
  }
}

static void reset_table(cairn_gif *g) {
  for (int i = 0; i < GIF_HASH; i++) g->keys[i] = -1;
}

/* Finds (prefix, byte) in the table: its slot, holding the key or -1. */
static uint32_t slot_of(const cairn_gif *g, int32_t key) {
  uint32_t h = ((uint32_t)key * 2654435761u) >> 19 & (GIF_HASH - 1);
  while (g->keys[h] != -1 && g->keys[h] != key) h = (h + 1) & (GIF_HASH - 1);
  return h;
}

/* The indices of rectangle r of g->cur, as LZW code stream sub-blocks. */
static void lzw_rect(cairn_gif *g, cairn_rect r) {
  uint8_t min_size = 8;
  emit(g, &min_size, 1);
  g->bits = g->nbits = 0;
  g->block_len = 0;
  uint32_t width = 9, next = GIF_EOI + 1;
  reset_table(g);
  put_code(g, GIF_CLEAR, width);
  int32_t prefix = -1;
  for (int32_t y = r.y; y < r.y + r.h; y++)
    for (int32_t x = r.x; x < r.x + r.w; x++) {
      uint8_t b = g->cur[(size_t)y * (size_t)g->w + (size_t)x];
      if (prefix < 0) {
        prefix = b;
        continue;
      }
      int32_t key = prefix << 8 | b;
      uint32_t s = slot_of(g, key);
      if (g->keys[s] == key) {
        prefix = g->codes[s];
        continue;
      }
      put_code(g, (uint32_t)prefix, width);
      if (next < GIF_MAX_CODE) {
        g->keys[s] = key;
        g->codes[s] = (uint16_t)next++;
        /* the decoder widens once its table reaches 2^width */
        if (next > (1u << width) && width < 12) width++;
      } else {
        put_code(g, GIF_CLEAR, width);
        reset_table(g);
        width = 9;
        next = GIF_EOI + 1;
      }
      prefix = b;
    }
  put_code(g, (uint32_t)prefix, width);
  /* the decoder adds an entry for that last code too, and widens if it
   * fills the width: the end code must follow it */
  if (next == (1u << width) && width < 12) width++;
  put_code(g, GIF_EOI, width);
  if (g->nbits) put_code(g, 0, 8 - g->nbits);
  flush_block(g);
  uint8_t end = 0;
  emit(g, &end, 1);
}

/* ---- frames ---------------------------------------------------------- */

/* The bounding box of the indices that differ from the previous frame;
 * the whole frame first; one pixel when nothing changed (a frame must
 * store something to keep its delay). */
static cairn_rect changed_rect(const cairn_gif *g) {
  if (g->frames == 0) return (cairn_rect){0, 0, g->w, g->h};
  int32_t x0 = g->w, y0 = g->h, x1 = -1, y1 = -1;
  for (int32_t y = 0; y < g->h; y++) {
    const uint8_t *a = g->cur + (size_t)y * (size_t)g->w;
    const uint8_t *b = g->prev + (size_t)y * (size_t)g->w;
    if (memcmp(a, b, (size_t)g->w) == 0) continue;
    if (y < y0) y0 = y;
    y1 = y;
    int32_t l = 0, r = g->w - 1;
    while (a[l] == b[l]) l++;
    while (a[r] == b[r]) r--;
    if (l < x0) x0 = l;
    if (r > x1) x1 = r;
  }
  if (y1 < 0) return (cairn_rect){0, 0, 1, 1};
  return (cairn_rect){x0, y0, x1 - x0 + 1, y1 - y0 + 1};
}

cairn_status cairn_gif_add(cairn_gif *g, const cairn_image *frame,
                           cairn_error *err) {
  if (!g || !frame || cairn_image_width(frame) != g->w ||
      cairn_image_height(frame) != g->h) {
    set_error(err, g ? g->path : "(null)", "frame of the wrong size");
    return CAIRN_ERR_ARG;
  }
  if (g->failed) {
    set_error(err, g->path, "an earlier write failed");
    return CAIRN_ERR_IO;
  }
  const uint8_t *px = cairn_image_pixels_const(frame);
  size_t n = (size_t)g->w * (size_t)g->h;
  for (size_t i = 0; i < n; i++)
    g->cur[i] = cairn_gif_index((cairn_rgba){px[i * 4], px[i * 4 + 1], px[i * 4 + 2], 255});
  cairn_rect r = changed_rect(g);
  uint8_t gce[8] = {0x21, 0xF9, 4, 0x04 /* keep the frame under the next */};
  put16(gce + 4, (uint32_t)g->delay);
  emit(g, gce, sizeof gce);
  uint8_t desc[10] = {0x2C};
  put16(desc + 1, (uint32_t)r.x);
  put16(desc + 3, (uint32_t)r.y);
  put16(desc + 5, (uint32_t)r.w);
  put16(desc + 7, (uint32_t)r.h);
  emit(g, desc, sizeof desc);
  lzw_rect(g, r);
  uint8_t *t = g->prev;
  g->prev = g->cur;
  g->cur = t;
  g->frames++;
  if (g->failed) {
    char why[200];
    snprintf(why, sizeof why, "writing failed: %s", strerror(errno));
    set_error(err, g->path, why);
    return CAIRN_ERR_IO;
  }
  return CAIRN_OK;
}

cairn_status cairn_gif_close(cairn_gif *g, cairn_error *err) {
  if (!g) return CAIRN_OK;
  uint8_t trailer = 0x3B;
  emit(g, &trailer, 1);
  if (fflush(g->f) != 0 || ferror(g->f)) g->failed = 1;
  int saved = errno;
  if (fclose(g->f) != 0) g->failed = 1;
  cairn_status st = CAIRN_OK;
  if (g->failed) {
    char why[200];
    snprintf(why, sizeof why, "writing failed: %s", strerror(saved));
    set_error(err, g->path, why);
    remove_partial(g->path);
    st = CAIRN_ERR_IO;
  }
  free_gif(g);
  return st;
}
