# verify: the planner's replica count for a mixed tenant set, checked by a run at the total
# committed rate. A fresh class of 200m pods (1..3 replicas) is first given the model-accuracy
# runs at 1 and 2 replicas as its calibration, so admission and the plan start from measured
# data; then four tenants commit 10, 20, 25 and 35 req/s (90 in total) and the controller sizes
# the pool. One step of 1600 requests (the paper's count) at 90 req/s, each tenant at its
# commitment, must keep every tenant's p95 within 50 ms without errors. finish() stores the
# plan with its linear baseline (verify.plan.json) and the verdict (verify.verdict.json) under
# docs/results/verify/$VERIFY_RUN (default latest).
# VERIFY_REPLICAS=N pins the pool to N replicas with admission off instead (e.g. the linear
# baseline's count: the same run then shows whether that count holds the SLO).
CLASSES=(verify)
if [ -n "${VERIFY_REPLICAS:-}" ]; then
  CLASS_verify=$(class_body verify 200m 128Mi 500 "$VERIFY_REPLICAS" "$VERIFY_REPLICAS" 90 off)
else
  CLASS_verify=$(class_body verify 200m 128Mi 500 1 3 90)
fi
COMMITTED=(10 20 25 35)
for i in "${!COMMITTED[@]}"; do
  TENANTS+=("{\"tenantId\":\"verify-t$((i + 1))\",\"sloClass\":\"verify\",\"committedRps\":${COMMITTED[$i]},\"profile\":{\"cpu\":150,\"memory\":0,\"io\":0}}")
done
SIMULATION=LinearRampCalibration
CALIBRATE=false
URL_PROPS=(baseUrl=verify)
RESULTS_DIR=$REPO_ROOT/docs/results/verify/${VERIFY_RUN:-latest}
SIM_ARGS=(-Disolato.sloClass=verify -Disolato.tenants=verify-t1,verify-t2,verify-t3,verify-t4
  "-Disolato.tenantShares=$(IFS=,; echo "${COMMITTED[*]}")" -Disolato.startRate=90 -Disolato.steps=1
  -Disolato.requestsPerStep=1600 -Disolato.label=verify -Disolato.context=podCpu=200m,podMemory=128Mi)
classes_created() {
  local r
  for r in 1 2; do
    jq '.sloClass = "verify"' "$REPO_ROOT/docs/results/model-accuracy/replicas-$r/acc$r.json" > "$WORK/cal$r.json"
    log "calibrating verify with the model-accuracy run at $r replicas"
    api POST /api/v1/calibrations "$WORK/cal$r.json" > /dev/null || die "calibration of verify rejected"
  done
}
finish() {
  api GET /api/v1/slo-classes/verify/plan > "$RESULTS_DIR/verify.plan.json"
  local replicas
  replicas=$(kubectl -n isolato-verify get deployment saas-bench -o jsonpath='{.status.readyReplicas}')
  jq -n --slurpfile run "$RESULTS_DIR/verify.json" --slurpfile plan "$RESULTS_DIR/verify.plan.json" \
    --argjson ready "${replicas:-0}" '
    ($run[0].steps[0]) as $s | ($plan[0]) as $p |
    {readyReplicas: $ready, planReplicas: $p.plan.replicas, method: $p.plan.method,
     linearReplicas: $p.linearBaseline.replicas, totalCommittedRps: $p.totalCommittedRps,
     achievedRps: $s.achievedRps, requests: $s.total.count, errors: $s.total.errors,
     p95Ms: $s.total.p95, worstTenantP95Ms: ([$s.tenants[].p95] | max), targetMs: $p.targetMs,
     violations: ([$s.tenants[] | select(.p95 > $p.targetMs or .errors > 0)] | length)}' \
    > "$RESULTS_DIR/verify.verdict.json"
  log "verdict: $(jq -c . "$RESULTS_DIR/verify.verdict.json")"
  delete_created
}
