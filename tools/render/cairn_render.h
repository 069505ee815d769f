/*
 * cairn_render.h - pictures of what cairn computes: an RGBA canvas with a
 * few drawing primitives and a built-in 5 x 7 font, PNG and GIF writers, and
 * layers that draw a map, paths, searches, hierarchies, flow fields, crowds
 * and cost layers onto it.
 *
 * This is a tool library: the algorithms never call it. It reads the
 * modules only through their public headers (cairn/core.h and the others),
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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cairn/core.h"
#include "cairn/crowd.h"
#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"

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
/* Copies src into dst with src's top-left corner at (x, y), exactly (no
 * blending), clipped to dst; NULL images copy nothing. */
void cairn_image_copy(cairn_image *dst, int32_t x, int32_t y, const cairn_image *src);

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

/* ---- map views ------------------------------------------------------ */

/* How cells become pixels: each cell is scale x scale pixels (scale >= 1,
 * shrink == 1), or each pixel covers shrink x shrink cells (shrink > 1,
 * scale == 1) and shows their mean colour, so a wall one cell thick still
 * shows as a line 1 / shrink as dark. */
typedef struct cairn_view {
  int32_t map_w, map_h; /* cells */
  int32_t scale, shrink;
} cairn_view;

/* Largest scale a view fit picks: 16 pixels a cell. */
#define CAIRN_VIEW_MAX_SCALE 16
/* The default image side a view fits into. */
#define CAIRN_VIEW_DEFAULT_PX 1024

/* The view of a w x h map for an image of at most max_px pixels a side
 * (0: CAIRN_VIEW_DEFAULT_PX): the largest integer scale up to
 * CAIRN_VIEW_MAX_SCALE that fits, or, for a map wider than max_px, the
 * smallest integer shrink that fits. A 1024 x 1024 map at the default is
 * drawn 1:1. Sides below 1 count as 1. */
cairn_view cairn_view_fit(int32_t w, int32_t h, int32_t max_px);
/* The image size the view needs (ceil(map / shrink) x scale). */
void cairn_view_size(const cairn_view *v, int32_t *w, int32_t *h);
/* A point in cell units (cell (x, y) spans x..x+1, y..y+1) as pixels. */
void cairn_view_to_px(const cairn_view *v, double cx, double cy, double *px,
                      double *py);
/* The pixels of cell (x, y) (under a shrink: the pixel holding it). */
cairn_rect cairn_view_cell_rect(const cairn_view *v, int32_t x, int32_t y);

/* A colour for each cell, for the cell painters below; alpha 0 leaves the
 * cell as it is. */
typedef cairn_rgba (*cairn_cell_colour_fn)(void *user, int32_t x, int32_t y);
/* Blends fn's colour over every cell of the view (under a shrink, the
 * alpha-weighted mean of the cells of each pixel). */
void cairn_render_cells(cairn_image *img, const cairn_view *v,
                        cairn_cell_colour_fn fn, void *user);

/* ---- layers --------------------------------------------------------- */

/* The colours the layers use, for legends and tests. */
extern const cairn_rgba cairn_colour_open;    /* terrain cost 1 */
extern const cairn_rgba cairn_colour_wall;    /* blocked */
extern const cairn_rgba cairn_colour_path;    /* a search's path */
extern const cairn_rgba cairn_colour_smooth;  /* the smoothed path */
extern const cairn_rgba cairn_colour_start;
extern const cairn_rgba cairn_colour_goal;
extern const cairn_rgba cairn_colour_open_set; /* open nodes of a search */
extern const cairn_rgba cairn_colour_cluster; /* hierarchy cluster borders */
extern const cairn_rgba cairn_colour_crowding; /* a crowd's density */
extern const cairn_rgba cairn_colour_entrance;
extern const cairn_rgba cairn_colour_arrow;   /* flow directions */
extern const cairn_rgba cairn_colour_unreachable;

/* The colour of terrain cost c: open ground for 1, darker and greener
 * towards 255, cairn_colour_wall for 0. */
cairn_rgba cairn_terrain_colour(uint8_t cost);
/* A ramp for heat maps: t in 0..1 (clamped) from dark violet through blue
 * and green to yellow. */
cairn_rgba cairn_heat_colour(double t);
/* The colour of an agent state, the browser viewer's meanings: idle grey,
 * moving red, waiting yellow, arrived green, unreachable magenta, stuck
 * blue. */
cairn_rgba cairn_agent_colour(cairn_agent_state s);

/* A new image of the view's size with the grid's terrain painted (*out;
 * the statuses of cairn_image_create). */
cairn_status cairn_render_map(const cairn_grid *g, const cairn_view *v,
                              const cairn_allocator *alloc, cairn_image **out);
/* A polyline through the centres of the path's cells; width in pixels (0:
 * a third of a cell, at least 2). */
void cairn_render_path(cairn_image *img, const cairn_view *v,
                       const cairn_point *path, size_t n, double width,
                       cairn_rgba c);
/* A disc on a cell's centre, most of a cell wide (at least 7 pixels), with
 * a dark rim one pixel wide. */
