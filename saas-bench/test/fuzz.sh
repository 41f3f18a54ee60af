#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time from the checked-in seed corpus (plus what
# earlier runs found, kept under the build dir). The targets run side by side: each is
# single-threaded, so on two cores two targets take the time of one.
# Usage: fuzz.sh <dir with fuzz_*> <seconds each> [fuzz source dir with corpus/] [target ...]
# (default: saas-bench's fuzz_http and fuzz_table)
set -euo pipefail
bin_dir=$1
seconds=$2
src=${3:-$(cd "$(dirname "$0")/../fuzz" && pwd)}
shift $(($# < 3 ? $# : 3))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_http fuzz_table)
pids=()
for target in "${targets[@]}"; do
  corpus="$bin_dir/corpus-${target#fuzz_}"
  mkdir -p "$corpus"
  echo "[fuzz] $target for ${seconds}s (log: $bin_dir/$target.log)"
  # The target logs rejected admin tables to stderr on purpose: keep that in the log file.
  (cd "$bin_dir" && exec env ASAN_OPTIONS=detect_leaks=1 ./"$target" -max_total_time="$seconds" \
    -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 "$corpus" "$src/corpus/${target#fuzz_}" \
    >"$bin_dir/$target.log" 2>&1) &
  pids+=($!)
done
failed=0
for i in "${!targets[@]}"; do
  target=${targets[$i]} log="$bin_dir/${targets[$i]}.log"
  if wait "${pids[$i]}"; then
    echo "[fuzz] $target: $(grep -E '^Done|stat::number_of_executed_units' "$log" | tr '\n' ' ')"
  else
    grep -A40 -E 'ERROR|SUMMARY|deadly signal' "$log" | head -80 >&2
    echo "[fuzz] $target FAILED; reproducer: $bin_dir/crash-*" >&2
    failed=1
  fi
done
exit "$failed"
