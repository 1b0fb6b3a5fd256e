#!/usr/bin/python3
# tests/spec/schema_test.py: the JSON Schemas of spec/ agree with what concord
# reads and writes: every corpus program in JSON form (concord check --json)
# validates against program.schema.json; every oracle result and every expected
# result in the corpus validates against result.schema.json; a few documents the
# schemas must reject are rejected; and version 2 (SPEC §14-§23): a program with
# every construct and a result with every event validate, and documents that each
# break one rule are rejected.
# usage: schema_test.py SOURCE_DIR CONCORD_BINARY
import glob
import json
import os
import subprocess
import sys

import jsonschema

src, concord = sys.argv[1], sys.argv[2]
with open(os.path.join(src, "spec/program.schema.json")) as f:
    program_schema = json.load(f)
with open(os.path.join(src, "spec/result.schema.json")) as f:
    result_schema = json.load(f)
V = jsonschema.Draft202012Validator
V.check_schema(program_schema)
V.check_schema(result_schema)
programs, results = V(program_schema), V(result_schema)

failures = 0
checked = 0


def expect_valid(validator, doc, what):
    global failures, checked
    checked += 1
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        failures += 1
        e = errors[0]
        print(f"FAIL {what}: /{'/'.join(map(str, e.path))}: {e.message[:200]}")


def expect_invalid(validator, doc, what):
    global failures, checked
    checked += 1
    if validator.is_valid(doc):
        failures += 1
        print(f"FAIL {what}: accepted, should be rejected")


def concord_json(*args):
    out = subprocess.run([concord, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


cases = sorted(glob.glob(os.path.join(src, "corpus/**/*.case.json"), recursive=True))
if len(cases) < 30:
    print(f"FAIL only {len(cases)} corpus cases found")
    sys.exit(1)
for case_path in cases:
    with open(case_path) as f:
        case = json.load(f)
    if "source" in case:
        program_file = os.path.join(os.path.dirname(case_path), case["source"])
    else:
        program_file = case_path  # embedded programs: validated below
    if "source" in case:
        prog = concord_json("check", program_file, "--json")
        expect_valid(programs, prog, f"{program_file} as JSON")
        for seed in ("0", "7"):
            expect_valid(results, concord_json("run", program_file, "--seed", seed, "--turns", "30"),
                         f"{program_file} result, seed {seed}")
    else:
        expect_valid(programs, case["program"], f"{case_path} program")
    for i, run in enumerate(case["runs"]):
        expect_valid(results, run["expect"], f"{case_path} expected result {i}")

# Things the schemas must reject.
minimal = {"concord": 1, "kinds": [], "system": [], "given": []}
expect_valid(programs, minimal, "minimal program")
expect_invalid(programs, {**minimal, "extra": 1}, "unknown top-level key")
expect_invalid(programs, {**minimal, "concord": 3}, "format version 3")
expect_invalid(programs, {"kinds": [], "system": [], "given": []}, "no format version")
expect_invalid(programs, {**minimal, "kinds": [{"name": "lower", "params": [], "state": [], "init": [], "handlers": []}]},
               "lower-case kind name")
expect_invalid(results, {"ok": False, "code": "NOT_A_CODE", "message": "x"}, "unknown error code")
expect_valid(results, {"ok": False, "code": "BAD_REQUEST", "message": "x"}, "error object")


# SPEC §13 and the schema agree on what an integer is, whatever its notation; concord
# check says the same of each document.
def concord_accepts(doc_text):
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"schema_test_{os.getpid()}.json")
    with open(path, "w") as f:
        f.write(doc_text)
    try:
        return subprocess.run([concord, "check", path], capture_output=True).returncode == 0
    finally:
        os.remove(path)


def expect_agreement(doc_text, what):
    global failures, checked
    checked += 1
    by_schema = programs.is_valid(json.loads(doc_text))
    by_concord = concord_accepts(doc_text)
    if by_schema != by_concord:
        failures += 1
        print(f"FAIL {what}: the schema says {'valid' if by_schema else 'invalid'}, concord check "
              f"{'accepts' if by_concord else 'rejects'}")


def with_repeat(count):
    return ('{"concord":1,"kinds":[{"name":"W","params":[],"state":[],"init":[],"handlers":[{"tag":"t","params":[],'
            '"body":[{"do":"repeat","count":' + count + ',"body":[]}]}]}],"system":[],"given":[]}')


for count in ("1000", "1000.0", "1e3", "1.0e3", "10E2", "0.0", "-0", "1.5", "1001", "1e4", "-1", "0.5e1", "2.5e-1"):
    expect_agreement(with_repeat(count), f"repeat count {count}")

# Duplicate keys: beyond a schema (a parsed document keeps one), rejected by concord.
checked += 1
dup = with_repeat("3").replace('"given":[]', '"given":[],"given":[]')
if not programs.is_valid(json.loads(dup)) or concord_accepts(dup):
    failures += 1
    print("FAIL duplicate key: the schema should see one key (it cannot tell), concord should reject it")

# Spawned names of a keyword-like kind and of a 32-character kind (SPEC §2, §12.1):
# valid addr literals for the program schema, valid process names in results.
long_kind = "K" + "x" * 31
spawner = f"""
kind Self() {{ }}
kind {long_kind}() {{ }}
kind W() {{ on t() {{ spawn Self(); spawn {long_kind}(); send t() to @self-1; send t() to @{long_kind.lower()}-1; }} }}
process w = W();
given t() to @w;
given t() to @self-9;
"""
spawner_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"schema_spawner_{os.getpid()}.conc")
with open(spawner_path, "w") as f:
    f.write(spawner)
