/* Private state of a crowd: struct-of-arrays agents, bins, the field
 * slots and the path request queue. */
#ifndef CAIRN_CROWD_INTERNAL_H
#define CAIRN_CROWD_INTERNAL_H

#include "cairn/crowd.h"
#include "cairn/hierarchy.h"
#include "cairn_private.h"

#include <math.h>

#define CROWD_MAX_FIELDS CAIRN_CROWD_MAX_FIELDS
#define CROWD_NO_REQ UINT32_MAX
#define CROWD_NO_FIELD UINT16_MAX
#define CROWD_NO_BIN UINT32_MAX
#define CROWD_BIN_BLOCK 4096 /* bins a task scans, sorts or clears */

/* A binned agent's own state the steering pass reads, gathered in bin
 * order with the neighbour arrays (sx, sy, ...) so the pass reads memory
 * in sequence. */
typedef struct crowd_sorted {
  float speed, best;
  uint32_t stall;
  uint16_t field, wp_i;
  uint8_t order, state;
} crowd_sorted;

typedef struct crowd_field_slot {
  const cairn_field *field; /* NULL when free */
  uint32_t users;           /* agents following it */
  uint8_t caller;           /* 1: the caller's field (never released to the
                               cache, never repaired), 0: the cache's */
} crowd_field_slot;

/* One path request: for one agent, or for a group (leader = the slot). */
typedef struct crowd_request {
  uint32_t slot, gen;
  uint32_t group;   /* 0: the agent alone */
  cairn_point goal;
  uint64_t enqueued; /* tick */
  int live;          /* 0 once dropped (agent removed, order changed) */
  int no_avoid;      /* search again without the stopped units as walls */
  int no_hpa;        /* A* on the grid, not the hierarchy */
  int from_set;      /* plan from `from` (a group path's last waypoint), not
                        from the agent's cell */
  cairn_point from;
} crowd_request;

/* A tick's counts, summed over the workers: integers, so in any order. */
typedef struct crowd_counts {
  uint64_t overlaps, in_wall, non_finite;
} crowd_counts;

/* The tick's passes in progress: what their tasks cover. */
typedef struct crowd_pass {
  uint64_t prev;       /* places of last tick's bin order */
  uint32_t old_tasks;  /* counting and placing tasks over those places */
} crowd_pass;

/* The congestion layer (opts.density_gain, crowd_density.c). The fields
 * pay `layer`: opts.penalty's values mirrored in `base` plus the density
 * part in `pen`, so the cache repairs its fields through the layer path
 * it has for opts.penalty. Padded arrays, laid out as the grid's cells. */
typedef struct crowd_density {
  cairn_penalty *layer;
  uint32_t *pen;     /* the density part of each cell, cost units */
  uint32_t *base;    /* opts.penalty as mirrored (CAIRN_PENALTY_BLOCK:
                        blocked); NULL without one */
  uint32_t *sum;     /* bodies in each cell's 3 x 3 block: 0 but during an
                        update */
  uint32_t *live;    /* the cells whose pen is above 0, in the order found */
  uint32_t *next;    /* an update's cells touched, then its live ones */
  uint32_t n_live;
  size_t padded;     /* cells of each padded array */
  size_t list_cap;   /* room in live and next */
  uint32_t *changes; /* scratch: opts.penalty's changed cells */
} crowd_density;

#define CROWD_ERROR_CAP 160 /* bytes of a refusal's detail */

#define CROWD_MAX_AVOID 256 /* stopped units' cells one search avoids */

struct cairn_crowd {
  cairn_allocator alloc;
  const cairn_grid *grid;  /* walking: walls */
  const cairn_grid *route; /* fields and paths */
  cairn_crowd_opts opts;
  int32_t width, height, stride;
  const uint8_t *cells; /* padded terrain of the walk grid */
  const uint8_t *moves; /* and its move sets (cairn_grid_moves): 0xff where
                           a cell and its eight neighbours are all open */

