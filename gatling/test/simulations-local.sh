#!/usr/bin/env bash
# Runs every simulation (all four of gatling/src/test/java/.../simulations) for real (short, bounded) against a loopback stub service and
# checks the calibration JSON they write: counts, errors (429s of a throttled tenant), shape,
# that Ctrl-C keeps the complete steps of a run marked partial, and that every run follows the
# format's JSON schema. Then the open-loop referee sends the plans the Gatling module exports
# for AggressiveTenant, TenantMix and CoLocatedRamp (openloop -plan) to the same stubs: each
# tenant must get the same count per step from both instruments; and a provider's endpoint mix
# (isolato.requests, isolato.tenantHeader) must reach a stub as the same requests from both.
# No cluster needed.
set -euo pipefail
LOG_TAG=gatling-local
source "$(dirname "$0")/lib.sh"

OUT=$(mktemp -d)
STUB_PID=
RAMP_STUB_PID=
PROVIDER_PIDS=()
SIM_PID=
BG_PIDS=()
cleanup() {
  stop_group "$SIM_PID"
  for p in "${BG_PIDS[@]}"; do stop_group "$p"; done
  for p in "$STUB_PID" "$RAMP_STUB_PID" "${PROVIDER_PIDS[@]}"; do
    if [ -n "$p" ]; then { kill "$p" && wait "$p"; } 2>/dev/null || true; fi
  done
  if [ -n "${KEEP_OUT:-}" ]; then log "kept $OUT"; else rm -rf "$OUT"; fi
}
trap cleanup EXIT

check() { # check JQ-EXPR FILE MESSAGE
  jq -e "$1" "$2" >/dev/null || { jq . "$2" >&2; die "$3 ($1)"; }
  log "ok: $3"
}

# The ramp gets a stub of its own that records arrival times (the others share one).
start_stub --delay-ms 2 --arrivals "$OUT/ramp-arrivals.txt"
RAMP_STUB_PID=$STUB_PID RAMP_URL=$STUB_URL
# a provider's service, one stub per instrument, each writing down the requests it got
for i in gatling referee; do
  start_stub --delay-ms 1 --requests "$OUT/provider-$i.txt"
  PROVIDER_PIDS+=("$STUB_PID") PROVIDER_URLS+=("$STUB_URL")
done
start_stub --delay-ms 2 --reject t3 --arrivals "$OUT/arrivals.txt"
log "stub service at $STUB_URL (pid $STUB_PID)"

# The six short runs below are independent: started together, they share the JVM start-up
# time (the test stays near a minute on 2 cores); each is checked once all have ended.
# gatling:test forks a test-compile: compiled once here, the concurrent runs skip it (six
# compilers in one target/ race: a recompiling one empties target/classes under the others).
# The runtime classpath is the plan export's (the referee's part, below).
"${GATLING_MVN[@]}" test-compile dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$OUT/classpath"
(cd "$GATLING_DIR/openloop" && go build -trimpath -o "$OUT/openloop" .)
NO_COMPILE=(-Dmaven.main.skip=true -Dmaven.test.skip=true)
bg() { # bg NAME CLASS ARGS...: a background run logging to $OUT/NAME.log
  local name=$1 cls=$2; shift 2
  sim_start "$cls" "${NO_COMPILE[@]}" "$@" >"$OUT/$name.log" 2>&1
  BG_PIDS+=("$SIM_PID"); BG_NAMES+=("$name"); SIM_PID=
}
BG_NAMES=()
log "starting 6 runs: LinearRampCalibration (saas-bench's route, a provider's mix), AggressiveTenant, TenantMix, CoLocatedRamp, unreachable target"
declare -A RC
bg ramp LinearRampCalibration -Disolato.baseUrl="$RAMP_URL" -Disolato.sloClass=gold \
  -Disolato.tenants=t1,t2 -Disolato.startRate=20 -Disolato.rateStep=20 -Disolato.steps=3 \
  -Disolato.requestsPerStep=60 -Disolato.warmupSeconds=1 -Disolato.outputDir="$OUT/ramp" \
  -Disolato.runId=ramp-test -Disolato.context=replicas=1
