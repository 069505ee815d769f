/* Dead-end tables: updates for edits in the part of an island that lies in
 * no dead end (its root area) that leave every area as it was
 * (cairn_dead_ends_update; dead_ends.c finds the areas, dead_ends_local.c
 * updates one dead end).
 *
 * Such an edit (cells opened, closed or moved into or out of the cheapest
 * terrain, all in the root area, none beside a gate or a dead end) can
 * change two things the full pass computes: the door marks (the greedy
 * choice of the runs between walls, in the full pass's order: a run is
 * marked when no run before it took one of its cells), and which nodes
 * (cells, doors) cut the island. The update replays the greedy choice on
 * the runs the edit can reach: those through the changed cells or next to
 * them, then those sharing a cell with a run whose mark moved, each after
 * the runs before it. That gives the core: the changed cells and the cells
 * whose mark moved. In the window W of the cells within ROOT_MARGIN steps
 * of the core, the rim is W's open cells beside an open cell outside it
 * (none of them changed). Then:
 * - for no node, and for every node meeting W that the edit left alone,
 *   the open cells of W less the node fall into classes that group the
 *   rim alike before and after the edit, and the classes that miss the
 *   rim (cut off by the node, or islands) hold the same cells alike and no
 *   core or changed cell: every path through W has a twin, so every node
 *   cuts what it cut before, the same cells but the core's, which lie on
 *   the root's side;
 * - every node the edit made (a door marked anew, a cell opened) leaves
 *   W's rim grouped as W itself did before, and every neighbour of it in
 *   a class that meets the rim: it cuts nothing.
 * Both hold on the cells alone too, doors taken apart: the one-cell cuts
 * of that graph (the full pass's first search) are what the runs are
 * marked round, and a new one hidden inside a replayed door would change
 * the marks themselves.
 * So the gates, the areas and their heads stay, and with them every id
 * (dead_ends_order.c). The island's first cell must stay, and the sizes
 * its centre was chosen by must move less than their slack and margin, as
 * for the updates inside a dead end.
 *
 * Doors beside pillars (dead_ends_pillars.c) take their cells after the
 * runs are marked, clearing the doors they cross, so the table no longer
 * shows whom those doors kept out: a door beside pillars within a door's
 * reach of the edit along its rows and columns, or on a run the replay
 * tries, or one whose run or stretch holds a core or changed cell, leaves
 * the edit to the whole grid; so does a core or window too large. */
#include "dead_ends_work.h"

#include <string.h>

/* Most cells the edit may change, the core may hold, the window may hold,
 * and the runs the replay may try. */
#define ROOT_MAX_CHANGED 64
#define ROOT_MAX_CORE 1024
#define ROOT_MAX_WINDOW 1024
#define ROOT_MAX_RUNS 4096
/* The window: the cells within this many steps (8-way) of the core. */
#define ROOT_MARGIN 3

