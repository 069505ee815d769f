/* cairn scen: run every scenario of a Moving AI .scen file, validate each
 * path independently of the search, compare with the optimal lengths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/hierarchy.h"
#include "cli.h"
#include "cli_png.h"
#include "scen_run.h"


static const char *const value_opts[] = {"--map",     "--csv",    "--weight",
                                         "--algo",    "--cluster", "--nearby",
                                         "--levels",  "--landmarks", "--png",
                                         "--index",   "--threads",
                                         "--save-hierarchy", "--load-hierarchy",
                                         "--size", "--dead-ends", NULL};

typedef struct scen_args {
  const char *scen, *map, *csv;
  const char *png; /* --png FILE: row `index` drawn */
  long index;      /* -1: not given */
  bool json, no_smooth;
  scen_algo algo;
  double weight;
  long cluster, nearby, levels;
  long landmarks; /* -1 = the default, 0 = none */
  long threads;   /* the hierarchy's build; 0 = every core */
  long size;      /* --size K: the unit's size, 1..8 */
  int dead_ends;  /* --dead-ends on|off: 1, 0; -1 not given */
  const char *save_hpa, *load_hpa; /* --save-hierarchy, --load-hierarchy */
} scen_args;

static int parse_scen_args(int argc, char **argv, scen_args *p) {
  memset(p, 0, sizeof *p);
  p->weight = 1.0;
  p->cluster = 0;
  p->nearby = -1;
  p->landmarks = -1;
  p->index = -1;
  p->dead_ends = -1;
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
    } else if (cli_is(&a, "--png")) {
      p->png = v;
    } else if (cli_is(&a, "--index")) {
      if (!cli_parse_int("--index", v, 0, 100000000L, &p->index)) return EXIT_USAGE;
    } else if (cli_is(&a, "--weight")) {
      if (!cli_parse_double("--weight", v, 1, 1000, &p->weight)) return EXIT_USAGE;
    } else if (cli_is(&a, "--algo")) {
      int k = scen_algo_parse(v);
      if (k < 0) {
        cli_error("--algo: '%s' is not astar, dijkstra, hpa, jps, jps+ or auto", v);
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
    } else if (cli_is(&a, "--size")) {
      if (!cli_parse_int("--size", v, 1, CAIRN_GRID_MAX_CLEARANCE, &p->size)) return EXIT_USAGE;
    } else if (cli_is(&a, "--dead-ends")) {
      if (!cli_parse_on_off("--dead-ends", v, &p->dead_ends)) return EXIT_USAGE;
    } else if (cli_is(&a, "--threads")) {
      if (!cli_parse_int("--threads", v, 1, CAIRN_JOBS_MAX_WORKERS, &p->threads))
        return EXIT_USAGE;
    } else if (cli_is(&a, "--save-hierarchy")) {
      p->save_hpa = v;
    } else if (cli_is(&a, "--load-hierarchy")) {
      p->load_hpa = v;
    }
  }
  if (!p->scen) {
    cli_error("scen needs a FILE.scen");
    return EXIT_USAGE;
  }
  if (p->algo != ALGO_HPA &&
      (p->cluster || p->nearby != -1 || p->no_smooth || p->levels || p->save_hpa ||
       p->load_hpa)) {
    cli_error("scen: --cluster, --nearby, --levels, --no-smooth, "
              "--save-hierarchy and --load-hierarchy need --algo hpa");
    return EXIT_USAGE;
  }
  if (p->algo != ALGO_HPA && p->landmarks > 0 &&
      (p->algo == ALGO_DIJKSTRA || p->weight != 1.0)) {
    cli_error("scen: --landmarks raises the octile heuristic of an exact search: it takes "
              "neither --algo dijkstra nor --weight");
    return EXIT_USAGE;
  }
  if (p->load_hpa && (p->cluster || p->levels || p->landmarks != -1)) {
    cli_error("scen: --cluster, --levels and --landmarks do not apply to "
              "--load-hierarchy (the file holds the hierarchy's options)");
    return EXIT_USAGE;
  }
  if (p->dead_ends == 1 && p->algo == ALGO_DIJKSTRA) {
    cli_error("scen: --dead-ends on takes --algo astar, jps, jps+, hpa or auto");
    return EXIT_USAGE;
  }
  if (p->algo == ALGO_HPA && p->weight != 1.0) {
    cli_error("scen: --weight does not apply to --algo hpa");
    return EXIT_USAGE;
  }
  if ((p->algo == ALGO_JPS || p->algo == ALGO_JPS_PLUS) && (p->size > 1 || p->png)) {
    cli_error("scen: --algo %s takes neither --size nor --png", scen_algo_names[p->algo]);
    return EXIT_USAGE;
  }
  if (p->algo == ALGO_AUTO && p->png) {
    cli_error("scen: --png draws astar, dijkstra or hpa, not auto");
    return EXIT_USAGE;
  }
  if (p->png && p->size > 1) {
    cli_error("scen: --png draws units of size 1");
    return EXIT_USAGE;
  }
  if (p->index >= 0 && !p->png) {
    cli_error("scen: --index needs --png FILE");
    return EXIT_USAGE;
  }
  if (p->png && !cli_png_can_write(p->png)) return EXIT_RUNTIME;
  return EXIT_DONE;
}

