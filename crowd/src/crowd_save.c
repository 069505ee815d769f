/* Saving a crowd: its setup (what a load must match), the state in the
 * order of docs/crowd.md's table, the frame around them (magic, version,
 * size, checksum), the file written beside its place and renamed over it,
 * and a save's description. Loading is crowd_load.c. */
#include "crowd_save_format.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define say cairn__crowd_say /* the detail writer's short name, in this file */

/* ---- the setup ------------------------------------------------------ */

/* The layer's fingerprint: cairn's hash over the width, the height and the
 * rows of penalties, each as 4 little-endian bytes (as the hierarchy's
 * save format takes it); never 0 (0 says "no layer"). */
static uint64_t penalty_fingerprint(const cairn_penalty *p, int32_t w, int32_t h) {
  int32_t stride;
  const uint32_t *cells = cairn_penalty_cells(p, &stride);
  cairn__hash hs;
  cairn__hash_init(&hs);
  cairn__hash_le(&hs, (uint32_t)w, 4);
  cairn__hash_le(&hs, (uint32_t)h, 4);
  uint8_t chunk[1024]; /* the rows in little-endian bytes, a chunk at a time */
  for (int32_t y = 0; y < h; y++) {
    const uint32_t *row = cells + (size_t)(y + 1) * (size_t)stride + 1;
    for (int32_t x = 0; x < w;) {
      size_t n = 0;
      for (; x < w && n + 4 <= sizeof chunk; x++, n += 4)
        for (int b = 0; b < 4; b++) chunk[n + (size_t)b] = (uint8_t)(row[x] >> (8 * b));
      cairn__hash_add(&hs, chunk, n);
    }
  }
  uint64_t f = cairn__hash_end(&hs);
  return f ? f : 1;
}

void cairn__crowd_setup_of(const cairn_crowd *c, crowd_setup *out) {
  const cairn_crowd_opts *o = &c->opts;
  memset(out, 0, sizeof *out);
  out->width = (uint32_t)c->width;
  out->height = (uint32_t)c->height;
  out->walk_fp = cairn_grid_fingerprint(c->grid);
  out->route_fp = o->route_grid ? cairn_grid_fingerprint(o->route_grid) : 0;
  out->penalty_fp = o->penalty ? penalty_fingerprint(o->penalty, c->width, c->height) : 0;
  if (o->hpa) {
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(o->hpa, &hs);
    out->hpa = 1;
    out->hpa_cluster = hs.cluster;
    out->hpa_levels = (uint32_t)hs.levels;
    out->hpa_nodes = hs.nodes;
    out->hpa_edges = hs.edges;
    out->hpa_block = hs.levels == 3 ? hs.block : 0;
    out->hpa_max_size = hs.max_size;
  }
  out->path_cache = (uint8_t)c->cache_size;
  out->max_agents = o->max_agents;
  out->dt = o->dt;
  out->bin_size = o->bin_size;
  out->neighbour_radius = o->neighbour_radius;
  out->path_budget = o->path_budget;
  out->waypoints = o->waypoints;
  out->stuck_ticks = o->stuck_ticks;
  out->avoid_radius = o->avoid_radius;
  out->claim_penalty = o->claim_penalty;
  out->claim_radius = o->claim_radius;
  out->claim_ticks = o->claim_ticks;
  out->max_events = o->max_events;
  out->density_gain = o->density_gain;
  out->density_comfort = o->density_comfort;
  out->density_ticks = o->density_ticks;
  out->avoidance = (uint32_t)o->avoidance;
  out->orca_horizon = o->orca_horizon;
  out->orca_neighbours = o->orca_neighbours;
}

