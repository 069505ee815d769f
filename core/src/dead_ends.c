/* Dead-end tables (cairn_dead_ends): the areas of a grid that the rest
 * reaches through one cell, found by a depth-first search for cut
 * vertices (cairn/dead_ends.h; the searches skip them in search_grid.c
 * and search_jps.c). */
#include "dead_ends_internal.h"

#include "search_internal.h"

#include <string.h>

/* ---- the depth-first search ------------------------------------------ */

/* The search's arrays, a padded cell each. disc: discovery time (1 ..,
 * 0 unvisited); low: the lowest discovery time the cell's subtree reaches
 * by one back edge; parent: the tree parent (itself for a root); sz: the
 * subtree's cells; order: the cells by discovery time; next: the first
 * move not yet looked at, with HEAD set on a cell whose subtree only its
 * parent joins to the rest (the first cell of an area); aux: free for the
 * labelling. `stack` is the table's own area array, labelled only after. */
#define HEAD 0x80u
typedef struct de_work {
  uint32_t *disc, *low, *parent, *sz, *order, *aux, *stack;
  uint8_t *next, *door;
  uint32_t time;
  /* the last search's root: how many nodes more its largest subtree has
   * than the next (UINT32_MAX with one subtree or none) */
  uint32_t margin;
} de_work;

/* ---- doors -------------------------------------------------------------- */

/* The search's nodes are cells and doors (dead_ends_internal.h): a door
 * is one node, so that a door whose removal cuts an island in two is a
 * cut vertex like a one-cell gate. door[c], a padded cell each: 0 for a
 * cell in no door; DOOR_FIRST | its length on a door's first cell (top or
 * left), DOOR_PART | its place on the others; DOOR_DOWN on a vertical
 * door's. A node is named by its first cell. */
#define DOOR_FIRST 0x40u
#define DOOR_PART 0x80u
#define DOOR_DOWN CAIRN__DE_DOOR_DOWN

static uint32_t door_step(const cairn_grid *g, uint8_t b) {
  return b & DOOR_DOWN ? (uint32_t)g->stride : 1u;
}

/* The node cell c belongs to. */
static uint32_t node_of(const cairn_grid *g, const uint8_t *door, uint32_t c) {
  const uint8_t b = door[c];
  return b & DOOR_PART ? c - (b & 7u) * door_step(g, b) : c;
}

/* The cells of node v. */
static unsigned node_cells(const uint8_t *door, uint32_t v) {
  return door[v] & DOOR_FIRST ? door[v] & 7u : 1u;
}

/* Whether the `len` cells from c on by `step` are open at terrain
 * `least`, in no door yet and no one-cell gate (cut[c] != 0), with walls
 * just before and after them. */
static bool door_fits(const cairn_grid *g, const uint8_t *door, const uint32_t *cut,
                      uint32_t c, uint32_t step, unsigned len, uint8_t least) {
  if (c < step || c + len * step >= g->padded || g->cost[c - step] || g->cost[c + len * step])
    return false;
  for (unsigned i = 0; i < len; i++)
    if (g->cost[c + i * step] != least || door[c + i * step] || cut[c + i * step]) return false;
  return true;
}

/* Marks the doors: straight runs of 2 .. CAIRN__DE_MAX_DOOR cells at the
 * grid's cheapest terrain between two walls, the shorter first, rows
 * before columns, cells in index order, none sharing a cell with one
 * marked before or with a one-cell gate (cut[c] != 0): a gate of one cell
 * skips more, and under every option, so no door swallows one. */
/* The grid's cheapest terrain among its open cells (1 when none). */
static uint8_t least_cost(const cairn_grid *g) {
  uint8_t least = 1;
  while (least < 255 && !g->by_cost[least]) least++;
  return least;
}

/* Marks the door of len cells from c by step (dir: DOOR_DOWN or 0). */
static void mark_door(uint8_t *door, uint32_t c, uint32_t step, uint8_t dir, unsigned len) {
  door[c] = (uint8_t)(DOOR_FIRST | dir | len);
  for (unsigned i = 1; i < len; i++) door[c + i * step] = (uint8_t)(DOOR_PART | dir | i);
}

/* The doors (as above) starting at the n cells of `cells` (index order;
 * NULL: every padded cell) whose cells all have `in` set (NULL: any). */
static void find_doors_among(const cairn_grid *g, uint8_t *door, const uint32_t *cut,
                             const uint32_t *cells, size_t n, const uint8_t *in) {
  const uint8_t least = least_cost(g);
  for (unsigned len = 2; len <= CAIRN__DE_MAX_DOOR; len++)
    for (unsigned down = 0; down < 2; down++) {
      const uint32_t step = down ? (uint32_t)g->stride : 1u;
      const uint8_t dir = down ? (uint8_t)DOOR_DOWN : 0u;
      for (size_t k = 0; k < n; k++) {
        const uint32_t c = cells ? cells[k] : (uint32_t)k;
        if (!door_fits(g, door, cut, c, step, len, least)) continue;
        bool inside = true;
        for (unsigned i = 1; in && i < len && inside; i++) inside = in[c + i * step];
        if (inside) mark_door(door, c, step, dir, len);
      }
    }
}

static void find_doors(const cairn_grid *g, uint8_t *door, const uint32_t *cut) {
  find_doors_among(g, door, cut, NULL, g->padded, NULL);
}

/* Visits cell w from v (v == w for a root). */
CAIRN_INLINE void discover(de_work *k, uint32_t v, uint32_t w, uint32_t *sp) {
  k->order[k->time] = w;
  k->disc[w] = k->low[w] = ++k->time;
  k->parent[w] = v;
  k->sz[w] = 1;
  k->next[w] = 0;
  k->stack[(*sp)++] = w;
}

