/* A crowd's run to the end and its summary, shared by cairn horde and
 * cairn march (cli.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cairn/crowd.h"
#include "cli.h"
#include "cli_png.h"
#include "replay.h"

cairn_status cli_crowd_create(const char *cmd, const cairn_grid *g,
                              const cairn_crowd_opts *o, cairn_crowd **out) {
  cairn_status st = cairn_crowd_create(g, o, NULL, out);
  if (st == CAIRN_OK) return st;
  char why[160] = "";
  cairn_crowd_check(g, o, why, sizeof why);
  cli_error("%s: cannot make the crowd: %s%s%s", cmd, cairn_status_str(st), *why ? ": " : "",
            why);
  return st;
}

void cli_crowd_error(const char *cmd, const cairn_crowd *c, cairn_status st) {
  const char *why = c ? cairn_crowd_error(c) : "";
  cli_error("%s: %s%s%s", cmd, cairn_status_str(st), *why ? ": " : "", why);
}

void cli_arrivals_init(cli_arrivals *a) { a->t50 = a->t90 = a->t100 = -1; }

void cli_arrivals_note(cli_arrivals *a, long t, double arrived, double agents) {
  if (a->t50 < 0 && arrived >= 0.5 * agents) a->t50 = t;
  if (a->t90 < 0 && arrived >= 0.9 * agents) a->t90 = t;
  if (a->t100 < 0 && arrived >= agents) a->t100 = t;
}

void cli_arrivals_json(const cli_arrivals *a) {
  const long ts[3] = {a->t50, a->t90, a->t100};
  const char *names[3] = {"t50", "t90", "t100"};
  for (int k = 0; k < 3; k++) {
    if (ts[k] >= 0) printf(",\"%s\":%ld", names[k], ts[k]);
    else printf(",\"%s\":null", names[k]);
  }
}

/* "tick 1234", or "never" for -1. */
static void print_tick(long t) {
  if (t >= 0) printf("tick %ld", t);
  else printf("never");
}

void cli_arrivals_text(const cli_arrivals *a) {
  printf("50 %% after ");
  print_tick(a->t50);
  printf(", 90 %% after ");
  print_tick(a->t90);
  printf(", all after ");
  print_tick(a->t100);
}