try:
    expect_valid(programs, concord_json("check", spawner_path, "--json"), "keyword-like and long kinds, as JSON")
    result = concord_json("run", spawner_path)
    expect_valid(results, result, "a result with spawned names self-1 and a 34-character one")
    names = [p["name"] for p in result["processes"]]
    checked += 1
    if "self-1" not in names or f"{long_kind.lower()}-1" not in names:
        failures += 1
        print(f"FAIL the spawned names are missing from {names}")
finally:
    os.remove(spawner_path)


# Version 2 (SPEC §14-§23): a program that uses every construct, and documents
# each of which breaks one rule the schema can see.
def e_int(v): return {"op": "int", "value": v}
def e_addr(v): return {"op": "addr", "value": v}
def e_var(n): return {"op": "var", "name": n}
def e_reason(v): return {"op": "reason", "value": v}


worker = {
    "name": "Worker",
    "params": [{"name": "peer", "type": "addr"}],
    "state": [{"name": "why", "type": "reason", "init": e_reason("normal")},
              {"name": "n", "type": "int", "init": e_int(0)}],
    "init": [{"do": "trap_exit", "value": e_int(1)}, {"do": "link", "to": e_var("peer")},
             {"do": "monitor", "to": e_var("peer")}],
    "handlers": [
        {"tag": "exit", "params": [{"name": "from", "type": "addr"}, {"name": "w", "type": "reason"}],
         "body": [{"do": "assign", "field": "why", "value": e_var("w")}]},
        {"tag": "down", "params": [{"name": "who", "type": "addr"}, {"name": "w", "type": "reason"}],
         "body": [{"do": "if", "cond": {"op": "eq", "lhs": e_var("w"), "rhs": e_reason("noproc")},
                   "then": [{"do": "stop", "reason": e_reason("shutdown")}], "else": [{"do": "stop"}]}]},
        {"tag": "ping", "params": [{"name": "x", "type": "int"}], "body": [{"do": "reply", "value": e_var("x")}]},
        {"tag": "go", "params": [], "body": [
            {"do": "call", "tag": "ping", "args": [e_int(1)], "to": e_var("peer"), "bind": "n"},
            {"do": "call", "tag": "ping", "args": [e_int(2)], "to": e_var("peer")},
            {"do": "exit", "to": e_var("peer"), "reason": e_reason("BOOM")},
            {"do": "exit", "to": e_var("peer"), "kill": True},
            {"do": "unlink", "to": e_var("peer")}, {"do": "demonitor", "to": e_var("peer")},
            {"do": "restart_child", "supervisor": "root", "child": e_addr("w"), "bind": "n"},
            {"do": "terminate_child", "supervisor": "root", "child_supervisor": "inner"},
            {"do": "delete_child", "supervisor": "root", "child_supervisor": "inner"},
            {"do": "spawn", "kind": "Quitter", "args": [], "under": "root", "restart": "temporary",
             "significant": True},
            {"do": "fail", "code": "BOOM"}]}]}
