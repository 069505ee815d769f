/* Doors beside pillars: the dead-end table's doors (dead_ends_work.h)
 * that are no run between two walls.
 *
 * A room often opens on a corridor through several gaps between pillars:
 * along one line (a row or a column) L, a wall, then openings separated
 * by stretches of wall, then a wall. No run between two walls cuts the
 * room off there, but the line W beside L, on the corridor's side, does
 * when it is open at the cheapest terrain over the whole stretch: every
 * way between the room and the rest crosses L through an opening, and so
 * W right beside it (the ends of the stretch are walls in L, so no
 * diagonal slips past W's ends into L). W's cells make a door like any
 * other: a straight run at the cheapest terrain, along which a route that
 * crosses it twice could have walked instead (the argument in
 * dead_ends_internal.h needs no walls at the door's ends).
 *
 * The runs between walls come first, and the search over them says which
 * are gates. A candidate then takes its cells from the doors there when
 * none of them is a gate (and none of its cells a one-cell gate): across a
 * corridor that goes on (a ring's), such runs hang nothing off, and W may
 * cut the room off; a door that is a gate stays, so no area is lost. The
 * areas are then searched again. The table keeps every candidate (the
 * list, in the order they were tried) and their cells and those of the
 * lines beside them (as bits). An update inside one dead end A
 * (dead_ends_local.c) lists and tries again those wholly in A, as this
 * pass would with A's gates; an edit inside A moves no gate outside it,
 * so the choices about the others stand, unless the edit touches one that
 * reaches outside A, or one partly in A was marked or kept out by cells
 * of A alone: then it searches the whole grid. */
#include "dead_ends_work.h"

#include <string.h>

/* Most openings one door may front. */
#define MAX_OPENINGS 8

/* The candidate from wall c of line L (step along it; across: from L to
 * W; room: steps from c to the line's last, border, cell): the length of
 * its W run (the stretch from c to its far wall), 0 for none. The longest
 * stretch that holds 2 .. MAX_OPENINGS openings, at most
 * CAIRN__DE_MAX_DOOR cells, with W at terrain `least` over all of it. */
static unsigned candidate_length(const cairn_grid *g, uint32_t c, uint32_t step, int32_t across,
                                 uint32_t room, uint8_t least) {
  const uint8_t *t = g->cost;
  const uint32_t w = (uint32_t)((int32_t)c + across);
  /* W beside the starting wall first: most walls have a wall there */
  if (t[c] || room < 2 || !t[c + step] || t[w] != least) return 0;
  unsigned best = 0, openings = 0;
  uint32_t i = 1, checked = 0; /* W holds `least` on positions < checked */
  while (i < room && i < CAIRN__DE_MAX_DOOR) {
    while (i < room && t[c + i * step]) i++; /* through an opening */
    if (i >= CAIRN__DE_MAX_DOOR) break;
    for (; checked <= i; checked++)
      if (t[w + checked * step] != least) return best;
    if (++openings > MAX_OPENINGS) break;
    if (openings >= 2) best = i + 1;
    while (i < room && !t[c + i * step]) i++; /* past the wall */
  }
  return best;
}

/* The lines of the grid: rows (down 0) or columns, each with its first,
 * border, cell and its steps to the last. */
typedef struct line_walk {
  uint32_t step, room;
  int32_t across[2]; /* to the line before and after */
} line_walk;

static line_walk walk_of(const cairn_grid *g, unsigned down) {
  const int32_t stride = g->stride;
  line_walk l = {down ? (uint32_t)stride : 1u,
                 down ? (uint32_t)g->height + 1u : (uint32_t)g->width + 1u,
                 {down ? -1 : -stride, down ? 1 : stride}};
  return l;
}

/* The border cell line k (1 .. height or width) starts at. */
static uint32_t line_start(const cairn_grid *g, unsigned down, uint32_t k) {
  return down ? k : k * (uint32_t)g->stride;
}

/* Sets the bits of candidate (c, len) on L and W. */
static void zone_mark(uint64_t *zone, uint32_t c, uint32_t step, int32_t across, unsigned len) {
  for (unsigned i = 0; i < len; i++) {
    const uint32_t x = c + i * step;
    cairn__de_set_bit(zone, x);
    cairn__de_set_bit(zone, (uint32_t)((int32_t)x + across));
  }
}

/* The cells of run (w, step, len) that keep it from being a door beside
 * pillars (a one-cell cut, a cell of such a door already, a cell of a
 * door that is a gate: the gates mark the cells areas hang off, doors by
 * their first cell), a bit each by their place on the run. */
