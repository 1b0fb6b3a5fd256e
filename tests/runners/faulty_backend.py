#!/usr/bin/env python3
# tests/runners/faulty_backend.py: a backend for the tests of campaigns against a
# target that fails (runners/campaign/failure.hpp): it relays every request to the oracle
# (`CONCORD backend oracle`) and its answers back, except for a program with a
# spawn statement, on which it fails as MODE says:
#   crash    writes a line on stderr and kills itself with SIGSEGV
#   hang     writes a line on stderr and never answers
#   slow:S   answers S seconds late (a slow machine, not a bug)
#   exit     exits with status 127 on every request (a broken command)
#   spawned  relays every program, but crashes (SIGSEGV) on a run whose answer shows
#            a worker spawned after the starts (a start in turn 1 or later with no
#            supervisor's decision before it in its turn): a bug inside the turn
#            that ran a spawn statement, which a shorter run does not reach
#   huge:N   answers every run with one line of N bytes (a valid JSON result of many
#            small events, as a runaway journal would be), without asking the oracle
# usage: faulty_backend.py MODE CONCORD
import json
import os
import signal
import subprocess
import sys
import time

mode, concord = sys.argv[1], sys.argv[2]
# The oracle does not share our stderr: when we die, the harness sees it closed.
oracle = subprocess.Popen([concord, "backend", "oracle"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)

def spawned_after_start(answer):
    decided = set()  # turns with a supervisor's decision so far
    for e in answer.get("journal", []):
        if e["ev"] == "decision":
            decided.add(e["turn"])
        if e["ev"] == "start" and e["turn"] >= 1 and e["kind"] != "supervisor" and e["turn"] not in decided:
            return True
    return False


def huge_answer(run, size):
    head = '{"ok":true,"run":' + json.dumps(run, separators=(",", ":")) + ',"outcome":"turn_limit","turns":0,"journal":['
    event, tail = '{"ev":"start","turn":0,"name":"a","kind":"K"},', '{}]}\n'
    n = max(0, (size - len(head) - len(tail)) // len(event))
    return head + event * n + tail


for line in sys.stdin:
    if mode == "exit":
        sys.exit(127)
    if mode.startswith("huge:"):
        for run in json.loads(line)["runs"]:
            sys.stdout.write(huge_answer(run, int(mode[5:])))
        sys.stdout.flush()
        continue
    spawns = '"do":"spawn"' in line and mode != "spawned"
    if spawns and mode == "crash":
        sys.stderr.write("faulty backend: a program with a spawn, and now a segfault\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if spawns and mode == "hang":
        sys.stderr.write("faulty backend: a program with a spawn, and now nothing\n")
        sys.stderr.flush()
        time.sleep(100000)
    if spawns and mode.startswith("slow:"):
        time.sleep(float(mode[5:]))
    oracle.stdin.write(line)
    oracle.stdin.flush()
    for _ in json.loads(line)["runs"]:
        answer = oracle.stdout.readline()
        if mode == "spawned" and spawned_after_start(json.loads(answer)):
            sys.stdout.flush()
            sys.stderr.write("faulty backend: a worker spawned in a turn, and now a segfault\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGSEGV)
        sys.stdout.write(answer)
    sys.stdout.flush()
