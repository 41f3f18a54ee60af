#!/usr/bin/env bash
# `isolato-bench start-ab`: the controller's start, variants alternated in one run: the jar
# extracted as the image holds it (a thin jar + lib/), with the chart's JVM options (javaOptions)
# and its settings (CRDs installed by the chart, not the controller), started with
#   plain      no class-data sharing archive of the application
#   cds        an AppCDS archive of a training start to Spring's refresh
#   cds-c1     the same, JIT limited to the C1 compiler (-XX:TieredStopAtLevel=1)
#   cds-lazy   the same, Spring beans created on first use (spring.main.lazy-initialization)
#   aot        Spring AOT's bean definitions (-Dspring.aot.enabled=true)
#   cds-aot    both: an AppCDS archive of a training start with AOT on
#   cds-aot-c1 the same, C1 only (what the image runs)
# VARIANTS picks some; BASE_JAR (another build of the jar, e.g. before a change) adds its start
# as "<variant>@base" for each variant in BASE_VARIANTS (default cds-aot-c1): before/after in
# one run. Each start: launch → /readyz answers 200 (polled every 20 ms), and Spring's own
# "Started … in". Prints one TSV line per start: variant, run, ready s, Spring's s, RSS MiB.
# IMAGE_TAG: a controller image (controller/image, built by podman) adds the variant "image": it
# started by `podman run` on the host network, read-only, as the chart runs it.
# STEPS_DIR: each start also writes its Spring startup steps there (<variant>-<run>.json,
# isolato.startup-steps; `isolato-bench start-steps` reads them).
# The API server: a bare kube-apiserver + etcd of its own (bare-apiserver.sh, no cluster lock),
# or the running localkube with START_AB_CLUSTER=localkube.
set -euo pipefail
LOG_TAG="start-ab"
# ports of its own: other benchmarks' controllers may hold lib.sh's defaults
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ISOLATO_TEST_PORT=${ISOLATO_TEST_PORT:-$(free_port)}
ISOLATO_TEST_MANAGEMENT_PORT=${ISOLATO_TEST_MANAGEMENT_PORT:-$(free_port)}
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
BARE="$ROOT/bench/sh/bare-apiserver.sh"
cleanup() {
  stop_controller
  if [ -f "$WORK/bare/pids" ]; then "$BARE" down "$WORK/bare"; fi
}
on_exit cleanup
REPEATS=${REPEATS:-3}
if [ "${START_AB_CLUSTER:-bare}" = localkube ]; then
  require_cluster
else
  [ -f "$JAR" ] || die "$JAR missing (make controller-build)"
  KUBECONFIG=$("$BARE" up "$WORK/bare")
  export KUBECONFIG
fi
# the chart's CRDs, as `helm install` applies them (the controller runs with install-crds off)
kubectl apply --server-side --force-conflicts -f "$ROOT/helm/isolato/crds/" >/dev/null
kubectl wait --for=condition=Established --timeout=60s -f "$ROOT/helm/isolato/crds/" >/dev/null
CHART_OPTS=$(sed -n 's/^javaOptions: "\(.*\)"$/\1/p' "$ROOT/helm/isolato/values.yaml")
[ -n "$CHART_OPTS" ] || die "no javaOptions in helm/isolato/values.yaml"
export MALLOC_ARENA_MAX=2 ISOLATO_INSTALL_CRDS=false

# Extracts JAR into DIR and trains its archives there (controller/host/stage.sh): app.jsa, and
# app-aot.jsa when the jar holds Spring AOT's bean definitions. Prints "aot" when it does.
prepare() { # JAR DIR
  "$ROOT/controller/host/stage.sh" "$1" "$2"
  [ ! -f "$2/app-aot.jsa" ] || echo aot
}

# The JVM options of VARIANT with the jar extracted into DIR.
opts() { # VARIANT DIR
  local d=$2
  case $1 in
    plain) echo "" ;;
    cds) echo "-XX:SharedArchiveFile=$d/app.jsa" ;;
    cds-c1) echo "-XX:SharedArchiveFile=$d/app.jsa -XX:TieredStopAtLevel=1" ;;
    cds-lazy) echo "-XX:SharedArchiveFile=$d/app.jsa -Dspring.main.lazy-initialization=true" ;;
    aot) echo "-Dspring.aot.enabled=true" ;;
    cds-aot) echo "-XX:SharedArchiveFile=$d/app-aot.jsa -Dspring.aot.enabled=true" ;;
    cds-aot-c1) echo "-XX:SharedArchiveFile=$d/app-aot.jsa -Dspring.aot.enabled=true -XX:TieredStopAtLevel=1" ;;
    *) die "unknown variant $1" ;;
  esac
}