# The ramp's achieved rates are checked, so it runs alone: beside the five others (ten JVMs on a
# host twice as slow per request) Gatling sent 13 of 20 req/s on time.
rc=0; wait "${BG_PIDS[0]}" || rc=$?
RC[ramp]=$rc BG_PIDS=() BG_NAMES=()
# the properties of the runs the referee repeats (the commas are inside values: lists)
# shellcheck disable=SC2054
AGGR=(-Disolato.baseUrl="$STUB_URL" -Disolato.sloClass=bronze -Disolato.tenants=t1,t2,t3
  -Disolato.committedRps=10 -Disolato.aggressiveTenant=t3 -Disolato.factors=1,3
  -Disolato.requestsPerStep=50 -Disolato.warmupSeconds=1 -Disolato.context=replicas=1)
MIX=(-Disolato.goldBaseUrl="$STUB_URL" -Disolato.bronzeBaseUrl="$STUB_URL" -Disolato.mix=1:2
  -Disolato.startRate=5 -Disolato.steps=2 -Disolato.requestsPerStep=30 -Disolato.warmupSeconds=1
  -Disolato.context=replicas=1)
# shellcheck disable=SC2054
COLOC=(-Disolato.classes=ca,cb -Disolato.ca.baseUrl="$STUB_URL" -Disolato.cb.baseUrl="$STUB_URL"
  -Disolato.ca.tenantCount=2 -Disolato.ca.startRate=10 -Disolato.ca.rateStep=10
  -Disolato.cb.startRate=5 -Disolato.steps=2 -Disolato.stepSeconds=2 -Disolato.warmupSeconds=1
  -Disolato.ca.context=replicas=1 -Disolato.cb.context=replicas=2)
# three GET /get to one POST /post per tenant, the tenant in X-Tenant (httpbin-alone's shape);
# no warm-up: a sixth JVM's 3,000 loopback requests starved the others' on 2 busy cores
# shellcheck disable=SC2054
PROVIDER=(-Disolato.sloClass=httpbin -Disolato.tenants=p1,p2 -Disolato.startRate=20
  -Disolato.steps=2 -Disolato.requestsPerStep=24 -Disolato.warmup=false
  -Disolato.requests=GET:/get*3,POST:/post -Disolato.tenantHeader=X-Tenant -Disolato.context=replicas=1)
bg provider LinearRampCalibration "${PROVIDER[@]}" -Disolato.baseUrl="${PROVIDER_URLS[0]}" \
  -Disolato.outputDir="$OUT/provider"
bg aggr AggressiveTenant "${AGGR[@]}" -Disolato.outputDir="$OUT/aggr"
bg mix TenantMix "${MIX[@]}" -Disolato.outputDir="$OUT/mix"
bg coloc CoLocatedRamp "${COLOC[@]}" -Disolato.outputDir="$OUT/coloc"
bg unreachable LinearRampCalibration -Disolato.baseUrl=http://127.0.0.1:9 \
  -Disolato.sloClass=gold -Disolato.startRate=5 -Disolato.steps=1 \
  -Disolato.outputDir="$OUT/unreachable"
for i in "${!BG_PIDS[@]}"; do
  rc=0; wait "${BG_PIDS[$i]}" || rc=$?
  RC[${BG_NAMES[$i]}]=$rc
done
BG_PIDS=()
for n in ramp provider aggr mix coloc; do
  [ "${RC[$n]}" = 0 ] || { cat "$OUT/$n.log" >&2; die "run $n failed (exit ${RC[$n]})"; }
done

