#!/usr/bin/env bash
# The tuning loop on Isolato's own paths (docs/pipeline.md "Interfaces"), from localkube's and
# Isolato's defaults: N dedicated tenants onboarded at once, the class pool scaled 1 → 10, then
# a new class with a pool of 9 pods.
# Every setting is put back at the end. Appends both analyses to docs/benchmarks-log.md
# (path_tune_report.py); the JSON stays in docs/results/pipeline/, with a stage-breakdown plot
# beside each (pipeline_plot.py: stages, shares, and the kubelet's own step timings).
# Each iteration runs its shape REPEATS times and measures the median (the machine is noisy).
#   controller/bench/path-tune.sh [N MAX_CHANGES REPEATS]     defaults: 50 3 3
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
N=${1:-50} MAX=${2:-3} REPEATS=${3:-3}
OUT=$ROOT/docs/results/pipeline
load0=$(cut -d' ' -f1-3 /proc/loadavg)
"$ROOT/controller/bench/tune.sh" --path tenants --workloads "$N" --max-changes "$MAX" --repeats "$REPEATS" --timeout 300 \
  --restore --out "$OUT/path-tenants-$N.json"
"$ROOT/controller/bench/tune.sh" --path scale --pods 9 --max-changes "$MAX" --repeats "$REPEATS" --timeout 300 \
  --restore --out "$OUT/path-scale-9.json"
"$ROOT/controller/bench/tune.sh" --path class --pods 9 --max-changes "$MAX" --repeats "$REPEATS" --timeout 300 \
  --restore --out "$OUT/path-class-9.json"
machine="$(uname -n), $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
python3 "$ROOT/controller/bench/path_tune_report.py" "$machine" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" \
  "$OUT/path-tenants-$N.json" "$OUT/path-scale-9.json" "$OUT/path-class-9.json" | tee -a "$ROOT/docs/benchmarks-log.md"
source "$ROOT/gatling/experiments/venv.sh"
"$PY" "$ROOT/controller/bench/pipeline_plot.py" "$OUT/path-tenants-$N.json" "$OUT/path-scale-9.json" \
  "$OUT/path-class-9.json"
