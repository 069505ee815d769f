#!/bin/sh
# A* against other exact methods of `cairn scen` on Moving AI scenario
# files: per map and method, the median query time of A* divided by the
# method's, over all rows and over the long rows (the top quarter of the
# buckets, bucket >= 0.75 x the largest). Each round runs `cairn scen
# --csv` once with each algorithm, A* first in even rounds and last in odd
# ones; a row's time is its median over the rounds; rows that either side
# did not solve are left out.
#
#   bench/exact.sh CAIRN ALGOS ROUNDS MAP...   (ALGOS: comma-separated)
#   bench/exact.sh build-bench/tools/cairn jps,jps+,jps+@16 3 brc202d AR0011SR
#
# An algorithm written NAME@N runs --algo NAME with a landmark table of N
# landmarks (--landmarks N).
#
# MAP is a name under $CAIRN_MOVINGAI_DIR/scen (default ../shared/movingai
# from the repository root).
set -eu
if [ $# -lt 4 ]; then
  echo "usage: bench/exact.sh CAIRN ALGO ROUNDS MAP..." >&2
  exit 2
fi
cairn=$1
algos=$(echo "$2" | tr , ' ')
rounds=$3
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
data=${CAIRN_MOVINGAI_DIR:-$root/../shared/movingai}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-16s %-8s %10s %10s %7s %10s %10s %7s %9s %9s\n" map algo astar_us algo_us ratio \
  long_astar long_algo ratio astar_exp algo_exp
for map in "$@"; do
  scen="$data/scen/$map.map.scen"
  [ -f "$scen" ] || { echo "bench/exact.sh: no $scen" >&2; exit 1; }
  r=0
  while [ "$r" -lt "$rounds" ]; do
    if [ $((r % 2)) -eq 0 ]; then order="astar $algos"; else order="$algos astar"; fi
    for a in $order; do
      name=${a%@*} lm=
      [ "$name" = "$a" ] || lm="--landmarks ${a#*@}"
      # shellcheck disable=SC2086 # lm is empty or two words
      "$cairn" scen "$scen" --algo "$name" $lm --csv "$tmp/$a.$r.csv" >/dev/null
    done
    r=$((r + 1))
  done
  for algo in $algos; do
  python3 - "$tmp" "$algo" "$rounds" "$map" <<'PY'
import csv, statistics, sys
tmp, algo, rounds, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def rows(a):
    times, info = {}, {}
    for r in range(rounds):
        for row in csv.DictReader(open("%s/%s.%d.csv" % (tmp, a, r))):
            if row["valid"] != "1":
                continue
            i = int(row["id"])
            times.setdefault(i, []).append(float(row["us"]))
            info[i] = (int(row["bucket"]), int(row["expanded"]))
    return {i: statistics.median(t) for i, t in times.items()}, info
ta, ia = rows("astar")
tb, ib = rows(algo)
ids = sorted(set(ta) & set(tb))
top = max(ia[i][0] for i in ids)
long_ids = [i for i in ids if ia[i][0] >= 0.75 * top]
def med(t, sel):
    return statistics.median(t[i] for i in sel)
def mean_exp(info, sel):
    return sum(info[i][1] for i in sel) / len(sel)
a, b = med(ta, ids), med(tb, ids)
la, lb = med(ta, long_ids), med(tb, long_ids)
print("%-16s %-8s %10.1f %10.1f %7.1f %10.1f %10.1f %7.1f %9.0f %9.0f"
      % (name, algo, a, b, a / b, la, lb, la / lb, mean_exp(ia, ids), mean_exp(ib, ids)))
PY
  done
done
