#!/usr/bin/env bash
# Installs what the project needs on a Debian 12 machine, and nothing that is already there.
# Idempotent: a warm machine costs one dpkg query.
set -euo pipefail

log() { printf '[deps] %s\n' "$*" >&2; }

# Grouped by who needs them, so a reader knows why each one is here.
PKGS=(
  # localkube: etcd, the container runtime, pod networking, kube-proxy, image builds
  etcd-server containerd runc containernetworking-plugins iptables conntrack iproute2 podman
  busybox-static
  # localkube's runc (lib/runc.sh) is built with seccomp: cgo and libseccomp's headers
  libseccomp-dev pkg-config
  # build toolchains: C++ service, Java services, Go for Kubernetes
  build-essential cmake ninja-build libboost1.81-all-dev libgtest-dev clang libclang-rt-14-dev clang-format clang-tidy
  # a warm machine recompiles nothing a clean clone did not change (the C++ builds' launcher)
  ccache
  openjdk-17-jdk-headless
  # benchmarks and metrics
  wrk nginx-light hyperfine prometheus linux-perf
  # the gate overhead benchmark (isolato-bench gate-overhead): HAProxy 2.6 as the reference proxy
  haproxy
  # tooling used by the scripts
  curl jq python3 python3-venv openssl ca-certificates
  # linters of `make test` (shellcheck: every shell script)
  shellcheck
)

if [ "$(id -u)" -ne 0 ]; then
  log "error: run as root (localkube manages containerd, mounts and iptables)"
  exit 1
fi

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${#missing[@]} Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Debian would start these daemons on install where an init system runs; localkube and the
  # benchmarks start their own instances, so keep the package services from starting.
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  rm -f /usr/sbin/policy-rc.d
fi

# Go builds Kubernetes. Debian 12's Go is too old; its go command fetches a pinned newer
# toolchain from the Go module proxy (golang.org/toolchain) by itself when GOTOOLCHAIN says so.
if ! command -v go >/dev/null 2>&1; then
  log "installing Go (Debian's golang-go, which fetches go1.25 from the module proxy)"
  apt-get install -y -qq --no-install-recommends golang-go >/dev/null
fi
if ! go version | grep -Eq 'go1\.(2[4-9]|[3-9][0-9])'; then
  go env -w GOTOOLCHAIN=go1.25.5
fi

# podman (used only to build images) must use runc and ulimits this VM accepts.
if [ ! -f /etc/containers/containers.conf ] || ! grep -q 'isolato' /etc/containers/containers.conf; then
  mkdir -p /etc/containers
  cat > /etc/containers/containers.conf <<'CONF'
# written by isolato scripts/install-deps.sh: crun fails on cgroup v1 hybrid, and raising
# NPROC is refused in this VM.
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
[engine]
runtime = "runc"
CONF
fi
