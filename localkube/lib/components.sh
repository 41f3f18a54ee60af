# How each component is configured, started and checked. A component's rendered command
# line and files are remembered in $LK_APPLIED so that `up` restarts only what changed.
# shellcheck shell=bash
# shellcheck disable=SC2034 # LK_COMPONENTS is read by lib/cluster.sh

LK_COMPONENTS=(etcd kube-apiserver containerd kube-controller-manager kube-scheduler kubelet kube-proxy metrics-server)

# Addresses each component listens on; checked before starting so a clash is a clear error.
lk_component_ports() {
  local ip; ip=$(lk_conf node.ip)
  case "$1" in
    etcd) echo "127.0.0.1:2379 127.0.0.1:2380 127.0.0.1:2381" ;;
    kube-apiserver) echo "$ip:$(lk_conf apiserver.secure-port)" ;;
    kube-controller-manager) echo "127.0.0.1:10257" ;;
    kube-scheduler) echo "127.0.0.1:10259" ;;
    kubelet) echo "$ip:10250 127.0.0.1:10248" ;;
    kube-proxy) echo "127.0.0.1:10249 127.0.0.1:10256" ;;
    metrics-server) echo "$ip:4443" ;;
    prometheus) echo "127.0.0.1:$(lk_conf prometheus.port)" ;;
  esac
}

