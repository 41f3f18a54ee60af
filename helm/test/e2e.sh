#!/usr/bin/env bash
# The chart on localkube, driven the way a provider would: images loaded without a registry,
# a bad value refused by the schema, `helm install` (2 replicas), the ServiceAccount's RBAC
# equal to helm/test/expected-rbac.txt, `helm test`, onboarding through the controller's
# Service, a replica that loses its lease halting, the leader's pod deleted (graceful), force-
# deleted and its JVM SIGKILLed with onboarding continuing, `helm upgrade` with changed values under a
# steady request load (0 errors), `helm uninstall` leaving what docs/install.md says.
# Runs on the cluster `make test-e2e` brings up (LOCALKUBE_HOME); ≈ 4 min.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK=$ROOT/localkube/localkube
HELM=${HELM:?set HELM to the helm binary (helm/part.mk does)}
NS=isolato-system
CLASS=e2e-helm
WORK=$(mktemp -d /tmp/isolato-helm-e2e.XXXXXX)
source "$ROOT/helm/test/lib.sh"
# shellcheck source=../../localkube/test/probe-pod.sh
source "$ROOT/localkube/test/probe-pod.sh"
log() { printf '[helm-e2e] %s\n' "$*" >&2; }
die() { # the replicas' last log lines (and their previous container's) say what they did
  log "FAIL: $*"; kubectl -n $NS get pods -o wide >&2 || true
  for p in $(kubectl -n $NS get pods -l app.kubernetes.io/name=isolato -o name 2>/dev/null); do
    for prev in false true; do
      printf -- '--- %s (previous container: %s)\n' "$p" $prev >&2
      kubectl -n $NS logs "$p" --previous=$prev --tail=40 >&2 2>/dev/null || true
    done
  done
  exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
eventually() { # TIMEOUT CMD...: polls CMD until it succeeds
  local end=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do [ $SECONDS -lt $end ] || return 1; sleep 0.2; done
}

"$LK" status >/dev/null 2>&1 || die "localkube is not running (run under 'make test-e2e')"
KUBECONFIG=$("$LK" kubeconfig); export KUBECONFIG

log "building and loading the controller, saas-bench and busybox images"
load_images

cleanup() {
  # Whatever happened: no release, no Isolato objects left for the next e2e on this cluster.
  "$HELM" uninstall isolato -n $NS --wait >/dev/null 2>&1 || true
  for kind in tenants.isolato.dev sloclasses.isolato.dev; do
    for o in $(kubectl get "$kind" -A -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name}{" "}{end}' 2>/dev/null); do
      ns=${o%/*} name=${o#*/}
      kubectl ${ns:+-n $ns} patch "$kind" "$name" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || true
      kubectl ${ns:+-n $ns} delete "$kind" "$name" --wait=false >/dev/null 2>&1 || true
    done
  done
  if [ -n "${LOAD_PID:-}" ]; then kill "$LOAD_PID" 2>/dev/null || true; wait "$LOAD_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
  probe_pod_delete e2e-helm-probe
  # Waited for: the next e2e's controller would otherwise start on a terminating namespace.
  if ! kubectl delete namespace $NS "isolato-$CLASS" "isolato-c-$CLASS" --ignore-not-found --timeout=180s >/dev/null; then
    kubectl get namespace $NS "isolato-$CLASS" "isolato-c-$CLASS" -o yaml >&2 || true
    echo "[helm-e2e] error: namespaces still terminating 180 s after the clean-up" >&2
    exit 1
  fi
}
trap cleanup EXIT

log "a bad value fails helm install with the key's name"
if "$HELM" install isolato-bad "$ROOT/helm/isolato" -n $NS --create-namespace --set replicas=0 >"$WORK/bad" 2>&1; then
  die "helm install with replicas=0 succeeded"
fi
{ grep -q "/replicas" "$WORK/bad" && grep -q "minimum" "$WORK/bad"; } || die "unclear error: $(cat "$WORK/bad")"
! "$HELM" status isolato-bad -n $NS >/dev/null 2>&1 || die "the refused release exists"

log "helm install (2 replicas)"
t0=$(now)
"$HELM" install isolato "$ROOT/helm/isolato" -n $NS --create-namespace --wait --timeout 3m >"$WORK/notes" \
  || { for p in $(kubectl -n $NS get pods -l app.kubernetes.io/name=isolato -o name); do
         kubectl -n $NS logs "$p" --previous --tail=30 >&2 2>/dev/null || kubectl -n $NS logs "$p" --tail=30 >&2; done
       die "helm install failed (the replicas' last log lines above)"; }
log "installed and ready in $(since "$t0") s"
grep -q "isolato-api-tokens" "$WORK/notes" || die "NOTES.txt does not say how to get a token"
kubectl get crd sloclasses.isolato.dev tenants.isolato.dev >/dev/null || die "CRDs missing"
kubectl -n $NS get pdb isolato-controller >/dev/null || die "PodDisruptionBudget missing"

log "the ServiceAccount may do exactly what helm/test/expected-rbac.txt lists"
# can-i prints a resource's verbs in the order its rules happen to merge: compare them as sets
verbs_sorted() { perl -pe 's/\[([^\]]*)\]/"[" . join(" ", sort split(" ", $1)) . "]"/e' | sort; }
kubectl auth can-i --list -n $NS --as=system:serviceaccount:$NS:isolato-controller \
  | awk 'NR > 1 && $1 !~ /^\[/' | sed -E 's/ +\[[^]]*\] +\[[^]]*\] +/ /' | verbs_sorted > "$WORK/rbac"
diff -u <(grep -v '^#' "$ROOT/helm/test/expected-rbac.txt" | verbs_sorted) "$WORK/rbac" >&2 \
  || die "the controller's permissions differ from helm/test/expected-rbac.txt (- expected, + granted)"

ports=$(kubectl -n $NS get networkpolicy isolato-controller -o jsonpath='{.spec.ingress[*].ports[*].port}') \
  || die "the chart's NetworkPolicy is missing"
[ "$ports" = 8080 ] || die "the controller's NetworkPolicy admits ports '$ports', not the API port alone (metricsFrom is empty)"
# In force when the cluster enforces NetworkPolicy (localkube's network-policies.enabled): a pod
# of another namespace reaches each replica's API port, not its management port (docs/security.md)
if [ "$("$LK" config | awk '$1 == "network-policies.enabled" && $2 == "=" { print $3 }')" = true ]; then
  probe_pod_start e2e-helm-probe || die "no probe pod"
  for ip in $(kubectl -n $NS get pods -l app.kubernetes.io/name=isolato -o jsonpath='{.items[*].status.podIP}'); do
    probe_connects e2e-helm-probe "$ip" 8080 || die "another namespace's pod is refused the API port of $ip"
    probe_connects e2e-helm-probe "$ip" 9090 && die "another namespace's pod reached the management port of $ip"
  done
  probe_pod_delete e2e-helm-probe
  log "NetworkPolicy enforced: another namespace's pod reaches the replicas' API port only"
fi
log "helm test: onboards a tenant through the Service and sends it a request"
# The test pod is deleted when it succeeds and kept (with its log) when it fails.
"$HELM" test isolato -n $NS --timeout 3m >"$WORK/helm-test" 2>&1 \
  || { cat "$WORK/helm-test" >&2; kubectl -n $NS logs isolato-test >&2 || true; die "helm test failed"; }
grep -q 'Phase: *Succeeded' "$WORK/helm-test" || die "helm test did not succeed: $(cat "$WORK/helm-test")"

API=http://$(kubectl -n $NS get svc isolato -o jsonpath='{.spec.clusterIP}'):8080
TOKEN=$(kubectl -n $NS get secret isolato-api-tokens -o jsonpath='{.data.admin}' | base64 -d)
api() { # METHOD PATH [JSON] → HTTP status (headers and body in $WORK/headers, $WORK/body)
  curl -s -D "$WORK/headers" -o "$WORK/body" -w '%{http_code}' --max-time 5 -X "$1" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' ${3:+--data "$3"} "$API$2" || true
}
onboard() { # ID [RPS]: retried while no replica answers; 200/409: an earlier try got through
  local end=$((SECONDS + 60)) code
  while :; do
    code=$(api POST /api/v1/tenants "{\"tenantId\":\"$1\",\"sloClass\":\"$CLASS\",\"committedRps\":${2:-1},\"profile\":{\"cpu\":1,\"memory\":4,\"io\":0}}")
    case $code in 200|201|409) return 0 ;; 000|502|503) ;; *) die "onboarding $1: HTTP $code $(cat "$WORK/headers" "$WORK/body")" ;; esac
    [ $SECONDS -lt $end ] || die "$1 not accepted in 60 s"
    sleep 0.2
  done
}
serving() { local ids=("${@:2}"); kubectl -n "$NS" wait --for=jsonpath='{.status.phase}'=Serving --timeout="${1}s" "${ids[@]/#/tenant/}" >/dev/null; }
leader() { kubectl -n $NS get lease isolato-controller -o jsonpath='{.spec.holderIdentity}'; }
leader_pod() { local h; h=$(leader); [ -n "$h" ] && echo "${h%-*}"; }
api_is_leader() { # the API Service's one ready endpoint is the lease holder's pod (config/LeaderRouting)
  local ready
  ready=$(kubectl -n $NS get endpointslices -l kubernetes.io/service-name=isolato \
    -o jsonpath='{range .items[*].endpoints[?(@.conditions.ready==true)]}{.targetRef.name}{"\n"}{end}')
  [ -n "$ready" ] && [ "$ready" = "$(leader_pod)" ]
}

