#!/usr/bin/env bash
# End-to-end smoke test of localkube on the real machine: up, a Guaranteed-QoS Deployment of a
# locally built image runs with the right CFS quota, a ClusterIP Service answers from the host,
# the metrics API reports the pod, a second real node (`up --nodes=2`) joins, carries a spread
# Deployment, leaves and rejoins,
# and `down` leaves nothing behind.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
NS=localkube-smoke
fails=0

step() { printf '[smoke] %s\n' "$*"; }
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then printf '[smoke] ok   %s\n' "$what"; else printf '[smoke] FAIL %s\n' "$what"; fails=$((fails + 1)); fi
}
# Polls until a command succeeds; a readiness signal, not a fixed delay.
eventually() { local t=$1; shift; local end=$(( $(date +%s) + t )); until "$@" >/dev/null 2>&1; do [ "$(date +%s)" -lt "$end" ] || return 1; sleep 0.5; done; }

step "localkube up"
"$LK" up
export KUBECONFIG
KUBECONFIG=$("$LK" kubeconfig)
# shellcheck source=../lib/build.sh
source "$ROOT/localkube/lib/build.sh"
kubectl() { "$LK_BIN_DIR/kubectl" "$@"; }
LOCALKUBE_HOME=${LOCALKUBE_HOME:-/var/lib/localkube}

check "kubectl reports server $LK_K8S_VERSION" bash -c "'$LK_BIN_DIR/kubectl' version -o json | jq -e '.serverVersion.gitVersion == \"$LK_K8S_VERSION\"' >/dev/null"
check "up on a running cluster is a no-op" bash -c "'$LK' up 2>&1 | grep -q 'nothing to do'"

step "deploying a Guaranteed-QoS pod (cpu 237m, memory 64Mi) and a ClusterIP Service"
kubectl delete namespace "$NS" --ignore-not-found --wait=true >/dev/null
kubectl create namespace "$NS" >/dev/null
kubectl -n "$NS" apply -f - >/dev/null <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: demo}
spec:
  replicas: 1
  selector: {matchLabels: {app: demo}}
  template:
    metadata: {labels: {app: demo}}
    spec:
      automountServiceAccountToken: false
      securityContext: {seccompProfile: {type: RuntimeDefault}}
      containers:
      - name: demo
        image: localhost/localkube/demo:1
        imagePullPolicy: Never
        ports: [{containerPort: 8080}]
        resources:
          requests: {cpu: 237m, memory: 64Mi}
          limits: {cpu: 237m, memory: 64Mi}
---
apiVersion: v1
kind: Service
metadata: {name: demo}
spec:
  selector: {app: demo}
  ports: [{port: 80, targetPort: 8080}]
EOF
check "deployment becomes available" kubectl -n "$NS" rollout status deployment/demo --timeout=90s
pod=$(kubectl -n "$NS" get pod -l app=demo -o jsonpath='{.items[0].metadata.name}')
uid=$(kubectl -n "$NS" get pod "$pod" -o jsonpath='{.metadata.uid}')
cid=$(kubectl -n "$NS" get pod "$pod" -o jsonpath='{.status.containerStatuses[0].containerID}'); cid=${cid#containerd://}
check "pod QoS class is Guaranteed" test "$(kubectl -n "$NS" get pod "$pod" -o jsonpath='{.status.qosClass}')" = Guaranteed
cg=/sys/fs/cgroup/cpu/kubepods/pod$uid/$cid
runs_under() { "$LK" status | grep -q "^runtime: runc version $1 ($2)\$"; }
check "containers run under Debian's runc (containerd.runc's default)" runs_under '[0-9.]*+ds1' /usr/sbin/runc
# A runc without seccomp support would start the pod without the filter or refuse it.
seccomp_filtered() { # POD: its container's process runs under a seccomp filter
  local u c
  u=$(kubectl -n "$NS" get pod "$1" -o jsonpath='{.metadata.uid}')
  c=$(kubectl -n "$NS" get pod "$1" -o jsonpath='{.status.containerStatuses[0].containerID}')
  grep -qx $'Seccomp:\t2' "/proc/$(head -1 "/sys/fs/cgroup/cpu/kubepods/pod$u/${c#containerd://}/cgroup.procs" 2>/dev/null || echo 0)/status"
}
check "the RuntimeDefault seccomp filter is on the container's process" seccomp_filtered "$pod"
refused_runc() {
  local out
  if out=$("$LK" config set containerd.runc runc 2>&1); then return 1; fi
  grep -q 'expected built or the absolute path of a runc executable' <<< "$out" || return 1
  out=$("$LK" config) # not piped into grep -q: pipefail would see config's SIGPIPE
  grep -Eq '^containerd.runc += /usr/sbin/runc$' <<< "$out"
}
check "a relative containerd.runc is refused with the reason, the setting kept" refused_runc
check "container CFS quota is 23700/100000" test "$(cat "$cg/cpu.cfs_quota_us" 2>/dev/null)/$(cat "$cg/cpu.cfs_period_us" 2>/dev/null)" = 23700/100000

svc=$(kubectl -n "$NS" get service demo -o jsonpath='{.spec.clusterIP}')
check "ClusterIP Service $svc answers from the host" eventually 30 bash -c "curl -sf --max-time 2 http://$svc/ | grep -qx ok"

step "waiting for the metrics API to report the pod (first scrape takes up to ~30 s)"
check "metrics API returns the pod's usage" eventually 120 bash -c \
  "'$LK_BIN_DIR/kubectl' get --raw /apis/metrics.k8s.io/v1beta1/namespaces/$NS/pods/$pod | jq -e '.containers[0].usage.cpu' >/dev/null"
check "kubectl top pod prints a value" eventually 60 bash -c "'$LK_BIN_DIR/kubectl' -n $NS top pod $pod --no-headers | grep -q '$pod'"

step "containerd.runc = built: the demo pod restarted under runc ${LK_RUNC_VERSION#v} from the Go module proxy"
"$LK" config set containerd.runc built >/dev/null
"$LK" up >/dev/null
check "containers run under the pinned runc" runs_under "${LK_RUNC_VERSION#v}" "$LK_RUNC_DIR/bin/runc"
kubectl -n "$NS" rollout restart deployment/demo >/dev/null
check "the demo pod is replaced under it" kubectl -n "$NS" rollout status deployment/demo --timeout=90s
new=$(kubectl -n "$NS" get pod -l app=demo -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' | grep -vx "$pod" | head -1 || true)
check "its RuntimeDefault seccomp filter is on" seccomp_filtered "$new"
"$LK" config unset containerd.runc >/dev/null
"$LK" up >/dev/null

step "up --nodes=2: a second real node joins; a spread Deployment uses both"
"$LK" up --nodes=2 >/dev/null
check "node localkube-2 is Ready" kubectl wait --for=condition=Ready node/localkube-2 --timeout=60s
kubectl -n "$NS" apply -f - >/dev/null <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: spread}
spec:
  replicas: 2
  selector: {matchLabels: {app: spread}}
  template:
    metadata: {labels: {app: spread}}
    spec:
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: spread}}}
      containers:
      - name: demo
        image: localhost/localkube/demo:1
        imagePullPolicy: Never
        resources: {limits: {cpu: 20m, memory: 16Mi, ephemeral-storage: 16Mi}}
