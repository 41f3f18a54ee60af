#!/usr/bin/env bash
# `isolato-bench scale` : the controller on the host (JVM options: ISOLATO_JAVA_OPTS, e.g. an
# explicit heap) against localkube, TENANTS tenants in CLASSES classes; isolato_bench/onboarding.py
# --scale measures RSS, heap and table size and writes its section of $BENCHMARK_LOG.
set -euo pipefail
LOG_TAG="scale"
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
trap stop_controller EXIT
require_cluster
start_controller
export API METRICS TOKEN KUBECONFIG CTL_PID
"${PY:?run through bench/isolato-bench}" -m isolato_bench.onboarding --scale "${TENANTS:?}" "${CLASSES:?}" "${BENCHMARK_LOG:?}"
