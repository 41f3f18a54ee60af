#!/usr/bin/env bash
# `make run`: localkube up, then Isolato's controller against it in the foreground.
# Ctrl-C (or `make stop` from another shell) stops the controller and the cluster.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LK="$ROOT/localkube/localkube"
RUN_DIR=${ISOLATO_RUN_DIR:-/var/lib/isolato-run}
mkdir -p "$RUN_DIR"
log() { printf '[make run] %s\n' "$*"; }

"$LK" up
KUBECONFIG=$("$LK" kubeconfig); export KUBECONFIG
# shellcheck source=../localkube/lib/build.sh
source "$ROOT/localkube/lib/build.sh"
kubectl() { "$LK_BIN_DIR/kubectl" "$@"; }

log "deploying the demo workload (namespace isolato-demo)"
kubectl apply -f "$ROOT/localkube/manifests/demo.yaml" >/dev/null
kubectl -n isolato-demo rollout status deployment/demo --timeout=90s >/dev/null
demo_ip=$(kubectl -n isolato-demo get service demo -o jsonpath='{.spec.clusterIP}')

cleanup() {
  trap - INT TERM EXIT
  log "stopping"
  "$ROOT/scripts/stop.sh"
}
trap cleanup INT TERM EXIT

cat <<INFO

Isolato is running on localkube.
  cluster:   export KUBECONFIG=$KUBECONFIG
             $LK_BIN_DIR/kubectl get pods -A
  demo:      curl http://$demo_ip/
Stop with Ctrl-C here, or 'make stop' from another shell.
INFO
echo $$ > "$RUN_DIR/run.pid"
# Wait for Ctrl-C or `make stop` (which signals this PID).
while kill -0 $$ 2>/dev/null; do sleep 3600 & wait $! || true; done
