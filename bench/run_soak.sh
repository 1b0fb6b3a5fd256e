#!/usr/bin/env bash
# bench/run_soak.sh: the overnight stand (bench/soak.py): one campaign of an hour or
# more on every target, sampling memory, open files, temp files and the BEAM's own
# figures every minute, then printing each one's growth per hour.
# usage: bash bench/run_soak.sh [DURATION] [JOBS] [SAMPLE_SECONDS] [-- FUZZ_ARGS...]   (default 1h)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh" >/dev/null
cmake -S "$root" -B "$root/build-bench" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$root/build-bench" concord >/dev/null
echo "concord soak: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d)"
/usr/bin/python3 "$root/bench/soak.py" "$root/build-bench" "$@"
