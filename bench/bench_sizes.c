/*
 * bench_sizes.c - what a hierarchy for units of several sizes costs to
 * build (cairn_hpa_opts.max_size) against the default one, on Moving AI
 * maps. A plain program, not a Google Benchmark: on a shared, noisy
 * machine only ratios taken in one run mean anything, so it alternates
 * the two builds (max_size 1, then max_size K, then 1 again ...) REPS
 * times on one thread and prints the median of each, their ratio and the
 * memory of both (cairn_hpa_get_stats).
 *
 *   cairn_bench_sizes [--reps N] [--max-size K] [--threads T] MAP...
 *
 * One line per map:
 *   MAP  build1_ms  buildK_ms  ratio  mem1_bytes  memK_bytes  mem_ratio
 *        nodes1  nodesK (abstract nodes: the sizes' extra crossings)
 *        load1_ms  loadK_ms (cairn_hpa_load of each, saved to memory once,
 *        medians of REPS loads, alternated likewise)
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "cairn/hierarchy.h"
#include "cairn/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_plain.h"

/* One build of max_size k: its wall time, its memory into *mem. */
static double build_ms(const cairn_grid *g, int32_t k, int threads, size_t *mem,
                       uint32_t *nodes) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.max_size = k;
  o.threads = threads;
  cairn_hpa *h = NULL;
  double t0 = now_ms();
  cairn_status st = cairn_hpa_create(g, &o, NULL, &h);
  double t = now_ms() - t0;
  if (st != CAIRN_OK) {
    fprintf(stderr, "build failed: %s\n", cairn_status_str(st));
    exit(1);
  }
  cairn_hpa_stats s;
  cairn_hpa_get_stats(h, &s);
  *mem = s.memory_bytes;
  *nodes = s.nodes;
  cairn_hpa_destroy(h);
  return t;
}

/* The hierarchy of max_size k saved to memory (malloc'd, *len bytes). */
static uint8_t *saved(const cairn_grid *g, int32_t k, size_t *len) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.max_size = k;
  o.threads = 1;
  cairn_hpa *h = NULL;
  uint8_t *buf = NULL;
  if (cairn_hpa_create(g, &o, NULL, &h) == CAIRN_OK &&
      cairn_hpa_save(h, NULL, 0, len) == CAIRN_ERR_BUFFER && (buf = malloc(*len)) &&
      cairn_hpa_save(h, buf, *len, len) == CAIRN_OK) {
    cairn_hpa_destroy(h);
    return buf;
  }
  fprintf(stderr, "save failed\n");
  exit(1);
}

/* One load of buf, its wall time. */
static double load_ms(const cairn_grid *g, const uint8_t *buf, size_t len, int threads) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.threads = threads;
  cairn_hpa *h = NULL;
  double t0 = now_ms();
  cairn_status st = cairn_hpa_load(buf, len, g, NULL, &o, NULL, &h, NULL);
  double t = now_ms() - t0;
  if (st != CAIRN_OK) {
    fprintf(stderr, "load failed: %s\n", cairn_status_str(st));
    exit(1);
  }
  cairn_hpa_destroy(h);
  return t;
}

int main(int argc, char **argv) {
  int reps = 5, threads = 1;
  int32_t k = 4;
  int i = 1;
  for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
    if (strcmp(argv[i], "--reps") == 0) reps = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--max-size") == 0) k = (int32_t)atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--threads") == 0) threads = atoi(argv[i + 1]);
    else break;
  }
  if (i >= argc || reps < 1 || reps > 1000 || k < 1 || k > CAIRN_GRID_MAX_CLEARANCE) {
    fprintf(stderr, "usage: cairn_bench_sizes [--reps N] [--max-size K] [--threads T] MAP...\n");
    return 2;
  }
  printf("%-24s %10s %10s %7s %12s %12s %7s %8s %8s %8s %8s\n", "map", "build1_ms",
         "buildK_ms", "ratio", "mem1", "memK", "memx", "nodes1", "nodesK", "load1_ms", "loadK_ms");
  for (; i < argc; i++) {
    cairn_grid *g = NULL;
    cairn_error err;
    if (cairn_map_load(argv[i], NULL, NULL, &g, &err) != CAIRN_OK) {
      fprintf(stderr, "%s\n", err.message);
      return 1;
    }
    double *t1 = malloc((size_t)reps * sizeof *t1), *tk = malloc((size_t)reps * sizeof *tk);
    size_t m1 = 0, mk = 0;
    uint32_t n1 = 0, nk = 0;
    if (!t1 || !tk) return 1;
    for (int r = 0; r < reps; r++) { /* alternate the sides */
      if (r % 2 == 0) {
        t1[r] = build_ms(g, 1, threads, &m1, &n1);
        tk[r] = build_ms(g, k, threads, &mk, &nk);
      } else {
        tk[r] = build_ms(g, k, threads, &mk, &nk);
        t1[r] = build_ms(g, 1, threads, &m1, &n1);
      }
    }
    qsort(t1, (size_t)reps, sizeof *t1, cmp_double);
    qsort(tk, (size_t)reps, sizeof *tk, cmp_double);
    double a = t1[reps / 2], b = tk[reps / 2];
    size_t l1, lk;
    uint8_t *f1 = saved(g, 1, &l1), *fk = saved(g, k, &lk);
    for (int r = 0; r < reps; r++) {
      t1[r] = load_ms(g, r % 2 ? fk : f1, r % 2 ? lk : l1, threads);
      tk[r] = load_ms(g, r % 2 ? f1 : fk, r % 2 ? l1 : lk, threads);
      if (r % 2) { /* the first of each pair alternates */
        double x = t1[r];
        t1[r] = tk[r];
        tk[r] = x;
      }
    }
    free(f1);
    free(fk);
    qsort(t1, (size_t)reps, sizeof *t1, cmp_double);
    qsort(tk, (size_t)reps, sizeof *tk, cmp_double);
    const char *name = strrchr(argv[i], '/');
    printf("%-24s %10.1f %10.1f %7.2f %12zu %12zu %7.2f %8u %8u %8.1f %8.1f\n",
           name ? name + 1 : argv[i], a, b, b / a, m1, mk, (double)mk / (double)m1, n1, nk,
           t1[reps / 2], tk[reps / 2]);
    fflush(stdout);
    free(t1);
    free(tk);
    cairn_grid_destroy(g);
  }
  return 0;
}
