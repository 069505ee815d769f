/* Running a Moving AI scenario file with one algorithm: shared by cairn scen
 * (one file), cairn suite (every file under a folder), the Moving AI tests
 * of the core, hierarchy and flow-field modules and the benchmarks, through
 * the static library cairn_scen_run (tools/CMakeLists.txt). Only public
 * headers. Exit codes are cli.h's: EXIT_DONE (0), EXIT_RUNTIME,
 * EXIT_BADINPUT. */
#ifndef CAIRN_SCEN_RUN_H
#define CAIRN_SCEN_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "cairn/core.h"
#include "cairn/hierarchy.h"

typedef enum scen_algo {
  ALGO_ASTAR,
  ALGO_DIJKSTRA,
  ALGO_HPA,
  ALGO_JPS,
  ALGO_JPS_PLUS, /* with the map's jump tables, built before the rows */
  ALGO_AUTO,     /* the fastest exact one for the map: scen_auto_choice */
  ALGO_COUNT
} scen_algo;
extern const char *const scen_algo_names[ALGO_COUNT];
/* The algorithm named `name`, or -1. */
int scen_algo_parse(const char *name);

/* What --algo auto runs on grid g with c's options: jump point search
 * with jump tables on a map of one terrain cost, for units of one cell at
 * weight 1; A* otherwise; with the tables scen_resolve_auto sets
 * (docs/PERFORMANCE.md, "Choosing the exact method"). */
struct scen_config;
scen_algo scen_auto_choice(const struct scen_config *c, const cairn_grid *g);

/* How to search: the options of cairn scen. */
typedef struct scen_config {
  scen_algo algo;
  double weight; /* 1 = exact (A*, Dijkstra) */
  long cluster, nearby, levels;
  long landmarks; /* -1 = the default, 0 = none */
  bool no_smooth;
  int threads; /* the hierarchy's build; 0 = every core */
  /* ALGO_HPA: the file the hierarchy is loaded from instead of built, and
   * the one it is saved to once built (NULL: neither) */
  const char *load_hpa, *save_hpa;
  /* the unit's size (cairn_search_opts.size; 0 reads as 1). Above 1 a row
   * whose start or goal the unit does not fit is skipped, paths are
   * checked on the eroded grid (cli_eroded), the file's optimal lengths
   * are not compared, and an unreachable row is an answer, not a failure */
  int size;
  /* a dead-end table for A*, jps and jps+ (cairn/dead_ends.h): 1 on, 0
   * off, -1 the default (off; --algo auto: scen_resolve_auto) */
  int dead_ends;
} scen_config;

/* One row's outcome. ROW_SKIPPED: its start or goal is blocked (never
 * searched); ROW_LEFT_OUT: not searched because a stride passed it over
 * (scen_run_opts), counted apart from the solved and the skipped rows. */
typedef struct scen_row {
  double cost, us, subopt_pct;
  uint64_t expanded;
  enum { ROW_SKIPPED, ROW_SOLVED, ROW_UNREACHABLE, ROW_INVALID, ROW_LEFT_OUT } kind;
  bool mismatch; /* solved, but not within scen_cost_matches of the optimum */
} scen_row;

/* scenarios counts every row of the range; each is one of solved, skipped,
 * unreachable, invalid or left_out. */
typedef struct scen_totals {
  size_t scenarios, solved, skipped, unreachable, invalid, mismatch, searched;
  double sum_subopt, max_subopt, sum_expanded, total_us, median_us, p99_us;
  double sum_cost; /* of the solved rows */
  size_t left_out;
} scen_totals;

/* The landmark and dead-end tables of a file's map (scen_tables.c). */
typedef struct scen_tables scen_tables;

/* A loaded scenario file with its map. */
typedef struct scen_file {
  const char *path;
  cairn_scen *sc;
  char *map_path;
  cairn_grid *g;
  bool quiet;       /* failures go to error only, not to stderr */
  char error[1024]; /* the last failure's message ("" if none) */
  /* the tables built for f->g so far (scen_file_landmarks,
   * scen_file_dead_ends), kept until scen_file_free or until f->g changes;
   * made by scen_file_open */
  scen_tables *tables;
} scen_file;

/* Loads `path` and its map (`map`, or the one it names, beside it or in
 * ../maps from it) and checks the rows against the map. Returns an exit
 * code, the error printed; f is freed by scen_file_free either way. */
int scen_file_load(const char *path, const char *map, scen_file *f);
/* The first half of scen_file_load: the scenario file and the path of its
 * map (f->g stays NULL), so a caller may read the map later, or more than
 * once. quiet: keep the error in f->error instead of printing it. */
int scen_file_open(const char *path, const char *map, bool quiet, scen_file *f);
/* The second half: reads f's map into a new grid (*out, the caller's to
 * destroy; NULL on failure) and checks f's rows against it. Exit code. */
int scen_file_read_map(scen_file *f, cairn_grid **out);
void scen_file_free(scen_file *f);

/* The table of `count` landmarks (cli_landmarks) or the dead-end table of
 * f->g, built on first need and kept in f, so that --algo auto's pilots,
 * the rows and the algorithms of a suite share one (a landmark table of
 * another count replaces the one kept). f owns them: valid until the next
 * call for another count, a change of f->g or scen_file_free. NULL when
 * out of memory (said). Not for several threads at once. */
