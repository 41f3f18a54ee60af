#!/usr/bin/env bash
# End-to-end on localkube (reduced, ~2.5 min warm), issue 34 item 1: one real in-context
# calibration. A 200m class declared at 80 req/s per pod (what such a pod delivers here at
# profile cpu 150 is ≈ 50–60, docs/calibration.md) is calibrated through the API: a temporary
# replica out of the tenants' Service, ramped by the open-loop referee as a Job on its node. The
# stored cut-off must be plausible (between a fifth and twice the declared figure, and found,
# not "below the lowest step"), the generator's CPU and achieved rate recorded, the context
# named, the tenants' Service never route to the replica, a tenant served through the Service
# meanwhile get every answer, and nothing of the calibration stay (not even Terminating).
set -euo pipefail
LOG_TAG="calibration-e2e"
source "$(dirname "$0")/lib.sh"
OPENLOOP=$ROOT/build/openloop
OPENLOOP_IMAGE=localhost/isolato/openloop:dev
CLASS=e2e-incal TENANT=t-incal NS=isolato-c-e2e-incal
DECLARED=80 TARGET_MS=50
one_tenant_test

require_cluster
[ -x "$OPENLOOP" ] || die "$OPENLOOP missing (make openloop-build)"
ctx=$(make -s --no-print-directory -C "$ROOT" openloop-image | tail -1)
"$LOCALKUBE" load-image --build "$ctx" --tag "$OPENLOOP_IMAGE" >&2
# a short ramp: 7 steps in 40 s planned (the default budget is 60 s)
export ISOLATO_CALIBRATION_BUDGET=40s ISOLATO_CALIBRATION_GENERATORIMAGE=$OPENLOOP_IMAGE
start_controller

api POST /api/v1/slo-classes "$(printf '{"name":"%s","spec":{"latency":{"percentile":95,"targetMs":%s},"resources":{"cpu":"200m","memory":"64Mi"},"priority":100,"minReplicas":1,"maxReplicas":2,"pivotPercent":70,"perPodCutoffRps":%s,"image":"%s"}}' \
  "$CLASS" "$TARGET_MS" "$DECLARED" "$IMAGE")" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "class: HTTP $(status) $(cat "$WORK/body")"
api POST /api/v1/tenants "$(printf '{"tenantId":"%s","sloClass":"%s","committedRps":10,"profile":{"cpu":150,"memory":4,"io":0}}' $TENANT $CLASS)" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "tenant: HTTP $(status) $(cat "$WORK/body")"
wait_serving 120 $TENANT
kubectl -n $NS wait --for=condition=Available --timeout=60s deploy/saas-bench >/dev/null
ip=$(service_ip $CLASS)
# routed through the Service before the calibration starts: a refusal after it is the calibration's
[ "$(svc_post "http://$ip:8080/v1/tenants/$TENANT/requests")" = 200 ] || die "$TENANT is not served through the Service at $ip"
cls() { kubectl get sloclass $CLASS -o json; }
[ "$(cls | jq -r '.status.conditions[] | select(.type == "Calibrated") | .reason')" = Uncalibrated ] \
  || die "the class does not say Uncalibrated before: $(cls | jq -c .status.conditions)"

started=$(api POST /api/v1/slo-classes/$CLASS/calibrations)
[ "$(status)" = 202 ] || die "POST calibrations: HTTP $(status) $started"
id=$(jq -r .id <<< "$started")
log "calibration $id started: $(jq -r .message <<< "$started")"
start=$SECONDS

# a tenant served through the Service meanwhile (5 req/s): every request answered
"$OPENLOOP" -url "http://$ip:8080" -class $CLASS -tenants $TENANT -rates 5 -warmup 0s -requests 400 \
  -timeout 5s -out "$WORK/tenant.json" 2>"$WORK/tenant.log" &
LOAD_PID=$!

calib() { api GET /api/v1/slo-classes/$CLASS/calibrations/"$id"; }
phase=
while :; do
  now=$(calib)
  if [ "$(jq -r .phase <<< "$now")" != "$phase" ]; then
    phase=$(jq -r .phase <<< "$now")
    log "after $((SECONDS - start)) s: $phase — $(jq -r .message <<< "$now")"
  fi
  case $phase in Succeeded) break ;; Failed) die "calibration failed: $now" ;; esac
  [ $((SECONDS - start)) -lt 150 ] || die "calibration not done within 150 s: $now"
  if [ "$phase" = Running ]; then
    # the replica runs now: the Service's endpoints must never include it
    rip=$(kubectl -n $NS get pod "isolato-calibration-$id" -o jsonpath='{.status.podIP}' 2>/dev/null || true)
    eps=$(kubectl -n $NS get endpointslices -l kubernetes.io/service-name=saas-bench -o json | jq -r '[.items[].endpoints[]?.addresses[]] | join(",")')
    [ -z "$rip" ] || [[ ",$eps," != *",$rip,"* ]] || die "the Service routes to the calibration replica $rip ($eps)"
  fi
  sleep 2
