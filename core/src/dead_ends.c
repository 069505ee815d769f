/* Dead-end tables (cairn_dead_ends): the areas of a grid that the rest
 * reaches through one cell or a door, found by a depth-first search for
 * cut vertices (cairn/dead_ends.h). Updates inside one dead end are in
 * dead_ends_local.c; what searches do with the table, in
 * dead_ends_search.c. */
#include "dead_ends_work.h"

#include <string.h>

/* ---- doors -------------------------------------------------------------- */

/* dead_ends_work.h has the contract. */
unsigned cairn__de_run_length(const cairn_grid *g, uint32_t c, uint32_t step, uint8_t least) {
  if (c < step || g->cost[c - step] || g->cost[c] != least) return 0;
  unsigned len = 1;
  while (len <= CAIRN__DE_MAX_DOOR && c + len * step < g->padded &&
         g->cost[c + len * step] == least)
    len++;
  const bool walled = c + len * step < g->padded && !g->cost[c + len * step];
  return len >= 2 && len <= CAIRN__DE_MAX_DOOR && walled ? len : 0;
}

de_view cairn__de_view_of(const cairn_dead_ends *de, bool before) {
  const de_view v = {.g = de->grid,
                     .cost = before ? NULL : de->grid->cost,
                     .open = de->open_bits,
                     .at_least = de->least_bits,
                     .least = de->least,
                     .bits = de->cell_gate_bits};
  return v;
}

/* Cell x as runs see it: a wall (0), open above the cheapest terrain (1)
 * or at it (2). */
CAIRN_INLINE unsigned view_cell(const de_view *v, uint32_t x) {
  if (v->cost) return v->cost[x] ? 1u + (v->cost[x] == v->least) : 0u;
  return cairn__de_bit(v->open, x) ? 1u + cairn__de_bit(v->at_least, x) : 0u;
}

CAIRN_INLINE bool view_cut(const de_view *v, uint32_t x) {
  return v->cut && (!v->in || v->in[x]) ? v->cut[x] != 0 : cairn__de_bit(v->bits, x);
}

unsigned cairn__de_run_kind(const de_view *v, uint32_t x, unsigned down, uint32_t *first) {
  const size_t padded = v->g->padded;
  const uint32_t step = down ? (uint32_t)v->g->stride : 1u;
  if (view_cell(v, x) != 2) return DE_NO_RUN;
  uint32_t c = x;
  for (unsigned back = 0; c >= step && view_cell(v, c - step) == 2; c -= step)
    if (++back >= CAIRN__DE_MAX_DOOR) return DE_NO_RUN; /* 64 cells or more */
  if (c < step || view_cell(v, c - step) != 0) return DE_NO_RUN;
  unsigned len = 1;
  while (c + len * step < padded && view_cell(v, c + len * step) == 2)
    if (++len > CAIRN__DE_MAX_DOOR) return DE_NO_RUN;
  if (len < 2 || c + len * step >= padded || view_cell(v, c + len * step) != 0) return DE_NO_RUN;
  for (unsigned i = 0; i < len; i++)
    if (view_cut(v, c + i * step)) return DE_NO_RUN;
  if (first) *first = c;
  return 2 * len + down;
}

bool cairn__de_door_rule(const de_view *v, uint32_t c, unsigned kind) {
  const unsigned len = kind / 2, down = kind % 2;
  const uint32_t step = down ? (uint32_t)v->g->stride : 1u;
  for (unsigned i = 0; i < len; i++)
    if (cairn__de_run_kind(v, c + i * step, !down, NULL) < kind) return false;
  return true;
}

/* A whole pass over the candidates from cell c (along its row, then down
 * its column): pass 0 writes their kinds into their cells' kinds[] (byte
 * 0 a row's, byte 1 a column's; those holding a cut left out), pass 1
 * marks those whose cells' other kind is higher. */
static void runs_from(const cairn_grid *g, uint32_t c, uint8_t least, int pass, const uint32_t *cut,
                      uint16_t *door, uint32_t *kinds) {
  for (unsigned down = 0; down < 2; down++) {
    const uint32_t step = down ? (uint32_t)g->stride : 1u;
    const unsigned shift = 8 * down, other = 8 - shift;
    /* pass 1 reads the run's kind back where pass 0 wrote it (not where
     * the run holds a cut) */
    const unsigned own = kinds[c] >> shift & 0xFFu;
    const unsigned len = !pass ? cairn__de_run_length(g, c, step, least)
                         : c >= step && !g->cost[c - step] && own != DE_NO_RUN ? own / 2
                                                                               : 0u;
    const unsigned kind = 2 * len + down;
    bool ok = len != 0;
    for (unsigned i = 0; ok && i < len; i++) {
      const uint32_t x = c + i * step;
      ok = pass ? (kinds[x] >> other & 0xFFu) > kind : !cut[x];
    }
    if (!ok) continue;
    if (pass) mark_door(door, c, step, down ? DOOR_DOWN : 0u, len);
    else
      for (unsigned i = 0; i < len; i++) {
        const uint32_t x = c + i * step;
        kinds[x] = (kinds[x] & ~(0xFFu << shift)) | kind << shift;
      }
  }
}

#ifdef CAIRN_SSE2
/* The sixteen cells from c on that may start a candidate, a bit each: at
 * the cheapest terrain, with a wall before them in their row or column
 * (c >= the stride). Most cells have neither, and every full pass asks
 * every cell twice. */
static unsigned start_bits(const cairn_grid *g, uint32_t c, uint8_t least) {
  const __m128i zero = _mm_setzero_si128();
  const uint8_t *t = g->cost + c;
  const __m128i here = _mm_loadu_si128((const __m128i *)(const void *)t);
  const __m128i left = _mm_loadu_si128((const __m128i *)(const void *)(t - 1));
  const __m128i up = _mm_loadu_si128((const __m128i *)(const void *)(t - g->stride));
  const __m128i walled = _mm_or_si128(_mm_cmpeq_epi8(left, zero), _mm_cmpeq_epi8(up, zero));
  const __m128i cheap = _mm_cmpeq_epi8(here, _mm_set1_epi8((char)least));
  return (unsigned)_mm_movemask_epi8(_mm_and_si128(walled, cheap));
}
#endif

