#!/usr/bin/python3
"""bench/free_bench.py: what a free run costs on the erlang target beside a conducted
one (SPEC §25), measured in the same run on the same programs.

The first N programs of a profile (`concord gen --seed 0..N-1`, default 100, with
their first run settings) go through one `concord backend erlang` process, each as
four requests, in turn: a conducted request of 1 run and of K runs (default 8), and a
free request of 1 run and of K runs. A conducted run is SPEC §8's schedule, granted
turn by turn by the conductor (a round trip per turn, per start, per exit); a free
run has no conductor (its processes run as they do, each recording its own trace)
but must find out when the run has ended, and write every event twice (a send and
its delivery). Per request the time from the request line to its last answer, on
the harness's clock: emit, compile and load are the same for both modes (two nodes,
one each), so the 1-run requests carry them, and (K-run - 1-run)/(K-1) is the cost
of one more run. Every free trace is checked (`concord check-trace`) and the
conducted answers compared with the oracle's: a wrong answer would make the figures
meaningless. The load average before and after is printed.

usage: bench/free_bench.py BUILD_DIR [PROGRAMS] [RUNS] [PROFILE]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

BUILD = os.path.abspath(sys.argv[1])
N = int(sys.argv[2]) if len(sys.argv) > 2 else 100
K = int(sys.argv[3]) if len(sys.argv) > 3 else 8
PROFILE = sys.argv[4] if len(sys.argv) > 4 else "default"
CONCORD = os.path.join(BUILD, "concord")


def program(seed):
    text = subprocess.run([CONCORD, "gen", "--seed", str(seed), "--profile", PROFILE, "--runs", "1"],
                          capture_output=True, text=True, check=True).stdout
    run = next(l for l in text.splitlines() if l.startswith("# run:")).split()
    settings = {"seed": int(run[3]), "turns": int(run[5]), "max_processes": int(run[7])}
    prog = json.loads(subprocess.run([CONCORD, "gen", "--seed", str(seed), "--profile", PROFILE, "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    return prog, settings


def main():
    programs = [program(s) for s in range(N)]
    backend = subprocess.Popen([CONCORD, "backend", "erlang"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, bufsize=1)
    oracle = subprocess.Popen([CONCORD, "backend", "oracle"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def request(prog, settings, runs, mode, to=backend):
        req = {"concord_protocol": 1, "program": prog, "runs": [settings] * runs}
        if mode == "free":
            req["mode"] = "free"
        t0 = time.perf_counter()
        to.stdin.write(json.dumps(req) + "\n")
        to.stdin.flush()
        lines = [to.stdout.readline() for _ in range(runs)]
        return time.perf_counter() - t0, lines

    # Both nodes up before the clock starts: a trivial program each.
    warm = {"concord": 1, "kinds": [{"name": "P", "params": [], "state": [], "init": [], "handlers": []}],
            "system": [{"process": {"name": "a", "kind": "P", "args": []}}], "given": []}
    for mode in ("conducted", "free"):
        request(warm, {"seed": 0, "turns": 1, "max_processes": 10}, 1, mode)

    load_before = os.getloadavg()[0]
    times = {(m, r): [] for m in ("conducted", "free") for r in (1, K)}
    wrong, errors, checked, differ = 0, {}, 0, 0
    tmp = tempfile.mkdtemp(prefix="concord_free_bench_")
    for i, (prog, settings) in enumerate(programs):
        for mode in ("conducted", "free"):
            for runs in (1, K):
                secs, lines = request(prog, settings, runs, mode)
                times[(mode, runs)].append(secs)
                for line in lines:
                    ans = json.loads(line)
                    if not ans.get("ok"):
                        errors[ans["code"]] = errors.get(ans["code"], 0) + 1
                if mode == "free" and runs == K:
                    pf, tf = os.path.join(tmp, "p.json"), os.path.join(tmp, "t.json")
                    with open(pf, "w") as f:
                        json.dump(prog, f)
                    with open(tf, "w") as f:
                        f.writelines(l for l in lines if json.loads(l).get("ok"))
                    if any(json.loads(l).get("ok") for l in lines):
                        r = subprocess.run([CONCORD, "check-trace", pf, tf], capture_output=True, text=True)
                        checked += 1
                        wrong += r.returncode != 0
                if mode == "conducted" and runs == 1:
                    _, expected = request(prog, settings, 1, "conducted", oracle)
                    differ += lines != expected and json.loads(expected[0]).get("ok", False)
    for p in (backend, oracle):
        p.stdin.close()
        p.wait()
    load_after = os.getloadavg()[0]

    def ms(v):
        return f"{1000 * v:8.2f}"

    print(f"erlang target, {N} programs of profile {PROFILE}, {K} runs per request; "
          f"load average {load_before:.2f} -> {load_after:.2f}")
    print(f"{'':12} {'1 run: median':>14} {'mean':>8} {'p90':>8} | {str(K) + ' runs: median':>15} {'mean':>8} | "
          f"{'per run (mean)':>14}")
    per_run = {}
    for mode in ("conducted", "free"):
        one, many = times[(mode, 1)], times[(mode, K)]
        q = statistics.quantiles(one, n=10)
        per_run[mode] = (sum(many) - sum(one)) / (len(many) * (K - 1))
        print(f"{mode:12} {ms(statistics.median(one)):>14} {ms(statistics.mean(one))} {ms(q[8])} | "
              f"{ms(statistics.median(many)):>15} {ms(statistics.mean(many))} | {ms(per_run[mode]):>14}  ms")
    print(f"free / conducted, per run: {per_run['free'] / per_run['conducted']:.2f}; per request of 1 run "
          f"(mean): {statistics.mean(times[('free', 1)]) / statistics.mean(times[('conducted', 1)]):.2f}")
    print(f"free traces checked: {checked} requests of {K}, {wrong} with a trace not admissible; conducted "
          f"answers unlike the oracle's: {differ}; error answers: {errors or 'none'}")
    print(f"rerun: bash bench/run_free.sh {N} {K} {PROFILE}")


main()
