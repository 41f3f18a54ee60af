#!/usr/bin/env bash
# The control plane's steps and its clients' rate limiters in the tuning loop (docs/pipeline.md
# "Measurement"): `make tune` on 1 × PODS pause pods from localkube's defaults with the controller
# manager's client at QPS (Kubernetes' default 20), at most one change, each iteration the median
# of REPEATS runs. The loop proposes raising a QPS or burst only when its client waited for it,
# and predicts at most that wait's share of the run; this shows the wait, the steps, the
# prediction and the measured gain side by side, with the bucket's own arithmetic as the check.
# The QPS is put back at the end. The analysis goes to OUT.json, the client's burst to
# WORK_DIR/burst; `isolato-bench token-bucket` (isolato_bench/steps_report.py) reports them.
#   WORK_DIR=DIR bench/sh/token-bucket.sh PODS QPS REPEATS OUT.json
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 4 ] || { echo "usage: WORK_DIR=DIR $0 PODS QPS REPEATS OUT.json" >&2; exit 2; }
PODS=$1 QPS=$2 REPEATS=$3 OUT=$4
LK=$ROOT/localkube/localkube
KEY=controller-manager.kube-api-qps
trap '"$LK" config unset "$KEY" >/dev/null; "$LK" up >/dev/null 2>&1 || true' EXIT
"$LK" config set "$KEY" "$QPS"
"$LK" up >/dev/null
"$LK" config | awk -F' = ' '$1 == "controller-manager.kube-api-burst" { print $2 }' > "${WORK_DIR:?}/burst"
"$ROOT/bench/sh/tune.sh" --pods "$PODS" --max-changes 1 --repeats "$REPEATS" --timeout 300 \
  --restore --out "$OUT"
