#!/usr/bin/env bash
# Build the Hexalit perft baseline and measure it next to `ludothek perft hexalit`, pinned to
# one core, interleaved, REPEAT times each; prints leaves/s of the deepest depth per run.
# Usage: benchmarks/c/run_hexalit.sh [DEPTH] [REPEAT] [CORE]   (defaults: 5, 5, 1)
#   Run from /tmp so the current directory does not shadow ludothek.
#   Check the counts first: python benchmarks/c/check_hexalit.py
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
main="$(cd "$here/../.." && pwd)"
depth="${1:-5}"
repeat="${2:-5}"
core="${3:-1}"
cc -O3 -march=native -Wall -Wextra -o "$here/hexalit_perft" "$here/hexalit_perft.c"
rate() { tail -1 | awk '{print $2}'; }  # "  1.234s 56,789 leaves/s" -> 56,789
counts() { grep -v leaves/s; }
ludothek_run() { (cd /tmp && PYTHONPATH="$main" taskset -c "$core" python -m ludothek.cli perft hexalit "$depth" --stats 2>&1); }
echo "counts: C $(taskset -c "$core" "$here/hexalit_perft" "$depth" 2>/dev/null | tr '\n' ' ')"
echo "  ludothek $(ludothek_run | counts | tr '\n' ' ')"
for ((i = 1; i <= repeat; i++)); do
    echo "ludothek $(ludothek_run | rate)"
    echo "C        $(taskset -c "$core" "$here/hexalit_perft" "$depth" 2>&1 >/dev/null | rate)"
done