/* runs_from over every padded cell. */
static void all_runs(const cairn_grid *g, uint8_t least, int pass, const uint32_t *cut,
                     uint16_t *door, uint32_t *kinds) {
  size_t c = 0;
#ifdef CAIRN_SSE2
  for (; c < (size_t)g->stride; c++) runs_from(g, (uint32_t)c, least, pass, cut, door, kinds);
  for (; c + 16 <= g->padded; c += 16)
    for (unsigned bits = start_bits(g, (uint32_t)c, least); bits; bits &= bits - 1)
      runs_from(g, (uint32_t)c + (uint32_t)cairn__ctz(bits), least, pass, cut, door, kinds);
#endif
  for (; c < g->padded; c++) runs_from(g, (uint32_t)c, least, pass, cut, door, kinds);
}

/* The kind of the run through cell x along its row (down 0) or column,
 * kept in known[] for the cells of `in` it lies on (bits 0-7 a row's kind
 * and 8-15 a column's, bit 16 + down once known; clear before): the
 * cells of a maximal line of the cheapest terrain share it, so each line
 * is walked once. Cells outside `in` are walked each time. */
static unsigned known_kind(const de_view *v, uint32_t *known, uint32_t x, unsigned down) {
  if (!v->in || !v->in[x]) return cairn__de_run_kind(v, x, down, NULL);
  const uint32_t done = 1u << (16 + down), shift = 8 * down;
  if (known[x] & done) return known[x] >> shift & 0xFFu;
  const size_t padded = v->g->padded;
  const uint32_t step = down ? (uint32_t)v->g->stride : 1u;
  /* the line of the cheapest terrain through x (x alone off it) */
  uint32_t a = x, len = 1;
  if (view_cell(v, x) == 2) {
    while (a >= step && view_cell(v, a - step) == 2) a -= step;
    while (a + len * step < padded && view_cell(v, a + len * step) == 2) len++;
  }
  const unsigned kind = cairn__de_run_kind(v, x, down, NULL);
  for (uint32_t i = 0; i < len; i++) {
    const uint32_t y = a + i * step;
    if (v->in[y]) known[y] = (known[y] & ~(0xFFu << shift)) | done | kind << shift;
  }
  return kind;
}

void cairn__de_find_doors_among(const cairn_grid *g, uint16_t *door, const uint32_t *cut,
                                const uint32_t *cells, size_t n, const uint8_t *in,
                                const uint64_t *bits, uint32_t *scratch) {
  const uint8_t least = least_cost(g);
  if (!cells) { /* each cell's two kinds first, then the doors from them */
    memset(scratch, 0xFF, g->padded * sizeof *scratch);
    all_runs(g, least, 0, cut, door, scratch);
    all_runs(g, least, 1, cut, door, scratch);
    return;
  }
  const de_view v = {g, g->cost, NULL, NULL, least, cut, in, bits};
  for (size_t k = 0; k < n; k++) scratch[cells[k]] = 0;
  for (size_t k = 0; k < n; k++)
    for (unsigned down = 0; down < 2; down++) {
      const uint32_t c = cells[k], step = down ? (uint32_t)g->stride : 1u;
      const unsigned len = cairn__de_run_length(g, c, step, least), kind = 2 * len + down;
      bool ok = len != 0 && (!in || in[c]) && known_kind(&v, scratch, c, down) == kind;
      for (unsigned i = 0; ok && i < len; i++) {
        const uint32_t x = c + i * step;
        ok = (!in || in[x]) && known_kind(&v, scratch, x, !down) > kind;
      }
      if (ok) mark_door(door, c, step, down ? DOOR_DOWN : 0u, len);
    }
}

static void find_doors(const cairn_grid *g, uint16_t *door, const uint32_t *cut, uint32_t *kinds) {
  cairn__de_find_doors_among(g, door, cut, NULL, g->padded, NULL, NULL, kinds);
}

/* ---- the depth-first search ------------------------------------------ */

/* Visits cell w from v (v == w for a root). */
CAIRN_INLINE void discover(de_work *k, uint32_t v, uint32_t w, uint32_t *sp) {
  k->order[k->time] = w;
  k->disc[w] = k->low[w] = ++k->time;
  k->parent[w] = v;
  k->sz[w] = 1;
  k->next[w] = 0;
  k->stack[(*sp)++] = w;
}

/* The straight moves' bits (the first four, cairn__dx's order). Without
 * corner cutting a diagonal step's two side cells are open, so its ends
 * are joined by straight steps through either: no set of cells that
 * holds at most one of any two diagonal neighbours (a cell, a straight
 * door) cuts a diagonal step's ends apart when it leaves those cells
 * open. So the straight moves alone give the same cuts, gates and areas,
 * for half the edges. */
#define STRAIGHT_MOVES 0x0Fu

/* next[] below HEAD while the search is at a node: for a cell in no door,
 * CELL_STARTED and the straight moves it has still to look at; for a door,
 * where it stopped, cell * 8 + move, over the door's cells. 0 until the
 * search first looks. */
#define CELL_STARTED 0x10u

/* The next neighbour node of node v the search has not discovered, or
 * UINT32_MAX when none is left; each discovered one met on the way (but
 * the parent) lowers low[v] to its discovery time. A neighbour is a node
 * across one of the straight moves of v's cells (one, or a door's); moves
 * between a door's own cells are no neighbours. */
