#!/usr/bin/env bash
# localkube's kube-network-policies under policy churn, in throw-away network namespaces with
# their own etcd and kube-apiserver (no cluster): while the pod's labels change 50 times a second
# (each change makes the enforcer sync its nftables table), connections its policy admits are
# never held back, and a source the policy does not list is refused. The upstream sync deleted
# and re-made the table, and the kernel drops every packet queued for a verdict when a hook goes
# (a SYN then is resent 1 s later); localkube's patch keeps the table. Needs root.
# usage: netpol-churn.sh [ENFORCER]   (default: localkube's cached build; prints its figures)
set -euo pipefail
LK_SRC=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/build.sh
source "$LK_SRC/lib/build.sh"
# shellcheck source=../lib/common.sh
source "$LK_SRC/lib/common.sh"
# shellcheck source=../lib/netpol.sh
source "$LK_SRC/lib/netpol.sh"
BIN=${1:-$LK_NETPOL_BIN}
CONNECTS=${NETPOL_CHURN_CONNECTS:-1000}
[ "$(id -u)" -eq 0 ] || { echo "[netpol-churn] needs root (network namespaces, nftables)"; exit 1; }
[ -x "$BIN" ] || lk_build_netpol || { echo "[netpol-churn] no enforcer binary at $BIN"; exit 1; }

W=$(mktemp -d)
NODE=lk-np-node-$$ CLIENT=lk-np-cl-$$ SERVER=lk-np-sv-$$
PIDS=() STOP_CP=
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  # the throw-away control plane is killed: its graceful shutdown takes ~20 s, and nothing of it is kept
  [ -z "$STOP_CP" ] || { xargs kill -KILL < "$W/cp/pids" 2>/dev/null; in_node "$LK_SRC/../bench/sh/bare-apiserver.sh" down "$W/cp"; }
  for p in "$NODE" "$CLIENT" "$SERVER"; do ip netns del "$p" 2>/dev/null || true; done
  rm -rf "$W"
}
trap cleanup EXIT
in_node() { ip netns exec "$NODE" "$@"; } # (not for background processes: $! would be the function's subshell)
log() { echo "[netpol-churn] $SECONDS s: $*"; }

# The node forwards between a client (10.77.1.2 admitted, 10.77.1.3 not) and the server pod
# (10.77.2.2): forwarded packets carry no local socket, so the enforcer queues their first one.
for n in "$NODE" "$CLIENT" "$SERVER"; do ip netns add "$n"; ip netns exec "$n" ip link set lo up; done
in_node sysctl -qw net.ipv4.ip_forward=1
in_node ip addr add 10.77.0.1/32 dev lo
link() { # netns subnet host...
  local ns=$1 net=$2 h; shift 2
  ip link add "np$$-$net" netns "$NODE" type veth peer name eth0 netns "$ns"
  in_node ip addr add "10.77.$net.1/24" dev "np$$-$net"; in_node ip link set "np$$-$net" up
  for h in "$@"; do ip netns exec "$ns" ip addr add "10.77.$net.$h/24" dev eth0; done
  ip netns exec "$ns" ip link set eth0 up
  ip netns exec "$ns" ip route add default via "10.77.$net.1"
}
link "$CLIENT" 1 2 3; link "$SERVER" 2 2

# A control plane of its own (bench's bare kube-apiserver + etcd), on the node namespace's loopback.
CP=$LK_SRC/../bench/sh/bare-apiserver.sh
KC=$(in_node "$CP" up "$W/cp") || { log "FAIL no kube-apiserver"; exit 1; }
STOP_CP=1
SERVER_URL=$(grep -o 'https://127.0.0.1:[0-9]*' "$KC")
TOKEN=$(sed -n 's/.*token: "\([^"]*\)".*/\1/p' "$KC")
kc() { in_node "$LK_BIN_DIR/kubectl" --kubeconfig="$KC" "$@"; }
api() { # METHOD PATH [JSON]: one request, as cheap as the churn needs
  in_node curl -skf -o /dev/null -X "$1" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/merge-patch+json' "$SERVER_URL$2" ${3:+-d "$3"}
}
kc apply -f - >/dev/null <<'EOF'
apiVersion: v1
kind: Namespace
metadata: {name: np}
---
apiVersion: v1
kind: Pod
metadata: {name: server, namespace: np, labels: {app: server}}
spec:
  nodeName: np-node
  containers: [{name: app, image: none}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: server, namespace: np}
spec:
  podSelector: {matchLabels: {app: server}}
  policyTypes: [Ingress]
  ingress: [{from: [{ipBlock: {cidr: 10.77.1.2/32}}], ports: [{port: 8080}]}]
EOF
api PATCH /api/v1/namespaces/np/pods/server/status \
  '{"status":{"phase":"Running","podIP":"10.77.2.2","podIPs":[{"ip":"10.77.2.2"}]}}'

