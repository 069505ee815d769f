/* Steering: each agent's next position, velocity and state from the
 * current ones alone (its order's wish, its neighbours in bin order, the
 * walls), written at its place in bin order. Read-only but for those
 * next-state arrays, so any number of tasks run it at once. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

/* A rare path kept out of the steering loop's body, so it does not change
 * how the common one compiles. */
#if defined(__GNUC__) || defined(__clang__)
#define CROWD_COLD __attribute__((noinline, cold))
#else
#define CROWD_COLD
#endif

#define AVOID_HORIZON 1.5f /* seconds ahead the predictive term looks */
#define ARRIVE_DIST 0.4f   /* cells from the last waypoint */
#define ARRIVE_NEAR 2.0f   /* cells from the last waypoint that count */
#define ARRIVE_STALL 10    /* ... after this many ticks without progress */
#define STAY_FIRST_SHARE 0.75f /* of the stay radius a held-off unit stops in */
#define STAY_GROW_TICKS 50.0f  /* ticks more until it stops in all of it */
/* cells per second a staying unit leans inwards: under the 0.1 at which a
 * unit ahead counts as moving on (push.ahead_moving), so those behind it
 * still count their ticks without progress */
#define STAY_LEAN 0.08f
#define STAY_NEAR 0.5f  /* cells from the goal where it stops leaning */
#define ADVANCE_ON 0.25f   /* cells from a waypoint: on it, on to the next */
#define ADVANCE_DIST 0.75f /* ... or this near, with the next in sight */
#define ADVANCE_NEAR_WP 2.0f /* ... or this near the target, the next in sight */
#define SEP_GAIN 0.5f      /* share of an overlap undone per tick */
#define SEP_MAX 0.3f       /* cells a separation push may move per tick */
#define STEP_MAX 0.9f      /* cells an agent moves per axis per tick */
#define MAX_CONTACTS 6   /* touching neighbours whose approach is cut */
#define SLOW_MIN 0.4f     /* slowest pace behind an agent ahead */

/* What the order asks of an agent this tick. */
typedef struct wish {
  float dx, dy;    /* unit direction, or 0,0 */
  float progress;  /* lower is nearer the goal; INFINITY when idle */
  uint8_t state;   /* next state */
  uint16_t wp_i;   /* next waypoint index */
  int repath;      /* the stored waypoints ran out before the goal */
  float go;        /* share of the top speed when not MOVING (an arrived
                      agent walking back into its stay radius), else 0 */
} wish;

static void unit(float *x, float *y) {
  float l = sqrtf(*x * *x + *y * *y);
  if (l > 1e-6f) {
    *x /= l;
    *y /= l;
  } else {
    *x = *y = 0.0f;
  }
}

/* Within a cell of a goal: the cell the move leads to is one, or (when the
 * value is small enough for it) any of the 8 neighbours is. */
static int beside_goal(const cairn_field *f, int32_t x, int32_t y,
                       const cairn_flow_sample *smp) {
  if (smp->next_goal) return 1;
  if (smp->cost > 2 * CAIRN_COST_ONE) return 0;
  for (int d = 0; d < 8; d++)
    if (cairn_field_dir(f, x + cairn_flow_dir_dx(d), y + cairn_flow_dir_dy(d)) ==
        CAIRN_FLOW_GOAL)
      return 1;
  return 0;
}

/* Whether slot s, `d` from its goal (cells, or the field's steps), may
 * stop there: it stays (CAIRN_ARRIVAL_STAY) and has made no progress for
 * a while (those ahead of it stand in the way), within three quarters of
 * its radius at first, the whole of it STAY_GROW_TICKS later (so a unit
 * held off at a wall's corner or the cluster's rim stops in the end, and
 * the cluster stays compact). */
CROWD_COLD static int stays_here(const cairn_crowd *c, uint32_t s, uint32_t stall, float d) {
  if (!cairn__crowd_stays(c, s)) return 0;
  float grow = (float)(stall - ARRIVE_STALL) / STAY_GROW_TICKS;
  float share = STAY_FIRST_SHARE + (grow < 1.0f ? grow : 1.0f) * (1.0f - STAY_FIRST_SHARE);
  return d < c->arrive_r[s] * share;
}

/* A unit larger than a cell whose disc, narrower than the unit, stands
 * where the unit's position centred nearest it does not fit (beside a
 * wall): the neighbouring position with the lowest value, to head for.
 * 0 when none has one. */
