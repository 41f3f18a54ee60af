#!/usr/bin/env bash
# The CPU time one saas-bench CPU unit (10,000 dependent xorshift64 steps) costs on this machine,
# in three contexts: alone on CPU 1, with a CPU-bound neighbour thread on the other core (CPU 0),
# and sharing CPU 1 with that neighbour. The measured process is `saas-bench soak --workers 1`
# (steps of 10 units until SIGTERM; it logs how many it did); its own CPU time comes from
# /proc/<pid>/stat, so a machine busy with other work slows the wall clock, not the figure.
# Prints one JSON line per context. Used by `isolato-bench neighbour` (bench/isolato_bench/neighbour.py
# reads it) to explain the stored calibrations against this machine.
# Usage: cpu-unit.sh SAAS_BENCH_BINARY [SECONDS]
set -euo pipefail
BIN=$1 SECS=${2:-5}
TICK=$(getconf CLK_TCK)
PIDS=()
trap 'if [ ${#PIDS[@]} -gt 0 ]; then kill "${PIDS[@]}" 2>/dev/null || true; fi' EXIT

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

measure() { # CONTEXT MEASURED_CPU [NEIGHBOUR_CPU]
  local log pid nb=
  log=$(mktemp)
  if [ -n "${3:-}" ]; then taskset -c "$3" "$BIN" soak --workers 1 >/dev/null 2>&1 & nb=$!; PIDS+=("$nb"); fi
  taskset -c "$2" "$BIN" soak --workers 1 >"$log" 2>&1 &
  pid=$!; PIDS+=("$pid")
  sleep "$SECS"  # the measurement's length
  local ticks; ticks=$(cpu_ticks "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  if [ -n "$nb" ]; then kill "$nb"; wait "$nb" 2>/dev/null || true; fi
  PIDS=()
  local steps; steps=$(grep -o 'after [0-9]* steps' "$log" | grep -o '[0-9]*')
  rm -f "$log"
  printf '{"context":"%s","cpuSeconds":%s,"wallSeconds":%s,"units":%s}\n' \
    "$1" "$(awk -v t="$ticks" -v hz="$TICK" 'BEGIN { printf "%.3f", t / hz }')" "$SECS" "$((steps * 10))"
}

measure alone 1
measure other-core-busy 1 0
measure same-core-shared 1 1