quitter = {"name": "Quitter", "params": [], "state": [], "init": [{"do": "ignore"}], "handlers": []}
tour = {"concord": 2, "kinds": [worker, quitter],
        "system": [{"supervisor": {"name": "root", "strategy": "one_for_one", "intensity": 5,
                                   "auto_shutdown": "any_significant", "children": [
                                       {"restart": "permanent", "process": {"name": "w", "kind": "Worker",
                                                                            "args": [e_addr("x")]}},
                                       {"restart": "transient", "significant": True,
                                        "process": {"name": "t", "kind": "Worker", "args": [e_addr("w")]}},
                                       {"restart": "permanent", "supervisor": {
                                           "name": "inner", "strategy": "one_for_all", "intensity": 1000,
                                           "children": []}}]}},
                   {"process": {"name": "x", "kind": "Worker", "args": [e_addr("w")]}}],
        "given": [{"to": "w", "tag": "go", "args": []}, {"to": "x", "tag": "ping", "args": [e_int(3)]}]}
expect_valid(programs, tour, "version 2 tour")
expect_invalid(programs, {**tour, "concord": 1}, "version 2 constructs in a version 1 document")


def with_handler_body(body):
    k = {**worker, "handlers": [{"tag": "go", "params": [], "body": body}]}
    return {**tour, "kinds": [k, quitter]}


def with_root(sup):
    return {**tour, "system": [{"supervisor": sup}]}


root = tour["system"][0]["supervisor"]
for what, doc in [
        ("intensity above 1000", with_root({**root, "intensity": 1001})),
        ("unknown auto_shutdown", with_root({**root, "auto_shutdown": "sometimes"})),
        ("significant permanent child", with_root({**root, "children": [
            {"restart": "permanent", "significant": True,
             "process": {"name": "w", "kind": "Worker", "args": [e_addr("x")]}}]})),
        ("a version 2 keyword as a name", {**tour, "system": [{"process": {"name": "link", "kind": "Quitter",
                                                                            "args": []}}]}),
        ("a version 2 runtime code in fail", with_handler_body([{"do": "fail", "code": "NORMAL"}])),
        ("an unknown lower-case reason", with_handler_body([{"do": "stop", "reason": e_reason("boom")}])),
        ("exit with both reason and kill", with_handler_body(
            [{"do": "exit", "to": e_var("peer"), "reason": e_reason("BOOM"), "kill": True}])),
        ("exit with neither reason nor kill", with_handler_body([{"do": "exit", "to": e_var("peer")}])),
        ("api with child and child_supervisor", with_handler_body(
            [{"do": "terminate_child", "supervisor": "root", "child": e_addr("w"), "child_supervisor": "inner"}])),
        ("significant spawn without under", with_handler_body(
            [{"do": "spawn", "kind": "Quitter", "args": [], "significant": True}])),
        ("significant permanent spawn", with_handler_body(
            [{"do": "spawn", "kind": "Quitter", "args": [], "under": "root", "restart": "permanent",
              "significant": True}])),
        ("exit handler with an int parameter", {**tour, "kinds": [
            {**worker, "handlers": [{"tag": "exit", "params": [{"name": "f", "type": "addr"},
                                                               {"name": "w", "type": "int"}], "body": []}]},
            quitter]}),
        ("down handler with one parameter", {**tour, "kinds": [
            {**worker, "handlers": [{"tag": "down", "params": [{"name": "f", "type": "addr"}], "body": []}]},
            quitter]}),
        ("send of tag exit", with_handler_body([{"do": "send", "tag": "exit", "args": [], "to": e_var("peer")}])),
]:
    expect_invalid(programs, doc, f"version 2: {what}")
