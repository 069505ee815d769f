/* cairn suite's results and how they are written: the Markdown table, the
 * JSON lines, the per-row CSV and the plots beside the report. */
#ifndef CAIRN_SUITE_REPORT_H
#define CAIRN_SUITE_REPORT_H

#include <stdio.h>

#include "scen_run.h"

/* One scenario file run with one algorithm. */
typedef struct suite_result {
  char *file; /* the .scen path, relative to the suite's folder */
  char *map;  /* the map the file names */
  scen_algo algo;
  scen_totals t;
  double preprocess_ms; /* the HPA* build; 0 for the others */
} suite_result;

/* One solved row, for the plots. */
typedef struct suite_point {
  float length; /* the optimal length */
  float us;     /* the query's time */
  float subopt_pct;
  scen_algo algo;
} suite_point;

typedef struct suite_data {
  const char *dir;
  scen_algo algos[ALGO_COUNT];
  int n_algos;
  suite_result *results;
  size_t n_results, cap_results;
  suite_point *points;
  size_t n_points, cap_points;
} suite_data;

/* Appends (copying the strings); false when out of memory. */
bool suite_add_result(suite_data *d, const suite_result *r);
bool suite_add_point(suite_data *d, const suite_point *p);
void suite_data_free(suite_data *d);

/* The Markdown table, one row per file and algorithm. */
void suite_print_table(FILE *out, const suite_data *d);

/* Writes the report at `path` and beside it STEM-rows.csv (every solved
 * row) and the plots STEM-time.png and STEM-subopt.png (suite_plot.h),
 * linked from it (STEM is the report's path without ".md"). Exit code, the
 * error printed. */
int suite_write_report(const suite_data *d, const char *path);

#endif
