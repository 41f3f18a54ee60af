#!/usr/bin/env bash
# `make stop`: stops what `make run` started (by PID), then the cluster.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN_DIR=${ISOLATO_RUN_DIR:-/var/lib/isolato-run}
if [ -f "$RUN_DIR/run.pid" ]; then
  pid=$(cat "$RUN_DIR/run.pid"); rm -f "$RUN_DIR/run.pid"
  # Signal `make run` unless we are it; it then calls this script itself.
  if [ "$pid" != "$PPID" ] && [ "$pid" != "$$" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; exit 0; fi
fi
"$ROOT/localkube/localkube" down