static uint64_t blockers(const cairn_grid *g, const uint16_t *door, const uint32_t *gates, uint32_t w,
                         uint32_t step, unsigned len) {
  uint64_t bits = 0;
  for (unsigned i = 0; i < len; i++) {
    const uint32_t x = w + i * step;
    if (gates[x] || (door[x] & DOOR_PILLAR) || (door[x] && gates[node_of(g, door, x)]))
      bits |= 1ull << i;
  }
  return bits;
}

/* Unmarks the doors that hold cells of run (w, step, len). */
static void clear_doors(const cairn_grid *g, uint16_t *door, uint32_t w, uint32_t step, unsigned len) {
  for (unsigned i = 0; i < len; i++) {
    const uint32_t x = w + i * step;
    if (!door[x]) continue;
    const uint32_t first = node_of(g, door, x), dstep = door_step(g, door[first]);
    const unsigned n = node_cells(door, first);
    for (unsigned j = 0; j < n; j++) door[first + j * dstep] = 0;
  }
}

bool cairn__de_pillar_try(const cairn_grid *g, uint16_t *door, const uint32_t *gates, cairn__de_pillar *p) {
  const uint32_t step = p->down ? (uint32_t)g->stride : 1u;
  p->blocks = blockers(g, door, gates, p->w, step, p->len);
  p->marked = !p->blocks;
  if (!p->marked) return false;
  clear_doors(g, door, p->w, step, p->len);
  mark_door(door, p->w, step, (p->down ? DOOR_DOWN : 0u) | DOOR_PILLAR, p->len);
  return true;
}

/* Appends rec to the list (p, n, cap); false when it cannot grow. */
static bool push(const cairn_allocator *a, cairn__de_pillars *l, const cairn__de_pillar *rec) {
  if (!cairn__grow(a, (void **)&l->p, &l->cap, l->n + 1, sizeof *l->p)) return false;
  l->p[l->n++] = *rec;
  return true;
}

/* Whether every cell of run (w, step, len) has in[] set. */
static bool run_in(const uint8_t *in, uint32_t w, uint32_t step, unsigned len) {
  if (!in) return len == 0; /* no dead end */
  for (unsigned i = 0; i < len; i++)
    if (!in[w + i * step]) return false;
  return true;
}

/* What a pass over the candidates does with each: where they go, what
 * they are tried on, and (in) which it keeps. */
typedef struct pass {
  const cairn_grid *g;
  const cairn_allocator *alloc;
  uint8_t least;
  cairn__de_pillars *out;
  uint64_t *zone;       /* their cells and lines' bits set; NULL: none */
  uint16_t *door;
  const uint32_t *gates;
  const uint8_t *in;    /* only those whose run lies in it; NULL: all */
} pass;

/* Cell c's candidates (it may start a row's stretch, a column's, or
 * both), each way's two sides, tried in that order; false when the list
 * cannot grow. (x, y): c's padded coordinates. */
static bool cell_candidates(const pass *ps, uint32_t c, uint32_t x, uint32_t y) {
  const cairn_grid *g = ps->g;
  const uint8_t *t = g->cost;
  for (unsigned down = 0; down < 2; down++) {
    const line_walk l = walk_of(g, down);
    const uint32_t room = down ? (uint32_t)g->height + 1u - y : (uint32_t)g->width + 1u - x;
    if (room < 2 || !t[c + l.step]) continue;
    for (unsigned side = 0; side < 2; side++) {
      const unsigned len = candidate_length(g, c, l.step, l.across[side], room, ps->least);
      const uint32_t w = (uint32_t)((int32_t)c + l.across[side]);
      if (!len || (ps->in && !run_in(ps->in, w, l.step, len))) continue;
      cairn__de_pillar rec = {c, w, 0, (uint8_t)len, (uint8_t)down, (uint8_t)side, 0};
      if (ps->zone) zone_mark(ps->zone, c, l.step, l.across[side], len);
      cairn__de_pillar_try(g, ps->door, ps->gates, &rec);
      if (!push(ps->alloc, ps->out, &rec)) return false;
    }
  }
  return true;
}

/* cell_candidates where c may start one (a wall). */
static bool start_candidates(const pass *ps, uint32_t c) {
  const uint32_t stride = (uint32_t)ps->g->stride;
  return ps->g->cost[c] || cell_candidates(ps, c, c % stride, c / stride);
}