/* The next neighbour node of node v the search has not looked at, or
 * UINT32_MAX: next[v] holds where it stopped, cell * 8 + move, over the
 * node's cells (one, or a door's) and their legal moves; moves between
 * a door's own cells are no neighbours. */
static uint32_t next_neighbour(const cairn_grid *g, de_work *k, const int32_t off[8],
                               uint32_t v) {
  const unsigned len = node_cells(k->door, v);
  const uint32_t step = door_step(g, k->door[v]);
  unsigned at = k->next[v] & (unsigned)~HEAD;
  uint32_t w = UINT32_MAX;
  while (at < len * 8u && w == UINT32_MAX) {
    const uint32_t c = v + (at >> 3) * step;
    const unsigned left = (unsigned)g->moves[c] >> (at & 7u) << (at & 7u);
    if (!left) {
      at = (at | 7u) + 1u;
      continue;
    }
    const unsigned d = (unsigned)cairn__ctz(left);
    at = (at & ~7u) + d + 1u;
    const uint32_t n = node_of(g, k->door, (uint32_t)((int32_t)c + off[d]));
    if (n != v) w = n;
  }
  k->next[v] = (uint8_t)((k->next[v] & HEAD) | at);
  return w;
}

/* The depth-first search of r's island, iterative (an island can be a
 * million cells deep). A child v of u whose subtree reaches no cell
 * discovered before u (low[v] >= disc[u]) is joined to the rest through u
 * alone: an area starts at v. Every child of the root passes that test;
 * the largest stays in the root's area, so that a root picked in a small
 * room still leaves the island's bulk outside every dead end. */
static void dfs(const cairn_grid *g, de_work *k, const int32_t off[8], uint32_t r) {
  uint32_t sp = 0, best = UINT32_MAX, second = 0;
  discover(k, r, r, &sp);
  while (sp) {
    const uint32_t v = k->stack[sp - 1];
    const uint32_t w = next_neighbour(g, k, off, v);
    if (w != UINT32_MAX) {
      if (!k->disc[w]) discover(k, v, w, &sp);
      else if (w != k->parent[v] && k->disc[w] < k->low[v]) k->low[v] = k->disc[w];
      continue;
    }
    sp--;
    if (v == r) break;
    const uint32_t u = k->parent[v];
    if (k->low[v] < k->low[u]) k->low[u] = k->low[v];
    k->sz[u] += k->sz[v];
    if (k->low[v] >= k->disc[u]) k->next[v] |= HEAD;
    if (u == r && (best == UINT32_MAX || k->sz[v] > k->sz[best])) {
      if (best != UINT32_MAX) second = k->sz[best];
      best = v;
    } else if (u == r && k->sz[v] > second) {
      second = k->sz[v];
    }
  }
  k->margin = best == UINT32_MAX || !second ? UINT32_MAX : k->sz[best] - second;
  if (best != UINT32_MAX) k->next[best] &= (uint8_t)~HEAD;
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
    if (starts) de->door[id] = u != v && node_cells(k->door, u) > 1 ? k->door[u] & 0x1Fu : 0u;
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

/* A table's per-area arrays (ids 1 .. count), held together while they
 * are made or replaced. */
typedef struct de_arrays {
  uint32_t *end, *gate, *cells, *depth, *first, *slack, *margin;
  uint8_t *door;
  uint32_t count;
} de_arrays;

static void arrays_free(const cairn_allocator *a, de_arrays *r) {
  const size_t n = (size_t)r->count + 1;
  cairn__free(a, r->end, n * sizeof *r->end);
  cairn__free(a, r->gate, n * sizeof *r->gate);
  cairn__free(a, r->cells, n * sizeof *r->cells);
  cairn__free(a, r->depth, n * sizeof *r->depth);
  cairn__free(a, r->first, n * sizeof *r->first);
  cairn__free(a, r->slack, n * sizeof *r->slack);
  cairn__free(a, r->margin, n * sizeof *r->margin);
  cairn__free(a, r->door, n);
}

static bool arrays_alloc(const cairn_allocator *a, de_arrays *r, uint32_t count) {
  const size_t n = (size_t)count + 1;
  r->count = count;
  r->end = cairn__alloc(a, n * sizeof *r->end);
  r->gate = cairn__alloc(a, n * sizeof *r->gate);
  r->cells = cairn__alloc(a, n * sizeof *r->cells);
  r->depth = cairn__alloc(a, n * sizeof *r->depth);
  r->first = cairn__alloc_zero(a, n * sizeof *r->first);
  r->slack = cairn__alloc_zero(a, n * sizeof *r->slack);
  r->margin = cairn__alloc_zero(a, n * sizeof *r->margin);
  r->door = cairn__alloc(a, n);
  if (r->end && r->gate && r->cells && r->depth && r->first && r->slack && r->margin && r->door)
    return true;
  arrays_free(a, r);
  return false;
}

/* Frees the table's area arrays and puts r's in their place. */
static void put_areas(cairn_dead_ends *de, const de_arrays *r) {
  de_arrays was = {de->end,   de->gate,   de->cells, de->depth, de->first,
                   de->slack, de->margin, de->door,  de->count};
  arrays_free(&de->alloc, &was);
  de->end = r->end;
  de->gate = r->gate;
  de->cells = r->cells;
  de->depth = r->depth;
  de->first = r->first;
  de->slack = r->slack;
  de->margin = r->margin;
  de->door = r->door;
  de->count = r->count;
}

static void release_areas(cairn_dead_ends *de) {
  const de_arrays none = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0};
  put_areas(de, &none);
}

