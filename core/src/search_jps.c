/* Jump point search on grids of one terrain cost: 8 moves, no corner
 * cutting, exact (Harabor and Grastien, "Online Graph Pruning for
 * Pathfinding on Grid Maps", AAAI 2011, with the rules for this movement
 * model and the block-based scans of "Improving Jump Point Search", ICAPS
 * 2014).
 *
 * Among the cheapest paths between two cells there is always one that
 * takes its diagonal steps first and turns only where a wall forces it;
 * the search follows only those. A straight scan runs along a line of cells
 * until it meets a wall (nothing there) or a cell with a forced neighbour:
 * a side cell open whose predecessor's side cell is blocked, so the
 * cheapest way into that side cell passes here. Such a cell, or the goal,
 * is a jump point and goes on the heap. The scans read 64 cells at once
 * from the grid's bit planes (struct cairn_grid: one for rows, one for
 * columns), three lines at a time.
 *
 * A diagonal scan steps one cell at a time and runs both straight scans of
 * its two components from every cell it reaches; the jump points they find
 * go on the heap directly, with the expanded node as parent (the cells on
 * the diagonal are not pushed: "Improving Jump Point Search"'s pruning of
 * intermediate nodes). A parent and its child are therefore joined by
 * diagonal steps followed by straight ones, which is how the path is
 * written out cell by cell.
 *
 * With jump tables (cairn_jumps, jumps.c) each scan is a look-up instead,
 * and a diagonal is walked from one cell with a turn to the next; where it
 * crosses the goal's row or column, the goal is checked as the scans of
 * the cells between would have met it.
 *
 * Sliced like A*: cairn_search_step's budget counts heap pops, straight
 * scans (or look-ups) and diagonal steps (or hops), and a diagonal stops
 * mid-way when the budget runs out (s->jp_node, jp_dirs, jp_at keep its
 * place). */
#include "jumps_internal.h"
#include "search_internal.h"

enum { DIR_E, DIR_W, DIR_S, DIR_N, DIR_SE, DIR_SW, DIR_NE, DIR_NW };

/* A straight scan forward along `line` from cell `at` (not included), with
 * the lines beside it: the first cell where a side line turns from blocked
 * to open (its predecessor's side cell blocked, its own open), or `goal_at`
 * if that comes first; -1 if the line is blocked first. Word by word,
 * aligned: a word's cell 0 takes its predecessor from the word before
 * (every line has a blocked word before its first cell). */
CAIRN_INLINE int32_t scan_forward(const uint64_t *line, const uint64_t *side1,
                                  const uint64_t *side2, int32_t at, int32_t goal_at) {
  const uint32_t b = (uint32_t)at + 64u, gb = (uint32_t)goal_at + 64u;
  size_t w = b >> 6;
  uint64_t mask = (~0ull << (b & 63u)) << 1; /* the cells after `at` */
  uint64_t a = side1[w], c = side2[w];
  uint64_t pa = side1[w - 1] >> 63, pc = side2[w - 1] >> 63;
  for (;;) {
    const uint64_t r = line[w];
    uint64_t stop = ((a & ~(a << 1 | pa)) | (c & ~(c << 1 | pc)) | ~r) & mask;
    if (w == gb >> 6) stop |= (1ull << (gb & 63u)) & mask;
    if (stop) {
      const int i = cairn__ctz64(stop);
      return (r >> i & 1u) ? (int32_t)((w << 6) + (size_t)i) - 64 : -1;
    }
    pa = a >> 63;
    pc = c >> 63;
    w++;
    a = side1[w];
    c = side2[w];
    mask = ~0ull;
  }
}

/* scan_forward backward: a word's cell 63 takes its predecessor from the
 * word after (every line has a blocked word after its last cell). */