CROWD_COLD static int sample_beside(const cairn_field *f, int32_t cx, int32_t cy,
                                    cairn_flow_sample *smp, float *dx, float *dy) {
  int found = 0;
  for (int d = 0; d < 8; d++) {
    int32_t nx = cx + cairn_flow_dir_dx(d), ny = cy + cairn_flow_dir_dy(d);
    cairn_flow_sample q;
    if (cairn_field_sample(f, (float)nx + 0.5f, (float)ny + 0.5f, &q) != CAIRN_OK ||
        q.dir == CAIRN_FLOW_NONE || (found && q.cost >= smp->cost))
      continue;
    *smp = q;
    *dx = (float)cairn_flow_dir_dx(d);
    *dy = (float)cairn_flow_dir_dy(d);
    found = 1;
  }
  if (found) {
    unit(dx, dy);
    smp->next_goal = 0;
  }
  return found;
}

/* The field's sample for agent k: at its unit's position (the disc's
 * centre less cairn__crowd_corner), whose cell *cx, *cy gets. */
static cairn_status sample_at(const cairn_crowd *c, uint32_t k, const cairn_field *f,
                              cairn_flow_sample *smp, int32_t *cx, int32_t *cy) {
  const float o = cairn__crowd_corner(cairn__crowd_size_of(c->sr[k]));
  const float x = c->sx[k] - o, y = c->sy[k] - o;
  *cx = crowd_cell(x);
  *cy = crowd_cell(y);
  return cairn_field_sample(f, x, y, smp);
}

static void wish_field(const cairn_crowd *c, uint32_t k, wish *w) {
  const cairn_field *f = c->fields[c->sa[k].field].field;
  cairn_flow_sample smp;
  int32_t cx, cy;
  cairn_status st = sample_at(c, k, f, &smp, &cx, &cy);
  float dx = smp.vx, dy = smp.vy;
  if (st == CAIRN_OK && smp.dir == CAIRN_FLOW_NONE && c->sr[k] > 0.5f &&
      sample_beside(f, cx, cy, &smp, &dx, &dy))
    smp.dir = 0; /* moving to a position that fits */
  if (st != CAIRN_OK || smp.dir == CAIRN_FLOW_NONE) {
    w->state = CAIRN_AGENT_UNREACHABLE;
    return;
  }
  /* the sample holds the cell's value and its move's end: no value read */
  float progress = (float)cairn_cost_to_double(smp.cost);
  if (smp.dir == CAIRN_FLOW_GOAL || beside_goal(f, cx, cy, &smp) ||
      (c->sa[k].stall > ARRIVE_STALL &&
       stays_here(c, c->sslot[k], c->sa[k].stall, progress))) {
    w->state = CAIRN_AGENT_ARRIVED;
    return;
  }
  w->dx = dx;
  w->dy = dy;
  w->state = CAIRN_AGENT_MOVING;
  w->progress = progress;
}

/* The straight distance from slot s to its path's goal cell's centre, and
 * the unit direction to it. */
static float to_goal(const cairn_crowd *c, uint32_t s, float *dx, float *dy) {
  const float o = 0.5f + cairn__crowd_corner(cairn__crowd_size_of(c->radius[s]));
  *dx = (float)c->goal[s].x + o - c->x[s];
  *dy = (float)c->goal[s].y + o - c->y[s];
  float d = sqrtf(*dx * *dx + *dy * *dy);
  unit(dx, dy);
  return d;
}

/* An agent that arrived (a body: it stopped or stays). Staying, it keeps
 * leaning towards the goal at STAY_LEAN cells per second (the touching
 * neighbours' share of it goes, as for any agent, so the cluster packs
 * round and leaves room at its rim, without pressing), and walks back in,
 * faster the farther out, when pushed out of its radius. It goes first
 * for the others (progress 0), so those arriving slow behind it rather
 * than push into it. */
