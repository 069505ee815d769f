/* Private to the core module (and its tests): the dead-end table's layout,
 * read by the searches that skip its areas (search_grid.c, search_jps.c). */
#ifndef CAIRN_DEAD_ENDS_INTERNAL_H
#define CAIRN_DEAD_ENDS_INTERNAL_H

#include "core_internal.h"

#include "cairn/dead_ends.h"

/* Areas are numbered in preorder over their nesting, islands in the order
 * of the search, the areas hanging off one area in the order of their
 * least cells (the least index among their cells and their inner areas';
 * cairn__de_canonical), so an area and everything nested in it
 * hold the ids [id, end[id]): area a contains area b (or is it) when
 * a <= b < end[a]. The order is the areas' own, not that of the search's
 * route through the rest of the island, so an update that leaves the areas
 * as they were leaves every id. Each island's outermost area (the part of
 * the island in no dead end) is a root: gate[id] == UINT32_MAX.
 *
 * A gate is one cell or a door: a straight run of 2 to
 * CAIRN__DE_MAX_DOOR cells at the grid's cheapest terrain between two
 * walls (dead_ends_work.h: one that crosses no shorter run), or one
 * beside pillars (dead_ends_pillars.c). Skipping an area behind a door
 * is exact only for plain searches (see cairn__de_begin): a detour into
 * the area between two door cells costs more than walking along the
 * door, unless a layer, a claim, an avoided cell, a turn penalty or a
 * unit's size makes that walk dearer or illegal (bounds cannot: a
 * rectangle holding both door cells holds the walk between them). */
#define CAIRN__DE_MAX_DOOR 63
/* An area's door byte: its length (CAIRN__DE_DOOR_LEN bits), and
 * CAIRN__DE_DOOR_DOWN when it runs down a column. */
#define CAIRN__DE_DOOR_LEN 0x3Fu
#define CAIRN__DE_DOOR_DOWN 0x40u
/* On the door marks (cairn_dead_ends.doors) of a door beside pillars
 * (dead_ends_pillars.c). */
#define CAIRN__DE_DOOR_PILLAR 0x100u
/* Swamps (dead_ends_swamps.c): pockets in the corners of rooms, below a
 * diagonal line at most CAIRN__DE_MAX_SWAMP steps from the corner, of at
 * most CAIRN__DE_SWAMP_CELLS cells. */
#define CAIRN__DE_MAX_SWAMP 64
#define CAIRN__DE_SWAMP_CELLS 4096
/* A swamp's cells lie within this many rows and columns of its corner,
 * and a swamp's id follows from its corner's position (modulo
 * CAIRN__DE_SWAMP_ID_SPAN a way), so the corner of any swamp cell is the
 * one cell with that id's position within this reach of it. */
#define CAIRN__DE_SWAMP_REACH 63
#define CAIRN__DE_SWAMP_ID_SPAN 131
_Static_assert(2 * (CAIRN__DE_SWAMP_REACH + 2) + 1 <= CAIRN__DE_SWAMP_ID_SPAN,
               "a swamp cell's corner is the only one with its id within reach");
_Static_assert(CAIRN__DE_SWAMP_ID_SPAN * CAIRN__DE_SWAMP_ID_SPAN < 0x8000,
               "a swamp id fits 15 bits");
/* One swamp as found (dead_ends_swamps.c): its corner (the records are
 * in the corner's index order, the order the full pass finds them in),
 * which way it opens (bit 0: west, bit 1: north), its size d, its
 * border's extent on lines d and d + 1 (i from lo to hi, lo > hi for
 * none), and the rows or columns from the corner its growth reached
 * (span; "far" is a macro on Windows).
 * Enough to list its cells (those with its id, from the corner) and its
 * border. */