lk_check_ports_free() {
  local comp=$1 addr port owner
  for addr in $(lk_component_ports "$comp"); do
    port=${addr##*:}
    owner=$(ss -Hltnp "( sport = :$port )" 2>/dev/null | grep -o 'users:(("[^"]*",pid=[0-9]*' | head -1 | sed 's/users:(("//; s/",pid=\([0-9]*\)/ (pid \1)/' || true)
    if [ -n "$owner" ]; then
      lk_die "$comp needs port $port but it is in use by $owner; stop that process, or change the port in 'localkube config'"
    fi
  done
}

lk_args() { # component -> its command line, one argument per line
  local c=$1 ip node
  ip=$(lk_conf node.ip); node=$(lk_conf node.name)
  case "$c" in
    etcd)
      printf '%s\n' /usr/bin/etcd --name=localkube "--data-dir=$LK_HOME/etcd/data" \
        --listen-client-urls=https://127.0.0.1:2379 --advertise-client-urls=https://127.0.0.1:2379 \
        --listen-peer-urls=http://127.0.0.1:2380 --initial-advertise-peer-urls=http://127.0.0.1:2380 \
        --initial-cluster=localkube=http://127.0.0.1:2380 --listen-metrics-urls=http://127.0.0.1:2381 \
        "--cert-file=$LK_PKI/etcd-server.crt" "--key-file=$LK_PKI/etcd-server.key" \
        --client-cert-auth=true "--trusted-ca-file=$LK_PKI/ca.crt"
      lk_conf_flags etcd ;;
    kube-apiserver)
      printf '%s\n' "$LK_BIN_DIR/kube-apiserver" "--bind-address=$ip" "--advertise-address=$ip" \
        --etcd-servers=https://127.0.0.1:2379 "--etcd-cafile=$LK_PKI/ca.crt" \
        "--etcd-certfile=$LK_PKI/apiserver-etcd-client.crt" "--etcd-keyfile=$LK_PKI/apiserver-etcd-client.key" \
        "--client-ca-file=$LK_PKI/ca.crt" "--tls-cert-file=$LK_PKI/apiserver.crt" "--tls-private-key-file=$LK_PKI/apiserver.key" \
        "--kubelet-client-certificate=$LK_PKI/apiserver-kubelet-client.crt" "--kubelet-client-key=$LK_PKI/apiserver-kubelet-client.key" \
        "--kubelet-certificate-authority=$LK_PKI/ca.crt" --kubelet-preferred-address-types=InternalIP \
        --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
        "--service-cluster-ip-range=$(lk_conf node.service-cidr)" \
        --service-account-issuer=https://kubernetes.default.svc.cluster.local \
        "--service-account-key-file=$LK_PKI/sa.pub" "--service-account-signing-key-file=$LK_PKI/sa.key" \
        --allow-privileged=true --enable-aggregator-routing=true \
        "--requestheader-client-ca-file=$LK_PKI/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
        --requestheader-extra-headers-prefix=X-Remote-Extra- --requestheader-group-headers=X-Remote-Group \
        --requestheader-username-headers=X-Remote-User \
        "--proxy-client-cert-file=$LK_PKI/front-proxy-client.crt" "--proxy-client-key-file=$LK_PKI/front-proxy-client.key"
      lk_conf_flags apiserver ;;
    containerd)
      printf '%s\n' /usr/bin/containerd "--config=${LK_NODE_HOME:-$LK_HOME}/containerd/config.toml" ;;
    kube-controller-manager)
      printf '%s\n' "$LK_BIN_DIR/kube-controller-manager" \
        "--kubeconfig=$LK_KUBECONFIGS/controller-manager.kubeconfig" \
        "--authentication-kubeconfig=$LK_KUBECONFIGS/controller-manager.kubeconfig" \
        "--authorization-kubeconfig=$LK_KUBECONFIGS/controller-manager.kubeconfig" \
        --bind-address=127.0.0.1 --secure-port=10257 \
        "--tls-cert-file=$LK_PKI/controller-manager-server.crt" "--tls-private-key-file=$LK_PKI/controller-manager-server.key" \
        "--client-ca-file=$LK_PKI/ca.crt" "--requestheader-client-ca-file=$LK_PKI/front-proxy-ca.crt" \
        "--cluster-signing-cert-file=$LK_PKI/ca.crt" "--cluster-signing-key-file=$LK_PKI/ca.key" \
        "--root-ca-file=$LK_PKI/ca.crt" "--service-account-private-key-file=$LK_PKI/sa.key" \
        --use-service-account-credentials=true --leader-elect=false \
        "--service-cluster-ip-range=$(lk_conf node.service-cidr)"
      lk_conf_flags controller-manager ;;
    kube-scheduler)
      printf '%s\n' "$LK_BIN_DIR/kube-scheduler" \
        "--kubeconfig=$LK_KUBECONFIGS/scheduler.kubeconfig" \
        "--authentication-kubeconfig=$LK_KUBECONFIGS/scheduler.kubeconfig" \
        "--authorization-kubeconfig=$LK_KUBECONFIGS/scheduler.kubeconfig" \
        --bind-address=127.0.0.1 --secure-port=10259 --leader-elect=false \
        "--tls-cert-file=$LK_PKI/scheduler-server.crt" "--tls-private-key-file=$LK_PKI/scheduler-server.key"
      lk_conf_flags scheduler ;;
    kubelet)
      printf '%s\n' "$LK_BIN_DIR/kubelet" "--config=$LK_HOME/kubelet/config.yaml" \
        "--kubeconfig=$LK_KUBECONFIGS/kubelet.kubeconfig" "--hostname-override=$node" \
        "--node-ip=$ip" "--root-dir=$LK_HOME/kubelet/root" --v=0 ;;
    kube-proxy)
      printf '%s\n' "$LK_BIN_DIR/kube-proxy" "--kubeconfig=$LK_KUBECONFIGS/kube-proxy.kubeconfig" \
        --proxy-mode=iptables "--cluster-cidr=$(lk_proxy_cluster_cidr)" "--hostname-override=$node" \
        "--bind-address=$ip" --metrics-bind-address=127.0.0.1:10249 --healthz-bind-address=127.0.0.1:10256 \
        "--nodeport-addresses=$ip/32" --conntrack-max-per-core=0
      lk_conf_flags proxy ;;
    metrics-server)
      printf '%s\n' "$LK_BIN_DIR/metrics-server" --secure-port=4443 "--bind-address=$ip" \
        "--tls-cert-file=$LK_PKI/metrics-server.crt" "--tls-private-key-file=$LK_PKI/metrics-server.key" \
        "--kubeconfig=$LK_KUBECONFIGS/metrics-server.kubeconfig" \
        "--authentication-kubeconfig=$LK_KUBECONFIGS/metrics-server.kubeconfig" \
        "--authorization-kubeconfig=$LK_KUBECONFIGS/metrics-server.kubeconfig" \
        "--kubelet-certificate-authority=$LK_PKI/ca.crt" --kubelet-preferred-address-types=InternalIP \
        "--kubelet-client-certificate=$LK_PKI/metrics-server.crt" "--kubelet-client-key=$LK_PKI/metrics-server.key"
      lk_conf_flags metrics-server ;;
    prometheus) lk_prometheus_args ;;
    prometheus-discovery) lk_prometheus_discovery_args ;;
    containerd-*) lk_in_node "${c#containerd-}" lk_args containerd ;;
    network-policies) lk_netpol_args "$node" ;;
    network-policies-*) lk_netpol_args "$(lk_node_name "${c#network-policies-}")" ;;
    kubelet-*)
      local i=${c#kubelet-}
      printf '%s\n' "$LK_BIN_DIR/kubelet" "--config=$(lk_node_home "$i")/kubelet/config.yaml" \
        "--kubeconfig=$LK_KUBECONFIGS/kubelet-$i.kubeconfig" "--hostname-override=$(lk_node_name "$i")" \
        "--node-ip=$(lk_node_ip "$i")" "--root-dir=$(lk_node_home "$i")/kubelet/root" --v=0 ;;
    kube-proxy-*)
      local i=${c#kube-proxy-}
      printf '%s\n' "$LK_BIN_DIR/kube-proxy" "--kubeconfig=$LK_KUBECONFIGS/kube-proxy.kubeconfig" \
        --proxy-mode=iptables "--cluster-cidr=$(lk_cluster_cidr)" "--hostname-override=$(lk_node_name "$i")" \
        "--bind-address=$(lk_node_ip "$i")" --metrics-bind-address=127.0.0.1:10249 --healthz-bind-address=127.0.0.1:10256 \
        "--nodeport-addresses=$(lk_node_ip "$i")/32" --conntrack-max-per-core=0
      lk_conf_flags proxy ;;
  esac
}

