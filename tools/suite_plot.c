/* cairn suite's plots: every solved row as a dot, per algorithm, of query
 * time (log scale) and of suboptimality against the optimal path length,
 * drawn on the renderer's canvas (tools/render). */
#include "suite_plot.h"

#include <math.h>
#include <stdio.h>

#include "cairn_render.h"
#include "cli.h"

#define PLOT_W SUITE_PLOT_W
#define PLOT_H SUITE_PLOT_H
#define LEFT 70
#define RIGHT 20
#define TOP 30
#define BOTTOM 50

static const cairn_rgba ink = {30, 30, 30, 255}, grid_ink = {225, 225, 225, 255};
static const cairn_rgba algo_ink[ALGO_COUNT] = {
    {40, 90, 200, 150}, {120, 120, 120, 150}, {230, 120, 20, 150}};

/* One axis: value lo..hi onto pixels a..b, log10 when asked. */
typedef struct axis {
  double lo, hi;
  bool log;
} axis;

static double place(const axis *x, double v, double a, double b) {
  if (x->log) v = log10(v > 1e-3 ? v : 1e-3);
  double t = x->hi > x->lo ? (v - x->lo) / (x->hi - x->lo) : 0;
  return a + t * (b - a);
}

static void draw_frame_and_ticks(cairn_image *img, const axis *ax, const axis *ay,
                                 const char *title, const char *xlabel,
                                 const char *ylabel) {
  int32_t x0 = LEFT, x1 = PLOT_W - RIGHT, y0 = PLOT_H - BOTTOM, y1 = TOP;
  char text[64];
  for (int k = 0; k <= 5; k++) {
    double vx = ax->lo + (ax->hi - ax->lo) * k / 5, vy = ay->lo + (ay->hi - ay->lo) * k / 5;
    double px = x0 + (x1 - x0) * k / 5.0, py = y0 + (y1 - y0) * k / 5.0;
    cairn_draw_line(img, px, y0, px, y1, 1, grid_ink);
    cairn_draw_line(img, x0, py, x1, py, 1, grid_ink);
    snprintf(text, sizeof text, "%.0f", vx);
    cairn_draw_text(img, (int32_t)px - 10, y0 + 6, 1, text, ink);
    snprintf(text, sizeof text, ay->log ? "%.3g" : "%.2f", ay->log ? pow(10, vy) : vy);
    cairn_draw_text(img, 4, (int32_t)py - 4, 1, text, ink);
  }
  cairn_draw_frame(img, (cairn_rect){x0, y1, x1 - x0 + 1, y0 - y1 + 1}, ink);
  cairn_draw_text(img, LEFT + 120, 8, 2, title, ink);
  cairn_draw_text(img, (x0 + x1) / 2 - 60, PLOT_H - 20, 1, xlabel, ink);
  cairn_draw_text(img, 4, TOP - 12, 1, ylabel, ink);
}

static void draw_legend(cairn_image *img, const suite_data *d) {
  int32_t x = PLOT_W - RIGHT - 110, y = TOP + 8;
  for (int k = 0; k < d->n_algos; k++, y += 14) {
    cairn_rgba c = algo_ink[d->algos[k]];
    c.a = 255;
    cairn_draw_rect(img, (cairn_rect){x, y, 8, 8}, c);
    cairn_draw_text(img, x + 14, y, 1, scen_algo_names[d->algos[k]], ink);
  }
}

/* Plots field `time` (else suboptimality) of every point into path. */
static int plot(const suite_data *d, bool time, const char *path) {
  axis ax = {0, 1, false}, ay = {0, 0, time};
  bool first = true;
  for (size_t i = 0; i < d->n_points; i++) {
    const suite_point *p = &d->points[i];
    double v = time ? log10(p->us > 1e-3 ? p->us : 1e-3) : p->subopt_pct;
    if (p->length > ax.hi) ax.hi = p->length;
    if (first || v < ay.lo) ay.lo = v;
    if (first || v > ay.hi) ay.hi = v;
    first = false;
  }
  if (time) {
    ay.lo = floor(ay.lo);
    ay.hi = ceil(ay.hi) > ay.lo ? ceil(ay.hi) : ay.lo + 1;
  } else {
    ay.lo = 0;
    if (ay.hi <= 0) ay.hi = 1;
  }
  cairn_image *img = NULL;
  if (cairn_image_create(PLOT_W, PLOT_H, (cairn_rgba){255, 255, 255, 255}, NULL, &img) !=
      CAIRN_OK) {
    cli_error("out of memory for the plots");
    return EXIT_RUNTIME;
  }
  draw_frame_and_ticks(img, &ax, &ay,
                       time ? "query time against path length" : "suboptimality against path length",
                       "optimal path length (cells)", time ? "time (us, log)" : "suboptimality (%)");
  for (size_t i = 0; i < d->n_points; i++) {
    const suite_point *p = &d->points[i];
    double px = place(&ax, p->length, LEFT, PLOT_W - RIGHT);
    double py = place(&ay, time ? p->us : p->subopt_pct, PLOT_H - BOTTOM, TOP);
    cairn_draw_disc(img, px, py, 1.5, algo_ink[p->algo]);
  }
  draw_legend(img, d);
  cairn_error err;
  cairn_status st = cairn_image_write_png(img, path, &err);
  cairn_image_destroy(img);
  if (st != CAIRN_OK) {
    cli_error("%s", err.message);
    return EXIT_RUNTIME;
  }
  return EXIT_DONE;
}

int suite_write_plots(const suite_data *d, const char *time_png, const char *subopt_png) {
  int rc = plot(d, true, time_png);
  return rc == EXIT_DONE ? plot(d, false, subopt_png) : rc;
}
