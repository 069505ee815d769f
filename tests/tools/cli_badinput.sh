#!/bin/sh
# The CLI's side of the bad-input matrix (docs/RELIABILITY.md): every
# malformed file, off-map coordinate, absurd count and map without a
# passable cell gets its exit code (2 usage, 3 bad input, 1 runtime) and a
# message on stderr naming the file (and line) or the option, and never a
# signal (exit >= 128: a crash or an abort). The bad files are written to a
# temporary folder here.
# usage: cli_badinput.sh CAIRN
set -u
# absolute, since the checks run inside the temporary folder
cairn=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
checks=0

# want CODE PATTERN CMD...: runs CMD; wants exit CODE (never a signal) and
# PATTERN (grep -E) in its stderr, which must start "cairn: ".
want() {
  code=$1
  pattern=$2
  shift 2
  checks=$((checks + 1))
  "$@" >out.txt 2>err.txt
  got=$?
  if [ "$got" -ge 128 ]; then
    echo "FAIL: $* -> killed by signal $((got - 128))" >&2
    fails=$((fails + 1))
  elif [ "$got" -ne "$code" ] || ! grep -Eq -- "$pattern" err.txt ||
    ! head -n 1 err.txt | grep -q '^cairn: '; then
    echo "FAIL: $* -> exit $got (want $code), stderr:" >&2
    sed 's/^/    /' err.txt >&2
    echo "    (wanted /$pattern/)" >&2
    fails=$((fails + 1))
  fi
}

# ok CMD...: the valid run after the bad ones: exit 0.
ok() {
  checks=$((checks + 1))
  "$@" >out.txt 2>err.txt
  got=$?
  if [ "$got" -ne 0 ]; then
    echo "FAIL: $* -> exit $got on valid input:" >&2
    sed 's/^/    /' err.txt >&2
    fails=$((fails + 1))
  fi
}

# ---- map files: every command that loads a map names FILE:LINE --------
printf 'type octile\nheight 3\nwidth 3\nmap\n...\n...\n...\n' >ok.map
printf 'type octile\nheight 2\nwidth 2\nmap\nGG\nGG\n' >gates.map
printf 'type octile\nheight 4\nwidth 4\nmap\n@@@@\n@@@@\n@@@@\n@@@@\n' >walls.map
printf 'type hex\nheight 2\nwidth 2\nmap\n..\n..\n' >type.map
printf 'type octile\nheight 2\nmap\n..\n..\n' >nowidth.map
printf 'type octile\nheight two\nwidth 2\nmap\n..\n..\n' >word.map
printf 'type octile\nheight 2\nwidth 3\nmap\n...\n....\n' >row.map
printf 'type octile\nheight 3\nwidth 3\nmap\n...\n...\n' >rows.map
printf 'type octile\nheight 3\nwidth 3\nmap\n...\n..' >cut.map
printf 'type octile\nheight 2\nwidth 2\nmap\n.x\n..\n' >char.map
printf 'type octile\nheight 100000\nwidth 100000\nmap\n' >huge.map
printf 'type octile\nheight 0\nwidth 0\nmap\n' >zero.map
: >empty.map

# FILE LINE PROBLEM per line (read from a here-document, so the loop runs in
# this shell and its counts survive)
while read -r f line problem; do
  msg="cairn: $f:$line: .*$problem"
  want 3 "$msg" "$cairn" info --map "$f"
  want 3 "$msg" "$cairn" path --map "$f" --from 0,0 --to 1,1
  want 3 "$msg" "$cairn" path --map "$f" --from 0,0 --to 1,1 --algo hpa
  want 3 "$msg" "$cairn" flow --map "$f" --to 1,1
  want 3 "$msg" "$cairn" horde --map "$f" --agents 1
  want 3 "$msg" "$cairn" march --map "$f" --groups 1 --units 1
