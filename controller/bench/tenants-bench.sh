#!/usr/bin/env bash
# Isolato's own deployment path, default vs tuned: N dedicated tenants onboarded at once (N
# namespaces, each with its pool: Deployment of 1 saas-bench pod, Service, table), timed from
# the first POST until every tenant is Serving. The two configurations alternate (ABBA…) in
# one run, REPEATS times each; between runs the tenants are deleted and their namespaces waited
# for. Appends the figures to docs/BENCHMARKS.md.
#   controller/bench/tenants-bench.sh N REPEATS KEY=DEFAULT:TUNED...   (localkube keys; isolato.*
#   keys go to the tuned controller as properties, TUNED only)
# Uses its own state directory (LOCALKUBE_HOME, default /var/lib/localkube-tune) and leaves it down.
set -euo pipefail
LOG_TAG=tenants-bench
export LOCALKUBE_HOME=${LOCALKUBE_HOME:-/var/lib/localkube-tune}
source "$(dirname "$0")/../test/lib.sh"
[ $# -ge 3 ] || { echo "usage: $0 N REPEATS KEY=DEFAULT:TUNED..." >&2; exit 2; }
N=$1 REPEATS=$2; shift 2
TUNED=("$@")
CLS=tb
reset() { local kv; for kv in "${TUNED[@]}"; do "${LK:-$LOCALKUBE}" config unset "${kv%%=*}" >/dev/null 2>&1 || true; done; }
configure() { # default|tuned: localkube keys set/unset, then up
  local kv v
  for kv in "${TUNED[@]}"; do
    case "$kv" in isolato.*) continue ;; esac
    if [ "$1" = tuned ]; then v=${kv#*=}; v=${v#*:}; else v=${kv#*=}; v=${v%%:*}; fi
    "$LOCALKUBE" config set "${kv%%=*}" "$v" >/dev/null
  done
  "$LOCALKUBE" up >/dev/null 2>&1
}
controller_props() { # default|tuned → JAVA_TOOL_OPTIONS system properties for isolato.* keys
  local kv out=""
  [ "$1" = tuned ] || { echo ""; return; }
  for kv in "${TUNED[@]}"; do case "$kv" in isolato.*) out+=" -D${kv%%=*}=${kv#*:}" ;; esac; done
  echo "$out"
}
cleanup() { stop_controller; reset; "$LOCALKUBE" down >/dev/null 2>&1 || true; }
trap cleanup EXIT
"$LOCALKUBE" up >&2
KUBECONFIG=$("$LOCALKUBE" kubeconfig)
export KUBECONFIG
ctx=${SAAS_BENCH_IMAGE_CONTEXT:-$(make -s --no-print-directory -C "$ROOT" saas-bench-image)}
"$LOCALKUBE" load-image --build "$ctx" --tag "$IMAGE" >&2

onboard_all() { # prints seconds from the first POST to all Serving
  local t0 i
  t0=$(date +%s.%N)
  for i in $(seq -w 1 "$N"); do
    printf '{"tenantId":"tb-%s","sloClass":"%s","committedRps":1,"profile":{"cpu":1,"memory":4,"io":0},"isolation":"dedicated"}\n' "$i" "$CLS"
  done | xargs -P 10 -d '\n' -I{} curl -s -o /dev/null -w '%{http_code}\n' -X POST -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' --data '{}' "$API/api/v1/tenants" | sort | uniq -c | grep -v ' 201$' >&2 || true
  until [ "$(kubectl -n isolato-system get tenants -o jsonpath='{range .items[*]}{.status.phase}{"\n"}{end}' | grep -c '^Serving$')" -ge "$N" ]; do
    awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { exit !(b - a > 600) }' && die "not all $N Serving in 600 s"
    sleep 0.2
  done
  awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'
}
offboard_all() {
  kubectl -n isolato-system delete tenants --all --wait=true --timeout=300s >/dev/null
  local deadline=$((SECONDS + 300))
  while kubectl get ns -o name | grep -q '^namespace/isolato-t-tb-'; do
    [ $SECONDS -lt $deadline ] || die "dedicated namespaces not gone in 300 s"
    sleep 1
  done
}

declare -A secs
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq 1 "$REPEATS"); do
  order=(default tuned); [ $((r % 2)) -eq 0 ] && order=(tuned default)
  for v in "${order[@]}"; do
    configure "$v"
    JAVA_TOOL_OPTIONS="$(controller_props "$v")" start_controller
    api POST /api/v1/slo-classes "$(class_json "$CLS" 10m 32Mi 1 1000 | sed 's/"priority":500,/"priority":500,"allowDedicated":true,/')" >/dev/null
    case "$(status)" in 201|409) ;; *) die "class: $(status) $(cat "$WORK/body")" ;; esac
    secs[$v-$r]=$(onboard_all)
    log "repeat $r $v: $N dedicated tenants Serving in ${secs[$v-$r]} s"
    offboard_all
    stop_controller
  done
done
machine="$(uname -n), $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
{
  echo
  echo "### $N dedicated tenants onboarded at once, default vs tuned — $(date -u '+%Y-%m-%d %H:%M') UTC — $machine"
  echo
  echo "\`controller/bench/tenants-bench.sh $N $REPEATS ${TUNED[*]}\`: the configurations alternate in one run (ABBA…),"
  echo "$REPEATS runs each; seconds from the first POST (10 clients) until every tenant is Serving (polled every 0.2 s)."
  echo "Load average at the start $load0, at the end $(cut -d' ' -f1-3 /proc/loadavg): a shared 2-core machine, compare within the run only."
  echo
  echo "| repeat | default (s) | tuned (s) | reduction |"
  echo "|---|---|---|---|"
  for r in $(seq 1 "$REPEATS"); do
    awk -v r="$r" -v d="${secs[default-$r]}" -v t="${secs[tuned-$r]}" 'BEGIN { printf "| %d | %.2f | %.2f | %.1f %% |\n", r, d, t, 100 * (1 - t / d) }'
  done
  for r in $(seq 1 "$REPEATS"); do echo "${secs[default-$r]} ${secs[tuned-$r]}"; done | sort -n | awk '
    { d[NR] = $1; t[NR] = $2 } END { n = NR; asort(d); asort(t); md = d[int((n + 1) / 2)]; mt = t[int((n + 1) / 2)];
      printf "\nMedian default %.2f s, tuned %.2f s: **%.1f %% less** (per-repeat figures in the table).\n", md, mt, 100 * (1 - mt / md) }'
} >> "$ROOT/docs/BENCHMARKS.md"
log "appended to docs/BENCHMARKS.md"
