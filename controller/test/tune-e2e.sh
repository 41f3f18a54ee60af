#!/usr/bin/env bash
# Reduced tuning loops on localkube (`make test`): one 20-pod Deployment, then Isolato's own
# paths of 3 dedicated tenants onboarded at once and of a new class with a pool of 3 pods (the
# controller run by the loop); at most one change each, undone at the end (the other end-to-end
# tests share this cluster). Checks that each analysis finished, that every stage S1–S7 was
# measured and predicted, that CPU (with its idle rate and the run's CPU floor), the kubelet's and
# the control plane's step timings and the waits for the clients' rate limiters and the API
# server's queues were measured, that a decision was taken and, if a setting was applied, that
# the run after it was measured and the setting is back to what it was; and that the paths left
# no class, tenant or namespace behind.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
before=$("$LK" config | grep -v '^#')
out="$ROOT/build/tune/e2e.json"
rm -f "$out"
start=$(date +%s)
check() { # ANALYSIS.json APPLIED-PREFIX...: the analysis is complete and consistent
  python3 - "$@" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
assert a["status"] == "DONE", a
its = a["iterations"]
assert 1 <= len(its) <= 3, len(its)
first = its[0]
stages = {"S1", "S2", "S3", "S4", "S5", "S6", "S7"}
assert set(first["measured"]) <= stages and {"S1", "S3", "S4"} <= set(first["measured"]), first["measured"]
assert abs(sum(first["measured"].values()) - first["measuredSeconds"]) < 1e-6
assert first["predictedSeconds"] > 0 and first["single"], first
assert first["cpu"]["measured"] and first["cpu"]["controlPlane"] > 0, first["cpu"]
# idle read before the runs; the run's work above it fits in no less than the CPU floor
assert first["idleCpu"]["measured"], first["idleCpu"]
floor = first["cpuFloor"]
assert floor and 0 < floor["floorSeconds"] <= 1.02 * first["measuredSeconds"], (floor, first["cpu"], first["idleCpu"])
# the kubelet timed every new pod's sandbox, in the run and in the single-pod input
pods = a["shape"]["workloads"] * a["shape"]["podsPerWorkload"]
sandbox = (first.get("kubeletSteps") or {}).get("S5_SANDBOX") or {}
assert sandbox.get("count", 0) >= pods and sandbox["seconds"] > 0, first.get("kubeletSteps")
assert ((first.get("singleKubeletSteps") or {}).get("S5_SANDBOX") or {}).get("count", 0) >= 1, first
# the control plane timed its steps: the API server every pod's create and binding, the
# Deployments' writes; every client's rate limiter was read
cp = first.get("controlPlaneSteps") or {}
for step, least in (("S1_WRITE", 1), ("S3_WRITE", pods), ("S4_WRITE", pods), ("S2_READ", 1)):
    assert (cp.get(step) or {}).get("count", 0) >= least, (step, cp)
assert set(first.get("throttled") or {}) == {"CONTROLLER_MANAGER", "SCHEDULER", "KUBELET", "APISERVER"}, first.get("throttled")
assert first.get("createSpanSeconds") is not None and first["createSpanSeconds"] >= 0, first
assert first["decision"] in ("APPLY", "STOP_CPU_BOUND", "STOP_SMALL_GAIN", "STOP_NO_RULE"), first["decision"]
if first["decision"] == "APPLY":
    assert first.get("applied", "").startswith(tuple(sys.argv[2:])), first
    assert len(its) == 2 and its[1]["measuredSeconds"] > 0 and "measuredGain" in its[1], its
print(f"[tune-e2e] {a['shape']}: {len(its)} iteration(s); first {first['measuredSeconds']:.2f} s, bottleneck "
      f"{(first.get('bottleneck') or {}).get('stage')}, decision {first['decision']}; {a['outcome']}")
PY
}
"$ROOT/controller/bench/tune.sh" --pods 20 --max-changes 1 --timeout 120 --restore --out "$out"
check "$out" "localkube config set"
"$ROOT/controller/bench/tune.sh" --path tenants --workloads 3 --max-changes 1 --timeout 120 --restore --out "$out"
check "$out" "localkube config set" "restarted Isolato's controller"
"$ROOT/controller/bench/tune.sh" --path class --pods 3 --max-changes 1 --timeout 120 --restore --out "$out"
check "$out" "localkube config set" "restarted Isolato's controller"
python3 -c 'import json, sys; w = json.load(open(sys.argv[1]))["workload"]; assert w == "a new class with a pool of 3 pods", w' "$out"
left=$(KUBECONFIG=$("$LK" kubeconfig) kubectl get sloclass -o name | grep -E '/tune(-[0-9]+)?$' || true)
[ -z "$left" ] || { echo "[tune-e2e] the paths left classes: $left" >&2; exit 1; }
left=$(KUBECONFIG=$("$LK" kubeconfig) kubectl get ns -o name | grep -E '^namespace/isolato-(c-tune|t-pl-)' || true)
[ -z "$left" ] || { echo "[tune-e2e] the path left namespaces: $left" >&2; exit 1; }
after=$("$LK" config | grep -v '^#')
[ "$before" = "$after" ] || { echo "[tune-e2e] localkube's settings were not restored:" >&2; diff <(echo "$before") <(echo "$after") >&2; exit 1; }
echo "[tune-e2e] passed in $(( $(date +%s) - start )) s"
