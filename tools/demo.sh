#!/bin/sh
# The main job: build cairn if needed and run the night of the dead on the
# shipped settlement: 10,000 undead spawn at the map's edges at dusk and
# converge on the town's gates along one shared flow field, avoiding the
# defenders' torches, every tick in two phases on all cores; then a picture
# of the end of the night (out/night-end.png).
set -eu
. "$(dirname "$0")/setup.sh"
cairn_install_missing
cairn_build "$cairn_root/build" -DCAIRN_TESTS=OFF -DCAIRN_BENCH=OFF
cairn="$cairn_root/build/tools/cairn"
echo "== night of the dead: 10,000 undead against the gates of maps/settlement.map =="
mkdir -p "$cairn_root/out"
"$cairn" horde --map "$cairn_root/maps/settlement.map" --agents 10000 \
  --png "$cairn_root/out/night-end.png"
echo "== the end of the night: $cairn_root/out/night-end.png (gates orange, torches yellow, undead by state) =="
