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

# path_ok MAP FROM TO ARGS...: runs cairn path --json with ARGS, then checks
# the path on its own (Moving AI rules: . G S passable at cost 1, steps to
# one of the 8 neighbours, no corner cut, right endpoints), recomputes its
# cost and wants it to be the printed cost and no less than the optimum
# (plain cairn path's).
# Prints "valid COST" or the problem; exits non-zero on any problem.
path_ok() {
  pm=$1 pf=$2 pt=$3
  shift 3
  "$cairn" path --map "$pm" --from "$pf" --to "$pt" --json "$@" >"$tmp/json" || return
  "$cairn" path --map "$pm" --from "$pf" --to "$pt" --json >"$tmp/opt.json" || return
  cat "$tmp/json"
  awk -v from="$pf" -v to="$pt" -v jf="$tmp/json" -v of="$tmp/opt.json" '
    function cost_of(line) {
      return match(line, /"cost":[0-9.]+/) ? substr(line, RSTART + 7, RLENGTH - 7) + 0 : -1
    }
    function open_cell(x, y) {
      return x >= 0 && y >= 0 && x < w && y < h && index(".GS", substr(row[y], x + 1, 1)) > 0
    }
    function bad(why) { print "invalid: " why; exit 1 }
    NR > 4 { row[NR - 5] = $0 }
    $1 == "height" { h = $2 }
    $1 == "width" { w = $2 }
    END {
      getline line < jf
      getline opt < of
      if (!match(line, /"path":\[[][0-9,-]*\]/)) bad("no path in the output")
      pts = substr(line, RSTART + 9, RLENGTH - 10)
      gsub(/[][]/, "", pts)
      n = split(pts, c, ",") / 2
      if (n < 1) bad("empty path")
      if (c[1] "," c[2] != from) bad("starts at " c[1] "," c[2])
      if (c[2 * n - 1] "," c[2 * n] != to) bad("ends at " c[2 * n - 1] "," c[2 * n])
      len = 0
      for (i = 1; i <= n; i++) {
        x = c[2 * i - 1] + 0; y = c[2 * i] + 0
        if (!open_cell(x, y)) bad("point " i - 1 " (" x "," y ") is not passable")
        if (i > 1) {
          dx = x - px; dy = y - py
          if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0))
            bad("point " i - 1 " is no step from the one before")
          if (dx && dy && (!open_cell(px + dx, py) || !open_cell(px, py + dy)))
            bad("point " i - 1 " cuts a corner")
          len += dx && dy ? sqrt(2) : 1
        }
        px = x; py = y
      }
      cost = cost_of(line); best = cost_of(opt)
      # the core diagonal is sqrt 2 to 1.1e-6, the printed cost rounded to 1e-6
      tol = 2e-6 * len + 1e-5
      if (cost - len > tol || len - cost > tol) bad("cost " cost ", recomputed " len)
      if (cost < best - 1e-5) bad("cost " cost " below the optimum " best)
      printf "valid %.6f\n", cost
    }' "$pm"
}

# same_at_threads KEYS CMD...: runs CMD with --threads 1 and with --threads 2
# and wants the same "key":value pairs (KEYS, a grep -E of them, some found)
# in both outputs: results never depend on the thread count.
same_at_threads() {
  keys=$1
  shift
  "$@" --threads 1 >"$tmp/t1" 2>&1 && "$@" --threads 2 >"$tmp/t2" 2>&1 &&
    grep -Eo -- "$keys" "$tmp/t1" >"$tmp/k1" && grep -Eo -- "$keys" "$tmp/t2" >"$tmp/k2" &&
    cmp -s "$tmp/k1" "$tmp/k2" ||
    { echo "FAIL: $* differs at --threads 1 and 2 (or failed):" >&2
      sed 's/^/    1: /' "$tmp/t1" | head -n 5 >&2
      sed 's/^/    2: /' "$tmp/t2" | head -n 5 >&2
      fails=$((fails + 1)); }
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
expect 2 "--algo: 'bogus' is not astar, dijkstra, hpa, jps, jps\\+ or auto" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo bogus
expect 2 "--cluster: '3' is not an integer in 4..128" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo hpa --cluster 3
expect 2 "--cluster: '200' is not an integer in 4..128" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo hpa --cluster 200
expect 2 "--cluster needs a value" "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo hpa --cluster
expect 2 "--nearby: '-1' is not an integer" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo hpa --nearby -1
expect 2 "--weight does not apply to --algo hpa" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo hpa --weight 2
expect 2 "--weight does not apply to --algo hpa" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --weight 2 --algo hpa
expect 2 "--heuristic does not apply to --algo hpa" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo hpa --heuristic octile
expect 2 "--turn-penalty does not apply to --algo hpa" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo hpa --turn-penalty 1
expect 2 "--moves 4 does not apply to --algo hpa" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo hpa --moves 4
# --size: a one-cell gate passes size 1 and sends size 2 round, at the cost
# of size 1 on the map eroded for size 2 by hand; a footprint that does not
# fit is bad input, naming the cell and the size
printf 'type octile\nheight 12\nwidth 20\nmap\n' >"$tmp/gate.map"
printf '..........@.........\n' >"$tmp/gate_row"
for r in 0 1 2 3 4 5 6 7 8 9 10 11; do
  case $r in 2 | 10 | 11) printf '....................\n' ;; *) cat "$tmp/gate_row" ;; esac
done >>"$tmp/gate.map"
printf 'type octile\nheight 12\nwidth 20\nmap\n' >"$tmp/gate2.map"
for r in 0 1 2 3 4 5 6 7 8 9; do printf '.........@@........@\n'; done >>"$tmp/gate2.map"
printf '...................@\n@@@@@@@@@@@@@@@@@@@@\n' >>"$tmp/gate2.map"
expect 0 '"cost":15.000000' "$cairn" path --map "$tmp/gate.map" --from 2,2 --to 17,2 --json
expect 0 '"cost":23.970581' "$cairn" path --map "$tmp/gate.map" --from 2,2 --to 17,2 --size 2 --json
expect 0 '"cost":23.970581' "$cairn" path --map "$tmp/gate2.map" --from 2,2 --to 17,2 --json
expect 0 '"found":false' "$cairn" path --map "$tmp/gate.map" --from 2,2 --to 17,2 --size 3 --json
expect 3 "--from 9,2: a unit of size 2 does not fit there" \
  "$cairn" path --map "$tmp/gate.map" --from 9,2 --to 17,2 --size 2
# the hierarchy answers for the unit too (built for sizes up to --size):
# the way round, through the hierarchy (nearby 0), and none for size 3
expect 0 '"cost":23.970581,.*"plain":false,.*"max_size":2' \
  "$cairn" path --map "$tmp/gate.map" --from 2,2 --to 17,2 --size 2 --algo hpa --nearby 0 --json
expect 0 '"found":false' \
  "$cairn" path --map "$tmp/gate.map" --from 2,2 --to 17,2 --size 3 --algo hpa --nearby 0 --json
"$cairn" path --map "$tmp/gate.map" --from 2,2 --to 17,2 --algo hpa \
  --save-hierarchy "$tmp/gate1.hpa" >/dev/null
expect 3 "the hierarchy answers units up to size 1, not 2" \
  "$cairn" path --map "$tmp/gate.map" --from 2,2 --to 17,2 --size 2 --algo hpa \
  --load-hierarchy "$tmp/gate1.hpa"
# the unit's own line of sight pulls its path: round the wall's foot
expect 0 '"smoothed":\[\[2,2\],\[8,10\],\[11,10\],\[17,2\]\],"smoothed_length":23.000000' \
  "$cairn" path --map "$tmp/gate.map" --from 2,2 --to 17,2 --size 2 --smooth --json
expect 2 "--size: '9' is not an integer in 1..8" \
  "$cairn" path --map "$tmp/gate.map" --from 2,2 --to 17,2 --size 9
# scen --size: the row's cost for the unit, checked on the eroded map and
# not held against the file's optimal length (for one cell)
printf 'version 1\n0\tgate.map\t20\t12\t2\t2\t17\t2\t15\n0\tgate.map\t20\t12\t9\t2\t17\t2\t8\n' \
  >"$tmp/gate.map.scen"
expect 0 '"skipped":1,"unreachable":0,"invalid":0,"size":2,"mismatch":null,.*"mean_cost":23\.9705' \
  "$cairn" scen "$tmp/gate.map.scen" --size 2 --json
expect 0 '"mismatch":0,.*"mean_cost":11.500000' "$cairn" scen "$tmp/gate.map.scen" --json
for a in jps jps+; do
  expect 0 '"algo":"'"$(echo "$a" | sed 's/+/\\+/')"'",.*"invalid":0,.*"mismatch":0,.*"mean_cost":11.500000' \
    "$cairn" scen "$tmp/gate.map.scen" --algo "$a" --json
done
expect 0 '^\{"chosen":"jps\+",.*"algo":"auto",.*"mismatch":0' \
  "$cairn" scen "$tmp/gate.map.scen" --algo auto --json
# the gate's rows are short (jump point search expands a few jump points):
# auto takes no landmark table unless told, and no dead-end table, which
# would skip nothing its rows expand
expect 0 '^\{"chosen":"jps\+","chosen_landmarks":0,"chosen_dead_ends":false,' "$cairn" scen "$tmp/gate.map.scen" --algo auto --json
# a perfect maze of 12 x 12 rooms (a depth-first backtracker on the ZX81's
# generator, the same maze under every awk): without landmarks the
# dead-end table removes most of jump point search's expansions and auto
# takes it; with the landmarks auto picks for its rows they remove nearly
# all of them, and auto leaves the table out
awk 'BEGIN { n = 12; W = 2 * n + 1; r = 1
  for (y = 0; y < W; y++) for (x = 0; x < W; x++) m[x, y] = "@"
  sp = 1; sx[1] = 0; sy[1] = 0; seen[0, 0] = 1; m[1, 1] = "."
  while (sp > 0) { cx = sx[sp]; cy = sy[sp]; k = 0
    if (cx > 0 && !seen[cx - 1, cy]) { k++; ox[k] = -1; oy[k] = 0 }
    if (cx < n - 1 && !seen[cx + 1, cy]) { k++; ox[k] = 1; oy[k] = 0 }
    if (cy > 0 && !seen[cx, cy - 1]) { k++; ox[k] = 0; oy[k] = -1 }
    if (cy < n - 1 && !seen[cx, cy + 1]) { k++; ox[k] = 0; oy[k] = 1 }
    if (!k) { sp--; continue }
    r = (r * 75 + 74) % 65537; d = r % k + 1
    nx = cx + ox[d]; ny = cy + oy[d]; seen[nx, ny] = 1
    m[2 * cx + 1 + ox[d], 2 * cy + 1 + oy[d]] = "."; m[2 * nx + 1, 2 * ny + 1] = "."
    sp++; sx[sp] = nx; sy[sp] = ny }
  print "type octile"; print "height " W; print "width " W; print "map"
  for (y = 0; y < W; y++) { s = ""; for (x = 0; x < W; x++) s = s m[x, y]; print s } }' \
  >"$tmp/maze.map"
