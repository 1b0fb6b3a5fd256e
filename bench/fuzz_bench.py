#!/usr/bin/python3
"""bench/fuzz_bench.py: the campaign throughput stand (issues 5 and 19). Campaigns
of `concord fuzz` (profile default, 8 seeds per program) on one seed and case count,
all in the same run:

  ceiling   the oracle in-process against the oracle as a backend (`concord backend
            oracle`): generation, the oracle and the protocol, no target at all
  c, erlang, js
            each target alone against the oracle
  default   the default campaign: oracle, c, erlang and js
  c (cc)    the c target with CONCORD_CC="cc -O1": a compiler process and a binary
            per program, the path a user's $CONCORD_CC takes (results must agree)

A table of programs/s, its ratio to the ceiling, the CPU time per program (concord
and every process under it, from getrusage), where the default campaign's time goes
per target, and the divergences (every campaign runs the same cases: 0 everywhere
means every target gave the oracle's lines byte for byte). The load average before
and after is printed: the machine may be shared, and programs/s is wall-clock.

Then where a target's time goes: the first 100 programs of the profile (`concord gen
--seed 0..99`), emitted, are loaded the way each target loads a program, one after
another in one process, timed alone (erlang: concord_node:load_apart/2 and
concord_otp:unload/1, that is parsing, compile:forms with the target's options and
code loading, in a process of its own as the node does; js: the host's
loader.js load(), a fresh vm context, the prelude, V8's compile and the tables; c: tcc
on the emitted file, a process per program as with CONCORD_CC=tcc, libtcc's
in-memory compile being a little cheaper) beside each target's own time per program
in its campaign above: the rest is running the 8 seeds and the protocol. Last, the
same 100 programs through each target's backend alone, one request (load and 8 runs)
at a time: each program's time, its median, p90 and maximum, and the share of the 5
costliest (programs that grow to the process limit weigh most of a target's time).

usage: bench/fuzz_bench.py BUILD_DIR [CASES] [JOBS] [--baseline CONCORD]
       (defaults: 400 cases, all cores; --baseline: another concord binary, e.g. an
       install of main, whose default campaign runs first as the "before" row)
"""
import atexit
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

args = [a for a in sys.argv[1:]]
baseline = None
if "--baseline" in args:
    i = args.index("--baseline")
    baseline = os.path.abspath(args[i + 1])
    del args[i:i + 2]
