/* cairn scen: run every scenario of a Moving AI .scen file, validate each
 * path independently of the search, compare with the optimal lengths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cairn_hierarchy.h"
#include "cli.h"

static const char *const value_opts[] = {"--map",     "--csv",    "--weight",
                                         "--algo",    "--cluster", "--nearby",
                                         "--levels",  "--landmarks", NULL};

typedef enum scen_algo { ALGO_ASTAR, ALGO_DIJKSTRA, ALGO_HPA } scen_algo;
static const char *const algo_names[] = {"astar", "dijkstra", "hpa"};

typedef struct scen_args {
  const char *scen, *map, *csv;
  bool json, no_smooth;
  scen_algo algo;
  double weight;
  long cluster, nearby, levels;
  long landmarks; /* -1 = the default, 0 = none */
} scen_args;

/* One row's outcome. */
typedef struct row {
  double cost, us, subopt_pct;
  uint64_t expanded;
  enum { ROW_SKIPPED, ROW_SOLVED, ROW_UNREACHABLE, ROW_INVALID } kind;
  bool mismatch;
} row;

static int parse_scen_args(int argc, char **argv, scen_args *p) {
  memset(p, 0, sizeof *p);
  p->weight = 1.0;
  p->cluster = 0;
  p->nearby = -1;
  p->landmarks = -1;
  cli_args a;
  cli_args_init(&a, argc, argv);
  while (cli_next(&a)) {
    const char *v;
    if (!a.opt) {
      if (p->scen) {
        cli_error("scen takes one scenario file, got '%s' too", a.val);
        return EXIT_USAGE;
      }
      p->scen = a.val;
    } else if (cli_is(&a, "--json")) {
      p->json = true;
    } else if (cli_is(&a, "--no-smooth")) {
      p->no_smooth = true;
    } else if (!cli_is_any(&a, value_opts)) {
      cli_error("scen: unknown option '%s'", a.opt);
      return EXIT_USAGE;
    } else if (!(v = cli_value(&a))) {
      return EXIT_USAGE;
    } else if (cli_is(&a, "--map")) {
      p->map = v;
    } else if (cli_is(&a, "--csv")) {
      p->csv = v;
    } else if (cli_is(&a, "--weight")) {
      if (!cli_parse_double("--weight", v, 1, 1000, &p->weight)) return EXIT_USAGE;
    } else if (cli_is(&a, "--algo")) {
      int k = 0;
      while (k < 3 && strcmp(v, algo_names[k]) != 0) k++;
      if (k == 3) {
        cli_error("--algo: '%s' is not astar, dijkstra or hpa", v);
        return EXIT_USAGE;
      }
      p->algo = (scen_algo)k;
    } else if (cli_is(&a, "--cluster")) {
      if (!cli_parse_int("--cluster", v, CAIRN_HPA_MIN_CLUSTER,
                         CAIRN_HPA_MAX_CLUSTER, &p->cluster))
        return EXIT_USAGE;
    } else if (cli_is(&a, "--nearby")) {
      if (!cli_parse_int("--nearby", v, 0, 1000000, &p->nearby)) return EXIT_USAGE;
    } else if (cli_is(&a, "--levels")) {
      if (!cli_parse_int("--levels", v, 2, 3, &p->levels)) return EXIT_USAGE;
    } else if (cli_is(&a, "--landmarks")) {
      if (!cli_parse_int("--landmarks", v, 0, CAIRN_GRAPH_MAX_LANDMARKS,
                         &p->landmarks))
        return EXIT_USAGE;
    }
  }
  if (!p->scen) {
    cli_error("scen needs a FILE.scen");
    return EXIT_USAGE;
  }
  if (p->algo != ALGO_HPA &&
      (p->cluster || p->nearby != -1 || p->no_smooth || p->levels ||
       p->landmarks != -1)) {
    cli_error("scen: --cluster, --nearby, --levels, --landmarks and --no-smooth "
              "need --algo hpa");
    return EXIT_USAGE;
  }
  if (p->algo == ALGO_HPA && p->weight != 1.0) {
    cli_error("scen: --weight does not apply to --algo hpa");
    return EXIT_USAGE;
  }
  return EXIT_DONE;
}

