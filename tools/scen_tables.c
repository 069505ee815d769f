/* The tables a scenario file's rows search with, kept in the file
 * (scen_file.tables): built once, then shared by --algo auto's pilots and
 * the rows, and by the algorithms of one file in cairn suite (see
 * scen_run.h). */
#include "scen_run.h"

#include <stdlib.h>

#include "cairn/dead_ends.h"
#include "cairn/landmarks.h"
#include "cli.h"

struct scen_tables {
  const cairn_grid *grid; /* the grid they were built on */
  cairn_landmarks *lm;
  long lm_count;
  cairn_dead_ends *de;
};

scen_tables *scen_tables_create(void) {
  return calloc(1, sizeof(scen_tables));
}

/* Empties t, and ties it to grid g. */
static void tables_clear(scen_tables *t, const cairn_grid *g) {
  cairn_landmarks_destroy(t->lm);
  cairn_dead_ends_destroy(t->de);
  t->lm = NULL;
  t->de = NULL;
  t->lm_count = 0;
  t->grid = g;
}

void scen_tables_free(scen_tables *t) {
  if (!t) return;
  tables_clear(t, NULL);
  free(t);
}

/* f's tables, tied to f->g (emptied when they were built on another). */
static scen_tables *tables_of(const scen_file *f) {
  scen_tables *t = f->tables;
  if (t->grid != f->g) tables_clear(t, f->g);
  return t;
}

const cairn_landmarks *scen_file_landmarks(const scen_file *f, long count) {
  scen_tables *t = tables_of(f);
  if (t->lm && t->lm_count == count) return t->lm;
  cairn_landmarks_destroy(t->lm);
  t->lm = cli_landmarks(f->g, count);
  t->lm_count = t->lm ? count : 0;
  return t->lm;
}

const cairn_dead_ends *scen_file_dead_ends(const scen_file *f) {
  scen_tables *t = tables_of(f);
  if (!t->de && cairn_dead_ends_create(f->g, NULL, &t->de) != CAIRN_OK) {
    t->de = NULL;
    cli_error("out of memory");
  }
  return t->de;
}
