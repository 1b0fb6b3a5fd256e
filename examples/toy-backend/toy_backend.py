#!/usr/bin/env python3
"""toy_backend.py: a small actor runtime that speaks concord's backend protocol.

It reads one request per line on stdin and writes one answer line per run on
stdout (concord's runners/PROTOCOL.md), for a subset of the process language of
concord's spec/SPEC.md:

  - worker processes with typed parameters, state and an init body (§3, §6.7),
    handlers matched by tag, arity and argument types (§6.5), NO_HANDLER;
  - expressions with 64-bit wrapping arithmetic, DIV_ZERO, shifts mod 64 (§5);
  - assignment, if, repeat, send (FIFO mailboxes, drops), stop, fail (§6);
  - unsupervised spawn with spawned names and SYSTEM_LIMIT (§2, §6.6);
  - given messages, the seeded scheduler on SplitMix64 (§8);
  - results serialised canonically (§9).

Left out, answered {"ok":false,"code":"UNSUPPORTED",...} for every run:
supervisors and `spawn ... under`, and version 2 (§14-§23). toy.backends.json
declares so ("supports": version 1, no features), and concord then sends none of
those. The program's shape (the JSON form of §13) is checked; the typing rules
of §4 are not (concord checks every program before it sends it). Standard
library only; python3 toy_backend.py.
"""
import json
import sys
from collections import deque

INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1
U64 = (1 << 64) - 1


class Invalid(Exception):
    """The program is not a program (§13): INVALID_PROGRAM."""