#ifdef CAIRN_SSE2
/* The sixteen cells from c (past the first row) that may start a
 * candidate, a bit each: walls with an open cell after them along a row
 * and a line beside that row at terrain `least` right beside them, or
 * the same down a column (candidate_length's first tests). Most cells,
 * walls along a wall among them, are neither. */
static uint32_t start_bits(const cairn_grid *g, uint32_t c, uint8_t least) {
  const __m128i zero = _mm_setzero_si128(), cheap = _mm_set1_epi8((char)least);
  const uint8_t *t = g->cost + c;
  const size_t s = (size_t)g->stride;
#define LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
  const __m128i here = _mm_cmpeq_epi8(LOAD(t), zero);
  const __m128i right = LOAD(t + 1), below = LOAD(t + s);
  const __m128i row = _mm_andnot_si128(
      _mm_cmpeq_epi8(right, zero),
      _mm_or_si128(_mm_cmpeq_epi8(LOAD(t - s), cheap), _mm_cmpeq_epi8(below, cheap)));
  const __m128i col = _mm_andnot_si128(
      _mm_cmpeq_epi8(below, zero),
      _mm_or_si128(_mm_cmpeq_epi8(LOAD(t - 1), cheap), _mm_cmpeq_epi8(right, cheap)));
#undef LOAD
  return (uint32_t)_mm_movemask_epi8(_mm_and_si128(here, _mm_or_si128(row, col)));
}
#endif

cairn_status cairn__de_mark_pillared(cairn_dead_ends *de, uint16_t *door, const uint32_t *gates,
                                     bool *marked) {
  const cairn_grid *g = de->grid;
  /* the last row is the border: no stretch starts there */
  const size_t end = g->padded - (size_t)g->stride;
  de->pillars.n = 0;
  memset(de->pillar_bits, 0, de->words * sizeof *de->pillar_bits);
  const pass ps = {g, &de->alloc, least_cost(g), &de->pillars, de->pillar_bits, door, gates, NULL};
  *marked = false;
  size_t c = 0;
#ifdef CAIRN_SSE2
  for (; c < (size_t)g->stride; c++)
    if (!start_candidates(&ps, (uint32_t)c)) return CAIRN_ERR_NOMEM;
  for (; c + 16 <= end; c += 16)
    for (uint32_t bits = start_bits(g, (uint32_t)c, ps.least); bits; bits &= bits - 1)
      if (!start_candidates(&ps, (uint32_t)c + (uint32_t)cairn__ctz(bits))) return CAIRN_ERR_NOMEM;
#endif
  for (; c < end; c++)
    if (!start_candidates(&ps, (uint32_t)c)) return CAIRN_ERR_NOMEM;
  for (size_t k = 0; k < de->pillars.n; k++) *marked |= de->pillars.p[k].marked != 0;
  return CAIRN_OK;
}

bool cairn__de_pillars_in(const cairn_dead_ends *de, uint16_t *door, const uint32_t *gates,
                          const uint8_t *in, cairn_rect box, cairn__de_pillars *out) {
  const cairn_grid *g = de->grid;
  const pass ps = {g, &de->alloc, least_cost(g), out, NULL, door, gates, in};
  out->n = 0;
  /* starts: not on the last border row or column */
  const int32_t x0 = box.x > 0 ? box.x - 1 : 0, y0 = box.y > 0 ? box.y - 1 : 0;
  const int32_t x1 = box.x + box.w <= g->width ? box.x + box.w : g->width;
  const int32_t y1 = box.y + box.h <= g->height ? box.y + box.h : g->height;
  for (int32_t y = y0; y <= y1; y++) {
    const uint32_t row = (uint32_t)y * (uint32_t)g->stride;
    for (int32_t x = x0; x <= x1; x++)
      if (!g->cost[row + (uint32_t)x] &&
          !cell_candidates(&ps, row + (uint32_t)x, (uint32_t)x, (uint32_t)y))
        return false;
  }
  return true;
}

/* dead_ends_work.h has the contract. */
bool cairn__de_pillar_in(const cairn__de_pillars *l, const cairn__de_pillar *p) {
  for (size_t k = 0; k < l->n; k++)
    if (cairn__de_pillar_key(&l->p[k]) == cairn__de_pillar_key(p)) return true;
  return false;
}

