#!/usr/bin/python3
"""bench/c_bench.py: the benchmark stands of the c, erlang, js and elixir targets
(speed and memory of the emitted-C scheduler; the BEAM targets' shared conductor;
the js runtime on node) beside the same work on raw Erlang/OTP, measured in the
same run, printed as one Markdown table with the reference figures of DESIGN.md §5
and the elixir target's ratio to the erlang target's.

usage: bench/c_bench.py BUILD_DIR [--quick] [--erlang-only] [--no-js]   (--erlang-only: the BEAM targets' rows)
Each stand is a concord program built from text below, emitted as C
(`concord emit-c`), compiled once with $CONCORD_CC (default: cc -O2) against the
runtime library, and run through its stdin protocol ("SEED TURNS MAX" per line).
Times are slopes between two sizes, so start-up and compilation cancel out;
memory is the runtime's own malloc accounting (CONCORD_RT_STATS=1 makes it print
heap figures on stderr), never RSS.
The erlang target's stands run the same programs (`concord emit-erlang`) on one
persistent node (targets/erlang/runtime), fed frames directly; its memory is
erlang:memory(processes) at the end of a run (CONCORD_ERLANG_STATS=1) minus that of
the same program with no processes made, the measure beam_bench.erl uses.
The js target's column runs the c stands' programs (`concord emit-js`) on one
persistent node (targets/js/runtime/host.js, as `concord backend js` starts it), fed
frames directly; times are the same slopes; memory is V8's used heap after a full
collection with the run's world still alive and its journal dropped
(CONCORD_JS_STATS=1), minus that of the same program with no processes made.
The elixir target's stands are the erlang target's on its own node (Elixir loaded,
`-s concord_node main concord_elixir`), fed the programs as `concord emit-elixir`
prints them: each frame compiles them with Code.compile_string/2.
"""
import atexit
import json
import os
import struct
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "build-bench")
QUICK = "--quick" in sys.argv
ERLANG_ONLY = "--erlang-only" in sys.argv  # only the BEAM targets' stands (erlang, elixir)
JS = "--no-js" not in sys.argv and not ERLANG_ONLY  # the js target's column
CONCORD = os.path.join(BUILD, "concord")
RT_LIB = os.path.join(BUILD, "targets", "c", "libconcord_rt.a")
RT_INC = os.path.join(ROOT, "targets", "c", "runtime")
CC = shlex.split(os.environ.get("CONCORD_CC", "cc -O2"))
TMP = tempfile.mkdtemp(prefix="concord_bench_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)  # its programs and nodes' logs
EBIN = os.path.join(BUILD, "targets", "erlang", "ebin")
ELIXIR_EBIN = os.path.join(BUILD, "targets", "elixir", "ebin")
GEN = os.path.join(BUILD, "bench", "gen_programs")
JS_RUNTIME = os.path.join(BUILD, "targets", "js", "runtime")

from c_programs import PAIR, idle_program, ready_program  # noqa: E402  (bench/, beside this file)


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


def elixir_lib():
    """Elixir's own ebin, found from the `elixir` launcher as the target finds it."""
    launcher = os.path.realpath(subprocess.run(["sh", "-c", "command -v elixir"], capture_output=True, text=True,
                                               check=True).stdout.strip())
    return os.path.join(os.path.dirname(os.path.dirname(launcher)), "lib", "elixir", "ebin")


class Node:
    """One persistent node of a BEAM target, as `concord backend erlang|elixir` keeps one."""

    def __init__(self, target="erlang"):
        self.target = target
        self.err = open(os.path.join(TMP, f"node_{target}.err"), "w+")
        env = dict(os.environ, CONCORD_ERLANG_STATS="1")
        paths = ["-pa", EBIN] + (["-pa", elixir_lib(), "-pa", ELIXIR_EBIN] if target == "elixir" else [])
        main = ["-s", "concord_node", "main"] + (["concord_elixir"] if target == "elixir" else [])
        self.p = subprocess.Popen(["erl", "-noinput", "+S", "1", "+P", "4000000"] + paths + main,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, env=env)
        ready(self.p, target)

    def run(self, source, turns, max_processes=10_000_000):
        """Wall seconds of compile + load + one run + purge, and the run's stats line."""
        payload = f"1 {turns} {max_processes}\n".encode() + source
        self.err.seek(0, 2)
        mark = self.err.tell()
        t0 = time.perf_counter()
        self.p.stdin.write(struct.pack(">I", len(payload)) + payload)
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        t = time.perf_counter() - t0
        if not line.startswith(b'{"ok":true'):
            raise SystemExit(f"bench: the {self.target} node answered {line[:300]!r}")
        self.err.seek(mark)
        stats = [json.loads(l) for l in self.err.read().splitlines() if l.startswith('{"stats"')]
        return t, stats[-1]

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def ready(p, target):
    """The node's first line says it is up (targets/common/framed_runtime.hpp)."""
    line = p.stdout.readline()
    if line != b"concord ready\n":
        raise SystemExit(f"bench: the {target} node said {line[:300]!r} where it says it is ready")


class JsNode:
    """One persistent js-target node, as `concord backend js` keeps one (its flags)."""

    def __init__(self):
        self.err = open(os.path.join(TMP, "js.err"), "w+")
        env = dict(os.environ, CONCORD_JS_STATS="1")
        self.p = subprocess.Popen(["node", "--expose-gc", "--max-old-space-size=8192",
                                   os.path.join(JS_RUNTIME, "host.js")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, env=env)
        ready(self.p, "js")

    def run(self, source, turns, max_processes=10_000_000):
        """Wall seconds of load + one run + writing its line, and the run's stats line."""
        payload = f"1 {turns} {max_processes}\n".encode() + source
        self.err.seek(0, 2)
        mark = self.err.tell()
        t0 = time.perf_counter()
        self.p.stdin.write(struct.pack(">I", len(payload)) + payload)
        self.p.stdin.flush()
        line = chunk = self.p.stdout.readline(1 << 20)  # read to the newline, keeping only the start
        while chunk and not chunk.endswith(b"\n"):
            chunk = self.p.stdout.readline(1 << 20)
        t = time.perf_counter() - t0
        if not line.startswith(b'{"ok":true'):
            raise SystemExit(f"bench: the js node answered {line[:300]!r}")
        self.err.seek(mark)
        stats = [json.loads(l) for l in self.err.read().splitlines() if l.startswith('{"stats"')]
        return t, stats[-1]["stats"]

    def slope(self, src, t1, t2):
        a = best(lambda: self.run(src, t1)[0])
        b = best(lambda: self.run(src, t2)[0])
        return (b - a) / (t2 - t1)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def js_source(name, text):
    conc = os.path.join(TMP, name + ".conc")
    with open(conc, "w") as f:
        f.write(text)
    return subprocess.run([CONCORD, "emit-js", conc], check=True, capture_output=True).stdout


def erlang_source(name, text, target="erlang"):
    conc = os.path.join(TMP, name + ".conc")
    with open(conc, "w") as f:
        f.write(text)
    return subprocess.run([CONCORD, "emit-" + target, conc], check=True, capture_output=True).stdout


def erl_slope(node, src, t1, t2):
    a = best(lambda: node.run(src, t1)[0])
    b = best(lambda: node.run(src, t2)[0])
    return (b - a) / (t2 - t1)


def latency(target, programs, seeds):
    """Seconds per program through `concord backend TARGET`: emit, compile (cc,
    compile:forms or Code.compile_string), load, the runs, and for the BEAM targets
    the purge."""
    runs = [{"seed": s, "turns": 1000, "max_processes": 10000} for s in range(seeds)]
    p = subprocess.Popen([CONCORD, "backend", target], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def one(prog):
        p.stdin.write(json.dumps({"concord_protocol": 1, "program": prog, "runs": runs}) + "\n")
        p.stdin.flush()
        return [p.stdout.readline() for _ in runs]

    one(programs[0])  # start-up (the node, the compiler) is not per program
    t0 = time.perf_counter()
    for prog in programs:
        one(prog)
    t = time.perf_counter() - t0
    p.stdin.close()
    p.wait()
    return t / len(programs)


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


rows = []  # (stand, n, c figure, erlang figure, js figure, elixir figure, unit, beam figure, reference)


def row(stand, n, c, unit, beam_value=None, reference=None, erl=None, js=None, exr=None):
    rows.append((stand, n, c, erl, js, exr, unit, beam_value, reference))
    sys.stderr.write(f"  {stand} n={n}: c {c} erlang {erl} js {js} elixir {exr} {unit}\n")


def main():
    subprocess.run(["erlc", "-o", TMP, os.path.join(ROOT, "bench", "erlang", "beam_bench.erl")], check=True)
    sizes = [1000, 10_000, 100_000] if QUICK else [1000, 10_000, 100_000, 1_000_000]
    turns = 200_000 if QUICK else 1_000_000
    js = JsNode() if JS else None

    def on_js(f):
        """The js figure of a stand: f(node), or None without the js column."""
        return f(js) if js else None

    def js_heap(text, name, key="heap_no_journal"):
        """Bytes of V8 heap a run of `text` holds at its end, beyond the empty program's."""
        src = js_source(name, text)
        return js.run(src, 10**9)[1][key] - js.run(js_source("js_none", idle_program(0)), 10**9)[1][key]

    if ERLANG_ONLY:
        sizes = []
    # ping: two processes; slope per delivery.
    if not ERLANG_ONLY:
        exe = build("ping", idle_program(0, PAIR))
        b = beam("ping", turns // 5, turns)[0]["value"]
        row("ping", 2, slope(exe, turns // 5, turns) * 1e9, "ns/delivery", b, "400 (C ref)",
            js=on_js(lambda j: j.slope(js_source("js_ping", idle_program(0, PAIR)), turns // 5, turns) * 1e9))

    # ping-last: the pair made after n idle processes.
    for n in sizes:
        exe = build(f"ping_last_{n}", idle_program(n, PAIR))
        spawn_turns = n // 33000 + 2
        b = beam("ping_last", n, turns // 5, turns)[0]["value"]
        row("ping-last", n, slope(exe, spawn_turns + turns // 5, spawn_turns + turns) * 1e9, "ns/delivery", b,
            "490 at 1M (C ref)",
            js=on_js(lambda j: j.slope(js_source(f"js_ping_last_{n}", idle_program(n, PAIR)),
                                       spawn_turns + turns // 5, spawn_turns + turns) * 1e9))

    # quiet: heap bytes per idle process (whole runtime heap, journal included and excluded).
    for n in sizes:
        exe = build(f"quiet_{n}", idle_program(n))
        _, st = run(exe, 10**9, stats=True)
        b = beam("quiet", n)[0]["value"]
        row("quiet", n, (st["heap_live"] - st["journal"]) / n, "bytes/process (no journal)", b, "440 (C ref)",
            js=on_js(lambda j: js_heap(idle_program(n), f"js_quiet_{n}") / n))
        row("quiet+journal", n, st["heap_live"] / n, "bytes/process", None, None,
            js=on_js(lambda j: js_heap(idle_program(n), f"js_quiet_{n}", "heap") / n))

    # swarm: processes spawned at run time that have each handled a message.
    for n in sizes:
        exe = build(f"swarm_{n}", ready_program("Ran", n))
        t, st = run(exe, 10**9, stats=True)
        small = build(f"swarm_small_{n}", ready_program("Ran", n // 10))
        t_small, _ = run(small, 10**9)
        bm = beam("swarm", n)
        js_spawn = js_mem = None
        if js:
            jt, jst = js.run(js_source(f"js_swarm_{n}", ready_program("Ran", n)), 10**9)
            jt_small, _ = js.run(js_source(f"js_swarm_small_{n}", ready_program("Ran", n // 10)), 10**9)
            js_spawn = (jt - jt_small) / (n - n // 10) * 1e9
            js_mem = (jst["heap_no_journal"] - js.run(js_source("js_none", idle_program(0)), 10**9)[1]["heap_no_journal"]) / n
        row("swarm", n, (t - t_small) / (n - n // 10) * 1e9, "ns/spawn", bm[0]["value"], "11600 (C ref), ~2000 BEAM",
            js=js_spawn)
        row("swarm-memory", n, (st["heap_live"] - st["journal"]) / n, "bytes/process (no journal)",
            bm[1]["value"], "1770 (C ref)", js=js_mem)

    # swarm-waiting: n processes always ready; cost per switch.
    for n in sizes:
        exe = build(f"waiting_{n}", ready_program("Spin", n))
        spawn_turns = 6 * n + 100_000  # well past the last spawner's turn (expected ~3n at a million)
        per = slope(exe, spawn_turns + turns // 5, spawn_turns + turns) * 1e9
        b = beam("swarm_waiting", n, turns)[0]["value"]
        row("swarm-waiting", n, per, "ns/switch", b, "170000 at 1M (sorted array); target < 1000",
            js=on_js(lambda j: j.slope(js_source(f"js_waiting_{n}", ready_program("Spin", n)),
                                       spawn_turns + turns // 5, spawn_turns + turns) * 1e9))
    if js:
        js.close()

    erlang_stands(turns // 10)

    def fig(v):
        return "" if v is None else f"{v:,.1f}"

    def ratio(a, b):
        return f"{a / b:.2f}x" if a is not None and b else ""

    print("| stand | n | c target | erlang target | js target | elixir target | unit | BEAM | c / BEAM "
          "| erlang / BEAM | js / BEAM | elixir / erlang | reference |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|")
    for stand, n, c, erl, jsv, exr, unit, bv, ref in rows:
        print(f"| {stand} | {n:,} | {fig(c)} | {fig(erl)} | {fig(jsv)} | {fig(exr)} | {unit} | {fig(bv)} "
              f"| {ratio(c, bv)} | {ratio(erl, bv)} | {ratio(jsv, bv)} | {ratio(exr, erl)} | {ref or ''} |")
    print(f"\ncc: {' '.join(CC)}; BEAM: erl +P 4000000; erlang and elixir targets: one persistent node each "
          f"(+S 1), fed frames; js target: node {node_version()} --max-old-space-size=8192, one persistent host, "
          f"fed frames; load average at the start {LOAD[0]:.2f}, at the end {os.getloadavg()[0]:.2f} "
          f"({os.cpu_count()} cores); rerun: bash bench/run_c.sh{' --quick' if QUICK else ''}"
          f"{' --erlang-only' if ERLANG_ONLY else ''}{' --no-js' if '--no-js' in sys.argv else ''}")


def node_version():
    return subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()


def erlang_stands(turns):
    """The BEAM targets: latency per generated program (beside the c target's, all
    through `concord backend`), cost per delivery under the conductor against raw
    BEAM ping-pong, and 100,000 spawned processes, time and bytes per process: the
    erlang target's figure and the elixir target's (same conductor, the program as
    Elixir modules) side by side."""
    with open(os.path.join(TMP, "programs.jsonl"), "w") as f:
        subprocess.run([GEN, "1", "100"], stdout=f, check=True)
    programs = [json.loads(l) for l in open(os.path.join(TMP, "programs.jsonl"))]
    for seeds in (1, 8):
        c_ms = latency("c", programs, seeds) * 1e3
        erl_ms = latency("erlang", programs, seeds) * 1e3
        js_ms = latency("js", programs, seeds) * 1e3 if JS else None
        exr_ms = latency("elixir", programs, seeds) * 1e3
        row("program latency", seeds, c_ms, "ms/program (n = seeds per program)", None,
            "erlang target: < 20 ms with 1 seed", erl=erl_ms, js=js_ms, exr=exr_ms)

    nodes = {t: Node(t) for t in ("erlang", "elixir")}
    try:
        b = beam("ping", turns // 5, turns)[0]["value"]
        ping = {t: erl_slope(node, erlang_source("e_ping_" + t, idle_program(0, PAIR), t), turns // 5, turns) * 1e9
                for t, node in nodes.items()}
        row("ping (BEAM targets)", 2, None, "ns/delivery", b, "erlang target: within 10x of BEAM",
            erl=ping["erlang"], exr=ping["elixir"])
        empty = {t: node.run(erlang_source("e_none_" + t, idle_program(0), t), 10**9)[1]["processes"]
                 for t, node in nodes.items()}
        for n in [1000, 10_000, 100_000]:
            spawn, total, workers = {}, {}, {}
            for t, node in nodes.items():
                tt, st = node.run(erlang_source(f"e_swarm_{n}_{t}", ready_program("Ran", n), t), 10**9)
                t_small, _ = node.run(erlang_source(f"e_swarm_small_{n}_{t}", ready_program("Ran", n // 10), t), 10**9)
                spawn[t] = (tt - t_small) / (n - n // 10) * 1e9
                total[t] = (st["processes"] - empty[t]) / n
                workers[t] = st["workers"] / st["live"]
            bm = beam("swarm", n)
            row("swarm (BEAM targets)", n, None, "ns/spawn", bm[0]["value"], None,
                erl=spawn["erlang"], exr=spawn["elixir"])
            row("swarm-memory (BEAM targets)", n, None, "bytes/process, all processes", bm[1]["value"],
                "conductor, journal and supervisors included", erl=total["erlang"], exr=total["elixir"])
            row("swarm-memory (BEAM targets)", n, None, "bytes/process, workers only", bm[1]["value"], None,
                erl=workers["erlang"], exr=workers["elixir"])
    finally:
        for node in nodes.values():
            node.close()


LOAD = os.getloadavg()
try:
    main()
finally:
    subprocess.run(["rm", "-rf", TMP])