static void wish_settled(const cairn_crowd *c, uint32_t k, uint32_t s, wish *w) {
  if (!cairn__crowd_stays(c, s)) return;
  w->progress = 0.0f;
  float R = c->arrive_r[s], d, dx, dy;
  if (c->sa[k].order == CAIRN_ORDER_FIELD) {
    const cairn_field *f = c->fields[c->sa[k].field].field;
    cairn_flow_sample smp;
    int32_t cx, cy;
    if (sample_at(c, k, f, &smp, &cx, &cy) != CAIRN_OK) return;
    d = (float)cairn_cost_to_double(smp.cost);
    if (!(d > STAY_NEAR)) return;
    dx = smp.vx;
    dy = smp.vy;
  } else {
    d = to_goal(c, s, &dx, &dy);
    if (!(d > STAY_NEAR)) return;
  }
  w->dx = dx;
  w->dy = dy;
  float lean = STAY_LEAN / c->sa[k].speed, out = d - R;
  w->go = out < lean ? lean : out < 1.0f ? out : 1.0f;
}

/* The point a unit of size m at waypoint p has its disc's centre on. A
 * group's path is planned for its largest member; any smaller one walks
 * the top-left part of it, where it fits too. */
static void centre_of(cairn_point p, int32_t m, float *x, float *y) {
  const float o = 0.5f + cairn__crowd_corner(m);
  *x = (float)p.x + o;
  *y = (float)p.y + o;
}

/* The waypoint plus the agent's formation offset where the unit fits at
 * the offset point and it is in sight of both the waypoint and the agent
 * (a wide corridor), else the waypoint itself (filing through a narrow
 * pass). */
static void target_of(const cairn_crowd *c, uint32_t s, int32_t m, cairn_point p,
                      float *tx, float *ty) {
  centre_of(p, m, tx, ty);
  if (c->offx[s] == 0.0f && c->offy[s] == 0.0f) return;
  float ox = *tx + c->offx[s], oy = *ty + c->offy[s];
  cairn_point q = cairn__crowd_position(ox, oy, m);
  const float r = c->radius[s];
  /* in sight of the agent too, for its disc: a straight line into a wall
   * face, or past a corner its disc catches on, pins it */
  if (cairn_grid_clearance(c->grid, q.x, q.y) < m ||
      !cairn__crowd_disc_sight(c, *tx, *ty, ox, oy, r) ||
      !cairn__crowd_disc_sight(c, c->x[s], c->y[s], ox, oy, r))
    return;
  *tx = ox;
  *ty = oy;
}

/* Whether another agent stands on the point (tx, ty) slot s heads for,
 * holding it off. cairn's steering takes any stall near the point as
 * that (its discs may press in, so one held off is stalled by those at
 * the point); under ORCA, which only slows agents in traffic, a stall
 * near the point counts only when a unit that stopped covers the point,
 * so one waiting for others to get there and leave does not stop short. */
CROWD_COLD static int held_off(const cairn_crowd *c, uint32_t s, float tx, float ty) {
  if (c->opts.avoidance != CAIRN_AVOID_ORCA) return 1;
  int32_t bx, by;
  cairn__crowd_bin_xy(c, tx, ty, &bx, &by);
  for (int32_t row = by - 1; row <= by + 1; row++) {
    const uint32_t *start = c->bin_start + (size_t)row * (size_t)c->nbx;
    for (uint32_t j = start[bx - 1]; j < start[bx + 2]; j++) {
      float px = c->sx[j] - tx, py = c->sy[j] - ty, rr = c->sr[j] + c->radius[s];
      uint8_t st = c->sa[j].state;
      if (c->sslot[j] != s && (st == CAIRN_AGENT_ARRIVED || st == CAIRN_AGENT_IDLE) &&
          px * px + py * py < rr * rr)
        return 1;
    }
  }
  return 0;
}