  /* agents: slots 0 .. high - 1 */
  uint32_t cap, high, live;
  uint32_t *free_slots;
  uint32_t n_free;
  uint32_t *gen;
  uint8_t *alive, *order, *state, *nstate, *flags, *nflags;
  float *x, *y, *vx, *vy, *nx, *ny, *nvx, *nvy;
  float *radius, *speed, *offx, *offy, *best, *nbest, *prog, *nprog;
  uint16_t *faction, *field;
  uint32_t *group, *stall, *nstall, *req;
  uint64_t *seed;
  cairn_point *goal, *wp; /* wp: cap x opts.waypoints */
  uint16_t *wp_n, *wp_i, *nwp_i;
  uint8_t *wp_partial;
  /* how each agent ends its order (cairn_order.arrival, DEFAULT resolved:
   * CAIRN_ARRIVAL_LEAVE, _STOP or _STAY, or CROWD_STAY_AUTO for STAY with
   * a radius the crowd chose) and, staying, the radius around the goal it
   * stays within (cells; the field's cost for fields) */
  uint8_t *arrive;
  float *arrive_r;
  /* the velocity the game set for a driven agent (cairn_crowd_drive) */
  float *dvx, *dvy;
  /* the caller's value of each agent (cairn_agent_params.user,
   * cairn_crowd_set_user): kept, reported, never read by the crowd */
  uint64_t *user;
  /* Agents that may stand outside last tick's bins, for the spatial
   * queries between ticks: those added, moved by set_position or a grid
   * edit, or made bodies again by an order since the last tick, in the
   * order it happened (loose[0 .. n_loose)); loose_mark[s] is 1 while s
   * is listed. Both empty after every tick. */
  uint32_t *loose;
  uint8_t *loose_mark;
  uint32_t n_loose;

  /* bins, rebuilt each tick by counting sort */
  int32_t nbx, nby; /* bins a side, an empty border bin at each end */
  float inv_bin;
  uint32_t *bin_start; /* nbx * nby + 1 */
  uint32_t *order_of;  /* binned slots in bin order */
  uint32_t n_binned;
  float *sx, *sy, *svx, *svy, *sr; /* binned agents' state in bin order */
  uint32_t *sslot;
  /* the give-way order in bin order: last tick's progress (never negative,
   * so its bits order as the floats do) above the slot */
  uint64_t *skey;
  crowd_sorted *sa;
  /* nx, ny, nvx, nvy, nstate, nflags, nbest, nprog, nstall, nwp_i: the
   * steering pass's results, in bin order; the commit scatters them */
  uint32_t *slot_bin; /* each slot's bin this tick, CROWD_NO_BIN if none */
  uint32_t *blk_sum;  /* per block of CROWD_BIN_BLOCK bins: its offset */
  /* where the tick's passes run, and per worker: agents counted per block
   * (a row, valid in the tick its stamp names: tick + 1), the tick's counts */
  cairn__workers workers;
  uint32_t *wblk;
  uint64_t *wblk_tick;
  crowd_counts *wsum;
  crowd_pass pass;

  crowd_field_slot fields[CROWD_MAX_FIELDS];
  cairn_flow_cache *cache;
  cairn_flow_builder *builder;

  /* path queue: a ring of requests, oldest first */
  crowd_request *ring;
  uint32_t ring_cap, ring_head, ring_len;
  int in_search;       /* the head request's search is in progress */
  uint64_t head_expanded;
  cairn_search *search;
  cairn_point *smooth; /* scratch for smoothed paths */
  size_t smooth_cap;
  uint32_t next_group;
  cairn_point avoid[CROWD_MAX_AVOID];
  size_t n_avoid;           /* cells the head request's search avoids */
  cairn_claims *claims;     /* per-unit claims, or NULL (opts.claim_penalty 0) */
  cairn_hpa_query *hq;      /* queries over opts.hpa, or NULL */
  int32_t hpa_max_size;     /* the largest unit size opts.hpa answers (0: none) */
  int32_t cache_size;       /* opts.path_cache's unit size (0: no cache) */
  double cache_trip;        /* trips (octile cells) it serves from: twice its join radius */
  cairn_point *cached;      /* smooth_cap points: a path from the cache */
  size_t head_given;        /* raw cells of the head's route its agents got */
  uint64_t debt;            /* expansions a hierarchy's plan overran by */
  uint64_t layer_seen;      /* opts.penalty's version the fields follow */
  crowd_density *dens;      /* opts.density_gain > 0: the congestion layer */
  /* the grids' versions (cairn_grid_version) the crowd was last told of:
   * at create and by cairn_crowd_grid_changed (a save needs them current) */
  uint64_t grid_seen, route_seen;
  /* the head request's route over the hierarchy, for a save
   * (crowd_save.c replays it): where its plan started, edges refined */
  cairn_point head_from;
  uint32_t head_refined;