"$cairn" gen --kind scen --map "$tmp/maze.map" --rows 20 --out "$tmp/maze.map.scen" --seed 3 ||
  fails=$((fails + 1))
expect 0 '^\{"chosen":"jps\+","chosen_landmarks":0,"chosen_dead_ends":true,.*"invalid":0,.*"mismatch":0' \
  "$cairn" scen "$tmp/maze.map.scen" --algo auto --landmarks 0 --json
expect 0 '^\{"chosen":"jps\+","chosen_landmarks":16,"chosen_dead_ends":false,.*"invalid":0,.*"mismatch":0' \
  "$cairn" scen "$tmp/maze.map.scen" --algo auto --json
expect 0 '^\{"chosen":"jps\+","chosen_landmarks":16,"chosen_dead_ends":false,.*"mismatch":0' \
  "$cairn" scen "$tmp/gate.map.scen" --algo auto --landmarks 16 --dead-ends off --json
# a snake of 15 corridors joined at alternate ends: its rows cross it, 29
# or 30 jump points each, so auto takes 16 landmarks
awk 'BEGIN { print "type octile"; print "height 31"; print "width 41"; print "map"
  for (y = 0; y < 31; y++) { s = ""
    for (x = 0; x < 41; x++) { c = "."
      if (y % 2 == 0 && y > 0 && y < 30) { c = "@"; if ((y / 2) % 2 ? x == 39 : x == 1) c = "." }
      s = s c }
    print s } }' >"$tmp/snake.map"
printf 'version 1\n0\tsnake.map\t41\t31\t0\t0\t40\t30\t600.82842712\n0\tsnake.map\t41\t31\t40\t0\t0\t30\t524.82842712\n0\tsnake.map\t41\t31\t20\t0\t20\t30\t560.82842712\n' \
  >"$tmp/snake.map.scen"
expect 0 '^\{"chosen":"jps\+","chosen_landmarks":16,.*"invalid":0,.*"mismatch":0' \
  "$cairn" scen "$tmp/snake.map.scen" --algo auto --json
for a in astar jps jps+ auto; do
  expect 0 '"invalid":0,.*"mismatch":0,.*"mean_cost":11.500000' \
    "$cairn" scen "$tmp/gate.map.scen" --algo "$a" --dead-ends on --json
done
expect 0 '"algo":"hpa",.*"unreachable":0,"invalid":0' \
  "$cairn" scen "$tmp/gate.map.scen" --algo hpa --dead-ends on --json
expect 0 '^\{"chosen":"jps\+","chosen_landmarks":0,.*"mismatch":0' \
  "$cairn" scen "$tmp/gate.map.scen" --algo auto --landmarks 0 --json
# a grid landmark table for the exact searches: the same optima
for a in astar jps jps+; do
  expect 0 '"invalid":0,.*"mismatch":0,.*"mean_cost":11.500000' \
    "$cairn" scen "$tmp/gate.map.scen" --algo "$a" --landmarks 3 --json
done
expect 2 "--landmarks raises the octile heuristic of an exact search" \
  "$cairn" scen "$tmp/gate.map.scen" --algo dijkstra --landmarks 3
expect 2 "--landmarks raises the octile heuristic of an exact search" \
  "$cairn" scen "$tmp/gate.map.scen" --weight 2 --landmarks 3
expect 0 '^\{"chosen":"astar",.*"algo":"auto"' \
  "$cairn" scen "$tmp/gate.map.scen" --algo auto --size 2 --json
expect 2 "--algo jps\\+ takes neither --size nor --png" \
  "$cairn" scen "$tmp/gate.map.scen" --algo jps+ --size 2
# the hierarchy for the unit: suboptimality against A* for the unit
expect 0 '"invalid":0,"size":2,"mismatch":null,"mean_subopt_pct":0.000000,.*"max_size":2' \
  "$cairn" scen "$tmp/gate.map.scen" --size 2 --algo hpa --nearby 0 --json
expect 2 "--cluster needs --algo hpa" "$cairn" path --map "$map" --from 1,1 --to 2,2 --cluster 8
expect 2 "--nearby needs --algo hpa" \
  "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo dijkstra --nearby 0
expect 2 "--no-smooth needs --algo hpa" "$cairn" path --map "$map" --from 1,1 --to 2,2 --no-smooth
expect 2 "--landmarks" "$cairn" path --map "$map" --from 1,1 --to 2,2 --algo hpa --landmarks 17
expect 0 '"landmarks":0' "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --landmarks 0 --json
expect 0 '"landmarks":[1-9]' "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --json
# cost layers: an influence event on the straight way makes the walker go
# round (a longer base cost), off the map or malformed it is refused
expect 0 '"cost":101.727936,.*"base_cost":101.727936' "$cairn" path --map "$map" --from 5,30 --to 102,30 --json
expect 0 '"base_cost":108\.' "$cairn" path --map "$map" --from 5,30 --to 102,30 --influence 50,30,8,20 --json
expect 3 "--influence 500,30: coordinates outside the map" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --influence 500,30,8,20
expect 2 "is not X,Y,RADIUS,PENALTY" "$cairn" path --map "$map" --from 5,30 --to 102,30 --influence 50,30,8
# the hierarchy pays the same layer (cairn_hpa_set_layer) and goes round too
expect 0 '"base_cost":108\.' "$cairn" path --map "$map" --from 5,30 --to 102,30 --influence 50,30,8,20 --algo hpa --json
# claims (--claims FILE, a path per line): three units' claims on the
# straight way send a search round; beyond --claim-radius they are not
# counted; a flow field counts each claim on its cell; bad files name the
# line; the hierarchy refuses claims (they belong to one unit's search)
for u in 1 2 3; do
  for x in 40 45 50 55 60; do printf '%d,29 %d,30 %d,31 ' $x $x $x; done
  printf '\n'
done >"$tmp/claims.txt"
printf '# a comment, then a blank line\n\n50,30\n' >>"$tmp/claims.txt"
expect 0 '"base_cost":108\.' "$cairn" path --map "$map" --from 5,30 --to 102,30 --claims "$tmp/claims.txt" --claim-penalty 5 --json
expect 0 '"base_cost":101.727936' "$cairn" path --map "$map" --from 5,30 --to 102,30 --claims "$tmp/claims.txt" --claim-penalty 5 --claim-radius 10 --json
expect 0 '"check":"ok"' "$cairn" flow --map "$map" --to 102,30 --claims "$tmp/claims.txt" --claim-penalty 5 --json --check
printf '10,10 11,11\n12,12 x\n' >"$tmp/claims_bad.txt"
expect 3 "claims_bad.txt:2: a claimed cell is not X,Y" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --claims "$tmp/claims_bad.txt"
printf '10,10 500,3\n' >"$tmp/claims_off.txt"
expect 3 "claims_off.txt:1: cell 500,3 is outside the map" \
  "$cairn" flow --map "$map" --to 102,30 --claims "$tmp/claims_off.txt"
expect 3 "nothere.txt: cannot open" "$cairn" path --map "$map" --from 5,30 --to 102,30 --claims "$tmp/nothere.txt"
expect 2 "--claims does not apply to --algo hpa" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --claims "$tmp/claims.txt" --algo hpa
expect 2 "--claim-penalty" "$cairn" path --map "$map" --from 5,30 --to 102,30 --claim-penalty 2000
# a flow field under the same layer still passes its check against the
# core's layered Dijkstra, and costs more where the event lies
expect 0 '"max_cost":140.022003,"memory_bytes":[0-9]*,"check":"ok"' \
  "$cairn" flow --map "$map" --to 102,30 --json --check --influence 50,30,8,20
expect 3 "--influence 500,30: coordinates outside the map" \
  "$cairn" flow --map "$map" --to 102,30 --influence 500,30,8,20
expect 0 "usage: cairn" "$cairn" --help

# bad input files and coordinates: exit 3, with FILE:LINE: problem
expect 3 "nothere.map.*cannot open" "$cairn" path --map "$tmp/nothere.map" --from 0,0 --to 1,1
expect 3 "short.map:[0-9]+:" "$cairn" info --map "$tmp/short.map"
expect 3 "badchar.map:6:" "$cairn" info --map "$tmp/badchar.map"
expect 3 "huge.map:[0-9]+:" "$cairn" info --map "$tmp/huge.map"
expect 3 "outside the map" "$cairn" path --map "$tmp/split.map" --from 7,0 --to 0,0
expect 3 "outside the map" "$cairn" path --map "$tmp/split.map" --from -1,0 --to 0,0
expect 3 "blocked cell" "$cairn" path --map "$tmp/split.map" --from 2,1 --to 0,0
expect 3 "outside the map" "$cairn" path --map "$tmp/split.map" --from 0,0 --to 0,3 --algo hpa
expect 3 "--to 2,1 is a blocked cell" "$cairn" path --map "$tmp/split.map" --from 0,0 --to 2,1 --algo hpa
expect 3 "nothere.map.*cannot open" "$cairn" path --map "$tmp/nothere.map" --from 0,0 --to 1,1 --algo hpa

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

# dead ends: an alcove behind a one-cell gate that the heuristic points
# into; with the table the searches skip it, same cost, fewer expansions
printf 'type octile\nheight 7\nwidth 9\nmap\n.........\n.........\n@@@@.@@@.\n@@@...@@.\n@@@...@@.\n@@@@@@@@.\n.........\n' >"$tmp/alcove.map"
expect 0 "dead ends +22 areas behind 22 gates \(6 areas behind doors\), 32 cells" "$cairn" info --map "$tmp/alcove.map"
expect 0 '"dead_end_areas":22,"dead_end_gates":22,"dead_end_doors":6,"dead_end_cells":32,"dead_end_depth":16' \
  "$cairn" info --map "$tmp/alcove.map" --json
