/* Entrances: the transitions (crossings) between neighbouring clusters,
 * and from them the entrance cells of a cluster, its abstract nodes.
 *
 * Both depend only on the cells on either side of a cluster's borders, so
 * a cluster's entrances are found again from the grid whenever it is
 * rebuilt, and the graph's assembly lists each crossing from the one
 * cluster that owns it. */
#include "hpa_internal.h"

#include <stdlib.h>

/* Open border segments shorter than this get one entrance in the middle;
 * longer ones one at each end (Botea et al.'s rule), and from
 * HPA_WIDE_SEGMENT on one in the middle too, so routes through wide open
 * borders need not bend to a corner of the opening. */
#define HPA_LONG_SEGMENT 6
#define HPA_WIDE_SEGMENT 10

/* ---- transitions ---------------------------------------------------- */

static bool open_at(const cairn_hpa *h, uint32_t i) { return h->cost[i] != 0; }

/* The largest unit size (capped at max_size) that fits both cells of each
 * crossing of the open run [run0, run1] of a border (see
 * border_transitions), into fit[0 .. run1 - run0]. */
static void run_fits(const cairn_hpa *h, uint32_t first, uint32_t along, uint32_t step_b,
                     int32_t run0, int32_t run1, uint8_t *fit) {
  for (int32_t y = run0; y <= run1; y++) {
    uint32_t a = first + (uint32_t)y * along;
    unsigned fa = hpa_fit(h, a), fb = hpa_fit(h, a + step_b);
    fit[y - run0] = (uint8_t)(fa < fb ? fa : fb);
  }
}

/* The crossing of [lo, hi] (offsets into fit) that fits the largest unit,
 * the nearest `mid` of those. */
static int32_t best_fit(const uint8_t *fit, int32_t lo, int32_t hi, int32_t mid) {
  int32_t best = lo;
  for (int32_t y = lo + 1; y <= hi; y++)
    if (fit[y] > fit[best] || (fit[y] == fit[best] && abs(y - mid) < abs(best - mid)))
      best = y;
  return best;
}

/* Units above size 1 (max_size > 1): within a run of `len` crossings
 * (offsets, fit as run_fits), each maximal stretch of crossings that fit
 * size k (k from max_size down to 2) gets the crossing that fits the
 * largest unit (the middlemost such) unless one of the picks already lies
 * in it, and its far end unless a pick lies near it. A unit of size k
 * walks along such a stretch on either side, so one crossing in it joins
 * all of it; without them a unit could be cut off from a corridor it fits
 * through because the size-1 picks sit too near a wall. Appends to
 * picked (np used) and returns the new count; picks are distinct. */
static size_t sized_picks(const cairn_hpa *h, const uint8_t *fit, int32_t len, int32_t *picked,
                          size_t np) {
  for (unsigned k = (unsigned)h->max_size; k >= 2; k--) {
    int32_t y = 0;
    while (y < len) {
      while (y < len && fit[y] < k) y++;
      if (y == len) break;
      const int32_t s0 = y;
      while (y < len && fit[y] >= k) y++;
      /* the crossing that fits the largest unit, the middlemost of those
       * (as a short run's one crossing for size 1 is its middle) */
      const int32_t best = best_fit(fit, s0, y - 1, (s0 + y - 1) / 2);
      /* the pick nearest the stretch's far end, y - 1 */
      int32_t nearest = -1;
      for (size_t p = 0; p < np; p++)
        if (picked[p] >= s0 && picked[p] < y && picked[p] > nearest) nearest = picked[p];
      if (nearest < 0) picked[np++] = nearest = best;
      /* a stretch whose picks all lie away from its far end gets a
       * crossing there too, as a long run gets its ends for size 1, so
       * routes round the corner there need not bend towards the middle
       * (the larger sizes' far ends, nearer the middle, often serve the
       * smaller ones) */
      if (y - 1 - nearest >= HPA_LONG_SEGMENT / 2) picked[np++] = y - 1;
    }
  }
  return np;
}

/* Crossings of the border between cluster (cx, cy) and its east neighbour
 * (vertical == true) or its south neighbour. For each maximal run of rows
 * (columns) where both sides are open: one transition in the middle of a
 * short run, one at each end of a long one, and the middle too on a wide
 * one. Writes at most cs + 2 (runs of one or two cells get one transition
 * each and are separated by a closed cell). */
