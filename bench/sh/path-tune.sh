#!/usr/bin/env bash
# The tuning loop on Isolato's own paths (docs/pipeline.md "Interfaces"), from localkube's and
# Isolato's defaults: N dedicated tenants onboarded at once, the class pool scaled 1 → 10, then
# a new class with a pool of 9 pods, their analyses written to the three files given.
# Every setting is put back at the end. `isolato-bench path-tune` reports both analyses
# (path_tune_report.py) and plots each (pipeline_plot.py: stages, shares, and the kubelet's own
# step timings). Each iteration runs its shape REPEATS times and measures the median (the machine
# is noisy).
#   bench/sh/path-tune.sh N MAX_CHANGES REPEATS TENANTS.json SCALE.json CLASS.json
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 6 ] || { echo "usage: $0 N MAX_CHANGES REPEATS TENANTS.json SCALE.json CLASS.json" >&2; exit 2; }
N=$1 MAX=$2 REPEATS=$3
"$ROOT/bench/sh/tune.sh" --path tenants --workloads "$N" --max-changes "$MAX" --repeats "$REPEATS" --timeout 300 \
  --restore --out "$4"
"$ROOT/bench/sh/tune.sh" --path scale --pods 9 --max-changes "$MAX" --repeats "$REPEATS" --timeout 300 \
  --restore --out "$5"
"$ROOT/bench/sh/tune.sh" --path class --pods 9 --max-changes "$MAX" --repeats "$REPEATS" --timeout 300 \
  --restore --out "$6"
