#!/usr/bin/env bash
# Builds the pinned Kubernetes binaries (and metrics-server, KEDA) from the Go module proxy into a
# per-version cache outside the repository. Sourced by `localkube`; also runnable directly:
#   localkube/lib/build.sh            build whatever is missing
# Binaries are rebuilt only when missing, so a warm cache costs nothing.
set -euo pipefail

: "${LK_K8S_VERSION:=v1.34.4}"
: "${LK_METRICS_SERVER_VERSION:=v0.9.0}"
: "${LK_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/isolato/localkube}"

LK_BIN_DIR="$LK_CACHE/k8s-$LK_K8S_VERSION/bin"
LK_K8S_COMPONENTS=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)

# Every staging module of k8s.io/kubernetes must be pinned by a replace line, because the
# main module refers to them as v0.0.0 (they live in its staging/ directory upstream).
LK_STAGING_MODULES=(api apiextensions-apiserver apimachinery apiserver cli-runtime client-go
  cloud-provider cluster-bootstrap code-generator component-base component-helpers
  controller-manager cri-api cri-client csi-translation-lib dynamic-resource-allocation
  endpointslice externaljwt kms kube-aggregator kube-controller-manager kube-proxy
  kube-scheduler kubectl kubelet metrics mount-utils pod-security-admission sample-apiserver
  sample-cli-plugin sample-controller)

lk_log() { printf '[localkube] %s\n' "$*" >&2; }

# shellcheck source=keda.sh
source "$(dirname "${BASH_SOURCE[0]}")/keda.sh"
# shellcheck source=runc.sh
source "$(dirname "${BASH_SOURCE[0]}")/runc.sh"

lk_require_go() {
  command -v go >/dev/null 2>&1 || { lk_log "error: Go is missing; install Go >= 1.24 (run 'make deps')"; return 1; }
}

lk_k8s_ldflags() {
  local v=$LK_K8S_VERSION major minor
  major=${v#v}; major=${major%%.*}
  minor=${v#v*.}; minor=${minor%%.*}
  local f=""
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    f+=" -X $pkg.gitVersion=$v -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
    f+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
  echo "-s -w$f"
}

lk_write_k8s_module() {
  local src=$1 staging=${LK_K8S_VERSION/v1./v0.}
  mkdir -p "$src"
  {
    echo "module isolato.dev/localkube-build"
    echo
    echo "go 1.24"
    echo
    echo "require k8s.io/kubernetes $LK_K8S_VERSION"
    echo
    for m in "${LK_STAGING_MODULES[@]}"; do echo "replace k8s.io/$m => k8s.io/$m $staging"; done
  } > "$src/go.mod"
  # A blank import of every command keeps `go mod tidy` from dropping what we build.
  {
    echo "//go:build tools"
    echo "package tools"
    echo "import ("
    for c in "${LK_K8S_COMPONENTS[@]}"; do echo "	_ \"k8s.io/kubernetes/cmd/$c\""; done
    echo ")"
  } > "$src/tools.go"
}

lk_build_k8s() {
  local missing=()
  for c in "${LK_K8S_COMPONENTS[@]}"; do [ -x "$LK_BIN_DIR/$c" ] || missing+=("$c"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  lk_require_go
  local src="$LK_CACHE/k8s-$LK_K8S_VERSION/src"
  lk_write_k8s_module "$src"
  mkdir -p "$LK_BIN_DIR"
  if [ ! -f "$src/go.sum" ]; then
    lk_log "resolving Kubernetes $LK_K8S_VERSION modules (cold: ~1 min, ~700 MB)"
    (cd "$src" && go mod tidy -e >/dev/null 2>"$src/tidy.log") || { lk_log "error: go mod tidy failed, see $src/tidy.log"; return 1; }
  fi
  local ldflags i=0
  ldflags=$(lk_k8s_ldflags)
  for c in "${missing[@]}"; do
    i=$((i + 1))
    lk_log "building $c $LK_K8S_VERSION ($i/${#missing[@]}; cold: kube-apiserver ~5 min, the rest ~1 min each)"
    (cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$LK_BIN_DIR/$c.tmp" "k8s.io/kubernetes/cmd/$c") \
      || { lk_log "error: building $c failed"; return 1; }
    mv "$LK_BIN_DIR/$c.tmp" "$LK_BIN_DIR/$c"
  done
}

# `go install PACKAGE@VERSION [FLAGS]` into DEST (a file), through a scratch GOBIN beside it so
# that a failed build leaves no binary behind. CGO_ENABLED=0 unless the caller sets it.
lk_go_install() {
  local dest=$1 pkg=$2; shift 2
  local tmp; tmp="$(dirname "$dest")/.go-install"
  mkdir -p "$(dirname "$dest")"
  GOBIN="$tmp" CGO_ENABLED="${CGO_ENABLED:-0}" go install -trimpath "$@" "$pkg" || return 1
  mv "$tmp/$(basename "${pkg%@*}")" "$dest"
  rmdir "$tmp" 2>/dev/null || true
}

lk_build_metrics_server() {
  [ -x "$LK_BIN_DIR/metrics-server" ] && return 0
  lk_require_go
  lk_log "building metrics-server $LK_METRICS_SERVER_VERSION (cold: ~4 min)"
  lk_go_install "$LK_BIN_DIR/metrics-server" "sigs.k8s.io/metrics-server/cmd/metrics-server@$LK_METRICS_SERVER_VERSION" \
    -ldflags "-s -w"
}

lk_build_all() {
  lk_build_k8s
  lk_build_metrics_server
  lk_build_keda
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  lk_build_all
fi
