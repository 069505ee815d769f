/* Loading a crowd, in three steps so that a load that fails leaves the
 * crowd exactly as it was: (1) read the bytes into a view (spans of the
 * buffer, nothing copied) and check every count, index and invariant the
 * tick relies on; (2) get what the state needs into new objects (the
 * fields through the cache, a claim table, the search in progress), all
 * of which go again on failure; (3) commit, which cannot fail. */
#include "crowd_save_format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One element of a per-slot array on file. */
#define AT_U8(p, i) ((p)[i])
#define AT_U16(p, i) cairn__le16((p) + 2 * (size_t)(i))
#define AT_U32(p, i) cairn__le32((p) + 4 * (size_t)(i))
#define AT_U64(p, i) cairn__le64((p) + 8 * (size_t)(i))
#define AT_F32(p, i) cairn__crowd_f32_at((p) + 4 * (size_t)(i))
#define AT_PT(p, i) cairn__crowd_pt_at((p) + 8 * (size_t)(i))

typedef struct field_view {
  uint16_t index;
  uint32_t users, n_goals;
  const uint8_t *goals;
} field_view;

/* The saved state, as spans of the buffer. */
typedef struct crowd_view {
  const char *name; /* for messages */
  uint64_t tick;
  uint32_t next_group, high, live, n_free;
  const uint8_t *free_slots;
#define VIEW_ARRAY(name, kind) const uint8_t *name;
  CROWD_SLOT_ARRAYS(VIEW_ARRAY)
#undef VIEW_ARRAY
  const uint8_t *wp;
  uint32_t n_binned;
  const uint8_t *order_of;
  uint32_t n_loose;
  const uint8_t *loose;
  uint32_t n_fields;
  field_view fields[CROWD_MAX_FIELDS];
  uint32_t ring_head, ring_len;
  const uint8_t *ring;
  uint8_t in_search, search_kind;
  uint64_t head_expanded, head_given, debt;
  uint32_t n_avoid;
  const uint8_t *avoid;
  uint32_t search_len;
  const uint8_t *search;
  cairn_point hpa_from;
  uint32_t hpa_refined;
  uint32_t n_claims;
  const uint8_t *claims;
  const uint8_t *stats;
  uint32_t n_events;
  const uint8_t *events;
  uint32_t n_dense;
  const uint8_t *dense;
} crowd_view;

#define BAD(v, err, ...) cairn__crowd_file_fail(err, CAIRN_ERR_PARSE, (v)->name, __VA_ARGS__)

static int in_grid(const cairn_crowd *c, cairn_point p) {
  return p.x >= 0 && p.y >= 0 && p.x < c->width && p.y < c->height;
}

/* Points a..a+n of a span on file all on the grid. */
static int all_in_grid(const cairn_crowd *c, const uint8_t *pts, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (!in_grid(c, AT_PT(pts, k))) return 0;
  return 1;
}

/* A span of count items of size bytes each, if the input holds them. */
static const uint8_t *span(cairn__rbuf *r, uint64_t count, size_t size) {
  if (!cairn__rbuf_has(r, count, size)) {
    r->over = true;
    return NULL;
  }
  return cairn__get_span(r, (size_t)count * size);
}

/* ---- step 1: the view ----------------------------------------------- */

static void read_agents(const cairn_crowd *c, cairn__rbuf *r, crowd_view *v) {
  v->tick = cairn__get_u64(r);
  v->next_group = cairn__get_u32(r);
  v->high = cairn__get_u32(r);
  v->live = cairn__get_u32(r);
  v->n_free = cairn__get_u32(r);
  if (r->over || v->high > c->cap || v->n_free > v->high) {
    r->over = true;
    return;
  }
  v->free_slots = span(r, v->n_free, 4);
#define READ_ARRAY(name, kind) v->name = span(r, v->high, CROWD_SZ_##kind);
  CROWD_SLOT_ARRAYS(READ_ARRAY)
#undef READ_ARRAY
  if (r->over) return;
  uint64_t n_wp = 0;
  for (uint32_t s = 0; s < v->high; s++) n_wp += AT_U16(v->wp_n, s);
  v->wp = span(r, n_wp, CROWD_SZ_PT);
  v->n_binned = cairn__get_u32(r);
  v->order_of = span(r, v->n_binned, 4);
  v->n_loose = cairn__get_u32(r);
  v->loose = span(r, v->n_loose, 4);
}

static void read_fields(cairn__rbuf *r, crowd_view *v) {
  v->n_fields = cairn__get_u32(r);
  if (v->n_fields > CROWD_MAX_FIELDS) r->over = true;
  for (uint32_t k = 0; k < v->n_fields && !r->over; k++) {
    field_view *f = &v->fields[k];
    f->index = cairn__get_u16(r);
    f->users = cairn__get_u32(r);
    f->n_goals = cairn__get_u32(r);
    f->goals = span(r, f->n_goals, CROWD_SZ_PT);
  }
}

static void read_queue(cairn__rbuf *r, crowd_view *v) {
  v->ring_head = cairn__get_u32(r);
  v->ring_len = cairn__get_u32(r);
  v->ring = span(r, v->ring_len, CROWD_REQ_BYTES);
  v->in_search = cairn__get_u8(r);
  v->head_expanded = cairn__get_u64(r);
  v->head_given = cairn__get_u64(r);
  v->debt = cairn__get_u64(r);
  v->n_avoid = cairn__get_u32(r);
  if (v->n_avoid > CROWD_MAX_AVOID) r->over = true;
  v->avoid = span(r, v->n_avoid, CROWD_SZ_PT);
  v->search_kind = cairn__get_u8(r);
  if (v->search_kind == CROWD_SEARCH_ASTAR) {
    v->search_len = cairn__get_u32(r);
    v->search = span(r, v->search_len, 1);
  } else if (v->search_kind == CROWD_SEARCH_HPA) {
    v->hpa_from.x = (int32_t)cairn__get_u32(r);
    v->hpa_from.y = (int32_t)cairn__get_u32(r);
    v->hpa_refined = cairn__get_u32(r);
  }
}