/* An update's state: allocated for it (about 85 KB), freed after. */
typedef struct root_edit {
  uint32_t changed[ROOT_MAX_CHANGED];
  uint32_t n_changed, d; /* d: of those, the cells opened or closed */
  uint32_t root;         /* the root area they lie in */
  /* the core: cells whose mark the replay moved, with their new marks */
  uint32_t core[ROOT_MAX_CORE];
  uint16_t marks[ROOT_MAX_CORE];
  uint32_t n_core;
  /* the runs to try, sorted by the full pass's order; those before head
   * are done */
  uint64_t runs[ROOT_MAX_RUNS];
  uint32_t n_runs, head;
  /* the window: its cells, whether each is within a step of the core,
   * open before and now, and a class each for a check */
  uint32_t win[ROOT_MAX_WINDOW];
  uint8_t by_core[ROOT_MAX_WINDOW], was[ROOT_MAX_WINDOW], now[ROOT_MAX_WINDOW];
  uint8_t hot[ROOT_MAX_WINDOW]; /* a core or changed cell */
  uint32_t cls[ROOT_MAX_WINDOW], queue[ROOT_MAX_WINDOW];
  uint32_t rim_old[ROOT_MAX_WINDOW], rim_new[ROOT_MAX_WINDOW], rim_base[ROOT_MAX_WINDOW];
  uint32_t pocket_old[ROOT_MAX_WINDOW], pocket_new[ROOT_MAX_WINDOW];
  uint32_t map[ROOT_MAX_WINDOW];
  uint8_t seen[ROOT_MAX_WINDOW];
  uint32_t n_win;
  /* the checks on the cells alone, doors taken apart (the full pass's
   * first search, whose one-cell cuts no door may cover) */
  bool cells_only;
  bool pocket_core[ROOT_MAX_WINDOW]; /* per class: holds a core cell */
  bool pocket_rim[ROOT_MAX_WINDOW];  /* per class: meets the rim */
  /* sparse sets over padded cells (no clearing: an entry counts when the
   * list points back) */
  uint32_t *core_at, *win_at;
} root_edit;

/* ---- the door marks again ---------------------------------------------- */

static bool in_core(const root_edit *re, uint32_t x) {
  const uint32_t i = re->core_at[x];
  return i < re->n_core && re->core[i] == x;
}

/* Whether cell c is one the edit changed (they are listed in index
 * order). */
static bool is_changed(const root_edit *re, uint32_t c) {
  uint32_t lo = 0, hi = re->n_changed;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (re->changed[mid] < c) lo = mid + 1;
    else hi = mid;
  }
  return lo < re->n_changed && re->changed[lo] == c;
}

/* Cell x's mark as the replay has it so far. */
static unsigned mark_of(const cairn_dead_ends *de, const root_edit *re, uint32_t x) {
  return in_core(re, x) ? re->marks[re->core_at[x]] : de->doors[x];
}

/* Sets cell x's mark; false when the core is full. */
static bool set_mark(const cairn_dead_ends *de, root_edit *re, uint32_t x, unsigned m) {
  if (in_core(re, x)) {
    re->marks[re->core_at[x]] = (uint16_t)m;
    return true;
  }
  if (de->doors[x] == m) return true;
  if (re->n_core == ROOT_MAX_CORE) return false;
  re->core_at[x] = re->n_core;
  re->core[re->n_core] = x;
  re->marks[re->n_core++] = (uint16_t)m;
  return true;
}

/* The full pass's order of runs: shorter first, rows before columns, then
 * by first cell (run_key's bits: length, way, cell). */
static uint64_t run_key(uint32_t c, unsigned len, unsigned down) {
  return (uint64_t)(2 * len + down) << 32 | c;
}

/* The run of the door whose mark m cell x holds: its key, or 0 for no
 * door (a door beside pillars reads as one too: the caller gives up). */
static uint64_t door_key(const cairn_dead_ends *de, const root_edit *re, uint32_t x, unsigned m) {
  if (!m) return 0;
  const unsigned down = m & DOOR_DOWN ? 1u : 0u;
  const uint32_t c = m & DOOR_PART ? x - (m & CAIRN__DE_DOOR_LEN) * door_step(de->grid, m) : x;
  return run_key(c, mark_of(de, re, c) & CAIRN__DE_DOOR_LEN, down);
}

/* Adds run k to the runs to try unless it is done or there; false when
 * full. */
