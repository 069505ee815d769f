/* Swamps: corners of rooms that no shortest path between two cells
 * outside them needs (Pochter, Zohar and Rosenschein, "Using Swamps to
 * Improve Optimal Pathfinding", 2009), kept in the dead-end table beside
 * its areas. A plain A* skips every swamp that holds neither its start
 * nor its goal.
 *
 * The swamps found here are pockets behind a diagonal line. Seen from a
 * corner cell c (walls beside it west or east and north or south), with
 * (sx, sy) pointing away from those walls, a cell lies i steps from c
 * along sx and j along sy, on line i + j (negative behind the corner).
 * The pocket of size d is the open cells of c's area on lines below d
 * that c reaches through such cells; a cell next to the pocket outside
 * it is then a wall or lies on line d or d + 1 (one step changes i + j by
 * at most two): the pocket's border. It is kept, for the largest d up to
 * CAIRN__DE_MAX_SWAMP that every size from 1 passes, with at least 3
 * cells, when:
 * - no open cell below line d next to it lies outside it (in another
 *   area), and it holds no gate;
 * - its border on line d is one run, and its border on line d + 1 a run
 *   beside the first (from its second cell on), every cell of both open
 *   at the grid's cheapest terrain and in c's area;
 * - the cells a diagonal step along either run passes (lines d - 1 to
 *   d + 2) are open;
 * - neither the pocket nor its border lies within one cell of an earlier
 *   swamp, nor does the pocket hold an earlier border (a gate).
 * Why it is exact: between two border cells a walk along the runs
 * (diagonal steps along a line, at most one straight step between them)
 * costs their octile distance at the cheapest terrain, which no path
 * costs less, and cuts no corner. So a shortest path that enters the
 * pocket can leave it for the walk at no cost, and a search that never
 * enters it finds the same cost (Pochter's argument, for a region whose
 * border cells are joined that cheaply outside it). The walk lies in no
 * other swamp (within one cell of this one, or a gate no later pocket
 * takes), so it holds with every other swamp skipped too, and in the
 * pocket's own area, so with the dead ends a search skips. Only searches
 * whose steps cost the terrain alone may skip them (cairn__de_begin):
 * plain, unbounded A*. Between two straight walls a pocket is a triangle.
 *
 * Ids are 1 .. 65535 and wrap: two swamps may share one, and a search
 * then enters both when it starts or ends in either, which is still
 * exact (skipping any subset of swamps is). */
#include "dead_ends_work.h"

#include <string.h>

/* The frame of one corner: its padded cell and coordinates, the way
 * into the room (sx, sy), its area, the cheapest terrain, the id its
 * cells get. A cell's i and j count its steps from the corner along sx
 * and sy (negative behind the corner), and it lies on line i + j. */
typedef struct corner {
  uint32_t c;
  int32_t x, y, sx, sy;
  uint32_t area;
  uint8_t least;
  uint16_t id;
} corner;

/* The extent of a pocket's border on lines d and d + 1 (i from lo to hi;
 * lo > hi: none), and its cells, listed in the table's swamp_list. */
typedef struct pocket {
  size_t n;
  int32_t lo[2], hi[2];
} pocket;

/* The padded index of the cell at (i, j) from the corner, or UINT32_MAX
 * off the grid. */
static uint32_t cell_at(const cairn_dead_ends *de, const corner *k, int32_t i, int32_t j) {
  const cairn_grid *g = de->grid;
  const int32_t x = k->x + k->sx * i, y = k->y + k->sy * j;
  if (x < 0 || y < 0 || x >= g->width || y >= g->height) return UINT32_MAX;
  return cairn__grid_index(g, x, y);
}

/* Not within one cell of a swamp found before (this corner's own marks
 * aside). */
static bool apart(const cairn_dead_ends *de, const corner *k, uint32_t c) {
  const int32_t s = de->grid->stride;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      const uint16_t w = de->swamp[(uint32_t)((int32_t)c + dx + dy * s)];
      if (w && w != k->id) return false;
    }
  return true;
}

/* A cell of the border walk: on the grid, open at the cheapest terrain,
 * in the corner's area, apart from earlier swamps. */
static bool walk_cell(const cairn_dead_ends *de, const corner *k, uint32_t c) {
  return c != UINT32_MAX && de->grid->cost[c] == k->least && de->area[c] == k->area &&
         apart(de, k, c);
}

/* Takes cell c into the pocket (marked with the corner's id, listed):
 * not when it lies in another area, is a gate (of an area, or on an
 * earlier swamp's border: its walk must stay open to searches), lies
 * within one cell of an earlier swamp, or the pocket is full. */
static bool admit(cairn_dead_ends *de, const corner *k, pocket *p, uint32_t c) {
  /* a gate may be a swamp's border, whose walk must stay */
  if (de->area[c] != k->area || cairn__de_bit(de->gate_bits, c) || !apart(de, k, c) ||
      p->n == CAIRN__DE_SWAMP_CELLS)
    return false;
  de->swamp[c] = k->id;
  de->swamp_list[p->n++] = c;
  return true;
}

