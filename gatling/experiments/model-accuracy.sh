#!/usr/bin/env bash
# usage: model-accuracy.sh (after `REPLICAS=N run.sh accuracy` for N = 1, 2, 3)
# Posts the measured runs at 1 and 2 replicas to one fresh class accfit (no tenants, no pods),
# then the run at 3 replicas; accuracy.py compares the cut-off the 1+2 fit predicts for 3
# replicas with the one measured. Needs the API (ISOLATO_API_URL, ISOLATO_API_TOKEN_FILE).
set -euo pipefail
LOG_TAG=accuracy
source "$(dirname "$0")/../test/lib.sh"
API=${ISOLATO_API_URL:-http://127.0.0.1:8080}
TOKEN=$(<"${ISOLATO_API_TOKEN_FILE:?}")
DIR=${RESULTS_DIR:-$REPO_ROOT/docs/results/model-accuracy}
call() { # METHOD PATH [BODY-FILE]
  curl -sS -f --max-time 60 --retry 2 --retry-all-errors -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    ${3:+--data-binary "@$3"} "$API$2"
}
call DELETE /api/v1/slo-classes/accfit >/dev/null 2>&1 || true
printf '%s' '{"name":"accfit","spec":{"latency":{"percentile":95,"targetMs":50},"resources":{"cpu":"200m","memory":"128Mi"},"minReplicas":1,"maxReplicas":3,"perPodCutoffRps":90}}' > "$DIR/accfit.class.json"
call POST /api/v1/slo-classes "$DIR/accfit.class.json" >/dev/null
for r in 1 2 3; do
  jq '.sloClass = "accfit"' "$DIR/replicas-$r/acc$r.json" > "$DIR/replicas-$r/accfit.json"
  log "posting the $r-replica run to accfit"
  call POST /api/v1/calibrations "$DIR/replicas-$r/accfit.json" > "$DIR/replicas-$r/acc.response.json"
  rm "$DIR/replicas-$r/accfit.json"
done
call GET /api/v1/slo-classes/accfit > "$DIR/accfit.status.json"
call DELETE /api/v1/slo-classes/accfit >/dev/null || true
source "$GATLING_DIR/experiments/venv.sh"
(cd "$GATLING_DIR/experiments" && "$PY" accuracy.py "$DIR")
