#!/usr/bin/env bash
# `make run`: localkube up, the saas-bench image loaded, Isolato's controller against the
# cluster with the gold and bronze classes, then wait. Ctrl-C (or `make stop` from another
# shell) stops the controller and the cluster.
#   MODE=host (default)  the controller is a JVM on this host (API on 127.0.0.1:$ISOLATO_PORT)
#   MODE=cluster         the Helm chart installed on localkube with the controller image
#                        (2 replicas, API through the Service isolato), as a shared cluster runs it
# docs/benchmarks-log.md ("make run: host vs cluster") has the measurements behind the default.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LK="$ROOT/localkube/localkube"
MODE=${MODE:-host}
RUN_DIR=${ISOLATO_RUN_DIR:-/var/lib/isolato-run}
PORT=${ISOLATO_PORT:-8080}
MGMT_PORT=${ISOLATO_MANAGEMENT_PORT:-9090}
JAR=$ROOT/controller/target/isolato-controller.jar
IMAGE=localhost/isolato/saas-bench:dev
NS=isolato-system
# The host is the "ingress" (curl, Gatling): the pools' NetworkPolicy admits the node IP and the
# pod bridge's gateway (host traffic to pods leaves from it).
HOST_CIDRS=10.250.0.1/32,10.244.0.1/32
mkdir -p "$RUN_DIR"
log() { printf '[make run] %s\n' "$*"; }
die() { printf '[make run] error: %s\n' "$*" >&2; exit 1; }

case $MODE in host|cluster) ;; *) die "unknown MODE=$MODE (host: the controller on this host; cluster: the Helm chart on localkube)" ;; esac
[ -f "$RUN_DIR/run.pid" ] && kill -0 "$(cat "$RUN_DIR/run.pid")" 2>/dev/null \
  && die "Isolato already runs ($(cat "$RUN_DIR/mode" 2>/dev/null || echo host) mode, pid $(cat "$RUN_DIR/run.pid")); 'make stop' ends it"
[ -f "$RUN_DIR/controller.pid" ] && kill -0 "$(cat "$RUN_DIR/controller.pid")" 2>/dev/null \
  && die "Isolato already runs (pid $(cat "$RUN_DIR/controller.pid")); 'make stop' ends it"
if [ "$MODE" = host ]; then
  if ss -Hltn "( sport = :$PORT )" | grep -q .; then
    die "port $PORT is in use; stop that process or run 'ISOLATO_PORT=<free port> make run'"
  fi
  if ss -Hltn "( sport = :$MGMT_PORT )" | grep -q .; then
    die "port $MGMT_PORT (metrics) is in use; stop that process or run 'ISOLATO_MANAGEMENT_PORT=<free port> make run'"
  fi
fi
[ -f "$JAR" ] || die "$JAR is missing; run 'make build'"
if [ "$MODE" = cluster ]; then
  [ -x "${HELM:-}" ] || die "MODE=cluster needs helm: run it as 'make run MODE=cluster' (builds helm) or set HELM"
fi

"$LK" up
KUBECONFIG=$("$LK" kubeconfig); export KUBECONFIG
# shellcheck source=../localkube/lib/build.sh
source "$ROOT/localkube/lib/build.sh"
kubectl() { "$LK_BIN_DIR/kubectl" "$@"; }
release_installed() { kubectl -n $NS get deployment isolato-controller -l app.kubernetes.io/managed-by=Helm >/dev/null 2>&1; }

# Two controllers would contend for the lease: a chart a previous MODE=cluster left goes first.
if [ "$MODE" = host ] && release_installed; then
  [ "$(cat "$RUN_DIR/mode" 2>/dev/null)" = cluster ] \
    || die "a Helm release of Isolato runs in $NS (not installed by make run); uninstall it first: helm uninstall isolato -n $NS"
  log "uninstalling the chart a previous 'make run MODE=cluster' left"
  "${HELM:?}" uninstall isolato -n $NS --wait >/dev/null
fi

