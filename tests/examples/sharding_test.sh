#!/usr/bin/env bash
# tests/examples/sharding_test.sh: runs the sharded-campaign examples of
# examples/sharding/ on this machine, small (6 cases, 2 seeds per program, the c
# target), and checks the folders they leave and that the merges succeed:
#   - slurm-array.sh as array tasks 0 and 1 of 2 (SLURM_* set by hand), slurm-merge.sh;
#   - the container command of k8s-indexed-job.yaml (read with python3-yaml, $(VAR)
#     expanded as Kubernetes does) for JOB_COMPLETION_INDEX 0 and 1, then the
#     merge Job's command;
#   - parallel.sh with 2 shards, locally and through --sshlogin ':';
#   - the merge scripts' refusals, the shard scripts' exit statuses, a reproduce line.
# usage: sharding_test.sh CONCORD_BINARY WORK_DIR   (WORK_DIR/sharding is replaced)
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 CONCORD_BINARY WORK_DIR" >&2
  exit 2
fi
concord=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ex=$root/examples/sharding
w=$2/sharding
rm -rf "$w"
mkdir -p "$w"
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, with python3-yaml
command -v parallel >/dev/null || { echo "FAIL: GNU parallel missing (apt-get install parallel)" >&2; exit 1; }
"$py" -c 'import yaml' 2>/dev/null || { echo "FAIL: python3-yaml missing (apt-get install python3-yaml)" >&2; exit 1; }

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "== $*"; }

# What every example reads from the environment, made small.
unset TIME PROFILE SSHLOGIN SHARDS OUT SEED JOBS SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT \
  SLURM_ARRAY_JOB_ID SLURM_CPUS_PER_TASK JOB_COMPLETION_INDEX || true
export CONCORD=$concord CASES=6 SEEDS_PER_PROGRAM=2 TARGET=c

# check_shards DIR N SEED: DIR/corpus-i and DIR/report-i (the four report files)
# for i < N; the reports' summaries (runners/report.hpp) name shard i/N and SEED,
# and their programs add up to the campaign's CASES (the shards split it).
check_shards() {
  local dir=$1 n=$2 seed=$3 i f
  for ((i = 0; i < n; i++)); do
    [ -d "$dir/corpus-$i" ] || fail "$dir/corpus-$i missing"
    for f in summary.json summary.md junit.xml index.html; do
      [ -f "$dir/report-$i/$f" ] || fail "$dir/report-$i/$f missing"
    done
  done
  "$py" - "$dir" "$n" "$seed" "$CASES" <<'EOF' || fail "$dir: shard summaries"
import json, sys
d, n, seed, cases = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
total = 0
for i in range(n):
    s = json.load(open(f"{d}/report-{i}/summary.json"))
    assert [sh["shard"] for sh in s["shards"]] == [f"{i}/{n}"], (i, s["shards"])
    assert s["seed"] == seed, (i, s["seed"])
    total += s["programs"]
assert total == cases, (total, cases)
EOF
}
# check_merged DIR N: the merged corpus, and the merged report of all N shards
# with all the campaign's CASES.
check_merged() {
  local dir=$1 n=$2 f
  [ -d "$dir/corpus" ] || fail "$dir/corpus missing"
  for f in summary.json summary.md junit.xml index.html; do
    [ -f "$dir/report/$f" ] || fail "$dir/report/$f missing"
  done
  "$py" - "$dir" "$n" "$CASES" <<'EOF' || fail "$dir/report/summary.json: not the $n shards merged"
import json, sys
d, n, cases = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = json.load(open(f"{d}/report/summary.json"))
assert sorted(sh["shard"] for sh in s["shards"]) == sorted(f"{i}/{n}" for i in range(n)), s["shards"]
assert s["programs"] == cases, (s["programs"], cases)
EOF
}
# expect_status WANT COMMAND...: runs COMMAND, which must exit with WANT.
expect_status() {
  local want=$1 rc=0
  shift
  "$@" >"$w/last.log" 2>&1 || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$w/last.log" >&2; fail "exit $rc, not $want: $*"; }
}

