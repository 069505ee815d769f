/* The cost-layer options shared by `cairn path` and `cairn flow`. */
#include "cli_layers.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

bool cli_parse_influence(const char *v, cli_influence *in) {
  if (in->n == CLI_MAX_INFLUENCE) {
    cli_error("--influence: at most %d events", CLI_MAX_INFLUENCE);
    return false;
  }
  long x, y, r;
  double pen;
  char tail;
  if (sscanf(v, "%ld,%ld,%ld,%lf%c", &x, &y, &r, &pen, &tail) != 4 ||
      x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX) {
    cli_error("--influence: '%s' is not X,Y,RADIUS,PENALTY", v);
    return false;
  }
  if (r < 0 || r > CAIRN_INFLUENCE_MAX_RADIUS || !(pen >= 0 && pen <= 10000)) {
    cli_error("--influence: radius 0..%d and penalty 0..10000 steps",
              CAIRN_INFLUENCE_MAX_RADIUS);
    return false;
  }
  in->event[in->n].at.x = (int32_t)x;
  in->event[in->n].at.y = (int32_t)y;
  in->event[in->n].radius = r;
  in->event[in->n++].penalty = pen;
  return true;
}

bool cli_influence_layer(const cli_influence *in, const cairn_grid *g,
                         cairn_penalty **layer, cairn_influence **m) {
  *layer = NULL;
  *m = NULL;
  if (!in->n) return true;
  if (cairn_penalty_create(g, NULL, layer) != CAIRN_OK ||
      cairn_influence_create(g, *layer, NULL, m) != CAIRN_OK) {
    cli_error("out of memory");
    return false;
  }
  for (size_t k = 0; k < in->n; k++) {
    cairn_status st = cairn_influence_event(
        *m, in->event[k].at.x, in->event[k].at.y, (int32_t)in->event[k].radius,
        (uint32_t)(in->event[k].penalty * (double)CAIRN_COST_ONE));
    if (st != CAIRN_OK) {
      cli_error("--influence %d,%d: %s", in->event[k].at.x, in->event[k].at.y,
                cairn_status_str(st));
      return false;
    }
  }
  return true;
}

/* ---- --claims FILE -------------------------------------------------- */

/* Reads one "X,Y" token starting with c (a digit or '-'); false if the
 * token is anything else. Stops after the token (*c the next char). */
static bool read_cell(FILE *f, int *c, long *x, long *y) {
  long v[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    bool neg = *c == '-', any = false;
    if (neg) *c = fgetc(f);
    while (*c >= '0' && *c <= '9') {
      /* saturates far off any map, and far inside int32_t */
      if (v[k] < 100000000) v[k] = v[k] * 10 + (*c - '0');
      any = true;
      *c = fgetc(f);
    }
    if (!any) return false;
    if (neg) v[k] = -v[k];
    if (k == 0) {
      if (*c != ',') return false;
      *c = fgetc(f);
    }
  }
  *x = v[0];
  *y = v[1];
  return *c == ' ' || *c == '\t' || *c == '\r' || *c == '\n' || *c == EOF;
}

/* One line's cells into *buf (grown); *n cells. Returns 1 for a line, 0 at
 * the end of the file, -1 (message printed) on a bad line. */
static int read_claim_line(FILE *f, const char *path, long line,
                           const cairn_grid *g, cairn_point **buf,
                           size_t *cap, size_t *n) {
  int c = fgetc(f);
  *n = 0;
  if (c == EOF) return 0;
  while (c != '\n' && c != EOF) {
    if (c == ' ' || c == '\t' || c == '\r') {
      c = fgetc(f);
      continue;
    }
    if (c == '#') { /* a comment to the end of the line */
      while (c != '\n' && c != EOF) c = fgetc(f);
      break;
    }
    long x, y;
    if (!read_cell(f, &c, &x, &y)) {
      cli_error("%s:%ld: a claimed cell is not X,Y", path, line);
      return -1;
    }
    if (!cairn_grid_contains(g, (int32_t)x, (int32_t)y)) {
      cli_error("%s:%ld: cell %ld,%ld is outside the map (%d x %d)", path, line, x,
                y, cairn_grid_width(g), cairn_grid_height(g));
      return -1;
    }
    if (*n == CLI_MAX_CLAIM_CELLS) {
      cli_error("%s:%ld: more than %d cells on one path", path, line, CLI_MAX_CLAIM_CELLS);
      return -1;
    }
    if (*n == *cap) {
      size_t grown = *cap ? 2 * *cap : 64;
      cairn_point *p = realloc(*buf, grown * sizeof *p);
      if (!p) {
        cli_error("out of memory");
        return -1;
      }
      *buf = p;
      *cap = grown;
    }
    (*buf)[(*n)++] = (cairn_point){(int32_t)x, (int32_t)y};
  }
  return 1;
}

bool cli_load_claims(const char *path, const cairn_grid *g, cairn_claims **out) {
  *out = NULL;
  FILE *f = fopen(path, "r");
  if (!f) {
    cli_error("%s: cannot open: %s", path, strerror(errno));
    return false;
  }
  cairn_point *buf = NULL;
  size_t cap = 0, n;
  bool ok = cairn_claims_create(g, NULL, out) == CAIRN_OK;
  if (!ok) cli_error("out of memory");
  uint32_t unit = 0;
  for (long line = 1; ok; line++) {
    int r = read_claim_line(f, path, line, g, &buf, &cap, &n);
    if (r <= 0) {
      ok = r == 0;
      break;
    }
    if (!n) continue; /* blank or comment: no unit */
    if (unit == CAIRN_CLAIMS_MAX_UNITS) {
      cli_error("%s:%ld: more than %u paths", path, line, CAIRN_CLAIMS_MAX_UNITS);
      ok = false;
    } else if (cairn_claims_set(*out, unit++, buf, n, UINT64_MAX) != CAIRN_OK) {
      cli_error("%s:%ld: out of memory", path, line);
      ok = false;
    }
  }
  if (ok && ferror(f)) {
    cli_error("%s: read error", path);
    ok = false;
  }
  fclose(f);
  free(buf);
  if (!ok) {
    cairn_claims_destroy(*out);
    *out = NULL;
  }
  return ok;
}

bool cli_claims_into_layer(const cairn_claims *c, const cairn_grid *g,
                           double price, cairn_penalty **layer) {
  if (!*layer && cairn_penalty_create(g, NULL, layer) != CAIRN_OK) {
    cli_error("out of memory");
    return false;
  }
  const int64_t unit = (int64_t)(price * (double)CAIRN_COST_ONE);
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 0; x < cairn_grid_width(g); x++) {
      uint32_t k = cairn_claims_count(c, x, y);
      /* k <= 65535 and price <= 1000 steps: within one call's range */
      if (k) cairn_penalty_add(*layer, x, y, (int64_t)k * unit);
    }
  return true;
}
