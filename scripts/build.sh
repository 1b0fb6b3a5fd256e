#!/usr/bin/env bash
# scripts/build.sh: installs what is missing (scripts/setup.sh), configures and
# builds concord. usage: bash scripts/build.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
shift || true
bash "$root/scripts/setup.sh"
# ccache (installed by setup.sh) makes a second build of the same sources cheap, also
# from another clone: paths under the source tree are hashed relative to it.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$dir" -G Ninja "${launcher[@]}" "$@" >/dev/null
ninja -C "$dir"
