#!/bin/sh
# How cairn's parallel passes fare when another process wants the cores, as
# a game's own threads do: one CPU-bound competitor is pinned to core 1
# while cairn runs, alternately on 1 and on 2 threads, ROUNDS times:
#   horde      the night of the dead, 10,000 undead on the shipped
#              settlement, TICKS ticks (cairn horde --json)
#   horde-big  100,000 undead on a 1024 x 1024 settlement (cairn gen),
#              BIG_TICKS ticks
#   march      8 groups of 500 on Berlin_0_256 that stay where they arrive
#              (cairn march --arrive stay: bodies held at their goals, the
#              events drained each tick), TICKS ticks
#   hpa        the HPA* build of random512-10-0 and TheFrozenSea, and of two
#              small maps whose builds take milliseconds, 32room_000 and
#              den011d (cairn path --algo hpa --json: preprocess_ms),
#              HPA_REPS builds a round
#   hpa-load   the load of the same hierarchies, saved once before the
#              rounds (--load-hierarchy: preprocess_ms), HPA_REPS a round
# and prints, per case, the median over the rounds of the median tick and
# of the p99 tick (horde, march), or the median build or load (hpa), at 1
# and at 2 threads, and the ratio 2 threads / 1 thread. The order of 1 and 2 flips
# every round, so a slow spell of the machine falls on both.
#
#   bench/contention.sh [--idle] [CAIRN]
#
# CAIRN (or $CAIRN) is the cairn binary; by default build/tools/cairn in
# this checkout, else one built here into the temporary folder (Release).
# --idle (or IDLE=1) runs with no competitor: the idle bars. Environment:
# ROUNDS (default 3), TICKS (1000), BIG_TICKS (200), HPA_REPS (5),
# MOVINGAI (default ../shared/movingai beside the checkout). Nothing is
# written into the source tree: everything goes to a temporary folder,
# removed on exit. About 7 minutes at the defaults on 2 cores.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
idle=${IDLE:-0}
cairn=${CAIRN:-}
while [ $# -gt 0 ]; do
  case $1 in
  --idle) idle=1 ;;
  -h | --help)
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  -*)
    echo "contention.sh: unknown option $1 (try --help)" >&2
    exit 2
    ;;
  *) cairn=$1 ;;
  esac
  shift
done
rounds=${ROUNDS:-3}
ticks=${TICKS:-1000}
big_ticks=${BIG_TICKS:-200}
hpa_reps=${HPA_REPS:-5}
mai=${MOVINGAI:-$root/../shared/movingai}

if [ "$idle" != 1 ]; then
  command -v taskset >/dev/null 2>&1 || {
    echo "contention.sh: taskset not found: it comes with util-linux (apt-get install util-linux)" >&2
    exit 1
  }
  if [ "$(nproc)" -lt 2 ]; then
    echo "contention.sh: needs core 1 for the competitor, this process may use $(nproc) core" >&2
    exit 1
  fi
fi
command -v python3 >/dev/null 2>&1 || {
  echo "contention.sh: python3 not found (it reads the JSON)" >&2
  exit 1
}
for m in random512-10-0 TheFrozenSea 32room_000 den011d Berlin_0_256; do
  if [ ! -f "$mai/maps/$m.map" ] || [ ! -f "$mai/scen/$m.map.scen" ]; then
    echo "contention.sh: $mai/maps/$m.map or its .scen is missing (set MOVINGAI)" >&2
    exit 1
  fi
done

tmp=$(mktemp -d)
hog=""
# The competitor goes whatever ends the script: done, an error, ^C, kill.
cleanup() {
  if [ -n "$hog" ]; then
    kill "$hog" 2>/dev/null || true
    wait "$hog" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -n "$cairn" ] && [ ! -x "$cairn" ]; then
  echo "contention.sh: $cairn is not an executable" >&2
  exit 1
fi
[ -n "$cairn" ] || cairn=$root/build/tools/cairn
if [ ! -x "$cairn" ]; then
  echo "contention.sh: no cairn at $cairn; building one in $tmp (a few minutes)" >&2
  cmake -S "$root" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DCAIRN_TESTS=OFF \
    -DCAIRN_BENCH=OFF >/dev/null
  cmake --build "$tmp/build" --target cairn -j "$(nproc)" >/dev/null
  cairn=$tmp/build/tools/cairn
fi

"$cairn" gen --kind settlement --width 1024 --height 1024 --out "$tmp/settlement1024.map" >/dev/null

# A start and goal of the map's first scenario row: cairn path needs open
# endpoints, and only the build time is read.
endpoints() {
  awk -F'\t' 'NR == 2 { printf "%s,%s %s,%s\n", $5, $6, $7, $8 }' "$mai/scen/$1.map.scen"
}

# run CASE THREADS ROUND CMD...: one run, its JSON line kept as
# "CASE THREADS ROUND JSON" in $tmp/runs.
run() {
  run_case=$1 run_threads=$2 run_round=$3
  shift 3
  if ! "$@" --threads "$run_threads" --json >"$tmp/out" 2>"$tmp/err"; then
    echo "contention.sh: failed: $* --threads $run_threads --json" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
  printf '%s %s %s %s\n' "$run_case" "$run_threads" "$run_round" "$(cat "$tmp/out")" \
    >>"$tmp/runs"
}

