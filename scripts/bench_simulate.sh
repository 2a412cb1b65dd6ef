#!/usr/bin/env bash
# `adjudicate simulate` (issue #15), measured side by side in one run:
# - God Race with random players against a plain Python model of the same games
#   (scripts/god_race_games.py, one core): games per second and the ratio (target: 30x);
# - games per second of each game with its default bots;
# - peak memory at N and 10 N games (target: flat in N; the statistics are streamed).
# Usage: scripts/bench_simulate.sh ADJUDICATE_BINARY GAMES
set -euo pipefail
bin=$(realpath "$1")
games=${2:-100000}
here=$(cd "$(dirname "$0")" && pwd)

# games_per_second CMD…: runs CMD once, prints games/s from its wall time.
seconds() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
took = time.perf_counter() - t
print(f"{took:.3f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024}")
PY
}

# The best of three runs each, alternating, so that a slow moment of the machine does not decide
# the ratio.
py_games=$(( games / 20 ))
py=0
rust=0
for _ in 1 2 3; do
  p=$(python3 "$here/god_race_games.py" "$py_games" | sed -E 's/.*: ([0-9]+) games\/s.*/\1/')
  read -r took mem < <(seconds "$bin" simulate god-race --games "$games" --bots random -q)
  r=$(awk -v n="$games" -v t="$took" 'BEGIN { printf "%.0f", n / t }')
  [ "$p" -gt "$py" ] && py=$p
  [ "$r" -gt "$rust" ] && rust=$r
done
awk -v r="$rust" -v p="$py" -v c="$(nproc)" 'BEGIN {
  printf "  god-race, random bots, 7 players (best of 3): simulate %d games/s (%d cores); Python model %d games/s (1 core); %.1fx (target 30x)\n", r, c, p, r / p }'

for game in god-race room-swap planar-control final-ritual; do
  n=$games
  [ "$game" = god-race ] || n=$(( games / 10 ))
  read -r took mem < <(seconds "$bin" simulate "$game" --games "$n" -q)
  awk -v g="$game" -v n="$n" -v t="$took" -v m="$mem" 'BEGIN {
    printf "  %-15s default bots: %8.0f games/s (%d games in %.2f s), peak %d MB\n", g, n / t, n, t, m }'
done

read -r _ small < <(seconds "$bin" simulate final-ritual --games $(( games / 100 )) -q)
read -r _ big < <(seconds "$bin" simulate final-ritual --games $(( games / 10 )) -q)
echo "  peak memory, final-ritual: $small MB at $(( games / 100 )) games, $big MB at $(( games / 10 )) games (target: flat)"
