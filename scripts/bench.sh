#!/usr/bin/env bash
# Speed target (ARCHITECTURE.md, DEVELOPERS' guide): a tick of the sample game within 3x the cost of
# process start plus writing its output files. Measured, never asserted in tests.
# Usage: scripts/bench.sh ADJUDICATE_BINARY [RUNS] [GAME: room-swap | final-ritual]
set -euo pipefail
bin=$(realpath "$1")
runs=${2:-30}
game=${3:-room-swap}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example=games/$game/example

# A game directory one step before round 1 resolves at $due: every version received.
base=$work/base
mkdir -p "$base/rounds/001/submissions"
cp "$example/game.toml" "$base/"
case $game in
  room-swap)
    due=2026-12-02T15:00:00Z
    for p in alice bob carol dave erin frank; do cp "$example/submissions/r1/$p.toml" "$base/rounds/001/submissions/"; done
    "$bin" round "$base" --now 2026-12-02T09:00:00Z -q
    ;;
  final-ritual)
    due=2026-12-03T15:00:00Z
    "$bin" round "$base" --now 2026-12-01T09:00:00Z -q
    python3 scripts/bot.py "$base"
    "$bin" round "$base" --now 2026-12-03T09:00:00Z -q
    ;;
  *) echo "bench.sh: no bench set-up for $game" >&2; exit 2 ;;
esac
echo "$game, round 1:"

# What the resolving tick writes, to time writing the same files without adjudicate.
probe=$work/probe
cp -r "$base" "$probe"
"$bin" round "$probe" --now "$due" -q
outputs=$work/outputs
mkdir -p "$outputs"
(cd "$probe" && cp -r rounds/001/result.toml rounds/001/public.txt rounds/001/private sent state.toml "$outputs/")
files=$(find "$outputs" -type f | wc -l)

now_ns() { date +%s%N; }
time_runs() { # label, command…
  local label=$1; shift
  local start end
  start=$(now_ns)
  for i in $(seq "$runs"); do "$@" "$i"; done
  end=$(now_ns)
  echo $(( (end - start) / runs / 1000 ))
}
start_only() { "$bin" --version >/dev/null; }
write_only() { cp -r "$outputs" "$work/copy-$1"; }
one_tick() { cp -r "$base" "$work/tick-$1"; "$bin" round "$work/tick-$1" --now "$due" -q; }
copy_only() { cp -r "$base" "$work/pre-$1"; }

t_start=$(time_runs start start_only)
t_write=$(time_runs write write_only)
t_copy=$(time_runs copy copy_only)
t_tick=$(( $(time_runs tick one_tick) - t_copy ))
budget=$(( 3 * (t_start + t_write) ))
echo "process start:            ${t_start} us"
echo "writing its ${files} output files: ${t_write} us (one cp process)"
echo "resolving tick:           ${t_tick} us (mean of $runs, set-up copy subtracted)"
echo "target: tick <= 3 x (start + write) = ${budget} us -> $([ "$t_tick" -le "$budget" ] && echo MET || echo MISSED)"
