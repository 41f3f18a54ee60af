# KEDA (an optional part, keda.enabled): its operator and metrics API server built from the Go
# module proxy into images like the others, its CRDs, RBAC and namespace applied from the
# module's own config/, and manifests/keda.yaml for what differs on localkube (host network,
# certificates from localkube's CA). Isolato writes a ScaledObject per pool when KEDA's API is
# served (docs/autoscaling.md).
# shellcheck shell=bash

: "${LK_KEDA_VERSION:=v2.21.0}"
LK_KEDA_MODULE=github.com/kedacore/keda/v2
LK_KEDA_DIR="$LK_CACHE/keda-$LK_KEDA_VERSION"
LK_KEDA_ADAPTER_PORT=6444

# The module's own replace and exclude lines, which a wrapper module must repeat (Go ignores
# them in a dependency): KEDA v2.21.0's go.mod.
lk_write_keda_module() {
  local src=$1
  mkdir -p "$src"
  cat > "$src/go.mod" <<MOD
module isolato.dev/keda-build

go 1.26.0

require $LK_KEDA_MODULE $LK_KEDA_VERSION

replace github.com/nexus-rpc/nexus-proto-annotations v0.1.0 => github.com/nexus-rpc/nexus-proto-annotations v0.1.1-0.20260629224316-835bd8d49cb4

exclude github.com/go-chi/chi/v5 v5.2.3
MOD
  printf '//go:build tools\npackage tools\n\nimport (\n\t_ "%s/cmd/adapter"\n\t_ "%s/cmd/operator"\n)\n' \
    "$LK_KEDA_MODULE" "$LK_KEDA_MODULE" > "$src/tools.go"
}

# keda-operator and keda-adapter (the metrics API server) into the cache; cold ≈ 1 min to
# resolve the modules plus the compile time reported in docs/autoscaling.md.
lk_build_keda() {
  [ -x "$LK_KEDA_DIR/bin/keda-operator" ] && [ -x "$LK_KEDA_DIR/bin/keda-adapter" ] && return 0
  lk_require_go
  local src="$LK_KEDA_DIR/src" c
  lk_write_keda_module "$src"
  mkdir -p "$LK_KEDA_DIR/bin"
  if [ ! -f "$src/go.sum" ]; then
    lk_log "resolving KEDA $LK_KEDA_VERSION modules (cold: ~1 min)"
    (cd "$src" && go mod tidy -e >/dev/null 2>"$src/tidy.log") || { lk_log "error: go mod tidy failed, see $src/tidy.log"; return 1; }
  fi
  for c in operator adapter; do
    [ -x "$LK_KEDA_DIR/bin/keda-$c" ] && continue
    lk_log "building keda-$c $LK_KEDA_VERSION (cold: several minutes; cached afterwards)"
    (cd "$src" && CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X $LK_KEDA_MODULE/version.Version=${LK_KEDA_VERSION#v}" \
      -o "$LK_KEDA_DIR/bin/keda-$c.tmp" "$LK_KEDA_MODULE/cmd/$c") || { lk_log "error: building keda-$c failed"; return 1; }
    mv "$LK_KEDA_DIR/bin/keda-$c.tmp" "$LK_KEDA_DIR/bin/keda-$c"
  done
}

# Where the module's source is (its config/ holds the CRDs and RBAC).
lk_keda_module_dir() {
  (cd "$LK_KEDA_DIR/src" && go list -m -f '{{.Dir}}' "$LK_KEDA_MODULE")
}

lk_keda_image() { echo "localhost/localkube/keda-$1:${LK_KEDA_VERSION#v}"; }

lk_keda_enabled() {
  case "$(lk_conf keda.enabled)" in
    true) return 0 ;; false) return 1 ;;
    *) lk_die "config key 'keda.enabled' must be true or false, not '$(lk_conf keda.enabled)'" ;;
  esac
}

lk_keda_images() {
  local c ctx
  for c in operator adapter; do
    lk_image_present "$(lk_keda_image "$c")" && continue
    ctx=$(mktemp -d)
    cp "$LK_SRC/images/keda/Containerfile" "$ctx/"
    cp "$LK_KEDA_DIR/bin/keda-$c" "$ctx/keda"
    lk_load_image_build "$ctx" "$(lk_keda_image "$c")"
    rm -rf "$ctx"
  done
}

