#!/usr/bin/env bash
# Noisy-neighbour benchmark on localkube (issue 34 item 5, SAC'20's setting): a gold-like class
# (one 400m pod, p95 target 50 ms, a tenant at profile cpu 150, declared at the stored gold-alone
# figure 165 req/s per pod) is first calibrated in context on this node (POST …/calibrations),
# then served open-loop at SHARE % (80) of that calibrated cut-off through its Service. After
# LEAD seconds a neighbour Isolato does not manage starts on the node (a plain Deployment:
# KIND=cpu: `saas-bench soak` threads; KIND=io: busybox dd writers flushing
# 256 MiB files; KIND=mem: busybox dd streaming /dev/zero to /dev/null in 32 MiB blocks, more than
# the last-level cache, so gold's working set is evicted; a CPU request and no limit), and the
# load goes on for OBSERVE seconds. KIND=none starts no neighbour: the steady run whose alarms are
# all false (issue 34 item 3; isolato_bench/steady.py), run with PHASES=on and a long OBSERVE. Two phases in one run, each with a fresh class of that definition and its
# own calibration (a pool scaled out by one phase would start the next one wider): the controller
# with its verification loop off (ISOLATO_VERIFICATION=false), then on. Per phase under OUT/<phase>:
# every request (openloop -samples), the class's plan replicas, SloHeld and effective cut-off
# (a watch, stamped on arrival), the Deployment's replicas (a watch), /proc/stat and the gold pods'
# and the neighbour's cgroup CPU at the load's start, the neighbour's start and the end, and the
# generator's own CPU and achieved rate (openloop -self-stats); first, under OUT, what a CPU unit
# costs on this machine (bench/sh/cpu-unit.sh). `isolato-bench neighbour` runs it
# (under the cluster lock, ≈ 10 min) and turns OUT into the figures, plot and section
# (bench/isolato_bench/neighbour.py).
set -euo pipefail
LOG_TAG=neighbour
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
# shellcheck source=../../controller/test/prometheus.sh
source "$(dirname "$0")/../../controller/test/prometheus.sh"
OPENLOOP=$ROOT/build/openloop
OPENLOOP_IMAGE=localhost/isolato/openloop:dev
OUT=${OUT:?OUT: the result directory}
KIND=${KIND:-cpu} PHASES=${PHASES:-off on}
LEAD=${LEAD:-45} OBSERVE=${OBSERVE:-90} SHARE=${SHARE:-80} COMMIT=${COMMIT:-75}
NEIGHBOUR_CPU=${NEIGHBOUR_CPU:-500m} NEIGHBOUR_THREADS=${NEIGHBOUR_THREADS:-2}
CLASS='' TENANT='' NS=''  # per phase: nb-off, nb-on
POD_CPU=400m TARGET_MS=50 PROFILE=150 DECLARED=165 PIVOT=90 MAX=3
NEIGHBOUR=noisy-neighbour
WATCH_PIDS=()
one_tenant_test
cleanup() {
  if [ ${#WATCH_PIDS[@]} -gt 0 ]; then kill "${WATCH_PIDS[@]}" 2>/dev/null || true; fi
  kubectl -n default delete deploy $NEIGHBOUR --ignore-not-found --wait=false >/dev/null 2>&1 || true
  one_tenant_cleanup
}
on_exit cleanup
trap 'exit 143' TERM INT

# A neighbour Isolato does not manage: one pod, a CPU request and no limit (a Burstable pod, as
# most unmanaged workloads are), running on the only node.
neighbour_manifest() {
  local image=$IMAGE cmd
  case "$KIND" in
    cpu) cmd="[/saas-bench, soak, --workers, \"$NEIGHBOUR_THREADS\"]" ;;
    # localkube's own busybox image: writers of 256 MiB files flushed to disk, in a loop
    io) image=localhost/localkube/demo:1
      cmd="[/bin/busybox, sh, -c, 'for i in \$(busybox seq $NEIGHBOUR_THREADS); do (while :; do busybox dd if=/dev/zero of=/data/f\$i bs=1M count=256 conv=fsync 2>/dev/null; done) & done; wait']" ;;
    # localkube's busybox again: each block is read from /dev/zero into a 32 MiB buffer (the
    # kernel clears it) and dropped, a memory-bandwidth stream; one loop per thread
    mem) image=localhost/localkube/demo:1
      cmd="[/bin/busybox, sh, -c, 'for i in \$(busybox seq $NEIGHBOUR_THREADS); do (while :; do busybox dd if=/dev/zero of=/dev/null bs=32M count=256 2>/dev/null; done) & done; wait']" ;;
    *) die "unknown KIND $KIND (cpu, io or mem)" ;;
  esac
  cat <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: {name: $NEIGHBOUR, namespace: default, labels: {app: $NEIGHBOUR}}
