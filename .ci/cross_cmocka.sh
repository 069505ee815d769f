#!/bin/sh
# .ci/cross_cmocka.sh TOOLCHAIN PREFIX: cmocka for a cross target (the unit
# tests of the MinGW and aarch64 builds), built with TOOLCHAIN from Debian's
# own source package and installed into PREFIX as a static library only, so
# the tests need no cmocka at run time under the emulator. Nothing is
# written into the source tree; a PREFIX that has it already is left alone.
set -eu
toolchain=$1
prefix=$2
[ -f "$prefix/lib/pkgconfig/cmocka.pc" ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
if ! apt-get source --download-only cmocka >/dev/null 2>&1; then
  # the source lists: a deb-src entry beside Debian's binary one
  printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" \
    "Suites: bookworm" "Components: main" \
    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
    $sudo tee /etc/apt/sources.list.d/cairn-deb-src.sources >/dev/null
  $sudo apt-get update -qq
  apt-get source --download-only cmocka >/dev/null 2>&1
fi
tar xf cmocka_*.orig.tar.xz
cmake -S cmocka-*/ -B build --toolchain "$toolchain" -DCMAKE_BUILD_TYPE=Release \
  -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF -DWITH_STATIC_LIB=ON \
  -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
cmake --install build >/dev/null
# -lcmocka (its pkg-config file) then finds the static archive
rm -f "$prefix"/lib/libcmocka.so* "$prefix"/lib/libcmocka.dll.a "$prefix"/bin/cmocka.dll
mv "$prefix/lib/libcmocka-static.a" "$prefix/lib/libcmocka.a"
