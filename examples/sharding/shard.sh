#!/usr/bin/env bash
# examples/sharding/shard.sh: runs shard INDEX of COUNT of one concord campaign.
# usage: shard.sh INDEX COUNT [more `concord fuzz` options...]
#
# The Kubernetes Job (k8s-indexed-job.yaml) runs it as the container's command;
# it runs just as well by hand. Settings come from the environment:
#   SEED      the campaign seed: REQUIRED, and the same on every shard
#   CASES     the whole campaign's cases (summed over all shards), or else
#   TIME      how long this shard runs (default 8h): 90s, 15m, 8h, 1d
#   OUT       the results folder shared by all shards (default ./concord-shards);
#             this shard writes OUT/corpus-INDEX and OUT/report-INDEX
#   CONCORD   the concord binary (default: concord on PATH, else this checkout's build)
#   TARGET (default all), PROFILE (default), SEEDS_PER_PROGRAM (8), JOBS (default: cores)
#   BACKENDS  a backends file (`concord fuzz --backends`) declaring your own runtime,
#             to name in TARGET; a path every shard can read
# Exit status: 0 when the shard ran to the end (also when it found a divergence:
# that is in its corpus and report, and merge.sh gathers it), else concord's
# (2: bad input or option, 3: internal error).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [ $# -lt 2 ]; then
  echo "usage: $0 INDEX COUNT [concord fuzz options...]" >&2
  exit 2
fi
index=$1 count=$2
shift 2
if ! [[ $index =~ ^[0-9]+$ && $count =~ ^[1-9][0-9]*$ ]] || [ "$index" -ge "$count" ]; then
  echo "shard.sh: want 0 <= INDEX < COUNT, got INDEX='$index' COUNT='$count'" >&2
  exit 2
fi
if [ -z "${SEED:-}" ]; then
  echo "shard.sh: set SEED, the campaign seed: the same value on every shard" >&2
  exit 2
fi
if [ -z "${CONCORD:-}" ]; then
  CONCORD=$(command -v concord || echo "$here/../../build/concord")
fi
OUT=${OUT:-concord-shards}

args=(fuzz --seed "$SEED")
if [ -n "${CASES:-}" ]; then args+=(--cases "$CASES"); else args+=(--time "${TIME:-8h}"); fi
args+=(--profile "${PROFILE:-default}" --seeds-per-program "${SEEDS_PER_PROGRAM:-8}"
       --target "${TARGET:-all}" --shard "$index/$count"
       --corpus "$OUT/corpus-$index" --report "$OUT/report-$index")
if [ -n "${JOBS:-}" ]; then args+=(--jobs "$JOBS"); fi
if [ -n "${BACKENDS:-}" ]; then args+=(--backends "$BACKENDS"); fi
args+=("$@")

# The corpus folder exists even when nothing is found, so every shard leaves the
# same layout and merge.sh can tell a shard that ran from one that did not.
mkdir -p "$OUT/corpus-$index"
echo "shard $index/$count: $CONCORD ${args[*]}" >&2

# concord stops cleanly on SIGTERM (what Kubernetes sends when a pod is deleted
# and Slurm at the time limit). In a container this script is PID 1 and alone
# receives it, so it passes it on; elsewhere the signal reaches concord itself,
# and a second one would kill it at once, so it is not passed on twice.
"$CONCORD" "${args[@]}" &
pid=$!
stopping=""
trap 'stopping=1; if [ $$ -eq 1 ]; then kill -TERM "$pid" 2>/dev/null || true; fi' TERM
trap 'stopping=1' INT
rc=0
wait "$pid" || rc=$?
while [ -n "$stopping" ]; do  # a trapped signal ended `wait` early: wait for concord's own status
  stopping=""
  rc=0
  wait "$pid" || rc=$?
done

case $rc in
  0) ;;
  1) echo "shard $index/$count: found something new: see $OUT/report-$index" >&2
     rc=0 ;;
  *) echo "shard $index/$count: concord exited with $rc" >&2 ;;
esac
exit "$rc"
