// bench_shim.cpp - the C shim over Google Benchmark (the project's only C++
// file) and the benchmark program's main(). See bench_shim.h.
#include "bench_shim.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <deque>
#include <exception>
#include <string>

struct cairn_bench_state {
  benchmark::State *st;
  int nargs;
};

// One per registration, owned by the table below for the whole run (the
// library keeps the Benchmark objects just as long).
struct cairn_bench_def {
  benchmark::internal::Benchmark *b;
  cairn_bench_fn fn;
  void *user;
  int nargs;
};

namespace {

std::deque<cairn_bench_def> &defs() {
  static std::deque<cairn_bench_def> table; // stable addresses on push_back
  return table;
}

benchmark::TimeUnit to_unit(cairn_bench_unit u) {
  switch (u) {
  case CAIRN_BENCH_NS:
    return benchmark::kNanosecond;
  case CAIRN_BENCH_MS:
    return benchmark::kMillisecond;
  case CAIRN_BENCH_S:
    return benchmark::kSecond;
  case CAIRN_BENCH_US:
  default:
    return benchmark::kMicrosecond;
  }
}

} // namespace

extern "C" {

cairn_bench_def *cairn_bench_register(const char *name, cairn_bench_fn fn,
                                      void *user) {
  if (!name || !fn) return nullptr;
  try {
    defs().push_back(cairn_bench_def{nullptr, fn, user, 0});
    cairn_bench_def *def = &defs().back();
    const std::string copy(name); // the library copies too; be explicit
    def->b = benchmark::RegisterBenchmark(
        copy.c_str(), [def](benchmark::State &st) {
          cairn_bench_state cs{&st, def->nargs};
          def->fn(&cs, def->user);
        });
    def->b->Unit(benchmark::kMicrosecond);
    return def;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "cairn_bench_register(%s): %s\n", name, e.what());
    return nullptr;
  }
}

void cairn_bench_def_unit(cairn_bench_def *def, cairn_bench_unit unit) {
  if (def) def->b->Unit(to_unit(unit));
}

void cairn_bench_def_arg(cairn_bench_def *def, int64_t a) {
  if (!def) return;
  def->b->Arg(a);
  def->nargs = 1;
}

void cairn_bench_def_iterations(cairn_bench_def *def, int64_t n) {
  if (def && n >= 1) def->b->Iterations(static_cast<benchmark::IterationCount>(n));
}

void cairn_bench_def_min_time(cairn_bench_def *def, double seconds) {
  if (def && seconds > 0) def->b->MinTime(seconds);
}

void cairn_bench_def_real_time(cairn_bench_def *def) {
  if (def) def->b->UseRealTime();
}

int cairn_bench_next(cairn_bench_state *st) {
  return st->st->KeepRunning() ? 1 : 0;
}

int64_t cairn_bench_iterations(const cairn_bench_state *st) {
  return static_cast<int64_t>(st->st->iterations());
}

int64_t cairn_bench_arg(const cairn_bench_state *st, int i) {
  if (i < 0 || i >= st->nargs) return 0;
  return st->st->range(static_cast<std::size_t>(i));
}

void cairn_bench_counter(cairn_bench_state *st, const char *name,
                         double value, int flags) {
  int f = benchmark::Counter::kDefaults;
  if (flags & CAIRN_BENCH_RATE) f |= benchmark::Counter::kIsRate;
  if (flags & CAIRN_BENCH_AVG_ITER) f |= benchmark::Counter::kAvgIterations;
  if (flags & CAIRN_BENCH_INVERT) f |= benchmark::Counter::kInvert;
  st->st->counters[std::string(name)] =
      benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(f));
}

void cairn_bench_skip(cairn_bench_state *st, const char *why) {
  st->st->SkipWithError(why ? why : "skipped");
}

void cairn_bench_pause(cairn_bench_state *st) { st->st->PauseTiming(); }
void cairn_bench_resume(cairn_bench_state *st) { st->st->ResumeTiming(); }

void cairn_bench_label(cairn_bench_state *st, const char *label) {
  st->st->SetLabel(label ? label : "");
}

} // extern "C"

int main(int argc, char **argv) {
  cairn_bench_register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
