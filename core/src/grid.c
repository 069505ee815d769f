/* Grid storage and island labels. */
#include "layers_internal.h" /* cairn__grid_label_islands */

#include <string.h>

/* Bytes of a bit plane of `lines` lines of `words` words. */
static size_t plane_bytes(size_t words, int32_t lines) {
  return words * (size_t)lines * sizeof(uint64_t);
}

cairn_status cairn_grid_create(int32_t width, int32_t height, uint8_t fill,
                               const cairn_allocator *alloc,
                               cairn_grid **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (width < 1 || height < 1) return CAIRN_ERR_ARG;
  if (width > CAIRN_GRID_MAX_SIDE || height > CAIRN_GRID_MAX_SIDE)
    return CAIRN_ERR_TOO_LARGE;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_grid *g = cairn__alloc_zero(&a, sizeof *g);
  if (!g) return CAIRN_ERR_NOMEM;
  g->alloc = a;
  g->width = width;
  g->height = height;
  g->stride = width + 2;
  g->padded = (size_t)(width + 2) * (size_t)(height + 2);
  g->cost = cairn__alloc(&a, g->padded);
  g->moves = cairn__alloc(&a, g->padded);
  g->clear = cairn__alloc(&a, g->padded);
  g->island = cairn__alloc(&a, g->padded * sizeof *g->island);
  g->row_words = ((size_t)g->stride + 127) / 64 + 1;
  g->col_words = ((size_t)height + 2 + 127) / 64 + 1;
  g->rows = cairn__alloc_zero(&a, plane_bytes(g->row_words, height + 2));
  g->cols = cairn__alloc_zero(&a, plane_bytes(g->col_words, g->stride));
  if (!g->cost || !g->moves || !g->clear || !g->island || !g->rows || !g->cols) {
    cairn_grid_destroy(g);
    return CAIRN_ERR_NOMEM;
  }
  memset(g->cost, 0, g->padded);
  for (int32_t y = 0; y < height; y++)
    memset(g->cost + cairn__grid_index(g, 0, y), fill, (size_t)width);
  g->passable = fill ? (size_t)width * (size_t)height : 0;
  g->island_sizes = 1;
  cairn__grid_count_costs(g);
  cairn__grid_refresh_moves(g);
  /* the header promises fresh islands: a grid without them is a failure */
  if (cairn_grid_update_islands(g) != CAIRN_OK) {
    cairn_grid_destroy(g);
    return CAIRN_ERR_NOMEM;
  }
  *out = g;
  return CAIRN_OK;
}

/* Bytes of the label planes of sizes 2 .. sizes. */
static size_t sized_bytes(const cairn_grid *g, int32_t sizes) {
  return (size_t)(sizes - 1) * g->padded * sizeof(uint32_t);
}

void cairn_grid_destroy(cairn_grid *g) {
  if (!g) return;
  cairn_allocator a = g->alloc;
  cairn__free(&a, g->cost, g->padded);
  cairn__free(&a, g->moves, g->padded);
  cairn__free(&a, g->clear, g->padded);
  cairn__free(&a, g->rows, plane_bytes(g->row_words, g->height + 2));
  cairn__free(&a, g->cols, plane_bytes(g->col_words, g->stride));
  cairn__free(&a, g->glyph, g->padded);
  cairn__free(&a, g->island, g->padded * sizeof *g->island);
  cairn__free(&a, g->island_sized, sized_bytes(g, g->island_sizes));
  cairn__free(&a, g, sizeof *g);
}

cairn_status cairn__grid_alloc_glyphs(cairn_grid *g) {
  if (g->glyph) return CAIRN_OK;
  g->glyph = cairn__alloc(&g->alloc, g->padded);
  if (!g->glyph) return CAIRN_ERR_NOMEM;
  memset(g->glyph, 0, g->padded);
  return CAIRN_OK;
}

int32_t cairn_grid_width(const cairn_grid *g) { return g ? g->width : 0; }
int32_t cairn_grid_height(const cairn_grid *g) { return g ? g->height : 0; }

int cairn_grid_contains(const cairn_grid *g, int32_t x, int32_t y) {
  return g && x >= 0 && y >= 0 && x < g->width && y < g->height;
}

uint8_t cairn_grid_cost(const cairn_grid *g, int32_t x, int32_t y) {
  if (!cairn_grid_contains(g, x, y)) return 0;
  return g->cost[cairn__grid_index(g, x, y)];
}

