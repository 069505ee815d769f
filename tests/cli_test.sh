#!/bin/sh
# Checks the cairn CLI: outputs, messages and exit codes.
# usage: cli_test.sh CAIRN SOURCE_DIR MOVINGAI_DIR
set -u
cairn=$1
src=$2
mai=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect CODE PATTERN CMD...: runs CMD, wants exit CODE and PATTERN (grep -E)
# somewhere in its stdout+stderr.
expect() {
  code=$1
  pattern=$2
  shift 2
  "$@" >"$tmp/out" 2>&1
  got=$?
  if [ "$got" -ne "$code" ] || ! grep -Eq -- "$pattern" "$tmp/out"; then
    echo "FAIL: $* -> exit $got (want $code), output:" >&2
    sed 's/^/    /' "$tmp/out" >&2
    echo "    (wanted /$pattern/)" >&2
    fails=$((fails + 1))
  fi
}

map="$src/maps/outskirts.map"
printf 'type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n' >"$tmp/split.map"
printf 'type octile\nheight 3\nwidth 5\nmap\n.....\n.....\n' >"$tmp/short.map"
printf 'type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n' >"$tmp/badchar.map"
printf 'type octile\nheight 100000\nwidth 100000\nmap\n' >"$tmp/huge.map"

# usage errors: exit 2
expect 2 "usage" "$cairn"
expect 2 "unknown command" "$cairn" fly
expect 2 "needs --map" "$cairn" path --from 1,1 --to 2,2
expect 2 "not X,Y" "$cairn" path --map "$map" --from 1x1 --to 2,2
expect 2 "4 or 8" "$cairn" path --map "$map" --from 1,1 --to 2,2 --moves 6
expect 2 "weight" "$cairn" path --map "$map" --from 1,1 --to 2,2 --weight 0.5
expect 2 "unknown option" "$cairn" path --map "$map" --from 1,1 --to 2,2 --fast
expect 2 "CHAR=COST" "$cairn" path --map "$map" --from 1,1 --to 2,2 --terrain S=300
expect 2 "needs a FILE.scen" "$cairn" scen
expect 0 "usage: cairn" "$cairn" --help

# bad input files and coordinates: exit 3, with FILE:LINE: problem
expect 3 "nothere.map.*cannot open" "$cairn" path --map "$tmp/nothere.map" --from 0,0 --to 1,1
expect 3 "short.map:[0-9]+:" "$cairn" info --map "$tmp/short.map"
expect 3 "badchar.map:6:" "$cairn" info --map "$tmp/badchar.map"
expect 3 "huge.map:[0-9]+:" "$cairn" info --map "$tmp/huge.map"
expect 3 "outside the map" "$cairn" path --map "$tmp/split.map" --from 7,0 --to 0,0
expect 3 "outside the map" "$cairn" path --map "$tmp/split.map" --from -1,0 --to 0,0
expect 3 "blocked cell" "$cairn" path --map "$tmp/split.map" --from 2,1 --to 0,0

# answers: "no path" is a result, exit 0
expect 0 '"found":false' "$cairn" path --map "$tmp/split.map" --from 0,0 --to 4,2 --json
expect 0 '"found":true,"cost":2.000000,"steps":2' \
  "$cairn" path --map "$tmp/split.map" --from 0,0 --to 0,2 --json
expect 0 '"found":true,"cost":4.000000,"steps":2,' \
  "$cairn" path --map "$tmp/split.map" --from 0,0 --to 0,2 --json --moves 4 --algo dijkstra --terrain .=2
expect 0 "result +found" "$cairn" path --map "$map" --from 5,30 --to 102,30 --draw --smooth
expect 0 '"smoothed":\[\[' "$cairn" path --map "$map" --from 5,30 --to 102,30 --smooth --json
expect 0 "components +2" "$cairn" info --map "$tmp/split.map"
expect 0 '"passable":12,"components":2' "$cairn" info --map "$tmp/split.map" --json

# scenario files
printf 'version 1\n0\tsplit.map\t5\t3\t0\t0\t1\t2\t2.41421356\n' >"$tmp/split.map.scen"
expect 0 '"scenarios":1,"solved":1,"skipped":0,"unreachable":0,"invalid":0,"mismatch":0' \
  "$cairn" scen "$tmp/split.map.scen" --json
printf 'version 1\n0\tsplit.map\t5\t3\t0\t0\t1\t2\t3.0\n' >"$tmp/wrong.map.scen"
cp "$tmp/split.map" "$tmp/wrong.map"
sed -i 's/split.map/wrong.map/' "$tmp/wrong.map.scen"
expect 1 '"mismatch":1' "$cairn" scen "$tmp/wrong.map.scen" --json
printf 'version 1\n0\tsplit.map\t6\t3\t0\t0\t1\t2\t2.41421356\n' >"$tmp/size.map.scen"
sed -i 's/split.map/split.map/' "$tmp/size.map.scen"
expect 3 "size.map.scen:2:.*5x3" "$cairn" scen "$tmp/size.map.scen" --map "$tmp/split.map"
printf 'version 1\n0\tsplit.map\t5\t3\t0\t0\tone\t2\t2.4\n' >"$tmp/nan.map.scen"
expect 3 "nan.map.scen:2:" "$cairn" scen "$tmp/nan.map.scen" --map "$tmp/split.map"
expect 3 "missing.map.*cannot open" "$cairn" scen "$tmp/split.map.scen" --map "$tmp/missing.map"
printf 'version 1\n0\tmaps/ghost.map\t5\t3\t0\t0\t1\t2\t2.4\n' >"$tmp/ghost.map.scen"
expect 3 "map 'ghost.map' not found beside it" "$cairn" scen "$tmp/ghost.map.scen"
printf 'version 2\n' >"$tmp/v2.map.scen"
expect 3 "v2.map.scen:1:" "$cairn" scen "$tmp/v2.map.scen" --map "$tmp/split.map"

if [ -f "$mai/scen/arena.map.scen" ]; then
  expect 0 '"scenarios":160,"solved":160,"skipped":0,"unreachable":0,"invalid":0,"mismatch":0' \
    "$cairn" scen "$mai/scen/arena.map.scen" --json
  expect 0 "total +160 +160" "$cairn" scen "$mai/scen/arena.map.scen" --csv "$tmp/arena.csv"
  head -n 1 "$tmp/arena.csv" | grep -qx "id,bucket,sx,sy,gx,gy,optimal,cost,expanded,us,valid" ||
    { echo "FAIL: csv header" >&2; fails=$((fails + 1)); }
  [ "$(wc -l <"$tmp/arena.csv")" -eq 161 ] || { echo "FAIL: csv rows" >&2; fails=$((fails + 1)); }
  expect 0 '"skipped":3' "$cairn" scen "$mai/scen/icecrown.map.scen" --json
  expect 0 '"algo":"dijkstra".*"mismatch":0' "$cairn" scen "$mai/scen/arena.map.scen" --json --algo dijkstra
  expect 0 '"algo":"astar","weight":2' "$cairn" scen "$mai/scen/arena.map.scen" --json --weight 2
else
  echo "skipped the Moving AI checks: $mai is absent"
fi

[ "$fails" -eq 0 ] && echo "cli: all checks passed"
exit "$fails"
