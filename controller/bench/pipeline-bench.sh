#!/usr/bin/env bash
# Default vs tuned localkube for one workload shape, in the same run: the two configurations
# alternate (ABBA…), REPEATS times each, each measurement by the tuning loop's own benchmark
# (TuneMain --max-changes 0: traced stages, model's best case, CPU). Appends the figures to
# docs/benchmarks-log.md.
#   controller/bench/pipeline-bench.sh J P REPEATS KEY=DEFAULT:TUNED...
#   e.g. 1 100 3 controller-manager.kube-api-qps=20:100
# Each KEY=DEFAULT:TUNED (pipeline_winners.py prints them): "default" sets DEFAULT (Kubernetes'
# default), "tuned" sets TUNED; every other key keeps localkube's default, which equals
# Kubernetes' except kubelet.maxPods 250 and kubelet.maxParallelImagePulls 5 (no benchmark pod
# needs those changed: nothing is pulled, ≤ 200 pods). The keys are unset at the end. Uses its own state directory and leaves it down.
# KWOK_NODES=N runs the pods on N KWOK fake nodes (`localkube kwok up N`: real control plane,
# simulated kubelets), e.g. the paper's Fig. 8 shape:
#   KWOK_NODES=16 controller/bench/pipeline-bench.sh 1 1600 1 controller-manager.kube-api-qps=20:1600 ...
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
[ $# -ge 4 ] || { echo "usage: $0 J P REPEATS KEY=DEFAULT:TUNED..." >&2; exit 2; }
J=$1 P=$2 REPEATS=$3; shift 3
TUNED=("$@")
export LOCALKUBE_HOME=${LOCALKUBE_HOME:-/var/lib/localkube-tune}
log() { printf '[pipeline-bench] %s\n' "$*" >&2; }
reset() { local kv; for kv in "${TUNED[@]}"; do "${LK:-$LOCALKUBE}" config unset "${kv%%=*}" >/dev/null 2>&1 || true; done; }
configure() { # default|tuned
  local kv v
  for kv in "${TUNED[@]}"; do
    if [ "$1" = tuned ]; then v=${kv#*=}; v=${v#*:}; else v=${kv#*=}; v=${v%%:*}; fi
    "$LK" config set "${kv%%=*}" "$v" >/dev/null
  done
  "$LK" up >/dev/null 2>&1
}
trap 'reset; "$LK" down >/dev/null 2>&1 || true' EXIT
where=()
[ -z "${KWOK_NODES:-}" ] || where=(--timeout 300) # tune.sh puts the pods on the fake nodes
out=$(mktemp -d)
log "analyses in $out (default-R.json, tuned-R.json)"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq 1 "$REPEATS"); do
  order=(default tuned); [ $((r % 2)) -eq 0 ] && order=(tuned default)
  for v in "${order[@]}"; do
    configure "$v"
    "$ROOT/controller/bench/tune.sh" --workloads "$J" --pods "$P" --max-changes 0 "${where[@]}" --out "$out/$v-$r.json" \
      | grep -E '^\[tune\] (iteration|DONE|FAILED)' >&2
  done
done
machine="$(uname -n), $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
python3 - "$out" "$J" "$P" "$REPEATS" "$machine" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" "${TUNED[*]}" "${KWOK_NODES:-}" \
  >> "$ROOT/docs/benchmarks-log.md" <<'PY'
import json, statistics, sys, datetime
from pathlib import Path
d, J, P, R, machine, load0, load1, tuned, kwok = sys.argv[1:]
R = int(R)
def get(v, r):
    a = json.loads((Path(d) / f"{v}-{r}.json").read_text())
    it = a["iterations"][0]
    return it["measuredSeconds"], it["predictedSeconds"], it["bottleneck"]["stage"] if it.get("bottleneck") else "-", it["cpu"]
rows = [(r, get("default", r), get("tuned", r)) for r in range(1, R + 1)]
red = [1 - t[0] / dflt[0] for _, dflt, t in rows]
med = lambda xs: statistics.median(xs)
dm, tm = med([x[1][0] for x in rows]), med([x[2][0] for x in rows])
pm = med([x[2][1] for x in rows])
where = f" on {kwok} KWOK fake nodes" if kwok else ""
print(f"\n### Deploy pipeline: {J} × {P} pods{where}, default vs tuned — {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC — {machine}\n")
print(f"`{'KWOK_NODES=' + kwok + ' ' if kwok else ''}controller/bench/pipeline-bench.sh {J} {P} {R} {tuned}`: the two configurations alternate in one run "
      f"(ABBA…), {R} measurements each; seconds from the first create to the last pod Ready (traced). "
      f"Load average at the start {load0}, at the end {load1}: the 2 cores are shared with other work, so "
      "only ratios within this run mean something.\n")
print("| repeat | default (s) | tuned (s) | reduction | bottleneck default → tuned | model best case, tuned (s) | CPU control plane / node / host, tuned |")
print("|---|---|---|---|---|---|---|")
for (r, dflt, t), x in zip(rows, red):
    c = t[3]
    print(f"| {r} | {dflt[0]:.2f} | {t[0]:.2f} | {100 * x:.1f} % | {dflt[2]} → {t[2]} | {t[1]:.2f} | "
          f"{100 * c['controlPlane']:.0f} / {100 * c['node']:.0f} / {100 * c['host']:.0f} % |")
def stage_median(v, s):
    return med([json.loads((Path(d) / f"{v}-{r}.json").read_text())["iterations"][0]["measured"].get(s, 0.0)
                for r in range(1, R + 1)])
stages = " ".join(f"{s} {stage_median('default', s):.2f}/{stage_median('tuned', s):.2f}"
                  for s in ["S1", "S2", "S3", "S4", "S5", "S6", "S7"])
print(f"\nPer-stage medians, default/tuned (s): {stages}.")
spread = (max(red) - min(red)) / 2 if R > 1 else 0
print(f"\nMedian default {dm:.2f} s, tuned {tm:.2f} s: **{100 * (1 - tm / dm):.1f} % less** "
      f"(per-repeat reductions {100 * min(red):.1f}–{100 * max(red):.1f} %, ± {100 * spread:.1f} points). "
      f"Model best case (tuned, median) {pm:.2f} s = {100 * (pm / tm - 1):+.0f} % of the tuned measurement.")
PY
log "appended to docs/benchmarks-log.md"