static void wish_path(const cairn_crowd *c, uint32_t s, wish *w) {
  w->state = c->state[s];
  if (c->state[s] != CAIRN_AGENT_MOVING) return;
  float gx, gy;
  if (c->stall[s] > ARRIVE_STALL && stays_here(c, s, c->stall[s], to_goal(c, s, &gx, &gy))) {
    w->state = CAIRN_AGENT_ARRIVED;
    return;
  }
  const int32_t m = cairn__crowd_size_of(c->radius[s]);
  const cairn_point *wp = c->wp + (size_t)s * c->opts.waypoints;
  uint16_t i = c->wp_i[s], n = c->wp_n[s];
  float tx, ty;
  target_of(c, s, m, wp[i], &tx, &ty);
  float dx = tx - c->x[s], dy = ty - c->y[s];
  float d = sqrtf(dx * dx + dy * dy);
  int last = i + 1 == n;
  /* On to the next waypoint once on this one, or once the next is in
   * sight near it (so units crowding one waypoint need not all reach it):
   * near is not enough, as a straight leg that leaves the waypoint past
   * a wall's corner cannot be taken from the corner's other side. Near
   * the offset point but without the next in sight, to the waypoint
   * itself first; the zone reaches |offset| past the waypoint's own
   * ADVANCE_DIST, so heading for the waypoint never leaves it. */
  if (!last) {
    float cx, cy;
    centre_of(wp[i], m, &cx, &cy);
    float wx = cx - c->x[s], wy = cy - c->y[s];
    float dwp = sqrtf(wx * wx + wy * wy);
    float off = sqrtf(c->offx[s] * c->offx[s] + c->offy[s] * c->offy[s]);
    float nx, ny;
    centre_of(wp[i + 1], m, &nx, &ny);
    int advance = dwp < ADVANCE_ON ||
                  ((dwp < ADVANCE_DIST || d < ADVANCE_NEAR_WP) &&
                   cairn__crowd_disc_sight(c, c->x[s], c->y[s], nx, ny, c->radius[s]));
    if (advance) {
      i++;
      target_of(c, s, m, wp[i], &tx, &ty);
      last = i + 1 == n;
    } else if (d < ADVANCE_DIST || dwp < ADVANCE_DIST + off) {
      tx = cx;
      ty = cy;
    }
    dx = tx - c->x[s];
    dy = ty - c->y[s];
    d = sqrtf(dx * dx + dy * dy);
  }
  w->wp_i = i;
  /* arrived: on the point, or close to it and held off it (by units that
   * arrived first) for a while */
  if (last && (d < ARRIVE_DIST ||
               (d < ARRIVE_NEAR && c->stall[s] > ARRIVE_STALL && held_off(c, s, tx, ty)))) {
    if (c->wp_partial[s]) w->repath = 1;
    else w->state = CAIRN_AGENT_ARRIVED;
    return;
  }
  w->dx = dx;
  w->dy = dy;
  unit(&w->dx, &w->dy);
  if (last && d < 1.0f) { /* ease in so the agent stops on the point */
    w->dx *= d;
    w->dy *= d;
  }
  w->progress = (float)(n - i) * 1000.0f + d;
}

static void wish_wander(const cairn_crowd *c, uint32_t s, wish *w) {
  static const float dir[8][2] = {{1, 0}, {0.7071f, 0.7071f}, {0, 1},
                                  {-0.7071f, 0.7071f}, {-1, 0},
                                  {-0.7071f, -0.7071f}, {0, -1},
                                  {0.7071f, -0.7071f}};
  uint64_t z = c->seed[s] + (c->tick / 30) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  int k = (int)((z ^ (z >> 31)) & 7u);
  w->dx = dir[k][0];
  w->dy = dir[k][1];
  w->state = CAIRN_AGENT_MOVING;
}

/* k: the agent's place in bin order, s its slot. */
static void wish_of(const cairn_crowd *c, uint32_t k, uint32_t s, wish *w) {
  const crowd_sorted *a = &c->sa[k];
  memset(w, 0, sizeof *w);
  w->progress = INFINITY;
  w->state = a->state;
  w->wp_i = a->wp_i;
  switch (a->order) {
  case CAIRN_ORDER_FIELD:
    if (a->state == CAIRN_AGENT_ARRIVED) wish_settled(c, k, s, w);
    else wish_field(c, k, w);
    break;
  case CAIRN_ORDER_PATH:
    if (a->state == CAIRN_AGENT_ARRIVED) wish_settled(c, k, s, w);
    else wish_path(c, s, w);
    break;
  case CAIRN_ORDER_WANDER: wish_wander(c, s, w); break;
  default: break;
  }
}

/* What the neighbours ask: separation, predictive avoidance, slowing
 * behind close agents ahead. Read in bin order, so the sums are the same
 * at any thread count. */
typedef struct push {
  float sepx, sepy;     /* displacement undoing overlaps */
  float avx, avy;       /* avoidance direction (weighted) */
  float slow;           /* speed factor 0..1 */
  int overlap;          /* an overlap of more than half the radius */
  int contacts;         /* touching neighbours recorded (at most MAX_CONTACTS) */
  float cnx[MAX_CONTACTS], cny[MAX_CONTACTS]; /* unit normals towards them */
  float cvn[MAX_CONTACTS]; /* their velocity along that normal */
  int ahead_moving;     /* the agent blocking the way moves on */
} push;

