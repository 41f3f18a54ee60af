#!/usr/bin/env bash
# `isolato-bench burst-check` (make test-burst-e2e): the controller on the host against localkube,
# a burst of BURST_TENANTS (default 1000) tenants plus 20 % repeated POSTs at concurrency 50 into
# one class; isolato_bench/onboarding.py --check asserts exactness and every tenant Serving.
set -euo pipefail
LOG_TAG="burst-check"
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
on_exit stop_controller
require_cluster
start_controller
export API METRICS TOKEN KUBECONFIG
"${PY:?run through bench/isolato-bench}" -m isolato_bench.onboarding --check "${BURST_TENANTS:-1000}"
