#!/bin/sh
# The terrain benchmark for exact weighted search (issue 21, item 3):
# terrain variants of shared Moving AI maps and of the outskirts, each with
# a scenario file whose optimal costs come from Dijkstra, written into
# OUT_DIR; then A* (`cairn scen --algo astar`) and A* with a landmark
# table (`--landmarks 16`, what `--algo auto` runs on terrain) over every
# file, each of which must find every optimum: both are exact, so that
# cross-checks the files. Prints the time the generation took and one line
# per map: rows, invalid paths, mismatches (both searches), A*'s median
# time and mean expansions over all rows and over the long rows (the top
# quarter of the buckets, bucket >= 0.75 x the largest), then with
# landmarks the long rows' median time and mean expansions, and A*'s over
# them (time_x, exp_x). Exit 1 on any invalid path or mismatch.
#
#   bench/terrain.sh OUT_DIR
#   CAIRN=build-t/tools/cairn CAIRN_TERRAIN_ROWS=2000 bench/terrain.sh /tmp/terrain
#
# CAIRN_TERRAIN_ROUNDS (default 3) runs per search, alternating which goes
# first; CAIRN_TERRAIN_LANDMARKS (default 16) the table's landmarks.
#
# CAIRN is the tool (default build/tools/cairn, which tools/setup.sh
# builds); the shared maps come from $CAIRN_MOVINGAI_DIR (default
# ../shared/movingai from the repository root). Fixed seeds: the same
# files every run, on every platform.
set -eu
if [ $# -ne 1 ]; then
  echo "usage: bench/terrain.sh OUT_DIR" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
cairn=${CAIRN:-$root/build/tools/cairn}
data=${CAIRN_MOVINGAI_DIR:-$root/../shared/movingai}
rows=${CAIRN_TERRAIN_ROWS:-1000}
maps="brc202d AR0011SR TheFrozenSea den011d"
[ -x "$cairn" ] || { echo "bench/terrain.sh: no tool at $cairn (run tools/setup.sh, or set CAIRN)" >&2; exit 1; }
made=0
[ -d "$1" ] || { mkdir -p "$1" && made=1; }
out=$(cd "$1" && pwd)
case "$out/" in
  "$root"/build*/*) ;; # a build folder is fine
  "$root"/*)
    [ "$made" -eq 0 ] || rmdir "$out" # leave no empty folder behind
    echo "bench/terrain.sh: $out is in the source tree; give a folder outside it" >&2
    exit 2 ;;
esac
for m in $maps; do
  [ -f "$data/maps/$m.map" ] || { echo "bench/terrain.sh: no $data/maps/$m.map" >&2; exit 1; }
done

# ---- generation: a terrain variant and its scenario file per map -------
t0=$(date +%s)
"$cairn" gen --kind outskirts --width 512 --height 512 --seed 1 --out "$out/outskirts512.map"
for m in $maps outskirts512; do
  src="$data/maps/$m.map"
  [ "$m" = outskirts512 ] && src="$out/outskirts512.map"
  "$cairn" gen --kind terrain --from "$src" --seed 1 --out "$out/$m-terrain.map"
  "$cairn" gen --kind scen --map "$out/$m-terrain.map" --rows "$rows" --seed 2 \
    --out "$out/$m-terrain.map.scen"
done
t1=$(date +%s)
echo "generated $(echo $maps | wc -w) shared maps and the outskirts, $rows rows each, in $((t1 - t0)) s, into $out"

# ---- A* and A* with landmarks over every file ---------------------------
# Each file runs `rounds` times with each search, alternating which goes
# first; a row's time is its median over the rounds.
rounds=${CAIRN_TERRAIN_ROUNDS:-3}
bad=0
printf "%-22s %6s %5s %5s %11s %10s %6s %11s %10s %12s %10s %8s %8s\n" map rows inval mism \
  median_us mean_exp long long_med_us long_exp lm_long_us lm_long_exp time_x exp_x
for m in $maps outskirts512; do
  scen="$out/$m-terrain.map.scen"
  r=0
  while [ "$r" -lt "$rounds" ]; do
    for a in $([ $((r % 2)) -eq 0 ] && echo "plain lm" || echo "lm plain"); do
      lm=
      [ "$a" = lm ] && lm="--landmarks ${CAIRN_TERRAIN_LANDMARKS:-16}"
      # shellcheck disable=SC2086 # lm is empty or two words
      "$cairn" scen "$scen" --algo astar $lm --csv "$out/$m-terrain.$a.$r.csv" \
        >"$out/$m-terrain.$a.txt" || bad=1
    done
    r=$((r + 1))
  done
  python3 - "$out/$m-terrain" "$rounds" "$m-terrain" <<'PY' || bad=1
import csv, statistics, sys
base, rounds, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def load(a):
    rows, times = {}, {}
    for r in range(rounds):
        for row in csv.DictReader(open("%s.%s.%d.csv" % (base, a, r))):
            rows[int(row["id"])] = row
            times.setdefault(int(row["id"]), []).append(float(row["us"]))
    return rows, {i: statistics.median(t) for i, t in times.items()}
plain, tp = load("plain")
lm, tl = load("lm")
bad = 0
for rows in (plain, lm):
    for r in rows.values():
        # the file's optimal against the search's cost, with cairn scen's tolerance
        if r["valid"] != "1" or abs(float(r["cost"]) - float(r["optimal"])) > \
                1e-5 * float(r["optimal"]) + 0.006:
            bad += 1
ok = [i for i in plain if plain[i]["valid"] == "1" and lm[i]["valid"] == "1"]
invalid = sum(1 for rows in (plain, lm) for r in rows.values() if r["valid"] != "1")
top = max(int(r["bucket"]) for r in plain.values())
long_ids = [i for i in ok if int(plain[i]["bucket"]) >= 0.75 * top]
def med(t, sel): return statistics.median(t[i] for i in sel) if sel else 0
def exp(rows, sel): return sum(int(rows[i]["expanded"]) for i in sel) / len(sel) if sel else 0
lt, ll = med(tp, long_ids), med(tl, long_ids)
le, lle = exp(plain, long_ids), exp(lm, long_ids)
print("%-22s %6d %5d %5d %11.1f %10.0f %6d %11.1f %10.0f %12.1f %10.0f %8.1f %8.1f"
      % (name, len(plain), invalid, bad - invalid, med(tp, ok), exp(plain, ok), len(long_ids),
         lt, le, ll, lle, lt / ll if ll else 0, le / lle if lle else 0))
sys.exit(1 if bad else 0)
PY
done
[ "$bad" -eq 0 ] || { echo "bench/terrain.sh: invalid paths or mismatches (see $out/*.txt)" >&2; exit 1; }
