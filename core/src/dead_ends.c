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

static void find_doors(const cairn_grid *g, uint8_t *door, const uint32_t *cut) {
  const uint8_t least = least_cost(g);
  for (unsigned len = 2; len <= CAIRN__DE_MAX_DOOR; len++)
    for (unsigned down = 0; down < 2; down++) {
      const uint32_t step = down ? (uint32_t)g->stride : 1u;
      const uint8_t dir = down ? (uint8_t)DOOR_DOWN : 0u;
      for (uint32_t c = 0; c < g->padded; c++) {
        if (!door_fits(g, door, cut, c, step, len, least)) continue;
        door[c] = (uint8_t)(DOOR_FIRST | dir | len);
        for (unsigned i = 1; i < len; i++) door[c + i * step] = (uint8_t)(DOOR_PART | dir | i);
      }
    }
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
  uint32_t sp = 0, best = UINT32_MAX;
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
    if (u == r && (best == UINT32_MAX || k->sz[v] > k->sz[best])) best = v;
  }
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

static void release_areas(cairn_dead_ends *de) {
  const size_t n = (size_t)de->count + 1;
  cairn__free(&de->alloc, de->end, n * sizeof *de->end);
  cairn__free(&de->alloc, de->gate, n * sizeof *de->gate);
  cairn__free(&de->alloc, de->cells, n * sizeof *de->cells);
  cairn__free(&de->alloc, de->depth, n * sizeof *de->depth);
  cairn__free(&de->alloc, de->door, n);
  de->end = de->gate = de->cells = de->depth = NULL;
  de->door = NULL;
  de->count = 0;
}

static cairn_status grow_areas(cairn_dead_ends *de, uint32_t count) {
  release_areas(de);
  const size_t n = (size_t)count + 1;
  de->end = cairn__alloc(&de->alloc, n * sizeof *de->end);
  de->gate = cairn__alloc(&de->alloc, n * sizeof *de->gate);
  de->cells = cairn__alloc(&de->alloc, n * sizeof *de->cells);
  de->depth = cairn__alloc(&de->alloc, n * sizeof *de->depth);
  de->door = cairn__alloc(&de->alloc, n);
  de->count = count;
  if (de->end && de->gate && de->cells && de->depth && de->door) return CAIRN_OK;
  release_areas(de);
  return CAIRN_ERR_NOMEM;
}

/* One search over every island, roots first from `roots` (n of them),
 * then from each open cell not yet reached, in index order. */
static void search_all(const cairn_grid *g, de_work *k, const uint32_t *roots, uint32_t n) {
  int32_t off[8];
  for (int d = 0; d < 8; d++) off[d] = cairn__dx[d] + cairn__dy[d] * g->stride;
  memset(k->disc, 0, g->padded * sizeof *k->disc);
  k->time = 0;
  for (uint32_t i = 0; i < n; i++)
    if (!k->disc[roots[i]]) dfs(g, k, off, roots[i]);
  for (size_t c = 0; c < g->padded; c++)
    if (g->cost[c] && !k->disc[c] && !(k->door[c] & DOOR_PART)) dfs(g, k, off, (uint32_t)c);
}

/* The roots of the second search, into aux: for each island, the first
 * cell of its central area, the one that leaves no side of any of its
 * gates more than half the island's cells (found by walking from the
 * first search's root into the heavier side while there is one). Rooted
 * there, a dead end is always the smaller side of its gate: the rooms
 * hang off the halls, not the halls off the first room met. low, free
 * after the search, holds the cells of areas below each id. */
static uint32_t pick_roots(const cairn_dead_ends *de, de_work *k) {
  uint32_t *below = k->low;
  below[1] = 0;
  for (uint32_t a = 1; a <= de->count; a++) below[a + 1] = below[a] + de->cells[a];
  uint32_t n = 0;
  for (uint32_t r = 1; r <= de->count; r = de->end[r]) {
    const uint32_t half = (below[de->end[r]] - below[r]) / 2;
    uint32_t at = r;
    for (bool moved = true; moved;) {
      moved = false;
      for (uint32_t b = at + 1; b < de->end[at]; b = de->end[b])
        if (below[de->end[b]] - below[b] > half) {
          at = b;
          moved = true;
          break;
        }
    }
    k->aux[n++] = k->order[k->aux[at]]; /* n <= r <= at: not yet read */
  }
  return n;
}

