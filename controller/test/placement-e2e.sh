#!/usr/bin/env bash
# End-to-end on 2 real localkube nodes (~2.5 min warm): a second node joins the test cluster with
# NetworkPolicy enforced (kube-network-policies) on both, a class's pool of 2 pods spreads over
# both nodes and refuses a pod of another namespace while the documented paths work (the
# controller's table pushes, tenant traffic through the Service, Prometheus' scrapes); a tenant of another class whose requests write
# more than its class's scratch limit (spec.storage.scratch 8Mi, io 16384 = 64 MiB per request)
# gets its own pod evicted by the kubelet, while the first class's pods stay untouched and its
# p95 stays within its target; the node leaves again at the end.
set -euo pipefail
LOG_TAG=placement-e2e
source "$(dirname "$0")/lib.sh"
# shellcheck source=../../localkube/test/probe-pod.sh
source "$ROOT/localkube/test/probe-pod.sh"
OPENLOOP=$ROOT/build/openloop
SPREAD=e2e-spread DISK=e2e-disk
TARGET_MS=100 RATE=20
LOAD_PID=
lk_conf() { "$LOCALKUBE" config | awk -v k="$1" '$1 == k && $2 == "=" { print $3 }'; } # "KEY = VALUE  # comment"
NETPOL_BEFORE=$(lk_conf network-policies.enabled) # the cluster's own setting, restored at the end
cleanup() {
  local rc=$EXIT_RC
  if [ "$rc" != 0 ] && [ -n "${KUBECONFIG:-}" ]; then # what the failure left, before it is removed
    kubectl get pods -A -o wide 2>&1 | grep -v '^kube-system\|^keda' >&2 || true
    kubectl get tenants -A -o json 2>/dev/null | jq -c '.items[] | {n: .metadata.name, c: [.status.conditions[]? | {type, status, reason, message}]}' >&2 || true
    kubectl get events -A --field-selector type=Warning 2>&1 | tail -20 >&2 || true
  fi
  if [ -n "$LOAD_PID" ]; then kill "$LOAD_PID" 2>/dev/null || true; fi
  if [ -n "$CTL_PID" ]; then
    offboard_tenants t-spread t-disk
    api DELETE "/api/v1/slo-classes/$SPREAD" >/dev/null
    api DELETE "/api/v1/slo-classes/$DISK" >/dev/null
    kubectl wait --for=delete "namespace/isolato-c-$SPREAD" "namespace/isolato-c-$DISK" --timeout=60s >/dev/null 2>&1 || true
  fi
  probe_pod_delete e2e-outsider
  stop_controller
  "$LOCALKUBE" config set network-policies.enabled "$NETPOL_BEFORE" >/dev/null
  "$LOCALKUBE" up --nodes=1 >&2 || log "warning: the second node did not leave"
}
on_exit cleanup

[ -x "$OPENLOOP" ] || die "$OPENLOOP missing (make openloop-build)"
"$LOCALKUBE" status >/dev/null 2>&1 || die "localkube is not running"
t0=$SECONDS
"$LOCALKUBE" config set network-policies.enabled true >/dev/null
"$LOCALKUBE" up --nodes=2 >&2
log "second node joined, NetworkPolicy enforced on both, in $((SECONDS - t0)) s"
require_cluster # after the join: it loads the gate image into every node
# the pools admit the controller and the host's clients by address: node 1's bridge, the node IP
# (the host's route to node 2's pods) and the host's end of node 2's veth (kube-proxy masquerades
# the host's connections to a Service whose pod is on node 2 to it)
export HOST_CIDRS=10.250.0.0/16,10.244.0.1/32
load_saas_bench_image # into both nodes' containerd
start_controller

class() { # NAME REPLICAS EXTRA_SPEC
  printf '{"name":"%s","spec":{"latency":{"percentile":95,"targetMs":%s},"resources":{"cpu":"250m","memory":"64Mi"},"priority":500,"minReplicas":%s,"maxReplicas":%s,"pivotPercent":70,"perPodCutoffRps":100,"image":"%s"%s}}' \
    "$1" "$TARGET_MS" "$2" "$2" "$IMAGE" "$3"
}
api POST /api/v1/slo-classes "$(class $SPREAD 2 '')" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "class $SPREAD: HTTP $(status) $(cat "$WORK/body")"
api POST /api/v1/slo-classes "$(class $DISK 1 ',"storage":{"scratch":"8Mi"}')" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "class $DISK: HTTP $(status) $(cat "$WORK/body")"
api POST /api/v1/tenants "$(tenant_json t-spread $SPREAD $RATE)" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "tenant t-spread: HTTP $(status)"
api POST /api/v1/tenants '{"tenantId":"t-disk","sloClass":"'$DISK'","committedRps":1,"profile":{"cpu":1,"memory":0,"io":16384}}' >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "tenant t-disk: HTTP $(status)"
wait_serving 120 t-spread t-disk

pods() { kubectl -n "isolato-c-$1" get pods -l app.kubernetes.io/name=saas-bench -o json; }
# a tenant can be Serving before every pod of its pool has an address: both pods Ready first
kubectl -n "isolato-c-$SPREAD" wait --for=condition=Ready pod -l app.kubernetes.io/name=saas-bench --timeout=60s >/dev/null \
  || die "the pods of $SPREAD are not Ready"
