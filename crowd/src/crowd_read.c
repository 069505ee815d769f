/* Reading a crowd in bulk: every live agent into the caller's arrays, and
 * the agents near a point or in a rectangle, found from the last tick's
 * bins plus the agents that may stand outside them (the loose list). */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

void cairn__crowd_tighten(cairn_crowd *c) {
  for (uint32_t i = 0; i < c->n_loose; i++) c->loose_mark[c->loose[i]] = 0;
  c->n_loose = 0;
}

/* ---- export --------------------------------------------------------- */

cairn_status cairn_crowd_export(const cairn_crowd *c, const cairn_crowd_arrays *out,
                                size_t cap, size_t *n) {
  if (n) *n = 0;
  if (!c || !out || !n) return CAIRN_ERR_ARG;
  *n = c->live;
  if (cap < c->live) return CAIRN_ERR_BUFFER;
  size_t k = 0;
  for (uint32_t s = 0; s < c->high; s++) {
    if (!c->alive[s]) continue;
    if (out->pos) {
      out->pos[2 * k] = c->x[s];
      out->pos[2 * k + 1] = c->y[s];
    }
    if (out->vel) {
      out->vel[2 * k] = c->vx[s];
      out->vel[2 * k + 1] = c->vy[s];
    }
    if (out->radius) out->radius[k] = c->radius[s];
    if (out->state) out->state[k] = (cairn_agent_state)c->state[s];
    if (out->agent) out->agent[k] = (cairn_agent)s | (cairn_agent)c->gen[s] << 32;
    if (out->user) out->user[k] = c->user[s];
    k++;
  }
  return CAIRN_OK;
}

/* ---- spatial queries ------------------------------------------------ */

/* Cells an agent may have moved since the bins were counted: a tick moves
 * it at most STEP_MAX (0.9) cells an axis after counting. */
#define QUERY_MARGIN 1.0f

/* What a query looks for and what it found so far: the hits with the
 * lowest slots, at most cap of them, as a max-heap on the slot (so the
 * highest is the one to drop), and the count of all. */
typedef struct query {
  float x0, y0, x1, y1; /* the box to scan (the rectangle, or the disc's) */
  int disc;             /* 1: within r of (px, py); 0: in the box */
  float px, py, r2;
  cairn_crowd_hit *out;
  size_t cap, len, total;
} query;

static uint32_t slot_of_hit(const cairn_crowd_hit *h) {
  return (uint32_t)(h->agent & 0xffffffffu);
}

static void swap_hits(cairn_crowd_hit *a, cairn_crowd_hit *b) {
  cairn_crowd_hit t = *a;
  *a = *b;
  *b = t;
}

static void sift_down(cairn_crowd_hit *h, size_t i, size_t n) {
  for (size_t j; (j = 2 * i + 1) < n; i = j) {
    if (j + 1 < n && slot_of_hit(&h[j + 1]) > slot_of_hit(&h[j])) j++;
    if (slot_of_hit(&h[i]) >= slot_of_hit(&h[j])) return;
    swap_hits(&h[i], &h[j]);
  }
}

static void sift_up(cairn_crowd_hit *h, size_t i) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (slot_of_hit(&h[p]) >= slot_of_hit(&h[i])) return;
    swap_hits(&h[p], &h[i]);
    i = p;
  }
}

/* Slot s, if it is a body inside the query's shape, joins the hits. */
static void consider(const cairn_crowd *c, query *q, uint32_t s) {
  if (!c->alive[s] || !cairn__crowd_is_body(c, s)) return;
  float x = c->x[s], y = c->y[s];
  if (q->disc) {
    float dx = x - q->px, dy = y - q->py;
    if (!(dx * dx + dy * dy <= q->r2)) return;
  } else if (!(x >= q->x0 && x <= q->x1 && y >= q->y0 && y <= q->y1)) {
    return;
  }
  q->total++;
  if (!q->cap) return;
  cairn_crowd_hit h = {(cairn_agent)s | (cairn_agent)c->gen[s] << 32, c->user[s], x, y};
  if (q->len < q->cap) {
    q->out[q->len] = h;
    sift_up(q->out, q->len++);
  } else if (s < slot_of_hit(&q->out[0])) {
    q->out[0] = h;
    sift_down(q->out, 0, q->len);
  }
}

