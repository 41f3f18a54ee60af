#!/usr/bin/env bash
# The IO co-location guard measured on 2 real localkube nodes (issue 37 item 4, SAC'20 Findings
# 1–2): an IO-sensitive class (every request one 4 KiB write and an fdatasync, IO-heavy by its
# committed syncs) pinned to node 1, and an IO-heavy neighbour class (every request 8 MiB written
# and synced). Per phase the guard is on (both classes guarded: the neighbour is kept off node 1,
# so it runs on node 2) or off (both classes `placement.ioGuard: false` and the neighbour pinned
# to node 1 too: the co-location the guard prevents). Each phase measures the sensitive class
# alone (the neighbour idle) and then beside the neighbour's load, same pods. Phases alternate
# with/without, REPS times, the order flipping each repetition. Every generator is bounded
# (-requests, -max-duration) and reports its own CPU and achieved rate (-self-stats); the host's
# /proc/diskstats and /proc/stat are kept around each run. `isolato-bench coloc` runs this under
# the cluster lock (≈ 8 min with REPS=2) and turns OUT into the table, plot and log section.
set -euo pipefail
LOG_TAG=coloc-bench
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
OPENLOOP=${OPENLOOP:-$ROOT/build/openloop}
OUT=${OUT:-$ROOT/results/coloc}
REPS=${REPS:-2} SECONDS_PER_RUN=${SECONDS_PER_RUN:-30} ALONE_SECONDS=${ALONE_SECONDS:-15}
SENS=co-sensitive NOISY=co-noisy TS=co-sens-t TN=co-noisy-t
SENS_RATE=${SENS_RATE:-40} NOISY_RATE=${NOISY_RATE:-8} NOISY_IO=${NOISY_IO:-2048}
TARGET_MS=100
LOAD_PID=
lk_conf() { "$LOCALKUBE" config | awk -v k="$1" '$1 == k && $2 == "=" { print $3 }'; }
NODES_BEFORE=$(lk_conf node.count); NODES_BEFORE=${NODES_BEFORE:-1}
cleanup() {
  if [ -n "$LOAD_PID" ]; then kill "$LOAD_PID" 2>/dev/null || true; fi
  if [ -n "$CTL_PID" ]; then
    offboard_tenants $TS $TN
    api DELETE "/api/v1/slo-classes/$SENS" >/dev/null
    api DELETE "/api/v1/slo-classes/$NOISY" >/dev/null
    kubectl wait --for=delete "namespace/isolato-c-$SENS" "namespace/isolato-c-$NOISY" --timeout=60s >/dev/null 2>&1 || true
  fi
  stop_controller
  "$LOCALKUBE" up --nodes="$NODES_BEFORE" >&2 || log "warning: node count not restored to $NODES_BEFORE"
}
on_exit cleanup

[ -x "$OPENLOOP" ] || die "$OPENLOOP missing (make openloop-build)"
"$LOCALKUBE" status >/dev/null 2>&1 || die "localkube is not running"
t0=$SECONDS
"$LOCALKUBE" up --nodes=2 >&2
require_cluster # after the join: the gate image into both nodes
NODE1=$(lk_conf node.name) NODE2=$(lk_conf node.name)-2
log "nodes $NODE1 and $NODE2 Ready in $((SECONDS - t0)) s"
# the host's clients by address on both nodes (as test-placement-e2e), should policies be enforced
export HOST_CIDRS=10.250.0.0/16,10.244.0.1/32
load_saas_bench_image
start_controller
rm -rf "$OUT/runs"; mkdir -p "$OUT/runs"

