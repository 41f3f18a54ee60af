#!/usr/bin/env bash
# usage: gatling/experiments/run.sh NAME
# Runs the experiment defined in gatling/experiments/defs/NAME.sh on localkube through
# Isolato's REST API: creates its SLO classes and tenants, waits until every tenant is served,
# runs the Gatling simulation against the class Services (ClusterIPs, reachable from the host),
# posts the calibration runs to /api/v1/calibrations, prints cut-offs, fit and plan, and stores
# everything with plots under docs/results/NAME/ (RESULTS_DIR overrides).
# Environment: ISOLATO_API_URL (default http://127.0.0.1:8080), ISOLATO_API_TOKEN or
# ISOLATO_API_TOKEN_FILE (bearer token), KUBECONFIG (default: localkube's), READY_TIMEOUT (s).
# Ctrl-C stops the load, keeps the complete steps as "partial": true, leaves nothing running.
set -euo pipefail
LOG_TAG=experiment
source "$(dirname "$0")/../test/lib.sh"

NAME=${1:-}
DEF="$GATLING_DIR/experiments/defs/$NAME.sh"
[ -n "$NAME" ] && [ -f "$DEF" ] || die "usage: $0 NAME, NAME one of: $(cd "$GATLING_DIR/experiments/defs" && ls | sed 's/\.sh$//' | tr '\n' ' ')"
API=${ISOLATO_API_URL:-http://127.0.0.1:8080}
TOKEN=${ISOLATO_API_TOKEN:-}
if [ -z "$TOKEN" ] && [ -n "${ISOLATO_API_TOKEN_FILE:-}" ]; then TOKEN=$(<"$ISOLATO_API_TOKEN_FILE"); fi
[ -n "$TOKEN" ] || die "no API token: set ISOLATO_API_TOKEN or ISOLATO_API_TOKEN_FILE"
export KUBECONFIG=${KUBECONFIG:-$("$REPO_ROOT/localkube/localkube" kubeconfig)}
READY_TIMEOUT=${READY_TIMEOUT:-240}
RESULTS_DIR=${RESULTS_DIR:-$REPO_ROOT/docs/results/$NAME}
RUN_ID="$NAME-$(date -u +%Y%m%dT%H%M%SZ)"
WORK=$(mktemp -d)
SIM_PID=

# Defaults a definition may override; see defs/*.sh.
# CALIBRATE=false: the runs are not posted to /api/v1/calibrations (e.g. an aggressive-tenant run,
# whose 429s say nothing about the class's capacity).
CLASSES=() ; TENANTS=() ; URL_PROPS=() ; SIM_ARGS=() ; SIMULATION=LinearRampCalibration ; CALIBRATE=true
add_tenants() { # add_tenants CLASS COUNT COMMITTED_RPS PROFILE: tenants CLASS-t1..tN
  # PROFILE: CPU units (a number) or a profile object, e.g. '{"cpu":0,"memory":4000,"io":0}'
  local i profile=$4
  [[ $profile =~ ^[0-9]+$ ]] && profile="{\"cpu\":$profile,\"memory\":0,\"io\":0}"
  for i in $(seq 1 "$2"); do
    TENANTS+=("{\"tenantId\":\"$1-t$i\",\"sloClass\":\"$1\",\"committedRps\":$3,\"profile\":$profile}")
  done
}
class_body() { # class_body NAME CPU MEMORY PRIORITY MIN MAX CUTOFF [ADMISSION]: a class body, p95 <= 50 ms
  jq -nc --arg n "$1" --arg cpu "$2" --arg mem "$3" --argjson pr "$4" --argjson min "$5" \
    --argjson max "$6" --argjson cut "$7" --arg adm "${8:-}" \
    '{name: $n, spec: ({latency: {percentile: 95, targetMs: 50}, resources: {cpu: $cpu, memory: $mem},
      priority: $pr, minReplicas: $min, maxReplicas: $max, perPodCutoffRps: $cut}
      + (if $adm == "" then {} else {admission: $adm} end))}'
}
delete_created() { # for a definition's finish(): delete its tenants, then its classes (frees the node)
  local t c ids=()
  for t in "${TENANTS[@]}"; do ids+=("$(jq -r .tenantId <<<"$t")"); done
  for t in "${ids[@]}"; do api DELETE "/api/v1/tenants/$t" >/dev/null || true; done
  kubectl -n isolato-system wait --for=delete --timeout=90s "${ids[@]/#/tenant/}" >/dev/null 2>&1 || true
  for c in "${CLASSES[@]}"; do api DELETE "/api/v1/slo-classes/$c" >/dev/null || true; done
}
source "$DEF"

cleanup() { stop_group "$SIM_PID"; rm -rf "$WORK"; }
interrupted() {
  log "interrupted: stopping the load"
  stop_group "$SIM_PID"; SIM_PID=
  save_results
  log "partial results (complete steps only, \"partial\": true) kept in $RESULTS_DIR"
  exit 130
}
trap cleanup EXIT
trap interrupted INT TERM

api() { # api METHOD PATH [BODY-FILE] -> body on stdout; fails with the problem+json on >= 400
  local method=$1 path=$2 data=${3:-} code
  # Bounded, with a retry: once, a request's bytes sat unread on the controller's socket for
  # minutes (other requests were answered); a calibration posted twice stores the same run.
  local args=(-sS --max-time 60 --retry 2 --retry-all-errors -o "$WORK/resp" -w '%{http_code}' -X "$method" -H "Authorization: Bearer $TOKEN"
    -H 'Accept: application/json')
  [ -n "$data" ] && args+=(-H 'Content-Type: application/json' --data-binary "@$data")
  code=$(curl "${args[@]}" "$API$path") \
    || { log "error: Isolato API at $API is unreachable (is 'make run' up?)"; return 2; }
  if [ "$code" -ge 400 ]; then
    printf '%s %s -> HTTP %s\n' "$method" "$path" "$code" >&2; cat "$WORK/resp" >&2; echo >&2
    return 1
  fi
  cat "$WORK/resp"
}

