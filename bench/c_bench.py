#!/usr/bin/python3
"""bench/c_bench.py: the c target's benchmark stands (issue: speed and memory of the
emitted-C scheduler) beside the same work on raw Erlang/OTP, measured in the same
run, printed as one Markdown table with the reference figures of DESIGN.md §5.

usage: bench/c_bench.py BUILD_DIR [--quick]
Each stand is a concord program built from text below, emitted as C
(`concord emit-c`), compiled once with $CONCORD_CC (default: cc -O2) against the
runtime library, and run through its stdin protocol ("SEED TURNS MAX" per line).
Times are slopes between two sizes, so start-up and compilation cancel out;
memory is the runtime's own malloc accounting (CONCORD_RT_STATS=1 makes it print
heap figures on stderr), never RSS.
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "build-bench")
QUICK = "--quick" in sys.argv
CONCORD = os.path.join(BUILD, "concord")
RT_LIB = os.path.join(BUILD, "targets", "c", "libconcord_rt.a")
RT_INC = os.path.join(ROOT, "targets", "c", "runtime")
CC = shlex.split(os.environ.get("CONCORD_CC", "cc -O2"))
TMP = tempfile.mkdtemp(prefix="concord_bench_")

# --- programs ---------------------------------------------------------------
# Processes are made at run time by spawners (a program of a million declared
# processes would not fit the 16 MiB input limit); names are looked up by id, so
# a pair spawned after n others is "declared last". A spawner makes up to 33,000
# processes per turn (the body weight bound, SPEC §4.8).
KINDS = """
kind P(peer: addr) { on ping() { send ping() to peer; } }
kind Idle() { on never() {} }
kind Ran() {
    state hits: int = 0;
    init { send hi() to self; }
    on hi() { hits = hits + 1; }
}
kind Spin() {
    state n: int = 0;
    init { send spin() to self; }
    on spin() { n = n + 1; send spin() to self; }
}
"""
SPAWNER = """
kind Spawner(quota: int) {{
    state made: int = 0;
    state a: addr = self;
    state b: addr = self;
    on go() {{
        repeat 33 {{ repeat 1000 {{ if made < quota {{ spawn {kind}(); made = made + 1; }} }} }}
        if made < quota {{ send go() to self; }} else {{ {after} }}
    }}
}}
"""
PAIR = "a = spawn P(@p-2); b = spawn P(@p-1); send ping() to a;"


def idle_program(n, after=""):
    """One spawner makes n idle processes (it is the only one ready), then `after`."""
    return KINDS + SPAWNER.format(kind="Idle", after=after) + f"process s = Spawner({n});\ngiven go() to @s;\n"


def ready_program(kind, n):
    """n processes that are ready from birth (their init sends to themselves). Each
    spawner makes its quota in one turn, so they need not win many draws against
    the processes already made."""
    spawners = max(1, -(-n // 33000))
    text = KINDS + SPAWNER.format(kind=kind, after="")
    for i in range(spawners):
        quota = n // spawners + (1 if i < n % spawners else 0)
        text += f"process s{i} = Spawner({quota});\ngiven go() to @s{i};\n"
    return text


def build(name, text):
    conc = os.path.join(TMP, name + ".conc")
    with open(conc, "w") as f:
        f.write(text)
    c_file = os.path.join(TMP, name + ".c")
    with open(c_file, "w") as f:
        subprocess.run([CONCORD, "emit-c", conc], stdout=f, check=True)
    exe = os.path.join(TMP, name)
    subprocess.run(CC + ["-I" + RT_INC, c_file, RT_LIB, "-o", exe], check=True)
    return exe


def run(exe, turns, max_processes=10_000_000, stats=False):
    """Wall seconds of one run (output discarded), and the stats line if asked."""
    env = dict(os.environ, CONCORD_RT_STATS="1") if stats else None
    t0 = time.perf_counter()
    p = subprocess.run([exe], input=f"1 {turns} {max_processes}\n", text=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    t = time.perf_counter() - t0
    return t, parse_stats(p.stderr) if stats else None


def parse_stats(stderr):
    for line in stderr.splitlines():
        if line.startswith("{") and "heap_live" in line:
            return json.loads(line)
    raise SystemExit("bench: the runtime printed no stats line (CONCORD_RT_STATS=1)")


def best(f, reps=3):
    return min(f() for _ in range(reps))


def slope(exe, t1, t2):
    a = best(lambda: run(exe, t1)[0])
    b = best(lambda: run(exe, t2)[0])
    return (b - a) / (t2 - t1)


def beam(*args):
    out = subprocess.run(["erl", "-noshell", "+P", "4000000", "-pa", TMP, "-run", "beam_bench", "main", *map(str, args),
                          "-s", "init", "stop"], check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith("{")]


rows = []  # (stand, n, c figure, unit, beam figure, reference)


def row(stand, n, c, unit, beam_value=None, reference=None):
    rows.append((stand, n, c, unit, beam_value, reference))
    sys.stderr.write(f"  {stand} n={n}: {c:.3f} {unit}\n")


def main():
    subprocess.run(["erlc", "-o", TMP, os.path.join(ROOT, "bench", "erlang", "beam_bench.erl")], check=True)
    sizes = [1000, 10_000, 100_000] if QUICK else [1000, 10_000, 100_000, 1_000_000]
    turns = 200_000 if QUICK else 1_000_000

    # ping: two processes; slope per delivery.
    exe = build("ping", idle_program(0, PAIR))
    b = beam("ping", turns // 5, turns)[0]["value"]
    row("ping", 2, slope(exe, turns // 5, turns) * 1e9, "ns/delivery", b, "400 (C ref)")

    # ping-last: the pair made after n idle processes.
    for n in sizes:
        exe = build(f"ping_last_{n}", idle_program(n, PAIR))
        spawn_turns = n // 33000 + 2
        b = beam("ping_last", n, turns // 5, turns)[0]["value"]
        row("ping-last", n, slope(exe, spawn_turns + turns // 5, spawn_turns + turns) * 1e9, "ns/delivery", b,
            "490 at 1M (C ref)")

    # quiet: heap bytes per idle process (whole runtime heap, journal included and excluded).
    for n in sizes:
        exe = build(f"quiet_{n}", idle_program(n))
        _, st = run(exe, 10**9, stats=True)
        b = beam("quiet", n)[0]["value"]
        row("quiet", n, (st["heap_live"] - st["journal"]) / n, "bytes/process (no journal)", b, "440 (C ref)")
        row("quiet+journal", n, st["heap_live"] / n, "bytes/process", None, None)

    # swarm: processes spawned at run time that have each handled a message.
    for n in sizes:
        exe = build(f"swarm_{n}", ready_program("Ran", n))
        t, st = run(exe, 10**9, stats=True)
        small = build(f"swarm_small_{n}", ready_program("Ran", n // 10))
        t_small, _ = run(small, 10**9)
        bm = beam("swarm", n)
        row("swarm", n, (t - t_small) / (n - n // 10) * 1e9, "ns/spawn", bm[0]["value"], "11600 (C ref), ~2000 BEAM")
        row("swarm-memory", n, (st["heap_live"] - st["journal"]) / n, "bytes/process (no journal)",
            bm[1]["value"], "1770 (C ref)")

    # swarm-waiting: n processes always ready; cost per switch.
    for n in sizes:
        exe = build(f"waiting_{n}", ready_program("Spin", n))
        spawn_turns = 6 * n + 100_000  # well past the last spawner's turn (expected ~3n at a million)
        per = slope(exe, spawn_turns + turns // 5, spawn_turns + turns) * 1e9
        b = beam("swarm_waiting", n, turns)[0]["value"]
        row("swarm-waiting", n, per, "ns/switch", b, "170000 at 1M (sorted array); target < 1000")

    print(f"| stand | n | c target | unit | BEAM | c / BEAM | reference |")
    print("|---|---:|---:|---|---:|---:|---|")
    for stand, n, c, unit, bv, ref in rows:
        ratio = f"{c / bv:.2f}x" if bv else ""
        print(f"| {stand} | {n:,} | {c:,.1f} | {unit} | {'' if bv is None else f'{bv:,.1f}'} | {ratio} | {ref or ''} |")
    print(f"\ncc: {' '.join(CC)}; BEAM: erl +P 4000000; rerun: bash bench/run_c.sh{' --quick' if QUICK else ''}")


try:
    main()
finally:
    subprocess.run(["rm", "-rf", TMP])
