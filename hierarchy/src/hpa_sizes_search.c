/* The search inside a cluster of one terrain, read straight off the
 * grid's clearances: the sized pass's (hpa_sizes.c), for the cost between
 * a cluster's entrances for a k x k unit, and the size-1 build's
 * (hpa_cluster.c), which also traces the paths.
 *
 * On one terrain without a layer, a unit of size k may stand on exactly
 * the positions whose clearance is at least k, and every position costs
 * it the same; so its search is a size-1 search over those positions.
 * That search needs no grid of its own: one copy of the cluster's
 * clearances serves every size, and a Dijkstra over it with two FIFO
 * queues (one per step length: each receives its values in order),
 * offering only the moves of canonical paths, settles the targets.
 * Building an eroded grid per size (its move sets and clearances) cost
 * more than the searches themselves, and the core's fill, made for grids
 * of any size, spent twice what this one does on a cluster's few hundred
 * cells. */
#include "hpa_internal.h"

#include <string.h>

/* Local cells: the cluster's positions at (x + 1, y + 1) of a (cs + 2)
 * square, the ring and whatever lies past the cluster's own width and
 * height holding clearance 0 (never a position). */
static inline size_t fit_cells(int32_t cs) {
  return (size_t)(cs + 2) * (size_t)(cs + 2);
}

bool cairn__hpa_fit_search_init(const cairn_allocator *a, hpa_fit_search *fs, int32_t cs) {
  const size_t n = fit_cells(cs);
  memset(fs, 0, sizeof *fs);
  fs->cs = cs;
  fs->fit = cairn__alloc(a, n);
  fs->goal = cairn__alloc_zero(a, n);
  fs->dist = cairn__alloc(a, n * sizeof *fs->dist);
  fs->next = cairn__alloc(a, n);
  fs->from = cairn__alloc(a, n);
  /* each queue takes a cell at most once (its values rise), plus the source */
  fs->qs = cairn__alloc(a, (n + 1) * sizeof *fs->qs);
  fs->qd = cairn__alloc(a, (n + 1) * sizeof *fs->qd);
  if (fs->fit && fs->goal && fs->dist && fs->next && fs->from && fs->qs && fs->qd) return true;
  cairn__hpa_fit_search_free(a, fs);
  return false;
}

void cairn__hpa_fit_search_free(const cairn_allocator *a, hpa_fit_search *fs) {
  if (!fs->cs) return;
  const size_t n = fit_cells(fs->cs);
  cairn__free(a, fs->fit, fs->fit ? n : 0);
  cairn__free(a, fs->goal, fs->goal ? n : 0);
  cairn__free(a, fs->dist, fs->dist ? n * sizeof *fs->dist : 0);
  cairn__free(a, fs->next, fs->next ? n : 0);
  cairn__free(a, fs->from, fs->from ? n : 0);
  cairn__free(a, fs->qs, fs->qs ? (n + 1) * sizeof *fs->qs : 0);
  cairn__free(a, fs->qd, fs->qd ? (n + 1) * sizeof *fs->qd : 0);
  memset(fs, 0, sizeof *fs);
}

void cairn__hpa_fit_load(const cairn_hpa *h, const hpa_cluster *c, hpa_fit_search *fs) {
  const size_t w = (size_t)fs->cs + 2;
  memset(fs->fit, 0, fit_cells(fs->cs));
  for (int32_t y = 0; y < c->h; y++)
    memcpy(fs->fit + (size_t)(y + 1) * w + 1, h->clear + hpa_index(h, c->x0, c->y0 + y),
           (size_t)c->w);
}

/* The local cell of cluster-local point p. */
static inline size_t local_cell(const hpa_fit_search *fs, cairn_point p) {
  return (size_t)(p.y + 1) * (size_t)(fs->cs + 2) + (size_t)(p.x + 1);
}

bool cairn__hpa_fit_run(const hpa_fit_search *fs, unsigned k, cairn_point a, cairn_point b,
                        int shape, uint8_t *codes) {
  const int32_t w = fs->cs + 2;
  const uint8_t *fit = fs->fit;
  int32_t dx = b.x - a.x, dy = b.y - a.y;
  int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  int32_t nd = ax < ay ? ax : ay, n = ax < ay ? ay : ax;
  const int32_t sx = dx > 0 ? 1 : -1, sy = dy > 0 ? w : -w;
  const int32_t straight = ax > ay ? sx : sy;
  /* their direction codes (straight E W S N, then SE SW NE NW) */
  const uint8_t dcode = (uint8_t)(4 + (dx < 0) + 2 * (dy < 0));
  const uint8_t scode = ax > ay ? (uint8_t)(dx < 0) : (uint8_t)(2 + (dy < 0));
  int32_t c = (int32_t)local_cell(fs, a), acc = n / 2;
  for (int32_t s = 0; s < n; s++) {
    const bool diag = hpa_run_diag(shape, s, n, nd, &acc);
    if (diag) {
      /* no corner cut: both cells beside the diagonal fit too */
      if (fit[c + sx] < k || fit[c + sy] < k || fit[c + sx + sy] < k) return false;
      c += sx + sy;
    } else {
      if (fit[c + straight] < k) return false;
      c += straight;
    }
    if (codes) codes[s] = diag ? dcode : scode;
  }
  return true;
}