static void refresh_moves_in(cairn_grid *g, int32_t x0, int32_t y0, int32_t x1,
                             int32_t y1);
static void refresh_clear_in(cairn_grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1);

/* Keeps passable, by_cost and distinct_costs as cell i goes to `cost`. */
static void count_change(cairn_grid *g, uint8_t old, uint8_t cost) {
  if (old && --g->by_cost[old] == 0) g->distinct_costs--;
  if (cost && g->by_cost[cost]++ == 0) g->distinct_costs++;
  if ((old != 0) != (cost != 0)) {
    g->passable += cost ? 1 : (size_t)-1;
    g->islands_fresh = false;
  }
}

cairn_status cairn_grid_set_cost(cairn_grid *g, int32_t x, int32_t y,
                                 uint8_t cost) {
  if (!g) return CAIRN_ERR_ARG;
  if (!cairn_grid_contains(g, x, y)) return CAIRN_ERR_RANGE;
  uint32_t i = cairn__grid_index(g, x, y);
  uint8_t old = g->cost[i];
  if (old == cost) return CAIRN_OK;
  count_change(g, old, cost);
  g->cost[i] = cost;
  g->edits++;
  if ((old != 0) != (cost != 0)) cairn__grid_refresh_moves_around(g, i);
  if (g->glyph) g->glyph[i] = 0; /* the glyph described the old terrain */
  return CAIRN_OK;
}

cairn_status cairn_grid_set_rect(cairn_grid *g, cairn_rect r,
                                 const uint8_t *costs, size_t pitch) {
  if (!g || r.w < 0 || r.h < 0) return CAIRN_ERR_ARG;
  if (!r.w || !r.h) return CAIRN_OK;
  if (!costs || pitch < (size_t)r.w) return CAIRN_ERR_ARG;
  if (r.x < 0 || r.y < 0 || r.w > g->width - r.x || r.h > g->height - r.y)
    return CAIRN_ERR_RANGE;
  bool flipped = false;
  for (int32_t y = 0; y < r.h; y++) {
    uint32_t i = cairn__grid_index(g, r.x, r.y + y);
    const uint8_t *row = costs + (size_t)y * pitch;
    for (int32_t x = 0; x < r.w; x++, i++) {
      uint8_t old = g->cost[i];
      if (old == row[x]) continue;
      flipped = flipped || (old != 0) != (row[x] != 0);
      count_change(g, old, row[x]);
      g->cost[i] = row[x];
      g->edits++;
      if (g->glyph) g->glyph[i] = 0;
    }
  }
  if (flipped) {
    refresh_moves_in(g, r.x - 1, r.y - 1, r.x + r.w, r.y + r.h);
    refresh_clear_in(g, r.x - (CAIRN_GRID_MAX_CLEARANCE - 1), r.y - (CAIRN_GRID_MAX_CLEARANCE - 1),
                     r.x + r.w - 1, r.y + r.h - 1);
  }
  return CAIRN_OK;
}

uint64_t cairn_grid_version(const cairn_grid *g) { return g ? g->edits : 0; }

int cairn_grid_uniform(const cairn_grid *g) { return g && g->distinct_costs <= 1; }

/* The move sets (see struct cairn_grid) of n cells of a row, from cost c
 * on, into m: every test on bytes, without branches, so the loop
 * vectorises. */
static void moves_row(uint8_t *restrict m, const uint8_t *restrict c, uint32_t s, size_t n) {
  /* each neighbour as a row of its own, indexed from 0: no index runs
   * below its array (the row's west and the rows above and below start
   * one cell before, one row up or down) */
  const uint8_t *up = c - s, *dn = c + s;
  const uint8_t *w = c - 1, *e = c + 1, *nw = up - 1, *ne = up + 1, *sw = dn - 1, *se = dn + 1;
  for (size_t x = 0; x < n; x++) {
    const uint8_t ex = e[x] != 0, wx = w[x] != 0, so = dn[x] != 0, no = up[x] != 0;
    const uint8_t v = (uint8_t)(ex | wx << 1 | so << 2 | no << 3 | (ex & so & (se[x] != 0)) << 4 |
                                (wx & so & (sw[x] != 0)) << 5 | (ex & no & (ne[x] != 0)) << 6 |
                                (wx & no & (nw[x] != 0)) << 7);
    m[x] = (uint8_t)(v & -(uint8_t)(c[x] != 0));
  }
}

