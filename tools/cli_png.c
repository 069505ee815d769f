/* The tool's pictures: scenes composed from the renderer's layers, written
 * as PNG files, folders of frames and animated GIFs. */
#define _POSIX_C_SOURCE 200809L /* mkdir, access, stat */
#include "cli_png.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define LEGEND_MAX 20
#define GIF_PX 512     /* an animation's map side: small files */
#define GIF_DELAY_CS 10 /* 10 frames a second */

static const cairn_rgba band_colour = {250, 249, 245, 255};
static const cairn_rgba text_colour = {30, 30, 30, 255};
static const cairn_rgba rule_colour = {150, 150, 150, 255}; /* between panels */
static const cairn_rgba torch_colour = {255, 200, 40, 255};
static const cairn_rgba penalty_colour = {236, 130, 110, 255}; /* as the tint shows */

typedef struct legend {
  cairn_legend_entry e[LEGEND_MAX];
  size_t n;
} legend;

static void add_entry(legend *l, cairn_rgba c, const char *label) {
  if (l->n == LEGEND_MAX) return;
  c.a = 255; /* swatches are opaque even where the layer is a tint */
  l->e[l->n].colour = c;
  l->e[l->n].label = label;
  l->n++;
}

static int32_t font_scale(int32_t width) { return width >= 700 ? 2 : 1; }

int32_t cli_png_band_height(int32_t width) {
  return (2 * (CAIRN_FONT_H + 4) + 2) * font_scale(width);
}

static cairn_view view_of(const cli_png_scene *s, int32_t max_px) {
  return cairn_view_fit(cairn_grid_width(s->grid), cairn_grid_height(s->grid), max_px);
}

/* ---- layers ---------------------------------------------------------- */

/* A new image of the view's size plus the band, the terrain painted. */
static cairn_status new_canvas(const cli_png_scene *s, const cairn_view *v,
                               cairn_image **out) {
  cairn_image *map = NULL;
  cairn_status st = cairn_render_map(s->grid, v, NULL, &map);
  if (st != CAIRN_OK) return st;
  int32_t w = cairn_image_width(map), h = cairn_image_height(map);
  st = cairn_image_create(w, h + cli_png_band_height(w), band_colour, NULL, out);
  if (st == CAIRN_OK)
    memcpy(cairn_image_pixels(*out), cairn_image_pixels_const(map), (size_t)w * (size_t)h * 4);
  cairn_image_destroy(map);
  return st;
}

static void draw_fields(const cli_png_scene *s, const cairn_view *v, cairn_image *img,
                        legend *l) {
  if (s->penalty) {
    cairn_render_penalty(img, v, s->penalty);
    add_entry(l, penalty_colour, "cost layer");
  }
  if (s->field && s->field_heat) {
    cairn_render_field_heat(img, v, s->grid, s->field);
    add_entry(l, cairn_heat_colour(0), "near");
    add_entry(l, cairn_heat_colour(1), "far");
  } else if (s->field) {
    cairn_render_field_arrows(img, v, s->grid, s->field, 0);
    add_entry(l, cairn_colour_arrow, "flow");
  }
  if (s->field) {
    add_entry(l, cairn_colour_unreachable, "unreachable");
    add_entry(l, cairn_colour_goal, "goal");
  }
}

/* The cells a unit covers along its path, for cairn_render_cells. */
typedef struct footprint {
  const uint8_t *mask; /* w x h, 1 where covered */
  int32_t w, h;
} footprint;

static cairn_rgba footprint_at(void *user, int32_t x, int32_t y) {
  const footprint *f = user;
  cairn_rgba none = {0, 0, 0, 0}, shade = cairn_colour_path;
  shade.a = 90;
  return x < f->w && y < f->h && f->mask[(size_t)y * (size_t)f->w + (size_t)x] ? shade : none;
}

/* Shades every cell a unit of k x k cells covers at some point of the
 * path, under the path's line. */