/* Offers value v to local cell nb by move d, after which it may go on
 * with the moves `bits`: a lowered cell takes them, records d and joins
 * queue q; a tie adds them (the first move at the final value stays). */
static inline void offer(uint32_t *dist, uint8_t *next, uint8_t *from, hpa_fit_entry *q,
                         size_t *tail, size_t nb, uint32_t v, unsigned bits, unsigned d) {
  if (v > dist[nb]) return;
  if (v == dist[nb]) {
    next[nb] = (uint8_t)(next[nb] | bits);
    return;
  }
  dist[nb] = v;
  next[nb] = (uint8_t)bits;
  from[nb] = (uint8_t)d;
  q[*tail].cell = (uint32_t)nb;
  q[*tail].key = v;
  (*tail)++;
}

/* diag_open[o]: the diagonals (bit 0 south-east .. bit 3 north-west)
 * whose two straight parts are among the straight moves o. */
static const uint8_t diag_open[16] = {0, 0, 0, 0, 0, 1, 2, 3, 0, 4, 8, 12, 0, 5, 10, 15};

/* Exact order (the two queues' heads merged), each settled cell offering
 * only the moves of canonical paths (cairn__canon_next): about two offers
 * a cell instead of eight. */
void cairn__hpa_fit_fill(hpa_fit_search *fs, unsigned k, cairn_point src,
                         const cairn_point *targets, size_t nt, uint32_t *out) {
  const size_t w = (size_t)fs->cs + 2;
  const uint8_t *fit = fs->fit;
  uint32_t *dist = fs->dist;
  uint8_t *next = fs->next, *from = fs->from;
  hpa_fit_entry *qs = fs->qs, *qd = fs->qd;
  const uint32_t S = (uint32_t)CAIRN_COST_ONE, D = (uint32_t)CAIRN_COST_DIAG;
  const ptrdiff_t s = (ptrdiff_t)w;
  const ptrdiff_t off[8] = {1, -1, s, -s, s + 1, s - 1, 1 - s, -1 - s};
  memset(dist, 0xFF, fit_cells(fs->cs) * sizeof *dist);
  size_t left = 0;
  for (size_t x = 0; x < nt; x++) {
    uint8_t *g = &fs->goal[local_cell(fs, targets[x])];
    left += !*g;
    *g = 1; /* a target; 2 once settled */
  }
  size_t hs = 0, ts = 0, hd = 0, td = 0;
  const size_t s0 = local_cell(fs, src);
  dist[s0] = 0;
  next[s0] = 0xFF; /* the source goes every way */
  qs[ts++] = (hpa_fit_entry){(uint32_t)s0, 0};
  while (left && (hs < ts || hd < td)) {
    const bool straight = hd == td || (hs < ts && qs[hs].key <= qd[hd].key);
    const hpa_fit_entry e = straight ? qs[hs++] : qd[hd++];
    const size_t c = e.cell;
    if (e.key != dist[c]) continue; /* lowered since: settled by that entry */
    if (fs->goal[c] == 1) {
      fs->goal[c] = 2;
      left--;
    }
    const unsigned o = (unsigned)(fit[c + 1] >= k) | (unsigned)(fit[c - 1] >= k) << 1 |
                       (unsigned)(fit[c + w] >= k) << 2 | (unsigned)(fit[c - w] >= k) << 3;
    const uint8_t *nx = cairn__canon_next[o];
    unsigned m = next[c] & o; /* the straight moves it may take */
    while (m) {
      const unsigned d = (unsigned)cairn__ctz(m);
      m &= m - 1;
      offer(dist, next, from, qs, &ts, (size_t)((ptrdiff_t)c + off[d]), e.key + S, nx[d], d);
    }
    /* a diagonal needs its two straight parts open, and its own cell */
    unsigned dm = (unsigned)next[c] >> 4 & diag_open[o];
    while (dm) {
      const unsigned d = 4u + (unsigned)cairn__ctz(dm);
      dm &= dm - 1;
      const size_t nb = (size_t)((ptrdiff_t)c + off[d]);
      if (fit[nb] >= k) offer(dist, next, from, qd, &td, nb, e.key + D, nx[d], d);
    }
  }
  for (size_t x = 0; x < nt; x++) {
    const size_t i = local_cell(fs, targets[x]);
    out[x] = fs->goal[i] == 2 ? dist[i] : UINT32_MAX;
  }
  for (size_t x = 0; x < nt; x++) fs->goal[local_cell(fs, targets[x])] = 0;
}

size_t cairn__hpa_fit_trace(const hpa_fit_search *fs, cairn_point to, uint8_t *codes) {
  static const uint8_t back[8] = {1, 0, 3, 2, 7, 6, 5, 4}; /* the step back over d */
  const ptrdiff_t w = (ptrdiff_t)fs->cs + 2;
  const ptrdiff_t off[8] = {1, -1, w, -w, w + 1, w - 1, 1 - w, -1 - w};
  size_t c = local_cell(fs, to), len = 0;
  while (fs->dist[c]) {
    const uint8_t e = back[fs->from[c]];
    codes[len++] = e;
    c = (size_t)((ptrdiff_t)c + off[e]);
  }
  return len;
}
