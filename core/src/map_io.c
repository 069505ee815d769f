/* Moving AI .map files: terrain tables, parser, loader and writer.
 *
 * The parser makes two passes over the body: the first checks every row
 * (count, length, characters) without allocating, so a malformed or
 * truncated file is rejected before the grid (up to ~1.3 GB for the largest
 * side) is created; the second fills the grid. Both are plain table loops. */
#include "core_internal.h"
#include "text_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- terrain -------------------------------------------------------- */

void cairn_terrain_movingai(cairn_terrain *t) {
  if (!t) return;
  for (int c = 0; c < 256; c++) {
    t->cost_of[c] = -1;
    t->char_of[c] = 0;
  }
  t->cost_of['.'] = t->cost_of['G'] = t->cost_of['S'] = 1;
  t->cost_of['@'] = t->cost_of['O'] = t->cost_of['T'] = t->cost_of['W'] = 0;
  /* Digits are cairn's own terrain glyphs (Moving AI files never hold one,
   * so every shared map reads the same): '1'..'9' cost 1..9, so a terrain
   * map cairn writes (cairn gen --kind terrain) reads back with its costs. */
  for (int k = 1; k <= 9; k++) {
    t->cost_of['0' + k] = (int16_t)k;
    t->char_of[k] = (char)('0' + k);
  }
  t->char_of[1] = '.'; /* cost 1 keeps the Moving AI glyph */
  t->char_of[0] = '@';
}

cairn_status cairn_terrain_set(cairn_terrain *t, char c, int cost) {
  unsigned char u = (unsigned char)c;
  /* Printable and not a space: rows are compared by exact length, and a
   * space glyph would be invisible and easily trimmed by editors. */
  if (!t || u < 0x21 || u > 0x7e || cost < 0 || cost > 255)
    return CAIRN_ERR_ARG;
  int old = t->cost_of[u];
  t->cost_of[u] = (int16_t)cost;
  t->char_of[cost] = c;
  /* If c was the writer's char for its old cost, it no longer reads back as
   * that cost: hand the old cost to another char that does, if any. */
  if (old >= 0 && old <= 255 && old != cost && t->char_of[old] == c) {
    t->char_of[old] = 0;
    for (int k = 0x21; k <= 0x7e; k++) {
      if (t->cost_of[k] == old) {
        t->char_of[old] = (char)k;
        break;
      }
    }
  }
  return CAIRN_OK;
}

static bool is_blank(cairn__text_line l) {
  for (size_t i = 0; i < l.n; i++)
    if (!cairn__is_blank(l.s[i])) return false;
  return true;
}

/* ---- header --------------------------------------------------------- */

typedef struct header_field {
  const char *key, *val;
  size_t key_n, val_n;
} header_field;

/* Splits "key value" (outer blanks trimmed; val is everything after the
 * first run of blanks, so "height 3 4" gives val "3 4", which then fails). */
static header_field split_header(cairn__text_line l) {
  size_t a = 0, b = l.n;
  while (a < b && cairn__is_blank(l.s[a])) a++;
  while (b > a && cairn__is_blank(l.s[b - 1])) b--;
  header_field f = {l.s + a, l.s + b, 0, 0};
  size_t k = a;
  while (k < b && !cairn__is_blank(l.s[k])) k++;
  f.key_n = k - a;
  while (k < b && cairn__is_blank(l.s[k])) k++;
  f.val = l.s + k;
  f.val_n = b - k;
  return f;
}

/* A side: decimal digits only, 1..CAIRN_GRID_MAX_SIDE. */
static cairn_status parse_side(const header_field *f, const char *name,
                               int32_t line, int32_t *out, cairn_error *err) {
  long v = 0;
  size_t i = 0;
  for (; i < f->val_n && f->val[i] >= '0' && f->val[i] <= '9'; i++)
    if (v <= CAIRN_GRID_MAX_SIDE) v = v * 10 + (f->val[i] - '0');
  if (f->val_n == 0 || i != f->val_n || v == 0)
    return cairn__fail(err, CAIRN_ERR_PARSE, name, line,
                       "%.*s must be a positive integer, got '%.*s'",
                       (int)f->key_n, f->key, cairn__clip(f->val_n), f->val);
  if (v > CAIRN_GRID_MAX_SIDE)
    return cairn__fail(err, CAIRN_ERR_TOO_LARGE, name, line,
                       "%.*s %.*s is above the limit of %d", (int)f->key_n,
                       f->key, cairn__clip(f->val_n), f->val,
                       CAIRN_GRID_MAX_SIDE);
  *out = (int32_t)v;
  return CAIRN_OK;
}

