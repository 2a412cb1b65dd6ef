#!/usr/bin/env bash
# A God Race round at N players against its floor (examples/floor.rs), measured side by side:
#   - resolving tick, submissions received by an earlier tick;
#   - resolving tick that also receives every submission;
#   - idle tick (nothing new) against listing the game directory;
#   - `status` against listing the game directory.
# Each figure is the median of RUNS runs (wall clock, one process each, set-up untimed). The tick
# runs on a hard-linked copy of the game (safe: every write it makes is a new file renamed into
# place); the floor writes the tick's output files into an empty folder.
# Usage: scripts/bench_big.sh ADJUDICATE FLOOR N [RUNS]
set -euo pipefail
bin=$(realpath "$1")
floor=$(realpath "$2")
n=$3
runs=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Round 0 resolved, every player's round 1 submission in submissions/ (not yet received).
fresh=$work/fresh
python3 "$here/make_big_race.py" "$fresh" "$n"
"$bin" round "$fresh" --now 2026-12-01T00:00:00Z --force -q
python3 "$here/bot.py" "$fresh"
# The same, every submission received by an earlier tick.
received=$work/received
cp -a "$fresh" "$received"
"$bin" round "$received" --now 2026-12-01T00:01:00Z -q

ms() { echo $(( ($2 - $1) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# time_cmd SETUP CMD…: runs SETUP untimed, then times CMD; prints milliseconds.
time_one() {
  local setup=$1; shift
  eval "$setup"
  sync
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null
  end=$(date +%s%N)
  ms "$start" "$end"
}

# The files a command writes into a copy of DIR (new or changed), copied into OUT with their paths.
outputs_of() { # DIR OUT CMD…
  local dir=$1 out=$2; shift 2
  local probe=$work/probe
  rm -rf "$probe"; cp -al "$dir" "$probe"
  touch "$work/mark"; sleep 0.01
  (cd "$probe" && "$@" >/dev/null)
  rm -rf "$out"; mkdir -p "$out"
  (cd "$probe" && find . -path ./.cache -prune -o -type f -newer "$work/mark" -exec cp --parents -t "$out" {} +)
  find "$out" -type f | wc -l
}

row() { # label, tick ms, floor ms
  awk -v l="$1" -v t="$2" -v f="$3" 'BEGIN { printf "%-44s %8d ms %8d ms %6.2fx\n", l, t, f, (f > 0 ? t / f : 0) }'
}

printf "God Race, %d players (median of %d runs)\n" "$n" "$runs"
printf "%-44s %11s %11s %7s\n" "" "adjudicate" "floor" "ratio"

for variant in received fresh; do
  base=$work/$variant
  files=$(outputs_of "$base" "$work/out-$variant" "$bin" round . --now 2026-12-01T00:02:00Z --force -q)
  t=(); f=()
  for i in $(seq "$runs"); do
    # (a tick without --force first, two seconds after the copy: linking changed every file's
    # ctime, and the tick cache neither trusts nor records a file changed in the last two
    # seconds, so it would hash them all again; on a real host the files sit untouched)
    prime=":"
    [ "$variant" = received ] && prime="sleep 2.1; $bin round $work/t --now 2026-12-01T00:01:30Z -q"
    t+=("$(time_one "rm -rf $work/t; cp -al $base $work/t; $prime" "$bin" round "$work/t" --now 2026-12-01T00:02:00Z --force -q)")
    f+=("$(time_one "rm -rf $work/t; mkdir $work/t" "$floor" write "$work/out-$variant" "$work/t")")
  done
  label="resolving tick ($variant, $files files)"
  [ "$variant" = fresh ] && label="resolving tick receiving all ($files files)"
  [ "$variant" = received ] && label="resolving tick (received earlier, $files files)"
  row "$label" "$(printf '%s\n' "${t[@]}" | median)" "$(printf '%s\n' "${f[@]}" | median)"
done

# Idle tick and status on the received game: nothing new to do. The first idle tick after a
# change reads everything and writes the idle stamp (.cache/idle.toml); later ones read the stamp.
first=$(time_one : "$bin" round "$received" --now 2026-12-01T00:02:30Z -q)
t=(); s=(); f=()
for i in $(seq "$runs"); do
  t+=("$(time_one : "$bin" round "$received" --now 2026-12-01T00:03:00Z -q)")
  s+=("$(time_one : "$bin" status "$received")")
  f+=("$(time_one : "$floor" list "$received")")
done
lf=$(printf '%s\n' "${f[@]}" | median)
row "first idle tick after a change" "$first" "$lf"
row "idle tick (nothing new)" "$(printf '%s\n' "${t[@]}" | median)" "$lf"
row "status" "$(printf '%s\n' "${s[@]}" | median)" "$lf"

# Peak memory of the resolving tick that receives everything, beyond the size of what it writes.
rm -rf "$work/t"; cp -al "$fresh" "$work/t"
peak=$( { /usr/bin/time -f "%M" "$bin" round "$work/t" --now 2026-12-01T00:02:00Z --force -q >/dev/null; } 2>&1 | tail -1)
written=$(du -sk --apparent-size "$work/out-fresh" | cut -f1)
awk -v p="$peak" -v w="$written" -v n="$n" 'BEGIN { printf "peak memory %d KB; files written %d KB; %.2f KB per player beyond them\n", p, w, (p - w) / n }'
