#!/usr/bin/env bash
# localkube benchmark: time of `up` with cached binaries until the probe pod runs, and time for
# 100 pause pods of one Deployment to become Ready (with 10 pods as the in-run reference), for
# etcd on disk and on tmpfs. Prints the figures and writes them as a section of
# docs/benchmarks-log.md.
#   localkube/bench/bench.sh [REPEATS]     (default 3)
# Runs on its own state directory, purged first, so workloads left on the `make run` cluster
# cannot compete; stops a running `make run` cluster (its state kept) and leaves this one down.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
"$LK" down >/dev/null
export LOCALKUBE_HOME=/var/lib/localkube-bench
"$LK" down --purge >/dev/null
REPEATS=${1:-3}
# shellcheck source=../lib/build.sh
source "$ROOT/localkube/lib/build.sh"
kubectl() { "$LK_BIN_DIR/kubectl" --kubeconfig "$("$LK" kubeconfig)" "$@"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
stats() { sort -n | awk '{ v[NR] = $1 } END { printf "%.2f %.2f %.2f", v[1], v[int((NR + 1) / 2)], v[NR] }'; }
log() { printf '[bench] %s\n' "$*" >&2; }

# Seconds from creating a Deployment of N pause pods until N are Ready.
pods_ready_time() {
  local n=$1 t0
  kubectl create namespace lk-bench >/dev/null 2>&1 || true
  t0=$(now)
  sed "s/__REPLICAS__/$n/" "$ROOT/localkube/manifests/pause-deployment.yaml" | kubectl -n lk-bench apply -f - >/dev/null
  kubectl -n lk-bench wait deployment/pause --for=jsonpath='{.status.readyReplicas}'="$n" --timeout=300s >/dev/null
  since "$t0"
  kubectl -n lk-bench delete deployment pause --wait=true >/dev/null
  kubectl -n lk-bench wait pod -l app=pause --for=delete --timeout=300s >/dev/null 2>&1 || true
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A up_s p100_s p10_s
for storage in disk memory; do
  "$LK" config set etcd.storage "$storage" >/dev/null
  up_s[$storage]=""; p100_s[$storage]=""; p10_s[$storage]=""
  for i in $(seq 1 "$REPEATS"); do
    "$LK" down >/dev/null 2>&1
    log "etcd=$storage run $i/$REPEATS: up"
    t0=$(now); "$LK" up >/dev/null; t=$(since "$t0")
    up_s[$storage]+="$t "
    log "  up: ${t}s; 10 pods"
    p10_s[$storage]+="$(pods_ready_time 10) "
    log "  100 pods"
    t=$(pods_ready_time 100); p100_s[$storage]+="$t "
    log "  100 pods Ready: ${t}s"
  done
done
"$LK" down >/dev/null 2>&1
"$LK" config unset etcd.storage >/dev/null

machine="$(uname -n), $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
row() { # label values
  read -r mn md mx <<< "$(tr ' ' '\n' <<< "$2" | grep . | stats)"
  printf '| %s | %s | %s | %s |\n' "$1" "$mn" "$md" "$mx"
}
report=$(
  echo "## localkube — $(date -u +%Y-%m-%d) — $machine"
  echo
  echo "Kubernetes $LK_K8S_VERSION, default settings, $REPEATS runs each (seconds; min / median / max);"
  echo "load average at the start $load0, at the end $(cut -d' ' -f1-3 /proc/loadavg) (2 cores: above 2 means other work competed)."
  echo "Goals: \`up\` ≤ 45 s, 100 pods Ready ≤ 30 s (Columbo measured 19.2 s for 100 containers on 8 cores)."
  echo
  echo "| measurement | min | median | max |"
  echo "|---|---|---|---|"
  for storage in disk memory; do
    row "up until probe pod runs, etcd on $storage" "${up_s[$storage]}"
    row "10 pause pods Ready (reference), etcd on $storage" "${p10_s[$storage]}"
    row "100 pause pods Ready, etcd on $storage" "${p100_s[$storage]}"
  done
  md100=$(tr ' ' '\n' <<< "${p100_s[disk]}" | grep . | stats | awk '{ print $2 }')
  md10=$(tr ' ' '\n' <<< "${p10_s[disk]}" | grep . | stats | awk '{ print $2 }')
  mdmem=$(tr ' ' '\n' <<< "${p100_s[memory]}" | grep . | stats | awk '{ print $2 }')
  echo
  awk -v a="$md100" -v b="$md10" -v c="$mdmem" 'BEGIN {
    printf "Ratios (medians): 100 pods / 10 pods = %.1f× (linear would be 10×); etcd disk / tmpfs for 100 pods = %.2f×.\n", a / b, a / c }'
)
echo "$report"
"$ROOT/bench/isolato-bench" section localkube <<<"$report"
