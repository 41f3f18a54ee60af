# Extra real nodes on the same host (`localkube up --nodes N`, config key node.count). Node 1 is
# the host itself (lib/components.sh). Node i ≥ 2 is a network namespace `localkube-node-<i>`
# joined to the host by a veth pair (host 10.250.<i>.1/30, node 10.250.<i>.2), in which its own
# containerd, kubelet and kube-proxy run (entered with nsenter --net only: they share the host's
# mount namespace, so the kubelet's volume mounts are the ones containerd's runc sees). Its own
# state lives under $LK_HOME/nodes/<i>/ (containerd root/state/socket, kubelet root dir, pod logs,
# CNI config and IPAM), its pods under cgroup /localkube-node-<i>/kubepods, its pod CIDR is the
# i-th /24 of the cluster's /16, routed by the host through the veth. Deleting the namespace
# removes its bridge, veth, route and iptables at once; the cgroups and the Node object (when a
# node leaves a running cluster) are removed by name.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the LK_NODE_* variables are read by the render functions (dynamic scope)

lk_node_count() { local n; n=$(lk_conf node.count); echo "${n:-1}"; }
lk_node_netns() { echo "localkube-node-$1"; }
lk_node_name() { echo "$(lk_conf node.name)-$1"; }
lk_node_ip() { echo "10.250.$1.2"; }
lk_node_home() { echo "$LK_HOME/nodes/$1"; }
lk_node_cgroup() { echo "localkube-node-$1"; }

# The cluster's pod CIDR (node.pod-cidr's /16) and node i's /24 in it (node 1: node.pod-cidr).
lk_cluster_cidr() { local a b _; IFS=./ read -r a b _ <<< "$(lk_conf node.pod-cidr)"; echo "$a.$b.0.0/16"; }
lk_node_pod_cidr() {
  local a b c _; IFS=./ read -r a b c _ <<< "$(lk_conf node.pod-cidr)"
  echo "$a.$b.$((c + $1 - 1)).0/24"
}
# What kube-proxy calls the cluster: the pod CIDR of the one node, or the whole /16.
lk_proxy_cluster_cidr() { if [ "$(lk_node_count)" -gt 1 ]; then lk_cluster_cidr; else lk_conf node.pod-cidr; fi; }

# The extra-node components: <component>-<i>.
lk_node_components() { echo "containerd-$1 kubelet-$1 kube-proxy-$1"; }
lk_node_index() { [[ "$1" =~ ^(containerd|kubelet|kube-proxy|network-policies)-([0-9]+)$ ]] && echo "${BASH_REMATCH[2]}"; }
lk_netns_of() { local i; i=$(lk_node_index "$1") && lk_node_netns "$i"; }

# Indexes of the extra nodes that have state (started by an `up`, not yet brought down).
lk_present_nodes() {
  local d
  for d in "$LK_HOME"/nodes/*/; do [ -d "$d" ] && basename "$d"; done | sort -n
}

# Runs a command with the variables the render functions read set for node i.
lk_in_node() { # i command...
  local i=$1; shift
  local LK_NODE_HOME LK_CONTAINERD_SOCK LK_NODE_IP LK_NODE_POD_CIDR LK_NODE_CERT LK_NODE_EXTRA=$i
  LK_NODE_HOME=$(lk_node_home "$i"); LK_CONTAINERD_SOCK=$LK_NODE_HOME/run/containerd.sock
  LK_NODE_IP=$(lk_node_ip "$i")
  LK_NODE_POD_CIDR=$(lk_node_pod_cidr "$i"); LK_NODE_CERT=-$i
  "$@"
}

lk_node_exec() { nsenter "--net=/run/netns/$(lk_node_netns "$1")" -- "${@:2}"; }

lk_node_pki() { # i
  local name ip; name=$(lk_node_name "$1"); ip=$(lk_node_ip "$1")
  lk_pki_cert "kubelet-client-$1" "/O=system:nodes/CN=system:node:$name" client ""
  lk_pki_cert "kubelet-server-$1" "/CN=$name" server "DNS:$name,DNS:localhost,IP:$ip,IP:127.0.0.1"
  lk_pki_kubeconfig "kubelet-$1" "kubelet-client-$1"
}

# The node's namespace, veth and route; its kubepods cgroup root in every v1 hierarchy.
lk_node_network_up() { # i
  local i=$1 ns host=lk-veth$1 d cg; ns=$(lk_node_netns "$i"); cg=$(lk_node_cgroup "$i")
  ip netns list | grep -qw "^$ns" || ip netns add "$ns"
  if ! ip link show "$host" >/dev/null 2>&1; then
    ip link add "$host" type veth peer name eth0 netns "$ns"
    ip addr add "10.250.$i.1/30" dev "$host"
    ip link set "$host" up
  fi
  lk_node_exec "$i" sh -ec "
    ip link set lo up; ip link set eth0 up
    ip addr show dev eth0 | grep -q ' $(lk_node_ip "$i")/' || ip addr add $(lk_node_ip "$i")/30 dev eth0
    ip route replace default via 10.250.$i.1
    sysctl -qw net.ipv4.ip_forward=1"
  # from the node IP, as host traffic to node 1's pods comes from it (or cni0's address): the
  # pools' NetworkPolicies admit the controller by those addresses
  ip route replace "$(lk_node_pod_cidr "$i")" via "$(lk_node_ip "$i")" dev "$host" src "$(lk_conf node.ip)"
  for d in /sys/fs/cgroup/*/; do
    [ -f "$d/cgroup.procs" ] || continue
    mkdir -p "$d$cg"
    # a new cpuset group has no CPUs until given its parent's
    [ -f "$d$cg/cpuset.cpus" ] && [ -z "$(cat "$d$cg/cpuset.cpus")" ] && cat "${d}cpuset.cpus" > "$d$cg/cpuset.cpus" && cat "${d}cpuset.mems" > "$d$cg/cpuset.mems"
  done
  mkdir -p "$(lk_node_home "$i")"/{cni/net.d,cni/ipam,run,pod-logs}
  lk_in_node "$i" lk_render_cni > "$(lk_node_home "$i")/cni/net.d/10-localkube.conflist"
}