static cairn_status parse_type_line(cairn__line_reader *r, const char *name,
                                    cairn_error *err) {
  cairn__text_line l;
  if (!cairn__next_line(r, &l))
    return cairn__fail(err, CAIRN_ERR_PARSE, name, 1,
                       "empty file: expected 'type octile'");
  header_field f = split_header(l);
  int32_t line = cairn__line_no(r->line);
  if (!cairn__word_is(f.key, f.key_n, "type"))
    return cairn__fail(err, CAIRN_ERR_PARSE, name, line,
                       "expected 'type octile', got '%.*s'", cairn__clip(l.n),
                       l.s);
  if (!cairn__word_is(f.val, f.val_n, "octile"))
    return cairn__fail(err, CAIRN_ERR_PARSE, name, line,
                       "unknown map type '%.*s' (only 'octile' is supported)",
                       cairn__clip(f.val_n), f.val);
  return CAIRN_OK;
}

/* Reads "height H" and "width W" in either order, up to the "map" line. */
static cairn_status parse_header(cairn__line_reader *r, const char *name,
                                 int32_t *w, int32_t *h, cairn_error *err) {
  cairn_status st = parse_type_line(r, name, err);
  if (st != CAIRN_OK) return st;
  *w = *h = 0;
  for (;;) {
    cairn__text_line l;
    if (!cairn__next_line(r, &l))
      return cairn__fail(err, CAIRN_ERR_PARSE, name,
                         cairn__line_no(r->line + 1),
                         "unexpected end of file in the header: expected %s",
                         !*h ? "'height'" : !*w ? "'width'" : "'map'");
    header_field f = split_header(l);
    int32_t line = cairn__line_no(r->line);
    bool is_h = cairn__word_is(f.key, f.key_n, "height");
    if (is_h || cairn__word_is(f.key, f.key_n, "width")) {
      int32_t *side = is_h ? h : w;
      if (*side)
        return cairn__fail(err, CAIRN_ERR_PARSE, name, line,
                           "duplicate '%s' line", is_h ? "height" : "width");
      st = parse_side(&f, name, line, side, err);
      if (st != CAIRN_OK) return st;
    } else if (cairn__word_is(f.key, f.key_n, "map") && f.val_n == 0) {
      if (!*h || !*w)
        return cairn__fail(err, CAIRN_ERR_PARSE, name, line,
                           "missing '%s' line before 'map'",
                           !*h ? "height" : "width");
      return CAIRN_OK;
    } else {
      return cairn__fail(err, CAIRN_ERR_PARSE, name, line,
                         "unknown header line '%.*s' (expected height, "
                         "width or map)", cairn__clip(l.n), l.s);
    }
  }
}

/* ---- body ----------------------------------------------------------- */

/* Cost per character, with ok[c] = 0 for rejected characters. */
typedef struct char_table {
  uint8_t cost[256];
  uint8_t ok[256];
} char_table;

static void make_table(const cairn_terrain *t, char_table *tab) {
  for (int c = 0; c < 256; c++) {
    int v = t->cost_of[c];
    tab->ok[c] = (uint8_t)(v >= 0 && v <= 255);
    tab->cost[c] = tab->ok[c] ? (uint8_t)v : 0;
  }
}

static cairn_status bad_char(const char *name, int32_t line, unsigned char c,
                             size_t col, cairn_error *err) {
  if (c >= 0x21 && c <= 0x7e)
    return cairn__fail(err, CAIRN_ERR_PARSE, name, line,
                       "unknown map character '%c' at column %zu", (char)c,
                       col);
  return cairn__fail(err, CAIRN_ERR_PARSE, name, line,
                     "unknown map character 0x%02x at column %zu",
                     (unsigned)c, col);
}

/* Pass 1: exactly h rows of w known characters, then only blank lines. */
static cairn_status check_body(cairn__line_reader r, const char *name,
                               int32_t w, int32_t h, const char_table *tab,
                               cairn_error *err) {
  cairn__text_line l;
  for (int32_t y = 0; y < h; y++) {
    if (!cairn__next_line(&r, &l))
      return cairn__fail(err, CAIRN_ERR_PARSE, name,
                         cairn__line_no(r.line + 1),
                         "unexpected end of file: expected map row %ld of %ld",
                         (long)y + 1, (long)h);
    int32_t line = cairn__line_no(r.line);
    if (l.n != (size_t)w)
      return cairn__fail(err, CAIRN_ERR_PARSE, name, line,
                         "map row %ld is %zu characters long, expected width "
                         "%ld", (long)y + 1, l.n, (long)w);
    const unsigned char *s = (const unsigned char *)l.s;
    unsigned all_ok = 1;
    for (size_t x = 0; x < l.n; x++) all_ok &= tab->ok[s[x]];
    if (!all_ok) {
      size_t x = 0;
      while (tab->ok[s[x]]) x++;
      return bad_char(name, line, s[x], x + 1, err);
    }
  }
  while (cairn__next_line(&r, &l))
    if (!is_blank(l))
      return cairn__fail(err, CAIRN_ERR_PARSE, name, cairn__line_no(r.line),
                         "extra data after the last map row: '%.*s'",
                         cairn__clip(l.n), l.s);
  return CAIRN_OK;
}