void cairn__crowd_setup_put(cairn__wbuf *w, const crowd_setup *s) {
  cairn__put_u32(w, s->width);
  cairn__put_u32(w, s->height);
  cairn__put_u64(w, s->walk_fp);
  cairn__put_u64(w, s->route_fp);
  cairn__put_u64(w, s->penalty_fp);
  cairn__put_u8(w, s->hpa);
  cairn__put_u32(w, (uint32_t)s->hpa_cluster);
  cairn__put_u32(w, s->hpa_levels);
  cairn__put_u32(w, s->hpa_nodes);
  cairn__put_u64(w, s->hpa_edges);
  cairn__put_u32(w, (uint32_t)s->hpa_block);
  cairn__put_u32(w, (uint32_t)s->hpa_max_size);
  cairn__put_u8(w, s->path_cache);
  cairn__put_u32(w, s->max_agents);
  cairn__put_f32(w, s->dt);
  cairn__put_f32(w, s->bin_size);
  cairn__put_f32(w, s->neighbour_radius);
  cairn__put_u64(w, s->path_budget);
  cairn__put_u32(w, s->waypoints);
  cairn__put_u32(w, s->stuck_ticks);
  cairn__put_u32(w, (uint32_t)s->avoid_radius);
  cairn__put_f32(w, s->claim_penalty);
  cairn__put_u32(w, (uint32_t)s->claim_radius);
  cairn__put_u32(w, s->claim_ticks);
  cairn__put_u32(w, s->max_events);
  cairn__put_f32(w, s->density_gain);
  cairn__put_f32(w, s->density_comfort);
  cairn__put_u32(w, s->density_ticks);
  cairn__put_u32(w, s->avoidance);
  cairn__put_f32(w, s->orca_horizon);
  cairn__put_u32(w, s->orca_neighbours);
}

void cairn__crowd_setup_get(cairn__rbuf *r, crowd_setup *s) {
  s->width = cairn__get_u32(r);
  s->height = cairn__get_u32(r);
  s->walk_fp = cairn__get_u64(r);
  s->route_fp = cairn__get_u64(r);
  s->penalty_fp = cairn__get_u64(r);
  s->hpa = cairn__get_u8(r);
  s->hpa_cluster = (int32_t)cairn__get_u32(r);
  s->hpa_levels = cairn__get_u32(r);
  s->hpa_nodes = cairn__get_u32(r);
  s->hpa_edges = cairn__get_u64(r);
  s->hpa_block = (int32_t)cairn__get_u32(r);
  s->hpa_max_size = (int32_t)cairn__get_u32(r);
  s->path_cache = cairn__get_u8(r);
  s->max_agents = cairn__get_u32(r);
  s->dt = cairn__get_f32(r);
  s->bin_size = cairn__get_f32(r);
  s->neighbour_radius = cairn__get_f32(r);
  s->path_budget = cairn__get_u64(r);
  s->waypoints = cairn__get_u32(r);
  s->stuck_ticks = cairn__get_u32(r);
  s->avoid_radius = (int32_t)cairn__get_u32(r);
  s->claim_penalty = cairn__get_f32(r);
  s->claim_radius = (int32_t)cairn__get_u32(r);
  s->claim_ticks = cairn__get_u32(r);
  s->max_events = cairn__get_u32(r);
  s->density_gain = cairn__get_f32(r);
  s->density_comfort = cairn__get_f32(r);
  s->density_ticks = cairn__get_u32(r);
  s->avoidance = cairn__get_u32(r);
  s->orca_horizon = cairn__get_f32(r);
  s->orca_neighbours = cairn__get_u32(r);
}

