#!/usr/bin/env bash
# Runs make targets one after the other, as make would, and says how long each took: a line per
# target as it ends, the slowest first at the end, so a CI log shows where its minutes went.
# Stops at the first failure (its exit status). Usage: timed-targets.sh <label> <target> ...
set -uo pipefail
label=$1
shift
make=${MAKE:-make}
times=()
report() {
  printf '[%s] seconds by target (slowest first), %d in all:\n' "$label" "$SECONDS"
  printf '%s\n' "${times[@]}" | sort -rn | awk '{ printf "  %6d s  %s\n", $1, $2 }'
}
for target in "$@"; do
  start=$SECONDS
  "$make" --no-print-directory "$target"
  rc=$?
  times+=("$((SECONDS - start)) $target")
  echo "[$label] $target: $((SECONDS - start)) s$([ "$rc" -eq 0 ] || echo ", FAILED ($rc)")"
  if [ "$rc" -ne 0 ]; then
    report
    exit "$rc"
  fi
done
report