# The key pair both KEDA pods use: server (aggregated API, gRPC) and client (gRPC) in one.
lk_keda_secret() {
  local ip; ip=$(lk_conf node.ip)
  lk_pki_cert keda "/CN=keda-operator" both \
    "DNS:keda-operator.keda.svc,DNS:keda-metrics-apiserver.keda.svc,DNS:keda-metrics-apiserver.keda.svc.cluster.local,IP:127.0.0.1,IP:$ip"
  chmod 600 "$LK_PKI/keda.key"
  lk_kubectl_super -n keda create secret generic kedaorg-certs --dry-run=client -o yaml \
    --from-file=ca.crt="$LK_PKI/ca.crt" --from-file=tls.crt="$LK_PKI/keda.crt" --from-file=tls.key="$LK_PKI/keda.key" \
    | lk_kubectl_super apply --server-side --force-conflicts --field-manager=localkube -f - >/dev/null
}

lk_keda_apply_module() {
  local dir f
  dir=$(lk_keda_module_dir) || lk_die "KEDA's module source is missing from the Go module cache; run 'localkube build'"
  for f in general/namespace.yaml crd/bases/keda.sh_scaledobjects.yaml crd/bases/keda.sh_scaledjobs.yaml \
      crd/bases/keda.sh_triggerauthentications.yaml crd/bases/keda.sh_clustertriggerauthentications.yaml \
      crd/bases/eventing.keda.sh_cloudeventsources.yaml crd/bases/eventing.keda.sh_clustercloudeventsources.yaml \
      service_account/service_account.yaml rbac/role.yaml rbac/role_binding.yaml \
      metrics-server/role.yaml metrics-server/role_binding.yaml; do
    lk_kubectl_super apply --server-side --force-conflicts --field-manager=localkube -f "$dir/config/$f" >/dev/null \
      || lk_die "KEDA's $f was rejected; see the error above"
  done
}

# Installs (or updates) KEDA; a no-op apply when nothing changed. Waits until the external
# metrics API answers, so that a class created right after `up` gets its ScaledObject.
lk_keda_up() {
  lk_step "KEDA $LK_KEDA_VERSION: images, CRDs, RBAC, operator and metrics API server"
  lk_keda_images
  lk_keda_apply_module
  lk_keda_secret
  sed -e "s|__OPERATOR_IMAGE__|$(lk_keda_image operator)|" -e "s|__ADAPTER_IMAGE__|$(lk_keda_image adapter)|" \
      -e "s/__NODE_IP__/$(lk_conf node.ip)/g" -e "s/__ADAPTER_PORT__/$LK_KEDA_ADAPTER_PORT/g" \
      -e "s|__CA_BUNDLE__|$(base64 -w0 < "$LK_PKI/ca.crt")|" "$LK_SRC/manifests/keda.yaml" \
    | lk_kubectl_super apply --server-side --force-conflicts --field-manager=localkube -f - >/dev/null \
    || lk_die "manifests/keda.yaml was rejected; see the error above"
  local d
  for d in keda-operator keda-metrics-apiserver; do
    lk_kubectl -n keda rollout status "deploy/$d" --timeout=180s >/dev/null \
      || lk_die "KEDA's $d did not become ready; see 'kubectl -n keda get pods' and 'kubectl -n keda logs deploy/$d'"
  done
  lk_wait_for "the external metrics API" 60 lk_kubectl get --raw /apis/external.metrics.k8s.io/v1beta1 \
    || lk_die "the external metrics API (KEDA's metrics API server) is not served; see 'kubectl get apiservice v1beta1.external.metrics.k8s.io -o yaml'"
  lk_step "KEDA is serving the external metrics API"
}

# Removes what lk_keda_up installed (keda.enabled = false): pools fall back to the CPU HPA.
lk_keda_down() {
  lk_kubectl get namespace keda >/dev/null 2>&1 || return 0
  lk_step "KEDA is disabled: removing it"
  lk_kubectl delete apiservice v1beta1.external.metrics.k8s.io --ignore-not-found >/dev/null
  lk_kubectl delete namespace keda --wait=false >/dev/null
  lk_kubectl delete crd scaledobjects.keda.sh scaledjobs.keda.sh triggerauthentications.keda.sh \
    clustertriggerauthentications.keda.sh cloudeventsources.eventing.keda.sh clustercloudeventsources.eventing.keda.sh \
    --ignore-not-found --wait=false >/dev/null
}

lk_apply_keda() {
  if lk_keda_enabled; then lk_keda_up; else lk_keda_down; fi
}