# The server says when it listens (through a FIFO): a connect before that is refused by the
# kernel, which would pass the enforcing check below and fail the churn's count (a slow python
# start on a busy machine).
mkfifo "$W/listening"
ip netns exec "$SERVER" python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 8080)); s.listen(1024)
with open(sys.argv[1], "w") as ready:
    ready.write("listening\n")
while True:
    s.accept()[0].close()' "$W/listening" & PIDS+=($!)
read -r -t 60 _ < "$W/listening" || { log "FAIL the test server did not listen within 60 s"; exit 1; }
ip netns exec "$NODE" "$BIN" --kubeconfig="$KC" --hostname-override=np-node --disable-nri \
  --fail-open=true --netfilter-bug-1766-fix=false --metrics-bind-address=127.0.0.1:9080 --v=1 \
  > "$W/enforcer.log" 2>&1 & PIDS+=($!)

# connect SOURCE COUNT TIMEOUT: one line "connects ok slow(>0.5s) p50_ms p99_ms max_ms errors"
# (errors: each failure's errno name and count, "-" when none: a failed run says how it failed)
connect() {
  ip netns exec "$CLIENT" python3 - "$@" <<'EOF'
import collections, errno, socket, sys, time
src, n, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
times, ok, errors = [], 0, collections.Counter()
for _ in range(n):
    t = time.monotonic()
    try:
        socket.create_connection(("10.77.2.2", 8080), timeout, (src, 0)).close()
        ok += 1
    except OSError as e:
        errors[errno.errorcode.get(e.errno, type(e).__name__)] += 1
    times.append(time.monotonic() - t)
    time.sleep(0.002)  # pacing between connects, not a wait for anything
times.sort()
q = lambda f: times[min(len(times) - 1, int(f * len(times)))] * 1000
failed = ",".join(f"{k}:{v}" for k, v in sorted(errors.items())) or "-"
print(n, ok, sum(t > 0.5 for t in times), "%.1f %.1f %.1f" % (q(0.5), q(0.99), times[-1] * 1000), failed)
EOF
}
# Enforcing: the source the policy does not list gets no answer (its SYN is dropped: a time-out,
# not a refusal).
deadline=$((SECONDS + 30))
until read -r _ ok _ _ _ _ errs < <(connect 10.77.1.3 1 1) && [ "$ok" -eq 0 ] && [[ $errs == *imeout* ]]; do
  [ $SECONDS -lt $deadline ] || { tail -5 "$W/enforcer.log"; log "FAIL 10.77.1.3 never refused"; exit 1; }
done
log "ok   enforcing: 10.77.1.3 (not in the policy) refused"

syncs_before=$(grep -c 'Syncing nftables rules' "$W/enforcer.log" || true)
( i=0; while :; do i=$((i + 1)); api PATCH /api/v1/namespaces/np/pods/server "{\"metadata\":{\"labels\":{\"churn\":\"$i\"}}}" || true; sleep 0.01; done ) &
PIDS+=($!)
read -r n ok slow p50 p99 max errs < <(connect 10.77.1.2 "$CONNECTS" 3)
kill "${PIDS[-1]}"
syncs=$(( $(grep -c 'Syncing nftables rules' "$W/enforcer.log" || true) - syncs_before ))
log "$n connects from 10.77.1.2 during $syncs syncs: $ok ok, $slow slower than 0.5 s; p50 $p50 ms, p99 $p99 ms, max $max ms"
fails=0
[ "$syncs" -ge 40 ] || { log "FAIL only $syncs syncs: no churn to measure"; fails=1; }
errors=$(grep -c 'syncing nftables rules.*error' "$W/enforcer.log" || true)
[ "$errors" -eq 0 ] || { grep -m3 'syncing nftables rules.*error' "$W/enforcer.log"; log "FAIL $errors syncs failed"; fails=1; }
[ "$ok" -eq "$n" ] || { log "FAIL $((n - ok)) connects failed ($errs)"; fails=1; }
[ "$slow" -eq 0 ] || { log "FAIL $slow connects held back (a dropped SYN is resent after 1 s)"; fails=1; }
read -r _ ok _ _ _ _ errs < <(connect 10.77.1.3 1 1)
if [ "$ok" -ne 0 ] || [[ $errs != *imeout* ]]; then log "FAIL 10.77.1.3 not dropped after the churn (ok $ok, $errs)"; fails=1; fi
[ "$fails" -eq 0 ] && log "ok   no connect held back or refused while the enforcer synced"
[ -z "${NETPOL_CHURN_KEEP_LOG:-}" ] || cp "$W/enforcer.log" "$NETPOL_CHURN_KEEP_LOG"
exit "$fails"
