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
 * at most two): the pocket's border. Pockets grow one line at a time,
 * each size from the last (the cells waiting on its border); it is kept,
 * for the largest d up to CAIRN__DE_MAX_SWAMP that every size from 1
 * passes, with at least 3 cells, when:
 * - no open cell below line d next to it lies outside it (in another
 *   area), it holds no gate, and it has at most 4 d^2 + 16 cells (a
 *   triangle has d (d + 1) / 2; a pocket that leaks through a door into
 *   the next room stops there);
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
 * Ids are 1 .. 32767 and wrap: two swamps may share one, and a search
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

/* A pocket being grown: its cells (the first quarter of the table's
 * swamp_list: n of them, at most cap) and the cells waiting beside it on
 * its border (the second quarter: nb of them; the third and fourth hold
 * each one's line and i), with the border's extent on lines d and d + 1
 * (i from lo to hi; lo > hi: none). The swamp array marks the cells with
 * the corner's id, the waiting ones with it and WAITING, until the corner
 * is done. */
typedef struct pocket {
  size_t n, cap, nb;
  int32_t lo[2], hi[2];
} pocket;

#define WAITING 0x8000u

/* The i and the line (i + j) of padded cell c, from the corner. */
static void place_of(const cairn_dead_ends *de, const corner *k, uint32_t c, int32_t *i,
                     int32_t *line) {
  const int32_t s = de->grid->stride;
  const int32_t x = (int32_t)(c % (uint32_t)s) - 1, y = (int32_t)(c / (uint32_t)s) - 1;
  *i = (x - k->x) * k->sx;
  *line = *i + (y - k->y) * k->sy;
}

/* The waiting cells' lines and i, beside them in swamp_list. */
static int32_t *wait_lines(const cairn_dead_ends *de) {
  return (int32_t *)(void *)(de->swamp_list + 2 * CAIRN__DE_SWAMP_CELLS);
}

static int32_t *wait_is(const cairn_dead_ends *de) {
  return (int32_t *)(void *)(de->swamp_list + 3 * CAIRN__DE_SWAMP_CELLS);
}

/* The padded index of the cell at (i, j) from the corner, or UINT32_MAX
 * off the grid. */
static uint32_t cell_at(const cairn_dead_ends *de, const corner *k, int32_t i, int32_t j) {
  const cairn_grid *g = de->grid;
  const int32_t x = k->x + k->sx * i, y = k->y + k->sy * j;
  if (x < 0 || y < 0 || x >= g->width || y >= g->height) return UINT32_MAX;
  return cairn__grid_index(g, x, y);
}

/* Not within one cell of a swamp found before (its halo). */
static bool apart(const cairn_dead_ends *de, uint32_t c) {
  return !cairn__de_bit(de->halo_bits, c);
}

/* Puts the cells of a kept swamp (the first n of swamp_list) and those
 * within one cell of them into the halo, which later pockets stay out of. */
static void mark_halo(cairn_dead_ends *de, size_t n) {
  const int32_t s = de->grid->stride;
  for (size_t t = 0; t < n; t++) {
    const int32_t u = (int32_t)de->swamp_list[t];
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        const uint32_t q = (uint32_t)(u + dx + dy * s);
        cairn__de_set_bit(de->halo_bits, q);
      }
  }
}

/* A cell of the border walk: on the grid, open at the cheapest terrain,
 * in the corner's area, apart from earlier swamps. */
static bool walk_cell(const cairn_dead_ends *de, const corner *k, uint32_t c) {
  return c != UINT32_MAX && de->grid->cost[c] == k->least && de->area[c] == k->area &&
         apart(de, c);
}

/* Takes cell c into the pocket (marked with the corner's id, listed):
 * not when it lies in another area, is a gate (of an area, or on an
 * earlier swamp's border: its walk must stay open to searches), lies
 * within one cell of an earlier swamp, or the pocket is full (its cap:
 * a pocket that leaks through a door into the next room fails there, not
 * after flooding it). */
static bool admit(cairn_dead_ends *de, const corner *k, pocket *p, uint32_t c) {
  if (de->area[c] != k->area || cairn__de_bit(de->gate_bits, c) || !apart(de, c) ||
      p->n == p->cap)
    return false;
  de->swamp[c] = k->id;
  de->swamp_list[p->n++] = c;
  return true;
}

/* Puts cell c (its i and line given) among those waiting on the border
 * (once). */
