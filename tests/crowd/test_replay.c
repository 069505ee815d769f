/* Recording a crowd's run (cairn/crowd_replay.h): the file read back by a
 * reader of the test's own (docs/REPLAY.md) gives the header that was
 * asked for and, at every recorded tick, each agent's position within
 * 1/64 cell and its state, as the crowd reported them at that tick; agents
 * removed and added during the run, every order kind, a fixed list and
 * every slot; the writer function gets the file's bytes; the run is the
 * same with and without recording; a tick allocates nothing; every bad
 * argument is refused with nothing made or written; an unwritable path or
 * a failing writer is an error that names it. */
#include "test_crowd_util.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/crowd.h"

#define MAX_TICKS 64
#define MAX_AGENTS 16

/* ---- a reader of the format ----------------------------------------- */

typedef struct rp_frame {
  uint32_t tick;
  int32_t x[MAX_AGENTS], y[MAX_AGENTS]; /* in 1/scale cell */
  uint8_t state[MAX_AGENTS];
} rp_frame;

typedef struct rp_file {
  uint32_t w, h, n, every, scale, torch_radius;
  float dt;
  uint32_t n_gates, n_torches;
  cairn_point gates[8], torches[8];
  char glyphs[32 * 32];
  uint8_t radius[MAX_AGENTS];
  rp_frame frames[MAX_TICKS + 2];
  size_t n_frames;
} rp_file;

typedef struct rp_in {
  const uint8_t *b;
  size_t len, at;
} rp_in;

static uint32_t rd_u32(rp_in *in) {
  assert_true(in->at + 4 <= in->len);
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) v |= (uint32_t)in->b[in->at + (size_t)k] << (8 * k);
  in->at += 4;
  return v;
}

