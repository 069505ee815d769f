/* Swamps: corners of rooms that no shortest path between two cells
 * outside them needs (Pochter, Zohar and Rosenschein, "Using Swamps to
 * Improve Optimal Pathfinding", 2009), kept in the dead-end table beside
 * its areas. A plain A* skips every swamp that holds neither its start
 * nor its goal.
 *
 * The swamps found here are triangles in the corner of two straight walls:
 * seen from the corner cell c, with (sx, sy) pointing into the room, the
 * cells c + (sx i, sy j) with i, j >= 0 and i + j < D (the size, at least
 * CAIRN__DE_MIN_SWAMP). One is kept when:
 * - the two walls close it: the cells just past the corner's column and
 *   row, from one before the triangle to one past its line i + j = D, are
 *   blocked;
 * - it is open and its band, the lines i + j = D, D + 1 and D + 2 from wall
 *   to wall, is open too, every cell at the grid's cheapest terrain and in
 *   the triangle's dead-end area;
 * - neither the triangle nor its first two lines lie within one cell of an
 *   earlier swamp.
 * Why it is exact: a cell outside the triangle next to it lies on line D
 * or D + 1. Between two such cells a walk along those lines (diagonal steps
 * along a line, at most one straight step between the two) costs their
 * octile distance at the cheapest terrain, which no path costs less; the
 * lines' cells are open, so those diagonal steps cut no corner. So a
 * shortest path that enters the triangle can leave it for the walk at no
 * cost, and a search that never enters the triangle finds the same cost
 * (the argument is Pochter's, for a region whose border cells are joined
 * that cheaply outside it). The walk's cells lie in no other swamp (they
 * are within one cell of this one), so it holds with every other swamp
 * skipped too, and in the triangle's own area, so with the dead ends a
 * search skips. Only searches whose steps cost the terrain alone may skip
 * them (cairn__de_begin): plain, unbounded A*.
 *
 * Ids are 1 .. 65535 and wrap: two swamps may share one, and a search
 * then enters both when it starts or ends in either, which is still
 * exact (skipping any subset of swamps is). */
#include "dead_ends_work.h"

#include <string.h>

/* Open at the cheapest terrain and in area `area`. */
static bool plain_cell(const cairn_dead_ends *de, uint8_t least, uint32_t c, uint32_t area) {
  return de->grid->cost[c] == least && de->area[c] == area;
}

/* Not within one cell of any swamp found so far (near), or not in one. */
static bool apart(const cairn_dead_ends *de, uint32_t c, bool near) {
  if (!near) return !de->swamp[c];
  const int32_t s = de->grid->stride;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      if (de->swamp[(uint32_t)((int32_t)c + dx + dy * s)]) return false;
  return true;
}

/* The padded index of corner c moved i along x and j along y. */
static uint32_t at(const cairn_dead_ends *de, uint32_t c, int32_t sx, int32_t sy, int32_t i,
                   int32_t j) {
  return (uint32_t)((int32_t)c + sx * i + sy * j * de->grid->stride);
}

/* Whether padded (x, y) from the corner lies on the grid. */
static bool on_grid(const cairn_dead_ends *de, uint32_t c, int32_t sx, int32_t sy, int32_t i,
                    int32_t j) {
  const cairn_grid *g = de->grid;
  const int32_t x = (int32_t)(c % (uint32_t)g->stride) - 1 + sx * i;
  const int32_t y = (int32_t)(c / (uint32_t)g->stride) - 1 + sy * j;
  return x >= 0 && y >= 0 && x < g->width && y < g->height;
}

/* Whether the triangle of size d at corner c, growing from size d - 1
 * (already checked), still qualifies: the walls one cell further (the
 * cheapest test, and the one a jagged corner fails), its new line d - 1,
 * and the band past it. The band's far ends on the grid put every cell
 * read on it (or on its border, for the walls). */