spread=$(pods $SPREAD)
[ "$(jq '.items | length' <<< "$spread")" = 2 ] || die "$SPREAD has not 2 pods: $(jq -c '[.items[].metadata.name]' <<< "$spread")"
nodes=$(jq -r '[.items[].spec.nodeName] | unique | length' <<< "$spread")
[ "$nodes" = 2 ] || die "the 2 pods of $SPREAD are not on 2 nodes: $(jq -c '[.items[] | {n: .metadata.name, node: .spec.nodeName}]' <<< "$spread")"
log "pool $SPREAD spread: $(jq -c '[.items[] | .spec.nodeName]' <<< "$spread")"
# a pod of another namespace reaches neither of the pool's pods; the host does (table pushes,
# the Service, the probes: the tenants are Serving)
probe_pod_start e2e-outsider || die "no probe pod"
for ip in $(jq -r '.items[].status.podIP' <<< "$spread"); do
  probe_connects e2e-outsider "$ip" 8080 && die "a pod of namespace e2e-outsider reached pool pod $ip"
  curl -sf --max-time 3 -o /dev/null "http://$ip:8080/readyz" || die "the host cannot reach pool pod $ip"
done
log "another namespace's pod is refused by both pool pods, the host reaches them"
# Prometheus (a host process) scrapes both pool pods, node 2's through the policy too
prom=http://127.0.0.1:$(lk_conf prometheus.port)
scraped=
for _ in $(seq 1 30); do
  scraped=$(curl -sf --max-time 3 "$prom/api/v1/targets?state=active" | jq -r '[.data.activeTargets[] | select(.labels.job == "isolato-pools" and .health == "up") | .scrapeUrl] | join(" ")' || true)
  all=1
  for ip in $(jq -r '.items[].status.podIP' <<< "$spread"); do [[ " $scraped" == *"//$ip:"* ]] || all=; done
  [ -n "$all" ] && break
  sleep 1 # Prometheus scrapes every 5 s; bounded by the loop
done
[ -n "$all" ] || die "Prometheus does not scrape both pool pods (up: $scraped)"
log "Prometheus scrapes both pool pods: $scraped"
uids_before=$(jq -r '[.items[] | .metadata.uid] | sort | join(",")' <<< "$spread")
jq -e '.items[0].spec.volumes[] | select(.name == "data") | .emptyDir.sizeLimit == "8Mi"' <<< "$(pods $DISK)" >/dev/null \
  || die "the $DISK pod's scratch emptyDir is not limited to 8Mi"

p95() { jq -r '.steps[0].total.p95' "$1"; }
ip=$(service_ip $SPREAD)
"$OPENLOOP" -url "http://$ip:8080" -class $SPREAD -tenants t-spread -rates $RATE -warmup 2s \
  -requests $((RATE * 10)) -timeout 5s -out "$WORK/before.json" 2>"$WORK/before.log" || die "load before: $(tail -3 "$WORK/before.log")"
log "$SPREAD p95 alone: $(p95 "$WORK/before.json") ms"

"$OPENLOOP" -url "http://$ip:8080" -class $SPREAD -tenants t-spread -rates $RATE -warmup 0s \
  -requests $((RATE * 40)) -timeout 5s -out "$WORK/during.json" 2>"$WORK/during.log" &
LOAD_PID=$!
disk_ip=$(service_ip $DISK)
# the tenant's one request per second writes 64 MiB into the 8Mi scratch (a 429 is its bucket)
for _ in 1 2 3; do
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 -X POST -d '{}' "http://$disk_ip:8080/v1/tenants/t-disk/requests" || true)
  [ "$code" = 200 ] && break
  sleep 1 # the tenant's token bucket refills once a second
done
[ "$code" = 200 ] || die "the disk tenant's request failed (HTTP $code)"
log "t-disk wrote 64 MiB into its 8Mi scratch; waiting for the kubelet"
evicted=
for _ in $(seq 1 120); do
  # the kubelet's Event: the pod itself may end Succeeded (saas-bench exits 0 on SIGTERM)
  evicted=$(kubectl -n "isolato-c-$DISK" get events --field-selector reason=Evicted -o jsonpath='{.items[*].message}')
  [ -n "$evicted" ] && break
  sleep 1 # polling the pod's status, bounded by the loop
done
[ -n "$evicted" ] || die "the disk tenant's pod was not evicted within 120 s"
log "$DISK pod evicted: $evicted"
grep -q 'EmptyDir volume "data" exceeds the limit' <<< "$evicted" || die "evicted for another reason: $evicted"
wait "$LOAD_PID" || die "load during the fill failed: $(tail -3 "$WORK/during.log")"
LOAD_PID=

spread=$(pods $SPREAD)
[ "$(jq -r '[.items[] | .metadata.uid] | sort | join(",")' <<< "$spread")" = "$uids_before" ] \
  || die "the pods of $SPREAD changed while $DISK filled its disk"
jq -e '[.items[].status.containerStatuses[0].restartCount] | add == 0' <<< "$spread" >/dev/null \
  || die "a pod of $SPREAD restarted"
before=$(p95 "$WORK/before.json") during=$(p95 "$WORK/during.json")
errors=$(jq -r '.steps[0].total.errors' "$WORK/during.json")
log "$SPREAD p95 alone ${before} ms, while $DISK filled and was evicted ${during} ms ($errors errors), target $TARGET_MS ms"
[ "$errors" = 0 ] || die "$SPREAD failed $errors requests while $DISK filled its disk"
awk -v d="$during" -v t=$TARGET_MS 'BEGIN { exit !(d <= t) }' || die "$SPREAD p95 ${during} ms is above its target $TARGET_MS ms"
log "PASS ($((SECONDS - t0)) s)"