CAIRN_INLINE uint32_t next_child(const cairn_grid *g, de_work *k, const int32_t off[8],
                                 uint32_t v, const bool doors) {
  const uint32_t pv = k->parent[v];
  uint32_t low = k->low[v];
  if (!doors || !k->door[v]) {
    /* a cell in no door, most nodes: its moves left, in one loop (a
     * neighbour is never in its node) */
    const unsigned nv = k->next[v];
    unsigned left = nv & CELL_STARTED ? nv & STRAIGHT_MOVES : g->moves[v] & STRAIGHT_MOVES;
    while (left) {
      const unsigned d = (unsigned)cairn__ctz(left);
      left &= left - 1;
      const uint32_t c = (uint32_t)((int32_t)v + off[d]);
      const uint32_t w = doors ? node_of(g, k->door, c) : c;
      const uint32_t dw = k->disc[w];
      if (!dw) {
        k->next[v] = (uint16_t)((nv & HEAD) | CELL_STARTED | left);
        k->low[v] = low;
        return w;
      }
      if (w != pv && dw < low) low = dw;
    }
    k->next[v] = (uint16_t)((nv & HEAD) | CELL_STARTED);
    k->low[v] = low;
    return UINT32_MAX;
  }
  const unsigned len = node_cells(k->door, v);
  const uint32_t step = door_step(g, k->door[v]);
  /* along the door, a step from one of its cells to the next stays in the
   * node: only its ends step on that way */
  const unsigned back = step == 1u ? STEP_W : STEP_N, on = step == 1u ? STEP_E : STEP_S;
  unsigned at = k->next[v] & (unsigned)~HEAD;
  uint32_t found = UINT32_MAX;
  while (at < len * 8u && found == UINT32_MAX) {
    const unsigned i = at >> 3;
    const uint32_t c = v + i * step;
    const unsigned ways = STRAIGHT_MOVES & ~(i > 0 ? back : 0u) & ~(i + 1 < len ? on : 0u);
    unsigned left = ((unsigned)g->moves[c] & ways) >> (at & 7u) << (at & 7u);
    at = (at | 7u) + 1u; /* the next cell, unless a child turns up here */
    while (left) {
      const unsigned d = (unsigned)cairn__ctz(left);
      left &= left - 1;
      const uint32_t w = node_of(g, k->door, (uint32_t)((int32_t)c + off[d]));
      if (w == v) continue;
      const uint32_t dw = k->disc[w];
      if (!dw) {
        found = w;
        at = (i << 3) + d + 1u;
        break;
      }
      if (w != pv && dw < low) low = dw;
    }
  }
  k->next[v] = (uint16_t)((k->next[v] & HEAD) | at);
  k->low[v] = low;
  return found;
}

/* The search (dead_ends_work.h has the contract); doors false when the
 * door marks are all 0 (the first search), whose loop then reads none;
 * ring NULL but for a window's search (cairn__de_dfs_ring). */
CAIRN_INLINE void dfs_run(const cairn_grid *g, de_work *k, const int32_t off[8], uint32_t r,
                          const bool doors, const uint8_t *ring) {
  uint32_t sp = 0, best = UINT32_MAX, second = 0;
  discover(k, r, r, &sp);
  if (ring) k->low[r] = 0; /* a root on the rim */
  while (sp) {
    const uint32_t v = k->stack[sp - 1];
    const uint32_t w = next_child(g, k, off, v, doors);
    if (w != UINT32_MAX) {
      discover(k, v, w, &sp);
      if (ring && ring[w] == DE_RIM) k->low[w] = 0;
      continue;
    }
    sp--;
    if (v == r) break;
    const uint32_t u = k->parent[v];
    if (k->low[v] < k->low[u]) k->low[u] = k->low[v];
    k->sz[u] += k->sz[v];
    if (k->low[v] >= k->disc[u]) k->next[v] |= HEAD;
    if (ring) continue;
    if (u == r && (best == UINT32_MAX || k->sz[v] > k->sz[best])) {
      if (best != UINT32_MAX) second = k->sz[best];
      best = v;
    } else if (u == r && k->sz[v] > second) {
      second = k->sz[v];
    }
  }
  if (ring) return;
  k->margin = best == UINT32_MAX || !second ? UINT32_MAX : k->sz[best] - second;
  if (best != UINT32_MAX) k->next[best] &= (uint16_t)~HEAD;
}

void cairn__de_dfs(const cairn_grid *g, de_work *k, const int32_t off[8], uint32_t r) {
  dfs_run(g, k, off, r, true, NULL);
}

static void dfs_cells(const cairn_grid *g, de_work *k, const int32_t off[8], uint32_t r) {
  dfs_run(g, k, off, r, false, NULL);
}

void cairn__de_dfs_ring(const cairn_grid *g, de_work *k, const int32_t off[8], uint32_t r,
                        bool doors, const uint8_t *in) {
  if (doors) dfs_run(g, k, off, r, true, in);
  else dfs_run(g, k, off, r, false, in);
}

/* ---- labelling -------------------------------------------------------- */

/* Whether cell v starts an area: a root, or a HEAD cell. */
CAIRN_INLINE bool starts_area(const de_work *k, uint32_t v) {
  return k->parent[v] == v || (k->next[v] & HEAD);
}

/* The areas the search's tree has (label needs the per-area arrays that
 * many). */
static uint32_t count_areas(const de_work *k) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < k->time; i++) n += starts_area(k, k->order[i]);
  return n;
}

/* Areas from the search's tree, in discovery order: a cell that starts
 * one gets the next id, every other cell joins its parent's. aux gets each
 * area's first position in `order`. */
static void label(cairn_dead_ends *de, de_work *k) {
  uint32_t id = 0;
  for (uint32_t i = 0; i < k->time; i++) {
    const uint32_t v = k->order[i], u = k->parent[v];
    const bool starts = starts_area(k, v);
    if (starts) {
      id++;
      k->aux[id] = i;
      de->end[id] = i + k->sz[v]; /* a position for now; an id below */
      de->gate[id] = u == v ? UINT32_MAX : u;
      de->depth[id] = u == v ? 0 : de->depth[de->area[u]] + 1;
      de->cells[id] = 0;
    }
    if (starts)
      de->door[id] = u != v && node_cells(k->door, u) > 1 ? (uint8_t)(k->door[u] & DOOR_CODE) : 0u;
    const uint32_t a = starts ? id : de->area[u];
    de->area[v] = a;
    de->cells[a] += node_cells(k->door, v);
  }
  /* a door's other cells are in its area too */
  for (uint32_t c = 0; c < (uint32_t)de->padded; c++)
    if (k->door[c] & DOOR_PART) de->area[c] = de->area[node_of(de->grid, k->door, c)];
  /* an area's id range ends at the first area that starts past its cells */
  for (uint32_t a = 1; a <= id; a++) {
    uint32_t lo = a + 1, hi = id + 1;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (k->aux[mid] < de->end[a]) lo = mid + 1;
      else hi = mid;
    }
    de->end[a] = lo;
  }
  de->count = id;
}

