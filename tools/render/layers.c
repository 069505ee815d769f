/* The map layers: terrain, paths, searches, hierarchies, flow fields, cost
 * layers and crowds, each drawn through a cairn_view. */
#include <math.h>

#include "cairn_render.h"

/* Pixels a cell spans (below 1 under a shrink). */
static double cell_px(const cairn_view *v) { return (double)v->scale / v->shrink; }

/* The centre of cell (x, y) in pixels. */
static void centre_px(const cairn_view *v, cairn_point p, double *px, double *py) {
  cairn_view_to_px(v, p.x + 0.5, p.y + 0.5, px, py);
}

typedef struct terrain_src {
  const uint8_t *cells;
  int32_t stride;
} terrain_src;

static cairn_rgba terrain_at(void *user, int32_t x, int32_t y) {
  const terrain_src *t = user;
  return cairn_terrain_colour(t->cells[(size_t)(y + 1) * (size_t)t->stride + (size_t)x + 1]);
}

cairn_status cairn_render_map(const cairn_grid *g, const cairn_view *v,
                              const cairn_allocator *alloc, cairn_image **out) {
  if (!g || !v || !out) return CAIRN_ERR_ARG;
  int32_t w, h;
  cairn_view_size(v, &w, &h);
  cairn_status st = cairn_image_create(w, h, cairn_colour_wall, alloc, out);
  if (st != CAIRN_OK) return st;
  terrain_src t;
  t.cells = cairn_grid_cells(g, &t.stride);
  cairn_render_cells(*out, v, terrain_at, &t);
  return CAIRN_OK;
}

void cairn_render_path(cairn_image *img, const cairn_view *v,
                       const cairn_point *path, size_t n, double width,
                       cairn_rgba c) {
  if (!path || n == 0) return;
  /* at least 2 pixels, so a path stays visible on a map drawn 1:1 */
  if (!(width > 0)) width = cell_px(v) / 3 > 2 ? cell_px(v) / 3 : 2;
  double x0, y0, x1, y1;
  centre_px(v, path[0], &x0, &y0);
  if (n == 1) cairn_draw_disc(img, x0, y0, width / 2, c);
  for (size_t i = 1; i < n; i++) {
    centre_px(v, path[i], &x1, &y1);
    cairn_draw_line(img, x0, y0, x1, y1, width, c);
    x0 = x1;
    y0 = y1;
  }
}

void cairn_render_marker(cairn_image *img, const cairn_view *v, cairn_point p,
                         cairn_rgba c) {
  double x, y, r = cell_px(v) * 0.45;
  if (r < 3.5) r = 3.5;
  centre_px(v, p, &x, &y);
  /* a dark rim keeps it visible on any layer */
  cairn_draw_disc(img, x, y, r + 1, (cairn_rgba){20, 20, 20, 255});
  cairn_draw_disc(img, x, y, r, c);
}

/* ---- the expanded nodes ---------------------------------------------- */

typedef struct expanded_src {
  const cairn_search *s;
  double max_g;
} expanded_src;

static cairn_rgba expanded_at(void *user, int32_t x, int32_t y) {
  const expanded_src *e = user;
  cairn_node_info ni;
  cairn_rgba c = {0, 0, 0, 0};
  if (cairn_search_cell(e->s, (cairn_point){x, y}, &ni) != CAIRN_OK) return c;
  if (ni.state == CAIRN_NODE_OPEN) c = cairn_colour_open_set;
  else if (ni.state == CAIRN_NODE_CLOSED)
    c = cairn_heat_colour(e->max_g > 0 ? (double)ni.g / e->max_g : 0);
  else return c;
  c.a = 170;
  return c;
}

cairn_status cairn_render_expanded(cairn_image *img, const cairn_view *v,
                                   const cairn_grid *g, const cairn_search *s,
                                   size_t *closed, size_t *open) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  cairn_node_info ni;
  /* the search's grid must be g's size: its last cell is on it, the next
   * ones are not */
  cairn_status st = cairn_search_cell(s, (cairn_point){w - 1, h - 1}, &ni);
  if (st == CAIRN_ERR_STATE) return st;
  if (st != CAIRN_OK || cairn_search_cell(s, (cairn_point){w, h - 1}, &ni) != CAIRN_ERR_RANGE ||
      cairn_search_cell(s, (cairn_point){w - 1, h}, &ni) != CAIRN_ERR_RANGE)
    return CAIRN_ERR_STATE;
  expanded_src e = {s, 0};
  size_t nc = 0, no = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      cairn_search_cell(s, (cairn_point){x, y}, &ni);
      if (ni.state == CAIRN_NODE_OPEN) no++;
      if (ni.state != CAIRN_NODE_CLOSED) continue;
      nc++;
      if ((double)ni.g > e.max_g) e.max_g = (double)ni.g;
    }
  cairn_render_cells(img, v, expanded_at, &e);
  if (closed) *closed = nc;
  if (open) *open = no;
  return CAIRN_OK;
}

