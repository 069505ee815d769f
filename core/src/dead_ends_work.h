/* Private to the dead-end table's files: what finding the areas
 * (dead_ends.c) and the updates that search one dead end again
 * (dead_ends_local.c) share: the depth-first search over cells and doors,
 * the door marks and the table's per-area arrays. */
#ifndef CAIRN_DEAD_ENDS_WORK_H
#define CAIRN_DEAD_ENDS_WORK_H

#include "dead_ends_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The search's arrays, a padded cell each. disc: discovery time (1 ..,
 * 0 unvisited); low: the lowest discovery time the cell's subtree reaches
 * by one back edge; parent: the tree parent (itself for a root); sz: the
 * subtree's cells; order: the cells by discovery time; next: the moves
 * not yet looked at (dead_ends.c, next_child, says how), with HEAD set on
 * a cell whose subtree only its parent joins to the rest (the first cell
 * of an area); aux: free for the labelling. `stack` is the table's own
 * area array, labelled only after. */
#define HEAD 0x8000u
typedef struct de_work {
  uint32_t *disc, *low, *parent, *sz, *order, *aux, *stack;
  uint16_t *next, *door;
  uint32_t time;
  /* the last search's root: how many nodes more its largest subtree has
   * than the next (UINT32_MAX with one subtree or none) */
  uint32_t margin;
} de_work;

/* The search's nodes are cells and doors (dead_ends_internal.h): a door
 * is one node, so that a door whose removal cuts an island in two is a
 * cut vertex like a one-cell gate. door[c], a padded cell each: 0 for a
 * cell in no door; DOOR_FIRST | its length on a door's first cell (top or
 * left), DOOR_PART | its place on the others; DOOR_DOWN on a vertical
 * door's. A node is named by its first cell. */
#define DOOR_FIRST 0x4000u
#define DOOR_PART 0x8000u
#define DOOR_DOWN CAIRN__DE_DOOR_DOWN
#define DOOR_PILLAR CAIRN__DE_DOOR_PILLAR
/* What an area keeps of its gate's door byte: the length and the way. */
#define DOOR_CODE (CAIRN__DE_DOOR_DOWN | CAIRN__DE_DOOR_LEN)
/* next[] holds a door's cell * 8 + move below HEAD */
_Static_assert(CAIRN__DE_MAX_DOOR * 8 < HEAD, "a door's moves fit next[] beside HEAD");
_Static_assert(CAIRN__DE_MAX_DOOR <= CAIRN__DE_DOOR_LEN, "a door's length fits its byte");

/* Move bits of the straight steps (cairn__dx order): east, west, south,
 * north. */
#define STEP_E 1u
#define STEP_W 2u
#define STEP_S 4u
#define STEP_N 8u

/* The step along a door: down a column or right along a row. */
CAIRN_INLINE uint32_t door_step(const cairn_grid *g, unsigned b) {
  return b & DOOR_DOWN ? (uint32_t)g->stride : 1u;
}

/* The node cell c belongs to. */
CAIRN_INLINE uint32_t node_of(const cairn_grid *g, const uint16_t *door, uint32_t c) {
  const unsigned b = door[c];
  return b & DOOR_PART ? c - (b & CAIRN__DE_DOOR_LEN) * door_step(g, b) : c;
}

/* The cells of node v. */
CAIRN_INLINE unsigned node_cells(const uint16_t *door, uint32_t v) {
  return door[v] & DOOR_FIRST ? door[v] & CAIRN__DE_DOOR_LEN : 1u;
}

/* The grid's cheapest terrain among its open cells (1 when none). */
CAIRN_INLINE uint8_t least_cost(const cairn_grid *g) {
  uint8_t least = 1;
  while (least < 255 && !g->by_cost[least]) least++;
  return least;
}

/* Marks the door of len cells from c by step (dir: DOOR_DOWN or 0). */
CAIRN_INLINE void mark_door(uint16_t *door, uint32_t c, uint32_t step, unsigned dir, unsigned len) {
  door[c] = (uint16_t)(DOOR_FIRST | dir | len);
  for (unsigned i = 1; i < len; i++) door[c + i * step] = (uint16_t)(DOOR_PART | dir | i);
}