static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

static bool file_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL;
}

/* The map named by the scenario, beside the .scen file or in ../maps. */
static char *find_map(const char *scen_path, const char *map_name) {
  const char *slash = strrchr(scen_path, '/');
  size_t dir_len = slash ? (size_t)(slash - scen_path + 1) : 0;
  size_t cap = dir_len + strlen(map_name) + 16;
  char *path = malloc(cap);
  if (!path) return NULL;
  snprintf(path, cap, "%.*s%s", (int)dir_len, scen_path, map_name);
  if (file_exists(path)) return path;
  snprintf(path, cap, "%.*s../maps/%s", (int)dir_len, scen_path, map_name);
  if (file_exists(path)) return path;
  free(path);
  return NULL;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Nearest-rank percentile of n sorted values. */
static double percentile(const double *sorted, size_t n, double pct) {
  if (!n) return 0;
  size_t k = (size_t)ceil(pct / 100.0 * (double)n);
  return sorted[k ? k - 1 : 0];
}

/* One query with the chosen algorithm, in the common result form. */
typedef struct solver {
  cairn_search *s;
  cairn_search_opts o;
  const cairn_hpa *hpa;
  cairn_hpa_query *q;
  cairn_hpa_path_opts po;
} solver;

static cairn_status solve(solver *v, const cairn_grid *g, cairn_point a,
                          cairn_point b, cairn_result *res) {
  if (!v->hpa) return cairn_astar(v->s, g, a, b, &v->o, res);
  cairn_hpa_result hr;
  cairn_status st = cairn_hpa_find(v->q, v->hpa, a, b, &v->po, &hr);
  memset(res, 0, sizeof *res);
  res->status = st;
  res->cost = hr.cost;
  res->path = hr.path;
  res->path_len = hr.path_len;
  res->expanded = hr.expanded;
  return st;
}

static int run_rows(const scen_args *p, const cairn_grid *g,
                    const cairn_scen *sc, const cairn_hpa *hpa, row *rows) {
  solver v;
  memset(&v, 0, sizeof v);
  v.hpa = hpa;
  v.po = cairn_hpa_path_defaults();
  v.po.nearby = (int32_t)p->nearby;
  v.po.smooth = !p->no_smooth;
  cairn_search *s = NULL;
  if (cairn_search_create(NULL, &s) != CAIRN_OK ||
      cairn_search_reserve_grid(s, g) != CAIRN_OK ||
      cairn_hpa_query_create(NULL, &v.q) != CAIRN_OK ||
      (hpa && cairn_hpa_query_reserve(v.q, hpa) != CAIRN_OK)) {
    cli_error("out of memory");
    cairn_search_destroy(s);
    cairn_hpa_query_destroy(v.q);
    return EXIT_RUNTIME;
  }
  v.s = s;
  cairn_search_opts o = cairn_search_defaults();
  o.weight = p->weight;
  if (p->algo == ALGO_DIJKSTRA) o.heuristic = CAIRN_H_ZERO;
  v.o = o;
  for (size_t i = 0; i < cairn_scen_count(sc); i++) {
    const cairn_scen_entry *e = cairn_scen_get(sc, i);
    row *r = &rows[i];
    memset(r, 0, sizeof *r);
    if (!cairn_grid_cost(g, e->start.x, e->start.y) ||
        !cairn_grid_cost(g, e->goal.x, e->goal.y)) {
      r->kind = ROW_SKIPPED;
      continue;
    }
    cairn_result res;
    double t0 = cli_now_us();
    cairn_status st = solve(&v, g, e->start, e->goal, &res);
    r->us = cli_now_us() - t0;
    r->expanded = res.expanded;
    if (st < 0) {
      cli_error("%s:%u: search failed: %s", p->scen, e->line, cairn_status_str(st));
      cairn_search_destroy(s);
      cairn_hpa_query_destroy(v.q);
      return EXIT_RUNTIME;
    }
    if (st != CAIRN_OK) {
      r->kind = ROW_UNREACHABLE;
      continue;
    }
    cairn_path_check chk;
    cairn_grid_check_path(g, res.path, res.path_len, e->start, e->goal, 8, &chk);
    if (!chk.valid) {
      r->kind = ROW_INVALID;
      cli_error("%s:%u: invalid path: %s at point %zu", p->scen, e->line,
                chk.problem, chk.bad_index);
      continue;
    }
    r->kind = ROW_SOLVED;
    r->cost = chk.cost;
    r->mismatch = fabs(chk.cost - e->optimal) > 1e-5 * e->optimal + 0.006;
    r->subopt_pct = e->optimal > 0 ? (chk.cost - e->optimal) / e->optimal * 100 : 0;
    if (r->subopt_pct < 0) r->subopt_pct = 0; /* printed-precision noise */
  }
  cairn_search_destroy(s);
  cairn_hpa_query_destroy(v.q);
  return EXIT_DONE;
}

typedef struct totals {
  size_t scenarios, solved, skipped, unreachable, invalid, mismatch, searched;
  double sum_subopt, max_subopt, sum_expanded, total_us, median_us, p99_us;
} totals;

static void add_row(totals *t, const row *r) {
  t->scenarios++;
  if (r->kind == ROW_SKIPPED) {
    t->skipped++;
    return;
  }
  t->searched++;
  t->total_us += r->us;
  t->sum_expanded += (double)r->expanded;
  if (r->kind == ROW_UNREACHABLE) t->unreachable++;
  if (r->kind == ROW_INVALID) t->invalid++;
  if (r->kind != ROW_SOLVED) return;
  t->solved++;
  t->mismatch += r->mismatch;
  t->sum_subopt += r->subopt_pct;
  if (r->subopt_pct > t->max_subopt) t->max_subopt = r->subopt_pct;
}

/* Totals of rows [lo, hi) whose bucket is in [b0, b1]; fills the time
 * percentiles using `scratch`. */
static totals sum_rows(const cairn_scen *sc, const row *rows, uint32_t b0,
                       uint32_t b1, double *scratch) {
  totals t;
  memset(&t, 0, sizeof t);
  size_t n = 0;
  for (size_t i = 0; i < cairn_scen_count(sc); i++) {
    uint32_t b = cairn_scen_get(sc, i)->bucket;
    if (b < b0 || b > b1) continue;
    add_row(&t, &rows[i]);
    if (rows[i].kind != ROW_SKIPPED) scratch[n++] = rows[i].us;
  }
  qsort(scratch, n, sizeof *scratch, cmp_double);
  t.median_us = percentile(scratch, n, 50);
  t.p99_us = percentile(scratch, n, 99);
  return t;
}

static void print_table(const scen_args *p, const cairn_scen *sc,
                        const row *rows, double *scratch, const totals *all,
                        const char *map_path) {
  uint32_t max_bucket = 0;
  for (size_t i = 0; i < cairn_scen_count(sc); i++)
    if (cairn_scen_get(sc, i)->bucket > max_bucket)
      max_bucket = cairn_scen_get(sc, i)->bucket;
  uint32_t span = max_bucket / 16 + 1; /* at most 16 rows of buckets */
  printf("%s on %s (%s%s)\n", p->scen, map_path, algo_names[p->algo],
         p->weight != 1.0 ? ", weighted" : "");
  printf("%-11s %6s %6s %5s %5s %5s %9s %9s %10s %10s\n", "buckets", "rows",
         "solved", "skip", "inval", "mism", "subopt%", "max%", "median_us",
         "mean_exp");
  for (uint32_t b0 = 0; b0 <= max_bucket; b0 += span) {
    uint32_t b1 = b0 + span - 1;
    totals t = sum_rows(sc, rows, b0, b1, scratch);
    if (!t.scenarios) continue;
    char label[32];
    snprintf(label, sizeof label, "%u-%u", b0, b1 < max_bucket ? b1 : max_bucket);
    printf("%-11s %6zu %6zu %5zu %5zu %5zu %9.4f %9.4f %10.1f %10.0f\n", label,
           t.scenarios, t.solved, t.skipped, t.invalid, t.mismatch,
           t.solved ? t.sum_subopt / (double)t.solved : 0, t.max_subopt,
           t.median_us, t.searched ? t.sum_expanded / (double)t.searched : 0);
  }
  printf("%-11s %6zu %6zu %5zu %5zu %5zu %9.4f %9.4f %10.1f %10.0f\n", "total",
         all->scenarios, all->solved, all->skipped, all->invalid, all->mismatch,
         all->solved ? all->sum_subopt / (double)all->solved : 0, all->max_subopt,
         all->median_us, all->searched ? all->sum_expanded / (double)all->searched : 0);
  printf("unreachable %zu, p99 %.1f us, searches took %.1f ms in all\n",
         all->unreachable, all->p99_us, all->total_us / 1000);
  if (all->skipped) {
    printf("skipped (start or goal not passable), lines:");
    for (size_t i = 0; i < cairn_scen_count(sc); i++)
      if (rows[i].kind == ROW_SKIPPED) printf(" %u", cairn_scen_get(sc, i)->line);
    printf("\n");
  }
}

static void print_json(const scen_args *p, const cairn_scen *sc,
                       const totals *t, const cairn_hpa *hpa) {
  printf("{\"map\":\"%s\",\"algo\":\"%s\",\"weight\":%g,\"scenarios\":%zu,"
         "\"solved\":%zu,\"skipped\":%zu,\"unreachable\":%zu,\"invalid\":%zu,"
         "\"mismatch\":%zu,\"mean_subopt_pct\":%.6f,\"max_subopt_pct\":%.6f,"
         "\"median_us\":%.3f,\"p99_us\":%.3f,\"mean_expanded\":%.1f,"
         "\"total_ms\":%.3f",
         cairn_scen_map_name(sc), algo_names[p->algo], p->weight,
         t->scenarios, t->solved, t->skipped, t->unreachable, t->invalid,
         t->mismatch, t->solved ? t->sum_subopt / (double)t->solved : 0,
         t->max_subopt, t->median_us, t->p99_us,
         t->searched ? t->sum_expanded / (double)t->searched : 0, t->total_us / 1000);
  if (hpa) {
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(hpa, &hs);
    printf(",\"cluster\":%d,\"preprocess_ms\":%.3f,\"abstract_nodes\":%u,"
           "\"abstract_edges\":%zu,\"memory_bytes\":%zu,\"levels\":%d,"
           "\"level2_nodes\":%u,\"level2_edges\":%zu,\"landmarks\":%u",
           hs.cluster, hs.build_ms, hs.nodes, hs.edges, hs.memory_bytes, hs.levels,
           hs.nodes2, hs.edges2, hs.landmarks);
  }
  printf("}\n");
}

static bool write_csv(const char *path, const cairn_scen *sc, const row *rows) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fprintf(f, "id,bucket,sx,sy,gx,gy,optimal,cost,expanded,us,valid\n");
  for (size_t i = 0; i < cairn_scen_count(sc); i++) {
    const cairn_scen_entry *e = cairn_scen_get(sc, i);
    const row *r = &rows[i];
    fprintf(f, "%zu,%u,%d,%d,%d,%d,%.8f,", i, e->bucket, e->start.x, e->start.y,
            e->goal.x, e->goal.y, e->optimal);
    if (r->kind == ROW_SOLVED) fprintf(f, "%.8f", r->cost);
    fprintf(f, ",%llu,%.3f,%s\n", (unsigned long long)r->expanded, r->us,
            r->kind == ROW_SOLVED ? "1" : r->kind == ROW_SKIPPED ? "skipped" : "0");
  }
  return fclose(f) == 0;
}

