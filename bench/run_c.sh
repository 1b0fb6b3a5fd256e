#!/usr/bin/env bash
# bench/run_c.sh: the c, erlang, js and elixir targets' stands beside raw Erlang/OTP, one table.
# usage: bash bench/run_c.sh [--quick] [--erlang-only] [--no-js]   (--quick stops at 100,000 processes)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh" >/dev/null
cmake -S "$root" -B "$root/build-bench" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$root/build-bench" concord concord_rt concord_js_rt concord_elixir_rt gen_programs >/dev/null
echo "c, erlang, js and elixir targets vs BEAM: $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d), $(erl -noshell -eval 'io:format("OTP ~s", [erlang:system_info(otp_release)]), halt().'), node $(node --version), $(elixir --version 2>/dev/null | tail -1), load $(cut -d' ' -f1 /proc/loadavg)"
/usr/bin/python3 "$root/bench/c_bench.py" "$root/build-bench" "$@"