# swamps: a room of 70 x 68 cells (wider and taller than the longest
# door) with a door in each side wall holds one in each corner, a triangle
# behind a diagonal line that stops short of the doors (2180 cells in all)
row() { printf "$1"; i=0; while [ $i -lt "$3" ]; do printf "$2"; i=$((i + 1)); done; printf "$1\n"; }
{
  printf 'type octile\nheight 70\nwidth 72\nmap\n'
  row @ @ 70
  y=1; while [ $y -le 33 ]; do row @ . 70; y=$((y + 1)); done
  row . . 70
  row . . 70
  y=36; while [ $y -le 68 ]; do row @ . 70; y=$((y + 1)); done
  row @ @ 70
} >"$tmp/room.map"
expect 0 "swamps +4 room corners, 2180 cells" "$cairn" info --map "$tmp/room.map"
expect 0 '"swamps":4,"swamp_cells":2180' "$cairn" info --map "$tmp/room.map" --json
expect 0 "dead ends skipped" "$cairn" path --map "$tmp/alcove.map" --from 4,1 --to 4,6 --dead-ends on
expect 2 "--dead-ends on takes --algo astar" \
  "$cairn" path --map "$tmp/alcove.map" --from 4,1 --to 4,6 --dead-ends on --algo dijkstra
expect 0 "hpa, .*dead ends skipped" \
  "$cairn" path --map "$tmp/alcove.map" --from 4,1 --to 4,6 --dead-ends on --algo hpa --nearby 0
expect 2 "--dead-ends" "$cairn" path --map "$tmp/alcove.map" --from 4,1 --to 4,6 --dead-ends maybe
json_num() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" "$2"; }
for a in astar jps jps+; do
  "$cairn" path --map "$tmp/alcove.map" --from 4,1 --to 4,6 --algo $a --json >"$tmp/de.off" &&
    path_ok "$tmp/alcove.map" 4,1 4,6 --algo $a --dead-ends on >"$tmp/de.on" ||
    { echo "FAIL: dead ends $a: no valid path" >&2; fails=$((fails + 1)); continue; }
  # A* expands fewer; jump point search, which jumps past the alcove's
  # mouth anyway, no more
  fewer=$([ $a = astar ] && echo 1 || echo 0)
  if [ "$(json_num cost "$tmp/de.on")" != "$(json_num cost "$tmp/de.off")" ] ||
     [ "$(json_num expanded "$tmp/de.on")" -gt "$(($(json_num expanded "$tmp/de.off") - fewer))" ]; then
    echo "FAIL: dead ends $a: on $(cat "$tmp/de.on"), off $(cat "$tmp/de.off")" >&2
    fails=$((fails + 1))
  fi
done

# hierarchical paths: the stats, and paths checked on their own
hpa_keys='"preprocess_ms":[0-9.]+,"abstract_nodes":[0-9]+,"abstract_edges":[0-9]+,"memory_bytes":[0-9]+,"route_len":[0-9]+,"plain":(true|false)'
expect 0 "$hpa_keys" "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --json
expect 0 '"route_len":[1-9][0-9]*,"plain":false' \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --json
expect 0 '"route_len":0,"plain":true' "$cairn" path --map "$map" --from 5,30 --to 9,33 --algo hpa --json
# jump point search, scanning, with jump tables, and as auto picks it: A*'s
# cost, a valid path; auto takes A* where jump point search does not answer
optimum=$("$cairn" path --map "$map" --from 0,10 --to 100,50 --json |
  sed 's/.*"cost":\([0-9.]*\).*/\1/')
for a in jps jps+ auto; do
  expect 0 "^valid" path_ok "$map" 0,10 100,50 --algo "$a"
  expect 0 "\"cost\":$optimum," "$cairn" path --map "$map" --from 0,10 --to 100,50 --algo "$a" --json
done
expect 0 "search +jps\\+," "$cairn" path --map "$map" --from 0,10 --to 100,50 --algo auto
for a in astar jps jps+; do
  expect 0 "^valid" path_ok "$map" 0,10 100,50 --algo "$a" --landmarks 5
  expect 0 "\"cost\":$optimum," "$cairn" path --map "$map" --from 0,10 --to 100,50 --algo "$a" \
    --landmarks 5 --json
done
expect 0 "^valid" path_ok "$map" 0,10 100,50 --landmarks 5 --moves 4 --terrain S=3
expect 2 "--landmarks raises the octile heuristic" \
  "$cairn" path --map "$map" --from 0,10 --to 100,50 --landmarks 5 --heuristic manhattan
expect 2 "--landmarks raises the octile heuristic" \
  "$cairn" path --map "$map" --from 0,10 --to 100,50 --algo dijkstra --landmarks 5
expect 2 "--landmarks: '17' is not an integer in 0..16" \
  "$cairn" path --map "$map" --from 0,10 --to 100,50 --landmarks 17
expect 0 "search +astar," "$cairn" path --map "$map" --from 0,10 --to 100,50 --algo auto --moves 4
expect 0 "search +astar," "$cairn" path --map "$map" --from 0,10 --to 100,50 --algo auto --terrain S=3
expect 2 "--algo jps takes 8 moves" "$cairn" path --map "$map" --from 0,10 --to 100,50 --algo jps --moves 4
expect 2 "--algo jps\\+ takes 8 moves" "$cairn" path --map "$map" --from 0,10 --to 100,50 --algo jps+ --size 2
expect 3 "needs a map of one terrain cost, and this one has several" \
  "$cairn" path --map "$map" --from 0,10 --to 100,50 --algo jps --terrain S=3
expect 0 "^valid" path_ok "$map" 5,30 102,30 --algo hpa
expect 0 "^valid" path_ok "$map" 0,0 119,59 --algo hpa --cluster 8 --nearby 0
expect 0 "^valid" path_ok "$map" 119,0 5,58 --algo hpa --cluster 128 --no-smooth
expect 0 "^valid" path_ok "$map" 5,30 9,33 --algo hpa
expect 0 '"cluster":32,.*"smoothed":\[\[5,30\],.*\[102,30\]\],"smoothed_length":[0-9.]+}' \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --cluster 32 --smooth --json
expect 0 "hierarchy +[0-9]+ clusters, [0-9]+ nodes, [0-9]+ edges, .* MB, built in" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa
expect 0 "route +[0-9]+ abstract nodes" "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa
expect 0 "route +plain A\* answered" "$cairn" path --map "$map" --from 5,30 --to 9,33 --algo hpa
expect 0 "smoothed +[0-9]+ waypoints" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --smooth --draw --moves 8
expect 0 "S\**" "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --draw
expect 0 '"found":false,.*"route_len":0,"plain":false' \
  "$cairn" path --map "$tmp/split.map" --from 0,0 --to 4,2 --algo hpa --json
expect 0 '"found":true,"cost":4.000000,"steps":2,' \
  "$cairn" path --map "$tmp/split.map" --from 0,0 --to 0,2 --algo hpa --json --terrain .=2
# the hierarchy built on 1 and on 2 threads: the same graph, the same path
same_at_threads '"(cost|abstract_nodes|abstract_edges|route_len|level2_nodes)":[^,]*|"path":[][0-9,]*' \
  "$cairn" path --map "$map" --from 0,0 --to 119,59 --algo hpa --cluster 8 --json

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
  expect 0 '"invalid":0,.*"preprocess_ms":[0-9.]+,"abstract_nodes":[1-9][0-9]*,"abstract_edges":[1-9][0-9]*,"memory_bytes":[1-9][0-9]*' \
    "$cairn" scen "$mai/scen/arena.map.scen" --json --algo hpa
  expect 0 '"scenarios":160,"solved":160,"skipped":0,"unreachable":0,"invalid":0,' \
    "$cairn" scen "$mai/scen/arena.map.scen" --json --algo hpa --cluster 8 --nearby 0 --no-smooth
  # the longest row of brc202d (optimum 1005.74), through the hierarchy
  expect 0 "^valid" path_ok "$mai/maps/brc202d.map" 93,250 255,395 --algo hpa
  expect 0 "^valid" path_ok "$mai/maps/brc202d.map" 93,250 255,395 --algo hpa --cluster 64 --nearby 0
  expect 0 "$hpa_keys" "$cairn" path --map "$mai/maps/brc202d.map" --from 93,250 --to 255,395 --algo hpa --json --smooth
else
  echo "skipped the Moving AI checks: $mai is absent"
fi
# every row through hierarchies built on 1 and on 2 threads
scen_file=$tmp/split.map.scen
[ -f "$mai/scen/arena.map.scen" ] && scen_file=$mai/scen/arena.map.scen
same_at_threads '"(solved|invalid|mean_subopt_pct|max_subopt_pct|mean_expanded|abstract_nodes|abstract_edges)":[^,]*' \
  "$cairn" scen "$scen_file" --algo hpa --json

# flow: one field, its size, the check against Dijkstra
expect 2 "flow needs --map FILE --to" "$cairn" flow --map "$map"
expect 2 "flow needs --map FILE --to" "$cairn" flow --to 5,30
expect 2 "is not X,Y" "$cairn" flow --map "$map" --to "5,30;7"
expect 2 "unknown option" "$cairn" flow --map "$map" --to 5,30 --fast
expect 2 "4 or 8" "$cairn" flow --map "$map" --to 5,30 --moves 6
expect 3 "cairn: --to 500,30 is outside the map \\(120 x 60\\)" "$cairn" flow --map "$map" --to "5,30;500,30"
expect 3 "cairn: --to 1,0 is a blocked cell" "$cairn" flow --map "$map" --to 1,0
expect 3 "missing.map" "$cairn" flow --map "$tmp/missing.map" --to 1,1
expect 0 '^\{"cells":7200,"reachable":6261,"build_ms":[0-9.]+,"max_cost":[0-9.]+,"memory_bytes":[1-9][0-9]*\}$' \
  "$cairn" flow --map "$map" --to 5,30 --json
expect 0 '"reachable":6261,.*,"check":"ok"\}$' "$cairn" flow --map "$map" --to "5,30;102,30;60,2" --json --check
expect 0 "^check: ok$" "$cairn" flow --map "$map" --to 5,30 --check --terrain T=4 --terrain S=7
expect 0 "^check: ok$" "$cairn" flow --map "$map" --to "5,30;102,30" --check --moves 4 --threads 1
# --size: the field of a 2 x 2 unit on gate.map is the size-1 field of the
# map eroded for it by hand (gate2.map); a goal it does not fit on is refused
expect 0 '"reachable":189,"build_ms":[0-9.]+,"max_cost":26.799011,"memory_bytes":[0-9]+,"size":2,"check":"ok"' \
  "$cairn" flow --map "$tmp/gate.map" --to 17,2 --size 2 --json --check
