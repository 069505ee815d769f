/* The replay recorder (cairn/crowd_replay.h; the format is docs/REPLAY.md):
 * the header once, then a frame every K ticks, read straight from the
 * crowd's arrays. Every buffer is sized at create: a frame is built in one
 * buffer and handed on in one write. */
#include "crowd_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define REPLAY_MAGIC "CAIRNRP1"
#define REPLAY_SCALE 64       /* default position units per cell */
#define VARINT_MAX 5          /* bytes of a 32-bit varint */
#define AGENT_MAX (2 * VARINT_MAX + 1) /* a frame's bytes for one agent */
#define FRAME_HEAD 8          /* a frame's size and tick */
#define STAGE_MIN 65536       /* the header goes out in pieces this big */
#define WRITER_NAME "replay writer" /* messages' name without a path */

struct cairn_replay {
  cairn_allocator alloc;
  const cairn_crowd *crowd;
  FILE *f;                     /* the file, or NULL: write */
  cairn_replay_write_fn write;
  void *user;
  char *name;                  /* the path (or WRITER_NAME), for messages */
  size_t name_size;
  cairn_agent *agents;         /* the recorded handles, or NULL: every slot */
  uint32_t n;                  /* agents recorded */
  uint32_t every, scale;
  int32_t *prev;               /* the last frame's quantised x, y per agent */
  uint8_t *buf;                /* a frame, or a piece of the header */
  size_t cap, len;
  uint64_t last;               /* the tick of the last frame */
  cairn_status failed;         /* the first write error, sticky */
  int sys_errno;               /* errno of a failed file write */
};

cairn_replay_opts cairn_replay_defaults(void) {
  cairn_replay_opts o;
  memset(&o, 0, sizeof o);
  o.every = 1;
  o.scale = REPLAY_SCALE;
  return o;
}

/* Fills err (when set) with "name: problem" and returns st. */
static cairn_status CAIRN_PRINTF(4, 5)
    fail(cairn_error *err, cairn_status st, const char *name, const char *fmt, ...) {
  if (!err) return st;
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  snprintf(err->message, sizeof err->message, "%s: %s", name, detail);
  err->line = 0;
  return st;
}

/* ---- bytes out ------------------------------------------------------- */

/* Hands n bytes to the file or the writer; the first failure sticks and
 * every later write is skipped. */
static void emit(cairn_replay *r, const void *p, size_t n) {
  if (r->failed != CAIRN_OK || n == 0) return;
  if (r->f) {
    errno = 0;
    if (fwrite(p, 1, n, r->f) != n) {
      r->failed = CAIRN_ERR_IO;
      r->sys_errno = errno;
    }
    return;
  }
  cairn_status st = r->write(r->user, p, n);
  if (st != CAIRN_OK) r->failed = st < 0 ? st : CAIRN_ERR_IO;
}

/* The sticky write error as a status, with its message. */
static cairn_status write_error(const cairn_replay *r, cairn_error *err) {
  if (r->failed == CAIRN_OK) return CAIRN_OK;
  if (!r->f && r->write)
    return fail(err, r->failed, r->name, "the writer failed: %s",
                cairn_status_str(r->failed));
  return fail(err, r->failed, r->name, "cannot write the replay: %s",
              r->sys_errno ? strerror(r->sys_errno) : "write error");
}

static void flush(cairn_replay *r) {
  emit(r, r->buf, r->len);
  r->len = 0;
}

/* Appends to the staged header, handing it on each time the buffer fills. */
static void stage(cairn_replay *r, const void *p, size_t n) {
  const uint8_t *b = p;
  while (n) {
    size_t k = r->cap - r->len < n ? r->cap - r->len : n;
    memcpy(r->buf + r->len, b, k);
    r->len += k;
    b += k;
    n -= k;
    if (r->len == r->cap) flush(r);
  }
}

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

static void stage_u32(cairn_replay *r, uint32_t v) {
  uint8_t b[4];
  stage(r, b, put_u32(b, v));
}

/* Zigzag: small deltas of either sign give small varints. */
static uint32_t zigzag(int32_t v) {
  return ((uint32_t)v << 1) ^ (uint32_t)(v < 0 ? -1 : 0);
}

/* ---- the header ------------------------------------------------------ */