bool cairn__de_pillars_join(const cairn_dead_ends *de, const uint8_t *in,
                            cairn__de_pillars *fresh, const cairn__de_pillars *moved) {
  const cairn_grid *g = de->grid;
  for (size_t k = 0; k < moved->n; k++) {
    const cairn__de_pillar *m = &moved->p[k];
    if (!m->len || run_in(in, m->w, m->down ? (uint32_t)g->stride : 1u, m->len)) continue;
    if (!cairn__grow(&de->alloc, (void **)&fresh->p, &fresh->cap, fresh->n + 1, sizeof *fresh->p))
      return false;
    size_t at = fresh->n++;
    for (; at && cairn__de_pillar_key(&fresh->p[at - 1]) > cairn__de_pillar_key(m); at--)
      fresh->p[at] = fresh->p[at - 1];
    fresh->p[at] = *m;
  }
  return true;
}

bool cairn__de_pillars_replace(cairn_dead_ends *de, const uint8_t *in, const cairn__de_pillars *fresh,
                               const cairn__de_pillars *moved) {
  const cairn_grid *g = de->grid;
  cairn__de_pillars *l = &de->pillars;
  size_t n = 0;
  for (size_t k = 0; k < l->n; k++) { /* those wholly in A go, and those the edit moved */
    cairn__de_pillar *p = &l->p[k];
    const uint32_t step = p->down ? (uint32_t)g->stride : 1u;
    if (run_in(in, p->w, step, p->len) || cairn__de_pillar_in(moved, p)) continue;
    for (unsigned i = 0; in && i < p->len; i++) /* what kept the rest out in A may have moved */
      if (in[p->w + i * step]) p->blocks &= ~(1ull << i);
    l->p[n++] = *p;
  }
  if (!cairn__grow(&de->alloc, (void **)&l->p, &l->cap, n + fresh->n, sizeof *l->p)) {
    l->n = n; /* the caller searches the whole grid, which lists them anew */
    return false;
  }
  /* both in the full pass's order: merged from the back */
  size_t a = n, b = fresh->n, at = n + fresh->n;
  while (b) {
    if (a && cairn__de_pillar_key(&l->p[a - 1]) > cairn__de_pillar_key(&fresh->p[b - 1]))
      l->p[--at] = l->p[--a];
    else l->p[--at] = fresh->p[--b];
  }
  l->n = n + fresh->n;
  for (size_t k = 0; k < fresh->n; k++) {
    const cairn__de_pillar *p = &fresh->p[k];
    const line_walk w = walk_of(g, p->down);
    zone_mark(de->pillar_bits, p->c, w.step, w.across[p->side], p->len);
  }
  return true;
}

/* Whether cell y lies in a door beside pillars marked before the
 * candidate keyed `key` is tried (one earlier in the full pass's order). */
static bool marked_before(const cairn_dead_ends *de, uint32_t y, uint64_t key) {
  const uint32_t first = node_of(de->grid, de->doors, y);
  for (size_t k = 0; k < de->pillars.n; k++) {
    const cairn__de_pillar *p = &de->pillars.p[k];
    if (p->marked && p->w == first) return cairn__de_pillar_key(p) < key;
  }
  return false;
}

/* Whether the door cell y lies in is a gate: an area beside it is
 * entered through it. */
static bool door_gates(const cairn_dead_ends *de, uint32_t y) {
  const cairn_grid *g = de->grid;
  const uint32_t v = node_of(g, de->doors, y), step = door_step(g, de->doors[v]);
  for (unsigned i = 0; i < node_cells(de->doors, v); i++)
    for (int d = 0; d < 4; d++) {
      const uint32_t x =
          (uint32_t)((int32_t)(v + i * step) + cairn__dx[d] + cairn__dy[d] * g->stride);
      if (cairn__de_was_open(de, x) && de->area[x] && de->gate[de->area[x]] == v) return true;
    }
  return false;
}

/* The cells of run (w, step, len) outside A (in[] clear) that keep
 * candidate `key` out in the full pass whatever an edit inside A does, a
 * bit each by their place: one-cell gates (cuts of the grid's cells,
 * which such an edit leaves cuts). With in NULL (an edit outside every
 * dead end, whose update shows that no node cuts otherwise and leaves
 * every marked candidate as it was) also the cells of a door beside
 * pillars marked before it, and those of a door that is a gate. */
static uint64_t kept_out_by(const cairn_dead_ends *de, uint32_t w, uint32_t step, unsigned len,
                            const uint8_t *in, uint64_t key) {
  uint64_t bits = 0;
  for (unsigned i = 0; i < len; i++) {
    const uint32_t y = w + i * step;
    if (in && in[y]) continue;
    bool keeps = cairn__de_bit(de->cell_gate_bits, y);
    if (!in && !keeps && (de->doors[y] & DOOR_PILLAR)) keeps = marked_before(de, y, key);
    else if (!in && !keeps && de->doors[y]) keeps = door_gates(de, y);
    if (keeps) bits |= 1ull << i;
  }
  return bits;
}

