#!/usr/bin/env bash
# SLO engine benchmark (issue 5): JMH benchmarks from the controller's test classpath, results in
# OUT_DIR/jmh.json; `isolato-bench slo-engine` sets each goal beside a reference measured in the
# same run (slo_report.py) and exits 1 when a goal is missed.
# Usage: bench/sh/slo-bench.sh OUT_DIR   (env: FORKS=2 WARMUPS=3 ITERATIONS=5 SECONDS_PER_ITERATION=1)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
FORKS="${FORKS:-2}"
WARMUPS="${WARMUPS:-3}"
ITERATIONS="${ITERATIONS:-5}"
SECONDS_PER_ITERATION="${SECONDS_PER_ITERATION:-1}"
OUT=${1:?usage: $0 OUT_DIR}
mkdir -p "$OUT"

echo "[slo-bench] compiling the controller and its benchmarks (JMH annotation processing)"
# One reactor run (-am: the calibration-format module is resolved from its target/classes); the
# controller, last in the reactor, writes the classpath file last.
./mvnw -B -q --no-transfer-progress -pl controller -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$OUT/classpath.txt"
CP="controller/target/test-classes:controller/target/classes:$(cat "$OUT/classpath.txt")"

echo "[slo-bench] running JMH: $FORKS forks x $ITERATIONS iterations of ${SECONDS_PER_ITERATION}s (+$WARMUPS warm-up) per benchmark"
java -cp "$CP" org.openjdk.jmh.Main 'dev\.isolato\.slo\.bench\..*' \
  -f "$FORKS" -wi "$WARMUPS" -i "$ITERATIONS" -w "${SECONDS_PER_ITERATION}s" -r "${SECONDS_PER_ITERATION}s" \
  -rf json -rff "$OUT/jmh.json" | grep -E '^(# Benchmark:|# Fork|Iteration|Result|Benchmark|SloEngine)' || true