/* The padded-index offset of each of the 8 moves. */
CAIRN_INLINE void move_offsets(const cairn_grid *g, int32_t off[8]) {
  for (int d = 0; d < 8; d++) off[d] = cairn__dx[d] + cairn__dy[d] * g->stride;
}

/* A table's per-area arrays (ids 1 .. count), held together while they
 * are made or replaced. */
typedef struct de_arrays {
  uint32_t *end, *gate, *cells, *depth, *first, *slack, *margin, *centre;
  uint8_t *door;
  uint32_t count;
} de_arrays;

/* The one door length a run from c by `step` can have: c right after a
 * wall, then 2 .. CAIRN__DE_MAX_DOOR cells at terrain `least`, then a
 * wall; 0 when there is none. */
unsigned cairn__de_run_length(const cairn_grid *g, uint32_t c, uint32_t step, uint8_t least);

/* The doors (dead_ends_internal.h) are the candidates, straight runs of 2
 * .. CAIRN__DE_MAX_DOOR cells at the grid's cheapest terrain between two
 * walls that hold no one-cell gate, which cross no candidate of a lower
 * kind: 2 * length + 1 down a column, 2 * length along a row (shorter
 * first, rows before columns when as long). Two candidates that share a
 * cell cross (runs of one way never overlap), and their kinds differ, so
 * no two doors share a cell; and whether a run is a door depends on the
 * runs through its own cells alone, so an edit moves the marks only of
 * the runs through the cells it changed or beside them, and of those
 * crossing them. DE_NO_RUN: a cell in no candidate that way. */
#define DE_NO_RUN 0xFFu

/* Cells as the runs see them: the grid now (cost set) or as the table's
 * snapshot had it (the open and cheapest-terrain bits); `least` the
 * cheapest terrain. And the one-cell cuts: cut[c] != 0 where in is NULL
 * or in[c] is set, the table's gates of one cell (bits) elsewhere. */
typedef struct de_view {
  const cairn_grid *g;
  const uint8_t *cost;
  const uint64_t *open, *at_least;
  uint8_t least;
  const uint32_t *cut;
  const uint8_t *in;
  const uint64_t *bits;
} de_view;

/* The grid now, with the table's gates of one cell for cuts (de's grid;
 * the snapshot's when `before`). */
de_view cairn__de_view_of(const cairn_dead_ends *de, bool before);

/* The kind of the candidate through cell x along its row (down 0) or its
 * column, DE_NO_RUN when there is none; its first cell into *first (when
 * not NULL). */
unsigned cairn__de_run_kind(const de_view *v, uint32_t x, unsigned down, uint32_t *first);

/* Whether the candidate of kind `kind` from c is a door: it crosses no
 * candidate of a lower kind. */
bool cairn__de_door_rule(const de_view *v, uint32_t c, unsigned kind);

/* Marks the doors among the candidates starting at the n cells of
 * `cells` (index order; NULL: every padded cell) whose cells all have
 * `in` set (NULL: any), on the grid now with cuts cut[] (in and elsewhere
 * the table's gates of one cell, bits, as in de_view). Each cell's two
 * kinds go into scratch (a padded cell's entry each; for `cells`, theirs
 * alone) first. */
void cairn__de_find_doors_among(const cairn_grid *g, uint16_t *door, const uint32_t *cut,
                                const uint32_t *cells, size_t n, const uint8_t *in,
                                const uint64_t *bits, uint32_t *scratch);

/* The full pass's order of the candidates beside pillars: by starting
 * wall, rows before columns, the line before before the line after. */
CAIRN_INLINE uint64_t cairn__de_pillar_key(const cairn__de_pillar *p) {
  return (uint64_t)p->c << 2 | (uint64_t)p->down << 1 | p->side;
}

/* Candidate p as the full pass tries it, on the marks `door` and the gates
 * as below: marked, taking its cells from the doors there, when nothing
 * keeps it out; p's fields set. */