/* ---- the table --------------------------------------------------------- */

void cairn__de_arrays_free(const cairn_allocator *a, de_arrays *r) {
  const size_t n = (size_t)r->count + 1;
  cairn__free(a, r->end, n * sizeof *r->end);
  cairn__free(a, r->gate, n * sizeof *r->gate);
  cairn__free(a, r->cells, n * sizeof *r->cells);
  cairn__free(a, r->depth, n * sizeof *r->depth);
  cairn__free(a, r->first, n * sizeof *r->first);
  cairn__free(a, r->slack, n * sizeof *r->slack);
  cairn__free(a, r->margin, n * sizeof *r->margin);
  cairn__free(a, r->centre, n * sizeof *r->centre);
  cairn__free(a, r->door, n);
}

bool cairn__de_arrays_alloc(const cairn_allocator *a, de_arrays *r, uint32_t count) {
  const size_t n = (size_t)count + 1;
  r->count = count;
  r->end = cairn__alloc(a, n * sizeof *r->end);
  r->gate = cairn__alloc(a, n * sizeof *r->gate);
  r->cells = cairn__alloc(a, n * sizeof *r->cells);
  r->depth = cairn__alloc(a, n * sizeof *r->depth);
  r->first = cairn__alloc_zero(a, n * sizeof *r->first);
  r->slack = cairn__alloc_zero(a, n * sizeof *r->slack);
  r->margin = cairn__alloc_zero(a, n * sizeof *r->margin);
  r->centre = cairn__alloc_zero(a, n * sizeof *r->centre);
  r->door = cairn__alloc(a, n);
  if (r->end && r->gate && r->cells && r->depth && r->first && r->slack && r->margin && r->centre &&
      r->door)
    return true;
  cairn__de_arrays_free(a, r);
  return false;
}

/* Frees the table's area arrays and puts r's in their place. */
void cairn__de_put_areas(cairn_dead_ends *de, const de_arrays *r) {
  de_arrays was = {de->end,   de->gate,   de->cells,  de->depth, de->first,
                   de->slack, de->margin, de->centre, de->door,  de->count};
  cairn__de_arrays_free(&de->alloc, &was);
  de->end = r->end;
  de->gate = r->gate;
  de->cells = r->cells;
  de->depth = r->depth;
  de->first = r->first;
  de->slack = r->slack;
  de->margin = r->margin;
  de->centre = r->centre;
  de->door = r->door;
  de->count = r->count;
}

static void release_areas(cairn_dead_ends *de) {
  const de_arrays none = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0};
  cairn__de_put_areas(de, &none);
}

static cairn_status grow_areas(cairn_dead_ends *de, uint32_t count) {
  release_areas(de);
  de_arrays r;
  if (!cairn__de_arrays_alloc(&de->alloc, &r, count)) return CAIRN_ERR_NOMEM;
  cairn__de_put_areas(de, &r);
  return CAIRN_OK;
}

/* One search over every island, roots first from `roots` (n of them),
 * then from each open cell not yet reached, in index order; the margin of
 * each root's search (dfs) into margin (unless NULL), in that order.
 * doors: false when k's door marks are all 0. Returns how many searches
 * ran: one an island. */
static uint32_t search_all(const cairn_grid *g, de_work *k, const uint32_t *roots, uint32_t n,
                           uint32_t *margin, bool doors) {
  void (*dfs)(const cairn_grid *, de_work *, const int32_t *, uint32_t) =
      doors ? cairn__de_dfs : dfs_cells;
  int32_t off[8];
  move_offsets(g, off);
  memset(k->disc, 0, g->padded * sizeof *k->disc);
  k->time = 0;
  uint32_t runs = 0;
  for (uint32_t i = 0; i < n; i++)
    if (!k->disc[roots[i]]) {
      dfs(g, k, off, roots[i]);
      if (margin) margin[runs] = k->margin;
      runs++;
    }
  for (size_t c = 0; c < g->padded; c++)
    if (g->cost[c] && !k->disc[c] && !(k->door[c] & DOOR_PART)) {
      dfs(g, k, off, (uint32_t)c);
      if (margin) margin[runs] = k->margin;
      runs++;
    }
  return runs;
}

/* The roots of the second search, into aux: for each island, the first
 * cell of its central area, the one that leaves no side of any of its
 * gates more than half the island's cells (found by walking from the
 * first search's root into the heavier side while there is one). Rooted
 * there, a dead end is always the smaller side of its gate: the rooms
 * hang off the halls, not the halls off the first room met. low, free
 * after the search, holds the cells of areas below each id. Per island
 * also its first cell (where the search began) into first, and into
 * slack how far the sizes the walk compared stood from half the island:
 * changing fewer cells than that cannot change a choice. */
static uint32_t pick_roots(const cairn_dead_ends *de, de_work *k, uint32_t *first,
                           uint32_t *slack) {
  uint32_t *below = k->low;
  below[1] = 0;
  for (uint32_t a = 1; a <= de->count; a++) below[a + 1] = below[a] + de->cells[a];
  uint32_t n = 0;
  for (uint32_t r = 1; r <= de->count; r = de->end[r]) {
    const uint32_t half = (below[de->end[r]] - below[r]) / 2;
    uint32_t at = r, least = UINT32_MAX;
    for (bool moved = true; moved;) {
      moved = false;
      for (uint32_t b = at + 1; b < de->end[at]; b = de->end[b]) {
        const uint32_t size = below[de->end[b]] - below[b];
        const uint32_t gap = size > half ? size - half : half - size;
        least = gap < least ? gap : least;
        if (size > half) {
          at = b;
          moved = true;
          break;
        }
      }
    }
    first[n] = k->order[k->aux[r]];
    slack[n] = least;
    k->aux[n++] = k->order[k->aux[at]]; /* n <= r <= at: not yet read */
  }
  return n;
}


/* The stats and the gate bits that follow from the areas alone: all but
 * the open cells' count (and their dead bits, which the callers set). */
