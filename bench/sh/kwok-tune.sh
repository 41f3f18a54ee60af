#!/usr/bin/env bash
# The paper's Fig. 8 shape on localkube (Columbo, ICPE '25): 1 Deployment × 1600 pods on 16 KWOK
# fake nodes (real control plane, simulated kubelets), tuned by the loop from Kubernetes'
# defaults: localkube's own defaults differ in controller-manager.kube-api-qps (100, Kubernetes
# 20), so the run sets 20 first. Every setting is put back and the cluster is left down.
#   WORK_DIR=DIR bench/sh/kwok-tune.sh NODES PODS MAX_CHANGES REPEATS OUT.json
# REPEATS runs per iteration, the median measured: kwok's S5 varies 3-6x between runs. The
# controller manager's burst goes to WORK_DIR/burst. `isolato-bench kwok-tune` reports the
# iterations beside the paper's runs (kwok_report.py), then the control plane's steps and its
# clients' rate-limiter waits per iteration (steps_report.py).
# Plots: isolato-bench pipeline-plot --paper-fig8 OUT.json.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
[ $# -eq 5 ] || { echo "usage: WORK_DIR=DIR $0 NODES PODS MAX_CHANGES REPEATS OUT.json" >&2; exit 2; }
NODES=$1 PODS=$2 MAX=$3 REPEATS=$4 OUT=$5
export LOCALKUBE_HOME=${LOCALKUBE_HOME:-/var/lib/localkube-tune}
trap '"$LK" config unset controller-manager.kube-api-qps >/dev/null 2>&1 || true; "$LK" down >/dev/null 2>&1 || true' EXIT
"$LK" config set controller-manager.kube-api-qps 20 >/dev/null
"$LK" up >/dev/null 2>&1
"$LK" config | awk -F' = ' '$1 == "controller-manager.kube-api-burst" { print $2 }' > "${WORK_DIR:?}/burst"
KWOK_NODES=$NODES "$ROOT/bench/sh/tune.sh" --pods "$PODS" --timeout 300 --max-changes "$MAX" --repeats "$REPEATS" --restore --out "$OUT"