CAIRN_INLINE int32_t scan_backward(const uint64_t *line, const uint64_t *side1,
                                   const uint64_t *side2, int32_t at, int32_t goal_at) {
  const uint32_t b = (uint32_t)at + 64u, gb = (uint32_t)goal_at + 64u;
  size_t w = b >> 6;
  uint64_t mask = (~0ull >> (63u - (b & 63u))) >> 1; /* the cells before `at` */
  uint64_t a = side1[w], c = side2[w];
  uint64_t pa = side1[w + 1] << 63, pc = side2[w + 1] << 63;
  for (;;) {
    const uint64_t r = line[w];
    uint64_t stop = ((a & ~(a >> 1 | pa)) | (c & ~(c >> 1 | pc)) | ~r) & mask;
    if (w == gb >> 6) stop |= (1ull << (gb & 63u)) & mask;
    if (stop) {
      const int i = cairn__msb64(stop);
      return (r >> i & 1u) ? (int32_t)((w << 6) + (size_t)i) - 64 : -1;
    }
    pa = a << 63;
    pc = c << 63;
    w--;
    a = side1[w];
    c = side2[w];
    mask = ~0ull;
  }
}

/* Where a straight scan from padded cell (x, y) in direction d (DIR_E ..
 * DIR_N) finds a jump point: its x for east and west, its y for south and
 * north; -1 if none. */
CAIRN_INLINE int32_t scan_straight(const cairn_search *s, int32_t x, int32_t y, const int d) {
  const cairn_grid *g = s->grid;
  if (d == DIR_E || d == DIR_W) {
    const size_t w = g->row_words;
    const uint64_t *line = g->rows + (size_t)y * w;
    const int32_t goal_at = y == s->gy ? s->gx : -1;
    return d == DIR_E ? scan_forward(line, line - w, line + w, x, goal_at)
                      : scan_backward(line, line - w, line + w, x, goal_at);
  }
  const size_t w = g->col_words;
  const uint64_t *line = g->cols + (size_t)x * w;
  const int32_t goal_at = x == s->gx ? s->gy : -1;
  return d == DIR_S ? scan_forward(line, line - w, line + w, y, goal_at)
                    : scan_backward(line, line - w, line + w, y, goal_at);
}

/* A pending jump point's heap position: not on the heap yet. */
#define PENDING UINT32_MAX

/* Opens the pending jump points (jp_pend) with their bounds. */
static void open_pending(cairn_search *s) {
  const uint32_t stride = (uint32_t)s->grid->stride;
  for (uint32_t k = 0; k < s->jp_npend; k++) {
    const uint32_t j = s->jp_pend[k];
    const cairn_cost h = cairn__grid_h_all(s, (int)s->heuristic, true, j, (int32_t)(j % stride),
                                           (int32_t)(j / stride));
    cairn__open(s, j, s->nodes[j].g, h, s->parent[j]);
  }
  s->jp_npend = 0;
}

/* Marks fresh jump point j open at cost ng from `from` and leaves it
 * pending, its landmark row on the way into the cache. */
static void defer(cairn_search *s, uint32_t j, cairn_cost ng, uint32_t from) {
  if (s->jp_npend == sizeof s->jp_pend / sizeof s->jp_pend[0]) open_pending(s);
  s->nodes[j].g = ng;
  s->nodes[j].stamp = s->gen;
  s->nodes[j].heap = PENDING;
  s->parent[j] = from;
  s->jp_pend[s->jp_npend++] = j;
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(s->lm_d + (size_t)j * s->lm_width);
#endif
}

/* Jump point j, at padded (jx, jy), reached from the node being expanded,
 * at (fx, fy), by diagonal steps then straight ones. */