/* Cell i's glyph: the caller's, or the walk grid's wall or floor. */
static uint8_t glyph_at(const cairn_crowd *c, const char *glyphs, size_t i) {
  if (glyphs) return (uint8_t)glyphs[i];
  int32_t x = (int32_t)(i % (size_t)c->width), y = (int32_t)(i / (size_t)c->width);
  return cairn__crowd_blocked(c, x, y) ? '@' : '.';
}

/* The map as (varint run, glyph) pairs: with out NULL, only their bytes
 * are counted (the header gives the count first). */
static size_t map_rle(cairn_replay *r, const char *glyphs, int out) {
  const cairn_crowd *c = r->crowd;
  size_t cells = (size_t)c->width * (size_t)c->height, bytes = 0;
  for (size_t i = 0; i < cells;) {
    uint8_t g = glyph_at(c, glyphs, i);
    size_t j = i + 1;
    while (j < cells && glyph_at(c, glyphs, j) == g) j++;
    uint8_t pair[VARINT_MAX + 1];
    size_t n = put_varint(pair, (uint32_t)(j - i));
    pair[n++] = g;
    if (out) stage(r, pair, n);
    bytes += n;
    i = j;
  }
  return bytes;
}

static void stage_points(cairn_replay *r, const cairn_point *p, size_t n) {
  stage_u32(r, (uint32_t)n);
  for (size_t k = 0; k < n; k++) {
    stage_u32(r, (uint32_t)p[k].x);
    stage_u32(r, (uint32_t)p[k].y);
  }
}

/* The slot recorded agent k stands in now, or UINT32_MAX when it is not
 * there. */
static uint32_t slot_now(const cairn_replay *r, uint32_t k) {
  const cairn_crowd *c = r->crowd;
  if (!r->agents) return k < c->high && c->alive[k] ? k : UINT32_MAX;
  uint32_t s = (uint32_t)(r->agents[k] & 0xffffffffu), g = (uint32_t)(r->agents[k] >> 32);
  return s < c->high && c->alive[s] && c->gen[s] == g ? s : UINT32_MAX;
}

/* Each agent's radius in 1/256 cell (0: no agent in the slot yet). */
static void stage_radii(cairn_replay *r) {
  for (uint32_t k = 0; k < r->n; k++) {
    uint32_t s = slot_now(r, k);
    float rad = s == UINT32_MAX ? 0.0f : r->crowd->radius[s];
    uint8_t b = (uint8_t)lroundf(fminf(rad, 0.99f) * 256.0f);
    stage(r, &b, 1);
  }
}

static void write_header(cairn_replay *r, const cairn_replay_opts *o) {
  const cairn_crowd *c = r->crowd;
  uint32_t dt_bits;
  memcpy(&dt_bits, &c->opts.dt, sizeof dt_bits);
  stage(r, REPLAY_MAGIC, 8);
  const uint32_t head[] = {(uint32_t)c->width, (uint32_t)c->height, r->n, r->every,
                           dt_bits, r->scale, o->torch_radius};
  for (size_t k = 0; k < sizeof head / sizeof *head; k++) stage_u32(r, head[k]);
  stage_points(r, o->gates, o->n_gates);
  stage_points(r, o->torches, o->n_torches);
  stage_u32(r, (uint32_t)map_rle(r, o->glyphs, 0));
  map_rle(r, o->glyphs, 1);
  stage_radii(r);
  flush(r);
}

/* ---- frames ---------------------------------------------------------- */

/* v in 1/scale cell, clamped to [0, side]; -1 when not finite. */
static int32_t quantise(float v, int32_t side, uint32_t scale) {
  if (!cairn__finite(v)) return -1;
  double q = floor((double)v * scale + 0.5);
  double hi = (double)side * scale;
  return (int32_t)(q < 0 ? 0 : q > hi ? hi : q);
}

/* Agent k's bytes into b: its move since the last frame and its state (a
 * gone agent stays where it was last seen). */
static size_t put_agent(cairn_replay *r, uint32_t k, uint8_t *b) {
  const cairn_crowd *c = r->crowd;
  int32_t *prev = r->prev + 2 * (size_t)k;
  int32_t x = prev[0], y = prev[1];
  uint8_t state = CAIRN_REPLAY_GONE;
  uint32_t s = slot_now(r, k);
  if (s != UINT32_MAX) {
    int32_t qx = quantise(c->x[s], c->width, r->scale), qy = quantise(c->y[s], c->height, r->scale);
    if (qx >= 0 && qy >= 0) {
      x = qx;
      y = qy;
      state = c->state[s];
    }
  }
  size_t n = put_varint(b, zigzag(x - prev[0]));
  n += put_varint(b + n, zigzag(y - prev[1]));
  b[n++] = state;
  prev[0] = x;
  prev[1] = y;
  return n;
}

