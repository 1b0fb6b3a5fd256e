#!/usr/bin/env bash
# scripts/demo.sh: the README's first command. Sets up and builds concord, runs the
# corpus on every target (oracle, c, erlang, js and elixir, through the backend protocol),
# then the main job: a short default fuzz campaign (oracle, c, erlang, js; elixir, which
# compiles each program with Elixir's compiler, only with --target) that prints its
# progress and its report (divergences, shrunk cases, coverage), also written as a
# report folder under campaigns/ (index.html, summary.json, junit.xml). A campaign writes
# corpus/found/ only when a target disagrees with the oracle.
# usage: bash scripts/demo.sh [DURATION]   (default 60s; e.g. 5m)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh" "$root/build" >/dev/null
cd "$root"
c=build/concord
echo "== concord corpus corpus --target all"
$c corpus corpus --target all
echo
echo "== concord fuzz --time ${1:-60s}"
$c fuzz --time "${1:-60s}"
