#!/usr/bin/env bash
# usage: flock /tmp/isolato-cluster.lock gatling/experiments/session.sh [VAR=value] NAME ...
# Runs experiments on an already running localkube with this session's own controller (own
# port and token, controller/test/lib.sh; stopped at the end), e.g. when the cluster is shared
# and `make run` is not up. Each NAME goes through the runner (runner.sh run NAME); VAR=value
# is exported for the NAMEs after it, e.g. REPLACE=1 REPLICAS=1 accuracy REPLICAS=2 accuracy;
# @model-accuracy runs `runner.sh model-accuracy` with the same API (@model-accuracy:DIR on the
# runs in DIR, e.g. results/model-accuracy-100m).
set -euo pipefail
LOG_TAG=session
source "$(dirname "$0")/../../controller/test/lib.sh"
source "$(dirname "$0")/../test/lib.sh"
source "$(dirname "$0")/../test/own-controller.sh"
[ $# -gt 0 ] || die "usage: $0 [VAR=value] NAME|@model-accuracy ..."
trap 'stop_controller; rm -rf "$WORK"' EXIT
own_controller_up
for arg in "$@"; do
  case $arg in
    *=*) export "${arg?}"; log "$arg" ;;
    @*:*) arg=${arg#@}; log "runner ${arg%%:*} ${arg#*:}"; "$GATLING_DIR/experiments/runner.sh" "${arg%%:*}" "${arg#*:}" ;;
    @*) log "runner ${arg#@}"; "$GATLING_DIR/experiments/runner.sh" "${arg#@}" ;;
    *) log "experiment $arg"; "$GATLING_DIR/experiments/runner.sh" run "$arg" ;;
  esac
done