static cairn_status grow_areas(cairn_dead_ends *de, uint32_t count) {
  release_areas(de);
  de_arrays r;
  if (!arrays_alloc(&de->alloc, &r, count)) return CAIRN_ERR_NOMEM;
  put_areas(de, &r);
  return CAIRN_OK;
}

static void move_offsets(const cairn_grid *g, int32_t off[8]) {
  for (int d = 0; d < 8; d++) off[d] = cairn__dx[d] + cairn__dy[d] * g->stride;
}

/* One search over every island, roots first from `roots` (n of them),
 * then from each open cell not yet reached, in index order; the margin of
 * each root's search (dfs) into margin (unless NULL), in that order.
 * Returns how many searches ran: one an island. */
static uint32_t search_all(const cairn_grid *g, de_work *k, const uint32_t *roots, uint32_t n,
                           uint32_t *margin) {
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

static void set_bit(uint64_t *bits, uint32_t c) { bits[c >> 6] |= 1ull << (c & 63u); }

static void set_stats(cairn_dead_ends *de) {
  const cairn_grid *g = de->grid;
  cairn_dead_ends_stats s;
  memset(&s, 0, sizeof s);
  memset(de->gate_bits, 0, de->words * sizeof *de->gate_bits);
  memset(de->cell_gate_bits, 0, de->words * sizeof *de->cell_gate_bits);
  memset(de->dead_bits, 0, de->words * sizeof *de->dead_bits);
  for (uint32_t a = 1; a <= de->count; a++) {
    if (de->gate[a] == UINT32_MAX) continue;
    s.areas++;
    s.doors += de->door[a] != 0;
    s.cells += de->cells[a];
    if (de->depth[a] > s.depth) s.depth = de->depth[a];
    const uint32_t u = de->gate[a];
    if (!cairn__de_bit(de->gate_bits, u)) s.gates++;
    const unsigned len = de->door[a] ? de->door[a] & 7u : 1u;
    for (unsigned i = 0; i < len; i++) set_bit(de->gate_bits, u + i * door_step(g, de->door[a]));
    if (len == 1) set_bit(de->cell_gate_bits, u);
  }
  for (size_t c = 0; c < de->padded; c++) {
    const uint32_t a = de->area[c];
    if (!g->cost[c]) continue;
    s.open++;
    if (de->gate[a] != UINT32_MAX) set_bit(de->dead_bits, (uint32_t)c);
  }
  de->stats = s;
}

/* aux[c] = 1 for each cell some area hangs off in the last search (a
 * parent of a HEAD cell), else 0. */
/* The marks alone, on an aux already clear. */
static void mark_cuts_here(de_work *k) {
  for (uint32_t i = 0; i < k->time; i++) {
    const uint32_t v = k->order[i];
    if (k->parent[v] != v && (k->next[v] & HEAD)) k->aux[k->parent[v]] = 1;
  }
}

static void mark_cuts(de_work *k, size_t n) {
  memset(k->aux, 0, (n + 1) * sizeof *k->aux);
  mark_cuts_here(k);
}

static void work_free(const cairn_allocator *a, de_work *k, size_t n) {
  cairn__free(a, k->disc, n * sizeof *k->disc);
  cairn__free(a, k->low, n * sizeof *k->low);
  cairn__free(a, k->parent, n * sizeof *k->parent);
  cairn__free(a, k->sz, n * sizeof *k->sz);
  cairn__free(a, k->order, n * sizeof *k->order);
  cairn__free(a, k->aux, (n + 1) * sizeof *k->aux);
  cairn__free(a, k->next, n);
  cairn__free(a, k->door, n);
}

/* Each root area's first cell, slack and margin (the smaller of those at
 * the roots of the last two searches) from the per-island rows of island
 * (`row` apart), islands in the order of their root areas. */
static void keep_islands(cairn_dead_ends *de, const uint32_t *island, uint32_t row) {
  uint32_t i = 0;
  for (uint32_t r = 1; r <= de->count; r = de->end[r], i++) {
    const uint32_t m2 = island[2 * row + i], m3 = island[3 * row + i];
    de->first[r] = island[i];
    de->slack[r] = island[row + i];
    de->margin[r] = m2 < m3 ? m2 : m3;
  }
}

/* Finds the areas: a first search from wherever each island starts, a
 * second from each island's central area (pick_roots). */
/* The search's arrays for n padded cells (k zeroed first; the stack is
 * the caller's); false when one is missing (work_free frees the rest). */
static bool work_alloc(const cairn_allocator *a, de_work *k, size_t n) {
  memset(k, 0, sizeof *k);
  k->disc = cairn__alloc(a, n * sizeof *k->disc);
  k->low = cairn__alloc(a, n * sizeof *k->low);
  k->parent = cairn__alloc(a, n * sizeof *k->parent);
  k->sz = cairn__alloc(a, n * sizeof *k->sz);
  k->order = cairn__alloc(a, n * sizeof *k->order);
  k->aux = cairn__alloc(a, (n + 1) * sizeof *k->aux);
  k->next = cairn__alloc(a, n);
  k->door = cairn__alloc(a, n);
  return k->disc && k->low && k->parent && k->sz && k->order && k->aux && k->next && k->door;
}

static cairn_status find(cairn_dead_ends *de) {
  const cairn_grid *g = de->grid;
  const size_t n = g->padded;
  const cairn_allocator *a = &de->alloc;
  de_work k;
  cairn_status st = CAIRN_ERR_NOMEM;
  const bool room = work_alloc(a, &k, n);
  k.stack = de->area;
  if (room) {
    /* the one-cell gates first, from a search without doors */
    memset(k.door, 0, n);
    /* per island four rows: its first cell, the walk's slack, the margins
     * at the root of the second and the third search */
    const uint32_t islands = search_all(g, &k, NULL, 0, NULL), row = islands + 1;
    uint32_t *island = cairn__alloc(a, 4 * (size_t)row * sizeof *island);
    st = island ? CAIRN_OK : CAIRN_ERR_NOMEM;
    if (st == CAIRN_OK) {
      mark_cuts(&k, n);
      find_doors(g, k.door, k.aux);
      search_all(g, &k, NULL, 0, island + 2 * row);
      st = grow_areas(de, count_areas(&k));
    }
    if (st == CAIRN_OK) {
      memset(de->area, 0, n * sizeof *de->area);
      label(de, &k);
      const uint32_t roots = pick_roots(de, &k, island, island + row);
      search_all(g, &k, k.aux, roots, island + 3 * row);
      st = grow_areas(de, count_areas(&k));
    }
    if (st == CAIRN_OK) {
      memset(de->area, 0, n * sizeof *de->area);
      label(de, &k);
      keep_islands(de, island, row);
      set_stats(de);
    }
    cairn__free(a, island, island ? 4 * (size_t)row * sizeof *island : 0);
  }
  work_free(a, &k, n);
  return st;
}

/* Compares the grid's open and cheapest-terrain cells with the snapshot
 * (store: writes it instead); true when they match. One pass of 64 cells
 * a word: a small part of a search's cost. */
/* Word w of the grid's open and cheapest-terrain (`least`) bits now. */
static void shape_word(const cairn_dead_ends *de, uint8_t least, size_t w, uint64_t *open,
                       uint64_t *at_least) {
  const size_t c0 = w * 64, n = de->padded - c0 < 64 ? de->padded - c0 : 64;
  *open = *at_least = 0;
  for (size_t i = 0; i < n; i++) {
    const uint8_t t = de->grid->cost[c0 + i];
    *open |= (uint64_t)(t != 0) << i;
    *at_least |= (uint64_t)(t == least) << i;
  }
}

static bool same_shape(cairn_dead_ends *de, bool store) {
  const uint8_t least = least_cost(de->grid);
  bool same = !store && least == de->least;
  for (size_t w = 0; w < de->words && (store || same); w++) {
    uint64_t open, at_least;
    shape_word(de, least, w, &open, &at_least);
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

/* ---- updates inside one dead end ---------------------------------------- */

/* An edit that opens or closes cells (or moves them into or out of the
 * cheapest terrain) inside one dead-end area A, none of them next to its
 * gate G (a cell or a door), changes nothing outside A: A still hangs off
 * G alone, so every cell outside keeps its cut status, its doors and its
 * place in the searches, and A's head (the first of its cells the search
 * meets from G) stays. A's new areas come from the two searches (without
 * doors, then with them) run from G over A's cells alone, the doors
 * between them found as the full pass would; the ids after A's range
 * move by the difference in its areas' count.
 *
 * What the edit may not do, lest the full pass choose otherwise: split A
 * (a part cut off from G is an island of its own), give G another child
 * in A, make a cell of a door G a one-cell gate, let a door the full pass
 * tries before G take one of G's cells (the cut status of the cells
 * outside A is not kept, so any such door that A's cells no longer stop
 * counts), move the island's first cell, or shift the sizes the choice of
 * the island's centre compared by as much as their slack or margin (kept
 * per root: the cells changed, twice over, must stay below the slack, and
 * A's cells before and after below the margin). */

/* Most cells an update may see changed and still search one area. */
#define LOCAL_MAX_CHANGED 64

typedef struct de_local {
  uint32_t changed[LOCAL_MAX_CHANGED];
  uint32_t n_changed; /* cells whose open or cheapest-terrain bit moved */
  uint32_t d;         /* of those, cells opened or closed */
  uint32_t area, gate, old_end, root;
  uint32_t gate_cells[CAIRN__DE_MAX_DOOR], n_gate, gate_step; /* G's cells */
  uint32_t need;      /* the slack the edit uses up (cells) */
  uint32_t need_nodes; /* and the margin (nodes; 0 where it is UINT32_MAX) */
  uint32_t gap;       /* when the walk starts in A: how far its pieces stay
                         below half the island after the edit */
  uint32_t *list;     /* the open cells A has after the edit, index order */
  uint32_t n_list, n_nodes;
  uint8_t *in;        /* padded: 1 on the cells of list */
} de_local;

static bool was_open(const cairn_dead_ends *de, uint32_t c) {
  return cairn__de_bit(de->open_bits, c);
}

/* The changed cells into lc; false when there are too many or the
 * cheapest terrain itself moved. */
static bool changed_cells(const cairn_dead_ends *de, de_local *lc) {
  const cairn_grid *g = de->grid;
  const uint8_t least = least_cost(g);
  if (least != de->least) return false;
  lc->n_changed = lc->d = 0;
  for (size_t w = 0; w < de->words; w++) {
    const size_t c0 = w * 64;
    uint64_t open, at_least;
    shape_word(de, least, w, &open, &at_least);
    const uint64_t moved = (open ^ de->open_bits[w]) | (at_least ^ de->least_bits[w]);
    for (uint64_t m = moved; m; m &= m - 1) {
      if (lc->n_changed == LOCAL_MAX_CHANGED) return false;
      const uint32_t c = (uint32_t)(c0 + (size_t)cairn__ctz64(m));
      lc->changed[lc->n_changed++] = c;
      lc->d += (uint32_t)((open ^ de->open_bits[w]) >> (c - c0) & 1u);
    }
  }
  return lc->n_changed > 0;
}

static uint32_t parent_area(const cairn_dead_ends *de, uint32_t a) {
  return de->gate[a] == UINT32_MAX ? 0 : de->area[de->gate[a]];
}

/* The innermost area holding areas a and b (0: none, another island). */
static uint32_t enclosing(const cairn_dead_ends *de, uint32_t a, uint32_t b) {
  while (a && !(a <= b && b < de->end[a])) a = parent_area(de, a);
  return a;
}

/* Chebyshev distance of two padded cells. */
static uint32_t cell_distance(const cairn_grid *g, uint32_t a, uint32_t b) {
  const uint32_t w = (uint32_t)g->stride;
  const uint32_t dx = a % w > b % w ? a % w - b % w : b % w - a % w;
  const uint32_t dy = a / w > b / w ? a / w - b / w : b / w - a / w;
  return dx > dy ? dx : dy;
}

/* The innermost area that holds every changed cell open before and every
 * open-before neighbour of one (0: none). */
static uint32_t innermost(const cairn_dead_ends *de, const de_local *lc) {
  const cairn_grid *g = de->grid;
  uint32_t a = 0;
  bool any = false;
  for (uint32_t i = 0; i < lc->n_changed; i++)
    for (int d = -1; d < 8; d++) { /* the cell, then its neighbours */
      const int32_t off = d < 0 ? 0 : cairn__dx[d] + cairn__dy[d] * g->stride;
      const int64_t c = (int64_t)lc->changed[i] + off;
      if (c < 0 || c >= (int64_t)de->padded || !was_open(de, (uint32_t)c)) continue;
      const uint32_t b = de->area[c];
      a = any ? enclosing(de, a, b) : b;
      any = true;
      if (!a) return 0;
    }
  return a;
}

/* Takes dead end a as A when no changed cell touches its gate. */
static bool take_area(const cairn_dead_ends *de, de_local *lc, uint32_t a) {
  const cairn_grid *g = de->grid;
  const unsigned len = de->door[a] ? de->door[a] & 7u : 1u;
  const uint32_t step = door_step(g, de->door[a]);
  for (uint32_t i = 0; i < lc->n_changed; i++)
    for (unsigned j = 0; j < len; j++)
      if (cell_distance(g, lc->changed[i], de->gate[a] + j * step) < 2) return false;
  lc->n_gate = len;
  lc->gate_step = step;
  for (unsigned j = 0; j < len; j++) lc->gate_cells[j] = de->gate[a] + j * step;
  lc->area = a;
  lc->gate = de->gate[a];
  lc->old_end = de->end[a];
  return true;
}

/* Whether the edit leaves the island's first cell and the choice of its
 * centre as they were (see above); sets lc->root and lc->need. */
static bool centre_holds(const cairn_dead_ends *de, de_local *lc) {
  uint32_t r = lc->area;
  while (de->gate[r] != UINT32_MAX) r = parent_area(de, r);
  const uint32_t first = de->first[r];
  if (!de->grid->cost[first]) return false;
  for (uint32_t i = 0; i < lc->n_changed; i++)
    if (lc->changed[i] < first) return false;
  uint64_t own = 0;
  for (uint32_t b = lc->area; b < lc->old_end; b++) own += de->cells[b];
  lc->gap = UINT32_MAX;
  if (lc->area <= de->area[first] && de->area[first] < lc->old_end) {
    /* the walk starts in A and leaves it through G, past pieces of A that
     * must stay below half the island: the island's bulk lies outside */
    uint64_t island = 0;
    for (uint32_t b = r; b < de->end[r]; b++) island += de->cells[b];
    if (2 * (own + lc->d) + lc->d + 4 >= island) return false;
    lc->gap = (uint32_t)((island - lc->d) / 2 - (own + lc->d) - 1);
  }
  /* a size the walk compared moves by at most d cells, half the island by
   * half that; a subtree at a root by at most A's nodes before and after */
  const uint64_t need = 2 * (uint64_t)lc->d + 2, nodes = 2 * (own + lc->d) + 2;
  lc->root = r;
  lc->need = (uint32_t)need;
  lc->need_nodes = de->margin[r] == UINT32_MAX ? 0 : (uint32_t)(nodes < UINT32_MAX ? nodes : UINT32_MAX);
  return need < de->slack[r] && (de->margin[r] == UINT32_MAX || nodes < de->margin[r]);
}

/* Marks A's cells after the edit (lc->in, lc->list): open now, and in A's
 * range before or opened by the edit. */
static void mark_cells(const cairn_dead_ends *de, de_local *lc) {
  const cairn_grid *g = de->grid;
  for (uint32_t i = 0; i < lc->n_changed; i++) {
    const uint32_t c = lc->changed[i];
    if (g->cost[c] && !was_open(de, c)) lc->in[c] = 1;
  }
  lc->n_list = 0;
  for (uint32_t c = 0; c < (uint32_t)de->padded; c++) {
    const uint32_t a = de->area[c];
    const bool old = g->cost[c] && was_open(de, c) && lc->area <= a && a < lc->old_end;
    if (old || lc->in[c]) {
      lc->in[c] = 1;
      lc->list[lc->n_list++] = c;
    }
  }
}

/* The search from G's first cell over A's nodes (the door marks set), and
 * G's other cells too when `cells` (the search without doors, where a
 * door is cells); true when it reaches every node of them (nodes, G's
 * counted). */
static bool search_from_gate(const cairn_grid *g, de_work *k, const de_local *lc,
                             uint32_t nodes, bool cells) {
  int32_t off[8];
  move_offsets(g, off);
  /* every other cell reads as seen (the scratch's rule): the search stays
   * in A */
  for (uint32_t i = 0; i < lc->n_list; i++)
    k->disc[lc->list[i]] = k->door[lc->list[i]] & DOOR_PART ? UINT32_MAX : 0;
  for (uint32_t j = 0; j < lc->n_gate; j++) k->disc[lc->gate_cells[j]] = cells || !j ? 0 : UINT32_MAX;
  k->time = 0;
  dfs(g, k, off, lc->gate);
  return k->time == nodes;
}

/* The scratch of updates inside one dead end: the search's arrays, A's
 * cells and their marks. Between updates disc holds UINT32_MAX on every
 * cell and door, aux and in hold 0, so that an update touches only A's
 * cells (scratch_clean puts them back). */
typedef struct cairn__de_scratch {
  de_work k;
  uint32_t *list;
  uint8_t *in;
} de_scratch;

static void scratch_free(const cairn_allocator *a, de_scratch *sc, size_t n) {
  if (!sc) return;
  work_free(a, &sc->k, n);
  cairn__free(a, sc->k.stack, sc->k.stack ? n * sizeof *sc->k.stack : 0);
  cairn__free(a, sc->list, sc->list ? n * sizeof *sc->list : 0);
  cairn__free(a, sc->in, sc->in ? n : 0);
  cairn__free(a, sc, sizeof *sc);
}

static size_t scratch_bytes(size_t n) {
  /* disc, low, parent, sz, order, aux, stack, list; next, door, in */
  return sizeof(de_scratch) + 8 * n * sizeof(uint32_t) + sizeof(uint32_t) + 3 * n;
}

/* The table's scratch, made on first use. */
static de_scratch *scratch_of(cairn_dead_ends *de) {
  if (de->scratch) return de->scratch;
  const size_t n = de->padded;
  de_scratch *sc = cairn__alloc_zero(&de->alloc, sizeof *sc);
  if (!sc) return NULL;
  bool ok = work_alloc(&de->alloc, &sc->k, n);
  sc->k.stack = cairn__alloc(&de->alloc, n * sizeof *sc->k.stack);
  sc->list = cairn__alloc(&de->alloc, n * sizeof *sc->list);
  sc->in = cairn__alloc_zero(&de->alloc, n);
  if (!ok || !sc->k.stack || !sc->list || !sc->in) {
    scratch_free(&de->alloc, sc, n);
    return NULL;
  }
  memset(sc->k.disc, 0xFF, n * sizeof *sc->k.disc);
  memset(sc->k.door, 0, n);
  memset(sc->k.aux, 0, (n + 1) * sizeof *sc->k.aux);
  de->scratch = sc;
  return sc;
}

/* Puts the scratch's rule back on the cells an attempt on A touched. */
static void scratch_clean(de_scratch *sc, de_local *lc) {
  for (uint32_t i = 0; i < lc->n_list; i++) {
    const uint32_t c = lc->list[i];
    sc->k.disc[c] = UINT32_MAX;
    sc->k.door[c] = 0;
    sc->k.aux[c] = 0;
    sc->in[c] = 0;
  }
  for (uint32_t j = 0; j < lc->n_gate; j++) {
    const uint32_t c = lc->gate_cells[j];
    sc->k.disc[c] = UINT32_MAX;
    sc->k.door[c] = 0;
    sc->k.aux[c] = 0;
  }
  lc->n_list = 0;
}


/* After the search with doors: whether G has one child, A's head, whose
 * HEAD it then sets again (the search clears it on a root's largest). */
static bool one_child(de_work *k, const de_local *lc) {
  uint32_t child = UINT32_MAX;
  for (uint32_t i = 1; i < k->time; i++)
    if (k->parent[k->order[i]] == lc->gate) {
      if (child != UINT32_MAX) return false;
      child = k->order[i];
    }
  if (child == UINT32_MAX) return false;
  k->next[child] |= HEAD;
  return true;
}

/* Whether door G still stands after the search without doors: none of its
 * cells a one-cell gate, and no door that the full pass tries before G
 * (shorter, or as long and along a row where G runs down a column, or
 * starting earlier) can take one of its cells. Such a door's cells in A
 * have their cut status in k->aux; those outside A keep theirs, the
 * table's gates of one cell (a cell whose removal cuts the grid is the
 * gate of what it cuts off). Doors chosen earlier are not kept, so a
 * candidate that only such a door stopped counts too. */
static bool door_stands(const cairn_dead_ends *de, const de_work *k, const de_local *lc) {
  const cairn_grid *g = de->grid;
  const uint8_t least = least_cost(g);
  const unsigned glen = lc->n_gate, gdown = lc->gate_step != 1u;
  for (unsigned j = 0; j < glen; j++)
    if (k->aux[lc->gate_cells[j]]) return false;
  for (unsigned j = 0; j < glen; j++)
    for (unsigned down = 0; down < 2; down++) {
      const uint32_t step = down ? (uint32_t)g->stride : 1u;
      for (unsigned len = 2; len <= CAIRN__DE_MAX_DOOR; len++)
        for (unsigned at = 0; at < len; at++) {
          const uint32_t d = lc->gate_cells[j];
          if (d < at * step) continue;
          const uint32_t c = d - at * step;
          const bool before = len < glen || (len == glen && (down < gdown || (down == gdown && c < lc->gate)));
          if (!before || c < step || c + len * step >= g->padded) continue;
          if (g->cost[c - step] || g->cost[c + len * step]) continue;
          bool fits = true;
          for (unsigned i = 0; i < len && fits; i++) {
            const uint32_t x = c + i * step;
            const bool cut = lc->in[x] ? k->aux[x] != 0 : cairn__de_bit(de->cell_gate_bits, x);
            fits = g->cost[x] == least && !cut;
          }
          if (fits) return false;
        }
    }
  return true;
}


/* The two searches of A; false when the edit is not of the local kind. */
static bool search_area(const cairn_dead_ends *de, de_work *k, de_local *lc) {
  const cairn_grid *g = de->grid;
  if (!search_from_gate(g, k, lc, lc->n_list + lc->n_gate, true)) return false;
  mark_cuts_here(k);
  if (lc->n_gate > 1 && !door_stands(de, k, lc)) return false;
  find_doors_among(g, k->door, k->aux, lc->list, lc->n_list, lc->in); /* A's alone */
  uint32_t parts = 0;
  for (uint32_t i = 0; i < lc->n_list; i++) parts += (k->door[lc->list[i]] & DOOR_PART) != 0;
  lc->n_nodes = lc->n_list - parts;
  if (lc->n_gate > 1) /* G one node, as the full pass has it */
    mark_door(k->door, lc->gate, lc->gate_step, lc->gate_step != 1u ? (uint8_t)DOOR_DOWN : 0u,
              lc->n_gate);
  return search_from_gate(g, k, lc, lc->n_nodes + 1, false) && one_child(k, lc);
}

/* Area `from` of the old arrays as area `to` of the new, its range's end
 * moved by `shift` when it reaches past A's. */
static void copy_area(const cairn_dead_ends *de, de_arrays *r, uint32_t from, uint32_t to,
                      uint32_t old_end, int64_t shift) {
  const uint32_t e = de->end[from];
  r->end[to] = e >= old_end ? (uint32_t)((int64_t)e + shift) : e;
  r->gate[to] = de->gate[from];
  r->cells[to] = de->cells[from];
  r->depth[to] = de->depth[from];
  r->first[to] = de->first[from];
  r->slack[to] = de->slack[from];
  r->margin[to] = de->margin[from];
  r->door[to] = de->door[from];
}

/* A's areas from the search into r (ids from A on) and de->area, as label
 * does for a whole search; k->low (free after the search) gets each new
 * area's first position. */
static void label_area(cairn_dead_ends *de, de_work *k, const de_local *lc, de_arrays *r) {
  const uint32_t a0 = lc->area;
  uint32_t id = a0 - 1;
  for (uint32_t i = 1; i < k->time; i++) {
    const uint32_t v = k->order[i], u = k->parent[v];
    const bool starts = (k->next[v] & HEAD) != 0;
    if (starts) {
      id++;
      k->low[id - a0] = i;
      r->end[id] = i + k->sz[v]; /* a position for now */
      r->gate[id] = u;
      r->depth[id] = u == lc->gate ? de->depth[a0] : r->depth[de->area[u]] + 1;
      r->cells[id] = 0;
      r->door[id] = u == lc->gate ? de->door[a0]
                    : node_cells(k->door, u) > 1 ? k->door[u] & 0x1Fu : 0u;
    }
    const uint32_t a = starts ? id : de->area[u];
    de->area[v] = a;
    r->cells[a] += node_cells(k->door, v);
  }
  for (uint32_t i = 0; i < lc->n_list; i++) {
    const uint32_t c = lc->list[i];
    if (k->door[c] & DOOR_PART) de->area[c] = de->area[node_of(de->grid, k->door, c)];
  }
  const uint32_t n = id + 1 - a0; /* the new areas */
  for (uint32_t a = a0; a <= id; a++) {
    uint32_t lo = a - a0 + 1, hi = n;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (k->low[mid] < r->end[a]) lo = mid + 1;
      else hi = mid;
    }
    r->end[a] = a0 + lo;
  }
}

/* Puts A's new areas in: the arrays remade round them, the ids past A's
 * range moved, the changed cells that closed emptied. False (the table
 * untouched) when memory runs out. */
static bool splice(cairn_dead_ends *de, de_work *k, const de_local *lc) {
  uint32_t fresh = 0;
  for (uint32_t i = 1; i < k->time; i++) fresh += (k->next[k->order[i]] & HEAD) != 0;
  const uint32_t old = lc->old_end - lc->area;
  const int64_t shift = (int64_t)fresh - (int64_t)old;
  de_arrays r;
  if (!arrays_alloc(&de->alloc, &r, (uint32_t)((int64_t)de->count + shift))) return false;
  for (uint32_t a = 1; a < lc->area; a++) copy_area(de, &r, a, a, lc->old_end, shift);
  for (uint32_t a = lc->old_end; a <= de->count; a++)
    copy_area(de, &r, a, (uint32_t)((int64_t)a + shift), lc->old_end, shift);
  for (uint32_t c = 0; c < (uint32_t)de->padded; c++)
    if (de->area[c] >= lc->old_end) de->area[c] = (uint32_t)((int64_t)de->area[c] + shift);
  for (uint32_t i = 0; i < lc->n_changed; i++)
    if (!de->grid->cost[lc->changed[i]]) de->area[lc->changed[i]] = 0;
  label_area(de, k, lc, &r);
  const uint32_t root = lc->root; /* before A: its id holds */
  r.slack[root] -= lc->need;
  if (r.slack[root] > lc->gap) r.slack[root] = lc->gap;
  r.margin[root] -= lc->need_nodes;
  put_areas(de, &r);
  return true;
}

/* Most dead ends, from the innermost out, an update tries. */
#define LOCAL_TRIES 3

/* Brings the table up to date by searching only a dead end the edit lies
 * in (the innermost that serves, of the first few that hold it); false
 * (the table as it was) when the edit is not of that kind or memory runs
 * out: the caller then searches the whole grid. */
static bool update_inside(cairn_dead_ends *de) {
  de_local lc;
  memset(&lc, 0, sizeof lc);
  if (!changed_cells(de, &lc)) return false;
  uint32_t a = innermost(de, &lc);
  if (!a || de->gate[a] == UINT32_MAX) return false;
  de_scratch *sc = scratch_of(de);
  if (!sc) return false;
  lc.list = sc->list;
  lc.in = sc->in;
  bool found = false;
  for (int tries = 0; !found && tries < LOCAL_TRIES; tries++) {
    if (take_area(de, &lc, a) && centre_holds(de, &lc)) {
      mark_cells(de, &lc);
      found = search_area(de, &sc->k, &lc);
      if (!found) scratch_clean(sc, &lc);
    }
    a = parent_area(de, a);
    if (!a || de->gate[a] == UINT32_MAX) break;
  }
  const bool done = found && splice(de, &sc->k, &lc);
  if (found) scratch_clean(sc, &lc);
  if (done) set_stats(de);
  return done;
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
  cairn_status st = de->area && de->gate_bits && de->cell_gate_bits && de->dead_bits &&
                            de->open_bits && de->least_bits
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
  scratch_free(&a, de->scratch, de->padded);
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
  if (de->current && update_inside(de)) {
    de->locals++;
  } else {
    de->current = false;
    cairn_status st = find(de);
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

uint32_t cairn_dead_ends_area(const cairn_dead_ends *de, int32_t x, int32_t y) {
  if (!de || !de->current || !cairn_grid_contains(de->grid, x, y)) return 0;
  const uint32_t c = cairn__grid_index(de->grid, x, y);
  if (!de->grid->cost[c] || !cairn__de_bit(de->dead_bits, c)) return 0;
  return de->area[c];
}

cairn_status cairn_dead_ends_get_stats(const cairn_dead_ends *de, cairn_dead_ends_stats *out) {
  if (!de || !out) return CAIRN_ERR_ARG;
  *out = de->stats;
  return CAIRN_OK;
}

size_t cairn_dead_ends_memory(const cairn_dead_ends *de) {
  if (!de) return 0;
  /* per area: end, gate, cells, depth, first, slack, margin and door */
  return sizeof *de + de->padded * sizeof *de->area + 5 * de->words * sizeof *de->gate_bits +
         ((size_t)de->count + 1) * (7 * sizeof *de->end + 1) +
         (de->scratch ? scratch_bytes(de->padded) : 0);
}

/* ---- searches ---------------------------------------------------------- */

cairn_status cairn__de_begin(cairn_search *s, const cairn_grid *g, const cairn_search_opts *o) {
  s->de = NULL;
  s->de_mark = NULL;
  const cairn_dead_ends *de = o ? o->dead_ends : NULL;
  if (!de) return CAIRN_OK;
  if (de->grid != g) return CAIRN_ERR_ARG;
  if (!cairn_dead_ends_current(de)) return CAIRN_ERR_STATE;
  s->de = de;
  s->de_sa = de->area[s->start];
  s->de_ga = de->area[s->goal];
  s->de_plain = !s->pen && !s->claims && !s->turn && s->size <= 1 && !(o->avoid && o->n_avoid);
  s->de_gates = s->de_plain ? de->gate_bits : de->cell_gate_bits;
  return CAIRN_OK;
}

/* The area of cell p, 0 off the grid. */
static uint32_t area_of(const cairn_dead_ends *de, cairn_point p) {
  if (!cairn_grid_contains(de->grid, p.x, p.y)) return 0;
  return de->area[cairn__grid_index(de->grid, p.x, p.y)];
}

/* Marks the area of cell p and every area that holds it. */
static void mark_around(const cairn_dead_ends *de, uint8_t *mark, cairn_point p) {
  uint32_t a = area_of(de, p);
  while (a && !mark[a]) {
    mark[a] = 1;
    if (de->gate[a] == UINT32_MAX) break;
    a = de->area[de->gate[a]];
  }
}

/* Fits area y into the start-and-goal test: true when the areas that hold
 * sa or *ga already hold y, or y lies inside *ga (which it then
 * replaces). */
static bool fit_pair(const cairn_dead_ends *de, uint32_t sa, uint32_t *ga, uint32_t y) {
  if (!y || cairn__de_allowed(de, y, sa, *ga, true)) return true;
  if (*ga <= y && y < de->end[*ga]) {
    *ga = y;
    return true;
  }
  return false;
}

cairn_status cairn__de_begin_fill(cairn_search *s, const cairn_grid *g,
                                  const cairn_search_opts *o, const cairn_point *sources,
                                  size_t n_sources, const cairn_point *targets,
                                  size_t n_targets) {
  s->goal = s->start;
  cairn_status st = cairn__de_begin(s, g, o);
  if (st != CAIRN_OK || !s->de) return st;
  const cairn_dead_ends *de = s->de;
  /* most fills' ends lie on two chains of nested areas: the start and
   * goal test then serves, with the deepest area of each chain */
  bool pair = true;
  uint32_t ga = s->de_sa;
  for (size_t k = 1; pair && k < n_sources; k++) pair = fit_pair(de, s->de_sa, &ga, area_of(de, sources[k]));
  for (size_t k = 0; pair && k < n_targets; k++) pair = fit_pair(de, s->de_sa, &ga, area_of(de, targets[k]));
  if (pair) {
    s->de_ga = ga;
    return CAIRN_OK;
  }
  const size_t need = (size_t)de->count + 1;
  if (s->de_room_cap < need) {
    uint8_t *room = cairn__alloc(&s->alloc, need);
    if (!room) return CAIRN_ERR_NOMEM;
    cairn__free(&s->alloc, s->de_room, s->de_room_cap);
    s->de_room = room;
    s->de_room_cap = need;
  }
  memset(s->de_room, 0, need);
  for (size_t k = 0; k < n_sources; k++) mark_around(de, s->de_room, sources[k]);
  for (size_t k = 0; k < n_targets; k++) mark_around(de, s->de_room, targets[k]);
  s->de_mark = s->de_room;
  return CAIRN_OK;
}