static void relax(cairn_search *s, uint32_t j, int32_t jx, int32_t jy, int32_t fx, int32_t fy) {
  const uint32_t from = s->jp_node;
  const uint32_t dx = (uint32_t)abs(jx - fx), dy = (uint32_t)abs(jy - fy);
  const uint32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  const cairn_cost ng = s->nodes[from].g + s->jp_diag * lo + s->jp_one * (hi - lo);
  /* a jump point inside a skipped dead end: the scan that found it
   * entered the area through its gate, and any way on leaves through the
   * gate again */
  if (s->de && cairn__de_skips(s, j)) return;
  if (cairn__is_fresh(s, j)) {
    if (s->lm_used) defer(s, j, ng, from);
    else cairn__open(s, j, ng, cairn__grid_h_all(s, (int)s->heuristic, false, j, jx, jy), from);
  } else if (cairn__is_open(s, j) && ng < s->nodes[j].g) {
    if (s->nodes[j].heap == PENDING) {
      s->nodes[j].g = ng;
      s->parent[j] = from;
    } else {
      cairn__lower(s, j, ng, from);
    }
  }
}

static int sign(int32_t v) { return (v > 0) - (v < 0); }

/* The directions to scan from node c: all from the start; otherwise those
 * a cheapest diagonal-first way through c can continue in, given the last
 * leg of the way in (straight: on, and the side turns a wall forces;
 * diagonal: on, and its two components), cut to c's legal moves. */
static uint8_t scan_dirs(const cairn_search *s, uint32_t c) {
  const cairn_grid *g = s->grid;
  const uint8_t *cost = g->cost;
  const int32_t stride = g->stride;
  const uint32_t p = s->parent[c];
  if (p == c) return g->moves[c];
  const int32_t ddx = (int32_t)(c % (uint32_t)stride) - (int32_t)(p % (uint32_t)stride);
  const int32_t ddy = (int32_t)(c / (uint32_t)stride) - (int32_t)(p / (uint32_t)stride);
  const int32_t adx = abs(ddx), ady = abs(ddy);
  const int dx = sign(ddx), dy = sign(ddy);
  unsigned dirs;
  if (adx > ady) { /* east or west: north and south may be forced */
    const uint32_t back = (uint32_t)((int32_t)c - dx);
    dirs = 1u << (dx > 0 ? DIR_E : DIR_W);
    if (!cost[back - (uint32_t)stride] && cost[c - (uint32_t)stride])
      dirs |= 1u << DIR_N | 1u << (dx > 0 ? DIR_NE : DIR_NW);
    if (!cost[back + (uint32_t)stride] && cost[c + (uint32_t)stride])
      dirs |= 1u << DIR_S | 1u << (dx > 0 ? DIR_SE : DIR_SW);
  } else if (ady > adx) { /* south or north: east and west may be forced */
    const uint32_t back = (uint32_t)((int32_t)c - dy * stride);
    dirs = 1u << (dy > 0 ? DIR_S : DIR_N);
    if (!cost[back - 1] && cost[c - 1]) dirs |= 1u << DIR_W | 1u << (dy > 0 ? DIR_SW : DIR_NW);
    if (!cost[back + 1] && cost[c + 1]) dirs |= 1u << DIR_E | 1u << (dy > 0 ? DIR_SE : DIR_NE);
  } else { /* diagonal */
    dirs = 1u << (dx > 0 ? DIR_E : DIR_W) | 1u << (dy > 0 ? DIR_S : DIR_N);
    dirs |= 1u << (dy > 0 ? (dx > 0 ? DIR_SE : DIR_SW) : (dx > 0 ? DIR_NE : DIR_NW));
  }
  return (uint8_t)(dirs & g->moves[c]);
}

/* Goes on with the diagonal scan in direction d from the node being
 * expanded, at padded (fx, fy); returns the budget left, with jp_at where
 * it stopped (or UINT32_MAX once the diagonal ends). What the loop reads
 * is held in locals: relax writes through s, so the compiler would
 * otherwise load it all again after every jump point. */
