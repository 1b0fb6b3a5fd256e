#!/usr/bin/env bash
# scripts/test.sh: the README's second command. Sets up, builds and runs every
# test (ctest), then builds again with AddressSanitizer + UBSan and runs the tests
# there too (the readers' fuzz properties are meant for that build).
# usage: bash scripts/test.sh [--no-sanitize]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)

bash "$root/scripts/build.sh" "$root/build"
ctest --test-dir "$root/build" --output-on-failure -j "$jobs"

if [ "${1:-}" != "--no-sanitize" ]; then
  bash "$root/scripts/build.sh" "$root/build-sanitize" -DCONCORD_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
  # The OTP experiments run no C++; `faults` checks runtime switches, and `cc` is
  # the `sanitize` corpus run again with the same compiler here; the example_ tests
  # check CMake files (the sharding example, which runs campaigns, stays). The
  # erlang tests do stay: the BEAM is not instrumented, but the backend and the
  # harness that drive it are.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$root/build-sanitize" --output-on-failure -j "$jobs" -LE "^(otp|faults|cc)$" -E "^example_"
fi
