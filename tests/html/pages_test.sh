#!/usr/bin/env bash
# tests/html/pages_test.sh CONCORD SOURCE_DIR WORK_DIR: the triage and report pages
# in a real browser (Debian's chromium, headless). A triage page of the hand case
# fifo_mailbox against a target that rewrites the second "ready":1 of each answer
# to 7 (so the first difference is journal event 3, field ready: 1 against 7, by
# construction), and the report folder of a short campaign against a target that
# says turn_limit for quiescent. Each page is loaded; the DOM chromium built is
# checked (the first difference is there and marked, the page's script ran, the
# charts are drawn, the report links the triage page), and a screenshot of each is
# kept in WORK_DIR/artifacts; junit.xml is parsed as XML. Without chromium this
# fails: it never skips.
set -euo pipefail
concord=$1 source=$2 work=$3
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "pages_test: chromium is not installed (apt-get install chromium, or bash scripts/setup.sh)" >&2
  exit 1
fi
rm -rf "$work" && mkdir -p "$work/artifacts" "$work/profile"
cd "$work"

fail() { echo "pages_test: FAIL: $*" >&2; exit 1; }
# The DOM after load, as chromium serialises it; --no-sandbox because CI runs as root.
dom() {
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
    --virtual-time-budget=2000 --dump-dom "file://$1" 2>/dev/null
}
shot() {
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" --hide-scrollbars \
    --window-size=1280,1600 --screenshot="$2" "file://$1" >/dev/null 2>&1
  [ -s "$2" ] || fail "no screenshot of $1"
  [ "$(head -c 8 "$2" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$2 is not a PNG"
  [ "$(stat -c %s "$2")" -gt 20000 ] || fail "$2 is too small to show a page"
}

# Runs concord with its stdout in OUT; fails unless it exits WANT (1: a target differs).
concord_exits() {
  local want=$1 out=$2 rc=0
  shift 2
  "$concord" "$@" > "$out" || rc=$?
  [ $rc -eq "$want" ] || fail "concord $1 exited $rc, expected $want: $(cat "$out")"
}

ready7="ready7=sh -c '\"$concord\" backend oracle | sed -u \"s/\\\"ready\\\":1/\\\"ready\\\":7/2\"'"
concord_exits 1 triage.txt triage "$source/corpus/hand/fifo_mailbox.case.json" --target ready7 --backend "$ready7" \
  --html "$work/triage.html"
dom "$work/triage.html" > triage.dom
grep -q 'data-ready="yes"' triage.dom || fail "the triage page's script did not run"
grep -q 'id="first-difference"' triage.dom || fail "no first difference section"
grep -q '<tr class="first differs"><td class="num">3</td>' triage.dom || fail "event 3 is not the first difference"
grep -q '<mark class="field" data-field="ready">ready=1</mark>' triage.dom || fail "the oracle's field is not marked"
grep -q '<mark class="field" data-field="ready">ready=7</mark>' triage.dom || fail "ready7's field is not marked"
[ "$(grep -o 'class="copy"' triage.dom | wc -l)" -ge 3 ] || fail "no copy button on the reproduce commands"
grep -q -- '--target ready7' triage.dom || fail "no reproduce command for ready7"
shot "$work/triage.html" "$work/artifacts/triage.png"

liar="liar=sh -c '\"$concord\" backend oracle | sed -u \"s/\\\"outcome\\\":\\\"quiescent\\\"/\\\"outcome\\\":\\\"turn_limit\\\"/\"'"
concord_exits 1 fuzz.txt fuzz --seed 5 --cases 12 --jobs 1 --seeds-per-program 2 --target liar --backend "$liar" \
  --corpus "$work/corpus" --report "$work/report" --quiet
dom "$work/report/index.html" > report.dom
grep -q 'data-ready="yes"' report.dom || fail "the report page's script did not run"
grep -q '<code>liar:§8.2 run</code>' report.dom || fail "the signature is not listed"
page=$(grep -o 'href="triage/[^"]*\.html"' report.dom | head -1 | sed 's/href="//; s/"$//')
[ -n "$page" ] || fail "the report links no triage page"
[ -f "$work/report/$page" ] || fail "the linked triage page $page does not exist"
grep -q '<polyline class="series"' report.dom || fail "no throughput chart"
grep -q 'class="coverage-chart"' report.dom || fail "no coverage chart"
dom "$work/report/$page" > linked.dom
grep -q 'data-field="outcome">outcome=turn_limit</mark>' linked.dom || fail "the linked page does not mark the outcome"
shot "$work/report/index.html" "$work/artifacts/report.png"
# junit.xml parses as XML, with one failed test case for the one signature.
python3 - "$work/report/junit.xml" <<'PY' || fail "junit.xml is not what a CI system reads"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall("./testsuite/testcase")
assert root.tag == "testsuites" and len(cases) == 1, (root.tag, len(cases))
assert cases[0].get("name") == "liar:§8.2 run" and cases[0].find("failure") is not None
assert root.get("failures") == "1"
PY
echo "pages_test: ok; screenshots in $work/artifacts"