CAIRN_INLINE uint64_t scan_diagonal(cairn_search *s, const int d, int32_t fx, int32_t fy,
                                    uint64_t budget) {
  const cairn_grid *g = s->grid;
  const uint8_t *const moves = g->moves;
  const uint32_t stride = (uint32_t)g->stride, goal = s->goal;
  const int32_t gx = s->gx, gy = s->gy;
  const size_t rw = g->row_words, cw = g->col_words;
  const int dx = cairn__dx[d], dy = cairn__dy[d];
  const int32_t off = dx + dy * (int32_t)stride;
  uint32_t at = s->jp_at == UINT32_MAX ? s->jp_node : s->jp_at;
  int32_t x = (int32_t)(at % stride), y = (int32_t)(at / stride);
  const uint64_t *row = g->rows + (size_t)y * rw, *col = g->cols + (size_t)x * cw;
  while (budget) {
    if (!(moves[at] >> d & 1u)) {
      s->jp_at = UINT32_MAX;
      return budget;
    }
    at = (uint32_t)((int32_t)at + off);
    x += dx;
    y += dy;
    row = dy > 0 ? row + rw : row - rw;
    col = dx > 0 ? col + cw : col - cw;
    budget--;
    if (at == goal) {
      relax(s, at, x, y, fx, fy);
      s->jp_at = UINT32_MAX;
      return budget;
    }
    const int32_t hg = y == gy ? gx : -1, vg = x == gx ? gy : -1;
    const int32_t jx = dx > 0 ? scan_forward(row, row - rw, row + rw, x, hg)
                              : scan_backward(row, row - rw, row + rw, x, hg);
    if (jx >= 0) relax(s, (uint32_t)y * stride + (uint32_t)jx, jx, y, fx, fy);
    const int32_t jy = dy > 0 ? scan_forward(col, col - cw, col + cw, y, vg)
                              : scan_backward(col, col - cw, col + cw, y, vg);
    if (jy >= 0) relax(s, (uint32_t)jy * stride + (uint32_t)x, x, jy, fx, fy);
  }
  s->jp_at = at;
  return 0;
}

static uint64_t scan_se(cairn_search *s, int32_t x, int32_t y, uint64_t b) {
  return scan_diagonal(s, DIR_SE, x, y, b);
}
static uint64_t scan_sw(cairn_search *s, int32_t x, int32_t y, uint64_t b) {
  return scan_diagonal(s, DIR_SW, x, y, b);
}
static uint64_t scan_ne(cairn_search *s, int32_t x, int32_t y, uint64_t b) {
  return scan_diagonal(s, DIR_NE, x, y, b);
}
static uint64_t scan_nw(cairn_search *s, int32_t x, int32_t y, uint64_t b) {
  return scan_diagonal(s, DIR_NW, x, y, b);
}

/* One straight scan from the node being expanded, at padded (x, y). */
static void scan_line(cairn_search *s, int d, int32_t x, int32_t y) {
  const uint32_t stride = (uint32_t)s->grid->stride;
  int32_t jx = x, jy = y;
  switch (d) {
  case DIR_E: jx = scan_straight(s, x, y, DIR_E); break;
  case DIR_W: jx = scan_straight(s, x, y, DIR_W); break;
  case DIR_S: jy = scan_straight(s, x, y, DIR_S); break;
  default: jy = scan_straight(s, x, y, DIR_N); break;
  }
  if (jx < 0 || jy < 0) return;
  relax(s, (uint32_t)jy * stride + (uint32_t)jx, jx, jy, x, y);
}

/* ---- with jump tables (cairn_jps_plus) ------------------------------- */

/* Whether the goal lies on the straight line from padded (x, y) in
 * direction d within the reach of entry e (before its jump point, or
 * along its open run). */
static bool goal_in_reach(const cairn_search *s, int32_t x, int32_t y, int d, int16_t e) {
  int32_t gd;
  if (d <= DIR_W) {
    if (y != s->gy) return false;
    gd = d == DIR_E ? s->gx - x : x - s->gx;
  } else {
    if (x != s->gx) return false;
    gd = d == DIR_S ? s->gy - y : y - s->gy;
  }
  return gd > 0 && gd <= (e > 0 ? e : -e);
}

