#!/usr/bin/env bash
# `adjudicate simulate` (issues #15, #30), measured side by side in one run:
# - each game with random players against a plain Python model of whole games of that game
#   (scripts/<game>_games.py, one core), where one exists: games per second and the ratio;
# - Room Swap and Final Ritual: whether the engine and its model play the same game
#   (scripts/model_agree.py: the statistics of random players within four standard errors);
# - games per second of each game with its default bots (target: 20,000 on 2 cores);
# - peak memory at N and 10 N games (target: flat in N; the statistics are streamed).
# Usage: scripts/bench_simulate.sh ADJUDICATE_BINARY GAMES
set -euo pipefail
bin=$(realpath "$1")
games=${2:-100000}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# seconds CMD…: runs CMD once; prints its wall time and the peak memory (MB) of its children.
seconds() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
took = time.perf_counter() - t
print(f"{took:.3f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024}")
PY
}

# versus GAME MODEL N TARGET: the best of three runs each, alternating, so that a slow moment of
# the machine does not decide the ratio.
versus() {
  local game=$1 model=$2 n=$3 target=$4 py=0 rust=0 p r took mem
  for _ in 1 2 3; do
    # (sed reads the model's every line: `head -1` closing the pipe early made the model die
    # of a broken pipe, and pipefail the bench, whenever the model wrote its second line late)
    p=$(python3 "$model" $(( n / 20 )) | sed -nE '1s/.*: ([0-9]+) games\/s.*/\1/p')
    read -r took mem < <(seconds "$bin" simulate "$game" --games "$n" --bots random -q)
    r=$(awk -v n="$n" -v t="$took" 'BEGIN { printf "%.0f", n / t }')
    [ "$p" -gt "$py" ] && py=$p
    [ "$r" -gt "$rust" ] && rust=$r
  done
  awk -v g="$game" -v r="$rust" -v p="$py" -v c="$(nproc)" -v t="$target" 'BEGIN {
    printf "  %-15s random bots (best of 3): simulate %7d games/s (%d cores); Python model %7d games/s (1 core); %5.1fx (target %dx)\n", g, r, c, p, r / p, t }'
}

echo "simulate against a plain Python model of whole games, random players:"
versus god-race "$here/god_race_games.py" "$games" 100
versus room-swap "$here/room_swap_games.py" "$games" 30
versus final-ritual "$here/final_ritual_games.py" "$(( games / 5 ))" 30

# The same game? The engine's statistics from its CSVs against its model's, over as many games.
for game in room-swap final-ritual; do
  n=$games
  [ "$game" = final-ritual ] && n=$(( games / 2 ))
  "$bin" simulate "$game" --games "$n" --bots random -q --out "$work/$game" >/dev/null
  line=$(python3 "$here/${game//-/_}_games.py" "$n" 7 | tail -1)
  python3 "$here/model_agree.py" "$game" "$work/$game" "$line" "$n" || true
done

# (the median of three runs, with the slowest and fastest: one run alone moves by a third on a
# shared machine)
echo "simulate with each game's default bots, median of 3 (target: 20,000 games/s on $(nproc) cores):"
for game in god-race room-swap planar-control final-ritual tribal-council; do
  n=$games
  [ "$game" = god-race ] || [ "$game" = tribal-council ] || n=$(( games / 5 ))
  runs=()
  for _ in 1 2 3; do
    read -r took mem < <(seconds "$bin" simulate "$game" --games "$n" -q)
    runs+=("$took")
  done
  printf '%s\n' "${runs[@]}" | sort -n | tr '\n' ' ' | awk -v g="$game" -v n="$n" -v m="$mem" '{
    printf "  %-15s %8.0f games/s (%d games in %.2f s; runs %.0f to %.0f games/s), peak %d MB\n", g, n / $2, n, $2, n / $3, n / $1, m }'
done

read -r _ small < <(seconds "$bin" simulate final-ritual --games $(( games / 100 )) -q)
read -r _ big < <(seconds "$bin" simulate final-ritual --games $(( games / 10 )) -q)
echo "  peak memory, final-ritual: $small MB at $(( games / 100 )) games, $big MB at $(( games / 10 )) games (target: flat)"
