#!/usr/bin/env bash
# tests/targets/free_corpus_elixir.sh: ctest free_corpus_elixir. Free runs of every
# corpus case on the elixir target (concord corpus --mode free), where a free trace
# records what Elixir did: the cases of a declared deviation (targets/elixir/README.md
# "Free runs") are not admissible, and must be exactly those named here, so that
# any other failure fails the test, and so does a deviation that stopped showing.
# usage: free_corpus_elixir.sh CONCORD CORPUS_DIR RUNS
set -uo pipefail
concord=$1 corpus=$2 runs=$3
# dynamic-supervisor-keeps-no-stopped-child: an ignored start_child adds nothing.
expected="spawn_under_dynamic_failing_start"
out=$("$concord" corpus "$corpus" --mode free --target elixir --runs "$runs" 2>&1)
rc=$?
echo "$out"
failed=$(grep -o '^FAIL  [^ ]* on elixir' <<<"$out" | awk '{print $2}' | sort -u | tr '\n' ' ' | sed 's/ $//')
if [ "$failed" != "$expected" ]; then
  echo "free_corpus_elixir: not admissible: [$failed], expected exactly the declared deviations [$expected]" >&2
  exit 1
fi
if [ "$rc" -ne 1 ]; then
  echo "free_corpus_elixir: concord corpus exited $rc, expected 1 (the deviations' cases fail)" >&2
  exit 1
fi
echo "free_corpus_elixir: every case admissible but the declared deviations' ($expected)"
