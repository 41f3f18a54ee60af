#!/usr/bin/env bash
# Process-level test of the real binary: start, serve, table file swapped and removed while
# serving, admin token rotated by a kubelet-style ..data symlink swap, SIGTERM drains and exits 0. Usage: process_test.sh <saas-bench binary>
set -euo pipefail
bin=$1
dir=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
fail() { echo "process_test: FAIL: $*" >&2; cat "$dir/log" >&2 || true; exit 1; }

# shellcheck source=../../cpp-common/test/process_lib.sh
. "$(dirname "$0")/../../cpp-common/test/process_lib.sh"

# The token file as the kubelet mounts a Secret: token -> ..data/token, ..data -> ..gen<N>.
gen=0
put_tokens() {
  gen=$((gen + 1))
  mkdir "$dir/secret/..gen$gen" && printf '%s' "$1" > "$dir/secret/..gen$gen/token"
  ln -s "..gen$gen" "$dir/secret/..data_tmp" && mv -T "$dir/secret/..data_tmp" "$dir/secret/..data"
  [ -L "$dir/secret/token" ] || ln -s ..data/token "$dir/secret/token"
  [ "$gen" = 1 ] || rm -rf "$dir/secret/..gen$((gen - 1))"
}
mkdir "$dir/secret"
put_tokens $'old\n'

echo '{"version":"v1","tenants":{"a":{"profile":{"cpu":2,"memory":64,"io":1}}}}' > "$dir/t.json"
"$bin" --listen 127.0.0.1:0 --tenants "$dir/t.json" --file-poll-ms 20 --data-dir "$dir/data" \
  --admin-token-file "$dir/secret/token" --workers 1 2>"$dir/log" &
pid=$!
eventually grep -q 'listening on' "$dir/log" || fail "did not start"
port=$(listen_port "$dir/log")
url=http://127.0.0.1:$port
code() { post_code "$url" "$1"; }
served() { [ "$(code "$1")" = 200 ]; }

[ "$(code a)" = 200 ] || fail "tenant a not served"
echo '{"version":"v2","tenants":{"b":{"profile":{}}}}' > "$dir/next.json" && mv "$dir/next.json" "$dir/t.json"
eventually served b || fail "table file change not applied"
rm "$dir/t.json"
eventually grep -q 'is missing' "$dir/log" || fail "missing table file not reported"
[ "$(code b)" = 200 ] || fail "table lost when the file disappeared"
admin() { curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $1" "$url/v1/admin/tenants"; }
admin_is() { [ "$(admin "$1")" = "$2" ]; }
[ "$(admin old)" = 200 ] || fail "admin token not accepted"
put_tokens $'old\nnew\n'
eventually admin_is new 200 || fail "added token not accepted"
admin_is old 200 || fail "listed old token refused"
put_tokens $'  new  \n\n'
eventually admin_is old 401 || fail "removed token still accepted"
admin_is new 200 || fail "new token refused"
put_tokens $'\n'
eventually grep -q 'admin token file .* rejected' "$dir/log" || fail "empty token file not reported"
admin_is new 200 || fail "empty token file dropped the tokens"

metrics=$(curl -s "$url/metrics")
grep -q 'saasbench_tenant_table_info{version="v2"} 1' <<<"$metrics" || fail "table version metric"
grep -q 'process_resident_memory_bytes [1-9]' <<<"$metrics" || fail "rss metric"
grep -q 'saasbench_admin_token_reloads_total{result="rejected"} 1' <<<"$metrics" || fail "token reload metric"

stop_cleanly "$pid" service
pid=
grep -q 'drained, exiting' "$dir/log" || fail "no drain message"
[ -z "$(ls -A "$dir/data")" ] || fail "scratch files left behind"
# soak (the filler): burns CPU until SIGTERM, then stops at once and exits 0
"$bin" soak --workers 1 2>"$dir/log" &
pid=$!
eventually grep -q 'soaking idle CPU with 1 threads' "$dir/log" || fail "soak did not start"
used_cpu() { [ "$(awk '{print $14}' "/proc/$pid/stat")" -gt 0 ]; }  # utime, clock ticks
eventually used_cpu || fail "soak used no CPU"
stop_cleanly "$pid" soak
pid=
grep -q 'soak stopped after [1-9][0-9]* steps' "$dir/log" || fail "soak did no work"
echo "process_test: ok"
