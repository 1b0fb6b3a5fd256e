#!/usr/bin/env python3
# corpus/tools/hand_case.py: hand-derived corpus cases whose derivation is checked, not trusted.
#
# A `.conc` case states its expected result by hand in comment lines (SPEC §9, §22):
#   #| 1 deliver(1) a<-- go()        one line per journal event, in order, in the
#                                     form of tests/oracle/journal_lines.hpp
#   #= outcome quiescent 3            the outcome and the number of turns
#   #= state a {"n":1}                the state of an alive worker that has fields
#   #= children sup a:running b:stopped   a supervisor's child list ("dead" if not alive;
#                                     nothing after the name: an empty list)
#   #= about TEXT                     what the case checks (lines are joined)
#   #= run SEED TURNS MAX_PROCESSES   the run's settings (default 1 1000 10000)
#   #= known-divergence SIGNATURE REASON   the case's status is known-divergence (corpus/README.md):
#                                     SIGNATURE (e.g. elixir:error/UNSUPPORTED) must still differ
# `failures`, `decisions`, `processes` and which workers are alive follow from the
# journal by SPEC §9.1, §8.1 and §22; this tool derives them so that they are checked too.
#
# usage:
#   hand_case.py write CONCORD FILE.conc...  run each program on the oracle (CONCORD is the
#       concord binary); when every field equals the hand derivation, write FILE.case.json
#       beside it (expect = the oracle's result, now known equal to the derivation);
#       otherwise print each difference and exit 1 without writing.
#   hand_case.py check DIR...                every .conc with a hand derivation under DIR:
#       its .case.json must exist and its first run's expect equal the derivation (ctest
#       runs this; the corpus tests then hold the oracle and every target to expect).
import json
import os
import subprocess
import sys
import tempfile

ABNORMAL_NOT = ("normal", "shutdown")


def plain(v):
    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))


def args_text(args):
    return "(" + ",".join(plain(a) for a in args) + ")"


def event_line(e):
    ev, t = e["ev"], str(e["turn"]) + " "
    frm = lambda k: "-" if e[k] is None else plain(e[k])
    if ev == "start":
        return t + "start " + e["name"] + " " + e["kind"]
    if ev == "exit":
        return t + "exit " + e["name"] + " " + e["reason"]
    if ev in ("deliver", "call"):
        return f"{t}{ev}({e['ready']}) {e['to']}<-{frm('from')} {e['tag']}{args_text(e['args'])}"
    if ev == "drop":
        return f"{t}drop {e['to']}<-{frm('from')} {e['tag']}{args_text(e['args'])}"
    if ev == "resume":
        return f"{t}resume({e['ready']}) {e['to']}<-{e['from']} {plain(e['value'])}"
    if ev == "signal":
        return f"{t}signal {e['kind']} {e['from']}->{e['to']} {e['reason']} {e['effect']}"
    if ev == "decision":
        return f"{t}decision {e['supervisor']} {e['process']} {e['action']}"
    if ev == "api":
        return f"{t}api {e['from']} {e['supervisor']} {e['op']} {e['child']} {e['result']}"
    return t + "? " + json.dumps(e)


class Derivation:
    def __init__(self, path):
        self.path = path
        self.journal, self.states, self.children, self.about = [], {}, {}, []
        self.outcome = self.turns = None
        self.run = (1, 1000, 10000)
        self.known = None  # (signature, reason) of a known divergence
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if line.startswith("#|"):
                    self.journal.append(line[2:].strip())
                elif line.startswith("#="):
                    self.directive(line[2:].strip(), n)
        if self.journal and self.outcome is None:
            raise SystemExit(f"{path}: a derivation without '#= outcome OUTCOME TURNS'")

    def directive(self, text, n):
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        try:
            if word == "outcome":
                o, t = rest.split()
                self.outcome, self.turns = o, int(t)
            elif word == "state":
                name, _, js = rest.partition(" ")
                self.states[name] = json.loads(js)
            elif word == "children":
                name, _, items = rest.partition(" ")
                self.children[name] = items.split()
            elif word == "about":
                self.about.append(rest)
            elif word == "known-divergence":
                sig, _, why = rest.partition(" ")
                if not why:
                    raise ValueError("known-divergence needs a signature and a reason")
                self.known = (sig, why.strip())
            elif word == "run":
                s, t, p = rest.split()
                self.run = (int(s, 0), int(t), int(p))
            else:
                raise ValueError("unknown directive " + word)
        except ValueError as e:
            raise SystemExit(f"{self.path}:{n}: {e}")

    def expected(self):
        """What the journal implies by SPEC §8.1, §9.1, §22, and what was stated."""
        failures, decisions, ids, kinds, last = [], [], {}, {}, {}
        for ln in self.journal:
            w = ln.split()
            turn, ev = int(w[0]), w[1]
            if ev == "exit":
                last[w[2]] = "exit"
                if w[3] not in ABNORMAL_NOT:
                    failures.append({"process": w[2], "code": w[3], "turn": turn})
            elif ev == "start" and w[3] != "supervisor":
                last[w[2]] = "start"
                if w[2] not in ids:
                    ids[w[2]] = len(ids)
                    kinds[w[2]] = w[3]
            elif ev == "decision":
                decisions.append({"process": w[3], "supervisor": w[2], "action": w[4], "turn": turn})
        processes = [{"id": i, "name": n, "kind": kinds[n]} for n, i in ids.items()]
        alive = [n for n in ids if last.get(n) == "start"]
        return failures, decisions, processes, alive

    def compare(self, result):
        """Every difference between the derivation and a result, as lines of text."""
        diffs = []
        if not result.get("ok"):
            return ["the result is not ok: " + json.dumps(result)]
        got = [event_line(e) for e in result["journal"]]
        if got != self.journal:
            for i in range(max(len(got), len(self.journal))):
                a = self.journal[i] if i < len(self.journal) else "(none)"
                b = got[i] if i < len(got) else "(none)"
                if a != b:
                    diffs.append(f"journal event {i}: derived '{a}', result '{b}'")
                    break
        if (result["outcome"], result["turns"]) != (self.outcome, self.turns):
            diffs.append(f"outcome: derived {self.outcome} {self.turns}, result {result['outcome']} {result['turns']}")
        seed, turns, procs = self.run
        if result["run"] != {"seed": seed, "turns": turns, "max_processes": procs}:
            diffs.append("run settings differ: " + json.dumps(result["run"]))
        failures, decisions, processes, alive = self.expected()
        for key, want in (("failures", failures), ("decisions", decisions), ("processes", processes)):
            if result[key] != want:
                diffs.append(f"{key}: derived {json.dumps(want)}, result {json.dumps(result[key])}")
        names = [a["name"] for a in result["alive"]]
        if names != alive:
            diffs.append(f"alive: derived {alive}, result {names}")
        for a in result["alive"]:
            want = self.states.get(a["name"], {})
            if a["state"] != want:
                diffs.append(f"state of {a['name']}: derived {json.dumps(want)}, result {json.dumps(a['state'])}")
        for n in self.states:
            if n not in names:
                diffs.append(f"state of {n} stated, but it is not alive")
        sups = {s["name"]: s for s in result["supervisors"]}
        if set(sups) != set(self.children):
            diffs.append(f"supervisors: derived {sorted(self.children)}, result {sorted(sups)}")
        for n, items in self.children.items():
            s = sups.get(n)
            if s is None:
                continue
            got_items = ["dead"] if not s["alive"] else [
                c["name"] + (":running" if c["running"] else ":stopped") for c in s["children"]]
            if got_items != items:
                diffs.append(f"children of {n}: derived {' '.join(items)}, result {' '.join(got_items)}")
        return diffs


