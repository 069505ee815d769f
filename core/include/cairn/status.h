/**
 * @file cairn/status.h
 * @brief Status codes (cairn_status, cairn_status_str) and the allocator
 * hook. Part of cairn/core.h.
 */
#ifndef CAIRN_STATUS_H
#define CAIRN_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status --------------------------------------------------------- */

/** Every status: X(name, value, text). Outcomes are >= 0, errors < 0. */
#define CAIRN_STATUS_LIST(X)                                             \
  X(CAIRN_OK, 0, "ok")                                                   \
  X(CAIRN_NO_PATH, 1, "no path")                                         \
  X(CAIRN_IN_PROGRESS, 2, "search in progress")                          \
  X(CAIRN_PARTIAL, 3, "node limit reached before the search ended")      \
  X(CAIRN_ERR_NOMEM, -1, "out of memory")                                \
  X(CAIRN_ERR_ARG, -2, "invalid argument")                               \
  X(CAIRN_ERR_RANGE, -3, "coordinates outside the map")                  \
  X(CAIRN_ERR_BLOCKED, -4, "start or goal is on a blocked cell")         \
  X(CAIRN_ERR_TOO_LARGE, -5, "size above the documented limit")          \
  X(CAIRN_ERR_PARSE, -6, "malformed input")                              \
  X(CAIRN_ERR_IO, -7, "cannot read or write the file")                   \
  X(CAIRN_ERR_MISMATCH, -8, "input does not match the map")              \
  X(CAIRN_ERR_STATE, -9, "call out of sequence")                         \
  X(CAIRN_ERR_BUFFER, -10, "buffer too small")                          \
  X(CAIRN_ERR_STALE, -11, "stale handle: what it named was removed")    \
  X(CAIRN_ERR_TERRAIN, -12, "the method needs a grid of one terrain cost")

/** What a call answered: outcomes are >= 0, errors < 0 (CAIRN_STATUS_LIST
 * gives each value and its text). */
typedef enum cairn_status {
#define CAIRN_STATUS_ENUM(name, value, text) name = value,
  CAIRN_STATUS_LIST(CAIRN_STATUS_ENUM)
#undef CAIRN_STATUS_ENUM
} cairn_status;
/** @var CAIRN_OK
 * Done: found, or the call succeeded. */
/** @var CAIRN_NO_PATH
 * The search ended without reaching the goal. */
/** @var CAIRN_IN_PROGRESS
 * A sliced search or incremental refinement has more to do. */
/** @var CAIRN_PARTIAL
 * The node limit (max_expanded) was reached before the search ended. */
/** @var CAIRN_ERR_NOMEM
 * Out of memory (or threads, or a lock). */
/** @var CAIRN_ERR_ARG
 * Invalid argument: NULL, out of its range, bad options. */
/** @var CAIRN_ERR_RANGE
 * Coordinates outside the map. */
/** @var CAIRN_ERR_BLOCKED
 * Start or goal is on a blocked cell. */
/** @var CAIRN_ERR_TOO_LARGE
 * A size above the documented limit. */
/** @var CAIRN_ERR_PARSE
 * Malformed input. */
/** @var CAIRN_ERR_IO
 * Cannot read or write the file. */
/** @var CAIRN_ERR_MISMATCH
 * The input does not match the map (a scenario of another size, a saved
 * hierarchy made for another map or layer). */
/** @var CAIRN_ERR_STATE
 * Call out of sequence (or on a stale object, such as a hierarchy whose
 * edit failed). */
/** @var CAIRN_ERR_BUFFER
 * The caller's buffer is too small. */
/** @var CAIRN_ERR_STALE
 * A handle whose object was removed (a crowd agent's handle after
 * cairn_crowd_remove, even once its slot holds a new agent). */
/** @var CAIRN_ERR_TERRAIN
 * The method answers only on a grid whose open cells all have one terrain
 * cost (jump point search: cairn_jps). */

/** A static string for any status (unknown values give "unknown status").
 * @param[in] s any value
 * @return the status's text, never NULL */
CAIRN_CORE_API const char *cairn_status_str(cairn_status s);

/* ---- allocator ------------------------------------------------------ */

/** Lua-style allocator: new_size == 0 frees ptr and returns NULL; otherwise it
 * returns a block of new_size bytes holding the first min(old, new) bytes of
 * ptr (ptr may be NULL), or NULL on failure, leaving ptr untouched.
 * @param user cairn_allocator::user
 * @param ptr the block to grow, shrink or free, or NULL
 * @param old_size ptr's size in bytes (0 when ptr is NULL)
 * @param new_size the size wanted, 0 to free
 * @return the block, or NULL (freed, or on failure) */
typedef void *(*cairn_alloc_fn)(void *user, void *ptr, size_t old_size,
                                size_t new_size);
/** An allocator: the function and the context it is called with. */
typedef struct cairn_allocator {
  cairn_alloc_fn fn; /**< the allocation function; NULL means malloc */
  void *user;        /**< passed to every call of fn */
} cairn_allocator;
/** The allocator itself, or the malloc-backed default when alloc is NULL or
 * has no fn: for modules that keep the allocator they were given.
 * (Every create function takes a const cairn_allocator *; NULL means
 * malloc.)
 * @param[in] alloc an allocator, or NULL
 * @return a copy of *alloc, or the default */
CAIRN_CORE_API cairn_allocator cairn_allocator_or_default(const cairn_allocator *alloc);

#ifdef __cplusplus
}
#endif
#endif