void cairn_render_marker(cairn_image *img, const cairn_view *v, cairn_point p,
                         cairn_rgba c);
/* The last grid search of s on g as a heat map: closed cells by their g
 * (cairn_heat_colour of g / the largest closed g), open cells in
 * cairn_colour_open_set, blended at alpha 170. *closed and *open (may be
 * NULL) get the counts. CAIRN_ERR_STATE if s's last search was not on a
 * grid of g's size. */
cairn_status cairn_render_expanded(cairn_image *img, const cairn_view *v,
                                   const cairn_grid *g, const cairn_search *s,
                                   size_t *closed, size_t *open);
/* The hierarchy's cluster borders (and, with three levels, its block
 * borders, darker) and its entrances as dots. */
void cairn_render_hpa(cairn_image *img, const cairn_view *v,
                      const cairn_hpa *h);
/* A flow field as arrows: one every `every` cells each way (0: every cell
 * when cells are at least 12 pixels wide, else the fewest cells that span
 * 16 pixels), pointing along the cell's direction. Passable cells the field
 * cannot reach are tinted cairn_colour_unreachable; goals get a marker. */
void cairn_render_field_arrows(cairn_image *img, const cairn_view *v,
                               const cairn_grid *g, const cairn_field *f,
                               int32_t every);
/* A flow field's integration costs as a heat map (near goals dark, far
 * yellow), unreachable passable cells in cairn_colour_unreachable. */
void cairn_render_field_heat(cairn_image *img, const cairn_view *v,
                             const cairn_grid *g, const cairn_field *f);
/* A cost layer as a red overlay, its alpha growing with the log of the
 * penalty; blocked cells (CAIRN_PENALTY_BLOCK) dark violet. */
void cairn_render_penalty(cairn_image *img, const cairn_view *v,
                          const cairn_penalty *p);
/* A crowd's congestion layer (cairn_crowd_density) on grid g as a blue
 * overlay, its alpha growing with the log of the density's cost. Returns
 * the cells drawn (0 when the crowd has no density, or none above 0). */
size_t cairn_render_crowding(cairn_image *img, const cairn_view *v, const cairn_crowd *c,
                             const cairn_grid *g);
/* Agents as discs of their radius (at least 1 pixel across), coloured by
 * state; handles that are no longer valid are skipped. Returns how many
 * were drawn. */
size_t cairn_render_agents(cairn_image *img, const cairn_view *v,
                           const cairn_crowd *c, const cairn_agent *agents,
                           size_t n);
/* A legend box in the top-left corner: one swatch and label per entry, in
 * the built-in font at `scale`. */
typedef struct cairn_legend_entry {
  cairn_rgba colour;
  const char *label;
} cairn_legend_entry;
void cairn_render_legend(cairn_image *img, const cairn_legend_entry *e,
                         size_t n, int32_t scale);

/* ---- files ---------------------------------------------------------- */

/* Whether this build writes PNGs: libpng is optional, and without it
 * cairn_image_write_png answers CAIRN_ERR_IO and says why. */
bool cairn_render_has_png(void);

/* Writes the image as a PNG (8-bit RGB when every pixel is opaque, else
 * RGBA). CAIRN_ERR_ARG for NULL img or path, CAIRN_ERR_IO when the file
 * cannot be opened or written (err names it and says why). A file that
 * failed half way is removed. */
cairn_status cairn_image_write_png(const cairn_image *img, const char *path,
                                   cairn_error *err);

/* Animated GIF, written as it goes (one frame in memory at a time): every
 * frame is mapped to one fixed 256-colour palette (a 6 x 6 x 6 colour cube
 * and 40 greys: each pixel takes the nearer of its cube and grey colours),
 * and only the rectangle that changed since the previous frame is stored,
 * LZW-compressed; it loops forever. Frames must have the size given at
 * open. */
typedef struct cairn_gif cairn_gif;
/* Creates the file and writes the header. delay_cs: hundredths of a second
 * a frame shows (1..65535; others are CAIRN_ERR_ARG, as are sides outside
 * 1..65535 and NULL arguments). CAIRN_ERR_IO naming the file. */
cairn_status cairn_gif_open(const char *path, int32_t width, int32_t height,
                            int delay_cs, const cairn_allocator *alloc,
                            cairn_gif **out, cairn_error *err);
/* Appends a frame. CAIRN_ERR_ARG for a frame of another size, CAIRN_ERR_IO
 * when writing fails (the writer then refuses further frames). */
cairn_status cairn_gif_add(cairn_gif *gif, const cairn_image *frame,
                           cairn_error *err);
/* Frames added so far. */
uint32_t cairn_gif_frames(const cairn_gif *gif);
/* Writes the trailer, closes the file and frees the writer (always, even
 * on error; NULL is fine). A file whose writing failed is removed. */
cairn_status cairn_gif_close(cairn_gif *gif, cairn_error *err);
/* The palette index a colour maps to, and the colour of an index: the
 * mapping cairn_gif_add uses (for tests and legends). */
uint8_t cairn_gif_index(cairn_rgba c);
cairn_rgba cairn_gif_colour(uint8_t index);

#ifdef __cplusplus
}
#endif
#endif
