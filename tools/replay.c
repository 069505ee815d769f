/* The replay recorder (see replay.h and docs/REPLAY.md). */
#include "replay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define REPLAY_MAGIC "CAIRNRP1"
#define VARINT_MAX 5 /* bytes of a 32-bit varint */

struct cli_replay {
  FILE *f;
  char *path;
  const cairn_crowd *crowd;
  const cairn_agent *agents;
  size_t n;
  int32_t w, h;
  long every, last_written;
  int32_t *prev;  /* the last frame's quantised x, y per agent */
  uint8_t *frame; /* one frame's bytes */
  bool failed;
};

/* ---- little-endian writers into a byte buffer ------------------------ */

static size_t put_u32(uint8_t *b, uint32_t v) {
  for (int k = 0; k < 4; k++) b[k] = (uint8_t)(v >> (8 * k));
  return 4;
}

static size_t put_varint(uint8_t *b, uint32_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    b[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  b[n++] = (uint8_t)v;
  return n;
}

/* Zigzag: small deltas of either sign give small varints. */
static uint32_t zigzag(int32_t v) {
  return ((uint32_t)v << 1) ^ (uint32_t)(v < 0 ? -1 : 0);
}

static void emit(cli_replay *r, const void *p, size_t n) {
  if (!r->failed && fwrite(p, 1, n, r->f) != n) r->failed = true;
}

static void emit_u32(cli_replay *r, uint32_t v) {
  uint8_t b[4];
  emit(r, b, put_u32(b, v));
}

/* ---- header ---------------------------------------------------------- */

/* The map's glyphs, row by row (the grid's walls where the file has no
 * glyph): the grid keeps costs, and the viewer shades terrain. */
static char *read_glyphs(const cli_replay_scene *s) {
  int32_t w = cairn_grid_width(s->grid), h = cairn_grid_height(s->grid);
  char *g = malloc((size_t)w * (size_t)h);
  if (!g) return NULL;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      g[(size_t)y * (size_t)w + (size_t)x] = cairn_grid_cost(s->grid, x, y) ? '.' : '@';
  FILE *f = fopen(s->map_path, "rb");
  char *line = malloc(CAIRN_GRID_MAX_SIDE + 8);
  if (!f || !line) {
    if (f) fclose(f);
    free(line);
    return g; /* walls alone */
  }
  bool in_map = false;
  for (int32_t y = 0; y < h && fgets(line, CAIRN_GRID_MAX_SIDE + 8, f);) {
    if (!in_map) {
      in_map = strncmp(line, "map", 3) == 0;
      continue;
    }
    for (int32_t x = 0; x < w && line[x] && line[x] != '\n' && line[x] != '\r'; x++)
      g[(size_t)y * (size_t)w + (size_t)x] = line[x];
    y++;
  }
  fclose(f);
  free(line);
  return g;
}

/* The glyphs as (varint run, glyph) pairs into buf; returns the bytes. */
static size_t rle(const char *g, size_t cells, uint8_t *buf) {
  size_t n = 0;
  for (size_t i = 0; i < cells;) {
    size_t j = i;
    while (j < cells && g[j] == g[i] && j - i < UINT32_MAX) j++;
    n += put_varint(buf + n, (uint32_t)(j - i));
    buf[n++] = (uint8_t)g[i];
    i = j;
  }
  return n;
}

static void emit_points(cli_replay *r, const cairn_point *p, size_t n) {
  emit_u32(r, (uint32_t)n);
  for (size_t k = 0; k < n; k++) {
    emit_u32(r, (uint32_t)p[k].x);
    emit_u32(r, (uint32_t)p[k].y);
  }
}

static cairn_status write_header(cli_replay *r, const cli_replay_scene *s) {
  int32_t w = cairn_grid_width(s->grid), h = cairn_grid_height(s->grid);
  size_t cells = (size_t)w * (size_t)h;
  char *glyphs = read_glyphs(s);
  uint8_t *buf = malloc(cells * (VARINT_MAX + 1) + r->n);
  if (!glyphs || !buf) {
    free(glyphs);
    free(buf);
    return CAIRN_ERR_NOMEM;
  }
  float dt = s->dt;
  uint32_t dt_bits;
  memcpy(&dt_bits, &dt, sizeof dt_bits);
  emit(r, REPLAY_MAGIC, 8);
  uint32_t head[] = {(uint32_t)w, (uint32_t)h, (uint32_t)r->n, (uint32_t)r->every,
                     dt_bits, CLI_REPLAY_SCALE, (uint32_t)s->torch_radius};
  for (size_t k = 0; k < sizeof head / sizeof *head; k++) emit_u32(r, head[k]);
  emit_points(r, s->gates, s->n_gates);
  emit_points(r, s->torches, s->n_torches);
  size_t bytes = rle(glyphs, cells, buf);
  emit_u32(r, (uint32_t)bytes);
  emit(r, buf, bytes);
  /* radii in 1/256 cell: the viewer draws each disc at its size */
  for (size_t k = 0; k < r->n; k++) {
    cairn_agent_info info;
    buf[k] = 0;
    if (cairn_crowd_get(r->crowd, r->agents[k], &info) == CAIRN_OK)
      buf[k] = (uint8_t)lroundf(fminf(info.radius, 0.99f) * 256.0f);
  }
  emit(r, buf, r->n);
  free(glyphs);
  free(buf);
  return r->failed ? CAIRN_ERR_IO : CAIRN_OK;
}

/* ---- frames ---------------------------------------------------------- */

static int32_t quantise(float v, int32_t side) {
  if (!isfinite(v)) return -1;
  double q = floor((double)v * CLI_REPLAY_SCALE + 0.5);
  double hi = (double)side * CLI_REPLAY_SCALE;
  return (int32_t)(q < 0 ? 0 : q > hi ? hi : q);
}

static cairn_status write_frame(cli_replay *r, long tick) {
  size_t n = 8;
  for (size_t k = 0; k < r->n; k++) {
    cairn_agent_info info;
    int32_t x = r->prev[2 * k], y = r->prev[2 * k + 1];
    uint8_t state = CLI_REPLAY_GONE;
    if (cairn_crowd_get(r->crowd, r->agents[k], &info) == CAIRN_OK) {
      int32_t qx = quantise(info.x, r->w), qy = quantise(info.y, r->h);
      if (qx >= 0 && qy >= 0) {
        x = qx;
        y = qy;
        state = (uint8_t)info.state;
      }
    }
    n += put_varint(r->frame + n, zigzag(x - r->prev[2 * k]));
    n += put_varint(r->frame + n, zigzag(y - r->prev[2 * k + 1]));
    r->frame[n++] = state;
    r->prev[2 * k] = x;
    r->prev[2 * k + 1] = y;
  }
  put_u32(r->frame, (uint32_t)(n - 4));
  put_u32(r->frame + 4, (uint32_t)tick);
  emit(r, r->frame, n);
  r->last_written = tick;
  return r->failed ? CAIRN_ERR_IO : CAIRN_OK;
}

/* ---- the interface --------------------------------------------------- */

static void release(cli_replay *r) {
  if (r->f) fclose(r->f);
  free(r->path);
  free(r->prev);
  free(r->frame);
  free(r);
}

cairn_status cli_replay_open(const char *path, long every, const cli_replay_scene *s,
                             const cairn_crowd *c, const cairn_agent *agents,
                             size_t n, cli_replay **out) {
  *out = NULL;
  cli_replay *r = calloc(1, sizeof *r);
  size_t len = strlen(path) + 1;
  if (!r || !(r->path = malloc(len)) || !(r->prev = calloc(2 * n + 2, sizeof *r->prev)) ||
      !(r->frame = malloc(8 + n * (2 * VARINT_MAX + 1)))) {
    if (r) release(r);
    cli_error("%s: out of memory for the replay", path);
    return CAIRN_ERR_NOMEM;
  }
  memcpy(r->path, path, len);
  r->crowd = c;
  r->agents = agents;
  r->n = n;
  r->w = cairn_grid_width(s->grid);
  r->h = cairn_grid_height(s->grid);
  r->every = every;
  if (!(r->f = fopen(path, "wb"))) {
    cli_error("%s: cannot create the replay file", path);
    release(r);
    return CAIRN_ERR_IO;
  }
  cairn_status st = write_header(r, s);
  if (st == CAIRN_OK) st = write_frame(r, 0);
  if (st != CAIRN_OK) {
    cli_error("%s: cannot write the replay: %s", path, cairn_status_str(st));
    release(r);
    return st;
  }
  *out = r;
  return CAIRN_OK;
}

cairn_status cli_replay_tick(cli_replay *r, long tick) {
  if (tick % r->every) return CAIRN_OK;
  cairn_status st = write_frame(r, tick);
  if (st != CAIRN_OK) cli_error("%s: cannot write the replay", r->path);
  return st;
}

cairn_status cli_replay_close(cli_replay *r, long last_tick) {
  if (!r) return CAIRN_OK;
  if (last_tick > r->last_written) write_frame(r, last_tick);
  bool ok = !r->failed;
  ok &= fclose(r->f) == 0;
  r->f = NULL;
  if (!ok) cli_error("%s: cannot write the replay", r->path);
  release(r);
  return ok ? CAIRN_OK : CAIRN_ERR_IO;
}
