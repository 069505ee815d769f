/* Jump tables (cairn_jumps): for every open cell and each of the 8
 * directions, where jump point search's scan from that cell stops, so a
 * search with them (cairn_jps_plus, search_jps.c) looks the answer up
 * instead of scanning (JPS+, Harabor and Grastien, "Improving Jump Point
 * Search", ICAPS 2014).
 *
 * An entry e of a straight direction: e > 0, the scan's first jump point
 * (a cell with a forced neighbour) is e cells on; e <= 0, there is none and
 * the line is open for -e cells. An entry of a diagonal direction: e > 0,
 * the e-th diagonal cell is the first whose straight components have a jump
 * point; e <= 0, there is none and the diagonal is open for -e steps. Each
 * entry follows from the next cell's, so every line is filled from its far
 * end, and after an edit a change walks back along the lines it reaches
 * until an entry comes out as it was. */
#include "jumps_internal.h"

#include <string.h>

/* Bytes of the tables of grid g. */
static size_t table_bytes(const cairn_grid *g) {
  return g->padded * 8 * sizeof(int16_t);
}

/* Whether open cell q, entered by a straight step of `step`, has a forced
 * neighbour: a side cell open whose predecessor's side cell is blocked. */
static bool forced(const uint8_t *cost, uint32_t q, int32_t step, int32_t side) {
  const uint32_t back = (uint32_t)((int32_t)q - step);
  const uint32_t s1 = (uint32_t)((int32_t)q + side), b1 = (uint32_t)((int32_t)back + side);
  const uint32_t s2 = (uint32_t)((int32_t)q - side), b2 = (uint32_t)((int32_t)back - side);
  return (cost[s1] && !cost[b1]) || (cost[s2] && !cost[b2]);
}

static int16_t onward(int16_t next) {
  return (int16_t)(next > 0 ? next + 1 : next - 1);
}

/* The entry of open cell c in straight direction d (< 4). */
static int16_t straight_entry(const cairn_jumps *j, uint32_t c, int d) {
  const uint8_t *cost = j->grid->cost;
  const int32_t step = j->off[d], side = d < 2 ? j->grid->stride : 1;
  const uint32_t q = (uint32_t)((int32_t)c + step);
  if (!cost[q]) return 0;
  if (forced(cost, q, step, side)) return 1;
  return onward(j->e[(size_t)q * 8 + (size_t)d]);
}

/* The straight components of diagonal d: east or west, south or north. */
static int horizontal_of(int d) { return cairn__dx[d] > 0 ? 0 : 1; }
static int vertical_of(int d) { return cairn__dy[d] > 0 ? 2 : 3; }

/* The entry of open cell c in diagonal direction d (>= 4). */
static int16_t diagonal_entry(const cairn_jumps *j, uint32_t c, int d) {
  if (!(j->grid->moves[c] >> d & 1u)) return 0;
  const size_t q = (size_t)((int32_t)c + j->off[d]) * 8;
  if (j->e[q + (size_t)horizontal_of(d)] > 0 || j->e[q + (size_t)vertical_of(d)] > 0) return 1;
  return onward(j->e[q + (size_t)d]);
}

/* One line of direction d through padded cell `from` (its far end first:
 * walked against d), every cell's entry redone. */
static void fill_line(cairn_jumps *j, uint32_t from, int d) {
  const uint8_t *cost = j->grid->cost;
  for (uint32_t c = from; cost[c]; c = (uint32_t)((int32_t)c - j->off[d]))
    j->e[(size_t)c * 8 + (size_t)d] =
        d < 4 ? straight_entry(j, c, d) : diagonal_entry(j, c, d);
}

/* Every entry, straight directions first (the diagonals read them). Each
 * line is filled from the cells just before the border or a wall. */
static void fill_all(cairn_jumps *j) {
  const cairn_grid *g = j->grid;
  const int32_t *off = j->off;
  memset(j->e, 0, table_bytes(g));
  for (int d = 0; d < 8; d++) /* a cell whose next cell in d is blocked ends a line */
    for (int32_t y = 0; y < g->height; y++) {
      uint32_t c = cairn__grid_index(g, 0, y);
      for (int32_t x = 0; x < g->width; x++, c++)
        if (g->cost[c] && !g->cost[(uint32_t)((int32_t)c + off[d])]) fill_line(j, c, d);
    }
}

cairn_status cairn_jumps_create(const cairn_grid *grid, const cairn_allocator *alloc,
                                cairn_jumps **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!grid) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_jumps *j = cairn__alloc_zero(&a, sizeof *j);
  if (!j) return CAIRN_ERR_NOMEM;
  j->alloc = a;
  j->grid = grid;
  for (int d = 0; d < 8; d++) j->off[d] = cairn__dx[d] + cairn__dy[d] * grid->stride;
  j->e = cairn__alloc(&a, table_bytes(grid));
  if (!j->e) {
    cairn_jumps_destroy(j);
    return CAIRN_ERR_NOMEM;
  }
  fill_all(j);
  j->version = grid->edits;
  *out = j;
  return CAIRN_OK;
}

