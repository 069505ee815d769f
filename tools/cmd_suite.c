/* cairn suite: every .scen file under a folder (recursively, in sorted
 * order) with every chosen algorithm, each path validated as cairn scen
 * does; a Markdown table (or JSON lines), and with --report a report file
 * with plots beside it. */
#define _POSIX_C_SOURCE 200809L /* opendir, stat, isatty, fileno */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "scen_run.h"
#include "suite_report.h"

#define SUITE_MAX_DEPTH 16 /* folders deeper than this are not searched */

typedef struct suite_args {
  const char *dir, *report;
  bool json;
  scen_algo algos[ALGO_COUNT];
  int n_algos;
  long threads; /* the hierarchies' builds; 0 = every core */
  /* --save-hierarchy DIR, --load-hierarchy DIR: a file a map, DIR/MAP.hpa */
  const char *save_dir, *load_dir;
} suite_args;

/* "astar,hpa": each name once. */
static bool parse_algos(const char *text, suite_args *a) {
  a->n_algos = 0;
  char name[32];
  for (const char *s = text;;) {
    size_t len = strcspn(s, ",");
    int k = -1;
    if (len < sizeof name) {
      memcpy(name, s, len);
      name[len] = '\0';
      k = scen_algo_parse(name);
    }
    for (int j = 0; k >= 0 && j < a->n_algos; j++)
      if (a->algos[j] == (scen_algo)k) k = -2;
    if (k < 0) {
      cli_error("--algo: '%.*s' is %s", (int)len, s,
                k == -2 ? "given twice" : "not astar, dijkstra, hpa, jps, jps+ or auto");
      return false;
    }
    a->algos[a->n_algos++] = (scen_algo)k;
    if (!s[len]) return true;
    s += len + 1;
  }
}

static int parse_args(int argc, char **argv, suite_args *a) {
  memset(a, 0, sizeof *a);
  a->algos[0] = ALGO_ASTAR;
  a->algos[1] = ALGO_HPA;
  a->n_algos = 2;
  cli_args c;
  cli_args_init(&c, argc, argv);
  while (cli_next(&c)) {
    const char *v;
    if (!c.opt) {
      if (a->dir) {
        cli_error("suite takes one folder, got '%s' too", c.val);
        return EXIT_USAGE;
      }
      a->dir = c.val;
    } else if (cli_is(&c, "--json")) {
      a->json = true;
    } else if (!cli_is(&c, "--algo") && !cli_is(&c, "--report") &&
               !cli_is(&c, "--threads") && !cli_is(&c, "--save-hierarchy") &&
               !cli_is(&c, "--load-hierarchy")) {
      cli_error("suite: unknown option '%s'", c.opt);
      return EXIT_USAGE;
    } else if (!(v = cli_value(&c))) {
      return EXIT_USAGE;
    } else if (cli_is(&c, "--report")) {
      a->report = v;
    } else if (cli_is(&c, "--save-hierarchy")) {
      a->save_dir = v;
    } else if (cli_is(&c, "--load-hierarchy")) {
      a->load_dir = v;
    } else if (cli_is(&c, "--threads")) {
      if (!cli_parse_int("--threads", v, 1, CAIRN_JOBS_MAX_WORKERS, &a->threads))
        return EXIT_USAGE;
    } else if (!parse_algos(v, a)) {
      return EXIT_USAGE;
    }
  }
  if (!a->dir) {
    cli_error("suite needs a folder of .scen files");
    return EXIT_USAGE;
  }
  bool hpa = false;
  for (int k = 0; k < a->n_algos; k++) hpa |= a->algos[k] == ALGO_HPA;
  if ((a->save_dir || a->load_dir) && !hpa) {
    cli_error("suite: --save-hierarchy and --load-hierarchy need hpa among --algo");
    return EXIT_USAGE;
  }
  return EXIT_DONE;
}

typedef struct path_list {
  char **paths;
  size_t n, cap;
} path_list;

static bool list_add(path_list *l, const char *path) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    char **p = realloc(l->paths, cap * sizeof *p);
    if (!p) return false;
    l->paths = p;
    l->cap = cap;
  }
  size_t len = strlen(path) + 1;
  if (!(l->paths[l->n] = malloc(len))) return false;
  memcpy(l->paths[l->n++], path, len);
  return true;
}

