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
 * A swamp's id follows from its corner's position (its column and row
 * modulo CAIRN__DE_SWAMP_ID_SPAN), and its cells lie within
 * CAIRN__DE_SWAMP_REACH rows and columns of the corner: so the id of any
 * swamp cell names its corner, and an edit moves no id but those of the
 * swamps it changes. Swamps far apart may share an id; a search then
 * enters both when it starts or ends in either, which is still exact
 * (skipping any subset of swamps is).
 *
 * The full pass takes the corners in index order, each pocket clear of
 * the swamps found before it. After an edit the local redo
 * (cairn__de_find_swamps_near) takes again, in that order, the corners
 * whose growth could have read a cell that moved, and those that could
 * read what a redone swamp wrote, before or now, when it came out
 * otherwise: a corner's growth is a function of the cells it reads, and
 * those lie within the table's swamp_reach of it (the farthest any
 * growth went, plus the cells beside and a halo check). While it redoes
 * a corner the swamps after it must not count: the checks against
 * earlier swamps then ask the cells (and the records) which swamp they
 * belong to, and a later swamp the pocket runs into is taken out and
 * its corner redone after. */
#include "dead_ends_work.h"

#include <string.h>

/* What a corner's growth reads lies within two cells of its pocket and
 * the cells waiting beside it (the cells a diagonal step along the
 * border passes, and those a halo check looks at, one further), what a
 * swamp writes (its cells, its border, its halo) within one: so within
 * the table's swamp_reach, the farthest any growth went plus two. */
#define READ_MARGIN 2
/* A local redo gives up for the full pass once it has taken out more
 * than half the swamps and this many. */
#define REDO_SPARE 16
#define SPAN CAIRN__DE_SWAMP_ID_SPAN

/* The frame of one corner: its padded cell and coordinates, the way
 * into the room (sx, sy; f: bit 0 west, bit 1 north), its area, the
 * cheapest terrain, the id its cells get, and whether it is redone among
 * swamps found after it (strict: they must not count). A cell's i and j
 * count its steps from the corner along sx and sy (negative behind the
 * corner), and it lies on line i + j. */
typedef struct corner {
  uint32_t c;
  int32_t x, y, sx, sy;
  uint32_t area;
  uint8_t least, f;
  uint16_t id;
  bool strict;
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
  int32_t span; /* how many rows or columns from the corner its cells and those waiting reach */
} pocket;

#define WAITING 0x8000u

/* The id of the swamp with its corner at (x, y). */
static uint16_t id_of(int32_t x, int32_t y) {
  return (uint16_t)(1 + (y % SPAN) * SPAN + x % SPAN);
}

/* The value congruent to r modulo SPAN nearest to `at` (within SPAN / 2). */
static int32_t near_residue(int32_t at, int32_t r) {
  const int32_t d = ((at - r) % SPAN + SPAN) % SPAN;
  return d <= SPAN / 2 ? at - d : at + (SPAN - d);
}

/* The corner of the swamp whose cell u has id w. */
static uint32_t corner_of(const cairn_grid *g, uint32_t u, uint16_t w) {
  const int32_t v = (int32_t)(w & ~WAITING) - 1, s = g->stride;
  const int32_t x = (int32_t)(u % (uint32_t)s) - 1, y = (int32_t)(u / (uint32_t)s) - 1;
  return cairn__grid_index(g, near_residue(x, v % SPAN), near_residue(y, v / SPAN));
}

/* The frame of corner c opening the way f. */
static corner frame_of(const cairn_dead_ends *de, uint32_t c, unsigned f, bool strict) {
  const uint32_t s = (uint32_t)de->grid->stride;
  const int32_t x = (int32_t)(c % s) - 1, y = (int32_t)(c / s) - 1;
  const corner k = {c, x, y, f & 1u ? -1 : 1, f & 2u ? -1 : 1, de->area[c],
                    least_cost(de->grid), (uint8_t)f, id_of(x, y), strict};
  return k;
}

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

/* ---- the records ------------------------------------------------------ */

