#!/usr/bin/env bash
# make test-images: the image-level tests (images-test/src/test/java) through podman's
# Docker-compatible API. Builds the two images from their staged contexts into podman's store
# under test tags, starts `podman system service` on a socket in a directory of its own, runs
# the Testcontainers suite against it, and stops the service by its PID whatever the outcome.
# Ryuk is off (it would have to be pulled): the tests remove their containers themselves, and
# a container of this run still present at the end fails the run (and is removed).
# Usage: run.sh <saas-bench image context> <controller image context>
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SAAS_BENCH_IMAGE=localhost/isolato/saas-bench:image-test
CONTROLLER_IMAGE=localhost/isolato/controller:image-test
log() { printf '[images-test] %s\n' "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }
command -v podman >/dev/null || die "podman is missing; run 'make deps'"

# Builds $1 as $2; the image the tag named before, now untagged, is removed (no pile of
# dangling 200 MB controller images after many runs).
build() {
  local old new
  old=$(podman image inspect --format '{{.Id}}' "$2" 2>/dev/null || true)
  podman build --quiet --runtime runc -t "$2" "$1" >/dev/null || die "podman build of $1 failed"
  new=$(podman image inspect --format '{{.Id}}' "$2")
  if [ -n "$old" ] && [ "$old" != "$new" ] && [ "$(podman image inspect --format '{{len .RepoTags}}' "$old" 2>/dev/null)" = 0 ]; then
    podman image rm "$old" >/dev/null 2>&1 || true
  fi
}
t0=$SECONDS
build "$1" "$SAAS_BENCH_IMAGE"
build "$2" "$CONTROLLER_IMAGE"
log "images built in $((SECONDS - t0)) s"

RUN_ID=$(date +%s)-$$
RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/isolato-podman.XXXXXX")
SOCKET=$RUN_DIR/podman.sock
podman system service --time=0 "unix://$SOCKET" >"$RUN_DIR/service.log" 2>&1 &
SERVICE_PID=$!
finish() {
  local rc=$? left
  mapfile -t left < <(podman ps -aq --filter "label=dev.isolato.image-test.run=$RUN_ID")
  if [ ${#left[@]} -gt 0 ]; then
    log "FAIL: the tests left containers behind: ${left[*]} (removing them)"
    podman rm -f -v "${left[@]}" >/dev/null 2>&1 || true
    rc=1
  fi
  kill "$SERVICE_PID" 2>/dev/null || true
  wait "$SERVICE_PID" 2>/dev/null || true
  [ $rc = 0 ] || { log "podman service log (last lines):"; tail -5 "$RUN_DIR/service.log" >&2; }
  rm -rf "$RUN_DIR"
  exit $rc
}
trap finish EXIT
for _ in $(seq 100); do [ -S "$SOCKET" ] && break; sleep 0.1; done
[ -S "$SOCKET" ] || die "podman system service did not open $SOCKET"

# The controller's test classes come from the same reactor (RealApiServer); its own tests are
# filtered out by -Dtest.
DOCKER_HOST=unix://$SOCKET "$ROOT/mvnw" -B -q --no-transfer-progress -f "$ROOT/pom.xml" -pl controller,images-test -am test \
  -Dtest='dev.isolato.images.**' -Dsurefire.failIfNoSpecifiedTests=false -Disolato.images.skip=false \
  -Disolato.images.run="$RUN_ID" -Disolato.images.saasBench="$SAAS_BENCH_IMAGE" -Disolato.images.controller="$CONTROLLER_IMAGE"
log "saas-bench and controller images passed ($((SECONDS - t0)) s)"
