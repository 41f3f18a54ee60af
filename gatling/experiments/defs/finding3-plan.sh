# finding3-plan: Finding 3's second half. In the 1:3 mix (1 gold tenant on a 400m pod, 3 bronze
# tenants) every tenant commits 18 req/s. One pod per bronze tenant (the linear rule, 3 pods)
# missed the target at exactly this rate in `MIX=1:3 finding3` (bronze p95 195 ms). Here the
# bronze class (1..6 pods of 100m) is first given that 1:3 run as its calibration, so Isolato
# plans the pods from what was measured in this mix; then one step of 1600 requests at 18 req/s
# per tenant checks the bronze tenants' p95. finish() stores the plan and the verdict.
CLASSES=(f3gold f3bronze)
CLASS_f3gold=$(class_body f3gold 400m 256Mi 1000 1 1 200)
CLASS_f3bronze=$(class_body f3bronze 100m 128Mi 100 1 6 24)
add_tenants f3gold 1 18 150
add_tenants f3bronze 3 18 150
SIMULATION=TenantMix
CALIBRATE=false
URL_PROPS=(goldBaseUrl=f3gold bronzeBaseUrl=f3bronze)
RESULTS_DIR=$REPO_ROOT/docs/results/finding3/plan-1-3
SIM_ARGS=(-Disolato.mix=1:3 -Disolato.goldClass=f3gold -Disolato.bronzeClass=f3bronze
  -Disolato.goldTenants=f3gold-t1 -Disolato.bronzeTenants=f3bronze-t1,f3bronze-t2,f3bronze-t3
  -Disolato.startRate=18 -Disolato.steps=1 -Disolato.requestsPerStep=1600 -Disolato.label=plan-1:3
  -Disolato.f3gold.context=podCpu=400m,replicas=1 -Disolato.f3bronze.context=podCpu=100m)
classes_created() {
  jq '.sloClass = "f3bronze"' "$REPO_ROOT/docs/results/finding3/mix-1-3/f3bronze.json" > "$WORK/cal.json"
  log "calibrating f3bronze with the 1:3 run (3 pods)"
  api POST /api/v1/calibrations "$WORK/cal.json" > /dev/null || die "calibration of f3bronze rejected"
}
finish() {
  api GET /api/v1/slo-classes/f3bronze/plan > "$RESULTS_DIR/f3bronze.plan.json"
  local ready
  ready=$(kubectl -n isolato-f3bronze get deployment saas-bench -o jsonpath='{.status.readyReplicas}')
  jq -n --slurpfile run "$RESULTS_DIR/f3bronze.json" --slurpfile plan "$RESULTS_DIR/f3bronze.plan.json" \
    --argjson ready "${ready:-0}" '($run[0].steps[0]) as $s | ($plan[0]) as $p |
    {readyReplicas: $ready, planReplicas: $p.plan.replicas, method: $p.plan.method,
     onePodPerTenant: 3, linearReplicas: $p.linearBaseline.replicas, perPodCutoffRps: $p.perPodCutoffRps,
     perTenantRps: 18, requests: $s.total.count, errors: $s.total.errors, p95Ms: $s.total.p95,
     worstTenantP95Ms: ([$s.tenants[].p95] | max), targetMs: $p.targetMs,
     violations: ([$s.tenants[] | select(.p95 > $p.targetMs or .errors > 0)] | length)}' \
    > "$RESULTS_DIR/f3bronze.verdict.json"
  log "verdict: $(jq -c . "$RESULTS_DIR/f3bronze.verdict.json")"
  delete_created
}
