#!/usr/bin/env bash
# scripts/demo.sh: the README's first command. Sets up and builds concord, then
# runs the corpus on the oracle and shows one case in text syntax and its result.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh" "$root/build" >/dev/null
cd "$root"
c=build/concord
echo "== concord corpus corpus --verbose"
$c corpus corpus --verbose
echo
echo "== concord check corpus/hand/escalation_two_levels.conc"
$c check corpus/hand/escalation_two_levels.conc
echo
echo "== concord run corpus/hand/escalation_two_levels.conc --seed 1 --turns 50 (journal, one event a line)"
$c run corpus/hand/escalation_two_levels.conc --seed 1 --turns 50 |
  python3 -c 'import json,sys; r=json.load(sys.stdin); [print(json.dumps(e)) for e in r["journal"]]; print("outcome:", r["outcome"], "turns:", r["turns"])'