step "Slurm: array tasks 0 and 1 of 2, the seed from the array's job id"
for t in 0 1; do
  OUT=$w/slurm SLURM_ARRAY_TASK_ID=$t SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_JOB_ID=4242 \
    SLURM_CPUS_PER_TASK=1 bash "$ex/slurm-array.sh" >"$w/slurm-$t.log" 2>&1 ||
    { cat "$w/slurm-$t.log" >&2; fail "slurm-array.sh task $t"; }
done
check_shards "$w/slurm" 2 4242
expect_status 2 env OUT="$w/slurm" SHARDS=3 bash "$ex/slurm-merge.sh"  # task 2 missing
[ ! -e "$w/slurm/corpus" ] || fail "slurm-merge.sh wrote something though a task was missing"
OUT=$w/slurm SHARDS=2 bash "$ex/slurm-merge.sh"
check_merged "$w/slurm" 2
expect_status 2 env OUT="$w/slurm-bad" SEED=1 SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=2 \
  bash "$ex/slurm-array.sh"                                             # index out of range

step "Kubernetes: the Indexed Job's container command, JOB_COMPLETION_INDEX 0 and 1"
# k8s.py MANIFEST ROOT JOB INDEX KEY=VALUE...: the command of Job JOB's container
# as Kubernetes would run it with JOB_COMPLETION_INDEX=INDEX (-1: none), and its
# environment: the manifest's env values overridden by KEY=VALUE. Prints
# NUL-separated words: the environment, a marker, the command; /opt/concord (the
# image's checkout) becomes ROOT. Checks that the Indexed Job's completions,
# parallelism and SHARDS agree and that it sets JOB_COMPLETION_INDEX.
cat >"$w/k8s.py" <<'EOF'
import re, sys, yaml
manifest, root, job, index = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
overrides = dict(a.split("=", 1) for a in sys.argv[5:])
docs = [d for d in yaml.safe_load_all(open(manifest)) if d]
[j] = [d for d in docs if d["kind"] == "Job" and d["metadata"]["name"] == job]
spec = j["spec"]
[c] = spec["template"]["spec"]["containers"]
env = {e["name"]: e["value"] for e in c.get("env", []) if "value" in e}
if spec.get("completionMode") == "Indexed":
    assert spec["completions"] == spec["parallelism"] == int(env["SHARDS"]), "completions, parallelism, SHARDS differ"
    assert any("JOB_COMPLETION_INDEX" in w for w in c["command"] + c.get("args", [])), "no $(JOB_COMPLETION_INDEX)"
env.update(overrides)
scope = dict(env)
if index >= 0:
    scope["JOB_COMPLETION_INDEX"] = str(index)
