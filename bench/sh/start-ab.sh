#!/usr/bin/env bash
# `isolato-bench start-ab`: the controller's start, variants alternated in one run against
# localkube: the jar extracted as the image holds it (a thin jar + lib/), started with
#   plain   no class-data sharing archive of the application
#   cds     the AppCDS archive the image builds (a training start to Spring's refresh)
#   cds-c1  the same, JIT limited to the C1 compiler (-XX:TieredStopAtLevel=1)
#   cds-lazy the same, Spring beans created on first use (spring.main.lazy-initialization)
# Each: launch → /readyz answers 200 (polled every 20 ms), and Spring's own "Started … in"
# figure. Prints one TSV line per start: variant, run, ready s, Spring's s, RSS MiB at ready.
set -euo pipefail
LOG_TAG="start-ab"
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
trap stop_controller EXIT
require_cluster
REPEATS=${REPEATS:-3}
dir=$WORK/image
java -Djarmode=tools -jar "$JAR" extract --destination "$dir" >/dev/null
java -XX:ArchiveClassesAtExit="$dir/app.jsa" -Dspring.context.exit=onRefresh -Dlogging.level.root=warn \
  -jar "$dir/isolato-controller.jar" >"$WORK/training.log" 2>&1 || { cat "$WORK/training.log" >&2; die "training run failed"; }
declare -A OPTS=(
  [plain]=""
  [cds]="-XX:SharedArchiveFile=$dir/app.jsa"
  [cds-c1]="-XX:SharedArchiveFile=$dir/app.jsa -XX:TieredStopAtLevel=1"
  [cds-lazy]="-XX:SharedArchiveFile=$dir/app.jsa -Dspring.main.lazy-initialization=true"
)
for run in $(seq "$REPEATS"); do
  for v in plain cds cds-c1 cds-lazy; do
    : >"$WORK/controller.log"
    start=$(date +%s.%N)
    # shellcheck disable=SC2086 # the options split on spaces
    (export_controller_env; exec java ${OPTS[$v]} -XX:-UsePerfData -jar "$dir/isolato-controller.jar") >>"$WORK/controller.log" 2>&1 &
    CTL_PID=$!
    until curl -fs "$API/readyz" >/dev/null 2>&1; do
      kill -0 "$CTL_PID" 2>/dev/null || { tail -30 "$WORK/controller.log" >&2; die "$v exited"; }
      sleep 0.02
    done
    ready=$(echo "$(date +%s.%N) - $start" | bc)
    rss=$(awk '/^VmRSS:/ {printf "%.0f", $2/1024}' "/proc/$CTL_PID/status")
    spring=$(grep -oE 'Started [A-Za-z]+ in [0-9.]+ seconds' "$WORK/controller.log" | grep -oE '[0-9.]+ seconds' | cut -d' ' -f1 || echo "")
    printf '%s\t%s\t%.3f\t%s\t%s\n' "$v" "$run" "$ready" "${spring:-?}" "$rss"
    stop_controller
  done
done