expect 0 '"reachable":189,"build_ms":[0-9.]+,"max_cost":26.799011,' \
  "$cairn" flow --map "$tmp/gate2.map" --to 17,2 --json --check
expect 3 "cairn: --to 9,2: a unit of size 2 does not fit there" \
  "$cairn" flow --map "$tmp/gate.map" --to 9,2 --size 2
expect 2 "--size: '0' is not an integer in 1..8" "$cairn" flow --map "$tmp/gate.map" --to 17,2 --size 0
# the two halves of split.map: a goal on the left reaches the left only
expect 0 '"cells":15,"reachable":6,' "$cairn" flow --map "$tmp/split.map" --to 0,0 --json
# the row passes on 1 and on 2 threads: the same field (and it checks)
same_at_threads '"(cells|reachable|max_cost|check)":[^,}]*' \
  "$cairn" flow --map "$map" --to "5,30;102,30;60,2" --json --check
if [ -f "$mai/maps/arena.map" ]; then
  expect 0 '"reachable":2054,.*"check":"ok"' "$cairn" flow --map "$mai/maps/arena.map" --to 24,24 --json --check
  expect 0 "^check: ok$" "$cairn" flow --map "$mai/maps/brc202d.map" --to "93,250;255,395;400,100" --check
fi

# crowd: the night of the dead on the shipped settlement, and its map
expect 2 "unknown option" "$cairn" horde --fast
expect 2 "--agents" "$cairn" horde --agents 0
expect 3 "missing.map" "$cairn" horde --map "$tmp/missing.map"
expect 3 "no gates" "$cairn" horde --map "$map" --agents 10
expect 2 "outskirts, settlement, terrain or scen" "$cairn" gen --out "$tmp/x.map" --kind castle
# the shipped maps are what the generators make
"$cairn" gen --kind settlement --out "$tmp/settlement.map" &&
  cmp -s "$tmp/settlement.map" "$src/maps/settlement.map" ||
  { echo "FAIL: cairn gen --kind settlement differs from maps/settlement.map" >&2; fails=$((fails + 1)); }
"$cairn" gen --kind settlement --width 1024 --height 1024 --seed 1 --out "$tmp/s1024.map" &&
  cmp -s "$tmp/s1024.map" "$src/maps/settlement-1024.map" ||
  { echo "FAIL: cairn gen differs from maps/settlement-1024.map" >&2; fails=$((fails + 1)); }
"$cairn" gen --out "$tmp/outskirts.map" && cmp -s "$tmp/outskirts.map" "$src/maps/outskirts.map" ||
  { echo "FAIL: cairn gen differs from maps/outskirts.map" >&2; fails=$((fails + 1)); }
# gen --kind terrain and --kind scen (the terrain benchmark,
# bench/terrain.sh): the same seed the same bytes, another seed another
# map; walls kept with their characters, open cells open with costs 1..8
# ('.' or a digit), read back without --terrain; the rows' optimal costs
# met by A* and Dijkstra.
om="$src/maps/outskirts.map"
"$cairn" gen --kind terrain --from "$om" --seed 3 --out "$tmp/t1.map" &&
  "$cairn" gen --kind terrain --from "$om" --seed 3 --out "$tmp/t2.map" &&
  "$cairn" gen --kind terrain --from "$om" --seed 4 --out "$tmp/t3.map" &&
  cmp -s "$tmp/t1.map" "$tmp/t2.map" && ! cmp -s "$tmp/t1.map" "$tmp/t3.map" ||
  { echo "FAIL: gen --kind terrain: not the same map for a seed, or the same for another" >&2; fails=$((fails + 1)); }
awk 'NR == FNR { if (FNR > 4) src[FNR] = $0; next }
  FNR > 4 {
    if (length($0) != length(src[FNR])) { print "row " FNR " changed length"; exit 1 }
    for (i = 1; i <= length($0); i++) {
      a = substr(src[FNR], i, 1); b = substr($0, i, 1)
      if (index(".GS", a) ? !index(".2345678", b) : a != b) { print "row " FNR " col " i ": " a " -> " b; exit 1 }
    }
  }' "$om" "$tmp/t1.map" >"$tmp/out" 2>&1 ||
  { echo "FAIL: gen --kind terrain broke a wall or an open cell:" >&2; cat "$tmp/out" >&2; fails=$((fails + 1)); }
expect 0 " 8: [0-9]+" "$cairn" info --map "$tmp/t1.map"
"$cairn" gen --kind scen --map "$tmp/t1.map" --rows 300 --seed 1 --out "$tmp/t1.map.scen" &&
  "$cairn" gen --kind scen --map "$tmp/t1.map" --rows 300 --seed 1 --out "$tmp/t2.scen" &&
  cmp -s "$tmp/t1.map.scen" "$tmp/t2.scen" && head -1 "$tmp/t1.map.scen" | grep -qx "version 1" ||
  { echo "FAIL: gen --kind scen: no file, or not the same rows for a seed" >&2; fails=$((fails + 1)); }
expect 0 "^total +300 +300 +0 +0 +0 " "$cairn" scen "$tmp/t1.map.scen" --algo astar
expect 0 "^total +300 +300 +0 +0 +0 " "$cairn" scen "$tmp/t1.map.scen" --algo dijkstra
printf 'type octile\nheight 2\nwidth 3\nmap\n...\n' >"$tmp/short.map"
printf 'type octile\nheight 2\nwidth 3\nmap\n@@@\n@T@\n' >"$tmp/walls.map"
printf 'type octile\nheight 2\nwidth 3\nmap\n.@.\n@.@\n' >"$tmp/apart.map"
expect 3 "nowhere.map: cannot open" "$cairn" gen --kind terrain --from "$tmp/nowhere.map" --out "$tmp/x.map"
expect 3 "short.map:6: unexpected end of file" "$cairn" gen --kind terrain --from "$tmp/short.map" --out "$tmp/x.map"
expect 3 "walls.map: the map has no open cell" "$cairn" gen --kind terrain --from "$tmp/walls.map" --out "$tmp/x.map"
expect 1 "nowhere/x.map.*cannot" "$cairn" gen --kind terrain --from "$om" --out "$tmp/nowhere/x.map"
expect 2 "needs --from MAP.map" "$cairn" gen --kind terrain --out "$tmp/x.map"
expect 2 "--from is for --kind terrain" "$cairn" gen --from "$om" --out "$tmp/x.map"
expect 2 "--width and --height are for" "$cairn" gen --kind terrain --from "$om" --width 50 --out "$tmp/x.map"
expect 3 "nowhere.map: cannot open" "$cairn" gen --kind scen --map "$tmp/nowhere.map" --rows 5 --out "$tmp/x.scen"
expect 3 "short.map:6: unexpected end of file" "$cairn" gen --kind scen --map "$tmp/short.map" --rows 5 --out "$tmp/x.scen"
expect 3 "walls.map: no two open cells are connected" "$cairn" gen --kind scen --map "$tmp/walls.map" --rows 5 --out "$tmp/x.scen"
expect 3 "apart.map: no two open cells are connected" "$cairn" gen --kind scen --map "$tmp/apart.map" --rows 5 --out "$tmp/x.scen"
expect 2 "--rows: '0' is not an integer" "$cairn" gen --kind scen --map "$om" --rows 0 --out "$tmp/x.scen"
expect 2 "--rows: '99999999' is not an integer" "$cairn" gen --kind scen --map "$om" --rows 99999999 --out "$tmp/x.scen"
expect 2 "needs --map FILE.map and --rows N" "$cairn" gen --kind scen --map "$om" --out "$tmp/x.scen"
expect 2 "--map and --rows are for --kind scen" "$cairn" gen --rows 5 --out "$tmp/x.map"
expect 1 "nowhere/x.scen: cannot write" "$cairn" gen --kind scen --map "$om" --rows 5 --out "$tmp/nowhere/x.scen"
expect 0 '^\{"agents":300,"ticks":[0-9]+,"arrived":[0-9]+,"in_wall":0,"lost":0,"stuck":[0-9]+,"overlap_pct":[0-9.]+,"state_hash":"[0-9a-f]{16}","median_tick_ms":[0-9.]+,"p99_tick_ms":[0-9.]+,"agent_updates_per_s":[0-9]+,"gates":\[.*\],"arrived_by_gate":\[[0-9,]+\],"full_ticks":[0-9]+,"full_median_tick_ms":([0-9.]+|null),"t50":null,"t90":null,"t100":null,"max_queue":[0-9]+\}$' \
  "$cairn" horde --agents 300 --ticks 200 --json
expect 0 '"t50":[0-9]+,"t90":[0-9]+,"t100":[0-9]+,"max_queue":[1-9][0-9]*\}$' \
  "$cairn" horde --agents 300 --ticks 3000 --json
expect 0 "^arrivals    50 % after tick [0-9]+, 90 % after tick [0-9]+, all after tick [0-9]+$" \
  "$cairn" horde --agents 300 --ticks 3000
expect 0 "^state hash  [0-9a-f]{16}$" "$cairn" horde --agents 100 --ticks 50
# the bar: 10,000 undead, every one at a gate by tick 4300 of the night's
# 6000 (the run stops when the last arrives; the congestion layer spreads
# them), never in a wall, none lost, overlap at most 5 %, the same state at
# 1 and 2 threads
"$cairn" horde --json --threads 1 >"$tmp/h1.json" 2>&1
"$cairn" horde --json --threads 2 >"$tmp/h2.json" 2>&1
for f in "$tmp/h1.json" "$tmp/h2.json"; do
  awk -F'[:,]' '{ gsub(/[{}]/, ""); for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
    END { ok = v["\"agents\""] == 10000 && v["\"in_wall\""] == 0 && v["\"lost\""] == 0 &&
                v["\"overlap_pct\""] <= 5 && v["\"arrived\""] == 10000 && v["\"ticks\""] <= 4300 &&
                v["\"t50\""] <= v["\"t90\""] && v["\"t90\""] <= v["\"t100\""] &&
                v["\"t100\""] == v["\"ticks\""]
          exit !ok }' "$f" ||
    { echo "FAIL: the horde bar:" >&2; cat "$f" >&2; fails=$((fails + 1)); }
