"""concord_cases.py: runs concord's exported cases (NAME.concord.json, written by
`concord export CASE --as json`) against any runtime that speaks concord's backend
protocol (runners/PROTOCOL.md), without concord. Python 3 standard library only.

Each case file holds the program, and per run its settings, the request line to
send and the expected result. A run passes when the runtime's answer line equals
the expected result as a JSON value; otherwise the first difference is named
(`first difference at journal[3].args[0]: expected 1, got 3`).

The runtime is the command in $CONCORD_RUNTIME (or --runtime), run by /bin/sh once
per run: it gets the request line on stdin and must write one answer line.

  python3 concord_cases.py [--runtime CMD] [FILE.concord.json | DIR]...   # TAP output
  pytest                                          # the test_*.py beside each case

Exit status of the command line: 0 when every run passed, 1 when one failed, 2 on
bad usage.
"""

import json
import os
import pathlib
import signal
import subprocess
import sys
import threading

TIMEOUT_SECONDS = 120  # per answer


def load(path):
    """The exported case at path, as a dict (its runs under "runs")."""
    with open(path, encoding="utf-8") as f:
        case = json.load(f)
    if case.get("concord_export") != 1:
        raise ValueError(f"{path}: not a concord export (no \"concord_export\": 1)")
    return case


def _type(v):
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if v is None:
        return "null"
    return {str: "string", list: "array", dict: "object"}[type(v)]


def _join(path, key):
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _show(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def first_difference(expected, got, path=""):
    """The first difference of two JSON values, named by its path, or None."""
    where = path or "the answer"
    if _type(expected) != _type(got):
        return f"first difference at {where}: expected {_show(expected)}, got {_show(got)}"
    if isinstance(expected, dict):
        for key, value in expected.items():
            if key not in got:
                return f"first difference at {_join(path, key)}: expected {_show(value)}, got nothing"
            d = first_difference(value, got[key], _join(path, key))
            if d:
                return d
        for key in got:
            if key not in expected:
                return f"first difference at {_join(path, key)}: expected nothing, got {_show(got[key])}"
        return None
    if isinstance(expected, list):
        for i, value in enumerate(expected):
            if i >= len(got):
                return f"first difference at {_join(path, i)}: expected {_show(value)}, got nothing"
            d = first_difference(value, got[i], _join(path, i))
            if d:
                return d
        if len(got) > len(expected):
            return f"first difference at {_join(path, len(expected))}: expected nothing, got {_show(got[len(expected)])}"
        return None
    if expected != got:
        return f"first difference at {where}: expected {_show(expected)}, got {_show(got)}"
    return None


def ask(command, request, timeout=TIMEOUT_SECONDS):
    """Starts command (/bin/sh -c), writes request and a newline, returns the first
    line of its stdout. Raises RuntimeError when none comes."""
    proc = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            start_new_session=True)
    line = []

    def read():
        line.append(proc.stdout.readline())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        proc.stdin.write(request.encode("utf-8") + b"\n")
        proc.stdin.close()
    except BrokenPipeError:
        pass
    reader.join(timeout)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    status = proc.wait()
    if not line:
        raise RuntimeError(f"{command}: no answer within {timeout} s")
    if not line[0].endswith(b"\n"):
        hint = " (exit 127: is the command right?)" if status == 127 else ""
        raise RuntimeError(f"{command}: the runtime closed its stdout before a whole answer line{hint}")
    return line[0].decode("utf-8").rstrip("\n")


def runtime_command(command=None):
    command = command or os.environ.get("CONCORD_RUNTIME", "")
    if not command:
        raise RuntimeError("set CONCORD_RUNTIME to the command that starts the runtime under test "
                           "(it must speak concord's backend protocol)")
    return command


def check_run(case, i, command=None):
    """Runs run i of case (a dict, or a path) on the runtime; raises AssertionError
    naming the first difference when its answer is not the expected result."""
    if not isinstance(case, dict):
        case = load(case)
    run = case["runs"][i]
    command = runtime_command(command)
    answer = ask(command, run["request"])
    try:
        got = json.loads(answer)
    except ValueError:
        raise AssertionError(f"run {i + 1}: the answer is not JSON: {answer[:200]}") from None
    d = first_difference(run["expect"], got)
    if d:
        raise AssertionError(f"run {i + 1} (settings {run['seed']} {run['turns']} {run['max_processes']}): {d}")


def case_files(paths):
    out = []
    for p in map(pathlib.Path, paths):
        out.extend(sorted(p.glob("*.concord.json")) if p.is_dir() else [p])
    return out


def main(argv):
    args, command = [], None
    it = iter(argv)
    for a in it:
        if a == "--runtime":
            command = next(it, None)
            if command is None:
                print("--runtime needs a command", file=sys.stderr)
                return 2
        elif a.startswith("-"):
            print(f"usage: {sys.argv[0]} [--runtime CMD] [FILE.concord.json | DIR]...", file=sys.stderr)
            return 2
        else:
            args.append(a)
    files = case_files(args or [pathlib.Path(__file__).parent])
    try:
        cases = [(f, load(f)) for f in files]
        command = runtime_command(command)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"concord_cases: {e}", file=sys.stderr)
        return 2
    tests = [(f, c, i) for f, c in cases for i in range(len(c["runs"]))]
    print("TAP version 13")
    print(f"1..{len(tests)}")
    failed = 0
    for n, (f, c, i) in enumerate(tests, 1):
        name = f"{c['name']} run {i + 1}"
        try:
            check_run(c, i, command)
            print(f"ok {n} - {name}")
        except (AssertionError, RuntimeError) as e:
            failed += 1
            print(f"not ok {n} - {name}")
            print(f"  # {e}")
            if c.get("signature"):
                print(f"  # found as: {c['signature']}")
    print(f"# {len(tests) - failed} of {len(tests)} runs passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