static void read_claims(cairn__rbuf *r, crowd_view *v) {
  v->n_claims = cairn__get_u32(r);
  v->claims = r->over ? NULL : r->p + r->at;
  for (uint32_t k = 0; k < v->n_claims && !r->over; k++) {
    (void)cairn__get_u32(r); /* unit */
    (void)cairn__get_u64(r); /* until */
    uint32_t n = cairn__get_u32(r);
    span(r, n, CROWD_SZ_PT);
  }
}

static cairn_status read_view(const cairn_crowd *c, cairn__rbuf *r, crowd_view *v,
                              cairn_error *err) {
  read_agents(c, r, v);
  if (r->over && v->high > c->cap)
    return BAD(v, err, "%u agent slots, above the crowd's max_agents", v->high);
  read_fields(r, v);
  read_queue(r, v);
  read_claims(r, v);
  v->stats = span(r, 1, CROWD_STATS_BYTES);
  v->n_events = cairn__get_u32(r);
  v->events = span(r, v->n_events, CROWD_EVENT_BYTES);
  v->n_dense = cairn__get_u32(r);
  v->dense = span(r, v->n_dense, CROWD_DENSE_BYTES);
  if (r->over) return BAD(v, err, "malformed: a count runs past the end of the state");
  if (cairn__rbuf_left(r))
    return BAD(v, err, "malformed: %zu bytes after the state", cairn__rbuf_left(r));
  return CAIRN_OK;
}

/* ---- step 1: the checks --------------------------------------------- */

static int finite_all(float a, float b, float c, float d) {
  return isfinite(a) && isfinite(b) && isfinite(c) && isfinite(d);
}

/* How a live agent ends its order: LEAVE, STOP, STAY or the crowd's STAY,
 * within a finite radius. */
static int arrival_ok(const crowd_view *v, uint32_t s) {
  uint8_t a = AT_U8(v->arrive, s);
  float r = AT_F32(v->arrive_r, s);
  return a >= CAIRN_ARRIVAL_LEAVE && a <= CROWD_STAY_AUTO && isfinite(r) && r >= 0.0f;
}

/* A driven velocity as cairn_crowd_drive takes it (a faster one could
 * step over a wall), kept only by driven agents. */
static int drive_ok(const cairn_crowd *c, const crowd_view *v, uint32_t s) {
  float vx = AT_F32(v->dvx, s), vy = AT_F32(v->dvy, s), dt = c->opts.dt;
  if (AT_U8(v->order, s) != CAIRN_ORDER_DRIVEN) return vx == 0.0f && vy == 0.0f;
  return isfinite(vx) && isfinite(vy) && !(fabsf(vx) * dt > CROWD_DRIVE_STEP_MAX) &&
         !(fabsf(vy) * dt > CROWD_DRIVE_STEP_MAX);
}

/* A velocity the tick can have left: steering keeps it within the speed
 * circle (under 0.95 cells a tick), a drive within 0.9 cells a tick on
 * each axis. A finite but huge one would overflow the avoidance's
 * products into NaN positions. */
static int velocity_ok(const cairn_crowd *c, float vx, float vy) {
  float dt = c->opts.dt;
  return fabsf(vx) * dt <= 1.0f && fabsf(vy) * dt <= 1.0f;
}

/* A live agent's values as cairn_crowd_add and the tick keep them. */
static int agent_ok(const cairn_crowd *c, const crowd_view *v, uint32_t s) {
  float x = AT_F32(v->x, s), y = AT_F32(v->y, s), r = AT_F32(v->radius, s);
  float sp = AT_F32(v->speed, s);
  uint8_t order = AT_U8(v->order, s), state = AT_U8(v->state, s);
  uint16_t field = AT_U16(v->field, s), wn = AT_U16(v->wp_n, s), wi = AT_U16(v->wp_i, s);
  if (order > CAIRN_ORDER_DRIVEN || state > CAIRN_AGENT_STUCK || AT_U8(v->flags, s) > 15 ||
      AT_U8(v->wp_partial, s) > WP_FIRST)
    return 0;
  if (!finite_all(x, y, AT_F32(v->vx, s), AT_F32(v->vy, s)) ||
      !finite_all(AT_F32(v->offx, s), AT_F32(v->offy, s), r, sp) ||
      !velocity_ok(c, AT_F32(v->vx, s), AT_F32(v->vy, s)))
    return 0;
  if (x < 0.0f || y < 0.0f || x >= (float)c->width || y >= (float)c->height) return 0;
  /* a formation offset spans at most the group, so the map */
  float span = (float)c->width + (float)c->height;
  if (fabsf(AT_F32(v->offx, s)) > span || fabsf(AT_F32(v->offy, s)) > span) return 0;
  if (!cairn__crowd_radius_ok(c, r) || sp <= 0.0f || sp * c->opts.dt >= 0.95f) return 0;
  if (isnan(AT_F32(v->best, s)) || !(AT_F32(v->prog, s) >= 0.0f)) return 0;
  if (!arrival_ok(v, s) || !drive_ok(c, v, s)) return 0;
  if ((order == CAIRN_ORDER_FIELD) != (field != CROWD_NO_FIELD)) return 0;
  if (field != CROWD_NO_FIELD && field >= CROWD_MAX_FIELDS) return 0;
  return !(order == CAIRN_ORDER_PATH && state == CAIRN_AGENT_MOVING && wi >= wn);
}

