#!/usr/bin/env bash
# The resolve phase of a God Race round (GodRace::resolve alone, examples/race_resolve.rs)
# against a plain Python model of the same round (scripts/god_race_model.py), side by side.
# Target (issue #17): at least 10x faster than the model.
# Usage: scripts/bench_resolve.sh RACE_RESOLVE_BINARY N…
set -euo pipefail
bin=$(realpath "$1"); shift
here=$(cd "$(dirname "$0")" && pwd)
for n in "$@"; do
  rust=$("$bin" "$n" 5 | sed -E 's/.*resolve ([0-9.]+) ms.*/\1/')
  python=$(python3 "$here/god_race_model.py" "$n" 5 | sed -E 's/.*resolve ([0-9.]+) ms.*/\1/')
  awk -v n="$n" -v r="$rust" -v p="$python" 'BEGIN {
    printf "  %6d players: resolve %8.1f ms; Python model %8.1f ms; %.1fx faster (target 10x)\n", n, r, p, p / r }'
done
