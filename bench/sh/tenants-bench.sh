#!/usr/bin/env bash
# Isolato's own deployment paths, default vs tuned, each timed on localkube:
#   class   a new SLO class: from its POST until its pool (namespace isolato-c-tb, Deployment,
#           Service) has a Ready pod;
#   tenants N dedicated tenants onboarded at once (N namespaces, each with its pool: Deployment of
#           1 saas-bench pod, Service, table): from the first POST until every tenant is Serving;
#   scale   then, the tenants deleted, the class pool scaled 1 → 10: from the PUT of minReplicas =
#           maxReplicas = 10 until 10 pods are Ready.
# Each path is also traced by the deploy-pipeline tracer (PathTraceMain, docs/pipeline.md "Isolato's
# own paths"): per-stage breakdown with S1 split at the pool namespace's creation, CPU of the
# control plane and node, and, from one dedicated tenant onboarded alone just before the N (the
# model's single-pod input), the model's best case and bottleneck for the N tenants and the scale.
# The two configurations alternate (ABBA…) in one run, REPEATS times each; between runs the
# tenants and the class are deleted and their namespaces waited for. The timings go to
# WORK_DIR/timings.tsv (variant, repeat, class, scale, N tenants, controller CPU seconds), the
# traces to WORK_DIR/traces/; `isolato-bench tenants` reports them (tenants_report.py).
#   WORK_DIR=DIR bench/sh/tenants-bench.sh N REPEATS KEY=DEFAULT:TUNED...   (localkube keys;
#   isolato.* keys go to the controller and the tracer as properties, DEFAULT or TUNED)
# PROFILE=DIR records the controller with JDK Flight Recorder during each N-tenant onboarding
# (DIR/<default|tuned>-<repeat>.jfr, started and stopped by jcmd outside the timed window) and
# logs where its CPU went (`isolato-bench jfr-hot`).
# Uses its own state directory (LOCALKUBE_HOME, default /var/lib/localkube-tune) and leaves it down.
set -euo pipefail
LOG_TAG=tenants-bench
export LOCALKUBE_HOME=${LOCALKUBE_HOME:-/var/lib/localkube-tune}
# shellcheck source=../../controller/test/lib.sh
source "$(dirname "$0")/../../controller/test/lib.sh"
[ $# -ge 3 ] || { echo "usage: $0 N REPEATS KEY=DEFAULT:TUNED..." >&2; exit 2; }
N=$1 REPEATS=$2; shift 2
TUNED=("$@")
[ -z "${PROFILE:-}" ] || PROFILE=$(realpath -m "$PROFILE") # jcmd's file is the controller's, whose cwd differs
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
  local kv v out=""
  for kv in "${TUNED[@]}"; do
    case "$kv" in isolato.*) ;; *) continue ;; esac
    if [ "$1" = tuned ]; then v=${kv#*:}; else v=${kv#*=}; v=${v%%:*}; fi
    out+=" -D${kv%%=*}=$v"
  done
  echo "$out"
}
cleanup() { stop_tracer; stop_controller; reset; "$LOCALKUBE" down >/dev/null 2>&1 || true; }
on_exit cleanup
"$LOCALKUBE" up >&2
KUBECONFIG=$("$LOCALKUBE" kubeconfig)
export KUBECONFIG
ctx=${SAAS_BENCH_IMAGE_CONTEXT:-$(make -s --no-print-directory -C "$ROOT" saas-bench-image)}
"$LOCALKUBE" load-image --build "$ctx" --tag "$IMAGE" >&2
# A copy of the tuner's jar for the tracer: a rebuild while the bench runs must not pull classes from under it.
TRACE_JAR=$WORK/trace.jar
cp "$ROOT/tuner/target/isolato-tuner.jar" "$TRACE_JAR"
TRACES=${WORK_DIR:?the directory the timings and traces are kept in}/traces
# the pools' CPU per pod: small, so that 50 dedicated pools fit on two cores; the tracer's model
# counts it (docs/pipeline.md "Model")
POD_CPU_MILLIS=10
mkdir -p "$TRACES"