EOF
check "the spread Deployment becomes available" kubectl -n "$NS" rollout status deployment/spread --timeout=90s
check "its pods run on 2 nodes" bash -c "[ \"\$('$LK_BIN_DIR/kubectl' -n '$NS' get pod -l app=spread -o jsonpath='{.items[*].spec.nodeName}' | tr ' ' '\n' | sort -u | wc -l)\" = 2 ]"
ip2=$(kubectl -n "$NS" get pod -l app=spread -o jsonpath='{.items[?(@.spec.nodeName=="localkube-2")].status.podIP}')
check "the host reaches the pod on node 2 ($ip2)" curl -sf --max-time 5 -o /dev/null "http://$ip2:8080/"
check "node 2's pod has the kubelet's PID limit" bash -c "cat /sys/fs/cgroup/pids/localkube-node-2/kubepods/pod*/pids.max | grep -qx 1024"
"$LK" up --nodes=1 >/dev/null
check "up --nodes=1: node localkube-2 left" bash -c "! '$LK_BIN_DIR/kubectl' get node localkube-2 >/dev/null 2>&1"
check "its namespace, veth and cgroups are gone" bash -c "! ip netns list | grep -q localkube-node- && ! ip link show lk-veth2 >/dev/null 2>&1 && ! ls -d /sys/fs/cgroup/*/localkube-node-* >/dev/null 2>&1"
check "its pods were rescheduled on node 1" kubectl -n "$NS" rollout status deployment/spread --timeout=90s
"$LK" up --nodes=2 >/dev/null
check "node localkube-2 joins again" kubectl wait --for=condition=Ready node/localkube-2 --timeout=60s

kubectl delete namespace "$NS" --wait=false >/dev/null
pids=$(cat "$LOCALKUBE_HOME"/pids/*.pid 2>/dev/null | tr '\n' ' ')
step "localkube down (started PIDs: $pids)"
"$LK" down
# Zombies (exited, not yet reaped by init) count as gone.
alive() { local p; for p in $pids; do [ -r "/proc/$p/stat" ] && ! awk '{ exit ($3 == "Z") ? 0 : 1 }' "/proc/$p/stat" && return 0; done; return 1; }
check "no started process is left" bash -c "! { $(declare -f alive); pids='$pids'; alive; }"
check "no mount under $LOCALKUBE_HOME is left" bash -c "! awk '{print \$5}' /proc/self/mountinfo | grep -qE '^$LOCALKUBE_HOME(/|$)'"
check "cni0 is gone" bash -c "! ip link show cni0 >/dev/null 2>&1"
check "no extra node's namespace, veth or cgroup is left" bash -c "! ip netns list | grep -q localkube-node- && ! ip link show lk-veth2 >/dev/null 2>&1 && ! ls -d /sys/fs/cgroup/*/localkube-node-* >/dev/null 2>&1"
# Only ours: other CNI users' chains may exist (test/host-safety.sh checks those survive).
none_of_ours_in_iptables() { ! iptables-save | grep -E '^:(KUBE-SVC|KUBE-SERVICES)|name: \\"localkube\\"' >/dev/null; }
check "no iptables rule or chain of localkube's is left" none_of_ours_in_iptables
# pgrep would match a wrapping shell's own command line, so no `bash -c` here.
no_shims() { ! pgrep -f "containerd-shim.* -address $LOCALKUBE_HOME/" >/dev/null; }
check "no containerd shim of ours is left" no_shims
check "down on a stopped cluster is fine" "$LK" down
"$LK" config unset node.count >/dev/null

if [ "$fails" -gt 0 ]; then step "$fails check(s) failed"; exit 1; fi
step "all checks passed"