static cairn_status check_slots(const cairn_crowd *c, const crowd_view *v,
                                cairn_error *err) {
  size_t bins = (size_t)c->nbx * (size_t)c->nby;
  uint32_t alive = 0;
  for (uint32_t s = 0; s < v->high; s++) {
    uint8_t a = AT_U8(v->alive, s);
    uint32_t bin = AT_U32(v->slot_bin, s), req = AT_U32(v->req, s);
    uint16_t wn = AT_U16(v->wp_n, s);
    if (a > 1 || AT_U32(v->gen, s) == 0 || !in_grid(c, AT_PT(v->goal, s)) ||
        wn > c->opts.waypoints || AT_U16(v->wp_i, s) > wn ||
        (bin != CROWD_NO_BIN && bin >= bins) || (req != CROWD_NO_REQ && req >= c->ring_cap))
      return BAD(v, err, "malformed: slot %u", s);
    if (a ? !agent_ok(c, v, s)
          : AT_U16(v->field, s) != CROWD_NO_FIELD || req != CROWD_NO_REQ)
      return BAD(v, err, "malformed: agent in slot %u", s);
    alive += a;
  }
  if (alive != v->live || v->live + v->n_free != v->high || v->next_group == 0)
    return BAD(v, err, "malformed: %u agents live, %u of %u slots free", v->live,
               v->n_free, v->high);
  return CAIRN_OK;
}

/* Free slots: dead, each once (marked in nstate, the steering's per-tick
 * scratch, which holds nothing between ticks). */
static cairn_status check_free(cairn_crowd *c, const crowd_view *v, cairn_error *err) {
  memset(c->nstate, 0, v->high);
  for (uint32_t k = 0; k < v->n_free; k++) {
    uint32_t s = AT_U32(v->free_slots, k);
    if (s >= v->high || AT_U8(v->alive, s) || c->nstate[s])
      return BAD(v, err, "malformed: free slot %u", s);
    c->nstate[s] = 1;
  }
  return CAIRN_OK;
}

static cairn_status check_waypoints(const cairn_crowd *c, const crowd_view *v,
                                    cairn_error *err) {
  size_t n = 0;
  for (uint32_t s = 0; s < v->high; s++) n += AT_U16(v->wp_n, s);
  if (!all_in_grid(c, v->wp, n)) return BAD(v, err, "malformed: a waypoint off the grid");
  return CAIRN_OK;
}

/* Last tick's bin order: sorted by bin, then slot, and exactly the slots
 * whose bin is set. */
static cairn_status check_bins(const cairn_crowd *c, const crowd_view *v, cairn_error *err) {
  uint64_t prev = 0;
  for (uint32_t k = 0; k < v->n_binned; k++) {
    uint32_t s = AT_U32(v->order_of, k);
    uint32_t bin = s < v->high ? AT_U32(v->slot_bin, s) : CROWD_NO_BIN;
    uint64_t key = (uint64_t)bin << 32 | s;
    if (bin == CROWD_NO_BIN || (k && key <= prev))
      return BAD(v, err, "malformed: the bin order at %u", k);
    prev = key;
  }
  uint32_t set = 0;
  for (uint32_t s = 0; s < v->high; s++) set += AT_U32(v->slot_bin, s) != CROWD_NO_BIN;
  if (set != v->n_binned) return BAD(v, err, "malformed: %u slots binned, %u listed", set,
                                     v->n_binned);
  (void)c;
  return CAIRN_OK;
}

/* The agents the queries look at beside the bins: slots in use, each
 * once (marked in nflags, per-tick scratch like nstate). */
static cairn_status check_loose(cairn_crowd *c, const crowd_view *v, cairn_error *err) {
  memset(c->nflags, 0, v->high);
  for (uint32_t k = 0; k < v->n_loose; k++) {
    uint32_t s = AT_U32(v->loose, k);
    if (s >= v->high || c->nflags[s]) return BAD(v, err, "malformed: loose agent %u", k);
    c->nflags[s] = 1;
  }
  return CAIRN_OK;
}

/* A pending event on file. */
static cairn_crowd_event event_at(const crowd_view *v, uint32_t k) {
  const uint8_t *p = v->events + (size_t)k * CROWD_EVENT_BYTES;
  cairn_crowd_event e;
  memset(&e, 0, sizeof e);
  e.agent = cairn__le64(p);
  e.user = cairn__le64(p + 8);
  e.tick = cairn__le64(p + 16);
  e.kind = (cairn_crowd_event_kind)cairn__le32(p + 24);
  return e;
}

/* The pending events: as many as the ring holds, each of a slot in use
 * (its generation then, not 0), of a known kind, stamped with a tick run
 * so far, in the order of their ticks. */
static cairn_status check_events(const cairn_crowd *c, const crowd_view *v,
                                 cairn_error *err) {
  if (v->n_events > c->ev_cap)
    return BAD(v, err, "malformed: %u events pending, the ring holds %u", v->n_events,
               c->ev_cap);
  uint64_t prev = 0;
  for (uint32_t k = 0; k < v->n_events; k++) {
    const uint8_t *p = v->events + (size_t)k * CROWD_EVENT_BYTES;
    cairn_crowd_event e = event_at(v, k);
    uint32_t kind = cairn__le32(p + 24), slot = (uint32_t)(e.agent & 0xffffffffu);
    if (slot >= v->high || (e.agent >> 32) == 0 || kind < CAIRN_EVENT_ARRIVED ||
        kind > CAIRN_EVENT_REMOVED || e.tick > v->tick || e.tick < prev)
      return BAD(v, err, "malformed: event %u", k);
    prev = e.tick;
  }
  return CAIRN_OK;
}

/* The unit size of the agents following field slot f (they share one, as
 * the crowd keeps a field per goal set and size); 0 when none does, -1
 * when they differ. */