# one_round ROUND THREADS: every case once (HPA*: HPA_REPS builds).
one_round() {
  echo "round $1, $2 thread(s)" >&2
  run horde "$2" "$1" "$cairn" horde --agents 10000 --ticks "$ticks"
  run horde-big "$2" "$1" "$cairn" horde --map "$tmp/settlement1024.map" --agents 100000 \
    --ticks "$big_ticks"
  run march "$2" "$1" "$cairn" march --map "$mai/maps/Berlin_0_256.map" --groups 8 \
    --units 500 --arrive stay --ticks "$ticks"
  for m in random512-10-0 TheFrozenSea 32room_000 den011d; do
    ends=$(endpoints "$m")
    k=0
    while [ "$k" -lt "$hpa_reps" ]; do
      run "hpa-$m" "$2" "$1" "$cairn" path --map "$mai/maps/$m.map" --from "${ends% *}" \
        --to "${ends#* }" --algo hpa
      case $m in
      random512-10-0 | TheFrozenSea)
        run "hpa-load-$m" "$2" "$1" "$cairn" path --map "$mai/maps/$m.map" \
          --from "${ends% *}" --to "${ends#* }" --algo hpa --load-hierarchy "$tmp/$m.hpa"
        ;;
      esac
      k=$((k + 1))
    done
  done
}

# the hierarchies the loads read, saved once
for m in random512-10-0 TheFrozenSea; do
  ends=$(endpoints "$m")
  "$cairn" path --map "$mai/maps/$m.map" --from "${ends% *}" --to "${ends#* }" --algo hpa \
    --save-hierarchy "$tmp/$m.hpa" >/dev/null
done

if [ "$idle" = 1 ]; then
  mode="idle (no competitor)"
else
  taskset -c 1 sh -c 'while :; do :; done' &
  hog=$!
  mode="a CPU-bound competitor pinned to core 1 (pid $hog)"
fi
echo "contention.sh: $cairn, $mode; $rounds rounds, horde and march $ticks ticks," \
  "horde-big $big_ticks ticks, $hpa_reps HPA* builds and loads a round" >&2

: >"$tmp/runs"
r=1
while [ "$r" -le "$rounds" ]; do
  if [ $((r % 2)) -eq 1 ]; then
    one_round "$r" 1
    one_round "$r" 2
  else
    one_round "$r" 2
    one_round "$r" 1
  fi
  r=$((r + 1))
done

echo "cairn at 1 and 2 threads, $mode"
python3 - "$tmp/runs" <<'PY'
import collections, json, statistics, sys

runs = collections.defaultdict(list)  # (case, threads, round) -> JSON objects
for line in open(sys.argv[1]):
    case, threads, rnd, text = line.split(" ", 3)
    runs[(case, int(threads), int(rnd))].append(json.loads(text))

def median_over_rounds(case, threads, field, within=statistics.median):
    # each round's value (the median of its runs), then their median
    per_round = [within([o[field] for o in objs])
                 for (c, t, _), objs in sorted(runs.items()) if c == case and t == threads]
    return statistics.median(per_round), len(per_round)

rows = [("horde 10,000, settlement", "horde", "median_tick_ms", "median tick ms"),
        ("", "horde", "p99_tick_ms", "p99 tick ms"),
        ("horde 100,000, 1024 x 1024", "horde-big", "median_tick_ms", "median tick ms"),
        ("", "horde-big", "p99_tick_ms", "p99 tick ms"),
        ("march 4,000, stay, Berlin", "march", "median_tick_ms", "median tick ms"),
        ("", "march", "p99_tick_ms", "p99 tick ms"),
        ("hpa random512-10-0", "hpa-random512-10-0", "preprocess_ms", "build ms"),
        ("", "hpa-load-random512-10-0", "preprocess_ms", "load ms"),
        ("hpa TheFrozenSea", "hpa-TheFrozenSea", "preprocess_ms", "build ms"),
        ("", "hpa-load-TheFrozenSea", "preprocess_ms", "load ms"),
        ("hpa 32room_000", "hpa-32room_000", "preprocess_ms", "build ms"),
        ("hpa den011d", "hpa-den011d", "preprocess_ms", "build ms")]
print("%-28s %-15s %10s %10s %7s" % ("case", "", "1 thread", "2 threads", "2/1"))
for label, case, field, what in rows:
    one, n = median_over_rounds(case, 1, field)
    two, _ = median_over_rounds(case, 2, field)
    ratio = two / one if one > 0 else float("nan")
    print("%-28s %-15s %10.3f %10.3f %7.2f" % (label, what, one, two, ratio))
print("(medians over %d rounds)" % n)
# the crowd's results never depend on the thread count: say so if they did
for case in ("horde", "horde-big", "march"):
    hashes = {o["state_hash"] for (c, _, _), objs in runs.items() if c == case for o in objs}
    if len(hashes) != 1:
        print("WARNING: %s state hashes differ between runs: %s" % (case, sorted(hashes)))
PY