bool cairn__de_pillar_try(const cairn_grid *g, uint16_t *door, const uint32_t *gates, cairn__de_pillar *p);

/* Doors beside pillars, after a search over the runs between walls: each
 * candidate whose cells hold no gate (gates[c] != 0 on the cells areas
 * hang off in that search, doors by their first cell, and on the one-cell
 * cuts) takes its cells from the doors there, in the order of the list.
 * Every candidate into de->pillars, its cells and those of the line
 * beside it into de->pillar_bits; *marked when one was marked (the areas
 * then need that search again). CAIRN_ERR_NOMEM when the list cannot
 * grow. */
cairn_status cairn__de_mark_pillared(cairn_dead_ends *de, uint16_t *door, const uint32_t *gates,
                                     bool *marked);
/* For an update inside one dead end A (in[] set on its cells): the
 * candidates whose runs lie wholly in A, on the grid as it is, with their
 * starts in box (A's cells' bounds) or beside it, into out in the full
 * pass's order, each tried on the marks `door` and the gates[] of the
 * search of A; false when out cannot grow. */
bool cairn__de_pillars_in(const cairn_dead_ends *de, uint16_t *door, const uint32_t *gates,
                          const uint8_t *in, cairn_rect box, cairn__de_pillars *out);
/* The candidates on moved (cairn__de_pillars_stay) that exist and leave
 * A (in NULL: every one that exists) put in fresh, which is in the full
 * pass's order and stays so (those wholly in A are in it already); false
 * when fresh cannot grow. */
bool cairn__de_pillars_join(const cairn_dead_ends *de, const uint8_t *in,
                            cairn__de_pillars *fresh, const cairn__de_pillars *moved);
/* After such an update: the listed candidates wholly in A, and those
 * from the walls, ways and sides in moved (cairn__de_pillars_stay),
 * replaced by fresh (those of cairn__de_pillars_in and of moved that
 * exist and leave A, in the full pass's order), their cells' bits set,
 * and the others' blocks in A dropped (in NULL: no dead end); false when
 * the list cannot grow (it then lacks them: the caller must search the
 * whole grid). */
bool cairn__de_pillars_replace(cairn_dead_ends *de, const uint8_t *in, const cairn__de_pillars *fresh,
                               const cairn__de_pillars *moved);
/* Whether list l holds a candidate from p's wall, way and side. */
bool cairn__de_pillar_in(const cairn__de_pillars *l, const cairn__de_pillar *p);
/* Whether every choice about a candidate with changed cell x on its
 * stretch or its run, listed (as the grid was) or on the grid as it is,
 * can be made again by the update of A (in NULL: no dead end, an edit
 * outside every dead end): no marked one whose run leaves A holds x, and
 * those from a wall within a door's reach before x, on x's lines, that
 * came out otherwise than listed go into moved (len 0 for one now gone),
 * once each, and may leave A when the one listed was not marked and, as
 * it is now, what the edit cannot move keeps it out (its blocks: a cut
 * outside A; with in NULL also a door beside pillars marked before it, or
 * a door that is a gate): the full pass marks neither, so no mark moves.
 * False too when moved cannot grow. */
bool cairn__de_pillars_stay(const cairn_dead_ends *de, uint32_t x, const uint8_t *in,
                            cairn__de_pillars *moved);

/* The depth-first search of r's island, iterative (an island can be a
 * million cells deep). A child v of u whose subtree reaches no cell
 * discovered before u (low[v] >= disc[u]) is joined to the rest through u
 * alone: an area starts at v (HEAD). Every child of the root passes that
 * test; the largest stays in the root's area, so that a root picked in a
 * small room still leaves the island's bulk outside every dead end. off:
 * move_offsets. */
void cairn__de_dfs(const cairn_grid *g, de_work *k, const int32_t off[8], uint32_t r);

/* The same over the cells with in[] set alone (the others must read as
 * discovered), from r, for a window whose outside is one piece: a node
 * with in[] == DE_RIM (a cell beside an open cell outside, or a door
 * holding one) is joined to that piece, so its low is 0 and no subtree
 * that holds one starts an area; the root's largest subtree is left as
 * any other. Over the runs between walls (doors) or the cells alone. */