static int32_t field_size(const crowd_view *v, uint16_t f) {
  int32_t size = 0;
  for (uint32_t s = 0; s < v->high; s++) {
    if (AT_U16(v->field, s) != f) continue;
    int32_t k = cairn__crowd_size_of(AT_F32(v->radius, s));
    if (size && k != size) return -1;
    size = k;
  }
  return size;
}

static cairn_status check_fields(const cairn_crowd *c, const crowd_view *v,
                                 cairn_error *err) {
  uint32_t users[CROWD_MAX_FIELDS] = {0};
  int present[CROWD_MAX_FIELDS] = {0};
  for (uint32_t s = 0; s < v->high; s++) {
    uint16_t f = AT_U16(v->field, s);
    if (f != CROWD_NO_FIELD) users[f]++; /* checked below CROWD_MAX_FIELDS */
  }
  for (uint32_t k = 0; k < v->n_fields; k++)
    if (v->fields[k].index < CROWD_MAX_FIELDS && field_size(v, v->fields[k].index) < 0)
      return BAD(v, err, "malformed: units of several sizes follow field %u", k);
  for (uint32_t k = 0; k < v->n_fields; k++) {
    const field_view *f = &v->fields[k];
    if (f->index >= CROWD_MAX_FIELDS || (k && f->index <= v->fields[k - 1].index) ||
        f->users == 0 || f->users != users[f->index] || f->n_goals == 0 ||
        f->n_goals > c->smooth_cap || !all_in_grid(c, f->goals, f->n_goals))
      return BAD(v, err, "malformed: field %u", k);
    present[f->index] = 1;
  }
  for (int k = 0; k < CROWD_MAX_FIELDS; k++)
    if (users[k] && !present[k]) return BAD(v, err, "malformed: agents follow no field %d", k);
  return CAIRN_OK;
}

/* A request on file. */
static crowd_request request_at(const crowd_view *v, uint32_t k) {
  const uint8_t *p = v->ring + (size_t)k * CROWD_REQ_BYTES;
  crowd_request r;
  memset(&r, 0, sizeof r);
  r.slot = cairn__le32(p);
  r.gen = cairn__le32(p + 4);
  r.group = cairn__le32(p + 8);
  r.goal = cairn__crowd_pt_at(p + 12);
  r.enqueued = cairn__le64(p + 20);
  r.live = p[28];
  r.no_avoid = p[29];
  r.no_hpa = p[30];
  r.from_set = p[31];
  r.from = cairn__crowd_pt_at(p + 32);
  return r;
}

/* The ring: each live request is its slot's (req points at it), and each
 * slot's req points at a live request of its own. */
static cairn_status check_ring(const cairn_crowd *c, const crowd_view *v, cairn_error *err) {
  if (v->ring_head >= c->ring_cap || v->ring_len > c->ring_cap)
    return BAD(v, err, "malformed: the path queue");
  for (uint32_t k = 0; k < v->ring_len; k++) {
    crowd_request r = request_at(v, k);
    uint32_t pos = (v->ring_head + k) % c->ring_cap;
    if (r.live > 1 || r.no_avoid > 1 || r.no_hpa > 1 || r.from_set > 1)
      return BAD(v, err, "malformed: request %u", k);
    if (r.live && (r.slot >= v->high || !AT_U8(v->alive, r.slot) ||
                   AT_U32(v->req, r.slot) != pos || !in_grid(c, r.goal) ||
                   (r.from_set && !in_grid(c, r.from))))
      return BAD(v, err, "malformed: request %u", k);
  }
  for (uint32_t s = 0; s < v->high; s++) {
    uint32_t pos = AT_U32(v->req, s);
    if (pos == CROWD_NO_REQ) continue;
    uint32_t k = (pos + c->ring_cap - v->ring_head) % c->ring_cap;
    if (k >= v->ring_len) return BAD(v, err, "malformed: the request of slot %u", s);
    crowd_request r = request_at(v, k);
    if (!r.live || r.slot != s) return BAD(v, err, "malformed: the request of slot %u", s);
  }
  return CAIRN_OK;
}

/* The unit size request r on file plans for, as
 * cairn__crowd_request_size reads it from a crowd: its widest disc's. */
static int32_t view_request_size(const crowd_view *v, const crowd_request *r) {
  float widest = AT_F32(v->radius, r->slot);
  for (uint32_t m = 0; r->group && m < v->high; m++)
    if (AT_U8(v->alive, m) && AT_U32(v->group, m) == r->group &&
        AT_U8(v->order, m) == CAIRN_ORDER_PATH && AT_F32(v->radius, m) > widest)
      widest = AT_F32(v->radius, m);
  return cairn__crowd_size_of(widest);
}

/* The search on file is the one the head request has in progress. */
static cairn_status check_search(const cairn_crowd *c, const crowd_view *v,
                                 cairn_error *err) {
  int want = CROWD_SEARCH_NONE;
  if (v->in_search > 1 || (v->in_search && !v->ring_len))
    return BAD(v, err, "malformed: a search without a request");
  if (v->in_search) {
    crowd_request head = request_at(v, 0);
    if (head.live)
      want = c->opts.hpa && cairn__crowd_req_over_hpa(c, &head, view_request_size(v, &head))
                 ? CROWD_SEARCH_HPA
                                                                               : CROWD_SEARCH_ASTAR;
  }
  if (v->search_kind != want) return BAD(v, err, "malformed: the search in progress");
  if (!all_in_grid(c, v->avoid, v->n_avoid))
    return BAD(v, err, "malformed: an avoided cell off the grid");
  if (want == CROWD_SEARCH_HPA && !in_grid(c, v->hpa_from))
    return BAD(v, err, "malformed: the route's start");
  return CAIRN_OK;
}