static void draw_footprint(const cli_png_scene *s, const cairn_view *v, cairn_image *img) {
  footprint f = {NULL, cairn_grid_width(s->grid), cairn_grid_height(s->grid)};
  uint8_t *mask = calloc((size_t)f.w * (size_t)f.h, 1);
  if (!mask) return; /* the picture goes without it */
  for (size_t i = 0; i < s->path_len; i++)
    for (int32_t dy = 0; dy < s->unit_size; dy++)
      for (int32_t dx = 0; dx < s->unit_size; dx++) {
        int32_t x = s->path[i].x + dx, y = s->path[i].y + dy;
        if (x < f.w && y < f.h) mask[(size_t)y * (size_t)f.w + (size_t)x] = 1;
      }
  f.mask = mask;
  cairn_render_cells(img, v, footprint_at, &f);
  free(mask);
}

static void draw_search(const cli_png_scene *s, const cairn_view *v, cairn_image *img,
                        legend *l) {
  size_t closed = 0, open = 0;
  if (s->search &&
      cairn_render_expanded(img, v, s->grid, s->search, &closed, &open) == CAIRN_OK) {
    if (closed) add_entry(l, cairn_heat_colour(0.5), "expanded");
    if (open) add_entry(l, cairn_colour_open_set, "open");
  }
  if (s->hpa) {
    cairn_render_hpa(img, v, s->hpa);
    add_entry(l, cairn_colour_cluster, "clusters");
    add_entry(l, cairn_colour_entrance, "entrances");
  }
  if (s->path_len && s->unit_size > 1) {
    draw_footprint(s, v, img);
    cairn_rgba shade = cairn_colour_path;
    shade.a = 90;
    add_entry(l, shade, "the unit's cells");
  }
  if (s->path_len) {
    cairn_render_path(img, v, s->path, s->path_len, 0, cairn_colour_path);
    add_entry(l, cairn_colour_path, "path");
  }
  if (s->smooth_len) {
    cairn_render_path(img, v, s->smooth, s->smooth_len, 0, cairn_colour_smooth);
    add_entry(l, cairn_colour_smooth, "smoothed");
  }
}

/* A torch: a small flame-coloured disc with a dark rim, so it reads on
 * any terrain. */
static void draw_torch(cairn_image *img, const cairn_view *v, cairn_point p) {
  double x, y, cp = (double)v->scale / v->shrink, r = cp * 0.8 > 3 ? cp * 0.8 : 3;
  cairn_view_to_px(v, p.x + 0.5, p.y + 0.5, &x, &y);
  cairn_draw_disc(img, x, y, r + 1, (cairn_rgba){90, 40, 0, 255});
  cairn_draw_disc(img, x, y, r, torch_colour);
}

/* A gate as cairn_render_marker draws a goal: pass 0 its dark rim, pass 1
 * its disc. */
static void draw_spot(cairn_image *img, const cairn_view *v, cairn_point p, int pass) {
  double x, y, r = (double)v->scale / v->shrink * 0.45;
  if (r < 3.5) r = 3.5;
  cairn_view_to_px(v, p.x + 0.5, p.y + 0.5, &x, &y);
  if (pass == 0) cairn_draw_disc(img, x, y, r + 1, (cairn_rgba){20, 20, 20, 255});
  else cairn_draw_disc(img, x, y, r, cairn_colour_goal);
}

/* Everything that does not change while a crowd moves. */
static cairn_status draw_base(const cli_png_scene *s, const cairn_view *v, legend *l,
                              cairn_image **out) {
  cairn_status st = new_canvas(s, v, out);
  if (st != CAIRN_OK) return st;
  l->n = 0;
  add_entry(l, cairn_colour_wall, "wall");
  draw_fields(s, v, *out, l);
  draw_search(s, v, *out, l);
  /* rims first, then discs: gates side by side read as one bar */
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = 0; k < s->n_gates; k++) draw_spot(*out, v, s->gates[k], pass);
  if (s->n_gates) add_entry(l, cairn_colour_goal, "gates");
  for (size_t k = 0; k < s->n_torches; k++) draw_torch(*out, v, s->torches[k]);
  if (s->n_torches) add_entry(l, torch_colour, "torches");
  return CAIRN_OK;
}

