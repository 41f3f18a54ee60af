#!/usr/bin/env bash
# The gate's overhead (issue 33 item 5; `isolato-bench gate-overhead`, isolato_bench/gate_overhead.py):
# one app (saas-bench at profile cpu APP_UNITS) reached directly, through isolato-gate, through
# HAProxy 2.6 doing the same job (tenant = path segment, per-tenant rate limit from a stick
# table) and through HAProxy as a plain TCP relay (mode tcp: the two TCP hops every proxy in
# front of the app pays, and nothing else: the floor), with open-loop load (build/openloop).
# The app and the proxy in front of it share core APP_CPU (a sidecar shares its pod's CPU);
# the load generator has core LOAD_CPU.
#   gate-overhead.sh cutoff OUT_DIR                 ramp the direct app: OUT_DIR/ramp.json
#   gate-overhead.sh run OUT_DIR RATES REPEAT       every mode at each rate (comma-separated):
#       OUT_DIR/<mode>-<rate>-<repeat>.json (openloop) and a line in OUT_DIR/cpu.tsv:
#       mode rate repeat app_cpu_seconds proxy_cpu_seconds app_requests
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
APP=$ROOT/build/saas-bench/saas-bench/saas-bench
GATE=$ROOT/build/saas-bench/gate/isolato-gate
OPENLOOP=$ROOT/build/openloop
APP_CPU=${APP_CPU:-1}
LOAD_CPU=${LOAD_CPU:-0}
RATE_LIMIT=${RATE_LIMIT:-100000}  # per tenant, requests/s: the same at the gate, the app and HAProxy
REQUESTS=${REQUESTS:-6000}        # per measured step
APP_UNITS=${APP_UNITS:-2}         # the app's CPU work per request, saas-bench CPU units
APP_PORT=18181 GATE_PORT=18182 HAPROXY_PORT=18183 RELAY_PORT=18184
cmd=$1 out=$2
mkdir -p "$out"
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
# shellcheck source=../../cpp-common/test/process_lib.sh
. "$ROOT/cpp-common/test/process_lib.sh"

cat > "$work/tenants.json" <<JSON
{"version":"bench","tenants":{
 "t1":{"profile":{"cpu":$APP_UNITS},"rateRps":$RATE_LIMIT,"burst":$RATE_LIMIT},
 "t2":{"profile":{"cpu":$APP_UNITS},"rateRps":$RATE_LIMIT,"burst":$RATE_LIMIT}}}
JSON
cat > "$work/haproxy.cfg" <<CFG
global
  nbthread 1
  maxconn 4096
defaults
  mode http
  timeout connect 1s
  timeout client 15s
  timeout server 10s
  option http-keep-alive
frontend tenants
  bind 127.0.0.1:$HAPROXY_PORT
  # the tenant is the path segment after /v1/tenants/, checked with the tenant-id rule
  http-request set-var(txn.tenant) path,field(4,/)
  http-request deny deny_status 400 unless { var(txn.tenant) -m reg ^[A-Za-z0-9][A-Za-z0-9._-]{0,62}\$ }
  stick-table type string len 64 size 10k expire 10s store http_req_rate(1s)
  http-request track-sc0 var(txn.tenant)
  http-request deny deny_status 429 if { sc_http_req_rate(0) gt $RATE_LIMIT }
  default_backend app
backend app
  http-reuse always
  server app 127.0.0.1:$APP_PORT
CFG
# the floor: bytes relayed between the client's connection and one to the app, nothing parsed
cat > "$work/relay.cfg" <<CFG
global
  nbthread 1
  maxconn 4096
defaults
  mode tcp
  timeout connect 1s
  timeout client 15s
  timeout server 15s
listen relay
  bind 127.0.0.1:$RELAY_PORT
  server app 127.0.0.1:$APP_PORT
CFG

cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.4f", ($14 + $15) / hz }' "/proc/$1/stat"; }
app_requests() { curl -s "http://127.0.0.1:$APP_PORT/metrics" | awk '/^saasbench_requests_total/ { n += $2 } END { print n + 0 }'; }
up() { curl -s -o /dev/null "http://127.0.0.1:$1/healthz"; }

start_app() {
  taskset -c "$APP_CPU" "$APP" --listen "127.0.0.1:$APP_PORT" --workers 1 --io-threads 1 \
    --tenants "$work/tenants.json" --data-dir "$work/data" 2>"$work/app.log" &
  app_pid=$!
  pids+=("$app_pid")
  eventually up "$APP_PORT" || { echo "saas-bench did not start" >&2; exit 1; }
}
# start_proxy MODE: sets proxy_pid (empty for direct) and port
start_proxy() {
  proxy_pid=
  case $1 in
    direct) port=$APP_PORT ;;
    gate)
      taskset -c "$APP_CPU" "$GATE" --listen "127.0.0.1:$GATE_PORT" --upstream "127.0.0.1:$APP_PORT" \
        --tenant-key path:/v1/tenants/ --tenants "$work/tenants.json" 2>"$work/gate.log" &
      proxy_pid=$!
      port=$GATE_PORT
      eventually up "$port" || { echo "isolato-gate did not start" >&2; exit 1; } ;;
    haproxy)
      taskset -c "$APP_CPU" haproxy -db -f "$work/haproxy.cfg" 2>"$work/haproxy.log" &
      proxy_pid=$!
      port=$HAPROXY_PORT
      eventually up "$port" || { echo "haproxy did not start" >&2; exit 1; } ;;
    relay)
      taskset -c "$APP_CPU" haproxy -db -f "$work/relay.cfg" 2>"$work/relay.log" &
      proxy_pid=$!
      port=$RELAY_PORT
      eventually up "$port" || { echo "haproxy (mode tcp) did not start" >&2; exit 1; } ;;
  esac
  [ -z "$proxy_pid" ] || pids+=("$proxy_pid")
}
stop() { kill "$1"; wait "$1" 2>/dev/null || true; }
load() {  # load PORT OUT ARGS...
  local port=$1 file=$2
  shift 2
  taskset -c "$LOAD_CPU" "$OPENLOOP" -url "http://127.0.0.1:$port" -class gate-overhead -tenants t1,t2 \
    -out "$file" "$@" >/dev/null
}

case $cmd in
  cutoff)
    start_app
    load "$APP_PORT" "$out/ramp.json" -start 500 -step 500 -steps "${STEPS:-14}" -requests 3000 -warmup 2s ;;
  run)
    rates=$3 repeat=$4
    start_app
    for mode in direct gate haproxy relay; do
      start_proxy "$mode"
      for rate in ${rates//,/ }; do
        a0=$(cpu_seconds "$app_pid") p0=0 n0=$(app_requests)
        [ -z "$proxy_pid" ] || p0=$(cpu_seconds "$proxy_pid")
        load "$port" "$out/$mode-$rate-$repeat.json" -rates "$rate" -requests "$REQUESTS" -warmup 2s
        a1=$(cpu_seconds "$app_pid") p1=0 n1=$(app_requests)
        [ -z "$proxy_pid" ] || p1=$(cpu_seconds "$proxy_pid")
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$rate" "$repeat" "$(echo "$a1 - $a0" | bc)" \
          "$(echo "$p1 - $p0" | bc)" "$((n1 - n0))" >> "$out/cpu.tsv"
      done
      [ -z "$proxy_pid" ] || stop "$proxy_pid"
    done ;;
  *) echo "usage: $0 cutoff|run OUT_DIR [RATES REPEAT]" >&2; exit 2 ;;
esac
