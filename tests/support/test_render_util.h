/* Helpers shared by the renderer's tests (tests/tools/test_canvas.c,
 * test_views.c, test_gif.c): colours, a pixel assertion, PNGs decoded with
 * libpng's reader, scratch file paths. Header only. */
#ifndef CAIRN_TEST_RENDER_UTIL_H
#define CAIRN_TEST_RENDER_UTIL_H

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cairn_render.h"

static const cairn_rgba white = {255, 255, 255, 255};

static const cairn_rgba black = {0, 0, 0, 255};

static const cairn_rgba red = {255, 0, 0, 255};

static inline void check_rgba(cairn_rgba got, cairn_rgba want, int line) {
  if (got.r != want.r || got.g != want.g || got.b != want.b || got.a != want.a)
    fail_msg("line %d: pixel %u,%u,%u,%u, want %u,%u,%u,%u", line, got.r, got.g,
             got.b, got.a, want.r, want.g, want.b, want.a);
}

#define assert_rgba(got, ...) check_rgba(got, __VA_ARGS__, __LINE__)

/* A failed write may remove its half-written file, never a device. */
static inline void assert_dev_full_survives(void) {
  struct stat sb;
  assert_int_equal(stat("/dev/full", &sb), 0);
  assert_true(S_ISCHR(sb.st_mode));
}

static inline void tmp_path(char *buf, size_t cap, const char *name) {
  snprintf(buf, cap, "/tmp/cairn_test_render_%ld_%s", (long)getpid(), name);
}

#endif
