#!/bin/sh
# Installs the build into a scratch prefix, then builds and runs the
# consumer example against it twice: through find_package(cairn) and through
# pkg-config.  usage: install_test.sh BUILD_DIR SOURCE_DIR
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
