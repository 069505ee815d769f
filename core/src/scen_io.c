/* Moving AI .map.scen files: parser, loader and the check against a map. */
#include "core_internal.h"
#include "text_io.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cairn_scen {
  cairn_allocator alloc;
  cairn_scen_entry *rows;
  size_t count, cap;
  char *name; /* the name given to parse, for cairn_scen_check messages */
  size_t name_size;
  char *map_name; /* file-name part of row 1's map field ("" if no rows) */
  size_t map_name_size;
};

/* ---- text helpers --------------------------------------------------- */

typedef struct field {
  const char *s;
  size_t n;
} field;

/* Splits on runs of blanks into f[0..max-1]; returns the total count. */
static size_t split_fields(cairn__text_line l, field *f, size_t max) {
  size_t count = 0, i = 0;
  for (;;) {
    while (i < l.n && cairn__is_blank(l.s[i])) i++;
    if (i == l.n) return count;
    size_t start = i;
    while (i < l.n && !cairn__is_blank(l.s[i])) i++;
    if (count < max) {
      f[count].s = l.s + start;
      f[count].n = i - start;
    }
    count++;
  }
}

static bool field_is(field f, const char *word) {
  return cairn__word_is(f.s, f.n, word);
}

/* The file-name part of a path: after the last '/' or '\\'. */
static field base_name(field f) {
  size_t i = f.n;
  while (i > 0 && f.s[i - 1] != '/' && f.s[i - 1] != '\\') i--;
  field b = {f.s + i, f.n - i};
  return b;
}

/* strtoll / strtod need a terminated string: fields are short, so a bounded
 * local copy does; anything longer is not a number we accept. */
static bool copy_field(field f, char *buf, size_t size) {
  if (f.n == 0 || f.n >= size) return false;
  memcpy(buf, f.s, f.n);
  buf[f.n] = '\0';
  return true;
}

static bool parse_integer(field f, long long *out) {
  char buf[32];
  if (!copy_field(f, buf, sizeof buf)) return false;
  char *end;
  errno = 0;
  *out = strtoll(buf, &end, 10);
  return errno == 0 && end == buf + f.n;
}

static bool parse_real(field f, double *out) {
  char buf[64];
  if (!copy_field(f, buf, sizeof buf)) return false;
  char *end;
  errno = 0;
  *out = strtod(buf, &end);
  return errno == 0 && end == buf + f.n && cairn__finite(*out) && *out >= 0.0;
}

/* ---- rows ----------------------------------------------------------- */

enum { F_BUCKET, F_MAP, F_W, F_H, F_SX, F_SY, F_GX, F_GY, F_OPT, N_FIELDS };
static const char *const field_names[N_FIELDS] = {
    "bucket", "map",    "map_width", "map_height", "start_x",
    "start_y", "goal_x", "goal_y",    "optimal"};

typedef struct row_ctx {
  const char *name;
  int32_t line;
  cairn_error *err;
} row_ctx;

/* Integer field i into *out, checked to lie in [lo, hi]. */
static cairn_status int_field(const row_ctx *c, const field *f, int i,
                              long long lo, long long hi, long long *out) {
  if (!parse_integer(f[i], out))
    return cairn__fail(c->err, CAIRN_ERR_PARSE, c->name, c->line,
                       "field %s is not an integer: '%.*s'", field_names[i],
                       cairn__clip(f[i].n), f[i].s);
  if (*out < 0 && lo >= 0)
    return cairn__fail(c->err, CAIRN_ERR_PARSE, c->name, c->line,
                       "negative %s %lld", field_names[i], *out);
  if (*out < lo || *out > hi)
    return cairn__fail(c->err,
                       *out > hi && hi == CAIRN_GRID_MAX_SIDE
                           ? CAIRN_ERR_TOO_LARGE
                           : CAIRN_ERR_PARSE,
                       c->name, c->line, "%s %lld is outside %lld..%lld",
                       field_names[i], *out, lo, hi);
  return CAIRN_OK;
}

