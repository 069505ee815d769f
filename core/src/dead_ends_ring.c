/* Dead-end tables: updates that search a window round an edit again
 * (cairn_dead_ends_update), for the edits that neither stay inside one
 * dead end (dead_ends_local.c) nor leave every area as it was
 * (dead_ends_root.c): a wall that turns a doorway into an alcove or a room
 * into a dead end, a cell opened into an alcove.
 *
 * The window Q is a rectangle round the changed cells (RING_RADIUS cells
 * on every side), grown until no door marked before the edit crosses its
 * edge, with the pieces of the grid less the rectangle that hang off it
 * alone (a room's strip whose ways out all lead into it, a wing whose
 * door it holds). The rest of the island outside Q is one piece R, the
 * one that holds the island's centre (the last search's root): a search
 * from every open cell beside the rectangle at once finds the pieces,
 * finishing the small ones first. Q's rim is its open cells beside an
 * open cell outside, all in R. The update then asks:
 * - the rim holds: Q's open cells, by straight steps inside Q, group the
 *   rim alike before and after the edit, and every open cell of Q meets
 *   the rim so, before and after;
 * - the areas whose gate lies in Q lay wholly in Q before the edit.
 * For a node x in Q (a cell, or a door wholly in Q), the pieces of the
 * grid less x are then R with the cells of Q that meet the rim without
 * x, and the others: a search of Q alone from its rim, each rim node
 * joined to a virtual R (cairn__de_dfs_ring), finds every node in Q that
 * cuts the island and what it cuts off the centre, all inside Q. A node
 * y outside Q cuts what it cut before, and the same cells outside Q: Q
 * joins its rim alike before and after, and each cell of Q goes with the
 * rim cells it meets. So the one-cell cuts change only in Q, and the door
 * marks only on runs with a cell in Q: those wholly in Q are marked again
 * (as the full pass does, with Q's new cuts and the table's outside), and
 * every run that crosses Q's edge must keep its kind (so no run outside
 * sees a crossing run change) and be no door now (so no node crosses the
 * edge). The doors beside pillars wholly in Q are listed and tried again
 * after Q's search with the runs; the others must come out as before (as
 * for an update inside a dead end, with Q for the dead end). The areas
 * whose gate lies in Q give way to those the search finds; the others
 * keep their gates and their cells outside Q, and a cell of Q that no new
 * area holds joins the area of the rim node its search started from. The
 * ids are then put in the table's order again over every area
 * (dead_ends_order.c), one pass over the cells. The choice of the
 * island's centre must stand (centre_holds). A run or a door beside
 * pillars that crosses the window's edge asks for a larger one, tried
 * again up to RING_TRIES times. */
#include "dead_ends_work.h"

#include <stdlib.h>
#include <string.h>

/* Most cells an update may see changed. */
#define RING_MAX_CHANGED 64
/* The window: the changed cells' bounds grown by this many cells. */
#define RING_RADIUS 16
/* The widest and tallest window (doors crossing the edge grow it). */
#define RING_MAX_SIDE 192

/* Most cells the search outside Q may look at. */
#define RING_MAX_OUTSIDE 32768
/* Most cells Q may hold: its rectangle and the pieces that hang off it. */
#define RING_MAX_CELLS ((RING_MAX_SIDE + 1) * (RING_MAX_SIDE + 1) + RING_MAX_OUTSIDE)

/* An update's state: made by the first such update, kept for the next
 * (de->ring_work), about 2 MB. */
typedef struct cairn__de_ring {
  uint32_t changed[RING_MAX_CHANGED];
  uint32_t n_changed, d;
  int32_t x0, y0, x1, y1; /* Q's rectangle: padded columns and rows */
  uint32_t n_reg, n_list, n_rim, n_out;
  uint32_t head, active;  /* the search outside: its next cell, pieces left */
  uint32_t budget;        /* and the most cells it may look at */
  uint64_t island, open;  /* the island's open cells, the rectangle's */
  uint32_t root;          /* the island's root area */
  uint32_t need, nodes;   /* the slack and the margin the edit spends */
  uint32_t gap;           /* the slack's bound from now on */
  uint32_t classes;       /* the rim's classes in Q */
  bool uniform;           /* the edit opened cells or closed them, not both */
  /* the bounds the rectangle must take in on the next try (w 0: none),
   * from a run or a door beside pillars that crossed its edge */
  cairn_rect want;
  cairn_rect box;         /* Q's bounds */
  /* the search outside Q: its cells (a union-find over them), and per
   * root how many of its cells wait to be looked at */
  uint32_t out[RING_MAX_OUTSIDE], uf[RING_MAX_OUTSIDE], pending[RING_MAX_OUTSIDE];
  uint32_t size[RING_MAX_OUTSIDE]; /* per root, its piece's cells */
  uint64_t whole;                  /* the cells of the pieces finished */
  uint32_t late[RING_MAX_OUTSIDE], n_late, late_head; /* big pieces' cells */
  /* Q's cells (open or not), the rim's, the rim's classes before, and per
   * class a map each way for comparing groupings */
  uint32_t reg[RING_MAX_CELLS], rim[RING_MAX_CELLS], cls[RING_MAX_CELLS];
  uint32_t map[RING_MAX_CELLS], back[RING_MAX_CELLS];
} ring_work;

/* ---- the window ---------------------------------------------------------- */

static bool in_rect(const ring_work *rw, uint32_t stride, uint32_t c) {
  const int32_t x = (int32_t)(c % stride), y = (int32_t)(c / stride);
  return x >= rw->x0 && x <= rw->x1 && y >= rw->y0 && y <= rw->y1;
}

/* Whether cell c lies in Q: its rectangle, or a piece that hangs off it
 * (whose cells are open, with in[] set once they join). */
static bool in_q(const ring_work *rw, const de_scratch *sc, uint32_t stride, uint32_t c) {
  return in_rect(rw, stride, c) || sc->in[c];
}

