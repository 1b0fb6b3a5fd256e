#!/usr/bin/python3
# tests/spec/key_order_test.py: the key order SPEC §9.3 states in its table is the
# order concord writes. The tables (§9.2's events, §9.3's records) are read from
# spec/SPEC.md itself; every object of the oracle's result for each hand-written
# corpus program, and an error answer of `concord backend oracle`, is read with its
# keys in order and compared. Every row of both tables must be met at least once.
# usage: key_order_test.py SOURCE_DIR CONCORD_BINARY
import glob
import json
import os
import re
import subprocess
import sys

src, concord = sys.argv[1], sys.argv[2]
with open(os.path.join(src, "spec/SPEC.md")) as f:
    spec = f.read()


def table_after(heading, first_cell):
    """The rows (cells) of the first table under `heading` whose header starts with `first_cell`."""
    start = spec.index(heading)
    lines = spec[start:].splitlines()
    rows, inside = [], False
    for line in lines:
        if line.startswith("| " + first_cell + " |"):
            inside = True
            continue
        if inside:
            if not line.startswith("|"):
                break
            if line.startswith("|---"):
                continue
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    if not rows:
        sys.exit(f"FAIL no table '{first_cell}' under {heading} in SPEC.md")
    return rows


def keys_of(cell):
    """The backquoted keys of a cell, up to a parenthesis or a ';' (which comment)."""
    return re.findall(r"`([a-z_]+)`", re.split(r"[(;]", cell)[0])


events = {row[0].strip("`"): ["ev", "turn"] + keys_of(row[1]) for row in table_after("### 9.2 Events", "ev")}
records = {row[0]: keys_of(row[1]) for row in table_after("### 9.3 Canonical", "object")}
for needed in ("result", "`run`", "a failure", "a decision", "a process", "an alive process", "a supervisor",
               "a child", "an error (§10)"):
    if needed not in records:
        sys.exit(f"FAIL §9.3's table has no row '{needed}'")
if records["an event"] != ["ev", "turn"]:
    sys.exit(f"FAIL §9.3 says an event starts with {records['an event']}")

failures, seen = 0, set()


def expect(what, got, want, where):
    global failures
    seen.add(what)
    if got != want:
        failures += 1
        if failures <= 20:
            print(f"FAIL {where}: {what} has keys {got}, SPEC §9.3 says {want}")


def keys(pairs):
    return [k for k, _ in pairs]


def check_result(r, where):
    expect("result", keys(r), records["result"], where)
    d = dict(r)
    expect("`run`", keys(d["run"]), records["`run`"], where)
    for e in d["journal"]:
        ev = dict(e)["ev"]
        expect("event " + ev, keys(e), events.get(ev, ["unknown event " + ev]), where)
    for name, row in (("failures", "a failure"), ("decisions", "a decision"), ("processes", "a process")):
        for x in d[name]:
            expect(row, keys(x), records[row], where)
    for a in d["alive"]:
        expect("an alive process", keys(a), records["an alive process"], where)
    for s in d["supervisors"]:
        expect("a supervisor", keys(s), records["a supervisor"], where)
        for c in dict(s)["children"]:
            expect("a child", keys(c), records["a child"], where)


def ordered(text):
    return json.loads(text, object_pairs_hook=lambda pairs: pairs)


sources = sorted(glob.glob(os.path.join(src, "corpus/hand/*.conc")))
if len(sources) < 20:
    sys.exit(f"FAIL only {len(sources)} hand-written corpus programs found")
for path in sources:
    out = subprocess.run([concord, "run", path], capture_output=True, text=True)
    if out.returncode != 0:
        failures += 1
        print(f"FAIL concord run {path}: exit {out.returncode}: {out.stderr.strip()}")
        continue
    check_result(ordered(out.stdout), os.path.basename(path))

# An error answer: a request whose program is invalid.
request = '{"program":{"concord":1},"runs":[{"seed":0,"turns":1,"max_processes":1}]}\n'
out = subprocess.run([concord, "backend", "oracle"], input=request, capture_output=True, text=True)
lines = out.stdout.splitlines()
if len(lines) != 1:
    failures += 1
    print(f"FAIL concord backend oracle answered {len(lines)} lines to one run: {out.stdout!r}")
else:
    expect("an error (§10)", keys(ordered(lines[0])), records["an error (§10)"], "an INVALID_PROGRAM answer")

rows = {"event " + ev for ev in events} | set(records) - {"an event"}
for missing in sorted(rows - seen):
    failures += 1
    print(f"FAIL no result of corpus/hand has {missing}: the test does not cover that row")
print(f"{len(seen)} kinds of object checked in {len(sources)} results, {failures} failed")
sys.exit(1 if failures else 0)