/* Bits lo..hi (inclusive, hi - lo < 64 and within one word or two) of the
 * plane line at `line` set to the low bits of v, the others kept. */
static void put_bits(uint64_t *line, uint32_t lo, uint32_t hi, uint64_t v) {
  const uint32_t n = hi - lo + 1, w = lo >> 6, at = lo & 63u;
  const uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1u;
  line[w] = (line[w] & ~(mask << at)) | (v & mask) << at;
  if (at + n > 64) { /* the rest spills into the next word */
    const uint32_t done = 64u - at;
    line[w + 1] = (line[w + 1] & ~(mask >> done)) | (v & mask) >> done;
  }
}

/* Move sets of the cells in columns x0..x1, rows y0..y1, clipped to the
 * grid (border cells stay blocked with no moves), and their bits in both
 * planes, a word of cells at a time: each row's bits gathered and written
 * once, each column's once per 64 rows. */
static void refresh_moves_in(cairn_grid *g, int32_t x0, int32_t y0, int32_t x1,
                             int32_t y1) {
  const uint32_t s = (uint32_t)g->stride;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > g->width - 1) x1 = g->width - 1;
  if (y1 > g->height - 1) y1 = g->height - 1;
  for (int32_t y = y0; y <= y1; y++) {
    const uint32_t i = cairn__grid_index(g, x0, y);
    moves_row(g->moves + i, g->cost + i, s, (size_t)(x1 - x0 + 1));
    /* the row plane: padded x + 1 at bit x + 65 of its row */
    uint64_t *row = g->rows + (size_t)(y + 1) * g->row_words;
    for (int32_t a = x0; a <= x1; a += 64) {
      const int32_t b = a + 63 < x1 ? a + 63 : x1;
      const uint8_t *c = g->cost + cairn__grid_index(g, a, y);
      uint64_t v = 0;
      for (int32_t x = b; x >= a; x--) v = v << 1 | (c[x - a] != 0);
      put_bits(row, (uint32_t)a + 65u, (uint32_t)b + 65u, v);
    }
  }
  /* the column plane: padded y + 1 at bit y + 65 of its column */
  for (int32_t x = x0; x <= x1; x++) {
    uint64_t *col = g->cols + (size_t)(x + 1) * g->col_words;
    for (int32_t a = y0; a <= y1; a += 64) {
      const int32_t b = a + 63 < y1 ? a + 63 : y1;
      const uint8_t *c = g->cost + cairn__grid_index(g, x, a);
      uint64_t v = 0;
      for (int32_t y = b; y >= a; y--) v = v << 1 | (c[(size_t)(y - a) * s] != 0);
      put_bits(col, (uint32_t)a + 65u, (uint32_t)b + 65u, v);
    }
  }
}

/* Clearances of the cells in columns x0..x1, rows y0..y1, clipped to the
 * grid: from the bottom right up, each from its east, south and
 * south-east neighbours (the square at a cell is one wider than the
 * smallest of theirs), which lie below or right of the window or were
 * just redone. */
static void refresh_clear_in(cairn_grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const uint32_t s = (uint32_t)g->stride;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > g->width - 1) x1 = g->width - 1;
  if (y1 > g->height - 1) y1 = g->height - 1;
  for (int32_t y = y1; y >= y0; y--) {
    uint32_t i = cairn__grid_index(g, x1, y);
    for (int32_t x = x1; x >= x0; x--, i--) {
      unsigned m = g->clear[i + 1];
      if (g->clear[i + s] < m) m = g->clear[i + s];
      if (g->clear[i + s + 1] < m) m = g->clear[i + s + 1];
      m = m < CAIRN_GRID_MAX_CLEARANCE ? m + 1 : CAIRN_GRID_MAX_CLEARANCE;
      g->clear[i] = g->cost[i] ? (uint8_t)m : 0;
    }
  }
}

void cairn__grid_refresh_moves(cairn_grid *g) {
  memset(g->moves, 0, g->padded);
  memset(g->clear, 0, g->padded);
  refresh_moves_in(g, 0, 0, g->width - 1, g->height - 1);
  refresh_clear_in(g, 0, 0, g->width - 1, g->height - 1);
}

/* A cell's passability enters the move sets of its 3 x 3 neighbourhood,
 * and the clearances of the cells whose capped square can hold it: those
 * up to CAIRN_GRID_MAX_CLEARANCE - 1 up and left of it. */