class() { # NAME CPU CUTOFF PLACEMENT_JSON
  printf '{"name":"%s","spec":{"latency":{"percentile":95,"targetMs":%s},"resources":{"cpu":"%s","memory":"64Mi"},"priority":500,"minReplicas":1,"maxReplicas":1,"pivotPercent":70,"perPodCutoffRps":%s,"admission":"off","image":"%s","placement":%s}}' \
    "$1" $TARGET_MS "$2" "$3" "$IMAGE" "$4"
}
on_node() { printf '{"nodeSelector":{"kubernetes.io/hostname":"%s"},"ioGuard":%s}' "$1" "$2"; }
# created unguarded, both on node 1 (guarded at once, whichever pod came first could keep the other
# Pending); the first guarded phase then moves the neighbour
sens_class() { class $SENS 250m 200 "$(on_node "$NODE1" "$1")"; }
noisy_class() { # GUARD(true|false): guarded, free to go where the guard allows; else pinned to node 1
  if [ "$1" = true ]; then class $NOISY 500m 20 '{"ioGuard":true}'; else class $NOISY 500m 20 "$(on_node "$NODE1" false)"; fi
}
put_class() { # NAME JSON
  api PUT "/api/v1/slo-classes/$1" "$2" >/dev/null
  [ "$(status)" = 200 ] || die "PUT $1: HTTP $(status) $(cat "$WORK/body")"
}
pods() { kubectl -n "isolato-c-$1" get pods -l app.kubernetes.io/name=saas-bench -o json; }
settled() { # CLASS LABEL(true|none) → "node label" of its one pod, once the pod the PUT asked for
  # (its io-heavy label as expected: the label flips with the guard) is Ready and the old one gone
  local p=
  for _ in $(seq 1 150); do
    p=$(pods "$1")
    jq -e --arg l "$2" '(.items | length) == 1 and (.items[0] | .metadata.deletionTimestamp == null
      and (.metadata.labels["isolato.dev/io-heavy"] // "none") == $l
      and any(.status.conditions[]?; .type == "Ready" and .status == "True"))' <<< "$p" >/dev/null && break
    p=
    sleep 1 # the controller's apply, the rollout, the old pod terminating; bounded by the loop
  done
  [ -n "$p" ] || die "$1: no single Ready pod with io-heavy label $2 within 150 s: $(pods "$1" | jq -c '[.items[] | {n: .metadata.name, node: .spec.nodeName, l: .metadata.labels["isolato.dev/io-heavy"], phase: .status.phase}]')"
  jq -r '.items[0] | "\(.spec.nodeName) \(.metadata.labels["isolato.dev/io-heavy"] // "none")"' <<< "$p"
}

api POST /api/v1/slo-classes "$(sens_class false)" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "class $SENS: HTTP $(status) $(cat "$WORK/body")"
api POST /api/v1/slo-classes "$(noisy_class false)" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "class $NOISY: HTTP $(status) $(cat "$WORK/body")"
# sensitive: 100 committed fdatasyncs/s make it IO-heavy; neighbour: 10 × 8 MiB/s synced
api POST /api/v1/tenants "{\"tenantId\":\"$TS\",\"sloClass\":\"$SENS\",\"committedRps\":100,\"profile\":{\"cpu\":1,\"memory\":0,\"io\":1,\"fsync\":true}}" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "tenant $TS: HTTP $(status) $(cat "$WORK/body")"
api POST /api/v1/tenants "{\"tenantId\":\"$TN\",\"sloClass\":\"$NOISY\",\"committedRps\":10,\"profile\":{\"cpu\":1,\"memory\":0,\"io\":$NOISY_IO,\"fsync\":true}}" >/dev/null
[[ $(status) =~ ^(201|409)$ ]] || die "tenant $TN: HTTP $(status) $(cat "$WORK/body")"
wait_serving 120 $TS $TN

