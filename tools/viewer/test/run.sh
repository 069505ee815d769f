#!/bin/sh
# ctest entry: records a short horde run and checks the viewer on it in
# headless Chromium (viewer_test.mjs). Skips (exit 77) only when chromium or
# node is missing (tools/setup.sh installs both on Debian 12).
# usage: run.sh CAIRN
set -eu
cairn=$1
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x /usr/bin/chromium ] || ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "viewer test skipped: needs /usr/bin/chromium, node and npm (tools/setup.sh installs them)"
  exit 77
fi
[ -d "$here/node_modules/playwright-core" ] || (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cairn" horde --agents 200 --ticks 100 --replay "$tmp/night.rpl" --every 10 --json >/dev/null
node "$here/viewer_test.mjs" "$tmp/night.rpl"