int cmd_scen(int argc, char **argv) {
  scen_args p;
  int rc = parse_scen_args(argc, argv, &p);
  if (rc != EXIT_DONE) return rc;
  cairn_scen *sc = NULL;
  cairn_grid *g = NULL;
  char *map_path = NULL;
  row *rows = NULL;
  double *scratch = NULL;
  cairn_hpa *hpa = NULL;
  cairn_error err;
  rc = EXIT_BADINPUT;
  if (cairn_scen_load(p.scen, NULL, &sc, &err) != CAIRN_OK) {
    cli_error("%s", err.message);
    goto done;
  }
  map_path = p.map ? copy_string(p.map) : find_map(p.scen, cairn_scen_map_name(sc));
  if (!map_path) {
    cli_error("%s: map '%s' not found beside it or in ../maps (use --map)", p.scen,
              cairn_scen_map_name(sc));
    goto done;
  }
  if (!(g = cli_load_map(map_path, NULL))) goto done;
  if (cairn_scen_check(sc, g, &err) != CAIRN_OK) {
    cli_error("%s", err.message);
    goto done;
  }
  size_t n = cairn_scen_count(sc);
  rows = calloc(n ? n : 1, sizeof *rows);
  scratch = calloc(n ? n : 1, sizeof *scratch);
  rc = EXIT_RUNTIME;
  if (!rows || !scratch) {
    cli_error("out of memory");
    goto done;
  }
  if (p.algo == ALGO_HPA) {
    cairn_hpa_opts ho = cairn_hpa_defaults();
    ho.cluster = (int32_t)p.cluster;
    ho.levels = (int)p.levels;
    if (p.landmarks >= 0) ho.landmarks = p.landmarks ? (int32_t)p.landmarks : -1;
    cairn_status st = cairn_hpa_create(g, &ho, NULL, &hpa);
    if (st != CAIRN_OK) {
      cli_error("%s: building the hierarchy failed: %s", map_path, cairn_status_str(st));
      goto done;
    }
  }
  if ((rc = run_rows(&p, g, sc, hpa, rows)) != EXIT_DONE) goto done;
  totals all = sum_rows(sc, rows, 0, UINT32_MAX, scratch);
  if (p.json) print_json(&p, sc, &all, hpa);
  else print_table(&p, sc, rows, scratch, &all, map_path);
  if (hpa && !p.json) {
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(hpa, &hs);
    printf("hierarchy: cluster %d, %u clusters, %u nodes, %zu edges, %u landmarks, "
           "%.1f MB, built in %.1f ms\n", hs.cluster, hs.clusters, hs.nodes, hs.edges,
           hs.landmarks, (double)hs.memory_bytes / 1e6, hs.build_ms);
    if (hs.levels == 3)
      printf("level 3: %u blocks of %d x %d clusters, %u nodes, %zu edges\n",
             hs.blocks, hs.block, hs.block, hs.nodes2, hs.edges2);
  }
  if (p.csv && !write_csv(p.csv, sc, rows)) {
    cli_error("%s: cannot write the CSV file", p.csv);
    rc = EXIT_RUNTIME;
    goto done;
  }
  /* an exact search must meet every optimum; any search must be valid */
  bool exact = p.weight == 1.0 && p.algo != ALGO_HPA;
  rc = all.invalid || all.unreachable || (exact && all.mismatch) ? EXIT_RUNTIME
                                                                 : EXIT_DONE;
done:
  free(rows);
  free(scratch);
  free(map_path);
  cairn_hpa_destroy(hpa);
  cairn_grid_destroy(g);
  cairn_scen_destroy(sc);
  return rc;
}