/* The agent itself, in locals, for the neighbour scan. */
typedef struct self {
  float x, y, vx, vy, r, dx, dy, speed, R2;
  uint64_t key; /* skey: progress, then slot */
  uint32_t k, slot;
} self;

/* Candidates filtered at a time: the distance test runs over a block
 * without branches into a list of survivors (two thirds of the candidates
 * fail it, and a branch per candidate mispredicts). */
#define SCAN_BLOCK 64
/* Survivors held before the steering math runs on them all at once. */
#define NEAR_CAP (2 * SCAN_BLOCK)

/* The neighbours within the radius, as arrays, and each one's terms. The
 * math runs on every neighbour without branches (one loop the compiler
 * turns into vector code), each term kept or dropped by a mask; then the
 * terms are summed in bin order, exactly as one neighbour at a time would
 * sum them. */
typedef struct near_set {
  uint32_t m;
  /* in: offset to the neighbour, its velocity, the radii's sum, which way
   * a tie at the same point splits, whether it goes first */
  float px[NEAR_CAP], py[NEAR_CAP], ovx[NEAR_CAP], ovy[NEAR_CAP];
  float rr[NEAR_CAP], sgn[NEAR_CAP];
  int32_t first[NEAR_CAP];
  /* out */
  int32_t touch[NEAR_CAP], ovl[NEAR_CAP], amove[NEAR_CAP];
  float nx[NEAR_CAP], ny[NEAR_CAP], cvn[NEAR_CAP], sepx[NEAR_CAP], sepy[NEAR_CAP];
  float slow[NEAR_CAP], avx[NEAR_CAP], avy[NEAR_CAP];
} near_set;

/* c ? a : b for c 0 or 1, by bit masks: no branch, which the compiler
 * would otherwise bring back (moving a quotient or a load into it) and
 * which keeps the loop below from vector code. */
static inline float pick(int32_t c, float a, float b) {
  uint32_t m = 0u - (uint32_t)c, ua, ub;
  memcpy(&ua, &a, sizeof ua);
  memcpy(&ub, &b, sizeof ub);
  ua = (ua & m) | (ub & ~m);
  memcpy(&a, &ua, sizeof a);
  return a;
}

/* The terms of neighbour q, without branches: every quotient is computed,
 * NaN or not, and the masks choose. */
static void near_terms(const self *me, near_set *n, uint32_t q) {
  float px = n->px[q], py = n->py[q], rr = n->rr[q];
  float ovx = n->ovx[q], ovy = n->ovy[q], dx = me->dx, dy = me->dy;
  float d = sqrtf(px * px + py * py);
  int32_t touch = d < rr, tiny = !(d > 1e-5f);
  float qx = px / d, qy = py / d;
  /* same point: split by slot order, deterministically */
  float sg = n->sgn[q], nx = pick(tiny, sg, qx), ny = pick(tiny, 0.0f, qy);
  float over = rr - d;
  n->touch[q] = touch;
  n->nx[q] = nx;
  n->ny[q] = ny;
  n->cvn[q] = ovx * nx + ovy * ny;
  /* x - (+0) is x for every x: the untouched add nothing */
  n->sepx[q] = pick(touch, nx * over * SEP_GAIN, 0.0f);
  n->sepy[q] = pick(touch, ny * over * SEP_GAIN, 0.0f);
  n->ovl[q] = touch & (over > 0.5f * me->r);
  /* keep to the pace of a close agent ahead that goes first */
  float ahead = px * dx + py * dy;
  int32_t slows = n->first[q] & (ahead > 0.0f) & (fabsf(px * dy - py * dx) < rr);
  float gap = d - rr, along = ovx * dx + ovy * dy;
  float fg = gap / (2.0f * rr), f = pick(gap > 0.0f, fg, 0.0f);
  float pace = along / me->speed;
  f = pick(pace > f, pace, f);
  f = pick(f < SLOW_MIN, SLOW_MIN, f);
  n->slow[q] = pick(slows, f, 1.0f); /* 1: no slower than with no one ahead */
  n->amove[q] = slows & (along > 0.1f);
  /* closest approach under the current velocities */
  float vx = ovx - me->vx, vy = ovy - me->vy;
  float v2 = vx * vx + vy * vy;
  float t = -(px * vx + py * vy);
  int32_t soon = !((t <= 0.0f) | (t > AVOID_HORIZON * v2));
  t /= v2;
  float cx = px + vx * t, cy = py + vy * t;
  float cd2 = cx * cx + cy * cy, reach = rr + 0.1f;
  int32_t hits = soon & (cd2 < reach * reach);
  float cd = sqrtf(cd2);
  float wgt = (1.0f - t / AVOID_HORIZON) * (1.0f - cd / reach);
  int32_t aside = cd > 1e-3f;
  /* dead ahead: to the agent's own right */
  float ax0 = -cx / cd, ay0 = -cy / cd;
  float ax = pick(aside, ax0, -dy), ay = pick(aside, ay0, dx);
  int32_t oncoming = along < 0.0f; /* keep right */
  ax = pick(oncoming, ax - dy * 0.5f, ax);
  ay = pick(oncoming, ay + dx * 0.5f, ay);
  /* x + (-0) is x for every x: the missed add nothing */
  n->avx[q] = pick(hits, ax * wgt, -0.0f);
  n->avy[q] = pick(hits, ay * wgt, -0.0f);
}

