/* Running a Moving AI scenario file with one algorithm: shared by cairn scen
 * (one file) and cairn suite (every file under a folder). Only public
 * headers. */
#ifndef CAIRN_SCEN_RUN_H
#define CAIRN_SCEN_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "cairn_core.h"
#include "cairn_hierarchy.h"

typedef enum scen_algo { ALGO_ASTAR, ALGO_DIJKSTRA, ALGO_HPA, ALGO_COUNT } scen_algo;
extern const char *const scen_algo_names[ALGO_COUNT];
/* The algorithm named `name`, or -1. */
int scen_algo_parse(const char *name);

/* How to search: the options of cairn scen. */
typedef struct scen_config {
  scen_algo algo;
  double weight; /* 1 = exact (A*, Dijkstra) */
  long cluster, nearby, levels;
  long landmarks; /* -1 = the default, 0 = none */
  bool no_smooth;
  int threads; /* the hierarchy's build; 0 = every core */
} scen_config;

/* One row's outcome. */
typedef struct scen_row {
  double cost, us, subopt_pct;
  uint64_t expanded;
  enum { ROW_SKIPPED, ROW_SOLVED, ROW_UNREACHABLE, ROW_INVALID } kind;
  bool mismatch;
} scen_row;

typedef struct scen_totals {
  size_t scenarios, solved, skipped, unreachable, invalid, mismatch, searched;
  double sum_subopt, max_subopt, sum_expanded, total_us, median_us, p99_us;
} scen_totals;

/* A loaded scenario file with its map. */
typedef struct scen_file {
  const char *path;
  cairn_scen *sc;
  char *map_path;
  cairn_grid *g;
} scen_file;

/* Loads `path` and its map (`map`, or the one it names, beside it or in
 * ../maps from it) and checks the rows against the map. Returns an exit
 * code, the error printed; f is freed by scen_file_free either way. */
int scen_file_load(const char *path, const char *map, scen_file *f);
void scen_file_free(scen_file *f);

/* Builds the hierarchy for ALGO_HPA (*out NULL for the others). Exit code. */
int scen_build_hpa(const scen_config *c, const scen_file *f, cairn_hpa **out);

/* Runs every row into rows[cairn_scen_count]; validates each path on its
 * own. Exit code (EXIT_RUNTIME when a search fails). */
int scen_run_rows(const scen_config *c, const scen_file *f, const cairn_hpa *hpa,
                  scen_row *rows);

/* Totals of the rows whose bucket is in [b0, b1], time percentiles
 * included (scratch holds cairn_scen_count doubles). */
scen_totals scen_sum_rows(const cairn_scen *sc, const scen_row *rows, uint32_t b0,
                          uint32_t b1, double *scratch);

/* The mean suboptimality (solved rows) and mean expansions (searched rows). */
double scen_mean_subopt(const scen_totals *t);
double scen_mean_expanded(const scen_totals *t);

/* The JSON object of cairn scen --json, without its closing brace, so a
 * caller may add fields. */
void scen_print_json(FILE *out, const scen_config *c, const cairn_scen *sc,
                     const scen_totals *t, const cairn_hpa *hpa);

/* Exit code for a finished file: invalid paths, unreachable rows, and with
 * an exact search missed optima are failures. */
int scen_exit_code(const scen_config *c, const scen_totals *t);

#endif
