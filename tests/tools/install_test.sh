#!/bin/sh
# Installs the build into a scratch prefix, then builds and runs the
# consumer example against it twice: through find_package(cairn) and through
# pkg-config; then the jobs example through find_package.
# usage: install_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/examples/consumer" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cmake" >/dev/null
check() { # the A* line, and HPA* forced round the wall to the same cost
  echo "$2" | grep -q "^ok: cost 22.8995 in 20 steps$" &&
    echo "$2" | grep -q "^hpa: cost 22.8995 in 20 steps$" ||
    { echo "unexpected output from the $1 consumer" >&2; exit 1; }
}
out=$("$tmp/cmake/consumer")
echo "find_package: $out"
check CMake "$out"
pc="$tmp/prefix/lib/pkgconfig"
[ -d "$pc" ] || pc=$(dirname "$(find "$tmp/prefix" -name cairn.pc | head -n 1)")
flags=$(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs cairn)
cc -std=c11 -o "$tmp/pc_consumer" "$src/examples/consumer/main.c" $flags
out=$("$tmp/pc_consumer")
echo "pkg-config: $out"
check pkg-config "$out"
# examples/jobs: a hierarchy and a crowd on the program's own thread pool
# (an engine's job system, as a cairn_jobs), through find_package; the
# answers must be those of one thread
cmake -S "$src/examples/jobs" -B "$tmp/jobs" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/jobs" >/dev/null
out=$("$tmp/jobs/jobs") || { echo "the jobs example failed: $out" >&2; exit 1; }
echo "$out" | sed 's/^/jobs example: /'
# (and both really ran tasks on the pool)
echo "$out" | grep -q '^hpa: cost \([0-9.]*\) on [0-9]* workers ([1-9][0-9]* tasks), \1 on one thread$' &&
  echo "$out" |
  grep -q '^crowd: [0-9]* ticks, hash \([0-9a-f]\{16\}\) on [0-9]* workers ([1-9][0-9]* tasks), \1 on one thread$' &&
  echo "$out" | grep -q '^jobs: same results$' ||
  { echo "unexpected output from the jobs example" >&2; exit 1; }
