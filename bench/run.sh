#!/bin/sh
# Runs the benchmark suite as the figures in docs/PERFORMANCE.md were taken:
# 5 repetitions of each benchmark, only the aggregates (mean, median, stddev,
# cv) reported. We quote the medians.
#
#   bench/run.sh                      every benchmark
#   bench/run.sh 'astar/brc202d'      a --benchmark_filter regular expression
#   bench/run.sh '' --benchmark_format=json   more options after the filter
#   CAIRN_BENCH_FILTER=astar/brc202d cmake --build build-bench --target run_bench
#
# The binary is $CAIRN_BENCH, else cairn_bench in the current folder (the
# `bench` CMake target runs from there), else build-bench/bench/cairn_bench
# beside this script's checkout.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${CAIRN_BENCH:-}
if [ -z "$bin" ]; then
  if [ -x ./cairn_bench ]; then
    bin=./cairn_bench
  else
    bin=$here/../build-bench/bench/cairn_bench
  fi
fi
if [ ! -x "$bin" ]; then
  echo "run.sh: no benchmark binary at $bin; build it with" >&2
  echo "  cmake -S . -B build-bench -DCAIRN_TESTS=OFF && cmake --build build-bench --target cairn_bench" >&2
  exit 1
fi
# The generated 4096 x 4096 map of the hpa_big entries, written once into
# the benchmark's build folder by that build's cairn tool.
if [ -z "${CAIRN_BENCH_BIG_MAP:-}" ]; then
  CAIRN_BENCH_BIG_MAP=$(dirname "$bin")/../gen4096.map
  tool=$(dirname "$bin")/../tools/cairn
  if [ ! -f "$CAIRN_BENCH_BIG_MAP" ] && [ -x "$tool" ]; then
    "$tool" gen --out "$CAIRN_BENCH_BIG_MAP" --width 4096 --height 4096 --seed 7
  fi
fi
export CAIRN_BENCH_BIG_MAP
filter=${CAIRN_BENCH_FILTER:-}
if [ $# -gt 0 ]; then
  filter=$1
  shift
fi
set -- --benchmark_repetitions=5 --benchmark_report_aggregates_only=true "$@"
if [ -n "$filter" ]; then
  exec "$bin" --benchmark_filter="$filter" "$@"
fi
exec "$bin" "$@"
