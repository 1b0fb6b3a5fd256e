#!/bin/bash
# tests/runners/files_test.sh: concord on a full disk (runners/process/files.hpp). Each part
# gets a small tmpfs, nearly filled, mounted in a mount namespace of this test's own
# (unshare), so nothing stays mounted whatever happens. A write that does not fit
# says "No space left on device" with the path, exits 3, and leaves whole files
# only: a corpus merge keeps the cases it wrote, a campaign keeps the findings it
# stored and names the others, a report folder is complete or absent, and no
# temporary file stays. Needs root for the mount (CI runs as root): without it the
# test fails, it never skips.
# usage: files_test.sh CONCORD SOURCE_DIR WORK_DIR
set -u
CONCORD=$1 SRC=$2 WORK=$3

if [ "${CONCORD_FULL_DISK_NS:-}" != 1 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "FAIL runners_files_full_disk: needs root to mount a small tmpfs (CI runs as root)"
    exit 1
  fi
  if ! command -v unshare > /dev/null; then
    echo "FAIL runners_files_full_disk: needs unshare (util-linux)"
    exit 1
  fi
  rm -rf "$WORK"
  mkdir -p "$WORK"
  CONCORD_FULL_DISK_NS=1 exec unshare --mount --propagation private bash "$0" "$@"
fi

fail=0
check() {
  if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}
# disk NAME SIZE_KB FREE_KB: a fresh tmpfs in $D with FREE_KB left free.
disk() {
  D="$WORK/$1"
  mkdir -p "$D"
  mount -t tmpfs -o "size=${2}k" tmpfs "$D" || { echo "FAIL cannot mount a tmpfs on $D"; exit 1; }
  fill "$3"
}
fill() {
  rm -f "$D/filler"
  local avail
  avail=$(df -k --output=avail "$D" | tail -1)
  if [ $((avail - $1)) -gt 0 ]; then dd if=/dev/zero of="$D/filler" bs=1k count=$((avail - $1)) status=none 2> /dev/null; fi
}
no_tmp() { ! find "$1" -name '*.tmp.*' | grep -q .; }
whole_cases() {  # every case file under $1 reads and runs as it expects
  local f
  for f in "$1"/*.case.json; do
    [ -e "$f" ] || continue
    "$CONCORD" corpus "$f" > /dev/null 2>&1 || { echo "     torn or wrong: $f"; return 1; }
  done
}
count() { ls "$1" 2> /dev/null | grep -c "$2"; }

# 1. A corpus merge into a nearly full disk.
disk merge 1024 24
"$CONCORD" corpus merge --into "$D/merged" "$SRC/corpus/hand" > "$WORK/merge.out" 2> "$WORK/merge.err"
rc=$?
check "corpus merge on a full disk exits 3" '[ $rc = 3 ]'
check "it says: no space left on device, with the file" \
  'grep -q "^concord: cannot write $D/merged/[a-z_0-9]*\.\(case\.json\|conc\): No space left on device$" "$WORK/merge.err"'
check "it is no internal error" '! grep -q "internal error" "$WORK/merge.err"'
check "the cases it wrote are whole, and there are some" 'whole_cases "$D/merged" && [ "$(count "$D/merged" case.json)" -gt 0 ]'
check "no temporary file is left" 'no_tmp "$D"'

# 2. A report folder: two shards' reports merged where there is no room.
for i in 0 1; do
  "$CONCORD" fuzz --cases 6 --seed 3 --jobs 1 --target same --backend "same=$CONCORD backend oracle" --shard $i/2 \
    --corpus "$WORK/c$i" \
    --report "$WORK/r$i" --quiet > /dev/null 2>&1 || { echo "FAIL the shard report $i could not be made"; exit 1; }
done
disk report 2048 8
"$CONCORD" report merge --into "$D/rep" "$WORK/r0" "$WORK/r1" > "$WORK/rep.out" 2> "$WORK/rep.err"
rc=$?
check "report merge on a full disk exits 3" '[ $rc = 3 ]'
check "it says: no space left on device" 'grep -q "No space left on device" "$WORK/rep.err"'
check "no report folder is left half-written" '[ ! -e "$D/rep" ]'
fill 100000
"$CONCORD" report merge --into "$D/rep" "$WORK/r0" "$WORK/r1" > /dev/null 2>&1 || { echo "FAIL report merge with room"; exit 1; }
fill 8
"$CONCORD" report merge --into "$D/rep" "$WORK/r0" "$WORK/r1" > /dev/null 2> "$WORK/rep2.err"
rc=$?
check "merging again on a full disk exits 3" '[ $rc = 3 ]'
check "the report that was there is still complete" \
  'for f in summary.json summary.md junit.xml index.html; do [ -s "$D/rep/$f" ] || exit 1; done;
   python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$D/rep/summary.json"'
check "no temporary folder is left" 'no_tmp "$D"'

# 3. A campaign that finds divergences (a backend that lies) on a nearly full disk.
cat > "$WORK/liar.sh" << EOF
#!/bin/sh
"$CONCORD" backend oracle | sed -u -e 's/"outcome":"quiescent"/"outcome":"turn_limit"/' \
  -e 's/"kind":"supervisor"/"kind":"Supervisor"/'
EOF
chmod +x "$WORK/liar.sh"
# Seed 11, unshrunk: case 3 (liar:§8.2 run, about 30 KB, fits) and case 32 (liar:§8.2
# start, about 800 KB, does not).
disk fuzz 2048 100
"$CONCORD" fuzz --case 3 --case 32 --seed 11 --jobs 1 --no-shrink --target liar --backend "liar=$WORK/liar.sh" \
  --corpus "$D/corpus" --report "$D/campaign" > "$WORK/fuzz.out" 2> "$WORK/fuzz.err"
rc=$?
check "a campaign on a full disk exits 3" '[ $rc = 3 ]'
check "it names each finding it could not store, with the reason" \
  'grep -q "NOT STORED: cannot write $D/corpus/div_[0-9a-f]*\.case\.json: No space left on device" "$WORK/fuzz.out"'
check "it stored the finding that fitted, whole" \
  'whole_cases "$D/corpus" && [ "$(count "$D/corpus" case.json)" = 1 ] && grep -q "corpus: $D/corpus/div_" "$WORK/fuzz.out"'
check "no temporary file is left" 'no_tmp "$D"'
check "the report folder is complete or absent" \
  '[ ! -e "$D/campaign" ] || { [ -s "$D/campaign/summary.json" ] && [ -s "$D/campaign/index.html" ]; }'

if [ $fail != 0 ]; then
  for f in merge.err rep.err rep2.err fuzz.err; do echo "--- $f"; head -c 2000 "$WORK/$f"; done
  echo "--- fuzz.out"
  grep -E "NEW|NOT STORED|corpus:" "$WORK/fuzz.out" | head -20
fi
exit $fail