/* Grows the rectangle to hold the door (marked before the edit) that cell
 * c lies in, if any. */
static void grow_for_door(const cairn_dead_ends *de, ring_work *rw, uint32_t c) {
  const cairn_grid *g = de->grid;
  const uint32_t stride = (uint32_t)g->stride;
  if (!de->doors[c] || !cairn__de_was_open(de, c)) return;
  const uint32_t v = node_of(g, de->doors, c), step = door_step(g, de->doors[v]);
  const uint32_t ends[2] = {v, v + (node_cells(de->doors, v) - 1u) * step};
  for (int e = 0; e < 2; e++) {
    const int32_t x = (int32_t)(ends[e] % stride), y = (int32_t)(ends[e] / stride);
    rw->x0 = x < rw->x0 ? x : rw->x0;
    rw->x1 = x > rw->x1 ? x : rw->x1;
    rw->y0 = y < rw->y0 ? y : rw->y0;
    rw->y1 = y > rw->y1 ? y : rw->y1;
  }
}

/* The rectangle round the changed cells (and the cells a try before
 * asked for), grown until no door marked before the edit crosses its
 * edge; false when it grows too large. */
static bool make_window(const cairn_dead_ends *de, ring_work *rw) {
  const cairn_grid *g = de->grid;
  const uint32_t stride = (uint32_t)g->stride;
  int32_t x0 = INT32_MAX, y0 = INT32_MAX, x1 = 0, y1 = 0;
  for (uint32_t i = 0; i < rw->n_changed; i++) {
    const int32_t x = (int32_t)(rw->changed[i] % stride), y = (int32_t)(rw->changed[i] / stride);
    x0 = x < x0 ? x : x0;
    x1 = x > x1 ? x : x1;
    y0 = y < y0 ? y : y0;
    y1 = y > y1 ? y : y1;
  }
  if (rw->want.w > 0) {
    x0 = rw->want.x < x0 ? rw->want.x : x0;
    y0 = rw->want.y < y0 ? rw->want.y : y0;
    x1 = rw->want.x + rw->want.w - 1 > x1 ? rw->want.x + rw->want.w - 1 : x1;
    y1 = rw->want.y + rw->want.h - 1 > y1 ? rw->want.y + rw->want.h - 1 : y1;
  }
  rw->x0 = x0 - RING_RADIUS > 1 ? x0 - RING_RADIUS : 1;
  rw->y0 = y0 - RING_RADIUS > 1 ? y0 - RING_RADIUS : 1;
  rw->x1 = x1 + RING_RADIUS < g->width ? x1 + RING_RADIUS : g->width;
  rw->y1 = y1 + RING_RADIUS < g->height ? y1 + RING_RADIUS : g->height;
  for (bool grew = true; grew;) {
    if (rw->x1 - rw->x0 >= RING_MAX_SIDE || rw->y1 - rw->y0 >= RING_MAX_SIDE) return false;
    const int32_t left = rw->x0, top = rw->y0, right = rw->x1, bottom = rw->y1;
    for (int32_t x = left; x <= right; x++) { /* round the edge */
      grow_for_door(de, rw, (uint32_t)top * stride + (uint32_t)x);
      grow_for_door(de, rw, (uint32_t)bottom * stride + (uint32_t)x);
    }
    for (int32_t y = top + 1; y < bottom; y++) {
      grow_for_door(de, rw, (uint32_t)y * stride + (uint32_t)left);
      grow_for_door(de, rw, (uint32_t)y * stride + (uint32_t)right);
    }
    grew = rw->x0 != left || rw->y0 != top || rw->x1 != right || rw->y1 != bottom;
  }
  rw->n_reg = 0;
  for (int32_t y = rw->y0; y <= rw->y1; y++)
    for (int32_t x = rw->x0; x <= rw->x1; x++) rw->reg[rw->n_reg++] = (uint32_t)y * stride + (uint32_t)x;
  return true;
}

/* Whether cell c was open (after: is open). */
static bool open_at(const cairn_dead_ends *de, uint32_t c, bool after) {
  return after ? de->grid->cost[c] != 0 : cairn__de_was_open(de, c);
}

/* The open cell outside Q beyond Q's cell c by straight step d, or
 * UINT32_MAX. */
static uint32_t outside(const cairn_dead_ends *de, const ring_work *rw, const de_scratch *sc,
                        uint32_t c, int d) {
  const cairn_grid *g = de->grid;
  const uint32_t n = (uint32_t)((int32_t)c + cairn__dx[d] + cairn__dy[d] * g->stride);
  return in_q(rw, sc, (uint32_t)g->stride, n) || !g->cost[n] ? UINT32_MAX : n;
}

static uint32_t uf_find(ring_work *rw, uint32_t i) {
  while (rw->uf[i] != i) i = rw->uf[i] = rw->uf[rw->uf[i]];
  return i;
}

/* at[] (the scratch's parent, free until the searches) is a sparse set
 * over the search's cells: no clearing, an entry counts when out[]
 * points back. */
static bool is_out(const ring_work *rw, const uint32_t *at, uint32_t y) {
  return at[y] < rw->n_out && rw->out[at[y]] == y;
}

/* Adds cell y to the search outside, in root's piece (itself when
 * UINT32_MAX); false when the search is full. */
static bool add_out(ring_work *rw, uint32_t *at, uint32_t y, uint32_t root) {
  if (rw->n_out == rw->budget) return false;
  at[y] = rw->n_out;
  rw->uf[rw->n_out] = root == UINT32_MAX ? rw->n_out : root;
  if (root == UINT32_MAX) rw->size[rw->n_out] = 0;
  rw->pending[root == UINT32_MAX ? rw->n_out : root]++;
  rw->size[root == UINT32_MAX ? rw->n_out : root]++;
  rw->out[rw->n_out++] = y;
  return true;
}

