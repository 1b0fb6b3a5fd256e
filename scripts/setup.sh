#!/usr/bin/env bash
# scripts/setup.sh: installs, from Debian 12 packages, whatever concord needs and is missing.
# Safe to run again: it only calls apt-get when a package is absent.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  libgtest-dev librapidcheck-dev nlohmann-json3-dev
  libboost-dev libboost-filesystem-dev libfmt-dev
  clang tcc libtcc-dev
  erlang-base erlang-dev erlang-common-test elixir
  nodejs
  python3 python3-jsonschema python3-yaml python3-pytest
  chromium parallel
  slurm-wlm munge
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