# Pods of every node leave the host through node 1's tagged masquerade rule; between nodes their
# addresses stay (the bridges do not masquerade when there are several nodes).
lk_pod_masquerade() { # add|delete
  local tag="name: \"$LK_CNI_NET\" id: \"pod-masquerade\"" cidr; cidr=$(lk_cluster_cidr)
  local rule=(POSTROUTING -s "$cidr" ! -d "$cidr" -m comment --comment "$tag" -j MASQUERADE)
  if [ "$1" = add ]; then
    iptables -t nat -C "${rule[@]}" 2>/dev/null || iptables -t nat -A "${rule[@]}"
  else
    while iptables -t nat -D "${rule[@]}" 2>/dev/null; do :; done
  fi
}

lk_node_ready_i() { # i
  lk_kubectl get node "$(lk_node_name "$1")" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null | grep -x True >/dev/null
}

lk_node_up() { # i
  local i=$1 c
  lk_step "node $(lk_node_name "$i"): namespace $(lk_node_netns "$i"), pod CIDR $(lk_node_pod_cidr "$i")"
  lk_node_pki "$i"
  lk_node_network_up "$i"
  lk_start_component "containerd-$i"
  lk_in_node "$i" lk_ensure_base_images
  for c in "kubelet-$i" "kube-proxy-$i"; do lk_start_component "$c"; done
}

# Brings node i down: its processes, containers, mounts, namespace and cgroups. With `leave`,
# a running cluster first drains it and deletes its Node object afterwards.
lk_node_down() { # i [leave]
  local i=$1 leave=${2:-} name netns c; name=$(lk_node_name "$i")
  if [ "$leave" = leave ]; then
    lk_step "node $name leaves: draining it"
    lk_kubectl drain "$name" --ignore-daemonsets --delete-emptydir-data --force --timeout=120s >/dev/null 2>&1 \
      || lk_step "warning: draining $name did not finish; its pods are removed with it"
  fi
  for c in "network-policies-$i" "kube-proxy-$i" "kubelet-$i"; do lk_stop_process "$c"; done
  netns=$(lk_in_node "$i" lk_sandbox_netns_of "containerd-$i")
  lk_in_node "$i" lk_remove_containers_of "containerd-$i"
  lk_stop_process "containerd-$i"
  lk_in_node "$i" lk_stop_shims
  for c in $netns; do umount -l "$c" 2>/dev/null || true; rm -f "$c"; done
  ip netns list | grep -qw "^$(lk_node_netns "$i")" && ip netns del "$(lk_node_netns "$i")"
  ip link show "lk-veth$i" >/dev/null 2>&1 && ip link del "lk-veth$i"
  lk_node_cgroups_remove "$i"
  # mounts of its pods (volumes) under its state directory
  while read -r c; do umount -l "$c" 2>/dev/null || true; done < <(awk -v h="$(lk_node_home "$i")" 'index($5, h "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r)
  rm -rf "$(lk_node_home "$i")/cni/ipam"
  # Its Node object goes too (its pods are gone): a stale Ready one would draw pods at the next
  # `up` before the node is back. `leave` also forgets its state (images, certificates stay).
  lk_kubectl delete node "$name" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  if [ "$leave" = leave ]; then rm -rf "$(lk_node_home "$i")"; fi
}

# Its kubepods tree, deepest first, in every hierarchy (emptied by the kubelet's and runc's exit).
lk_node_cgroups_remove() { # i
  local d cg; cg=$(lk_node_cgroup "$1")
  for d in /sys/fs/cgroup/*/"$cg"; do
    [ -d "$d" ] || continue
    find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null || true
    [ -d "$d" ] && lk_step "warning: cgroup $d still has processes; left in place"
  done
  return 0
}

# Starts the extra nodes up to node.count, removes those above it (a running cluster).
lk_nodes_apply() {
  local n i c; n=$(lk_node_count)
  if [ "$n" -gt 1 ]; then lk_pod_masquerade add; fi
  # node 1's bridge masquerades only while it is alone (its new pods read this)
  lk_render_cni > "$LK_HOME/cni/net.d/10-localkube.conflist"
  for i in $(lk_present_nodes); do
    [ "$i" -gt "$n" ] && lk_node_down "$i" leave
  done
  for i in $(seq 2 "$n"); do
    if lk_is_running "containerd-$i" && lk_is_running "kubelet-$i" && lk_is_running "kube-proxy-$i"; then
      for c in $(lk_node_components "$i"); do
        if lk_changed "$c"; then lk_step "configuration of $c changed: restarting it"; lk_stop_process "$c"; lk_start_component "$c"; fi
      done
    else
      lk_node_up "$i"
    fi
  done
  for i in $(seq 2 "$n"); do
    lk_wait_for "node $(lk_node_name "$i") Ready" 120 lk_node_ready_i "$i" || lk_die "node $(lk_node_name "$i") did not become Ready; see $LK_LOGS/kubelet-$i.log"
  done
  if [ "$n" -eq 1 ]; then lk_pod_masquerade delete; fi
  lk_nodes_netpol_apply
}
