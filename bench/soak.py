#!/usr/bin/python3
"""bench/soak.py: the overnight stand. One long campaign (every target, default
profile, 8 seeds per program) while a sampler reads, every minute:
  - the resident memory and open files of concord and of every backend process
    under it (from /proc: the whole process tree, grouped by what each process is:
    concord, `concord backend c`, a compiled c program, an erlang node, ...);
  - the BEAM's own figures, which /proc cannot see: atoms, processes, memory, ETS
    tables, loaded modules (each node appends them to $CONCORD_NODE_STATS);
  - concord's temporary files and folders in $TMPDIR;
  - the campaign's programs so far (its progress line).
At the end it prints a table: each figure's first and last sample and its growth
per hour, fitted over the second half of the run (start-up excluded), beside the
campaign's programs per second. A figure that keeps growing is a leak to fix: an
8-hour campaign at 100 programs/s runs about 3 million programs through each backend.

usage: bench/soak.py BUILD_DIR [DURATION] [JOBS] [SAMPLE_SECONDS] [-- FUZZ_ARGS...]
       (defaults: 1h, all cores, 60; DURATION as concord fuzz --time: 90s, 15m, 1h).
       FUZZ_ARGS go to concord fuzz as they are (`-- --profile calls`); with
       --cases N there, the campaign runs N programs instead of DURATION; with
       --target NAME, one target instead of all.
       BUILD_DIR may be an install prefix (its bin/concord is used).
"""
import collections
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ARGS, FUZZ_ARGS = (sys.argv[1:sys.argv.index("--")], sys.argv[sys.argv.index("--") + 1:]) if "--" in sys.argv \
    else (sys.argv[1:], [])
BUILD = os.path.abspath(ARGS[0])
DURATION = ARGS[1] if len(ARGS) > 1 else "1h"
JOBS = int(ARGS[2]) if len(ARGS) > 2 else os.cpu_count()
EVERY = float(ARGS[3]) if len(ARGS) > 3 else 60.0
CONCORD = os.path.join(BUILD, "concord")
if not os.path.exists(CONCORD):  # an install prefix
    CONCORD = os.path.join(BUILD, "bin", "concord")
SEED = 20261201
PAGE = os.sysconf("SC_PAGE_SIZE")


def children_map():
    kids = collections.defaultdict(list)
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            kids[ppid].append(int(pid))
        except (OSError, ValueError):
            pass
    return kids


def tree(root):
    """(pid, parent pid) of root and every process under it."""
    kids, out, todo = children_map(), [], [(root, None)]
    while todo:
        p, parent = todo.pop()
        out.append((p, parent))
        todo.extend((k, p) for k in kids.get(p, []))
    return out


def argv_of(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return None


def role(pid, root, parent):
    argv = argv_of(pid)
    if not argv:
        return None
    exe = os.path.basename(argv[0])
    if exe == "concord":
        if len(argv) > 2 and argv[1] == "backend":
            # A backend's forks keep its command line: its reapers, and the c target's
            # fork server and the programs it forks. Counted apart from the launcher.
            forked = parent is not None and argv_of(parent) == argv
            return "concord backend " + argv[2] + (" fork" if forked else "")
        # The campaign's forks keep its command line: a reaper, or an in-memory c
        # program's run (libtcc). Their RSS counts pages they share with it.
        return "concord" if pid == root else "concord fork"
    if exe in ("beam.smp", "erl") or "beam" in exe:
        return "beam node"
    if exe == "prog":
        return "c program"
    if exe in ("tcc", "cc", "gcc", "ld", "collect2", "cc1"):
        return "c compiler"
    return exe


def rss_and_fds(pid):
    try:
        with open(f"/proc/{pid}/statm") as f:
            rss = int(f.read().split()[1]) * PAGE
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        return rss, fds
    except OSError:
        return None


def temp_entries(tmpdir):
    try:
        return sum(1 for e in os.listdir(tmpdir) if e.startswith("concord"))
    except OSError:
        return 0


def node_stats(folder):
    """The newest line of each node's file, summed over the live nodes' files."""
    total = collections.Counter()
    newest = 0
    for name in os.listdir(folder):
        try:
            with open(os.path.join(folder, name), "rb") as f:
                f.seek(max(0, os.path.getsize(f.name) - 4096))
                last = f.read().splitlines()[-1]
            j = json.loads(last)
        except (OSError, IndexError, ValueError):
            continue
        if time.time() - j["t"] > 3 * 10 + 5:  # a node that is gone (replaced): not counted
            continue
        newest = max(newest, j["t"])
        for k in ("atoms", "processes", "memory", "ets", "modules"):
            total["beam " + k] += j[k]
    return total


def main():
    work = tempfile.mkdtemp(prefix="concord_soak_")
    stats_dir = os.path.join(work, "node-stats")
    tmpdir = os.path.join(work, "tmp")
    os.makedirs(stats_dir)
    os.makedirs(tmpdir)
    env = dict(os.environ, CONCORD_NODE_STATS=stats_dir, TMPDIR=tmpdir)
    length = [] if "--cases" in FUZZ_ARGS else ["--time", DURATION]
    seed = [] if "--seed" in FUZZ_ARGS else ["--seed", str(SEED)]
    target = [] if "--target" in FUZZ_ARGS else ["--target", "all"]  # concord takes an option's first value
    cmd = [CONCORD, "fuzz"] + seed + length + target + ["--jobs", str(JOBS), "--seeds-per-program", "8",
                                               "--corpus", os.path.join(work, "corpus"),
                                               "--report", os.path.join(work, "report")] + FUZZ_ARGS
    print(f"soak: {' '.join(cmd)}", flush=True)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, bufsize=1)
    progress = {"programs": 0}

    def read_progress():
        for chunk in iter(lambda: proc.stderr.read(256), ""):
            m = re.findall(r"(\d+) programs", chunk)
            if m:
                progress["programs"] = int(m[-1])
    threading.Thread(target=read_progress, daemon=True).start()

    samples = []  # (seconds, {figure: value})
    start = time.time()
    while proc.poll() is None:
        time.sleep(min(EVERY, 5) if not samples else EVERY)
        if proc.poll() is not None:
            break
        figures = collections.Counter()
        for pid, parent in tree(proc.pid):
            r = role(pid, proc.pid, parent)
            got = rss_and_fds(pid)
            if r is None or got is None:
                continue
            figures[f"rss {r}"] += got[0]
            figures[f"fds {r}"] += got[1]
            figures[f"count {r}"] += 1
        figures["temp entries"] = temp_entries(tmpdir)
        figures.update(node_stats(stats_dir))
        figures["programs"] = progress["programs"]
        samples.append((time.time() - start, figures))
        print(f"  {samples[-1][0]:7.0f} s  {progress['programs']} programs  "
              f"concord {figures['rss concord'] / 2**20:.0f} MiB  beam {figures['beam memory'] / 2**20:.0f} MiB  "
              f"rss beam {figures['rss beam node'] / 2**20:.0f} MiB  rss node {figures['rss node'] / 2**20:.0f} MiB  "
              f"atoms {figures['beam atoms']}  temp {figures['temp entries']}", flush=True)
    rc = proc.wait()
    wall = time.time() - start
    with open(os.path.join(work, "report", "summary.json")) as f:
        summary = json.load(f)
    report(samples, summary, wall, rc, cmd)
    if summary.get("divergent_cases") or summary.get("no_verdict") or summary.get("flaky"):
        # What the campaign found or could not judge, with its case numbers (--case I).
        print(f"kept: {work}/report and {work}/corpus")
        shutil.rmtree(stats_dir, ignore_errors=True)
        shutil.rmtree(tmpdir, ignore_errors=True)
    else:
        shutil.rmtree(work, ignore_errors=True)


