#!/usr/bin/env bash
# tests/export/export_test.sh FORMAT CONCORD SOURCE_DIR WORK_DIR
#
# `concord export CASE --as FORMAT` (export/export.hpp), run with the real tools and
# without concord in the loop (only the gtest case talks to a runtime, and the
# runtime it is given is `concord backend c`, as a user's would be their own):
#   - several hand-written corpus cases exported and run: they pass;
#   - the same export of fifo_mailbox against a runtime with a planted fault
#     (targets/FAULTS.md: a LIFO mailbox): it fails, and names the first difference
#     at the same place as concord's own comparison of the faulty target with the
#     oracle (runners/protocol/diff.cpp: `concord run --target all`), which is independent of
#     the exported comparison;
#   FORMAT json: the same cases, and one whose about and signature hold "§6.5", as
#   NAME.concord.json with concord_cases.py and test_NAME.py, run on `concord backend
#   oracle` (TAP and pytest: they pass) and on the oracle in its mailbox-lifo dialect
#   (they fail, naming a journal event); the "§" intact in every form;
#   FORMAT `errors`: a bad case, an unknown format, a missing --as: exit 2, named.
# Formats: ct (ct_run on OTP, the bent runtime is the shipped conductor with the
# fault's define), exunit (elixir; the same bent conductor), c (cc; the runtime
# library built with the fault's define), gtest (g++ and libgtest; `concord backend
# c` on that faulty library). The folder is deleted when the test passes, kept when
# it fails.
set -euo pipefail
format=$1
concord=$(realpath "$2")
src=$(realpath "$3")
mkdir -p "$4"
work=$(mktemp -d "$4/export_$format.XXXXXX")
finish() {
  status=$?
  if [ "$status" -eq 0 ]; then rm -rf "$work"; else echo "export_test $format: FAILED, files kept in $work" >&2; fi
}
trap finish EXIT

fail() {
  echo "export_test $format: $*" >&2
  exit 1
}
need() { command -v "$1" >/dev/null || fail "$1 is not installed ($2): this test fails rather than skips"; }

hand=$src/corpus/hand
cases=(fifo_mailbox one_for_all_restart arith_wrap fifo_two_runs)
# fifo_two_runs: fifo_mailbox with a second run, seed 7. Every turn of it has one
# ready process, so no seed changes the order: the second run's result is the
# first's, but for the seed it echoes.
mkdir -p "$work/in"
cp "$hand/fifo_mailbox.conc" "$work/in/"
python3 - "$hand/fifo_mailbox.case.json" "$work/in/fifo_two_runs.case.json" <<'PY'
import copy, json, sys
case = json.load(open(sys.argv[1]))
case["name"] = "fifo_two_runs"
second = copy.deepcopy(case["runs"][0])
second["seed"] = second["expect"]["run"]["seed"] = 7
case["runs"].append(second)
json.dump(case, open(sys.argv[2], "w"))
PY

# export NAME: into $work/NAME, checked for its README's run line.
export_case() {
  local file=$hand/$1.case.json
  [ -e "$file" ] || file=$work/in/$1.case.json
  "$concord" export "$file" --as "$format" --out "$work/$1" >"$work/$1.export.log" ||
    fail "export of $1 failed: $(cat "$work/$1.export.log")"
  grep -q '^    ' "$work/$1/README.md" || fail "$1: README.md has no run line"
}

# The path of the first difference that concord's own comparison (runners/protocol/diff.cpp)
# finds with the fault on, as a JSON pointer turned into the exports' notation:
# /journal/3/args/0 -> journal[3].args[0].
concord_path() {
  { env "$@" "$concord" corpus "$hand/fifo_mailbox.case.json" --target "$target" 2>&1 || true; } |
    grep -o -m1 'first difference at /[^ ]*' | cut -d' ' -f4 |
    awk -F/ '{ p = ""; for (i = 2; i <= NF; i++) p = p ($i ~ /^[0-9]+$/ ? "[" $i "]" : (p == "" ? "" : ".") $i); print p }'
}

