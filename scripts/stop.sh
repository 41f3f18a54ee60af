#!/usr/bin/env bash
# `make stop`: stops what `make run` started, by PID, then the cluster.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN_DIR=${ISOLATO_RUN_DIR:-/var/lib/isolato-run}
if [ -f "$RUN_DIR/run.pid" ]; then
  pid=$(cat "$RUN_DIR/run.pid"); rm -f "$RUN_DIR/run.pid"
  # From another shell: signal `make run`, whose trap calls this script again.
  if [ "$pid" != "$PPID" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
    exit 0
  fi
fi
if [ -f "$RUN_DIR/controller.pid" ]; then
  pid=$(cat "$RUN_DIR/controller.pid"); rm -f "$RUN_DIR/controller.pid"
  if kill -0 "$pid" 2>/dev/null; then
    echo "[make stop] stopping the controller (pid $pid)"
    kill -TERM "$pid"
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  fi
fi
"$ROOT/localkube/localkube" down
