#!/usr/bin/env bash
# Plays the sample Room Swap game (games/room-swap/example) tick by tick into a fresh game
# directory, the way a host's cron would, and prints every announcement and one private report.
# Usage: scripts/demo.sh ADJUDICATE_BINARY OUT_DIR
set -euo pipefail
bin=$1
out=$2
example=games/room-swap/example

rm -rf "$out"
mkdir -p "$out"
cp "$example/game.toml" "$out/"

# Each script line: NOW FILE…; r2/bob.v2.toml goes to rounds/002/submissions/bob.toml.
grep -v '^#' "$example/script" | while read -r now files; do
  [ -z "$now" ] && continue
  for file in $files; do
    n=${file%%/*}
    round=$(printf '%03d' "${n#r}")
    name=$(basename "$file")
    mkdir -p "$out/rounds/$round/submissions"
    cp "$example/submissions/$file" "$out/rounds/$round/submissions/${name%%.*}.toml"
  done
  echo "\$ adjudicate round $out --now $now"
  "$bin" round "$out" --now "$now" | sed 's/^/  /'
done

for public in "$out"/rounds/*/public.txt; do
  echo
  echo "==== $public"
  cat "$public"
done
echo
echo "==== $out/rounds/001/private/dave.txt (one private report)"
cat "$out/rounds/001/private/dave.txt"
echo
"$bin" replay "$out"
