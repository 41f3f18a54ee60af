#!/usr/bin/env bash
# End-to-end: saas-bench's FROM-scratch image as a pod (237m CPU, read-only root, non-root)
# behind a ClusterIP Service on localkube; requests go through the Service from the host.
# Usage: e2e.sh <static saas-bench binary>. Needs a running localkube (`localkube/localkube up`).
set -euo pipefail
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
LOCALKUBE=${LOCALKUBE:-$root/localkube/localkube}
IMAGE=localhost/isolato/saas-bench:dev
ns=saas-bench-e2e
log() { printf '[saas-bench e2e] %s\n' "$*" >&2; }
fail() { log "FAIL: $*"; kubectl -n "$ns" get pods -o wide >&2 || true; kubectl -n "$ns" logs deploy/saas-bench >&2 || true; exit 1; }

[ -x "$LOCALKUBE" ] || { log "no localkube at $LOCALKUBE"; exit 1; }
"$LOCALKUBE" status >/dev/null 2>&1 || { log "localkube is not running: start it with '$LOCALKUBE up'"; exit 1; }
export KUBECONFIG
KUBECONFIG=$("$LOCALKUBE" kubeconfig)

log "building and loading $IMAGE"
ctx=$("$root/saas-bench/image/stage.sh" "$bin" "$root/build/saas-bench-image")
"$LOCALKUBE" load-image --build "$ctx" --tag "$IMAGE" >&2

kubectl delete namespace "$ns" --ignore-not-found --wait=true >/dev/null
kubectl create namespace "$ns" >/dev/null
trap 'kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1 || true' EXIT

log "deploying"
kubectl -n "$ns" apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: saas-bench-tenants}
data:
  tenants.json: |
    {"version":"e2e-1","tenants":{
      "paper":{"profile":{"cpu":150,"memory":12000,"io":100}},
      "free":{"profile":{}},
      "limited":{"profile":{},"rateRps":0.01,"burst":1}}}
---
apiVersion: v1
kind: Secret
metadata: {name: saas-bench-admin}
stringData: {token: e2e-admin-token}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: saas-bench}
spec:
  replicas: 1
  selector: {matchLabels: {app: saas-bench}}
  template:
    metadata: {labels: {app: saas-bench}}
    spec:
      terminationGracePeriodSeconds: 30
      containers:
      - name: saas-bench
        image: $IMAGE
        imagePullPolicy: Never
        args: [serve, --listen, "0.0.0.0:8080", --data-dir, /data,
               --tenants, /etc/saas-bench/tenants.json, --admin-token-file, /etc/saas-bench-admin/token]
        ports: [{containerPort: 8080, name: http}]
        resources:
          requests: {cpu: 237m, memory: 128Mi}
          limits: {cpu: 237m, memory: 128Mi}
        securityContext:
          runAsNonRoot: true
          readOnlyRootFilesystem: true
          allowPrivilegeEscalation: false
        readinessProbe: {httpGet: {path: /readyz, port: http}, periodSeconds: 1}
        livenessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 10}
        volumeMounts:
        - {name: data, mountPath: /data}
        - {name: tenants, mountPath: /etc/saas-bench}
        - {name: admin, mountPath: /etc/saas-bench-admin}
      volumes:
      - {name: data, emptyDir: {}}
      - {name: tenants, configMap: {name: saas-bench-tenants}}
      - {name: admin, secret: {secretName: saas-bench-admin}}
---
apiVersion: v1
kind: Service
metadata: {name: saas-bench}
spec:
  selector: {app: saas-bench}
  ports: [{port: 80, targetPort: http}]
YAML
kubectl -n "$ns" rollout status deploy/saas-bench --timeout=180s >&2 || fail "rollout"
ip=$(kubectl -n "$ns" get svc saas-bench -o jsonpath='{.spec.clusterIP}')
url="http://$ip"
log "service at $url"

code() { curl -s -o /dev/null -m 10 -w '%{http_code}' -X POST "$url/v1/tenants/$1/requests"; }
# The Service's endpoints may trail readiness by a moment: await the first answer (bounded).
for _ in $(seq 1 100); do [ "$(code free)" = 200 ] && break; sleep 0.1; done
[ "$(code free)" = 200 ] || fail "no answer through the Service"
[ "$(code paper)" = 200 ] || fail "paper profile request"
[ "$(code nobody)" = 404 ] || fail "unknown tenant must be 404"
[ "$(code limited)" = 200 ] || fail "first request of a rate-limited tenant"
[ "$(code limited)" = 429 ] || fail "second request of a rate-limited tenant must be 429"
# counted while the tenant is in the table (its series goes with it when it leaves, below)
metrics=$(curl -s -m 10 "$url/metrics")
grep -q 'saasbench_requests_total{tenant="paper",code="200"} 1' <<<"$metrics" || fail "paper request not counted"

auth="Authorization: Bearer e2e-admin-token"
put=$(curl -s -m 10 -o /dev/null -w '%{http_code}' -X PUT -H "$auth" --data-binary \
  '{"version":"e2e-2","tenants":{"pushed":{"profile":{"cpu":10}}}}' "$url/v1/admin/tenants")
[ "$put" = 200 ] || fail "admin PUT returned $put"
[ "$(code pushed)" = 200 ] || fail "pushed tenant not served"
curl -s -m 10 -H "$auth" "$url/v1/admin/tenants" | grep -q '"version":"e2e-2"' || fail "admin GET version"

metrics=$(curl -s -m 10 "$url/metrics")
grep -q '^saasbench_worker_threads 1$' <<<"$metrics" || fail "a 237m pod must run 1 worker (cgroup quota)"
if grep -q 'saasbench_requests_total{tenant="paper"' <<<"$metrics"; then fail "paper left the table but its series stayed"; fi

log "deleting the pod: SIGTERM must drain and exit 0"
pod=$(kubectl -n "$ns" get pods -l app=saas-bench -o jsonpath='{.items[0].metadata.name}')
kubectl -n "$ns" delete pod "$pod" --wait=false >/dev/null
for _ in $(seq 1 300); do
  state=$(kubectl -n "$ns" get pod "$pod" -o jsonpath='{.status.containerStatuses[0].state.terminated.exitCode}' 2>/dev/null || true)
  [ -n "$state" ] && break
  kubectl -n "$ns" get pod "$pod" >/dev/null 2>&1 || break
  sleep 0.1
done
[ -z "${state:-}" ] || [ "$state" = 0 ] || fail "container exited with $state after SIGTERM"
log "ok"