spec:
  replicas: 1
  selector: {matchLabels: {app: $NEIGHBOUR}}
  template:
    metadata: {labels: {app: $NEIGHBOUR}}
    spec:
      terminationGracePeriodSeconds: 2
      containers:
        - name: neighbour
          image: $image
          imagePullPolicy: Never
          command: $cmd
          resources: {requests: {cpu: "$NEIGHBOUR_CPU"}}
          volumeMounts: [{name: data, mountPath: /data}]
      volumes: [{name: data, emptyDir: {}}]
EOF
}

require_cluster
[ -x "$OPENLOOP" ] || die "$OPENLOOP missing (make openloop-build)"
prom_has 'vector(1)' || die "localkube's Prometheus does not answer at $PROM_URL"
load_saas_bench_image
"$LOCALKUBE" load-image --build "$(make -s --no-print-directory -C "$ROOT" openloop-image | tail -1)" --tag "$OPENLOOP_IMAGE" >&2
rm -rf "$OUT"; mkdir -p "$OUT"
cutoff=
# what one CPU unit of the tenants' profile costs on this machine, alone and beside a CPU neighbour
"$ROOT/bench/sh/cpu-unit.sh" "${SAAS_BENCH_IMAGE_CONTEXT:-$ROOT/build/saas-bench-image}/saas-bench" 5 > "$OUT/cpu-unit.jsonl"
export ISOLATO_PROMETHEUS_URL=$PROM_URL ISOLATO_CALIBRATION_BUDGET=40s ISOLATO_CALIBRATION_GENERATORIMAGE=$OPENLOOP_IMAGE

tenant_json() { # COMMITTED_RPS
  printf '{"tenantId":"%s","sloClass":"%s","committedRps":%s,"profile":{"cpu":%s,"memory":4,"io":0}}' "$TENANT" "$CLASS" "$1" $PROFILE
}

# The phase's class and tenant, fresh (one pod, nothing lowered). The first phase calibrates it in
# context on this node, nothing pinned (sets cutoff); a later phase's class declares that figure
# (two calibrations minutes apart on this shared machine differed by 2×, and the phases must
# carry the same load). The tenant then commits COMMIT % of the cut-off (so a lowered effective
# cut-off raises the plan) and sends SHARE % (admission off). Sets rate.
class_up() { # DIR
  api POST /api/v1/slo-classes "$(printf '{"name":"%s","spec":{"latency":{"percentile":95,"targetMs":%s},"resources":{"cpu":"%s","memory":"128Mi"},"priority":1000,"minReplicas":1,"maxReplicas":%s,"pivotPercent":%s,"perPodCutoffRps":%s,"admission":"off","image":"%s"}}' \
    "$CLASS" $TARGET_MS $POD_CPU $MAX $PIVOT "${cutoff:-$DECLARED}" "$IMAGE")" >/dev/null
  [[ $(status) =~ ^(201|409)$ ]] || die "class: HTTP $(status) $(cat "$WORK/body")"
  api POST /api/v1/tenants "$(tenant_json 10)" >/dev/null
  [[ $(status) =~ ^(201|409)$ ]] || die "tenant: HTTP $(status) $(cat "$WORK/body")"
  wait_serving 120 "$TENANT"
  kubectl -n "$NS" wait --for=condition=Available --timeout=60s deploy/saas-bench >/dev/null
  if [ -z "$cutoff" ]; then
    local calibration id deadline=$((SECONDS + 150))
    calibration=$(api POST /api/v1/slo-classes/"$CLASS"/calibrations)
    [ "$(status)" = 202 ] || die "POST calibrations: HTTP $(status) $calibration"
    id=$(jq -r .id <<< "$calibration")
    log "calibration $id: $(jq -r .message <<< "$calibration")"
    until jq -e '.phase == "Succeeded" or .phase == "Failed"' <<< "$calibration" >/dev/null; do
      [ $SECONDS -lt $deadline ] || die "calibration not done within 150 s: $calibration"
      sleep 2
      calibration=$(api GET /api/v1/slo-classes/"$CLASS"/calibrations/"$id")
    done
    jq . <<< "$calibration" > "$1/calibration.json"
    cutoff=$(jq -r '.perPodCutoffRps // empty' <<< "$calibration")
    [ -n "$cutoff" ] || die "calibration gave no cut-off: $calibration"
    log "calibrated in context: $cutoff req/s per pod"
  fi
  rate=$(jq -n --argjson c "$cutoff" --argjson s "$SHARE" '($c * $s / 100) | round')
  api PUT /api/v1/tenants/"$TENANT" "$(tenant_json "$(jq -n --argjson c "$cutoff" --argjson s "$COMMIT" '($c * $s / 100) | round')")" >/dev/null
  [ "$(status)" = 200 ] || die "tenant commitment: HTTP $(status) $(cat "$WORK/body")"
  log "the tenant commits $COMMIT % and sends $rate req/s ($SHARE %) of $cutoff req/s; plan $(kubectl get sloclass "$CLASS" -o jsonpath='{.status.plan.replicas}') replica(s)"
}

