#!/usr/bin/env bash
# Debian's runc against localkube's pinned build (containerd.runc = built, localkube/lib/runc.sh)
# in one run on one machine: ROUNDS rounds, each profiling P pause pods started at once REPEATS
# times under one runtime, then under the other (cpu-profile.sh), so a drift of this shared machine
# falls on both. Switching restarts only containerd. runtime_ab.py compares the profiles, appends a
# section to docs/BENCHMARKS.md and writes docs/results/pipeline/runtime-ab-1xP.json and .png. The
# containerd.runc setting found at the start is put back at the end.
#   controller/bench/runtime-ab.sh [PODS REPEATS ROUNDS]     defaults: 100 3 2
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
PODS=${1:-100} REPEATS=${2:-3} ROUNDS=${3:-2}
RUNTIMES=(/usr/sbin/runc built)
WORK=$(mktemp -d)
default=$(awk -F' *= *' '$1 == "containerd.runc" { print $2 }' "$ROOT/localkube/config/defaults.conf")
previous=$("$LK" config | awk -F' *= *' '$1 == "containerd.runc" { print $2 }')
restore() {
  if [ "$previous" = "$default" ]; then "$LK" config unset containerd.runc >/dev/null; else "$LK" config set containerd.runc "$previous" >/dev/null; fi
  "$LK" up >/dev/null 2>&1 || echo "[runtime-ab] 'localkube up' failed while restoring containerd.runc = $previous" >&2
  rm -rf "$WORK"
}
trap restore EXIT

profiles=()
for round in $(seq 1 "$ROUNDS"); do
  for rt in "${RUNTIMES[@]}"; do
    echo "[runtime-ab] round $round/$ROUNDS: containerd.runc = $rt, $REPEATS runs of $PODS pods" >&2
    "$LK" config set containerd.runc "$rt" >/dev/null
    "$LK" up >/dev/null
    label=$("$LK" status | sed -n 's/^runtime: //p')
    dir="$WORK/$round-${rt//\//_}"
    "$ROOT/controller/bench/cpu-profile.sh" "$PODS" "$REPEATS" "$dir" >/dev/null
    profiles+=("$label" "$round" "$dir/cpu-profile-1x$PODS.json")
  done
done
machine="$(uname -n), $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
source "$ROOT/gatling/experiments/venv.sh"
"$PY" "$ROOT/controller/bench/runtime_ab.py" "$machine" "$PODS" "$REPEATS" \
  "$ROOT/docs/results/pipeline/runtime-ab-1x$PODS.json" "${profiles[@]}" | tee -a "$ROOT/docs/BENCHMARKS.md"
