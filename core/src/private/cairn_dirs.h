/* Private to cairn's modules: the eight grid moves, in the one order every
 * search, fill, hierarchy and flow field uses: the four straight moves
 * (east, west, south, north), then the four diagonals (south-east,
 * south-west, north-east, north-west). A diagonal d >= 4 has the straight
 * components (d & 1) (east or west) and 2 + (d >> 1 & 1) (south or north).
 * Bit d of a move set is move d. The tables are static so each loop's file
 * sees the values and folds them. */
#ifndef CAIRN_DIRS_H
#define CAIRN_DIRS_H

#include <stdint.h>

static const int8_t cairn__dx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
static const int8_t cairn__dy[8] = {0, 0, 1, -1, 1, 1, -1, -1};

/* Canonical orderings of shortest paths without corner cutting (Sturtevant
 * and Rabin, "Canonical orderings on grids", IJCAI 2016):
 * cairn__canon_next[o][d] is the set of moves a cell reached by move d may
 * continue with on some shortest path, where o holds the straight moves
 * (bits 0-3: east, west, south, north) open from the cell it was reached
 * from. After a diagonal: the diagonal and its two straight parts. After a
 * straight step, east say: east, and north and north-east only where the
 * cell it came from has its north blocked (else that cell reached them
 * cheaper, or as cheaply, itself), south and south-east likewise. Every
 * shortest path can be rewritten into one that takes only such moves, so
 * a Dijkstra that offers nothing else settles every cell at its exact
 * value; a cell reached at its value by several moves goes on with the
 * union of their sets (flow_integrate.c gives the proof at length). */
#define CAIRN__CANON_ROW(o)                                                   \
  {(uint8_t)(1u | ((o)&8u ? 0u : 8u | 64u) | ((o)&4u ? 0u : 4u | 16u)),       \
   (uint8_t)(2u | ((o)&8u ? 0u : 8u | 128u) | ((o)&4u ? 0u : 4u | 32u)),      \
   (uint8_t)(4u | ((o)&1u ? 0u : 1u | 16u) | ((o)&2u ? 0u : 2u | 32u)),       \
   (uint8_t)(8u | ((o)&1u ? 0u : 1u | 64u) | ((o)&2u ? 0u : 2u | 128u)),      \
   (uint8_t)(16u | 1u | 4u), (uint8_t)(32u | 2u | 4u),                       \
   (uint8_t)(64u | 1u | 8u), (uint8_t)(128u | 2u | 8u)}
static const uint8_t cairn__canon_next[16][8] = {
    CAIRN__CANON_ROW(0u),  CAIRN__CANON_ROW(1u),  CAIRN__CANON_ROW(2u),
    CAIRN__CANON_ROW(3u),  CAIRN__CANON_ROW(4u),  CAIRN__CANON_ROW(5u),
    CAIRN__CANON_ROW(6u),  CAIRN__CANON_ROW(7u),  CAIRN__CANON_ROW(8u),
    CAIRN__CANON_ROW(9u),  CAIRN__CANON_ROW(10u), CAIRN__CANON_ROW(11u),
    CAIRN__CANON_ROW(12u), CAIRN__CANON_ROW(13u), CAIRN__CANON_ROW(14u),
    CAIRN__CANON_ROW(15u)};
#undef CAIRN__CANON_ROW

#endif