/* A straight lookup from the node being expanded, at padded (x, y). */
static void look_line(cairn_search *s, int d, int32_t x, int32_t y) {
  const uint32_t c = s->jp_node;
  const int16_t e = s->jt->e[(size_t)c * 8 + (size_t)d];
  if (goal_in_reach(s, x, y, d, e)) {
    relax(s, s->goal, s->gx, s->gy, x, y);
  } else if (e > 0) {
    const int32_t jx = x + cairn__dx[d] * e, jy = y + cairn__dy[d] * e;
    relax(s, (uint32_t)((int32_t)c + (cairn__dx[d] + cairn__dy[d] * s->grid->stride) * e), jx, jy,
          x, y);
  }
}

/* The goal, where a diagonal segment of `len` steps in d from padded
 * (x, y) crosses its row or column with the goal ahead on it in reach
 * (what the scans of the diagonal's cells would meet), relaxed from the
 * node being expanded at (fx, fy). */
static void goal_off_diagonal(cairn_search *s, int d, int32_t x, int32_t y, int32_t len,
                              int32_t fx, int32_t fy) {
  const int dx = cairn__dx[d], dy = cairn__dy[d];
  const int32_t stride = s->grid->stride;
  const int32_t kr = (s->gy - y) * dy, kc = (s->gx - x) * dx; /* steps to its row, column */
  for (int pass = 0; pass < 2; pass++) {
    const int32_t k = pass ? kc : kr;
    if (k < 1 || k > len) continue;
    const int32_t tx = x + k * dx, ty = y + k * dy;
    const int line = pass ? (dy > 0 ? DIR_S : DIR_N) : (dx > 0 ? DIR_E : DIR_W);
    const uint32_t t = (uint32_t)(ty * stride + tx);
    if (t == s->goal || goal_in_reach(s, tx, ty, line, s->jt->e[(size_t)t * 8 + (size_t)line]))
      relax(s, s->goal, s->gx, s->gy, fx, fy);
  }
}

/* The diagonal in direction d from the node being expanded, hop by hop
 * through the cells whose straight components have a jump point (each a
 * budget unit); their jump points relaxed from the node. */
static uint64_t look_diagonal(cairn_search *s, int d, int32_t fx, int32_t fy, uint64_t budget) {
  const int16_t *tab = s->jt->e;
  const int32_t stride = s->grid->stride;
  const int dx = cairn__dx[d], dy = cairn__dy[d];
  const int32_t off = dx + dy * stride;
  const int hd = dx > 0 ? DIR_E : DIR_W, vd = dy > 0 ? DIR_S : DIR_N;
  uint32_t at = s->jp_at == UINT32_MAX ? s->jp_node : s->jp_at;
  int32_t x = (int32_t)(at % (uint32_t)stride), y = (int32_t)(at / (uint32_t)stride);
  while (budget) {
    const int16_t e = tab[(size_t)at * 8 + (size_t)d];
    goal_off_diagonal(s, d, x, y, e > 0 ? e : -e, fx, fy);
    budget--;
    if (e <= 0) {
      s->jp_at = UINT32_MAX;
      return budget;
    }
    at = (uint32_t)((int32_t)at + off * e);
    x += dx * e;
    y += dy * e;
    const int16_t eh = tab[(size_t)at * 8 + (size_t)hd], ev = tab[(size_t)at * 8 + (size_t)vd];
    if (eh > 0) relax(s, (uint32_t)((int32_t)at + dx * eh), x + dx * eh, y, fx, fy);
    if (ev > 0) relax(s, (uint32_t)((int32_t)at + dy * ev * stride), x, y + dy * ev, fx, fy);
  }
  s->jp_at = at;
  return 0;
}

/* ---- expansion ------------------------------------------------------- */

/* Works on the node being expanded until its directions are done or the
 * budget is spent; returns the budget left. */
