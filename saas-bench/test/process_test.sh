#!/usr/bin/env bash
# Process-level test of the real binary: start, serve, table file swapped and removed while
# serving, SIGTERM drains and exits 0. Usage: process_test.sh <saas-bench binary>
set -euo pipefail
bin=$1
dir=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
fail() { echo "process_test: FAIL: $*" >&2; cat "$dir/log" >&2 || true; exit 1; }

# Awaits a condition (bounded polling; no fixed sleeps as synchronisation).
eventually() { for _ in $(seq 1 500); do "$@" && return 0; sleep 0.01; done; return 1; }

echo '{"version":"v1","tenants":{"a":{"profile":{"cpu":2,"memory":64,"io":1}}}}' > "$dir/t.json"
"$bin" --listen 127.0.0.1:0 --tenants "$dir/t.json" --table-poll-ms 20 --data-dir "$dir/data" \
  --workers 1 2>"$dir/log" &
pid=$!
eventually grep -q 'listening on' "$dir/log" || fail "did not start"
port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$dir/log")
url=http://127.0.0.1:$port
code() { curl -s -o /dev/null -w '%{http_code}' -X POST "$url/v1/tenants/$1/requests"; }
served() { [ "$(code "$1")" = 200 ]; }

[ "$(code a)" = 200 ] || fail "tenant a not served"
echo '{"version":"v2","tenants":{"b":{"profile":{}}}}' > "$dir/next.json" && mv "$dir/next.json" "$dir/t.json"
eventually served b || fail "table file change not applied"
rm "$dir/t.json"
eventually grep -q 'is missing' "$dir/log" || fail "missing table file not reported"
[ "$(code b)" = 200 ] || fail "table lost when the file disappeared"
metrics=$(curl -s "$url/metrics")
grep -q 'saasbench_tenant_table_info{version="v2"} 1' <<<"$metrics" || fail "table version metric"
grep -q 'process_resident_memory_bytes [1-9]' <<<"$metrics" || fail "rss metric"

kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
pid=
[ "$rc" = 0 ] || fail "exit code $rc after SIGTERM"
grep -q 'drained, exiting' "$dir/log" || fail "no drain message"
[ -z "$(ls -A "$dir/data")" ] || fail "scratch files left behind"
echo "process_test: ok"
