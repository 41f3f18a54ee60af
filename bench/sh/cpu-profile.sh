#!/usr/bin/env bash
# Where the CPU goes while P pause pods (the tuning loop's pod) start at once on localkube (docs/pipeline.md "The CPU
# floor"): a second instrument beside the cgroup meter the tuning loop reads. Each run creates a
# Deployment of P pause pods in a namespace of its own with kubectl and times it to `kubectl
# rollout status`; `perf record -a` samples every CPU over exactly that window (enabled and
# disabled through its control FIFO), and /proc/stat and localkube's cpuacct cgroups are read at
# both ends. The namespace is then deleted and the node left to tear the pods down (its kubelet's
# working pods back to their count before the run) before the next run. Everything is left in
# WORK_DIR (rN.report, rN.before, rN.after, rN.seconds, and `runtime`: the node's OCI runtime);
# `isolato-bench cpu-profile` (isolato_bench/cpu_profile.py) groups the samples by process.
#   bench/sh/cpu-profile.sh PODS REPEATS WORK_DIR
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
[ $# -eq 3 ] || { echo "usage: $0 PODS REPEATS WORK_DIR" >&2; exit 2; }
PODS=$1 REPEATS=$2 WORK=$3
command -v perf >/dev/null || { echo "[cpu-profile] perf is missing: run 'make deps' (linux-perf)" >&2; exit 1; }
"$LK" status >/dev/null 2>&1 || "$LK" up
KUBECONFIG=$("$LK" kubeconfig)
export KUBECONFIG
NODE=$(kubectl get nodes -o jsonpath='{.items[0].metadata.name}')
CPUACCT=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuacct(,|$)/ { print $2; exit }' /proc/self/mounts)
[ -n "$CPUACCT" ] || { echo "[cpu-profile] no cgroup v1 cpuacct hierarchy: the meters cannot be read" >&2; exit 1; }
ns="" perf_pid=""
cleanup() {
  [ -z "$perf_pid" ] || kill -INT "$perf_pid" 2>/dev/null || true
  [ -z "$ns" ] || kubectl delete namespace "$ns" --wait=true --timeout=180s >/dev/null 2>&1 || true
  rm -f "$WORK"/r*.data "$WORK/ctl" "$WORK/ack"
}
trap cleanup EXIT

counters() {
  head -1 /proc/stat
  echo "control-plane $(cat "$CPUACCT/localkube/control-plane/cpuacct.usage")"
  echo "node $(cat "$CPUACCT/localkube/node/cpuacct.usage")"
  echo "kubepods $(cat "$CPUACCT/kubepods/cpuacct.usage")"
}
working_pods() {
  kubectl get --raw "/api/v1/nodes/$NODE/proxy/metrics" | awk '/^kubelet_working_pods/ { n += $2 } END { print n + 0 }'
}
perf_ctl() { # enable|disable, answered on the ack FIFO
  echo "$1" >&7
  timeout 10 head -c 4 <&8 >/dev/null || { echo "[cpu-profile] perf did not acknowledge '$1'" >&2; exit 1; }
}

stamp=$(date -u +%H%M%S)
for r in $(seq 1 "$REPEATS"); do
  ns="isolato-cpu-profile-$stamp-$r"
  base=$(working_pods)
  kubectl create namespace "$ns" >/dev/null
  kubectl label namespace "$ns" isolato.dev/benchmark=cpu-profile >/dev/null
  kubectl -n "$ns" wait --for=jsonpath='{.metadata.name}'=default serviceaccount/default --timeout=60s >/dev/null
  rm -f "$WORK/ctl" "$WORK/ack"
  mkfifo "$WORK/ctl" "$WORK/ack"
  perf record -a -F 99 -q -D -1 --control "fifo:$WORK/ctl,$WORK/ack" -o "$WORK/r$r.data" 2>"$WORK/r$r.perf.log" &
  perf_pid=$!
  exec 7<>"$WORK/ctl" 8<>"$WORK/ack"
  counters > "$WORK/r$r.before"
  perf_ctl enable
  start=$(date +%s%N)
  sed "s/__REPLICAS__/$PODS/" "$ROOT/localkube/manifests/pause-deployment.yaml" | kubectl -n "$ns" apply -f - >/dev/null
  kubectl -n "$ns" rollout status deployment/pause --timeout=300s >/dev/null
  end=$(date +%s%N)
  perf_ctl disable
  counters > "$WORK/r$r.after"
  kill -INT "$perf_pid"
  wait "$perf_pid" || true
  perf_pid=""
  exec 7>&- 8>&-
  echo "scale=3; ($end - $start) / 1000000000" | bc > "$WORK/r$r.seconds"
  perf report -i "$WORK/r$r.data" --sort comm --stdio -F sample,comm 2>/dev/null > "$WORK/r$r.report"
  echo "[cpu-profile] run $r/$REPEATS: $PODS pods Ready in $(cat "$WORK/r$r.seconds") s; tearing down" >&2
  kubectl delete namespace "$ns" --wait=true --timeout=180s >/dev/null
  ns=""
  for _ in $(seq 1 240); do [ "$(working_pods)" -le "$base" ] && break; sleep 0.5; done
  [ "$(working_pods)" -le "$base" ] || { echo "[cpu-profile] the node still tears pods down after 120 s" >&2; exit 1; }
done
"$LK" status | sed -n 's/^runtime: //p' > "$WORK/runtime"
