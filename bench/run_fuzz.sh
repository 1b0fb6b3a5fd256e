#!/usr/bin/env bash
# bench/run_fuzz.sh: the campaign throughput stand (bench/fuzz_bench.py): the oracle-only
# ceiling, each target alone, the default campaign, and the c target's compiler-process path.
# usage: bash bench/run_fuzz.sh [CASES] [JOBS] [--baseline CONCORD]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh" >/dev/null
cmake -S "$root" -B "$root/build-bench" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$root/build-bench" concord concord_rt concord_erlang_rt concord_js_rt >/dev/null
echo "concord fuzz throughput: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d)"
/usr/bin/python3 "$root/bench/fuzz_bench.py" "$root/build-bench" "$@"