void cairn_jumps_destroy(cairn_jumps *j) {
  if (!j) return;
  cairn_allocator a = j->alloc;
  cairn__free(&a, j->e, table_bytes(j->grid));
  cairn__free(&a, j, sizeof *j);
}

size_t cairn_jumps_memory(const cairn_jumps *j) {
  return j ? sizeof *j + table_bytes(j->grid) : 0;
}

/* Redoes the entries of open cell c in diagonal d and, while they change,
 * of the cells behind it on its line. */
static void walk_back(cairn_jumps *j, uint32_t c, int d) {
  const uint8_t *cost = j->grid->cost;
  for (; cost[c]; c = (uint32_t)((int32_t)c - j->off[d])) {
    int16_t *e = &j->e[(size_t)c * 8 + (size_t)d];
    const int16_t v = diagonal_entry(j, c, d);
    if (v == *e) return;
    *e = v;
  }
}

/* Straight direction d's lines through cell c redone; every cell whose
 * "jump point ahead" changed starts the walk back of the two diagonals
 * that read it. */
static void redo_straight(cairn_jumps *j, uint32_t c, int d) {
  const uint8_t *cost = j->grid->cost;
  /* the far end of the line through c: the last open cell in d */
  uint32_t end = c;
  while (cost[(uint32_t)((int32_t)end + j->off[d])])
    end = (uint32_t)((int32_t)end + j->off[d]);
  for (uint32_t q = end; cost[q]; q = (uint32_t)((int32_t)q - j->off[d])) {
    int16_t *e = &j->e[(size_t)q * 8 + (size_t)d];
    const int16_t v = straight_entry(j, q, d);
    const bool ahead = *e > 0;
    *e = v;
    if ((v > 0) == ahead) continue;
    /* the diagonals whose component d is: they read q's entry from the
     * cell before q on their line */
    for (int k = 4; k < 8; k++)
      if (horizontal_of(k) == d || vertical_of(k) == d)
        walk_back(j, (uint32_t)((int32_t)q - j->off[k]), k);
  }
}

/* The entries an edit of the cells in r can change: the straight lines of
 * the rows and columns through r and one cell round it (a cell's
 * passability decides the forced neighbours of the lines beside it), the
 * diagonals those lines feed (redo_straight), and the diagonals out of r
 * and one cell round it (a diagonal move reads the cells beside it). */
static void update_rect(cairn_jumps *j, cairn_rect r) {
  const cairn_grid *g = j->grid;
  const int32_t x0 = r.x > 0 ? r.x - 1 : 0, y0 = r.y > 0 ? r.y - 1 : 0;
  const int32_t x1 = r.x + r.w < g->width ? r.x + r.w : g->width - 1;
  const int32_t y1 = r.y + r.h < g->height ? r.y + r.h : g->height - 1;
  for (int32_t y = r.y; y < r.y + r.h; y++) /* a blocked cell keeps no entry */
    for (int32_t x = r.x; x < r.x + r.w; x++) {
      const uint32_t c = cairn__grid_index(g, x, y);
      if (!g->cost[c]) memset(&j->e[(size_t)c * 8], 0, 8 * sizeof *j->e);
    }
  for (int32_t y = y0; y <= y1; y++) /* each open run of the rows, once */
    for (int32_t x = 0; x < g->width; x++) {
      const uint32_t c = cairn__grid_index(g, x, y);
      if (!g->cost[c] || g->cost[c - 1]) continue;
      redo_straight(j, c, 0);
      redo_straight(j, c, 1);
    }
  for (int32_t x = x0; x <= x1; x++)
    for (int32_t y = 0; y < g->height; y++) {
      const uint32_t c = cairn__grid_index(g, x, y);
      if (!g->cost[c] || g->cost[c - (uint32_t)g->stride]) continue;
      redo_straight(j, c, 2);
      redo_straight(j, c, 3);
    }
  for (int32_t y = y0; y <= y1; y++)
    for (int32_t x = x0; x <= x1; x++)
      for (int d = 4; d < 8; d++) walk_back(j, cairn__grid_index(g, x, y), d);
}

cairn_status cairn_jumps_update(cairn_jumps *j, cairn_rect r) {
  if (!j || r.w < 0 || r.h < 0) return CAIRN_ERR_ARG;
  const cairn_grid *g = j->grid;
  if (r.x < 0 || r.y < 0 || r.w > g->width - r.x || r.h > g->height - r.y)
    return CAIRN_ERR_RANGE;
  if (r.w && r.h) update_rect(j, r);
  j->version = g->edits;
  return CAIRN_OK;
}
