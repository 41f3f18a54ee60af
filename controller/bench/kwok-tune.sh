#!/usr/bin/env bash
# The paper's Fig. 8 shape on localkube (Columbo, ICPE '25): 1 Deployment × 1600 pods on 16 KWOK
# fake nodes (real control plane, simulated kubelets), tuned by the loop from Kubernetes'
# defaults: localkube's own defaults differ in controller-manager.kube-api-qps (100, Kubernetes
# 20), so the run sets 20 first. Every setting is put back and the cluster is left down.
#   controller/bench/kwok-tune.sh [NODES PODS MAX_CHANGES REPEATS OUT.json]
#   defaults: 16 1600 3 3 docs/results/pipeline/kwok-16x100.json
# REPEATS runs per iteration, the median measured: kwok's S5 varies 3-6x between runs.
# Appends the iterations beside the paper's runs to docs/benchmarks-log.md (kwok_report.py), then the
# control plane's steps and its clients' rate-limiter waits per iteration (steps_report.py).
# Plots: python controller/bench/pipeline_plot.py --paper-fig8 OUT.json (venv: gatling/experiments/venv.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
NODES=${1:-16} PODS=${2:-1600} MAX=${3:-3} REPEATS=${4:-3}
OUT=${5:-$ROOT/docs/results/pipeline/kwok-16x100.json}
export LOCALKUBE_HOME=${LOCALKUBE_HOME:-/var/lib/localkube-tune}
trap '"$LK" config unset controller-manager.kube-api-qps >/dev/null 2>&1 || true; "$LK" down >/dev/null 2>&1 || true' EXIT
"$LK" config set controller-manager.kube-api-qps 20 >/dev/null
"$LK" up >/dev/null 2>&1
BURST=$("$LK" config | awk -F' = ' '$1 == "controller-manager.kube-api-burst" { print $2 }')
load0=$(cut -d' ' -f1-3 /proc/loadavg)
KWOK_NODES=$NODES "$ROOT/controller/bench/tune.sh" --pods "$PODS" --timeout 300 --max-changes "$MAX" --repeats "$REPEATS" --restore --out "$OUT"
machine="$(uname -n), $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
load1=$(cut -d' ' -f1-3 /proc/loadavg)
python3 "$ROOT/controller/bench/kwok_report.py" "$OUT" "$machine" "$load0" "$load1" >> "$ROOT/docs/benchmarks-log.md"
python3 "$ROOT/controller/bench/steps_report.py" "$machine" "$load0" "$load1" 20 "$BURST" \
  "\`controller/bench/kwok-tune.sh $NODES $PODS $MAX $REPEATS\`: the loop from Kubernetes' defaults on $NODES KWOK fake nodes (the previous section)." \
  "$OUT" >> "$ROOT/docs/benchmarks-log.md"
