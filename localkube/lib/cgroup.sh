# CPU accounting: the control plane and the node's agents each run in a cpuacct cgroup (cgroup v1)
# that localkube creates, so that its cpuacct.usage counts every process they start, however
# short-lived or re-parented: containerd's shims, runc, the CNI plugins, kube-proxy's
# iptables-restore. /proc/<pid>/stat of the recorded PIDs misses them (they are daemonised by
# containerd, or exit before anyone reads them). The pods themselves are in the kubelet's
# kubepods cgroup. The deploy-pipeline meter reads both (docs/pipeline.md "CPU"). Only cpuacct is
# used: it accounts and never limits. Without a cgroup v1 cpuacct hierarchy nothing is created and
# the meter falls back to the PIDs.
# shellcheck shell=bash

LK_CGROUP=localkube

# Mount point of the cpuacct hierarchy (alone or co-mounted with cpu), empty when there is none.
lk_cpuacct_root() { awk '$3 == "cgroup" && $4 ~ /(^|,)cpuacct(,|$)/ { print $2; exit }' /proc/self/mounts; }

# The accounting group of a component: control-plane, node, or none (add-ons, Prometheus).
lk_cgroup_of() {
  case "$1" in
    etcd|kube-apiserver|kube-controller-manager|kube-scheduler) echo control-plane ;;
    containerd|kubelet|kube-proxy|kwok|containerd-*|kubelet-*|kube-proxy-*) echo node ;;
  esac
}

# Moves PID into its component's group (created on first use); a failure only loses accounting.
lk_cgroup_join() { # component pid
  local group root
  group=$(lk_cgroup_of "$1"); root=$(lk_cpuacct_root)
  [ -n "$group" ] && [ -n "$root" ] || return 0
  mkdir -p "$root/$LK_CGROUP/$group" 2>/dev/null && echo "$2" > "$root/$LK_CGROUP/$group/cgroup.procs" 2>/dev/null \
    || echo "[localkube] warning: could not put $1 into cgroup $root/$LK_CGROUP/$group; CPU is then counted by PID only" >&2
}

# rmdir of an empty group, retried for up to 5 s: the kernel lets go of a group a moment after its
# last task is reaped, and rmdir fails with EBUSY meanwhile (runc retries for the same reason).
lk_rmdir_when_empty() { # dir
  local _
  for _ in $(seq 50); do
    rmdir "$1" 2>/dev/null && return 0
    [ -z "$(cat "$1/cgroup.procs" 2>/dev/null)" ] || return 1
    sleep 0.1
  done
  return 1
}

# Removes the groups localkube created, once every process in them has gone (`down`).
lk_cgroup_remove() {
  local root dir
  root=$(lk_cpuacct_root)
  [ -n "$root" ] && [ -d "$root/$LK_CGROUP" ] || return 0
  for dir in "$root/$LK_CGROUP"/control-plane "$root/$LK_CGROUP"/node; do
    [ -d "$dir" ] || continue
    lk_rmdir_when_empty "$dir" || lk_step "warning: cgroup $dir still has processes ($(tr '\n' ' ' < "$dir/cgroup.procs")); left in place"
  done
  rmdir "$root/$LK_CGROUP" 2>/dev/null || true # fails only while a group above was left
}
