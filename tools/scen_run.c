/* Running a scenario file with one algorithm, validating every path
 * independently of the search (see scen_run.h). */
#include "scen_run.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *const scen_algo_names[ALGO_COUNT] = {"astar", "dijkstra", "hpa", "jps", "jps+",
                                                 "auto"};

int scen_algo_parse(const char *name) {
  for (int k = 0; k < ALGO_COUNT; k++)
    if (strcmp(name, scen_algo_names[k]) == 0) return k;
  return -1;
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

/* Keeps a failure's message in f->error and, unless f->quiet, prints it
 * in full as cli_error does. Returns EXIT_BADINPUT. */
static int load_failed(scen_file *f, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int load_failed(scen_file *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (msg) {
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  snprintf(f->error, sizeof f->error, "%s", msg ? msg : "out of memory");
  if (!f->quiet) cli_error("%s", msg ? msg : "out of memory");
  free(msg);
  return EXIT_BADINPUT;
}

int scen_file_open(const char *path, const char *map, bool quiet, scen_file *f) {
  memset(f, 0, sizeof *f);
  f->path = path;
  f->quiet = quiet;
  if (!(f->tables = scen_tables_create())) return load_failed(f, "%s: out of memory", path);
  cairn_error err;
  if (cairn_scen_load(path, NULL, &f->sc, &err) != CAIRN_OK)
    return load_failed(f, "%s", err.message);
  f->map_path = map ? copy_string(map) : find_map(path, cairn_scen_map_name(f->sc));
  if (!f->map_path)
    return load_failed(f, "%s: map '%s' not found beside it or in ../maps (use --map)",
                       path, cairn_scen_map_name(f->sc));
  return EXIT_DONE;
}

int scen_file_read_map(scen_file *f, cairn_grid **out) {
  *out = NULL;
  cairn_error err;
  if (cairn_map_load(f->map_path, NULL, NULL, out, &err) != CAIRN_OK) {
    *out = NULL;
    return load_failed(f, "%s", err.message);
  }
  if (cairn_scen_check(f->sc, *out, &err) != CAIRN_OK) {
    cairn_grid_destroy(*out);
    *out = NULL;
    return load_failed(f, "%s", err.message);
  }
  return EXIT_DONE;
}

int scen_file_load(const char *path, const char *map, scen_file *f) {
  int rc = scen_file_open(path, map, false, f);
  return rc == EXIT_DONE ? scen_file_read_map(f, &f->g) : rc;
}

double scen_cost_tolerance(double optimal) {
  return 1e-5 * optimal + 0.006;
}

bool scen_cost_matches(double cost, double optimal) {
  return !(fabs(cost - optimal) > scen_cost_tolerance(optimal));
}

bool scen_row_blocked(const cairn_grid *g, const cairn_scen_entry *e) {
  return !cairn_grid_cost(g, e->start.x, e->start.y) ||
         !cairn_grid_cost(g, e->goal.x, e->goal.y);
}

bool scen_row_unfit(const cairn_grid *g, const cairn_scen_entry *e, int k) {
  return cairn_grid_clearance(g, e->start.x, e->start.y) < k ||
         cairn_grid_clearance(g, e->goal.x, e->goal.y) < k;
}

void scen_file_free(scen_file *f) {
  scen_tables_free(f->tables);
  free(f->map_path);
  cairn_grid_destroy(f->g);
  cairn_scen_destroy(f->sc);
  memset(f, 0, sizeof *f);
}

int scen_build_hpa(const scen_config *c, const scen_file *f, cairn_hpa **out) {
  *out = NULL;
  if (c->algo != ALGO_HPA) return EXIT_DONE;
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = (int32_t)c->cluster;
  ho.levels = (int)c->levels;
  ho.threads = c->threads;
  ho.max_size = c->size > 1 ? c->size : 1; /* answers the unit's size */
  if (c->landmarks >= 0) ho.landmarks = c->landmarks ? (int32_t)c->landmarks : -1;
  cairn_error err;
  if (c->load_hpa) {
    cairn_status st = cairn_hpa_load_file(c->load_hpa, f->g, NULL, &ho, NULL, out, &err);
    if (st != CAIRN_OK) {
      cli_error("%s", err.message);
      return st == CAIRN_ERR_NOMEM ? EXIT_RUNTIME : EXIT_BADINPUT;
    }
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(*out, &hs);
    if (hs.max_size < ho.max_size) {
      cli_error("%s: the hierarchy answers units up to size %d, not %d", c->load_hpa,
                hs.max_size, ho.max_size);
      return EXIT_BADINPUT;
    }
  } else {
    cairn_status st = cairn_hpa_create(f->g, &ho, NULL, out);
    if (st != CAIRN_OK) {
      cli_error("%s: building the hierarchy failed: %s", f->map_path, cairn_status_str(st));
      return EXIT_RUNTIME;
    }
  }
  if (c->save_hpa && cairn_hpa_save_file(*out, c->save_hpa, &err) != CAIRN_OK) {
    cli_error("%s", err.message);
    return EXIT_RUNTIME;
  }
  return EXIT_DONE;
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
  bool jps; /* cairn_jps instead of cairn_astar */
  const cairn_jumps *jumps; /* cairn_jps_plus with these, or NULL */
} solver;

static cairn_status solve(solver *v, const cairn_grid *g, cairn_point a,
                          cairn_point b, cairn_result *res) {
  if (v->jumps) return cairn_jps_plus(v->s, v->jumps, a, b, &v->o, res);
  if (v->jps) return cairn_jps(v->s, g, a, b, &v->o, res);
  if (!v->hpa) return cairn_astar(v->s, g, a, b, &v->o, res);
  cairn_hpa_result hr;
  cairn_status st = cairn_hpa_find(v->q, v->hpa, a, b, &v->po, &hr);
  cli_result_of_hpa(st, &hr, res);
  return st;
}

/* Checks a found path on its own, on `check` (the map, or the grid eroded
 * for a unit above size 1, whose optimal lengths the file does not give),
 * and fills the row. */
static void judge_row(const scen_file *f, const cairn_grid *check, bool sized,
                      const cairn_scen_entry *e, const cairn_result *res, scen_row *r) {
  cairn_path_check chk;
  cairn_grid_check_path(check, res->path, res->path_len, e->start, e->goal, 8, &chk);
  if (!chk.valid) {
    r->kind = ROW_INVALID;
    cli_error("%s:%u: invalid path: %s at point %zu", f->path, e->line, chk.problem,
              chk.bad_index);
    return;
  }
  r->kind = ROW_SOLVED;
  r->cost = chk.cost;
  if (sized) return;
  r->mismatch = !scen_cost_matches(chk.cost, e->optimal);
  r->subopt_pct = e->optimal > 0 ? (chk.cost - e->optimal) / e->optimal * 100 : 0;
  if (r->subopt_pct < 0) r->subopt_pct = 0; /* printed-precision noise */
}

/* The hierarchy's answer for a unit above size 1 held against the core's
 * A* for the unit (the file's optimal lengths are for one cell): the
 * row's suboptimality is against A*'s cost, and a path where A* has none,
 * none where it has one, or a cost below it makes the row invalid. The
 * search's status (negative when it failed). */
static int against_astar(const scen_file *f, solver *v, const cairn_scen_entry *e,
                         cairn_status st, const cairn_result *res, scen_row *r) {
  cairn_result ref;
  cairn_status rst = cairn_astar(v->s, f->g, e->start, e->goal, &v->o, &ref);
  if (rst < 0) {
    cli_error("%s:%u: A* for the unit failed: %s", f->path, e->line, cairn_status_str(rst));
    return rst;
  }
  if ((rst == CAIRN_OK) != (st == CAIRN_OK) || (st == CAIRN_OK && res->cost < ref.cost)) {
    cli_error("%s:%u: the hierarchy %s, A* for the unit %s", f->path, e->line,
              st == CAIRN_OK ? "found a path" : "found none", rst == CAIRN_OK ? "one" : "none");
    r->kind = ROW_INVALID;
    return 0;
  }
  if (st == CAIRN_OK && ref.cost)
    r->subopt_pct = ((double)res->cost - (double)ref.cost) / (double)ref.cost * 100;
  return 0;
}

static int solver_init(const scen_config *c, const cairn_grid *g, const cairn_hpa *hpa,
                       const cairn_jumps *jumps, const cairn_landmarks *lm,
                       const cairn_dead_ends *de, solver *v) {
  memset(v, 0, sizeof *v);
  v->hpa = hpa;
  v->po = cairn_hpa_path_defaults();
  v->po.nearby = (int32_t)c->nearby;
  v->po.smooth = !c->no_smooth;
  v->po.size = c->size;
  v->o = cairn_search_defaults();
  v->o.weight = c->weight;
  v->o.size = c->size;
  if (c->algo == ALGO_DIJKSTRA) v->o.heuristic = CAIRN_H_ZERO;
  v->o.landmarks = lm;
  cairn_dead_ends_stats ds = {0};
  if (de) cairn_dead_ends_get_stats(de, &ds);
  v->o.dead_ends = ds.areas ? de : NULL; /* none to skip: spare the bit test */
  v->po.dead_ends = v->o.dead_ends;
  v->jps = c->algo == ALGO_JPS;
  v->jumps = jumps;
  if (cairn_search_create(NULL, &v->s) != CAIRN_OK ||
      cairn_search_reserve_grid(v->s, g) != CAIRN_OK ||
      cairn_hpa_query_create(NULL, &v->q) != CAIRN_OK ||
      (hpa && cairn_hpa_query_reserve(v->q, hpa) != CAIRN_OK)) {
    cli_error("out of memory");
    return EXIT_RUNTIME;
  }
  return EXIT_DONE;
}

static void solver_free(solver *v) {
  cairn_search_destroy(v->s);
  cairn_hpa_query_destroy(v->q);
}

/* One run over a file's rows: what every worker reads, and a solver and
 * an exit code per worker. */
typedef struct run_pass {
  const scen_file *f;
  const cairn_grid *check; /* what paths are checked on (judge_row) */
  int size;                /* the unit's, 1 or more */
  const scen_run_opts *o;
  scen_row *rows;
  solver *v;
  int *rc;
} run_pass;

/* Rows [begin, end) on worker w's solver, until a search fails. */
static void run_range(const run_pass *p, uint32_t w, size_t begin, size_t end) {
  const scen_file *f = p->f;
  size_t stride = p->o->stride > 1 ? p->o->stride : 1;
  for (size_t i = begin; p->rc[w] == EXIT_DONE && i < end; i++) {
    const cairn_scen_entry *e = cairn_scen_get(f->sc, i);
    scen_row *r = &p->rows[i];
    memset(r, 0, sizeof *r);
    if (scen_row_blocked(f->g, e) || (p->size > 1 && scen_row_unfit(f->g, e, p->size))) {
      r->kind = ROW_SKIPPED;
      continue;
    }
    if (i % stride != 0) {
      r->kind = ROW_LEFT_OUT;
      continue;
    }
    cairn_result res;
    double t0 = cli_now_us();
    cairn_status st = solve(&p->v[w], f->g, e->start, e->goal, &res);
    r->us = cli_now_us() - t0;
    r->expanded = res.expanded;
    if (st < 0) {
      cli_error("%s:%u: search failed: %s", f->path, e->line, cairn_status_str(st));
      p->rc[w] = EXIT_RUNTIME;
      continue;
    }
    if (st != CAIRN_OK)
      r->kind = ROW_UNREACHABLE;
    else
      judge_row(f, p->check, p->size > 1, e, &res, r);
    if (p->size > 1 && p->v[w].hpa && against_astar(f, &p->v[w], e, st, &res, r) < 0)
      p->rc[w] = EXIT_RUNTIME;
    if (p->o->on_row) p->o->on_row(p->o->user, w, i, &res, r);
  }
}

static void run_task(void *arg, uint32_t task, uint32_t worker) {
  const run_pass *p = arg;
  size_t n = cairn_scen_count(p->f->sc), begin = (size_t)task * SCEN_TASK_ROWS;
  run_range(p, worker, begin, n - begin < SCEN_TASK_ROWS ? n : begin + SCEN_TASK_ROWS);
}

int scen_run_rows(const scen_config *c, const scen_file *f, const cairn_hpa *hpa,
                  scen_row *rows) {
  return scen_run_rows_with(c, f, hpa, NULL, rows);
}

int scen_run_rows_with(const scen_config *c, const scen_file *f, const cairn_hpa *hpa,
                       const scen_run_opts *o, scen_row *rows) {
  scen_run_opts plain;
  memset(&plain, 0, sizeof plain);
  if (!o) o = &plain;
  scen_config chosen = *c;
  int resolved = scen_resolve_auto(&chosen, f);
  if (resolved != EXIT_DONE) return resolved;
  if (c->algo == ALGO_AUTO) {
    chosen.algo = scen_auto_choice(c, f->g);
    c = &chosen;
  }
  const bool jump = c->algo == ALGO_JPS || c->algo == ALGO_JPS_PLUS;
  if (jump && !cairn_grid_uniform(f->g)) {
    cli_error("%s: --algo %s needs a map of one terrain cost, and %s has several", f->path,
              scen_algo_names[c->algo], f->map_path);
    return EXIT_BADINPUT;
  }
  cairn_jumps *jumps = NULL;
  if (c->algo == ALGO_JPS_PLUS && cairn_jumps_create(f->g, NULL, &jumps) != CAIRN_OK) {
    cli_error("out of memory");
    return EXIT_RUNTIME;
  }
  /* f's tables, shared with auto's pilots */
  const cairn_landmarks *lm = NULL;
  const cairn_dead_ends *de = NULL;
  if ((c->algo != ALGO_HPA && c->landmarks > 0 && !(lm = scen_file_landmarks(f, c->landmarks))) ||
      (c->dead_ends > 0 && !(de = scen_file_dead_ends(f)))) {
    cairn_jumps_destroy(jumps);
    return EXIT_RUNTIME;
  }
  uint32_t workers = o->jobs ? o->jobs->workers : 1;
  solver *v = calloc(workers, sizeof *v);
  int *rc = calloc(workers, sizeof *rc);
  if (!v || !rc) {
    free(v);
    free(rc);
    cairn_jumps_destroy(jumps);
    cli_error("out of memory");
    return EXIT_RUNTIME;
  }
  uint32_t ready = 0;
  const int size = c->size > 1 ? c->size : 1;
  cairn_grid *eroded = size > 1 ? cli_eroded(f->g, size) : NULL;
  int status = size > 1 && !eroded ? EXIT_RUNTIME : EXIT_DONE;
  while (ready < workers && status == EXIT_DONE)
    status = solver_init(c, f->g, hpa, jumps, lm, de, &v[ready++]);
  if (status == EXIT_DONE) {
    run_pass p = {f, eroded ? eroded : f->g, size, o, rows, v, rc};
    size_t n = cairn_scen_count(f->sc);
    if (o->jobs)
      cairn_jobs_run(o->jobs, (uint32_t)((n + SCEN_TASK_ROWS - 1) / SCEN_TASK_ROWS),
                     run_task, &p);
    else
      run_range(&p, 0, 0, n);
    for (uint32_t w = 0; w < workers; w++)
      if (rc[w] != EXIT_DONE) status = rc[w];
  }
  for (uint32_t w = 0; w < ready; w++) solver_free(&v[w]);
  cairn_grid_destroy(eroded);
  cairn_jumps_destroy(jumps);
  free(v);
  free(rc);
  return status;
}

static void add_row(scen_totals *t, const scen_row *r) {
  t->scenarios++;
  if (r->kind == ROW_LEFT_OUT) {
    t->left_out++;
    return;
  }
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
  t->sum_cost += r->cost;
  t->mismatch += r->mismatch;
  t->sum_subopt += r->subopt_pct;
  if (r->subopt_pct > t->max_subopt) t->max_subopt = r->subopt_pct;
}

scen_totals scen_sum_rows(const cairn_scen *sc, const scen_row *rows, uint32_t b0,
                          uint32_t b1, double *scratch) {
  scen_totals t;
  memset(&t, 0, sizeof t);
  size_t n = 0;
  for (size_t i = 0; i < cairn_scen_count(sc); i++) {
    uint32_t b = cairn_scen_get(sc, i)->bucket;
    if (b < b0 || b > b1) continue;
    add_row(&t, &rows[i]);
    if (rows[i].kind != ROW_SKIPPED && rows[i].kind != ROW_LEFT_OUT)
      scratch[n++] = rows[i].us;
  }
  qsort(scratch, n, sizeof *scratch, cli_cmp_double);
  t.median_us = percentile(scratch, n, 50);
  t.p99_us = percentile(scratch, n, 99);
  return t;
}

double scen_mean_subopt(const scen_totals *t) {
  return t->solved ? t->sum_subopt / (double)t->solved : 0;
}

double scen_mean_expanded(const scen_totals *t) {
  return t->searched ? t->sum_expanded / (double)t->searched : 0;
}

void scen_print_json(FILE *out, const scen_config *c, const cairn_grid *g, const cairn_scen *sc,
                     const scen_totals *t, const cairn_hpa *hpa) {
  if (c->algo == ALGO_AUTO)
    fprintf(out, "{\"chosen\":\"%s\",\"chosen_landmarks\":%ld,\"chosen_dead_ends\":%s,",
            scen_algo_names[scen_auto_choice(c, g)],
            c->weight != 1.0 || c->landmarks < 0 ? 0L : c->landmarks,
            c->dead_ends != 0 ? "true" : "false");
  else
    fputc('{', out);
  fprintf(out,
          "\"map\":\"%s\",\"algo\":\"%s\",\"weight\":%g,\"scenarios\":%zu,"
          "\"solved\":%zu,\"skipped\":%zu,\"unreachable\":%zu,\"invalid\":%zu,",
          cairn_scen_map_name(sc), scen_algo_names[c->algo], c->weight, t->scenarios,
          t->solved, t->skipped, t->unreachable, t->invalid);
  if (c->size > 1 && hpa) /* against A* for the unit (against_astar) */
    fprintf(out, "\"size\":%d,\"mismatch\":null,\"mean_subopt_pct\":%.6f,"
                 "\"max_subopt_pct\":%.6f,", c->size, scen_mean_subopt(t), t->max_subopt);
  else if (c->size > 1) /* the file's optimal lengths are for one cell: not compared */
    fprintf(out, "\"size\":%d,\"mismatch\":null,\"mean_subopt_pct\":null,"
                 "\"max_subopt_pct\":null,", c->size);
  else
    fprintf(out, "\"mismatch\":%zu,\"mean_subopt_pct\":%.6f,\"max_subopt_pct\":%.6f,",
            t->mismatch, scen_mean_subopt(t), t->max_subopt);
  fprintf(out,
          "\"mean_cost\":%.6f,\"median_us\":%.3f,\"p99_us\":%.3f,\"mean_expanded\":%.1f,"
          "\"total_ms\":%.3f",
          t->solved ? t->sum_cost / (double)t->solved : 0, t->median_us, t->p99_us,
          scen_mean_expanded(t), t->total_us / 1000);
  if (!hpa) return;
  cairn_hpa_stats hs;
  cairn_hpa_get_stats(hpa, &hs);
  fprintf(out,
          ",\"cluster\":%d,\"preprocess_ms\":%.3f,\"abstract_nodes\":%u,"
          "\"abstract_edges\":%zu,\"memory_bytes\":%zu,\"levels\":%d,"
          "\"level2_nodes\":%u,\"level2_edges\":%zu,\"landmarks\":%u,\"max_size\":%d",
          hs.cluster, hs.build_ms, hs.nodes, hs.edges, hs.memory_bytes, hs.levels,
          hs.nodes2, hs.edges2, hs.landmarks, hs.max_size);
}

int scen_exit_code(const scen_config *c, const scen_totals *t) {
  bool exact = c->weight == 1.0 && c->algo != ALGO_HPA;
  /* a unit above size 1 may find no way where the file's one cell did */
  bool unreachable = t->unreachable && c->size <= 1;
  return t->invalid || unreachable || (exact && t->mismatch) ? EXIT_RUNTIME : EXIT_DONE;
}
