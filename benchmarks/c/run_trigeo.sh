#!/usr/bin/env bash
# Build the Trigeo perft baseline and measure it next to `ludothek perft trigeo`, pinned to
# one core, interleaved, REPEAT times each; prints leaves/s of the deepest depth per run.
# Usage: benchmarks/c/run_trigeo.sh [DEPTH] [REPEAT] [CORE] [BASE]   (defaults: 6, 5, 1)
#   BASE: a checkout of an older ludothek (e.g. `git worktree add /tmp/dice-base HEAD`)
#         to measure in the same rounds; run from /tmp so the current directory does not
#         shadow it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
main="$(cd "$here/../.." && pwd)"
depth="${1:-6}"
repeat="${2:-5}"
core="${3:-1}"
base="${4:-}"
cc -O3 -march=native -Wall -Wextra -o "$here/trigeo_perft" "$here/trigeo_perft.c"
rate() { tail -1 | awk '{print $2}'; }  # "  1.234s 56,789 leaves/s" -> 56,789
counts() { grep -v leaves/s; }
ludothek_at() { (cd /tmp && PYTHONPATH="$1" taskset -c "$core" python -m ludothek.cli perft trigeo "$depth" --stats 2>&1); }
echo "counts: C $(taskset -c "$core" "$here/trigeo_perft" "$depth" 2>/dev/null | tail -1) / ludothek $(ludothek_at "$main" | counts | tail -1)"
for ((i = 1; i <= repeat; i++)); do
    [[ -n "$base" ]] && echo "base     $(ludothek_at "$base" | rate)"
    echo "ludothek $(ludothek_at "$main" | rate)"
    echo "C        $(taskset -c "$core" "$here/trigeo_perft" "$depth" 2>&1 >/dev/null | rate)"
done