void cairn__grid_refresh_moves_around(cairn_grid *g, uint32_t i) {
  const uint32_t s = (uint32_t)g->stride;
  const int32_t x = (int32_t)(i % s) - 1, y = (int32_t)(i / s) - 1;
  refresh_moves_in(g, x - 1, y - 1, x + 1, y + 1);
  refresh_clear_in(g, x - (CAIRN_GRID_MAX_CLEARANCE - 1), y - (CAIRN_GRID_MAX_CLEARANCE - 1), x,
                   y);
}

void cairn__grid_count_costs(cairn_grid *g) {
  memset(g->by_cost, 0, sizeof g->by_cost);
  for (int32_t y = 0; y < g->height; y++) {
    const uint8_t *row = g->cost + cairn__grid_index(g, 0, y);
    for (int32_t x = 0; x < g->width; x++) g->by_cost[row[x]]++;
  }
  g->by_cost[0] = 0;
  g->distinct_costs = 0;
  for (int c = 1; c < 256; c++) g->distinct_costs += g->by_cost[c] != 0;
}

size_t cairn_grid_passable(const cairn_grid *g) { return g ? g->passable : 0; }

const uint8_t *cairn_grid_cells(const cairn_grid *g, int32_t *stride) {
  if (stride) *stride = g ? g->stride : 0;
  return g ? g->cost : NULL;
}

const uint8_t *cairn_grid_moves(const cairn_grid *g, int32_t *stride) {
  if (stride) *stride = g ? g->stride : 0;
  return g ? g->moves : NULL;
}

uint8_t cairn_grid_clearance(const cairn_grid *g, int32_t x, int32_t y) {
  if (!cairn_grid_contains(g, x, y)) return 0;
  return g->clear[cairn__grid_index(g, x, y)];
}

const uint8_t *cairn_grid_clearances(const cairn_grid *g, int32_t *stride) {
  if (stride) *stride = g ? g->stride : 0;
  return g ? g->clear : NULL;
}

/* The hash of cairn_save.h over the sizes and the rows of costs (the
 * padding left out), so that it follows the map and not the layout. */
uint64_t cairn_grid_fingerprint(const cairn_grid *g) {
  if (!g) return 0;
  cairn__hash h;
  cairn__hash_init(&h);
  cairn__hash_le(&h, (uint32_t)g->width, 4);
  cairn__hash_le(&h, (uint32_t)g->height, 4);
  for (int32_t y = 0; y < g->height; y++)
    cairn__hash_add(&h, g->cost + cairn__grid_index(g, 0, y), (size_t)g->width);
  return cairn__hash_end(&h);
}

/* Labels the positions where a unit of size k fits (k == 1: the open
 * cells) in `label`, zeroed first, one label per 4-connected group, and
 * returns the count. A flood fill with an explicit stack (each cell is
 * pushed once, when it is labelled, so passable cells bound it): no
 * recursion on a 16384^2 maze. With sizes, (*sizes) gets each label's cell
 * count as island_sizes describes (cairn__grid_label_islands). */
static cairn_status flood(cairn_grid *g, uint32_t *label, unsigned k, uint32_t *stack,
                          uint32_t **sizes, size_t *cap_sizes, uint32_t *count) {
  memset(label, 0, g->padded * sizeof *label);
  const uint8_t *fit = k == 1 ? g->cost : g->clear;
  const uint8_t need = k == 1 ? 1 : (uint8_t)k;
  const int32_t s = g->stride;
  const int32_t off[4] = {1, -1, s, -s};
  uint32_t n_labels = 0;
  for (uint32_t i = 0; i < (uint32_t)g->padded; i++) {
    if (fit[i] < need || label[i]) continue;
    n_labels++;
    size_t top = 0, cells = 1;
    label[i] = n_labels;
    stack[top++] = i;
    while (top) {
      uint32_t c = stack[--top];
      for (int d = 0; d < 4; d++) {
        uint32_t n = (uint32_t)((int32_t)c + off[d]);
        if (fit[n] >= need && !label[n]) {
          label[n] = n_labels;
          stack[top++] = n;
          cells++;
        }
      }
    }
    if (sizes) {
      cairn_status st = cairn__grid_put_size(&g->alloc, sizes, cap_sizes, n_labels, (uint32_t)cells);
      if (st != CAIRN_OK) return st;
    }
  }
  *count = n_labels;
  return CAIRN_OK;
}

