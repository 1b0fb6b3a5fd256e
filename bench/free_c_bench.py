#!/usr/bin/python3
"""bench/free_c_bench.py: the c target's second mode (free runs on N threads,
targets/c/README.md "Free runs") beside its single-threaded conducted mode and raw
BEAM processes on +S 1 and +S N, in one run, on the same machine.

Stands, each timed as a slope between two turn counts (start-up, compilation and
the spawning of idle processes cancel out), from the fastest of REPS runs (default
9) of each turn count, the conducted and free columns of a stand run in turn within
each repetition:
  ping       two processes bounce one message (a light handler: one send)
  ping-last  the same after n idle processes exist (10^3 ... 10^6)
  heavy      8 workers, each handling a message whose handler does ~6,000
             multiply-adds (about 10 us on this kind of machine) and sends the
             next one to itself: independent work that threads can share
The conducted mode is the c target's default (libconcord_rt.a, SPEC §8's seeded
schedule); the free mode links the same emitted C against libconcord_rt_free.a and
runs it on CONCORD_THREADS threads, writing the trace instead of the journal. Both
binaries are compiled with $CONCORD_CC (default cc -O2) and write their whole
answer (to /dev/null). The BEAM column is bench/erlang/beam_bench.erl's stands
(plain processes, no concord), on +S 1 and +S N.

Printed per stand: ns per turn for each, the free mode's speedup from 1 thread to
N, and its cost against the conducted mode. The hand-off cost is ping at 2 threads
with the receiver always handed to another thread (CONCORD_FREE_HANDOFF=1, which
turns off the runtime's keeping of a woken receiver on the sender's thread) over
the conducted ping: what it costs to pass a process between threads, which the
seed report measured at 4-14x running it in place.

usage: bench/free_c_bench.py BUILD_DIR [--quick] [REPS]
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

BUILD = os.path.abspath(sys.argv[1])
QUICK = "--quick" in sys.argv
REPS = int(next((a for a in sys.argv[2:] if a.isdigit()), "9"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONCORD = os.path.join(BUILD, "concord")
RT_INC = os.path.join(ROOT, "targets", "c", "runtime")
LIB = os.path.join(BUILD, "targets", "c", "libconcord_rt.a")
FREE_LIB = os.path.join(BUILD, "targets", "c", "libconcord_rt_free.a")
CC = shlex.split(os.environ.get("CONCORD_CC", "cc -O2"))
CORES = os.cpu_count() or 1
THREADS = sorted({1, 2, CORES})
TMP = tempfile.mkdtemp(prefix="concord_free_c_bench_")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from c_programs import PAIR, idle_program  # noqa: E402

PING = """kind P(peer: addr) { on ping() { send ping() to peer; } }
process a = P(@b);
process b = P(@a);
given ping() to @a;
"""
HEAVY_WORKERS = 8
HEAVY = """kind H() {
    state x: int = 1;
    state n: int = 0;
    init { send work() to self; }
    on work() {
        repeat 60 { repeat 100 { x = x * 31 + 7; } }
        n = n + 1;
        send work() to self;
    }
}
""" + "".join(f"process h{i} = H();\n" for i in range(HEAVY_WORKERS))


def build(name, text):
    conc = os.path.join(TMP, name + ".conc")
    with open(conc, "w") as f:
        f.write(text)
    c_file = os.path.join(TMP, name + ".c")
    with open(c_file, "w") as f:
        subprocess.run([CONCORD, "emit-c", conc], stdout=f, check=True)
    exes = {}
    for mode, lib, extra in (("conducted", LIB, []), ("free", FREE_LIB, ["-lpthread"])):
        exe = os.path.join(TMP, f"{name}.{mode}")
        subprocess.run(CC + ["-I" + RT_INC, c_file, lib] + extra + ["-o", exe], check=True)
        exes[mode] = exe
    return exes


def answers(exe, env):
    """A run of 100 turns, read: the binary answers."""
    p = subprocess.run([exe], input=b"1 100 10000000\n", stdout=subprocess.PIPE, env=dict(os.environ, **env),
                       check=True)
    if not p.stdout.startswith(b'{"ok":true'):
        raise SystemExit(f"free_c_bench: {exe} answered {p.stdout[:300]!r}")


def timed(exe, turns, env):
    """Wall seconds of one run of `turns` turns, its answer written to /dev/null."""
    t0 = time.perf_counter()
    subprocess.run([exe], input=f"1 {turns} 10000000\n".encode(), stdout=subprocess.DEVNULL,
                   env=dict(os.environ, **env), check=True)
    return time.perf_counter() - t0


def slopes(stands, t1, t2):
    """ns per turn of each (exe, env) of `stands`: the fastest of REPS runs of t2 turns
    less the fastest of REPS runs of t1, the stands run in turn within each
    repetition. On this VM a run's time varies by up to half from one run to the
    next (the same binary, nothing else running: 214 to 398 ms), in bursts that
    come and go over minutes; a median of slopes still moved rows by half between
    runs of the bench. The fastest run of each turn count is the one least
    disturbed, and alternating the stands gives each the same chances."""
    for exe, env in stands.values():
        answers(exe, env)
    best = {k: [float("inf"), float("inf")] for k in stands}
    for _ in range(REPS):
        for k, (exe, env) in stands.items():
            best[k][1] = min(best[k][1], timed(exe, t2, env))
            best[k][0] = min(best[k][0], timed(exe, t1, env))
    return {k: (b2 - b1) / (t2 - t1) * 1e9 for k, (b1, b2) in best.items()}


def beam(stand, args, schedulers):
    ebin = os.path.join(TMP, "ebin")
    if not os.path.isdir(ebin):
        os.mkdir(ebin)
        subprocess.run(["erlc", "-o", ebin, os.path.join(ROOT, "bench", "erlang", "beam_bench.erl")], check=True)
    out = subprocess.run(["erl", "-noshell", "+S", str(schedulers), "+P", "4000000", "-pa", ebin, "-run",
                          "beam_bench", "main", stand] + [str(a) for a in args] + ["-s", "init", "stop"],
                         capture_output=True, text=True, check=True).stdout
    import json
    return json.loads(out.strip().splitlines()[0])["value"]


def main():
    for f in (LIB, FREE_LIB, CONCORD):
        if not os.path.exists(f):
            raise SystemExit(f"free_c_bench: {f} is missing (bash bench/run_free_c.sh builds it)")
    # Light stands over 2 million turns, 4 million at 100,000 processes and 16
    # million at a million: a run's start-up (the spawning of the idle processes)
    # varies by up to 50 ms at a million, which over 4 million turns alone moved
    # that row by 12 ns a turn, and its rows from 1.0x to 1.6x between runs.
    stands = [("ping", 2, PING, 1_000_000, 3_000_000, ("ping", [1_000_000, 3_000_000]))]
    for n in [1_000, 10_000, 100_000] + ([] if QUICK else [1_000_000]):
        t2 = 17_000_000 if n >= 1_000_000 else 5_000_000 if n >= 100_000 else 3_000_000
        stands.append(("ping-last", n + 3, idle_program(n, PAIR), n // 33_000 + 1_000_000, n // 33_000 + t2,
                       ("ping_last", [n, 1_000_000, t2])))
    stands.append(("heavy", HEAVY_WORKERS, HEAVY, 4_000, 12_000, ("heavy", [HEAVY_WORKERS, 500, 1500])))
    cols = ["conducted"] + [f"free {t}t" for t in THREADS] + ["BEAM +S 1", f"BEAM +S {max(THREADS)}"]
    print(f"c target, free mode vs conducted vs BEAM: {CORES} cores, slopes between the fastest of {REPS} runs "
          f"of each turn count (the stands in turn), ns per turn "
          f"(BEAM: per delivery / per work message)")
    print("| stand | processes | " + " | ".join(cols) + f" | free {max(THREADS)}t speedup over 1t | "
          f"free {max(THREADS)}t / conducted |")
    print("|---|---:|" + "---:|" * (len(cols) + 2))
    for name, procs, text, t1, t2, (bstand, bargs) in stands:
        exes = build(name.replace("-", "_") + str(procs), text)
        stand = {"conducted": (exes["conducted"], {})}
        for t in THREADS:
            stand[f"free {t}t"] = (exes["free"], {"CONCORD_THREADS": str(t)})
        row = slopes(stand, t1, t2)
        row["BEAM +S 1"] = beam(bstand, bargs, 1)
        row[f"BEAM +S {max(THREADS)}"] = beam(bstand, bargs, max(THREADS))
        top = row[f"free {max(THREADS)}t"]
        print(f"| {name} | {procs:,} | " + " | ".join(f"{row[c]:,.0f}" for c in cols) +
              f" | {row['free 1t'] / top:.2f}x | {top / row['conducted']:.2f}x |", flush=True)
    exes = build("ping_handoff", PING)
    hand_off = slopes({"conducted": (exes["conducted"], {}),
                       "hand-off": (exes["free"], {"CONCORD_THREADS": "2", "CONCORD_FREE_HANDOFF": "1"})},
                      1_000_000, 3_000_000)
    cond, hand = hand_off["conducted"], hand_off["hand-off"]
    print(f"\nhand-off: ping with every delivery passed to another thread, {hand:,.0f} ns per turn against "
          f"{cond:,.0f} conducted: {hand / cond:.1f}x (the seed report: 4-14x)")
    print(f"rerun: bash bench/run_free_c.sh{' --quick' if QUICK else ''}")


try:
    main()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