/* The held neighbours' terms, summed into p in order; the set empties. */
static void near_flush(const self *me, near_set *n, push *p) {
  uint32_t m = n->m;
  for (uint32_t q = 0; q < m; q++) near_terms(me, n, q);
  for (uint32_t q = 0; q < m; q++) {
    if (n->touch[q] && p->contacts < MAX_CONTACTS) {
      p->cnx[p->contacts] = n->nx[q];
      p->cny[p->contacts] = n->ny[q];
      p->cvn[p->contacts++] = n->cvn[q];
    }
    p->sepx -= n->sepx[q];
    p->sepy -= n->sepy[q];
    p->overlap |= n->ovl[q];
    p->slow = n->slow[q] < p->slow ? n->slow[q] : p->slow;
    p->ahead_moving |= n->amove[q];
    p->avx += n->avx[q];
    p->avy += n->avy[q];
  }
  n->m = 0;
}

/* The bin-ordered agents of up to three rows of bins: candidates
 * [0, total), candidate i at place i + off[row of i]. */
typedef struct rows {
  uint32_t total, end0, end1;  /* ends of the first two rows' candidates */
  uint32_t off0, off1, off2;
} rows;

static uint32_t place_of(const rows *r, uint32_t i) {
  /* selects, not branches: which row a candidate falls in is random */
  uint32_t off = i < r->end1 ? r->off1 : r->off2;
  return i + (i < r->end0 ? r->off0 : off);
}

/* Candidates [i0, i1) filtered to those within the radius (a block
 * without branches: two thirds fail, and a branch each would mispredict),
 * then their state joins the set, in order. */
static void scan_block(const cairn_crowd *c, const self *me, const rows *r,
                       uint32_t i0, uint32_t i1, near_set *n) {
  const float *sx = c->sx, *sy = c->sy;
  uint32_t keep[SCAN_BLOCK], m = 0;
  for (uint32_t i = i0; i < i1; i++) {
    uint32_t j = place_of(r, i);
    float px = sx[j] - me->x, py = sy[j] - me->y;
    keep[m] = j;
    m += (uint32_t)!(px * px + py * py > me->R2);
  }
  /* the agent itself passed the test: written, then not counted */
  uint32_t q = n->m;
  for (uint32_t t = 0; t < m; t++) {
    uint32_t j = keep[t];
    n->px[q] = sx[j] - me->x;
    n->py[q] = sy[j] - me->y;
    n->ovx[q] = c->svx[j];
    n->ovy[q] = c->svy[j];
    n->rr[q] = me->r + c->sr[j];
    n->sgn[q] = c->sslot[j] > me->slot ? 1.0f : -1.0f;
    /* give way to a neighbour that goes first: nearer its goal (last
     * tick's progress), ties to the lower slot; a strict order, so no
     * ring of agents can wait on one another */
    n->first[q] = c->skey[j] < me->key;
    q += j != me->k;
  }
  n->m = q;
}

/* The 3 x 3 bins around the agent's as rows (neighbour_radius is at most
 * the bin's side). */