static bool add_run(root_edit *re, uint64_t k) {
  if (re->head && k <= re->runs[re->head - 1]) return true; /* done, or before */
  uint32_t lo = re->head, hi = re->n_runs;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (re->runs[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  if (lo < re->n_runs && re->runs[lo] == k) return true;
  if (re->n_runs == ROOT_MAX_RUNS) return false;
  memmove(re->runs + lo + 1, re->runs + lo, (re->n_runs - lo) * sizeof *re->runs);
  re->runs[lo] = k;
  re->n_runs++;
  return true;
}

/* The runs through cell x on the grid as it is (a row's and a column's),
 * and the door x's mark is in, to try. */
static bool add_runs_at(const cairn_dead_ends *de, root_edit *re, uint32_t x) {
  const cairn_grid *g = de->grid;
  for (unsigned down = 0; down < 2; down++) {
    const uint32_t step = down ? (uint32_t)g->stride : 1u;
    if (g->cost[x] != de->least) continue;
    uint32_t s = x;
    for (unsigned i = 0; i <= CAIRN__DE_MAX_DOOR && s >= step && g->cost[s - step] == de->least; i++)
      s -= step;
    const unsigned len = cairn__de_run_length(g, s, step, de->least);
    if (len && x < s + len * step && !add_run(re, run_key(s, len, down))) return false;
  }
  const unsigned m = mark_of(de, re, x);
  return !m || add_run(re, door_key(de, re, x, m));
}

/* Clears the marks of the door of run k (of len cells from c by step) and
 * queues the runs through its cells. */
static bool unmark(const cairn_dead_ends *de, root_edit *re, uint32_t c, uint32_t step,
                   unsigned len) {
  for (unsigned i = 0; i < len; i++)
    if (!set_mark(de, re, c + i * step, 0)) return false;
  for (unsigned i = 0; i < len; i++)
    if (!add_runs_at(de, re, c + i * step)) return false;
  return true;
}

/* Tries run k as the full pass would, given every run before it settled:
 * marked when it is a run on the grid as it is and none of its cells is a
 * one-cell gate or held by a door before it. Moves its marks (and those of
 * the doors after it it takes cells from) where that changes. */
static bool try_run(const cairn_dead_ends *de, root_edit *re, uint64_t k) {
  const cairn_grid *g = de->grid;
  const uint32_t c = (uint32_t)k, kind = (uint32_t)(k >> 32);
  const unsigned len = kind / 2, down = kind % 2;
  const uint32_t step = down ? (uint32_t)g->stride : 1u;
  const unsigned dir = down ? DOOR_DOWN : 0u;
  const bool held = mark_of(de, re, c) == (DOOR_FIRST | dir | len);
  bool take = cairn__de_run_length(g, c, step, de->least) == len;
  for (unsigned i = 0; i < len; i++) {
    const uint32_t x = c + i * step;
    if (mark_of(de, re, x) & DOOR_PILLAR) return false; /* its marks before pillars are lost */
    if (!take) continue;
    const unsigned m = mark_of(de, re, x);
    take = !cairn__de_bit(de->cell_gate_bits, x) && (!m || door_key(de, re, x, m) >= k);
  }
  if (take == held) return true;
  if (!take) return unmark(de, re, c, step, len);
  for (unsigned i = 0; i < len; i++) { /* the doors after it lose their cells */
    const uint32_t x = c + i * step;
    const unsigned m = mark_of(de, re, x);
    if (!m) continue;
    const uint64_t z = door_key(de, re, x, m);
    const uint32_t zc = (uint32_t)z, zkind = (uint32_t)(z >> 32);
    if (!unmark(de, re, zc, zkind % 2 ? (uint32_t)g->stride : 1u, zkind / 2)) return false;
  }
  for (unsigned i = 0; i < len; i++)
    if (!set_mark(de, re, c + i * step, i ? (DOOR_PART | dir | i) : (DOOR_FIRST | dir | len)))
      return false;
  return true;
}

/* Whether a door beside pillars holds a cell of the row or the column
 * through cell x within a door's reach: a run there the full pass marked
 * may since have lost its marks to it (dead_ends_pillars.c clears the
 * doors such a door crosses), so the table no longer shows whom it kept
 * out. */
static bool pillar_in_reach(const cairn_dead_ends *de, uint32_t x) {
  const int64_t s = de->grid->stride, reach = CAIRN__DE_MAX_DOOR + 1;
  for (int down = 0; down < 2; down++) {
    const int64_t step = down ? s : 1;
    for (int64_t i = -reach; i <= reach; i++) {
      const int64_t y = (int64_t)x + i * step;
      if (y >= 0 && y < (int64_t)de->padded && (de->doors[y] & DOOR_PILLAR)) return true;
    }
  }
  return false;
}

/* The door marks after the edit into the core; false when the replay
 * reaches a door beside pillars or outgrows its room. */
static bool replay(const cairn_dead_ends *de, root_edit *re) {
  const int32_t s = de->grid->stride;
  const int32_t around[5] = {0, 1, -1, s, -s};
  /* the runs through the changed cells and beside them, before the edit
   * too: none may have lost its marks to a door beside pillars */
  for (uint32_t i = 0; i < re->n_changed; i++)
    for (int j = 0; j < 5; j++) {
      const int64_t x = (int64_t)re->changed[i] + around[j];
      if (x >= 0 && x < (int64_t)de->padded && pillar_in_reach(de, (uint32_t)x)) return false;
    }
  for (uint32_t i = 0; i < re->n_changed; i++)
    for (int j = 0; j < 5; j++) {
      const int64_t x = (int64_t)re->changed[i] + around[j];
      if (x >= 0 && x < (int64_t)de->padded && !add_runs_at(de, re, (uint32_t)x)) return false;
    }
  /* a closed cell's door is among them: tried, it is no run now, so its
   * marks go, all of them */
  while (re->head < re->n_runs) {
    const uint64_t k = re->runs[re->head++];
    if (!try_run(de, re, k)) return false;
  }
  return true;
}

/* ---- the window --------------------------------------------------------- */

static bool in_win(const root_edit *re, uint32_t x) {
  const uint32_t i = re->win_at[x];
  return i < re->n_win && re->win[i] == x;
}

/* Adds the cells within r steps of x to the window (by_core: within one of it);
 * false when it is full. */
static bool add_square(const cairn_dead_ends *de, root_edit *re, uint32_t x, int32_t r, bool by_core) {
  const int32_t s = de->grid->stride;
  for (int32_t dy = -r; dy <= r; dy++)
    for (int32_t dx = -r; dx <= r; dx++) {
      const int64_t y = (int64_t)x + dx + (int64_t)dy * s;
      if (y < 0 || y >= (int64_t)de->padded) continue;
      const uint32_t c = (uint32_t)y;
      if (in_win(re, c)) {
        re->by_core[re->win_at[c]] |= by_core;
        continue;
      }
      if (re->n_win == ROOT_MAX_WINDOW) return false;
      re->win_at[c] = re->n_win;
      re->by_core[re->n_win] = by_core;
      re->was[re->n_win] = cairn__de_was_open(de, c);
      re->now[re->n_win] = de->grid->cost[c] != 0;
      re->win[re->n_win++] = c;
    }
  return true;
}

/* Whether cell c lies in a gate: a one-cell gate, or a door some area
 * hangs off (an area beside it has it for its gate). */
static bool in_gate(const cairn_dead_ends *de, uint32_t c) {
  if (cairn__de_bit(de->cell_gate_bits, c)) return true;
  if (!de->doors[c] || !cairn__de_was_open(de, c)) return false;
  const cairn_grid *g = de->grid;
  const uint32_t v = node_of(g, de->doors, c), step = door_step(g, de->doors[v]);
  for (unsigned i = 0; i < node_cells(de->doors, v); i++)
    for (int d = 0; d < 4; d++) {
      const int64_t x = (int64_t)(v + i * step) + cairn__dx[d] + (int64_t)cairn__dy[d] * g->stride;
      if (x >= 0 && x < (int64_t)de->padded && cairn__de_was_open(de, (uint32_t)x) &&
          de->area[x] && de->gate[de->area[x]] == v)
        return true;
    }
  return false;
}

/* The window round the core and the changed cells; false when it is too
 * large, or a cell within a step of the core lies in a gate, a dead end,
 * another root area or beside pillars. */
static bool make_window(const cairn_dead_ends *de, root_edit *re) {
  re->n_win = 0;
  for (uint32_t pass = 0; pass < 2; pass++) {
    const int32_t r = pass ? ROOT_MARGIN : 1;
    for (uint32_t i = 0; i < re->n_changed; i++)
      if (!add_square(de, re, re->changed[i], r, !pass)) return false;
    for (uint32_t i = 0; i < re->n_core; i++)
      if (!add_square(de, re, re->core[i], r, !pass)) return false;
  }
  for (uint32_t i = 0; i < re->n_win; i++) re->hot[i] = in_core(re, re->win[i]);
  for (uint32_t i = 0; i < re->n_changed; i++) re->hot[re->win_at[re->changed[i]]] = 1;
  for (uint32_t i = 0; i < re->n_win; i++) {
    const uint32_t c = re->win[i];
    if (!re->by_core[i] || !re->was[i]) continue;
    if (cairn__de_bit(de->dead_bits, c) || de->area[c] != re->root || in_gate(de, c) ||
        cairn__de_bit(de->pillar_bits, c))
      return false;
  }
  return true;
}

/* ---- classes of the window less a node ------------------------------------ */

/* The node cell c belongs to on the marks before (after: the replay's). */
static uint32_t node_at(const cairn_dead_ends *de, const root_edit *re, uint32_t c, bool after) {
  const unsigned m = re->cells_only ? 0u : after ? mark_of(de, re, c) : de->doors[c];
  if (!(m & DOOR_PART)) return c;
  return c - (m & CAIRN__DE_DOOR_LEN) * door_step(de->grid, m);
}

/* Whether cell y, outside the window, is open and in no node x (its mark
 * is the same before and after the edit). */
static bool outside_open(const cairn_dead_ends *de, const root_edit *re, uint32_t y, uint32_t x) {
  if (!de->grid->cost[y]) return false;
  return x == UINT32_MAX || (re->cells_only ? y : node_of(de->grid, de->doors, y)) != x;
}

/* Labels the open cells of W (before or after the edit) less node x
 * (UINT32_MAX: none) by class into re->cls (UINT32_MAX for none), and
 * for each class whether it meets the rim and holds a core cell. Returns
 * how many classes. */
static uint32_t classes(const cairn_dead_ends *de, root_edit *re, bool after, uint32_t x) {
  const cairn_grid *g = de->grid;
  const uint8_t *open = after ? re->now : re->was;
  for (uint32_t i = 0; i < re->n_win; i++) re->cls[i] = UINT32_MAX;
  uint32_t n = 0;
  for (uint32_t i = 0; i < re->n_win; i++) {
    if (!open[i] || re->cls[i] != UINT32_MAX) continue;
    if (x != UINT32_MAX && node_at(de, re, re->win[i], after) == x) continue;
    uint32_t head = 0, tail = 0;
    re->queue[tail++] = i;
    re->cls[i] = n;
    re->pocket_rim[n] = re->pocket_core[n] = false;
    while (head < tail) {
      const uint32_t j = re->queue[head++], c = re->win[j];
      re->pocket_core[n] |= re->hot[j] != 0;
      for (int d = 0; d < 4; d++) {
        const uint32_t y = (uint32_t)((int32_t)c + cairn__dx[d] + cairn__dy[d] * g->stride);
        if (!in_win(re, y)) {
          /* outside the window: unchanged, so open before and after, and
           * out of the way unless in x */
          if (outside_open(de, re, y, x)) re->pocket_rim[n] = true;
          continue;
        }
        const uint32_t k = re->win_at[y];
        if (!open[k] || re->cls[k] != UINT32_MAX) continue;
        if (x != UINT32_MAX && node_at(de, re, y, after) == x) continue;
        re->cls[k] = n;
        re->queue[tail++] = k;
      }
    }
    n++;
  }
  return n;
}

/* The rim's cells' classes (UINT32_MAX off the rim) into rim from the last
 * classes() of W less node x. */
static void rim_classes(const cairn_dead_ends *de, root_edit *re, uint32_t x, uint32_t *rim) {
  const cairn_grid *g = de->grid;
  for (uint32_t i = 0; i < re->n_win; i++) {
    rim[i] = UINT32_MAX;
    if (re->cls[i] == UINT32_MAX) continue;
    for (int d = 0; d < 4; d++) {
      const uint32_t y = (uint32_t)((int32_t)re->win[i] + cairn__dx[d] + cairn__dy[d] * g->stride);
      if (!in_win(re, y) && outside_open(de, re, y, x)) rim[i] = re->cls[i];
    }
  }
}

/* Whether two labellings group the rim alike (one class of a for one of
 * b, both ways). */
static bool same_grouping(root_edit *re, const uint32_t *a, const uint32_t *b) {
  for (uint32_t i = 0; i < re->n_win; i++) re->map[i] = UINT32_MAX;
  for (uint32_t i = 0; i < re->n_win; i++) {
    if ((a[i] == UINT32_MAX) != (b[i] == UINT32_MAX)) return false;
    if (a[i] == UINT32_MAX) continue;
    if (re->map[a[i]] == UINT32_MAX) re->map[a[i]] = b[i];
    else if (re->map[a[i]] != b[i]) return false;
  }
  /* and back: b's classes come from one class of a each */
  for (uint32_t i = 0; i < re->n_win; i++) re->queue[i] = UINT32_MAX;
  for (uint32_t i = 0; i < re->n_win; i++) {
    if (a[i] == UINT32_MAX) continue;
    if (re->queue[b[i]] == UINT32_MAX) re->queue[b[i]] = a[i];
    else if (re->queue[b[i]] != a[i]) return false;
  }
  return true;
}

/* The cells of the last classes() in a class that misses the rim: their
 * class into pocket (UINT32_MAX for the others); false when such a class
 * holds a core or changed cell. */
static bool pockets(root_edit *re, uint32_t n, uint32_t *pocket) {
  for (uint32_t i = 0; i < n; i++)
    if (!re->pocket_rim[i] && re->pocket_core[i]) return false;
  for (uint32_t i = 0; i < re->n_win; i++) {
    const uint32_t k = re->cls[i];
    pocket[i] = k != UINT32_MAX && !re->pocket_rim[k] ? k : UINT32_MAX;
  }
  return true;
}

/* Whether node x (UINT32_MAX: none), which the edit left alone, groups the
 * rim alike before and after, and leaves the same cells cut off from it
 * (its far side, if it cuts: a dead end's cells, or an island's), grouped
 * alike. */
static bool node_holds(const cairn_dead_ends *de, root_edit *re, uint32_t x) {
  if (!pockets(re, classes(de, re, false, x), re->pocket_old)) return false;
  rim_classes(de, re, x, re->rim_old);
  if (!pockets(re, classes(de, re, true, x), re->pocket_new)) return false;
  rim_classes(de, re, x, re->rim_new);
  return same_grouping(re, re->rim_old, re->rim_new) &&
         same_grouping(re, re->pocket_old, re->pocket_new);
}

/* Whether node x the edit made cuts nothing: W less it groups the rim as W
 * did before the edit (in rim_base), and each of its neighbours in W lies
 * in a class that meets the rim. */
static bool new_node_holds(const cairn_dead_ends *de, root_edit *re, uint32_t x,
                           const uint32_t *rim_base) {
  const cairn_grid *g = de->grid;
  classes(de, re, true, x);
  for (uint32_t i = 0; i < re->n_win; i++) {
    if (!re->now[i] || node_at(de, re, re->win[i], true) != x) continue;
    for (int d = 0; d < 4; d++) {
      const uint32_t y = (uint32_t)((int32_t)re->win[i] + cairn__dx[d] + cairn__dy[d] * g->stride);
      if (!in_win(re, y)) continue;
      const uint32_t k = re->cls[re->win_at[y]];
      if (k != UINT32_MAX && !re->pocket_rim[k]) return false;
    }
  }
  rim_classes(de, re, x, re->rim_new);
  return same_grouping(re, rim_base, re->rim_new);
}

/* How many cells node x (its first cell) has on the marks before (after:
 * the replay's; one on the cells alone), and the step between them. */
static unsigned node_len(const cairn_dead_ends *de, const root_edit *re, uint32_t x, bool after,
                         uint32_t *step) {
  const unsigned m = re->cells_only ? 0u : after ? mark_of(de, re, x) : de->doors[x];
  *step = door_step(de->grid, m);
  return m & DOOR_FIRST ? m & CAIRN__DE_DOOR_LEN : 1u;
}

/* The checks above over every node that meets the window: those the edit
 * left alone once, those it made on the marks after it; on the cells alone
 * (re->cells_only) or with the doors. */
static bool nothing_cut_in(const cairn_dead_ends *de, root_edit *re) {
  if (!node_holds(de, re, UINT32_MAX)) return false;
  memcpy(re->rim_base, re->rim_old, re->n_win * sizeof *re->rim_base);
  for (int after = 0; after < 2; after++) {
    const uint8_t *open = after ? re->now : re->was;
    memset(re->seen, 0, re->n_win);
    for (uint32_t i = 0; i < re->n_win; i++) {
      if (!open[i] || re->seen[i]) continue;
      const uint32_t x = node_at(de, re, re->win[i], after != 0);
      uint32_t step;
      const unsigned len = node_len(de, re, x, after != 0, &step);
      bool touched = false;
      for (unsigned j = 0; j < len; j++) {
        const uint32_t c = x + j * step;
        if (in_win(re, c)) re->seen[re->win_at[c]] = 1;
        touched |= (!re->cells_only && in_core(re, c)) || is_changed(re, c);
      }
      if (touched ? after && !new_node_holds(de, re, x, re->rim_base)
                  : !after && !node_holds(de, re, x))
        return false;
    }
  }
  return true;
}

/* ---- the update ----------------------------------------------------------- */

/* The root area every changed cell lies in (an opened one: beside), into
 * re->root; false when they lie elsewhere or an opened cell has no open
 * neighbour (a new island). */
static bool root_of(const cairn_dead_ends *de, root_edit *re) {
  const cairn_grid *g = de->grid;
  re->root = 0;
  for (uint32_t i = 0; i < re->n_changed; i++) {
    const uint32_t c = re->changed[i];
    uint32_t a = cairn__de_was_open(de, c) ? de->area[c] : 0;
    for (int d = 0; d < 4 && !a; d++) {
      const uint32_t y = (uint32_t)((int32_t)c + cairn__dx[d] + cairn__dy[d] * g->stride);
      if (cairn__de_was_open(de, y)) a = de->area[y];
    }
    if (!a || de->gate[a] != UINT32_MAX || (re->root && a != re->root)) return false;
    re->root = a;
  }
  return true;
}

/* Whether the island's first cell stays and the sizes its centre was
 * chosen by move less than their slack and margin (as for the updates
 * inside a dead end); *need and *nodes what the edit spends of them. */
static bool centre_holds(const cairn_dead_ends *de, const root_edit *re, uint32_t *need,
                         uint32_t *nodes) {
  const uint32_t first = de->first[re->root];
  if (!de->grid->cost[first]) return false;
  for (uint32_t i = 0; i < re->n_changed; i++)
    if (re->changed[i] < first) return false;
  *need = 2 * re->d + 2;
  *nodes = de->margin[re->root] == UINT32_MAX ? 0 : 2 * (re->n_core + re->n_changed) + 2;
  return *need < de->slack[re->root] &&
         (de->margin[re->root] == UINT32_MAX || *nodes < de->margin[re->root]);
}

/* Whether no door beside pillars, listed or on the grid as it is, has a
 * changed or core cell on it, its run or its stretch (from the wall it
 * starts at, which an edit may have taken away). */
static bool pillars_clear(const cairn_dead_ends *de, const root_edit *re) {
  for (size_t k = 0; k < de->pillars.n; k++) {
    const cairn__de_pillar *p = &de->pillars.p[k];
    const uint32_t step = p->down ? (uint32_t)de->grid->stride : 1u;
    for (unsigned i = 0; i < p->len; i++) {
      const uint32_t a = p->c + i * step, b = p->w + i * step;
      if (in_core(re, a) || in_core(re, b) || is_changed(re, a) || is_changed(re, b)) return false;
    }
  }
  for (uint32_t i = 0; i < re->n_changed; i++)
    if (!cairn__de_pillars_stay(de, re->changed[i], NULL, NULL)) return false;
  for (uint32_t i = 0; i < re->n_core; i++)
    if (!cairn__de_pillars_stay(de, re->core[i], NULL, NULL)) return false;
  return true;
}

/* Writes the edit into the table: the new marks, the changed cells'
 * areas, the root's cells, what the centre's slack and margin spent, the
 * stats and swamps. */
static void apply(cairn_dead_ends *de, const root_edit *re, uint32_t need, uint32_t nodes) {
  const cairn_grid *g = de->grid;
  for (uint32_t i = 0; i < re->n_core; i++) de->doors[re->core[i]] = re->marks[i];
  int64_t cells = de->cells[re->root];
  for (uint32_t i = 0; i < re->n_changed; i++) {
    const uint32_t c = re->changed[i];
    const bool now = g->cost[c] != 0, was = cairn__de_was_open(de, c);
    de->area[c] = now ? re->root : 0;
    if (!now) de->doors[c] = 0;
    cells += (int64_t)now - (int64_t)was;
  }
  de->cells[re->root] = (uint32_t)cells;
  de->slack[re->root] -= need;
  if (de->margin[re->root] != UINT32_MAX) de->margin[re->root] -= nodes;
  const cairn_rect none = {0, 0, 0, 0};
  cairn__de_set_stats_inside(de, re->changed, re->n_changed,
                             cairn__de_cover(g, none, re->changed, re->n_changed));
}

/* Both: the one-cell cuts the runs are marked round (the full pass's first
 * search, on cells alone) stay, and with the new marks no node cuts. */
static bool nothing_cut(const cairn_dead_ends *de, root_edit *re) {
  re->cells_only = true;
  if (!nothing_cut_in(de, re)) return false;
  re->cells_only = false;
  return nothing_cut_in(de, re);
}

bool cairn__de_update_root(cairn_dead_ends *de) {
  de_work *k = cairn__de_scratch_work(de);
  if (!k) return false;
  root_edit *re = cairn__alloc(&de->alloc, sizeof *re);
  if (!re) return false;
  re->core_at = k->low; /* free between searches */
  re->win_at = k->sz;
  re->n_core = re->n_runs = re->head = re->n_win = 0;
  uint32_t need = 0, nodes = 0;
  const bool ok = cairn__de_changed_cells(de, re->changed, ROOT_MAX_CHANGED, &re->n_changed,
                                          &re->d) &&
                  root_of(de, re) && replay(de, re) &&
                  centre_holds(de, re, &need, &nodes) && pillars_clear(de, re) &&
                  make_window(de, re) && nothing_cut(de, re);
  if (ok) apply(de, re, need, nodes);
  cairn__free(&de->alloc, re, sizeof *re);
  return ok;
}