/* Adds candidate rec to `moved` unless one from the same wall, way and
 * side is there; false when the list cannot grow. */
static bool push_once(const cairn_allocator *a, cairn__de_pillars *moved,
                      const cairn__de_pillar *rec) {
  return cairn__de_pillar_in(moved, rec) || push(a, moved, rec);
}

/* The listed candidate from wall c, that way and side, or NULL. */
static const cairn__de_pillar *listed(const cairn_dead_ends *de, uint32_t c, unsigned down,
                                      unsigned side) {
  const cairn__de_pillar probe = {c, 0, 0, 0, (uint8_t)down, (uint8_t)side, 0};
  const uint64_t key = cairn__de_pillar_key(&probe);
  size_t lo = 0, hi = de->pillars.n;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (cairn__de_pillar_key(&de->pillars.p[mid]) < key) lo = mid + 1;
    else hi = mid;
  }
  const bool found = lo < de->pillars.n && cairn__de_pillar_key(&de->pillars.p[lo]) == key;
  return found ? &de->pillars.p[lo] : NULL;
}

bool cairn__de_pillars_stay(const cairn_dead_ends *de, uint32_t x, const uint8_t *in,
                            cairn__de_pillars *moved) {
  const cairn_grid *g = de->grid;
  const uint8_t least = least_cost(g);
  const uint32_t stride = (uint32_t)g->stride;
  /* those listed: a changed cell on a marked one whose run leaves A (one
   * that was not marked goes; its place on the grid, below) */
  for (size_t k = 0; cairn__de_bit(de->pillar_bits, x) && k < de->pillars.n; k++) {
    const cairn__de_pillar *p = &de->pillars.p[k];
    const line_walk l = walk_of(g, p->down);
    bool on = false;
    for (unsigned i = 0; i < p->len && !on; i++)
      on = x == p->w + i * l.step || x == p->c + i * l.step;
    if (on && !run_in(in, p->w, l.step, p->len) && p->marked) return false;
  }
  /* those the grid has now */
  for (unsigned down = 0; down < 2; down++) {
    const line_walk l = walk_of(g, down);
    const uint32_t pos = down ? x / stride : x % stride; /* along the line */
    const uint32_t k0 = down ? x % stride : x / stride;  /* the line */
    const uint32_t lines = down ? (uint32_t)g->width : (uint32_t)g->height;
    /* x on L itself, or on W: L the line before or after x's */
    for (int dl = -1; dl <= 1; dl++) {
      const int64_t k = (int64_t)k0 + dl;
      if (k < 1 || k > (int64_t)lines) continue;
      const uint32_t base = line_start(g, down, (uint32_t)k);
      for (unsigned side = 0; side < 2; side++) {
        if (dl != 0 && (dl < 0) != (side == 1)) continue; /* W must be x's line */
        const uint32_t from = pos > CAIRN__DE_MAX_DOOR ? pos - CAIRN__DE_MAX_DOOR : 0;
        for (uint32_t i = from; i <= pos && i + 1 < l.room; i++) {
          const uint32_t c = base + i * l.step;
          const unsigned len = candidate_length(g, c, l.step, l.across[side], l.room - i, least);
          const uint32_t w = (uint32_t)((int32_t)c + l.across[side]);
          /* any candidate from a wall within a door's reach before x that
           * x may have changed, listed or not, and covering x or not (x
           * may end its stretch early) */
          const cairn__de_pillar *was = listed(de, c, down, side);
          if (was ? was->len == len : !len) continue; /* as it was */
          if (was && !run_in(in, was->w, l.step, was->len) && was->marked) return false;
          /* it goes from the list; as it is now, when it leaves A, what
           * the edit cannot move must keep it out (its known blocks) */
          const bool out = len && !run_in(in, w, l.step, len);
          cairn__de_pillar rec = {c, w, 0, (uint8_t)len, (uint8_t)down, (uint8_t)side, 0};
          rec.blocks = out ? kept_out_by(de, w, l.step, len, in, cairn__de_pillar_key(&rec)) : 0;
          if ((out && !rec.blocks) || !push_once(&de->alloc, moved, &rec)) return false;
        }
      }
    }
  }
  return true;
}