static cairn_status check_claims(const cairn_crowd *c, const crowd_view *v,
                                 cairn_error *err) {
  if (!c->claims && v->n_claims) return BAD(v, err, "malformed: claims without claims on");
  const uint8_t *p = v->claims;
  uint32_t prev = 0;
  for (uint32_t k = 0; k < v->n_claims; k++) {
    uint32_t unit = cairn__le32(p), n = cairn__le32(p + 12);
    if (unit >= v->high || (k && unit <= prev) || n == 0 || n > c->smooth_cap ||
        !all_in_grid(c, p + 16, n))
      return BAD(v, err, "malformed: the claims of slot %u", unit);
    prev = unit;
    p += 16 + (size_t)n * CROWD_SZ_PT;
  }
  return CAIRN_OK;
}

/* The congestion layer's cells: open cells of the grid, each once, values
 * a layer holds, no more than an update lists. The duplicates are found
 * with the layer's counting array, which is 0 between updates and left
 * so. */
static cairn_status check_density(cairn_crowd *c, const crowd_view *v, cairn_error *err) {
  const crowd_density *d = c->dens;
  if (!d) {
    if (v->n_dense) return BAD(v, err, "%u density cells, but density is off", v->n_dense);
    return CAIRN_OK;
  }
  if (v->n_dense > d->list_cap)
    return BAD(v, err, "%u density cells, above the %zu an update lists", v->n_dense,
               d->list_cap);
  uint32_t k = 0;
  for (; k < v->n_dense; k++) {
    const uint8_t *e = v->dense + (size_t)k * CROWD_DENSE_BYTES;
    cairn_point p = cairn__crowd_pt_at(e);
    uint32_t pen = cairn__le32(e + 8);
    if (!in_grid(c, p) || cairn__crowd_blocked(c, p.x, p.y) || pen == 0 ||
        pen > CAIRN_PENALTY_MAX)
      break;
    uint32_t i = cairn__crowd_index(c, p);
    if (d->sum[i]) break;
    d->sum[i] = 1;
  }
  for (uint32_t j = 0; j < k; j++) {
    cairn_point p = cairn__crowd_pt_at(v->dense + (size_t)j * CROWD_DENSE_BYTES);
    d->sum[cairn__crowd_index(c, p)] = 0;
  }
  if (k < v->n_dense)
    return BAD(v, err,
               "density cell %u is off the grid, blocked, listed twice or has value 0 or "
               "the block's",
               k);
  return CAIRN_OK;
}

static cairn_status check_view(cairn_crowd *c, const crowd_view *v, cairn_error *err) {
  cairn_status st = check_slots(c, v, err);
  if (st == CAIRN_OK) st = check_free(c, v, err);
  if (st == CAIRN_OK) st = check_waypoints(c, v, err);
  if (st == CAIRN_OK) st = check_bins(c, v, err);
  if (st == CAIRN_OK) st = check_loose(c, v, err);
  if (st == CAIRN_OK) st = check_fields(c, v, err);
  if (st == CAIRN_OK) st = check_ring(c, v, err);
  if (st == CAIRN_OK) st = check_search(c, v, err);
  if (st == CAIRN_OK) st = check_claims(c, v, err);
  if (st == CAIRN_OK) st = check_events(c, v, err);
  if (st == CAIRN_OK) st = check_density(c, v, err);
  return st;
}

/* ---- step 2: what the state needs ----------------------------------- */

typedef struct crowd_loaded {
  const cairn_field *fields[CROWD_MAX_FIELDS];
  cairn_claims *claims;  /* a new table (claims on) */
  cairn_search *search;  /* a new context for the A* in progress, or NULL */
  cairn_hpa_query *hq;   /* a new context for the route in progress, or NULL */
} crowd_loaded;

static void drop_loaded(cairn_crowd *c, crowd_loaded *l) {
  for (int k = 0; k < CROWD_MAX_FIELDS; k++)
    if (l->fields[k]) cairn_flow_cache_release(c->cache, l->fields[k]);
  cairn_claims_destroy(l->claims);
  cairn_search_destroy(l->search);
  cairn_hpa_query_destroy(l->hq);
  memset(l, 0, sizeof *l);
}

/* Points on file into the crowd's path scratch (no state between ticks;
 * every count was checked to fit it). */
static const cairn_point *decode_pts(cairn_crowd *c, const uint8_t *p, size_t n) {
  for (size_t k = 0; k < n; k++) c->smooth[k] = AT_PT(p, k);
  return c->smooth;
}

static cairn_status load_fields(cairn_crowd *c, const crowd_view *v, crowd_loaded *l,
                                cairn_error *err) {
  for (uint32_t k = 0; k < v->n_fields; k++) {
    const field_view *f = &v->fields[k];
    const cairn_point *goals = decode_pts(c, f->goals, f->n_goals);
    cairn_status st = cairn_flow_cache_acquire_sized(c->cache, c->builder, goals, f->n_goals,
                                                     field_size(v, f->index),
                                                     &l->fields[f->index]);
    if (st == CAIRN_ERR_NOMEM)
      return cairn__crowd_file_fail(err, st, v->name, "out of memory building field %u", k);
    if (st != CAIRN_OK)
      return cairn__crowd_file_fail(err, CAIRN_ERR_MISMATCH, v->name,
                                    "field %u cannot be built on this map: %s", k,
                                    cairn_status_str(st));
  }
  return CAIRN_OK;
}