static uint64_t expand(cairn_search *s, uint64_t budget) {
  static uint64_t (*const diagonal[4])(cairn_search *, int32_t, int32_t, uint64_t) = {
      scan_se, scan_sw, scan_ne, scan_nw};
  const uint32_t stride = (uint32_t)s->grid->stride;
  const uint32_t c = s->jp_node;
  const int32_t x = (int32_t)(c % stride), y = (int32_t)(c / stride);
  while (s->jp_dirs && budget) {
    const int d = cairn__ctz(s->jp_dirs);
    if (d <= DIR_N) {
      if (s->jt)
        look_line(s, d, x, y);
      else
        scan_line(s, d, x, y);
      budget--;
    } else {
      budget = s->jt ? look_diagonal(s, d, x, y, budget) : diagonal[d - DIR_SE](s, x, y, budget);
      if (s->jp_at != UINT32_MAX) break; /* stopped mid-way */
    }
    s->jp_dirs &= (uint8_t)(s->jp_dirs - 1);
  }
  if (!s->jp_dirs) s->jp_node = UINT32_MAX;
  if (s->jp_npend) open_pending(s);
  return budget;
}

/* The path, cell by cell: each parent link is diagonal steps, then
 * straight ones; walked back from the goal, straight first. */
cairn_status cairn__jps_write_path(cairn_search *s) {
  const uint32_t stride = (uint32_t)s->grid->stride;
  size_t n = 1;
  for (uint32_t i = s->found; s->parent[i] != i; i = s->parent[i]) {
    const uint32_t p = s->parent[i];
    const uint32_t dx = (uint32_t)abs((int32_t)(i % stride) - (int32_t)(p % stride));
    const uint32_t dy = (uint32_t)abs((int32_t)(i / stride) - (int32_t)(p / stride));
    n += dx > dy ? dx : dy;
  }
  cairn_status st = cairn_search_reserve_path(s, n);
  if (st != CAIRN_OK) return st;
  /* points written as the walk goes: a division a cell costs more than
   * the rest of the walk on short searches */
  size_t k = n - 1;
  s->path_nodes[k] = s->found;
  s->path[k] = cairn__grid_point(s->grid, s->found);
  for (uint32_t i = s->found; s->parent[i] != i; i = s->parent[i]) {
    const uint32_t p = s->parent[i];
    int32_t x = (int32_t)(i % stride), y = (int32_t)(i / stride);
    const int32_t px = (int32_t)(p % stride), py = (int32_t)(p / stride);
    while (x != px || y != py) {
      const int32_t rx = abs(px - x), ry = abs(py - y);
      if (rx >= ry) x += sign(px - x); /* straight part first, then both */
      if (ry >= rx) y += sign(py - y);
      k--;
      s->path_nodes[k] = (uint32_t)y * stride + (uint32_t)x;
      s->path[k] = (cairn_point){x - 1, y - 1};
    }
  }
  s->path_len = n;
  return CAIRN_OK;
}

static cairn_status jps_step(cairn_search *s, uint64_t budget) {
  while (budget) {
    if (s->jp_node == UINT32_MAX) {
      if (!s->heap_len) return cairn__finish(s, CAIRN_NO_PATH);
      if (s->max_expanded && s->expanded >= s->max_expanded)
        return cairn__finish(s, CAIRN_PARTIAL);
      const uint32_t c = cairn__pop(s);
      budget--;
      if (c == s->goal) {
        s->found = c;
        return cairn__finish(s, CAIRN_OK);
      }
      s->jp_node = c;
      s->jp_dirs = scan_dirs(s, c);
      s->jp_at = UINT32_MAX;
    }
    budget = expand(s, budget);
  }
  if (s->jp_node == UINT32_MAX && !s->heap_len) return cairn__finish(s, CAIRN_NO_PATH);
  return CAIRN_IN_PROGRESS;
}

/* What jump point search leaves out: anything but plain 8-way moves of one
 * cell on the whole grid. */
