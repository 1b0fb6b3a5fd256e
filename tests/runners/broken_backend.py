#!/usr/bin/env python3
# tests/runners/broken_backend.py: a backend that gets some of `concord backend-check`'s
# checks wrong on purpose (tests/runners/backend_check_test.cpp). It relays requests to
# the oracle (`CONCORD backend oracle`) and its answers back, except:
#   a line that is not JSON          it exits with status 1 (not-json fails)
#   a program with a kind without    it answers INTERNAL for every run, not
#     "handlers"                     INVALID_PROGRAM (invalid-program fails)
#   a run with an unknown key        it drops the key and runs it (unknown-setting fails)
#   end of input                     it never exits (eof fails)
# so `runs`, `not-claimed` and `huge` pass.
# usage: broken_backend.py CONCORD
import json
import subprocess
import sys
import time

oracle = subprocess.Popen([sys.argv[1], "backend", "oracle"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)


def answer(line):
    try:
        req = json.loads(line)
    except ValueError:
        sys.exit(1)
    runs = req.get("runs", [])
    if any("handlers" not in k for k in req.get("program", {}).get("kinds", [])):
        return ['{"ok":false,"code":"INTERNAL","message":"no handlers"}'] * len(runs)
    req["runs"] = [{k: r[k] for k in ("seed", "turns", "max_processes")} for r in runs]
    oracle.stdin.write(json.dumps(req, separators=(",", ":")) + "\n")
    oracle.stdin.flush()
    return [oracle.stdout.readline().rstrip("\n") for _ in runs]


for line in sys.stdin:
    for a in answer(line):
        sys.stdout.write(a + "\n")
        sys.stdout.flush()
while True:  # end of input: a backend must exit, this one does not
    time.sleep(1)