static bool wait_beside(cairn_dead_ends *de, const corner *k, pocket *p, uint32_t c, int32_t i,
                        int32_t line) {
  if (de->swamp[c] == (k->id | WAITING)) return true;
  if (p->nb == CAIRN__DE_SWAMP_CELLS) return false;
  de->swamp[c] = (uint16_t)(k->id | WAITING);
  wait_lines(de)[p->nb] = line;
  wait_is(de)[p->nb] = i;
  de->swamp_list[CAIRN__DE_SWAMP_CELLS + p->nb++] = c;
  return true;
}

/* Grows the pocket of size d from its cells `from` on: each open
 * neighbour below line d is taken in (false when one cannot be), the
 * others wait on the border (a step changes i + j by at most 2, so they
 * lie on line d or d + 1). */
static bool spread(cairn_dead_ends *de, const corner *k, pocket *p, int32_t d, size_t from) {
  const cairn_grid *g = de->grid;
  /* the eight neighbours: padded offset, and how far each moves i and the
   * line */
  int32_t off[8], di[8], dl[8];
  for (int dy = -1, m = 0; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      if (!dx && !dy) continue;
      off[m] = dx + dy * g->stride;
      di[m] = dx * k->sx;
      dl[m++] = dx * k->sx + dy * k->sy;
    }
  for (size_t t = from; t < p->n; t++) {
    const uint32_t u = de->swamp_list[t];
    int32_t iu, lu;
    place_of(de, k, u, &iu, &lu);
    for (int m = 0; m < 8; m++) {
      const uint32_t q = (uint32_t)((int32_t)u + off[m]);
      if (!g->cost[q] || de->swamp[q] == k->id) continue; /* a wall, or in */
      const int32_t lq = lu + dl[m];
      if (lq < d ? !admit(de, k, p, q) : !wait_beside(de, k, p, q, iu + di[m], lq)) return false;
    }
  }
  return true;
}

/* From size d - 1 to d: the waiting cells on line d - 1 are now below
 * the line, so they join the pocket and it spreads from them; then the
 * border's extent, the cells still waiting (kept in the list). */
static bool grow_to(cairn_dead_ends *de, const corner *k, pocket *p, int32_t d) {
  const size_t most = 4 * (size_t)d * (size_t)d + 16, from = p->n;
  p->cap = most < CAIRN__DE_SWAMP_CELLS ? most : CAIRN__DE_SWAMP_CELLS;
  uint32_t *wait = de->swamp_list + CAIRN__DE_SWAMP_CELLS;
  int32_t *wline = wait_lines(de), *wi = wait_is(de);
  if (d == 1 && !admit(de, k, p, k->c)) return false; /* the corner itself */
  for (size_t t = 0; t < p->nb; t++)
    if (de->swamp[wait[t]] != k->id && wline[t] < d && !admit(de, k, p, wait[t])) return false;
  if (!spread(de, k, p, d, from)) return false;
  p->lo[0] = p->lo[1] = INT32_MAX;
  p->hi[0] = p->hi[1] = INT32_MIN;
  size_t kept = 0;
  for (size_t t = 0; t < p->nb; t++) {
    const uint32_t b = wait[t];
    if (de->swamp[b] == k->id) continue; /* taken in */
    const int32_t line = wline[t] - d, i = wi[t]; /* line 0 or 1 */
    wait[kept] = b;
    wline[kept] = wline[t];
    wi[kept++] = i;
    if (i < p->lo[line]) p->lo[line] = i;
    if (i > p->hi[line]) p->hi[line] = i;
  }
  p->nb = kept;
  return true;
}

/* Whether a pocket of size d is a swamp: its border on line d is one run
 * of walk cells, its border on line d + 1 (if any) a run of them within
 * the first's from its second cell on, and the cells each diagonal step
 * along them passes open. Then two border cells are joined by a walk
 * along the runs (at most one straight step between them) at their
 * octile distance at the cheapest terrain. */
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

/* The border's runs at size d (extent lo, hi), as gates: the cells a
 * search steps into the swamp from. */
static void mark_border(cairn_dead_ends *de, const corner *k, int32_t d, const int32_t lo[2],
                        const int32_t hi[2]) {
  for (int line = 0; line < 2; line++)
    for (int32_t i = lo[line]; i <= hi[line]; i++) {
      const uint32_t b = cell_at(de, k, i, d + line - i);
      cairn__de_set_bit(de->gate_bits, b);
    }
}

/* The largest swamp at corner k, if one fits: the pocket grown one line
 * at a time while each size is a swamp, kept at the last size that was
 * (with at least 3 cells), its cells marked with the corner's id and its
 * border as gates; the cells taken in after it and the waiting marks
 * cleared. Returns its cell count (0: none). */
