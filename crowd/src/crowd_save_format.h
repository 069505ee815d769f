/* The crowd's save format, shared by the writer (crowd_save.c) and the
 * reader (crowd_load.c): the frame, the setup a load must match, and the
 * per-slot arrays as one table, so both sides walk them alike. The byte
 * layout is docs/crowd.md's table ("Saving and loading"). */
#ifndef CAIRN_CROWD_SAVE_FORMAT_H
#define CAIRN_CROWD_SAVE_FORMAT_H

#include "crowd_internal.h"

#include "cairn_save.h"

#include <stdarg.h>

#define CROWD_MAGIC "CAIRNCRD"
#define CROWD_MAGIC_LEN 8
/* magic, version, flags (0), the total size */
#define CROWD_HEAD_BYTES (CROWD_MAGIC_LEN + 4 + 4 + 8)
#define CROWD_SUM_BYTES 8 /* the checksum, last */

/* What a load must match: the grids, the layer, the hierarchy and the
 * options that change results. */
typedef struct crowd_setup {
  uint32_t width, height;
  uint64_t walk_fp, route_fp, penalty_fp; /* 0: no route grid, no layer */
  uint8_t hpa;                            /* planned over a hierarchy */
  int32_t hpa_cluster;
  uint32_t hpa_levels, hpa_nodes;
  uint64_t hpa_edges;
  int32_t hpa_block;    /* the hierarchy's block side (levels 3) */
  int32_t hpa_max_size; /* its largest unit size */
  uint8_t path_cache;                     /* its unit size; 0: none */
  uint32_t max_agents;
  float dt, bin_size, neighbour_radius;
  uint64_t path_budget;
  uint32_t waypoints, stuck_ticks;
  int32_t avoid_radius;
  float claim_penalty;
  int32_t claim_radius;
  uint32_t claim_ticks;
  uint32_t max_events; /* the ring's size: when events are lost */
  float density_gain, density_comfort;
  uint32_t density_ticks;
  uint32_t avoidance;
  float orca_horizon;
  uint32_t orca_neighbours;
} crowd_setup;

/* The per-slot arrays, slots 0 .. high - 1 each, in the file's order:
 * X(name, kind) with kind U8, U16, U32, U64, F32 or PT (a cell: x, y as
 * 32-bit integers). */
#define CROWD_SLOT_ARRAYS(X)                                                  \
  X(gen, U32) X(alive, U8) X(order, U8) X(state, U8) X(flags, U8)             \
  X(x, F32) X(y, F32) X(vx, F32) X(vy, F32) X(radius, F32) X(speed, F32)      \
  X(offx, F32) X(offy, F32) X(best, F32) X(prog, F32) X(faction, U16)         \
  X(field, U16) X(group, U32) X(stall, U32) X(req, U32) X(seed, U64)          \
  X(goal, PT) X(wp_n, U16) X(wp_i, U16) X(wp_partial, U8) X(slot_bin, U32)   \
  X(arrive, U8) X(arrive_r, F32) X(dvx, F32) X(dvy, F32) X(user, U64)

/* Bytes an element of each kind takes. */
enum { CROWD_SZ_U8 = 1, CROWD_SZ_U16 = 2, CROWD_SZ_U32 = 4, CROWD_SZ_U64 = 8,
       CROWD_SZ_F32 = 4, CROWD_SZ_PT = 8 };

/* A queued request on file: slot, gen, group, goal, enqueued, live,
 * no_avoid, no_hpa, from_set, from. */
#define CROWD_REQ_BYTES 40u
/* The search in progress at the head of the queue. */
enum { CROWD_SEARCH_NONE = 0, CROWD_SEARCH_ASTAR = 1, CROWD_SEARCH_HPA = 2 };

/* The stats saved: the crowd's running figures (the rest of
 * cairn_crowd_stats is counted from the agents). */
#define CROWD_STATS_BYTES (8u * (8u + 257u))

/* A pending event on file: agent (u64), user (u64), tick (u64), kind
 * (u32). */
#define CROWD_EVENT_BYTES 28u

/* A cell of the congestion layer on file: the cell, its density part. */
#define CROWD_DENSE_BYTES 12u

/* Writers of one element. */
static inline void cairn__crowd_put_pt(cairn__wbuf *w, cairn_point p) {
  cairn__put_u32(w, (uint32_t)p.x);
  cairn__put_u32(w, (uint32_t)p.y);
}
static inline cairn_point cairn__crowd_pt_at(const uint8_t *b) {
  cairn_point p = {(int32_t)cairn__le32(b), (int32_t)cairn__le32(b + 4)};
  return p;
}
static inline float cairn__crowd_f32_at(const uint8_t *b) {
  uint32_t u = cairn__le32(b);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* The crowd's own setup. */
void cairn__crowd_setup_of(const cairn_crowd *c, crowd_setup *out);
void cairn__crowd_setup_put(cairn__wbuf *w, const crowd_setup *s);
void cairn__crowd_setup_get(cairn__rbuf *r, crowd_setup *s);
/* The first way a differs from b, as "what (file X, crowd Y)" into msg
 * (n bytes); 0 when they match. */
int cairn__crowd_setup_diff(const crowd_setup *file, const crowd_setup *crowd, char *msg,
                            size_t n);

/* Checks the frame of buf (size, magic, version, checksum): CAIRN_OK with
 * a reader over the bytes after the header and before the checksum. */
cairn_status cairn__crowd_frame(const void *buf, size_t len, const char *name,
                                cairn__rbuf *body, cairn_error *err);

/* "NAME: problem" into err (may be NULL); returns st. (The crowd's own
 * refusal detail, cairn_crowd_error, is cairn__crowd_fail's.) */
cairn_status cairn__crowd_file_fail(cairn_error *err, cairn_status st, const char *name,
                                    const char *fmt, ...) CAIRN_PRINTF(4, 5);

/* CAIRN_OK when the crowd was told of every change to its grids and its
 * layer (cairn_crowd_grid_changed, cairn_crowd_layer_changed), as a save
 * and a load need: its fields then show the map the file records. Else
 * CAIRN_ERR_STATE with the detail into detail (cap bytes; may be NULL). */
cairn_status cairn__crowd_told(const cairn_crowd *c, char *detail, size_t cap);

/* The whole file at path, in a buffer of the allocator a (size *cap). */
cairn_status cairn__crowd_read_file(const char *path, const cairn_allocator *a,
                                    uint8_t **buf, size_t *len, size_t *cap,
                                    cairn_error *err);



#endif
