#!/usr/bin/env bash
# examples/sharding/parallel.sh: one concord campaign as SHARDS shards run by GNU
# parallel, on this machine or over ssh, then both merges (merge.sh).
#
#   SEED=7 TIME=1h SHARDS=4 bash examples/sharding/parallel.sh
#   SEED=7 TIME=8h SHARDS=3 SSHLOGIN=alice@box1,alice@box2,: OUT=/tmp/campaign \
#     bash examples/sharding/parallel.sh
#
# Locally it is, in effect,
#   parallel -j N concord fuzz --seed S ... --shard {}/N --corpus OUT/corpus-{} \
#     --report OUT/report-{} ::: $(seq 0 N-1)
# each shard getting cores/N workers. With SSHLOGIN (parallel's --sshlogin: a comma
# list, ':' being this machine) each host runs one shard at a time with all its
# cores; every host needs concord on its PATH (or CONCORD set to a path valid on
# all of them) and GNU parallel and rsync (man parallel: --sshlogin, --return);
# OUT should be absolute: each host writes there and the shard folders are copied
# back to the same path here (with a shared file system they simply are there).
#
# Settings from the environment:
#   SHARDS    N (default 4)
#   SEED      the campaign seed, the same for every shard (default: drawn here,
#             once, and printed)
#   CASES     the whole campaign's cases, or else TIME per shard (default 8h)
#   OUT       results (default ./concord-shards): OUT/corpus-i and OUT/report-i
#             per shard, OUT/corpus and OUT/report merged, OUT/parallel.log
#             (parallel's --joblog)
#   CONCORD   default: concord on PATH, else this checkout's build (locally and
#             for the merges); concord (over ssh)
#   TARGET (all), PROFILE (default), SEEDS_PER_PROGRAM (8), JOBS (workers per shard)
#   BACKENDS  a backends file (`concord fuzz --backends`) declaring your own runtime,
#             to name in TARGET; the same path on every host
# Extra arguments are passed to every `concord fuzz`.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

SHARDS=${SHARDS:-4}
if ! [[ $SHARDS =~ ^[1-9][0-9]*$ ]]; then echo "parallel.sh: SHARDS must be a positive number" >&2; exit 2; fi
SEED=${SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
OUT=${OUT:-concord-shards}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)  # absolute: the same path on every host
local_concord=${CONCORD:-$(command -v concord || echo "$here/../../build/concord")}
if [ -n "${SSHLOGIN:-}" ]; then CONCORD=${CONCORD:-concord}; else CONCORD=$local_concord; fi

# shellcheck disable=SC2054  # the commas are --term-seq's
par=(parallel --will-cite --line-buffer --tag --joblog "$OUT/parallel.log"
     --term-seq TERM,60000,KILL,25)  # one SIGTERM: concord stops cleanly (a second kills it)
if [ -n "${SSHLOGIN:-}" ]; then
  par+=(-j 1 --sshlogin "$SSHLOGIN" --return "$OUT/corpus-{}" --return "$OUT/report-{}")
  JOBS=${JOBS:-}
else
  par+=(-j "$SHARDS")
  JOBS=${JOBS:-$(( $(nproc) / SHARDS > 0 ? $(nproc) / SHARDS : 1 ))}
fi

fuzz=(fuzz --seed "$SEED")
if [ -n "${CASES:-}" ]; then fuzz+=(--cases "$CASES"); else fuzz+=(--time "${TIME:-8h}"); fi
fuzz+=(--profile "${PROFILE:-default}" --seeds-per-program "${SEEDS_PER_PROGRAM:-8}"
       --target "${TARGET:-all}")
if [ -n "$JOBS" ]; then fuzz+=(--jobs "$JOBS"); fi
if [ -n "${BACKENDS:-}" ]; then fuzz+=(--backends "$BACKENDS"); fi
fuzz+=("$@")

# The command parallel hands to a shell (here or on the remote host): every fixed
# word quoted, {} left for parallel to replace with the shard index.
q() { printf '%q' "$1"; }
cmd="mkdir -p $(q "$OUT")/corpus-{} && $(q "$CONCORD")"
for a in "${fuzz[@]}"; do cmd+=" $(q "$a")"; done
cmd+=" --shard {}/$SHARDS --corpus $(q "$OUT")/corpus-{} --report $(q "$OUT")/report-{}"

echo "campaign seed $SEED, $SHARDS shards, results in $OUT" >&2
echo "each shard: $cmd" >&2
rc=0
"${par[@]}" "$cmd" ::: $(seq 0 $((SHARDS - 1))) || rc=$?
if [ "$rc" -eq 255 ]; then echo "parallel.sh: GNU parallel stopped (interrupted, or it could not start the shards)" >&2; exit 2; fi

# parallel's exit status counts the shards that exited non-zero, but concord's 1
# only means "found something new": judge each shard by the joblog instead
# (tab-separated: Seq Host Starttime JobRuntime Send Receive Exitval Signal Command;
# job Seq runs shard Seq-1).
failed=$(awk -F'\t' 'NR > 1 && ($7 > 1 || $8 != 0) { print "  shard " ($1 - 1) " on " $2 ": exit " $7 ", signal " $8 }' "$OUT/parallel.log")
if [ -n "$failed" ]; then
  echo "parallel.sh: some shards failed (see above and $OUT/parallel.log); not merging:" >&2
  echo "$failed" >&2
  exit 1
fi

OUT=$OUT SHARDS=$SHARDS CONCORD=$local_concord bash "$here/merge.sh"
