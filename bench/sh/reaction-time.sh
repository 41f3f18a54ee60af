#!/usr/bin/env bash
# Reaction-time benchmark on localkube (issue 12, item 4): one class (200m pods, p95 target
# 50 ms, measured cut-off 48 req/s per pod, docs/benchmarks-log.md "Model accuracy"), one tenant
# sending an open-loop load that steps from 0.5× to 2.5× of one pod's cut-off (24 → 120 req/s)
# and holds it. Four autoscalers, one after the other in the same run and cluster:
#   hpa           the CPU HPA at the pivot (ISOLATO_AUTOSCALER=hpa)
#   keda-default  a ScaledObject with KEDA's default pollingInterval (30 s), a 1 min rate window
#   keda-tuned    the shipped ScaledObject settings with HPA sync 1 s and 1 s scrapes
#   direct        the controller's direct path (1 Hz pod scrapes) + the shipped ScaledObject
# Per variant: the Deployment's replicas over time (a watch, stamped on arrival) and every
# request's latency (openloop -samples), under OUT. `isolato-bench reaction-time` runs this (make
# bench-reaction-time, under the cluster lock, with `make run` stopped) with the load generator
# on its own CPU (gatling/experiments/pinned.py narrows the pods' cpuset), then
# gatling/experiments/reaction_time.py turns OUT into the table, the latency-over-time plot and
# docs/benchmarks-log.md's section.
set -euo pipefail
LOG_TAG=reaction
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
OPENLOOP=$ROOT/build/openloop
OUT=${OUT:-$ROOT/results/reaction-time}
VARIANTS=${VARIANTS:-hpa keda-default keda-tuned direct}
GEN_CPUS=${GEN_CPUS:-0}
CLASS=rt TENANT=rt-t NS=isolato-c-rt
CUTOFF=48 PIVOT=70 TARGET_MS=50 PROFILE=150
LOW=24 HIGH=120 LEAD=20 HOLD=${HOLD:-75}
WATCH_PID="" LOAD_PIDS=()
TUNED_KEYS="controller-manager.horizontal-pod-autoscaler-sync-period=1s prometheus.scrape-interval=1s"

untune() {
  local kv
  for kv in $TUNED_KEYS; do "$LOCALKUBE" config unset "${kv%%=*}" >/dev/null 2>&1 || true; done
}
cleanup() {
  if [ ${#LOAD_PIDS[@]} -gt 0 ]; then kill "${LOAD_PIDS[@]}" 2>/dev/null || true; fi
  if [ -n "$WATCH_PID" ]; then kill "$WATCH_PID" 2>/dev/null || true; fi
  delete_tenant_and_class "$TENANT" "$CLASS"
  stop_controller
  if [ -n "${TUNED:-}" ]; then untune; "$LOCALKUBE" up >/dev/null 2>&1 || true; fi
}
on_exit cleanup

require_cluster
[ -x "$OPENLOOP" ] || die "$OPENLOOP missing (make openloop-build)"
mkdir -p "$OUT"

variant_env() {
  case "$1" in
    hpa) echo "ISOLATO_AUTOSCALER=hpa ISOLATO_DIRECT_SCALING=false" ;;
    keda-default) echo "ISOLATO_AUTOSCALER=keda ISOLATO_DIRECT_SCALING=false ISOLATO_KEDA_POLLING_SECONDS=30 ISOLATO_KEDA_RATE_WINDOW_SECONDS=60" ;;
    keda-tuned) echo "ISOLATO_AUTOSCALER=keda ISOLATO_DIRECT_SCALING=false ISOLATO_KEDA_POLLING_SECONDS=1 ISOLATO_KEDA_RATE_WINDOW_SECONDS=5" ;;
    direct) echo "ISOLATO_AUTOSCALER=keda ISOLATO_DIRECT_SCALING=true" ;;
    *) die "unknown variant $1 (hpa keda-default keda-tuned direct)" ;;
  esac
}

# The autoscaler reads a value: the HPA's (Isolato's or KEDA's) first current metric exists.
autoscaler_reads() {
  local hpa=saas-bench
  [ "$1" = hpa ] || hpa=keda-hpa-saas-bench
  kubectl -n $NS get hpa $hpa -o json 2>/dev/null | jq -e '(.status.currentMetrics // []) | length > 0' >/dev/null
}

gone() { ! kubectl get namespace $NS >/dev/null 2>&1; }