static void rows_of(const cairn_crowd *c, const self *me, rows *r) {
  int32_t bx, by;
  cairn__crowd_bin_xy(c, me->x, me->y, &bx, &by);
  /* the border: bx - 1 .. bx + 1 and by - 1 .. by + 1 are bins */
  const uint32_t *start = c->bin_start + (size_t)(by - 1) * (size_t)c->nbx + (size_t)bx;
  size_t row = (size_t)c->nbx;
  uint32_t f0 = start[-1], t0 = start[2];
  uint32_t f1 = start[row - 1], t1 = start[row + 2];
  uint32_t f2 = start[2 * row - 1], t2 = start[2 * row + 2];
  r->end0 = t0 - f0;
  r->end1 = r->end0 + (t1 - f1);
  r->total = r->end1 + (t2 - f2);
  r->off0 = f0;
  r->off1 = f1 - r->end0;
  r->off2 = f2 - r->end1;
}

static void gather(const cairn_crowd *c, uint32_t k, const wish *w, push *p) {
  /* the contact arrays are read only up to p->contacts */
  p->sepx = p->sepy = p->avx = p->avy = 0.0f;
  p->slow = 1.0f;
  p->overlap = p->contacts = p->ahead_moving = 0;
  float R = c->opts.neighbour_radius;
  self me = {c->sx[k], c->sy[k], c->svx[k], c->svy[k], c->sr[k], w->dx, w->dy,
             c->sa[k].speed, R * R, c->skey[k], k, c->sslot[k]};
  rows r;
  rows_of(c, &me, &r);
  near_set n;
  n.m = 0;
  for (uint32_t i = 0; i < r.total; i += SCAN_BLOCK) {
    scan_block(c, &me, &r, i, r.total - i > SCAN_BLOCK ? i + SCAN_BLOCK : r.total, &n);
    if (n.m > NEAR_CAP - SCAN_BLOCK) near_flush(&me, &n, p);
  }
  near_flush(&me, &n, p);
}

static float clampf(float v, float lim) { return v > lim ? lim : v < -lim ? -lim : v; }

/* A driven agent moves by the game's velocity times dt, one axis at a
 * time against the walls (each step under one cell: cairn_crowd_drive
 * checks it), and keeps that velocity; nothing pushes it. It goes first
 * for the others (progress 0): they give way. */
static void advance_driven(cairn_crowd *c, uint32_t k, uint32_t s) {
  float vx = c->dvx[s], vy = c->dvy[s], dt = c->opts.dt;
  float x = c->sx[k], y = c->sy[k], r = c->sr[k], nx, ny;
  int stop_x, stop_y;
  cairn__crowd_move(c, x, y, r, vx * dt, vy * dt, vx, vy, &nx, &ny, &stop_x, &stop_y);
  c->nx[k] = nx;
  c->ny[k] = ny;
  c->nvx[k] = vx;
  c->nvy[k] = vy;
  c->nstate[k] = vx != 0.0f || vy != 0.0f ? CAIRN_AGENT_MOVING : CAIRN_AGENT_IDLE;
  c->nwp_i[k] = c->sa[k].wp_i;
  c->nstall[k] = 0;
  c->nbest[k] = INFINITY;
  c->nprog[k] = 0.0f;
  c->nflags[k] = 0;
}

/* The velocity cairn's steering gives: the wish bent by the neighbours'
 * avoidance and slowed behind those ahead, half-way from the current
 * one, less whatever closes on a touching neighbour. */
static inline void steer_velocity(const cairn_crowd *c, uint32_t k, const wish *w,
                                  const push *p, float speed, float moving, float *vx,
                                  float *vy) {
  float wx = (w->dx * p->slow + p->avx) * speed * moving;
  float wy = (w->dy * p->slow + p->avy) * speed * moving;
  float l = sqrtf(wx * wx + wy * wy);
  if (l > speed) {
    wx *= speed / l;
    wy *= speed / l;
  }
  float vx0 = c->svx[k], vy0 = c->svy[k];
  float ux = vx0 + (wx - vx0) * 0.5f, uy = vy0 + (wy - vy0) * 0.5f;
  /* no pushing into a touching neighbour: the part of the velocity that
   * closes on it goes, so agents follow and slide around each other
   * instead of compressing */
  for (int q = 0; q < p->contacts; q++) {
    float into = ux * p->cnx[q] + uy * p->cny[q] - (p->cvn[q] > 0.0f ? p->cvn[q] : 0.0f);
    if (into > 0.0f) {
      ux -= into * p->cnx[q];
      uy -= into * p->cny[q];
    }
  }
  *vx = ux;
  *vy = uy;
}

