# Sourced by helm/test/e2e.sh and bench/sh/image.sh (needs LK and ROOT).
# shellcheck shell=bash
CONTROLLER_IMAGE=localhost/isolato/controller:0.1.0
BUSYBOX_IMAGE=localhost/isolato/busybox:1.35
SAAS_BENCH_IMAGE=localhost/isolato/saas-bench:dev

# Builds the images the chart uses and loads them into the running localkube (no registry:
# podman build + ctr import).
load_images() {
  local ctx
  # the build's own output (Spring AOT's processing run logs to stdout) goes to stderr: the
  # context is where helm/part.mk stages it
  make -s --no-print-directory -C "$ROOT" controller-image-context >&2
  "$LK" load-image --build "$ROOT/build/controller-image" --tag "$CONTROLLER_IMAGE"
  ctx=$(make -s --no-print-directory -C "$ROOT" saas-bench-image)
  "$LK" load-image --build "$ctx" --tag "$SAAS_BENCH_IMAGE"
  ctx=$(make -s --no-print-directory -C "$ROOT" gate-image | tail -1) # every pool pod's sidecar
  "$LK" load-image --build "$ctx" --tag localhost/isolato/gate:dev
  ctx=$ROOT/build/busybox-image
  rm -rf "$ctx"; mkdir -p "$ctx/bin"
  cp /bin/busybox "$ctx/bin/busybox"
  for a in $(/bin/busybox --list); do [ "$a" = busybox ] || ln -s busybox "$ctx/bin/$a"; done
  cp "$ROOT/helm/test/busybox/Containerfile" "$ctx/"
  "$LK" load-image --build "$ctx" --tag "$BUSYBOX_IMAGE"
}

# Kills the controller JVM of pod $1 from the host with SIGKILL (a crash: no shutdown hook,
# so the leader does not release its lease).
crash_controller_pod() {
  local pid
  for pid in $(pgrep -f /opt/isolato/isolato-controller.jar); do
    tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "HOSTNAME=$1" && kill -9 "$pid"
  done
  return 0
}