lk_render_containerd_config() {
  cat <<EOF
version = 2
root = "${LK_NODE_HOME:-$LK_HOME}/containerd/root"
state = "${LK_NODE_HOME:-$LK_HOME}/containerd/state"
[grpc]
  address = "$LK_CONTAINERD_SOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$LK_PAUSE_IMAGE"
  # Required here: the VM lacks CAP_SYS_RESOURCE, without this every sandbox fails to start.
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    default_runtime_name = "runc"
    snapshotter = "overlayfs"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$(lk_runc_binary)"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${LK_NODE_HOME:-$LK_HOME}/cni/net.d"
EOF
}

lk_render_kubelet_config() {
  local k
  cat <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: ${LK_NODE_IP:-$(lk_conf node.ip)}
healthzBindAddress: 127.0.0.1
readOnlyPort: 0
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $LK_PKI/ca.crt}
authorization: {mode: Webhook}
tlsCertFile: $LK_PKI/kubelet-server${LK_NODE_CERT:-}.crt
tlsPrivateKeyFile: $LK_PKI/kubelet-server${LK_NODE_CERT:-}.key
containerRuntimeEndpoint: unix://$LK_CONTAINERD_SOCK
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
# Ephemeral-storage requests/limits and emptyDir sizeLimit are enforced (the eviction manager
# measures each pod's writable layers, logs and emptyDirs): a pod over its limit is evicted,
# its neighbours keep the disk (issue 37).
localStorageCapacityIsolation: true
serializeImagePulls: false
# No registry can refill a collected image: never garbage-collect images.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%"}
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
EOF
  # An extra node keeps its pods' cgroups and logs apart from node 1's (whose kubelet would
  # otherwise remove log directories of pods it does not know).
  if [ -n "${LK_NODE_EXTRA:-}" ]; then
    printf 'cgroupRoot: /%s\npodLogsDir: %s\n' "$(lk_node_cgroup "$LK_NODE_EXTRA")" "$LK_NODE_HOME/pod-logs"
  fi
  for k in "${LK_CONF_KEYS[@]}"; do
    if [[ "$k" == kubelet.* ]]; then printf '%s: %s\n' "${k#kubelet.}" "$(lk_yaml_scalar "${LK_CONF[$k]}")"; fi
  done
}