static bool plain_opts(const cairn_search_opts *o) {
  if (!o) return true;
  return o->moves == 8 && o->turn_penalty == 0.0 && !o->penalty && !o->claims &&
         !o->n_avoid && o->size <= 1 && o->bounds.w == 0 && o->bounds.h == 0;
}

/* Leaves s with nothing to step and `st` as its answer. */
static cairn_status refuse(cairn_search *s, cairn_status st) {
  if (s) {
    s->kind = CAIRN__NONE;
    s->state = st;
  }
  return st;
}

/* The begin of both searches: jt NULL scans, else it reads the tables. */
static cairn_status begin(cairn_search *s, const cairn_grid *g, const cairn_jumps *jt,
                          cairn_point start, cairn_point goal, const cairn_search_opts *o) {
  if (s && !plain_opts(o)) return refuse(s, CAIRN_ERR_ARG);
  cairn_status st = cairn__search_grid_begin(s, g, start, o, false);
  if (st == CAIRN_OK) st = cairn__search_check_in(s, g, goal);
  if (st == CAIRN_OK && g->distinct_costs > 1) st = CAIRN_ERR_TERRAIN;
  /* tables that missed an edit would answer for another map */
  if (st == CAIRN_OK && jt && jt->version != g->edits) st = CAIRN_ERR_STATE;
  if (st != CAIRN_OK) return refuse(s, st);
  s->jump = true;
  s->jt = jt;
  s->step = jps_step;
  s->goal = cairn__grid_index(g, goal.x, goal.y);
  s->gx = goal.x + 1;
  s->gy = goal.y + 1;
  s->jp_node = s->jp_at = UINT32_MAX;
  s->jp_dirs = 0;
  s->jp_npend = 0;
  /* the one terrain scales every step, and the heuristic with it */
  const cairn_cost terrain = g->cost[s->start];
  s->jp_one = CAIRN_COST_ONE * terrain;
  s->jp_diag = CAIRN_COST_DIAG * terrain;
  s->h_straight *= terrain;
  s->h_diag_extra *= terrain;
  s->h_euclid *= (double)terrain;
  st = cairn__lm_begin(s, g, s->start, s->goal, true);
  if (st == CAIRN_OK) st = cairn__de_begin(s, g, o);
  if (st != CAIRN_OK) return refuse(s, st);
  /* no swamps: the canonical paths jumps follow may all run through one */
  s->de_swamps = false;
  if (g->islands_fresh && g->island[s->start] != g->island[s->goal]) {
    s->state = CAIRN_NO_PATH;
    return CAIRN_OK;
  }
  cairn__open(s, s->start, 0,
              cairn__grid_h_all(s, (int)s->heuristic, s->lm_used, s->start, s->sx, s->sy),
              s->start);
  return CAIRN_OK;
}

cairn_status cairn_jps_begin(cairn_search *s, const cairn_grid *g, cairn_point start,
                             cairn_point goal, const cairn_search_opts *o) {
  return begin(s, g, NULL, start, goal, o);
}

cairn_status cairn_jps(cairn_search *s, const cairn_grid *g, cairn_point start, cairn_point goal,
                       const cairn_search_opts *o, cairn_result *out) {
  return cairn__run_to_end(s, cairn_jps_begin(s, g, start, goal, o), out);
}

cairn_status cairn_jps_plus_begin(cairn_search *s, const cairn_jumps *jt, cairn_point start,
                                  cairn_point goal, const cairn_search_opts *o) {
  if (!jt) return refuse(s, CAIRN_ERR_ARG);
  return begin(s, jt->grid, jt, start, goal, o);
}

cairn_status cairn_jps_plus(cairn_search *s, const cairn_jumps *jt, cairn_point start,
                            cairn_point goal, const cairn_search_opts *o, cairn_result *out) {
  return cairn__run_to_end(s, cairn_jps_plus_begin(s, jt, start, goal, o), out);
}
