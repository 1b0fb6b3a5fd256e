#!/usr/bin/env bash
# tests/examples/corpus_args_test.sh SOURCE_DIR BINARY_DIR [CMAKE] [CTEST] [GENERATOR]
#
# concord_add_corpus (cmake/ConcordCorpus.cmake) on tiny generated projects found
# against this build tree (-Dconcord_DIR=BINARY_DIR):
#   - each bad call must make the configure fail with its expected message;
#   - a good call must register the expected tests: names, labels, and the command
#     with each --backend declaration as one argument (spaces, quotes and a ';'
#     included), a BACKENDS file passed through; then the oracle's test and a
#     BACKENDS-declared toy backend's test must pass under ctest.
# Everything happens in a fresh folder under BINARY_DIR/tests/examples, deleted when
# the test passes and kept (its path printed) when it fails.
set -euo pipefail
src=$1
bin=$2
cmake=${3:-cmake}
ctest=${4:-ctest}
generator=${5:-Ninja}

mkdir -p "$bin/tests/examples"
work=$(mktemp -d "$bin/tests/examples/corpus_args.XXXXXX")
finish() {
  status=$?
  if [ "$status" -eq 0 ]; then rm -rf "$work"; else echo "corpus_args_test: FAILED, files kept in $work" >&2; fi
}
trap finish EXIT

# Shared inputs: a folder with one case, an empty folder, two cases of the same name.
mkdir -p "$work/in/cases" "$work/in/empty" "$work/in/dup/a" "$work/in/dup/b"
cp "$src/examples/toy-backend/corpus/drops.case.json" "$src/examples/toy-backend/corpus/drops.conc" "$work/in/cases/"
for d in a b; do cp "$work/in/cases/drops.case.json" "$work/in/cases/drops.conc" "$work/in/dup/$d/"; done
echo 'not a case' > "$work/in/notes.txt"
cat > "$work/in/backends.json" <<JSON
{"backends":{"toyj":{"command":["python3","$src/examples/toy-backend/toy_backend.py"],"run_timeout":30}}}
JSON

n=0
# project DIR CALL: writes into DIR a project calling concord_add_corpus(CALL).
project() {
  local dir=$1
  mkdir -p "$dir"
  cat > "$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.22)
project(corpus_args_$n NONE)
find_package(concord REQUIRED)
enable_testing()
concord_add_corpus($2)
CMAKE
}

# must_fail CALL EXPECTED: the configure fails and its output contains EXPECTED.
must_fail() {
  local dir="$work/p$((n += 1))" out
  project "$dir" "$1"
  if out=$("$cmake" -G "$generator" -S "$dir" -B "$dir/build" -Dconcord_DIR="$bin" 2>&1); then
    echo "configure succeeded, expected a failure: concord_add_corpus($1)" >&2
    exit 1
  fi
  # CMake wraps long messages: compare with all whitespace runs as one space.
  if ! tr -s ' \n' '  ' <<<"$out" | grep -qF -- "$2"; then
    echo "concord_add_corpus($1) failed without '$2':" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "ok: rejected: $2"
}

in="$work/in"
must_fail "NAME t CORPUS $in/empty TARGETS oracle" "CORPUS folder '$in/empty' has no *.case.json files"
must_fail "NAME t CORPUS $in/nowhere TARGETS oracle" "CORPUS '$in/nowhere' does not exist"
must_fail "NAME t CORPUS $in/notes.txt TARGETS oracle" "CORPUS file '$in/notes.txt' is not a case file"
must_fail "NAME t BAKEND x=y CORPUS $in/cases TARGETS oracle" "unknown argument(s): BAKEND;x=y"
must_fail "NAME t CORPUS $in/cases TARGETS oracle BAKEND x=y" "target 'BAKEND' is neither built in (oracle, c, erlang, js, elixir) nor declared by BACKEND or BACKENDS (a misspelt keyword?"
must_fail "NAME t CORPUS $in/cases" "TARGETS is missing"
must_fail "NAME t TARGETS oracle CORPUS" "CORPUS given without a value"
must_fail "CORPUS $in/cases TARGETS oracle" "NAME is missing"
must_fail "NAME t CORPUS $in/cases TARGETS mine" "target 'mine' is neither built in (oracle, c, erlang, js, elixir) nor declared"
must_fail "NAME t CORPUS $in/cases TARGETS mine BACKEND mine" "BACKEND 'mine' is not NAME=COMMAND"
must_fail "NAME t CORPUS $in/cases TARGETS oracle BACKEND oracle=foo" "BACKEND name 'oracle' is taken"
must_fail "NAME t CORPUS $in/cases TARGETS oracle BACKENDS $in/notes.txt" "BACKENDS file '$in/notes.txt' has no \"backends\" object"
must_fail "NAME t CORPUS $in/dup TARGETS oracle" "two case files are named 'drops'"
must_fail "NAME t CORPUS $in/cases TARGETS oracle TIMEOUT soon" "TIMEOUT 'soon' is not a number of seconds"

# A good call: the tests, their labels and their argv, exactly.
dir="$work/good"
project "$dir" "NAME good CORPUS $in/cases TARGETS oracle mine toyj
  BACKEND \"mine=sh -c 'cat >/dev/null; exit 1' 'a b'\" BACKENDS $in/backends.json LABELS extra TIMEOUT 60"
"$cmake" -G "$generator" -S "$dir" -B "$dir/build" -Dconcord_DIR="$bin" > "$dir/configure.log"
"$ctest" --test-dir "$dir/build" --show-only=json-v1 > "$dir/tests.json"
python3 - "$dir/tests.json" "$in" <<'PY'
import json, sys
tests = {t["name"]: t for t in json.load(open(sys.argv[1]))["tests"]}
cases = sys.argv[2] + "/cases/drops.case.json"
backends = ["--backend", "mine=sh -c 'cat >/dev/null; exit 1' 'a b'", "--backends", sys.argv[2] + "/backends.json"]
assert sorted(tests) == ["good/mine/drops", "good/oracle/drops", "good/toyj/drops"], sorted(tests)
for target in ("oracle", "mine", "toyj"):
    t = tests["good/%s/drops" % target]
    assert t["command"][1:] == ["corpus", cases, "--target", target] + backends, t["command"]
    props = {p["name"]: p["value"] for p in t["properties"]}
    assert sorted(props["LABELS"]) == sorted(["concord", target, "extra"]), props
    assert props["TIMEOUT"] == 60, props
print("ok: good call: names, labels, argv")
PY
# The oracle and the toy (declared in the BACKENDS file) pass; `mine` fails (its
# backend exits without answering: no verdict).
"$ctest" --test-dir "$dir/build" -L 'oracle|toyj' --output-on-failure
if "$ctest" --test-dir "$dir/build" -R 'good/mine/' > "$dir/mine.log" 2>&1; then
  echo "good/mine/drops passed, but its backend never answers" >&2
  exit 1
fi
echo "ok: a backend that does not answer fails its test"