/* Starts the search outside the rectangle: a piece for each open cell
 * next to it. False when the search fills up. */
static bool flood_start(const cairn_dead_ends *de, ring_work *rw, const de_scratch *sc) {
  uint32_t *at = sc->k.parent;
  rw->n_out = rw->active = rw->head = rw->n_late = rw->late_head = 0;
  rw->whole = 0;
  for (uint32_t i = 0; i < rw->n_reg; i++) {
    const uint32_t c = rw->reg[i];
    if (!open_at(de, c, false) && !open_at(de, c, true)) continue;
    for (int d = 0; d < 4; d++) {
      const uint32_t y = outside(de, rw, sc, c, d);
      if (y == UINT32_MAX || is_out(rw, at, y)) continue;
      if (rw->n_out == rw->budget) return false;
      rw->pending[rw->n_out] = 0;
      add_out(rw, at, y, UINT32_MAX);
      rw->active++;
    }
  }
  return true;
}

/* Whether the piece rooted at a holds too many cells to join Q (which must
 * stay under half the island, with the pieces finished so far): it can
 * only be R. Its cells wait until no other piece has any (late), so that
 * the search finishes the small pieces first instead of walking R. */
static bool big(const ring_work *rw, uint32_t a) {
  return 2 * (rw->open + rw->whole + rw->size[a]) >= rw->island;
}

/* Looks at cell h of the search outside: joins or adds its neighbours
 * outside Q, then counts it done; false when the search fills up, or the
 * pieces finished (but the one holding the centre, R) hold too many cells
 * for Q to take them in (big). */
static bool flood_cell(const cairn_dead_ends *de, ring_work *rw, const de_scratch *sc,
                       uint32_t h) {
  uint32_t *at = sc->k.parent;
  for (int d = 0; d < 4; d++) {
    const uint32_t y = outside(de, rw, sc, rw->out[h], d);
    if (y == UINT32_MAX) continue;
    const uint32_t a = uf_find(rw, h);
    if (!is_out(rw, at, y)) {
      if (!add_out(rw, at, y, a)) return false;
      continue;
    }
    const uint32_t b = uf_find(rw, at[y]);
    if (a == b) continue;
    const uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    rw->active -= rw->pending[lo] && rw->pending[hi];
    rw->uf[hi] = lo;
    rw->pending[lo] += rw->pending[hi];
    rw->size[lo] += rw->size[hi];
  }
  const uint32_t a = uf_find(rw, h);
  if (--rw->pending[a]) return true;
  rw->active--;
  const uint32_t centre = de->centre[rw->root];
  if (!is_out(rw, at, centre) || uf_find(rw, at[centre]) != a) rw->whole += rw->size[a];
  return 2 * (rw->whole + rw->open) < rw->island;
}

/* Searches on from every piece at once, joining pieces where their
 * searches meet, until at most `left` pieces have cells left to look at
 * (the others are whole: all the grid less the rectangle holds of them),
 * the big pieces' cells last. False when the search fills up first, or Q
 * could not take in the pieces finished. */
static bool flood_on(const cairn_dead_ends *de, ring_work *rw, const de_scratch *sc,
                     uint32_t left) {
  while (rw->active > left) {
    uint32_t h;
    if (rw->head < rw->n_out) {
      h = rw->head++;
      if (big(rw, uf_find(rw, h))) {
        rw->late[rw->n_late++] = h; /* at most one entry a cell */
        continue;
      }
    } else if (rw->late_head < rw->n_late && rw->active <= left + 1) {
      h = rw->late[rw->late_head++]; /* two big pieces apart: no use going on */
    } else {
      break;
    }
    if (!flood_cell(de, rw, sc, h)) return false;
  }
  return rw->active <= left;
}

