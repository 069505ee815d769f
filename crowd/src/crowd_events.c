/* Events: what happened to agents (arrived, stuck, unreachable,
 * repathed, removed), recorded in a ring sized at create, in the order it
 * happened, and drained by the caller. */
#include "crowd_internal.h"

#include <string.h>

cairn_status cairn__crowd_events_init(cairn_crowd *c) {
  c->ev_cap = c->opts.max_events;
  if (!c->ev_cap) return CAIRN_OK;
  c->ev = cairn__alloc_zero(&c->alloc, sizeof *c->ev * c->ev_cap);
  return c->ev ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

void cairn__crowd_events_free(cairn_crowd *c) {
  cairn__free(&c->alloc, c->ev, sizeof *c->ev * c->ev_cap);
}

void cairn__crowd_event(cairn_crowd *c, cairn_crowd_event_kind kind, uint32_t s) {
  if (!c->ev_cap) return;
  if (c->ev_len == c->ev_cap) { /* full: the oldest stay, this one is lost */
    c->stats.events_lost++;
    return;
  }
  cairn_crowd_event *e = &c->ev[(c->ev_head + c->ev_len++) % c->ev_cap];
  e->agent = (cairn_agent)s | (cairn_agent)c->gen[s] << 32;
  e->user = c->user[s];
  e->tick = c->ev_tick;
  e->kind = kind;
}

/* The events of agent k (slot s) of the tick's steering, recorded by the
 * sequential pass after the commit: the state it took, or a horde agent
 * that has just gone opts.stuck_ticks without progress. */
void cairn__crowd_steer_events(cairn_crowd *c, uint32_t k, uint32_t s) {
  uint8_t was = c->sa[k].state, now = c->nstate[k];
  if (now != was && now == CAIRN_AGENT_ARRIVED) cairn__crowd_event(c, CAIRN_EVENT_ARRIVED, s);
  if (now != was && now == CAIRN_AGENT_UNREACHABLE)
    cairn__crowd_event(c, CAIRN_EVENT_UNREACHABLE, s);
  if (c->sa[k].order == CAIRN_ORDER_FIELD && c->nstall[k] == c->opts.stuck_ticks + 1)
    cairn__crowd_event(c, CAIRN_EVENT_STUCK, s);
}

cairn_status cairn_crowd_events(cairn_crowd *c, cairn_crowd_event *out, size_t cap,
                                size_t *n) {
  if (n) *n = 0;
  if (!c) return CAIRN_ERR_ARG;
  if (!n || (!out && cap))
    return cairn__crowd_fail(c, CAIRN_ERR_ARG, "events: %s is NULL", n ? "out" : "n");
  size_t m = c->ev_len < cap ? c->ev_len : cap;
  for (size_t i = 0; i < m; i++) out[i] = c->ev[(c->ev_head + i) % c->ev_cap];
  if (m) c->ev_head = (uint32_t)((c->ev_head + m) % c->ev_cap);
  c->ev_len -= (uint32_t)m;
  *n = m;
  return cairn__crowd_ok(c);
}

size_t cairn_crowd_events_pending(const cairn_crowd *c) { return c ? c->ev_len : 0; }