eventually 60 api_is_leader || die "the API Service does not route to the leader alone"
log "class $CLASS and 3 tenants through the Service ($API)"
code=$(api POST /api/v1/slo-classes "{\"name\":\"$CLASS\",\"spec\":{\"latency\":{\"percentile\":95,\"targetMs\":100},\"resources\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"},\"priority\":100,\"minReplicas\":1,\"maxReplicas\":2,\"pivotPercent\":70,\"perPodCutoffRps\":100,\"image\":\"$SAAS_BENCH_IMAGE\"}}")
[ "$code" = 201 ] || die "class: HTTP $code $(cat "$WORK/body")"
onboard h-1; onboard h-2 20; onboard h-3
serving 120 h-1 h-2 h-3 || die "h-1..3 not Serving"
POOL_NS=$(kubectl -n $NS get tenant h-1 -o jsonpath='{.status.namespace}')
POOL=http://$(kubectl -n "$POOL_NS" get svc saas-bench -o jsonpath='{.spec.clusterIP}'):8080
eventually 20 curl -fs -X POST "$POOL/v1/tenants/h-1/requests" || die "h-1 not served through $POOL"

# A table Isolato never pushed (docs/security.md, "The pool admin token"): pushed with the pool's
# token at a revision above the pool's generation, it makes the pod refuse Isolato's tables (409).
# The controller's next push reads the pod's revision and deletes the pod (the chart's RBAC grants
# it); the replacement starts from the ConfigMap's table.
log "a forged table of a huge revision on a pool pod: the controller replaces the pod"
read -r pod pod_ip < <(kubectl -n "$POOL_NS" get pods -l app.kubernetes.io/name=saas-bench \
  -o jsonpath='{.items[0].metadata.name} {.items[0].status.podIP}{"\n"}')
