#!/usr/bin/env bash
# `isolato-bench start-ab`: the controller's start, variants alternated in one run against
# localkube: the jar extracted as the image holds it (a thin jar + lib/), started with
#   plain   no class-data sharing archive of the application
#   cds     the AppCDS archive the image builds (a training start to Spring's refresh)
#   cds-c1  the same, JIT limited to the C1 compiler (-XX:TieredStopAtLevel=1)
#   cds-lazy the same, Spring beans created on first use (spring.main.lazy-initialization)
#   aot     Spring AOT's bean definitions (the jar built with -Paot; -Dspring.aot.enabled=true)
#   cds-aot both: an AppCDS archive of a training start with AOT on (cds-aot-c1: and C1 only)
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
variants="plain cds cds-c1 cds-lazy"
unzip -l "$JAR" >"$WORK/jar.list"
if grep -q '__BeanDefinitions' "$WORK/jar.list"; then
  java -Dspring.aot.enabled=true -XX:ArchiveClassesAtExit="$dir/app-aot.jsa" -Dspring.context.exit=onRefresh \
    -Dlogging.level.root=warn -jar "$dir/isolato-controller.jar" >"$WORK/training-aot.log" 2>&1 \
    || { cat "$WORK/training-aot.log" >&2; die "AOT training run failed"; }
  variants="$variants aot cds-aot cds-aot-c1"
else
  log "the jar has no AOT bean definitions (build it with -Paot): no aot variants"
fi
declare -A OPTS=(
  [plain]=""
  [cds]="-XX:SharedArchiveFile=$dir/app.jsa"
  [cds-c1]="-XX:SharedArchiveFile=$dir/app.jsa -XX:TieredStopAtLevel=1"
  [cds-lazy]="-XX:SharedArchiveFile=$dir/app.jsa -Dspring.main.lazy-initialization=true"
  [aot]="-Dspring.aot.enabled=true"
  [cds-aot]="-XX:SharedArchiveFile=$dir/app-aot.jsa -Dspring.aot.enabled=true"
  [cds-aot-c1]="-XX:SharedArchiveFile=$dir/app-aot.jsa -Dspring.aot.enabled=true -XX:TieredStopAtLevel=1"
)
for run in $(seq "$REPEATS"); do
  for v in $variants; do
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
