#!/usr/bin/env bash
# `isolato-bench chaos` (make chaos): control-plane faults survived by the chart-installed
# controller (isolato_bench/faults/chaos.py says
# which and what is asserted). Runs on a cluster of its own state directory, purged before and
# after (a running `make run` cluster is stopped first, its state kept, as `make test-e2e` does);
# bounded: chaos.py is killed after CHAOS_TIMEOUT s (default 1200). Arguments go to chaos.py
# (e.g. --seed 42 --faults apiserver,etcd-pause). Run it under `flock /tmp/isolato-cluster.lock`
# on a shared machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK=$ROOT/localkube/localkube
HELM=${HELM:?set HELM to the helm binary (controller/part.mk does)}
log() { printf '[chaos] %s\n' "$*" >&2; }

"$LK" down >/dev/null
export LOCALKUBE_HOME=${CHAOS_LOCALKUBE_HOME:-/var/lib/localkube-chaos}
"$LK" down --purge >/dev/null
trap '"$LK" down --purge >/dev/null 2>&1 || true' EXIT
"$LK" up
KUBECONFIG=$("$LK" kubeconfig); export KUBECONFIG
# shellcheck source=../../helm/test/lib.sh
source "$ROOT/helm/test/lib.sh"
log "building and loading the controller, saas-bench and busybox images"
load_images
log "helm install (2 replicas)"
"$HELM" install isolato "$ROOT/helm/isolato" -n isolato-system --create-namespace --wait --timeout 3m \
  --set replicas=2 --set 'pools.ingressCidrs={10.250.0.1/32,10.244.0.1/32}' >/dev/null
timeout --signal=INT --kill-after=30 "${CHAOS_TIMEOUT:-1200}" \
  "${PY:?run through bench/isolato-bench}" -m isolato_bench.faults.chaos "$@"