def slope_per_hour(points):
    """Least-squares slope of (seconds, value) points, per hour."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return 0.0 if sxx == 0 else sum((x - mx) * (y - my) for x, y in points) / sxx * 3600


def fmt(name, v):
    if name.startswith("rss") or name == "beam memory":
        return f"{v / 2**20:.1f} MiB"
    return f"{v:.0f}"


def report(samples, summary, wall, rc, cmd):
    print()
    pps = summary["programs"] / summary["seconds"] if summary["seconds"] else 0
    print(f"soak: {summary['programs']} programs in {wall:.0f} s ({pps:.1f} programs/s), {summary['runs']} runs, "
          f"{summary.get('divergent_cases', 0)} divergent cases ({summary.get('deviations', 0)} by a declared "
          f"deviation), {summary.get('flaky', 0)} flaky, no verdict {summary.get('no_verdict', {})}, "
          f"{len(summary.get('signatures', []))} signatures, "
          f"campaign exit {rc}, {len(samples)} samples")
    for sig in summary.get("signatures", []):
        print(f"  signature {sig.get('signature')}: {sig.get('hits')} hits")
    print()
    # Growth is fitted over the second half; the peaks of the two halves tell a figure
    # that saws (a node replaced every 2,000 requests: bounded, its peaks equal) from
    # one that keeps growing (its second peak higher, by the growth).
    print("| figure | first | last | growth per hour (second half) | growth per 1M programs "
          "| peak, first half | peak, second half |")
    print("|---|---|---|---|---|---|---|")
    names = sorted({k for _, f in samples for k in f if k != "programs"})
    half = samples[len(samples) // 2:]
    first_half = samples[:len(samples) // 2] or samples
    prog_rate = slope_per_hour([(t, f["programs"]) for t, f in half])
    for name in names:
        pts = [(t, f.get(name, 0)) for t, f in half]
        g = slope_per_hour(pts)
        per_m = g / prog_rate * 1e6 if prog_rate > 0 else 0
        peak1 = max(f.get(name, 0) for _, f in first_half)
        peak2 = max(f.get(name, 0) for _, f in half)
        print(f"| {name} | {fmt(name, samples[0][1].get(name, 0))} | {fmt(name, samples[-1][1].get(name, 0))} | "
              f"{fmt(name, g)} | {fmt(name, per_m)} | {fmt(name, peak1)} | {fmt(name, peak2)} |")
    print()
    print("reference: the campaign's own throughput in the same run, above; a flat figure grows ~0 per hour")
    print("(rss moves by allocator noise: compare its growth with its level). counts are processes of that role.")
    print(f"rerun: bash bench/run_soak.sh [DURATION] [JOBS]   (one campaign: {' '.join(cmd[1:])})")


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main()