typedef struct cairn__de_swamp_rec {
  uint32_t c;
  uint16_t cells;
  int8_t lo[2], hi[2];
  uint8_t f, d, span;
} cairn__de_swamp_rec;
/* What a local redo of the swamps works with, kept from one to the next:
 * the corners to do (a heap), the swamps it took out (their records and,
 * in pool, their cells), grown as needed. */
typedef struct cairn__de_swamp_work {
  uint32_t *heap;
  size_t n_heap, cap_heap;
  cairn__de_swamp_rec *out;
  size_t *out_at;
  size_t n_out, cap_out, cap_out_at;
  uint32_t *pool;
  size_t n_pool, cap_pool;
  bool failed; /* memory ran out */
} cairn__de_swamp_work;
/* A door beside pillars the full pass considered (dead_ends_pillars.c):
 * the wall its stretch starts from (c), its run of cells from w (down a
 * column or along a row; on the line before L's or after it), whether it
 * was marked, and else the places on the run that kept it out, a bit each
 * (after updates inside one dead end, some of them: those in the dead
 * end are dropped). A list of them, in the full pass's order. */
typedef struct cairn__de_pillar {
  uint32_t c, w;
  uint64_t blocks;
  uint8_t len, down, side, marked;
} cairn__de_pillar;
typedef struct cairn__de_pillars {
  cairn__de_pillar *p;
  size_t n, cap;
} cairn__de_pillars;
struct cairn_dead_ends {
  cairn_allocator alloc;
  const cairn_grid *grid;
  uint64_t version; /* the grid's edits when the areas were found */
  bool current;     /* false after an update that ran out of memory */
  size_t padded;
  uint32_t *area;   /* padded: each open cell's innermost area; 0 blocked */
  /* padded cells as bits: gates (cells some area is entered through),
   * the gates of one cell only, and cells inside a dead end (in an area
   * that is not a root) */
  uint64_t *gate_bits, *cell_gate_bits, *dead_bits;
  size_t words;
  /* padded: each cell's swamp (an id from its corner's position, 1 ..
   * 17161), 0 for none; the cells a search steps into a swamp from (its
   * border) are among gate_bits */
  uint16_t *swamp;
  /* padded bits: the cells within one cell of a swamp (or in it); after
   * a local redo of the swamps, of a swamp since taken out too */
  uint64_t *halo_bits;
  /* padded bits: the gates of the areas alone, and the swamps' borders;
   * gate_bits is the two together. border_count: padded, how many
   * swamps' borders hold each cell. */
  uint64_t *area_gate_bits, *border_bits;
  uint8_t *border_count;
  /* the swamps, in their corners' order; the farthest (rows or columns)
   * from its corner any corner's growth has read a cell since the last
   * full pass (what a swamp writes lies within it too) */
  cairn__de_swamp_rec *swamps;
  size_t n_swamps, cap_swamps;
  int32_t swamp_reach;
  cairn__de_swamp_work swamp_work;
  uint32_t *swamp_list; /* 4 CAIRN__DE_SWAMP_CELLS: one pocket's cells, then the
                           cells beside it, their lines and places along
                           the corner's row, while it is found */
  /* padded: the doors the full pass marked (dead_ends_work.h's door
   * marks, gates or not), kept equal to a fresh pass's by the local
   * updates, which read them outside the dead end they search */
  uint16_t *doors;
  /* the doors beside pillars the full pass considered
   * (dead_ends_pillars.c): their cells and those of the lines beside them
   * as padded bits, and the list of them, which updates inside one dead
   * end keep clear of */
  uint64_t *pillar_bits;
  cairn__de_pillars pillars;
  /* per area, ids 1 .. count (0 unused): the end of its id range, its gate
   * cell, its own cells (not those of areas nested in it), its depth (0
   * for a root) */
  uint32_t *end, *gate, *cells, *depth;
  /* per area: 0 when its gate is one cell; for a door its length, with
   * CAIRN__DE_DOOR_DOWN when it runs down a column from the gate cell
   * (else right along a row) */
  uint8_t *door;
  /* per root area (one an island), for updates that search one dead end
   * (dead_ends_local.c): the island's first open cell in index order, where the
   * search that picks the centre starts; the slack, in cells, of the sizes
   * that walk compared; the margin, in nodes, by which the largest subtree
   * at the root of either search beat the next (UINT32_MAX with one). Lower
   * bounds, spent by each such update. And the centre: the cell the last
   * search started from, which the updates leave where it is. */
  uint32_t *first, *slack, *margin, *centre;
  uint32_t count;
  cairn_dead_ends_stats stats;
  /* what the areas depend on, as found: each padded cell open, and at the
   * cheapest terrain (doors are runs of those), a bit each; that cost.
   * An update whose grid still gives the same (terrain changed elsewhere)
   * keeps the areas. finds: the searches run (create and updates). */
  uint64_t *open_bits, *least_bits;
  uint8_t least;
  uint64_t finds;
  uint64_t locals; /* updates that searched one dead end again, not all */
  /* what those updates search with, kept from the first on (dead_ends_local.c);
   * NULL before */
  struct cairn__de_scratch *scratch;
  /* what the updates outside every dead end work in (dead_ends_root.c),
   * kept from the first on; NULL before */
  struct cairn__de_root *root_work;
  /* what the updates that search a window round the edit work in
   * (dead_ends_ring.c), kept from the first on; NULL before */
  struct cairn__de_ring *ring_work;
};

