#!/usr/bin/env bash
# Build the C baseline and measure it next to `ludothek bench trike`, pinned to one core.
# Usage: benchmarks/c/run.sh [SECONDS] [CORE] [SIZES...]   (defaults: 5, 1, "7 13 19")
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${1:-5}"
core="${2:-1}"
shift $(( $# > 2 ? 2 : $# ))
sizes=("${@:-7 13 19}")
cc -O3 -march=native -Wall -Wextra -o "$here/trike_playouts" "$here/trike_playouts.c"
for size in ${sizes[@]}; do
    echo "size $size"
    echo -n "  ludothek: "
    taskset -c "$core" ludothek bench trike --size "$size" --seconds "$seconds" 2>/dev/null | tail -1
    echo -n "  C:        "
    taskset -c "$core" "$here/trike_playouts" "$size" "$seconds"
done