all="plain cds cds-c1 cds-lazy"
kind=$(prepare "$JAR" "$WORK/image")
if [ "$kind" = aot ]; then
  all="$all aot cds-aot cds-aot-c1"
else
  log "the jar has no AOT bean definitions (build it with -Paot): no aot variants"
fi
[ -z "${IMAGE_TAG:-}" ] || all="$all image"
variants=${VARIANTS:-$all}
if [ -n "${BASE_JAR:-}" ]; then
  kind=$(prepare "$BASE_JAR" "$WORK/base")
  for v in ${BASE_VARIANTS:-cds-aot-c1}; do variants="$variants $v@base"; done
fi
[ -z "${STEPS_DIR:-}" ] || mkdir -p "$STEPS_DIR"
# the image's files, readable by its user (65532)
mkdir -p "$WORK/kube"
cp "$KUBECONFIG" "$WORK/kube/kubeconfig"
cp "$WORK/token" "$WORK/kube/token"
chmod 755 "$WORK/kube" && chmod 644 "$WORK/kube/"*

launch() { # VARIANT: starts it in the background, its launcher's pid in CTL_PID
  local v=$1 dir=$WORK/image steps
  if [ "$v" = image ]; then
    # the launcher forwards SIGTERM to the container (stop_controller); --rm removes it
    # shellcheck disable=SC2086
    podman run --rm --name "start-ab-$$" --network host --read-only --tmpfs /tmp \
      -v "$WORK/kube:/kube:ro" -e ISOLATO_KUBECONFIG=/kube/kubeconfig -e ISOLATO_API_TOKEN_FILE=/kube/token \
      -e ISOLATO_PORT="$PORT" -e ISOLATO_MANAGEMENT_PORT="$MGMT_PORT" -e ISOLATO_INSTALL_CRDS=false \
      -e ISOLATO_CONTROLLER_CIDRS=10.250.0.1/32 -e ISOLATO_INGRESS_CIDRS=10.250.0.1/32 \
      -e JAVA_TOOL_OPTIONS="$CHART_OPTS" -e MALLOC_ARENA_MAX=2 "$IMAGE_TAG" >>"$WORK/controller.log" 2>&1 &
    CTL_PID=$!
    return
  fi
  [ "${v%@base}" = "$v" ] || dir=$WORK/base
  steps=${STEPS_DIR:+-Disolato.startup-steps=$STEPS_DIR/$v-$run.json}
  # shellcheck disable=SC2046,SC2086 # the options split on spaces
  (export_controller_env; exec java $CHART_OPTS $(opts "${v%@base}" "$dir") $steps -XX:-UsePerfData \
    -jar "$dir/isolato-controller.jar") >>"$WORK/controller.log" 2>&1 &
  CTL_PID=$!
}
# The JVM's resident memory in MiB (the image's: its container's main process).
rss_mib() { # VARIANT
  local pid=$CTL_PID
  [ "$1" != image ] || pid=$(podman inspect --format '{{.State.Pid}}' "start-ab-$$")
  awk '/^VmRSS:/ {printf "%.0f", $2/1024}' "/proc/$pid/status"
}

for run in $(seq "$REPEATS"); do
  for v in $variants; do
    : >"$WORK/controller.log"
    start=$(date +%s.%N)
    launch "$v"
    until curl -fs "$API/readyz" >/dev/null 2>&1; do
      kill -0 "$CTL_PID" 2>/dev/null || { tail -30 "$WORK/controller.log" >&2; die "$v exited"; }
      sleep 0.02
    done
    ready=$(echo "$(date +%s.%N) - $start" | bc)
    rss=$(rss_mib "$v")
    spring=$(grep -oE 'Started [A-Za-z]+ in [0-9.]+ seconds' "$WORK/controller.log" | grep -oE '[0-9.]+ seconds' | cut -d' ' -f1 || echo "")
    printf '%s\t%s\t%.3f\t%s\t%s\n' "$v" "$run" "$ready" "${spring:-?}" "$rss"
    stop_controller
  done
done
