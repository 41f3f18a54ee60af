# What `up` added to the host's shared network state, recorded in the state directory so that
# `down` removes only that: the bridge cni0 (created by the bridge plugin for our first pod, so
# ours when it did not exist before `up`), the node IP on lo, and kube-proxy's KUBE-* chains
# (`kube-proxy --cleanup` removes every one, so only when no kube-proxy had made them before).
# A cni0, node IP or kube-proxy of someone else (another state directory's running cluster, a
# host's own Kubernetes) is left alone. One line per item in $LK_OWNED.
# shellcheck shell=bash

lk_owned_add() { lk_owned "$@" || echo "$*" >> "$LK_OWNED"; }
lk_owned() { grep -qxF -- "$*" "$LK_OWNED" 2>/dev/null; }

lk_lo_has() { ip addr show dev lo | grep " $1/32" >/dev/null; } # read all: no SIGPIPE under pipefail

# Before any component runs.
lk_host_network_claim() { # node-ip
  ip link show cni0 >/dev/null 2>&1 || lk_owned_add link cni0
  if ! lk_lo_has "$1"; then
    ip addr add "$1/32" dev lo
    lk_owned_add addr "$1/32"
  fi
  iptables-save -t nat 2>/dev/null | grep '^:KUBE-SERVICES ' >/dev/null || lk_owned_add chains kube-proxy
}

# After every component stopped; forgets the record.
lk_host_network_release() { # node-ip kube-proxy-binary
  if lk_owned link cni0 && ip link show cni0 >/dev/null 2>&1; then ip link del cni0; fi
  if lk_owned chains kube-proxy && [ -x "$2" ]; then "$2" --cleanup >/dev/null 2>&1 || true; fi
  if lk_owned addr "$1/32" && lk_lo_has "$1"; then ip addr del "$1/32" dev lo; fi
  rm -f "$LK_OWNED"
}

# A cluster whose `up` predates the record (its PID files are ours, its state has no record):
# it made all three, as `down` assumed before.
lk_host_network_adopt() { # node-ip
  [ ! -f "$LK_OWNED" ] && ls "$LK_PIDS"/*.pid >/dev/null 2>&1 || return 0
  lk_owned_add link cni0; lk_owned_add addr "$1/32"; lk_owned_add chains kube-proxy
}