# The version 2 words stay ordinary names in version 1, and its reserved codes too.
expect_valid(programs, {**minimal, "kinds": [{"name": "K", "params": [], "state": [
    {"name": "link", "type": "int", "init": e_int(0)}], "init": [], "handlers": [
    {"tag": "exit", "params": [], "body": [{"do": "fail", "code": "NORMAL"}]}]}]},
    "version 1: link, exit and NORMAL are not reserved")

# A version 2 result with every new event and value (SPEC §22).
run = {"seed": 1, "turns": 10, "max_processes": 10}
v2_result = {
    "ok": True, "run": run, "outcome": "deadlock", "turns": 3,
    "journal": [
        {"ev": "start", "turn": 0, "name": "w", "kind": "Worker"},
        {"ev": "exit", "turn": 0, "name": "q", "reason": "noproc"},
        {"ev": "call", "turn": 1, "ready": 1, "to": "x", "from": "w", "tag": "ping", "args": [1, "BOOM", "normal"]},
        {"ev": "resume", "turn": 2, "ready": 2, "to": "w", "from": "x", "value": "killed"},
        {"ev": "signal", "turn": 2, "kind": "exit", "from": "w", "to": "x", "reason": "kill", "effect": "exit"},
        {"ev": "exit", "turn": 2, "name": "x", "reason": "killed"},
        {"ev": "signal", "turn": 2, "kind": "call", "from": "x", "to": "w", "reason": "killed", "effect": "exit"},
        {"ev": "exit", "turn": 2, "name": "w", "reason": "KILLED"},
        {"ev": "decision", "turn": 2, "supervisor": "root", "process": "w", "action": "auto_shutdown"},
        {"ev": "api", "turn": 3, "from": "w", "supervisor": "root", "op": "restart_child", "child": "inner",
         "result": "ignored"}],
    "failures": [{"process": "q", "code": "noproc", "turn": 0}, {"process": "x", "code": "killed", "turn": 2}],
    "decisions": [{"process": "w", "supervisor": "root", "action": "auto_shutdown", "turn": 2}],
    "processes": [{"id": 0, "name": "w", "kind": "Worker"}],
    "alive": [{"name": "w", "state": {"why": "shutdown", "n": 1, "peer": "x"}}],
    "supervisors": []}
expect_valid(results, v2_result, "version 2 result")
for what, bad in [
        ("unknown outcome", {**v2_result, "outcome": "stuck"}),
        ("unknown signal effect", {**v2_result, "journal": [
            {"ev": "signal", "turn": 2, "kind": "link", "from": "w", "to": "x", "reason": "BOOM",
             "effect": "explode"}]}),
        ("unknown signal kind", {**v2_result, "journal": [
            {"ev": "signal", "turn": 2, "kind": "poke", "from": "w", "to": "x", "reason": "BOOM",
             "effect": "exit"}]}),
        ("unknown api result", {**v2_result, "journal": [
            {"ev": "api", "turn": 3, "from": "w", "supervisor": "root", "op": "restart_child", "child": "w",
             "result": "maybe"}]}),
        ("resume without value", {**v2_result, "journal": [
            {"ev": "resume", "turn": 2, "ready": 2, "to": "w", "from": "x"}]}),
        ("kill as an exit reason", {**v2_result, "journal": [
            {"ev": "exit", "turn": 2, "name": "x", "reason": "kill"}]}),
]:
    expect_invalid(results, bad, f"version 2 result: {what}")

print(f"{checked - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
