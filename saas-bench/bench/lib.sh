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

# Appends $1 (markdown) at the end of docs/benchmarks-log.md's saas-bench section.
append_report() {
  local doc="$root/docs/benchmarks-log.md"
  [ -f "$doc" ] || printf '# Benchmarks\n' > "$doc"
  # shellcheck disable=SC2016 # Markdown backticks, not a command substitution
  grep -q '^## saas-bench' "$doc" || printf '\n## saas-bench\n\nProduced by `make bench-saas-bench` (saas-bench/bench/bench.sh).\n' >> "$doc"
  # Insert at the end of the saas-bench section (other parts may have sections after it).
  REPORT="$1" python3 - "$doc" <<'PY'
import os, sys
path = sys.argv[1]
lines = open(path).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("## saas-bench"))
end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
while end > start + 1 and lines[end - 1] == "":
    end -= 1
lines[end:end] = [""] + os.environ["REPORT"].rstrip("\n").split("\n")
open(path, "w").write("\n".join(lines).rstrip("\n") + "\n")
PY
  log "appended to $doc"
}