start_tracer() { # OUT.json [--set KEY=VALUE]...: the tracer in the background, talked to on fds TR_IN / TR_OUT
  local out=$1; shift
  rm -f "$WORK/trace.in" "$WORK/trace.out"
  mkfifo "$WORK/trace.in" "$WORK/trace.out"
  java -Dloader.main=dev.isolato.tuner.PathTraceMain -cp "$TRACE_JAR" \
    org.springframework.boot.loader.launch.PropertiesLauncher --localkube "$LOCALKUBE" --out "$out" "$@" \
    < "$WORK/trace.in" > "$WORK/trace.out" 2>>"$WORK/tracer.log" &
  TR_PID=$!
  exec {TR_IN}>"$WORK/trace.in" {TR_OUT}<"$WORK/trace.out"
}
stop_tracer() { # closes its stdin: it writes its JSON and exits
  [ -n "${TR_IN:-}" ] || return 0
  exec {TR_IN}>&- {TR_OUT}<&-
  TR_IN=
  wait "$TR_PID" 2>/dev/null || log "the tracer failed: $(tail -3 "$WORK/tracer.log")"
}
trace() { # COMMAND...: one command to the tracer; its answer on stdout, anything else to stderr
  local line
  echo "$*" >&"$TR_IN"
  while IFS= read -r line <&"$TR_OUT"; do
    case "$line" in
      "ready "*|"[trace] "*) echo "$line"; return 0 ;;
      "error "*) die "tracer: $line" ;;
      *) echo "$line" >&2 ;;
    esac
  done
  die "the tracer exited (log: $WORK/tracer.log)"
}

since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
# Waits by watching (kubectl wait, one process): polling kubectl every 0.2 s cost the 2-core
# host a good part of a core of its own while the paths it times were CPU-bound.
waited() { # T0 LIMIT WHAT KUBECTL_WAIT_ARGS...: prints seconds from T0 until the condition holds
  local t0=$1 limit=$2 what=$3; shift 3
  kubectl wait --timeout="${limit}s" "$@" >/dev/null || die "$what not within $limit s"
  since "$t0"
}
pool_ready() { # T0 LIMIT N: the class pool's Deployment has N Ready pods
  kubectl -n "isolato-c-$CLS" wait --for=create deploy/saas-bench --timeout="${2}s" >/dev/null \
    || die "no class pool Deployment within $2 s"
  waited "$1" "$2" "$3 Ready pool pods" -n "isolato-c-$CLS" --for=jsonpath='{.status.readyReplicas}'="$3" deploy/saas-bench
}
tenant_ids() { seq -w 1 "$N" | sed 's/^/tb-/'; }
serving() { # T0 LIMIT TENANT...: every TENANT Serving
  local t0=$1 limit=$2; shift 2
  waited "$t0" "$limit" "$# tenants Serving" -n isolato-system --for=jsonpath='{.status.phase}'=Serving "${@/#/tenant/}"
}
class_body() { # MIN MAX
  class_json "$CLS" "${POD_CPU_MILLIS}m" 32Mi "$2" 1000 | sed "s/\"priority\":500,/\"priority\":500,\"allowDedicated\":true,/; s/\"minReplicas\":1,/\"minReplicas\":$1,/"
}
new_class() { # NAME: prints seconds from the POST until the pool has a Ready pod
  local t0 s
  trace start "$1" >/dev/null
  t0=$(date +%s.%N)
  api POST /api/v1/slo-classes "$(class_body 1 10)" >/dev/null
  [ "$(status)" = 201 ] || die "class: $(status) $(cat "$WORK/body")"
  s=$(pool_ready "$t0" 300 1)
  log "$(trace stop "$1" 1 1)"
  echo "$s"
}
scale_pool() { # NAME INPUT: prints seconds from the PUT until 10 pool pods are Ready
  local t0 s
  trace start "$1" >/dev/null
  t0=$(date +%s.%N)
  api PUT "/api/v1/slo-classes/$CLS" "$(class_body 10 10)" >/dev/null
  [ "$(status)" = 200 ] || die "class scale: $(status) $(cat "$WORK/body")"
  s=$(pool_ready "$t0" 300 10)
  log "$(trace stop "$1" 1 9 "$2")"
  echo "$s"
}
delete_class() {
  api DELETE "/api/v1/slo-classes/$CLS" >/dev/null
  case "$(status)" in 202|204|404) ;; *) die "class delete: $(status) $(cat "$WORK/body")" ;; esac
  local deadline=$((SECONDS + 300))
  while kubectl get ns "isolato-c-$CLS" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "namespace isolato-c-$CLS not gone in 300 s"
    sleep 0.5
  done
}
tenant_body() { # ID
  printf '{"tenantId":"%s","sloClass":"%s","committedRps":1,"profile":{"cpu":1,"memory":4,"io":0},"isolation":"dedicated"}\n' "$1" "$CLS"
}
onboard_one() { # NAME: one dedicated tenant alone (tb-single), the model's input for the paths after it
  local t0
  trace start "$1" >/dev/null
  t0=$(date +%s.%N)
  api POST /api/v1/tenants "$(tenant_body tb-single)" >/dev/null
  [ "$(status)" = 201 ] || die "tenant: $(status) $(cat "$WORK/body")"
  serving "$t0" 300 tb-single >/dev/null
  log "$(trace stop "$1" 1 1)"
}
onboard_all() { # NAME INPUT: prints seconds from the first POST to all Serving (besides the single one)
  local t0 i s
  trace start "$1" >/dev/null
  t0=$(date +%s.%N)
  for i in $(tenant_ids); do tenant_body "$i"; done \
    | xargs -P 10 -d '\n' -I{} curl -s -o /dev/null -w '%{http_code}\n' -X POST -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' --data '{}' "$API/api/v1/tenants" | sort | uniq -c | grep -v ' 201$' >&2 || true
  # shellcheck disable=SC2046 # one argument per tenant
  s=$(serving "$t0" 400 $(tenant_ids))
  log "$(trace stop "$1" "$N" 1 "$2")"
  echo "$s"
}
offboard_all() {
  kubectl -n isolato-system delete tenants --all --wait=true --timeout=300s >/dev/null
  local deadline=$((SECONDS + 300))
  while kubectl get ns -o name | grep -q '^namespace/isolato-t-tb-'; do
    [ $SECONDS -lt $deadline ] || die "dedicated namespaces not gone in 300 s"
    sleep 1
  done
}
profile_onboarding() { # NAME: stops the recording into $PROFILE/NAME.jfr and logs its summary
  mkdir -p "$PROFILE"
  jcmd "$CTL_PID" JFR.stop name=onboard filename="$PROFILE/$1.jfr" >/dev/null
  log "controller profile $1 ($PROFILE/$1.jfr):"
  "${PY:?run through bench/isolato-bench}" -m isolato_bench jfr-hot --top 15 "$PROFILE/$1.jfr" >&2
}

