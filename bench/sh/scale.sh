#!/usr/bin/env bash
# `isolato-bench scale`: for each shape TENANTS:CLASSES of $SHAPES (the first is the reference),
# a fresh bare kube-apiserver + etcd (bare-apiserver.sh: no cluster, no lock), the controller jar
# on the host (JVM options: ISOLATO_JAVA_OPTS, an explicit heap), and a real isolato-gate in front
# of a real saas-bench on this host's address (the probe class's one endpoint);
# isolato_bench/scale.py measures the shape into $OUT/<tenants>x<classes>.json.
set -euo pipefail
LOG_TAG="scale"
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
BARE="$ROOT/bench/sh/bare-apiserver.sh"
BUILD=${BUILD_DIR:-$ROOT/build}
GATE_BIN=${GATE_BIN:-$BUILD/saas-bench/gate/isolato-gate}
SAAS_BIN=${SAAS_BENCH_BIN:-$BUILD/saas-bench/saas-bench/saas-bench}
if [ ! -x "$GATE_BIN" ] || [ ! -x "$SAAS_BIN" ]; then
  die "$GATE_BIN or $SAAS_BIN missing (make saas-bench-build)"
fi
HOST_IP=$(hostname -I | awk '{print $1}')
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pids=()
cleanup() {
  stop_controller
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  pids=()
  "$BARE" down "$WORK/bare"
  rm -rf "$WORK/bare"  # etcd's data: ~120 MB after 10,000 tenants
}
on_exit cleanup
trap 'exit 143' TERM INT
mkdir -p "${OUT:?}" "$WORK/data"
# glibc keeps one malloc arena per core and thread group; the chart sets the same
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
for shape in ${SHAPES:?}; do
  tenants=${shape%%:*} classes=${shape##*:}
  log "shape: $tenants tenants in $classes classes"
  KUBECONFIG=$("$BARE" up "$WORK/bare")
  export KUBECONFIG
  head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$WORK/gate-token"
  echo '{"tenants":{},"version":"0"}' > "$WORK/table.json"
  app_port=$(free_port) gate_port=$(free_port)
  "$SAAS_BIN" serve --listen "127.0.0.1:$app_port" --tenants "$WORK/table.json" \
    --admin-token-file "$WORK/gate-token" --data-dir "$WORK/data" >"$WORK/saas-bench.log" 2>&1 &
  pids+=($!)
  "$GATE_BIN" --listen "$HOST_IP:$gate_port" --upstream "127.0.0.1:$app_port" --forward-table \
    --tenants "$WORK/table.json" --admin-token-file "$WORK/gate-token" >"$WORK/gate.log" 2>&1 &
  pids+=($!)
  start_controller
  export API METRICS TOKEN CTL_PID
  GATE="$HOST_IP:$gate_port" GATE_TOKEN_FILE="$WORK/gate-token" \
    "${PY:?run through bench/isolato-bench}" -m isolato_bench.scale measure "$tenants" "$classes" \
    "$OUT/${tenants}x${classes}.json"
  cleanup
done
