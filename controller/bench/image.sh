#!/usr/bin/env bash
# The controller image on localkube: its size, and start-to-ready of a controller pod installed
# by the chart (1 replica), each variant 3 times:
#   cds          the image as shipped (AppCDS archive, no CPU limit)
#   no-cds       the same with class-data sharing off (-Xshare:off)
#   cds-cpu500m  the image as shipped under a 500m CPU limit
# and the leader hand-over of 2 replicas when the leader's pod is deleted (graceful: it
# releases the lease) and its JVM killed with SIGKILL (the lease must expire).
# Appends a dated section to docs/benchmarks-log.md (## Controller image). Needs a running
# localkube (run it under `flock /tmp/isolato-cluster.lock`; `make bench-controller-image`).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK=$ROOT/localkube/localkube
HELM=${HELM:?set HELM (helm/part.mk does)}
NS=isolato-bench
RUNS=${RUNS:-3}
source "$ROOT/helm/test/lib.sh"
log() { printf '[bench-image] %s\n' "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }
"$LK" status >/dev/null 2>&1 || die "localkube is not running"
KUBECONFIG=$("$LK" kubeconfig); export KUBECONFIG
SEL=app.kubernetes.io/name=isolato
WORK=$(mktemp -d)
cleanup() { "$HELM" uninstall isolato -n $NS --wait >/dev/null 2>&1 || true; kubectl delete namespace $NS --wait=false >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

log "building and loading the images"
load_images
size=$(podman image inspect "$CONTROLLER_IMAGE" --format '{{.Size}}')
# Layers, newest first: the CDS training run, the extracted jar, the root filesystem.
layers=$(podman history --format '{{.Size}}' "$CONTROLLER_IMAGE" | awk '$0 != "0 B" {
  split("CDS archive,app (extracted jar),JRE + libraries", what, ","); printf "%s%s %s", sep, what[++n], $0; sep = ", " }')

ready_pod() { kubectl -n $NS get pods -l $SEL -o jsonpath='{range .items[?(@.status.containerStatuses[0].ready==true)]}{.metadata.name} {.metadata.deletionTimestamp}{"\n"}{end}' | awk 'NF == 1 {print $1}'; }
# One pod left: the rollout's old pods are gone, not just unready.
settled() { [ "$(kubectl -n $NS get pods -l $SEL -o name | wc -l)" = 1 ] && [ -n "$(ready_pod)" ]; }
wait_rollout() { kubectl -n $NS rollout status deployment/isolato-controller --timeout=180s >/dev/null; }

# Deletes the single pod and prints: seconds from the delete to the new pod Ready, and the
# JVM's own "process running for" at Spring's Started line.
restart_once() {
  local old new t0 t1 jvm
  until settled; do sleep 0.2; done
  old=$(ready_pod)
  t0=$(date +%s.%N)
  kubectl -n $NS delete pod "$old" --wait=false >/dev/null
  until new=$(ready_pod | grep -vx "$old") && [ -n "$new" ]; do sleep 0.1; done
  t1=$(date +%s.%N)
  jvm=$(kubectl -n $NS logs "$new" | sed -n 's/.*Started IsolatoApplication in \([0-9.]*\) seconds (process running for \([0-9.]*\)).*/\2 \1/p')
  kubectl -n $NS wait --for=delete pod/"$old" --timeout=60s >/dev/null 2>&1 || true
  awk -v a="$t0" -v b="$t1" -v j="$jvm" 'BEGIN { printf "%.1f %s\n", b - a, j }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

log "helm install (1 replica)"
"$HELM" install isolato "$ROOT/helm/isolato" -n $NS --create-namespace --set replicas=1 --wait --timeout 3m >/dev/null
declare -A READY JVM SPRING
for variant in cds no-cds cds-cpu500m; do
  case $variant in
    no-cds) kubectl -n $NS set env deployment/isolato-controller JAVA_TOOL_OPTIONS=-Xshare:off >/dev/null ;;
    cds-cpu500m) kubectl -n $NS set env deployment/isolato-controller JAVA_TOOL_OPTIONS- >/dev/null
                 kubectl -n $NS set resources deployment/isolato-controller --limits=cpu=500m >/dev/null ;;
  esac
  wait_rollout
  : > "$WORK/$variant"
  for _ in $(seq "$RUNS"); do restart_once >> "$WORK/$variant"; done
  READY[$variant]=$(awk '{print $1}' "$WORK/$variant" | median)
  JVM[$variant]=$(awk '{print $2}' "$WORK/$variant" | median)
  SPRING[$variant]=$(awk '{print $3}' "$WORK/$variant" | median)
  log "$variant: delete → Ready $(awk '{printf "%s ", $1}' "$WORK/$variant")s; JVM at Started $(awk '{printf "%s ", $2}' "$WORK/$variant")s"
done

log "leader hand-over with 2 replicas"
kubectl -n $NS patch deployment/isolato-controller --type=json \
  -p '[{"op":"remove","path":"/spec/template/spec/containers/0/resources/limits/cpu"}]' >/dev/null
"$HELM" upgrade isolato "$ROOT/helm/isolato" -n $NS --set replicas=2 --wait --timeout 3m >/dev/null
holder() { kubectl -n $NS get lease isolato-controller -o jsonpath='{.spec.holderIdentity}'; }
declare -A GAP
for how in graceful crash; do
  : > "$WORK/gap-$how"
  for _ in $(seq "$RUNS"); do
    wait_rollout
    until was=$(holder) && [ -n "$was" ]; do sleep 0.2; done
    t0=$(date +%s.%N)
    if [ $how = graceful ]; then kubectl -n $NS delete pod "${was%-*}" --wait=false >/dev/null; else crash_controller_pod "${was%-*}"; fi
    until h=$(holder) && [ -n "$h" ] && [ "$h" != "$was" ]; do sleep 0.1; done
    awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' >> "$WORK/gap-$how"
  done
  GAP[$how]=$(median < "$WORK/gap-$how")
  log "$how: new leader after $(paste -sd' ' "$WORK/gap-$how") s"
done

{
  echo
  echo "## Controller image"
  echo
  echo "### $(date -u '+%Y-%m-%d %H:%M UTC') — $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1), localkube v1.34.4 (controller/bench/image.sh)"
  echo
  echo "Image \`$CONTROLLER_IMAGE\`: $(numfmt --to=si "$size")B uncompressed ($layers). FROM scratch: a jlink JRE"
  echo "(OpenJDK 17, $(grep -vc '^#' "$ROOT/controller/image/modules") modules), the 6 shared libraries it links, the extracted Spring Boot jar."
  echo
  echo "| variant | pod deleted → new pod Ready, median of $RUNS (s) | JVM start → Spring Started (s) | of which Spring's own start (s) | runs (s) |"
  echo "|---|---|---|---|---|"
  for v in cds no-cds cds-cpu500m; do
    echo "| $v | ${READY[$v]} | ${JVM[$v]} | ${SPRING[$v]} | $(awk '{printf "%s ", $1}' "$WORK/$v")|"
  done
  echo
  echo "Leader hand-over (2 replicas, lease 10 s / renew 8 s / retry 2 s), leader's pod deleted → the other replica holds the lease, median of $RUNS:"
  echo "pod deleted (the leader releases the lease) ${GAP[graceful]} s ($(paste -sd' ' "$WORK/gap-graceful")); JVM killed with SIGKILL (the lease expires) ${GAP[crash]} s ($(paste -sd' ' "$WORK/gap-crash"))."
} >> "$ROOT/docs/benchmarks-log.md"
log "appended to docs/benchmarks-log.md"
