#include "core_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cairn_status_str(cairn_status s) {
  switch (s) {
#define CAIRN_STATUS_CASE(name, value, text) \
  case name:                                 \
    return text;
    CAIRN_STATUS_LIST(CAIRN_STATUS_CASE)
#undef CAIRN_STATUS_CASE
  }
  return "unknown status";
}

static void *default_alloc(void *user, void *ptr, size_t old_size,
                           size_t new_size) {
  (void)user;
  (void)old_size;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, new_size);
}

cairn_allocator cairn_allocator_or_default(const cairn_allocator *alloc) {
  return cairn__allocator(alloc);
}

cairn_allocator cairn__allocator(const cairn_allocator *alloc) {
  if (alloc && alloc->fn) return *alloc;
  cairn_allocator a = {default_alloc, NULL};
  return a;
}

void *cairn__alloc(const cairn_allocator *a, size_t size) {
  if (size == 0) size = 1;
  return a->fn(a->user, NULL, 0, size);
}

void *cairn__realloc(const cairn_allocator *a, void *p, size_t old_size,
                     size_t new_size) {
  if (new_size == 0) new_size = 1;
  return a->fn(a->user, p, old_size, new_size);
}

void cairn__free(const cairn_allocator *a, void *p, size_t size) {
  if (p) a->fn(a->user, p, size, 0);
}

bool cairn__grow_u32(const cairn_allocator *a, uint32_t **list, size_t *cap,
                     size_t need) {
  if (need <= *cap) return true;
  size_t c = *cap ? *cap : 256;
  while (c < need) c *= 2;
  uint32_t *l = cairn__realloc(a, *list, *cap * sizeof *l, c * sizeof *l);
  if (!l) return false;
  *list = l;
  *cap = c;
  return true;
}

size_t cairn__mul(size_t n, size_t size, bool *ok) {
  if (size != 0 && n > SIZE_MAX / size) {
    *ok = false;
    return 0;
  }
  return n * size;
}

cairn_status cairn__fail(cairn_error *err, cairn_status status,
                         const char *name, int32_t line, const char *fmt,
                         ...) {
  if (!err) return status;
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  if (!name) name = "<input>";
  if (line > 0)
    snprintf(err->message, sizeof err->message, "%s:%ld: %s", name,
             (long)line, detail);
  else
    snprintf(err->message, sizeof err->message, "%s: %s", name, detail);
  err->line = line;
  return status;
}