class HandlerEnd(Exception):
    """Ends the running handler: the process exits with `reason` (§6.4)."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


# ---- §1, §5: 64-bit two's complement integers ------------------------------
def wrap(x):
    """Reduce an exact integer modulo 2^64 into [-2^63, 2^63-1]."""
    x &= U64
    return x - (1 << 64) if x > INT_MAX else x


def quotient(a, b):
    """The exact quotient truncated toward zero; b = 0 fails with DIV_ZERO."""
    if b == 0:
        raise HandlerEnd("DIV_ZERO")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def div(a, b):
    return wrap(quotient(a, b))  # (-2^63) / (-1) = 2^63 wraps to -2^63


def rem(a, b):
    return wrap(a - b * quotient(a, b))  # sign follows a; (-2^63) % (-1) = 0


UNARY = {"neg": lambda a: wrap(-a), "not": lambda a: int(a == 0), "bnot": lambda a: ~a}
BINARY = {
    "mul": lambda a, b: wrap(a * b), "div": div, "rem": rem,
    "add": lambda a, b: wrap(a + b), "sub": lambda a, b: wrap(a - b),
    "shl": lambda a, b: wrap(a << (b & 63)),  # b mod 64 on the pattern: 1 << -1 = 1 << 63
    "shr": lambda a, b: a >> (b & 63),  # Python's >> is arithmetic
    "lt": lambda a, b: int(a < b), "le": lambda a, b: int(a <= b),
    "gt": lambda a, b: int(a > b), "ge": lambda a, b: int(a >= b),
    "eq": lambda a, b: int(a == b), "ne": lambda a, b: int(a != b),  # ints or addrs (names)
    "band": lambda a, b: a & b, "bxor": lambda a, b: a ^ b, "bor": lambda a, b: a | b,
}


def type_of(value):
    """Ints are Python ints, addrs are the names (str)."""
    return "addr" if isinstance(value, str) else "int"


def evaluate(e, frame):
    """§5: no side effects, left to right; only DIV_ZERO can fail."""
    op = e["op"]
    if op in ("int", "addr"):
        return e["value"]
    if op == "self":
        return frame.proc.name
    if op == "var":
        return frame.lookup(e["name"])
    if op in UNARY:
        return UNARY[op](evaluate(e["arg"], frame))
    a = evaluate(e["lhs"], frame)
    return BINARY[op](a, evaluate(e["rhs"], frame))


# ---- §8.3 ---------------------------------------------------------------------
class SplitMix64:
    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & U64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & U64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & U64
        return z ^ (z >> 31)


# ---- processes and statements (§6) -------------------------------------------
class Process:
    def __init__(self, pid, name, kind, params):
        self.id, self.name, self.kind, self.params = pid, name, kind, params
        self.state, self.mailbox, self.alive = {}, deque(), True


class Frame:
    """The running process and the variables its code sees (§4.2)."""

    def __init__(self, proc, args=None):
        self.proc, self.args = proc, args or {}

    def lookup(self, name):
        for scope in (self.args, self.proc.state, self.proc.params):
            if name in scope:
                return scope[name]
        raise Invalid("unknown variable '%s'" % name)


class World:
    def __init__(self, program, settings):
        self.kinds = {k["name"]: k for k in program["kinds"]}
        self.program, self.settings = program, settings
        self.procs, self.by_name, self.spawned = [], {}, {}
        self.journal, self.failures = [], []
        self.turn, self.live = 0, 0

    def event(self, ev, fields):
        self.journal.append({"ev": ev, "turn": self.turn, **fields})

    def start(self, name, kind_name, args):
        """§6.7: fresh state from the initialisers, a start event, then init."""
        kind = self.kinds[kind_name]
        proc = Process(len(self.procs), name, kind_name,
                       {p["name"]: v for p, v in zip(kind["params"], args)})
        self.procs.append(proc)
        self.by_name[name] = proc
        self.live += 1
        for field in kind["state"]:
            proc.state[field["name"]] = evaluate(field["init"], Frame(proc))
        self.event("start", {"name": name, "kind": kind_name})
        self.run_body(Frame(proc), kind["init"])  # cannot fail (§4.9)

    def exit(self, proc, reason):
        """§6.4: unsupervised, so nothing reacts but the journal."""
        proc.alive = False
        proc.mailbox.clear()
        self.live -= 1
        self.event("exit", {"name": proc.name, "reason": reason})
        if reason != "normal":
            self.failures.append({"process": proc.name, "code": reason, "turn": self.turn})

    def send(self, sender, to, tag, args):
        """§6.5: append to a live receiver's mailbox, or drop."""
        proc = self.by_name.get(to)
        if proc is None or not proc.alive:
            self.event("drop", {"from": sender, "to": to, "tag": tag, "args": args})
        else:
            proc.mailbox.append((sender, tag, args))

    def run_body(self, frame, body):
        for s in body:
            getattr(self, "do_" + s["do"])(frame, s)

    def do_assign(self, frame, s):
        frame.proc.state[s["field"]] = evaluate(s["value"], frame)

    def do_if(self, frame, s):
        self.run_body(frame, s["then"] if evaluate(s["cond"], frame) != 0 else s["else"])

    def do_repeat(self, frame, s):
        for _ in range(s["count"]):
            self.run_body(frame, s["body"])

    def do_send(self, frame, s):
        to = evaluate(s["to"], frame)
        self.send(frame.proc.name, to, s["tag"], [evaluate(a, frame) for a in s["args"]])

    def do_spawn(self, frame, s):
        """§6.6 without `under`: the limit counts live workers; names are k-N."""
        args = [evaluate(a, frame) for a in s["args"]]
        if self.live >= self.settings["max_processes"]:
            raise HandlerEnd("SYSTEM_LIMIT")
        n = self.spawned[s["kind"]] = self.spawned.get(s["kind"], 0) + 1
        name = "%s-%d" % (s["kind"].lower(), n)
        self.start(name, s["kind"], args)
        if "bind" in s:
            frame.proc.state[s["bind"]] = name

    def do_stop(self, frame, s):
        raise HandlerEnd("normal")

    def do_fail(self, frame, s):
        raise HandlerEnd(s["code"])

    def deliver(self, proc, ready):
        """§8.2 steps 5-6: pop, journal, run the matching handler or fail."""
        sender, tag, args = proc.mailbox.popleft()
        self.event("deliver", {"ready": ready, "to": proc.name, "from": sender, "tag": tag, "args": args})
        try:
            handler = self.handler_for(proc, tag, args)
            if handler is None:
                raise HandlerEnd("NO_HANDLER")
            names = [p["name"] for p in handler["params"]]
            self.run_body(Frame(proc, dict(zip(names, args))), handler["body"])
        except HandlerEnd as end:
            self.exit(proc, end.reason)

    def handler_for(self, proc, tag, args):
        for h in self.kinds[proc.kind]["handlers"]:
            if h["tag"] == tag and [p["type"] for p in h["params"]] == [type_of(a) for a in args]:
                return h
        return None

    def run(self):
        """§8.2: turn 0 starts the roots and sends the givens, then one delivery per turn."""
        for root in self.program["system"]:
            p = root["process"]
            self.start(p["name"], p["kind"], [a["value"] for a in p["args"]])
        for g in self.program["given"]:
            self.send(None, g["to"], g["tag"], [a["value"] for a in g["args"]])
        rng, turns = SplitMix64(self.settings["seed"]), 0
        while True:
            if turns == self.settings["turns"]:
                outcome = "turn_limit"
                break
            ready = [p for p in self.procs if p.alive and p.mailbox]
            if not ready:
                outcome = "quiescent"
                break
            turns += 1
            self.turn = turns
            self.deliver(ready[rng.next() % len(ready)], len(ready))
        return self.result(outcome, turns)

    def result(self, outcome, turns):
        """§9.1, keys in the spec's order."""
        return {"ok": True, "run": self.settings, "outcome": outcome, "turns": turns,
                "journal": self.journal, "failures": self.failures, "decisions": [],
                "processes": [{"id": p.id, "name": p.name, "kind": p.kind} for p in self.procs],
                "alive": [{"name": p.name, "state": p.state} for p in self.procs if p.alive],
                "supervisors": []}