static cairn_dead_ends_stats area_stats(cairn_dead_ends *de) {
  cairn_dead_ends_stats s;
  memset(&s, 0, sizeof s);
  memset(de->gate_bits, 0, de->words * sizeof *de->gate_bits);
  memset(de->cell_gate_bits, 0, de->words * sizeof *de->cell_gate_bits);
  for (uint32_t a = 1; a <= de->count; a++) {
    if (de->gate[a] == UINT32_MAX) continue;
    s.areas++;
    s.doors += de->door[a] != 0;
    s.cells += de->cells[a];
    if (de->depth[a] > s.depth) s.depth = de->depth[a];
    const uint32_t u = de->gate[a];
    if (!cairn__de_bit(de->gate_bits, u)) s.gates++;
    const unsigned len = cairn__de_gate_len(de, a);
    for (unsigned i = 0; i < len; i++)
      cairn__de_set_bit(de->gate_bits, u + i * cairn__de_gate_step(de, a));
    if (len == 1) cairn__de_set_bit(de->cell_gate_bits, u);
  }
  return s;
}

/* Widens box (padded coordinates; width 0: none) to cell c. */
static void cover_cell(cairn_rect *box, uint32_t stride, uint32_t c) {
  const int32_t x = (int32_t)(c % stride), y = (int32_t)(c / stride);
  if (box->w <= 0) {
    const cairn_rect one = {x, y, 1, 1};
    *box = one;
    return;
  }
  const int32_t x1 = box->x + box->w - 1, y1 = box->y + box->h - 1;
  box->x = x < box->x ? x : box->x;
  box->y = y < box->y ? y : box->y;
  box->w = (x > x1 ? x : x1) - box->x + 1;
  box->h = (y > y1 ? y : y1) - box->y + 1;
}

/* The area gates now in gate_bits into area_gate_bits; with diff, the
 * bounds (padded coordinates) of the cells whose bit that moves joined
 * to box. */
static cairn_rect keep_area_gates(cairn_dead_ends *de, cairn_rect box, bool diff) {
  for (size_t w = 0; diff && w < de->words; w++)
    for (uint64_t m = de->gate_bits[w] ^ de->area_gate_bits[w]; m; m &= m - 1)
      cover_cell(&box, (uint32_t)de->grid->stride, (uint32_t)(w * 64 + (size_t)cairn__ctz64(m)));
  memcpy(de->area_gate_bits, de->gate_bits, de->words * sizeof *de->gate_bits);
  return box;
}

/* The bounds of the cells whose openness or place at the cheapest
 * terrain moved since the snapshot, joined to box. */
static cairn_rect shape_moved(const cairn_dead_ends *de, cairn_rect box) {
  const uint8_t least = least_cost(de->grid);
  for (size_t w = 0; w < de->words; w++) {
    uint64_t open, at_least;
    cairn__de_shape_word(de, least, w, &open, &at_least);
    for (uint64_t m = (open ^ de->open_bits[w]) | (at_least ^ de->least_bits[w]); m; m &= m - 1)
      cover_cell(&box, (uint32_t)de->grid->stride, (uint32_t)(w * 64 + (size_t)cairn__ctz64(m)));
  }
  return box;
}

cairn_rect cairn__de_areas_moved(const cairn_dead_ends *de, de_work *k, const uint32_t *old,
                                 const uint32_t *cells, size_t n, const uint32_t ids[4],
                                 cairn_rect box) {
  const uint32_t o0 = ids[0], olds = ids[1] - ids[0], n0 = ids[2], news = ids[3] - ids[2];
  /* the same ids on every cell (the areas as they were, no id moved):
   * nothing moved */
  if (!cells && olds == news && o0 == n0 && !memcmp(old, de->area, de->padded * sizeof *old))
    return box;
  /* each old area's likeliest new one (Boyer and Moore's majority vote),
   * then matched to it unless an old area before took it */
  uint32_t *cand = k->sz, *votes = k->low, *owner = k->parent, *match = k->order;
  memset(votes, 0, olds * sizeof *votes);
  for (uint32_t a = 0; a < news; a++) owner[a] = UINT32_MAX;
  const size_t count = cells ? n : de->padded;
  for (size_t i = 0; i < count; i++) {
    const uint32_t c = cells ? cells[i] : (uint32_t)i, o = old[c], a = de->area[c];
    if (o < o0 || o - o0 >= olds || !a || !de->grid->cost[c]) continue;
    if (!votes[o - o0]) {
      cand[o - o0] = a;
      votes[o - o0] = 1;
    } else {
      votes[o - o0] += cand[o - o0] == a ? 1u : UINT32_MAX; /* one up or one down */
    }
  }
  for (uint32_t o = 0; o < olds; o++) {
    match[o] = UINT32_MAX;
    if (!votes[o] || owner[cand[o] - n0] != UINT32_MAX) continue;
    owner[cand[o] - n0] = o;
    match[o] = cand[o];
  }
  for (size_t i = 0; i < count; i++) {
    const uint32_t c = cells ? cells[i] : (uint32_t)i, o = old[c], a = de->area[c];
    if (o < o0 || o - o0 >= olds || !a || !de->grid->cost[c]) continue;
    if (match[o - o0] != a) cover_cell(&box, (uint32_t)de->grid->stride, c);
  }
  return box;
}

void cairn__de_set_stats(cairn_dead_ends *de, de_work *k, const uint32_t *old, uint32_t olds) {
  const cairn_grid *g = de->grid;
  cairn_dead_ends_stats s = area_stats(de);
  const cairn_rect none = {0, 0, 0, 0};
  /* with the areas before at hand, the swamps are redone only round what
   * moved: the cells, the areas as sets of cells, the gates */
  const bool redo = old != NULL;
  const uint32_t ids[4] = {1, olds + 1, 1, de->count + 1};
  const cairn_rect box = keep_area_gates(
      de, redo ? cairn__de_areas_moved(de, k, old, NULL, 0, ids, shape_moved(de, none)) : none,
      redo);
  memset(de->dead_bits, 0, de->words * sizeof *de->dead_bits);
  for (size_t c = 0; c < de->padded; c++) {
    const uint32_t a = de->area[c];
    if (!g->cost[c]) continue;
    s.open++;
    if (de->gate[a] != UINT32_MAX) cairn__de_set_bit(de->dead_bits, (uint32_t)c);
  }
  s.swamps = de->stats.swamps;
  s.swamp_cells = de->stats.swamp_cells;
  de->stats = s;
  if (!redo || !cairn__de_find_swamps_near(de, box)) cairn__de_find_swamps(de);
}