static void set_bit(uint64_t *bits, uint32_t c) { bits[c >> 6] |= 1ull << (c & 63u); }

static void set_stats(cairn_dead_ends *de, const de_work *k) {
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
    const unsigned len = node_cells(k->door, u);
    for (unsigned i = 0; i < len; i++) set_bit(de->gate_bits, u + i * door_step(g, k->door[u]));
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
static void mark_cuts(de_work *k, size_t n) {
  memset(k->aux, 0, (n + 1) * sizeof *k->aux);
  for (uint32_t i = 0; i < k->time; i++) {
    const uint32_t v = k->order[i];
    if (k->parent[v] != v && (k->next[v] & HEAD)) k->aux[k->parent[v]] = 1;
  }
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

/* Finds the areas: a first search from wherever each island starts, a
 * second from each island's central area (pick_roots). */
static cairn_status find(cairn_dead_ends *de) {
  const cairn_grid *g = de->grid;
  const size_t n = g->padded;
  const cairn_allocator *a = &de->alloc;
  de_work k;
  memset(&k, 0, sizeof k);
  k.disc = cairn__alloc(a, n * sizeof *k.disc);
  k.low = cairn__alloc(a, n * sizeof *k.low);
  k.parent = cairn__alloc(a, n * sizeof *k.parent);
  k.sz = cairn__alloc(a, n * sizeof *k.sz);
  k.order = cairn__alloc(a, n * sizeof *k.order);
  k.aux = cairn__alloc(a, (n + 1) * sizeof *k.aux);
  k.next = cairn__alloc(a, n);
  k.door = cairn__alloc(a, n);
  k.stack = de->area;
  cairn_status st = CAIRN_ERR_NOMEM;
  if (k.disc && k.low && k.parent && k.sz && k.order && k.aux && k.next && k.door) {
    /* the one-cell gates first, from a search without doors */
    memset(k.door, 0, n);
    search_all(g, &k, NULL, 0);
    mark_cuts(&k, n);
    find_doors(g, k.door, k.aux);
    search_all(g, &k, NULL, 0);
    st = grow_areas(de, count_areas(&k));
    if (st == CAIRN_OK) {
      memset(de->area, 0, n * sizeof *de->area);
      label(de, &k);
      const uint32_t roots = pick_roots(de, &k);
      search_all(g, &k, k.aux, roots);
      st = grow_areas(de, count_areas(&k));
    }
    if (st == CAIRN_OK) {
      memset(de->area, 0, n * sizeof *de->area);
      label(de, &k);
      set_stats(de, &k);
    }
  }
  work_free(a, &k, n);
  return st;
}

/* Compares the grid's open and cheapest-terrain cells with the snapshot
 * (store: writes it instead); true when they match. One pass of 64 cells
 * a word: a small part of a search's cost. */
static bool same_shape(cairn_dead_ends *de, bool store) {
  const cairn_grid *g = de->grid;
  const uint8_t least = least_cost(g);
  bool same = !store && least == de->least;
  for (size_t w = 0; w < de->words && (store || same); w++) {
    uint64_t open = 0, at_least = 0;
    const size_t c0 = w * 64, n = de->padded - c0 < 64 ? de->padded - c0 : 64;
    for (size_t i = 0; i < n; i++) {
      const uint8_t t = g->cost[c0 + i];
      open |= (uint64_t)(t != 0) << i;
      at_least |= (uint64_t)(t == least) << i;
    }
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
  de->current = false;
  cairn_status st = find(de);
  if (st != CAIRN_OK) return st;
  de->finds++;
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
  return sizeof *de + de->padded * sizeof *de->area + 5 * de->words * sizeof *de->gate_bits +
         ((size_t)de->count + 1) * (4 * sizeof *de->end + 1);
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