done
h1=$(sed 's/.*"state_hash":"\([0-9a-f]*\)".*/\1/' "$tmp/h1.json")
h2=$(sed 's/.*"state_hash":"\([0-9a-f]*\)".*/\1/' "$tmp/h2.json")
[ -n "$h1" ] && [ "$h1" = "$h2" ] ||
  { echo "FAIL: horde state hash differs at 1 and 2 threads ($h1, $h2)" >&2; fails=$((fails + 1)); }
# every arrival counted at one gate, eight gates, each taking at least half
# the mean share (625)
by_gate=$(sed 's/.*"arrived_by_gate":\[\([0-9,]*\)\].*/\1/' "$tmp/h1.json")
echo "$by_gate" | awk -F, '{ s = 0; low = 10000; for (i = 1; i <= NF; i++) { s += $i; if ($i < low) low = $i }
    exit !(NF == 8 && s == 10000 && low >= 625) }' ||
  { echo "FAIL: arrived_by_gate ($by_gate): not 10000 over 8 gates of 625 or more" >&2; fails=$((fails + 1)); }
# the congestion layer: off by an option, its settings checked; a save
# records it, so a load with other settings is refused
expect 0 "^state hash  [0-9a-f]{16}$" "$cairn" horde --agents 100 --ticks 50 --density off
expect 2 "--density: 'maybe'" "$cairn" horde --agents 10 --density maybe
expect 2 "--density-gain" "$cairn" horde --agents 10 --density-gain 0
expect 2 "--density-ticks" "$cairn" horde --agents 10 --density-ticks 0
"$cairn" horde --agents 300 --ticks 40 --save "$tmp/dense.crowd" >/dev/null 2>&1
expect 3 "dense.crowd: made for another crowd: density_gain differs" \
  "$cairn" horde --load "$tmp/dense.crowd" --ticks 50 --density off
# 100,000 undead out of the box: the 1024 x 1024 settlement, none in a wall
# or lost
"$cairn" horde --agents 100000 --ticks 300 --json >"$tmp/h100k.json" 2>&1 &&
  grep -q '"agents":100000,"ticks":300,.*"in_wall":0,"lost":0,' "$tmp/h100k.json" ||
  { echo "FAIL: horde --agents 100000:" >&2; cat "$tmp/h100k.json" >&2; fails=$((fails + 1)); }

# march: groups across a Moving AI map through the path queue
expect 2 "march needs --map FILE --groups G --units N" "$cairn" march --map "$map"
expect 2 "--groups" "$cairn" march --map "$map" --groups 0 --units 3
if [ -f "$mai/maps/Berlin_0_256.map" ]; then
  expect 0 '"in_wall":0,"lost":0,.*"max_tick_nodes":([0-9]|[1-9][0-9]{1,2}|1[0-9]{3}|2000),"queue_wait_ticks_p99":[0-9]+,"plan_ms":' \
    "$cairn" march --map "$mai/maps/Berlin_0_256.map" --groups 6 --units 20 --budget 2000 --ticks 400 --algo astar --json
  # --arrive stay: 300 units sent to one point form a cluster, not a stack:
  # all arrived, overlap at most 5 %, none in a wall, the same at 1 and 2 threads
  expect 0 '"arrived":300,"in_wall":0,"lost":0,"stuck":0,"overlap_pct":([0-4]\.[0-9]+|5\.000),' \
    "$cairn" march --map "$mai/maps/Berlin_0_256.map" --groups 1 --units 300 --arrive stay --json
  same_at_threads '"(ticks|arrived|overlap_pct|state_hash)":[^,]*' \
    "$cairn" march --map "$mai/maps/Berlin_0_256.map" --groups 1 --units 300 --arrive stay --json
fi
expect 2 "--arrive must be stop, leave or stay" "$cairn" march --map "$map" --groups 1 --units 3 --arrive sit
expect 3 "--goal 2,0 is off the map, blocked" "$cairn" march --map "$tmp/split.map" --groups 1 --units 1 --goal 2,0
expect 0 '"arrived":3,' "$cairn" march --map "$tmp/split.map" --groups 1 --units 3 --goal 0,2 --arrive leave --json
# the tick, and the hierarchy march builds, on 1 and on 2 threads: the same state
same_at_threads '"(ticks|arrived|stuck|state_hash|max_tick_nodes)":[^,]*' \
  "$cairn" march --map "$map" --groups 4 --units 12 --ticks 400 --algo hpa --json
# --sizes 1,2 on maps/keep.map, whose short way in is a one-cell postern: the
# groups of 2 x 2 units go round by the main gate (they walk further than
# the small ones), every unit arrives, no disc ever touches a wall's
# inside, and 1 and 2 threads give the same state
keep="$src/maps/keep.map"
same_at_threads '"(ticks|arrived|in_wall|state_hash|by_size)":("[^"]*"|[^,]*|\[[^]]*\])' \
  "$cairn" march --map "$keep" --groups 4 --units 6 --sizes 1,2 --from 30,9 --goal 55,9 --json
expect 0 '"arrived":24,"in_wall":0,.*"by_size":\[\{"size":1,"units":12,"arrived":12,"mean_walk":[23][0-9]\.[0-9]+\},\{"size":2,"units":12,"arrived":12,"mean_walk":[56][0-9]\.[0-9]+\}\]' \
  "$cairn" march --map "$keep" --groups 4 --units 6 --sizes 1,2 --from 30,9 --goal 55,9 --json
# over a hierarchy answering both sizes: the same routes, the same state at 1 and 2 threads
same_at_threads '"(ticks|arrived|in_wall|state_hash|by_size)":("[^"]*"|[^,]*|\[[^]]*\])' \
  "$cairn" march --map "$keep" --groups 4 --units 6 --sizes 1,2 --from 30,9 --goal 55,9 --algo hpa --json
expect 0 '"arrived":24,"in_wall":0,.*"by_size":\[\{"size":1,"units":12,"arrived":12,"mean_walk":[23][0-9]\.[0-9]+\},\{"size":2,"units":12,"arrived":12,"mean_walk":[56][0-9]\.[0-9]+\}\]' \
  "$cairn" march --map "$keep" --groups 4 --units 6 --sizes 1,2 --from 30,9 --goal 55,9 --algo hpa --json
# --algo auto: the crowd picks each group's way (cairn_crowd_plan); every
# unit arrives, the same at 1 and 2 threads
same_at_threads '"(ticks|arrived|in_wall|state_hash|by_size)":("[^"]*"|[^,]*|\[[^]]*\])' \
  "$cairn" march --map "$keep" --groups 4 --units 6 --sizes 1,2 --from 30,9 --goal 55,9 --algo auto --json
expect 0 '"arrived":24,"in_wall":0,' \
  "$cairn" march --map "$keep" --groups 4 --units 6 --sizes 1,2 --from 30,9 --goal 55,9 --algo auto --json
# --mix: groups of 1 to 8 units, gathered and scattered, near and far;
# each way of sending them is deterministic, and the summary gives the
# time spent planning (and the hierarchy's build where one is built)
for algo in auto astar field; do
  same_at_threads '"(ticks|arrived|in_wall|state_hash)":("[^"]*"|[^,]*)' \
    "$cairn" march --map "$keep" --groups 8 --units 8 --mix --algo $algo --ticks 600 --json
done
expect 0 '"plan_ms":[0-9]+\.[0-9]{3},"orders_plan_ms":[0-9]+\.[0-9]{3},"hierarchy_ms":[0-9]+\.[0-9]{3}' \
  "$cairn" march --map "$keep" --groups 8 --units 8 --mix --ticks 600 --json
expect 0 'planning    [0-9.]+ ms \(searches and fields\), [0-9.]+ ms of it before the queue first emptied$' \
  "$cairn" march --map "$keep" --groups 8 --units 8 --mix --algo field --ticks 600
expect 2 "--algo must be auto, astar, hpa or field, not 'jps'" "$cairn" march --map "$keep" --groups 1 --units 2 --algo jps
expect 3 "cairn: --goal 50,9: a unit of size 2 does not fit there" \
  "$cairn" march --map "$keep" --groups 2 --units 2 --sizes 1,2 --goal 50,9
expect 2 "--sizes: '5' is not an integer in 1..4" "$cairn" march --map "$keep" --groups 2 --units 2 --sizes 1,5
expect 2 "--sizes: '1,,2' is not a list" "$cairn" march --map "$keep" --groups 2 --units 2 --sizes 1,,2
# horde --size 2: giants spawn where they fit, take the gates they fit
# through, none in a wall
expect 0 '"agents":300,"ticks":[0-9]+,"arrived":300,"in_wall":0,"lost":0,' \
  "$cairn" horde --agents 300 --size 2 --ticks 3000 --json
expect 2 "--size: '5' is not an integer in 1..4" "$cairn" horde --agents 3 --size 5

# --save and --load: a run saved at tick 600 and resumed (--ticks counting
# from the start, the setup from the file) gives at tick 1,200 the state
# of the run never stopped; a damaged file exits 3 naming it
# crowd-bench: the standard avoidance scenarios, small; all arrive, none
# in a wall, the same run at 1 and 2 threads; the door's flow measured
expect 2 "crowd-bench needs --scenario" "$cairn" crowd-bench
expect 2 "--scenario must be circle, crossing or bottleneck, not 'square'" \
  "$cairn" crowd-bench --scenario square
expect 2 "the circle holds at most 1256" "$cairn" crowd-bench --scenario circle --agents 5000
for sc in circle crossing bottleneck; do
  for av in orca steer; do
    expect 0 '^\{"scenario":"'$sc'","agents":120,"ticks":[0-9]+,"arrived":120,"t50":[0-9]+,"t90":[0-9]+,"t100":[0-9]+,"overlap_pct":[0-9.]+,"min_sep":[0-9.]+,"stuck":0,"mean_speed_ratio":0\.[0-9]+,"in_wall":0,"lost":0,' \
      "$cairn" crowd-bench --scenario $sc --agents 120 --json --threads 1 --avoid $av
  done
