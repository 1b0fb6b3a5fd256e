#!/usr/bin/env bash
# examples/sharding/slurm-merge.sh: the merge step of slurm-array.sh, queued behind
# the whole array (afterany: it runs even when a task failed, and then says which):
#
#   jobid=$(sbatch --parsable examples/sharding/slurm-array.sh)
#   sbatch --dependency=afterany:${jobid%%;*} examples/sharding/slurm-merge.sh
#
# Joins OUT/corpus-0..N-1 into OUT/corpus and OUT/report-0..N-1 into OUT/report.
# Settings: OUT and CONCORD as for slurm-array.sh; SHARDS, the array's task count
# (default 4, as in its --array=0-3: pass SHARDS=16 when you submitted
# --array=0-15). It stops, writing nothing, when a task's folders are missing or
# when there are more than SHARDS; both merges check every input first. Plain
# bash without Slurm, like slurm-array.sh.
#
#SBATCH --job-name=concord-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=4G
#SBATCH --time=00:30:00
#SBATCH --output=concord-merge-%j.out
set -euo pipefail

CONCORD=${CONCORD:-concord}
OUT=${OUT:-$PWD/concord-shards}
SHARDS=${SHARDS:-4}
if ! [[ $SHARDS =~ ^[1-9][0-9]*$ ]]; then
  echo "slurm-merge.sh: SHARDS must be the array's task count" >&2
  exit 2
fi

corpora=() reports=() missing=()
for ((i = 0; i < SHARDS; i++)); do
  [ -d "$OUT/corpus-$i" ] || missing+=("$OUT/corpus-$i")
  [ -f "$OUT/report-$i/summary.json" ] || missing+=("$OUT/report-$i/summary.json")
  corpora+=("$OUT/corpus-$i")
  reports+=("$OUT/report-$i")
done
for d in "$OUT"/corpus-* "$OUT"/report-*; do
  [ -e "$d" ] || continue
  i=${d##*-}
  if [[ $i =~ ^[0-9]+$ ]] && [ "$i" -ge "$SHARDS" ]; then
    echo "slurm-merge.sh: $d is beyond SHARDS=$SHARDS: set SHARDS to the array's task count" >&2
    exit 2
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "slurm-merge.sh: tasks missing or unfinished (see concord-fuzz-*.out), nothing merged:" >&2
  printf '  %s\n' "${missing[@]}" >&2
  exit 2
fi

"$CONCORD" corpus merge --into "$OUT/corpus" "${corpora[@]}"
"$CONCORD" report merge --into "$OUT/report" --corpus "$OUT/corpus" "${reports[@]}"
echo "merged $SHARDS shards: corpus in $OUT/corpus, report in $OUT/report/index.html"
