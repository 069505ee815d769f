#!/bin/sh
# The main job: build cairn if needed and run the demo on the shipped map.
set -eu
. "$(dirname "$0")/setup.sh"
cairn_install_missing
cairn_build "$cairn_root/build" -DCAIRN_TESTS=OFF -DCAIRN_BENCH=OFF
cairn="$cairn_root/build/tools/cairn"
map="$cairn_root/maps/outskirts.map"
echo "== a peasant walks from the western woods, over a ford, into the hamlet =="
"$cairn" path --map "$map" --from 5,30 --to 102,30 --smooth --draw
echo
echo "== the same walker near the northern swamp: with swamp ('S') costing 4,"
echo "   the cheapest way is longer in steps and goes around it =="
"$cairn" path --map "$map" --from 30,7 --to 54,7 --terrain S=4 --draw