/* The first record whose corner is c or after it. */
static size_t rec_from(const cairn_dead_ends *de, uint32_t c) {
  size_t lo = 0, hi = de->n_swamps;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (de->swamps[mid].c < c) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Whether cell b lies on the border of the swamp of record r. */
static bool on_border(const cairn_dead_ends *de, const cairn__de_swamp_rec *r, uint32_t b) {
  const corner k = frame_of(de, r->c, r->f, false);
  int32_t i, line;
  place_of(de, &k, b, &i, &line);
  for (int t = 0; t < 2; t++)
    if (line == r->d + t && r->lo[t] <= i && i <= r->hi[t]) return true;
  return false;
}

/* Whether cell b lies on the border of a swamp whose corner comes before
 * `before` (every corner of a swamp whose border could hold it lies
 * within swamp_reach). */
static bool border_before(const cairn_dead_ends *de, uint32_t b, uint32_t before) {
  const cairn_grid *g = de->grid;
  const int32_t s = g->stride;
  const int32_t x = (int32_t)(b % (uint32_t)s) - 1, y = (int32_t)(b / (uint32_t)s) - 1;
  const int32_t r = de->swamp_reach;
  const int32_t x0 = x > r ? x - r : 0, x1 = x + r < g->width ? x + r : g->width - 1;
  const int32_t y0 = y > r ? y - r : 0, y1 = y + r < g->height ? y + r : g->height - 1;
  for (int32_t yy = y0; yy <= y1; yy++) {
    const uint32_t last = cairn__grid_index(g, x1, yy);
    for (size_t at = rec_from(de, cairn__grid_index(g, x0, yy));
         at < de->n_swamps && de->swamps[at].c <= last && de->swamps[at].c < before; at++)
      if (on_border(de, &de->swamps[at], b)) return true;
  }
  return false;
}

/* ---- what a corner checks ------------------------------------------------ */

/* apart() in a redo, where the halo bits may cover more than the swamps
 * before the corner (swamps taken out, or after it): the cells round c
 * say which swamp they belong to. */
static bool apart_strict(const cairn_dead_ends *de, const corner *k, uint32_t c) {
  const int32_t s = de->grid->stride;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      const uint32_t u = (uint32_t)((int32_t)c + dx + dy * s);
      const uint16_t w = de->swamp[u];
      /* none, or this corner's own marks (a swamp with the same id lies
       * too far off to be within its reach) */
      if (!w || (w & WAITING) || w == k->id) continue;
      if (corner_of(de->grid, u, w) < k->c) return false;
    }
  return true;
}

/* Not within one cell of a swamp found before (its halo). */
CAIRN_INLINE bool apart(const cairn_dead_ends *de, const corner *k, uint32_t c) {
  return !cairn__de_bit(de->halo_bits, c) || (k->strict && apart_strict(de, k, c));
}

/* A gate: of an area, or on the border of a swamp found before. */
CAIRN_INLINE bool gate_for(const cairn_dead_ends *de, const corner *k, uint32_t c) {
  return cairn__de_bit(de->gate_bits, c) &&
         (!k->strict || cairn__de_bit(de->area_gate_bits, c) || border_before(de, c, k->c));
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
         apart(de, k, c);
}

static bool take_out(cairn_dead_ends *de, uint32_t c, bool queue);

/* Makes way for corner k at cell c, which holds w: nothing to do unless
 * it is a cell of another swamp, found after k (one found before lies in
 * its halo, which k stays out of): in a redo, that swamp is taken out,
 * to be redone after k. false when memory runs out. */
CAIRN_INLINE bool make_way(cairn_dead_ends *de, const corner *k, uint32_t c, uint16_t w) {
  return !w || (w & ~WAITING) == k->id || take_out(de, corner_of(de->grid, c, w), true);
}

/* How many rows or columns from the corner a cell at (i, j) lies. */
CAIRN_INLINE int32_t reach_of(int32_t i, int32_t j) {
  const int32_t ai = i < 0 ? -i : i, aj = j < 0 ? -j : j;
  return ai > aj ? ai : aj;
}

/* Takes cell c (at i, line from the corner) into the pocket (marked with
 * the corner's id, listed): not when it lies in another area, is a gate
 * (of an area, or on an earlier swamp's border: its walk must stay open
 * to searches), lies within one cell of an earlier swamp or beyond the
 * reach of the corner, or the pocket is full (its cap: a pocket that
 * leaks through a door into the next room fails there, not after
 * flooding it). */
CAIRN_INLINE bool admit(cairn_dead_ends *de, const corner *k, pocket *p, uint32_t c, int32_t i,
                         int32_t line) {
  const int32_t span = reach_of(i, line - i);
  if (span > CAIRN__DE_SWAMP_REACH || de->area[c] != k->area || gate_for(de, k, c) ||
      !apart(de, k, c) || p->n == p->cap || !make_way(de, k, c, de->swamp[c]))
    return false;
  de->swamp[c] = k->id;
  de->swamp_list[p->n++] = c;
  if (span > p->span) p->span = span;
  return true;
}

