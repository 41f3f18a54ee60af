#!/usr/bin/env bash
# lib/owned.sh on a real network stack, in throw-away network namespaces (no cluster): `down`
# removes cni0, the node IP and kube-proxy's chains only when its `up` made them. Needs root.
set -euo pipefail
LK_SRC=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
NS=lk-owned-test-$$
IP=10.250.0.1
fails=0
trap 'ip netns del "$NS" 2>/dev/null || true; rm -rf "$WORK"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "[owned] needs root (network namespaces)"; exit 1; }

check() {
  local what=$1; shift
  if "$@"; then echo "[owned] ok   $what"; else echo "[owned] FAIL $what"; fails=$((fails + 1)); fi
}
# Runs lib/owned.sh's functions (and checks) in the test namespace with the test's state dir.
in_ns() { ip netns exec "$NS" env LK_OWNED="$WORK/owned" LK_PIDS="$WORK/pids" bash -c "set -euo pipefail; source '$LK_SRC/lib/owned.sh'; $1"; }
fresh() { ip netns del "$NS" 2>/dev/null || true; ip netns add "$NS"; ip netns exec "$NS" ip link set lo up; rm -rf "${WORK:?}"/*; mkdir -p "$WORK/pids"; }
lacks() { ! "$@"; }
has_cni0() { in_ns 'ip link show cni0 >/dev/null 2>&1'; }
has_ip() { in_ns "lk_lo_has $IP"; }
has_chain() { in_ns "iptables-save -t nat | grep '^:KUBE-SERVICES ' >/dev/null"; }
# what kube-proxy --cleanup does to the chains, for the test (the real binary needs the cache)
FAKE_PROXY=$WORK/kube-proxy-cleanup
fake_proxy() { printf '#!/bin/sh\niptables -t nat -F KUBE-SERVICES; iptables -t nat -X KUBE-SERVICES\n' > "$FAKE_PROXY"; chmod +x "$FAKE_PROXY"; }

# 1. Someone else's: a cni0, the node IP and kube-proxy's chains exist before `up`.
fresh
in_ns "ip link add cni0 type bridge; ip addr add $IP/32 dev lo; iptables -t nat -N KUBE-SERVICES"
in_ns "lk_host_network_claim $IP"
check "up records nothing it did not make" test ! -s "$WORK/owned"
fake_proxy
in_ns "lk_host_network_release $IP $FAKE_PROXY"
check "down leaves another's cni0" has_cni0
check "down leaves another's node IP" has_ip
check "down leaves another's kube-proxy chains" has_chain

# 2. Ours: none exist before `up`; the bridge plugin and kube-proxy make theirs while it runs.
fresh
in_ns "lk_host_network_claim $IP"
check "up adds the node IP" has_ip
in_ns "ip link add cni0 type bridge; iptables -t nat -N KUBE-SERVICES"
fake_proxy
in_ns "lk_host_network_release $IP $FAKE_PROXY"
check "down removes its cni0" lacks has_cni0
check "down removes its node IP" lacks has_ip
check "down removes its kube-proxy chains" lacks has_chain
check "down forgets the record" test ! -e "$WORK/owned"

# 3. A cluster started before the record existed (PID files, no record): all of it is ours.
fresh
in_ns "ip link add cni0 type bridge; ip addr add $IP/32 dev lo"
touch "$WORK/pids/kubelet.pid"
in_ns "lk_host_network_adopt $IP"
in_ns "lk_host_network_release $IP /nonexistent"
check "down of a pre-record cluster removes cni0" lacks has_cni0
check "down of a pre-record cluster removes the node IP" lacks has_ip
# ... but a state directory without PID files (nothing of it runs) adopts nothing
fresh
in_ns "ip link add cni0 type bridge"
in_ns "lk_host_network_adopt $IP; lk_host_network_release $IP /nonexistent"
check "down of a state directory with nothing running leaves cni0" has_cni0

[ "$fails" -eq 0 ] || { echo "[owned] $fails check(s) failed"; exit 1; }
echo "[owned] all checks passed"