create() { # create COLLECTION JSON: POST, or accept an existing object (409) as it is
  local id; id=$(jq -r '.name // .tenantId' <<<"$2")
  if api GET "/api/v1/$1/$id" >/dev/null 2>&1; then log "  already exists: $id"; return 0; fi
  printf '%s' "$2" > "$WORK/body"
  api POST "/api/v1/$1" "$WORK/body" >/dev/null 2>"$WORK/err" && return 0
  grep -q 'HTTP 409' "$WORK/err" && { log "  already exists: $(jq -r '.name // .tenantId' <<<"$2")"; return 0; }
  cat "$WORK/err" >&2; die "could not create $1: $(jq -c . <<<"$2")"
}

service_url() { # the class Service's ClusterIP URL
  local ns="isolato-c-$1" ip
  ip=$(kubectl -n "$ns" get service saas-bench -o jsonpath='{.spec.clusterIP}' 2>/dev/null) \
    || die "class $1 has no Service saas-bench in namespace $ns"
  echo "http://$ip:8080"
}

wait_served() { # every tenant Serving (controller's status), then answering 2xx through its class Service
  local deadline=$((SECONDS + READY_TIMEOUT)) t id cls code url
  for t in "${TENANTS[@]}"; do
    id=$(jq -r .tenantId <<<"$t"); cls=$(jq -r .sloClass <<<"$t")
    log "waiting until tenant $id is Serving (max ${READY_TIMEOUT}s)"
    kubectl -n isolato-system wait --for=jsonpath='{.status.phase}'=Serving "tenant/$id" \
      --timeout="$((deadline > SECONDS ? deadline - SECONDS : 1))s" >/dev/null \
      || die "tenant $id not Serving after ${READY_TIMEOUT}s (class $cls has no ready pods? kubectl -n isolato-c-$cls get pods)"
    url=$(service_url "$cls")
    log "waiting until tenant $id answers at $url"
    until code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 -X POST -d '{}' \
        -H 'Content-Type: application/json' "$url/v1/tenants/$id/requests") && [ "${code:0:1}" = 2 ]; do
      [ "$SECONDS" -lt "$deadline" ] || die "tenant $id not served after ${READY_TIMEOUT}s (last HTTP $code)"
      sleep 1
    done
  done
}

save_results() {
  mkdir -p "$RESULTS_DIR"
  local f n=0
  for f in "$WORK"/out/*.json; do
    [ -e "$f" ] || continue
    cp "$f" "$RESULTS_DIR/"; n=$((n + 1))
  done
  [ "$n" -gt 0 ] || log "no calibration results were written"
}

curl -s -o /dev/null --max-time 5 "$API/" \
  || die "Isolato API at $API is unreachable (is 'make run' up? set ISOLATO_API_URL)"
log "experiment $NAME (run $RUN_ID): ${#CLASSES[@]} classes, ${#TENANTS[@]} tenants, $SIMULATION"
for c in "${CLASSES[@]}"; do
  body_var="CLASS_$c"; log "creating SLO class $c"; create slo-classes "${!body_var}"
done
# A definition may define classes_created(): run before any tenant is onboarded (e.g. post a
# calibration, so that admission and the plan start from measured cut-offs).
if declare -F classes_created >/dev/null; then classes_created; fi
for t in "${TENANTS[@]}"; do
  log "onboarding tenant $(jq -r .tenantId <<<"$t") into $(jq -r .sloClass <<<"$t")"
  create tenants "$t"
done
# A definition may define prepare(): run once the classes and tenants exist (e.g. pin replicas).
if declare -F prepare >/dev/null; then prepare; fi
wait_served

url_args=()
for p in "${URL_PROPS[@]}"; do url_args+=("-Disolato.${p%%=*}=$(service_url "${p#*=}")"); done
log "running $SIMULATION (bounded: planned duration + 15 s)"
run_simulation "$SIMULATION" "${url_args[@]}" "${SIM_ARGS[@]}" -Disolato.runId="$RUN_ID" \
  -Disolato.outputDir="$WORK/out" || die "the simulation failed (see its output above)"
save_results

for f in "$WORK"/out/*.json; do
  cls=$(jq -r .sloClass "$f")
  if [ "$CALIBRATE" = true ]; then
    log "posting the calibration of $cls to /api/v1/calibrations"
    api POST /api/v1/calibrations "$f" > "$RESULTS_DIR/$cls.response.json" \
      || die "the calibration of $cls was rejected"
  fi
  api GET "/api/v1/slo-classes/$cls" > "$RESULTS_DIR/$cls.status.json"
  [ "$CALIBRATE" = true ] || continue
  jq -r --arg c "$cls" '"class \($c): target p\(.spec.latency.percentile) <= \(.spec.latency.targetMs) ms",
    "  cut-offs: " + ([.status.cutoffs[]? | "\(.rps) req/s (\(.pods) pods, \(.context))"] | join(", ")),
    "  model:    " + ((.status.model // {}) | tostring),
    "  plan:     " + ((.status.plan // {}) | "\(.replicas) replicas for \(.committedRps) req/s committed (\(.method))")' \
    "$RESULTS_DIR/$cls.status.json"
done

# A definition may define finish(): run after the results are saved (e.g. delete its class).
if declare -F finish >/dev/null; then finish; fi

source "$GATLING_DIR/experiments/venv.sh"
"$PY" "$GATLING_DIR/experiments/plot.py" "$RESULTS_DIR"
log "results in $RESULTS_DIR"
