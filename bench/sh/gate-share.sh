#!/usr/bin/env bash
# The gate's CPU beside go-httpbin's in the httpbin-alone pod, under open-loop load at the
# class's measured cut-off (and at half of it), from the containers' own cpu cgroups (cgroupfs,
# v1). Run with KUBECONFIG set to the cluster (root: the cgroup files), after
# `make experiment NAME=httpbin-alone` (its class stays); run by `isolato-bench gate-share`, which
# writes its section of docs/benchmarks-log.md (writes results/httpbin-alone/gate-share.json).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=results/httpbin-alone/gate-share.json
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pod=$(kubectl get pods -A -l 'isolato.dev/class=httpbin,isolato.dev/isolation=shared,!isolato.dev/role' -o json | jq '.items[0]')
uid=$(jq -r .metadata.uid <<<"$pod")
ns=$(jq -r .metadata.namespace <<<"$pod")
ip=$(kubectl -n "$ns" get svc -l isolato.dev/class=httpbin -o jsonpath='{.items[0].spec.clusterIP}')
cutoff=$(jq -r '.status.perPodCutoffRps' results/httpbin-alone/httpbin.status.json)
cid() { jq -r --arg n "$1" '.status.containerStatuses[] | select(.name == $n) | .containerID | sub("^containerd://"; "")' <<<"$pod"; }
read_cg() { # CONTAINER-ID -> "usage_ns nr_periods nr_throttled throttled_ns quota_us"
  local acct=/sys/fs/cgroup/cpuacct/kubepods/pod$uid/$1 cpu=/sys/fs/cgroup/cpu/kubepods/pod$uid/$1
  echo "$(cat "$acct/cpuacct.usage") $(awk '{print $2}' "$cpu/cpu.stat" | head -3 | paste -sd' ') $(cat "$cpu/cpu.cfs_quota_us")"
}
gate=$(cid isolato-gate) app=$(cid httpbin)
if ! read_cg "$gate" >/dev/null || ! read_cg "$app" >/dev/null; then
  ls "/sys/fs/cgroup/cpu/kubepods/pod$uid" >&2
  exit 1
fi
rows=()
for share in 0.5 1.0; do
  rate=$(python3 -c "print(round($cutoff * $share, 1))")
  g0=$(read_cg "$gate") a0=$(read_cg "$app") t0=$(date +%s.%N)
  build/openloop -url "http://$ip:8080" -class httpbin -tenants httpbin-t1,httpbin-t2 -rates "$rate" \
    -requests "$(python3 -c "print(int($rate * 30))")" -warmup 0s -method GET -path /get \
    -tenant-header X-Tenant -out "$TMP/gate-share-$share.json" >&2
  g1=$(read_cg "$gate") a1=$(read_cg "$app") t1=$(date +%s.%N)
  rows+=("$(jq -n --argjson share "$share" --argjson rate "$rate" --arg g0 "$g0" --arg g1 "$g1" \
    --arg a0 "$a0" --arg a1 "$a1" --argjson secs "$(python3 -c "print($t1 - $t0)")" \
    --slurpfile run "$TMP/gate-share-$share.json" '
    def d($x; $y): ($y | split(" ") | map(tonumber)) as $b | ($x | split(" ") | map(tonumber)) as $a
      | {cpuMillicores: (($b[0] - $a[0]) / 1e6 / $secs), periods: ($b[1] - $a[1]),
         throttledPeriods: ($b[2] - $a[2]), throttledMs: (($b[3] - $a[3]) / 1e6), quotaUs: $b[4]};
    {shareOfCutoff: $share, offeredRps: $rate, seconds: $secs, gate: d($g0; $g1), app: d($a0; $a1),
     achievedRps: $run[0].steps[0].achievedRps, p95Ms: $run[0].steps[0].total.p95,
     errors: $run[0].steps[0].total.errors}')")
done
printf '%s\n' "${rows[@]}" | jq -s --arg cutoff "$cutoff" --arg date "$(date -u +%FT%TZ)" \
  '{date: $date, measuredCutoffRps: ($cutoff | tonumber), endpoint: "GET /get", runs: .}' > "$OUT"
cat "$OUT"
