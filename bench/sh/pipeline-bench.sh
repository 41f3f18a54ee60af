#!/usr/bin/env bash
# Default vs tuned localkube for one workload shape, in the same run: the two configurations
# alternate (ABBA…), REPEATS times each, each measurement by the tuning loop's own benchmark
# (TuneMain --max-changes 0: traced stages, model's best case, CPU), kept in WORK_DIR as
# default-R.json and tuned-R.json; `isolato-bench pipeline` reports them (pipeline_report.py).
#   WORK_DIR=DIR bench/sh/pipeline-bench.sh J P REPEATS KEY=DEFAULT:TUNED...
#   e.g. 1 100 3 controller-manager.kube-api-qps=20:100
# Each KEY=DEFAULT:TUNED (`isolato-bench pipeline-winners` prints them): "default" sets DEFAULT (Kubernetes'
# default), "tuned" sets TUNED; every other key keeps localkube's default, which equals
# Kubernetes' except kubelet.maxPods 250 and kubelet.maxParallelImagePulls 5 (no benchmark pod
# needs those changed: nothing is pulled, ≤ 200 pods). The keys are unset at the end. Uses its own state directory and leaves it down.
# KWOK_NODES=N runs the pods on N KWOK fake nodes (`localkube kwok up N`: real control plane,
# simulated kubelets), e.g. the paper's Fig. 8 shape:
#   KWOK_NODES=16 isolato-bench pipeline 1 1600 1 controller-manager.kube-api-qps=20:1600 ...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
[ $# -ge 4 ] || { echo "usage: $0 J P REPEATS KEY=DEFAULT:TUNED..." >&2; exit 2; }
J=$1 P=$2 REPEATS=$3; shift 3
TUNED=("$@")
export LOCALKUBE_HOME=${LOCALKUBE_HOME:-/var/lib/localkube-tune}
log() { printf '[pipeline-bench] %s\n' "$*" >&2; }
reset() { local kv; for kv in "${TUNED[@]}"; do "${LK:-$LOCALKUBE}" config unset "${kv%%=*}" >/dev/null 2>&1 || true; done; }
configure() { # default|tuned
  local kv v
  for kv in "${TUNED[@]}"; do
    if [ "$1" = tuned ]; then v=${kv#*=}; v=${v#*:}; else v=${kv#*=}; v=${v%%:*}; fi
    "$LK" config set "${kv%%=*}" "$v" >/dev/null
  done
  "$LK" up >/dev/null 2>&1
}
trap 'reset; "$LK" down >/dev/null 2>&1 || true' EXIT
where=()
[ -z "${KWOK_NODES:-}" ] || where=(--timeout 300) # tune.sh puts the pods on the fake nodes
out=${WORK_DIR:?the directory the analyses are kept in}
log "analyses in $out (default-R.json, tuned-R.json)"
for r in $(seq 1 "$REPEATS"); do
  order=(default tuned); [ $((r % 2)) -eq 0 ] && order=(tuned default)
  for v in "${order[@]}"; do
    configure "$v"
    "$ROOT/bench/sh/tune.sh" --workloads "$J" --pods "$P" --max-changes 0 "${where[@]}" --out "$out/$v-$r.json" \
      | grep -E '^\[tune\] (iteration|DONE|FAILED)' >&2
  done
done