run_variant() {
  local v=$1 dir=$OUT/$1 t_step
  rm -rf "$dir"; mkdir -p "$dir"
  if [ "$v" = keda-tuned ]; then
    local kv
    for kv in $TUNED_KEYS; do "$LOCALKUBE" config set "${kv%%=*}" "${kv#*=}" >/dev/null; done
    TUNED=1; "$LOCALKUBE" up >&2
  fi
  unset ISOLATO_KEDA_POLLING_SECONDS ISOLATO_KEDA_RATE_WINDOW_SECONDS
  # shellcheck disable=SC2046
  export $(variant_env "$v")
  start_controller
  api POST /api/v1/slo-classes "$(printf '{"name":"%s","spec":{"latency":{"percentile":95,"targetMs":%s},"resources":{"cpu":"200m","memory":"128Mi"},"priority":500,"minReplicas":1,"maxReplicas":4,"pivotPercent":%s,"perPodCutoffRps":%s,"admission":"off","image":"%s"}}' \
    $CLASS $TARGET_MS $PIVOT $CUTOFF "$IMAGE")" >/dev/null
  [ "$(status)" = 201 ] || die "class: HTTP $(status) $(cat "$WORK/body")"
  api POST /api/v1/tenants "$(printf '{"tenantId":"%s","sloClass":"%s","committedRps":%s,"profile":{"cpu":%s,"memory":4,"io":0}}' $TENANT $CLASS $LOW $PROFILE)" >/dev/null
  [ "$(status)" = 201 ] || die "tenant: HTTP $(status)"
  wait_serving 120 $TENANT
  local ip; ip=$(service_ip $CLASS)
  load() { # RATE SECONDS NAME
    taskset -c "$GEN_CPUS" "$OPENLOOP" -url "http://$ip:8080" -class $CLASS -tenants $TENANT -rates "$1" -warmup 0s \
      -requests $(($1 * $2)) -timeout 10s -samples "$dir/$3.csv" -out "$WORK/$3.json" 2>"$dir/$3.log" &
    LOAD_PIDS+=("$!")
  }
  # the base load first, until the autoscaler reads a metric (metrics-server and Prometheus need
  # a few scrapes): only then is the step a test of reaction, not of start-up
  load $LOW $((LEAD + HOLD + 120 + 420)) base
  local deadline=$((SECONDS + 120))
  until autoscaler_reads "$v"; do
    [ $SECONDS -lt $deadline ] || die "$v: the autoscaler read no metric within 120 s"
    sleep 1
  done
  # the step starts from the planned single pod: an autoscaler that scaled up on its start-up
  # reading (KEDA's default 1 min window holds the first slow requests) must come back first
  # (KEDA's default cooldown is 300 s)
  deadline=$((SECONDS + 420))
  until [ "$(kubectl -n $NS get deploy saas-bench -o jsonpath='{.status.readyReplicas}')" = 1 ] \
    && [ "$(kubectl -n $NS get deploy saas-bench -o jsonpath='{.spec.replicas}')" = 1 ]; do
    [ $SECONDS -lt $deadline ] || die "$v: the pool did not come back to 1 pod within 420 s"
    sleep 1
  done
  log "$v: base load on 1 pod after $((SECONDS + 420 - deadline)) s"
  sleep "$LEAD"
  kubectl -n $NS get deploy saas-bench -w --output-watch-events -o jsonpath='{.object.spec.replicas} {.object.status.readyReplicas}{"\n"}' \
    | while read -r spec ready; do echo "$(date +%s%3N) $spec ${ready:-0}"; done > "$dir/replicas.txt" &
  WATCH_PID=$!
  t_step=$(date +%s%3N)
  load $((HIGH - LOW)) "$HOLD" step
  local step_pid=${LOAD_PIDS[-1]}
  wait "$step_pid" || true
  kill "${LOAD_PIDS[@]}" 2>/dev/null || true; LOAD_PIDS=()
  kill "$WATCH_PID" 2>/dev/null || true; WATCH_PID=
  jq -n --arg v "$v" --argjson t "$t_step" --argjson low $LOW --argjson high $HIGH --argjson hold "$HOLD" \
    --argjson target $TARGET_MS --argjson cutoff $CUTOFF --argjson pivot $PIVOT --arg env "$(variant_env "$v")" \
    '{variant: $v, stepUnixMs: $t, lowRps: $low, highRps: $high, holdSeconds: $hold, targetMs: $target,
      cutoffRps: $cutoff, pivotPercent: $pivot, controllerEnv: $env}' > "$dir/meta.json"
  grep -E "direct path|ScaledObject|HPA" "$WORK/controller.log" > "$dir/controller.log" || true
  offboard_tenants $TENANT
  api DELETE "/api/v1/slo-classes/$CLASS" >/dev/null
  case "$(status)" in 20?) ;; *) die "class delete: HTTP $(status) $(cat "$WORK/body")" ;; esac
  local d=$((SECONDS + 120))
  until gone; do
    if [ $SECONDS -ge $d ]; then
      kubectl get namespace $NS -o jsonpath='{.status}' >&2; echo >&2
      kubectl -n $NS get all,scaledobjects -o wide >&2 || true
      tail -20 "$WORK/controller.log" >&2
      die "$NS not deleted in 120 s"
    fi
    sleep 1
  done
  stop_controller
  if [ "$v" = keda-tuned ]; then untune; "$LOCALKUBE" up >&2; TUNED=; fi
  log "$v done: $(wc -l < "$dir/replicas.txt") replica events, $(($(wc -l < "$dir/step.csv") - 1)) step requests"
}

for v in $VARIANTS; do run_variant "$v"; done