def case_text(name, about, source, known, seed, turns, procs, result):
    """The case file: pretty JSON with one journal event per line."""
    lines = ['{', '  "concord_case": 1,', f'  "name": {json.dumps(name)},', f'  "about": {json.dumps(about)},',
             f'  "source": {json.dumps(source)},']
    if known:
        lines += [f'  "signature": {json.dumps(known[0])},', '  "status": "known-divergence",',
                  f'  "reason": {json.dumps(known[1])},']
    lines += ['  "runs": [', '    {',
             f'      "seed": {seed}, "turns": {turns}, "max_processes": {procs},', '      "expect": {']
    keys = list(result)
    for i, k in enumerate(keys):
        comma = "," if i + 1 < len(keys) else ""
        v = result[k]
        if k == "journal" and v:
            lines.append('        "journal": [')
            for j, e in enumerate(v):
                lines.append("          " + json.dumps(e) + ("," if j + 1 < len(v) else ""))
            lines.append("        ]" + comma)
        else:
            lines.append(f"        {json.dumps(k)}: {json.dumps(v)}{comma}")
    lines += ["      }", "    }", "  ]", "}"]
    return "\n".join(lines) + "\n"


def write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".hand_case.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write(concord, files):
    bad = 0
    for conc in files:
        d = Derivation(conc)
        if not d.journal:
            print(f"{conc}: no derivation ('#|' lines)")
            bad += 1
            continue
        seed, turns, procs = d.run
        out = subprocess.run([concord, "run", conc, "--seed", str(seed), "--turns", str(turns),
                              "--max-processes", str(procs)], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{conc}: concord run failed ({out.returncode}): {out.stdout}{out.stderr}")
            bad += 1
            continue
        result = json.loads(out.stdout)
        diffs = d.compare(result)
        if diffs:
            print(f"{conc}: the oracle differs from the hand derivation:")
            for x in diffs:
                print("  " + x)
            bad += 1
            continue
        name = os.path.basename(conc)[:-5]
        write_atomically(conc[:-5] + ".case.json",
                         case_text(name, " ".join(d.about), os.path.basename(conc), d.known, seed, turns, procs,
                                   result))
        print(f"{conc}: ok")
    return 1 if bad else 0


def check(dirs):
    bad = count = 0
    for top in dirs:
        for root, _, names in os.walk(top):
            for n in sorted(names):
                if not n.endswith(".conc"):
                    continue
                conc = os.path.join(root, n)
                d = Derivation(conc)
                if not d.journal:
                    continue
                count += 1
                case = conc[:-5] + ".case.json"
                try:
                    with open(case) as f:
                        c = json.load(f)
                    run = c["runs"][0]
                    result = run["expect"]
                    diffs = d.compare(result)
                    if c.get("source") != n:
                        diffs.append(f"the case's source is {c.get('source')}, not {n}")
                    known = (c.get("signature"), c.get("reason")) if c.get("status") == "known-divergence" else None
                    if known != d.known:
                        diffs.append(f"known divergence: derived {d.known}, case {known}")
                except (OSError, ValueError, KeyError, IndexError) as e:
                    diffs = [f"cannot read {case}: {e}"]
                if diffs:
                    bad += 1
                    print(f"{conc}: the case's expected result differs from the hand derivation:")
                    for x in diffs:
                        print("  " + x)
    print(f"{count} hand derivations checked, {bad} differ")
    return 1 if bad or count == 0 else 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "write":
        sys.exit(write(sys.argv[2], sys.argv[3:]))
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2:]))
    print(__doc__ or "usage: hand_case.py write CONCORD FILE.conc... | check DIR...", file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
