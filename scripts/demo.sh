#!/usr/bin/env bash
# scripts/demo.sh: the README's first command. Sets up and builds concord, runs the
# corpus on every target (oracle, c and erlang, through the backend protocol)
# against the hand-derived expected results, and shows one case in text syntax and
# its journal.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh" "$root/build" >/dev/null
cd "$root"
c=build/concord
echo "== concord corpus corpus --target all --verbose"
$c corpus corpus --target all --verbose
echo
echo "== concord check corpus/hand/escalation_two_levels.conc"
$c check corpus/hand/escalation_two_levels.conc
echo
echo "== concord run corpus/hand/escalation_two_levels.conc --seed 1 --turns 50 --target all"
$c run corpus/hand/escalation_two_levels.conc --seed 1 --turns 50 --target all
echo
echo "== its journal, one event a line"
$c run corpus/hand/escalation_two_levels.conc --seed 1 --turns 50 |
  python3 -c 'import json,sys; r=json.load(sys.stdin); [print(json.dumps(e)) for e in r["journal"]]; print("outcome:", r["outcome"], "turns:", r["turns"])'
