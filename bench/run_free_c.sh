#!/usr/bin/env bash
# bench/run_free_c.sh: the c target's free mode on 1, 2 and N threads beside its
# conducted (single-threaded) mode and raw BEAM on +S 1 and +S N, one table
# (bench/free_c_bench.py says what each stand is).
# usage: bash bench/run_free_c.sh [--quick] [REPS]   (--quick stops at 100,000 processes)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh" >/dev/null
cmake -S "$root" -B "$root/build-bench" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$root/build-bench" concord concord_rt concord_rt_free >/dev/null
echo "c target free mode: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d), $(erl -noshell -eval 'io:format("OTP ~s", [erlang:system_info(otp_release)]), halt().'), load $(cut -d' ' -f1 /proc/loadavg)"
/usr/bin/python3 "$root/bench/free_c_bench.py" "$root/build-bench" "$@"
