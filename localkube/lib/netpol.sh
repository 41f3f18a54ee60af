# NetworkPolicy enforcement, an optional component (network-policies.enabled):
# sigs.k8s.io/kube-network-policies, pinned, from the Go module proxy, with localkube's patch
# (patches/): this kernel has no CONFIG_NFT_QUEUE, so the first packet of a connection to or from
# a pod goes to user space through the iptables NFQUEUE target (nft_compat) instead of nftables'
# `queue`; and a kubeconfig instead of the in-cluster config, as it runs as a host process. One
# process per node, in the node's network namespace (node 1: the host's), with its own identity.
# --fail-open: packets pass while it is not running (a stopped enforcer must not cut the host's
# pods off); it removes its nftables table when stopped.
# shellcheck shell=bash

LK_NETPOL_VERSION=v0.8.0
LK_NETPOL_PATCH=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/patches/kube-network-policies-$LK_NETPOL_VERSION.patch
# The cache key carries the patch's hash: a changed patch builds a new binary.
LK_NETPOL_DIR=$LK_CACHE/kube-network-policies-$LK_NETPOL_VERSION-$(sha256sum "$LK_NETPOL_PATCH" | cut -c1-12)
LK_NETPOL_BIN=$LK_NETPOL_DIR/bin/kube-network-policies
LK_OPTIONAL_COMPONENTS+=(network-policies)

# The patched binary into the cache (cold: ~4 min on 2 shared cores).
lk_build_netpol() {
  [ -x "$LK_NETPOL_BIN" ] && return 0
  lk_require_go
  local mod src=$LK_NETPOL_DIR/src
  lk_log "building kube-network-policies $LK_NETPOL_VERSION (patched; cold: ~4 min)"
  mod=$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "sigs.k8s.io/kube-network-policies@$LK_NETPOL_VERSION" | jq -r .Dir) \
    || { lk_log "error: the module proxy did not serve kube-network-policies $LK_NETPOL_VERSION"; return 1; }
  rm -rf "$src"; mkdir -p "$LK_NETPOL_DIR/bin"
  cp -r "$mod" "$src"; chmod -R u+w "$src"
  (cd "$src" && patch -s -p1 < "$LK_NETPOL_PATCH") || { lk_log "error: $LK_NETPOL_PATCH does not apply"; return 1; }
  (cd "$src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -o "$LK_NETPOL_BIN.tmp" ./cmd) \
    || { lk_log "error: building kube-network-policies failed"; return 1; }
  mv "$LK_NETPOL_BIN.tmp" "$LK_NETPOL_BIN"
}

lk_netpol_args() { # node name
  printf '%s\n' "$LK_NETPOL_BIN" "--kubeconfig=$LK_KUBECONFIGS/network-policies.kubeconfig" \
    "--hostname-override=$1" --disable-nri --fail-open=true --netfilter-bug-1766-fix=false \
    --metrics-bind-address=127.0.0.1:9080 --v=1
}

# Its identity and RBAC (the API server runs by the time optional components start).
lk_netpol_prepare() {
  lk_build_netpol || lk_die "kube-network-policies could not be built"
  lk_pki_cert network-policies "/CN=localkube-network-policies" client ""
  chmod 600 "$LK_PKI/network-policies.key"
  lk_pki_kubeconfig network-policies network-policies
  lk_kubectl_super apply --server-side --force-conflicts --field-manager=localkube \
    -f "$LK_SRC/manifests/network-policies-rbac.yaml" >/dev/null || lk_die "the network policies' RBAC was rejected"
}

lk_netpol_health() { curl -sf --max-time 2 -o /dev/null http://127.0.0.1:9080/metrics; }

# The extra nodes' enforcers follow network-policies.enabled like node 1's.
lk_nodes_netpol_apply() {
  local i c on=false
  lk_optional_enabled network-policies && on=true
  for i in $(seq 2 "$(lk_node_count)"); do
    c=network-policies-$i
    if [ "$on" = true ]; then
      lk_is_running "$c" && ! lk_changed "$c" && continue
      lk_stop_process "$c"; lk_start_component "$c"
    else
      lk_stop_process "$c"
    fi
  done
}