done <<EOF
type.map 1 unknown map type
nowidth.map 3 missing .width.
word.map 2 positive integer, got .two.
row.map 6 4 characters long, expected width 3
rows.map 7 unexpected end of file
cut.map 6 2 characters long, expected width 3
char.map 5 unknown map character .x. at column 2
huge.map 2 height 100000 is above the limit of 16384
zero.map 2 positive integer, got .0.
empty.map 1 empty file
EOF
want 3 "cairn: nothere.map: cannot open" "$cairn" info --map nothere.map
want 3 "cairn: $tmp: read error" "$cairn" info --map "$tmp"
ok "$cairn" info --map ok.map

# ---- scenario files -------------------------------------------------
printf 'version 1\n0\tok.map\t3\t3\t0\t0\t2\t2\n' >fields.scen
printf 'version 7\n' >version.scen
printf 'versio 1\n' >noversion.scen
printf 'version 1\n0\tok.map\t5\t5\t0\t0\t2\t2\t2.8\n' >size.scen
printf 'version 1\n0\tok.map\t3\t3\t0\t0\t2\t2\t2.8\n0\tother.map\t3\t3\t0\t0\t2\t2\t2.8\n' >names.scen
printf 'version 1\n0\tok.map\t3\t3\t-1\t0\t2\t2\t2.8\n' >negative.scen
printf 'version 1\n0\tok.map\t3\t3\t0\t0\t9\t2\t2.8\n' >offmap.scen
printf 'version 1\n0\tok.map\t99999\t3\t0\t0\t2\t2\t2.8\n' >huge.scen
printf 'version 1\n0\tok.map\t3\t3\t0\t0\t2\t2\tnan\n' >nan.scen
printf 'version 1\n0\tok.map\t3\t3\t0\tone\t2\t2\t2.8\n' >word.scen
: >empty.scen
printf 'version 1\n0\tok.map\t3\t3\t0\t0\t2\t2\t2.82842712\n' >ok.scen

while read -r f line problem; do
  want 3 "cairn: $f:$line: .*$problem" "$cairn" scen "$f" --map ok.map
  want 3 "cairn: $f:$line: .*$problem" "$cairn" scen "$f" --map ok.map --algo hpa
done <<EOF
fields.scen 2 expected 9 fields
version.scen 1 unsupported scenario version .7.
noversion.scen 1 expected .version 1.
size.scen 2 scenario map is 5x5 but the map is 3x3
names.scen 3 row names map .other.map. but line 2 named .ok.map.
negative.scen 2 negative start_x -1
offmap.scen 2 goal \(9,2\) is outside the 3x3 map
huge.scen 2 map_width 99999 is outside 1..16384
nan.scen 2 field optimal is not a finite
word.scen 2 field start_y is not an integer
empty.scen 1 empty file
EOF
# the same files found by a suite run, named from the folder down
mkdir -p suite
cp fields.scen ok.map suite/
want 3 "cairn: suite/fields.scen:2: expected 9 fields" "$cairn" suite suite
want 3 "cairn: nothere.scen: cannot open" "$cairn" scen nothere.scen
want 3 "cairn: ok.scen: .*missing.map.*cannot open|cairn: missing.map: cannot open" \
  "$cairn" scen ok.scen --map missing.map
ok "$cairn" scen ok.scen --map ok.map --json
grep -q '"solved":1,' out.txt || { echo "FAIL: scen ok.scen did not solve its row" >&2; fails=$((fails + 1)); }

# ---- coordinates off the map, negative, too large, blocked ------------
want 3 "cairn: --from -1,-1 is outside the map \\(3 x 3\\)" "$cairn" path --map ok.map --from -1,-1 --to 1,1
want 3 "cairn: --to 3,0 is outside the map \\(3 x 3\\)" "$cairn" path --map ok.map --from 0,0 --to 3,0
want 3 "cairn: --from 0,-2147483648 is outside the map" \
  "$cairn" path --map ok.map --from 0,-2147483648 --to 1,1
want 2 "cairn: --to: '99999999999,1' is not X,Y" "$cairn" path --map ok.map --from 0,0 --to 99999999999,1
want 3 "outside the map" "$cairn" path --map ok.map --from 0,0 --to -1,0 --algo hpa
want 3 "outside the map" "$cairn" path --map ok.map --from 0,0 --to 0,5 --algo dijkstra
want 3 "cairn: --to -1,0 is outside the map \\(3 x 3\\)" "$cairn" flow --map ok.map --to "0,0;-1,0"
want 2 "is not X,Y" "$cairn" flow --map ok.map --to "0,0;"
ok "$cairn" path --map ok.map --from 0,0 --to 2,2 --json
grep -q '"found":true' out.txt || { echo "FAIL: path on ok.map found nothing" >&2; fails=$((fails + 1)); }