  /* the commit's agents that need the sequential pass after it (path
   * bookkeeping, events): each commit task lists its own places k, in bin
   * order, at todo[t * light chunk ..], todo_n[t] of them */
  uint32_t *todo; /* cap */
  uint32_t *todo_n; /* commit tasks at most: cap / light chunk, rounded up */

  /* events: a ring of ev_cap (opts.max_events), ev_len of them from
   * ev_head, oldest first; ev_tick is the tick they are stamped with (the
   * tick running, or the ticks run between ticks) */
  cairn_crowd_event *ev;
  uint32_t ev_cap, ev_head, ev_len;
  uint64_t ev_tick;

  uint64_t tick;
  cairn_status tick_status; /* the tick's first failure (a search's memory) */
  cairn_crowd_stats stats;
  char error[CROWD_ERROR_CAP]; /* the last refused call's detail, "" if none */
};

/* cells a driven agent moves an axis a tick, at most (cairn_crowd_drive
 * checks it, so the move is v * dt exactly and never skips a wall) */
#define CROWD_DRIVE_STEP_MAX 0.9f

/* arrive[s] of an agent that stays with the radius the crowd chose: the
 * orders to the same goal grow it together */
#define CROWD_STAY_AUTO (CAIRN_ARRIVAL_STAY + 1)

/* Whether slot s stays at its goal once arrived (CAIRN_ARRIVAL_STAY). */
static inline int cairn__crowd_stays(const cairn_crowd *c, uint32_t s) {
  return c->arrive[s] >= CAIRN_ARRIVAL_STAY;
}

/* agent flags (flags / nflags) */
enum {
  AF_OVERLAP = 1, /* overlapped a neighbour by more than half a radius */
  AF_REPATH = 2,  /* commit: queue a new path request */
  AF_ADVANCED = 4, /* passed a waypoint this tick */
  AF_EVENT = 8     /* took the state arrived or unreachable, or a horde
                      agent has just gone opts.stuck_ticks without
                      progress: an event to record (the steering marks
                      it, cairn__crowd_steer_events records it) */
};

/* the group path's continuation (wp_partial) */
enum {
  WP_WHOLE = 0,    /* the waypoints reach the goal */
  WP_PARTIAL = 1,  /* they stop short: ask for the rest at the last one */
  WP_ASKED = 2,    /* a group member asked for the rest already */
  WP_FIRST = 3     /* the route's first refined part: the rest is planned */
};

/* Blocks of CROWD_BIN_BLOCK bins covering the crowd's bins. */
/* The octile distance in cells between (ax, ay) and (bx, by). */
static inline double cairn__crowd_octile(double ax, double ay, double bx, double by) {
  const double dx = fabs(ax - bx), dy = fabs(ay - by);
  const double lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return hi - lo + 1.4142135623730951 * lo;
}

static inline size_t cairn__crowd_bin_blocks(const cairn_crowd *c) {
  size_t nb = (size_t)c->nbx * (size_t)c->nby;
  return (nb + CROWD_BIN_BLOCK - 1) / CROWD_BIN_BLOCK;
}

/* The per-block counts of one worker (wblk) are this many apart, a
 * multiple of 128 bytes: two workers' counts in one cache line would pass
 * it between their cores on every agent counted. */
static inline size_t cairn__crowd_wblk_row(const cairn_crowd *c) {
  return (cairn__crowd_bin_blocks(c) + 31) / 32 * 32;
}

/* 1 for a blocked cell or one off the grid (inline: the tick asks it
 * several times an agent). */