static const char *const state_names[] = {"idle", "moving", "waiting",
                                          "arrived", "unreachable", "stuck"};

/* The agents (a legend entry for each state present) and the query's
 * start and goal, on top of everything. */
static void draw_top(const cli_png_scene *s, const cairn_view *v, cairn_image *img,
                     legend *l) {
  if (s->crowd) {
    if (cairn_render_crowding(img, v, s->crowd, s->grid))
      add_entry(l, cairn_colour_crowding, "crowding");
    cairn_render_agents(img, v, s->crowd, s->agents, s->n_agents);
    bool seen[6] = {false};
    for (size_t k = 0; k < s->n_agents; k++) {
      cairn_agent_info ai;
      if (cairn_crowd_get(s->crowd, s->agents[k], &ai) == CAIRN_OK && ai.state <= 5)
        seen[ai.state] = true;
    }
    for (int k = 0; k < 6; k++)
      if (seen[k]) add_entry(l, cairn_agent_colour((cairn_agent_state)k), state_names[k]);
  }
  if (s->query) {
    cairn_render_marker(img, v, s->from, cairn_colour_start);
    cairn_render_marker(img, v, s->to, cairn_colour_goal);
    add_entry(l, cairn_colour_start, "start");
    add_entry(l, cairn_colour_goal, "goal");
  }
}

/* The band under the map: the caption, then the legend in one row (as
 * much of it as fits). */
static void draw_band(cairn_image *img, int32_t map_h, const char *caption,
                      const legend *l) {
  int32_t w = cairn_image_width(img), fs = font_scale(w);
  int32_t row = (CAIRN_FONT_H + 4) * fs, x = 4 * fs, y = map_h + 3 * fs;
  cairn_draw_rect(img, (cairn_rect){0, map_h, w, cairn_image_height(img) - map_h}, band_colour);
  if (caption) cairn_draw_text(img, x, y, fs, caption, text_colour);
  y += row;
  for (size_t k = 0; k < l->n; k++) {
    int32_t tw, th, sw = (CAIRN_FONT_H - 1) * fs;
    cairn_text_size(l->e[k].label, fs, &tw, &th);
    if (x + sw + 3 * fs + tw > w) break;
    cairn_draw_rect(img, (cairn_rect){x, y, sw, sw}, l->e[k].colour);
    cairn_draw_frame(img, (cairn_rect){x, y, sw, sw}, (cairn_rgba){90, 90, 90, 255});
    cairn_draw_text(img, x + sw + 3 * fs, y, fs, l->e[k].label, text_colour);
    x += sw + 3 * fs + tw + 8 * fs;
  }
}

cairn_status cli_png_draw(const cli_png_scene *s, cairn_image **out) {
  if (!s || !s->grid || !out) return CAIRN_ERR_ARG;
  cairn_view v = view_of(s, s->max_px);
  legend l;
  cairn_status st = draw_base(s, &v, &l, out);
  if (st != CAIRN_OK) return st;
  draw_top(s, &v, *out, &l);
  int32_t w, h;
  cairn_view_size(&v, &w, &h);
  draw_band(*out, h, s->caption, &l);
  return CAIRN_OK;
}

/* ---- files ----------------------------------------------------------- */

bool cli_png_available(const char *what) {
  if (cairn_render_has_png()) return true;
  cli_error("%s: this cairn was built without libpng and writes no PNG "
            "(--gif still works)", what);
  return false;
}

bool cli_png_can_write(const char *path) {
  return cli_png_available(path ? path : "--png") && cli_can_write(path);
}

