/**
 * @file cairn/io.h
 * @brief The Moving AI map and scenario formats, and cairn_error. Part of
 * cairn/core.h.
 */
#ifndef CAIRN_IO_H
#define CAIRN_IO_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Moving AI formats ---------------------------------------------- */

/** Error detail for parsers and loaders: "FILE:LINE: problem". */
typedef struct cairn_error {
  char message[320]; /**< "FILE:LINE: problem", NUL-terminated */
  int32_t line; /**< 1-based, 0 when the problem has no line */
} cairn_error;

/** Character <-> cost table for maps. */
typedef struct cairn_terrain {
  int16_t cost_of[256]; /**< cost (0..255) of a map character, -1: rejected */
  char char_of[256];    /**< character the writer emits for a cost, 0: none */
} cairn_terrain;

/** The Moving AI rule that reproduces every published optimal length:
 * '.', 'G', 'S' cost 1; '\@', 'O', 'T', 'W' blocked; and cairn's terrain
 * digits '1'..'9' cost 1..9 (no Moving AI file holds a digit). Writes '.'
 * for cost 1, '\@' for blocked and the digit k for cost k in 2..9.
 * @param[out] t the table to fill */
CAIRN_CORE_API void cairn_terrain_movingai(cairn_terrain *t);
/** Maps character c to cost (0..255) and makes c the writer's character for
 * that cost.
 * @param[in,out] t the table
 * @param[in] c a character, '!'..'~'
 * @param[in] cost 0 (blocked) or 1..255
 * @return CAIRN_OK; CAIRN_ERR_ARG for a NULL t, a cost outside 0..255, or
 * a c outside '!'..'~' (0x21..0x7e): control characters, DEL, bytes above
 * 0x7e and the space character are all rejected */
CAIRN_CORE_API cairn_status cairn_terrain_set(cairn_terrain *t, char c, int cost);

/** Parses a .map held in memory (name is used in messages only). terrain
 * NULL means cairn_terrain_movingai. Accepts LF and CRLF.
 * @param[in] buf the file's bytes
 * @param[in] len bytes in buf
 * @param[in] name the file's name, for messages
 * @param[in] terrain character table, or NULL
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the grid
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK; CAIRN_ERR_PARSE, CAIRN_ERR_TOO_LARGE, CAIRN_ERR_ARG
 * (NULL), CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_map_parse(const char *buf, size_t len, const char *name,
                             const cairn_terrain *terrain,
                             const cairn_allocator *alloc, cairn_grid **out,
                             cairn_error *err);
/** Reads the file at path and parses it as cairn_map_parse does. Files over
 * 16384 x 16386 + 2^20 = 269516800 bytes (the largest map with CRLF endings
 * plus 1 MiB of slack) are refused with CAIRN_ERR_TOO_LARGE after reading at
 * most one byte past that limit.
 * @param[in] path the .map file
 * @param[in] terrain character table, or NULL
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the grid
 * @param[out] err error detail, or NULL
 * @return as cairn_map_parse, and CAIRN_ERR_IO */
CAIRN_CORE_API cairn_status cairn_map_load(const char *path, const cairn_terrain *terrain,
                            const cairn_allocator *alloc, cairn_grid **out,
                            cairn_error *err);
/** Writes the grid as a .map. A cell keeps its original glyph if it still has
 * the cost that glyph maps to; otherwise it gets terrain->char_of[cost].
 * @param[in] grid the grid
 * @param[in] path the file to write
 * @param[in] terrain character table, or NULL for cairn_terrain_movingai
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK; CAIRN_ERR_ARG (NULL, or a cost without a character),
 * CAIRN_ERR_IO, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_map_save(const cairn_grid *grid, const char *path,
                            const cairn_terrain *terrain, cairn_error *err);

/** One scenario row. */
typedef struct cairn_scen_entry {
  uint32_t bucket; /**< the row's bucket */
  /** @{ */
  int32_t map_width, map_height; /**< the map size the row names */
  cairn_point start, goal;       /**< the query's endpoints */
  /** @} */
  double optimal; /**< the published optimal length, in straight steps */
  uint32_t line; /**< line number in the file */
} cairn_scen_entry;

/** A parsed .scen file: its rows and the map they name. */
typedef struct cairn_scen cairn_scen;

/** Most rows a scenario may have. */
#define CAIRN_SCEN_MAX_ROWS 10000000u
/** Parses a .scen ("version 1" or "version 1.0", nine fields per row split on
 * tabs or spaces). Every row must name the same map file (matched by file
 * name, directories ignored): a row naming another file than row 1 is
 * CAIRN_ERR_PARSE. A negative number in any numeric field is
 * CAIRN_ERR_PARSE, as is an integer field that is not a decimal integer
 * fitting in 64 bits (at most 31 characters). A map_width or map_height
 * above CAIRN_GRID_MAX_SIDE is CAIRN_ERR_TOO_LARGE (0 is CAIRN_ERR_PARSE);
 * a start or goal outside the row's own map_width x map_height is
 * CAIRN_ERR_RANGE. At most CAIRN_SCEN_MAX_ROWS rows (CAIRN_ERR_TOO_LARGE).
 * Zero rows is valid.
 * @param[in] buf the file's bytes
 * @param[in] len bytes in buf
 * @param[in] name the file's name, for messages
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the scenario
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK, CAIRN_ERR_PARSE, CAIRN_ERR_TOO_LARGE, CAIRN_ERR_RANGE,
 * CAIRN_ERR_ARG (NULL), CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_scen_parse(const char *buf, size_t len, const char *name,
                              const cairn_allocator *alloc, cairn_scen **out,
                              cairn_error *err);
/** Reads the file at path and parses it as cairn_scen_parse does.
 * @param[in] path the .scen file
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the scenario
 * @param[out] err error detail, or NULL
 * @return as cairn_scen_parse, and CAIRN_ERR_IO */
CAIRN_CORE_API cairn_status cairn_scen_load(const char *path, const cairn_allocator *alloc,
                             cairn_scen **out, cairn_error *err);
/** Destroys a scenario. NULL is ignored.
 * @param[in] scen the scenario, or NULL */
CAIRN_CORE_API void cairn_scen_destroy(cairn_scen *scen);
/** Number of rows.
 * @param[in] scen the scenario
 * @return the row count */
CAIRN_CORE_API size_t cairn_scen_count(const cairn_scen *scen);
/** One row.
 * @param[in] scen the scenario
 * @param[in] i the row's index
 * @return the row, valid until the scenario is destroyed; NULL past the
 * end */
CAIRN_CORE_API const cairn_scen_entry *cairn_scen_get(const cairn_scen *scen, size_t i);
/** File name of the map the rows name, without directories; "" when the
 * scenario has no rows, NULL for a NULL scen.
 * @param[in] scen the scenario
 * @return the map's file name */
CAIRN_CORE_API const char *cairn_scen_map_name(const cairn_scen *scen);
/** Checks every row against a grid: map size equal (CAIRN_ERR_MISMATCH) and
 * start and goal inside it (CAIRN_ERR_RANGE); err names the first bad row.
 * @param[in] scen the scenario
 * @param[in] grid the map's grid
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK, CAIRN_ERR_MISMATCH, CAIRN_ERR_RANGE, CAIRN_ERR_ARG
 * (NULL) */
CAIRN_CORE_API cairn_status cairn_scen_check(const cairn_scen *scen, const cairn_grid *grid,
                              cairn_error *err);

#ifdef __cplusplus
}
#endif
#endif
