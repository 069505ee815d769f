#!/bin/sh
# The README's pictures (docs/img/), drawn by the cairn tool itself:
#   tools/pictures.sh [CAIRN]
# CAIRN: a built cairn to use; without it cairn is built as demo.sh does.
set -eu
. "$(dirname "$0")/setup.sh"
if [ $# -gt 0 ]; then
  cairn=$1
else
  cairn_install_missing
  cairn_build "$cairn_root/build" -DCAIRN_TESTS=OFF -DCAIRN_BENCH=OFF
  cairn="$cairn_root/build/tools/cairn"
fi
img="$cairn_root/docs/img"
maps="$cairn_root/maps"
mkdir -p "$img"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# across the outskirts into the walled hamlet: A* (the nodes it
# expanded, its path and the smoothed one), then HPA* with its clusters
"$cairn" render --map "$maps/outskirts.map" --from 5,30 --to 102,30 --smooth --png "$img/astar.png"
"$cairn" render --map "$maps/outskirts.map" --from 5,30 --to 102,30 --algo hpa --png "$img/hpa.png"
# one flow field to the same cell: its moves, and its cost to the goal
"$cairn" render --map "$maps/outskirts.map" --flow 102,30 --png "$img/flow.png"
"$cairn" render --map "$maps/outskirts.map" --flow 102,30 --heat --png "$img/flow-heat.png"
# the night of the dead: dusk (tick 0) and about when half had arrived
"$cairn" horde --map "$maps/settlement.map" --agents 10000 --ticks 1100 --every 1100 \
  --frames "$tmp" >/dev/null
cp "$tmp/tick-000000.png" "$img/horde-dusk.png"
cp "$tmp/tick-001100.png" "$img/horde-height.png"
# the standard avoidance scenarios, when half the agents had arrived
for sc in circle crossing bottleneck; do
  "$cairn" crowd-bench --scenario $sc --png "$img/crowd-$sc.png" >/dev/null
done
ls -l "$img"