# expect_failure LOG: the run failed and named the same first difference as concord.
expect_failure() {
  local log=$1 path
  path=$(concord_path "${fault_env[@]}")
  [ -n "$path" ] || fail "concord itself found no difference with the fault on (is the fault still planted?)"
  grep -q -F "first difference at $path:" "$log" ||
    fail "the failing run does not name the first difference at $path (concord's): $(grep -m3 -i 'difference' "$log")"
  echo "export_test $format: the bent runtime fails, naming: $(grep -o -m1 'first difference at .*' "$log" | cut -c1-160)"
}

case $format in
errors)
  expect_exit() {  # expect_exit CODE WORDS -- ARGS...: exit code and message
    local code=$1 words=$2 got=0
    shift 3
    "$concord" export "$@" >"$work/out" 2>"$work/err" || got=$?
    [ "$got" -eq "$code" ] || fail "concord export $* exited $got, not $code: $(cat "$work/err")"
    grep -q -- "$words" "$work/err" || fail "concord export $*: no '$words' in: $(cat "$work/err")"
  }
  printf '{"concord_case":1,"name":"broken","about":"x","runs":[' >"$work/broken.case.json"
  printf '{"concord_case":1,"name":"nothing","about":"x","runs":[]}' >"$work/nothing.case.json"
  expect_exit 2 "unknown export format 'junit'" -- "$hand/fifo_mailbox.case.json" --as junit
  expect_exit 2 "usage: concord export" -- "$hand/fifo_mailbox.case.json"
  expect_exit 2 "broken.case.json" -- "$work/broken.case.json" --as ct
  expect_exit 2 "nothing.case.json" -- "$work/nothing.case.json" --as c
  expect_exit 2 "not a case file" -- "$hand/fifo_mailbox.conc" --as c
  expect_exit 2 "missing.case.json" -- "$work/missing.case.json" --as gtest
  [ ! -e "$work/fifo_mailbox-junit" ] || fail "a refused export wrote files"
  echo "export_test errors: ok"
  exit 0
  ;;
