#!/bin/sh
# The night with and without the congestion layer: `cairn horde --json`
# with --density on and off, ROUNDS rounds alternating which goes first,
# at THREADS threads. Prints per side the medians over the rounds of the
# tick times (median_tick_ms, full_median_tick_ms, p99_tick_ms) and the
# night's t50, t90, t100, max_queue, overlap_pct and the fewest arrivals
# at one gate, then the ratio of the median tick times (on / off).
#
#   bench/density.sh [ROUNDS [THREADS]]     ROUNDS default 5, THREADS 2
#
# The binary is $CAIRN, else build-bench/tools/cairn beside this script's
# checkout. For a shared machine, run a competitor pinned to one core
# beside it: taskset -c 1 sh -c 'while :; do :; done' &
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${CAIRN:-$here/../build-bench/tools/cairn}
rounds=${1:-5}
threads=${2:-2}
if [ ! -x "$bin" ]; then
  echo "density.sh: no cairn at $bin; build it with cmake --build build-bench --target cairn" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one run's figures as "key value" lines
figures() {
  "$bin" horde --json --threads "$threads" --density "$1" |
    sed 's/[{}"]//g' | tr ',' '\n' |
    awk -F: '/^(median_tick_ms|full_median_tick_ms|p99_tick_ms|t50|t90|t100|max_queue|overlap_pct):/ { print $1, $2 }
      /^arrived_by_gate:/ { low = $2; sub(/\[/, "", low); inby = 1; next }
      inby && /\]/ { v = $0; sub(/\]/, "", v); if (v + 0 < low + 0) low = v; inby = 0; print "least_gate", low; next }
      inby { if ($0 + 0 < low + 0) low = $0 }'
}
r=0
while [ "$r" -lt "$rounds" ]; do
  if [ $((r % 2)) -eq 0 ]; then order="on off"; else order="off on"; fi
  for side in $order; do figures "$side" >>"$tmp/$side"; done
  r=$((r + 1))
done
median() { # key file
  awk -v k="$1" '$1 == k { print $2 }' "$2" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "side median_tick_ms full_median_tick_ms p99_tick_ms t50 t90 t100 max_queue overlap_pct least_gate"
for side in on off; do
  line=$side
  for k in median_tick_ms full_median_tick_ms p99_tick_ms t50 t90 t100 max_queue overlap_pct least_gate; do
    line="$line $(median "$k" "$tmp/$side")"
  done
  echo "$line"
done
echo "median tick on / off: $(awk -v a="$(median median_tick_ms "$tmp/on")" -v b="$(median median_tick_ms "$tmp/off")" 'BEGIN { printf "%.3f", a / b }')"
