#!/bin/sh
# The mixed workload of group orders: `cairn march --mix` (groups of
# --units / 16, / 4, / 1 and 1 unit, gathered and scattered, near and far)
# sent by each --algo in turn, ROUNDS rounds alternating the order of the
# algorithms, per map and seed. Prints per map, seed and algorithm the
# medians of the planning time (plan_ms, every search and field of the
# run; orders_plan_ms, up to the tick that first left the queue empty),
# the units that arrived and the ticks the run took.
#
#   bench/march_mix.sh [ROUNDS [SEEDS [MAP...]]]
#     ROUNDS  default 3; SEEDS a comma list, default 1,2,3
#     MAP     Moving AI map names, default brc202d TheFrozenSea
#
# The binary is $CAIRN, else build-bench/tools/cairn beside this script's
# checkout; maps come from $CAIRN_MOVINGAI_DIR/maps (default
# ../shared/movingai/maps from the checkout). Groups and units: $GROUPS
# (default 16) and $UNITS (default 64).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${CAIRN:-$here/../build-bench/tools/cairn}
data=${CAIRN_MOVINGAI_DIR:-$here/../../shared/movingai}
rounds=${1:-3}
seeds=$(echo "${2:-1,2,3}" | tr ',' ' ')
[ $# -gt 2 ] && shift 2 || set --
maps=${*:-brc202d TheFrozenSea}
groups=${GROUPS:-16}
units=${UNITS:-64}
if [ ! -x "$bin" ]; then
  echo "march_mix.sh: no cairn at $bin; build it with cmake --build build-bench --target cairn" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
algos="auto astar hpa field"
for map in $maps; do
  file=$data/maps/$map.map
  [ -f "$file" ] || { echo "march_mix.sh: $file missing, left out" >&2; continue; }
  for seed in $seeds; do
    r=0
    while [ "$r" -lt "$rounds" ]; do
      # alternate: forwards on even rounds, backwards on odd ones
      order=$algos
      [ $((r % 2)) -eq 1 ] && order=$(echo "$algos" | tr ' ' '\n' | tac | tr '\n' ' ')
      for algo in $order; do
        "$bin" march --map "$file" --groups "$groups" --units "$units" --mix --seed "$seed" \
          --algo "$algo" --json >"$tmp/$map.$seed.$algo.$r.json"
      done
      r=$((r + 1))
    done
  done
done
python3 - "$tmp" "$rounds" <<'PY'
import glob, json, os, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for f in sorted(glob.glob(os.path.join(tmp, "*.json"))):
    m, seed, algo, r = os.path.basename(f)[:-5].rsplit(".", 3)
    rows.setdefault((m, int(seed), algo), []).append(json.load(open(f)))
print("%-14s %4s %-6s %10s %14s %9s %7s" % ("map", "seed", "algo", "plan_ms", "orders_plan_ms",
                                            "arrived", "ticks"))
for (m, seed, algo), runs in sorted(rows.items()):
    med = lambda k: statistics.median(x[k] for x in runs)
    print("%-14s %4d %-6s %10.1f %14.1f %5d/%-3d %7d" % (m, seed, algo, med("plan_ms"),
          med("orders_plan_ms"), min(x["arrived"] for x in runs), runs[0]["agents"],
          max(x["ticks"] for x in runs)))
PY
