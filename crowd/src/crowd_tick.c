/* The tick: the six passes run as tasks on the crowd's jobs, and the
 * commit that makes the next state the current one. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

/* The next state (at k in bin order) becomes slot s's current one: slot
 * s alone, so in parallel. */
static void commit_copy(cairn_crowd *c, uint32_t k, uint32_t s) {
  c->x[s] = c->nx[k];
  c->y[s] = c->ny[k];
  c->vx[s] = c->nvx[k];
  c->vy[s] = c->nvy[k];
  c->wp_i[s] = c->nwp_i[k];
  c->stall[s] = c->nstall[k];
  c->best[s] = c->nbest[k];
  c->prog[s] = c->nprog[k];
  c->flags[s] = c->nflags[k];
  if (c->sa[k].state != CAIRN_AGENT_STUCK || c->nstate[k] != CAIRN_AGENT_MOVING)
    c->state[s] = c->nstate[k];
}

/* Whether agent k needs the sequential pass after the commit: path
 * bookkeeping (a repath, a waypoint passed, claims to drop on arrival) or
 * an event (marked by the steering). Read from the next state, which the
 * commit leaves as it is. */
static int needs_pass(const cairn_crowd *c, uint32_t k) {
  return (c->nflags[k] & (AF_REPATH | AF_ADVANCED | AF_EVENT)) != 0 ||
         (c->claims && c->nstate[k] == CAIRN_AGENT_ARRIVED);
}

static void counts_add(crowd_counts *to, const crowd_counts *from) {
  to->overlaps += from->overlaps;
  to->in_wall += from->in_wall;
  to->non_finite += from->non_finite;
}

/* One agent's commit and its share of the tick's counts. */
static void commit_one(cairn_crowd *c, uint32_t k, crowd_counts *n) {
  commit_copy(c, k, c->sslot[k]);
  float x = c->nx[k], y = c->ny[k];
  n->overlaps += (c->nflags[k] & AF_OVERLAP) != 0;
  if (!isfinite(x) || !isfinite(y)) n->non_finite++;
  else n->in_wall += (uint64_t)cairn__crowd_disc_in_wall(c, x, y, c->sr[k], NULL);
}

/* The first nblk tasks clear a block of bins for the next tick (every read
 * of them is done), the others commit agents, counting into their
 * worker's counts and listing those the sequential pass must see. */
static void commit_task(void *arg, uint32_t t, uint32_t w) {
  cairn_crowd *c = arg;
  uint32_t nblk = (uint32_t)cairn__crowd_bin_blocks(c);
  if (t < nblk) {
    cairn__crowd_clear_block(c, t);
    return;
  }
  uint64_t from, to, per = cairn__crowd_light_chunk(c);
  cairn__crowd_span(c->n_binned, per, t - nblk, &from, &to);
  uint32_t *list = c->todo + from, m = 0;
  /* counted here, added to the worker's once: the workers' counts lie
   * side by side, and a write per agent would pass their cache line
   * between the cores */
  crowd_counts n = {0, 0, 0};
  for (uint64_t k = from; k < to; k++) {
    commit_one(c, (uint32_t)k, &n);
    list[m] = (uint32_t)k;
    m += (uint32_t)needs_pass(c, (uint32_t)k);
  }
  counts_add(&c->wsum[w], &n);
  c->todo_n[t - nblk] = m;
}

/* The sequential pass over the listed agents, in bin order (the queue's
 * order): the steering's events, then the path bookkeeping. */
static void after_commit(cairn_crowd *c, uint32_t k) {
  uint32_t s = c->sslot[k];
  if (c->flags[s] & AF_EVENT) cairn__crowd_steer_events(c, k, s);
  if (c->flags[s] & (AF_REPATH | AF_ADVANCED) ||
      (c->claims && c->state[s] == CAIRN_AGENT_ARRIVED)) {
    if (c->flags[s] & AF_REPATH && (!c->wp_partial[s] || c->wp_i[s] + 1 < c->wp_n[s]))
      c->stats.repaths++;
    cairn__crowd_commit_path(c, s);
  }
}

/* Six passes a tick, each a run of tasks on the crowd's jobs: count, scan,
 * place, sort and gather, steer, commit. A task never waits for another;
 * a run ends when its last task does, and the caller takes every task no
 * worker has started. Each pass writes only what its own items own, so
 * the result is the same whatever ran where. */
void cairn__crowd_step(cairn_crowd *c) {
  const cairn__workers *jobs = &c->workers;
  uint32_t nblk = (uint32_t)cairn__crowd_bin_blocks(c);
  c->pass.prev = c->n_binned; /* last tick's binned slots, sslot */
  c->pass.old_tasks = cairn__crowd_tasks(c->pass.prev, cairn__crowd_light_chunk(c));
  uint32_t light = c->pass.old_tasks + cairn__crowd_tasks(c->high, cairn__crowd_light_chunk(c));
  cairn__workers_run(jobs, light, cairn__crowd_count_task, c);
  cairn__crowd_block_offsets(c);
  cairn__workers_run(jobs, nblk, cairn__crowd_scan_task, c);
  cairn__workers_run(jobs, light, cairn__crowd_place_task, c);
  cairn__workers_run(jobs, nblk, cairn__crowd_sort_task, c);
  cairn__workers_run(jobs, cairn__crowd_tasks(c->n_binned, (uint64_t)c->opts.chunk), cairn__crowd_steer_task, c);
  uint32_t nw = cairn__workers_count(jobs);
  memset(c->wsum, 0, sizeof *c->wsum * nw);
  uint32_t commits = cairn__crowd_tasks(c->n_binned, cairn__crowd_light_chunk(c));
  cairn__workers_run(jobs, nblk + commits, commit_task, c);
  crowd_counts sum = {0, 0, 0};
  for (uint32_t w = 0; w < nw; w++) counts_add(&sum, &c->wsum[w]);
  cairn_crowd_stats *st = &c->stats;
  st->overlaps = sum.overlaps;
  st->in_wall = sum.in_wall;
  st->non_finite = sum.non_finite;
  uint64_t per = cairn__crowd_light_chunk(c);
  for (uint32_t j = 0; j < commits; j++)
    for (uint32_t i = 0; i < c->todo_n[j]; i++) after_commit(c, c->todo[(size_t)j * per + i]);
}
