#!/usr/bin/env bash
# End-to-end on localkube (reduced, ~2 min warm), issue 12 item 6: a class with vertical
# headroom gets a running filler pod (saas-bench soak, lowest priority, 10m request) that soaks
# idle CPU, and is starved by the kernel as soon as the class pod needs the CPU: its CPU rate
# under a saturating load on the class falls well below its idle rate, and the class pod gets
# most of the node. Opting out removes the filler; deleting the class leaves nothing Terminating.
set -euo pipefail
LOG_TAG=filler-e2e
source "$(dirname "$0")/lib.sh"
OPENLOOP=$ROOT/build/openloop
CLASS=e2e-fill TENANT=t-fill NS=isolato-c-e2e-fill
# 250m pods with 1750m of headroom (limit 2 cores, the node's) and a filler of up to 1750m:
# together they want more than the node has. A request costs cpu 1000 units (≈ 20 ms here),
# so 120 req/s asks for more than 2 cores: the class pod saturates whatever it gets.
HEADROOM=1750m RATE=120 PROFILE=1000 WINDOW=6
one_tenant_test

require_cluster
[ -x "$OPENLOOP" ] || die "$OPENLOOP missing (make openloop-build)"
# the image must know `saas-bench soak`: load the one built from this tree
load_saas_bench_image
export ISOLATO_DIRECT_SCALING=false ISOLATO_AUTOSCALER=hpa
start_controller

class() { headroom_class_json "$CLASS" 250m 2000 "$RATE" "$HEADROOM" "$1"; }
api POST /api/v1/slo-classes "$(class true)" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "class: HTTP $(status) $(cat "$WORK/body")"
api POST /api/v1/tenants "$(printf '{"tenantId":"%s","sloClass":"%s","committedRps":%s,"profile":{"cpu":%s,"memory":0,"io":0}}' \
  $TENANT $CLASS $RATE $PROFILE)" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "tenant: $(status)"
wait_serving 120 $TENANT
wait_filler_ready $NS 60 || die "no Ready filler pod: $(kubectl -n $NS get pods -o wide 2>&1)"
fillers=$(kubectl -n $NS get pods -l app.kubernetes.io/name=isolato-filler -o json)
jq -e '.items | length == 1' <<< "$fillers" >/dev/null || die "expected one filler pod"
jq -e '.items[0].spec.priority < -1000000000 and .items[0].spec.preemptionPolicy == "Never"
  and .items[0].status.qosClass == "Burstable"' <<< "$fillers" >/dev/null \
  || die "filler pod is not lowest-priority Burstable: $(jq -c '.items[0] | {p: .spec.priority, pp: .spec.preemptionPolicy, q: .status.qosClass}' <<< "$fillers")"
grep -q 'soaking idle CPU' <<< "$(kubectl -n $NS logs -l app.kubernetes.io/name=isolato-filler)" || die "filler is not soaking"
filler_uid=$(jq -r '.items[0].metadata.uid' <<< "$fillers")
class_uid=$(kubectl -n $NS get pods -l app.kubernetes.io/name=saas-bench -o jsonpath='{.items[0].metadata.uid}')

cpu_ns() { # POD_UID
  local ns; ns=$(pod_cpu_ns "$1")
  [ "$ns" != 0 ] || die "no cpuacct cgroup of pod $1"
  echo "$ns"
}
# millicores each pod used over WINDOW seconds → "filler class"
rates() {
  local f0 c0 f1 c1
  f0=$(cpu_ns "$filler_uid"); c0=$(cpu_ns "$class_uid")
  sleep "$WINDOW"  # a measurement window, not synchronisation
  f1=$(cpu_ns "$filler_uid"); c1=$(cpu_ns "$class_uid")
  echo "$(( (f1 - f0) / WINDOW / 1000000 )) $(( (c1 - c0) / WINDOW / 1000000 ))"
}
read -r idle_filler idle_class <<< "$(rates)"
log "class idle: filler ${idle_filler}m, class pod ${idle_class}m"
[ "$idle_filler" -ge 500 ] || die "the filler soaked only ${idle_filler}m of an idle node (limit $HEADROOM)"

ip=$(service_ip $CLASS)
"$OPENLOOP" -url "http://$ip:8080" -class $CLASS -tenants $TENANT -rates $RATE -warmup 0s \
  -requests $((RATE * 40)) -timeout 5s -out "$WORK/load.json" 2>"$WORK/load.log" &
LOAD_PID=$!
sleep 3  # let the class pod's queue build: the window below measures the saturated state
read -r busy_filler busy_class <<< "$(rates)"
kill $LOAD_PID 2>/dev/null || true; LOAD_PID=
log "class saturated: filler ${busy_filler}m, class pod ${busy_class}m"
[ $((busy_filler * 3)) -lt "$idle_filler" ] \
  || die "the filler was not starved: ${busy_filler}m under load vs ${idle_filler}m idle"
[ "$busy_class" -gt $((busy_filler * 3)) ] \
  || die "the class pod did not get the CPU first: ${busy_class}m vs the filler's ${busy_filler}m"

# opting out removes the filler and its PriorityClass
api PUT "/api/v1/slo-classes/$CLASS" "$(class false)" >/dev/null
[ "$(status)" = 200 ] || die "PUT filler:false: HTTP $(status) $(cat "$WORK/body")"
kubectl -n $NS wait --for=delete deploy/isolato-filler --timeout=30s >/dev/null 2>&1 || true
kubectl -n $NS get deploy isolato-filler >/dev/null 2>&1 && die "filler Deployment still there after opting out"
kubectl wait --for=delete priorityclass/isolato-f-$CLASS --timeout=30s >/dev/null 2>&1 || true
kubectl get priorityclass isolato-f-$CLASS >/dev/null 2>&1 && die "filler PriorityClass still there after opting out"
kubectl -n $NS wait --for=delete pod -l app.kubernetes.io/name=isolato-filler --timeout=30s >/dev/null \
  || die "filler pod still there 30 s after opting out"
log "opted out: filler Deployment, pod and PriorityClass gone"

# back in, then the class goes: nothing stays Terminating
api PUT "/api/v1/slo-classes/$CLASS" "$(class true)" >/dev/null
wait_filler_ready $NS 60 || die "no Ready filler pod 60 s after opting back in"
api DELETE "/api/v1/tenants/$TENANT" >/dev/null
kubectl -n isolato-system wait --for=delete --timeout=60s "tenant/$TENANT" >/dev/null
api DELETE "/api/v1/slo-classes/$CLASS" >/dev/null
kubectl wait --for=delete "namespace/$NS" --timeout=90s >/dev/null || die "$NS still there 90 s after the class was deleted"
kubectl wait --for=delete priorityclass/isolato-f-$CLASS --timeout=30s >/dev/null 2>&1 || true
kubectl get priorityclass isolato-f-$CLASS >/dev/null 2>&1 && die "filler PriorityClass left 30 s after the class was deleted"
log "class deleted: pool namespace and filler PriorityClass gone"
log "PASS"
