#!/usr/bin/env bash
# bench/run_free.sh: a free run's cost on the erlang target beside a conducted run's,
# the same programs in the same run (bench/free_bench.py).
# usage: bash bench/run_free.sh [PROGRAMS] [RUNS] [PROFILE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh" >/dev/null
cmake -S "$root" -B "$root/build-bench" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$root/build-bench" concord concord_erlang_rt >/dev/null
echo "free runs against conducted runs: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d)"
/usr/bin/python3 "$root/bench/free_bench.py" "$root/build-bench" "$@"
