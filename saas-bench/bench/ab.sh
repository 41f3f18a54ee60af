#!/usr/bin/env bash
# Two saas-bench builds side by side in one run (e.g. before/after a change on the hot path):
# the no-work profile at peak (wrk, 1 I/O thread, keep-alive), A and B alternating, repeated,
# medians; then both at the same fixed offered rate (half of A's peak) for p50/p99.
# Prints the figures and writes them as a section of docs/benchmarks-log.md.
# Usage: ab.sh <binary A> <binary B> "<what A is>" "<what B is>"
set -euo pipefail
bins=("$(realpath "$1")" "$(realpath "$2")")
names=("$3" "$4")
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
REPS=${BENCH_REPS:-5}
SECS=${BENCH_SECONDS:-5}
CONNS=${BENCH_CONNECTIONS:-50}
PORTS=("${BENCH_A_PORT:-18483}" "${BENCH_B_PORT:-18484}")
PATH_=/v1/tenants/nowork/requests
tmp=$(mktemp -d)
pids=()
# shellcheck source=lib.sh
. "$here/lib.sh"
stop() { for p in "${pids[@]}"; do { kill "$p" && wait "$p"; } 2>/dev/null || true; done; }
trap 'stop; rm -rf "$tmp"' EXIT

echo '{"version":"ab","tenants":{"nowork":{"profile":{}}}}' > "$tmp/tenants.json"
for i in 0 1; do
  "${bins[$i]}" --listen "127.0.0.1:${PORTS[$i]}" --io-threads 1 --workers 1 --tenants "$tmp/tenants.json" \
    --data-dir "$tmp/data$i" --max-in-flight 100000 2>"$tmp/sb$i.log" & pids+=($!)
  await_port "${PORTS[$i]}" "$PATH_" || { log "${names[$i]} did not start"; cat "$tmp/sb$i.log" >&2; exit 1; }
done

for rep in $(seq 1 "$REPS"); do
  for i in 0 1; do
    read -r rps _ _ bad < <(run_wrk "http://127.0.0.1:${PORTS[$i]}" "$PATH_" "$CONNS" 0 "$SECS")
    [ "$bad" = 0 ] || { log "non-2xx responses from ${names[$i]}: $bad"; exit 1; }
    echo "$rps" >> "$tmp/peak$i"
    log "rep=$rep peak rps ${names[$i]}: $rps"
  done
done
peak=("$(median < "$tmp/peak0")" "$(median < "$tmp/peak1")")
delay=2
conns=$(awk -v t="${peak[0]}" -v d="$delay" 'BEGIN { c = int(t / 2 * (d + 0.05) / 1000 + 0.5); print (c < 1) ? 1 : c }')
for rep in $(seq 1 "$REPS"); do
  for i in 0 1; do run_wrk "http://127.0.0.1:${PORTS[$i]}" "$PATH_" "$conns" "$delay" "$SECS" >> "$tmp/half$i"; done
done
row() {  # $1 = index
  printf '| %s | %s | %s | %s | %s |' "${names[$1]}" "${peak[$1]}" "$(sort -n "$tmp/peak$1" | sed -n '1p;$p' | paste -sd-)" \
    "$(cut -d' ' -f2 "$tmp/half$1" | median)" "$(cut -d' ' -f3 "$tmp/half$1" | median)"
}
report="### $(date -u +%Y-%m-%dT%H:%MZ) — A/B: ${names[0]} vs ${names[1]} — $(machine)

saas-bench/bench/ab.sh: no-work profile, 1 I/O thread, wrk -t1 on the same machine, POST, keep-alive, $CONNS
connections for the peak, ${SECS}s × $REPS repetitions alternating A and B, medians; p50/p99 at half
of A's peak offered to both ($conns connections × ${delay} ms think time).

| build | peak rps (median) | peak rps (min-max) | p50 ms at 50% | p99 ms at 50% |
|---|---|---|---|---|
$(row 0)
$(row 1)

B/A peak ratio: **$(awk -v a="${peak[0]}" -v b="${peak[1]}" 'BEGIN { printf "%.3f", b / a }')**
"
printf '\n%s\n' "$report"
write_report saas-bench-ab "$report"