static cairn_status load_claims(cairn_crowd *c, const crowd_view *v, crowd_loaded *l,
                                cairn_error *err) {
  if (!c->claims) return CAIRN_OK;
  cairn_status st = cairn_claims_create(c->route, &c->alloc, &l->claims);
  const uint8_t *p = v->claims;
  for (uint32_t k = 0; k < v->n_claims && st == CAIRN_OK; k++) {
    uint32_t unit = cairn__le32(p), n = cairn__le32(p + 12);
    st = cairn_claims_set(l->claims, unit, decode_pts(c, p + 16, n), n, cairn__le64(p + 4));
    p += 16 + (size_t)n * CROWD_SZ_PT;
  }
  if (st != CAIRN_OK)
    return cairn__crowd_file_fail(err, st, v->name, "cannot set the claims again: %s",
                                  cairn_status_str(st));
  return CAIRN_OK;
}

/* The context the loaded search goes into: the crowd's own when it is
 * idle (a failure there loses nothing), else a new one. */
static cairn_status astar_context(cairn_crowd *c, crowd_loaded *l, cairn_search **out) {
  *out = c->search;
  if (!c->in_search) return CAIRN_OK;
  cairn_status st = cairn_search_create(&c->alloc, &l->search);
  if (st == CAIRN_OK) st = cairn_search_reserve_grid(l->search, c->route);
  *out = l->search;
  return st;
}

/* The head request's A*, resumed with the options its begin had (as
 * begin() in crowd_queue.c sets them). */
static cairn_status load_astar(cairn_crowd *c, const crowd_view *v, crowd_loaded *l,
                               cairn_error *err) {
  crowd_request head = request_at(v, 0);
  cairn_point avoid[CROWD_MAX_AVOID];
  for (uint32_t k = 0; k < v->n_avoid; k++) avoid[k] = AT_PT(v->avoid, k);
  cairn_search_opts o = cairn_search_defaults();
  o.penalty = c->opts.penalty;
  o.size = view_request_size(v, &head);
  if (c->claims && !head.group) {
    o.claims = l->claims;
    o.claim_penalty = c->opts.claim_penalty;
    o.claim_radius = c->opts.claim_radius;
  }
  o.avoid = avoid;
  o.n_avoid = v->n_avoid;
  cairn_search *s;
  cairn_status st = astar_context(c, l, &s);
  if (st == CAIRN_OK) st = cairn_astar_resume(s, c->route, &o, v->search, v->search_len);
  if (st == CAIRN_OK) return CAIRN_OK;
  if (st == CAIRN_ERR_NOMEM)
    return cairn__crowd_file_fail(err, st, v->name, "out of memory resuming the path search");
  return cairn__crowd_file_fail(err, st == CAIRN_ERR_PARSE ? st : CAIRN_ERR_MISMATCH, v->name,
                                "the path search in progress does not resume on this map: %s",
                                cairn_status_str(st));
}

/* The head request's route over the hierarchy: planned again from where
 * it was and refined as far (a plan and its refinement depend on the
 * hierarchy alone), then checked against the saved expansions. */
static cairn_status load_route(cairn_crowd *c, const crowd_view *v, crowd_loaded *l,
                               cairn_error *err) {
  crowd_request head = request_at(v, 0);
  cairn_hpa_query *q = c->hq;
  cairn_status st = CAIRN_OK;
  if (c->in_search) {
    st = cairn_hpa_query_create(&c->alloc, &l->hq);
    if (st == CAIRN_OK) st = cairn_hpa_query_reserve(l->hq, c->opts.hpa);
    q = l->hq;
  }
  if (st == CAIRN_ERR_NOMEM)
    return cairn__crowd_file_fail(err, st, v->name, "out of memory resuming the route");
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  po.smooth = 0; /* as the queue plans */
  po.size = view_request_size(v, &head);
  cairn_hpa_result res;
  st = cairn_hpa_plan(q, c->opts.hpa, v->hpa_from, head.goal, &po, &res);
  for (uint32_t k = 0; k < v->hpa_refined && st == CAIRN_IN_PROGRESS; k++)
    st = cairn_hpa_refine(q, 1, &res);
  if (st == CAIRN_ERR_NOMEM)
    return cairn__crowd_file_fail(err, st, v->name, "out of memory resuming the route");
  if (st == CAIRN_ERR_STATE) /* as the hierarchy's own reads refuse */
    return cairn__crowd_file_fail(err, st, v->name,
                                  "the hierarchy is stale (its grid changed since its last "
                                  "edit, or an edit failed): the route cannot resume");
  if (st != CAIRN_IN_PROGRESS || res.route_refined != v->hpa_refined ||
      res.expanded != v->head_expanded)
    return cairn__crowd_file_fail(err, CAIRN_ERR_MISMATCH, v->name,
                                  "the route in progress does not resume over this hierarchy");
  return CAIRN_OK;
}

static cairn_status load_needs(cairn_crowd *c, const crowd_view *v, crowd_loaded *l,
                               cairn_error *err) {
  cairn_status st = load_fields(c, v, l, err);
  if (st == CAIRN_OK) st = load_claims(c, v, l, err);
  if (st == CAIRN_OK && v->search_kind == CROWD_SEARCH_ASTAR) st = load_astar(c, v, l, err);
  if (st == CAIRN_OK && v->search_kind == CROWD_SEARCH_HPA) st = load_route(c, v, l, err);
  return st;
}

/* The congestion layer before a load (to put back if it fails) and the
 * file's, as padded cells and values: the fields the load builds or
 * repairs must show the file's. */
typedef struct density_swap {
  uint32_t *cells, *pen; /* the old list, then the file's */
  uint32_t n_old, n_new;
  size_t bytes;
  int applied; /* the file's is set */
} density_swap;

static void swap_free(cairn_crowd *c, density_swap *w) {
  if (w->cells) cairn__free(&c->alloc, w->cells, w->bytes);
  memset(w, 0, sizeof *w);
}

