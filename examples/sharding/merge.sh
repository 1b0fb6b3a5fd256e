#!/usr/bin/env bash
# examples/sharding/merge.sh: joins the shards of one campaign, once all have ended.
#   OUT/corpus-0 ... corpus-(N-1)  ->  OUT/corpus   (concord corpus merge)
#   OUT/report-0 ... report-(N-1)  ->  OUT/report   (concord report merge)
# Settings from the environment: OUT (default ./concord-shards), SHARDS (N: required,
# the COUNT every shard ran with), CONCORD (default: concord on PATH, else this
# checkout's build). It stops, writing nothing, when a shard's folders are missing
# or when there are more shards than SHARDS; both merges check every input before
# writing anything. Running it again is harmless.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -z "${CONCORD:-}" ]; then
  CONCORD=$(command -v concord || echo "$here/../../build/concord")
fi
OUT=${OUT:-concord-shards}
if ! [[ ${SHARDS:-} =~ ^[1-9][0-9]*$ ]]; then
  echo "merge.sh: set SHARDS to the number of shards (the N of --shard i/N)" >&2
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
    echo "merge.sh: $d is beyond SHARDS=$SHARDS: was the campaign run with more shards?" >&2
    exit 2
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "merge.sh: shards missing or unfinished (see the scheduler's logs), nothing merged:" >&2
  printf '  %s\n' "${missing[@]}" >&2
  exit 2
fi

"$CONCORD" corpus merge --into "$OUT/corpus" "${corpora[@]}"
"$CONCORD" report merge --into "$OUT/report" --corpus "$OUT/corpus" "${reports[@]}"
echo "merged $SHARDS shards: corpus in $OUT/corpus, report in $OUT/report/index.html"
