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

#endif