/* The labels of every size the grid keeps. With sizes (not NULL), *sizes
 * (of *cap entries, grown through the grid's allocator) gets each size-1
 * label's cell count, for the knowledge's local merges (knowledge.c); its
 * entries past the last label are 0. */
cairn_status cairn__grid_label_islands(cairn_grid *g, uint32_t **sizes, size_t *cap_sizes) {
  if (!g) return CAIRN_ERR_ARG;
  size_t cap = g->passable ? g->passable : 1;
  uint32_t *stack = cairn__alloc(&g->alloc, cap * sizeof *stack);
  if (!stack) return CAIRN_ERR_NOMEM;
  if (sizes && *sizes) memset(*sizes, 0, *cap_sizes * sizeof **sizes);
  g->islands_fresh = false;
  uint32_t count = 0, unused;
  cairn_status st = flood(g, g->island, 1, stack, sizes, cap_sizes, &count);
  for (int32_t k = 2; k <= g->island_sizes && st == CAIRN_OK; k++)
    st = flood(g, g->island_sized + (size_t)(k - 2) * g->padded, (unsigned)k, stack, NULL, NULL,
               &unused);
  cairn__free(&g->alloc, stack, cap * sizeof *stack);
  if (st != CAIRN_OK) return st; /* labels stay stale */
  g->island_count = count;
  g->islands_fresh = true;
  return CAIRN_OK;
}

cairn_status cairn__grid_put_size(const cairn_allocator *a, uint32_t **sizes,
                                  size_t *cap, uint32_t label, uint32_t cells) {
  if (label >= *cap) {
    size_t n = *cap ? *cap : 64;
    while (n <= label) n *= 2;
    uint32_t *p = cairn__realloc(a, *sizes, *cap * sizeof *p, n * sizeof *p);
    if (!p) return CAIRN_ERR_NOMEM;
    memset(p + *cap, 0, (n - *cap) * sizeof *p);
    *sizes = p;
    *cap = n;
  }
  (*sizes)[label] = cells;
  return CAIRN_OK;
}

cairn_status cairn_grid_update_islands(cairn_grid *g) {
  return cairn__grid_label_islands(g, NULL, NULL);
}

int cairn_grid_islands_fresh(const cairn_grid *g) {
  return g && g->islands_fresh;
}

uint32_t cairn_grid_island(const cairn_grid *g, int32_t x, int32_t y) {
  if (!cairn_grid_contains(g, x, y)) return 0;
  return g->island[cairn__grid_index(g, x, y)];
}

uint32_t cairn_grid_island_count(const cairn_grid *g) {
  return g ? g->island_count : 0;
}

cairn_status cairn_grid_set_island_sizes(cairn_grid *g, int32_t sizes) {
  if (!g || sizes < 1 || sizes > CAIRN_GRID_MAX_CLEARANCE) return CAIRN_ERR_ARG;
  if (sizes == g->island_sizes && g->islands_fresh) return CAIRN_OK;
  uint32_t *planes = NULL;
  if (sizes > 1) {
    planes = cairn__alloc(&g->alloc, sized_bytes(g, sizes));
    if (!planes) return CAIRN_ERR_NOMEM;
  }
  const int32_t old_sizes = g->island_sizes;
  uint32_t *old = g->island_sized;
  g->island_sized = planes;
  g->island_sizes = sizes;
  cairn_status st = cairn__grid_label_islands(g, NULL, NULL);
  if (st != CAIRN_OK) { /* as it was: nothing changed but the labels' freshness */
    g->island_sized = old;
    g->island_sizes = old_sizes;
    cairn__free(&g->alloc, planes, planes ? sized_bytes(g, sizes) : 0);
    return st;
  }
  cairn__free(&g->alloc, old, old ? sized_bytes(g, old_sizes) : 0);
  return CAIRN_OK;
}

int32_t cairn_grid_island_sizes(const cairn_grid *g) { return g ? g->island_sizes : 0; }

uint32_t cairn_grid_island_sized(const cairn_grid *g, int32_t x, int32_t y, int32_t size) {
  if (!cairn_grid_contains(g, x, y) || size < 1 || size > g->island_sizes) return 0;
  return cairn__grid_islands_of(g, (unsigned)size)[cairn__grid_index(g, x, y)];
}