/* Puts cell c (its i and line given) among those waiting on the border
 * (once). */
static bool wait_beside(cairn_dead_ends *de, const corner *k, pocket *p, uint32_t c, int32_t i,
                        int32_t line) {
  if (de->swamp[c] == (k->id | WAITING)) return true;
  if (p->nb == CAIRN__DE_SWAMP_CELLS || !make_way(de, k, c, de->swamp[c])) return false;
  de->swamp[c] = (uint16_t)(k->id | WAITING);
  const int32_t span = reach_of(i, line - i);
  if (span > p->span) p->span = span;
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
      const int32_t lq = lu + dl[m], iq = iu + di[m];
      if (lq < d ? !admit(de, k, p, q, iq, lq) : !wait_beside(de, k, p, q, iq, lq)) return false;
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
  if (d == 1 && !admit(de, k, p, k->c, 0, 0)) return false; /* the corner itself */
  for (size_t t = 0; t < p->nb; t++)
    if (de->swamp[wait[t]] != k->id && wline[t] < d && !admit(de, k, p, wait[t], wi[t], wline[t]))
      return false;
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

/* The border cells of record r into `border` (one at most 4 *
 * CAIRN__DE_MAX_SWAMP + 8 of them); returns how many. */
static size_t border_cells(const cairn_dead_ends *de, const cairn__de_swamp_rec *r,
                           uint32_t *border) {
  const corner k = frame_of(de, r->c, r->f, false);
  size_t n = 0;
  for (int line = 0; line < 2; line++)
    for (int32_t i = r->lo[line]; i <= r->hi[line]; i++)
      border[n++] = cell_at(de, &k, i, r->d + line - i);
  return n;
}

/* Marks record r's border as gates: the cells a search steps into the
 * swamp from. */
static void mark_border(cairn_dead_ends *de, const cairn__de_swamp_rec *r) {
  uint32_t border[4 * CAIRN__DE_MAX_SWAMP + 8];
  const size_t n = border_cells(de, r, border);
  for (size_t t = 0; t < n; t++) {
    cairn__de_set_bit(de->gate_bits, border[t]);
    cairn__de_set_bit(de->border_bits, border[t]);
    de->border_count[border[t]]++; /* swamps are apart: a few at most */
  }
}

/* Adds record r, in its corner's place; false when the list cannot grow. */
static bool add_record(cairn_dead_ends *de, const cairn__de_swamp_rec *r) {
  if (!cairn__grow(&de->alloc, (void **)&de->swamps, &de->cap_swamps, de->n_swamps + 1,
                   sizeof *de->swamps))
    return false;
  const size_t at = rec_from(de, r->c);
  memmove(de->swamps + at + 1, de->swamps + at, (de->n_swamps - at) * sizeof *de->swamps);
  de->swamps[at] = *r;
  de->n_swamps++;
  return true;
}

/* The largest swamp at corner k, if one fits: the pocket grown one line
 * at a time while each size is a swamp, kept at the last size that was
 * (with at least 3 cells), its cells marked with the corner's id, its
 * border as gates, its record added; the cells taken in after it and the
 * waiting marks cleared. Returns its cell count (0: none; also when the
 * record cannot be added, with the work's failed set). */
static size_t grow(cairn_dead_ends *de, const corner *k) {
  pocket p = {0, 0, 0, {INT32_MAX, INT32_MAX}, {INT32_MIN, INT32_MIN}, 0};
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
  if (p.span + READ_MARGIN > de->swamp_reach) de->swamp_reach = p.span + READ_MARGIN;
  if (kept < 3) kept = 0;
  cairn__de_swamp_rec r = {k->c, (uint16_t)kept, {0, 0}, {0, 0}, k->f, (uint8_t)best,
                           (uint8_t)p.span};
  for (int line = 0; line < 2; line++) { /* none: lo > hi, as 1 > 0 */
    r.lo[line] = (int8_t)(lo[line] <= hi[line] ? lo[line] : 1);
    r.hi[line] = (int8_t)(lo[line] <= hi[line] ? hi[line] : 0);
  }
  if (kept && !add_record(de, &r)) {
    de->swamp_work.failed = true;
    kept = 0;
  }
  for (size_t t = kept; t < p.n; t++) de->swamp[de->swamp_list[t]] = 0;
  if (!kept) return 0;
  mark_border(de, &r);
  mark_halo(de, kept);
  de->stats.swamps++;
  de->stats.swamp_cells += kept;
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

/* Corner c (a may_be_corner cell) as the full pass takes it: the first
 * way it opens in that holds a swamp, if any; strict in a redo. Returns
 * the swamp's cell count (0: none). */
static size_t do_corner(cairn_dead_ends *de, uint32_t c, bool strict) {
  const unsigned m = de->grid->moves[c];
  for (unsigned f = 0; f < 4; f++) {
    const int32_t sx = f & 1u ? -1 : 1, sy = f & 2u ? -1 : 1;
    if (m & (sx > 0 ? STEP_W : STEP_E) || m & (sy > 0 ? STEP_N : STEP_S)) continue;
    const corner k = frame_of(de, c, f, strict);
    const size_t kept = grow(de, &k);
    if (kept) return kept; /* the corner cell is taken */
  }
  return 0;
}

void cairn__de_find_swamps(cairn_dead_ends *de) {
  const cairn_grid *g = de->grid;
  const uint8_t least = least_cost(g);
  memcpy(de->gate_bits, de->area_gate_bits, de->words * sizeof *de->gate_bits);
  memset(de->border_bits, 0, de->words * sizeof *de->border_bits);
  memset(de->border_count, 0, de->padded);
  memset(de->swamp, 0, de->padded * sizeof *de->swamp);
  memset(de->halo_bits, 0, de->words * sizeof *de->halo_bits);
  de->n_swamps = 0;
  de->swamp_reach = READ_MARGIN;
  de->stats.swamps = 0;
  de->stats.swamp_cells = 0;
  for (int32_t y = 0; y < g->height; y++) {
    const uint32_t row = cairn__grid_index(g, 0, y);
    for (int32_t x0 = 0; x0 < g->width; x0 += 16) {
      const unsigned n = g->width - x0 < 16 ? (unsigned)(g->width - x0) : 16u;
      for (unsigned bits = corner_bits(g, row + (uint32_t)x0, n, least); bits; bits &= bits - 1) {
        const uint32_t c = row + (uint32_t)x0 + (uint32_t)cairn__ctz(bits);
        if (!de->swamp[c]) (void)do_corner(de, c, false); /* else taken by one found before */
      }
    }
  }
}

/* ---- the local redo ----------------------------------------------------- */

static bool heap_push(cairn_dead_ends *de, uint32_t c) {
  cairn__de_swamp_work *w = &de->swamp_work;
  if (!cairn__grow(&de->alloc, (void **)&w->heap, &w->cap_heap, w->n_heap + 1, sizeof *w->heap))
    return false;
  size_t i = w->n_heap++;
  while (i && w->heap[(i - 1) / 2] > c) {
    w->heap[i] = w->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  w->heap[i] = c;
  return true;
}

static uint32_t heap_pop(cairn_dead_ends *de) {
  cairn__de_swamp_work *w = &de->swamp_work;
  const uint32_t top = w->heap[0], last = w->heap[--w->n_heap];
  size_t i = 0;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= w->n_heap) break;
    if (child + 1 < w->n_heap && w->heap[child + 1] < w->heap[child]) child++;
    if (w->heap[child] >= last) break;
    w->heap[i] = w->heap[child];
    i = child;
  }
  if (w->n_heap) w->heap[i] = last;
  return top;
}

/* Appends cell u to the pool; false when it cannot grow (the work's
 * failed set). */
static bool pool_add(cairn_dead_ends *de, uint32_t u) {
  cairn__de_swamp_work *w = &de->swamp_work;
  if (!cairn__grow(&de->alloc, (void **)&w->pool, &w->cap_pool, w->n_pool + 1, sizeof *w->pool)) {
    w->failed = true;
    return false;
  }
  w->pool[w->n_pool++] = u;
  return true;
}

/* Takes the swamp at corner c out: its record to the work's list of
 * those taken out (its cells, as they were, into the pool), its cells
 * cleared, its border's gates kept only where another swamp's border or
 * an area's gate holds them; queue: its corner to be redone. false when
 * memory runs out (the work's failed set). */
static bool take_out(cairn_dead_ends *de, uint32_t c, bool queue) {
  cairn__de_swamp_work *w = &de->swamp_work;
  const size_t at = rec_from(de, c);
  const bool ok = at < de->n_swamps && de->swamps[at].c == c &&
                  cairn__grow(&de->alloc, (void **)&w->out, &w->cap_out, w->n_out + 1,
                              sizeof *w->out) &&
                  cairn__grow(&de->alloc, (void **)&w->out_at, &w->cap_out_at, w->n_out + 1,
                              sizeof *w->out_at) &&
                  (!queue || heap_push(de, c));
  if (!ok) {
    w->failed = true;
    return false;
  }
  const cairn__de_swamp_rec r = de->swamps[at];
  memmove(de->swamps + at, de->swamps + at + 1, (de->n_swamps - at - 1) * sizeof *de->swamps);
  de->n_swamps--;
  w->out[w->n_out] = r;
  w->out_at[w->n_out++] = w->n_pool;
  /* its cells: those with its id joined to the corner (8-way), cleared
   * as they are listed */
  const uint16_t id = de->swamp[c];
  const int32_t s = de->grid->stride;
  size_t t = w->n_pool;
  if (!pool_add(de, c)) return false;
  de->swamp[c] = 0;
  for (; t < w->n_pool; t++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        const uint32_t u = (uint32_t)((int32_t)w->pool[t] + dx + dy * s);
        if (de->swamp[u] != id) continue;
        if (!pool_add(de, u)) return false;
        de->swamp[u] = 0;
      }
  de->stats.swamps--;
  de->stats.swamp_cells -= r.cells;
  uint32_t border[4 * CAIRN__DE_MAX_SWAMP + 8];
  const size_t n = border_cells(de, &r, border);
  for (size_t i = 0; i < n; i++) {
    const uint32_t b = border[i];
    const uint64_t bit = 1ull << (b & 63u);
    if (--de->border_count[b]) continue; /* another swamp's border too */
    de->border_bits[b >> 6] &= ~bit;
    if (!cairn__de_bit(de->area_gate_bits, b)) de->gate_bits[b >> 6] &= ~bit;
  }
  return true;
}

/* Puts the corners in the rectangle x0..x1, y0..y1 (unpadded, clipped to
 * the grid) after `after` among those to redo: each cell that may be a
 * corner, and each swamp's corner there (whether or not it still may
 * be). false when memory runs out. */
static bool push_box(cairn_dead_ends *de, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                     uint32_t after) {
  const cairn_grid *g = de->grid;
  const uint8_t least = least_cost(g);
  x0 = x0 < 0 ? 0 : x0;
  y0 = y0 < 0 ? 0 : y0;
  x1 = x1 >= g->width ? g->width - 1 : x1;
  y1 = y1 >= g->height ? g->height - 1 : y1;
  for (int32_t y = y0; y <= y1; y++) {
    for (int32_t x = x0; x <= x1; x += 16) {
      const unsigned n = x1 + 1 - x < 16 ? (unsigned)(x1 + 1 - x) : 16u;
      const uint32_t c0 = cairn__grid_index(g, x, y);
      for (unsigned bits = corner_bits(g, c0, n, least); bits; bits &= bits - 1) {
        const uint32_t c = c0 + (uint32_t)cairn__ctz(bits);
        if (c > after && !heap_push(de, c)) return false;
      }
    }
    const uint32_t last = cairn__grid_index(g, x1, y);
    for (size_t r = rec_from(de, cairn__grid_index(g, x0, y));
         r < de->n_swamps && de->swamps[r].c <= last; r++)
      if (de->swamps[r].c > after && !heap_push(de, de->swamps[r].c)) return false;
  }
  return true;
}

/* Whether the redo of corner c came out as before: the record taken out
 * for it (index `was` in the work's list; SIZE_MAX: none) against the
 * one now (its cells the first of swamp_list). *span: the farthest rows
 * or columns from c either reached. */
static bool same_swamp(cairn_dead_ends *de, uint32_t c, size_t was, size_t kept, int32_t *span) {
  const cairn__de_swamp_work *w = &de->swamp_work;
  const size_t at = rec_from(de, c);
  const bool now = kept && at < de->n_swamps && de->swamps[at].c == c;
  const int32_t span_was = was == SIZE_MAX ? 0 : w->out[was].span;
  const int32_t span_now = now ? de->swamps[at].span : 0;
  *span = span_was > span_now ? span_was : span_now;
  if (!now || was == SIZE_MAX) return !now && was == SIZE_MAX;
  const cairn__de_swamp_rec *a = &w->out[was], *b = &de->swamps[at];
  if (a->f != b->f || a->d != b->d || a->cells != b->cells ||
      memcmp(a->lo, b->lo, sizeof a->lo) || memcmp(a->hi, b->hi, sizeof a->hi))
    return false;
  /* as many cells, each of the old ones with the new swamp's id: the
   * cells with that id within a swamp's reach of c are the new swamp's
   * alone (the old one's were cleared when it was taken out) */
  const uint32_t *old = w->pool + w->out_at[was];
  const uint16_t id = de->swamp[de->swamp_list[0]];
  for (size_t i = 0; i < a->cells; i++)
    if (de->swamp[old[i]] != id) return false;
  return true;
}

/* The entry of corner c in the work's list of swamps taken out, taking
 * its swamp out now if it has one still; SIZE_MAX for none. */
static size_t taken_out(cairn_dead_ends *de, uint32_t c) {
  cairn__de_swamp_work *w = &de->swamp_work;
  for (size_t i = 0; i < w->n_out; i++)
    if (w->out[i].c == c) return i;
  const size_t at = rec_from(de, c);
  if (at == de->n_swamps || de->swamps[at].c != c) return SIZE_MAX;
  return take_out(de, c, false) ? w->n_out - 1 : SIZE_MAX;
}

/* Redoes corner c as the full pass would; false when its swamp came out
 * otherwise than before, *span then the farthest rows or columns from c
 * that swamp reached, before or now. */
static bool redo_corner(cairn_dead_ends *de, uint32_t c, int32_t *span) {
  const cairn_grid *g = de->grid;
  const size_t was = taken_out(de, c);
  const uint16_t w = de->swamp[c];
  /* taken by a pocket found before (or after c, which gives way) */
  const bool taken = w && corner_of(g, c, w) < c;
  const size_t kept = may_be_corner(g, c, least_cost(g)) && !taken ? do_corner(de, c, true) : 0;
  return same_swamp(de, c, was, kept, span);
}

bool cairn__de_find_swamps_near(cairn_dead_ends *de, cairn_rect box) {
  const cairn_grid *g = de->grid;
  cairn__de_swamp_work *w = &de->swamp_work;
  w->n_heap = w->n_out = w->n_pool = 0;
  w->failed = false;
  for (size_t i = 0; i < de->words; i++) de->gate_bits[i] |= de->border_bits[i];
  /* the corners that read a cell of box (padded coordinates) */
  const int32_t r = de->swamp_reach;
  bool ok = push_box(de, box.x - 1 - r, box.y - 1 - r, box.x + box.w - 2 + r,
                     box.y + box.h - 2 + r, 0);
  uint32_t last = UINT32_MAX;
  while (ok && !w->failed && w->n_heap) {
    const uint32_t c = heap_pop(de);
    if (c == last) continue; /* queued twice */
    last = c;
    int32_t span;
    if (redo_corner(de, c, &span)) continue;
    /* came out otherwise: the corners after it that read what it wrote,
     * before or now (its cells and the cells waiting beside them, and
     * one further: its halo; the reach may have grown with this redo) */
    const int32_t s = g->stride, reach = span + 1 + de->swamp_reach;
    const int32_t x = (int32_t)(c % (uint32_t)s) - 1, y = (int32_t)(c / (uint32_t)s) - 1;
    ok = push_box(de, x - reach, y - reach, x + reach, y + reach, c);
    /* a redo that takes out most swamps costs more than the full pass */
    ok = ok && w->n_out <= de->n_swamps / 2 + REDO_SPARE;
  }
  return ok && !w->failed;
}

void cairn__de_swamps_free(cairn_dead_ends *de) {
  const cairn_allocator *a = &de->alloc;
  cairn__de_swamp_work *w = &de->swamp_work;
  cairn__free(a, de->swamps, de->cap_swamps * sizeof *de->swamps);
  cairn__free(a, w->heap, w->cap_heap * sizeof *w->heap);
  cairn__free(a, w->out, w->cap_out * sizeof *w->out);
  cairn__free(a, w->out_at, w->cap_out_at * sizeof *w->out_at);
  cairn__free(a, w->pool, w->cap_pool * sizeof *w->pool);
  de->swamps = NULL;
  de->n_swamps = de->cap_swamps = 0;
  memset(w, 0, sizeof *w);
}
