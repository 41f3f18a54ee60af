# shellcheck shell=bash
# Shared by the process tests of saas-bench and isolato-gate (sourced).
# Awaits a condition (bounded polling; no fixed sleeps as synchronisation).
eventually() { for _ in $(seq 1 500); do "$@" && return 0; sleep 0.01; done; return 1; }
# The port a service logged ("... listening on 127.0.0.1:<port> ..."): listen_port <log> [prefix]
listen_port() { sed -n "s/.*${2:-}listening on 127.0.0.1:\([0-9]*\).*/\1/p" "$1"; }
# HTTP status of a POST to a saas-bench tenant path: post_code <base url> <tenant>
post_code() { curl -s -o /dev/null -w '%{http_code}' -X POST "$1/v1/tenants/$2/requests"; }
# SIGTERM to a process the test started; fails unless it exits 0 (a drained stop): stop_cleanly <pid> <what>
stop_cleanly() {
  kill -TERM "$1"
  local rc=0
  wait "$1" || rc=$?
  [ "$rc" = 0 ] || fail "$2 exit code $rc after SIGTERM"
}
