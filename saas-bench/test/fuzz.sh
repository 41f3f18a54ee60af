#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time from the checked-in seed corpus (plus what
# earlier runs found, kept under the build dir).
# Usage: fuzz.sh <dir with fuzz_*> <seconds each> [fuzz source dir with corpus/] [target ...]
# (default: saas-bench's fuzz_http and fuzz_table)
set -euo pipefail
bin_dir=$1
seconds=$2
src=${3:-$(cd "$(dirname "$0")/../fuzz" && pwd)}
shift $(($# < 3 ? $# : 3))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_http fuzz_table)
for target in "${targets[@]}"; do
  corpus="$bin_dir/corpus-${target#fuzz_}"
  mkdir -p "$corpus"
  log="$bin_dir/$target.log"
  echo "[fuzz] $target for ${seconds}s (log: $log)"
  # The target logs rejected admin tables to stderr on purpose: keep that in the log file.
  if ! (cd "$bin_dir" && ASAN_OPTIONS=detect_leaks=1 ./"$target" -max_total_time="$seconds" \
        -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 "$corpus" "$src/corpus/${target#fuzz_}" >"$log" 2>&1); then
    grep -A40 -E 'ERROR|SUMMARY|deadly signal' "$log" | head -80 >&2
    echo "[fuzz] $target FAILED; reproducer: $bin_dir/crash-*" >&2
    exit 1
  fi
  grep -E '^Done|stat::number_of_executed_units' "$log" | tr '\n' ' '
  echo
done
