# A pod of its own namespace that opens TCP connections, for end-to-end tests of NetworkPolicy
# enforcement (network-policies.enabled): what such a pod may reach. Needs KUBECONFIG.
# shellcheck shell=bash

# Starts pod `probe` in namespace NS (created, no policy in it) and checks it can connect at all
# (to its own demo server): a refused connection later is then the policy's doing.
probe_pod_start() { # NS
  kubectl create namespace "$1" >/dev/null
  kubectl -n "$1" apply -f - >/dev/null <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: probe}
spec:
  terminationGracePeriodSeconds: 0
  containers:
  - {name: c, image: localhost/localkube/demo:1, imagePullPolicy: Never, resources: {limits: {cpu: 20m, memory: 16Mi, ephemeral-storage: 16Mi}}}
YAML
  kubectl -n "$1" wait --for=condition=Ready pod/probe --timeout=60s >/dev/null || { echo "the probe pod in $1 did not start" >&2; return 1; }
  probe_connects "$1" "$(kubectl -n "$1" get pod probe -o jsonpath='{.status.podIP}')" 8080 \
    || { echo "the probe pod in $1 cannot open a connection at all (to itself)" >&2; return 1; }
}

# True when the probe pod of namespace NS opens a TCP connection to IP:PORT within 3 s.
probe_connects() { # NS IP PORT
  kubectl -n "$1" exec probe -- /bin/busybox nc -w 3 "$2" "$3" </dev/null >/dev/null 2>&1
}

probe_pod_delete() { kubectl delete namespace "$1" --wait=false >/dev/null 2>&1 || true; } # NS
