# KWOK fake nodes (`localkube kwok up N` / `localkube kwok down`): sigs.k8s.io/kwok built from
# the Go module proxy into the cache, run as a localkube process that plays the kubelet of N
# fake nodes. The control plane stays real (apiserver, etcd, controller-manager, scheduler); a
# fake node's pods become Running and Ready as soon as kwok sees them bound (the module's "fast"
# stages), so the kubelet's stages (S5–S7) are simulated and take no time. Only pods that select
# the nodes' label and tolerate their taint land there; the real node never gets them, and the
# fake nodes never get anything else. Everything is labelled isolato.dev/kwok-node=true, and
# `down` (also part of `localkube down`) deletes only what carries that label.
# shellcheck shell=bash

: "${LK_KWOK_VERSION:=v0.8.0}"
LK_KWOK_MODULE=sigs.k8s.io/kwok
LK_KWOK_DIR="$LK_CACHE/kwok-$LK_KWOK_VERSION"
LK_KWOK_LABEL=isolato.dev/kwok-node
LK_KWOK_PREFIX=isolato-kwok-

# The kwok binary into the cache. kwok's go.mod has no replace lines, so `go install` works.
lk_build_kwok() {
  [ -x "$LK_KWOK_DIR/bin/kwok" ] && return 0
  lk_require_go
  lk_log "building kwok $LK_KWOK_VERSION (cold: a few minutes; cached afterwards in $LK_KWOK_DIR)"
  lk_go_install "$LK_KWOK_DIR/bin/kwok" "$LK_KWOK_MODULE/cmd/kwok@$LK_KWOK_VERSION" -ldflags "-s -w" \
    || { lk_log "error: building kwok failed"; return 1; }
}

# kwok's configuration: the module's own "fast" node and pod stages (kustomize/stage/*/fast).
lk_kwok_config() {
  local dir f
  dir=$(cd "$LK_KWOK_DIR" && go mod download -json "$LK_KWOK_MODULE@$LK_KWOK_VERSION" | jq -r .Dir) \
    || lk_die "kwok's module source is not in the Go module cache"
  for f in node/fast/node-initialize.yaml pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
    echo "---"
    cat "$dir/kustomize/stage/$f"
  done
}

lk_kwok_node() { # index → a fake Node: our label, kwok's annotation, a taint only our benchmark pods tolerate
  local name; name=$(printf '%s%02d' "$LK_KWOK_PREFIX" "$1")
  cat <<NODE
apiVersion: v1
kind: Node
metadata:
  name: $name
  labels: {$LK_KWOK_LABEL: "true", app.kubernetes.io/managed-by: localkube, kubernetes.io/hostname: $name, type: kwok}
  annotations: {kwok.x-k8s.io/node: fake, node.alpha.kubernetes.io/ttl: "0"}
spec:
  podCIDR: 10.250.$1.0/24
  taints: [{key: $LK_KWOK_LABEL, value: "true", effect: NoSchedule}]
status:
  allocatable: {cpu: "32", memory: 256Gi, pods: "110"}
  capacity: {cpu: "32", memory: 256Gi, pods: "110"}
NODE
}

lk_kwok_nodes_ready() { # n → true when n fake nodes are Ready and carry no taint but ours
  # (the node lifecycle controller's not-ready/unreachable taints outlive a lapse of the leases)
  [ "$(lk_kubectl get nodes -l "$LK_KWOK_LABEL=true" -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status} {.spec.taints[*].key}{"\n"}{end}' \
    | grep -cxF "True $LK_KWOK_LABEL")" -ge "$1" ]
}