void cairn__de_set_stats_inside(cairn_dead_ends *de, const uint32_t *changed, uint32_t n,
                                cairn_rect box) {
  const cairn_grid *g = de->grid;
  cairn_dead_ends_stats s = area_stats(de);
  box = keep_area_gates(de, box, true);
  s.open = de->stats.open;
  s.swamps = de->stats.swamps;
  s.swamp_cells = de->stats.swamp_cells;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t c = changed[i];
    const bool now = g->cost[c] != 0, was = cairn__de_bit(de->open_bits, c);
    if (now == was) continue;
    s.open = now ? s.open + 1 : s.open - 1;
    const uint64_t bit = 1ull << (c & 63u);
    const bool dead = now && de->gate[de->area[c]] != UINT32_MAX;
    de->dead_bits[c >> 6] = dead ? de->dead_bits[c >> 6] | bit : de->dead_bits[c >> 6] & ~bit;
  }
  de->stats = s;
  if (!cairn__de_find_swamps_near(de, box)) cairn__de_find_swamps(de);
}

void cairn__de_mark_cuts_here(de_work *k) {
  for (uint32_t i = 0; i < k->time; i++) {
    const uint32_t v = k->order[i];
    if (k->parent[v] != v && (k->next[v] & HEAD)) k->aux[k->parent[v]] = 1;
  }
}

/* aux[c] = 1 for each cell some area hangs off in the last search (a
 * parent of a HEAD cell), else 0. */
static void mark_cuts(de_work *k, size_t n) {
  memset(k->aux, 0, (n + 1) * sizeof *k->aux);
  cairn__de_mark_cuts_here(k);
}

void cairn__de_work_free(const cairn_allocator *a, de_work *k, size_t n) {
  cairn__free(a, k->disc, n * sizeof *k->disc);
  cairn__free(a, k->low, n * sizeof *k->low);
  cairn__free(a, k->parent, n * sizeof *k->parent);
  cairn__free(a, k->sz, n * sizeof *k->sz);
  cairn__free(a, k->order, n * sizeof *k->order);
  cairn__free(a, k->aux, (n + 1) * sizeof *k->aux);
  cairn__free(a, k->next, n * sizeof *k->next);
  cairn__free(a, k->door, n * sizeof *k->door);
}

/* Each root area's first cell, slack, margin (the smaller of those at
 * the roots of the last two searches) and centre from the per-island rows
 * of island (`row` apart), islands in the order of their root areas. */
static void keep_islands(cairn_dead_ends *de, const uint32_t *island, uint32_t row) {
  uint32_t i = 0;
  for (uint32_t r = 1; r <= de->count; r = de->end[r], i++) {
    const uint32_t m2 = island[2 * row + i], m3 = island[3 * row + i];
    de->first[r] = island[i];
    de->slack[r] = island[row + i];
    de->margin[r] = m2 < m3 ? m2 : m3;
    de->centre[r] = island[4 * row + i];
  }
}

bool cairn__de_work_alloc(const cairn_allocator *a, de_work *k, size_t n) {
  memset(k, 0, sizeof *k);
  k->disc = cairn__alloc(a, n * sizeof *k->disc);
  k->low = cairn__alloc(a, n * sizeof *k->low);
  k->parent = cairn__alloc(a, n * sizeof *k->parent);
  k->sz = cairn__alloc(a, n * sizeof *k->sz);
  k->order = cairn__alloc(a, n * sizeof *k->order);
  k->aux = cairn__alloc(a, (n + 1) * sizeof *k->aux);
  k->next = cairn__alloc(a, n * sizeof *k->next);
  k->door = cairn__alloc(a, n * sizeof *k->door);
  return k->disc && k->low && k->parent && k->sz && k->order && k->aux && k->next && k->door;
}

/* After a whole search, the swamps are redone only round what moved
 * when they hold at least 1 / SWAMPS_REDONE of the padded cells: finding
 * which areas moved costs about 26 instructions a cell (two passes), the
 * full pass about 800 a swamp cell (callgrind, 32room_000 and
 * ht_chantry), so below that share the full pass is the cheaper. */
#define SWAMPS_REDONE 32

/* Finds the areas: a first search from wherever each island starts, a
 * second from each island's central area (pick_roots). */