static void write_frame(cairn_replay *r) {
  size_t n = FRAME_HEAD;
  for (uint32_t k = 0; k < r->n; k++) n += put_agent(r, k, r->buf + n);
  put_u32(r->buf, (uint32_t)(n - 4));
  put_u32(r->buf + 4, (uint32_t)r->crowd->tick);
  emit(r, r->buf, n);
  r->last = r->crowd->tick;
}

/* ---- checks ---------------------------------------------------------- */

static cairn_status check_points(const cairn_crowd *c, const cairn_point *p, size_t n,
                                 const char *what, const char *name, cairn_error *err) {
  size_t cells = (size_t)c->width * (size_t)c->height;
  if (n && !p) return fail(err, CAIRN_ERR_ARG, name, "%zu %s but no list", n, what);
  if (n > cells)
    return fail(err, CAIRN_ERR_ARG, name, "%zu %s, more than the %zu cells", n, what, cells);
  for (size_t k = 0; k < n; k++)
    if (p[k].x < 0 || p[k].y < 0 || p[k].x >= c->width || p[k].y >= c->height)
      return fail(err, CAIRN_ERR_RANGE, name, "%s %zu (%ld,%ld) is off the %ldx%ld map", what,
                  k, (long)p[k].x, (long)p[k].y, (long)c->width, (long)c->height);
  return CAIRN_OK;
}

static cairn_status check_agents(const cairn_crowd *c, const cairn_replay_opts *o,
                                 const char *name, cairn_error *err) {
  if (!o->agents)
    return o->n_agents ? fail(err, CAIRN_ERR_ARG, name, "%zu agents but no list", o->n_agents)
                       : CAIRN_OK;
  if (o->n_agents < 1 || o->n_agents > CAIRN_CROWD_MAX_AGENTS)
    return fail(err, CAIRN_ERR_ARG, name, "%zu agents (1..%u)", o->n_agents,
                (unsigned)CAIRN_CROWD_MAX_AGENTS);
  for (size_t k = 0; k < o->n_agents; k++) {
    cairn_agent_info info;
    cairn_status st = cairn_crowd_get(c, o->agents[k], &info);
    if (st != CAIRN_OK)
      return fail(err, st, name, "agent %zu: %s", k,
                  st == CAIRN_ERR_STALE ? "a stale handle" : "not a handle of the crowd");
  }
  return CAIRN_OK;
}

/* Every argument, before anything is made. */
static cairn_status check_args(const cairn_crowd *c, const char *path,
                               const cairn_replay_opts *o, cairn_error *err) {
  const char *name = path ? path : WRITER_NAME;
  if ((path == NULL) == (o->write == NULL))
    return fail(err, CAIRN_ERR_ARG, name, "give a path or a write function, not %s",
                path ? "both" : "neither");
  if (o->every < 1) return fail(err, CAIRN_ERR_ARG, name, "every must be at least 1");
  if (o->scale < 1 || o->scale > CAIRN_REPLAY_MAX_SCALE)
    return fail(err, CAIRN_ERR_ARG, name, "scale %u is not in 1..%d", (unsigned)o->scale,
                CAIRN_REPLAY_MAX_SCALE);
  if (o->torch_radius > CAIRN_GRID_MAX_SIDE)
    return fail(err, CAIRN_ERR_ARG, name, "torch radius %u is above %d",
                (unsigned)o->torch_radius, CAIRN_GRID_MAX_SIDE);
  cairn_status st = check_agents(c, o, name, err);
  if (st == CAIRN_OK) st = check_points(c, o->gates, o->n_gates, "gates", name, err);
  if (st == CAIRN_OK) st = check_points(c, o->torches, o->n_torches, "torches", name, err);
  return st;
}

/* ---- the interface --------------------------------------------------- */

static void release(cairn_replay *r) {
  cairn_allocator a = r->alloc;
  if (r->f) fclose(r->f);
  cairn__free(&a, r->name, r->name_size);
  cairn__free(&a, r->agents, sizeof *r->agents * (r->agents ? r->n : 0));
  cairn__free(&a, r->prev, sizeof *r->prev * 2 * (size_t)r->n);
  cairn__free(&a, r->buf, r->cap);
  cairn__free(&a, r, sizeof *r);
}

/* The recorder's memory: the name, the handles, the last positions and a
 * frame's buffer (at least STAGE_MIN, for the header's pieces). */