#define DE_RIM 2u
void cairn__de_dfs_ring(const cairn_grid *g, de_work *k, const int32_t off[8], uint32_t r,
                        bool doors, const uint8_t *in);

/* aux[c] = 1 for each cell some area hangs off in the last search (a
 * parent of a HEAD cell); aux must be clear before. */
void cairn__de_mark_cuts_here(de_work *k);

/* The search's arrays for n padded cells (k zeroed first; the stack is
 * the caller's); false when one is missing (cairn__de_work_free frees the
 * rest). */
bool cairn__de_work_alloc(const cairn_allocator *a, de_work *k, size_t n);
void cairn__de_work_free(const cairn_allocator *a, de_work *k, size_t n);

/* Per-area arrays for ids 1 .. count; false (none held) when memory runs
 * out. */
bool cairn__de_arrays_alloc(const cairn_allocator *a, de_arrays *r, uint32_t count);
void cairn__de_arrays_free(const cairn_allocator *a, de_arrays *r);
/* Frees the table's area arrays and puts r's in their place. */
void cairn__de_put_areas(cairn_dead_ends *de, const de_arrays *r);

/* Puts the areas with ids in [lo, hi) in the table's order
 * (dead_ends_internal.h): each area's children (the areas hanging off a
 * gate inside it) sorted by their least cell (the least padded index of
 * their cells and their inner areas'), ids in
 * preorder over that, the range's top areas (the roots, or the one area
 * whose gate lies outside the range) keeping theirs. The range must be
 * whole subtrees in preorder, as a search labels them. The per-area arrays
 * follow, and so do the area ids of the n cells of `cells` (NULL: of
 * every padded cell), which must hold every cell of the range. false when
 * memory runs out (the table as it was). */
bool cairn__de_canonical(cairn_dead_ends *de, uint32_t lo, uint32_t hi, const uint32_t *cells,
                         size_t n);

/* The table's gate, door and dead-cell bits and its stats, from its
 * areas, and its swamps: found again, or, with the areas before a whole
 * search (old: each padded cell's area then, of olds areas; NULL: none;
 * k: the search's arrays, free by then), redone round what moved. */
void cairn__de_set_stats(cairn_dead_ends *de, de_work *k, const uint32_t *old, uint32_t olds);
/* The same after an update inside one dead end, which kept every open
 * cell's deadness but the n changed cells' (those it opened lie in the
 * dead end, those it closed in none): the cells' pass left out, and the
 * swamps redone near box (padded coordinates), which holds every cell
 * whose openness, area or gate the update changed. Before the update's
 * snapshot of the open cells is taken. */
void cairn__de_set_stats_inside(cairn_dead_ends *de, const uint32_t *changed, uint32_t n,
                                cairn_rect box);

/* Word w of the grid's open and cheapest-terrain (`least`) bits now. */
void cairn__de_shape_word(const cairn_dead_ends *de, uint8_t least, size_t w, uint64_t *open,
                          uint64_t *at_least);
/* The cells an edit changed since the table's snapshot (their open or
 * cheapest-terrain bit moved) into changed in index order, *n of them, *d
 * of those opened or closed; false when none, more than cap, or the
 * cheapest terrain itself moved (the local updates' common start). */
bool cairn__de_changed_cells(const cairn_dead_ends *de, uint32_t *changed, uint32_t cap,
                             uint32_t *n, uint32_t *d);
/* The bounds (padded coordinates) of the cells whose area is not the
 * same set of cells as before, whatever its id, joined to box: of the n
 * cells of `cells` (NULL: every padded cell), open before and now, with
 * their area before in old[] (ids[0] <= old < ids[1]; others are left
 * out) and now in the table's (ids[2] .. ids[3] - 1). Each old area is
 * matched to the new one holding most of its cells (when no old area
 * before it took that one), and a cell moved when its two areas are no
 * matched pair: two cells outside the bounds share an area now exactly
 * when they shared one before. k's sz, low, parent and order are
 * overwritten. */