ct)
  need ct_run "Debian: erlang-common-test"
  target=erlang
  fault_env=(CONCORD_ERLANG_EBIN="$work/fault-ebin")
  mkdir -p "$work/fault-ebin" "$work/logs"
  erlc -o "$work/fault-ebin" -DFAULT_MAILBOX_NEWEST_FIRST "$src"/targets/erlang/runtime/concord_target.erl
  erlc -o "$work/fault-ebin" -pa "$work/fault-ebin" -DFAULT_MAILBOX_NEWEST_FIRST "$src"/targets/erlang/runtime/*.erl
  suites=()
  for c in "${cases[@]}"; do
    export_case "$c"
    suites+=("$work/$c/concord_${c}_SUITE")
  done
  (cd "$work/logs" && ct_run -noshell -suite "${suites[@]}" -logdir . >"$work/pass.log" 2>&1) ||
    fail "the exported suites fail on real OTP: $(grep -m5 -i 'failed\|error' "$work/pass.log")"
  [ "$(grep -c 'TEST COMPLETE, [0-9]* ok, 0 failed' "$work/pass.log")" -eq ${#cases[@]} ] &&
    grep -q 'TEST COMPLETE, 2 ok, 0 failed of 2' "$work/pass.log" ||
    fail "ct_run did not report every test case as ok: $(grep 'TEST COMPLETE' "$work/pass.log")"
  # The bent runtime: the shipped conductor with the planted fault's switch on.
  sed -i 's/^-module(concord_conductor)\./&\n-define('"'"'FAULT_MAILBOX_NEWEST_FIRST'"'"', true)./' \
    "$work/fifo_mailbox/concord_fifo_mailbox_SUITE_data/concord_conductor.erl"
  if (cd "$work/logs" && ct_run -noshell -suite "$work/fifo_mailbox/concord_fifo_mailbox_SUITE" -logdir . \
    >"$work/fault.log" 2>&1); then fail "the suite passes on a runtime with a LIFO mailbox"; fi
  grep -q "FAILED" "$work/fault.log" || fail "ct_run did not report a failed test case"
  expect_failure "$work/fault.log"
  ;;
exunit)
  need elixir "Debian: elixir"
  target=elixir
  fault_env=(CONCORD_ERLANG_EBIN="$work/fault-ebin")
  mkdir -p "$work/fault-ebin"
  erlc -o "$work/fault-ebin" -DFAULT_MAILBOX_NEWEST_FIRST "$src"/targets/erlang/runtime/concord_target.erl
  erlc -o "$work/fault-ebin" -pa "$work/fault-ebin" -DFAULT_MAILBOX_NEWEST_FIRST "$src"/targets/erlang/runtime/*.erl
  for c in "${cases[@]}"; do
    export_case "$c"
    (cd "$work/$c" && elixir "${c}_test.exs" >"$work/$c.pass.log" 2>&1) ||
      fail "the exported test of $c fails on real Elixir: $(tail -20 "$work/$c.pass.log")"
    grep -q "^[1-9] tests\?, 0 failures" "$work/$c.pass.log" || fail "$c: ExUnit did not report 0 failures"
  done
  sed -i 's/^-module(concord_conductor)\./&\n-define('"'"'FAULT_MAILBOX_NEWEST_FIRST'"'"', true)./' \
    "$work/fifo_mailbox/fifo_mailbox_test_data/concord_conductor.erl"
  if (cd "$work/fifo_mailbox" && elixir fifo_mailbox_test.exs >"$work/fault.log" 2>&1); then
    fail "the test passes on a runtime with a LIFO mailbox"
  fi
  grep -q "[1-9][0-9]* failures\?" "$work/fault.log" || fail "ExUnit did not report a failure: $(tail -5 "$work/fault.log")"
  expect_failure "$work/fault.log"
  ;;
c | gtest)
  need cc "Debian: build-essential"
  target=c
  # The c runtime with the planted fault, built as targets/FAULTS.md says.
  mkdir -p "$work/fault-rt"
  (cd "$work/fault-rt" && cc -std=c11 -O1 -DCONCORD_FAULT_MAILBOX_LIFO -I"$src/targets/c/runtime" -c \
    "$src"/targets/c/runtime/*.c && ar rcs libconcord_rt.a ./*.o)
  fault_env=(CONCORD_RT_LIB="$work/fault-rt/libconcord_rt.a")
  if [ "$format" = c ]; then
    for c in "${cases[@]}"; do
      export_case "$c"
      # the README's run line, as a user would paste it
      (cd "$work/$c" && bash -c "$(grep -m1 '^    ' README.md)" >"$work/$c.pass.log" 2>&1) ||
        fail "the exported C test of $c fails: $(tail -5 "$work/$c.pass.log")"
      grep -q "$c: \([0-9]*\) of \1 runs passed" "$work/$c.pass.log" || fail "$c: not every run passed"
    done
    cd "$work/fifo_mailbox"
    cc -O1 -I"$src/targets/c/runtime" fifo_mailbox_prog.c "$work/fault-rt/libconcord_rt.a" -o prog_fault
    if ./fifo_mailbox_test ./prog_fault >"$work/fault.log" 2>&1; then fail "the test passes on a LIFO mailbox"; fi
    grep -q "fifo_mailbox_test.c:[0-9]*: FAIL run 1" "$work/fault.log" || fail "no FAIL line: $(cat "$work/fault.log")"
  else
    need g++ "Debian: g++"
    [ -e /usr/include/gtest/gtest.h ] || fail "GoogleTest is not installed (Debian: libgtest-dev)"
    for c in "${cases[@]}"; do
      export_case "$c"
      (cd "$work/$c" && g++ -std=c++17 -O1 "${c}_test.cpp" -lgtest -lgtest_main -pthread -o "${c}_test")
      (cd "$work/$c" && CONCORD_RUNTIME="'$concord' backend c" "./${c}_test" >"$work/$c.pass.log" 2>&1) ||
        fail "the exported gtest of $c fails on concord backend c: $(grep -m5 -A3 'Failure' "$work/$c.pass.log")"
      grep -q "\[  PASSED  \] [1-9] tests\?\." "$work/$c.pass.log" || fail "$c: GoogleTest did not pass"
    done
    if (cd "$work/fifo_mailbox" && env "${fault_env[@]}" CONCORD_RUNTIME="'$concord' backend c" ./fifo_mailbox_test \
      >"$work/fault.log" 2>&1); then fail "the test passes on a runtime with a LIFO mailbox"; fi
    grep -q "\[  FAILED  \]" "$work/fault.log" || fail "GoogleTest reported no failure"
    # No runtime: a clear failure, not a pass or a skip.
    if (cd "$work/fifo_mailbox" && env -u CONCORD_RUNTIME ./fifo_mailbox_test >"$work/none.log" 2>&1); then
      fail "the test passes without a runtime"
    fi
    grep -q "set CONCORD_RUNTIME" "$work/none.log" || fail "no runtime: the failure does not say CONCORD_RUNTIME"
  fi
  expect_failure "$work/fault.log"
  ;;
json)
  # Debian's python3 (with python3-pytest), not a python3 of a version manager on PATH
  py=/usr/bin/python3
  [ -x "$py" ] || py=$(command -v python3) || fail "python3 is not installed (Debian: python3)"
  "$py" -c 'import pytest' 2>/dev/null || fail "pytest is not installed (Debian: python3-pytest): this test fails rather than skips"
  # A case whose about and signature name a SPEC rule: the "§" must survive every form.
  "$py" - "$hand/fifo_mailbox.case.json" "$work/in/fifo_rule.case.json" <<'PY'
import json, sys
case = json.load(open(sys.argv[1]))
case["name"] = "fifo_rule"
case["about"] = "Messages from one sender are taken in order (§6.5 fifo)."
case["signature"] = "c:§6.5 fifo"
json.dump(case, open(sys.argv[2], "w"), ensure_ascii=False)
PY
  cases+=(fifo_rule)
  oracle="'$concord' backend oracle"
  wrong="'$concord' backend oracle --dialect mailbox-lifo"  # the oracle with a LIFO mailbox (concord dialects)
  for c in "${cases[@]}"; do
    export_case "$c"
    # the README's run line, with the oracle as the runtime
    (cd "$work/$c" && CONCORD_RUNTIME="$oracle" "$py" concord_cases.py >"$work/$c.pass.log" 2>&1) ||
      fail "the exported JSON case $c fails on concord backend oracle: $(cat "$work/$c.pass.log")"
    runs=$("$py" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["runs"]))' "$work/$c/$c.concord.json")
    grep -q "^1\.\.$runs\$" "$work/$c.pass.log" && ! grep -q '^not ok' "$work/$c.pass.log" &&
      [ "$(grep -c '^ok ' "$work/$c.pass.log")" -eq "$runs" ] || fail "$c: TAP did not report $runs passing runs"
    (cd "$work/$c" && CONCORD_RUNTIME="$oracle" "$py" -m pytest -q -p no:cacheprovider >"$work/$c.pytest.log" 2>&1) ||
      fail "pytest fails on the export of $c: $(tail -20 "$work/$c.pytest.log")"
    grep -q "^$runs passed" "$work/$c.pytest.log" || fail "$c: pytest did not report $runs passed: $(tail -3 "$work/$c.pytest.log")"
  done
  # Every case file in one folder, as a user's test tree would hold them.
  mkdir -p "$work/all"
  for c in "${cases[@]}"; do cp "$work/$c"/*.concord.json "$work/$c"/test_*.py "$work/$c/concord_cases.py" "$work/all/"; done
  CONCORD_RUNTIME="$oracle" "$py" "$work/all/concord_cases.py" "$work/all" >"$work/all.log" ||
    fail "the folder of every case fails on the oracle: $(cat "$work/all.log")"
  grep -q "^# 6 of 6 runs passed" "$work/all.log" || fail "not 6 runs passed: $(tail -1 "$work/all.log")"
  # The wrong runtime: each form fails and names the first difference.
  for c in fifo_mailbox fifo_rule; do
    if (cd "$work/$c" && CONCORD_RUNTIME="$wrong" "$py" concord_cases.py >"$work/$c.fault.log" 2>&1); then
      fail "$c passes on a runtime with a LIFO mailbox"
    fi
    grep -q '^not ok 1 - ' "$work/$c.fault.log" || fail "$c: no 'not ok' line: $(cat "$work/$c.fault.log")"
    grep -q 'first difference at journal\[[0-9]*\]' "$work/$c.fault.log" ||
      fail "$c: the failure names no journal event: $(cat "$work/$c.fault.log")"
    if (cd "$work/$c" && CONCORD_RUNTIME="$wrong" "$py" -m pytest -q -p no:cacheprovider >"$work/$c.pytest-fault.log" 2>&1); then
      fail "pytest passes $c on a runtime with a LIFO mailbox"
    fi
    grep -q 'first difference at journal\[' "$work/$c.pytest-fault.log" || fail "$c: pytest names no difference"
  done
  echo "export_test json: the LIFO runtime fails, naming: $(grep -o -m1 'first difference at .*' "$work/fifo_mailbox.fault.log" | cut -c1-160)"
  # No runtime: a clear failure, not a pass or a skip.
  if (cd "$work/fifo_mailbox" && env -u CONCORD_RUNTIME "$py" concord_cases.py >"$work/none.log" 2>&1); then
    fail "the test passes without a runtime"
  fi
  grep -q "set CONCORD_RUNTIME" "$work/none.log" || fail "no runtime: the failure does not say CONCORD_RUNTIME"
  # The "§" survives: in the JSON as UTF-8 (not \u00a7, not a space), in the TAP
  # failure, in the pytest file's comment, and in the comments of the other formats.
  grep -q '"signature": "c:§6.5 fifo"' "$work/fifo_rule/fifo_rule.concord.json" || fail "the JSON lost the signature's §"
  grep -q '"about": "Messages from one sender are taken in order (§6.5 fifo)."' "$work/fifo_rule/fifo_rule.concord.json" ||
    fail "the JSON lost the about's §"
  grep -q '# found as: c:§6.5 fifo' "$work/fifo_rule.fault.log" || fail "the TAP failure lost the §"
  grep -q '(§6.5 fifo)' "$work/fifo_rule/test_fifo_rule.py" || fail "the pytest file's comment lost the §"
  grep -q 'Found as: c:§6.5 fifo' "$work/fifo_rule/README.md" || fail "the README lost the §"
  for f in gtest c; do
    "$concord" export "$work/in/fifo_rule.case.json" --as $f --out "$work/rule-$f" >/dev/null
  done
  grep -q '^// Messages from one sender are taken in order (§6.5 fifo)\.' "$work/rule-gtest/fifo_rule_test.cpp" ||
    fail "the gtest comment lost the §: $(grep -m1 'Messages' "$work/rule-gtest/fifo_rule_test.cpp")"
  grep -q '^\*\* Messages from one sender are taken in order (§6.5 fifo)\.' "$work/rule-c/fifo_rule_test.c" ||
    fail "the C comment lost the §"
  if command -v g++ >/dev/null && [ -e /usr/include/gtest/gtest.h ]; then
    (cd "$work/rule-gtest" && g++ -std=c++17 -fsyntax-only fifo_rule_test.cpp) || fail "the gtest export with a § does not compile"
  fi
  echo "export_test json: the § survives in the JSON, TAP, pytest, README, gtest and C comments"
  ;;
*)
  fail "unknown format $format"
  ;;
esac
echo "export_test $format: ${#cases[@]} cases pass, the bent runtime fails"