R="$OUT/ramp/gold.json"
check '.schemaVersion == 1 and .partial == false and .runId == "ramp-test"' "$R" "complete run"
check '[.steps[].offeredRps] == [20, 40, 60]' "$R" "offered rates ramp"
check 'all(.steps[]; .total.count == 60 and .total.errors == 0)' "$R" "60 requests per step"
check 'all(.steps[]; .tenants.t1.count == 30 and .tenants.t2.count == 30)' "$R" "RR/T per tenant"
check 'all(.steps[]; .total.p50 >= 2 and .total.p50 <= .total.p95 and .total.p95 <= .total.max)' \
  "$R" "percentiles ordered and above the stub's 2 ms"
check 'all(.steps[]; .achievedRps > 0.8 * .offeredRps)' "$R" "achieved rate near offered"
# 20 warm-up + 3 x 60 requests, 50..17 ms apart; the 1.5 s step (60 at 40 req/s) must not be
# squeezed into 1 s, leaving a 0.5 s hole (Gatling's rampUsers truncates to whole seconds)
"$GATLING_DIR/test/arrival_gaps.py" "$OUT/ramp-arrivals.txt" --count 200 --max-gap-ms 300 \
  || die "the ramp's arrivals were not evenly spaced over each step"
log "ok: each step's arrivals spread over its whole planned duration"

A="$OUT/aggr/bronze.json"
check '.steps[1].tenants.t3.count == 30 and .steps[1].tenants.t3.errors == 30' "$A" \
  "aggressive tenant sent 3x and every request was a 429"
check 'all(.steps[]; .tenants.t1.errors == 0 and .tenants.t2.errors == 0)' "$A" \
  "abiding tenants unaffected"

check '.context.label == "mix-1:2" and (.steps | length) == 2 and .steps[0].total.count == 10' \
  "$OUT/mix/gold.json" "TenantMix 1:2, gold: 1 tenant's share of each step"
check '.steps[0].total.count == 20 and (.steps[0].tenants | keys) == ["bronze-1","bronze-2"]' \
  "$OUT/mix/bronze.json" "TenantMix 1:2, bronze: 2 tenants' share"

check '.context.label == "colocated" and .context.colocated == ["cb"] and [.steps[].total.count] == [20, 40] and all(.steps[]; .tenants["ca-t1"].count == .tenants["ca-t2"].count and .total.errors == 0)' \
  "$OUT/coloc/ca.json" "CoLocatedRamp, class ca: 2 tenants at 10 then 20 req/s for 2 s each"
check '.context.colocated == ["ca"] and [.steps[].total.count] == [10, 20] and all(.steps[]; .durationSeconds == 2)' \
  "$OUT/coloc/cb.json" "CoLocatedRamp, class cb: stepping with ca for the same seconds"

[ "${RC[unreachable]}" != 0 ] || die "a run against a closed port succeeded"
grep -q "target http://127.0.0.1:9 is unreachable" "$OUT/unreachable.log" \
  || { cat "$OUT/unreachable.log" >&2; die "no clear message for an unreachable target"; }
[ ! -e "$OUT/unreachable" ] || die "an unreachable run wrote results"
log "ok: unreachable target refused before any load"