cairn_rect cairn__de_areas_moved(const cairn_dead_ends *de, de_work *k, const uint32_t *old,
                                 const uint32_t *cells, size_t n, const uint32_t ids[4],
                                 cairn_rect box);
/* The bounds (padded coordinates) of box and the n cells of `cells`
 * together; a box of width 0 holds nothing. */
cairn_rect cairn__de_cover(const cairn_grid *g, cairn_rect box, const uint32_t *cells, size_t n);
/* Whether padded cell c was open at the table's snapshot. */
CAIRN_INLINE bool cairn__de_was_open(const cairn_dead_ends *de, uint32_t c) {
  return cairn__de_bit(de->open_bits, c);
}

/* ---- dead_ends_local.c ---- */

/* The scratch of the local updates (inside one dead end, dead_ends_local.c;
 * round an edit, dead_ends_ring.c): the search's arrays, the cells searched
 * and their marks, the doors beside pillars listed anew and those the edit
 * moved. Between updates disc holds UINT32_MAX on every cell and door, aux
 * and in hold 0, so that an update touches only the cells it searches
 * (and puts them back). */
typedef struct cairn__de_scratch {
  de_work k;
  uint32_t *list;
  uint8_t *in;
  cairn__de_pillars fresh, moved;
} de_scratch;
/* The table's scratch, made on first use; NULL when out of memory. */
de_scratch *cairn__de_scratch_of(cairn_dead_ends *de);
/* Puts the scratch's rule back on cell c, which an update searched. */
CAIRN_INLINE void cairn__de_scratch_put_back(de_scratch *sc, uint32_t c) {
  sc->k.disc[c] = UINT32_MAX;
  sc->k.door[c] = 0;
  sc->k.aux[c] = 0;
  sc->in[c] = 0;
}

/* Brings the table up to date by searching only a dead end the edit lies
 * in; false (the table as it was) when the edit is not of that kind or
 * memory runs out: the caller then searches the whole grid. */
bool cairn__de_update_inside(cairn_dead_ends *de);
/* The search arrays of the local updates' scratch (de->scratch, made on
 * first use), for a search of the whole grid; NULL when out of memory.
 * After that search, cairn__de_scratch_reset puts back what the local
 * updates expect of them. */
de_work *cairn__de_scratch_work(cairn_dead_ends *de);
/* The scratch's list (a padded cell's entry each), free outside a local
 * update; the scratch must exist. */
uint32_t *cairn__de_scratch_list(cairn_dead_ends *de);
void cairn__de_scratch_reset(cairn_dead_ends *de);
/* ---- dead_ends_root.c ---- */

/* Brings the table up to date for an edit in the root area of an island
 * that leaves every area as it was, touching only the cells near it;
 * false (the table as it was) when the edit is not shown to be of that
 * kind or memory runs out: the caller then searches the whole grid. */
bool cairn__de_update_root(cairn_dead_ends *de);
/* Its state, kept from one such update to the next (de->root_work): its
 * bytes, and its release. */
size_t cairn__de_root_bytes(const cairn_dead_ends *de);
void cairn__de_root_free(cairn_dead_ends *de);

/* ---- dead_ends_ring.c ---- */

/* Brings the table up to date by searching a window round the edit again,
 * the areas whose gates lie in it found anew; false (the table as it was,
 * or marked not current when memory ran out half way) when the edit is
 * not shown to be of that kind: the caller then searches the whole grid. */
bool cairn__de_update_ring(cairn_dead_ends *de);
/* Its state (de->ring_work): its bytes, and its release. */
size_t cairn__de_ring_bytes(const cairn_dead_ends *de);
void cairn__de_ring_free(cairn_dead_ends *de);

/* The local updates' scratch (de->scratch): its bytes for n padded cells,
 * and its release (NULL is fine). */
size_t cairn__de_scratch_bytes(size_t n);
void cairn__de_scratch_free(const cairn_allocator *a, struct cairn__de_scratch *sc, size_t n);

#endif