static int cmp_cell(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Puts Q's cells in index order: the rectangle's (the first `rect`, in
 * order) merged with the pieces' (sorted), through tmp. */
static void sort_cells(uint32_t *a, uint32_t n, uint32_t rect, uint32_t *tmp) {
  qsort(a + rect, n - rect, sizeof *a, cmp_cell);
  memcpy(tmp, a, n * sizeof *a);
  uint32_t i = 0, j = rect, o = 0;
  while (i < rect && j < n) a[o++] = tmp[i] < tmp[j] ? tmp[i++] : tmp[j++];
  while (i < rect) a[o++] = tmp[i++];
  while (j < n) a[o++] = tmp[j++];
}

/* The island's root area (from the rectangle's first cell open before the
 * edit) and its open cells; whether its first cell and its centre lie
 * outside the rectangle, and the rectangle holds well under half of it
 * (centre_holds asks that of Q; the checks here, before the search
 * outside, save it where Q cannot hold). */
static bool island_of(const cairn_dead_ends *de, ring_work *rw) {
  const uint32_t stride = (uint32_t)de->grid->stride;
  uint32_t i = 0;
  while (i < rw->n_reg && !cairn__de_was_open(de, rw->reg[i])) i++;
  if (i == rw->n_reg) return false;
  uint32_t r = de->area[rw->reg[i]];
  while (de->gate[r] != UINT32_MAX) r = de->area[de->gate[r]];
  rw->root = r;
  rw->island = 0;
  for (uint32_t b = r; b < de->end[r]; b++) rw->island += de->cells[b];
  rw->budget = rw->island < RING_MAX_OUTSIDE ? (uint32_t)rw->island : RING_MAX_OUTSIDE;
  rw->open = 0;
  for (uint32_t j = i; j < rw->n_reg; j++) rw->open += cairn__de_was_open(de, rw->reg[j]);
  return !in_rect(rw, stride, de->first[r]) && !in_rect(rw, stride, de->centre[r]) &&
         2 * rw->open < rw->island;
}

/* What lies outside the rectangle next to it: R, the piece of the grid
 * less the rectangle that holds the island's centre (or, when the search
 * outside has not met the centre, the one piece left unfinished), and the
 * pieces that hang off the rectangle, all there is of them found by the
 * search (a room's strip whose ways out all lead into the rectangle, a
 * wing whose only door it holds), which join Q. False when the search
 * fills up first or the centre lies in the rectangle. */
static bool one_piece(const cairn_dead_ends *de, ring_work *rw, de_scratch *sc) {
  const uint32_t rect = rw->n_reg;
  const uint32_t *at = sc->k.parent;
  if (!island_of(de, rw) || !flood_start(de, rw, sc) || !flood_on(de, rw, sc, 1)) return false;
  const uint32_t centre = de->centre[rw->root];
  uint32_t r = UINT32_MAX; /* the centre's piece, once the search met it */
  if (is_out(rw, at, centre)) r = uf_find(rw, at[centre]);
  if (r != UINT32_MAX && !rw->pending[r] && !flood_on(de, rw, sc, 0)) return false;
  if (!rw->active && r == UINT32_MAX) return false; /* every piece whole, none R */
  for (uint32_t i = 0; i < rw->n_out; i++) {
    const uint32_t p = uf_find(rw, i);
    if (!rw->pending[p] && p != r) rw->reg[rw->n_reg++] = rw->out[i];
  }
  for (uint32_t i = rect; i < rw->n_reg; i++) sc->in[rw->reg[i]] = 1;
  sort_cells(rw->reg, rw->n_reg, rect, rw->cls);
  rw->box = cairn__de_cover(de->grid, (cairn_rect){0, 0, 0, 0}, rw->reg, rw->n_reg);
  return true;
}

/* Q's open cells now into the scratch's list (index order) and in[] (1, or
 * DE_RIM on the rim: beside an open cell outside Q), the rim into rw->rim. */
static void list_cells(const cairn_dead_ends *de, ring_work *rw, de_scratch *sc) {
  const cairn_grid *g = de->grid;
  rw->n_list = rw->n_rim = 0;
  for (uint32_t i = 0; i < rw->n_reg; i++) {
    const uint32_t c = rw->reg[i];
    if (!g->cost[c]) continue;
    bool rim = false;
    for (int d = 0; d < 4 && !rim; d++) rim = outside(de, rw, sc, c, d) != UINT32_MAX;
    sc->in[c] = rim ? DE_RIM : 1u;
    sc->list[rw->n_list++] = c;
    if (rim) rw->rim[rw->n_rim++] = c;
  }
}

/* Puts the scratch's rule back on Q's cells. */
static void clean(const ring_work *rw, de_scratch *sc) {
  for (uint32_t i = 0; i < rw->n_reg; i++) cairn__de_scratch_put_back(sc, rw->reg[i]);
}

/* ---- what Q may not change ----------------------------------------------- */

/* Whether every area whose gate lies in Q lay wholly in Q before the edit
 * (its own cells there, as many as it has). k->sz counts (free until the
 * searches). */
static bool areas_inside(const cairn_dead_ends *de, const ring_work *rw, de_scratch *sc) {
  const uint32_t stride = (uint32_t)de->grid->stride;
  uint32_t *count = sc->k.sz;
  for (int pass = 0; pass < 3; pass++)
    for (uint32_t i = 0; i < rw->n_reg; i++) {
      const uint32_t c = rw->reg[i];
      if (!cairn__de_was_open(de, c)) continue;
      const uint32_t a = de->area[c];
      if (de->gate[a] == UINT32_MAX || !in_q(rw, sc, stride, de->gate[a])) continue;
      if (pass == 0) count[a] = 0;
      else if (pass == 1) count[a]++;
      else if (count[a] != de->cells[a]) return false;
    }
  return true;
}

/* Q's open cells (before or after the edit) by class of straight steps
 * inside Q, from the rim, into k->low (class + 1; free until the
 * searches, k->order the queue); false when an open cell meets no rim
 * cell so. The classes into *n. */
static bool classes(const cairn_dead_ends *de, const ring_work *rw, de_scratch *sc, bool after,
                    uint32_t *n) {
  const cairn_grid *g = de->grid;
  const uint32_t stride = (uint32_t)g->stride;
  uint32_t *mark = sc->k.low, *queue = sc->k.order;
  for (uint32_t i = 0; i < rw->n_reg; i++) mark[rw->reg[i]] = 0;
  uint32_t count = 0, labelled = 0, open = 0;
  for (uint32_t i = 0; i < rw->n_rim; i++) {
    const uint32_t s = rw->rim[i];
    if (mark[s]) continue;
    uint32_t head = 0, tail = 0;
    mark[s] = ++count;
    queue[tail++] = s;
    while (head < tail) {
      const uint32_t c = queue[head++];
      for (int d = 0; d < 4; d++) {
        const uint32_t y = (uint32_t)((int32_t)c + cairn__dx[d] + cairn__dy[d] * g->stride);
        if (!in_q(rw, sc, stride, y) || !open_at(de, y, after) || mark[y]) continue;
        mark[y] = count;
        queue[tail++] = y;
      }
    }
    labelled += tail;
  }
  for (uint32_t i = 0; i < rw->n_reg; i++) open += open_at(de, rw->reg[i], after);
  *n = count;
  return labelled == open;
}

/* Whether Q groups its rim alike before and after the edit, every open
 * cell meeting the rim both times (the rim's cells are the same: none is
 * a changed cell). */
static bool rim_holds(const cairn_dead_ends *de, ring_work *rw, de_scratch *sc) {
  const uint32_t *mark = sc->k.low;
  uint32_t n_before, n_after;
  if (!classes(de, rw, sc, false, &n_before)) return false;
  for (uint32_t i = 0; i < rw->n_rim; i++) rw->cls[i] = mark[rw->rim[i]];
  if (!classes(de, rw, sc, true, &n_after) || n_before != n_after) return false;
  rw->classes = n_before;
  for (uint32_t k = 0; k <= n_before; k++) rw->map[k] = rw->back[k] = 0;
  for (uint32_t i = 0; i < rw->n_rim; i++) {
    const uint32_t a = rw->cls[i], b = mark[rw->rim[i]];
    if (!rw->map[a]) rw->map[a] = b;
    if (!rw->back[b]) rw->back[b] = a;
    if (rw->map[a] != b || rw->back[b] != a) return false;
  }
  return true;
}

/* Whether cell x and its straight neighbours lie outside Q. */
static bool clear_of(const cairn_dead_ends *de, const ring_work *rw, const de_scratch *sc,
                     uint32_t x) {
  const cairn_grid *g = de->grid;
  const uint32_t stride = (uint32_t)g->stride;
  for (int d = -1; d < 4; d++) {
    const int32_t off = d < 0 ? 0 : cairn__dx[d] + cairn__dy[d] * g->stride;
    if (in_q(rw, sc, stride, (uint32_t)((int32_t)x + off))) return false;
  }
  return true;
}

/* Whether the last search's root r stays where it is: the first cell of
 * the island's central area in the search from its first cell, which
 * enters that area from a node beside r (or starts there: r the first
 * cell), at the first neighbour of that node's in the area. So r, each
 * node beside it (a cell, or a door by the marks before, which are the
 * marks after outside Q) and their neighbours lie outside Q, where no
 * cell changes its side of any node outside Q. */
static bool centre_stays(const cairn_dead_ends *de, const ring_work *rw, const de_scratch *sc,
                         uint32_t r) {
  const cairn_grid *g = de->grid;
  if (!clear_of(de, rw, sc, r)) return false;
  for (int d = 0; d < 4; d++) {
    const uint32_t n = (uint32_t)((int32_t)r + cairn__dx[d] + cairn__dy[d] * g->stride);
    if (!cairn__de_was_open(de, n)) continue;
    const uint32_t v = node_of(g, de->doors, n), step = door_step(g, de->doors[v]);
    for (unsigned i = 0; i < node_cells(de->doors, v); i++)
      if (!clear_of(de, rw, sc, v + i * step)) return false;
  }
  return true;
}

/* The root area of the island that holds Q (its rim's first cell's), into
 * rw->root; whether its first cell stays outside Q, its centre stays
 * (centre_stays), and the choice of the central area stands: the sizes
 * the walk from the first cell compared (dead_ends.c, pick_roots) move by
 * less than its slack, the subtrees at either search's root by less than
 * the margin. An area hanging off a node outside Q keeps its cells
 * outside Q, and holds Q's cells by the rim's classes, alike before and
 * after: so its size moves by at most the d cells opened or closed when
 * Q's cells keep their classes (one class; or an edit that only opened
 * cells, or only closed them, which can neither part a cell from its
 * class nor join it to another: the classes stay), else by at most Q's
 * cells. An area hanging off a node in Q lies in Q and stays below half
 * the island when Q does, by a gap that bounds the slack from then on. */
static bool centre_holds(const cairn_dead_ends *de, ring_work *rw, const de_scratch *sc) {
  const cairn_grid *g = de->grid;
  const uint32_t stride = (uint32_t)g->stride;
  const uint32_t r = rw->root;
  const uint32_t first = de->first[r];
  if (!g->cost[first] || rw->changed[0] < first || in_q(rw, sc, stride, first) ||
      !centre_stays(de, rw, sc, de->centre[r]))
    return false;
  const uint64_t island = rw->island;
  uint64_t cells = 0;
  for (uint32_t i = 0; i < rw->n_reg; i++)
    cells += open_at(de, rw->reg[i], true) || open_at(de, rw->reg[i], false);
  if (2 * (cells + rw->d) + rw->d + 4 >= island) return false;
  const uint64_t need = rw->classes == 1 || rw->uniform ? 2 * (uint64_t)rw->d + 2 : 2 * cells + 2;
  rw->need = (uint32_t)need;
  rw->gap = (uint32_t)((island - rw->d) / 2 - (cells + rw->d) - 1);
  rw->nodes = de->margin[r] == UINT32_MAX ? 0 : (uint32_t)(2 * cells + 2);
  return need < de->slack[r] && (de->margin[r] == UINT32_MAX || rw->nodes < de->margin[r]);
}

/* Asks the next try's rectangle to take in the n cells from c by step. */
static void want_cells(const cairn_dead_ends *de, ring_work *rw, uint32_t c, uint32_t step,
                       unsigned n) {
  const uint32_t ends[2] = {c, c + (n ? n - 1u : 0u) * step};
  rw->want = cairn__de_cover(de->grid, rw->want, ends, 2);
}

/* Whether the full pass could choose otherwise than before about a door
 * beside pillars that the search of Q does not try again (those whose run
 * lies wholly in Q): one the edit touches (cairn__de_pillars_stay, with Q
 * for the dead end), or one whose run lies partly in Q and was marked, or
 * was kept out only by cells in Q, whose cut status the edit may move. */
static bool pillars_move(const cairn_dead_ends *de, ring_work *rw, de_scratch *sc) {
  const cairn_grid *g = de->grid;
  sc->moved.n = 0;
  for (uint32_t i = 0; i < rw->n_changed; i++)
    if (!cairn__de_pillars_stay(de, rw->changed[i], sc->in, &sc->moved)) return true;
  for (size_t k = 0; k < de->pillars.n; k++) {
    const cairn__de_pillar *p = &de->pillars.p[k];
    const uint32_t step = p->down ? (uint32_t)g->stride : 1u;
    unsigned in = 0;
    bool kept_out = false; /* by a cell outside Q */
    for (unsigned i = 0; i < p->len; i++) {
      const bool inside = sc->in[p->w + i * step] != 0;
      in += inside;
      kept_out |= (p->blocks >> i & 1u) && !inside;
    }
    if (!in || in == p->len) continue;
    if (p->marked || !kept_out) {
      want_cells(de, rw, p->w, step, p->len); /* its run and its stretch */
      want_cells(de, rw, p->c, step, p->len + 1u);
      return true;
    }
  }
  return false;
}

/* ---- the searches -------------------------------------------------------- */

/* The search of Q from its rim (cairn__de_dfs_ring), over the cells alone
 * or the runs marked in k->door; true when it reached every node. */
static bool search(const cairn_dead_ends *de, const ring_work *rw, de_scratch *sc, bool doors) {
  const cairn_grid *g = de->grid;
  de_work *k = &sc->k;
  int32_t off[8];
  move_offsets(g, off);
  uint32_t nodes = 0;
  for (uint32_t i = 0; i < rw->n_list; i++) {
    const uint32_t c = sc->list[i];
    const bool part = doors && (k->door[c] & DOOR_PART);
    k->disc[c] = part ? UINT32_MAX : 0;
    nodes += !part;
  }
  /* a door is on the rim when a cell of it is */
  for (uint32_t i = 0; i < rw->n_rim; i++) {
    const uint32_t c = rw->rim[i];
    sc->in[doors ? node_of(g, k->door, c) : c] = DE_RIM;
  }
  k->time = 0;
  for (uint32_t i = 0; i < rw->n_rim; i++) {
    const uint32_t v = doors ? node_of(g, k->door, rw->rim[i]) : rw->rim[i];
    if (!k->disc[v]) cairn__de_dfs_ring(g, k, off, v, doors, sc->in);
  }
  /* in[] back to the cells' own rim marks */
  for (uint32_t i = 0; i < rw->n_list; i++) sc->in[sc->list[i]] = 1;
  for (uint32_t i = 0; i < rw->n_rim; i++) sc->in[rw->rim[i]] = DE_RIM;
  return k->time == nodes;
}

/* Whether every run that crosses Q's edge (a cell of it in Q next to one
 * outside along it) keeps its kind and is no door now (Q's cuts now in
 * k->aux, the table's outside). */
static bool edge_runs_stay(const cairn_dead_ends *de, ring_work *rw, de_scratch *sc) {
  const uint32_t stride = (uint32_t)de->grid->stride;
  de_view now = cairn__de_view_of(de, false);
  now.cut = sc->k.aux;
  now.in = sc->in;
  const de_view was = cairn__de_view_of(de, true);
  for (uint32_t i = 0; i < rw->n_list; i++) {
    const uint32_t c = sc->list[i];
    for (unsigned way = 0; way < 2; way++) {
      /* east and west for a row, south and north for a column */
      if (outside(de, rw, sc, c, (int)(2 * way)) == UINT32_MAX &&
          outside(de, rw, sc, c, (int)(2 * way + 1)) == UINT32_MAX)
        continue;
      uint32_t f0 = 0, f1 = 0;
      const unsigned t = cairn__de_run_kind(&now, c, way, &f0);
      const unsigned u = cairn__de_run_kind(&was, c, way, &f1);
      if (t == u && (t == DE_NO_RUN || !cairn__de_door_rule(&now, f0, t))) continue;
      /* the next try takes in the run, or the reach of one */
      const uint32_t step = way ? stride : 1u, reach = CAIRN__DE_MAX_DOOR * step;
      if (t != DE_NO_RUN) want_cells(de, rw, f0, step, t / 2);
      if (u != DE_NO_RUN) want_cells(de, rw, f1, step, u / 2);
      if (t == DE_NO_RUN || u == DE_NO_RUN)
        want_cells(de, rw, c > reach ? c - reach : c, step, 2 * CAIRN__DE_MAX_DOOR + 1);
      return false;
    }
  }
  return true;
}

/* The searches of Q: without doors (its cuts), the doors among its runs
 * marked, with them, and the doors beside pillars wholly in Q tried (then
 * the search again when one was marked); false when the edit is not of
 * this kind. */
static bool search_window(const cairn_dead_ends *de, ring_work *rw, de_scratch *sc) {
  const cairn_grid *g = de->grid;
  de_work *k = &sc->k;
  if (!search(de, rw, sc, false)) return false;
  cairn__de_mark_cuts_here(k);
  cairn__de_find_doors_among(g, k->door, k->aux, sc->list, rw->n_list, sc->in,
                             de->cell_gate_bits, k->sz);
  if (!edge_runs_stay(de, rw, sc) || !search(de, rw, sc, true)) return false;
  cairn__de_mark_cuts_here(k);
  if (!cairn__de_pillars_in(de, k->door, k->aux, sc->in, rw->box, &sc->fresh)) return false;
  bool marked = false;
  for (size_t i = 0; i < sc->fresh.n; i++) marked |= sc->fresh.p[i].marked != 0;
  return !marked || search(de, rw, sc, true);
}

/* ---- the areas ----------------------------------------------------------- */

/* The areas after the update, by the ids they have for now: the table's
 * for those kept, count + 1 on for those the search found. */
typedef struct ring_areas {
  uint32_t n;     /* ids 1 .. n */
  uint32_t *parent, *gate, *cells, *fresh, *first_child, *next_child;
  uint8_t *door, *alive;
  size_t bytes;
} ring_areas;

static bool areas_alloc(const cairn_allocator *a, ring_areas *ra, uint32_t n) {
  const size_t m = (size_t)n + 1;
  ra->n = n;
  ra->bytes = m * (6 * sizeof(uint32_t) + 2);
  uint8_t *b = cairn__alloc(a, ra->bytes);
  if (!b) return false;
  uint32_t *w = (uint32_t *)(void *)b;
  ra->parent = w;
  ra->gate = w + m;
  ra->cells = w + 2 * m;
  ra->fresh = w + 3 * m;
  ra->first_child = w + 4 * m;
  ra->next_child = w + 5 * m;
  ra->door = (uint8_t *)(w + 6 * m);
  ra->alive = ra->door + m;
  return true;
}

/* A cell of node v on the rim (its cells' areas before the edit may
 * differ when it is a door marked anew; the rim's is one kept). */
static uint32_t rim_cell(const cairn_grid *g, const de_work *k, const uint8_t *in, uint32_t v) {
  const uint32_t step = door_step(g, k->door[v]);
  for (unsigned i = 0; i < node_cells(k->door, v); i++)
    if (in[v + i * step] == DE_RIM) return v + i * step;
  return v;
}

/* Labels Q's nodes from the last search into k->low (free after it): a
 * rim node's area is the one its cells had (an area kept: its gate lies
 * outside Q), a HEAD node starts a new area hanging off its parent, any
 * other node joins its parent's. The new areas into ra (ids count + 1 on).
 * Returns how many. */
static uint32_t label_nodes(const cairn_dead_ends *de, de_work *k, const uint8_t *in,
                            ring_areas *ra) {
  uint32_t fresh = 0;
  for (uint32_t i = 0; i < k->time; i++) {
    const uint32_t v = k->order[i], u = k->parent[v];
    if (u == v) {
      k->low[v] = de->area[rim_cell(de->grid, k, in, v)];
    } else if (k->next[v] & HEAD) {
      const uint32_t id = de->count + ++fresh;
      ra->gate[id] = u;
      ra->parent[id] = k->low[u];
      ra->door[id] = node_cells(k->door, u) > 1 ? (uint8_t)(k->door[u] & DOOR_CODE) : 0u;
      ra->cells[id] = 0;
      ra->alive[id] = 1;
      k->low[v] = id;
    } else {
      k->low[v] = k->low[u];
    }
  }
  return fresh;
}

/* The areas kept (those whose gate lies outside Q), the ones whose gate
 * lies in Q gone; every area's cells counted again over Q (after
 * label_nodes). */
static void keep_areas(const cairn_dead_ends *de, const ring_work *rw, const de_scratch *sc,
                       ring_areas *ra) {
  const cairn_grid *g = de->grid;
  const uint32_t stride = (uint32_t)g->stride;
  for (uint32_t a = 1; a <= de->count; a++) {
    const uint32_t u = de->gate[a];
    ra->alive[a] = u == UINT32_MAX || !in_q(rw, sc, stride, u);
    ra->gate[a] = u;
    ra->parent[a] = u == UINT32_MAX ? 0 : de->area[u];
    ra->cells[a] = de->cells[a];
    ra->door[a] = de->door[a];
  }
  for (uint32_t i = 0; i < rw->n_reg; i++)
    if (cairn__de_was_open(de, rw->reg[i])) ra->cells[de->area[rw->reg[i]]]--;
  for (uint32_t i = 0; i < rw->n_list; i++) {
    const uint32_t c = sc->list[i];
    ra->cells[sc->k.low[node_of(g, sc->k.door, c)]]++;
  }
}

/* Ids in preorder (roots in their order, children in any: the table's
 * order follows) into ra->fresh; returns how many areas live. */
static uint32_t number(ring_areas *ra, uint32_t *stack) {
  for (uint32_t a = 0; a <= ra->n; a++) ra->first_child[a] = 0;
  for (uint32_t a = ra->n; a >= 1; a--) {
    if (!ra->alive[a] || !ra->parent[a]) continue;
    ra->next_child[a] = ra->first_child[ra->parent[a]];
    ra->first_child[ra->parent[a]] = a;
  }
  uint32_t id = 0;
  for (uint32_t r = 1; r <= ra->n; r++) {
    if (!ra->alive[r] || ra->parent[r]) continue;
    uint32_t sp = 0;
    stack[sp++] = r;
    while (sp) {
      const uint32_t a = stack[--sp];
      ra->fresh[a] = ++id;
      for (uint32_t c = ra->first_child[a]; c; c = ra->next_child[c]) stack[sp++] = c;
    }
  }
  return id;
}

/* Per-area arrays for the live areas by their new ids: end by subtree
 * sizes, depth by parents, the roots' first cell, slack, margin and
 * centre kept (less what the edit spends). */
static void fill_arrays(const cairn_dead_ends *de, const ring_work *rw, const ring_areas *ra,
                        de_arrays *r) {
  for (uint32_t a = 1; a <= ra->n; a++) {
    if (!ra->alive[a]) continue;
    const uint32_t to = ra->fresh[a];
    const bool kept = a <= de->count;
    r->gate[to] = ra->gate[a];
    r->cells[to] = ra->cells[a];
    r->door[to] = ra->door[a];
    r->end[to] = to + 1;
    r->depth[to] = ra->parent[a] ? ra->fresh[ra->parent[a]] : 0; /* for now: the parent */
    r->first[to] = kept ? de->first[a] : 0;
    r->slack[to] = kept ? de->slack[a] : 0;
    r->margin[to] = kept ? de->margin[a] : 0;
    r->centre[to] = kept ? de->centre[a] : 0;
  }
  const uint32_t root = ra->fresh[rw->root];
  r->slack[root] -= rw->need;
  if (r->slack[root] > rw->gap) r->slack[root] = rw->gap;
  if (r->margin[root] != UINT32_MAX) r->margin[root] -= rw->nodes;
  /* in preorder a child's id is above its parent's: from the last back,
   * each subtree's end reaches its parent; from the first on, depths */
  for (uint32_t to = r->count; to >= 1; to--) {
    const uint32_t up = r->depth[to];
    if (up && r->end[to] > r->end[up]) r->end[up] = r->end[to];
  }
  for (uint32_t to = 1; to <= r->count; to++) {
    const uint32_t up = r->depth[to];
    r->depth[to] = up ? r->depth[up] + 1 : 0;
  }
}

/* Every cell's area by its new id: Q's open cells from their nodes'
 * labels (k->low), closed ones 0, the rest through the ids' map. */
static void relabel(cairn_dead_ends *de, const ring_work *rw, const de_scratch *sc,
                    const ring_areas *ra) {
  const cairn_grid *g = de->grid;
  for (size_t c = 0; c < de->padded; c++)
    if (de->area[c]) de->area[c] = ra->fresh[de->area[c]];
  for (uint32_t i = 0; i < rw->n_reg; i++) de->area[rw->reg[i]] = 0;
  for (uint32_t i = 0; i < rw->n_list; i++) {
    const uint32_t c = sc->list[i];
    de->area[c] = ra->fresh[sc->k.low[node_of(g, sc->k.door, c)]];
  }
}

/* The new areas in: the arrays remade, every cell's id, then the ids in
 * the table's order. False when memory runs out (the table then written
 * in part: the caller searches the whole grid). */
static bool put_areas(cairn_dead_ends *de, const ring_work *rw, de_scratch *sc) {
  ring_areas ra;
  const uint32_t most = de->count + rw->n_list; /* each node starts one at most */
  if (!areas_alloc(&de->alloc, &ra, most)) return false;
  const uint32_t fresh = label_nodes(de, &sc->k, sc->in, &ra);
  keep_areas(de, rw, sc, &ra);
  ra.n = de->count + fresh;
  const uint32_t count = number(&ra, sc->k.order);
  de_arrays r;
  bool ok = cairn__de_arrays_alloc(&de->alloc, &r, count);
  if (ok) {
    fill_arrays(de, rw, &ra, &r);
    relabel(de, rw, sc, &ra);
    cairn__de_put_areas(de, &r);
    ok = cairn__de_canonical(de, 1, count + 1, NULL, 0);
  }
  cairn__free(&de->alloc, ra.parent, ra.bytes);
  return ok;
}

/* ---- the update ---------------------------------------------------------- */

/* Q's door marks and dead bits as the search left them. */
static void keep_marks(cairn_dead_ends *de, const ring_work *rw, const de_scratch *sc) {
  for (uint32_t i = 0; i < rw->n_reg; i++) {
    const uint32_t c = rw->reg[i];
    de->doors[c] = sc->k.door[c];
    const uint64_t bit = 1ull << (c & 63u);
    const bool dead = de->grid->cost[c] && de->gate[de->area[c]] != UINT32_MAX;
    de->dead_bits[c >> 6] = dead ? de->dead_bits[c >> 6] | bit : de->dead_bits[c >> 6] & ~bit;
  }
}

/* Most windows an update tries, each taking in what crossed the last
 * one's edge. */
#define RING_TRIES 3

/* Whether the edit opened cells or closed them, not both. */
static bool uniform(const cairn_dead_ends *de, const ring_work *rw) {
  bool opened = false, closed = false;
  for (uint32_t i = 0; i < rw->n_changed; i++) {
    const uint32_t c = rw->changed[i];
    opened |= de->grid->cost[c] && !cairn__de_was_open(de, c);
    closed |= !de->grid->cost[c] && cairn__de_was_open(de, c);
  }
  return !(opened && closed);
}

/* One window: its checks and searches; false (its cells cleaned) when the
 * edit is not shown to be of this kind there. */
static bool try_window(cairn_dead_ends *de, ring_work *rw, de_scratch *sc) {
  if (!make_window(de, rw)) return false;
  bool ok = one_piece(de, rw, sc);
  if (ok) list_cells(de, rw, sc);
  ok = ok && rw->n_rim && areas_inside(de, rw, sc) && rim_holds(de, rw, sc) &&
       centre_holds(de, rw, sc) && !pillars_move(de, rw, sc) &&
       search_window(de, rw, sc);
  if (!ok) clean(rw, sc);
  return ok;
}

/* Writes the window's areas, marks and doors beside pillars into the
 * table; false, the table marked not current, when memory runs out. */
static bool apply(cairn_dead_ends *de, ring_work *rw, de_scratch *sc) {
  bool done = put_areas(de, rw, sc);
  if (done) {
    keep_marks(de, rw, sc);
    /* the list short of Q's doors beside pillars: the caller searches all */
    done = cairn__de_pillars_join(de, sc->in, &sc->fresh, &sc->moved) &&
           cairn__de_pillars_replace(de, sc->in, &sc->fresh, &sc->moved);
  }
  clean(rw, sc);
  if (!done) {
    de->current = false; /* written in part: the whole grid */
    return false;
  }
  cairn__de_set_stats_inside(de, rw->changed, rw->n_changed, rw->box);
  return true;
}

bool cairn__de_update_ring(cairn_dead_ends *de) {
  de_scratch *sc = cairn__de_scratch_of(de);
  if (!sc) return false;
  if (!de->ring_work) de->ring_work = cairn__alloc_zero(&de->alloc, sizeof *de->ring_work);
  ring_work *rw = de->ring_work;
  if (!rw || !cairn__de_changed_cells(de, rw->changed, RING_MAX_CHANGED, &rw->n_changed, &rw->d))
    return false;
  rw->uniform = uniform(de, rw);
  const cairn_rect none = {0, 0, 0, 0};
  rw->want = none;
  for (int tries = 0; tries < RING_TRIES; tries++) {
    const cairn_rect asked = rw->want;
    if (try_window(de, rw, sc)) return apply(de, rw, sc);
    /* another try only when something crossed the edge */
    if (!memcmp(&asked, &rw->want, sizeof asked)) return false;
  }
  return false;
}

size_t cairn__de_ring_bytes(const cairn_dead_ends *de) {
  const ring_work *rw = de->ring_work;
  return rw ? sizeof *rw : 0;
}

void cairn__de_ring_free(cairn_dead_ends *de) {
  ring_work *rw = de->ring_work;
  if (!rw) return;
  cairn__free(&de->alloc, rw, sizeof *rw);
  de->ring_work = NULL;
}