pool_token=$(kubectl -n "$POOL_NS" get secret saas-bench-admin -o jsonpath='{.data.token}' | base64 -d | head -1)
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -X PUT -H "Authorization: Bearer $pool_token" \
  -H 'Content-Type: application/json' -d '{"version":"forged","revision":4503599627370496,"tenants":{}}' \
  "http://$pod_ip:8080/v1/admin/tenants" || true)
[ "$code" = 200 ] || die "the forged table was not taken by $pod (HTTP $code): the defence below would not be tested"
t0=$(now)
onboard h-f
kubectl -n "$POOL_NS" wait --for=delete "pod/$pod" --timeout=120s >/dev/null \
  || die "$pod, holding a forged table, was not deleted"
serving 120 h-f || die "h-f not Serving after the pod holding a forged table was replaced"
for id in h-1 h-f; do
  eventually 30 curl -fs -o /dev/null -X POST "$POOL/v1/tenants/$id/requests" || die "$id not served after the replacement"
done
log "$pod deleted and replaced; h-1 and h-f served $(since "$t0") s after the forged table"

# A steady load on the pool (h-2 commits 20 req/s; this sends ≤ 5) through every controller
# fault below: pools serve without the controller.
( ok=0 err=0; trap 'echo "$ok $err" > "$WORK/load"; exit 0' TERM
  while :; do
    if curl -fs -o /dev/null --max-time 2 -X POST "$POOL/v1/tenants/h-2/requests"; then ok=$((ok+1)); else err=$((err+1)); fi
    sleep 0.2
  done ) &
LOAD_PID=$!

log "a leader that loses its lease halts (exit 1) and is restarted; another replica leads"
old=$(leader_pod) || die "no leader"
restarts=$(kubectl -n $NS get pod "$old" -o jsonpath='{.status.containerStatuses[0].restartCount}')
kubectl -n $NS patch lease isolato-controller --type=merge \
  -p "{\"spec\":{\"holderIdentity\":\"intruder\",\"leaseDurationSeconds\":12,\"renewTime\":\"$(date -u +%Y-%m-%dT%H:%M:%S.000000Z)\"}}" >/dev/null
eventually 40 bash -c "[ \"\$(kubectl -n $NS get pod $old -o jsonpath='{.status.containerStatuses[0].restartCount}')\" -gt $restarts ]" \
  || die "$old kept running after losing its lease"