static cairn_status point_fields(const row_ctx *c, const field *f, int ix,
                                 const cairn_scen_entry *e, cairn_point *p) {
  long long x = 0, y = 0;
  /* No upper bound here: a huge coordinate is outside the map (RANGE). */
  cairn_status st = int_field(c, f, ix, 0, LLONG_MAX, &x);
  if (st == CAIRN_OK) st = int_field(c, f, ix + 1, 0, LLONG_MAX, &y);
  if (st != CAIRN_OK) return st;
  if (x >= e->map_width || y >= e->map_height)
    return cairn__fail(c->err, CAIRN_ERR_RANGE, c->name, c->line,
                       "%s (%lld,%lld) is outside the %ldx%ld map",
                       ix == F_SX ? "start" : "goal", x, y,
                       (long)e->map_width, (long)e->map_height);
  p->x = (int32_t)x;
  p->y = (int32_t)y;
  return CAIRN_OK;
}

/* Every field except the map name. */
static cairn_status parse_row(const row_ctx *c, const field *f,
                              cairn_scen_entry *e) {
  long long v;
  cairn_status st = int_field(c, f, F_BUCKET, 0, UINT32_MAX, &v);
  if (st != CAIRN_OK) return st;
  e->bucket = (uint32_t)v;
  st = int_field(c, f, F_W, 1, CAIRN_GRID_MAX_SIDE, &v);
  if (st != CAIRN_OK) return st;
  e->map_width = (int32_t)v;
  st = int_field(c, f, F_H, 1, CAIRN_GRID_MAX_SIDE, &v);
  if (st != CAIRN_OK) return st;
  e->map_height = (int32_t)v;
  st = point_fields(c, f, F_SX, e, &e->start);
  if (st == CAIRN_OK) st = point_fields(c, f, F_GX, e, &e->goal);
  if (st != CAIRN_OK) return st;
  if (!parse_real(f[F_OPT], &e->optimal))
    return cairn__fail(c->err, CAIRN_ERR_PARSE, c->name, c->line,
                       "field optimal is not a finite non-negative number: "
                       "'%.*s'", cairn__clip(f[F_OPT].n), f[F_OPT].s);
  return CAIRN_OK;
}

/* Row 1 fixes the map name; later rows must name the same file. */
static cairn_status check_map_name(cairn_scen *s, const row_ctx *c,
                                   field map) {
  field b = base_name(map);
  if (s->count == 0) {
    char *p = cairn__alloc(&s->alloc, b.n + 1);
    if (!p) return cairn__fail(c->err, CAIRN_ERR_NOMEM, c->name, c->line,
                               "out of memory");
    memcpy(p, b.s, b.n);
    p[b.n] = '\0';
    cairn__free(&s->alloc, s->map_name, s->map_name_size);
    s->map_name = p;
    s->map_name_size = b.n + 1;
    return CAIRN_OK;
  }
  if (field_is(b, s->map_name)) return CAIRN_OK;
  return cairn__fail(c->err, CAIRN_ERR_PARSE, c->name, c->line,
                     "row names map '%.*s' but line %lu named '%.40s'",
                     cairn__clip(b.n), b.s, (unsigned long)s->rows[0].line,
                     s->map_name);
}

/* Room for one more row: capacity doubles, up to CAIRN_SCEN_MAX_ROWS. */
static cairn_status grow(cairn_scen *s, const row_ctx *c) {
  if (s->count < s->cap) return CAIRN_OK;
  if (s->count >= CAIRN_SCEN_MAX_ROWS)
    return cairn__fail(c->err, CAIRN_ERR_TOO_LARGE, c->name, c->line,
                       "more than %lu scenario rows",
                       (unsigned long)CAIRN_SCEN_MAX_ROWS);
  size_t ncap = s->cap ? s->cap * 2 : 64;
  if (ncap > CAIRN_SCEN_MAX_ROWS) ncap = CAIRN_SCEN_MAX_ROWS;
  bool ok = true;
  size_t bytes = cairn__mul(ncap, sizeof *s->rows, &ok);
  void *p = ok ? cairn__realloc(&s->alloc, s->rows, s->cap * sizeof *s->rows,
                                bytes)
               : NULL;
  if (!p) return cairn__fail(c->err, CAIRN_ERR_NOMEM, c->name, c->line,
                             "out of memory");
  s->rows = p;
  s->cap = ncap;
  return CAIRN_OK;
}

