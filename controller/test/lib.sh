# Shared by controller/test/e2e.sh and the benchmarks of bench/sh/ (onboarding.sh, filler.sh, …):
# start/stop the controller jar on the host against localkube, and call its API.
# shellcheck shell=bash
# shellcheck disable=SC2034 # METRICS and the like are read by the scripts that source this file
ROOT=${ISOLATO_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
LOCALKUBE=$ROOT/localkube/localkube
JAR=${ISOLATO_JAR:-$ROOT/controller/target/isolato-controller.jar}
IMAGE=localhost/isolato/saas-bench:dev
GATE_IMAGE=localhost/isolato/gate:dev
WORK=$(mktemp -d /tmp/isolato-ctl.XXXXXX)
# What a script does on exit: its steps (on_exit) in order, then WORK goes unless it failed. A
# failure prints the controller's last warnings too: on a CI machine WORK is gone with the machine.
# A script's own `trap … EXIT` would replace this.
EXIT_STEPS=() EXIT_RC=
on_exit() { EXIT_STEPS+=("$1"); }
run_exit_steps() {
  local rc=$? step
  EXIT_RC=$rc # a step's $? is not the script's status; this is
  for step in "${EXIT_STEPS[@]}"; do eval "$step"; done
  if [ "$rc" -eq 0 ]; then rm -rf "$WORK"; return; fi
  if [ -s "$WORK/controller.log" ]; then
    log "the controller's last warnings ($WORK/controller.log):"
    grep -E ' (WARN|ERROR) ' "$WORK/controller.log" | tail -20 >&2 || true
  fi
}
trap run_exit_steps EXIT
PORT=${ISOLATO_TEST_PORT:-18080}
MGMT_PORT=${ISOLATO_TEST_MANAGEMENT_PORT:-19090}
TOKEN=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$TOKEN" > "$WORK/token"
API=http://127.0.0.1:$PORT
METRICS=http://127.0.0.1:$MGMT_PORT/actuator/prometheus
CTL_PID=

log() { printf '[%s] %s\n' "${LOG_TAG:-controller}" "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }

require_cluster() {
  "$LOCALKUBE" status >/dev/null 2>&1 || "$LOCALKUBE" up >&2 || die "localkube is not running"
  KUBECONFIG=$("$LOCALKUBE" kubeconfig)
  export KUBECONFIG
  [ -f "$JAR" ] || die "$JAR missing (make controller-build)"
  load_gate_image
  local holder renewed
  # a controller that stopped cleanly released the lease: no holder (its renewTime stays recent)
  holder=$(kubectl -n isolato-system get lease isolato-controller -o jsonpath='{.spec.holderIdentity}' 2>/dev/null || true)
  renewed=$(kubectl -n isolato-system get lease isolato-controller -o jsonpath='{.spec.renewTime}' 2>/dev/null || true)
  if [ -n "$holder" ] && [ $(( $(date +%s) - $(date -d "$renewed" +%s 2>/dev/null || echo 0) )) -lt 15 ]; then
    die "another controller holds the lease ($holder, renewed $renewed): stop it first (make stop)"
  fi
}

# The controller jar's environment on the host: its ports, the token file, and the host-side
# clients (see scripts/run.sh for the pools' NetworkPolicy peers; HOST_CIDRS adds other nodes'
# bridge addresses, whence their kubelets probe).
export_controller_env() {
  export ISOLATO_PORT=$PORT ISOLATO_MANAGEMENT_PORT=$MGMT_PORT ISOLATO_API_TOKEN_FILE=$WORK/token \
    ISOLATO_CONTROLLER_CIDRS=${HOST_CIDRS:-10.250.0.1/32,10.244.0.1/32} ISOLATO_INGRESS_CIDRS=${HOST_CIDRS:-10.250.0.1/32,10.244.0.1/32}
}

# The jar as make controller-build staged it (extracted, with a CDS archive) while that copy is
# newer than the jar; the jar itself otherwise, or when ISOLATO_JAR names another.
HOST_DIR=$ROOT/build/controller-host
launch_args() {
  if [ -z "${ISOLATO_JAR:-}" ] && [ "$HOST_DIR/app.jsa" -nt "$JAR" ]; then
    echo "-XX:SharedArchiveFile=$HOST_DIR/app.jsa -jar $HOST_DIR/isolato-controller.jar"
  else
    echo "-jar $JAR"
  fi
}

start_controller() {
  # shellcheck disable=SC2086 # ISOLATO_JAVA_OPTS: JVM options, split on spaces
  # shellcheck disable=SC2046 # launch_args: words
  (export_controller_env; exec java ${ISOLATO_JAVA_OPTS:-} $(launch_args)) >>"$WORK/controller.log" 2>&1 &
  CTL_PID=$!
  local deadline=$((SECONDS + 90))
  until curl -fs "$API/readyz" >/dev/null 2>&1; do
    kill -0 "$CTL_PID" 2>/dev/null || { tail -30 "$WORK/controller.log" >&2; die "controller exited"; }
    [ $SECONDS -lt $deadline ] || die "controller not ready in 90 s (log: $WORK/controller.log)"
    sleep 0.2
  done
  log "controller pid $CTL_PID ready on $API"
}

stop_controller() {
  if [ -n "$CTL_PID" ] && kill -0 "$CTL_PID" 2>/dev/null; then
    kill "$CTL_PID"; wait "$CTL_PID" 2>/dev/null || true
  fi
  CTL_PID=
}

api() { # METHOD PATH [JSON] → body on stdout, HTTP status in $WORK/status
  local m=$1 p=$2 d=${3:-}
  curl -s -o "$WORK/body" -w '%{http_code}' -X "$m" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' ${d:+--data "$d"} "$API$p" > "$WORK/status" || echo 000 > "$WORK/status"
  cat "$WORK/body"
}
status() { cat "$WORK/status"; }

# Tenant DELETE answers 202 and the tenant goes once its finalizer ran; a class DELETE before
# that is refused (409), so offboard the tenants first and wait for them.
offboard_tenants() { # ID...
  local id objs=()
  for id in "$@"; do api DELETE "/api/v1/tenants/$id" >/dev/null; objs+=("tenant/$id"); done
  kubectl -n isolato-system wait --for=delete --timeout=60s "${objs[@]}" >/dev/null 2>&1 || true
}

class_json() { # NAME CPU MEM MAXREPLICAS CUTOFF
  printf '{"name":"%s","spec":{"latency":{"percentile":95,"targetMs":100},"resources":{"cpu":"%s","memory":"%s"},"priority":500,"minReplicas":1,"maxReplicas":%s,"pivotPercent":70,"perPodCutoffRps":%s,"image":"%s"}}' \
    "$1" "$2" "$3" "$4" "$5" "$IMAGE"
}
tenant_json() { # ID CLASS RPS
  printf '{"tenantId":"%s","sloClass":"%s","committedRps":%s,"profile":{"cpu":1,"memory":4,"io":0}}' "$1" "$2" "$3"
}

wait_serving() { # TIMEOUT TENANT...
  local t=$1; shift
  kubectl -n isolato-system wait --for=jsonpath='{.status.phase}'=Serving --timeout="${t}s" \
    "${@/#/tenant/}" >/dev/null \
    || die "not Serving within ${t}s: $* (is $IMAGE loaded into localkube? controller log: $WORK/controller.log)"
}

service_ip() { kubectl -n "isolato-c-$1" get svc saas-bench -o jsonpath='{.spec.clusterIP}'; }
# POST URL → the HTTP status. A pod Ready (the tenant Serving, the Deployment Available) is routed
# by the Service only once kube-proxy has synced: refused until then, so retried (30 s at most).
svc_post() { curl -s -o /dev/null -w '%{http_code}' --retry 30 --retry-delay 1 --retry-connrefused --max-time 5 -X POST "$1"; }

# Offboards TENANT (waiting until it is released) and deletes CLASS, when the controller runs.
delete_tenant_and_class() { # TENANT CLASS
  [ -n "$CTL_PID" ] || return 0
  offboard_tenants "$1"
  api DELETE "/api/v1/slo-classes/$2" >/dev/null
}

# A test of one tenant ($TENANT) of one class ($CLASS) under a background load ($LOAD_PID, set
# by the caller when it starts one): on exit the load stops, the tenant and class are deleted
# and the controller stops.
one_tenant_cleanup() {
  if [ -n "$LOAD_PID" ]; then kill "$LOAD_PID" 2>/dev/null || true; fi
  delete_tenant_and_class "$TENANT" "$CLASS"
  stop_controller
}
one_tenant_test() {
  LOAD_PID=
  on_exit one_tenant_cleanup
}

# The saas-bench image built from this tree, loaded into localkube (SAAS_BENCH_IMAGE_CONTEXT:
# an image context already staged).
load_saas_bench_image() {
  local ctx=${SAAS_BENCH_IMAGE_CONTEXT:-$(make -s --no-print-directory -C "$ROOT" saas-bench-image)}
  "$LOCALKUBE" load-image --build "$ctx" --tag "$IMAGE" >&2
}

# The isolato-gate image built from this tree (every pool pod runs it as a sidecar), loaded
# into localkube (GATE_IMAGE_CONTEXT: an image context already staged).
load_gate_image() {
  local ctx=${GATE_IMAGE_CONTEXT:-$(make -s --no-print-directory -C "$ROOT" gate-image | tail -1)}
  [ -d "$ctx" ] || die "make gate-image staged no image context ($ctx)"
  "$LOCALKUBE" load-image --build "$ctx" --tag "$GATE_IMAGE" >&2
}

# A class of one pod (maxReplicas 1, admission off) with vertical headroom, for the filler's
# e2e and benchmark.
headroom_class_json() { # NAME CPU TARGET_MS CUTOFF HEADROOM FILLER(true|false)
  printf '{"name":"%s","spec":{"latency":{"percentile":95,"targetMs":%s},"resources":{"cpu":"%s","memory":"128Mi"},"priority":500,"minReplicas":1,"maxReplicas":1,"pivotPercent":70,"perPodCutoffRps":%s,"admission":"off","image":"%s","headroom":{"cpu":"%s","filler":%s}}}' \
    "$1" "$3" "$2" "$4" "$IMAGE" "$5" "$6"
}

# Waits (watches, no polling) until the class's filler Deployment exists and its pod is Ready:
# `kubectl wait -l` alone fails at once when the controller has not created the pod yet.
wait_filler_ready() { # NAMESPACE TIMEOUT_S
  kubectl -n "$1" wait --for=create deploy/isolato-filler --timeout="$2s" >/dev/null \
    && kubectl -n "$1" rollout status deploy/isolato-filler --timeout="$2s" >/dev/null
}

# CPU time (ns) of a pod's cgroup (cgroupfs driver, cgroup v1 cpuacct, any QoS class); 0 when
# the pod has none on this node.
pod_cpu_ns() { # POD_UID
  local d
  for d in /sys/fs/cgroup/cpuacct/kubepods/{,burstable/,besteffort/}pod"$1"; do
    [ -f "$d/cpuacct.usage" ] && { cat "$d/cpuacct.usage"; return; }
  done
  echo 0
}
