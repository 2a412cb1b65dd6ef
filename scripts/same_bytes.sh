#!/usr/bin/env bash
# Whether two builds write the same bytes (issue #30: a change for speed changes no output): the
# sample games, the season and the web archive `make demo` writes, and every game's `simulate`
# tables and CSVs with its default and its random bots. Prints the files that differ, if any;
# exits 1 when some do. The tick's caches (`.cache/`, which hold file times) are left out.
# Usage: scripts/same_bytes.sh OLD_ADJUDICATE NEW_ADJUDICATE [GAMES]
set -euo pipefail
old=$(realpath "$1")
new=$(realpath "$2")
games=${3:-3000}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# outputs BIN OUT: everything BIN writes, into OUT.
outputs() {
  local bin=$1 out=$2
  for demo in "room-swap dave" "god-race erin" "planar-control alice" "final-ritual bob"; do
    set -- $demo
    bash "$here/demo.sh" "$bin" "$out/$1" "$1" "$2" >/dev/null
  done
  bash "$here/season_demo.sh" "$bin" "$out/season" dave >/dev/null
  "$bin" site "$out" "$out/site" >/dev/null
  for game in god-race room-swap planar-control final-ritual tribal-council; do
    "$bin" simulate "$game" --games "$games" -q --out "$out/simulate/$game-default" \
      >"$out/simulate/$game-default.txt"
    "$bin" simulate "$game" --games "$games" --bots random -q --out "$out/simulate/$game-random" \
      >"$out/simulate/$game-random.txt"
  done
}

for side in old new; do
  mkdir -p "$work/$side/simulate"
  outputs "${!side}" "$work/$side"
done
files=$(cd "$work/old" && find . -type f ! -path '*/.git/*' ! -path '*/.cache/*' | wc -l)
if diff -rq -x .git -x .cache "$work/old" "$work/new"; then
  echo "same bytes: $files files"
else
  echo "different bytes (above)"
  exit 1
fi