phase() { # GUARD(true|false): the classes PUT in the order that never leaves a pod Pending
  local label=none
  [ "$1" = true ] && label=true
  if [ "$1" = true ]; then # sensitive guarded first, then the guard sends the neighbour away
    put_class $SENS "$(sens_class true)"; settled $SENS $label >/dev/null
    put_class $NOISY "$(noisy_class true)"
  else                     # the neighbour unguarded onto node 1 first, then the sensitive one
    put_class $NOISY "$(noisy_class false)"; settled $NOISY $label >/dev/null
    put_class $SENS "$(sens_class false)"
  fi
  SENS_AT=$(settled $SENS $label) NOISY_AT=$(settled $NOISY $label)
  log "guard $1: $SENS on ${SENS_AT% *} (io-heavy label ${SENS_AT#* }), $NOISY on ${NOISY_AT% *} (${NOISY_AT#* })"
  if [ "$1" = true ]; then
    [ "${NOISY_AT% *}" != "${SENS_AT% *}" ] || die "guard on, yet both classes on ${SENS_AT% *}"
  else
    [ "${NOISY_AT% *}" = "${SENS_AT% *}" ] || die "guard off and both pinned, yet on ${SENS_AT% *} and ${NOISY_AT% *}"
  fi
}
load() { # URL CLASS TENANT RATE REQUESTS WARMUP OUT_PREFIX: one bounded open-loop run
  "$OPENLOOP" -url "$1" -class "$2" -tenants "$3" -rates "$4" -requests "$5" -warmup "$6" -timeout 10s \
    -max-duration "$(( $5 / $4 + 40 ))s" -self-stats -samples "$7.csv" -out "$7.json" 2>"$7.log"
}
snap() { cp /proc/diskstats "$1.diskstats"; cp /proc/stat "$1.stat"; date +%s%N > "$1.t"; }
run() { # GUARD REP
  local dir=$OUT/runs/guard-$1-r$2 sip nip
  mkdir -p "$dir"
  phase "$1"
  sip=http://$(service_ip $SENS):8080 nip=http://$(service_ip $NOISY):8080
  snap "$dir/alone0"
  load "$sip" $SENS $TS "$SENS_RATE" $((SENS_RATE * ALONE_SECONDS)) 3s "$dir/alone" || die "alone run failed: $(tail -3 "$dir/alone.log")"
  snap "$dir/alone1"
  # the neighbour's load covers the sensitive run (its 3 s warm-up included) and a little more
  load "$nip" $NOISY $TN "$NOISY_RATE" $((NOISY_RATE * (SECONDS_PER_RUN + 6))) 0s "$dir/noisy" &
  LOAD_PID=$!
  snap "$dir/beside0"
  load "$sip" $SENS $TS "$SENS_RATE" $((SENS_RATE * SECONDS_PER_RUN)) 3s "$dir/beside" || die "run beside the neighbour failed: $(tail -3 "$dir/beside.log")"
  snap "$dir/beside1"
  wait "$LOAD_PID" || die "the neighbour's load failed: $(tail -3 "$dir/noisy.log")"
  LOAD_PID=
  jq -n --argjson guard "$1" --argjson rep "$2" --arg sens "${SENS_AT% *}" --arg noisy "${NOISY_AT% *}" \
    --arg sensLabel "${SENS_AT#* }" --arg noisyLabel "${NOISY_AT#* }" \
    '{guard: $guard, rep: $rep, sensitiveNode: $sens, noisyNode: $noisy, sensitiveLabel: $sensLabel, noisyLabel: $noisyLabel}' > "$dir/meta.json"
  log "guard $1, rep $2: $SENS p95 alone $(jq '.steps[0].total.p95' "$dir/alone.json") ms, beside $NOISY $(jq '.steps[0].total.p95' "$dir/beside.json") ms; neighbour achieved $(jq '.steps[0].achievedRps' "$dir/noisy.json") req/s"
}
for rep in $(seq 1 "$REPS"); do
  if [ $((rep % 2)) = 1 ]; then order="false true"; else order="true false"; fi
  for g in $order; do run "$g" "$rep"; done
done
disk=$(findmnt -no SOURCE -T "${LOCALKUBE_HOME:-/var/lib/localkube}" 2>/dev/null || true)
jq -n --argjson reps "$REPS" --argjson seconds "$SECONDS_PER_RUN" --argjson alone "$ALONE_SECONDS" \
  --argjson sensRate "$SENS_RATE" --argjson noisyRate "$NOISY_RATE" --argjson noisyIo "$NOISY_IO" \
  --argjson target $TARGET_MS --arg node1 "$NODE1" --arg node2 "$NODE2" --arg disk "${disk:-/dev/vda}" \
  --arg ended "$(date -u '+%Y-%m-%d %H:%M UTC')" --arg load "$(cut -d' ' -f1 /proc/loadavg)" \
  '{reps: $reps, secondsPerRun: $seconds, aloneSeconds: $alone, sensitiveRps: $sensRate, noisyRps: $noisyRate,
    noisyIoBlocks: $noisyIo, targetMs: $target, node1: $node1, node2: $node2, disk: $disk, ended: $ended,
    loadAverage: $load}' > "$OUT/meta.json"
log "done in $((SECONDS - t0)) s"
