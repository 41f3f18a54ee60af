#!/usr/bin/env bash
# The control plane's steps and its clients' rate limiters in the tuning loop (docs/pipeline.md
# "Measurement"): `make tune` on 1 × PODS pause pods from localkube's defaults with the controller
# manager's client at QPS (Kubernetes' default 20), at most one change, each iteration the median
# of REPEATS runs. The loop proposes raising a QPS or burst only when its client waited for it,
# and predicts at most that wait's share of the run; this shows the wait, the steps, the
# prediction and the measured gain side by side, with the bucket's own arithmetic as the check.
# The QPS is put back at the end. Appends to docs/benchmarks-log.md (steps_report.py); the analysis
# stays in docs/results/pipeline/token-bucket-PODS.json.
#   controller/bench/token-bucket.sh [PODS QPS REPEATS]     defaults: 100 20 3
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PODS=${1:-100} QPS=${2:-20} REPEATS=${3:-3}
LK=$ROOT/localkube/localkube
KEY=controller-manager.kube-api-qps
OUT=$ROOT/docs/results/pipeline/token-bucket-$PODS.json
trap '"$LK" config unset "$KEY" >/dev/null; "$LK" up >/dev/null 2>&1 || true' EXIT
"$LK" config set "$KEY" "$QPS"
"$LK" up >/dev/null
burst=$("$LK" config | awk -F' = ' '$1 == "controller-manager.kube-api-burst" { print $2 }')
load0=$(cut -d' ' -f1-3 /proc/loadavg)
"$ROOT/controller/bench/tune.sh" --pods "$PODS" --max-changes 1 --repeats "$REPEATS" --timeout 300 \
  --restore --out "$OUT"
machine="$(uname -n), $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
python3 "$ROOT/controller/bench/steps_report.py" "$machine" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" \
  "$QPS" "${burst:-30}" \
  "\`controller/bench/token-bucket.sh $PODS $QPS $REPEATS\`: \`make tune\` from localkube's defaults, at most one change." \
  "$OUT" | tee -a "$ROOT/docs/benchmarks-log.md"
