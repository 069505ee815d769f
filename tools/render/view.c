/* Map views (cells to pixels), the cell painter, and the colour scheme. */
#include <math.h>

#include "cairn_render.h"

const cairn_rgba cairn_colour_open = {236, 231, 218, 255};
const cairn_rgba cairn_colour_wall = {38, 40, 48, 255};
const cairn_rgba cairn_colour_path = {214, 40, 40, 255};
const cairn_rgba cairn_colour_smooth = {20, 110, 220, 255};
const cairn_rgba cairn_colour_start = {20, 170, 60, 255};
const cairn_rgba cairn_colour_goal = {240, 150, 0, 255};
const cairn_rgba cairn_colour_open_set = {120, 200, 255, 255};
const cairn_rgba cairn_colour_cluster = {40, 90, 200, 110};
const cairn_rgba cairn_colour_entrance = {230, 120, 0, 255};
const cairn_rgba cairn_colour_arrow = {30, 60, 130, 255};
const cairn_rgba cairn_colour_unreachable = {200, 0, 160, 255};

cairn_view cairn_view_fit(int32_t w, int32_t h, int32_t max_px) {
  if (w < 1) w = 1;
  if (h < 1) h = 1;
  if (max_px <= 0) max_px = CAIRN_VIEW_DEFAULT_PX;
  int32_t side = w > h ? w : h;
  cairn_view v = {w, h, 1, 1};
  if (side > max_px) {
    v.shrink = (side + max_px - 1) / max_px;
  } else {
    v.scale = max_px / side;
    if (v.scale > CAIRN_VIEW_MAX_SCALE) v.scale = CAIRN_VIEW_MAX_SCALE;
  }
  return v;
}

void cairn_view_size(const cairn_view *v, int32_t *w, int32_t *h) {
  *w = (v->map_w + v->shrink - 1) / v->shrink * v->scale;
  *h = (v->map_h + v->shrink - 1) / v->shrink * v->scale;
}

void cairn_view_to_px(const cairn_view *v, double cx, double cy, double *px,
                      double *py) {
  *px = cx * v->scale / v->shrink;
  *py = cy * v->scale / v->shrink;
}

cairn_rect cairn_view_cell_rect(const cairn_view *v, int32_t x, int32_t y) {
  cairn_rect r = {x / v->shrink * v->scale, y / v->shrink * v->scale, v->scale,
                  v->scale};
  return r;
}

/* The alpha-weighted mean colour of the cells under pixel (px, py). */
static cairn_rgba block_mean(const cairn_view *v, int32_t px, int32_t py,
                             cairn_cell_colour_fn fn, void *user) {
  uint32_t r = 0, g = 0, b = 0, a = 0, n = 0;
  for (int32_t y = py * v->shrink; y < (py + 1) * v->shrink && y < v->map_h; y++)
    for (int32_t x = px * v->shrink; x < (px + 1) * v->shrink && x < v->map_w; x++) {
      cairn_rgba c = fn(user, x, y);
      r += (uint32_t)c.r * c.a;
      g += (uint32_t)c.g * c.a;
      b += (uint32_t)c.b * c.a;
      a += c.a;
      n++;
    }
  cairn_rgba out = {0, 0, 0, 0};
  if (a == 0) return out;
  out.r = (uint8_t)(r / a);
  out.g = (uint8_t)(g / a);
  out.b = (uint8_t)(b / a);
  out.a = (uint8_t)(a / n);
  return out;
}

void cairn_render_cells(cairn_image *img, const cairn_view *v,
                        cairn_cell_colour_fn fn, void *user) {
  if (v->shrink > 1) {
    int32_t w, h;
    cairn_view_size(v, &w, &h);
    for (int32_t py = 0; py < h; py++)
      for (int32_t px = 0; px < w; px++)
        cairn_image_blend(img, px, py, block_mean(v, px, py, fn, user));
    return;
  }
  for (int32_t y = 0; y < v->map_h; y++)
    for (int32_t x = 0; x < v->map_w; x++) {
      cairn_rgba c = fn(user, x, y);
      if (c.a) cairn_draw_rect(img, cairn_view_cell_rect(v, x, y), c);
    }
}

static uint8_t mix(uint8_t a, uint8_t b, double t) {
  return (uint8_t)lround(a + (b - a) * t);
}

cairn_rgba cairn_terrain_colour(uint8_t cost) {
  if (cost == 0) return cairn_colour_wall;
  if (cost == 1) return cairn_colour_open;
  /* costs 2..255 on a log scale from pale green to deep green */
  static const cairn_rgba lo = {200, 214, 168, 255}, hi = {46, 92, 40, 255};
  double t = log((double)cost) / log(255.0);
  cairn_rgba c = {mix(lo.r, hi.r, t), mix(lo.g, hi.g, t), mix(lo.b, hi.b, t), 255};
  return c;
}

cairn_rgba cairn_heat_colour(double t) {
  static const cairn_rgba stops[5] = {{68, 1, 84, 255},
                                      {59, 82, 139, 255},
                                      {33, 145, 140, 255},
                                      {94, 201, 98, 255},
                                      {253, 231, 37, 255}};
  if (!(t > 0)) t = 0;
  if (t > 1) t = 1;
  double s = t * 4;
  int k = s >= 4 ? 3 : (int)s;
  double f = s - k;
  cairn_rgba c = {mix(stops[k].r, stops[k + 1].r, f), mix(stops[k].g, stops[k + 1].g, f),
                  mix(stops[k].b, stops[k + 1].b, f), 255};
  return c;
}

cairn_rgba cairn_agent_colour(cairn_agent_state s) {
  /* the browser viewer's meanings (tools/viewer), in shades that read on
   * light ground */
  switch (s) {
  case CAIRN_AGENT_MOVING: return (cairn_rgba){215, 35, 35, 255};
  case CAIRN_AGENT_WAITING: return (cairn_rgba){215, 170, 0, 255};
  case CAIRN_AGENT_ARRIVED: return (cairn_rgba){30, 150, 60, 255};
  case CAIRN_AGENT_UNREACHABLE: return (cairn_rgba){200, 0, 200, 255};
  case CAIRN_AGENT_STUCK: return (cairn_rgba){30, 100, 230, 255};
  case CAIRN_AGENT_IDLE:
  default: return (cairn_rgba){120, 120, 120, 255};
  }
}