lk_kwok_up() {
  local n=$1 i
  if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ] || [ "$n" -gt 200 ]; then
    lk_die "usage: localkube kwok up NODES (1–200 fake nodes)"
  fi
  lk_kubectl get --raw /readyz >/dev/null 2>&1 || lk_die "the cluster is not up: run 'localkube up' first"
  lk_build_kwok
  mkdir -p "$LK_HOME/kwok"
  lk_kwok_config > "$LK_HOME/kwok/kwok.yaml"
  if ! lk_is_running kwok; then
    # Node leases keep the fake nodes Ready. kwok plays a bound pod late and in bursts here
    # (S5: 40 pods on 2 nodes Ready after 31–34 s; the same without leases and with a status
    # heartbeat instead): a measured limit of the simulation, see docs/pipeline.md.
    lk_start_process kwok "$LK_KWOK_DIR/bin/kwok" --config "$LK_HOME/kwok/kwok.yaml" \
      --kubeconfig "$LK_KUBECONFIGS/super-admin.kubeconfig" --manage-all-nodes=false \
      --manage-nodes-with-label-selector "$LK_KWOK_LABEL=true" --node-lease-duration-seconds 40 \
      --cidr 10.250.0.1/16 --node-ip 10.250.255.254
  fi
  # Fewer nodes than before: remove those above n.
  lk_kubectl get nodes -l "$LK_KWOK_LABEL=true" -o name | sed "s|node/$LK_KWOK_PREFIX||" | while read -r i; do
    [ "$((10#$i))" -lt "$n" ] || lk_kubectl delete node "$LK_KWOK_PREFIX$i" --wait=false >/dev/null
  done
  # Only the missing ones: a node that exists may carry taints the node lifecycle controller
  # owns (unreachable while kwok's leases lapsed during an API server restart), which a
  # re-apply of the whole taint list would conflict with.
  local have missing=""
  have=$(lk_kubectl get nodes -l "$LK_KWOK_LABEL=true" -o name)
  for i in $(seq 0 $((n - 1))); do
    grep -qx "node/$(printf '%s%02d' "$LK_KWOK_PREFIX" "$i")" <<<"$have" || missing+="$(lk_kwok_node "$i")"$'\n---\n'
  done
  [ -z "$missing" ] || lk_kubectl apply --server-side --field-manager=localkube -f - <<<"$missing" >/dev/null \
    || lk_die "the fake nodes were rejected"
  lk_wait_for "$n kwok nodes Ready" 60 lk_kwok_nodes_ready "$n" \
    || lk_die "the fake nodes are not Ready; see $LK_LOGS/kwok.log"
  lk_step "$n kwok fake nodes Ready (label $LK_KWOK_LABEL=true, taint $LK_KWOK_LABEL=true:NoSchedule)"
}

lk_kwok_pods() { # pods bound to a fake node, as namespace/name
  local ns_name
  lk_kubectl get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.spec.nodeName}{"\n"}{end}' \
    | while read -r ns_name node; do case "$node" in "$LK_KWOK_PREFIX"*) echo "$ns_name" ;; esac; done
}

lk_kwok_no_pods() { [ -z "$(lk_kwok_pods)" ]; }

# Deletes the pods left on fake nodes (kwok finishes their deletion), then the nodes, then
# stops kwok. Nothing is left Terminating: a pod whose node is gone is deleted with grace 0.
lk_kwok_down() {
  local p left
  if lk_kubectl get --raw /readyz >/dev/null 2>&1; then
    lk_kwok_pods | while IFS=/ read -r ns name; do
      lk_kubectl -n "$ns" delete pod "$name" --wait=false >/dev/null 2>&1 || true
    done
    if lk_is_running kwok; then lk_wait_for "pods on kwok nodes gone" 120 lk_kwok_no_pods || true; fi
    left=$(lk_kwok_pods)
    for p in $left; do lk_kubectl -n "${p%%/*}" delete pod "${p#*/}" --grace-period=0 --force >/dev/null 2>&1 || true; done
    lk_kubectl delete nodes -l "$LK_KWOK_LABEL=true" --wait=true --timeout=60s >/dev/null
    # the nodes' leases (kwok's, named after our nodes; normally collected with their nodes)
    lk_kubectl -n kube-node-lease get leases -o name | grep "^lease.coordination.k8s.io/$LK_KWOK_PREFIX" \
      | xargs -r "$LK_BIN_DIR/kubectl" --kubeconfig "$LK_KUBECONFIGS/admin.kubeconfig" -n kube-node-lease delete >/dev/null || true
  fi
  lk_stop_process kwok
}
