#!/usr/bin/env bash
# scripts/build.sh: installs what is missing (scripts/setup.sh), configures and
# builds concord. usage: bash scripts/build.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
shift || true
bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$dir" -G Ninja "$@" >/dev/null
ninja -C "$dir"