# Numbers and booleans stay bare; everything else is quoted so YAML does not reinterpret it.
lk_yaml_scalar() { if [[ "$1" =~ ^([0-9]+|true|false)$ ]]; then echo "$1"; else echo "\"$1\""; fi; }

lk_render_cni() {
  cat <<EOF
{
  "cniVersion": "1.0.0",
  "name": "$LK_CNI_NET",
  "plugins": [
    {
      "type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": $([ "$(lk_node_count)" -gt 1 ] && echo false || echo true), "hairpinMode": true,
      "ipam": {
        "type": "host-local", "dataDir": "${LK_NODE_HOME:-$LK_HOME}/cni/ipam",
        "ranges": [[{"subnet": "${LK_NODE_POD_CIDR:-$(lk_conf node.pod-cidr)}"}]],
        "routes": [{"dst": "0.0.0.0/0"}]
      }
    },
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
EOF
}

# Writes the files a component reads and prints its command line (args only, no files).
lk_prepare() {
  local c=$1
  case "$c" in
    containerd)
      mkdir -p "${LK_NODE_HOME:-$LK_HOME}/containerd" "$(dirname "$LK_CONTAINERD_SOCK")"
      lk_render_containerd_config > "${LK_NODE_HOME:-$LK_HOME}/containerd/config.toml" ;;
    kubelet) mkdir -p "$LK_HOME/kubelet/root"; lk_render_kubelet_config > "$LK_HOME/kubelet/config.yaml" ;;
    etcd) lk_prepare_etcd_dir ;;
    prometheus) lk_prometheus_prepare ;;
    prometheus-discovery) lk_prometheus_discovery_prepare ;;
    containerd-*) lk_in_node "${c#containerd-}" lk_prepare containerd >/dev/null ;;
    network-policies|network-policies-*) lk_netpol_prepare ;;
    kubelet-*)
      mkdir -p "$(lk_node_home "${c#kubelet-}")/kubelet/root"
      lk_in_node "${c#kubelet-}" lk_render_kubelet_config > "$(lk_node_home "${c#kubelet-}")/kubelet/config.yaml" ;;
  esac
  lk_args "$c"
}

# What a component's behaviour depends on: its command line and the files it reads.
lk_fingerprint() {
  lk_args "$1"
  case "$1" in
    containerd) lk_render_containerd_config ;;
    kubelet) lk_render_kubelet_config ;;
    containerd-*) lk_in_node "${1#containerd-}" lk_render_containerd_config ;;
    kubelet-*) lk_in_node "${1#kubelet-}" lk_render_kubelet_config ;;
    etcd) echo "storage=$(lk_conf etcd.storage)" ;;
    prometheus) lk_prometheus_config; cat "$LK_PROMETHEUS_RULES" ;;
  esac
}

lk_prepare_etcd_dir() {
  local dir=$LK_HOME/etcd
  mkdir -p "$dir"
  if [ "$(lk_conf etcd.storage)" = memory ]; then
    mountpoint -q "$dir" || mount -t tmpfs -o size=4g,mode=700 localkube-etcd "$dir"
  fi
  mkdir -p "$dir/data"; chmod 700 "$dir/data"
}

