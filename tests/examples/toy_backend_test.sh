#!/usr/bin/env bash
# tests/examples/toy_backend_test.sh SOURCE_DIR BINARY_DIR CONCORD [CMAKE] [CTEST] [GENERATOR]
#
# The example project examples/toy-backend, as a user of concord would use it:
#   1. configured against this build tree (-Dconcord_DIR=BINARY_DIR), built, and its
#      ctest run: every case on the toy backend and on the oracle must pass, and
#      `ctest -L toy` must select exactly the toy's tests, one per case, and they
#      must run CONCORD (the build's concord executable); its scoreboard (toy/conformance)
#      passes every case and skips, never fails, what the toy does not claim;
#   2. the same against an install of this build (cmake --install --prefix), found
#      through CMAKE_PREFIX_PATH, its tests running the installed concord.
# Everything happens in a fresh folder under BINARY_DIR/tests/examples, deleted when
# the test passes and kept (its path printed) when it fails.
set -euo pipefail
src=$1
bin=$2
concord=$3
cmake=${4:-cmake}
ctest=${5:-ctest}
generator=${6:-Ninja}
example="$src/examples/toy-backend"

mkdir -p "$bin/tests/examples"
work=$(mktemp -d "$bin/tests/examples/toy_backend.XXXXXX")
finish() {
  status=$?
  if [ "$status" -eq 0 ]; then rm -rf "$work"; else echo "toy_backend_test: FAILED, files kept in $work" >&2; fi
}
trap finish EXIT

step() { echo "== $*"; }
cases=$(find "$example/corpus" -name '*.case.json' | wc -l)
[ "$cases" -gt 0 ] || { echo "no cases in $example/corpus" >&2; exit 1; }

# Checks a configured example build: all tests pass, -L toy selects one test per
# case, all named toy/toy/<case>, and they run the concord executable $2.
check_build() {
  local build=$1 concord=$2
  step "ctest in $build"
  "$ctest" --test-dir "$build" --output-on-failure
  local listed
  listed=$("$ctest" --test-dir "$build" -N -L toy | grep -c ' Test *#[0-9]*: ' || true)
  if [ "$listed" -ne "$cases" ]; then
    echo "ctest -L toy lists $listed tests, expected $cases (one per case)" >&2
    exit 1
  fi
  if "$ctest" --test-dir "$build" -N -L toy | grep ' Test *#[0-9]*: ' | grep -v ': toy/toy/'; then
    echo "ctest -L toy selects tests that are not toy/toy/<case>" >&2
    exit 1
  fi
  "$ctest" --test-dir "$build" --show-only=json-v1 > "$build/tests.json"
  if ! grep -qF "\"$concord\"" "$build/tests.json"; then
    echo "the tests do not run $concord" >&2
    exit 1
  fi
  "$ctest" --test-dir "$build" -L toy --output-on-failure
  # The toy's scoreboard (toy/conformance): every case of its corpus claimed and
  # passed, and generated programs of version 2 or with supervisors skipped, never failed.
  python3 - "$build/conformance/conformance.json" "$cases" <<'PY'
import json, sys
board = json.load(open(sys.argv[1]))
toy = [t for t in board["targets"] if t["target"] == "toy"][0]
hand, gen = toy["total"]["hand"], toy["total"]["generated"]
assert hand == {"pass": int(sys.argv[2]), "fail": 0, "skip": 0, "deviation": 0}, hand
assert gen["fail"] == 0 and gen["skip"] > 0 and gen["pass"] > 0, gen
v2 = [r for r in toy["rows"] if r["what"] == "version 2"][0]["generated"]
assert v2["pass"] == 0 and v2["skip"] > 0, v2
PY
}

step "configure the example against the build tree $bin"
"$cmake" -G "$generator" -S "$example" -B "$work/build-tree" -Dconcord_DIR="$bin"
"$cmake" --build "$work/build-tree"
check_build "$work/build-tree" "$concord"

step "install this build into $work/prefix, configure the example against it"
"$cmake" --install "$bin" --prefix "$work/prefix"
"$cmake" -G "$generator" -S "$example" -B "$work/install-tree" -DCMAKE_PREFIX_PATH="$work/prefix"
"$cmake" --build "$work/install-tree"
check_build "$work/install-tree" "$work/prefix/bin/concord"
step "toy_backend_test: passed"