static cairn_status add_row(cairn_scen *s, const row_ctx *c,
                            cairn__text_line l, size_t line) {
  field f[N_FIELDS];
  size_t n = split_fields(l, f, N_FIELDS);
  if (n != N_FIELDS)
    return cairn__fail(c->err, CAIRN_ERR_PARSE, c->name, c->line,
                       "expected 9 fields (bucket map width height start_x "
                       "start_y goal_x goal_y optimal), found %zu", n);
  cairn_scen_entry e;
  e.line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
  cairn_status st = parse_row(c, f, &e);
  if (st == CAIRN_OK) st = check_map_name(s, c, f[F_MAP]);
  if (st == CAIRN_OK) st = grow(s, c);
  if (st != CAIRN_OK) return st;
  s->rows[s->count++] = e;
  return CAIRN_OK;
}

static cairn_status parse_version(cairn__line_reader *r, const char *name,
                                  cairn_error *err) {
  cairn__text_line l;
  field f[3];
  if (!cairn__next_line(r, &l))
    return cairn__fail(err, CAIRN_ERR_PARSE, name, 1,
                       "empty file: expected 'version 1'");
  size_t n = split_fields(l, f, 3);
  if (n == 0 || !field_is(f[0], "version"))
    return cairn__fail(err, CAIRN_ERR_PARSE, name, 1,
                       "expected 'version 1', got '%.*s'", cairn__clip(l.n),
                       l.s);
  if (n != 2 || !(field_is(f[1], "1") || field_is(f[1], "1.0")))
    return cairn__fail(err, CAIRN_ERR_PARSE, name, 1,
                       "unsupported scenario version '%.*s' (expected 1 or "
                       "1.0)",
                       n > 1 ? cairn__clip((size_t)(l.s + l.n - f[1].s)) : 0,
                       n > 1 ? f[1].s : "");
  return CAIRN_OK;
}

static cairn_status parse_rows(cairn_scen *s, const char *buf, size_t len,
                               const char *name, cairn_error *err) {
  cairn__line_reader r = {buf, len, 0, 0};
  cairn_status st = parse_version(&r, name, err);
  cairn__text_line l;
  field unused;
  while (st == CAIRN_OK && cairn__next_line(&r, &l)) {
    if (split_fields(l, &unused, 0) == 0) continue; /* blank line */
    row_ctx c = {name, cairn__line_no(r.line), err};
    st = add_row(s, &c, l, r.line);
  }
  return st;
}

/* ---- public --------------------------------------------------------- */

void cairn_scen_destroy(cairn_scen *s) {
  if (!s) return;
  cairn_allocator a = s->alloc;
  cairn__free(&a, s->rows, s->cap * sizeof *s->rows);
  cairn__free(&a, s->name, s->name_size);
  cairn__free(&a, s->map_name, s->map_name_size);
  cairn__free(&a, s, sizeof *s);
}

static cairn_scen *scen_new(const cairn_allocator *alloc, const char *name) {
  cairn_allocator a = cairn__allocator(alloc);
  cairn_scen *s = cairn__alloc_zero(&a, sizeof *s);
  if (!s) return NULL;
  s->alloc = a;
  size_t n = strlen(name);
  s->name = cairn__alloc(&a, n + 1);
  s->map_name = cairn__alloc(&a, 1);
  if (!s->name || !s->map_name) {
    cairn__free(&a, s->name, n + 1);
    cairn__free(&a, s->map_name, 1);
    cairn__free(&a, s, sizeof *s);
    return NULL;
  }
  memcpy(s->name, name, n + 1);
  s->name_size = n + 1;
  s->map_name[0] = '\0';
  s->map_name_size = 1;
  return s;
}

