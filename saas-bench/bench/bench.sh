#!/usr/bin/env bash
# saas-bench vs nginx (Debian nginx-light) on loopback with wrk, side by side in one run:
#  1. peak: the no-work profile vs nginx's `return 200 "ok"` (2-byte body), 1 and 2 server
#     threads (saas-bench --io-threads N, nginx worker_processes N), repeated, alternating;
#  2. latency at 50% of nginx's peak: the same offered rate to both, p50/p99;
#  3. the paper-like profile (cpu 150, memory 12000, io 100) at low load.
# Prints the figures and writes them as a section of docs/benchmarks-log.md. Usage: bench.sh <saas-bench binary>
set -euo pipefail
bin=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
REPS=${BENCH_REPS:-3}
SECS=${BENCH_SECONDS:-5}
CONNS=${BENCH_CONNECTIONS:-50}
NGINX_PORT=${BENCH_NGINX_PORT:-18481}
SB_PORT=${BENCH_SB_PORT:-18482}
tmp=$(mktemp -d)
nginx_pid='' sb_pid=''
# shellcheck source=lib.sh
. "$here/lib.sh"
stop() {
  if [ -n "$nginx_pid" ]; then { kill "$nginx_pid" && wait "$nginx_pid"; } 2>/dev/null || true; fi
  if [ -n "$sb_pid" ]; then { kill "$sb_pid" && wait "$sb_pid"; } 2>/dev/null || true; fi
  nginx_pid='' sb_pid=''
}
trap 'stop; rm -rf "$tmp"' EXIT

start_servers() {  # $1 = threads
  cat > "$tmp/nginx.conf" <<CONF
worker_processes $1;
daemon off;
pid $tmp/nginx.pid;
error_log $tmp/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  keepalive_timeout 60s;
  server {
    listen 127.0.0.1:$NGINX_PORT reuseport;
    location / { default_type text/plain; return 200 "ok"; }
  }
}
CONF
  nginx -p "$tmp" -e "$tmp/nginx-error.log" -c "$tmp/nginx.conf" & nginx_pid=$!
  cat > "$tmp/tenants.json" <<'JSON'
{"version":"bench","tenants":{"nowork":{"profile":{}},"paper":{"profile":{"cpu":150,"memory":12000,"io":100}}}}
JSON
  "$bin" --listen "127.0.0.1:$SB_PORT" --io-threads "$1" --workers 1 --tenants "$tmp/tenants.json" \
    --data-dir "$tmp/data" --max-in-flight 100000 2>"$tmp/sb.log" & sb_pid=$!
  await_port "$NGINX_PORT" / || { log "nginx did not start"; cat "$tmp/nginx-error.log" >&2; exit 1; }
  await_port "$SB_PORT" /v1/tenants/nowork/requests || { log "saas-bench did not start"; cat "$tmp/sb.log" >&2; exit 1; }
}

results=()
for threads in 1 2; do
  start_servers "$threads"
  : > "$tmp/peak-nginx"; : > "$tmp/peak-sb"
  for rep in $(seq 1 "$REPS"); do
    read -r n_rps _ _ n_bad < <(run_wrk "http://127.0.0.1:$NGINX_PORT" / "$CONNS" 0 "$SECS")
    read -r s_rps _ _ s_bad < <(run_wrk "http://127.0.0.1:$SB_PORT" /v1/tenants/nowork/requests "$CONNS" 0 "$SECS")
    { [ "$n_bad" = 0 ] && [ "$s_bad" = 0 ]; } || { log "non-2xx responses (nginx $n_bad, saas-bench $s_bad)"; exit 1; }
    log "threads=$threads rep=$rep peak rps: nginx $n_rps, saas-bench $s_rps"
    echo "$n_rps" >> "$tmp/peak-nginx"; echo "$s_rps" >> "$tmp/peak-sb"
  done
  n_peak=$(median < "$tmp/peak-nginx"); s_peak=$(median < "$tmp/peak-sb")
  # 50% of nginx's peak, offered to both: C connections each waiting D ms between requests.
  target=$(awk -v p="$n_peak" 'BEGIN { printf "%d", p / 2 }')
  delay=2
  conns=$(awk -v t="$target" -v d="$delay" 'BEGIN { c = int(t * (d + 0.05) / 1000 + 0.5); print (c < 1) ? 1 : c }')
  : > "$tmp/half-nginx"; : > "$tmp/half-sb"
  for rep in $(seq 1 "$REPS"); do
    run_wrk "http://127.0.0.1:$NGINX_PORT" / "$conns" "$delay" "$SECS" >> "$tmp/half-nginx"
    run_wrk "http://127.0.0.1:$SB_PORT" /v1/tenants/nowork/requests "$conns" "$delay" "$SECS" >> "$tmp/half-sb"
    log "threads=$threads rep=$rep 50% load: nginx $(tail -1 "$tmp/half-nginx"), saas-bench $(tail -1 "$tmp/half-sb")"
  done
  n_half_rps=$(cut -d' ' -f1 "$tmp/half-nginx" | median); s_half_rps=$(cut -d' ' -f1 "$tmp/half-sb" | median)
  n_p99=$(cut -d' ' -f3 "$tmp/half-nginx" | median); s_p99=$(cut -d' ' -f3 "$tmp/half-sb" | median)
  n_p50=$(cut -d' ' -f2 "$tmp/half-nginx" | median); s_p50=$(cut -d' ' -f2 "$tmp/half-sb" | median)
  results+=("$(awk -v t="$threads" -v np="$n_peak" -v sp="$s_peak" -v nr="$n_half_rps" -v sr="$s_half_rps" \
      -v n50="$n_p50" -v s50="$s_p50" -v n99="$n_p99" -v s99="$s_p99" 'BEGIN {
      printf "| %d | %d | %d | **%.2f** | %d / %d | %.3f / %.3f | %.3f / %.3f | **%.2f** |", t, np, sp, sp / np,
        nr, sr, n50, s50, n99, s99, s99 / n99 }')")
  if [ "$threads" = 1 ]; then
    # Paper-like profile at low load: one connection, 20 ms between requests (< 50 requests/s).
    run_wrk "http://127.0.0.1:$SB_PORT" /v1/tenants/paper/requests 1 20 10 > "$tmp/paper"
    read -r paper_rps paper_p50 paper_p99 _ < "$tmp/paper"
    calib=$("$bin" calibrate --data-dir "$tmp/calib" | tail -1)
  fi
  stop
done

table="| server threads | nginx peak rps | saas-bench peak rps | ratio (goal ≥ 0.90) | rps at 50% load nginx / saas-bench | p50 ms nginx / saas-bench | p99 ms nginx / saas-bench | p99 ratio (goal ≤ 1.5) |
|---|---|---|---|---|---|---|---|
$(printf '%s\n' "${results[@]}")"
report="### $(date -u +%Y-%m-%dT%H:%MZ) — $(machine)

wrk -t1 on the same machine (it shares the 2 cores with the server), POST, keep-alive, $CONNS connections
for the peak, ${SECS}s × $REPS repetitions alternating nginx and saas-bench, medians. 50% load = half of
nginx's median peak offered to both (fixed connections × 2 ms think time).

$table

Paper-like profile (cpu 150, memory 12000, io 100) at low load (1 connection, 20 ms think time, 10 s):
$paper_rps requests/s, p50 $paper_p50 ms, p99 $paper_p99 ms. calibrate: $calib
"
printf '\n%s\n' "$report"
write_report saas-bench "$report"