static inline int cairn__crowd_blocked(const cairn_crowd *c, int32_t x, int32_t y) {
  if (x < 0 || y < 0 || x >= c->width || y >= c->height) return 1;
  return c->cells[(size_t)(y + 1) * (size_t)c->stride + (size_t)(x + 1)] == 0;
}

/* The index of cell p in the grid's padded layout (cairn_grid_cells:
 * stride width + 2, a border all round), and the cell of an index. */
static inline uint32_t cairn__crowd_index(const cairn_crowd *c, cairn_point p) {
  return (uint32_t)(p.y + 1) * (uint32_t)c->stride + (uint32_t)(p.x + 1);
}
static inline cairn_point cairn__crowd_cell_at(const cairn_crowd *c, uint32_t i) {
  cairn_point p = {(int32_t)(i % (uint32_t)c->stride) - 1, (int32_t)(i / (uint32_t)c->stride) - 1};
  return p;
}

/* cairn__crowd_blocked for a cell at most one off the grid (a binned
 * agent's cell or a neighbour of it, positions being finite and on the
 * grid): the padded border says blocked, no bounds to check. */
static inline int cairn__crowd_blocked_near(const cairn_crowd *c, int32_t x, int32_t y) {
  return c->cells[(size_t)(y + 1) * (size_t)c->stride + (size_t)(x + 1)] == 0;
}

/* Whether live slot s is a body, in the bins from the next tick on: all
 * but the agents that arrived under CAIRN_ARRIVAL_LEAVE (a horde agent
 * through its gate). */
static inline int cairn__crowd_is_body(const cairn_crowd *c, uint32_t s) {
  return !(c->state[s] == CAIRN_AGENT_ARRIVED && c->arrive[s] == CAIRN_ARRIVAL_LEAVE);
}

/* The column (or row) of bins a coordinate v >= 0 falls in: v / bin + 1,
 * column 0 being the empty border. */
static inline int32_t cairn__crowd_bin_col(const cairn_crowd *c, float v) {
  return (int32_t)(v * c->inv_bin) + 1;
}

/* checks and refusals (crowd_check.c): each refusal leaves its detail
 * in c->error (cairn_crowd_error) and returns its status */
cairn_status cairn__crowd_fail(cairn_crowd *c, cairn_status st, const char *fmt, ...)
    CAIRN_PRINTF(3, 4);
/* The detail of a refusal into buf (cap bytes; nothing when buf is NULL
 * or cap is 0), for calls that have no crowd to keep it; returns st. */
cairn_status cairn__crowd_say(char *buf, size_t cap, cairn_status st, const char *fmt, ...)
    CAIRN_PRINTF(4, 5);
/* A call that succeeded: no refusal to tell. */
static inline cairn_status cairn__crowd_ok(cairn_crowd *c) {
  c->error[0] = '\0';
  return CAIRN_OK;
}
int cairn__crowd_same_walls(const cairn_grid *a, const cairn_grid *b);
/* CAIRN_OK with *slot for a live agent's handle; CAIRN_ERR_STALE for one
 * whose agent was removed (its generation moved on); CAIRN_ERR_ARG for one
 * that never named a slot (or a NULL crowd). No detail: const callers. */
cairn_status cairn__crowd_slot(const cairn_crowd *c, cairn_agent a, uint32_t *slot);
/* cairn__crowd_slot, with the detail of a refusal. */
cairn_status cairn__crowd_handle(cairn_crowd *c, cairn_agent a, uint32_t *slot);
/* The slot of a handle already checked (its low 32 bits). */
static inline uint32_t cairn__crowd_slot_of(cairn_agent a) { return (uint32_t)(a & 0xffffffffu); }
/* Every handle of an order (agents may be NULL when n is 0). */
cairn_status cairn__crowd_handles(cairn_crowd *c, const cairn_agent *agents, size_t n);
/* A position a disc of radius r may stand on (on the grid, its square
 * clear of walls); a radius the crowd takes (its range, and touching
 * discs in neighbouring bins); an agent's parameters and position; a goal
 * cell on the grid and open. */
