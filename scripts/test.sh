#!/usr/bin/env bash
# scripts/test.sh: the README's second command. Sets up, builds and runs every
# test (ctest), then builds again with AddressSanitizer + UBSan and runs the tests
# there too (the readers' fuzz properties are meant for that build). Each step's
# time is printed at the end (CI's budget is 25 minutes on 2 cores).
# usage: bash scripts/test.sh [--no-sanitize]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
steps=()
step() {  # step NAME COMMAND...: run it, note how long it took
  local name=$1 start=$SECONDS
  shift
  "$@"
  steps+=("$(printf '%-16s %5d s' "$name" $((SECONDS - start)))")
}

step build bash "$root/scripts/build.sh" "$root/build"
step ctest ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

if [ "${1:-}" != "--no-sanitize" ]; then
  step build-sanitize bash "$root/scripts/build.sh" "$root/build-sanitize" -DCONCORD_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
  # Not again under the sanitizers, as they run no C++ of ours or only what other
  # labels already run instrumented: `otp` (the OTP experiments), `spec` (schemas),
  # `faults` (runtime switches), `cc` (the `sanitize` corpus run again with the same
  # compiler), `html` (Chromium on the report pages), `install` and `slurm` (an
  # install and a Slurm cluster around the same binary), `elixir` (the erlang
  # launcher, run instrumented by `erlang`, with Elixir's compiler on the node), and
  # the example_ tests (CMake files; the sharding example, which runs campaigns,
  # stays). The erlang tests do stay: the BEAM is not instrumented, but the backend
  # and the harness that drive it are. Not the corpus per case on the c, sanitize,
  # erlang and js targets either: the same harness code for each case, which runs
  # instrumented here on generated programs (CTarget, CTargetV2, ErlangTarget,
  # JsTarget) and whose emitters run on every corpus program (EmitC, EmitErlang,
  # EmitJs); the emitted C and the runtime under ASan on every corpus case is the
  # normal build's `sanitize` label. Nor the profiles' coverage figures
  # (ReachesWhatItIsMeantTo: a statistic, the same in both builds; their programs'
  # validity runs here).
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    step ctest-sanitize ctest --test-dir "$root/build-sanitize" --output-on-failure -j "$jobs" \
    -LE "^(otp|spec|faults|cc|html|install|slurm|elixir)$" \
    -E "^(example_|(c|sanitize|erlang|js)[.]CorpusOnTarget[.]|profiles[.]Profiles/ByProfile[.]ReachesWhatItIsMeantTo/)"
fi
printf 'scripts/test.sh: every test passed; time per step:\n'
printf '  %s\n' "${steps[@]}"
printf '  %-16s %5d s\n' total "$SECONDS"
