#!/bin/sh
# The main job: build cairn if needed and run the night of the dead on the
# shipped settlement: 10,000 undead spawn at the map's edges at dusk and
# converge on the town's gates along one shared flow field, avoiding the
# defenders' torches, every tick in two phases on all cores; then a picture
# of the night while it happens: the horde when half had arrived beside the end
# (out/night.png).
#
# Installs only what the demo needs (setup.sh's demo set: CMake, a C
# compiler, make, libpng) and builds only the cairn tool, a line per 10 %
# of the build.
set -eu
. "$(dirname "$0")/setup.sh"
cairn_packages=$cairn_demo_packages
cairn_install_missing

# Configures and builds the cairn target in $1, printing the build's
# progress; its whole output goes to $1/demo-build.log.
demo_build() {
  dir=$1
  mkdir -p "$dir"
  log="$dir/demo-build.log"
  start=$(date +%s)
  echo "== building cairn in $dir (its log: $log) =="
  if ! cmake -S "$cairn_root" -B "$dir" -DCMAKE_BUILD_TYPE=Release \
    -DCAIRN_TESTS=OFF -DCAIRN_BENCH=OFF >"$log" 2>&1; then
    echo "cairn: configuring failed; the end of $log:" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
  rc_file="$dir/demo-build.rc"
  # make prints "[ 42%] ...", ninja "[12/80] ...": a line per 10 %
  { cmake --build "$dir" -j "$(nproc)" --target cairn 2>&1 && echo 0 >"$rc_file" ||
    echo $? >"$rc_file"; } | tee -a "$log" | awk '
    function show(p) {
      d = int(p / 10) * 10
      if (d > last) { last = d; printf "cairn: building, %3d %%\n", d; fflush() }
    }
    BEGIN { last = -1 }
    /^\[ *[0-9]+%\]/ { show(substr($0, 2, index($0, "%") - 2) + 0); next }
    /^\[[0-9]+\/[0-9]+\]/ { split(substr($0, 2, index($0, "]") - 2), f, "/")
                            if (f[2] > 0) show(100 * f[1] / f[2]) }'
  rc=$(cat "$rc_file")
  if [ "$rc" -ne 0 ]; then
    echo "cairn: the build failed (exit $rc); the end of $log:" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  echo "cairn: built $dir/tools/cairn in $(($(date +%s) - start)) s"
}

demo_build "$cairn_root/build"
cairn="$cairn_root/build/tools/cairn"
echo "== night of the dead: 10,000 undead against the gates of maps/settlement.map =="
mkdir -p "$cairn_root/out"
# the summary: arrivals, arrivals at each gate (by each gate's first cell),
# walls, overlap, tick times (also while all 10,000 were on the field)
"$cairn" horde --map "$cairn_root/maps/settlement.map" --agents 10000 \
  --png "$cairn_root/out/night.png"
echo "== the night while it happens: $cairn_root/out/night.png =="
echo "   left: the horde when half had arrived, right: the end; each captioned with its"
echo "   tick and arrivals. Gates orange, torches yellow in their red light, the crowding"
echo "   the field pays for blue, undead red moving, green arrived."
