#!/usr/bin/env bash
# tests/examples/slurm_test.sh: the Slurm example of examples/sharding/ on a real
# single-node Slurm brought up here (Debian's slurm-wlm and munge): a munged, a
# slurmctld and a slurmd of our own (own socket, ports, state and spool folders),
# the array job slurm-array.sh submitted with sbatch (2 tasks), slurm-merge.sh queued
# behind it with --dependency=afterany, and the merged report compared with the same
# campaign run on one machine. The daemons are stopped and their folders removed
# on every exit. Needs root (slurmd runs jobs as their user) and fails, never skips,
# when something is missing.
# usage: slurm_test.sh CONCORD_BINARY WORK_DIR   (WORK_DIR/slurm is replaced)
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 CONCORD_BINARY WORK_DIR" >&2
  exit 2
fi
concord=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ex=$root/examples/sharding
w=$2/slurm
fail() {
  echo "FAIL: $*" >&2
  for f in "$w"/log/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done
  exit 1
}
step() { echo "== $*"; }

for tool in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
    fail "$tool missing: install slurm-wlm and munge (bash scripts/setup.sh)"
done
[ "$(id -u)" -eq 0 ] || fail "a single-node Slurm needs root here (slurmd starts jobs as their user); run as root"
[ -r /etc/munge/munge.key ] || fail "/etc/munge/munge.key missing (the munge package makes it)"
PATH=$PATH:/usr/sbin

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

rm -rf "$w"
mkdir -p "$w"/{munge,state,spool,log,out}
chown munge:munge "$w/munge"
host=$(hostname -s)
# Ports of our own, away from a real cluster's 6817/6818.
base=$((20000 + RANDOM % 20000))

step "munged on its own socket"
runuser -u munge -- munged --socket="$w/munge/munge.sock" --pid-file="$w/munge/munged.pid" \
  --log-file="$w/munge/munged.log" --seed-file="$w/munge/munged.seed" --foreground >"$w/log/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$w/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$w/munge/munge.sock" ] || fail "munged did not start"

cat >"$w/slurm.conf" <<CONF
ClusterName=concordtest
SlurmctldHost=$host
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$w/munge/munge.sock
SlurmUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmctldPidFile=$w/state/slurmctld.pid
SlurmdPidFile=$w/spool/slurmd.pid
StateSaveLocation=$w/state
SlurmdSpoolDir=$w/spool
SlurmctldLogFile=$w/log/slurmctld.log
SlurmdLogFile=$w/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) RealMemory=2048 State=UNKNOWN
PartitionName=concord Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$w/slurm.conf

step "slurmctld and slurmd"
slurmctld -D -f "$SLURM_CONF" >"$w/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$w/log/slurmd.out" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 100); do
  if sinfo -h -o %t 2>/dev/null | grep -qx idle; then up=1; break; fi
  sleep 0.2
done
[ -n "$up" ] || fail "the node did not come up idle: $(sinfo 2>&1 | tr '\n' ' ')"

step "sbatch the array (2 tasks), the merge queued behind it"
# Beside c, a runtime of the user's declared in a backends file: the oracle bent to
# say turn_limit where it says quiescent, so that the shards find and shrink
# divergences and the merge has signatures and hits to add up.
cat >"$w/backends.json" <<JSON
{"backends":{"bent":{"command":["sh","-c","\"$concord\" backend oracle | sed -u 's/\"outcome\":\"quiescent\"/\"outcome\":\"turn_limit\"/'"]}}}
JSON
export CONCORD=$concord CASES=8 SEEDS_PER_PROGRAM=2 TARGET=c,bent BACKENDS=$w/backends.json OUT=$w/out JOBS=1
unset TIME PROFILE SHARDS SEED || true
cd "$w/out"
# The example asks for 8 CPUs and 8G per task, a real cluster's size; this node is smaller.
array=$(sbatch --parsable --array=0-1 --cpus-per-task=1 --mem=512M "$ex/slurm-array.sh") ||
  fail "sbatch slurm-array.sh"
array=${array%%;*}
merge=$(SHARDS=2 sbatch --parsable --dependency="afterany:$array" --mem=256M "$ex/slurm-merge.sh") ||
  fail "sbatch slurm-merge.sh"
merge=${merge%%;*}
echo "array job $array, merge job $merge"
done_=""
for _ in $(seq 600); do  # at most 2 minutes
  if [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ]; then done_=1; break; fi
  sleep 0.2
done
[ -n "$done_" ] || fail "jobs still queued after 2 minutes: $(squeue 2>&1 | tr '\n' ' ')"
for f in concord-fuzz-"${array}"_0.out concord-fuzz-"${array}"_1.out concord-merge-"${merge}".out; do
  [ -f "$f" ] || fail "no $f: the job did not run"
done
grep -q "merged 2 shards" "concord-merge-$merge.out" || { cat concord-*.out >&2; fail "the merge job did not merge"; }
for i in 0 1; do
  grep -q "task $i/2 on $host" "concord-fuzz-${array}_$i.out" || fail "task $i did not run as array task $i/2"
done

step "the merged report equals the campaign on one machine (seed = the array's job id)"
"$concord" fuzz --seed "$array" --cases "$CASES" --seeds-per-program 2 --target c,bent --backends "$BACKENDS" --jobs 1 \
  --corpus "$w/one/corpus" --report "$w/one/report" >"$w/log/one.log" 2>&1 || [ $? -eq 1 ] ||
  fail "the one-machine campaign: $(tail -3 "$w/log/one.log")"
python3 - "$w/out/report/summary.json" "$w/one/report/summary.json" "$array" <<'PY' || fail "merged != one machine"
import json, sys
m, o, seed = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
assert m["seed"] == o["seed"] == seed, (m["seed"], o["seed"], seed)
for k in ("programs", "runs", "coverage"):
    assert m[k] == o[k], (k, m[k], o[k])
sig = lambda s: {d["signature"]: d["hits"] for d in s["signatures"]}
assert sig(m) == sig(o), (sig(m), sig(o))
assert any(k.startswith("bent:") for k in sig(m)), sig(m)  # the bent runtime was found out
assert sorted(sh["shard"] for sh in m["shards"]) == ["0/2", "1/2"], m["shards"]
print("merged report: %d programs, %d runs, %d signatures, as on one machine" % (m["programs"], m["runs"], len(sig(m))))
PY
echo "slurm example: ok"