cairn_status cairn__crowd_check_position(cairn_crowd *c, float x, float y, float r);
int cairn__crowd_radius_ok(const cairn_crowd *c, float r);
cairn_status cairn__crowd_check_params(cairn_crowd *c, const cairn_agent_params *p);
cairn_status cairn__crowd_check_goal(cairn_crowd *c, cairn_point goal);

/* orders (crowd_orders.c): drops whatever slot s was doing */
void cairn__crowd_clear_order(cairn_crowd *c, uint32_t s);

/* events (crowd_events.c): the ring, recording one event of slot s (or
 * counting it lost), and the events of the tick's agent k (slot s) */
cairn_status cairn__crowd_events_init(cairn_crowd *c);
void cairn__crowd_events_free(cairn_crowd *c);
void cairn__crowd_event(cairn_crowd *c, cairn_crowd_event_kind kind, uint32_t s);
void cairn__crowd_steer_events(cairn_crowd *c, uint32_t k, uint32_t s);
/* reading (crowd_read.c): lists slot s among the loose ones (once) */
static inline void cairn__crowd_loosen(cairn_crowd *c, uint32_t s) {
  if (c->loose_mark[s]) return;
  c->loose_mark[s] = 1;
  c->loose[c->n_loose++] = s;
}
/* After a tick: every body is in the bins. */
void cairn__crowd_tighten(cairn_crowd *c);

/* queue (crowd_queue.c) */
cairn_status cairn__crowd_queue_init(cairn_crowd *c);
void cairn__crowd_queue_free(cairn_crowd *c);
/* Queues a path request for slot (group 0) or a group led by slot. */
void cairn__crowd_request(cairn_crowd *c, uint32_t slot, uint32_t group,
                          cairn_point goal);
void cairn__crowd_drop_request(cairn_crowd *c, uint32_t slot);
void cairn__crowd_serve(cairn_crowd *c);
void cairn__crowd_restart_search(cairn_crowd *c);
/* Sequential commit of slot s's path bookkeeping: repaths, continuations
 * of group paths and claims (after the tick's state is committed). */
void cairn__crowd_commit_path(cairn_crowd *c, uint32_t s);
/* Drops slot s's claims (no claims: nothing). */
void cairn__crowd_unclaim(cairn_crowd *c, uint32_t s);

/* The bin (x, y) falls in (positions on the grid: a coordinate just below
 * the width or height is clamped into the last inner bin). */
static inline void cairn__crowd_bin_xy(const cairn_crowd *c, float x, float y,
                                       int32_t *bx, int32_t *by) {
  *bx = cairn__crowd_bin_col(c, x);
  *by = cairn__crowd_bin_col(c, y);
  if (*bx > c->nbx - 2) *bx = c->nbx - 2;
  if (*by > c->nby - 2) *by = c->nby - 2;
}

/* The first place in the last tick's bin order (sorted by bin) of an
 * agent in bin b or a later one, by binary search: the tick keeps no bin
 * starts. slot_bin is only written by the tick, so it stays sorted along
 * order_of between ticks. */
static inline uint32_t cairn__crowd_bin_first(const cairn_crowd *c, uint32_t b) {
  uint32_t lo = 0, hi = c->n_binned;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->slot_bin[c->order_of[mid]] < b) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* ---- the tick's passes as tasks ------------------------------------- */

/* Agents a task of a light pass (counting, placing, committing) takes:
 * 16 steering chunks (4096 agents by default), tens of microseconds of
 * work, so a late worker holds nothing up for long, and few tasks a pass. */
static inline uint64_t cairn__crowd_light_chunk(const cairn_crowd *c) {
  return 16u * (uint64_t)c->opts.chunk;
}

/* Tasks of `per` items each over `total` items. */
static inline uint32_t cairn__crowd_tasks(uint64_t total, uint64_t per) {
  return (uint32_t)((total + per - 1) / per);
}

/* Items [from, to) of task t, `per` a task. */
static inline void cairn__crowd_span(uint64_t total, uint64_t per, uint32_t t,
                                     uint64_t *from, uint64_t *to) {
  *from = (uint64_t)t * per;
  *to = total - *from > per ? *from + per : total;
}

