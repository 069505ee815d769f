/* Private to the core module: whole-file reading and line splitting shared
 * by the .map and .map.scen parsers (map_io.c, scen_io.c). */
#ifndef CAIRN_TEXT_IO_H
#define CAIRN_TEXT_IO_H

#include "core_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A cursor over a buffer of len bytes (not necessarily NUL-terminated). */
typedef struct cairn__line_reader {
  const char *buf;
  size_t len, pos;
  size_t line; /* number of the last line returned (0 before the first) */
} cairn__line_reader;

/* One line, pointing into the reader's buffer. */
typedef struct cairn__text_line {
  const char *s;
  size_t n; /* without the '\n' and one '\r' before it */
} cairn__text_line;

/* Next line into *out, or false at the end of the buffer. Never reads past
 * len; a final line without '\n' is still returned. */
bool cairn__next_line(cairn__line_reader *r, cairn__text_line *out);

/* A line number for messages (a buffer of >2^31 lines saturates). */
int32_t cairn__line_no(size_t line);

/* Length of shown text, clipped to 40 so a huge junk line cannot swamp a
 * message; use as the precision of "%.*s". */
int cairn__clip(size_t n);

/* Space, tab or '\r': the separators both formats accept. */
bool cairn__is_blank(char c);

/* Whether s[0..n-1] is exactly word. */
bool cairn__word_is(const char *s, size_t n, const char *word);

/* Empties err's message and line (err may be NULL). */
void cairn__clear_error(cairn_error *err);

/* Reads the whole file at path into *buf, allocated with a (size *cap,
 * *len bytes used). The buffer starts at 64 KiB and doubles; when it is full
 * and already at least max bytes, the read stops with CAIRN_ERR_TOO_LARGE
 * ("file larger than <max> bytes"), so the real cut-off is the first
 * 64 KiB * 2^k >= max: files shorter than that are read whole. Other
 * failures: CAIRN_ERR_IO ("cannot open: ...", "read error: ...") and
 * CAIRN_ERR_NOMEM. On failure *buf is NULL and *len, *cap are 0. */
cairn_status cairn__read_file(const char *path, const cairn_allocator *a,
                              size_t max, char **buf, size_t *len,
                              size_t *cap, cairn_error *err);

#endif
