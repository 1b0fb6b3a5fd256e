#!/usr/bin/env bash
# bench/run.sh: builds the benchmark stands (release) and prints their table.
# usage: bash bench/run.sh [TURNS]   (default 2000000 turns per measurement)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh" >/dev/null
cmake -S "$root" -B "$root/build-bench" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$root/build-bench" oracle_bench >/dev/null
echo "oracle: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d)"
"$root/build-bench/bench/oracle_bench" "$@"
