/* Whole-file reading and line splitting for the text formats. */
#include "text_io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

bool cairn__next_line(cairn__line_reader *r, cairn__text_line *out) {
  if (r->pos >= r->len) return false;
  const char *start = r->buf + r->pos;
  size_t rest = r->len - r->pos;
  const char *nl = memchr(start, '\n', rest);
  size_t n = nl ? (size_t)(nl - start) : rest;
  r->pos += nl ? n + 1 : n;
  r->line++;
  if (n && start[n - 1] == '\r') n--;
  out->s = start;
  out->n = n;
  return true;
}

int32_t cairn__line_no(size_t line) {
  return line > INT32_MAX ? INT32_MAX : (int32_t)line;
}

int cairn__clip(size_t n) { return n > 40 ? 40 : (int)n; }

bool cairn__is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool cairn__word_is(const char *s, size_t n, const char *word) {
  return strlen(word) == n && memcmp(s, word, n) == 0;
}

void cairn__clear_error(cairn_error *err) {
  if (!err) return;
  err->message[0] = '\0';
  err->line = 0;
}

cairn_status cairn__read_file(const char *path, const cairn_allocator *a,
                              size_t max, char **buf, size_t *len,
                              size_t *cap, cairn_error *err) {
  *buf = NULL;
  *len = *cap = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return cairn__fail(err, CAIRN_ERR_IO, path, 0, "cannot open: %s",
                       strerror(errno));
  cairn_status st = CAIRN_OK;
  for (;;) {
    if (*len == *cap) {
      /* never hold more than max + 1 bytes: one past the limit proves the
       * file too large without reading the rest of it */
      if (*cap > max) {
        st = cairn__fail(err, CAIRN_ERR_TOO_LARGE, path, 0,
                         "file larger than %zu bytes", max);
        break;
      }
      size_t ncap = *cap ? *cap * 2 : 65536;
      if (ncap > max + 1) ncap = max + 1;
      char *p = cairn__realloc(a, *buf, *cap, ncap);
      if (!p) {
        st = cairn__fail(err, CAIRN_ERR_NOMEM, path, 0,
                         "out of memory reading the file");
        break;
      }
      *buf = p;
      *cap = ncap;
    }
    size_t got = fread(*buf + *len, 1, *cap - *len, f);
    *len += got;
    if (got == 0) {
      if (ferror(f))
        st = cairn__fail(err, CAIRN_ERR_IO, path, 0, "read error: %s",
                         strerror(errno));
      break;
    }
  }
  fclose(f);
  if (st != CAIRN_OK) {
    cairn__free(a, *buf, *cap);
    *buf = NULL;
    *len = *cap = 0;
  }
  return st;
}