# ---- a map with no passable cell --------------------------------------
want 3 "cairn: --from 0,0 is a blocked cell" "$cairn" path --map walls.map --from 0,0 --to 3,3
want 3 "cairn: --from 0,0 is a blocked cell" "$cairn" path --map walls.map --from 0,0 --to 3,3 --algo hpa
want 3 "cairn: --to 3,3 is a blocked cell" "$cairn" flow --map walls.map --to 3,3
want 3 "cairn: walls.map: no gates" "$cairn" horde --map walls.map --agents 5
ok "$cairn" info --map walls.map --json
grep -q '"passable":0,"components":0' out.txt || { echo "FAIL: info on walls.map" >&2; fails=$((fails + 1)); }

# ---- counts: zero, negative, above the limits ------------------------
want 2 "cairn: --agents: '0' is not an integer in 1..16777216" "$cairn" horde --agents 0
want 2 "cairn: --agents: '99999999999' is not an integer in 1..16777216" "$cairn" horde --agents 99999999999
want 2 "cairn: --agents: '16777217' is not an integer" "$cairn" horde --agents 16777217
want 2 "cairn: --agents: '-5' is not an integer" "$cairn" horde --agents -5
want 2 "cairn: --agents: '1e3' is not an integer" "$cairn" horde --agents 1e3
want 2 "cairn: --ticks: '0' is not an integer" "$cairn" horde --ticks 0
want 2 "cairn: --units: '0' is not an integer" "$cairn" march --map ok.map --groups 1 --units 0
want 2 "cairn: --units: '99999999999' is not an integer" "$cairn" march --map ok.map --groups 1 --units 99999999999
want 2 "cairn: --groups: '0' is not an integer" "$cairn" march --map ok.map --groups 0 --units 1
want 2 "cairn: --width: '0' is not an integer" "$cairn" gen --out g.map --width 0
want 2 "cairn: --width: '100000' is not an integer" "$cairn" gen --out g.map --width 100000
want 2 "cairn: --cluster: '0' is not an integer" "$cairn" path --map ok.map --from 0,0 --to 1,1 --algo hpa --cluster 0
# --threads on every command with parallel work: 1..256, nothing else
for n in 0 -1 257 x; do
  msg="cairn: --threads: '$n' is not an integer in 1..256"
  want 2 "$msg" "$cairn" path --map ok.map --from 0,0 --to 2,2 --algo hpa --threads "$n"
  want 2 "$msg" "$cairn" scen ok.scen --map ok.map --algo hpa --threads "$n"
  want 2 "$msg" "$cairn" suite suite --threads "$n"
  want 2 "$msg" "$cairn" flow --map ok.map --to 1,1 --threads "$n"
  want 2 "$msg" "$cairn" horde --map gates.map --agents 2 --threads "$n"
  want 2 "$msg" "$cairn" march --map ok.map --groups 1 --units 1 --threads "$n"
done
want 2 "cairn: --threads needs a value" "$cairn" horde --threads
ok "$cairn" path --map ok.map --from 0,0 --to 2,2 --algo hpa --threads 256
ok "$cairn" march --map ok.map --groups 1 --units 1 --ticks 5 --threads=1
# more undead than the map has cells: a runtime refusal, not a crash
want 1 "cairn: gates.map: 50 agents need as many open cells reachable from its gates; it has 4" "$cairn" horde --map gates.map --agents 50
ok "$cairn" horde --map gates.map --agents 2 --ticks 5 --json
grep -q '"agents":2,' out.txt || { echo "FAIL: horde on gates.map" >&2; fails=$((fails + 1)); }

