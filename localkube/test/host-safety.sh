#!/usr/bin/env bash
# localkube touches only what it created (issue 16): foreign CNI-x/KUBE-x chains and rules
# (IPv4 and IPv6), a podman CNI network with a running container, and a portmap chain another
# CNI user already had all survive `localkube up` + `down`; localkube's own rules and chains
# (a pod with a hostPort exercises the portmap plugin too) are all gone after `down`. The same for
# cgroups: localkube's CPU-accounting groups hold its processes and containerd's shims while it
# runs and are gone after `down`; a foreign group beside them stays.
# Takes the cluster down first: what exists before `up` is what localkube must leave alone.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
LK_SRC=$ROOT/localkube
# shellcheck source=../lib/build.sh
source "$LK_SRC/lib/build.sh"
# shellcheck source=../lib/common.sh
source "$LK_SRC/lib/common.sh"
# shellcheck source=../lib/images.sh
source "$LK_SRC/lib/images.sh"
# shellcheck source=../lib/cgroup.sh
source "$LK_SRC/lib/cgroup.sh"
DIFF=$LK_SRC/test/iptables_diff.py
NS=localkube-host-safety
NET=lk-foreign-test                      # the podman network and container
TAG='name: "lkforeign" id: "0123456789"' # a foreign CNI plugin's per-container tag
WORK=$(mktemp -d)
fails=0

step() { printf '[host-safety] %s\n' "$*"; }
check() {
  local what=$1; shift
  if "$@"; then printf '[host-safety] ok   %s\n' "$what"; else printf '[host-safety] FAIL %s\n' "$what"; fails=$((fails + 1)); fi
}
families=(iptables)
ip6tables-save -t nat >/dev/null 2>&1 && families+=(ip6tables)
source_of() { if [ "$1" = iptables ]; then echo 192.0.2.7/32; else echo 2001:db8::7/128; fi; }

# Each fixture rule once, as `family table chain args...`; created with -A, removed with -D.
fixture_rules() {
  local f src
  for f in "${families[@]}"; do
    src=$(source_of "$f")
    echo "$f nat CNI-lkforeign -m comment --comment '$TAG' -j ACCEPT"
    echo "$f nat POSTROUTING -s $src -m comment --comment '$TAG' -j CNI-lkforeign"
    echo "$f nat KUBE-lkforeign -m comment --comment lkforeign -j RETURN"
    echo "$f nat OUTPUT -m comment --comment lkforeign -j KUBE-lkforeign"
    echo "$f filter KUBE-lkforeign -m comment --comment lkforeign -j RETURN"
    echo "$f filter FORWARD -m comment --comment lkforeign -j KUBE-lkforeign"
  done
  echo "iptables nat CNI-HOSTPORT-DNAT -p tcp -m comment --comment 'dnat $TAG' -m multiport --dports 39999 -j CNI-lkforeign"
}
fixture() { # -A|-D
  local line words
  while IFS= read -r line; do
    # The fixture lines are this script's own constants; xargs splits their quotes.
    mapfile -t words < <(xargs -n1 printf '%s\n' <<< "$line")
    "${words[0]}" -w -t "${words[1]}" "$1" "${words[2]}" "${words[@]:3}"
  done < <(fixture_rules)
}
# A rule in nat's CHAIN tagged by the CNI network NAME (iptables-save prints name: \"NAME\").
nat_rule_tagged() { iptables-save -t nat | grep -F -- "-A $1 " | grep -F -- "name: \\\"$2\\\"" >/dev/null; }
chain_exists() { "$1" -w -t "$2" -S "$3" >/dev/null 2>&1; }
created_hostport=0

setup() {
  local f t
  for f in "${families[@]}"; do
    for t in nat filter; do chain_exists "$f" "$t" KUBE-lkforeign || "$f" -w -t "$t" -N KUBE-lkforeign; done
    chain_exists "$f" nat CNI-lkforeign || "$f" -w -t nat -N CNI-lkforeign
  done
  # The shared chain exactly as the portmap plugin of another CNI user (podman -p) makes it.
  if ! chain_exists iptables nat CNI-HOSTPORT-DNAT; then
    created_hostport=1
    iptables -w -t nat -N CNI-HOSTPORT-DNAT
    iptables -w -t nat -A PREROUTING -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT
    iptables -w -t nat -A OUTPUT -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT
  fi
  fixture -A
  podman network exists "$NET" || podman network create "$NET" >/dev/null
  podman image exists "$LK_PAUSE_IMAGE" || { lk_pause_context "$WORK"; podman build --quiet --runtime runc -t "$LK_PAUSE_IMAGE" "$WORK" >/dev/null; }
  podman run -d --rm --runtime runc --name "$NET" --network "$NET" "$LK_PAUSE_IMAGE" >/dev/null
  [ -z "$CPUACCT" ] || mkdir -p "$CPUACCT/lkforeign"
}

