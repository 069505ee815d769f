#!/bin/sh
# Waves of soldiers from one barracks to one gate, with and without the
# crowd's path cache: `cairn march --from START --goal GOAL --algo astar`
# --arrive leave and the same with --path-cache, alternated ROUNDS times
# per map (the order swapped every round), START and GOAL the longest row
# of the map's scenario file (units leave the field at the gate). Prints per map and side the medians of the planning
# time (plan_ms: every search of the run; orders_plan_ms: up to the tick
# that first left the queue empty), the units that arrived, the agent-ticks
# in a wall, the cache's figures and the state hash.
#
#   bench/march_routes.sh [ROUNDS [MAP...]]
#     ROUNDS  default 5; MAP Moving AI map names, default brc202d den011d AR0011SR
#
# The binary is $CAIRN, else build-bench/tools/cairn beside this script's
# checkout; maps and scenarios come from $CAIRN_MOVINGAI_DIR (default
# ../shared/movingai from the checkout). Groups and units: $GROUPS
# (default 12) and $UNITS (default 9); one thread.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${CAIRN:-$here/../build-bench/tools/cairn}
data=${CAIRN_MOVINGAI_DIR:-$here/../../shared/movingai}
rounds=${1:-5}
[ $# -gt 0 ] && shift
maps=${*:-brc202d den011d AR0011SR}
groups=${GROUPS:-12}
units=${UNITS:-9}
if [ ! -x "$bin" ]; then
  echo "march_routes.sh: no cairn at $bin; build it with cmake --build build-bench --target cairn" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for map in $maps; do
  file=$data/maps/$map.map
  scen=$data/scen/$map.map.scen
  [ -f "$file" ] && [ -f "$scen" ] || { echo "march_routes.sh: $map missing, left out" >&2; continue; }
  set -- $(awk 'NF >= 9 && $9 + 0 > best { best = $9 + 0; row = $0 } END { print row }' "$scen")
  from=$5,$6
  goal=$7,$8
  r=0
  while [ "$r" -lt "$rounds" ]; do
    order="none cache"
    [ $((r % 2)) -eq 1 ] && order="cache none"
    for side in $order; do
      flag=
      [ "$side" = cache ] && flag=--path-cache
      "$bin" march --map "$file" --groups "$groups" --units "$units" --from "$from" \
        --goal "$goal" --algo astar --arrive leave --threads 1 $flag --json >"$tmp/$map.$side.$r.json"
    done
    r=$((r + 1))
  done
done
python3 - "$tmp" <<'PY'
import glob, json, os, statistics, sys
rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    m, side, r = os.path.basename(f)[:-5].rsplit(".", 2)
    rows.setdefault((m, side), []).append(json.load(open(f)))
print("%-12s %-6s %9s %15s %8s %8s  %-32s %s" % ("map", "side", "plan_ms", "orders_plan_ms",
      "arrived", "in_wall", "walked/joined/missed/stored", "hash"))
for (m, side), runs in sorted(rows.items()):
    med = lambda k: statistics.median(d[k] for d in runs)
    pc = runs[0].get("path_cache")
    cache = "%d/%d/%d/%d" % (pc["walked"], pc["joined"], pc["missed"], pc["stored"]) if pc else "-"
    print("%-12s %-6s %9.1f %15.1f %4d/%-3d %8d  %-32s %s" % (m, side, med("plan_ms"),
          med("orders_plan_ms"), runs[0]["arrived"], runs[0]["agents"], runs[0]["in_wall"],
          cache, runs[0]["state_hash"]))
PY