def expand(s):  # Kubernetes: $(VAR) from the container's environment, $$ for $
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                  lambda m: "$" if m.group(0) == "$$" else scope.get(m.group(1), m.group(0)), s)
words = [expand(w).replace("/opt/concord/", root + "/") for w in c["command"] + c.get("args", [])]
assert not any("$(" in w for w in words), words
out = [f"{k}={v}" for k, v in env.items()] + ["--"] + words
sys.stdout.write("\0".join(out) + "\0")
EOF
k8s_run() {  # k8s_run JOB INDEX KEY=VALUE...: runs that container command here
  local envs=() cmd=() word seen=""
  while IFS= read -r -d '' word; do
    if [ -z "$seen" ]; then
      if [ "$word" = -- ]; then seen=1; else envs+=("$word"); fi
    else cmd+=("$word"); fi
  done < <("$py" "$w/k8s.py" "$ex/k8s-indexed-job.yaml" "$root" "$@")
  [ ${#cmd[@]} -gt 0 ] || fail "no command read from k8s-indexed-job.yaml"
  env "${envs[@]}" "${cmd[@]}"
}
small=(SHARDS=2 OUT="$w/k8s" TARGET=c JOBS=1 CASES=6 CONCORD="$concord")
for i in 0 1; do
  k8s_run concord-fuzz "$i" "${small[@]}" >"$w/k8s-$i.log" 2>&1 ||
    { cat "$w/k8s-$i.log" >&2; fail "k8s shard $i"; }
done
k8s_seed=$("$py" -c '
import sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d and d["kind"] == "Job" and d["metadata"]["name"] == "concord-fuzz":
        print([e["value"] for e in d["spec"]["template"]["spec"]["containers"][0]["env"] if e["name"] == "SEED"][0])
' "$ex/k8s-indexed-job.yaml")
check_shards "$w/k8s" 2 "$k8s_seed"
expect_status 2 env OUT="$w/k8s" SHARDS=1 CONCORD="$concord" bash "$ex/merge.sh"  # report-1 beyond 1 shard
k8s_run concord-merge -1 SHARDS=2 OUT="$w/k8s" CONCORD="$concord" >"$w/k8s-merge.log" 2>&1 ||
  { cat "$w/k8s-merge.log" >&2; fail "k8s merge Job"; }
check_merged "$w/k8s" 2

step "GNU parallel: 2 shards here, then 2 through --sshlogin ':'"
SEED=7 SHARDS=2 OUT=$w/parallel bash "$ex/parallel.sh" >"$w/parallel.log" 2>&1 ||
  { cat "$w/parallel.log" >&2; fail "parallel.sh"; }
check_shards "$w/parallel" 2 7
check_merged "$w/parallel" 2
[ "$(tail -n +2 "$w/parallel/parallel.log" | wc -l)" -eq 2 ] || fail "parallel's joblog does not list 2 shards"
SEED=7 SHARDS=2 SSHLOGIN=: OUT=$w/parallel-ssh bash "$ex/parallel.sh" >"$w/parallel-ssh.log" 2>&1 ||
  { cat "$w/parallel-ssh.log" >&2; fail "parallel.sh with SSHLOGIN=:"; }
check_shards "$w/parallel-ssh" 2 7
check_merged "$w/parallel-ssh" 2

step "exit statuses: 1 (something new) is a finished shard, 2 and 3 are failures"
cat >"$w/fake-concord" <<'EOF'
#!/usr/bin/env bash
exit "$FAKE_STATUS"
EOF
chmod +x "$w/fake-concord"
for s in 0:0 1:0 2:2 3:3; do
  expect_status "${s#*:}" env CONCORD="$w/fake-concord" FAKE_STATUS="${s%:*}" SEED=1 OUT="$w/fake" \
    bash "$ex/shard.sh" 0 2
  expect_status "${s#*:}" env CONCORD="$w/fake-concord" FAKE_STATUS="${s%:*}" SEED=1 OUT="$w/fake" \
    SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=2 bash "$ex/slurm-array.sh"
done
expect_status 1 env CONCORD="$w/fake-concord" FAKE_STATUS=3 SEED=1 SHARDS=2 OUT="$w/fake-parallel" \
  bash "$ex/parallel.sh"                                                # a failed shard: no merge
[ ! -e "$w/fake-parallel/report" ] || fail "parallel.sh merged though a shard failed"
expect_status 2 env -u SEED OUT="$w/fake" bash "$ex/shard.sh" 0 2     # no seed

step "a reproduce line of shard 1 replays without --shard"
"$concord" fuzz --seed 7 --profile default --seeds-per-program 2 --target c --case 1 >"$w/replay.log" 2>&1 ||
  { cat "$w/replay.log" >&2; fail "replaying case 1"; }
grep -q "1 programs" "$w/replay.log" || fail "the replay did not run one program"

echo "sharding examples: ok"
