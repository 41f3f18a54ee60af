#!/usr/bin/env bash
# Reduced KWOK shape on localkube (`make test`): 2 fake nodes × 20 pods, measured once by the
# tuning loop's benchmark (no change applied). Checks that every stage up to S5 was measured on
# the fake nodes, that no benchmark pod ran on the real node, and that `localkube kwok down`
# leaves no fake node and no pod bound to one (nothing Terminating). kwok is built on first use
# (cold ≈ 4 min, cached in ~/.cache/isolato/localkube/kwok-v0.8.0).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
out="$ROOT/build/tune/kwok-e2e.json"
rm -f "$out"
start=$(date +%s)
watcher=
trap '[ -z "$watcher" ] || kill "$watcher" 2>/dev/null; "$LK" kwok down >/dev/null 2>&1 || true' EXIT
"$LK" status >/dev/null 2>&1 || "$LK" up
KUBECONFIG=$("$LK" kubeconfig)
export KUBECONFIG
mkdir -p "$ROOT/build/tune"
real_node=$(kubectl get nodes -l '!isolato.dev/kwok-node' -o jsonpath='{.items[0].metadata.name}')
# Pods bound to the real node, recorded while the benchmark runs (its namespace is gone after).
( while sleep 0.5; do
    kubectl get pods -A --field-selector "spec.nodeName=$real_node" -o name -l isolato.dev/pipeline-workload 2>/dev/null
  done ) > "$ROOT/build/tune/kwok-e2e-real-node.txt" &
watcher=$!
KWOK_NODES=2 "$ROOT/bench/sh/tune.sh" --pods 40 --max-changes 0 --timeout 120 --out "$out"
kill "$watcher"; wait "$watcher" 2>/dev/null || true
watcher=
python3 - "$out" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
assert a["status"] == "DONE", a
assert a["hardware"]["nodes"] == 2, a["hardware"]
it = a["iterations"][0]
assert {"S1", "S3", "S4", "S5"} <= set(it["measured"]), it["measured"]
assert it["measuredSeconds"] > 0 and it["predictedSeconds"] > 0, it
print(f"[kwok-e2e] 40 pods Ready on 2 fake nodes in {it['measuredSeconds']:.2f} s (best case {it['predictedSeconds']:.2f} s)")
PY
[ ! -s "$ROOT/build/tune/kwok-e2e-real-node.txt" ] || { echo "[kwok-e2e] benchmark pods ran on the real node:" >&2; sort -u "$ROOT/build/tune/kwok-e2e-real-node.txt" >&2; exit 1; }
"$LK" kwok down
[ -z "$(kubectl get nodes -l isolato.dev/kwok-node -o name)" ] || { echo "[kwok-e2e] fake nodes left" >&2; exit 1; }
left=$(kubectl get pods -A -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c '^isolato-kwok-' || true)
[ "$left" -eq 0 ] || { echo "[kwok-e2e] $left pods still bound to fake nodes" >&2; exit 1; }
echo "[kwok-e2e] passed in $(( $(date +%s) - start )) s"