/* The velocity ORCA allows nearest the wish at the agent's pace; no
 * separation push (ORCA parts overlapping discs within a tick). */
static CROWD_COLD void orca_velocity(const cairn_crowd *c, uint32_t k, const wish *w,
                                     float pace, push *p, float *vx, float *vy) {
  crowd_orca_near around;
  cairn__crowd_orca(c, k, w->dx * pace, w->dy * pace, c->sa[k].speed, vx, vy, &around);
  /* the tick it arrives it stops where it is (after, as a body, it steps
   * aside for others as ORCA has it) */
  if (w->state == CAIRN_AGENT_ARRIVED && c->sa[k].state != CAIRN_AGENT_ARRIVED)
    *vx = *vy = 0.0f;
  p->sepx = p->sepy = 0.0f;
  p->overlap = around.overlap;
  p->ahead_moving = around.blocked_by_moving;
}

/* One agent's next state from the current one, written at its place k in
 * bin order. */
static void advance(cairn_crowd *c, uint32_t k) {
  uint32_t s = c->sslot[k];
  const crowd_sorted *a = &c->sa[k];
  wish w;
  push p;
  wish_of(c, k, s, &w);
  float speed = a->speed, dt = c->opts.dt, vx, vy;
  float moving = w.state == CAIRN_AGENT_MOVING ? 1.0f : w.go;
  if (c->opts.avoidance == CAIRN_AVOID_ORCA) {
    orca_velocity(c, k, &w, speed * moving, &p, &vx, &vy);
  } else {
    gather(c, k, &w, &p);
    steer_velocity(c, k, &w, &p, speed, moving, &vx, &vy);
  }
  float x = c->sx[k], y = c->sy[k], r = c->sr[k];
  float sx = clampf(p.sepx, SEP_MAX), sy = clampf(p.sepy, SEP_MAX);
  float mx = clampf(vx * dt + sx, STEP_MAX), my = clampf(vy * dt + sy, STEP_MAX);
  /* the disc's square goes up to a wall and stops touching it, never
   * into it (crowd_walls.c) */
  float nx, ny;
  int stop_x, stop_y;
  cairn__crowd_move(c, x, y, r, mx, my, w.dx, w.dy, &nx, &ny, &stop_x, &stop_y);
  if (stop_x) vx = 0.0f;
  if (stop_y) vy = 0.0f;
  c->nx[k] = nx;
  c->ny[k] = ny;
  c->nvx[k] = vx;
  c->nvy[k] = vy;
  c->nstate[k] = w.state;
  c->nwp_i[k] = w.wp_i;
  uint8_t fl = (uint8_t)(p.overlap ? AF_OVERLAP : 0);
  if (w.wp_i != c->wp_i[s]) fl |= AF_ADVANCED;
  /* progress: nearer the goal than ever, or waiting on a unit moving on */
  uint32_t stall = 0;
  float best = a->best;
  if (w.progress < best - 0.01f) best = w.progress;
  else if (w.state == CAIRN_AGENT_MOVING && !p.ahead_moving) {
    stall = a->stall + 1;
    if (stall == c->opts.stuck_ticks + 1 && a->order == CAIRN_ORDER_FIELD) fl |= AF_EVENT;
  }
  if (w.repath || (a->order == CAIRN_ORDER_PATH && stall > c->opts.stuck_ticks)) {
    fl |= AF_REPATH;
    stall = 0;
  }
  /* arrived and unreachable are neighbours in the enum: one compare */
  if (w.state != a->state && (unsigned)w.state - CAIRN_AGENT_ARRIVED < 2u) fl |= AF_EVENT;
  c->nstall[k] = stall;
  c->nbest[k] = best;
  c->nprog[k] = w.progress;
  c->nflags[k] = fl;
  if (a->order == CAIRN_ORDER_DRIVEN) advance_driven(c, k, s); /* rare: over the above */
}

/* The steering pass, opts.chunk agents a task. */
void cairn__crowd_steer_task(void *arg, uint32_t t, uint32_t w) {
  cairn_crowd *c = arg;
  uint64_t from, to;
  (void)w;
  cairn__crowd_span(c->n_binned, (uint64_t)c->opts.chunk, t, &from, &to);
  for (uint64_t k = from; k < to; k++) advance(c, (uint32_t)k);
}

