# Paths, logging and process handling shared by every localkube sub-command.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the LK_* paths are read by the other lib/ files

: "${LOCALKUBE_HOME:=/var/lib/localkube}"
LK_HOME=$LOCALKUBE_HOME
LK_PKI=$LK_HOME/pki
LK_LOGS=$LK_HOME/logs
LK_PIDS=$LK_HOME/pids
LK_RUN=$LK_HOME/run
LK_KUBECONFIGS=$LK_HOME/kubeconfigs
LK_APPLIED=$LK_HOME/applied
LK_USER_CONF=$LK_HOME/localkube.conf
LK_CONTAINERD_SOCK=$LK_RUN/containerd.sock
LK_CNI_NET=localkube
LK_IPTABLES_RECORD=$LK_HOME/iptables-preexisting.json
LK_OWNED=$LK_HOME/network-owned # lib/owned.sh

lk_die() { printf '[localkube] error: %s\n' "$*" >&2; exit 1; }

# Elapsed seconds since `up` began, for progress lines.
lk_step() { printf '[localkube] %5.1fs %s\n' "$(lk_elapsed)" "$*" >&2; }
lk_elapsed() { awk -v s="${LK_T0:-0}" -v n="$(date +%s.%N)" 'BEGIN{ if (s==0) print 0; else printf "%.1f", n-s }'; }

lk_kubectl() { "$LK_BIN_DIR/kubectl" --kubeconfig "$LK_KUBECONFIGS/admin.kubeconfig" "$@"; }
lk_kubectl_super() { "$LK_BIN_DIR/kubectl" --kubeconfig "$LK_KUBECONFIGS/super-admin.kubeconfig" "$@"; }

lk_pid_of() {
  local f="$LK_PIDS/$1.pid" pid
  [ -f "$f" ] || return 1
  pid=$(cat "$f")
  # A PID is only ours if it still runs the binary we started (PIDs get reused).
  [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -- "$(cat "$f.cmd" 2>/dev/null)" >/dev/null || return 1
  echo "$pid"
}

lk_is_running() { lk_pid_of "$1" >/dev/null; }

# Starts a component in its own session so a Ctrl-C of the caller does not reach it.
lk_start_process() {
  local name=$1; shift
  mkdir -p "$LK_LOGS" "$LK_PIDS"
  # Where this run's log lines begin, for readiness checks that read the log.
  { wc -l < "$LK_LOGS/$name.log"; } 2>/dev/null > "$LK_PIDS/$name.logstart" || echo 0 > "$LK_PIDS/$name.logstart"
  # Close every inherited descriptor above stderr first: a daemon must not keep, say, a
  # caller's flock(1) lock alive for as long as the cluster runs.
  (
    for fd in /proc/"$BASHPID"/fd/*; do
      fd=${fd##*/}
      [ "$fd" -gt 2 ] && exec {fd}>&-
    done
    lk_cgroup_join "$name" "$BASHPID"
    # an extra node's agents run in its network namespace (lib/nodes.sh), nothing else differs
    ns=$(lk_netns_of "$name") || true
    if [ -n "$ns" ]; then exec setsid nsenter "--net=/run/netns/$ns" -- "$@"; fi
    exec setsid "$@"
  ) >>"$LK_LOGS/$name.log" 2>&1 < /dev/null &
  local pid=$! i
  echo "$pid" > "$LK_PIDS/$name.pid"
  echo "$1" > "$LK_PIDS/$name.pid.cmd"
  # Until the subshell has closed its descriptors and exec'd, its command line is bash's and
  # the component would look "exited" (a second copy was then started beside the first, which
  # kept its port): wait for the exec, at most 5 s.
  for i in $(seq 1 100); do
    lk_alive "$pid" || break
    tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$1" && break
    sleep 0.05
  done
}

lk_stop_process() {
  local name=$1 pid i
  pid=$(lk_pid_of "$name") || { rm -f "$LK_PIDS/$name.pid" "$LK_PIDS/$name.pid.cmd"; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  lk_wait_gone "$pid" 100 || { kill -KILL "$pid" 2>/dev/null; lk_wait_gone "$pid" 50 || true; }
  rm -f "$LK_PIDS/$name.pid" "$LK_PIDS/$name.pid.cmd" "$LK_PIDS/$name.logstart"
}

# True when the component's log has logged PATTERN since it was last started.
lk_logged_since_start() {
  local start; start=$(cat "$LK_PIDS/$1.logstart" 2>/dev/null || echo 0)
  tail -n "+$((start + 1))" "$LK_LOGS/$1.log" 2>/dev/null | grep -F -- "$2" >/dev/null
}

# A process is gone once it no longer exists or is a zombie waiting for init to reap it.
lk_alive() { [ -r "/proc/$1/stat" ] && ! awk '{ exit ($3 == "Z") ? 0 : 1 }' "/proc/$1/stat" 2>/dev/null; }
lk_wait_gone() { # pid tenths-of-seconds
  local _
  for _ in $(seq 1 "$2"); do lk_alive "$1" || return 0; sleep 0.1; done
  ! lk_alive "$1"
}

# Polls CHECK (a command) until it succeeds or TIMEOUT seconds pass; used to wait for real
# readiness signals (healthz endpoints, node conditions), never as a fixed delay.
lk_wait_for() {
  local what=$1 timeout=$2; shift 2
  local deadline=$(( $(date +%s) + timeout ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      printf '[localkube] error: timed out after %ss waiting for %s\n' "$timeout" "$what" >&2
      return 1
    fi
    sleep 0.2
  done
}

lk_https_ok() { # url cert key
  curl -sf --max-time 2 --cacert "$LK_PKI/ca.crt" --cert "$2" --key "$3" "$1" >/dev/null
}
