#!/usr/bin/env bash
# Process-level test of the real isolato-gate binary in front of the real saas-bench: bad flags
# exit 2, tenant requests are forwarded, the table file is watched, /readyz follows the
# upstream, SIGTERM drains and exits 0. Usage: process_test.sh <isolato-gate> <saas-bench>
set -euo pipefail
gate=$1
app=$2
dir=$(mktemp -d)
gate_pid=
app_pid=
cleanup() {
  [ -n "$gate_pid" ] && kill "$gate_pid" 2>/dev/null
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "gate process_test: FAIL: $*" >&2; cat "$dir/gate.log" >&2 || true; exit 1; }
# shellcheck source=../../cpp-common/test/process_lib.sh
. "$(dirname "$0")/../../cpp-common/test/process_lib.sh"

for bad in "--tenant-key cookie:x" "--unknown-tenant maybe" "--listen 8080" "--forward-table" "--bogus 1" \
  "--probe-listen 8079" "--max-upstream-requests x" "--queue-timeout-ms 0"; do
  rc=0
  # shellcheck disable=SC2086 # the flags are split on purpose
  "$gate" $bad 2>"$dir/err" || rc=$?
  [ "$rc" = 2 ] || fail "'$bad' exited $rc, not 2"
  [ "$(wc -l <"$dir/err")" = 1 ] || fail "'$bad' printed more than one line"
done

echo tok3n > "$dir/token"
echo '{"version":"v1","tenants":{"a":{"profile":{}}}}' > "$dir/t.json"
"$app" --listen 127.0.0.1:0 --workers 1 --data-dir "$dir/data" --tenants "$dir/t.json" 2>"$dir/app.log" &
app_pid=$!
eventually grep -q 'listening on' "$dir/app.log" || fail "saas-bench did not start"
app_port=$(listen_port "$dir/app.log")
"$gate" --listen 127.0.0.1:0 --upstream "127.0.0.1:$app_port" --tenant-key path:/v1/tenants/ \
  --tenants "$dir/t.json" --admin-token-file "$dir/token" --file-poll-ms 20 2>"$dir/gate.log" &
gate_pid=$!
eventually grep -q 'isolato-gate listening on' "$dir/gate.log" || fail "gate did not start"
port=$(listen_port "$dir/gate.log" "isolato-gate ")
url=http://127.0.0.1:$port
code() { post_code "$url" "$1"; }
served() { [ "$(code "$1")" = 200 ]; }

[ "$(code a)" = 200 ] || fail "tenant a not forwarded"
[ "$(code zz)" = 404 ] || fail "unknown tenant not rejected"
echo '{"version":"v2","tenants":{"b":{"profile":{}}}}' > "$dir/next.json" && mv "$dir/next.json" "$dir/t.json"
eventually served b || fail "table file change not applied at the gate (and the app)"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz")" = 200 ] || fail "not ready"
metrics=$(curl -s "$url/metrics")
grep -q 'isolato_gate_requests_total{tenant="b",code="200"} 1' <<<"$metrics" || fail "requests metric"
grep -q 'process_cpu_seconds_total [0-9]' <<<"$metrics" || fail "process metric"

kill -TERM "$app_pid"
wait "$app_pid" || true
app_pid=
[ "$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz")" = 503 ] || fail "ready without an upstream"
[ "$(code b)" = 502 ] || fail "dead upstream is not 502"

stop_cleanly "$gate_pid" gate
gate_pid=
grep -q 'drained, exiting' "$dir/gate.log" || fail "no drain message"
echo "gate process_test: ok"
