#!/bin/sh
# Installs what cairn needs on Debian 12 (if missing), then configures and
# builds it. Sourced by demo.sh and test.sh; usable alone:
#   tools/setup.sh [BUILD_DIR] [extra cmake arguments...]
set -eu

cairn_root=$(cd "$(dirname "$0")/.." && pwd)
# what the demo needs (demo.sh installs this set instead): CMake, a C
# compiler, make and libpng for the pictures
cairn_demo_packages="cmake gcc libc6-dev make libpng-dev"
# everything, for the tests and the bench (test.sh)
cairn_packages="cmake gcc g++ make pkg-config libcmocka-dev libbenchmark-dev libpng-dev"
# the replay viewer's browser test (tools/viewer/test): headless Chromium
# driven through chromedriver by python3's selenium
cairn_packages="$cairn_packages chromium chromium-driver python3-selenium"

cairn_install_missing() {
  missing=""
  for p in $cairn_packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "cairn: installing$missing" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  # a fresh machine may have no package lists yet
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}

cairn_build() {
  dir=$1
  shift
  cmake -S "$cairn_root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$(nproc)" >/dev/null
}

if [ "$(basename "$0")" = "setup.sh" ]; then
  cairn_install_missing
  dir=${1:-"$cairn_root/build"}
  [ $# -gt 0 ] && shift
  cairn_build "$dir" "$@"
  echo "cairn: built in $dir" >&2
fi