static uint32_t rd_varint(rp_in *in) {
  uint32_t v = 0;
  for (int shift = 0;; shift += 7) {
    assert_true(shift <= 28 && in->at < in->len);
    uint8_t b = in->b[in->at++];
    v |= (uint32_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

static int32_t rd_zigzag(rp_in *in) {
  uint32_t z = rd_varint(in);
  return z & 1 ? -(int32_t)(z >> 1) - 1 : (int32_t)(z >> 1);
}

static void rd_points(rp_in *in, uint32_t *n, cairn_point *p) {
  *n = rd_u32(in);
  assert_true(*n <= 8);
  for (uint32_t k = 0; k < *n; k++) {
    p[k].x = (int32_t)rd_u32(in);
    p[k].y = (int32_t)rd_u32(in);
  }
}

static void rd_header(rp_in *in, rp_file *f) {
  assert_true(in->len >= 8);
  assert_memory_equal(in->b, "CAIRNRP1", 8);
  in->at = 8;
  f->w = rd_u32(in);
  f->h = rd_u32(in);
  f->n = rd_u32(in);
  f->every = rd_u32(in);
  uint32_t dt = rd_u32(in);
  memcpy(&f->dt, &dt, sizeof dt);
  f->scale = rd_u32(in);
  f->torch_radius = rd_u32(in);
  assert_true(f->w * f->h <= sizeof f->glyphs && f->n <= MAX_AGENTS);
  rd_points(in, &f->n_gates, f->gates);
  rd_points(in, &f->n_torches, f->torches);
  size_t end = rd_u32(in) + in->at, cell = 0;
  while (in->at < end) {
    uint32_t run = rd_varint(in);
    assert_true(run >= 1 && cell + run <= f->w * f->h && in->at < end);
    memset(f->glyphs + cell, in->b[in->at++], run);
    cell += run;
  }
  assert_int_equal(in->at, end);
  assert_int_equal(cell, f->w * f->h);
  assert_true(in->at + f->n <= in->len);
  memcpy(f->radius, in->b + in->at, f->n);
  in->at += f->n;
}

/* Parses a whole recording: its header and every frame, positions made
 * absolute. */
static void rp_parse(const uint8_t *b, size_t len, rp_file *f) {
  memset(f, 0, sizeof *f);
  rp_in in = {b, len, 0};
  rd_header(&in, f);
  int32_t px[MAX_AGENTS] = {0}, py[MAX_AGENTS] = {0};
  while (in.at < len) {
    assert_true(f->n_frames < MAX_TICKS + 2);
    rp_frame *fr = &f->frames[f->n_frames++];
    size_t end = rd_u32(&in) + in.at;
    fr->tick = rd_u32(&in);
    for (uint32_t k = 0; k < f->n; k++) {
      fr->x[k] = px[k] += rd_zigzag(&in);
      fr->y[k] = py[k] += rd_zigzag(&in);
      assert_true(in.at < len);
      fr->state[k] = in.b[in.at++];
    }
    assert_int_equal(in.at, end);
  }
}

static uint8_t *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static uint8_t buf[1 << 16];
  *len = fread(buf, 1, sizeof buf, f);
  assert_true(*len < sizeof buf);
  fclose(f);
  return buf;
}

static int file_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL;
}

/* ---- the run -------------------------------------------------------- */

/* A 24 x 16 map: a wall down the middle with a gap, and a walled-in cell
 * (20, 5). */
static const char *const rows[] = {
    "........................", "........................", "...........#............",
    "...........#............", "...........#.......###..", "...........#.......#.#..",
    "...........#.......###..", "...........#............", "........................",
    "...........#............", "...........#............", "...........#............",
    "...........#............", "...........#............", "........................",
    "........................",
};

/* What the crowd said at one tick: recorded agent k's position and state
 * (state CAIRN_REPLAY_GONE when it is not there). */
typedef struct seen {
  uint64_t tick;
  float x[MAX_AGENTS], y[MAX_AGENTS];
  uint8_t state[MAX_AGENTS];
} seen;

typedef struct run {
  cairn_grid *grid;
  cairn_crowd *crowd;
  cairn_agent agents[MAX_AGENTS]; /* recorded, in order */
  size_t n;
  seen at[MAX_TICKS + 1];
} run;

/* Agent k's radius: 0.2 .. 0.4 cells, 51 .. 102 in the file's 1/256. */
static float radius_of(size_t k) { return 0.2f + 0.02f * (float)k; }

/* Eleven agents under every order kind: a horde to the right (one of it
 * at the goal already), a group move through the gap, two units on paths
 * of their own, a wanderer, a holder, and a unit sent to the walled-in
 * cell. */
static void start_run(run *r, uint32_t max_agents) {
  memset(r, 0, sizeof *r);
  r->grid = tu_grid(rows, 16);
  r->crowd = new_crowd(r->grid, max_agents, 1);
  const float xy[][2] = {{1.5f, 1.5f}, {1.5f, 3.5f}, {2.5f, 2.5f}, {3.5f, 8.5f}, {4.5f, 8.5f},
                         {3.5f, 13.5f}, {6.5f, 12.5f}, {14.5f, 1.5f}, {15.5f, 14.5f},
                         {21.5f, 1.5f}, {14.5f, 5.5f}};
  for (size_t k = 0; k < 11; k++) {
    cairn_agent_params p = {xy[k][0], xy[k][1], radius_of(k), 1.5f, 0, 0};
    assert_int_equal(cairn_crowd_add(r->crowd, &p, &r->agents[k]), CAIRN_OK);
  }
  r->n = 11;
  cairn_point gate = pt(22, 1);
  assert_int_equal(cairn_crowd_order_field(r->crowd, r->agents, 3, &gate, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_move(r->crowd, r->agents + 3, 2, pt(20, 10)), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_path(r->crowd, r->agents + 5, 2, pt(22, 5)), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_wander(r->crowd, r->agents + 7, 1, 7), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_hold(r->crowd, r->agents + 8, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_field(r->crowd, r->agents + 9, 1, &gate, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_order_path(r->crowd, r->agents + 10, 1, pt(20, 5)), CAIRN_OK);
}

static void end_run(run *r) {
  cairn_crowd_destroy(r->crowd);
  cairn_grid_destroy(r->grid);
}

/* What the crowd says now about the recorded agents (or every slot of
 * `slots`, when not 0). */
static void look(run *r, seen *s, uint32_t slots) {
  cairn_crowd_stats st;
  cairn_crowd_get_stats(r->crowd, &st);
  s->tick = st.ticks;
  size_t n = slots ? slots : r->n;
  for (size_t k = 0; k < n; k++) {
    cairn_agent_info i;
    s->state[k] = CAIRN_REPLAY_GONE;
    if (slots) {
      /* slot k's agent, if any: one of the handles the run made */
      for (size_t j = 0; j < r->n; j++)
        if ((r->agents[j] & 0xffffffffu) == k && cairn_crowd_get(r->crowd, r->agents[j], &i) == CAIRN_OK) {
          s->x[k] = i.x;
          s->y[k] = i.y;
          s->state[k] = (uint8_t)i.state;
        }
    } else if (cairn_crowd_get(r->crowd, r->agents[k], &i) == CAIRN_OK) {
      s->x[k] = i.x;
      s->y[k] = i.y;
      s->state[k] = (uint8_t)i.state;
    }
  }
}

/* Ticks the run to `ticks`, recording with rec (when set) after each tick;
 * at tick 10 the second agent is removed, at tick 20 a new one is added
 * (into its slot) and sent to wander. */
static void play(run *r, cairn_replay *rec, int ticks, uint32_t slots) {
  look(r, &r->at[0], slots);
  for (int t = 1; t <= ticks; t++) {
    assert_int_equal(cairn_crowd_tick(r->crowd), CAIRN_OK);
    if (t == 10) assert_int_equal(cairn_crowd_remove(r->crowd, r->agents[1]), CAIRN_OK);
    if (t == 20) {
      r->agents[r->n] = tc_add_at(r->crowd, 8.5f, 8.5f);
      assert_int_equal(cairn_crowd_order_wander(r->crowd, r->agents + r->n, 1, 3), CAIRN_OK);
      r->n++;
    }
    if (rec) assert_int_equal(cairn_replay_tick(rec, NULL), CAIRN_OK);
    look(r, &r->at[t], slots);
  }
}

/* Frame f of the file against what the crowd said at its tick. */
static void check_frame(const rp_file *f, const rp_frame *fr, const seen *s) {
  assert_int_equal(fr->tick, s->tick);
  for (uint32_t k = 0; k < f->n; k++) {
    assert_int_equal(fr->state[k], s->state[k]);
    if (s->state[k] == CAIRN_REPLAY_GONE) continue;
    double dx = (double)fr->x[k] / f->scale - s->x[k], dy = (double)fr->y[k] / f->scale - s->y[k];
    if (fabs(dx) > 0.5 / f->scale + 1e-9 || fabs(dy) > 0.5 / f->scale + 1e-9)
      fail_msg("tick %u agent %u: %.5f,%.5f recorded, %.5f,%.5f in the crowd", fr->tick, k,
               (double)fr->x[k] / f->scale, (double)fr->y[k] / f->scale, (double)s->x[k],
               (double)s->y[k]);
  }
}

/* The frames are ticks 0, every, 2 every, ... and the last, each as the
 * crowd said. */
static void check_frames(const rp_file *f, const run *r, int ticks, uint32_t every) {
  size_t want = (size_t)ticks / every + 1 + (ticks % (int)every != 0);
  assert_int_equal(f->n_frames, want);
  for (size_t i = 0; i < f->n_frames; i++) {
    int t = i + 1 == f->n_frames ? ticks : (int)(i * every);
    check_frame(f, &f->frames[i], &r->at[t]);
  }
}

/* ---- recording ------------------------------------------------------ */

/* A fixed list: the header as asked, the frames as the crowd said; the
 * agent removed at tick 10 reads gone from then on, where it was last
 * seen; the agent added at tick 20 is not recorded. */
static void records_a_list(void **state) {
  (void)state;
  run r;
  start_run(&r, 16);
  const char *path = "test_replay_list.rpl";
  char glyphs[24 * 16];
  for (size_t i = 0; i < sizeof glyphs; i++) glyphs[i] = "..GTS"[i % 7 % 5];
  cairn_point gates[2] = {{22, 1}, {23, 1}}, torches[1] = {{18, 8}};
  cairn_replay_opts o = cairn_replay_defaults();
  o.every = 4;
  o.agents = r.agents;
  o.n_agents = 11;
  o.glyphs = glyphs;
  o.gates = gates;
  o.n_gates = 2;
  o.torches = torches;
  o.n_torches = 1;
  o.torch_radius = 6;
  cairn_replay *rec = NULL;
  assert_int_equal(cairn_replay_create(r.crowd, path, &o, NULL, &rec, NULL), CAIRN_OK);
  play(&r, rec, 30, 0);
  assert_int_equal(cairn_replay_close(rec, NULL), CAIRN_OK);

  size_t len;
  const uint8_t *bytes = read_all(path, &len);
  static rp_file f;
  rp_parse(bytes, len, &f);
  assert_int_equal(f.w, 24);
  assert_int_equal(f.h, 16);
  assert_int_equal(f.n, 11);
  assert_int_equal(f.every, 4);
  assert_int_equal(f.scale, 64);
  assert_true(f.dt == cairn_crowd_defaults().dt);
  assert_int_equal(f.torch_radius, 6);
  assert_int_equal(f.n_gates, 2);
  assert_int_equal(f.gates[1].x, 23);
  assert_int_equal(f.n_torches, 1);
  assert_int_equal(f.torches[0].y, 8);
  assert_memory_equal(f.glyphs, glyphs, sizeof glyphs);
  for (uint32_t k = 0; k < 11; k++)
    assert_int_equal(f.radius[k], lroundf(radius_of(k) * 256.0f));
  assert_int_equal(f.radius[8], 92); /* 0.36 * 256 = 92.16 */
  check_frames(&f, &r, 30, 4);
  /* the removed agent: there at tick 8, gone from 12 on, where it was */
  assert_int_not_equal(f.frames[2].state[1], CAIRN_REPLAY_GONE);
  for (size_t i = 3; i < f.n_frames; i++) {
    assert_int_equal(f.frames[i].state[1], CAIRN_REPLAY_GONE);
    assert_int_equal(f.frames[i].x[1], f.frames[2].x[1]);
  }
  /* the horde went right; the holder stayed idle */
  assert_true(f.frames[7].x[0] > f.frames[0].x[0] + 3 * 64);
  /* every state but stuck was recorded */
  int seen_state[256] = {0};
  for (size_t i = 0; i < f.n_frames; i++)
    for (uint32_t k = 0; k < f.n; k++) seen_state[f.frames[i].state[k]] = 1;
  const int want[] = {CAIRN_AGENT_IDLE, CAIRN_AGENT_MOVING, CAIRN_AGENT_WAITING, CAIRN_AGENT_ARRIVED,
                      CAIRN_AGENT_UNREACHABLE, CAIRN_REPLAY_GONE};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    if (!seen_state[want[i]]) fail_msg("state %d never recorded", want[i]);
  assert_int_equal(f.frames[0].state[8], CAIRN_AGENT_IDLE);
  remove(path);
  end_run(&r);
}

/* Every slot: the header has max_agents of them, empty slots read gone
 * with radius 0, and the agent added at tick 20 shows up in the slot it
 * took (the removed agent's). */
static void records_every_slot(void **state) {
  (void)state;
  run r;
  start_run(&r, 14);
  const char *path = "test_replay_slots.rpl";
  cairn_replay_opts o = cairn_replay_defaults();
  o.every = 3;
  cairn_replay *rec = NULL;
  assert_int_equal(cairn_replay_create(r.crowd, path, &o, NULL, &rec, NULL), CAIRN_OK);
  play(&r, rec, 31, 14);
  assert_int_equal(cairn_replay_close(rec, NULL), CAIRN_OK);
  size_t len;
  const uint8_t *bytes = read_all(path, &len);
  static rp_file f;
  rp_parse(bytes, len, &f);
  assert_int_equal(f.n, 14);
  for (uint32_t k = 0; k < 14; k++)
    assert_int_equal(f.radius[k], k < 11 ? lroundf(radius_of(k) * 256.0f) : 0);
  /* no glyphs given: the walls */
  for (uint32_t y = 0; y < 16; y++)
    for (uint32_t x = 0; x < 24; x++)
      assert_int_equal(f.glyphs[y * 24 + x], rows[y][x] == '#' ? '@' : '.');
  assert_int_equal(r.agents[11] & 0xffffffffu, 1); /* the new agent took slot 1 */
  check_frames(&f, &r, 31, 3);
  assert_int_equal(f.frames[6].state[1], CAIRN_REPLAY_GONE); /* tick 18 */
  assert_int_not_equal(f.frames[7].state[1], CAIRN_REPLAY_GONE); /* tick 21 */
  assert_int_equal(f.frames[7].state[13], CAIRN_REPLAY_GONE);
  remove(path);
  end_run(&r);
}

/* The writer function: what it gets is the file, byte for byte. */
typedef struct sink {
  uint8_t bytes[1 << 16];
  size_t len, calls;
  long fail_at; /* the call that fails, -1: none */
} sink;

static cairn_status sink_write(void *user, const void *p, size_t n) {
  sink *s = user;
  if ((long)s->calls++ == s->fail_at) return CAIRN_ERR_BUFFER;
  assert_true(n >= 1 && s->len + n <= sizeof s->bytes);
  memcpy(s->bytes + s->len, p, n);
  s->len += n;
  return CAIRN_OK;
}

static void writes_through_a_function(void **state) {
  (void)state;
  static sink s;
  memset(&s, 0, sizeof s);
  s.fail_at = -1;
  const char *path = "test_replay_fn.rpl";
  for (int pass = 0; pass < 2; pass++) {
    run r;
    start_run(&r, 16);
    cairn_replay_opts o = cairn_replay_defaults();
    o.every = 5;
    o.scale = 256;
    o.agents = r.agents;
    o.n_agents = 11;
    if (pass) {
      o.write = sink_write;
      o.user = &s;
    }
    cairn_replay *rec = NULL;
    assert_int_equal(cairn_replay_create(r.crowd, pass ? NULL : path, &o, NULL, &rec, NULL),
                     CAIRN_OK);
    play(&r, rec, 25, 0);
    assert_int_equal(cairn_replay_close(rec, NULL), CAIRN_OK);
    end_run(&r);
  }
  size_t len;
  const uint8_t *bytes = read_all(path, &len);
  assert_int_equal(s.len, len);
  assert_memory_equal(s.bytes, bytes, len);
  static rp_file f;
  rp_parse(s.bytes, s.len, &f);
  assert_int_equal(f.scale, 256);
  assert_int_equal(f.n_frames, 6);
  assert_int_equal(s.calls, 1 + 6); /* the header in one piece, a call a frame */
  remove(path);
}

/* A writer that fails: at create, nothing is made; during the run, that
 * tick and every later one return its error, and so does close. */
static void failing_writer(void **state) {
  (void)state;
  static sink s;
  run r;
  start_run(&r, 16);
  cairn_replay_opts o = cairn_replay_defaults();
  o.write = sink_write;
  o.user = &s;
  cairn_replay *rec = (cairn_replay *)&s;
  cairn_error err;
  memset(&s, 0, sizeof s);
  s.fail_at = 0;
  assert_int_equal(cairn_replay_create(r.crowd, NULL, &o, NULL, &rec, &err), CAIRN_ERR_BUFFER);
  assert_null(rec);
  assert_non_null(strstr(err.message, "replay writer: the writer failed"));
  memset(&s, 0, sizeof s);
  s.fail_at = 3; /* the header, tick 0, tick 1, then tick 2 fails */
  assert_int_equal(cairn_replay_create(r.crowd, NULL, &o, NULL, &rec, &err), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(r.crowd), CAIRN_OK);
  assert_int_equal(cairn_replay_tick(rec, &err), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(r.crowd), CAIRN_OK);
  assert_int_equal(cairn_replay_tick(rec, &err), CAIRN_ERR_BUFFER);
  assert_int_equal(cairn_crowd_tick(r.crowd), CAIRN_OK);
  assert_int_equal(cairn_replay_tick(rec, &err), CAIRN_ERR_BUFFER);
  assert_int_equal(s.calls, 4); /* nothing tried after the failure */
  assert_int_equal(cairn_replay_close(rec, &err), CAIRN_ERR_BUFFER);
  assert_int_equal(s.calls, 4);
  end_run(&r);
}

/* The run is the same bits with and without a recording, tick by tick,
 * and a recorded tick allocates nothing. */
static void recording_leaves_the_run_alone(void **state) {
  (void)state;
  uint64_t hash[2][41];
  tu_alloc t;
  cairn_allocator al = tu_alloc_init(&t, -1);
  const char *path = "test_replay_hash.rpl";
  for (int pass = 0; pass < 2; pass++) {
    run r;
    start_run(&r, 16);
    cairn_replay *rec = NULL;
    if (pass) assert_int_equal(cairn_replay_create(r.crowd, path, NULL, &al, &rec, NULL), CAIRN_OK);
    size_t calls = t.calls;
    hash[pass][0] = cairn_crowd_hash(r.crowd);
    for (int k = 1; k <= 40; k++) {
      assert_int_equal(cairn_crowd_tick(r.crowd), CAIRN_OK);
      if (rec) assert_int_equal(cairn_replay_tick(rec, NULL), CAIRN_OK);
      hash[pass][k] = cairn_crowd_hash(r.crowd);
    }
    assert_int_equal(t.calls, calls); /* no allocation while recording */
    assert_int_equal(cairn_replay_close(rec, NULL), CAIRN_OK);
    assert_int_equal(t.live_blocks, 0);
    assert_int_equal(t.bad_sizes, 0);
    end_run(&r);
  }
  assert_memory_equal(hash[0], hash[1], sizeof hash[0]);
  remove(path);
}

/* ---- refusals ------------------------------------------------------- */

/* Refused: the status, no recorder, no file, a message, the crowd
 * unchanged, and no allocation. */
static void refused(const run *r, const char *path, const cairn_replay_opts *o,
                    cairn_status want, const char *says) {
  tu_alloc t;
  cairn_allocator al = tu_alloc_init(&t, -1);
  uint64_t h = cairn_crowd_hash(r->crowd);
  cairn_replay *rec = (cairn_replay *)&t;
  cairn_error err;
  memset(&err, 0, sizeof err);
  assert_int_equal(cairn_replay_create(r->crowd, path, o, &al, &rec, &err), want);
  assert_null(rec);
  if (!strstr(err.message, says)) fail_msg("message '%s' lacks '%s'", err.message, says);
  if (path) assert_false(file_exists(path));
  assert_int_equal(t.calls, 0);
  assert_int_equal(cairn_crowd_hash(r->crowd), h);
}

static void bad_arguments(void **state) {
  (void)state;
  run r;
  start_run(&r, 16);
  const char *path = "test_replay_bad.rpl";
  remove(path);
  cairn_replay_opts d = cairn_replay_defaults(), o;
  cairn_replay *rec = NULL;
  cairn_error err;
  assert_int_equal(cairn_replay_create(NULL, path, &d, NULL, &rec, &err), CAIRN_ERR_ARG);
  assert_null(rec);
  assert_int_equal(cairn_replay_create(r.crowd, path, &d, NULL, NULL, &err), CAIRN_ERR_ARG);
  assert_false(file_exists(path));
  refused(&r, NULL, &d, CAIRN_ERR_ARG, "neither");
  o = d;
  o.write = sink_write;
  refused(&r, path, &o, CAIRN_ERR_ARG, "both");
  o = d;
  o.every = 0;
  refused(&r, path, &o, CAIRN_ERR_ARG, "every");
  o = d;
  o.scale = 0;
  refused(&r, path, &o, CAIRN_ERR_ARG, "scale 0");
  o.scale = CAIRN_REPLAY_MAX_SCALE + 1;
  refused(&r, path, &o, CAIRN_ERR_ARG, "scale 4097");
  o = d;
  o.torch_radius = CAIRN_GRID_MAX_SIDE + 1;
  refused(&r, path, &o, CAIRN_ERR_ARG, "torch radius");
  o = d;
  o.n_agents = 3;
  refused(&r, path, &o, CAIRN_ERR_ARG, "no list");
  o = d;
  o.agents = r.agents;
  refused(&r, path, &o, CAIRN_ERR_ARG, "0 agents");
  o.n_agents = (size_t)CAIRN_CROWD_MAX_AGENTS + 1;
  refused(&r, path, &o, CAIRN_ERR_ARG, "agents (1..");
  cairn_agent bad[2] = {r.agents[0], (cairn_agent)14 | (cairn_agent)1 << 32};
  o.agents = bad;
  o.n_agents = 2;
  refused(&r, path, &o, CAIRN_ERR_ARG, "agent 1: not a handle");
  bad[1] = 0;
  refused(&r, path, &o, CAIRN_ERR_ARG, "agent 1: not a handle");
  cairn_agent gone = tc_add_at(r.crowd, 20.5f, 14.5f);
  assert_int_equal(cairn_crowd_remove(r.crowd, gone), CAIRN_OK);
  bad[1] = gone;
  refused(&r, path, &o, CAIRN_ERR_STALE, "agent 1: a stale handle");
  cairn_point off[2] = {{3, 3}, {24, 3}};
  o = d;
  o.n_gates = 2;
  refused(&r, path, &o, CAIRN_ERR_ARG, "2 gates but no list");
  o.gates = off;
  refused(&r, path, &o, CAIRN_ERR_RANGE, "gates 1 (24,3) is off the 24x16 map");
  o.n_gates = 24 * 16 + 1;
  refused(&r, path, &o, CAIRN_ERR_ARG, "more than the 384 cells");
  o = d;
  off[1] = pt(3, -1);
  o.torches = off;
  o.n_torches = 2;
  refused(&r, path, &o, CAIRN_ERR_RANGE, "torches 1 (3,-1)");
  /* the calls after create */
  assert_int_equal(cairn_replay_tick(NULL, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_replay_close(NULL, &err), CAIRN_OK);
  cairn_replay_destroy(NULL);
  /* and then a good recording of the same crowd */
  o = d;
  o.gates = off;
  o.n_gates = 1;
  assert_int_equal(cairn_replay_create(r.crowd, path, &o, NULL, &rec, &err), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(r.crowd), CAIRN_OK);
  assert_int_equal(cairn_replay_tick(rec, &err), CAIRN_OK);
  assert_int_equal(cairn_replay_close(rec, &err), CAIRN_OK);
  size_t len;
  static rp_file f;
  const uint8_t *bytes = read_all(path, &len);
  rp_parse(bytes, len, &f);
  assert_int_equal(f.n_frames, 2);
  assert_int_equal(f.n, 16);
  remove(path);
  end_run(&r);
}

/* A path that cannot be created: CAIRN_ERR_IO naming it, nothing made.
 * A device that takes no bytes: the same, at create, and the device is
 * left where it is. Abandoning a recording keeps the frames written. */
static void unwritable(void **state) {
  (void)state;
  run r;
  start_run(&r, 16);
  cairn_replay *rec = NULL;
  cairn_error err;
  const char *path = "no_such_dir_for_replays/x.rpl";
  assert_int_equal(cairn_replay_create(r.crowd, path, NULL, NULL, &rec, &err), CAIRN_ERR_IO);
  assert_null(rec);
  assert_non_null(strstr(err.message, path));
  assert_non_null(strstr(err.message, "cannot create the replay"));
  if (file_exists("/dev/full")) {
    assert_int_equal(cairn_replay_create(r.crowd, "/dev/full", NULL, NULL, &rec, &err),
                     CAIRN_ERR_IO);
    assert_null(rec);
    assert_non_null(strstr(err.message, "/dev/full: cannot write the replay"));
    assert_true(file_exists("/dev/full"));
  }
  path = "test_replay_abandoned.rpl";
  cairn_replay_opts o = cairn_replay_defaults();
  o.agents = r.agents;
  o.n_agents = 2;
  assert_int_equal(cairn_replay_create(r.crowd, path, &o, NULL, &rec, &err), CAIRN_OK);
  for (int k = 0; k < 3; k++) {
    assert_int_equal(cairn_crowd_tick(r.crowd), CAIRN_OK);
    assert_int_equal(cairn_replay_tick(rec, &err), CAIRN_OK);
  }
  assert_int_equal(cairn_crowd_tick(r.crowd), CAIRN_OK);
  cairn_replay_destroy(rec); /* tick 4 is not written */
  size_t len;
  static rp_file f;
  const uint8_t *bytes = read_all(path, &len);
  rp_parse(bytes, len, &f);
  assert_int_equal(f.n_frames, 4);
  assert_int_equal(f.frames[3].tick, 3);
  remove(path);
  end_run(&r);
}

/* Out of memory at each allocation of create: CAIRN_ERR_NOMEM, nothing
 * leaked, no file left. */
static cairn_status create_case(void *ctx, const cairn_allocator *al) {
  const run *r = ctx;
  const char *path = "test_replay_oom.rpl";
  cairn_replay *rec = NULL;
  cairn_status st = cairn_replay_create(r->crowd, path, NULL, al, &rec, NULL);
  if (st != CAIRN_OK) {
    assert_null(rec);
    assert_false(file_exists(path));
    return st;
  }
  st = cairn_replay_close(rec, NULL);
  remove(path);
  return st;
}

static void out_of_memory(void **state) {
  (void)state;
  run r;
  start_run(&r, 16);
  tu_oom_check("replay", create_case, &r, 3);
  end_run(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(records_a_list),
      cmocka_unit_test(records_every_slot),
      cmocka_unit_test(writes_through_a_function),
      cmocka_unit_test(failing_writer),
      cmocka_unit_test(recording_leaves_the_run_alone),
      cmocka_unit_test(bad_arguments),
      cmocka_unit_test(unwritable),
      cmocka_unit_test(out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
