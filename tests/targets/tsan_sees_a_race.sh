#!/usr/bin/env bash
# tests/targets/tsan_sees_a_race.sh: ctest tsan_sees_a_race. The tsan label is worth
# something only if ThreadSanitizer is really in the free runs it checks: the
# trigger of free_run_twice (two threads in one worker's turns, targets/FAULTS.md)
# runs clean on the TSan build of the threaded runtime, and on the TSan build with
# that fault switched on a run ends as a CRASH with TSan's exit code (66, set by the
# c launcher's TSAN_OPTIONS), not an answer. TSan sees the race only when two
# threads did run the worker's turns unsynchronized, which a loaded machine may
# delay: the first such run ends the program (the later runs of the request are
# CRASH too), so 10 runs are asked for and one report is enough.
# usage: tsan_sees_a_race.sh CONCORD TSAN_LIB TSAN_LIB_WITH_FAULT PROGRAM
set -uo pipefail
concord=$1 clean=$2 racy=$3 program=$4
out=$(CONCORD_RT_FREE_LIB=$clean "$concord" run "$program" --mode free --target c --runs 5 2>&1)
echo "$out" | tail -2
if ! grep -q '^c: 5 free run(s): 5 admissible' <<<"$out"; then
  echo "tsan_sees_a_race: the TSan build's free runs are not all admissible" >&2
  exit 1
fi
out=$(CONCORD_RT_FREE_LIB=$racy "$concord" run "$program" --mode free --target c --runs 10 2>&1)
echo "$out" | cut -c1-300 | tail -3
if ! grep -q '^c: 10 free run(s): .*[1-9][0-9]* CRASH' <<<"$out" || ! grep -q 'exited with 66' <<<"$out"; then
  echo "tsan_sees_a_race: with free_run_twice on, ThreadSanitizer reported nothing in 10 runs" >&2
  exit 1
fi
echo "tsan_sees_a_race: clean without the race, reported with it"
