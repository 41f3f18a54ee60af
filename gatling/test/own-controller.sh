# Sourced after controller/test/lib.sh and gatling/test/lib.sh: brings up this script's own
# Isolato controller (own port and token, controller/test/lib.sh) on the running localkube with
# the saas-bench image loaded, and exports what the experiment runner needs to reach it.
# shellcheck shell=bash
own_controller_up() {
  # A controller stopped just before (a previous session) leaves a fresh lease: poll until it
  # is stale (15 s), at most 60 s, then check once more with its message.
  for _ in $(seq 1 30); do (require_cluster) 2>/dev/null && break; sleep 2; done
  require_cluster
  log "loading the saas-bench image into localkube"
  local ctx
  ctx=$(make -s -C "$REPO_ROOT" saas-bench-image | tail -1) # the build may print first
  "$LOCALKUBE" load-image --build "$ctx" --tag "$IMAGE" >&2
  ctx=$(make -s -C "$REPO_ROOT" gate-image | tail -1) # the pool pods' isolato-gate sidecar
  "$LOCALKUBE" load-image --build "$ctx" --tag localhost/isolato/gate:dev >&2
  start_controller
  export ISOLATO_API_URL=$API ISOLATO_API_TOKEN_FILE=$WORK/token
}