/* Sets the layer to the file's and brings the cache's fields to it. */
static cairn_status density_in(cairn_crowd *c, const crowd_view *v, density_swap *w,
                               cairn_error *err) {
  memset(w, 0, sizeof *w);
  crowd_density *d = c->dens;
  if (!d) return CAIRN_OK;
  size_t n = (size_t)d->n_live + v->n_dense;
  w->bytes = 2 * n * sizeof *w->cells;
  w->cells = n ? cairn__alloc(&c->alloc, w->bytes) : NULL;
  if (n && !w->cells)
    return cairn__crowd_file_fail(err, CAIRN_ERR_NOMEM, v->name,
                                  "out of memory setting the density");
  w->pen = n ? w->cells + n : NULL; /* NULL + 0 is undefined */
  w->n_old = d->n_live;
  w->n_new = v->n_dense;
  for (uint32_t k = 0; k < d->n_live; k++) {
    w->cells[k] = d->live[k];
    w->pen[k] = d->pen[d->live[k]];
  }
  for (uint32_t k = 0; k < v->n_dense; k++) {
    const uint8_t *e = v->dense + (size_t)k * CROWD_DENSE_BYTES;
    cairn_point p = cairn__crowd_pt_at(e);
    w->cells[w->n_old + k] = cairn__crowd_index(c, p);
    w->pen[w->n_old + k] = cairn__le32(e + 8);
  }
  if (w->n_new) /* else no cells: pointer sums on NULL are undefined */
    cairn__crowd_density_set(c, w->cells + w->n_old, w->pen + w->n_old, w->n_new);
  else
    cairn__crowd_density_set(c, NULL, NULL, 0);
  w->applied = 1;
  cairn_status st = cairn_flow_cache_layer_changed(c->cache, c->builder, NULL, NULL);
  if (st != CAIRN_OK)
    return cairn__crowd_file_fail(err, st, v->name, "repairing the fields to the density: %s",
                                  cairn_status_str(st));
  return CAIRN_OK;
}

/* A failed load: the layer as it was, and the fields with it (a repair
 * gives exactly the fields the layer had). */
static void density_back(cairn_crowd *c, density_swap *w) {
  if (!w->applied) return;
  cairn__crowd_density_set(c, w->cells, w->pen, w->n_old);
  (void)cairn_flow_cache_layer_changed(c->cache, c->builder, NULL, NULL);
}

/* ---- step 3: the commit --------------------------------------------- */

static void commit_objects(cairn_crowd *c, const crowd_view *v, crowd_loaded *l) {
  const cairn_field *old[CROWD_MAX_FIELDS];
  for (int k = 0; k < CROWD_MAX_FIELDS; k++) {
    /* the caller's fields were never the cache's to release */
    old[k] = c->fields[k].caller ? NULL : c->fields[k].field;
    c->fields[k].field = l->fields[k];
    c->fields[k].users = 0;
    c->fields[k].caller = 0; /* a save holds the cache's fields alone */
  }
  for (uint32_t k = 0; k < v->n_fields; k++)
    c->fields[v->fields[k].index].users = v->fields[k].users;
  for (int k = 0; k < CROWD_MAX_FIELDS; k++)
    if (old[k]) cairn_flow_cache_release(c->cache, old[k]);
  if (l->claims) {
    cairn_claims_destroy(c->claims);
    c->claims = l->claims;
  }
  if (l->search) {
    cairn_search_destroy(c->search);
    c->search = l->search;
  }
  if (l->hq) {
    cairn_hpa_query_destroy(c->hq);
    c->hq = l->hq;
  }
  memset(l, 0, sizeof *l);
}

/* Slots from..to as a new crowd has them (never used). */
static void clear_slots(cairn_crowd *c, uint32_t from, uint32_t to) {
  if (from >= to) return;
  size_t n = to - from;
#define CLEAR_ARRAY(name, kind) memset(c->name + from, 0, sizeof *c->name * n);
  CROWD_SLOT_ARRAYS(CLEAR_ARRAY)
#undef CLEAR_ARRAY
  memset(c->slot_bin + from, 0xff, sizeof *c->slot_bin * n);
  memset(c->wp + (size_t)from * c->opts.waypoints, 0,
         sizeof *c->wp * n * c->opts.waypoints);
}

static void commit_agents(cairn_crowd *c, const crowd_view *v) {
  clear_slots(c, v->high, c->high);
  c->high = v->high;
  c->live = v->live;
  c->n_free = v->n_free;
  for (uint32_t k = 0; k < v->n_free; k++) c->free_slots[k] = AT_U32(v->free_slots, k);
#define COPY_ARRAY(name, kind) \
  for (uint32_t s = 0; s < v->high; s++) c->name[s] = AT_##kind(v->name, s);
  CROWD_SLOT_ARRAYS(COPY_ARRAY)
#undef COPY_ARRAY
  size_t at = 0;
  for (uint32_t s = 0; s < v->high; s++)
    for (uint16_t i = 0; i < c->wp_n[s]; i++, at++)
      c->wp[(size_t)s * c->opts.waypoints + i] = AT_PT(v->wp, at);
  /* last tick's bin order, which the next tick counts in (sslot) */
  c->n_binned = v->n_binned;
  for (uint32_t k = 0; k < v->n_binned; k++)
    c->order_of[k] = c->sslot[k] = AT_U32(v->order_of, k);
  /* the loose list as it was: the crowd's own emptied, the file's listed */
  cairn__crowd_tighten(c);
  for (uint32_t k = 0; k < v->n_loose; k++) cairn__crowd_loosen(c, AT_U32(v->loose, k));
}