code=$(kubectl -n $NS get pod "$old" -o jsonpath='{.status.containerStatuses[0].lastState.terminated.exitCode}')
[ "$code" = 1 ] || die "$old ended with exit code $code, expected 1"
kubectl -n $NS logs "$old" --previous | grep -q "lost the leader lease" || die "$old did not log why it exited"
eventually 40 bash -c "[ -n \"\$(kubectl -n $NS get lease isolato-controller -o jsonpath='{.spec.holderIdentity}' | grep -v intruder)\" ]" \
  || die "nobody took the lease over from the intruder"
onboard h-4; serving 60 h-4 || die "h-4 not Serving after the lease was lost"
log "$old halted on the lost lease; $(leader) leads; onboarding continues"

for how in graceful force crash; do
  eventually 60 kubectl -n $NS rollout status deployment/isolato-controller --timeout=1s || die "replicas not ready"
  holder=$(leader); old=${holder%-*}
  [ -n "$holder" ] || die "no leader"
  id=h-$how
  t0=$(now)
  case $how in
    graceful) kubectl -n $NS delete pod "$old" --wait=false >/dev/null ;;
    force) kubectl -n $NS delete pod "$old" --grace-period=0 --force >/dev/null 2>&1 ;;
    crash) crash_controller_pod "$old" ;;
  esac
  onboard $id
  eventually 60 bash -c "h=\$(kubectl -n $NS get lease isolato-controller -o jsonpath='{.spec.holderIdentity}'); [ -n \"\$h\" ] && [ \"\$h\" != $holder ]" \
    || die "no new leader after $how of $old"
  t_lease=$(since "$t0")
  serving 90 $id || die "$id not Serving after $how of the leader $old"
  log "leader $old ($how): new leader after $t_lease s, a tenant onboarded meanwhile Serving after $(since "$t0") s"
  eventually 30 api_is_leader || die "after $how of $old the API Service does not route to the new leader alone"
done

log "helm upgrade with changed values (3 replicas, more memory) keeps every tenant served"
eventually 60 kubectl -n $NS rollout status deployment/isolato-controller --timeout=1s || die "replicas not ready"
"$HELM" upgrade isolato "$ROOT/helm/isolato" -n $NS --reuse-values --set replicas=3 \
  --set resources.requests.memory=400Mi --wait --timeout 3m >/dev/null || die "helm upgrade failed"
[ "$(kubectl -n $NS get deployment isolato-controller -o jsonpath='{.status.readyReplicas}')" = 3 ] || die "not 3 ready replicas"
[ "$(kubectl -n $NS get secret isolato-api-tokens -o jsonpath='{.data.admin}' | base64 -d)" = "$TOKEN" ] || die "the upgrade changed the admin token"
onboard h-5
serving 60 h-1 h-2 h-3 h-4 h-graceful h-force h-crash h-5 || die "not every tenant Serving after the upgrade"
for id in h-1 h-2 h-3 h-4 h-graceful h-force h-crash h-5; do
  curl -fs -o /dev/null --retry 10 --retry-connrefused --max-time 5 -X POST "$POOL/v1/tenants/$id/requests" || die "$id not served after the upgrade"
done
kill "$LOAD_PID"; wait "$LOAD_PID" || true; LOAD_PID=
read -r ok err < "$WORK/load"
log "steady load on the pool across the lease loss, 3 leader failures and the upgrade: $ok ok, $err errors"
{ [ "$err" = 0 ] && [ "$ok" -gt 0 ]; } || die "the pool failed requests while the controller was disturbed"

log "helm uninstall: the chart's objects go; CRDs, classes, tenants, pools and the token Secret stay"
"$HELM" uninstall isolato -n $NS --wait >/dev/null || die "helm uninstall failed"
for o in deployment/isolato-controller service/isolato serviceaccount/isolato-controller pdb/isolato-controller networkpolicy/isolato-controller; do
  ! kubectl -n $NS get "$o" >/dev/null 2>&1 || die "$o left after uninstall"
done
! kubectl get clusterrole isolato-controller >/dev/null 2>&1 || die "ClusterRole left after uninstall"
kubectl get crd tenants.isolato.dev sloclasses.isolato.dev >/dev/null || die "CRDs removed"
kubectl -n $NS get secret isolato-api-tokens >/dev/null || die "token Secret removed"
kubectl -n $NS get tenant h-1 >/dev/null || die "tenant h-1 removed"
# h-1 commits 1 req/s and was just asked (upgrade check): a 429 within that second is its limit
served_h1() { code=$(curl -s -o "$WORK/h1" -w '%{http_code}' --max-time 5 -X POST "$POOL/v1/tenants/h-1/requests" || true); [ "$code" = 200 ]; }
eventually 10 served_h1 || { kubectl -n "$POOL_NS" get pods,endpointslices -o wide >&2; cat "$WORK/h1" >&2
  die "h-1 not served after uninstall (HTTP $code)"; }
log "PASS"
