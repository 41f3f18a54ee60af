# Shared helpers of the gatling/ test and experiment scripts (sourced, not run).
# shellcheck shell=bash
# shellcheck disable=SC2034 # STUB_PID, STUB_URL are read by the scripts that source this file
GATLING_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO_ROOT="$(cd "$GATLING_DIR/.." && pwd)"
SIM_PACKAGE=dev.isolato.gatling.simulations
# The Gatling module alone: calibration-format comes from the local Maven repository (make's
# calibration-format-install), as in gatling/part.mk, so these builds never write
# calibration-format/target while the controller's build beside them does.
GATLING_MVN=("$REPO_ROOT/mvnw" -B -q --no-transfer-progress -f "$REPO_ROOT/pom.xml" -pl gatling)

log() { printf '[%s] %s\n' "${LOG_TAG:-gatling}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# sim_start CLASS [-Disolato.x=y ...]: starts one Gatling run through the Maven plugin in the
# background, in its own process group (so that an interrupt or a time-out stops the forked
# Gatling JVM too); its PID (= process group) in SIM_PID.
sim_start() {
  local cls=$1; shift
  setsid "${GATLING_MVN[@]}" gatling:test "-Dgatling.simulationClass=$SIM_PACKAGE.$cls" "$@" &
  SIM_PID=$!
}

# run_simulation CLASS [-Disolato.x=y ...]: one Gatling run in the foreground (see sim_start).
# Sets SIM_PID while it runs; returns Gatling's exit status.
run_simulation() {
  sim_start "$@"
  local rc=0
  wait "$SIM_PID" || rc=$?
  SIM_PID=
  return "$rc"
}

# stop_group PID: SIGTERM to the whole process group (the Gatling JVM's shutdown hook writes
# the partial results; SIGINT would not do: background jobs of a script ignore it, and the
# JVM keeps an inherited ignore), then SIGKILL if it is still there after 20 s.
stop_group() {
  local pid=$1
  [ -n "$pid" ] && pgrep -g "$pid" >/dev/null || return 0
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 200); do
    pgrep -g "$pid" >/dev/null || return 0
    sleep 0.1
  done
  log "group $pid still running after 20 s: SIGKILL"
  kill -KILL -- "-$pid" 2>/dev/null || true
}

# start_stub ARGS...: the loopback stand-in for saas-bench; sets STUB_PID and STUB_URL.
start_stub() {
  local out; out=$(mktemp)
  python3 "$GATLING_DIR/src/test/fixtures/stub_server.py" "$@" >"$out" &
  STUB_PID=$!
  for _ in $(seq 1 50); do
    [ -s "$out" ] && break
    sleep 0.1
  done
  [ -s "$out" ] || die "stub server did not start"
  STUB_URL="http://127.0.0.1:$(head -1 "$out")"
  rm -f "$out"
}
