/* Dead-end tables: updates for edits in the part of an island that lies in
 * no dead end (its root area) that leave every area as it was
 * (cairn_dead_ends_update; dead_ends.c finds the areas, dead_ends_local.c
 * updates one dead end).
 *
 * Such an edit (cells opened, closed or moved into or out of the cheapest
 * terrain, all in the root area, none beside a dead end) can
 * change two things the full pass computes: the door marks, and which
 * nodes (cells, doors) cut the island. A run's mark depends on the runs
 * through its own cells alone (dead_ends_work.h), so the update marks
 * again the runs through the changed cells or beside them and those
 * crossing them; the cells whose mark moved are the core. The window W
 * holds the cells within ROOT_MARGIN steps of the core and of the changed
 * cells, and every cell of each door (before or after) with a cell in it,
 * so no node reaches out of W. Nothing outside W changed. The open cells
 * outside next to W fall into groups, two in one group when a search
 * outside W joins them (outside_groups; groups it does not join count as
 * apart, which only makes the tests stricter). H is the graph of W's
 * nodes and a vertex per group, joined to the cells beside it. Then:
 * - W alone (its open cells, without the groups) joins its rim, the cells
 *   beside an open cell outside, alike before and after, and leaves the
 *   same cells off it, none a core or changed cell: a path through W
 *   between two rim cells has a twin, so no node outside W (which may
 *   part a group) cuts otherwise;
 * - for no node, and for every node the edit left alone, the classes of H
 *   less the node group the groups alike before and after, and the
 *   classes with no group (cut off by the node, or islands) hold the same
 *   cells alike and no core or changed cell: every path through W has a
 *   twin, so every node cuts what it cut before, the same cells but the
 *   core's, which lie on the root's side;
 * - every node the edit made (a door marked anew, a cell opened) leaves
 *   the groups grouped as H did before, and every neighbour of it in a
 *   class with a group: it cuts nothing.
 * A node that cuts H neither before nor after (Tarjan's search, linear in
 * W) passes at once: H less it falls into H's classes less the node,
 * which the test of no node compared. Only the others are tested one by
 * one. Both hold on the cells alone too, doors taken apart: the one-cell
 * cuts of that graph (the full pass's first search) are what the runs
 * are marked round, and a new one would change the marks themselves.
 * A gate in W is a node like any other: it still cuts off the same cells.
 * So the gates, the areas and their heads stay, and with them every id
 * (dead_ends_order.c). The island's first cell must stay, and the sizes
 * its centre was chosen by must move less than their slack and margin, as
 * for the updates inside a dead end.
 *
 * Doors beside pillars (dead_ends_pillars.c) take their cells after the
 * runs are marked, clearing the doors they cross, where the search over
 * the runs alone finds no gate: whether such a door stands depends on
 * the one-cell cuts on its run (tested above), on the doors the rule
 * marks across it and on whether those cut. A run such a door crosses
 * keeps its marks; one the rule makes a door before and after must still
 * cut nothing (cleared_holds, for those meeting W, which holds them
 * whole; elsewhere the test of W alone), and one it makes a door only
 * after must cut nothing (fresh_holds) (pillar_run_stays). A candidate
 * the doors kept out stays out while a place on its run that kept it
 * out holds no cell whose mark moved. A candidate the edit changes (its
 * length, or whether it is one) must not have been marked, and must now
 * be kept out by what the tests show stands: a one-cell cut, a door beside
 * pillars marked before it, a door that is a gate (pillars_clear; the
 * list takes it as it is now, relist_pillars). A marked candidate with a
 * changed cell on its run or stretch leaves the edit to the whole grid;
 * so does a window too large. */
#include "dead_ends_work.h"

#include <string.h>

/* Most cells the edit may change, the core may hold, the window may hold,
 * and the runs the replay may try. */
#define ROOT_MAX_CHANGED 64
#define ROOT_MAX_CORE 4096
#define ROOT_MAX_WINDOW 8192
#define ROOT_MAX_RUNS 4096
/* Most cells outside the window searched for what joins its sides, and
 * most groups of them. */
#define ROOT_MAX_OUTSIDE 32768
#define ROOT_MAX_GROUPS 8192
/* Most runs in the window a door beside pillars cleared. */
#define ROOT_MAX_CLEARED 256
/* The window: the cells within this many steps (8-way) of the core. */
#define ROOT_MARGIN 3

/* An update's state (about 1.7 MB): made by the first such update, kept
 * for the next (de->root_work). */
