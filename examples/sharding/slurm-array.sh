#!/usr/bin/env bash
# examples/sharding/slurm-array.sh: one concord campaign as a Slurm job array, one
# shard per array task. Submit, then queue the merge behind it (slurm-merge.sh):
#
#   jobid=$(sbatch --parsable examples/sharding/slurm-array.sh)
#   sbatch --dependency=afterany:${jobid%%;*} examples/sharding/slurm-merge.sh
#
# Array task i runs `concord fuzz --shard i/N` with N = $SLURM_ARRAY_TASK_COUNT, so
# the indices must be 0..N-1 (--array=0-15 or 0-15%4, not 1-16 nor 0-30:2). Change
# the size on the command line if you like: sbatch --array=0-15 slurm-array.sh.
# sbatch copies this script to the compute node, so it calls nothing beside it.
#
# Settings from the environment (sbatch passes the submitting shell's on):
#   SEED      the campaign seed, the same for every task (default: the array's
#             job id, which all its tasks share)
#   CASES     the whole campaign's cases, or else TIME per task (default 8h;
#             keep it under the --time limit below)
#   OUT       the results folder on a file system all nodes share (default
#             ./concord-shards in the submit directory); task i writes
#             OUT/corpus-i and OUT/report-i, its log goes to concord-fuzz-<job>_i.out
#   CONCORD   the concord binary (default: concord on PATH)
#   TARGET (all), PROFILE (default), SEEDS_PER_PROGRAM (8),
#   JOBS (default: the task's --cpus-per-task)
#   BACKENDS  a backends file (`concord fuzz --backends`) declaring your own
#             runtime, to name in TARGET; on a file system all nodes share
# Without Slurm it is plain bash: set SLURM_ARRAY_TASK_ID and
# SLURM_ARRAY_TASK_COUNT (and SEED) by hand to run one shard.
#
#SBATCH --job-name=concord-fuzz
#SBATCH --array=0-3
#SBATCH --cpus-per-task=8
#SBATCH --mem=8G
#SBATCH --time=09:00:00
#SBATCH --output=concord-fuzz-%A_%a.out
set -euo pipefail

index=${SLURM_ARRAY_TASK_ID:-} count=${SLURM_ARRAY_TASK_COUNT:-}
if ! [[ $index =~ ^[0-9]+$ && $count =~ ^[1-9][0-9]*$ ]] || [ "$index" -ge "$count" ]; then
  echo "slurm-array.sh: task '$index' of '$count': submit it with sbatch --array=0-(N-1)," \
    "or set SLURM_ARRAY_TASK_ID (0..N-1) and SLURM_ARRAY_TASK_COUNT (N)" >&2
  exit 2
fi
SEED=${SEED:-${SLURM_ARRAY_JOB_ID:-}}
if [ -z "$SEED" ]; then
  echo "slurm-array.sh: set SEED, the campaign seed: the same on every task" >&2
  exit 2
fi
CONCORD=${CONCORD:-concord}
OUT=${OUT:-$PWD/concord-shards}
JOBS=${JOBS:-${SLURM_CPUS_PER_TASK:-}}

args=(fuzz --seed "$SEED")
if [ -n "${CASES:-}" ]; then args+=(--cases "$CASES"); else args+=(--time "${TIME:-8h}"); fi
args+=(--profile "${PROFILE:-default}" --seeds-per-program "${SEEDS_PER_PROGRAM:-8}"
       --target "${TARGET:-all}" --shard "$index/$count"
       --corpus "$OUT/corpus-$index" --report "$OUT/report-$index")
if [ -n "$JOBS" ]; then args+=(--jobs "$JOBS"); fi
if [ -n "${BACKENDS:-}" ]; then args+=(--backends "$BACKENDS"); fi

mkdir -p "$OUT/corpus-$index"  # even when nothing is found: the merge checks it
echo "task $index/$count on $(hostname): $CONCORD ${args[*]}" >&2
# At the time limit Slurm sends SIGTERM to every process of the task: concord stops
# cleanly and writes its report (keep TIME below the limit all the same).
rc=0
"$CONCORD" "${args[@]}" || rc=$?
if [ "$rc" -eq 1 ]; then  # 1: a new divergence, stored in the corpus and the report
  echo "task $index/$count: found something new: see $OUT/report-$index" >&2
  rc=0
fi
exit "$rc"
