/* Private to cairn's modules: every allocation goes through the caller's
 * cairn_allocator by these helpers, under one rule: a request of 0 bytes
 * asks for 1, and a block is freed with the size it was asked for under
 * that same rule, so a caller's allocator sees matching sizes and never a
 * zero-byte block. Inline, so no module calls into another for them. */
#ifndef CAIRN_ALLOC_H
#define CAIRN_ALLOC_H

#include "cairn/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The caller's allocator, or the malloc-backed default when alloc is NULL
 * or has no fn. */
static inline cairn_allocator cairn__allocator(const cairn_allocator *alloc) {
  return cairn_allocator_or_default(alloc);
}

/* size bytes, uninitialised; NULL when the allocator refuses. */
static inline void *cairn__alloc(const cairn_allocator *a, size_t size) {
  return a->fn(a->user, NULL, 0, size ? size : 1);
}

/* size bytes, zeroed; NULL when the allocator refuses. */
static inline void *cairn__alloc_zero(const cairn_allocator *a, size_t size) {
  void *p = cairn__alloc(a, size);
  if (p) memset(p, 0, size);
  return p;
}

/* p (old_size bytes) resized to new_size, contents kept; NULL (p still
 * valid) when the allocator refuses. */
static inline void *cairn__realloc(const cairn_allocator *a, void *p,
                                   size_t old_size, size_t new_size) {
  return a->fn(a->user, p, p ? (old_size ? old_size : 1) : 0,
               new_size ? new_size : 1);
}

/* Frees p (NULL is fine), of the size it was allocated with. */
static inline void cairn__free(const cairn_allocator *a, void *p, size_t size) {
  if (p) a->fn(a->user, p, size ? size : 1, 0);
}

/* Grows *p, an array of *cap elements of `elem` bytes, to hold at least n,
 * doubling from 16; the contents are kept. false when the allocator
 * refuses (the array is then unchanged). */
static inline bool cairn__grow(const cairn_allocator *a, void **p, size_t *cap,
                               size_t n, size_t elem) {
  if (n <= *cap) return true;
  size_t c = *cap ? *cap : 16;
  while (c < n) c *= 2;
  void *q = cairn__realloc(a, *p, *cap * elem, c * elem);
  if (!q) return false;
  *p = q;
  *cap = c;
  return true;
}

/* n * size, or 0 (and *ok = false) if it overflows. */
static inline size_t cairn__mul(size_t n, size_t size, bool *ok) {
  if (size != 0 && n > SIZE_MAX / size) {
    *ok = false;
    return 0;
  }
  return n * size;
}

#endif