static size_t border_transitions(const cairn_hpa *h, int32_t cx, int32_t cy,
                                 bool vertical, hpa_transition *out) {
  const int32_t cs = h->cs;
  int32_t x0 = cx * cs, y0 = cy * cs;
  int32_t len = vertical ? (y0 + cs > h->height ? h->height - y0 : cs)
                         : (x0 + cs > h->width ? h->width - x0 : cs);
  /* side a: last column (row) of this cluster; side b: the next one */
  int32_t ax = vertical ? x0 + cs - 1 : x0, ay = vertical ? y0 : y0 + cs - 1;
  uint32_t ka = (uint32_t)cy * (uint32_t)h->cw + (uint32_t)cx;
  uint32_t kb = vertical ? ka + 1 : ka + (uint32_t)h->cw;
  uint32_t step_b = vertical ? 1u : (uint32_t)h->stride;
  uint32_t along = vertical ? (uint32_t)h->stride : 1u;
  uint32_t first = hpa_index(h, ax, ay);
  size_t n = 0;
  int32_t k = 0;
  while (k < len) {
    while (k < len && !(open_at(h, first + (uint32_t)k * along) &&
                        open_at(h, first + (uint32_t)k * along + step_b)))
      k++;
    if (k == len) break;
    int32_t run0 = k;
    while (k < len && open_at(h, first + (uint32_t)k * along) &&
           open_at(h, first + (uint32_t)k * along + step_b))
      k++;
    int32_t run1 = k - 1;
    /* offsets into the run from here on */
    const int32_t run = run1 - run0 + 1;
    int32_t at[3] = {(run - 1) / 2, -1, -1};
    if (run >= HPA_LONG_SEGMENT) {
      at[0] = 0;
      at[1] = run - 1;
    }
    if (run >= HPA_WIDE_SEGMENT) at[2] = (run - 1) / 2;
    uint8_t fit[CAIRN_HPA_MAX_CLUSTER];
    if (h->max_size > 1) run_fits(h, first, along, step_b, run0, run1, fit);
    int32_t picked[CAIRN_HPA_MAX_CLUSTER + 3];
    size_t np = 0;
    for (int t = 0; t < 3; t++)
      if (at[t] >= 0) picked[np++] = at[t];
    if (h->max_size > 1) np = sized_picks(h, fit, run, picked, np);
    for (size_t t = 0; t < np; t++) {
      uint32_t a = first + (uint32_t)(run0 + picked[t]) * along;
      out[n].a = a;
      out[n].b = a + step_b;
      out[n].ka = ka;
      out[n].kb = kb;
      out[n].diag = false;
      n++;
    }
  }
  return n;
}

/* Diagonal crossings at the corner where clusters (cx, cy), (cx + 1, cy),
 * (cx, cy + 1) and (cx + 1, cy + 1) meet. A diagonal step needs all four
 * corner cells open (no corner cutting), and then both diagonals exist. */
static size_t corner_transitions(const cairn_hpa *h, int32_t cx, int32_t cy,
                                 hpa_transition *out) {
  int32_t x = (cx + 1) * h->cs - 1, y = (cy + 1) * h->cs - 1;
  uint32_t tl = hpa_index(h, x, y), s = (uint32_t)h->stride;
  if (!open_at(h, tl) || !open_at(h, tl + 1) || !open_at(h, tl + s) ||
      !open_at(h, tl + s + 1))
    return 0;
  uint32_t k = (uint32_t)cy * (uint32_t)h->cw + (uint32_t)cx, cw = (uint32_t)h->cw;
  out[0].a = tl; /* north-west to south-east */
  out[0].b = tl + s + 1;
  out[0].ka = k;
  out[0].kb = k + cw + 1;
  out[0].diag = true;
  out[1].a = tl + 1; /* north-east to south-west */
  out[1].b = tl + s;
  out[1].ka = k + 1;
  out[1].kb = k + cw;
  out[1].diag = true;
  return 2;
}

/* Every transition touching cluster (cx, cy), from all eight neighbours.
 * out holds at least 4 * (cs + 2) + 8. */
static size_t cluster_transitions(const cairn_hpa *h, int32_t cx, int32_t cy,
                                  hpa_transition *out) {
  size_t n = 0;
  if (cx + 1 < h->cw) n += border_transitions(h, cx, cy, true, out + n);
  if (cx > 0) n += border_transitions(h, cx - 1, cy, true, out + n);
  if (cy + 1 < h->ch) n += border_transitions(h, cx, cy, false, out + n);
  if (cy > 0) n += border_transitions(h, cx, cy - 1, false, out + n);
  for (int32_t dy = -1; dy <= 0; dy++)
    for (int32_t dx = -1; dx <= 0; dx++) {
      int32_t bx = cx + dx, by = cy + dy;
      if (bx >= 0 && by >= 0 && bx + 1 < h->cw && by + 1 < h->ch)
        n += corner_transitions(h, bx, by, out + n);
    }
  return n;
}

/* Transitions on the east and south borders and the south-east corner of
 * cluster (cx, cy): each crossing is listed by exactly one cluster. */
size_t cairn__hpa_owned_transitions(const cairn_hpa *h, int32_t cx, int32_t cy,
                                    hpa_transition *out) {
  size_t n = 0;
  if (cx + 1 < h->cw) n += border_transitions(h, cx, cy, true, out + n);
  if (cy + 1 < h->ch) n += border_transitions(h, cx, cy, false, out + n);
  if (cx + 1 < h->cw && cy + 1 < h->ch) n += corner_transitions(h, cx, cy, out + n);
  return n;
}

/* ---- a cluster's nodes ---------------------------------------------- */

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The entrance cells of a cluster, sorted and without repeats. */
uint32_t cairn__hpa_cluster_nodes(const cairn_hpa *h, int32_t cx, int32_t cy,
                                  hpa_transition *trans, uint32_t *cells) {
  const uint32_t k = (uint32_t)cy * (uint32_t)h->cw + (uint32_t)cx;
  size_t nt = cluster_transitions(h, cx, cy, trans);
  uint32_t n = 0;
  for (size_t t = 0; t < nt; t++) {
    if (trans[t].ka == k) cells[n++] = trans[t].a;
    if (trans[t].kb == k) cells[n++] = trans[t].b;
  }
  qsort(cells, n, sizeof *cells, cmp_u32);
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++)
    if (m == 0 || cells[m - 1] != cells[i]) cells[m++] = cells[i];
  return m;
}