static cairn_status alloc_parts(cairn_replay *r, const char *name, const cairn_agent *agents) {
  cairn_allocator *a = &r->alloc;
  r->name_size = strlen(name) + 1;
  r->cap = FRAME_HEAD + (size_t)r->n * AGENT_MAX;
  if (r->cap < STAGE_MIN) r->cap = STAGE_MIN;
  bool ok = (r->name = cairn__alloc(a, r->name_size)) != NULL &&
            (r->prev = cairn__alloc_zero(a, sizeof *r->prev * 2 * (size_t)r->n)) != NULL &&
            (r->buf = cairn__alloc(a, r->cap)) != NULL;
  if (ok && agents) {
    r->agents = cairn__alloc(a, sizeof *agents * r->n);
    ok = r->agents != NULL;
    if (ok) memcpy(r->agents, agents, sizeof *agents * r->n);
  }
  if (ok) memcpy(r->name, name, r->name_size);
  return ok ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

/* Whether a file is at path (so that a failed create removes only the
 * file it made). */
static int file_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL;
}

/* Creates the file, writes the header and the first frame; a file made
 * here is removed on failure. */
static cairn_status start(cairn_replay *r, const char *path, const cairn_replay_opts *o,
                          cairn_error *err) {
  int existed = path && file_exists(path);
  if (path && !(r->f = fopen(path, "wb")))
    return fail(err, CAIRN_ERR_IO, path, "cannot create the replay: %s", strerror(errno));
  write_header(r, o);
  write_frame(r);
  if (r->f && r->failed == CAIRN_OK && fflush(r->f) != 0) {
    r->failed = CAIRN_ERR_IO;
    r->sys_errno = errno;
  }
  cairn_status st = write_error(r, err);
  if (st != CAIRN_OK && r->f) {
    fclose(r->f);
    r->f = NULL;
    if (!existed) remove(path);
  }
  return st;
}

cairn_status cairn_replay_create(const cairn_crowd *crowd, const char *path,
                                 const cairn_replay_opts *opts, const cairn_allocator *alloc,
                                 cairn_replay **out, cairn_error *err) {
  if (!out) return fail(err, CAIRN_ERR_ARG, path ? path : WRITER_NAME, "no out pointer");
  *out = NULL;
  if (!crowd) return fail(err, CAIRN_ERR_ARG, path ? path : WRITER_NAME, "no crowd");
  cairn_replay_opts o = opts ? *opts : cairn_replay_defaults();
  cairn_status st = check_args(crowd, path, &o, err);
  if (st != CAIRN_OK) return st;
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_replay *r = cairn__alloc_zero(&a, sizeof *r);
  if (!r) return fail(err, CAIRN_ERR_NOMEM, path ? path : WRITER_NAME, "out of memory");
  r->alloc = a;
  r->crowd = crowd;
  r->write = path ? NULL : o.write;
  r->user = o.user;
  r->n = o.agents ? (uint32_t)o.n_agents : crowd->cap;
  r->every = o.every;
  r->scale = o.scale;
  st = alloc_parts(r, path ? path : WRITER_NAME, o.agents);
  if (st != CAIRN_OK) st = fail(err, st, path ? path : WRITER_NAME, "out of memory");
  if (st == CAIRN_OK) st = start(r, path, &o, err);
  if (st != CAIRN_OK) {
    release(r);
    return st;
  }
  *out = r;
  return CAIRN_OK;
}

cairn_status cairn_replay_tick(cairn_replay *r, cairn_error *err) {
  if (!r) return fail(err, CAIRN_ERR_ARG, WRITER_NAME, "no recorder");
  if (r->failed == CAIRN_OK && r->crowd->tick - r->last >= r->every) write_frame(r);
  return write_error(r, err);
}

cairn_status cairn_replay_close(cairn_replay *r, cairn_error *err) {
  if (!r) return CAIRN_OK;
  if (r->failed == CAIRN_OK && r->crowd->tick != r->last) write_frame(r);
  if (r->f) {
    errno = 0;
    int bad = fclose(r->f) != 0;
    r->f = NULL;
    if (bad && r->failed == CAIRN_OK) {
      r->failed = CAIRN_ERR_IO;
      r->sys_errno = errno;
    }
  }
  cairn_status st = write_error(r, err);
  release(r);
  return st;
}

void cairn_replay_destroy(cairn_replay *r) {
  if (r) release(r);
}
