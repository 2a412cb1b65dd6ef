#!/usr/bin/env bash
# Speed target (issue #17): the resolving tick of a sample game within 1.5x its floor, a program
# that only writes the same files (examples/floor.rs: process start, temp file + rename, one
# fsync). Measured, never asserted in tests.
# Usage: scripts/bench.sh ADJUDICATE_BINARY FLOOR_BINARY [RUNS] [GAME: room-swap | final-ritual]
set -euo pipefail
bin=$(realpath "$1")
floor=$(realpath "$2")
runs=${3:-30}
game=${4:-room-swap}
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

# What the resolving tick writes, for the floor to write the same files.
probe=$work/probe
cp -r "$base" "$probe"
touch "$work/mark"; sleep 0.01
"$bin" round "$probe" --now "$due" -q
outputs=$work/outputs
mkdir -p "$outputs"
(cd "$probe" && find . -path ./.cache -prune -o -type f -newer "$work/mark" -exec cp --parents -t "$outputs" {} +)
files=$(find "$outputs" -type f | wc -l)

# Each run timed alone, the floor and the tick alternating, so that a slow stretch of the
# machine falls on both; the medians are compared. The game is copied for each tick before any
# clock starts, and the clock is bash's own ($EPOCHREALTIME, read as whole microseconds: no
# process is started to read it, before or after a run).
# Process start alone is timed in the same alternation, for both programs: `adjudicate
# --version` (the loader, relocations, the allocator and the argument parser; no file read) and
# the floor without arguments (it prints its usage): what of each run no work on the files can
# remove.
for i in $(seq "$runs"); do cp -r "$base" "$work/tick-$i"; done
floor_us=() tick_us=() start_us=() floor_start_us=()
for i in $(seq "$runs"); do
  start=${EPOCHREALTIME/[.,]/}
  "$floor" write "$outputs" "$work/floor-$i" 2>/dev/null
  floor_us+=($(( ${EPOCHREALTIME/[.,]/} - start )))
  start=${EPOCHREALTIME/[.,]/}
  "$bin" round "$work/tick-$i" --now "$due" -q
  tick_us+=($(( ${EPOCHREALTIME/[.,]/} - start )))
  start=${EPOCHREALTIME/[.,]/}
  "$bin" --version >/dev/null
  start_us+=($(( ${EPOCHREALTIME/[.,]/} - start )))
  start=${EPOCHREALTIME/[.,]/}
  "$floor" 2>/dev/null || true
  floor_start_us+=($(( ${EPOCHREALTIME/[.,]/} - start )))
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
t_floor=$(median "${floor_us[@]}")
t_tick=$(median "${tick_us[@]}")
t_start=$(median "${start_us[@]}")
t_floor_start=$(median "${floor_start_us[@]}")
awk -v t="$t_tick" -v f="$t_floor" -v s="$t_start" -v fs="$t_floor_start" -v n="$files" -v r="$runs" 'BEGIN {
  printf "  resolving tick %6d us; floor (writing its %d files) %6d us; ratio %.2fx (target 1.5x; median of %d, alternating)\n", t, n, f, t / f, r
  printf "  process start alone: adjudicate (--version) %6d us, %.2fx the whole floor; the floor (no arguments) %6d us\n", s, s / f, fs
  printf "  beyond its start: the tick %6d us, the floor %6d us\n", t - s, f - fs }'
