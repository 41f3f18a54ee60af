#!/usr/bin/env bash
# `isolato-bench onboarding` (make bench-controller): starts the controller on the host against
# localkube and runs the measurements (isolato_bench/onboarding.py) with its API and token:
#  A) one tenant into an existing class, 50 times: API accepted → Serving (p50/p95);
#  B) the first tenant of a new class (namespace + pods created), 3 classes;
#  C) 100 tenants posted with concurrency 10 (one poller watches the tenant list): total time
#     to all Serving, API writes per tenant.
# Reference measured in the same run: the API's own accept time (POST → 201), so the ratios
# show what reconciliation and the table push add. Writes its section of $BENCHMARK_LOG.
set -euo pipefail
LOG_TAG=bench
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
on_exit stop_controller
require_cluster
# with PROFILE=DIR: JFR recordings of the sequential onboardings and the big burst go to DIR, and
# the reconcilers log each step (DEBUG) for `isolato-bench onboarding-stages`
if [ -n "${PROFILE:-}" ]; then
  mkdir -p "$PROFILE"
  export LOGGING_LEVEL_DEV_ISOLATO_POOL=DEBUG LOGGING_LEVEL_DEV_ISOLATO_TENANCY=DEBUG
fi
start_controller
export API METRICS TOKEN KUBECONFIG CTL_PID PROFILE
"${PY:?run through bench/isolato-bench}" -m isolato_bench.onboarding "${BENCHMARK_LOG:?}"
if [ -n "${PROFILE:-}" ]; then
  cp "$WORK/controller.log" "$PROFILE/controller.log"
fi
