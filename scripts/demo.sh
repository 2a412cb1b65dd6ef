#!/usr/bin/env bash
# Plays a sample game (games/<id>/example) tick by tick into a fresh game directory, the way a
# host's cron would, and prints every announcement and one private report.
# Usage: scripts/demo.sh ADJUDICATE_BINARY OUT_DIR GAME_ID PLAYER
set -euo pipefail
bin=$1
out=$2
game=${3:-room-swap}
player=${4:-dave}
example=games/$game/example

rm -rf "$out"
mkdir -p "$out"
cp "$example/game.toml" "$out/"

# Each script line: NOW FILE…; r2/bob.v2.toml goes to rounds/002/submissions/bob.toml.
grep -v '^#' "$example/script" | while read -r now files; do
  [ -z "$now" ] && continue
  for file in $files; do
    if [ "$file" = bot ]; then
      python3 scripts/bot.py "$out"
      continue
    fi
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
echo "==== $out/rounds/001/private/$player.txt (one private report)"
cat "$out/rounds/001/private/$player.txt"
echo
"$bin" replay "$out"
