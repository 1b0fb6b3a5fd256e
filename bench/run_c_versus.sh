#!/usr/bin/env bash
# bench/run_c_versus.sh: the c target's stands against the same at commit REF
# (default HEAD~1), both Release builds (bench/c_versus.py).
# usage: bash bench/run_c_versus.sh [REF] [REPS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:-HEAD~1}
bash "$root/scripts/setup.sh" >/dev/null
work=$(mktemp -d /tmp/concord_versus_src.XXXXXX)
trap 'git -C "$root" worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$root" worktree add --detach "$work/src" "$ref" >/dev/null
for dir in "$root" "$work/src"; do
  cmake -S "$dir" -B "$dir/build-bench" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$dir/build-bench" concord concord_rt >/dev/null
done
/usr/bin/python3 "$root/bench/c_versus.py" "$root/build-bench" "$work/src/build-bench" "${2:-5}"