/* bins (crowd_bins.c): counting (the first pass.old_tasks tasks over last
 * tick's places, then tasks over every slot), the block offsets on the
 * caller, the scan (a task a block), placing (tasks as counting), sorting
 * and gathering (a task a block), and a block's clearing for the next
 * tick. */
void cairn__crowd_count_task(void *arg, uint32_t t, uint32_t w);
void cairn__crowd_block_offsets(cairn_crowd *c);
void cairn__crowd_scan_task(void *arg, uint32_t t, uint32_t w);
void cairn__crowd_place_task(void *arg, uint32_t t, uint32_t w);
void cairn__crowd_sort_task(void *arg, uint32_t t, uint32_t w);
void cairn__crowd_clear_block(cairn_crowd *c, size_t blk);

/* steering (crowd_steer.c): opts.chunk agents a task, in bin order. */
void cairn__crowd_steer_task(void *arg, uint32_t t, uint32_t w);

/* density (crowd_density.c): the layer made at create (nothing when
 * opts.density_gain is 0), freed at destroy; the tick's update (every
 * opts.density_ticks ticks: counts the bodies, repairs the fields);
 * opts.penalty's changes mirrored (before the cache is told); the density
 * set to n cells (padded indices, distinct, open) and their values, the
 * others 0 (a load; the cache not told), giving the cells changed;
 * memory. */
cairn_status cairn__crowd_density_init(cairn_crowd *c);
void cairn__crowd_density_free(cairn_crowd *c);
cairn_status cairn__crowd_density_tick(cairn_crowd *c);
void cairn__crowd_density_mirror(cairn_crowd *c);
size_t cairn__crowd_density_set(cairn_crowd *c, const uint32_t *cells, const uint32_t *pen,
                                 uint32_t n);
size_t cairn__crowd_density_memory(const cairn_crowd *c);
/* The layer the crowd's fields pay: the congestion layer, or opts.penalty. */
static inline const cairn_penalty *cairn__crowd_field_layer(const cairn_crowd *c) {
  return c->dens ? c->dens->layer : c->opts.penalty;
}

/* ORCA (crowd_orca.c, opts.avoidance CAIRN_AVOID_ORCA): the velocity of
 * the agent at place k in bin order nearest (wx, wy) that no neighbour
 * rules out, at most `speed` long, into (*vx, *vy); what its neighbours
 * are to it into *around. */
typedef struct crowd_orca_near {
  int overlap;           /* one overlaps it by more than half its radius */
  int blocked_by_moving; /* a touching one in its way is moving */
} crowd_orca_near;
void cairn__crowd_orca(const cairn_crowd *c, uint32_t k, float wx, float wy, float speed,
                       float *vx, float *vy, crowd_orca_near *around);

/* tick (crowd_tick.c) */
void cairn__crowd_step(cairn_crowd *c);

/* floorf(v) as an integer, for finite v in the int32 range (positions);
 * without SSE4.1 floorf is a long instruction sequence, and the tick asks
 * this many times an agent. */
static inline int32_t crowd_cell(float v) {
  int32_t i = (int32_t)v; /* towards zero */
  return i - (v < (float)i);
}

/* The unit size (cairn_search_opts.size) of a disc of radius r: the side
 * of the smallest square of cells that holds it, 1 up to radius 0.5. Its
 * fields and paths are that size's, read at the position whose k x k
 * cells are centred nearest the disc's centre. */
static inline int32_t cairn__crowd_size_of(float r) {
  if (r <= 0.5f) return 1; /* most agents: no ceilf */
  return (int32_t)ceilf(2.0f * r);
}

/* The unit sizes among checked agents: bit k - 1 set for each size k. */
unsigned cairn__crowd_sizes(const cairn_crowd *c, const cairn_agent *agents, size_t n);
/* The checked agents' centre into (*cx, *cy), and their spread: the
 * farthest one's distance from it on either axis (cells). n >= 1. */
float cairn__crowd_spread(const cairn_crowd *c, const cairn_agent *agents, size_t n, double *cx,
                          double *cy);

/* Whether the cell under (x, y), on the grid, and its eight neighbours are
 * all open: a disc of radius 0.5 or less centred there is clear of
 * walls. One load: the walls' fast path for most agents. */