# ---- the program's shape (§13) and what the toy leaves out ---------------------
EXPR_KEYS = {"int": {"value"}, "addr": {"value"}, "self": set(), "var": {"name"},
             **{u: {"arg"} for u in UNARY}, **{b: {"lhs", "rhs"} for b in BINARY}}
STMT_KEYS = {"assign": {"field", "value"}, "if": {"cond", "then", "else"}, "repeat": {"count", "body"},
             "send": {"tag", "args", "to"}, "spawn": {"kind", "args"}, "stop": set(), "fail": {"code"}}


def obj(x, where, keys, optional=()):
    """x is an object with every key of `keys` and no other key but `optional`."""
    if not isinstance(x, dict):
        raise Invalid("%s: expected an object" % where)
    for k in keys:
        if k not in x:
            raise Invalid("%s: missing \"%s\"" % (where, k))
    for k in x:
        if k not in keys and k not in optional:
            raise Invalid("%s/%s: unknown key" % (where, k))
    return x


def items(x, where):
    if not isinstance(x, list):
        raise Invalid("%s: expected an array" % where)
    return [(v, "%s/%d" % (where, i)) for i, v in enumerate(x)]


def check_expr(e, where):
    op = obj(e, where, {"op"}, set().union(*EXPR_KEYS.values())).get("op")
    if not isinstance(op, str) or op not in EXPR_KEYS:
        raise Invalid("%s/op: unknown operator %r" % (where, op))
    obj(e, where, {"op"} | EXPR_KEYS[op])
    if op == "int" and not is_int(e["value"], INT_MIN, INT_MAX):
        raise Invalid("%s/value: not a 64-bit integer" % where)
    if op == "addr" and not isinstance(e["value"], str):
        raise Invalid("%s/value: not a name" % where)
    for k in ("arg", "lhs", "rhs"):
        if k in e:
            check_expr(e[k], where + "/" + k)


def check_body(body, where, unsupported):
    for s, w in items(body, where):
        do = obj(s, w, {"do"}, set().union(*STMT_KEYS.values(), {"bind", "under", "restart"})).get("do")
        if not isinstance(do, str) or do not in STMT_KEYS:
            raise Invalid("%s/do: unknown statement %r" % (w, do))
        obj(s, w, {"do"} | STMT_KEYS[do], {"bind", "under", "restart"} if do == "spawn" else ())
        if do == "spawn" and "under" in s:
            unsupported.append("%s: spawn under a supervisor" % w)
        if do == "repeat" and not is_int(s["count"], 0, 1000):
            raise Invalid("%s/count: not an integer in 0..1000 (§4.7)" % w)
        for k in ("value", "cond", "to"):
            if k in s:
                check_expr(s[k], w + "/" + k)
        for a, aw in items(s.get("args", []), w + "/args"):
            check_expr(a, aw)
        for k in ("then", "else", "body"):
            if k in s:
                check_body(s[k], w + "/" + k, unsupported)


