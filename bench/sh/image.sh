#!/usr/bin/env bash
# The controller image on localkube: its size, and start-to-ready of a controller pod installed
# by the chart (1 replica), each variant 3 times:
#   cds          the image as shipped (AppCDS archive, no CPU limit)
#   no-cds       the same with class-data sharing off (-Xshare:off)
#   cds-cpu500m  the image as shipped under a 500m CPU limit
# and the leader hand-over of 2 replicas when the leader's pod is deleted (graceful: it
# releases the lease) and its JVM killed with SIGKILL (the lease must expire).
# What it measures is left in WORK_DIR (image_report.py says which files); `isolato-bench image`
# (make bench-controller-image) reports it. Needs a running localkube (run it under
# `flock /tmp/isolato-cluster.lock`).
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
WORK=${WORK_DIR:?the directory the measurements are kept in}
cleanup() { "$HELM" uninstall isolato -n $NS --wait >/dev/null 2>&1 || true; kubectl delete namespace $NS --wait=false >/dev/null 2>&1 || true; }
trap cleanup EXIT

log "building and loading the images"
load_images
echo "$CONTROLLER_IMAGE" > "$WORK/image"
podman image inspect "$CONTROLLER_IMAGE" --format '{{.Size}}' > "$WORK/size"
# Layers, newest first: the CDS training run, the extracted jar, the root filesystem.
podman history --format '{{.Size}}' "$CONTROLLER_IMAGE" > "$WORK/history"

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

log "helm install (1 replica)"
"$HELM" install isolato "$ROOT/helm/isolato" -n $NS --create-namespace --set replicas=1 --wait --timeout 3m >/dev/null
for variant in cds no-cds cds-cpu500m; do
  case $variant in
    no-cds) kubectl -n $NS set env deployment/isolato-controller JAVA_TOOL_OPTIONS=-Xshare:off >/dev/null ;;
    cds-cpu500m) kubectl -n $NS set env deployment/isolato-controller JAVA_TOOL_OPTIONS- >/dev/null
                 kubectl -n $NS set resources deployment/isolato-controller --limits=cpu=500m >/dev/null ;;
  esac
  wait_rollout
  : > "$WORK/$variant"
  for _ in $(seq "$RUNS"); do restart_once >> "$WORK/$variant"; done
  log "$variant: delete → Ready $(awk '{printf "%s ", $1}' "$WORK/$variant")s; JVM at Started $(awk '{printf "%s ", $2}' "$WORK/$variant")s"
done

log "leader hand-over with 2 replicas"
kubectl -n $NS patch deployment/isolato-controller --type=json \
  -p '[{"op":"remove","path":"/spec/template/spec/containers/0/resources/limits/cpu"}]' >/dev/null
"$HELM" upgrade isolato "$ROOT/helm/isolato" -n $NS --set replicas=2 --wait --timeout 3m >/dev/null
holder() { kubectl -n $NS get lease isolato-controller -o jsonpath='{.spec.holderIdentity}'; }
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
  log "$how: new leader after $(paste -sd' ' "$WORK/gap-$how") s"
done

