/*
 * cairn_render.h - pictures of what cairn computes: an RGBA canvas with a
 * few drawing primitives and a built-in 5 x 7 font, PNG and GIF writers, and
 * layers that draw a map, paths, searches, hierarchies, flow fields, crowds
 * and cost layers onto it.
 *
 * This is a tool library: the algorithms never call it. It reads the
 * modules only through their public headers (cairn_core.h and the others),
 * and only the CLI (and tests) link it.
 *
 * Coordinates: pixel (0,0) is the top-left corner, x grows right, y down;
 * a pixel's centre is at (x + 0.5, y + 0.5). Everything drawn is clipped to
 * the image, so no coordinate is an error.
 *
 * Colours: straight (not premultiplied) RGBA, 8 bits a channel. Drawing
 * blends the colour over what is there ("source over"); alpha 255 paints.
 *
 * Ownership and threads: an image is created with cairn_image_create and
 * released with cairn_image_destroy; nothing here keeps global state, so
 * different images may be drawn from different threads at once.
 *
 * Errors: the writers return a cairn_status and, when err is not NULL, a
 * message naming the file ("PATH: cannot open for writing: ..."). A NULL
 * or unwritable path is an error, never a crash.
 */
#ifndef CAIRN_RENDER_H
#define CAIRN_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "cairn_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cairn_rgba {
  uint8_t r, g, b, a;
} cairn_rgba;

/* Largest side of an image, in pixels (the largest map drawn 1:1 fits). */
#define CAIRN_IMAGE_MAX_SIDE 16384

/* ---- the canvas ----------------------------------------------------- */

typedef struct cairn_image cairn_image;

/* A width x height image with every pixel set to fill. CAIRN_ERR_ARG for a
 * side below 1 or a NULL out, CAIRN_ERR_TOO_LARGE above
 * CAIRN_IMAGE_MAX_SIDE, CAIRN_ERR_NOMEM. alloc NULL means malloc. */
cairn_status cairn_image_create(int32_t width, int32_t height, cairn_rgba fill,
                                const cairn_allocator *alloc,
                                cairn_image **out);
void cairn_image_destroy(cairn_image *img);

int32_t cairn_image_width(const cairn_image *img);
int32_t cairn_image_height(const cairn_image *img);
/* The pixels, row by row, 4 bytes (R, G, B, A) each, width * 4 bytes a
 * row; valid until the image is destroyed. */
uint8_t *cairn_image_pixels(cairn_image *img);
const uint8_t *cairn_image_pixels_const(const cairn_image *img);

/* A pixel's colour; {0,0,0,0} outside the image. */
cairn_rgba cairn_image_get(const cairn_image *img, int32_t x, int32_t y);
/* Sets a pixel exactly (no blending); nothing outside the image. */
void cairn_image_set(cairn_image *img, int32_t x, int32_t y, cairn_rgba c);
/* Blends c over one pixel. */
void cairn_image_blend(cairn_image *img, int32_t x, int32_t y, cairn_rgba c);
/* Every pixel back to c (exactly). */
void cairn_image_clear(cairn_image *img, cairn_rgba c);

/* ---- drawing -------------------------------------------------------- */

/* Blends c over the pixels of r (clipped; w or h <= 0 draws nothing). */
void cairn_draw_rect(cairn_image *img, cairn_rect r, cairn_rgba c);
/* The outline of r, one pixel wide, inside r. */
void cairn_draw_frame(cairn_image *img, cairn_rect r, cairn_rgba c);
/* A segment between two points (pixel units). width <= 1: one pixel wide
 * (Bresenham between the pixels holding the ends); wider: every pixel whose
 * centre lies within width / 2 of the segment. Each pixel is blended once. */
void cairn_draw_line(cairn_image *img, double x0, double y0, double x1,
                     double y1, double width, cairn_rgba c);
/* A filled disc: every pixel whose centre lies within radius of (cx, cy);
 * a radius below 0.5 still draws the pixel under the centre. */
void cairn_draw_disc(cairn_image *img, double cx, double cy, double radius,
                     cairn_rgba c);
/* An arrow from tail to head: the shaft, and two barbs of length `head`
 * at 30 degrees either side of it at the head. */
void cairn_draw_arrow(cairn_image *img, double x0, double y0, double x1,
                      double y1, double head, double width, cairn_rgba c);

/* ---- text ----------------------------------------------------------- */

/* The built-in font: 5 x 7 glyphs on a 6 x 8 cell (one column and one row
 * of spacing), each font pixel drawn as scale x scale pixels (scale >= 1;
 * smaller counts as 1). It has the digits, the letters (lower case is drawn
 * as upper case), space and . , : ; - + = % / ( ) [ ] _ * # < > ' " ! ? |;
 * any other byte draws as a hollow box. '\n' starts a new line. */
#define CAIRN_FONT_W 6
#define CAIRN_FONT_H 8

/* Draws text with its top-left corner at (x, y); returns the width in
 * pixels of its longest line. */
int32_t cairn_draw_text(cairn_image *img, int32_t x, int32_t y, int32_t scale,
                        const char *text, cairn_rgba c);
/* The size text would take, without drawing it. */
void cairn_text_size(const char *text, int32_t scale, int32_t *w, int32_t *h);
/* Whether the font has a glyph for byte ch (lower case counts). */
int cairn_font_has(char ch);

/* ---- files ---------------------------------------------------------- */

/* Writes the image as a PNG (8-bit RGB when every pixel is opaque, else
 * RGBA). CAIRN_ERR_ARG for NULL img or path, CAIRN_ERR_IO when the file
 * cannot be opened or written (err names it and says why). A file that
 * failed half way is removed. */
cairn_status cairn_image_write_png(const cairn_image *img, const char *path,
                                   cairn_error *err);

#ifdef __cplusplus
}
#endif
#endif