/* The bin column (or row) of coordinate v of a query, widened and kept
 * inside the inner bins. */
static int32_t query_col(const cairn_crowd *c, float v, float side, int32_t nb) {
  float lo = v < 0.0f ? 0.0f : v > side ? side : v;
  int32_t b = cairn__crowd_bin_col(c, lo);
  return b < 1 ? 1 : b > nb - 2 ? nb - 2 : b;
}

/* The bodies binned last tick in the box widened by QUERY_MARGIN (a row
 * of bins at a time: one run of bin order), then the loose ones. */
static void scan(const cairn_crowd *c, query *q) {
  int32_t bx0 = query_col(c, q->x0 - QUERY_MARGIN, (float)c->width, c->nbx),
          bx1 = query_col(c, q->x1 + QUERY_MARGIN, (float)c->width, c->nbx),
          by0 = query_col(c, q->y0 - QUERY_MARGIN, (float)c->height, c->nby),
          by1 = query_col(c, q->y1 + QUERY_MARGIN, (float)c->height, c->nby);
  for (int32_t by = by0; by <= by1; by++) {
    uint32_t b0 = (uint32_t)by * (uint32_t)c->nbx + (uint32_t)bx0,
             b1 = (uint32_t)by * (uint32_t)c->nbx + (uint32_t)bx1;
    for (uint32_t k = cairn__crowd_bin_first(c, b0);
         k < c->n_binned && c->slot_bin[c->order_of[k]] <= b1; k++) {
      uint32_t s = c->order_of[k];
      if (!c->loose_mark[s]) consider(c, q, s);
    }
  }
  for (uint32_t i = 0; i < c->n_loose; i++) consider(c, q, c->loose[i]);
}

/* The hits in slot order; CAIRN_ERR_BUFFER when some did not fit. */
static cairn_status finish(query *q, size_t *n) {
  for (size_t e = q->len; e > 1; e--) {
    swap_hits(&q->out[0], &q->out[e - 1]);
    sift_down(q->out, 0, e - 1);
  }
  *n = q->total;
  return q->total > q->cap ? CAIRN_ERR_BUFFER : CAIRN_OK;
}

static cairn_status query_args(const cairn_crowd *c, const cairn_crowd_hit *out, size_t cap,
                               size_t *n) {
  if (n) *n = 0;
  if (!c || !n || (!out && cap)) return CAIRN_ERR_ARG;
  return CAIRN_OK;
}

cairn_status cairn_crowd_query_radius(const cairn_crowd *c, float x, float y, float r,
                                      cairn_crowd_hit *out, size_t cap, size_t *n) {
  cairn_status st = query_args(c, out, cap, n);
  if (st != CAIRN_OK) return st;
  if (!isfinite(x) || !isfinite(y) || !isfinite(r) || r < 0.0f) return CAIRN_ERR_ARG;
  query q = {x - r, y - r, x + r, y + r, 1, x, y, r * r, out, cap, 0, 0};
  scan(c, &q);
  return finish(&q, n);
}

cairn_status cairn_crowd_query_rect(const cairn_crowd *c, float x0, float y0, float x1,
                                    float y1, cairn_crowd_hit *out, size_t cap, size_t *n) {
  cairn_status st = query_args(c, out, cap, n);
  if (st != CAIRN_OK) return st;
  if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1) || x0 > x1 ||
      y0 > y1)
    return CAIRN_ERR_ARG;
  query q = {x0, y0, x1, y1, 0, 0.0f, 0.0f, 0.0f, out, cap, 0, 0};
  scan(c, &q);
  return finish(&q, n);
}