lk_health() {
  local c=$1 ip; ip=$(lk_conf node.ip)
  case "$c" in
    etcd) lk_https_ok https://127.0.0.1:2379/health "$LK_PKI/apiserver-etcd-client.crt" "$LK_PKI/apiserver-etcd-client.key" ;;
    kube-apiserver) lk_https_ok "https://$ip:$(lk_conf apiserver.secure-port)/readyz" "$LK_PKI/super-admin.crt" "$LK_PKI/super-admin.key" ;;
    # The CRI service initialises after the socket answers; the kubelet exits if it is early.
    containerd) ctr --address "$LK_CONTAINERD_SOCK" version >/dev/null && lk_logged_since_start containerd "Start streaming server" ;;
    kube-controller-manager) curl -sfk --max-time 2 https://127.0.0.1:10257/healthz ;;
    kube-scheduler) curl -sfk --max-time 2 https://127.0.0.1:10259/healthz ;;
    kubelet) curl -sf --max-time 2 http://127.0.0.1:10248/healthz ;;
    kube-proxy) curl -sf --max-time 2 http://127.0.0.1:10256/healthz ;;
    metrics-server) curl -sfk --max-time 2 "https://$ip:4443/livez" ;;
    prometheus) curl -sf --max-time 2 "$(lk_prometheus_url)/-/ready" ;;
    prometheus-discovery) lk_prometheus_discovery_health ;;
    containerd-*)
      lk_in_node "${c#containerd-}" ctr --address "$(lk_node_home "${c#containerd-}")/run/containerd.sock" version >/dev/null \
        && lk_logged_since_start "$c" "Start streaming server" ;;
    kubelet-*) lk_node_exec "${c#kubelet-}" curl -sf --max-time 2 http://127.0.0.1:10248/healthz ;;
    kube-proxy-*) lk_node_exec "${c#kube-proxy-}" curl -sf --max-time 2 http://127.0.0.1:10256/healthz ;;
    network-policies) lk_netpol_health ;;
    network-policies-*) lk_node_exec "${c#network-policies-}" curl -sf --max-time 2 -o /dev/null http://127.0.0.1:9080/metrics ;;
  esac
}

# Healthy, or no longer running (so waiting further is pointless).
lk_settled() { lk_health "$1" >/dev/null 2>&1 || ! lk_is_running "$1"; }

lk_start_component() {
  local c=$1 args attempt
  mapfile -t args < <(lk_prepare "$c")
  [ ${#args[@]} -gt 0 ] || lk_die "could not prepare $c's configuration"
  lk_check_ports_free "$c"
  mkdir -p "$LK_APPLIED"
  lk_fingerprint "$c" > "$LK_APPLIED/$c"
  # A component may exit early because a dependency is still initialising (the kubelet, when
  # containerd's CRI service is not ready yet): start it again, a bounded number of times.
  for attempt in 1 2 3; do
    lk_start_process "$c" "${args[@]}"
    lk_wait_for "$c to become healthy" "${LK_HEALTH_TIMEOUT:-90}" lk_settled "$c" || break
    lk_health "$c" >/dev/null 2>&1 && return 0
    [ "$attempt" -lt 3 ] && lk_step "$c exited while starting; starting it again ($((attempt + 1))/3)"
  done
  lk_is_running "$c" || echo "[localkube] $c exited; last lines of $LK_LOGS/$c.log:" >&2
  tail -n 15 "$LK_LOGS/$c.log" >&2
  lk_die "$c did not become healthy; see $LK_LOGS/$c.log, then run 'localkube down' and 'localkube up'"
}

# True when the running component was started with a different configuration.
lk_changed() { ! diff -q <(lk_fingerprint "$1") "$LK_APPLIED/$1" >/dev/null 2>&1; }
