# up, down and status of the whole cluster.
# shellcheck shell=bash

LK_REQUIRED_TOOLS=(
  "etcd:etcd-server" "containerd:containerd" "runc:runc" "ctr:containerd" "iptables:iptables"
  "iptables-save:iptables" "conntrack:conntrack" "ip:iproute2" "ss:iproute2" "podman:podman"
  "openssl:openssl" "curl:curl" "jq:jq" "gcc:build-essential" "python3:python3"
)

lk_check_tools() {
  local t pkg
  for t in "${LK_REQUIRED_TOOLS[@]}"; do
    pkg=${t#*:}; t=${t%%:*}
    command -v "$t" >/dev/null 2>&1 || lk_die "$t is missing (Debian package $pkg); run 'make deps'"
  done
  [ -x /usr/lib/cni/bridge ] || lk_die "CNI plugins are missing (Debian package containernetworking-plugins); run 'make deps'"
  [ "$(id -u)" -eq 0 ] || lk_die "localkube must run as root (it manages containerd, mounts and iptables)"
}

lk_running_components() { local c; for c in "${LK_COMPONENTS[@]}"; do if lk_is_running "$c"; then echo "$c"; fi; done; }

lk_up() {
  LK_T0=$(date +%s.%N)
  lk_check_tools
  lk_build_all
  [ "$(lk_conf containerd.runc)" != built ] || lk_build_runc # only when chosen
  mkdir -p "$LK_HOME"
  local running n_running=0 c
  running=$(lk_running_components); [ -n "$running" ] && n_running=$(wc -l <<< "$running")
  if [ "$n_running" -eq "${#LK_COMPONENTS[@]}" ]; then
    lk_apply_changes
    lk_nodes_apply
    lk_apply_optional
    lk_apply_keda
    return 0
  fi
  # Only our own traces (PID files, every node's included, stay after a kill): a cni0 without
  # them is another state directory's running cluster, which the port check below reports
  # instead of tearing down its bridge, node IP and kube-proxy rules.
  if [ "$n_running" -gt 0 ] || ls "$LK_PIDS"/*.pid >/dev/null 2>&1; then
    lk_step "found a half-started cluster (from a killed run?); cleaning up first"
    lk_down quiet
  fi
  for c in "${LK_COMPONENTS[@]}"; do lk_check_ports_free "$c"; done
  lk_step "preparing PKI, network and configuration under $LK_HOME"
  lk_pki_ensure
  lk_network_up
  for c in etcd kube-apiserver; do lk_step "starting $c"; lk_start_component "$c"; done
  lk_step "bootstrapping RBAC and the metrics API"
  lk_bootstrap
  for c in kube-controller-manager kube-scheduler containerd; do lk_step "starting $c"; lk_start_component "$c"; done
  lk_step "ensuring the pause and demo images"
  lk_ensure_base_images
  for c in kubelet kube-proxy metrics-server; do lk_step "starting $c"; lk_start_component "$c"; done
  lk_step "waiting for node $(lk_conf node.name) to be Ready"
  lk_wait_for "node Ready" 120 lk_node_ready || lk_die "the node did not become Ready; see $LK_LOGS/kubelet.log"
  lk_step "waiting for a probe pod to run"
  lk_probe_pod
  lk_nodes_apply
  lk_apply_optional
  lk_apply_keda
  lk_step "cluster is up. export KUBECONFIG=$LK_KUBECONFIGS/admin.kubeconfig"
}

# A running cluster: restart only components whose settings changed, in dependency order.
lk_apply_changes() {
  local c changed=()
  for c in "${LK_COMPONENTS[@]}"; do lk_changed "$c" && changed+=("$c"); done
  if [ ${#changed[@]} -eq 0 ]; then
    lk_step "cluster already up and matches its configuration; nothing to do"
    return 0
  fi
  if [[ " ${changed[*]} " == *" etcd "* ]] && ! grep -qx "storage=$(lk_conf etcd.storage)" "$LK_APPLIED/etcd"; then
    lk_step "etcd.storage changed: restarting the whole cluster"
    lk_down quiet
    lk_up
    return 0
  fi
  lk_pki_ensure
  for c in "${changed[@]}"; do
    lk_step "configuration of $c changed: restarting it"
    lk_stop_process "$c"
    lk_start_component "$c"
  done
  lk_wait_for "node Ready" 120 lk_node_ready || lk_die "the node did not become Ready after the restart"
  lk_step "applied: restarted ${changed[*]}"
}

lk_known_component() {
  [[ " ${LK_COMPONENTS[*]} ${LK_OPTIONAL_COMPONENTS[*]} " == *" $1 "* ]] \
    || lk_die "unknown component '$1' (known: ${LK_COMPONENTS[*]} ${LK_OPTIONAL_COMPONENTS[*]})"
}

# One component of a running cluster stopped (by its PID, as `down` does) and started again
# with its current configuration: the fault-injection tests restart the API server or kubelet.
lk_restart_component() {
  local c=$1
  LK_T0=$(date +%s.%N)
  lk_known_component "$c"
  lk_is_running "$c" || lk_die "$c does not run; 'localkube up' starts the cluster"
  lk_step "restarting $c"
  lk_stop_process "$c"
  lk_start_component "$c"
  lk_step "$c restarted (pid $(lk_pid_of "$c"))"
}

lk_node_ready() {
  lk_kubectl get node "$(lk_conf node.name)" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null | grep -x True >/dev/null
}

lk_bootstrap() {
  local ca
  ca=$(base64 -w0 < "$LK_PKI/ca.crt")
  sed -e "s/__NODE_IP__/$(lk_conf node.ip)/" -e "s|__CA_BUNDLE__|$ca|" "$LK_SRC/manifests/bootstrap.yaml" \
    | lk_kubectl_super apply --server-side --force-conflicts --field-manager=localkube --warnings-as-errors=false -f - 2> >(grep -v '^Warning:' >&2) >/dev/null \
    || lk_die "bootstrap manifests were rejected; see the error above"
}

lk_probe_pod() {
  lk_wait_for "the default ServiceAccount" 60 lk_kubectl -n default get serviceaccount default
  lk_kubectl -n default delete pod localkube-probe --ignore-not-found --wait=true >/dev/null
  lk_kubectl -n default apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: {name: localkube-probe, labels: {app.kubernetes.io/managed-by: localkube}}
spec:
  nodeName: $(lk_conf node.name)
  terminationGracePeriodSeconds: 0
  automountServiceAccountToken: false
  containers:
  - {name: probe, image: $LK_PAUSE_IMAGE, imagePullPolicy: Never}
EOF
  lk_kubectl -n default wait --for=condition=Ready pod/localkube-probe --timeout=90s >/dev/null \
    || lk_die "the probe pod did not run; see 'kubectl describe pod localkube-probe' and $LK_LOGS/kubelet.log"
  lk_kubectl -n default delete pod localkube-probe --wait=false >/dev/null
}

lk_network_up() {
  lk_host_network_claim "$(lk_conf node.ip)"
  sysctl -qw net.ipv4.ip_forward=1
  [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ] && sysctl -qw net.bridge.bridge-nf-call-iptables=1
  mkdir -p "$LK_HOME/cni/net.d" "$LK_HOME/cni/ipam"
  # Before any component runs: which shared-name chains (KUBE-FIREWALL, CNI-HOSTPORT-*, ...)
  # belong to someone else, so that `down` leaves them.
  python3 "$LK_SRC/lib/iptables_owned.py" record "$LK_IPTABLES_RECORD" || lk_die "could not read iptables (iptables-save failed)"
  lk_service_guard
  lk_render_cni > "$LK_HOME/cni/net.d/10-localkube.conflist"
}

# A connection to a Service IP that kube-proxy does not translate (no endpoint, or the instant
# between its filter and nat updates) would follow the default route off the host; it is
# refused here instead (filter runs after nat's DNAT, so translated ones pass). The rules carry
# the CNI tag of localkube's network: iptables_owned.py clean removes them on `down`.
lk_service_guard() {
  local cidr chain tag; cidr=$(lk_conf node.service-cidr)
  tag="name: \"$LK_CNI_NET\" id: \"service-cidr-guard\""
  for chain in OUTPUT FORWARD; do
    iptables -C "$chain" -d "$cidr" -m comment --comment "$tag" -j REJECT 2>/dev/null \
      || iptables -A "$chain" -d "$cidr" -m comment --comment "$tag" -j REJECT \
      || lk_die "could not add the Service CIDR guard to iptables $chain"
  done
}

lk_down() {
  local quiet=${1:-}
  LK_T0=${LK_T0:-$(date +%s.%N)}
  [ -n "$quiet" ] || lk_step "stopping the cluster"
  lk_host_network_adopt "$(lk_conf node.ip)"
  if [ -f "$LK_PIDS/kwok.pid" ]; then lk_kwok_down || lk_step "warning: kwok's fake nodes were not all removed"; fi
  local netns
  local c i
  for c in "${LK_OPTIONAL_COMPONENTS[@]}"; do lk_stop_process "$c"; done
  for i in $(lk_present_nodes); do lk_node_down "$i"; done
  for c in metrics-server kube-proxy kubelet; do lk_stop_process "$c"; done
  netns=$(lk_sandbox_netns)
  [ -n "$quiet" ] || lk_step "removing pod containers"
  lk_remove_containers
  for c in containerd kube-scheduler kube-controller-manager kube-apiserver etcd; do lk_stop_process "$c"; done
  lk_stop_shims
  [ -n "$quiet" ] || lk_step "unmounting and removing network state"
  lk_unmount_all "$netns"
  lk_pod_masquerade delete
  lk_network_down
  lk_cgroup_remove
  [ -n "$quiet" ] || lk_step "cluster is down (state kept in $LK_HOME; 'localkube down --purge' removes it)"
}

# Network namespaces of our pod sandboxes, read before containerd stops.
lk_sandbox_netns() { lk_sandbox_netns_of containerd; }
lk_sandbox_netns_of() { # the containerd component whose socket LK_CONTAINERD_SOCK is
  lk_is_running "$1" || return 0
  local id
  for id in $(lk_ctr containers ls -q 2>/dev/null); do
    lk_ctr containers info "$id" 2>/dev/null | jq -r '.Spec.linux.namespaces[]? | select(.type=="network") | .path // empty'
  done | { grep '^/' || true; } | sort -u
}

lk_remove_containers() { lk_remove_containers_of containerd; }
lk_remove_containers_of() {
  lk_is_running "$1" || return 0
  local id
  for id in $(lk_ctr tasks ls -q 2>/dev/null); do lk_ctr tasks kill -s SIGKILL "$id" >/dev/null 2>&1 || true; done
  for id in $(lk_ctr containers ls -q 2>/dev/null); do
    lk_ctr tasks delete -f "$id" >/dev/null 2>&1 || true
    lk_ctr containers delete "$id" >/dev/null 2>&1 || true
  done
}

# Shims of our containerd (found by its socket in their command line) normally exit with their
# containers; any left over would keep mounts and cgroups alive.
lk_stop_shims() {
  local pid
  for pid in $(pgrep -f -- "containerd-shim.* -address $LK_CONTAINERD_SOCK" || true); do
    kill -TERM "$pid" 2>/dev/null || true
    lk_wait_gone "$pid" 30 || kill -KILL "$pid" 2>/dev/null || true
  done
}

lk_unmount_all() {
  local m ns
  # Deepest first; lazy, because a dying shim may still hold a mount for a moment.
  while read -r m; do
    umount -l "$m" 2>/dev/null || true
  done < <(awk -v h="$LK_HOME" '$5 == h || index($5, h "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r)
  for ns in $1; do
    umount -l "$ns" 2>/dev/null || true
    rm -f "$ns"
  done
}

lk_network_down() {
  # cni0, the node IP and kube-proxy's chains only when our `up` made them (lib/owned.sh)
  lk_host_network_release "$(lk_conf node.ip)" "$LK_BIN_DIR/kube-proxy"
  # What kube-proxy --cleanup leaves: the bridge/portmap plugins' rules tagged with our
  # network's name, and shared-name chains that did not exist before our `up`.
  python3 "$LK_SRC/lib/iptables_owned.py" clean --network "$LK_CNI_NET" --state "$LK_IPTABLES_RECORD" || true
  rm -f "$LK_IPTABLES_RECORD"
  rm -rf "$LK_HOME/cni/ipam"
  return 0
}

lk_status() {
  local c pid any=0
  printf '%-24s %-8s %s\n' COMPONENT PID STATE
  for c in "${LK_COMPONENTS[@]}" "${LK_OPTIONAL_COMPONENTS[@]}" $(for i in $(lk_present_nodes); do lk_node_components "$i"; done); do
    if pid=$(lk_pid_of "$c"); then
      any=1
      if lk_health "$c" >/dev/null 2>&1; then state=healthy; else state=unhealthy; fi
      lk_changed "$c" && state="$state (config changed: 'localkube up' restarts it)"
      printf '%-24s %-8s %s\n' "$c" "$pid" "$state"
    else
      printf '%-24s %-8s %s\n' "$c" - stopped
    fi
  done
  local n_up; n_up=$(lk_running_components | wc -l)
  if [ "$n_up" -gt 0 ] && [ "$n_up" -lt "${#LK_COMPONENTS[@]}" ]; then
    echo "cluster: half-started ($n_up of ${#LK_COMPONENTS[@]} components run); 'localkube up' cleans up and restarts it"
  fi
  if [ "$any" -eq 1 ] && lk_health kube-apiserver >/dev/null 2>&1; then
    echo
    lk_kubectl get nodes -o wide 2>/dev/null | cut -c1-100
    printf 'pods: %s running of %s\n' "$(lk_kubectl get pods -A --field-selector=status.phase=Running --no-headers 2>/dev/null | wc -l)" \
      "$(lk_kubectl get pods -A --no-headers 2>/dev/null | wc -l)"
    printf 'etcd storage: %s   kubeconfig: %s\n' "$(lk_conf etcd.storage)" "$LK_KUBECONFIGS/admin.kubeconfig"
    # The runtime containerd was started with, which a config change not yet applied does not move.
    local runc; runc=$(awk -F'"' '/BinaryName/ { print $2 }' "$LK_HOME/containerd/config.toml" 2>/dev/null)
    printf 'runtime: %s (%s)\n' "$("${runc:-runc}" --version 2>/dev/null | head -1)" "${runc:-runc}"
  fi
  [ "$any" -eq 1 ]
}

lk_purge() {
  lk_down quiet
  rm -rf "${LK_HOME:?}"
  echo "[localkube] removed $LK_HOME"
}
