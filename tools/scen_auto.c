/* What --algo auto runs on a scenario file: the method, and whether it
 * takes a landmark table and a dead-end table, each chosen by a pilot over
 * a sample of the file's rows (see scen_run.h; the measurements behind the
 * rules are in docs/PERFORMANCE.md, "Choosing the exact method"). */
#include "scen_run.h"

#include "cairn/dead_ends.h"
#include "cairn/landmarks.h"
#include "cli.h"

scen_algo scen_auto_choice(const scen_config *c, const cairn_grid *g) {
  const bool plain = c->weight == 1.0 && c->size <= 1;
  return plain && cairn_grid_uniform(g) ? ALGO_JPS_PLUS : ALGO_ASTAR;
}

/* The pilots' rows: spread evenly over the file. */
enum { AUTO_PILOT_ROWS = 4096, AUTO_DE_PILOT_ROWS = 256 };

/* The landmark count for auto without --landmarks; -1 when out of
 * memory. */
static long auto_landmarks(const scen_config *c, const scen_file *f) {
  if (c->weight != 1.0) return 0;
  if (scen_auto_choice(c, f->g) != ALGO_JPS_PLUS) return CLI_AUTO_LANDMARKS;
  cairn_search *s = NULL;
  if (cairn_search_create(NULL, &s) != CAIRN_OK) return -1;
  cairn_search_opts o = cairn_search_defaults();
  o.max_expanded = SCEN_AUTO_LM_EXPANDED;
  const size_t n = cairn_scen_count(f->sc), step = n / AUTO_PILOT_ROWS + 1;
  size_t runs = 0, long_runs = 0;
  for (size_t i = 0; i < n; i += step) {
    const cairn_scen_entry *e = cairn_scen_get(f->sc, i);
    if (scen_row_blocked(f->g, e)) continue;
    cairn_result r;
    cairn_status st = cairn_jps(s, f->g, e->start, e->goal, &o, &r);
    if (st < 0) {
      cairn_search_destroy(s);
      return -1;
    }
    runs++;
    long_runs += r.expanded >= SCEN_AUTO_LM_EXPANDED;
  }
  cairn_search_destroy(s);
  return runs && 2 * long_runs >= runs ? CLI_AUTO_LANDMARKS : 0;
}

/* One pilot search of row e with auto's method (jump point search stands
 * in for its jump tables: both expand the same jump points) and options
 * o; its expansions, or -1 when refused (a row the unit does not fit). */
static long long pilot_search(cairn_search *s, const scen_config *c, const scen_file *f,
                              const cairn_scen_entry *e, const cairn_search_opts *o) {
  cairn_result r;
  cairn_status st = scen_auto_choice(c, f->g) == ALGO_JPS_PLUS
                        ? cairn_jps(s, f->g, e->start, e->goal, o, &r)
                        : cairn_astar(s, f->g, e->start, e->goal, o, &r);
  return st < 0 ? -1 : (long long)r.expanded;
}

/* Whether auto without --dead-ends takes the table: when its method, with
 * the landmarks already chosen (c->landmarks), over up to
 * AUTO_DE_PILOT_ROWS rows spread evenly (each stopped at
 * SCEN_AUTO_DE_EXPANDED), expands at least SCEN_AUTO_DE_SAVED_PCT percent
 * fewer nodes with it than without. 1, 0, or -1 when out of memory (said).
 * The tables it builds stay in f for the rows. */
static int auto_dead_ends(const scen_config *c, const scen_file *f) {
  const cairn_dead_ends *de = scen_file_dead_ends(f);
  if (!de) return -1;
  cairn_dead_ends_stats ds;
  cairn_dead_ends_get_stats(de, &ds);
  if (!ds.areas) return 0; /* nothing to skip: no pilot, no landmarks built for it */
  cairn_search_opts without = cairn_search_defaults();
  without.weight = c->weight;
  without.size = c->size;
  without.max_expanded = SCEN_AUTO_DE_EXPANDED;
  if (c->landmarks > 0 && !(without.landmarks = scen_file_landmarks(f, c->landmarks))) return -1;
  cairn_search *s = NULL;
  if (cairn_search_create(NULL, &s) != CAIRN_OK) {
    cli_error("out of memory");
    return -1;
  }
  cairn_search_opts with = without;
  with.dead_ends = de;
  const size_t n = cairn_scen_count(f->sc), step = n / AUTO_DE_PILOT_ROWS + 1;
  long long before = 0, after = 0;
  for (size_t i = 0; i < n; i += step) {
    const cairn_scen_entry *e = cairn_scen_get(f->sc, i);
    if (scen_row_blocked(f->g, e)) continue;
    long long a = pilot_search(s, c, f, e, &without);
    long long b = a < 0 ? -1 : pilot_search(s, c, f, e, &with);
    if (a < 0 || b < 0) continue;
    before += a;
    after += b;
  }
  cairn_search_destroy(s);
  return before > 0 && 100 * (before - after) >= SCEN_AUTO_DE_SAVED_PCT * before;
}

int scen_resolve_auto(scen_config *c, const scen_file *f) {
  if (c->algo != ALGO_AUTO) return EXIT_DONE;
  if (c->landmarks < 0 && (c->landmarks = auto_landmarks(c, f)) < 0) {
    cli_error("out of memory");
    return EXIT_RUNTIME;
  }
  if (c->dead_ends < 0 && (c->dead_ends = auto_dead_ends(c, f)) < 0)
    return EXIT_RUNTIME; /* said */
  return EXIT_DONE;
}