/* Unmarks the pocket's cells. */
static void drop(cairn_dead_ends *de, const pocket *p) {
  for (size_t t = 0; t < p->n; t++) de->swamp[de->swamp_list[t]] = 0;
}

/* The pocket of size d: the open cells of the corner's area on lines
 * below d that the corner reaches through such cells (8 ways), marked and
 * listed, with its border's extent. False when one of them, or an open
 * cell below line d next to one, lies in another area or within one cell
 * of an earlier swamp, or there are more than CAIRN__DE_SWAMP_CELLS. A
 * cell next to the pocket outside it lies on line d or d + 1: a step
 * changes i + j by at most 2. */
static bool flood(cairn_dead_ends *de, const corner *k, int32_t d, pocket *p) {
  const cairn_grid *g = de->grid;
  p->n = 0;
  p->lo[0] = p->lo[1] = INT32_MAX;
  p->hi[0] = p->hi[1] = INT32_MIN;
  if (!admit(de, k, p, k->c)) return false;
  for (size_t t = 0; t < p->n; t++) {
    const uint32_t u = de->swamp_list[t];
    const int32_t ux = (int32_t)(u % (uint32_t)g->stride) - 1, uy = (int32_t)(u / (uint32_t)g->stride) - 1;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        const uint32_t q = (uint32_t)((int32_t)u + dx + dy * g->stride);
        if (!g->cost[q] || de->swamp[q] == k->id) continue; /* a wall, or in */
        const int32_t i = (ux + dx - k->x) * k->sx, j = (uy + dy - k->y) * k->sy;
        if (i + j < d) {
          if (!admit(de, k, p, q)) return false;
          continue;
        }
        const int line = i + j - d; /* 0 or 1 */
        if (i < p->lo[line]) p->lo[line] = i;
        if (i > p->hi[line]) p->hi[line] = i;
      }
  }
  return true;
}

/* Whether a pocket of size d (flooded) is a swamp: its border on line d
 * is one run of walk cells, its border on line d + 1 (if any) a run of
 * them within the first's from its second cell on, and the cells each
 * diagonal step along them passes open. Then two border cells are joined
 * by a walk along the runs (at most one straight step between them) at
 * their octile distance at the cheapest terrain. */
static bool border_walks(const cairn_dead_ends *de, const corner *k, int32_t d, const pocket *p) {
  const uint8_t *cost = de->grid->cost;
  if (p->lo[0] > p->hi[0]) return false; /* shut in: no way in at all */
  if (p->lo[1] <= p->hi[1] && (p->lo[1] <= p->lo[0] || p->hi[1] > p->hi[0])) return false;
  for (int32_t i = p->lo[0]; i <= p->hi[0]; i++) {
    if (!walk_cell(de, k, cell_at(de, k, i, d - i))) return false;
    if (i == p->hi[0]) break;
    /* the diagonal to i + 1 passes lines d - 1 and d + 1 */
    const uint32_t a = cell_at(de, k, i, d - 1 - i), b = cell_at(de, k, i + 1, d - i);
    if (a == UINT32_MAX || b == UINT32_MAX || !cost[a] || !cost[b]) return false;
  }
  for (int32_t i = p->lo[1]; i <= p->hi[1]; i++) {
    if (!walk_cell(de, k, cell_at(de, k, i, d + 1 - i))) return false;
    if (i == p->hi[1]) break;
    const uint32_t b = cell_at(de, k, i + 1, d + 2 - i); /* line d + 2 (d: the run above) */
    if (b == UINT32_MAX || !cost[b]) return false;
  }
  return true;
}

/* The pocket's border, as gates: the cells a search steps into the swamp
 * from (its runs on lines d and d + 1). */
static void mark_border(cairn_dead_ends *de, const corner *k, int32_t d, const pocket *p) {
  for (int line = 0; line < 2; line++)
    for (int32_t i = p->lo[line]; i <= p->hi[line]; i++) {
      const uint32_t b = cell_at(de, k, i, d + line - i);
      de->gate_bits[b >> 6] |= 1ull << (b & 63u);
    }
}

/* The largest swamp at corner k, if one fits: the pocket of the largest
 * size d (grown one line at a time while each is a swamp) with at least
 * 3 cells, its cells marked with the corner's id and its border as gates;
 * returns its cell count (0: none). */
static size_t grow(cairn_dead_ends *de, const corner *k) {
  pocket p;
  int32_t best = 0;
  for (int32_t d = 1; d <= CAIRN__DE_MAX_SWAMP; d++) {
    const bool ok = flood(de, k, d, &p) && border_walks(de, k, d, &p);
    drop(de, &p);
    if (!ok) break;
    best = d;
  }
  if (!best || !flood(de, k, best, &p)) return 0;
  if (p.n < 3) {
    drop(de, &p);
    return 0;
  }
  mark_border(de, k, best, &p);
  return p.n;
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
        const corner k = {c, x, y, sx, sy, de->area[c], least, (uint16_t)(found % 65535u + 1u)};
        const size_t n = grow(de, &k);
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
