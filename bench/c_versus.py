#!/usr/bin/python3
"""bench/c_versus.py: the c target against itself at another commit. A change that
adds to the language (version 2: links, monitors, calls, ...) must leave programs
that use none of it as fast as before (issue 15: ping and spawn within 5%). Both
builds emit the same version 1 stands (c_programs.py) with their own `concord
emit-c`, compile them with $CONCORD_CC (default cc -O2) against their own runtime
library and headers, and run them alternately, best of REPS, so that the load of
the machine falls on both alike. Times are slopes between two sizes, as in
c_bench.py: start-up and compilation cancel out. Beside the times, the same slopes
in instructions (valgrind's callgrind, one run each): they do not depend on the
machine's load, so their ratio is the one to trust on a busy machine.

usage: bench/c_versus.py BUILD REF_BUILD [REPS]
  BUILD, REF_BUILD: build directories (each holds concord and
  targets/c/libconcord_rt.a; its CMakeCache.txt names its source tree, whose
  targets/c/runtime has the headers). bench/run_c_versus.sh REF makes REF_BUILD.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

from c_programs import PAIR, idle_program, ready_program

CC = shlex.split(os.environ.get("CONCORD_CC", "cc -O2"))
TURNS = 1_000_000


class Build:
    def __init__(self, path, tmp, label):
        self.path = os.path.abspath(path)
        self.tmp = os.path.join(tmp, label)
        os.mkdir(self.tmp)
        cache = open(os.path.join(self.path, "CMakeCache.txt")).read()
        src = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache, re.M).group(1)
        self.include = os.path.join(src, "targets", "c", "runtime")
        self.lib = os.path.join(self.path, "targets", "c", "libconcord_rt.a")
        self.commit = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"], capture_output=True,
                                     text=True).stdout.strip() or "?"

    def build(self, name, text):
        conc = os.path.join(self.tmp, name + ".conc")
        with open(conc, "w") as f:
            f.write(text)
        c_file = os.path.join(self.tmp, name + ".c")
        with open(c_file, "w") as f:
            subprocess.run([os.path.join(self.path, "concord"), "emit-c", conc], stdout=f, check=True)
        exe = os.path.join(self.tmp, name)
        subprocess.run(CC + ["-I" + self.include, c_file, self.lib, "-o", exe], check=True)
        return exe


def seconds(exe, turns):
    t0 = time.perf_counter()
    subprocess.run([exe], input=f"1 {turns} 10000000\n", text=True, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def instructions(exe, turns):
    """Instructions of one run, as callgrind counts them."""
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", exe],
                       input=f"1 {turns} 10000000\n", text=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, check=True)
    m = re.search(r"Collected : (\d+)", p.stderr)
    if not m:
        sys.exit("c_versus: callgrind printed no instruction count:\n" + p.stderr[-2000:])
    return int(m.group(1))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    tmp = tempfile.mkdtemp(prefix="concord_versus_")
    try:
        new, ref = Build(sys.argv[1], tmp, "new"), Build(sys.argv[2], tmp, "ref")
        # (stand, unit, program, small size, large size, per): a slope between two
        # runs of one program (turns), or between two programs (spawned processes).
        stands = [
            ("ping", "ns/delivery", lambda b: [b.build("ping", idle_program(0, PAIR))] * 2, TURNS // 5, TURNS),
            ("ping-last 100,000", "ns/delivery",
             lambda b: [b.build("ping_last", idle_program(100_000, PAIR))] * 2, 5 + TURNS // 5, 5 + TURNS),
            ("swarm 100,000", "ns/spawn",
             lambda b: [b.build("swarm_small", ready_program("Ran", 10_000)),
                        b.build("swarm", ready_program("Ran", 100_000))], 10_000, 100_000),
        ]
        print(f"c target {new.commit} against {ref.commit}: best of {reps}, alternating; cc: {' '.join(CC)}; "
              f"load {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
        print("| stand | unit | this build | reference | ratio | instructions per unit, this build | reference "
              "| ratio |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for name, unit, make, small, large in stands:
            exes = {b: make(b) for b in (new, ref)}
            best = {b: [float("inf"), float("inf")] for b in (new, ref)}
            for _ in range(reps):
                for b in (new, ref):
                    if unit == "ns/spawn":  # two programs, each run to the end
                        runs = [seconds(exes[b][0], 10**9), seconds(exes[b][1], 10**9)]
                    else:  # one program, two turn limits
                        runs = [seconds(exes[b][0], small), seconds(exes[b][1], large)]
                    best[b] = [min(x, y) for x, y in zip(best[b], runs)]
            fig = {b: (best[b][1] - best[b][0]) / (large - small) * 1e9 for b in (new, ref)}
            ins = {}
            for b in (new, ref):
                if unit == "ns/spawn":
                    counts = [instructions(exes[b][0], 10**9), instructions(exes[b][1], 10**9)]
                else:
                    counts = [instructions(exes[b][0], small), instructions(exes[b][1], large)]
                ins[b] = (counts[1] - counts[0]) / (large - small)
            print(f"| {name} | {unit} | {fig[new]:,.1f} | {fig[ref]:,.1f} | {fig[new] / fig[ref]:.3f} "
                  f"| {ins[new]:,.1f} | {ins[ref]:,.1f} | {ins[new] / ins[ref]:.3f} |")
        print(f"\nrerun: bash bench/run_c_versus.sh {ref.commit}   (or bench/c_versus.py BUILD REF_BUILD {reps})")
    finally:
        subprocess.run(["rm", "-rf", tmp])


main()