const cairn_landmarks *scen_file_landmarks(const scen_file *f, long count);
const cairn_dead_ends *scen_file_dead_ends(const scen_file *f);
scen_tables *scen_tables_create(void);
void scen_tables_free(scen_tables *t);

/* Jump points the median row of plain jump point search must expand for
 * --algo auto to take a landmark table (docs/PERFORMANCE.md, "Choosing
 * the exact method"). */
enum { SCEN_AUTO_LM_EXPANDED = 20 };

/* Jump points or nodes the pilot's searches of --algo auto's dead-end
 * choice expand at most, and the share of them, in percent, the table
 * must remove for auto to take it (docs/PERFORMANCE.md, "Choosing the
 * exact method"). */
enum { SCEN_AUTO_DE_EXPANDED = 1 << 14, SCEN_AUTO_DE_SAVED_PCT = 25 };

/* Makes c's choices for --algo auto over f where it leaves them to auto
 * (else leaves c as it is), each from a pilot over rows of f spread
 * evenly (scen_auto.c):
 * - landmarks (without --landmarks): 0 at a weight other than 1,
 *   CLI_AUTO_LANDMARKS where auto runs A*, and where it runs jump point
 *   search CLI_AUTO_LANDMARKS when at least half of up to 4096 rows
 *   expand SCEN_AUTO_LM_EXPANDED jump points without a table (a search
 *   each, stopped there), else 0: on short queries the table's reads (its
 *   rows at the start, one a jump point) cost more than the expansions
 *   its bound saves;
 * - the dead-end table (without --dead-ends): on when auto's method, over
 *   up to 256 rows, expands at least SCEN_AUTO_DE_SAVED_PCT percent fewer
 *   nodes with it than without; else off: where it skips less, its checks
 *   cost more than they save.
 * Exit code (EXIT_RUNTIME, said, when out of memory). scen_run_rows does
 * it too; a caller that reports the choices does it first. */
int scen_resolve_auto(scen_config *c, const scen_file *f);

/* The published lengths' precision: a cost within this of `optimal` meets
 * it (|cost - optimal| <= 1e-5 optimal + 0.006 holds for an exact search on
 * every Moving AI family). */
double scen_cost_tolerance(double optimal);
bool scen_cost_matches(double cost, double optimal);
/* Whether row e starts or ends on a blocked cell of g (such rows are
 * skipped, never searched: the data's README lists them). */
bool scen_row_blocked(const cairn_grid *g, const cairn_scen_entry *e);

/* Builds the hierarchy for ALGO_HPA, or loads it from c->load_hpa, and
 * saves it to c->save_hpa (*out NULL for the others). Exit code: a file
 * that cannot be loaded is EXIT_BADINPUT, one that cannot be saved
 * EXIT_RUNTIME, with a message naming it. */
int scen_build_hpa(const scen_config *c, const scen_file *f, cairn_hpa **out);

/* Runs every row into rows[cairn_scen_count]; validates each path on its
 * own. Exit code (EXIT_RUNTIME when a search fails). */
int scen_run_rows(const scen_config *c, const scen_file *f, const cairn_hpa *hpa,
                  scen_row *rows);

/* Called for each searched row (not skipped or left out) once it is
 * judged: res is the search's answer (res->path lives only during the
 * call), worker the worker that ran it (0 without jobs). Under jobs it may
 * run on several threads at once. */
typedef void (*scen_row_fn)(void *user, uint32_t worker, size_t index,
                            const cairn_result *res, const scen_row *row);

/* How scen_run_rows_with goes through the rows. */
typedef struct scen_run_opts {
  /* 0 or 1: every row; N > 1: only rows whose index is a multiple of N,
   * the others ROW_LEFT_OUT (a blocked row is ROW_SKIPPED at any index) */
  size_t stride;
  /* NULL: the rows in file order on the calling thread; else tasks of
   * SCEN_TASK_ROWS rows on its workers, one search context each */
  const cairn_jobs *jobs;
  scen_row_fn on_row; /* or NULL */
  void *user;         /* passed to on_row */
} scen_run_opts;
enum { SCEN_TASK_ROWS = 8 };

/* scen_run_rows with options (NULL: those of scen_run_rows). */
int scen_run_rows_with(const scen_config *c, const scen_file *f, const cairn_hpa *hpa,
                       const scen_run_opts *o, scen_row *rows);

/* Totals of the rows whose bucket is in [b0, b1], time percentiles
 * included (scratch holds cairn_scen_count doubles). */
scen_totals scen_sum_rows(const cairn_scen *sc, const scen_row *rows, uint32_t b0,
                          uint32_t b1, double *scratch);

/* Whether a unit of size k does not fit at row e's start or goal (at size
 * 1: scen_row_blocked). */
bool scen_row_unfit(const cairn_grid *g, const cairn_scen_entry *e, int k);

/* The mean suboptimality (solved rows) and mean expansions (searched rows). */
double scen_mean_subopt(const scen_totals *t);
double scen_mean_expanded(const scen_totals *t);

/* The JSON object of cairn scen --json, without its closing brace, so a
 * caller may add fields. */
void scen_print_json(FILE *out, const scen_config *c, const cairn_grid *g, const cairn_scen *sc,
                     const scen_totals *t, const cairn_hpa *hpa);

/* Exit code for a finished file: invalid paths, unreachable rows (at size
 * 1), and with an exact search missed optima are failures. */
int scen_exit_code(const scen_config *c, const scen_totals *t);

#endif
