#!/usr/bin/python3
"""bench/fuzz_bench.py: the campaign throughput stand (issue 5). One default
campaign (`concord fuzz`, profile default, 8 seeds per program, every target:
oracle in-process, c, erlang, js) on a fixed seed and case count, run once with the c
target compiling with `cc -O1` and once with `tcc`; a table of programs and runs
per second, where the time goes per target, and the divergences found. Both
campaigns run the same cases, so "0 divergences" with both compilers means both
gave the oracle's lines byte for byte: the results are identical, which is what
makes tcc the c target's default compiler when it is installed.

usage: bench/fuzz_bench.py BUILD_DIR [CASES] [JOBS]     (defaults: 400 cases, all cores)
"""
import json
import os
import subprocess
import sys
import tempfile

BUILD = os.path.abspath(sys.argv[1])
CASES = int(sys.argv[2]) if len(sys.argv) > 2 else 400
JOBS = int(sys.argv[3]) if len(sys.argv) > 3 else os.cpu_count()
CONCORD = os.path.join(BUILD, "concord")
SEED = 20261130


def campaign(cc):
    tmp = tempfile.mkdtemp(prefix="concord_fuzz_bench_")
    summary = os.path.join(tmp, "report", "summary.json")
    env = dict(os.environ, CONCORD_CC=cc)
    cmd = [CONCORD, "fuzz", "--seed", str(SEED), "--cases", str(CASES), "--jobs", str(JOBS),
           "--seeds-per-program", "8", "--corpus", os.path.join(tmp, "corpus"), "--report", os.path.join(tmp, "report"), "--quiet"]
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=False)
    with open(summary) as f:
        return json.load(f), " ".join(cmd[1:])


rows = []
for cc in ["cc -O1", "tcc"]:
    s, cmd = campaign(cc)
    rows.append((cc, s))

ref = rows[0][1]["programs"] / rows[0][1]["seconds"]
print(f"campaign throughput: seed {SEED}, {CASES} cases x 8 seeds, {JOBS} jobs, targets oracle, c, erlang, js")
print()
print("| c compiler | programs | runs | wall s | programs/s | runs/s | vs cc | oracle s | generate s | c s | erlang s "
      "| js s | divergences |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for cc, s in rows:
    pps = s["programs"] / s["seconds"]
    t = s["target_seconds"]
    print(f"| {cc} | {s['programs']} | {s['runs']} | {s['seconds']:.1f} | {pps:.1f} | {s['runs'] / s['seconds']:.0f} | "
          f"{pps / ref:.2f}x | {t.get('oracle', 0):.1f} | {t.get('generate', 0):.1f} | {t.get('c', 0):.1f} | "
          f"{t.get('erlang', 0):.1f} | {t.get('js', 0):.1f} | {s['divergent_cases']} |")
print()
print("target: at least 25 programs/s with 8 seeds each across oracle, c, erlang and js on this machine;")
print("per-target seconds are summed over the workers (CPU-ish time, not wall time).")
print(f"rerun: bash bench/run_fuzz.sh [CASES] [JOBS]   (one campaign: CONCORD_CC=tcc {CONCORD} {cmd})")