done
took=$((SECONDS - start))
jq . <<< "$now" >&2
cutoff=$(jq -r '.perPodCutoffRps // 0' <<< "$now")
gen_cpu=$(jq -r '.generatorCpuPct // -1' <<< "$now")
achieved=$(jq -r '.achievedRps // 0' <<< "$now")
jq -e --argjson d $DECLARED '.perPodCutoffRps != null and .perPodCutoffRps >= $d / 5 and .perPodCutoffRps <= $d * 2' <<< "$now" >/dev/null \
  || die "implausible cut-off $cutoff req/s per pod for a 200m pod declared at $DECLARED"
jq -e '.generatorCpuPct > 0 and .achievedRps > 0 and (.node | length > 0) and (.context | startswith("in-context:"))' <<< "$now" >/dev/null \
  || die "generator CPU, achieved rate or context not recorded: $now"
# stored as the class's calibration: the measured figure, under the context it was measured in
c=$(cls)
jq -e --argjson x "$cutoff" '.status.perPodCutoffRps == $x' <<< "$c" >/dev/null \
  || die "status.perPodCutoffRps is not the calibration's: $(jq -c '.status | {perPodCutoffRps, cutoffs}' <<< "$c")"
[ "$(jq -r '.status.cutoffs[-1].context' <<< "$c")" = "$(jq -r .context <<< "$now")" ] || die "cut-off stored under another context"
kubectl get sloclass $CLASS -o wide >&2
# the ramp as stored: offered → achieved req/s, p95 ms, errors per step
jq -r '.status.calibrationRuns[-1].steps[] | "step \(.index): \(.offeredRps) → \(.achievedRps) req/s, p95 \(.total.p95) ms, errors \(.total.errors)/\(.total.count)"' <<< "$c" >&2
# doc-claim: docs/api.md: 200: its phase, steps (`rates`, `fineRates`), context, cut-off and the generator's CPU
# a second pass inside the ramp's bracket, when it was wider than 5 %: stored as one run with it
log "fine pass: $(jq -c '.fineRates // "none (the bracket was fine enough, or none)"' <<< "$now")"
steps=$(jq '(.rates | length) + ((.fineRates // []) | length)' <<< "$now")
jq -e --argjson n "$steps" '.status.calibrationRuns[-1].steps | length == $n' <<< "$c" >/dev/null \
  || die "the stored run does not hold the ramp's and the fine pass's $steps steps: $(jq -c '[.status.calibrationRuns[-1].steps[].offeredRps]' <<< "$c")"

wait "$LOAD_PID" || true
LOAD_PID=
jq -e '[.steps[].total.errors] | add == 0' "$WORK/tenant.json" >/dev/null \
  || die "the tenant's requests through the Service failed during the calibration: $(jq -c '[.steps[].total]' "$WORK/tenant.json"); why: $(grep 'failed (first at' "$WORK/tenant.log" || echo unknown)"
tenant_p95=$(jq -r '.steps[0].total.p95' "$WORK/tenant.json")

# nothing of the calibration stays, not even Terminating
deadline=$((SECONDS + 30))
until [ -z "$(kubectl get pods,jobs,configmaps,networkpolicies -A -l isolato.dev/calibration="$id" -o name)" ]; do
  [ $SECONDS -lt $deadline ] || die "calibration objects left: $(kubectl get pods,jobs,configmaps,networkpolicies -A -l isolato.dev/calibration="$id" -o wide)"
  sleep 1
done
log "RESULT cutoff=${cutoff} req/s per pod (declared $DECLARED) generatorCpu=${gen_cpu}% achieved=${achieved} req/s took=${took}s node=$(jq -r .node <<< "$now") nodeBusy=$(jq -r .nodeBusyPct <<< "$now")% cpu=\"$(jq -r .cpuModel <<< "$now")\" tenantP95=${tenant_p95}ms"
log "PASS"