bool cli_can_write(const char *path) {
  struct stat sb;
  if (!path || !*path) {
    cli_error("an empty file name for a picture");
    return false;
  }
  if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    cli_error("%s: is a folder, not a file", path);
    return false;
  }
  char dir[4096];
  const char *slash = strrchr(path, '/');
  size_t n = slash ? (size_t)(slash - path) : 0;
  if (n >= sizeof dir) n = sizeof dir - 1;
  memcpy(dir, path, n);
  dir[n] = '\0';
  if (!slash) strcpy(dir, ".");
  else if (n == 0) strcpy(dir, "/");
  if (access(dir, W_OK | X_OK) != 0) {
    cli_error("%s: cannot write there: %s: %s", path, dir, strerror(errno));
    return false;
  }
  return true;
}

static int write_image(const cairn_image *img, const char *path) {
  cairn_error err;
  if (cairn_image_write_png(img, path, &err) != CAIRN_OK) {
    cli_error("%s", err.message);
    return EXIT_RUNTIME;
  }
  return EXIT_DONE;
}

int cli_png_save(const cli_png_scene *s, const char *path) {
  cairn_image *img = NULL;
  cairn_status st = cli_png_draw(s, &img);
  if (st != CAIRN_OK) {
    cli_error("%s: drawing the picture failed: %s", path, cairn_status_str(st));
    return EXIT_RUNTIME;
  }
  int rc = write_image(img, path);
  cairn_image_destroy(img);
  return rc;
}

int cli_png_save_row(const cairn_image *const *imgs, size_t n, const char *path) {
  int64_t w = 0, h = 1;
  for (size_t k = 0; k < n; k++) {
    w += cairn_image_width(imgs[k]) + (k ? CLI_PNG_GAP : 0);
    if (cairn_image_height(imgs[k]) > h) h = cairn_image_height(imgs[k]);
  }
  cairn_image *row = NULL;
  cairn_status st = n == 0 ? CAIRN_ERR_ARG
                    : w > CAIRN_IMAGE_MAX_SIDE
                        ? CAIRN_ERR_TOO_LARGE
                        : cairn_image_create((int32_t)w, (int32_t)h, band_colour, NULL, &row);
  if (st != CAIRN_OK) {
    cli_error("%s: drawing the picture failed: %s", path, cairn_status_str(st));
    return EXIT_RUNTIME;
  }
  int32_t x = 0;
  for (size_t k = 0; k < n; k++) {
    if (k) /* a rule down the middle of the gap */
      cairn_draw_rect(row, (cairn_rect){x - CLI_PNG_GAP / 2 - 1, 0, 2, (int32_t)h}, rule_colour);
    cairn_image_copy(row, x, 0, imgs[k]);
    x += cairn_image_width(imgs[k]) + CLI_PNG_GAP;
  }
  int rc = write_image(row, path);
  cairn_image_destroy(row);
  return rc;
}

/* ---- one query ------------------------------------------------------- */

/* The path of one query into *r: a grid search in *s, or HPA* in *q. */
static cairn_status solve(const cairn_grid *g, cairn_point from, cairn_point to,
                          const cairn_search_opts *opts, const cairn_hpa *hpa,
                          const cairn_hpa_path_opts *po, cairn_search **s,
                          cairn_hpa_query **q, cairn_result *r) {
  memset(r, 0, sizeof *r);
  cairn_status st;
  if (!hpa) {
    if ((st = cairn_search_create(NULL, s)) != CAIRN_OK) return st;
    return cairn_astar(*s, g, from, to, opts, r);
  }
  cairn_hpa_result hr;
  if ((st = cairn_hpa_query_create(NULL, q)) != CAIRN_OK) return st;
  st = cairn_hpa_find(*q, hpa, from, to, po, &hr);
  cli_result_of_hpa(st, &hr, r);
  return st;
}