static cairn_status find(cairn_dead_ends *de, bool was_current) {
  const cairn_grid *g = de->grid;
  const size_t n = g->padded;
  const cairn_allocator *a = &de->alloc;
  de_work k;
  cairn_status st = CAIRN_ERR_NOMEM;
  /* an update searches in the local updates' scratch, kept from one to
   * the next (fresh arrays each time cost page faults a third of such an
   * update's time); the build in arrays of its own, freed after */
  de_work *kept = de->finds ? cairn__de_scratch_work(de) : NULL;
  const bool room = kept ? (k = *kept, true) : cairn__de_work_alloc(a, &k, n);
  /* a current table's areas, kept for the swamps (the search's stack
   * overwrites them) where redoing them near what moved pays */
  uint32_t *old = kept && was_current && de->stats.swamp_cells * SWAMPS_REDONE >= n
                      ? cairn__de_scratch_list(de)
                      : NULL;
  const uint32_t olds = de->count;
  if (old) memcpy(old, de->area, n * sizeof *old);
  k.stack = de->area;
  if (room) {
    /* the one-cell gates first, from a search without doors */
    memset(k.door, 0, n * sizeof *k.door);
    /* per island five rows: its first cell, the walk's slack, the margins
     * at the root of the second and the third search, the third's root */
    const uint32_t islands = search_all(g, &k, NULL, 0, NULL, false), row = islands + 1;
    uint32_t *island = cairn__alloc(a, 5 * (size_t)row * sizeof *island);
    st = island ? CAIRN_OK : CAIRN_ERR_NOMEM;
    if (st == CAIRN_OK) {
      mark_cuts(&k, n);
      find_doors(g, k.door, k.aux, k.sz); /* sz is free until the search */
      search_all(g, &k, NULL, 0, island + 2 * row, true);
      /* the doors beside pillars where no gate of this search (nor a
       * one-cell cut) stands; with any, the search again, so that the
       * centres are picked with them */
      cairn__de_mark_cuts_here(&k);
      bool again = false;
      st = cairn__de_mark_pillared(de, k.door, k.aux, &again);
      if (again) search_all(g, &k, NULL, 0, island + 2 * row, true);
      if (st == CAIRN_OK) st = grow_areas(de, count_areas(&k));
    }
    if (st == CAIRN_OK) {
      memset(de->area, 0, n * sizeof *de->area);
      label(de, &k);
      const uint32_t roots = pick_roots(de, &k, island, island + row);
      memcpy(island + 4 * row, k.aux, roots * sizeof *island);
      search_all(g, &k, k.aux, roots, island + 3 * row, true);
      st = grow_areas(de, count_areas(&k));
    }
    if (st == CAIRN_OK) {
      memset(de->area, 0, n * sizeof *de->area);
      label(de, &k);
      /* the ids in the order no search decides */
      if (!cairn__de_canonical(de, 1, de->count + 1, NULL, 0)) st = CAIRN_ERR_NOMEM;
    }
    if (st == CAIRN_OK) {
      keep_islands(de, island, row);
      memcpy(de->doors, k.door, n * sizeof *k.door);
      cairn__de_set_stats(de, &k, old, olds);
    }
    cairn__free(a, island, island ? 5 * (size_t)row * sizeof *island : 0);
  }
  if (kept) cairn__de_scratch_reset(de);
  else cairn__de_work_free(a, &k, n);
  return st;
}

void cairn__de_shape_word(const cairn_dead_ends *de, uint8_t least, size_t w, uint64_t *open,
                          uint64_t *at_least) {
  const size_t c0 = w * 64, n = de->padded - c0 < 64 ? de->padded - c0 : 64;
  *open = *at_least = 0;
#ifdef CAIRN_SSE2
  /* every update compares the whole grid's shape twice: sixteen cells a
   * compare where SSE2 is (every x86-64), the same bits as the loop */
  if (n == 64) {
    const __m128i zero = _mm_setzero_si128(), at = _mm_set1_epi8((char)least);
    for (unsigned q = 0; q < 4; q++) {
      const __m128i v =
          _mm_loadu_si128((const __m128i *)(const void *)(de->grid->cost + c0 + 16 * q));
      const unsigned blocked = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero));
      const unsigned cheap = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, at));
      *open |= (uint64_t)(~blocked & 0xffffu) << (16 * q);
      *at_least |= (uint64_t)cheap << (16 * q);
    }
    return;
  }
#endif
  for (size_t i = 0; i < n; i++) {
    const uint8_t t = de->grid->cost[c0 + i];
    *open |= (uint64_t)(t != 0) << i;
    *at_least |= (uint64_t)(t == least) << i;
  }
}

cairn_rect cairn__de_cover(const cairn_grid *g, cairn_rect box, const uint32_t *cells, size_t n) {
  for (size_t i = 0; i < n; i++) cover_cell(&box, (uint32_t)g->stride, cells[i]);
  return box;
}

bool cairn__de_changed_cells(const cairn_dead_ends *de, uint32_t *changed, uint32_t cap,
                             uint32_t *n, uint32_t *d) {
  const uint8_t least = least_cost(de->grid);
  if (least != de->least) return false;
  *n = *d = 0;
  for (size_t w = 0; w < de->words; w++) {
    const size_t c0 = w * 64;
    uint64_t open, at_least;
    cairn__de_shape_word(de, least, w, &open, &at_least);
    const uint64_t flip = open ^ de->open_bits[w];
    for (uint64_t m = flip | (at_least ^ de->least_bits[w]); m; m &= m - 1) {
      if (*n == cap) return false;
      const uint32_t c = (uint32_t)(c0 + (size_t)cairn__ctz64(m));
      changed[(*n)++] = c;
      *d += (uint32_t)(flip >> (c - c0) & 1u);
    }
  }
  return *n > 0;
}

/* Compares the grid's open and cheapest-terrain cells with the snapshot
 * (store: writes it instead); true when they match. One pass of 64 cells
 * a word: a small part of a search's cost. */
static bool same_shape(cairn_dead_ends *de, bool store) {
  const uint8_t least = least_cost(de->grid);
  bool same = !store && least == de->least;
  for (size_t w = 0; w < de->words && (store || same); w++) {
    uint64_t open, at_least;
    cairn__de_shape_word(de, least, w, &open, &at_least);
    if (store) {
      de->open_bits[w] = open;
      de->least_bits[w] = at_least;
    } else {
      same = open == de->open_bits[w] && at_least == de->least_bits[w];
    }
  }
  if (store) de->least = least;
  return same;
}

cairn_status cairn_dead_ends_create(const cairn_grid *grid, const cairn_allocator *alloc,
                                    cairn_dead_ends **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!grid) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_dead_ends *de = cairn__alloc_zero(&a, sizeof *de);
  if (!de) return CAIRN_ERR_NOMEM;
  de->alloc = a;
  de->grid = grid;
  de->padded = grid->padded;
  de->words = (grid->padded + 63) / 64;
  de->area = cairn__alloc(&a, de->padded * sizeof *de->area);
  de->gate_bits = cairn__alloc(&a, de->words * sizeof *de->gate_bits);
  de->cell_gate_bits = cairn__alloc(&a, de->words * sizeof *de->cell_gate_bits);
  de->dead_bits = cairn__alloc(&a, de->words * sizeof *de->dead_bits);
  de->open_bits = cairn__alloc(&a, de->words * sizeof *de->open_bits);
  de->least_bits = cairn__alloc(&a, de->words * sizeof *de->least_bits);
  de->pillar_bits = cairn__alloc(&a, de->words * sizeof *de->pillar_bits);
  de->halo_bits = cairn__alloc(&a, de->words * sizeof *de->halo_bits);
  de->area_gate_bits = cairn__alloc(&a, de->words * sizeof *de->area_gate_bits);
  de->border_bits = cairn__alloc(&a, de->words * sizeof *de->border_bits);
  de->border_count = cairn__alloc(&a, de->padded);
  de->swamp = cairn__alloc(&a, de->padded * sizeof *de->swamp);
  de->swamp_list = cairn__alloc(&a, 4 * CAIRN__DE_SWAMP_CELLS * sizeof *de->swamp_list);
  de->doors = cairn__alloc(&a, de->padded * sizeof *de->doors);
  cairn_status st = de->area && de->gate_bits && de->cell_gate_bits && de->dead_bits &&
                            de->open_bits && de->least_bits && de->pillar_bits && de->halo_bits &&
                            de->area_gate_bits && de->border_bits && de->border_count &&
                            de->swamp &&
                            de->swamp_list && de->doors
                        ? cairn_dead_ends_update(de)
                        : CAIRN_ERR_NOMEM;
  if (st != CAIRN_OK) {
    cairn_dead_ends_destroy(de);
    return st;
  }
  *out = de;
  return CAIRN_OK;
}

