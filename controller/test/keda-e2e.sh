#!/usr/bin/env bash
# End-to-end on localkube (reduced, ~2 min warm): with KEDA installed (localkube keda.enabled),
# a class's pool gets a ScaledObject instead of the CPU HPA, and a load step from 0.5× to 2.5×
# of one pod's cut-off × pivot makes KEDA add a replica from the rate (cut-off) trigger.
# The direct path is off here, so that the replica is KEDA's (scale-ups by the direct path are
# tested in the reaction-time benchmark and DirectScalerIT).
set -euo pipefail
LOG_TAG=keda-e2e
source "$(dirname "$0")/lib.sh"
OPENLOOP=$ROOT/build/openloop
CLASS=e2e-keda TENANT=t-keda NS=isolato-c-e2e-keda
# Declared cut-off 20 req/s per pod, pivot 70 %: KEDA holds each pod at 14 req/s. The latency
# target is loose (2 s), so the latency trigger stays quiet and the rate trigger decides.
CUTOFF=20 PIVOT=70
THRESHOLD=14
LOW=7 HIGH=35   # 0.5× and 2.5× of one pod's threshold
one_tenant_test

require_cluster
[ -x "$OPENLOOP" ] || die "$OPENLOOP missing (make openloop-build)"
kubectl get --raw /apis/external.metrics.k8s.io/v1beta1 >/dev/null 2>&1 \
  || die "KEDA's external metrics API is not served: is keda.enabled true in 'localkube config'?"
export ISOLATO_DIRECT_SCALING=false
start_controller

api POST /api/v1/slo-classes "$(printf '{"name":"%s","spec":{"latency":{"percentile":95,"targetMs":2000},"resources":{"cpu":"250m","memory":"64Mi"},"priority":100,"minReplicas":1,"maxReplicas":3,"pivotPercent":%s,"perPodCutoffRps":%s,"image":"%s"}}' \
  "$CLASS" "$PIVOT" "$CUTOFF" "$IMAGE")" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "class: HTTP $(status) $(cat "$WORK/body")"
api POST /api/v1/tenants "$(tenant_json $TENANT $CLASS 5)" >/dev/null; [[ $(status) =~ ^(201|409)$ ]] || die "tenant: $(status)"
wait_serving 120 $TENANT

# The pool's autoscaler is a ScaledObject on the cut-off, and Isolato wrote no CPU HPA.
so=$(kubectl -n $NS get scaledobject saas-bench -o json) || die "no ScaledObject in $NS (controller log: $WORK/controller.log)"
jq -e --arg t "$THRESHOLD" '.spec.minReplicaCount == 1 and .spec.maxReplicaCount == 3
  and (.spec.triggers[] | select(.name == "rate") | .metadata.threshold == $t and .metricType == "AverageValue")' <<< "$so" >/dev/null \
  || die "ScaledObject is not the cut-off one: $(jq -c .spec <<< "$so")"
kubectl -n $NS get hpa saas-bench >/dev/null 2>&1 && die "Isolato's CPU HPA exists next to the ScaledObject"
kubectl -n $NS wait --for=condition=Ready scaledobject/saas-bench --timeout=60s >/dev/null \
  || die "ScaledObject not Ready: $(kubectl -n $NS get scaledobject saas-bench -o jsonpath='{.status.conditions}')"
kubectl -n $NS get hpa keda-hpa-saas-bench >/dev/null || die "KEDA made no HPA"
log "ScaledObject Ready: rate trigger at $THRESHOLD req/s per pod ($CUTOFF × $PIVOT %), KEDA's HPA in place"

# The step: two open-loop streams add up, 0.5× from the start and 2× more from 10 s on
# (2.5× in all), held until a second replica exists (at most 130 s).
ip=$(service_ip $CLASS)
load() { # RATE SECONDS NAME
  "$OPENLOOP" -url "http://$ip:8080" -class $CLASS -tenants $TENANT -rates "$1" -warmup 0s \
    -requests $(($1 * $2)) -timeout 5s -out "$WORK/$3.json" 2>"$WORK/$3.log" &
  LOAD_PID="$LOAD_PID $!"
}
load $LOW 150 base
sleep 10
load $((HIGH - LOW)) 140 step
step_at=$(date +%s)
deadline=$((SECONDS + 140))
until [ "$(kubectl -n $NS get deploy saas-bench -o jsonpath='{.spec.replicas}')" -ge 2 ]; do
  [ $SECONDS -lt $deadline ] || {
    kubectl -n $NS get hpa keda-hpa-saas-bench -o jsonpath='{.status}' >&2; echo >&2
    die "no second replica within 130 s of the step"
  }
  sleep 0.5
done
added=$(( $(date +%s) - step_at ))
hpa=$(kubectl -n $NS get hpa keda-hpa-saas-bench -o json)
# The replica came from the rate trigger: KEDA's HPA reads it (s0), and the latency trigger
# (s1) is below its 2 s target, so it asked for no more pods than there were.
jq -e '[.status.currentMetrics[]? | select(.type == "External") | select(.external.metric.name | test("^s0-"))] | length > 0' \
  <<< "$hpa" >/dev/null || die "KEDA's HPA shows no rate metric: $(jq -c .status <<< "$hpa")"
jq -e '[.status.currentMetrics[]? | select(.type == "External") | select(.external.metric.name | test("^s1-"))
  | (.external.current.value // "0") | if endswith("m") then (.[:-1] | tonumber / 1000) else tonumber end] | all(. < 2)' \
  <<< "$hpa" >/dev/null || die "the latency trigger was above its target: $(jq -c .status <<< "$hpa")"
log "KEDA added a replica $added s after the step to $HIGH req/s (HPA: $(jq -c '[.status.currentMetrics[]?.external | {m: .metric.name, v: .current}]' <<< "$hpa"))"
log "PASS"