log "loading the saas-bench image into the node"
ctx=$(make -s --no-print-directory -C "$ROOT" saas-bench-image)
"$LK" load-image --build "$ctx" --tag "$IMAGE"
# every pool pod runs the isolato-gate sidecar in front of its app
ctx=$(make -s --no-print-directory -C "$ROOT" gate-image | tail -1)
"$LK" load-image --build "$ctx" --tag localhost/isolato/gate:dev
# The pools' images keep their :dev tags across rebuilds: a pool pod started before either image
# was built is restarted (scripts/stale_pools.py says why).
stale=$(KUBECTL=$LK_BIN_DIR/kubectl python3 "$ROOT/scripts/stale_pools.py" "$IMAGE" localhost/isolato/gate:dev)
for ns in $stale; do
  log "$ns: its pods predate the images just built; restarting them"
  kubectl -n "$ns" rollout restart deployment -l app.kubernetes.io/managed-by=isolato >/dev/null
done
# an in-context calibration (POST …/calibrations) runs the open-loop referee as a Job
ctx=$(make -s --no-print-directory -C "$ROOT" openloop-image | tail -1)
"$LK" load-image --build "$ctx" --tag localhost/isolato/openloop:dev

PROM=$("$LK" config | awk '$1 == "prometheus.port" { p = $3 } $1 == "prometheus.enabled" && $3 != "true" { off = 1 } END { print off ? "off (localkube config set prometheus.enabled true)" : "http://127.0.0.1:" p }')
# The tenant profiler reads the tenants' rates from that Prometheus (off without it).
PROFILER_URL=""
[[ $PROM == http* ]] && PROFILER_URL=$PROM

cleanup() {
  trap - INT TERM EXIT
  [ -n "${SLEEP_PID:-}" ] && kill "$SLEEP_PID" 2>/dev/null
  echo
  log "stopping"
  "$ROOT/scripts/stop.sh"
}

# Host mode: the token survives restarts so the printed curl lines keep working.
start_host() {
  [ -s "$RUN_DIR/api-token" ] || head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$RUN_DIR/api-token"
  API=http://127.0.0.1:$PORT
  METRICS=http://127.0.0.1:$MGMT_PORT/actuator/prometheus
  log "starting the controller (log: $RUN_DIR/controller.log)"
  # It runs from a copy: a rebuild (make build, make controller-build) rewrites the jar in place,
  # and a JVM whose jar changed under it fails to load classes (requests then hang).
  cp "$JAR" "$RUN_DIR/controller.jar"
  ISOLATO_PORT=$PORT ISOLATO_MANAGEMENT_PORT=$MGMT_PORT ISOLATO_API_TOKEN_FILE=$RUN_DIR/api-token \
    ISOLATO_CONTROLLER_CIDRS=${ISOLATO_CONTROLLER_CIDRS:-$HOST_CIDRS} \
    ISOLATO_INGRESS_CIDRS=${ISOLATO_INGRESS_CIDRS:-$HOST_CIDRS} \
    ISOLATO_PROMETHEUS_URL=${ISOLATO_PROMETHEUS_URL:-$PROFILER_URL} \
    ISOLATO_IMAGE_ALLOWLIST=${ISOLATO_IMAGE_ALLOWLIST:-$IMAGE,localhost/isolato/gate:dev,localhost/isolato/go-httpbin:dev} \
    setsid java -jar "$RUN_DIR/controller.jar" >>"$RUN_DIR/controller.log" 2>&1 < /dev/null &
  CTL_PID=$!
  echo "$CTL_PID" > "$RUN_DIR/controller.pid"
  echo $$ > "$RUN_DIR/run.pid"
  trap cleanup INT TERM EXIT
  local deadline=$((SECONDS + 120))
  until curl -fs "$API/readyz" >/dev/null 2>&1; do
    kill -0 "$CTL_PID" 2>/dev/null || { tail -30 "$RUN_DIR/controller.log" >&2; die "the controller exited; see $RUN_DIR/controller.log"; }
    [ $SECONDS -lt $deadline ] || die "the controller was not ready in 120 s; see $RUN_DIR/controller.log"
    sleep 0.5
  done
  LOGS="$RUN_DIR/controller.log"
}

