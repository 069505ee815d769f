/*
 * bench_common.h - what bench_astar.c shares with the other benchmark files
 * of cairn_bench: the data folder, the counting allocator, the optimal-cost
 * test and the bucket groups of a scenario file (their split and their
 * sample), so every benchmark that times "MAP/buckets_LO-HI" times the same
 * queries. Internal to bench/.
 */
#ifndef CAIRN_BENCH_COMMON_H
#define CAIRN_BENCH_COMMON_H

#include "cairn/core.h"
#include "scen_run.h"

#include <stddef.h>
#include <stdint.h>

/* Groups per map: the quartiles of the bucket range 0..max. */
#define CAIRN_BENCH_GROUPS 4
/* Rows timed per group at most (a strided sample of larger groups). */
#define CAIRN_BENCH_MAX_SAMPLE 200u
/* Passes over the sample until their optimal lengths add up to this. */
#define CAIRN_BENCH_WORK_MIN 100000.0

/* CAIRN_MOVINGAI_DIR from the environment, else the compiled-in folder. */
const char *cairn_bench_data_root(void);

/* A cairn_allocator function that counts the allocations it makes (not the
 * frees) in the uint64_t that `user` points to. */
void *cairn_bench_counting_alloc(void *user, void *ptr, size_t old_size,
                                 size_t new_size);

/* |cost - optimal| <= 1e-5 optimal + 0.006: scen_cost_matches, the test
 * of `cairn scen`. */
int cairn_bench_cost_ok(cairn_cost cost, double optimal);

typedef struct cairn_bench_query {
  cairn_point start, goal;
  double optimal;
  uint32_t line;
} cairn_bench_query;

/* One bucket group of a scenario file. */
typedef struct cairn_bench_split {
  uint32_t lo, hi; /* bucket range, inclusive */
  size_t rows;     /* scenario rows in the range */
  size_t stride;   /* the sample is every stride-th of them */
  size_t sample;   /* rows in the sample */
  double work;     /* optimal lengths of one pass over the sample */
  size_t passes;   /* passes until the work reaches CAIRN_BENCH_WORK_MIN */
} cairn_bench_split;

/* Splits the rows of scen into at most CAIRN_BENCH_GROUPS groups (empty
 * ones are left out) and returns how many it wrote to out. */
size_t cairn_bench_split_groups(const cairn_scen *scen,
                                cairn_bench_split out[CAIRN_BENCH_GROUPS]);

/* The sampled rows of s whose start and goal are passable on grid, in file
 * order, in a malloc'd array of *n (the caller frees it); *skipped gets the
 * sampled rows left out. NULL, with the reason in err, if memory runs out
 * or no row is usable. */
cairn_bench_query *cairn_bench_sample(const cairn_scen *scen,
                                      const cairn_grid *grid,
                                      const cairn_bench_split *s, size_t *n,
                                      size_t *skipped, char *err,
                                      size_t err_len);

/* A map's scenario file, read through the scenario harness of cairn scen
 * (tools/scen_run.h): its path, which the harness points to, and the file;
 * the map is read later (cairn_bench_load_grid), on first use. */
typedef struct cairn_bench_scen {
  char path[1400];
  scen_file file;
} cairn_bench_scen;

/* Loads NAME's scenario file (scen/NAME.map.scen under the data root) and
 * finds its map; *scen is then its rows (NULL on failure). Or reads that
 * map into a new grid, checked against the rows. 0, or -1 with "what
 * failed: detail" in err. */
int cairn_bench_load_scen(const char *name, cairn_bench_scen *out,
                          const cairn_scen **scen, char *err, size_t err_len);
int cairn_bench_load_grid(cairn_bench_scen *s, cairn_grid **out, char *err,
                          size_t err_len);
void cairn_bench_scen_free(cairn_bench_scen *s);

/* bench_hpa.c: registers the HPA* benchmarks (called last by
 * cairn_bench_register_all, once the data is known to be there). */
void cairn_bench_register_hpa(void);
/* bench_big.c: HPA* on a generated 4096 x 4096 map (called by the above). */
void cairn_bench_register_big(void);
/* bench_layers.c: the cost layers' updates (events, ticks, claims,
 * reveals), called by cairn_bench_register_all. */
void cairn_bench_register_layers(void);

#endif
