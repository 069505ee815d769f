#!/bin/sh
# "100 soldiers from one barracks to one gate" (bench/bench_orders.c): runs
# cairn_bench_orders with 5 repetitions and prints, per map, the medians of
# its four entries (CPU time, microseconds) and their ratios to one search:
#   cached/one  median(orders_cached) / median(orders_one_search)
#   each/one    median(orders_each_astar) / median(orders_one_search)
#   exact/one   median(orders_cached_exact) / median(orders_one_search)
# then the cached entries' counters (how the 100 requests were answered,
# the largest excess stated and the largest real one over the A* optimum,
# in straight steps, the nodes expanded).
#
# Then the units scattered over the map (orders_field and
# orders_scattered_*): per map the field's time, its reachable cells and
# ns per cell; per unit count N the N A* searches' and the cached run's
# times, their ratios to the field, the expansions per unit, ns per A*
# expansion and the units' mean octile distance to the gate, and the
# crossover
#   N* = field time / (A* time per unit)
# the unit count above which one field is cheaper than a search each: per
# N, and on the mean per-unit time over the N values (the "mean" row). N*c
# is the same with the cached run's time per unit. Last, the hierarchy's
# queries (orders_scattered_hpa) and rho, a query's time per cell of trip
# over the field's per reachable cell, with its median over the maps. One
# program holds every entry, so nothing alternates between builds.
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
# run names: WHAT/MAP, or WHAT/MAP/N for the scattered entries
med, errors, maps = {}, {}, []
def key(b):
    parts = b["run_name"].split("/")
    return tuple(parts[:1] + parts[1:2] + [int(n) for n in parts[2:3]])
for b in runs:
    k = key(b)
    if len(k) > 1 and k[1] not in maps:
        maps.append(k[1])
    if b.get("error_occurred"):
        errors[k] = b.get("error_message", "error")
    elif b.get("aggregate_name") == "median":
        med[k] = b
def us(what, name, n=None):
    b = med.get((what, name) if n is None else (what, name, n))
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
soldier_maps = [m for m in maps if any((w, m) in med for w in
                ("orders_one_search", "orders_cached", "orders_each_astar",
                 "orders_cached_exact"))]
for m in soldier_maps:
    one, cached = us("orders_one_search", m), us("orders_cached", m)
    each, exact = us("orders_each_astar", m), us("orders_cached_exact", m)
    print("%-10s %s %s %s %s %s %s %s" % (m, num(one), num(cached), num(each), num(exact),
                                          ratio(cached, one), ratio(each, one),
                                          ratio(exact, one)))
print()
print("%-10s %-8s %8s %8s %8s %10s %11s %10s"
      % ("map", "cache", "searched", "joined", "walked", "max_excess", "real_excess", "expanded"))
for m in soldier_maps:
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

def div(a, b):
    return a / b if a is not None and b else None
def col(v, width, fmt):
    return ("%" + str(width) + fmt) % v if v is not None else "%*s" % (width, "-")
counts = sorted({k[2] for k in med if len(k) == 3})
field_maps = [m for m in maps if ("orders_field", m) in med
              or any(("orders_scattered_astar", m, n) in med for n in counts)]
if field_maps:
    print()
    print("scattered units, one field against a search each (CPU time)")
    print("%-15s %10s %10s %8s" % ("map", "field_ms", "reachable", "ns/cell"))
for m in field_maps:
    f, fb = us("orders_field", m), med.get(("orders_field", m))
    cells = fb["reachable"] if fb else None
    print("%-15s %s %s %s" % (m, col(div(f, 1e3), 10, ".3f"), col(cells, 10, ".0f"),
                              col(div(f * 1e3 if f else None, cells), 8, ".2f")))
if field_maps:
    print()
    print("%-15s %4s %10s %10s %9s %9s %9s %8s %8s %8s %8s"
          % ("map", "N", "astar_ms", "cached_ms", "astar/fld", "cache/fld", "exp/unit",
             "ns/exp", "octile", "N*", "N*c"))
for m in field_maps:
    f = us("orders_field", m)
    per_unit, per_cached = [], []
    for n in counts:
        a, c = us("orders_scattered_astar", m, n), us("orders_scattered_cached", m, n)
        ab = med.get(("orders_scattered_astar", m, n))
        if a is not None:
            per_unit.append(a / n)
        if c is not None:
            per_cached.append(c / n)
        print("%-15s %4d %s %s %s %s %s %s %s %s %s"
              % (m, n, col(div(a, 1e3), 10, ".3f"), col(div(c, 1e3), 10, ".3f"),
                 col(div(a, f), 9, ".2f"), col(div(c, f), 9, ".2f"),
                 col(ab["expanded_per_unit"] if ab else None, 9, ".0f"),
                 col(div(a * 1e3 if a else None, ab["expanded"] if ab else None), 8, ".1f"),
                 col(ab["octile_mean"] if ab else None, 8, ".1f"),
                 col(div(f, div(a, n)), 8, ".2f"), col(div(f, div(c, n)), 8, ".2f")))
    mean_a = sum(per_unit) / len(per_unit) if per_unit else None
    mean_c = sum(per_cached) / len(per_cached) if per_cached else None
    print("%-15s %4s %10s %10s %9s %9s %9s %8s %8s %s %s"
          % (m, "mean", "", "", "", "", "", "", "", col(div(f, mean_a), 8, ".2f"),
             col(div(f, mean_c), 8, ".2f")))
# over a hierarchy: rho = (a query's time per cell of trip) / (the field's
# time per reachable cell), the constant CAIRN_PLAN_HPA_CELLS_PER_STEP
# stands for; its median over the maps and the N = 16 and 64 rows
rhos = []
if field_maps:
    print()
    print("%-15s %4s %10s %9s %8s %8s" % ("map", "N", "hpa_ms", "hpa/fld", "octile", "rho"))
for m in field_maps:
    f, fb = us("orders_field", m), med.get(("orders_field", m))
    for n in counts:
        h, hb = us("orders_scattered_hpa", m, n), med.get(("orders_scattered_hpa", m, n))
        rho = None
        if h is not None and f and fb and hb and hb["octile_mean"]:
            rho = (h / n / hb["octile_mean"]) / (f / fb["reachable"])
            if n >= 16:
                rhos.append(rho)
        print("%-15s %4d %s %s %s %s" % (m, n, col(div(h, 1e3), 10, ".3f"),
                                          col(div(h, f), 9, ".2f"),
                                          col(hb["octile_mean"] if hb else None, 8, ".1f"),
                                          col(rho, 8, ".1f")))
if rhos:
    rhos.sort()
    mid = len(rhos) // 2
    print("rho over a hierarchy (N >= 16): median %.1f, range %.1f to %.1f"
          % ((rhos[mid] + rhos[~mid]) / 2, rhos[0], rhos[-1]))
for k, msg in sorted(errors.items()):
    print("%s: ERROR %s" % ("/".join(str(p) for p in k), msg), file=sys.stderr)
if errors:
    sys.exit(1)
PY