static void commit_queue(cairn_crowd *c, const crowd_view *v) {
  c->ring_head = v->ring_head;
  c->ring_len = v->ring_len;
  for (uint32_t k = 0; k < v->ring_len; k++)
    c->ring[(v->ring_head + k) % c->ring_cap] = request_at(v, k);
  c->in_search = v->in_search;
  c->head_expanded = v->head_expanded;
  c->head_given = (size_t)v->head_given;
  c->debt = v->debt;
  c->n_avoid = v->n_avoid;
  for (uint32_t k = 0; k < v->n_avoid; k++) c->avoid[k] = AT_PT(v->avoid, k);
  c->head_from = v->search_kind == CROWD_SEARCH_HPA ? v->hpa_from : (cairn_point){0, 0};
  c->head_refined = v->search_kind == CROWD_SEARCH_HPA ? v->hpa_refined : 0;
}

static void commit_stats(cairn_crowd *c, const crowd_view *v) {
  cairn_crowd_stats *s = &c->stats;
  const uint8_t *p = v->stats;
  s->overlaps = AT_U64(p, 0);
  s->in_wall = AT_U64(p, 1);
  s->non_finite = AT_U64(p, 2);
  s->repaths = AT_U64(p, 3);
  s->tick_nodes = AT_U64(p, 4);
  s->max_tick_nodes = AT_U64(p, 5);
  s->served = AT_U64(p, 6);
  s->events_lost = AT_U64(p, 7);
  for (int k = 0; k < 257; k++) s->wait_hist[k] = AT_U64(p, 8 + k);
}

/* The pending events, the oldest at the ring's start. */
static void commit_events(cairn_crowd *c, const crowd_view *v) {
  c->ev_head = 0;
  c->ev_len = v->n_events;
  for (uint32_t k = 0; k < v->n_events; k++) c->ev[k] = event_at(v, k);
  c->ev_tick = v->tick; /* between ticks: the ticks run */
}

static void commit(cairn_crowd *c, const crowd_view *v, crowd_loaded *l) {
  commit_objects(c, v, l);
  commit_agents(c, v);
  commit_queue(c, v);
  commit_stats(c, v);
  commit_events(c, v);
  c->tick = v->tick;
  c->next_group = v->next_group;
  c->tick_status = CAIRN_OK;
  /* the fields were built on the layer as it is */
  c->layer_seen = c->opts.penalty ? cairn_penalty_version(c->opts.penalty) : 0;
  /* the workers' per-block rows are stamped tick + 1 when valid: none is */
  uint32_t nw = cairn__workers_count(&c->workers);
  for (uint32_t w = 0; w < nw; w++) c->wblk_tick[w] = c->tick;
}

/* ---- the entry points ----------------------------------------------- */

static cairn_status load(cairn_crowd *c, const void *buf, size_t len, const char *name,
                         cairn_error *err) {
  crowd_view v;
  memset(&v, 0, sizeof v);
  v.name = name ? name : "<memory>";
  /* the cache's fields must show the map and the layer the file was
   * checked against */
  char why[CROWD_ERROR_CAP];
  if (cairn__crowd_told(c, why, sizeof why) != CAIRN_OK)
    return cairn__crowd_file_fail(err, CAIRN_ERR_STATE, v.name, "%s: tell the crowd first", why);
  cairn__rbuf r;
  cairn_status st = cairn__crowd_frame(buf, len, v.name, &r, err);
  if (st != CAIRN_OK) return st;
  crowd_setup file, mine;
  cairn__crowd_setup_get(&r, &file);
  cairn__crowd_setup_of(c, &mine);
  if (r.over) return BAD(&v, err, "truncated setup");
  if (cairn__crowd_setup_diff(&file, &mine, why, sizeof why))
    return cairn__crowd_file_fail(err, CAIRN_ERR_MISMATCH, v.name, "made for another crowd: %s",
                                  why);
  st = read_view(c, &r, &v, err);
  if (st == CAIRN_OK) st = check_view(c, &v, err);
  if (st != CAIRN_OK) return st;
  crowd_loaded l;
  memset(&l, 0, sizeof l);
  density_swap w;
  st = density_in(c, &v, &w, err);
  if (st == CAIRN_OK) st = load_needs(c, &v, &l, err);
  if (st != CAIRN_OK) {
    drop_loaded(c, &l);
    density_back(c, &w);
    swap_free(c, &w);
    return st;
  }
  commit(c, &v, &l);
  swap_free(c, &w);
  return CAIRN_OK;
}

/* A load's outcome told as the crowd's other calls tell theirs: a
 * refusal's line (mine) is also cairn_crowd_error's, and err's when
 * given. */
static cairn_status told(cairn_crowd *c, cairn_status st, const cairn_error *mine,
                         cairn_error *err) {
  if (err) *err = *mine;
  if (st != CAIRN_OK) return cairn__crowd_fail(c, st, "%s", mine->message);
  return cairn__crowd_ok(c);
}

cairn_status cairn_crowd_load(cairn_crowd *c, const void *buf, size_t len, cairn_error *err) {
  cairn_error mine = {"", 0};
  if (!c) return cairn__crowd_file_fail(err, CAIRN_ERR_ARG, NULL, "invalid argument");
  cairn_status st = buf ? load(c, buf, len, NULL, &mine)
                        : cairn__crowd_file_fail(&mine, CAIRN_ERR_ARG, NULL, "invalid argument");
  return told(c, st, &mine, err);
}

cairn_status cairn_crowd_load_file(cairn_crowd *c, const char *path, cairn_error *err) {
  cairn_error mine = {"", 0};
  if (!c) return cairn__crowd_file_fail(err, CAIRN_ERR_ARG, path, "invalid argument");
  uint8_t *buf;
  size_t len, cap;
  cairn_status st = path ? cairn__crowd_read_file(path, &c->alloc, &buf, &len, &cap, &mine)
                         : cairn__crowd_file_fail(&mine, CAIRN_ERR_ARG, NULL, "invalid argument");
  if (st == CAIRN_OK) {
    st = load(c, buf, len, path, &mine);
    cairn__free(&c->alloc, buf, cap);
  }
  return told(c, st, &mine, err);
}