/* The search options of cairn scen's arguments. */
static scen_config config_of(const scen_args *p) {
  scen_config c = {p->algo,   p->weight,    p->cluster,   p->nearby,
                   p->levels, p->landmarks, p->no_smooth, (int)p->threads,
                   p->load_hpa, p->save_hpa, (int)p->size, p->dead_ends};
  return c;
}

static void print_table(const scen_args *p, const cairn_scen *sc,
                        const scen_row *rows, double *scratch, const scen_totals *all,
                        const char *map_path, scen_algo chosen) {
  uint32_t max_bucket = 0;
  for (size_t i = 0; i < cairn_scen_count(sc); i++)
    if (cairn_scen_get(sc, i)->bucket > max_bucket)
      max_bucket = cairn_scen_get(sc, i)->bucket;
  uint32_t span = max_bucket / 16 + 1; /* at most 16 rows of buckets */
  printf("%s on %s (%s%s%s%s)\n", p->scen, map_path, scen_algo_names[p->algo],
         p->algo == ALGO_AUTO ? ": " : "", p->algo == ALGO_AUTO ? scen_algo_names[chosen] : "",
         p->weight != 1.0 ? ", weighted" : "");
  printf("%-11s %6s %6s %5s %5s %5s %9s %9s %10s %10s\n", "buckets", "rows",
         "solved", "skip", "inval", "mism", "subopt%", "max%", "median_us",
         "mean_exp");
  for (uint32_t b0 = 0; b0 <= max_bucket; b0 += span) {
    uint32_t b1 = b0 + span - 1;
    scen_totals t = scen_sum_rows(sc, rows, b0, b1, scratch);
    if (!t.scenarios) continue;
    char label[32];
    snprintf(label, sizeof label, "%u-%u", b0, b1 < max_bucket ? b1 : max_bucket);
    printf("%-11s %6zu %6zu %5zu %5zu %5zu %9.4f %9.4f %10.1f %10.0f\n", label,
           t.scenarios, t.solved, t.skipped, t.invalid, t.mismatch,
           scen_mean_subopt(&t), t.max_subopt, t.median_us, scen_mean_expanded(&t));
  }
  printf("%-11s %6zu %6zu %5zu %5zu %5zu %9.4f %9.4f %10.1f %10.0f\n", "total",
         all->scenarios, all->solved, all->skipped, all->invalid, all->mismatch,
         scen_mean_subopt(all), all->max_subopt, all->median_us,
         scen_mean_expanded(all));
  printf("unreachable %zu, p99 %.1f us, searches took %.1f ms in all\n",
         all->unreachable, all->p99_us, all->total_us / 1000);
  if (p->size > 1 && p->algo == ALGO_HPA)
    printf("size %ld: paths checked on the map eroded for the unit, mean cost %.6f; "
           "subopt%% against A* for the unit (the file's optimal lengths are for one "
           "cell)\n",
           p->size, all->solved ? all->sum_cost / (double)all->solved : 0);
  else if (p->size > 1)
    printf("size %ld: paths checked on the map eroded for the unit, mean cost %.6f; the "
           "file's optimal lengths (one cell) not compared\n",
           p->size, all->solved ? all->sum_cost / (double)all->solved : 0);
  if (all->skipped) {
    printf("skipped (start or goal not passable%s), lines:",
           p->size > 1 ? " for the unit" : "");
    for (size_t i = 0; i < cairn_scen_count(sc); i++)
      if (rows[i].kind == ROW_SKIPPED) printf(" %u", cairn_scen_get(sc, i)->line);
    printf("\n");
  }
}

