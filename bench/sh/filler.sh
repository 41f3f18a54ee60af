#!/usr/bin/env bash
# Vertical headroom benchmark on localkube (issue 12 item 6, SAC'20 Finding 5): one class pod
# of 200m with 800m of headroom (limit 1 core, the pods' CPU), one tenant sending a fixed
# open-loop load at 0.5× and 0.9× of the pod's cut-off (48 req/s at 200m, profile cpu 150:
# docs/benchmarks-log.md "Model accuracy"), with and without the filler (limit 800m, 10m request).
# Repeated REPS times, the filler's order alternating. Per run: every request's latency
# (openloop -samples), /proc/stat before/after (node and pod CPUs) and the cpuacct of the class
# pod and the filler, under OUT. `isolato-bench filler` runs this (make bench-filler, under the
# cluster lock, ≈ 8 min) with the generator on its own CPU (gatling/experiments/pinned.py sets
# GEN_CPUS), then gatling/experiments/filler.py turns OUT into the table, the plot and
# docs/benchmarks-log.md's section.
set -euo pipefail
LOG_TAG=filler-bench
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
OPENLOOP=$ROOT/build/openloop
OUT=${OUT:-$ROOT/results/filler}
REPS=${REPS:-3} SECONDS_PER_RUN=${SECONDS_PER_RUN:-20}
GEN_CPUS=${GEN_CPUS:-0}
CLASS=fill TENANT=fill-t NS=isolato-c-fill
CPU=200m HEADROOM=800m CUTOFF=48 PROFILE=150 TARGET_MS=50
RATES="24 43"   # 0.5× and 0.9× of the cut-off
one_tenant_test

require_cluster
[ -x "$OPENLOOP" ] || die "$OPENLOOP missing (make openloop-build)"
load_saas_bench_image
rm -rf "$OUT/runs"; mkdir -p "$OUT/runs"
export ISOLATO_DIRECT_SCALING=false ISOLATO_AUTOSCALER=hpa
start_controller

class() { headroom_class_json $CLASS $CPU $TARGET_MS $CUTOFF $HEADROOM "$1"; }
api POST /api/v1/slo-classes "$(class false)" >/dev/null
[ "$(status)" = 201 ] || die "class: HTTP $(status) $(cat "$WORK/body")"
api POST /api/v1/tenants "$(printf '{"tenantId":"%s","sloClass":"%s","committedRps":%s,"profile":{"cpu":%s,"memory":4,"io":0}}' \
  $TENANT $CLASS $CUTOFF $PROFILE)" >/dev/null
[ "$(status)" = 201 ] || die "tenant: HTTP $(status)"
wait_serving 120 $TENANT
ip=$(service_ip $CLASS)
class_uid=$(kubectl -n $NS get pods -l app.kubernetes.io/name=saas-bench -o jsonpath='{.items[0].metadata.uid}')

filler() { # on|off: PUT the class, wait until the filler pod runs / is gone
  api PUT "/api/v1/slo-classes/$CLASS" "$(class "$([ "$1" = on ] && echo true || echo false)")" >/dev/null
  [ "$(status)" = 200 ] || die "PUT filler $1: HTTP $(status) $(cat "$WORK/body")"
  if [ "$1" = on ]; then
    wait_filler_ready $NS 60 || die "no Ready filler pod 60 s after opting in"
  else
    kubectl -n $NS wait --for=delete pod -l app.kubernetes.io/name=isolato-filler --timeout=60s >/dev/null 2>&1 || true
  fi
}
run() { # MODE RATE REP
  local dir=$OUT/runs/$1-$2-r$3 fuid=
  mkdir -p "$dir"
  [ "$1" = on ] && fuid=$(kubectl -n $NS get pods -l app.kubernetes.io/name=isolato-filler -o jsonpath='{.items[0].metadata.uid}')
  # warm-up requests first (not recorded), then the measured ones between the snapshots
  taskset -c "$GEN_CPUS" "$OPENLOOP" -url "http://$ip:8080" -class $CLASS -tenants $TENANT -rates "$2" -warmup 0s \
    -requests $(($2 * 2)) -timeout 10s -out "$dir/warmup.json" 2>/dev/null
  local f0 c0 t0 f1 c1 t1
  cp /proc/stat "$dir/stat0"; f0=$([ -n "$fuid" ] && pod_cpu_ns "$fuid" || echo 0); c0=$(pod_cpu_ns "$class_uid"); t0=$(date +%s%N)
  taskset -c "$GEN_CPUS" "$OPENLOOP" -url "http://$ip:8080" -class $CLASS -tenants $TENANT -rates "$2" -warmup 0s \
    -requests $(($2 * SECONDS_PER_RUN)) -timeout 10s -samples "$dir/samples.csv" -out "$dir/run.json" 2>"$dir/openloop.log"
  cp /proc/stat "$dir/stat1"; f1=$([ -n "$fuid" ] && pod_cpu_ns "$fuid" || echo 0); c1=$(pod_cpu_ns "$class_uid"); t1=$(date +%s%N)
  jq -n --arg mode "$1" --argjson rate "$2" --argjson rep "$3" --argjson wall "$(( (t1 - t0) / 1000000 ))" \
    --argjson filler "$(( (f1 - f0) / 1000000 ))" --argjson cls "$(( (c1 - c0) / 1000000 ))" --arg gen "$GEN_CPUS" \
    '{mode: $mode, rateRps: $rate, rep: $rep, wallMs: $wall, fillerCpuMs: $filler, classCpuMs: $cls, generatorCpus: $gen}' \
    > "$dir/meta.json"
  log "filler $1, $2 req/s, rep $3: class pod $(( (c1 - c0) * 1000 / (t1 - t0) ))m, filler $(( (f1 - f0) * 1000 / (t1 - t0) ))m"
}
for rep in $(seq 1 "$REPS"); do
  if [ $((rep % 2)) = 1 ]; then order="off on"; else order="on off"; fi
  for mode in $order; do
    filler "$mode"
    for rate in $RATES; do run "$mode" "$rate" "$rep"; done
  done
done
jq -n --arg cpu $CPU --arg headroom $HEADROOM --argjson cutoff $CUTOFF --argjson profile $PROFILE \
  --argjson target $TARGET_MS --argjson seconds "$SECONDS_PER_RUN" --argjson reps "$REPS" --arg gen "$GEN_CPUS" \
  '{podCpu: $cpu, headroom: $headroom, cutoffRps: $cutoff, profileCpu: $profile, targetMs: $target,
    secondsPerRun: $seconds, reps: $reps, generatorCpus: $gen}' > "$OUT/meta.json"
