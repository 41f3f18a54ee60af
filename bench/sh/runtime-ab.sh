#!/usr/bin/env bash
# Debian's runc against localkube's pinned build (containerd.runc = built, localkube/lib/runc.sh)
# in one run on one machine: ROUNDS rounds, each profiling P pause pods started at once REPEATS
# times under one runtime, then under the other (`isolato-bench cpu-profile`), so a drift of this
# shared machine falls on both. Switching restarts only containerd. Each round's directory is
# listed in WORK_DIR/profiles (LABEL, ROUND, DIR, tab-separated); `isolato-bench runtime-ab`
# (isolato_bench/runtime_ab.py) compares them. The containerd.runc setting found at the start is
# put back at the end.
# Each round also starts LIMITED pods shaped like Isolato's (the same pause pod with a 10m CPU
# limit and the RuntimeDefault seccomp profile) under each runtime: kubectl times them to Ready and
# the pods' own cpuacct cgroups say how much CPU their start used inside the limit (runc init runs
# there, throttled to it).
#   WORK_DIR=DIR bench/sh/runtime-ab.sh PODS REPEATS ROUNDS LIMITED
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
PODS=$1 REPEATS=$2 ROUNDS=$3 LIMITED=$4
RUNTIMES=(/usr/sbin/runc built)
WORK=${WORK_DIR:?the directory the rounds are kept in}
default=$(awk -F' *= *' '$1 == "containerd.runc" { print $2 }' "$ROOT/localkube/config/defaults.conf")
previous=$("$LK" config | awk -F' *= *' '$1 == "containerd.runc" { print $2 }')
restore() {
  if [ "$previous" = "$default" ]; then "$LK" config unset containerd.runc >/dev/null; else "$LK" config set containerd.runc "$previous" >/dev/null; fi
  "$LK" up >/dev/null 2>&1 || echo "[runtime-ab] 'localkube up' failed while restoring containerd.runc = $previous" >&2
}
trap restore EXIT

KUBECONFIG=$("$LK" kubeconfig)
export KUBECONFIG
CPUACCT=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuacct(,|$)/ { print $2; exit }' /proc/self/mounts)
limited_manifest() {
  sed -e "s/__REPLICAS__/$LIMITED/" \
    -e 's/requests: {cpu: 1m, memory: 4Mi}/requests: {cpu: 10m, memory: 8Mi}, limits: {cpu: 10m, memory: 8Mi}/' \
    -e 's/^      automountServiceAccountToken: false$/&\n      securityContext: {seccompProfile: {type: RuntimeDefault}}/' \
    "$ROOT/localkube/manifests/pause-deployment.yaml"
}
limited_manifest | grep -q 'limits: {cpu: 10m' || { echo "[runtime-ab] the limited pod could not be derived from pause-deployment.yaml" >&2; exit 1; }
limited_run() { # → "seconds pod-cgroup-CPU-microseconds-per-pod"
  local ns="isolato-runtime-ab-$1" start end total=0 uid
  kubectl create namespace "$ns" >/dev/null
  kubectl label namespace "$ns" isolato.dev/benchmark=runtime-ab >/dev/null
  kubectl -n "$ns" wait --for=create serviceaccount/default --timeout=60s >/dev/null
  start=$(date +%s%N)
  limited_manifest | kubectl -n "$ns" apply -f - >/dev/null
  kubectl -n "$ns" rollout status deployment/pause --timeout=300s >/dev/null
  end=$(date +%s%N)
  for uid in $(kubectl -n "$ns" get pods -o jsonpath='{.items[*].metadata.uid}'); do
    total=$((total + $(cat "$CPUACCT/kubepods/pod$uid/cpuacct.usage")))
  done
  kubectl delete namespace "$ns" --wait=true --timeout=180s >/dev/null
  echo "$(echo "scale=3; ($end - $start) / 1000000000" | bc) $((total / LIMITED / 1000))"
}

for round in $(seq 1 "$ROUNDS"); do
  for rt in "${RUNTIMES[@]}"; do
    echo "[runtime-ab] round $round/$ROUNDS: containerd.runc = $rt, $REPEATS runs of $PODS pods" >&2
    "$LK" config set containerd.runc "$rt" >/dev/null
    "$LK" up >/dev/null
    label=$("$LK" status | sed -n 's/^runtime: //p')
    dir="$WORK/$round-${rt//\//_}"
    "${PY:?run through bench/isolato-bench}" -m isolato_bench cpu-profile "$PODS" "$REPEATS" "$dir" >/dev/null
    limited_run "$round-$(date +%s)" > "$dir/limited.txt"
    echo "[runtime-ab] $LIMITED limited pods Ready in $(cut -d' ' -f1 "$dir/limited.txt") s" >&2
    printf '%s\t%s\t%s\n' "$label" "$round" "$dir" >> "$WORK/profiles"
  done
done