cairn_status cli_crowd_run(cairn_crowd *c, long ticks, cli_crowd_summary *sum) {
  cairn_crowd_stats st;
  cairn_crowd_get_stats(c, &st);
  /* a loaded crowd (--load) goes on from its tick: `ticks` counts from the
   * start, and a run that had stopped (nothing moving) stays stopped */
  long t0 = (long)st.ticks;
  sum->orders_plan_ms = -1;
  cli_arrivals_init(&sum->arrive);
  if (t0 > 0 && st.moving + st.waiting + st.queued == 0) ticks = t0;
  long n = ticks > t0 ? ticks - t0 : 0;
  double *ms = malloc((size_t)(n ? n : 1) * sizeof *ms);
  if (!ms) return CAIRN_ERR_NOMEM;
  double total_us = 0;
  long t = t0;
  /* the ticks that began with every agent on the field: a prefix, as an
   * arrived agent stays */
  long full = 0;
  for (; t < ticks; t++) {
    if (st.arrived == 0) full = t - t0 + 1;
    double t0_us = cli_now_us();
    cairn_crowd_tick(c);
    double us = cli_now_us() - t0_us;
    ms[t - t0] = us / 1000.0;
    total_us += us;
    cairn_crowd_get_stats(c, &st);
    cli_arrivals_note(&sum->arrive, t + 1, (double)st.arrived, (double)sum->agents);
    if (!st.queued && sum->orders_plan_ms < 0) sum->orders_plan_ms = (double)st.plan_ns / 1e6;
    sum->in_wall += st.in_wall;
    sum->lost += st.non_finite;
    sum->overlaps += st.overlaps;
    sum->agent_ticks += st.active;
    if (sum->replay && cli_replay_tick(sum->replay, t + 1) != CAIRN_OK) {
      free(ms);
      return CAIRN_ERR_IO;
    }
    if (sum->movie && cli_png_movie_tick(sum->movie, t + 1) != CAIRN_OK) {
      free(ms);
      return CAIRN_ERR_IO;
    }
    if (sum->after_tick) {
      cairn_status hs = sum->after_tick(sum->user, t + 1, &st);
      if (hs != CAIRN_OK) {
        free(ms);
        return hs;
      }
    }
    if (st.moving + st.waiting + st.queued == 0) {
      t++;
      break;
    }
  }
  cairn_crowd_get_stats(c, &st);
  long ran = t - t0;
  sum->ticks = t;
  sum->arrived = st.arrived;
  sum->stuck = st.stuck + st.unreachable;
  sum->unreachable = st.unreachable;
  sum->lost += (uint64_t)(sum->agents - (long)st.agents);
  sum->hash = cairn_crowd_hash(c);
  sum->updates_per_s = total_us > 0 ? (double)sum->agent_ticks / (total_us / 1e6) : 0;
  sum->max_tick_nodes = st.max_tick_nodes;
  sum->plan_ms = (double)st.plan_ns / 1e6;
  if (sum->orders_plan_ms < 0) sum->orders_plan_ms = sum->plan_ms;
  /* the 99th percentile of the ticks a served request waited */
  uint64_t seen = 0, want = (uint64_t)((double)st.served * 0.99);
  sum->wait_p99 = 0;
  for (int k = 0; k <= 256 && st.served; k++) {
    seen += st.wait_hist[k];
    if (seen > want || k == 256) {
      sum->wait_p99 = k;
      break;
    }
  }
  sum->full_ticks = full;
  qsort(ms, (size_t)full, sizeof *ms, cli_cmp_double);
  sum->full_median_ms = full ? ms[full / 2] : 0;
  qsort(ms, (size_t)ran, sizeof *ms, cli_cmp_double);
  sum->median_ms = ran ? ms[ran / 2] : 0;
  sum->p99_ms = ran ? ms[(size_t)((double)(ran - 1) * 0.99)] : 0;
  free(ms);
  return CAIRN_OK;
}