def check_program(p):
    """Raises Invalid; returns what the program uses that the toy leaves out."""
    version = obj(p, "/program", {"concord", "kinds", "system", "given"})["concord"]
    if version == 2 and type(version) is int:
        return ["/program/concord: version 2"]  # its JSON form has more: not checked here
    if version != 1 or type(version) is not int:
        raise Invalid("/program/concord: not 1 or 2")
    unsupported = []
    for k, w in items(p["kinds"], "/program/kinds"):
        obj(k, w, {"name", "params", "state", "init", "handlers"})
        for f, fw in items(k["state"], w + "/state"):
            check_expr(obj(f, fw, {"name", "type", "init"})["init"], fw + "/init")
        check_body(k["init"], w + "/init", unsupported)
        for h, hw in items(k["handlers"], w + "/handlers"):
            check_body(obj(h, hw, {"tag", "params", "body"})["body"], hw + "/body", unsupported)
    for r, w in items(p["system"], "/program/system"):
        if isinstance(r, dict) and "supervisor" in r:
            unsupported.append("%s: supervisors" % w)
        else:
            obj(obj(r, w, {"process"})["process"], w + "/process", {"name", "kind", "args"})
    for g, w in items(p["given"], "/program/given"):
        obj(g, w, {"to", "tag", "args"})
    return unsupported


# ---- the protocol (runners/PROTOCOL.md) ----------------------------------------
def error(code, message):
    return {"ok": False, "code": code, "message": message}


def is_int(x, low, high):
    return type(x) is int and low <= x <= high


def envelope_problem(req):
    for k in req:
        if k not in ("concord_protocol", "program", "runs"):
            return "unknown key '%s' in the request" % k
    if type(req.get("concord_protocol")) not in (int, float) or req["concord_protocol"] != 1:
        return "this backend speaks concord_protocol 1"
    return "" if "program" in req else "the request has no \"program\""


def run_problem(r):
    if not isinstance(r, dict) or set(r) != {"seed", "turns", "max_processes"}:
        return "a run is an object {\"seed\":S,\"turns\":L,\"max_processes\":P}"
    if not is_int(r["seed"], 0, U64):
        return "seed must be an integer in 0..2^64-1"
    if not is_int(r["turns"], 0, 10**9):
        return "turns: turn limit outside 0..1000000000"
    if not is_int(r["max_processes"], 1, 10**7):
        return "max_processes: process limit outside 1..10000000"
    return ""


def reject_constant(name):
    raise ValueError("not JSON: " + name)


def answers(line):
    """One answer per run of the request on `line` (one in all if runs are unknown)."""
    try:
        req = json.loads(line.decode("utf-8"), parse_constant=reject_constant)
    except (ValueError, RecursionError) as e:
        return [error("BAD_REQUEST", "the request is not JSON: %s" % e)]
    if not isinstance(req, dict) or not isinstance(req.get("runs"), list):
        return [error("BAD_REQUEST", "a request is an object with a \"runs\" array")]
    runs = req["runs"]
    problem = envelope_problem(req)
    if problem:
        return [error("BAD_REQUEST", problem)] * len(runs)
    try:
        unsupported = check_program(req["program"])
    except (Invalid, RecursionError) as e:
        return [error("INVALID_PROGRAM", "program: %s" % e)] * len(runs)
    return (answer_run(req["program"], r, unsupported) for r in runs)


def answer_run(program, r, unsupported):
    problem = run_problem(r)
    if problem:
        return error("BAD_REQUEST", problem)
    if unsupported:
        return error("UNSUPPORTED", "toy backend: " + "; ".join(unsupported[:3]))
    try:
        return World(program, {"seed": r["seed"], "turns": r["turns"], "max_processes": r["max_processes"]}).run()
    except MemoryError:
        return error("MEMORY", "out of memory")
    except Exception as e:  # a bug of the toy, or a program §4 would reject
        return error("INTERNAL", "toy backend: %s: %s" % (type(e).__name__, e))


def main():
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        for answer in answers(line.rstrip(b"\n")):
            # §9.3: no whitespace, keys in insertion order, \u00XX escapes in lower case.
            text = json.dumps(answer, separators=(",", ":"), ensure_ascii=False)
            out.write(text.encode("utf-8") + b"\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