static bool write_csv(const char *path, const cairn_scen *sc, const scen_row *rows) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fprintf(f, "id,bucket,sx,sy,gx,gy,optimal,cost,expanded,us,valid\n");
  for (size_t i = 0; i < cairn_scen_count(sc); i++) {
    const cairn_scen_entry *e = cairn_scen_get(sc, i);
    const scen_row *r = &rows[i];
    fprintf(f, "%zu,%u,%d,%d,%d,%d,%.8f,", i, e->bucket, e->start.x, e->start.y,
            e->goal.x, e->goal.y, e->optimal);
    if (r->kind == ROW_SOLVED) fprintf(f, "%.8f", r->cost);
    fprintf(f, ",%llu,%.3f,%s\n", (unsigned long long)r->expanded, r->us,
            r->kind == ROW_SOLVED ? "1" : r->kind == ROW_SKIPPED ? "skipped" : "0");
  }
  return fclose(f) == 0;
}

/* --png: row `index` (default 0) solved again as the rows were, drawn. */
static int draw_row(const scen_args *p, const scen_config *c, const scen_file *f,
                    const cairn_hpa *hpa) {
  size_t i = p->index < 0 ? 0 : (size_t)p->index;
  if (i >= cairn_scen_count(f->sc)) {
    cli_error("%s: --index %zu is past its %zu rows", p->scen, i, cairn_scen_count(f->sc));
    return EXIT_BADINPUT;
  }
  const cairn_scen_entry *e = cairn_scen_get(f->sc, i);
  cairn_search_opts o = cairn_search_defaults();
  o.weight = c->weight;
  if (c->algo == ALGO_DIJKSTRA) o.heuristic = CAIRN_H_ZERO;
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  po.nearby = (int32_t)c->nearby;
  po.smooth = !c->no_smooth;
  char caption[160];
  snprintf(caption, sizeof caption, "row %zu (line %u, bucket %u), %s", i, e->line, e->bucket,
           scen_algo_names[c->algo]);
  cli_png_scene base = {.grid = f->g};
  return cli_png_query(p->png, &base, e->start, e->goal, &o, hpa, &po, false, caption);
}

int cmd_scen(int argc, char **argv) {
  scen_args p;
  int rc = parse_scen_args(argc, argv, &p);
  if (rc != EXIT_DONE) return rc;
  scen_config cfg = config_of(&p);
  scen_file f;
  scen_row *rows = NULL;
  double *scratch = NULL;
  cairn_hpa *hpa = NULL;
  if ((rc = scen_file_load(p.scen, p.map, &f)) != EXIT_DONE) goto done;
  const cairn_scen *sc = f.sc;
  size_t n = cairn_scen_count(sc);
  rows = calloc(n ? n : 1, sizeof *rows);
  scratch = calloc(n ? n : 1, sizeof *scratch);
  rc = EXIT_RUNTIME;
  if (!rows || !scratch) {
    cli_error("out of memory");
    goto done;
  }
  if ((rc = scen_build_hpa(&cfg, &f, &hpa)) != EXIT_DONE) goto done;
  /* auto's choices made here, so that the report names them */
  if ((rc = scen_resolve_auto(&cfg, &f)) != EXIT_DONE) goto done;
  if ((rc = scen_run_rows(&cfg, &f, hpa, rows)) != EXIT_DONE) goto done;
  scen_totals all = scen_sum_rows(sc, rows, 0, UINT32_MAX, scratch);
  if (p.json) {
    scen_print_json(stdout, &cfg, f.g, sc, &all, hpa);
    printf("}\n");
  } else {
    print_table(&p, sc, rows, scratch, &all, f.map_path, scen_auto_choice(&cfg, f.g));
  }
  if (hpa && !p.json) {
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(hpa, &hs);
    printf("hierarchy: cluster %d, %u clusters, %u nodes, %zu edges, %u landmarks, "
           "sizes to %d, %.1f MB, %s in %.1f ms\n", hs.cluster, hs.clusters, hs.nodes,
           hs.edges, hs.landmarks, hs.max_size, (double)hs.memory_bytes / 1e6,
           p.load_hpa ? "loaded" : "built",
           hs.build_ms);
    if (hs.levels == 3)
      printf("level 3: %u blocks of %d x %d clusters, %u nodes, %zu edges\n",
             hs.blocks, hs.block, hs.block, hs.nodes2, hs.edges2);
  }
  if (p.csv && !write_csv(p.csv, sc, rows)) {
    cli_error("%s: cannot write the CSV file", p.csv);
    rc = EXIT_RUNTIME;
    goto done;
  }
  if (p.png && (rc = draw_row(&p, &cfg, &f, hpa)) != EXIT_DONE) goto done;
  /* an exact search must meet every optimum; any search must be valid */
  rc = scen_exit_code(&cfg, &all);
done:
  free(rows);
  free(scratch);
  cairn_hpa_destroy(hpa);
  scen_file_free(&f);
  return rc;
}
