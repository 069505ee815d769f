/* Shared pieces of the cairn command-line tool. Only public headers. */
#ifndef CAIRN_CLI_H
#define CAIRN_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "cairn/core.h"
#include "cairn/crowd.h"

/* Exit codes (documented in the README). */
enum { EXIT_DONE = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2, EXIT_BADINPUT = 3 };
/* The landmark table --algo auto of scen and suite searches with at
 * weight 1 (unless --landmarks says otherwise): docs/PERFORMANCE.md,
 * "Choosing the exact method". */
enum { CLI_AUTO_LANDMARKS = 16 };

/* Prints "cairn: ..." on stderr. */
void cli_error(const char *fmt, ...)
#if defined(__MINGW32__) /* the C99 printf, __USE_MINGW_ANSI_STDIO */
    __attribute__((format(gnu_printf, 1, 2)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* An HPA* answer (status st) in the core's result form: status, cost and
 * base cost, path and steps (when found), expansions. */
void cli_result_of_hpa(cairn_status st, const cairn_hpa_result *hr, cairn_result *out);

/* A tiny option parser: --name value or --name=value; flags take none. */
typedef struct cli_args {
  int argc;
  char **argv;
  int i;           /* next argument */
  const char *opt; /* the option just read, without its value */
  const char *val; /* its value, or NULL */
  char buf[64];
} cli_args;

void cli_args_init(cli_args *a, int argc, char **argv);
/* Reads the next option; returns false at the end. A bare word gives
 * opt == NULL and val == the word. */
bool cli_next(cli_args *a);
/* Is the current option `name`? */
bool cli_is(const cli_args *a, const char *name);
/* Is the current option one of the NULL-terminated names? */
bool cli_is_any(const cli_args *a, const char *const *names);
/* The current option's value (the next argument if not given with '=').
 * NULL, with a usage error printed, if missing. */
const char *cli_value(cli_args *a);

/* Parsers that print a usage error and return false on bad text. */
bool cli_parse_point(const char *opt, const char *text, cairn_point *out);
bool cli_parse_double(const char *opt, const char *text, double lo, double hi,
                      double *out);
bool cli_parse_int(const char *opt, const char *text, long lo, long hi,
                   long *out);
/* "on" (1) or "off" (0). */
bool cli_parse_on_off(const char *opt, const char *text, int *out);
/* "C=N": map character C to cost N (0..255) in t. */
bool cli_parse_terrain(const char *text, cairn_terrain *t);

/* Loads a map, printing the loader's message on failure. */
cairn_grid *cli_load_map(const char *path, const cairn_terrain *t);
/* The grid a unit of size k moves on, as its own grid: a cell keeps the
 * dearest terrain of the k x k cells from it where they are all open (its
 * clearance is at least k), else it is blocked; what a size-k search's
 * paths are checked on. NULL when out of memory (the error printed). */
cairn_grid *cli_eroded(const cairn_grid *g, int k);
/* A landmark table of `count` landmarks (--landmarks) for g, the searches
 * choosing how many they use. NULL when out of memory (the error
 * printed). */
cairn_landmarks *cli_landmarks(const cairn_grid *g, long count);
/* Whether a unit of `size` may stand at p; if not, prints why, naming the
 * option, the cell and the size (off the map, a blocked cell, or a
 * footprint that is not all open, with the cell's clearance). */
bool cli_check_position(const cairn_grid *g, const char *opt, cairn_point p, int32_t size);

/* Microseconds from a monotonic clock. */
double cli_now_us(void);
/* qsort's comparison of doubles, ascending. */
int cli_cmp_double(const void *a, const void *b);

/* Commands. Each returns an exit code. */
int cmd_path(int argc, char **argv);
int cmd_scen(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_flow(int argc, char **argv);
int cmd_horde(int argc, char **argv);
int cmd_march(int argc, char **argv);
int cmd_crowd_bench(int argc, char **argv);
int cmd_suite(int argc, char **argv);
int cmd_render(int argc, char **argv);

/* The cells marked ch in a .map file, in row order (*out malloc'd, or NULL
 * when none): the grid keeps costs, not glyphs. 0, or -1 on a read or
 * memory failure. */
int cli_find_glyphs(const char *path, char ch, cairn_point **out, size_t *n);

/* The units of one size in a run's summary (cairn march). */
typedef struct cli_size_tally {
  int32_t size;
  uint32_t units, arrived;
  double walked; /* cells each walked, on average */
} cli_size_tally;

/* The ticks after which 50 %, 90 % and all of a run's agents had arrived
 * (-1: not yet), for cairn horde, march and crowd-bench (cli_crowd.c). */
typedef struct cli_arrivals {
  long t50, t90, t100;
} cli_arrivals;
/* None yet. */
void cli_arrivals_init(cli_arrivals *a);
/* Notes tick t for each share that `arrived` of `agents` first reaches. */
void cli_arrivals_note(cli_arrivals *a, long t, double arrived, double agents);
/* ,"t50":T,"t90":T,"t100":T, each null when it never came. */
void cli_arrivals_json(const cli_arrivals *a);
/* "50 % after tick T, 90 % after tick T, all after tick T" ("never"). */
void cli_arrivals_text(const cli_arrivals *a);

/* A crowd run's summary (cairn horde and cairn march; cli_crowd.c). */
typedef struct cli_crowd_summary {
  long agents, ticks;
  uint32_t arrived, unreachable;
  uint32_t stuck; /* stalled or unreachable at the end */
  uint64_t in_wall, lost, overlaps, agent_ticks, hash, max_tick_nodes;
  int wait_p99;
  double median_ms, p99_ms, updates_per_s;
  double plan_ms; /* the crowd's planning time (cairn_crowd_stats.plan_ns) */
  /* plan_ms after the first tick that left the queue empty: the orders'
   * own paths and fields, before any repath */
  double orders_plan_ms;
  /* in (cairn march): the hierarchy's build time, printed when >= 0 */
  double hierarchy_ms;
  /* the ticks begun with no agent arrived (every one still on the field)
   * and their median time (0 when there were none) */
  long full_ticks;
  double full_median_ms;
  /* when the agents arrived (a loaded crowd's, from its own count) */
  cli_arrivals arrive;
  /* in (cairn horde): the most agents on the field within 3 cells of one
   * gate after a tick (its cells' box, 3 cells wider each way); printed
   * when >= 0 */
  long max_queue;
  /* in (cairn horde): arrivals by gate, printed when n_gates > 0: each
   * gate's first cell and its arrivals */
  size_t n_gates;
  const cairn_point *gate_first;
  const uint32_t *by_gate;
  /* in (cairn march --path-cache): the crowd's path cache, whose figures
   * are printed when set */
  const cairn_path_cache *path_cache;
  /* in: the units by size, printed when n_sizes > 0 */
  size_t n_sizes;
  const cli_size_tally *by_size;
  struct cli_replay *replay; /* in: records the ticks when set (replay.h) */
  struct cli_png_movie *movie; /* in: draws the ticks when set (cli_png.h) */
  /* in: when set, called after each tick t (1, 2, ...) with the crowd's
   * figures; an error ends the run with that status (printed already) */
  cairn_status (*after_tick)(void *user, long t, const cairn_crowd_stats *st);
  void *user;
} cli_crowd_summary;
/* cairn_crowd_create; a refusal is printed as "CMD: cannot make the crowd:
 * STATUS: DETAIL", the detail from cairn_crowd_check. */
cairn_status cli_crowd_create(const char *cmd, const cairn_grid *g,
                              const cairn_crowd_opts *o, cairn_crowd **out);
/* Prints "CMD: STATUS: DETAIL" for a call on c that answered st, the
 * detail from cairn_crowd_error (left out when c is NULL or has none). */
void cli_crowd_error(const char *cmd, const cairn_crowd *c, cairn_status st);
/* Ticks c until no agent moves or waits for a path, or `ticks` are done,
 * adding up the summary (agents set by the caller). */
cairn_status cli_crowd_run(cairn_crowd *c, long ticks, cli_crowd_summary *sum);
/* Prints the summary as text or one JSON object; queue adds the path
 * queue's figures, n_gates > 0 the horde's (arrivals by gate, the tick
 * time while every agent was on the field). */
void cli_crowd_print(const cli_crowd_summary *s, bool json, bool queue);

#endif