int cli_png_query(const char *path, const cli_png_scene *base, cairn_point from,
                  cairn_point to, const cairn_search_opts *opts,
                  const cairn_hpa *hpa, const cairn_hpa_path_opts *po,
                  bool smooth, const char *caption) {
  const cairn_grid *g = base->grid;
  cairn_search *s = NULL;
  cairn_hpa_query *q = NULL;
  cairn_point *sm = NULL;
  cairn_result r;
  int rc = EXIT_RUNTIME;
  cairn_status st = solve(g, from, to, opts, hpa, po, &s, &q, &r);
  if (st < 0) {
    cli_error("%s: the search failed: %s", path, cairn_status_str(st));
    goto done;
  }
  cli_png_scene sc = *base;
  sc.search = s;
  if (hpa) sc.hpa = hpa;
  sc.query = true;
  sc.from = from;
  sc.to = to;
  if (st == CAIRN_OK) {
    sc.path = r.path;
    sc.path_len = r.path_len;
    sc.unit_size = opts->size;
  }
  if (smooth && st == CAIRN_OK) {
    double length;
    sm = malloc(r.path_len * sizeof *sm);
    if (!sm || cairn_smooth_path_sized(g, opts->size > 1 ? opts->size : 1, r.path, r.path_len,
                                       sm, r.path_len, &sc.smooth_len, &length) != CAIRN_OK) {
      cli_error("%s: smoothing the path failed", path);
      goto done;
    }
    sc.smooth = sm;
  }
  char text[160];
  if (st == CAIRN_OK)
    snprintf(text, sizeof text, "%s %d,%d to %d,%d: cost %.2f, %llu expanded",
             caption ? caption : "", from.x, from.y, to.x, to.y,
             cairn_cost_to_double(r.cost), (unsigned long long)r.expanded);
  else
    snprintf(text, sizeof text, "%s %d,%d to %d,%d: no path", caption ? caption : "",
             from.x, from.y, to.x, to.y);
  sc.caption = text;
  rc = cli_png_save(&sc, path);
done:
  free(sm);
  cairn_hpa_query_destroy(q);
  cairn_search_destroy(s);
  return rc;
}

/* ---- movies ---------------------------------------------------------- */

/* Removes a half-written file, but only a regular one (never a device such
 * as /dev/full). */
static void remove_partial(const char *path) {
  struct stat sb;
  if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) remove(path);
}

/* One kind of output (the frames' PNGs, or the GIF's frames): its view,
 * the drawn base and a frame to draw on. */
typedef struct reel {
  cairn_view v;
  int32_t map_h;
  legend base_legend;
  cairn_image *base, *frame;
} reel;

struct cli_png_movie {
  cli_png_scene scene;
  const char *dir;
  long every, drawn; /* the last tick drawn */
  reel png, gif;
  cairn_gif *out;
  const char *gif_path;
};

static cairn_status reel_open(reel *r, const cli_png_scene *s, int32_t max_px) {
  r->v = view_of(s, max_px);
  int32_t w;
  cairn_view_size(&r->v, &w, &r->map_h);
  cairn_status st = draw_base(s, &r->v, &r->base_legend, &r->base);
  if (st == CAIRN_OK)
    st = cairn_image_create(cairn_image_width(r->base), cairn_image_height(r->base),
                            band_colour, NULL, &r->frame);
  return st;
}

static void reel_free(reel *r) {
  cairn_image_destroy(r->base);
  cairn_image_destroy(r->frame);
}

/* The frame of tick t on reel r. */
static void reel_draw(reel *r, const cli_png_movie *m, long t) {
  size_t bytes = (size_t)cairn_image_width(r->base) * (size_t)cairn_image_height(r->base) * 4;
  memcpy(cairn_image_pixels(r->frame), cairn_image_pixels_const(r->base), bytes);
  legend l = r->base_legend;
  draw_top(&m->scene, &r->v, r->frame, &l);
  cairn_crowd_stats cs;
  cairn_crowd_get_stats(m->scene.crowd, &cs);
  char text[160];
  snprintf(text, sizeof text, "%s tick %ld (%.1f s): %u of %u arrived",
           m->scene.caption ? m->scene.caption : "", t, (double)t * 0.1, cs.arrived,
           cs.agents);
  draw_band(r->frame, r->map_h, text, &l);
}