static bool grows_to(const cairn_dead_ends *de, uint8_t least, uint32_t c, int32_t sx, int32_t sy,
                     int32_t d) {
  const uint32_t area = de->area[c];
  const uint8_t *cost = de->grid->cost;
  if (!on_grid(de, c, sx, sy, d + 2, 0) || !on_grid(de, c, sx, sy, 0, d + 2)) return false;
  /* the walls, from one before the corner to line d + 1 (padding counts
   * as wall) */
  for (int32_t k = -1; k <= d + 1; k++)
    if (cost[at(de, c, sx, sy, -1, k)] || cost[at(de, c, sx, sy, k, -1)]) return false;
  /* the new line of the triangle (line d - 1), then the band (lines d to
   * d + 2): first their terrain and area, then, for the few corners that
   * pass, their distance from the swamps found before */
  for (int pass = 0; pass < 2; pass++)
    for (int32_t line = d - 1; line <= d + 2; line++)
      for (int32_t i = 0; i <= line; i++) {
        if (line == d - 1 && i == d) break; /* the triangle's line has d cells */
        const uint32_t b = at(de, c, sx, sy, i, line - i);
        if (pass == 0 ? !plain_cell(de, least, b, area) : !apart(de, b, line < d + 2))
          return false;
      }
  return true;
}

/* The first two lines of the band of the swamp at corner c of size d, as
 * gates: the cells a search steps into the swamp from. */
static void mark_band(cairn_dead_ends *de, uint32_t c, int32_t sx, int32_t sy, int32_t d) {
  for (int32_t line = d; line <= d + 1; line++)
    for (int32_t i = 0; i <= line; i++) {
      const uint32_t b = at(de, c, sx, sy, i, line - i);
      de->gate_bits[b >> 6] |= 1ull << (b & 63u);
    }
}

/* The largest swamp at corner c facing (sx, sy), if one fits: its cells
 * get id `id`; returns its cell count (0: none). */
static size_t grow(cairn_dead_ends *de, uint8_t least, uint32_t c, int32_t sx, int32_t sy,
                   uint16_t id) {
  int32_t d = 0;
  while (d < CAIRN__DE_MAX_SWAMP && grows_to(de, least, c, sx, sy, d + 1)) d++;
  if (d < CAIRN__DE_MIN_SWAMP) return 0;
  for (int32_t i = 0; i < d; i++)
    for (int32_t j = 0; i + j < d; j++) de->swamp[at(de, c, sx, sy, i, j)] = id;
  mark_band(de, c, sx, sy, d);
  return (size_t)d * (size_t)(d + 1) / 2;
}

/* Move bits of the straight steps (cairn__dx order): east, west, south,
 * north. */
#define STEP_E 1u
#define STEP_W 2u
#define STEP_S 4u
#define STEP_N 8u

void cairn__de_find_swamps(cairn_dead_ends *de) {
  const cairn_grid *g = de->grid;
  const uint8_t least = least_cost(g);
  memset(de->swamp, 0, de->padded * sizeof *de->swamp);
  uint32_t found = 0;
  size_t cells = 0;
  for (int32_t y = 0; y < g->height; y++) {
    uint32_t c = cairn__grid_index(g, 0, y);
    for (int32_t x = 0; x < g->width; x++, c++) {
      /* a corner: a wall west or east of it and one north or south (its
       * straight moves say which), most cells of a room having neither */
      const unsigned m = g->moves[c];
      if ((m & (STEP_E | STEP_W)) == (STEP_E | STEP_W) ||
          (m & (STEP_S | STEP_N)) == (STEP_S | STEP_N) || g->cost[c] != least || de->swamp[c])
        continue;
      for (unsigned f = 0; f < 4; f++) {
        const int32_t sx = f & 1u ? -1 : 1, sy = f & 2u ? -1 : 1;
        if (m & (sx > 0 ? STEP_W : STEP_E) || m & (sy > 0 ? STEP_N : STEP_S)) continue;
        const size_t n = grow(de, least, c, sx, sy, (uint16_t)(found % 65535u + 1u));
        if (!n) continue;
        found++;
        cells += n;
        break; /* the corner cell is taken */
      }
    }
  }
  de->stats.swamps = found;
  de->stats.swamp_cells = cells;
}
