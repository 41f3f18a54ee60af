# Helpers shared by the saas-bench benchmark scripts (sourced; needs $here = this directory).
# shellcheck shell=bash
# shellcheck disable=SC2154 # $here and $root are set by the sourcing script
log() { printf '[bench] %s\n' "$*" >&2; }
await_port() { for _ in $(seq 1 300); do curl -s -o /dev/null -X POST "http://127.0.0.1:$1$2" && return 0; sleep 0.02; done; return 1; }

# wrk run → "rps p50_ms p99_ms non2xx"
run_wrk() {  # $1 url-base $2 path $3 connections $4 delay_ms $5 seconds
  local out
  out=$(BENCH_PATH=$2 BENCH_DELAY_MS=$4 wrk -t1 -c"$3" -d"${5}s" --latency -s "$here/post.lua" "$1")
  awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec:/ { rps = $2 }
    /^ +50%/ { p50 = ms($2) }
    /^ +99%/ { p99 = ms($2) }
    /Non-2xx/ { bad = $NF }
    END { printf "%.0f %.3f %.3f %d\n", rps, p50, p99, bad + 0 }' <<<"$out"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

machine() { echo "$(uname -n), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1 /proc/loadavg) at the end"; }

# Writes $2 (markdown) as the section $1 of docs/benchmarks-log.md (replaced on a rerun), the one
# way every benchmark writes its section (bench/isolato-bench section, runner/sections.py).
write_report() {
  "$root/bench/isolato-bench" section "$1" <<<"$2"
  log "wrote section $1 of docs/benchmarks-log.md"
}