done
# ORCA (the default) keeps the discs of the open scenarios apart
expect 0 '"min_sep":(0\.[6-9]|1\.)' "$cairn" crowd-bench --scenario circle --agents 120 --json
expect 0 '"min_sep":(0\.[8-9]|1\.)' "$cairn" crowd-bench --scenario crossing --agents 120 --json
expect 2 "--avoid must be steer or orca, not 'rvo'" "$cairn" crowd-bench --scenario circle --avoid rvo
expect 2 "--horizon" "$cairn" crowd-bench --scenario circle --horizon 0
expect 2 "--orca-neighbours" "$cairn" crowd-bench --scenario circle --orca-neighbours 65
expect 0 '"flow":[0-9]+\.[0-9]+,' "$cairn" crowd-bench --scenario bottleneck --agents 120 --json
"$cairn" crowd-bench --scenario crossing --agents 200 --json --threads 1 >"$tmp/cb1.json" 2>&1
"$cairn" crowd-bench --scenario crossing --agents 200 --json --threads 2 >"$tmp/cb2.json" 2>&1
# all but the tick's time
sed -i 's/"median_tick_ms":[0-9.]*,//' "$tmp/cb1.json" "$tmp/cb2.json"
cmp -s "$tmp/cb1.json" "$tmp/cb2.json" && grep -q '"arrived":200' "$tmp/cb1.json" ||
  { echo "FAIL: crowd-bench differs at 1 and 2 threads:" >&2; cat "$tmp/cb1.json" "$tmp/cb2.json" >&2; fails=$((fails + 1)); }
expect 0 "^flow        [0-9.]+ agents a second per cell of door$" \
  "$cairn" crowd-bench --scenario bottleneck --agents 120
