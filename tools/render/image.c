/* The canvas: an RGBA image and its drawing primitives. */
#include <math.h>
#include <string.h>

#include "cairn_render.h"

struct cairn_image {
  int32_t width, height;
  uint8_t *px; /* width * height * 4 bytes, RGBA */
  cairn_allocator alloc;
};

cairn_status cairn_image_create(int32_t width, int32_t height, cairn_rgba fill,
                                const cairn_allocator *alloc,
                                cairn_image **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (width < 1 || height < 1) return CAIRN_ERR_ARG;
  if (width > CAIRN_IMAGE_MAX_SIDE || height > CAIRN_IMAGE_MAX_SIDE)
    return CAIRN_ERR_TOO_LARGE;
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_image *img = a.fn(a.user, NULL, 0, sizeof *img);
  if (!img) return CAIRN_ERR_NOMEM;
  size_t bytes = (size_t)width * (size_t)height * 4;
  img->px = a.fn(a.user, NULL, 0, bytes);
  if (!img->px) {
    a.fn(a.user, img, sizeof *img, 0);
    return CAIRN_ERR_NOMEM;
  }
  img->width = width;
  img->height = height;
  img->alloc = a;
  cairn_image_clear(img, fill);
  *out = img;
  return CAIRN_OK;
}

void cairn_image_destroy(cairn_image *img) {
  if (!img) return;
  cairn_allocator a = img->alloc;
  a.fn(a.user, img->px, (size_t)img->width * (size_t)img->height * 4, 0);
  a.fn(a.user, img, sizeof *img, 0);
}

int32_t cairn_image_width(const cairn_image *img) { return img ? img->width : 0; }
int32_t cairn_image_height(const cairn_image *img) { return img ? img->height : 0; }
uint8_t *cairn_image_pixels(cairn_image *img) { return img ? img->px : NULL; }
const uint8_t *cairn_image_pixels_const(const cairn_image *img) {
  return img ? img->px : NULL;
}

static int inside(const cairn_image *img, int32_t x, int32_t y) {
  return img && x >= 0 && y >= 0 && x < img->width && y < img->height;
}

cairn_rgba cairn_image_get(const cairn_image *img, int32_t x, int32_t y) {
  cairn_rgba c = {0, 0, 0, 0};
  if (!inside(img, x, y)) return c;
  const uint8_t *p = img->px + ((size_t)y * (size_t)img->width + (size_t)x) * 4;
  c.r = p[0];
  c.g = p[1];
  c.b = p[2];
  c.a = p[3];
  return c;
}

void cairn_image_set(cairn_image *img, int32_t x, int32_t y, cairn_rgba c) {
  if (!inside(img, x, y)) return;
  uint8_t *p = img->px + ((size_t)y * (size_t)img->width + (size_t)x) * 4;
  p[0] = c.r;
  p[1] = c.g;
  p[2] = c.b;
  p[3] = c.a;
}

/* Source over, in integers: out = src * a + dst * (1 - a), rounded. The
 * destination's alpha grows as a + dst_a * (1 - a). */
static void blend_px(uint8_t *p, cairn_rgba c) {
  if (c.a == 255) {
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
    p[3] = 255;
    return;
  }
  unsigned a = c.a, na = 255 - a;
  p[0] = (uint8_t)((c.r * a + p[0] * na + 127) / 255);
  p[1] = (uint8_t)((c.g * a + p[1] * na + 127) / 255);
  p[2] = (uint8_t)((c.b * a + p[2] * na + 127) / 255);
  p[3] = (uint8_t)(a + (p[3] * na + 127) / 255);
}

void cairn_image_blend(cairn_image *img, int32_t x, int32_t y, cairn_rgba c) {
  if (!inside(img, x, y) || c.a == 0) return;
  blend_px(img->px + ((size_t)y * (size_t)img->width + (size_t)x) * 4, c);
}

void cairn_image_clear(cairn_image *img, cairn_rgba c) {
  if (!img) return;
  size_t n = (size_t)img->width * (size_t)img->height;
  uint8_t q[4] = {c.r, c.g, c.b, c.a};
  for (size_t i = 0; i < n; i++) memcpy(img->px + i * 4, q, 4);
}

void cairn_image_copy(cairn_image *dst, int32_t x, int32_t y, const cairn_image *src) {
  if (!dst || !src) return;
  /* the columns and rows of src that land inside dst */
  int64_t x0 = x < 0 ? -(int64_t)x : 0, y0 = y < 0 ? -(int64_t)y : 0;
  int64_t x1 = src->width, y1 = src->height;
  if ((int64_t)x + x1 > dst->width) x1 = (int64_t)dst->width - x;
  if ((int64_t)y + y1 > dst->height) y1 = (int64_t)dst->height - y;
  if (x0 >= x1 || y0 >= y1) return;
  for (int64_t row = y0; row < y1; row++)
    memcpy(dst->px + ((size_t)(y + row) * (size_t)dst->width + (size_t)(x + x0)) * 4,
           src->px + ((size_t)row * (size_t)src->width + (size_t)x0) * 4,
           (size_t)(x1 - x0) * 4);
}

void cairn_draw_rect(cairn_image *img, cairn_rect r, cairn_rgba c) {
  if (!img || r.w <= 0 || r.h <= 0 || c.a == 0) return;
  int64_t x0 = r.x, y0 = r.y, x1 = (int64_t)r.x + r.w, y1 = (int64_t)r.y + r.h;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > img->width) x1 = img->width;
  if (y1 > img->height) y1 = img->height;
  for (int64_t y = y0; y < y1; y++) {
    uint8_t *row = img->px + (size_t)y * (size_t)img->width * 4;
    for (int64_t x = x0; x < x1; x++) blend_px(row + x * 4, c);
  }
}

