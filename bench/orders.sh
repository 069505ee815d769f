#!/bin/sh
# "100 soldiers from one barracks to one gate" (bench/bench_orders.c): runs
# cairn_bench_orders with 5 repetitions and prints, per map, the medians of
# its four entries (CPU time, microseconds) and their ratios to one search:
#   cached/one  median(orders_cached) / median(orders_one_search)
#   each/one    median(orders_each_astar) / median(orders_one_search)
#   exact/one   median(orders_cached_exact) / median(orders_one_search)
# then the cached entries' counters (how the 100 requests were answered,
# the largest excess stated and the largest real one over the A* optimum,
# in straight steps, the nodes expanded). One program
# holds every entry, so nothing alternates between builds.
#
#   bench/orders.sh                       every map
#   bench/orders.sh --benchmark_filter=brc202d   more options for the program
#
# The binary is $CAIRN_BENCH, else build-bench/bench/cairn_bench_orders
# beside this script's checkout. Maps come from $CAIRN_MOVINGAI_DIR/maps
# (default: the folder compiled in); a missing map is left out.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${CAIRN_BENCH:-$here/../build-bench/bench/cairn_bench_orders}
if [ ! -x "$bin" ]; then
  echo "orders.sh: no benchmark binary at $bin; build it with" >&2
  echo "  cmake --build build-bench --target cairn_bench_orders" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=json "$@" >"$tmp/out.json"
python3 - "$tmp/out.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
med, errors, maps = {}, {}, []
for b in runs:
    what, _, name = b["run_name"].partition("/")
    if name not in maps:
        maps.append(name)
    if b.get("error_occurred"):
        errors[(what, name)] = b.get("error_message", "error")
    elif b.get("aggregate_name") == "median":
        med[(what, name)] = b
def us(what, name):
    b = med.get((what, name))
    if b is None:
        return None
    scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b["time_unit"]]
    return b["cpu_time"] * scale
def ratio(a, b):
    return "%9.2f" % (a / b) if a is not None and b else "%9s" % "-"
def num(t):
    return "%12.1f" % t if t is not None else "%12s" % "-"
print("%-10s %12s %12s %12s %12s %9s %9s %9s"
      % ("map", "one_us", "cached_us", "each_us", "exact_us", "cached/1", "each/1", "exact/1"))
for m in maps:
    one, cached = us("orders_one_search", m), us("orders_cached", m)
    each, exact = us("orders_each_astar", m), us("orders_cached_exact", m)
    print("%-10s %s %s %s %s %s %s %s" % (m, num(one), num(cached), num(each), num(exact),
                                          ratio(cached, one), ratio(each, one),
                                          ratio(exact, one)))
print()
print("%-10s %-8s %8s %8s %8s %10s %11s %10s"
      % ("map", "cache", "searched", "joined", "walked", "max_excess", "real_excess", "expanded"))
for m in maps:
    for what, label in (("orders_cached", "default"), ("orders_cached_exact", "exact")):
        b = med.get((what, m))
        if b is None:
            continue
        print("%-10s %-8s %8d %8d %8d %10.2f %11.2f %10d"
              % (m, label, b["searched"], b["joined"], b["walked"], b["max_excess_steps"],
                 b["real_excess_steps"], b["expanded"]))
    for what in ("orders_one_search", "orders_each_astar"):
        b = med.get((what, m))
        if b is not None:
            print("%-10s %-8s %8s %8s %8s %10s %11s %10d"
                  % (m, what[7:], "", "", "", "", "", b["expanded"]))
for (what, name), msg in sorted(errors.items()):
    print("%s/%s: ERROR %s" % (what, name, msg), file=sys.stderr)
if errors:
    sys.exit(1)
PY
