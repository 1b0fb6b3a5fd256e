#!/usr/bin/python3
# tests/spec/schema_test.py: the JSON Schemas of spec/ agree with what concord
# reads and writes: every corpus program in JSON form (concord check --json)
# validates against program.schema.json; every oracle result and every expected
# result in the corpus validates against result.schema.json; and a few documents
# the schemas must reject are rejected.
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
expect_invalid(programs, {**minimal, "concord": 2}, "format version 2")
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

print(f"{checked - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