typedef struct cairn__de_root {
  uint32_t changed[ROOT_MAX_CHANGED];
  uint32_t n_changed, d; /* d: of those, the cells opened or closed */
  uint32_t root;         /* the root area they lie in */
  /* the core: cells whose mark the replay moved, with their new marks */
  uint32_t core[ROOT_MAX_CORE];
  uint16_t marks[ROOT_MAX_CORE];
  uint32_t n_core;
  /* the runs whose marks may move (replay), sorted, and whether the
   * rule marks each now */
  uint64_t runs[ROOT_MAX_RUNS];
  bool marked[ROOT_MAX_RUNS];
  uint32_t n_runs;
  /* the window: its cells, whether each is within a step of the core,
   * open before and now, a core or changed cell */
  uint32_t win[ROOT_MAX_WINDOW];
  uint8_t by_core[ROOT_MAX_WINDOW], was[ROOT_MAX_WINDOW], now[ROOT_MAX_WINDOW];
  uint8_t hot[ROOT_MAX_WINDOW];
  uint32_t n_win;
  /* the cells outside searched for the groups (a union-find), each window
   * cell's group beyond each straight step (UINT32_MAX: none), and each
   * group's window cells (grp_cells from grp_at[k] to grp_at[k + 1]) */
  uint32_t out[ROOT_MAX_OUTSIDE], uf[ROOT_MAX_OUTSIDE], map[ROOT_MAX_OUTSIDE];
  uint32_t pending[ROOT_MAX_OUTSIDE];
  uint32_t n_out;
  uint32_t side[ROOT_MAX_WINDOW][4];
  uint32_t grp_at[ROOT_MAX_GROUPS + 1], grp_fill[ROOT_MAX_GROUPS];
  uint32_t grp_cells[4 * ROOT_MAX_WINDOW];
  uint32_t n_groups;
  /* a check's classes: each window cell's, a queue, per class whether it
   * holds a group or a core cell; the groups' classes (W before and after
   * less a node, W before less none), cells in pockets, a map each way */
  uint32_t cls[ROOT_MAX_WINDOW], queue[ROOT_MAX_WINDOW], back[ROOT_MAX_WINDOW];
  bool pocket_group[ROOT_MAX_WINDOW], pocket_core[ROOT_MAX_WINDOW];
  uint32_t g_old[ROOT_MAX_GROUPS], g_new[ROOT_MAX_GROUPS], g_base[ROOT_MAX_GROUPS];
  uint32_t pocket_old[ROOT_MAX_WINDOW], pocket_new[ROOT_MAX_WINDOW];
  uint32_t rim_old[ROOT_MAX_WINDOW], rim_new[ROOT_MAX_WINDOW];
  uint8_t seen[ROOT_MAX_WINDOW];
  bool plain; /* classes() of W alone: the groups mark the rim, unjoined */
  uint8_t rm[ROOT_MAX_WINDOW]; /* cells a test takes out (cleared_holds) */
  /* per window cell, a bit a way (row 1, column 2): the run through it
   * that way before the edit already looked at (add_cleared) */
  uint8_t run_seen[ROOT_MAX_WINDOW];
  /* the runs in W a door beside pillars cleared (add_cleared) */
  uint64_t cleared[ROOT_MAX_CLEARED];
  uint32_t n_cleared;
  /* the candidates for doors beside pillars the edit changed, as they
   * are now (cairn__de_pillars_stay; len 0: gone), and those of them that
   * exist, in the full pass's order */
  cairn__de_pillars moved, relisted;
  /* the runs a door beside pillars crosses that the rule makes doors
   * after the edit, not before (pillar_run_stays) */
  uint64_t fresh[ROOT_MAX_CLEARED];
  uint32_t n_fresh;
  /* the checks on the cells alone, doors taken apart (the full pass's
   * first search, whose one-cell cuts no door may cover) */
  bool cells_only;
  /* the cut nodes (cut_nodes), before [0] and after [1]: per window cell
   * its node's representative, per vertex (nodes, then groups) whether it
   * cuts; the search's arrays */
  uint32_t rep[2][ROOT_MAX_WINDOW];
  uint8_t cuts[2][ROOT_MAX_WINDOW + ROOT_MAX_GROUPS];
  uint32_t disc[ROOT_MAX_WINDOW + ROOT_MAX_GROUPS], low[ROOT_MAX_WINDOW + ROOT_MAX_GROUPS];
  uint32_t up[ROOT_MAX_WINDOW + ROOT_MAX_GROUPS], it[ROOT_MAX_WINDOW + ROOT_MAX_GROUPS];
  uint32_t stack[ROOT_MAX_WINDOW + ROOT_MAX_GROUPS];
  /* sparse sets over padded cells (no clearing: an entry counts when the
   * list points back) */
  uint32_t *core_at, *win_at, *rep_at, *out_at;
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

/* A run on the list: its first cell, its kind above it, and OLD on a run
 * of the grid as it was that is no run now. */
#define RUN_OLD (1ull << 40)
static uint64_t run_entry(uint32_t first, unsigned kind) {
  return (uint64_t)kind << 32 | first;
}

/* Where run k is on the list (sorted), or would go. */
static uint32_t run_slot(const root_edit *re, uint64_t k) {
  uint32_t lo = 0, hi = re->n_runs;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (re->runs[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static bool has_run(const root_edit *re, uint64_t k) {
  const uint32_t at = run_slot(re, k);
  return at < re->n_runs && re->runs[at] == k;
}

/* Adds run k to the list unless it is there; false when full. */
static bool add_run(root_edit *re, uint64_t k) {
  const uint32_t at = run_slot(re, k);
  if (at < re->n_runs && re->runs[at] == k) return true;
  if (re->n_runs == ROOT_MAX_RUNS) return false;
  memmove(re->runs + at + 1, re->runs + at, (re->n_runs - at) * sizeof *re->runs);
  re->runs[at] = k;
  re->n_runs++;
  return true;
}

/* Adds the run through x along its row (down 0) or column on view v, if
 * any (OLD from the snapshot: those that are runs now too are listed as
 * such). */
static bool add_run_at(const de_view *v, root_edit *re, uint32_t x, unsigned down, bool old) {
  uint32_t first = 0;
  const unsigned kind = cairn__de_run_kind(v, x, down, &first);
  if (kind == DE_NO_RUN) return true;
  return add_run(re, run_entry(first, kind) | (old ? RUN_OLD : 0));
}

/* Whether the table marks run k (its first cell carries its length and
 * way). */
static bool was_marked(const cairn_dead_ends *de, uint64_t k) {
  const unsigned kind = (unsigned)(k >> 32) & 0xFFu;
  const unsigned dir = kind % 2 ? DOOR_DOWN : 0u;
  return de->doors[(uint32_t)k] == (DOOR_FIRST | dir | kind / 2);
}

/* Sets the marks of run k: its door's, or none. */
static bool mark_run(const cairn_dead_ends *de, root_edit *re, uint64_t k, bool door) {
  const unsigned kind = (unsigned)(k >> 32) & 0xFFu, len = kind / 2;
  const uint32_t c = (uint32_t)k, step = kind % 2 ? (uint32_t)de->grid->stride : 1u;
  const unsigned dir = kind % 2 ? DOOR_DOWN : 0u;
  for (unsigned i = 0; i < len; i++) {
    const unsigned m = !door ? 0u : i ? (DOOR_PART | dir | i) : (DOOR_FIRST | dir | len);
    if (!set_mark(de, re, c + i * step, m)) return false;
  }
  return true;
}

/* Whether a door beside pillars holds a cell of run k. */
static bool run_meets_pillar(const cairn_dead_ends *de, uint64_t k) {
  const unsigned kind = (unsigned)(k >> 32) & 0xFFu;
  const uint32_t c = (uint32_t)k, step = kind % 2 ? (uint32_t)de->grid->stride : 1u;
  for (unsigned i = 0; i < kind / 2; i++)
    if (de->doors[c + i * step] & DOOR_PILLAR) return true;
  return false;
}

/* Whether run k, which a door beside pillars crosses, keeps its marks
 * (that door took its cells, or it was no door) and leaves that door
 * standing, whose choice reads only the doors across it that cut: when
 * it is no run now (gone), no door by the rule now, or a door by the rule
 * both before and after (the window's tests, cleared_holds, show it still
 * cuts nothing where it meets the window; the test of the window alone,
 * elsewhere). A door by the rule now that was none before goes on
 * re->fresh: it must cut nothing (fresh_holds). */
static bool pillar_run_stays(root_edit *re, const de_view *now, const de_view *was, uint64_t k,
                             bool old) {
  const unsigned kind = (unsigned)(k >> 32) & 0xFFu;
  const uint32_t c = (uint32_t)k;
  uint32_t first = 0;
  if (old || !cairn__de_door_rule(now, c, kind)) return true;
  if (cairn__de_run_kind(was, c, kind % 2, &first) == kind && first == c &&
      cairn__de_door_rule(was, c, kind))
    return true;
  if (re->n_fresh == ROOT_MAX_CLEARED) return false;
  re->fresh[re->n_fresh++] = k;
  return true;
}

/* The door marks after the edit into the core (dead_ends_work.h's rule):
 * a run's mark depends on the runs through its cells alone, so only the
 * runs through the changed cells or beside them (before the edit and
 * after) and the runs crossing them now can move. Each of those that is
 * a run now is marked by the rule, the others lose their marks; the
 * unmarking first, so a cell two of them hold ends with the new door's
 * mark. A run that a door beside pillars crosses keeps its marks, or the
 * edit goes to the whole grid (pillar_run_stays). False too when the
 * lists outgrow their room. */
static bool replay(const cairn_dead_ends *de, root_edit *re) {
  const int32_t s = de->grid->stride;
  const int32_t around[5] = {0, 1, -1, s, -s};
  const de_view now = cairn__de_view_of(de, false), was = cairn__de_view_of(de, true);
  for (uint32_t i = 0; i < re->n_changed; i++)
    for (int j = 0; j < 5; j++) {
      const int64_t y = (int64_t)re->changed[i] + around[j];
      if (y < 0 || y >= (int64_t)de->padded) continue;
      const uint32_t x = (uint32_t)y;
      for (unsigned down = 0; down < 2; down++)
        if (!add_run_at(&now, re, x, down, false) || !add_run_at(&was, re, x, down, true))
          return false;
    }
  /* the runs crossing those, now */
  const uint32_t n1 = re->n_runs;
  uint64_t first_runs[4 * ROOT_MAX_CHANGED * 5]; /* the list so far */
  memcpy(first_runs, re->runs, n1 * sizeof *first_runs);
  for (uint32_t r = 0; r < n1; r++) {
    const unsigned kind = (unsigned)(first_runs[r] >> 32) & 0xFFu, down = kind % 2;
    const uint32_t c = (uint32_t)first_runs[r], step = down ? (uint32_t)s : 1u;
    for (unsigned i = 0; i < kind / 2; i++)
      if (!add_run_at(&now, re, c + i * step, !down, false)) return false;
  }
  /* a run listed old is one no more unless it is listed now too */
  for (uint32_t r = 0; r < re->n_runs; r++) {
    const uint64_t k = re->runs[r] & ~RUN_OLD;
    const bool old = (re->runs[r] & RUN_OLD) != 0;
    if (old && has_run(re, k)) continue;
    const unsigned kind = (unsigned)(k >> 32);
    re->marked[r] = false;
    if (run_meets_pillar(de, k)) { /* cleared by that door, or kept out */
      if (!pillar_run_stays(re, &now, &was, k, old)) return false;
      continue;
    }
    re->marked[r] = !old && cairn__de_door_rule(&now, (uint32_t)k, kind);
    if (was_marked(de, k) && !re->marked[r] && !mark_run(de, re, k, false)) return false;
  }
  for (uint32_t r = 0; r < re->n_runs; r++)
    if (!(re->runs[r] & RUN_OLD) && re->marked[r] && !mark_run(de, re, re->runs[r], true))
      return false;
  return true;
}

/* ---- the window --------------------------------------------------------- */

static bool in_win(const root_edit *re, uint32_t x) {
  const uint32_t i = re->win_at[x];
  return i < re->n_win && re->win[i] == x;
}

/* Adds cell c to the window (by_core: within a step of the core); false
 * when it is full. */
static bool add_cell(const cairn_dead_ends *de, root_edit *re, uint32_t c, bool by_core) {
  if (in_win(re, c)) {
    re->by_core[re->win_at[c]] |= by_core;
    return true;
  }
  if (re->n_win == ROOT_MAX_WINDOW) return false;
  re->win_at[c] = re->n_win;
  re->rm[re->n_win] = 0;
  re->run_seen[re->n_win] = 0;
  re->by_core[re->n_win] = by_core;
  re->was[re->n_win] = cairn__de_was_open(de, c);
  re->now[re->n_win] = de->grid->cost[c] != 0;
  re->win[re->n_win++] = c;
  return true;
}

/* Adds the cells within r steps of x to the window. */
static bool add_square(const cairn_dead_ends *de, root_edit *re, uint32_t x, int32_t r,
                       bool by_core) {
  const int32_t s = de->grid->stride;
  for (int32_t dy = -r; dy <= r; dy++)
    for (int32_t dx = -r; dx <= r; dx++) {
      const int64_t y = (int64_t)x + dx + (int64_t)dy * s;
      if (y < 0 || y >= (int64_t)de->padded) continue;
      if (!add_cell(de, re, (uint32_t)y, by_core)) return false;
    }
  return true;
}

/* Whether core cell x has a neighbour (of eight) neither in the core nor
 * changed: the squares round such cells (and the changed ones) cover
 * those round every core cell, since a walk from a core cell to a cell
 * near it leaves the core from such a cell, nearer still. */
static bool on_edge(const cairn_dead_ends *de, const root_edit *re, uint32_t x) {
  const int32_t s = de->grid->stride;
  for (int d = 0; d < 8; d++) {
    const uint32_t y = (uint32_t)((int32_t)x + cairn__dx[d] + cairn__dy[d] * s);
    if (!in_core(re, y) && !is_changed(re, y)) return true;
  }
  return false;
}

/* Adds the cells of run k to the window. */
static bool add_run_cells(const cairn_dead_ends *de, root_edit *re, uint64_t k) {
  const unsigned kind = (unsigned)(k >> 32) & 0xFFu;
  const uint32_t step = kind % 2 ? (uint32_t)de->grid->stride : 1u;
  for (unsigned j = 0; j < kind / 2; j++)
    if (!add_cell(de, re, (uint32_t)k + j * step, false)) return false;
  return true;
}

/* Adds every cell of the door window cell i is in (on the marks before
 * the edit, or after) to the window, unless its first cell is there to
 * add it. */
static bool add_door(const cairn_dead_ends *de, root_edit *re, uint32_t i, bool after) {
  const uint32_t c = re->win[i];
  const unsigned m = after ? mark_of(de, re, c) : de->doors[c];
  if (!m || !(after ? re->now[i] : re->was[i])) return true;
  const uint32_t step = door_step(de->grid, m);
  const uint32_t first = m & DOOR_PART ? c - (m & CAIRN__DE_DOOR_LEN) * step : c;
  if (first != c && in_win(re, first)) return true;
  const unsigned len = (after ? mark_of(de, re, first) : de->doors[first]) & CAIRN__DE_DOOR_LEN;
  for (unsigned j = 0; j < len; j++)
    if (!add_cell(de, re, first + j * step, false)) return false;
  return true;
}

/* The runs through cell c (before the edit) that the rule made doors and
 * a door beside pillars then cleared (it crosses them), onto the list of
 * those (once each), their cells into the window. */
static bool add_cleared(const cairn_dead_ends *de, root_edit *re, const de_view *was, uint32_t c) {
  for (unsigned down = 0; down < 2; down++) {
    if (re->run_seen[re->win_at[c]] >> down & 1u) continue; /* from another of its cells */
    uint32_t first = 0;
    const unsigned kind = cairn__de_run_kind(was, c, down, &first);
    if (kind == DE_NO_RUN) continue;
    const uint32_t step = down ? (uint32_t)de->grid->stride : 1u;
    for (unsigned j = 0; j < kind / 2; j++) {
      if (!in_win(re, first + j * step)) continue;
      uint8_t *seen = &re->run_seen[re->win_at[first + j * step]];
      *seen = (uint8_t)(*seen | 1u << down);
    }
    const uint64_t k = run_entry(first, kind);
    bool listed = false;
    for (uint32_t j = 0; j < re->n_cleared && !listed; j++) listed = re->cleared[j] == k;
    if (listed || !run_meets_pillar(de, k) || !cairn__de_door_rule(was, first, kind)) continue;
    if (re->n_cleared == ROOT_MAX_CLEARED) return false;
    re->cleared[re->n_cleared++] = k;
    if (!add_run_cells(de, re, k)) return false;
  }
  return true;
}

/* The window round the core and the changed cells, with every cell of a
 * door (before the edit or after) that has one in it, so that no node
 * reaches out of it; false when it is too large, or a cell within a step
 * of the core lies in a dead end or another root area. */
static bool make_window(const cairn_dead_ends *de, root_edit *re) {
  re->n_win = 0;
  for (uint32_t pass = 0; pass < 2; pass++) {
    const int32_t r = pass ? ROOT_MARGIN : 1;
    for (uint32_t i = 0; i < re->n_changed; i++)
      if (!add_square(de, re, re->changed[i], r, !pass)) return false;
    for (uint32_t i = 0; i < re->n_core; i++)
      if (on_edge(de, re, re->core[i]) && !add_square(de, re, re->core[i], r, !pass)) return false;
  }
  for (uint32_t r = 0; r < re->n_fresh; r++)
    if (!add_run_cells(de, re, re->fresh[r])) return false;
  /* every door with a cell in it, and every run through one of its cells
   * that a door beside pillars took cells from (n_win grows as they go
   * in) */
  const de_view was = cairn__de_view_of(de, true);
  for (uint32_t i = 0; i < re->n_win; i++)
    if ((re->was[i] && !add_cleared(de, re, &was, re->win[i])) || !add_door(de, re, i, false) ||
        !add_door(de, re, i, true))
      return false;
  for (uint32_t i = 0; i < re->n_win; i++) re->hot[i] = in_core(re, re->win[i]);
  for (uint32_t i = 0; i < re->n_changed; i++) re->hot[re->win_at[re->changed[i]]] = 1;
  for (uint32_t i = 0; i < re->n_win; i++) {
    const uint32_t c = re->win[i];
    if (!re->by_core[i] || !re->was[i]) continue;
    if (cairn__de_bit(de->dead_bits, c) || de->area[c] != re->root) return false;
  }
  return true;
}

/* ---- what lies outside the window ----------------------------------------- */

static uint32_t uf_find(root_edit *re, uint32_t i) {
  while (re->uf[i] != i) i = re->uf[i] = re->uf[re->uf[i]];
  return i;
}

static bool in_out(const root_edit *re, uint32_t y) {
  const uint32_t i = re->out_at[y];
  return i < re->n_out && re->out[i] == y;
}

/* Groups the open cells outside W next to it (unchanged by the edit: open
 * before and after) by what joins them outside W (outside_groups): a
 * search from all of them at once (flood_outside, a union-find over the
 * cells it reaches), which merges two groups where their searches meet,
 * until at most one search has cells left to look at, or ROOT_MAX_OUTSIDE
 * cells are searched. Groups it could not merge may still be joined
 * further out: reading them as apart only makes the checks below
 * stricter. False when the cells next to W alone overflow. */
static bool flood_outside(const cairn_dead_ends *de, root_edit *re) {
  const cairn_grid *g = de->grid;
  re->n_out = 0;
  /* searches that still have cells to look at (re->pending, per root):
   * one that has none has found all it joins, so the search stops when
   * one or none is left */
  uint32_t active = 0;
  for (uint32_t i = 0; i < re->n_win; i++)
    for (int d = 0; d < 4 && (re->was[i] || re->now[i]); d++) {
      const uint32_t y = (uint32_t)((int32_t)re->win[i] + cairn__dx[d] + cairn__dy[d] * g->stride);
      if (in_win(re, y) || !g->cost[y] || in_out(re, y)) continue;
      if (re->n_out == ROOT_MAX_OUTSIDE) return false;
      re->out_at[y] = re->n_out;
      re->uf[re->n_out] = re->n_out;
      re->pending[re->n_out] = 1;
      re->out[re->n_out++] = y;
      active++;
    }
  for (uint32_t h = 0; h < re->n_out && active > 1; h++) {
    const uint32_t c = re->out[h];
    for (int d = 0; d < 4; d++) {
      const uint32_t y = (uint32_t)((int32_t)c + cairn__dx[d] + cairn__dy[d] * g->stride);
      if (in_win(re, y) || !g->cost[y]) continue;
      const uint32_t a = uf_find(re, h);
      if (in_out(re, y)) {
        const uint32_t b = uf_find(re, re->out_at[y]);
        if (a == b) continue;
        const uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
        active -= re->pending[lo] && re->pending[hi];
        re->uf[hi] = lo;
        re->pending[lo] += re->pending[hi];
        continue;
      }
      if (re->n_out == ROOT_MAX_OUTSIDE) break;
      re->out_at[y] = re->n_out;
      re->uf[re->n_out] = a;
      re->pending[a]++;
      re->out[re->n_out++] = y;
    }
    const uint32_t a = uf_find(re, h);
    active -= --re->pending[a] == 0;
  }
  return true;
}

/* After flood_outside: dense group ids on its roots (map), each window
 * cell's group beyond each straight step (side) and each group's window
 * cells (grp_at, grp_cells); false when there are too many groups. */
static bool index_groups(const cairn_dead_ends *de, root_edit *re) {
  const cairn_grid *g = de->grid;
  re->n_groups = 0;
  for (uint32_t i = 0; i < re->n_out; i++) re->map[i] = UINT32_MAX;
  for (uint32_t i = 0; i < re->n_win; i++)
    for (int d = 0; d < 4; d++) {
      re->side[i][d] = UINT32_MAX;
      if (!re->was[i] && !re->now[i]) continue; /* a wall (the grid's border among them) */
      const uint32_t y = (uint32_t)((int32_t)re->win[i] + cairn__dx[d] + cairn__dy[d] * g->stride);
      if (!in_out(re, y)) continue;
      const uint32_t r = uf_find(re, re->out_at[y]);
      if (re->map[r] == UINT32_MAX) {
        if (re->n_groups == ROOT_MAX_GROUPS) return false;
        re->map[r] = re->n_groups++;
      }
      re->side[i][d] = re->map[r];
    }
  /* each group's window cells, by counting */
  for (uint32_t k = 0; k <= re->n_groups; k++) re->grp_at[k] = 0;
  for (uint32_t i = 0; i < re->n_win; i++)
    for (int d = 0; d < 4; d++)
      if (re->side[i][d] != UINT32_MAX) re->grp_at[re->side[i][d] + 1]++;
  for (uint32_t k = 0; k < re->n_groups; k++) re->grp_at[k + 1] += re->grp_at[k];
  for (uint32_t k = 0; k < re->n_groups; k++) re->grp_fill[k] = re->grp_at[k];
  for (uint32_t i = 0; i < re->n_win; i++)
    for (int d = 0; d < 4; d++)
      if (re->side[i][d] != UINT32_MAX) re->grp_cells[re->grp_fill[re->side[i][d]]++] = i;
  return true;
}

static bool outside_groups(const cairn_dead_ends *de, root_edit *re) {
  return flood_outside(de, re) && index_groups(de, re);
}

/* ---- classes of the window less a node ------------------------------------ */

/* The node cell c belongs to on the marks before (after: the replay's). */
static uint32_t node_at(const cairn_dead_ends *de, const root_edit *re, uint32_t c, bool after) {
  const unsigned m = re->cells_only ? 0u : after ? mark_of(de, re, c) : de->doors[c];
  if (!(m & DOOR_PART)) return c;
  return c - (m & CAIRN__DE_DOOR_LEN) * door_step(de->grid, m);
}

/* Window cell j into class n (open, unlabelled, in no node x). */
static void take(const cairn_dead_ends *de, root_edit *re, const uint8_t *open, bool after,
                 uint32_t x, uint32_t j, uint32_t n, uint32_t *tail) {
  if (!open[j] || re->cls[j] != UINT32_MAX || re->rm[j]) return;
  if (x != UINT32_MAX && node_at(de, re, re->win[j], after) == x) return;
  re->cls[j] = n;
  re->queue[(*tail)++] = j;
}

/* Labels the open cells of W (before or after the edit) less node x
 * (UINT32_MAX: none), with the groups outside (outside_groups: each joins
 * the window cells beside it), by class: the cells' into re->cls, the
 * groups' into gcls (UINT32_MAX for none), and for each class whether it
 * holds a group and a core or changed cell. Returns how many classes. */
static uint32_t classes(const cairn_dead_ends *de, root_edit *re, bool after, uint32_t x,
                        uint32_t *gcls) {
  const cairn_grid *g = de->grid;
  const uint8_t *open = after ? re->now : re->was;
  for (uint32_t i = 0; i < re->n_win; i++) re->cls[i] = UINT32_MAX;
  for (uint32_t k = 0; k < re->n_groups; k++) gcls[k] = UINT32_MAX;
  uint32_t n = 0;
  for (uint32_t i = 0; i < re->n_win; i++) {
    uint32_t head = 0, tail = 0;
    take(de, re, open, after, x, i, n, &tail);
    if (!tail) continue;
    re->pocket_group[n] = re->pocket_core[n] = false;
    while (head < tail) {
      const uint32_t j = re->queue[head++], c = re->win[j];
      re->pocket_core[n] |= re->hot[j] != 0;
      for (int d = 0; d < 4; d++) {
        const uint32_t grp = re->side[j][d];
        if (grp != UINT32_MAX && re->plain) {
          re->pocket_group[n] = true; /* the rim, not crossed */
          continue;
        }
        if (grp != UINT32_MAX) {
          if (gcls[grp] != UINT32_MAX) continue;
          gcls[grp] = n;
          re->pocket_group[n] = true;
          for (uint32_t q = re->grp_at[grp]; q < re->grp_at[grp + 1]; q++)
            take(de, re, open, after, x, re->grp_cells[q], n, &tail);
          continue;
        }
        const uint32_t y = (uint32_t)((int32_t)c + cairn__dx[d] + cairn__dy[d] * g->stride);
        if (in_win(re, y)) take(de, re, open, after, x, re->win_at[y], n, &tail);
      }
    }
    n++;
  }
  return n;
}

/* Whether two labellings of n things group them alike (one class of a for
 * one of b, both ways; unlabelled alike). */
static bool same_grouping(root_edit *re, const uint32_t *a, const uint32_t *b, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if ((a[i] == UINT32_MAX) != (b[i] == UINT32_MAX)) return false;
    if (a[i] != UINT32_MAX) re->map[a[i]] = re->back[b[i]] = UINT32_MAX;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (a[i] == UINT32_MAX) continue;
    if (re->map[a[i]] == UINT32_MAX) re->map[a[i]] = b[i];
    else if (re->map[a[i]] != b[i]) return false;
    if (re->back[b[i]] == UINT32_MAX) re->back[b[i]] = a[i];
    else if (re->back[b[i]] != a[i]) return false;
  }
  return true;
}

/* The cells of the last classes() in a class that holds no group into
 * pocket (their class; UINT32_MAX for the others); false when such a
 * class holds a core or changed cell. */
static bool pockets(root_edit *re, uint32_t n, uint32_t *pocket) {
  for (uint32_t i = 0; i < n; i++)
    if (!re->pocket_group[i] && re->pocket_core[i]) return false;
  for (uint32_t i = 0; i < re->n_win; i++) {
    const uint32_t k = re->cls[i];
    pocket[i] = k != UINT32_MAX && !re->pocket_group[k] ? k : UINT32_MAX;
  }
  return true;
}

/* The rim's cells' classes (UINT32_MAX off the rim: W's open cells
 * beside an open cell outside) from the last classes(), into rim. */
static void rim_of(root_edit *re, uint32_t *rim) {
  for (uint32_t i = 0; i < re->n_win; i++) {
    rim[i] = UINT32_MAX;
    for (int d = 0; d < 4 && re->cls[i] != UINT32_MAX; d++)
      if (re->side[i][d] != UINT32_MAX) rim[i] = re->cls[i];
  }
}

/* Whether W alone, without what joins it outside, groups its rim alike
 * before and after the edit, and leaves the same cells off the rim
 * (grouped alike, none a core or changed cell). The tests with the
 * groups cover the nodes in W only (a node outside may part a group): for
 * those outside, this shows that every path through W has a twin. */
static bool rim_holds(const cairn_dead_ends *de, root_edit *re) {
  re->plain = true;
  bool ok = pockets(re, classes(de, re, false, UINT32_MAX, re->g_old), re->pocket_old);
  rim_of(re, re->rim_old);
  ok = ok && pockets(re, classes(de, re, true, UINT32_MAX, re->g_new), re->pocket_new);
  rim_of(re, re->rim_new);
  re->plain = false;
  return ok && same_grouping(re, re->rim_old, re->rim_new, re->n_win) &&
         same_grouping(re, re->pocket_old, re->pocket_new, re->n_win);
}

/* Whether node x (UINT32_MAX: none), which the edit left alone, groups the
 * groups outside alike before and after, and leaves the same cells cut off
 * from them (its far side, if it cuts: a dead end's cells, or an
 * island's), grouped alike. */
static bool node_holds(const cairn_dead_ends *de, root_edit *re, uint32_t x) {
  if (!pockets(re, classes(de, re, false, x, re->g_old), re->pocket_old)) return false;
  if (!pockets(re, classes(de, re, true, x, re->g_new), re->pocket_new)) return false;
  return same_grouping(re, re->g_old, re->g_new, re->n_groups) &&
         same_grouping(re, re->pocket_old, re->pocket_new, re->n_win);
}

/* Whether node x the edit made (UINT32_MAX: the cells taken out, rm)
 * cuts nothing: W less it groups the groups outside as W did before the
 * edit (g_base), and each of its neighbours, in W or outside, lies in a
 * class that holds a group. */
static bool new_node_holds(const cairn_dead_ends *de, root_edit *re, uint32_t x) {
  const cairn_grid *g = de->grid;
  classes(de, re, true, x, re->g_new);
  for (uint32_t i = 0; i < re->n_win; i++) {
    const bool gone = x == UINT32_MAX ? re->rm[i] : node_at(de, re, re->win[i], true) == x;
    if (!re->now[i] || !gone) continue;
    for (int d = 0; d < 4; d++) {
      if (re->side[i][d] != UINT32_MAX) {
        if (re->g_new[re->side[i][d]] == UINT32_MAX) return false;
        continue;
      }
      const uint32_t y = (uint32_t)((int32_t)re->win[i] + cairn__dx[d] + cairn__dy[d] * g->stride);
      if (!in_win(re, y)) continue;
      const uint32_t k = re->cls[re->win_at[y]];
      if (k != UINT32_MAX && !re->pocket_group[k]) return false;
    }
  }
  return same_grouping(re, re->g_base, re->g_new, re->n_groups);
}

/* How many cells node x (its first cell) has on the marks before (after:
 * the replay's; one on the cells alone), and the step between them. */
static unsigned node_len(const cairn_dead_ends *de, const root_edit *re, uint32_t x, bool after,
                         uint32_t *step) {
  const unsigned m = re->cells_only ? 0u : after ? mark_of(de, re, x) : de->doors[x];
  *step = door_step(de->grid, m);
  return m & DOOR_FIRST ? m & CAIRN__DE_DOOR_LEN : 1u;
}

/* ---- the nodes that cut the window ---------------------------------------- */

/* Vertex v's next neighbour through its it-th move, in the graph of W's
 * nodes (v < n_win: the representative window cell of one) and the
 * groups outside (n_win + the group), joined where a cell steps straight
 * to another node's or beside a group: the neighbour, UINT32_MAX for
 * none that way, UINT32_MAX - 1 when v has no moves left. */
static uint32_t next_neighbour(const cairn_dead_ends *de, const root_edit *re, int after,
                               uint32_t v, uint32_t it) {
  const uint8_t *open = after ? re->now : re->was;
  if (v >= re->n_win) {
    const uint32_t grp = v - re->n_win, q = re->grp_at[grp] + it;
    if (q >= re->grp_at[grp + 1]) return UINT32_MAX - 1;
    const uint32_t j = re->grp_cells[q];
    return open[j] ? re->rep[after][j] : UINT32_MAX;
  }
  const uint32_t x = node_at(de, re, re->win[v], after != 0);
  uint32_t step;
  const unsigned len = node_len(de, re, x, after != 0, &step);
  if (it / 4 >= len) return UINT32_MAX - 1;
  const uint32_t c = x + (it / 4) * step, d = it % 4, i = re->win_at[c];
  if (re->side[i][d] != UINT32_MAX) return re->n_win + re->side[i][d];
  const uint32_t y = (uint32_t)((int32_t)c + cairn__dx[d] + cairn__dy[d] * de->grid->stride);
  if (!in_win(re, y) || !open[re->win_at[y]]) return UINT32_MAX;
  const uint32_t w = re->rep[after][re->win_at[y]];
  return w == v ? UINT32_MAX : w;
}

/* Tarjan's search from vertex r (next_neighbour's graph): the nodes whose
 * removal parts it, in cuts[]. Iterative (a window can be thousands of
 * nodes deep). Edges to the parent count as back edges: they only lower a
 * child's low to its parent's time, which a cut node's test allows. */
static void cut_nodes_from(const cairn_dead_ends *de, root_edit *re, int after, uint32_t r,
                           uint32_t *time) {
  uint32_t sp = 0, kids = 0;
  re->disc[r] = re->low[r] = ++*time;
  re->up[r] = UINT32_MAX;
  re->it[r] = 0;
  re->stack[sp++] = r;
  while (sp) {
    const uint32_t v = re->stack[sp - 1];
    uint32_t w = UINT32_MAX;
    while (w == UINT32_MAX) w = next_neighbour(de, re, after, v, re->it[v]++);
    if (w != UINT32_MAX - 1) {
      if (re->disc[w]) {
        if (re->disc[w] < re->low[v]) re->low[v] = re->disc[w];
        continue;
      }
      re->disc[w] = re->low[w] = ++*time;
      re->up[w] = v;
      re->it[w] = 0;
      re->stack[sp++] = w;
      kids += v == r;
      continue;
    }
    sp--;
    const uint32_t p = re->up[v];
    if (p == UINT32_MAX) continue;
    if (re->low[v] < re->low[p]) re->low[p] = re->low[v];
    if (p != r && re->low[v] >= re->disc[p]) re->cuts[after][p] = 1;
  }
  if (kids >= 2) re->cuts[after][r] = 1;
}

/* For W before the edit or after: each open cell's node's representative
 * (its first cell in W) and which nodes cut the graph of W's nodes and
 * the groups outside (cuts[], on representatives and groups). */
static void cut_nodes(const cairn_dead_ends *de, root_edit *re, int after) {
  const uint8_t *open = after ? re->now : re->was;
  const uint32_t n = re->n_win + re->n_groups;
  for (uint32_t i = 0; i < n; i++) re->cuts[after][i] = 0, re->disc[i] = 0;
  for (uint32_t i = 0; i < re->n_win; i++) {
    if (!open[i]) continue;
    const uint32_t x = node_at(de, re, re->win[i], after != 0), j = re->rep_at[x];
    const bool known = j < i && open[j] && node_at(de, re, re->win[j], after != 0) == x;
    re->rep[after][i] = known ? j : i;
    if (!known) re->rep_at[x] = i;
  }
  uint32_t time = 0;
  for (uint32_t i = 0; i < n; i++)
    if ((i >= re->n_win || (open[i] && re->rep[after][i] == i)) && !re->disc[i])
      cut_nodes_from(de, re, after, i, &time);
}

/* The checks above over every node in the window (the window holds every
 * cell of each): those the edit left alone once, those it made on the
 * marks after it; on the cells alone (re->cells_only) or with the doors.
 * A node that parts the graph of W's nodes and the groups outside on
 * neither side of the edit passes at once: W less it falls into W's
 * classes less its cells, which the check of no node showed to group
 * alike before and after. Only the others are searched round one by one. */
static bool nothing_cut_in(const cairn_dead_ends *de, root_edit *re) {
  if (!node_holds(de, re, UINT32_MAX)) return false;
  memcpy(re->g_base, re->g_old, re->n_groups * sizeof *re->g_base);
  cut_nodes(de, re, 0);
  cut_nodes(de, re, 1);
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
        re->seen[re->win_at[c]] = 1;
        touched |= (!re->cells_only && in_core(re, c)) || is_changed(re, c);
      }
      if (touched != (after != 0)) continue; /* left alone: checked on the first pass */
      bool cuts = re->cuts[1][re->rep[1][i]];
      if (!touched) cuts |= re->cuts[0][re->rep[0][i]];
      if (!cuts) continue;
      if (touched ? !new_node_holds(de, re, x) : !node_holds(de, re, x)) return false;
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

/* The bits of p's run's cells whose marks the replay moved. */
static uint64_t moved_marks(const cairn_dead_ends *de, const root_edit *re,
                            const cairn__de_pillar *p) {
  const uint32_t step = p->down ? (uint32_t)de->grid->stride : 1u;
  uint64_t moved = 0;
  for (unsigned i = 0; i < p->len; i++)
    if (in_core(re, p->w + i * step)) moved |= 1ull << i;
  return moved;
}

/* The bits of the places on p's run that keep it out (p->blocks) whose
 * node (the cell, or every cell of its door on the marks before) kept its
 * marks. */
static uint64_t still_blocks(const cairn_dead_ends *de, const root_edit *re,
                             const cairn__de_pillar *p) {
  const cairn_grid *g = de->grid;
  const uint32_t step = p->down ? (uint32_t)g->stride : 1u;
  uint64_t bits = 0;
  for (unsigned i = 0; i < p->len; i++) {
    if (!(p->blocks >> i & 1u)) continue;
    const uint32_t y = p->w + i * step, v = node_of(g, de->doors, y);
    const uint32_t vstep = door_step(g, de->doors[v]);
    bool kept = true;
    for (unsigned j = 0; j < node_cells(de->doors, v) && kept; j++)
      kept = !in_core(re, v + j * vstep);
    if (kept) bits |= 1ull << i;
  }
  return bits;
}

/* Whether every door beside pillars stands or stays out as before. The
 * candidates from a wall within a door's reach before a changed cell, on
 * its lines, that came out otherwise than listed go on re->moved: none
 * may have been marked, and each that exists now must be kept out by
 * what the edit cannot move (cairn__de_pillars_stay: a one-cell cut, a
 * door beside pillars marked before it, a door that is a gate; the
 * window's tests show those stand), one of them a node whose marks all
 * stay. No
 * marked candidate has a changed cell on its stretch or its run. For the
 * others listed, where cells of a run that kept a candidate out moved
 * their marks, a place on it that kept it out holds none of them (its
 * cut cells and the doors that cut there stand, by the window's tests),
 * and a marked one's cells keep their marks. */
static bool pillars_clear(const cairn_dead_ends *de, root_edit *re) {
  re->moved.n = 0;
  for (uint32_t i = 0; i < re->n_changed; i++)
    if (!cairn__de_pillars_stay(de, re->changed[i], NULL, &re->moved)) return false;
  for (size_t k = 0; k < re->moved.n; k++) {
    const cairn__de_pillar *p = &re->moved.p[k];
    if (p->len && !still_blocks(de, re, p)) return false;
  }
  for (size_t k = 0; k < de->pillars.n; k++) {
    const cairn__de_pillar *p = &de->pillars.p[k];
    if (cairn__de_pillar_in(&re->moved, p)) continue; /* as it is now */
    const uint64_t moved = moved_marks(de, re, p);
    if (moved && (p->marked || !(p->blocks & ~moved))) return false;
  }
  return true;
}

/* The candidates on re->moved put in the table's list for those listed
 * from their walls, ways and sides; false when the list cannot grow (it
 * then lacks them: the caller searches the whole grid, which lists them
 * all again). */
static bool relist_pillars(cairn_dead_ends *de, root_edit *re) {
  if (!re->moved.n) return true;
  re->relisted.n = 0;
  return cairn__de_pillars_join(de, NULL, &re->relisted, &re->moved) &&
         cairn__de_pillars_replace(de, NULL, &re->relisted, &re->moved);
}

/* Writes the edit into the table: the new marks, the changed cells'
 * areas, the root's cells, what the centre's slack and margin spent, the
 * stats and swamps. */
static void apply(cairn_dead_ends *de, const root_edit *re, uint32_t need, uint32_t nodes) {
  const cairn_grid *g = de->grid;
  for (uint32_t i = 0; i < re->n_core; i++) de->doors[re->core[i]] = re->marks[i];
  /* the places that kept a candidate out where marks moved may not now */
  for (size_t k = 0; k < de->pillars.n; k++) {
    cairn__de_pillar *p = &de->pillars.p[k];
    const uint32_t step = p->down ? (uint32_t)g->stride : 1u;
    for (unsigned i = 0; i < p->len && !p->marked; i++)
      if (in_core(re, p->w + i * step)) p->blocks &= ~(1ull << i);
  }
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

/* Takes the cells of run k (all in W) out of the tests, or puts them
 * back. */
static void take_out_run(const cairn_dead_ends *de, root_edit *re, uint64_t k, uint8_t out) {
  const unsigned kind = (unsigned)(k >> 32) & 0xFFu;
  const uint32_t step = kind % 2 ? (uint32_t)de->grid->stride : 1u;
  for (unsigned j = 0; j < kind / 2; j++) re->rm[re->win_at[(uint32_t)k + j * step]] = out;
}

/* Whether each run a door beside pillars cleared in W (add_cleared) cuts
 * nothing after the edit as before: such a door took its cells because
 * the search over the runs alone found no gate there, and the test of
 * its cells as one node, on the cells alone, shows that search would
 * find none again. */
static bool cleared_holds(const cairn_dead_ends *de, root_edit *re) {
  for (uint32_t r = 0; r < re->n_cleared; r++) {
    take_out_run(de, re, re->cleared[r], 1);
    const bool ok = node_holds(de, re, UINT32_MAX);
    take_out_run(de, re, re->cleared[r], 0);
    if (!ok) return false;
  }
  return true;
}

/* Whether each run on re->fresh (pillar_run_stays), taken out whole on
 * the cells alone, cuts nothing after the edit (new_node_holds). */
static bool fresh_holds(const cairn_dead_ends *de, root_edit *re) {
  for (uint32_t r = 0; r < re->n_fresh; r++) {
    take_out_run(de, re, re->fresh[r], 1);
    const bool ok = new_node_holds(de, re, UINT32_MAX);
    take_out_run(de, re, re->fresh[r], 0);
    if (!ok) return false;
  }
  return true;
}

/* W alone joins its rim as before (rim_holds, for the nodes outside W),
 * and for the nodes in W: the one-cell cuts the runs are marked round
 * (the full pass's first search, on cells alone) stay, and with the new
 * marks no node cuts. */
static bool nothing_cut(const cairn_dead_ends *de, root_edit *re) {
  if (!rim_holds(de, re)) return false;
  re->cells_only = true;
  if (!nothing_cut_in(de, re) || !cleared_holds(de, re) || !fresh_holds(de, re)) return false;
  re->cells_only = false;
  return nothing_cut_in(de, re);
}

bool cairn__de_update_root(cairn_dead_ends *de) {
  de_work *k = cairn__de_scratch_work(de);
  if (!k) return false;
  if (!de->root_work) de->root_work = cairn__alloc_zero(&de->alloc, sizeof *de->root_work);
  root_edit *re = de->root_work;
  if (!re) return false;
  re->core_at = k->low; /* free between searches */
  re->win_at = k->sz;
  re->rep_at = k->parent;
  re->out_at = k->order;
  re->cells_only = re->plain = false;
  re->n_core = re->n_runs = re->n_win = re->n_cleared = re->n_fresh = 0;
  uint32_t need = 0, nodes = 0;
  const bool ok = cairn__de_changed_cells(de, re->changed, ROOT_MAX_CHANGED, &re->n_changed,
                                          &re->d) &&
                  root_of(de, re) && replay(de, re) &&
                  centre_holds(de, re, &need, &nodes) && pillars_clear(de, re) &&
                  make_window(de, re) && outside_groups(de, re) && nothing_cut(de, re) &&
                  relist_pillars(de, re);
  if (ok) apply(de, re, need, nodes);
  return ok;
}

size_t cairn__de_root_bytes(const cairn_dead_ends *de) {
  const root_edit *re = de->root_work;
  if (!re) return 0;
  return sizeof *re + (re->moved.cap + re->relisted.cap) * sizeof *re->moved.p;
}

void cairn__de_root_free(cairn_dead_ends *de) {
  root_edit *re = de->root_work;
  if (re) {
    cairn__free(&de->alloc, re->moved.p, re->moved.cap * sizeof *re->moved.p);
    cairn__free(&de->alloc, re->relisted.p, re->relisted.cap * sizeof *re->relisted.p);
  }
  cairn__free(&de->alloc, de->root_work, de->root_work ? sizeof *de->root_work : 0);
  de->root_work = NULL;
}
