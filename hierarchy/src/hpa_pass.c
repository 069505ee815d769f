/* The parallel pass every hierarchy build runs (clusters, blocks,
 * landmarks): items handed out as tasks of the hierarchy's jobs, each
 * worker with scratch of its own, set up lazily by the first task that
 * runs on it, so a job system of many workers sets up no more scratch
 * than a small edit has tasks. */
#include "hpa_internal.h"

#include <stddef.h>
#include <string.h>

/* A worker's part: whether its scratch is set up, and the lowest status
 * of its items. Its scratch follows in the pass's scratch array. */
typedef struct pass_slot {
  bool ready;
  cairn_status failed;
} pass_slot;

typedef struct pass_run {
  const cairn_hpa *h;
  const hpa_pass *p;
  size_t n;
  size_t stride; /* bytes of one worker's scratch, aligned */
  pass_slot *slot;
  unsigned char *scratch;
} pass_run;

static void pass_task(void *arg, uint32_t task, uint32_t worker) {
  pass_run *r = arg;
  pass_slot *w = &r->slot[worker];
  void *sc = r->scratch + (size_t)worker * r->stride;
  size_t i = (size_t)task * r->p->per_task;
  size_t end = r->n - i < r->p->per_task ? r->n : i + r->p->per_task;
  for (; i < end; i++) {
    cairn_status st = CAIRN_OK;
    if (!w->ready) { /* again after a failure: the next item may fit */
      hpa_lock(r->h);
      st = r->p->init(r->p->ctx, sc);
      hpa_unlock(r->h);
      w->ready = st == CAIRN_OK;
    }
    if (st == CAIRN_OK) st = r->p->run(r->p->ctx, sc, i);
    if (st < w->failed) w->failed = st;
  }
}

cairn_status cairn__hpa_run_pass(const cairn_hpa *h, const hpa_pass *p, size_t n) {
  const cairn_allocator *a = &h->alloc;
  const size_t workers = cairn__workers_count(&h->workers);
  /* each worker's scratch two cache lines apart at least: their hot
   * fields (a queue's length, say) in one line would pass it between the
   * cores on every write (a landmark fill ran at half speed so) */
  const size_t align = 128;
  const size_t stride = (p->scratch_size + align - 1) / align * align;
  pass_slot *slot = cairn__alloc_zero(a, workers * sizeof *slot);
  unsigned char *scratch = cairn__alloc_zero(a, workers * stride);
  cairn_status st = slot && scratch ? CAIRN_OK : CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK) {
    pass_run r = {h, p, n, stride, slot, scratch};
    const size_t tasks = (n + p->per_task - 1) / p->per_task;
    cairn__workers_run((cairn__workers *)&h->workers, (uint32_t)tasks, pass_task, &r);
    for (size_t w = 0; w < workers; w++) {
      if (slot[w].failed < st) st = slot[w].failed;
      if (slot[w].ready) p->fini(p->ctx, scratch + w * stride);
    }
  }
  cairn__free(a, scratch, workers * stride);
  cairn__free(a, slot, workers * sizeof *slot);
  return st;
}