/* Float options compare by their bits: the same bits, the same results. */
static uint64_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static float bits_float(uint64_t bits) {
  uint32_t u = (uint32_t)bits;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

int cairn__crowd_setup_diff(const crowd_setup *f, const crowd_setup *c, char *msg,
                            size_t n) {
  enum { NUM, HEX, FLOAT }; /* how a value prints; floats compare by their bits */
  struct {
    const char *what;
    uint64_t file, crowd;
    int as;
  } items[] = {
      {"the walk grid's width", f->width, c->width, NUM},
      {"the walk grid's height", f->height, c->height, NUM},
      {"the walk grid's fingerprint", f->walk_fp, c->walk_fp, HEX},
      {"the route grid's fingerprint (0: none)", f->route_fp, c->route_fp, HEX},
      {"the penalty layer's fingerprint (0: none)", f->penalty_fp, c->penalty_fp, HEX},
      {"a hierarchy (1: used)", f->hpa, c->hpa, NUM},
      {"the hierarchy's cluster size", (uint32_t)f->hpa_cluster, (uint32_t)c->hpa_cluster, NUM},
      {"the hierarchy's levels", f->hpa_levels, c->hpa_levels, NUM},
      {"the hierarchy's nodes", f->hpa_nodes, c->hpa_nodes, NUM},
      {"the hierarchy's edges", f->hpa_edges, c->hpa_edges, NUM},
      {"the hierarchy's block size (0: two levels)", (uint32_t)f->hpa_block,
       (uint32_t)c->hpa_block, NUM},
      {"the hierarchy's largest unit size", (uint32_t)f->hpa_max_size,
       (uint32_t)c->hpa_max_size, NUM},
      {"a path cache (its unit size; 0: none)", f->path_cache, c->path_cache, NUM},
      {"max_agents", f->max_agents, c->max_agents, NUM},
      {"dt", fbits(f->dt), fbits(c->dt), FLOAT},
      {"bin_size", fbits(f->bin_size), fbits(c->bin_size), FLOAT},
      {"neighbour_radius", fbits(f->neighbour_radius), fbits(c->neighbour_radius), FLOAT},
      {"path_budget", f->path_budget, c->path_budget, NUM},
      {"waypoints", f->waypoints, c->waypoints, NUM},
      {"stuck_ticks", f->stuck_ticks, c->stuck_ticks, NUM},
      {"avoid_radius", (uint32_t)f->avoid_radius, (uint32_t)c->avoid_radius, NUM},
      {"claim_penalty", fbits(f->claim_penalty), fbits(c->claim_penalty), FLOAT},
      {"claim_radius", (uint32_t)f->claim_radius, (uint32_t)c->claim_radius, NUM},
      {"claim_ticks", f->claim_ticks, c->claim_ticks, NUM},
      {"max_events", f->max_events, c->max_events, NUM},
      {"density_gain", fbits(f->density_gain), fbits(c->density_gain), FLOAT},
      {"density_comfort", fbits(f->density_comfort), fbits(c->density_comfort), FLOAT},
      {"density_ticks", f->density_ticks, c->density_ticks, NUM},
      {"avoidance (0 steer, 1 ORCA)", f->avoidance, c->avoidance, NUM},
      {"orca_horizon", fbits(f->orca_horizon), fbits(c->orca_horizon), FLOAT},
      {"orca_neighbours", f->orca_neighbours, c->orca_neighbours, NUM},
  };
  for (size_t k = 0; k < sizeof items / sizeof items[0]; k++) {
    if (items[k].file == items[k].crowd) continue;
    if (items[k].as == FLOAT)
      snprintf(msg, n, "%s differs (file %.9g, crowd %.9g)", items[k].what,
               (double)bits_float(items[k].file), (double)bits_float(items[k].crowd));
    else
      snprintf(msg, n,
               items[k].as == HEX ? "%s differs (file %016llx, crowd %016llx)"
                                  : "%s differs (file %llu, crowd %llu)",
               items[k].what, (unsigned long long)items[k].file,
               (unsigned long long)items[k].crowd);
    return 1;
  }
  return 0;
}

/* ---- frame and messages --------------------------------------------- */

static void clear_error(cairn_error *err) {
  if (!err) return;
  err->message[0] = '\0';
  err->line = 0;
}

cairn_status cairn__crowd_file_fail(cairn_error *err, cairn_status st, const char *name,
                                    const char *fmt, ...) {
  if (!err) return st;
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  snprintf(err->message, sizeof err->message, "%s: %s", name ? name : "<memory>", detail);
  err->line = 0;
  return st;
}

cairn_status cairn__crowd_frame(const void *buf, size_t len, const char *name,
                                cairn__rbuf *body, cairn_error *err) {
  const uint8_t *b = buf;
  if (len < CROWD_HEAD_BYTES + CROWD_SUM_BYTES)
    return cairn__crowd_file_fail(err, CAIRN_ERR_PARSE, name,
                                  "truncated: %zu bytes, not even a crowd save's header", len);
  if (memcmp(b, CROWD_MAGIC, CROWD_MAGIC_LEN) != 0)
    return cairn__crowd_file_fail(err, CAIRN_ERR_PARSE, name, "not a crowd save (wrong magic)");
  uint32_t version = cairn__le32(b + CROWD_MAGIC_LEN);
  if (version != CAIRN_CROWD_SAVE_VERSION)
    return cairn__crowd_file_fail(err, CAIRN_ERR_PARSE, name,
                                  "format version %u; this cairn reads version %u", version,
                                  CAIRN_CROWD_SAVE_VERSION);
  uint32_t flags = cairn__le32(b + CROWD_MAGIC_LEN + 4);
  uint64_t total = cairn__le64(b + CROWD_MAGIC_LEN + 8);
  if (total != len)
    return cairn__crowd_file_fail(err, CAIRN_ERR_PARSE, name,
                                  "%s: %zu bytes, the header says %llu",
                                  total > len ? "truncated" : "trailing bytes", len,
                                  (unsigned long long)total);
  if (cairn__checksum(b, len - CROWD_SUM_BYTES) != cairn__le64(b + len - CROWD_SUM_BYTES))
    return cairn__crowd_file_fail(err, CAIRN_ERR_PARSE, name, "corrupt (checksum mismatch)");
  if (flags != 0)
    return cairn__crowd_file_fail(err, CAIRN_ERR_PARSE, name, "unknown flags %#x", flags);
  *body = cairn__rbuf_init(b + CROWD_HEAD_BYTES, len - CROWD_HEAD_BYTES - CROWD_SUM_BYTES);
  return CAIRN_OK;
}

/* ---- the state ------------------------------------------------------ */

#define PUT_U8(w, v) cairn__put_u8(w, v)
#define PUT_U16(w, v) cairn__put_u16(w, v)
#define PUT_U32(w, v) cairn__put_u32(w, v)
#define PUT_U64(w, v) cairn__put_u64(w, v)
#define PUT_F32(w, v) cairn__put_f32(w, v)
#define PUT_PT(w, v) cairn__crowd_put_pt(w, v)

static void put_agents(cairn__wbuf *w, const cairn_crowd *c) {
  cairn__put_u32(w, c->high);
  cairn__put_u32(w, c->live);
  cairn__put_u32(w, c->n_free);
  for (uint32_t k = 0; k < c->n_free; k++) cairn__put_u32(w, c->free_slots[k]);
#define PUT_ARRAY(name, kind) \
  for (uint32_t s = 0; s < c->high; s++) PUT_##kind(w, c->name[s]);
  CROWD_SLOT_ARRAYS(PUT_ARRAY)
#undef PUT_ARRAY
  /* the waypoints each slot holds (those past wp_n are never read) */
  for (uint32_t s = 0; s < c->high; s++)
    for (uint16_t i = 0; i < c->wp_n[s]; i++)
      cairn__crowd_put_pt(w, c->wp[(size_t)s * c->opts.waypoints + i]);
  /* last tick's bin order (the path queue and the queries read it; the
   * next tick counts in it) */
  cairn__put_u32(w, c->n_binned);
  for (uint32_t k = 0; k < c->n_binned; k++) cairn__put_u32(w, c->order_of[k]);
  /* the agents the queries look at beside the bins, in the order listed */
  cairn__put_u32(w, c->n_loose);
  for (uint32_t k = 0; k < c->n_loose; k++) cairn__put_u32(w, c->loose[k]);
}

/* The fields followed, by their goal sets (a load builds them again). */
static void put_fields(cairn__wbuf *w, const cairn_crowd *c) {
  uint32_t n = 0;
  for (int k = 0; k < CROWD_MAX_FIELDS; k++) n += c->fields[k].field != NULL;
  cairn__put_u32(w, n);
  for (uint16_t k = 0; k < CROWD_MAX_FIELDS; k++) {
    if (!c->fields[k].field) continue;
    size_t ng;
    const cairn_point *goals = cairn_field_goals(c->fields[k].field, &ng);
    cairn__put_u16(w, k);
    cairn__put_u32(w, c->fields[k].users);
    cairn__put_u32(w, (uint32_t)ng);
    for (size_t i = 0; i < ng; i++) cairn__crowd_put_pt(w, goals[i]);
  }
}

static void put_request(cairn__wbuf *w, const crowd_request *r) {
  cairn__put_u32(w, r->slot);
  cairn__put_u32(w, r->gen);
  cairn__put_u32(w, r->group);
  cairn__crowd_put_pt(w, r->goal);
  cairn__put_u64(w, r->enqueued);
  cairn__put_u8(w, (uint8_t)r->live);
  cairn__put_u8(w, (uint8_t)r->no_avoid);
  cairn__put_u8(w, (uint8_t)r->no_hpa);
  cairn__put_u8(w, (uint8_t)r->from_set);
  cairn__crowd_put_pt(w, r->from);
}

/* Which search the head request has in progress. */
static int search_kind(const cairn_crowd *c) {
  if (!c->in_search || !c->ring_len) return CROWD_SEARCH_NONE;
  const crowd_request *r = &c->ring[c->ring_head];
  if (!r->live) return CROWD_SEARCH_NONE; /* dropped: popped unsearched */
  return c->opts.hpa && cairn__crowd_req_over_hpa(c, r, cairn__crowd_request_size(c, r))
             ? CROWD_SEARCH_HPA
             : CROWD_SEARCH_ASTAR;
}

/* The A* in progress, its size first, written in place. */
static cairn_status put_astar(cairn__wbuf *w, const cairn_crowd *c) {
  size_t n = 0;
  cairn_status st = cairn_search_save_state(c->search, NULL, 0, &n);
  if (st != CAIRN_ERR_BUFFER) return CAIRN_ERR_STATE; /* none in progress */
  cairn__put_u32(w, (uint32_t)n);
  if (!w->over && w->cap - w->len >= n &&
      cairn_search_save_state(c->search, w->p + w->len, n, &n) != CAIRN_OK)
    return CAIRN_ERR_STATE;
  if (w->over || w->cap - w->len < n) w->over = true;
  w->len += n;
  return CAIRN_OK;
}

static cairn_status put_queue(cairn__wbuf *w, const cairn_crowd *c) {
  cairn__put_u32(w, c->ring_head);
  cairn__put_u32(w, c->ring_len);
  for (uint32_t k = 0; k < c->ring_len; k++)
    put_request(w, &c->ring[(c->ring_head + k) % c->ring_cap]);
  cairn__put_u8(w, (uint8_t)c->in_search);
  cairn__put_u64(w, c->head_expanded);
  cairn__put_u64(w, (uint64_t)c->head_given);
  cairn__put_u64(w, c->debt);
  cairn__put_u32(w, (uint32_t)c->n_avoid);
  for (size_t k = 0; k < c->n_avoid; k++) cairn__crowd_put_pt(w, c->avoid[k]);
  int kind = search_kind(c);
  cairn__put_u8(w, (uint8_t)kind);
  if (kind == CROWD_SEARCH_ASTAR) return put_astar(w, c);
  if (kind == CROWD_SEARCH_HPA) {
    cairn__crowd_put_pt(w, c->head_from);
    cairn__put_u32(w, c->head_refined);
  }
  return CAIRN_OK;
}

/* Each slot's claims (slot numbers are the units' ids). The cells pass
 * through the crowd's path scratch, which holds any unit's claims (a unit
 * claims at most the cells of a path) and nothing between ticks. */
static cairn_status put_claims(cairn__wbuf *w, const cairn_crowd *c) {
  uint32_t n = 0;
  size_t cells;
  uint64_t until;
  for (uint32_t s = 0; c->claims && s < c->high; s++) {
    cairn_claims_get(c->claims, s, NULL, 0, &cells, &until);
    n += cells > 0;
  }
  cairn__put_u32(w, n);
  for (uint32_t s = 0; c->claims && s < c->high; s++) {
    if (cairn_claims_get(c->claims, s, c->smooth, c->smooth_cap, &cells, &until) != CAIRN_OK)
      return CAIRN_ERR_STATE;
    if (!cells) continue;
    cairn__put_u32(w, s);
    cairn__put_u64(w, until);
    cairn__put_u32(w, (uint32_t)cells);
    for (size_t i = 0; i < cells; i++) cairn__crowd_put_pt(w, c->smooth[i]);
  }
  return CAIRN_OK;
}

static void put_stats(cairn__wbuf *w, const cairn_crowd *c) {
  const cairn_crowd_stats *s = &c->stats;
  cairn__put_u64(w, s->overlaps);
  cairn__put_u64(w, s->in_wall);
  cairn__put_u64(w, s->non_finite);
  cairn__put_u64(w, s->repaths);
  cairn__put_u64(w, s->tick_nodes);
  cairn__put_u64(w, s->max_tick_nodes);
  cairn__put_u64(w, s->served);
  cairn__put_u64(w, s->events_lost);
  for (int k = 0; k < 257; k++) cairn__put_u64(w, s->wait_hist[k]);
}

/* The events not taken yet, oldest first (where the ring starts is not
 * saved: a load puts the oldest first). */
static void put_events(cairn__wbuf *w, const cairn_crowd *c) {
  cairn__put_u32(w, c->ev_len);
  for (uint32_t k = 0; k < c->ev_len; k++) {
    const cairn_crowd_event *e = &c->ev[(c->ev_head + k) % c->ev_cap];
    cairn__put_u64(w, e->agent);
    cairn__put_u64(w, e->user);
    cairn__put_u64(w, e->tick);
    cairn__put_u32(w, (uint32_t)e->kind);
  }
}

/* The congestion layer's cells above 0, in the order the crowd lists
 * them (the next update walks that list). */
static void put_density(cairn__wbuf *w, const cairn_crowd *c) {
  const crowd_density *d = c->dens;
  cairn__put_u32(w, d ? d->n_live : 0);
  for (uint32_t k = 0; d && k < d->n_live; k++) {
    cairn__crowd_put_pt(w, cairn__crowd_cell_at(c, d->live[k]));
    cairn__put_u32(w, d->pen[d->live[k]]);
  }
}

/* The whole save through w (a measuring pass when w has no buffer). */
static cairn_status put_all(cairn__wbuf *w, const cairn_crowd *c, uint64_t total) {
  crowd_setup setup;
  cairn__crowd_setup_of(c, &setup);
  cairn__put_bytes(w, CROWD_MAGIC, CROWD_MAGIC_LEN);
  cairn__put_u32(w, CAIRN_CROWD_SAVE_VERSION);
  cairn__put_u32(w, 0);
  cairn__put_u64(w, total);
  cairn__crowd_setup_put(w, &setup);
  cairn__put_u64(w, c->tick);
  cairn__put_u32(w, c->next_group);
  put_agents(w, c);
  put_fields(w, c);
  cairn_status st = put_queue(w, c);
  if (st == CAIRN_OK) st = put_claims(w, c);
  put_stats(w, c);
  put_events(w, c);
  put_density(w, c);
  return st;
}

/* A field slot of the caller's, or -1. A save holds a field by its goal
 * set, which a load builds again through the cache; a caller's field is
 * no such thing (its own costs, the caller's repairs), so a crowd
 * following one is not saved. */
static int caller_field(const cairn_crowd *c) {
  for (int k = 0; k < CROWD_MAX_FIELDS; k++)
    if (c->fields[k].field && c->fields[k].caller) return k;
  return -1;
}

cairn_status cairn__crowd_told(const cairn_crowd *c, char *detail, size_t cap) {
  if (c->opts.penalty && cairn_penalty_version(c->opts.penalty) != c->layer_seen)
    return say(detail, cap, CAIRN_ERR_STATE,
               "the penalty layer changed since cairn_crowd_layer_changed");
  if (cairn_grid_version(c->grid) != c->grid_seen ||
      cairn_grid_version(c->route) != c->route_seen)
    return say(detail, cap, CAIRN_ERR_STATE,
               "the %s grid changed since cairn_crowd_grid_changed",
               cairn_grid_version(c->grid) != c->grid_seen ? "walk" : "route");
  return CAIRN_OK;
}

cairn_status cairn_crowd_save_check(const cairn_crowd *c, char *detail, size_t cap) {
  if (detail && cap) detail[0] = '\0';
  if (!c) return say(detail, cap, CAIRN_ERR_ARG, "no crowd (NULL)");
  cairn_status st = cairn__crowd_told(c, detail, cap);
  if (st != CAIRN_OK) return st;
  int k = caller_field(c);
  if (k >= 0)
    return say(detail, cap, CAIRN_ERR_STATE,
               "%lu agents follow a field of the caller's (field slot %d), which a save "
               "cannot hold: order them otherwise first",
               (unsigned long)c->fields[k].users, k);
  return CAIRN_OK;
}

cairn_status cairn_crowd_save(const cairn_crowd *c, void *buf, size_t cap, size_t *len) {
  if (!c || !len) return CAIRN_ERR_ARG;
  *len = 0;
  cairn_status refused = cairn_crowd_save_check(c, NULL, 0);
  if (refused != CAIRN_OK) return refused;
  cairn__wbuf m = cairn__wbuf_init(NULL, 0);
  cairn_status st = put_all(&m, c, 0);
  if (st != CAIRN_OK) return st;
  size_t total = m.len + CROWD_SUM_BYTES;
  *len = total;
  if (!buf || cap < total) return CAIRN_ERR_BUFFER;
  cairn__wbuf w = cairn__wbuf_init(buf, cap);
  st = put_all(&w, c, total);
  if (st != CAIRN_OK) return st;
  cairn__put_u64(&w, cairn__checksum(buf, m.len));
  return w.over || w.len != total ? CAIRN_ERR_STATE : CAIRN_OK;
}

/* ---- files ---------------------------------------------------------- */

/* Opens a fresh file beside path ("PATH.tmpN"), exclusively, so two
 * writers never share one; its name into tmp (n bytes). */
static FILE *open_temp(const char *path, char *tmp, size_t n) {
  for (unsigned k = 0; k < 1000; k++) {
    snprintf(tmp, n, "%s.tmp%u", path, k);
    errno = 0;
    FILE *f = fopen(tmp, "wbx");
    if (f || errno != EEXIST) return f;
  }
  return NULL;
}

/* Writes len bytes to a temporary file, then renames it over path. */
static cairn_status write_file(const char *path, const void *buf, size_t len,
                               const cairn_allocator *a, cairn_error *err) {
  size_t tmp_size = strlen(path) + 16;
  char *tmp = cairn__alloc(a, tmp_size);
  if (!tmp) return cairn__crowd_file_fail(err, CAIRN_ERR_NOMEM, path, "out of memory");
  cairn_status st = CAIRN_OK;
  FILE *f = open_temp(path, tmp, tmp_size);
  if (!f) {
    st = cairn__crowd_file_fail(err, CAIRN_ERR_IO, path, "cannot create %s: %s", tmp,
                                strerror(errno));
    cairn__free(a, tmp, tmp_size);
    return st;
  }
  if (fwrite(buf, 1, len, f) != len)
    st = cairn__crowd_file_fail(err, CAIRN_ERR_IO, path, "cannot write: %s", strerror(errno));
  if (fclose(f) != 0 && st == CAIRN_OK)
    st = cairn__crowd_file_fail(err, CAIRN_ERR_IO, path, "cannot write: %s", strerror(errno));
  if (st == CAIRN_OK && rename(tmp, path) != 0) {
#ifdef _WIN32
    /* a Windows rename does not replace an existing file */
    if (remove(path) == 0 && rename(tmp, path) == 0) {
      cairn__free(a, tmp, tmp_size);
      return CAIRN_OK;
    }
#endif
    st = cairn__crowd_file_fail(err, CAIRN_ERR_IO, path, "cannot rename %s: %s", tmp,
                                strerror(errno));
  }
  if (st != CAIRN_OK) remove(tmp);
  cairn__free(a, tmp, tmp_size);
  return st;
}

cairn_status cairn_crowd_save_file(const cairn_crowd *c, const char *path,
                                   cairn_error *err) {
  clear_error(err);
  if (!c || !path) return cairn__crowd_file_fail(err, CAIRN_ERR_ARG, path, "invalid argument");
  char why[CROWD_ERROR_CAP];
  cairn_status st = cairn_crowd_save_check(c, why, sizeof why);
  if (st != CAIRN_OK)
    return cairn__crowd_file_fail(err, st, path, "cannot save the crowd: %s", why);
  size_t len = 0;
  st = cairn_crowd_save(c, NULL, 0, &len);
  if (st != CAIRN_ERR_BUFFER)
    return cairn__crowd_file_fail(err, st, path, "cannot save the crowd: %s",
                                  cairn_status_str(st));
  uint8_t *buf = cairn__alloc(&c->alloc, len);
  if (!buf) return cairn__crowd_file_fail(err, CAIRN_ERR_NOMEM, path, "out of memory");
  st = cairn_crowd_save(c, buf, len, &len);
  if (st == CAIRN_OK) st = write_file(path, buf, len, &c->alloc, err);
  else cairn__crowd_file_fail(err, st, path, "cannot save the crowd: %s", cairn_status_str(st));
  cairn__free(&c->alloc, buf, len);
  return st;
}

cairn_status cairn__crowd_read_file(const char *path, const cairn_allocator *a,
                                    uint8_t **buf, size_t *len, size_t *cap,
                                    cairn_error *err) {
  *buf = NULL;
  *len = *cap = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return cairn__crowd_file_fail(err, CAIRN_ERR_IO, path, "cannot open: %s", strerror(errno));
  cairn_status st = CAIRN_OK;
  for (;;) {
    if (*len == *cap) {
      size_t ncap = *cap ? *cap * 2 : 65536;
      uint8_t *p = ncap > *cap ? cairn__realloc(a, *buf, *cap, ncap) : NULL;
      if (!p) {
        st = cairn__crowd_file_fail(err, CAIRN_ERR_NOMEM, path, "out of memory reading the file");
        break;
      }
      *buf = p;
      *cap = ncap;
    }
    size_t got = fread(*buf + *len, 1, *cap - *len, f);
    *len += got;
    if (got == 0) {
      if (ferror(f))
        st = cairn__crowd_file_fail(err, CAIRN_ERR_IO, path, "read error: %s", strerror(errno));
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

/* ---- a save's description ------------------------------------------- */

static cairn_status read_info(const void *buf, size_t len, const char *name,
                              cairn_crowd_save_info *out, cairn_error *err) {
  cairn__rbuf r;
  cairn_status st = cairn__crowd_frame(buf, len, name, &r, err);
  if (st != CAIRN_OK) return st;
  crowd_setup s;
  cairn__crowd_setup_get(&r, &s);
  uint64_t tick = cairn__get_u64(&r);
  (void)cairn__get_u32(&r); /* next_group */
  (void)cairn__get_u32(&r); /* high */
  uint32_t live = cairn__get_u32(&r);
  if (r.over) return cairn__crowd_file_fail(err, CAIRN_ERR_PARSE, name, "truncated setup");
  memset(out, 0, sizeof *out);
  out->version = CAIRN_CROWD_SAVE_VERSION;
  out->tick = tick;
  out->agents = live;
  out->width = (int32_t)s.width;
  out->height = (int32_t)s.height;
  out->grid_fingerprint = s.walk_fp;
  out->route_fingerprint = s.route_fp;
  out->penalty_fingerprint = s.penalty_fp;
  out->hpa = s.hpa;
  out->hpa_cluster = s.hpa_cluster;
  out->hpa_levels = (int)s.hpa_levels;
  out->hpa_block = s.hpa_block;
  out->hpa_max_size = s.hpa_max_size;
  out->path_cache = s.path_cache;
  cairn_crowd_opts *o = &out->opts;
  *o = cairn_crowd_defaults();
  o->max_agents = s.max_agents;
  o->dt = s.dt;
  o->bin_size = s.bin_size;
  o->neighbour_radius = s.neighbour_radius;
  o->path_budget = s.path_budget;
  o->waypoints = s.waypoints;
  o->stuck_ticks = s.stuck_ticks;
  o->avoid_radius = s.avoid_radius;
  o->claim_penalty = s.claim_penalty;
  o->claim_radius = s.claim_radius;
  o->claim_ticks = s.claim_ticks;
  o->max_events = s.max_events;
  o->density_gain = s.density_gain;
  o->density_comfort = s.density_comfort;
  o->density_ticks = s.density_ticks;
  o->avoidance = s.avoidance == 1 ? CAIRN_AVOID_ORCA : CAIRN_AVOID_STEER;
  o->orca_horizon = s.orca_horizon;
  o->orca_neighbours = s.orca_neighbours;
  return CAIRN_OK;
}

cairn_status cairn_crowd_read_info(const void *buf, size_t len, cairn_crowd_save_info *out,
                                   cairn_error *err) {
  clear_error(err);
  if (!buf || !out) return cairn__crowd_file_fail(err, CAIRN_ERR_ARG, NULL, "invalid argument");
  return read_info(buf, len, NULL, out, err);
}

cairn_status cairn_crowd_read_info_file(const char *path, cairn_crowd_save_info *out,
                                        cairn_error *err) {
  clear_error(err);
  if (!path || !out) return cairn__crowd_file_fail(err, CAIRN_ERR_ARG, path, "invalid argument");
  cairn_allocator a = cairn_allocator_or_default(NULL);
  uint8_t *buf;
  size_t len, cap;
  cairn_status st = cairn__crowd_read_file(path, &a, &buf, &len, &cap, err);
  if (st != CAIRN_OK) return st;
  st = read_info(buf, len, path, out, err);
  cairn__free(&a, buf, cap);
  return st;
}
