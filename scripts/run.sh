#!/usr/bin/env bash
# `make run`: localkube up, the saas-bench image loaded, Isolato's controller against the
# cluster with the gold and bronze classes, then wait. Ctrl-C (or `make stop` from another
# shell) stops the controller and the cluster.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LK="$ROOT/localkube/localkube"
RUN_DIR=${ISOLATO_RUN_DIR:-/var/lib/isolato-run}
PORT=${ISOLATO_PORT:-8080}
MGMT_PORT=${ISOLATO_MANAGEMENT_PORT:-9090}
API=http://127.0.0.1:$PORT
METRICS=http://127.0.0.1:$MGMT_PORT/actuator/prometheus
JAR=$ROOT/controller/target/isolato-controller.jar
IMAGE=localhost/isolato/saas-bench:dev
mkdir -p "$RUN_DIR"
log() { printf '[make run] %s\n' "$*"; }
die() { printf '[make run] error: %s\n' "$*" >&2; exit 1; }

[ -f "$RUN_DIR/controller.pid" ] && kill -0 "$(cat "$RUN_DIR/controller.pid")" 2>/dev/null \
  && die "Isolato already runs (pid $(cat "$RUN_DIR/controller.pid")); 'make stop' ends it"
if ss -Hltn "( sport = :$PORT )" | grep -q .; then
  die "port $PORT is in use; stop that process or run 'ISOLATO_PORT=<free port> make run'"
fi
if ss -Hltn "( sport = :$MGMT_PORT )" | grep -q .; then
  die "port $MGMT_PORT (metrics) is in use; stop that process or run 'ISOLATO_MANAGEMENT_PORT=<free port> make run'"
fi
[ -f "$JAR" ] || die "$JAR is missing; run 'make build'"

"$LK" up
KUBECONFIG=$("$LK" kubeconfig); export KUBECONFIG
# shellcheck source=../localkube/lib/build.sh
source "$ROOT/localkube/lib/build.sh"

log "loading the saas-bench image into the node"
ctx=$(make -s --no-print-directory -C "$ROOT" saas-bench-image)
"$LK" load-image --build "$ctx" --tag "$IMAGE"

# The token survives restarts so the printed curl lines keep working.
[ -s "$RUN_DIR/api-token" ] || head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$RUN_DIR/api-token"
chmod 600 "$RUN_DIR/api-token"
echo "$API" > "$RUN_DIR/api-url" # read with the token by `make experiment` (gatling/experiments/runner/settings.py)

log "starting the controller (log: $RUN_DIR/controller.log)"
# It runs from a copy: a rebuild (make build, make controller-build) rewrites the jar in place,
# and a JVM whose jar changed under it fails to load classes (requests then hang).
cp "$JAR" "$RUN_DIR/controller.jar"
# The controller is a host process and this host is the "ingress" (curl, Gatling): the pools'
# NetworkPolicy admits the node IP and the pod bridge's gateway (host traffic to pods leaves from it).
ISOLATO_PORT=$PORT ISOLATO_MANAGEMENT_PORT=$MGMT_PORT ISOLATO_API_TOKEN_FILE=$RUN_DIR/api-token \
  ISOLATO_CONTROLLER_CIDRS=${ISOLATO_CONTROLLER_CIDRS:-10.250.0.1/32,10.244.0.1/32} \
  ISOLATO_INGRESS_CIDRS=${ISOLATO_INGRESS_CIDRS:-10.250.0.1/32,10.244.0.1/32} \
  setsid java -jar "$RUN_DIR/controller.jar" >>"$RUN_DIR/controller.log" 2>&1 < /dev/null &
CTL_PID=$!
echo "$CTL_PID" > "$RUN_DIR/controller.pid"
echo $$ > "$RUN_DIR/run.pid"

cleanup() {
  trap - INT TERM EXIT
  echo
  log "stopping"
  "$ROOT/scripts/stop.sh"
}
trap cleanup INT TERM EXIT

deadline=$((SECONDS + 120))
until curl -fs "$API/readyz" >/dev/null 2>&1; do
  kill -0 "$CTL_PID" 2>/dev/null || { tail -30 "$RUN_DIR/controller.log" >&2; die "the controller exited; see $RUN_DIR/controller.log"; }
  [ $SECONDS -lt $deadline ] || die "the controller was not ready in 120 s; see $RUN_DIR/controller.log"
  sleep 0.5
done
# Created when missing; a class that exists (perhaps changed through the API) is kept as is.
log "ensuring the gold and bronze classes"
out=$("$LK_BIN_DIR/kubectl" create -f "$ROOT/controller/config/default-classes.yaml" 2>&1) \
  || ! grep -v 'AlreadyExists' <<< "$out" | grep -q . || die "creating the default classes failed: $out"

PROM=$("$LK" config | awk '$1 == "prometheus.port" { p = $3 } $1 == "prometheus.enabled" && $3 != "true" { off = 1 } END { print off ? "off (localkube config set prometheus.enabled true)" : "http://127.0.0.1:" p }')
cat <<INFO

Isolato is running on localkube.
  REST API:  $API/api/v1   (OpenAPI $API/v3/api-docs, UI $API/swagger-ui.html)
  token:     $RUN_DIR/api-token   (provider admin; who can call what: docs/security.md)
  metrics:   $METRICS   (management port, no token)
  prometheus: $PROM   (rules: docs/operations.md#rules)
  cluster:   export KUBECONFIG=$KUBECONFIG
             export PATH=$LK_BIN_DIR:\$PATH   # kubectl $LK_K8S_VERSION

Onboard a tenant into gold, wait until it is served, and send it a request:
  curl -H "Authorization: Bearer \$(cat $RUN_DIR/api-token)" -H 'Content-Type: application/json' \\
       -d '{"tenantId":"acme","sloClass":"gold","committedRps":10,"profile":{"cpu":10,"memory":100,"io":0}}' $API/api/v1/tenants
  kubectl -n isolato-system wait --for=jsonpath='{.status.phase}'=Serving tenant/acme
  curl --retry 5 --retry-connrefused -X POST http://\$(kubectl -n isolato-c-gold get svc saas-bench -o jsonpath='{.spec.clusterIP}'):8080/v1/tenants/acme/requests

Stop with Ctrl-C here, or 'make stop' from another shell.
INFO
# Wait for Ctrl-C, `make stop` (which signals this script) or the controller's exit.
wait "$CTL_PID" || true
log "the controller exited; see $RUN_DIR/controller.log"
