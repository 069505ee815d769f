#!/bin/sh
# The main job: build cairn if needed and run the demo on the shipped map.
set -eu
. "$(dirname "$0")/setup.sh"
cairn_install_missing
cairn_build "$cairn_root/build" -DCAIRN_TESTS=OFF -DCAIRN_BENCH=OFF
map="$cairn_root/maps/outskirts.map"
echo "== a peasant walks from the western woods to the hamlet's square =="
echo "   (swamp 'S' costs 4 here, so the path goes around it)"
"$cairn_root/build/tools/cairn" path --map "$map" --from 5,30 --to 102,30 \
  --terrain S=4 --smooth --draw