# ---- saved hierarchies: truncated, flipped, for another map -----------
ok "$cairn" scen ok.scen --map ok.map --algo hpa --save-hierarchy ok.hpa
size=$(wc -c <ok.hpa)
head -c $((size - 1)) ok.hpa >cut.hpa
# one bit of byte 80 (in the payload) flipped
byte=$(od -An -tu1 -j80 -N1 ok.hpa | tr -d ' ')
cp ok.hpa flip.hpa
# shellcheck disable=SC2059 # the octal escape is the format
printf "\\$(printf %o $((byte ^ 4)))" | dd of=flip.hpa bs=1 seek=80 conv=notrunc 2>/dev/null
cmp -s ok.hpa flip.hpa && { echo "FAIL: flip.hpa not flipped" >&2; fails=$((fails + 1)); }
for cmd in "path --map ok.map --from 0,0 --to 2,2 --algo hpa" "scen ok.scen --map ok.map --algo hpa"; do
  # shellcheck disable=SC2086 # the command's words
  want 3 "cairn: cut.hpa: truncated: $((size - 1)) of $size bytes" "$cairn" $cmd --load-hierarchy cut.hpa
  # shellcheck disable=SC2086
  want 3 "cairn: flip.hpa: checksum mismatch" "$cairn" $cmd --load-hierarchy flip.hpa
  # shellcheck disable=SC2086
  want 3 "cairn: ok.map: not a cairn hierarchy" "$cairn" $cmd --load-hierarchy ok.map
  # shellcheck disable=SC2086
  want 3 "cairn: nothere.hpa: cannot open" "$cairn" $cmd --load-hierarchy nothere.hpa
done
want 3 "cairn: ok.hpa: made for a 3x3 map with fingerprint [0-9a-f]+, this map is 2x2" \
  "$cairn" path --map gates.map --from 0,0 --to 1,1 --algo hpa --load-hierarchy ok.hpa
want 1 "cairn: nowhere/x.hpa: cannot write" \
  "$cairn" path --map ok.map --from 0,0 --to 2,2 --algo hpa --save-hierarchy nowhere/x.hpa
ok "$cairn" path --map ok.map --from 0,0 --to 2,2 --algo hpa --load-hierarchy ok.hpa

# ---- numbers that are not finite --------------------------------------
want 2 "cairn: --weight: 'nan' is not a number" "$cairn" path --map ok.map --from 0,0 --to 1,1 --weight nan
want 2 "cairn: --weight: 'inf' is not a number" "$cairn" path --map ok.map --from 0,0 --to 1,1 --weight inf
want 2 "cairn: --turn-penalty: '-inf' is not a number" \
  "$cairn" path --map ok.map --from 0,0 --to 1,1 --turn-penalty -inf
want 2 "cairn: --claim-penalty: 'nan' is not a number" \
  "$cairn" path --map ok.map --from 0,0 --to 1,1 --claim-penalty nan
want 2 "cairn: --influence: radius 0..1024" "$cairn" path --map ok.map --from 0,0 --to 1,1 --influence 0,0,99999,5

# ---- output that cannot be written ------------------------------------
want 1 "cairn: nowhere/g.map: cannot create" "$cairn" gen --out nowhere/g.map
ok "$cairn" gen --out g.map --width 40 --height 40
ok "$cairn" info --map g.map

# ---- out of memory: 200 MB of address space for a 256 MB map ----------
# (skipped where cairn cannot start under the limit: AddressSanitizer's
# shadow memory needs far more address space)
if (sh -c 'ulimit -v 200000 && exec "$0" --help' "$cairn" >/dev/null 2>&1) 2>/dev/null; then
  want 1 "cairn: out of memory" \
    sh -c 'ulimit -v 200000 && exec "$0" gen --out big.map --width 16384 --height 16384' "$cairn"
  [ ! -e big.map ] || { echo "FAIL: gen left big.map behind" >&2; fails=$((fails + 1)); }
else
  echo "skipped the out-of-memory check: cairn does not start under ulimit -v"
fi

if [ "$fails" -eq 0 ]; then
  echo "cli_badinput: all $checks checks passed"
else
  echo "cli_badinput: $fails of $checks checks failed" >&2
fi
exit "$fails"