static size_t grow(cairn_dead_ends *de, const corner *k) {
  pocket p = {0, 0, 0, {INT32_MAX, INT32_MAX}, {INT32_MIN, INT32_MIN}};
  int32_t best = 0, lo[2] = {0, 0}, hi[2] = {-1, -1};
  size_t kept = 0;
  for (int32_t d = 1; d <= CAIRN__DE_MAX_SWAMP; d++) {
    if (!grow_to(de, k, &p, d) || !border_walks(de, k, d, &p)) break;
    best = d;
    kept = p.n;
    memcpy(lo, p.lo, sizeof lo);
    memcpy(hi, p.hi, sizeof hi);
  }
  const uint32_t *wait = de->swamp_list + CAIRN__DE_SWAMP_CELLS;
  for (size_t t = 0; t < p.nb; t++)
    if (de->swamp[wait[t]] == (k->id | WAITING)) de->swamp[wait[t]] = 0;
  if (kept < 3) kept = 0;
  for (size_t t = kept; t < p.n; t++) de->swamp[de->swamp_list[t]] = 0;
  if (!kept) return 0;
  mark_border(de, k, best, lo, hi);
  mark_halo(de, kept);
  return kept;
}

/* Whether cell c (column x of row y) may be a corner: at the cheapest
 * terrain, with a wall west or east of it and one north or south (its
 * straight moves say which), most cells of a room having neither. */
static bool may_be_corner(const cairn_grid *g, uint32_t c, uint8_t least) {
  const unsigned m = g->moves[c];
  return (m & (STEP_E | STEP_W)) != (STEP_E | STEP_W) &&
         (m & (STEP_S | STEP_N)) != (STEP_S | STEP_N) && g->cost[c] == least;
}

/* The cells from c on (n of them, up to 16) that may_be_corner lets
 * through, a bit each: sixteen at a time where SSE2 is (every x86-64),
 * as the scan over every cell is most of what finding swamps costs. */
static unsigned corner_bits(const cairn_grid *g, uint32_t c, unsigned n, uint8_t least) {
#ifdef CAIRN_SSE2
  if (n == 16) {
    const __m128i m = _mm_loadu_si128((const __m128i *)(const void *)(g->moves + c));
    const __m128i t = _mm_loadu_si128((const __m128i *)(const void *)(g->cost + c));
    const __m128i ew = _mm_set1_epi8((char)(STEP_E | STEP_W));
    const __m128i sn = _mm_set1_epi8((char)(STEP_S | STEP_N));
    const __m128i through = _mm_or_si128(_mm_cmpeq_epi8(_mm_and_si128(m, ew), ew),
                                         _mm_cmpeq_epi8(_mm_and_si128(m, sn), sn));
    const __m128i cheap = _mm_cmpeq_epi8(t, _mm_set1_epi8((char)least));
    return (unsigned)_mm_movemask_epi8(_mm_andnot_si128(through, cheap));
  }
#endif
  unsigned bits = 0;
  for (unsigned i = 0; i < n; i++) bits |= (unsigned)may_be_corner(g, c + i, least) << i;
  return bits;
}

void cairn__de_find_swamps(cairn_dead_ends *de) {
  const cairn_grid *g = de->grid;
  const uint8_t least = least_cost(g);
  memset(de->swamp, 0, de->padded * sizeof *de->swamp);
  memset(de->halo_bits, 0, de->words * sizeof *de->halo_bits);
  uint32_t found = 0;
  size_t cells = 0;
  for (int32_t y = 0; y < g->height; y++) {
    const uint32_t row = cairn__grid_index(g, 0, y);
    for (int32_t x0 = 0; x0 < g->width; x0 += 16) {
      const unsigned n = g->width - x0 < 16 ? (unsigned)(g->width - x0) : 16u;
      for (unsigned bits = corner_bits(g, row + (uint32_t)x0, n, least); bits; bits &= bits - 1) {
        const int32_t x = x0 + cairn__ctz(bits);
        const uint32_t c = row + (uint32_t)x;
        const unsigned m = g->moves[c];
        if (de->swamp[c]) continue; /* taken by a pocket found before */
        for (unsigned f = 0; f < 4; f++) {
          const int32_t sx = f & 1u ? -1 : 1, sy = f & 2u ? -1 : 1;
          if (m & (sx > 0 ? STEP_W : STEP_E) || m & (sy > 0 ? STEP_N : STEP_S)) continue;
          const corner k = {c, x, y, sx, sy, de->area[c], least, (uint16_t)(found % 32767u + 1u)};
          const size_t got = grow(de, &k);
          if (!got) continue;
          found++;
          cells += got;
          break; /* the corner cell is taken */
        }
      }
    }
  }
  de->stats.swamps = found;
  de->stats.swamp_cells = cells;
}
