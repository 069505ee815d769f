/* cairn suite's table, report and plot data (see suite_report.h). */
#include "suite_report.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "suite_plot.h"

static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

/* Makes room for one more element of `size` bytes in *items. */
static bool grow(void **items, size_t n, size_t *cap, size_t size) {
  if (n < *cap) return true;
  size_t c = *cap ? 2 * *cap : 64;
  void *p = realloc(*items, c * size);
  if (!p) return false;
  *items = p;
  *cap = c;
  return true;
}

bool suite_add_result(suite_data *d, const suite_result *r) {
  if (!grow((void **)&d->results, d->n_results, &d->cap_results, sizeof *r))
    return false;
  suite_result *k = &d->results[d->n_results];
  *k = *r;
  k->file = copy_string(r->file);
  k->map = copy_string(r->map);
  if (!k->file || !k->map) {
    free(k->file);
    free(k->map);
    return false;
  }
  d->n_results++;
  return true;
}

bool suite_add_point(suite_data *d, const suite_point *p) {
  if (!grow((void **)&d->points, d->n_points, &d->cap_points, sizeof *p)) return false;
  d->points[d->n_points++] = *p;
  return true;
}

void suite_data_free(suite_data *d) {
  for (size_t i = 0; i < d->n_results; i++) {
    free(d->results[i].file);
    free(d->results[i].map);
  }
  free(d->results);
  free(d->points);
  memset(d, 0, sizeof *d);
}

void suite_print_table(FILE *out, const suite_data *d) {
  fprintf(out, "| file | map | algo | scenarios | invalid | mismatch | mean subopt %% "
               "| max subopt %% | median us | p99 us | mean expanded | preprocess ms |\n");
  fprintf(out, "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
  for (size_t i = 0; i < d->n_results; i++) {
    const suite_result *r = &d->results[i];
    const scen_totals *t = &r->t;
    fprintf(out, "| %s | %s | %s | %zu | %zu | %zu | %.4f | %.4f | %.1f | %.1f | %.1f | %.3f |\n",
            r->file, r->map, scen_algo_names[r->algo], t->scenarios, t->invalid,
            t->mismatch, scen_mean_subopt(t), t->max_subopt, t->median_us, t->p99_us,
            scen_mean_expanded(t), r->preprocess_ms);
  }
}

/* path without a trailing ".md", then suffix (malloc'd). */
static char *beside(const char *path, const char *suffix) {
  size_t n = strlen(path);
  if (n > 3 && strcmp(path + n - 3, ".md") == 0) n -= 3;
  char *s = malloc(n + strlen(suffix) + 1);
  if (s) snprintf(s, n + strlen(suffix) + 1, "%.*s%s", (int)n, path, suffix);
  return s;
}

/* The last part of a path (links in the report are relative to it). */
static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static bool write_points_csv(const suite_data *d, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fprintf(f, "algo,optimal,us,subopt_pct\n");
  for (size_t i = 0; i < d->n_points; i++) {
    const suite_point *p = &d->points[i];
    fprintf(f, "%s,%.4f,%.3f,%.6f\n", scen_algo_names[p->algo], p->length, p->us,
            p->subopt_pct);
  }
  return fclose(f) == 0;
}

static bool write_markdown(const suite_data *d, const char *path, const char *csv,
                           char *const plots[2]) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  size_t files = d->n_algos ? d->n_results / (size_t)d->n_algos : 0;
  fprintf(f, "# cairn suite: %s\n\n", d->dir);
  fprintf(f, "%zu scenario files, algorithms:", files);
  for (int k = 0; k < d->n_algos; k++)
    fprintf(f, "%s %s", k ? "," : "", scen_algo_names[d->algos[k]]);
  fprintf(f, ". Suboptimality is of the validated path against the file's optimal "
             "length; times are of the query alone (median and nearest-rank p99 "
             "over the searched rows); preprocessing is the HPA* build.\n\n");
  suite_print_table(f, d);
  fprintf(f, "\n![query time against path length](%s)\n\n", base_name(plots[0]));
  fprintf(f, "![suboptimality against path length](%s)\n\n", base_name(plots[1]));
  fprintf(f, "Every solved row (algorithm, optimal length, query time, "
             "suboptimality): [%s](%s)\n", base_name(csv), base_name(csv));
  return fclose(f) == 0;
}

int suite_write_report(const suite_data *d, const char *path) {
  char *csv = beside(path, "-rows.csv");
  char *plots[2] = {beside(path, "-time.png"), beside(path, "-subopt.png")};
  int rc = EXIT_DONE;
  if (!csv || !plots[0] || !plots[1]) {
    cli_error("out of memory");
    rc = EXIT_RUNTIME;
  } else if (!write_points_csv(d, csv)) {
    cli_error("%s: cannot write the plot data", csv);
    rc = EXIT_RUNTIME;
  } else if ((rc = suite_write_plots(d, plots[0], plots[1])) != EXIT_DONE) {
    /* the error is printed */
  } else if (!write_markdown(d, path, csv, plots)) {
    cli_error("%s: cannot write the report", path);
    rc = EXIT_RUNTIME;
  }
  free(csv);
  free(plots[0]);
  free(plots[1]);
  return rc;
}