void cli_crowd_print(const cli_crowd_summary *s, bool json, bool queue) {
  double pct = s->agent_ticks ? 100.0 * (double)s->overlaps / (double)s->agent_ticks : 0;
  if (json) {
    printf("{\"agents\":%ld,\"ticks\":%ld,\"arrived\":%u,\"in_wall\":%llu,\"lost\":%llu,"
           "\"stuck\":%u,\"overlap_pct\":%.3f,\"state_hash\":\"%016llx\","
           "\"median_tick_ms\":%.3f,\"p99_tick_ms\":%.3f,\"agent_updates_per_s\":%.0f",
           s->agents, s->ticks, s->arrived, (unsigned long long)s->in_wall,
           (unsigned long long)s->lost, s->stuck, pct, (unsigned long long)s->hash,
           s->median_ms, s->p99_ms, s->updates_per_s);
    if (queue)
      printf(",\"max_tick_nodes\":%llu,\"queue_wait_ticks_p99\":%d,\"plan_ms\":%.3f,"
           "\"orders_plan_ms\":%.3f",
           (unsigned long long)s->max_tick_nodes, s->wait_p99, s->plan_ms, s->orders_plan_ms);
    if (queue && s->hierarchy_ms >= 0) printf(",\"hierarchy_ms\":%.3f", s->hierarchy_ms);
    if (s->path_cache) {
      cairn_path_cache_stats pc;
      cairn_path_cache_get_stats(s->path_cache, &pc);
      printf(",\"path_cache\":{\"walked\":%llu,\"joined\":%llu,\"missed\":%llu,\"stored\":%llu}",
             (unsigned long long)pc.walked, (unsigned long long)pc.joined,
             (unsigned long long)pc.missed, (unsigned long long)pc.stored);
    }
    if (s->n_gates) {
      printf(",\"gates\":[");
      for (size_t k = 0; k < s->n_gates; k++)
        printf("%s[%d,%d]", k ? "," : "", s->gate_first[k].x, s->gate_first[k].y);
      printf("],\"arrived_by_gate\":[");
      for (size_t k = 0; k < s->n_gates; k++) printf("%s%u", k ? "," : "", s->by_gate[k]);
      printf("],\"full_ticks\":%ld,\"full_median_tick_ms\":", s->full_ticks);
      if (s->full_ticks) printf("%.3f", s->full_median_ms);
      else printf("null");
    }
    cli_arrivals_json(&s->arrive);
    if (s->max_queue >= 0) printf(",\"max_queue\":%ld", s->max_queue);
    if (s->n_sizes) {
      printf(",\"by_size\":[");
      for (size_t k = 0; k < s->n_sizes; k++)
        printf("%s{\"size\":%d,\"units\":%u,\"arrived\":%u,\"mean_walk\":%.3f}",
               k ? "," : "", (int)s->by_size[k].size, s->by_size[k].units,
               s->by_size[k].arrived, s->by_size[k].walked);
      printf("]");
    }
    printf("}\n");
    return;
  }
  printf("agents      %ld, over after %ld ticks (%.1f s of game time)\n", s->agents,
         s->ticks, (double)s->ticks * 0.1);
  printf("arrived     %u (%.2f %%), stuck or unreachable %u (unreachable %u)\n", s->arrived,
         100.0 * s->arrived / (double)s->agents, s->stuck, s->unreachable);
  printf("in a wall   %llu agent-ticks, lost %llu\n", (unsigned long long)s->in_wall,
         (unsigned long long)s->lost);
  printf("overlap     %.3f %% of agent-ticks (discs overlapping by more than half a radius)\n", pct);
  printf("arrivals    ");
  cli_arrivals_text(&s->arrive);
  printf("\n");
  if (s->max_queue >= 0)
    printf("queue       at most %ld agents within 3 cells of one gate\n", s->max_queue);
  printf("tick        median %.3f ms, p99 %.3f ms, %.2f M agent updates/s\n",
         s->median_ms, s->p99_ms, s->updates_per_s / 1e6);
  if (s->n_gates) {
    printf("full field  ");
    if (s->full_ticks)
      printf("median %.3f ms a tick over the %ld ticks before the first arrival\n",
             s->full_median_ms, s->full_ticks);
    else
      printf("no tick began with every agent on the field\n");
    /* four gates a line: "113,96 1250 | 134,96 1250 | ..." */
    for (size_t k = 0; k < s->n_gates; k++)
      printf("%s%d,%d %u%s", k == 0 ? "by gate     " : k % 4 == 0 ? "            " : "",
             s->gate_first[k].x, s->gate_first[k].y, s->by_gate[k],
             k + 1 == s->n_gates || k % 4 == 3 ? "\n" : " | ");
  }
  if (queue) {
    printf("paths       at most %llu nodes in a tick, 99 %% of requests waited <= %d ticks\n",
           (unsigned long long)s->max_tick_nodes, s->wait_p99);
    printf("planning    %.3f ms (searches and fields), %.3f ms of it before the queue "
           "first emptied", s->plan_ms, s->orders_plan_ms);
    if (s->hierarchy_ms >= 0) printf(", the hierarchy's build %.3f ms", s->hierarchy_ms);
    printf("\n");
  }
  if (s->path_cache) {
    cairn_path_cache_stats pc;
    cairn_path_cache_get_stats(s->path_cache, &pc);
    printf("routes      %llu requests walked a stored route, %llu joined one, %llu missed "
           "(%llu paths stored)\n",
           (unsigned long long)pc.walked, (unsigned long long)pc.joined,
           (unsigned long long)pc.missed, (unsigned long long)pc.stored);
  }
  for (size_t k = 0; k < s->n_sizes; k++)
    printf("%s%d: %u units, %u arrived, %.1f cells walked each\n",
           k ? "            size " : "by size     size ", (int)s->by_size[k].size,
           s->by_size[k].units, s->by_size[k].arrived, s->by_size[k].walked);
  printf("state hash  %016llx\n", (unsigned long long)s->hash);
}