same_state() { # NAME WHOLE RESUMED: the same ticks, arrivals and hash
  k='"(ticks|arrived|state_hash|arrived_by_gate)":("[^"]*"|\[[^]]*\]|[0-9]+)'
  grep -Eo "$k" "$2" >"$tmp/k1" && grep -Eo "$k" "$3" >"$tmp/k2" &&
    [ -s "$tmp/k1" ] && cmp -s "$tmp/k1" "$tmp/k2" ||
    { echo "FAIL: $1 resumed from a save differs:" >&2; cat "$2" "$3" >&2; fails=$((fails + 1)); }
}
flip_byte() { # FILE OFFSET: one bit of the byte at OFFSET flipped
  b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "\\$(printf %03o $((b ^ 4)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
"$cairn" horde --agents 2000 --ticks 1200 --json >"$tmp/hw.json" 2>&1
"$cairn" horde --agents 2000 --ticks 600 --save "$tmp/h.crowd" >/dev/null 2>&1
"$cairn" horde --load "$tmp/h.crowd" --ticks 1200 --json --threads 2 >"$tmp/hr.json" 2>&1
same_state "horde" "$tmp/hw.json" "$tmp/hr.json"
head -c 4000 "$tmp/h.crowd" >"$tmp/short.crowd"
cp "$tmp/h.crowd" "$tmp/flip.crowd"
flip_byte "$tmp/flip.crowd" 5000
expect 3 "short.crowd: truncated" "$cairn" horde --load "$tmp/short.crowd" --ticks 1200
expect 3 "flip.crowd: corrupt" "$cairn" horde --load "$tmp/flip.crowd" --ticks 1200
expect 3 "flip.crowd: corrupt" "$cairn" horde --agents 2000 --load "$tmp/flip.crowd" --ticks 1200
expect 3 "nothere.crowd: cannot open" "$cairn" horde --load "$tmp/nothere.crowd"
expect 3 "h.crowd: made for another crowd: max_agents differs" \
  "$cairn" horde --agents 1999 --load "$tmp/h.crowd" --ticks 700
expect 2 "not with --load" "$cairn" horde --load "$tmp/h.crowd" --replay "$tmp/x.rpl"
expect 1 "nowhere/x.crowd.*cannot create" "$cairn" horde --agents 10 --ticks 2 --save "$tmp/nowhere/x.crowd"
if [ -f "$mai/maps/Berlin_0_256.map" ]; then
  for algo in astar hpa auto field; do
    "$cairn" march --map "$mai/maps/Berlin_0_256.map" --groups 8 --units 50 --algo $algo \
      --ticks 1200 --json >"$tmp/mw.json" 2>&1
    "$cairn" march --map "$mai/maps/Berlin_0_256.map" --groups 8 --units 50 --algo $algo \
      --ticks 600 --save "$tmp/m.crowd" >/dev/null 2>&1
    "$cairn" march --map "$mai/maps/Berlin_0_256.map" --load "$tmp/m.crowd" --ticks 1200 \
      --json >"$tmp/mr.json" 2>&1
    same_state "march --algo $algo" "$tmp/mw.json" "$tmp/mr.json"
  done
  # units that stay around one goal, saved while most are on the way
  # (their shared radius, the cluster's arrivals): the same at 1,200
  "$cairn" march --map "$mai/maps/Berlin_0_256.map" --groups 1 --units 300 --arrive stay \
    --goal 128,128 --ticks 1200 --json >"$tmp/sw.json" 2>&1
  "$cairn" march --map "$mai/maps/Berlin_0_256.map" --groups 1 --units 300 --arrive stay \
    --goal 128,128 --ticks 600 --save "$tmp/s.crowd" >/dev/null 2>&1
  "$cairn" march --map "$mai/maps/Berlin_0_256.map" --load "$tmp/s.crowd" --ticks 1200 \
    --json --threads 2 >"$tmp/sr.json" 2>&1
  same_state "march --arrive stay" "$tmp/sw.json" "$tmp/sr.json"
  expect 3 "m.crowd: made for another crowd: the walk grid.s width" \
    "$cairn" march --map "$map" --load "$tmp/m.crowd"
  head -c 100 "$tmp/m.crowd" >"$tmp/short.crowd"
  expect 3 "short.crowd: truncated" \
    "$cairn" march --map "$mai/maps/Berlin_0_256.map" --load "$tmp/short.crowd"
  cp "$tmp/m.crowd" "$tmp/flip.crowd"
  flip_byte "$tmp/flip.crowd" 300
  expect 3 "flip.crowd: corrupt" \
    "$cairn" march --map "$mai/maps/Berlin_0_256.map" --load "$tmp/flip.crowd"
fi

# suite: every .scen under a folder; the report's table against cairn scen --json
expect 2 "suite needs a folder" "$cairn" suite
expect 2 "'bfs' is not astar, dijkstra, hpa, jps, jps\\+ or auto" "$cairn" suite "$tmp" --algo astar,bfs
expect 2 "given twice" "$cairn" suite "$tmp" --algo astar,astar
expect 3 "cannot open the folder" "$cairn" suite "$tmp/nowhere"
mkdir -p "$tmp/suite/scen/tiny" "$tmp/suite/maps" "$tmp/empty"
expect 3 "no .scen files" "$cairn" suite "$tmp/empty"
printf 'type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n' >"$tmp/suite/scen/tiny/tiny.map"
printf 'version 1\n0\ttiny.map\t4\t3\t0\t0\t3\t0\t3.00000000\n1\ttiny.map\t4\t3\t0\t0\t3\t2\t5.00000000\n' \
  >"$tmp/suite/scen/tiny/tiny.map.scen"
if [ -f "$mai/scen/arena.map.scen" ]; then
  for m in arena ht_chantry; do
    ln -s "$mai/scen/$m.map.scen" "$tmp/suite/scen/$m.map.scen"
    ln -s "$mai/maps/$m.map" "$tmp/suite/maps/$m.map"
  done
fi
mkdir -p "$tmp/rep"
expect 0 "report in $tmp/rep/r.md" "$cairn" suite "$tmp/suite" --algo astar,hpa --report "$tmp/rep/r.md"
[ -s "$tmp/rep/r.md" ] ||
  { echo "FAIL: cairn suite --report" >&2; fails=$((fails + 1)); }
for f in $(cd "$tmp/suite" && find . -name '*.scen' | sort); do
  for algo in astar hpa; do
    json=$("$cairn" scen "$tmp/suite/$f" --algo "$algo" --json 2>/dev/null)
    row=$(grep "^| ${f#./} | [^|]* | $algo |" "$tmp/rep/r.md")
    # scenarios, invalid, mismatch, mean and max suboptimality, mean expansions
    echo "$json|$row" | awk -F'|' '
      function num(k) { return match($1, "\"" k "\":[0-9.]+") ? substr($1, RSTART + length(k) + 3, RLENGTH - length(k) - 3) + 0 : -1 }
      { ok = NF >= 14 && $6 + 0 == num("scenarios") && $7 + 0 == num("invalid") && $8 + 0 == num("mismatch") &&
             ($9 - num("mean_subopt_pct")) ^ 2 < 1e-8 && ($10 - num("max_subopt_pct")) ^ 2 < 1e-8 &&
             $13 + 0 == num("mean_expanded") && $11 > 0 && $12 >= $11
        exit !ok }' ||
      { echo "FAIL: suite report row for $f $algo differs from cairn scen --json:" >&2
        echo "    $row" >&2; echo "    $json" >&2; fails=$((fails + 1)); }
  done
done
[ "$(grep -c '^| ' "$tmp/rep/r.md")" -eq $((1 + 2 * $(find "$tmp/suite" -name '*.scen' | wc -l))) ] ||
  { echo "FAIL: suite report has the wrong number of rows" >&2; fails=$((fails + 1)); }
# the plots beside it: PNGs of 800 x 500 (the header read here), linked from the report
for plot in time subopt; do
  python3 -c 'import sys, struct
b = open(sys.argv[1], "rb").read(24)
sys.exit(not (b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR" and struct.unpack(">II", b[16:24]) == (800, 500)))' \
    "$tmp/rep/r-$plot.png" && grep -q "](r-$plot.png)" "$tmp/rep/r.md" ||
    { echo "FAIL: suite plot r-$plot.png is not an 800 x 500 PNG linked from the report" >&2; fails=$((fails + 1)); }
done
# the CSV beside it: one line per solved row, the tiny map's 2 rows per algorithm included
awk -F, 'NR > 1 && $2 + 0 > 0 { n++ } END { exit !(n >= 4) }' "$tmp/rep/r-rows.csv" ||
  { echo "FAIL: suite rows CSV" >&2; fails=$((fails + 1)); }
expect 0 '^\{"map":"tiny.map","algo":"dijkstra",.*"scenarios":2,.*"mismatch":0,.*"file":"scen/tiny/tiny.map.scen"\}$' \
  "$cairn" suite "$tmp/suite" --algo dijkstra --json
# every file's hierarchy built on 1 and on 2 threads: the same lines
same_at_threads '"(file|solved|invalid|mean_subopt_pct|max_subopt_pct|mean_expanded|abstract_nodes)":[^,]*' \
  "$cairn" suite "$tmp/suite" --algo hpa --json

# saved hierarchies: a save, then a load instead of the build, answer every
# row alike (everything but the times), with two levels and with three
printf 'version 1\n0\toutskirts.map\t120\t60\t5\t30\t102\t30\t1\n0\toutskirts.map\t120\t60\t0\t0\t119\t59\t1\n0\toutskirts.map\t120\t60\t119\t0\t5\t58\t1\n0\toutskirts.map\t120\t60\t5\t30\t9\t33\t1\n' \
  >"$tmp/outskirts.map.scen"
no_times='s/"(median_us|p99_us|total_ms|preprocess_ms)":[0-9.]+//g'
for opts in "--landmarks 16" "--cluster 8 --levels 3 --landmarks 4"; do
  # shellcheck disable=SC2086 # the options' words
  "$cairn" scen "$tmp/outskirts.map.scen" --map "$map" --algo hpa --json $opts \
    --save-hierarchy "$tmp/o.hpa" >"$tmp/built.json" &&
    "$cairn" scen "$tmp/outskirts.map.scen" --map "$map" --algo hpa --json \
      --load-hierarchy "$tmp/o.hpa" >"$tmp/loaded.json" &&
    grep -Eq '"solved":4,.*"preprocess_ms":[0-9.]+' "$tmp/loaded.json" &&
    [ "$(sed -E "$no_times" "$tmp/built.json")" = "$(sed -E "$no_times" "$tmp/loaded.json")" ] ||
    { echo "FAIL: scen --load-hierarchy differs from the build ($opts):" >&2
      sed 's/^/    /' "$tmp/built.json" "$tmp/loaded.json" >&2; fails=$((fails + 1)); }
done
expect 0 "hierarchy: cluster 8, .* loaded in [0-9.]+ ms" \
  "$cairn" scen "$tmp/outskirts.map.scen" --map "$map" --algo hpa --load-hierarchy "$tmp/o.hpa"
# a path under an influence layer: saved and loaded with the same layer
path_keys='"(cost|base_cost|expanded|route_len)":[^,]*|"path":[][0-9,]*'
"$cairn" path --map "$map" --from 5,30 --to 102,30 --influence 50,30,8,20 --algo hpa --json \
  --save-hierarchy "$tmp/l.hpa" | grep -Eo -- "$path_keys" >"$tmp/p1" &&
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --influence 50,30,8,20 --algo hpa --json \
    --load-hierarchy "$tmp/l.hpa" | grep -Eo -- "$path_keys" >"$tmp/p2" &&
  [ -s "$tmp/p1" ] && cmp -s "$tmp/p1" "$tmp/p2" ||
  { echo "FAIL: path --load-hierarchy under --influence differs from the build" >&2; fails=$((fails + 1)); }
expect 3 "l.hpa: saved under a cost layer .*, loaded without one" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --load-hierarchy "$tmp/l.hpa"
expect 3 "l.hpa: saved under a cost layer with fingerprint [0-9a-f]+, this layer's is" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --influence 50,30,9,20 --algo hpa \
  --load-hierarchy "$tmp/l.hpa"
expect 0 "hierarchy .* loaded in [0-9.]+ ms" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --load-hierarchy "$tmp/o.hpa"
expect 2 "--load-hierarchy needs --algo hpa" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --load-hierarchy "$tmp/o.hpa"
expect 2 "--cluster, --levels and --landmarks do not apply to --load-hierarchy" \
  "$cairn" path --map "$map" --from 5,30 --to 102,30 --algo hpa --cluster 8 --load-hierarchy "$tmp/o.hpa"
expect 2 "need --algo hpa" "$cairn" scen "$tmp/outskirts.map.scen" --map "$map" --save-hierarchy "$tmp/x.hpa"
expect 2 "do not apply to --load-hierarchy" \
  "$cairn" scen "$tmp/outskirts.map.scen" --map "$map" --algo hpa --levels 3 --load-hierarchy "$tmp/o.hpa"
# suite: a file a map in the folder given; loading them answers alike
mkdir -p "$tmp/hpas"
"$cairn" suite "$tmp/suite" --algo hpa --json --save-hierarchy "$tmp/hpas" >"$tmp/s1" &&
  [ -s "$tmp/hpas/tiny.map.hpa" ] &&
  "$cairn" suite "$tmp/suite" --algo hpa --json --load-hierarchy "$tmp/hpas" >"$tmp/s2" &&
  [ "$(sed -E "$no_times" "$tmp/s1")" = "$(sed -E "$no_times" "$tmp/s2")" ] ||
  { echo "FAIL: suite --load-hierarchy differs from the build" >&2; fails=$((fails + 1)); }
expect 2 "need hpa among --algo" "$cairn" suite "$tmp/suite" --algo astar --load-hierarchy "$tmp/hpas"
expect 3 "$tmp/empty/[a-z_]+\.map\.hpa: cannot open" "$cairn" suite "$tmp/suite" --algo hpa --load-hierarchy "$tmp/empty"

# horde and march --replay: the recording leaves the run unchanged, and its
# header says the map, the agents and K; the file read back frame by frame
# is the library's test (crowd_replay), the browser test ctest's viewer
expect 2 "--every needs --replay" "$cairn" horde --every 5
expect 1 "x.rpl: cannot create the replay" "$cairn" horde --agents 10 --ticks 5 --replay "$tmp/nowhere/x.rpl"
expect 2 "march: --every needs --replay FILE" "$cairn" march --map "$map" --groups 1 --units 2 --every 5
expect 1 "x.rpl: cannot create the replay" "$cairn" march --map "$map" --groups 1 --units 2 --replay "$tmp/nowhere/x.rpl"
# a device that takes no bytes: refused before the run, the device left alone
if [ -c /dev/full ] && [ -w /dev/full ]; then
  expect 1 "/dev/full: cannot write the replay" "$cairn" horde --agents 10 --ticks 5 --replay /dev/full
  [ -c /dev/full ] || { echo "FAIL: horde --replay /dev/full removed it" >&2; fails=$((fails + 1)); }
fi
# replay_ok NAME FILE PLAIN.json RECORDED.json HEADER: the same state hash
# with and without the recording, the magic, and the header's width,
# height, agents and every (u32s after the magic) as HEADER says
replay_ok() {
  rh1=$(sed 's/.*"state_hash":"\([0-9a-f]*\)".*/\1/' "$3")
  rh2=$(sed 's/.*"state_hash":"\([0-9a-f]*\)".*/\1/' "$4")
  rhead=$(od -An -tu4 -j8 -N16 "$2" 2>/dev/null | tr -s ' ' | sed 's/^ //;s/ $//')
  if [ -z "$rh1" ] || [ "$rh1" != "$rh2" ] || [ "$(head -c 8 "$2")" != CAIRNRP1 ] ||
     [ "$rhead" != "$5" ]; then
    echo "FAIL: $1 --replay: hash $rh1 then $rh2, header '$rhead' (want '$5')" >&2
    fails=$((fails + 1))
  fi
}
"$cairn" horde --agents 100 --ticks 50 --json >"$tmp/plain.json" 2>&1
"$cairn" horde --agents 100 --ticks 50 --json --replay "$tmp/r.rpl" --every 7 >"$tmp/rec.json" 2>&1
replay_ok horde "$tmp/r.rpl" "$tmp/plain.json" "$tmp/rec.json" "256 256 100 7"
"$cairn" march --map "$map" --groups 3 --units 5 --ticks 300 --json >"$tmp/mplain.json" 2>&1
"$cairn" march --map "$map" --groups 3 --units 5 --ticks 300 --json --replay "$tmp/m.rpl" \
  --every 4 >"$tmp/mrec.json" 2>&1
replay_ok march "$tmp/m.rpl" "$tmp/mplain.json" "$tmp/mrec.json" \
  "$(sed -n 's/^width //p' "$map") $(sed -n 's/^height //p' "$map") 15 4"

# pictures: --png on each command, cairn render, horde --frames and --gif;
# the PNGs decoded (libpng) and the GIFs walked by tests/tools/pic_probe
probe=${CAIRN_PIC_PROBE:-}
if [ -z "$probe" ] || [ ! -x "$probe" ]; then
  echo "cli: picture checks skipped (no CAIRN_PIC_PROBE; ctest sets it)"
else
  pics="$tmp/pics"
  mkdir -p "$pics"
  # 12 x 8 cells, 16 pixels a cell; a band of 26 pixels under 192 pixels
  printf 'type octile\nheight 8\nwidth 12\nmap\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n' \
    '............' '............' '..@@@@@@@@..' '..@......@..' '..@.@@@@.@..' \
    '..@.@..@.@..' '..@.@@@@....' '............' >"$pics/m.map"
  printf 'version 1\n0\tm.map\t12\t8\t0\t0\t11\t0\t11.00000000\n0\tm.map\t12\t8\t0\t7\t11\t7\t11.00000000\n' \
    >"$pics/m.scen"
  ran() { # ran CMD...: wants exit 0
    "$@" >"$tmp/out" 2>&1 ||
      { echo "FAIL: $* -> exit $?:" >&2; sed 's/^/    /' "$tmp/out" >&2; fails=$((fails + 1)); }
  }
  pic_ok() { # pic_ok WHAT ARGS...: the probe's verdict, a failure counted
    what=$1
    shift
    "$probe" "$@" >"$tmp/probe" 2>&1 ||
      { echo "FAIL: picture of $what:" >&2; sed 's/^/    /' "$tmp/probe" >&2; fails=$((fails + 1)); }
  }
  "$cairn" path --map "$pics/m.map" --from 0,0 --to 11,7 --json --png "$pics/path.png" >"$tmp/pj" 2>&1 ||
    { echo "FAIL: path --png" >&2; fails=$((fails + 1)); }
  # a cell from the middle of the printed path
  mid=$(sed 's/.*"path":\[\[//; s/\]\].*//; s/\],\[/ /g' "$tmp/pj" | tr ' ' '\n' | awk '{ c[NR] = $0 } END { print c[int((NR + 1) / 2)] }')
  pic_ok "path" png "$pics/path.png" 192 154 16 2,2=wall 0,0=start 11,7=goal "$mid=path"
  "$cairn" path --map "$pics/m.map" --from 0,0 --to 11,7 --algo hpa --cluster 4 --smooth \
    --png "$pics/hpa.png" >/dev/null 2>&1 || { echo "FAIL: path --algo hpa --png" >&2; fails=$((fails + 1)); }
  pic_ok "hpa path" png "$pics/hpa.png" 192 154 16 0,0=start 11,7=goal 2,2=wall
  "$cairn" flow --map "$pics/m.map" --to 11,7 --png "$pics/flow.png" >/dev/null 2>&1 &&
    "$cairn" flow --map "$pics/m.map" --to 11,7 --heat --png "$pics/heat.png" >/dev/null 2>&1 ||
    { echo "FAIL: flow --png" >&2; fails=$((fails + 1)); }
  pic_ok "flow arrows" png "$pics/flow.png" 192 154 16 0,0=arrow 10,7=arrow 11,7=goal 2,2=wall
  pic_ok "flow heat" png "$pics/heat.png" 192 154 16 5,5=unreachable 6,5=unreachable 11,7=goal 2,2=wall
  expect 2 "--heat needs --png" "$cairn" flow --map "$pics/m.map" --to 11,7 --heat
  ran "$cairn" flow --map "$pics/m.map" --to 11,7 --check --png "$pics/fc.png"
  pic_ok "flow --check" png "$pics/fc.png" 192 154 16 0,0=arrow 11,7=goal
  # no path is an answer, and still a picture: the search's reach shows why
  ran "$cairn" path --map "$pics/m.map" --from 0,0 --to 5,5 --png "$pics/nopath.png"
  pic_ok "no path" png "$pics/nopath.png" 192 154 16 0,0=start 5,5=goal 2,2=wall
  "$cairn" scen "$pics/m.scen" --map "$pics/m.map" --png "$pics/scen.png" --index 1 >/dev/null 2>&1 ||
    { echo "FAIL: scen --png" >&2; fails=$((fails + 1)); }
  pic_ok "scen row 1" png "$pics/scen.png" 192 154 16 0,7=start 11,7=goal 2,2=wall
  expect 3 "index 5 is past its 2 rows" "$cairn" scen "$pics/m.scen" --map "$pics/m.map" --png "$pics/x.png" --index 5
  expect 2 "--index needs --png" "$cairn" scen "$pics/m.scen" --index 1
  # cairn render: the map alone, a query, a scenario row, a field, the clusters
  ran "$cairn" render --map "$pics/m.map" --png "$pics/r0.png"
  pic_ok "render map" png "$pics/r0.png" 192 154 16 2,2=wall 0,0=open 5,5=open
  ran "$cairn" render --map "$pics/m.map" --png "$pics/r1.png" --from 0,7 --to 11,0 --algo dijkstra
  pic_ok "render query" png "$pics/r1.png" 192 154 16 0,7=start 11,0=goal 2,2=wall
  ran "$cairn" render --scen "$pics/m.scen" --map "$pics/m.map" --index 0 --png "$pics/r2.png"
  pic_ok "render scen" png "$pics/r2.png" 192 154 16 0,0=start 11,0=goal
  ran "$cairn" render --map "$pics/m.map" --flow '11,7;0,0' --heat --png "$pics/r3.png"
  pic_ok "render flow" png "$pics/r3.png" 192 154 16 5,5=unreachable 11,7=goal 0,0=goal
  ran "$cairn" render --map "$pics/m.map" --clusters --cluster 4 --px 96 --png "$pics/r4.png"
  pic_ok "render clusters" png "$pics/r4.png" 96 90 8 2,2=wall
  # --dead-ends: an alcove behind a one-cell gate (4,3) is tinted, and so
  # are the columns of the open part farther out than the middle three
  # (each column, three cells between the map's edge and the wall, is a
  # door the ones beyond hang off); the middle is not. 10 x 6 cells, a
  # band of 26 under 160
  printf 'type octile\nheight 6\nwidth 10\nmap\n%s\n%s\n%s\n%s\n%s\n%s\n' \
    '..........' '..........' '..........' '@@@@.@@@@@' '@@@...@@@@' '@@@...@@@@' >"$pics/de.map"
  ran "$cairn" render --map "$pics/de.map" --dead-ends --png "$pics/r6.png"
  pic_ok "render dead ends" png "$pics/r6.png" 160 122 16 4,1=open 3,2=open 0,4=wall \
    1,1=!open 8,2=!open 4,3=!open 3,5=!open 3,5=!wall 5,4=!open 5,4=!wall
  expect 2 "--dead-ends is drawn alone" \
    "$cairn" render --map "$pics/de.map" --dead-ends --from 0,0 --to 1,1 --png "$pics/x.png"
  expect 2 "--dead-ends is drawn alone" \
    "$cairn" render --map "$pics/de.map" --dead-ends --clusters --png "$pics/x.png"
  # --crowd: a saved night on its map, the torches lit again; refused on
  # another map, with a query, or when the file is missing
  "$cairn" horde --agents 300 --ticks 300 --save "$pics/n.crowd" >/dev/null 2>&1
  ran "$cairn" render --map "$src/maps/settlement.map" --crowd "$pics/n.crowd" --png "$pics/r7.png"
  pic_ok "render crowd" png "$pics/r7.png" 1024 1076 4 113,96=goal 96,96=wall 93,93=!open
  # a march planned over a hierarchy for units of sizes 1 and 2: the
  # hierarchy is built again from what the save records
  "$cairn" march --map "$src/maps/keep.map" --groups 4 --units 6 --sizes 1,2 --from 30,9 \
    --goal 55,9 --algo hpa --ticks 40 --save "$pics/k.crowd" >/dev/null 2>&1
  ran "$cairn" render --map "$src/maps/keep.map" --crowd "$pics/k.crowd" --png "$pics/r8.png"
  pic_ok "render crowd over a hierarchy" png "$pics/r8.png" 1024 692 16 50,1=wall 5,30=open
  expect 3 "n.crowd: made for another crowd" \
    "$cairn" render --map "$pics/m.map" --crowd "$pics/n.crowd" --png "$pics/x.png"
  expect 2 "--crowd is drawn alone" \
    "$cairn" render --map "$src/maps/settlement.map" --crowd "$pics/n.crowd" --flow 1,1 --png "$pics/x.png"
  expect 3 "nothere.crowd: cannot open" \
    "$cairn" render --map "$src/maps/settlement.map" --crowd "$pics/nothere.crowd" --png "$pics/x.png"
  expect 2 "one of --from/--to, --scen or --flow" "$cairn" render --map "$pics/m.map" --png "$pics/x.png" --from 0,0 --to 1,1 --flow 1,1
  expect 2 "render needs --map" "$cairn" render --png "$pics/x.png"
  expect 3 "--flow 3,2 is a blocked cell" "$cairn" render --map "$pics/m.map" --flow 3,2 --png "$pics/x.png"
  # --size: the path of a 2 x 2 unit round the gate, its cells shaded
  ran "$cairn" render --map "$tmp/gate.map" --from 2,2 --to 17,2 --size 2 --px 320 --png "$pics/r5.png"
  pic_ok "render size 2" png "$pics/r5.png" 320 218 16 10,10=path 10,0=wall
  expect 3 "--from 9,2: a unit of size 2 does not fit there" \
    "$cairn" render --map "$tmp/gate.map" --from 9,2 --to 17,2 --size 2 --png "$pics/x.png"
  # the crowds: 256 x 256 at 4 pixels a cell (a 52-pixel band under 1024),
  # the GIF fitted in 512 (2 a cell, a 26-pixel band); the first gate is
  # cell 113,96 and a wall cell 96,96; after one tick nobody is at a gate
  ran "$cairn" horde --agents 50 --ticks 1 --png "$pics/h.png"
  pic_ok "horde" png "$pics/h.png" 2064 1076 4 113,96=goal 96,96=wall
  ran "$cairn" horde --agents 50 --ticks 10 --every 4 --frames "$pics/frames" --gif "$pics/h.gif"
  # ticks 0, 4, 8 and the last, 10
  [ "$(ls "$pics/frames" | tr '\n' ' ')" = "tick-000000.png tick-000004.png tick-000008.png tick-000010.png " ] ||
    { echo "FAIL: horde --frames wrote: $(ls "$pics/frames")" >&2; fails=$((fails + 1)); }
  pic_ok "horde frame" png "$pics/frames/tick-000004.png" 1024 1076 4 113,96=goal 96,96=wall
  pic_ok "horde gif" gif "$pics/h.gif" 512 538 4
  # drawing leaves the run unchanged: the replay check's plain run, same hash
  "$cairn" horde --agents 100 --ticks 50 --json --gif "$pics/s.gif" --every 7 >"$tmp/pic.json" 2>&1
  [ "$(sed 's/.*"state_hash":"\([0-9a-f]*\)".*/\1/' "$tmp/plain.json")" = \
    "$(sed 's/.*"state_hash":"\([0-9a-f]*\)".*/\1/' "$tmp/pic.json")" ] ||
    { echo "FAIL: horde --gif changed the run" >&2; fails=$((fails + 1)); }
  pic_ok "horde gif every 7" gif "$pics/s.gif" 512 538 9
  ran "$cairn" march --map "$pics/m.map" --groups 2 --units 3 --ticks 50 --png "$pics/march.png"
  pic_ok "march" png "$pics/march.png" 192 154 16 2,2=wall
  # bad files: named, non-zero, nothing run for long
  for cmd in "path --map $pics/m.map --from 0,0 --to 1,1" "flow --map $pics/m.map --to 1,1" \
    "scen $pics/m.scen --map $pics/m.map" "horde --agents 5 --ticks 1" \
    "march --map $pics/m.map --groups 1 --units 1" "render --map $pics/m.map"; do
    # shellcheck disable=SC2086 # the command's words
    expect 1 "$tmp/nowhere/p.png: cannot write there" "$cairn" $cmd --png "$tmp/nowhere/p.png"
  done
  expect 1 "$pics: is a folder" "$cairn" render --map "$pics/m.map" --png "$pics"
  expect 1 "$tmp/nowhere/f: cannot create the frames folder" "$cairn" horde --agents 5 --ticks 1 --frames "$tmp/nowhere/f"
  expect 1 "$tmp/nowhere/h.gif: cannot write there" "$cairn" horde --agents 5 --ticks 1 --gif "$tmp/nowhere/h.gif"
  expect 2 "--every needs --replay FILE, --frames DIR or --gif FILE" "$cairn" horde --every 3
fi

[ "$fails" -eq 0 ] && echo "cli: all checks passed"
exit "$fails"