void cairn_draw_frame(cairn_image *img, cairn_rect r, cairn_rgba c) {
  if (r.w <= 0 || r.h <= 0) return;
  cairn_draw_rect(img, (cairn_rect){r.x, r.y, r.w, 1}, c);
  if (r.h > 1) cairn_draw_rect(img, (cairn_rect){r.x, r.y + r.h - 1, r.w, 1}, c);
  if (r.h > 2) {
    cairn_draw_rect(img, (cairn_rect){r.x, r.y + 1, 1, r.h - 2}, c);
    if (r.w > 1) cairn_draw_rect(img, (cairn_rect){r.x + r.w - 1, r.y + 1, 1, r.h - 2}, c);
  }
}

/* A coordinate as a pixel index, clamped far outside the image so that
 * huge or non-finite values cannot overflow the integer loops. */
static int32_t to_px(const cairn_image *img, double v) {
  double lim = 4.0 * (img->width > img->height ? img->width : img->height) + 16;
  if (!(v > -lim)) return (int32_t)-lim;
  if (v > lim) return (int32_t)lim;
  return (int32_t)floor(v);
}

/* Bresenham between the pixels holding the two ends. */
static void thin_line(cairn_image *img, double fx0, double fy0, double fx1,
                      double fy1, cairn_rgba c) {
  int32_t x0 = to_px(img, fx0), y0 = to_px(img, fy0);
  int32_t x1 = to_px(img, fx1), y1 = to_px(img, fy1);
  int32_t dx = x1 > x0 ? x1 - x0 : x0 - x1, sx = x0 < x1 ? 1 : -1;
  int32_t dy = y1 > y0 ? y0 - y1 : y1 - y0, sy = y0 < y1 ? 1 : -1;
  int32_t e = dx + dy;
  for (;;) {
    cairn_image_blend(img, x0, y0, c);
    if (x0 == x1 && y0 == y1) break;
    int32_t e2 = 2 * e;
    if (e2 >= dy) {
      e += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      e += dx;
      y0 += sy;
    }
  }
}

/* Squared distance from (px, py) to the segment. */
static double seg_dist2(double px, double py, double x0, double y0, double x1,
                        double y1) {
  double vx = x1 - x0, vy = y1 - y0, wx = px - x0, wy = py - y0;
  double len2 = vx * vx + vy * vy, t = len2 > 0 ? (wx * vx + wy * vy) / len2 : 0;
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  double dx = wx - t * vx, dy = wy - t * vy;
  return dx * dx + dy * dy;
}

void cairn_draw_line(cairn_image *img, double x0, double y0, double x1,
                     double y1, double width, cairn_rgba c) {
  if (!img || c.a == 0) return;
  if (!(width > 1)) {
    thin_line(img, x0, y0, x1, y1, c);
    return;
  }
  double r = width / 2;
  int32_t bx0 = to_px(img, (x0 < x1 ? x0 : x1) - r), bx1 = to_px(img, (x0 > x1 ? x0 : x1) + r);
  int32_t by0 = to_px(img, (y0 < y1 ? y0 : y1) - r), by1 = to_px(img, (y0 > y1 ? y0 : y1) + r);
  if (bx0 < 0) bx0 = 0;
  if (by0 < 0) by0 = 0;
  if (bx1 >= img->width) bx1 = img->width - 1;
  if (by1 >= img->height) by1 = img->height - 1;
  for (int32_t y = by0; y <= by1; y++)
    for (int32_t x = bx0; x <= bx1; x++)
      if (seg_dist2(x + 0.5, y + 0.5, x0, y0, x1, y1) <= r * r)
        cairn_image_blend(img, x, y, c);
}

void cairn_draw_disc(cairn_image *img, double cx, double cy, double radius,
                     cairn_rgba c) {
  if (!img || c.a == 0) return;
  if (!(radius >= 0.5)) {
    cairn_image_blend(img, to_px(img, cx), to_px(img, cy), c);
    return;
  }
  int32_t x0 = to_px(img, cx - radius), x1 = to_px(img, cx + radius);
  int32_t y0 = to_px(img, cy - radius), y1 = to_px(img, cy + radius);
  for (int32_t y = y0 < 0 ? 0 : y0; y <= y1 && y < img->height; y++)
    for (int32_t x = x0 < 0 ? 0 : x0; x <= x1 && x < img->width; x++) {
      double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
      if (dx * dx + dy * dy <= radius * radius) cairn_image_blend(img, x, y, c);
    }
}

void cairn_draw_arrow(cairn_image *img, double x0, double y0, double x1,
                      double y1, double head, double width, cairn_rgba c) {
  cairn_draw_line(img, x0, y0, x1, y1, width, c);
  double dx = x0 - x1, dy = y0 - y1, len = sqrt(dx * dx + dy * dy);
  if (!(len > 0) || !(head > 0)) return;
  dx /= len;
  dy /= len;
  /* the barbs: the backwards direction turned by +-30 degrees */
  const double cs = 0.8660254037844386, sn = 0.5;
  for (int side = -1; side <= 1; side += 2) {
    double bx = dx * cs - side * dy * sn, by = side * dx * sn + dy * cs;
    cairn_draw_line(img, x1, y1, x1 + bx * head, y1 + by * head, width, c);
  }
}