/* Pass 2: the body is known to be well formed. */
static void fill_grid(cairn__line_reader r, cairn_grid *g,
                      const char_table *tab) {
  size_t passable = 0;
  const size_t w = (size_t)g->width;
  for (int32_t y = 0; y < g->height; y++) {
    cairn__text_line l = {NULL, 0};
    cairn__next_line(&r, &l); /* cannot fail: check_body saw these rows */
    const unsigned char *s = (const unsigned char *)l.s;
    uint32_t i = cairn__grid_index(g, 0, y);
    uint8_t *cost = g->cost + i;
    memcpy(g->glyph + i, s, w);
    for (size_t x = 0; x < w; x++) {
      cost[x] = tab->cost[s[x]];
      passable += cost[x] != 0;
    }
  }
  g->passable = passable;
  cairn__grid_count_costs(g);
  cairn__grid_refresh_moves(g);
}

cairn_status cairn_map_parse(const char *buf, size_t len, const char *name,
                             const cairn_terrain *terrain,
                             const cairn_allocator *alloc, cairn_grid **out,
                             cairn_error *err) {
  cairn__clear_error(err);
  if (out) *out = NULL;
  if (!out || (!buf && len))
    return cairn__fail(err, CAIRN_ERR_ARG, name, 0, "invalid argument");
  cairn_terrain mai;
  if (!terrain) {
    cairn_terrain_movingai(&mai);
    terrain = &mai;
  }
  char_table tab;
  make_table(terrain, &tab);
  cairn__line_reader r = {buf, len, 0, 0};
  int32_t w, h;
  cairn_status st = parse_header(&r, name, &w, &h, err);
  if (st == CAIRN_OK) st = check_body(r, name, w, h, &tab, err);
  if (st != CAIRN_OK) return st;
  cairn_grid *g = NULL;
  st = cairn_grid_create(w, h, 0, alloc, &g);
  if (st == CAIRN_OK) st = cairn__grid_alloc_glyphs(g);
  if (st == CAIRN_OK) {
    fill_grid(r, g, &tab);
    st = cairn_grid_update_islands(g);
  }
  if (st != CAIRN_OK) {
    cairn_grid_destroy(g);
    return cairn__fail(err, st, name, 0, "%s", cairn_status_str(st));
  }
  *out = g;
  return CAIRN_OK;
}

/* ---- loading -------------------------------------------------------- */

/* Largest file accepted: the biggest map with CRLF endings, plus slack for
 * a header and trailing blank lines. Stops a read of an endless stream. */
#define MAP_FILE_MAX                                                  \
  ((size_t)CAIRN_GRID_MAX_SIDE * ((size_t)CAIRN_GRID_MAX_SIDE + 2u) + \
   ((size_t)1 << 20))

cairn_status cairn_map_load(const char *path, const cairn_terrain *terrain,
                            const cairn_allocator *alloc, cairn_grid **out,
                            cairn_error *err) {
  cairn__clear_error(err);
  if (out) *out = NULL;
  if (!path || !out)
    return cairn__fail(err, CAIRN_ERR_ARG, path, 0, "invalid argument");
  cairn_allocator a = cairn__allocator(alloc);
  char *buf;
  size_t len, cap;
  cairn_status st =
      cairn__read_file(path, &a, MAP_FILE_MAX, &buf, &len, &cap, err);
  if (st != CAIRN_OK) return st;
  st = cairn_map_parse(buf, len, path, terrain, alloc, out, err);
  cairn__free(&a, buf, cap);
  return st;
}

/* ---- saving --------------------------------------------------------- */

/* Opens a fresh file beside path ("path.tmpN"), exclusively so two writers
 * never share one. *tmp is allocated with a (size *tmp_size). */
