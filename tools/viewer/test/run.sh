#!/bin/sh
# ctest entry: records a short horde run and a march into a temporary folder
# and checks the viewer on them in headless Chromium (viewer_test.py, through
# Selenium and chromedriver). Debian 12 packages only, no network, nothing written into the
# source tree. Skips (exit 77) only when chromium, chromedriver or python3's
# selenium is missing (tools/setup.sh installs chromium, chromium-driver and
# python3-selenium).
# usage: run.sh CAIRN
set -eu
cairn=$1
here=$(cd "$(dirname "$0")" && pwd)
# Debian's python3-selenium lives in /usr/bin/python3's dist-packages; a
# python3 earlier on the PATH (a virtualenv, pyenv) may lack it
py=""
for p in /usr/bin/python3 "$(command -v python3 || true)"; do
  if [ -n "$p" ] && [ -x "$p" ] && "$p" -c 'import selenium' 2>/dev/null; then
    py=$p
    break
  fi
done
if [ ! -x /usr/bin/chromium ] || ! command -v chromedriver >/dev/null || [ -z "$py" ]; then
  echo "viewer test skipped: needs /usr/bin/chromium, chromedriver and python3's selenium" \
       "(Debian: chromium chromium-driver python3-selenium; tools/setup.sh installs them)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cairn" horde --agents 200 --ticks 100 --replay "$tmp/night.rpl" --every 10 --json >"$tmp/night.json"
"$cairn" march --map "$here/../../../maps/outskirts.map" --groups 3 --units 8 \
  --replay "$tmp/march.rpl" --every 5 --json >"$tmp/march.json"
# -B: no __pycache__ beside the script; TMPDIR: chromedriver's profile and
# Chromium's scratch folders go with $tmp
TMPDIR=$tmp "$py" -B "$here/viewer_test.py" "$tmp/night.rpl" "$tmp/night.json" \
  "$tmp/march.rpl" "$tmp/march.json"
