#!/usr/bin/env bash
# A bare kube-apiserver + etcd on loopback (the binaries localkube builds, the controller ITs'
# RealApiServer's), no kubelet, no controller manager, no scheduler: what `isolato-bench scale`
# needs to measure the controller with its informers, reconciles and API writes real, without a
# cluster (and without the cluster lock). Pools' Deployments never get pods here.
#   bare-apiserver.sh up DIR   → writes DIR/kubeconfig, DIR/pids; prints the kubeconfig path
#   bare-apiserver.sh down DIR → stops what `up DIR` started (by its PIDs)
set -euo pipefail
cmd=${1:?up|down} dir=${2:?state directory}
BIN=${ISOLATO_K8S_BIN:-$HOME/.cache/isolato/localkube/k8s-v1.34.4/bin}
ETCD=${ISOLATO_ETCD:-/usr/bin/etcd}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

down() {
  [ -f "$dir/pids" ] || return 0
  local p
  while read -r p; do kill "$p" 2>/dev/null || true; done < "$dir/pids"
  while read -r p; do while kill -0 "$p" 2>/dev/null; do sleep 0.1; done; done < "$dir/pids"
  rm -f "$dir/pids"
}

case $cmd in
down) down; exit 0 ;;
up) ;;
*) echo "usage: $0 up|down DIR" >&2; exit 2 ;;
esac
mkdir -p "$dir"
down
rm -rf "$dir/etcd" "$dir/certs"
mkdir -p "$dir/certs"
openssl genrsa -out "$dir/certs/sa.key" 2048 2>/dev/null
openssl rsa -in "$dir/certs/sa.key" -pubout -out "$dir/certs/sa.pub" 2>/dev/null
token=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$token,admin,admin,system:masters" > "$dir/certs/tokens.csv"
etcd_port=$(free_port) peer_port=$(free_port) api_port=$(free_port)
"$ETCD" --data-dir "$dir/etcd" --listen-client-urls "http://127.0.0.1:$etcd_port" \
  --advertise-client-urls "http://127.0.0.1:$etcd_port" --listen-peer-urls "http://127.0.0.1:$peer_port" \
  --unsafe-no-fsync --quota-backend-bytes 4294967296 >"$dir/etcd.log" 2>&1 &
echo $! > "$dir/pids"
"$BIN/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" --bind-address 127.0.0.1 \
  --advertise-address 127.0.0.1 --secure-port "$api_port" --cert-dir "$dir/certs" \
  --token-auth-file "$dir/certs/tokens.csv" --authorization-mode RBAC \
  --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$dir/certs/sa.pub" \
  --service-account-signing-key-file "$dir/certs/sa.key" --service-cluster-ip-range 10.0.0.0/24 \
  --disable-admission-plugins ServiceAccount >"$dir/apiserver.log" 2>&1 &
echo $! >> "$dir/pids"
cat > "$dir/kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters: [{name: bare, cluster: {server: "https://127.0.0.1:$api_port", insecure-skip-tls-verify: true}}]
users: [{name: admin, user: {token: "$token"}}]
contexts: [{name: bare, context: {cluster: bare, user: admin}}]
current-context: bare
KC
for _ in $(seq 600); do
  if KUBECONFIG=$dir/kubeconfig "$BIN/kubectl" get --raw /readyz >/dev/null 2>&1; then
    echo "$dir/kubeconfig"; exit 0
  fi
  sleep 0.1
done
echo "kube-apiserver not ready in 60 s ($dir/apiserver.log)" >&2
down; exit 1