# Removes exactly what setup created, whatever happened in between.
teardown() {
  local f t
  "$LK" down >/dev/null 2>&1 || true
  podman rm -f -t 0 "$NET" >/dev/null 2>&1 || true
  podman network rm -f "$NET" >/dev/null 2>&1 || true
  fixture -D 2>/dev/null || true
  if [ "$created_hostport" = 1 ]; then
    iptables -w -t nat -D PREROUTING -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT 2>/dev/null || true
    iptables -w -t nat -D OUTPUT -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT 2>/dev/null || true
    iptables -w -t nat -X CNI-HOSTPORT-DNAT 2>/dev/null || true
  fi
  for f in "${families[@]}"; do
    for t in nat filter; do "$f" -w -t "$t" -X KUBE-lkforeign 2>/dev/null || true; done
    "$f" -w -t nat -X CNI-lkforeign 2>/dev/null || true
  done
  [ -z "$CPUACCT" ] || rmdir "$CPUACCT/lkforeign" 2>/dev/null || true
  rm -rf "$WORK"
}
trap teardown EXIT
CPUACCT=$(lk_cpuacct_root)
# PID's cpuacct cgroup is localkube's GROUP
in_group() { grep -qx "[0-9]*:\(.*,\)\?cpuacct\(,.*\)\?:/$LK_CGROUP/$2" "/proc/$1/cgroup"; }
shims_in_node_group() {
  local pid n=0
  for pid in $(pgrep -f -- "containerd-shim.* -address $LK_CONTAINERD_SOCK"); do in_group "$pid" node || return 1; n=$((n + 1)); done
  [ "$n" -gt 0 ]
}

step "taking the cluster down, then creating foreign chains, rules and podman network $NET"
"$LK" down >/dev/null
setup
check "podman's container on $NET has CNI rules" nat_rule_tagged POSTROUTING "$NET"
podman_ip=$(podman inspect -f "{{(index .NetworkSettings.Networks \"$NET\").IPAddress}}" "$NET")
[ -n "$podman_ip" ] || { step "podman's container on $NET has no address"; exit 1; }
python3 "$DIFF" snapshot "$WORK/before"

step "localkube up, and a pod with a hostPort (bridge ipMasq + portmap rules)"
"$LK" up
KUBECONFIG=$("$LK" kubeconfig); export KUBECONFIG
kubectl() { "$LK_BIN_DIR/kubectl" "$@"; }
kubectl delete namespace "$NS" --ignore-not-found --wait=true >/dev/null
kubectl create namespace "$NS" >/dev/null
kubectl -n "$NS" apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: {name: hostport}
spec:
  terminationGracePeriodSeconds: 0
  automountServiceAccountToken: false
  containers:
  - {name: pause, image: $LK_PAUSE_IMAGE, imagePullPolicy: Never, ports: [{containerPort: 8080, hostPort: 39080}]}
EOF
check "the hostPort pod runs" kubectl -n "$NS" wait --for=condition=Ready pod/hostport --timeout=90s
check "localkube's pod has a tagged masquerade rule" nat_rule_tagged POSTROUTING "$LK_CNI_NET"
check "localkube's pod has a tagged hostPort rule" nat_rule_tagged CNI-HOSTPORT-DNAT "$LK_CNI_NET"
check "kube-proxy's chains exist" bash -c "iptables-save -t nat | grep '^:KUBE-SERVICES' >/dev/null"
# An unallocated Service IP: refused on the host (curl exit 7), never routed off it
unallocated=$("$LK" config | awk '$1 == "node.service-cidr" { split($3, o, "."); printf "%d.%d.255.254", o[1], o[2] }')
check "a Service IP kube-proxy does not translate is refused, not routed off the host" \
  bash -c "curl -s -o /dev/null --max-time 3 http://$unallocated:8080/; [ \$? = 7 ]"
if [ -n "$CPUACCT" ]; then
  check "the API server runs in localkube's control-plane cgroup" in_group "$(cat "$LK_PIDS/kube-apiserver.pid")" control-plane
  check "the kubelet runs in localkube's node cgroup" in_group "$(cat "$LK_PIDS/kubelet.pid")" node
  check "containerd's shims (children it daemonised) run in the node cgroup too" shims_in_node_group
fi

step "localkube down"
"$LK" down
python3 "$DIFF" snapshot "$WORK/after"
check "foreign rules survive and nothing of localkube's is left (v4$([ ${#families[@]} -eq 2 ] && echo ' and v6'))" \
  python3 "$DIFF" check "$WORK/before" "$WORK/after" --foreign "lkforeign|$NET|CNI-HOSTPORT-DNAT|${podman_ip//./\\.}/" --network "$LK_CNI_NET"
check "podman network $NET still exists" podman network exists "$NET"
check "podman's container on $NET still runs" bash -c "[ \"\$(podman inspect -f '{{.State.Running}}' $NET)\" = true ]"
if [ -n "$CPUACCT" ]; then
  check "localkube's cgroups are gone" test ! -e "$CPUACCT/$LK_CGROUP"
  check "a foreign cgroup beside them stays" test -d "$CPUACCT/lkforeign"
fi

if [ "$fails" -gt 0 ]; then step "$fails check(s) failed"; exit 1; fi
step "all checks passed"