/* ---- the hierarchy --------------------------------------------------- */

/* Vertical and horizontal lines every `step` cells. */
static void grid_lines(cairn_image *img, const cairn_view *v, int32_t step,
                       cairn_rgba c) {
  int32_t w, h;
  cairn_view_size(v, &w, &h);
  for (int32_t x = step; x < v->map_w; x += step) {
    double px, py;
    cairn_view_to_px(v, x, 0, &px, &py);
    cairn_draw_rect(img, (cairn_rect){(int32_t)px, 0, 1, h}, c);
  }
  for (int32_t y = step; y < v->map_h; y += step) {
    double px, py;
    cairn_view_to_px(v, 0, y, &px, &py);
    cairn_draw_rect(img, (cairn_rect){0, (int32_t)py, w, 1}, c);
  }
}

void cairn_render_hpa(cairn_image *img, const cairn_view *v,
                      const cairn_hpa *h) {
  cairn_hpa_stats st;
  cairn_hpa_get_stats(h, &st);
  grid_lines(img, v, st.cluster, cairn_colour_cluster);
  if (st.levels == 3 && st.block > 0) {
    cairn_rgba c = cairn_colour_cluster;
    c.a = 230;
    grid_lines(img, v, st.cluster * st.block, c);
  }
  /* small cells get one-pixel dots: thousands of entrances must not hide
   * the map */
  double r = cell_px(v) * 0.3;
  if (r < 0.75) r = 0.75;
  for (uint32_t k = 0; k < st.nodes; k++) {
    cairn_point p;
    if (cairn_hpa_node(h, k, &p) != CAIRN_OK) continue;
    double x, y;
    centre_px(v, p, &x, &y);
    cairn_draw_disc(img, x, y, r, cairn_colour_entrance);
  }
}

/* ---- flow fields ----------------------------------------------------- */

typedef struct field_src {
  const cairn_grid *g;
  const cairn_field *f;
  double max_cost;
  int heat;
} field_src;

static cairn_rgba field_at(void *user, int32_t x, int32_t y) {
  const field_src *s = user;
  cairn_rgba c = {0, 0, 0, 0};
  if (!cairn_grid_cost(s->g, x, y)) return c;
  cairn_cost v = cairn_field_cost(s->f, x, y);
  if (v == CAIRN_COST_INF) {
    c = cairn_colour_unreachable;
    c.a = s->heat ? 255 : 140;
  } else if (s->heat) {
    c = cairn_heat_colour(s->max_cost > 0 ? (double)v / s->max_cost : 0);
  }
  return c;
}

static void field_goals(cairn_image *img, const cairn_view *v, const cairn_field *f) {
  size_t n = 0;
  const cairn_point *goals = cairn_field_goals(f, &n);
  for (size_t k = 0; goals && k < n; k++) cairn_render_marker(img, v, goals[k], cairn_colour_goal);
}

void cairn_render_field_arrows(cairn_image *img, const cairn_view *v,
                               const cairn_grid *g, const cairn_field *f,
                               int32_t every) {
  field_src s = {g, f, 0, 0};
  cairn_render_cells(img, v, field_at, &s);
  double cp = cell_px(v);
  if (every <= 0) every = cp >= 12 ? 1 : (int32_t)ceil(16 / cp);
  double len = 0.8 * every * cp, width = len >= 12 ? 1.5 : 1;
  for (int32_t y = every / 2; y < v->map_h; y += every)
    for (int32_t x = every / 2; x < v->map_w; x += every) {
      int d = cairn_field_dir(f, x, y);
      if (d < 0 || d > 7) continue;
      double dx = cairn_flow_dir_dx(d), dy = cairn_flow_dir_dy(d);
      double norm = sqrt(dx * dx + dy * dy), cx, cy;
      centre_px(v, (cairn_point){x, y}, &cx, &cy);
      dx *= len / 2 / norm;
      dy *= len / 2 / norm;
      cairn_draw_arrow(img, cx - dx, cy - dy, cx + dx, cy + dy, len * 0.35, width,
                       cairn_colour_arrow);
    }
  field_goals(img, v, f);
}

