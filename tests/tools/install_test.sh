#!/bin/sh
# The installed package, four ways: the build's own (static) libraries and
# a shared build of the libraries alone, each consumed by examples/consumer
# through find_package(cairn) and through pkg-config, and by examples/jobs
# through find_package. Also: headers only under include/cairn/, and each
# shared library exporting only the cairn_ API under a versioned SONAME.
# usage: install_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "install: $*" >&2
  exit 1
}

check() { # the A* line, and HPA* forced round the wall to the same cost
  echo "$2" | grep -q "^ok: cost 22.8995 in 20 steps$" &&
    echo "$2" | grep -q "^hpa: cost 22.8995 in 20 steps$" ||
    fail "unexpected output from the $1 consumer: $2"
}

# consumers PREFIX KIND: the three programs against the package at PREFIX
consumers() {
  prefix=$1
  kind=$2
  pc=$(dirname "$(find "$prefix" -name cairn.pc | head -n 1)")
  libdir=$(dirname "$pc")
  cmake -S "$src/examples/consumer" -B "$tmp/$kind-cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$tmp/$kind-cmake" >/dev/null
  out=$(LD_LIBRARY_PATH="$libdir" "$tmp/$kind-cmake/consumer")
  echo "$kind, find_package: $out"
  check "$kind CMake" "$out"
  flags=$(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs cairn)
  cc -std=c11 -o "$tmp/$kind-pc" "$src/examples/consumer/main.c" $flags
  out=$(LD_LIBRARY_PATH="$libdir" "$tmp/$kind-pc")
  echo "$kind, pkg-config: $out"
  check "$kind pkg-config" "$out"
  # examples/jobs: a hierarchy and a crowd on the program's own thread pool
  # (an engine's job system, as a cairn_jobs); the answers must be those of
  # one thread, and both really ran tasks on the pool
  cmake -S "$src/examples/jobs" -B "$tmp/$kind-jobs" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$tmp/$kind-jobs" >/dev/null
  out=$(LD_LIBRARY_PATH="$libdir" "$tmp/$kind-jobs/jobs") ||
    fail "the $kind jobs example failed: $out"
  echo "$out" | sed "s/^/$kind, jobs example: /"
  echo "$out" | grep -q '^hpa: cost \([0-9.]*\) on [0-9]* workers ([1-9][0-9]* tasks), \1 on one thread$' &&
    echo "$out" |
    grep -q '^crowd: [0-9]* ticks, hash \([0-9a-f]\{16\}\) on [0-9]* workers ([1-9][0-9]* tasks), \1 on one thread$' &&
    echo "$out" | grep -q '^jobs: same results$' ||
    fail "unexpected output from the $kind jobs example"
}

# static: this build's libraries
cmake --install "$build" --prefix "$tmp/static" >/dev/null
for f in "$tmp/static/include"/*; do
  [ "$f" = "$tmp/static/include/cairn" ] || fail "a header outside include/cairn/: $f"
done
consumers "$tmp/static" static

# shared: the libraries alone (no tools, tests or benchmarks: CMake and a
# C compiler), built shared
cmake -S "$src" -B "$tmp/shared-build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DCAIRN_TOOLS=OFF -DCAIRN_TESTS=OFF -DCAIRN_BENCH=OFF >/dev/null
cmake --build "$tmp/shared-build" -j "$(nproc)" >/dev/null
cmake --install "$tmp/shared-build" --prefix "$tmp/shared" >/dev/null
n=0
for lib in $(find "$tmp/shared" -name 'libcairn_*.so.*.*.*'); do
  n=$((n + 1))
  name=$(basename "$lib")
  internal=$(nm -D --defined-only "$lib" | awk '$3 ~ /^cairn__/' | wc -l)
  public=$(nm -D --defined-only "$lib" | awk '$3 ~ /^cairn_/' | wc -l)
  soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
  echo "shared: $name exports $public cairn_ symbols and $internal internal ones, SONAME $soname"
  [ "$internal" -eq 0 ] || fail "$name exports internal symbols"
  echo "$soname" | grep -q '^libcairn_[a-z]*\.so\.[0-9]' || fail "$name: no versioned SONAME"
done
[ "$n" -eq 4 ] || fail "expected 4 shared libraries, found $n"
consumers "$tmp/shared" shared