stamp() { while IFS= read -r line; do printf '%s|%s\n' "${EPOCHREALTIME/./}" "$line"; done; }
snapshot() { # DIR NAME: /proc/stat and the cgroup CPU (ns) of all gold pods and of the neighbour, now
  local nb uid gold=0 pods=0
  cp /proc/stat "$1/stat-$2"
  for uid in $(kubectl -n "$NS" get pods -l app.kubernetes.io/name=saas-bench -o jsonpath='{.items[*].metadata.uid}'); do
    gold=$((gold + $(pod_cpu_ns "$uid"))); pods=$((pods + 1))
  done
  nb=$(kubectl -n default get pods -l app=$NEIGHBOUR -o jsonpath='{.items[0].metadata.uid}' 2>/dev/null || true)
  printf '{"unixUs":%s,"goldCpuNs":%s,"goldPods":%s,"neighbourCpuNs":%s}\n' "${EPOCHREALTIME/./}" \
    "$gold" "$pods" "$([ -n "$nb" ] && pod_cpu_ns "$nb" || echo 0)" > "$1/cpu-$2.json"
}

# Until PID ends, every 30 s: the seconds since T_US and what the class says (a long steady run
# shows it is alive). Printing, not synchronising: the caller waits on PID.
progress() { # PID PHASE T_US
  local last=$SECONDS
  while kill -0 "$1" 2>/dev/null; do
    if ((SECONDS - last >= 30)); then
      last=$SECONDS
      log "$2: $(((${EPOCHREALTIME/./} - $3) / 1000000)) s of $OBSERVE; class plan|SloHeld|effective: $(kubectl get sloclass "$CLASS" -o jsonpath='{.status.plan.replicas}|{.status.conditions[?(@.type=="SloHeld")].status}|{.status.capacity.effectivePerPodRps}' 2>/dev/null)"
    fi
    sleep 1
  done
}

