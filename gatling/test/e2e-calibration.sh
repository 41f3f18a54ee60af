#!/usr/bin/env bash
# End-to-end check of the calibration loop on localkube with Isolato running (`make run`):
# the `smoke` experiment's simulation -> calibration JSON -> POST /api/v1/calibrations ->
# the SloClass status carries a measured cut-off. Results go to a temporary directory.
set -euo pipefail
LOG_TAG=gatling-e2e
source "$(dirname "$0")/lib.sh"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
RESULTS_DIR="$OUT" "$GATLING_DIR/experiments/run.sh" smoke
jq -e '.partial == false and (.steps | length) == 4' "$OUT/e2egold.json" >/dev/null \
  || die "the smoke run is incomplete: $(jq -c '{partial, steps: (.steps | length)}' "$OUT/e2egold.json")"
jq -e '(.status.cutoffs | length) > 0 and all(.status.cutoffs[]; .rps > 0)' \
  "$OUT/e2egold.status.json" >/dev/null \
  || die "SloClass e2egold has no cut-off after the calibration: $(jq -c .status "$OUT/e2egold.status.json")"
log "ok: SloClass e2egold cut-off $(jq -c '[.status.cutoffs[].rps]' "$OUT/e2egold.status.json") req/s"
[ -s "$OUT/p95-vs-rate.png" ] || die "no plot drawn"
log "ok: plot drawn"
