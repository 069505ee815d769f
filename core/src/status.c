#include "core_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cairn_version(void) { return CAIRN_VERSION_STRING; }

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
  if (alloc && alloc->fn) return *alloc;
  cairn_allocator a = {default_alloc, NULL};
  return a;
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
