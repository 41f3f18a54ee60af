#!/usr/bin/env bash
# End-to-end on localkube (reduced, ~2 min warm), issue 34's drift case: a class whose declared
# cut-off (300 req/s per pod) is far above what its 200m pod delivers here (≈ 50 req/s at
# profile cpu 150) is put under open-loop load through its Service. The verification loop reads
# the pool's rate and p95 from localkube's Prometheus and must say SloHeld=False within 60 s,
# lower the effective cut-off (the plan's replicas rise: the planner's floor, not the
# autoscaler's), and see p95 back under target (SloHeld=True again) while the load goes on.
set -euo pipefail
LOG_TAG="capacity-e2e"
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/prometheus.sh"
OPENLOOP=$ROOT/build/openloop
CLASS=e2e-drift TENANT=t-drift NS=isolato-c-e2e-drift
TARGET_MS=50 CUTOFF=300 MAX=4 COMMITTED=120 RATE=${CAPACITY_E2E_RATE:-90} SECONDS_LOAD=150
one_tenant_test

require_cluster
[ -x "$OPENLOOP" ] || die "$OPENLOOP missing (make openloop-build)"
prom_has 'vector(1)' || die "localkube's Prometheus does not answer at $PROM_URL (prometheus.enabled?)"
export ISOLATO_PROMETHEUS_URL=$PROM_URL
start_controller

api POST /api/v1/slo-classes "$(printf '{"name":"%s","spec":{"latency":{"percentile":95,"targetMs":%s},"resources":{"cpu":"200m","memory":"64Mi"},"priority":100,"minReplicas":1,"maxReplicas":%s,"pivotPercent":70,"perPodCutoffRps":%s,"admission":"off","image":"%s"}}' \
  "$CLASS" "$TARGET_MS" "$MAX" "$CUTOFF" "$IMAGE")" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "class: HTTP $(status) $(cat "$WORK/body")"
api POST /api/v1/tenants "$(printf '{"tenantId":"%s","sloClass":"%s","committedRps":%s,"profile":{"cpu":150,"memory":4,"io":0}}' $TENANT $CLASS $COMMITTED)" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "tenant: HTTP $(status) $(cat "$WORK/body")"
wait_serving 120 $TENANT

cls() { kubectl get sloclass $CLASS -o json; }
plan_replicas() { cls | jq -r '.status.plan.replicas // 0'; }
held() { cls | jq -r '.status.conditions[]? | select(.type == "SloHeld") | .status'; }
[ "$(plan_replicas)" = 1 ] || die "plan is not 1 replica before the load: $(cls | jq -c .status.plan)"

ip=$(service_ip $CLASS)
# A new connection per request, so that the Service spreads the load over the pods the plan
# adds (kept-alive connections stay pinned to the first pod, which then never recovers).
"$OPENLOOP" -url "http://$ip:8080" -class $CLASS -tenants $TENANT -rates "$RATE" -warmup 0s -connections per-request \
  -requests $((RATE * SECONDS_LOAD)) -timeout 5s -out "$WORK/load.json" 2>"$WORK/load.log" &
LOAD_PID=$!
start=$SECONDS
log "open-loop load: $RATE req/s on one 200m pod declared at $CUTOFF req/s"

until [ "$(held)" = False ]; do
  [ $((SECONDS - start)) -lt 60 ] || die "SloHeld not False within 60 s: $(cls | jq -c '.status.capacity')"
  sleep 1
done
lost=$((SECONDS - start))
log "SloHeld=False after $lost s: $(cls | jq -r '.status.conditions[] | select(.type == "SloHeld") | .message')"

until [ "$(plan_replicas)" -ge 2 ]; do
  [ $((SECONDS - start)) -lt 90 ] || die "plan replicas not raised within 90 s: $(cls | jq -c '{plan: .status.plan, capacity: .status.capacity}')"
  sleep 1
done
raised=$((SECONDS - start))
capacity=$(cls | jq -c '.status.capacity | {calibratedPerPodRps, effectivePerPodRps, live}')
log "plan raised to $(plan_replicas) replicas after $raised s: $capacity"
jq -e '.effectivePerPodRps < .calibratedPerPodRps' <<< "$capacity" >/dev/null || die "effective cut-off not lowered: $capacity"

until [ "$(held)" = True ]; do
  [ $((SECONDS - start)) -lt 140 ] || die "p95 not back under target within 140 s: $(cls | jq -c '.status.capacity')"
  sleep 1
done
back=$((SECONDS - start))
msg=$(cls | jq -r '.status.conditions[] | select(.type == "SloHeld") | .message')
log "SloHeld=True again after $back s (p95 back under target): $msg"
events=$(kubectl -n default get events --field-selector involvedObject.name=$CLASS -o json | jq -r '[.items[].reason] | unique | join(",")')
[[ $events == *CapacityLowered* && $events == *SloNotHeld* ]] || die "Events missing: $events"
log "Events: $events; deployment replicas $(kubectl -n $NS get deploy saas-bench -o jsonpath='{.spec.replicas}')"
log "RESULT lost=${lost}s raised=${raised}s back=${back}s rate=$RATE"
log "PASS"
