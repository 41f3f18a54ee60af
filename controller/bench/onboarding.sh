#!/usr/bin/env bash
# Onboarding benchmark on localkube (controller on the host, saas-bench pods):
#  A) one tenant into an existing class, 50 times: API accepted → Serving (p50/p95);
#  B) the first tenant of a new class (namespace + pods created), 3 classes;
#  C) 100 tenants posted with concurrency 10 (one poller watches the tenant list): total time
#     to all Serving, API writes per tenant.
# Reference measured in the same run: the API's own accept time (POST → 201), so the ratios
# show what reconciliation and the table push add. Appends to docs/benchmarks-log.md (## Controller).
set -euo pipefail
LOG_TAG=bench
source "$(dirname "$0")/../test/lib.sh"
trap stop_controller EXIT
require_cluster
start_controller
export API METRICS TOKEN KUBECONFIG
python3 "$(dirname "$0")/onboarding.py" "$ROOT/docs/benchmarks-log.md"