void cairn_render_field_heat(cairn_image *img, const cairn_view *v,
                             const cairn_grid *g, const cairn_field *f) {
  cairn_field_stats st;
  cairn_field_get_stats(f, &st);
  field_src s = {g, f, (double)st.max_cost, 1};
  cairn_render_cells(img, v, field_at, &s);
  field_goals(img, v, f);
}

/* ---- cost layers ----------------------------------------------------- */

static cairn_rgba penalty_at(void *user, int32_t x, int32_t y) {
  uint32_t p = cairn_penalty_get(user, x, y);
  if (p == 0) return (cairn_rgba){0, 0, 0, 0};
  if (p == CAIRN_PENALTY_BLOCK) return (cairn_rgba){80, 0, 110, 220};
  /* alpha from 30 (a tiny penalty) to 200 (64 steps and more), log scale */
  double steps = (double)p / (double)CAIRN_COST_ONE, t = log1p(steps) / log1p(64.0);
  if (t > 1) t = 1;
  return (cairn_rgba){220, 30, 20, (uint8_t)(30 + 170 * t)};
}

void cairn_render_penalty(cairn_image *img, const cairn_view *v,
                          const cairn_penalty *p) {
  cairn_render_cells(img, v, penalty_at, (void *)(uintptr_t)p);
}

/* ---- crowds ---------------------------------------------------------- */

const cairn_rgba cairn_colour_crowding = {40, 110, 230, 255};

static cairn_rgba crowding_at(void *user, int32_t x, int32_t y) {
  int32_t stride;
  const uint32_t *d = cairn_crowd_density(user, &stride);
  uint32_t p = d[(size_t)(y + 1) * (size_t)stride + (size_t)(x + 1)];
  if (p == 0) return (cairn_rgba){0, 0, 0, 0};
  /* alpha from 40 (a fraction of a step) to 200 (16 steps and more) */
  double t = log1p((double)p / (double)CAIRN_COST_ONE) / log1p(16.0);
  if (t > 1) t = 1;
  cairn_rgba c = cairn_colour_crowding;
  c.a = (uint8_t)(40 + 160 * t);
  return c;
}

size_t cairn_render_crowding(cairn_image *img, const cairn_view *v, const cairn_crowd *c,
                             const cairn_grid *g) {
  int32_t stride;
  const uint32_t *d = cairn_crowd_density(c, &stride);
  if (!d) return 0;
  size_t n = 0, cells = (size_t)stride * (size_t)(cairn_grid_height(g) + 2);
  for (size_t i = 0; i < cells; i++) n += d[i] > 0;
  if (n) cairn_render_cells(img, v, crowding_at, (void *)(uintptr_t)c);
  return n;
}

size_t cairn_render_agents(cairn_image *img, const cairn_view *v,
                           const cairn_crowd *c, const cairn_agent *agents,
                           size_t n) {
  size_t drawn = 0;
  for (size_t k = 0; k < n; k++) {
    cairn_agent_info ai;
    if (cairn_crowd_get(c, agents[k], &ai) != CAIRN_OK) continue;
    double x, y;
    cairn_view_to_px(v, ai.x, ai.y, &x, &y);
    cairn_draw_disc(img, x, y, ai.radius * cell_px(v), cairn_agent_colour(ai.state));
    drawn++;
  }
  return drawn;
}

/* ---- legend ---------------------------------------------------------- */

void cairn_render_legend(cairn_image *img, const cairn_legend_entry *e,
                         size_t n, int32_t scale) {
  if (n == 0) return;
  if (scale < 1) scale = 1;
  int32_t row = (CAIRN_FONT_H + 2) * scale, widest = 0;
  for (size_t k = 0; k < n; k++) {
    int32_t tw, th;
    cairn_text_size(e[k].label, scale, &tw, &th);
    if (tw > widest) widest = tw;
  }
  int32_t sw = CAIRN_FONT_H * scale, pad = 3 * scale;
  cairn_rect box = {4, 4, pad * 3 + sw + widest, pad * 2 + row * (int32_t)n - 2 * scale};
  cairn_draw_rect(img, box, (cairn_rgba){255, 255, 255, 215});
  cairn_draw_frame(img, box, (cairn_rgba){60, 60, 60, 255});
  for (size_t k = 0; k < n; k++) {
    int32_t y = box.y + pad + row * (int32_t)k;
    cairn_draw_rect(img, (cairn_rect){box.x + pad, y, sw - scale, sw - scale}, e[k].colour);
    cairn_draw_text(img, box.x + pad * 2 + sw, y, scale, e[k].label,
                    (cairn_rgba){20, 20, 20, 255});
  }
}
