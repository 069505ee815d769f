#!/bin/sh
# Compares benchmark binaries on a noisy machine: runs each in turn, ROUNDS
# times, one repetition a run, and prints each binary's median (and
# fastest) run for every entry the filter selects. Alternating spreads a
# slow spell of the machine over all the binaries instead of one of them.
#
#   bench/ab.sh FILTER ROUNDS BINARY...
#   bench/ab.sh 'crowd/tick/settlement/10000' 5 old/cairn_bench_crowd new/cairn_bench_crowd
set -eu
if [ $# -lt 3 ]; then
  echo "usage: bench/ab.sh FILTER ROUNDS BINARY..." >&2
  exit 2
fi
filter=$1
rounds=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ "$i" -lt "$rounds" ]; do
  for bin in "$@"; do
    "$bin" --benchmark_filter="$filter" --benchmark_format=csv 2>/dev/null |
      awk -F, -v b="$bin" 'NR > 1 && $1 != "" { gsub(/"/, "", $1); print b "," $1 "," $3 "," $5 }' >>"$out"
  done
  i=$((i + 1))
done
python3 - "$out" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
unit = {}
for line in open(sys.argv[1]):
    binary, name, real, time_unit = line.rstrip("\n").split(",")
    runs[(name, binary)].append(float(real))
    unit[(name, binary)] = time_unit
for key in sorted(runs):
    v = sorted(runs[key])
    print("%-60s %-40s median %8.3f  fastest %8.3f %s  (%d runs)"
          % (key[0], key[1], statistics.median(v), v[0], unit[key], len(v)))
PY