cairn_status cairn_scen_parse(const char *buf, size_t len, const char *name,
                              const cairn_allocator *alloc, cairn_scen **out,
                              cairn_error *err) {
  cairn__clear_error(err);
  if (out) *out = NULL;
  if (!name) name = "<input>";
  if (!out || (!buf && len))
    return cairn__fail(err, CAIRN_ERR_ARG, name, 0, "invalid argument");
  cairn_scen *s = scen_new(alloc, name);
  if (!s) return cairn__fail(err, CAIRN_ERR_NOMEM, name, 0, "out of memory");
  cairn_status st = parse_rows(s, buf, len, name, err);
  if (st != CAIRN_OK) {
    cairn_scen_destroy(s);
    return st;
  }
  *out = s;
  return CAIRN_OK;
}

/* Scenario files have no tight bound (10M rows of short fields, or any
 * number of blank lines); this one only stops an endless stream. */
#define SCEN_FILE_MAX \
  (SIZE_MAX / 4 < ((size_t)1 << 31) ? SIZE_MAX / 4 : ((size_t)1 << 31))

/* The file whole, then the parser: cairn_map_load's steps, which differ
 * only in the limit and the parser (whose arguments differ too). */
cairn_status cairn_scen_load(const char *path, const cairn_allocator *alloc,
                             cairn_scen **out, cairn_error *err) {
  cairn__clear_error(err);
  if (out) *out = NULL;
  if (!path || !out)
    return cairn__fail(err, CAIRN_ERR_ARG, path, 0, "invalid argument");
  cairn_allocator a = cairn__allocator(alloc);
  char *buf;
  size_t len, cap;
  cairn_status st =
      cairn__read_file(path, &a, SCEN_FILE_MAX, &buf, &len, &cap, err);
  if (st != CAIRN_OK) return st;
  st = cairn_scen_parse(buf, len, path, alloc, out, err);
  cairn__free(&a, buf, cap);
  return st;
}

size_t cairn_scen_count(const cairn_scen *s) { return s ? s->count : 0; }

const cairn_scen_entry *cairn_scen_get(const cairn_scen *s, size_t i) {
  return s && i < s->count ? &s->rows[i] : NULL;
}

const char *cairn_scen_map_name(const cairn_scen *s) {
  return s ? s->map_name : NULL;
}

static bool inside(const cairn_grid *g, cairn_point p) {
  return cairn_grid_contains(g, p.x, p.y) != 0;
}

cairn_status cairn_scen_check(const cairn_scen *s, const cairn_grid *grid,
                              cairn_error *err) {
  cairn__clear_error(err);
  if (!s || !grid)
    return cairn__fail(err, CAIRN_ERR_ARG, s ? s->name : NULL, 0,
                       "invalid argument");
  int32_t w = cairn_grid_width(grid), h = cairn_grid_height(grid);
  for (size_t i = 0; i < s->count; i++) {
    const cairn_scen_entry *e = &s->rows[i];
    int32_t line = cairn__line_no(e->line);
    if (e->map_width != w || e->map_height != h)
      return cairn__fail(err, CAIRN_ERR_MISMATCH, s->name, line,
                         "scenario map is %ldx%ld but the map is %ldx%ld",
                         (long)e->map_width, (long)e->map_height, (long)w,
                         (long)h);
    bool start_in = inside(grid, e->start);
    if (!start_in || !inside(grid, e->goal)) {
      cairn_point p = start_in ? e->goal : e->start;
      return cairn__fail(err, CAIRN_ERR_RANGE, s->name, line,
                         "%s (%ld,%ld) is outside the %ldx%ld map",
                         start_in ? "goal" : "start", (long)p.x, (long)p.y,
                         (long)w, (long)h);
    }
  }
  return CAIRN_OK;
}