void cairn_dead_ends_destroy(cairn_dead_ends *de) {
  if (!de) return;
  cairn_allocator a = de->alloc;
  release_areas(de);
  cairn__free(&a, de->area, de->padded * sizeof *de->area);
  cairn__free(&a, de->gate_bits, de->words * sizeof *de->gate_bits);
  cairn__free(&a, de->cell_gate_bits, de->words * sizeof *de->cell_gate_bits);
  cairn__free(&a, de->dead_bits, de->words * sizeof *de->dead_bits);
  cairn__free(&a, de->open_bits, de->words * sizeof *de->open_bits);
  cairn__free(&a, de->least_bits, de->words * sizeof *de->least_bits);
  cairn__free(&a, de->pillar_bits, de->words * sizeof *de->pillar_bits);
  cairn__free(&a, de->pillars.p, de->pillars.cap * sizeof *de->pillars.p);
  cairn__free(&a, de->halo_bits, de->words * sizeof *de->halo_bits);
  cairn__free(&a, de->area_gate_bits, de->words * sizeof *de->area_gate_bits);
  cairn__free(&a, de->border_bits, de->words * sizeof *de->border_bits);
  cairn__free(&a, de->border_count, de->border_count ? de->padded : 0);
  cairn__de_swamps_free(de);
  cairn__free(&a, de->swamp, de->swamp ? de->padded * sizeof *de->swamp : 0);
  cairn__free(&a, de->doors, de->doors ? de->padded * sizeof *de->doors : 0);
  cairn__free(&a, de->swamp_list,
              de->swamp_list ? 4 * CAIRN__DE_SWAMP_CELLS * sizeof *de->swamp_list : 0);
  cairn__de_scratch_free(&a, de->scratch, de->padded);
  cairn__de_root_free(de);
  cairn__de_ring_free(de);
  cairn__free(&a, de, sizeof *de);
}

cairn_status cairn_dead_ends_update(cairn_dead_ends *de) {
  if (!de) return CAIRN_ERR_ARG;
  /* edits that opened or closed no cell and moved no cell into or out of
   * the cheapest terrain leave every gate, door and area as they were */
  if (de->current && same_shape(de, false)) {
    de->version = de->grid->edits;
    return CAIRN_OK;
  }
  /* an update inside a dead end that fails after it began to write the
   * table marks it not current, so the root's is not tried on it */
  if (de->current && (cairn__de_update_inside(de) || (de->current && cairn__de_update_root(de)) ||
                      (de->current && cairn__de_update_ring(de)))) {
    de->locals++;
  } else {
    const bool was_current = de->current;
    de->current = false;
    cairn_status st = find(de, was_current);
    if (st != CAIRN_OK) return st;
    de->finds++;
  }
  same_shape(de, true);
  de->version = de->grid->edits;
  de->current = true;
  return CAIRN_OK;
}

int cairn_dead_ends_current(const cairn_dead_ends *de) {
  return de && de->current && de->version == de->grid->edits;
}

uint32_t cairn_dead_ends_swamp(const cairn_dead_ends *de, int32_t x, int32_t y) {
  if (!de || !de->current || !cairn_grid_contains(de->grid, x, y)) return 0;
  return de->swamp[cairn__grid_index(de->grid, x, y)];
}

uint32_t cairn_dead_ends_area(const cairn_dead_ends *de, int32_t x, int32_t y) {
  if (!de || !de->current || !cairn_grid_contains(de->grid, x, y)) return 0;
  const uint32_t c = cairn__grid_index(de->grid, x, y);
  if (!de->grid->cost[c] || !cairn__de_bit(de->dead_bits, c)) return 0;
  return de->area[c];
}

cairn_status cairn_dead_ends_get_stats(const cairn_dead_ends *de, cairn_dead_ends_stats *out) {
  if (!de || !out) return CAIRN_ERR_ARG;
  *out = de->stats;
  out->local_updates = de->locals;
  out->whole_searches = de->finds;
  return CAIRN_OK;
}

size_t cairn_dead_ends_memory(const cairn_dead_ends *de) {
  if (!de) return 0;
  /* per area: end, gate, cells, depth, first, slack, margin, centre and door */
  return sizeof *de +
         de->padded * (sizeof *de->area + sizeof *de->swamp + sizeof *de->doors + 1) +
         4 * CAIRN__DE_SWAMP_CELLS * sizeof *de->swamp_list +
         9 * de->words * sizeof *de->gate_bits + de->cap_swamps * sizeof *de->swamps +
         de->swamp_work.cap_heap * sizeof *de->swamp_work.heap +
         de->swamp_work.cap_out * sizeof *de->swamp_work.out +
         de->swamp_work.cap_out_at * sizeof *de->swamp_work.out_at +
         de->swamp_work.cap_pool * sizeof *de->swamp_work.pool +
         ((size_t)de->count + 1) * (8 * sizeof *de->end + 1) +
         de->pillars.cap * sizeof *de->pillars.p +
         (de->scratch ? cairn__de_scratch_bytes(de->padded) : 0) + cairn__de_root_bytes(de) +
         cairn__de_ring_bytes(de);
}