# CPU time (clock ticks, user + system) of a process: the controller's own share of a path
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
declare -A secs cls scl ctl
for r in $(seq 1 "$REPEATS"); do
  order=(default tuned); [ $((r % 2)) -eq 0 ] && order=(tuned default)
  for v in "${order[@]}"; do
    configure "$v"
    JAVA_TOOL_OPTIONS="$(controller_props "$v")" start_controller
    # shellcheck disable=SC2046 # one --set per isolato.* key
    start_tracer "$TRACES/$v-$r.json" --client-pid "$CTL_PID" --pod-cpu-millis "$POD_CPU_MILLIS" $(controller_props "$v" | sed 's/ -D/ --set /g')
    cls[$v-$r]=$(new_class class)
    onboard_one single
    [ -z "${PROFILE:-}" ] || jcmd "$CTL_PID" JFR.start name=onboard settings=profile >/dev/null
    c0=$(cpu_ticks "$CTL_PID")
    secs[$v-$r]=$(onboard_all tenants single)
    ctl[$v-$r]=$(awk -v a="$c0" -v b="$(cpu_ticks "$CTL_PID")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / hz }')
    [ -z "${PROFILE:-}" ] || profile_onboarding "$v-$r"
    offboard_all
    # after the tenants: a dedicated pool takes the class's replica bounds, so at minReplicas 10
    # each tenant would get 10 pods
    scl[$v-$r]=$(scale_pool scale single)
    stop_tracer
    echo "$v $r ${cls[$v-$r]} ${scl[$v-$r]} ${secs[$v-$r]} ${ctl[$v-$r]}" >> "$WORK_DIR/timings.tsv"
    log "repeat $r $v: class pool Ready in ${cls[$v-$r]} s, $N dedicated tenants Serving in ${secs[$v-$r]} s (controller CPU ${ctl[$v-$r]} s), pool scaled 1 → 10 in ${scl[$v-$r]} s"
    delete_class
    stop_controller
  done
done