static void list_free(path_list *l) {
  for (size_t i = 0; i < l->n; i++) free(l->paths[i]);
  free(l->paths);
}

/* "/" between a folder and a name, unless the folder already ends in one. */
static const char *separator(const char *dir) {
  size_t n = strlen(dir);
  return n && dir[n - 1] == '/' ? "" : "/";
}

static bool is_scen(const char *name) {
  size_t n = strlen(name);
  return n > 5 && strcmp(name + n - 5, ".scen") == 0;
}

/* Adds every .scen file under dir. Exit code. */
static int find_scens(const char *dir, int depth, path_list *out) {
  DIR *d = opendir(dir);
  if (!d) {
    cli_error("%s: cannot open the folder", dir);
    return EXIT_BADINPUT;
  }
  int rc = EXIT_DONE;
  struct dirent *e;
  while (rc == EXIT_DONE && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue; /* ., .. and hidden entries */
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    char *path = malloc(len);
    if (!path) {
      rc = EXIT_RUNTIME;
      break;
    }
    snprintf(path, len, "%s%s%s", dir, separator(dir), e->d_name);
    struct stat st;
    if (stat(path, &st) != 0) {
      /* a dangling link: not a scenario file we could read anyway */
    } else if (S_ISDIR(st.st_mode)) {
      if (depth < SUITE_MAX_DEPTH) rc = find_scens(path, depth + 1, out);
    } else if (S_ISREG(st.st_mode) && is_scen(e->d_name) && !list_add(out, path)) {
      rc = EXIT_RUNTIME;
    }
    free(path);
  }
  closedir(d);
  if (rc == EXIT_RUNTIME) cli_error("out of memory");
  return rc;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A progress bar on stderr, redrawn in place; only on a terminal, so logs
 * (CI, files, pipes) get no control characters. */
typedef struct progress {
  bool on;
  size_t done, total;
} progress;

static void progress_show(const progress *p, const char *file, scen_algo algo) {
  if (!p->on || !p->total) return;
  int filled = (int)(30 * p->done / p->total);
  fprintf(stderr, "\r[%.*s%*s] %zu/%zu rows  %-8s %-40.40s", filled,
          "##############################", 30 - filled, "", p->done, p->total,
          scen_algo_names[algo], file);
  fflush(stderr);
}

static void progress_end(const progress *p) {
  if (p->on) fprintf(stderr, "\r%*s\r", 100, "");
}

/* The rows of every file, for the bar's total (a cheap line count). */
static size_t count_rows(const path_list *l, int n_algos) {
  size_t n = 0;
  for (size_t i = 0; i < l->n; i++) {
    FILE *f = fopen(l->paths[i], "rb");
    if (!f) continue;
    int ch;
    while ((ch = getc(f)) != EOF) n += ch == '\n';
    fclose(f);
  }
  return n * (size_t)n_algos;
}

/* Keeps a finished run: its totals, its solved rows for the plots, and its
 * JSON line when asked. */
static int keep_run(const suite_args *a, suite_data *d, const scen_config *cfg,
                    const scen_file *f, const cairn_hpa *hpa, const scen_row *rows,
                    const scen_totals *t) {
  const char *rel = f->path + strlen(a->dir) + strlen(separator(a->dir));
  suite_result r = {(char *)rel,
                    (char *)cairn_scen_map_name(f->sc), cfg->algo, *t, 0};
  if (hpa) {
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(hpa, &hs);
    r.preprocess_ms = hs.build_ms;
  }
  if (!suite_add_result(d, &r)) return EXIT_RUNTIME;
  for (size_t i = 0; i < cairn_scen_count(f->sc); i++) {
    if (rows[i].kind != ROW_SOLVED) continue;
    suite_point p = {(float)cairn_scen_get(f->sc, i)->optimal, (float)rows[i].us,
                     (float)rows[i].subopt_pct, cfg->algo};
    if (!suite_add_point(d, &p)) return EXIT_RUNTIME;
  }
  if (a->json) {
    scen_print_json(stdout, cfg, f->g, f->sc, t, hpa);
    printf(",\"file\":\"%s\"}\n", r.file);
  }
  return EXIT_DONE;
}

/* DIR/MAP.hpa for f's map (MAP its file name), into a new string. */
static char *hierarchy_path(const char *dir, const scen_file *f) {
  const char *slash = strrchr(f->map_path, '/');
  const char *name = slash ? slash + 1 : f->map_path;
  size_t len = strlen(dir) + strlen(name) + 6;
  char *path = malloc(len);
  if (path) snprintf(path, len, "%s%s%s.hpa", dir, separator(dir), name);
  return path;
}

/* One file with one algorithm; *failed set when its paths fail. */
static int run_one(const suite_args *a, suite_data *d, const scen_file *f,
                   scen_algo algo, bool *failed) {
  scen_config cfg = {algo, 1.0, 0, -1, 0, -1, false, (int)a->threads, NULL, NULL, 1, -1};
  char *load = NULL, *save = NULL;
  if (algo == ALGO_HPA && a->load_dir) cfg.load_hpa = load = hierarchy_path(a->load_dir, f);
  if (algo == ALGO_HPA && a->save_dir) cfg.save_hpa = save = hierarchy_path(a->save_dir, f);
  size_t n = cairn_scen_count(f->sc);
  scen_row *rows = calloc(n ? n : 1, sizeof *rows);
  double *scratch = calloc(n ? n : 1, sizeof *scratch);
  cairn_hpa *hpa = NULL;
  int rc = rows && scratch && (load || !a->load_dir || algo != ALGO_HPA) &&
                   (save || !a->save_dir || algo != ALGO_HPA)
               ? EXIT_DONE
               : EXIT_RUNTIME;
  if (rc != EXIT_DONE) cli_error("out of memory");
  if (rc == EXIT_DONE) rc = scen_build_hpa(&cfg, f, &hpa);
  /* auto's choices made here, so that the report names them */
  if (rc == EXIT_DONE) rc = scen_resolve_auto(&cfg, f);
  if (rc == EXIT_DONE) rc = scen_run_rows(&cfg, f, hpa, rows);
  if (rc == EXIT_DONE) {
    scen_totals t = scen_sum_rows(f->sc, rows, 0, UINT32_MAX, scratch);
    *failed |= scen_exit_code(&cfg, &t) != EXIT_DONE;
    rc = keep_run(a, d, &cfg, f, hpa, rows, &t);
    if (rc != EXIT_DONE) cli_error("out of memory");
  }
  cairn_hpa_destroy(hpa);
  free(rows);
  free(scratch);
  free(load);
  free(save);
  return rc;
}

static int run_all(const suite_args *a, const path_list *l, suite_data *d,
                   bool *failed) {
  progress bar = {isatty(fileno(stderr)) != 0, 0, 0};
  if (bar.on) bar.total = count_rows(l, a->n_algos);
  int rc = EXIT_DONE;
  for (size_t i = 0; i < l->n && rc == EXIT_DONE; i++) {
    scen_file f;
    rc = scen_file_load(l->paths[i], NULL, &f);
    for (int k = 0; k < a->n_algos && rc == EXIT_DONE; k++) {
      progress_show(&bar, l->paths[i], a->algos[k]);
      rc = run_one(a, d, &f, a->algos[k], failed);
      bar.done += cairn_scen_count(f.sc);
    }
    scen_file_free(&f);
  }
  progress_end(&bar);
  return rc;
}

int cmd_suite(int argc, char **argv) {
  suite_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != EXIT_DONE) return rc;
  path_list l = {0};
  suite_data d = {0};
  d.dir = a.dir;
  d.n_algos = a.n_algos;
  memcpy(d.algos, a.algos, sizeof a.algos);
  bool failed = false;
  rc = find_scens(a.dir, 0, &l);
  if (rc == EXIT_DONE && !l.n) {
    cli_error("%s: no .scen files under it", a.dir);
    rc = EXIT_BADINPUT;
  }
  if (rc == EXIT_DONE) {
    qsort(l.paths, l.n, sizeof *l.paths, cmp_str);
    rc = run_all(&a, &l, &d, &failed);
  }
  if (rc == EXIT_DONE && a.report) rc = suite_write_report(&d, a.report);
  if (rc == EXIT_DONE && !a.json) {
    if (a.report)
      printf("%zu files, %zu runs, report in %s\n", l.n, d.n_results, a.report);
    else
      suite_print_table(stdout, &d);
  }
  if (rc == EXIT_DONE && failed) rc = EXIT_RUNTIME;
  suite_data_free(&d);
  list_free(&l);
  return rc;
}
