/* Dead-end tables: updates that search one dead end again instead of the
 * whole grid (cairn_dead_ends_update; dead_ends.c finds the areas). */
#include "dead_ends_work.h"

#include <string.h>

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
 * in A, make a cell of a door G a one-cell gate, give a run across G a
 * kind below G's (for G a door beside pillars: make a run along G, or
 * one across G into A, a door where it was none, or leave A apart, or off
 * a side of G, without such a door's cells) or move the mark of a run
 * outside A that crosses such a run (door_stands), move the island's
 * first cell, or shift the sizes the choice of the island's centre
 * compared by as much as their slack or margin (kept per root: the cells
 * changed, twice over, must stay below the slack, and A's cells before
 * and after below the margin), or move a choice about a door beside
 * pillars that the search of A does not make again (pillars_move; those
 * wholly in A it makes after its search with the runs between walls, as
 * the full pass does; one the edit changes may leave A when the full pass
 * marks neither its old form nor its new, cairn__de_pillars_stay; G
 * itself stands by door_stands). */

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
  cairn_rect box;     /* their bounds (padded coordinates) */
  cairn__de_pillars *fresh; /* the doors beside pillars wholly in A, anew */
  /* the candidates the edit changed, as they are now (len 0: gone),
   * those leaving A shown to stay out (cairn__de_pillars_stay) */
  cairn__de_pillars *moved;
} de_local;

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
      if (c < 0 || c >= (int64_t)de->padded || !cairn__de_was_open(de, (uint32_t)c)) continue;
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
  const unsigned len = cairn__de_gate_len(de, a);
  const uint32_t step = cairn__de_gate_step(de, a);
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
    if (g->cost[c] && !cairn__de_was_open(de, c)) lc->in[c] = 1;
  }
  /* the cells open before (a word of them at a time: most words of a
   * cave map hold none) and those the edit opened (changed[] is in index
   * order), in index order */
  lc->n_list = 0;
  uint32_t next = 0;
  for (size_t w = 0; w < de->words; w++) {
    uint64_t cand = de->open_bits[w];
    for (; next < lc->n_changed && lc->changed[next] >> 6 == w; next++)
      cand |= 1ull << (lc->changed[next] & 63u);
    for (; cand; cand &= cand - 1) {
      const uint32_t c = (uint32_t)(w * 64 + (size_t)cairn__ctz64(cand));
      const uint32_t a = de->area[c];
      const bool old = g->cost[c] && cairn__de_was_open(de, c) && lc->area <= a && a < lc->old_end;
      if (old || lc->in[c]) {
        lc->in[c] = 1;
        lc->list[lc->n_list++] = c;
      }
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
  cairn__de_dfs(g, k, off, lc->gate);
  return k->time == nodes;
}

void cairn__de_scratch_free(const cairn_allocator *a, de_scratch *sc, size_t n) {
  if (!sc) return;
  cairn__de_work_free(a, &sc->k, n);
  cairn__free(a, sc->k.stack, sc->k.stack ? n * sizeof *sc->k.stack : 0);
  cairn__free(a, sc->list, sc->list ? n * sizeof *sc->list : 0);
  cairn__free(a, sc->in, sc->in ? n : 0);
  cairn__free(a, sc->fresh.p, sc->fresh.cap * sizeof *sc->fresh.p);
  cairn__free(a, sc->moved.p, sc->moved.cap * sizeof *sc->moved.p);
  cairn__free(a, sc, sizeof *sc);
}

size_t cairn__de_scratch_bytes(size_t n) {
  /* disc, low, parent, sz, order, aux, stack, list; next, door, in */
  return sizeof(de_scratch) + 8 * n * sizeof(uint32_t) + sizeof(uint32_t) +
         2 * n * sizeof(uint16_t) + n;
}

de_scratch *cairn__de_scratch_of(cairn_dead_ends *de) {
  if (de->scratch) return de->scratch;
  const size_t n = de->padded;
  de_scratch *sc = cairn__alloc_zero(&de->alloc, sizeof *sc);
  if (!sc) return NULL;
  bool ok = cairn__de_work_alloc(&de->alloc, &sc->k, n);
  sc->k.stack = cairn__alloc(&de->alloc, n * sizeof *sc->k.stack);
  sc->list = cairn__alloc(&de->alloc, n * sizeof *sc->list);
  sc->in = cairn__alloc_zero(&de->alloc, n);
  if (!ok || !sc->k.stack || !sc->list || !sc->in) {
    cairn__de_scratch_free(&de->alloc, sc, n);
    return NULL;
  }
  memset(sc->k.disc, 0xFF, n * sizeof *sc->k.disc);
  memset(sc->k.door, 0, n * sizeof *sc->k.door);
  memset(sc->k.aux, 0, (n + 1) * sizeof *sc->k.aux);
  /* the root updates' sparse sets read them before they write them */
  memset(sc->k.low, 0, n * sizeof *sc->k.low);
  memset(sc->k.sz, 0, n * sizeof *sc->k.sz);
  de->scratch = sc;
  return sc;
}

de_work *cairn__de_scratch_work(cairn_dead_ends *de) {
  de_scratch *sc = cairn__de_scratch_of(de);
  return sc ? &sc->k : NULL;
}

uint32_t *cairn__de_scratch_list(cairn_dead_ends *de) {
  return de->scratch->list;
}

void cairn__de_scratch_reset(cairn_dead_ends *de) {
  de_scratch *sc = de->scratch;
  const size_t n = de->padded;
  memset(sc->k.disc, 0xFF, n * sizeof *sc->k.disc);
  memset(sc->k.door, 0, n * sizeof *sc->k.door);
  memset(sc->k.aux, 0, (n + 1) * sizeof *sc->k.aux);
}

/* Puts the scratch's rule back on the cells an attempt on A touched. */
static void scratch_clean(de_scratch *sc, de_local *lc) {
  for (uint32_t i = 0; i < lc->n_list; i++) cairn__de_scratch_put_back(sc, lc->list[i]);
  for (uint32_t j = 0; j < lc->n_gate; j++) cairn__de_scratch_put_back(sc, lc->gate_cells[j]);
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

/* Whether a run of kind t from `first` (DE_NO_RUN: none) has a cell in
 * A. */
static bool run_enters(const cairn_grid *g, const de_local *lc, unsigned t, uint32_t first) {
  const uint32_t step = t % 2 ? (uint32_t)g->stride : 1u;
  for (unsigned i = 0; t != DE_NO_RUN && i < t / 2; i++)
    if (lc->in[first + i * step]) return true;
  return false;
}

/* Whether A less the cells of run (t, first) across G through its cell
 * d hangs together and meets G on each side of d that G has, by straight
 * steps (k->sz marks the cells, k->stack is the queue: both free until
 * the search with doors). */
static bool rest_holds(const cairn_dead_ends *de, de_work *k, const de_local *lc, uint32_t d,
                       unsigned t, uint32_t first) {
  const cairn_grid *g = de->grid;
  const uint32_t step = t % 2 ? (uint32_t)g->stride : 1u, at = (d - lc->gate) / lc->gate_step;
  uint32_t left = 0, head = 0, tail = 0;
  for (uint32_t i = 0; i < lc->n_list; i++) k->sz[lc->list[i]] = 0;
  for (unsigned i = 0; i < t / 2; i++)
    if (lc->in[first + i * step]) k->sz[first + i * step] = 1, left++;
  bool before = at == 0, after = at + 1 == lc->n_gate;
  for (uint32_t i = 0; i < lc->n_list && !tail; i++)
    if (!k->sz[lc->list[i]]) k->sz[lc->list[i]] = 2, k->stack[tail++] = lc->list[i];
  while (head < tail) {
    const uint32_t c = k->stack[head++];
    for (int m = 0; m < 4; m++) {
      if (!(g->moves[c] >> m & 1u)) continue;
      const uint32_t y = (uint32_t)((int32_t)c + cairn__dx[m] + cairn__dy[m] * g->stride);
      const uint32_t off = (y - lc->gate) / lc->gate_step;
      if (y >= lc->gate && (y - lc->gate) % lc->gate_step == 0 && off < lc->n_gate) {
        before |= off < at;
        after |= off > at;
      } else if (lc->in[y] && !k->sz[y]) {
        k->sz[y] = 2;
        k->stack[tail++] = y;
      }
    }
  }
  return tail + left == lc->n_list && before && after;
}

/* For G a door beside pillars: whether nothing comes to keep it out at
 * its cell d, whose runs across G now and before are (t[0], first[0]) and
 * (t[1], first[1]). The full pass keeps it out where a node holding d
 * cuts the search over the runs before it marks G, which it did not
 * before the edit:
 * - d itself, or a run across G wholly outside A: A meets the same cells
 *   of G as before (no changed cell lies beside G) and hangs together as
 *   before (one_child), so such a node still cuts nothing;
 * - a run along G (it holds G's cells and so cuts A off): it must be no
 *   door now;
 * - a run across G into A, a door by the rule now: it must have been the
 *   same door before (which cut nothing then, so whatever hangs off it
 *   outside A hung elsewhere too), and A less its cells must hang
 *   together and meet G on both sides of d (rest_holds).
 * G's stretch lies within a step of G, where no changed cell lies, and
 * its length stays (pillars_move). The doors G crosses lose their marks
 * to it either way. */
static bool pillar_gate_stays(const cairn_dead_ends *de, de_work *k, const de_local *lc,
                              const de_view *now, const de_view *was, uint32_t d,
                              const unsigned t[2], const uint32_t first[2]) {
  uint32_t along = 0;
  const unsigned r = cairn__de_run_kind(now, d, lc->gate_step != 1u, &along);
  if (r != DE_NO_RUN && cairn__de_door_rule(now, along, r)) return false;
  if (!run_enters(de->grid, lc, t[0], first[0]) || !cairn__de_door_rule(now, first[0], t[0]))
    return true;
  return t[1] == t[0] && first[1] == first[0] && cairn__de_door_rule(was, first[0], t[0]) &&
         rest_holds(de, k, lc, d, t[0], first[0]);
}

/* Whether door G still stands after the search without doors, and the
 * marks outside A with it (dead_ends_work.h's rule): none of G's cells a
 * one-cell gate, and each run T crossing G (through a cell of G the other
 * way; the only runs that reach into A from outside) of a higher kind than
 * G's; for a door beside pillars, nothing that keeps one out
 * (pillar_gate_stays). The edit may have changed such a T (its length, a
 * cut on it); a run S outside A that crosses T (along G's way, wholly
 * outside: it cannot reach A without crossing G's line) and stands
 * between T's kinds before and after must then be kept out, or let in, by
 * the rule alike on the grid before and after, or its mark would move.
 * Cuts: A's now (k->aux), elsewhere the table's gates of one cell, which
 * an edit inside A does not move. */
static bool door_stands(const cairn_dead_ends *de, de_work *k, const de_local *lc) {
  const cairn_grid *g = de->grid;
  const unsigned glen = lc->n_gate, gdown = lc->gate_step != 1u, down = !gdown;
  const uint32_t step = down ? (uint32_t)g->stride : 1u;
  /* a door beside pillars, unlike a run between walls, need not end at
   * walls: its cells hang together outside A too, which the search of A
   * does not see, so it may read them as cuts that are none. None is
   * (pillar_gate_stays) */
  const bool pillar = (de->doors[lc->gate] & DOOR_PILLAR) != 0;
  for (unsigned j = 0; j < glen && !pillar; j++)
    if (k->aux[lc->gate_cells[j]]) return false;
  de_view now = cairn__de_view_of(de, false);
  now.cut = k->aux;
  now.in = lc->in;
  const de_view was = cairn__de_view_of(de, true);
  for (unsigned j = 0; j < glen; j++) {
    const uint32_t d = lc->gate_cells[j];
    uint32_t first[2] = {0, 0};
    const unsigned t[2] = {cairn__de_run_kind(&now, d, down, &first[0]),
                           cairn__de_run_kind(&was, d, down, &first[1])};
    if (pillar ? !pillar_gate_stays(de, k, lc, &now, &was, d, t, first)
               : t[0] < 2 * glen + gdown)
      return false;
    if (t[0] == t[1]) continue; /* the same run, or none both times */
    for (int v = 0; v < 2; v++)
      for (unsigned i = 0; t[v] != DE_NO_RUN && i < t[v] / 2; i++) {
        const uint32_t y = first[v] + i * step;
        if (lc->in[y] || y == d) continue;
        uint32_t sc = 0;
        const unsigned s = cairn__de_run_kind(&now, y, gdown, &sc);
        if (s == DE_NO_RUN || (t[0] > s) == (t[1] > s)) continue;
        /* the rule on S before and after: another run across it may keep
         * it out both times */
        if (cairn__de_door_rule(&now, sc, s) != cairn__de_door_rule(&was, sc, s)) return false;
      }
  }
  return true;
}

/* How many of candidate p's run's cells lie in A (lc->in) and in G. */
static unsigned pillar_in_area(const cairn_grid *g, const cairn__de_pillar *p, const de_local *lc,
                               unsigned *in_gate) {
  const uint32_t step = p->down ? (uint32_t)g->stride : 1u;
  unsigned in = 0;
  *in_gate = 0;
  for (unsigned i = 0; i < p->len; i++) {
    const uint32_t x = p->w + i * step;
    in += lc->in[x] != 0;
    /* G: n_gate cells from lc->gate by gate_step */
    *in_gate += x >= lc->gate && (x - lc->gate) % lc->gate_step == 0 &&
                (x - lc->gate) / lc->gate_step < lc->n_gate;
  }
  return in;
}

/* The doors beside pillars wholly in A, listed again and tried as the
 * full pass tries them (in its order) after the search of A with doors:
 * the gates that search found (aux, with the one-cell cuts of the one
 * without) keep them out as the full pass's would. Into lc->fresh (the
 * table's list takes them once the update is done); *marked when one
 * was marked. False when the list cannot grow. */
static bool pillars_inside(const cairn_dead_ends *de, de_work *k, const de_local *lc, bool *marked) {
  cairn__de_mark_cuts_here(k);
  if (!cairn__de_pillars_in(de, k->door, k->aux, lc->in, lc->box, lc->fresh)) return false;
  *marked = false;
  for (size_t i = 0; i < lc->fresh->n; i++) *marked |= lc->fresh->p[i].marked != 0;
  return true;
}

/* A's nodes in the search with doors: its cells, less those in a door
 * other than its first. */
static uint32_t area_nodes(const de_work *k, const de_local *lc) {
  uint32_t parts = 0;
  for (uint32_t i = 0; i < lc->n_list; i++) parts += (k->door[lc->list[i]] & DOOR_PART) != 0;
  return lc->n_list - parts;
}

/* The searches of A; false when the edit is not of the local kind (or
 * memory runs out). */
static bool search_area(const cairn_dead_ends *de, de_work *k, de_local *lc) {
  const cairn_grid *g = de->grid;
  if (!search_from_gate(g, k, lc, lc->n_list + lc->n_gate, true)) return false;
  cairn__de_mark_cuts_here(k);
  /* A's alone; sz is free until the search */
  cairn__de_find_doors_among(g, k->door, k->aux, lc->list, lc->n_list, lc->in,
                             de->cell_gate_bits, k->sz);
  if (lc->n_gate > 1 && !door_stands(de, k, lc)) return false;
  if (lc->n_gate > 1) /* G one node, as the full pass has it */
    mark_door(k->door, lc->gate, lc->gate_step, lc->gate_step != 1u ? DOOR_DOWN : 0u,
              lc->n_gate);
  lc->n_nodes = area_nodes(k, lc);
  if (!search_from_gate(g, k, lc, lc->n_nodes + 1, false)) return false;
  bool marked;
  if (!pillars_inside(de, k, lc, &marked)) return false;
  if (marked) { /* the areas with those doors */
    lc->n_nodes = area_nodes(k, lc);
    if (!search_from_gate(g, k, lc, lc->n_nodes + 1, false)) return false;
  }
  return one_child(k, lc);
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
  r->centre[to] = de->centre[from];
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
      r->door[id] = u == lc->gate              ? de->door[a0]
                    : node_cells(k->door, u) > 1 ? (uint8_t)(k->door[u] & DOOR_CODE)
                                                 : 0u;
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
 * range moved, the changed cells that closed emptied, A's areas in the
 * table's order. False, the table untouched, when the edit moves A's
 * least cell (A's place among its siblings) or memory runs out; or, when
 * only that order could not be had, its areas right in another order (the
 * caller then searches the whole grid, which remakes them all). */
static bool splice(cairn_dead_ends *de, de_work *k, const de_local *lc) {
  /* A's place among the areas beside it is its least cell, its inner
   * areas' included (cairn__de_canonical): before the edit, the least of
   * the cells it held then, open now (its list: the first, index order)
   * or changed; after it, the first of the list */
  uint32_t least = UINT32_MAX;
  for (uint32_t i = 0; i < lc->n_list && least == UINT32_MAX; i++) {
    const uint32_t a = de->area[lc->list[i]];
    if (cairn__de_was_open(de, lc->list[i]) && a >= lc->area && a < lc->old_end)
      least = lc->list[i];
  }
  for (uint32_t i = 0; i < lc->n_changed; i++) {
    const uint32_t c = lc->changed[i], a = de->area[c];
    if (cairn__de_was_open(de, c) && a >= lc->area && a < lc->old_end && c < least) least = c;
  }
  if (!lc->n_list || lc->list[0] != least) return false; /* the whole grid orders them */
  uint32_t fresh = 0;
  for (uint32_t i = 1; i < k->time; i++) fresh += (k->next[k->order[i]] & HEAD) != 0;
  const uint32_t old = lc->old_end - lc->area;
  const int64_t shift = (int64_t)fresh - (int64_t)old;
  de_arrays r;
  if (!cairn__de_arrays_alloc(&de->alloc, &r, (uint32_t)((int64_t)de->count + shift))) return false;
  for (uint32_t a = 1; a < lc->area; a++) copy_area(de, &r, a, a, lc->old_end, shift);
  for (uint32_t a = lc->old_end; a <= de->count; a++)
    copy_area(de, &r, a, (uint32_t)((int64_t)a + shift), lc->old_end, shift);
  /* the ids after A's move by the areas A gained or lost: none, mostly */
  for (uint32_t c = 0; shift && c < (uint32_t)de->padded; c++)
    if (de->area[c] >= lc->old_end) de->area[c] = (uint32_t)((int64_t)de->area[c] + shift);
  for (uint32_t i = 0; i < lc->n_changed; i++)
    if (!de->grid->cost[lc->changed[i]]) de->area[lc->changed[i]] = 0;
  label_area(de, k, lc, &r);
  const uint32_t root = lc->root; /* before A: its id holds */
  r.slack[root] -= lc->need;
  if (r.slack[root] > lc->gap) r.slack[root] = lc->gap;
  r.margin[root] -= lc->need_nodes;
  cairn__de_put_areas(de, &r);
  /* A's areas in the table's order */
  return cairn__de_canonical(de, lc->area, lc->area + fresh, lc->list, lc->n_list);
}

/* The table's door marks over A as its search found them (the full
 * pass's there too: it marks no door across G), none on a cell the edit
 * closed. */
static void keep_doors(cairn_dead_ends *de, const de_work *k, const de_local *lc) {
  for (uint32_t i = 0; i < lc->n_list; i++) de->doors[lc->list[i]] = k->door[lc->list[i]];
  for (uint32_t i = 0; i < lc->n_changed; i++)
    if (!de->grid->cost[lc->changed[i]]) de->doors[lc->changed[i]] = 0;
}

/* Whether the full pass could choose otherwise than before about a door
 * beside pillars (dead_ends_pillars.c) that the search of A does not list
 * again (only those whose run lies wholly in A): one the edit touches
 * (its stretch or its run, before or after), or one whose run lies partly
 * in A or in G and was marked, or was kept out only by cells in A, whose
 * cut status the edit may move (cells outside A keep theirs, and G stays
 * a gate). Sets lc->box, A's cells' bounds, on the way. */
static bool pillars_move(const cairn_dead_ends *de, de_local *lc) {
  const cairn_grid *g = de->grid;
  const uint32_t stride = (uint32_t)g->stride;
  lc->moved->n = 0;
  for (uint32_t i = 0; i < lc->n_changed; i++)
    if (!cairn__de_pillars_stay(de, lc->changed[i], lc->in, lc->moved)) return true;
  for (size_t k = 0; k < de->pillars.n; k++) {
    const cairn__de_pillar *p = &de->pillars.p[k];
    const uint32_t step = p->down ? stride : 1u;
    unsigned in_gate;
    const unsigned in = pillar_in_area(g, p, lc, &in_gate);
    if ((!in && !in_gate) || in == p->len) continue;
    /* G itself (its run all in G, as long: G's cells): door_stands */
    if (p->marked && in_gate == p->len && p->len == lc->n_gate) continue;
    bool kept_out = false; /* by a cell outside A */
    for (unsigned i = 0; i < p->len && !kept_out; i++)
      kept_out = (p->blocks >> i & 1u) && !lc->in[p->w + i * step];
    if (p->marked || !kept_out) return true;
  }
  uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
  for (uint32_t i = 0; i < lc->n_list; i++) {
    const uint32_t x = lc->list[i] % stride, y = lc->list[i] / stride;
    x0 = x < x0 ? x : x0;
    x1 = x > x1 ? x : x1;
    y0 = y < y0 ? y : y0;
    y1 = y > y1 ? y : y1;
  }
  const cairn_rect box = {(int32_t)x0, (int32_t)y0, (int32_t)(x1 - x0 + 1), (int32_t)(y1 - y0 + 1)};
  lc->box = box;
  return false;
}

/* Before A's areas are put in: each of A's cells that was open keeps
 * its area then in disc (which the search no longer needs), UINT32_MAX
 * for the others. */
static void keep_old_areas(const cairn_dead_ends *de, de_work *k, const de_local *lc) {
  for (uint32_t i = 0; i < lc->n_list; i++) {
    const uint32_t c = lc->list[i], a = de->area[c];
    const bool was = cairn__de_was_open(de, c) && a >= lc->area && a < lc->old_end;
    k->disc[c] = was ? a : UINT32_MAX;
  }
}

/* After: the bounds of A's cells whose area is not the same set of
 * cells as before (cairn__de_areas_moved), the opened ones among them.
 * An area whose cells stayed together keeps what a swamp reads of it,
 * whatever its id; so do the areas outside A. */
static cairn_rect moved_box(const cairn_dead_ends *de, de_work *k, const de_local *lc) {
  const cairn_rect none = {0, 0, 0, 0};
  cairn_rect box = none;
  for (uint32_t i = 0; i < lc->n_list; i++)
    if (k->disc[lc->list[i]] == UINT32_MAX) box = cairn__de_cover(de->grid, box, &lc->list[i], 1);
  const uint32_t ids[4] = {lc->area, lc->old_end, lc->area, de->end[lc->area]};
  return cairn__de_areas_moved(de, k, k->disc, lc->list, lc->n_list, ids, box);
}

/* Most dead ends, from the innermost out, an update tries. */
#define LOCAL_TRIES 3

/* Brings the table up to date by searching only a dead end the edit lies
 * in (the innermost that serves, of the first few that hold it); false
 * (the table as it was) when the edit is not of that kind or memory runs
 * out: the caller then searches the whole grid. */
bool cairn__de_update_inside(cairn_dead_ends *de) {
  de_local lc;
  memset(&lc, 0, sizeof lc);
  if (!cairn__de_changed_cells(de, lc.changed, LOCAL_MAX_CHANGED, &lc.n_changed, &lc.d))
    return false;
  uint32_t a = innermost(de, &lc);
  if (!a || de->gate[a] == UINT32_MAX) return false;
  de_scratch *sc = cairn__de_scratch_of(de);
  if (!sc) return false;
  lc.list = sc->list;
  lc.in = sc->in;
  lc.fresh = &sc->fresh;
  lc.moved = &sc->moved;
  bool found = false;
  for (int tries = 0; !found && tries < LOCAL_TRIES; tries++) {
    if (take_area(de, &lc, a) && centre_holds(de, &lc)) {
      mark_cells(de, &lc);
      found = !pillars_move(de, &lc) && search_area(de, &sc->k, &lc);
      if (!found) scratch_clean(sc, &lc);
    }
    a = parent_area(de, a);
    if (!a || de->gate[a] == UINT32_MAX) break;
  }
  if (found) keep_old_areas(de, &sc->k, &lc);
  bool done = found && splice(de, &sc->k, &lc);
  if (found && !done) de->current = false; /* written in part: the whole grid */
  if (done) keep_doors(de, &sc->k, &lc);
  /* the list short of A's doors beside pillars: the caller searches all */
  if (done) done = cairn__de_pillars_join(de, lc.in, lc.fresh, lc.moved) &&
                   cairn__de_pillars_replace(de, lc.in, lc.fresh, lc.moved);
  /* the swamps are redone round the cells whose area moved and the
   * changed ones (and the gates that moved, cairn__de_set_stats_inside) */
  const cairn_rect box = done ? moved_box(de, &sc->k, &lc) : lc.box;
  if (found) scratch_clean(sc, &lc);
  if (done)
    cairn__de_set_stats_inside(de, lc.changed, lc.n_changed,
                               cairn__de_cover(de->grid, box, lc.changed, lc.n_changed));
  return done;
}