BUILD = os.path.abspath(args[0])
CASES = int(args[1]) if len(args) > 1 else 400
JOBS = int(args[2]) if len(args) > 2 else os.cpu_count()
CONCORD = os.path.join(BUILD, "concord")
SEED = 20261130
# Every campaign's and compile stand's files, removed when the bench ends (an
# interrupted one too: KeyboardInterrupt runs atexit).
TMP = tempfile.mkdtemp(prefix="concord_fuzz_bench_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)


def campaign(concord, targets, env_extra=None):
    """One campaign; returns its summary and the CPU seconds it used."""
    tmp = tempfile.mkdtemp(prefix="campaign_", dir=TMP)
    report = os.path.join(tmp, "report")
    cmd = [concord, "fuzz", "--seed", str(SEED), "--cases", str(CASES), "--jobs", str(JOBS),
           "--seeds-per-program", "8", "--corpus", os.path.join(tmp, "corpus"), "--report", report, "--quiet"]
    if targets == "ceiling":
        cmd += ["--target", "ref", "--backend", "ref=" + concord + " backend oracle"]
    elif targets != "default":
        cmd += ["--target", targets]
    env = dict(os.environ)
    env.pop("CONCORD_CC", None)
    env.update(env_extra or {})
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(os.path.join(report, "summary.json")) as f:
        s = json.load(f)
    shown = " ".join(shlex.quote(w) for w in cmd[1:] if not w.startswith(tmp) and w not in ("--corpus", "--report"))
    return s, cpu, shown


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ERLANG_LOAD = r"""
[Dir] = init:get_plain_arguments(),
{ok, Files} = file:list_dir(Dir),
Srcs = [begin {ok, B} = file:read_file(filename:join(Dir, F)), B end || F <- lists:sort(Files)],
Load = fun(S) -> {ok, _, Ms} = concord_node:load_apart(concord_otp, S), concord_otp:unload(Ms) end,
Load(hd(Srcs)),  % the compiler's modules, loaded once
{Us, _} = timer:tc(fun() -> [Load(S) || S <- Srcs] end),
io:format("~p~n", [Us]), halt().
"""

JS_LOAD = r"""
const fs = require('fs'), path = require('path');
const { load } = require(process.argv[1]);
const dir = process.argv[2];
const srcs = fs.readdirSync(dir).sort().map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
load(srcs[0]);  // once, untimed, as the persistent host has
const t0 = process.hrtime.bigint();
for (const s of srcs) load(s);
console.log(Number(process.hrtime.bigint() - t0) / 1000);
"""


def compile_alone(concord, n=100):
    """ms per program to load n programs of the profile the way each target does."""
    tmp = tempfile.mkdtemp(prefix="compile_", dir=TMP)
    dirs = {t: os.path.join(tmp, t) for t in ("erlang", "js", "c")}
    for d in dirs.values():
        os.makedirs(d)
    for i in range(n):
        src = os.path.join(tmp, f"p{i:04d}.conc")
        with open(src, "w") as f:
            f.write(subprocess.run([concord, "gen", "--seed", str(i)], capture_output=True, text=True, check=True).stdout)
        for t, ext in (("erlang", "erl"), ("js", "js"), ("c", "c")):
            out = subprocess.run([concord, "emit-" + t, src], capture_output=True, text=True, check=True).stdout
            with open(os.path.join(dirs[t], f"p{i:04d}.{ext}"), "w") as f:
                f.write(out)
    ms = {}
    ebin = os.path.join(BUILD, "targets", "erlang", "ebin")
    out = subprocess.run(["erl", "-noshell", "-pa", ebin, "-eval", ERLANG_LOAD, "-extra", dirs["erlang"]],
                         capture_output=True, text=True, check=True).stdout
    ms["erlang"] = float(out.split()[-1]) / 1000 / n
    loader = os.path.join(ROOT, "targets", "js", "runtime", "loader.js")
    out = subprocess.run(["node", "-e", JS_LOAD, loader, dirs["js"]], capture_output=True, text=True, check=True).stdout
    ms["js"] = float(out.split()[-1]) / 1000 / n
    inc = os.path.join(ROOT, "targets", "c", "runtime")
    t0 = time.monotonic()
    for f in sorted(os.listdir(dirs["c"])):
        subprocess.run(["tcc", "-c", "-I", inc, os.path.join(dirs["c"], f), "-o", os.path.join(tmp, "p.o")], check=True)
    ms["c"] = (time.monotonic() - t0) * 1000 / n
    subprocess.run(["rm", "-rf", tmp], check=False)
    return ms


def per_program(concord, n=100):
    """Each target's own time per program (load and 8 runs), the first n programs of the
    profile one after another through one `concord backend T`: the distribution, not
    only the mean. Returns {target: [ms per program]} and each program's processes."""
    requests = []
    procs = []
    for i in range(n):
        prog = json.loads(subprocess.run([concord, "gen", "--seed", str(i), "--json"], capture_output=True,
                                         text=True, check=True).stdout)
        runs = [{"seed": k, "turns": 1000, "max_processes": 10000} for k in range(8)]
        requests.append(json.dumps({"concord_protocol": 1, "program": prog, "runs": runs}) + "\n")
    times = {}
    for t in ("oracle", "c", "erlang", "js"):
        p = subprocess.Popen([concord, "backend", t], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ms = []
        for k, req in enumerate([requests[0]] + requests):  # the first once more, untimed: start-up
            t0 = time.monotonic()
            p.stdin.write(req)
            p.stdin.flush()
            answers = [p.stdout.readline() for _ in range(8)]
            if k > 0:
                ms.append((time.monotonic() - t0) * 1000)
            if t == "oracle" and k > 0:
                procs.append(max(len(json.loads(a).get("processes", [])) for a in answers))
        p.stdin.close()
        p.wait()
        times[t] = ms
    return times, procs


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


rows = []
load_before = loadavg()
plan = []
if baseline:
    plan.append(("before: default", baseline, "default", None))
plan += [("ceiling (oracle as backend)", CONCORD, "ceiling", None),
         ("c", CONCORD, "c", None),
         ("erlang", CONCORD, "erlang", None),
         ("js", CONCORD, "js", None),
         ("default: c, erlang, js", CONCORD, "default", None),
         ("c (CONCORD_CC=cc -O1)", CONCORD, "c", {"CONCORD_CC": "cc -O1"})]
commands = {}
for name, concord, targets, env in plan:
    s, cpu, shown = campaign(concord, targets, env)
    rows.append((name, s, cpu))
    commands[name] = (env, concord, shown)
load_after = loadavg()

ceiling = next(s for name, s, _ in rows if name.startswith("ceiling"))
ceiling_pps = ceiling["programs"] / ceiling["seconds"]
print(f"campaign throughput: seed {SEED}, {CASES} cases x 8 seeds, {JOBS} jobs, profile default; "
      f"{os.cpu_count()} cores; load average {load_before} before, {load_after} after")
print()
print("| campaign | programs | wall s | programs/s | vs ceiling | cpu ms/program | divergences |")
print("|---|---|---|---|---|---|---|")
for name, s, cpu in rows:
    pps = s["programs"] / s["seconds"]
    print(f"| {name} | {s['programs']} | {s['seconds']:.1f} | {pps:.1f} | {pps / ceiling_pps:.2f} | "
          f"{cpu / max(1, s['programs']) * 1000:.1f} | {s['divergent_cases']} |")
print()
for name, s, _ in rows:
    if name.startswith("default") or name.startswith("before"):
        t = s["target_seconds"]
        total = sum(t.values()) or 1
        parts = ", ".join(f"{k} {v:.1f} s ({v / total:.0%})" for k, v in sorted(t.items(), key=lambda kv: -kv[1]))
        print(f"{name}: time per target, summed over the workers: {parts}")
print()
alone = compile_alone(CONCORD)
print("where a target's time goes (ms per program): loading a program alone, the first 100 programs of the profile,")
print("beside the target's time per program in its own campaign above (summed over workers, 8 seeds each):")
print()
print("| target | load alone | in its campaign | load's share | the rest (8 runs, protocol) |")
print("|---|---|---|---|---|")
for name, s, _ in rows:
    if name in alone:
        per = s["target_seconds"].get(name, 0) * 1000 / max(1, s["programs"])
        print(f"| {name} | {alone[name]:.1f} | {per:.1f} | {alone[name] / per:.0%} | {per - alone[name]:.1f} |"
              if per else f"| {name} | {alone[name]:.1f} | - | - | - |")
print()
times, procs = per_program(CONCORD)
heavy = sorted(range(len(procs)), key=lambda k: -times["erlang"][k])[:5]
print("each program's own time (ms, load and 8 runs) on each target alone, the same first 100 programs one")
print("after another through one backend process: the mean hides a tail of programs that grow to the")
print(f"process limit (the 5 costliest on erlang: programs {', '.join(str(k) for k in heavy)}, "
      f"{', '.join(str(procs[k]) for k in heavy)} processes at most):")
print()
print("| target | total | median | p90 | max | the 5 costliest's share |")
print("|---|---|---|---|---|---|")
for t, ms in times.items():
    q = sorted(ms)
    top = sum(q[-5:]) / max(1e-9, sum(q))
    print(f"| {t} | {sum(q):.0f} | {q[len(q) // 2]:.1f} | {q[len(q) * 9 // 10]:.1f} | {q[-1]:.0f} | {top:.0%} |")
print()
print("programs/s is wall-clock: on a shared machine compare rows of one run, and the cpu column.")
print("goal (issue 19): the default campaign at 100 programs/s or more on 2 cores.")
env, concord, shown = commands["default: c, erlang, js"]
print(f"rerun: bash bench/run_fuzz.sh [CASES] [JOBS]    one campaign: {concord} {shown}")