CAIRN_INLINE bool cairn__de_bit(const uint64_t *bits, uint32_t c) {
  return bits[c >> 6] >> (c & 63u) & 1u;
}

CAIRN_INLINE void cairn__de_set_bit(uint64_t *bits, uint32_t c) {
  bits[c >> 6] |= 1ull << (c & 63u);
}

/* The cells of area a's gate: 1 for a cell, a door's length. */
CAIRN_INLINE unsigned cairn__de_gate_len(const cairn_dead_ends *de, uint32_t a) {
  return de->door[a] ? de->door[a] & CAIRN__DE_DOOR_LEN : 1u;
}

/* The padded step from one cell of area a's gate to the next: down a
 * column or right along a row. */
CAIRN_INLINE uint32_t cairn__de_gate_step(const cairn_dead_ends *de, uint32_t a) {
  return de->door[a] & CAIRN__DE_DOOR_DOWN ? (uint32_t)de->grid->stride : 1u;
}

/* The padded index of the last cell of area a's gate (the gate itself for
 * a cell). */
CAIRN_INLINE uint32_t cairn__de_gate_last(const cairn_dead_ends *de, uint32_t a) {
  return de->gate[a] + (cairn__de_gate_len(de, a) - 1u) * cairn__de_gate_step(de, a);
}

/* Whether a search from an area with id sa to one with id ga may enter
 * area y: y holds the start or the goal (or is a root), or, for a search
 * that is not plain, y is behind a door. */
CAIRN_INLINE bool cairn__de_allowed(const cairn_dead_ends *de, uint32_t y, uint32_t sa,
                                    uint32_t ga, bool plain) {
  const uint32_t e = de->end[y];
  return (y <= sa && sa < e) || (y <= ga && ga < e) || (!plain && de->door[y]);
}

/* The swamps of the table's grid and areas, after area_gate_bits are
 * set: swamp, their records, border_bits and gate_bits, and their stats. */
void cairn__de_find_swamps(cairn_dead_ends *de);
/* The same after an edit that changed the grid, the areas or their gates
 * only at cells inside box (padded coordinates), the swamps before it
 * found by one of these: the swamps the full pass would now find, from
 * the corners near box and those near a swamp that came out otherwise,
 * in the full pass's order. false when memory runs out (the swamps then
 * need cairn__de_find_swamps). */
bool cairn__de_find_swamps_near(cairn_dead_ends *de, cairn_rect box);
/* The swamps' records and their redo's work, released. */
void cairn__de_swamps_free(cairn_dead_ends *de);

#endif
