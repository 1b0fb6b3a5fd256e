#!/usr/bin/env bash
# Runs the OTP supervisor experiments on the local Erlang/OTP node.
# Usage: bash spec/experiments/run.sh      (exit status 0 iff every check passes)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
erlc -Wall -o "$out" "$here/exp_worker.erl" "$here/supervision.erl"
# supervision:main/0 halts the node itself: status 0 if all checks passed,
# 1 if any failed, 2/3 if the harness crashed or timed out.
erl -noshell -pa "$out" -s supervision main -s init stop
