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

print(f"{checked - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