phase() { # off|on
  local p=$1 dir=$OUT/$1 ip t_apply started load_pid rate
  mkdir -p "$dir"
  CLASS=nb-$p TENANT=nb-$p-t NS=isolato-c-nb-$p
  ISOLATO_VERIFICATION=$([ "$p" = on ] && echo true || echo false)
  export ISOLATO_VERIFICATION
  start_controller
  class_up "$dir"
  kubectl get sloclass "$CLASS" -w -o jsonpath='{.status.plan.replicas}|{.status.conditions[?(@.type=="SloHeld")].status}|{.status.capacity.effectivePerPodRps}|{.status.conditions[?(@.type=="SloHeld")].message}{"\n"}' \
    | stamp > "$dir/class.txt" &
  WATCH_PIDS+=("$!")
  kubectl -n "$NS" get deploy saas-bench -w -o jsonpath='{.spec.replicas}|{.status.readyReplicas}{"\n"}' | stamp > "$dir/replicas.txt" &
  WATCH_PIDS+=("$!")
  ip=$(service_ip "$CLASS")
  # a new connection per request, so that the Service spreads the load over the pods the plan adds
  # 10 s at half the rate first (a cold pool's first requests, all at once, read as a latency
  # spike that KEDA's p95 trigger scaled out on), then steps of 5 s at the rate
  local steps=$((rate / 2)) i
  for ((i = 0; i < (LEAD - 10 + OBSERVE) / 5; i++)); do steps+=",$rate"; done
  "$OPENLOOP" -url "http://$ip:8080" -class "$CLASS" -tenants "$TENANT" -rates "$steps" -warmup 0s -connections per-request \
    -requests $((rate * 5)) -max-duration $((LEAD + OBSERVE + 30))s -timeout 5s -self-stats \
    -samples "$dir/samples.csv" -out "$dir/load.json" 2>"$dir/load.log" &
  load_pid=$!; LOAD_PID=$load_pid
  snapshot "$dir" start
  log "$p: $rate req/s for $LEAD s, then the $KIND neighbour for $OBSERVE s"
  sleep "$LEAD"  # the experiment's design: the load alone for LEAD s
  snapshot "$dir" apply
  t_apply=${EPOCHREALTIME/./} started=
  if [ "$KIND" != none ]; then
    neighbour_manifest | kubectl apply -f - >/dev/null
    kubectl -n default wait --for=condition=Ready pod -l app=$NEIGHBOUR --timeout=60s >/dev/null || die "neighbour not Ready in 60 s"
    started=$(kubectl -n default get pods -l app=$NEIGHBOUR -o jsonpath='{.items[0].status.containerStatuses[0].state.running.startedAt}')
    log "$p: neighbour started at $started"
  fi
  progress "$load_pid" "$p" "$t_apply"
  wait "$load_pid" || true
  LOAD_PID=
  snapshot "$dir" end
  if [ "$KIND" != none ]; then
    # the class's new pods outrank the neighbour and may have evicted it
    kubectl -n default get events --field-selector reason=Preempted -o json > "$dir/preempted.json"
    kubectl -n default delete deploy $NEIGHBOUR --wait=true >/dev/null
    kubectl -n default wait --for=delete pod -l app=$NEIGHBOUR --timeout=60s >/dev/null 2>&1 || true
  fi
  kill "${WATCH_PIDS[@]}" 2>/dev/null || true; WATCH_PIDS=()
  jq -n --arg p "$p" --arg kind "$KIND" --argjson apply "$t_apply" --arg started "$started" --argjson rate "$rate" \
    --argjson cutoff "$cutoff" --argjson commit "$COMMIT" --arg calibrated "$([ -f "$dir/calibration.json" ] && echo true || echo false)" --argjson share "$SHARE" --argjson lead "$LEAD" --argjson observe "$OBSERVE" \
    --argjson target $TARGET_MS --arg cpu $POD_CPU --argjson profile $PROFILE --argjson declared $DECLARED \
    --argjson pivot $PIVOT --argjson max $MAX --arg ncpu "$NEIGHBOUR_CPU" --argjson nthreads "$NEIGHBOUR_THREADS" --arg nname "$NEIGHBOUR" \
    '{phase: $p, kind: $kind, applyUnixUs: $apply, neighbourStartedAt: $started, rateRps: $rate,
      calibratedRps: $cutoff, calibratedHere: ($calibrated == "true"), commitPct: $commit, sharePct: $share, leadSeconds: $lead, observeSeconds: $observe, targetMs: $target,
      podCpu: $cpu, profileCpu: $profile, declaredRps: $declared, pivotPercent: $pivot, maxReplicas: $max,
      neighbourCpuRequest: $ncpu, neighbourThreads: $nthreads, neighbourName: $nname}' > "$dir/meta.json"
  delete_tenant_and_class "$TENANT" "$CLASS"
  kubectl wait --for=delete namespace/"$NS" --timeout=90s >/dev/null 2>&1 || log "namespace $NS not gone in 90 s"
  stop_controller
  log "$p: done ($(jq -r '[.steps[1:][].achievedRps] | add / length | "\(.) req/s achieved after the ramp"' "$dir/load.json"))"
}
for p in $PHASES; do phase "$p"; done
