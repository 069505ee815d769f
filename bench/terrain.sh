#!/bin/sh
# The terrain benchmark for exact weighted search (issue 21, item 3):
# terrain variants of shared Moving AI maps and of the outskirts, each with
# a scenario file whose optimal costs come from Dijkstra, written into
# OUT_DIR; then A* (`cairn scen --algo astar`) over every file, which must
# find every optimum: A* is exact, so that cross-checks the files. Prints
# the time the generation took and one line per map: rows, invalid paths,
# mismatches, A*'s median time and mean expansions over all rows and over
# the long rows (the top quarter of the buckets, bucket >= 0.75 x the
# largest). Exit 1 on any invalid path or mismatch.
#
#   bench/terrain.sh OUT_DIR
#   CAIRN=build-t/tools/cairn CAIRN_TERRAIN_ROWS=2000 bench/terrain.sh /tmp/terrain
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

# ---- A* over every file ------------------------------------------------
bad=0
printf "%-22s %6s %5s %5s %11s %10s %6s %11s %10s\n" map rows inval mism median_us mean_exp \
  long long_med_us long_exp
for m in $maps outskirts512; do
  scen="$out/$m-terrain.map.scen"
  "$cairn" scen "$scen" --algo astar --csv "$out/$m-terrain.astar.csv" >"$out/$m-terrain.astar.txt" || bad=1
  python3 - "$out/$m-terrain.astar.csv" "$m-terrain" <<'PY' || bad=1
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = [r for r in rows if r["valid"] == "1"]
invalid = len(rows) - len(ok)
# the file's optimal against A*'s cost, with cairn scen's tolerance
mism = sum(1 for r in ok
           if abs(float(r["cost"]) - float(r["optimal"])) > 1e-5 * float(r["optimal"]) + 0.006)
top = max(int(r["bucket"]) for r in rows)
long_rows = [r for r in ok if int(r["bucket"]) >= 0.75 * top]
def med(sel): return statistics.median(float(r["us"]) for r in sel) if sel else 0
def exp(sel): return sum(int(r["expanded"]) for r in sel) / len(sel) if sel else 0
print("%-22s %6d %5d %5d %11.1f %10.0f %6d %11.1f %10.0f"
      % (sys.argv[2], len(rows), invalid, mism, med(ok), exp(ok), len(long_rows),
         med(long_rows), exp(long_rows)))
sys.exit(1 if invalid or mism else 0)
PY
done
[ "$bad" -eq 0 ] || { echo "bench/terrain.sh: invalid paths or mismatches (see $out/*.astar.txt)" >&2; exit 1; }
