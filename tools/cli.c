#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("cairn: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void cli_args_init(cli_args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  a->argc = argc;
  a->argv = argv;
}

bool cli_next(cli_args *a) {
  if (a->i >= a->argc) return false;
  const char *arg = a->argv[a->i++];
  a->val = NULL;
  if (strncmp(arg, "--", 2) != 0) {
    a->opt = NULL;
    a->val = arg;
    return true;
  }
  const char *eq = strchr(arg, '=');
  if (eq && (size_t)(eq - arg) < sizeof a->buf) {
    memcpy(a->buf, arg, (size_t)(eq - arg));
    a->buf[eq - arg] = '\0';
    a->opt = a->buf;
    a->val = eq + 1;
  } else {
    a->opt = arg;
  }
  return true;
}

bool cli_is(const cli_args *a, const char *name) {
  return a->opt && strcmp(a->opt, name) == 0;
}

bool cli_is_any(const cli_args *a, const char *const *names) {
  for (; *names; names++)
    if (cli_is(a, *names)) return true;
  return false;
}

const char *cli_value(cli_args *a) {
  if (a->val) return a->val;
  if (a->i >= a->argc) {
    cli_error("%s needs a value", a->opt);
    return NULL;
  }
  return a->val = a->argv[a->i++];
}

bool cli_parse_int(const char *opt, const char *text, long lo, long hi,
                   long *out) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (end == text || *end || errno || v < lo || v > hi) {
    cli_error("%s: '%s' is not an integer in %ld..%ld", opt, text, lo, hi);
    return false;
  }
  *out = v;
  return true;
}

bool cli_parse_on_off(const char *opt, const char *text, int *out) {
  if (strcmp(text, "on") && strcmp(text, "off")) {
    cli_error("%s: '%s' is neither on nor off", opt, text);
    return false;
  }
  *out = text[1] == 'n';
  return true;
}

bool cli_parse_double(const char *opt, const char *text, double lo, double hi,
                      double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  /* written so that a NaN fails too (lo and hi are finite) */
  if (end == text || *end || errno || !(v >= lo && v <= hi)) {
    cli_error("%s: '%s' is not a number in %g..%g", opt, text, lo, hi);
    return false;
  }
  *out = v;
  return true;
}

bool cli_parse_point(const char *opt, const char *text, cairn_point *out) {
  char *end;
  errno = 0;
  long x = strtol(text, &end, 10);
  bool ok = end != text && *end == ',' && !errno;
  const char *rest = end + 1;
  long y = ok ? strtol(rest, &end, 10) : 0;
  ok = ok && end != rest && *end == '\0' && !errno;
  if (!ok || x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX) {
    cli_error("%s: '%s' is not X,Y", opt, text);
    return false;
  }
  out->x = (int32_t)x;
  out->y = (int32_t)y;
  return true;
}

bool cli_parse_terrain(const char *text, cairn_terrain *t) {
  long cost;
  if (strlen(text) < 3 || text[1] != '=' ||
      !cli_parse_int("--terrain", text + 2, 0, 255, &cost))
    goto bad;
  if (cairn_terrain_set(t, text[0], (int)cost) != CAIRN_OK) goto bad;
  return true;
bad:
  cli_error("--terrain: '%s' is not CHAR=COST with a printable CHAR and COST "
            "0..255",
            text);
  return false;
}

bool cli_check_position(const cairn_grid *g, const char *opt, cairn_point p, int32_t size) {
  if (!cairn_grid_contains(g, p.x, p.y)) {
    cli_error("%s %d,%d is outside the map (%d x %d)", opt, p.x, p.y,
              cairn_grid_width(g), cairn_grid_height(g));
    return false;
  }
  if (!cairn_grid_cost(g, p.x, p.y)) {
    cli_error("%s %d,%d is a blocked cell", opt, p.x, p.y);
    return false;
  }
  if (cairn_grid_clearance(g, p.x, p.y) < size) {
    cli_error("%s %d,%d: a unit of size %d does not fit there (its %dx%d cells from there "
              "are not all open: clearance %d)",
              opt, p.x, p.y, size, size, size, cairn_grid_clearance(g, p.x, p.y));
    return false;
  }
  return true;
}

cairn_landmarks *cli_landmarks(const cairn_grid *g, long count) {
  cairn_landmarks_opts lo = cairn_landmarks_defaults();
  lo.count = (int32_t)count;
  cairn_landmarks *lm = NULL;
  if (cairn_landmarks_create(g, &lo, NULL, &lm) != CAIRN_OK) cli_error("out of memory");
  return lm;
}

cairn_grid *cli_eroded(const cairn_grid *g, int k) {
  const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  cairn_grid *e = NULL;
  if (cairn_grid_create(w, h, 0, NULL, &e) != CAIRN_OK) {
    cli_error("out of memory");
    return NULL;
  }
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      if (cairn_grid_clearance(g, x, y) < k) continue;
      uint8_t most = 0;
      for (int32_t dy = 0; dy < k; dy++)
        for (int32_t dx = 0; dx < k; dx++) {
          uint8_t c = cairn_grid_cost(g, x + dx, y + dy);
          if (c > most) most = c;
        }
      cairn_grid_set_cost(e, x, y, most); /* on the grid: cannot fail */
    }
  if (cairn_grid_update_islands(e) != CAIRN_OK) {
    cairn_grid_destroy(e);
    cli_error("out of memory");
    return NULL;
  }
  return e;
}

cairn_grid *cli_load_map(const char *path, const cairn_terrain *t) {
  cairn_grid *g = NULL;
  cairn_error err;
  cairn_status st = cairn_map_load(path, t, NULL, &g, &err);
  if (st != CAIRN_OK) {
    cli_error("%s", err.message);
    return NULL;
  }
  return g;
}

int cli_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double cli_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void cli_result_of_hpa(cairn_status st, const cairn_hpa_result *hr, cairn_result *out) {
  memset(out, 0, sizeof *out);
  out->status = st;
  out->cost = hr->cost;
  out->path = hr->path;
  out->base_cost = hr->base_cost;
  out->path_len = st == CAIRN_OK ? hr->path_len : 0;
  out->steps = out->path_len ? (uint32_t)(out->path_len - 1) : 0;
  out->expanded = hr->expanded;
}