static inline int cairn__crowd_open_around(const cairn_crowd *c, float x, float y) {
  return c->moves[(size_t)(crowd_cell(y) + 1) * (size_t)c->stride + (size_t)(crowd_cell(x) + 1)] ==
         0xffu;
}
/* What a disc's centre is offset from the centre of its unit's top-left
 * cell, on each axis: (k - 1) / 2, 0 for size 1. */
static inline float cairn__crowd_corner(int32_t k) { return 0.5f * (float)(k - 1); }
/* The position (top-left cell) of a unit of size k whose disc is centred
 * at (x, y). */
static inline cairn_point cairn__crowd_position(float x, float y, int32_t k) {
  const float o = cairn__crowd_corner(k);
  cairn_point p = {crowd_cell(x - o), crowd_cell(y - o)};
  return p;
}

/* The unit size request r plans for: its agent's, or for a group the
 * largest of its members' (crowd_queue.c). */
int32_t cairn__crowd_request_size(const cairn_crowd *c, const crowd_request *r);
/* Whether a request over the hierarchy serves r, planning for units of
 * `size` (cairn__crowd_request_size): the crowd has one, r did not fall
 * back to A*, no unit's own claims are to be priced (a shared hierarchy
 * cannot), and the hierarchy answers its units' size (cairn_hpa_opts.
 * max_size; larger units plan with A*). The queue, the save and the load
 * decide alike. */
static inline int cairn__crowd_req_over_hpa(const cairn_crowd *c, const crowd_request *r,
                                            int32_t size) {
  return c->opts.hpa && !r->no_hpa && !(c->claims && !r->group) && size <= c->hpa_max_size;
}

/* walls (crowd_walls.c). move: where a disc of radius r at (x, y) ends
 * moving by (mx, my) (each under a cell) while it wants to go (wx, wy):
 * its bounding square slides along walls and stops touching them, never
 * entering a blocked cell, and steps round corners as a disc would;
 * *stop_x / *stop_y say which axes a wall cut short. box_blocked: whether
 * the square already overlaps a blocked cell or leaves the grid.
 * disc_in_wall: whether the disc itself overlaps a blocked cell (a check,
 * not a rule: the square keeps it out), naming the first in *cell (may be
 * NULL). */
void cairn__crowd_move_near_walls(const cairn_crowd *c, float x, float y, float r, float mx,
                                  float my, float wx, float wy, float *nx, float *ny,
                                  int *stop_x, int *stop_y);
static inline void cairn__crowd_move(const cairn_crowd *c, float x, float y, float r, float mx,
                                     float my, float wx, float wy, float *nx, float *ny,
                                     int *stop_x, int *stop_y) {
  /* a disc of half a cell or less amid open cells all along the way meets
   * nothing (the slides would give the same): three loads, inline */
  if (r <= 0.5f && cairn__crowd_open_around(c, x, y) &&
      cairn__crowd_open_around(c, x + mx, y) && cairn__crowd_open_around(c, x + mx, y + my)) {
    *nx = x + mx;
    *ny = y + my;
    *stop_x = *stop_y = 0;
    return;
  }
  cairn__crowd_move_near_walls(c, x, y, r, mx, my, wx, wy, nx, ny, stop_x, stop_y);
}
int cairn__crowd_box_blocked(const cairn_crowd *c, float x, float y, float r);
/* Whether a disc of radius r goes in a straight line from (ax, ay) to
 * (bx, by) without overlapping a blocked cell (or leaving the grid): the
 * sight a disc needs, where the point's line of sight may graze a corner
 * the disc would catch on. O(length x (2 r + 3)^2) cells. */
int cairn__crowd_disc_sight(const cairn_crowd *c, float ax, float ay, float bx, float by,
                            float r);
int cairn__crowd_disc_near_walls(const cairn_crowd *c, float x, float y, float r,
                                 cairn_point *cell);
static inline int cairn__crowd_disc_in_wall(const cairn_crowd *c, float x, float y, float r,
                                            cairn_point *cell) {
  if (r <= 0.5f && cairn__crowd_open_around(c, x, y)) return 0;
  return cairn__crowd_disc_near_walls(c, x, y, r, cell);
}

#endif
