#!/usr/bin/env bash
# Plays a short season into OUT_DIR the way a host would: a cast of seven, a God Race, the
# Death Match of its Elimination Candidate recorded as an event, then a Final Ritual for the six
# left. Bots (scripts/bot.py) answer for every player; `round --all` is the cron line, ticking
# the matches and writing the season's reports when a match ends.
# Usage: scripts/season_demo.sh ADJUDICATE_BINARY SEASON_DIR PLAYER
set -euo pipefail
bin=$1
out=$2
player=${3:-dave}
season=$out

rm -rf "$out"
run() { echo "\$ adjudicate $*"; "$bin" "$@" | sed 's/^/  /'; }

run season new "$season" --players games/season/cast.toml --title "Season One" --seed 2027

# play MATCH_DIR FIRST_DAY: give the match a schedule (the host's edit: a deadline each day at
# 15:00 UTC from FIRST_DAY), then tick the whole root each day until the match is over; `ended`
# is then the day it ended.
play() {
  local dir=$1 first=$2
  sed -i 's/^\[mail\]$/[schedule]\nfirst_deadline = '"$first"'T15:00:00Z\nevery = "24h"\n\n[mail]/' "$dir/game.toml"
  "$bin" round --all "$out" --now "${first}T09:00:00Z" -q
  for i in $(seq 0 30); do
    python3 scripts/bot.py "$dir" > /dev/null
    ended=$(date -u -d "$first + $i days" +%Y-%m-%d)
    "$bin" round --all "$out" --now "${ended}T15:00:00Z" -q
    if "$bin" status "$dir" --now "${ended}T15:00:00Z" | grep -q "is over"; then
      echo "  ($dir: the last round resolved on $ended; round --all wrote the season's reports)"
      return
    fi
  done
  echo "season_demo.sh: $dir did not end" >&2
  exit 1
}

run season match "$season" god-race
play "$season/matches/01-god-race" 2027-01-04
run season status "$season"

# The God Race's first Elimination Candidate loses the Death Match to a player without a Token
# (the Death Match itself is played outside the tool).
candidate=$(python3 -c 'import sys, tomllib, glob
finals = [tomllib.load(open(p, "rb"))["public"].get("final") for p in sorted(glob.glob(sys.argv[1] + "/rounds/*/result.toml"))]
print([f for f in finals if f][-1]["elimination"][0])' "$season/matches/01-god-race")
opponent=$(python3 -c 'import sys, tomllib, glob
finals = [tomllib.load(open(p, "rb"))["public"].get("final") for p in sorted(glob.glob(sys.argv[1] + "/rounds/*/result.toml"))]
final = [f for f in finals if f][-1]
print([p for p in ["alice", "bob", "carol", "dave", "erin", "frank", "grace"] if p != sys.argv[2] and p not in final["tokens"]][0])' "$season/matches/01-god-race" "$candidate")
run season event "$season" death-match --winner "$opponent" --loser "$candidate" --reason "Death Match after Match 1" --at "${ended}T18:00:00Z"

run season match "$season" final-ritual
play "$season/matches/02-final-ritual" "$(date -u -d "$ended + 2 days" +%Y-%m-%d)"
run season status "$season"

for public in "$season"/reports/*/public.txt; do
  echo
  echo "==== $public"
  cat "$public"
done
echo
echo "==== $season/reports/01-god-race/private/$player.txt (one private season report)"
cat "$season/reports/01-god-race/private/$player.txt"