# Cluster mode: the chart with the controller image, as docs/install.md installs it; its API
# token is the one the chart keeps in the Secret isolato-api-tokens.
start_cluster() {
  log "building the controller image and loading it into the node"
  # shellcheck source=../helm/test/lib.sh
  source "$ROOT/helm/test/lib.sh" # CONTROLLER_IMAGE, the chart's default image
  "$ROOT/controller/image/stage.sh" "$JAR" "$ROOT/build/controller-image" >/dev/null
  "$LK" load-image --build "$ROOT/build/controller-image" --tag "$CONTROLLER_IMAGE"
  echo $$ > "$RUN_DIR/run.pid"
  trap cleanup INT TERM EXIT
  log "helm install isolato helm/isolato (namespace $NS)"
  "$HELM" upgrade --install isolato "$ROOT/helm/isolato" -n $NS --create-namespace --wait --timeout 3m \
    --set "pools.ingressCidrs={${ISOLATO_INGRESS_CIDRS:-$HOST_CIDRS}}" >/dev/null \
    || die "helm install failed; see 'kubectl -n $NS get pods' and 'kubectl -n $NS logs deployment/isolato-controller'"
  API=http://$(kubectl -n $NS get svc isolato -o jsonpath='{.spec.clusterIP}'):8080
  kubectl -n $NS get secret isolato-api-tokens -o jsonpath='{.data.admin}' | base64 -d > "$RUN_DIR/api-token"
  # Only the leader's pod is behind the Service: ready once a leader labelled its pod.
  local deadline=$((SECONDS + 120))
  until curl -fs --max-time 2 "$API/readyz" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "the API Service did not answer in 120 s; see 'kubectl -n $NS logs deployment/isolato-controller'"
    sleep 0.5
  done
  local leader_ip
  leader_ip=$(kubectl -n $NS get pods -l isolato.dev/api-leader=true -o jsonpath='{.items[0].status.podIP}')
  METRICS="http://$leader_ip:$MGMT_PORT/actuator/prometheus   (the leader's pod; each replica serves its own)"
  LOGS="kubectl -n $NS logs -l app.kubernetes.io/name=isolato --prefix"
}

chmod 600 "$RUN_DIR/api-token" 2>/dev/null || true
echo "$MODE" > "$RUN_DIR/mode"
"start_$MODE"
chmod 600 "$RUN_DIR/api-token"
echo "$API" > "$RUN_DIR/api-url" # read with the token by `make experiment` (gatling/experiments/runner/settings.py)

# Created when missing; a class that exists (perhaps changed through the API) is kept as is.
log "ensuring the gold and bronze classes"
out=$(kubectl create -f "$ROOT/controller/config/default-classes.yaml" 2>&1) \
  || ! grep -v -e 'AlreadyExists' -e ' created$' <<< "$out" | grep -q . || die "creating the default classes failed: $out"

if [ "$MODE" = host ]; then
  WHERE="Isolato is running on localkube (the controller on this host)."
else
  WHERE="Isolato is running in localkube (Helm release isolato in $NS, $(kubectl -n $NS get deployment isolato-controller -o jsonpath='{.spec.replicas}') replicas; the Service isolato reaches the leader)."
fi
cat <<INFO

$WHERE
  REST API:  $API/api/v1   (OpenAPI $API/v3/api-docs, UI $API/swagger-ui.html)
  token:     $RUN_DIR/api-token   (provider admin; who can call what: docs/security.md)
  metrics:   $METRICS   (management port, no token)
  prometheus: $PROM   (rules: docs/operations.md#rules)
  logs:      $LOGS
  cluster:   export KUBECONFIG=$KUBECONFIG
             export PATH=$LK_BIN_DIR:\$PATH   # kubectl $LK_K8S_VERSION

Onboard a tenant into gold, wait until it is served, and send it a request:
  curl -H "Authorization: Bearer \$(cat $RUN_DIR/api-token)" -H 'Content-Type: application/json' \\
       -d '{"tenantId":"acme","sloClass":"gold","committedRps":10,"profile":{"cpu":10,"memory":100,"io":0}}' $API/api/v1/tenants
  kubectl -n isolato-system wait --for=jsonpath='{.status.phase}'=Serving tenant/acme
  curl --retry 5 --retry-connrefused -X POST http://\$(kubectl -n isolato-c-gold get svc saas-bench -o jsonpath='{.spec.clusterIP}'):8080/v1/tenants/acme/requests

Stop with Ctrl-C here, or 'make stop' from another shell.
INFO
# Wait for Ctrl-C, `make stop` (which signals this script) or, in host mode, the controller's exit.
if [ "$MODE" = host ]; then
  wait "$CTL_PID" || true
  log "the controller exited; see $RUN_DIR/controller.log"
else
  sleep infinity &
  SLEEP_PID=$!
  wait "$SLEEP_PID" || true
fi