log "referee: the same plans, exported by the Gatling module, sent by openloop -plan"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
CP="$GATLING_DIR/target/classes:$(cat "$OUT/classpath")"
referee() { # referee NAME SIMULATION PROPERTIES...: export the plan, send it; pid in BG_PIDS
  local name=$1 cls=$2; shift 2
  "$JAVA" "$@" -cp "$CP" dev.isolato.gatling.plan.PlanExport "$cls" >"$OUT/$name.plan.json" \
    || die "no plan exported for $cls"
  "$OUT/openloop" -plan "$OUT/$name.plan.json" -out-dir "$OUT/$name-referee" \
    -run-id "$name-referee" >"$OUT/$name-referee.log" 2>&1 &
  BG_PIDS+=($!)
}
referee aggr AggressiveTenant "${AGGR[@]}"
referee mix TenantMix "${MIX[@]}"
referee coloc CoLocatedRamp "${COLOC[@]}"
referee provider LinearRampCalibration "${PROVIDER[@]}" -Disolato.baseUrl="${PROVIDER_URLS[1]}"
for p in "${BG_PIDS[@]}"; do wait "$p" || die "a referee run failed (logs: $OUT/*-referee.log)"; done
BG_PIDS=()
counts='[.steps[] | [.index, (.tenants | map_values(.count))]]'
for run in aggr/bronze mix/gold mix/bronze coloc/ca coloc/cb provider/httpbin; do
  name=${run%/*} cls=${run#*/}
  g=$(jq -c "$counts" "$OUT/$run.json") o=$(jq -c "$counts" "$OUT/$name-referee/$cls.json")
  [ "$g" = "$o" ] || die "$run: Gatling sent $g, the referee $o (step, tenant counts)"
  jq -e --slurpfile g "$OUT/$run.json" '.context == $g[0].context and .partial == false' \
    "$OUT/$name-referee/$cls.json" >/dev/null || die "$run: the referee's context or partial differs"
  log "ok: $run: both instruments sent $o"
done
check '.steps[1].tenants.t3.errors == 30' "$OUT/aggr-referee/bronze.json" \
  "the referee's aggressive tenant got the stub's 429s too"
# the same requests, line for line once sorted: 12 per tenant and step, each tenant's in the
# cycle GET GET POST GET
g=$(sort "$OUT/provider-gatling.txt" | uniq -c | tr -s ' ' | paste -sd,)
o=$(sort "$OUT/provider-referee.txt" | uniq -c | tr -s ' ' | paste -sd,)
[ "$g" = "$o" ] || die "provider: Gatling sent $g, the referee $o (method path tenant)"
[ "$g" = " 18 GET /get p1, 18 GET /get p2, 6 POST /post p1, 6 POST /post p2" ] \
  || die "provider: not the mix 3:1 per tenant: $g"
log "ok: provider: both instruments sent the endpoint mix $g"

log "interrupt: 3 steps of ~4 s, stopped during step 2 as a runner's Ctrl-C does"
before=$(wc -l <"$OUT/arrivals.txt")
run_simulation LinearRampCalibration -Disolato.baseUrl="$STUB_URL" -Disolato.sloClass=gold \
  -Disolato.startRate=10 -Disolato.rateStep=0.5 -Disolato.steps=3 -Disolato.requestsPerStep=40 -Disolato.warmup=false \
  -Disolato.outputDir="$OUT/int" -Disolato.context=replicas=1 >"$OUT/int.log" 2>&1 &
RUNNER=$!
# into the second step: all 40 of step 0's requests and 5 of step 1's reached the stub (max 60 s)
arrived() { echo $(($(wc -l <"$OUT/arrivals.txt") - before)); }
for _ in $(seq 1 600); do
  [ "$(arrived)" -ge 45 ] && break
  sleep 0.1
done
[ "$(arrived)" -ge 45 ] || die "the interrupted run sent $(arrived) requests in 60 s, not 45"
pgid=$(ps -o pgid= -p "$(pgrep -P "$RUNNER" | head -1)" | tr -d ' ')
stop_group "$pgid"
wait "$RUNNER" || true
check '.partial == true and (.steps | length) == 1 and .steps[0].total.count == 40' \
  "$OUT/int/gold.json" "interrupted run kept its complete step, marked partial"
if pgrep -g "$pgid" >/dev/null; then die "processes left in group $pgid"; fi
log "ok: nothing left running"

source "$REPO_ROOT/gatling/experiments/venv.sh"
"$PY" "$REPO_ROOT/calibration-format/validate_runs.py" "$OUT"/{ramp,aggr,mix,coloc,int}/*.json \
  "$OUT"/*-referee/*.json \
  || die "a run does not follow docs/schemas/calibration-run.schema.json"
log "ok: every run written follows the calibration format's schema"
log "all simulation checks passed"