static cairn_status draw_frame(cli_png_movie *m, long t) {
  m->drawn = t;
  if (m->dir) {
    char path[4200];
    snprintf(path, sizeof path, "%s/tick-%06ld.png", m->dir, t);
    reel_draw(&m->png, m, t);
    if (write_image(m->png.frame, path) != EXIT_DONE) return CAIRN_ERR_IO;
  }
  if (m->out) {
    cairn_error err;
    reel_draw(&m->gif, m, t);
    if (cairn_gif_add(m->out, m->gif.frame, &err) != CAIRN_OK) {
      cli_error("%s", err.message);
      return CAIRN_ERR_IO;
    }
  }
  return CAIRN_OK;
}

#if defined(_WIN32)
#include <direct.h>
#define make_dir(dir) _mkdir(dir)
#else
#define make_dir(dir) mkdir(dir, 0777)
#endif

/* Creates the frames' folder when missing; false (printed) if unusable. */
static bool frames_folder(const char *dir) {
  if (make_dir(dir) != 0 && errno != EEXIST) {
    cli_error("%s: cannot create the frames folder: %s", dir, strerror(errno));
    return false;
  }
  struct stat sb;
  if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) || access(dir, W_OK | X_OK) != 0) {
    cli_error("%s: not a writable folder for the frames", dir);
    return false;
  }
  return true;
}

int cli_png_movie_open(const char *frames_dir, const char *gif, long every,
                       const cli_png_scene *scene, cli_png_movie **out) {
  *out = NULL;
  if (frames_dir && !cli_png_available(frames_dir)) return EXIT_RUNTIME;
  if (frames_dir && !frames_folder(frames_dir)) return EXIT_RUNTIME;
  if (gif && !cli_can_write(gif)) return EXIT_RUNTIME;
  cli_png_movie *m = calloc(1, sizeof *m);
  if (!m) {
    cli_error("out of memory");
    return EXIT_RUNTIME;
  }
  m->scene = *scene;
  m->dir = frames_dir;
  m->gif_path = gif;
  m->every = every > 0 ? every : 1;
  cairn_status st = CAIRN_OK;
  if (frames_dir) st = reel_open(&m->png, scene, scene->max_px);
  if (st == CAIRN_OK && gif) st = reel_open(&m->gif, scene, GIF_PX);
  if (st != CAIRN_OK) {
    cli_error("drawing the frames failed: %s", cairn_status_str(st));
    cli_png_movie_close(m, -1);
    return EXIT_RUNTIME;
  }
  if (gif) {
    cairn_error err;
    if (cairn_gif_open(gif, cairn_image_width(m->gif.frame), cairn_image_height(m->gif.frame),
                       GIF_DELAY_CS, NULL, &m->out, &err) != CAIRN_OK) {
      cli_error("%s", err.message);
      cli_png_movie_close(m, -1);
      return EXIT_RUNTIME;
    }
  }
  if (draw_frame(m, 0) != CAIRN_OK) {
    cli_png_movie_close(m, -1);
    return EXIT_RUNTIME;
  }
  *out = m;
  return EXIT_DONE;
}

cairn_status cli_png_movie_tick(cli_png_movie *m, long t) {
  if (!m || t % m->every != 0) return CAIRN_OK;
  return draw_frame(m, t);
}

cairn_status cli_png_movie_close(cli_png_movie *m, long last) {
  if (!m) return CAIRN_OK;
  cairn_status st = CAIRN_OK;
  if (last >= 0 && last != m->drawn) st = draw_frame(m, last);
  if (m->out) {
    cairn_error err;
    if (cairn_gif_close(m->out, &err) != CAIRN_OK && st == CAIRN_OK && last >= 0) {
      cli_error("%s", err.message);
      st = CAIRN_ERR_IO;
    }
    /* a failed run leaves no half animation behind */
    if (last < 0 || st != CAIRN_OK) remove_partial(m->gif_path);
  }
  reel_free(&m->png);
  reel_free(&m->gif);
  free(m);
  return st;
}