static FILE *open_temp(const char *path, const cairn_allocator *a, char **tmp,
                       size_t *tmp_size) {
  *tmp_size = strlen(path) + 16;
  *tmp = cairn__alloc(a, *tmp_size);
  if (!*tmp) return NULL;
  for (unsigned n = 0; n < 1000; n++) {
    snprintf(*tmp, *tmp_size, "%s.tmp%u", path, n);
    errno = 0;
    FILE *f = fopen(*tmp, "wbx");
    if (f || errno != EEXIST) return f;
  }
  return NULL;
}

/* Fills one output row; returns -1 or the x of a cell with no character. */
static int32_t make_row(const cairn_grid *g, const cairn_terrain *t,
                        int32_t y, char *row) {
  uint32_t i = cairn__grid_index(g, 0, y);
  for (int32_t x = 0; x < g->width; x++, i++) {
    uint8_t cost = g->cost[i];
    unsigned char gl = g->glyph ? g->glyph[i] : 0;
    if (gl && t->cost_of[gl] == cost) {
      row[x] = (char)gl;
      continue;
    }
    char c = t->char_of[cost];
    /* The fallback must read back as the same cost, which also keeps '\n'
     * and other line-breaking characters out of the rows. */
    if (!c || t->cost_of[(unsigned char)c] != cost) return x;
    row[x] = c;
  }
  row[g->width] = '\n';
  return -1;
}

static cairn_status write_rows(const cairn_grid *g, const cairn_terrain *t,
                               FILE *f, const char *path, char *row,
                               cairn_error *err) {
  if (fprintf(f, "type octile\nheight %ld\nwidth %ld\nmap\n", (long)g->height,
              (long)g->width) < 0)
    return cairn__fail(err, CAIRN_ERR_IO, path, 0, "cannot write: %s",
                       strerror(errno));
  for (int32_t y = 0; y < g->height; y++) {
    int32_t x = make_row(g, t, y, row);
    if (x >= 0) {
      unsigned cost = g->cost[cairn__grid_index(g, x, y)];
      return cairn__fail(err, CAIRN_ERR_ARG, path, 0,
                         "cell (%ld,%ld) has cost %u, which the terrain has "
                         "no character for", (long)x, (long)y, cost);
    }
    size_t n = (size_t)g->width + 1;
    if (fwrite(row, 1, n, f) != n)
      return cairn__fail(err, CAIRN_ERR_IO, path, 0, "cannot write: %s",
                         strerror(errno));
  }
  return CAIRN_OK;
}

/* Closes f, then moves tmp over path (on success) or deletes it. */
static cairn_status finish_temp(FILE *f, const char *tmp, const char *path,
                                cairn_status st, cairn_error *err) {
  if (fclose(f) != 0 && st == CAIRN_OK)
    st = cairn__fail(err, CAIRN_ERR_IO, path, 0, "cannot write: %s",
                     strerror(errno));
  if (st == CAIRN_OK && rename(tmp, path) != 0) {
#ifdef _WIN32
    /* Windows rename does not replace an existing file. */
    if (remove(path) == 0 && rename(tmp, path) == 0) return CAIRN_OK;
#endif
    st = cairn__fail(err, CAIRN_ERR_IO, path, 0, "cannot rename %s: %s", tmp,
                     strerror(errno));
  }
  if (st != CAIRN_OK) remove(tmp);
  return st;
}

cairn_status cairn_map_save(const cairn_grid *grid, const char *path,
                            const cairn_terrain *terrain, cairn_error *err) {
  cairn__clear_error(err);
  if (!grid || !path)
    return cairn__fail(err, CAIRN_ERR_ARG, path, 0, "invalid argument");
  cairn_terrain mai;
  if (!terrain) {
    cairn_terrain_movingai(&mai);
    terrain = &mai;
  }
  const cairn_allocator *a = &grid->alloc;
  size_t row_size = (size_t)grid->width + 1;
  char *row = cairn__alloc(a, row_size);
  char *tmp = NULL;
  size_t tmp_size = 0;
  cairn_status st;
  FILE *f = row ? open_temp(path, a, &tmp, &tmp_size) : NULL;
  if (!row || !tmp) {
    st = cairn__fail(err, CAIRN_ERR_NOMEM, path, 0, "out of memory");
  } else if (!f) {
    st = cairn__fail(err, CAIRN_ERR_IO, path, 0, "cannot create %s: %s", tmp,
                     strerror(errno));
  } else {
    st = write_rows(grid, terrain, f, path, row, err);
    st = finish_temp(f, tmp, path, st, err);
  }
  cairn__free(a, tmp, tmp_size);
  cairn__free(a, row, row_size);
  return st;
}
