#!/usr/bin/env bash
# Runs the OTP experiments on the local Erlang/OTP node: every module, or the
# ones named (supervision links monitors calls starts supervisor_api significant
# free). `free` (SPEC §25.7) runs on a node with N = max(2, cores) schedulers
# (erl +S N:N): its races need two schedulers at least.
# Usage: bash spec/experiments/run.sh [MODULE...]   (exit status 0 iff every check passes)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(supervision links monitors calls starts supervisor_api significant free)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
erlc -Wall -o "$out" "$here"/*.erl
cores="$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)"
scheds=$(( cores > 2 ? cores : 2 ))
status=0
for m in "${modules[@]}"; do
    [ -f "$here/$m.erl" ] || { echo "run.sh: no experiment module $m" >&2; exit 2; }
    # Each module's main/0 halts the node itself: status 0 if all its checks
    # passed, 1 if any failed, 2/3 if its harness crashed or timed out.
    flags=()
    if [ "$m" = free ]; then flags=(+S "$scheds:$scheds"); fi
    erl ${flags[@]+"${flags[@]}"} -noshell -pa "$out" -s "$m" main -s init stop || status=1
done
exit $status
