#!/usr/bin/env bash
# usage: flock /tmp/isolato-cluster.lock gatling/experiments/session.sh [VAR=value] NAME ...
# Runs experiments on an already running localkube with this session's own controller (own
# port and token, stopped at the end), e.g. when the cluster is shared and `make run` is not up.
# Each NAME goes through gatling/experiments/run.sh; results under docs/results/NAME/.
# VAR=value is exported for the NAMEs after it, e.g. REPLICAS=2 accuracy REPLICAS=3 accuracy;
# @script runs gatling/experiments/script with the same API (e.g. @model-accuracy.sh).
set -euo pipefail
LOG_TAG=session
source "$(dirname "$0")/../../controller/test/lib.sh"
source "$(dirname "$0")/../test/lib.sh"
source "$(dirname "$0")/../test/own-controller.sh"
[ $# -gt 0 ] || die "usage: $0 NAME [NAME...]"
trap 'stop_controller; rm -rf "$WORK"' EXIT
own_controller_up
for arg in "$@"; do
  case $arg in
    *=*) export "${arg?}"; log "$arg" ;;
    @*) log "script ${arg#@}"; "$GATLING_DIR/experiments/${arg#@}" ;;
    *) log "experiment $arg"; "$GATLING_DIR/experiments/run.sh" "$arg" ;;
  esac
done
