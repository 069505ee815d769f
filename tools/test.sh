#!/bin/sh
# Every test: installs what is missing, builds with warnings as errors, runs
# the whole ctest suite (unit tests, the Moving AI suite when ../shared is
# there, the CLI checks and the install/consumer check).
set -eu
. "$(dirname "$0")/setup.sh"
cairn_install_missing
dir="$cairn_root/build-test"
cairn_build "$dir" -DCAIRN_WERROR=ON
ctest --test-dir "$dir" -j "$(nproc)" --output-on-failure --timeout 600
